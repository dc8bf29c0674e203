//! What the scheduling queue needs from the scheduler: the order of the active queue
//! (PrioritySort), back-off durations, and queueing hints that say whether a cluster
//! change may make an unschedulable pod schedulable (upstream `backend/queue` and each
//! plugin's `EventsToRegister`, simplified to the events the lab produces).

use k8s_openapi::api::core::v1::{Node, PersistentVolume, PersistentVolumeClaim, Pod};
use k8s_openapi::api::storage::v1::StorageClass;
use serde::{Deserialize, Serialize};

use super::framework::Framework;
use super::snapshot::PodInfo;

/// `podInitialBackoffSeconds` default.
pub const POD_INITIAL_BACKOFF_MS: u64 = 1_000;
/// `podMaxBackoffSeconds` default.
pub const POD_MAX_BACKOFF_MS: u64 = 10_000;
/// `podMaxInUnschedulablePodsDuration`: an unschedulable pod is retried after 5 minutes
/// even if no event moved it.
pub const POD_MAX_IN_UNSCHEDULABLE_PODS_MS: u64 = 5 * 60 * 1_000;

/// Back-off before the next attempt after `attempts` failed attempts: 1s, 2s, 4s, 8s,
/// then 10s (`calculateBackoffDuration`). No attempt yet means no back-off.
pub fn backoff_ms(attempts: u32) -> u64 {
    backoff_ms_with(attempts, POD_INITIAL_BACKOFF_MS, POD_MAX_BACKOFF_MS)
}

pub fn backoff_ms_with(attempts: u32, initial_ms: u64, max_ms: u64) -> u64 {
    if attempts == 0 {
        return 0;
    }
    let mut d = initial_ms;
    for _ in 1..attempts {
        if d > max_ms - d.min(max_ms) {
            return max_ms;
        }
        d += d;
    }
    d.min(max_ms)
}

/// PrioritySort's `Less`: higher priority first, then the pod that entered the queue
/// first (`timestamp_ms`).
pub fn queue_less(a: (&PodInfo, u64), b: (&PodInfo, u64)) -> bool {
    if a.0.priority != b.0.priority {
        return a.0.priority > b.0.priority;
    }
    a.1 < b.1
}

/// A change in the cluster the queue is told about.
#[derive(Clone, Copy, Debug)]
pub enum ClusterEvent<'a> {
    NodeAdded(&'a Node),
    NodeUpdated {
        old: &'a Node,
        new: &'a Node,
    },
    NodeDeleted(&'a Node),
    /// A pod was created or bound (an "assigned pod" when it has `spec.nodeName`).
    PodAdded(&'a Pod),
    PodUpdated {
        old: &'a Pod,
        new: &'a Pod,
    },
    PodDeleted(&'a Pod),
    PvcAdded(&'a PersistentVolumeClaim),
    PvcUpdated(&'a PersistentVolumeClaim),
    PvAdded(&'a PersistentVolume),
    PvUpdated(&'a PersistentVolume),
    StorageClassAdded(&'a StorageClass),
}

impl ClusterEvent<'_> {
    /// The event's label as the scheduler's metrics print it (`Node/Add`, `Pod/Delete`).
    pub fn label(&self) -> &'static str {
        match self {
            ClusterEvent::NodeAdded(_) => "Node/Add",
            ClusterEvent::NodeUpdated { .. } => "Node/Update",
            ClusterEvent::NodeDeleted(_) => "Node/Delete",
            ClusterEvent::PodAdded(_) => "Pod/Add",
            ClusterEvent::PodUpdated { .. } => "Pod/Update",
            ClusterEvent::PodDeleted(_) => "Pod/Delete",
            ClusterEvent::PvcAdded(_) => "PersistentVolumeClaim/Add",
            ClusterEvent::PvcUpdated(_) => "PersistentVolumeClaim/Update",
            ClusterEvent::PvAdded(_) => "PersistentVolume/Add",
            ClusterEvent::PvUpdated(_) => "PersistentVolume/Update",
            ClusterEvent::StorageClassAdded(_) => "StorageClass/Add",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum QueueingHint {
    /// The event may make the pod schedulable: move it to the active (or back-off) queue.
    Queue,
    /// The event cannot help this pod: leave it in the unschedulable pool.
    QueueSkip,
}

/// The queue's decision for one pod and one event, with each rejecting plugin's hint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequeueDecision {
    pub hint: QueueingHint,
    /// `(plugin, hint)` for each plugin that rejected the pod and watches this event.
    pub hints: Vec<(String, QueueingHint)>,
    /// In plain words.
    pub explanation: String,
}

/// Whether an unschedulable pod should be retried after `event`, given the plugins
/// that rejected it in its last attempt (`UnschedulablePlugins`). As upstream: the pod
/// moves if any of those plugins registered this kind of event and its hint says
/// Queue; a pod rejected by no plugin in particular (e.g. an internal error) moves on
/// any event.
pub fn should_requeue(
    fw: &Framework,
    pod: &PodInfo,
    unschedulable_plugins: &[String],
    event: &ClusterEvent,
) -> RequeueDecision {
    let mut hints = Vec::new();
    for name in unschedulable_plugins {
        let Some(i) = fw.plugin_index(name) else { continue };
        if let Some(h) = fw.plugin(i).queueing_hint(pod, event) {
            hints.push((name.clone(), h));
        }
    }
    let label = event.label();
    if unschedulable_plugins.is_empty() {
        return RequeueDecision {
            hint: QueueingHint::Queue,
            hints,
            explanation: format!("{label}: the pod was not rejected by a particular plugin, so any event retries it"),
        };
    }
    match hints.iter().find(|(_, h)| *h == QueueingHint::Queue) {
        Some((p, _)) => RequeueDecision {
            hint: QueueingHint::Queue,
            explanation: format!("{label} may make the pod schedulable ({p} says Queue)"),
            hints,
        },
        None if hints.is_empty() => RequeueDecision {
            hint: QueueingHint::QueueSkip,
            hints,
            explanation: format!(
                "{label} is not an event {} watches; the pod stays unschedulable",
                unschedulable_plugins.join(", ")
            ),
        },
        None => RequeueDecision {
            hint: QueueingHint::QueueSkip,
            hints,
            explanation: format!("{label} does not change what rejected the pod; it stays unschedulable"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_max() {
        let got: Vec<u64> = (0..7).map(backoff_ms).collect();
        assert_eq!(got, vec![0, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
        assert_eq!(backoff_ms(u32::MAX), 10_000);
    }
}
