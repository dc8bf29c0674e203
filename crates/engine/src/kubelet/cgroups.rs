//! The cgroups the kubelet (pod level) and the runtime (container level) create for a Pod,
//! with the systemd cgroup driver on cgroup v2, as kind nodes run.
//!
//! Exact upstream rules (`pkg/kubelet/cm/helpers_linux.go`, `pod_container_manager_linux.go`,
//! `kuberuntime_container_linux.go`, `pkg/kubelet/qos/policy.go`):
//! * shares = milliCPU × 1024 / 1000, at least 2 (no request → 2), at most 262144;
//! * cgroup v2 `cpu.weight` = 1 + ((shares − 2) × 9999) / 262142;
//! * CFS quota = milliCPU × period / 1000 with period 100000 µs, at least 1000; no limit →
//!   `max`;
//! * pod level: requests are max(sum of app containers and sidecars, largest init container
//!   plus the sidecars started before it) plus overhead; Guaranteed pods get cpu.max and
//!   memory.max from their limits, Burstable pods only if every container declares that
//!   limit, BestEffort pods only the minimum weight;
//! * `oom_score_adj`: Guaranteed −997, BestEffort 1000, Burstable
//!   1000 − 1000 × memoryRequest / memoryCapacity clamped to 3..999.
//!
//! Note: runc ≥ 1.3.2 and crun ≥ 1.23 switched the container-level shares→weight mapping
//! to a non-linear one; the lab shows the linear formula the kubelet has always used.

use super::qos::{effective_requests, has_pod_level_resources, limits, resource_list, QosClass};
use crate::quantity::Quantity;
use crate::resource::{self, Totals};
use crate::trace::Table;
use k8s_openapi::api::core::v1::{Container, Pod};
use std::collections::BTreeMap;

/// The cgroup v2 mount point.
pub const CGROUP_ROOT: &str = "/sys/fs/cgroup";
/// The slice all pods live in (`--cgroup-root` / `cgroupsPerQOS` with the systemd driver).
pub const KUBEPODS_SLICE: &str = "kubepods.slice";
/// The fewest CPU shares a cgroup can have.
pub const MIN_SHARES: u64 = 2;
/// The most CPU shares a cgroup can have.
pub const MAX_SHARES: u64 = 262_144;
/// Shares per whole CPU.
pub const SHARES_PER_CPU: u64 = 1024;
/// Millicores per CPU.
pub const MILLI_CPU_TO_CPU: u64 = 1000;
/// The CFS period the kubelet uses (`cpuCFSQuotaPeriod`, 100 ms).
pub const QUOTA_PERIOD_US: u64 = 100_000;
/// The smallest CFS quota the kubelet sets (1 ms).
pub const MIN_QUOTA_US: u64 = 1_000;
/// `oom_score_adj` of Guaranteed containers.
pub const GUARANTEED_OOM_SCORE_ADJ: i64 = -997;
/// `oom_score_adj` of BestEffort containers.
pub const BESTEFFORT_OOM_SCORE_ADJ: i64 = 1000;
/// The kubelet's `podPidsLimit` default (-1: no limit, `pids.max` stays `max`).
pub const POD_PIDS_LIMIT: i64 = -1;

/// `MilliCPUToShares`.
pub fn milli_cpu_to_shares(milli: u64) -> u64 {
    if milli == 0 {
        return MIN_SHARES;
    }
    (milli * SHARES_PER_CPU / MILLI_CPU_TO_CPU).clamp(MIN_SHARES, MAX_SHARES)
}

/// cgroup v2 `cpu.weight` for a shares value (the linear mapping).
pub fn shares_to_weight(shares: u64) -> u64 {
    let shares = shares.clamp(MIN_SHARES, MAX_SHARES);
    1 + ((shares - 2) * 9999) / 262_142
}

/// `MilliCPUToQuota`: 0 means no quota.
pub fn milli_cpu_to_quota(milli: u64, period: u64) -> u64 {
    if milli == 0 {
        return 0;
    }
    (milli * period / MILLI_CPU_TO_CPU).max(MIN_QUOTA_US)
}

/// `cpu.max` as the file reads.
pub fn cpu_max(quota: u64) -> String {
    if quota == 0 {
        format!("max {QUOTA_PERIOD_US}")
    } else {
        format!("{quota} {QUOTA_PERIOD_US}")
    }
}

fn milli(q: Option<&Quantity>) -> u64 {
    q.map(|q| q.milli().max(0) as u64).unwrap_or(0)
}

fn bytes(q: Option<&Quantity>) -> u64 {
    q.map(|q| q.value().max(0) as u64).unwrap_or(0)
}

/// The systemd-escaped pod UID (dashes become underscores in unit names).
pub fn escaped_uid(uid: &str) -> String {
    uid.replace('-', "_")
}

/// The pod's cgroup, relative to [`CGROUP_ROOT`].
pub fn pod_cgroup_path(qos: QosClass, uid: &str) -> String {
    let uid = escaped_uid(uid);
    match qos {
        QosClass::Guaranteed => format!("{KUBEPODS_SLICE}/kubepods-pod{uid}.slice"),
        other => {
            let w = other.slice_word();
            format!("{KUBEPODS_SLICE}/kubepods-{w}.slice/kubepods-{w}-pod{uid}.slice")
        }
    }
}

/// A container's cgroup (a systemd scope created by containerd) inside the pod's.
pub fn container_cgroup_path(qos: QosClass, uid: &str, container_id: &str) -> String {
    format!("{}/cri-containerd-{container_id}.scope", pod_cgroup_path(qos, uid))
}

/// The cgroup values of one container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContainerCgroup {
    pub name: String,
    pub init: bool,
    pub shares: u64,
    pub weight: u64,
    pub cpu_max: String,
    pub memory_max: String,
    pub oom_score_adj: i64,
    /// Why these values, in words.
    pub basis: String,
}

/// The pod-level cgroup plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodCgroup {
    pub path: String,
    pub request_milli_cpu: u64,
    pub shares: u64,
    pub weight: u64,
    pub cpu_max: String,
    pub memory_max: String,
    pub pids_max: String,
    pub containers: Vec<ContainerCgroup>,
}

/// `resource.PodRequests`/`PodLimits` for one resource: sum of app containers and
/// sidecars, against the largest regular init container plus the sidecars before it.
fn pod_total(pod: &Pod, name: &str, pick: impl Fn(&Container) -> Option<Quantity>) -> Option<Quantity> {
    let spec = pod.spec.as_ref()?;
    let mut total = resource::aggregate(spec, pick);
    total.add(&resource_list(spec.overhead.as_ref()).get(name).copied());
    total
}

/// `GetContainerOOMScoreAdjust`.
pub fn oom_score_adj(qos: QosClass, memory_request: u64, memory_capacity: u64) -> i64 {
    match qos {
        QosClass::Guaranteed => GUARANTEED_OOM_SCORE_ADJ,
        QosClass::BestEffort => BESTEFFORT_OOM_SCORE_ADJ,
        QosClass::Burstable => {
            let cap = memory_capacity.max(1) as i128;
            let adj = (1000 - (1000 * memory_request as i128) / cap) as i64;
            if adj < 1000 + GUARANTEED_OOM_SCORE_ADJ {
                1000 + GUARANTEED_OOM_SCORE_ADJ
            } else if adj == BESTEFFORT_OOM_SCORE_ADJ {
                adj - 1
            } else {
                adj
            }
        }
    }
}

/// The container-level values (`calculateLinuxResources`).
pub fn container_cgroup(c: &Container, init: bool, qos: QosClass, memory_capacity: u64) -> ContainerCgroup {
    let res = c.resources.as_ref();
    let explicit_requests = resource_list(res.and_then(|r| r.requests.as_ref()));
    let lims = limits(res);
    let cpu_request = explicit_requests.get("cpu");
    let cpu_limit = milli(lims.get("cpu"));
    let (shares, share_basis) = match cpu_request {
        None if cpu_limit > 0 => (milli_cpu_to_shares(cpu_limit), format!("cpu limit {}", lims["cpu"])),
        Some(q) if !q.is_zero() => (milli_cpu_to_shares(milli(Some(q))), format!("cpu request {q}")),
        _ => (MIN_SHARES, "no cpu request: minimum shares".to_string()),
    };
    let quota = milli_cpu_to_quota(cpu_limit, QUOTA_PERIOD_US);
    let mem_limit = bytes(lims.get("memory"));
    let memory_max = if mem_limit == 0 { "max".to_string() } else { mem_limit.to_string() };
    let mem_request = bytes(effective_requests(res).get("memory"));
    let mut basis = share_basis;
    match lims.get("cpu") {
        Some(l) => basis.push_str(&format!("; cpu limit {l}")),
        None => basis.push_str("; no cpu limit"),
    }
    match lims.get("memory") {
        Some(l) => basis.push_str(&format!("; memory limit {l}")),
        None => basis.push_str("; no memory limit"),
    }
    ContainerCgroup {
        name: c.name.clone(),
        init,
        shares,
        weight: shares_to_weight(shares),
        cpu_max: cpu_max(quota),
        memory_max,
        oom_score_adj: oom_score_adj(qos, mem_request, memory_capacity),
        basis,
    }
}

/// The whole plan for a pod (`ResourceConfigForPod` plus each container).
pub fn pod_cgroup(pod: &Pod, qos: QosClass, memory_capacity: u64) -> PodCgroup {
    let uid = pod.metadata.uid.as_deref().unwrap_or("");
    let spec = pod.spec.as_ref();
    let all: Vec<(&Container, bool)> = spec
        .map(|s| {
            s.init_containers
                .iter()
                .flatten()
                .map(|c| (c, true))
                .chain(s.containers.iter().map(|c| (c, false)))
                .collect()
        })
        .unwrap_or_default();
    let (cpu_request, cpu_limit, mem_limit, cpu_declared, mem_declared) = if has_pod_level_resources(pod) {
        let res = spec.and_then(|s| s.resources.as_ref());
        let reqs = effective_requests(res);
        let lims = limits(res);
        (
            milli(reqs.get("cpu")),
            milli(lims.get("cpu")),
            bytes(lims.get("memory")),
            lims.contains_key("cpu"),
            lims.contains_key("memory"),
        )
    } else {
        let req = pod_total(pod, "cpu", |c| effective_requests(c.resources.as_ref()).get("cpu").copied());
        let cpu_lim = pod_total(pod, "cpu", |c| limits(c.resources.as_ref()).get("cpu").copied());
        let mem_lim = pod_total(pod, "memory", |c| limits(c.resources.as_ref()).get("memory").copied());
        let declared =
            |name: &str| all.iter().all(|(c, _)| limits(c.resources.as_ref()).get(name).is_some_and(|q| !q.is_zero()));
        (milli(req.as_ref()), milli(cpu_lim.as_ref()), bytes(mem_lim.as_ref()), declared("cpu"), declared("memory"))
    };
    let (shares, cpu_max_s, memory_max) = match qos {
        QosClass::Guaranteed => (
            milli_cpu_to_shares(cpu_request),
            cpu_max(milli_cpu_to_quota(cpu_limit, QUOTA_PERIOD_US)),
            if mem_limit == 0 { "max".to_string() } else { mem_limit.to_string() },
        ),
        QosClass::Burstable => (
            milli_cpu_to_shares(cpu_request),
            if cpu_declared { cpu_max(milli_cpu_to_quota(cpu_limit, QUOTA_PERIOD_US)) } else { cpu_max(0) },
            if mem_declared && mem_limit > 0 { mem_limit.to_string() } else { "max".to_string() },
        ),
        QosClass::BestEffort => (MIN_SHARES, cpu_max(0), "max".to_string()),
    };
    let containers = all.iter().map(|(c, init)| container_cgroup(c, *init, qos, memory_capacity)).collect();
    PodCgroup {
        path: pod_cgroup_path(qos, uid),
        request_milli_cpu: cpu_request,
        shares,
        weight: shares_to_weight(shares),
        cpu_max: cpu_max_s,
        memory_max,
        pids_max: if POD_PIDS_LIMIT < 0 { "max".to_string() } else { POD_PIDS_LIMIT.to_string() },
        containers,
    }
}

/// The plan as trace tables: the pod cgroup and one row per container.
pub fn tables(plan: &PodCgroup) -> Vec<Table> {
    let pod_rows = vec![
        vec!["path".to_string(), format!("{CGROUP_ROOT}/{}", plan.path)],
        vec!["cpu.weight".to_string(), format!("{} (shares {})", plan.weight, plan.shares)],
        vec!["cpu.max".to_string(), plan.cpu_max.clone()],
        vec!["memory.max".to_string(), plan.memory_max.clone()],
        vec!["memory.min / memory.low".to_string(), "0 (MemoryQoS feature gate is off)".to_string()],
        vec!["pids.max".to_string(), plan.pids_max.clone()],
    ];
    let container_rows = plan
        .containers
        .iter()
        .map(|c| {
            vec![
                if c.init { format!("{} (init)", c.name) } else { c.name.clone() },
                c.weight.to_string(),
                c.shares.to_string(),
                c.cpu_max.clone(),
                c.memory_max.clone(),
                "max".to_string(),
                c.oom_score_adj.to_string(),
                c.basis.clone(),
            ]
        })
        .collect();
    vec![
        Table {
            title: "Pod cgroup".to_string(),
            columns: vec!["file".to_string(), "value".to_string()],
            rows: pod_rows,
        },
        Table {
            title: "Container cgroups (cri-containerd-<id>.scope)".to_string(),
            columns: [
                "container",
                "cpu.weight",
                "shares",
                "cpu.max",
                "memory.max",
                "pids.max",
                "oom_score_adj",
                "from",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            rows: container_rows,
        },
    ]
}

/// Node memory capacity in bytes from `status.capacity.memory`.
pub fn memory_capacity(node: Option<&k8s_openapi::api::core::v1::Node>) -> u64 {
    let cap: BTreeMap<String, Quantity> =
        resource_list(node.and_then(|n| n.status.as_ref()).and_then(|s| s.capacity.as_ref()));
    bytes(cap.get("memory"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_match_upstream() {
        assert_eq!(milli_cpu_to_shares(0), 2);
        assert_eq!(milli_cpu_to_shares(1), 2);
        assert_eq!(milli_cpu_to_shares(100), 102);
        assert_eq!(milli_cpu_to_shares(250), 256);
        assert_eq!(milli_cpu_to_shares(1000), 1024);
        assert_eq!(shares_to_weight(2), 1);
        assert_eq!(shares_to_weight(102), 4);
        assert_eq!(shares_to_weight(1024), 39);
        assert_eq!(shares_to_weight(262_144), 10_000);
        assert_eq!(milli_cpu_to_quota(500, QUOTA_PERIOD_US), 50_000);
        assert_eq!(milli_cpu_to_quota(5, QUOTA_PERIOD_US), 1_000);
        assert_eq!(cpu_max(0), "max 100000");
        assert_eq!(oom_score_adj(QosClass::Burstable, 0, 8 << 30), 999);
        assert_eq!(oom_score_adj(QosClass::Burstable, 8 << 30, 8 << 30), 3);
        assert_eq!(oom_score_adj(QosClass::Burstable, 1 << 30, 8 << 30), 875);
        assert_eq!(
            pod_cgroup_path(QosClass::Burstable, "1a2b-3c"),
            "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1a2b_3c.slice"
        );
        assert_eq!(pod_cgroup_path(QosClass::Guaranteed, "1a2b-3c"), "kubepods.slice/kubepods-pod1a2b_3c.slice");
    }
}
