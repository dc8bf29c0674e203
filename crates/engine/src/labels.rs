//! Label selectors, one home for every component (apimachinery's `labels` package with
//! `metav1.LabelSelectorAsSelector` and `selection.Operator`): the one rule that decides
//! whether a label's value satisfies a requirement (`Operator::matches`), the parsed
//! `Selector` the scheduler builds once per pod, matching a `metav1.LabelSelector` or a map
//! selector (a Service's `spec.selector`) directly, and the selector's text
//! (`labels.Selector.String()`).
//!
//! Two readings of a `LabelSelector` exist, as upstream has two:
//! - `Selector::from_label_selector` is `LabelSelectorAsSelector`: nil selects nothing, an
//!   empty selector everything, and an invalid requirement (unknown operator, `In`/`NotIn`
//!   without values, `Exists`/`DoesNotExist` with values) makes the whole selector select
//!   nothing.
//! - `label_selector_matches` (and `matches` for an optional selector) read the selector as
//!   it stands, requirement by requirement: an unknown operator fails its requirement, the
//!   values of `Exists`/`DoesNotExist` are not looked at and `NotIn` with no values holds.
//!   API validation refuses the selectors on which the two differ.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use std::collections::BTreeMap;

/// `labels.Set`: an object's labels.
pub type Set = BTreeMap<String, String>;

/// An empty label set, for objects without labels.
pub fn no_labels() -> &'static Set {
    static EMPTY: Set = BTreeMap::new();
    &EMPTY
}

/// `selection.Operator`, the ones a `LabelSelector` can spell (`Equals` is a
/// `matchLabels` pair).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    Equals,
    In,
    NotIn,
    Exists,
    DoesNotExist,
}

impl Operator {
    /// A `LabelSelectorRequirement`'s (or node selector requirement's) operator by name;
    /// `None` for any other word.
    pub fn from_name(op: &str) -> Option<Operator> {
        match op {
            "In" => Some(Operator::In),
            "NotIn" => Some(Operator::NotIn),
            "Exists" => Some(Operator::Exists),
            "DoesNotExist" => Some(Operator::DoesNotExist),
            _ => None,
        }
    }

    /// Whether a label's value (`None`: the label is absent) satisfies the operator over
    /// `values` (`Requirement.Matches`). The one requirement-matching rule of the engine.
    #[inline]
    pub fn matches(self, value: Option<&str>, values: &[String]) -> bool {
        match self {
            Operator::Equals | Operator::In => value.is_some_and(|v| values.iter().any(|x| x == v)),
            Operator::NotIn => value.is_none_or(|v| !values.iter().any(|x| x == v)),
            Operator::Exists => value.is_some(),
            Operator::DoesNotExist => value.is_none(),
        }
    }
}

/// `labels.Requirement`: a key, an operator and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    pub key: String,
    pub op: Operator,
    pub values: Vec<String>,
}

impl Requirement {
    pub fn matches(&self, labels: &Set) -> bool {
        self.op.matches(labels.get(&self.key).map(String::as_str), &self.values)
    }
}

/// A parsed selector (`labels.Selector`): `labels.Nothing()`, or requirements that must all
/// hold (none at all: `labels.Everything()`). Parsed once, then matched many times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    Nothing,
    /// All requirements must match; no requirement at all = everything.
    All(Vec<Requirement>),
}

impl Selector {
    /// `labels.Everything()`.
    pub fn everything() -> Selector {
        Selector::All(Vec::new())
    }

    /// `metav1.LabelSelectorAsSelector`. An invalid selector (unknown operator, `In`
    /// without values) matches nothing: API validation rejects such objects before they
    /// get here.
    pub fn from_label_selector(sel: Option<&LabelSelector>) -> Selector {
        let Some(sel) = sel else { return Selector::Nothing };
        let mut reqs = Vec::new();
        if let Some(ml) = &sel.match_labels {
            for (k, v) in ml {
                reqs.push(Requirement { key: k.clone(), op: Operator::Equals, values: vec![v.clone()] });
            }
        }
        for e in sel.match_expressions.iter().flatten() {
            let values = e.values.clone().unwrap_or_default();
            let op = match Operator::from_name(&e.operator) {
                Some(op @ (Operator::In | Operator::NotIn)) if !values.is_empty() => op,
                Some(op @ (Operator::Exists | Operator::DoesNotExist)) if values.is_empty() => op,
                _ => return Selector::Nothing,
            };
            reqs.push(Requirement { key: e.key.clone(), op, values });
        }
        Selector::All(reqs)
    }

    /// `labels.SelectorFromSet`: equality on every pair of a plain map
    /// (`Service.spec.selector`).
    pub fn from_map(map: &Set) -> Selector {
        Selector::All(
            map.iter()
                .map(|(k, v)| Requirement { key: k.clone(), op: Operator::Equals, values: vec![v.clone()] })
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        matches!(self, Selector::All(r) if r.is_empty())
    }

    /// `Selector.Add`: the requirements of both.
    pub fn add(&mut self, more: &Selector) {
        match (self, more) {
            (Selector::All(a), Selector::All(b)) => a.extend(b.iter().cloned()),
            (s, Selector::Nothing) => *s = Selector::Nothing,
            (Selector::Nothing, _) => {}
        }
    }

    pub fn matches(&self, labels: &Set) -> bool {
        match self {
            Selector::Nothing => false,
            Selector::All(reqs) => reqs.iter().all(|r| r.matches(labels)),
        }
    }
}

/// Whether `selector` selects `labels`, read as it stands (see the module's text): every
/// `matchLabels` pair present, every expression holding, an unknown operator failing. An
/// empty selector selects everything.
pub fn label_selector_matches(selector: &LabelSelector, labels: Option<&Set>) -> bool {
    let labels = labels.unwrap_or(no_labels());
    selector.match_labels.iter().flatten().all(|(k, v)| labels.get(k) == Some(v))
        && selector.match_expressions.iter().flatten().all(|e| {
            let values = e.values.as_deref().unwrap_or_default();
            Operator::from_name(&e.operator)
                .is_some_and(|op| op.matches(labels.get(&e.key).map(String::as_str), values))
        })
}

/// `label_selector_matches` for an optional selector: a missing selector selects nothing
/// (as `LabelSelectorAsSelector(nil)` does), an empty one everything.
pub fn matches(selector: Option<&LabelSelector>, labels: Option<&Set>) -> bool {
    selector.is_some_and(|sel| label_selector_matches(sel, labels))
}

/// Whether a map selector (`SelectorFromSet`: a Service's `spec.selector`, a nodeSelector)
/// selects `labels`: every pair present. An empty map selects everything.
pub fn set_matches(selector: &Set, labels: Option<&Set>) -> bool {
    let labels = labels.unwrap_or(no_labels());
    selector.iter().all(|(k, v)| labels.get(k) == Some(v))
}

/// Whether a selector has no requirements (`{}`, which selects everything).
pub fn is_empty(sel: &LabelSelector) -> bool {
    sel.match_labels.as_ref().is_none_or(BTreeMap::is_empty) && sel.match_expressions.as_ref().is_none_or(Vec::is_empty)
}

/// `LabelSelectorAsSelector(...).String()`: requirements sorted by key, `""` when nil or
/// empty, `<error>` for an unknown operator.
pub fn label_selector_string(selector: Option<&LabelSelector>) -> String {
    let Some(sel) = selector else { return String::new() };
    let mut parts: Vec<String> = Vec::new();
    if let Some(labels) = &sel.match_labels {
        for (k, v) in labels {
            parts.push(format!("{k}={v}"));
        }
    }
    for req in sel.match_expressions.as_deref().unwrap_or(&[]) {
        let mut values = req.values.clone().unwrap_or_default();
        crate::sort::sort(&mut values);
        let part = match req.operator.as_str() {
            "In" => format!("{} in ({})", req.key, values.join(",")),
            "NotIn" => format!("{} notin ({})", req.key, values.join(",")),
            "Exists" => req.key.clone(),
            "DoesNotExist" => format!("!{}", req.key),
            _ => return "<error>".to_string(),
        };
        parts.push(part);
    }
    // labels.Selector.String() sorts its requirements by key.
    crate::sort::sort_by(&mut parts, |a, b| selector_key(a).cmp(selector_key(b)));
    parts.join(",")
}

fn selector_key(part: &str) -> &str {
    let part = part.strip_prefix('!').unwrap_or(part);
    part.split(['=', ' ']).next().unwrap_or(part)
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelectorRequirement;

    fn set(pairs: &[(&str, &str)]) -> Set {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn expr(key: &str, op: &str, values: Option<&[&str]>) -> LabelSelectorRequirement {
        LabelSelectorRequirement {
            key: key.into(),
            operator: op.into(),
            values: values.map(|v| v.iter().map(|s| s.to_string()).collect()),
        }
    }

    fn sel(exprs: Vec<LabelSelectorRequirement>) -> LabelSelector {
        LabelSelector { match_labels: None, match_expressions: Some(exprs) }
    }

    #[test]
    fn nil_selects_nothing_and_empty_everything() {
        let labels = set(&[("app", "web")]);
        assert!(!matches(None, Some(&labels)));
        assert!(matches(Some(&LabelSelector::default()), Some(&labels)));
        assert!(matches(Some(&LabelSelector::default()), None));
        assert!(!Selector::from_label_selector(None).matches(&labels));
        assert!(Selector::from_label_selector(Some(&LabelSelector::default())).matches(&labels));
        assert!(set_matches(&Set::new(), None));
        assert!(set_matches(&set(&[("app", "web")]), Some(&labels)));
        assert!(!set_matches(&set(&[("app", "db")]), Some(&labels)));
    }

    /// The two readings agree on every valid selector and differ only where validation
    /// refuses the selector.
    #[test]
    fn readings_agree_on_valid_selectors() {
        let cases = [
            set(&[]),
            set(&[("env", "prod")]),
            set(&[("env", "dev"), ("team", "a")]),
            set(&[("team", "b"), ("skip", "")]),
        ];
        let valid = [
            sel(vec![expr("env", "In", Some(&["prod", "dev"]))]),
            sel(vec![expr("env", "NotIn", Some(&["prod"]))]),
            sel(vec![expr("team", "Exists", None)]),
            sel(vec![expr("skip", "DoesNotExist", Some(&[]))]),
            LabelSelector {
                match_labels: Some(set(&[("team", "a")])),
                match_expressions: Some(vec![expr("env", "In", Some(&["dev"]))]),
            },
        ];
        for s in &valid {
            let parsed = Selector::from_label_selector(Some(s));
            for labels in &cases {
                assert_eq!(parsed.matches(labels), label_selector_matches(s, Some(labels)), "{s:?} {labels:?}");
            }
        }
        // Where they differ: NotIn without values, Exists with values, unknown operators.
        let labels = set(&[("env", "prod")]);
        let not_in_none = sel(vec![expr("x", "NotIn", None)]);
        assert!(label_selector_matches(&not_in_none, Some(&labels)));
        assert!(!Selector::from_label_selector(Some(&not_in_none)).matches(&labels));
        let exists_values = sel(vec![expr("env", "Exists", Some(&["a"]))]);
        assert!(label_selector_matches(&exists_values, Some(&labels)));
        assert!(!Selector::from_label_selector(Some(&exists_values)).matches(&labels));
        let unknown = sel(vec![expr("env", "Equals", Some(&["prod"]))]);
        assert!(!label_selector_matches(&unknown, Some(&labels)));
        assert!(!Selector::from_label_selector(Some(&unknown)).matches(&labels));
    }

    #[test]
    fn string_sorts_by_key() {
        let s = LabelSelector {
            match_labels: Some(set(&[("tier", "web")])),
            match_expressions: Some(vec![expr("app", "In", Some(&["b", "a"])), expr("gone", "DoesNotExist", None)]),
        };
        assert_eq!(label_selector_string(Some(&s)), "app in (a,b),!gone,tier=web");
        assert_eq!(label_selector_string(None), "");
        assert_eq!(label_selector_string(Some(&sel(vec![expr("a", "Bad", None)]))), "<error>");
    }
}
