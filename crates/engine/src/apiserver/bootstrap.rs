//! The RBAC policy every cluster starts with, as kube-apiserver's `rbac/bootstrap-roles`
//! post-start hook writes it (upstream `plugin/pkg/auth/authorizer/rbac/bootstrappolicy/`:
//! `policy.go`, `controller_policy.go`, `namespace_policy.go`), plus the one binding kubeadm adds
//! for its admin group.
//!
//! Faithful for the rules that matter to the lab's requests (users, kube-scheduler, kubelets and
//! the controllers the lab runs); a few roles nobody in the lab uses are left out
//! (`system:heapster`, the CSR approver roles, `system:kube-aggregator`,
//! `system:persistent-volume-provisioner`, `system:node-problem-detector`, the cloud and
//! token-cleaner roles). Feature-gated rules are included as of v1.37's defaults
//! (PodDisruptionConditions is GA, so node-controller and pod-garbage-collector may patch
//! `pods/status`); the DRA rules of `system:kube-scheduler` are left out.
//!
//! The aggregated roles `admin`, `edit` and `view` are stored with the rules the
//! clusterrole-aggregation-controller would have filled in (see [`aggregate_rules`]).

use k8s_openapi::api::rbac::v1::{
    AggregationRule, ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use std::collections::BTreeMap;

use crate::object::Object;

const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

const READ: &[&str] = &["get", "list", "watch"];
const WRITE: &[&str] = &["create", "update", "patch", "delete", "deletecollection"];
const READ_WRITE: &[&str] = &["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"];
const READ_UPDATE: &[&str] = &["get", "list", "watch", "update", "patch"];

/// The label every bootstrap object carries.
pub const BOOTSTRAP_LABEL: (&str, &str) = ("kubernetes.io/bootstrapping", "rbac-defaults");
/// The annotation that lets the API server reconcile bootstrap objects on start.
pub const AUTOUPDATE_ANNOTATION: (&str, &str) = ("rbac.authorization.kubernetes.io/autoupdate", "true");

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// `NewRule(verbs...).Groups(groups...).Resources(resources...)`.
fn rule(verbs: &[&str], groups: &[&str], resources: &[&str]) -> PolicyRule {
    PolicyRule {
        api_groups: Some(strings(groups)),
        resources: Some(strings(resources)),
        verbs: strings(verbs),
        ..PolicyRule::default()
    }
}

/// A rule restricted to some object names.
fn named(verbs: &[&str], groups: &[&str], resources: &[&str], names: &[&str]) -> PolicyRule {
    PolicyRule { resource_names: Some(strings(names)), ..rule(verbs, groups, resources) }
}

/// A non-resource URL rule.
fn urls(verbs: &[&str], paths: &[&str]) -> PolicyRule {
    PolicyRule { non_resource_urls: Some(strings(paths)), verbs: strings(verbs), ..PolicyRule::default() }
}

/// Create/update/patch events in the core and `events.k8s.io` groups.
fn events_rule() -> PolicyRule {
    rule(&["create", "update", "patch"], &["", "events.k8s.io"], &["events"])
}

fn meta(name: &str, namespace: Option<&str>, extra_labels: &[(&str, &str)]) -> ObjectMeta {
    let mut labels = BTreeMap::new();
    for (k, v) in extra_labels {
        labels.insert(k.to_string(), v.to_string());
    }
    labels.insert(BOOTSTRAP_LABEL.0.to_string(), BOOTSTRAP_LABEL.1.to_string());
    let mut annotations = BTreeMap::new();
    annotations.insert(AUTOUPDATE_ANNOTATION.0.to_string(), AUTOUPDATE_ANNOTATION.1.to_string());
    ObjectMeta {
        name: Some(name.to_string()),
        namespace: namespace.map(str::to_string),
        labels: Some(labels),
        annotations: Some(annotations),
        ..ObjectMeta::default()
    }
}

fn cluster_role(name: &str, rules: Vec<PolicyRule>) -> ClusterRole {
    ClusterRole { metadata: meta(name, None, &[]), rules: Some(rules), aggregation_rule: None }
}

fn aggregated(name: &str, labels: &[(&str, &str)], selector_label: &str) -> ClusterRole {
    let mut match_labels = BTreeMap::new();
    match_labels.insert(selector_label.to_string(), "true".to_string());
    ClusterRole {
        metadata: meta(name, None, labels),
        rules: None,
        aggregation_rule: Some(AggregationRule {
            cluster_role_selectors: Some(vec![LabelSelector {
                match_labels: Some(match_labels),
                match_expressions: None,
            }]),
        }),
    }
}

fn labelled(name: &str, label: &str, rules: Vec<PolicyRule>) -> ClusterRole {
    ClusterRole { metadata: meta(name, None, &[(label, "true")]), rules: Some(rules), aggregation_rule: None }
}

/// A binding subject.
#[derive(Clone, Copy)]
enum Sub<'a> {
    User(&'a str),
    Group(&'a str),
    Sa(&'a str, &'a str),
}

fn subject(s: Sub) -> Subject {
    match s {
        Sub::User(n) => {
            Subject { kind: "User".into(), api_group: Some(RBAC_GROUP.into()), name: n.into(), namespace: None }
        }
        Sub::Group(n) => {
            Subject { kind: "Group".into(), api_group: Some(RBAC_GROUP.into()), name: n.into(), namespace: None }
        }
        Sub::Sa(ns, n) => {
            Subject { kind: "ServiceAccount".into(), api_group: None, name: n.into(), namespace: Some(ns.into()) }
        }
    }
}

fn cluster_binding(name: &str, role: &str, subjects: &[Sub]) -> ClusterRoleBinding {
    ClusterRoleBinding {
        metadata: meta(name, None, &[]),
        role_ref: RoleRef { api_group: Some(RBAC_GROUP.into()), kind: "ClusterRole".into(), name: role.into() },
        subjects: if subjects.is_empty() { None } else { Some(subjects.iter().map(|s| subject(*s)).collect()) },
    }
}

/// The rules of `system:node` (upstream `NodeRules()`), also used by the Node authorizer for
/// the resources it does not subdivide.
pub fn node_rules() -> &'static [PolicyRule] {
    static RULES: std::sync::OnceLock<Vec<PolicyRule>> = std::sync::OnceLock::new();
    RULES.get_or_init(build_node_rules)
}

fn build_node_rules() -> Vec<PolicyRule> {
    vec![
        rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
        rule(&["create"], &["authorization.k8s.io"], &["subjectaccessreviews", "localsubjectaccessreviews"]),
        rule(READ, &[""], &["services"]),
        rule(&["create", "get", "list", "watch"], &[""], &["nodes"]),
        rule(&["update", "patch"], &[""], &["nodes/status"]),
        rule(&["update", "patch"], &[""], &["nodes"]),
        rule(&["create", "update", "patch"], &[""], &["events"]),
        rule(READ, &[""], &["pods"]),
        rule(&["create", "delete"], &[""], &["pods"]),
        rule(&["update", "patch"], &[""], &["pods/status"]),
        rule(&["create"], &[""], &["pods/eviction"]),
        rule(&["get", "list", "watch"], &[""], &["secrets", "configmaps"]),
        rule(&["get"], &[""], &["persistentvolumeclaims", "persistentvolumes"]),
        rule(&["get"], &[""], &["endpoints"]),
        rule(&["create", "get", "list", "watch"], &["certificates.k8s.io"], &["certificatesigningrequests"]),
        rule(&["get", "create", "update", "patch", "delete"], &["coordination.k8s.io"], &["leases"]),
        rule(&["get"], &["storage.k8s.io"], &["volumeattachments"]),
        rule(&["create"], &[""], &["serviceaccounts/token"]),
        rule(&["get", "update", "patch"], &[""], &["persistentvolumeclaims/status"]),
        rule(&["get", "watch", "list"], &["storage.k8s.io"], &["csidrivers"]),
        rule(&["get", "create", "update", "patch", "delete"], &["storage.k8s.io"], &["csinodes"]),
        rule(&["get", "list", "watch"], &["node.k8s.io"], &["runtimeclasses"]),
    ]
}

fn cluster_roles() -> Vec<ClusterRole> {
    let agg_admin = "rbac.authorization.k8s.io/aggregate-to-admin";
    let agg_edit = "rbac.authorization.k8s.io/aggregate-to-edit";
    let agg_view = "rbac.authorization.k8s.io/aggregate-to-view";
    vec![
        cluster_role("cluster-admin", vec![rule(&["*"], &["*"], &["*"]), urls(&["*"], &["*"])]),
        cluster_role(
            "system:discovery",
            vec![urls(
                &["get"],
                &[
                    "/livez",
                    "/readyz",
                    "/healthz",
                    "/version",
                    "/version/",
                    "/openapi",
                    "/openapi/*",
                    "/api",
                    "/api/*",
                    "/apis",
                    "/apis/*",
                ],
            )],
        ),
        cluster_role(
            "system:monitoring",
            vec![urls(&["get"], &["/metrics", "/livez", "/readyz", "/healthz", "/livez/*", "/readyz/*", "/healthz/*"])],
        ),
        cluster_role(
            "system:basic-user",
            vec![rule(
                &["create"],
                &["authorization.k8s.io"],
                &["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
            )],
        ),
        cluster_role(
            "system:public-info-viewer",
            vec![urls(&["get"], &["/livez", "/readyz", "/healthz", "/version", "/version/"])],
        ),
        aggregated("admin", &[], agg_admin),
        aggregated("edit", &[(agg_admin, "true")], agg_edit),
        aggregated("view", &[(agg_edit, "true")], agg_view),
        labelled(
            "system:aggregate-to-admin",
            agg_admin,
            vec![
                rule(&["create"], &["authorization.k8s.io"], &["localsubjectaccessreviews"]),
                rule(READ_WRITE, &[RBAC_GROUP], &["roles", "rolebindings"]),
            ],
        ),
        labelled(
            "system:aggregate-to-edit",
            agg_edit,
            vec![
                rule(
                    READ,
                    &[""],
                    &["pods/attach", "pods/proxy", "pods/exec", "pods/portforward", "secrets", "services/proxy"],
                ),
                rule(&["impersonate"], &[""], &["serviceaccounts"]),
                rule(WRITE, &[""], &["pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward"]),
                rule(&["create"], &[""], &["pods/eviction"]),
                rule(
                    WRITE,
                    &[""],
                    &[
                        "replicationcontrollers",
                        "replicationcontrollers/scale",
                        "serviceaccounts",
                        "services",
                        "services/proxy",
                        "persistentvolumeclaims",
                        "configmaps",
                        "secrets",
                        "events",
                    ],
                ),
                rule(&["create"], &[""], &["serviceaccounts/token"]),
                rule(
                    WRITE,
                    &["apps"],
                    &[
                        "statefulsets",
                        "statefulsets/scale",
                        "daemonsets",
                        "deployments",
                        "deployments/scale",
                        "deployments/rollback",
                        "replicasets",
                        "replicasets/scale",
                    ],
                ),
                rule(WRITE, &["autoscaling"], &["horizontalpodautoscalers"]),
                rule(WRITE, &["batch"], &["jobs", "cronjobs"]),
                rule(
                    WRITE,
                    &["extensions"],
                    &[
                        "daemonsets",
                        "deployments",
                        "deployments/scale",
                        "deployments/rollback",
                        "ingresses",
                        "replicasets",
                        "replicasets/scale",
                        "replicationcontrollers/scale",
                        "networkpolicies",
                    ],
                ),
                rule(WRITE, &["policy"], &["poddisruptionbudgets"]),
                rule(WRITE, &["networking.k8s.io"], &["networkpolicies", "ingresses"]),
            ],
        ),
        labelled(
            "system:aggregate-to-view",
            agg_view,
            vec![
                rule(
                    READ,
                    &[""],
                    &[
                        "pods",
                        "replicationcontrollers",
                        "replicationcontrollers/scale",
                        "serviceaccounts",
                        "services",
                        "services/status",
                        "endpoints",
                        "persistentvolumeclaims",
                        "persistentvolumeclaims/status",
                        "configmaps",
                    ],
                ),
                rule(
                    READ,
                    &[""],
                    &[
                        "limitranges",
                        "resourcequotas",
                        "bindings",
                        "events",
                        "pods/status",
                        "resourcequotas/status",
                        "namespaces/status",
                        "replicationcontrollers/status",
                        "pods/log",
                    ],
                ),
                rule(READ, &[""], &["namespaces"]),
                rule(READ, &["discovery.k8s.io"], &["endpointslices"]),
                rule(
                    READ,
                    &["apps"],
                    &[
                        "controllerrevisions",
                        "statefulsets",
                        "statefulsets/status",
                        "statefulsets/scale",
                        "daemonsets",
                        "daemonsets/status",
                        "deployments",
                        "deployments/status",
                        "deployments/scale",
                        "replicasets",
                        "replicasets/status",
                        "replicasets/scale",
                    ],
                ),
                rule(READ, &["autoscaling"], &["horizontalpodautoscalers", "horizontalpodautoscalers/status"]),
                rule(READ, &["batch"], &["jobs", "cronjobs", "cronjobs/status", "jobs/status"]),
                rule(
                    READ,
                    &["extensions"],
                    &[
                        "daemonsets",
                        "daemonsets/status",
                        "deployments",
                        "deployments/scale",
                        "deployments/status",
                        "ingresses",
                        "ingresses/status",
                        "replicasets",
                        "replicasets/scale",
                        "replicasets/status",
                        "replicationcontrollers/scale",
                        "networkpolicies",
                    ],
                ),
                rule(READ, &["policy"], &["poddisruptionbudgets", "poddisruptionbudgets/status"]),
                rule(READ, &["networking.k8s.io"], &["networkpolicies", "ingresses", "ingresses/status"]),
            ],
        ),
        cluster_role("system:node", node_rules().to_vec()),
        cluster_role(
            "system:kubelet-api-admin",
            vec![
                rule(&["get", "list", "watch"], &[""], &["nodes"]),
                rule(&["proxy"], &[""], &["nodes"]),
                rule(&["*"], &[""], &["nodes/proxy", "nodes/metrics", "nodes/spec", "nodes/stats", "nodes/log"]),
            ],
        ),
        cluster_role(
            "system:node-bootstrapper",
            vec![rule(&["create", "get", "list", "watch"], &["certificates.k8s.io"], &["certificatesigningrequests"])],
        ),
        cluster_role(
            "system:auth-delegator",
            vec![
                rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
                rule(&["create"], &["authorization.k8s.io"], &["subjectaccessreviews"]),
            ],
        ),
        cluster_role(
            "system:kube-controller-manager",
            vec![
                events_rule(),
                rule(&["create"], &["coordination.k8s.io"], &["leases"]),
                named(&["get", "update"], &["coordination.k8s.io"], &["leases"], &["kube-controller-manager"]),
                rule(&["create"], &[""], &["secrets", "serviceaccounts"]),
                rule(&["delete"], &[""], &["secrets"]),
                rule(&["get"], &[""], &["namespaces", "secrets", "serviceaccounts", "configmaps"]),
                rule(&["update"], &[""], &["secrets", "serviceaccounts"]),
                rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
                rule(&["create"], &["authorization.k8s.io"], &["subjectaccessreviews"]),
                rule(&["list", "watch"], &["*"], &["*"]),
                rule(&["create"], &[""], &["serviceaccounts/token"]),
            ],
        ),
        cluster_role("system:kube-dns", vec![rule(&["list", "watch"], &[""], &["endpoints", "services"])]),
        cluster_role(
            "system:volume-scheduler",
            vec![
                rule(READ_UPDATE, &[""], &["persistentvolumes"]),
                rule(READ, &["storage.k8s.io"], &["storageclasses"]),
                rule(READ_UPDATE, &[""], &["persistentvolumeclaims"]),
            ],
        ),
        cluster_role(
            "system:service-account-issuer-discovery",
            vec![urls(&["get"], &["/.well-known/openid-configuration", "/openid/v1/jwks"])],
        ),
        cluster_role(
            "system:node-proxier",
            vec![
                rule(&["list", "watch"], &[""], &["services", "endpoints"]),
                rule(&["get", "list", "watch"], &[""], &["nodes"]),
                events_rule(),
                rule(&["list", "watch"], &["discovery.k8s.io"], &["endpointslices"]),
            ],
        ),
        cluster_role(
            "system:kube-scheduler",
            vec![
                events_rule(),
                rule(&["create"], &["coordination.k8s.io"], &["leases"]),
                named(&["get", "update"], &["coordination.k8s.io"], &["leases"], &["kube-scheduler"]),
                rule(READ, &[""], &["nodes"]),
                rule(&["get", "list", "watch", "delete"], &[""], &["pods"]),
                rule(&["create"], &[""], &["pods/binding", "bindings"]),
                rule(&["patch", "update"], &[""], &["pods/status"]),
                rule(READ, &[""], &["services", "replicationcontrollers"]),
                rule(READ, &["apps", "extensions"], &["replicasets"]),
                rule(READ, &["apps"], &["statefulsets"]),
                rule(READ, &["policy"], &["poddisruptionbudgets"]),
                rule(READ, &[""], &["persistentvolumeclaims", "persistentvolumes"]),
                rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
                rule(&["create"], &["authorization.k8s.io"], &["subjectaccessreviews"]),
                rule(READ, &["storage.k8s.io"], &["csinodes"]),
                rule(READ, &[""], &["namespaces"]),
                rule(READ, &["storage.k8s.io"], &["csidrivers"]),
                rule(READ, &["storage.k8s.io"], &["csistoragecapacities"]),
            ],
        ),
    ]
}

/// The `system:controller:<name>` roles of kube-controller-manager's controllers.
fn controller_roles() -> Vec<ClusterRole> {
    let c = |name: &str, rules: Vec<PolicyRule>| cluster_role(&format!("system:controller:{name}"), rules);
    vec![
        c(
            "attachdetach-controller",
            vec![
                rule(&["list", "watch"], &[""], &["persistentvolumes", "persistentvolumeclaims"]),
                rule(&["get", "list", "watch"], &[""], &["nodes"]),
                rule(&["patch", "update"], &[""], &["nodes/status"]),
                rule(&["list", "watch"], &[""], &["pods"]),
                events_rule(),
                rule(&["get", "create", "delete", "list", "watch"], &["storage.k8s.io"], &["volumeattachments"]),
                rule(&["get", "watch", "list"], &["storage.k8s.io"], &["csidrivers"]),
                rule(&["get", "watch", "list"], &["storage.k8s.io"], &["csinodes"]),
            ],
        ),
        c(
            "clusterrole-aggregation-controller",
            vec![rule(&["escalate", "get", "list", "watch", "update", "patch"], &[RBAC_GROUP], &["clusterroles"])],
        ),
        c(
            "cronjob-controller",
            vec![
                rule(&["get", "list", "watch", "update"], &["batch"], &["cronjobs"]),
                rule(&["get", "list", "watch", "create", "update", "delete", "patch"], &["batch"], &["jobs"]),
                rule(&["update"], &["batch"], &["cronjobs/status"]),
                rule(&["update"], &["batch"], &["cronjobs/finalizers"]),
                rule(&["list", "delete"], &[""], &["pods"]),
                events_rule(),
            ],
        ),
        c(
            "daemon-set-controller",
            vec![
                rule(&["get", "list", "watch"], &["extensions", "apps"], &["daemonsets"]),
                rule(&["update"], &["extensions", "apps"], &["daemonsets/status"]),
                rule(&["update"], &["extensions", "apps"], &["daemonsets/finalizers"]),
                rule(&["list", "watch"], &[""], &["nodes"]),
                rule(&["list", "watch", "create", "delete", "patch"], &[""], &["pods"]),
                rule(&["create"], &[""], &["pods/binding"]),
                rule(
                    &["get", "list", "watch", "create", "delete", "update", "patch"],
                    &["apps"],
                    &["controllerrevisions"],
                ),
                events_rule(),
            ],
        ),
        c(
            "deployment-controller",
            vec![
                rule(&["get", "list", "watch", "update"], &["extensions", "apps"], &["deployments"]),
                rule(&["update"], &["extensions", "apps"], &["deployments/status"]),
                rule(&["update"], &["extensions", "apps"], &["deployments/finalizers"]),
                rule(
                    &["get", "list", "watch", "create", "update", "patch", "delete"],
                    &["apps", "extensions"],
                    &["replicasets"],
                ),
                rule(&["get", "list", "watch", "update"], &[""], &["pods"]),
                events_rule(),
            ],
        ),
        c(
            "disruption-controller",
            vec![
                rule(&["get", "list", "watch"], &["extensions", "apps"], &["deployments"]),
                rule(&["get", "list", "watch"], &["apps", "extensions"], &["replicasets"]),
                rule(&["get", "list", "watch"], &[""], &["replicationcontrollers"]),
                rule(&["get", "list", "watch"], &["policy"], &["poddisruptionbudgets"]),
                rule(&["get", "list", "watch"], &["apps"], &["statefulsets"]),
                rule(&["update"], &["policy"], &["poddisruptionbudgets/status"]),
                rule(&["get"], &["*"], &["*/scale"]),
                events_rule(),
            ],
        ),
        c(
            "endpoint-controller",
            vec![
                rule(&["get", "list", "watch"], &[""], &["services", "pods"]),
                rule(&["get", "list", "create", "update", "delete"], &[""], &["endpoints"]),
                rule(&["create"], &[""], &["endpoints/restricted"]),
                events_rule(),
            ],
        ),
        c(
            "endpointslice-controller",
            vec![
                rule(&["get", "list", "watch"], &[""], &["services", "pods", "nodes"]),
                rule(&["update"], &[""], &["services/finalizers"]),
                rule(&["get", "list", "create", "update", "delete"], &["discovery.k8s.io"], &["endpointslices"]),
                events_rule(),
            ],
        ),
        c(
            "endpointslicemirroring-controller",
            vec![
                rule(&["get", "list", "watch"], &[""], &["services", "endpoints"]),
                rule(&["update"], &[""], &["services/finalizers"]),
                rule(&["update"], &[""], &["endpoints/finalizers"]),
                rule(&["get", "list", "create", "update", "delete"], &["discovery.k8s.io"], &["endpointslices"]),
                events_rule(),
            ],
        ),
        c(
            "ephemeral-volume-controller",
            vec![
                rule(&["get", "list", "watch"], &[""], &["pods"]),
                rule(&["update"], &[""], &["pods/finalizers"]),
                rule(&["get", "list", "watch", "create"], &[""], &["persistentvolumeclaims"]),
                events_rule(),
            ],
        ),
        c(
            "generic-garbage-collector",
            vec![rule(&["get", "list", "watch", "patch", "update", "delete"], &["*"], &["*"]), events_rule()],
        ),
        c(
            "horizontal-pod-autoscaler",
            vec![
                rule(&["get", "list", "watch"], &["autoscaling"], &["horizontalpodautoscalers"]),
                rule(&["update"], &["autoscaling"], &["horizontalpodautoscalers/status"]),
                rule(&["get", "update"], &["*"], &["*/scale"]),
                rule(&["list"], &[""], &["pods"]),
                rule(&["list"], &["metrics.k8s.io"], &["pods"]),
                rule(&["get", "list"], &["custom.metrics.k8s.io"], &["*"]),
                rule(&["get", "list"], &["external.metrics.k8s.io"], &["*"]),
                events_rule(),
            ],
        ),
        c(
            "job-controller",
            vec![
                rule(&["get", "list", "watch", "update", "patch"], &["batch"], &["jobs"]),
                rule(&["update"], &["batch"], &["jobs/status"]),
                rule(&["update"], &["batch"], &["jobs/finalizers"]),
                rule(&["list", "watch", "create", "delete", "patch"], &[""], &["pods"]),
                events_rule(),
            ],
        ),
        c(
            "namespace-controller",
            vec![
                rule(&["get", "list", "watch", "delete"], &[""], &["namespaces"]),
                rule(&["update"], &[""], &["namespaces/finalize", "namespaces/status"]),
                rule(&["get", "list", "delete", "deletecollection"], &["*"], &["*"]),
            ],
        ),
        c(
            "node-controller",
            vec![
                rule(&["get", "list", "update", "delete", "patch"], &[""], &["nodes"]),
                rule(&["patch", "update"], &[""], &["nodes/status"]),
                rule(&["update"], &[""], &["pods/status"]),
                rule(&["list", "delete"], &[""], &["pods"]),
                events_rule(),
                rule(&["get"], &[""], &["pods"]),
                rule(&["patch"], &[""], &["pods/status"]),
            ],
        ),
        c(
            "persistent-volume-binder",
            vec![
                rule(&["get", "list", "watch", "update", "create", "delete"], &[""], &["persistentvolumes"]),
                rule(&["update"], &[""], &["persistentvolumes/status"]),
                rule(&["get", "list", "watch", "update"], &[""], &["persistentvolumeclaims"]),
                rule(&["update"], &[""], &["persistentvolumeclaims/status"]),
                rule(&["list", "watch", "get", "create", "delete"], &[""], &["pods"]),
                rule(&["get", "list", "watch"], &["storage.k8s.io"], &["storageclasses"]),
                rule(&["get", "create", "update", "delete"], &[""], &["endpoints"]),
                rule(&["get", "create", "delete"], &[""], &["services"]),
                rule(&["get"], &[""], &["secrets"]),
                rule(&["get", "list"], &[""], &["nodes"]),
                rule(&["watch"], &[""], &["events"]),
                events_rule(),
            ],
        ),
        c(
            "pod-garbage-collector",
            vec![
                rule(&["list", "watch", "delete"], &[""], &["pods"]),
                rule(&["get", "list"], &[""], &["nodes"]),
                rule(&["patch"], &[""], &["pods/status"]),
            ],
        ),
        c(
            "replicaset-controller",
            vec![
                rule(&["get", "list", "watch", "update"], &["apps", "extensions"], &["replicasets"]),
                rule(&["update"], &["apps", "extensions"], &["replicasets/status"]),
                rule(&["update"], &["apps", "extensions"], &["replicasets/finalizers"]),
                rule(&["list", "watch", "patch", "create", "delete"], &[""], &["pods"]),
                events_rule(),
            ],
        ),
        c(
            "replication-controller",
            vec![
                rule(&["get", "list", "watch", "update"], &[""], &["replicationcontrollers"]),
                rule(&["update"], &[""], &["replicationcontrollers/status"]),
                rule(&["update"], &[""], &["replicationcontrollers/finalizers"]),
                rule(&["list", "watch", "patch", "create", "delete"], &[""], &["pods"]),
                events_rule(),
            ],
        ),
        c(
            "resourcequota-controller",
            vec![
                rule(&["list", "watch"], &["*"], &["*"]),
                rule(&["update"], &[""], &["resourcequotas/status"]),
                events_rule(),
            ],
        ),
        c(
            "route-controller",
            vec![
                rule(&["list", "watch"], &[""], &["nodes"]),
                rule(&["patch"], &[""], &["nodes/status"]),
                events_rule(),
            ],
        ),
        c("service-account-controller", vec![rule(&["create"], &[""], &["serviceaccounts"]), events_rule()]),
        c(
            "service-controller",
            vec![
                rule(&["get", "list", "watch"], &[""], &["services"]),
                rule(&["patch", "update"], &[""], &["services/status"]),
                rule(&["list", "watch"], &[""], &["nodes"]),
                events_rule(),
            ],
        ),
        c(
            "statefulset-controller",
            vec![
                rule(&["list", "watch"], &[""], &["pods"]),
                rule(&["get", "list", "watch"], &["apps"], &["statefulsets"]),
                rule(&["update"], &["apps"], &["statefulsets/status"]),
                rule(&["update"], &["apps"], &["statefulsets/finalizers"]),
                rule(&["get", "create", "delete", "update", "patch"], &[""], &["pods"]),
                rule(
                    &["get", "create", "delete", "update", "patch", "list", "watch"],
                    &["apps"],
                    &["controllerrevisions"],
                ),
                rule(&["get", "create"], &[""], &["persistentvolumeclaims"]),
                events_rule(),
                rule(&["update"], &[""], &["persistentvolumeclaims"]),
            ],
        ),
        c("ttl-controller", vec![rule(&["update", "patch", "list", "watch"], &[""], &["nodes"]), events_rule()]),
        c(
            "pvc-protection-controller",
            vec![
                rule(&["get", "list", "watch", "update"], &[""], &["persistentvolumeclaims"]),
                rule(&["list", "watch", "get"], &[""], &["pods"]),
                events_rule(),
            ],
        ),
        c(
            "pv-protection-controller",
            vec![rule(&["get", "list", "watch", "update"], &[""], &["persistentvolumes"]), events_rule()],
        ),
        c(
            "ttl-after-finished-controller",
            vec![rule(&["get", "list", "watch", "delete"], &["batch"], &["jobs"]), events_rule()],
        ),
        c("root-ca-cert-publisher", vec![rule(&["create", "update"], &[""], &["configmaps"]), events_rule()]),
    ]
}

/// The namespaced roles and bindings of `namespace_policy.go` that the lab keeps.
fn namespace_roles() -> (Vec<Role>, Vec<RoleBinding>) {
    let role =
        |ns: &str, name: &str, rules: Vec<PolicyRule>| Role { metadata: meta(name, Some(ns), &[]), rules: Some(rules) };
    let binding = |ns: &str, name: &str, role_name: &str, subjects: &[Sub]| RoleBinding {
        metadata: meta(name, Some(ns), &[]),
        role_ref: RoleRef { api_group: Some(RBAC_GROUP.into()), kind: "Role".into(), name: role_name.into() },
        subjects: Some(subjects.iter().map(|s| subject(*s)).collect()),
    };
    let roles = vec![
        role(
            "kube-system",
            "extension-apiserver-authentication-reader",
            vec![named(&["get", "list", "watch"], &[""], &["configmaps"], &["extension-apiserver-authentication"])],
        ),
        role(
            "kube-system",
            "system::leader-locking-kube-controller-manager",
            vec![
                rule(&["watch"], &[""], &["configmaps"]),
                named(&["get", "update"], &[""], &["configmaps"], &["kube-controller-manager"]),
            ],
        ),
        role(
            "kube-system",
            "system::leader-locking-kube-scheduler",
            vec![
                rule(&["watch"], &[""], &["configmaps"]),
                named(&["get", "update"], &[""], &["configmaps"], &["kube-scheduler"]),
            ],
        ),
    ];
    let bindings = vec![
        binding(
            "kube-system",
            "system::extension-apiserver-authentication-reader",
            "extension-apiserver-authentication-reader",
            &[Sub::User("system:kube-controller-manager"), Sub::User("system:kube-scheduler")],
        ),
        binding(
            "kube-system",
            "system::leader-locking-kube-controller-manager",
            "system::leader-locking-kube-controller-manager",
            &[Sub::User("system:kube-controller-manager"), Sub::Sa("kube-system", "kube-controller-manager")],
        ),
        binding(
            "kube-system",
            "system::leader-locking-kube-scheduler",
            "system::leader-locking-kube-scheduler",
            &[Sub::User("system:kube-scheduler"), Sub::Sa("kube-system", "kube-scheduler")],
        ),
    ];
    (roles, bindings)
}

/// The names of the controllers that get a `system:controller:<name>` role, binding and a
/// service account in kube-system.
pub fn controller_names() -> Vec<String> {
    controller_roles()
        .iter()
        .filter_map(|r| {
            r.metadata.name.as_deref().and_then(|n| n.strip_prefix("system:controller:")).map(str::to_string)
        })
        .collect()
}

/// Every bootstrap RBAC object, in the order the API server creates them: cluster roles,
/// cluster role bindings, then the namespaced roles and bindings. The aggregated roles carry
/// their aggregated rules.
pub fn bootstrap_objects() -> Vec<Object> {
    let mut roles = cluster_roles();
    let controllers = controller_roles();
    let mut bindings = vec![
        cluster_binding("cluster-admin", "cluster-admin", &[Sub::Group("system:masters")]),
        cluster_binding("system:monitoring", "system:monitoring", &[Sub::Group("system:monitoring")]),
        cluster_binding("system:discovery", "system:discovery", &[Sub::Group("system:authenticated")]),
        cluster_binding("system:basic-user", "system:basic-user", &[Sub::Group("system:authenticated")]),
        cluster_binding(
            "system:public-info-viewer",
            "system:public-info-viewer",
            &[Sub::Group("system:authenticated"), Sub::Group("system:unauthenticated")],
        ),
        cluster_binding("system:node-proxier", "system:node-proxier", &[Sub::User("system:kube-proxy")]),
        cluster_binding(
            "system:kube-controller-manager",
            "system:kube-controller-manager",
            &[Sub::User("system:kube-controller-manager")],
        ),
        cluster_binding("system:kube-dns", "system:kube-dns", &[Sub::Sa("kube-system", "kube-dns")]),
        cluster_binding("system:kube-scheduler", "system:kube-scheduler", &[Sub::User("system:kube-scheduler")]),
        cluster_binding("system:volume-scheduler", "system:volume-scheduler", &[Sub::User("system:kube-scheduler")]),
        // Kept with no subjects since the Node authorizer took over (upstream comment).
        cluster_binding("system:node", "system:node", &[]),
        cluster_binding(
            "system:service-account-issuer-discovery",
            "system:service-account-issuer-discovery",
            &[Sub::Group("system:serviceaccounts")],
        ),
    ];
    for role in &controllers {
        let name = role.metadata.name.clone().unwrap_or_default();
        let sa = name.strip_prefix("system:controller:").unwrap_or(&name).to_string();
        bindings.push(cluster_binding(&name, &name, &[Sub::Sa("kube-system", &sa)]));
    }
    // kubeadm (not the API server) binds its admin group to cluster-admin; admin.conf of
    // kubeadm >= 1.29 carries that group instead of system:masters.
    let mut kubeadm =
        cluster_binding("kubeadm:cluster-admins", "cluster-admin", &[Sub::Group("kubeadm:cluster-admins")]);
    kubeadm.metadata.labels = None;
    kubeadm.metadata.annotations = None;
    bindings.push(kubeadm);

    roles.extend(controllers);
    // Fill the aggregated roles, as the clusterrole-aggregation-controller does.
    let snapshot = roles.clone();
    for role in roles.iter_mut() {
        if role.aggregation_rule.is_some() {
            role.rules = Some(aggregate_rules(role, &snapshot));
        }
    }
    let (ns_roles, ns_bindings) = namespace_roles();
    let mut out: Vec<Object> = roles.into_iter().map(Object::from).collect();
    out.extend(bindings.into_iter().map(Object::from));
    out.extend(ns_roles.into_iter().map(Object::from));
    out.extend(ns_bindings.into_iter().map(Object::from));
    out
}

/// The rules of an aggregated ClusterRole: the rules of every ClusterRole that one of its
/// selectors matches, roles in name order, duplicates dropped (the
/// clusterrole-aggregation-controller's algorithm). Roles that are themselves aggregated
/// contribute their own aggregated rules.
pub fn aggregate_rules(role: &ClusterRole, all: &[ClusterRole]) -> Vec<PolicyRule> {
    fn go(role: &ClusterRole, all: &[ClusterRole], depth: usize) -> Vec<PolicyRule> {
        let Some(agg) = &role.aggregation_rule else { return role.rules.clone().unwrap_or_default() };
        if depth > 8 {
            return role.rules.clone().unwrap_or_default();
        }
        let mut out: Vec<PolicyRule> = Vec::new();
        for selector in agg.cluster_role_selectors.iter().flatten() {
            let mut matching: Vec<&ClusterRole> = all
                .iter()
                .filter(|r| r.metadata.name != role.metadata.name)
                .filter(|r| crate::labels::label_selector_matches(selector, r.metadata.labels.as_ref()))
                .collect();
            crate::sort::sort_by(&mut matching, |a, b| a.metadata.name.cmp(&b.metadata.name));
            for m in matching {
                for rule in go(m, all, depth + 1) {
                    if !out.contains(&rule) {
                        out.push(rule);
                    }
                }
            }
        }
        out
    }
    go(role, all, 0)
}
