//! Where the request pipeline calls the modules other branches own: strict decoding,
//! defaulting and validation (`decode`, `defaults`, `validation`) and the admission chain
//! (`admission`). Each function here is the single call site of its stage; until a module
//! lands, the function is a clearly minimal stand-in (marked INTERIM) so the pipeline runs end
//! to end. Replacing a body must not change the signatures [`super::handle`] relies on.

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

/// Strict decoding of a request body into the object of `resource` (fieldValidation=Strict
/// for kubectl's requests). INTERIM: checks apiVersion and kind against the URL and decodes
/// with unknown fields ignored.
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
    Object::from_json(api_version, kind, body.clone()).map_err(|e| {
        Status::bad_request(format!("{kind} in version \"{}\" cannot be handled as a {kind}: {e}", resource.version))
    })
}

/// API-server defaulting (`SetDefaults_*`); returns what it filled in. INTERIM: none.
pub fn default_object(_obj: &mut Object) -> Vec<Change> {
    Vec::new()
}

/// Object validation on create (`old == None`) or update. INTERIM: only the metadata.name
/// requirement of ObjectMeta validation.
pub fn validate(obj: &Object, old: Option<&Object>) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if old.is_none() && obj.name().is_empty() && obj.meta().generate_name.as_deref().unwrap_or("").is_empty() {
        errors.push(FieldError::required("metadata.name", "name or generateName is required"));
    }
    errors
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
