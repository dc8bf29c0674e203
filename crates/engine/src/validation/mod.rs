//! Object validation on create: the field errors the API server returns as 422 Invalid, with
//! upstream's field paths, messages and order.
//!
//! [`validate_create`] takes a decoded and defaulted object (the API server validates after
//! defaulting and after mutating admission; for a Job, after the registry generated its
//! selector) and returns the errors; [`crate::errors::Status::invalid`] turns them into the
//! response.
//!
//! Covered, by kind: object metadata for every kind (name or generateName, DNS-1123 subdomain,
//! label or 1035-label rules per kind, namespace, labels, annotations, owner references,
//! finalizers); Pod (`ValidatePodCreate`: containers and init containers, names, images,
//! ports, env, envFrom, volume mounts and devices, pull policy, resources and requests ≤
//! limits, probes, lifecycle hooks, security contexts, volumes and their sources, restart and
//! DNS policies, DNS config, node selector, tolerations, host aliases, host network ports,
//! scheduling and readiness gates); Deployment, ReplicaSet, DaemonSet, StatefulSet, Job
//! (selectors and templates, update strategies); ControllerRevision; CronJob (schedule, time
//! zone, policies, job template, the 52-character name);
//! Service; Namespace; ConfigMap; Secret; LimitRange; ResourceQuota; ServiceAccount;
//! PersistentVolumeClaim; Role, ClusterRole, RoleBinding, ClusterRoleBinding; PodDisruptionBudget
//! (minAvailable or maxUnavailable, int or percent, selector); metadata only
//! for the other kinds.
//!
//! Updates ([`validate_update`]): a Pod's spec may change only where `ValidatePodUpdate`
//! allows (images, `activeDeadlineSeconds`, added tolerations, removed scheduling gates); a
//! Deployment's, ReplicaSet's or DaemonSet's selector not at all, a ControllerRevision's data
//! not at all; a StatefulSet's spec only in replicas, ordinals, template, updateStrategy, the
//! claim retention policy and minReadySeconds.
//!
//! Go iterates maps in random order; where upstream loops over a map (labels, resource
//! lists), this module uses key order, so the output is stable.

mod core;
mod godiff;
mod meta;
pub mod names;
mod pod;
mod workloads;

use crate::errors::FieldError;
use crate::object::Object;

/// Upstream's create validation for an object.
pub fn validate_create(obj: &Object) -> Vec<FieldError> {
    let mut errs = Vec::new();
    match obj {
        Object::Pod(p) => pod::validate_pod_create(p, &mut errs),
        Object::Deployment(d) => workloads::deployment(d, &mut errs),
        Object::ReplicaSet(r) => workloads::replica_set(r, &mut errs),
        Object::DaemonSet(d) => workloads::daemon_set(d, &mut errs),
        Object::ControllerRevision(c) => workloads::controller_revision(c, &mut errs),
        Object::StatefulSet(s) => workloads::stateful_set(s, &mut errs),
        Object::Job(j) => workloads::job(j, &mut errs),
        Object::CronJob(c) => workloads::cron_job(c, &mut errs),
        Object::Service(s) => core::service(s, &mut errs),
        Object::Namespace(n) => core::namespace(n, &mut errs),
        Object::ConfigMap(c) => core::config_map(c, &mut errs),
        Object::Secret(s) => core::secret(s, &mut errs),
        Object::LimitRange(l) => core::limit_range(l, &mut errs),
        Object::ResourceQuota(r) => core::resource_quota(r, &mut errs),
        Object::ServiceAccount(s) => meta::object_meta(&s.metadata, true, names::name_is_dns_subdomain, &mut errs),
        Object::PersistentVolumeClaim(c) => {
            meta::object_meta(&c.metadata, true, names::name_is_dns_subdomain, &mut errs);
            core::pvc_spec(&c.spec.clone().unwrap_or_default(), "spec", &mut errs);
        }
        Object::Role(r) => core::role(&r.metadata, r.rules.as_deref().unwrap_or_default(), true, &mut errs),
        Object::ClusterRole(r) => core::role(&r.metadata, r.rules.as_deref().unwrap_or_default(), false, &mut errs),
        Object::RoleBinding(b) => {
            core::role_binding(&b.metadata, &b.role_ref, b.subjects.as_deref().unwrap_or_default(), true, &mut errs)
        }
        Object::ClusterRoleBinding(b) => {
            core::role_binding(&b.metadata, &b.role_ref, b.subjects.as_deref().unwrap_or_default(), false, &mut errs)
        }
        other => {
            let info = other.resource().or_else(|| crate::object::resource_for_kind(other.kind()));
            let namespaced = info.is_none_or(|r| r.namespaced);
            meta::object_meta(other.meta(), namespaced, names::name_is_dns_subdomain, &mut errs);
            if other.kind() == "PodDisruptionBudget" && other.api_version() == "policy/v1" {
                workloads::pod_disruption_budget(&other.to_json(), &mut errs);
            }
        }
    }
    errs
}

/// Upstream's validation of an update to the main resource (`ValidateUpdate` of the kind's
/// registry strategy), `new` being the object the update produces. A Pod: `ValidatePodUpdate`
/// (most of the spec cannot change). A Deployment or ReplicaSet: the new object as on create,
/// then `spec.selector`, which apps/v1 does not let an update change. Other kinds: the new
/// object as on create (their update-only rules are not modelled).
pub fn validate_update(new: &Object, old: &Object) -> Vec<FieldError> {
    let mut errs = Vec::new();
    match (new, old) {
        (Object::Pod(n), Object::Pod(o)) => pod::validate_pod_update(n, o, &mut errs),
        (Object::Deployment(n), Object::Deployment(o)) => {
            workloads::deployment(n, &mut errs);
            immutable_selector(&n.spec.selector, &o.spec.selector, &mut errs);
        }
        (Object::ReplicaSet(n), Object::ReplicaSet(o)) => {
            workloads::replica_set(n, &mut errs);
            immutable_selector(&n.spec.selector, &o.spec.selector, &mut errs);
        }
        (Object::DaemonSet(n), Object::DaemonSet(o)) => {
            workloads::daemon_set(n, &mut errs);
            immutable_selector(&n.spec.selector, &o.spec.selector, &mut errs);
        }
        (Object::ControllerRevision(n), Object::ControllerRevision(o)) => {
            workloads::controller_revision(n, &mut errs);
            // `ValidateControllerRevisionUpdate`: the data cannot change.
            if n.data != o.data {
                let value = n.data.0.clone();
                errs.push(FieldError::invalid("data", value, "field is immutable"));
            }
        }
        (Object::StatefulSet(n), Object::StatefulSet(o)) => workloads::stateful_set_update(n, o, &mut errs),
        _ => return validate_create(new),
    }
    errs
}

/// `ValidateImmutableField` of `spec.selector`: `Invalid value: <the new selector>: field is
/// immutable`.
fn immutable_selector(
    new: &k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector,
    old: &k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector,
    errs: &mut Vec<FieldError>,
) {
    if new != old {
        let value = serde_json::to_value(new).unwrap_or_default();
        errs.push(FieldError::invalid("spec.selector", value, "field is immutable"));
    }
}

#[cfg(test)]
mod tests;
