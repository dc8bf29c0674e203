//! NodeResourcesFit: the pod's requests must fit in what the node has left (Filter),
//! and, with the default `LeastAllocated` strategy over cpu and memory (weight 1 each),
//! nodes with more room left score higher (Score).
//!
//! Filter: one more pod must stay within `allocatable.pods` ("Too many pods"); each
//! requested resource must fit in allocatable minus what bound pods request
//! ("Insufficient cpu", ...). When the pod asks for more than the whole node has, the
//! rejection is UnschedulableAndUnresolvable: evicting pods could never help.
//!
//! Score: for cpu and memory, `(allocatable - requested) * 100 / allocatable`, where
//! requested includes the pod and counts 100m / 200Mi for containers without requests,
//! then the weighted average.

use std::any::Any;

use crate::scheduler::framework::{
    retain_passing, Code, Ctx, FilterPlugin, Plugin, PreFilterOutput, PreFilterPlugin, PreScorePlugin, ScorePlugin,
    StateData, Status,
};
use crate::scheduler::queue::{ClusterEvent, QueueingHint};
use crate::scheduler::resources::{node_allocatable, Resource};
use crate::scheduler::snapshot::{NodeInfo, PodInfo};

use super::MAX;

pub struct NodeResourcesFit;

pub const NAME: &str = "NodeResourcesFit";

/// One resource that does not fit (`InsufficientResource`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insufficient {
    pub resource: String,
    pub reason: String,
    pub requested: i64,
    pub used: i64,
    pub capacity: i64,
    pub unresolvable: bool,
}

/// `fitsRequest`: every resource that does not fit, in upstream's order (pods, cpu,
/// memory, ephemeral-storage, then extended resources by name).
pub fn insufficient_resources(req: &Resource, node: &NodeInfo) -> Vec<Insufficient> {
    let mut out = Vec::new();
    fits_request(req, node, |i| out.push(i));
    out
}

/// The same check without building anything unless a resource is short; returns the
/// status the Filter reports. Inlined: the Filter runs it for every node.
#[inline(always)]
fn fits_request(req: &Resource, node: &NodeInfo, mut short: impl FnMut(Insufficient)) -> (bool, bool) {
    let mut fits = true;
    let mut unresolvable = false;
    let mut push = |resource: &str, reason: String, requested: i64, used: i64, capacity: i64, unres: bool| {
        fits = false;
        unresolvable |= unres;
        short(Insufficient { resource: resource.into(), reason, requested, used, capacity, unresolvable: unres });
    };
    let alloc = &node.allocatable;
    let used = &node.requested;
    if node.pods.len() as i64 + 1 > alloc.allowed_pods {
        push("pods", "Too many pods".into(), 1, node.pods.len() as i64, alloc.allowed_pods, false);
    }
    if req.is_zero() {
        return (fits, unresolvable);
    }
    if req.milli_cpu > 0 && req.milli_cpu > alloc.milli_cpu - used.milli_cpu {
        let u = req.milli_cpu > alloc.milli_cpu;
        push("cpu", "Insufficient cpu".into(), req.milli_cpu, used.milli_cpu, alloc.milli_cpu, u);
    }
    if req.memory > 0 && req.memory > alloc.memory - used.memory {
        let u = req.memory > alloc.memory;
        push("memory", "Insufficient memory".into(), req.memory, used.memory, alloc.memory, u);
    }
    if req.ephemeral_storage > 0 && req.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage {
        let u = req.ephemeral_storage > alloc.ephemeral_storage;
        push(
            "ephemeral-storage",
            "Insufficient ephemeral-storage".into(),
            req.ephemeral_storage,
            used.ephemeral_storage,
            alloc.ephemeral_storage,
            u,
        );
    }
    for (name, q) in &req.scalar {
        if *q == 0 {
            continue;
        }
        let (a, u) = (alloc.scalar(name), used.scalar(name));
        if *q > a - u {
            push(name, format!("Insufficient {name}"), *q, u, a, *q > a);
        }
    }
    (fits, unresolvable)
}

#[derive(Clone)]
struct PreFilterState(Resource);

/// `leastRequestedScore`.
fn least_requested(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    (capacity - requested) * MAX / capacity
}

/// LeastAllocated over cpu and memory, weight 1 each; a resource the node does not
/// offer (allocatable 0) is left out of the average.
pub fn least_allocated_score(pod: &PodInfo, node: &NodeInfo) -> i64 {
    let mut score = 0;
    let mut weights = 0;
    for (req, alloc) in [
        (node.non_zero_cpu + pod.resources.non_zero_cpu, node.allocatable.milli_cpu),
        (node.non_zero_memory + pod.resources.non_zero_memory, node.allocatable.memory),
    ] {
        if alloc == 0 {
            continue;
        }
        score += least_requested(req, alloc);
        weights += 1;
    }
    // `score / weights` with weights 0, 1 or 2, without a division for the first two.
    match weights {
        0 => 0,
        1 => score,
        _ => score / 2,
    }
}

impl Plugin for NodeResourcesFit {
    fn name(&self) -> &'static str {
        NAME
    }
    fn as_pre_filter(&self) -> Option<&dyn PreFilterPlugin> {
        Some(self)
    }
    fn as_filter(&self) -> Option<&dyn FilterPlugin> {
        Some(self)
    }
    fn as_pre_score(&self) -> Option<&dyn PreScorePlugin> {
        Some(self)
    }
    fn as_score(&self) -> Option<&dyn ScorePlugin> {
        Some(self)
    }
    fn queueing_hint(&self, pod: &PodInfo, event: &ClusterEvent) -> Option<QueueingHint> {
        match event {
            // Deleting an assigned (or nominated) pod frees resources.
            ClusterEvent::PodDeleted(p) => {
                let assigned = p.spec.as_ref().and_then(|s| s.node_name.as_deref()).is_some_and(|n| !n.is_empty());
                let nominated =
                    p.status.as_ref().and_then(|s| s.nominated_node_name.as_deref()).is_some_and(|n| !n.is_empty());
                Some(if assigned || nominated { QueueingHint::Queue } else { QueueingHint::QueueSkip })
            }
            ClusterEvent::NodeAdded(n) => {
                let fits = fits_empty_node(pod, n);
                Some(if fits { QueueingHint::Queue } else { QueueingHint::QueueSkip })
            }
            ClusterEvent::NodeUpdated { old, new } => {
                if !fits_empty_node(pod, new) {
                    return Some(QueueingHint::QueueSkip);
                }
                let (o, n) = (node_allocatable(old), node_allocatable(new));
                let r = &pod.resources.requests;
                let grew = n.allowed_pods > o.allowed_pods
                    || (r.milli_cpu > 0 && n.milli_cpu > o.milli_cpu)
                    || (r.memory > 0 && n.memory > o.memory)
                    || (r.ephemeral_storage > 0 && n.ephemeral_storage > o.ephemeral_storage)
                    || r.scalar.iter().any(|(k, q)| *q > 0 && n.scalar(k) > o.scalar(k));
                Some(if grew { QueueingHint::Queue } else { QueueingHint::QueueSkip })
            }
            _ => None,
        }
    }
}

/// `isFit` on an empty node built from the object (used by the queueing hints).
fn fits_empty_node(pod: &PodInfo, node: &k8s_openapi::api::core::v1::Node) -> bool {
    let mut snap = crate::scheduler::snapshot::ClusterSnapshot::new();
    snap.add_node(node.clone());
    let n = snap.node(0);
    fits_request(&pod.resources.requests, n, |_| {}).0
}

impl PreFilterPlugin for NodeResourcesFit {
    fn pre_filter(&self, _: &Ctx, pod: &PodInfo) -> PreFilterOutput {
        PreFilterOutput::ok(PreFilterState(pod.resources.requests.clone()))
    }
}

/// The requests PreFilter kept (the pod's own when it did not run).
fn filter_requests<'a>(state: Option<&'a dyn Any>, pod: &'a PodInfo) -> &'a Resource {
    state.and_then(|s| s.downcast_ref::<PreFilterState>()).map(|s| &s.0).unwrap_or(&pod.resources.requests)
}

/// The Filter's rejection of one node, if any.
#[inline]
fn fit_rejection(req: &Resource, node: &NodeInfo) -> Option<Status> {
    let (fits, _) = fits_request(req, node, |_| {});
    (!fits).then(|| short_status(req, node))
}

/// The Filter's status for a node the pod does not fit: every short resource.
fn short_status(req: &Resource, node: &NodeInfo) -> Status {
    let short = insufficient_resources(req, node);
    let code =
        if short.iter().any(|i| i.unresolvable) { Code::UnschedulableAndUnresolvable } else { Code::Unschedulable };
    Status { code, reasons: short.into_iter().map(|i| i.reason.into()).collect(), plugin: "" }
}

impl FilterPlugin for NodeResourcesFit {
    fn filter(&self, state: Option<&dyn Any>, _: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Status {
        fit_rejection(filter_requests(state, pod), node).unwrap_or_else(Status::success)
    }

    fn filter_nodes(
        &self,
        state: Option<&dyn Any>,
        ctx: &Ctx,
        pod: &PodInfo,
        nodes: &[usize],
        alive: &mut Vec<u32>,
        rejected: &mut Vec<(u32, Status)>,
    ) {
        let req = filter_requests(state, pod);
        retain_passing(ctx, nodes, alive, rejected, |node| fit_rejection(req, node));
    }
}

impl PreScorePlugin for NodeResourcesFit {
    fn pre_score(&self, _: &Ctx, _: &PodInfo, _: &[usize]) -> (Status, Option<Box<dyn StateData>>) {
        // The pod's scoring requests are already in PodInfo.
        (Status::success(), None)
    }
}

impl ScorePlugin for NodeResourcesFit {
    fn score(&self, _: Option<&dyn Any>, _: &Ctx, pod: &PodInfo, node: &NodeInfo) -> i64 {
        least_allocated_score(pod, node)
    }
}
