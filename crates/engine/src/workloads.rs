//! The benchmark workloads, shared by `cargo bench` (`crates/engine/benches/`) and the
//! wasm32-against-native runner (`crates/bench`, `scripts/bench-ratio.sh`), so both time
//! exactly the same work. Pure work only: timing belongs to the callers (the engine reads
//! no clock).

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Container, Node, NodeSpec, NodeStatus, Pod, PodSpec, ResourceRequirements, Taint};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use crate::lab::{self, LabInput};
use crate::rng::Rng;
use crate::scheduler::{ClusterSnapshot, DetailLevel, Profile, ScheduleResult, Scheduler, SchedulerOptions};

/// The lifecycle workload's manifest: a 3-replica nginx Deployment.
pub const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.29
        ports:
        - containerPort: 80
";

/// `kubectl apply` of [`DEPLOYMENT`] on the default 3-node cluster through [`lab::run`],
/// until the cluster settles. Returns the run's trace length and settle time (ms of cluster
/// time), or `None` if the default cluster failed to load. The run works on a copy of the
/// default cluster's starting state, which the process loads once.
pub fn lifecycle() -> Option<(usize, u64)> {
    let input = LabInput::new(DEPLOYMENT, "web.yaml");
    lab::run(&input).ok().map(|r| (r.steps.len(), r.end_ms))
}

/// [`lifecycle`] with the default cluster loaded for the run ([`lab::Loaded::load`]: the base
/// objects, the bootstrap policy, the nodes and the settings stored one by one), as a run on
/// a cluster file is.
pub fn lifecycle_loading() -> Option<(usize, u64)> {
    let input = LabInput::new(DEPLOYMENT, "web.yaml");
    lab::run_reusing(&mut None, &input).ok().map(|r| (r.steps.len(), r.end_ms))
}

fn q(s: &str) -> Quantity {
    Quantity(s.to_string())
}

fn node(i: usize, cpu: &str, memory: &str, tainted: bool) -> Node {
    let name = format!("node-{i:04}");
    let labels = BTreeMap::from([
        ("kubernetes.io/hostname".to_string(), name.clone()),
        ("topology.kubernetes.io/zone".to_string(), format!("zone-{}", i % 3)),
    ]);
    Node {
        metadata: ObjectMeta { name: Some(name), labels: Some(labels), ..Default::default() },
        spec: Some(NodeSpec {
            taints: tainted
                .then(|| vec![Taint { key: "spot".into(), effect: "PreferNoSchedule".into(), ..Default::default() }]),
            ..Default::default()
        }),
        status: Some(NodeStatus {
            allocatable: Some(BTreeMap::from([
                ("cpu".to_string(), q(cpu)),
                ("memory".to_string(), q(memory)),
                ("pods".to_string(), q("110")),
            ])),
            ..Default::default()
        }),
    }
}

fn pod(i: usize, cpu: &str, memory: &str) -> Pod {
    Pod {
        metadata: ObjectMeta {
            name: Some(format!("pod-{i:04}")),
            namespace: Some("default".into()),
            uid: Some(format!("uid-{i}")),
            ..Default::default()
        },
        spec: Some(PodSpec {
            containers: vec![Container {
                name: "app".into(),
                image: Some("nginx:1.27".into()),
                resources: Some(ResourceRequirements {
                    requests: Some(BTreeMap::from([("cpu".to_string(), q(cpu)), ("memory".to_string(), q(memory))])),
                    ..Default::default()
                }),
                ..Default::default()
            }],
            ..Default::default()
        }),
        status: None,
    }
}

/// What a scheduling workload did: pod-node filter+score evaluations and pods placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scheduled {
    pub evaluated: usize,
    pub scheduled: usize,
}

/// [`LargeSchedule::NODES`] nodes (every tenth with a PreferNoSchedule taint, 8 or 16
/// CPUs) and [`LargeSchedule::PODS`] pods of 100m–500m CPU, scheduled one after another
/// with percentageOfNodesToScore = 100, so every node is filtered and scored for every pod.
/// Build it with [`LargeSchedule::new`] (not part of the timed work), then [`run`](Self::run).
pub struct LargeSchedule {
    snap: ClusterSnapshot,
    sched: Scheduler,
    rng: Rng,
    pods: Vec<Pod>,
}

impl LargeSchedule {
    pub const NODES: usize = 5_000;
    pub const PODS: usize = 1_000;

    pub fn new() -> Self {
        let mut snap = ClusterSnapshot::new();
        for i in 0..Self::NODES {
            snap.add_node(node(i, if i % 2 == 0 { "8" } else { "16" }, "32Gi", i % 10 == 0));
        }
        let profile = Profile { percentage_of_nodes_to_score: Some(100), ..Profile::default_profile() };
        let sched = Scheduler::new(&profile, SchedulerOptions { detail: DetailLevel::Summary, ..Default::default() })
            .expect("the default profile with percentageOfNodesToScore = 100 is valid");
        let pods = (0..Self::PODS).map(|i| pod(i, ["100m", "250m", "500m"][i % 3], "256Mi")).collect();
        LargeSchedule { snap, sched, rng: Rng::new(42), pods }
    }

    /// Schedules every pod, assuming each onto its node before the next.
    pub fn run(mut self) -> Scheduled {
        let mut done = Scheduled { evaluated: 0, scheduled: 0 };
        for p in &self.pods {
            let o = self.sched.schedule(p, &self.snap, &mut self.rng);
            done.evaluated += o.detail.sampling.as_ref().map(|s| s.evaluated).unwrap_or(0);
            if let ScheduleResult::Scheduled { node, .. } = &o.result {
                self.snap.assume(p, node);
                done.scheduled += 1;
            }
        }
        done
    }
}

impl Default for LargeSchedule {
    fn default() -> Self {
        Self::new()
    }
}

/// One 500m pod on a kind-like 3-node cluster (a tainted control plane and two workers),
/// scheduled repeatedly with the default profile and the full trace.
pub struct SmallSchedule {
    snap: ClusterSnapshot,
    sched: Scheduler,
    rng: Rng,
    pod: Pod,
}

impl SmallSchedule {
    pub fn new() -> Self {
        let mut snap = ClusterSnapshot::new();
        let mut cp = node(0, "4", "8Gi", false);
        cp.spec = Some(NodeSpec {
            taints: Some(vec![Taint {
                key: "node-role.kubernetes.io/control-plane".into(),
                effect: "NoSchedule".into(),
                ..Default::default()
            }]),
            ..Default::default()
        });
        snap.add_node(cp);
        snap.add_node(node(1, "4", "8Gi", false));
        snap.add_node(node(2, "4", "8Gi", false));
        SmallSchedule { snap, sched: Scheduler::default_scheduler(), rng: Rng::new(1), pod: pod(0, "500m", "256Mi") }
    }

    /// Schedules the pod `n` times (nothing is assumed, so each run sees the same cluster);
    /// returns a checksum of the chosen-node lists so the work cannot be optimised away.
    pub fn run(&mut self, n: usize) -> usize {
        let mut chosen = 0;
        for _ in 0..n {
            let o = self.sched.schedule(&self.pod, &self.snap, &mut self.rng);
            chosen += o.detail.chosen.map(|c| c.len()).unwrap_or(0);
        }
        chosen
    }
}

impl Default for SmallSchedule {
    fn default() -> Self {
        Self::new()
    }
}
