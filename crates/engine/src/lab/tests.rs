//! Data-driven tests of the whole path from `kubectl apply` to etcd: each case is a cluster
//! (preset or YAML), an identity, a manifest, and the expected trace outline and kubectl output.

use super::*;
use crate::trace::Detail;
use expect_test::{expect, Expect};

/// The trace as one line per step (phase, arrow, status, summary), then kubectl's output and
/// exit code.
fn outline(run: &Run) -> String {
    let mut out = String::new();
    for s in &run.steps {
        let status = match s.status {
            crate::trace::StepStatus::Ok => "",
            crate::trace::StepStatus::Warning => " [warning]",
            crate::trace::StepStatus::Failed => " [FAILED]",
        };
        out += &format!(
            "{:>4}ms #{} {:<20} {} -> {}{status}: {}\n",
            s.time_ms,
            s.request_id.map(|r| r.to_string()).unwrap_or_else(|| "-".into()),
            s.phase.id(),
            s.from.title(),
            s.to.title(),
            s.summary
        );
        if let Detail::Etcd(e) = &s.detail {
            if e.error.is_none() && e.operation != crate::trace::EtcdOperation::Get {
                out += &format!("            etcd {:?} {} rev {}\n", e.operation, e.key, e.revision);
            }
        }
    }
    out += &format!("--- kubectl (exit {})\n{}", run.exit_code, run.kubectl_output);
    out
}

fn check(cluster: Option<&str>, user: Option<&str>, identity: Option<(&str, &[&str])>, manifest: &str, expect: Expect) {
    let cluster = cluster.map(|c| cluster::preset(c).map(str::to_string).unwrap_or_else(|| c.to_string()));
    let input = LabInput {
        manifest: manifest.to_string(),
        file_name: "pod.yaml".into(),
        cluster,
        user: user.map(str::to_string),
        identity: identity.map(|(u, g)| Identity { user: u.into(), groups: g.iter().map(|s| s.to_string()).collect() }),
        seed: 1,
        limit_ms: DEFAULT_LIMIT_MS,
    };
    let out = match run(&input) {
        Ok(r) => outline(&r),
        Err(e) => format!("lab error: {e}\n"),
    };
    expect.assert_eq(&out);
}

const POD: &str =
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n";

#[test]
fn accepted_pod() {
    check(
        None,
        None,
        None,
        POD,
        expect![[r#"
               0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web
               0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace default
               0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/pods/default/web: not found
               0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "web" not found
               4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
               4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create pods in namespace default
               4ms #2 validation           kube-apiserver -> kube-apiserver: decodes the Pod strictly and fills in 9 default(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: LimitRanger: nothing to do
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: ServiceAccount: changed 4 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: Priority: changed 2 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: DefaultTolerationSeconds: changed 1 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
               4ms #2 validation           kube-apiserver -> kube-apiserver: Pod "web" is valid
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: LimitRanger: nothing to do
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: ServiceAccount: allowed
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: PodSecurity: allowed
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: ResourceQuota: nothing to do
               4ms #2 etcd                 kube-apiserver -> etcd: creates /registry/pods/default/web at revision 156
                        etcd Create /registry/pods/default/web rev 156
               4ms #2 etcd                 kube-apiserver -> kubectl: 201 Created
               4ms #- scheduling           kube-apiserver -> kube-scheduler: kube-scheduler sees new pod default/web with no node
               6ms #- scheduling           kube-scheduler -> kube-scheduler: kube-scheduler picks kind-worker for pod default/web
               6ms #3 etcd                 kube-scheduler -> kube-apiserver: kube-scheduler POST /api/v1/namespaces/default/pods/web/binding → 201 Created
               6ms #4 etcd                 kube-scheduler -> kube-apiserver: kube-scheduler POST /api/v1/namespaces/default/events → 201 Created
               6ms #- scheduling           kube-scheduler -> kube-apiserver: event Normal Scheduled: Successfully assigned default/web to kind-worker
               8ms #- kubelet              kube-apiserver -> kubelet: kubelet on kind-worker sees pod default/web bound to its node
               8ms #- kubelet              kubelet -> kubelet: kubelet admits pod default/web
               8ms #- kubelet              kubelet -> kubelet: QoS class of default/web: BestEffort
               8ms #- kubelet              kubelet -> kubelet: kubelet creates cgroup kubepods-besteffort-podc34d0bff_9015_4280_a099_ec6cd7363ca5.slice
               8ms #- status               kubelet -> kube-apiserver: kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
               8ms #5 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/namespaces/default/pods/web/status → 200 OK
             128ms #- kubelet              kubelet -> kubelet: kubelet mounts volume "kube-api-access-t29pp" (projected)
             128ms #- runtime              kubelet -> container runtime: kubelet → containerd: RunPodSandbox for default/web
             278ms #- cni                  container runtime -> CNI plugin: CNI ADD (ptp): default/web gets 10.244.1.2
             408ms #- runtime              container runtime -> kubelet: sandbox of default/web is ready (10.244.1.2)
             408ms #- runtime              kubelet -> kube-apiserver: kubelet records Normal Pulling: Pulling image "nginx:1.29"
             408ms #6 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
             408ms #- runtime              kubelet -> container runtime: containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
            2754ms #- runtime              kubelet -> kube-apiserver: kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
            2754ms #7 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
            2754ms #- status               kubelet -> kube-apiserver: kubelet reports the node's images (node.status.images)
            2754ms #8 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/nodes/kind-worker/status → 200 OK
            2814ms #- containers           kubelet -> kube-apiserver: kubelet records Normal Created: Container created
            2814ms #9 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
            2904ms #- containers           kubelet -> kube-apiserver: kubelet records Normal Started: Container started
            2904ms #10 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
            2904ms #- containers           container runtime -> kubelet: container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
            3000ms #- status               kubelet -> kube-apiserver: kubelet updates status of default/web: Running (1/1 ready, Running)
            3000ms #11 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/namespaces/default/pods/web/status → 200 OK
            --- kubectl (exit 0)
            pod/web created
        "#]],
    );
}

/// A cluster with users whose credentials fail or who have none.
const USERS: &str = "apiVersion: podlab.dev/v1alpha1
kind: LabSettings
extends: kind
users:
- name: mallory
  token: 0ld70k3n
  revoked: true
- name: nobody
";

const NO_ANONYMOUS: &str = "apiVersion: podlab.dev/v1alpha1
kind: LabSettings
extends: kind
anonymousAuth: false
users:
- name: nobody
";

#[test]
fn unauthenticated() {
    check(
        Some(USERS),
        Some("mallory"),
        None,
        POD,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver [FAILED]: authentication failed (bearer token): 401 Unauthorized
           0ms #1 etcd                 kube-apiserver -> kubectl [FAILED]: 401 Unauthorized: Unauthorized
        --- kubectl (exit 1)
        error: You must be logged in to the server (Unauthorized)
    "#]],
    );
    check(
        Some(NO_ANONYMOUS),
        Some("nobody"),
        None,
        POD,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver [FAILED]: authentication failed (anonymous): 401 Unauthorized
           0ms #1 etcd                 kube-apiserver -> kubectl [FAILED]: 401 Unauthorized: Unauthorized
        --- kubectl (exit 1)
        error: You must be logged in to the server (Unauthorized)
    "#]],
    );
}

#[test]
fn anonymous_is_forbidden_by_rbac() {
    check(
        Some(USERS),
        Some("nobody"),
        None,
        POD,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as system:anonymous (anonymous)
           0ms #1 authorization        kube-apiserver -> kube-apiserver [FAILED]: forbidden: system:anonymous may not get pods in namespace default
           0ms #1 etcd                 kube-apiserver -> kubectl [FAILED]: 403 Forbidden: pods "web" is forbidden: User "system:anonymous" cannot get resource "pods" in API group "" in the namespace "default"
        --- kubectl (exit 1)
        Error from server (Forbidden): error when retrieving current configuration of:
        Resource: "/v1, Resource=pods", GroupVersionKind: "/v1, Kind=Pod"
        Name: "web", Namespace: "default"
        from server for: "pod.yaml": pods "web" is forbidden: User "system:anonymous" cannot get resource "pods" in API group "" in the namespace "default"
    "#]],
    );
}

const DEV_POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: dev\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n";

#[test]
fn rbac_denies_create_after_allowed_get() {
    check(
        Some("rbac-alice"),
        None,
        None,
        DEV_POD,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/dev/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as alice (x509 client certificate)
           0ms #1 authorization        kube-apiserver -> kube-apiserver: RBAC (RoleBinding dev/alice-reads-pods) allows alice to get pods in namespace dev
           0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/pods/dev/web: not found
           0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "web" not found
           4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/dev/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
           4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as alice (x509 client certificate)
           4ms #2 authorization        kube-apiserver -> kube-apiserver [FAILED]: forbidden: alice may not create pods in namespace dev
           4ms #2 etcd                 kube-apiserver -> kubectl [FAILED]: 403 Forbidden: pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "dev"
        --- kubectl (exit 1)
        Error from server (Forbidden): error when creating "pod.yaml": pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "dev"
    "#]],
    );
}

#[test]
fn rbac_denies_the_get_first() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: default\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n";
    check(
        Some("rbac-alice"),
        None,
        None,
        pod,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as alice (x509 client certificate)
           0ms #1 authorization        kube-apiserver -> kube-apiserver [FAILED]: forbidden: alice may not get pods in namespace default
           0ms #1 etcd                 kube-apiserver -> kubectl [FAILED]: 403 Forbidden: pods "web" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "default"
        --- kubectl (exit 1)
        Error from server (Forbidden): error when retrieving current configuration of:
        Resource: "/v1, Resource=pods", GroupVersionKind: "/v1, Kind=Pod"
        Name: "web", Namespace: "default"
        from server for: "pod.yaml": pods "web" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "default"
    "#]],
    );
}

#[test]
fn group_binding_to_aggregated_cluster_role_allows() {
    check(
        Some("rbac-alice"),
        Some("bob"),
        None,
        DEV_POD,
        expect![[r#"
               0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/dev/pods/web
               0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as bob (bearer token)
               0ms #1 authorization        kube-apiserver -> kube-apiserver: RBAC (RoleBinding dev/ops-edit) allows bob to get pods in namespace dev
               0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/pods/dev/web: not found
               0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "web" not found
               4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/dev/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
               4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as bob (bearer token)
               4ms #2 authorization        kube-apiserver -> kube-apiserver: RBAC (RoleBinding dev/ops-edit) allows bob to create pods in namespace dev
               4ms #2 validation           kube-apiserver -> kube-apiserver: decodes the Pod strictly and fills in 9 default(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: LimitRanger: nothing to do
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: ServiceAccount: changed 4 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: Priority: changed 2 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: DefaultTolerationSeconds: changed 1 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
               4ms #2 validation           kube-apiserver -> kube-apiserver: Pod "web" is valid
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: LimitRanger: nothing to do
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: ServiceAccount: allowed
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: PodSecurity: allowed
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: ResourceQuota: nothing to do
               4ms #2 etcd                 kube-apiserver -> etcd: creates /registry/pods/dev/web at revision 162
                        etcd Create /registry/pods/dev/web rev 162
               4ms #2 etcd                 kube-apiserver -> kubectl: 201 Created
               4ms #- scheduling           kube-apiserver -> kube-scheduler: kube-scheduler sees new pod dev/web with no node
               6ms #- scheduling           kube-scheduler -> kube-scheduler: kube-scheduler picks kind-worker for pod dev/web
               6ms #3 etcd                 kube-scheduler -> kube-apiserver: kube-scheduler POST /api/v1/namespaces/dev/pods/web/binding → 201 Created
               6ms #4 etcd                 kube-scheduler -> kube-apiserver: kube-scheduler POST /api/v1/namespaces/dev/events → 201 Created
               6ms #- scheduling           kube-scheduler -> kube-apiserver: event Normal Scheduled: Successfully assigned dev/web to kind-worker
               8ms #- kubelet              kube-apiserver -> kubelet: kubelet on kind-worker sees pod dev/web bound to its node
               8ms #- kubelet              kubelet -> kubelet: kubelet admits pod dev/web
               8ms #- kubelet              kubelet -> kubelet: QoS class of dev/web: BestEffort
               8ms #- kubelet              kubelet -> kubelet: kubelet creates cgroup kubepods-besteffort-podc34d0bff_9015_4280_a099_ec6cd7363ca5.slice
               8ms #- status               kubelet -> kube-apiserver: kubelet updates status of dev/web: Pending (0/1 ready, ContainerCreating)
               8ms #5 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/namespaces/dev/pods/web/status → 200 OK
             128ms #- kubelet              kubelet -> kubelet: kubelet mounts volume "kube-api-access-t29pp" (projected)
             128ms #- runtime              kubelet -> container runtime: kubelet → containerd: RunPodSandbox for dev/web
             278ms #- cni                  container runtime -> CNI plugin: CNI ADD (ptp): dev/web gets 10.244.1.2
             408ms #- runtime              container runtime -> kubelet: sandbox of dev/web is ready (10.244.1.2)
             408ms #- runtime              kubelet -> kube-apiserver: kubelet records Normal Pulling: Pulling image "nginx:1.29"
             408ms #6 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/dev/events → 201 Created
             408ms #- runtime              kubelet -> container runtime: containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
            2754ms #- runtime              kubelet -> kube-apiserver: kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
            2754ms #7 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/dev/events → 201 Created
            2754ms #- status               kubelet -> kube-apiserver: kubelet reports the node's images (node.status.images)
            2754ms #8 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/nodes/kind-worker/status → 200 OK
            2814ms #- containers           kubelet -> kube-apiserver: kubelet records Normal Created: Container created
            2814ms #9 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/dev/events → 201 Created
            2904ms #- containers           kubelet -> kube-apiserver: kubelet records Normal Started: Container started
            2904ms #10 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/dev/events → 201 Created
            2904ms #- containers           container runtime -> kubelet: container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
            3000ms #- status               kubelet -> kube-apiserver: kubelet updates status of dev/web: Running (1/1 ready, Running)
            3000ms #11 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/namespaces/dev/pods/web/status → 200 OK
            --- kubectl (exit 0)
            pod/web created
        "#]],
    );
}

#[test]
fn impersonation_denied() {
    check(
        Some("rbac-alice"),
        None,
        Some(("bob", &[])),
        DEV_POD,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/dev/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as alice (x509 client certificate)
           0ms #1 authorization        kube-apiserver -> kube-apiserver [FAILED]: forbidden: alice may not impersonate user bob
           0ms #1 etcd                 kube-apiserver -> kubectl [FAILED]: 403 Forbidden: users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope
        --- kubectl (exit 1)
        Error from server (Forbidden): error when retrieving current configuration of:
        Resource: "/v1, Resource=pods", GroupVersionKind: "/v1, Kind=Pod"
        Name: "web", Namespace: "dev"
        from server for: "pod.yaml": users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope
    "#]],
    );
}

#[test]
fn admin_impersonates_alice() {
    check(
        Some("rbac-alice"),
        Some("kubernetes-admin"),
        Some(("alice", &["developers"])),
        DEV_POD,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/dev/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to impersonate user alice
           0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to impersonate group developers
           0ms #1 authentication       kube-apiserver -> kube-apiserver: kubernetes-admin acts as alice (impersonation)
           0ms #1 authorization        kube-apiserver -> kube-apiserver: RBAC (RoleBinding dev/alice-reads-pods) allows alice to get pods in namespace dev
           0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/pods/dev/web: not found
           0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "web" not found
           4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/dev/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
           4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to impersonate user alice
           4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to impersonate group developers
           4ms #2 authentication       kube-apiserver -> kube-apiserver: kubernetes-admin acts as alice (impersonation)
           4ms #2 authorization        kube-apiserver -> kube-apiserver [FAILED]: forbidden: alice may not create pods in namespace dev
           4ms #2 etcd                 kube-apiserver -> kubectl [FAILED]: 403 Forbidden: pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "dev"
        --- kubectl (exit 1)
        Error from server (Forbidden): error when creating "pod.yaml": pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "dev"
    "#]],
    );
}

#[test]
fn multi_document_file_continues_after_errors() {
    let file = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n  namespace: team-a\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: api}\n  template:\n    metadata:\n      labels: {app: api}\n    spec:\n      containers:\n      - name: api\n        image: nginx:1.29\n---\nmetadata:\n  name: nokind\n";
    check(
        None,
        None,
        None,
        file,
        expect![[r#"
               0ms #- request              kubectl -> kubectl [FAILED]: kubectl cannot use document 2 (line 6): resource mapping not found for name: "w" namespace: "" from "pod.yaml": no matches for kind "Widget" in version "example.com/v1"
               0ms #- request              kubectl -> kubectl [FAILED]: kubectl cannot use document 4 (line 28): error validating "pod.yaml": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false
               0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/team-a
               0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get namespaces
               0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/namespaces/team-a: not found
               0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: namespaces "team-a" not found
               4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
               4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create namespaces
               4ms #2 validation           kube-apiserver -> kube-apiserver: decodes the Namespace strictly and fills in 2 default(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
               4ms #2 validation           kube-apiserver -> kube-apiserver: Namespace "team-a" is valid
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: PodSecurity: allowed
               4ms #2 etcd                 kube-apiserver -> etcd: creates /registry/namespaces/team-a at revision 156
                        etcd Create /registry/namespaces/team-a rev 156
               4ms #2 etcd                 kube-apiserver -> kubectl: 201 Created
               4ms #- controllers          kube-apiserver -> kube-controller-manager: serviceaccount-controller sees ADDED Namespace team-a
               4ms #- controllers          kube-apiserver -> kube-controller-manager: root-ca-certificate-publisher-controller sees ADDED Namespace team-a
               6ms #- controllers          kube-controller-manager -> kube-apiserver: serviceaccount-controller creates ServiceAccount team-a/default
               6ms #3 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager POST /api/v1/namespaces/team-a/serviceaccounts → 201 Created
               6ms #- controllers          kube-controller-manager -> kube-apiserver: root-ca-cert-publisher creates ConfigMap team-a/kube-root-ca.crt
               6ms #4 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager POST /api/v1/namespaces/team-a/configmaps → 201 Created
               8ms #5 request              kubectl -> kube-apiserver: kubectl sends GET /apis/apps/v1/namespaces/team-a/deployments/api
               8ms #5 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               8ms #5 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get deployments in namespace team-a
               8ms #5 etcd                 kube-apiserver -> etcd: reads /registry/deployments/team-a/api: not found
               8ms #5 etcd                 kube-apiserver -> kubectl: 404 Not Found: deployments.apps "api" not found
              12ms #6 request              kubectl -> kube-apiserver: kubectl sends POST /apis/apps/v1/namespaces/team-a/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              12ms #6 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
              12ms #6 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create deployments in namespace team-a
              12ms #6 validation           kube-apiserver -> kube-apiserver: decodes the Deployment strictly and fills in 13 default(s)
              12ms #6 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
              12ms #6 validation           kube-apiserver -> kube-apiserver: Deployment "api" is valid
              12ms #6 validating-admission kube-apiserver -> kube-apiserver: PodSecurity: allowed
              12ms #6 validating-admission kube-apiserver -> kube-apiserver: ResourceQuota: nothing to do
              12ms #6 etcd                 kube-apiserver -> etcd: creates /registry/deployments/team-a/api at revision 159
                        etcd Create /registry/deployments/team-a/api rev 159
              12ms #6 etcd                 kube-apiserver -> kubectl: 201 Created
              12ms #- controllers          kube-apiserver -> kube-controller-manager: deployment-controller sees ADDED Deployment team-a/api
              15ms #- controllers          kube-controller-manager -> kube-apiserver: deployment-controller creates ReplicaSet api-6b9c74c9df with 1 replica(s)
              15ms #7 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager POST /apis/apps/v1/namespaces/team-a/replicasets → 201 Created
              15ms #- controllers          kube-controller-manager -> kube-apiserver: deployment-controller records Normal ScalingReplicaSet: Scaled up replica set api-6b9c74c9df from 0 to 1
              15ms #8 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager POST /api/v1/namespaces/team-a/events → 201 Created
              15ms #- controllers          kube-controller-manager -> kube-apiserver: deployment-controller records revision 1 on Deployment api
              15ms #9 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager PUT /apis/apps/v1/namespaces/team-a/deployments/api/status → 200 OK
              15ms #- controllers          kube-controller-manager -> kube-apiserver: deployment-controller updates status of Deployment api: 0 updated, 0 available, 1 wanted
              15ms #10 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager PUT /apis/apps/v1/namespaces/team-a/deployments/api/status → 200 OK
              15ms #- controllers          kube-apiserver -> kube-controller-manager: deployment-controller sees ADDED ReplicaSet team-a/api-6b9c74c9df
              15ms #- controllers          kube-apiserver -> kube-controller-manager: replicaset-controller sees ADDED ReplicaSet team-a/api-6b9c74c9df
              17ms #- controllers          kube-controller-manager -> kube-apiserver: replicaset-controller: ReplicaSet api-6b9c74c9df has 0 Pod(s) for 1 replica(s): creating 1
              17ms #11 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager POST /api/v1/namespaces/team-a/pods → 201 Created
              17ms #- controllers          kube-controller-manager -> kube-apiserver: replicaset-controller records Normal SuccessfulCreate: Created pod: api-6b9c74c9df-cdrfk
              17ms #12 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager POST /api/v1/namespaces/team-a/events → 201 Created
              17ms #- controllers          kube-controller-manager -> kube-apiserver: replicaset-controller updates status of ReplicaSet api-6b9c74c9df: replicas 0, ready 0, available 0
              17ms #13 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager PUT /apis/apps/v1/namespaces/team-a/replicasets/api-6b9c74c9df/status → 200 OK
              17ms #- controllers          kube-apiserver -> kube-controller-manager: replicaset-controller sees ADDED Pod team-a/api-6b9c74c9df-cdrfk
              17ms #- scheduling           kube-apiserver -> kube-scheduler: kube-scheduler sees new pod team-a/api-6b9c74c9df-cdrfk with no node
              19ms #- controllers          kube-controller-manager -> kube-apiserver: replicaset-controller updates status of ReplicaSet api-6b9c74c9df: replicas 1, ready 0, available 0
              19ms #14 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager PUT /apis/apps/v1/namespaces/team-a/replicasets/api-6b9c74c9df/status → 200 OK
              19ms #- controllers          kube-apiserver -> kube-controller-manager: deployment-controller sees MODIFIED ReplicaSet team-a/api-6b9c74c9df
              19ms #- scheduling           kube-scheduler -> kube-scheduler: kube-scheduler picks kind-worker2 for pod team-a/api-6b9c74c9df-cdrfk
              19ms #15 etcd                 kube-scheduler -> kube-apiserver: kube-scheduler POST /api/v1/namespaces/team-a/pods/api-6b9c74c9df-cdrfk/binding → 201 Created
              19ms #16 etcd                 kube-scheduler -> kube-apiserver: kube-scheduler POST /api/v1/namespaces/team-a/events → 201 Created
              19ms #- scheduling           kube-scheduler -> kube-apiserver: event Normal Scheduled: Successfully assigned team-a/api-6b9c74c9df-cdrfk to kind-worker2
              19ms #- controllers          kube-apiserver -> kube-controller-manager: replicaset-controller sees MODIFIED Pod team-a/api-6b9c74c9df-cdrfk
              21ms #- kubelet              kube-apiserver -> kubelet: kubelet on kind-worker2 sees pod team-a/api-6b9c74c9df-cdrfk bound to its node
              21ms #- kubelet              kubelet -> kubelet: kubelet admits pod team-a/api-6b9c74c9df-cdrfk
              21ms #- kubelet              kubelet -> kubelet: QoS class of team-a/api-6b9c74c9df-cdrfk: BestEffort
              21ms #- kubelet              kubelet -> kubelet: kubelet creates cgroup kubepods-besteffort-podae843796_30af_49ee_a263_183773ef6508.slice
              21ms #- status               kubelet -> kube-apiserver: kubelet updates status of team-a/api-6b9c74c9df-cdrfk: Pending (0/1 ready, ContainerCreating)
              21ms #17 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/namespaces/team-a/pods/api-6b9c74c9df-cdrfk/status → 200 OK
              21ms #- controllers          kube-apiserver -> kube-controller-manager: replicaset-controller sees MODIFIED Pod team-a/api-6b9c74c9df-cdrfk
              22ms #- controllers          kube-controller-manager -> kube-apiserver: deployment-controller updates status of Deployment api: 1 updated, 0 available, 1 wanted
              22ms #18 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager PUT /apis/apps/v1/namespaces/team-a/deployments/api/status → 200 OK
             141ms #- kubelet              kubelet -> kubelet: kubelet mounts volume "kube-api-access-spgw5" (projected)
             141ms #- runtime              kubelet -> container runtime: kubelet → containerd: RunPodSandbox for team-a/api-6b9c74c9df-cdrfk
             291ms #- cni                  container runtime -> CNI plugin: CNI ADD (ptp): team-a/api-6b9c74c9df-cdrfk gets 10.244.2.2
             421ms #- runtime              container runtime -> kubelet: sandbox of team-a/api-6b9c74c9df-cdrfk is ready (10.244.2.2)
             421ms #- runtime              kubelet -> kube-apiserver: kubelet records Normal Pulling: Pulling image "nginx:1.29"
             421ms #19 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/team-a/events → 201 Created
             421ms #- runtime              kubelet -> container runtime: containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
            2767ms #- runtime              kubelet -> kube-apiserver: kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
            2767ms #20 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/team-a/events → 201 Created
            2767ms #- status               kubelet -> kube-apiserver: kubelet reports the node's images (node.status.images)
            2767ms #21 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/nodes/kind-worker2/status → 200 OK
            2827ms #- containers           kubelet -> kube-apiserver: kubelet records Normal Created: Container created
            2827ms #22 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/team-a/events → 201 Created
            2917ms #- containers           kubelet -> kube-apiserver: kubelet records Normal Started: Container started
            2917ms #23 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/team-a/events → 201 Created
            2917ms #- containers           container runtime -> kubelet: container "api" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
            3000ms #- status               kubelet -> kube-apiserver: kubelet updates status of team-a/api-6b9c74c9df-cdrfk: Running (1/1 ready, Running)
            3000ms #24 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/namespaces/team-a/pods/api-6b9c74c9df-cdrfk/status → 200 OK
            3000ms #- controllers          kube-apiserver -> kube-controller-manager: replicaset-controller sees MODIFIED Pod team-a/api-6b9c74c9df-cdrfk
            3002ms #- controllers          kube-controller-manager -> kube-apiserver: replicaset-controller updates status of ReplicaSet api-6b9c74c9df: replicas 1, ready 1, available 1
            3002ms #25 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager PUT /apis/apps/v1/namespaces/team-a/replicasets/api-6b9c74c9df/status → 200 OK
            3002ms #- controllers          kube-apiserver -> kube-controller-manager: deployment-controller sees MODIFIED ReplicaSet team-a/api-6b9c74c9df
            3005ms #- controllers          kube-controller-manager -> kube-apiserver: deployment-controller updates status of Deployment api: 1 updated, 1 available, 1 wanted
            3005ms #26 etcd                 kube-controller-manager -> kube-apiserver: kube-controller-manager PUT /apis/apps/v1/namespaces/team-a/deployments/api/status → 200 OK
            --- kubectl (exit 1)
            namespace/team-a created
            deployment.apps/api created
            resource mapping not found for name: "w" namespace: "" from "pod.yaml": no matches for kind "Widget" in version "example.com/v1"
            ensure CRDs are installed first
            error validating "pod.yaml": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false
        "#]],
    );
}

#[test]
fn second_apply_of_the_same_object_is_unchanged() {
    let file = format!("{POD}---\n{POD}");
    check(
        None,
        None,
        None,
        &file,
        expect![[r#"
               0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web
               0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace default
               0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/pods/default/web: not found
               0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "web" not found
               4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
               4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create pods in namespace default
               4ms #2 validation           kube-apiserver -> kube-apiserver: decodes the Pod strictly and fills in 9 default(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: LimitRanger: nothing to do
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: ServiceAccount: changed 4 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: Priority: changed 2 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: DefaultTolerationSeconds: changed 1 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
               4ms #2 validation           kube-apiserver -> kube-apiserver: Pod "web" is valid
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: LimitRanger: nothing to do
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: ServiceAccount: allowed
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: PodSecurity: allowed
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: ResourceQuota: nothing to do
               4ms #2 etcd                 kube-apiserver -> etcd: creates /registry/pods/default/web at revision 156
                        etcd Create /registry/pods/default/web rev 156
               4ms #2 etcd                 kube-apiserver -> kubectl: 201 Created
               4ms #- scheduling           kube-apiserver -> kube-scheduler: kube-scheduler sees new pod default/web with no node
               6ms #- scheduling           kube-scheduler -> kube-scheduler: kube-scheduler picks kind-worker for pod default/web
               6ms #3 etcd                 kube-scheduler -> kube-apiserver: kube-scheduler POST /api/v1/namespaces/default/pods/web/binding → 201 Created
               6ms #4 etcd                 kube-scheduler -> kube-apiserver: kube-scheduler POST /api/v1/namespaces/default/events → 201 Created
               6ms #- scheduling           kube-scheduler -> kube-apiserver: event Normal Scheduled: Successfully assigned default/web to kind-worker
               8ms #5 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web
               8ms #5 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               8ms #5 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace default
               8ms #5 etcd                 kube-apiserver -> etcd: reads /registry/pods/default/web (revision 157)
               8ms #5 etcd                 kube-apiserver -> kubectl: 200 OK
               8ms #- kubelet              kube-apiserver -> kubelet: kubelet on kind-worker sees pod default/web bound to its node
               8ms #- kubelet              kubelet -> kubelet: kubelet admits pod default/web
               8ms #- kubelet              kubelet -> kubelet: QoS class of default/web: BestEffort
               8ms #- kubelet              kubelet -> kubelet: kubelet creates cgroup kubepods-besteffort-podc34d0bff_9015_4280_a099_ec6cd7363ca5.slice
               8ms #- status               kubelet -> kube-apiserver: kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
               8ms #6 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/namespaces/default/pods/web/status → 200 OK
             128ms #- kubelet              kubelet -> kubelet: kubelet mounts volume "kube-api-access-t29pp" (projected)
             128ms #- runtime              kubelet -> container runtime: kubelet → containerd: RunPodSandbox for default/web
             278ms #- cni                  container runtime -> CNI plugin: CNI ADD (ptp): default/web gets 10.244.1.2
             408ms #- runtime              container runtime -> kubelet: sandbox of default/web is ready (10.244.1.2)
             408ms #- runtime              kubelet -> kube-apiserver: kubelet records Normal Pulling: Pulling image "nginx:1.29"
             408ms #7 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
             408ms #- runtime              kubelet -> container runtime: containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
            2754ms #- runtime              kubelet -> kube-apiserver: kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
            2754ms #8 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
            2754ms #- status               kubelet -> kube-apiserver: kubelet reports the node's images (node.status.images)
            2754ms #9 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/nodes/kind-worker/status → 200 OK
            2814ms #- containers           kubelet -> kube-apiserver: kubelet records Normal Created: Container created
            2814ms #10 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
            2904ms #- containers           kubelet -> kube-apiserver: kubelet records Normal Started: Container started
            2904ms #11 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
            2904ms #- containers           container runtime -> kubelet: container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
            3000ms #- status               kubelet -> kube-apiserver: kubelet updates status of default/web: Running (1/1 ready, Running)
            3000ms #12 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/namespaces/default/pods/web/status → 200 OK
            --- kubectl (exit 0)
            pod/web created
            pod/web unchanged
        "#]],
    );
}

#[test]
fn existing_object_without_annotation_is_configured() {
    let ns = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n  labels:\n    team: a\n";
    check(
        None,
        None,
        None,
        ns,
        expect![[r#"
               0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default
               0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get namespaces
               0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/namespaces/default (revision 2)
               0ms #1 etcd                 kube-apiserver -> kubectl: 200 OK
               4ms #2 request              kubectl -> kube-apiserver: kubectl sends PATCH /api/v1/namespaces/default?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
               4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to patch namespaces
               4ms #2 validation           kube-apiserver -> kube-apiserver: decodes the Namespace and merges it with the stored object
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
               4ms #2 validation           kube-apiserver -> kube-apiserver: Namespace "default" is valid
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: PodSecurity: allowed
               4ms #2 etcd                 kube-apiserver -> etcd: updates /registry/namespaces/default at revision 156
                        etcd Update /registry/namespaces/default rev 156
               4ms #2 etcd                 kube-apiserver -> kubectl: 200 OK
            --- kubectl (exit 0)
            Warning: resource namespaces/default is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.
            namespace/default configured
        "#]],
    );
}

#[test]
fn missing_namespace_is_refused_by_namespace_lifecycle() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: nope\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n";
    check(
        None,
        None,
        None,
        pod,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/nope/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace nope
           0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/pods/nope/web: not found
           0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "web" not found
           4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/nope/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
           4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create pods in namespace nope
           4ms #2 validation           kube-apiserver -> kube-apiserver: decodes the Pod strictly and fills in 9 default(s)
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver [FAILED]: NamespaceLifecycle: denied
           4ms #2 etcd                 kube-apiserver -> kubectl [FAILED]: 404 Not Found: namespaces "nope" not found
        --- kubectl (exit 1)
        Error from server (NotFound): error when creating "pod.yaml": namespaces "nope" not found
    "#]],
    );
}

#[test]
fn unknown_field_is_refused_by_strict_decoding() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n    imagePullPolicyy: Always\n";
    check(
        None,
        None,
        None,
        pod,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace default
           0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/pods/default/web: not found
           0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "web" not found
           4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
           4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create pods in namespace default
           4ms #2 validation           kube-apiserver -> kube-apiserver [FAILED]: cannot decode the Pod: 400 Bad Request
           4ms #2 etcd                 kube-apiserver -> kubectl [FAILED]: 400 Bad Request: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolicyy"
        --- kubectl (exit 1)
        Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolicyy"
    "#]],
    );
}

#[test]
fn invalid_pod_is_refused_by_validation() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: Web\nspec:\n  restartPolicy: Sometimes\n  containers:\n  - name: web\n";
    check(
        None,
        None,
        None,
        pod,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/Web
           0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace default
           0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/pods/default/Web: not found
           0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "Web" not found
           4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
           4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create pods in namespace default
           4ms #2 validation           kube-apiserver -> kube-apiserver: decodes the Pod strictly and fills in 8 default(s)
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: LimitRanger: nothing to do
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: ServiceAccount: changed 4 field(s)
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: Priority: changed 2 field(s)
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: DefaultTolerationSeconds: changed 1 field(s)
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
           4ms #2 validation           kube-apiserver -> kube-apiserver [FAILED]: Pod "Web" is invalid: 3 error(s)
           4ms #2 etcd                 kube-apiserver -> kubectl [FAILED]: 422 Unprocessable Entity: Pod "Web" is invalid: [metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.containers[0].image: Required value, spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"]
        --- kubectl (exit 1)
        The Pod "Web" is invalid: 
        * metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
        * spec.containers[0].image: Required value
        * spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"
    "#]],
    );
}

#[test]
fn pod_security_enforce_denies() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n";
    check(
        Some("restricted-namespace"),
        None,
        None,
        pod,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/restricted/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace restricted
           0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/pods/restricted/web: not found
           0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "web" not found
           4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/restricted/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
           4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create pods in namespace restricted
           4ms #2 validation           kube-apiserver -> kube-apiserver: decodes the Pod strictly and fills in 9 default(s)
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: LimitRanger: nothing to do
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: ServiceAccount: changed 4 field(s)
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: Priority: changed 2 field(s)
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: DefaultTolerationSeconds: changed 1 field(s)
           4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
           4ms #2 validation           kube-apiserver -> kube-apiserver: Pod "web" is valid
           4ms #2 validating-admission kube-apiserver -> kube-apiserver: LimitRanger: nothing to do
           4ms #2 validating-admission kube-apiserver -> kube-apiserver: ServiceAccount: allowed
           4ms #2 validating-admission kube-apiserver -> kube-apiserver [FAILED]: PodSecurity: denied
           4ms #2 etcd                 kube-apiserver -> kubectl [FAILED]: 403 Forbidden: pods "web" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
        --- kubectl (exit 1)
        Error from server (Forbidden): error when creating "pod.yaml": pods "web" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
    "#]],
    );
}

#[test]
fn limit_range_and_quota_apply_to_the_pod() {
    let file = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n  - name: a\n    image: nginx:1.29\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: big\nspec:\n  containers:\n  - name: big\n    image: nginx:1.29\n    resources:\n      limits:\n        cpu: \"2\"\n";
    check(
        Some("tight-resources"),
        None,
        None,
        file,
        expect![[r#"
               0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/a
               0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               0ms #1 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace default
               0ms #1 etcd                 kube-apiserver -> etcd: reads /registry/pods/default/a: not found
               0ms #1 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "a" not found
               4ms #2 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
               4ms #2 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               4ms #2 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create pods in namespace default
               4ms #2 validation           kube-apiserver -> kube-apiserver: decodes the Pod strictly and fills in 9 default(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: LimitRanger: changed 2 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: ServiceAccount: changed 4 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: Priority: changed 2 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: DefaultTolerationSeconds: changed 1 field(s)
               4ms #2 mutating-admission   kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
               4ms #2 validation           kube-apiserver -> kube-apiserver: Pod "a" is valid
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: LimitRanger: allowed
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: ServiceAccount: allowed
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: PodSecurity: allowed
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
               4ms #2 validating-admission kube-apiserver -> kube-apiserver: ResourceQuota: allowed
               4ms #2 validating-admission kube-apiserver -> etcd: ResourceQuota: charges default/compute-quota (status.used)
                        etcd Update /registry/resourcequotas/default/compute-quota rev 160
               4ms #2 etcd                 kube-apiserver -> etcd: creates /registry/pods/default/a at revision 161
                        etcd Create /registry/pods/default/a rev 161
               4ms #2 etcd                 kube-apiserver -> kubectl: 201 Created
               4ms #- scheduling           kube-apiserver -> kube-scheduler: kube-scheduler sees new pod default/a with no node
               6ms #- scheduling           kube-scheduler -> kube-scheduler: kube-scheduler picks kind-worker for pod default/a
               6ms #3 etcd                 kube-scheduler -> kube-apiserver: kube-scheduler POST /api/v1/namespaces/default/pods/a/binding → 201 Created
               6ms #4 etcd                 kube-scheduler -> kube-apiserver: kube-scheduler POST /api/v1/namespaces/default/events → 201 Created
               6ms #- scheduling           kube-scheduler -> kube-apiserver: event Normal Scheduled: Successfully assigned default/a to kind-worker
               8ms #5 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/big
               8ms #5 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               8ms #5 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace default
               8ms #5 etcd                 kube-apiserver -> etcd: reads /registry/pods/default/big: not found
               8ms #5 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "big" not found
               8ms #- kubelet              kube-apiserver -> kubelet: kubelet on kind-worker sees pod default/a bound to its node
               8ms #- kubelet              kubelet -> kubelet: kubelet admits pod default/a
               8ms #- kubelet              kubelet -> kubelet: QoS class of default/a: Burstable
               8ms #- kubelet              kubelet -> kubelet: kubelet creates cgroup kubepods-burstable-podc34d0bff_9015_4280_a099_ec6cd7363ca5.slice
               8ms #- status               kubelet -> kube-apiserver: kubelet updates status of default/a: Pending (0/1 ready, ContainerCreating)
               8ms #6 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/namespaces/default/pods/a/status → 200 OK
              12ms #7 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              12ms #7 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
              12ms #7 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create pods in namespace default
              12ms #7 validation           kube-apiserver -> kube-apiserver: decodes the Pod strictly and fills in 10 default(s)
              12ms #7 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
              12ms #7 mutating-admission   kube-apiserver -> kube-apiserver: LimitRanger: changed 3 field(s)
              12ms #7 mutating-admission   kube-apiserver -> kube-apiserver: ServiceAccount: changed 4 field(s)
              12ms #7 mutating-admission   kube-apiserver -> kube-apiserver: Priority: changed 2 field(s)
              12ms #7 mutating-admission   kube-apiserver -> kube-apiserver: DefaultTolerationSeconds: changed 1 field(s)
              12ms #7 mutating-admission   kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
              12ms #7 validation           kube-apiserver -> kube-apiserver: Pod "big" is valid
              12ms #7 validating-admission kube-apiserver -> kube-apiserver [FAILED]: LimitRanger: denied
              12ms #7 etcd                 kube-apiserver -> kubectl [FAILED]: 403 Forbidden: pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2
             128ms #- kubelet              kubelet -> kubelet: kubelet mounts volume "kube-api-access-t29pp" (projected)
             128ms #- runtime              kubelet -> container runtime: kubelet → containerd: RunPodSandbox for default/a
             278ms #- cni                  container runtime -> CNI plugin: CNI ADD (ptp): default/a gets 10.244.1.2
             408ms #- runtime              container runtime -> kubelet: sandbox of default/a is ready (10.244.1.2)
             408ms #- runtime              kubelet -> kube-apiserver: kubelet records Normal Pulling: Pulling image "nginx:1.29"
             408ms #8 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
             408ms #- runtime              kubelet -> container runtime: containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
            2754ms #- runtime              kubelet -> kube-apiserver: kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
            2754ms #9 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
            2754ms #- status               kubelet -> kube-apiserver: kubelet reports the node's images (node.status.images)
            2754ms #10 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/nodes/kind-worker/status → 200 OK
            2814ms #- containers           kubelet -> kube-apiserver: kubelet records Normal Created: Container created
            2814ms #11 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
            2904ms #- containers           kubelet -> kube-apiserver: kubelet records Normal Started: Container started
            2904ms #12 etcd                 kubelet -> kube-apiserver: kubelet POST /api/v1/namespaces/default/events → 201 Created
            2904ms #- containers           container runtime -> kubelet: container "a" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
            3000ms #- status               kubelet -> kube-apiserver: kubelet updates status of default/a: Running (1/1 ready, Running)
            3000ms #13 etcd                 kubelet -> kube-apiserver: kubelet PUT /api/v1/namespaces/default/pods/a/status → 200 OK
            --- kubectl (exit 1)
            pod/a created
            Error from server (Forbidden): error when creating "pod.yaml": pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2
        "#]],
    );
}

#[test]
fn pod_security_warn_mode_prints_warnings() {
    let cluster = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n  labels:\n    pod-security.kubernetes.io/warn: restricted\n";
    let out = run(&LabInput { cluster: Some(cluster.into()), ..LabInput::new(POD, "pod.yaml") }).expect("runs");
    expect![[r#"
        Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
        pod/web created
        [exit 0]
    "#]].assert_eq(&format!("{}[exit {}]\n", out.kubectl_output, out.exit_code));
}

#[test]
fn impersonating_a_service_account_is_checked_in_its_namespace() {
    check(
        Some("rbac-alice"),
        None,
        Some(("system:serviceaccount:dev:default", &[])),
        DEV_POD,
        expect![[r#"
           0ms #1 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/dev/pods/web
           0ms #1 authentication       kube-apiserver -> kube-apiserver: authenticated as alice (x509 client certificate)
           0ms #1 authorization        kube-apiserver -> kube-apiserver [FAILED]: forbidden: alice may not impersonate serviceaccount default
           0ms #1 etcd                 kube-apiserver -> kubectl [FAILED]: 403 Forbidden: serviceaccounts "default" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "dev"
        --- kubectl (exit 1)
        Error from server (Forbidden): error when retrieving current configuration of:
        Resource: "/v1, Resource=pods", GroupVersionKind: "/v1, Kind=Pod"
        Name: "web", Namespace: "dev"
        from server for: "pod.yaml": serviceaccounts "default" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "dev"
    "#]],
    );
}

#[test]
fn apply_refuses_generate_name_in_document_order() {
    let file = "apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: web-\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  namespace: nope\n---\napiVersion: v1\nkind: Secret\n";
    let out = run(&LabInput::new(file, "pod.yaml")).expect("runs");
    expect![[r#"
        from web-: cannot use generate name with apply
        Error from server (NotFound): error when creating "pod.yaml": namespaces "nope" not found
        error when retrieving current configuration of:
        Resource: "/v1, Resource=secrets", GroupVersionKind: "/v1, Kind=Secret"
        Name: "", Namespace: "default"
        from server for: "pod.yaml": resource name may not be empty
        [exit 1]
    "#]]
    .assert_eq(&format!("{}[exit {}]\n", out.kubectl_output, out.exit_code));
}

/// A kubelet that stops (`nodeFaults.notReadyAt`): its Lease is no longer renewed, the
/// node-lifecycle controller marks the node Unknown after `node-monitor-grace-period` (50 s)
/// and taints it `unreachable`, and the taint-eviction controller deletes its pods once their
/// `tolerationSeconds` (300, from DefaultTolerationSeconds) run out; the ReplicaSet replaces
/// them on the node that is still up. Routine heartbeats are not steps of the trace.
#[test]
fn a_node_whose_kubelet_stops_goes_unknown_and_its_pods_are_evicted() {
    let cluster = "apiVersion: podlab.dev/v1alpha1\nkind: LabSettings\nextends: kind\nnodeFaults:\n  kind-worker:\n    notReadyAt: 20000\n";
    let manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.29\n";
    let mut input = LabInput::new(manifest, "app.yaml");
    input.cluster = Some(cluster.into());
    input.limit_ms = 900_000;
    let run = run(&input).expect("runs");
    let mut out = String::new();
    for s in run.steps.iter().filter(|s| s.time_ms >= 20_000) {
        let who = matches!(s.detail, Detail::Controller(_) | Detail::Event(_) | Detail::Work(_) | Detail::Schedule(_));
        if who {
            out += &format!("{:>7.1}s {}\n", s.time_ms as f64 / 1000.0, s.summary);
        }
    }
    out += &format!("-- ended at {:.1}s (limit 900s)\n", run.end_ms as f64 / 1000.0);
    let snap = crate::views::Snapshot::new(run.store(), run.final_revision, run.end_ms);
    out += &snap.get_pods("default", crate::views::GetOptions { wide: true, all_namespaces: false });
    out += &snap.get_nodes(crate::views::GetOptions::default());
    expect![[r#"
           20.0s kubelet on kind-worker stops: no more node status, Lease renewals, pod syncs or probes
           65.0s node-lifecycle-controller: no heartbeat from kind-worker for 55s, Ready becomes Unknown
           65.0s node-controller records Normal NodeNotReady: Node kind-worker status is now: NodeNotReady
           65.0s node-controller records Warning NodeNotReady: Node is not ready
           65.0s node-lifecycle-controller updates the taints of kind-worker: add taint node.kubernetes.io/unreachable:NoSchedule
           65.0s replicaset-controller updates status of ReplicaSet web-766c57: replicas 2, ready 1, available 1
           65.0s deployment-controller updates status of Deployment web: 2 updated, 1 available, 2 wanted
           65.1s node-lifecycle-controller updates the taints of kind-worker: add taint node.kubernetes.io/unreachable:NoExecute
           65.1s taint-eviction-controller: Pod default/web-766c57-pgw5x tolerates node.kubernetes.io/unreachable:NoExecute for 5m0s: delete it then
          365.1s taint-eviction-controller records Normal TaintManagerEviction: Marking for deletion Pod default/web-766c57-pgw5x
          365.1s taint-eviction-controller deletes Pod default/web-766c57-pgw5x
          365.1s replicaset-controller: ReplicaSet web-766c57 has 1 Pod(s) for 2 replica(s): creating 1
          365.1s replicaset-controller records Normal SuccessfulCreate: Created pod: web-766c57-wb57n
          365.1s replicaset-controller updates status of ReplicaSet web-766c57: replicas 1, ready 1, available 1
          365.1s replicaset-controller updates status of ReplicaSet web-766c57: replicas 2, ready 1, available 1
          365.1s kube-scheduler picks kind-worker2 for pod default/web-766c57-wb57n
          365.1s event Normal Scheduled: Successfully assigned default/web-766c57-wb57n to kind-worker2
          365.1s deployment-controller updates status of Deployment web: 2 updated, 1 available, 2 wanted
          365.1s kubelet admits pod default/web-766c57-wb57n
          365.1s QoS class of default/web-766c57-wb57n: BestEffort
          365.1s kubelet creates cgroup kubepods-besteffort-pod764176e3_c9cf_4b25_bd84_5ef300ce2d0b.slice
          365.1s kubelet updates status of default/web-766c57-wb57n: Pending (0/1 ready, ContainerCreating)
          365.2s kubelet mounts volume "kube-api-access-lztwr" (projected)
          365.2s kubelet → containerd: RunPodSandbox for default/web-766c57-wb57n
          365.4s CNI ADD (ptp): default/web-766c57-wb57n gets 10.244.2.3
          365.5s sandbox of default/web-766c57-wb57n is ready (10.244.2.3)
          365.5s kubelet records Normal Pulled: Container image "nginx:1.29" already present on machine and can be accessed by the pod
          365.6s kubelet records Normal Created: Container created
          365.7s kubelet records Normal Started: Container started
          365.7s container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
          366.0s kubelet updates status of default/web-766c57-wb57n: Running (1/1 ready, Running)
          366.0s replicaset-controller updates status of ReplicaSet web-766c57: replicas 2, ready 2, available 2
          366.0s deployment-controller updates status of Deployment web: 2 updated, 2 available, 2 wanted
        -- ended at 430.0s (limit 900s)
        NAME               READY   STATUS        RESTARTS   AGE     IP           NODE           NOMINATED NODE   READINESS GATES
        web-766c57-9vtnp   1/1     Running       0          7m10s   10.244.2.2   kind-worker2   <none>           <none>
        web-766c57-pgw5x   1/1     Terminating   0          7m10s   10.244.1.2   kind-worker    <none>           <none>
        web-766c57-wb57n   1/1     Running       0          65s     10.244.2.3   kind-worker2   <none>           <none>
        NAME                 STATUS     ROLES           AGE     VERSION
        kind-control-plane   Ready      control-plane   7m10s   v1.37.0
        kind-worker          NotReady   <none>          7m10s   v1.37.0
        kind-worker2         Ready      <none>          7m10s   v1.37.0
    "#]].assert_eq(&out);
    // No heartbeat is a step of the trace, though the Leases were renewed.
    assert!(run.steps.iter().all(|s| !s.summary.contains("/leases")), "heartbeats are not trace steps");
    let lease = run.store().get("/registry/leases/kube-node-lease/kind-worker2").map(|(o, _)| o.to_json());
    assert!(lease.is_some_and(|l| l.pointer("/spec/renewTime").is_some()), "kind-worker2 renews its Lease");
}

/// `kubectl get pods -w` over whole runs, as a real cluster prints it: a Pod that starts
/// shows ContainerCreating once and then Running; a container that exits at once never shows
/// `1/1 Running`; a container its liveness probe kills is restarted in the same kubelet sync
/// (no Error or CrashLoopBackOff row between the kills).
#[test]
fn watch_rows_of_whole_runs() {
    let rows = |spec: &str, limit_ms: u64| {
        let manifest = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n{spec}");
        let mut input = LabInput::new(manifest, "pod.yaml");
        input.limit_ms = limit_ms;
        let run = run(&input).expect("the lab starts");
        let clock = crate::views::RevisionClock::from_steps(&run.steps);
        let v = crate::views::at(run.store(), run.final_revision, run.end_ms, "default", run.setup_revision, &clock);
        v.get_pods_watch
    };
    expect![[r#"
        NAME   READY   STATUS    RESTARTS   AGE
        p      0/1     Pending   0          0s
        p      0/1     Pending   0          0s
        p      0/1     ContainerCreating   0          0s
        p      1/1     Running             0          3s
    "#]]
    .assert_eq(&rows("  containers: [{name: web, image: \"nginx:1.29\"}]\n", 60_000));
    expect![[r#"
        NAME   READY   STATUS    RESTARTS   AGE
        p      0/1     Pending   0          0s
        p      0/1     Pending   0          0s
        p      0/1     ContainerCreating   0          0s
        p      0/1     Error               0          1s
        p      0/1     CrashLoopBackOff    1 (1s ago)   2s
        p      0/1     CrashLoopBackOff    2 (1s ago)   12s
        p      0/1     CrashLoopBackOff    3 (1s ago)   32s
    "#]]
    .assert_eq(&rows("  containers: [{name: app, image: \"busybox:1.37\", command: [sh, -c, \"exit 1\"]}]\n", 60_000));
    expect![[r#"
        NAME   READY   STATUS    RESTARTS   AGE
        p      0/1     Pending   0          0s
        p      0/1     Pending   0          0s
        p      0/1     ContainerCreating   0          0s
        p      1/1     Running             0          1s
        p      1/1     Running             1 (1s ago)   46s
        p      1/1     Running             2 (1s ago)   91s
    "#]].assert_eq(&rows(
        "  containers:\n  - name: app\n    image: busybox:1.37\n    command: [sleep, \"3600\"]\n    livenessProbe: {exec: {command: [cat, /tmp/healthy]}, periodSeconds: 5}\n",
        120_000,
    ));
}

/// A run on a kept [`Loaded`] cluster (and [`run`]'s, on the default cluster loaded once per
/// process) is the run a fresh load gives, byte for byte, however many runs of whatever seed
/// used it before; another cluster loads anew.
#[test]
fn runs_on_a_kept_cluster_equal_fresh_runs() {
    let deployment = crate::workloads::DEPLOYMENT;
    let nodes = cluster::preset("tight-resources").expect("the preset exists").to_string();
    let mut kept: Option<Loaded> = None;
    for (manifest, seed, cluster) in [
        (POD, 1, None),
        (deployment, 1, None),
        (POD, 1, None),
        (deployment, 7, None),
        (deployment, 7, Some(nodes.clone())),
        (POD, 1, None),
    ] {
        let input = LabInput { seed, cluster: cluster.clone(), ..LabInput::new(manifest, "x.yaml") };
        let fresh = run_on(&Loaded::load(input.cluster.as_deref()).expect("loads"), &input).expect("runs");
        let reused = run_reusing(&mut kept, &input).expect("runs");
        let json = serde_json::to_string(&fresh).unwrap();
        assert_eq!(serde_json::to_string(&reused).unwrap(), json);
        assert_eq!(serde_json::to_string(&run(&input).expect("runs")).unwrap(), json);
        let listing = |r: &Run| {
            r.store()
                .list("/")
                .into_iter()
                .map(|(k, o, rev)| format!("{k} {rev} {:?}", o.meta().uid))
                .collect::<Vec<_>>()
        };
        assert_eq!(listing(&reused), listing(&fresh));
        assert!(kept.as_ref().is_some_and(|l| l.fits(&input)));
    }
}

/// A minimal valid object of every kind whose consumer the lab may lack, by (group, kind).
fn minimal_object(group: &str, kind: &str, version: &str) -> Option<String> {
    let pod_spec = "      containers:\n      - name: c\n        image: busybox:1.37\n";
    let template = format!("    metadata:\n      labels:\n        app: x\n    spec:\n{pod_spec}");
    let api = if group.is_empty() { version.to_string() } else { format!("{group}/{version}") };
    let body = match (group, kind) {
        ("", "PersistentVolumeClaim") => {
            "spec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n".to_string()
        }
        ("", "PersistentVolume") => {
            "spec:\n  capacity:\n    storage: 1Gi\n  accessModes: [ReadWriteOnce]\n  hostPath:\n    path: /data\n".to_string()
        }
        ("", "ReplicationController") => {
            format!("spec:\n  replicas: 1\n  selector:\n    app: x\n  template:\n{template}")
        }
        ("apps", "StatefulSet") => format!(
            "spec:\n  serviceName: x\n  replicas: 2\n  selector:\n    matchLabels:\n      app: x\n  template:\n{template}"
        ),
        ("apps", "DaemonSet") => {
            format!("spec:\n  selector:\n    matchLabels:\n      app: x\n  template:\n{template}")
        }
        ("batch", "CronJob") => "spec:\n  schedule: \"*/1 * * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n          - name: c\n            image: busybox:1.37\n".to_string(),
        ("autoscaling", "HorizontalPodAutoscaler") if version == "v1" => "spec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  minReplicas: 1\n  maxReplicas: 5\n  targetCPUUtilizationPercentage: 50\n".to_string(),
        ("autoscaling", "HorizontalPodAutoscaler") => "spec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  minReplicas: 1\n  maxReplicas: 5\n  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target:\n        type: Utilization\n        averageUtilization: 50\n".to_string(),
        ("policy", "PodDisruptionBudget") => {
            "spec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      app: x\n".to_string()
        }
        ("networking.k8s.io", "Ingress") => "spec:\n  rules:\n  - http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: web\n            port:\n              number: 80\n".to_string(),
        ("networking.k8s.io", "IngressClass") => "spec:\n  controller: k8s.io/ingress-nginx\n".to_string(),
        ("networking.k8s.io", "NetworkPolicy") => "spec:\n  podSelector: {}\n  policyTypes: [Ingress]\n".to_string(),
        ("storage.k8s.io", "StorageClass") => "provisioner: example.com/fast\n".to_string(),
        ("storage.k8s.io", "CSIDriver") => "spec:\n  attachRequired: false\n".to_string(),
        ("apiextensions.k8s.io", "CustomResourceDefinition") => "spec:\n  group: example.com\n  names:\n    kind: Widget\n    plural: widgets\n    singular: widget\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n".to_string(),
        ("snapshot.storage.k8s.io", "VolumeSnapshot") => {
            "spec:\n  source:\n    persistentVolumeClaimName: data\n".to_string()
        }
        ("snapshot.storage.k8s.io", "VolumeSnapshotClass") => {
            "driver: hostpath.csi.k8s.io\ndeletionPolicy: Delete\n".to_string()
        }
        _ => return None,
    };
    let name = if kind == "CustomResourceDefinition" { "widgets.example.com" } else { "x" };
    Some(format!("apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: {name}\n{body}"))
}

/// Never a silent nothing: every kind the API server accepts is either modelled (no
/// announcement) or, when the component acting on it is missing from the lab, announced by
/// a warning step and listed in the run.
#[test]
fn every_kind_without_its_consumer_is_announced() {
    use crate::consumers::{row_of, Consumer};
    let mut announced = 0;
    for info in crate::object::RESOURCES {
        let row = row_of(info).unwrap();
        let gap = matches!(row.consumer, Consumer::NotModelled(_));
        let Some(manifest) = minimal_object(info.group, info.kind, info.version) else {
            assert!(
                !gap,
                "{} ({}) is not modelled and has no minimal object to test it",
                info.kind,
                info.api_version()
            );
            continue;
        };
        let r = run(&LabInput::new(manifest.clone(), "x.yaml")).unwrap();
        assert!(r.all_accepted(), "{}: {}\n{manifest}", info.kind, r.kubectl_output);
        if !gap {
            assert!(r.not_modelled.is_empty(), "{} is modelled but announced: {:?}", info.kind, r.not_modelled);
            continue;
        }
        announced += 1;
        let Consumer::NotModelled(g) = row.consumer else { unreachable!() };
        assert_eq!(r.not_modelled.len(), 1, "{}: {:?}", info.kind, r.not_modelled);
        let n = &r.not_modelled[0];
        assert_eq!((n.object.kind.as_str(), n.component.as_str()), (info.kind, g.component));
        let step = &r.steps[n.step];
        assert_eq!(step.status, crate::trace::StepStatus::Warning);
        assert!(matches!(&step.detail, Detail::Note { text } if text == &n.text && text.contains(g.component)));
        // Announced after the object was written, before the run ended.
        let created = r.steps.iter().position(|s| s.summary.starts_with("201 Created")).unwrap();
        assert!(n.step > created, "{}: step {} before the create at {created}", info.kind, n.step);
    }
    assert!(announced > 0, "no kind is announced");
}

#[test]
fn a_modelled_run_announces_nothing() {
    let r = run(&LabInput::new(POD, "pod.yaml")).unwrap();
    assert!(r.not_modelled.is_empty());
    assert!(!r.to_json().contains("not_modelled"));
}

#[test]
fn ingress_announcement_reads_plainly() {
    let m = minimal_object("networking.k8s.io", "Ingress", "v1").unwrap();
    let r = run(&LabInput::new(m, "ingress.yaml")).unwrap();
    assert_eq!(r.not_modelled.len(), 1);
    let n = &r.not_modelled[0];
    assert_eq!(r.steps[n.step].summary, "not modelled: an ingress controller would act on Ingress x");
    expect!["In a real cluster, an ingress controller (an add-on) acts on Ingress default/x: it routes HTTP to the backend Services and writes its address into status.loadBalancer; a kind cluster has no ingress controller until you install one (ingress-nginx, for example), so a real kind cluster leaves it without an ADDRESS too. The lab does not model an ingress controller, so here the Ingress has no address. Read this as a gap of the lab, not as Kubernetes' behaviour."].assert_eq(&n.text);
}

/// The time of the first step whose summary contains `needle`.
fn first_step(r: &Run, needle: &str) -> Option<u64> {
    r.steps.iter().find(|s| s.summary.contains(needle)).map(|s| s.time_ms)
}

fn stored(r: &Run, key: &str) -> Option<Object> {
    r.store().get(key).map(|(o, _)| o.clone())
}

const STATEFUL_SET: &str = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\nspec:\n  serviceName: db\n  replicas: 2\n  selector:\n    matchLabels:\n      app: db\n  template:\n    metadata:\n      labels:\n        app: db\n    spec:\n      containers:\n      - name: redis\n        image: redis:7.4\n        readinessProbe:\n          tcpSocket:\n            port: 6379\n          initialDelaySeconds: 2\n";

#[test]
fn a_stateful_set_starts_its_pods_in_order() {
    let r = run(&LabInput::new(STATEFUL_SET, "db.yaml")).unwrap();
    assert!(r.not_modelled.is_empty(), "{:?}", r.not_modelled);
    let create0 = first_step(&r, "StatefulSet db: create Pod db-0").expect("db-0 created");
    let create1 = first_step(&r, "StatefulSet db: create Pod db-1").expect("db-1 created");
    let waits =
        first_step(&r, "StatefulSet db waits: db-1 waits until db-0 is Running and Ready").expect("the wait is said");
    assert!(create0 <= waits && waits < create1);
    // db-1 only after db-0 reported Ready.
    let ready0 = first_step(&r, "kubelet updates status of default/db-0: Running (1/1 ready");
    assert!(ready0.is_some_and(|t| t <= create1), "db-0 ready at {ready0:?}, db-1 created at {create1}");
    let Some(Object::StatefulSet(set)) = stored(&r, "/registry/statefulsets/default/db") else { panic!("no set") };
    let status = set.status.clone().unwrap_or_default();
    assert_eq!((status.replicas, status.ready_replicas, status.updated_replicas), (2, Some(2), Some(2)));
    let revision = status.update_revision.clone().unwrap_or_default();
    assert_eq!(status.current_revision.as_deref(), Some(revision.as_str()));
    let Some(Object::ControllerRevision(cr)) = stored(&r, &format!("/registry/controllerrevisions/default/{revision}"))
    else {
        panic!("no revision {revision}")
    };
    assert_eq!(cr.revision, Some(1));
    let Some(Object::Pod(p)) = stored(&r, "/registry/pods/default/db-1") else { panic!("no db-1") };
    let labels = p.metadata.labels.clone().unwrap_or_default();
    assert_eq!(labels.get("statefulset.kubernetes.io/pod-name").map(String::as_str), Some("db-1"));
    assert_eq!(labels.get("apps.kubernetes.io/pod-index").map(String::as_str), Some("1"));
    assert_eq!(labels.get("controller-revision-hash"), Some(&revision));
    let spec = p.spec.clone().unwrap_or_default();
    assert_eq!((spec.hostname.as_deref(), spec.subdomain.as_deref()), (Some("db-1"), Some("db")));
    assert!(r.kubectl_output.contains("statefulset.apps/db created"));
}

#[test]
fn a_parallel_stateful_set_creates_every_pod_at_once() {
    let manifest = STATEFUL_SET.replace("  replicas: 2\n", "  replicas: 3\n  podManagementPolicy: Parallel\n");
    let r = run(&LabInput::new(manifest, "db.yaml")).unwrap();
    let times: Vec<u64> =
        (0..3).map(|i| first_step(&r, &format!("StatefulSet db: create Pod db-{i}")).expect("created")).collect();
    assert!(times.iter().all(|t| *t == times[0]), "{times:?}");
    assert!(first_step(&r, "waits").is_none());
}

#[test]
fn volume_claim_templates_make_a_claim_per_pod_before_the_pod() {
    let manifest = STATEFUL_SET.replace("  replicas: 2\n", "  replicas: 1\n  persistentVolumeClaimRetentionPolicy:\n    whenDeleted: Delete\n")
        + "  volumeClaimTemplates:\n  - metadata:\n      name: data\n    spec:\n      accessModes: [ReadWriteOnce]\n      resources:\n        requests:\n          storage: 1Gi\n";
    let r = run(&LabInput::new(manifest, "db.yaml")).unwrap();
    let claim = first_step(&r, "create PersistentVolumeClaim data-db-0 for Pod db-0").expect("claim created");
    let pod = first_step(&r, "StatefulSet db: create Pod db-0").expect("pod created");
    assert!(claim <= pod);
    assert!(r
        .steps
        .iter()
        .any(|s| s.summary.contains("SuccessfulCreate: create Claim data-db-0 Pod db-0 in StatefulSet db success")));
    let Some(Object::PersistentVolumeClaim(c)) = stored(&r, "/registry/persistentvolumeclaims/default/data-db-0")
    else {
        panic!("no claim")
    };
    assert_eq!(c.metadata.labels.as_ref().and_then(|l| l.get("app")).map(String::as_str), Some("db"));
    let owners = c.metadata.owner_references.clone().unwrap_or_default();
    assert_eq!(owners.iter().map(|o| (o.kind.as_str(), o.name.as_str())).collect::<Vec<_>>(), [("StatefulSet", "db")]);
    let Some(Object::Pod(p)) = stored(&r, "/registry/pods/default/db-0") else { panic!("no db-0") };
    let volumes = p.spec.clone().unwrap_or_default().volumes.unwrap_or_default();
    assert_eq!(volumes[0].name, "data");
    assert_eq!(volumes[0].persistent_volume_claim.as_ref().map(|c| c.claim_name.as_str()), Some("data-db-0"));
    // kind's default class provisions it on the Pod's node, and the controller binds it.
    assert!(r.not_modelled.is_empty(), "{:?}", r.not_modelled);
    let spec = c.spec.clone().unwrap_or_default();
    assert_eq!(spec.storage_class_name.as_deref(), Some("standard"));
    assert_eq!(c.status.as_ref().and_then(|s| s.phase.as_deref()), Some("Bound"));
    let volume = spec.volume_name.unwrap_or_default();
    assert_eq!(volume, format!("pvc-{}", c.metadata.uid.as_deref().unwrap_or("")));
    let Some(Object::PersistentVolume(pv)) = stored(&r, &format!("/registry/persistentvolumes/{volume}")) else {
        panic!("no volume {volume}")
    };
    let node = p.spec.as_ref().and_then(|s| s.node_name.clone()).unwrap_or_default();
    let pv_spec = pv.spec.clone().unwrap_or_default();
    assert_eq!(
        pv_spec.host_path.map(|h| h.path),
        Some(format!("/var/local-path-provisioner/{volume}_default_data-db-0"))
    );
    let affinity = serde_json::to_string(&pv_spec.node_affinity).unwrap_or_default();
    assert!(affinity.contains(&format!("[\"{node}\"]")), "{affinity} vs {node}");
    for reason in ["WaitForFirstConsumer", "ExternalProvisioning", "Provisioning", "ProvisioningSucceeded"] {
        assert!(r.steps.iter().any(|s| s.summary.contains(&format!("records Normal {reason}:"))), "no {reason} event");
    }
    // The Pod is bound only once its claim is: PreBind holds it.
    let bound = first_step(&r, "the claims of pod default/db-0 are bound").expect("PreBind ends");
    let provisioned = first_step(&r, "records Normal ProvisioningSucceeded").expect("provisioned");
    assert!(provisioned <= bound);
    assert_eq!(p.status.as_ref().and_then(|s| s.phase.as_deref()), Some("Running"));
}

/// The daemon Pods at the end of a run on the kind preset: name prefix, node, phase, the
/// required node affinity and the tolerations.
fn daemon_pods(manifest: &str) -> String {
    let r = run(&LabInput::new(manifest, "ds.yaml")).unwrap();
    assert!(r.not_modelled.is_empty(), "{:?}", r.not_modelled);
    let mut out = String::new();
    for o in r.store().list_shared("/registry/pods/") {
        let Object::Pod(p) = &*o else { continue };
        let spec = p.spec.clone().unwrap_or_default();
        let affinity = serde_json::to_string(&spec.affinity).unwrap();
        let tolerations: Vec<String> = spec
            .tolerations
            .unwrap_or_default()
            .iter()
            .map(|t| format!("{}:{}", t.key.as_deref().unwrap_or(""), t.effect.as_deref().unwrap_or("")))
            .collect();
        out += &format!(
            "{} on {} {}\n  affinity {affinity}\n  tolerations {}\n",
            p.metadata.generate_name.as_deref().unwrap_or(""),
            spec.node_name.as_deref().unwrap_or("<none>"),
            p.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or(""),
            tolerations.join(", ")
        );
    }
    out
}

const DAEMON_SET: &str = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector:\n    matchLabels:\n      app: agent\n  template:\n    metadata:\n      labels:\n        app: agent\n    spec:\n      containers:\n      - name: agent\n        image: busybox:1.37\n        command: [sleep, '3600']\n";

/// Through the real scheduler: each daemon Pod is bound to the node its `metadata.name`
/// affinity names, and the tainted control-plane node gets none.
#[test]
fn daemon_set_runs_on_the_kind_workers_only() {
    expect![[r#"
        agent- on kind-worker2 Running
          affinity {"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["kind-worker2"]}]}]}}}
          tolerations node.kubernetes.io/not-ready:NoExecute, node.kubernetes.io/unreachable:NoExecute, node.kubernetes.io/disk-pressure:NoSchedule, node.kubernetes.io/memory-pressure:NoSchedule, node.kubernetes.io/pid-pressure:NoSchedule, node.kubernetes.io/unschedulable:NoSchedule
        agent- on kind-worker Running
          affinity {"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["kind-worker"]}]}]}}}
          tolerations node.kubernetes.io/not-ready:NoExecute, node.kubernetes.io/unreachable:NoExecute, node.kubernetes.io/disk-pressure:NoSchedule, node.kubernetes.io/memory-pressure:NoSchedule, node.kubernetes.io/pid-pressure:NoSchedule, node.kubernetes.io/unschedulable:NoSchedule
    "#]].assert_eq(&daemon_pods(DAEMON_SET));
}

/// A template that tolerates the control-plane taint runs everywhere; one with a nodeSelector
/// only where it matches (the affinity the controller sets replaces only the required terms).
#[test]
fn daemon_set_tolerations_and_node_selector_choose_the_nodes() {
    let everywhere = DAEMON_SET.replace(
        "      containers:",
        "      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:",
    );
    expect![[r#"
        agent- on kind-worker Running
          affinity {"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["kind-worker"]}]}]}}}
          tolerations node-role.kubernetes.io/control-plane:NoSchedule, node.kubernetes.io/not-ready:NoExecute, node.kubernetes.io/unreachable:NoExecute, node.kubernetes.io/disk-pressure:NoSchedule, node.kubernetes.io/memory-pressure:NoSchedule, node.kubernetes.io/pid-pressure:NoSchedule, node.kubernetes.io/unschedulable:NoSchedule
        agent- on kind-control-plane Running
          affinity {"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["kind-control-plane"]}]}]}}}
          tolerations node-role.kubernetes.io/control-plane:NoSchedule, node.kubernetes.io/not-ready:NoExecute, node.kubernetes.io/unreachable:NoExecute, node.kubernetes.io/disk-pressure:NoSchedule, node.kubernetes.io/memory-pressure:NoSchedule, node.kubernetes.io/pid-pressure:NoSchedule, node.kubernetes.io/unschedulable:NoSchedule
        agent- on kind-worker2 Running
          affinity {"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["kind-worker2"]}]}]}}}
          tolerations node-role.kubernetes.io/control-plane:NoSchedule, node.kubernetes.io/not-ready:NoExecute, node.kubernetes.io/unreachable:NoExecute, node.kubernetes.io/disk-pressure:NoSchedule, node.kubernetes.io/memory-pressure:NoSchedule, node.kubernetes.io/pid-pressure:NoSchedule, node.kubernetes.io/unschedulable:NoSchedule
    "#]].assert_eq(&daemon_pods(&everywhere));
    let one = DAEMON_SET.replace(
        "      containers:",
        "      nodeSelector:\n        kubernetes.io/hostname: kind-worker2\n      containers:",
    );
    expect![[r#"
        agent- on kind-worker2 Running
          affinity {"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["kind-worker2"]}]}]}}}
          tolerations node.kubernetes.io/not-ready:NoExecute, node.kubernetes.io/unreachable:NoExecute, node.kubernetes.io/disk-pressure:NoSchedule, node.kubernetes.io/memory-pressure:NoSchedule, node.kubernetes.io/pid-pressure:NoSchedule, node.kubernetes.io/unschedulable:NoSchedule
    "#]].assert_eq(&daemon_pods(&one));
}

const CRON_JOB: &str = "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: hello\nspec:\n  schedule: \"*/1 * * * *\"\n  jobTemplate:\n    metadata:\n      labels:\n        app: hello\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n          - name: hello\n            image: busybox:1.37\n            command: [sh, -c, 'date; echo Hello']\n";

/// The Jobs, their Pods, the CronJob's status, its controller's Events and when it said the
/// next run is due.
fn cron_outcome(manifest: &str) -> String {
    let r = run(&LabInput::new(manifest, "cron.yaml")).unwrap();
    assert!(r.not_modelled.is_empty(), "{:?}", r.not_modelled);
    let mut out = String::new();
    for o in r.store().list_shared("/registry/jobs/") {
        let Object::Job(j) = &*o else { continue };
        let owner =
            j.metadata.owner_references.iter().flatten().map(|r| format!("{} {}", r.kind, r.name)).collect::<Vec<_>>();
        let conditions =
            j.status.iter().flat_map(|s| s.conditions.iter().flatten()).map(|c| c.type_.clone()).collect::<Vec<_>>();
        out += &format!(
            "job {} scheduled {} owner {} labels {:?} conditions {}\n",
            j.metadata.name.as_deref().unwrap_or(""),
            j.metadata
                .annotations
                .as_ref()
                .and_then(|a| a.get("batch.kubernetes.io/cronjob-scheduled-timestamp"))
                .map(String::as_str)
                .unwrap_or("-"),
            owner.join(","),
            j.metadata.labels.clone().unwrap_or_default(),
            conditions.join(",")
        );
    }
    for o in r.store().list_shared("/registry/pods/") {
        let Object::Pod(p) = &*o else { continue };
        out += &format!(
            "pod {} {}\n",
            p.metadata.generate_name.as_deref().unwrap_or(""),
            p.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("")
        );
    }
    for o in r.store().list_shared("/registry/cronjobs/") {
        let Object::CronJob(c) = &*o else { continue };
        let s = c.status.clone().unwrap_or_default();
        out += &format!(
            "cronjob active {:?} lastScheduleTime {:?} lastSuccessfulTime {:?}\n",
            s.active.iter().flatten().map(|r| r.name.clone().unwrap_or_default()).collect::<Vec<_>>(),
            s.last_schedule_time.map(|t| t.0.to_string()),
            s.last_successful_time.map(|t| t.0.to_string()),
        );
    }
    for s in &r.steps {
        match &s.detail {
            Detail::Event(_) if s.object.as_ref().is_some_and(|o| o.kind == "CronJob") => {
                out += &format!("{:>6} event {}\n", s.time_ms, s.summary)
            }
            Detail::Controller(c) if c.controller == "cronjob-controller" && s.summary.contains("next run due") => {
                out += &format!("{:>6} {} / {}\n", s.time_ms, s.summary, c.actions.join("; "))
            }
            _ => {}
        }
    }
    out
}

/// `*/1 * * * *` from the lab's epoch: the first Job at 00:01:00, named after the minutes since
/// the Unix epoch, its Pod completes, and the CronJob records it.
#[test]
fn cron_job_creates_its_first_job_on_schedule() {
    expect![[r#"
        job hello-29453762 scheduled 2026-01-01T00:02:00Z owner CronJob hello labels {"app": "hello"} conditions SuccessCriteriaMet,Complete
        job hello-29453763 scheduled 2026-01-01T00:03:00Z owner CronJob hello labels {"app": "hello"} conditions SuccessCriteriaMet,Complete
        job hello-29453764 scheduled 2026-01-01T00:04:00Z owner CronJob hello labels {"app": "hello"} conditions SuccessCriteriaMet,Complete
        pod hello-29453762- Succeeded
        pod hello-29453763- Succeeded
        pod hello-29453764- Succeeded
        cronjob active [] lastScheduleTime Some("2026-01-01T00:04:00Z") lastSuccessfulTime Some("2026-01-01T00:04:01Z")
             6 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:01:00Z / sync again in 1m0.094s: at the next scheduled time 2026-01-01T00:01:00Z plus 100 ms
         60100 event cronjob-controller records Normal SuccessfulCreate: Created job hello-29453761
         60100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:02:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:02:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
         61104 event cronjob-controller records Normal SawCompletedJob: Saw completed job: hello-29453761, condition: Complete
        120100 event cronjob-controller records Normal SuccessfulCreate: Created job hello-29453762
        120100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:03:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:03:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
        121104 event cronjob-controller records Normal SawCompletedJob: Saw completed job: hello-29453762, condition: Complete
        180100 event cronjob-controller records Normal SuccessfulCreate: Created job hello-29453763
        180100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:04:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:04:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
        181104 event cronjob-controller records Normal SawCompletedJob: Saw completed job: hello-29453763, condition: Complete
        240100 event cronjob-controller records Normal SuccessfulCreate: Created job hello-29453764
        240100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:05:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:05:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
        241104 event cronjob-controller records Normal SuccessfulDelete: Deleted job hello-29453761
        241104 event cronjob-controller records Normal SawCompletedJob: Saw completed job: hello-29453764, condition: Complete
    "#]].assert_eq(&cron_outcome(CRON_JOB));
}

/// A Job that runs longer than a minute: `Forbid` skips the next scheduled time while it is
/// active (`JobAlreadyActive`); `Replace` deletes it and starts the next one.
#[test]
fn cron_job_concurrency_policies() {
    let long = CRON_JOB.replace("'date; echo Hello'", "'sleep 3600'");
    let forbid = long.replace("  jobTemplate:", "  concurrencyPolicy: Forbid\n  jobTemplate:");
    expect![[r#"
        job hello-29453761 scheduled 2026-01-01T00:01:00Z owner CronJob hello labels {"app": "hello"} conditions 
        pod hello-29453761- Running
        cronjob active ["hello-29453761"] lastScheduleTime Some("2026-01-01T00:01:00Z") lastSuccessfulTime None
             6 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:01:00Z / sync again in 1m0.094s: at the next scheduled time 2026-01-01T00:01:00Z plus 100 ms
         60100 event cronjob-controller records Normal SuccessfulCreate: Created job hello-29453761
         60100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:02:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:02:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
        120100 event cronjob-controller records Normal JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid
        120100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:03:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:03:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
        180100 event cronjob-controller records Normal JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid
        180100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:04:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:04:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
        240100 event cronjob-controller records Normal JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid
        240100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:05:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:05:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
    "#]].assert_eq(&cron_outcome(&forbid));
    let replace = long.replace("  jobTemplate:", "  concurrencyPolicy: Replace\n  jobTemplate:");
    expect![[r#"
        job hello-29453764 scheduled 2026-01-01T00:04:00Z owner CronJob hello labels {"app": "hello"} conditions 
        pod hello-29453764- Running
        cronjob active ["hello-29453764"] lastScheduleTime Some("2026-01-01T00:04:00Z") lastSuccessfulTime None
             6 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:01:00Z / sync again in 1m0.094s: at the next scheduled time 2026-01-01T00:01:00Z plus 100 ms
         60100 event cronjob-controller records Normal SuccessfulCreate: Created job hello-29453761
         60100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:02:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:02:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
        120100 event cronjob-controller records Normal SuccessfulDelete: Deleted job hello-29453761
        120100 event cronjob-controller records Normal SuccessfulCreate: Created job hello-29453762
        120100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:03:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:03:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
        180100 event cronjob-controller records Normal SuccessfulDelete: Deleted job hello-29453762
        180100 event cronjob-controller records Normal SuccessfulCreate: Created job hello-29453763
        180100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:04:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:04:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
        240100 event cronjob-controller records Normal SuccessfulDelete: Deleted job hello-29453763
        240100 event cronjob-controller records Normal SuccessfulCreate: Created job hello-29453764
        240100 cronjob-controller: CronJob hello: next run due at 2026-01-01T00:05:00Z / sync again in 1m0s: at the next scheduled time 2026-01-01T00:05:00Z plus 100 ms (periodic work: it does not keep the lab's run going by itself)
    "#]].assert_eq(&cron_outcome(&replace));
}

/// `suspend: true` starts nothing; `timeZone` names the zone of the schedule and of the
/// scheduled-timestamp annotation.
#[test]
fn cron_job_suspend_and_time_zone() {
    let suspended = CRON_JOB.replace("  jobTemplate:", "  suspend: true\n  jobTemplate:");
    expect![[r#"
        cronjob active [] lastScheduleTime None lastSuccessfulTime None
    "#]]
    .assert_eq(&cron_outcome(&suspended));
    let tokyo = CRON_JOB
        .replace("*/1 * * * *", "1 9 * * *")
        .replace("  jobTemplate:", "  timeZone: Asia/Tokyo\n  jobTemplate:");
    expect![[r#"
        job hello-29453761 scheduled 2026-01-01T09:01:00+09:00 owner CronJob hello labels {"app": "hello"} conditions SuccessCriteriaMet,Complete
        pod hello-29453761- Succeeded
        cronjob active [] lastScheduleTime Some("2026-01-01T00:01:00Z") lastSuccessfulTime Some("2026-01-01T00:01:01Z")
             6 cronjob-controller: CronJob hello: next run due at 2026-01-01T09:01:00+09:00 / sync again in 1m0.094s: at the next scheduled time 2026-01-01T09:01:00+09:00 plus 100 ms
         60100 event cronjob-controller records Normal SuccessfulCreate: Created job hello-29453761
         60100 cronjob-controller: CronJob hello: next run due at 2026-01-02T09:01:00+09:00 / sync again in 24h0m0s: at the next scheduled time 2026-01-02T09:01:00+09:00 plus 100 ms (periodic work: it does not keep the lab's run going by itself)
         61104 event cronjob-controller records Normal SawCompletedJob: Saw completed job: hello-29453761, condition: Complete
    "#]].assert_eq(&cron_outcome(&tokyo));
}

const HPA_DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.27\n        resources:\n          requests:\n            cpu: 100m\n";

/// What the HPA controller did: its decisions and events (time, summary), the Deployment's
/// replicas and `kubectl get hpa` as the run left the cluster.
fn hpa_outcome(manifest: &str) -> String {
    let r = run(&LabInput::new(manifest, "hpa.yaml")).unwrap();
    assert!(r.not_modelled.is_empty(), "{:?}", r.not_modelled);
    let mut out = String::new();
    for s in &r.steps {
        match &s.detail {
            Detail::Event(_) if s.object.as_ref().is_some_and(|o| o.kind == "HorizontalPodAutoscaler") => {
                out += &format!("{:>6} event {}\n", s.time_ms, s.summary)
            }
            Detail::Controller(c) if c.controller == crate::controllers::podautoscaler::NAME => {
                out += &format!("{:>6} {} / {}\n", s.time_ms, s.summary, c.actions.join("; "))
            }
            _ => {}
        }
    }
    for o in r.store().list_shared("/registry/deployments/") {
        let Object::Deployment(d) = &*o else { continue };
        out += &format!("deployment replicas {:?}\n", d.spec.replicas);
    }
    for o in r.store().list_shared("/registry/horizontalpodautoscalers/") {
        out += &format!("status {}\n", o.to_json()["status"]);
    }
    let snap = crate::views::Snapshot::new(r.store(), r.final_revision, r.end_ms);
    out += &snap.get_hpas("default", crate::views::GetOptions::default());
    out
}

/// kind has no metrics-server: the first sync, 15 s after the HPA is created, cannot read the
/// Pods' CPU, records upstream's two warnings and leaves the Deployment as it is; the repeats
/// every 15 s count the same events up and do not keep the run going.
#[test]
fn hpa_without_metrics_server_reports_unknown_targets() {
    let hpa = "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  minReplicas: 1\n  maxReplicas: 5\n  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target:\n        type: Utilization\n        averageUtilization: 50\n";
    expect![[r#"
         15012 horizontal-pod-autoscaler: HorizontalPodAutoscaler web: no metrics, Deployment/web stays at 1 / read the metrics of the Pods selected by app=web: the resource metrics API (metrics.k8s.io) is not served, because kind installs no metrics-server; without a measurement the controller computes no replica count and leaves the target as it is (install metrics-server to give it CPU and memory usage)
         15012 event horizontal-pod-autoscaler records Warning FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         15012 event horizontal-pod-autoscaler records Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         30012 event horizontal-pod-autoscaler records Warning FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         30012 event horizontal-pod-autoscaler records Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         45012 event horizontal-pod-autoscaler records Warning FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         45012 event horizontal-pod-autoscaler records Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         60012 event horizontal-pod-autoscaler records Warning FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         60012 event horizontal-pod-autoscaler records Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         75012 event horizontal-pod-autoscaler records Warning FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         75012 event horizontal-pod-autoscaler records Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
        deployment replicas Some(1)
        status {"currentReplicas":1,"desiredReplicas":0,"currentMetrics":[{"type":""}],"conditions":[{"type":"AbleToScale","lastTransitionTime":"2026-01-01T00:00:15Z","status":"True","reason":"SucceededGetScale","message":"the HPA controller was able to get the target's current scale"},{"type":"ScalingActive","lastTransitionTime":"2026-01-01T00:00:15Z","status":"False","reason":"FailedGetResourceMetric","message":"the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)"}]}
        NAME   REFERENCE        TARGETS              MINPODS   MAXPODS   REPLICAS   AGE
        web    Deployment/web   cpu: <unknown>/50%   1         5         1          75s
    "#]].assert_eq(&hpa_outcome(&format!("{HPA_DEPLOYMENT}---\n{hpa}")));
}

/// Bounds apply without metrics: below minReplicas the target is scaled up through its scale
/// subresource; an autoscaling/v1 HPA reads its CPU target as the v2 metric.
#[test]
fn hpa_scales_up_to_min_replicas_and_reads_v1() {
    let hpa = "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  minReplicas: 2\n  maxReplicas: 3\n  targetCPUUtilizationPercentage: 60\n";
    expect![[r#"
         15012 horizontal-pod-autoscaler: HorizontalPodAutoscaler web: scales Deployment/web from 1 to 2 / PUT deployments/web/scale spec.replicas=2 (Current number of replicas below Spec.MinReplicas; the bounds apply without any metric)
         15012 event horizontal-pod-autoscaler records Normal SuccessfulRescale: New size: 2; reason: Current number of replicas below Spec.MinReplicas
         30012 horizontal-pod-autoscaler: HorizontalPodAutoscaler web: no metrics, Deployment/web stays at 2 / read the metrics of the Pods selected by app=web: the resource metrics API (metrics.k8s.io) is not served, because kind installs no metrics-server; without a measurement the controller computes no replica count and leaves the target as it is (install metrics-server to give it CPU and memory usage)
         30012 event horizontal-pod-autoscaler records Warning FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         30012 event horizontal-pod-autoscaler records Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         45012 event horizontal-pod-autoscaler records Warning FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         45012 event horizontal-pod-autoscaler records Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         60012 event horizontal-pod-autoscaler records Warning FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         60012 event horizontal-pod-autoscaler records Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         75012 event horizontal-pod-autoscaler records Warning FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         75012 event horizontal-pod-autoscaler records Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         90012 event horizontal-pod-autoscaler records Warning FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
         90012 event horizontal-pod-autoscaler records Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
        deployment replicas Some(2)
        status {"lastScaleTime":"2026-01-01T00:00:15Z","currentReplicas":2,"desiredReplicas":2,"currentMetrics":[{"type":""}],"conditions":[{"type":"AbleToScale","lastTransitionTime":"2026-01-01T00:00:15Z","status":"True","reason":"SucceededGetScale","message":"the HPA controller was able to get the target's current scale"},{"type":"ScalingActive","lastTransitionTime":"2026-01-01T00:00:30Z","status":"False","reason":"FailedGetResourceMetric","message":"the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)"}]}
        NAME   REFERENCE        TARGETS              MINPODS   MAXPODS   REPLICAS   AGE
        web    Deployment/web   cpu: <unknown>/60%   2         3         2          90s
    "#]].assert_eq(&hpa_outcome(&format!("{HPA_DEPLOYMENT}---\n{hpa}")));
}

/// A target that does not exist: FailedGetScale, and the condition says why.
#[test]
fn hpa_with_a_missing_target_fails_to_get_its_scale() {
    let hpa = "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: api\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: api\n  maxReplicas: 4\n";
    expect![[r#"
         15004 horizontal-pod-autoscaler: HorizontalPodAutoscaler api: cannot read the scale of Deployment/api / GET the scale of Deployment/api: deployments.apps "api" not found
         15004 event horizontal-pod-autoscaler records Warning FailedGetScale: deployments.apps "api" not found
         30004 event horizontal-pod-autoscaler records Warning FailedGetScale: deployments.apps "api" not found
         45004 event horizontal-pod-autoscaler records Warning FailedGetScale: deployments.apps "api" not found
         60004 event horizontal-pod-autoscaler records Warning FailedGetScale: deployments.apps "api" not found
         75004 event horizontal-pod-autoscaler records Warning FailedGetScale: deployments.apps "api" not found
        status {"desiredReplicas":0,"currentMetrics":null,"conditions":[{"type":"AbleToScale","lastTransitionTime":"2026-01-01T00:00:15Z","status":"False","reason":"FailedGetScale","message":"the HPA controller was unable to get the target's current scale: deployments.apps \"api\" not found"}]}
        NAME   REFERENCE        TARGETS              MINPODS   MAXPODS   REPLICAS   AGE
        api    Deployment/api   cpu: <unknown>/80%   1         4         0          75s
    "#]].assert_eq(&hpa_outcome(hpa));
}

/// The page runs a long manifest in slices between its frames: any slice size makes the same
/// run (steps, output, store) as one call.
#[test]
fn a_run_in_slices_is_the_same_run() {
    let manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.27\n        readinessProbe:\n          httpGet: {path: /, port: 80}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports:\n  - port: 80\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: broken\nspec:\n  containers:\n  - name: c\n    image: busybox\n    command: [\"false\"]\n";
    let input = LabInput::new(manifest, "web.yaml");
    let whole = run(&input).unwrap();
    assert!(whole.steps.len() > 100, "{} steps", whole.steps.len());
    for slice in [1, 7, 64] {
        let mut loaded = None;
        let mut running = start_reusing(&mut loaded, &input).unwrap();
        let mut slices = 1;
        while !running.advance(slice) {
            slices += 1;
            let (steps, now) = running.progress();
            assert!(steps <= whole.steps.len() && now <= whole.end_ms, "{steps} steps at {now} ms");
        }
        let sliced = running.finish();
        assert!(slices > 1, "slice {slice}: one slice only");
        assert_eq!(sliced.to_json(), whole.to_json(), "slice {slice}");
        assert_eq!(sliced.final_revision, whole.final_revision);
        assert_eq!(sliced.kubectl_output, whole.kubectl_output);
    }
}
