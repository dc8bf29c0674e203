//! The Pod status the kubelet writes (`generateAPIPodStatus` and `pkg/kubelet/status`):
//! phase (upstream's `getPhase`), conditions in upstream's order — conditions the kubelet
//! does not own first, then PodReadyToStartContainers, Initialized, Ready, ContainersReady,
//! PodScheduled — with upstream's reasons and messages (`containers with unready status:
//! [web]`, `containers with incomplete status: [init]`, `PodCompleted`), transition times
//! kept while a condition's status does not change, container statuses, IPs, start time and
//! QoS class. Also kubectl's READY/STATUS/RESTARTS columns (`printPod`), for the trace.
//! The status manager's write (`PUT pods/<name>/status`) is `Kubelet::update_status`.

use super::containers::{CState, Ctr, Term};
use super::sandbox::Sandbox;
use super::{status, Kubelet, PodWorker};
use crate::apiserver::{self, timestamp, ApiRequest, Body, Caller, Verb};
use crate::object::{resource_for, Object};
use crate::sim::{object_ref, StepBuilder};
use crate::trace::{Change, Component, Detail, Phase, WorkDetail};
use crate::world::World;
use k8s_openapi::api::core::v1::{
    ContainerState, ContainerStateRunning, ContainerStateTerminated, ContainerStateWaiting, ContainerStatus, HostIP,
    Pod, PodCondition, PodIP, PodSpec, PodStatus, ResourceRequirements, VolumeMountStatus,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};

/// Conditions the kubelet owns (and rewrites on every status).
const KUBELET_CONDITIONS: [&str; 5] =
    ["PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"];

fn epoch() -> Time {
    Time(k8s_openapi::jiff::Timestamp::UNIX_EPOCH)
}

fn go_list(names: &[String]) -> String {
    format!("[{}]", names.join(" "))
}

fn terminated(t: &Term) -> ContainerStateTerminated {
    ContainerStateTerminated {
        container_id: Some(format!("containerd://{}", t.container_id)),
        exit_code: t.exit_code,
        finished_at: Some(timestamp(t.finished_ms)),
        message: t.message.clone(),
        reason: Some(t.reason.clone()),
        signal: t.signal,
        started_at: Some(t.started_ms.map(timestamp).unwrap_or_else(epoch)),
    }
}

fn ctr_status(c: &Ctr, has_init: bool) -> ContainerStatus {
    // The runtime reports the container (its ID, the resolved image) once it was started.
    let created = c.current_id.is_some();
    let image = match (&c.image, created) {
        (Some(img), true) => img.normalized.clone(),
        _ => c.spec.image.clone().unwrap_or_default(),
    };
    let image_id = match (&c.image, created) {
        (Some(img), true) => img.image_id.clone(),
        _ => String::new(),
    };
    let state = match &c.state {
        CState::Waiting { reason, message } => {
            let reason = if reason.is_empty() {
                if has_init { "PodInitializing" } else { "ContainerCreating" }.to_string()
            } else {
                reason.clone()
            };
            ContainerState {
                waiting: Some(ContainerStateWaiting { reason: Some(reason), message: message.clone() }),
                ..Default::default()
            }
        }
        CState::Running { started_ms } => ContainerState {
            running: Some(ContainerStateRunning { started_at: Some(timestamp(*started_ms)) }),
            ..Default::default()
        },
        CState::Terminated(t) => ContainerState { terminated: Some(terminated(t)), ..Default::default() },
    };
    let last_state = match &c.last {
        Some(t) => ContainerState { terminated: Some(terminated(t)), ..Default::default() },
        None => ContainerState::default(),
    };
    let mounts: Vec<VolumeMountStatus> = c
        .spec
        .volume_mounts
        .iter()
        .flatten()
        .map(|vm| VolumeMountStatus {
            mount_path: vm.mount_path.clone(),
            name: vm.name.clone(),
            read_only: vm.read_only.filter(|r| *r),
            recursive_read_only: vm.read_only.filter(|r| *r).map(|_| "Disabled".to_string()),
            volume_status: None,
        })
        .collect();
    let resources = c.spec.resources.as_ref().filter(|r| {
        r.requests.as_ref().is_some_and(|m| !m.is_empty()) || r.limits.as_ref().is_some_and(|m| !m.is_empty())
    });
    ContainerStatus {
        name: c.name.clone(),
        image,
        image_id,
        container_id: c.current_id.as_ref().map(|id| format!("containerd://{id}")),
        state: Some(state),
        last_state: Some(last_state),
        ready: c.ready(),
        restart_count: c.restarts,
        started: Some(c.running() && c.started),
        volume_mounts: (!mounts.is_empty()).then_some(mounts),
        resources: resources.map(|r| ResourceRequirements {
            claims: None,
            limits: r.limits.clone(),
            requests: r.requests.clone(),
        }),
        ..Default::default()
    }
}

/// Upstream's `getPhase` over the worker's view.
pub(super) fn phase(w: &PodWorker) -> String {
    if w.rejected.is_some() || w.evicted.is_some() {
        return "Failed".into();
    }
    if let Some(t) = &w.terminal {
        return t.clone();
    }
    let policy = w.restart_policy();
    let mut pending_init = 0;
    let mut pending_sidecars = 0;
    let mut failed_init = 0;
    let (mut running, mut waiting, mut stopped, mut succeeded) = (0, 0, 0, 0);
    for c in &w.ctrs[..w.n_init] {
        if c.sidecar {
            match &c.state {
                CState::Running { .. } => {
                    if !c.started {
                        pending_sidecars += 1;
                    }
                    running += 1;
                }
                CState::Terminated(_) => {}
                CState::Waiting { .. } => {
                    if c.last.is_none() {
                        pending_sidecars += 1;
                    }
                }
            }
            continue;
        }
        match &c.state {
            CState::Running { .. } => pending_init += 1,
            CState::Terminated(t) => {
                if t.exit_code != 0 {
                    failed_init += 1;
                }
            }
            CState::Waiting { .. } => match &c.last {
                Some(t) if t.exit_code != 0 => failed_init += 1,
                Some(_) => {}
                None => pending_init += 1,
            },
        }
    }
    for c in &w.ctrs[w.n_init..] {
        match &c.state {
            CState::Running { .. } => running += 1,
            CState::Terminated(t) => {
                stopped += 1;
                if t.exit_code == 0 {
                    succeeded += 1;
                }
            }
            CState::Waiting { .. } => {
                if c.last.is_some() {
                    stopped += 1;
                } else {
                    waiting += 1;
                }
            }
        }
    }
    if failed_init > 0 && policy == "Never" {
        return "Failed".into();
    }
    if pending_init > 0 || pending_sidecars > 0 || failed_init > 0 || waiting > 0 {
        return "Pending".into();
    }
    if running > 0 {
        return "Running".into();
    }
    if stopped > 0 {
        if policy == "Always" {
            return "Running".into();
        }
        if stopped == succeeded {
            return "Succeeded".into();
        }
        if policy == "Never" {
            return "Failed".into();
        }
        return "Running".into();
    }
    "Pending".into()
}

fn condition(type_: &str, ok: bool, reason: Option<&str>, message: Option<String>) -> PodCondition {
    PodCondition {
        type_: type_.into(),
        status: if ok { "True".into() } else { "False".into() },
        reason: reason.map(str::to_string),
        message,
        ..Default::default()
    }
}

/// The status the kubelet would write now.
pub(super) fn generate(w: &PodWorker, node_ip: &str, now: u64) -> PodStatus {
    let old = w.pod.status.clone().unwrap_or_default();
    let start_time = old.start_time.clone().unwrap_or_else(|| timestamp(w.start_ms));
    if let Some((reason, message)) = &w.rejected {
        return PodStatus {
            phase: Some("Failed".into()),
            reason: Some(reason.clone()),
            message: Some(format!("Pod was rejected: {message}")),
            qos_class: Some(w.qos.as_str().into()),
            start_time: Some(start_time),
            ..Default::default()
        };
    }
    let phase = phase(w);
    let has_init = w.n_init > 0;
    let init_statuses: Vec<ContainerStatus> = w.ctrs[..w.n_init].iter().map(|c| ctr_status(c, has_init)).collect();
    let app_statuses: Vec<ContainerStatus> = w.ctrs[w.n_init..].iter().map(|c| ctr_status(c, has_init)).collect();

    // Conditions.
    let network_ready = matches!(w.sandbox, Sandbox::Ready { .. });
    let incomplete: Vec<String> = w.ctrs[..w.n_init]
        .iter()
        .filter(|c| {
            if c.sidecar {
                !(c.running() && c.started)
            } else {
                !matches!(&c.state, CState::Terminated(t) if t.exit_code == 0)
            }
        })
        .map(|c| c.name.clone())
        .collect();
    let initialized = if !has_init {
        condition("Initialized", true, None, None)
    } else if phase == "Succeeded" {
        condition("Initialized", true, Some("PodCompleted"), None)
    } else if !incomplete.is_empty() {
        condition(
            "Initialized",
            false,
            Some("ContainersNotInitialized"),
            Some(format!("containers with incomplete status: {}", go_list(&incomplete))),
        )
    } else {
        condition("Initialized", true, None, None)
    };
    let unready: Vec<String> =
        w.ctrs.iter().filter(|c| (!c.init || c.sidecar) && !c.ready()).map(|c| c.name.clone()).collect();
    let containers_ready = if phase == "Succeeded" {
        condition("ContainersReady", false, Some("PodCompleted"), None)
    } else if !unready.is_empty() {
        condition(
            "ContainersReady",
            false,
            Some("ContainersNotReady"),
            Some(format!("containers with unready status: {}", go_list(&unready))),
        )
    } else {
        condition("ContainersReady", true, None, None)
    };
    let mut ready = PodCondition { type_: "Ready".into(), ..containers_ready.clone() };
    if ready.status == "True" {
        for gate in w.pod.spec.as_ref().and_then(|s| s.readiness_gates.clone()).unwrap_or_default() {
            let found = old.conditions.iter().flatten().find(|c| c.type_ == gate.condition_type);
            let msg = match found {
                None => Some(format!(
                    "corresponding condition of pod readiness gate {:?} does not exist.",
                    gate.condition_type
                )),
                Some(c) if c.status != "True" => Some(format!(
                    "the status of pod readiness gate {:?} is not \"True\", but {}",
                    gate.condition_type, c.status
                )),
                _ => None,
            };
            if let Some(m) = msg {
                ready = condition("Ready", false, Some("ReadinessGatesNotReady"), Some(m));
                break;
            }
        }
    }
    // The status manager's mergePodStatus: a terminal phase asked for while containers may
    // still run is held back (phase, reason and message stay as the API has them), and so is
    // the DisruptionTarget condition, until every container has stopped.
    let terminal = |p: Option<&str>| matches!(p, Some("Succeeded" | "Failed"));
    let delay = terminal(Some(&phase)) && !terminal(old.phase.as_deref()) && w.ctrs.iter().any(|c| c.running());
    let evicted = w.evicted.as_ref().filter(|_| !delay);
    let mut conditions: Vec<PodCondition> = vec![];
    if let Some(msg) = evicted {
        conditions.push(condition("DisruptionTarget", true, Some("TerminationByKubelet"), Some(msg.clone())));
    }
    for c in old.conditions.iter().flatten() {
        let replaced = evicted.is_some() && c.type_ == "DisruptionTarget";
        if !KUBELET_CONDITIONS.contains(&c.type_.as_str()) && !replaced {
            conditions.push(c.clone());
        }
    }
    conditions.push(condition("PodReadyToStartContainers", network_ready, None, None));
    conditions.push(initialized);
    conditions.push(ready);
    conditions.push(containers_ready);
    conditions.push(condition("PodScheduled", true, None, None));
    let generation = w.pod.metadata.generation;
    for c in conditions.iter_mut() {
        let prev = old.conditions.iter().flatten().find(|p| p.type_ == c.type_);
        c.last_transition_time = match prev {
            Some(p) if p.status == c.status && p.last_transition_time.is_some() => p.last_transition_time.clone(),
            _ => Some(timestamp(now)),
        };
        c.last_probe_time = prev.and_then(|p| p.last_probe_time.clone());
        if KUBELET_CONDITIONS.contains(&c.type_.as_str()) || c.type_ == "DisruptionTarget" {
            c.observed_generation = generation;
        }
    }

    let pod_ip = w.pod_ip().map(super::cni::ip_to_string);
    let (phase, reason, message) = if delay {
        (old.phase.clone().unwrap_or_default(), old.reason.clone(), old.message.clone())
    } else {
        (phase, evicted.map(|_| "Evicted".to_string()), evicted.cloned())
    };
    PodStatus {
        phase: Some(phase),
        conditions: Some(conditions),
        host_ip: Some(node_ip.to_string()),
        host_ips: Some(vec![HostIP { ip: node_ip.to_string() }]),
        pod_ip: pod_ip.clone(),
        pod_ips: pod_ip.map(|ip| vec![PodIP { ip }]),
        start_time: Some(start_time),
        init_container_statuses: has_init.then_some(init_statuses),
        container_statuses: Some(app_statuses),
        qos_class: Some(w.qos.as_str().into()),
        reason,
        message,
        observed_generation: generation,
        ..Default::default()
    }
}

fn state_text(s: Option<&ContainerState>) -> Option<String> {
    let s = s?;
    if let Some(w) = &s.waiting {
        return Some(format!("waiting: {}", w.reason.clone().unwrap_or_default()));
    }
    if s.running.is_some() {
        return Some("running".into());
    }
    s.terminated
        .as_ref()
        .map(|t| format!("terminated: {} (exit code {})", t.reason.clone().unwrap_or_default(), t.exit_code))
}

/// The changes from `old` to `new`, field by field, for the trace.
pub(super) fn diff(old: Option<&PodStatus>, new: &PodStatus) -> Vec<Change> {
    let empty = PodStatus::default();
    let old = old.unwrap_or(&empty);
    let mut out = vec![];
    let mut cmp = |path: String, before: Option<String>, after: Option<String>| {
        if before != after {
            out.push(Change { path, before, after });
        }
    };
    cmp("status.phase".into(), old.phase.clone(), new.phase.clone());
    cmp("status.reason".into(), old.reason.clone(), new.reason.clone());
    cmp("status.message".into(), old.message.clone(), new.message.clone());
    cmp("status.hostIP".into(), old.host_ip.clone(), new.host_ip.clone());
    cmp("status.podIP".into(), old.pod_ip.clone(), new.pod_ip.clone());
    cmp("status.qosClass".into(), old.qos_class.clone(), new.qos_class.clone());
    let cond_text = |c: &PodCondition| match (&c.reason, &c.message) {
        (Some(r), Some(m)) => format!("{} ({r}: {m})", c.status),
        (Some(r), None) => format!("{} ({r})", c.status),
        _ => c.status.clone(),
    };
    for c in new.conditions.iter().flatten() {
        let before = old.conditions.iter().flatten().find(|o| o.type_ == c.type_).map(cond_text);
        cmp(format!("status.conditions[{}]", c.type_), before, Some(cond_text(c)));
    }
    for (field, olds, news) in [
        ("initContainerStatuses", &old.init_container_statuses, &new.init_container_statuses),
        ("containerStatuses", &old.container_statuses, &new.container_statuses),
    ] {
        for c in news.iter().flatten() {
            let prev = olds.iter().flatten().find(|o| o.name == c.name);
            cmp(
                format!("status.{field}[{}].state", c.name),
                prev.and_then(|p| state_text(p.state.as_ref())),
                state_text(c.state.as_ref()),
            );
            cmp(
                format!("status.{field}[{}].lastState", c.name),
                prev.and_then(|p| state_text(p.last_state.as_ref())),
                state_text(c.last_state.as_ref()),
            );
            cmp(
                format!("status.{field}[{}].ready", c.name),
                prev.map(|p| p.ready.to_string()),
                Some(c.ready.to_string()),
            );
            cmp(
                format!("status.{field}[{}].restartCount", c.name),
                prev.map(|p| p.restart_count.to_string()),
                Some(c.restart_count.to_string()),
            );
        }
    }
    out
}

/// kubectl's `READY`, `STATUS` and `RESTARTS` columns for a pod (`printPod`).
pub fn kubectl_columns(pod: &Pod) -> (String, String, i32) {
    columns(&pod.metadata, pod.spec.as_ref(), pod.status.as_ref())
}

/// [`kubectl_columns`] of a pod given by its parts (a status not yet written, say).
fn columns(meta: &ObjectMeta, spec: Option<&PodSpec>, status: Option<&PodStatus>) -> (String, String, i32) {
    let default_status = PodStatus::default();
    let status = status.unwrap_or(&default_status);
    let init_specs = spec.and_then(|s| s.init_containers.as_deref()).unwrap_or(&[]);
    let sidecar =
        |name: &str| init_specs.iter().any(|c| c.name == name && c.restart_policy.as_deref() == Some("Always"));
    let total = spec.map_or(0, |s| s.containers.len())
        + init_specs.iter().filter(|c| c.restart_policy.as_deref() == Some("Always")).count();
    let mut ready = 0;
    let mut restarts = 0;
    let mut sidecar_restarts = 0;
    let mut reason = status.phase.clone().unwrap_or_default();
    if let Some(r) = &status.reason {
        reason = r.clone();
    }
    let mut initializing = false;
    for (i, c) in status.init_container_statuses.iter().flatten().enumerate() {
        restarts += c.restart_count;
        if sidecar(&c.name) {
            sidecar_restarts += c.restart_count;
        }
        let st = c.state.as_ref();
        let terminated = st.and_then(|s| s.terminated.as_ref());
        if terminated.is_some_and(|t| t.exit_code == 0) {
            continue;
        }
        if sidecar(&c.name) && c.started == Some(true) {
            if c.ready {
                ready += 1;
            }
            continue;
        }
        if let Some(t) = terminated {
            reason = match &t.reason {
                Some(r) if !r.is_empty() => format!("Init:{r}"),
                _ => format!("Init:ExitCode:{}", t.exit_code),
            };
        } else if let Some(wt) = st
            .and_then(|s| s.waiting.as_ref())
            .and_then(|w| w.reason.as_deref())
            .filter(|r| !r.is_empty() && *r != "PodInitializing")
        {
            reason = format!("Init:{wt}");
        } else {
            reason = format!("Init:{i}/{}", init_specs.len());
        }
        initializing = true;
        break;
    }
    let initialized = status.conditions.iter().flatten().any(|c| c.type_ == "Initialized" && c.status == "True");
    if !initializing || initialized {
        restarts = sidecar_restarts;
        let mut has_running = false;
        for c in status.container_statuses.iter().flatten().rev() {
            restarts += c.restart_count;
            let st = c.state.as_ref();
            if let Some(r) =
                st.and_then(|s| s.waiting.as_ref()).and_then(|w| w.reason.as_deref()).filter(|r| !r.is_empty())
            {
                reason = r.to_string();
            } else if let Some(t) = st.and_then(|s| s.terminated.as_ref()) {
                reason = match &t.reason {
                    Some(r) if !r.is_empty() => r.clone(),
                    _ => format!("ExitCode:{}", t.exit_code),
                };
            } else if c.ready && st.is_some_and(|s| s.running.is_some()) {
                has_running = true;
                ready += 1;
            }
        }
        if reason == "Completed" && has_running {
            let ready_cond = status.conditions.iter().flatten().any(|c| c.type_ == "Ready" && c.status == "True");
            reason = if ready_cond { "Running".into() } else { "NotReady".into() };
        }
    }
    let phase = status.phase.as_deref().unwrap_or_default();
    if meta.deletion_timestamp.is_some() && phase != "Succeeded" && phase != "Failed" {
        reason = "Terminating".into();
    }
    (format!("{ready}/{total}"), reason, restarts)
}

/// A one-line summary of a status write.
pub(super) fn summary(new: &PodStatus, w: &PodWorker) -> String {
    let (ready, status, restarts) = columns(&w.pod.metadata, w.pod.spec.as_ref(), Some(new));
    let restarts = if restarts > 0 { format!(", {restarts} restarts") } else { String::new() };
    format!(
        "kubelet updates status of {}: {} ({ready} ready, {status}{restarts})",
        w.key,
        new.phase.clone().unwrap_or_default()
    )
}

impl Kubelet {
    /// Writes the pod status through the API server when it changed.
    pub(super) fn update_status(&mut self, core: &mut World, w: &mut PodWorker) {
        let node_ip = self.node_ip(core);
        let new = status::generate(w, &node_ip, core.now);
        if let Some(last) = &w.last_status {
            if *last == new {
                return;
            }
            debug_assert_ne!(
                serde_json::to_string(last).ok(),
                serde_json::to_string(&new).ok(),
                "a status that differs typed must differ as sent"
            );
        }
        let typed = new.clone();
        let Some(resource) = resource_for("v1", "Pod") else { return };
        let Some(current) = Self::read_pod(core, &w.key) else { return };
        let changes = status::diff(current.status.as_ref(), &new);
        let obj = w.reference();
        let summary = status::summary(&new, w);
        self.work_changes(core, &obj, summary, changes);
        let mut pod = std::sync::Arc::unwrap_or_clone(current);
        pod.status = Some(new);
        let body = Body::Object(Object::Pod(std::sync::Arc::new(pod)));
        let resp = apiserver::handle(
            core,
            ApiRequest {
                caller: Caller::kubelet(&self.node),
                verb: Verb::Update,
                resource,
                namespace: Some(w.ns().to_string()),
                name: Some(w.name().to_string()),
                subresource: Some("status".into()),
                body: Some(body),
                verbose: false,
                file: None,
            },
        );
        if resp.ok() {
            if let Some(Object::Pod(p)) = resp.stored_object() {
                w.pod = std::sync::Arc::clone(p);
                w.written_revision = resp.revision();
            }
            w.last_status = Some(typed);
        }
    }

    fn work_changes(&self, core: &mut World, obj: &Object, summary: String, changes: Vec<Change>) {
        core.record(
            StepBuilder::new(
                Phase::Status,
                Component::Kubelet,
                Component::ApiServer,
                summary,
                Detail::Work(WorkDetail {
                    topic: "status".into(),
                    facts: vec![],
                    tables: vec![],
                    changes,
                    explanation: "The kubelet's status manager writes the pod's status subresource (PUT pods/<name>/status as system:node:<node>) whenever what it observes changes.".into(),
                }),
            )
            .node(self.node.clone())
            .object(Some(object_ref(obj))),
        );
    }
}
