//! `kubectl get pods`: the pod row of the API server's table printer (`printPod`), with
//! its READY, STATUS and RESTARTS rules.

use super::format::Clock;
use super::table::{col, wide, Column, Row};
use k8s_openapi::api::core::v1::{Container, ContainerStatus, Pod, PodCondition};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

pub const POD_COLUMNS: &[Column] = &[
    col("Name"),
    col("Ready"),
    col("Status"),
    col("Restarts"),
    col("Age"),
    wide("IP"),
    wide("Node"),
    wide("Nominated Node"),
    wide("Readiness Gates"),
];

/// The reason kubelet sets on pods of an unreachable node (`node.NodeUnreachablePodReason`).
const NODE_UNREACHABLE_POD_REASON: &str = "NodeLost";

/// An init container with `restartPolicy: Always` (a sidecar).
pub(crate) fn is_restartable_init_container(c: Option<&Container>) -> bool {
    c.and_then(|c| c.restart_policy.as_deref()) == Some("Always")
}

fn conditions(pod: &Pod) -> &[PodCondition] {
    pod.status.as_ref().and_then(|s| s.conditions.as_deref()).unwrap_or(&[])
}

fn condition_true(pod: &Pod, type_: &str) -> bool {
    conditions(pod).iter().find(|c| c.type_ == type_).is_some_and(|c| c.status == "True")
}

fn has_pod_ready_condition(pod: &Pod) -> bool {
    conditions(pod).iter().any(|c| c.type_ == "Ready" && c.status == "True")
}

fn last_termination_finished(c: &ContainerStatus) -> Option<&Time> {
    c.last_state.as_ref().and_then(|s| s.terminated.as_ref()).and_then(|t| t.finished_at.as_ref())
}

fn later(current: Option<Time>, candidate: Option<&Time>) -> Option<Time> {
    match (current, candidate) {
        (None, Some(t)) => Some(t.clone()),
        (Some(c), Some(t)) if c.0 < t.0 => Some(t.clone()),
        (c, _) => c,
    }
}

/// READY, STATUS, RESTARTS and the time of the last restart, as `printPod` computes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodSummary {
    pub ready: usize,
    pub total: usize,
    pub status: String,
    pub restarts: i64,
    pub last_restart: Option<Time>,
}

pub fn pod_summary(pod: &Pod) -> PodSummary {
    let spec_init: &[Container] = pod.spec.as_ref().and_then(|s| s.init_containers.as_deref()).unwrap_or(&[]);
    let spec_containers = pod.spec.as_ref().map(|s| s.containers.len()).unwrap_or(0);
    let status = pod.status.as_ref();
    let phase = status.and_then(|s| s.phase.clone()).unwrap_or_default();
    let init_statuses: &[ContainerStatus] = status.and_then(|s| s.init_container_statuses.as_deref()).unwrap_or(&[]);
    let statuses: &[ContainerStatus] = status.and_then(|s| s.container_statuses.as_deref()).unwrap_or(&[]);

    let mut restarts: i64 = 0;
    let mut restartable_init_restarts: i64 = 0;
    let mut total = spec_containers;
    let mut ready = 0;
    let mut last_restart: Option<Time> = None;
    let mut last_restartable_init_restart: Option<Time> = None;

    let mut reason = phase.clone();
    if let Some(r) = status.and_then(|s| s.reason.as_deref()).filter(|r| !r.is_empty()) {
        reason = r.to_string();
    }
    if conditions(pod).iter().any(|c| c.type_ == "PodScheduled" && c.reason.as_deref() == Some("SchedulingGated")) {
        reason = "SchedulingGated".to_string();
    }

    let init_spec = |name: &str| spec_init.iter().find(|c| c.name == name);
    total += spec_init.iter().filter(|c| is_restartable_init_container(Some(c))).count();

    let mut initializing = false;
    for (i, c) in init_statuses.iter().enumerate() {
        restarts += i64::from(c.restart_count);
        last_restart = later(last_restart, last_termination_finished(c));
        let restartable = is_restartable_init_container(init_spec(&c.name));
        if restartable {
            restartable_init_restarts += i64::from(c.restart_count);
            last_restartable_init_restart = later(last_restartable_init_restart, last_termination_finished(c));
        }
        let state = c.state.as_ref();
        let terminated = state.and_then(|s| s.terminated.as_ref());
        let waiting_reason = state.and_then(|s| s.waiting.as_ref()).and_then(|w| w.reason.as_deref());
        if terminated.is_some_and(|t| t.exit_code == 0) {
            continue;
        }
        if restartable && c.started == Some(true) {
            if c.ready {
                ready += 1;
            }
            continue;
        }
        if let Some(t) = terminated {
            reason = match t.reason.as_deref().filter(|r| !r.is_empty()) {
                Some(r) => format!("Init:{r}"),
                None => match t.signal.filter(|s| *s != 0) {
                    Some(sig) => format!("Init:Signal:{sig}"),
                    None => format!("Init:ExitCode:{}", t.exit_code),
                },
            };
        } else if let Some(w) = waiting_reason.filter(|r| !r.is_empty() && *r != "PodInitializing") {
            reason = format!("Init:{w}");
        } else {
            reason = format!("Init:{i}/{}", spec_init.len());
        }
        initializing = true;
        break;
    }

    if !initializing || condition_true(pod, "Initialized") {
        restarts = restartable_init_restarts;
        last_restart = last_restartable_init_restart;
        let mut has_running = false;
        for c in statuses.iter().rev() {
            restarts += i64::from(c.restart_count);
            last_restart = later(last_restart, last_termination_finished(c));
            let state = c.state.as_ref();
            let waiting_reason = state.and_then(|s| s.waiting.as_ref()).and_then(|w| w.reason.as_deref());
            let terminated = state.and_then(|s| s.terminated.as_ref());
            if let Some(w) = waiting_reason.filter(|r| !r.is_empty()) {
                reason = w.to_string();
            } else if let Some(t) = terminated {
                reason = match t.reason.as_deref().filter(|r| !r.is_empty()) {
                    Some(r) => r.to_string(),
                    None => match t.signal.filter(|s| *s != 0) {
                        Some(sig) => format!("Signal:{sig}"),
                        None => format!("ExitCode:{}", t.exit_code),
                    },
                };
            } else if c.ready && state.and_then(|s| s.running.as_ref()).is_some() {
                has_running = true;
                ready += 1;
            }
        }
        // A pod with a completed container and another still running shows Running (or
        // NotReady while its Ready condition is not True).
        if reason == "Completed" && has_running {
            reason = if has_pod_ready_condition(pod) { "Running" } else { "NotReady" }.to_string();
        }
    }

    let terminal = phase == "Succeeded" || phase == "Failed";
    if pod.metadata.deletion_timestamp.is_some() {
        if status.and_then(|s| s.reason.as_deref()) == Some(NODE_UNREACHABLE_POD_REASON) {
            reason = "Unknown".to_string();
        } else if !terminal {
            reason = "Terminating".to_string();
        }
    }

    PodSummary { ready, total, status: reason, restarts, last_restart }
}

/// The cells of one pod row (wide cells included).
pub fn pod_row(pod: &Pod, clock: Clock) -> Row {
    let s = pod_summary(pod);
    let restarts = match &s.last_restart {
        Some(t) if s.restarts != 0 => format!("{} ({} ago)", s.restarts, clock.since(Some(t))),
        _ => s.restarts.to_string(),
    };
    let status = pod.status.as_ref();
    let none = |v: Option<&str>| v.filter(|v| !v.is_empty()).unwrap_or("<none>").to_string();
    let ip = none(status.and_then(|s| s.pod_ips.as_ref()).and_then(|ips| ips.first()).map(|ip| ip.ip.as_str()));
    let node = none(pod.spec.as_ref().and_then(|s| s.node_name.as_deref()));
    let nominated = none(status.and_then(|s| s.nominated_node_name.as_deref()));
    let gates = pod.spec.as_ref().and_then(|s| s.readiness_gates.as_deref()).unwrap_or(&[]);
    let readiness_gates = if gates.is_empty() {
        "<none>".to_string()
    } else {
        let true_count = gates
            .iter()
            .filter(|g| {
                conditions(pod).iter().find(|c| c.type_ == g.condition_type).is_some_and(|c| c.status == "True")
            })
            .count();
        format!("{true_count}/{}", gates.len())
    };
    Row {
        namespace: pod.metadata.namespace.clone().unwrap_or_default(),
        cells: vec![
            pod.metadata.name.clone().unwrap_or_default(),
            format!("{}/{}", s.ready, s.total),
            s.status,
            restarts,
            clock.since(pod.metadata.creation_timestamp.as_ref()),
            ip,
            node,
            nominated,
            readiness_gates,
        ],
    }
}
