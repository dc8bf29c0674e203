//! DefaultPreemption (PostFilter): when no node fits, look for a node where evicting
//! lower-priority pods would let the pod fit, pick the best such node, nominate it and
//! name the victims.
//!
//! 1. A pod with `preemptionPolicy: Never` is not eligible.
//! 2. Only nodes rejected as Unschedulable (not UnschedulableAndUnresolvable) are
//!    candidates: a taint or a request larger than the node cannot be fixed by evicting.
//! 3. On each candidate, remove every pod of lower priority; if the pod still does not
//!    fit, the node is out (its filter status explains why); otherwise add pods back,
//!    most important first, keeping each one that still lets the pod fit. The rest are
//!    the victims. Pods whose eviction would take a PodDisruptionBudget below zero
//!    disruptions allowed (`filterPodsWithPDBViolation`: each covering budget's
//!    `status.disruptionsAllowed`, counted down pod by pod, a pod already in its
//!    `disruptedPods` not counted) are added back first; those that still have to go are
//!    the node's PDB violations. Budgets are best effort: a violating victim is still
//!    preempted (deleted, not evicted).
//! 4. Among nodes with victims pick, in order: fewest PodDisruptionBudget violations,
//!    lowest highest-victim priority, smallest sum of priorities, fewest victims, latest
//!    start time of the highest-priority victims, then the first.
//!
//! Without a candidate the message is a FitError over the evaluated nodes, with every
//! other node counted as "Preemption is not helpful for scheduling", prefixed by
//! `preemption: `.

use std::any::Any;

use crate::scheduler::framework::{
    Code, NodeToStatus, Plugin, PostFilterCtx, PostFilterPlugin, PostFilterResult, Status, Victim,
};
use crate::scheduler::schedule_one::fit_error_message;
use crate::scheduler::snapshot::PodInfo;

pub struct DefaultPreemption;

pub const NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";
pub const NO_VICTIMS: &str = "No preemption victims found for incoming pod";

/// `MinCandidateNodesPercentage` and `MinCandidateNodesAbsolute` defaults.
const MIN_CANDIDATE_NODES_PERCENTAGE: usize = 10;
const MIN_CANDIDATE_NODES_ABSOLUTE: usize = 100;

struct Candidate {
    node: usize,
    /// Victims, most important first.
    victims: Vec<std::sync::Arc<PodInfo>>,
    /// How many victims a PodDisruptionBudget would not allow to go.
    pdb_violations: usize,
}

/// `filterPodsWithPDBViolation`: splits `pods` (in their order) into those whose eviction
/// would violate a budget and the others.
fn split_by_pdb_violation(
    pods: Vec<std::sync::Arc<PodInfo>>,
    pdbs: &[crate::scheduler::snapshot::PdbInfo],
) -> (Vec<std::sync::Arc<PodInfo>>, Vec<std::sync::Arc<PodInfo>>) {
    let mut allowed: Vec<i32> = pdbs.iter().map(|b| b.disruptions_allowed).collect();
    let (mut violating, mut other) = (Vec::new(), Vec::new());
    for p in pods {
        let mut violated = false;
        for (i, b) in pdbs.iter().enumerate() {
            if !b.covers(&p) || b.disrupted_pods.contains(&p.name) {
                continue;
            }
            allowed[i] -= 1;
            if allowed[i] < 0 {
                violated = true;
            }
        }
        if violated {
            violating.push(p);
        } else {
            other.push(p);
        }
    }
    (violating, other)
}

/// `MoreImportantPod`: higher priority, then earlier start (no start time = now).
fn more_important(a: &PodInfo, b: &PodInfo) -> std::cmp::Ordering {
    b.priority.cmp(&a.priority).then(a.start_time_ms.unwrap_or(i64::MAX).cmp(&b.start_time_ms.unwrap_or(i64::MAX)))
}

impl Plugin for DefaultPreemption {
    fn name(&self) -> &'static str {
        "DefaultPreemption"
    }
    fn as_post_filter(&self) -> Option<&dyn PostFilterPlugin> {
        Some(self)
    }
}

impl DefaultPreemption {
    /// `PodEligibleToPreemptOthers`.
    fn eligible(&self, pfx: &PostFilterCtx, pod: &PodInfo, statuses: &NodeToStatus) -> Result<(), String> {
        if pod.spec().and_then(|s| s.preemption_policy.as_deref()) == Some("Never") {
            return Err("not eligible due to preemptionPolicy=Never.".into());
        }
        if !pod.nominated_node.is_empty() {
            let snap = pfx.ctx.snapshot;
            if let Some(i) = snap.node_index(&pod.nominated_node) {
                if statuses.get(i).code == Code::UnschedulableAndUnresolvable {
                    return Ok(());
                }
                let node = snap.node(i);
                if node.pods.iter().any(|p| p.priority < pod.priority && p.terminating) {
                    return Err("not eligible due to a terminating pod on the nominated node.".into());
                }
            }
        }
        Ok(())
    }

    /// `SelectVictimsOnNode`.
    fn select_victims(&self, pfx: &PostFilterCtx, pod: &PodInfo, node_index: usize) -> Result<Candidate, Status> {
        let ctx = pfx.ctx;
        let fw = pfx.fw;
        let mut node = ctx.snapshot.node(node_index).clone();
        let mut state = pfx.state.clone();
        let mut potential: Vec<_> = node.pods.iter().filter(|p| p.priority < pod.priority).cloned().collect();
        for p in &potential {
            node.remove_pod(&p.namespace, &p.name);
            fw.run_extensions(&mut state, ctx, pod, p, &node, false);
        }
        if potential.is_empty() {
            return Err(Status::unresolvable(NO_VICTIMS));
        }
        let status = fw.run_filters_with_nominated(&state, ctx, pod, &node, None);
        if !status.is_success() {
            return Err(status);
        }
        crate::sort::sort_by(&mut potential, |a, b| more_important(a, b));
        // Reprieve the pods a budget protects first, then the others, each group most
        // important first.
        let (violating, other) = split_by_pdb_violation(potential, &ctx.snapshot.pdbs);
        let both = !violating.is_empty() && !other.is_empty();
        let mut victims = Vec::new();
        let mut pdb_violations = 0;
        for (protected, group) in [(true, violating), (false, other)] {
            for p in group {
                node.add_pod(p.clone());
                fw.run_extensions(&mut state, ctx, pod, &p, &node, true);
                if !fw.run_filters_with_nominated(&state, ctx, pod, &node, None).is_success() {
                    node.remove_pod(&p.namespace, &p.name);
                    fw.run_extensions(&mut state, ctx, pod, &p, &node, false);
                    victims.push(p);
                    pdb_violations += usize::from(protected);
                }
            }
        }
        if both {
            crate::sort::sort_by(&mut victims, |a, b| more_important(a, b));
        }
        if victims.is_empty() {
            return Err(Status::error(format!("expected at least one victim pod on node {:?}", node.name)));
        }
        Ok(Candidate { node: node_index, victims, pdb_violations })
    }
}

/// `pickOneNodeForPreemption`.
fn pick_one(cands: &[Candidate]) -> usize {
    let criteria: [&dyn Fn(&Candidate) -> i128; 5] = [
        &|c| -(c.pdb_violations as i128),
        &|c| -i128::from(c.victims[0].priority),
        &|c| -c.victims.iter().map(|p| i128::from(p.priority) + i128::from(i32::MAX) + 1).sum::<i128>(),
        &|c| -(c.victims.len() as i128),
        &|c| {
            // Earliest start among the highest-priority victims; later is better.
            let top = c.victims[0].priority;
            let earliest =
                c.victims.iter().filter(|p| p.priority == top).map(|p| p.start_time_ms.unwrap_or(i64::MAX)).min();
            i128::from(earliest.unwrap_or(i64::MIN))
        },
    ];
    let mut remaining: Vec<usize> = (0..cands.len()).collect();
    for f in criteria {
        let best = remaining.iter().map(|&i| f(&cands[i])).max().unwrap_or(0);
        remaining.retain(|&i| f(&cands[i]) == best);
        if remaining.len() == 1 {
            break;
        }
    }
    remaining[0]
}

impl PostFilterPlugin for DefaultPreemption {
    fn post_filter(
        &self,
        pfx: &mut PostFilterCtx,
        _: Option<&dyn Any>,
        pod: &PodInfo,
        statuses: &NodeToStatus,
    ) -> (Status, Option<PostFilterResult>) {
        let prefixed = |code: Code, msg: String| Status::new(code, format!("preemption: {msg}"));
        if let Err(msg) = self.eligible(pfx, pod, statuses) {
            return (prefixed(Code::Unschedulable, msg), None);
        }
        let snap = pfx.ctx.snapshot;
        let order = snap.node_order();
        let potential = statuses.nodes_with_code(order, Code::Unschedulable);
        let mut evaluated = NodeToStatus { explicit: Vec::new(), absent: Status::unresolvable(NOT_HELPFUL) };
        let mut candidates = Vec::new();
        if !potential.is_empty() {
            let n = potential.len();
            let offset = pfx.rng.below(n as u64) as usize;
            let wanted = (n * MIN_CANDIDATE_NODES_PERCENTAGE / 100).max(MIN_CANDIDATE_NODES_ABSOLUTE).min(n);
            for k in 0..n {
                let i = potential[(offset + k) % n];
                match self.select_victims(pfx, pod, i) {
                    Ok(c) => {
                        candidates.push(c);
                        if candidates.len() >= wanted {
                            break;
                        }
                    }
                    Err(status) => evaluated.explicit.push((i, status)),
                }
            }
        }
        if candidates.is_empty() {
            let msg = fit_error_message(snap.num_nodes(), "", &evaluated, "");
            let result = PostFilterResult { nominated_node: Some(String::new()), ..Default::default() };
            return (prefixed(Code::Unschedulable, msg), Some(result));
        }
        let best = &candidates[pick_one(&candidates)];
        let node = snap.node(best.node);
        let victims = best
            .victims
            .iter()
            .map(|p| Victim {
                namespace: p.namespace.clone(),
                name: p.name.clone(),
                uid: p.uid.clone(),
                node: node.name.clone(),
                priority: p.priority,
            })
            .collect();
        let cleared_nominations = snap
            .nominated
            .iter()
            .filter(|p| p.nominated_node == node.name && p.priority < pod.priority)
            .map(|p| p.key())
            .collect();
        let result = PostFilterResult { nominated_node: Some(node.name.clone()), victims, cleared_nominations };
        (Status::success(), Some(result))
    }
}
