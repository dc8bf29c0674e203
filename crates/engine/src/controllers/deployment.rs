//! The Deployment controller: one ReplicaSet per version of the Pod template, scaled so the
//! Deployment reaches its replica count the way its strategy says.
//!
//! A sync finds the Deployment's ReplicaSets (adopting orphans its selector matches), picks
//! the *new* one (whose template equals the Deployment's, ignoring the
//! `pod-template-hash` label) and the *old* ones, then:
//! - **scaling** (the Deployment's `replicas` changed while a rollout is not in flight):
//!   resizes the active ReplicaSets proportionally;
//! - **RollingUpdate**: creates the new ReplicaSet if needed (named
//!   `<deployment>-<pod-template-hash>`, with the hash added to its labels and selector),
//!   scales it up as far as `maxSurge` allows (a percentage rounded up) and scales old
//!   ReplicaSets down as far as `maxUnavailable` allows (rounded down), counting only
//!   *available* Pods (Ready for `minReadySeconds`); each step waits for Pods to become
//!   available, which the ReplicaSet controller reports in status;
//! - **Recreate**: scales every old ReplicaSet to 0, waits until their Pods are gone, then
//!   creates/scales the new one;
//! - writes Deployment `status` with the `Available` and `Progressing` conditions
//!   (including `ProgressDeadlineExceeded` when no progress was made for
//!   `progressDeadlineSeconds`).
//!
//! ## The pod-template-hash
//! Upstream hashes the template with FNV-32a over Go's `spew` dump of the
//! `v1.PodTemplateSpec` struct (plus `collisionCount`), and prints the 32-bit sum in decimal
//! through `rand.SafeEncodeString` (each digit mapped into `bcdfghjklmnpqrstvwxz2456789`).
//! The lab keeps FNV-32a, the collision count bytes and the encoding, but hashes a canonical
//! JSON form of the template (keys sorted) instead of the spew dump, which depends on Go's
//! struct layout. Names therefore look and behave like real ones (same alphabet, same
//! length, change with the template, stable across runs) but differ from a real cluster's.

mod progress;
mod recreate;
mod rolling;

use super::replicaset;
use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::labels;
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::apps::v1::{
    Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet, ReplicaSetSpec, ReplicaSetStatus,
};
use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use std::collections::BTreeMap;
use std::sync::Arc;

pub const NAME: &str = "deployment-controller";
pub const SERVICE_ACCOUNT: &str = "deployment-controller";
/// From a watch event to the sync of the Deployment.
pub const WATCH_LATENCY_MS: u64 = 3;

pub const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";
pub const REVISION_HISTORY_ANNOTATION: &str = "deployment.kubernetes.io/revision-history";
pub const DESIRED_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/desired-replicas";
pub const MAX_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/max-replicas";
pub const POD_TEMPLATE_HASH_LABEL: &str = "pod-template-hash";
/// Annotations of the Deployment that are not copied to its ReplicaSets.
pub const SKIP_COPY_ANNOTATIONS: [&str; 6] = [
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION_ANNOTATION,
    REVISION_HISTORY_ANNOTATION,
    DESIRED_REPLICAS_ANNOTATION,
    MAX_REPLICAS_ANNOTATION,
    "deprecated.deployment.rollback.to",
];
/// `revision-history` is trimmed to this many characters.
const MAX_REV_HISTORY_CHARS: usize = 2000;

// Condition reasons (`pkg/controller/deployment/util`).
pub const NEW_RS_REASON: &str = "NewReplicaSetCreated";
pub const FOUND_NEW_RS_REASON: &str = "FoundNewReplicaSet";
pub const NEW_RS_AVAILABLE_REASON: &str = "NewReplicaSetAvailable";
pub const TIMED_OUT_REASON: &str = "ProgressDeadlineExceeded";
pub const RS_UPDATED_REASON: &str = "ReplicaSetUpdated";
pub const FAILED_RS_CREATE_REASON: &str = "ReplicaSetCreateError";
pub const PAUSED_REASON: &str = "DeploymentPaused";
pub const RESUMED_REASON: &str = "DeploymentResumed";
pub const MIN_AVAILABLE_REASON: &str = "MinimumReplicasAvailable";
pub const MIN_UNAVAILABLE_REASON: &str = "MinimumReplicasUnavailable";

const SOURCE: EventSourceInfo =
    EventSourceInfo { component: "deployment-controller", service_account: SERVICE_ACCOUNT, phase: Phase::Controllers };

#[derive(Debug, Default)]
pub struct DeploymentController;

impl Controller for DeploymentController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            Object::Deployment(d) => {
                if ev.kind == EventType::Deleted {
                    return;
                }
                // Our own status writes come back as updates; they need no sync.
                if let Some(Object::Deployment(prev)) = ev.prev.as_deref() {
                    if prev.spec == d.spec
                        && prev.metadata.labels == d.metadata.labels
                        && prev.metadata.deletion_timestamp == d.metadata.deletion_timestamp
                        && prev.metadata.generation == d.metadata.generation
                    {
                        return;
                    }
                }
                let reason = if ev.kind == EventType::Added {
                    "a new Deployment: create its ReplicaSet"
                } else {
                    "the Deployment changed: reconcile its ReplicaSets"
                };
                cx.watch(NAME, Phase::Controllers, ev, &key_of(&d.metadata), WATCH_LATENCY_MS, reason);
            }
            Object::ReplicaSet(rs) => {
                let ns = rs.metadata.namespace.as_deref();
                let mut owners = Vec::new();
                if let Some(d) = owning_deployment(cx, ns, &rs.metadata) {
                    owners.push((d, "a ReplicaSet of this Deployment changed"));
                } else if controller_of(&rs.metadata).is_none() && ev.kind != EventType::Deleted {
                    for o in list(cx.core, "Deployment", ns) {
                        if let Object::Deployment(d) = o {
                            let sel = Some(&d.spec).map(|s| &s.selector);
                            if labels::matches(sel, rs.metadata.labels.as_ref()) {
                                owners.push((d, "an orphan ReplicaSet matches the selector"));
                            }
                        }
                    }
                }
                if let Some(Object::ReplicaSet(prev)) = ev.prev.as_deref() {
                    if controller_of(&prev.metadata) != controller_of(&rs.metadata) {
                        if let Some(d) = owning_deployment(cx, ns, &prev.metadata) {
                            owners.push((d, "a ReplicaSet left this Deployment"));
                        }
                    }
                }
                for (d, reason) in owners {
                    cx.watch(NAME, Phase::Controllers, ev, &key_of(&d.metadata), WATCH_LATENCY_MS, reason);
                }
            }
            Object::Pod(pod) if ev.kind == EventType::Deleted => {
                // Recreate waits for every old Pod to be gone.
                let ns = pod.metadata.namespace.as_deref();
                let Some(r) = controller_of(&pod.metadata).filter(|r| r.kind == "ReplicaSet") else { return };
                let Some(owner) = resolve_owner(cx.core, ns, r) else { return };
                let Object::ReplicaSet(rs) = &*owner else { return };
                let Some(d) = owning_deployment(cx, ns, &rs.metadata) else { return };
                if strategy_type(&d) != "Recreate" {
                    return;
                }
                let sel = Some(&d.spec).map(|s| s.selector.clone());
                let left = pods(cx.core, ns)
                    .iter()
                    .filter(|p| labels::matches(sel.as_ref(), p.metadata.labels.as_ref()))
                    .count();
                if left == 0 {
                    cx.watch(
                        NAME,
                        Phase::Controllers,
                        ev,
                        &key_of(&d.metadata),
                        WATCH_LATENCY_MS,
                        "the last old Pod is gone: Recreate can go on",
                    );
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        // The progress-deadline timer syncs the Deployment like any other event.
        let key = key.strip_suffix(PROGRESS_TIMER_SUFFIX).unwrap_or(key);
        let (ns, name) = split_key(key);
        let Some(Object::Deployment(d)) = get(cx.core, "Deployment", ns, name) else { return };
        let mut s = Sync { cx, d };
        match s.sync_deployment() {
            Ok(()) => s.cx.forget(NAME, key),
            Err(()) => {
                s.cx.requeue_rate_limited(NAME, key);
            }
        }
    }
}

fn owning_deployment(
    cx: &Cx,
    ns: Option<&str>,
    meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
) -> Option<Arc<Deployment>> {
    let r = controller_of(meta).filter(|r| r.kind == "Deployment")?;
    match resolve_owner(cx.core, ns, r).as_deref() {
        Some(Object::Deployment(d)) => Some(Arc::clone(d)),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------
// Spec accessors with the API defaults

pub fn replicas(d: &Deployment) -> i32 {
    Some(&d.spec).and_then(|s| s.replicas).unwrap_or(1)
}

fn rs_replicas(rs: &ReplicaSet) -> i32 {
    Some(&rs.spec).and_then(|s| s.replicas).unwrap_or(1)
}

fn rs_status(rs: &ReplicaSet) -> ReplicaSetStatus {
    rs.status.clone().unwrap_or_default()
}

fn rs_name(rs: &ReplicaSet) -> String {
    rs.metadata.name.clone().unwrap_or_default()
}

pub fn strategy_type(d: &Deployment) -> String {
    Some(&d.spec)
        .and_then(|s| s.strategy.as_ref())
        .and_then(|s| s.type_.clone())
        .unwrap_or_else(|| "RollingUpdate".into())
}

fn is_rolling(d: &Deployment) -> bool {
    strategy_type(d) == "RollingUpdate"
}

fn template(d: &Deployment) -> PodTemplateSpec {
    Some(&d.spec).map(|s| s.template.clone()).unwrap_or_default()
}

fn min_ready_seconds(d: &Deployment) -> i32 {
    Some(&d.spec).and_then(|s| s.min_ready_seconds).unwrap_or(0)
}

/// The key suffix of a Deployment's progress-deadline timer (so it can be dropped once the
/// rollout completed).
const PROGRESS_TIMER_SUFFIX: &str = "|progress";

/// `progressDeadlineSeconds` (defaulted to 600); None when it is the "no deadline" max.
fn progress_deadline(d: &Deployment) -> Option<i32> {
    let v = Some(&d.spec).and_then(|s| s.progress_deadline_seconds).unwrap_or(600);
    (v != i32::MAX).then_some(v)
}

fn revision_history_limit(d: &Deployment) -> i32 {
    Some(&d.spec).and_then(|s| s.revision_history_limit).unwrap_or(10)
}

fn paused(d: &Deployment) -> bool {
    Some(&d.spec).and_then(|s| s.paused).unwrap_or(false)
}

/// `ResolveFenceposts`: maxSurge rounds up, maxUnavailable rounds down, and both cannot be 0.
pub fn resolve_fenceposts(d: &Deployment) -> (i32, i32) {
    let ru = Some(&d.spec).and_then(|s| s.strategy.as_ref()).and_then(|s| s.rolling_update.as_ref());
    let default = k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::String("25%".into());
    let surge_v = ru.and_then(|r| r.max_surge.as_ref()).unwrap_or(&default);
    let unavail_v = ru.and_then(|r| r.max_unavailable.as_ref()).unwrap_or(&default);
    let desired = replicas(d);
    let surge = scaled_value(Some(surge_v), desired, true);
    let mut unavailable = scaled_value(Some(unavail_v), desired, false);
    if surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    (surge, unavailable)
}

pub fn max_surge(d: &Deployment) -> i32 {
    if !is_rolling(d) {
        return 0;
    }
    resolve_fenceposts(d).0
}

pub fn max_unavailable(d: &Deployment) -> i32 {
    if !is_rolling(d) || replicas(d) == 0 {
        return 0;
    }
    resolve_fenceposts(d).1.min(replicas(d))
}

// ---------------------------------------------------------------------------------------
// The pod-template-hash

/// FNV-32a.
pub fn fnv32a(data: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in data {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// `rand.SafeEncodeString`: each byte mapped into the alphabet without vowels and
/// look-alike characters.
pub fn safe_encode(s: &str) -> String {
    const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    s.bytes().map(|b| ALPHANUMS[usize::from(b) % ALPHANUMS.len()] as char).collect()
}

fn canonical_json(v: &serde_json::Value, out: &mut String) {
    match v {
        serde_json::Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            crate::sort::sort(&mut keys);
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_string(out, k);
                out.push(':');
                canonical_json(&m[*k], out);
            }
            out.push('}');
        }
        serde_json::Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical_json(x, out);
            }
            out.push(']');
        }
        serde_json::Value::String(t) => push_json_string(out, t),
        other => out.push_str(&other.to_string()),
    }
}

/// `s` as serde_json writes a string: quoted, with `"`, `\\` and control characters escaped.
fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                out.push_str("\\u00");
                crate::text::push_hex_byte(out, c as u8);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The `pod-template-hash` of a template (see the module documentation for how it differs
/// from upstream's input serialisation).
pub fn compute_hash(template: &PodTemplateSpec, collision_count: Option<i32>) -> String {
    let mut text = String::new();
    canonical_json(&serde_json::to_value(template).unwrap_or_default(), &mut text);
    let mut bytes = text.into_bytes();
    if let Some(c) = collision_count {
        let mut cc = [0u8; 8];
        cc[..4].copy_from_slice(&(c as u32).to_le_bytes());
        bytes.extend_from_slice(&cc);
    }
    safe_encode(&fnv32a(&bytes).to_string())
}

/// Templates equal apart from the `pod-template-hash` label (`EqualIgnoreHash`).
pub fn equal_ignore_hash(a: &PodTemplateSpec, b: &PodTemplateSpec) -> bool {
    // The specs compare in place; only the metadata is copied to drop the label.
    let strip = |t: &PodTemplateSpec| {
        let mut m = t.metadata.clone();
        if let Some(m) = m.as_mut() {
            if let Some(l) = m.labels.as_mut() {
                l.remove(POD_TEMPLATE_HASH_LABEL);
                if l.is_empty() {
                    m.labels = None;
                }
            }
        }
        m
    };
    a.spec == b.spec && strip(a) == strip(b)
}

// ---------------------------------------------------------------------------------------
// ReplicaSet lists

fn by_creation(a: &Arc<ReplicaSet>, b: &Arc<ReplicaSet>) -> std::cmp::Ordering {
    let ta = a.metadata.creation_timestamp.as_ref().map(time_ms);
    let tb = b.metadata.creation_timestamp.as_ref().map(time_ms);
    ta.cmp(&tb).then_with(|| a.metadata.name.cmp(&b.metadata.name))
}

fn revision(rs: &ReplicaSet) -> i64 {
    rs.metadata.annotations.as_ref().and_then(|a| a.get(REVISION_ANNOTATION)).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn annotation_i32(rs: &ReplicaSet, key: &str) -> Option<i32> {
    rs.metadata.annotations.as_ref().and_then(|a| a.get(key)).and_then(|v| v.parse().ok())
}

fn is_active(rs: &ReplicaSet) -> bool {
    rs_replicas(rs) > 0
}

/// The oldest ReplicaSet whose template equals the Deployment's.
fn find_new(d: &Deployment, rss: &[Arc<ReplicaSet>]) -> Option<Arc<ReplicaSet>> {
    let mut sorted = rss.to_vec();
    crate::sort::sort_by(&mut sorted, by_creation);
    let t = &d.spec.template;
    sorted
        .into_iter()
        .find(|rs| Some(&rs.spec).and_then(|s| s.template.as_ref()).is_some_and(|rt| equal_ignore_hash(rt, t)))
}

fn sum(rss: &[Arc<ReplicaSet>], f: impl Fn(&ReplicaSet) -> i32) -> i32 {
    rss.iter().map(|rs| f(rs)).sum()
}

/// `desired-replicas` annotation equals `desired` and `max-replicas` equals `max`.
fn replicas_annotations_need_update(rs: &ReplicaSet, desired: i32, max: i32) -> bool {
    annotation_i32(rs, DESIRED_REPLICAS_ANNOTATION) != Some(desired)
        || annotation_i32(rs, MAX_REPLICAS_ANNOTATION) != Some(max)
}

fn set_replicas_annotations(rs: &mut ReplicaSet, desired: i32, max: i32) -> bool {
    let a = rs.metadata.annotations.get_or_insert_with(BTreeMap::new);
    let mut changed = false;
    for (k, v) in [(DESIRED_REPLICAS_ANNOTATION, desired), (MAX_REPLICAS_ANNOTATION, max)] {
        if a.get(k) != Some(&v.to_string()) {
            a.insert(k.to_string(), v.to_string());
            changed = true;
        }
    }
    changed
}

/// `SetNewReplicaSetAnnotations`: copies the Deployment's annotations, bumps the revision
/// (keeping the revision history on a rollback) and, for a new ReplicaSet, the replica
/// annotations.
fn set_new_rs_annotations(d: &Deployment, rs: &mut ReplicaSet, new_revision: i64, exists: bool) -> bool {
    let mut changed = false;
    let ann = rs.metadata.annotations.get_or_insert_with(BTreeMap::new);
    for (k, v) in d.metadata.annotations.iter().flatten() {
        if SKIP_COPY_ANNOTATIONS.contains(&k.as_str()) || ann.get(k) == Some(v) {
            continue;
        }
        ann.insert(k.clone(), v.clone());
        changed = true;
    }
    let old = ann.get(REVISION_ANNOTATION).cloned();
    let old_int = match old.as_deref().map(str::parse::<i64>) {
        None => 0,
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    if old_int < new_revision {
        ann.insert(REVISION_ANNOTATION.into(), new_revision.to_string());
        changed = true;
        if let Some(old) = old {
            let history = ann.get(REVISION_HISTORY_ANNOTATION).cloned().unwrap_or_default();
            let mut revs: Vec<String> =
                if history.is_empty() { vec![] } else { history.split(',').map(str::to_string).collect() };
            revs.push(old);
            while revs.join(",").len() > MAX_REV_HISTORY_CHARS && revs.len() > 1 {
                revs.remove(0);
            }
            ann.insert(REVISION_HISTORY_ANNOTATION.into(), revs.join(","));
        }
    }
    if !exists && set_replicas_annotations(rs, replicas(d), replicas(d) + max_surge(d)) {
        changed = true;
    }
    changed
}

/// Sets the Deployment's revision annotation; true when it changed (the Deployment is
/// copied out of a shared handle only then).
fn set_deployment_revision(d: &mut Arc<Deployment>, rev: &str) -> bool {
    let current = d.metadata.annotations.as_ref().and_then(|a| a.get(REVISION_ANNOTATION));
    if current.map(String::as_str) == Some(rev) {
        return false;
    }
    Arc::make_mut(d)
        .metadata
        .annotations
        .get_or_insert_with(BTreeMap::new)
        .insert(REVISION_ANNOTATION.into(), rev.to_string());
    true
}

// ---------------------------------------------------------------------------------------
// Conditions

fn get_condition<'a>(s: &'a DeploymentStatus, t: &str) -> Option<&'a DeploymentCondition> {
    s.conditions.as_ref()?.iter().find(|c| c.type_.as_deref() == Some(t))
}

fn new_condition(now_ms: u64, t: &str, status: &str, reason: &str, message: &str) -> DeploymentCondition {
    let now = crate::apiserver::timestamp(now_ms);
    DeploymentCondition {
        type_: Some(t.into()),
        status: Some(status.into()),
        last_update_time: Some(now.clone()),
        last_transition_time: Some(now),
        reason: Some(reason.into()),
        message: Some(message.into()),
    }
}

/// `SetDeploymentCondition`: same status and reason means no change; same status keeps the
/// transition time; the condition moves to the end of the list.
fn set_condition(s: &mut DeploymentStatus, mut c: DeploymentCondition) {
    if let Some(cur) = get_condition(s, c.type_.as_deref().unwrap_or("")) {
        if cur.status == c.status && cur.reason == c.reason {
            return;
        }
        if cur.status == c.status {
            c.last_transition_time = cur.last_transition_time.clone();
        }
    }
    remove_condition(s, c.type_.as_deref().unwrap_or(""));
    s.conditions.get_or_insert_with(Vec::new).push(c);
}

fn remove_condition(s: &mut DeploymentStatus, t: &str) {
    if let Some(cs) = s.conditions.as_mut() {
        cs.retain(|c| c.type_.as_deref() != Some(t));
        if cs.is_empty() {
            s.conditions = None;
        }
    }
}

fn num(v: Option<i32>) -> i32 {
    v.unwrap_or(0)
}

/// `DeploymentComplete`: every replica updated and available, and the latest generation seen.
fn deployment_complete(d: &Deployment, s: &DeploymentStatus) -> bool {
    let r = replicas(d);
    num(s.updated_replicas) == r
        && num(s.replicas) == r
        && num(s.available_replicas) == r
        && s.observed_generation.unwrap_or(0) >= d.metadata.generation.unwrap_or(0)
}

/// `DeploymentProgressing`: more updated, fewer old, more ready or more available Pods.
fn deployment_progressing(d: &Deployment, new: &DeploymentStatus) -> bool {
    let old = d.status.clone().unwrap_or_default();
    let old_old = num(old.replicas) - num(old.updated_replicas);
    let new_old = num(new.replicas) - num(new.updated_replicas);
    num(new.updated_replicas) > num(old.updated_replicas)
        || new_old < old_old
        || num(new.ready_replicas) > num(old.ready_replicas)
        || num(new.available_replicas) > num(old.available_replicas)
}

fn deployment_timed_out(d: &Deployment, new: &DeploymentStatus, now_ms: u64) -> bool {
    let Some(deadline) = progress_deadline(d) else { return false };
    let Some(c) = get_condition(new, "Progressing") else { return false };
    match c.reason.as_deref() {
        Some(NEW_RS_AVAILABLE_REASON) => false,
        Some(TIMED_OUT_REASON) => true,
        _ => c.last_update_time.as_ref().is_some_and(|t| time_ms(t) + i64::from(deadline) * 1000 < now_ms as i64),
    }
}

/// `GetTerminatingReplicaCountForReplicaSets`: ReplicaSets the ReplicaSet controller has not
/// synced yet are skipped; one that was synced without the count makes it unknown.
fn terminating_replicas(all: &[Arc<ReplicaSet>]) -> Option<i32> {
    let mut total = 0;
    for rs in all {
        let s = rs_status(rs);
        match s.terminating_replicas {
            None if s.observed_generation.unwrap_or(0) == 0 => continue,
            None => return None,
            Some(n) => total += n,
        }
    }
    Some(total)
}

/// `calculateStatus` of the Deployment controller.
fn calculate_status(
    all: &[Arc<ReplicaSet>],
    new: Option<&Arc<ReplicaSet>>,
    d: &Deployment,
    now_ms: u64,
) -> DeploymentStatus {
    let available = sum(all, |rs| num(rs_status(rs).available_replicas));
    let total = sum(all, rs_replicas);
    let unavailable = (total - available).max(0);
    let terminating = terminating_replicas(all);
    let mut status = DeploymentStatus {
        observed_generation: d.metadata.generation.filter(|g| *g != 0),
        replicas: nz(sum(all, |rs| rs_status(rs).replicas)),
        updated_replicas: nz(new.map_or(0, |rs| rs_status(rs).replicas)),
        ready_replicas: nz(sum(all, |rs| num(rs_status(rs).ready_replicas))),
        available_replicas: nz(available),
        unavailable_replicas: nz(unavailable),
        terminating_replicas: terminating,
        collision_count: d.status.as_ref().and_then(|s| s.collision_count),
        conditions: d.status.as_ref().and_then(|s| s.conditions.clone()),
    };
    if available >= replicas(d) - max_unavailable(d) {
        set_condition(
            &mut status,
            new_condition(now_ms, "Available", "True", MIN_AVAILABLE_REASON, "Deployment has minimum availability."),
        );
    } else {
        set_condition(
            &mut status,
            new_condition(
                now_ms,
                "Available",
                "False",
                MIN_UNAVAILABLE_REASON,
                "Deployment does not have minimum availability.",
            ),
        );
    }
    status
}

// ---------------------------------------------------------------------------------------
// The sync

type SyncResult = Result<(), ()>;

/// The new ReplicaSet of a Deployment (when it has one) and the old ones, as the store's
/// handles.
type NewAndOld = (Option<Arc<ReplicaSet>>, Vec<Arc<ReplicaSet>>);

struct Sync<'a, 'b> {
    cx: &'a mut Cx<'b>,
    /// The Deployment as this sync sees it (its status and revision annotation are
    /// updated in memory as the sync goes, as upstream's copy is): the store's handle until
    /// the first such change copies it.
    d: Arc<Deployment>,
}

impl Sync<'_, '_> {
    fn now(&self) -> u64 {
        self.cx.core.now
    }

    fn name(&self) -> String {
        self.d.metadata.name.clone().unwrap_or_default()
    }

    fn ns(&self) -> Option<String> {
        self.d.metadata.namespace.clone()
    }

    fn obj(&self) -> Object {
        Object::Deployment(Arc::clone(&self.d))
    }

    /// The Deployment to change in memory (copied out of the store's handle the first time).
    fn d_mut(&mut self) -> &mut Deployment {
        Arc::make_mut(&mut self.d)
    }

    fn desired_text(&self) -> String {
        let r = replicas(&self.d);
        match strategy_type(&self.d).as_str() {
            "Recreate" => format!("{r} replica(s), strategy Recreate"),
            _ => format!(
                "{r} replica(s), strategy RollingUpdate (maxSurge {}, maxUnavailable {})",
                max_surge(&self.d),
                max_unavailable(&self.d)
            ),
        }
    }

    fn decide(&mut self, summary: String, observed: String, actions: Vec<String>, status: StepStatus) {
        let obj = self.obj();
        let desired = self.desired_text();
        self.cx.decide(Phase::Controllers, NAME, Some(&obj), summary, observed, desired, actions, status);
    }

    fn update_status(&mut self) -> bool {
        let obj = self.obj();
        self.cx.update_status(SERVICE_ACCOUNT, obj).ok()
    }

    fn sync_deployment(&mut self) -> SyncResult {
        let sel = Some(&self.d.spec).map(|s| s.selector.clone()).unwrap_or_default();
        if labels::is_empty(&sel) {
            let obj = self.obj();
            self.cx.event(
                SOURCE,
                &obj,
                "Warning",
                "SelectingAll",
                "This deployment is selecting all pods. A non-empty selector is required.",
            );
            let gen = self.d.metadata.generation.unwrap_or(0);
            let status = self.d_mut().status.get_or_insert_with(Default::default);
            if status.observed_generation.unwrap_or(0) < gen {
                status.observed_generation = Some(gen);
                self.update_status();
            }
            return Ok(());
        }
        let rs_list = self.replica_sets_for_deployment(&sel);
        if is_deleting(&self.d.metadata) {
            return self.sync_status_only(&rs_list);
        }
        self.check_paused_conditions();
        if paused(&self.d) {
            return self.sync_scale(&rs_list);
        }
        if self.is_scaling_event(&rs_list)? {
            return self.sync_scale(&rs_list);
        }
        match strategy_type(&self.d).as_str() {
            "Recreate" => self.rollout_recreate(&rs_list),
            _ => self.rollout_rolling(&rs_list),
        }
    }

    /// Lists the ReplicaSets of the Deployment, adopting matching orphans and releasing
    /// owned ones that no longer match (`ClaimReplicaSets`).
    fn replica_sets_for_deployment(&mut self, sel: &LabelSelector) -> Vec<Arc<ReplicaSet>> {
        let uid = self.d.metadata.uid.clone().unwrap_or_default();
        let deleting = is_deleting(&self.d.metadata);
        let mut out = Vec::new();
        let mut recheck = None;
        for o in list(self.cx.core, "ReplicaSet", self.ns().as_deref()) {
            let Object::ReplicaSet(rs) = o else { continue };
            let matches = labels::matches(Some(sel), rs.metadata.labels.as_ref());
            let owned = is_controlled_by(&rs.metadata, &uid);
            if owned && matches {
                out.push(rs);
                continue;
            }
            // Release and adoption are strategic merge patches of the ReplicaSet's
            // ownerReferences; an adoption follows one live read of the Deployment.
            if owned && !deleting {
                self.decide(
                    format!("deployment-controller releases ReplicaSet {}", rs_name(&rs)),
                    "its labels no longer match the selector".into(),
                    vec![format!("remove the ownerReference of ReplicaSet {}", rs_name(&rs))],
                    StepStatus::Ok,
                );
                let patch = release_patch(&uid, rs.metadata.uid.as_deref().unwrap_or(""));
                let _ = self.cx.patch(SERVICE_ACCOUNT, "ReplicaSet", self.ns().as_deref(), &rs_name(&rs), patch);
            } else if controller_of(&rs.metadata).is_none() && matches && !deleting {
                let d_meta = &self.d.metadata;
                let checked = recheck.get_or_insert_with(|| {
                    self.cx.recheck_before_adopting(SERVICE_ACCOUNT, "Deployment", d_meta).is_ok()
                });
                if !*checked {
                    continue;
                }
                self.decide(
                    format!("deployment-controller adopts ReplicaSet {}", rs_name(&rs)),
                    "an orphan ReplicaSet matches the selector".into(),
                    vec![format!("add a controller ownerReference to ReplicaSet {}", rs_name(&rs))],
                    StepStatus::Ok,
                );
                let rs_uid = rs.metadata.uid.as_deref().unwrap_or("");
                let patch = adopt_patch(&self.d.metadata, "apps/v1", "Deployment", rs_uid, &[]);
                let resp = self.cx.patch(SERVICE_ACCOUNT, "ReplicaSet", self.ns().as_deref(), &rs_name(&rs), patch);
                if let (true, Some(Object::ReplicaSet(adopted))) = (resp.ok(), resp.stored_object()) {
                    out.push(Arc::clone(adopted));
                }
            }
        }
        out
    }

    /// Pods of the Deployment grouped by the ReplicaSet controlling them.
    fn pod_map(&self, rss: &[Arc<ReplicaSet>]) -> BTreeMap<String, Vec<std::sync::Arc<Pod>>> {
        let sel = Some(&self.d.spec).map(|s| s.selector.clone());
        let mut map: BTreeMap<String, Vec<std::sync::Arc<Pod>>> = BTreeMap::new();
        for rs in rss {
            map.insert(rs.metadata.uid.clone().unwrap_or_default(), Vec::new());
        }
        for p in pods(self.cx.core, self.ns().as_deref()) {
            if !labels::matches(sel.as_ref(), p.metadata.labels.as_ref()) {
                continue;
            }
            if let Some(r) = controller_of(&p.metadata) {
                if let Some(v) = map.get_mut(&r.uid) {
                    v.push(p);
                }
            }
        }
        map
    }

    fn observed_text(&self, new: Option<&Arc<ReplicaSet>>, old: &[Arc<ReplicaSet>]) -> String {
        let mut parts = Vec::new();
        let desc = |rs: &Arc<ReplicaSet>| {
            let s = rs_status(rs);
            format!("{} ({} desired, {} available)", rs_name(rs), rs_replicas(rs), num(s.available_replicas))
        };
        match new {
            Some(rs) => parts.push(format!("new ReplicaSet {}", desc(rs))),
            None => parts.push("no ReplicaSet matches the template".into()),
        }
        let active: Vec<String> = old.iter().filter(|rs| is_active(rs)).map(desc).collect();
        if !active.is_empty() {
            parts.push(format!("old: {}", active.join(", ")));
        }
        parts.join("; ")
    }

    /// `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (created when asked and
    /// missing) and the old ones, with revisions synced.
    fn all_replica_sets(&mut self, rs_list: &[Arc<ReplicaSet>], create: bool) -> Result<NewAndOld, ()> {
        let new_existing = find_new(&self.d, rs_list);
        let old: Vec<Arc<ReplicaSet>> = rs_list
            .iter()
            .filter(|rs| new_existing.as_ref().is_none_or(|n| n.metadata.uid != rs.metadata.uid))
            .cloned()
            .collect();
        let new = self.new_replica_set(new_existing, rs_list, &old, create)?;
        Ok((new, old))
    }

    fn new_replica_set(
        &mut self,
        existing: Option<Arc<ReplicaSet>>,
        _rs_list: &[Arc<ReplicaSet>],
        old: &[Arc<ReplicaSet>],
        create: bool,
    ) -> Result<Option<Arc<ReplicaSet>>, ()> {
        let max_old = old.iter().map(|rs| revision(rs)).max().unwrap_or(0);
        let new_revision = max_old + 1;
        let now = self.now();

        if let Some(existing) = existing {
            // The annotations as `SetNewReplicaSetAnnotations` leaves them, worked out on a
            // copy of the annotations alone: the ReplicaSet is copied out of the store's
            // handle only when they differ.
            let mut probe = ReplicaSet {
                metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
                    annotations: existing.metadata.annotations.clone(),
                    ..Default::default()
                },
                ..Default::default()
            };
            let annotations_updated = set_new_rs_annotations(&self.d, &mut probe, new_revision, true);
            let mut rs = existing;
            if probe.metadata.annotations != rs.metadata.annotations {
                Arc::make_mut(&mut rs).metadata.annotations = probe.metadata.annotations;
            }
            let mrs = min_ready_seconds(&self.d);
            let min_ready_update = Some(&rs.spec).and_then(|s| s.min_ready_seconds).unwrap_or(0) != mrs;
            if annotations_updated || min_ready_update {
                Arc::make_mut(&mut rs).spec.min_ready_seconds = (mrs != 0).then_some(mrs);
                self.decide(
                    format!("deployment-controller syncs the annotations of ReplicaSet {}", rs_name(&rs)),
                    format!("ReplicaSet {} matches the template", rs_name(&rs)),
                    vec![format!("update ReplicaSet {} (revision {})", rs_name(&rs), revision(&rs))],
                    StepStatus::Ok,
                );
                let resp = self.cx.update(SERVICE_ACCOUNT, Object::ReplicaSet(rs));
                return match resp.into_object() {
                    Some(Object::ReplicaSet(r)) => Ok(Some(r)),
                    _ => Err(()),
                };
            }
            let rev =
                rs.metadata.annotations.as_ref().and_then(|a| a.get(REVISION_ANNOTATION)).cloned().unwrap_or_default();
            let mut needs_update = set_deployment_revision(&mut self.d, &rev);
            let has_progressing = self.d.status.as_ref().is_some_and(|s| get_condition(s, "Progressing").is_some());
            if progress_deadline(&self.d).is_some() && !has_progressing {
                let msg = format!("Found new replica set \"{}\"", rs_name(&rs));
                let c = new_condition(now, "Progressing", "True", FOUND_NEW_RS_REASON, &msg);
                set_condition(self.d_mut().status.get_or_insert_with(Default::default), c);
                needs_update = true;
            }
            if needs_update {
                self.decide(
                    format!("deployment-controller records revision {rev} on Deployment {}", self.name()),
                    format!("ReplicaSet {} matches the template", rs_name(&rs)),
                    vec![format!("update status (annotation {REVISION_ANNOTATION}={rev})")],
                    StepStatus::Ok,
                );
                if !self.update_status() {
                    return Err(());
                }
            }
            return Ok(Some(rs));
        }
        if !create {
            return Ok(None);
        }

        // Create the new ReplicaSet.
        let mut tmpl = template(&self.d);
        let collision = self.d.status.as_ref().and_then(|s| s.collision_count);
        let hash = compute_hash(&tmpl, collision);
        let mut labels = tmpl.metadata.as_ref().and_then(|m| m.labels.clone()).unwrap_or_default();
        labels.insert(POD_TEMPLATE_HASH_LABEL.into(), hash.clone());
        tmpl.metadata.get_or_insert_with(Default::default).labels = Some(labels.clone());
        let mut selector = Some(&self.d.spec).map(|s| s.selector.clone()).unwrap_or_default();
        selector.match_labels.get_or_insert_with(BTreeMap::new).insert(POD_TEMPLATE_HASH_LABEL.into(), hash.clone());
        let new_name = format!("{}-{hash}", self.name());
        let mrs = min_ready_seconds(&self.d);
        let mut rs = ReplicaSet {
            metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
                name: Some(new_name.clone()),
                namespace: self.ns(),
                owner_references: Some(vec![new_controller_ref(&self.d.metadata, "apps/v1", "Deployment")]),
                labels: Some(labels),
                ..Default::default()
            },
            spec: ReplicaSetSpec {
                replicas: Some(0),
                min_ready_seconds: (mrs != 0).then_some(mrs),
                selector,
                template: Some(tmpl),
            },
            status: None,
        };
        let mut all = old.to_vec();
        all.push(Arc::new(rs.clone()));
        let new_count = new_rs_new_replicas(&self.d, &all, &rs);
        {
            let spec = &mut rs.spec;
            spec.replicas = Some(new_count);
        }
        set_new_rs_annotations(&self.d, &mut rs, new_revision, false);
        let observed = self.observed_text(None, old);
        self.decide(
            format!("deployment-controller creates ReplicaSet {new_name} with {new_count} replica(s)"),
            observed,
            vec![
                format!("POST ReplicaSet {new_name} (pod-template-hash {hash}, revision {new_revision})"),
                format!("spec.replicas {new_count}"),
            ],
            StepStatus::Ok,
        );
        let mut resp = self.cx.create(SERVICE_ACCOUNT, Object::from(rs));
        let mut already_exists = false;
        let created = match (resp.take_object(), resp.error) {
            (Some(Object::ReplicaSet(r)), None) => r,
            (_, Some(e)) if e.code == 409 && e.reason == "AlreadyExists" => {
                already_exists = true;
                let found = get(self.cx.core, "ReplicaSet", self.ns().as_deref(), &new_name);
                let uid = self.d.metadata.uid.clone().unwrap_or_default();
                match found {
                    Some(Object::ReplicaSet(r))
                        if is_controlled_by(&r.metadata, &uid)
                            && Some(&r.spec)
                                .and_then(|s| s.template.as_ref())
                                .is_some_and(|t| equal_ignore_hash(t, &template(&self.d))) =>
                    {
                        r
                    }
                    _ => {
                        // A hash collision: bump collisionCount and try again next sync.
                        let status = self.d_mut().status.get_or_insert_with(Default::default);
                        let cc = status.collision_count.unwrap_or(0) + 1;
                        status.collision_count = Some(cc);
                        self.decide(
                            format!("deployment-controller found a hash collision for ReplicaSet {new_name}"),
                            format!("ReplicaSet {new_name} exists with another template"),
                            vec![format!("update status: collisionCount {cc}")],
                            StepStatus::Warning,
                        );
                        self.update_status();
                        return Err(());
                    }
                }
            }
            (_, Some(e)) if replicaset::namespace_terminating(&e.message) => return Err(()),
            (_, Some(e)) => {
                let msg = format!("Failed to create new replica set \"{new_name}\": {}", e.message);
                if progress_deadline(&self.d).is_some() {
                    let c = new_condition(now, "Progressing", "False", FAILED_RS_CREATE_REASON, &msg);
                    set_condition(self.d_mut().status.get_or_insert_with(Default::default), c);
                    self.update_status();
                }
                let obj = self.obj();
                self.cx.event(SOURCE, &obj, "Warning", FAILED_RS_CREATE_REASON, &msg);
                return Err(());
            }
            _ => return Err(()),
        };
        if !already_exists && new_count > 0 {
            let obj = self.obj();
            self.cx.event(
                SOURCE,
                &obj,
                "Normal",
                "ScalingReplicaSet",
                &format!("Scaled up replica set {} from 0 to {new_count}", rs_name(&created)),
            );
        }
        let mut needs_update = set_deployment_revision(&mut self.d, &new_revision.to_string());
        if !already_exists && progress_deadline(&self.d).is_some() {
            let msg = format!("Created new replica set \"{}\"", rs_name(&created));
            let c = new_condition(now, "Progressing", "True", NEW_RS_REASON, &msg);
            set_condition(self.d_mut().status.get_or_insert_with(Default::default), c);
            needs_update = true;
        }
        if needs_update {
            self.decide(
                format!("deployment-controller records revision {new_revision} on Deployment {}", self.name()),
                format!("ReplicaSet {} created", rs_name(&created)),
                vec![
                    format!("update status: annotation {REVISION_ANNOTATION}={new_revision}"),
                    format!("condition Progressing=True ({NEW_RS_REASON})"),
                ],
                StepStatus::Ok,
            );
            if !self.update_status() {
                return Err(());
            }
        }
        Ok(Some(created))
    }

    /// `isScalingEvent`: an active ReplicaSet was sized for another replica count.
    fn is_scaling_event(&mut self, rs_list: &[Arc<ReplicaSet>]) -> Result<bool, ()> {
        let (new, old) = self.all_replica_sets(rs_list, false)?;
        let want = replicas(&self.d);
        Ok(old
            .iter()
            .chain(new.as_ref())
            .filter(|rs| is_active(rs))
            .any(|rs| annotation_i32(rs, DESIRED_REPLICAS_ANNOTATION).is_some_and(|desired| desired != want)))
    }

    /// Scales `rs` to `new_scale`, refreshing its replica annotations; records the
    /// `ScalingReplicaSet` event. Returns whether the size changed, and the updated copy.
    fn scale_replica_set(&mut self, rs: &Arc<ReplicaSet>, new_scale: i32, operation: &str) -> (bool, Arc<ReplicaSet>) {
        let size_change = rs_replicas(rs) != new_scale;
        let want = replicas(&self.d);
        let max = want + max_surge(&self.d);
        if !size_change && !replicas_annotations_need_update(rs, want, max) {
            return (false, Arc::clone(rs));
        }
        let mut copy = ReplicaSet::clone(rs);
        let old_scale = rs_replicas(rs);
        {
            let spec = &mut copy.spec;
            spec.replicas = Some(new_scale);
        }
        set_replicas_annotations(&mut copy, want, max);
        let observed = format!("ReplicaSet {} has {} replica(s)", rs_name(rs), old_scale);
        let summary = if size_change {
            format!(
                "deployment-controller scales {operation} ReplicaSet {} from {old_scale} to {new_scale}",
                rs_name(rs)
            )
        } else {
            format!("deployment-controller refreshes the replica annotations of ReplicaSet {}", rs_name(rs))
        };
        self.decide(
            summary,
            observed,
            vec![format!(
                "update ReplicaSet {}: spec.replicas {new_scale}, {DESIRED_REPLICAS_ANNOTATION}={want}, {MAX_REPLICAS_ANNOTATION}={max}",
                rs_name(rs)
            )],
            StepStatus::Ok,
        );
        let copy = Arc::new(copy);
        let resp = self.cx.update(SERVICE_ACCOUNT, Object::ReplicaSet(Arc::clone(&copy)));
        let scaled = resp.ok() && size_change;
        if scaled {
            let obj = self.obj();
            self.cx.event(
                SOURCE,
                &obj,
                "Normal",
                "ScalingReplicaSet",
                &format!("Scaled {operation} replica set {} from {old_scale} to {new_scale}", rs_name(rs)),
            );
        }
        match resp.into_object() {
            Some(Object::ReplicaSet(r)) => (scaled, r),
            _ => (scaled, copy),
        }
    }

    fn scale_and_record(&mut self, rs: &Arc<ReplicaSet>, new_scale: i32) -> (bool, Arc<ReplicaSet>) {
        if rs_replicas(rs) == new_scale {
            return (false, Arc::clone(rs));
        }
        let op = if rs_replicas(rs) < new_scale { "up" } else { "down" };
        self.scale_replica_set(rs, new_scale, op)
    }

    // -- Scaling (no rollout in flight) ---------------------------------------------

    fn sync_scale(&mut self, rs_list: &[Arc<ReplicaSet>]) -> SyncResult {
        let (new, old) = self.all_replica_sets(rs_list, false)?;
        self.scale(new.as_ref(), &old);
        if paused(&self.d) {
            self.cleanup_deployment(&old);
        }
        let mut all = old;
        all.extend(new.clone());
        self.sync_deployment_status(&all, new.as_ref())
    }

    fn scale(&mut self, new: Option<&Arc<ReplicaSet>>, old: &[Arc<ReplicaSet>]) {
        let want = replicas(&self.d);
        if let Some(target) = find_active_or_latest(new, old) {
            if rs_replicas(&target) != want {
                self.scale_and_record(&target, want);
            }
            return;
        }
        if let Some(n) = new {
            let saturated = annotation_i32(n, DESIRED_REPLICAS_ANNOTATION) == Some(want)
                && num(rs_status(n).available_replicas) == want
                && rs_replicas(n) == want;
            if saturated {
                for rs in old.iter().filter(|rs| is_active(rs)) {
                    self.scale_and_record(rs, 0);
                }
                return;
            }
        }
        if !is_rolling(&self.d) {
            return;
        }
        // Proportional scaling of every active ReplicaSet.
        let mut all: Vec<Arc<ReplicaSet>> = old.iter().chain(new).filter(|rs| is_active(rs)).cloned().collect();
        let all_replicas = sum(&all, rs_replicas);
        let allowed = if want > 0 { want + max_surge(&self.d) } else { 0 };
        let to_add = allowed - all_replicas;
        let op = match to_add.cmp(&0) {
            std::cmp::Ordering::Greater => {
                // Larger first; newer first among equals.
                crate::sort::sort_by(&mut all, |a, b| {
                    rs_replicas(b).cmp(&rs_replicas(a)).then_with(|| by_creation(b, a))
                });
                "up"
            }
            std::cmp::Ordering::Less => {
                // Larger first; older first among equals.
                crate::sort::sort_by(&mut all, |a, b| {
                    rs_replicas(b).cmp(&rs_replicas(a)).then_with(|| by_creation(a, b))
                });
                "down"
            }
            std::cmp::Ordering::Equal => "",
        };
        let mut added = 0;
        let mut sizes: Vec<i32> = Vec::new();
        for rs in &all {
            if to_add != 0 {
                let p = self.proportion(rs, to_add, added);
                sizes.push(rs_replicas(rs) + p);
                added += p;
            } else {
                sizes.push(rs_replicas(rs));
            }
        }
        for (i, rs) in all.iter().enumerate() {
            if i == 0 && to_add != 0 {
                sizes[0] = (sizes[0] + to_add - added).max(0);
            }
            let op = if op.is_empty() { "up" } else { op };
            self.scale_replica_set(rs, sizes[i], op);
        }
    }

    /// `GetProportion`: the share of `to_add` for `rs`, from the max-replicas annotation.
    fn proportion(&self, rs: &ReplicaSet, to_add: i32, added: i32) -> i32 {
        if rs_replicas(rs) == 0 || to_add == 0 || to_add == added {
            return 0;
        }
        let fraction = {
            let want = replicas(&self.d);
            if want == 0 {
                -rs_replicas(rs)
            } else {
                let max_now = want + max_surge(&self.d);
                let before = match annotation_i32(rs, MAX_REPLICAS_ANNOTATION) {
                    Some(v) if v != 0 => v,
                    _ => num(self.d.status.as_ref().and_then(|s| s.replicas)),
                };
                if before == 0 {
                    0
                } else {
                    let size = f64::from(rs_replicas(rs) * max_now) / f64::from(before);
                    round_half_away(size) - rs_replicas(rs)
                }
            }
        };
        let allowed = to_add - added;
        if to_add > 0 {
            fraction.min(allowed)
        } else {
            fraction.max(allowed)
        }
    }

    // -- Clean-up and status -----------------------------------------------------------

    /// Deletes old, empty ReplicaSets beyond `revisionHistoryLimit`.
    fn cleanup_deployment(&mut self, old: &[Arc<ReplicaSet>]) {
        let limit = revision_history_limit(&self.d);
        let mut cleanable: Vec<Arc<ReplicaSet>> = old.iter().filter(|rs| !is_deleting(&rs.metadata)).cloned().collect();
        let diff = cleanable.len() as i32 - limit;
        if diff <= 0 {
            return;
        }
        crate::sort::sort_by(&mut cleanable, |a, b| revision(a).cmp(&revision(b)).then_with(|| by_creation(a, b)));
        for rs in cleanable.into_iter().take(diff as usize) {
            let s = rs_status(&rs);
            if s.replicas != 0
                || rs_replicas(&rs) != 0
                || rs.metadata.generation.unwrap_or(0) > s.observed_generation.unwrap_or(0)
            {
                continue;
            }
            self.decide(
                format!("deployment-controller deletes old ReplicaSet {} (revisionHistoryLimit {limit})", rs_name(&rs)),
                format!("{} old ReplicaSet(s) kept", old.len()),
                vec![format!("DELETE ReplicaSet {}", rs_name(&rs))],
                StepStatus::Ok,
            );
            let ns = self.ns();
            let _ = self.cx.delete(SERVICE_ACCOUNT, "ReplicaSet", ns.as_deref(), &rs_name(&rs), None);
        }
    }

    fn sync_status_only(&mut self, rs_list: &[Arc<ReplicaSet>]) -> SyncResult {
        let (new, old) = self.all_replica_sets(rs_list, false)?;
        let mut all = old;
        all.extend(new.clone());
        self.sync_deployment_status(&all, new.as_ref())
    }

    fn sync_deployment_status(&mut self, all: &[Arc<ReplicaSet>], new: Option<&Arc<ReplicaSet>>) -> SyncResult {
        let status = calculate_status(all, new, &self.d, self.now());
        if self.d.status.as_ref() == Some(&status) {
            return Ok(());
        }
        self.write_status(status, all, new)
    }

    fn write_status(
        &mut self,
        status: DeploymentStatus,
        all: &[Arc<ReplicaSet>],
        new: Option<&Arc<ReplicaSet>>,
    ) -> SyncResult {
        let cond = |t: &str| {
            get_condition(&status, t)
                .map(|c| format!("{t}={} ({})", c.status.as_deref().unwrap_or(""), c.reason.as_deref().unwrap_or("")))
        };
        let mut actions = vec![format!(
            "PUT status: replicas={} updatedReplicas={} readyReplicas={} availableReplicas={} unavailableReplicas={} terminatingReplicas={} observedGeneration={}",
            num(status.replicas),
            num(status.updated_replicas),
            num(status.ready_replicas),
            num(status.available_replicas),
            num(status.unavailable_replicas),
            status.terminating_replicas.map_or("-".to_string(), |v| v.to_string()),
            status.observed_generation.unwrap_or(0)
        )];
        actions.extend(["Available", "Progressing", "ReplicaFailure"].iter().filter_map(|t| cond(t)));
        let old: Vec<Arc<ReplicaSet>> =
            all.iter().filter(|rs| new.is_none_or(|n| n.metadata.uid != rs.metadata.uid)).cloned().collect();
        let observed = self.observed_text(new, &old);
        let warn = get_condition(&status, "Progressing").is_some_and(|c| c.status.as_deref() == Some("False"))
            || get_condition(&status, "ReplicaFailure").is_some();
        self.decide(
            format!(
                "deployment-controller updates status of Deployment {}: {} updated, {} available, {} wanted",
                self.name(),
                num(status.updated_replicas),
                num(status.available_replicas),
                replicas(&self.d)
            ),
            observed,
            actions,
            if warn { StepStatus::Warning } else { StepStatus::Ok },
        );
        self.d_mut().status = Some(status);
        if self.update_status() {
            Ok(())
        } else {
            Err(())
        }
    }

    /// Adds the Unknown Progressing condition when paused or resumed.
    fn check_paused_conditions(&mut self) {
        if progress_deadline(&self.d).is_none() {
            return;
        }
        let now = self.now();
        let cond = self.d.status.as_ref().and_then(|s| get_condition(s, "Progressing")).cloned();
        if cond.as_ref().is_some_and(|c| c.reason.as_deref() == Some(TIMED_OUT_REASON)) {
            return;
        }
        let paused_exists = cond.as_ref().is_some_and(|c| c.reason.as_deref() == Some(PAUSED_REASON));
        let c = if paused(&self.d) && !paused_exists {
            new_condition(now, "Progressing", "Unknown", PAUSED_REASON, "Deployment is paused")
        } else if !paused(&self.d) && paused_exists {
            new_condition(now, "Progressing", "Unknown", RESUMED_REASON, "Deployment is resumed")
        } else {
            return;
        };
        let reason = c.reason.clone().unwrap_or_default();
        set_condition(self.d_mut().status.get_or_insert_with(Default::default), c);
        self.decide(
            format!("deployment-controller marks Deployment {} {}", self.name(), reason),
            format!("spec.paused is {}", paused(&self.d)),
            vec![format!("update status: condition Progressing=Unknown ({reason})")],
            StepStatus::Ok,
        );
        self.update_status();
    }
}

/// `NewRSNewReplicas`: how big the new ReplicaSet may be now.
fn new_rs_new_replicas(d: &Deployment, all: &[Arc<ReplicaSet>], new: &ReplicaSet) -> i32 {
    let want = replicas(d);
    if !is_rolling(d) {
        return want;
    }
    let current = sum(all, rs_replicas);
    let max_total = want + max_surge(d);
    if current >= max_total {
        return rs_replicas(new);
    }
    let up = (max_total - current).min(want - rs_replicas(new));
    rs_replicas(new) + up
}

/// `FindActiveOrLatest`: the only active ReplicaSet, or the newest when none is active.
fn find_active_or_latest(new: Option<&Arc<ReplicaSet>>, old: &[Arc<ReplicaSet>]) -> Option<Arc<ReplicaSet>> {
    if new.is_none() && old.is_empty() {
        return None;
    }
    let mut old_sorted = old.to_vec();
    crate::sort::sort_by(&mut old_sorted, |a, b| by_creation(b, a));
    let active: Vec<Arc<ReplicaSet>> = old_sorted.iter().chain(new).filter(|rs| is_active(rs)).cloned().collect();
    match active.len() {
        0 => new.cloned().or_else(|| old_sorted.first().cloned()),
        1 => active.into_iter().next(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_json_is_serde_json_with_sorted_keys() {
        fn sorted(v: &serde_json::Value) -> serde_json::Value {
            match v {
                serde_json::Value::Object(m) => {
                    let mut keys: Vec<&String> = m.keys().collect();
                    keys.sort();
                    serde_json::Value::Object(keys.into_iter().map(|k| (k.clone(), sorted(&m[k]))).collect())
                }
                serde_json::Value::Array(a) => serde_json::Value::Array(a.iter().map(sorted).collect()),
                other => other.clone(),
            }
        }
        let v = serde_json::json!({"z": 1, "a": {"q\"uote": "back\\slash", "ctl": "\u{1}\u{1f}\u{7f}\u{8}\u{c}\n\r\t",
            "uni": "é✓😀", "n": [1.5, -2, null, true, {"b": "x", "a": []}]}, "": ""});
        let mut text = String::new();
        canonical_json(&v, &mut text);
        assert_eq!(text, serde_json::to_string(&sorted(&v)).unwrap());
    }

    #[test]
    fn hash_encoding_uses_the_safe_alphabet() {
        // Decimal digits map to 4..9 and b, c, d, f, as in real pod-template-hashes.
        assert_eq!(safe_encode("0123456789"), "456789bcdf");
        assert_eq!(fnv32a(b""), 0x811c_9dc5);
        assert_eq!(fnv32a(b"a"), 0xe40c_292c);
        let t = PodTemplateSpec::default();
        assert_eq!(compute_hash(&t, None), compute_hash(&t, None));
        assert_ne!(compute_hash(&t, None), compute_hash(&t, Some(1)));
    }

    #[test]
    fn templates_compare_without_the_hash_label() {
        let template = |labels: &[(&str, &str)], image: &str| -> PodTemplateSpec {
            serde_json::from_value(serde_json::json!({
                "metadata": {"labels": labels.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<BTreeMap<_, _>>()},
                "spec": {"containers": [{"name": "web", "image": image}]},
            }))
            .expect("a template")
        };
        let plain = template(&[("app", "web")], "nginx:1.29");
        let hashed = template(&[("app", "web"), (POD_TEMPLATE_HASH_LABEL, "59d6b5d99d")], "nginx:1.29");
        assert!(equal_ignore_hash(&plain, &hashed));
        assert!(!equal_ignore_hash(&plain, &template(&[("app", "web")], "nginx:1.28")));
        assert!(!equal_ignore_hash(&plain, &template(&[("app", "web"), ("tier", "front")], "nginx:1.29")));
        // A hash label that was the only label equals no labels at all.
        let only_hash = template(&[(POD_TEMPLATE_HASH_LABEL, "1")], "nginx:1.29");
        let none = PodTemplateSpec { metadata: Some(Default::default()), ..only_hash.clone() };
        assert!(equal_ignore_hash(&only_hash, &none));
    }

    #[test]
    fn fenceposts_round_surge_up_and_unavailable_down() {
        let mut d = Deployment::default();
        d.spec.replicas = Some(10);
        assert_eq!(resolve_fenceposts(&d), (3, 2));
        d.spec.replicas = Some(1);
        assert_eq!(resolve_fenceposts(&d), (1, 0));
        assert_eq!(max_unavailable(&d), 0);
    }
}
