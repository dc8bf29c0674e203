//! Test scaffolding for the controllers: the starting cluster as the lab loads it, a
//! scripted kubectl, a minimal scheduler and kubelets, and a renderer for snapshots.
//!
//! Every component writes through the real API server ([`crate::apiserver::handle`]: authn,
//! RBAC and the Node authorizer, admission, validation, the registry strategies with
//! `generateName`, `metadata.generation`, the `status`/`binding`/`finalize` subresources,
//! graceful Pod deletion and finalizers), as the controllers' own service accounts, the
//! scheduler, `system:node:<name>` and the cluster admin.
//!
//! The fake kubelet is driven by test-only annotations on Pods (through the template):
//! `podlab.test/ready: "false"` keeps a Pod Running but not Ready; `podlab.test/run-seconds`
//! makes its container exit after that long, with `podlab.test/exit-code` (default 0).

use super::tainteviction::tolerates;
use super::util::*;
use super::ControllerManager;
use crate::apiserver::{self, ApiRequest, ApiResponse, Caller, Credential, Verb};
use crate::object::{resource_for, Object};
use crate::sim::{run_loop, Actor, Core, StepBuilder, Target, Task};
use crate::store::{EventType, WatchEvent};
use crate::trace::{Component, Detail, Phase};
use crate::world::World;
use k8s_openapi::api::core::v1::{Node, Pod};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Heartbeat period of the fake kubelets (Lease renewal, as the real kubelet's 10 s).
pub const HEARTBEAT_MS: u64 = 10_000;
/// From a Pod bound to the node to Running (and Ready).
pub const START_MS: u64 = 2_000;
/// From a graceful delete to the kubelet's final delete.
pub const KILL_MS: u64 = 1_000;
pub const SCHEDULE_LATENCY_MS: u64 = 4;

/// The API server every test component writes through: the real pipeline.
fn api(core: &mut World, req: ApiRequest) -> ApiResponse {
    apiserver::handle(core, req)
}

// ---------------------------------------------------------------------------------------
// The cluster

fn admin() -> Caller {
    Caller::new(
        Component::Kubectl,
        Credential::ClientCertificate {
            common_name: "kubernetes-admin".into(),
            organizations: vec!["kubeadm:cluster-admins".into()],
        },
    )
}

fn request(
    caller: Caller,
    verb: Verb,
    kind: &str,
    ns: Option<&str>,
    name: Option<&str>,
    body: Option<Value>,
) -> ApiRequest {
    let resource = crate::object::resource_for_kind(kind).unwrap_or(&crate::object::RESOURCES[0]);
    ApiRequest {
        caller,
        verb,
        resource,
        namespace: ns.map(str::to_string),
        name: name.map(str::to_string),
        subresource: None,
        body: body.map(crate::apiserver::Body::Json),
        verbose: false,
        file: None,
    }
}

#[derive(Clone, Debug, Default)]
pub struct NodeSpec {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    /// The kubelet never starts Pods (they stay Pending on the node).
    pub never_starts: bool,
    /// The kubelet (and its heartbeat) stops at this time.
    pub stop_at_ms: Option<u64>,
    /// `spec.taints` of the Node, as JSON.
    pub taints: Option<Value>,
}

/// Parses `nodes: [{name, labels, taints, kubelet: {neverStarts, stopAt}}]`.
pub fn parse_cluster(yaml: &str) -> Vec<NodeSpec> {
    let v: Value = serde_yaml::from_str(yaml).unwrap_or(Value::Null);
    v.get("nodes")
        .and_then(Value::as_array)
        .map(|nodes| {
            nodes
                .iter()
                .map(|n| NodeSpec {
                    name: n.get("name").and_then(Value::as_str).unwrap_or("node").to_string(),
                    labels: n
                        .get("labels")
                        .and_then(Value::as_object)
                        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string())).collect())
                        .unwrap_or_default(),
                    never_starts: n.pointer("/kubelet/neverStarts").and_then(Value::as_bool).unwrap_or(false),
                    stop_at_ms: n.pointer("/kubelet/stopAt").and_then(Value::as_str).and_then(parse_duration),
                    taints: n.get("taints").cloned(),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `500ms`, `60s`, `5m`, `90` (ms).
pub fn parse_duration(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Some(v) = s.strip_suffix("ms") {
        return v.parse().ok();
    }
    if let Some(v) = s.strip_suffix('s') {
        return v.parse::<f64>().ok().map(|f| (f * 1000.0) as u64);
    }
    if let Some(v) = s.strip_suffix('m') {
        return v.parse::<u64>().ok().map(|m| m * 60_000);
    }
    s.parse().ok()
}

/// Creates the running cluster as the lab loads it ([`crate::cluster::load`]): the base
/// objects (system namespaces with their ServiceAccount and root CA ConfigMap, bootstrap
/// RBAC, controller ServiceAccounts), then Ready nodes and their Leases. Returns the keys it
/// created.
pub fn setup(core: &mut World, nodes: &[NodeSpec]) -> BTreeSet<String> {
    let now = apiserver::timestamp(0);
    let mut docs: Vec<Value> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        let mut labels = n.labels.clone();
        labels.insert("kubernetes.io/hostname".into(), n.name.clone());
        labels.insert("kubernetes.io/os".into(), "linux".into());
        let conds: Vec<Value> = [("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
            ("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
            ("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
            ("Ready", "True", "KubeletReady", "kubelet is posting ready status")]
            .iter()
            .map(|(t, s, r, m)| json!({"type": t, "status": s, "reason": r, "message": m, "lastHeartbeatTime": now, "lastTransitionTime": now}))
            .collect();
        let mut spec =
            json!({"podCIDR": format!("10.244.{}.0/24", i + 1), "podCIDRs": [format!("10.244.{}.0/24", i + 1)]});
        if let Some(t) = &n.taints {
            spec["taints"] = t.clone();
        }
        docs.push(json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": n.name, "labels": labels},
            "spec": spec,
            "status": {"conditions": conds, "addresses": [{"type": "InternalIP", "address": format!("10.0.0.{}", i + 10)}],
                "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}, "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}));
        docs.push(json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": n.name, "namespace": "kube-node-lease"},
            "spec": {"holderIdentity": n.name, "leaseDurationSeconds": 40, "renewTime": micro_time(0)}}));
    }
    let yaml: Vec<String> = docs.iter().map(|d| serde_json::to_string(d).unwrap_or_default()).collect();
    crate::cluster::load(core, Some(&yaml.join("\n---\n"))).expect("the test cluster loads");
    core.store.list("/registry/").into_iter().map(|(k, _, _)| k.to_string()).collect()
}

// ---------------------------------------------------------------------------------------
// Fake scheduler and kubelet

fn note(core: &mut World, from: Component, node: Option<&str>, text: String) {
    let mut b = StepBuilder::new(Phase::Kubelet, from, Component::ApiServer, text.clone(), Detail::Note { text });
    if let Some(n) = node {
        b = b.node(n);
    }
    core.record(b);
}

/// Binds each pending Pod to the Ready node with the fewest Pods that it tolerates.
#[derive(Default)]
pub struct FakeScheduler;

impl Actor<World> for FakeScheduler {
    fn handles(&self, target: &Target) -> bool {
        *target == Target::Scheduler
    }

    fn observe(&mut self, core: &mut World, ev: &WatchEvent<Object>) {
        if let Object::Pod(p) = &*ev.object {
            if ev.kind != EventType::Deleted
                && node_name(p).is_empty()
                && !is_deleting(&p.metadata)
                && ev.kind == EventType::Added
            {
                core.after(SCHEDULE_LATENCY_MS, Task::new(Target::Scheduler, key_of(&p.metadata)));
            }
        }
    }

    fn run(&mut self, core: &mut World, task: &Task) {
        let (ns, name) = split_key(&task.key);
        let Some(Object::Pod(pod)) = get(core, "Pod", ns, name) else { return };
        if !node_name(&pod).is_empty() || is_deleting(&pod.metadata) {
            return;
        }
        let tolerations = pod.spec.as_ref().and_then(|s| s.tolerations.clone()).unwrap_or_default();
        // The one node a daemon Pod's `metadata.name` node affinity names (other affinity and
        // selectors are ignored here; the lab's scheduler honours them).
        let named = super::daemonset::target_node_name(&pod);
        let all_pods = pods(core, None);
        let mut best: Option<(usize, String)> = None;
        for o in list(core, "Node", None) {
            let Object::Node(n) = o else { continue };
            if !node_fits(&n, &tolerations) || named.as_ref().is_some_and(|m| n.metadata.name.as_ref() != Some(m)) {
                continue;
            }
            let name = n.metadata.name.clone().unwrap_or_default();
            let count =
                all_pods.iter().filter(|p| node_name(p) == name && !matches!(phase(p), "Succeeded" | "Failed")).count();
            if best.as_ref().is_none_or(|(c, _)| count < *c) {
                best = Some((count, name));
            }
        }
        let Some((_, node)) = best else {
            core.after(10_000, Task::periodic(Target::Scheduler, task.key.clone()));
            return;
        };
        let binding = json!({"apiVersion": "v1", "kind": "Binding", "metadata": {"name": name, "namespace": ns}, "target": {"apiVersion": "v1", "kind": "Node", "name": node}});
        let mut req = request(Caller::scheduler(), Verb::Create, "Pod", ns, Some(name), Some(binding));
        req.subresource = Some("binding".into());
        if api(core, req).ok() {
            note(core, Component::Scheduler, None, format!("(test scheduler) binds Pod {} to {node}", task.key));
        }
    }
}

fn node_fits(n: &Node, tolerations: &[k8s_openapi::api::core::v1::Toleration]) -> bool {
    let ready = super::nodelifecycle::ready_condition(n).is_some_and(|c| c.status == "True");
    let cordoned = n.spec.as_ref().and_then(|s| s.unschedulable).unwrap_or(false);
    let taints = n.spec.as_ref().and_then(|s| s.taints.clone()).unwrap_or_default();
    let tolerated = taints
        .iter()
        .filter(|t| t.effect != "PreferNoSchedule")
        .all(|t| tolerations.iter().any(|tol| tolerates(tol, t)));
    ready && !cordoned && tolerated
}

/// A kubelet that starts Pods quickly, heartbeats, and finishes graceful deletes.
pub struct FakeKubelet {
    spec: NodeSpec,
    index: usize,
    started: bool,
    next_ip: u32,
    ips: BTreeMap<String, String>,
}

impl FakeKubelet {
    pub fn new(spec: NodeSpec, index: usize) -> Self {
        FakeKubelet { spec, index, started: false, next_ip: 2, ips: BTreeMap::new() }
    }

    fn stopped(&self, now: u64) -> bool {
        self.spec.stop_at_ms.is_some_and(|t| now >= t)
    }

    fn target(&self) -> Target {
        Target::Kubelet(self.spec.name.clone())
    }

    fn annotation<'a>(pod: &'a Pod, k: &str) -> Option<&'a str> {
        pod.metadata.annotations.as_ref().and_then(|a| a.get(k)).map(String::as_str)
    }

    fn write_status(&self, core: &mut World, pod: Pod) -> bool {
        let ns = pod.metadata.namespace.clone();
        let name = pod.metadata.name.clone();
        let mut req = request(
            Caller::kubelet(&self.spec.name),
            Verb::Update,
            "Pod",
            ns.as_deref(),
            name.as_deref(),
            Some(Object::from(pod).to_json()),
        );
        req.subresource = Some("status".into());
        api(core, req).ok()
    }
}

fn cond(
    t: &str,
    status: &str,
    at: &k8s_openapi::apimachinery::pkg::apis::meta::v1::Time,
    reason: Option<&str>,
    msg: Option<String>,
) -> k8s_openapi::api::core::v1::PodCondition {
    k8s_openapi::api::core::v1::PodCondition {
        type_: t.into(),
        status: status.into(),
        last_transition_time: Some(at.clone()),
        reason: reason.map(str::to_string),
        message: msg,
        ..Default::default()
    }
}

impl Actor<World> for FakeKubelet {
    fn handles(&self, target: &Target) -> bool {
        *target == self.target()
    }

    fn observe(&mut self, core: &mut World, ev: &WatchEvent<Object>) {
        if !self.started {
            self.started = true;
            core.after(HEARTBEAT_MS, Task::periodic(self.target(), "heartbeat"));
        }
        if self.stopped(core.now) {
            return;
        }
        let Object::Pod(p) = &*ev.object else { return };
        if ev.kind == EventType::Deleted || node_name(p) != self.spec.name {
            return;
        }
        let key = key_of(&p.metadata);
        if is_deleting(&p.metadata) {
            let was = matches!(ev.prev.as_deref(), Some(Object::Pod(old)) if is_deleting(&old.metadata));
            if !was {
                let delay = if matches!(phase(p), "Succeeded" | "Failed") { 0 } else { KILL_MS };
                core.after(delay, Task::new(self.target(), format!("kill/{key}")));
            }
            return;
        }
        let newly_bound = match ev.prev.as_deref() {
            Some(Object::Pod(old)) => node_name(old).is_empty(),
            None => true,
            _ => false,
        };
        if newly_bound && !self.spec.never_starts && phase(p) != "Running" {
            core.after(START_MS, Task::new(self.target(), format!("start/{key}")));
        }
    }

    fn run(&mut self, core: &mut World, task: &Task) {
        if self.stopped(core.now) {
            return;
        }
        let now = apiserver::timestamp(core.now);
        if task.key == "heartbeat" {
            if let Some(mut lease) = get(core, "Lease", Some("kube-node-lease"), &self.spec.name).map(|o| o.to_json()) {
                lease["spec"]["renewTime"] = json!(micro_time(core.now));
                let req = request(
                    Caller::kubelet(&self.spec.name),
                    Verb::Update,
                    "Lease",
                    Some("kube-node-lease"),
                    Some(&self.spec.name),
                    Some(lease),
                );
                let _ = api(core, req);
            }
            core.after(HEARTBEAT_MS, Task::periodic(self.target(), "heartbeat"));
            return;
        }
        let (verb, key) = task.key.split_once('/').unwrap_or(("", ""));
        let (ns, name) = split_key(key);
        let Some(Object::Pod(pod)) = get(core, "Pod", ns, name) else { return };
        let mut pod = std::sync::Arc::unwrap_or_clone(pod);
        let containers: Vec<(String, String)> = pod
            .spec
            .as_ref()
            .map(|s| s.containers.iter().map(|c| (c.name.clone(), c.image.clone().unwrap_or_default())).collect())
            .unwrap_or_default();
        match verb {
            "start" => {
                if is_deleting(&pod.metadata) {
                    return;
                }
                let ip = self.ips.entry(key.to_string()).or_insert_with(|| {
                    let ip = format!("10.244.{}.{}", self.index + 1, self.next_ip);
                    self.next_ip += 1;
                    ip
                });
                let ip = ip.clone();
                let ready = Self::annotation(&pod, "podlab.test/ready") != Some("false");
                let names: Vec<String> = containers.iter().map(|(n, _)| n.clone()).collect();
                let not_ready_msg = format!("containers with unready status: [{}]", names.join(" "));
                let status = pod.status.get_or_insert_with(Default::default);
                let scheduled = status.conditions.iter().flatten().find(|c| c.type_ == "PodScheduled").cloned();
                let mut conds = vec![
                    cond("PodReadyToStartContainers", "True", &now, None, None),
                    cond("Initialized", "True", &now, None, None),
                ];
                if ready {
                    conds.push(cond("Ready", "True", &now, None, None));
                    conds.push(cond("ContainersReady", "True", &now, None, None));
                } else {
                    conds.push(cond("Ready", "False", &now, Some("ContainersNotReady"), Some(not_ready_msg.clone())));
                    conds.push(cond("ContainersReady", "False", &now, Some("ContainersNotReady"), Some(not_ready_msg)));
                }
                conds.extend(scheduled);
                status.conditions = Some(conds);
                status.phase = Some("Running".into());
                status.pod_ip = Some(ip.clone());
                status.pod_ips = Some(vec![k8s_openapi::api::core::v1::PodIP { ip: ip.clone() }]);
                status.host_ip = Some(format!("10.0.0.{}", self.index + 10));
                status.start_time = Some(now.clone());
                status.container_statuses = Some(
                    containers
                        .iter()
                        .map(|(n, img)| k8s_openapi::api::core::v1::ContainerStatus {
                            name: n.clone(),
                            image: img.clone(),
                            image_id: String::new(),
                            ready,
                            restart_count: 0,
                            started: Some(true),
                            state: Some(k8s_openapi::api::core::v1::ContainerState {
                                running: Some(k8s_openapi::api::core::v1::ContainerStateRunning {
                                    started_at: Some(now.clone()),
                                }),
                                ..Default::default()
                            }),
                            ..Default::default()
                        })
                        .collect(),
                );
                let run_for = Self::annotation(&pod, "podlab.test/run-seconds").and_then(|s| s.parse::<u64>().ok());
                if self.write_status(core, pod) {
                    note(
                        core,
                        Component::Kubelet,
                        Some(&self.spec.name),
                        format!(
                            "(test kubelet) Pod {key} Running on {}, IP {ip}{}",
                            self.spec.name,
                            if ready { ", Ready" } else { ", not Ready" }
                        ),
                    );
                    if let Some(s) = run_for {
                        core.after(s * 1000, Task::new(self.target(), format!("finish/{key}")));
                    }
                }
            }
            "finish" => {
                if is_deleting(&pod.metadata) || phase(&pod) != "Running" {
                    return;
                }
                let code: i32 =
                    Self::annotation(&pod, "podlab.test/exit-code").and_then(|s| s.parse().ok()).unwrap_or(0);
                let (ph, reason) = if code == 0 { ("Succeeded", "Completed") } else { ("Failed", "Error") };
                let cond_reason = if code == 0 { "PodCompleted" } else { "PodFailed" };
                let status = pod.status.get_or_insert_with(Default::default);
                status.phase = Some(ph.into());
                for c in status.conditions.iter_mut().flatten() {
                    if matches!(c.type_.as_str(), "Ready" | "ContainersReady" | "PodReadyToStartContainers") {
                        c.status = "False".into();
                        c.last_transition_time = Some(now.clone());
                        if c.type_ != "PodReadyToStartContainers" {
                            c.reason = Some(cond_reason.into());
                        }
                    }
                }
                for cs in status.container_statuses.iter_mut().flatten() {
                    cs.ready = false;
                    cs.started = Some(false);
                    let started = cs.state.as_ref().and_then(|s| s.running.as_ref()).and_then(|r| r.started_at.clone());
                    cs.state = Some(k8s_openapi::api::core::v1::ContainerState {
                        terminated: Some(k8s_openapi::api::core::v1::ContainerStateTerminated {
                            exit_code: code,
                            reason: Some(reason.into()),
                            started_at: started,
                            finished_at: Some(now.clone()),
                            ..Default::default()
                        }),
                        ..Default::default()
                    });
                }
                if self.write_status(core, pod) {
                    note(
                        core,
                        Component::Kubelet,
                        Some(&self.spec.name),
                        format!("(test kubelet) Pod {key} {ph} (exit code {code})"),
                    );
                }
            }
            "kill" => {
                let req = request(
                    Caller::kubelet(&self.spec.name),
                    Verb::Delete,
                    "Pod",
                    ns,
                    Some(name),
                    Some(json!({"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 0})),
                );
                if api(core, req).ok() {
                    note(
                        core,
                        Component::Kubelet,
                        Some(&self.spec.name),
                        format!("(test kubelet) Pod {key} stopped and removed"),
                    );
                }
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------
// Scripted kubectl

#[derive(Clone, Debug)]
struct Action {
    at_ms: u64,
    words: Vec<String>,
    yaml: String,
}

/// The scenario: `@<time> <command>` lines, each followed by its YAML (for `apply`).
/// Commands: `apply`, `delete <kind>/<name> [foreground|orphan]`, `scale <kind>/<name> <n>`,
/// `set-image <kind>/<name> <container>=<image>`. All objects are in namespace `default`
/// unless their YAML says otherwise; `delete namespace/<name>` deletes a namespace.
struct Script {
    actions: Vec<Action>,
}

fn parse_script(text: &str) -> (Vec<Action>, BTreeMap<String, String>) {
    let mut actions = Vec::new();
    let mut options = BTreeMap::new();
    for line in text.lines() {
        if let Some(opt) = line.strip_prefix("@@") {
            let mut it = opt.split_whitespace();
            if let Some(k) = it.next() {
                options.insert(k.to_string(), it.collect::<Vec<_>>().join(" "));
            }
        } else if let Some(cmd) = line.strip_prefix('@') {
            let mut words: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
            let at = if words.is_empty() { 0 } else { parse_duration(&words.remove(0)).unwrap_or(0) };
            actions.push(Action { at_ms: at, words, yaml: String::new() });
        } else if let Some(a) = actions.last_mut() {
            a.yaml.push_str(line);
            a.yaml.push('\n');
        }
    }
    (actions, options)
}

fn kubectl(
    core: &mut World,
    verb: Verb,
    kind: &str,
    ns: Option<&str>,
    name: Option<&str>,
    body: Option<Value>,
) -> ApiResponse {
    api(core, request(admin(), verb, kind, ns, name, body))
}

impl Actor<World> for Script {
    fn handles(&self, target: &Target) -> bool {
        *target == Target::Kubectl
    }

    fn observe(&mut self, _: &mut World, _: &WatchEvent<Object>) {}

    fn run(&mut self, core: &mut World, task: &Task) {
        let Ok(i) = task.key.parse::<usize>() else { return };
        let Some(a) = self.actions.get(i).cloned() else { return };
        let verb = a.words.first().map(String::as_str).unwrap_or("");
        let target = a.words.get(1).cloned().unwrap_or_default();
        let (kind_word, name) = target.split_once('/').unwrap_or(("", ""));
        let kind = match kind_word {
            "deployment" | "deploy" => "Deployment",
            "replicaset" | "rs" => "ReplicaSet",
            "job" => "Job",
            "daemonset" | "ds" => "DaemonSet",
            "node" => "Node",
            "service" | "svc" => "Service",
            "pod" => "Pod",
            "namespace" | "ns" => "Namespace",
            other => other,
        };
        let ns = if kind == "Namespace" || kind == "Node" { None } else { Some("default") };
        let text = format!("kubectl {}", a.words.join(" "));
        note(core, Component::Kubectl, None, text);
        match verb {
            "apply" => {
                for doc in serde_yaml::Deserializer::from_str(&a.yaml) {
                    let Ok(v) = Value::deserialize(doc) else { break };
                    if v.is_null() {
                        continue;
                    }
                    apply(core, v);
                }
            }
            "delete" => {
                let policy = a.words.get(2).map(|p| match p.as_str() {
                    "foreground" => "Foreground",
                    "orphan" => "Orphan",
                    _ => "Background",
                });
                let body = json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": policy.unwrap_or("Background")});
                let _ = kubectl(core, Verb::Delete, kind, ns, Some(name), Some(body));
            }
            "scale" => {
                let n: i64 = a.words.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
                if let Some(o) = get(core, kind, ns, name) {
                    let mut v = o.to_json();
                    v["spec"]["replicas"] = json!(n);
                    let _ = kubectl(core, Verb::Update, kind, ns, Some(name), Some(v));
                }
            }
            "set-image" => {
                let (c, image) = a.words.get(2).and_then(|s| s.split_once('=')).unwrap_or(("", ""));
                if let Some(o) = get(core, kind, ns, name) {
                    let mut v = o.to_json();
                    if let Some(cs) = v.pointer_mut("/spec/template/spec/containers").and_then(Value::as_array_mut) {
                        for x in cs.iter_mut().filter(|x| x["name"] == c) {
                            x["image"] = json!(image);
                        }
                    }
                    let _ = kubectl(core, Verb::Update, kind, ns, Some(name), Some(v));
                }
            }
            _ => {}
        }
    }
}

use serde::Deserialize;

fn apply(core: &mut World, mut v: Value) {
    let api_version = v.get("apiVersion").and_then(Value::as_str).unwrap_or("").to_string();
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("").to_string();
    let Some(info) = resource_for(&api_version, &kind) else { return };
    let ns = if info.namespaced {
        Some(v.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or("default").to_string())
    } else {
        None
    };
    if let Some(ns) = ns.as_ref() {
        v["metadata"]["namespace"] = json!(ns);
    }
    let name = v.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("").to_string();
    match get(core, &kind, ns.as_deref(), &name) {
        Some(existing) => {
            let mut cur = existing.to_json();
            // The spec merges as kubectl apply's patch would (fields the manifest leaves out,
            // such as a bound Pod's nodeName, stay).
            if let Some(spec) = v.get("spec") {
                crate::apiserver::strategic::merge(&mut cur["spec"], spec);
            }
            for k in ["labels", "annotations"] {
                if let Some(x) = v["metadata"].get(k) {
                    cur["metadata"][k] = x.clone();
                }
            }
            let _ = kubectl(core, Verb::Update, &kind, ns.as_deref(), Some(&name), Some(cur));
        }
        None => {
            let _ = kubectl(core, Verb::Create, &kind, ns.as_deref(), None, Some(v));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Running and rendering

/// Runs a scenario and renders the controllers' steps, the Events and the final objects.
pub fn run(cluster: &str, script: &str) -> String {
    let nodes = parse_cluster(cluster);
    let (actions, options) = parse_script(script);
    let limit = options.get("limit").and_then(|s| parse_duration(s)).unwrap_or(900_000);
    let show_watch = options.contains_key("watch");
    let mut core = World::new(7);
    let setup_keys = setup(&mut core, &nodes);
    let setup_revision = core.store.revision();
    core.steps.clear();
    for (i, a) in actions.iter().enumerate() {
        core.after(a.at_ms, Task::new(Target::Kubectl, i.to_string()));
    }
    let mut cm = ControllerManager::new();
    for name in options.get("without").map(|s| s.split(',').map(str::to_string).collect::<Vec<_>>()).unwrap_or_default()
    {
        cm = cm.without(&name);
    }
    let mut scheduler = FakeScheduler;
    let mut kubelets: Vec<FakeKubelet> =
        nodes.iter().cloned().enumerate().map(|(i, n)| FakeKubelet::new(n, i)).collect();
    let mut script_actor = Script { actions };
    {
        let mut actors: Vec<&mut dyn Actor<World>> = vec![&mut script_actor, &mut cm, &mut scheduler];
        for k in kubelets.iter_mut() {
            actors.push(k);
        }
        run_loop(&mut core, &mut actors, limit);
    }
    render(&core, &setup_keys, setup_revision, show_watch)
}

fn t(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

fn render(core: &Core, setup_keys: &BTreeSet<String>, setup_revision: u64, show_watch: bool) -> String {
    let mut out = String::new();
    out.push_str("== trace\n");
    for s in &core.steps {
        let line = match &s.detail {
            Detail::Etcd(_) => continue,
            // The API server's pipeline steps: only a refused request is shown.
            Detail::ApiCall(_)
            | Detail::Request(_)
            | Detail::Response(_)
            | Detail::Authentication(_)
            | Detail::Authorization(_)
            | Detail::Admission(_)
            | Detail::Validation(_) => {
                if s.status == crate::trace::StepStatus::Ok || s.status == crate::trace::StepStatus::Warning {
                    continue;
                }
                format!("api     {}", s.summary)
            }
            Detail::Watch(_) if !show_watch => continue,
            Detail::Watch(w) => format!("watch   {} ({})", s.summary, w.reason),
            Detail::Controller(c) => {
                let mut l = format!("decide  {}", s.summary);
                for a in &c.actions {
                    l.push_str(&format!("\n                 - {a}"));
                }
                l
            }
            Detail::Event(e) => format!(
                "event   {} {} {}: {}",
                e.event_type,
                e.reason,
                s.object.as_ref().map(|o| o.display()).unwrap_or_default(),
                e.message
            ),
            Detail::Note { text } => format!("        {text}"),
            _ => s.summary.clone(),
        };
        out.push_str(&format!("{:>9} {line}\n", t(s.time_ms)));
    }
    out.push_str("== events\n");
    let mut events: Vec<(String, String)> = Vec::new();
    for (_, o, _) in core.store.list("/registry/events/") {
        if let Object::Event(e) = o {
            let first = e.first_timestamp.as_ref().map(time_ms).unwrap_or(0);
            let inv = &e.involved_object;
            events.push((
                format!("{first:012}{}", e.metadata.name.clone().unwrap_or_default()),
                format!(
                    "{:>8} {} {} {}/{}{} from {}: {}",
                    t(first.max(0) as u64),
                    e.type_.clone().unwrap_or_default(),
                    e.reason.clone().unwrap_or_default(),
                    inv.kind.clone().unwrap_or_default(),
                    inv.name.clone().unwrap_or_default(),
                    match e.count {
                        Some(c) if c > 1 => format!(" (x{c})"),
                        _ => String::new(),
                    },
                    e.source.as_ref().and_then(|s| s.component.clone()).unwrap_or_default(),
                    e.message.clone().unwrap_or_default()
                ),
            ));
        }
    }
    events.sort();
    for (_, l) in events {
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str(&format!("== objects (at {})\n", t(core.now)));
    for (key, o, rev) in core.store.list("/registry/") {
        let kind = o.kind();
        if matches!(kind, "Event" | "Lease") {
            continue;
        }
        if setup_keys.contains(key) && rev <= setup_revision {
            continue;
        }
        out.push_str(&describe(o));
        out.push('\n');
    }
    out
}

fn owner(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> String {
    meta.owner_references
        .iter()
        .flatten()
        .map(|r| {
            format!(
                " owner={}/{}{}{}",
                r.kind,
                r.name,
                if r.controller == Some(true) { " controller" } else { "" },
                if r.block_owner_deletion == Some(true) { " blockOwnerDeletion" } else { "" }
            )
        })
        .collect()
}

fn extras(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> String {
    let mut s = String::new();
    if let Some(f) = meta.finalizers.as_ref().filter(|f| !f.is_empty()) {
        s.push_str(&format!(" finalizers=[{}]", f.join(",")));
    }
    if meta.deletion_timestamp.is_some() {
        s.push_str(" TERMINATING");
    }
    s
}

fn conditions<T: serde::Serialize>(c: &Option<Vec<T>>) -> String {
    let Some(cs) = c else { return String::new() };
    let parts: Vec<String> = cs
        .iter()
        .map(|c| {
            let v = serde_json::to_value(c).unwrap_or_default();
            let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let msg = s("message");
            if msg.is_empty() {
                format!("{}={}/{}", s("type"), s("status"), s("reason"))
            } else {
                format!("{}={}/{} \"{}\"", s("type"), s("status"), s("reason"), msg)
            }
        })
        .collect();
    format!("\n    conditions: {}", parts.join("\n                "))
}

fn describe(o: &Object) -> String {
    let m = o.meta();
    let id = match o.namespace() {
        Some(ns) => format!("{} {ns}/{}", o.kind(), o.name()),
        None => format!("{} {}", o.kind(), o.name()),
    };
    let labels = m.labels.as_ref().map(|l| format!(" labels={{{}}}", format_labels(l))).unwrap_or_default();
    match o {
        Object::Deployment(d) => {
            let s = d.status.clone().unwrap_or_default();
            let ann = m
                .annotations
                .as_ref()
                .and_then(|a| a.get(super::deployment::REVISION_ANNOTATION))
                .cloned()
                .unwrap_or_default();
            format!(
                "{id} gen={} revision={ann}\n    status: observedGeneration={} replicas={} updated={} ready={} available={} unavailable={} terminating={}{}",
                m.generation.unwrap_or(0),
                s.observed_generation.unwrap_or(0),
                s.replicas.unwrap_or(0),
                s.updated_replicas.unwrap_or(0),
                s.ready_replicas.unwrap_or(0),
                s.available_replicas.unwrap_or(0),
                s.unavailable_replicas.unwrap_or(0),
                s.terminating_replicas.map_or("-".into(), |v| v.to_string()),
                conditions(&s.conditions)
            ) + &extras(m)
        }
        Object::ReplicaSet(rs) => {
            let s = rs.status.clone().unwrap_or_default();
            let ann = m
                .annotations
                .as_ref()
                .map(|a| {
                    a.iter()
                        .map(|(k, v)| format!("{}={v}", k.trim_start_matches("deployment.kubernetes.io/")))
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .unwrap_or_default();
            format!(
                "{id}{}{labels}{}\n    selector={} annotations={{{ann}}}\n    spec.replicas={} status: replicas={} fullyLabeled={} ready={} available={} terminating={} observedGeneration={}{}",
                owner(m),
                extras(m),
                format_selector(&rs.spec.selector),
                rs.spec.replicas.unwrap_or(1),
                s.replicas,
                s.fully_labeled_replicas.unwrap_or(0),
                s.ready_replicas.unwrap_or(0),
                s.available_replicas.unwrap_or(0),
                s.terminating_replicas.map_or("-".into(), |v| v.to_string()),
                s.observed_generation.unwrap_or(0),
                conditions(&s.conditions)
            )
        }
        Object::Pod(p) => format!(
            "{id}{}{labels}{} node={} phase={} ready={}{}",
            owner(m),
            extras(m),
            if node_name(p).is_empty() { "<none>" } else { node_name(p) },
            phase(p),
            is_pod_ready(p),
            p.status
                .as_ref()
                .and_then(|s| s.conditions.as_ref())
                .and_then(|c| c.iter().find(|c| c.type_ == "DisruptionTarget"))
                .map(|c| format!(" DisruptionTarget={}", c.reason.clone().unwrap_or_default()))
                .unwrap_or_default()
        ),
        Object::Job(j) => {
            let s = j.status.clone().unwrap_or_default();
            let unc = s
                .uncounted_terminated_pods
                .as_ref()
                .map(|u| serde_json::to_string(u).unwrap_or_default())
                .unwrap_or("-".into());
            format!(
                "{id}{}\n    status: active={} ready={} succeeded={} failed={} terminating={} uncountedTerminatedPods={unc} startTime={} completionTime={}{}",
                extras(m),
                s.active.unwrap_or(0),
                s.ready.map_or("-".into(), |v| v.to_string()),
                s.succeeded.unwrap_or(0),
                s.failed.unwrap_or(0),
                s.terminating.map_or("-".into(), |v| v.to_string()),
                s.start_time.as_ref().map(|x| t(time_ms(x).max(0) as u64)).unwrap_or("-".into()),
                s.completion_time.as_ref().map(|x| t(time_ms(x).max(0) as u64)).unwrap_or("-".into()),
                conditions(&s.conditions)
            )
        }
        Object::EndpointSlice(es) => {
            let ports: Vec<String> = es
                .ports
                .iter()
                .flatten()
                .map(|p| {
                    format!(
                        "{}:{}/{}",
                        p.name.clone().unwrap_or_default(),
                        p.port.unwrap_or(0),
                        p.protocol.clone().unwrap_or_default()
                    )
                })
                .collect();
            let eps: Vec<String> = es
                .endpoints
                .iter()
                .flatten()
                .map(|e| {
                    let c = e.conditions.clone().unwrap_or_default();
                    format!(
                        "\n      {} ready={} serving={} terminating={} node={} zone={} pod={}",
                        e.addresses.join(","),
                        c.ready.unwrap_or(false),
                        c.serving.unwrap_or(false),
                        c.terminating.unwrap_or(false),
                        e.node_name.clone().unwrap_or_default(),
                        e.zone.clone().unwrap_or("-".into()),
                        e.target_ref.as_ref().and_then(|r| r.name.clone()).unwrap_or_default()
                    )
                })
                .collect();
            let ann = m
                .annotations
                .as_ref()
                .and_then(|a| a.get(super::endpointslice::TRIGGER_TIME_ANNOTATION))
                .cloned()
                .unwrap_or("-".into());
            format!(
                "{id}{}{labels}\n    addressType={} ports=[{}] lastChangeTriggerTime={ann} endpoints:{}",
                owner(m),
                es.address_type,
                ports.join(","),
                if eps.is_empty() { " <none>".to_string() } else { eps.concat() }
            )
        }
        Object::Node(n) => {
            let taints: Vec<String> = n
                .spec
                .as_ref()
                .and_then(|s| s.taints.clone())
                .unwrap_or_default()
                .iter()
                .map(|t| format!("{}:{}", t.key, t.effect))
                .collect();
            let ready = super::nodelifecycle::ready_condition(n)
                .map(|c| {
                    format!(
                        "{}/{} \"{}\"",
                        c.status,
                        c.reason.clone().unwrap_or_default(),
                        c.message.clone().unwrap_or_default()
                    )
                })
                .unwrap_or_default();
            format!("{id} Ready={ready} taints=[{}]", taints.join(", "))
        }
        Object::Namespace(ns) => {
            let st = ns.status.clone().unwrap_or_default();
            format!("{id} phase={}{}{}", st.phase.unwrap_or_default(), extras(m), conditions(&st.conditions))
        }
        Object::Other(u) if u.kind == "Endpoints" => {
            let subsets =
                u.rest.get("subsets").map(|s| serde_json::to_string(s).unwrap_or_default()).unwrap_or("<none>".into());
            format!("{id}{labels} subsets={subsets}")
        }
        _ => format!("{id}{}{labels}{}", owner(m), extras(m)),
    }
}
