//! NodePorts: a pod's `hostPort`s must be free on the node (the same port and protocol
//! on the same address, or on 0.0.0.0, is a conflict).

use std::any::Any;

use crate::scheduler::framework::{Ctx, FilterPlugin, Plugin, PreFilterOutput, PreFilterPlugin, Status};
use crate::scheduler::queue::{ClusterEvent, QueueingHint};
use crate::scheduler::snapshot::{HostPort, NodeInfo, PodInfo};

pub struct NodePorts;

pub const ERR_REASON: &str = "node(s) didn't have free ports for the requested pod ports";

#[derive(Clone)]
struct PreFilterState(Vec<HostPort>);

impl Plugin for NodePorts {
    fn name(&self) -> &'static str {
        "NodePorts"
    }
    fn as_pre_filter(&self) -> Option<&dyn PreFilterPlugin> {
        Some(self)
    }
    fn as_filter(&self) -> Option<&dyn FilterPlugin> {
        Some(self)
    }
    fn queueing_hint(&self, pod: &PodInfo, event: &ClusterEvent) -> Option<QueueingHint> {
        match event {
            ClusterEvent::NodeAdded(_) => Some(QueueingHint::Queue),
            ClusterEvent::PodDeleted(p) => {
                let freed = crate::scheduler::snapshot::PodInfo::new(
                    k8s_openapi::api::core::v1::Pod::clone(p),
                    &Default::default(),
                );
                let helps = !freed.node_name.is_empty()
                    && freed.host_ports.iter().any(|f| pod.host_ports.iter().any(|w| w.conflicts(f)));
                Some(if helps { QueueingHint::Queue } else { QueueingHint::QueueSkip })
            }
            _ => None,
        }
    }
}

impl PreFilterPlugin for NodePorts {
    fn pre_filter(&self, _: &Ctx, pod: &PodInfo) -> PreFilterOutput {
        if pod.host_ports.is_empty() {
            return PreFilterOutput::skip();
        }
        PreFilterOutput::ok(PreFilterState(pod.host_ports.clone()))
    }
}

impl FilterPlugin for NodePorts {
    fn filter(&self, state: Option<&dyn Any>, _: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Status {
        let want = state.and_then(|s| s.downcast_ref::<PreFilterState>()).map(|s| &s.0[..]).unwrap_or(&pod.host_ports);
        if want.iter().any(|w| node.used_ports.iter().any(|u| u.conflicts(w))) {
            Status::unschedulable(ERR_REASON)
        } else {
            Status::success()
        }
    }
}
