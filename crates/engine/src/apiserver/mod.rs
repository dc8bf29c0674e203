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
//! Pod where upstream answers a `Status` of success), and `finalize` for Namespaces.
//!
//! Patches (Verb::Patch) are strategic merge patches, simplified as [`strategic`] documents.
//!
//! Updates are validated by the kind's update rules where the lab has them (a Pod's spec, a
//! Deployment's or ReplicaSet's selector) and otherwise as the object they produce
//! ([`hooks::validate`]).
//!
//! Not modelled: `metadata.managedFields` (field managers are not tracked), dry-run, watch
//! and list pagination.
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
pub mod hooks;
pub mod strategic;
pub mod strategy;

pub use crate::errors::Status;

use crate::errors::{GroupResource, StatusReason};
use crate::object::{Object, ResourceInfo, Unstructured};
use crate::sim::{object_ref, Core, StepBuilder};
use crate::store::StoreError;
use crate::trace::{
    AdmissionDetail, AdmissionStage, ApiCallDetail, AuthenticationDetail, AuthorizationDetail, Component, Detail,
    EtcdDetail, EtcdOperation, HttpRequestDetail, HttpResponseDetail, ObjectRef, Phase, StepStatus, UserInfo,
    ValidationDetail,
};
use hooks::Operation;
use serde_json::{json, Value};

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
}

impl Caller {
    pub fn new(component: Component, credential: Credential) -> Caller {
        Caller { component, node: None, credential, impersonate: None }
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
        }
    }

    /// A controller of kube-controller-manager, with its own service account
    /// (`--use-service-account-credentials`, as kubeadm sets it).
    pub fn controller(service_account: &str) -> Caller {
        Caller::new(
            Component::ControllerManager,
            Credential::ServiceAccount { namespace: "kube-system".to_string(), name: service_account.to_string() },
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
}

impl<'a> Req<'a> {
    fn new(core: &mut Core, req: &'a ApiRequest, body: Option<Body>) -> Req<'a> {
        let rid = core.new_request_id();
        let obj_ref = request_object_ref(req, body.as_ref());
        Req {
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
        if kubectl && matches!(req.verb, Verb::Create | Verb::Patch | Verb::Update) {
            query.push(("fieldManager".into(), KUBECTL_FIELD_MANAGER.into()));
            query.push(("fieldValidation".into(), "Strict".into()));
        }
        headers.push(("Accept".into(), "application/json".into()));
        if self.body.is_some() {
            let ct =
                if req.verb == Verb::Patch { "application/strategic-merge-patch+json" } else { "application/json" };
            headers.push(("Content-Type".into(), ct.into()));
        }
        if kubectl {
            headers.push(("User-Agent".into(), kubectl_user_agent()));
            headers.push(("Kubectl-Command".into(), "kubectl apply".into()));
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
                let d = authz::authorize_cached(&core.store, &mut core.rbac_cache, &attrs, authz::Wording::Reason);
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

/// Handles one request (see the module docs for the pipeline).
pub fn handle(core: &mut Core, mut req: ApiRequest) -> ApiResponse {
    let body = req.body.take();
    let mut r = Req::new(core, &req, body);
    r.record_request(core);

    // 1. Authentication.
    let a = authn::authenticate_with(&core.store, &req.caller, r.verbose);
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
    let d = authz::authorize_cached(&core.store, &mut core.rbac_cache, &attrs, wording);
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
        (Verb::Get, _) => do_get(core, &mut r),
        (Verb::List, _) => do_list(core, &req),
        (Verb::Create, None) => do_create(core, &mut r, &user),
        (Verb::Create, Some("binding")) if req.resource.plural == "pods" => do_binding(core, &mut r, &user),
        (Verb::Update | Verb::Patch, _) => do_update(core, &mut r, &user),
        (Verb::Delete, _) => do_delete(core, &mut r, &user),
        (Verb::Create, Some(sub)) => ApiResponse::failure(Status::not_found(
            GroupResource::new(req.resource.group, format!("{}/{sub}", req.resource.plural)),
            req.name.as_deref().unwrap_or(""),
        )),
    };
    r.finish(core, resp)
}

fn key_of(resource: &ResourceInfo, namespace: Option<&str>, name: &str) -> String {
    resource.etcd_key(if resource.namespaced { namespace } else { None }, name)
}

fn do_get(core: &mut Core, r: &mut Req) -> ApiResponse {
    let req = r.req;
    let name = req.name.clone().unwrap_or_default();
    let key = key_of(req.resource, req.namespace.as_deref(), &name);
    let found = core.store.get(&key).map(|(o, rev)| (o.clone(), rev));
    if r.verbose {
        let (summary, detail) = match &found {
            Some((o, rev)) => (
                format!("reads {key} (revision {rev})"),
                EtcdDetail {
                    operation: EtcdOperation::Get,
                    key: key.clone(),
                    revision: *rev,
                    value: with_resource_version(o.clone(), *rev).to_yaml(),
                    error: None,
                },
            ),
            None => (
                format!("reads {key}: not found"),
                EtcdDetail {
                    operation: EtcdOperation::Get,
                    key: key.clone(),
                    revision: core.store.revision(),
                    value: String::new(),
                    error: Some("key not found".into()),
                },
            ),
        };
        r.step(core, Phase::Etcd, Component::ApiServer, Component::Etcd, summary, Detail::Etcd(detail), StepStatus::Ok);
    }
    match found {
        Some((o, rev)) => ApiResponse::stored(200, o, rev),
        None => ApiResponse::failure(Status::not_found(group_resource(req.resource), &name)),
    }
}

fn do_list(core: &mut Core, req: &ApiRequest) -> ApiResponse {
    let prefix = req.resource.list_prefix(req.namespace.as_deref());
    let items: Vec<Value> = core
        .store
        .list(&prefix)
        .into_iter()
        .map(|(_, o, rev)| with_resource_version(o.clone(), rev).to_json())
        .collect();
    let meta = k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
        resource_version: Some(core.store.revision().to_string()),
        ..Default::default()
    };
    let mut rest = serde_json::Map::new();
    rest.insert("items".into(), Value::Array(items));
    let list = Object::Other(std::sync::Arc::new(Unstructured {
        api_version: req.resource.api_version(),
        kind: format!("{}List", req.resource.kind),
        metadata: meta,
        rest,
    }));
    ApiResponse::success(200, Some(list))
}

/// Decodes and defaults the body; records the decode step.
fn decode_and_default(core: &mut Core, r: &mut Req) -> Result<Object, Status> {
    let req = r.req;
    let Some(body) = r.body.take() else {
        let s = Status::bad_request("the request body is empty");
        return Err(s);
    };
    let strict = req.caller.component == Component::Kubectl;
    match body.decode(req.resource, strict) {
        Ok(mut obj) if !r.verbose => {
            hooks::default_object(&mut obj, false);
            Ok(obj)
        }
        Ok(mut obj) => {
            let defaults = hooks::default_object(&mut obj, true);
            let summary = if defaults.is_empty() {
                format!("decodes the {} strictly (no unknown or duplicate fields)", req.resource.kind)
            } else {
                format!("decodes the {} strictly and fills in {} default(s)", req.resource.kind, defaults.len())
            };
            r.step(
                core,
                Phase::Validation,
                Component::ApiServer,
                Component::ApiServer,
                summary,
                Detail::Validation(ValidationDetail { defaults, errors: vec![] }),
                StepStatus::Ok,
            );
            Ok(obj)
        }
        Err(status) => {
            r.step(
                core,
                Phase::Validation,
                Component::ApiServer,
                Component::ApiServer,
                format!("cannot decode the {}: 400 Bad Request", req.resource.kind),
                Detail::Validation(ValidationDetail {
                    defaults: vec![],
                    errors: status.details.as_ref().map(|d| d.causes.clone()).unwrap_or_default(),
                }),
                StepStatus::Failed,
            );
            if r.verbose {
                // The decode error has no field causes; keep the message visible in the step.
                if let Some(step) = core.steps.last_mut() {
                    if let Detail::Validation(v) = &mut step.detail {
                        if v.errors.is_empty() {
                            v.errors.push(crate::trace::FieldCause {
                                reason: "BadRequest".into(),
                                message: status.message.clone(),
                                field: String::new(),
                            });
                        }
                    }
                }
            }
            Err(status)
        }
    }
}

/// `EnsureObjectNamespaceMatchesRequestNamespace`.
fn ensure_namespace(resource: &ResourceInfo, request_ns: Option<&str>, obj: &mut Object) -> Result<(), Status> {
    let expected = if resource.namespaced { request_ns.unwrap_or("") } else { "" };
    let actual = obj.namespace().unwrap_or("").to_string();
    if actual == expected {
        return Ok(());
    }
    if actual.is_empty() {
        obj.meta_mut().namespace = Some(expected.to_string());
        return Ok(());
    }
    if expected.is_empty() {
        obj.meta_mut().namespace = None;
        return Ok(());
    }
    Err(Status::bad_request("the namespace of the provided object does not match the namespace sent on the request"))
}

fn admission(
    core: &mut Core,
    r: &mut Req,
    mutating: bool,
    op: Operation,
    user: &UserInfo,
    obj: &mut Object,
    old: Option<&Object>,
) -> Result<(), Status> {
    let req = r.req;
    let sub = req.subresource.clone().unwrap_or_default();
    let name =
        if op == Operation::Create && sub.is_empty() { String::new() } else { req.name.clone().unwrap_or_default() };
    let result = if mutating {
        hooks::admit_mutating(core, op, req.resource, &sub, &name, user, obj, old, r.verbose)
    } else {
        hooks::admit_validating(core, op, req.resource, &sub, &name, user, obj, old, r.verbose)
    };
    r.warnings.extend(result.warnings.iter().cloned());
    r.admission_steps(core, &result.details);
    if let Some(s) = result.rejection {
        return Err(s);
    }
    write_quota_usage(core, r, &result.quota_updates);
    Ok(())
}

/// The ResourceQuota admission plugin charges the object to the namespace's quotas by
/// writing their `status.used` before the object itself is written (as upstream's quota
/// evaluator does).
fn write_quota_usage(core: &mut Core, r: &mut Req, updates: &[crate::admission::QuotaStatusUpdate]) {
    for u in updates {
        let key = format!("/registry/resourcequotas/{}/{}", u.namespace, u.name);
        let Some((old, rev)) = core.store.get(&key).map(|(o, rev)| (o.clone(), rev)) else { continue };
        let mut v = old.to_json();
        v["status"]["hard"] = json!(u.hard);
        v["status"]["used"] = json!(u.used);
        let Ok(new) = Object::from_json("v1", "ResourceQuota", v) else { continue };
        if let Ok(new_rev) = core.store.update(&key, new.clone(), Some(rev)) {
            core.note_write();
            let detail = EtcdDetail {
                operation: EtcdOperation::Update,
                key: key.clone(),
                revision: new_rev,
                value: r.stored_yaml(&new, new_rev),
                error: None,
            };
            r.step(
                core,
                Phase::ValidatingAdmission,
                Component::ApiServer,
                Component::Etcd,
                format!("ResourceQuota: charges {}/{} (status.used)", u.namespace, u.name),
                Detail::Etcd(detail),
                StepStatus::Ok,
            );
        }
    }
}

fn validation_step(
    core: &mut Core,
    r: &Req,
    obj: &Object,
    prepared: Vec<crate::trace::Change>,
    errors: &[crate::errors::FieldError],
) {
    if !r.verbose {
        return;
    }
    let kind = r.req.resource.kind;
    let summary = if errors.is_empty() {
        format!("{kind} \"{}\" is valid", obj.name())
    } else {
        format!("{kind} \"{}\" is invalid: {} error(s)", obj.name(), errors.len())
    };
    r.step(
        core,
        Phase::Validation,
        Component::ApiServer,
        Component::ApiServer,
        summary,
        Detail::Validation(ValidationDetail {
            defaults: prepared,
            errors: errors.iter().map(|e| e.to_cause()).collect(),
        }),
        if errors.is_empty() { StepStatus::Ok } else { StepStatus::Failed },
    );
}

fn etcd_step(core: &mut Core, r: &mut Req, detail: EtcdDetail, ok: bool) {
    if !r.verbose {
        // No step: the request's summary step shows the write.
        r.etcd = Some(detail);
        return;
    }
    let summary = match (&detail.error, detail.operation) {
        (Some(e), _) => format!("{} {}: {e}", op_word(detail.operation), detail.key),
        (None, op) => format!("{} {} at revision {}", op_word(op), detail.key, detail.revision),
    };
    r.step(
        core,
        Phase::Etcd,
        Component::ApiServer,
        Component::Etcd,
        summary,
        Detail::Etcd(detail.clone()),
        if ok { StepStatus::Ok } else { StepStatus::Failed },
    );
    r.etcd = Some(detail);
}

fn op_word(op: EtcdOperation) -> &'static str {
    match op {
        EtcdOperation::Create => "creates",
        EtcdOperation::Update => "updates",
        EtcdOperation::Delete => "deletes",
        EtcdOperation::Get => "reads",
    }
}

fn do_create(core: &mut Core, r: &mut Req, user: &UserInfo) -> ApiResponse {
    let req = r.req;
    let mut obj = match decode_and_default(core, r) {
        Ok(o) => o,
        Err(s) => return ApiResponse::failure(s),
    };
    // The create handler wipes client-set system fields and checks the namespace.
    {
        let m = obj.meta_mut();
        m.uid = None;
        m.creation_timestamp = None;
        m.deletion_timestamp = None;
        m.deletion_grace_period_seconds = None;
    }
    if let Err(s) = ensure_namespace(req.resource, req.namespace.as_deref(), &mut obj) {
        return ApiResponse::failure(s);
    }
    if let Err(s) = admission(core, r, true, Operation::Create, user, &mut obj, None) {
        return ApiResponse::failure(s);
    }
    // The generic store: system fields, generated name, then the strategy and validation.
    let uid = core.rng.uuid();
    {
        let m = obj.meta_mut();
        m.uid = Some(uid);
        m.creation_timestamp = Some(timestamp(core.now));
    }
    let mut prepared = Vec::new();
    if obj.name().is_empty() {
        if let Some(prefix) = obj.meta().generate_name.clone().filter(|g| !g.is_empty()) {
            let name = format!("{prefix}{}", core.rng.name_suffix(5));
            prepared.push(crate::trace::Change {
                path: "metadata.name".into(),
                before: None,
                after: Some(name.clone()),
            });
            obj.meta_mut().name = Some(name.clone());
            if let Some(o) = r.obj_ref.as_mut() {
                o.name = name;
            }
        }
    }
    prepared.extend(strategy::prepare_for_create(&mut obj, &core.store, &mut core.rng, core.now));
    let errors = hooks::validate(&obj, None);
    validation_step(core, r, &obj, prepared, &errors);
    if !errors.is_empty() {
        return ApiResponse::failure(Status::invalid(hooks::group_kind(req.resource), obj.name(), &errors));
    }
    if let Err(s) = admission(core, r, false, Operation::Create, user, &mut obj, None) {
        return ApiResponse::failure(s);
    }
    // etcd: create only if absent.
    let key = key_of(req.resource, obj.namespace(), obj.name());
    if obj.meta().resource_version.as_deref().is_some_and(|rv| !rv.is_empty() && rv != "0") {
        let msg = "resourceVersion should not be set on objects to be created";
        etcd_step(
            core,
            r,
            EtcdDetail {
                operation: EtcdOperation::Create,
                key,
                revision: core.store.revision(),
                value: String::new(),
                error: Some(msg.into()),
            },
            false,
        );
        return ApiResponse::failure(Status {
            code: 500,
            reason: StatusReason::Unknown,
            message: msg.into(),
            details: None,
        });
    }
    obj.meta_mut().resource_version = None;
    match core.store.create(&key, obj.clone()) {
        Ok(rev) => {
            core.note_write();
            etcd_step(
                core,
                r,
                EtcdDetail {
                    operation: EtcdOperation::Create,
                    key,
                    revision: rev,
                    value: r.stored_yaml(&obj, rev),
                    error: None,
                },
                true,
            );
            ApiResponse::stored(201, obj, rev)
        }
        Err(_) => {
            etcd_step(
                core,
                r,
                EtcdDetail {
                    operation: EtcdOperation::Create,
                    key: key.clone(),
                    revision: core.store.revision(),
                    value: String::new(),
                    error: Some("the key already exists (create-if-absent transaction failed)".into()),
                },
                false,
            );
            ApiResponse::failure(Status::already_exists(group_resource(req.resource), obj.name()))
        }
    }
}

fn do_binding(core: &mut Core, r: &mut Req, user: &UserInfo) -> ApiResponse {
    let req = r.req;
    let name = req.name.clone().unwrap_or_default();
    let body = r.body.as_ref().map(Body::json);
    let target =
        body.as_ref().and_then(|b| b.pointer("/target/name")).and_then(Value::as_str).unwrap_or("").to_string();
    let annotations = body.as_ref().and_then(|b| b.pointer("/metadata/annotations")).cloned();
    if target.is_empty() {
        let errors = [crate::errors::FieldError::required("target.name", "")];
        return ApiResponse::failure(Status::invalid(crate::errors::GroupKind::new("", "Binding"), &name, &errors));
    }
    let key = key_of(req.resource, req.namespace.as_deref(), &name);
    let Some((old, rev)) = core.store.get(&key).map(|(o, rev)| (o.clone(), rev)) else {
        return ApiResponse::failure(Status::not_found(group_resource(req.resource), &name));
    };
    let binding_resource = GroupResource::new("", "pods/binding");
    let Object::Pod(old_pod) = &old else {
        return ApiResponse::failure(Status::internal_error("the stored object is not a Pod"));
    };
    if old_pod.metadata.deletion_timestamp.is_some() {
        return ApiResponse::failure(Status::conflict(
            binding_resource,
            &name,
            &format!("pod {name} is being deleted, cannot be assigned to a host"),
        ));
    }
    let current = old_pod.spec.as_ref().and_then(|s| s.node_name.as_deref()).unwrap_or("");
    if !current.is_empty() {
        return ApiResponse::failure(Status::conflict(
            binding_resource,
            &name,
            &format!("pod {name} is already assigned to node \"{current}\""),
        ));
    }
    let annotations: std::collections::BTreeMap<String, String> = match annotations {
        Some(a @ Value::Object(_)) => match serde_json::from_value(a) {
            Ok(a) => a,
            Err(e) => return ApiResponse::failure(Status::internal_error(&e.to_string())),
        },
        _ => Default::default(),
    };
    let mut pod = (**old_pod).clone();
    pod.spec.get_or_insert_with(Default::default).node_name = Some(target);
    if !annotations.is_empty() {
        pod.metadata.annotations.get_or_insert_with(Default::default).extend(annotations);
    }
    // api.UpdatePodCondition(PodScheduled=True).
    let now = timestamp(core.now);
    let conditions = pod.status.get_or_insert_with(Default::default).conditions.get_or_insert_with(Vec::new);
    let mut found = false;
    for c in conditions.iter_mut().filter(|c| c.type_ == "PodScheduled") {
        found = true;
        if c.status != "True" {
            c.last_transition_time = Some(now.clone());
        }
        c.status = "True".into();
        c.reason = None;
        c.message = None;
    }
    if !found {
        conditions.push(k8s_openapi::api::core::v1::PodCondition {
            type_: "PodScheduled".into(),
            status: "True".into(),
            last_transition_time: Some(now),
            ..Default::default()
        });
    }
    let mut pod = Object::Pod(std::sync::Arc::new(pod));
    // Admission sees the Binding (pods/binding CREATE), not the pod.
    let mut binding = match &r.body {
        Some(Body::Object(b)) if b.kind() == "Binding" => b.clone(),
        Some(Body::Json(b)) => match Object::from_json("v1", "Binding", b.clone()) {
            Ok(b) => b,
            Err(_) => return ApiResponse::failure(Status::bad_request("the request body is not a Binding")),
        },
        _ => return ApiResponse::failure(Status::bad_request("the request body is not a Binding")),
    };
    binding.meta_mut().namespace = req.namespace.clone();
    if let Err(s) = admission(core, r, true, Operation::Create, user, &mut binding, None) {
        return ApiResponse::failure(s);
    }
    if let Err(s) = admission(core, r, false, Operation::Create, user, &mut binding, None) {
        return ApiResponse::failure(s);
    }
    pod.meta_mut().resource_version = None;
    match core.store.update(&key, pod.clone(), Some(rev)) {
        Ok(new_rev) => {
            core.note_write();
            etcd_step(
                core,
                r,
                EtcdDetail {
                    operation: EtcdOperation::Update,
                    key,
                    revision: new_rev,
                    value: r.stored_yaml(&pod, new_rev),
                    error: None,
                },
                true,
            );
            ApiResponse::stored(201, pod, new_rev)
        }
        Err(_) => ApiResponse::failure(Status::conflict(
            GroupResource::new("", "pods"),
            &name,
            "the object has been modified; please apply your changes to the latest version and try again",
        )),
    }
}

fn should_delete_during_update(old: &Object, new: &Object) -> bool {
    let had = old.meta().finalizers.as_ref().is_some_and(|f| !f.is_empty());
    let has = new.meta().finalizers.as_ref().is_some_and(|f| !f.is_empty());
    if !had || has || new.meta().deletion_timestamp.is_none() {
        return false;
    }
    if let Object::Namespace(ns) = new {
        if ns.spec.as_ref().and_then(|s| s.finalizers.as_ref()).is_some_and(|f| !f.is_empty()) {
            return false;
        }
    }
    if new.kind() == "Pod" {
        return new.meta().deletion_grace_period_seconds == Some(0);
    }
    true
}

fn do_update(core: &mut Core, r: &mut Req, user: &UserInfo) -> ApiResponse {
    let req = r.req;
    let name = req.name.clone().unwrap_or_default();
    let key = key_of(req.resource, req.namespace.as_deref(), &name);
    let Some((old, rev)) = core.store.get(&key).map(|(o, rev)| (o.clone(), rev)) else {
        return ApiResponse::failure(Status::not_found(group_resource(req.resource), &name));
    };
    let Some(body) = r.body.take() else {
        return ApiResponse::failure(Status::bad_request("the request body is empty"));
    };
    // A patch applies to the stored object; an update replaces it.
    let strict = req.caller.component == Component::Kubectl;
    let decoded = if req.verb == Verb::Patch {
        let mut current = with_resource_version(old.clone(), rev).to_json();
        strategic::merge(&mut current, &body.json());
        hooks::decode(req.resource, &current, strict)
    } else {
        body.decode(req.resource, strict)
    };
    let mut incoming = match decoded {
        Ok(o) => o,
        Err(s) => return ApiResponse::failure(s),
    };
    if incoming.name() != name {
        return ApiResponse::failure(Status::bad_request(format!(
            "the name of the object ({}) does not match the name on the URL ({name})",
            incoming.name()
        )));
    }
    if let Err(s) = ensure_namespace(req.resource, req.namespace.as_deref(), &mut incoming) {
        return ApiResponse::failure(s);
    }
    // Optimistic concurrency: a resourceVersion in the request must be the stored one.
    if let Some(rv) = incoming.meta().resource_version.clone().filter(|v| !v.is_empty()) {
        if rv != rev.to_string() {
            return ApiResponse::failure(Status::conflict(
                group_resource(req.resource),
                &name,
                "the object has been modified; please apply your changes to the latest version and try again",
            ));
        }
    }
    let defaults = hooks::default_object(&mut incoming, r.verbose);
    let sub = req.subresource.as_deref().unwrap_or("");
    let mut new = match sub {
        "status" => strategy::prepare_for_status_update(incoming, &old),
        "finalize" if req.resource.kind == "Namespace" => {
            let mut v = old.to_json();
            v["spec"]["finalizers"] = incoming.to_json().pointer("/spec/finalizers").cloned().unwrap_or(json!([]));
            Object::from_json("v1", "Namespace", v).unwrap_or_else(|_| old.clone())
        }
        _ => {
            let mut n = incoming;
            strategy::prepare_for_update(&mut n, &old);
            n
        }
    };
    if r.verbose {
        r.step(
            core,
            Phase::Validation,
            Component::ApiServer,
            Component::ApiServer,
            format!("decodes the {} and merges it with the stored object", req.resource.kind),
            Detail::Validation(ValidationDetail { defaults, errors: vec![] }),
            StepStatus::Ok,
        );
    }
    if let Err(s) = admission(core, r, true, Operation::Update, user, &mut new, Some(&old)) {
        return ApiResponse::failure(s);
    }
    let errors = if sub.is_empty() { hooks::validate(&new, Some(&old)) } else { Vec::new() };
    if r.verbose || !errors.is_empty() {
        validation_step(core, r, &new, vec![], &errors);
    }
    if !errors.is_empty() {
        return ApiResponse::failure(Status::invalid(hooks::group_kind(req.resource), &name, &errors));
    }
    if let Err(s) = admission(core, r, false, Operation::Update, user, &mut new, Some(&old)) {
        return ApiResponse::failure(s);
    }
    // Compare without the version (it is set again below). The stored `old` has none, so
    // neither object is copied out of its shared handle unless it carries one.
    if new.meta().resource_version.is_some() {
        new.meta_mut().resource_version = None;
    }
    let mut old = old;
    if old.meta().resource_version.is_some() {
        old.meta_mut().resource_version = None;
    }
    if new == old {
        // Nothing changed: etcd is not written, the stored object is returned as is.
        return ApiResponse::stored(200, old, rev);
    }
    if should_delete_during_update(&old, &new) {
        return delete_now(core, r, &key, &name);
    }
    match core.store.update(&key, new.clone(), Some(rev)) {
        Ok(new_rev) => {
            core.note_write();
            etcd_step(
                core,
                r,
                EtcdDetail {
                    operation: EtcdOperation::Update,
                    key,
                    revision: new_rev,
                    value: r.stored_yaml(&new, new_rev),
                    error: None,
                },
                true,
            );
            ApiResponse::stored(200, new, new_rev)
        }
        Err(StoreError::Conflict { .. }) => ApiResponse::failure(Status::conflict(
            group_resource(req.resource),
            &name,
            "the object has been modified; please apply your changes to the latest version and try again",
        )),
        Err(_) => ApiResponse::failure(Status::not_found(group_resource(req.resource), &name)),
    }
}

fn delete_now(core: &mut Core, r: &mut Req, key: &str, name: &str) -> ApiResponse {
    match core.store.delete(key) {
        Ok((rev, last)) => {
            core.note_write();
            etcd_step(
                core,
                r,
                EtcdDetail {
                    operation: EtcdOperation::Delete,
                    key: key.to_string(),
                    revision: rev,
                    value: String::new(),
                    error: None,
                },
                true,
            );
            ApiResponse::stored(200, last, rev)
        }
        Err(_) => ApiResponse::failure(Status::not_found(group_resource(r.req.resource), name)),
    }
}

fn do_delete(core: &mut Core, r: &mut Req, user: &UserInfo) -> ApiResponse {
    let req = r.req;
    let name = req.name.clone().unwrap_or_default();
    let key = key_of(req.resource, req.namespace.as_deref(), &name);
    let Some((old, rev)) = core.store.get(&key).map(|(o, rev)| (o.clone(), rev)) else {
        return ApiResponse::failure(Status::not_found(group_resource(req.resource), &name));
    };
    let opts = r.body.as_ref().map(|b| b.json().into_owned()).unwrap_or(Value::Null);
    if let Some(uid) = opts.pointer("/preconditions/uid").and_then(Value::as_str) {
        if Some(uid) != old.meta().uid.as_deref() {
            return ApiResponse::failure(Status::conflict(
                group_resource(req.resource),
                &name,
                &format!(
                    "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                    old.meta().uid.as_deref().unwrap_or("")
                ),
            ));
        }
    }
    let mut obj = old.clone();
    if let Err(s) = admission(core, r, false, Operation::Delete, user, &mut obj, Some(&old)) {
        return ApiResponse::failure(s);
    }
    let requested_grace = opts.get("gracePeriodSeconds").and_then(Value::as_i64);
    let mut v = old.to_json();
    let already_deleting = old.meta().deletion_timestamp.is_some();
    // `propagationPolicy` (or the older `orphanDependents`): Foreground and Orphan are carried
    // out by the garbage collector, which the finalizers `foregroundDeletion` and `orphan`
    // call in; Background (the default of every built-in kind) needs none.
    let policy = opts.get("propagationPolicy").and_then(Value::as_str).or_else(|| {
        opts.get("orphanDependents").and_then(Value::as_bool).map(|o| if o { "Orphan" } else { "Background" })
    });
    let gc_finalizer = match policy {
        Some("Foreground") => Some("foregroundDeletion"),
        Some("Orphan") => Some("orphan"),
        _ => None,
    };
    if let Some(f) = gc_finalizer {
        let list = v["metadata"]["finalizers"].as_array().cloned().unwrap_or_default();
        if !list.iter().any(|x| x == f) {
            let mut list = list;
            list.push(json!(f));
            v["metadata"]["finalizers"] = json!(list);
        }
    }
    let has_finalizers = old.meta().finalizers.as_ref().is_some_and(|f| !f.is_empty()) || gc_finalizer.is_some();
    let ns_finalizers = match &old {
        Object::Namespace(ns) => ns.spec.as_ref().and_then(|s| s.finalizers.as_ref()).is_some_and(|f| !f.is_empty()),
        _ => false,
    };
    // Graceful deletion of a pod that runs on a node.
    let mut grace = 0i64;
    if let Object::Pod(p) = &old {
        let bound = p.spec.as_ref().and_then(|s| s.node_name.as_deref()).is_some_and(|n| !n.is_empty());
        let terminal = matches!(p.status.as_ref().and_then(|s| s.phase.as_deref()), Some("Succeeded" | "Failed"));
        let spec_grace = p.spec.as_ref().and_then(|s| s.termination_grace_period_seconds).unwrap_or(30);
        grace = requested_grace.unwrap_or(spec_grace);
        if !bound || terminal {
            grace = 0;
        }
    }
    let now = serde_json::to_value(timestamp(core.now)).unwrap_or(Value::Null);
    let mark = |v: &mut Value, grace: i64, at: Value| {
        v["metadata"]["deletionTimestamp"] = at;
        v["metadata"]["deletionGracePeriodSeconds"] = json!(grace);
    };
    let must_wait = grace > 0 || has_finalizers || ns_finalizers;
    if !must_wait {
        return delete_now(core, r, &key, &name);
    }
    if already_deleting && grace == 0 && !has_finalizers && !ns_finalizers {
        return delete_now(core, r, &key, &name);
    }
    if already_deleting {
        if grace > 0 || old.meta().deletion_grace_period_seconds == Some(0) {
            return ApiResponse::stored(200, old, rev);
        }
        v["metadata"]["deletionGracePeriodSeconds"] = json!(0);
    } else {
        let at = serde_json::to_value(timestamp(core.now + grace.max(0) as u64 * 1000)).unwrap_or(now.clone());
        mark(&mut v, grace, at);
        if ns_finalizers {
            v["status"]["phase"] = json!("Terminating");
        }
    }
    let new = match Object::from_json(&old.api_version(), old.kind(), v) {
        Ok(o) => o,
        Err(e) => return ApiResponse::failure(Status::internal_error(&e.to_string())),
    };
    match core.store.update(&key, new.clone(), Some(rev)) {
        Ok(new_rev) => {
            core.note_write();
            etcd_step(
                core,
                r,
                EtcdDetail {
                    operation: EtcdOperation::Update,
                    key,
                    revision: new_rev,
                    value: r.stored_yaml(&new, new_rev),
                    error: None,
                },
                true,
            );
            ApiResponse::stored(200, new, new_rev)
        }
        Err(_) => ApiResponse::failure(Status::not_found(group_resource(req.resource), &name)),
    }
}

#[cfg(test)]
mod tests;
