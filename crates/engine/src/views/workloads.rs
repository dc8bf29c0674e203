//! `kubectl describe deployment`: the summary, the pod template, the conditions, the old and
//! new ReplicaSets (found as the deployment controller finds them) and the events.

use super::describe::PrefixWriter;
use super::describe::{describe_events, describe_pod_template, print_annotations_multiline, print_labels_multiline};
use super::format::{rfc1123z_opt, Clock};
use super::printers::label_selector_string;
use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
use k8s_openapi::api::core::v1::{Event, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

const POD_TEMPLATE_HASH: &str = "pod-template-hash";

fn int_or_string(v: Option<&IntOrString>) -> String {
    match v {
        Some(IntOrString::Int(i)) => i.to_string(),
        Some(IntOrString::String(s)) => s.clone(),
        None => "0".to_string(),
    }
}

/// The template without the `pod-template-hash` label (`EqualIgnoreHash`).
fn without_hash(t: Option<&PodTemplateSpec>) -> serde_json::Value {
    let mut t = t.cloned().unwrap_or_default();
    if let Some(labels) = t.metadata.as_mut().and_then(|m| m.labels.as_mut()) {
        labels.remove(POD_TEMPLATE_HASH);
    }
    serde_json::to_value(t).unwrap_or_default()
}

/// The deployment's ReplicaSets split as `deploymentutil.GetAllReplicaSets` does: the new
/// one (the oldest whose template matches the deployment's) and all the others.
pub fn old_and_new_replicasets<'a>(
    d: &Deployment,
    all: &[&'a ReplicaSet],
) -> (Vec<&'a ReplicaSet>, Option<&'a ReplicaSet>) {
    let uid = d.metadata.uid.as_deref();
    let name = d.metadata.name.as_deref();
    let mut owned: Vec<&ReplicaSet> = all
        .iter()
        .copied()
        .filter(|rs| rs.metadata.namespace == d.metadata.namespace)
        .filter(|rs| {
            rs.metadata.owner_references.iter().flatten().any(|o| {
                o.controller == Some(true)
                    && o.kind == "Deployment"
                    && match uid {
                        Some(u) if !u.is_empty() => o.uid == u,
                        _ => Some(o.name.as_str()) == name,
                    }
            })
        })
        .collect();
    crate::sort::sort_by(&mut owned, |a, b| {
        let t = |rs: &ReplicaSet| rs.metadata.creation_timestamp.as_ref().map(|t| t.0.as_millisecond());
        t(a).cmp(&t(b)).then_with(|| a.metadata.name.cmp(&b.metadata.name))
    });
    let want = without_hash(Some(&d.spec.template));
    let new = owned.iter().copied().find(|rs| without_hash(rs.spec.template.as_ref()) == want);
    let old = owned.into_iter().filter(|rs| new.is_none_or(|n| !std::ptr::eq(*rs, n))).collect();
    (old, new)
}

fn replicasets_by_labels(list: &[&ReplicaSet]) -> String {
    if list.is_empty() {
        return "<none>".to_string();
    }
    list.iter()
        .map(|rs| {
            format!(
                "{} ({}/{} replicas created)",
                rs.metadata.name.as_deref().unwrap_or(""),
                rs.status.as_ref().map(|s| s.replicas).unwrap_or(0),
                rs.spec.replicas.unwrap_or(1)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `kubectl describe deployment`.
pub fn describe_deployment(
    d: &Deployment,
    old: &[&ReplicaSet],
    new: Option<&ReplicaSet>,
    events: &[&Event],
    clock: Clock,
) -> String {
    let mut w = PrefixWriter::new();
    let meta = &d.metadata;
    let status = d.status.clone().unwrap_or_default();
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")));
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z_opt(meta.creation_timestamp.as_ref())));
    print_labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.write(0, &format!("Selector:\t{}\n", label_selector_string(Some(&d.spec.selector))));
    w.write(
        0,
        &format!(
            "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable\n",
            d.spec.replicas.unwrap_or(1),
            status.updated_replicas.unwrap_or(0),
            status.replicas.unwrap_or(0),
            status.available_replicas.unwrap_or(0),
            status.unavailable_replicas.unwrap_or(0)
        ),
    );
    let strategy = d.spec.strategy.clone().unwrap_or_default();
    // The API server defaults the strategy to RollingUpdate with 25%/25%.
    let strategy_type = strategy.type_.clone().unwrap_or_else(|| "RollingUpdate".to_string());
    w.write(0, &format!("StrategyType:\t{strategy_type}\n"));
    w.write(0, &format!("MinReadySeconds:\t{}\n", d.spec.min_ready_seconds.unwrap_or(0)));
    if strategy_type == "RollingUpdate" {
        let ru = strategy.rolling_update.clone().unwrap_or_default();
        let pct = IntOrString::String("25%".to_string());
        w.write(
            0,
            &format!(
                "RollingUpdateStrategy:\t{} max unavailable, {} max surge\n",
                int_or_string(ru.max_unavailable.as_ref().or(Some(&pct))),
                int_or_string(ru.max_surge.as_ref().or(Some(&pct)))
            ),
        );
    }
    describe_pod_template(&mut w, Some(&d.spec.template));
    if let Some(conditions) = status.conditions.as_ref().filter(|c| !c.is_empty()) {
        w.write(0, "Conditions:\n  Type\tStatus\tReason\n");
        w.write(1, "----\t------\t------\n");
        for c in conditions {
            w.write(
                1,
                &format!(
                    "{} \t{}\t{}\n",
                    c.type_.as_deref().unwrap_or(""),
                    c.status.as_deref().unwrap_or(""),
                    c.reason.as_deref().unwrap_or("")
                ),
            );
        }
    }
    if !old.is_empty() || new.is_some() {
        w.write(0, &format!("OldReplicaSets:\t{}\n", replicasets_by_labels(old)));
        w.write(0, &format!("NewReplicaSet:\t{}\n", replicasets_by_labels(&new.into_iter().collect::<Vec<_>>())));
    }
    describe_events(&mut w, events, clock);
    w.finish()
}
