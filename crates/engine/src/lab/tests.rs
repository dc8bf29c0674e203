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
               4ms #2 etcd                 kube-apiserver -> etcd: creates /registry/pods/default/web at revision 149
                        etcd Create /registry/pods/default/web rev 149
               4ms #2 etcd                 kube-apiserver -> kubectl: 201 Created
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
               4ms #2 etcd                 kube-apiserver -> etcd: creates /registry/pods/dev/web at revision 155
                        etcd Create /registry/pods/dev/web rev 155
               4ms #2 etcd                 kube-apiserver -> kubectl: 201 Created
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
               4ms #2 etcd                 kube-apiserver -> etcd: creates /registry/namespaces/team-a at revision 149
                        etcd Create /registry/namespaces/team-a rev 149
               4ms #2 etcd                 kube-apiserver -> kubectl: 201 Created
               8ms #3 request              kubectl -> kube-apiserver: kubectl sends GET /apis/apps/v1/namespaces/team-a/deployments/api
               8ms #3 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               8ms #3 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get deployments in namespace team-a
               8ms #3 etcd                 kube-apiserver -> etcd: reads /registry/deployments/team-a/api: not found
               8ms #3 etcd                 kube-apiserver -> kubectl: 404 Not Found: deployments.apps "api" not found
              12ms #4 request              kubectl -> kube-apiserver: kubectl sends POST /apis/apps/v1/namespaces/team-a/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
              12ms #4 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
              12ms #4 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create deployments in namespace team-a
              12ms #4 validation           kube-apiserver -> kube-apiserver: decodes the Deployment strictly and fills in 13 default(s)
              12ms #4 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
              12ms #4 validation           kube-apiserver -> kube-apiserver: Deployment "api" is valid
              12ms #4 validating-admission kube-apiserver -> kube-apiserver: PodSecurity: allowed
              12ms #4 validating-admission kube-apiserver -> kube-apiserver: ResourceQuota: nothing to do
              12ms #4 etcd                 kube-apiserver -> etcd: creates /registry/deployments/team-a/api at revision 150
                        etcd Create /registry/deployments/team-a/api rev 150
              12ms #4 etcd                 kube-apiserver -> kubectl: 201 Created
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
               4ms #2 etcd                 kube-apiserver -> etcd: creates /registry/pods/default/web at revision 149
                        etcd Create /registry/pods/default/web rev 149
               4ms #2 etcd                 kube-apiserver -> kubectl: 201 Created
               8ms #3 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web
               8ms #3 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
               8ms #3 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace default
               8ms #3 etcd                 kube-apiserver -> etcd: reads /registry/pods/default/web (revision 149)
               8ms #3 etcd                 kube-apiserver -> kubectl: 200 OK
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
               4ms #2 etcd                 kube-apiserver -> etcd: updates /registry/namespaces/default at revision 149
                        etcd Update /registry/namespaces/default rev 149
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
                    etcd Update /registry/resourcequotas/default/compute-quota rev 153
           4ms #2 etcd                 kube-apiserver -> etcd: creates /registry/pods/default/a at revision 154
                    etcd Create /registry/pods/default/a rev 154
           4ms #2 etcd                 kube-apiserver -> kubectl: 201 Created
           8ms #3 request              kubectl -> kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/big
           8ms #3 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
           8ms #3 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to get pods in namespace default
           8ms #3 etcd                 kube-apiserver -> etcd: reads /registry/pods/default/big: not found
           8ms #3 etcd                 kube-apiserver -> kubectl: 404 Not Found: pods "big" not found
          12ms #4 request              kubectl -> kube-apiserver: kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
          12ms #4 authentication       kube-apiserver -> kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)
          12ms #4 authorization        kube-apiserver -> kube-apiserver: system:masters allows kubernetes-admin to create pods in namespace default
          12ms #4 validation           kube-apiserver -> kube-apiserver: decodes the Pod strictly and fills in 10 default(s)
          12ms #4 mutating-admission   kube-apiserver -> kube-apiserver: NamespaceLifecycle: allowed
          12ms #4 mutating-admission   kube-apiserver -> kube-apiserver: LimitRanger: changed 3 field(s)
          12ms #4 mutating-admission   kube-apiserver -> kube-apiserver: ServiceAccount: changed 4 field(s)
          12ms #4 mutating-admission   kube-apiserver -> kube-apiserver: Priority: changed 2 field(s)
          12ms #4 mutating-admission   kube-apiserver -> kube-apiserver: DefaultTolerationSeconds: changed 1 field(s)
          12ms #4 mutating-admission   kube-apiserver -> kube-apiserver: RuntimeClass: nothing to do
          12ms #4 validation           kube-apiserver -> kube-apiserver: Pod "big" is valid
          12ms #4 validating-admission kube-apiserver -> kube-apiserver [FAILED]: LimitRanger: denied
          12ms #4 etcd                 kube-apiserver -> kubectl [FAILED]: 403 Forbidden: pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2
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
