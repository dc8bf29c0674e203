//! `ResourceQuota` (apiserver `pkg/admission/plugin/resourcequota` with the evaluators of
//! `pkg/quota/v1/evaluator/core`).
//!
//! The last plugin of the chain charges a new object against every quota of its namespace that
//! tracks it (and whose scopes match it). Two ways to be refused:
//!
//! * a quota tracks cpu or memory (`requests.cpu`, `limits.memory`, ...) and some container does
//!   not set that value: `failed quota: <name>: must specify limits.cpu for: web; ...`;
//! * the new usage would exceed `hard`: `exceeded quota: <name>, requested: ..., used: ...,
//!   limited: ...`, listing only the resources that overflow.
//!
//! Usage is what the quota's `status.used` says when the quota controller has filled it in;
//! otherwise the lab counts it from the stored objects exactly as the controller would (pods in
//! a terminal phase, or past their deletion grace period, use no compute resources; `count/*`
//! counts every object). Upstream the admission plugin itself then writes the new usage into
//! `status.used`; the updates are returned for the API server to write.

use super::{all_containers, pod_totals};
use crate::admission::{Attributes, Context, Decision, Operation, ValidatingPlugin};
use crate::object::Object;
use crate::quantity::Quantity;
use crate::sort::CollectMap;
use k8s_openapi::api::core::v1::{Pod, ResourceQuota as Rq};
use std::collections::{BTreeMap, BTreeSet};

pub(crate) struct ResourceQuota;

/// A quota's `status.used` after the object is charged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotaStatusUpdate {
    pub namespace: String,
    pub name: String,
    pub hard: BTreeMap<String, String>,
    pub used: BTreeMap<String, String>,
}

type Usage = BTreeMap<String, Quantity>;

const POD_RESOURCES: &[&str] = &[
    "count/pods",
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
];

/// Resources a pod must set in every container when a quota tracks them.
const VALIDATION_SET: &[&str] = &["cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory"];

/// Legacy object-count names of core resources (`pods` is a compute resource, see above).
fn legacy_count_name(plural: &str) -> Option<&'static str> {
    Some(match plural {
        "services" => "services",
        "secrets" => "secrets",
        "configmaps" => "configmaps",
        "persistentvolumeclaims" => "persistentvolumeclaims",
        "replicationcontrollers" => "replicationcontrollers",
        "resourcequotas" => "resourcequotas",
        _ => return None,
    })
}

fn count_name(attrs: &Attributes) -> String {
    format!("count/{}", attrs.resource.qualified_resource())
}

/// The resources of `hard` this kind of object is charged for.
fn matching_resources(attrs: &Attributes, hard: &BTreeSet<String>) -> Vec<String> {
    hard.iter()
        .filter(|r| {
            if attrs.is_core("pods") {
                POD_RESOURCES.contains(&r.as_str())
                    || r.starts_with("hugepages-")
                    || r.starts_with("requests.hugepages-")
                    || (r.starts_with("requests.") && r.contains('/'))
            } else if attrs.is_core("persistentvolumeclaims") {
                *r == "persistentvolumeclaims" || *r == "requests.storage" || *r == "count/persistentvolumeclaims"
            } else {
                **r == count_name(attrs) || legacy_count_name(attrs.resource.plural) == Some(r.as_str())
            }
        })
        .cloned()
        .collect()
}

fn parse(v: &str) -> Quantity {
    Quantity::parse(v).unwrap_or(Quantity::ZERO)
}

/// Adds `v` to `usage[k]`; a zero total takes `v`'s format (so memory stays in `Mi`).
fn add(usage: &mut Usage, k: &str, v: Quantity) {
    match usage.get_mut(k) {
        Some(t) if t.is_zero() => *t = v,
        Some(t) => *t = Quantity::from_milli(t.milli().saturating_add(v.milli()), t.format()),
        None => {
            usage.insert(k.to_string(), v);
        }
    }
}

fn is_terminal(pod: &Pod) -> bool {
    matches!(pod.status.as_ref().and_then(|s| s.phase.as_deref()), Some("Succeeded") | Some("Failed"))
}

/// Past its deletion grace period (`QuotaV1Pod`).
fn past_grace(pod: &Pod, now_unix_ms: i64) -> bool {
    let Some(ts) = pod.metadata.deletion_timestamp.as_ref() else { return false };
    let grace = pod.metadata.deletion_grace_period_seconds.unwrap_or(0);
    now_unix_ms > ts.0.as_millisecond() + grace * 1000
}

/// The quota usage of one pod (`PodUsageFunc`).
fn pod_usage(pod: &Pod, now_unix_ms: i64) -> Usage {
    let mut u = Usage::new();
    u.insert("count/pods".into(), Quantity::from_units(1));
    if is_terminal(pod) || past_grace(pod, now_unix_ms) {
        return u;
    }
    let (mut req, lim) = pod_totals(pod);
    // Pod overhead (RuntimeClass) counts towards requests.
    for (k, v) in pod.spec.as_ref().and_then(|s| s.overhead.clone()).unwrap_or_default() {
        let sum = match req.get(&k) {
            Some(q) => parse(&q.0) + parse(&v.0),
            None => parse(&v.0),
        };
        req.insert(k, k8s_openapi::apimachinery::pkg::api::resource::Quantity(sum.to_string()));
    }
    u.insert("pods".into(), Quantity::from_units(1));
    for (k, v) in &req {
        let q = parse(&v.0);
        match k.as_str() {
            "cpu" | "memory" | "ephemeral-storage" => {
                u.insert(k.clone(), q);
                u.insert(format!("requests.{k}"), q);
            }
            other if other.starts_with("hugepages-") => {
                u.insert(k.clone(), q);
                u.insert(format!("requests.{k}"), q);
            }
            other if other.contains('/') => {
                u.insert(format!("requests.{k}"), q);
            }
            _ => {}
        }
    }
    for (k, v) in &lim {
        if matches!(k.as_str(), "cpu" | "memory" | "ephemeral-storage") {
            u.insert(format!("limits.{k}"), parse(&v.0));
        }
    }
    u
}

fn object_usage(attrs: &Attributes, obj: &Object, now_unix_ms: i64) -> Usage {
    match obj {
        Object::Pod(p) => pod_usage(p, now_unix_ms),
        Object::PersistentVolumeClaim(c) => claim_usage(c),
        _ => {
            let mut u = Usage::new();
            u.insert(count_name(attrs), Quantity::from_units(1));
            if let Some(legacy) = legacy_count_name(attrs.resource.plural) {
                u.insert(legacy.into(), Quantity::from_units(1));
            }
            u
        }
    }
}

fn is_best_effort(pod: &Pod) -> bool {
    pod.spec.as_ref().is_none_or(|s| {
        all_containers(s).all(|c| {
            let r = c.resources.as_ref();
            let none = |m: Option<&BTreeMap<String, k8s_openapi::apimachinery::pkg::api::resource::Quantity>>| {
                m.is_none_or(|m| {
                    m.iter().filter(|(k, _)| *k == "cpu" || *k == "memory").all(|(_, v)| parse(&v.0).is_zero())
                })
            };
            none(r.and_then(|r| r.requests.as_ref())) && none(r.and_then(|r| r.limits.as_ref()))
        })
    })
}

/// Whether a quota's scopes select this object (only pods have scopes).
fn scopes_match(q: &Rq, obj: &Object) -> bool {
    let spec = q.spec.clone().unwrap_or_default();
    let mut selectors: Vec<(String, String, Vec<String>)> =
        spec.scopes.iter().flatten().map(|s| (s.clone(), "Exists".to_string(), vec![])).collect();
    for e in spec.scope_selector.iter().flat_map(|s| s.match_expressions.iter().flatten()) {
        selectors.push((e.scope_name.clone(), e.operator.clone(), e.values.clone().unwrap_or_default()));
    }
    if selectors.is_empty() {
        return true;
    }
    let Object::Pod(pod) = obj else { return false };
    let spec = pod.spec.clone().unwrap_or_default();
    selectors.iter().all(|(scope, op, values)| match scope.as_str() {
        "Terminating" => spec.active_deadline_seconds.is_some_and(|s| s >= 0),
        "NotTerminating" => spec.active_deadline_seconds.is_none_or(|s| s < 0),
        "BestEffort" => is_best_effort(pod),
        "NotBestEffort" => !is_best_effort(pod),
        "PriorityClass" => {
            let pc = spec.priority_class_name.clone().unwrap_or_default();
            match op.as_str() {
                "Exists" => !pc.is_empty(),
                "DoesNotExist" => pc.is_empty(),
                "In" => !pc.is_empty() && values.contains(&pc),
                "NotIn" => pc.is_empty() || !values.contains(&pc),
                _ => false,
            }
        }
        "CrossNamespacePodAffinity" => false,
        _ => false,
    })
}

/// `status.hard` (or `spec.hard` before the controller ran) and the usage it is compared to.
fn hard_and_used(ctx: &Context, attrs: &Attributes, q: &Rq, now_unix_ms: i64) -> (Usage, Usage, bool) {
    let status = q.status.clone().unwrap_or_default();
    let (hard_src, from_status) = match &status.hard {
        Some(h) if !h.is_empty() => (h.clone(), true),
        _ => (q.spec.as_ref().and_then(|s| s.hard.clone()).unwrap_or_default(), false),
    };
    let hard: Usage = hard_src.iter().map(|(k, v)| (k.clone(), parse(&v.0))).collect_map();
    let tracked: BTreeSet<String> = hard.keys().cloned().collect();
    if let Some(used) = status.used.as_ref().filter(|u| from_status && tracked.iter().all(|k| u.contains_key(k))) {
        return (hard, used.iter().map(|(k, v)| (k.clone(), parse(&v.0))).collect_map(), true);
    }
    (hard, namespace_usage(ctx, &attrs.namespace, q, &tracked, now_unix_ms), false)
}

/// What the quota controller would count in `namespace` for the `tracked` resources.
fn namespace_usage(ctx: &Context, namespace: &str, q: &Rq, tracked: &BTreeSet<String>, now_unix_ms: i64) -> Usage {
    let mut used: Usage = tracked.iter().map(|k| (k.clone(), Quantity::ZERO)).collect_map();
    let charge = |u: Usage, used: &mut Usage| {
        for (k, v) in u {
            if tracked.contains(&k) {
                add(used, &k, v);
            }
        }
    };
    for o in ctx.list("Pod", Some(namespace)) {
        if let Object::Pod(p) = o {
            if scopes_match(q, o) {
                charge(pod_usage(p, now_unix_ms), &mut used);
            }
        }
    }
    for o in ctx.list("PersistentVolumeClaim", Some(namespace)) {
        if let Object::PersistentVolumeClaim(c) = o {
            charge(claim_usage(c), &mut used);
        }
    }
    for k in tracked {
        let res = k.strip_prefix("count/").unwrap_or(k);
        if res == "pods"
            || res == "persistentvolumeclaims"
            || (!k.starts_with("count/") && legacy_count_name(res).is_none())
        {
            continue;
        }
        let (plural, group) = res.split_once('.').unwrap_or((res, ""));
        let kind = crate::object::RESOURCES.iter().find(|r| r.plural == plural && r.group == group).map(|r| r.kind);
        if let Some(kind) = kind {
            used.insert(k.clone(), Quantity::from_units(ctx.list(kind, Some(namespace)).len() as i128));
        }
    }
    used
}

fn claim_usage(c: &k8s_openapi::api::core::v1::PersistentVolumeClaim) -> Usage {
    let mut u = Usage::new();
    u.insert("persistentvolumeclaims".into(), Quantity::from_units(1));
    u.insert("count/persistentvolumeclaims".into(), Quantity::from_units(1));
    let storage = c
        .spec
        .as_ref()
        .and_then(|s| s.resources.as_ref())
        .and_then(|r| r.requests.as_ref())
        .and_then(|r| r.get("storage"));
    if let Some(s) = storage {
        u.insert("requests.storage".into(), parse(&s.0));
    }
    u
}

fn pretty(u: &Usage, keys: &[String]) -> String {
    keys.iter().filter_map(|k| u.get(k).map(|v| format!("{k}={v}"))).collect::<Vec<_>>().join(",")
}

impl ValidatingPlugin for ResourceQuota {
    fn name(&self) -> &'static str {
        "ResourceQuota"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        attrs.operation == Operation::Create && attrs.subresource.is_empty() && !attrs.namespace.is_empty()
    }

    fn validate(&self, ctx: &Context, attrs: &Attributes, obj: &Object) -> Decision {
        let mut quotas: Vec<Rq> = ctx
            .list("ResourceQuota", Some(&attrs.namespace))
            .into_iter()
            .filter_map(|o| match o {
                Object::ResourceQuota(q) => Some((**q).clone()),
                _ => None,
            })
            .collect();
        crate::sort::sort_by(&mut quotas, |a, b| a.metadata.name.cmp(&b.metadata.name));
        if quotas.is_empty() {
            return Decision::not_applicable(format!("There is no ResourceQuota in namespace {}.", attrs.namespace));
        }
        let now_unix_ms = crate::apiserver::EPOCH_UNIX_MS + ctx.now_ms as i64;
        let usage = object_usage(attrs, obj, now_unix_ms);
        let mut interesting = Vec::new();
        let mut notes = Vec::new();
        for q in &quotas {
            let name = q.metadata.name.clone().unwrap_or_default();
            let (hard, used, from_status) = hard_and_used(ctx, attrs, q, now_unix_ms);
            let tracked: BTreeSet<String> = hard.keys().cloned().collect();
            let restricted = matching_resources(attrs, &tracked);
            if restricted.is_empty() || !scopes_match(q, obj) {
                notes.push(format!("Quota {name} does not track this object."));
                continue;
            }
            if let Object::Pod(pod) = obj {
                let required: Vec<&String> =
                    restricted.iter().filter(|r| VALIDATION_SET.contains(&r.as_str())).collect();
                if !required.is_empty() {
                    let mut missing: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
                    if let Some(spec) = pod.spec.as_ref() {
                        for c in spec.containers.iter().chain(spec.init_containers.iter().flatten()) {
                            let has = container_usage_names(c);
                            for r in &required {
                                if !has.contains(r.as_str()) {
                                    missing.entry((*r).clone()).or_default().insert(c.name.clone());
                                }
                            }
                        }
                    }
                    if !missing.is_empty() {
                        let parts: Vec<String> = missing
                            .iter()
                            .map(|(r, cs)| format!("{r} for: {}", cs.iter().cloned().collect::<Vec<_>>().join(",")))
                            .collect();
                        return Decision::deny(
                            attrs.forbidden(
                                Some(obj),
                                format!("failed quota: {name}: must specify {}", parts.join("; ")),
                            ),
                            format!(
                                "Quota {name} tracks {}: every init and app container must then set each of these \
                                 (a LimitRange with defaults would fill them in).",
                                required.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                            ),
                        );
                    }
                }
            }
            interesting.push((q, name, hard, used, restricted, from_status));
        }
        if interesting.is_empty() {
            return Decision::not_applicable(notes.join(" "));
        }
        let mut updates = Vec::new();
        for (q, name, hard, used, restricted, from_status) in &interesting {
            let requested: Usage = usage
                .iter()
                .filter(|(k, v)| restricted.contains(k) && !v.is_zero())
                .map(|(k, v)| (k.clone(), *v))
                .collect_map();
            let mut new_used = used.clone();
            for (k, v) in &requested {
                add(&mut new_used, k, *v);
            }
            let exceeded: Vec<String> = requested
                .keys()
                .filter(|k| hard.get(*k).is_some_and(|h| new_used.get(*k).is_some_and(|n| n > h)))
                .cloned()
                .collect();
            if !exceeded.is_empty() {
                return Decision::deny(
                    attrs.forbidden(
                        Some(obj),
                        format!(
                            "exceeded quota: {name}, requested: {}, used: {}, limited: {}",
                            pretty(&requested, &exceeded),
                            pretty(used, &exceeded),
                            pretty(hard, &exceeded)
                        ),
                    ),
                    format!(
                        "Quota {name} would be exceeded ({}). Usage {}.",
                        exceeded.join(", "),
                        if *from_status {
                            "is the quota's status.used"
                        } else {
                            "is counted from the objects in the namespace"
                        }
                    ),
                );
            }
            let text = |u: &Usage| -> BTreeMap<String, String> {
                u.iter().map(|(k, v)| (k.clone(), v.to_string())).collect_map()
            };
            notes.push(format!(
                "Quota {name}: {} after this object.",
                hard.keys()
                    .map(|k| format!("{k} {}/{}", new_used.get(k).copied().unwrap_or(Quantity::ZERO), hard[k]))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            updates.push(QuotaStatusUpdate {
                namespace: attrs.namespace.clone(),
                name: q.metadata.name.clone().unwrap_or_default(),
                hard: text(hard),
                used: text(&new_used),
            });
        }
        let mut d = Decision::allow(notes.join(" "));
        d.quota_updates = updates;
        d
    }
}

/// The quota resource names one container's requests and limits provide.
fn container_usage_names(c: &k8s_openapi::api::core::v1::Container) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    let r = c.resources.as_ref();
    let req = r.and_then(|r| r.requests.as_ref());
    let lim = r.and_then(|r| r.limits.as_ref());
    if req.is_some_and(|m| m.contains_key("cpu")) {
        out.extend(["cpu", "requests.cpu"]);
    }
    if req.is_some_and(|m| m.contains_key("memory")) {
        out.extend(["memory", "requests.memory"]);
    }
    if lim.is_some_and(|m| m.contains_key("cpu")) {
        out.insert("limits.cpu");
    }
    if lim.is_some_and(|m| m.contains_key("memory")) {
        out.insert("limits.memory");
    }
    out
}
