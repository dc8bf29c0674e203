//! NodeUnschedulable: a cordoned node (`spec.unschedulable: true`) takes no new pods,
//! unless the pod tolerates the `node.kubernetes.io/unschedulable:NoSchedule` taint.

use std::any::Any;

use k8s_openapi::api::core::v1::Taint;

use crate::scheduler::framework::{retain_passing, Ctx, FilterPlugin, Plugin, Status};
use crate::scheduler::queue::{ClusterEvent, QueueingHint};
use crate::scheduler::selectors::tolerations_tolerate;
use crate::scheduler::snapshot::{NodeInfo, PodInfo};

pub struct NodeUnschedulable;

pub const ERR_REASON_UNSCHEDULABLE: &str = "node(s) were unschedulable";

fn unschedulable_taint() -> Taint {
    Taint { key: "node.kubernetes.io/unschedulable".into(), effect: "NoSchedule".into(), ..Default::default() }
}

fn blocks(pod: &PodInfo, unschedulable: bool) -> bool {
    unschedulable && !tolerations_tolerate(pod.tolerations(), &unschedulable_taint())
}

impl Plugin for NodeUnschedulable {
    fn name(&self) -> &'static str {
        "NodeUnschedulable"
    }
    fn as_filter(&self) -> Option<&dyn FilterPlugin> {
        Some(self)
    }
    fn queueing_hint(&self, pod: &PodInfo, event: &ClusterEvent) -> Option<QueueingHint> {
        let cordoned =
            |n: &k8s_openapi::api::core::v1::Node| n.spec.as_ref().and_then(|s| s.unschedulable).unwrap_or(false);
        match event {
            ClusterEvent::NodeAdded(n) => {
                Some(if blocks(pod, cordoned(n)) { QueueingHint::QueueSkip } else { QueueingHint::Queue })
            }
            ClusterEvent::NodeUpdated { old, new } => {
                Some(if blocks(pod, cordoned(old)) && !blocks(pod, cordoned(new)) {
                    QueueingHint::Queue
                } else {
                    QueueingHint::QueueSkip
                })
            }
            _ => None,
        }
    }
}

impl FilterPlugin for NodeUnschedulable {
    fn filter(&self, _: Option<&dyn Any>, _: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Status {
        if blocks(pod, node.unschedulable) {
            Status::unresolvable(ERR_REASON_UNSCHEDULABLE)
        } else {
            Status::success()
        }
    }

    fn filter_nodes(
        &self,
        _: Option<&dyn Any>,
        ctx: &Ctx,
        pod: &PodInfo,
        nodes: &[usize],
        alive: &mut Vec<u32>,
        rejected: &mut Vec<(u32, Status)>,
    ) {
        retain_passing(ctx, nodes, alive, rejected, |node| {
            // Most nodes are not cordoned: only those need the toleration check.
            (node.unschedulable && blocks(pod, true)).then(|| Status::unresolvable(ERR_REASON_UNSCHEDULABLE))
        });
    }
}
