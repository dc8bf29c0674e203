//! The (legacy) Endpoints controller: one `Endpoints` object per Service with a selector,
//! named like the Service.
//!
//! The core/v1 Endpoints API is deprecated since v1.33 in favour of EndpointSlices (kubectl
//! prints `Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1
//! EndpointSlice` — the API server sends that header), but kube-controller-manager still
//! runs this controller in v1.37, and `kubectl get endpoints` is what many courses show.
//! The object carries the Service's labels plus
//! `endpoints.kubernetes.io/managed-by: endpoint-controller`, no owner reference, and
//! `subsets`: ready Pods under `addresses`, the others under `notReadyAddresses`, with the
//! resolved ports. A Service that selects nothing gets an Endpoints object without subsets;
//! deleting the Service deletes it.
//!
//! Upstream sorts ports inside a subset by a hash of each port; the lab sorts them by name
//! and number.

use super::endpointslice::{find_port, observe_pod_for_services, rfc3339_nano, trigger_time, TriggerState};
use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::labels;
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::core::v1::{Pod, Service};
use serde_json::{json, Value};
use std::collections::BTreeMap;

pub const NAME: &str = "endpoints-controller";
pub const SERVICE_ACCOUNT: &str = "endpoint-controller";
pub const MANAGED_BY_LABEL: &str = "endpoints.kubernetes.io/managed-by";
pub const MANAGED_BY: &str = "endpoint-controller";
pub const WATCH_LATENCY_MS: u64 = 2;

const SOURCE: EventSourceInfo =
    EventSourceInfo { component: "endpoint-controller", service_account: SERVICE_ACCOUNT, phase: Phase::Endpoints };

#[derive(Debug, Default)]
pub struct EndpointsController {
    triggers: BTreeMap<String, TriggerState>,
}

impl Controller for EndpointsController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            Object::Service(svc) => {
                if let Some(Object::Service(prev)) = ev.prev.as_deref() {
                    if ev.kind == EventType::Modified
                        && prev.spec == svc.spec
                        && prev.metadata.labels == svc.metadata.labels
                    {
                        return;
                    }
                }
                let reason = match ev.kind {
                    EventType::Added => "a new Service: publish its Endpoints",
                    EventType::Deleted => "the Service is gone: delete its Endpoints",
                    EventType::Modified => "the Service changed",
                };
                cx.watch(NAME, Phase::Endpoints, ev, &key_of(&svc.metadata), WATCH_LATENCY_MS, reason);
            }
            Object::Pod(pod) => observe_pod_for_services(cx, NAME, ev, pod),
            Object::Other(u) if u.kind == "Endpoints" && ev.kind == EventType::Deleted => {
                let ns = u.metadata.namespace.as_deref();
                if let Some(Object::Service(svc)) =
                    get(cx.core, "Service", ns, u.metadata.name.as_deref().unwrap_or(""))
                {
                    if svc.spec.as_ref().and_then(|s| s.selector.as_ref()).is_some() {
                        cx.watch(
                            NAME,
                            Phase::Endpoints,
                            ev,
                            &key_of(&svc.metadata),
                            WATCH_LATENCY_MS,
                            "the Service's Endpoints were deleted",
                        );
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        let (ns, name) = split_key(key);
        let Some(Object::Service(svc)) = get(cx.core, "Service", ns, name) else {
            self.triggers.remove(key);
            if let Some(ep) = get(cx.core, "Endpoints", ns, name) {
                cx.decide(
                    Phase::Endpoints,
                    NAME,
                    Some(&ep),
                    format!("endpoint-controller deletes Endpoints {name} (its Service is gone)"),
                    format!("Service {name} not found"),
                    "no Endpoints without a Service".into(),
                    vec![format!("DELETE Endpoints {name}")],
                    StepStatus::Ok,
                );
                let _ = cx.delete(SERVICE_ACCOUNT, "Endpoints", ns, name, None);
            }
            return;
        };
        let Some(selector) = svc.spec.as_ref().and_then(|s| s.selector.clone()) else { return };
        let pods: Vec<Pod> = pods(cx.core, ns)
            .into_iter()
            .filter(|p| labels::set_matches(&selector, p.metadata.labels.as_ref()))
            .map(std::sync::Arc::unwrap_or_clone)
            .collect();
        let mut fresh = TriggerState::default();
        let trigger = trigger_time(self.triggers.get_mut(key), &mut fresh, &svc, &pods);
        self.triggers.insert(key.to_string(), fresh);
        if !sync_endpoints(cx, &svc, &pods, trigger) {
            cx.requeue_rate_limited(NAME, key);
        } else {
            cx.forget(NAME, key);
        }
    }
}

fn sync_endpoints(cx: &mut Cx, svc: &Service, pods: &[Pod], trigger: Option<i64>) -> bool {
    let ns = svc.metadata.namespace.clone();
    let name = svc.metadata.name.clone().unwrap_or_default();
    let spec = svc.spec.clone().unwrap_or_default();
    let publish = spec.publish_not_ready_addresses.unwrap_or(false);
    let headless = spec.cluster_ip.as_deref() == Some("None");
    let ports = spec.ports.clone().unwrap_or_default();

    // Per port set: ready and not-ready addresses.
    // Per port set: (ready addresses, not-ready addresses, ports).
    type Subset = (Vec<Value>, Vec<Value>, Vec<Value>);
    let mut subsets: BTreeMap<String, Subset> = BTreeMap::new();
    let mut sorted: Vec<&Pod> = pods.iter().collect();
    crate::sort::sort_by(&mut sorted, |a, b| {
        pod_ip(a).cmp(&pod_ip(b)).then_with(|| a.metadata.uid.cmp(&b.metadata.uid))
    });
    for pod in sorted {
        if matches!(phase(pod), "Succeeded" | "Failed") || (!publish && pod.metadata.deletion_timestamp.is_some()) {
            continue;
        }
        let Some(ip) = pod_ip(pod) else { continue };
        let mut addr = json!({"ip": ip});
        if !node_name(pod).is_empty() {
            addr["nodeName"] = json!(node_name(pod));
        }
        if let Some(h) = pod
            .spec
            .as_ref()
            .and_then(|s| s.hostname.clone().filter(|h| !h.is_empty() && s.subdomain.as_deref() == Some(name.as_str())))
        {
            addr["hostname"] = json!(h);
        }
        addr["targetRef"] = json!({
            "kind": "Pod",
            "namespace": pod.metadata.namespace.clone().unwrap_or_default(),
            "name": pod.metadata.name.clone().unwrap_or_default(),
            "uid": pod.metadata.uid.clone().unwrap_or_default(),
        });
        let mut pod_ports: Vec<Value> = Vec::new();
        if !(ports.is_empty() && headless) {
            for sp in &ports {
                if let Some(n) = find_port(pod, sp) {
                    let mut p = json!({"port": n, "protocol": sp.protocol.clone().unwrap_or_else(|| "TCP".into())});
                    if let Some(nm) = sp.name.as_ref().filter(|n| !n.is_empty()) {
                        p["name"] = json!(nm);
                    }
                    if let Some(ap) = sp.app_protocol.as_ref() {
                        p["appProtocol"] = json!(ap);
                    }
                    pod_ports.push(p);
                }
            }
            if pod_ports.is_empty() && !ports.is_empty() {
                continue;
            }
        }
        crate::sort::sort_by_key(&mut pod_ports, |p| {
            (p["name"].as_str().unwrap_or("").to_string(), p["port"].as_i64().unwrap_or(0))
        });
        let key = serde_json::to_string(&pod_ports).unwrap_or_default();
        let entry = subsets.entry(key).or_insert_with(|| (Vec::new(), Vec::new(), pod_ports.clone()));
        if publish || is_pod_ready(pod) {
            entry.0.push(addr);
        } else {
            entry.1.push(addr);
        }
    }
    let subsets: Vec<Value> = subsets
        .into_values()
        .map(|(ready, not_ready, ports)| {
            let mut s = serde_json::Map::new();
            if !ready.is_empty() {
                s.insert("addresses".into(), Value::Array(ready));
            }
            if !not_ready.is_empty() {
                s.insert("notReadyAddresses".into(), Value::Array(not_ready));
            }
            if !ports.is_empty() {
                s.insert("ports".into(), Value::Array(ports));
            }
            Value::Object(s)
        })
        .collect();

    let mut labels: BTreeMap<String, String> = svc.metadata.labels.clone().unwrap_or_default();
    labels.remove("service.kubernetes.io/headless");
    if headless {
        labels.insert("service.kubernetes.io/headless".into(), String::new());
    }
    labels.insert(MANAGED_BY_LABEL.into(), MANAGED_BY.into());

    let current = get(cx.core, "Endpoints", ns.as_deref(), &name);
    let current_json = current.as_ref().map(Object::to_json);
    let current_subsets = current_json.as_ref().and_then(|j| j.get("subsets").cloned()).unwrap_or(Value::Array(vec![]));
    let current_labels: BTreeMap<String, String> =
        current.as_ref().and_then(|o| o.meta().labels.clone()).unwrap_or_default();
    if current.is_some() && current_subsets == Value::Array(subsets.clone()) && current_labels == labels {
        return true;
    }

    let mut meta = current.as_ref().map(|o| o.meta().clone()).unwrap_or_default();
    meta.name = Some(name.clone());
    meta.namespace = ns.clone();
    meta.labels = Some(labels);
    let mut ann = meta.annotations.clone().unwrap_or_default();
    match trigger {
        Some(t) => {
            ann.insert(super::endpointslice::TRIGGER_TIME_ANNOTATION.into(), rfc3339_nano(t));
        }
        None => {
            ann.remove(super::endpointslice::TRIGGER_TIME_ANNOTATION);
        }
    }
    meta.annotations = (!ann.is_empty()).then_some(ann);
    let mut body =
        json!({"apiVersion": "v1", "kind": "Endpoints", "metadata": serde_json::to_value(&meta).unwrap_or_default()});
    if !subsets.is_empty() {
        body["subsets"] = Value::Array(subsets.clone());
    }
    let Ok(obj) = Object::from_json("v1", "Endpoints", body) else { return true };
    let count =
        |field: &str| subsets.iter().map(|s| s.get(field).and_then(Value::as_array).map_or(0, Vec::len)).sum::<usize>();
    let (ready, not_ready) = (count("addresses"), count("notReadyAddresses"));
    let verb = if current.is_some() { "update" } else { "create" };
    let svc_obj = Object::from(svc.clone());
    cx.decide(
        Phase::Endpoints,
        NAME,
        Some(&svc_obj),
        format!("endpoint-controller {verb}s Endpoints {name}: {ready} ready, {not_ready} not ready address(es)"),
        format!("{} Pod(s) match the selector", pods.len()),
        "the IP of every matching Pod, ready or not".into(),
        vec![format!("{} Endpoints {name}", if current.is_some() { "PUT" } else { "POST" })],
        if ready == 0 { StepStatus::Warning } else { StepStatus::Ok },
    );
    let resp = if current.is_some() {
        cx.update(SERVICE_ACCOUNT, obj.clone())
    } else {
        cx.create(SERVICE_ACCOUNT, obj.clone())
    };
    if let Some(e) = resp.error {
        if super::replicaset::namespace_terminating(&e.message) {
            return true;
        }
        let ns = ns.unwrap_or_default();
        if current.is_some() {
            let msg = format!("Failed to update endpoint {ns}/{name}: {}", e.message);
            cx.event(SOURCE, &obj, "Warning", "FailedToUpdateEndpoint", &msg);
        } else {
            let msg = format!("Failed to create endpoint for service {ns}/{name}: {}", e.message);
            cx.event(SOURCE, &obj, "Warning", "FailedToCreateEndpoint", &msg);
        }
        return false;
    }
    true
}
