//! InterPodAffinity: pods that want (or refuse) to share a topology domain with other
//! pods.
//!
//! Filter, in this order: (1) the pod's required affinity: every term needs a matching
//! pod in the node's domain for that term's topology key (a pod whose terms match only
//! itself may start the group when no pod matches anywhere); (2) the pod's required
//! anti-affinity: no matching pod in the node's domain; (3) the anti-affinity of pods
//! already running: the node must not be in a domain where a running pod refuses this
//! pod.
//! Score: preferred terms of the pod (and of running pods towards the pod, plus running
//! pods' required affinity with weight 1) add or subtract their weight for every node in
//! the matching domain; normalized to 0..100 between the lowest and highest node.

use std::any::Any;
use std::collections::BTreeMap;

use crate::scheduler::framework::{
    Ctx, FilterPlugin, Plugin, PreFilterOutput, PreFilterPlugin, PreScorePlugin, ScorePlugin, StateData, Status,
    MAX_NODE_SCORE,
};
use crate::scheduler::queue::{ClusterEvent, QueueingHint};
use crate::scheduler::selectors::{no_labels, Labels, Selector};
use crate::scheduler::snapshot::{AffinityTerm, ClusterSnapshot, NodeInfo, PodInfo, WeightedTerm};

pub struct InterPodAffinity;

pub const ERR_REASON_EXISTING_ANTI_AFFINITY: &str = "node(s) didn't satisfy existing pods anti-affinity rules";
pub const ERR_REASON_AFFINITY: &str = "node(s) didn't match pod affinity rules";
pub const ERR_REASON_ANTI_AFFINITY: &str = "node(s) didn't match pod anti-affinity rules";

/// `hardPodAffinityWeight` default.
const HARD_POD_AFFINITY_WEIGHT: i64 = 1;

type Counts = BTreeMap<(String, String), i64>;

fn bump(m: &mut Counts, node: &NodeInfo, key: &str, delta: i64) {
    if let Some(v) = node.labels.get(key) {
        let e = m.entry((key.to_string(), v.clone())).or_insert(0);
        *e += delta;
        if *e == 0 {
            m.remove(&(key.to_string(), v.clone()));
        }
    }
}

/// The incoming pod's terms have their namespaceSelector resolved into namespace names
/// (`mergeAffinityTermNamespacesIfNotEmpty`), so matching them needs no namespace labels.
fn merge_namespaces(snap: &ClusterSnapshot, t: &mut AffinityTerm) {
    if t.namespace_selector.is_empty() || matches!(t.namespace_selector, Selector::Nothing) {
        return;
    }
    for (name, ns) in &snap.namespaces {
        if t.namespace_selector.matches(ns.metadata.labels.as_ref().unwrap_or(no_labels()))
            && !t.namespaces.contains(name)
        {
            t.namespaces.push(name.clone());
        }
    }
    t.namespace_selector = Selector::Nothing;
}

fn matches_all(terms: &[AffinityTerm], pod: &PodInfo) -> bool {
    !terms.is_empty() && terms.iter().all(|t| t.matches(pod, no_labels()))
}

#[derive(Clone, Debug)]
struct PreFilterState {
    affinity_terms: Vec<AffinityTerm>,
    anti_affinity_terms: Vec<AffinityTerm>,
    /// Domains where running pods' required anti-affinity rejects the incoming pod.
    existing_anti: Counts,
    /// Domains with pods matching all of the pod's affinity terms.
    affinity: Counts,
    /// Domains with pods matching one of the pod's anti-affinity terms.
    anti: Counts,
    ns_labels: Labels,
    pod_matches_own_terms: bool,
}

impl PreFilterState {
    fn update(&mut self, other: &PodInfo, pod: &PodInfo, node: &NodeInfo, delta: i64) {
        for t in &other.required_anti_affinity {
            if t.matches(pod, &self.ns_labels) {
                bump(&mut self.existing_anti, node, &t.topology_key, delta);
            }
        }
        if matches_all(&self.affinity_terms, other) {
            for t in &self.affinity_terms {
                bump(&mut self.affinity, node, &t.topology_key, delta);
            }
        }
        for t in &self.anti_affinity_terms {
            if t.matches(other, no_labels()) {
                bump(&mut self.anti, node, &t.topology_key, delta);
            }
        }
    }
}

#[derive(Clone, Debug)]
struct PreScoreState {
    /// topology key -> value -> score.
    scores: BTreeMap<String, BTreeMap<String, i64>>,
}

fn add_score(scores: &mut BTreeMap<String, BTreeMap<String, i64>>, node: &NodeInfo, key: &str, w: i64) {
    if let Some(v) = node.labels.get(key) {
        *scores.entry(key.to_string()).or_default().entry(v.clone()).or_insert(0) += w;
    }
}

impl Plugin for InterPodAffinity {
    fn name(&self) -> &'static str {
        "InterPodAffinity"
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
        let relevant = |p: &k8s_openapi::api::core::v1::Pod| {
            let other = PodInfo::new(p.clone(), &Default::default());
            pod.required_affinity.iter().chain(&pod.required_anti_affinity).any(|t| t.matches(&other, no_labels()))
                || other.required_anti_affinity.iter().any(|t| t.matches(pod, no_labels()))
        };
        let q = |b: bool| if b { QueueingHint::Queue } else { QueueingHint::QueueSkip };
        match event {
            ClusterEvent::PodAdded(p) | ClusterEvent::PodDeleted(p) => Some(q(relevant(p))),
            ClusterEvent::PodUpdated { old, new } => Some(q(relevant(old) || relevant(new))),
            ClusterEvent::NodeAdded(_) => Some(QueueingHint::Queue),
            ClusterEvent::NodeUpdated { old, new } => Some(q(old.metadata.labels != new.metadata.labels)),
            _ => None,
        }
    }
}

impl PreFilterPlugin for InterPodAffinity {
    fn pre_filter(&self, ctx: &Ctx, pod: &PodInfo) -> PreFilterOutput {
        let snap = ctx.snapshot;
        let mut affinity_terms = pod.required_affinity.clone();
        let mut anti_affinity_terms = pod.required_anti_affinity.clone();
        affinity_terms.iter_mut().chain(anti_affinity_terms.iter_mut()).for_each(|t| merge_namespaces(snap, t));
        let ns_labels = snap.namespace_labels(&pod.namespace).clone();
        let mut state = PreFilterState {
            pod_matches_own_terms: matches_all(&affinity_terms, pod),
            affinity_terms,
            anti_affinity_terms,
            existing_anti: Counts::new(),
            affinity: Counts::new(),
            anti: Counts::new(),
            ns_labels,
        };
        for node in snap.nodes() {
            if node.pods_with_required_anti_affinity > 0 {
                for other in node.pods.iter().filter(|p| !p.required_anti_affinity.is_empty()) {
                    for t in &other.required_anti_affinity {
                        if t.matches(pod, &state.ns_labels) {
                            bump(&mut state.existing_anti, node, &t.topology_key, 1);
                        }
                    }
                }
            }
            if state.affinity_terms.is_empty() && state.anti_affinity_terms.is_empty() {
                continue;
            }
            for other in &node.pods {
                if matches_all(&state.affinity_terms, other) {
                    for t in &state.affinity_terms {
                        bump(&mut state.affinity, node, &t.topology_key, 1);
                    }
                }
                for t in &state.anti_affinity_terms {
                    if t.matches(other, no_labels()) {
                        bump(&mut state.anti, node, &t.topology_key, 1);
                    }
                }
            }
        }
        if state.existing_anti.is_empty() && state.affinity_terms.is_empty() && state.anti_affinity_terms.is_empty() {
            return PreFilterOutput::skip();
        }
        PreFilterOutput::ok(state)
    }

    fn has_extensions(&self) -> bool {
        true
    }

    fn add_pod(&self, state: &mut dyn Any, _: &Ctx, pod: &PodInfo, other: &PodInfo, node: &NodeInfo) {
        if let Some(s) = state.downcast_mut::<PreFilterState>() {
            s.update(other, pod, node, 1);
        }
    }

    fn remove_pod(&self, state: &mut dyn Any, _: &Ctx, pod: &PodInfo, other: &PodInfo, node: &NodeInfo) {
        if let Some(s) = state.downcast_mut::<PreFilterState>() {
            s.update(other, pod, node, -1);
        }
    }
}

impl FilterPlugin for InterPodAffinity {
    fn filter(&self, state: Option<&dyn Any>, _: &Ctx, _: &PodInfo, node: &NodeInfo) -> Status {
        let Some(s) = state.and_then(|s| s.downcast_ref::<PreFilterState>()) else {
            return Status::error("reading \"PreFilterInterPodAffinity\" from cycleState: not found");
        };
        // (1) required affinity
        let mut pods_exist = true;
        for t in &s.affinity_terms {
            match node.labels.get(&t.topology_key) {
                None => return Status::unresolvable(ERR_REASON_AFFINITY),
                Some(v) => {
                    if s.affinity.get(&(t.topology_key.clone(), v.clone())).copied().unwrap_or(0) <= 0 {
                        pods_exist = false;
                    }
                }
            }
        }
        if !(pods_exist || (s.affinity.is_empty() && s.pod_matches_own_terms)) {
            return Status::unresolvable(ERR_REASON_AFFINITY);
        }
        // (2) required anti-affinity
        for t in &s.anti_affinity_terms {
            if let Some(v) = node.labels.get(&t.topology_key) {
                if s.anti.get(&(t.topology_key.clone(), v.clone())).copied().unwrap_or(0) > 0 {
                    return Status::unschedulable(ERR_REASON_ANTI_AFFINITY);
                }
            }
        }
        // (3) running pods' anti-affinity
        if !s.existing_anti.is_empty() {
            for (k, v) in &node.labels {
                if s.existing_anti.get(&(k.clone(), v.clone())).copied().unwrap_or(0) > 0 {
                    return Status::unschedulable(ERR_REASON_EXISTING_ANTI_AFFINITY);
                }
            }
        }
        Status::success()
    }
}

impl PreScorePlugin for InterPodAffinity {
    fn pre_score(&self, ctx: &Ctx, pod: &PodInfo, nodes: &[usize]) -> (Status, Option<Box<dyn StateData>>) {
        let snap = ctx.snapshot;
        if nodes.is_empty() {
            return (Status::skip(), None);
        }
        let has_constraints = !pod.preferred_affinity.is_empty() || !pod.preferred_anti_affinity.is_empty();
        let merge = |ts: &[WeightedTerm]| -> Vec<WeightedTerm> {
            ts.iter()
                .cloned()
                .map(|mut w| {
                    merge_namespaces(snap, &mut w.term);
                    w
                })
                .collect()
        };
        let preferred = merge(&pod.preferred_affinity);
        let preferred_anti = merge(&pod.preferred_anti_affinity);
        let ns_labels = snap.namespace_labels(&pod.namespace);
        let mut scores = BTreeMap::new();
        for node in snap.nodes() {
            if !has_constraints && node.pods_with_affinity == 0 {
                continue;
            }
            if node.labels.is_empty() {
                continue;
            }
            for other in node.pods.iter().filter(|p| has_constraints || p.has_affinity()) {
                for w in &preferred {
                    if w.term.matches(other, no_labels()) {
                        add_score(&mut scores, node, &w.term.topology_key, i64::from(w.weight));
                    }
                }
                for w in &preferred_anti {
                    if w.term.matches(other, no_labels()) {
                        add_score(&mut scores, node, &w.term.topology_key, -i64::from(w.weight));
                    }
                }
                for t in &other.required_affinity {
                    if t.matches(pod, ns_labels) {
                        add_score(&mut scores, node, &t.topology_key, HARD_POD_AFFINITY_WEIGHT);
                    }
                }
                for w in &other.preferred_affinity {
                    if w.term.matches(pod, ns_labels) {
                        add_score(&mut scores, node, &w.term.topology_key, i64::from(w.weight));
                    }
                }
                for w in &other.preferred_anti_affinity {
                    if w.term.matches(pod, ns_labels) {
                        add_score(&mut scores, node, &w.term.topology_key, -i64::from(w.weight));
                    }
                }
            }
        }
        if scores.is_empty() {
            return (Status::skip(), None);
        }
        (Status::success(), Some(Box::new(PreScoreState { scores })))
    }
}

impl ScorePlugin for InterPodAffinity {
    fn score(&self, state: Option<&dyn Any>, _: &Ctx, _: &PodInfo, node: &NodeInfo) -> i64 {
        let Some(s) = state.and_then(|s| s.downcast_ref::<PreScoreState>()) else { return 0 };
        s.scores.iter().filter_map(|(k, vals)| node.labels.get(k).and_then(|v| vals.get(v))).sum()
    }

    fn normalize(&self, state: Option<&dyn Any>, _: &Ctx, _: &[usize], scores: &mut [i64]) -> bool {
        if state.and_then(|s| s.downcast_ref::<PreScoreState>()).is_none() {
            return true;
        }
        let min = scores.iter().copied().min().unwrap_or(0);
        let max = scores.iter().copied().max().unwrap_or(0);
        let diff = max - min;
        for s in scores.iter_mut() {
            *s = if diff > 0 { (MAX_NODE_SCORE as f64 * ((*s - min) as f64 / diff as f64)) as i64 } else { 0 };
        }
        true
    }
}
