//! Small helpers every controller shares: reading the store as an informer cache would,
//! label selectors, owner references, pod states, conditions and times.

use crate::apiserver::{timestamp, EPOCH_UNIX_MS};
use crate::object::{resource_for, resource_for_kind, Object, ResourceInfo, RESOURCES};
use crate::sim::Core;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta, OwnerReference, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The resource table entry of a built-in kind (the table always has these kinds).
pub fn res(kind: &str) -> &'static ResourceInfo {
    resource_for_kind(kind).unwrap_or(&RESOURCES[0])
}

/// Every object of `kind` in `namespace` (or in all namespaces), in key order.
pub fn list(core: &Core, kind: &str, namespace: Option<&str>) -> Vec<Object> {
    list_shared(core, kind, namespace).into_iter().map(|o| (*o).clone()).collect()
}

/// [`list`] without copying the objects: handles on the store's own values.
pub fn list_shared(core: &Core, kind: &str, namespace: Option<&str>) -> Vec<Arc<Object>> {
    let r = res(kind);
    core.store.list_shared(&r.list_prefix(namespace)).into_iter().filter(|o| o.kind() == kind).collect()
}

/// One object by kind, namespace and name.
pub fn get(core: &Core, kind: &str, namespace: Option<&str>, name: &str) -> Option<Object> {
    get_shared(core, kind, namespace, name).map(|o| (*o).clone())
}

/// [`get`] without copying the object.
pub fn get_shared(core: &Core, kind: &str, namespace: Option<&str>, name: &str) -> Option<Arc<Object>> {
    let r = res(kind);
    core.store.get_shared(&r.etcd_key(namespace, name)).map(|(o, _)| o)
}

/// The etcd mod revision of an object (what its resourceVersion reads as).
pub fn revision_of(core: &Core, obj: &Object) -> Option<u64> {
    let r = obj.resource()?;
    core.store.get(&r.etcd_key(obj.namespace(), obj.name())).map(|(_, rev)| rev)
}

/// The Pods (of `namespace`, or of every namespace), as handles on the store's values:
/// a controller copies only the ones it changes.
pub fn pods(core: &Core, namespace: Option<&str>) -> Vec<Arc<Pod>> {
    list_shared(core, "Pod", namespace)
        .into_iter()
        .filter_map(|o| match &*o {
            Object::Pod(p) => Some(Arc::clone(p)),
            _ => None,
        })
        .collect()
}

/// `namespace/name`, the key controllers queue.
pub fn key_of(meta: &ObjectMeta) -> String {
    match &meta.namespace {
        Some(ns) => format!("{ns}/{}", meta.name.as_deref().unwrap_or("")),
        None => meta.name.clone().unwrap_or_default(),
    }
}

/// Splits a `namespace/name` key (a bare name is cluster-scoped).
pub fn split_key(key: &str) -> (Option<&str>, &str) {
    match key.split_once('/') {
        Some((ns, name)) => (Some(ns), name),
        None => (None, key),
    }
}

// ---------------------------------------------------------------------------------------
// Label selectors

/// `a=b,c=d` for summaries.
pub fn format_labels(labels: &BTreeMap<String, String>) -> String {
    labels.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
}

pub fn format_selector(sel: &LabelSelector) -> String {
    let mut parts: Vec<String> = sel.match_labels.iter().flatten().map(|(k, v)| format!("{k}={v}")).collect();
    for req in sel.match_expressions.iter().flatten() {
        let values = req.values.clone().unwrap_or_default().join(",");
        parts.push(match req.operator.as_str() {
            "Exists" => req.key.clone(),
            "DoesNotExist" => format!("!{}", req.key),
            op => format!("{} {} ({values})", req.key, op.to_lowercase()),
        });
    }
    parts.join(",")
}

// ---------------------------------------------------------------------------------------
// Owner references

/// The controlling owner reference (`controller: true`), if any.
pub fn controller_of(meta: &ObjectMeta) -> Option<&OwnerReference> {
    meta.owner_references.iter().flatten().find(|r| r.controller == Some(true))
}

/// `metav1.NewControllerRef`: controller and blockOwnerDeletion both true.
pub fn new_controller_ref(owner: &ObjectMeta, api_version: &str, kind: &str) -> OwnerReference {
    OwnerReference {
        api_version: api_version.to_string(),
        kind: kind.to_string(),
        name: owner.name.clone().unwrap_or_default(),
        uid: owner.uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// The strategic merge patch with which a controller adopts an orphan (upstream's
/// `ownerRefControllerPatch`): its controller reference, any finalizers the controller tracks
/// the object with, and the orphan's `uid` as a precondition (a patch that changed it would be
/// refused as an immutable field).
pub fn adopt_patch(owner: &ObjectMeta, api_version: &str, kind: &str, uid: &str, finalizers: &[&str]) -> Value {
    let reference = serde_json::to_value(new_controller_ref(owner, api_version, kind)).unwrap_or_default();
    let mut metadata = serde_json::json!({"ownerReferences": [reference], "uid": uid});
    if !finalizers.is_empty() {
        metadata["finalizers"] = serde_json::json!(finalizers);
    }
    serde_json::json!({ "metadata": metadata })
}

/// The strategic merge patch with which a controller releases an object it no longer selects
/// (upstream's `GenerateDeleteOwnerRefStrategicMergeBytes`): its reference deleted by `uid`.
pub fn release_patch(owner_uid: &str, uid: &str) -> Value {
    serde_json::json!({"metadata": {"ownerReferences": [{"$patch": "delete", "uid": owner_uid}], "uid": uid}})
}

/// Whether `meta` is controlled by the object with `uid`.
pub fn is_controlled_by(meta: &ObjectMeta, uid: &str) -> bool {
    controller_of(meta).is_some_and(|r| r.uid == uid)
}

/// Resolves an owner reference to the live owner in the store (same namespace for
/// namespaced owners), checking the UID as upstream does.
pub fn resolve_owner(core: &Core, namespace: Option<&str>, r: &OwnerReference) -> Option<Arc<Object>> {
    let info = resource_for(&r.api_version, &r.kind).or_else(|| resource_for_kind(&r.kind))?;
    let ns = if info.namespaced { namespace } else { None };
    let (obj, _) = core.store.get_shared(&info.etcd_key(ns, &r.name))?;
    (obj.meta().uid.as_deref() == Some(r.uid.as_str())).then_some(obj)
}

pub fn has_finalizer(meta: &ObjectMeta, f: &str) -> bool {
    meta.finalizers.iter().flatten().any(|x| x == f)
}

pub fn is_deleting(meta: &ObjectMeta) -> bool {
    meta.deletion_timestamp.is_some()
}

// ---------------------------------------------------------------------------------------
// Pods

pub fn phase(pod: &Pod) -> &str {
    pod.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("")
}

/// Running or pending, not being deleted (`controller.IsPodActive`).
pub fn is_pod_active(pod: &Pod) -> bool {
    let p = phase(pod);
    p != "Succeeded" && p != "Failed" && pod.metadata.deletion_timestamp.is_none()
}

/// Being deleted but not yet finished (`controller.IsPodTerminating`).
pub fn is_pod_terminating(pod: &Pod) -> bool {
    let p = phase(pod);
    p != "Succeeded" && p != "Failed" && pod.metadata.deletion_timestamp.is_some()
}

pub fn pod_condition<'a>(pod: &'a Pod, type_: &str) -> Option<&'a k8s_openapi::api::core::v1::PodCondition> {
    pod.status.as_ref()?.conditions.as_ref()?.iter().find(|c| c.type_ == type_)
}

/// The Ready condition is True.
pub fn is_pod_ready(pod: &Pod) -> bool {
    pod_condition(pod, "Ready").is_some_and(|c| c.status == "True")
}

/// Ready for at least `min_ready_seconds` (`podutil.IsPodAvailable`: the ready transition
/// plus minReadySeconds must lie strictly before now).
pub fn is_pod_available(pod: &Pod, min_ready_seconds: i32, now_ms: u64) -> bool {
    let Some(c) = pod_condition(pod, "Ready").filter(|c| c.status == "True") else { return false };
    if min_ready_seconds <= 0 {
        return true;
    }
    match c.last_transition_time.as_ref().map(time_ms) {
        Some(t) => t + i64::from(min_ready_seconds) * 1000 < now_ms as i64,
        None => false,
    }
}

/// When the pod became ready, in logical ms.
pub fn pod_ready_ms(pod: &Pod) -> Option<i64> {
    pod_condition(pod, "Ready")
        .filter(|c| c.status == "True")
        .and_then(|c| c.last_transition_time.as_ref())
        .map(time_ms)
}

pub fn pod_ip(pod: &Pod) -> Option<&str> {
    let s = pod.status.as_ref()?;
    s.pod_ips
        .as_ref()
        .and_then(|ips| ips.first())
        .map(|ip| ip.ip.as_str())
        .or(s.pod_ip.as_deref())
        .filter(|s| !s.is_empty())
}

pub fn node_name(pod: &Pod) -> &str {
    pod.spec.as_ref().and_then(|s| s.node_name.as_deref()).unwrap_or("")
}

pub fn max_restarts(pod: &Pod) -> i32 {
    pod.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .map_or(0, |cs| cs.iter().map(|c| c.restart_count).max().unwrap_or(0))
}

// ---------------------------------------------------------------------------------------
// Time

/// A metav1.Time as logical milliseconds (may be negative for times before the lab's epoch).
pub fn time_ms(t: &Time) -> i64 {
    t.0.as_millisecond() - EPOCH_UNIX_MS
}

/// Parses an RFC 3339 timestamp (e.g. a Lease's `renewTime`) as logical milliseconds.
pub fn parse_time_ms(s: &str) -> Option<i64> {
    s.parse::<k8s_openapi::jiff::Timestamp>().ok().map(|t| t.as_millisecond() - EPOCH_UNIX_MS)
}

pub fn now(core: &Core) -> Time {
    timestamp(core.now)
}

/// An RFC 3339 time with microseconds (a MicroTime, as Lease `renewTime` uses).
pub fn micro_time(now_ms: u64) -> String {
    let ms = EPOCH_UNIX_MS + now_ms as i64;
    let ts = k8s_openapi::jiff::Timestamp::from_millisecond(ms).unwrap_or_default();
    format!("{}", ts.strftime("%Y-%m-%dT%H:%M:%S.%6fZ"))
}

/// `12.5s`, `3m0s` style durations for summaries (Go's `time.Duration` printing).
pub fn go_duration(ms: i64) -> String {
    if ms == 0 {
        return "0s".into();
    }
    let neg = ms < 0;
    let ms = ms.unsigned_abs();
    let h = ms / 3_600_000;
    let m = (ms / 60_000) % 60;
    let s = (ms % 60_000) as f64 / 1000.0;
    let secs = if s.fract() == 0.0 { format!("{}s", s as u64) } else { format!("{}s", trim_float(s)) };
    let out = if h > 0 {
        format!("{h}h{m}m{secs}")
    } else if m > 0 {
        format!("{m}m{secs}")
    } else if ms < 1000 {
        format!("{ms}ms")
    } else {
        secs
    };
    if neg {
        format!("-{out}")
    } else {
        out
    }
}

fn trim_float(f: f64) -> String {
    let s = format!("{f:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

// ---------------------------------------------------------------------------------------
// IntOrString

/// `intstr.GetScaledValueFromIntOrPercent`: an integer as is, or a percentage of `total`
/// rounded up or down.
pub fn scaled_value(v: Option<&IntOrString>, total: i32, round_up: bool) -> i32 {
    match v {
        None => 0,
        Some(IntOrString::Int(i)) => *i,
        Some(IntOrString::String(s)) => {
            let Some(p) = s.strip_suffix('%').and_then(|p| p.parse::<i64>().ok()) else {
                return s.parse::<i32>().unwrap_or(0);
            };
            let product = p * i64::from(total);
            let v = if round_up { (product + 99).div_euclid(100) } else { product.div_euclid(100) };
            v as i32
        }
    }
}

/// Go's `math.Round` on a non-negative or negative float to i32 (half away from zero).
pub fn round_half_away(f: f64) -> i32 {
    f.round() as i32
}

/// Value of a `0`-omitted int32 field as Go prints it (`omitempty`).
pub fn nz(v: i32) -> Option<i32> {
    (v != 0).then_some(v)
}

pub fn nz64(v: i64) -> Option<i64> {
    (v != 0).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_round_like_intstr() {
        let p = |s: &str| IntOrString::String(s.to_string());
        assert_eq!(scaled_value(Some(&p("25%")), 4, true), 1);
        assert_eq!(scaled_value(Some(&p("25%")), 10, true), 3);
        assert_eq!(scaled_value(Some(&p("25%")), 10, false), 2);
        assert_eq!(scaled_value(Some(&IntOrString::Int(2)), 10, false), 2);
        assert_eq!(go_duration(300_000), "5m0s");
        assert_eq!(go_duration(12_500), "12.5s");
        assert_eq!(go_duration(250), "250ms");
        assert_eq!(micro_time(10_500), "2026-01-01T00:00:10.500000Z");
        assert_eq!(parse_time_ms("2026-01-01T00:00:10.500000Z"), Some(10_500));
    }
}
