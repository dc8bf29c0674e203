//! NodeName: a pod that names its node (`spec.nodeName`) fits only that node.

use std::any::Any;

use crate::scheduler::framework::{retain_passing, Ctx, FilterPlugin, Plugin, Status};
use crate::scheduler::queue::{ClusterEvent, QueueingHint};
use crate::scheduler::snapshot::{NodeInfo, PodInfo};

pub struct NodeName;

pub const ERR_REASON: &str = "node(s) didn't match the requested node name";

impl Plugin for NodeName {
    fn name(&self) -> &'static str {
        "NodeName"
    }
    fn as_filter(&self) -> Option<&dyn FilterPlugin> {
        Some(self)
    }
    fn queueing_hint(&self, pod: &PodInfo, event: &ClusterEvent) -> Option<QueueingHint> {
        match event {
            ClusterEvent::NodeAdded(n) => Some(if n.metadata.name.as_deref() == Some(pod.node_name.as_str()) {
                QueueingHint::Queue
            } else {
                QueueingHint::QueueSkip
            }),
            _ => None,
        }
    }
}

impl FilterPlugin for NodeName {
    fn filter(&self, _: Option<&dyn Any>, _: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Status {
        if !pod.node_name.is_empty() && pod.node_name != node.name {
            Status::unresolvable(ERR_REASON)
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
        // A pod that names no node fits every node.
        if pod.node_name.is_empty() {
            return;
        }
        retain_passing(ctx, nodes, alive, rejected, |node| {
            (pod.node_name != node.name).then(|| Status::unresolvable(ERR_REASON))
        });
    }
}
