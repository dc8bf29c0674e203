//! kube-scheduler, v1.37 default profile.
//!
//! # How a pod gets a node
//!
//! The simulation calls [`Scheduler::schedule`] for a pod without `spec.nodeName`, with a
//! [`ClusterSnapshot`] (the nodes, the pods bound to them, and the PVCs, PVs,
//! StorageClasses, PriorityClasses, Namespaces, Services and ReplicaSets some plugins
//! read). One call is one *scheduling cycle*, which walks the extension points of the
//! scheduling framework; at each one, every plugin of the profile that implements it
//! runs, in profile order ([`Profile::default_profile`]):
//!
//! 1. **PreEnqueue** (SchedulingGates): a pod with `schedulingGates` is not scheduled at
//!    all; the API server already set `PodScheduled=False`, reason `SchedulingGated`.
//! 2. **PreFilter**: each plugin looks at the pod once (its requests, its affinity, its
//!    volumes). A plugin may *Skip* (its Filter will not run), narrow the search to some
//!    nodes (NodeAffinity with `metadata.name`), or reject the pod outright, e.g.
//!    "pod has unbound immediate PersistentVolumeClaims".
//! 3. **Filter**, node by node, starting where the previous cycle stopped: the plugins
//!    run in order and the first that rejects the node stops it (the trace lists the
//!    ones that did not run). With 100 nodes or more only a share is searched
//!    (`percentageOfNodesToScore`, adaptive by default: 50% minus 1% per 125 nodes, at
//!    least 5%, at least 100 nodes); the search stops once that many fit.
//! 4. **PreScore / Score / NormalizeScore** on the feasible nodes: each score plugin
//!    gives 0..100 per node, multiplied by its weight (TaintToleration 3, NodeAffinity
//!    2, PodTopologySpread 2, InterPodAffinity 2, NodeResourcesFit 1,
//!    BalancedAllocation 1, ImageLocality 1) and summed. The highest total wins; a tie
//!    is broken uniformly at random with the seeded [`Rng`]. A single feasible node is
//!    taken without scoring.
//! 5. **PostFilter**, only when no node fits: DynamicResources ("no new claims to
//!    deallocate"), then DefaultPreemption, which may nominate a node and name lower
//!    priority victims. The FailedScheduling message counts the reasons per node
//!    ([`fit_error_message`]).
//! 6. **Reserve / Bind**: VolumeBinding reserves the pod's volumes and DefaultBinder
//!    returns the `Binding` the caller POSTs to `pods/<name>/binding`.
//!
//! The result is a [`ScheduleOutcome`]: the trace payload ([`ScheduleDetail`]) and what
//! to do ([`ScheduleResult`]); [`ScheduleOutcome::event`] and
//! [`ScheduleOutcome::pod_condition`] give the Event and the `PodScheduled` condition.
//! [`queue`] says when to retry an unschedulable pod and how long to back off.
//!
//! # Using it from the simulation
//!
//! ```text
//! keep one ClusterSnapshot up to date (add_node / add_pod / remove_pod / add_pvc ...)
//! for each pending pod the queue pops (highest priority first: queue::queue_less):
//!     if !scheduler.responsible_for(&pod) { skip: another scheduler's pod }
//!     let outcome = scheduler.schedule(&pod, &snapshot, &mut rng);
//!     trace step: Detail::Schedule(Box::new(outcome.detail.clone()))
//!     match outcome.result {
//!         Scheduled { node, binding, volume_actions } =>
//!             apply volume_actions (bind PVC to PV / annotate PVC with the selected node),
//!             POST binding to pods/<name>/binding, snapshot.assume(&pod, &node),
//!             record outcome.event(ns, name)            // Normal Scheduled
//!         Unschedulable { nominated_node, victims, unschedulable_plugins, .. } =>
//!             record outcome.event(ns, name)            // Warning FailedScheduling
//!             patch status: outcome.k8s_pod_condition() and nominatedNodeName
//!             for each victim: preempted_event(..) on the victim, then delete it
//!             park the pod; on each cluster change ask queue::should_requeue(.., &unschedulable_plugins, event);
//!             retry after queue::backoff_ms(attempts), or after 5 minutes at most
//!         Gated { .. } => wait until the gates are removed (no event)
//!         Error { .. } => retry after the back-off
//!     }
//! ```
//!
//! # DynamicResources and "no new claims to deallocate"
//!
//! DRA is GA since v1.34 and its gate is on, so upstream inserts `DynamicResources`
//! before `DefaultPreemption` in the default profile. For a pod without claims its
//! PostFilter answers "no new claims to deallocate", and FailedScheduling messages of
//! current clusters read `... 2 Insufficient cpu. no new claims to deallocate,
//! preemption: 0/3 nodes are available: ...` (kind clusters with pause 3.10.1 print
//! exactly that). The lab follows it. When a PreFilter rejects the pod as unresolvable
//! before DynamicResources' own PreFilter ran, its PostFilter errors with "not found"
//! and preemption does not run: `0/3 nodes are available: pod has unbound immediate
//! PersistentVolumeClaims. not found.` is also what such clusters print.
//!
//! # What is exact and what is not
//!
//! Reason strings, status codes, the message format, the plugin order and weights, the
//! node-count formula, LeastAllocated, TaintToleration, NodeAffinity, PodTopologySpread,
//! InterPodAffinity and ImageLocality scores follow upstream. BalancedAllocation follows
//! the v1.36 change (kubernetes#135573: the score reflects the change in balance, 75 =
//! unchanged), reconstructed from the PR description. Preemption reads the
//! PodDisruptionBudgets' status as upstream does (spare the protected pods first, prefer
//! the node with the fewest violations). Not modeled: ResourceClaims, CSI volume limits
//! and zones, extenders,
//! Permit/PreBind waits, opportunistic batching. Ties: v1.36+ picks the best node from a
//! heap with a random tiebreaker; the pick is uniform among the tied nodes, as with the
//! reservoir sampling used here.

pub mod actor;
pub mod framework;
pub mod plugins;
pub mod profile;
pub mod queue;
pub mod resources;
pub mod schedule_one;
pub mod selectors;
pub mod snapshot;

#[cfg(test)]
mod tests;

use k8s_openapi::api::core::v1::{Binding, PodCondition};
use serde::{Deserialize, Serialize};

pub use framework::{Framework, Victim};
pub use plugins::volume_binding::VolumeAction;
pub use profile::{PluginConfig, Profile, Registry};
pub use schedule_one::{fit_error_message, num_feasible_nodes_to_find, DetailLevel, Scheduler, SchedulerOptions};
pub use snapshot::ClusterSnapshot;

use crate::rng::Rng;
use crate::trace::{EventDetail, ScheduleDetail};

/// What one scheduling cycle decided, and everything it saw.
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleOutcome {
    pub detail: ScheduleDetail,
    pub result: ScheduleResult,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ScheduleResult {
    /// Bind the pod: POST `binding`. `volume_actions` are what VolumeBinding's PreBind
    /// does first (bind claims to volumes, or ask for provisioning on the node).
    Scheduled { node: String, binding: Box<Binding>, volume_actions: Vec<VolumeAction> },
    /// No node fits. `nominated_node`: Some(node) = set `status.nominatedNodeName`,
    /// Some("") = clear it, None = leave it. `victims`: pods preemption deletes (the
    /// caller records a `Preempted` event on each and deletes it).
    /// `unschedulable_plugins`: the plugins that rejected the pod, for queueing hints.
    Unschedulable {
        message: String,
        nominated_node: Option<String>,
        victims: Vec<Victim>,
        unschedulable_plugins: Vec<String>,
    },
    /// The pod has scheduling gates; it waits in the queue, no event is recorded.
    Gated { gates: Vec<String>, message: String },
    /// An internal error aborted the cycle (condition reason `SchedulerError`).
    Error { message: String },
}

/// `PodScheduled` as the scheduler (or, for gates, the API server) sets it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledCondition {
    pub status: String,
    pub reason: String,
    pub message: String,
}

impl ScheduleOutcome {
    /// The Event the scheduler records: `Scheduled` (Normal) or `FailedScheduling`
    /// (Warning), reported by the profile name (`default-scheduler`). None for a gated
    /// pod.
    pub fn event(&self, namespace: &str, pod: &str) -> Option<EventDetail> {
        let from = self.detail.profile.clone();
        match &self.result {
            ScheduleResult::Scheduled { node, .. } => Some(EventDetail {
                event_type: "Normal".into(),
                reason: "Scheduled".into(),
                from,
                message: format!("Successfully assigned {namespace}/{pod} to {node}"),
            }),
            ScheduleResult::Unschedulable { message, .. } | ScheduleResult::Error { message } => Some(EventDetail {
                event_type: "Warning".into(),
                reason: "FailedScheduling".into(),
                from,
                message: schedule_one::truncate_message(message),
            }),
            ScheduleResult::Gated { .. } => None,
        }
    }

    /// The `PodScheduled` condition after this cycle (for a scheduled pod the kubelet
    /// reports it True later; the binding itself does not write a condition).
    pub fn pod_condition(&self) -> Option<ScheduledCondition> {
        let (reason, message) = match &self.result {
            ScheduleResult::Scheduled { .. } => return None,
            ScheduleResult::Unschedulable { message, .. } => ("Unschedulable", message.clone()),
            ScheduleResult::Error { message } => ("SchedulerError", message.clone()),
            ScheduleResult::Gated { .. } => {
                (plugins::scheduling_gates::GATED_REASON, plugins::scheduling_gates::GATED_MESSAGE.to_string())
            }
        };
        Some(ScheduledCondition { status: "False".into(), reason: reason.into(), message })
    }

    /// The condition as a k8s-openapi `PodCondition` (without timestamps).
    pub fn k8s_pod_condition(&self) -> Option<PodCondition> {
        self.pod_condition().map(|c| PodCondition {
            type_: "PodScheduled".into(),
            status: c.status,
            reason: Some(c.reason),
            message: Some(c.message),
            ..Default::default()
        })
    }
}

/// The `Preempted` event recorded on each victim (reported by the profile name).
pub fn preempted_event(profile: &str, preemptor_uid: &str, node: &str) -> EventDetail {
    EventDetail {
        event_type: "Normal".into(),
        reason: "Preempted".into(),
        from: profile.to_string(),
        message: format!("Preempted by pod {preemptor_uid} on node {node}"),
    }
}

/// Schedules with the default scheduler in one call (convenience for tests and tools).
pub fn schedule_once(pod: &k8s_openapi::api::core::v1::Pod, snapshot: &ClusterSnapshot, seed: u64) -> ScheduleOutcome {
    Scheduler::default_scheduler().schedule(pod, snapshot, &mut Rng::new(seed))
}
