//! Every cluster preset loads, and each one's reason to exist shows in a run: the GPU worker
//! takes only Pods that tolerate its taint and ask for a GPU, the batch pool only Pods that
//! tolerate `dedicated=batch` and select `pool: batch`, and the full cluster's users, Pod
//! Security levels and image policy answer as their documents say.

use expect_test::{expect, Expect};
use podlab_engine::cluster::{preset, PRESETS};
use podlab_engine::lab::{self, Identity, LabInput, Run};
use podlab_engine::views::{self, RevisionClock};

fn run(preset_name: &str, manifest: &str, identity: Option<(&str, &[&str])>) -> Run {
    let mut input = LabInput::new(manifest, "pod.yaml");
    input.cluster = Some(preset(preset_name).expect("preset").to_string());
    input.identity = identity
        .map(|(user, groups)| Identity { user: user.into(), groups: groups.iter().map(|g| g.to_string()).collect() });
    lab::run(&input).expect("the lab starts")
}

/// kubectl's output, then `kubectl get pods -o wide` in the run's namespace at its end.
fn check(preset_name: &str, manifest: &str, identity: Option<(&str, &[&str])>, expect: Expect) {
    let run = run(preset_name, manifest, identity);
    let namespace = run
        .documents
        .iter()
        .filter_map(|d| d.object.as_ref()?.namespace.clone())
        .next()
        .unwrap_or_else(|| run.namespace.clone());
    let clock = RevisionClock::from_steps(&run.steps);
    let v = views::at(run.store(), run.final_revision, run.end_ms, &namespace, run.setup_revision, &clock);
    // AGE depends on the run's length, not on what is checked here.
    let wide: String = v
        .get_pods_wide
        .lines()
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            if cols.len() > 7 && cols[0] != "NAME" {
                format!("{} {} {} {} {}", cols[0], cols[1], cols[2], cols[5], cols[6])
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    // Why a Pending pod is pending: the scheduler's last word.
    let why: String = v
        .get_events
        .lines()
        .filter_map(|l| l.split_once("FailedScheduling").map(|(_, rest)| rest.trim()))
        .filter_map(|rest| rest.split_once(' ').map(|(_, message)| format!("{}\n", message.trim())))
        .next_back()
        .unwrap_or_default();
    expect.assert_eq(&format!("{}---\n{wide}\n{why}", run.kubectl_output));
}

#[test]
fn every_preset_loads_and_runs_a_pod() {
    for (name, _) in PRESETS {
        let r = run(name, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: probe\n  namespace: kube-public\nspec:\n  containers:\n  - name: c\n    image: nginx:1.29\n", None);
        assert!(!r.steps.is_empty(), "{name}: no steps");
    }
}

const GPU_POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: train
spec:
  containers:
  - name: train
    image: nginx:1.29
    resources:
      limits:
        nvidia.com/gpu: 1
";

#[test]
fn gpu_needs_the_toleration() {
    check(
        "gpu",
        GPU_POD,
        None,
        expect![[r#"
            pod/train created
            ---
            NAME    READY   STATUS    RESTARTS   AGE   IP       NODE     NOMINATED NODE   READINESS GATES
            train 0/1 Pending <none> <none>
            0/4 nodes are available: 2 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.
        "#]],
    );
    let tolerating = GPU_POD.replace(
        "spec:\n",
        "spec:\n  tolerations:\n  - key: nvidia.com/gpu\n    operator: Exists\n    effect: NoSchedule\n",
    );
    check(
        "gpu",
        &tolerating,
        None,
        expect![[r#"
        pod/train created
        ---
        NAME    READY   STATUS    RESTARTS   AGE   IP           NODE              NOMINATED NODE   READINESS GATES
        train 1/1 Running 10.244.3.2 kind-gpu-worker
    "#]],
    );
}

#[test]
fn the_batch_pool_takes_tolerating_pods_that_select_it() {
    let pod = "apiVersion: v1
kind: Pod
metadata:
  name: crunch
spec:
  nodeSelector:
    pool: batch
  tolerations:
  - key: dedicated
    operator: Equal
    value: batch
    effect: NoSchedule
  containers:
  - name: crunch
    image: busybox:1.37
    command: [sh, -c, sleep 3600]
    resources:
      requests:
        cpu: \"6\"
";
    check(
        "tainted-pool",
        pod,
        None,
        expect![[r#"
        pod/crunch created
        ---
        NAME     READY   STATUS    RESTARTS   AGE   IP           NODE           NOMINATED NODE   READINESS GATES
        crunch 1/1 Running 10.244.3.2 kind-batch-1
    "#]],
    );
    check(
        "tainted-pool",
        &pod.replace(
            "  tolerations:\n  - key: dedicated\n    operator: Equal\n    value: batch\n    effect: NoSchedule\n",
            "",
        ),
        None,
        expect![[r#"
            pod/crunch created
            ---
            NAME     READY   STATUS    RESTARTS   AGE   IP       NODE     NOMINATED NODE   READINESS GATES
            crunch 0/1 Pending <none> <none>
            0/5 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 3 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.
        "#]],
    );
}

#[test]
fn the_full_cluster_answers_as_documented() {
    let pod = |ns: &str, image: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: {ns}\nspec:\n  securityContext:\n    runAsNonRoot: true\n    runAsUser: 1000\n    seccompProfile:\n      type: RuntimeDefault\n  containers:\n  - name: web\n    image: {image}\n    securityContext:\n      allowPrivilegeEscalation: false\n      capabilities:\n        drop: [ALL]\n"
        )
    };
    // alice edits dev, only reads prod.
    check(
        "full",
        &pod("dev", "nginx:1.29"),
        Some(("alice", &["developers"])),
        expect![[r#"
        pod/web created
        ---
        NAME   READY   STATUS    RESTARTS   AGE   IP           NODE           NOMINATED NODE   READINESS GATES
        web 1/1 Running 10.244.2.2 kind-worker2
    "#]],
    );
    check(
        "full",
        &pod("prod", "nginx:1.29"),
        Some(("alice", &["developers"])),
        expect![[r#"
        Error from server (Forbidden): error when creating "pod.yaml": pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "prod"
        ---
        No resources found in prod namespace.
    "#]],
    );
    // In prod the image policy refuses :latest, even from the admin.
    check(
        "full",
        &pod("prod", "nginx:latest"),
        None,
        expect![[r#"
            Error from server (Forbidden): error when creating "pod.yaml": admission webhook "images.policy.example.com" denied the request: container "web": image "nginx:latest" uses the tag "latest"; pin a version tag or a digest
            ---
            No resources found in prod namespace.
        "#]],
    );
    check(
        "full",
        &pod("prod", "nginx:1.29"),
        Some(("bob", &["ops"])),
        expect![[r#"
            pod/web created
            ---
            NAME   READY   STATUS    RESTARTS   AGE   IP           NODE           NOMINATED NODE   READINESS GATES
            web 1/1 Running 10.244.2.2 kind-worker2
        "#]],
    );
}
