//! The node lifecycle controller: notices kubelets that stopped heartbeating and taints
//! their nodes.
//!
//! A kubelet proves it is alive two ways: it renews its Lease `kube-node-lease/<node>`
//! (`spec.renewTime`, every 10 s) and it posts node status (the Ready condition's
//! `lastHeartbeatTime`). Every `node-monitor-period` (5 s) this controller looks at each
//! Node; when neither changed for `node-monitor-grace-period` (50 s since v1.32; 40 s
//! before), it sets the Ready, MemoryPressure, DiskPressure and PIDPressure conditions to
//! `Unknown` ("Kubelet stopped posting node status."), records a `NodeNotReady` Event, marks
//! the node's Pods not ready (so they leave Service endpoints), and taints the node
//! `node.kubernetes.io/unreachable` with effect `NoSchedule` (no new Pods) and `NoExecute`
//! (running Pods must go — see the taint eviction controller). A node whose kubelet reports
//! `Ready=False` gets the `not-ready` taints instead; a node Ready again loses them.
//!
//! What the lab expects from the kubelet side: a periodic heartbeat that renews the Lease
//! (or the Ready condition's `lastHeartbeatTime`) while the node is up, and that stops when
//! the node fails. Without heartbeats every node goes `Unknown` 50 s after it was first
//! seen, as it would in a real cluster.

use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::core::v1::{Node, NodeCondition, Pod, Taint};
use std::collections::{BTreeMap, BTreeSet};

pub const NAME: &str = "node-lifecycle-controller";
pub const SERVICE_ACCOUNT: &str = "node-controller";
/// `--node-monitor-period`.
pub const NODE_MONITOR_PERIOD_MS: u64 = 5_000;
/// `--node-monitor-grace-period` (50 s since v1.32).
pub const NODE_MONITOR_GRACE_PERIOD_MS: i64 = 50_000;
/// `--node-startup-grace-period`.
pub const NODE_STARTUP_GRACE_PERIOD_MS: i64 = 60_000;
/// How often the NoExecute tainting queue is worked (`nodeEvictionPeriod`).
pub const NODE_EVICTION_PERIOD_MS: u64 = 100;
pub const WATCH_LATENCY_MS: u64 = 2;
pub const LEASE_NAMESPACE: &str = "kube-node-lease";

pub const TAINT_NOT_READY: &str = "node.kubernetes.io/not-ready";
pub const TAINT_UNREACHABLE: &str = "node.kubernetes.io/unreachable";
pub const TAINT_UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";
pub const TAINT_MEMORY_PRESSURE: &str = "node.kubernetes.io/memory-pressure";
pub const TAINT_DISK_PRESSURE: &str = "node.kubernetes.io/disk-pressure";
pub const TAINT_PID_PRESSURE: &str = "node.kubernetes.io/pid-pressure";
pub const TAINT_NETWORK_UNAVAILABLE: &str = "node.kubernetes.io/network-unavailable";

const SOURCE: EventSourceInfo =
    EventSourceInfo { component: "node-controller", service_account: SERVICE_ACCOUNT, phase: Phase::Controllers };

/// The conditions the controller sets to Unknown.
const MONITORED: [&str; 4] = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];

#[derive(Clone, Debug)]
struct Health {
    probe_ms: i64,
    ready_heartbeat: Option<i64>,
    lease_renew: Option<i64>,
}

#[derive(Debug, Default)]
pub struct NodeLifecycleController {
    started: bool,
    health: BTreeMap<String, Health>,
    to_taint: BTreeSet<String>,
}

/// The NoSchedule taint a node condition maps to (`nodeConditionToTaintKeyStatusMap`).
fn condition_taint(c: &NodeCondition) -> Option<&'static str> {
    match (c.type_.as_str(), c.status.as_str()) {
        ("Ready", "False") => Some(TAINT_NOT_READY),
        ("Ready", "Unknown") => Some(TAINT_UNREACHABLE),
        ("MemoryPressure", "True") => Some(TAINT_MEMORY_PRESSURE),
        ("DiskPressure", "True") => Some(TAINT_DISK_PRESSURE),
        ("PIDPressure", "True") => Some(TAINT_PID_PRESSURE),
        ("NetworkUnavailable", "True") => Some(TAINT_NETWORK_UNAVAILABLE),
        _ => None,
    }
}

const CONDITION_TAINT_KEYS: [&str; 6] = [
    TAINT_NOT_READY,
    TAINT_UNREACHABLE,
    TAINT_MEMORY_PRESSURE,
    TAINT_DISK_PRESSURE,
    TAINT_PID_PRESSURE,
    TAINT_NETWORK_UNAVAILABLE,
];

pub fn ready_condition(node: &Node) -> Option<&NodeCondition> {
    node.status.as_ref()?.conditions.as_ref()?.iter().find(|c| c.type_ == "Ready")
}

fn taints(node: &Node) -> Vec<Taint> {
    node.spec.as_ref().and_then(|s| s.taints.clone()).unwrap_or_default()
}

fn has_taint(node: &Node, key: &str, effect: &str) -> bool {
    taints(node).iter().any(|t| t.key == key && t.effect == effect)
}

fn taint_text(t: &Taint) -> String {
    format!("{}:{}", t.key, t.effect)
}

impl Controller for NodeLifecycleController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        // The monitor loop starts with the controller (its first event).
        if !self.started {
            self.started = true;
            cx.enqueue_periodic(NAME, "monitor", NODE_MONITOR_PERIOD_MS);
        }
        let Object::Node(node) = &*ev.object else { return };
        if ev.kind == EventType::Deleted {
            self.health.remove(node.metadata.name.as_deref().unwrap_or(""));
            return;
        }
        // Conditions or cordoning changed: recompute the NoSchedule taints.
        let changed = match ev.prev.as_deref() {
            Some(Object::Node(prev)) => {
                prev.status
                    .as_ref()
                    .and_then(|s| s.conditions.as_ref())
                    .map(|c| c.iter().map(|x| (x.type_.clone(), x.status.clone())).collect::<Vec<_>>())
                    != node
                        .status
                        .as_ref()
                        .and_then(|s| s.conditions.as_ref())
                        .map(|c| c.iter().map(|x| (x.type_.clone(), x.status.clone())).collect::<Vec<_>>())
                    || prev.spec.as_ref().and_then(|s| s.unschedulable)
                        != node.spec.as_ref().and_then(|s| s.unschedulable)
            }
            _ => true,
        };
        if changed {
            let key = format!("noschedule/{}", node.metadata.name.as_deref().unwrap_or(""));
            if let Some(wanted) = self.no_schedule_diff(node) {
                if wanted {
                    cx.watch(
                        NAME,
                        Phase::Controllers,
                        ev,
                        &key,
                        WATCH_LATENCY_MS,
                        "node conditions changed: update the NoSchedule taints",
                    );
                }
            }
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        if key == "monitor" {
            self.monitor(cx);
            cx.enqueue_periodic(NAME, "monitor", NODE_MONITOR_PERIOD_MS);
        } else if key == "noexecute" {
            self.no_execute_tainting_pass(cx);
        } else if let Some(node) = key.strip_prefix("noschedule/") {
            self.no_schedule_tainting_pass(cx, node);
        }
    }
}

impl NodeLifecycleController {
    /// Whether the node's condition taints differ from what its conditions call for.
    fn no_schedule_diff(&self, node: &Node) -> Option<bool> {
        let (add, del) = no_schedule_changes(node);
        Some(!add.is_empty() || !del.is_empty())
    }

    fn no_schedule_tainting_pass(&mut self, cx: &mut Cx, name: &str) {
        let Some(Object::Node(node)) = get(cx.core, "Node", None, name) else { return };
        let (add, del) = no_schedule_changes(&node);
        if add.is_empty() && del.is_empty() {
            return;
        }
        swap_taints(cx, &node, add, del, "the node's conditions");
    }

    fn monitor(&mut self, cx: &mut Cx) {
        let now = cx.core.now as i64;
        for o in list_shared(cx.core, "Node", None) {
            let Object::Node(node) = &*o else { continue };
            let name = node.metadata.name.clone().unwrap_or_default();
            let ready = ready_condition(node);
            let heartbeat = ready.and_then(|c| c.last_heartbeat_time.as_ref()).map(time_ms);
            let lease_renew =
                get_shared(cx.core, "Lease", Some(LEASE_NAMESPACE), &name).and_then(|l| lease_renew_time_ms(&l));
            let created = node.metadata.creation_timestamp.as_ref().map(time_ms).unwrap_or(0);
            let h = self.health.entry(name.clone()).or_insert(Health {
                probe_ms: created,
                ready_heartbeat: heartbeat,
                lease_renew: None,
            });
            if h.ready_heartbeat != heartbeat {
                h.ready_heartbeat = heartbeat;
                h.probe_ms = now;
            }
            if lease_renew.is_some() && (h.lease_renew.is_none() || h.lease_renew < lease_renew) {
                h.lease_renew = lease_renew;
                h.probe_ms = now;
            }
            let grace = if ready.is_none() { NODE_STARTUP_GRACE_PERIOD_MS } else { NODE_MONITOR_GRACE_PERIOD_MS };
            let probe = h.probe_ms;
            let observed_status = ready.map_or("Unknown".to_string(), |c| c.status.clone());
            let mut current_status = observed_status.clone();
            if now > probe + grace {
                let mut updated = (**node).clone();
                let st = updated.status.get_or_insert_with(Default::default);
                let conds = st.conditions.get_or_insert_with(Vec::new);
                let stamp = crate::apiserver::timestamp(cx.core.now);
                for t in MONITORED {
                    match conds.iter_mut().find(|c| c.type_ == t) {
                        None => conds.push(NodeCondition {
                            type_: t.into(),
                            status: "Unknown".into(),
                            reason: Some("NodeStatusNeverUpdated".into()),
                            message: Some("Kubelet never posted node status.".into()),
                            last_heartbeat_time: node.metadata.creation_timestamp.clone(),
                            last_transition_time: Some(stamp.clone()),
                        }),
                        Some(c) if c.status != "Unknown" => {
                            c.status = "Unknown".into();
                            c.reason = Some("NodeStatusUnknown".into());
                            c.message = Some("Kubelet stopped posting node status.".into());
                            c.last_transition_time = Some(stamp.clone());
                        }
                        _ => {}
                    }
                }
                if ready_condition(&updated) != ready {
                    current_status = "Unknown".into();
                    let silent = go_duration(now - probe);
                    let obj = (*o).clone();
                    cx.decide(
                        Phase::Controllers,
                        NAME,
                        Some(&obj),
                        format!("node-lifecycle-controller: no heartbeat from {name} for {silent}, Ready becomes Unknown"),
                        format!("last heartbeat seen {silent} ago (grace period {})", go_duration(grace)),
                        "a heartbeat within the grace period".into(),
                        vec![
                            "set Ready, MemoryPressure, DiskPressure, PIDPressure to Unknown (NodeStatusUnknown: Kubelet stopped posting node status.)".into(),
                            format!("mark the Pods on {name} not ready"),
                            format!("queue {name} for the {TAINT_UNREACHABLE}:NoExecute taint"),
                        ],
                        StepStatus::Warning,
                    );
                    let _ = cx.update_status(SERVICE_ACCOUNT, Object::from(updated.clone()));
                }
            }
            if current_status != "True" && observed_status == "True" {
                let obj = (*o).clone();
                cx.event(SOURCE, &obj, "Normal", "NodeNotReady", &format!("Node {name} status is now: NodeNotReady"));
                mark_pods_not_ready(cx, &name);
            }
            // Taint-based eviction.
            let Some(current) = get_shared(cx.core, "Node", None, &name) else { continue };
            let Object::Node(node) = &*current else { continue };
            match current_status.as_str() {
                "False" => {
                    if has_taint(node, TAINT_UNREACHABLE, "NoExecute") {
                        swap_taints(
                            cx,
                            node,
                            vec![no_execute(TAINT_NOT_READY)],
                            vec![no_execute(TAINT_UNREACHABLE)],
                            "Ready=False",
                        );
                    } else if !has_taint(node, TAINT_NOT_READY, "NoExecute") {
                        self.mark_for_tainting(cx, &name);
                    }
                }
                "Unknown" => {
                    if has_taint(node, TAINT_NOT_READY, "NoExecute") {
                        swap_taints(
                            cx,
                            node,
                            vec![no_execute(TAINT_UNREACHABLE)],
                            vec![no_execute(TAINT_NOT_READY)],
                            "Ready=Unknown",
                        );
                    } else if !has_taint(node, TAINT_UNREACHABLE, "NoExecute") {
                        self.mark_for_tainting(cx, &name);
                    }
                }
                "True" => {
                    let stale: Vec<Taint> = [TAINT_NOT_READY, TAINT_UNREACHABLE]
                        .iter()
                        .filter(|k| has_taint(node, k, "NoExecute"))
                        .map(|k| no_execute(k))
                        .collect();
                    if !stale.is_empty() {
                        swap_taints(cx, node, vec![], stale, "Ready=True again");
                    }
                    self.to_taint.remove(&name);
                }
                _ => {}
            }
        }
    }

    fn mark_for_tainting(&mut self, cx: &mut Cx, node: &str) {
        if self.to_taint.insert(node.to_string()) {
            cx.enqueue(NAME, "noexecute", NODE_EVICTION_PERIOD_MS);
        }
    }

    /// `doNoExecuteTaintingPass`: taints the queued nodes per their Ready condition.
    fn no_execute_tainting_pass(&mut self, cx: &mut Cx) {
        for name in std::mem::take(&mut self.to_taint) {
            let Some(Object::Node(node)) = get(cx.core, "Node", None, &name) else { continue };
            let status = ready_condition(&node).map(|c| c.status.clone());
            let (add, remove) = match status.as_deref() {
                Some("False") => (TAINT_NOT_READY, TAINT_UNREACHABLE),
                Some("Unknown") => (TAINT_UNREACHABLE, TAINT_NOT_READY),
                _ => continue,
            };
            if has_taint(&node, add, "NoExecute") {
                continue;
            }
            let del = if has_taint(&node, remove, "NoExecute") { vec![no_execute(remove)] } else { vec![] };
            swap_taints(cx, &node, vec![no_execute(add)], del, &format!("Ready={}", status.unwrap_or_default()));
        }
    }
}

fn no_execute(key: &str) -> Taint {
    Taint { key: key.into(), effect: "NoExecute".into(), value: None, time_added: None }
}

/// The NoSchedule condition taints to add and remove.
fn no_schedule_changes(node: &Node) -> (Vec<Taint>, Vec<Taint>) {
    let mut wanted: Vec<Taint> = node
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .into_iter()
        .flatten()
        .filter_map(condition_taint)
        .map(|k| Taint { key: k.into(), effect: "NoSchedule".into(), value: None, time_added: None })
        .collect();
    if node.spec.as_ref().and_then(|s| s.unschedulable).unwrap_or(false) {
        wanted.push(Taint {
            key: TAINT_UNSCHEDULABLE.into(),
            effect: "NoSchedule".into(),
            value: None,
            time_added: None,
        });
    }
    let current: Vec<Taint> = taints(node)
        .into_iter()
        .filter(|t| {
            t.effect == "NoSchedule" && (t.key == TAINT_UNSCHEDULABLE || CONDITION_TAINT_KEYS.contains(&t.key.as_str()))
        })
        .collect();
    let add =
        wanted.iter().filter(|w| !current.iter().any(|c| c.key == w.key && c.effect == w.effect)).cloned().collect();
    let del =
        current.iter().filter(|c| !wanted.iter().any(|w| w.key == c.key && w.effect == c.effect)).cloned().collect();
    (add, del)
}

/// `SwapNodeControllerTaint`: adds taints (stamped with `timeAdded`) and removes others.
fn swap_taints(cx: &mut Cx, node: &Node, add: Vec<Taint>, del: Vec<Taint>, why: &str) {
    let name = node.metadata.name.clone().unwrap_or_default();
    let mut updated = node.clone();
    let spec = updated.spec.get_or_insert_with(Default::default);
    let list = spec.taints.get_or_insert_with(Vec::new);
    list.retain(|t| !del.iter().any(|d| d.key == t.key && d.effect == t.effect));
    let stamp = crate::apiserver::timestamp(cx.core.now);
    for mut t in add.clone() {
        t.time_added = Some(stamp.clone());
        match list.iter_mut().find(|x| x.key == t.key && x.effect == t.effect) {
            Some(x) => *x = t,
            None => list.push(t),
        }
    }
    if list.is_empty() {
        spec.taints = None;
    }
    let mut actions: Vec<String> = add.iter().map(|t| format!("add taint {}", taint_text(t))).collect();
    actions.extend(del.iter().map(|t| format!("remove taint {}", taint_text(t))));
    let obj = Object::from(node.clone());
    cx.decide(
        Phase::Controllers,
        NAME,
        Some(&obj),
        format!("node-lifecycle-controller updates the taints of {name}: {}", actions.join(", ")),
        why.to_string(),
        "taints that match the node's conditions".into(),
        actions,
        if add.is_empty() { StepStatus::Ok } else { StepStatus::Warning },
    );
    let _ = cx.update(SERVICE_ACCOUNT, Object::from(updated));
}

/// `MarkPodsNotReady`: the Ready condition of every Pod on the node becomes False.
fn mark_pods_not_ready(cx: &mut Cx, node: &str) {
    let on_node: Vec<Pod> =
        pods(cx.core, None).into_iter().filter(|p| node_name(p) == node).map(std::sync::Arc::unwrap_or_clone).collect();
    let stamp = crate::apiserver::timestamp(cx.core.now);
    for pod in on_node {
        let mut p = pod.clone();
        let Some(conds) = p.status.as_mut().and_then(|s| s.conditions.as_mut()) else { continue };
        let Some(c) = conds.iter_mut().find(|c| c.type_ == "Ready") else { continue };
        if c.status == "False" {
            continue;
        }
        c.status = "False".into();
        c.last_transition_time = Some(stamp.clone());
        let resp = cx.update_status(SERVICE_ACCOUNT, Object::from(p.clone()));
        if resp.error.as_ref().is_some_and(|e| e.code == 404) {
            continue;
        }
        cx.event(SOURCE, &Object::from(p), "Warning", "NodeNotReady", "Node is not ready");
    }
}

/// A Lease's `spec.renewTime` as logical milliseconds.
fn lease_renew_time_ms(lease: &Object) -> Option<i64> {
    let renew = match lease {
        // Leases are stored untyped: read the field without rendering the whole object.
        Object::Other(u) => {
            u.rest.get("spec").and_then(|s| s.get("renewTime")).and_then(|v| v.as_str()).map(str::to_string)
        }
        other => other.to_json().pointer("/spec/renewTime").and_then(|v| v.as_str()).map(str::to_string),
    };
    renew.as_deref().and_then(parse_time_ms)
}
