//! TaintToleration: a node's `NoSchedule`/`NoExecute` taints keep off pods that do not
//! tolerate them (Filter); `PreferNoSchedule` taints the pod does not tolerate lower the
//! node's score (Score, normalized in reverse: fewest such taints = 100).

use std::any::Any;

use k8s_openapi::api::core::v1::Toleration;

use super::{default_normalize, MAX};
use crate::scheduler::framework::{
    retain_passing, Ctx, FilterPlugin, Plugin, PreScorePlugin, ScorePlugin, StateData, Status,
};
use crate::scheduler::queue::{ClusterEvent, QueueingHint};
use crate::scheduler::selectors::{first_untolerated, tolerations_tolerate};
use crate::scheduler::snapshot::{NodeInfo, PodInfo};

pub struct TaintToleration;

pub const NAME: &str = "TaintToleration";
pub const ERR_REASON_NOT_MATCH: &str = "node(s) had untolerated taint(s)";

/// Tolerations that can match `PreferNoSchedule` taints (effect empty or PreferNoSchedule).
#[derive(Clone)]
struct PreScoreState {
    tolerations: Vec<Toleration>,
}

impl Plugin for TaintToleration {
    fn name(&self) -> &'static str {
        NAME
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
        let untolerated = |n: &k8s_openapi::api::core::v1::Node| {
            let taints = n.spec.as_ref().and_then(|s| s.taints.as_deref()).unwrap_or(&[]);
            first_untolerated(taints, pod.tolerations()).is_some()
        };
        let (was, is) = match event {
            ClusterEvent::NodeAdded(n) => (true, untolerated(n)),
            ClusterEvent::NodeUpdated { old, new } => (untolerated(old), untolerated(new)),
            ClusterEvent::PodUpdated { new, .. } => {
                let same = new.metadata.name.as_deref() == Some(pod.name.as_str())
                    && new.metadata.namespace.as_deref() == Some(pod.namespace.as_str());
                return Some(if same { QueueingHint::Queue } else { QueueingHint::QueueSkip });
            }
            _ => return None,
        };
        Some(if was && !is { QueueingHint::Queue } else { QueueingHint::QueueSkip })
    }
}

/// The Filter's rejection of one node, if any.
fn untolerated(pod: &PodInfo, node: &NodeInfo) -> Option<Status> {
    if node.taints.is_empty() {
        return None;
    }
    first_untolerated(&node.taints, pod.tolerations()).map(|_| Status::unresolvable(ERR_REASON_NOT_MATCH))
}

impl FilterPlugin for TaintToleration {
    fn filter(&self, _: Option<&dyn Any>, _: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Status {
        untolerated(pod, node).unwrap_or_else(Status::success)
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
        retain_passing(ctx, nodes, alive, rejected, |node| untolerated(pod, node));
    }
}

impl PreScorePlugin for TaintToleration {
    fn pre_score(&self, _: &Ctx, pod: &PodInfo, _: &[usize]) -> (Status, Option<Box<dyn StateData>>) {
        let tolerations = pod
            .tolerations()
            .iter()
            .filter(|t| matches!(t.effect.as_deref(), None | Some("") | Some("PreferNoSchedule")))
            .cloned()
            .collect();
        (Status::success(), Some(Box::new(PreScoreState { tolerations })))
    }
}

/// The tolerations PreScore kept (none when it did not run).
fn score_tolerations(state: Option<&dyn Any>) -> &[Toleration] {
    state.and_then(|s| s.downcast_ref::<PreScoreState>()).map(|s| &s.tolerations[..]).unwrap_or(&[])
}

/// How many of the node's `PreferNoSchedule` taints the tolerations do not tolerate.
fn intolerable_prefer_no_schedule(tolerations: &[Toleration], node: &NodeInfo) -> i64 {
    node.taints.iter().filter(|t| t.effect == "PreferNoSchedule" && !tolerations_tolerate(tolerations, t)).count()
        as i64
}

impl ScorePlugin for TaintToleration {
    fn score(&self, state: Option<&dyn Any>, _: &Ctx, _: &PodInfo, node: &NodeInfo) -> i64 {
        if node.taints.is_empty() {
            return 0;
        }
        intolerable_prefer_no_schedule(score_tolerations(state), node)
    }

    fn score_nodes(&self, state: Option<&dyn Any>, ctx: &Ctx, _: &PodInfo, nodes: &[usize], out: &mut [i64]) {
        let tolerations = score_tolerations(state);
        for (o, &ni) in out.iter_mut().zip(nodes) {
            let node = ctx.snapshot.node(ni);
            *o = if node.taints.is_empty() { 0 } else { intolerable_prefer_no_schedule(tolerations, node) };
        }
    }

    fn normalize(&self, _: Option<&dyn Any>, _: &Ctx, _: &[usize], scores: &mut [i64]) -> bool {
        default_normalize(MAX, true, scores);
        true
    }
}
