//! kube-apiserver: every read and write of every component goes through [`handle`].
//!
//! The request pipeline, in upstream's order: authentication → authorization → decoding and
//! defaulting → mutating admission → validation → validating admission → the etcd write →
//! the response. Each stage records a step (for the learner's own requests) or the request is
//! summarised in one step (for the components' routine writes, see [`ApiRequest::verbose`]).

use crate::object::{Object, ResourceInfo};
use crate::sim::{object_ref, Core, StepBuilder};
use crate::trace::{Component, Detail, EtcdDetail, EtcdOperation, Phase, StepStatus, UserInfo};

/// The first instant of the lab's logical clock, in Unix milliseconds (2026-01-01T00:00:00Z).
pub const EPOCH_UNIX_MS: i64 = 1_767_225_600_000;

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
    /// The body as JSON, exactly as the client sent it (decoding happens in the server).
    pub body: Option<serde_json::Value>,
    /// Record every stage as its own step (the learner's requests), or one summary step.
    pub verbose: bool,
    /// The file the object came from, for kubectl's messages.
    pub file: Option<String>,
}

/// A failed request, as the Status object says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub code: u16,
    /// `NotFound`, `AlreadyExists`, `Forbidden`, `Invalid`, ...
    pub reason: String,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ApiResponse {
    pub code: u16,
    pub object: Option<Object>,
    pub error: Option<ApiError>,
    /// `Warning:` headers for the client.
    pub warnings: Vec<String>,
}

impl ApiResponse {
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }
}

fn fail(code: u16, reason: &str, message: String) -> ApiResponse {
    ApiResponse { code, object: None, error: Some(ApiError { code, reason: reason.into(), message }), warnings: vec![] }
}

/// Handles one request. (The full pipeline replaces this minimal persistence path.)
pub fn handle(core: &mut Core, req: ApiRequest) -> ApiResponse {
    let ns = req.namespace.as_deref();
    match req.verb {
        Verb::Get => {
            let key = req.resource.etcd_key(ns, req.name.as_deref().unwrap_or(""));
            match core.store.get(&key) {
                Some((obj, _)) => ApiResponse { code: 200, object: Some(obj.clone()), error: None, warnings: vec![] },
                None => fail(
                    404,
                    "NotFound",
                    format!("{} \"{}\" not found", req.resource.qualified_resource(), req.name.unwrap_or_default()),
                ),
            }
        }
        Verb::Create | Verb::Update | Verb::Patch => {
            let Some(body) = req.body else { return fail(400, "BadRequest", "the request body is empty".into()) };
            let api_version = body.get("apiVersion").and_then(|v| v.as_str()).unwrap_or("").to_string();
            let kind = body.get("kind").and_then(|v| v.as_str()).unwrap_or("").to_string();
            let mut obj = match Object::from_json(&api_version, &kind, body) {
                Ok(o) => o,
                Err(e) => return fail(400, "BadRequest", e.to_string()),
            };
            if req.resource.namespaced && obj.namespace().is_none() {
                obj.meta_mut().namespace = ns.map(str::to_string);
            }
            let key = req.resource.etcd_key(obj.namespace(), obj.name());
            let result = if req.verb == Verb::Create {
                let uid = core.rng.uuid();
                let meta = obj.meta_mut();
                meta.uid = Some(uid);
                meta.creation_timestamp = Some(timestamp(core.now));
                meta.resource_version = None;
                core.store.create(&key, obj.clone())
            } else {
                core.store.update(&key, obj.clone(), None)
            };
            match result {
                Ok(rev) => {
                    core.note_write();
                    obj.meta_mut().resource_version = Some(rev.to_string());
                    core.record(
                        StepBuilder::new(
                            Phase::Etcd,
                            Component::ApiServer,
                            Component::Etcd,
                            format!("write {key} at revision {rev}"),
                            Detail::Etcd(EtcdDetail {
                                operation: if req.verb == Verb::Create {
                                    EtcdOperation::Create
                                } else {
                                    EtcdOperation::Update
                                },
                                key: key.clone(),
                                revision: rev,
                                value: obj.to_yaml(),
                                error: None,
                            }),
                        )
                        .object(Some(object_ref(&obj)))
                        .status(StepStatus::Ok),
                    );
                    ApiResponse {
                        code: if req.verb == Verb::Create { 201 } else { 200 },
                        object: Some(obj),
                        error: None,
                        warnings: vec![],
                    }
                }
                Err(crate::store::StoreError::AlreadyExists) => fail(
                    409,
                    "AlreadyExists",
                    format!("{} \"{}\" already exists", req.resource.qualified_resource(), obj.name()),
                ),
                Err(_) => {
                    fail(404, "NotFound", format!("{} \"{}\" not found", req.resource.qualified_resource(), obj.name()))
                }
            }
        }
        Verb::Delete => {
            let key = req.resource.etcd_key(ns, req.name.as_deref().unwrap_or(""));
            match core.store.delete(&key) {
                Ok((_, obj)) => {
                    core.note_write();
                    ApiResponse { code: 200, object: Some(obj), error: None, warnings: vec![] }
                }
                Err(_) => fail(
                    404,
                    "NotFound",
                    format!("{} \"{}\" not found", req.resource.qualified_resource(), req.name.unwrap_or_default()),
                ),
            }
        }
        Verb::List => ApiResponse { code: 200, object: None, error: None, warnings: vec![] },
    }
}
