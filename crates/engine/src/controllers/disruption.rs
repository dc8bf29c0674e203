//! The disruption controller (`disruption-controller` of kube-controller-manager): keeps the
//! `status` of every PodDisruptionBudget (policy/v1) current, which the Eviction API reads.
//!
//! A sync of a budget:
//! - selects its Pods (`spec.selector` in its namespace; a missing selector selects nothing,
//!   `{}` every Pod);
//! - computes the expected and desired counts as upstream's `getExpectedPodCount`:
//!   `maxUnavailable` (an integer or a percentage) is taken from the Pods' controllers' scale
//!   (`getExpectedScale`: a ReplicaSet owned by a Deployment counts the Deployment's
//!   `spec.replicas`, a ReplicaSet, StatefulSet or ReplicationController its own; each
//!   controller once), `desiredHealthy = expected - maxUnavailable` (rounded up, at least 0);
//!   an integer `minAvailable` is `desiredHealthy` itself with `expected` the number of Pods
//!   selected; a percentage `minAvailable` is a share of the controllers' scale, rounded up;
//! - keeps the `status.disruptedPods` entries of Pods that exist and are not yet being deleted
//!   for at most two minutes (`DeletionTimeout`) after the eviction that wrote them, and
//!   queues a recheck for when the first one expires;
//! - counts `currentHealthy`: Pods Ready, not being deleted and not in `disruptedPods`;
//! - writes `status`: `observedGeneration`, `disruptedPods`, `disruptionsAllowed =
//!   currentHealthy - desiredHealthy` (0 when negative or when no Pod is expected),
//!   `currentHealthy`, `desiredHealthy`, `expectedPods`, and the condition
//!   `DisruptionAllowed` (`True`/`SufficientPods` or `False`/`InsufficientPods`), only when
//!   something changed.
//!
//! A Pod selected by a percentage or `maxUnavailable` budget whose controller cannot be found
//! fails the sync: the controller records the Warning `NoControllers` (`found no controllers
//! for pod "web"`) and `CalculateExpectedPodCountFailed`, and fails safe: `disruptionsAllowed: 0`
//! with the condition `False`/`SyncFailed`. A budget that selects no Pod gets the Normal event
//! `NoPods` (`No matching pods found`).
//!
//! The controller looks at Pods only when a budget of their namespace selects them, so a
//! cluster without budgets records nothing of it.

use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::labels;
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::api::policy::v1::{PodDisruptionBudgetSpec, PodDisruptionBudgetStatus};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

pub const NAME: &str = "disruption-controller";
pub const SERVICE_ACCOUNT: &str = "disruption-controller";
/// From a watch event to the sync of the budget.
pub const WATCH_LATENCY_MS: u64 = 2;
/// How long an eviction's entry in `status.disruptedPods` keeps the Pod out of the healthy
/// count while its deletion is on the way (`DeletionTimeout`, 2 minutes).
pub const DELETION_TIMEOUT_MS: u64 = 2 * 60 * 1000;

const SOURCE: EventSourceInfo =
    EventSourceInfo { component: "controllermanager", service_account: SERVICE_ACCOUNT, phase: Phase::Controllers };

#[derive(Debug, Default)]
pub struct DisruptionController;

/// A PodDisruptionBudget's spec, read from the stored (unstructured) object.
pub fn spec_of(pdb: &Object) -> PodDisruptionBudgetSpec {
    serde_json::from_value(pdb.to_json().get("spec").cloned().unwrap_or(json!({}))).unwrap_or_default()
}

/// A PodDisruptionBudget's status (zeros when it has none yet).
pub fn status_of(pdb: &Object) -> PodDisruptionBudgetStatus {
    serde_json::from_value(pdb.to_json().get("status").cloned().unwrap_or(json!({}))).unwrap_or_default()
}

pub(crate) fn is_pdb(o: &Object) -> bool {
    o.kind() == "PodDisruptionBudget" && o.api_version_str() == "policy/v1"
}

/// The budgets of `namespace`.
pub fn budgets(core: &crate::sim::Core, namespace: &str) -> Vec<Arc<Object>> {
    list_shared(core, "PodDisruptionBudget", Some(namespace)).into_iter().filter(|o| is_pdb(o)).collect()
}

/// Whether the budget's selector selects `pod` (the controller's reading: `{}` selects all).
fn selects(spec: &PodDisruptionBudgetSpec, pod: &Pod) -> bool {
    labels::matches(spec.selector.as_ref(), pod.metadata.labels.as_ref())
}

/// What a sync computes for one budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Computed {
    pub expected: i32,
    pub desired_healthy: i32,
    pub current_healthy: i32,
    pub disruptions_allowed: i32,
    /// The entries kept, by Pod name, with their eviction time as stored.
    pub disrupted: BTreeMap<String, String>,
    /// When the first kept entry expires (cluster ms).
    pub recheck_ms: Option<u64>,
}

/// `getExpectedScale`: the sum of the scale of the controllers of `pods`, each counted once.
fn expected_scale(core: &crate::sim::Core, pods: &[Arc<Pod>]) -> Result<i32, String> {
    let mut scales: BTreeMap<String, i32> = BTreeMap::new();
    for pod in pods {
        let ns = pod.metadata.namespace.as_deref();
        let found = controller_of(&pod.metadata).and_then(|r| {
            let owner = resolve_owner(core, ns, r)?;
            let replicas = |o: &Object| o.to_json().pointer("/spec/replicas").and_then(Value::as_i64).unwrap_or(1);
            match r.kind.as_str() {
                "ReplicaSet" => {
                    // A ReplicaSet of a Deployment: the Deployment's scale.
                    if let Some(d) = controller_of(owner.meta())
                        .filter(|d| d.kind == "Deployment")
                        .and_then(|d| resolve_owner(core, ns, d))
                    {
                        return Some((d.meta().uid.clone().unwrap_or_default(), replicas(&d)));
                    }
                    Some((r.uid.clone(), replicas(&owner)))
                }
                "StatefulSet" | "ReplicationController" => Some((r.uid.clone(), replicas(&owner))),
                _ => None,
            }
        });
        match found {
            Some((uid, n)) => {
                scales.insert(uid, n as i32);
            }
            None => {
                return Err(format!(
                    "found no controllers for pod {}",
                    crate::errors::go_quote(pod.metadata.name.as_deref().unwrap_or(""))
                ))
            }
        }
    }
    Ok(scales.values().sum())
}

/// One sync's arithmetic for `pdb` at `now_ms` (upstream `getExpectedPodCount`,
/// `buildDisruptedPodMap`, `countHealthyPods` and `updatePdbStatus`).
pub fn compute(core: &crate::sim::Core, pdb: &Object, now_ms: u64) -> Result<(Vec<Arc<Pod>>, Computed), String> {
    let spec = spec_of(pdb);
    let ns = pdb.namespace().unwrap_or("default");
    let selected: Vec<Arc<Pod>> = pods(core, Some(ns)).into_iter().filter(|p| selects(&spec, p)).collect();
    let (expected, desired) = match (&spec.max_unavailable, &spec.min_available) {
        (Some(max), _) => {
            let expected = expected_scale(core, &selected)?;
            let max = scaled_value(Some(max), expected, true);
            (expected, (expected - max).max(0))
        }
        (None, Some(IntOrString::Int(n))) => (selected.len() as i32, *n),
        (None, Some(min @ IntOrString::String(_))) => {
            let expected = expected_scale(core, &selected)?;
            (expected, scaled_value(Some(min), expected, true))
        }
        (None, None) => (0, 0),
    };
    let stored = status_of(pdb).disrupted_pods.unwrap_or_default();
    let mut disrupted = BTreeMap::new();
    let mut recheck: Option<u64> = None;
    for pod in &selected {
        let name = pod.metadata.name.clone().unwrap_or_default();
        if pod.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let Some(t) = stored.get(&name) else { continue };
        let at = time_ms(t).max(0) as u64;
        let expires = at + DELETION_TIMEOUT_MS;
        if expires < now_ms {
            continue;
        }
        recheck = Some(recheck.map_or(expires, |r| r.min(expires)));
        let text = serde_json::to_value(t).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        disrupted.insert(name, text);
    }
    let current = selected
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter(|p| !disrupted.contains_key(p.metadata.name.as_deref().unwrap_or("")))
        .filter(|p| is_pod_ready(p))
        .count() as i32;
    let mut allowed = current - desired;
    if expected <= 0 || allowed <= 0 {
        allowed = 0;
    }
    Ok((
        selected,
        Computed {
            expected,
            desired_healthy: desired,
            current_healthy: current,
            disruptions_allowed: allowed,
            disrupted,
            recheck_ms: recheck,
        },
    ))
}

/// `UpdateDisruptionAllowedCondition` (or the fail-safe's `SyncFailed`): the condition list
/// with `DisruptionAllowed` set, its `lastTransitionTime` kept when its status is unchanged.
pub fn set_condition(
    conditions: Option<&Value>,
    allowed: bool,
    reason: &str,
    message: &str,
    generation: i64,
    now_ms: u64,
) -> Value {
    let mut list: Vec<Value> = conditions.and_then(Value::as_array).cloned().unwrap_or_default();
    let status = if allowed { "True" } else { "False" };
    let now = serde_json::to_value(crate::apiserver::timestamp(now_ms)).unwrap_or(Value::Null);
    match list.iter_mut().find(|c| c["type"] == "DisruptionAllowed") {
        Some(c) => {
            if c["status"] != status {
                c["lastTransitionTime"] = now;
            }
            c["status"] = json!(status);
            c["reason"] = json!(reason);
            c["message"] = json!(message);
            c["observedGeneration"] = json!(generation);
        }
        None => list.push(json!({
            "lastTransitionTime": now,
            "message": message,
            "observedGeneration": generation,
            "reason": reason,
            "status": status,
            "type": "DisruptionAllowed",
        })),
    }
    Value::Array(list)
}

impl Controller for DisruptionController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            o if is_pdb(o) => {
                if ev.kind == EventType::Deleted {
                    return;
                }
                let reason = if ev.kind == EventType::Added {
                    "a new PodDisruptionBudget: count the Pods it selects"
                } else {
                    "the PodDisruptionBudget changed: count its Pods again"
                };
                cx.watch(NAME, Phase::Controllers, ev, &key_of(o.meta()), WATCH_LATENCY_MS, reason);
            }
            Object::Pod(pod) => {
                let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
                let prev = match ev.prev.as_deref() {
                    Some(Object::Pod(p)) => Some(p),
                    _ => None,
                };
                for pdb in budgets(cx.core, ns) {
                    let spec = spec_of(&pdb);
                    if !selects(&spec, pod) && !prev.is_some_and(|p| selects(&spec, p)) {
                        continue;
                    }
                    let reason = match ev.kind {
                        EventType::Added => "a Pod this budget selects was created",
                        EventType::Deleted => "a Pod this budget selects is gone",
                        EventType::Modified => "a Pod this budget selects changed",
                    };
                    cx.watch(NAME, Phase::Controllers, ev, &key_of(pdb.meta()), WATCH_LATENCY_MS, reason);
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        let (ns, name) = split_key(key);
        let Some(pdb) = get(cx.core, "PodDisruptionBudget", ns, name).filter(is_pdb) else { return };
        let now = cx.core.now;
        let generation = pdb.meta().generation.unwrap_or(0);
        let mut v = pdb.to_json();
        let old_status = v.get("status").cloned().unwrap_or(json!({}));
        let computed = compute(cx.core, &pdb, now);
        let (summary, observed, new_status, recheck) = match computed {
            Ok((selected, c)) => {
                if selected.is_empty() {
                    cx.event(SOURCE, &pdb, "Normal", "NoPods", "No matching pods found");
                }
                let mut s = json!({
                    "currentHealthy": c.current_healthy,
                    "desiredHealthy": c.desired_healthy,
                    "disruptionsAllowed": c.disruptions_allowed,
                    "expectedPods": c.expected,
                    "observedGeneration": generation,
                });
                if !c.disrupted.is_empty() {
                    s["disruptedPods"] = json!(c.disrupted);
                }
                let (ok, reason) =
                    if c.disruptions_allowed > 0 { (true, "SufficientPods") } else { (false, "InsufficientPods") };
                s["conditions"] = set_condition(old_status.get("conditions"), ok, reason, "", generation, now);
                (
                    format!(
                        "disruption-controller: {key} allows {} disruption(s) ({} of {} healthy, {} needed)",
                        c.disruptions_allowed, c.current_healthy, c.expected, c.desired_healthy
                    ),
                    format!(
                        "{} Pod(s) selected, {} healthy (Ready, not terminating, not just evicted); {} expected",
                        selected.len(),
                        c.current_healthy,
                        c.expected
                    ),
                    s,
                    c.recheck_ms,
                )
            }
            Err(e) => {
                cx.event(SOURCE, &pdb, "Warning", "NoControllers", &e);
                cx.event(
                    SOURCE,
                    &pdb,
                    "Warning",
                    "CalculateExpectedPodCountFailed",
                    &format!("Failed to calculate the number of expected pods: {e}"),
                );
                // failSafe: no disruption allowed.
                let mut s = old_status.clone();
                if !s.is_object() {
                    s = json!({});
                }
                s["disruptionsAllowed"] = json!(0);
                s["conditions"] = set_condition(old_status.get("conditions"), false, "SyncFailed", &e, generation, now);
                (format!("disruption-controller: {key} fails safe: {e}"), e, s, None)
            }
        };
        if let Some(at) = recheck {
            cx.enqueue(NAME, key, at.saturating_sub(now).max(1));
        }
        if same_status(&old_status, &new_status) {
            return;
        }
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&pdb),
            summary,
            observed,
            "disruptionsAllowed = currentHealthy - desiredHealthy, never below 0".into(),
            vec![format!("PUT PodDisruptionBudget {name}/status")],
            StepStatus::Ok,
        );
        v["status"] = new_status;
        let Ok(obj) = Object::from_json("policy/v1", "PodDisruptionBudget", v) else { return };
        let resp = cx.update_status(SERVICE_ACCOUNT, obj);
        if resp.error.is_some() {
            cx.requeue_rate_limited(NAME, key);
        } else {
            cx.forget(NAME, key);
        }
    }
}

/// Whether two statuses are equal once the condition's times are set aside (upstream compares
/// the counts, the map and the generation; a condition rewritten with the same status is the
/// same).
fn same_status(old: &Value, new: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(list) = v.get_mut("conditions").and_then(Value::as_array_mut) {
            for c in list {
                if let Some(m) = c.as_object_mut() {
                    m.remove("lastTransitionTime");
                }
            }
        }
        v
    };
    strip(old) == strip(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pdb(spec: Value) -> Object {
        Object::from_json(
            "policy/v1",
            "PodDisruptionBudget",
            json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                "metadata": {"name": "web", "namespace": "default", "generation": 1, "uid": "pdb-uid"},
                "spec": spec}),
        )
        .unwrap()
    }

    #[test]
    fn conditions_keep_their_transition_time_while_the_status_holds() {
        let first = set_condition(None, true, "SufficientPods", "", 1, 1000);
        assert_eq!(first[0]["status"], "True");
        assert_eq!(first[0]["reason"], "SufficientPods");
        let same = set_condition(Some(&first), true, "SufficientPods", "", 1, 9000);
        assert_eq!(same[0]["lastTransitionTime"], first[0]["lastTransitionTime"]);
        let flipped = set_condition(Some(&first), false, "InsufficientPods", "", 1, 9000);
        assert_ne!(flipped[0]["lastTransitionTime"], first[0]["lastTransitionTime"]);
        assert!(same_status(&json!({"conditions": first}), &json!({"conditions": same})));
    }

    #[test]
    fn specs_read_int_and_percent() {
        let s = spec_of(&pdb(json!({"minAvailable": 2, "selector": {"matchLabels": {"app": "web"}}})));
        assert_eq!(s.min_available, Some(IntOrString::Int(2)));
        let s = spec_of(&pdb(json!({"maxUnavailable": "50%"})));
        assert_eq!(s.max_unavailable, Some(IntOrString::String("50%".into())));
        assert!(s.selector.is_none());
    }

    /// A Deployment of 3 and a budget of minAvailable 2: 1 disruption allowed once all are
    /// Ready; a budget selecting nothing allows none.
    #[test]
    fn a_budget_counts_ready_pods_and_allows_the_surplus() {
        let out = crate::controllers::testkit::run(
            "nodes:\n- name: worker-1\n- name: worker-2\n",
            "@@limit 20s\n@0 apply\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.29\n@5s apply\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels: {app: web}\n@6s apply\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: half\nspec:\n  maxUnavailable: 50%\n  selector:\n    matchLabels: {app: web}\n@7s apply\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: none\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels: {app: db}\n",
        );
        let pdbs: String = out
            .lines()
            .filter(|l| l.contains("disruption") || l.contains("PodDisruptionBudget/") || l.contains("NoPods"))
            .map(|l| format!("{}\n", l.trim()))
            .collect();
        expect_test::expect![[r#"
            5.002s decide  disruption-controller: default/web allows 1 disruption(s) (3 of 3 healthy, 2 needed)
            6.002s decide  disruption-controller: default/half allows 2 disruption(s) (3 of 3 healthy, 1 needed)
            7.002s event   Normal NoPods PodDisruptionBudget/default/none: No matching pods found
            7.002s decide  disruption-controller: default/none allows 0 disruption(s) (0 of 0 healthy, 1 needed)
            7.004s event   Normal NoPods PodDisruptionBudget/default/none: No matching pods found
            7.000s Normal NoPods PodDisruptionBudget/none (x2) from controllermanager: No matching pods found
        "#]]
        .assert_eq(&pdbs);
    }
}
