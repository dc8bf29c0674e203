//! Property tests over whole runs (`lab::run`): generated clusters of 1–4 nodes (random
//! capacity and taints) and generated Pods and Deployments (random requests, replicas,
//! tolerations, nodeSelector). For every case:
//!
//! (a) the same input and seed give a byte-identical JSON trace;
//! (b) at every revision of the run, on every node, the requests of the pods bound to it
//!     (and not finished) never exceed its allocatable CPU, memory and pod count;
//! (c) the run settles before its limit, and every pod ends in a state kubectl would show
//!     for a settled cluster: Running, Completed, Pending with a `FailedScheduling` Event, or a
//!     kubelet-side waiting reason.

use podlab_engine::lab::{self, LabInput, Run};
use podlab_engine::object::Object;
use podlab_engine::quantity::Quantity;
use podlab_engine::views::{pod_requests, pod_summary, Snapshot};
use proptest::prelude::*;
use std::collections::BTreeMap;

const LIMIT_MS: u64 = 20 * 60_000;
const TAINTS: [&str; 2] = ["dedicated=gpu:NoSchedule", "maintenance=soon:PreferNoSchedule"];
const IMAGES: [&str; 3] = ["nginx:1.29", "redis:8", "busybox:1.36"];

#[derive(Clone, Debug)]
struct NodeGen {
    cpu_milli: u32,
    memory_mi: u32,
    pods: u32,
    taint: Option<usize>,
    disk: bool,
}

#[derive(Clone, Debug)]
struct WorkloadGen {
    deployment: bool,
    replicas: u32,
    cpu_milli: u32,
    memory_mi: u32,
    tolerate: bool,
    select_ssd: bool,
    image: usize,
}

fn node_gen() -> impl Strategy<Value = NodeGen> {
    (500u32..4000, 256u32..4096, 2u32..6, proptest::option::of(0usize..TAINTS.len()), any::<bool>())
        .prop_map(|(cpu_milli, memory_mi, pods, taint, disk)| NodeGen { cpu_milli, memory_mi, pods, taint, disk })
}

fn workload_gen() -> impl Strategy<Value = WorkloadGen> {
    (any::<bool>(), 1u32..4, 0u32..1500, 0u32..1024, any::<bool>(), any::<bool>(), 0usize..IMAGES.len()).prop_map(
        |(deployment, replicas, cpu_milli, memory_mi, tolerate, select_ssd, image)| WorkloadGen {
            deployment,
            replicas,
            cpu_milli,
            memory_mi,
            tolerate,
            select_ssd,
            image,
        },
    )
}

fn cluster_yaml(nodes: &[NodeGen]) -> String {
    let mut s = String::from(
        "apiVersion: podlab.dev/v1alpha1\nkind: LabSettings\nusers:\n- name: kubernetes-admin\n  clientCertificate:\n    commonName: kubernetes-admin\n    organizations: [system:masters]\ncurrentUser: kubernetes-admin\nnamespace: default\n",
    );
    for (i, n) in nodes.iter().enumerate() {
        let name = format!("node-{i}");
        let taints = match n.taint {
            Some(t) => {
                let (kv, effect) = TAINTS[t].split_once(':').unwrap_or(("", ""));
                let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                format!("  taints:\n  - {{key: {k}, value: {v}, effect: {effect}}}\n")
            }
            None => String::new(),
        };
        let disk = if n.disk { "ssd" } else { "hdd" };
        s += &format!(
            "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels: {{kubernetes.io/hostname: {name}, kubernetes.io/os: linux, kubernetes.io/arch: amd64, disk: {disk}}}\nspec:\n  podCIDR: 10.244.{i}.0/24\n  podCIDRs: [10.244.{i}.0/24]\n{taints}status:\n  capacity: {{cpu: {c}m, memory: {m}Mi, pods: \"{p}\"}}\n  allocatable: {{cpu: {c}m, memory: {m}Mi, pods: \"{p}\"}}\n  conditions:\n  - {{type: Ready, status: \"True\", reason: KubeletReady, message: kubelet is posting ready status}}\n  addresses:\n  - {{type: InternalIP, address: 172.18.0.{ip}}}\n",
            c = n.cpu_milli,
            m = n.memory_mi,
            p = n.pods,
            ip = i + 2,
        );
    }
    s
}

fn manifest_yaml(workloads: &[WorkloadGen]) -> String {
    let mut docs = Vec::new();
    for (i, w) in workloads.iter().enumerate() {
        let mut spec = format!(
            "containers:\n- name: c\n  image: {}\n  resources:\n    requests: {{cpu: {}m, memory: {}Mi}}\n",
            IMAGES[w.image], w.cpu_milli, w.memory_mi
        );
        if w.image == 2 {
            spec += "  command: [sleep, infinity]\n";
        }
        if w.tolerate {
            spec += "tolerations:\n- {key: dedicated, operator: Exists, effect: NoSchedule}\n";
        }
        if w.select_ssd {
            spec += "nodeSelector: {disk: ssd}\n";
        }
        let indent =
            |text: &str, n: usize| -> String { text.lines().map(|l| format!("{}{l}\n", " ".repeat(n))).collect() };
        if w.deployment {
            docs.push(format!(
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-{i}\nspec:\n  replicas: {}\n  selector:\n    matchLabels: {{app: app-{i}}}\n  template:\n    metadata:\n      labels: {{app: app-{i}}}\n    spec:\n{}",
                w.replicas,
                indent(&spec, 6)
            ));
        } else {
            docs.push(format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-{i}\nspec:\n{}", indent(&spec, 2)));
        }
    }
    docs.join("---\n")
}

fn run(cluster: &str, manifest: &str, seed: u64) -> Run {
    let mut input = LabInput::new(manifest, "app.yaml");
    input.cluster = Some(cluster.to_string());
    input.seed = seed;
    input.limit_ms = LIMIT_MS;
    lab::run(&input).expect("the generated cluster loads")
}

fn quantity(
    list: Option<&BTreeMap<String, k8s_openapi::apimachinery::pkg::api::resource::Quantity>>,
    key: &str,
) -> i128 {
    list.and_then(|l| l.get(key)).and_then(|q| Quantity::parse(&q.0).ok()).map(|q| q.milli()).unwrap_or(0)
}

/// (b) at every revision of the run.
fn check_capacity(run: &Run) -> Result<(), TestCaseError> {
    let store = run.store();
    let mut revisions: Vec<u64> = run.steps.iter().map(|s| s.revision).collect();
    revisions.push(run.final_revision);
    revisions.dedup();
    for rev in revisions {
        let snap = Snapshot::new(store, rev, run.end_ms);
        let mut used: BTreeMap<String, (i128, i128, i128)> = BTreeMap::new();
        for o in snap.list("Pod", None) {
            let Object::Pod(p) = o else { continue };
            let Some(node) = p.spec.as_ref().and_then(|s| s.node_name.clone()) else { continue };
            let phase = p.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("");
            if matches!(phase, "Succeeded" | "Failed") {
                continue;
            }
            let r = pod_requests(p);
            let e = used.entry(node).or_default();
            e.0 += r.get("cpu").map(|q| q.milli()).unwrap_or(0);
            e.1 += r.get("memory").map(|q| q.milli()).unwrap_or(0);
            e.2 += 1000;
        }
        for (node, (cpu, mem, pods)) in used {
            let Some(Object::Node(n)) = snap.get("Node", None, &node) else { continue };
            let alloc = n.status.as_ref().and_then(|s| s.allocatable.as_ref());
            prop_assert!(cpu <= quantity(alloc, "cpu"), "cpu over allocatable on {node} at revision {rev}");
            prop_assert!(mem <= quantity(alloc, "memory"), "memory over allocatable on {node} at revision {rev}");
            prop_assert!(pods <= quantity(alloc, "pods"), "pod count over allocatable on {node} at revision {rev}");
        }
    }
    Ok(())
}

/// (c) the run settled and every pod ends in a state of a settled cluster.
fn check_end_states(run: &Run) -> Result<(), TestCaseError> {
    prop_assert!(run.end_ms + 30_000 < LIMIT_MS, "the run did not settle (ended at {} ms)", run.end_ms);
    let snap = Snapshot::new(run.store(), run.final_revision, run.end_ms);
    let events: Vec<(String, String)> = snap
        .list("Event", None)
        .into_iter()
        .filter_map(|o| match o {
            Object::Event(e) => {
                Some((e.involved_object.name.clone().unwrap_or_default(), e.reason.clone().unwrap_or_default()))
            }
            _ => None,
        })
        .collect();
    for o in snap.list("Pod", None) {
        let Object::Pod(p) = o else { continue };
        let name = p.metadata.name.clone().unwrap_or_default();
        let status = pod_summary(p).status;
        let ok = match status.as_str() {
            "Running" | "Completed" => true,
            "Pending" => events.iter().any(|(n, r)| n == &name && r == "FailedScheduling"),
            "ContainerCreating"
            | "ErrImagePull"
            | "ImagePullBackOff"
            | "CrashLoopBackOff"
            | "CreateContainerConfigError" => true,
            _ => false,
        };
        prop_assert!(ok, "pod {name} ends as {status}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn whole_runs_are_deterministic_fit_their_nodes_and_settle(
        nodes in proptest::collection::vec(node_gen(), 1..=4),
        workloads in proptest::collection::vec(workload_gen(), 1..=3),
        seed in 0u64..1000,
    ) {
        let cluster = cluster_yaml(&nodes);
        let manifest = manifest_yaml(&workloads);
        let first = run(&cluster, &manifest, seed);
        prop_assert!(first.all_accepted(), "rejected: {}", first.kubectl_output);
        let second = run(&cluster, &manifest, seed);
        prop_assert!(first.to_json() == second.to_json(), "the same input and seed gave different traces");
        check_capacity(&first)?;
        check_end_states(&first)?;
    }
}
