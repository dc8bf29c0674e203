//! The taint eviction controller: deletes Pods from nodes tainted `NoExecute` unless they
//! tolerate the taint — at once when they do not tolerate it, after their smallest
//! `tolerationSeconds` when they tolerate it for a while, never when they tolerate it
//! without a time limit.
//!
//! Pods get `node.kubernetes.io/not-ready` and `node.kubernetes.io/unreachable` tolerations
//! for 300 s from the DefaultTolerationSeconds admission plugin, so a Pod on a node that
//! stops heartbeating is deleted about five minutes after the node was tainted: the
//! controller records `TaintManagerEviction` (`Marking for deletion Pod default/web-...`),
//! sets the Pod's `DisruptionTarget` condition (`DeletionByTaintManager`) and deletes it.
//! The owning ReplicaSet then creates a replacement on a healthy node — while the old Pod
//! stays `Terminating` until its kubelet comes back or someone force-deletes it. If the
//! taint goes away first, the scheduled deletion is cancelled (`Cancelling deletion of Pod`).

use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::core::v1::{Pod, PodCondition, Taint, Toleration};
use std::collections::BTreeMap;

pub const NAME: &str = "taint-eviction-controller";
/// The taint eviction controller writes with the node controller's service account (it has
/// no role of its own).
pub const SERVICE_ACCOUNT: &str = "node-controller";
pub const WATCH_LATENCY_MS: u64 = 2;

const SOURCE: EventSourceInfo = EventSourceInfo {
    component: "taint-eviction-controller",
    service_account: SERVICE_ACCOUNT,
    phase: Phase::Controllers,
};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Work {
    /// A deletion queued for `fire_ms`, created at `created_ms`.
    Pending { created_ms: u64, fire_ms: u64, token: u64 },
    /// Already fired (kept so the same Pod is not scheduled twice).
    Done,
}

#[derive(Debug, Default)]
pub struct TaintEvictionController {
    /// NoExecute taints per node, as last seen.
    tainted: BTreeMap<String, Vec<Taint>>,
    work: BTreeMap<String, Work>,
    next_token: u64,
}

fn no_execute_taints(taints: &[Taint]) -> Vec<Taint> {
    taints.iter().filter(|t| t.effect == "NoExecute").cloned().collect()
}

/// `Toleration.ToleratesTaint`.
pub fn tolerates(t: &Toleration, taint: &Taint) -> bool {
    if t.effect.as_deref().is_some_and(|e| !e.is_empty() && e != taint.effect) {
        return false;
    }
    if t.key.as_deref().is_some_and(|k| !k.is_empty() && k != taint.key) {
        return false;
    }
    match t.operator.as_deref().unwrap_or("") {
        "" | "Equal" => t.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or(""),
        "Exists" => true,
        _ => false,
    }
}

/// `GetMatchingTolerations`: whether every taint is tolerated, and the tolerations used.
fn matching_tolerations(taints: &[Taint], tolerations: &[Toleration]) -> (bool, Vec<Toleration>) {
    let mut used = Vec::new();
    for taint in taints {
        match tolerations.iter().find(|t| tolerates(t, taint)) {
            Some(t) => used.push(t.clone()),
            None => return (false, vec![]),
        }
    }
    (true, used)
}

/// The smallest `tolerationSeconds` in ms; None means forever.
fn min_toleration_ms(used: &[Toleration]) -> Option<u64> {
    if used.is_empty() {
        return Some(0);
    }
    let secs: Vec<i64> = used.iter().filter_map(|t| t.toleration_seconds).collect();
    if secs.is_empty() {
        return None;
    }
    Some(secs.iter().map(|s| (*s).max(0) as u64 * 1000).min().unwrap_or(0))
}

impl Controller for TaintEvictionController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            Object::Node(node) => {
                let name = node.metadata.name.clone().unwrap_or_default();
                let new = if ev.kind == EventType::Deleted {
                    vec![]
                } else {
                    no_execute_taints(node.spec.as_ref().and_then(|s| s.taints.as_deref()).unwrap_or(&[]))
                };
                let old = self.tainted.get(&name).cloned().unwrap_or_default();
                if old == new {
                    return;
                }
                if new.is_empty() {
                    self.tainted.remove(&name);
                } else {
                    self.tainted.insert(name.clone(), new);
                }
                cx.watch(
                    NAME,
                    Phase::Controllers,
                    ev,
                    &format!("node/{name}"),
                    WATCH_LATENCY_MS,
                    "the node's NoExecute taints changed",
                );
            }
            Object::Pod(pod) => {
                let key = key_of(&pod.metadata);
                if ev.kind == EventType::Deleted {
                    if matches!(self.work.get(&key), Some(Work::Pending { .. })) {
                        cx.watch(
                            NAME,
                            Phase::Controllers,
                            ev,
                            &format!("pod/{key}"),
                            WATCH_LATENCY_MS,
                            "a Pod scheduled for eviction is gone",
                        );
                    } else {
                        self.work.remove(&key);
                    }
                    return;
                }
                let node = node_name(pod).to_string();
                if node.is_empty() || !self.tainted.contains_key(&node) {
                    return;
                }
                let prev = match ev.prev.as_deref() {
                    Some(Object::Pod(p)) => Some(p.as_ref()),
                    _ => None,
                };
                let relevant = prev.is_none_or(|p| {
                    node_name(p) != node
                        || p.spec.as_ref().map(|s| &s.tolerations) != pod.spec.as_ref().map(|s| &s.tolerations)
                });
                if relevant {
                    cx.watch(
                        NAME,
                        Phase::Controllers,
                        ev,
                        &format!("pod/{key}"),
                        WATCH_LATENCY_MS,
                        "a Pod on a NoExecute-tainted node",
                    );
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        if let Some(node) = key.strip_prefix("node/") {
            let taints = self.tainted.get(node).cloned().unwrap_or_default();
            let on_node: Vec<std::sync::Arc<Pod>> =
                pods(cx.core, None).into_iter().filter(|p| node_name(p) == node).collect();
            for pod in on_node {
                self.process_pod(cx, &pod, &taints);
            }
        } else if let Some(pod_key) = key.strip_prefix("pod/") {
            let (ns, name) = split_key(pod_key);
            match get(cx.core, "Pod", ns, name) {
                Some(Object::Pod(pod)) => {
                    let taints = self.tainted.get(node_name(&pod)).cloned().unwrap_or_default();
                    if !taints.is_empty() {
                        self.process_pod(cx, &pod, &taints);
                    }
                }
                _ => self.cancel(cx, pod_key),
            }
        } else if let Some(rest) = key.strip_prefix("evict/") {
            let Some((pod_key, token)) = rest.rsplit_once('#') else { return };
            let token: u64 = token.parse().unwrap_or(0);
            if !matches!(self.work.get(pod_key), Some(Work::Pending { token: t, .. }) if *t == token) {
                return;
            }
            self.work.insert(pod_key.to_string(), Work::Done);
            evict(cx, pod_key);
        }
    }
}

impl TaintEvictionController {
    fn cancel(&mut self, cx: &mut Cx, pod_key: &str) {
        if let Some(Work::Pending { .. }) = self.work.remove(pod_key) {
            let (ns, name) = split_key(pod_key);
            cx.event(
                SOURCE,
                &pod_ref(ns, name),
                "Normal",
                "TaintManagerEviction",
                &format!("Cancelling deletion of Pod {pod_key}"),
            );
        }
    }

    /// `processPodOnNode`.
    fn process_pod(&mut self, cx: &mut Cx, pod: &Pod, taints: &[Taint]) {
        let key = key_of(&pod.metadata);
        if taints.is_empty() {
            self.cancel(cx, &key);
            return;
        }
        let tolerations = pod.spec.as_ref().and_then(|s| s.tolerations.clone()).unwrap_or_default();
        let (all, used) = matching_tolerations(taints, &tolerations);
        let now = cx.core.now;
        let taint_list = taints.iter().map(|t| format!("{}:{}", t.key, t.effect)).collect::<Vec<_>>().join(", ");
        let (fire, created) = if !all {
            self.cancel(cx, &key);
            (now, now)
        } else {
            match min_toleration_ms(&used) {
                None => {
                    self.cancel(cx, &key);
                    return;
                }
                Some(min) => {
                    let trigger = now + min;
                    match self.work.get(&key) {
                        Some(Work::Done) => return,
                        Some(Work::Pending { created_ms, .. }) => {
                            let created = *created_ms;
                            if created + min < trigger {
                                return;
                            }
                            self.cancel(cx, &key);
                            (created + min, created)
                        }
                        None => (trigger, now),
                    }
                }
            }
        };
        if matches!(self.work.get(&key), Some(Work::Done)) {
            return;
        }
        self.next_token += 1;
        let token = self.next_token;
        self.work.insert(key.clone(), Work::Pending { created_ms: created, fire_ms: fire, token });
        let delay = fire.saturating_sub(now);
        let obj = Object::from(pod.clone());
        let summary = if delay == 0 {
            format!("taint-eviction-controller: Pod {key} does not tolerate {taint_list}: delete it now")
        } else {
            format!(
                "taint-eviction-controller: Pod {key} tolerates {taint_list} for {}: delete it then",
                go_duration(delay as i64)
            )
        };
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&obj),
            summary,
            format!("node {} has NoExecute taint(s) {taint_list}", node_name(pod)),
            "no Pod on a node with a NoExecute taint it does not tolerate".into(),
            vec![format!("schedule the deletion of Pod {key} in {}", go_duration(delay as i64))],
            if delay == 0 { StepStatus::Warning } else { StepStatus::Ok },
        );
        cx.enqueue(NAME, &format!("evict/{key}#{token}"), delay);
    }
}

/// The event's involved object: a reference by namespace and name only, as upstream does.
fn pod_ref(ns: Option<&str>, name: &str) -> Object {
    let mut p = Pod::default();
    p.metadata.name = Some(name.to_string());
    p.metadata.namespace = ns.map(str::to_string);
    Object::from(p)
}

/// `deletePodHandler`: record the event, add the DisruptionTarget condition, delete the Pod.
fn evict(cx: &mut Cx, pod_key: &str) {
    let (ns, name) = split_key(pod_key);
    cx.event(
        SOURCE,
        &pod_ref(ns, name),
        "Normal",
        "TaintManagerEviction",
        &format!("Marking for deletion Pod {pod_key}"),
    );
    let Some(Object::Pod(pod)) = get(cx.core, "Pod", ns, name) else { return };
    if pod.metadata.deletion_timestamp.is_some() {
        return;
    }
    let obj = Object::from(pod.as_ref().clone());
    cx.decide(
        Phase::Controllers,
        NAME,
        Some(&obj),
        format!("taint-eviction-controller deletes Pod {pod_key}"),
        format!("the toleration of node {}'s NoExecute taint ran out", node_name(&pod)),
        "no Pod on a node with a NoExecute taint it does not tolerate".into(),
        vec![
            "add condition DisruptionTarget=True (DeletionByTaintManager: Taint manager: deleting due to NoExecute taint)".into(),
            format!("DELETE Pod {pod_key}"),
        ],
        StepStatus::Warning,
    );
    let mut p = (*pod).clone();
    let status = p.status.get_or_insert_with(Default::default);
    let conds = status.conditions.get_or_insert_with(Vec::new);
    let stamp = crate::apiserver::timestamp(cx.core.now);
    let cond = PodCondition {
        type_: "DisruptionTarget".into(),
        status: "True".into(),
        reason: Some("DeletionByTaintManager".into()),
        message: Some("Taint manager: deleting due to NoExecute taint".into()),
        last_transition_time: Some(stamp),
        observed_generation: p.metadata.generation,
        ..Default::default()
    };
    match conds.iter_mut().find(|c| c.type_ == "DisruptionTarget") {
        Some(c) => *c = cond,
        None => conds.push(cond),
    }
    let _ = cx.update_status(SERVICE_ACCOUNT, Object::from(p));
    let _ = cx.delete(SERVICE_ACCOUNT, "Pod", ns, name, None);
}
