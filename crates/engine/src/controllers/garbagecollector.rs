//! The garbage collector: deletes objects whose owners are gone, following
//! `metadata.ownerReferences`.
//!
//! `kubectl delete deployment web` asks for **background** propagation by default: the API
//! server removes the Deployment at once; the garbage collector then sees ReplicaSets whose
//! only owner no longer exists and deletes them (background again), then their Pods.
//!
//! With **foreground** propagation (`--cascade=foreground`) the API server keeps the owner,
//! sets its `deletionTimestamp` and adds the `foregroundDeletion` finalizer. The collector
//! deletes the dependents — those that have dependents of their own in foreground too — and
//! removes the finalizer once no dependent with `blockOwnerDeletion: true` is left; the API
//! server then deletes the owner. So the Deployment disappears last.
//!
//! With **orphan** propagation (`--cascade=orphan`) the owner carries the `orphan`
//! finalizer; the collector removes the owner reference from every dependent, then the
//! finalizer, and the dependents live on.
//!
//! Upstream keeps a graph of every object in memory; the lab finds dependents by scanning
//! the store, which gives the same answers.

use super::util::*;
use super::{Controller, Cx};
use crate::object::{resource_for_kind, Object};
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};

pub const NAME: &str = "garbage-collector-controller";
pub const SERVICE_ACCOUNT: &str = "generic-garbage-collector";
pub const WATCH_LATENCY_MS: u64 = 3;
pub const FOREGROUND_FINALIZER: &str = "foregroundDeletion";
pub const ORPHAN_FINALIZER: &str = "orphan";

#[derive(Debug, Default)]
pub struct GarbageCollector;

fn item_key(obj: &Object) -> String {
    format!("item/{}/{}/{}", obj.kind(), obj.namespace().unwrap_or("-"), obj.name())
}

fn parse_item(key: &str) -> Option<(&str, Option<&str>, &str)> {
    let mut it = key.splitn(4, '/');
    let _ = it.next()?;
    let kind = it.next()?;
    let ns = it.next()?;
    let name = it.next()?;
    Some((kind, (ns != "-").then_some(ns), name))
}

/// Objects with an owner reference to `uid`, with that reference.
fn dependents(cx: &Cx, uid: &str) -> Vec<(Object, OwnerReference)> {
    if uid.is_empty() {
        return vec![];
    }
    cx.core
        .store
        .list("/registry/")
        .into_iter()
        .filter_map(|(_, o, _)| {
            o.meta().owner_references.iter().flatten().find(|r| r.uid == uid).map(|r| (o.clone(), r.clone()))
        })
        .collect()
}

fn deleting_dependents(meta: &ObjectMeta) -> bool {
    is_deleting(meta) && has_finalizer(meta, FOREGROUND_FINALIZER)
}

fn describe(obj: &Object) -> String {
    match obj.namespace() {
        Some(ns) => format!("{} {ns}/{}", obj.kind(), obj.name()),
        None => format!("{} {}", obj.kind(), obj.name()),
    }
}

fn owner_text(r: &OwnerReference) -> String {
    format!("{} {}", r.kind, r.name)
}

impl Controller for GarbageCollector {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        let obj = &*ev.object;
        if obj.kind() == "Event" {
            return;
        }
        let meta = obj.meta();
        match ev.kind {
            EventType::Deleted => {
                for (dep, _) in dependents(cx, meta.uid.as_deref().unwrap_or("")) {
                    let reason = format!("the owner of {} is gone", describe(&dep));
                    cx.watch(NAME, Phase::Controllers, ev, &item_key(&dep), WATCH_LATENCY_MS, &reason);
                }
                // An owner waiting for its dependents (foreground) checks again.
                for r in meta.owner_references.iter().flatten() {
                    if let Some(owner) = resolve_owner(cx.core, meta.namespace.as_deref(), r) {
                        if deleting_dependents(owner.meta()) {
                            cx.watch(
                                NAME,
                                Phase::Controllers,
                                ev,
                                &item_key(&owner),
                                WATCH_LATENCY_MS,
                                "a dependent of a foreground deletion is gone",
                            );
                        }
                    }
                }
            }
            EventType::Added | EventType::Modified => {
                let prev_meta = ev.prev.as_deref().map(Object::meta);
                let newly = |f: &str| {
                    has_finalizer(meta, f)
                        && is_deleting(meta)
                        && !prev_meta.as_ref().is_some_and(|p| has_finalizer(p, f) && is_deleting(p))
                };
                if newly(FOREGROUND_FINALIZER) {
                    cx.watch(
                        NAME,
                        Phase::Controllers,
                        ev,
                        &item_key(obj),
                        WATCH_LATENCY_MS,
                        "foreground deletion: delete the dependents first",
                    );
                }
                if newly(ORPHAN_FINALIZER) {
                    let key = format!("orphan/{}", &item_key(obj)["item/".len()..]);
                    cx.watch(
                        NAME,
                        Phase::Controllers,
                        ev,
                        &key,
                        WATCH_LATENCY_MS,
                        "orphan deletion: release the dependents",
                    );
                }
                // A new owner reference to an object that does not exist (any more).
                let refs_changed = prev_meta.as_ref().is_none_or(|p| p.owner_references != meta.owner_references);
                if refs_changed && !is_deleting(meta) {
                    let dangling = meta
                        .owner_references
                        .iter()
                        .flatten()
                        .any(|r| resolve_owner(cx.core, meta.namespace.as_deref(), r).is_none());
                    if dangling {
                        cx.watch(
                            NAME,
                            Phase::Controllers,
                            ev,
                            &item_key(obj),
                            WATCH_LATENCY_MS,
                            "an owner reference points to a missing object",
                        );
                    }
                }
            }
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        if let Some(rest) = key.strip_prefix("orphan/") {
            let k = format!("item/{rest}");
            if let Some((kind, ns, name)) = parse_item(&k) {
                orphan_dependents(cx, kind, ns, name);
            }
            return;
        }
        let Some((kind, ns, name)) = parse_item(key) else { return };
        if attempt_to_delete(cx, kind, ns, name).is_err() {
            cx.requeue_rate_limited(NAME, key);
        }
    }
}

fn get_item(cx: &Cx, kind: &str, ns: Option<&str>, name: &str) -> Option<Object> {
    let info = resource_for_kind(kind)?;
    cx.core.store.get(&info.etcd_key(ns, name)).map(|(o, _)| o.clone())
}

fn attempt_to_delete(cx: &mut Cx, kind: &str, ns: Option<&str>, name: &str) -> Result<(), ()> {
    let Some(item) = get_item(cx, kind, ns, name) else { return Ok(()) };
    let meta = item.meta().clone();
    if is_deleting(&meta) && !has_finalizer(&meta, FOREGROUND_FINALIZER) {
        return Ok(());
    }
    if deleting_dependents(&meta) {
        return process_deleting_dependents(cx, &item);
    }
    let refs: Vec<OwnerReference> = meta.owner_references.clone().unwrap_or_default();
    if refs.is_empty() {
        return Ok(());
    }
    let (mut solid, mut dangling, mut waiting) = (Vec::new(), Vec::new(), Vec::new());
    for r in &refs {
        match resolve_owner(cx.core, ns, r) {
            None => dangling.push(r.clone()),
            Some(owner) if deleting_dependents(owner.meta()) => waiting.push(r.clone()),
            Some(_) => solid.push(r.clone()),
        }
    }
    if !solid.is_empty() {
        if dangling.is_empty() && waiting.is_empty() {
            return Ok(());
        }
        // Keep the object, drop the references to owners that are gone or going.
        let gone: Vec<String> = dangling.iter().chain(&waiting).map(|r| r.uid.clone()).collect();
        let mut updated = item.clone();
        if let Some(rs) = updated.meta_mut().owner_references.as_mut() {
            rs.retain(|r| !gone.contains(&r.uid));
        }
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&item),
            format!("garbage collector removes dangling owner references from {}", describe(&item)),
            format!("owners still present: {}", solid.iter().map(owner_text).collect::<Vec<_>>().join(", ")),
            "owner references only to live owners".into(),
            vec![format!(
                "remove references to {}",
                dangling.iter().chain(&waiting).map(owner_text).collect::<Vec<_>>().join(", ")
            )],
            StepStatus::Ok,
        );
        return if cx.update(SERVICE_ACCOUNT, updated).ok() { Ok(()) } else { Err(()) };
    }
    let uid = meta.uid.clone().unwrap_or_default();
    let has_dependents = !dependents(cx, &uid).is_empty();
    let policy = if !waiting.is_empty() && has_dependents {
        "Foreground"
    } else if has_finalizer(&meta, ORPHAN_FINALIZER) {
        "Orphan"
    } else if has_finalizer(&meta, FOREGROUND_FINALIZER) {
        "Foreground"
    } else {
        "Background"
    };
    let why = if !dangling.is_empty() {
        format!("its owner {} no longer exists", dangling.iter().map(owner_text).collect::<Vec<_>>().join(", "))
    } else {
        format!(
            "its owner {} is being deleted in the foreground",
            waiting.iter().map(owner_text).collect::<Vec<_>>().join(", ")
        )
    };
    cx.decide(
        Phase::Controllers,
        NAME,
        Some(&item),
        format!("garbage collector deletes {}: {why}", describe(&item)),
        why.clone(),
        "no object without a live owner".into(),
        vec![format!("DELETE {} with propagationPolicy={policy}", describe(&item))],
        StepStatus::Ok,
    );
    let resp = cx.delete(SERVICE_ACCOUNT, kind, ns, name, Some(policy));
    if resp.ok() || resp.error.as_ref().is_some_and(|e| e.code == 404) {
        Ok(())
    } else {
        Err(())
    }
}

/// An owner in foreground deletion: delete its blocking dependents, or drop the finalizer
/// once they are gone.
fn process_deleting_dependents(cx: &mut Cx, owner: &Object) -> Result<(), ()> {
    let uid = owner.meta().uid.clone().unwrap_or_default();
    let blocking: Vec<Object> = dependents(cx, &uid)
        .into_iter()
        .filter(|(_, r)| r.block_owner_deletion == Some(true))
        .map(|(o, _)| o)
        .collect();
    if blocking.is_empty() {
        let mut updated = owner.clone();
        if let Some(f) = updated.meta_mut().finalizers.as_mut() {
            f.retain(|x| x != FOREGROUND_FINALIZER);
            if f.is_empty() {
                updated.meta_mut().finalizers = None;
            }
        }
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(owner),
            format!("garbage collector removes the foregroundDeletion finalizer from {}", describe(owner)),
            "no dependent with blockOwnerDeletion is left".into(),
            "the owner goes last".into(),
            vec![format!("remove finalizer {FOREGROUND_FINALIZER}")],
            StepStatus::Ok,
        );
        return if cx.update(SERVICE_ACCOUNT, updated).ok() { Ok(()) } else { Err(()) };
    }
    for dep in blocking {
        if !deleting_dependents(dep.meta()) {
            let key = item_key(&dep);
            cx.enqueue(NAME, &key, 0);
        }
    }
    Ok(())
}

/// An owner deleted with `propagationPolicy: Orphan`: release every dependent, then drop
/// the `orphan` finalizer.
fn orphan_dependents(cx: &mut Cx, kind: &str, ns: Option<&str>, name: &str) {
    let Some(owner) = get_item(cx, kind, ns, name) else { return };
    if !is_deleting(owner.meta()) || !has_finalizer(owner.meta(), ORPHAN_FINALIZER) {
        return;
    }
    let uid = owner.meta().uid.clone().unwrap_or_default();
    let deps = dependents(cx, &uid);
    let mut actions: Vec<String> =
        deps.iter().map(|(d, _)| format!("remove the owner reference of {}", describe(d))).collect();
    actions.push(format!("remove finalizer {ORPHAN_FINALIZER}"));
    cx.decide(
        Phase::Controllers,
        NAME,
        Some(&owner),
        format!("garbage collector orphans the {} dependent(s) of {}", deps.len(), describe(&owner)),
        format!("{} is deleted with propagationPolicy=Orphan", describe(&owner)),
        "dependents stay, without this owner".into(),
        actions,
        StepStatus::Ok,
    );
    for (mut dep, _) in deps {
        if let Some(rs) = dep.meta_mut().owner_references.as_mut() {
            rs.retain(|r| r.uid != uid);
        }
        if dep.meta().owner_references.as_ref().is_some_and(|r| r.is_empty()) {
            dep.meta_mut().owner_references = None;
        }
        let _ = cx.update(SERVICE_ACCOUNT, dep);
    }
    let mut updated = owner.clone();
    if let Some(f) = updated.meta_mut().finalizers.as_mut() {
        f.retain(|x| x != ORPHAN_FINALIZER);
        if f.is_empty() {
            updated.meta_mut().finalizers = None;
        }
    }
    let _ = cx.update(SERVICE_ACCOUNT, updated);
}
