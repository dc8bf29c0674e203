//! The HorizontalPodAutoscaler controller (upstream `pkg/controller/podautoscaler`,
//! `HorizontalController`, run as `horizontal-pod-autoscaler-controller` with the service
//! account `horizontal-pod-autoscaler`; its events come from `horizontal-pod-autoscaler`), as
//! it behaves on a kind cluster: **kind installs no metrics-server**, so the resource metrics
//! API (`metrics.k8s.io`) and the custom metrics API (`custom.metrics.k8s.io`) are not served.
//!
//! A sync (upstream `reconcileAutoscaler`):
//! 1. reads the scale of `spec.scaleTargetRef` (a Deployment, ReplicaSet, StatefulSet or
//!    ReplicationController: the kinds with a `scale` subresource). When that fails:
//!    `FailedGetScale` and the condition `AbleToScale False FailedGetScale`. Otherwise
//!    `AbleToScale True SucceededGetScale`.
//! 2. with the target at zero replicas (and `minReplicas` not zero): `ScalingActive False
//!    ScalingDisabled`, nothing else. Above `maxReplicas` or below `minReplicas` (default 1):
//!    the target is scaled to that bound without reading any metric, through the `scale`
//!    subresource (`SuccessfulRescale` "New size: N; reason: Current number of replicas below
//!    Spec.MinReplicas", `AbleToScale True SucceededRescale`, `status.lastScaleTime`).
//! 3. otherwise computes the replica count from each metric. Every metric fails here, as on
//!    kind: a `Resource` or `ContainerResource` metric with `FailedGetResourceMetric` /
//!    `FailedGetContainerResourceMetric` ("... unable to fetch metrics from resource metrics
//!    API: the server could not find the requested resource (get pods.metrics.k8s.io)"), a
//!    `Pods` or `Object` metric with `FailedGetPodsMetric` / `FailedGetObjectMetric` ("no custom
//!    metrics API (custom.metrics.k8s.io) registered"). The first failure sets `ScalingActive
//!    False <reason>`; the status gets `currentReplicas`, an empty entry per metric in
//!    `currentMetrics` (what `kubectl get hpa` shows as `<unknown>`), and the sync ends with
//!    `FailedComputeMetricsReplicas` "invalid metrics (N invalid out of N), first error is: ...".
//!    The target is not scaled.
//!
//! The status is written only when it changed (`updateStatusIfNeeded`).
//!
//! **Timing.** Upstream's work queue adds every key with the resync period (15 s,
//! `--horizontal-pod-autoscaler-sync-period`) as its delay, the first time included, and adds
//! it again after each sync: an HPA is first reconciled 15 s after it was created, then every
//! 15 s. The first sync keeps the lab's run going; later ones are periodic work, and a sync
//! that repeats the previous one's outcome (the same warnings again, counted up in the Events'
//! `count`, and no status change) is a routine write that does not keep the run alive.
//!
//! Not modelled: scaling from real metrics (the lab has no CPU usage to measure; a cluster
//! with metrics-server would compute `ceil(current * usage / target)` within the bounds and
//! the `behavior` policies), `External` metrics (announced in the step: the lab does not
//! reproduce the external metrics API's error), and the `AmbiguousSelector` check between
//! HPAs whose targets share Pods.

use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::apiserver::{Body, Verb};
use crate::object::{Object, RESOURCES};
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use serde_json::{json, Value};
use std::collections::BTreeMap;

pub const NAME: &str = "horizontal-pod-autoscaler-controller";
pub const SERVICE_ACCOUNT: &str = "horizontal-pod-autoscaler";
/// `--horizontal-pod-autoscaler-sync-period`: the delay of every add to the work queue.
pub const SYNC_PERIOD_MS: u64 = 15_000;

const SOURCE: EventSourceInfo = EventSourceInfo {
    component: "horizontal-pod-autoscaler",
    service_account: SERVICE_ACCOUNT,
    phase: Phase::Controllers,
};

/// The error of the resource metrics API on a cluster without metrics-server.
const NO_RESOURCE_METRICS: &str = "unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)";
/// The error of the custom metrics client when no adapter registers the API.
const NO_CUSTOM_METRICS: &str =
    "unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered";

#[derive(Debug, Default)]
pub struct HorizontalController {
    /// For each HPA key, what its last sync did (the status it left and the events it
    /// recorded): a sync that does the same again is routine.
    last: BTreeMap<String, String>,
}

/// One metric of the spec as upstream's v2 type reads it.
pub struct Metric {
    /// `Resource`, `ContainerResource`, `Pods`, `Object` or `External`.
    pub type_: String,
    pub value: Value,
}

/// What computing a metric's replica count failed with: the event reason, the event's
/// message (also the condition's cause) and the error `computeReplicasForMetric` returns.
struct MetricFailure {
    reason: &'static str,
    message: String,
    error: String,
}

/// The metrics of an HPA in the v2 shape: `spec.metrics`, or for `autoscaling/v1` the
/// `targetCPUUtilizationPercentage` (80 when unset, as the conversion defaults it).
pub fn metrics_of(api_version: &str, spec: &Value) -> Vec<Metric> {
    if api_version == "autoscaling/v1" {
        let pct = spec["targetCPUUtilizationPercentage"].as_i64().unwrap_or(80);
        return vec![Metric {
            type_: "Resource".into(),
            value: json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": pct}}}),
        }];
    }
    match spec["metrics"].as_array() {
        Some(list) if !list.is_empty() => list
            .iter()
            .map(|m| Metric { type_: m["type"].as_str().unwrap_or("").to_string(), value: m.clone() })
            .collect(),
        // The API server defaults an empty list to 80 % CPU.
        _ => metrics_of("autoscaling/v1", &json!({})),
    }
}

/// A metric as the step shows it: `cpu Utilization 50%`.
fn describe_metric(m: &Metric) -> String {
    let v = &m.value;
    let target = |t: &Value| match (t["averageUtilization"].as_i64(), t["averageValue"].as_str(), t["value"].as_str()) {
        (Some(p), _, _) => format!("average utilization {p}%"),
        (_, Some(a), _) => format!("average value {a}"),
        (_, _, Some(x)) => format!("value {x}"),
        _ => "no target".to_string(),
    };
    match m.type_.as_str() {
        "Resource" => format!("{} {}", v["resource"]["name"].as_str().unwrap_or(""), target(&v["resource"]["target"])),
        "ContainerResource" => format!(
            "{} of container {} {}",
            v["containerResource"]["name"].as_str().unwrap_or(""),
            v["containerResource"]["container"].as_str().unwrap_or(""),
            target(&v["containerResource"]["target"])
        ),
        "Pods" => format!(
            "pods metric {} {}",
            v["pods"]["metric"]["name"].as_str().unwrap_or(""),
            target(&v["pods"]["target"])
        ),
        "Object" => format!(
            "{} metric {} of {} {}",
            v["object"]["describedObject"]["kind"].as_str().unwrap_or(""),
            v["object"]["metric"]["name"].as_str().unwrap_or(""),
            v["object"]["describedObject"]["name"].as_str().unwrap_or(""),
            target(&v["object"]["target"])
        ),
        other => format!("{other} metric"),
    }
}

/// Upstream `computeStatusForResourceMetricGeneric` on a cluster without metrics-server.
fn resource_failure(resource: &str, target: &Value) -> String {
    let fetch = format!("unable to get metrics for resource {resource}: {NO_RESOURCE_METRICS}");
    if target["averageValue"].is_string() {
        format!("failed to get {resource} usage: {fetch}")
    } else if target["averageUtilization"].is_i64() {
        format!("failed to get {resource} utilization: {fetch}")
    } else {
        "invalid resource metric source: neither an average utilization target nor an average value (usage) target was set"
            .to_string()
    }
}

/// Upstream `computeReplicasForMetric` for one metric, on kind: it always fails. `None` for
/// an `External` metric, which the lab does not model.
fn metric_failure(m: &Metric, namespace: &str) -> Option<MetricFailure> {
    let v = &m.value;
    Some(match m.type_.as_str() {
        "Resource" => {
            let name = v["resource"]["name"].as_str().unwrap_or("");
            let message = resource_failure(name, &v["resource"]["target"]);
            MetricFailure {
                reason: "FailedGetResourceMetric",
                error: format!("failed to get {name} resource metric value: {message}"),
                message,
            }
        }
        "ContainerResource" => {
            let c = &v["containerResource"];
            let message = resource_failure(c["name"].as_str().unwrap_or(""), &c["target"]);
            MetricFailure {
                reason: "FailedGetContainerResourceMetric",
                error: format!(
                    "failed to get {} container metric value: {message}",
                    c["container"].as_str().unwrap_or("")
                ),
                message,
            }
        }
        "Pods" => {
            let message = format!(
                "unable to get metric {}: {NO_CUSTOM_METRICS}",
                v["pods"]["metric"]["name"].as_str().unwrap_or("")
            );
            MetricFailure {
                reason: "FailedGetPodsMetric",
                error: format!("failed to get pods metric value: {message}"),
                message,
            }
        }
        "Object" => {
            let o = &v["object"];
            let message = format!(
                "unable to get metric {}: {} on {namespace} {}/{NO_CUSTOM_METRICS}",
                o["metric"]["name"].as_str().unwrap_or(""),
                o["describedObject"]["kind"].as_str().unwrap_or(""),
                o["describedObject"]["name"].as_str().unwrap_or(""),
            );
            MetricFailure {
                reason: "FailedGetObjectMetric",
                error: format!("failed to get object metric value: {message}"),
                message,
            }
        }
        _ => return None,
    })
}

/// Upstream `setConditionInList`: replaces the condition of that type (its transition time
/// kept unless the status changes) or appends it.
fn set_condition(conditions: &mut Vec<Value>, type_: &str, status: &str, reason: &str, message: &str, now: &Value) {
    let existing = conditions.iter_mut().find(|c| c["type"] == type_);
    let c = match existing {
        Some(c) => c,
        None => {
            conditions.push(json!({"type": type_}));
            conditions.last_mut().expect("just pushed")
        }
    };
    if c["status"].as_str() != Some(status) {
        c["lastTransitionTime"] = now.clone();
    }
    c["status"] = json!(status);
    c["reason"] = json!(reason);
    c["message"] = json!(message);
}

/// The scale of the target: the resource serving it, its `spec.replicas` and selector.
struct Scale {
    kind: &'static str,
    plural: &'static str,
    replicas: i64,
    selector: String,
}

/// Upstream's RESTMapper and scale client `Get`: the kind must be known and have a `scale`
/// subresource, the object must exist.
fn get_scale(cx: &Cx, namespace: &str, target: &Value) -> Result<Scale, String> {
    let kind = target["kind"].as_str().unwrap_or("");
    let name = target["name"].as_str().unwrap_or("");
    let api_version = target["apiVersion"].as_str().unwrap_or("");
    let group = api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
    let Some(res) = RESOURCES.iter().find(|r| r.kind == kind && r.group == group) else {
        return Err(format!("no matches for kind {kind:?} in group {group:?}"));
    };
    if !matches!(res.kind, "Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController") {
        return Err("the server could not find the requested resource".to_string());
    }
    let Some(obj) = get(cx.core, res.kind, Some(namespace), name) else {
        let resource =
            if res.group.is_empty() { res.plural.to_string() } else { format!("{}.{}", res.plural, res.group) };
        return Err(format!("{resource} {name:?} not found"));
    };
    let json = obj.to_json();
    let spec = &json["spec"];
    let selector = match &spec["selector"] {
        Value::Object(m) if m.contains_key("matchLabels") || m.contains_key("matchExpressions") => {
            serde_json::from_value(spec["selector"].clone()).map(|s| format_selector(&s)).unwrap_or_default()
        }
        // A ReplicationController's selector is a plain map.
        Value::Object(m) => {
            m.iter().map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or(""))).collect::<Vec<_>>().join(",")
        }
        _ => String::new(),
    };
    Ok(Scale { kind: res.kind, plural: res.plural, replicas: spec["replicas"].as_i64().unwrap_or(1), selector })
}

impl Controller for HorizontalController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        let Object::Other(u) = &*ev.object else { return };
        if u.kind != "HorizontalPodAutoscaler" {
            return;
        }
        match ev.kind {
            EventType::Added => cx.watch(
                NAME,
                Phase::Controllers,
                ev,
                &key_of(&u.metadata),
                SYNC_PERIOD_MS,
                "a new HorizontalPodAutoscaler: its key waits in the work queue for the sync period (15 s, --horizontal-pod-autoscaler-sync-period), as every key added to this queue does",
            ),
            // The key is always queued again after a sync, so a change is picked up by the
            // next periodic sync (upstream drops the add of a key already waiting).
            EventType::Modified => {}
            EventType::Deleted => {
                self.last.remove(&key_of(&u.metadata));
            }
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        let (ns, name) = split_key(key);
        let Some(obj) = get(cx.core, "HorizontalPodAutoscaler", ns, name) else {
            self.last.remove(key);
            return;
        };
        let plan = plan(cx, &obj, ns.unwrap_or("default"), name);
        // A sync that only repeats the previous one's warnings is routine (see the module
        // documentation); its decision is not stated again.
        let repeat = plan.rescale.is_none()
            && plan.status == plan.old_status
            && self.last.get(key).is_some_and(|f| *f == plan.fingerprint);
        self.last.insert(key.to_string(), plan.fingerprint.clone());
        if repeat {
            let previous = cx.core.as_mut().set_routine(true);
            apply(cx, &obj, plan, true);
            cx.core.as_mut().set_routine(previous);
        } else {
            apply(cx, &obj, plan, false);
        }
        cx.enqueue_periodic(NAME, key, SYNC_PERIOD_MS);
    }
}

/// What one sync decides, before any write.
struct Plan {
    summary: String,
    observed: String,
    actions: Vec<String>,
    status_of_step: StepStatus,
    /// Events recorded before the status write: (type, reason, message).
    events: Vec<(&'static str, &'static str, String)>,
    /// The target's kind, the new size and the reason, when the target is scaled.
    rescale: Option<(&'static str, i64, String)>,
    /// Recorded after the status write (upstream's `FailedComputeMetricsReplicas`).
    after_status: Option<(&'static str, &'static str, String)>,
    old_status: Value,
    status: Value,
    /// The events of this sync, to tell a repeat.
    fingerprint: String,
}

fn plan(cx: &Cx, obj: &Object, namespace: &str, name: &str) -> Plan {
    let json = obj.to_json();
    let spec = &json["spec"];
    let api_version = json["apiVersion"].as_str().unwrap_or("autoscaling/v2");
    let target = &spec["scaleTargetRef"];
    let reference = format!("{}/{}", target["kind"].as_str().unwrap_or(""), target["name"].as_str().unwrap_or(""));
    let min = spec["minReplicas"].as_i64().unwrap_or(1);
    let max = spec["maxReplicas"].as_i64().unwrap_or(0);
    let metrics = metrics_of(api_version, spec);
    let now = serde_json::to_value(now(cx.core)).unwrap_or_default();
    let old_status = json.get("status").cloned().unwrap_or_else(|| json!({}));
    let mut conditions: Vec<Value> = old_status["conditions"].as_array().cloned().unwrap_or_default();
    let old_desired = old_status["desiredReplicas"].as_i64().unwrap_or(0);
    let mut events = Vec::new();
    let mut after_status = None;
    let mut rescale = None;
    let mut actions = Vec::new();
    let mut status_of_step = StepStatus::Ok;
    let metric_text = metrics.iter().map(describe_metric).collect::<Vec<_>>().join(", ");
    let mut observed =
        format!("scale target {reference}; minReplicas {min}, maxReplicas {max}; metrics: {metric_text}");
    let mut current_replicas = old_status["currentReplicas"].as_i64().unwrap_or(0);
    let mut desired = old_desired;
    let mut current_metrics: Option<Vec<Value>> = None;
    let mut last_scale_time = old_status.get("lastScaleTime").cloned();
    let mut summary = String::new();

    match get_scale(cx, namespace, target) {
        Err(e) => {
            events.push(("Warning", "FailedGetScale", e.clone()));
            set_condition(
                &mut conditions,
                "AbleToScale",
                "False",
                "FailedGetScale",
                &format!("the HPA controller was unable to get the target's current scale: {e}"),
                &now,
            );
            actions.push(format!("GET the scale of {reference}: {e}"));
            summary = format!("cannot read the scale of {reference}");
            status_of_step = StepStatus::Warning;
            // Upstream writes the condition and returns: the rest of the status stays.
            current_metrics = old_status["currentMetrics"].as_array().cloned();
        }
        Ok(scale) => {
            set_condition(
                &mut conditions,
                "AbleToScale",
                "True",
                "SucceededGetScale",
                "the HPA controller was able to get the target's current scale",
                &now,
            );
            let current = scale.replicas;
            current_replicas = current;
            observed.push_str(&format!(
                "; GET {}/{}/scale: spec.replicas {current}, status.selector {}",
                scale.plural,
                target["name"].as_str().unwrap_or(""),
                if scale.selector.is_empty() { "<none>" } else { &scale.selector }
            ));
            let bound = if current == 0 && min != 0 {
                set_condition(
                    &mut conditions,
                    "ScalingActive",
                    "False",
                    "ScalingDisabled",
                    "scaling is disabled since the replica count of the target is zero",
                    &now,
                );
                desired = current;
                summary = format!("{reference} has 0 replicas: autoscaling is disabled");
                actions.push("nothing to do: an HPA does not scale a target that was scaled to zero".into());
                None
            } else if current > max {
                Some((max, "Current number of replicas above Spec.MaxReplicas"))
            } else if current < min {
                Some((min, "Current number of replicas below Spec.MinReplicas"))
            } else {
                // computeReplicasForMetrics: every metric fails on kind.
                let failures: Vec<Option<MetricFailure>> =
                    metrics.iter().map(|m| metric_failure(m, namespace)).collect();
                if failures.iter().any(Option::is_none) {
                    summary = format!("{reference}: External metrics are not modelled by the lab");
                    actions.push(
                        "an External metric is read from the external metrics API (external.metrics.k8s.io), which kind does not serve: a real cluster records FailedGetExternalMetric and FailedComputeMetricsReplicas warnings and scales nothing; the lab does not model that API's errors and writes nothing for this HPA"
                            .into(),
                    );
                    return Plan {
                        summary: format!("{name}: {summary}"),
                        observed,
                        actions,
                        status_of_step: StepStatus::Warning,
                        events: Vec::new(),
                        rescale: None,
                        after_status: None,
                        status: old_status.clone(),
                        old_status,
                        fingerprint: "external".into(),
                    };
                }
                let failures: Vec<MetricFailure> = failures.into_iter().flatten().collect();
                for f in &failures {
                    events.push(("Warning", f.reason, f.message.clone()));
                }
                let first = &failures[0];
                set_condition(
                    &mut conditions,
                    "ScalingActive",
                    "False",
                    first.reason,
                    &format!("the HPA was unable to compute the replica count: {}", first.message),
                    &now,
                );
                current_metrics = Some(vec![json!({"type": ""}); metrics.len()]);
                let n = failures.len();
                after_status = Some((
                    "Warning",
                    "FailedComputeMetricsReplicas",
                    format!("invalid metrics ({n} invalid out of {n}), first error is: {}", first.error),
                ));
                actions.push(format!(
                    "read the metrics of the Pods selected by {}: {}",
                    if scale.selector.is_empty() { "<none>" } else { &scale.selector },
                    if failures.iter().all(|f| f.reason.contains("Resource")) {
                        "the resource metrics API (metrics.k8s.io) is not served, because kind installs no metrics-server; without a measurement the controller computes no replica count and leaves the target as it is (install metrics-server to give it CPU and memory usage)"
                    } else {
                        "no metrics API is served for these metrics (kind installs neither metrics-server nor a custom metrics adapter): the controller computes no replica count and leaves the target as it is"
                    }
                ));
                summary = format!("no metrics, {reference} stays at {current}");
                status_of_step = StepStatus::Warning;
                None
            };
            if let Some((size, reason)) = bound {
                desired = size;
                rescale = Some((scale.kind, size, reason.to_string()));
                actions.push(format!(
                    "PUT {}/{}/scale spec.replicas={size} ({reason}; the bounds apply without any metric)",
                    scale.plural,
                    target["name"].as_str().unwrap_or("")
                ));
                last_scale_time = Some(now.clone());
                summary = format!("scales {reference} from {current} to {size}");
            }
        }
    }

    let mut status = serde_json::Map::new();
    if let Some(t) = last_scale_time {
        status.insert("lastScaleTime".into(), t);
    }
    // v2's field tags: currentReplicas is omitted when zero, desiredReplicas and
    // currentMetrics never (an HPA with no metric status shows `currentMetrics: null`).
    if current_replicas != 0 {
        status.insert("currentReplicas".into(), json!(current_replicas));
    }
    status.insert("desiredReplicas".into(), json!(desired));
    status.insert("currentMetrics".into(), current_metrics.filter(|m| !m.is_empty()).map_or(Value::Null, Value::Array));
    status.insert("conditions".into(), Value::Array(conditions));
    let status = Value::Object(status);
    // What repeats: the warnings, with their messages.
    let fingerprint =
        events.iter().chain(after_status.iter()).map(|(t, r, m)| format!("{t} {r} {m}")).collect::<Vec<_>>().join("\n");
    Plan {
        summary: format!("{name}: {summary}"),
        observed,
        actions,
        status_of_step,
        events,
        rescale,
        after_status,
        old_status,
        status,
        fingerprint,
    }
}

/// The writes of a sync, in upstream's order: the warnings met while computing, the scale
/// update and its event, the status when it changed, then `FailedComputeMetricsReplicas`.
fn apply(cx: &mut Cx, obj: &Object, mut plan: Plan, repeat: bool) {
    if !repeat {
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(obj),
            format!("horizontal-pod-autoscaler: HorizontalPodAutoscaler {}", plan.summary),
            plan.observed.clone(),
            "keep each metric's average at its target by scaling the target between minReplicas and maxReplicas".into(),
            plan.actions.clone(),
            plan.status_of_step,
        );
    }
    for (t, reason, message) in &plan.events {
        cx.event(SOURCE, obj, t, reason, message);
    }
    let json = obj.to_json();
    let (ns, target_name) = (
        obj.namespace().map(str::to_string),
        json["spec"]["scaleTargetRef"]["name"].as_str().unwrap_or("").to_string(),
    );
    if let Some((kind, size, reason)) = plan.rescale.take() {
        let body = json!({
            "apiVersion": "autoscaling/v1",
            "kind": "Scale",
            "metadata": {"name": target_name, "namespace": ns},
            "spec": {"replicas": size},
        });
        let resp = cx.request(
            SERVICE_ACCOUNT,
            Verb::Update,
            kind,
            ns.as_deref(),
            Some(&target_name),
            Some("scale"),
            Some(Body::Json(body)),
        );
        let now = serde_json::to_value(now(cx.core)).unwrap_or_default();
        let mut conditions = plan.status["conditions"].as_array().cloned().unwrap_or_default();
        if resp.ok() {
            set_condition(
                &mut conditions,
                "AbleToScale",
                "True",
                "SucceededRescale",
                &format!("the HPA controller was able to update the target scale to {size}"),
                &now,
            );
            cx.event(SOURCE, obj, "Normal", "SuccessfulRescale", &format!("New size: {size}; reason: {reason}"));
        } else {
            let err = resp.message();
            cx.event(
                SOURCE,
                obj,
                "Warning",
                "FailedRescale",
                &format!("New size: {size}; reason: {reason}; error: {err}"),
            );
            set_condition(
                &mut conditions,
                "AbleToScale",
                "False",
                "FailedUpdateScale",
                &format!("the HPA controller was unable to update the target scale: {err}"),
                &now,
            );
            // setCurrentReplicasAndMetricsInStatus: the desired count stays as it was.
            plan.status["desiredReplicas"] = plan.old_status["desiredReplicas"].clone();
            if plan.status["desiredReplicas"].is_null() {
                plan.status["desiredReplicas"] = json!(0);
            }
            match plan.old_status.get("lastScaleTime") {
                Some(t) => plan.status["lastScaleTime"] = t.clone(),
                None => {
                    if let Some(m) = plan.status.as_object_mut() {
                        m.remove("lastScaleTime");
                    }
                }
            }
        }
        plan.status["conditions"] = Value::Array(conditions);
    }
    if plan.status != plan.old_status {
        // The controller works on the v2 form (the version the API server stores): an
        // autoscaling/v1 object is sent back converted, its CPU target as a metric.
        let mut updated = json.clone();
        if json["apiVersion"] == "autoscaling/v1" {
            let metrics: Vec<Value> =
                metrics_of("autoscaling/v1", &json["spec"]).into_iter().map(|m| m.value).collect();
            updated["apiVersion"] = json!("autoscaling/v2");
            if let Some(spec) = updated["spec"].as_object_mut() {
                spec.remove("targetCPUUtilizationPercentage");
                spec.insert("metrics".into(), Value::Array(metrics));
            }
        }
        updated["status"] = plan.status.clone();
        if let Ok(o) = Object::from_json("autoscaling/v2", "HorizontalPodAutoscaler", updated) {
            let resp = cx.update_status(SERVICE_ACCOUNT, o);
            if !resp.ok() {
                cx.event(SOURCE, obj, "Warning", "FailedUpdateStatus", resp.message());
            }
        }
    }
    if let Some((t, reason, message)) = &plan.after_status {
        cx.event(SOURCE, obj, t, reason, message);
    }
}
