//! kube-scheduler as an actor of the simulation: it watches for pods without a node,
//! runs one scheduling cycle per pod on a snapshot of the cluster, and writes the result
//! through the API server as `system:kube-scheduler` — the Binding for a placed pod, or the
//! `PodScheduled=False` condition and a `FailedScheduling` event for a pod that fits nowhere
//! (retried with back-off when the cluster changes).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use k8s_openapi::api::core::v1::{Event, EventSource, ObjectReference, Pod};

use super::VolumeAction;
use super::{queue, ClusterSnapshot, ScheduleResult, Scheduler};
use crate::apiserver::{self, ApiRequest, Body, Caller, Verb};
use crate::object::{resource_for, Object};
use crate::sim::{object_ref, Actor, StepBuilder, Target, Task};
use crate::store::{EventType, WatchEvent};
use crate::trace::{Component, Detail, EventDetail, Phase, StepStatus, WatchDetail};
use crate::world::World;

/// How long a watch event takes to reach the scheduler's queue.
const WATCH_LATENCY_MS: u64 = 2;

pub struct SchedulerActor {
    scheduler: Scheduler,
    /// Scheduling attempts per pod key, for the back-off of unschedulable pods.
    attempts: BTreeMap<String, u32>,
    /// Pods that did not fit the last time they were tried.
    unschedulable: BTreeSet<String>,
    /// Orders event names written within the same millisecond.
    event_seq: u64,
    /// Pods placed on a node whose claims VolumeBinding's PreBind waits for, by pod key.
    waiting_volumes: BTreeMap<String, PreBind>,
}

/// A pod held in VolumeBinding's PreBind: bound to its node once every claim is bound.
struct PreBind {
    node: String,
    binding: serde_json::Value,
    event: Option<EventDetail>,
    claims: Vec<(String, String)>,
}

/// The prefix of the task keys that finish a PreBind (the rest is the pod key).
const PREBIND_TASK: &str = "prebind/";
/// The prefix of the task keys that end a PreBind that waited too long.
const PREBIND_TIMEOUT_TASK: &str = "prebind-timeout/";
/// How long PreBind waits for the claims (`--bind-timeout-seconds` of VolumeBinding: 600 s).
pub const BIND_TIMEOUT_MS: u64 = 600_000;

impl Default for SchedulerActor {
    fn default() -> Self {
        SchedulerActor::new(Scheduler::default_scheduler())
    }
}

/// The etcd prefixes of the resources the scheduler's informers watch
/// ([`ClusterSnapshot::WATCHED`]), sorted, so that reading them one after the other gives the
/// objects in the store's key order.
fn watched_prefixes() -> &'static [String] {
    static PREFIXES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    PREFIXES.get_or_init(|| {
        let mut prefixes: Vec<String> = ClusterSnapshot::WATCHED
            .iter()
            .filter_map(|(api_version, kind)| resource_for(api_version, kind))
            .map(|r| r.list_prefix(None))
            .collect();
        prefixes.sort();
        prefixes
    })
}

fn pod_key(pod: &Pod) -> String {
    format!("{}/{}", pod.metadata.namespace.as_deref().unwrap_or("default"), pod.metadata.name.as_deref().unwrap_or(""))
}

fn is_finished(pod: &Pod) -> bool {
    matches!(pod.status.as_ref().and_then(|s| s.phase.as_deref()), Some("Succeeded" | "Failed"))
}

fn needs_scheduling(pod: &Pod) -> bool {
    let unbound = pod.spec.as_ref().is_some_and(|s| s.node_name.as_deref().unwrap_or("").is_empty());
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("Pending");
    unbound && pod.metadata.deletion_timestamp.is_none() && phase != "Succeeded" && phase != "Failed"
}

impl SchedulerActor {
    /// The scheduler starts: its informer lists the Pods, and every Pod of the starting
    /// cluster that has no node yet is queued as if it had just been created (a Pod written
    /// in the cluster file without `spec.nodeName` is scheduled like any other).
    pub fn start(&mut self, world: &mut World) {
        let pending: Vec<_> = world
            .store
            .relist("/registry/pods/")
            .into_iter()
            .filter(|ev| matches!(&*ev.object, Object::Pod(p) if needs_scheduling(p)))
            .collect();
        for ev in &pending {
            self.observe(world, ev);
        }
    }

    pub fn new(scheduler: Scheduler) -> Self {
        SchedulerActor {
            scheduler,
            attempts: BTreeMap::new(),
            unschedulable: BTreeSet::new(),
            event_seq: 0,
            waiting_volumes: BTreeMap::new(),
        }
    }

    /// The cluster changed in a way that may free room: retry the pods that did not fit,
    /// each after its back-off.
    fn retry_unschedulable(&mut self, core: &mut World) {
        for key in std::mem::take(&mut self.unschedulable) {
            if !core.is_queued(&Target::Scheduler, &key) {
                let attempts = self.attempts.get(&key).copied().unwrap_or(1);
                core.after(queue::backoff_ms(attempts), Task::new(Target::Scheduler, key));
            }
        }
    }

    fn write(core: &mut World, verb: Verb, kind: &str, ns: &str, name: &str, sub: Option<&str>, body: Body) -> bool {
        let Some(resource) = resource_for("v1", kind) else { return false };
        apiserver::handle(
            core,
            ApiRequest {
                caller: Caller::scheduler(),
                verb,
                resource,
                namespace: Some(ns.to_string()),
                name: Some(name.to_string()),
                subresource: sub.map(str::to_string),
                body: Some(body),
                verbose: false,
                file: None,
            },
        )
        .ok()
    }

    /// Records an event about `pod`, as the scheduler's event recorder writes it.
    fn event(&mut self, core: &mut World, pod: &Arc<Pod>, detail: EventDetail, action: &str) {
        let pod_ref = object_ref(&Object::Pod(pod.clone()));
        let ns = pod.metadata.namespace.clone().unwrap_or_else(|| "default".into());
        let pod_name = pod.metadata.name.clone().unwrap_or_default();
        self.event_seq += 1;
        let nanos = (apiserver::EPOCH_UNIX_MS as u64 + core.now) * 1_000_000 + self.event_seq;
        let now = apiserver::timestamp(core.now);
        let event = Event {
            metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
                name: Some(format!("{pod_name}.{nanos:x}")),
                namespace: Some(ns.clone()),
                ..Default::default()
            },
            involved_object: ObjectReference {
                api_version: Some("v1".into()),
                kind: Some("Pod".into()),
                name: Some(pod_name.clone()),
                namespace: Some(ns.clone()),
                uid: pod.metadata.uid.clone(),
                resource_version: pod.metadata.resource_version.clone(),
                ..Default::default()
            },
            reason: Some(detail.reason.clone()),
            message: Some(detail.message.clone()),
            type_: Some(detail.event_type.clone()),
            source: Some(EventSource { component: Some(detail.from.clone()), host: None }),
            reporting_component: Some(detail.from.clone()),
            action: Some(action.to_string()),
            first_timestamp: Some(now.clone()),
            last_timestamp: Some(now),
            count: Some(1),
            ..Default::default()
        };
        let name = event.metadata.name.clone().unwrap_or_default();
        let status = if detail.event_type == "Warning" { StepStatus::Warning } else { StepStatus::Ok };
        let body = Body::Object(Object::from(event));
        Self::write(core, Verb::Create, "Event", &ns, &name, None, body);
        core.record(
            StepBuilder::new(
                Phase::Scheduling,
                Component::Scheduler,
                Component::ApiServer,
                format!("event {} {}: {}", detail.event_type, detail.reason, detail.message),
                Detail::Event(detail),
            )
            .object(Some(pod_ref))
            .status(status),
        );
    }

    /// VolumeBinding's PreBind (`BindPodVolumes`): writes what the scheduler decided for the
    /// pod's claims — the chosen node into each claim to provision
    /// (`volume.kubernetes.io/selected-node`), the claim into each volume to bind — and holds
    /// the pod until the PersistentVolume controller has bound every claim. Only then is the
    /// Binding posted.
    #[allow(clippy::too_many_arguments)]
    fn pre_bind(
        &mut self,
        core: &mut World,
        pod: &Arc<Pod>,
        key: &str,
        node: &str,
        binding: serde_json::Value,
        event: Option<EventDetail>,
        actions: &[VolumeAction],
    ) {
        let mut claims = Vec::new();
        let mut said = Vec::new();
        for action in actions {
            match action {
                VolumeAction::Provision { namespace, claim, node } => {
                    claims.push((namespace.clone(), claim.clone()));
                    said.push(format!(
                        "claim {claim}: annotate volume.kubernetes.io/selected-node={node}, so its provisioner creates the volume there"
                    ));
                    if let Some((Object::PersistentVolumeClaim(c), _)) =
                        core.store.get(&format!("/registry/persistentvolumeclaims/{namespace}/{claim}"))
                    {
                        let mut c = (**c).clone();
                        c.metadata
                            .annotations
                            .get_or_insert_with(Default::default)
                            .insert(super::plugins::volume_binding::ANN_SELECTED_NODE.into(), node.clone());
                        Self::write(
                            core,
                            Verb::Update,
                            "PersistentVolumeClaim",
                            namespace,
                            claim,
                            None,
                            Body::Object(Object::from(c)),
                        );
                    }
                }
                VolumeAction::Bind { namespace, claim, volume } => {
                    claims.push((namespace.clone(), claim.clone()));
                    said.push(format!("volume {volume}: reserve it for claim {namespace}/{claim} (spec.claimRef)"));
                    let claim_uid =
                        match core.store.get(&format!("/registry/persistentvolumeclaims/{namespace}/{claim}")) {
                            Some((Object::PersistentVolumeClaim(c), _)) => c.metadata.uid.clone(),
                            _ => None,
                        };
                    if let Some((Object::PersistentVolume(v), _)) =
                        core.store.get(&format!("/registry/persistentvolumes/{volume}"))
                    {
                        let mut v = (**v).clone();
                        v.spec.get_or_insert_with(Default::default).claim_ref =
                            Some(k8s_openapi::api::core::v1::ObjectReference {
                                api_version: Some("v1".into()),
                                kind: Some("PersistentVolumeClaim".into()),
                                name: Some(claim.clone()),
                                namespace: Some(namespace.clone()),
                                uid: claim_uid,
                                ..Default::default()
                            });
                        v.metadata
                            .annotations
                            .get_or_insert_with(Default::default)
                            .insert("pv.kubernetes.io/bound-by-controller".into(), "yes".into());
                        Self::write_cluster(
                            core,
                            Verb::Update,
                            "PersistentVolume",
                            volume,
                            Body::Object(Object::from(v)),
                        );
                    }
                }
            }
        }
        core.record(
            StepBuilder::new(
                Phase::Scheduling,
                Component::Scheduler,
                Component::ApiServer,
                format!("kube-scheduler (VolumeBinding PreBind) holds pod {key} on {node} until its claims are bound"),
                Detail::Note {
                    text: format!(
                        "The pod fits {node}, but its PersistentVolumeClaims are not bound yet. Before the Binding is posted, VolumeBinding's PreBind writes what it decided — {} — and then waits (up to 10 minutes) for the PersistentVolume controller to bind every claim. Only then is the pod bound to {node}.",
                        said.join("; ")
                    ),
                },
            )
            .object(Some(object_ref(&Object::Pod(pod.clone())))),
        );
        self.waiting_volumes.insert(key.to_string(), PreBind { node: node.to_string(), binding, event, claims });
        // The claims may be bound already; if they are not within the bind timeout, the
        // scheduling attempt fails (periodic: it does not keep a quiet cluster running).
        core.after(WATCH_LATENCY_MS, Task::new(Target::Scheduler, format!("{PREBIND_TASK}{key}")));
        core.after(BIND_TIMEOUT_MS, Task::periodic(Target::Scheduler, format!("{PREBIND_TIMEOUT_TASK}{key}")));
    }

    /// Posts the Binding of a pod held in PreBind once every one of its claims is bound.
    fn finish_pre_bind(&mut self, core: &mut World, key: &str) {
        let Some(waiting) = self.waiting_volumes.get(key) else { return };
        let bound =
            |ns: &str, name: &str| match core.store.get(&format!("/registry/persistentvolumeclaims/{ns}/{name}")) {
                Some((Object::PersistentVolumeClaim(c), _)) => {
                    c.spec.as_ref().and_then(|s| s.volume_name.as_deref()).is_some_and(|v| !v.is_empty())
                        && c.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Bound")
                }
                _ => false,
            };
        if !waiting.claims.iter().all(|(ns, name)| bound(ns, name)) {
            return;
        }
        let Some(waiting) = self.waiting_volumes.remove(key) else { return };
        let Some((ns, name)) = key.split_once('/') else { return };
        let pod = match core.store.get(&format!("/registry/pods/{ns}/{name}")) {
            Some((Object::Pod(p), _)) => p.clone(),
            _ => return,
        };
        core.record(
            StepBuilder::new(
                Phase::Scheduling,
                Component::Scheduler,
                Component::Scheduler,
                format!("kube-scheduler: the claims of pod {key} are bound; binding it to {}", waiting.node),
                Detail::Note {
                    text: format!(
                        "Every PersistentVolumeClaim of the pod is Bound ({}), so PreBind ends and the Binding to {} is posted.",
                        waiting.claims.iter().map(|(_, c)| c.as_str()).collect::<Vec<_>>().join(", "),
                        waiting.node
                    ),
                },
            )
            .object(Some(object_ref(&Object::Pod(pod.clone())))),
        );
        if Self::write(core, Verb::Create, "Pod", ns, name, Some("binding"), Body::Json(waiting.binding)) {
            self.attempts.remove(key);
            self.unschedulable.remove(key);
            if let Some(event) = waiting.event {
                self.event(core, &pod, event, "Binding");
            }
        } else {
            requeue(self, core, key);
        }
    }

    /// The claims of a pod held in PreBind were not bound within the bind timeout: the
    /// attempt fails (`FailedScheduling`) and the pod goes back to the queue.
    fn pre_bind_timed_out(&mut self, core: &mut World, key: &str) {
        if self.waiting_volumes.remove(key).is_none() {
            return;
        }
        let Some((ns, name)) = key.split_once('/') else { return };
        let pod = match core.store.get(&format!("/registry/pods/{ns}/{name}")) {
            Some((Object::Pod(p), _)) => p.clone(),
            _ => return,
        };
        let detail = EventDetail {
            event_type: "Warning".into(),
            reason: "FailedScheduling".into(),
            from: "default-scheduler".into(),
            message: "running PreBind plugin \"VolumeBinding\": binding volumes: context deadline exceeded".into(),
        };
        self.event(core, &pod, detail, "Scheduling");
        requeue(self, core, key);
    }

    /// A write of a cluster-scoped object (a PersistentVolume) as the scheduler.
    fn write_cluster(core: &mut World, verb: Verb, kind: &str, name: &str, body: Body) -> bool {
        let Some(resource) = resource_for("v1", kind) else { return false };
        apiserver::handle(
            core,
            ApiRequest {
                caller: Caller::scheduler(),
                verb,
                resource,
                namespace: None,
                name: Some(name.to_string()),
                subresource: None,
                body: Some(body),
                verbose: false,
                file: None,
            },
        )
        .ok()
    }

    fn schedule(&mut self, core: &mut World, key: &str) {
        let Some((ns, name)) = key.split_once('/') else { return };
        let pod = match core.store.get(&format!("/registry/pods/{ns}/{name}")) {
            Some((Object::Pod(p), _)) => p.clone(),
            _ => return,
        };
        if !needs_scheduling(&pod) || !self.scheduler.responsible_for(&pod) {
            return;
        }
        let mut objects: Vec<&Object> = Vec::new();
        for prefix in watched_prefixes() {
            objects.extend(core.store.live(prefix).map(|(_, o)| o));
        }
        let snapshot = ClusterSnapshot::from_objects(objects.iter().copied());
        let mut outcome = self.scheduler.schedule_shared(Arc::clone(&pod), &snapshot, &mut core.rng);
        *self.attempts.entry(key.to_string()).or_insert(0) += 1;
        let event = outcome.event(ns, name);
        let profile = outcome.detail.profile.clone();
        let (summary, status) = match &outcome.result {
            ScheduleResult::Scheduled { node, .. } => {
                (format!("kube-scheduler picks {node} for pod {key}"), StepStatus::Ok)
            }
            ScheduleResult::Unschedulable { message, .. } | ScheduleResult::Error { message } => {
                (format!("no node fits pod {key}: {message}"), StepStatus::Failed)
            }
            ScheduleResult::Gated { gates, .. } => {
                (format!("pod {key} waits for its scheduling gates: {}", gates.join(", ")), StepStatus::Warning)
            }
        };
        core.record(
            StepBuilder::new(
                Phase::Scheduling,
                Component::Scheduler,
                Component::Scheduler,
                summary,
                Detail::Schedule(Box::new(std::mem::take(&mut outcome.detail))),
            )
            .object(Some(object_ref(&Object::Pod(pod.clone()))))
            .status(status),
        );
        match &outcome.result {
            ScheduleResult::Scheduled { binding, volume_actions, node } => {
                let mut body = serde_json::to_value(&**binding).unwrap_or_default();
                if let serde_json::Value::Object(m) = &mut body {
                    m.insert("apiVersion".into(), "v1".into());
                    m.insert("kind".into(), "Binding".into());
                }
                if !volume_actions.is_empty() {
                    self.pre_bind(core, &pod, key, node, body, event, volume_actions);
                    return;
                }
                if Self::write(core, Verb::Create, "Pod", ns, name, Some("binding"), Body::Json(body)) {
                    self.attempts.remove(key);
                    self.unschedulable.remove(key);
                    if let Some(event) = event {
                        self.event(core, &pod, event, "Binding");
                    }
                } else {
                    requeue(self, core, key);
                }
            }
            ScheduleResult::Unschedulable { victims, nominated_node, .. } => {
                let mut updated = (*pod).clone();
                let status = updated.status.get_or_insert_with(Default::default);
                if let Some(mut cond) = outcome.k8s_pod_condition() {
                    cond.last_transition_time = Some(apiserver::timestamp(core.now));
                    let conds = status.conditions.get_or_insert_with(Vec::new);
                    conds.retain(|c| c.type_ != "PodScheduled");
                    conds.push(cond);
                }
                if let Some(n) = nominated_node {
                    status.nominated_node_name = if n.is_empty() { None } else { Some(n.clone()) };
                }
                let body = Body::Object(Object::from(updated));
                Self::write(core, Verb::Update, "Pod", ns, name, Some("status"), body);
                for victim in victims.clone() {
                    let (vns, vname) = (victim.namespace.clone(), victim.name.clone());
                    if let Some((Object::Pod(vp), _)) = core.store.get(&format!("/registry/pods/{vns}/{vname}")) {
                        let vp = vp.clone();
                        let node = nominated_node.clone().unwrap_or_default();
                        let ev = super::preempted_event(&profile, pod.metadata.uid.as_deref().unwrap_or(""), &node);
                        self.event(core, &vp, ev, "Preempting");
                        Self::write(core, Verb::Delete, "Pod", &vns, &vname, None, Body::Json(serde_json::Value::Null));
                    }
                }
                if let Some(event) = event {
                    self.event(core, &pod, event, "Scheduling");
                }
                self.unschedulable.insert(key.to_string());
            }
            ScheduleResult::Error { .. } => requeue(self, core, key),
            ScheduleResult::Gated { .. } => {
                self.unschedulable.insert(key.to_string());
            }
        }
    }
}

/// Requeues a pod whose cycle failed for a reason other than fit (a failed write).
fn requeue(actor: &mut SchedulerActor, core: &mut World, key: &str) {
    let attempts = actor.attempts.get(key).copied().unwrap_or(1);
    core.after(queue::backoff_ms(attempts), Task::new(Target::Scheduler, key.to_string()));
}

/// `nodeSchedulingPropertiesChange`: whether a Node update can make an unschedulable pod
/// fit (cordoning, allocatable, labels, taints, conditions' type and status, annotations). A
/// kubelet's heartbeat (new `lastHeartbeatTime`s) changes none of them.
fn node_scheduling_properties_changed(
    old: &k8s_openapi::api::core::v1::Node,
    new: &k8s_openapi::api::core::v1::Node,
) -> bool {
    let unschedulable =
        |n: &k8s_openapi::api::core::v1::Node| n.spec.as_ref().and_then(|s| s.unschedulable).unwrap_or(false);
    let taints =
        |n: &k8s_openapi::api::core::v1::Node| n.spec.as_ref().and_then(|s| s.taints.clone()).unwrap_or_default();
    let allocatable = |n: &k8s_openapi::api::core::v1::Node| n.status.as_ref().and_then(|s| s.allocatable.clone());
    let conditions = |n: &k8s_openapi::api::core::v1::Node| -> Vec<(String, String)> {
        n.status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .map(|c| c.iter().map(|c| (c.type_.clone(), c.status.clone())).collect())
            .unwrap_or_default()
    };
    unschedulable(old) != unschedulable(new)
        || allocatable(old) != allocatable(new)
        || old.metadata.labels != new.metadata.labels
        || taints(old) != taints(new)
        || conditions(old) != conditions(new)
        || old.metadata.annotations != new.metadata.annotations
}

impl Actor<World> for SchedulerActor {
    fn handles(&self, target: &Target) -> bool {
        *target == Target::Scheduler
    }

    fn observe(&mut self, core: &mut World, event: &WatchEvent<Object>) {
        match &*event.object {
            Object::Pod(pod) => {
                let key = pod_key(pod);
                if event.kind == EventType::Deleted {
                    // A pod left the cluster: room may have been freed.
                    self.unschedulable.remove(&key);
                    if !self.unschedulable.is_empty() {
                        self.retry_unschedulable(core);
                    }
                    return;
                }
                if !needs_scheduling(pod) {
                    // Bound or finished; a pod that just finished frees its node's room.
                    self.unschedulable.remove(&key);
                    let was_running = event.prev.as_deref().and_then(Object::as_pod).is_some_and(|p| !is_finished(p));
                    if is_finished(pod) && was_running && !self.unschedulable.is_empty() {
                        self.retry_unschedulable(core);
                    }
                    return;
                }
                if event.kind != EventType::Added || !self.scheduler.responsible_for(pod) {
                    return;
                }
                if core.is_queued(&Target::Scheduler, &key) {
                    return;
                }
                core.record(
                    StepBuilder::new(
                        Phase::Scheduling,
                        Component::ApiServer,
                        Component::Scheduler,
                        format!("kube-scheduler sees new pod {key} with no node"),
                        Detail::Watch(WatchDetail {
                            watcher: "kube-scheduler".into(),
                            event: event.kind.as_str().into(),
                            key: event.key.clone(),
                            revision: event.revision,
                            reason: "the pod has no spec.nodeName and asks for the default-scheduler".into(),
                        }),
                    )
                    .object(Some(object_ref(&event.object))),
                );
                core.after(WATCH_LATENCY_MS, Task::new(Target::Scheduler, key));
            }
            Object::PersistentVolumeClaim(claim) if !self.waiting_volumes.is_empty() => {
                let ns = claim.metadata.namespace.clone().unwrap_or_else(|| "default".into());
                let name = claim.metadata.name.clone().unwrap_or_default();
                let keys: Vec<String> = self
                    .waiting_volumes
                    .iter()
                    .filter(|(_, w)| w.claims.iter().any(|(n, c)| *n == ns && *c == name))
                    .map(|(k, _)| k.clone())
                    .collect();
                for key in keys {
                    let task_key = format!("{PREBIND_TASK}{key}");
                    if !core.is_queued(&Target::Scheduler, &task_key) {
                        core.after(WATCH_LATENCY_MS, Task::new(Target::Scheduler, task_key));
                    }
                }
            }
            Object::Node(node) if !self.unschedulable.is_empty() => {
                let changed = match (&event.kind, event.prev.as_deref()) {
                    (EventType::Modified, Some(Object::Node(prev))) => node_scheduling_properties_changed(prev, node),
                    _ => true,
                };
                if changed {
                    self.retry_unschedulable(core);
                }
            }
            _ => {}
        }
    }

    fn run(&mut self, core: &mut World, task: &Task) {
        if let Some(key) = task.key.strip_prefix(PREBIND_TIMEOUT_TASK) {
            self.pre_bind_timed_out(core, key);
        } else if let Some(key) = task.key.strip_prefix(PREBIND_TASK) {
            self.finish_pre_bind(core, key);
        } else {
            self.schedule(core, &task.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_watched_kind_has_an_etcd_prefix() {
        let prefixes = watched_prefixes();
        assert_eq!(prefixes.len(), ClusterSnapshot::WATCHED.len());
        assert!(prefixes.contains(&"/registry/minions/".to_string()));
        assert!(prefixes.contains(&"/registry/services/specs/".to_string()));
        // No prefix holds another's keys, so reading them in this order keeps the key order.
        for a in prefixes {
            for b in prefixes {
                assert!(a == b || !b.starts_with(a.as_str()), "{a} is a prefix of {b}");
            }
        }
        assert!(prefixes.windows(2).all(|w| w[0] < w[1]));
    }
}
