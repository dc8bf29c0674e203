//! Admission control: the plugins kube-apiserver runs on every write, after authorization
//! and before the object reaches etcd.
//!
//! # Two passes, one fixed order
//!
//! The API server runs admission twice. The *mutating* pass may change the object: it runs
//! right after decoding and defaulting. The *validating* pass may only say yes or no: it runs
//! after the object passed schema validation, just before the etcd write. Both passes walk the
//! same list of plugins in the same fixed order ([`ALL_ORDERED_PLUGINS`], upstream's
//! `AllOrderedPlugins`); the `--enable-admission-plugins` flag only switches entries on and off,
//! it never reorders them. A plugin takes part in a pass only if it implements that pass's
//! trait: [`MutatingPlugin`] gets `&mut Object`, [`ValidatingPlugin`] gets `&Object`, so a
//! validating plugin cannot change anything by construction. The first plugin that says no ends
//! the request, and its [`Rejection`] is exactly what the client sees.
//!
//! If a mutating webhook changed the object, the whole mutating pass runs a second time
//! ("reinvocation"): the built-in plugins again (they are written to be idempotent, and this is
//! how, say, an injected sidecar still gets the service-account token mounted) and the webhooks
//! that asked for it with `reinvocationPolicy: IfNeeded`.
//!
//! # The lab's chain
//!
//! The lab's cluster enables kube-apiserver's default set plus `NodeRestriction` (kubeadm adds
//! it), see [`Chain::lab`]. In execution order, with what each one teaches:
//!
//! | Plugin | Pass | What a learner sees it do |
//! |---|---|---|
//! | `NamespaceLifecycle` | mutating | Refuses writes into a namespace that does not exist (404) or is being deleted, and refuses to delete `default`, `kube-system` and `kube-public`. It is in the mutating pass although it never mutates: upstream implements it as an admit hook. |
//! | `LimitRanger` | both | Fills missing container requests and limits from the namespace's LimitRanges (and says so in the `kubernetes.io/limit-ranger` annotation), then, in the validating pass, enforces their min, max and limit/request ratio. |
//! | `ServiceAccount` | both | Sets `serviceAccountName: default`, checks the account exists, and mounts the projected `kube-api-access-xxxxx` token volume into every container unless automounting is switched off. |
//! | `NodeRestriction` | mutating | A kubelet may only touch its own Node object and the pods bound to it; it may create mirror pods only. |
//! | `TaintNodesByCondition` | mutating | A new Node starts with the `node.kubernetes.io/not-ready:NoSchedule` taint until the node controller sees it Ready. |
//! | `PodSecurity` | validating | The namespace's Pod Security Standards labels: enforce rejects, warn returns warnings, audit annotates. |
//! | `Priority` | both | Resolves `priorityClassName` (or the global default) into the numeric `priority` and the `preemptionPolicy` the scheduler uses. |
//! | `DefaultTolerationSeconds` | mutating | Every pod tolerates `not-ready` and `unreachable` for 300 s: that is how long a pod stays on a dead node before eviction. |
//! | `DefaultStorageClass` | mutating | A PersistentVolumeClaim without a class gets the cluster's default StorageClass. |
//! | `StorageObjectInUseProtection` | mutating | Claims and volumes get a protection finalizer, so deleting one in use waits. |
//! | `RuntimeClass` | both | Copies the RuntimeClass's pod overhead and scheduling constraints into the pod. |
//! | `DefaultIngressClass` | mutating | An Ingress without a class gets the default IngressClass. |
//! | `MutatingAdmissionWebhook` | mutating | Calls the cluster's mutating webhooks (ordered by configuration name) and applies their JSONPatches. |
//! | `ValidatingAdmissionWebhook` | validating | Calls the validating webhooks (in parallel upstream; listed here in configuration order). |
//! | `ResourceQuota` | validating | Last on purpose: charges the object against the namespace's quotas once nothing else can change it. |
//!
//! The other entries of the default set (certificate plugins, PVC resize, gated alpha plugins,
//! admission policies) are in the chain as named units that handle nothing the lab creates.
//!
//! Webhook servers are simulated: the cluster holds real `MutatingWebhookConfiguration` and
//! `ValidatingWebhookConfiguration` objects (used for matching exactly as upstream does), and the
//! behaviour of the server behind each webhook is declared separately ([`SimulatedWebhook`]).
//!
//! # Calling the chain from the API server
//!
//! ```ignore
//! // Per request, after decoding and defaulting:
//! let servers: Vec<SimulatedWebhook> = settings.webhooks.iter()
//!     .filter_map(|w| SimulatedWebhook::from_value(&serde_json::to_value(w).ok()?).ok())
//!     .collect();
//! let redefault = |o: &mut Object| { crate::defaults::apply_defaults(o); };
//! let ctx = Context::new(&core.store, core.now, &mut core.rng)
//!     .with_webhook_servers(&servers)
//!     .with_defaulter(&redefault);
//! let attrs = Attributes::for_object(Operation::Create, &obj, user)?; // .with_old(..), .with_subresource(..)
//! let chain = Chain::lab();
//! let mutating = chain.run_mutating(&ctx, &attrs, &mut obj);   // stop on mutating.rejection
//! // ... object validation ...
//! let validating = chain.run_validating(&ctx, &attrs, &obj);   // stop on validating.rejection
//! // Status for the client: rejection.to_status(); warnings: mutating.warnings + validating.warnings;
//! // quota usage to write: validating.quota_updates.
//! ```
//!
//! For DELETE pass the stored object as `obj` (and as the old object). Every plugin's answer is
//! an [`AdmissionDetail`] (verdict, JSON-pointer changes, plain-words explanation, warnings,
//! annotations, and for the webhook plugins each AdmissionReview sent and received).

mod diff;
pub(crate) mod jsonpatch;
mod plugins;
mod selector;
mod webhook;

#[cfg(test)]
mod tests;

pub use diff::diff;
pub use jsonpatch::{apply_patch, PatchError};
pub use plugins::QuotaStatusUpdate;
pub use selector::selector_text;
pub use webhook::{ImagePolicy, SimulatedWebhook, WebhookBehaviour, WebhookFailure};

use crate::object::{resource_for_kind, Object, ResourceInfo};
use crate::rng::Rng;
use crate::store::Store;
use crate::trace::{AdmissionDetail, AdmissionStage, AdmissionVerdict, FieldCause, UserInfo, WebhookCall};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// Every admission plugin kube-apiserver knows, in the order it runs them (upstream's
/// `AllOrderedPlugins`, `pkg/kubeapiserver/options/plugins.go`).
pub const ALL_ORDERED_PLUGINS: &[&str] = &[
    "AlwaysAdmit",
    "NamespaceAutoProvision",
    "NamespaceLifecycle",
    "NamespaceExists",
    "LimitPodHardAntiAffinityTopology",
    "LimitRanger",
    "ServiceAccount",
    "NodeRestriction",
    "TaintNodesByCondition",
    "AlwaysPullImages",
    "ImagePolicyWebhook",
    "PodSecurity",
    "PodNodeSelector",
    "Priority",
    "DefaultTolerationSeconds",
    "PodTolerationRestriction",
    "EventRateLimit",
    "ExtendedResourceToleration",
    "DefaultStorageClass",
    "StorageObjectInUseProtection",
    "PodGroupProtection",
    "OwnerReferencesPermissionEnforcement",
    "PersistentVolumeClaimResize",
    "RuntimeClass",
    "CertificateApproval",
    "CertificateSigning",
    "ClusterTrustBundleAttest",
    "CertificateSubjectRestriction",
    "DefaultIngressClass",
    "DenyServiceExternalIPs",
    "PodTopologyLabels",
    "PodGroupWorkloadExists",
    "NodeDeclaredFeatureValidator",
    "JobValidation",
    "PodResizeValidator",
    "MutatingAdmissionPolicy",
    "MutatingAdmissionWebhook",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionWebhook",
    "ResourceQuota",
    "AlwaysDeny",
];

/// The plugins kube-apiserver enables when `--enable-admission-plugins` is not given
/// (upstream's `DefaultOffAdmissionPlugins` complement), in no particular order.
pub const DEFAULT_ENABLED_PLUGINS: &[&str] = &[
    "NamespaceLifecycle",
    "LimitRanger",
    "ServiceAccount",
    "DefaultStorageClass",
    "PersistentVolumeClaimResize",
    "DefaultTolerationSeconds",
    "MutatingAdmissionWebhook",
    "ValidatingAdmissionWebhook",
    "ResourceQuota",
    "StorageObjectInUseProtection",
    "PodGroupProtection",
    "Priority",
    "TaintNodesByCondition",
    "RuntimeClass",
    "CertificateApproval",
    "CertificateSigning",
    "ClusterTrustBundleAttest",
    "CertificateSubjectRestriction",
    "DefaultIngressClass",
    "PodSecurity",
    "PodTopologyLabels",
    "MutatingAdmissionPolicy",
    "ValidatingAdmissionPolicy",
    "PodGroupWorkloadExists",
    "NodeDeclaredFeatureValidator",
    "JobValidation",
    "PodResizeValidator",
];

/// What kubeadm adds to the defaults (`--enable-admission-plugins=NodeRestriction`).
pub const KUBEADM_EXTRA_PLUGINS: &[&str] = &["NodeRestriction"];

/// The operation being admitted (`admission.Operation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    Create,
    Update,
    Delete,
    Connect,
}

impl Operation {
    /// `CREATE`, `UPDATE`, `DELETE`, `CONNECT`, as AdmissionReview and webhook rules spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Create => "CREATE",
            Operation::Update => "UPDATE",
            Operation::Delete => "DELETE",
            Operation::Connect => "CONNECT",
        }
    }
}

/// What admission knows about the request (`admission.Attributes`).
#[derive(Clone, Debug, PartialEq)]
pub struct Attributes<'a> {
    pub operation: Operation,
    /// The resource of the URL (`pods`, `deployments.apps`).
    pub resource: &'static ResourceInfo,
    /// `status`, `binding`, `eviction`, ... or empty.
    pub subresource: String,
    /// The kind of the object in the request body (a `Binding` for `pods/binding`).
    pub kind: String,
    /// Empty for cluster-scoped resources.
    pub namespace: String,
    /// The object's name (for a create, the name in the body; empty with only `generateName`).
    pub name: String,
    pub user: &'a UserInfo,
    pub dry_run: bool,
    /// The stored object, for UPDATE and DELETE (borrowed: the chain only reads it).
    pub old_object: Option<&'a Object>,
}

impl<'a> Attributes<'a> {
    /// Attributes for `operation` on `obj` (its resource, kind, namespace and name), by `user`.
    /// Returns `None` for a kind the API server does not know.
    pub fn for_object(operation: Operation, obj: &Object, user: &'a UserInfo) -> Option<Attributes<'a>> {
        let resource = obj.resource().or_else(|| resource_for_kind(obj.kind()))?;
        Some(Attributes {
            operation,
            resource,
            subresource: String::new(),
            kind: obj.kind().to_string(),
            namespace: if resource.namespaced { obj.namespace().unwrap_or("").to_string() } else { String::new() },
            name: obj.name().to_string(),
            user,
            dry_run: false,
            old_object: None,
        })
    }

    pub fn with_old(mut self, old: &'a Object) -> Attributes<'a> {
        self.old_object = Some(old);
        self
    }

    pub fn with_subresource(mut self, subresource: &str) -> Attributes<'a> {
        self.subresource = subresource.to_string();
        self
    }

    pub fn with_dry_run(mut self, dry_run: bool) -> Attributes<'a> {
        self.dry_run = dry_run;
        self
    }

    /// True for the resource `plural` of the core group (`pods`, `nodes`, ...), any subresource.
    pub fn is_core(&self, plural: &str) -> bool {
        self.resource.group.is_empty() && self.resource.plural == plural
    }

    /// True for `group`/`plural` without a subresource.
    pub fn is_main(&self, group: &str, plural: &str) -> bool {
        self.resource.group == group && self.resource.plural == plural && self.subresource.is_empty()
    }

    /// The name upstream puts in admission errors: the request's name, else the object's name,
    /// else its `generateName` (name generation has not happened yet), else `Unknown`.
    pub fn error_name(&self, obj: Option<&Object>) -> String {
        if !self.name.is_empty() {
            return self.name.clone();
        }
        if let Some(o) = obj {
            if !o.name().is_empty() {
                return o.name().to_string();
            }
            if let Some(g) = o.meta().generate_name.as_deref().filter(|g| !g.is_empty()) {
                return g.to_string();
            }
        }
        "Unknown".to_string()
    }

    /// `admission.NewForbidden`: 403 `<resource> "<name>" is forbidden: <err>`.
    pub fn forbidden(&self, obj: Option<&Object>, err: impl std::fmt::Display) -> Rejection {
        Rejection::forbidden(self.resource.group, self.resource.plural, &self.error_name(obj), &err.to_string())
    }
}

/// The failure Status a client receives (`metav1.Status`): code, reason, message and details.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub code: u16,
    /// `Forbidden`, `NotFound`, `InternalError`, `BadRequest`, or whatever a webhook said
    /// (possibly empty).
    pub reason: String,
    pub message: String,
    pub details: Option<Box<RejectionDetails>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RejectionDetails {
    pub name: String,
    pub group: String,
    /// Upstream puts the resource here (`pods`), not the kind.
    pub kind: String,
    pub causes: Vec<FieldCause>,
}

impl Rejection {
    fn qualified(group: &str, resource: &str) -> String {
        if group.is_empty() {
            resource.to_string()
        } else {
            format!("{resource}.{group}")
        }
    }

    /// `apierrors.NewForbidden`.
    pub fn forbidden(group: &str, resource: &str, name: &str, err: &str) -> Rejection {
        let r = Self::qualified(group, resource);
        let message = if r.is_empty() {
            format!("forbidden: {err}")
        } else if name.is_empty() {
            format!("{r} is forbidden: {err}")
        } else {
            format!("{r} \"{name}\" is forbidden: {err}")
        };
        Rejection {
            code: 403,
            reason: "Forbidden".into(),
            message,
            details: Some(Box::new(RejectionDetails {
                name: name.into(),
                group: group.into(),
                kind: resource.into(),
                causes: vec![],
            })),
        }
    }

    /// `apierrors.NewNotFound`.
    pub fn not_found(group: &str, resource: &str, name: &str) -> Rejection {
        Rejection {
            code: 404,
            reason: "NotFound".into(),
            message: format!("{} \"{name}\" not found", Self::qualified(group, resource)),
            details: Some(Box::new(RejectionDetails {
                name: name.into(),
                group: group.into(),
                kind: resource.into(),
                causes: vec![],
            })),
        }
    }

    /// `apierrors.NewInternalError`.
    pub fn internal_error(err: &str) -> Rejection {
        Rejection {
            code: 500,
            reason: "InternalError".into(),
            message: format!("Internal error occurred: {err}"),
            details: Some(Box::new(RejectionDetails {
                causes: vec![FieldCause { reason: String::new(), message: err.into(), field: String::new() }],
                ..RejectionDetails::default()
            })),
        }
    }

    /// `apierrors.NewBadRequest`.
    pub fn bad_request(message: &str) -> Rejection {
        Rejection { code: 400, reason: "BadRequest".into(), message: message.into(), details: None }
    }

    /// The API server's error type for [`crate::apiserver::ApiResponse`].
    pub fn to_api_error(&self) -> crate::apiserver::ApiError {
        self.to_status()
    }

    /// The same failure as the API server's [`crate::errors::Status`].
    pub fn to_status(&self) -> crate::errors::Status {
        use crate::errors::StatusReason as R;
        let reason = match self.reason.as_str() {
            "NotFound" => R::NotFound,
            "AlreadyExists" => R::AlreadyExists,
            "Conflict" => R::Conflict,
            "Forbidden" => R::Forbidden,
            "Invalid" => R::Invalid,
            "BadRequest" => R::BadRequest,
            "Unauthorized" => R::Unauthorized,
            "InternalError" => R::InternalError,
            "MethodNotAllowed" => R::MethodNotAllowed,
            _ => R::Unknown,
        };
        crate::errors::Status {
            code: self.code,
            reason,
            message: self.message.clone(),
            details: self.details.as_ref().map(|d| crate::errors::StatusDetails {
                name: d.name.clone(),
                group: d.group.clone(),
                kind: d.kind.clone(),
                causes: d.causes.clone(),
            }),
        }
    }

    /// The Status object as JSON, as the response body carries it.
    pub fn to_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        m.insert("kind".into(), "Status".into());
        m.insert("apiVersion".into(), "v1".into());
        m.insert("metadata".into(), serde_json::json!({}));
        m.insert("status".into(), "Failure".into());
        m.insert("message".into(), self.message.clone().into());
        if !self.reason.is_empty() {
            m.insert("reason".into(), self.reason.clone().into());
        }
        if let Some(d) = &self.details {
            let mut dm = serde_json::Map::new();
            if !d.name.is_empty() {
                dm.insert("name".into(), d.name.clone().into());
            }
            if !d.group.is_empty() {
                dm.insert("group".into(), d.group.clone().into());
            }
            if !d.kind.is_empty() {
                dm.insert("kind".into(), d.kind.clone().into());
            }
            if !d.causes.is_empty() {
                let causes: Vec<serde_json::Value> = d
                    .causes
                    .iter()
                    .map(|c| {
                        let mut cm = serde_json::Map::new();
                        if !c.reason.is_empty() {
                            cm.insert("reason".into(), c.reason.clone().into());
                        }
                        cm.insert("message".into(), c.message.clone().into());
                        if !c.field.is_empty() {
                            cm.insert("field".into(), c.field.clone().into());
                        }
                        serde_json::Value::Object(cm)
                    })
                    .collect();
                dm.insert("causes".into(), causes.into());
            }
            m.insert("details".into(), serde_json::Value::Object(dm));
        }
        m.insert("code".into(), self.code.into());
        serde_json::Value::Object(m)
    }
}

/// One plugin's answer for one request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decision {
    /// `Some` ends the request with this Status.
    pub rejection: Option<Rejection>,
    /// The plugin looked at the request but had nothing to do (no LimitRange, no quota, ...).
    pub not_applicable: bool,
    /// Nothing worth a line in the trace (e.g. no webhook configurations at all).
    pub silent: bool,
    /// Why, in plain words.
    pub explanation: String,
    /// `Warning:` headers for the client.
    pub warnings: Vec<String>,
    /// Annotations the plugin added (audit annotations, or the object annotation it wrote).
    pub annotations: Vec<(String, String)>,
    /// The webhooks called, for the webhook plugins.
    pub webhook_calls: Vec<WebhookCall>,
    /// New `status.used` of the quotas the object was charged to (ResourceQuota only).
    pub quota_updates: Vec<QuotaStatusUpdate>,
}

impl Decision {
    pub fn allow(explanation: impl Into<String>) -> Decision {
        Decision { explanation: explanation.into(), ..Decision::default() }
    }

    pub fn not_applicable(explanation: impl Into<String>) -> Decision {
        Decision { not_applicable: true, explanation: explanation.into(), ..Decision::default() }
    }

    pub fn silent() -> Decision {
        Decision { silent: true, ..Decision::default() }
    }

    pub fn deny(rejection: Rejection, explanation: impl Into<String>) -> Decision {
        Decision { rejection: Some(rejection), explanation: explanation.into(), ..Decision::default() }
    }

    pub fn warn(mut self, warning: impl Into<String>) -> Decision {
        self.warnings.push(warning.into());
        self
    }

    pub fn annotate(mut self, key: impl Into<String>, value: impl Into<String>) -> Decision {
        self.annotations.push((key.into(), value.into()));
        self
    }
}

/// A plugin of the mutating pass: it may change the object.
pub trait MutatingPlugin: Send + Sync {
    /// Upstream's plugin name.
    fn name(&self) -> &'static str;
    /// Whether this request concerns the plugin at all (operation, resource, subresource).
    fn handles(&self, attrs: &Attributes) -> bool;
    fn admit(&self, ctx: &Context, attrs: &Attributes, obj: &mut Object) -> Decision;
}

/// A plugin of the validating pass: it sees the object read-only.
pub trait ValidatingPlugin: Send + Sync {
    fn name(&self) -> &'static str;
    fn handles(&self, attrs: &Attributes) -> bool;
    fn validate(&self, ctx: &Context, attrs: &Attributes, obj: &Object) -> Decision;
}

/// Per-request bookkeeping shared by the passes (reinvocation of mutating webhooks).
#[derive(Clone, Debug, Default)]
pub(crate) struct RequestState {
    /// 0 for the first mutating pass, 1 for the reinvocation.
    pub round: u32,
    /// A webhook changed the object: run the mutating pass again.
    pub should_reinvoke: bool,
    /// Webhooks with `reinvocationPolicy: IfNeeded` called so far, by uid.
    pub reinvocable_invoked: Vec<String>,
    /// Those that must be called again in round 1.
    pub to_reinvoke: BTreeSet<String>,
    /// The object as the last webhook left it.
    pub last_webhook_output: Option<serde_json::Value>,
}

/// What a plugin may read: the cluster as the API server's informers see it, the logical time,
/// randomness for generated names, and the lab's simulated webhook servers.
pub struct Context<'a> {
    pub store: &'a Store<Object>,
    /// Logical time in milliseconds.
    pub now_ms: u64,
    rng: RefCell<&'a mut Rng>,
    pub webhook_servers: &'a [SimulatedWebhook],
    /// PodSecurity's configuration (defaults for unlabelled namespaces, exemptions).
    pub pod_security: crate::pod_security::PodSecurityConfig,
    /// Re-applies defaulting after a webhook patch (upstream defaults the patched object).
    pub defaulter: Option<&'a dyn Fn(&mut Object)>,
    /// Whether the pass is shown step by step (the default): a mutation's changes are listed
    /// path by path with the old and new values as YAML, and every decision says why. A
    /// request whose admission steps the trace does not show (a component's, summarised in
    /// one step that names the plugins that mutated) only needs the verdicts: without this,
    /// each mutation is one change at `/` with no values, and the explanations plugins build
    /// with [`Context::explain`] are left empty.
    pub detailed: bool,
    /// Whether the store may hold webhook configurations (the default). The API server
    /// clears it when it knows there are none, so the webhook plugins skip listing them.
    pub webhook_configurations: bool,
    pub(crate) state: RefCell<RequestState>,
}

impl<'a> Context<'a> {
    pub fn new(store: &'a Store<Object>, now_ms: u64, rng: &'a mut Rng) -> Context<'a> {
        Context {
            store,
            now_ms,
            rng: RefCell::new(rng),
            webhook_servers: &[],
            pod_security: crate::pod_security::PodSecurityConfig::default(),
            defaulter: None,
            detailed: true,
            webhook_configurations: true,
            state: RefCell::new(RequestState::default()),
        }
    }

    pub fn with_webhook_servers(mut self, servers: &'a [SimulatedWebhook]) -> Context<'a> {
        self.webhook_servers = servers;
        self
    }

    /// For a store known to hold no Mutating/ValidatingWebhookConfiguration: the webhook
    /// plugins then call nothing without listing the configurations.
    pub fn without_webhook_configurations(mut self) -> Context<'a> {
        self.webhook_configurations = false;
        self
    }

    pub fn with_pod_security(mut self, config: crate::pod_security::PodSecurityConfig) -> Context<'a> {
        self.pod_security = config;
        self
    }

    pub fn with_defaulter(mut self, defaulter: &'a dyn Fn(&mut Object)) -> Context<'a> {
        self.defaulter = Some(defaulter);
        self
    }

    /// A pass whose steps are not shown (see [`Context::detailed`]).
    pub fn summarised(mut self) -> Context<'a> {
        self.detailed = false;
        self
    }

    /// A decision's explanation, built only when the pass is [`Context::detailed`].
    pub fn explain(&self, text: impl FnOnce() -> String) -> String {
        if self.detailed {
            text()
        } else {
            String::new()
        }
    }

    /// `n` random characters as `names.SimpleNameGenerator` draws them.
    pub fn random_suffix(&self, n: usize) -> String {
        self.rng.borrow_mut().name_suffix(n)
    }

    pub fn uuid(&self) -> String {
        self.rng.borrow_mut().uuid()
    }

    /// The stored object of `kind` (any version) named `name`.
    pub fn get(&self, kind: &str, namespace: Option<&str>, name: &str) -> Option<&'a Object> {
        let info = resource_for_kind(kind)?;
        let ns = if info.namespaced { namespace } else { None };
        self.store.get(&info.etcd_key(ns, name)).map(|(o, _)| o)
    }

    /// Every stored object of `kind` (in `namespace`, for namespaced kinds), in key order.
    pub fn list(&self, kind: &str, namespace: Option<&str>) -> Vec<&'a Object> {
        let Some(info) = resource_for_kind(kind) else { return vec![] };
        self.store.list(&info.list_prefix(namespace)).into_iter().map(|(_, o, _)| o).collect()
    }

    /// A stored object read as the typed form `T` (works for kinds stored unstructured too).
    pub fn typed<T: serde::de::DeserializeOwned>(&self, obj: &Object) -> Option<T> {
        crate::decode::from_value(&obj.to_json()).ok()
    }
}

/// The result of one pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassOutcome {
    /// One entry per plugin that handled the request, in the order they ran; in a summarised
    /// pass ([`Context::summarised`]), only the plugins that changed the object.
    pub details: Vec<AdmissionDetail>,
    /// The Status the client receives, when a plugin said no.
    pub rejection: Option<Rejection>,
    /// Every warning, for the response's `Warning:` headers.
    pub warnings: Vec<String>,
    /// Every annotation the plugins added.
    pub annotations: Vec<(String, String)>,
    /// New quota usage to record (the API server writes `status.used`).
    pub quota_updates: Vec<QuotaStatusUpdate>,
}

impl PassOutcome {
    pub fn allowed(&self) -> bool {
        self.rejection.is_none()
    }
}

struct Slot {
    name: &'static str,
    mutating: Option<Box<dyn MutatingPlugin>>,
    validating: Option<Box<dyn ValidatingPlugin>>,
}

/// The admission chain as data: the enabled plugins in upstream's order.
pub struct Chain {
    slots: Vec<Slot>,
}

impl std::fmt::Debug for Chain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.slots.iter().map(|s| s.name)).finish()
    }
}

impl Chain {
    /// The lab's kube-apiserver: the default set plus NodeRestriction.
    pub fn lab() -> Chain {
        let mut names: Vec<&str> = DEFAULT_ENABLED_PLUGINS.to_vec();
        names.extend_from_slice(KUBEADM_EXTRA_PLUGINS);
        Chain::with_enabled(&names).unwrap_or(Chain { slots: vec![] })
    }

    /// A chain of the named plugins, run in upstream's order whatever the order given (as the
    /// `--enable-admission-plugins` flag does). Unknown names are an error, as at startup.
    pub fn with_enabled(names: &[&str]) -> Result<Chain, String> {
        for n in names {
            if !ALL_ORDERED_PLUGINS.contains(n) {
                return Err(format!("admission-control plugin \"{n}\" is unknown"));
            }
        }
        let slots = ALL_ORDERED_PLUGINS
            .iter()
            .filter(|n| names.contains(n))
            .map(|&name| {
                let (mutating, validating) = plugins::build(name);
                Slot { name, mutating, validating }
            })
            .collect();
        Ok(Chain { slots })
    }

    /// The enabled plugins in execution order.
    pub fn enabled(&self) -> Vec<&'static str> {
        self.slots.iter().map(|s| s.name).collect()
    }

    /// The plugins of the mutating pass, in order.
    pub fn mutating(&self) -> Vec<&'static str> {
        self.slots.iter().filter(|s| s.mutating.is_some()).map(|s| s.name).collect()
    }

    /// The plugins of the validating pass, in order.
    pub fn validating(&self) -> Vec<&'static str> {
        self.slots.iter().filter(|s| s.validating.is_some()).map(|s| s.name).collect()
    }

    /// The mutating pass, with upstream's reinvocation when a webhook changed the object.
    /// For DELETE, pass the stored object as `obj`.
    pub fn run_mutating(&self, ctx: &Context, attrs: &Attributes, obj: &mut Object) -> PassOutcome {
        let mut out = PassOutcome::default();
        {
            let mut st = ctx.state.borrow_mut();
            *st = RequestState::default();
        }
        // Serialising and diffing the object around every plugin dominated a write's cost;
        // most plugins change nothing, and an object equal to its copy serialises the same
        // (so its diff is empty): the JSON forms are only built when the object changed.
        // `copy` is the object as the next plugin gets it.
        let mut copy = obj.clone();
        // The JSON of `copy` when the last change made it (the next change's "before").
        let mut copy_json: Option<serde_json::Value> = None;
        for round in 0..2 {
            ctx.state.borrow_mut().round = round;
            for slot in &self.slots {
                let Some(plugin) = &slot.mutating else { continue };
                if !plugin.handles(attrs) {
                    continue;
                }
                let mut decision = plugin.admit(ctx, attrs, obj);
                let unchanged = *obj == copy;
                if decision.silent && unchanged && decision.rejection.is_none() {
                    continue;
                }
                let changes = if unchanged {
                    Vec::new()
                } else if !ctx.detailed {
                    // Unequal objects serialise unequally: the change is certain, and its
                    // paths are not needed.
                    copy = obj.clone();
                    vec![crate::trace::Change { path: "/".into(), before: None, after: None }]
                } else {
                    let before = copy_json.take().unwrap_or_else(|| copy.to_json());
                    let after = obj.to_json();
                    copy = obj.clone();
                    let changes = diff(&before, &after);
                    copy_json = Some(after);
                    if decision.silent && changes.is_empty() && decision.rejection.is_none() {
                        continue;
                    }
                    changes
                };
                if round == 1 {
                    // The second pass only shows what it changed, refused or called.
                    if changes.is_empty() && decision.rejection.is_none() && decision.webhook_calls.is_empty() {
                        continue;
                    }
                    decision.explanation = format!("Reinvocation: {}", decision.explanation);
                }
                let stop = record(&mut out, ctx.detailed, AdmissionStage::Mutating, plugin.name(), decision, changes);
                if stop {
                    return out;
                }
            }
            if round == 0 && !ctx.state.borrow().should_reinvoke {
                break;
            }
        }
        out
    }

    /// The validating pass: every validating plugin in order, stopping at the first denial.
    pub fn run_validating(&self, ctx: &Context, attrs: &Attributes, obj: &Object) -> PassOutcome {
        let mut out = PassOutcome::default();
        for slot in &self.slots {
            let Some(plugin) = &slot.validating else { continue };
            if !plugin.handles(attrs) {
                continue;
            }
            let decision = plugin.validate(ctx, attrs, obj);
            if decision.silent && decision.rejection.is_none() {
                continue;
            }
            if record(&mut out, ctx.detailed, AdmissionStage::Validating, plugin.name(), decision, vec![]) {
                return out;
            }
        }
        out
    }
}

/// Adds one plugin's decision to the outcome; true when it ended the request.
fn record(
    out: &mut PassOutcome,
    detailed: bool,
    stage: AdmissionStage,
    plugin: &str,
    decision: Decision,
    changes: Vec<crate::trace::Change>,
) -> bool {
    let verdict = if decision.rejection.is_some() {
        AdmissionVerdict::Denied
    } else if !changes.is_empty() {
        AdmissionVerdict::Mutated
    } else if decision.not_applicable {
        AdmissionVerdict::NotApplicable
    } else {
        AdmissionVerdict::Allowed
    };
    out.warnings.extend(decision.warnings.iter().cloned());
    out.annotations.extend(decision.annotations.iter().cloned());
    out.quota_updates.extend(decision.quota_updates.iter().cloned());
    // A summarised pass shows no step per plugin: only who changed the object is named.
    if !detailed && changes.is_empty() {
        if let Some(r) = decision.rejection {
            out.rejection = Some(r);
            return true;
        }
        return false;
    }
    let mut detail = AdmissionDetail::new(plugin, stage, verdict);
    detail.changes = changes;
    detail.explanation = decision.explanation;
    detail.message = decision.rejection.as_ref().map(|r| r.message.clone());
    detail.warnings = decision.warnings;
    detail.annotations = decision.annotations;
    detail.webhook_calls = decision.webhook_calls;
    out.details.push(detail);
    if let Some(r) = decision.rejection {
        out.rejection = Some(r);
        return true;
    }
    false
}

/// Joins error messages as `utilerrors.NewAggregate` prints them: one bare, several as
/// `[a, b]`, duplicates dropped.
pub(crate) fn aggregate(msgs: &[String]) -> String {
    let mut seen: Vec<&String> = Vec::new();
    for m in msgs {
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    match seen.len() {
        0 => String::new(),
        1 => seen[0].clone(),
        _ => format!("[{}]", seen.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")),
    }
}
