//! Scheduler throughput: (a) 1,000 pods onto 5,000 nodes with every node filtered and
//! scored (percentageOfNodesToScore = 100), reported as pod-node filter+score
//! evaluations per second; (b) one pod on a 3-node kind-like cluster with the full trace.
//!
//! Run: `cargo bench -p podlab-engine --bench scheduler`

use std::collections::BTreeMap;
use std::time::Instant;

use k8s_openapi::api::core::v1::{Container, Node, NodeSpec, NodeStatus, Pod, PodSpec, ResourceRequirements, Taint};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use podlab_engine::rng::Rng;
use podlab_engine::scheduler::{ClusterSnapshot, DetailLevel, Profile, ScheduleResult, Scheduler, SchedulerOptions};

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

/// CPU time this process has used, in seconds (Linux `/proc/self/schedstat`), so the
/// figures do not depend on how busy the shared machine is. None elsewhere.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

#[inline(never)] // its own entry in profiles
fn large() {
    const NODES: usize = 5_000;
    const PODS: usize = 1_000;
    let mut snap = ClusterSnapshot::new();
    for i in 0..NODES {
        snap.add_node(node(i, if i % 2 == 0 { "8" } else { "16" }, "32Gi", i % 10 == 0));
    }
    let profile = Profile { percentage_of_nodes_to_score: Some(100), ..Profile::default_profile() };
    let mut sched =
        Scheduler::new(&profile, SchedulerOptions { detail: DetailLevel::Summary, ..Default::default() }).unwrap();
    let mut rng = Rng::new(42);
    let pods: Vec<Pod> = (0..PODS).map(|i| pod(i, ["100m", "250m", "500m"][i % 3], "256Mi")).collect();
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let mut evaluated = 0usize;
    let mut scheduled = 0usize;
    for p in &pods {
        let o = sched.schedule(p, &snap, &mut rng);
        evaluated += o.detail.sampling.as_ref().map(|s| s.evaluated).unwrap_or(0);
        if let ScheduleResult::Scheduled { node, .. } = &o.result {
            snap.assume(p, node);
            scheduled += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    if let (Some(a), Some(b)) = (cpu_start, cpu_seconds()) {
        println!(
            "large (CPU time): {evaluated} evaluations in {:.3} CPU s = {:.1} million evaluations per CPU second",
            b - a,
            evaluated as f64 / (b - a) / 1e6
        );
    }
    println!(
        "large: {PODS} pods onto {NODES} nodes (percentageOfNodesToScore=100): {scheduled} scheduled, \
         {evaluated} pod-node filter+score evaluations in {:.3} s = {:.1} million evaluations/s, {:.3} ms per pod",
        secs,
        evaluated as f64 / secs / 1e6,
        secs * 1e3 / PODS as f64
    );
}

#[inline(never)] // its own entry in profiles
fn small() {
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
    let p = pod(0, "500m", "256Mi");
    let mut sched = Scheduler::default_scheduler();
    let mut rng = Rng::new(1);
    const N: usize = 20_000;
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let mut chosen = 0usize;
    for _ in 0..N {
        let o = sched.schedule(&p, &snap, &mut rng);
        chosen += o.detail.chosen.map(|c| c.len()).unwrap_or(0);
    }
    let secs = start.elapsed().as_secs_f64();
    if let (Some(a), Some(b)) = (cpu_start, cpu_seconds()) {
        println!("small (CPU time): {:.1} us per schedule", (b - a) * 1e6 / N as f64);
    }
    println!(
        "small: one pod on a 3-node cluster with the full trace: {:.1} us per schedule ({N} runs, checksum {chosen})",
        secs * 1e6 / N as f64
    );
}

fn main() {
    small();
    large();
}
