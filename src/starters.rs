//! The starter manifests a learner can pick from (the `.yaml` files beside this module). A
//! starter also chooses the cluster preset it is meant for: the Forbidden example needs a
//! cluster with a limited user, the Pod Security one a namespace that enforces a level.

/// One starter manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Starter {
    /// Stable identifier (kept in localStorage and used by the tests).
    pub id: &'static str,
    /// What the picker shows.
    pub title: &'static str,
    /// The file name kubectl is given (`kubectl apply -f <file>`).
    pub file: &'static str,
    /// The cluster preset the example is written for (an engine preset name).
    pub preset: &'static str,
    /// What the learner should expect, in one sentence.
    pub expect: &'static str,
    pub yaml: &'static str,
}

pub const STARTERS: &[Starter] = &[
    Starter {
        id: "pod",
        title: "A Pod",
        file: "pod.yaml",
        preset: "kind",
        expect: "The Pod is created, scheduled onto a worker and its container starts.",
        yaml: include_str!("starters/pod.yaml"),
    },
    Starter {
        id: "deployment",
        title: "A Deployment",
        file: "deployment.yaml",
        preset: "kind",
        expect: "Controllers turn the Deployment into a ReplicaSet and two Pods.",
        yaml: include_str!("starters/deployment.yaml"),
    },
    Starter {
        id: "pending",
        title: "A Pod that stays Pending",
        file: "big-batch.yaml",
        preset: "kind",
        expect: "The Pod is stored, but no node has enough CPU for it.",
        yaml: include_str!("starters/pending.yaml"),
    },
    Starter {
        id: "forbidden",
        title: "Forbidden: alice creates a Pod",
        file: "debug.yaml",
        preset: "rbac-alice",
        expect: "alice may read Pods in dev but not create them: RBAC refuses the request.",
        yaml: include_str!("starters/forbidden.yaml"),
    },
    Starter {
        id: "privileged",
        title: "A privileged Pod in a restricted namespace",
        file: "node-debugger.yaml",
        preset: "restricted-namespace",
        expect: "Pod Security admission refuses a privileged Pod in a namespace that enforces \"restricted\".",
        yaml: include_str!("starters/privileged.yaml"),
    },
    Starter {
        id: "image-typo",
        title: "A Pod with a typo in its image",
        file: "web-typo.yaml",
        preset: "kind",
        expect: "The API server accepts it; the kubelet cannot pull an image that does not exist.",
        yaml: include_str!("starters/image-typo.yaml"),
    },
    Starter {
        id: "service",
        title: "A Service with no endpoints",
        file: "checkout-svc.yaml",
        preset: "kind",
        expect: "The Service gets a cluster IP, but no Pod matches its selector.",
        yaml: include_str!("starters/service.yaml"),
    },
    Starter {
        id: "pod-update",
        title: "Editing a running Pod",
        file: "web.yaml",
        preset: "kind",
        expect: "The Pod is created; applying it again with another port is refused as an update.",
        yaml: include_str!("starters/pod-update.yaml"),
    },
    Starter {
        id: "statefulset",
        title: "A StatefulSet: db-0, then db-1",
        file: "db.yaml",
        preset: "kind",
        expect: "The StatefulSet controller creates db-0, and db-1 only once db-0 is Running and Ready.",
        yaml: include_str!("starters/statefulset.yaml"),
    },
];

/// The manifest a first visit starts with.
pub fn default_starter() -> &'static Starter {
    &STARTERS[0]
}

pub fn by_id(id: &str) -> Option<&'static Starter> {
    STARTERS.iter().find(|s| s.id == id)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use podlab_engine::lab::{run, LabInput};

    /// Every starter is read without error by the engine and is written for a preset that
    /// exists; each one's kubectl output is pinned so a change in the engine shows up here.
    #[test]
    fn every_starter_runs() {
        let mut out = String::new();
        for s in STARTERS {
            assert!(podlab_engine::cluster::preset(s.preset).is_some(), "{}: no preset {}", s.id, s.preset);
            let parsed = podlab_engine::manifest::parse_manifest(s.yaml);
            assert!(parsed.error.is_none(), "{}: {:?}", s.id, parsed.error);
            let mut input = LabInput::new(s.yaml, s.file);
            input.cluster = podlab_engine::cluster::preset(s.preset).map(str::to_string);
            let r = run(&input).expect("the lab runs");
            out += &format!("{} (exit {}): {}", s.id, r.exit_code, r.kubectl_output);
        }
        expect_test::expect![[r#"
            pod (exit 0): pod/web created
            deployment (exit 0): deployment.apps/shop created
            pending (exit 0): pod/big-batch created
            forbidden (exit 1): Error from server (Forbidden): error when creating "debug.yaml": pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "dev"
            privileged (exit 1): Error from server (Forbidden): error when creating "node-debugger.yaml": pods "node-debugger" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostNetwork=true), privileged (container "debugger" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "debugger" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "debugger" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "debugger" must set securityContext.runAsNonRoot=true), runAsUser=0 (container "debugger" must not set runAsUser=0), seccompProfile (pod or container "debugger" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
            image-typo (exit 0): pod/web-typo created
            service (exit 0): service/checkout created
            pod-update (exit 1): pod/web created
            The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)
              core.PodSpec{
              	Containers: []core.Container{
              		{
              			Ports: []core.ContainerPort{
              				{
            - 					ContainerPort: 80,
            + 					ContainerPort: 8080,
              				},
              			},
              		},
              	},
              }

            statefulset (exit 0): service/db created
            statefulset.apps/db created
        "#]]
        .assert_eq(&out);
    }
}
