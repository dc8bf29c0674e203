//! The Pod's QoS class, computed exactly as upstream does (`ComputePodQOS` in
//! `pkg/apis/core/v1/helper/qos`): only cpu and memory count; requests and limits are summed
//! over app and init containers (or taken from pod-level `spec.resources` when it is set);
//! Guaranteed needs a cpu and a memory limit on every container and sums of requests equal
//! to sums of limits; no requests and no limits at all is BestEffort; anything else Burstable.

use crate::quantity::Quantity;
use k8s_openapi::api::core::v1::{Container, Pod, ResourceRequirements};
use std::collections::BTreeMap;

/// The three QoS classes, as `status.qosClass` spells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum QosClass {
    Guaranteed,
    Burstable,
    BestEffort,
}

impl QosClass {
    pub fn as_str(self) -> &'static str {
        match self {
            QosClass::Guaranteed => "Guaranteed",
            QosClass::Burstable => "Burstable",
            QosClass::BestEffort => "BestEffort",
        }
    }

    /// The lower-case form used in cgroup names (`kubepods-burstable.slice`).
    pub fn slice_word(self) -> &'static str {
        match self {
            QosClass::Guaranteed => "guaranteed",
            QosClass::Burstable => "burstable",
            QosClass::BestEffort => "besteffort",
        }
    }
}

/// The resources QoS looks at.
const QOS_RESOURCES: [&str; 2] = ["cpu", "memory"];

pub use crate::resource::resource_list;

/// A container's requests after API defaulting: a resource with a limit and no request
/// gets the limit as its request (the kubelet repeats this rule for old objects too).
pub fn effective_requests(res: Option<&ResourceRequirements>) -> BTreeMap<String, Quantity> {
    let mut requests = resource_list(res.and_then(|r| r.requests.as_ref()));
    for (name, limit) in resource_list(res.and_then(|r| r.limits.as_ref())) {
        requests.entry(name).or_insert(limit);
    }
    requests
}

/// A container's limits.
pub fn limits(res: Option<&ResourceRequirements>) -> BTreeMap<String, Quantity> {
    resource_list(res.and_then(|r| r.limits.as_ref()))
}

/// Adds the positive cpu/memory values of `from` into `into`; returns which were found.
fn accumulate(into: &mut BTreeMap<String, Quantity>, from: &BTreeMap<String, Quantity>) -> Vec<&'static str> {
    let mut found = vec![];
    for name in QOS_RESOURCES {
        if let Some(q) = from.get(name) {
            if *q > Quantity::ZERO {
                found.push(name);
                let sum = match into.get(name) {
                    Some(prev) => *prev + *q,
                    None => *q,
                };
                into.insert(name.to_string(), sum);
            }
        }
    }
    found
}

/// Whether the pod sets pod-level resources (PodLevelResources, on by default since 1.34).
pub fn has_pod_level_resources(pod: &Pod) -> bool {
    pod.spec.as_ref().and_then(|s| s.resources.as_ref()).is_some_and(|r| {
        r.requests.as_ref().is_some_and(|m| !m.is_empty()) || r.limits.as_ref().is_some_and(|m| !m.is_empty())
    })
}

/// All containers QoS considers: app containers, then init containers.
pub fn qos_containers(pod: &Pod) -> Vec<&Container> {
    let Some(spec) = pod.spec.as_ref() else { return vec![] };
    spec.containers.iter().chain(spec.init_containers.iter().flatten()).collect()
}

/// The pod's QoS class, and a short account of why, for the trace.
pub fn pod_qos(pod: &Pod) -> (QosClass, String) {
    let mut requests = BTreeMap::new();
    let mut lims = BTreeMap::new();
    let mut guaranteed = true;
    let mut why_not_guaranteed = String::new();
    if has_pod_level_resources(pod) {
        let res = pod.spec.as_ref().and_then(|s| s.resources.as_ref());
        accumulate(&mut requests, &effective_requests(res));
        let found = accumulate(&mut lims, &limits(res));
        if !(found.contains(&"cpu") && found.contains(&"memory")) {
            guaranteed = false;
            why_not_guaranteed = "pod-level resources do not limit both cpu and memory".to_string();
        }
    } else {
        for c in qos_containers(pod) {
            let res = c.resources.as_ref();
            accumulate(&mut requests, &effective_requests(res));
            let found = accumulate(&mut lims, &limits(res));
            if !(found.contains(&"cpu") && found.contains(&"memory")) && guaranteed {
                guaranteed = false;
                why_not_guaranteed = format!("container {:?} does not limit both cpu and memory", c.name);
            }
        }
    }
    if requests.is_empty() && lims.is_empty() {
        return (QosClass::BestEffort, "no container requests or limits cpu or memory".to_string());
    }
    if guaranteed {
        for (name, req) in &requests {
            if lims.get(name) != Some(req) {
                guaranteed = false;
                why_not_guaranteed = format!("{name} requests ({req}) differ from {name} limits");
                break;
            }
        }
    }
    if guaranteed && requests.len() == lims.len() {
        return (QosClass::Guaranteed, "every container limits cpu and memory, and requests equal limits".to_string());
    }
    if why_not_guaranteed.is_empty() {
        why_not_guaranteed = "requests and limits are not set for the same resources".to_string();
    }
    (QosClass::Burstable, why_not_guaranteed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qos(yaml: &str) -> String {
        let pod: Pod = serde_yaml::from_str(yaml).unwrap();
        let (class, why) = pod_qos(&pod);
        format!("{} ({why})", class.as_str())
    }

    #[test]
    fn classes_follow_upstream() {
        let besteffort = "spec: {containers: [{name: a, image: nginx}]}";
        assert_eq!(qos(besteffort), "BestEffort (no container requests or limits cpu or memory)");
        let limits_only =
            "spec: {containers: [{name: a, image: nginx, resources: {limits: {cpu: 500m, memory: 128Mi}}}]}";
        assert!(qos(limits_only).starts_with("Guaranteed"));
        let burstable = "spec: {containers: [{name: a, image: nginx, resources: {requests: {cpu: 100m}}}]}";
        assert_eq!(qos(burstable), "Burstable (container \"a\" does not limit both cpu and memory)");
        // A BestEffort init container makes an otherwise Guaranteed pod Burstable.
        let mixed = "spec: {initContainers: [{name: i, image: busybox}], containers: [{name: a, image: nginx, resources: {limits: {cpu: 1, memory: 1Gi}}}]}";
        assert_eq!(qos(mixed), "Burstable (container \"i\" does not limit both cpu and memory)");
        let unequal = "spec: {containers: [{name: a, image: nginx, resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {cpu: 500m, memory: 64Mi}}}]}";
        assert_eq!(qos(unequal), "Burstable (cpu requests (250m) differ from cpu limits)");
        let pod_level = "spec: {resources: {limits: {cpu: 1, memory: 1Gi}}, containers: [{name: a, image: nginx}]}";
        assert!(qos(pod_level).starts_with("Guaranteed"));
        // Extended resources do not count.
        let gpu = "spec: {containers: [{name: a, image: nginx, resources: {limits: {nvidia.com/gpu: 1}}}]}";
        assert!(qos(gpu).starts_with("BestEffort"));
    }
}
