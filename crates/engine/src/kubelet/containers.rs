//! A pod's containers, as the kubelet's runtime manager drives them (upstream's
//! `pkg/kubelet/kuberuntime`: `computePodActions` and `doBackOff` in `kuberuntime_manager.go`,
//! `startContainer` and `killContainer` in `kuberuntime_container.go`): the runtime operations
//! a sync waits for (pull, create, start), init, sidecar and app containers started in order,
//! stops with their grace period, exits, and the crash-loop back-off (`CrashLoopBackOff`).

use super::images::{go_duration, CachedImage, ResolvedImage};
use super::probes::{ProbeKind, WorkerState};
use super::runtime::{End, OnStop, Process};
use super::{cgroups, cni, env, probes, qos, runtime, volumes, Kubelet, PodWorker, POD_WORKER_BACKOFF_MS};
use crate::sim::Task;
use crate::sort::CollectMap;
use crate::trace::{Component, Phase, StepStatus, Table};
use crate::world::World;
use k8s_openapi::api::core::v1::Container;
use std::collections::BTreeMap;

/// First crash-loop back-off.
pub const CRASH_BACKOFF_INITIAL_MS: u64 = 10_000;
/// Cap of the crash-loop back-off (5 minutes).
pub const CRASH_BACKOFF_MAX_MS: u64 = 300_000;
/// A process that ends by itself within this long after its start keeps the simulation
/// going until it ends (a Job's `sleep 30` completes in the trace); a longer one (`sleep
/// 3600`) does not, so the trace settles while it runs.
pub const EXIT_HORIZON_MS: u64 = 10 * 60_000;

/// The last run of a container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Term {
    pub(super) exit_code: i32,
    pub(super) reason: String,
    pub(super) message: Option<String>,
    /// `None` for a process that never started (shown as the epoch).
    pub(super) started_ms: Option<u64>,
    pub(super) finished_ms: u64,
    pub(super) container_id: String,
    pub(super) signal: Option<i32>,
}

/// A container's current state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum CState {
    Waiting { reason: String, message: Option<String> },
    Running { started_ms: u64 },
    Terminated(Term),
}

/// A stop in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Stop {
    pub(super) exit_code: i32,
    pub(super) at_ms: u64,
    /// Set when the stop is part of a pod sync (a failed liveness, startup or postStart
    /// hook): the sync waits for StopContainer to return and then goes on in the same pass.
    pub(super) in_sync: Option<InSyncKill>,
    /// Set when the pod is being deleted or evicted (upstream's SyncTerminatingPod). Upstream
    /// reports a container by what the runtime and its readiness probe say until it has
    /// exited, so it stays ready while it stops (the EndpointSlice lists a deleted pod as
    /// serving and terminating); other stops mark it not ready.
    pub(super) keeps_ready: bool,
}

/// What the sync that kills a container does once it is stopped. For a failed probe,
/// upstream's computePodActions puts the container in ContainersToKill and, unless the
/// restart policy is Never, in ContainersToStart: SyncPod kills, then starts. A failed
/// postStart hook kills inside startContainer and the sync ends there (`restart` false).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct InSyncKill {
    pub(super) restart: bool,
    /// The newest exited instance before the kill: what doBackOff judges the restart by,
    /// since the sync's pod status was read before the kill.
    pub(super) previous: Option<Term>,
}

/// One container of a pod, as the kubelet and the runtime know it.
#[derive(Clone, Debug)]
pub(super) struct Ctr {
    pub(super) name: String,
    pub(super) init: bool,
    pub(super) sidecar: bool,
    pub(super) spec: Container,
    pub(super) state: CState,
    pub(super) last: Option<Term>,
    pub(super) restarts: i32,
    /// The ID of the container being created (CreateContainer's answer).
    pub(super) container_id: Option<String>,
    /// The ID of the last container that was started: what the status reports.
    pub(super) current_id: Option<String>,
    pub(super) image: Option<ResolvedImage>,
    /// Increases with every container started (probes and exits are keyed by it).
    pub(super) instance: u32,
    pub(super) process: Option<Process>,
    /// What the newest instance that started printed, and the one before it (`kubectl
    /// logs` and `kubectl logs --previous`).
    pub(super) output: Option<Vec<String>>,
    pub(super) previous_output: Option<Vec<String>>,
    pub(super) env: Vec<env::EnvEntry>,
    pub(super) started: bool,
    pub(super) probes: BTreeMap<ProbeKind, WorkerState>,
    pub(super) stopping: Option<Stop>,
    /// Do not retry a failed start before this time.
    pub(super) next_try: u64,
}

impl Ctr {
    pub(super) fn new(spec: &Container, init: bool) -> Ctr {
        Ctr {
            name: spec.name.clone(),
            init,
            sidecar: init && spec.restart_policy.as_deref() == Some("Always"),
            spec: spec.clone(),
            state: CState::Waiting { reason: String::new(), message: None },
            last: None,
            restarts: 0,
            container_id: None,
            current_id: None,
            image: None,
            instance: 0,
            process: None,
            output: None,
            previous_output: None,
            env: vec![],
            started: false,
            probes: BTreeMap::new(),
            stopping: None,
            next_try: 0,
        }
    }

    pub(super) fn running(&self) -> bool {
        matches!(self.state, CState::Running { .. })
    }

    pub(super) fn started_ms(&self) -> Option<u64> {
        match self.state {
            CState::Running { started_ms } => Some(started_ms),
            _ => None,
        }
    }

    /// The newest exited instance: the current state if it is terminated, else the last one.
    fn newest_exit(&self) -> Option<Term> {
        match &self.state {
            CState::Terminated(t) => Some(t.clone()),
            _ => self.last.clone(),
        }
    }

    /// Ready: started, and its readiness probe (if any) succeeds.
    pub(super) fn ready(&self) -> bool {
        if !self.running() || !self.started || self.stopping.as_ref().is_some_and(|s| !s.keeps_ready) {
            return false;
        }
        match self.spec.readiness_probe {
            Some(_) => self.probes.get(&ProbeKind::Readiness).and_then(|w| w.published) == Some(true),
            None => true,
        }
    }

    pub(super) fn field_path(&self) -> String {
        if self.init {
            format!("spec.initContainers{{{}}}", self.name)
        } else {
            format!("spec.containers{{{}}}", self.name)
        }
    }
}

/// A runtime operation the pod worker waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Op {
    Pull { ctr: usize, done_at: u64, pull_ms: u64, total_ms: u64, result: Result<ResolvedImage, String> },
    Create { ctr: usize, done_at: u64 },
    Start { ctr: usize, done_at: u64 },
}

impl Op {
    pub(super) fn ctr(&self) -> usize {
        match self {
            Op::Pull { ctr, .. } | Op::Create { ctr, .. } | Op::Start { ctr, .. } => *ctr,
        }
    }

    pub(super) fn done_at(&self) -> u64 {
        match self {
            Op::Pull { done_at, .. } | Op::Create { done_at, .. } | Op::Start { done_at, .. } => *done_at,
        }
    }
}

/// Whether a container that exited with `code` is restarted under the pod's policy.
pub(super) fn should_restart(policy: &str, code: i32) -> bool {
    match policy {
        "Never" => false,
        "OnFailure" => code != 0,
        _ => true,
    }
}

impl Kubelet {
    /// Completes a finished runtime operation; `false` while one is still in flight.
    pub(super) fn progress_op(&mut self, core: &mut World, w: &mut PodWorker) -> bool {
        let Some(op) = w.op.clone() else { return true };
        if core.now < op.done_at() {
            self.wake(core, w, op.done_at(), false);
            return false;
        }
        w.op = None;
        match op {
            Op::Pull { ctr, pull_ms, total_ms, result: Ok(img), .. } => {
                let image = w.ctrs[ctr].spec.image.clone().unwrap_or_default();
                self.event(
                    core,
                    w,
                    Some(ctr),
                    "Normal",
                    "Pulled",
                    format!(
                        "Successfully pulled image {image:?} in {} ({} including waiting). Image size: {} bytes.",
                        go_duration(pull_ms),
                        go_duration(total_ms),
                        img.info.size_bytes
                    ),
                    Phase::Runtime,
                );
                let fresh = !self.images.images.contains_key(&img.normalized);
                self.images.images.insert(
                    img.normalized.clone(),
                    CachedImage { size_bytes: img.info.size_bytes, image_id: img.image_id.clone() },
                );
                if fresh {
                    self.update_node_images(core);
                }
                w.ctrs[ctr].image = Some(img);
                self.begin_create(core, w, ctr);
            }
            Op::Pull { ctr, result: Err(err), .. } => {
                let image = w.ctrs[ctr].spec.image.clone().unwrap_or_default();
                self.event(
                    core,
                    w,
                    Some(ctr),
                    "Warning",
                    "Failed",
                    format!("Failed to pull image {image:?}: {err}"),
                    Phase::Runtime,
                );
                self.event(core, w, Some(ctr), "Warning", "Failed", "Error: ErrImagePull".into(), Phase::Runtime);
                let bkey = format!("{}_{image}", w.uid);
                self.image_backoff.next(&bkey, core.now);
                self.last_pull_error.insert(bkey, err.clone());
                let c = &mut w.ctrs[ctr];
                c.state = CState::Waiting { reason: "ErrImagePull".into(), message: Some(err) };
                c.next_try = Self::next_relist(core.now);
                let at = c.next_try;
                self.wake(core, w, at, false);
            }
            Op::Create { ctr, done_at: _ } => {
                let id = runtime::new_container_id(&mut core.rng);
                w.ctrs[ctr].container_id = Some(id);
                self.event(core, w, Some(ctr), "Normal", "Created", "Container created".to_string(), Phase::Containers);
                let done_at = core.now + runtime::CONTAINER_START_MS;
                w.op = Some(Op::Start { ctr, done_at });
                self.wake(core, w, done_at, false);
            }
            Op::Start { ctr, .. } => self.finish_start(core, w, ctr),
        }
        w.op.is_none()
    }

    /// Decides what to start next: init containers in order, then app containers.
    pub(super) fn containers(&mut self, core: &mut World, w: &mut PodWorker) {
        if w.op.is_some() || w.deleting {
            return;
        }
        let policy = w.restart_policy();
        for i in 0..w.n_init {
            let c = &w.ctrs[i];
            if c.sidecar {
                match &c.state {
                    CState::Running { .. } if c.started => continue,
                    CState::Running { .. } => return,
                    _ => {
                        self.start_or_backoff(core, w, i);
                        return;
                    }
                }
            }
            match &c.state {
                CState::Terminated(t) if t.exit_code == 0 => continue,
                CState::Running { .. } => return,
                CState::Terminated(t) if !should_restart(&policy, t.exit_code) => return,
                _ => {
                    self.start_or_backoff(core, w, i);
                    return;
                }
            }
        }
        for i in w.n_init..w.ctrs.len() {
            if w.op.is_some() {
                return;
            }
            let needs = match &w.ctrs[i].state {
                CState::Running { .. } => false,
                CState::Terminated(t) => should_restart(&policy, t.exit_code),
                CState::Waiting { .. } => true,
            };
            if needs {
                self.start_or_backoff(core, w, i);
            }
        }
    }

    /// Starts (or restarts) container `i`, unless a back-off says to wait.
    fn start_or_backoff(&mut self, core: &mut World, w: &mut PodWorker, i: usize) {
        if core.now < w.ctrs[i].next_try {
            let at = w.ctrs[i].next_try;
            self.wake(core, w, at, true);
            return;
        }
        let previous = w.ctrs[i].newest_exit();
        self.start_unless_backoff(core, w, i, previous);
    }

    /// doBackOff, then the start: `previous` is the newest exited instance the sync's pod
    /// status shows (none for a first start, or a first restart inside a probe kill's sync).
    fn start_unless_backoff(&mut self, core: &mut World, w: &mut PodWorker, i: usize, previous: Option<Term>) {
        if let Some(prev) = previous {
            let key = format!("{}_{}_{}_{}", w.name(), w.ns(), w.uid, w.ctrs[i].name);
            if self.crash_backoff.in_backoff_since(&key, prev.finished_ms, core.now) {
                // The next sync measures the back-off from the newest exit, which is the
                // killed instance when this sync killed one.
                let prev = w.ctrs[i].newest_exit().unwrap_or(prev);
                let delay = self.crash_backoff.get(&key);
                let name = w.ctrs[i].name.clone();
                let pod = w.formatted();
                self.event(
                    core,
                    w,
                    Some(i),
                    "Warning",
                    "BackOff",
                    format!("Back-off restarting failed container {name} in pod {pod}"),
                    Phase::Containers,
                );
                let c = &mut w.ctrs[i];
                c.last = Some(prev.clone());
                c.state = CState::Waiting {
                    reason: "CrashLoopBackOff".into(),
                    message: Some(format!(
                        "back-off {} restarting failed container={name} pod={pod}",
                        go_duration(delay)
                    )),
                };
                c.next_try = prev.finished_ms + delay;
                let at = c.next_try;
                self.wake(core, w, at, true);
                return;
            }
            self.crash_backoff.next(&key, prev.finished_ms);
        }
        self.ensure_image(core, w, i);
    }

    /// Resolves the environment and asks the runtime to create the container.
    pub(super) fn begin_create(&mut self, core: &mut World, w: &mut PodWorker, i: usize) {
        let node = self.node_obj(core);
        let alloc =
            qos::resource_list(node.as_ref().and_then(|n| n.status.as_ref()).and_then(|s| s.allocatable.as_ref()));
        let pod_ip = w.pod_ip().map(cni::ip_to_string).unwrap_or_default();
        let host_ip = self.node_ip(core);
        let ctx = env::EnvContext {
            pod_ip: &pod_ip,
            host_ip: &host_ip,
            node_allocatable_cpu_milli: alloc.get("cpu").map(|q| q.milli().max(0) as u64).unwrap_or(0),
            node_allocatable_memory: alloc.get("memory").map(|q| q.value().max(0) as u64).unwrap_or(0),
        };
        match env::resolve(&core.store, &w.pod, &w.ctrs[i].spec, &ctx) {
            Err(msg) => {
                self.event(core, w, Some(i), "Warning", "Failed", format!("Error: {msg}"), Phase::Containers);
                let c = &mut w.ctrs[i];
                c.state = CState::Waiting { reason: "CreateContainerConfigError".into(), message: Some(msg) };
                c.next_try = core.now + POD_WORKER_BACKOFF_MS;
                let at = c.next_try;
                self.wake(core, w, at, true);
            }
            Ok(vars) => {
                w.ctrs[i].env = vars;
                let done_at = core.now + runtime::CONTAINER_CREATE_MS;
                w.op = Some(Op::Create { ctr: i, done_at });
                self.wake(core, w, done_at, false);
            }
        }
    }

    /// StartContainer returned: the process runs (or could not start).
    fn finish_start(&mut self, core: &mut World, w: &mut PodWorker, i: usize) {
        let Some(img) = w.ctrs[i].image.clone() else { return };
        let spec = w.ctrs[i].spec.clone();
        let argv = runtime::effective_argv(&img.info, spec.command.as_ref(), spec.args.as_ref());
        let memory_limit =
            qos::limits(spec.resources.as_ref()).get("memory").map(|q| q.value().max(0) as u64).unwrap_or(0);
        let ctx = runtime::ProcessContext {
            env: w.ctrs[i].env.iter().map(|e| (e.name.clone(), e.value.clone())).collect_map(),
            tty: spec.tty == Some(true),
            stdin: spec.stdin == Some(true),
            memory_limit,
            declared_ports: spec.ports.iter().flatten().map(|p| p.container_port).collect(),
            files: volumes::container_files(&w.mounts, &spec),
            texts: volumes::container_texts(&core.store, &w.pod, &spec),
        };
        let process = runtime::model_process(&img.info, &argv, &ctx);
        let id = w.ctrs[i].container_id.clone().unwrap_or_default();
        let previous = w.ctrs[i].newest_exit();
        let had_run = previous.is_some();
        let obj = w.reference();
        if let End::StartError { message } = &process.end {
            self.event(core, w, Some(i), "Warning", "Failed", format!("Error: {message}"), Phase::Containers);
            let policy = w.restart_policy();
            let c = &mut w.ctrs[i];
            if had_run {
                c.restarts += 1;
            }
            c.instance += 1;
            c.current_id = c.container_id.clone();
            let term = Term {
                exit_code: runtime::EXIT_START_ERROR,
                reason: "StartError".into(),
                message: Some(message.clone()),
                started_ms: None,
                finished_ms: core.now,
                container_id: id,
                signal: None,
            };
            // The failed container counts as an exited one for the crash back-off.
            if should_restart(&policy, term.exit_code) {
                c.last = Some(term);
                c.state = CState::Waiting { reason: "RunContainerError".into(), message: Some(message.clone()) };
                // The next attempt comes with the next sync.
                c.next_try = Self::next_relist(core.now);
            } else {
                c.state = CState::Terminated(term);
            }
            self.work(
                core,
                Phase::Containers,
                Component::Runtime,
                Component::Kubelet,
                Some(&obj),
                format!("container {:?} cannot start", spec.name),
                "container",
                vec![("command".into(), format!("{argv:?}")), ("runc".into(), message.clone())],
                vec![],
                "runc could not execute the container's command: it does not exist in the image. The container is recorded as exited (StartError, exit code 128) and restarted with back-off.".into(),
                StepStatus::Failed,
            );
            let at = Self::next_relist(core.now);
            self.wake(core, w, at, false);
            return;
        }
        self.event(core, w, Some(i), "Normal", "Started", "Container started".to_string(), Phase::Containers);
        {
            let c = &mut w.ctrs[i];
            if had_run {
                c.restarts += 1;
                c.last = previous;
            }
            c.instance += 1;
            c.current_id = c.container_id.clone();
            c.state = CState::Running { started_ms: core.now };
            c.process = Some(process.clone());
            c.previous_output = c.output.replace(process.logs.clone());
            c.stopping = None;
            c.probes.clear();
            if spec.liveness_probe.is_some() {
                c.probes.insert(ProbeKind::Liveness, WorkerState { published: Some(true), ..Default::default() });
            }
            if spec.readiness_probe.is_some() {
                // Readiness starts as a failure: not ready until the probe says so.
                c.probes.insert(ProbeKind::Readiness, WorkerState { published: Some(false), ..Default::default() });
            }
            if spec.startup_probe.is_some() {
                c.probes.insert(ProbeKind::Startup, WorkerState::default());
            }
            c.started = spec.startup_probe.is_none();
        }
        let instance = w.ctrs[i].instance;
        // The container's work step.
        let mut facts = vec![
            ("container ID".into(), format!("containerd://{id}")),
            ("image".into(), format!("{} ({})", img.normalized, img.image_id)),
            ("command line".into(), format!("{argv:?}")),
            (
                "cgroup".into(),
                format!("{}/{}", cgroups::CGROUP_ROOT, cgroups::container_cgroup_path(w.qos, &w.uid, &id)),
            ),
            ("what it does".into(), process.description.clone()),
        ];
        if !process.listeners.is_empty() {
            let ports: Vec<String> = process
                .listeners
                .iter()
                .map(|l| format!("{}/TCP{}", l.port, if l.localhost_only { " (127.0.0.1 only)" } else { "" }))
                .collect();
            facts.push(("listens on".into(), ports.join(", ")));
        }
        if !process.logs.is_empty() {
            facts.push(("output".into(), process.logs.join("\n")));
        }
        if w.ctrs[i].restarts > 0 {
            facts.push(("restart".into(), format!("#{}", w.ctrs[i].restarts)));
        }
        let mut tables = vec![];
        let env_rows: Vec<Vec<String>> = w.ctrs[i]
            .env
            .iter()
            .filter(|e| !e.source.starts_with("service "))
            .map(|e| vec![e.name.clone(), e.value.clone(), e.source.clone()])
            .collect();
        if !env_rows.is_empty() {
            tables.push(Table {
                title: "Environment".into(),
                columns: vec!["name".into(), "value".into(), "from".into()],
                rows: env_rows,
            });
        }
        let mounts: Vec<Vec<String>> = spec
            .volume_mounts
            .iter()
            .flatten()
            .map(|vm| {
                let src = w.mounts.get(&vm.name).map(|m| m.host_path.clone()).unwrap_or_default();
                vec![
                    vm.mount_path.clone(),
                    vm.name.clone(),
                    src,
                    if vm.read_only == Some(true) { "ro".into() } else { "rw".into() },
                ]
            })
            .collect();
        if !mounts.is_empty() {
            tables.push(Table {
                title: "Mounts".into(),
                columns: vec!["path".into(), "volume".into(), "from the node".into(), "mode".into()],
                rows: mounts,
            });
        }
        self.work(
            core,
            Phase::Containers,
            Component::Runtime,
            Component::Kubelet,
            Some(&obj),
            format!("container {:?} is running: {}", spec.name, process.description),
            "container",
            facts,
            tables,
            "runc started the process inside the sandbox's namespaces and the container's cgroup. What happens next depends on the process: a server keeps running, a command runs to its end.".into(),
            StepStatus::Ok,
        );
        // postStart hook.
        if let Some(hook) = spec.lifecycle.as_ref().and_then(|l| l.post_start.as_ref()) {
            let pod_ip = w.pod_ip().map(cni::ip_to_string).unwrap_or_default();
            let failure = if let Some(e) = &hook.exec {
                let cmd = e.command.clone().unwrap_or_default();
                let static_files = volumes::container_files(&w.mounts, &spec);
                let (code, output) = runtime::exec_in_container(&img.info, &process, &cmd, 0, &static_files);
                (code != 0).then(|| {
                    let err = if output.starts_with("OCI runtime exec failed") {
                        output.clone()
                    } else {
                        format!("command '{}' exited with {code}: {output}", cmd.join(" "))
                    };
                    format!(
                        "Exec lifecycle hook ([{}]) for Container {:?} in Pod {:?} failed - error: {err}, message: {:?}",
                        cmd.join(" "),
                        spec.name,
                        w.formatted(),
                        output
                    )
                })
            } else if let Some(h) = &hook.http_get {
                let port = probes::resolve_port(&h.port, &spec).unwrap_or(0);
                let path = h.path.clone().unwrap_or_else(|| "/".into());
                let up = process.listeners.iter().find(|l| l.port == port && process.listen_after_ms == 0);
                match up {
                    Some(l) if (200..400).contains(&runtime::http_status(&l.routes, &path, 0)) => None,
                    Some(l) => Some(format!(
                        "HTTP lifecycle hook ({path}) for Container {:?} in Pod {:?} failed - error: HTTP lifecycle hook ({path}) for Container {:?} in Pod {:?} failed - status code {} is not a success status",
                        spec.name,
                        w.formatted(),
                        spec.name,
                        w.formatted(),
                        runtime::http_status(&l.routes, &path, 0)
                    )),
                    None => Some(format!(
                        "HTTP lifecycle hook ({path}) for Container {:?} in Pod {:?} failed - error: Get \"http://{pod_ip}:{port}{path}\": dial tcp {pod_ip}:{port}: connect: connection refused",
                        spec.name,
                        w.formatted()
                    )),
                }
            } else {
                None
            };
            if let Some(msg) = failure {
                self.event(core, w, Some(i), "Warning", "FailedPostStartHook", msg, Phase::Containers);
                // startContainer runs the hook and this kill inside the pod's sync: nothing
                // is written until the container has stopped.
                let grace = w.grace_seconds();
                let in_sync = InSyncKill { restart: false, previous: None };
                self.stop_container(core, w, i, "FailedPostStartHook".into(), grace, Some(in_sync));
                return;
            }
        }
        // The process's own end.
        let exit_after = match &process.end {
            End::Exit { after_ms, .. } | End::Oom { after_ms } => Some(*after_ms),
            _ => None,
        };
        if let Some(after) = exit_after {
            let key = format!("exit|{}|{}|{instance}", w.key, spec.name);
            let task = if after <= EXIT_HORIZON_MS {
                Task::new(self.target(), key)
            } else {
                Task::periodic(self.target(), key)
            };
            core.after(after, task);
        }
        // Probe workers tick every period from the pod's first sync.
        for kind in ProbeKind::ALL {
            if let Some(p) = kind.of(&spec) {
                let t = probes::timing(p);
                let period = t.period_s as u64 * 1000;
                let first = core.now + t.initial_delay_s as u64 * 1000;
                let k = first.saturating_sub(w.probe_epoch).div_ceil(period);
                let mut tick = w.probe_epoch + k * period;
                if kind == ProbeKind::Readiness && t.initial_delay_s == 0 {
                    // The status manager triggers readiness right after the start.
                    tick = tick.min(Self::next_relist(core.now));
                }
                let key = format!("probe|{}|{}|{}|{instance}", w.key, spec.name, kind.word());
                core.after(tick.saturating_sub(core.now), Task::periodic(self.target(), key));
            }
        }
    }

    /// computePodActions' `containerChanged`: a container whose spec is no longer the one it
    /// was started with (an update of a Pod may change its containers' images) takes the new
    /// spec; a running one is killed ("Container NAME definition changed, will be
    /// restarted") and started again in the same sync, whatever the restart policy, with no
    /// back-off (its back-off key has the new spec's hash). Init containers that ran to
    /// completion are not run again; a sidecar is restarted as a container is. One kill per
    /// sync: the next sync sees the next changed container. Whether a container was killed.
    pub(super) fn restart_changed(&mut self, core: &mut World, w: &mut PodWorker) -> bool {
        let Some(spec) = w.pod.spec.clone() else { return false };
        let grace = w.grace_seconds();
        let mut killed = false;
        for i in 0..w.ctrs.len() {
            let list =
                if w.ctrs[i].init { spec.init_containers.as_deref().unwrap_or_default() } else { &spec.containers };
            let Some(new) = list.iter().find(|c| c.name == w.ctrs[i].name) else { continue };
            if new.image == w.ctrs[i].spec.image {
                continue;
            }
            w.ctrs[i].spec = new.clone();
            let restarts = !w.ctrs[i].init || w.ctrs[i].sidecar;
            if killed || !restarts || !w.ctrs[i].running() || w.ctrs[i].stopping.is_some() {
                continue;
            }
            let message = format!("Container {} definition changed, will be restarted", w.ctrs[i].name);
            self.stop_container(core, w, i, message, grace, Some(InSyncKill { restart: true, previous: None }));
            killed = true;
        }
        killed
    }

    /// Stops container `i`: `message` is the Killing event's text.
    pub(super) fn kill(&mut self, core: &mut World, w: &mut PodWorker, i: usize, message: String, grace_s: i64) {
        self.stop_container(core, w, i, message, grace_s, None);
    }

    /// A kill of a pod being deleted or evicted: the container keeps its readiness until it
    /// has exited.
    pub(super) fn kill_terminating(
        &mut self,
        core: &mut World,
        w: &mut PodWorker,
        i: usize,
        message: String,
        grace_s: i64,
    ) {
        self.kill(core, w, i, message, grace_s);
        if let Some(stop) = w.ctrs[i].stopping.as_mut() {
            stop.keeps_ready = true;
        }
    }

    /// StopContainer: SIGTERM, then SIGKILL when the grace period ends. With `in_sync`, the
    /// stop belongs to a pod sync that waits for it (a failed probe or postStart hook).
    pub(super) fn stop_container(
        &mut self,
        core: &mut World,
        w: &mut PodWorker,
        i: usize,
        message: String,
        grace_s: i64,
        in_sync: Option<InSyncKill>,
    ) {
        if w.ctrs[i].stopping.is_some() || !w.ctrs[i].running() {
            return;
        }
        if in_sync.is_some() {
            // This kill's own block takes over from any pass under way (it ends that pass).
            w.in_sync_kill = Some(i);
            w.in_pass = false;
        }
        self.event(core, w, Some(i), "Normal", "Killing", message, Phase::Containers);
        let on_stop = w.ctrs[i].process.as_ref().map(|p| p.on_stop).unwrap_or(OnStop::Ignores);
        let (code, after) = match on_stop {
            OnStop::Exits(code) if grace_s > 0 => (code, runtime::GRACEFUL_STOP_MS.min(grace_s as u64 * 1000)),
            _ => (runtime::EXIT_SIGKILL, grace_s.max(0) as u64 * 1000),
        };
        let at = core.now + after;
        w.ctrs[i].stopping = Some(Stop { exit_code: code, at_ms: at, in_sync, keeps_ready: false });
        let instance = w.ctrs[i].instance;
        core.after(after, Task::new(self.target(), format!("exit|{}|{}|{instance}", w.key, w.ctrs[i].name)));
    }

    /// A container's process ended (exit, OOM kill, or the end of a stop).
    pub(super) fn on_exit(&mut self, core: &mut World, key: &str, name: &str, instance: u32) {
        let Some(mut w) = self.pods.remove(key) else { return };
        self.exit_container(core, &mut w, name, instance);
        self.pods.insert(key.to_string(), w);
    }

    fn exit_container(&mut self, core: &mut World, w: &mut PodWorker, name: &str, instance: u32) {
        let Some(i) = w.ctrs.iter().position(|c| c.name == name) else { return };
        if w.ctrs[i].instance != instance {
            return;
        }
        let CState::Running { started_ms } = w.ctrs[i].state.clone() else { return };
        let process = w.ctrs[i].process.clone();
        let (code, reason, signal) = match (&w.ctrs[i].stopping, process.as_ref().map(|p| &p.end)) {
            (Some(s), _) => {
                if core.now < s.at_ms {
                    return;
                }
                (s.exit_code, if s.exit_code == 0 { "Completed" } else { "Error" }, None)
            }
            (None, Some(End::Oom { .. })) => (runtime::EXIT_SIGKILL, "OOMKilled", None),
            (None, Some(End::Exit { code, .. })) => (*code, if *code == 0 { "Completed" } else { "Error" }, None),
            _ => return,
        };
        let in_sync = w.ctrs[i].stopping.as_ref().and_then(|s| s.in_sync.clone()).filter(|_| w.in_sync_kill == Some(i));
        let id = w.ctrs[i].container_id.clone().unwrap_or_default();
        let term = Term {
            exit_code: code,
            reason: reason.into(),
            message: None,
            started_ms: Some(started_ms),
            finished_ms: core.now,
            container_id: id,
            signal,
        };
        {
            let c = &mut w.ctrs[i];
            c.state = CState::Terminated(term);
            c.process = None;
            c.started = false;
            c.stopping = None;
        }
        let obj = w.reference();
        let ran = go_duration(core.now - started_ms);
        let why = match reason {
            "OOMKilled" => "the kernel killed it for using more memory than its memory.max (exit code 137 = 128 + SIGKILL)".to_string(),
            _ if code == runtime::EXIT_SIGKILL => "it ignored SIGTERM (PID 1 without a handler), so it was killed with SIGKILL when the grace period ended (137 = 128 + 9)".to_string(),
            _ if code == 0 => "its main process ended successfully".to_string(),
            _ => "its main process ended with a non-zero exit code".to_string(),
        };
        self.work(
            core,
            Phase::Containers,
            Component::Runtime,
            Component::Kubelet,
            Some(&obj),
            format!("container {name:?} exited with code {code} ({reason}) after {ran}"),
            "container",
            vec![("exit code".into(), code.to_string()), ("reason".into(), reason.into()), ("why".into(), why)],
            vec![],
            match &in_sync {
                Some(k) if k.restart => "StopContainer has returned: the sync that killed the container goes straight on to start it again (the kubelet writes no status in between). Its back-off is judged by the exit before this one.".into(),
                Some(_) => "StopContainer has returned and the sync that stopped the container ends; the next sync writes the pod's status, and the restart policy decides whether the container runs again.".into(),
                None => "The kubelet's PLEG notices the exit at its next relist and syncs the pod: the restart policy decides what happens next.".into(),
            },
            if code == 0 { StepStatus::Ok } else { StepStatus::Failed },
        );
        if reason == "OOMKilled" {
            let victim =
                process.as_ref().and_then(|p| p.argv.iter().find(|a| !a.ends_with(".sh")).cloned()).unwrap_or_default();
            let pid = 3000 + core.rng.below(60_000);
            let victim = victim.rsplit('/').next().unwrap_or("").to_string();
            self.node_event(
                core,
                "Warning",
                "SystemOOM",
                format!("System OOM encountered, victim process: {victim}, pid: {pid}"),
            );
        }
        // The kill's sync starts the container again in the same pass (with another
        // container's start still in progress, the next sync restarts it).
        if let Some(InSyncKill { restart: true, previous }) = &in_sync {
            if !w.deleting && w.op.is_none() {
                self.start_unless_backoff(core, w, i, previous.clone());
                if w.op.is_some() {
                    return;
                }
            }
        }
        // A sync that only stopped the container (or found it in back-off) ends here; the
        // next one writes the status.
        if in_sync.is_some() {
            w.in_sync_kill = None;
        }
        // A deleted or evicted pod's killPod returns once its last container has stopped,
        // and SyncTerminatingPod goes straight on (no relist needed).
        if w.deleting {
            if !w.deleted {
                self.terminate(core, w);
            }
            return;
        }
        if w.evicted.is_some() {
            self.finish_evicted(core, w);
            return;
        }
        let at = Self::next_relist(core.now);
        self.wake(core, w, at, false);
    }
}
