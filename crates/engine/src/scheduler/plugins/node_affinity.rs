//! NodeAffinity: the pod's `nodeSelector` and required node affinity must match the
//! node's labels (Filter); preferred terms add their weight when they match (Score,
//! normalized so the best node gets 100). A required term that names nodes with
//! `matchFields: metadata.name In [...]` narrows the search to those nodes (PreFilter).

use std::any::Any;
use std::collections::BTreeSet;

use crate::scheduler::framework::{
    Code, Ctx, FilterPlugin, Plugin, PreFilterOutput, PreFilterPlugin, PreScorePlugin, ScorePlugin, StateData, Status,
};
use crate::scheduler::queue::{ClusterEvent, QueueingHint};
use crate::scheduler::selectors::{NodeTerm, RequiredNodeAffinity};
use crate::scheduler::snapshot::{NodeInfo, PodInfo};

use super::{default_normalize, MAX};

pub struct NodeAffinity;

pub const NAME: &str = "NodeAffinity";
pub const ERR_REASON_POD: &str = "node(s) didn't match Pod's node affinity/selector";
pub const ERR_REASON_CONFLICT: &str = "pod affinity terms conflict";

#[derive(Clone)]
struct PreFilterState {
    required: RequiredNodeAffinity,
}

#[derive(Clone)]
struct PreScoreState {
    preferred: Vec<(i32, NodeTerm)>,
}

impl Plugin for NodeAffinity {
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
        let required = RequiredNodeAffinity::from_pod(&pod.pod);
        let matches = |n: &k8s_openapi::api::core::v1::Node| {
            let labels = n.metadata.labels.clone().unwrap_or_default();
            required.matches(n.metadata.name.as_deref().unwrap_or(""), &labels)
        };
        match event {
            ClusterEvent::NodeAdded(n) => Some(if matches(n) { QueueingHint::Queue } else { QueueingHint::QueueSkip }),
            ClusterEvent::NodeUpdated { old, new } => {
                Some(if !matches(old) && matches(new) { QueueingHint::Queue } else { QueueingHint::QueueSkip })
            }
            _ => None,
        }
    }
}

impl PreFilterPlugin for NodeAffinity {
    fn pre_filter(&self, _: &Ctx, pod: &PodInfo) -> PreFilterOutput {
        let spec = pod.spec();
        let required_terms = spec
            .and_then(|s| s.affinity.as_ref())
            .and_then(|a| a.node_affinity.as_ref())
            .and_then(|na| na.required_during_scheduling_ignored_during_execution.as_ref());
        let node_selector = spec.and_then(|s| s.node_selector.as_ref());
        if required_terms.is_none() && node_selector.is_none() {
            return PreFilterOutput::skip();
        }
        let state = PreFilterState { required: RequiredNodeAffinity::from_pod(&pod.pod) };
        let Some(terms) = required_terms.filter(|t| !t.node_selector_terms.is_empty()) else {
            return PreFilterOutput::ok(state);
        };
        // Nodes named by `metadata.name In` field requirements: ANDed within a term,
        // ORed across terms; a term without such a requirement allows every node.
        let mut names: Option<BTreeSet<String>> = None;
        for t in &terms.node_selector_terms {
            let mut term_names: Option<BTreeSet<String>> = None;
            for r in t.match_fields.iter().flatten() {
                if r.key == "metadata.name" && r.operator == "In" {
                    let s: BTreeSet<String> = r.values.iter().flatten().cloned().collect();
                    term_names = Some(match term_names {
                        None => s,
                        Some(prev) => prev.intersection(&s).cloned().collect(),
                    });
                }
            }
            match term_names {
                None => return PreFilterOutput::ok(state),
                Some(tn) => names.get_or_insert_with(BTreeSet::new).extend(tn),
            }
        }
        match names {
            Some(n) if n.is_empty() => {
                PreFilterOutput::status(Status::new(Code::UnschedulableAndUnresolvable, ERR_REASON_CONFLICT))
            }
            Some(n) => PreFilterOutput { status: Status::success(), node_names: Some(n), state: Some(Box::new(state)) },
            None => PreFilterOutput::ok(state),
        }
    }
}

impl FilterPlugin for NodeAffinity {
    fn filter(&self, state: Option<&dyn Any>, _: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Status {
        let computed;
        let required = match state.and_then(|s| s.downcast_ref::<PreFilterState>()) {
            Some(s) => &s.required,
            None => {
                computed = RequiredNodeAffinity::from_pod(&pod.pod);
                &computed
            }
        };
        if required.matches(&node.name, &node.labels) {
            Status::success()
        } else {
            Status::unresolvable(ERR_REASON_POD)
        }
    }
}

impl PreScorePlugin for NodeAffinity {
    fn pre_score(&self, _: &Ctx, pod: &PodInfo, _: &[usize]) -> (Status, Option<Box<dyn StateData>>) {
        let preferred = pod
            .spec()
            .and_then(|s| s.affinity.as_ref())
            .and_then(|a| a.node_affinity.as_ref())
            .and_then(|na| na.preferred_during_scheduling_ignored_during_execution.as_ref());
        let Some(preferred) = preferred else { return (Status::skip(), None) };
        let terms =
            preferred.iter().filter(|t| t.weight != 0).map(|t| (t.weight, NodeTerm::parse(&t.preference))).collect();
        (Status::success(), Some(Box::new(PreScoreState { preferred: terms })))
    }
}

impl ScorePlugin for NodeAffinity {
    fn score(&self, state: Option<&dyn Any>, _: &Ctx, _: &PodInfo, node: &NodeInfo) -> i64 {
        let Some(s) = state.and_then(|s| s.downcast_ref::<PreScoreState>()) else { return 0 };
        s.preferred.iter().filter(|(_, t)| t.matches(&node.name, &node.labels)).map(|(w, _)| i64::from(*w)).sum()
    }

    fn normalize(&self, _: Option<&dyn Any>, _: &Ctx, _: &[usize], scores: &mut [i64]) -> bool {
        default_normalize(MAX, false, scores);
        true
    }
}
