//! Authorization, with the modes kubeadm configures: `--authorization-mode=Node,RBAC`.
//!
//! kube-apiserver puts a privileged-group authorizer in front of the configured modes: members of
//! `system:masters` are allowed every request before Node or RBAC are asked (so RBAC bindings
//! never show up for them, and they cannot be restricted by RBAC). Then the union authorizer asks
//! each mode in turn; the first Allow wins, "no opinion" goes on to the next, and when nobody
//! allows the request it is Forbidden with the reasons of the modes joined by newlines
//! (upstream `apiserver/pkg/authorization/union`).
//!
//! * [`rbac`] follows upstream's `RBACAuthorizer` and `DefaultRuleResolver`: ClusterRoleBindings
//!   first, then the RoleBindings of the request's namespace; a binding applies when one of its
//!   subjects names the user, one of its groups, or its service account (a ServiceAccount subject
//!   without a namespace takes the binding's); its role's rules are tried in order, and the first
//!   rule that covers verb, API group, resource (`*`, `resource/subresource`, `*/subresource`) and
//!   name (resourceNames) — or the non-resource URL — allows the request. A binding whose role
//!   does not exist contributes an error, which becomes the `RBAC: ...` reason of a denial.
//!   Bindings are visited in etcd key order (name order), where upstream's informer cache has no
//!   defined order; ClusterRoles with an aggregationRule are evaluated with their aggregated rules
//!   (as if the clusterrole-aggregation-controller had just run).
//! * [`node`] is upstream's Node authorizer with a simplified graph: the relationship
//!   "node ← pod ← secret/configmap/PVC/service account, PVC ← PV" is computed from the store on
//!   each request (pods bound to the node through `spec.nodeName`; references from volumes,
//!   projected volumes, env, envFrom and imagePullSecrets) instead of being maintained
//!   incrementally. Resources it does not subdivide are checked against the static
//!   `system:node` rules, as upstream does.

use super::bootstrap::{aggregate_rules, node_rules};
use crate::object::Object;
use crate::store::Store;
use crate::trace::{RbacMatch, RequestAttributes, UserInfo};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::api::rbac::v1::{ClusterRole, PolicyRule, Subject};
use std::borrow::Cow;

/// The request as an authorizer sees it (upstream `authorizer.Attributes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attributes<'a> {
    pub user: &'a UserInfo,
    pub verb: &'a str,
    /// false for non-resource URLs such as `/healthz`.
    pub resource_request: bool,
    pub api_group: &'a str,
    pub api_version: &'a str,
    pub resource: &'a str,
    pub subresource: &'a str,
    pub namespace: &'a str,
    /// The object name from the URL (empty for create and list).
    pub name: &'a str,
    /// The request path, for non-resource requests.
    pub path: &'a str,
}

impl Attributes<'_> {
    pub fn to_trace(&self) -> RequestAttributes {
        RequestAttributes {
            user: self.user.clone(),
            verb: self.verb.to_string(),
            api_group: self.api_group.to_string(),
            api_version: self.api_version.to_string(),
            resource: self.resource.to_string(),
            subresource: self.subresource.to_string(),
            namespace: self.namespace.to_string(),
            name: self.name.to_string(),
        }
    }

    /// `pods` or `pods/status`.
    pub fn combined_resource(&self) -> String {
        if self.subresource.is_empty() {
            self.resource.to_string()
        } else {
            format!("{}/{}", self.resource, self.subresource)
        }
    }
}

/// What the authorizer chain decided.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    pub allowed: bool,
    /// `system:masters`, `Node` or `RBAC` when allowed; `""` when nobody allowed it.
    pub authorizer: String,
    pub matched: Option<RbacMatch>,
    /// The bindings that applied to the user, as upstream describes them.
    pub considered: Vec<String>,
    /// Upstream's reason string: `RBAC: allowed by ...` when RBAC allowed, the joined reasons of
    /// the modes when denied (often empty).
    pub reason: String,
    /// Why, in plain words, for the trace.
    pub explanation: String,
}

/// The superuser group (`user.SystemPrivilegedGroup`).
pub const SYSTEM_MASTERS: &str = "system:masters";

/// How much of a decision's wording the caller needs (the verdict, the authorizer and the
/// binding matched are the same at every level; a denial always has its reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wording {
    /// The verdict only: an allow has no reason or explanation (a request that leaves no
    /// step, such as a component's read; see `Req::finish`).
    Verdict,
    /// The text of an allow too: upstream's reason, or the explanation where there is no
    /// reason (a request summarised in one step).
    Reason,
    /// Everything the trace's Authorization step shows.
    Step,
}

/// Runs the authorizer chain: privileged group, then Node, then RBAC.
pub fn authorize(store: &Store<Object>, attrs: &Attributes) -> Decision {
    authorize_with(store, attrs, Wording::Step)
}

/// [`authorize`] with the wording the caller needs. Below [`Wording::Step`] the decision
/// leaves out what only the trace's Authorization step shows: the bindings considered, the
/// matched rule's text, and the explanation of an RBAC allow or a denial (their reason says
/// it; the Node and system:masters explanations, which are the only text of their allows,
/// stay). With [`Wording::Verdict`] an allow carries no text at all. The verdict, the
/// authorizer and the binding matched are the same at every level.
pub fn authorize_with(store: &Store<Object>, attrs: &Attributes, wording: Wording) -> Decision {
    decide(store, attrs, wording, || rbac::authorize_with(store, attrs, wording))
}

/// [`authorize_with`] with RBAC's answers kept in `cache` (see [`RbacCache`]).
pub fn authorize_cached(
    store: &Store<Object>,
    cache: &mut RbacCache,
    attrs: &Attributes,
    wording: Wording,
) -> Decision {
    decide(store, attrs, wording, || cache.authorize(store, attrs, wording))
}

/// RBAC's answers, kept while no write touches a Role, ClusterRole or binding: RBAC reads
/// nothing else, so the same request of the same user gets the same answer (the apiserver's
/// own authorizer works from informer caches and is as fast whatever the request; here a
/// request would otherwise walk every binding). The Node authorizer, which reads the pods and
/// what they reference, is asked each time.
#[derive(Clone, Debug, Default)]
pub struct RbacCache {
    /// The store revision the entries hold at.
    at: u64,
    entries: std::collections::BTreeMap<String, rbac::RbacResult>,
}

impl RbacCache {
    /// Where RBAC's objects are stored.
    const PREFIXES: [&'static str; 4] =
        ["/registry/clusterroles/", "/registry/clusterrolebindings/", "/registry/roles/", "/registry/rolebindings/"];

    fn authorize(&mut self, store: &Store<Object>, attrs: &Attributes, wording: Wording) -> rbac::RbacResult {
        let revision = store.revision();
        if revision != self.at {
            if store.touched_since(self.at, &Self::PREFIXES) {
                self.entries.clear();
            }
            self.at = revision;
        }
        let mut key = String::with_capacity(96);
        // The parts that tell requests apart soonest come first (the key is compared, not
        // hashed).
        for part in [
            attrs.resource,
            attrs.verb,
            attrs.name,
            attrs.namespace,
            attrs.subresource,
            attrs.api_group,
            attrs.path,
            attrs.user.username.as_str(),
        ] {
            key.push_str(part);
            key.push('\u{0}');
        }
        for g in &attrs.user.groups {
            key.push_str(g);
            key.push('\u{1}');
        }
        key.push(if attrs.resource_request { 'r' } else { 'n' });
        key.push(match wording {
            Wording::Verdict => 'v',
            Wording::Reason => 'r',
            Wording::Step => 's',
        });
        if let Some(r) = self.entries.get(&key) {
            return r.clone();
        }
        let r = rbac::authorize_with(store, attrs, wording);
        self.entries.insert(key, r.clone());
        r
    }
}

fn decide(
    store: &Store<Object>,
    attrs: &Attributes,
    wording: Wording,
    rbac: impl FnOnce() -> rbac::RbacResult,
) -> Decision {
    let detailed = wording == Wording::Step;
    if attrs.user.groups.iter().any(|g| g == SYSTEM_MASTERS) {
        return Decision {
            allowed: true,
            authorizer: SYSTEM_MASTERS.to_string(),
            explanation: if wording >= Wording::Reason {
                format!(
                    "{} is in the group system:masters, which kube-apiserver allows every request \
                     before the Node and RBAC authorizers are asked; no RoleBinding is consulted",
                    attrs.user.username
                )
            } else {
                String::new()
            },
            ..Decision::default()
        };
    }
    let mut reasons = Vec::new();
    let (node_allowed, node_reason, is_node) = node::authorize(store, attrs);
    if node_allowed {
        return Decision {
            allowed: true,
            authorizer: "Node".to_string(),
            explanation: if wording >= Wording::Reason {
                format!(
                    "the Node authorizer allows kubelet {} this request ({})",
                    attrs.user.username,
                    node::why(attrs)
                )
            } else {
                String::new()
            },
            ..Decision::default()
        };
    }
    if !node_reason.is_empty() {
        reasons.push(node_reason);
    }
    let r = rbac();
    if r.allowed {
        // The reason names the binding; the explanation only serves the detailed step.
        let m = r.matched.as_ref().filter(|_| detailed);
        let explanation = match m {
            Some(m) => format!(
                "{} {} binds {} {} to {}; its rule {} allows {} {}",
                m.binding_kind,
                quoted_binding(m),
                m.role_kind,
                m.role_name,
                m.subject,
                m.rule_index,
                attrs.verb,
                attrs.combined_resource()
            ),
            None => String::new(),
        };
        return Decision {
            allowed: true,
            authorizer: "RBAC".to_string(),
            matched: r.matched,
            considered: r.considered,
            reason: r.reason,
            explanation,
        };
    }
    if !r.reason.is_empty() {
        reasons.push(r.reason.clone());
    }
    let reason = reasons.join("\n");
    if !detailed {
        return Decision { allowed: false, reason, ..Decision::default() };
    }
    let mut explanation = if r.considered.is_empty() {
        format!("no RoleBinding or ClusterRoleBinding grants anything to {} here", attrs.user.username)
    } else {
        format!(
            "{} binding(s) apply to {}, but no rule of their roles allows {} on {}",
            r.considered.len(),
            attrs.user.username,
            attrs.verb,
            attrs.combined_resource()
        )
    };
    if is_node {
        explanation.push_str("; the Node authorizer had no opinion either");
    }
    Decision { allowed: false, authorizer: String::new(), matched: None, considered: r.considered, reason, explanation }
}

fn quoted_binding(m: &RbacMatch) -> String {
    match &m.binding_namespace {
        Some(ns) => format!("\"{}/{}\"", m.binding_name, ns),
        None => format!("\"{}\"", m.binding_name),
    }
}

/// The inner Forbidden message (upstream `responsewriters.forbiddenMessage`), with the
/// authorizer's reason appended when there is one.
pub fn forbidden_message(attrs: &Attributes, reason: &str) -> String {
    let user = &attrs.user.username;
    let msg = if !attrs.resource_request {
        format!("User \"{user}\" cannot {} path \"{}\"", attrs.verb, attrs.path)
    } else if !attrs.namespace.is_empty() {
        format!(
            "User \"{user}\" cannot {} resource \"{}\" in API group \"{}\" in the namespace \"{}\"",
            attrs.verb,
            attrs.combined_resource(),
            attrs.api_group,
            attrs.namespace
        )
    } else {
        format!(
            "User \"{user}\" cannot {} resource \"{}\" in API group \"{}\" at the cluster scope",
            attrs.verb,
            attrs.combined_resource(),
            attrs.api_group
        )
    };
    if reason.is_empty() {
        msg
    } else {
        format!("{msg}: {reason}")
    }
}

/// Whether one policy rule allows the request (upstream `RuleAllows`).
pub fn rule_allows(attrs: &Attributes, rule: &PolicyRule) -> bool {
    let verb_ok = rule.verbs.iter().any(|v| v == "*" || *v == attrs.verb);
    if !verb_ok {
        return false;
    }
    if attrs.resource_request {
        let groups = rule.api_groups.as_deref().unwrap_or(&[]);
        let group_ok = groups.iter().any(|g| g == "*" || *g == attrs.api_group);
        // `r == combined_resource()`, without building it.
        let is_combined = |r: &str| match r.strip_prefix(attrs.resource) {
            Some(rest) if attrs.subresource.is_empty() => rest.is_empty(),
            Some(rest) => rest.strip_prefix('/') == Some(attrs.subresource),
            None => false,
        };
        let resources = rule.resources.as_deref().unwrap_or(&[]);
        let resource_ok = resources.iter().any(|r| {
            r == "*"
                || is_combined(r)
                || (!attrs.subresource.is_empty()
                    && r.len() == attrs.subresource.len() + 2
                    && r.starts_with("*/")
                    && r.ends_with(attrs.subresource))
        });
        let names = rule.resource_names.as_deref().unwrap_or(&[]);
        let name_ok = names.is_empty() || names.iter().any(|n| n == attrs.name);
        group_ok && resource_ok && name_ok
    } else {
        let urls = rule.non_resource_urls.as_deref().unwrap_or(&[]);
        urls.iter()
            .any(|u| u == "*" || *u == attrs.path || (u.ends_with('*') && attrs.path.starts_with(&u[..u.len() - 1])))
    }
}

/// A rule as one line: `apiGroups=[""] resources=["pods"] verbs=["get","list"]`.
pub fn describe_rule(rule: &PolicyRule) -> String {
    /// Appends ` name=["a","b"]` (without the leading space for the first field).
    fn field(out: &mut String, name: &str, items: &[String]) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(name);
        out.push_str("=[");
        for (i, s) in items.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        out.push(']');
    }
    let mut out = String::with_capacity(96);
    if let Some(g) = &rule.api_groups {
        field(&mut out, "apiGroups", g);
    }
    if let Some(r) = &rule.resources {
        field(&mut out, "resources", r);
    }
    if let Some(n) = rule.resource_names.as_ref().filter(|n| !n.is_empty()) {
        field(&mut out, "resourceNames", n);
    }
    if let Some(u) = &rule.non_resource_urls {
        field(&mut out, "nonResourceURLs", u);
    }
    field(&mut out, "verbs", &rule.verbs);
    out
}

pub mod rbac {
    use super::*;

    /// The RBAC authorizer's answer.
    #[derive(Clone, Debug, Default)]
    pub struct RbacResult {
        pub allowed: bool,
        pub matched: Option<RbacMatch>,
        pub considered: Vec<String>,
        pub reason: String,
    }

    /// `User "alice"`, `Group "dev"`, `ServiceAccount "name/namespace"` (upstream
    /// `describeSubject`).
    pub fn describe_subject(s: &Subject, binding_namespace: &str) -> String {
        match s.kind.as_str() {
            "ServiceAccount" => {
                let ns = s.namespace.as_deref().filter(|n| !n.is_empty()).unwrap_or(binding_namespace);
                format!("ServiceAccount \"{}/{}\"", s.name, ns)
            }
            kind => format!("{kind} \"{}\"", s.name),
        }
    }

    fn applies_to_user(user: &UserInfo, s: &Subject, namespace: &str) -> bool {
        match s.kind.as_str() {
            "User" => user.username == s.name,
            "Group" => user.groups.contains(&s.name),
            "ServiceAccount" => {
                let ns = s.namespace.as_deref().filter(|n| !n.is_empty()).unwrap_or(namespace);
                // `system:serviceaccount:<ns>:<name>`, compared without building it.
                !ns.is_empty()
                    && user
                        .username
                        .strip_prefix("system:serviceaccount:")
                        .and_then(|rest| rest.strip_prefix(ns))
                        .and_then(|rest| rest.strip_prefix(':'))
                        == Some(s.name.as_str())
            }
            _ => false,
        }
    }

    /// The rules of a ClusterRole, aggregated if it has an aggregationRule.
    pub fn cluster_role_rules<'a>(store: &Store<Object>, role: &'a ClusterRole) -> Cow<'a, [PolicyRule]> {
        if role.aggregation_rule.is_none() {
            return Cow::Borrowed(role.rules.as_deref().unwrap_or(&[]));
        }
        let all: Vec<ClusterRole> = store
            .list("/registry/clusterroles/")
            .into_iter()
            .filter_map(|(_, o, _)| match o {
                Object::ClusterRole(r) => Some((**r).clone()),
                _ => None,
            })
            .collect();
        Cow::Owned(aggregate_rules(role, &all))
    }

    fn role_rules<'s>(
        store: &'s Store<Object>,
        kind: &str,
        name: &str,
        binding_namespace: &str,
    ) -> Result<Cow<'s, [PolicyRule]>, String> {
        match kind {
            "ClusterRole" => match store.get(&format!("/registry/clusterroles/{name}")) {
                Some((Object::ClusterRole(r), _)) => Ok(cluster_role_rules(store, r)),
                _ => Err(format!("clusterrole.rbac.authorization.k8s.io \"{name}\" not found")),
            },
            "Role" => match store.get(&format!("/registry/roles/{binding_namespace}/{name}")) {
                Some((Object::Role(r), _)) => Ok(Cow::Borrowed(r.rules.as_deref().unwrap_or(&[]))),
                _ => Err(format!("role.rbac.authorization.k8s.io \"{name}\" not found")),
            },
            other => Err(format!("unsupported role reference kind: \"{other}\"")),
        }
    }

    /// Visits the bindings that apply to the user; stops at the first rule that allows.
    pub fn authorize(store: &Store<Object>, attrs: &Attributes) -> RbacResult {
        authorize_with(store, attrs, Wording::Step)
    }

    /// [`authorize`]; without `detailed`, `considered` stays empty and the matched rule's
    /// text is left out (see [`super::authorize_with`]).
    /// With [`Wording::Verdict`] an allow has no reason.
    pub fn authorize_with(store: &Store<Object>, attrs: &Attributes, wording: Wording) -> RbacResult {
        let detailed = wording == Wording::Step;
        let mut out = RbacResult::default();
        let mut errors: Vec<String> = Vec::new();
        struct B<'a> {
            kind: &'static str,
            name: &'a str,
            namespace: Option<&'a str>,
            role_kind: &'a str,
            role_name: &'a str,
            subjects: &'a [Subject],
        }
        let crbs = store.live("/registry/clusterrolebindings/").filter_map(|(_, o)| match o {
            Object::ClusterRoleBinding(b) => Some(B {
                kind: "ClusterRoleBinding",
                name: b.metadata.name.as_deref().unwrap_or(""),
                namespace: None,
                role_kind: &b.role_ref.kind,
                role_name: &b.role_ref.name,
                subjects: b.subjects.as_deref().unwrap_or(&[]),
            }),
            _ => None,
        });
        let rb_prefix = if attrs.namespace.is_empty() {
            None
        } else {
            Some(format!("/registry/rolebindings/{}/", attrs.namespace))
        };
        let rbs = rb_prefix.iter().flat_map(|p| store.live(p)).filter_map(|(_, o)| match o {
            Object::RoleBinding(b) => Some(B {
                kind: "RoleBinding",
                name: b.metadata.name.as_deref().unwrap_or(""),
                namespace: b.metadata.namespace.as_deref(),
                role_kind: &b.role_ref.kind,
                role_name: &b.role_ref.name,
                subjects: b.subjects.as_deref().unwrap_or(&[]),
            }),
            _ => None,
        });
        for b in crbs.chain(rbs) {
            // A ClusterRoleBinding's ServiceAccount subjects need their own namespace.
            let applies_ns = b.namespace.unwrap_or("");
            let Some(subject) = b.subjects.iter().find(|s| applies_to_user(attrs.user, s, applies_ns)) else {
                continue;
            };
            let source = |subject_text: &str| match b.namespace {
                Some(ns) => format!(
                    "RoleBinding \"{}/{}\" of {} \"{}\" to {}",
                    b.name, ns, b.role_kind, b.role_name, subject_text
                ),
                None => format!(
                    "ClusterRoleBinding \"{}\" of {} \"{}\" to {}",
                    b.name, b.role_kind, b.role_name, subject_text
                ),
            };
            if detailed {
                out.considered.push(source(&describe_subject(subject, applies_ns)));
            }
            let rules = match role_rules(store, b.role_kind, b.role_name, applies_ns) {
                Ok(r) => r,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            if let Some((i, rule)) = rules.iter().enumerate().find(|(_, r)| rule_allows(attrs, r)) {
                let subject_text = describe_subject(subject, applies_ns);
                out.allowed = true;
                if wording >= Wording::Reason {
                    out.reason = format!("RBAC: allowed by {}", source(&subject_text));
                }
                out.matched = Some(RbacMatch {
                    binding_kind: b.kind.to_string(),
                    binding_name: b.name.to_string(),
                    binding_namespace: b.namespace.map(str::to_string),
                    role_kind: b.role_kind.to_string(),
                    role_name: b.role_name.to_string(),
                    subject: subject_text,
                    rule_index: i,
                    rule: if detailed { describe_rule(rule) } else { String::new() },
                });
                return out;
            }
        }
        if !errors.is_empty() {
            out.reason = format!("RBAC: {}", crate::errors::aggregate(&errors));
        }
        out
    }
}

pub mod node {
    use super::*;

    /// The node name of a kubelet identity (`system:node:<name>` in `system:nodes`); `Some("")`
    /// for a member of `system:nodes` whose name does not say which node.
    pub fn node_identity(user: &UserInfo) -> Option<&str> {
        let name = user.username.strip_prefix("system:node:")?;
        if user.groups.iter().any(|g| g == "system:nodes") {
            Some(name)
        } else {
            None
        }
    }

    /// Why the Node authorizer allowed a request, in words.
    pub fn why(attrs: &Attributes) -> String {
        match (attrs.resource, attrs.subresource) {
            ("pods", "status") => {
                "kubelets report the status of pods; the NodeRestriction admission plugin keeps them to their own pods"
                    .into()
            }
            ("pods", "") => "pods bound to this node, or mirror pods".into(),
            ("nodes", _) => "kubelets manage their own Node object".into(),
            ("secrets" | "configmaps" | "persistentvolumeclaims" | "persistentvolumes" | "serviceaccounts", _) => {
                format!("a pod bound to this node uses {} \"{}\"", attrs.resource, attrs.name)
            }
            _ => "the system:node rules allow it".into(),
        }
    }

    fn no_relationship(node: &str) -> String {
        format!("no relationship found between node '{node}' and this object")
    }

    fn pods_on_node<'a>(store: &'a Store<Object>, node: &str, namespace: &str) -> Vec<&'a Pod> {
        let prefix =
            if namespace.is_empty() { "/registry/pods/".to_string() } else { format!("/registry/pods/{namespace}/") };
        store
            .list(&prefix)
            .into_iter()
            .filter_map(|(_, o, _)| o.as_pod())
            .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(node))
            .collect()
    }

    /// The objects a pod references: `(resource, name)` in the pod's namespace.
    pub fn pod_references(pod: &Pod) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        let Some(spec) = &pod.spec else { return out };
        out.push(("serviceaccounts", spec.service_account_name.clone().unwrap_or_else(|| "default".into())));
        for s in spec.image_pull_secrets.iter().flatten() {
            out.push(("secrets", s.name.clone()));
        }
        for v in spec.volumes.iter().flatten() {
            if let Some(s) = &v.secret {
                out.push(("secrets", s.secret_name.clone().unwrap_or_default()));
            }
            if let Some(c) = &v.config_map {
                out.push(("configmaps", c.name.clone()));
            }
            if let Some(c) = &v.persistent_volume_claim {
                out.push(("persistentvolumeclaims", c.claim_name.clone()));
            }
            if let Some(p) = &v.projected {
                for src in p.sources.iter().flatten() {
                    if let Some(s) = &src.secret {
                        out.push(("secrets", s.name.clone()));
                    }
                    if let Some(c) = &src.config_map {
                        out.push(("configmaps", c.name.clone()));
                    }
                }
            }
        }
        let containers = spec
            .containers
            .iter()
            .chain(spec.init_containers.iter().flatten())
            .map(|c| (&c.env, &c.env_from))
            .chain(spec.ephemeral_containers.iter().flatten().map(|c| (&c.env, &c.env_from)));
        for (env, env_from) in containers {
            for e in env.iter().flatten() {
                if let Some(vf) = &e.value_from {
                    if let Some(s) = &vf.secret_key_ref {
                        out.push(("secrets", s.name.clone()));
                    }
                    if let Some(c) = &vf.config_map_key_ref {
                        out.push(("configmaps", c.name.clone()));
                    }
                }
            }
            for ef in env_from.iter().flatten() {
                if let Some(s) = &ef.secret_ref {
                    out.push(("secrets", s.name.clone()));
                }
                if let Some(c) = &ef.config_map_ref {
                    out.push(("configmaps", c.name.clone()));
                }
            }
        }
        out
    }

    fn related(store: &Store<Object>, node: &str, attrs: &Attributes) -> bool {
        match attrs.resource {
            "pods" => pods_on_node(store, node, attrs.namespace)
                .iter()
                .any(|p| p.metadata.name.as_deref() == Some(attrs.name)),
            "persistentvolumes" => {
                // node <- pod <- pvc <- pv
                let pvcs: Vec<(String, String)> = pods_on_node(store, node, "")
                    .iter()
                    .flat_map(|p| {
                        let ns = p.metadata.namespace.clone().unwrap_or_default();
                        pod_references(p)
                            .into_iter()
                            .filter(|(r, _)| *r == "persistentvolumeclaims")
                            .map(move |(_, n)| (ns.clone(), n))
                    })
                    .collect();
                pvcs.iter().any(|(ns, name)| {
                    match store.get(&format!("/registry/persistentvolumeclaims/{ns}/{name}")) {
                        Some((Object::PersistentVolumeClaim(c), _)) => {
                            c.spec.as_ref().and_then(|s| s.volume_name.as_deref()) == Some(attrs.name)
                        }
                        _ => false,
                    }
                })
            }
            resource => pods_on_node(store, node, attrs.namespace)
                .iter()
                .any(|p| pod_references(p).iter().any(|(r, n)| *r == resource && *n == attrs.name)),
        }
    }

    fn graph(store: &Store<Object>, node: &str, attrs: &Attributes) -> (bool, String) {
        if attrs.name.is_empty() {
            return (false, "No Object name found".into());
        }
        if related(store, node, attrs) {
            (true, String::new())
        } else {
            (false, no_relationship(node))
        }
    }

    fn get_only(store: &Store<Object>, node: &str, attrs: &Attributes) -> (bool, String) {
        if attrs.verb != "get" {
            return (false, "can only get individual resources of this type".into());
        }
        if !attrs.subresource.is_empty() {
            return (false, "cannot get subresource".into());
        }
        graph(store, node, attrs)
    }

    /// `(allowed, reason, is_node)`.
    pub fn authorize(store: &Store<Object>, attrs: &Attributes) -> (bool, String, bool) {
        let Some(node) = node_identity(attrs.user) else { return (false, String::new(), false) };
        if node.is_empty() {
            return (false, format!("unknown node for user \"{}\"", attrs.user.username), true);
        }
        let (allowed, reason) = decide(store, node, attrs);
        (allowed, reason, true)
    }

    fn decide(store: &Store<Object>, node: &str, attrs: &Attributes) -> (bool, String) {
        let verb = attrs.verb;
        let sub = attrs.subresource;
        if attrs.resource_request {
            match (attrs.api_group, attrs.resource) {
                ("", "secrets") | ("", "configmaps") => {
                    if !matches!(verb, "get" | "list" | "watch") {
                        return (false, "can only read resources of this type".into());
                    }
                    if !sub.is_empty() {
                        return (false, "cannot read subresource".into());
                    }
                    if attrs.namespace.is_empty() {
                        return (false, "can only read namespaced object of this type".into());
                    }
                    return graph(store, node, attrs);
                }
                ("", "persistentvolumeclaims") => {
                    if sub == "status" {
                        if !matches!(verb, "update" | "patch") {
                            return (false, "can only get/update/patch this type".into());
                        }
                        return graph(store, node, attrs);
                    }
                    return get_only(store, node, attrs);
                }
                ("", "persistentvolumes") => return get_only(store, node, attrs),
                ("", "serviceaccounts") => {
                    // KubeletServiceAccountTokenForCredentialProviders is on in v1.37: kubelets
                    // may read the service accounts of their pods.
                    if verb == "get" && sub.is_empty() {
                        if attrs.namespace.is_empty() {
                            return (false, "can only read namespaced object of this type".into());
                        }
                        return graph(store, node, attrs);
                    }
                    if verb != "create" || attrs.name.is_empty() {
                        return (false, "can only create tokens for individual service accounts".into());
                    }
                    if sub != "token" {
                        return (false, "can only create token subresource of serviceaccount".into());
                    }
                    return graph(store, node, attrs);
                }
                ("coordination.k8s.io", "leases") => {
                    if !matches!(verb, "get" | "create" | "update" | "patch" | "delete") {
                        return (false, "can only get, create, update, patch, or delete a node lease".into());
                    }
                    if attrs.namespace != "kube-node-lease" {
                        return (false, "can only access leases in the \"kube-node-lease\" system namespace".into());
                    }
                    if verb != "create" && attrs.name != node {
                        return (false, "can only access node lease with the same name as the requesting node".into());
                    }
                    return (true, String::new());
                }
                ("", "nodes") => {
                    return match (sub, verb) {
                        ("", "create" | "update" | "patch") => (true, String::new()),
                        ("", "get" | "list" | "watch") => {
                            if attrs.name == node {
                                (true, String::new())
                            } else if attrs.name.is_empty() {
                                (false, format!("node '{node}' cannot read all nodes, only its own Node object"))
                            } else {
                                (false, format!("node '{node}' cannot read '{}', only its own Node object", attrs.name))
                            }
                        }
                        ("status", "update" | "patch") => (true, String::new()),
                        _ => (false, String::new()),
                    };
                }
                ("", "pods") => {
                    return match (sub, verb) {
                        ("", "get") => get_only(store, node, attrs),
                        ("", "list" | "watch") => {
                            if !attrs.name.is_empty() {
                                graph(store, node, attrs)
                            } else {
                                (false, "can only list/watch pods with spec.nodeName field selector".into())
                            }
                        }
                        ("", "create" | "delete") => (true, String::new()),
                        ("status", "update" | "patch") => (true, String::new()),
                        ("eviction", "create") => (true, String::new()),
                        _ => (false, String::new()),
                    };
                }
                _ => {}
            }
        }
        let allowed = node_rules().iter().any(|r| rule_allows(attrs, r));
        (allowed, String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_rule_lists_the_set_fields_in_order() {
        let rule = PolicyRule {
            api_groups: Some(vec!["".into(), "apps".into()]),
            resources: Some(vec!["pods".into()]),
            resource_names: Some(vec!["web".into()]),
            verbs: vec!["get".into(), "list".into()],
            ..Default::default()
        };
        assert_eq!(
            describe_rule(&rule),
            r#"apiGroups=["","apps"] resources=["pods"] resourceNames=["web"] verbs=["get","list"]"#
        );
        let urls = PolicyRule {
            non_resource_urls: Some(vec!["/healthz".into(), "/livez".into()]),
            resource_names: Some(vec![]),
            verbs: vec!["get".into()],
            ..Default::default()
        };
        assert_eq!(describe_rule(&urls), r#"nonResourceURLs=["/healthz","/livez"] verbs=["get"]"#);
    }
}
