//! The cluster panel's policy summary at one revision: what decides whether a request gets
//! through and where a Pod may run, read from the etcd model at that revision. Namespaces with
//! their Pod Security levels, LimitRanges and ResourceQuotas; the RBAC bindings that are not
//! part of the bootstrap policy, with the rules of the role each one grants; and the admission
//! webhooks with what their simulated servers answer (from the lab settings).

use super::Snapshot;
use crate::admission::{selector_text, SimulatedWebhook, WebhookBehaviour, WebhookFailure};
use crate::cluster::settings;
use crate::object::Object;
use crate::store::Store;
use k8s_openapi::api::admissionregistration::v1::RuleWithOperations;
use k8s_openapi::api::rbac::v1::{PolicyRule, RoleRef, Subject};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use std::collections::BTreeMap;

/// Everything the policy part of the cluster panel shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolicySummary {
    pub namespaces: Vec<NamespaceSummary>,
    pub bindings: Vec<BindingSummary>,
    /// Bindings of the bootstrap policy (`system:…`), left out of `bindings`.
    pub system_bindings: usize,
    pub webhooks: Vec<WebhookSummary>,
}

/// One namespace and the admission policy that applies inside it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamespaceSummary {
    pub name: String,
    /// `enforce`, `audit`, `warn` with their level (and version when not `latest`); empty when
    /// the namespace has no Pod Security label (the cluster default, privileged, applies).
    pub pod_security: Vec<String>,
    /// One line per LimitRange item: `web-limits: Container default cpu 500m, memory 256Mi; …`.
    pub limit_ranges: Vec<String>,
    /// One line per ResourceQuota: `compute: pods 1/10, requests.cpu 100m/4`.
    pub quotas: Vec<String>,
}

/// A RoleBinding or ClusterRoleBinding, with the rules it grants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BindingSummary {
    /// `RoleBinding dev/read-pods` or `ClusterRoleBinding cluster-admin`.
    pub binding: String,
    /// `Role pod-reader` or `ClusterRole view`.
    pub role: String,
    /// `User alice`, `Group developers`, `ServiceAccount dev/default`.
    pub subjects: Vec<String>,
    /// `get, list, watch pods`; empty when the role does not exist (the binding grants nothing).
    pub rules: Vec<String>,
    pub role_missing: bool,
}

/// One webhook of a Mutating- or ValidatingWebhookConfiguration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WebhookSummary {
    /// `Mutating` or `Validating`.
    pub kind: &'static str,
    pub configuration: String,
    pub name: String,
    /// `CREATE, UPDATE pods`.
    pub rules: Vec<String>,
    pub failure_policy: String,
    /// The namespace selector as `key=value`, or empty when it matches every namespace.
    pub namespace_selector: String,
    /// What the simulated server behind it answers.
    pub server: String,
}

/// The policy summary at `revision`.
pub fn policy_at(store: &Store<Object>, revision: u64) -> PolicySummary {
    let snap = Snapshot::new(store, revision, 0);
    let mut out = PolicySummary::default();

    let mut limit_ranges: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for o in snap.list("LimitRange", None) {
        let Object::LimitRange(lr) = o else { continue };
        let ns = lr.metadata.namespace.clone().unwrap_or_default();
        let name = lr.metadata.name.clone().unwrap_or_default();
        for item in lr.spec.iter().flat_map(|s| s.limits.iter()) {
            let mut parts = Vec::new();
            for (label, map) in [
                ("default", &item.default),
                ("defaultRequest", &item.default_request),
                ("min", &item.min),
                ("max", &item.max),
                ("maxLimitRequestRatio", &item.max_limit_request_ratio),
            ] {
                if let Some(m) = map.as_ref().filter(|m| !m.is_empty()) {
                    let values: Vec<String> = m.iter().map(|(k, q)| format!("{k} {}", q.0)).collect();
                    parts.push(format!("{label} {}", values.join(", ")));
                }
            }
            limit_ranges.entry(ns.clone()).or_default().push(format!("{name}: {} {}", item.type_, parts.join("; ")));
        }
    }

    let mut quotas: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for o in snap.list("ResourceQuota", None) {
        let Object::ResourceQuota(q) = o else { continue };
        let ns = q.metadata.namespace.clone().unwrap_or_default();
        let name = q.metadata.name.clone().unwrap_or_default();
        let used = q.status.as_ref().and_then(|s| s.used.as_ref());
        let hard: Vec<String> = q
            .spec
            .as_ref()
            .and_then(|s| s.hard.as_ref())
            .into_iter()
            .flatten()
            .map(|(k, h)| {
                let u = used.and_then(|u| u.get(k)).map(|q| q.0.as_str()).unwrap_or("0");
                format!("{k} {u}/{}", h.0)
            })
            .collect();
        quotas.entry(ns).or_default().push(format!("{name}: {}", hard.join(", ")));
    }

    for o in snap.list("Namespace", None) {
        let Object::Namespace(ns) = o else { continue };
        let name = ns.metadata.name.clone().unwrap_or_default();
        let labels = ns.metadata.labels.clone().unwrap_or_default();
        let pod_security = ["enforce", "audit", "warn"]
            .into_iter()
            .filter_map(|mode| {
                let level = labels.get(&format!("pod-security.kubernetes.io/{mode}"))?;
                Some(match labels.get(&format!("pod-security.kubernetes.io/{mode}-version")) {
                    Some(v) if v != "latest" => format!("{mode}: {level} ({v})"),
                    _ => format!("{mode}: {level}"),
                })
            })
            .collect();
        out.namespaces.push(NamespaceSummary {
            limit_ranges: limit_ranges.remove(&name).unwrap_or_default(),
            quotas: quotas.remove(&name).unwrap_or_default(),
            pod_security,
            name,
        });
    }

    let role_rules = |kind: &str, ns: Option<&str>, name: &str| -> Option<Vec<String>> {
        let rules = match (kind, snap.get(kind, ns, name)?) {
            ("Role", Object::Role(r)) => r.rules.clone(),
            ("ClusterRole", Object::ClusterRole(r)) => r.rules.clone(),
            _ => return None,
        };
        Some(rules.iter().flatten().map(rule_text).collect())
    };
    let mut binding =
        |kind: &str, ns: Option<&str>, name: &str, role_ref: &RoleRef, subjects: &Option<Vec<Subject>>| {
            if name.starts_with("system:") {
                out.system_bindings += 1;
                return;
            }
            // A RoleBinding's Role lives in its namespace; a ClusterRole is cluster-wide.
            let role_ns = if role_ref.kind == "Role" { ns } else { None };
            let rules = role_rules(&role_ref.kind, role_ns, &role_ref.name);
            out.bindings.push(BindingSummary {
                binding: match ns {
                    Some(ns) => format!("{kind} {ns}/{name}"),
                    None => format!("{kind} {name}"),
                },
                role: format!("{} {}", role_ref.kind, role_ref.name),
                subjects: subjects.iter().flatten().map(subject_text).collect(),
                role_missing: rules.is_none(),
                rules: rules.unwrap_or_default(),
            });
        };
    for o in snap.list("ClusterRoleBinding", None) {
        if let Object::ClusterRoleBinding(b) = o {
            binding("ClusterRoleBinding", None, b.metadata.name.as_deref().unwrap_or(""), &b.role_ref, &b.subjects);
        }
    }
    for o in snap.list("RoleBinding", None) {
        if let Object::RoleBinding(b) = o {
            let ns = b.metadata.namespace.as_deref();
            binding("RoleBinding", ns, b.metadata.name.as_deref().unwrap_or(""), &b.role_ref, &b.subjects);
        }
    }

    let servers: Vec<SimulatedWebhook> =
        settings(store).webhooks.iter().filter_map(|v| SimulatedWebhook::from_value(v).ok()).collect();
    let server_of = |name: &str| match servers.iter().find(|s| s.webhook == name) {
        Some(s) => behaviour_text(&s.behaviour),
        None => "no server declared: every call fails with connection refused".to_string(),
    };
    // The fields mutating and validating webhooks share, from either type.
    let mut webhook = |kind: &'static str,
                       configuration: &Option<String>,
                       name: &str,
                       rules: &Option<Vec<RuleWithOperations>>,
                       failure_policy: &Option<String>,
                       namespace_selector: &Option<LabelSelector>| {
        out.webhooks.push(WebhookSummary {
            kind,
            configuration: configuration.clone().unwrap_or_default(),
            name: name.to_string(),
            rules: rules.iter().flatten().map(webhook_rule_text).collect(),
            failure_policy: failure_policy.clone().unwrap_or_else(|| "Fail".into()),
            namespace_selector: namespace_selector.as_ref().map(selector_text).unwrap_or_default(),
            server: server_of(name),
        });
    };
    for o in snap.list("MutatingWebhookConfiguration", None) {
        let Object::MutatingWebhookConfiguration(c) = o else { continue };
        for w in c.webhooks.iter().flatten() {
            let cfg = &c.metadata.name;
            webhook("Mutating", cfg, &w.name, &w.rules, &w.failure_policy, &w.namespace_selector);
        }
    }
    for o in snap.list("ValidatingWebhookConfiguration", None) {
        let Object::ValidatingWebhookConfiguration(c) = o else { continue };
        for w in c.webhooks.iter().flatten() {
            let cfg = &c.metadata.name;
            webhook("Validating", cfg, &w.name, &w.rules, &w.failure_policy, &w.namespace_selector);
        }
    }
    out
}

/// `pods` for the core group, `deployments.apps` otherwise, `*.*` for everything.
fn qualified(resource: &str, groups: &[String]) -> Vec<String> {
    if groups.is_empty() {
        return vec![resource.to_string()];
    }
    groups.iter().map(|g| if g.is_empty() { resource.to_string() } else { format!("{resource}.{g}") }).collect()
}

/// One RBAC rule as a line: `get, list, watch pods` or `get nonResourceURLs /healthz`.
fn rule_text(rule: &PolicyRule) -> String {
    let verbs = rule.verbs.join(", ");
    let groups = rule.api_groups.clone().unwrap_or_default();
    let mut what: Vec<String> = rule.resources.iter().flatten().flat_map(|r| qualified(r, &groups)).collect();
    if let Some(urls) = rule.non_resource_urls.as_ref().filter(|u| !u.is_empty()) {
        what.push(format!("nonResourceURLs {}", urls.join(", ")));
    }
    let mut line = format!("{verbs} {}", what.join(", "));
    if let Some(names) = rule.resource_names.as_ref().filter(|n| !n.is_empty()) {
        line += &format!(" named {}", names.join(", "));
    }
    line
}

fn subject_text(s: &Subject) -> String {
    match (&*s.kind, &s.namespace) {
        ("ServiceAccount", Some(ns)) => format!("ServiceAccount {ns}/{}", s.name),
        (kind, _) => format!("{kind} {}", s.name),
    }
}

fn webhook_rule_text(r: &RuleWithOperations) -> String {
    let ops = r.operations.clone().unwrap_or_default().join(", ");
    let groups = r.api_groups.clone().unwrap_or_default();
    let resources: Vec<String> = r.resources.iter().flatten().flat_map(|res| qualified(res, &groups)).collect();
    format!("{ops} {}", resources.join(", "))
}

fn behaviour_text(b: &WebhookBehaviour) -> String {
    match b {
        WebhookBehaviour::Allow {} => "allows every request unchanged".into(),
        WebhookBehaviour::InjectSidecar { container, .. } => {
            let name = container.get("name").and_then(|n| n.as_str()).unwrap_or("a sidecar");
            format!("injects the container {name}")
        }
        WebhookBehaviour::DenyImages { .. } => "denies images tagged :latest or not tagged at all".into(),
        WebhookBehaviour::AddLabels(labels) => {
            let l: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("adds the labels {}", l.join(", "))
        }
        WebhookBehaviour::Patch { patch } => {
            let n = patch.as_array().map(Vec::len).unwrap_or(0);
            format!("answers with a JSONPatch of {n} operation{}", if n == 1 { "" } else { "s" })
        }
        WebhookBehaviour::Deny { message, .. } => format!("denies every request: {message}"),
        WebhookBehaviour::Down { failure } => match failure {
            WebhookFailure::ConnectionRefused => "is down: connection refused".into(),
            WebhookFailure::Timeout => "never answers: the call times out".into(),
            WebhookFailure::Error(e) => format!("cannot be reached: {e}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::preset;
    use crate::lab::{run, LabInput};

    fn policy(preset_name: &str) -> PolicySummary {
        let mut input = LabInput::new("", "x.yaml");
        input.cluster = Some(preset(preset_name).unwrap().to_string());
        let r = run(&input).unwrap();
        policy_at(r.store(), r.setup_revision)
    }

    #[test]
    fn the_kind_cluster_has_the_bootstrap_policy_and_the_local_path_provisioner() {
        let p = policy("kind");
        let names: Vec<_> = p.namespaces.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["default", "kube-node-lease", "kube-public", "kube-system", "local-path-storage"]);
        assert!(p.namespaces.iter().all(|n| n.pod_security.is_empty() && n.quotas.is_empty()));
        assert!(p.system_bindings > 10, "bootstrap bindings: {}", p.system_bindings);
        let cluster_admin = p.bindings.iter().find(|b| b.binding == "ClusterRoleBinding cluster-admin").unwrap();
        assert_eq!(cluster_admin.role, "ClusterRole cluster-admin");
        assert_eq!(cluster_admin.subjects, ["Group system:masters"]);
        assert_eq!(cluster_admin.rules, ["* *.*", "* nonResourceURLs *"]);
        assert!(p.webhooks.is_empty());
    }

    #[test]
    fn pod_security_labels_are_listed_by_mode() {
        let p = policy("restricted-namespace");
        let with_levels: Vec<_> = p.namespaces.iter().filter(|n| !n.pod_security.is_empty()).collect();
        assert!(!with_levels.is_empty());
        assert!(with_levels.iter().any(|n| n.pod_security.contains(&"enforce: restricted".to_string())));
    }

    #[test]
    fn alice_reads_pods_in_dev() {
        let p = policy("rbac-alice");
        let b = p.bindings.iter().find(|b| b.subjects.iter().any(|s| s == "User alice")).unwrap();
        assert!(b.binding.starts_with("RoleBinding dev/"), "{}", b.binding);
        assert!(!b.role_missing);
        assert_eq!(b.rules, ["get, list, watch pods, pods/log"]);
    }

    #[test]
    fn limits_quota_and_webhooks_of_the_full_cluster() {
        let p = policy("full");
        let dev = p.namespaces.iter().find(|n| n.name == "dev").unwrap();
        assert!(
            dev.quotas.iter().any(|q| q.contains("pods 0/10") && q.contains("requests.cpu 0/4")),
            "{:?}",
            dev.quotas
        );
        let hook = p.webhooks.iter().find(|w| w.name == "images.policy.example.com").unwrap();
        assert_eq!(hook.kind, "Validating");
        assert_eq!(hook.configuration, "image-policy");
        assert_eq!(hook.rules, ["CREATE, UPDATE pods"]);
        assert_eq!(hook.failure_policy, "Fail");
        assert_eq!(hook.namespace_selector, "kubernetes.io/metadata.name=prod");
        assert!(!hook.server.is_empty());
        let tight = policy("tight-resources");
        assert!(tight.namespaces.iter().any(|n| n.limit_ranges.iter().any(|l| l.contains("Container default"))));
    }

    #[test]
    fn quota_usage_follows_the_step() {
        let mut input = LabInput::new(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: dev}\nspec:\n  containers:\n  - name: c\n    image: nginx:1.27\n    resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}\n",
            "p.yaml",
        );
        input.cluster = Some(preset("full").unwrap().to_string());
        let r = run(&input).unwrap();
        let at = |rev| policy_at(r.store(), rev).namespaces.into_iter().find(|n| n.name == "dev").unwrap().quotas;
        assert!(at(r.setup_revision)[0].contains("pods 0/10"));
        assert!(at(r.final_revision)[0].contains("pods 1/10"), "{:?}", at(r.final_revision));
    }
}
