//! What a pod asks for and what a node offers, in plain integers (millicores, bytes,
//! counts), computed once per pod and per node so the filter and score loops only add
//! and compare numbers.
//!
//! The pod's requests follow `resourcehelper.PodRequests` (component-helpers): app
//! containers are summed; each init container needs its own request plus every sidecar
//! (init container with `restartPolicy: Always`) started before it; sidecars also run
//! next to the app containers, so they are added to the sum; the pod needs the larger of
//! the two. Pod-level `spec.resources.requests` (cpu, memory, hugepages) replace the
//! container aggregate, and `spec.overhead` is added last.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Container, Pod};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as K8sQuantity;

use crate::quantity::Quantity;
use crate::resource::{self, is_pod_level_resource};

/// `DefaultMilliCPURequest`: the CPU counted for a container without a CPU request, for
/// scoring only.
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// `DefaultMemoryRequest`: 200Mi, likewise.
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// Compute resources in the scheduler's units.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resource {
    pub milli_cpu: i64,
    pub memory: i64,
    pub ephemeral_storage: i64,
    /// Only meaningful for node allocatable (`pods`).
    pub allowed_pods: i64,
    /// Extended resources and hugepages, sorted by name.
    pub scalar: Vec<(String, i64)>,
}

impl Resource {
    pub fn scalar(&self, name: &str) -> i64 {
        self.scalar.iter().find(|(n, _)| n == name).map(|(_, v)| *v).unwrap_or(0)
    }

    pub fn add_scaled(&mut self, other: &Resource, sign: i64) {
        self.milli_cpu += sign * other.milli_cpu;
        self.memory += sign * other.memory;
        self.ephemeral_storage += sign * other.ephemeral_storage;
        for (name, v) in &other.scalar {
            match self.scalar.binary_search_by(|(n, _)| n.as_str().cmp(name)) {
                Ok(i) => self.scalar[i].1 += sign * v,
                Err(i) => self.scalar.insert(i, (name.clone(), sign * v)),
            }
        }
    }

    pub fn is_zero(&self) -> bool {
        self.milli_cpu == 0 && self.memory == 0 && self.ephemeral_storage == 0 && self.scalar.is_empty()
    }
}

/// Resources the scheduler tracks as "scalar": hugepages and extended (`domain/name`)
/// resources (`IsScalarResourceName`).
pub fn is_scalar_resource(name: &str) -> bool {
    name.starts_with("hugepages-") || name.starts_with("attachable-volumes-") || name.contains('/')
}

/// A resource list in thousandths (exact, like `resource.Quantity` arithmetic).
type MilliList = BTreeMap<String, i128>;

fn parse_list(list: Option<&BTreeMap<String, K8sQuantity>>) -> MilliList {
    let mut out = MilliList::new();
    for (k, q) in list.into_iter().flatten() {
        // An unparsable quantity cannot pass validation; count it as zero.
        let milli = Quantity::parse(&q.0).map(|q| q.milli()).unwrap_or(0);
        out.insert(k.clone(), milli);
    }
    out
}

fn container_requests(c: &Container, non_missing: &MilliList) -> MilliList {
    let mut reqs = parse_list(c.resources.as_ref().and_then(|r| r.requests.as_ref()));
    for (k, v) in non_missing {
        reqs.entry(k.clone()).or_insert(*v);
    }
    reqs
}

/// `IsPodLevelResourcesSet`: pod-level requests or limits name a supported resource.
pub fn pod_level_resources_set(pod: &Pod) -> bool {
    let Some(r) = pod.spec.as_ref().and_then(|s| s.resources.as_ref()) else { return false };
    r.requests.iter().flatten().chain(r.limits.iter().flatten()).any(|(k, _)| is_pod_level_resource(k))
}

/// `PodRequests` with optional per-container defaults for missing requests.
fn pod_requests(pod: &Pod, non_missing: &MilliList) -> MilliList {
    let Some(spec) = pod.spec.as_ref() else { return MilliList::new() };
    resource::pod_requests_with(spec, parse_list, |c| container_requests(c, non_missing))
}

fn to_units(milli: i128) -> i64 {
    let v = (milli + 999).div_euclid(1000);
    v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

fn to_milli(milli: i128) -> i64 {
    milli.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

fn to_resource(list: &MilliList) -> Resource {
    let mut r = Resource::default();
    for (k, v) in list {
        match k.as_str() {
            "cpu" => r.milli_cpu = to_milli(*v),
            "memory" => r.memory = to_units(*v),
            "ephemeral-storage" => r.ephemeral_storage = to_units(*v),
            "pods" => r.allowed_pods = to_units(*v),
            name if is_scalar_resource(name) => r.scalar.push((name.to_string(), to_units(*v))),
            _ => {}
        }
    }
    r
}

/// What one pod needs, precomputed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodResources {
    /// The pod's requests (NodeResourcesFit filter, BalancedAllocation, node `Requested`).
    pub requests: Resource,
    /// CPU with 100m counted for each container without a CPU request (LeastAllocated,
    /// node `NonZeroRequested`).
    pub non_zero_cpu: i64,
    /// Memory with 200Mi for each container without a memory request.
    pub non_zero_memory: i64,
}

pub fn pod_resources(pod: &Pod) -> PodResources {
    let list = pod_requests(pod, &MilliList::new());
    let requests = to_resource(&list);
    // getNonMissingContainerRequests: defaults for every container, unless pod-level
    // resources are set, in which case only for resources the pod does not request.
    let mut non_missing = MilliList::new();
    let pod_level = pod_level_resources_set(pod);
    if !pod_level || !list.contains_key("cpu") {
        non_missing.insert("cpu".into(), DEFAULT_MILLI_CPU_REQUEST as i128);
    }
    if !pod_level || !list.contains_key("memory") {
        non_missing.insert("memory".into(), DEFAULT_MEMORY_REQUEST as i128 * 1000);
    }
    let (non_zero_cpu, non_zero_memory) = if non_missing.is_empty() {
        (requests.milli_cpu, requests.memory)
    } else {
        let nz = to_resource(&pod_requests(pod, &non_missing));
        (nz.milli_cpu, nz.memory)
    };
    PodResources { requests, non_zero_cpu, non_zero_memory }
}

/// A node's `status.allocatable` as scheduler integers.
pub fn node_allocatable(node: &k8s_openapi::api::core::v1::Node) -> Resource {
    to_resource(&parse_list(node.status.as_ref().and_then(|s| s.allocatable.as_ref())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(yaml: &str) -> Pod {
        serde_yaml::from_str(yaml).unwrap()
    }

    #[test]
    fn init_containers_and_sidecars() {
        // Upstream's own example: init 2/1G and 2/3G, app 2/1G and 1/1G => cpu 3, mem 3G.
        let p = pod(r#"
spec:
  initContainers:
  - {name: i1, resources: {requests: {cpu: "2", memory: 1G}}}
  - {name: i2, resources: {requests: {cpu: "2", memory: 3G}}}
  containers:
  - {name: c1, resources: {requests: {cpu: "2", memory: 1G}}}
  - {name: c2, resources: {requests: {cpu: "1", memory: 1G}}}
"#);
        let r = pod_resources(&p);
        assert_eq!((r.requests.milli_cpu, r.requests.memory), (3000, 3_000_000_000));
        // A sidecar (500m) runs with the app (1) and under the later init container (2).
        let p = pod(r#"
spec:
  initContainers:
  - {name: side, restartPolicy: Always, resources: {requests: {cpu: 500m}}}
  - {name: init, resources: {requests: {cpu: "2"}}}
  containers:
  - {name: app, resources: {requests: {cpu: "1"}}}
  overhead: {cpu: 250m}
"#);
        let r = pod_resources(&p);
        assert_eq!(r.requests.milli_cpu, 2750);
        // Scoring defaults: 100m per container without a cpu request is not added here
        // (all have one); each container lacks memory, so the sidecar and the app count 200Mi each.
        assert_eq!(r.non_zero_cpu, 2750);
        assert_eq!(r.non_zero_memory, 2 * DEFAULT_MEMORY_REQUEST);
    }
}
