//! Where the request pipeline calls the modules other branches own: strict decoding,
//! defaulting and validation (`decode`, `defaults`, `validation`) and the admission chain
//! (`admission`). Each function here is the single call site of its stage.

use super::ApiServer;
use crate::admission;
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
    /// New `status.used` of the ResourceQuotas the object was charged to.
    pub quota_updates: Vec<admission::QuotaStatusUpdate>,
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

/// The object an in-process client sends (typed, see [`super::Body::Object`]): what
/// [`decode`] makes of its JSON, which debug builds (the tests) check on every request. A body
/// of another kind than the URL's is refused as [`decode`] refuses it.
pub fn decode_object(resource: &'static ResourceInfo, obj: Object) -> Result<Object, Status> {
    if obj.kind() != resource.kind || obj.api_version() != resource.api_version() {
        return decode(resource, &obj.to_json(), false);
    }
    debug_assert_eq!(
        decode(resource, &obj.to_json(), false).ok().as_ref(),
        Some(&obj),
        "a typed body must equal the decoding of its JSON"
    );
    Ok(obj)
}

/// API-server defaulting (`SetDefaults_*`, [`crate::defaults::apply_defaults`]); returns what it
/// filled in when `listed` (a request whose steps the trace shows), nothing otherwise.
pub fn default_object(obj: &mut Object, listed: bool) -> Vec<Change> {
    if listed {
        crate::defaults::apply_defaults(obj)
    } else {
        crate::defaults::apply_defaults_unlisted(obj);
        Vec::new()
    }
}

/// Object validation on create (`old == None`, [`crate::validation::validate_create`]) and on
/// updates of the main resource ([`crate::validation::validate_update`]: a Pod's spec, a
/// Deployment's or ReplicaSet's selector).
pub fn validate(obj: &Object, old: Option<&Object>) -> Vec<FieldError> {
    match old {
        None => crate::validation::validate_create(obj),
        Some(old) => crate::validation::validate_update(obj, old),
    }
}

/// The group-qualified kind for Invalid errors.
pub fn group_kind(resource: &ResourceInfo) -> GroupKind {
    GroupKind::from(resource)
}

/// An admission context for the store as it stands, with the webhook servers when
/// webhook configurations exist; summarised unless the request is `detailed`.
fn context<'a>(
    core: &'a mut Core,
    servers: Option<&'a [admission::SimulatedWebhook]>,
    detailed: bool,
) -> admission::Context<'a> {
    let mut ctx = admission::Context::new(&core.store, core.now, &mut core.rng);
    ctx = match servers {
        Some(s) => ctx.with_webhook_servers(s),
        None => ctx.without_webhook_configurations(),
    };
    if detailed {
        ctx
    } else {
        ctx.summarised()
    }
}

#[allow(clippy::too_many_arguments)]
fn attributes<'a>(
    op: Operation,
    resource: &'static ResourceInfo,
    subresource: &str,
    name: &str,
    user: &'a UserInfo,
    obj: &Object,
    old: Option<&'a Object>,
    dry_run: bool,
) -> Option<admission::Attributes<'a>> {
    let operation = match op {
        Operation::Create => admission::Operation::Create,
        Operation::Update => admission::Operation::Update,
        Operation::Delete => admission::Operation::Delete,
    };
    // The request's resource, not the body's (a Binding posted to pods/binding); a body of a
    // kind the API server does not know goes through no admission (`for_object` is `None`).
    let namespaced = crate::object::resource_for_kind(obj.kind())?.namespaced;
    Some(admission::Attributes {
        operation,
        resource,
        subresource: subresource.to_string(),
        kind: obj.kind().to_string(),
        namespace: if namespaced { obj.namespace().unwrap_or("").to_string() } else { String::new() },
        name: if name.is_empty() { obj.name() } else { name }.to_string(),
        user,
        dry_run,
        old_object: old,
    })
}

fn outcome(pass: admission::PassOutcome) -> AdmissionResult {
    AdmissionResult {
        details: pass.details,
        rejection: pass.rejection.map(|r| r.to_status()),
        warnings: pass.warnings,
        quota_updates: pass.quota_updates,
    }
}

/// The mutating admission pass of the lab's chain ([`admission::Chain::lab`]): the plugins
/// that implement it, in upstream's order, with the simulated webhook servers of the settings;
/// objects a webhook patched are defaulted again. Without `detailed` (a request whose
/// admission steps the trace leaves out) a mutation's changes are not listed and allowed
/// decisions carry no explanation.
#[allow(clippy::too_many_arguments)]
pub fn admit_mutating(
    core: &mut Core,
    api: &mut ApiServer,
    op: Operation,
    resource: &'static ResourceInfo,
    subresource: &str,
    name: &str,
    user: &UserInfo,
    obj: &mut Object,
    old: Option<&Object>,
    detailed: bool,
    dry_run: bool,
) -> AdmissionResult {
    let Some(attrs) = attributes(op, resource, subresource, name, user, obj, old, dry_run) else {
        return AdmissionResult::default();
    };
    let chain = std::sync::Arc::clone(&api.admission);
    let servers = api.webhook_servers(&core.store);
    let redefault = |o: &mut Object| crate::defaults::apply_defaults_unlisted(o);
    let ctx = context(core, servers, detailed).with_defaulter(&redefault);
    outcome(chain.run_mutating(&ctx, &attrs, obj))
}

/// The validating admission pass of the lab's chain (`detailed` as for the mutating pass).
#[allow(clippy::too_many_arguments)]
pub fn admit_validating(
    core: &mut Core,
    api: &mut ApiServer,
    op: Operation,
    resource: &'static ResourceInfo,
    subresource: &str,
    name: &str,
    user: &UserInfo,
    obj: &Object,
    old: Option<&Object>,
    detailed: bool,
    dry_run: bool,
) -> AdmissionResult {
    let Some(attrs) = attributes(op, resource, subresource, name, user, obj, old, dry_run) else {
        return AdmissionResult::default();
    };
    let chain = std::sync::Arc::clone(&api.admission);
    let servers = api.webhook_servers(&core.store);
    let ctx = context(core, servers, detailed);
    outcome(chain.run_validating(&ctx, &attrs, obj))
}

/// The conversion of a v1 Secret to the API server's internal one
/// (`Convert_v1_Secret_To_core_Secret` in `pkg/apis/core/v1/conversion.go`): each `stringData`
/// entry is written into `data` (its bytes, which the v1 form shows in base64), winning over a
/// `data` entry of the same key, and the internal type has no `stringData`, so no Secret is
/// stored or returned with one. Runs on every decoded Secret body (create, update, the result
/// of a patch). Returns the fields it changed, for the trace.
pub fn convert(obj: &mut Object) -> Vec<Change> {
    let Object::Secret(secret) = obj else { return Vec::new() };
    if secret.string_data.is_none() {
        return Vec::new();
    }
    let secret = std::sync::Arc::make_mut(secret);
    let string_data = secret.string_data.take().unwrap_or_default();
    let shown = serde_json::to_value(&string_data).unwrap_or(Value::Null);
    let mut changes = Vec::new();
    if !string_data.is_empty() {
        let data = secret.data.get_or_insert_with(Default::default);
        for (k, v) in string_data {
            let encode =
                |b: &k8s_openapi::ByteString| serde_json::to_value(b).ok().and_then(|v| v.as_str().map(str::to_string));
            let new = k8s_openapi::ByteString(v.into_bytes());
            let before = data.get(&k).and_then(encode);
            let after = encode(&new);
            if before != after {
                changes.push(Change { path: format!("data.{k}"), before, after });
            }
            data.insert(k, new);
        }
    }
    changes.push(Change {
        path: "stringData".into(),
        before: Some(crate::yaml::to_string(&shown).trim_end().to_string()),
        after: None,
    });
    changes
}
