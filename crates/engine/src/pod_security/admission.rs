//! The `PodSecurity` admission plugin (validating): which requests it looks at, which
//! policy applies, and what it answers (a denial, client warnings, audit annotations).
//!
//! * Only `CREATE` and `UPDATE` requests, and only for pods, namespaces and the kinds that
//!   embed a pod template (ReplicationController, PodTemplate, ReplicaSet, Deployment,
//!   StatefulSet, DaemonSet, Job, CronJob).
//! * Pods are checked in all three modes; a violation of the enforce level rejects the
//!   request with 403 Forbidden. Workload objects are checked on their pod template for
//!   warn and audit only and are never rejected: enforcement happens when their
//!   controller creates the Pods.
//! * Pod subresources `exec`, `attach`, `binding`, `eviction`, `log`, `portforward`,
//!   `proxy` and `status` are ignored (others, such as `ephemeralcontainers`, are checked);
//!   workload and namespace subresources are ignored. A pod update is only checked when
//!   it changes something the policy could care about (an image, or the set of containers
//!   or ephemeral containers).
//! * Namespaces: invalid Pod Security labels are rejected on create (and on update when
//!   they changed); making enforce stricter checks the existing pods and warns about those
//!   that would now be rejected.

use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::{Namespace, Pod, PodSpec, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Serialize};

use super::api::{
    aggregate_errors, go_quote, policy_with_defaults, LabelError, Level, LevelVersion, Mode, NamespacePolicy, Policy,
    AUDIT_VIOLATIONS_ANNOTATION, ENFORCED_POLICY_ANNOTATION, ERROR_ANNOTATION, EXEMPT_ANNOTATION, LABEL_PREFIX,
};
use super::checks::{checks_for, evaluate, forbidden_detail, forbidden_reason, CheckResult};
use super::explain;
use crate::object::Object;
use crate::trace::{AdmissionDetail, AdmissionStage, AdmissionVerdict};

/// The plugin's name in the admission chain.
pub const PLUGIN_NAME: &str = "PodSecurity";

/// The most pods checked when a namespace's enforce level is made stricter.
pub const NAMESPACE_MAX_PODS_TO_CHECK: usize = 3000;

/// Pod subresources PodSecurity never looks at.
pub const IGNORED_POD_SUBRESOURCES: &[&str] =
    &["exec", "attach", "binding", "eviction", "log", "portforward", "proxy", "status"];

/// Group-qualified resources whose objects embed a pod template.
pub const POD_TEMPLATE_RESOURCES: &[&str] = &[
    "replicationcontrollers",
    "podtemplates",
    "replicasets.apps",
    "deployments.apps",
    "statefulsets.apps",
    "daemonsets.apps",
    "jobs.batch",
    "cronjobs.batch",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Operation {
    Create,
    Update,
    Delete,
    Connect,
}

/// Requests PodSecurity lets through without looking (upstream's exemptions). Empty in the
/// lab's default configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exemptions {
    /// Authenticated usernames.
    pub usernames: Vec<String>,
    /// `spec.runtimeClassName` values.
    pub runtime_classes: Vec<String>,
    /// Namespace names.
    pub namespaces: Vec<String>,
}

/// The plugin's configuration (the `PodSecurityConfiguration` of the API server).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PodSecurityConfig {
    /// The policy of namespaces without labels: `privileged:latest` for every mode by default.
    pub defaults: Policy,
    pub exemptions: Exemptions,
}

impl PodSecurityConfig {
    /// The policy a namespace's labels select under this configuration's defaults.
    pub fn policy_for_namespace(&self, labels: &BTreeMap<String, String>) -> NamespacePolicy {
        policy_with_defaults(labels, &self.defaults)
    }

    fn exempt_namespace(&self, ns: &str) -> bool {
        !ns.is_empty() && self.exemptions.namespaces.iter().any(|n| n == ns)
    }

    fn exempt_user(&self, user: &str) -> bool {
        !user.is_empty() && self.exemptions.usernames.iter().any(|u| u == user)
    }

    fn exempt_runtime_class(&self, rc: Option<&str>) -> bool {
        match rc {
            Some(rc) if !rc.is_empty() => self.exemptions.runtime_classes.iter().any(|r| r == rc),
            _ => false,
        }
    }
}

/// One admission request as PodSecurity sees it.
#[derive(Clone, Debug)]
pub struct AdmissionRequest<'a> {
    pub operation: Operation,
    pub object: &'a Object,
    /// The stored object, for updates.
    pub old_object: Option<&'a Object>,
    /// `""` for the main resource, or e.g. `ephemeralcontainers`, `status`.
    pub subresource: &'a str,
    /// The request's namespace (for a Namespace object: its own name).
    pub namespace: &'a str,
    pub username: &'a str,
    /// For a namespace update: the pods already in that namespace, checked when the enforce
    /// level becomes stricter.
    pub namespace_pods: &'a [Pod],
    /// Whether the outcome carries its explanation (true unless
    /// [`AdmissionRequest::with_explanation`] turned it off): the API server's summarised
    /// requests show none, so they skip writing it. Verdicts, messages, warnings and
    /// annotations are the same either way.
    pub explain: bool,
}

impl<'a> AdmissionRequest<'a> {
    /// A request on the main resource, in the object's namespace (or, for a Namespace, its
    /// name), by an unnamed user.
    pub fn new(operation: Operation, object: &'a Object) -> Self {
        let namespace = match object {
            Object::Namespace(_) => object.name(),
            _ => object.namespace().unwrap_or(""),
        };
        AdmissionRequest {
            operation,
            object,
            old_object: None,
            subresource: "",
            namespace,
            username: "",
            namespace_pods: &[],
            explain: true,
        }
    }

    pub fn with_explanation(mut self, explain: bool) -> Self {
        self.explain = explain;
        self
    }

    /// The explanation `text` writes, or an empty one when the request asks for none.
    fn explanation(&self, text: impl FnOnce() -> String) -> String {
        if self.explain {
            text()
        } else {
            String::new()
        }
    }

    pub fn with_old(mut self, old: &'a Object) -> Self {
        self.old_object = Some(old);
        self
    }

    pub fn with_subresource(mut self, subresource: &'a str) -> Self {
        self.subresource = subresource;
        self
    }

    pub fn with_namespace(mut self, namespace: &'a str) -> Self {
        self.namespace = namespace;
        self
    }

    pub fn with_user(mut self, username: &'a str) -> Self {
        self.username = username;
        self
    }

    pub fn with_namespace_pods(mut self, pods: &'a [Pod]) -> Self {
        self.namespace_pods = pods;
        self
    }
}

/// The checks of one mode on the request's pod (or pod template).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModeEvaluation {
    pub mode: Mode,
    pub policy: LevelVersion,
    /// Every check that ran, in order (none for `privileged`).
    pub results: Vec<CheckResult>,
}

impl ModeEvaluation {
    pub fn allowed(&self) -> bool {
        self.results.iter().all(|r| r.allowed)
    }
}

/// What PodSecurity answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PsaOutcome {
    /// `NotApplicable` when the request is not one PodSecurity looks at; `Denied` for a
    /// Forbidden pod or an Invalid namespace.
    pub verdict: AdmissionVerdict,
    /// The Forbidden message body, `violates PodSecurity "<level>:<version>": ...`; the
    /// chain wraps it as `pods "<name>" is forbidden: <body>`.
    pub denied: Option<String>,
    /// Invalid Pod Security labels on a namespace create/update (an Invalid, 422, answer).
    pub invalid: Vec<LabelError>,
    /// Warnings for the client (kubectl prints each as `Warning: <text>`).
    pub warnings: Vec<String>,
    /// Audit annotations, keys with the `pod-security.kubernetes.io/` prefix, sorted.
    pub audit_annotations: Vec<(String, String)>,
    /// The modes evaluated against the pod (template), in the order enforce, audit, warn.
    pub evaluations: Vec<ModeEvaluation>,
    /// What happened and why, for a learner.
    pub explanation: String,
}

impl PsaOutcome {
    fn new(verdict: AdmissionVerdict, explanation: String) -> Self {
        PsaOutcome {
            verdict,
            denied: None,
            invalid: Vec::new(),
            warnings: Vec::new(),
            audit_annotations: Vec::new(),
            evaluations: Vec::new(),
            explanation,
        }
    }

    fn annotate(mut self, annotations: BTreeMap<&str, String>) -> Self {
        self.audit_annotations = annotations.into_iter().map(|(k, v)| (format!("{LABEL_PREFIX}{k}"), v)).collect();
        self
    }

    pub fn allowed(&self) -> bool {
        self.denied.is_none() && self.invalid.is_empty()
    }

    /// The whole Status message when the request is rejected:
    /// `pods "web" is forbidden: violates PodSecurity ...` or
    /// `Namespace "dev" is invalid: metadata.labels[...]: Invalid value: ...`.
    pub fn status_message(&self, object: &Object) -> Option<String> {
        let res = object.resource();
        let name = object.name();
        if let Some(body) = &self.denied {
            let resource = res.map(|r| r.qualified_resource()).unwrap_or_else(|| object.kind().to_lowercase());
            return Some(if name.is_empty() {
                format!("{resource} is forbidden: {body}")
            } else {
                format!("{resource} {} is forbidden: {body}", go_quote(name))
            });
        }
        if !self.invalid.is_empty() {
            let kind = res.map(|r| r.qualified_kind()).unwrap_or_else(|| object.kind().to_string());
            return Some(format!("{kind} {} is invalid: {}", go_quote(name), aggregate_errors(&self.invalid)));
        }
        None
    }

    /// The outcome as the trace's admission payload.
    pub fn to_admission_detail(&self, object: &Object) -> AdmissionDetail {
        AdmissionDetail {
            plugin: PLUGIN_NAME.to_string(),
            stage: AdmissionStage::Validating,
            verdict: self.verdict,
            changes: Vec::new(),
            explanation: self.explanation.clone(),
            message: self.status_message(object),
            warnings: self.warnings.clone(),
            annotations: self.audit_annotations.clone(),
            webhook_calls: Vec::new(),
        }
    }
}

/// Runs PodSecurity on one request. `ns_policy` is the policy of the request's namespace
/// (from [`PodSecurityConfig::policy_for_namespace`]); for a Namespace object the plugin
/// reads the object's own labels instead.
pub fn admit(config: &PodSecurityConfig, ns_policy: &NamespacePolicy, req: &AdmissionRequest) -> PsaOutcome {
    let what = || describe_object(req.object);
    if !matches!(req.operation, Operation::Create | Operation::Update) {
        return PsaOutcome::new(
            AdmissionVerdict::NotApplicable,
            req.explanation(|| {
                format!(
                    "PodSecurity only looks at create and update requests; this is a {:?} of {}.",
                    req.operation,
                    what()
                )
            }),
        );
    }
    let resource = req.object.resource().map(|r| r.qualified_resource()).unwrap_or_default();
    match resource.as_str() {
        "namespaces" => validate_namespace(config, req),
        "pods" => validate_pod(config, ns_policy, req),
        r if POD_TEMPLATE_RESOURCES.contains(&r) => validate_workload(config, ns_policy, req),
        _ => PsaOutcome::new(
            AdmissionVerdict::NotApplicable,
            req.explanation(|| {
                format!(
                    "PodSecurity only checks Pods, objects that carry a pod template, and namespace labels; {} is none of these.",
                    what()
                )
            }),
        ),
    }
}

fn describe_object(object: &Object) -> String {
    let kind = object.resource().map(|r| r.qualified_kind()).unwrap_or_else(|| object.kind().to_string());
    if object.name().is_empty() {
        format!("a {kind}")
    } else {
        format!("{kind} {}", go_quote(object.name()))
    }
}

fn exempt(reason: &str, explanation: String) -> PsaOutcome {
    PsaOutcome::new(AdmissionVerdict::Allowed, explanation)
        .annotate(BTreeMap::from([(EXEMPT_ANNOTATION, reason.to_string())]))
}

/// The short-circuits shared by pods and workloads: exempt namespace, then exempt user.
fn exemption(config: &PodSecurityConfig, req: &AdmissionRequest) -> Option<PsaOutcome> {
    if config.exempt_namespace(req.namespace) {
        return Some(exempt(
            "namespace",
            req.explanation(|| {
                format!(
                    "Namespace {} is listed as exempt in the PodSecurity configuration, so nothing is checked.",
                    go_quote(req.namespace)
                )
            }),
        ));
    }
    if config.exempt_user(req.username) {
        return Some(exempt(
            "user",
            req.explanation(|| {
                format!(
                    "User {} is listed as exempt in the PodSecurity configuration, so nothing is checked.",
                    go_quote(req.username)
                )
            }),
        ));
    }
    None
}

fn validate_pod(config: &PodSecurityConfig, ns_policy: &NamespacePolicy, req: &AdmissionRequest) -> PsaOutcome {
    if IGNORED_POD_SUBRESOURCES.contains(&req.subresource) {
        return PsaOutcome::new(
            AdmissionVerdict::Allowed,
            req.explanation(|| {
                format!(
                    "Requests to the pods/{} subresource cannot change what the pod runs, so PodSecurity ignores them.",
                    req.subresource
                )
            }),
        );
    }
    if let Some(out) = exemption(config, req) {
        return out;
    }
    let policy = &ns_policy.policy;
    if ns_policy.errors.is_empty() && policy.fully_privileged() {
        let mut out = PsaOutcome::new(
            AdmissionVerdict::Allowed,
            req.explanation(|| {
                format!(
                    "{}\nAll three modes are privileged, which allows everything, so PodSecurity checks nothing.",
                    explain::policy_summary(req.namespace, ns_policy, config)
                )
            }),
        );
        out = out.annotate(BTreeMap::from([(
            ENFORCED_POLICY_ANNOTATION,
            LevelVersion::new(Level::Privileged, super::api::Version::Latest).to_string(),
        )]));
        return out;
    }
    let Object::Pod(pod) = req.object else {
        return PsaOutcome::new(AdmissionVerdict::NotApplicable, "The object is not a Pod.".to_string());
    };
    if req.operation == Operation::Update {
        if let Some(Object::Pod(old)) = req.old_object {
            if !significant_pod_update(pod, old) {
                return PsaOutcome::new(
                    AdmissionVerdict::Allowed,
                    req.explanation(|| {
                        "This update changes no image and adds or removes no container, so it cannot change the \
                         pod's security posture; PodSecurity lets it through without checking."
                            .to_string()
                    }),
                );
            }
        }
    }
    let empty = PodSpec::default();
    let spec = pod.spec.as_ref().unwrap_or(&empty);
    evaluate_request(config, ns_policy, req, &pod.metadata, spec, true)
}

fn validate_workload(config: &PodSecurityConfig, ns_policy: &NamespacePolicy, req: &AdmissionRequest) -> PsaOutcome {
    let what = || describe_object(req.object);
    if !req.subresource.is_empty() {
        return PsaOutcome::new(
            AdmissionVerdict::Allowed,
            req.explanation(|| format!("PodSecurity ignores subresources of workload objects ({}).", req.subresource)),
        );
    }
    if let Some(out) = exemption(config, req) {
        return out;
    }
    let policy = &ns_policy.policy;
    if ns_policy.errors.is_empty() && policy.warn.level == Level::Privileged && policy.audit.level == Level::Privileged
    {
        return PsaOutcome::new(
            AdmissionVerdict::Allowed,
            req.explanation(|| {
                format!(
                    "{}\nFor {} PodSecurity only warns and audits (the Pods it creates are checked against \
                     enforce later); warn and audit are both privileged here, so there is nothing to check.",
                    explain::policy_summary(req.namespace, ns_policy, config),
                    what()
                )
            }),
        );
    }
    match extract_pod_template(req.object) {
        Ok(Some((meta, spec))) => evaluate_request(config, ns_policy, req, &meta, &spec, false),
        Ok(None) => PsaOutcome::new(
            AdmissionVerdict::Allowed,
            req.explanation(|| format!("{} has no pod template, so PodSecurity has nothing to check.", what())),
        ),
        Err(e) => PsaOutcome::new(
            AdmissionVerdict::Allowed,
            req.explanation(|| {
                format!("PodSecurity could not read the pod template of {} ({e}); it lets the request through.", what())
            }),
        )
        .annotate(BTreeMap::from([(ERROR_ANNOTATION, format!("failed to extract pod template: {e}"))])),
    }
}

/// Evaluates the pod (template) against the namespace's modes. `enforce` is false for
/// workload objects, which are warned about and audited but never rejected.
fn evaluate_request(
    config: &PodSecurityConfig,
    ns_policy: &NamespacePolicy,
    req: &AdmissionRequest,
    meta: &ObjectMeta,
    spec: &PodSpec,
    enforce: bool,
) -> PsaOutcome {
    if config.exempt_runtime_class(spec.runtime_class_name.as_deref()) {
        return exempt(
            "runtimeClass",
            req.explanation(|| {
                format!(
                    "RuntimeClass {} is listed as exempt in the PodSecurity configuration, so nothing is checked.",
                    go_quote(spec.runtime_class_name.as_deref().unwrap_or(""))
                )
            }),
        );
    }
    let policy = ns_policy.policy;
    let mut annotations: BTreeMap<&str, String> = BTreeMap::new();
    if !ns_policy.errors.is_empty() {
        annotations
            .insert(ERROR_ANNOTATION, format!("Failed to parse policy: {}", aggregate_errors(&ns_policy.errors)));
    }

    let mut cache: Vec<(LevelVersion, Vec<CheckResult>)> = Vec::new();
    let mut run = |lv: LevelVersion| -> Vec<CheckResult> {
        if let Some((_, r)) = cache.iter().find(|(k, _)| *k == lv) {
            return r.clone();
        }
        let r = evaluate(lv, meta, spec);
        cache.push((lv, r.clone()));
        r
    };

    let mut out = PsaOutcome::new(AdmissionVerdict::Allowed, String::new());
    if enforce {
        annotations.insert(ENFORCED_POLICY_ANNOTATION, policy.enforce.to_string());
        let results = run(policy.enforce);
        if results.iter().any(|r| !r.allowed) {
            out.denied = Some(format!(
                "violates PodSecurity {}: {}",
                go_quote(&policy.enforce.to_string()),
                forbidden_detail(&results)
            ));
            out.verdict = AdmissionVerdict::Denied;
        }
        out.evaluations.push(ModeEvaluation { mode: Mode::Enforce, policy: policy.enforce, results });
    }
    let audit = run(policy.audit);
    if audit.iter().any(|r| !r.allowed) {
        annotations.insert(
            AUDIT_VIOLATIONS_ANNOTATION,
            format!("would violate PodSecurity {}: {}", go_quote(&policy.audit.to_string()), forbidden_detail(&audit)),
        );
    }
    out.evaluations.push(ModeEvaluation { mode: Mode::Audit, policy: policy.audit, results: audit });
    // No warnings on a request that is rejected anyway.
    if out.denied.is_none() {
        let warn = run(policy.warn);
        if warn.iter().any(|r| !r.allowed) {
            out.warnings.push(format!(
                "would violate PodSecurity {}: {}",
                go_quote(&policy.warn.to_string()),
                forbidden_detail(&warn)
            ));
        }
        out.evaluations.push(ModeEvaluation { mode: Mode::Warn, policy: policy.warn, results: warn });
    }
    out = out.annotate(annotations);
    out.explanation = req.explanation(|| explain::evaluation(config, ns_policy, req, &out, enforce));
    out
}

/// Whether a pod update can change what PodSecurity cares about: a changed image, a
/// different number of (init) containers, or an added or changed ephemeral container.
pub fn significant_pod_update(pod: &Pod, old: &Pod) -> bool {
    let empty = PodSpec::default();
    let new = pod.spec.as_ref().unwrap_or(&empty);
    let old = old.spec.as_ref().unwrap_or(&empty);
    let image = |i: &Option<String>| i.as_deref().unwrap_or("").to_string();
    let init_new = new.init_containers.as_deref().unwrap_or(&[]);
    let init_old = old.init_containers.as_deref().unwrap_or(&[]);
    if new.containers.len() != old.containers.len() || init_new.len() != init_old.len() {
        return true;
    }
    if new.containers.iter().zip(&old.containers).any(|(a, b)| image(&a.image) != image(&b.image)) {
        return true;
    }
    if init_new.iter().zip(init_old).any(|(a, b)| image(&a.image) != image(&b.image)) {
        return true;
    }
    let old_eph = old.ephemeral_containers.as_deref().unwrap_or(&[]);
    new.ephemeral_containers.iter().flatten().any(|c| match old_eph.iter().find(|o| o.name == c.name) {
        None => true,
        Some(o) => image(&c.image) != image(&o.image),
    })
}

/// The pod template metadata and spec of a workload object; `Ok(None)` when the object
/// may have no template and has none (a ReplicationController without `spec.template`).
pub fn extract_pod_template(object: &Object) -> Result<Option<(ObjectMeta, PodSpec)>, String> {
    if let Object::Pod(p) = object {
        return Ok(Some((p.metadata.clone(), p.spec.clone().unwrap_or_default())));
    }
    let resource = object.resource().map(|r| r.qualified_resource()).unwrap_or_default();
    let json = object.to_json();
    let path: &[&str] = match resource.as_str() {
        "podtemplates" => &["template"],
        "cronjobs.batch" => &["spec", "jobTemplate", "spec", "template"],
        r if POD_TEMPLATE_RESOURCES.contains(&r) => &["spec", "template"],
        _ => return Err(format!("unexpected object type: {}, Kind={}", object.api_version(), object.kind())),
    };
    let mut cur = Some(&json);
    for key in path {
        cur = cur.and_then(|v| v.get(key)).filter(|v| !v.is_null());
    }
    let template: PodTemplateSpec = match cur {
        // Only a ReplicationController's template is optional; elsewhere a missing template
        // reads as an empty one (as a typed object would).
        None if resource == "replicationcontrollers" => return Ok(None),
        None => PodTemplateSpec::default(),
        Some(v) => crate::decode::from_value(v).map_err(|e| e.to_string())?,
    };
    Ok(Some((template.metadata.unwrap_or_default(), template.spec.unwrap_or_default())))
}

fn validate_namespace(config: &PodSecurityConfig, req: &AdmissionRequest) -> PsaOutcome {
    if !req.subresource.is_empty() {
        return PsaOutcome::new(
            AdmissionVerdict::Allowed,
            format!("PodSecurity ignores namespace subresources ({}).", req.subresource),
        );
    }
    let Object::Namespace(ns) = req.object else {
        return PsaOutcome::new(AdmissionVerdict::NotApplicable, "The object is not a Namespace.".to_string());
    };
    let name = ns.metadata.name.as_deref().unwrap_or("");
    let labels = ns_labels(ns);
    let new = config.policy_for_namespace(&labels);
    let invalid = |errors: Vec<LabelError>| {
        let mut out = PsaOutcome::new(
            AdmissionVerdict::Denied,
            format!(
                "Namespace {} carries Pod Security labels with values PodSecurity does not understand. A level must be \
                 privileged, baseline or restricted, and a version latest or v1.<minor> (for example v1.37). \
                 The request is rejected as Invalid; fix or remove the labels.",
                go_quote(name)
            ),
        );
        out.invalid = errors;
        out
    };
    let exempt_warning = |policy: &Policy| -> Option<String> {
        if !config.exempt_namespace(req.namespace) {
            return None;
        }
        exempt_namespace_warning(name, policy, &labels, &config.defaults)
    };
    let summary = explain::policy_summary(name, &new, config);

    match req.operation {
        Operation::Create => {
            if !new.errors.is_empty() {
                return invalid(new.errors);
            }
            let mut out = PsaOutcome::new(
                AdmissionVerdict::Allowed,
                format!("{summary}\nThe labels are valid. A new namespace has no pods yet, so there is nothing else to check."),
            );
            out.warnings.extend(exempt_warning(&new.policy));
            out
        }
        Operation::Update => {
            let old_labels = match req.old_object {
                Some(Object::Namespace(o)) => ns_labels(o),
                _ => BTreeMap::new(),
            };
            let old = config.policy_for_namespace(&old_labels);
            if !new.errors.is_empty() && (old.errors.is_empty() || new.errors != old.errors) {
                return invalid(new.errors);
            }
            let allowed = |why: &str| PsaOutcome::new(AdmissionVerdict::Allowed, format!("{summary}\n{why}"));
            if new.policy.enforce == old.policy.enforce {
                return allowed("The enforce level did not change, so existing pods are not re-checked.");
            }
            if new.policy.enforce.level == Level::Privileged {
                return allowed("The new enforce level is privileged, which every pod satisfies.");
            }
            if new.policy.enforce.version == old.policy.enforce.version
                && new.policy.enforce.level <= old.policy.enforce.level
            {
                return allowed("The enforce level became less strict, so every existing pod still satisfies it.");
            }
            if config.exempt_namespace(req.namespace) {
                let mut out = allowed("The namespace is exempt, so its pods are not checked.");
                out.warnings.extend(exempt_warning(&new.policy));
                return out;
            }
            let warnings = evaluate_pods_in_namespace(config, name, new.policy.enforce, req.namespace_pods);
            let why = if warnings.is_empty() {
                format!(
                    "The enforce level became stricter ({} → {}); PodSecurity checked the {} existing pod(s) and all of them \
                     satisfy it. The update is allowed either way: existing pods are never evicted, they only produce warnings.",
                    old.policy.enforce,
                    new.policy.enforce,
                    req.namespace_pods.len()
                )
            } else {
                format!(
                    "The enforce level became stricter ({} → {}); PodSecurity checked the existing pods and warns about \
                     those that would now be rejected. The update is still allowed and the pods keep running; only new \
                     pods (including replacements a controller creates) are held to the new level.",
                    old.policy.enforce, new.policy.enforce
                )
            };
            let mut out = allowed(&why);
            out.warnings = warnings;
            out
        }
        _ => PsaOutcome::new(AdmissionVerdict::NotApplicable, String::new()),
    }
}

fn ns_labels(ns: &Namespace) -> BTreeMap<String, String> {
    ns.metadata.labels.clone().unwrap_or_default()
}

/// The warning for Pod Security labels on an exempt namespace, or `None` when they ask for
/// nothing beyond the defaults.
pub fn exempt_namespace_warning(
    name: &str,
    policy: &Policy,
    labels: &BTreeMap<String, String>,
    defaults: &Policy,
) -> Option<String> {
    if policy.fully_privileged() || policy.equivalent(defaults) {
        return None;
    }
    let mut parts = Vec::new();
    for mode in [Mode::Enforce, Mode::Audit, Mode::Warn] {
        let lv = policy.get(mode);
        let labelled = labels.contains_key(mode.level_label()) || labels.contains_key(mode.version_label());
        if lv.level != Level::Privileged && labelled {
            parts.push(format!("{}={lv}", mode.as_str()));
        }
    }
    Some(format!(
        "namespace {} is exempt from Pod Security, and the policy ({}) will be ignored",
        go_quote(name),
        parts.join(", ")
    ))
}

/// Checks the pods of a namespace against a new enforce level and returns the warnings for
/// the namespace update: pods with the same violations are grouped under the
/// alphabetically first pod name.
pub fn evaluate_pods_in_namespace(
    config: &PodSecurityConfig,
    namespace: &str,
    enforce: LevelVersion,
    pods: &[Pod],
) -> Vec<String> {
    // Pods with an exempt runtime class are skipped; one pod per controller goes first.
    let mut first: Vec<&Pod> = Vec::new();
    let mut repeats: Vec<&Pod> = Vec::new();
    let mut seen_controllers: BTreeSet<&str> = BTreeSet::new();
    for pod in pods {
        let rc = pod.spec.as_ref().and_then(|s| s.runtime_class_name.as_deref());
        if config.exempt_runtime_class(rc) {
            continue;
        }
        let controller = pod.metadata.owner_references.iter().flatten().find(|o| o.controller == Some(true));
        match controller {
            None => first.push(pod),
            Some(o) if seen_controllers.contains(o.uid.as_str()) => repeats.push(pod),
            Some(o) => {
                seen_controllers.insert(o.uid.as_str());
                first.push(pod);
            }
        }
    }
    first.extend(repeats);
    let total = first.len();
    first.truncate(NAMESPACE_MAX_PODS_TO_CHECK);
    let checked = first.len();

    // reason list -> (first pod name, count), in first-seen order
    let mut groups: Vec<(String, String, usize)> = Vec::new();
    let empty = PodSpec::default();
    for pod in first {
        let results = evaluate(enforce, &pod.metadata, pod.spec.as_ref().unwrap_or(&empty));
        if results.iter().all(|r| r.allowed) {
            continue;
        }
        let reason = forbidden_reason(&results);
        let name = pod.metadata.name.clone().unwrap_or_default();
        match groups.iter_mut().find(|(r, _, _)| *r == reason) {
            Some(g) => {
                if name < g.1 {
                    g.1 = name;
                }
                g.2 += 1;
            }
            None => groups.push((reason, name, 1)),
        }
    }

    let mut warnings = Vec::new();
    if checked < total {
        warnings.push(format!(
            "new PodSecurity enforce level only checked against the first {checked} of {total} existing pods"
        ));
    }
    if !groups.is_empty() {
        warnings.push(format!(
            "existing pods in namespace {} violate the new PodSecurity enforce level {}",
            go_quote(namespace),
            go_quote(&enforce.to_string())
        ));
    }
    let mut pod_warnings: Vec<String> = groups
        .into_iter()
        .map(|(reason, name, count)| match count {
            1 => format!("{name}: {reason}"),
            2 => format!("{name} (and 1 other pod): {reason}"),
            n => format!("{name} (and {} other pods): {reason}", n - 1),
        })
        .collect();
    crate::sort::sort(&mut pod_warnings);
    warnings.extend(pod_warnings);
    warnings
}

/// The checks a level runs at a version, by id (for explanations and the UI).
pub fn check_ids(lv: LevelVersion) -> Vec<&'static str> {
    checks_for(lv).into_iter().map(|(c, _)| c.id).collect()
}
