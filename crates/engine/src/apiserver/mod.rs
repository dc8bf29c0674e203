//! kube-apiserver: every read and write of every component goes through [`handle`].
//!
//! The request pipeline, in upstream's order (facts §1):
//!
//! 1. **authentication** ([`authn`]): who is calling; a failure is 401;
//! 2. **impersonation** (`--as`/`--as-group`), each target authorized with the `impersonate`
//!    verb first;
//! 3. **authorization** ([`authz`]): `system:masters`, then the Node authorizer, then RBAC; a
//!    denial is 403 with upstream's Forbidden text;
//! 4. **decoding and defaulting** (strict decoding for kubectl's `fieldValidation=Strict`), and
//!    the check that the object's namespace matches the URL's;
//! 5. **mutating admission**;
//! 6. system metadata (`uid`, `creationTimestamp`, a name from `generateName`), the registry
//!    strategy ([`strategy`]: status reset, `qosClass`, `generation`, ...), then **validation**
//!    (422 Invalid);
//! 7. **validating admission**;
//! 8. the **etcd write**: create-if-absent (409 AlreadyExists), update with the read revision as
//!    precondition (409 Conflict), or delete; `resourceVersion` is the key's revision and is
//!    never stored in the value (a create that sets it is refused: `resourceVersion should not
//!    be set on objects to be created`, a plain storage error that reaches the client as a 500
//!    without a reason, as upstream's generic error path does);
//! 9. the **response**: 201 Created / 200 OK with the stored object, or a Status.
//!
//! Requests marked [`ApiRequest::verbose`] (the learner's, sent by kubectl) record one step per
//! stage: Request, Authentication, Authorization (one per impersonation check, then the
//! request's own), Validation (decode and defaults), one Mutating admission step per plugin that
//! handled the request, Validation (strategy and validation errors), one Validating admission
//! step per plugin, Etcd, Response. A rejection ends the request with the client-visible Status
//! and the trace keeps every step up to it. The components' routine requests record a single
//! Etcd-phase step ([`crate::trace::ApiCallDetail`]) naming the identity, the authorizer's
//! decision, the admission plugins that changed the object and the etcd write — for every
//! write, and for any request that failed; successful reads of components record nothing (they
//! stand for informer-cache reads).
//!
//! Subresources: `status` (writes change only `status`; writes to the main resource keep the
//! stored status), `binding` for Pods (the scheduler's Binding: sets `spec.nodeName` and
//! `PodScheduled=True`; 409 `Operation cannot be fulfilled on pods/binding "web": pod web is
//! already assigned to node "kind-worker"` when already bound; the response carries the updated
//! Pod where upstream answers a `Status` of success), `eviction` for Pods (a policy/v1 Eviction:
//! the PodDisruptionBudget that selects the Pod must allow a disruption, which the eviction
//! takes before the Pod's graceful delete; 429 TooManyRequests otherwise, see
//! `handlers::eviction`), and `finalize` for Namespaces.
//!
//! Patches (Verb::Patch) are strategic merge patches, simplified as [`strategic`] documents.
//!
//! Updates are validated by the kind's update rules where the lab has them (a Pod's spec, a
//! Deployment's or ReplicaSet's selector) and otherwise as the object they produce
//! ([`hooks::validate`]).
//!
//! Dry runs (`dryRun=All`, kubectl's `--dry-run=server`): a create, an update or patch, a
//! delete and an eviction go through every stage (admission is told it is a dry run: webhooks
//! whose `sideEffects` are not `None`/`NoneOnDryRun` refuse it, ResourceQuota checks but does
//! not charge) and answer as they would, writing nothing to etcd.
//!
//! Not modelled: `metadata.managedFields` (field managers are not tracked), watch and list
//! pagination.
//! Requests of kinds the lab has no type for are stored as given after the generic steps.
//! Deletion is graceful for Pods bound to a node (deletionTimestamp + grace period, the kubelet
//! deletes with grace 0), waits for `metadata.finalizers` (and a Namespace's
//! `spec.finalizers`), and is otherwise immediate; an update that removes the last finalizer of
//! an object being deleted deletes it.

// Status is the client-visible failure; it travels by value through the pipeline's Results.
#![allow(clippy::result_large_err)]

pub mod authn;
pub mod authz;
pub mod bootstrap;
mod handlers;
pub mod hooks;
mod server;
pub mod strategic;
pub mod strategy;

pub use crate::errors::Status;
pub use server::{ApiServer, Parts, Settings, Unreachable};

use crate::errors::{GroupResource, StatusReason};
use crate::object::{Object, ResourceInfo};
use crate::sim::{object_ref, Core, StepBuilder};
use crate::trace::{
    AdmissionDetail, AdmissionStage, ApiCallDetail, AuthenticationDetail, AuthorizationDetail, Component, Detail,
    EtcdDetail, HttpRequestDetail, HttpResponseDetail, ObjectRef, Phase, StepStatus, UserInfo,
};
use serde_json::Value;

/// The name the pipeline's failures had before `errors::Status` existed; kept for callers.
pub type ApiError = Status;

/// The first instant of the lab's logical clock, in Unix milliseconds (2026-01-01T00:00:00Z).
pub const EPOCH_UNIX_MS: i64 = 1_767_225_600_000;

/// The version of every component, and the (illustrative) build commit in user agents.
pub const COMPONENT_VERSION: &str = "v1.37.0";
pub const BUILD_COMMIT: &str = "6a1f3e2";

/// kubectl's User-Agent header.
pub fn kubectl_user_agent() -> String {
    format!("kubectl/{COMPONENT_VERSION} (linux/amd64) kubernetes/{BUILD_COMMIT}")
}

/// The field manager kubectl's client-side apply declares.
pub const KUBECTL_FIELD_MANAGER: &str = "kubectl-client-side-apply";

/// A logical time as the API's timestamp type.
pub fn timestamp(now_ms: u64) -> k8s_openapi::apimachinery::pkg::apis::meta::v1::Time {
    let ms = EPOCH_UNIX_MS + now_ms as i64;
    // Whole seconds: metav1.Time serialises with second precision.
    let ts = k8s_openapi::jiff::Timestamp::from_second(ms.div_euclid(1000)).unwrap_or_default();
    k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(ts)
}

/// How the caller proves who it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    /// An x509 client certificate: CN is the user name, O the groups.
    ClientCertificate { common_name: String, organizations: Vec<String> },
    /// A static or OIDC bearer token, looked up in the cluster's token table.
    BearerToken(String),
    /// A service-account token (projected, bound).
    ServiceAccount { namespace: String, name: String },
    /// No credentials at all.
    Anonymous,
    /// A credential no authenticator accepts: a certificate from another CA, an expired or
    /// revoked token. `what` says which (`client certificate`, `bearer token`).
    Invalid { what: String },
}

/// Who is calling, from which component, and whom they impersonate (`kubectl --as`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    pub component: Component,
    pub node: Option<String>,
    pub credential: Credential,
    /// `--as` / `--as-group`.
    pub impersonate: Option<UserInfo>,
    /// The kubectl command sending the request, when it is not `kubectl apply`.
    pub command: Option<KubectlCommand>,
}

/// What a kubectl command other than apply declares on its requests: its `Kubectl-Command`
/// header, its field manager, whether it asks for strict field validation (the commands with
/// `--validate`), and whether it patches with a JSON merge patch rather than a strategic one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KubectlCommand {
    /// `kubectl label`
    pub name: &'static str,
    /// `kubectl-label`
    pub field_manager: &'static str,
    pub strict: bool,
    pub merge_patch: bool,
    /// `--dry-run=server`: every write the command sends carries `dryRun=All`.
    pub dry_run: bool,
}

impl Caller {
    pub fn new(component: Component, credential: Credential) -> Caller {
        Caller { component, node: None, credential, impersonate: None, command: None }
    }

    /// A kubelet: `system:node:<name>` in `system:nodes`.
    pub fn kubelet(node: &str) -> Caller {
        Caller {
            component: Component::Kubelet,
            node: Some(node.to_string()),
            credential: Credential::ClientCertificate {
                common_name: format!("system:node:{node}"),
                organizations: vec!["system:nodes".to_string()],
            },
            impersonate: None,
            command: None,
        }
    }

    /// A controller of kube-controller-manager, with its own service account of kube-system
    /// (`--use-service-account-credentials`, as kubeadm sets it). A controller of an add-on
    /// that runs in another namespace names its account `namespace:name`
    /// (`local-path-storage:local-path-provisioner-service-account`).
    pub fn controller(service_account: &str) -> Caller {
        let (namespace, name) = service_account.split_once(':').unwrap_or(("kube-system", service_account));
        Caller::new(
            Component::ControllerManager,
            Credential::ServiceAccount { namespace: namespace.to_string(), name: name.to_string() },
        )
    }

    pub fn scheduler() -> Caller {
        Caller::new(
            Component::Scheduler,
            Credential::ClientCertificate { common_name: "system:kube-scheduler".to_string(), organizations: vec![] },
        )
    }

    /// kubectl with the given credential.
    pub fn kubectl(credential: Credential) -> Caller {
        Caller::new(Component::Kubectl, credential)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Get,
    List,
    Create,
    Update,
    Patch,
    Delete,
}

impl Verb {
    /// The RBAC verb.
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::List => "list",
            Verb::Create => "create",
            Verb::Update => "update",
            Verb::Patch => "patch",
            Verb::Delete => "delete",
        }
    }

    /// The HTTP method.
    pub fn method(self) -> &'static str {
        match self {
            Verb::Get | Verb::List => "GET",
            Verb::Create => "POST",
            Verb::Update => "PUT",
            Verb::Patch => "PATCH",
            Verb::Delete => "DELETE",
        }
    }

    fn is_write(self) -> bool {
        !matches!(self, Verb::Get | Verb::List)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ApiRequest {
    pub caller: Caller,
    pub verb: Verb,
    pub resource: &'static ResourceInfo,
    pub namespace: Option<String>,
    pub name: Option<String>,
    /// `status`, `binding`, `eviction`...
    pub subresource: Option<String>,
    /// The body: JSON as the client sent it, or an in-process client's typed object.
    pub body: Option<Body>,
    /// Record every stage as its own step (the learner's requests), or one summary step.
    pub verbose: bool,
    /// The file the object came from, for kubectl's messages.
    pub file: Option<String>,
}

/// A request body.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// JSON exactly as the client sent it (kubectl's requests, patches, DeleteOptions): the
    /// server decodes it, strictly for kubectl.
    Json(Value),
    /// The typed object of an in-process client (a controller, the scheduler, a kubelet).
    /// client-go encodes it and the server decodes the JSON back into the same value, so the
    /// object is handed over as it is ([`hooks::decode_object`] checks that in debug builds).
    /// Such requests are not verbose: nobody reads their bytes.
    Object(Object),
}

impl Body {
    /// The body as JSON (an object is encoded as client-go would send it).
    pub fn json(&self) -> std::borrow::Cow<'_, Value> {
        match self {
            Body::Json(v) => std::borrow::Cow::Borrowed(v),
            Body::Object(o) => std::borrow::Cow::Owned(o.to_json()),
        }
    }

    /// The object this body decodes to, as the resource's endpoint reads it.
    fn decode(self, resource: &'static ResourceInfo, strict: bool) -> Result<Object, Status> {
        match self {
            Body::Json(v) => hooks::decode(resource, &v, strict),
            Body::Object(o) => hooks::decode_object(resource, o),
        }
    }
}

impl ApiRequest {
    /// The request path, as the client sends it.
    pub fn path(&self) -> String {
        let mut p = self.resource.collection_path(self.namespace.as_deref());
        if let Some(n) = self.name.as_deref().filter(|n| !n.is_empty()) {
            if !(self.verb == Verb::Create && self.subresource.is_none()) {
                p.push('/');
                p.push_str(n);
            }
        }
        if let Some(s) = self.subresource.as_deref().filter(|s| !s.is_empty()) {
            p.push('/');
            p.push_str(s);
        }
        p
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ApiResponse {
    pub code: u16,
    /// The object returned. When `revision` is set, it is the stored object without its
    /// `resourceVersion`, which [`ApiResponse::into_object`] fills in: the store shares the
    /// object, so setting it copies the object, and most callers never read it.
    object: Option<Object>,
    revision: Option<u64>,
    /// The Status of a failed request.
    pub error: Option<Status>,
    /// `Warning:` headers for the client.
    pub warnings: Vec<String>,
}

impl ApiResponse {
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// The Status message, or `""`.
    pub fn message(&self) -> &str {
        self.error.as_ref().map(|e| e.message.as_str()).unwrap_or("")
    }

    pub fn reason(&self) -> Option<StatusReason> {
        self.error.as_ref().map(|e| e.reason)
    }

    pub fn is_not_found(&self) -> bool {
        self.reason() == Some(StatusReason::NotFound)
    }

    pub fn is_already_exists(&self) -> bool {
        self.reason() == Some(StatusReason::AlreadyExists)
    }

    pub fn is_conflict(&self) -> bool {
        self.reason() == Some(StatusReason::Conflict)
    }

    /// The object returned, with its `resourceVersion`.
    pub fn into_object(self) -> Option<Object> {
        match (self.object, self.revision) {
            (Some(o), Some(rev)) => Some(with_resource_version(o, rev)),
            (o, _) => o,
        }
    }

    /// [`ApiResponse::into_object`] for a response the caller keeps using.
    pub fn take_object(&mut self) -> Option<Object> {
        let o = self.object.take()?;
        Some(match self.revision.take() {
            Some(rev) => with_resource_version(o, rev),
            None => o,
        })
    }

    /// The returned object as the store holds it, without a copy: when
    /// [`ApiResponse::revision`] is set, without the `resourceVersion` that
    /// [`ApiResponse::into_object`] would fill in from it.
    pub fn stored_object(&self) -> Option<&Object> {
        self.object.as_ref()
    }

    /// The revision the object was stored at, when the returned object is held without its
    /// `resourceVersion` (`None` when the object carries its own, or there is none).
    pub fn revision(&self) -> Option<u64> {
        self.object.as_ref().and(self.revision)
    }

    /// The returned object's `resourceVersion`.
    pub fn resource_version(&self) -> Option<String> {
        match self.revision {
            Some(rev) => Some(rev.to_string()),
            None => self.object.as_ref().and_then(|o| o.meta().resource_version.clone()),
        }
    }

    /// The object returned, for its name and kind: its `resourceVersion` may be unset.
    pub fn object_identity(&self) -> Option<&Object> {
        self.object.as_ref()
    }

    fn success(code: u16, object: Option<Object>) -> ApiResponse {
        ApiResponse { code, object, revision: None, error: None, warnings: vec![] }
    }

    /// A success returning a stored object (held without its version) at `revision`.
    fn stored(code: u16, object: Object, revision: u64) -> ApiResponse {
        ApiResponse { code, object: Some(object), revision: Some(revision), error: None, warnings: vec![] }
    }

    fn failure(status: Status) -> ApiResponse {
        ApiResponse { code: status.code, object: None, revision: None, error: Some(status), warnings: vec![] }
    }
}

/// `resp.error.reason == "AlreadyExists"`: callers may compare a Status reason with its name.
impl PartialEq<&str> for StatusReason {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl From<&str> for StatusReason {
    fn from(reason: &str) -> StatusReason {
        match reason {
            "NotFound" => StatusReason::NotFound,
            "AlreadyExists" => StatusReason::AlreadyExists,
            "Conflict" => StatusReason::Conflict,
            "Forbidden" => StatusReason::Forbidden,
            "Invalid" => StatusReason::Invalid,
            "BadRequest" => StatusReason::BadRequest,
            "Unauthorized" => StatusReason::Unauthorized,
            "InternalError" => StatusReason::InternalError,
            "MethodNotAllowed" => StatusReason::MethodNotAllowed,
            "TooManyRequests" => StatusReason::TooManyRequests,
            _ => StatusReason::Unknown,
        }
    }
}

impl PartialEq<str> for StatusReason {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

/// A stored object with its `resourceVersion` filled in from the key's revision.
pub fn with_resource_version(mut obj: Object, revision: u64) -> Object {
    obj.meta_mut().resource_version = Some(revision.to_string());
    obj
}

/// Reads an object as a GET would return it (with `resourceVersion`), without a request.
pub fn get_object(core: &Core, resource: &ResourceInfo, namespace: Option<&str>, name: &str) -> Option<Object> {
    let ns = if resource.namespaced { namespace } else { None };
    core.store.get(&resource.etcd_key(ns, name)).map(|(o, rev)| with_resource_version(o.clone(), rev))
}

/// The group-qualified resource of a request, for Status messages.
fn group_resource(r: &ResourceInfo) -> GroupResource {
    GroupResource::from(r)
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// `pod`, `deployment.apps`: how kubectl names a kind in its output.
pub fn kind_for_output(resource: &ResourceInfo) -> String {
    let k = resource.kind.to_lowercase();
    if resource.group.is_empty() {
        k
    } else {
        format!("{k}.{}", resource.group)
    }
}

/// The state of one request while it goes through the pipeline.
struct Req<'a> {
    /// The API server's own state (its admission chain, the answers it keeps).
    api: &'a mut ApiServer,
    /// The request, without its body (moved to `body`).
    req: &'a ApiRequest,
    /// The request's body, owned here so that a handler can decode it without a copy.
    body: Option<Body>,
    rid: u32,
    verbose: bool,
    path: String,
    obj_ref: Option<ObjectRef>,
    user: UserInfo,
    authorizer: String,
    allowed: bool,
    authorization: String,
    mutated_by: Vec<String>,
    warnings: Vec<String>,
    etcd: Option<EtcdDetail>,
    /// `dryRun=All` (kubectl's `--dry-run=server`, or DeleteOptions' `dryRun`): every stage
    /// runs, admission sees a dry run, nothing is written to etcd.
    dry_run: bool,
}

impl<'a> Req<'a> {
    fn new(core: &mut Core, api: &'a mut ApiServer, req: &'a ApiRequest, body: Option<Body>) -> Req<'a> {
        let rid = core.new_request_id();
        let obj_ref = request_object_ref(req, body.as_ref());
        Req {
            api,
            req,
            body,
            rid,
            verbose: req.verbose,
            path: req.path(),
            obj_ref,
            user: UserInfo::default(),
            authorizer: String::new(),
            allowed: false,
            authorization: String::new(),
            mutated_by: vec![],
            warnings: vec![],
            etcd: None,
            dry_run: req.caller.command.as_ref().is_some_and(|c| c.dry_run),
        }
    }

    fn caller(&self) -> Component {
        self.req.caller.component
    }

    /// An object stored at `revision` (held without its `resourceVersion`) as YAML for an Etcd
    /// step, with that version; the components' summary steps leave it out (their requests are
    /// many, and the object is in the store's history anyway).
    fn stored_yaml(&self, obj: &Object, revision: u64) -> String {
        if self.verbose {
            with_resource_version(obj.clone(), revision).to_yaml()
        } else {
            String::new()
        }
    }

    /// Records a pipeline step (verbose requests only).
    #[allow(clippy::too_many_arguments)]
    fn step(
        &self,
        core: &mut Core,
        phase: Phase,
        from: Component,
        to: Component,
        summary: String,
        detail: Detail,
        status: StepStatus,
    ) -> Option<usize> {
        if !self.verbose {
            return None;
        }
        let mut b = StepBuilder::new(phase, from, to, summary, detail)
            .object(self.obj_ref.clone())
            .request(Some(self.rid))
            .status(status);
        if matches!(from, Component::Kubelet) || matches!(to, Component::Kubelet) {
            if let Some(n) = &self.req.caller.node {
                b = b.node(n.clone());
            }
        }
        Some(core.record(b))
    }

    fn record_request(&self, core: &mut Core) {
        if !self.verbose {
            return;
        }
        let req = self.req;
        let mut query: Vec<(String, String)> = Vec::new();
        let mut headers: Vec<(String, String)> = Vec::new();
        let kubectl = req.caller.component == Component::Kubectl;
        // `kubectl scale` sends a merge patch of the scale subresource, without apply's
        // field manager; `kubectl get` lists in chunks of 500.
        let scale = req.subresource.as_deref() == Some("scale");
        if kubectl && self.dry_run && matches!(req.verb, Verb::Create | Verb::Patch | Verb::Update) {
            query.push(("dryRun".into(), "All".into()));
        }
        if kubectl && matches!(req.verb, Verb::Create | Verb::Patch | Verb::Update) && !scale {
            let (manager, strict) = req
                .caller
                .command
                .as_ref()
                .map(|c| (c.field_manager, c.strict))
                .unwrap_or((KUBECTL_FIELD_MANAGER, true));
            if !manager.is_empty() {
                query.push(("fieldManager".into(), manager.into()));
            }
            if strict {
                query.push(("fieldValidation".into(), "Strict".into()));
            }
        }
        if kubectl && req.verb == Verb::List {
            query.push(("limit".into(), "500".into()));
        }
        headers.push(("Accept".into(), "application/json".into()));
        if self.body.is_some() {
            let ct = match req.verb {
                Verb::Patch if scale => "application/merge-patch+json",
                Verb::Patch if self.body.as_ref().is_some_and(|b| b.json().is_array()) => "application/json-patch+json",
                Verb::Patch if req.caller.command.as_ref().is_some_and(|c| c.merge_patch) => {
                    "application/merge-patch+json"
                }
                Verb::Patch => "application/strategic-merge-patch+json",
                _ => "application/json",
            };
            headers.push(("Content-Type".into(), ct.into()));
        }
        if kubectl {
            headers.push(("User-Agent".into(), kubectl_user_agent()));
            let name = req.caller.command.as_ref().map(|c| c.name).unwrap_or("kubectl apply");
            headers.push(("Kubectl-Command".into(), name.into()));
        }
        if matches!(req.caller.credential, Credential::BearerToken(_) | Credential::ServiceAccount { .. }) {
            headers.push(("Authorization".into(), "Bearer <masked>".into()));
        }
        if let Some(imp) = &req.caller.impersonate {
            headers.push(("Impersonate-User".into(), imp.username.clone()));
            for g in &imp.groups {
                headers.push(("Impersonate-Group".into(), g.clone()));
            }
        }
        let q = if query.is_empty() {
            String::new()
        } else {
            format!("?{}", query.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&"))
        };
        let summary = format!("{} sends {} {}{q}", self.caller().title(), req.verb.method(), self.path);
        let detail = Detail::Request(HttpRequestDetail {
            method: req.verb.method().into(),
            path: self.path.clone(),
            query,
            headers,
            body: self.body.as_ref().map(|b| compact(&b.json())).unwrap_or_default(),
        });
        self.step(core, Phase::Request, self.caller(), Component::ApiServer, summary, detail, StepStatus::Ok);
    }

    fn authz_step(&self, core: &mut Core, attrs: &authz::Attributes, d: &authz::Decision, impersonation: bool) {
        if !self.verbose {
            return;
        }
        let what = if attrs.namespace.is_empty() {
            format!("{} {}", attrs.verb, attrs.combined_resource())
        } else {
            format!("{} {} in namespace {}", attrs.verb, attrs.combined_resource(), attrs.namespace)
        };
        let what = if impersonation {
            format!("impersonate {} {}", attrs.resource.trim_end_matches('s'), attrs.name)
        } else {
            what
        };
        let (summary, message, status) = if d.allowed {
            let by = match &d.matched {
                Some(m) => format!(
                    "{} ({} {}{})",
                    d.authorizer,
                    m.binding_kind,
                    m.binding_namespace.as_ref().map(|ns| format!("{ns}/")).unwrap_or_default(),
                    m.binding_name
                ),
                None => d.authorizer.clone(),
            };
            let message = if d.reason.is_empty() { d.explanation.clone() } else { d.reason.clone() };
            (format!("{by} allows {} to {what}", attrs.user.username), message, StepStatus::Ok)
        } else {
            (
                format!("forbidden: {} may not {what}", attrs.user.username),
                authz::forbidden_message(attrs, &d.reason),
                StepStatus::Failed,
            )
        };
        let detail = Detail::Authorization(Box::new(AuthorizationDetail {
            attributes: attrs.to_trace(),
            authorizer: if d.allowed { d.authorizer.clone() } else { "Node,RBAC".into() },
            allowed: d.allowed,
            matched: d.matched.clone(),
            considered: d.considered.clone(),
            message,
        }));
        self.step(core, Phase::Authorization, Component::ApiServer, Component::ApiServer, summary, detail, status);
    }

    fn admission_steps(&mut self, core: &mut Core, details: &[AdmissionDetail]) {
        for d in details {
            if !d.changes.is_empty() && !self.mutated_by.contains(&d.plugin) {
                self.mutated_by.push(d.plugin.clone());
            }
            if !self.verbose {
                continue;
            }
            let phase = match d.stage {
                AdmissionStage::Mutating => Phase::MutatingAdmission,
                AdmissionStage::Validating => Phase::ValidatingAdmission,
            };
            let verdict = match d.verdict {
                crate::trace::AdmissionVerdict::NotApplicable => "nothing to do".to_string(),
                crate::trace::AdmissionVerdict::Allowed => "allowed".to_string(),
                crate::trace::AdmissionVerdict::Mutated => format!("changed {} field(s)", d.changes.len()),
                crate::trace::AdmissionVerdict::Denied => "denied".to_string(),
            };
            let status = match d.verdict {
                crate::trace::AdmissionVerdict::Denied => StepStatus::Failed,
                _ if !d.warnings.is_empty() => StepStatus::Warning,
                _ => StepStatus::Ok,
            };
            self.step(
                core,
                phase,
                Component::ApiServer,
                Component::ApiServer,
                format!("{}: {verdict}", d.plugin),
                Detail::Admission(d.clone()),
                status,
            );
        }
    }

    /// Ends the request: the Response step (verbose) or the summary step, and the response.
    fn finish(mut self, core: &mut Core, mut resp: ApiResponse) -> ApiResponse {
        let mut warnings = std::mem::take(&mut self.warnings);
        warnings.append(&mut resp.warnings);
        resp.warnings = warnings;
        let status_text = StatusReason::http_text(resp.code);
        let failed = resp.error.is_some();
        if self.verbose {
            let body = match (&resp.error, &resp.object) {
                (Some(s), _) => compact(&s.to_json()),
                (None, Some(o)) => match resp.revision {
                    Some(rev) => compact(&with_resource_version(o.clone(), rev).to_json()),
                    None => compact(&o.to_json()),
                },
                _ => String::new(),
            };
            let summary = match &resp.error {
                Some(s) => format!("{} {status_text}: {}", resp.code, s.message),
                None => format!("{} {status_text}", resp.code),
            };
            let status = if failed && !(self.req.verb == Verb::Get && resp.code == 404) {
                StepStatus::Failed
            } else if !resp.warnings.is_empty() {
                StepStatus::Warning
            } else {
                StepStatus::Ok
            };
            self.step(
                core,
                Phase::Etcd,
                Component::ApiServer,
                self.caller(),
                summary,
                Detail::Response(HttpResponseDetail {
                    code: resp.code,
                    status_text: status_text.to_string(),
                    body,
                    kubectl: String::new(),
                }),
                status,
            );
        } else if (self.req.verb.is_write() && !core.is_routine()) || failed {
            // `<caller> <METHOD> <path> → <code> <status text>`, built without the formatting
            // machinery (every component write records one).
            let (title, method) = (self.caller().title(), self.req.verb.method());
            let mut summary =
                String::with_capacity(title.len() + method.len() + self.path.len() + status_text.len() + 12);
            for part in [title, " ", method, " ", &self.path, " → "] {
                summary.push_str(part);
            }
            crate::text::push_decimal(&mut summary, u64::from(resp.code));
            summary.push(' ');
            summary.push_str(status_text);
            if self.allowed && self.authorization.is_empty() {
                // Allowed without its wording (see `handle`): nothing the request did changed
                // what the authorizers read (it failed, so it wrote nothing but quota usage).
                let attrs = request_attributes(self.req, &self.user);
                let d = authz::authorize_cached(&core.store, &mut self.api.rbac_cache, &attrs, authz::Wording::Reason);
                self.authorization = if d.reason.is_empty() { d.explanation } else { d.reason };
            }
            let (req, rid, caller) = (self.req, self.rid, self.caller());
            let detail = Detail::ApiCall(Box::new(ApiCallDetail {
                method: req.verb.method().into(),
                path: self.path,
                user: self.user,
                authorizer: self.authorizer,
                allowed: self.allowed,
                authorization: self.authorization,
                mutated_by: self.mutated_by,
                warnings: resp.warnings.clone(),
                code: resp.code,
                error: resp.error.as_ref().map(|e| e.message.clone()),
                etcd: self.etcd,
            }));
            let obj_ref = resp.object.as_ref().map(object_ref).or(self.obj_ref);
            let mut b = StepBuilder::new(Phase::Etcd, caller, Component::ApiServer, summary, detail)
                .object(obj_ref)
                .request(Some(rid))
                .status(if failed { StepStatus::Failed } else { StepStatus::Ok });
            if let Some(n) = &req.caller.node {
                b = b.node(n.clone());
            }
            core.record(b);
        }
        resp
    }
}

fn request_object_ref(req: &ApiRequest, body: Option<&Body>) -> Option<ObjectRef> {
    let meta_field = |field: &str| -> Option<String> {
        match body? {
            Body::Json(b) => b.pointer(&format!("/metadata/{field}")).and_then(Value::as_str).map(str::to_string),
            Body::Object(o) => {
                if field == "name" {
                    o.meta().name.clone()
                } else {
                    o.meta().generate_name.clone()
                }
            }
        }
    };
    let name = match (req.verb, req.subresource.as_deref()) {
        (Verb::Create, None) => meta_field("name").or_else(|| meta_field("generateName")),
        _ => req.name.clone(),
    }?;
    Some(ObjectRef {
        kind: req.resource.kind.to_string(),
        namespace: if req.resource.namespaced { req.namespace.clone() } else { None },
        name,
    })
}

/// The authorizer's view of a request.
fn request_attributes<'a>(req: &'a ApiRequest, user: &'a UserInfo) -> authz::Attributes<'a> {
    let name = match (req.verb, req.subresource.as_deref()) {
        (Verb::Create, None) | (Verb::List, _) => "",
        _ => req.name.as_deref().unwrap_or(""),
    };
    authz::Attributes {
        user,
        verb: req.verb.as_str(),
        resource_request: true,
        api_group: req.resource.group,
        api_version: req.resource.version,
        resource: req.resource.plural,
        subresource: req.subresource.as_deref().unwrap_or(""),
        namespace: if req.resource.namespaced { req.namespace.as_deref().unwrap_or("") } else { "" },
        name,
        // A resource request: the authorizers read its path only for non-resource URLs.
        path: "",
    }
}

/// A request while the server is down: the connection is refused, nothing is stored. A
/// component's request that is not routine (a Pod's status, not a heartbeat) is recorded as a
/// failed step with the error client-go returns, `Put "https://…": dial tcp …: connect:
/// connection refused`; the component keeps what it meant to write and sends it again once
/// the server is back.
fn refused(core: &mut Core, req: &ApiRequest, to: &Unreachable) -> ApiResponse {
    let error = format!(
        "{} \"https://{}{}\": dial tcp {}: connect: connection refused",
        go_method(req.verb.method()),
        to.host,
        req.path(),
        to.address
    );
    if !core.is_routine() {
        let who = match (&req.caller.component, &req.caller.node) {
            (Component::Kubelet, Some(node)) => format!("kubelet ({node})"),
            (c, _) => c.title().to_string(),
        };
        let retry = match (req.resource.plural, req.caller.component) {
            ("events", _) => "an event the recorder could not write (a real one tries 12 times, 10 s apart, before it drops the event; the lab drops it at once)",
            (_, Component::Kubelet) => "the kubelet keeps running the node's containers and sends this again when the API server is back",
            _ => "the client sends it again when the API server is back",
        };
        let text = format!("{who}: {error}; {retry}");
        let phase = if req.subresource.as_deref() == Some("status") { Phase::Status } else { Phase::Request };
        let mut step =
            StepBuilder::new(phase, req.caller.component, Component::ApiServer, text.clone(), Detail::Note { text })
                .status(StepStatus::Failed);
        if let Some(node) = &req.caller.node {
            step = step.node(node.clone());
        }
        core.record(step);
    }
    ApiResponse::failure(Status::connection_refused(&error))
}

/// Go's `http.Request` method as `url.Error` prints it (`Put`, `Get`).
fn go_method(method: &str) -> String {
    let mut m = method.to_ascii_lowercase();
    if let Some(first) = m.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    m
}

/// The resource of `kubectl auth can-i`'s question (authorization.k8s.io/v1; nothing is
/// stored, so it is not one of [`crate::object::RESOURCES`]).
pub static SELF_SUBJECT_ACCESS_REVIEWS: ResourceInfo = ResourceInfo {
    kind: "SelfSubjectAccessReview",
    group: "authorization.k8s.io",
    version: "v1",
    plural: "selfsubjectaccessreviews",
    namespaced: false,
    etcd_prefix: "",
};

/// A SelfSubjectAccessReview: the authorizers answer the question in its
/// `spec.resourceAttributes` for the requester; nothing is stored.
fn self_subject_access_review(core: &mut Core, r: &mut Req, user: &UserInfo) -> ApiResponse {
    let mut review = r.body.take().map(|b| b.json().into_owned()).unwrap_or_default();
    let attr = |f: &str| {
        review.pointer(&format!("/spec/resourceAttributes/{f}")).and_then(Value::as_str).unwrap_or("").to_string()
    };
    let (verb, group, resource, subresource, namespace, name) =
        (attr("verb"), attr("group"), attr("resource"), attr("subresource"), attr("namespace"), attr("name"));
    let version = attr("version");
    let attrs = authz::Attributes {
        user,
        verb: &verb,
        resource_request: true,
        api_group: &group,
        api_version: &version,
        resource: &resource,
        subresource: &subresource,
        namespace: &namespace,
        name: &name,
        path: "",
    };
    let d = authz::authorize(&core.store, &attrs);
    if r.verbose {
        let summary = format!(
            "asks the authorizers whether {} may {verb} {resource}{}{}: {}",
            user.username,
            if namespace.is_empty() { String::new() } else { format!(" in {namespace}") },
            if name.is_empty() { String::new() } else { format!(" named {name}") },
            if d.allowed { "allowed" } else { "denied" }
        );
        r.step(
            core,
            Phase::Authorization,
            Component::ApiServer,
            Component::ApiServer,
            summary.clone(),
            Detail::Note { text: format!("{summary}. {}", d.explanation) },
            StepStatus::Ok,
        );
    }
    review["status"] = serde_json::json!({"allowed": d.allowed});
    if !d.reason.is_empty() {
        review["status"]["reason"] = serde_json::json!(d.reason);
    }
    match Object::from_json("authorization.k8s.io/v1", "SelfSubjectAccessReview", review) {
        Ok(o) => ApiResponse { code: 201, object: Some(o), revision: None, error: None, warnings: vec![] },
        Err(e) => ApiResponse::failure(Status::bad_request(e.to_string())),
    }
}

/// Handles one request (see the module docs for the pipeline) with the core and the API
/// server of `world`.
pub fn handle<W: Parts>(world: &mut W, req: ApiRequest) -> ApiResponse {
    let (core, api) = world.parts();
    serve(core, api, req)
}

/// [`handle`]: `api` serves the request against `core`'s store and records in its trace.
fn serve(core: &mut Core, api: &mut ApiServer, mut req: ApiRequest) -> ApiResponse {
    if let Some(to) = &api.unreachable {
        return refused(core, &req, to);
    }
    let body = req.body.take();
    let mut r = Req::new(core, api, &req, body);
    r.record_request(core);

    // 1. Authentication.
    let a = authn::authenticate_with(&core.store, &mut r.api.settings, &req.caller, r.verbose);
    if r.verbose {
        let summary = if a.ok {
            format!("authenticated as {} ({})", a.user.username, a.method)
        } else {
            format!("authentication failed ({}): 401 Unauthorized", a.method)
        };
        r.step(
            core,
            Phase::Authentication,
            Component::ApiServer,
            Component::ApiServer,
            summary,
            Detail::Authentication(AuthenticationDetail {
                method: a.method.clone(),
                authenticated: a.ok,
                user: a.user.clone(),
                impersonated_by: None,
                explanation: a.explanation.clone(),
            }),
            if a.ok { StepStatus::Ok } else { StepStatus::Failed },
        );
    }
    if !a.ok {
        return r.finish(core, ApiResponse::failure(Status::unauthorized()));
    }
    let mut user = a.user;
    r.user = user.clone();

    // 2. Impersonation.
    if let Some(target) = &req.caller.impersonate {
        let (checks, as_user) = authn::impersonation_plan(target);
        for c in checks {
            let attrs = authz::Attributes {
                user: &user,
                verb: "impersonate",
                resource_request: true,
                api_group: "",
                api_version: "v1",
                resource: c.resource,
                subresource: "",
                namespace: &c.namespace,
                name: &c.name,
                path: "",
            };
            let d = authz::authorize(&core.store, &attrs);
            r.authz_step(core, &attrs, &d, true);
            if !d.allowed {
                r.authorizer = "Node,RBAC".into();
                r.authorization = authz::forbidden_message(&attrs, &d.reason);
                let status = Status::forbidden(
                    GroupResource::new("", c.resource),
                    &c.name,
                    &authz::forbidden_message(&attrs, &d.reason),
                );
                return r.finish(core, ApiResponse::failure(status));
            }
        }
        r.step(
            core,
            Phase::Authentication,
            Component::ApiServer,
            Component::ApiServer,
            format!("{} acts as {} (impersonation)", user.username, as_user.username),
            Detail::Authentication(AuthenticationDetail {
                method: "impersonation".into(),
                authenticated: true,
                user: as_user.clone(),
                impersonated_by: Some(user.clone()),
                explanation: format!(
                    "{} may impersonate {}; from here on the request is {}'s, in the groups {:?}",
                    user.username, as_user.username, as_user.username, as_user.groups
                ),
            }),
            StepStatus::Ok,
        );
        user = as_user;
        r.user = user.clone();
    }

    // 3. Authorization.
    let attrs = request_attributes(&req, &user);
    // A request that succeeds without a step of its own needs no wording of its allow; if it
    // fails after all, `finish` asks again for the summary step's text.
    let wording = if r.verbose {
        authz::Wording::Step
    } else if req.verb.is_write() && !core.is_routine() {
        authz::Wording::Reason
    } else {
        authz::Wording::Verdict
    };
    let d = authz::authorize_cached(&core.store, &mut r.api.rbac_cache, &attrs, wording);
    r.authz_step(core, &attrs, &d, false);
    r.allowed = d.allowed;
    r.authorizer = if d.allowed { d.authorizer.clone() } else { "Node,RBAC".into() };
    r.authorization = if d.allowed {
        if d.reason.is_empty() {
            d.explanation.clone()
        } else {
            d.reason.clone()
        }
    } else {
        authz::forbidden_message(&attrs, &d.reason)
    };
    if !d.allowed {
        let status =
            Status::forbidden(group_resource(req.resource), attrs.name, &authz::forbidden_message(&attrs, &d.reason));
        return r.finish(core, ApiResponse::failure(status));
    }

    let resp = match (req.verb, req.subresource.as_deref()) {
        (Verb::Get, _) => handlers::get(core, &mut r),
        (Verb::List, _) => handlers::list(core, &req),
        (Verb::Create, None) if req.resource.plural == "selfsubjectaccessreviews" => {
            self_subject_access_review(core, &mut r, &user)
        }
        (Verb::Create, None) => handlers::create(core, &mut r, &user),
        (Verb::Create, Some("binding")) if req.resource.plural == "pods" => handlers::binding(core, &mut r, &user),
        (Verb::Create, Some("eviction")) if req.resource.plural == "pods" => handlers::eviction(core, &mut r, &user),
        // `pods/exec` reads the Pod and hands the stream to its kubelet (the caller runs it).
        (Verb::Create, Some("exec")) if req.resource.plural == "pods" => handlers::get(core, &mut r),
        (Verb::Update | Verb::Patch, _) => handlers::update(core, &mut r, &user),
        (Verb::Delete, _) => handlers::delete(core, &mut r, &user),
        (Verb::Create, Some(sub)) => ApiResponse::failure(Status::not_found(
            GroupResource::new(req.resource.group, format!("{}/{sub}", req.resource.plural)),
            req.name.as_deref().unwrap_or(""),
        )),
    };
    r.finish(core, resp)
}

#[cfg(test)]
mod tests;
