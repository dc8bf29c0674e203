//! NodeResourcesBalancedAllocation: favours nodes whose cpu and memory use become more
//! balanced with the pod. For each resource the fraction requested/allocatable (capped
//! at 1) is taken with and without the pod; balance = `(1 - std) * 100` where std is
//! the standard deviation of the fractions (for two resources, half their difference).
//! Since kubernetes#135573 (v1.36) the score is the change in balance mapped to 50..100:
//! `50 + (50 + with - without) / 2` (75 = unchanged). Requests are the real ones (no
//! 100m/200Mi defaults); a pod without cpu and memory requests is not scored at all
//! (PreScore returns Skip, kubernetes#129138).

use std::any::Any;

use crate::scheduler::framework::{Ctx, Plugin, PreScorePlugin, ScorePlugin, StateData, Status, MAX_NODE_SCORE};
use crate::scheduler::snapshot::{NodeInfo, PodInfo};

pub struct BalancedAllocation;

/// `(1 - std) * MaxNodeScore` over the resources the node offers.
pub fn balance(requested: [i64; 2], allocatable: [i64; 2]) -> i64 {
    let mut fractions = [0f64; 2];
    let mut n = 0;
    for i in 0..2 {
        if allocatable[i] == 0 {
            continue;
        }
        fractions[n] = (requested[i] as f64 / allocatable[i] as f64).min(1.0);
        n += 1;
    }
    let std = if n == 2 { ((fractions[0] - fractions[1]) / 2.0).abs() } else { 0.0 };
    ((1.0 - std) * MAX_NODE_SCORE as f64) as i64
}

pub fn balanced_score(pod: &PodInfo, node: &NodeInfo) -> i64 {
    let alloc = [node.allocatable.milli_cpu, node.allocatable.memory];
    let before = [node.requested.milli_cpu, node.requested.memory];
    let after = [before[0] + pod.resources.requests.milli_cpu, before[1] + pod.resources.requests.memory];
    let with = balance(after, alloc);
    let without = node.balance;
    MAX_NODE_SCORE / 2 + (MAX_NODE_SCORE / 2 + with - without) / 2
}

impl Plugin for BalancedAllocation {
    fn name(&self) -> &'static str {
        "NodeResourcesBalancedAllocation"
    }
    fn as_pre_score(&self) -> Option<&dyn PreScorePlugin> {
        Some(self)
    }
    fn as_score(&self) -> Option<&dyn ScorePlugin> {
        Some(self)
    }
}

impl PreScorePlugin for BalancedAllocation {
    fn pre_score(&self, _: &Ctx, pod: &PodInfo, _: &[usize]) -> (Status, Option<Box<dyn StateData>>) {
        let r = &pod.resources.requests;
        if r.milli_cpu == 0 && r.memory == 0 {
            return (Status::skip(), None);
        }
        (Status::success(), None)
    }
}

impl ScorePlugin for BalancedAllocation {
    fn score(&self, _: Option<&dyn Any>, _: &Ctx, pod: &PodInfo, node: &NodeInfo) -> i64 {
        balanced_score(pod, node)
    }
}
