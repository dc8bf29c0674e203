//! A pod's resource totals, one home for every component (k8s component-helpers' `resource`
//! package: `PodRequests`, `PodLimits`): app containers are summed; each regular init
//! container needs its own list plus every restartable (sidecar) init container started
//! before it; sidecars also run next to the app containers, so they join the sum; the pod
//! needs the larger of the two, resource by resource. Pod-level `spec.resources` (cpu,
//! memory, hugepages) then replace the container aggregate, and `spec.overhead` is added.
//!
//! The arithmetic is generic over the list it accumulates into (`Totals`): the scheduler adds
//! plain thousandths on its hot path, the printers and the kubelet add `Quantity`s (a sum
//! keeps the format of its first term), the kubelet's cgroups one resource at a time, and
//! LimitRanger saturating sums of its own.

use crate::quantity::Quantity;
use crate::sort::CollectMap;
use k8s_openapi::api::core::v1::{Container, Pod, PodSpec};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as ApiQuantity;
use std::collections::BTreeMap;

/// A resource list as quantities.
pub type ResourceList = BTreeMap<String, Quantity>;

/// A resource list as quantities; unparsable values count as absent, as they never get past
/// validation.
pub fn resource_list(list: Option<&BTreeMap<String, ApiQuantity>>) -> ResourceList {
    list.map(|m| m.iter().filter_map(|(k, v)| Quantity::parse(&v.0).ok().map(|q| (k.clone(), q))).collect_map())
        .unwrap_or_default()
}

/// A restartable init container (`restartPolicy: Always`): a sidecar.
pub fn is_restartable_init_container(c: &Container) -> bool {
    c.restart_policy.as_deref() == Some("Always")
}

/// The resources pod-level `spec.resources` may set (`IsSupportedPodLevelResource`).
pub fn is_pod_level_resource(name: &str) -> bool {
    name == "cpu" || name == "memory" || name.starts_with("hugepages-")
}

/// What a list's totals are made of: adding and taking the larger value.
pub trait Amount: Copy + PartialOrd {
    fn plus(self, other: Self) -> Self;
}

impl Amount for Quantity {
    /// The sum keeps the format of `self`.
    fn plus(self, other: Self) -> Self {
        self + other
    }
}

/// Thousandths of a unit.
impl Amount for i128 {
    fn plus(self, other: Self) -> Self {
        self + other
    }
}

/// A list the totals accumulate into (`addResourceList`, `maxResourceList`).
pub trait Totals: Clone + Default {
    /// Adds every entry of `other` (a missing entry is inserted).
    fn add(&mut self, other: &Self);
    /// Takes every entry of `other` that is larger (or missing): an equal value keeps the
    /// entry already there.
    fn max(&mut self, other: &Self);
    /// What a regular init container needs while it runs: its own list plus the sidecars
    /// started before it. The order of the sum sets whose format it keeps.
    fn with_sidecars(mut own: Self, sidecars: &Self) -> Self {
        own.add(sidecars);
        own
    }
}

impl<V: Amount> Totals for BTreeMap<String, V> {
    fn add(&mut self, other: &Self) {
        for (k, v) in other {
            match self.get_mut(k) {
                Some(t) => *t = t.plus(*v),
                None => {
                    self.insert(k.clone(), *v);
                }
            }
        }
    }

    fn max(&mut self, other: &Self) {
        for (k, v) in other {
            match self.get_mut(k) {
                Some(t) if *v > *t => *t = *v,
                Some(_) => {}
                None => {
                    self.insert(k.clone(), *v);
                }
            }
        }
    }
}

/// One resource: `None` when nothing names it.
impl Totals for Option<Quantity> {
    fn add(&mut self, other: &Self) {
        *self = match (*self, *other) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
    }

    fn max(&mut self, other: &Self) {
        match (self.as_mut(), other) {
            (Some(t), Some(v)) if *v > *t => *t = *v,
            (None, Some(v)) => *self = Some(*v),
            _ => {}
        }
    }
}

/// `aggregateContainerRequests`/`aggregateContainerLimits`: the containers' lists (`pick`)
/// combined as the module's text says, before pod-level resources and overhead.
pub fn aggregate<T: Totals>(spec: &PodSpec, mut pick: impl FnMut(&Container) -> T) -> T {
    let mut total = T::default();
    for c in &spec.containers {
        total.add(&pick(c));
    }
    let mut sidecars = T::default();
    let mut init_max = T::default();
    for c in spec.init_containers.iter().flatten() {
        let own = pick(c);
        if is_restartable_init_container(c) {
            total.add(&own);
            sidecars.add(&own);
            init_max.max(&sidecars);
        } else {
            init_max.max(&T::with_sidecars(own, &sidecars));
        }
    }
    total.max(&init_max);
    total
}

/// `PodRequests`: the containers' requests (`container`), then pod-level requests for the
/// resources they may set, then the overhead. `parse` reads a list of the spec.
pub fn pod_requests_with<V: Amount>(
    spec: &PodSpec,
    parse: impl Fn(Option<&BTreeMap<String, ApiQuantity>>) -> BTreeMap<String, V>,
    container: impl FnMut(&Container) -> BTreeMap<String, V>,
) -> BTreeMap<String, V> {
    let mut reqs = aggregate(spec, container);
    for (k, v) in parse(spec.resources.as_ref().and_then(|r| r.requests.as_ref())) {
        if is_pod_level_resource(&k) {
            reqs.insert(k, v);
        }
    }
    reqs.add(&parse(spec.overhead.as_ref()));
    reqs
}

/// `PodRequests` in quantities, from the containers' `resources.requests`.
pub fn pod_requests(pod: &Pod) -> ResourceList {
    let Some(spec) = pod.spec.as_ref() else { return ResourceList::new() };
    pod_requests_with(spec, resource_list, |c| resource_list(c.resources.as_ref().and_then(|r| r.requests.as_ref())))
}

/// `PodLimits` in quantities: like `pod_requests`, but overhead is only added to the
/// resources that have a limit.
pub fn pod_limits(pod: &Pod) -> ResourceList {
    let Some(spec) = pod.spec.as_ref() else { return ResourceList::new() };
    let mut limits = aggregate(spec, |c| resource_list(c.resources.as_ref().and_then(|r| r.limits.as_ref())));
    for (k, v) in resource_list(spec.resources.as_ref().and_then(|r| r.limits.as_ref())) {
        if is_pod_level_resource(&k) {
            limits.insert(k, v);
        }
    }
    for (k, v) in resource_list(spec.overhead.as_ref()) {
        if let Some(q) = limits.get_mut(&k) {
            *q += v;
        }
    }
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(json: serde_json::Value) -> PodSpec {
        serde_json::from_value(json).unwrap()
    }

    fn pod(spec: &PodSpec) -> Pod {
        Pod { spec: Some(spec.clone()), ..Pod::default() }
    }

    fn text(list: &ResourceList) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.clone(), v.to_string())).collect()
    }

    #[test]
    fn sidecars_init_containers_pod_level_and_overhead() {
        let s = spec(serde_json::json!({
            "containers": [
                {"name": "app", "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"cpu": "1"}}},
            ],
            "initContainers": [
                {"name": "side", "restartPolicy": "Always", "resources": {"requests": {"cpu": "50m"}}},
                {"name": "init", "resources": {"requests": {"cpu": "500m", "memory": "32Mi"}, "limits": {"cpu": "2"}}},
            ],
            "overhead": {"cpu": "10m"},
        }));
        // cpu: max(100m + 50m, 500m + 50m) + 10m; memory: max(64Mi, 32Mi).
        assert_eq!(text(&pod_requests(&pod(&s))), [("cpu".into(), "560m".into()), ("memory".into(), "64Mi".into())]);
        // cpu limits: max(1, 2) + overhead; no memory limit, so no memory overhead.
        assert_eq!(text(&pod_limits(&pod(&s))), [("cpu".into(), "2010m".into())]);
        let mut level = s.clone();
        level.resources = Some(serde_json::from_value(serde_json::json!({"requests": {"cpu": "3"}})).unwrap());
        assert_eq!(
            text(&pod_requests(&pod(&level))),
            [("cpu".into(), "3010m".into()), ("memory".into(), "64Mi".into())]
        );
    }

    #[test]
    fn one_resource_at_a_time_agrees_with_lists() {
        let s = spec(serde_json::json!({
            "containers": [{"name": "a", "resources": {"requests": {"cpu": "1"}}}, {"name": "b"}],
            "initContainers": [
                {"name": "i", "resources": {"requests": {"cpu": "3"}}},
                {"name": "s", "restartPolicy": "Always", "resources": {"requests": {"cpu": "200m"}}},
            ],
        }));
        let list = aggregate(&s, |c| resource_list(c.resources.as_ref().and_then(|r| r.requests.as_ref())));
        let one: Option<Quantity> = aggregate(&s, |c| {
            resource_list(c.resources.as_ref().and_then(|r| r.requests.as_ref())).get("cpu").copied()
        });
        assert_eq!(list.get("cpu").copied(), one);
        assert_eq!(one, Some(Quantity::from_units(3)));
    }
}
