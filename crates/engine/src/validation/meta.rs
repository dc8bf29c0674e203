//! Object metadata, labels, annotations and label selectors (apimachinery
//! `pkg/api/validation/objectmeta.go`, `pkg/apis/meta/v1/validation`).

use super::names::{self, NameFn};
use crate::errors::FieldError;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta, OwnerReference};
use std::collections::BTreeMap;

/// Upstream's limit on the total size of keys and values of annotations.
const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

/// Finalizer names upstream knows without a domain.
const STANDARD_FINALIZERS: &[&str] = &["kubernetes", "orphan", "foregroundDeletion"];

/// `ValidateLabelName` at `path`.
pub fn label_name(key: &str, path: &str, errs: &mut Vec<FieldError>) {
    for m in names::qualified_name(key) {
        errs.push(FieldError::invalid(path, key, m));
    }
}

/// `ValidateLabels`: every key and value; the errors name the map, not the key.
pub fn labels(map: Option<&BTreeMap<String, String>>, path: &str, errs: &mut Vec<FieldError>) {
    for (k, v) in map.into_iter().flatten() {
        label_name(k, path, errs);
        for m in names::label_value(v) {
            errs.push(FieldError::invalid(path, v.as_str(), m));
        }
    }
}

/// `ValidateAnnotations`: keys (lower-cased) are qualified names; total size at most 256 KiB.
pub fn annotations(map: Option<&BTreeMap<String, String>>, path: &str, errs: &mut Vec<FieldError>) {
    let Some(map) = map else { return };
    for k in map.keys() {
        for m in names::qualified_name(&k.to_lowercase()) {
            errs.push(FieldError::invalid(path, k.as_str(), m));
        }
    }
    let total: usize = map.iter().map(|(k, v)| k.len() + v.len()).sum();
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        errs.push(FieldError::too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT as i64));
    }
}

/// `ValidateObjectMeta` for a create: name (or generateName), namespace, generation, labels,
/// annotations, owner references and finalizers. Expects the server to have generated a name
/// from `generateName` already.
pub fn object_meta(meta: &ObjectMeta, namespaced: bool, name_fn: NameFn, errs: &mut Vec<FieldError>) {
    let p = "metadata";
    if let Some(g) = meta.generate_name.as_deref().filter(|g| !g.is_empty()) {
        for m in name_fn(g, true) {
            errs.push(FieldError::invalid(format!("{p}.generateName"), g, m));
        }
    }
    match meta.name.as_deref().unwrap_or_default() {
        "" => errs.push(FieldError::required(format!("{p}.name"), "name or generateName is required")),
        name => {
            for m in name_fn(name, false) {
                errs.push(FieldError::invalid(format!("{p}.name"), name, m));
            }
        }
    }
    let ns = meta.namespace.as_deref().unwrap_or_default();
    if namespaced {
        if ns.is_empty() {
            errs.push(FieldError::required(format!("{p}.namespace"), ""));
        } else {
            for m in names::name_is_dns_label(ns, false) {
                errs.push(FieldError::invalid(format!("{p}.namespace"), ns, m));
            }
        }
    } else if !ns.is_empty() {
        errs.push(FieldError::forbidden(format!("{p}.namespace"), "not allowed on this type"));
    }
    if let Some(g) = meta.generation.filter(|g| *g < 0) {
        errs.push(FieldError::invalid(format!("{p}.generation"), g, "must be greater than or equal to 0"));
    }
    labels(meta.labels.as_ref(), "metadata.labels", errs);
    annotations(meta.annotations.as_ref(), "metadata.annotations", errs);
    owner_references(meta, errs);
    let finalizers = meta.finalizers.as_deref().unwrap_or_default();
    for f in finalizers {
        for m in names::qualified_name(f) {
            errs.push(FieldError::invalid(format!("{p}.finalizers"), f.as_str(), m));
        }
    }
    if finalizers.iter().any(|f| f == "orphan") && finalizers.iter().any(|f| f == "foregroundDeletion") {
        errs.push(FieldError::invalid(
            format!("{p}.finalizers"),
            serde_json::json!(finalizers),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    // core's extra check: a finalizer without a domain must be a standard one.
    for (i, f) in finalizers.iter().enumerate() {
        if !f.contains('/') && !STANDARD_FINALIZERS.contains(&f.as_str()) {
            errs.push(FieldError::invalid(
                format!("{p}.finalizers[{i}]"),
                f.as_str(),
                "name is neither a standard finalizer name nor is it fully qualified",
            ));
        }
    }
}

fn owner_references(meta: &ObjectMeta, errs: &mut Vec<FieldError>) {
    let mut first_controller: Option<&OwnerReference> = None;
    let refs = meta.owner_references.as_deref().unwrap_or_default();
    for (i, r) in refs.iter().enumerate() {
        let p = |field: &str| format!("metadata.ownerReferences[{i}].{field}");
        if r.api_version.is_empty() {
            errs.push(FieldError::required(p("apiVersion"), "must not be empty"));
        } else if r.api_version.matches('/').count() > 1 || r.api_version.ends_with('/') {
            errs.push(FieldError::invalid(
                p("apiVersion"),
                r.api_version.as_str(),
                "must be <group>/<version> or <version>",
            ));
        }
        if r.kind.is_empty() {
            errs.push(FieldError::required(p("kind"), "must not be empty"));
        }
        if r.name.is_empty() {
            errs.push(FieldError::required(p("name"), "must not be empty"));
        }
        if r.uid.is_empty() {
            errs.push(FieldError::required(p("uid"), "must not be empty"));
        }
        if r.controller == Some(true) {
            if let Some(first) = first_controller {
                let (first, cur) = (format!("{}/{}", first.kind, first.name), format!("{}/{}", r.kind, r.name));
                errs.push(FieldError::invalid(
                    "metadata.ownerReferences",
                    serde_json::to_value(refs).unwrap_or_default(),
                    format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {cur}"
                    ),
                ));
            } else {
                first_controller = Some(r);
            }
        }
    }
}

/// `ValidateTemplateObjectMeta`-like checks for an embedded template: labels and annotations.
pub fn template_meta(meta: Option<&ObjectMeta>, path: &str, errs: &mut Vec<FieldError>) {
    let Some(meta) = meta else { return };
    labels(meta.labels.as_ref(), &format!("{path}.labels"), errs);
    annotations(meta.annotations.as_ref(), &format!("{path}.annotations"), errs);
}

/// `ValidateLabelSelector`.
pub fn label_selector(sel: &LabelSelector, path: &str, errs: &mut Vec<FieldError>) {
    labels(sel.match_labels.as_ref(), &format!("{path}.matchLabels"), errs);
    for (i, e) in sel.match_expressions.iter().flatten().enumerate() {
        let p = format!("{path}.matchExpressions[{i}]");
        let values = e.values.as_deref().unwrap_or_default();
        match e.operator.as_str() {
            "In" | "NotIn" => {
                if values.is_empty() {
                    errs.push(FieldError::required(
                        format!("{p}.values"),
                        "must be specified when `operator` is 'In' or 'NotIn'",
                    ));
                }
            }
            "Exists" | "DoesNotExist" => {
                if !values.is_empty() {
                    errs.push(FieldError::forbidden(
                        format!("{p}.values"),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    ));
                }
            }
            op => errs.push(FieldError::invalid(format!("{p}.operator"), op, "not a valid selector operator")),
        }
        label_name(&e.key, &format!("{p}.key"), errs);
        for (j, v) in values.iter().enumerate() {
            for m in names::label_value(v) {
                errs.push(FieldError::invalid(format!("{p}.values[{j}]"), v.as_str(), m));
            }
        }
    }
}

/// Whether `metav1.LabelSelectorAsSelector` would accept the selector.
pub fn selector_convertible(sel: &LabelSelector) -> bool {
    let keys_ok = sel
        .match_labels
        .iter()
        .flatten()
        .all(|(k, v)| names::qualified_name(k).is_empty() && names::label_value(v).is_empty());
    let exprs_ok = sel.match_expressions.iter().flatten().all(|e| {
        let values = e.values.as_deref().unwrap_or_default();
        names::qualified_name(&e.key).is_empty()
            && match e.operator.as_str() {
                "In" | "NotIn" => !values.is_empty() && values.iter().all(|v| names::label_value(v).is_empty()),
                "Exists" | "DoesNotExist" => values.is_empty(),
                _ => false,
            }
    });
    keys_ok && exprs_ok
}
