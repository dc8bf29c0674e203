//! `LimitRanger` (`plugin/pkg/admission/limitranger`).
//!
//! Mutating pass: containers and init containers of a new pod get the `defaultRequest` and
//! `default` values of the namespace's `Container` LimitRange items for every resource they do
//! not set, and the pod is annotated `kubernetes.io/limit-ranger` with what was filled in.
//! Validating pass: the `min`, `max` and `maxLimitRequestRatio` of `Container` and `Pod` items
//! (and `PersistentVolumeClaim` items for claims) are enforced; all violations of one
//! LimitRange are reported together.
//!
//! Upstream iterates Go maps, so the order of several violations varies between runs; the lab
//! lists them by resource name.

use super::{all_containers, pod_mut};
use crate::admission::{aggregate, Attributes, Context, Decision, MutatingPlugin, Operation, ValidatingPlugin};
use crate::object::Object;
use crate::quantity::Quantity;
use crate::resource::{self, is_pod_level_resource, Totals};
use crate::sort::CollectMap;
use k8s_openapi::api::core::v1::{Container, LimitRange, LimitRangeItem, PersistentVolumeClaim, Pod};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as KQuantity;
use std::collections::BTreeMap;

pub(crate) struct LimitRanger;

const ANNOTATION: &str = "kubernetes.io/limit-ranger";

type ResourceList = BTreeMap<String, KQuantity>;

fn limit_ranges(ctx: &Context, namespace: &str) -> Vec<LimitRange> {
    ctx.list("LimitRange", Some(namespace))
        .into_iter()
        .filter_map(|o| match o {
            Object::LimitRange(l) => Some((**l).clone()),
            _ => None,
        })
        .collect()
}

fn items(lr: &LimitRange) -> &[LimitRangeItem] {
    lr.spec.as_ref().map(|s| s.limits.as_slice()).unwrap_or(&[])
}

/// Requests must be for a pod or a claim, not a subresource; pod updates are left alone
/// (containers are immutable), except the `resize` subresource.
fn supports(attrs: &Attributes) -> bool {
    if attrs.is_core("pods") && attrs.subresource == "resize" && attrs.operation == Operation::Update {
        return true;
    }
    if !attrs.subresource.is_empty() {
        return false;
    }
    if attrs.is_core("pods") && attrs.operation == Operation::Update {
        return false;
    }
    matches!(attrs.operation, Operation::Create | Operation::Update)
        && (attrs.is_core("pods") || attrs.is_core("persistentvolumeclaims"))
}

fn marked_for_deletion(attrs: &Attributes) -> bool {
    attrs.old_object.is_some_and(|o| o.meta().deletion_timestamp.is_some())
}

impl MutatingPlugin for LimitRanger {
    fn name(&self) -> &'static str {
        "LimitRanger"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        supports(attrs)
    }

    fn admit(&self, ctx: &Context, attrs: &Attributes, obj: &mut Object) -> Decision {
        if marked_for_deletion(attrs) {
            return Decision::not_applicable("The object is being deleted; LimitRanges do not apply.");
        }
        let ranges = limit_ranges(ctx, &attrs.namespace);
        if ranges.is_empty() {
            return Decision::not_applicable(format!("There is no LimitRange in namespace {}.", attrs.namespace));
        }
        let Some(pod) = pod_mut(obj) else {
            return Decision::allow("LimitRanges never fill in defaults on a PersistentVolumeClaim.");
        };
        let mut notes = Vec::new();
        let mut decision = Decision::allow("");
        for lr in &ranges {
            let (requests, limits) = defaults(lr);
            if requests.is_empty() && limits.is_empty() {
                notes.push(format!(
                    "LimitRange {} has no Container defaults.",
                    lr.metadata.name.as_deref().unwrap_or("")
                ));
                continue;
            }
            let set = merge_defaults(pod, &requests, &limits);
            let name = lr.metadata.name.clone().unwrap_or_default();
            if set.is_empty() {
                notes.push(format!("Every container already sets what LimitRange {name} would default."));
                continue;
            }
            let value = format!("LimitRanger plugin set: {}", set.join("; "));
            pod.metadata.annotations.get_or_insert_with(BTreeMap::new).insert(ANNOTATION.into(), value.clone());
            notes.push(format!(
                "LimitRange {name} filled in what the containers left out, and the {ANNOTATION} annotation records it."
            ));
            decision = decision.annotate(ANNOTATION, value);
        }
        notes.push("Min, max and ratio limits are checked in the validating pass.".into());
        decision.explanation = notes.join(" ");
        decision
    }
}

/// The `Container` items' `defaultRequest` (requests) and `default` (limits); later items win.
fn defaults(lr: &LimitRange) -> (ResourceList, ResourceList) {
    let mut requests = ResourceList::new();
    let mut limits = ResourceList::new();
    for item in items(lr) {
        if item.type_ == "Container" {
            for (k, v) in item.default_request.iter().flatten() {
                requests.insert(k.clone(), v.clone());
            }
            for (k, v) in item.default.iter().flatten() {
                limits.insert(k.clone(), v.clone());
            }
        }
    }
    (requests, limits)
}

/// Fills defaults into every container and init container; returns the annotation parts
/// (`cpu, memory request for container web`).
fn merge_defaults(pod: &mut Pod, requests: &ResourceList, limits: &ResourceList) -> Vec<String> {
    let mut parts = Vec::new();
    let Some(spec) = pod.spec.as_mut() else { return parts };
    for c in spec.containers.iter_mut() {
        merge_container(c, requests, limits, "container", &mut parts);
    }
    for c in spec.init_containers.iter_mut().flatten() {
        merge_container(c, requests, limits, "init container", &mut parts);
    }
    parts
}

fn merge_container(
    c: &mut Container,
    requests: &ResourceList,
    limits: &ResourceList,
    what: &str,
    parts: &mut Vec<String>,
) {
    let res = c.resources.get_or_insert_with(Default::default);
    let mut set_limits = Vec::new();
    let mut set_requests = Vec::new();
    let lim = res.limits.get_or_insert_with(BTreeMap::new);
    for (k, v) in limits {
        if !lim.contains_key(k) {
            lim.insert(k.clone(), v.clone());
            set_limits.push(k.clone());
        }
    }
    let req = res.requests.get_or_insert_with(BTreeMap::new);
    for (k, v) in requests {
        if !req.contains_key(k) {
            req.insert(k.clone(), v.clone());
            set_requests.push(k.clone());
        }
    }
    // Upstream leaves empty maps behind; they vanish when the object is serialised.
    if res.limits.as_ref().is_some_and(|m| m.is_empty()) {
        res.limits = None;
    }
    if res.requests.as_ref().is_some_and(|m| m.is_empty()) {
        res.requests = None;
    }
    if !set_requests.is_empty() {
        crate::sort::sort(&mut set_requests);
        parts.push(format!("{} request for {what} {}", set_requests.join(", "), c.name));
    }
    if !set_limits.is_empty() {
        crate::sort::sort(&mut set_limits);
        parts.push(format!("{} limit for {what} {}", set_limits.join(", "), c.name));
    }
}

impl ValidatingPlugin for LimitRanger {
    fn name(&self) -> &'static str {
        "LimitRanger"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        supports(attrs)
    }

    fn validate(&self, ctx: &Context, attrs: &Attributes, obj: &Object) -> Decision {
        if marked_for_deletion(attrs) {
            return Decision::not_applicable("The object is being deleted; LimitRanges do not apply.");
        }
        let ranges = limit_ranges(ctx, &attrs.namespace);
        if ranges.is_empty() {
            return Decision::not_applicable(format!("There is no LimitRange in namespace {}.", attrs.namespace));
        }
        let mut checked = Vec::new();
        for lr in &ranges {
            let name = lr.metadata.name.clone().unwrap_or_default();
            let errs = match obj {
                Object::Pod(p) => validate_pod(lr, p),
                Object::PersistentVolumeClaim(c) => {
                    let old = match &attrs.old_object {
                        Some(Object::PersistentVolumeClaim(o)) => Some(&**o),
                        _ => None,
                    };
                    validate_claim(lr, c, old)
                }
                _ => vec![],
            };
            if !errs.is_empty() {
                return Decision::deny(
                    attrs.forbidden(Some(obj), aggregate(&errs)),
                    format!("The object breaks LimitRange {name}: every violation of that LimitRange is listed."),
                );
            }
            checked.push(name);
        }
        Decision::allow(ctx.explain(|| format!("Within the limits of LimitRange {}.", checked.join(", "))))
    }
}

fn q(v: &KQuantity) -> Option<Quantity> {
    Quantity::parse(&v.0).ok()
}

fn text(v: &KQuantity) -> String {
    q(v).map(|x| x.to_string()).unwrap_or_else(|| v.0.clone())
}

fn min_constraint(
    kind: &str,
    res: &str,
    enforced: &KQuantity,
    req: &ResourceList,
    lim: &ResourceList,
) -> Option<String> {
    let e = q(enforced)?;
    let Some(r) = req.get(res) else {
        return Some(format!("minimum {res} usage per {kind} is {}.  No request is specified", text(enforced)));
    };
    if q(r).is_some_and(|r| e > r) {
        return Some(format!("minimum {res} usage per {kind} is {}, but request is {}", text(enforced), text(r)));
    }
    if let Some(l) = lim.get(res) {
        if q(l).is_some_and(|l| e > l) {
            return Some(format!("minimum {res} usage per {kind} is {}, but limit is {}", text(enforced), text(l)));
        }
    }
    None
}

fn max_constraint(
    kind: &str,
    res: &str,
    enforced: &KQuantity,
    req: &ResourceList,
    lim: &ResourceList,
) -> Option<String> {
    let e = q(enforced)?;
    let Some(l) = lim.get(res) else {
        return Some(format!("maximum {res} usage per {kind} is {}.  No limit is specified", text(enforced)));
    };
    if q(l).is_some_and(|l| l > e) {
        return Some(format!("maximum {res} usage per {kind} is {}, but limit is {}", text(enforced), text(l)));
    }
    if let Some(r) = req.get(res) {
        if q(r).is_some_and(|r| r > e) {
            return Some(format!("maximum {res} usage per {kind} is {}, but request is {}", text(enforced), text(r)));
        }
    }
    None
}

fn max_request_constraint(kind: &str, res: &str, enforced: &KQuantity, req: &ResourceList) -> Option<String> {
    let e = q(enforced)?;
    let Some(r) = req.get(res) else {
        return Some(format!("maximum {res} usage per {kind} is {}.  No request is specified", text(enforced)));
    };
    if q(r).is_some_and(|r| r > e) {
        return Some(format!("maximum {res} usage per {kind} is {}, but request is {}", text(enforced), text(r)));
    }
    None
}

/// `limit / request` with six decimals, rounded half to even (upstream's `ratioString`).
fn ratio_text(limit: i128, request: i128) -> String {
    let scaled_num = limit.saturating_mul(1_000_000);
    let mut quo = scaled_num / request;
    let rem = scaled_num % request;
    if rem.saturating_mul(2) > request || (rem.saturating_mul(2) == request && quo % 2 == 1) {
        quo += 1;
    }
    format!("{}.{:06}", quo / 1_000_000, quo % 1_000_000)
}

fn ratio_constraint(
    kind: &str,
    res: &str,
    enforced: &KQuantity,
    req: &ResourceList,
    lim: &ResourceList,
) -> Option<String> {
    let e = q(enforced)?;
    let r = req.get(res).and_then(q).filter(|r| !r.is_zero());
    let Some(r) = r else {
        return Some(format!(
            "{res} max limit to request ratio per {kind} is {}, but no request is specified or request is 0",
            text(enforced)
        ));
    };
    let l = lim.get(res).and_then(q).filter(|l| !l.is_zero());
    let Some(l) = l else {
        return Some(format!(
            "{res} max limit to request ratio per {kind} is {}, but no limit is specified or limit is 0",
            text(enforced)
        ));
    };
    // limit > request * ratio, all in thousandths.
    let (l, r) = (l.milli().saturating_abs(), r.milli().saturating_abs());
    if l.saturating_mul(1000) > r.saturating_mul(e.milli()) {
        return Some(format!(
            "{res} max limit to request ratio per {kind} is {}, but provided ratio is {}",
            text(enforced),
            ratio_text(l, r)
        ));
    }
    None
}

fn check_item(item: &LimitRangeItem, kind: &str, req: &ResourceList, lim: &ResourceList, errs: &mut Vec<String>) {
    for (k, v) in item.min.iter().flatten() {
        errs.extend(min_constraint(kind, k, v, req, lim));
    }
    for (k, v) in item.max.iter().flatten() {
        errs.extend(max_constraint(kind, k, v, req, lim));
    }
    for (k, v) in item.max_limit_request_ratio.iter().flatten() {
        errs.extend(ratio_constraint(kind, k, v, req, lim));
    }
}

fn requests_of(c: &Container) -> ResourceList {
    c.resources.as_ref().and_then(|r| r.requests.clone()).unwrap_or_default()
}

fn limits_of(c: &Container) -> ResourceList {
    c.resources.as_ref().and_then(|r| r.limits.clone()).unwrap_or_default()
}

fn validate_pod(lr: &LimitRange, pod: &Pod) -> Vec<String> {
    let mut errs = Vec::new();
    let Some(spec) = pod.spec.as_ref() else { return errs };
    for item in items(lr) {
        if item.type_ == "Container" {
            for c in spec.containers.iter().chain(spec.init_containers.iter().flatten()) {
                check_item(item, "Container", &requests_of(c), &limits_of(c), &mut errs);
            }
        }
        if item.type_ == "Pod" {
            let (req, lim) = pod_totals(pod);
            check_item(item, "Pod", &req, &lim, &mut errs);
        }
    }
    errs
}

/// Claim requests against `PersistentVolumeClaim` items. On update a request the stored claim
/// already holds unchanged is not checked again (a stored value is valid as stored).
fn validate_claim(lr: &LimitRange, pvc: &PersistentVolumeClaim, old: Option<&PersistentVolumeClaim>) -> Vec<String> {
    let requests_of = |c: &PersistentVolumeClaim| {
        c.spec.as_ref().and_then(|s| s.resources.as_ref()).and_then(|r| r.requests.clone()).unwrap_or_default()
    };
    let mut errs = Vec::new();
    let req = requests_of(pvc);
    let old_req = old.map(requests_of).unwrap_or_default();
    let unchanged = |k: &String| match (req.get(k).and_then(q), old_req.get(k).and_then(q)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    };
    for item in items(lr) {
        if item.type_ == "PersistentVolumeClaim" {
            for (k, v) in item.min.iter().flatten().filter(|(k, _)| !unchanged(k)) {
                errs.extend(min_constraint("PersistentVolumeClaim", k, v, &req, &ResourceList::new()));
            }
            for (k, v) in item.max.iter().flatten().filter(|(k, _)| !unchanged(k)) {
                errs.extend(max_request_constraint("PersistentVolumeClaim", k, v, &req));
            }
        }
    }
    errs
}

/// LimitRanger's sums of quantities: a sum keeps the format of its first term and
/// saturates; a regular init container's need starts from the sidecars' sum.
#[derive(Clone, Default)]
struct Sums(BTreeMap<String, Quantity>);

impl Totals for Sums {
    fn add(&mut self, other: &Self) {
        for (k, x) in &other.0 {
            match self.0.get_mut(k) {
                Some(t) => *t = Quantity::from_milli(t.milli().saturating_add(x.milli()), t.format()),
                None => {
                    self.0.insert(k.clone(), *x);
                }
            }
        }
    }

    fn max(&mut self, other: &Self) {
        Totals::max(&mut self.0, &other.0);
    }

    fn with_sidecars(own: Self, sidecars: &Self) -> Self {
        let mut t = sidecars.clone();
        t.add(&own);
        t
    }
}

/// Pod-level requests and limits as the scheduler counts them (`crate::resource`, without
/// the overhead): app containers and restartable (sidecar) init containers add up, a plain
/// init container counts only while it runs alone; pod-level `spec.resources`
/// (PodLevelResources, on by default) override for cpu, memory and hugepages.
pub(crate) fn pod_totals(pod: &Pod) -> (ResourceList, ResourceList) {
    let Some(spec) = pod.spec.as_ref() else { return (ResourceList::new(), ResourceList::new()) };
    let total = |pick: fn(&Container) -> ResourceList, level: Option<&ResourceList>| -> ResourceList {
        let mut total = resource::aggregate(spec, |c| {
            Sums(pick(c).iter().filter_map(|(k, v)| Some((k.clone(), q(v)?))).collect_map())
        })
        .0;
        for (k, v) in level.into_iter().flatten() {
            if is_pod_level_resource(k) {
                if let Some(x) = q(v) {
                    total.insert(k.clone(), x);
                }
            }
        }
        total.into_iter().map(|(k, v)| (k, KQuantity(v.to_string()))).collect_map()
    };
    let level = spec.resources.as_ref();
    (
        total(requests_of, level.and_then(|r| r.requests.as_ref())),
        total(limits_of, level.and_then(|r| r.limits.as_ref())),
    )
}

/// Every container name, for explanations.
#[allow(dead_code)]
pub(crate) fn container_names(pod: &Pod) -> Vec<String> {
    pod.spec.as_ref().map(|s| all_containers(s).map(|c| c.name.clone()).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::ratio_text;

    #[test]
    fn ratio_has_six_decimals() {
        assert_eq!(ratio_text(2000, 500), "4.000000");
        assert_eq!(ratio_text(1000, 300), "3.333333");
        assert_eq!(ratio_text(2000, 3000), "0.666667");
    }
}
