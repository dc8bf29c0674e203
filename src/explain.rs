//! The lab's own words about each phase of the path: what the component does there, what
//! tends to go wrong, and where to look when a run breaks in it. Static text: nothing here
//! decides anything about the run, it only explains the phase the engine reported.

use podlab_engine::trace::Phase;

/// The explanation of one phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseText {
    /// Who acts in this phase.
    pub who: &'static str,
    /// What happens, in two or three sentences.
    pub what: &'static str,
    /// What can go wrong here.
    pub wrong: &'static str,
    /// What to change when a run breaks here.
    pub fix: &'static str,
}

pub fn phase_text(phase: Phase) -> PhaseText {
    match phase {
        Phase::Request => PhaseText {
            who: "kubectl",
            what: "kubectl reads your file, turns each YAML document into JSON and works out which API \
                   resource it belongs to. For apply it first asks the API server whether the object \
                   already exists (a GET), then creates it (POST) or patches it (PATCH). It adds the \
                   last-applied-configuration annotation so the next apply can compute a diff.",
            wrong: "A YAML syntax error stops kubectl before anything is sent. A document without \
                    apiVersion or kind, or with a kind the cluster does not serve, is refused by \
                    kubectl itself.",
            fix: "Fix the line marked in the editor: indentation, a missing colon, a tab, or the \
                  apiVersion/kind pair (for example apps/v1 for a Deployment).",
        },
        Phase::Authentication => PhaseText {
            who: "kube-apiserver",
            what: "The API server decides who is calling: from the client certificate (its Common Name \
                   is the user, its Organizations the groups), a bearer token, or a service account \
                   token. With --as, it then checks that this caller may impersonate the other identity \
                   and continues as that one.",
            wrong: "An expired, revoked or unknown credential gets 401 Unauthorized, and kubectl says you \
                    must be logged in. Without any credential the request is anonymous.",
            fix: "Use a kubeconfig user whose credential the cluster accepts (the user picker in the \
                  cluster panel), or remove the impersonation.",
        },
        Phase::Authorization => PhaseText {
            who: "kube-apiserver (Node and RBAC authorizers)",
            what: "The request becomes a set of attributes: user, groups, verb, resource, namespace, \
                   name. Members of system:masters pass at once. Otherwise RBAC looks for a RoleBinding \
                   or ClusterRoleBinding naming the user or one of its groups, whose role has a rule \
                   matching the verb and resource.",
            wrong: "No binding grants the verb on the resource in that namespace: 403 Forbidden. RBAC \
                    only adds permissions, so there is no rule that denies; a missing one is enough.",
            fix: "Act as a user who has the permission, or bind the user to a Role that allows the verb \
                  (for example create on pods) in that namespace. The step shows which bindings were \
                  considered.",
        },
        Phase::MutatingAdmission => PhaseText {
            who: "kube-apiserver (mutating admission plugins and webhooks)",
            what: "Admission plugins may change the object before it is stored: fill in the default \
                   ServiceAccount, apply a LimitRange's default requests and limits, add tolerations, \
                   or call mutating webhooks that return a JSON patch.",
            wrong: "A webhook that is down or slow can fail the request; a plugin may refuse an object \
                    it cannot complete.",
            fix: "Read the plugin's message in the step; a webhook failure is a cluster problem, not a \
                  problem of your manifest.",
        },
        Phase::Validation => PhaseText {
            who: "kube-apiserver",
            what: "The body is decoded strictly (with fieldValidation=Strict an unknown or duplicated \
                   field is an error), defaults are filled in (restartPolicy, dnsPolicy, \
                   terminationMessagePath, ...), and the object is validated field by field.",
            wrong: "A misspelt field name, a value of the wrong type (a number where a string is \
                    expected, a malformed quantity), a name that is not a valid DNS label, or a \
                    required field left out: 400 Bad Request or 422 Invalid. When the object already \
                    exists, a change to a field that cannot change after creation (most of a Pod's \
                    spec, a Deployment's selector) is 422 Invalid too.",
            fix: "Each error names a field path; the editor marks its line. Correct the spelling or the \
                  value there. If the object exists and the field cannot change, delete the object \
                  and apply again, or let a Deployment own the Pods and change its template: it \
                  replaces them for you.",
        },
        Phase::ValidatingAdmission => PhaseText {
            who: "kube-apiserver (validating admission plugins and webhooks)",
            what: "The final object is checked against policies: Pod Security (the namespace's \
                   enforce level), ResourceQuota, ValidatingAdmissionPolicies and validating webhooks. \
                   Nothing is changed any more; each one may only allow or refuse.",
            wrong: "A Pod that asks for privileges the namespace forbids, or that would exceed the \
                    namespace's quota, is refused with 403 Forbidden and the policy's reasons.",
            fix: "Follow the policy's message: for Pod Security, drop privileged mode and host \
                  namespaces, run as non-root, drop capabilities and set a seccomp profile; for a \
                  quota, ask for less or free some up.",
        },
        Phase::Etcd => PhaseText {
            who: "kube-apiserver and etcd",
            what: "The object is written to etcd under its key (/registry/<resource>/<namespace>/<name>) \
                   and gets a resourceVersion: the etcd revision of the write. The API server answers \
                   kubectl (201 Created, 200 OK) and every watcher learns of the change.",
            wrong: "An object with the same name already exists (409 AlreadyExists) or was changed \
                    since it was read (409 Conflict).",
            fix: "Pick another name, or apply again so kubectl patches the existing object.",
        },
        Phase::Controllers => PhaseText {
            who: "kube-controller-manager",
            what: "Controllers watch objects and act on the difference between what is asked and what \
                   exists: the Deployment controller creates a ReplicaSet, the ReplicaSet controller \
                   creates Pods, the EndpointSlice controller lists the ready Pods behind a Service.",
            wrong: "A controller's own request can be refused (a quota, a Pod Security level); it then \
                    records a Warning event and tries again later.",
            fix: "Look at the controller's events (kubectl describe, kubectl get events): they carry the \
                  refusal's message.",
        },
        Phase::Scheduling => PhaseText {
            who: "kube-scheduler",
            what: "For each Pod without a node, the scheduler filters the nodes (enough free CPU and \
                   memory, taints tolerated, node selector and affinity matched, ports free), scores \
                   the ones that pass, and binds the Pod to the best one.",
            wrong: "When every node is filtered out the Pod stays Pending and a FailedScheduling event \
                    says why, node by node (\"0/3 nodes are available: ...\").",
            fix: "Lower the Pod's requests, add a toleration or relax its node selector, or give the \
                  cluster a node that fits.",
        },
        Phase::Kubelet => PhaseText {
            who: "kubelet",
            what: "The kubelet of the chosen node sees the Pod bound to it, admits it (does it still \
                   fit?), works out its QoS class, creates its cgroups and prepares its volumes.",
            wrong: "A node under pressure or out of resources rejects the Pod; a missing ConfigMap or \
                    Secret keeps a volume from mounting.",
            fix: "Check the Pod's events; create the missing ConfigMap or Secret, or reduce the Pod's \
                  requests.",
        },
        Phase::Runtime => PhaseText {
            who: "container runtime (containerd)",
            what: "The runtime creates the Pod's sandbox (the pause container that holds its namespaces) \
                   and pulls each container image that is not on the node yet.",
            wrong: "An image that does not exist, a private registry without credentials, or a typo in \
                    the name: ErrImagePull, then ImagePullBackOff with growing delays.",
            fix: "Correct the image name and tag, or add imagePullSecrets for a private registry.",
        },
        Phase::Cni => PhaseText {
            who: "CNI plugin",
            what: "The CNI plugin gives the sandbox its network: a veth pair into the node's network, an \
                   IP address from the node's Pod CIDR, and routes.",
            wrong: "A broken or missing CNI plugin leaves the sandbox without a network; the Pod stays \
                    ContainerCreating.",
            fix: "This is a node problem: the events name the plugin's error.",
        },
        Phase::Containers => PhaseText {
            who: "kubelet and container runtime",
            what: "Init containers run one after the other to completion, then the app containers start \
                   with their command, environment and mounts; postStart hooks run.",
            wrong: "A command that exits at once makes the container restart with growing back-off \
                    (CrashLoopBackOff); a memory limit that is too small gets it OOMKilled.",
            fix: "Read the container's last state and exit code in kubectl describe, fix the command, or \
                  raise the memory limit.",
        },
        Phase::Status => PhaseText {
            who: "kubelet",
            what: "The kubelet runs startup, liveness and readiness probes and reports the Pod's status \
                   (phase, conditions, IPs, container states) to the API server.",
            wrong: "A failing readiness probe keeps the Pod out of its Services; a failing liveness \
                    probe restarts the container.",
            fix: "Make the probe match the application: the right port and path, and enough \
                  initialDelaySeconds or a startupProbe for a slow start.",
        },
        Phase::Endpoints => PhaseText {
            who: "kube-controller-manager (EndpointSlice controller)",
            what: "For every Service, the EndpointSlice controller lists the Pods its selector matches, \
                   with their IPs, ports and readiness. kube-proxy and DNS use those slices to route \
                   traffic.",
            wrong: "A selector that matches no Pod (a label typo) or Pods that are not ready leave the \
                    Service without endpoints: connections fail although the Service exists.",
            fix: "Make the Service's selector equal the Pods' labels, and make the Pods ready.",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phase_has_text() {
        for p in Phase::ALL {
            let t = phase_text(p);
            assert!(!t.who.is_empty() && t.what.len() > 80 && !t.wrong.is_empty() && !t.fix.is_empty(), "{p:?}");
        }
    }
}
