//! PodTopologySpread: spreads matching pods over topology domains (nodes, zones, ...).
//!
//! Filter (`whenUnsatisfiable: DoNotSchedule` constraints): for each constraint, the node
//! must carry the topology label, and placing the pod in the node's domain must keep
//! `matching pods in that domain + (1 if the pod itself matches) - global minimum` at or
//! below `maxSkew`. Domains are counted over the nodes that pass the pod's node affinity
//! (`nodeAffinityPolicy: Honor`, the default) and, with `nodeTaintsPolicy: Honor`, whose
//! taints the pod tolerates. With fewer domains than `minDomains`, the minimum is 0.
//!
//! Score (`ScheduleAnyway` constraints): fewer matching pods in the node's domains = a
//! higher score. A pod without constraints that belongs to a Service, ReplicaSet,
//! StatefulSet or ReplicationController gets the system defaults: hostname with maxSkew 3
//! and zone with maxSkew 5, both ScheduleAnyway.

use std::any::Any;
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::TopologySpreadConstraint;

use crate::scheduler::framework::{
    Ctx, FilterPlugin, Plugin, PreFilterOutput, PreFilterPlugin, PreScorePlugin, ScorePlugin, StateData, Status,
    MAX_NODE_SCORE,
};
use crate::scheduler::queue::{ClusterEvent, QueueingHint};
use crate::scheduler::selectors::{first_untolerated, Labels, RequiredNodeAffinity, Selector};
use crate::scheduler::snapshot::{ClusterSnapshot, NodeInfo, PodInfo};

pub const ERR_REASON_CONSTRAINTS_NOT_MATCH: &str = "node(s) didn't match pod topology spread constraints";
pub const ERR_REASON_NODE_LABEL_NOT_MATCH: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";

const HOSTNAME: &str = "kubernetes.io/hostname";
const ZONE: &str = "topology.kubernetes.io/zone";

pub struct PodTopologySpread {
    /// `defaultingType: System` (the default configuration).
    system_defaulted: bool,
}

impl PodTopologySpread {
    pub fn system_defaulted() -> PodTopologySpread {
        PodTopologySpread { system_defaulted: true }
    }
}

fn system_default_constraints() -> Vec<TopologySpreadConstraint> {
    vec![
        TopologySpreadConstraint {
            topology_key: HOSTNAME.into(),
            when_unsatisfiable: "ScheduleAnyway".into(),
            max_skew: 3,
            ..Default::default()
        },
        TopologySpreadConstraint {
            topology_key: ZONE.into(),
            when_unsatisfiable: "ScheduleAnyway".into(),
            max_skew: 5,
            ..Default::default()
        },
    ]
}

/// A parsed constraint (`topologySpreadConstraint`).
#[derive(Clone, Debug)]
pub struct Constraint {
    pub max_skew: i64,
    pub topology_key: String,
    pub selector: Selector,
    pub min_domains: i64,
    pub honor_node_affinity: bool,
    pub honor_node_taints: bool,
}

impl Constraint {
    fn includes_node(&self, pod: &PodInfo, node: &NodeInfo, required: &RequiredNodeAffinity) -> bool {
        if self.honor_node_affinity && !required.matches(&node.name, &node.labels) {
            return false;
        }
        if self.honor_node_taints && first_untolerated(&node.taints, pod.tolerations()).is_some() {
            return false;
        }
        true
    }
}

fn parse_constraints(list: &[TopologySpreadConstraint], pod_labels: &Labels, action: &str) -> Vec<Constraint> {
    let mut out = Vec::new();
    for c in list.iter().filter(|c| c.when_unsatisfiable == action) {
        let mut selector = Selector::from_label_selector(c.label_selector.as_ref());
        // matchLabelKeys: the pod's own values for those keys are ANDed in.
        let mut extra = BTreeMap::new();
        for k in c.match_label_keys.iter().flatten() {
            if let Some(v) = pod_labels.get(k) {
                extra.insert(k.clone(), v.clone());
            }
        }
        if !extra.is_empty() {
            selector.add(&Selector::from_map(&extra));
        }
        out.push(Constraint {
            max_skew: i64::from(c.max_skew),
            topology_key: c.topology_key.clone(),
            selector,
            min_domains: c.min_domains.map(i64::from).unwrap_or(1),
            honor_node_affinity: c.node_affinity_policy.as_deref() != Some("Ignore"),
            honor_node_taints: c.node_taints_policy.as_deref() == Some("Honor"),
        });
    }
    out
}

/// `helper.DefaultSelector`: the selectors of the Services selecting the pod, and of its
/// controller (ReplicationController, ReplicaSet or StatefulSet), combined.
pub fn default_selector(snap: &ClusterSnapshot, pod: &PodInfo) -> Selector {
    let mut set = BTreeMap::new();
    for s in &snap.services {
        if s.metadata.namespace.as_deref().unwrap_or("default") != pod.namespace {
            continue;
        }
        let Some(sel) = s.spec.as_ref().and_then(|sp| sp.selector.as_ref()) else { continue };
        if Selector::from_map(sel).matches(&pod.labels) {
            set.extend(sel.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    }
    let owner = pod.pod.metadata.owner_references.iter().flatten().find(|o| o.controller == Some(true));
    let mut selector = Selector::from_map(&set);
    let Some(owner) = owner else { return selector };
    let in_ns = |m: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta| {
        m.name.as_deref() == Some(owner.name.as_str()) && m.namespace.as_deref().unwrap_or("default") == pod.namespace
    };
    match (owner.api_version.as_str(), owner.kind.as_str()) {
        ("v1", "ReplicationController") => {
            if let Some(rc) = snap.replication_controllers.iter().find(|rc| in_ns(&rc.metadata)) {
                if let Some(sel) = rc.spec.as_ref().and_then(|s| s.selector.as_ref()) {
                    set.extend(sel.iter().map(|(k, v)| (k.clone(), v.clone())));
                    selector = Selector::from_map(&set);
                }
            }
        }
        ("apps/v1", "ReplicaSet") => {
            if let Some(rs) = snap.replica_sets.iter().find(|rs| in_ns(&rs.metadata)) {
                let other = Selector::from_label_selector(Some(&rs.spec.selector));
                if !matches!(other, Selector::Nothing) {
                    selector.add(&other);
                }
            }
        }
        ("apps/v1", "StatefulSet") => {
            if let Some(ss) = snap.stateful_sets.iter().find(|ss| in_ns(&ss.metadata)) {
                let other = Selector::from_label_selector(Some(&ss.spec.selector));
                if !matches!(other, Selector::Nothing) {
                    selector.add(&other);
                }
            }
        }
        _ => {}
    }
    selector
}

impl PodTopologySpread {
    /// The pod's constraints for `action`, or the defaults when it declares none.
    fn constraints(&self, snap: &ClusterSnapshot, pod: &PodInfo, action: &str) -> Vec<Constraint> {
        let declared = pod.spec().and_then(|s| s.topology_spread_constraints.as_ref()).filter(|c| !c.is_empty());
        if let Some(list) = declared {
            return parse_constraints(list, &pod.labels, action);
        }
        if !self.system_defaulted {
            return Vec::new();
        }
        let mut cs = parse_constraints(&system_default_constraints(), &pod.labels, action);
        if cs.is_empty() {
            return cs;
        }
        let selector = default_selector(snap, pod);
        if selector.is_empty() {
            return Vec::new();
        }
        for c in &mut cs {
            c.selector = selector.clone();
        }
        cs
    }
}

fn has_all_keys(labels: &Labels, cs: &[Constraint]) -> bool {
    cs.iter().all(|c| labels.contains_key(&c.topology_key))
}

fn count_matching(node: &NodeInfo, selector: &Selector, ns: &str) -> i64 {
    node.pods.iter().filter(|p| !p.terminating && p.namespace == ns && selector.matches(&p.labels)).count() as i64
}

/// Filter state: per constraint, matching pods per domain and the current minimum.
#[derive(Clone, Debug)]
struct PreFilterState {
    constraints: Vec<Constraint>,
    counts: Vec<BTreeMap<String, i64>>,
    min: Vec<i64>,
    required: RequiredNodeAffinity,
}

impl PreFilterState {
    fn recompute_min(&mut self, i: usize) {
        self.min[i] = self.counts[i].values().copied().min().unwrap_or(i64::from(i32::MAX));
    }

    fn min_match(&self, i: usize) -> i64 {
        if (self.counts[i].len() as i64) < self.constraints[i].min_domains {
            0
        } else {
            self.min[i]
        }
    }

    fn update(&mut self, pod: &PodInfo, other: &PodInfo, node: &NodeInfo, delta: i64) {
        if other.namespace != pod.namespace || !has_all_keys(&node.labels, &self.constraints) {
            return;
        }
        for i in 0..self.constraints.len() {
            let c = &self.constraints[i];
            if !c.selector.matches(&other.labels) || !c.includes_node(pod, node, &self.required) {
                continue;
            }
            let v = node.labels.get(&c.topology_key).cloned().unwrap_or_default();
            *self.counts[i].entry(v).or_insert(0) += delta;
            self.recompute_min(i);
        }
    }
}

/// Score state.
#[derive(Clone, Debug)]
struct PreScoreState {
    constraints: Vec<Constraint>,
    ignored: Vec<bool>,
    counts: Vec<BTreeMap<String, i64>>,
    weights: Vec<f64>,
}

impl Plugin for PodTopologySpread {
    fn name(&self) -> &'static str {
        "PodTopologySpread"
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
        let keys: Vec<String> = pod
            .spec()
            .and_then(|s| s.topology_spread_constraints.as_ref())
            .into_iter()
            .flatten()
            .map(|c| c.topology_key.clone())
            .collect();
        let selects = |p: &k8s_openapi::api::core::v1::Pod| {
            let labels = p.metadata.labels.clone().unwrap_or_default();
            let list = pod.spec().and_then(|s| s.topology_spread_constraints.clone()).unwrap_or_default();
            parse_constraints(&list, &pod.labels, "DoNotSchedule").iter().any(|c| c.selector.matches(&labels))
                && p.metadata.namespace.as_deref().unwrap_or("default") == pod.namespace
        };
        let node_has_keys = |n: &k8s_openapi::api::core::v1::Node| {
            let l = n.metadata.labels.clone().unwrap_or_default();
            keys.iter().all(|k| l.contains_key(k))
        };
        let q = |b: bool| if b { QueueingHint::Queue } else { QueueingHint::QueueSkip };
        match event {
            ClusterEvent::PodAdded(p) | ClusterEvent::PodDeleted(p) => Some(q(selects(p))),
            ClusterEvent::PodUpdated { old, new } => Some(q(selects(old) || selects(new))),
            ClusterEvent::NodeAdded(n) | ClusterEvent::NodeDeleted(n) => Some(q(node_has_keys(n))),
            ClusterEvent::NodeUpdated { old, new } => {
                let changed = keys.iter().any(|k| {
                    old.metadata.labels.as_ref().and_then(|l| l.get(k))
                        != new.metadata.labels.as_ref().and_then(|l| l.get(k))
                });
                Some(q(changed))
            }
            _ => None,
        }
    }
}

impl PreFilterPlugin for PodTopologySpread {
    fn pre_filter(&self, ctx: &Ctx, pod: &PodInfo) -> PreFilterOutput {
        let constraints = self.constraints(ctx.snapshot, pod, "DoNotSchedule");
        if constraints.is_empty() {
            return PreFilterOutput::skip();
        }
        let required = RequiredNodeAffinity::from_pod(&pod.pod);
        let mut counts = vec![BTreeMap::new(); constraints.len()];
        for node in ctx.snapshot.nodes() {
            if !has_all_keys(&node.labels, &constraints) {
                continue;
            }
            for (i, c) in constraints.iter().enumerate() {
                if !c.includes_node(pod, node, &required) {
                    continue;
                }
                let v = node.labels.get(&c.topology_key).cloned().unwrap_or_default();
                *counts[i].entry(v).or_insert(0) += count_matching(node, &c.selector, &pod.namespace);
            }
        }
        let n = constraints.len();
        let mut state = PreFilterState { constraints, counts, min: vec![0; n], required };
        for i in 0..n {
            state.recompute_min(i);
        }
        PreFilterOutput::ok(state)
    }

    fn has_extensions(&self) -> bool {
        true
    }

    fn add_pod(&self, state: &mut dyn Any, _: &Ctx, pod: &PodInfo, other: &PodInfo, node: &NodeInfo) {
        if let Some(s) = state.downcast_mut::<PreFilterState>() {
            s.update(pod, other, node, 1);
        }
    }

    fn remove_pod(&self, state: &mut dyn Any, _: &Ctx, pod: &PodInfo, other: &PodInfo, node: &NodeInfo) {
        if let Some(s) = state.downcast_mut::<PreFilterState>() {
            s.update(pod, other, node, -1);
        }
    }
}

impl FilterPlugin for PodTopologySpread {
    fn filter(&self, state: Option<&dyn Any>, _: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Status {
        let Some(s) = state.and_then(|s| s.downcast_ref::<PreFilterState>()) else {
            return Status::error("reading \"PreFilterPodTopologySpread\" from cycleState: not found");
        };
        for (i, c) in s.constraints.iter().enumerate() {
            let Some(value) = node.labels.get(&c.topology_key) else {
                return Status::unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH);
            };
            let self_match = i64::from(c.selector.matches(&pod.labels));
            let matching = s.counts[i].get(value).copied().unwrap_or(0);
            if matching + self_match - s.min_match(i) > c.max_skew {
                return Status::unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH);
            }
        }
        Status::success()
    }
}

impl PreScorePlugin for PodTopologySpread {
    fn pre_score(&self, ctx: &Ctx, pod: &PodInfo, nodes: &[usize]) -> (Status, Option<Box<dyn StateData>>) {
        let snap = ctx.snapshot;
        if nodes.is_empty() || snap.num_nodes() == 0 {
            return (Status::skip(), None);
        }
        let constraints = self.constraints(snap, pod, "ScheduleAnyway");
        if constraints.is_empty() {
            return (Status::skip(), None);
        }
        let explicit = pod.spec().and_then(|s| s.topology_spread_constraints.as_ref()).is_some_and(|c| !c.is_empty());
        // Nodes without every topology label are ignored, except with the system
        // defaults (so nodes without a zone label still spread by hostname).
        let require_all = explicit || !self.system_defaulted;
        let mut ignored = vec![false; snap.num_nodes()];
        let mut counts = vec![BTreeMap::<String, i64>::new(); constraints.len()];
        let mut sizes = vec![0usize; constraints.len()];
        let mut considered = 0usize;
        for &i in nodes {
            let node = snap.node(i);
            if require_all && !has_all_keys(&node.labels, &constraints) {
                ignored[i] = true;
                continue;
            }
            considered += 1;
            for (ci, c) in constraints.iter().enumerate() {
                if c.topology_key == HOSTNAME {
                    continue;
                }
                let v = node.labels.get(&c.topology_key).cloned().unwrap_or_default();
                if let std::collections::btree_map::Entry::Vacant(e) = counts[ci].entry(v) {
                    e.insert(0);
                    sizes[ci] += 1;
                }
            }
        }
        let weights = constraints
            .iter()
            .zip(&sizes)
            .map(|(c, sz)| {
                let size = if c.topology_key == HOSTNAME { considered } else { *sz };
                ((size + 2) as f64).ln()
            })
            .collect();
        let required = RequiredNodeAffinity::from_pod(&pod.pod);
        for node in snap.nodes() {
            if require_all && !has_all_keys(&node.labels, &constraints) {
                continue;
            }
            for (ci, c) in constraints.iter().enumerate() {
                if !c.includes_node(pod, node, &required) {
                    continue;
                }
                let v = node.labels.get(&c.topology_key).cloned().unwrap_or_default();
                if let Some(n) = counts[ci].get_mut(&v) {
                    *n += count_matching(node, &c.selector, &pod.namespace);
                }
            }
        }
        (Status::success(), Some(Box::new(PreScoreState { constraints, ignored, counts, weights })))
    }
}

impl ScorePlugin for PodTopologySpread {
    fn score(&self, state: Option<&dyn Any>, ctx: &Ctx, pod: &PodInfo, node: &NodeInfo) -> i64 {
        let Some(s) = state.and_then(|s| s.downcast_ref::<PreScoreState>()) else { return 0 };
        if ctx.snapshot.node_index(&node.name).is_some_and(|i| s.ignored[i]) {
            return 0;
        }
        let mut score = 0f64;
        for (i, c) in s.constraints.iter().enumerate() {
            let Some(v) = node.labels.get(&c.topology_key) else { continue };
            let cnt = if c.topology_key == HOSTNAME {
                count_matching(node, &c.selector, &pod.namespace)
            } else {
                s.counts[i].get(v).copied().unwrap_or(0)
            };
            score += cnt as f64 * s.weights[i] + (c.max_skew - 1) as f64;
        }
        score.round() as i64
    }

    fn normalize(&self, state: Option<&dyn Any>, _: &Ctx, nodes: &[usize], scores: &mut [i64]) -> bool {
        let Some(s) = state.and_then(|s| s.downcast_ref::<PreScoreState>()) else { return true };
        let mut min = i64::MAX;
        let mut max = 0i64;
        for (k, &i) in nodes.iter().enumerate() {
            if s.ignored[i] {
                continue;
            }
            min = min.min(scores[k]);
            max = max.max(scores[k]);
        }
        for (k, &i) in nodes.iter().enumerate() {
            if s.ignored[i] {
                scores[k] = 0;
            } else if max == 0 {
                scores[k] = MAX_NODE_SCORE;
            } else {
                scores[k] = MAX_NODE_SCORE * (max + min - scores[k]) / max;
            }
        }
        true
    }
}
