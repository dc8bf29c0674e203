//! Where the request pipeline calls the modules other branches own: strict decoding,
//! defaulting and validation (`decode`, `defaults`, `validation`) and the admission chain
//! (`admission`). Each function here is the single call site of its stage; a function marked
//! INTERIM is a minimal stand-in until its module lands.

use crate::errors::{FieldError, GroupKind, Status};
use crate::object::{Object, ResourceInfo};
use crate::sim::Core;
use crate::trace::{AdmissionDetail, Change, UserInfo};
use serde_json::Value;

/// The admission operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    Create,
    Update,
    Delete,
}

/// What one admission pass did.
#[derive(Clone, Debug, Default)]
pub struct AdmissionResult {
    /// One entry per plugin that handled the request, in order.
    pub details: Vec<AdmissionDetail>,
    /// The Status the client gets when a plugin said no.
    pub rejection: Option<Status>,
    pub warnings: Vec<String>,
}

/// Strict decoding of a request body into the object of `resource` (fieldValidation=Strict;
/// [`crate::decode::decode_body`]). A body of another kind than the URL's is refused first.
pub fn decode(resource: &'static ResourceInfo, body: &Value, _strict: bool) -> Result<Object, Status> {
    let api_version = body.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = body.get("kind").and_then(Value::as_str).unwrap_or("");
    let expected = resource.api_version();
    if api_version != expected {
        return Err(Status::bad_request(format!(
            "the API version in the data ({api_version}) does not match the expected API version ({expected})"
        )));
    }
    if kind != resource.kind {
        return Err(Status::bad_request(format!(
            "the kind in the data ({kind}) does not match the expected kind ({})",
            resource.kind
        )));
    }
    crate::decode::decode_body(body).map_err(|e| match e.status() {
        Some(s) => s.clone(),
        None => Status::bad_request(format!("{e:?}")),
    })
}

/// API-server defaulting (`SetDefaults_*`, [`crate::defaults::apply_defaults`]); returns what it
/// filled in.
pub fn default_object(obj: &mut Object) -> Vec<Change> {
    crate::defaults::apply_defaults(obj)
}

/// Object validation ([`crate::validation::validate_create`]) on create (`old == None`) and on
/// writes to the main resource. Update-specific rules (immutable fields, `ValidatePodUpdate`)
/// are not modelled: an update is validated as the object it produces.
pub fn validate(obj: &Object, _old: Option<&Object>) -> Vec<FieldError> {
    crate::validation::validate_create(obj)
}

/// The group-qualified kind for Invalid errors.
pub fn group_kind(resource: &ResourceInfo) -> GroupKind {
    GroupKind::from(resource)
}

/// The mutating admission pass. INTERIM: no plugins.
#[allow(clippy::too_many_arguments)]
pub fn admit_mutating(
    _core: &mut Core,
    _op: Operation,
    _resource: &'static ResourceInfo,
    _subresource: &str,
    _user: &UserInfo,
    _obj: &mut Object,
    _old: Option<&Object>,
) -> AdmissionResult {
    AdmissionResult::default()
}

/// The validating admission pass. INTERIM: no plugins.
#[allow(clippy::too_many_arguments)]
pub fn admit_validating(
    _core: &mut Core,
    _op: Operation,
    _resource: &'static ResourceInfo,
    _subresource: &str,
    _user: &UserInfo,
    _obj: &Object,
    _old: Option<&Object>,
) -> AdmissionResult {
    AdmissionResult::default()
}
