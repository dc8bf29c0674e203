//! The StatefulSet controller: Pods with a stable identity, created and removed in order.
//!
//! Where a ReplicaSet's Pods are interchangeable (`web-7d9c5-x2kqz`), a StatefulSet's Pods
//! are numbered: `db-0`, `db-1`, ... Each keeps its name, its hostname (`spec.hostname`, with
//! `spec.subdomain` set to the governing headless Service, so it is reachable as
//! `db-0.db.<namespace>.svc.cluster.local`) and its PersistentVolumeClaims
//! (`<template>-db-0`) across rescheduling. A sync (upstream `UpdateStatefulSet`):
//! 1. claims the Pods whose names say they belong to the set (`<set>-<ordinal>`) and its
//!    selector matches, as the other controllers do;
//! 2. snapshots the Pod template into a ControllerRevision (`<set>-<hash>`, see
//!    [`super::history`]) unless the newest revision already holds it — the *update
//!    revision*; the *current revision* is the one `status.currentRevision` names;
//! 3. walks the ordinals `0 ≤ i < replicas`: a missing Pod is created (its claims first,
//!    with the `SuccessfulCreate` Events "create Claim ... success" and "create Pod ...
//!    successful"), a Failed or Succeeded one is deleted to be made again. With
//!    `podManagementPolicy: OrderedReady` (the default) the walk stops at the first Pod that
//!    was just created, is terminating, or is not yet Running and Ready (nor available after
//!    `minReadySeconds`): `db-1` is only created once `db-0` is Ready. With `Parallel` every
//!    Pod is handled at once, in slow-start batches;
//! 4. removes the Pods above the range (scale-down) from the highest ordinal down, one at a
//!    time in OrderedReady once all the others are Ready;
//! 5. with `updateStrategy: RollingUpdate`, deletes Pods still on an old revision from the
//!    highest ordinal down to `partition`, at most `maxUnavailable` (default 1) unavailable at
//!    a time; step 3 then makes them again from the new revision. `OnDelete` waits for you to
//!    delete them;
//! 6. writes `status` (replicas, readyReplicas, currentReplicas, updatedReplicas,
//!    availableReplicas, currentRevision, updateRevision, collisionCount,
//!    observedGeneration) when it changed, and trims old revisions to
//!    `revisionHistoryLimit`.
//!
//! `persistentVolumeClaimRetentionPolicy` is honoured by owner references on the claims:
//! `whenDeleted: Delete` makes the set own them (the garbage collector removes them with
//! it), `whenScaled: Delete` makes a scaled-down Pod own its claims.

use super::history::{self, CONTROLLER_REVISION_HASH_LABEL};
use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::labels;
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::apps::v1::{ControllerRevision, StatefulSet, StatefulSetStatus};
use k8s_openapi::api::core::v1::{
    PersistentVolumeClaim, PersistentVolumeClaimVolumeSource, Pod, PodTemplateSpec, Volume,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use std::collections::BTreeMap;
use std::sync::Arc;

pub const NAME: &str = "statefulset-controller";
pub const SERVICE_ACCOUNT: &str = "statefulset-controller";
/// From a watch event to the sync of the StatefulSet.
pub const WATCH_LATENCY_MS: u64 = 2;
/// The label naming a Pod's own name (`apps.StatefulSetPodNameLabel`).
pub const POD_NAME_LABEL: &str = "statefulset.kubernetes.io/pod-name";
/// The label holding a Pod's ordinal (`apps.PodIndexLabel`, GA since v1.32).
pub const POD_INDEX_LABEL: &str = "apps.kubernetes.io/pod-index";
/// The cluster's DNS domain (kubeadm's and kind's default).
const CLUSTER_DOMAIN: &str = "cluster.local";

const SOURCE: EventSourceInfo = EventSourceInfo {
    component: "statefulset-controller",
    service_account: SERVICE_ACCOUNT,
    phase: Phase::Controllers,
};

/// The controller, with what it last said it waits for per set: a wait is recorded once,
/// not at every status change of the Pod it waits on.
#[derive(Debug, Default)]
pub struct StatefulSetController {
    waiting: BTreeMap<String, String>,
}

impl Controller for StatefulSetController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            Object::StatefulSet(set) => {
                if ev.kind == EventType::Deleted {
                    self.waiting.remove(&key_of(&set.metadata));
                    return;
                }
                if let Some(Object::StatefulSet(prev)) = ev.prev.as_deref() {
                    if prev.spec == set.spec
                        && prev.metadata.labels == set.metadata.labels
                        && prev.metadata.owner_references == set.metadata.owner_references
                        && prev.metadata.deletion_timestamp == set.metadata.deletion_timestamp
                    {
                        return;
                    }
                }
                let reason = if ev.kind == EventType::Added {
                    "a new StatefulSet: create its Pods, in order"
                } else {
                    "the StatefulSet changed: check its Pods"
                };
                cx.watch(NAME, Phase::Controllers, ev, &key_of(&set.metadata), WATCH_LATENCY_MS, reason);
            }
            Object::Pod(pod) => observe_pod(cx, ev, pod),
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        let (ns, name) = split_key(key);
        let Some(Object::StatefulSet(set)) = get(cx.core, "StatefulSet", ns, name) else {
            self.waiting.remove(key);
            return;
        };
        match self.sync_stateful_set(cx, &set) {
            Ok(()) => cx.forget(NAME, key),
            Err(()) => {
                cx.requeue_rate_limited(NAME, key);
            }
        }
    }
}

fn owner_set(cx: &Cx, pod: &Pod) -> Option<Arc<StatefulSet>> {
    let r = controller_of(&pod.metadata).filter(|r| r.kind == "StatefulSet")?;
    match resolve_owner(cx.core, pod.metadata.namespace.as_deref(), r).as_deref() {
        Some(Object::StatefulSet(s)) => Some(Arc::clone(s)),
        _ => None,
    }
}

fn observe_pod(cx: &mut Cx, ev: &WatchEvent<Object>, pod: &Pod) {
    let prev = match ev.prev.as_deref() {
        Some(Object::Pod(p)) => Some(p.as_ref()),
        _ => None,
    };
    if let Some(set) = owner_set(cx, pod) {
        let key = key_of(&set.metadata);
        let reason = match ev.kind {
            EventType::Added => "a Pod of this StatefulSet was created",
            EventType::Deleted => "a Pod of this StatefulSet is gone",
            EventType::Modified if pod.metadata.deletion_timestamp.is_some() => {
                "a Pod of this StatefulSet is terminating"
            }
            EventType::Modified => "a Pod of this StatefulSet changed",
        };
        cx.watch(NAME, Phase::Controllers, ev, &key, WATCH_LATENCY_MS, reason);
        let min_ready = set.spec.min_ready_seconds.unwrap_or(0);
        if min_ready > 0 && is_pod_ready(pod) && !prev.is_some_and(is_pod_ready) {
            cx.enqueue(NAME, &key, min_ready as u64 * 1000 + 1000);
        }
    } else if controller_of(&pod.metadata).is_none() && ev.kind != EventType::Deleted {
        let labels_changed = prev.is_none_or(|p| p.metadata.labels != pod.metadata.labels);
        if labels_changed {
            for o in list_shared(cx.core, "StatefulSet", pod.metadata.namespace.as_deref()) {
                if let Object::StatefulSet(set) = &*o {
                    if is_member_of(set, pod) && labels::matches(Some(&set.spec.selector), pod.metadata.labels.as_ref())
                    {
                        let key = key_of(&set.metadata);
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
    if let Some(p) = prev {
        if controller_of(&p.metadata) != controller_of(&pod.metadata) {
            if let Some(set) = owner_set(cx, p) {
                let key = key_of(&set.metadata);
                cx.watch(NAME, Phase::Controllers, ev, &key, WATCH_LATENCY_MS, "a Pod left this StatefulSet");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Identity (stateful_set_utils.go)

/// The parent name and ordinal in a Pod name `<parent>-<ordinal>` (`getParentNameAndOrdinal`).
pub fn parent_and_ordinal(name: &str) -> Option<(&str, i32)> {
    let (parent, digits) = name.rsplit_once('-')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<i32>().ok().map(|o| (parent, o))
}

fn ordinal(pod: &Pod) -> i32 {
    parent_and_ordinal(pod.metadata.name.as_deref().unwrap_or("")).map_or(-1, |(_, o)| o)
}

fn set_name(set: &StatefulSet) -> &str {
    set.metadata.name.as_deref().unwrap_or("")
}

fn is_member_of(set: &StatefulSet, pod: &Pod) -> bool {
    parent_and_ordinal(pod.metadata.name.as_deref().unwrap_or("")).is_some_and(|(p, _)| p == set_name(set))
}

fn replicas(set: &StatefulSet) -> i32 {
    set.spec.replicas.unwrap_or(1)
}

fn start_ordinal(set: &StatefulSet) -> i32 {
    set.spec.ordinals.as_ref().and_then(|o| o.start).unwrap_or(0)
}

fn in_range(set: &StatefulSet, ord: i32) -> bool {
    ord >= start_ordinal(set) && ord < start_ordinal(set) + replicas(set)
}

fn parallel(set: &StatefulSet) -> bool {
    set.spec.pod_management_policy.as_deref() == Some("Parallel")
}

fn on_delete(set: &StatefulSet) -> bool {
    set.spec.update_strategy.as_ref().and_then(|s| s.type_.as_deref()) == Some("OnDelete")
}

fn claim_name(template: &PersistentVolumeClaim, set: &StatefulSet, ord: i32) -> String {
    format!("{}-{}-{ord}", template.metadata.name.as_deref().unwrap_or(""), set_name(set))
}

fn claim_templates(set: &StatefulSet) -> &[PersistentVolumeClaim] {
    set.spec.volume_claim_templates.as_deref().unwrap_or(&[])
}

fn pod_revision(pod: &Pod) -> &str {
    pod.metadata.labels.as_ref().and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL)).map_or("", String::as_str)
}

/// The claims of the Pod with ordinal `ord` (`getPersistentVolumeClaims`): each template
/// renamed `<template>-<set>-<ordinal>`, labelled with the selector's matchLabels.
fn claims_for(set: &StatefulSet, ord: i32) -> Vec<(String, PersistentVolumeClaim)> {
    claim_templates(set)
        .iter()
        .map(|t| {
            let mut claim = t.clone();
            claim.metadata.name = Some(claim_name(t, set, ord));
            claim.metadata.namespace = set.metadata.namespace.clone();
            let mut l = claim.metadata.labels.take().unwrap_or_default();
            for (k, v) in set.spec.selector.match_labels.iter().flatten() {
                l.insert(k.clone(), v.clone());
            }
            claim.metadata.labels = (!l.is_empty()).then_some(l);
            claim.status = None;
            (t.metadata.name.clone().unwrap_or_default(), claim)
        })
        .collect()
}

/// The Pod of ordinal `ord` built from `set`'s template (`newStatefulSetPod`): its name,
/// identity labels, hostname and subdomain, its claims as volumes and the revision label.
fn new_pod(set: &StatefulSet, template: &PodTemplateSpec, ord: i32, revision: &str) -> Pod {
    let owner = new_controller_ref(&set.metadata, "apps/v1", "StatefulSet");
    let mut pod =
        super::replicaset::pod_from_template(template, set.metadata.namespace.as_deref(), String::new(), owner);
    pod.metadata.generate_name = None;
    let name = format!("{}-{ord}", set_name(set));
    pod.metadata.name = Some(name.clone());
    let mut l = pod.metadata.labels.take().unwrap_or_default();
    l.insert(POD_NAME_LABEL.into(), name.clone());
    l.insert(POD_INDEX_LABEL.into(), ord.to_string());
    l.insert(CONTROLLER_REVISION_HASH_LABEL.into(), revision.to_string());
    pod.metadata.labels = Some(l);
    if let Some(spec) = pod.spec.as_mut() {
        spec.hostname = Some(name);
        spec.subdomain = set.spec.service_name.clone().filter(|s| !s.is_empty());
        // `updateStorage`: a volume per claim template, then the template's other volumes.
        let claims = claims_for(set, ord);
        let mut volumes: Vec<Volume> = claims
            .iter()
            .map(|(tname, c)| Volume {
                name: tname.clone(),
                persistent_volume_claim: Some(PersistentVolumeClaimVolumeSource {
                    claim_name: c.metadata.name.clone().unwrap_or_default(),
                    read_only: None,
                }),
                ..Volume::default()
            })
            .collect();
        for v in spec.volumes.take().unwrap_or_default() {
            if !claims.iter().any(|(t, _)| *t == v.name) {
                volumes.push(v);
            }
        }
        spec.volumes = (!volumes.is_empty()).then_some(volumes);
    }
    pod
}

fn identity_matches(set: &StatefulSet, pod: &Pod) -> bool {
    let name = pod.metadata.name.as_deref().unwrap_or("");
    is_member_of(set, pod)
        && pod.metadata.namespace == set.metadata.namespace
        && pod.metadata.labels.as_ref().and_then(|l| l.get(POD_NAME_LABEL)).map(String::as_str) == Some(name)
}

fn storage_matches(set: &StatefulSet, pod: &Pod) -> bool {
    let ord = ordinal(pod);
    let volumes = pod.spec.as_ref().and_then(|s| s.volumes.as_deref()).unwrap_or(&[]);
    claim_templates(set).iter().all(|t| {
        let tname = t.metadata.name.as_deref().unwrap_or("");
        volumes.iter().any(|v| {
            v.name == tname
                && v.persistent_volume_claim.as_ref().is_some_and(|c| c.claim_name == claim_name(t, set, ord))
        })
    })
}

fn is_created(pod: &Pod) -> bool {
    !phase(pod).is_empty()
}

fn is_running_and_ready(pod: &Pod) -> bool {
    phase(pod) == "Running" && is_pod_ready(pod)
}

fn is_unavailable(pod: &Pod, min_ready: i32, now: u64) -> bool {
    !is_created(pod) || pod.metadata.deletion_timestamp.is_some() || !is_pod_available(pod, min_ready, now)
}

// ---------------------------------------------------------------------------------------
// Revisions

/// The revision data of `set` (`getPatch`): its Pod template, marked to replace.
fn revision_data(set: &StatefulSet) -> serde_json::Value {
    let mut template = serde_json::to_value(&set.spec.template).unwrap_or_default();
    if let Some(m) = template.as_object_mut() {
        m.insert("$patch".into(), "replace".into());
    }
    serde_json::json!({"spec": {"template": template}})
}

/// The Pod template a revision holds (`ApplyRevision`).
fn revision_template(rev: &ControllerRevision) -> Option<PodTemplateSpec> {
    let mut t = rev.data.0.get("spec")?.get("template")?.clone();
    t.as_object_mut()?.remove("$patch");
    serde_json::from_value(t).ok()
}

fn owned_revisions(cx: &Cx, set: &StatefulSet) -> Vec<Arc<ControllerRevision>> {
    let uid = set.metadata.uid.as_deref().unwrap_or("");
    let mut out: Vec<Arc<ControllerRevision>> =
        list_shared(cx.core, "ControllerRevision", set.metadata.namespace.as_deref())
            .into_iter()
            .filter_map(|o| match &*o {
                Object::ControllerRevision(r) if is_controlled_by(&r.metadata, uid) => Some(Arc::clone(r)),
                _ => None,
            })
            .collect();
    history::sort_controller_revisions(&mut out);
    out
}

fn equal_revision(a: &ControllerRevision, b: &ControllerRevision) -> bool {
    let hash =
        |r: &ControllerRevision| r.metadata.labels.as_ref().and_then(|l| l.get(history::HISTORY_HASH_LABEL)).cloned();
    hash(a) == hash(b) && a.data == b.data
}

// ---------------------------------------------------------------------------------------
// The sync

/// One pass over the replicas: what the set looks like (for each decision step), what it
/// waits for, and the first error.
#[derive(Default)]
struct Pass {
    name: String,
    observed: String,
    desired: String,
    wait: Option<String>,
    err: Option<String>,
}

impl Pass {
    /// Records the decision to do `action` before it is done.
    fn step(&mut self, cx: &mut Cx, set_obj: &Object, action: String) {
        let cut = [action.find(" ("), action.find(':')].into_iter().flatten().min().unwrap_or(action.len());
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(set_obj),
            format!("statefulset-controller: StatefulSet {}: {}", self.name, &action[..cut]),
            self.observed.clone(),
            self.desired.clone(),
            vec![action],
            StepStatus::Ok,
        );
    }
}

impl StatefulSetController {
    fn sync_stateful_set(&mut self, cx: &mut Cx, set: &Arc<StatefulSet>) -> Result<(), ()> {
        let ns = set.metadata.namespace.clone();
        let name = set_name(set).to_string();
        let key = key_of(&set.metadata);
        let uid = set.metadata.uid.clone().unwrap_or_default();
        let set_obj = Object::StatefulSet(Arc::clone(set));
        let deleting = is_deleting(&set.metadata);
        let now = cx.core.now;
        let min_ready = set.spec.min_ready_seconds.unwrap_or(0);

        // Claim the Pods: owned members the selector matches; adopt matching orphans.
        let mut pods: Vec<Arc<Pod>> = Vec::new();
        let mut claim_actions = Vec::new();
        let mut recheck: Option<Result<(), String>> = None;
        for pod in super::util::pods(cx.core, ns.as_deref()) {
            if !is_member_of(set, &pod) {
                continue;
            }
            let matches = labels::matches(Some(&set.spec.selector), pod.metadata.labels.as_ref());
            let owned = is_controlled_by(&pod.metadata, &uid);
            let pod_name = pod.metadata.name.clone().unwrap_or_default();
            match (owned, controller_of(&pod.metadata).is_none(), matches) {
                (true, _, true) => pods.push(pod),
                (true, _, false) if !deleting && !is_pod_terminating(&pod) => {
                    claim_actions.push(format!("release Pod {pod_name} (its labels no longer match)"));
                    let patch = release_patch(&uid, pod.metadata.uid.as_deref().unwrap_or(""));
                    let _ = cx.patch(SERVICE_ACCOUNT, "Pod", ns.as_deref(), &pod_name, patch);
                }
                (false, true, true) if !deleting && !is_pod_terminating(&pod) => {
                    let checked = recheck.get_or_insert_with(|| {
                        cx.recheck_before_adopting(SERVICE_ACCOUNT, "StatefulSet", &set.metadata)
                    });
                    if checked.is_err() {
                        continue;
                    }
                    claim_actions.push(format!("adopt orphan Pod {pod_name} (its name and labels match)"));
                    let patch = adopt_patch(
                        &set.metadata,
                        "apps/v1",
                        "StatefulSet",
                        pod.metadata.uid.as_deref().unwrap_or(""),
                        &[],
                    );
                    let resp = cx.patch(SERVICE_ACCOUNT, "Pod", ns.as_deref(), &pod_name, patch);
                    if let Some(Object::Pod(p)) = resp.stored_object().filter(|_| resp.ok()) {
                        pods.push(Arc::clone(p));
                    }
                }
                _ => {}
            }
        }

        // Revisions: the update revision holds the template as it is now.
        let revisions = owned_revisions(cx, set);
        let mut collision_count = set.status.as_ref().and_then(|s| s.collision_count).unwrap_or(0);
        let candidate = {
            let next = revisions.last().and_then(|r| r.revision).unwrap_or(0) + 1;
            let owner = new_controller_ref(&set.metadata, "apps/v1", "StatefulSet");
            let mut cr = history::new_controller_revision(
                &set.metadata,
                owner,
                set.spec.template.metadata.as_ref().and_then(|m| m.labels.as_ref()),
                revision_data(set),
                next,
                Some(collision_count).filter(|c| *c > 0),
            );
            cr.metadata.annotations = set.metadata.annotations.clone().filter(|a| !a.is_empty());
            cr
        };
        let equal: Vec<&Arc<ControllerRevision>> = revisions.iter().filter(|r| equal_revision(r, &candidate)).collect();
        let update_revision: Arc<ControllerRevision> = match (equal.last(), revisions.last()) {
            (Some(e), Some(last)) if equal_revision(e, last) => Arc::clone(last),
            (Some(e), _) => {
                // Back to an older template: that revision becomes the newest again.
                let mut r = ControllerRevision::clone(e);
                r.revision = candidate.revision;
                let resp = cx.update(SERVICE_ACCOUNT, Object::from(r.clone()));
                match resp.stored_object() {
                    Some(Object::ControllerRevision(s)) if resp.ok() => Arc::clone(s),
                    _ => {
                        self.record_failure(cx, &set_obj, &name, resp.message().to_string());
                        return Err(());
                    }
                }
            }
            (None, _) => match self.create_revision(cx, set, &set_obj, candidate, &mut collision_count) {
                Some(r) => r,
                None => return Err(()),
            },
        };
        let current_name = set.status.as_ref().and_then(|s| s.current_revision.clone()).unwrap_or_default();
        let current_revision = revisions.iter().find(|r| r.metadata.name.as_deref() == Some(&current_name)).cloned();
        let current_revision = current_revision.unwrap_or_else(|| Arc::clone(&update_revision));
        let update_rev_name = update_revision.metadata.name.clone().unwrap_or_default();
        let current_rev_name = current_revision.metadata.name.clone().unwrap_or_default();
        let update_template = set.spec.template.clone();
        let current_template = revision_template(&current_revision).unwrap_or_else(|| set.spec.template.clone());

        // Partition the Pods: replicas in the ordinal range, condemned above it.
        let start = start_ordinal(set);
        let count = replicas(set).max(0);
        let mut slots: Vec<Option<Arc<Pod>>> = vec![None; count as usize];
        let mut condemned: Vec<Arc<Pod>> = Vec::new();
        for p in &pods {
            let ord = ordinal(p);
            if in_range(set, ord) {
                slots[(ord - start) as usize] = Some(Arc::clone(p));
            } else if ord >= 0 {
                condemned.push(Arc::clone(p));
            }
        }
        crate::sort::sort_by(&mut condemned, |a, b| ordinal(b).cmp(&ordinal(a)));
        let partition =
            set.spec.update_strategy.as_ref().and_then(|s| s.rolling_update.as_ref()).and_then(|r| r.partition);
        let mut replicas_now: Vec<Arc<Pod>> = slots
            .iter()
            .enumerate()
            .map(|(i, p)| match p {
                Some(p) => Arc::clone(p),
                None => {
                    let ord = start + i as i32;
                    // `newVersionedStatefulSetPod`: below the partition, Pods stay on the
                    // current revision.
                    let current_partition = match partition {
                        Some(part) => ord < start + part,
                        None => {
                            !on_delete(set)
                                && ord < start + set.status.as_ref().and_then(|s| s.current_replicas).unwrap_or(0)
                        }
                    };
                    Arc::new(if current_partition && current_rev_name != update_rev_name {
                        new_pod(set, &current_template, ord, &current_rev_name)
                    } else {
                        new_pod(set, &update_template, ord, &update_rev_name)
                    })
                }
            })
            .collect();
        let first_unavailable = replicas_now
            .iter()
            .chain(condemned.iter().rev())
            .find(|p| is_unavailable(p, min_ready, now))
            .and_then(|p| p.metadata.name.clone());

        // What each decision step shows.
        let monotonic = !parallel(set);
        let have = pods.iter().filter(|p| !is_pod_terminating(p)).count();
        let observed = format!(
            "{have} Pod(s) of {} wanted ({} Running and Ready), {} above the range; update revision {update_rev_name}{}",
            count,
            pods.iter().filter(|p| is_running_and_ready(p)).count(),
            condemned.len(),
            if current_rev_name != update_rev_name { format!(", current revision {current_rev_name}") } else { String::new() }
        );
        let desired = format!(
            "{name}-{start}..{name}-{} ({}){}",
            start + count - 1,
            if monotonic {
                "OrderedReady: one at a time, each after the one before is Running and Ready"
            } else {
                "Parallel: all at once"
            },
            match (on_delete(set), partition) {
                (true, _) => ", updated only when you delete a Pod (OnDelete)".to_string(),
                (false, Some(p)) if p > 0 => format!(", ordinals from {p} up on the update revision (partition {p})"),
                _ => String::new(),
            }
        );
        let mut pass = Pass { name: name.clone(), observed, desired, ..Pass::default() };
        if !claim_actions.is_empty() {
            cx.decide(
                Phase::Controllers,
                NAME,
                Some(&set_obj),
                format!("statefulset-controller: StatefulSet {name} claims its Pods"),
                pass.observed.clone(),
                pass.desired.clone(),
                claim_actions,
                StepStatus::Ok,
            );
        }
        if !deleting {
            self.process(
                cx,
                set,
                &set_obj,
                &mut replicas_now,
                &condemned,
                first_unavailable.as_deref(),
                &update_rev_name,
                &mut pass,
            );
        }
        let status =
            compute_status(set, &replicas_now, &condemned, &current_rev_name, &update_rev_name, collision_count, now);

        // What it waits for, said once (not at every status change of the Pod it waits on).
        match (&pass.err, pass.wait.clone()) {
            (Some(e), _) => {
                cx.decide(
                    Phase::Controllers,
                    NAME,
                    Some(&set_obj),
                    format!("statefulset-controller: StatefulSet {name} could not make its Pods: {e}"),
                    pass.observed.clone(),
                    pass.desired.clone(),
                    vec![format!("retry the sync: {e}")],
                    StepStatus::Warning,
                );
                self.waiting.remove(&key);
            }
            (None, Some(w)) => {
                if self.waiting.get(&key) != Some(&w) {
                    cx.decide(
                        Phase::Controllers,
                        NAME,
                        Some(&set_obj),
                        format!("statefulset-controller: StatefulSet {name} waits: {w}"),
                        pass.observed.clone(),
                        pass.desired.clone(),
                        vec![format!(
                            "nothing more to do until then (podManagementPolicy {})",
                            if monotonic { "OrderedReady" } else { "Parallel" }
                        )],
                        StepStatus::Ok,
                    );
                    self.waiting.insert(key.clone(), w);
                }
            }
            (None, None) => {
                self.waiting.remove(&key);
            }
        }

        // Status, when it changed (`updateStatefulSetStatus`).
        let status = complete_rolling_update(set, status);
        let old = set.status.clone().unwrap_or_default();
        let changed = status.observed_generation > old.observed_generation
            || status.replicas != old.replicas
            || status.current_replicas.unwrap_or(0) != old.current_replicas.unwrap_or(0)
            || status.ready_replicas.unwrap_or(0) != old.ready_replicas.unwrap_or(0)
            || status.updated_replicas.unwrap_or(0) != old.updated_replicas.unwrap_or(0)
            || status.current_revision != old.current_revision
            || status.available_replicas.unwrap_or(0) != old.available_replicas.unwrap_or(0)
            || status.update_revision != old.update_revision;
        if changed {
            if let Some(Object::StatefulSet(latest)) = get(cx.core, "StatefulSet", ns.as_deref(), &name) {
                let mut latest = Arc::unwrap_or_clone(latest);
                let summary = format!(
                    "statefulset-controller updates status of StatefulSet {name}: replicas {}, ready {}, updated {}",
                    status.replicas,
                    status.ready_replicas.unwrap_or(0),
                    status.updated_replicas.unwrap_or(0)
                );
                let action = format!(
                    "PUT status: replicas={} readyReplicas={} currentReplicas={} updatedReplicas={} availableReplicas={} currentRevision={} updateRevision={} collisionCount={} observedGeneration={}",
                    status.replicas,
                    status.ready_replicas.unwrap_or(0),
                    status.current_replicas.unwrap_or(0),
                    status.updated_replicas.unwrap_or(0),
                    status.available_replicas.unwrap_or(0),
                    status.current_revision.as_deref().unwrap_or(""),
                    status.update_revision.as_deref().unwrap_or(""),
                    status.collision_count.unwrap_or(0),
                    status.observed_generation.unwrap_or(0),
                );
                cx.decide(
                    Phase::Controllers,
                    NAME,
                    Some(&set_obj),
                    summary,
                    pass.observed.clone(),
                    pass.desired.clone(),
                    vec![action],
                    StepStatus::Ok,
                );
                latest.status = Some(status.clone());
                let _ = cx.update_status(SERVICE_ACCOUNT, Object::from(latest));
            }
        }

        // Trim the history: revisions no Pod and neither status revision uses, oldest first.
        let limit = set.spec.revision_history_limit.unwrap_or(10);
        if limit >= 0 {
            let live: Vec<&str> = pods
                .iter()
                .map(|p| pod_revision(p))
                .chain([current_rev_name.as_str(), update_rev_name.as_str()])
                .collect();
            let old: Vec<&Arc<ControllerRevision>> =
                revisions.iter().filter(|r| !live.contains(&r.metadata.name.as_deref().unwrap_or(""))).collect();
            let surplus = old.len().saturating_sub(limit as usize);
            for r in old.into_iter().take(surplus) {
                let rname = r.metadata.name.clone().unwrap_or_default();
                let _ = cx.delete(SERVICE_ACCOUNT, "ControllerRevision", ns.as_deref(), &rname, None);
            }
        }

        if pass.err.is_some() {
            return Err(());
        }
        // With minReadySeconds, look again when the next ready Pod becomes available.
        if min_ready > 0 {
            let next = pods
                .iter()
                .filter(|p| is_pod_ready(p) && !is_pod_available(p, min_ready, now))
                .filter_map(|p| pod_ready_ms(p))
                .map(|t| (t + i64::from(min_ready) * 1000 - now as i64).max(0) as u64 + 1000)
                .min();
            if let Some(after) = next {
                cx.enqueue(NAME, &key, after);
            }
        }
        Ok(())
    }

    /// `CreateControllerRevision`: a name taken by a revision with other data is a hash
    /// collision; the count grows and the name is drawn again.
    fn create_revision(
        &mut self,
        cx: &mut Cx,
        set: &StatefulSet,
        set_obj: &Object,
        mut candidate: ControllerRevision,
        collision_count: &mut i32,
    ) -> Option<Arc<ControllerRevision>> {
        let name = set_name(set).to_string();
        loop {
            let resp = cx.create(SERVICE_ACCOUNT, Object::from(candidate.clone()));
            if let Some(Object::ControllerRevision(r)) = resp.stored_object().filter(|_| resp.ok()) {
                return Some(Arc::clone(r));
            }
            if !resp.is_already_exists() {
                self.record_failure(cx, set_obj, &name, resp.message().to_string());
                return None;
            }
            let rname = candidate.metadata.name.clone().unwrap_or_default();
            if let Some(Object::ControllerRevision(existing)) =
                get(cx.core, "ControllerRevision", set.metadata.namespace.as_deref(), &rname)
            {
                if existing.data == candidate.data {
                    return Some(existing);
                }
            }
            *collision_count += 1;
            if *collision_count > 10 {
                self.record_failure(cx, set_obj, &name, resp.message().to_string());
                return None;
            }
            let owner = new_controller_ref(&set.metadata, "apps/v1", "StatefulSet");
            let annotations = candidate.metadata.annotations.take();
            candidate = history::new_controller_revision(
                &set.metadata,
                owner,
                set.spec.template.metadata.as_ref().and_then(|m| m.labels.as_ref()),
                candidate.data.0.clone(),
                candidate.revision.unwrap_or(1),
                Some(*collision_count),
            );
            candidate.metadata.annotations = annotations;
        }
    }

    fn record_failure(&mut self, cx: &mut Cx, set_obj: &Object, name: &str, err: String) {
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(set_obj),
            format!("statefulset-controller: StatefulSet {name} could not record its revision"),
            err.clone(),
            "a ControllerRevision holding the current Pod template".into(),
            vec![format!("retry the sync: {err}")],
            StepStatus::Warning,
        );
    }

    /// The replicas, then the condemned Pods, then the rolling update (`updateStatefulSet`).
    #[allow(clippy::too_many_arguments)]
    fn process(
        &mut self,
        cx: &mut Cx,
        set: &StatefulSet,
        set_obj: &Object,
        replicas_now: &mut [Arc<Pod>],
        condemned: &[Arc<Pod>],
        first_unavailable: Option<&str>,
        update_rev: &str,
        pass: &mut Pass,
    ) {
        let monotonic = !parallel(set);
        let min_ready = set.spec.min_ready_seconds.unwrap_or(0);
        let now = cx.core.now;
        let batches = if monotonic {
            vec![replicas_now.len() as i32]
        } else {
            super::replicaset::slow_start_batches(replicas_now.len() as i32)
        };
        let has_more_work = |set: &StatefulSet| {
            !condemned.is_empty()
                || (!on_delete(set) && replicas_now.iter().any(|p| is_created(p) && pod_revision(p) != update_rev))
        };
        let mut i = 0usize;
        for batch in batches {
            for _ in 0..batch {
                let pod = Arc::clone(&replicas_now[i]);
                let pod_name = pod.metadata.name.clone().unwrap_or_default();
                let r = self.process_replica(cx, set, set_obj, &pod, monotonic, pass);
                i += 1;
                if monotonic && r.stop {
                    if pass.err.is_none() && r.waits_for_ready {
                        pass.wait = match replicas_now.get(i) {
                            Some(next) => Some(format!(
                                "{} waits until {pod_name} is Running and Ready",
                                next.metadata.name.as_deref().unwrap_or("")
                            )),
                            None if has_more_work(set) => {
                                Some(format!("{pod_name} to be Running and Ready before any Pod is removed or updated"))
                            }
                            None => None,
                        };
                    } else if pass.err.is_none() {
                        pass.wait = r.wait;
                    }
                    return;
                }
            }
            if pass.err.is_some() {
                return;
            }
        }

        // Scale-down: the highest ordinal first.
        for pod in condemned {
            let pod_name = pod.metadata.name.clone().unwrap_or_default();
            if is_pod_terminating(pod) {
                if monotonic {
                    pass.wait = Some(format!("{pod_name} to finish terminating before the next Pod is removed"));
                    return;
                }
                continue;
            }
            if monotonic && first_unavailable.is_some_and(|f| f != pod_name) && !is_pod_available(pod, min_ready, now) {
                pass.wait = Some(format!(
                    "{} to be Running and Ready before {pod_name} is removed",
                    first_unavailable.unwrap_or("")
                ));
                return;
            }
            pass.step(
                cx,
                set_obj,
                format!("delete Pod {pod_name}: scale down to {} replica(s), the highest ordinal first", replicas(set)),
            );
            self.delete_pod(cx, set, set_obj, &pod_name, pass);
            if monotonic || pass.err.is_some() {
                return;
            }
        }

        // Rolling update (MaxUnavailableStatefulSet, on since v1.35).
        if on_delete(set) {
            return;
        }
        let rolling = set.spec.update_strategy.as_ref().and_then(|s| s.rolling_update.as_ref());
        let partition = rolling.and_then(|r| r.partition).unwrap_or(0);
        let count = replicas_now.len() as i32;
        let max_unavailable =
            rolling.and_then(|r| r.max_unavailable.as_ref()).map_or(1, |m| scaled_value(Some(m), count, false)).max(1);
        let unavailable = replicas_now.iter().filter(|p| is_unavailable(p, min_ready, now)).count() as i32;
        let stale: Vec<&Arc<Pod>> = replicas_now
            .iter()
            .rev()
            .filter(|p| ordinal(p) >= start_ordinal(set) + partition)
            .filter(|p| pod_revision(p) != update_rev && !is_pod_terminating(p))
            .collect();
        if stale.is_empty() {
            return;
        }
        if unavailable >= max_unavailable {
            pass.wait = Some(format!(
                "{unavailable} Pod(s) unavailable, maxUnavailable {max_unavailable}: the rolling update goes on when they are Ready"
            ));
            return;
        }
        for pod in stale.into_iter().take((max_unavailable - unavailable) as usize) {
            let pod_name = pod.metadata.name.clone().unwrap_or_default();
            pass.step(cx, set_obj, format!(
                "delete Pod {pod_name}: it runs revision {}, the update revision is {update_rev} (rolling update, highest ordinal first)",
                pod_revision(pod)
            ));
            self.delete_pod(cx, set, set_obj, &pod_name, pass);
            if pass.err.is_some() {
                return;
            }
        }
    }

    fn delete_pod(&mut self, cx: &mut Cx, set: &StatefulSet, set_obj: &Object, pod_name: &str, pass: &mut Pass) {
        let resp = cx.delete(SERVICE_ACCOUNT, "Pod", set.metadata.namespace.as_deref(), pod_name, None);
        let name = set_name(set);
        if resp.ok() {
            record_pod_event(cx, set_obj, "delete", pod_name, name, None);
        } else if !resp.is_not_found() {
            let msg = resp.message().to_string();
            record_pod_event(cx, set_obj, "delete", pod_name, name, Some(&msg));
            pass.err.get_or_insert(msg);
        }
    }

    /// `processReplica`: what one ordinal needs. Returns whether an OrderedReady walk stops.
    fn process_replica(
        &mut self,
        cx: &mut Cx,
        set: &StatefulSet,
        set_obj: &Object,
        pod: &Arc<Pod>,
        monotonic: bool,
        pass: &mut Pass,
    ) -> Replica {
        let pod_name = pod.metadata.name.clone().unwrap_or_default();
        let name = set_name(set).to_string();
        let min_ready = set.spec.min_ready_seconds.unwrap_or(0);
        let now = cx.core.now;
        let ph = phase(pod);
        if ph == "Failed" || ph == "Succeeded" {
            if pod.metadata.deletion_timestamp.is_none() {
                pass.step(
                    cx,
                    set_obj,
                    format!("delete Pod {pod_name}: it is {ph}, and a new one replaces it on the next sync"),
                );
                self.delete_pod(cx, set, set_obj, &pod_name, pass);
            }
            return Replica {
                stop: true,
                waits_for_ready: false,
                wait: Some(format!("{pod_name} to be gone before it is made again")),
            };
        }
        if !is_created(pod) {
            let ord = ordinal(pod);
            if let Err(e) = self.create_claims(cx, set, set_obj, pod, ord, pass) {
                record_pod_event(cx, set_obj, "create", &pod_name, &name, Some(&e));
                pass.err.get_or_insert(e);
                return Replica { stop: true, waits_for_ready: false, wait: None };
            }
            let subdomain = set.spec.service_name.as_deref().filter(|s| !s.is_empty());
            let dns = match subdomain {
                Some(svc) => format!(
                    "hostname {pod_name}, subdomain {svc}: {pod_name}.{svc}.{}.svc.{CLUSTER_DOMAIN} once the headless Service {svc} selects it",
                    set.metadata.namespace.as_deref().unwrap_or("default")
                ),
                None => format!("hostname {pod_name}; no serviceName, so no per-Pod DNS name"),
            };
            pass.step(cx, set_obj, format!("create Pod {pod_name} ({dns}; revision {})", pod_revision(pod)));
            let resp = cx.create(SERVICE_ACCOUNT, Object::from(Pod::clone(pod)));
            if resp.ok() || resp.is_already_exists() {
                if resp.ok() {
                    self.claims_retention(cx, set, set_obj, pod, pass);
                    record_pod_event(cx, set_obj, "create", &pod_name, &name, None);
                }
            } else {
                let msg = resp.message().to_string();
                record_pod_event(cx, set_obj, "create", &pod_name, &name, Some(&msg));
                pass.err.get_or_insert(msg);
                return Replica { stop: true, waits_for_ready: false, wait: None };
            }
            return Replica { stop: monotonic, waits_for_ready: true, wait: None };
        }
        if ph == "Pending" {
            let ord = ordinal(pod);
            if let Err(e) = self.create_claims(cx, set, set_obj, pod, ord, pass) {
                pass.err.get_or_insert(e);
                return Replica { stop: true, waits_for_ready: false, wait: None };
            }
        }
        if is_pod_terminating(pod) && monotonic {
            return Replica {
                stop: true,
                waits_for_ready: false,
                wait: Some(format!("{pod_name} to finish terminating")),
            };
        }
        if !is_running_and_ready(pod) && monotonic {
            return Replica { stop: true, waits_for_ready: true, wait: None };
        }
        if !is_pod_available(pod, min_ready, now) && monotonic {
            return Replica {
                stop: true,
                waits_for_ready: false,
                wait: Some(format!("{pod_name} to be available ({min_ready} s after Ready: minReadySeconds)")),
            };
        }
        if !(identity_matches(set, pod) && storage_matches(set, pod)) {
            let mut p = Pod::clone(pod);
            let labels = p.metadata.labels.get_or_insert_with(Default::default);
            labels.insert(POD_NAME_LABEL.into(), pod_name.clone());
            labels.insert(POD_INDEX_LABEL.into(), ordinal(pod).to_string());
            pass.step(cx, set_obj, format!("update Pod {pod_name}: restore its identity labels"));
            let resp = cx.update(SERVICE_ACCOUNT, Object::from(p));
            if resp.ok() {
                record_pod_event(cx, set_obj, "update", &pod_name, &name, None);
            } else {
                let msg = resp.message().to_string();
                record_pod_event(cx, set_obj, "update", &pod_name, &name, Some(&msg));
                pass.err.get_or_insert(msg);
                return Replica { stop: true, waits_for_ready: false, wait: None };
            }
        }
        Replica { stop: false, waits_for_ready: false, wait: None }
    }

    /// `createPersistentVolumeClaims`: each missing claim of the Pod, before the Pod.
    fn create_claims(
        &mut self,
        cx: &mut Cx,
        set: &StatefulSet,
        set_obj: &Object,
        pod: &Pod,
        ord: i32,
        pass: &mut Pass,
    ) -> Result<(), String> {
        let pod_name = pod.metadata.name.clone().unwrap_or_default();
        let name = set_name(set).to_string();
        let mut errs = Vec::new();
        for (_, claim) in claims_for(set, ord) {
            let cname = claim.metadata.name.clone().unwrap_or_default();
            if get_shared(cx.core, "PersistentVolumeClaim", set.metadata.namespace.as_deref(), &cname).is_some() {
                continue;
            }
            pass.step(
                cx,
                set_obj,
                format!("create PersistentVolumeClaim {cname} for Pod {pod_name} (from volumeClaimTemplate)"),
            );
            let resp = cx.create(SERVICE_ACCOUNT, Object::from(claim));
            if resp.ok() {
                cx.event(
                    SOURCE,
                    set_obj,
                    "Normal",
                    "SuccessfulCreate",
                    &format!("create Claim {cname} Pod {pod_name} in StatefulSet {name} success"),
                );
            } else {
                let msg = resp.message().to_string();
                errs.push(format!("failed to create PVC {cname}: {msg}"));
                if !resp.is_already_exists() {
                    cx.event(
                        SOURCE,
                        set_obj,
                        "Warning",
                        "FailedCreate",
                        &format!("create Claim {cname} for Pod {pod_name} in StatefulSet {name} failed error: {msg}"),
                    );
                }
            }
        }
        if errs.is_empty() {
            Ok(())
        } else {
            Err(errs.join(", "))
        }
    }

    /// `UpdatePodClaimForRetentionPolicy`: owner references on the claims as the retention
    /// policy asks (none for the default Retain/Retain).
    fn claims_retention(&mut self, cx: &mut Cx, set: &StatefulSet, set_obj: &Object, pod: &Pod, pass: &mut Pass) {
        let policy = set.spec.persistent_volume_claim_retention_policy.as_ref();
        let when_deleted = policy.and_then(|p| p.when_deleted.as_deref()).unwrap_or("Retain");
        let when_scaled = policy.and_then(|p| p.when_scaled.as_deref()).unwrap_or("Retain");
        if when_deleted != "Delete" && when_scaled != "Delete" {
            return;
        }
        let scaled_down = !in_range(set, ordinal(pod));
        let mut wanted: Vec<OwnerReference> = Vec::new();
        if when_deleted == "Delete" && !(when_scaled == "Delete" && scaled_down) {
            wanted.push(new_controller_ref(&set.metadata, "apps/v1", "StatefulSet"));
        }
        if when_scaled == "Delete" && scaled_down {
            if let Some(Object::Pod(live)) =
                get(cx.core, "Pod", pod.metadata.namespace.as_deref(), pod.metadata.name.as_deref().unwrap_or(""))
            {
                wanted.push(new_controller_ref(&live.metadata, "v1", "Pod"));
            }
        }
        for (_, claim) in claims_for(set, ordinal(pod)) {
            let cname = claim.metadata.name.clone().unwrap_or_default();
            let Some(Object::PersistentVolumeClaim(live)) =
                get(cx.core, "PersistentVolumeClaim", set.metadata.namespace.as_deref(), &cname)
            else {
                continue;
            };
            // `updateClaimOwnerRefForSetAndPod`: scrub the references to this set and Pod,
            // then add what the policy asks.
            let pod_name = pod.metadata.name.as_deref().unwrap_or("");
            let ours = |r: &OwnerReference| {
                (r.kind == "StatefulSet" && r.name == set_name(set)) || (r.kind == "Pod" && r.name == pod_name)
            };
            let mut refs: Vec<OwnerReference> =
                live.metadata.owner_references.clone().unwrap_or_default().into_iter().filter(|r| !ours(r)).collect();
            refs.extend(wanted.iter().cloned());
            if live.metadata.owner_references.as_deref().unwrap_or(&[]) == refs.as_slice() {
                continue;
            }
            let mut c = Arc::unwrap_or_clone(live);
            c.metadata.owner_references = Some(refs);
            pass.step(cx, set_obj, format!(
                "set the owner of PersistentVolumeClaim {cname} (persistentVolumeClaimRetentionPolicy whenDeleted {when_deleted}, whenScaled {when_scaled})"
            ));
            let _ = cx.update(SERVICE_ACCOUNT, Object::from(c));
        }
    }
}

/// `recordPodEvent`: `Successful<Verb>` / `Failed<Verb>` on the set, in upstream's words.
fn record_pod_event(cx: &mut Cx, set_obj: &Object, verb: &str, pod: &str, set: &str, err: Option<&str>) {
    let title = |v: &str| v[..1].to_uppercase() + &v[1..];
    match err {
        None => cx.event(
            SOURCE,
            set_obj,
            "Normal",
            &format!("Successful{}", title(verb)),
            &format!("{verb} Pod {pod} in StatefulSet {set} successful"),
        ),
        Some(e) => cx.event(
            SOURCE,
            set_obj,
            "Warning",
            &format!("Failed{}", title(verb)),
            &format!("{verb} Pod {pod} in StatefulSet {set} failed error: {e}"),
        ),
    }
}

/// What [`StatefulSetController::process_replica`] decided for one ordinal.
struct Replica {
    /// An OrderedReady walk stops at this ordinal.
    stop: bool,
    /// It stops because this Pod was just created or is not yet Running and Ready.
    waits_for_ready: bool,
    /// Otherwise, what it waits for.
    wait: Option<String>,
}

/// `updateStatus` over the replicas and the condemned Pods.
fn compute_status(
    set: &StatefulSet,
    replicas_now: &[Arc<Pod>],
    condemned: &[Arc<Pod>],
    current_rev: &str,
    update_rev: &str,
    collision_count: i32,
    now: u64,
) -> StatefulSetStatus {
    let min_ready = set.spec.min_ready_seconds.unwrap_or(0);
    let (mut n, mut ready, mut available, mut current, mut updated) = (0, 0, 0, 0, 0);
    for p in replicas_now.iter().chain(condemned) {
        if is_created(p) {
            n += 1;
        }
        if is_running_and_ready(p) {
            ready += 1;
            if is_pod_available(p, min_ready, now) {
                available += 1;
            }
        }
        if is_created(p) && !is_pod_terminating(p) {
            if pod_revision(p) == current_rev {
                current += 1;
            }
            if pod_revision(p) == update_rev {
                updated += 1;
            }
        }
    }
    StatefulSetStatus {
        observed_generation: set.metadata.generation,
        replicas: n,
        ready_replicas: Some(ready),
        available_replicas: Some(available),
        current_replicas: Some(current),
        updated_replicas: Some(updated),
        current_revision: Some(current_rev.to_string()),
        update_revision: Some(update_rev.to_string()),
        collision_count: Some(collision_count),
        conditions: set.status.as_ref().and_then(|s| s.conditions.clone()),
    }
}

/// `completeRollingUpdate`: once every replica runs the update revision and is ready, the
/// update revision becomes the current one.
fn complete_rolling_update(set: &StatefulSet, mut status: StatefulSetStatus) -> StatefulSetStatus {
    let want = replicas(set);
    if !on_delete(set)
        && status.updated_replicas == Some(want)
        && status.ready_replicas == Some(want)
        && status.replicas == want
    {
        status.current_replicas = status.updated_replicas;
        status.current_revision = status.update_revision.clone();
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_come_from_the_name() {
        assert_eq!(parent_and_ordinal("db-0"), Some(("db", 0)));
        assert_eq!(parent_and_ordinal("my-db-12"), Some(("my-db", 12)));
        assert_eq!(parent_and_ordinal("db-x"), None);
        assert_eq!(parent_and_ordinal("db"), None);
        assert_eq!(parent_and_ordinal("db-"), None);
    }
}
