//! `MutatingAdmissionWebhook` and `ValidatingAdmissionWebhook` (apiserver
//! `pkg/admission/plugin/webhook`), with simulated webhook servers.
//!
//! Matching is upstream's: the webhook configurations in the store, ordered by configuration
//! name and then by position, each webhook's `rules` (operations, API groups and versions,
//! resources with `resource/subresource` patterns, scope), `namespaceSelector` (against the
//! namespace's labels; cluster-scoped objects other than namespaces always match) and
//! `objectSelector` (against the new or the old object's labels). Objects of the webhook
//! configuration kinds themselves are never sent to webhooks.
//!
//! What the server behind a webhook does is declared separately, by webhook name
//! ([`SimulatedWebhook`]): inject a sidecar, deny unpinned images, add labels, apply a given
//! patch, deny, or be down. A webhook without a declared server behaves as a server that is not
//! running. The API server's side is exact: the AdmissionReview it sends, the `?timeout=`
//! parameter, `failurePolicy` (Fail: the request fails with an internal error; Ignore: the
//! call's failure is logged and the request goes on), `sideEffects` on dry-run requests, the
//! denial text `admission webhook "<name>" denied the request: <message>`, the audit
//! annotations, and reinvocation. Validating webhooks run in parallel upstream; the lab calls
//! them in configuration order and, when several deny, reports the first of that order
//! (upstream reports whichever finished first).

use super::diff::escape;
use super::jsonpatch::apply_patch;
use super::selector::selector_text;
use super::{Attributes, Context, Decision, MutatingPlugin, Operation, Rejection, ValidatingPlugin};
use crate::labels::label_selector_matches;
use crate::object::Object;
use crate::sort::CollectMap;
use crate::trace::WebhookCall;
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhook, RuleWithOperations, ServiceReference, ValidatingWebhook, WebhookClientConfig,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The simulated server behind one webhook, declared in the lab's cluster settings
/// (`LabSettings.webhooks`). Read it with [`SimulatedWebhook::from_value`], which accepts two
/// spellings of an entry:
///
/// * the settings' generic fields: `name`, `allowed` (default true), `message`, `code`,
///   `patch`, `warnings`, `latencyMs`, `error` (the call fails: `connection refused`,
///   `context deadline exceeded`, or any other text);
/// * one of the ready-made behaviours of [`WebhookBehaviour`], keyed by its name:
///   `injectSidecar: {container, volumes, annotations}`, `denyImages: {}`,
///   `addLabels: {key: value}`, `patch: [...]`, `deny: {code, reason, message}`,
///   `down: {failure: ConnectionRefused | Timeout}`, `allow: {}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimulatedWebhook {
    /// The webhook's name, as in `webhooks[].name` of its configuration.
    pub webhook: String,
    pub behaviour: WebhookBehaviour,
    /// Round-trip time of a call.
    #[serde(default = "default_latency")]
    pub latency_ms: u64,
    /// Warnings the server returns with an answer (kubectl prints them as `Warning:`).
    #[serde(default)]
    pub warnings: Vec<String>,
}

impl SimulatedWebhook {
    /// Reads one entry of the lab settings' `webhooks` list.
    pub fn from_value(v: &Value) -> Result<SimulatedWebhook, String> {
        let str_of = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let webhook =
            str_of("name").or_else(|| str_of("webhook")).ok_or("a webhook server needs the webhook's name")?;
        let latency_ms = v.get("latencyMs").and_then(Value::as_u64).unwrap_or_else(default_latency);
        let warnings: Vec<String> = v
            .get("warnings")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|w| w.as_str().map(str::to_string))
            .collect();
        const NAMED: [&str; 6] = ["injectSidecar", "denyImages", "addLabels", "deny", "down", "allow"];
        let named: Vec<&str> = NAMED.iter().copied().filter(|k| v.get(*k).is_some()).collect();
        let behaviour = if let Some(k) = named.first() {
            if named.len() > 1 {
                return Err(format!("webhook {webhook}: choose one behaviour, not {}", named.join(" and ")));
            }
            let mut one = serde_json::Map::new();
            one.insert(k.to_string(), v[*k].clone());
            crate::decode::from_value(&Value::Object(one)).map_err(|e| format!("webhook {webhook}: {k}: {e}"))?
        } else if let Some(err) = str_of("error") {
            let failure = if err == "connection refused" {
                WebhookFailure::ConnectionRefused
            } else if err.contains("deadline") || err.contains("timeout") || err.contains("Timeout") {
                WebhookFailure::Timeout
            } else {
                WebhookFailure::Error(err)
            };
            WebhookBehaviour::Down { failure }
        } else if v.get("allowed").and_then(Value::as_bool) == Some(false) {
            WebhookBehaviour::Deny {
                code: v.get("code").and_then(Value::as_u64).map(|c| c as u16),
                reason: str_of("reason"),
                message: str_of("message").unwrap_or_default(),
            }
        } else if let Some(p) = v.get("patch").filter(|p| !p.is_null()) {
            WebhookBehaviour::Patch { patch: p.clone() }
        } else {
            WebhookBehaviour::Allow {}
        };
        Ok(SimulatedWebhook { webhook, behaviour, latency_ms, warnings })
    }
}

fn default_latency() -> u64 {
    8
}

/// What a simulated webhook server answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum WebhookBehaviour {
    /// Allows everything, changes nothing.
    Allow {},
    /// Adds a container (and volumes, annotations) unless a container of that name exists.
    InjectSidecar {
        container: Value,
        #[serde(default)]
        volumes: Vec<Value>,
        #[serde(default)]
        annotations: BTreeMap<String, String>,
    },
    /// Denies pods (and pod templates) whose images are not pinned.
    DenyImages {
        #[serde(default)]
        policy: ImagePolicy,
    },
    /// Adds (or overwrites) these labels.
    AddLabels(BTreeMap<String, String>),
    /// Returns this JSONPatch.
    Patch { patch: Value },
    /// Denies everything with this status.
    Deny {
        #[serde(default)]
        code: Option<u16>,
        #[serde(default)]
        reason: Option<String>,
        message: String,
    },
    /// The server cannot be reached.
    Down {
        #[serde(default)]
        failure: WebhookFailure,
    },
}

/// Which images the image policy refuses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImagePolicy {
    /// `:latest` or no tag at all (a digest counts as pinned).
    #[default]
    LatestOrUntagged,
}

/// How an unreachable webhook fails.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WebhookFailure {
    /// Nothing listens behind the Service's IP: `connect: connection refused`.
    #[default]
    ConnectionRefused,
    /// The server never answers: the call gives up after `timeoutSeconds`.
    Timeout,
    /// Any other transport error, as text (`x509: certificate signed by unknown authority`).
    Error(String),
}

/// The fields mutating and validating webhooks share.
struct Hook {
    configuration: String,
    /// Position among all webhooks of this type, across configurations (annotation index).
    index: usize,
    name: String,
    client_config: WebhookClientConfig,
    rules: Vec<RuleWithOperations>,
    failure_policy: String,
    namespace_selector: LabelSelector,
    object_selector: LabelSelector,
    side_effects: String,
    timeout_seconds: i32,
    reinvocation_policy: String,
    /// `matchConditions` (CEL); the lab does not evaluate them.
    match_conditions: usize,
}

impl Hook {
    fn uid(&self) -> String {
        format!("{}/{}/{}", self.configuration, self.index, self.name)
    }
}

fn mutating_hooks(ctx: &Context) -> Vec<Hook> {
    let mut out = Vec::new();
    if !ctx.webhook_configurations {
        return out;
    }
    for o in ctx.list("MutatingWebhookConfiguration", None) {
        let Object::MutatingWebhookConfiguration(c) = o else { continue };
        let cfg = c.metadata.name.clone().unwrap_or_default();
        for w in c.webhooks.iter().flatten() {
            out.push(from_mutating(&cfg, out.len(), w));
        }
    }
    out
}

fn from_mutating(cfg: &str, index: usize, w: &MutatingWebhook) -> Hook {
    Hook {
        configuration: cfg.to_string(),
        index,
        name: w.name.clone(),
        client_config: w.client_config.clone(),
        rules: w.rules.clone().unwrap_or_default(),
        failure_policy: w.failure_policy.clone().unwrap_or_else(|| "Fail".into()),
        namespace_selector: w.namespace_selector.clone().unwrap_or_default(),
        object_selector: w.object_selector.clone().unwrap_or_default(),
        side_effects: w.side_effects.clone(),
        timeout_seconds: w.timeout_seconds.unwrap_or(10),
        reinvocation_policy: w.reinvocation_policy.clone().unwrap_or_else(|| "Never".into()),
        match_conditions: w.match_conditions.as_ref().map(Vec::len).unwrap_or(0),
    }
}

fn validating_hooks(ctx: &Context) -> Vec<Hook> {
    let mut out = Vec::new();
    if !ctx.webhook_configurations {
        return out;
    }
    for o in ctx.list("ValidatingWebhookConfiguration", None) {
        let Object::ValidatingWebhookConfiguration(c) = o else { continue };
        let cfg = c.metadata.name.clone().unwrap_or_default();
        for w in c.webhooks.iter().flatten() {
            out.push(from_validating(&cfg, out.len(), w));
        }
    }
    out
}

fn from_validating(cfg: &str, index: usize, w: &ValidatingWebhook) -> Hook {
    Hook {
        configuration: cfg.to_string(),
        index,
        name: w.name.clone(),
        client_config: w.client_config.clone(),
        rules: w.rules.clone().unwrap_or_default(),
        failure_policy: w.failure_policy.clone().unwrap_or_else(|| "Fail".into()),
        namespace_selector: w.namespace_selector.clone().unwrap_or_default(),
        object_selector: w.object_selector.clone().unwrap_or_default(),
        side_effects: w.side_effects.clone(),
        timeout_seconds: w.timeout_seconds.unwrap_or(10),
        reinvocation_policy: "Never".into(),
        match_conditions: w.match_conditions.as_ref().map(Vec::len).unwrap_or(0),
    }
}

/// Webhook configurations and admission policies are never sent to webhooks (so a broken
/// webhook can always be removed).
fn exempt(attrs: &Attributes) -> bool {
    attrs.resource.group == "admissionregistration.k8s.io"
        && matches!(
            attrs.resource.plural,
            "validatingwebhookconfigurations"
                | "mutatingwebhookconfigurations"
                | "validatingadmissionpolicies"
                | "validatingadmissionpolicybindings"
                | "mutatingadmissionpolicies"
                | "mutatingadmissionpolicybindings"
        )
}

fn contains_or_star(list: &[String], value: &str) -> bool {
    list.iter().any(|x| x == "*" || x == value)
}

fn rule_matches(rule: &RuleWithOperations, attrs: &Attributes) -> bool {
    let ops = rule.operations.as_deref().unwrap_or(&[]);
    if !contains_or_star(ops, attrs.operation.as_str()) {
        return false;
    }
    if !contains_or_star(rule.api_groups.as_deref().unwrap_or(&[]), attrs.resource.group) {
        return false;
    }
    if !contains_or_star(rule.api_versions.as_deref().unwrap_or(&[]), attrs.resource.version) {
        return false;
    }
    let resource_ok = rule.resources.iter().flatten().any(|pattern| {
        let (res, sub) = pattern.split_once('/').unwrap_or((pattern.as_str(), ""));
        (res == "*" || res == attrs.resource.plural) && (sub == "*" || sub == attrs.subresource)
    });
    if !resource_ok {
        return false;
    }
    let is_namespace = attrs.is_core("namespaces");
    match rule.scope.as_deref() {
        Some("Namespaced") => !is_namespace && !attrs.namespace.is_empty(),
        Some("Cluster") => is_namespace || attrs.namespace.is_empty(),
        _ => true,
    }
}

fn labels_of(obj: Option<&Object>) -> BTreeMap<String, String> {
    obj.and_then(|o| o.meta().labels.clone()).unwrap_or_default()
}

/// Why a webhook is not called (`None`: it is called).
fn skip_reason(ctx: &Context, hook: &Hook, attrs: &Attributes, obj: &Object) -> Option<String> {
    let is_empty = crate::labels::is_empty;
    if (!attrs.namespace.is_empty() || attrs.is_core("namespaces")) && !is_empty(&hook.namespace_selector) {
        let labels = if attrs.is_core("namespaces") {
            labels_of(Some(obj))
        } else {
            labels_of(ctx.get("Namespace", None, &attrs.namespace))
        };
        if !label_selector_matches(&hook.namespace_selector, Some(&labels)) {
            return Some(format!(
                "its namespaceSelector ({}) does not match the labels of namespace {}",
                selector_text(&hook.namespace_selector),
                if attrs.namespace.is_empty() { obj.name() } else { attrs.namespace.as_str() }
            ));
        }
    }
    if !is_empty(&hook.object_selector) {
        let new_ok = attrs.operation != Operation::Delete
            && label_selector_matches(&hook.object_selector, Some(&labels_of(Some(obj))));
        let old_ok = attrs.old_object.is_some()
            && label_selector_matches(&hook.object_selector, Some(&labels_of(attrs.old_object)));
        if !new_ok && !old_ok {
            return Some(format!(
                "its objectSelector ({}) does not match the object's labels",
                selector_text(&hook.object_selector)
            ));
        }
    }
    if !hook.rules.iter().any(|r| rule_matches(r, attrs)) {
        return Some(format!(
            "no rule matches {} {}{}",
            attrs.operation.as_str(),
            attrs.resource.qualified_resource(),
            if attrs.subresource.is_empty() { String::new() } else { format!("/{}", attrs.subresource) }
        ));
    }
    None
}

fn service_url(svc: &ServiceReference) -> String {
    let port = svc.port.unwrap_or(443);
    let path = svc.path.clone().unwrap_or_default();
    let path = if path.is_empty() { "/".to_string() } else { path };
    format!("https://{}.{}.svc:{port}{path}", svc.name, svc.namespace)
}

fn call_url(hook: &Hook) -> String {
    let base = match (&hook.client_config.url, &hook.client_config.service) {
        (Some(u), _) => u.clone(),
        (None, Some(svc)) => service_url(svc),
        (None, None) => "https://<no clientConfig>".into(),
    };
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}timeout={}s", hook.timeout_seconds)
}

/// The host:port a connection goes to: the Service's cluster IP, or the URL's host.
fn dial_target(ctx: &Context, hook: &Hook) -> Result<String, String> {
    if let Some(svc) = &hook.client_config.service {
        let port = svc.port.unwrap_or(443);
        return match ctx.get("Service", Some(&svc.namespace), &svc.name) {
            Some(Object::Service(s)) => {
                let ip = s.spec.as_ref().and_then(|sp| sp.cluster_ip.clone()).unwrap_or_default();
                Ok(format!("{ip}:{port}"))
            }
            _ => Err(format!("service \"{}\" not found", svc.name)),
        };
    }
    let url = hook.client_config.url.clone().unwrap_or_default();
    let rest = url.split("://").nth(1).unwrap_or(&url);
    let host = rest.split('/').next().unwrap_or(rest);
    Ok(if host.contains(':') { host.to_string() } else { format!("{host}:443") })
}

/// The AdmissionReview the API server posts.
fn review_request(ctx: &Context, attrs: &Attributes, obj: &Object, uid: &str) -> Value {
    let r = attrs.resource;
    let (object, old_object) = match attrs.operation {
        Operation::Delete => (Value::Null, attrs.old_object.map(Object::to_json).unwrap_or(Value::Null)),
        _ => (obj.to_json(), attrs.old_object.map(Object::to_json).unwrap_or(Value::Null)),
    };
    let options_kind = match attrs.operation {
        Operation::Create => "CreateOptions",
        Operation::Update => "UpdateOptions",
        Operation::Delete => "DeleteOptions",
        Operation::Connect => "",
    };
    let mut req = serde_json::Map::new();
    req.insert("uid".into(), uid.into());
    req.insert("kind".into(), json!({"group": r.group, "version": r.version, "kind": attrs.kind}));
    req.insert("resource".into(), json!({"group": r.group, "version": r.version, "resource": r.plural}));
    if !attrs.subresource.is_empty() {
        req.insert("subResource".into(), attrs.subresource.clone().into());
    }
    req.insert("requestKind".into(), json!({"group": r.group, "version": r.version, "kind": attrs.kind}));
    req.insert("requestResource".into(), json!({"group": r.group, "version": r.version, "resource": r.plural}));
    if !attrs.subresource.is_empty() {
        req.insert("requestSubResource".into(), attrs.subresource.clone().into());
    }
    if !attrs.name.is_empty() {
        req.insert("name".into(), attrs.name.clone().into());
    }
    if !attrs.namespace.is_empty() {
        req.insert("namespace".into(), attrs.namespace.clone().into());
    }
    req.insert("operation".into(), attrs.operation.as_str().into());
    req.insert("userInfo".into(), json!({"username": attrs.user.username, "groups": attrs.user.groups}));
    req.insert("object".into(), object);
    req.insert("oldObject".into(), old_object);
    req.insert("dryRun".into(), attrs.dry_run.into());
    if !options_kind.is_empty() {
        req.insert("options".into(), json!({"kind": options_kind, "apiVersion": "meta.k8s.io/v1"}));
    }
    let _ = ctx;
    json!({"kind": "AdmissionReview", "apiVersion": "admission.k8s.io/v1", "request": Value::Object(req)})
}

/// What the simulated server answered.
enum Answer {
    Allowed { patch: Option<Value>, warnings: Vec<String> },
    Denied { code: u16, reason: String, message: String },
    Failed { error: String, latency_ms: u64 },
}

fn image_problem(image: &str) -> Option<&'static str> {
    if image.contains('@') {
        return None;
    }
    let last = image.rsplit('/').next().unwrap_or(image);
    match last.split_once(':') {
        None => Some("has no tag"),
        Some((_, "latest")) => Some("uses the tag \"latest\""),
        Some(_) => None,
    }
}

/// The pod spec of a pod, or the template of a workload, as JSON.
fn pod_spec_json(obj: &Value) -> Option<&Value> {
    match obj.get("kind").and_then(Value::as_str) {
        Some("Pod") => obj.get("spec"),
        Some("CronJob") => obj.pointer("/spec/jobTemplate/spec/template/spec"),
        _ => obj.pointer("/spec/template/spec"),
    }
}

fn unpinned_images(obj: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(spec) = pod_spec_json(obj) else { return out };
    for (list, what) in [
        ("initContainers", "init container"),
        ("containers", "container"),
        ("ephemeralContainers", "ephemeral container"),
    ] {
        for c in spec.get(list).and_then(Value::as_array).into_iter().flatten() {
            let name = c.get("name").and_then(Value::as_str).unwrap_or("");
            let image = c.get("image").and_then(Value::as_str).unwrap_or("");
            if let Some(problem) = image_problem(image) {
                out.push(format!("{what} {name:?}: image {image:?} {problem}; pin a version tag or a digest"));
            }
        }
    }
    out
}

fn map_patch(ops: &mut Vec<Value>, current: Option<&Value>, base: &str, entries: &BTreeMap<String, String>) {
    let todo: BTreeMap<&String, &String> = entries
        .iter()
        .filter(|(k, v)| current.and_then(|m| m.get(k.as_str())).and_then(Value::as_str) != Some(v.as_str()))
        .collect_map();
    if todo.is_empty() {
        return;
    }
    if current.is_none_or(Value::is_null) {
        ops.push(json!({"op": "add", "path": base, "value": todo}));
    } else {
        for (k, v) in todo {
            ops.push(json!({"op": "add", "path": format!("{base}/{}", escape(k)), "value": v}));
        }
    }
}

fn answer(ctx: &Context, hook: &Hook, server: Option<&SimulatedWebhook>, object: &Value) -> Answer {
    let url = call_url(hook);
    let down = |failure: &WebhookFailure| -> Answer {
        let cause = match failure {
            WebhookFailure::Timeout => Ok("context deadline exceeded".to_string()),
            WebhookFailure::Error(text) => Ok(text.clone()),
            WebhookFailure::ConnectionRefused => {
                dial_target(ctx, hook).map(|t| format!("dial tcp {t}: connect: connection refused"))
            }
        };
        let cause = cause.unwrap_or_else(|e| e);
        let latency_ms =
            if *failure == WebhookFailure::Timeout { hook.timeout_seconds.clamp(1, 30) as u64 * 1000 } else { 1 };
        Answer::Failed { error: format!("Post \"{url}\": {cause}"), latency_ms }
    };
    let Some(server) = server else { return down(&WebhookFailure::ConnectionRefused) };
    match &server.behaviour {
        WebhookBehaviour::Allow {} => Answer::Allowed { patch: None, warnings: vec![] },
        WebhookBehaviour::Down { failure } => down(failure),
        WebhookBehaviour::Deny { code, reason, message } => Answer::Denied {
            code: code.unwrap_or(403),
            reason: reason.clone().unwrap_or_else(|| "Forbidden".into()),
            message: message.clone(),
        },
        WebhookBehaviour::DenyImages { policy: ImagePolicy::LatestOrUntagged } => {
            let problems = unpinned_images(object);
            if problems.is_empty() {
                Answer::Allowed { patch: None, warnings: vec![] }
            } else {
                Answer::Denied { code: 403, reason: "Forbidden".into(), message: problems.join("; ") }
            }
        }
        WebhookBehaviour::Patch { patch } => Answer::Allowed { patch: Some(patch.clone()), warnings: vec![] },
        WebhookBehaviour::AddLabels(labels) => {
            let mut ops = Vec::new();
            map_patch(&mut ops, object.pointer("/metadata/labels"), "/metadata/labels", labels);
            Answer::Allowed { patch: (!ops.is_empty()).then(|| Value::Array(ops)), warnings: vec![] }
        }
        WebhookBehaviour::InjectSidecar { container, volumes, annotations } => {
            let name = container.get("name").and_then(Value::as_str).unwrap_or("");
            let Some(spec) = object.get("spec") else { return Answer::Allowed { patch: None, warnings: vec![] } };
            let present = spec
                .get("containers")
                .and_then(Value::as_array)
                .is_some_and(|cs| cs.iter().any(|c| c.get("name").and_then(Value::as_str) == Some(name)));
            if present {
                return Answer::Allowed { patch: None, warnings: vec![] };
            }
            let mut ops = vec![json!({"op": "add", "path": "/spec/containers/-", "value": container})];
            if !volumes.is_empty() {
                if spec.get("volumes").is_none_or(Value::is_null) {
                    ops.push(json!({"op": "add", "path": "/spec/volumes", "value": volumes}));
                } else {
                    for v in volumes {
                        ops.push(json!({"op": "add", "path": "/spec/volumes/-", "value": v}));
                    }
                }
            }
            map_patch(&mut ops, object.pointer("/metadata/annotations"), "/metadata/annotations", annotations);
            Answer::Allowed { patch: Some(Value::Array(ops)), warnings: vec![] }
        }
    }
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding (how the patch travels in the AdmissionReview).
pub(crate) fn base64(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = ((b[0] as u32) << 16) | ((b[1] as u32) << 8) | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(BASE64[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// One webhook invoked: the trace record and what it means for the request.
struct Invocation {
    call: WebhookCall,
    result: Result<Option<Value>, Rejection>,
    warnings: Vec<String>,
    /// A call failure that `failurePolicy: Ignore` let pass.
    failed_open: bool,
}

fn invoke(ctx: &Context, hook: &Hook, attrs: &Attributes, obj: &Object, round: u32, mutating: bool) -> Invocation {
    let url = call_url(hook);
    let uid = ctx.uuid();
    let request = review_request(ctx, attrs, obj, &uid);
    let server = ctx.webhook_servers.iter().find(|s| s.webhook == hook.name);
    let mut call = WebhookCall {
        configuration: hook.configuration.clone(),
        webhook: hook.name.clone(),
        url: url.clone(),
        round,
        request: serde_json::to_string_pretty(&request).unwrap_or_default(),
        response: None,
        patch: None,
        outcome: String::new(),
        latency_ms: server.map(|s| s.latency_ms).unwrap_or_else(default_latency),
    };
    let ignore = hook.failure_policy == "Ignore";
    let call_failed = |call: &mut WebhookCall, reason: String| -> (Result<Option<Value>, Rejection>, bool) {
        let err = format!("failed calling webhook \"{}\": {reason}", hook.name);
        if ignore {
            call.outcome = format!("failed, ignored (failurePolicy: Ignore): {err}");
            (Ok(None), true)
        } else {
            call.outcome = format!("failed (failurePolicy: Fail): {err}");
            (Err(Rejection::internal_error(&err)), false)
        }
    };
    if attrs.dry_run && !matches!(hook.side_effects.as_str(), "None" | "NoneOnDryRun") {
        let r = Rejection::bad_request(&format!("admission webhook \"{}\" does not support dry run", hook.name));
        call.outcome = format!("not called: {}", r.message);
        call.latency_ms = 0;
        return Invocation { call, result: Err(r), warnings: vec![], failed_open: false };
    }
    let object_json = obj.to_json();
    let server_warnings: Vec<String> = server.map(|s| s.warnings.clone()).unwrap_or_default();
    match answer(ctx, hook, server, &object_json) {
        Answer::Failed { error, latency_ms } => {
            call.latency_ms = latency_ms;
            let (result, failed_open) = call_failed(&mut call, format!("failed to call webhook: {error}"));
            Invocation { call, result, warnings: vec![], failed_open }
        }
        Answer::Denied { code, reason, message } => {
            let response = json!({"kind": "AdmissionReview", "apiVersion": "admission.k8s.io/v1",
                "response": {"uid": uid, "allowed": false, "status": {"code": code, "reason": reason, "message": message}}});
            call.response = Some(serde_json::to_string_pretty(&response).unwrap_or_default());
            let text = format!("admission webhook \"{}\" denied the request: {message}", hook.name);
            call.outcome = format!("denied: {message}");
            let r = Rejection { code: code.max(400), reason, message: text, details: None };
            Invocation { call, result: Err(r), warnings: server_warnings, failed_open: false }
        }
        Answer::Allowed { patch, mut warnings } => {
            warnings.extend(server_warnings);
            let mut resp = serde_json::Map::new();
            resp.insert("uid".into(), uid.clone().into());
            resp.insert("allowed".into(), true.into());
            let patch = if mutating { patch } else { None };
            if let Some(p) = &patch {
                resp.insert("patchType".into(), "JSONPatch".into());
                let bytes = serde_json::to_vec(p).unwrap_or_default();
                resp.insert("patch".into(), base64(&bytes).into());
                call.patch = Some(serde_json::to_string_pretty(p).unwrap_or_default());
            }
            if !warnings.is_empty() {
                resp.insert("warnings".into(), json!(warnings));
            }
            let response = json!({"kind": "AdmissionReview", "apiVersion": "admission.k8s.io/v1", "response": Value::Object(resp)});
            call.response = Some(serde_json::to_string_pretty(&response).unwrap_or_default());
            call.outcome = match &patch {
                Some(p) => format!("allowed with a patch of {} operation(s)", p.as_array().map(Vec::len).unwrap_or(0)),
                None => "allowed".into(),
            };
            Invocation { call, result: Ok(patch), warnings, failed_open: false }
        }
    }
}

/// Applies a webhook's patch to `obj`; the decoded object replaces it (and is defaulted again).
fn apply(ctx: &Context, obj: &mut Object, patch: &Value, hook: &Hook) -> Result<bool, Rejection> {
    let mut doc = obj.to_json();
    let before = doc.clone();
    if let Err(e) = apply_patch(&mut doc, patch) {
        return Err(Rejection::internal_error(&e.0));
    }
    if doc == before {
        return Ok(false);
    }
    let api_version = obj.api_version();
    let kind = obj.kind().to_string();
    let mut new = Object::from_json(&api_version, &kind, doc).map_err(|e| {
        Rejection::internal_error(&format!(
            "admission webhook \"{}\" returned a patch that does not decode: {e}",
            hook.name
        ))
    })?;
    if let Some(d) = ctx.defaulter {
        d(&mut new);
    }
    let changed = new != *obj;
    *obj = new;
    Ok(changed)
}

/// The plain-words reason a webhook ended the request.
fn why_rejected(hook: &Hook, r: &Rejection) -> String {
    if r.code == 500 {
        format!("{} could not be called and its failurePolicy is Fail, so the request fails.", hook.name)
    } else if r.message.ends_with("does not support dry run") {
        format!(
            "{} declares sideEffects {}, so it cannot be called for a dry run, and a dry run cannot skip it.",
            hook.name, hook.side_effects
        )
    } else {
        format!("{} denied the request.", hook.name)
    }
}

/// A note for webhooks whose `matchConditions` the lab cannot evaluate.
fn conditions_note(hook: &Hook) -> Option<String> {
    (hook.match_conditions > 0).then(|| {
        format!(
            "{} has {} matchCondition(s) (CEL expressions); the lab does not evaluate them and calls it as if they matched.",
            hook.name, hook.match_conditions
        )
    })
}

fn describe_skips(skipped: &[(String, String)]) -> String {
    skipped.iter().map(|(n, why)| format!("{n} is not called: {why}.")).collect::<Vec<_>>().join(" ")
}

/// `MutatingAdmissionWebhook`.
pub(crate) struct MutatingAdmissionWebhook;

impl MutatingPlugin for MutatingAdmissionWebhook {
    fn name(&self) -> &'static str {
        "MutatingAdmissionWebhook"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        !exempt(attrs)
    }

    fn admit(&self, ctx: &Context, attrs: &Attributes, obj: &mut Object) -> Decision {
        let hooks = mutating_hooks(ctx);
        let round = ctx.state.borrow().round;
        if hooks.is_empty() {
            return Decision::silent();
        }
        if round == 1 {
            let mut st = ctx.state.borrow_mut();
            if st.last_webhook_output.as_ref() != Some(&obj.to_json()) {
                let all = st.reinvocable_invoked.clone();
                st.to_reinvoke.extend(all);
            }
        }
        let mut decision = Decision::allow("");
        let mut skipped = Vec::new();
        let mut notes = Vec::new();
        for hook in &hooks {
            if let Some(why) = skip_reason(ctx, hook, attrs, obj) {
                skipped.push((hook.name.clone(), why));
                continue;
            }
            let uid = hook.uid();
            if round == 1 && !ctx.state.borrow().to_reinvoke.contains(&uid) {
                continue;
            }
            notes.extend(conditions_note(hook));
            let inv = invoke(ctx, hook, attrs, obj, round, true);
            let ann_key = |prefix: &str| format!("{prefix}round_{round}_index_{}", hook.index);
            decision.warnings.extend(inv.warnings.iter().cloned());
            let mut changed = false;
            let outcome = match inv.result {
                Ok(Some(patch)) => match apply(ctx, obj, &patch, hook) {
                    Ok(c) => {
                        changed = c;
                        if c {
                            let value = json!({"configuration": hook.configuration, "webhook": hook.name, "patch": patch, "patchType": "JSONPatch"});
                            decision = decision.annotate(ann_key("patch.webhook.admission.k8s.io/"), value.to_string());
                        }
                        Ok(())
                    }
                    Err(r) => Err(r),
                },
                Ok(None) => Ok(()),
                Err(r) => Err(r),
            };
            let mutation = json!({"configuration": hook.configuration, "webhook": hook.name, "mutated": changed});
            decision = decision.annotate(ann_key("mutation.webhook.admission.k8s.io/"), mutation.to_string());
            if inv.failed_open {
                decision =
                    decision.annotate(ann_key("failed-open.mutation.webhook.admission.k8s.io/"), hook.name.clone());
                notes.push(format!(
                    "{} could not be reached, but its failurePolicy is Ignore, so the request goes on without it.",
                    hook.name
                ));
            } else if changed {
                notes.push(format!("{} (configuration {}) patched the object.", hook.name, hook.configuration));
            } else if outcome.is_ok() {
                notes.push(format!("{} (configuration {}) allowed it unchanged.", hook.name, hook.configuration));
            }
            decision.webhook_calls.push(inv.call);
            {
                let mut st = ctx.state.borrow_mut();
                if changed {
                    st.should_reinvoke = true;
                    let earlier = st.reinvocable_invoked.clone();
                    st.to_reinvoke.extend(earlier);
                }
                if hook.reinvocation_policy == "IfNeeded" && !st.reinvocable_invoked.contains(&uid) {
                    st.reinvocable_invoked.push(uid.clone());
                }
                if round == 1 {
                    st.to_reinvoke.remove(&uid);
                }
            }
            if let Err(r) = outcome {
                let why = why_rejected(hook, &r);
                decision.rejection = Some(r);
                notes.push(why);
                decision.explanation = [describe_skips(&skipped), notes.join(" ")].join(" ").trim().to_string();
                return decision;
            }
        }
        ctx.state.borrow_mut().last_webhook_output = Some(obj.to_json());
        if decision.webhook_calls.is_empty() {
            if round == 1 {
                return Decision::silent();
            }
            decision.not_applicable = true;
            notes.push(format!("{} mutating webhook(s) configured; none applies to this request.", hooks.len()));
        }
        decision.explanation = [describe_skips(&skipped), notes.join(" ")].join(" ").trim().to_string();
        decision
    }
}

/// `ValidatingAdmissionWebhook`.
pub(crate) struct ValidatingAdmissionWebhook;

impl ValidatingPlugin for ValidatingAdmissionWebhook {
    fn name(&self) -> &'static str {
        "ValidatingAdmissionWebhook"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        !exempt(attrs)
    }

    fn validate(&self, ctx: &Context, attrs: &Attributes, obj: &Object) -> Decision {
        let hooks = validating_hooks(ctx);
        if hooks.is_empty() {
            return Decision::silent();
        }
        let mut decision = Decision::allow("");
        let mut skipped = Vec::new();
        let mut notes = Vec::new();
        let mut first_error: Option<Rejection> = None;
        for hook in &hooks {
            if let Some(why) = skip_reason(ctx, hook, attrs, obj) {
                skipped.push((hook.name.clone(), why));
                continue;
            }
            notes.extend(conditions_note(hook));
            // Upstream numbers the failed-open annotation by position among the webhooks called.
            let called = decision.webhook_calls.len();
            let inv = invoke(ctx, hook, attrs, obj, 0, false);
            decision.warnings.extend(inv.warnings.iter().cloned());
            if inv.failed_open {
                decision = decision.annotate(
                    format!("failed-open.validating.webhook.admission.k8s.io/round_0_index_{called}"),
                    hook.name.clone(),
                );
                notes.push(format!(
                    "{} could not be reached; failurePolicy Ignore lets the request through.",
                    hook.name
                ));
            }
            match inv.result {
                Ok(_) if !inv.failed_open => notes.push(format!("{} allowed it.", hook.name)),
                Ok(_) => {}
                Err(r) => {
                    notes.push(why_rejected(hook, &r));
                    if first_error.is_none() {
                        first_error = Some(r);
                    }
                }
            }
            decision.webhook_calls.push(inv.call);
        }
        if decision.webhook_calls.is_empty() {
            decision.not_applicable = true;
            notes.push(format!("{} validating webhook(s) configured; none applies to this request.", hooks.len()));
        } else if decision.webhook_calls.len() > 1 {
            let slowest = decision.webhook_calls.iter().map(|c| c.latency_ms).max().unwrap_or(0);
            notes.push(format!("The calls run in parallel, so this step takes as long as the slowest ({slowest} ms)."));
        }
        decision.rejection = first_error;
        decision.explanation = [describe_skips(&skipped), notes.join(" ")].join(" ").trim().to_string();
        decision
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_alphabet() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"[{\"op\":\"add\"}]"), "W3sib3AiOiJhZGQifV0=");
    }

    #[test]
    fn image_tags() {
        assert_eq!(image_problem("nginx"), Some("has no tag"));
        assert_eq!(image_problem("nginx:latest"), Some("uses the tag \"latest\""));
        assert_eq!(image_problem("registry:5000/team/app"), Some("has no tag"));
        assert_eq!(image_problem("registry:5000/team/app:1.2"), None);
        assert_eq!(image_problem("nginx@sha256:abc"), None);
    }
}
