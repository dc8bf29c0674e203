//! The kubelet of one node: everything between a Pod bound to the node and a running (or
//! failing) Pod, with the node's container runtime (containerd) and CNI plugin.
//!
//! The kubelet is an [`Actor`] for `Target::Kubelet(<node>)`. It watches Pods whose
//! `spec.nodeName` is its node and runs one pod worker per Pod, modelled as upstream's
//! `SyncPod`: admission on the node, QoS class and pod cgroup, volumes (wait until mounted),
//! the pause sandbox and its network (CNI ADD), init containers one after the other, then app
//! containers (image, config, create, start, postStart hook), probes, restarts with
//! back-off, and the Pod status it writes through the API server (`pods/status`, as
//! `system:node:<node>`). Events are written through the API server too.
//!
//! Work that takes time is split into tasks at the times the work completes (a pull ends,
//! a container starts, a process exits, a probe ticks), so every step of the trace sits at
//! its real moment. Retries that only wait for a back-off are queued as periodic tasks: they
//! do not keep the simulation alive by themselves.
//!
//! Wiring: one `Kubelet::new(node, KubeletConfig { registry, faults, .. })` per Node, passed
//! to `run_loop` with the other actors; call [`Kubelet::start`] once so it lists pods that
//! are already bound and arms its fault timers. It expects its Node object in the store
//! (allocatable, labels, taints, `spec.podCIDR`, InternalIP, `status.images`) and, for pods
//! with the usual `kube-api-access-*` projected volume, the `kube-root-ca.crt` ConfigMap in
//! the pod's namespace (without it the volume fails to mount, as on a real node).

pub mod admission;
pub mod cgroups;
pub mod cni;
pub mod env;
pub mod events;
pub mod images;
pub mod probes;
pub mod qos;
pub mod runtime;
pub mod status;
pub mod volumes;

pub use cni::CniFault;
pub use images::Registry;

use crate::apiserver::{self, ApiRequest, Body, Caller, Verb};
use crate::object::{resource_for, Object};
use crate::sim::{object_ref, Actor, Core, StepBuilder, Target, Task};
use crate::sort::CollectMap;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Change, Component, Detail, Phase, StepStatus, Table, WatchDetail, WorkDetail};
use crate::world::World;
use events::{EventRecorder, EventSpec};
use images::{go_duration, Backoff, CachedImage, ImageCache, ImageInfo, ImageRef};
use k8s_openapi::api::core::v1::{Container, Node, Pod, PodStatus};
use probes::{ProbeKind, WorkerState};
use qos::QosClass;
use runtime::{End, OnStop, Process};
use std::collections::{BTreeMap, BTreeSet};
use volumes::Mounted;

/// Delay between a watch event and the kubelet acting on it.
pub const WATCH_LATENCY_MS: u64 = 2;
/// The PLEG relists containers every second; exits are noticed at the next relist.
pub const PLEG_RELIST_MS: u64 = 1_000;
/// A pod worker whose sync failed tries again after this long (`backOffPeriod`; upstream
/// adds up to 50% jitter, the lab does not).
pub const POD_WORKER_BACKOFF_MS: u64 = 10_000;
/// First crash-loop back-off.
pub const CRASH_BACKOFF_INITIAL_MS: u64 = 10_000;
/// Cap of the crash-loop back-off (5 minutes).
pub const CRASH_BACKOFF_MAX_MS: u64 = 300_000;
/// When the sandbox network is set up, counted from RunPodSandbox.
pub const CNI_AT_MS: u64 = 150;
/// The eviction manager's monitoring interval.
pub const EVICTION_MONITORING_MS: u64 = 10_000;
/// Grace period of a pod evicted for a hard eviction threshold.
pub const EVICTION_GRACE_S: i64 = 1;
/// A process that ends by itself within this long after its start keeps the simulation
/// going until it ends (a Job's `sleep 30` completes in the trace); a longer one (`sleep
/// 3600`) does not, so the trace settles while it runs.
pub const EXIT_HORIZON_MS: u64 = 10 * 60_000;
/// The DNS service IP kind clusters use (`clusterDNS`).
pub const CLUSTER_DNS: &str = "10.96.0.10";
/// Ephemeral-storage eviction threshold kind's kubelet uses (`nodefs.available<10%`).
pub const NODEFS_EVICTION_PERCENT: u64 = 10;
/// A node's ephemeral storage when its status does not say.
pub const DEFAULT_NODE_EPHEMERAL_BYTES: u64 = 100 * 1024 * 1024 * 1024;
/// `nodeLeaseDurationSeconds`: the Lease's `spec.leaseDurationSeconds`.
pub const NODE_LEASE_DURATION_S: i32 = 40;
/// The Lease is renewed every `nodeLeaseDurationSeconds` × 0.25 (`renewIntervalFraction`).
pub const NODE_LEASE_RENEW_INTERVAL_MS: u64 = 10_000;
/// `nodeStatusUpdateFrequency`: how often the kubelet computes its node status.
pub const NODE_STATUS_UPDATE_FREQUENCY_MS: u64 = 10_000;
/// `nodeStatusReportFrequency`: unchanged node status is still posted this often.
pub const NODE_STATUS_REPORT_FREQUENCY_MS: u64 = 300_000;
/// The namespace of the node Leases.
pub const NODE_LEASE_NAMESPACE: &str = "kube-node-lease";

/// Disk pressure on a node: from `since_ms`, the node's filesystem has only
/// `available_percent` of its capacity free (below the 10% eviction threshold).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DiskPressure {
    pub since_ms: u64,
    pub available_percent: u64,
}

impl Default for DiskPressure {
    fn default() -> Self {
        DiskPressure { since_ms: 0, available_percent: 5 }
    }
}

/// Faults a lesson can switch on for one node (lab settings: `notReadyAt`, `cni`,
/// `diskPressure`, `registryDown`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NodeFaults {
    /// From this time the kubelet is down: it stops posting node status and renewing its
    /// Lease (so the node-lifecycle controller marks the node NotReady after its grace
    /// period), and it syncs no pods.
    pub not_ready_at: Option<u64>,
    /// The CNI plugin fails every ADD.
    pub cni: Option<CniFault>,
    /// The node runs out of disk: DiskPressure and evictions.
    pub disk_pressure: Option<DiskPressure>,
    /// No image registry can be reached.
    pub registry_down: bool,
}

impl NodeFaults {
    /// From when the node's kubelet posts no more heartbeats (node status and Lease), if it
    /// stops.
    pub fn heartbeat_stops_at(&self) -> Option<u64> {
        self.not_ready_at
    }
}

/// Everything a kubelet is configured with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KubeletConfig {
    pub registry: Registry,
    pub faults: NodeFaults,
    /// `serializeImagePulls` (default true): one pull at a time per node.
    pub serialize_image_pulls: bool,
}

impl Default for KubeletConfig {
    fn default() -> Self {
        KubeletConfig { registry: Registry::default(), faults: NodeFaults::default(), serialize_image_pulls: true }
    }
}

/// The last run of a container.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Term {
    exit_code: i32,
    reason: String,
    message: Option<String>,
    /// `None` for a process that never started (shown as the epoch).
    started_ms: Option<u64>,
    finished_ms: u64,
    container_id: String,
    signal: Option<i32>,
}

/// A container's current state.
#[derive(Clone, Debug, PartialEq, Eq)]
enum CState {
    Waiting { reason: String, message: Option<String> },
    Running { started_ms: u64 },
    Terminated(Term),
}

/// An image resolved for a container.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ResolvedImage {
    info: ImageInfo,
    /// `docker.io/library/nginx:1.29`.
    normalized: String,
    /// `docker.io/library/nginx@sha256:...`.
    image_id: String,
}

/// A stop in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Stop {
    exit_code: i32,
    at_ms: u64,
    /// Set when the stop is part of a pod sync (a failed liveness, startup or postStart
    /// hook): the sync waits for StopContainer to return and then goes on in the same pass.
    in_sync: Option<InSyncKill>,
    /// Set when the pod is being deleted or evicted (upstream's SyncTerminatingPod). Upstream
    /// reports a container by what the runtime and its readiness probe say until it has
    /// exited, so it stays ready while it stops (the EndpointSlice lists a deleted pod as
    /// serving and terminating); other stops mark it not ready.
    keeps_ready: bool,
}

/// What the sync that kills a container does once it is stopped. For a failed probe,
/// upstream's computePodActions puts the container in ContainersToKill and, unless the
/// restart policy is Never, in ContainersToStart: SyncPod kills, then starts. A failed
/// postStart hook kills inside startContainer and the sync ends there (`restart` false).
#[derive(Clone, Debug, PartialEq, Eq)]
struct InSyncKill {
    restart: bool,
    /// The newest exited instance before the kill: what doBackOff judges the restart by,
    /// since the sync's pod status was read before the kill.
    previous: Option<Term>,
}

/// One container of a pod, as the kubelet and the runtime know it.
#[derive(Clone, Debug)]
struct Ctr {
    name: String,
    init: bool,
    sidecar: bool,
    spec: Container,
    state: CState,
    last: Option<Term>,
    restarts: i32,
    /// The ID of the container being created (CreateContainer's answer).
    container_id: Option<String>,
    /// The ID of the last container that was started: what the status reports.
    current_id: Option<String>,
    image: Option<ResolvedImage>,
    /// Increases with every container started (probes and exits are keyed by it).
    instance: u32,
    process: Option<Process>,
    env: Vec<env::EnvEntry>,
    started: bool,
    probes: BTreeMap<ProbeKind, WorkerState>,
    stopping: Option<Stop>,
    /// Do not retry a failed start before this time.
    next_try: u64,
}

impl Ctr {
    fn new(spec: &Container, init: bool) -> Ctr {
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
            env: vec![],
            started: false,
            probes: BTreeMap::new(),
            stopping: None,
            next_try: 0,
        }
    }

    fn running(&self) -> bool {
        matches!(self.state, CState::Running { .. })
    }

    fn started_ms(&self) -> Option<u64> {
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
    fn ready(&self) -> bool {
        if !self.running() || !self.started || self.stopping.as_ref().is_some_and(|s| !s.keeps_ready) {
            return false;
        }
        match self.spec.readiness_probe {
            Some(_) => self.probes.get(&ProbeKind::Readiness).and_then(|w| w.published) == Some(true),
            None => true,
        }
    }

    fn field_path(&self) -> String {
        if self.init {
            format!("spec.initContainers{{{}}}", self.name)
        } else {
            format!("spec.containers{{{}}}", self.name)
        }
    }
}

/// The sandbox (pause container + network namespace).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Sandbox {
    None,
    /// RunPodSandbox in progress: the network is set up at `cni_at`, the sandbox is ready
    /// at `ready_at`.
    Creating {
        id: String,
        netns: String,
        cni_at: u64,
        ready_at: u64,
        ip: Option<u32>,
        veth: String,
    },
    Ready {
        id: String,
        netns: String,
        ip: u32,
        veth: String,
    },
    /// Creation failed; a new attempt at `retry_at`.
    Failed {
        retry_at: u64,
    },
    Stopped {
        ip: Option<u32>,
    },
}

/// A runtime operation the pod worker waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Op {
    Pull { ctr: usize, done_at: u64, pull_ms: u64, total_ms: u64, result: Result<ResolvedImage, String> },
    Create { ctr: usize, done_at: u64 },
    Start { ctr: usize, done_at: u64 },
}

impl Op {
    fn ctr(&self) -> usize {
        match self {
            Op::Pull { ctr, .. } | Op::Create { ctr, .. } | Op::Start { ctr, .. } => *ctr,
        }
    }

    fn done_at(&self) -> u64 {
        match self {
            Op::Pull { done_at, .. } | Op::Create { done_at, .. } | Op::Start { done_at, .. } => *done_at,
        }
    }
}

/// A failing volume.
#[derive(Clone, Debug, PartialEq, Eq)]
struct VolFail {
    backoff_ms: u64,
    next_at: u64,
    last: String,
}

/// A pod worker's last reference: the pod and written revision it was made from, and the
/// reference.
type KeptReference = (std::sync::Arc<Pod>, Option<u64>, Object);

/// One pod on this node.
#[derive(Clone, Debug)]
struct PodWorker {
    key: String,
    uid: String,
    /// The pod as last read from the store (shared with it).
    pod: std::sync::Arc<Pod>,
    /// The resourceVersion the kubelet's last status write returned, until the pod is read
    /// again: `pod` is the stored value, which is kept without it, and steps and events refer
    /// to the pod with it ([`PodWorker::reference`]).
    written_revision: Option<u64>,
    /// The last [`PodWorker::reference`], with the pod and written revision it was made
    /// from (the pod's handle is kept, so a new pod is never taken for it).
    reference_cache: std::cell::RefCell<Option<KeptReference>>,
    admitted: Option<bool>,
    rejected: Option<(String, String)>,
    evicted: Option<String>,
    start_ms: u64,
    qos: QosClass,
    mounts: BTreeMap<String, Mounted>,
    vol_fail: BTreeMap<String, VolFail>,
    vol_check_at: u64,
    vol_wait_since: Option<u64>,
    volumes_done: bool,
    sandbox: Sandbox,
    op: Option<Op>,
    ctrs: Vec<Ctr>,
    n_init: usize,
    /// Terminal phase, once decided.
    terminal: Option<String>,
    deleting: bool,
    deleted: bool,
    /// The last status written. Statuses are compared typed: their times are whole
    /// seconds ([`crate::apiserver::timestamp`]), so two statuses are equal exactly when
    /// what is sent is (debug builds check that a different status serialises differently).
    last_status: Option<PodStatus>,
    wakes: BTreeSet<u64>,
    probe_epoch: u64,
    /// The pod worker is inside a sync that kills container `i` (a failed probe, then
    /// usually a restart; a failed postStart hook): no status is written until it returns.
    in_sync_kill: Option<usize>,
    /// A sync pass (sandbox, pulls, creates, starts) is under way: see `sync_worker`.
    in_pass: bool,
}

impl PodWorker {
    fn new(pod: &std::sync::Arc<Pod>, now: u64) -> PodWorker {
        let ns = pod.metadata.namespace.clone().unwrap_or_else(|| "default".into());
        let name = pod.metadata.name.clone().unwrap_or_default();
        let spec = pod.spec.clone().unwrap_or_default();
        let mut ctrs: Vec<Ctr> = spec.init_containers.iter().flatten().map(|c| Ctr::new(c, true)).collect();
        let n_init = ctrs.len();
        ctrs.extend(spec.containers.iter().map(|c| Ctr::new(c, false)));
        PodWorker {
            key: format!("{ns}/{name}"),
            uid: pod.metadata.uid.clone().unwrap_or_default(),
            pod: std::sync::Arc::clone(pod),
            written_revision: None,
            reference_cache: Default::default(),
            admitted: None,
            rejected: None,
            evicted: None,
            start_ms: now,
            qos: QosClass::BestEffort,
            mounts: BTreeMap::new(),
            vol_fail: BTreeMap::new(),
            vol_check_at: 0,
            vol_wait_since: None,
            volumes_done: false,
            sandbox: Sandbox::None,
            op: None,
            ctrs,
            n_init,
            terminal: None,
            deleting: false,
            deleted: false,
            last_status: None,
            wakes: BTreeSet::new(),
            probe_epoch: now,
            in_sync_kill: None,
            in_pass: false,
        }
    }

    fn ns(&self) -> &str {
        self.pod.metadata.namespace.as_deref().unwrap_or("default")
    }

    fn name(&self) -> &str {
        self.pod.metadata.name.as_deref().unwrap_or("")
    }

    /// `format.Pod`: `name_namespace(uid)`.
    fn formatted(&self) -> String {
        format!("{}_{}({})", self.name(), self.ns(), self.uid)
    }

    fn restart_policy(&self) -> String {
        self.pod.spec.as_ref().and_then(|s| s.restart_policy.clone()).unwrap_or_else(|| "Always".into())
    }

    fn grace_seconds(&self) -> i64 {
        self.pod
            .metadata
            .deletion_grace_period_seconds
            .or_else(|| self.pod.spec.as_ref().and_then(|s| s.termination_grace_period_seconds))
            .unwrap_or(runtime::DEFAULT_GRACE_PERIOD_S)
    }

    fn pod_ip(&self) -> Option<u32> {
        match &self.sandbox {
            Sandbox::Ready { ip, .. } => Some(*ip),
            Sandbox::Stopped { ip } => *ip,
            _ => None,
        }
    }

    /// The pod as steps and events refer to it: its kind and metadata (name, namespace, UID,
    /// resourceVersion). Spec and status are left out: nothing that takes it reads them, and
    /// a full copy per step was a large share of a run's work. The reference is kept until the
    /// pod is read again or written.
    fn reference(&self) -> Object {
        if let Some((pod, rev, obj)) = &*self.reference_cache.borrow() {
            if std::sync::Arc::ptr_eq(pod, &self.pod) && *rev == self.written_revision {
                return obj.clone();
            }
        }
        let mut metadata = self.pod.metadata.clone();
        if let Some(rev) = self.written_revision {
            metadata.resource_version = Some(rev.to_string());
        }
        let obj = Object::Pod(std::sync::Arc::new(Pod { metadata, spec: None, status: None }));
        *self.reference_cache.borrow_mut() =
            Some((std::sync::Arc::clone(&self.pod), self.written_revision, obj.clone()));
        obj
    }
}

/// A routine write of the heartbeat: one that succeeds leaves no step (the API server
/// records none for it, and this drops any its callees recorded); a refused one stays.
fn quietly(core: &mut World, write: impl FnOnce(&mut World) -> bool) {
    let steps = core.steps.len();
    if core.routine(write) {
        core.steps.truncate(steps);
    }
}

/// Sets every node condition's `lastHeartbeatTime` to `now_ms` (a post of node status).
fn stamp_heartbeat(node: &mut Node, now_ms: u64) {
    let stamp = apiserver::timestamp(now_ms);
    for c in node.status.iter_mut().flat_map(|s| s.conditions.iter_mut().flatten()) {
        c.last_heartbeat_time = Some(stamp.clone());
    }
}

/// Whether a container that exited with `code` is restarted under the pod's policy.
fn should_restart(policy: &str, code: i32) -> bool {
    match policy {
        "Never" => false,
        "OnFailure" => code != 0,
        _ => true,
    }
}

/// The kubelet of one node.
#[derive(Clone, Debug)]
pub struct Kubelet {
    node: String,
    config: KubeletConfig,
    pods: BTreeMap<String, PodWorker>,
    /// What the kubelet last acted on for each pod (spec, deletion, uid).
    seen: BTreeMap<String, Fingerprint>,
    images: ImageCache,
    initialised: bool,
    ipam: Option<cni::HostLocal>,
    puller_free_at: u64,
    image_backoff: Backoff,
    crash_backoff: Backoff,
    recorder: EventRecorder,
    stopped_noted: bool,
    disk_pressure_reported: bool,
    timers_started: bool,
    /// When the kubelet last posted its node status (the lab's epoch: the node's status in the
    /// cluster file was posted then).
    last_status_report_ms: u64,
    /// The error of the last failed pull per pod and image (for the back-off message).
    last_pull_error: BTreeMap<String, String>,
    /// Pulls under way: normalised reference → when its layers are on the node.
    pulls_in_flight: BTreeMap<String, u64>,
}

impl Kubelet {
    pub fn new(node: &str, config: KubeletConfig) -> Kubelet {
        Kubelet {
            node: node.to_string(),
            config,
            pods: BTreeMap::new(),
            seen: BTreeMap::new(),
            images: ImageCache::default(),
            initialised: false,
            ipam: None,
            puller_free_at: 0,
            image_backoff: Backoff::new(images::IMAGE_BACKOFF_INITIAL_MS, images::IMAGE_BACKOFF_MAX_MS),
            crash_backoff: Backoff::new(CRASH_BACKOFF_INITIAL_MS, CRASH_BACKOFF_MAX_MS),
            recorder: EventRecorder::new(node),
            stopped_noted: false,
            disk_pressure_reported: false,
            timers_started: false,
            last_status_report_ms: 0,
            last_pull_error: BTreeMap::new(),
            pulls_in_flight: BTreeMap::new(),
        }
    }

    /// The node this kubelet runs on.
    pub fn node_name(&self) -> &str {
        &self.node
    }

    fn target(&self) -> Target {
        Target::Kubelet(self.node.clone())
    }

    /// Starts the kubelet: it lists the pods already bound to its node and arms the timers
    /// of its node faults.
    pub fn start(&mut self, core: &mut World) {
        core.after(0, Task::new(self.target(), "start"));
        self.start_timers(core);
    }

    fn start_timers(&mut self, core: &mut World) {
        if self.timers_started {
            return;
        }
        self.timers_started = true;
        // Heartbeats: the Lease is renewed every 10 s from the lab's epoch on.
        core.after(
            NODE_LEASE_RENEW_INTERVAL_MS.saturating_sub(core.now % NODE_LEASE_RENEW_INTERVAL_MS),
            Task::periodic(self.target(), "heartbeat"),
        );
        if let Some(dp) = &self.config.faults.disk_pressure {
            core.after(dp.since_ms.saturating_sub(core.now), Task::periodic(self.target(), "evict"));
        }
        if let Some(at) = self.config.faults.not_ready_at {
            core.after(at.saturating_sub(core.now), Task::periodic(self.target(), "stop"));
        }
    }

    // -----------------------------------------------------------------------------------
    // Small helpers.

    /// This kubelet's Node as stored: a handle on the store's value, copied only by the callers
    /// that change it.
    fn node_obj(&self, core: &Core) -> Option<std::sync::Arc<Node>> {
        self.node_ref(core).cloned()
    }

    /// This kubelet's Node as stored (no copy).
    fn node_ref<'c>(&self, core: &'c Core) -> Option<&'c std::sync::Arc<Node>> {
        match core.store.get(&format!("/registry/minions/{}", self.node)) {
            Some((Object::Node(n), _)) => Some(n),
            _ => None,
        }
    }

    fn node_ip(&self, core: &Core) -> String {
        self.node_ref(core)
            .and_then(|n| n.status.as_ref())
            .and_then(|s| s.addresses.as_ref())
            .and_then(|a| a.iter().find(|a| a.type_ == "InternalIP").map(|a| a.address.clone()))
            .unwrap_or_else(|| "172.18.0.2".to_string())
    }

    fn read_pod(core: &Core, key: &str) -> Option<std::sync::Arc<Pod>> {
        match core.store.get(&format!("/registry/pods/{key}")) {
            Some((Object::Pod(p), _)) => Some(std::sync::Arc::clone(p)),
            _ => None,
        }
    }

    fn wake(&self, core: &mut World, w: &mut PodWorker, at: u64, periodic: bool) {
        let at = at.max(core.now);
        if w.wakes.insert(at) {
            let key = format!("sync|{}", w.key);
            let task = if periodic { Task::periodic(self.target(), key) } else { Task::new(self.target(), key) };
            core.after(at - core.now, task);
        }
    }

    /// The next PLEG relist tick after `now`.
    fn next_relist(now: u64) -> u64 {
        (now / PLEG_RELIST_MS + 1) * PLEG_RELIST_MS
    }

    #[allow(clippy::too_many_arguments)]
    fn work(
        &self,
        core: &mut World,
        phase: Phase,
        from: Component,
        to: Component,
        obj: Option<&Object>,
        summary: String,
        topic: &str,
        facts: Vec<(String, String)>,
        tables: Vec<Table>,
        explanation: String,
        status: StepStatus,
    ) -> usize {
        core.record(
            StepBuilder::new(
                phase,
                from,
                to,
                summary,
                Detail::Work(WorkDetail { topic: topic.to_string(), facts, tables, changes: vec![], explanation }),
            )
            .node(self.node.clone())
            .object(obj.map(object_ref))
            .status(status),
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn event(
        &mut self,
        core: &mut World,
        w: &PodWorker,
        ctr: Option<usize>,
        type_: &'static str,
        reason: &str,
        message: String,
        phase: Phase,
    ) {
        let obj = w.reference();
        let field_path = ctr.map(|i| w.ctrs[i].field_path());
        self.recorder.record(core, EventSpec { involved: &obj, field_path, type_, reason, message, phase });
    }

    fn node_event(&mut self, core: &mut World, type_: &'static str, reason: &str, message: String) {
        if let Some(node) = self.node_obj(core) {
            let obj = Object::Node(node);
            self.recorder.record(
                core,
                EventSpec { involved: &obj, field_path: None, type_, reason, message, phase: Phase::Kubelet },
            );
        }
    }

    fn ensure_init(&mut self, core: &mut World) {
        if self.initialised {
            return;
        }
        self.initialised = true;
        let node = self.node_obj(core);
        for img in node.as_ref().and_then(|n| n.status.as_ref()).and_then(|s| s.images.as_ref()).into_iter().flatten() {
            let names = img.names.clone().unwrap_or_default();
            let id = names.iter().find(|n| n.contains('@')).cloned().unwrap_or_default();
            for n in names.iter().filter(|n| !n.contains('@')) {
                if let Ok(r) = images::parse_image_ref(n) {
                    let image_id = if id.is_empty() {
                        format!("{}@sha256:{}", r.repository(), images::stable_hex64(n))
                    } else {
                        id.clone()
                    };
                    self.images.images.insert(
                        r.normalized(),
                        CachedImage { size_bytes: img.size_bytes.unwrap_or(0).max(0) as u64, image_id },
                    );
                }
            }
        }
        // The sandbox image is pinned and preloaded on every node.
        if let Ok(r) = images::parse_image_ref(images::PAUSE_IMAGE) {
            if let Ok(info) = self.config.registry.resolve(&r, false) {
                let image_id = images::image_id(&r.repository(), info);
                self.images
                    .images
                    .entry(r.normalized())
                    .or_insert(CachedImage { size_bytes: info.size_bytes, image_id });
            }
        }
        let cidr = node
            .as_ref()
            .and_then(|n| n.spec.as_ref())
            .and_then(|s| s.pod_cidr.clone().or_else(|| s.pod_cidrs.as_ref().and_then(|c| c.first().cloned())))
            .and_then(|c| cni::Ipv4Net::parse(&c))
            .unwrap_or_else(|| {
                let n = 1 + images::stable_hash(11, &self.node) % 200;
                cni::Ipv4Net { addr: (10 << 24) | (244 << 16) | ((n as u32) << 8), prefix: 24 }
            });
        self.ipam = Some(cni::HostLocal::new(cidr));
    }

    /// Pressure conditions the eviction manager reports.
    fn pressure(&self, core: &Core) -> Vec<String> {
        match &self.config.faults.disk_pressure {
            Some(dp) if core.now >= dp.since_ms => vec!["DiskPressure".to_string()],
            _ => vec![],
        }
    }

    fn stopped(&mut self, core: &mut World) -> bool {
        let Some(at) = self.config.faults.not_ready_at else { return false };
        if core.now < at {
            return false;
        }
        if !self.stopped_noted {
            self.stopped_noted = true;
            let node = self.node_obj(core).map(Object::Node);
            self.work(
                core,
                Phase::Kubelet,
                Component::Kubelet,
                Component::Kubelet,
                node.as_ref(),
                format!("kubelet on {} stops: no more node status, Lease renewals, pod syncs or probes", self.node),
                "node-heartbeat",
                vec![
                    ("node".into(), self.node.clone()),
                    ("last heartbeat".into(), apiserver::timestamp(at).0.to_string()),
                    ("containers".into(), "keep running: only the kubelet is gone".into()),
                ],
                vec![],
                "The kubelet renews its Lease in kube-node-lease every 10s and posts node status. From now on it does neither, so the node-lifecycle controller will mark the node NotReady (Ready=Unknown) once the grace period passes, and taint it node.kubernetes.io/unreachable.".into(),
                StepStatus::Failed,
            );
        }
        true
    }

    // -----------------------------------------------------------------------------------
    // The pod worker.

    fn sync(&mut self, core: &mut World, key: &str) {
        self.ensure_init(core);
        let pod = Self::read_pod(core, key);
        let mut w = match self.pods.remove(key) {
            Some(w) => w,
            None => {
                let Some(pod) = &pod else { return };
                if pod.spec.as_ref().and_then(|s| s.node_name.as_deref()) != Some(self.node.as_str()) {
                    return;
                }
                let phase = pod.status.as_ref().and_then(|s| s.phase.clone()).unwrap_or_default();
                if phase == "Succeeded" || phase == "Failed" {
                    return;
                }
                let w = PodWorker::new(pod, core.now);
                let obj = w.reference();
                core.record(
                    StepBuilder::new(
                        Phase::Kubelet,
                        Component::ApiServer,
                        Component::Kubelet,
                        format!("kubelet on {} sees pod {} bound to its node", self.node, key),
                        Detail::Watch(WatchDetail {
                            watcher: format!("kubelet ({})", self.node),
                            event: "ADDED".into(),
                            key: format!("/registry/pods/{key}"),
                            revision: core.store.get(&format!("/registry/pods/{key}")).map(|(_, r)| r).unwrap_or(0),
                            reason: format!("spec.nodeName is {:?}: this kubelet runs the pod", self.node),
                        }),
                    )
                    .node(self.node.clone())
                    .object(Some(object_ref(&obj))),
                );
                w
            }
        };
        w.wakes.remove(&core.now);
        match pod {
            None => {
                self.forget(core, &mut w);
                return;
            }
            Some(p) if p.metadata.uid.as_deref().unwrap_or("") != w.uid => {
                self.forget(core, &mut w);
                core.after(0, Task::new(self.target(), format!("sync|{key}")));
                return;
            }
            Some(p) => {
                w.pod = p;
                w.written_revision = None;
            }
        }
        if !w.deleted {
            self.sync_worker(core, &mut w);
        }
        self.pods.insert(key.to_string(), w);
    }

    fn sync_worker(&mut self, core: &mut World, w: &mut PodWorker) {
        if w.admitted.is_none() {
            self.admit(core, w);
            return;
        }
        if w.admitted == Some(false) {
            return;
        }
        if w.pod.metadata.deletion_timestamp.is_some() {
            w.in_sync_kill = None;
            self.terminate(core, w);
            return;
        }
        if w.terminal.is_some() {
            return;
        }
        // A sync that kills a container blocks the pod worker until StopContainer returns
        // (and, for a failed probe, the restarted container is up).
        if w.in_sync_kill.is_some_and(|i| w.ctrs[i].stopping.is_some()) {
            return;
        }
        // SyncPod writes the status it computes when it begins, then creates the sandbox and
        // pulls, creates and starts containers before it returns: the engine's syncs that
        // carry such a pass on (`in_pass`) write nothing until it is over.
        let continuing = w.in_pass;
        if !self.volumes_ready(core, w) || !self.sandbox_ready(core, w) {
            w.in_sync_kill = None;
            w.in_pass = matches!(w.sandbox, Sandbox::Creating { .. });
            if !(continuing && w.in_pass) {
                self.update_status(core, w);
            }
            return;
        }
        let op_ctr = w.op.as_ref().map(Op::ctr);
        if self.progress_op(core, w) {
            // A pass that started an init container ends there (regular containers start
            // only in a pass that begins initialised).
            let init_started = continuing && op_ctr.is_some_and(|i| i < w.n_init);
            if !init_started {
                self.containers(core, w);
            }
            // A pass that started its containers leaves the status to the next sync; one
            // that failed (a pull, a create) writes its error at once.
            let started = op_ctr.is_some_and(|i| w.ctrs[i].running());
            if continuing && (init_started || w.op.is_none()) && w.in_sync_kill.is_none() && started {
                self.end_pass(core, w);
                return;
            }
        }
        if let Some(i) = w.in_sync_kill {
            if w.op.is_some() || w.ctrs[i].stopping.is_some() {
                return;
            }
            w.in_sync_kill = None;
            if w.ctrs[i].running() {
                self.end_pass(core, w);
                return;
            }
        }
        w.in_pass = w.op.is_some();
        if continuing && w.in_pass {
            return;
        }
        self.check_terminal(core, w);
        self.update_status(core, w);
    }

    /// A sync pass that started containers is over. The status is not written now: PLEG's
    /// next relist reports what the pass started (or what has exited since), and the sync it
    /// triggers writes it.
    fn end_pass(&mut self, core: &mut World, w: &mut PodWorker) {
        w.in_pass = false;
        let at = Self::next_relist(core.now);
        self.wake(core, w, at, false);
    }

    /// Admission, QoS class, pod cgroup and the first status.
    fn admit(&mut self, core: &mut World, w: &mut PodWorker) {
        let Some(node) = self.node_obj(core) else {
            let obj = w.reference();
            self.work(
                core,
                Phase::Kubelet,
                Component::Kubelet,
                Component::Kubelet,
                Some(&obj),
                format!("kubelet cannot admit {}: its Node object is missing", w.key),
                "node-admission",
                vec![],
                vec![],
                "The kubelet needs its Node object (allocatable resources, labels, taints) to admit pods; it retries."
                    .into(),
                StepStatus::Warning,
            );
            self.wake(core, w, core.now + POD_WORKER_BACKOFF_MS, true);
            return;
        };
        let others_ref: Vec<&Pod> = self
            .pods
            .values()
            .filter(|o| o.admitted == Some(true) && o.terminal.is_none() && o.uid != w.uid)
            .map(|o| &*o.pod)
            .collect();
        let (qos_class, qos_why) = qos::pod_qos(&w.pod);
        let conditions = self.pressure(core);
        let decision = admission::admit(&w.pod, &node, &others_ref, &conditions, qos_class);
        let obj = w.reference();
        let rows: Vec<Vec<String>> = decision
            .checks
            .iter()
            .map(|c| vec![c.handler.clone(), if c.passed { "pass".into() } else { "reject".into() }, c.detail.clone()])
            .collect();
        let table = Table {
            title: "Admit handlers".into(),
            columns: vec!["handler".into(), "verdict".into(), "detail".into()],
            rows,
        };
        if let Some((reason, message)) = decision.rejected.clone() {
            self.work(
                core,
                Phase::Kubelet,
                Component::Kubelet,
                Component::Kubelet,
                Some(&obj),
                format!("kubelet rejects pod {}: {reason}", w.key),
                "node-admission",
                vec![("reason".into(), reason.clone()), ("message".into(), message.clone())],
                vec![table],
                "The kubelet re-checks on its own node what the scheduler checked with its cache. A pod it cannot admit is not retried: it fails for good, and a controller (if any) must create a replacement.".into(),
                StepStatus::Failed,
            );
            w.admitted = Some(false);
            w.qos = qos_class;
            w.rejected = Some((reason.clone(), message.clone()));
            w.terminal = Some("Failed".into());
            self.event(core, w, None, "Warning", &reason, message, Phase::Kubelet);
            self.update_status(core, w);
            return;
        }
        self.work(
            core,
            Phase::Kubelet,
            Component::Kubelet,
            Component::Kubelet,
            Some(&obj),
            format!("kubelet admits pod {}", w.key),
            "node-admission",
            vec![("node".into(), self.node.clone())],
            vec![table],
            "Before running a pod the kubelet checks that it fits the node (resources, node affinity, host ports, NoExecute taints, node pressure).".into(),
            StepStatus::Ok,
        );
        w.admitted = Some(true);
        w.qos = qos_class;
        w.start_ms = core.now;
        w.probe_epoch = core.now;
        // QoS class.
        let mut qrows = vec![];
        for c in &w.ctrs {
            let res = c.spec.resources.as_ref();
            let fmt = |m: std::collections::BTreeMap<String, crate::quantity::Quantity>, k: &str| {
                m.get(k).map(|q| q.to_string()).unwrap_or_else(|| "-".into())
            };
            let req = qos::effective_requests(res);
            let lim = qos::limits(res);
            qrows.push(vec![
                if c.init { format!("{} (init)", c.name) } else { c.name.clone() },
                fmt(req.clone(), "cpu"),
                fmt(lim.clone(), "cpu"),
                fmt(req, "memory"),
                fmt(lim, "memory"),
            ]);
        }
        self.work(
            core,
            Phase::Kubelet,
            Component::Kubelet,
            Component::Kubelet,
            Some(&obj),
            format!("QoS class of {}: {}", w.key, qos_class.as_str()),
            "qos",
            vec![("qosClass".into(), qos_class.as_str().into()), ("why".into(), qos_why)],
            vec![Table {
                title: "Requests and limits".into(),
                columns: ["container", "cpu request", "cpu limit", "memory request", "memory limit"].iter().map(|s| s.to_string()).collect(),
                rows: qrows,
            }],
            "Only cpu and memory count. Guaranteed: every container limits both and requests equal limits. BestEffort: nothing set anywhere. Everything else is Burstable. Under memory pressure BestEffort pods are evicted first and Guaranteed ones last.".into(),
            StepStatus::Ok,
        );
        // Pod cgroup.
        let plan = cgroups::pod_cgroup(&w.pod, qos_class, cgroups::memory_capacity(Some(&node)));
        self.work(
            core,
            Phase::Kubelet,
            Component::Kubelet,
            Component::Kubelet,
            Some(&obj),
            format!("kubelet creates cgroup {}", plan.path.rsplit('/').next().unwrap_or("")),
            "cgroups",
            vec![
                ("driver".into(), "systemd, cgroup v2".into()),
                ("path".into(), format!("{}/{}", cgroups::CGROUP_ROOT, plan.path)),
                ("cpu requests (pod)".into(), format!("{}m", plan.request_milli_cpu)),
            ],
            cgroups::tables(&plan),
            "The kubelet creates the pod's cgroup under the slice of its QoS class; containerd then puts each container in a scope inside it. cpu.weight shares CPU under contention (from requests), cpu.max is a hard CFS quota (from limits), memory.max is the OOM-kill line (from limits).".into(),
            StepStatus::Ok,
        );
        self.update_status(core, w);
        w.vol_check_at = core.now + volumes::VOLUME_RECONCILE_MS + volumes::VOLUME_MOUNT_MS;
        self.wake(core, w, w.vol_check_at, false);
    }

    /// Volumes: one SetUp attempt per due volume; `true` when all are mounted.
    fn volumes_ready(&mut self, core: &mut World, w: &mut PodWorker) -> bool {
        if w.volumes_done {
            return true;
        }
        if core.now < w.vol_check_at {
            self.wake(core, w, w.vol_check_at, false);
            return false;
        }
        let vols = w.pod.spec.as_ref().and_then(|s| s.volumes.clone()).unwrap_or_default();
        let memory_limit = cgroups::pod_cgroup(&w.pod, w.qos, 0).memory_max;
        let memory_limit = (memory_limit != "max").then(|| {
            let b: u64 = memory_limit.parse().unwrap_or(0);
            crate::quantity::Quantity::from_milli(b as i128 * 1000, crate::quantity::Format::BinarySI).to_string()
        });
        let mut pending = false;
        let mut next: Option<u64> = None;
        let obj = w.reference();
        for v in vols {
            if w.mounts.contains_key(&v.name) {
                continue;
            }
            if let Some(f) = w.vol_fail.get(&v.name) {
                if core.now < f.next_at {
                    pending = true;
                    next = Some(next.map_or(f.next_at, |n: u64| n.min(f.next_at)));
                    continue;
                }
            }
            match volumes::mount(&core.store, &w.pod, &v, memory_limit.clone()) {
                volumes::MountResult::Mounted(m) => {
                    let users: Vec<Vec<String>> = w
                        .ctrs
                        .iter()
                        .flat_map(|c| {
                            c.spec.volume_mounts.iter().flatten().filter(|vm| vm.name == v.name).map(|vm| {
                                vec![
                                    c.name.clone(),
                                    vm.mount_path.clone(),
                                    if vm.read_only == Some(true) { "ro".into() } else { "rw".into() },
                                ]
                            })
                        })
                        .collect();
                    let mut facts = vec![
                        ("type".into(), m.kind.clone()),
                        ("on the node".into(), m.host_path.clone()),
                        ("backed by".into(), m.medium.clone()),
                    ];
                    if !m.files.is_empty() {
                        facts.push(("files".into(), m.files.join(", ")));
                    }
                    self.work(
                        core,
                        Phase::Kubelet,
                        Component::Kubelet,
                        Component::Kubelet,
                        Some(&obj),
                        format!("kubelet mounts volume {:?} ({})", m.name, m.kind),
                        "volume",
                        facts,
                        vec![Table {
                            title: "Mounted into".into(),
                            columns: vec!["container".into(), "path".into(), "mode".into()],
                            rows: users,
                        }],
                        m.detail.clone(),
                        StepStatus::Ok,
                    );
                    w.vol_fail.remove(&v.name);
                    w.mounts.insert(v.name.clone(), m);
                }
                volumes::MountResult::Failed(err) => {
                    let f = w.vol_fail.entry(v.name.clone()).or_insert(VolFail {
                        backoff_ms: 0,
                        next_at: 0,
                        last: String::new(),
                    });
                    f.backoff_ms = if f.backoff_ms == 0 {
                        volumes::VOLUME_BACKOFF_INITIAL_MS
                    } else {
                        (f.backoff_ms * 2).min(volumes::VOLUME_BACKOFF_MAX_MS)
                    };
                    f.next_at = core.now + f.backoff_ms;
                    f.last = err.clone();
                    let at = f.next_at;
                    pending = true;
                    next = Some(next.map_or(at, |n: u64| n.min(at)));
                    self.event(
                        core,
                        w,
                        None,
                        "Warning",
                        "FailedMount",
                        format!("MountVolume.SetUp failed for volume {:?} : {err}", v.name),
                        Phase::Kubelet,
                    );
                }
                volumes::MountResult::Waiting(msg) => {
                    let f = w.vol_fail.entry(v.name.clone()).or_insert(VolFail {
                        backoff_ms: 0,
                        next_at: 0,
                        last: String::new(),
                    });
                    let changed = f.last != msg;
                    f.last = msg.clone();
                    f.next_at = core.now + PLEG_RELIST_MS;
                    let at = f.next_at;
                    pending = true;
                    next = Some(next.map_or(at, |n: u64| n.min(at)));
                    if changed {
                        self.work(
                            core,
                            Phase::Kubelet,
                            Component::Kubelet,
                            Component::Kubelet,
                            Some(&obj),
                            format!("kubelet waits for volume {:?}: {msg}", v.name),
                            "volume",
                            vec![("volume".into(), v.name.clone()), ("waiting for".into(), msg)],
                            vec![],
                            "The volume manager cannot add this volume yet. It records no event for this; the pod stays ContainerCreating until the claim is bound.".into(),
                            StepStatus::Warning,
                        );
                    }
                }
            }
        }
        if pending {
            let since = *w.vol_wait_since.get_or_insert(core.now);
            if core.now >= since + volumes::VOLUME_WAIT_TIMEOUT_MS {
                w.vol_wait_since = Some(core.now);
                let names: Vec<String> = w.vol_fail.keys().cloned().collect();
                self.work(
                    core,
                    Phase::Kubelet,
                    Component::Kubelet,
                    Component::Kubelet,
                    Some(&obj),
                    format!("kubelet gives up this sync of {} after 2m3s waiting for volumes (log only)", w.key),
                    "volume",
                    vec![(
                        "kubelet log".into(),
                        format!(
                            "\"Error syncing pod, skipping\" err=\"unmounted volumes=[{}], unattached volumes=[], failed to process volumes=[]: context deadline exceeded\"",
                            names.join(" ")
                        ),
                    )],
                    vec![],
                    "Kubelets before v1.28 also recorded this as a FailedMount event (\"Unable to attach or mount volumes: ... timed out waiting for the condition\"); current ones only log it and keep retrying.".into(),
                    StepStatus::Warning,
                );
            }
            if let Some(at) = next {
                self.wake(core, w, at, true);
            }
            let timeout_at = w.vol_wait_since.unwrap_or(core.now) + volumes::VOLUME_WAIT_TIMEOUT_MS;
            self.wake(core, w, timeout_at, true);
            return false;
        }
        w.volumes_done = true;
        true
    }

    /// The sandbox: RunPodSandbox, CNI ADD; `true` once ready.
    fn sandbox_ready(&mut self, core: &mut World, w: &mut PodWorker) -> bool {
        let obj = w.reference();
        loop {
            match w.sandbox.clone() {
                Sandbox::Ready { .. } => return true,
                Sandbox::Stopped { .. } => return false,
                Sandbox::Failed { retry_at } if core.now < retry_at => {
                    self.wake(core, w, retry_at, true);
                    return false;
                }
                Sandbox::Failed { .. } => w.sandbox = Sandbox::None,
                Sandbox::None => {
                    let id = runtime::new_container_id(&mut core.rng);
                    let netns = format!("{}/cni-{}", runtime::NETNS_DIR, core.rng.uuid());
                    let cni_at = core.now + CNI_AT_MS;
                    let ready_at = core.now + runtime::SANDBOX_CREATE_MS;
                    let hostname =
                        w.pod.spec.as_ref().and_then(|s| s.hostname.clone()).unwrap_or_else(|| w.name().to_string());
                    let cgroup = cgroups::pod_cgroup_path(w.qos, &w.uid);
                    self.work(
                        core,
                        Phase::Runtime,
                        Component::Kubelet,
                        Component::Runtime,
                        Some(&obj),
                        format!("kubelet → containerd: RunPodSandbox for {}", w.key),
                        "sandbox",
                        vec![
                            ("CRI call".into(), "RunPodSandbox".into()),
                            ("sandbox ID".into(), id.clone()),
                            ("pause image".into(), format!("{} (already present: the runtime's pinned sandbox image)", images::PAUSE_IMAGE)),
                            ("network namespace".into(), netns.clone()),
                            ("hostname".into(), hostname),
                            ("cgroup parent".into(), format!("{}/{cgroup}", cgroups::CGROUP_ROOT)),
                            ("DNS".into(), format!("nameserver {CLUSTER_DNS}, search {}.svc.cluster.local svc.cluster.local cluster.local, options ndots:5", w.ns())),
                        ],
                        vec![],
                        "The sandbox is the pod's shared environment: a network namespace (and IPC/UTS namespaces) held open by the tiny pause process. Every container of the pod joins it, which is why they share one IP and can talk over localhost.".into(),
                        StepStatus::Ok,
                    );
                    w.sandbox = Sandbox::Creating { id, netns, cni_at, ready_at, ip: None, veth: String::new() };
                    self.wake(core, w, cni_at, false);
                    return false;
                }
                Sandbox::Creating { id, netns, cni_at, ready_at, ip: None, .. } => {
                    if core.now < cni_at {
                        self.wake(core, w, cni_at, false);
                        return false;
                    }
                    let ipam = self
                        .ipam
                        .get_or_insert_with(|| cni::HostLocal::new(cni::Ipv4Net { addr: 0x0af4_0100, prefix: 24 }));
                    match cni::add(ipam, self.config.faults.cni.as_ref(), &id, &mut core.rng) {
                        Ok(res) => {
                            let ip = cni::ip_to_string(res.ip);
                            let gw = cni::ip_to_string(res.gateway);
                            let range = ipam.range_set();
                            let in_use = ipam.allocated.len();
                            self.work(
                                core,
                                Phase::Cni,
                                Component::Runtime,
                                Component::Cni,
                                Some(&obj),
                                format!("CNI ADD ({}): {} gets {ip}", cni::CNI_PLUGIN_TYPE, w.key),
                                "cni",
                                vec![
                                    ("network".into(), format!("{} (plugin type {:?}, IPAM host-local)", cni::CNI_NETWORK_NAME, cni::CNI_PLUGIN_TYPE)),
                                    ("container ID".into(), id.clone()),
                                    ("netns".into(), netns.clone()),
                                    ("host side".into(), format!("{} ({}) with {gw}/32", res.host_veth, res.host_mac)),
                                    ("pod side".into(), format!("{} ({}) with {ip}/{}", cni::POD_INTERFACE, res.pod_mac, res.prefix)),
                                    ("routes in the pod".into(), format!("default via {gw} dev {}", cni::POD_INTERFACE)),
                                    ("route on the node".into(), format!("{ip} dev {} scope host", res.host_veth)),
                                    ("IPAM range".into(), format!("{range} ({in_use} in use, gateway {gw} never handed out)")),
                                    ("MTU".into(), cni::POD_MTU.to_string()),
                                ],
                                vec![],
                                "containerd runs the CNI plugins of /etc/cni/net.d with the sandbox's network namespace. ptp creates a veth pair, moves one end into the pod as eth0, and host-local picks the next free address of the node's podCIDR.".into(),
                                StepStatus::Ok,
                            );
                            w.sandbox = Sandbox::Creating {
                                id,
                                netns,
                                cni_at,
                                ready_at,
                                ip: Some(res.ip),
                                veth: res.host_veth,
                            };
                        }
                        Err(e) => {
                            let msg = cni::sandbox_failure_message(&id, &e);
                            self.work(
                                core,
                                Phase::Cni,
                                Component::Runtime,
                                Component::Cni,
                                Some(&obj),
                                format!("CNI ADD ({}) fails for {}", cni::CNI_PLUGIN_TYPE, w.key),
                                "cni",
                                vec![("plugin error".into(), e.clone())],
                                vec![],
                                "Without a network the sandbox cannot be created: containerd tears it down and the kubelet retries the whole sandbox later. The pod stays ContainerCreating.".into(),
                                StepStatus::Failed,
                            );
                            self.event(core, w, None, "Warning", "FailedCreatePodSandBox", msg, Phase::Cni);
                            let retry_at = core.now + POD_WORKER_BACKOFF_MS;
                            w.sandbox = Sandbox::Failed { retry_at };
                            self.wake(core, w, retry_at, true);
                            return false;
                        }
                    }
                }
                Sandbox::Creating { id, netns, ready_at, ip: Some(ip), veth, .. } => {
                    if core.now < ready_at {
                        self.wake(core, w, ready_at, false);
                        return false;
                    }
                    self.work(
                        core,
                        Phase::Runtime,
                        Component::Runtime,
                        Component::Kubelet,
                        Some(&obj),
                        format!("sandbox of {} is ready ({})", w.key, cni::ip_to_string(ip)),
                        "sandbox",
                        vec![
                            ("sandbox ID".into(), id.clone()),
                            ("pause container".into(), "running".into()),
                            ("pod IP".into(), cni::ip_to_string(ip)),
                        ],
                        vec![],
                        "The pod's network is up, so the kubelet sets PodReadyToStartContainers=True and moves on to the containers.".into(),
                        StepStatus::Ok,
                    );
                    w.sandbox = Sandbox::Ready { id, netns, ip, veth };
                    return true;
                }
            }
        }
    }

    /// Completes a finished runtime operation; `false` while one is still in flight.
    fn progress_op(&mut self, core: &mut World, w: &mut PodWorker) -> bool {
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
    fn containers(&mut self, core: &mut World, w: &mut PodWorker) {
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

    /// The image manager: pull policy, cache, back-off, pull.
    fn ensure_image(&mut self, core: &mut World, w: &mut PodWorker, i: usize) {
        let image = w.ctrs[i].spec.image.clone().unwrap_or_default();
        let r = match images::parse_image_ref(&image) {
            Ok(r) => r,
            Err(e) => {
                self.event(
                    core,
                    w,
                    Some(i),
                    "Warning",
                    "InspectFailed",
                    format!("Failed to apply default image tag {image:?}: {e}"),
                    Phase::Runtime,
                );
                self.event(core, w, Some(i), "Warning", "Failed", "Error: InvalidImageName".into(), Phase::Runtime);
                let c = &mut w.ctrs[i];
                c.state = CState::Waiting {
                    reason: "InvalidImageName".into(),
                    message: Some(format!("Failed to apply default image tag {image:?}: {e}")),
                };
                c.next_try = core.now + POD_WORKER_BACKOFF_MS;
                let at = c.next_try;
                self.wake(core, w, at, true);
                return;
            }
        };
        let policy = w.ctrs[i].spec.image_pull_policy.clone().unwrap_or_else(|| {
            if r.digest.is_none() && r.tag_or_default() == images::DEFAULT_TAG {
                "Always".into()
            } else {
                "IfNotPresent".into()
            }
        });
        let cached = self.images.get(&r).cloned();
        if policy != "Always" {
            if let Some(cached) = cached.clone() {
                self.event(
                    core,
                    w,
                    Some(i),
                    "Normal",
                    "Pulled",
                    format!("Container image {image:?} already present on machine and can be accessed by the pod"),
                    Phase::Runtime,
                );
                w.ctrs[i].image = Some(self.resolved_from_cache(&r, &cached));
                self.begin_create(core, w, i);
                return;
            }
            if policy == "Never" {
                let msg = format!("Container image {image:?} is not present with pull policy of Never");
                self.event(core, w, Some(i), "Warning", "ErrImageNeverPull", msg.clone(), Phase::Runtime);
                self.event(core, w, Some(i), "Warning", "Failed", "Error: ErrImageNeverPull".into(), Phase::Runtime);
                let c = &mut w.ctrs[i];
                c.state = CState::Waiting { reason: "ErrImageNeverPull".into(), message: Some(msg) };
                c.next_try = core.now + POD_WORKER_BACKOFF_MS;
                let at = c.next_try;
                self.wake(core, w, at, true);
                return;
            }
        }
        let bkey = format!("{}_{image}", w.uid);
        if self.image_backoff.in_backoff_since_update(&bkey, core.now) {
            self.event(
                core,
                w,
                Some(i),
                "Normal",
                "BackOff",
                format!("Back-off pulling image {image:?}"),
                Phase::Runtime,
            );
            self.event(core, w, Some(i), "Warning", "Failed", "Error: ImagePullBackOff".into(), Phase::Runtime);
            let prev = self.last_pull_error.get(&bkey).cloned().unwrap_or_default();
            let at = self.image_backoff.expires_at_since_update(&bkey);
            let c = &mut w.ctrs[i];
            c.state = CState::Waiting {
                reason: "ImagePullBackOff".into(),
                message: Some(format!("Back-off pulling image {image:?}: ErrImagePull: {prev}")),
            };
            c.next_try = at;
            self.wake(core, w, at, true);
            return;
        }
        self.event(core, w, Some(i), "Normal", "Pulling", format!("Pulling image {image:?}"), Phase::Runtime);
        let resolved = self.config.registry.resolve(&r, self.config.faults.registry_down).cloned();
        let layers_coming = self.pulls_in_flight.get(&r.normalized()).copied().filter(|t| *t > core.now);
        let (pull_ms, result) = match resolved {
            Ok(info) => {
                // Layers already on the node (or being fetched by another pull) are not
                // downloaded again: the pull only resolves the tag and checks them.
                let ms = if cached.is_some() || layers_coming.is_some() {
                    images::PULL_RESOLVE_MS + images::PULL_PRESENT_CHECK_MS
                } else {
                    images::pull_duration_ms(info.size_bytes)
                };
                let image_id = images::image_id(&r.repository(), &info);
                (ms, Ok(ResolvedImage { normalized: r.normalized(), image_id, info }))
            }
            Err(e) => {
                let ms = match e {
                    images::PullError::Unreachable(_) => images::PULL_DIAL_FAIL_MS,
                    _ => images::PULL_FAIL_MS,
                };
                (ms, Err(e.message().to_string()))
            }
        };
        let begin = if self.config.serialize_image_pulls { self.puller_free_at.max(core.now) } else { core.now };
        let mut done_at = begin + pull_ms;
        if let (Some(t), Ok(_)) = (layers_coming, &result) {
            done_at = done_at.max(t);
        }
        if result.is_ok() && cached.is_none() {
            self.pulls_in_flight.insert(r.normalized(), done_at);
        }
        if self.config.serialize_image_pulls {
            self.puller_free_at = done_at;
        }
        let waited = begin - core.now;
        let obj = w.reference();
        let mut facts = vec![
            ("image".into(), image.clone()),
            ("reference".into(), r.normalized()),
            ("imagePullPolicy".into(), policy.clone()),
        ];
        match &result {
            Ok(img) => {
                facts.push(("size".into(), format!("{} bytes", img.info.size_bytes)));
                facts.push((
                    "time".into(),
                    format!(
                        "{} at {} MiB/s plus {} ms to resolve",
                        go_duration(pull_ms),
                        images::PULL_BANDWIDTH_BYTES_PER_SEC / (1024 * 1024),
                        images::PULL_RESOLVE_MS
                    ),
                ));
            }
            Err(e) => facts.push(("registry answer".into(), e.clone())),
        }
        if waited > 0 {
            facts.push((
                "queued behind".into(),
                format!("{} of other pulls (serializeImagePulls: true)", go_duration(waited)),
            ));
        }
        let (summary, status) = match &result {
            Ok(img) => (
                format!(
                    "containerd pulls {image:?} ({:.1} MB, {})",
                    img.info.size_bytes as f64 / 1e6,
                    go_duration(pull_ms)
                ),
                StepStatus::Ok,
            ),
            Err(_) => (format!("containerd cannot pull {image:?}"), StepStatus::Failed),
        };
        self.work(
            core,
            Phase::Runtime,
            Component::Kubelet,
            Component::Runtime,
            Some(&obj),
            summary,
            "image-pull",
            facts,
            vec![],
            match policy.as_str() {
                "Always" => "imagePullPolicy Always (the default for :latest or no tag): the runtime asks the registry every time; unchanged layers are not downloaded again.".into(),
                _ => "imagePullPolicy IfNotPresent: the image is not on the node yet, so the runtime resolves the tag and downloads the layers.".into(),
            },
            status,
        );
        w.op = Some(Op::Pull { ctr: i, done_at, pull_ms, total_ms: done_at - core.now, result });
        self.wake(core, w, done_at, false);
    }

    fn resolved_from_cache(&self, r: &ImageRef, cached: &CachedImage) -> ResolvedImage {
        let info = self.config.registry.resolve(r, false).cloned().unwrap_or(ImageInfo {
            size_bytes: cached.size_bytes,
            digest: cached.image_id.rsplit('@').next().unwrap_or("").to_string(),
            entrypoint: vec![],
            cmd: vec!["/app".into()],
            userland: images::Userland::Scratch,
            kind: images::ImageKind::Daemon,
            extra_binaries: vec!["/app".into()],
        });
        ResolvedImage { normalized: r.normalized(), image_id: cached.image_id.clone(), info }
    }

    /// Resolves the environment and asks the runtime to create the container.
    fn begin_create(&mut self, core: &mut World, w: &mut PodWorker, i: usize) {
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

    /// Stops container `i`: `message` is the Killing event's text.
    fn kill(&mut self, core: &mut World, w: &mut PodWorker, i: usize, message: String, grace_s: i64) {
        self.stop_container(core, w, i, message, grace_s, None);
    }

    /// A kill of a pod being deleted or evicted: the container keeps its readiness until it
    /// has exited.
    fn kill_terminating(&mut self, core: &mut World, w: &mut PodWorker, i: usize, message: String, grace_s: i64) {
        self.kill(core, w, i, message, grace_s);
        if let Some(stop) = w.ctrs[i].stopping.as_mut() {
            stop.keeps_ready = true;
        }
    }

    /// StopContainer: SIGTERM, then SIGKILL when the grace period ends. With `in_sync`, the
    /// stop belongs to a pod sync that waits for it (a failed probe or postStart hook).
    fn stop_container(
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
    fn on_exit(&mut self, core: &mut World, key: &str, name: &str, instance: u32) {
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

    /// A probe tick.
    fn on_probe(&mut self, core: &mut World, key: &str, name: &str, kind: ProbeKind, instance: u32, task: &Task) {
        let Some(mut w) = self.pods.remove(key) else { return };
        self.probe(core, &mut w, name, kind, instance, task);
        self.pods.insert(key.to_string(), w);
    }

    fn probe(&mut self, core: &mut World, w: &mut PodWorker, name: &str, kind: ProbeKind, instance: u32, task: &Task) {
        let Some(i) = w.ctrs.iter().position(|c| c.name == name) else { return };
        if w.ctrs[i].instance != instance || !w.ctrs[i].running() || w.terminal.is_some() || w.deleting {
            return;
        }
        let spec = w.ctrs[i].spec.clone();
        let Some(probe) = kind.of(&spec).cloned() else { return };
        let t = probes::timing(&probe);
        if kind == ProbeKind::Startup && w.ctrs[i].started {
            return;
        }
        // The worker's ticker keeps its phase (counted from the pod's first sync), even
        // after a manual trigger.
        let period = t.period_s as u64 * 1000;
        let next = w.probe_epoch + ((core.now + 1).saturating_sub(w.probe_epoch)).div_ceil(period) * period;
        core.after(next - core.now, task.clone());
        if w.ctrs[i].stopping.is_some() || w.ctrs[i].probes.get(&kind).is_some_and(|s| s.on_hold) {
            return;
        }
        if kind != ProbeKind::Startup && spec.startup_probe.is_some() && !w.ctrs[i].started {
            return;
        }
        let started_ms = w.ctrs[i].started_ms().unwrap_or(core.now);
        if core.now < started_ms + t.initial_delay_s as u64 * 1000 {
            return;
        }
        let (Some(process), Some(img)) = (w.ctrs[i].process.clone(), w.ctrs[i].image.clone()) else { return };
        let pod_ip = w.pod_ip().map(cni::ip_to_string).unwrap_or_default();
        let static_files = volumes::container_files(&w.mounts, &spec);
        let outcome = probes::run(&probe, &spec, &img.info, &process, &pod_ip, core.now - started_ms, &static_files);
        if !outcome.success {
            self.event(
                core,
                w,
                Some(i),
                "Warning",
                "Unhealthy",
                format!("{} probe failed: {}", kind.title(), outcome.output),
                Phase::Status,
            );
        }
        let state = w.ctrs[i].probes.entry(kind).or_default();
        let run_before = state.run;
        let changed = state.observe(outcome.success, &t);
        let run = if state.last == Some(outcome.success) { state.run } else { run_before };
        let Some(result) = changed else { return };
        let obj = w.reference();
        self.work(
            core,
            Phase::Status,
            Component::Kubelet,
            Component::Kubelet,
            Some(&obj),
            format!("{} probe of {name:?} {}", kind.word(), if result { "succeeds" } else { "fails" }),
            "probe",
            vec![
                ("probe".into(), probes::describe(&probe)),
                ("result".into(), if result { "Success".into() } else { format!("Failure: {}", outcome.output) }),
                ("consecutive".into(), format!("{run} (threshold {})", if result { t.success_threshold } else { t.failure_threshold })),
            ],
            vec![],
            match (kind, result) {
                (ProbeKind::Readiness, true) => "The container is ready: once all are, the pod is Ready and Services send it traffic.".into(),
                (ProbeKind::Readiness, false) => "The container is not ready: the pod is taken out of Service endpoints, but it is not restarted.".into(),
                (ProbeKind::Liveness, _) => "The liveness probe failed failureThreshold times in a row: the kubelet kills the container and the restart policy starts it again.".into(),
                (ProbeKind::Startup, true) => "The startup probe succeeded: liveness and readiness probes start now.".into(),
                (ProbeKind::Startup, false) => "The container did not start in time: the kubelet kills it and restarts it.".into(),
            },
            if result { StepStatus::Ok } else { StepStatus::Failed },
        );
        match (kind, result) {
            (ProbeKind::Startup, true) => {
                w.ctrs[i].started = true;
                // Liveness and readiness workers begin at their next ticks.
            }
            (ProbeKind::Liveness, false) | (ProbeKind::Startup, false) => {
                if let Some(s) = w.ctrs[i].probes.get_mut(&kind) {
                    s.on_hold = true;
                    s.run = 0;
                }
                let grace = probe.termination_grace_period_seconds.unwrap_or_else(|| w.grace_seconds());
                // computePodActions: the container is restarted unless the pod's restart
                // policy is Never (shouldRestartOnFailure), and the message says so.
                let restart = w.restart_policy() != "Never";
                let mut message = format!("Container {name} failed {} probe", kind.word());
                if restart {
                    message.push_str(", will be restarted");
                }
                let previous = w.ctrs[i].last.clone();
                self.stop_container(core, w, i, message, grace, Some(InSyncKill { restart, previous }));
            }
            _ => {}
        }
        self.wake(core, w, core.now, false);
    }

    /// Ends the pod when nothing will run again.
    fn check_terminal(&mut self, core: &mut World, w: &mut PodWorker) {
        if w.terminal.is_some() || w.op.is_some() {
            return;
        }
        let policy = w.restart_policy();
        let init_failed = w.ctrs[..w.n_init]
            .iter()
            .any(|c| !c.sidecar && matches!(&c.state, CState::Terminated(t) if t.exit_code != 0) && policy == "Never");
        let apps_done = w.ctrs[w.n_init..]
            .iter()
            .all(|c| matches!(&c.state, CState::Terminated(t) if !should_restart(&policy, t.exit_code)));
        if !(init_failed || (apps_done && w.ctrs.len() > w.n_init)) {
            return;
        }
        // Sidecars are stopped once the app containers are done.
        let mut waiting = false;
        for i in 0..w.n_init {
            if w.ctrs[i].sidecar && w.ctrs[i].running() {
                waiting = true;
                let name = w.ctrs[i].name.clone();
                self.kill(core, w, i, format!("Stopping container {name}"), w.grace_seconds());
            }
        }
        if waiting {
            return;
        }
        let phase = status::phase(w);
        if phase != "Succeeded" && phase != "Failed" {
            return;
        }
        w.terminal = Some(phase.clone());
        let obj = w.reference();
        self.work(
            core,
            Phase::Containers,
            Component::Kubelet,
            Component::Kubelet,
            Some(&obj),
            format!("pod {} is finished: {phase}", w.key),
            "container",
            vec![("phase".into(), phase.clone()), ("restartPolicy".into(), policy)],
            vec![],
            "No container will run again, so the pod is in a terminal phase: the kubelet removes the sandbox and releases the pod's IP. The Pod object stays (kubectl shows Completed or Error) until someone deletes it.".into(),
            if phase == "Succeeded" { StepStatus::Ok } else { StepStatus::Failed },
        );
        self.stop_sandbox(core, w);
    }

    fn stop_sandbox(&mut self, core: &mut World, w: &mut PodWorker) {
        let Sandbox::Ready { id, netns, ip, veth } = w.sandbox.clone() else {
            if !matches!(w.sandbox, Sandbox::Stopped { .. }) {
                w.sandbox = Sandbox::Stopped { ip: None };
            }
            return;
        };
        let obj = w.reference();
        if let Some(ipam) = self.ipam.as_mut() {
            ipam.release(&id);
        }
        self.work(
            core,
            Phase::Cni,
            Component::Runtime,
            Component::Cni,
            Some(&obj),
            format!("CNI DEL: {} releases {}", w.key, cni::ip_to_string(ip)),
            "cni",
            vec![("netns".into(), netns), ("veth removed".into(), veth), ("address released".into(), cni::ip_to_string(ip))],
            vec![],
            "StopPodSandbox tears the network down: the veth pair goes and host-local frees the address (it is handed out again only after the rest of the range).".into(),
            StepStatus::Ok,
        );
        w.sandbox = Sandbox::Stopped { ip: Some(ip) };
    }

    /// Graceful deletion (upstream's SyncTerminatingPod, then the status manager's delete):
    /// write the status as it is now, stop every container and wait for all of them (the pod
    /// worker is blocked in killPod, so nothing is written meanwhile), remove the sandbox,
    /// write the terminal status, then delete the object.
    fn terminate(&mut self, core: &mut World, w: &mut PodWorker) {
        if !w.deleting {
            w.deleting = true;
            w.op = None;
            let obj = w.reference();
            core.record(
                StepBuilder::new(
                    Phase::Kubelet,
                    Component::ApiServer,
                    Component::Kubelet,
                    format!("kubelet sees pod {} marked for deletion (grace {}s)", w.key, w.grace_seconds()),
                    Detail::Watch(WatchDetail {
                        watcher: format!("kubelet ({})", self.node),
                        event: "MODIFIED".into(),
                        key: format!("/registry/pods/{}", w.key),
                        revision: core.store.revision(),
                        reason: "metadata.deletionTimestamp is set: the kubelet stops the pod's containers".into(),
                    }),
                )
                .node(self.node.clone())
                .object(Some(object_ref(&obj))),
            );
            // Usually unchanged (and then not written): the containers still run and keep
            // their readiness until they exit.
            self.update_status(core, w);
            let grace = w.grace_seconds();
            for i in (0..w.ctrs.len()).rev() {
                if w.ctrs[i].running() {
                    let name = w.ctrs[i].name.clone();
                    self.kill_terminating(core, w, i, format!("Stopping container {name}"), grace);
                }
            }
        }
        if w.ctrs.iter().any(|c| c.running()) {
            return;
        }
        self.stop_sandbox(core, w);
        if w.terminal.is_none() {
            let all_ok =
                w.ctrs[w.n_init..].iter().all(|c| matches!(&c.state, CState::Terminated(t) if t.exit_code == 0));
            w.terminal = Some(if all_ok { "Succeeded".into() } else { "Failed".into() });
        }
        self.update_status(core, w);
        let obj = w.reference();
        let Some(resource) = resource_for("v1", "Pod") else { return };
        self.work(
            core,
            Phase::Status,
            Component::Kubelet,
            Component::ApiServer,
            Some(&obj),
            format!("kubelet deletes pod {} (grace period 0): its containers are gone", w.key),
            "status",
            vec![],
            vec![],
            "Graceful deletion ends with the kubelet: once the containers have stopped it deletes the object for good, with the pod's UID as a precondition.".into(),
            StepStatus::Ok,
        );
        apiserver::handle(
            core,
            ApiRequest {
                caller: Caller::kubelet(&self.node),
                verb: Verb::Delete,
                resource,
                namespace: Some(w.ns().to_string()),
                name: Some(w.name().to_string()),
                subresource: None,
                body: Some(Body::Json(
                    serde_json::json!({"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 0, "preconditions": {"uid": w.uid}}),
                )),
                verbose: false,
                file: None,
            },
        );
        w.deleted = true;
    }

    /// The pod vanished from the API (deleted without a grace period): kill what still runs
    /// and remove the sandbox.
    fn forget(&mut self, core: &mut World, w: &mut PodWorker) {
        if w.deleted || w.admitted != Some(true) {
            if let Sandbox::Ready { id, .. } = &w.sandbox {
                if let Some(ipam) = self.ipam.as_mut() {
                    ipam.release(id);
                }
            }
            return;
        }
        let obj = w.reference();
        self.work(
            core,
            Phase::Kubelet,
            Component::ApiServer,
            Component::Kubelet,
            Some(&obj),
            format!("kubelet sees pod {} deleted: it removes what is left on the node", w.key),
            "container",
            vec![],
            vec![],
            "The pod object is gone without a graceful deletion (grace period 0): the kubelet kills the containers at once, removes the sandbox and releases the IP.".into(),
            StepStatus::Ok,
        );
        for i in (0..w.ctrs.len()).rev() {
            if w.ctrs[i].running() {
                let name = w.ctrs[i].name.clone();
                self.event(
                    core,
                    w,
                    Some(i),
                    "Normal",
                    "Killing",
                    format!("Stopping container {name}"),
                    Phase::Containers,
                );
                w.ctrs[i].state = CState::Terminated(Term {
                    exit_code: runtime::EXIT_SIGKILL,
                    reason: "Error".into(),
                    message: None,
                    started_ms: w.ctrs[i].started_ms(),
                    finished_ms: core.now,
                    container_id: w.ctrs[i].current_id.clone().unwrap_or_default(),
                    signal: None,
                });
            }
        }
        self.stop_sandbox(core, w);
    }

    /// Writes the pod status through the API server when it changed.
    fn update_status(&mut self, core: &mut World, w: &mut PodWorker) {
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

    /// Writes `node.status.images` after a pull (and once DiskPressure starts).
    fn update_node_images(&mut self, core: &mut World) {
        let Some(node) = self.node_obj(core) else { return };
        let mut node = std::sync::Arc::unwrap_or_clone(node);
        let list: Vec<k8s_openapi::api::core::v1::ContainerImage> = self
            .images
            .node_status_images()
            .into_iter()
            .map(|(names, size)| k8s_openapi::api::core::v1::ContainerImage {
                names: Some(names),
                size_bytes: Some(size as i64),
            })
            .collect();
        let status = node.status.get_or_insert_with(Default::default);
        status.images = Some(list);
        self.write_node_status(core, node, "kubelet reports the node's images (node.status.images)".into());
    }

    fn write_node_status(&mut self, core: &mut World, mut node: Node, summary: String) {
        let Some(resource) = resource_for("v1", "Node") else { return };
        // Every post of node status is a heartbeat: each condition's lastHeartbeatTime is now.
        stamp_heartbeat(&mut node, core.now);
        self.last_status_report_ms = core.now;
        let obj = Object::Node(std::sync::Arc::new(node.clone()));
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
                    changes: vec![],
                    explanation: "The kubelet keeps its Node's status current: images on the node (used by the scheduler's ImageLocality score) and conditions.".into(),
                }),
            )
            .node(self.node.clone())
            .object(Some(object_ref(&obj))),
        );
        apiserver::handle(
            core,
            ApiRequest {
                caller: Caller::kubelet(&self.node),
                verb: Verb::Update,
                resource,
                namespace: None,
                name: Some(self.node.clone()),
                subresource: Some("status".into()),
                body: Some(Body::Object(obj)),
                verbose: false,
                file: None,
            },
        );
    }

    // -----------------------------------------------------------------------------------
    // Heartbeats.

    /// The kubelet's two heartbeats, every 10 s: it renews its Lease `kube-node-lease/<node>`
    /// (creating it first if it is missing, owned by the Node), and it posts its node status
    /// when `nodeStatusReportFrequency` (5 min) has passed since the last post (changes are
    /// posted when they happen). Both are routine writes ([`Core::routine`]): stored and
    /// watched like any other, they keep no run from settling, and a write that succeeds is
    /// not a step of the trace (a run would otherwise show one every 10 s per node); a
    /// refused one is.
    fn heartbeat(&mut self, core: &mut World) {
        quietly(core, |core| self.renew_lease(core));
        if core.now >= self.last_status_report_ms + NODE_STATUS_REPORT_FREQUENCY_MS {
            if let Some(node) = self.node_obj(core) {
                let mut node = std::sync::Arc::unwrap_or_clone(node);
                stamp_heartbeat(&mut node, core.now);
                self.last_status_report_ms = core.now;
                if let Some(req) = self.node_status_request(&node) {
                    quietly(core, |core| apiserver::handle(core, req).ok());
                }
            }
        }
    }

    fn renew_lease(&self, core: &mut World) -> bool {
        let Some(resource) = resource_for("coordination.k8s.io/v1", "Lease") else { return false };
        let key = resource.etcd_key(Some(NODE_LEASE_NAMESPACE), &self.node);
        let renew = crate::controllers::util::micro_time(core.now);
        let (verb, name, body) = match core.store.get(&key) {
            Some((lease, _)) => {
                // A Lease has no typed variant: its spec is JSON already, changed in place.
                let Object::Other(mut u) = lease.clone() else { return false };
                let spec = std::sync::Arc::make_mut(&mut u).rest.entry("spec").or_insert_with(|| serde_json::json!({}));
                spec["renewTime"] = serde_json::json!(renew);
                (Verb::Update, Some(self.node.clone()), Body::Object(Object::Other(u)))
            }
            None => {
                let Some(node) = self.node_obj(core) else { return false };
                let v = serde_json::json!({
                    "apiVersion": "coordination.k8s.io/v1",
                    "kind": "Lease",
                    "metadata": {
                        "name": self.node,
                        "namespace": NODE_LEASE_NAMESPACE,
                        "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": self.node,
                            "uid": node.metadata.uid.clone().unwrap_or_default()}],
                    },
                    "spec": {"holderIdentity": self.node, "leaseDurationSeconds": NODE_LEASE_DURATION_S, "renewTime": renew},
                });
                // Sent as an object, as client-go sends a typed Lease.
                let Ok(lease) = Object::from_json("coordination.k8s.io/v1", "Lease", v) else { return false };
                (Verb::Create, None, Body::Object(lease))
            }
        };
        let req = ApiRequest {
            caller: Caller::kubelet(&self.node),
            verb,
            resource,
            namespace: Some(NODE_LEASE_NAMESPACE.into()),
            name,
            subresource: None,
            body: Some(body),
            verbose: false,
            file: None,
        };
        apiserver::handle(core, req).ok()
    }

    fn node_status_request(&self, node: &Node) -> Option<ApiRequest> {
        Some(ApiRequest {
            caller: Caller::kubelet(&self.node),
            verb: Verb::Update,
            resource: resource_for("v1", "Node")?,
            namespace: None,
            name: Some(self.node.clone()),
            subresource: Some("status".into()),
            body: Some(Body::Object(Object::Node(std::sync::Arc::new(node.clone())))),
            verbose: false,
            file: None,
        })
    }

    // -----------------------------------------------------------------------------------
    // The eviction manager.

    fn eviction(&mut self, core: &mut World) {
        self.ensure_init(core);
        let Some(dp) = self.config.faults.disk_pressure.clone() else { return };
        if core.now < dp.since_ms {
            core.after(dp.since_ms - core.now, Task::periodic(self.target(), "evict"));
            return;
        }
        let node = self.node_obj(core);
        let cap = node
            .as_ref()
            .and_then(|n| n.status.as_ref())
            .and_then(|s| s.capacity.as_ref())
            .and_then(|c| c.get("ephemeral-storage"))
            .and_then(|q| crate::quantity::Quantity::parse(&q.0).ok())
            .map(|q| q.value().max(0) as u64)
            .unwrap_or(DEFAULT_NODE_EPHEMERAL_BYTES);
        let threshold = cap / 100 * NODEFS_EVICTION_PERCENT;
        let available_ki = cap / 100 * dp.available_percent / 1024;
        if !self.disk_pressure_reported {
            self.disk_pressure_reported = true;
            if let Some(mut n) = node.as_deref().cloned() {
                let st = n.status.get_or_insert_with(Default::default);
                let conds = st.conditions.get_or_insert_with(Vec::new);
                let ts = apiserver::timestamp(core.now);
                let cond = k8s_openapi::api::core::v1::NodeCondition {
                    type_: "DiskPressure".into(),
                    status: "True".into(),
                    reason: Some("KubeletHasDiskPressure".into()),
                    message: Some("kubelet has disk pressure".into()),
                    last_heartbeat_time: Some(ts.clone()),
                    last_transition_time: Some(ts),
                };
                match conds.iter_mut().find(|c| c.type_ == "DiskPressure") {
                    Some(c) => *c = cond,
                    None => conds.push(cond),
                }
                self.write_node_status(core, n, format!("kubelet reports DiskPressure=True on {}", self.node));
            }
            let node_name = self.node.clone();
            self.node_event(
                core,
                "Normal",
                "NodeHasDiskPressure",
                format!("Node {node_name} status is now: NodeHasDiskPressure"),
            );
            self.node_event(core, "Warning", "EvictionThresholdMet", "Attempting to reclaim ephemeral-storage".into());
        }
        // One pod per monitoring interval: BestEffort pods first (they use more than their
        // zero request), lowest priority first.
        let mut candidates: Vec<(i32, String)> = self
            .pods
            .values()
            .filter(|w| {
                w.admitted == Some(true)
                    && w.terminal.is_none()
                    && w.evicted.is_none()
                    && !w.deleting
                    && w.qos == QosClass::BestEffort
            })
            .map(|w| (w.pod.spec.as_ref().and_then(|s| s.priority).unwrap_or(0), w.key.clone()))
            .collect();
        crate::sort::sort(&mut candidates);
        if let Some((_, key)) = candidates.first().cloned() {
            if let Some(mut w) = self.pods.remove(&key) {
                let mut msg = format!(
                    "The node was low on resource: ephemeral-storage. Threshold quantity: {threshold}, available: {available_ki}Ki. "
                );
                for c in w.ctrs[w.n_init..].iter().filter(|c| c.running()) {
                    let used = if c.process.as_ref().is_some_and(|p| !p.listeners.is_empty()) { 24 } else { 8 };
                    msg.push_str(&format!(
                        "Container {} was using {used}Ki, request is 0, has larger consumption of ephemeral-storage. ",
                        c.name
                    ));
                }
                self.event(core, &w, None, "Warning", "Evicted", msg.clone(), Phase::Kubelet);
                w.evicted = Some(msg);
                for i in (0..w.ctrs.len()).rev() {
                    if w.ctrs[i].running() {
                        let name = w.ctrs[i].name.clone();
                        self.kill_terminating(core, &mut w, i, format!("Stopping container {name}"), EVICTION_GRACE_S);
                    }
                }
                w.terminal = Some("Failed".into());
                self.update_status(core, &mut w);
                self.pods.insert(key.clone(), w);
            }
        }
        core.after(EVICTION_MONITORING_MS, Task::periodic(self.target(), "evict"));
    }

    /// After an evicted pod's containers stopped: remove its sandbox.
    fn finish_evicted(&mut self, core: &mut World, w: &mut PodWorker) {
        if w.evicted.is_some() && !w.ctrs.iter().any(|c| c.running()) {
            self.stop_sandbox(core, w);
            self.update_status(core, w);
        }
    }
}

/// What the kubelet last acted on for a pod: the pod as the watch delivered it, a handle on
/// the store's value (its UID, deletion and spec are compared as values: no JSON text of the
/// spec is built, so `PodSpec`'s `Serialize` has no instance for a writer).
#[derive(Clone, Debug, PartialEq)]
struct Fingerprint(std::sync::Arc<Pod>);

impl Fingerprint {
    /// Whether `p` has the UID, deletion and spec this fingerprint was taken of.
    fn matches(&self, p: &Pod) -> bool {
        let seen = &self.0;
        std::ptr::eq(&**seen, p)
            || (p.metadata.uid.as_deref().unwrap_or_default() == seen.metadata.uid.as_deref().unwrap_or_default()
                && p.metadata.deletion_timestamp == seen.metadata.deletion_timestamp
                && p.spec == seen.spec)
    }
}

fn fingerprint(p: &std::sync::Arc<Pod>) -> Fingerprint {
    Fingerprint(std::sync::Arc::clone(p))
}

impl Actor<World> for Kubelet {
    fn handles(&self, target: &Target) -> bool {
        matches!(target, Target::Kubelet(n) if *n == self.node)
    }

    fn observe(&mut self, core: &mut World, event: &WatchEvent<Object>) {
        let Object::Pod(p) = &*event.object else { return };
        let bound = p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(self.node.as_str());
        if !bound && self.pods.is_empty() {
            return;
        }
        let ns = p.metadata.namespace.as_deref().unwrap_or("default");
        let key = format!("{ns}/{}", p.metadata.name.as_deref().unwrap_or(""));
        if !bound && !self.pods.contains_key(&key) {
            return;
        }
        self.start_timers(core);
        if event.kind == EventType::Deleted {
            self.seen.remove(&key);
            core.after(WATCH_LATENCY_MS, Task::new(self.target(), format!("sync|{key}")));
            return;
        }
        if self.seen.get(&key).is_some_and(|fp| fp.matches(p)) {
            return;
        }
        self.seen.insert(key.clone(), fingerprint(p));
        core.after(WATCH_LATENCY_MS, Task::new(self.target(), format!("sync|{key}")));
    }

    fn run(&mut self, core: &mut World, task: &Task) {
        if self.stopped(core) {
            return;
        }
        let parts: Vec<&str> = task.key.split('|').collect();
        match parts.as_slice() {
            ["start"] => {
                self.ensure_init(core);
                let keys: Vec<String> = core
                    .store
                    .list("/registry/pods/")
                    .into_iter()
                    .filter_map(|(_, o, _)| match o {
                        Object::Pod(p)
                            if p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(self.node.as_str()) =>
                        {
                            Some(format!(
                                "{}/{}",
                                p.metadata.namespace.as_deref().unwrap_or("default"),
                                p.metadata.name.as_deref().unwrap_or("")
                            ))
                        }
                        _ => None,
                    })
                    .collect();
                for k in keys {
                    if let Some((Object::Pod(p), _)) = core.store.get(&format!("/registry/pods/{k}")) {
                        self.seen.insert(k.clone(), fingerprint(p));
                    }
                    core.after(WATCH_LATENCY_MS, Task::new(self.target(), format!("sync|{k}")));
                }
            }
            ["sync", key] => {
                let key = key.to_string();
                self.sync(core, &key);
                if let Some(mut w) = self.pods.remove(&key) {
                    self.finish_evicted(core, &mut w);
                    if !w.deleted {
                        self.pods.insert(key, w);
                    }
                }
            }
            ["exit", key, name, instance] => {
                let instance: u32 = instance.parse().unwrap_or(0);
                self.on_exit(core, key, name, instance);
            }
            ["probe", key, name, kind, instance] => {
                let Some(kind) = ProbeKind::from_word(kind) else { return };
                let instance: u32 = instance.parse().unwrap_or(0);
                self.on_probe(core, key, name, kind, instance, task);
            }
            ["evict"] => self.eviction(core),
            ["heartbeat"] => {
                self.heartbeat(core);
                core.after(NODE_LEASE_RENEW_INTERVAL_MS, Task::periodic(self.target(), "heartbeat"));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
