//! Label selectors, node selectors and taint/toleration matching, as the scheduler
//! evaluates them (apimachinery `labels`, component-helpers `nodeaffinity` and
//! `corev1` helpers). Parsed once per pod, then matched many times.

use crate::labels::{Operator, Requirement};
use k8s_openapi::api::core::v1::{NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Taint, Toleration};

/// Label selectors live in `crate::labels`; the scheduler parses them once per pod there.
pub use crate::labels::{no_labels, Selector, Set as Labels};

/// One parsed requirement of a node selector term: a label requirement (`In`, `NotIn`,
/// `Exists`, `DoesNotExist`, matched by `crate::labels`) or a numeric comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
enum NodeReq {
    Label(Requirement),
    Gt(String, i64),
    Lt(String, i64),
}

impl NodeReq {
    fn parse(r: &NodeSelectorRequirement) -> Option<NodeReq> {
        let values = r.values.clone().unwrap_or_default();
        let one_int = || if values.len() == 1 { values[0].trim().parse::<i64>().ok() } else { None };
        Some(match r.operator.as_str() {
            "Gt" => NodeReq::Gt(r.key.clone(), one_int()?),
            "Lt" => NodeReq::Lt(r.key.clone(), one_int()?),
            op => {
                let op = match Operator::from_name(op)? {
                    op @ (Operator::In | Operator::NotIn) if !values.is_empty() => op,
                    op @ (Operator::Exists | Operator::DoesNotExist) if values.is_empty() => op,
                    _ => return None,
                };
                NodeReq::Label(Requirement { key: r.key.clone(), op, values })
            }
        })
    }

    fn matches(&self, labels: &Labels) -> bool {
        match self {
            NodeReq::Label(r) => r.matches(labels),
            NodeReq::Gt(k, n) => labels.get(k).and_then(|v| v.parse::<i64>().ok()).is_some_and(|v| v > *n),
            NodeReq::Lt(k, n) => labels.get(k).and_then(|v| v.parse::<i64>().ok()).is_some_and(|v| v < *n),
        }
    }
}

/// A parsed node selector term: label expressions AND `metadata.name` field expressions.
/// A term with no requirement matches no node; a term that fails to parse matches no node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeTerm {
    labels: Vec<NodeReq>,
    /// `metadata.name` requirements (only `In` and `NotIn` are valid for fields).
    names: Vec<Requirement>,
    valid: bool,
}

impl NodeTerm {
    pub fn parse(t: &NodeSelectorTerm) -> NodeTerm {
        let mut term = NodeTerm { labels: Vec::new(), names: Vec::new(), valid: true };
        for r in t.match_expressions.iter().flatten() {
            match NodeReq::parse(r) {
                Some(p) => term.labels.push(p),
                None => term.valid = false,
            }
        }
        for r in t.match_fields.iter().flatten() {
            match NodeReq::parse(r) {
                Some(NodeReq::Label(p))
                    if matches!(p.op, Operator::In | Operator::NotIn) && r.key == "metadata.name" =>
                {
                    term.names.push(p)
                }
                _ => term.valid = false,
            }
        }
        term
    }

    pub fn matches(&self, node_name: &str, labels: &Labels) -> bool {
        if !self.valid || (self.labels.is_empty() && self.names.is_empty()) {
            return false;
        }
        if !self.labels.iter().all(|r| r.matches(labels)) {
            return false;
        }
        self.names.iter().all(|r| r.op.matches(Some(node_name), &r.values))
    }
}

/// `nodeaffinity.RequiredNodeAffinity`: the pod's `nodeSelector` AND its required node
/// affinity terms (ORed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequiredNodeAffinity {
    node_selector: Option<Labels>,
    terms: Option<Vec<NodeTerm>>,
}

impl RequiredNodeAffinity {
    pub fn from_pod(pod: &k8s_openapi::api::core::v1::Pod) -> RequiredNodeAffinity {
        let spec = pod.spec.as_ref();
        let node_selector = spec.and_then(|s| s.node_selector.clone());
        let terms = spec
            .and_then(|s| s.affinity.as_ref())
            .and_then(|a| a.node_affinity.as_ref())
            .and_then(|na| na.required_during_scheduling_ignored_during_execution.as_ref())
            .map(node_selector_terms);
        RequiredNodeAffinity { node_selector, terms }
    }

    pub fn is_empty(&self) -> bool {
        self.node_selector.is_none() && self.terms.is_none()
    }

    pub fn matches(&self, node_name: &str, labels: &Labels) -> bool {
        if let Some(sel) = &self.node_selector {
            if !crate::labels::set_matches(sel, Some(labels)) {
                return false;
            }
        }
        match &self.terms {
            Some(terms) => terms.iter().any(|t| t.matches(node_name, labels)),
            None => true,
        }
    }
}

pub fn node_selector_terms(ns: &NodeSelector) -> Vec<NodeTerm> {
    ns.node_selector_terms.iter().map(NodeTerm::parse).collect()
}

/// Whether the node matches a node selector (terms ORed), as `CheckNodeAffinity` for PVs.
pub fn node_selector_matches(ns: &NodeSelector, node_name: &str, labels: &Labels) -> bool {
    ns.node_selector_terms.iter().any(|t| NodeTerm::parse(t).matches(node_name, labels))
}

/// `Toleration.ToleratesTaint`: effect and key must match when set; `Exists` matches any
/// value, `Equal` (or no operator) needs the same value.
pub fn tolerates(t: &Toleration, taint: &Taint) -> bool {
    let effect = t.effect.as_deref().unwrap_or("");
    if !effect.is_empty() && effect != taint.effect {
        return false;
    }
    let key = t.key.as_deref().unwrap_or("");
    if !key.is_empty() && key != taint.key {
        return false;
    }
    match t.operator.as_deref().unwrap_or("") {
        "" | "Equal" => t.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or(""),
        "Exists" => true,
        // `Lt`/`Gt` need the alpha TaintTolerationComparisonOperators gate (off by default).
        _ => false,
    }
}

pub fn tolerations_tolerate(tolerations: &[Toleration], taint: &Taint) -> bool {
    tolerations.iter().any(|t| tolerates(t, taint))
}

/// Only `NoSchedule` and `NoExecute` taints keep pods off a node.
pub fn is_do_not_schedule(taint: &Taint) -> bool {
    taint.effect == "NoSchedule" || taint.effect == "NoExecute"
}

/// `FindMatchingUntoleratedTaint` with the NoSchedule/NoExecute filter.
pub fn first_untolerated<'a>(taints: &'a [Taint], tolerations: &[Toleration]) -> Option<&'a Taint> {
    taints.iter().filter(|t| is_do_not_schedule(t)).find(|t| !tolerations_tolerate(tolerations, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn node_requirements() {
        let term: NodeSelectorTerm = serde_json::from_value(serde_json::json!({
            "matchExpressions": [
                {"key": "gpu", "operator": "Exists"},
                {"key": "cores", "operator": "Gt", "values": ["4"]},
                {"key": "zone", "operator": "NotIn", "values": ["a"]},
            ]
        }))
        .unwrap();
        let t = NodeTerm::parse(&term);
        assert!(t.matches("n", &labels(&[("gpu", "x"), ("cores", "8"), ("zone", "b")])));
        assert!(!t.matches("n", &labels(&[("gpu", "x"), ("cores", "4"), ("zone", "b")])));
        assert!(!t.matches("n", &labels(&[("gpu", "x"), ("cores", "eight")])));
        assert!(t.matches("n", &labels(&[("gpu", "x"), ("cores", "5")])));
        let empty = NodeTerm::parse(&NodeSelectorTerm::default());
        assert!(!empty.matches("n", &labels(&[])));
    }
}
