//! The REST handlers of the request pipeline (upstream's `endpoints/handlers` with the
//! generic registry store): once a request is authenticated and authorized, [`super::handle`]
//! gives it to the handler of its verb, which decodes and defaults the body, runs mutating
//! admission, the registry strategy and validation, validating admission (charging quotas),
//! and writes etcd: get, list, create, the Pod `binding` subresource, update and patch,
//! delete (graceful for Pods on a node, waiting for finalizers).

use super::{
    group_resource, hooks, strategic, strategy, timestamp, with_resource_version, ApiRequest, ApiResponse, Body, Req,
    Status, Verb,
};
use crate::errors::{GroupResource, StatusReason};
use crate::object::{Object, ResourceInfo, Unstructured};
use crate::sim::Core;
use crate::store::StoreError;
use crate::trace::{Component, Detail, EtcdDetail, EtcdOperation, Phase, StepStatus, UserInfo, ValidationDetail};
use hooks::Operation;
use serde_json::{json, Value};

fn key_of(resource: &ResourceInfo, namespace: Option<&str>, name: &str) -> String {
    resource.etcd_key(if resource.namespaced { namespace } else { None }, name)
}

pub(super) fn get(core: &mut Core, r: &mut Req) -> ApiResponse {
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

pub(super) fn list(core: &mut Core, req: &ApiRequest) -> ApiResponse {
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
            hooks::convert(&mut obj);
            hooks::default_object(&mut obj, false);
            Ok(obj)
        }
        Ok(mut obj) => {
            let mut defaults = hooks::convert(&mut obj);
            let converted = !defaults.is_empty();
            let filled = hooks::default_object(&mut obj, true);
            let n = filled.len();
            defaults.extend(filled);
            let summary = if converted {
                format!(
                    "decodes the {} strictly, merges its stringData into data (v1 conversion) and fills in {n} default(s)",
                    req.resource.kind
                )
            } else if defaults.is_empty() {
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
        hooks::admit_mutating(core, r.api, op, req.resource, &sub, &name, user, obj, old, r.verbose, r.dry_run)
    } else {
        hooks::admit_validating(core, r.api, op, req.resource, &sub, &name, user, obj, old, r.verbose, r.dry_run)
    };
    r.warnings.extend(result.warnings.iter().cloned());
    r.admission_steps(core, &result.details);
    if let Some(s) = result.rejection {
        return Err(s);
    }
    // A dry run is checked against the quotas but charges none (`checkQuotas`).
    if !r.dry_run {
        write_quota_usage(core, r, &result.quota_updates);
    }
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

pub(super) fn create(core: &mut Core, r: &mut Req, user: &UserInfo) -> ApiResponse {
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
    let back = read_back(&obj);
    if r.dry_run {
        // `DryRunnableStorage.Create`: a key that exists is still AlreadyExists; otherwise the
        // object goes through etcd's encoding and back (defaulted again), and nothing is
        // written.
        if core.store.get(&key).is_some() {
            return ApiResponse::failure(Status::already_exists(group_resource(req.resource), obj.name()));
        }
        dry_run_note(core, r, &key);
        if let Some((back, changes)) = back {
            read_back_step(core, r, &back, changes);
            obj = back;
        }
        return ApiResponse::success(201, Some(obj));
    }
    let written = obj.clone();
    if let Some((b, _)) = &back {
        obj = b.clone();
    }
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
                    value: r.stored_yaml(&written, rev),
                    error: None,
                },
                true,
            );
            if let Some((back, changes)) = back {
                read_back_step(core, r, &back, changes);
            }
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

/// What a read of a freshly written object returns: the storage codec decodes what etcd holds
/// and defaults it again, for every read (the create's own response included). Defaulting
/// gives back what it was given for every kind the lab stores but a Job: `SetDefaults_Job`
/// copies `spec.template.metadata.labels` into `metadata.labels` when the Job has none, and
/// the Job strategy's `PrepareForCreate` labels the template (`controller-uid`, `job-name`,
/// ...) only after the request's defaulting ran. So a Job created without labels is stored
/// without them, and every read of it (its informers' too) has its template's labels; the
/// next write stores them. The lab keeps the object as reads return it; the etcd step shows
/// the value written.
fn read_back(obj: &Object) -> Option<(Object, Vec<crate::trace::Change>)> {
    if obj.kind() != "Job" {
        return None;
    }
    let mut back = obj.clone();
    let changes = hooks::default_object(&mut back, true);
    (!changes.is_empty()).then_some((back, changes))
}

/// The step of [`read_back`]'s defaults (verbose requests only).
fn read_back_step(core: &mut Core, r: &Req, obj: &Object, changes: Vec<crate::trace::Change>) {
    let paths: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
    r.step(
        core,
        Phase::Etcd,
        Component::Etcd,
        Component::ApiServer,
        format!(
            "decodes the stored {} \"{}\" for the response: defaulting runs again on every read and fills in {}",
            obj.kind(),
            obj.name(),
            paths.join(", ")
        ),
        Detail::Validation(ValidationDetail { defaults: changes, errors: vec![] }),
        StepStatus::Ok,
    );
}

pub(super) fn binding(core: &mut Core, r: &mut Req, user: &UserInfo) -> ApiResponse {
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

pub(super) fn update(core: &mut Core, r: &mut Req, user: &UserInfo) -> ApiResponse {
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
    let sub = req.subresource.as_deref().unwrap_or("");
    let decoded = if sub == "scale" {
        // The scale subresource (an autoscaling/v1 Scale) sets the parent's spec.replicas;
        // the rest of the update is the parent's own (generation, validation, admission).
        if !has_scale_subresource(req.resource.kind) {
            return ApiResponse::failure(Status::path_not_found());
        }
        let scale = body.json();
        let mut current = with_resource_version(old.clone(), rev).to_json();
        let replicas = if req.verb == Verb::Patch {
            let mut s = json!({"spec": {"replicas": current["spec"]["replicas"].clone()}});
            strategic::merge(&mut s, &scale);
            s["spec"]["replicas"].clone()
        } else {
            scale.pointer("/spec/replicas").cloned().unwrap_or(json!(0))
        };
        current["spec"]["replicas"] = replicas;
        match scale.pointer("/metadata/resourceVersion").and_then(Value::as_str).filter(|v| !v.is_empty()) {
            Some(v) => current["metadata"]["resourceVersion"] = json!(v),
            None => {
                if let Some(m) = current["metadata"].as_object_mut() {
                    m.remove("resourceVersion");
                }
            }
        }
        hooks::decode(req.resource, &current, false)
    } else if req.verb == Verb::Patch {
        let mut current = with_resource_version(old.clone(), rev).to_json();
        let patch = body.json();
        if patch.is_array() {
            // An RFC 6902 JSON patch (`application/json-patch+json`, as `kubectl rollout undo`
            // sends it).
            if let Err(e) = crate::admission::jsonpatch::apply_patch(&mut current, &patch) {
                return ApiResponse::failure(Status::bad_request(e.to_string()));
            }
        } else if req.caller.command.as_ref().is_some_and(|c| c.merge_patch) {
            // `application/merge-patch+json` (RFC 7386): lists are replaced whole.
            crate::cluster::merge_patch(&mut current, &patch);
        } else {
            strategic::merge(&mut current, &patch);
        }
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
    let mut defaults = hooks::convert(&mut incoming);
    defaults.extend(hooks::default_object(&mut incoming, r.verbose));
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
    let errors = if sub.is_empty() || sub == "scale" { hooks::validate(&new, Some(&old)) } else { Vec::new() };
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
    if r.dry_run {
        dry_run_note(core, r, &key);
        return ApiResponse::stored(200, new, rev);
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

/// The kinds whose API serves a `scale` subresource (the workload controllers with
/// `spec.replicas`).
fn has_scale_subresource(kind: &str) -> bool {
    matches!(kind, "Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController")
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

pub(super) fn delete(core: &mut Core, r: &mut Req, user: &UserInfo) -> ApiResponse {
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
    r.dry_run |= dry_run_options(&opts);
    if let Err(s) = admission(core, r, false, Operation::Delete, user, &mut obj, Some(&old)) {
        return ApiResponse::failure(s);
    }
    if r.dry_run {
        dry_run_note(core, r, &format!("the deletion of {key}"));
        return ApiResponse::stored(200, old, rev);
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

/// The most entries `status.disruptedPods` may hold before evictions are refused
/// (`MaxDisruptedPodSize`).
const MAX_DISRUPTED_PODS: usize = 2000;

/// Whether DeleteOptions (or an Eviction's `deleteOptions`) ask for a dry run
/// (`dryRun: ["All"]`, the only value the API server accepts).
fn dry_run_options(opts: &Value) -> bool {
    opts.get("dryRun").and_then(Value::as_array).is_some_and(|d| d.iter().any(|v| v == "All"))
}

/// A dry-run request (`?dryRun=All`, kubectl's `--dry-run=server`): the request went through
/// every stage, and the API server answers with what it would have stored, writing nothing.
fn dry_run_note(core: &mut Core, r: &Req, what: &str) {
    r.step(
        core,
        Phase::Etcd,
        Component::ApiServer,
        Component::ApiServer,
        format!("dry run: {what} would be written; nothing is stored in etcd"),
        Detail::Note { text: format!("dryRun=All: the API server ran every stage of the request and answers with the result, but writes nothing to etcd ({what})") },
        StepStatus::Ok,
    );
}

/// A step of the eviction's own reasoning (verbose requests only).
fn eviction_note(core: &mut Core, r: &Req, text: String, status: StepStatus) {
    r.step(
        core,
        Phase::Validation,
        Component::ApiServer,
        Component::ApiServer,
        text.clone(),
        Detail::Note { text },
        status,
    );
}

/// 429 `Cannot evict pod as it would violate the pod's disruption budget.` with one
/// `DisruptionBudget` cause.
fn too_many_requests(cause: String) -> Status {
    Status {
        code: 429,
        reason: StatusReason::TooManyRequests,
        message: "Cannot evict pod as it would violate the pod's disruption budget.".into(),
        details: Some(crate::errors::StatusDetails {
            causes: vec![crate::trace::FieldCause {
                reason: "DisruptionBudget".into(),
                message: cause,
                field: String::new(),
            }],
            ..Default::default()
        }),
    }
}

/// `POST /api/v1/namespaces/NS/pods/NAME/eviction` (upstream's `EvictionREST.Create`): the
/// body is a policy/v1 Eviction naming the Pod, with optional `deleteOptions`.
///
/// A Pod that is Pending, Succeeded or Failed, or already being deleted, is deleted without
/// looking at budgets. Otherwise the PodDisruptionBudgets of its namespace whose selector
/// (not empty) selects it decide: more than one is a 500; none lets the delete go on; with
/// one, a Pod that is not Ready is deleted without using the budget when the budget's
/// `unhealthyPodEvictionPolicy` is `AlwaysAllow`, or (`IfHealthyBudget`, the default) when
/// `currentHealthy >= desiredHealthy > 0`; else the budget must allow a disruption: a budget
/// whose status is behind its generation or that allows none answers 429 TooManyRequests,
/// one that allows some is decremented (its `DisruptionAllowed` condition turned `False` at
/// 0) and records the Pod in `status.disruptedPods`, written to etcd before the Pod's graceful
/// delete. Success is 201 with a `Status` of `Success`.
pub(super) fn eviction(core: &mut Core, r: &mut Req, user: &UserInfo) -> ApiResponse {
    let req = r.req;
    let name = req.name.clone().unwrap_or_default();
    let ns = req.namespace.clone().unwrap_or_default();
    let body = r.body.take().map(|b| b.json().into_owned()).unwrap_or(Value::Null);
    let kind = body.get("kind").and_then(Value::as_str).unwrap_or("");
    if kind != "Eviction" {
        return ApiResponse::failure(Status::bad_request(format!("not a Eviction object: {kind}")));
    }
    if body.pointer("/metadata/name").and_then(Value::as_str) != Some(name.as_str()) {
        return ApiResponse::failure(Status::bad_request("name in URL does not match name in Eviction object"));
    }
    if r.verbose {
        r.step(
            core,
            Phase::Validation,
            Component::ApiServer,
            Component::ApiServer,
            format!("decodes the Eviction of Pod {name}"),
            Detail::Validation(ValidationDetail { defaults: vec![], errors: vec![] }),
            StepStatus::Ok,
        );
    }
    let opts = body.get("deleteOptions").cloned().unwrap_or(json!({}));
    r.dry_run |= dry_run_options(&opts);
    let key = key_of(req.resource, Some(&ns), &name);
    let Some(Object::Pod(pod)) = core.store.get(&key).map(|(o, _)| o.clone()) else {
        return ApiResponse::failure(Status::not_found(group_resource(req.resource), &name));
    };
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("Pending");
    let ready = crate::controllers::util::is_pod_ready(&pod);
    let success = |core: &mut Core, r: &mut Req, user: &UserInfo, opts: Value| -> ApiResponse {
        r.body = Some(Body::Json(opts));
        let resp = delete(core, r, user);
        if resp.error.is_some() {
            return resp;
        }
        let status = json!({"apiVersion": "v1", "kind": "Status", "metadata": {}, "status": "Success"});
        ApiResponse::success(201, Object::from_json("v1", "Status", status).ok())
    };
    if matches!(phase, "Pending" | "Succeeded" | "Failed") || pod.metadata.deletion_timestamp.is_some() {
        let why = if pod.metadata.deletion_timestamp.is_some() {
            "is already being deleted".to_string()
        } else {
            format!("is {phase}")
        };
        eviction_note(
            core,
            r,
            format!("Pod {name} {why}: deleted without checking PodDisruptionBudgets"),
            StepStatus::Ok,
        );
        return success(core, r, user, opts);
    }
    // The budgets that select the Pod (an empty selector selects nothing here).
    let budgets: Vec<(String, Object, u64)> = core
        .store
        .list(
            &crate::object::resource_for_kind("PodDisruptionBudget")
                .map(|p| p.list_prefix(Some(&ns)))
                .unwrap_or_default(),
        )
        .into_iter()
        .filter(|(_, o, _)| o.kind() == "PodDisruptionBudget" && o.api_version_str() == "policy/v1")
        .filter(|(_, o, _)| {
            let spec = crate::controllers::disruption::spec_of(o);
            spec.selector.as_ref().is_some_and(|s| {
                !crate::labels::is_empty(s) && crate::labels::label_selector_matches(s, pod.metadata.labels.as_ref())
            })
        })
        .map(|(k, o, rev)| (k.to_string(), o.clone(), rev))
        .collect();
    if budgets.len() > 1 {
        let names: Vec<&str> = budgets.iter().map(|(_, o, _)| o.name()).collect();
        eviction_note(core, r, format!("Pod {name} is selected by {}: refused", names.join(", ")), StepStatus::Failed);
        return ApiResponse::failure(Status {
            code: 500,
            reason: StatusReason::Unknown,
            message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
                .into(),
            details: None,
        });
    }
    let Some((pdb_key, pdb, pdb_rev)) = budgets.into_iter().next() else {
        eviction_note(core, r, format!("no PodDisruptionBudget selects Pod {name}"), StepStatus::Ok);
        return success(core, r, user, opts);
    };
    let pdb_name = pdb.name().to_string();
    let spec = crate::controllers::disruption::spec_of(&pdb);
    let st = crate::controllers::disruption::status_of(&pdb);
    let (current_healthy, desired_healthy, disruptions_allowed) =
        (st.current_healthy.unwrap_or(0), st.desired_healthy.unwrap_or(0), st.disruptions_allowed.unwrap_or(0));
    if !ready {
        let always = spec.unhealthy_pod_eviction_policy.as_deref() == Some("AlwaysAllow");
        if always || (current_healthy >= desired_healthy && desired_healthy > 0) {
            eviction_note(
                core,
                r,
                format!(
                    "Pod {name} is not Ready and PodDisruptionBudget {pdb_name} {}: deleted without using a disruption",
                    if always {
                        "has unhealthyPodEvictionPolicy AlwaysAllow".to_string()
                    } else {
                        format!("is healthy ({} of {} needed)", current_healthy, desired_healthy)
                    }
                ),
                StepStatus::Ok,
            );
            // The delete is conditional on the Pod as read (a resourceVersion precondition).
            return success(core, r, user, opts);
        }
    }
    // checkAndDecrement.
    let generation = pdb.meta().generation.unwrap_or(0);
    let refusal = if st.observed_generation.unwrap_or(0) < generation {
        Some(too_many_requests(format!("The disruption budget {pdb_name} is still being processed by the server.")))
    } else if disruptions_allowed < 0 {
        Some(Status::forbidden(
            GroupResource::new("policy", "poddisruptionbudget"),
            &pdb_name,
            "pdb disruptions allowed is negative",
        ))
    } else if st.disrupted_pods.as_ref().is_some_and(|m| m.len() > MAX_DISRUPTED_PODS) {
        Some(Status::forbidden(
            GroupResource::new("policy", "poddisruptionbudget"),
            &pdb_name,
            "DisruptedPods map too big - too many evictions not confirmed by PDB controller",
        ))
    } else if disruptions_allowed == 0 {
        Some(too_many_requests(format!(
            "The disruption budget {pdb_name} needs {} healthy pods and has {} currently",
            desired_healthy, current_healthy
        )))
    } else {
        None
    };
    if let Some(status) = refusal {
        eviction_note(
            core,
            r,
            format!(
                "PodDisruptionBudget {pdb_name} allows {} disruption(s) ({} healthy, {} needed): the eviction of {name} is refused",
                disruptions_allowed, current_healthy, desired_healthy
            ),
            StepStatus::Failed,
        );
        return ApiResponse::failure(status);
    }
    let allowed = disruptions_allowed - 1;
    let mut v = pdb.to_json();
    v["status"]["disruptionsAllowed"] = json!(allowed);
    if allowed == 0 {
        let conditions = v["status"].get("conditions").cloned();
        v["status"]["conditions"] = crate::controllers::disruption::set_condition(
            conditions.as_ref(),
            false,
            "InsufficientPods",
            "",
            st.observed_generation.unwrap_or(0),
            core.now,
        );
    }
    let now = serde_json::to_value(timestamp(core.now)).unwrap_or(Value::Null);
    if !v["status"]["disruptedPods"].is_object() {
        v["status"]["disruptedPods"] = json!({});
    }
    v["status"]["disruptedPods"][name.as_str()] = now;
    let Ok(new_pdb) = Object::from_json("policy/v1", "PodDisruptionBudget", v) else {
        return ApiResponse::failure(Status::internal_error("cannot encode the PodDisruptionBudget"));
    };
    eviction_note(
        core,
        r,
        format!(
            "PodDisruptionBudget {pdb_name} allows {} disruption(s): {allowed} left, Pod {name} recorded in status.disruptedPods",
            disruptions_allowed
        ),
        StepStatus::Ok,
    );
    if r.dry_run {
        // checkAndDecrement does not write the budget for a dry run.
        dry_run_note(core, r, &pdb_key);
        return success(core, r, user, opts);
    }
    match core.store.update(&pdb_key, new_pdb.clone(), Some(pdb_rev)) {
        Ok(rev) => {
            core.note_write();
            etcd_step(
                core,
                r,
                EtcdDetail {
                    operation: EtcdOperation::Update,
                    key: pdb_key,
                    revision: rev,
                    value: r.stored_yaml(&new_pdb, rev),
                    error: None,
                },
                true,
            );
        }
        Err(_) => {
            return ApiResponse::failure(Status::conflict(
                GroupResource::new("policy", "poddisruptionbudgets"),
                &pdb_name,
                "the object has been modified; please apply your changes to the latest version and try again",
            ))
        }
    }
    success(core, r, user, opts)
}
