//! The namespace controller: empties a namespace that is being deleted, then lets it go.
//!
//! Deleting a namespace does not remove it: the API server sets its `deletionTimestamp`
//! and `status.phase: Terminating`, and the namespace keeps the `kubernetes` finalizer in
//! `spec.finalizers`. Five seconds later (`namespaceDeletionGracePeriod`, so every API
//! server has seen the deletion and refuses new content) this controller deletes every
//! object in it, kind by kind, and records its progress in the namespace's conditions
//! (`NamespaceContentRemaining: Some resources are remaining: pods. has 2 resource
//! instances`, ...). Pods take their grace period to go; the controller checks again after
//! an estimate. When nothing is left it removes the `kubernetes` finalizer through the
//! `finalize` subresource and deletes the namespace for good.

use super::util::*;
use super::{Controller, Cx};
use crate::object::{Object, RESOURCES};
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::core::v1::{Namespace, NamespaceCondition};
use std::collections::BTreeMap;

pub const NAME: &str = "namespace-controller";
pub const SERVICE_ACCOUNT: &str = "namespace-controller";
/// Delay before a namespace event is processed.
pub const NAMESPACE_DELETION_GRACE_MS: u64 = 5_000;
/// Re-check delay when objects other than Pods remain (finalizers at work).
pub const FINALIZER_ESTIMATE_MS: u64 = 15_000;
pub const KUBERNETES_FINALIZER: &str = "kubernetes";

const CONDITION_TYPES: [&str; 5] = [
    "NamespaceDeletionDiscoveryFailure",
    "NamespaceDeletionGroupVersionParsingFailure",
    "NamespaceDeletionContentFailure",
    "NamespaceContentRemaining",
    "NamespaceFinalizersRemaining",
];

fn ok_condition(t: &str) -> (&'static str, &'static str) {
    match t {
        "NamespaceDeletionDiscoveryFailure" => ("ResourcesDiscovered", "All resources successfully discovered"),
        "NamespaceDeletionGroupVersionParsingFailure" => {
            ("ParsedGroupVersions", "All legacy kube types successfully parsed")
        }
        "NamespaceDeletionContentFailure" => {
            ("ContentDeleted", "All content successfully deleted, may be waiting on finalization")
        }
        "NamespaceContentRemaining" => ("ContentRemoved", "All content successfully removed"),
        _ => ("ContentHasNoFinalizers", "All content-preserving finalizers finished"),
    }
}

#[derive(Debug, Default)]
pub struct NamespaceController;

impl Controller for NamespaceController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        if let Object::Namespace(ns) = &*ev.object {
            if ev.kind != EventType::Deleted && is_deleting(&ns.metadata) {
                let name = ns.metadata.name.clone().unwrap_or_default();
                cx.watch(
                    NAME,
                    Phase::Controllers,
                    ev,
                    &name,
                    NAMESPACE_DELETION_GRACE_MS,
                    "the namespace is being deleted: empty it",
                );
            }
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        let Some(Object::Namespace(ns)) = get(cx.core, "Namespace", None, key) else { return };
        if !is_deleting(&ns.metadata) {
            return;
        }
        let ns = std::sync::Arc::unwrap_or_clone(ns);
        let has_finalizer = ns
            .spec
            .as_ref()
            .and_then(|s| s.finalizers.as_ref())
            .is_some_and(|f| f.iter().any(|x| x == KUBERNETES_FINALIZER));
        if !has_finalizer {
            delete_namespace(cx, &ns);
            return;
        }
        // Delete all content, kind by kind.
        let mut deleted = Vec::new();
        for r in RESOURCES.iter().filter(|r| r.namespaced) {
            for obj in list(cx.core, r.kind, Some(key)) {
                if is_deleting(obj.meta()) {
                    continue;
                }
                let resp = cx.delete(SERVICE_ACCOUNT, r.kind, Some(key), obj.name(), Some("Background"));
                if resp.ok() {
                    deleted.push(format!("{} {}", r.kind, obj.name()));
                }
            }
        }
        // What is left (objects still terminating or held by finalizers).
        let mut remaining: BTreeMap<String, usize> = BTreeMap::new();
        let mut finalizers: BTreeMap<String, usize> = BTreeMap::new();
        let mut estimate_ms: u64 = 0;
        for r in RESOURCES.iter().filter(|r| r.namespaced) {
            let left = list(cx.core, r.kind, Some(key));
            if left.is_empty() {
                continue;
            }
            remaining.insert(format!("{}.{}", r.plural, r.group), left.len());
            for o in &left {
                for f in o.meta().finalizers.iter().flatten() {
                    *finalizers.entry(f.clone()).or_default() += 1;
                }
                let grace = match o {
                    Object::Pod(p) => {
                        p.metadata
                            .deletion_grace_period_seconds
                            .or_else(|| p.spec.as_ref().and_then(|s| s.termination_grace_period_seconds))
                            .unwrap_or(30)
                            .max(1) as u64
                            * 1000
                    }
                    _ => FINALIZER_ESTIMATE_MS,
                };
                estimate_ms = estimate_ms.max(grace);
            }
        }
        let mut new_conditions: Vec<NamespaceCondition> = Vec::new();
        let now = now(cx.core);
        if !remaining.is_empty() {
            let items: Vec<String> =
                remaining.iter().map(|(gr, n)| format!("{gr} has {n} resource instances")).collect();
            new_conditions.push(NamespaceCondition {
                type_: "NamespaceContentRemaining".into(),
                status: "True".into(),
                last_transition_time: Some(now.clone()),
                reason: Some("SomeResourcesRemain".into()),
                message: Some(format!("Some resources are remaining: {}", items.join(", "))),
            });
        }
        if !finalizers.is_empty() {
            let items: Vec<String> = finalizers.iter().map(|(f, n)| format!("{f} in {n} resource instances")).collect();
            new_conditions.push(NamespaceCondition {
                type_: "NamespaceFinalizersRemaining".into(),
                status: "True".into(),
                last_transition_time: Some(now.clone()),
                reason: Some("SomeFinalizersRemain".into()),
                message: Some(format!("Some content in the namespace has finalizers remaining: {}", items.join(", "))),
            });
        }
        let mut updated = ns.clone();
        let status = updated.status.get_or_insert_with(Default::default);
        status.phase = Some("Terminating".into());
        let mut changed = false;
        let conds = status.conditions.get_or_insert_with(Vec::new);
        for t in CONDITION_TYPES {
            let new = new_conditions.iter().find(|c| c.type_ == t).cloned().unwrap_or_else(|| {
                let (reason, message) = ok_condition(t);
                NamespaceCondition {
                    type_: t.into(),
                    status: "False".into(),
                    last_transition_time: Some(now.clone()),
                    reason: Some(reason.into()),
                    message: Some(message.into()),
                }
            });
            match conds.iter_mut().find(|c| c.type_ == t) {
                None => {
                    conds.push(new);
                    changed = true;
                }
                Some(old) if old.status != new.status || old.message != new.message || old.reason != new.reason => {
                    if old.status != new.status {
                        old.last_transition_time = Some(now.clone());
                    }
                    old.status = new.status;
                    old.reason = new.reason;
                    old.message = new.message;
                    changed = true;
                }
                _ => {}
            }
        }
        let mut actions: Vec<String> = deleted.iter().map(|d| format!("DELETE {d}")).collect();
        if changed {
            actions.push("update status conditions".into());
        }
        let left_text = if remaining.is_empty() {
            "nothing left".to_string()
        } else {
            remaining.iter().map(|(gr, n)| format!("{gr} has {n}")).collect::<Vec<_>>().join(", ")
        };
        if !actions.is_empty() {
            let obj = Object::from(ns.clone());
            cx.decide(
                Phase::Controllers,
                NAME,
                Some(&obj),
                format!("namespace-controller empties namespace {key}: {left_text}"),
                format!("namespace {key} is Terminating"),
                "an empty namespace, then no namespace".into(),
                actions,
                StepStatus::Ok,
            );
        }
        if changed {
            let _ = cx.update_status(SERVICE_ACCOUNT, Object::from(updated.clone()));
        }
        if !remaining.is_empty() {
            cx.enqueue(NAME, key, estimate_ms.max(1000));
            return;
        }
        // Everything is gone: finalize, then delete.
        let mut fin = match get(cx.core, "Namespace", None, key) {
            Some(Object::Namespace(n)) => std::sync::Arc::unwrap_or_clone(n),
            _ => return,
        };
        if let Some(spec) = fin.spec.as_mut() {
            if let Some(f) = spec.finalizers.as_mut() {
                f.retain(|x| x != KUBERNETES_FINALIZER);
            }
            if spec.finalizers.as_ref().is_some_and(|f| f.is_empty()) {
                spec.finalizers = None;
            }
        }
        let obj = Object::from(fin.clone());
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&obj),
            format!("namespace-controller finalizes namespace {key}"),
            format!("namespace {key} is empty"),
            "no namespace".into(),
            vec![
                format!("PUT /api/v1/namespaces/{key}/finalize without the kubernetes finalizer"),
                format!("DELETE namespace {key}"),
            ],
            StepStatus::Ok,
        );
        let resp = cx.request(
            SERVICE_ACCOUNT,
            crate::apiserver::Verb::Update,
            "Namespace",
            None,
            Some(key),
            Some("finalize"),
            Some(crate::apiserver::Body::Object(obj.clone())),
        );
        if resp.ok() {
            delete_namespace(cx, &fin);
        } else {
            cx.requeue_rate_limited(NAME, key);
        }
    }
}

fn delete_namespace(cx: &mut Cx, ns: &Namespace) {
    let name = ns.metadata.name.clone().unwrap_or_default();
    if get(cx.core, "Namespace", None, &name).is_some() {
        let _ = cx.delete(SERVICE_ACCOUNT, "Namespace", None, &name, None);
    }
}
