//! SchedulingGates: a pod with `spec.schedulingGates` does not enter the active queue
//! until every gate is removed (PreEnqueue).

use crate::scheduler::framework::{Code, Plugin, PreEnqueuePlugin, Status};
use crate::scheduler::queue::{ClusterEvent, QueueingHint};
use crate::scheduler::snapshot::PodInfo;

pub struct SchedulingGates;

pub const NAME: &str = "SchedulingGates";

/// The pod condition the API server sets on a gated pod.
pub const GATED_REASON: &str = "SchedulingGated";
pub const GATED_MESSAGE: &str = "Scheduling is blocked due to non-empty scheduling gates";

pub fn gate_names(pod: &PodInfo) -> Vec<String> {
    pod.spec().and_then(|s| s.scheduling_gates.as_ref()).into_iter().flatten().map(|g| g.name.clone()).collect()
}

impl Plugin for SchedulingGates {
    fn name(&self) -> &'static str {
        NAME
    }
    fn as_pre_enqueue(&self) -> Option<&dyn PreEnqueuePlugin> {
        Some(self)
    }
    fn queueing_hint(&self, pod: &PodInfo, event: &ClusterEvent) -> Option<QueueingHint> {
        match event {
            ClusterEvent::PodUpdated { new, .. } => {
                let same = new.metadata.namespace.as_deref() == Some(pod.namespace.as_str())
                    && new.metadata.name.as_deref() == Some(pod.name.as_str());
                let gated = new.spec.as_ref().and_then(|s| s.scheduling_gates.as_ref()).is_some_and(|g| !g.is_empty());
                Some(if same && !gated { QueueingHint::Queue } else { QueueingHint::QueueSkip })
            }
            _ => None,
        }
    }
}

impl PreEnqueuePlugin for SchedulingGates {
    fn pre_enqueue(&self, pod: &PodInfo) -> Status {
        let gates = gate_names(pod);
        if gates.is_empty() {
            return Status::success();
        }
        // Go's %v of a []string: [a b]
        Status::new(Code::UnschedulableAndUnresolvable, format!("waiting for scheduling gates: [{}]", gates.join(" ")))
    }
}
