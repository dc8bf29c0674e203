//! The ReplicaSet controller: keeps `spec.replicas` Pods running for each ReplicaSet.
//!
//! A sync lists the Pods of the ReplicaSet (those it controls, plus orphans its selector
//! matches, which it adopts), compares the active ones with `spec.replicas`, and:
//! - creates missing Pods from the template (`generateName: <rs>-`, so the API server
//!   draws the 5-character suffix), at most 500 per sync, in slow-start batches of 1, 2,
//!   4, ... that stop at the first failure — a quota or Pod Security denial costs one
//!   request, not five hundred;
//! - deletes surplus Pods, the cheapest first: unscheduled before scheduled, Pending
//!   before Unknown before Running, not-ready before ready, lower
//!   `controller.kubernetes.io/pod-deletion-cost` first, Pods sharing a node with more
//!   siblings first, the most recently ready first, the most restarted first, the newest
//!   first (times compared on a logarithmic scale, ties broken by UID);
//! - writes `status` (replicas, fullyLabeledReplicas, readyReplicas, availableReplicas,
//!   terminatingReplicas, observedGeneration) and the `ReplicaFailure` condition when
//!   creating or deleting failed.
//!
//! Upstream also keeps "expectations" so it does not act twice before its cache has seen
//! its own writes; the lab's store is always current, so they are not needed here.

use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::errors::StatusReason;
use crate::labels;
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::apps::v1::{ReplicaSet, ReplicaSetCondition, ReplicaSetStatus};
use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use std::cmp::Ordering;
use std::sync::Arc;

pub const NAME: &str = "replicaset-controller";
pub const SERVICE_ACCOUNT: &str = "replicaset-controller";
/// From a watch event to the sync of the ReplicaSet.
pub const WATCH_LATENCY_MS: u64 = 2;
/// Most Pods created or deleted in one sync (`--replicaset-burst`... upstream `BurstReplicas`).
pub const BURST_REPLICAS: i32 = 500;
/// The first slow-start batch (`SlowStartInitialBatchSize`).
pub const SLOW_START_INITIAL_BATCH: i32 = 1;
/// The annotation that orders Pods for scale-down.
pub const POD_DELETION_COST: &str = "controller.kubernetes.io/pod-deletion-cost";

const SOURCE: EventSourceInfo =
    EventSourceInfo { component: "replicaset-controller", service_account: SERVICE_ACCOUNT, phase: Phase::Controllers };

#[derive(Debug, Default)]
pub struct ReplicaSetController;

impl Controller for ReplicaSetController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            Object::ReplicaSet(rs) => {
                if ev.kind == EventType::Deleted {
                    return;
                }
                // Upstream resyncs on every update; a status-only change is a no-op sync, so
                // the lab skips it.
                if let Some(Object::ReplicaSet(prev)) = ev.prev.as_deref() {
                    if prev.spec == rs.spec
                        && prev.metadata.labels == rs.metadata.labels
                        && prev.metadata.owner_references == rs.metadata.owner_references
                        && prev.metadata.deletion_timestamp == rs.metadata.deletion_timestamp
                    {
                        return;
                    }
                }
                let reason = if ev.kind == EventType::Added {
                    "a new ReplicaSet: create its Pods"
                } else {
                    "the ReplicaSet changed: check its Pods"
                };
                cx.watch(NAME, Phase::Controllers, ev, &key_of(&rs.metadata), WATCH_LATENCY_MS, reason);
            }
            Object::Pod(pod) => observe_pod(cx, ev, pod),
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        let (ns, name) = split_key(key);
        let Some(Object::ReplicaSet(rs)) = get(cx.core, "ReplicaSet", ns, name) else { return };
        match sync_replica_set(cx, &rs) {
            Ok(()) => cx.forget(NAME, key),
            Err(()) => {
                cx.requeue_rate_limited(NAME, key);
            }
        }
    }
}

fn observe_pod(cx: &mut Cx, ev: &WatchEvent<Object>, pod: &Pod) {
    let ns = pod.metadata.namespace.as_deref();
    let owner = |cx: &Cx, p: &Pod| -> Option<Arc<Object>> {
        let r = controller_of(&p.metadata).filter(|r| r.kind == "ReplicaSet")?;
        resolve_owner(cx.core, ns, r).filter(|o| matches!(**o, Object::ReplicaSet(_)))
    };
    let prev = match ev.prev.as_deref() {
        Some(Object::Pod(p)) => Some(p.as_ref()),
        _ => None,
    };
    if let Some(Object::ReplicaSet(rs)) = owner(cx, pod).as_deref() {
        let key = key_of(&rs.metadata);
        let reason = match ev.kind {
            EventType::Added => "a Pod of this ReplicaSet was created",
            EventType::Deleted => "a Pod of this ReplicaSet is gone",
            EventType::Modified if pod.metadata.deletion_timestamp.is_some() => {
                "a Pod of this ReplicaSet is terminating"
            }
            EventType::Modified => "a Pod of this ReplicaSet changed",
        };
        cx.watch(NAME, Phase::Controllers, ev, &key, WATCH_LATENCY_MS, reason);
        // A Pod that just became ready becomes available minReadySeconds later.
        let min_ready = Some(&rs.spec).and_then(|s| s.min_ready_seconds).unwrap_or(0);
        if min_ready > 0 && is_pod_ready(pod) && !prev.is_some_and(is_pod_ready) {
            cx.enqueue(NAME, &key, min_ready as u64 * 1000);
        }
    } else if controller_of(&pod.metadata).is_none() && ev.kind != EventType::Deleted {
        // An orphan: every ReplicaSet whose selector matches may adopt it.
        let labels_changed = prev.is_none_or(|p| p.metadata.labels != pod.metadata.labels);
        if labels_changed {
            for o in list(cx.core, "ReplicaSet", ns) {
                if let Object::ReplicaSet(rs) = o {
                    let sel = Some(&rs.spec).map(|s| &s.selector);
                    if labels::matches(sel, pod.metadata.labels.as_ref()) {
                        let key = key_of(&rs.metadata);
                        cx.watch(
                            NAME,
                            Phase::Controllers,
                            ev,
                            &key,
                            WATCH_LATENCY_MS,
                            "an orphan Pod matches the selector",
                        );
                    }
                }
            }
        }
    }
    // A Pod released by or moved away from a ReplicaSet wakes the old owner too.
    if let Some(p) = prev {
        if controller_of(&p.metadata) != controller_of(&pod.metadata) {
            if let Some(rs) = owner(cx, p) {
                let key = key_of(rs.meta());
                cx.watch(NAME, Phase::Controllers, ev, &key, WATCH_LATENCY_MS, "a Pod left this ReplicaSet");
            }
        }
    }
}

fn replicas(rs: &ReplicaSet) -> i32 {
    Some(&rs.spec).and_then(|s| s.replicas).unwrap_or(1)
}

fn sync_replica_set(cx: &mut Cx, rs: &Arc<ReplicaSet>) -> Result<(), ()> {
    let ns = rs.metadata.namespace.clone();
    let uid = rs.metadata.uid.clone().unwrap_or_default();
    let name = rs.metadata.name.clone().unwrap_or_default();
    let rs_obj = Object::ReplicaSet(Arc::clone(rs));
    let selector = Some(&rs.spec).map(|s| s.selector.clone());
    let deleting = is_deleting(&rs.metadata);

    // Claim: owned Pods matching the selector, adopt matching orphans, release the rest.
    let mut active = Vec::new();
    let mut terminating = Vec::new();
    let mut claim_actions = Vec::new();
    let mut adopt = Vec::new();
    let mut release = Vec::new();
    for pod in pods(cx.core, ns.as_deref()) {
        let matches = labels::matches(selector.as_ref(), pod.metadata.labels.as_ref());
        let owned = is_controlled_by(&pod.metadata, &uid);
        if is_pod_terminating(&pod) {
            if owned && matches {
                terminating.push(pod);
            }
            continue;
        }
        if !is_pod_active(&pod) {
            continue;
        }
        match (owned, controller_of(&pod.metadata).is_none(), matches) {
            (true, _, true) => active.push(pod),
            (true, _, false) if !deleting => release.push(pod),
            (false, true, true) if !deleting => adopt.push(pod),
            _ => {}
        }
    }
    // Adoption and release are strategic merge patches of the Pod's ownerReferences (the
    // role grants `patch` on pods, not `update`), after one live read of the ReplicaSet.
    let mut claim_err: Option<String> = None;
    let mut recheck: Option<Result<(), String>> = None;
    for pod in adopt {
        let checked =
            recheck.get_or_insert_with(|| cx.recheck_before_adopting(SERVICE_ACCOUNT, "ReplicaSet", &rs.metadata));
        if let Err(e) = checked {
            claim_err = Some(e.clone());
            break;
        }
        let pod_name = pod.metadata.name.as_deref().unwrap_or("");
        claim_actions.push(format!("adopt orphan Pod {pod_name} (its labels match the selector)"));
        let pod_uid = pod.metadata.uid.as_deref().unwrap_or("");
        let patch = adopt_patch(&rs.metadata, "apps/v1", "ReplicaSet", pod_uid, &[]);
        let resp = cx.patch(SERVICE_ACCOUNT, "Pod", ns.as_deref(), pod_name, patch);
        match resp.stored_object() {
            Some(Object::Pod(p)) if resp.ok() => active.push(Arc::clone(p)),
            _ if resp.ok() || resp.is_not_found() => {}
            _ => claim_err = Some(resp.message().to_string()),
        }
    }
    for pod in release {
        let pod_name = pod.metadata.name.as_deref().unwrap_or("");
        claim_actions.push(format!("release Pod {pod_name} (its labels no longer match)"));
        let patch = release_patch(&uid, pod.metadata.uid.as_deref().unwrap_or(""));
        let resp = cx.patch(SERVICE_ACCOUNT, "Pod", ns.as_deref(), pod_name, patch);
        if !resp.ok() && !resp.is_not_found() && resp.reason() != Some(StatusReason::Invalid) {
            claim_err = Some(resp.message().to_string());
        }
    }
    // A failed claim ends the sync before any Pod is created or deleted; it is retried.
    if let Some(err) = claim_err {
        claim_actions.push(format!("retry the sync: {err}"));
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&rs_obj),
            format!("replicaset-controller: ReplicaSet {name} could not claim its Pods"),
            err,
            "each Pod it selects owned by it, and none it does not select".into(),
            claim_actions,
            StepStatus::Warning,
        );
        return Err(());
    }

    let want = replicas(rs);
    let have = active.len() as i32;
    let mut manage_err: Option<String> = None;
    let diff = have - want;
    if !deleting && diff != 0 {
        let mut actions = claim_actions.clone();
        let (summary, status) = if diff < 0 {
            let count = (-diff).min(BURST_REPLICAS);
            let batches = slow_start_batches(count);
            actions.push(format!(
                "create {count} Pod(s) from the template with generateName {name}- (slow start: batches of {})",
                batches.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ")
            ));
            (format!("replicaset-controller: ReplicaSet {name} has {have} Pod(s) for {want} replica(s): creating {count}"), StepStatus::Ok)
        } else {
            let count = diff.min(BURST_REPLICAS);
            actions.push(format!("delete {count} Pod(s), the cheapest to lose first"));
            (format!("replicaset-controller: ReplicaSet {name} has {have} Pod(s) for {want} replica(s): deleting {count}"), StepStatus::Ok)
        };
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&rs_obj),
            summary,
            format!(
                "{have} active Pod(s) ({} ready), {} terminating",
                active.iter().filter(|p| is_pod_ready(p)).count(),
                terminating.len()
            ),
            format!("{want} replica(s)"),
            actions,
            status,
        );
        manage_err = if diff < 0 {
            create_pods(cx, rs, &rs_obj, (-diff).min(BURST_REPLICAS))
        } else {
            delete_pods(cx, rs, &rs_obj, &active, diff.min(BURST_REPLICAS))
        };
    } else if !claim_actions.is_empty() {
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&rs_obj),
            format!("replicaset-controller: ReplicaSet {name} claims its Pods"),
            format!("{have} active Pod(s)"),
            format!("{want} replica(s)"),
            claim_actions,
            StepStatus::Ok,
        );
    }

    // Status, from the Pods as they were at the start of the sync (as upstream does).
    let new_status = calculate_status(rs, &active, &terminating, manage_err.as_deref(), cx.core.now);
    let generation = rs.metadata.generation.unwrap_or(0);
    let old = rs.status.clone().unwrap_or_default();
    let unchanged = old.replicas == new_status.replicas
        && old.fully_labeled_replicas.unwrap_or(0) == new_status.fully_labeled_replicas.unwrap_or(0)
        && old.ready_replicas.unwrap_or(0) == new_status.ready_replicas.unwrap_or(0)
        && old.available_replicas.unwrap_or(0) == new_status.available_replicas.unwrap_or(0)
        && old.terminating_replicas == new_status.terminating_replicas
        && old.observed_generation.unwrap_or(0) == generation
        && old.conditions.as_ref().filter(|c| !c.is_empty())
            == new_status.conditions.as_ref().filter(|c| !c.is_empty());
    if !unchanged {
        let mut status = new_status;
        status.observed_generation = nz64(generation);
        // Latest copy (the Pod writes above do not touch the ReplicaSet).
        let mut latest = match get(cx.core, "ReplicaSet", ns.as_deref(), &name) {
            Some(Object::ReplicaSet(r)) => std::sync::Arc::unwrap_or_clone(r),
            _ => return Ok(()),
        };
        let summary = format!(
            "replicaset-controller updates status of ReplicaSet {name}: replicas {}, ready {}, available {}",
            status.replicas,
            status.ready_replicas.unwrap_or(0),
            status.available_replicas.unwrap_or(0)
        );
        let actions = vec![format!(
            "PUT status: replicas={} fullyLabeledReplicas={} readyReplicas={} availableReplicas={} terminatingReplicas={} observedGeneration={}",
            status.replicas,
            status.fully_labeled_replicas.unwrap_or(0),
            status.ready_replicas.unwrap_or(0),
            status.available_replicas.unwrap_or(0),
            status.terminating_replicas.unwrap_or(0),
            generation
        )];
        let failure = status.conditions.iter().flatten().any(|c| c.type_.as_deref() == Some("ReplicaFailure"));
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&rs_obj),
            summary,
            format!("{have} active Pod(s), {} terminating", terminating.len()),
            format!("{want} replica(s)"),
            actions,
            if failure { StepStatus::Warning } else { StepStatus::Ok },
        );
        latest.status = Some(status);
        let _ = cx.update_status(SERVICE_ACCOUNT, Object::from(latest));
    }

    if manage_err.is_some() {
        return Err(());
    }
    // With minReadySeconds, check again when the next ready Pod becomes available.
    let min_ready = Some(&rs.spec).and_then(|s| s.min_ready_seconds).unwrap_or(0);
    if min_ready > 0 {
        let now = cx.core.now as i64;
        let next = active
            .iter()
            .filter(|p| is_pod_ready(p) && !is_pod_available(p, min_ready, cx.core.now))
            .filter_map(|p| pod_ready_ms(p))
            .map(|t| (t + i64::from(min_ready) * 1000 - now).max(0) as u64 + 1000)
            .min();
        if let Some(after) = next {
            cx.enqueue(NAME, &key_of(&rs.metadata), after);
        }
    }
    Ok(())
}

/// Slow start: 1, 2, 4, ... until `count` Pods are covered.
pub fn slow_start_batches(count: i32) -> Vec<i32> {
    let mut out = Vec::new();
    let mut remaining = count;
    let mut size = remaining.min(SLOW_START_INITIAL_BATCH);
    while size > 0 {
        out.push(size);
        remaining -= size;
        size = (2 * size).min(remaining);
    }
    out
}

/// A Pod for `template`, owned by `owner` (`controller.GetPodFromTemplate`).
pub fn pod_from_template(
    template: &PodTemplateSpec,
    namespace: Option<&str>,
    generate_name: String,
    owner_ref: k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference,
) -> Pod {
    let tm = template.metadata.clone().unwrap_or_default();
    let mut pod = Pod::default();
    pod.metadata.generate_name = Some(generate_name);
    pod.metadata.namespace = namespace.map(str::to_string);
    pod.metadata.labels = tm.labels.filter(|l| !l.is_empty());
    pod.metadata.annotations = tm.annotations.filter(|a| !a.is_empty());
    pod.metadata.finalizers = tm.finalizers.filter(|f| !f.is_empty());
    pod.metadata.owner_references = Some(vec![owner_ref]);
    pod.spec = template.spec.clone();
    pod
}

/// Creates `count` Pods in slow-start batches; returns the first error message.
fn create_pods(cx: &mut Cx, rs: &ReplicaSet, rs_obj: &Object, count: i32) -> Option<String> {
    let template = Some(&rs.spec).and_then(|s| s.template.clone()).unwrap_or_default();
    let name = rs.metadata.name.clone().unwrap_or_default();
    let owner = new_controller_ref(&rs.metadata, "apps/v1", "ReplicaSet");
    create_pods_in_batches(cx, SOURCE, &template, rs.metadata.namespace.as_deref(), &name, owner, rs_obj, count).1
}

/// `RealPodControl.CreatePods` in slow-start batches, shared with the Job controller.
/// Records `SuccessfulCreate` / `FailedCreate` Events on `owner_obj`; returns the number of
/// Pods created and the first error.
#[allow(clippy::too_many_arguments)]
pub fn create_pods_in_batches(
    cx: &mut Cx,
    source: EventSourceInfo,
    template: &PodTemplateSpec,
    namespace: Option<&str>,
    prefix: &str,
    owner: k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference,
    owner_obj: &Object,
    count: i32,
) -> (i32, Option<String>) {
    let mut first_err = None;
    let mut created_count = 0;
    for batch in slow_start_batches(count) {
        for _ in 0..batch {
            let pod = pod_from_template(template, namespace, format!("{prefix}-"), owner.clone());
            if pod.metadata.labels.as_ref().is_none_or(|l| l.is_empty()) {
                first_err.get_or_insert_with(|| "unable to create pods, no labels".to_string());
                continue;
            }
            let resp = cx.create(source.service_account, Object::from(pod));
            match (resp.object_identity(), &resp.error) {
                (Some(created), None) => {
                    created_count += 1;
                    let msg = format!("Created pod: {}", created.name());
                    cx.event(source, owner_obj, "Normal", "SuccessfulCreate", &msg);
                }
                (_, Some(e)) => {
                    if !namespace_terminating(&e.message) {
                        cx.event(
                            source,
                            owner_obj,
                            "Warning",
                            "FailedCreate",
                            &format!("Error creating: {}", e.message),
                        );
                    }
                    first_err.get_or_insert_with(|| e.message.clone());
                }
                _ => {}
            }
        }
        if first_err.is_some() {
            break;
        }
    }
    (created_count, first_err)
}

/// Whether an API error says the namespace is being deleted (upstream checks the
/// `NamespaceTerminating` status cause and stays silent).
pub fn namespace_terminating(message: &str) -> bool {
    message.contains("because it is being terminated")
}

fn delete_pods(cx: &mut Cx, rs: &ReplicaSet, rs_obj: &Object, active: &[Arc<Pod>], count: i32) -> Option<String> {
    // Related Pods: those of every ReplicaSet with the same controller (the Deployment).
    let ns = rs.metadata.namespace.as_deref();
    let mut related: Vec<Arc<Pod>> = Vec::new();
    if let Some(ctrl) = controller_of(&rs.metadata) {
        let all_pods = pods(cx.core, ns);
        for o in list(cx.core, "ReplicaSet", ns) {
            if let Object::ReplicaSet(other) = o {
                if controller_of(&other.metadata).is_some_and(|r| r.uid == ctrl.uid) {
                    let sel = Some(&other.spec).map(|s| &s.selector);
                    for p in &all_pods {
                        if labels::matches(sel, p.metadata.labels.as_ref())
                            && !related.iter().any(|r| r.metadata.uid == p.metadata.uid)
                        {
                            related.push(Arc::clone(p));
                        }
                    }
                }
            }
        }
    }
    let victims = pods_to_delete(active, &related, count as usize, cx.core.now);
    let mut first_err = None;
    for pod in victims {
        let pname = pod.metadata.name.clone().unwrap_or_default();
        let resp = cx.delete(SERVICE_ACCOUNT, "Pod", ns, &pname, None);
        match &resp.error {
            None => cx.event(SOURCE, rs_obj, "Normal", "SuccessfulDelete", &format!("Deleted pod: {pname}")),
            Some(e) if e.code == 404 => {}
            Some(e) => {
                cx.event(SOURCE, rs_obj, "Warning", "FailedDelete", &format!("Error deleting: {}", e.message));
                first_err.get_or_insert_with(|| e.message.clone());
            }
        }
    }
    first_err
}

/// Chooses `count` Pods to delete (`getPodsToDelete`): ranked by the number of related
/// active Pods on the same node, then ordered by [`deletion_order`].
pub fn pods_to_delete(active: &[Arc<Pod>], related: &[Arc<Pod>], count: usize, now_ms: u64) -> Vec<Arc<Pod>> {
    let mut ranked: Vec<(Arc<Pod>, usize)> = active
        .iter()
        .map(|p| {
            let node = node_name(p);
            let rank = related.iter().filter(|r| is_pod_active(r) && node_name(r) == node).count();
            (Arc::clone(p), rank)
        })
        .collect();
    if count < ranked.len() {
        crate::sort::sort_by(&mut ranked, |a, b| deletion_order(&a.0, a.1, &b.0, b.1, now_ms));
    }
    ranked.into_iter().take(count).map(|(p, _)| p).collect()
}

fn phase_ordinal(pod: &Pod) -> u8 {
    match phase(pod) {
        "Unknown" => 1,
        "Running" => 2,
        _ => 0,
    }
}

fn deletion_cost(pod: &Pod) -> i32 {
    pod.metadata.annotations.as_ref().and_then(|a| a.get(POD_DELETION_COST)).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn creation_ms(pod: &Pod) -> Option<i64> {
    pod.metadata.creation_timestamp.as_ref().map(time_ms)
}

/// `logarithmicRankDiff`: compares how long ago two times were on a log2 scale of
/// nanoseconds.
fn log_rank_diff(t1: i64, t2: i64, now_ms: u64) -> i64 {
    let rank = |t: i64| -> i64 {
        let d = (now_ms as i64 - t) as f64 * 1e6;
        if d > 0.0 {
            d.log2().floor() as i64
        } else {
            -1
        }
    };
    rank(t1) - rank(t2)
}

/// The order in which Pods are deleted (`ActivePodsWithRanks.Less`), with LogarithmicScaleDown
/// and PodDeletionCost on (both GA).
pub fn deletion_order(a: &Pod, rank_a: usize, b: &Pod, rank_b: usize, now_ms: u64) -> Ordering {
    let less = |x: bool| if x { Ordering::Less } else { Ordering::Greater };
    let (na, nb) = (node_name(a), node_name(b));
    if na != nb && (na.is_empty() || nb.is_empty()) {
        return less(na.is_empty());
    }
    if phase_ordinal(a) != phase_ordinal(b) {
        return phase_ordinal(a).cmp(&phase_ordinal(b));
    }
    if is_pod_ready(a) != is_pod_ready(b) {
        return less(!is_pod_ready(a));
    }
    if deletion_cost(a) != deletion_cost(b) {
        return deletion_cost(a).cmp(&deletion_cost(b));
    }
    if rank_a != rank_b {
        return rank_b.cmp(&rank_a);
    }
    let uid_order = || a.metadata.uid.cmp(&b.metadata.uid);
    if is_pod_ready(a) && is_pod_ready(b) {
        let (ra, rb) = (pod_ready_ms(a), pod_ready_ms(b));
        if ra != rb {
            match (ra, rb) {
                (Some(x), Some(y)) => {
                    let d = log_rank_diff(x, y, now_ms);
                    return if d == 0 { uid_order() } else { d.cmp(&0) };
                }
                (None, _) => return Ordering::Less,
                (_, None) => return Ordering::Greater,
            }
        }
    }
    if max_restarts(a) != max_restarts(b) {
        return max_restarts(b).cmp(&max_restarts(a));
    }
    let (ca, cb) = (creation_ms(a), creation_ms(b));
    if ca != cb {
        return match (ca, cb) {
            (Some(x), Some(y)) => {
                let d = log_rank_diff(x, y, now_ms);
                if d == 0 {
                    uid_order()
                } else {
                    d.cmp(&0)
                }
            }
            (None, _) => Ordering::Less,
            (_, None) => Ordering::Greater,
        };
    }
    Ordering::Equal
}

/// `calculateStatus` of the ReplicaSet controller.
fn calculate_status(
    rs: &ReplicaSet,
    active: &[Arc<Pod>],
    terminating: &[Arc<Pod>],
    manage_err: Option<&str>,
    now_ms: u64,
) -> ReplicaSetStatus {
    let template_labels = Some(&rs.spec)
        .and_then(|s| s.template.as_ref())
        .and_then(|t| t.metadata.as_ref())
        .and_then(|m| m.labels.clone());
    let min_ready = Some(&rs.spec).and_then(|s| s.min_ready_seconds).unwrap_or(0);
    let mut fully = 0;
    let mut ready = 0;
    let mut available = 0;
    for p in active {
        if template_labels.as_ref().is_none_or(|t| labels::set_matches(t, p.metadata.labels.as_ref())) {
            fully += 1;
        }
        if is_pod_ready(p) {
            ready += 1;
            if is_pod_available(p, min_ready, now_ms) {
                available += 1;
            }
        }
    }
    let mut conditions = rs.status.as_ref().and_then(|s| s.conditions.clone()).unwrap_or_default();
    let has_failure = conditions.iter().any(|c| c.type_.as_deref() == Some("ReplicaFailure"));
    match manage_err {
        Some(msg) if !has_failure => {
            let diff = active.len() as i32 - replicas(rs);
            let reason = match diff.cmp(&0) {
                Ordering::Less => "FailedCreate",
                Ordering::Greater => "FailedDelete",
                Ordering::Equal => "",
            };
            conditions.push(ReplicaSetCondition {
                type_: Some("ReplicaFailure".into()),
                status: Some("True".into()),
                last_transition_time: Some(crate::apiserver::timestamp(now_ms)),
                reason: Some(reason.into()),
                message: Some(msg.to_string()),
            });
        }
        None if has_failure => conditions.retain(|c| c.type_.as_deref() != Some("ReplicaFailure")),
        _ => {}
    }
    ReplicaSetStatus {
        replicas: active.len() as i32,
        fully_labeled_replicas: nz(fully),
        ready_replicas: nz(ready),
        available_replicas: nz(available),
        terminating_replicas: Some(terminating.len() as i32),
        observed_generation: rs.status.as_ref().and_then(|s| s.observed_generation),
        conditions: (!conditions.is_empty()).then_some(conditions),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_doubles() {
        assert_eq!(slow_start_batches(3), vec![1, 2]);
        assert_eq!(slow_start_batches(10), vec![1, 2, 4, 3]);
        assert_eq!(slow_start_batches(0), Vec::<i32>::new());
    }
}
