//! The text of a webhook's namespace or object selector in its explanations (matching is
//! `crate::labels::label_selector_matches`).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

/// The selector as `kubectl` prints one (`app=web,tier in (a,b)`), `<everything>` when empty.
pub fn selector_text(selector: &LabelSelector) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (k, v) in selector.match_labels.iter().flatten() {
        parts.push(format!("{k}={v}"));
    }
    for req in selector.match_expressions.iter().flatten() {
        let values = req.values.as_deref().unwrap_or(&[]).join(",");
        parts.push(match req.operator.as_str() {
            "In" => format!("{} in ({values})", req.key),
            "NotIn" => format!("{} notin ({values})", req.key),
            "Exists" => req.key.clone(),
            "DoesNotExist" => format!("!{}", req.key),
            op => format!("{} {op} ({values})", req.key),
        });
    }
    if parts.is_empty() {
        "<everything>".to_string()
    } else {
        parts.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labels::label_selector_matches;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelectorRequirement;
    use std::collections::BTreeMap;

    #[test]
    fn match_labels_and_expressions() {
        let labels: BTreeMap<String, String> =
            [("env".to_string(), "prod".to_string()), ("team".to_string(), "a".to_string())].into();
        let sel = LabelSelector {
            match_labels: Some([("env".to_string(), "prod".to_string())].into()),
            match_expressions: Some(vec![
                LabelSelectorRequirement {
                    key: "team".into(),
                    operator: "In".into(),
                    values: Some(vec!["a".into(), "b".into()]),
                },
                LabelSelectorRequirement { key: "skip".into(), operator: "DoesNotExist".into(), values: None },
            ]),
        };
        assert!(label_selector_matches(&sel, Some(&labels)));
        assert_eq!(selector_text(&sel), "env=prod,team in (a,b),!skip");
        assert!(label_selector_matches(&LabelSelector::default(), None));
        let not_in = LabelSelector {
            match_labels: None,
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: "env".into(),
                operator: "NotIn".into(),
                values: Some(vec!["prod".into()]),
            }]),
        };
        assert!(!label_selector_matches(&not_in, Some(&labels)));
        assert!(label_selector_matches(&not_in, None));
    }
}
