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
//!
//! One room per concept, each with its `impl Kubelet` half: `admission` (admit handlers),
//! `volumes` (volume manager), `sandbox` (RunPodSandbox with CNI ADD/DEL) and `cni` (the ptp
//! plugin; `cni::ipam`, host-local), `images` (image manager, `ImagePullBackOff`),
//! `containers` (start, kill, exit, `CrashLoopBackOff`), `probes` (prober), `status` (status
//! manager), `termination` (`SyncTerminatingPod`), `eviction` (eviction manager),
//! `node_status` and `lease` (heartbeats), `power` (the machine lost and booted again);
//! `runtime` is containerd and the behaviour model.
//! This file keeps the actor, the pod worker and its dispatch.

pub mod admission;
pub mod cgroups;
pub mod cni;
pub mod containers;
pub mod env;
pub mod events;
pub mod eviction;
pub mod images;
pub mod lease;
pub mod node_status;
pub mod power;
pub mod probes;
pub mod qos;
pub mod runtime;
pub mod sandbox;
pub mod status;
pub mod termination;
pub mod volumes;

pub use cni::CniFault;
pub use containers::{CRASH_BACKOFF_INITIAL_MS, CRASH_BACKOFF_MAX_MS, EXIT_HORIZON_MS};
pub use eviction::{DEFAULT_NODE_EPHEMERAL_BYTES, EVICTION_GRACE_S, EVICTION_MONITORING_MS, NODEFS_EVICTION_PERCENT};
pub use images::Registry;
pub use lease::{NODE_LEASE_DURATION_S, NODE_LEASE_NAMESPACE, NODE_LEASE_RENEW_INTERVAL_MS};
pub use node_status::{NODE_STATUS_REPORT_FREQUENCY_MS, NODE_STATUS_UPDATE_FREQUENCY_MS};
pub use sandbox::{CLUSTER_DNS, CNI_AT_MS};

use crate::apiserver;
use crate::object::Object;
use crate::sim::{object_ref, Actor, Core, StepBuilder, Target, Task};
use crate::store::{EventType, WatchEvent};
use crate::trace::{Component, Detail, Phase, StepStatus, Table, WatchDetail, WorkDetail};
use crate::world::World;
use containers::{Ctr, Op};
use events::{EventRecorder, EventSpec};
use images::{Backoff, CachedImage, ImageCache};
use k8s_openapi::api::core::v1::{Node, Pod, PodStatus};
use probes::ProbeKind;
use qos::QosClass;
use sandbox::Sandbox;
use std::collections::{BTreeMap, BTreeSet};
use volumes::{Mounted, VolFail};

/// Delay between a watch event and the kubelet acting on it.
pub const WATCH_LATENCY_MS: u64 = 2;
/// The PLEG relists containers every second; exits are noticed at the next relist.
pub const PLEG_RELIST_MS: u64 = 1_000;
/// A pod worker whose sync failed tries again after this long (`backOffPeriod`; upstream
/// adds up to 50% jitter, the lab does not).
pub const POD_WORKER_BACKOFF_MS: u64 = 10_000;

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
            Sandbox::Stopped { ip } | Sandbox::Lost { ip, .. } => *ip,
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

/// One container as the kubelet knows it, for `kubectl logs` and `kubectl exec`.
#[derive(Clone, Debug)]
pub struct ContainerView {
    /// What the newest instance that started printed (the lab's model of its output).
    pub output: Option<Vec<String>>,
    /// What the instance before it printed.
    pub previous_output: Option<Vec<String>>,
    /// The running process, its image and when it started.
    pub running: Option<(runtime::Process, images::ImageInfo, u64)>,
    /// The environment the kubelet built for the container.
    pub env: Vec<(String, String)>,
    /// What its volume mounts provide, and the texts the lab knows of them.
    pub files: Vec<String>,
    pub texts: Vec<(String, String)>,
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

    /// What the kubelet's container log and exec endpoints can answer about one container of
    /// the Pod `namespace/name` (the API server's `pods/log` and `pods/exec` ask it), or
    /// `None` when the kubelet runs no such Pod or container.
    pub fn container_view(&self, core: &World, key: &str, container: &str) -> Option<ContainerView> {
        let w = self.pods.get(key)?;
        let c = w.ctrs.iter().find(|c| c.name == container)?;
        let running = match (&c.process, &c.image, c.started_ms()) {
            (Some(p), Some(img), Some(started)) => Some((p.clone(), img.info.clone(), started)),
            _ => None,
        };
        Some(ContainerView {
            output: c.output.clone(),
            previous_output: c.previous_output.clone(),
            running,
            env: c.env.iter().map(|e| (e.name.clone(), e.value.clone())).collect(),
            files: volumes::container_files(&w.mounts, &c.spec),
            texts: volumes::container_texts(&core.store, &w.pod, &c.spec),
        })
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

    /// Starts the kubelet again after it was stopped (a live session's `lab start kubelet
    /// NODE`): it records its start and posts its node status (`node_status::boot`), lists
    /// the pods bound to its node again and its heartbeat resumes at once (the timers it had
    /// queued were lost while it was down); fault timers are not re-armed.
    pub fn restart(&mut self, core: &mut World) {
        core.after(0, Task::new(self.target(), "boot"));
        core.after(0, Task::new(self.target(), "start"));
        core.after(0, Task::periodic(self.target(), "heartbeat"));
    }

    /// The API server is reachable again: the kubelet's informer lists its Pods anew and the
    /// status manager sends what it could not (each Pod is synced, which writes its status when
    /// it differs from the last one written). Containers were never touched.
    pub fn reconnect(&mut self, core: &mut World) {
        core.after(0, Task::new(self.target(), "start"));
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
        if !w.in_pass && w.op.is_none() && w.in_sync_kill.is_none() && self.restart_changed(core, w) {
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
            ["boot"] => self.boot(core),
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
