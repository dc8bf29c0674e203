//! The EndpointSlice controller: for each Service with a selector, EndpointSlices listing the
//! matching Pods that have an IP.
//!
//! Slices are named by the API server from `generateName: <service>-`, labelled
//! `kubernetes.io/service-name: <service>` and
//! `endpointslice.kubernetes.io/managed-by: endpointslice-controller.k8s.io` (plus the
//! Service's own labels), owned by the Service, and hold up to 100 endpoints each. Every
//! endpoint carries the Pod's IP, `conditions` — `serving` (the Pod is Ready),
//! `terminating` (it is being deleted) and `ready` (serving and not terminating) —, the
//! `nodeName`, a `targetRef` to the Pod, and the `zone` of its Node when the Node has a
//! `topology.kubernetes.io/zone` label. Ports come from the Service's `targetPort`: a number
//! as is, a name resolved in each Pod's container ports (Pods exposing the name on
//! different numbers end up in different slices).
//!
//! A Service whose selector matches no Pod still gets one placeholder slice with no
//! endpoints and no ports — the state behind "the Pods run but the Service gets no traffic"
//! (a label typo). A Service without a selector gets no slices: whoever created it manages
//! them.
//!
//! Upstream fills new slices from a set in no particular order; the lab keeps existing
//! endpoints in place and appends new ones by Pod name, so traces are stable.

use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::labels;
use crate::object::Object;
use crate::sort::CollectMap;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::core::v1::{ObjectReference, Pod, Service, ServicePort};
use k8s_openapi::api::discovery::v1::{Endpoint, EndpointConditions, EndpointPort, EndpointSlice};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use std::collections::BTreeMap;

pub const NAME: &str = "endpointslice-controller";
pub const SERVICE_ACCOUNT: &str = "endpointslice-controller";
/// The value of the managed-by label on the slices this controller owns.
pub const MANAGED_BY: &str = "endpointslice-controller.k8s.io";
pub const LABEL_SERVICE_NAME: &str = "kubernetes.io/service-name";
pub const LABEL_MANAGED_BY: &str = "endpointslice.kubernetes.io/managed-by";
pub const LABEL_HEADLESS: &str = "service.kubernetes.io/headless";
pub const TRIGGER_TIME_ANNOTATION: &str = "endpoints.kubernetes.io/last-change-trigger-time";
pub const ZONE_LABEL: &str = "topology.kubernetes.io/zone";
/// `--max-endpoints-per-slice`.
pub const MAX_ENDPOINTS_PER_SLICE: usize = 100;
/// From a watch event to the sync of the Service.
pub const WATCH_LATENCY_MS: u64 = 2;
/// The controller's own retry back-off: 1 s doubling to 1000 s (`defaultSyncBackOff`).
pub const SYNC_BACKOFF_MS: u64 = 1_000;
pub const MAX_SYNC_BACKOFF_MS: u64 = 1_000_000;

const SOURCE: EventSourceInfo = EventSourceInfo {
    component: "endpoint-slice-controller",
    service_account: SERVICE_ACCOUNT,
    phase: Phase::Endpoints,
};

/// What the trigger-time tracker remembers per Service.
#[derive(Clone, Debug, Default)]
pub struct TriggerState {
    pub service_ms: Option<i64>,
    pub pod_ms: BTreeMap<String, i64>,
}

#[derive(Debug, Default)]
pub struct EndpointSliceController {
    triggers: BTreeMap<String, TriggerState>,
}

/// The Services in `ns` whose selector matches `labels`.
pub fn services_selecting(
    cx: &Cx,
    ns: Option<&str>,
    labels: Option<&BTreeMap<String, String>>,
) -> Vec<std::sync::Arc<Service>> {
    list_shared(cx.core, "Service", ns)
        .into_iter()
        .filter_map(|o| match &*o {
            Object::Service(s) => Some(std::sync::Arc::clone(s)),
            _ => None,
        })
        .filter(|s| {
            s.spec.as_ref().and_then(|sp| sp.selector.as_ref()).is_some_and(|sel| labels::set_matches(sel, labels))
        })
        .collect()
}

/// Whether a Pod change can change endpoints (`podEndpointsChanged`).
pub fn pod_endpoints_changed(old: &Pod, new: &Pod) -> bool {
    old.metadata.labels != new.metadata.labels
        || old.metadata.deletion_timestamp != new.metadata.deletion_timestamp
        || is_pod_ready(old) != is_pod_ready(new)
        || pod_ip(old) != pod_ip(new)
        || node_name(old) != node_name(new)
        || phase(old) != phase(new)
        || old.spec.as_ref().and_then(|s| s.hostname.clone()) != new.spec.as_ref().and_then(|s| s.hostname.clone())
}

/// Queues the Services a Pod event concerns, for the endpoints or the EndpointSlice
/// controller.
pub fn observe_pod_for_services(cx: &mut Cx, controller: &'static str, ev: &WatchEvent<Object>, pod: &Pod) {
    let ns = pod.metadata.namespace.as_deref();
    let prev = match ev.prev.as_deref() {
        Some(Object::Pod(p)) => Some(p.as_ref()),
        _ => None,
    };
    if ev.kind == EventType::Modified && prev.is_some_and(|p| !pod_endpoints_changed(p, pod)) {
        return;
    }
    let mut services = services_selecting(cx, ns, pod.metadata.labels.as_ref());
    if let Some(p) = prev {
        for s in services_selecting(cx, ns, p.metadata.labels.as_ref()) {
            if !services.iter().any(|x| x.metadata.name == s.metadata.name) {
                services.push(s);
            }
        }
    }
    let reason = match ev.kind {
        EventType::Added => "a Pod selected by the Service was created",
        EventType::Deleted => "a Pod selected by the Service is gone",
        EventType::Modified => "a Pod selected by the Service changed (IP, readiness, labels or deletion)",
    };
    for s in services {
        cx.watch(controller, Phase::Endpoints, ev, &key_of(&s.metadata), WATCH_LATENCY_MS, reason);
    }
}

/// `FindPort`: the container port a Service port targets on this Pod.
pub fn find_port(pod: &Pod, sp: &ServicePort) -> Option<i32> {
    let protocol = sp.protocol.clone().unwrap_or_else(|| "TCP".into());
    match sp.target_port.as_ref() {
        None => Some(sp.port),
        Some(IntOrString::Int(i)) => Some(*i),
        Some(IntOrString::String(name)) => {
            let spec = pod.spec.as_ref()?;
            let in_container = |c: &k8s_openapi::api::core::v1::Container| {
                c.ports
                    .iter()
                    .flatten()
                    .find(|p| {
                        p.name.as_deref() == Some(name.as_str())
                            && p.protocol.clone().unwrap_or_else(|| "TCP".into()) == protocol
                    })
                    .map(|p| p.container_port)
            };
            spec.containers.iter().find_map(in_container).or_else(|| {
                spec.init_containers
                    .iter()
                    .flatten()
                    .filter(|c| c.restart_policy.as_deref() == Some("Always"))
                    .find_map(in_container)
            })
        }
    }
}

/// `ComputeEndpointLastChangeTriggerTime`: the Service's creation when first seen, then the
/// earliest Pod readiness change since the last sync (None: no annotation).
pub fn trigger_time(
    state: Option<&mut TriggerState>,
    fresh: &mut TriggerState,
    svc: &Service,
    pods: &[Pod],
) -> Option<i64> {
    let svc_ms = svc.metadata.creation_timestamp.as_ref().map(time_ms);
    let mut min_changed: Option<i64> = None;
    for p in pods {
        if let Some(t) = pod_condition(p, "Ready").and_then(|c| c.last_transition_time.as_ref()).map(time_ms) {
            let name = p.metadata.name.clone().unwrap_or_default();
            let prev = state.as_ref().and_then(|s| s.pod_ms.get(&name).copied());
            if prev.is_none_or(|x| t > x) {
                min_changed = Some(min_changed.map_or(t, |m: i64| m.min(t)));
            }
            fresh.pod_ms.insert(name, t);
        }
    }
    if let Some(s) = svc_ms {
        if state.as_ref().is_none_or(|st| st.service_ms.is_none_or(|x| s > x)) {
            min_changed = Some(min_changed.map_or(s, |m| m.min(s)));
        }
    }
    fresh.service_ms = svc_ms;
    match state {
        None => svc_ms,
        Some(_) => min_changed,
    }
}

/// RFC 3339 with nanoseconds, trailing zeros trimmed (Go's `time.RFC3339Nano`).
pub fn rfc3339_nano(ms: i64) -> String {
    let t = crate::apiserver::timestamp(ms.max(0) as u64);
    let s = format!("{}", t.0.strftime("%Y-%m-%dT%H:%M:%S"));
    let frac = ms.rem_euclid(1000);
    if frac == 0 {
        format!("{s}Z")
    } else {
        let f = format!("{frac:03}");
        format!("{s}.{}Z", f.trim_end_matches('0'))
    }
}

fn service_ports(svc: &Service) -> Vec<ServicePort> {
    svc.spec.as_ref().and_then(|s| s.ports.clone()).unwrap_or_default()
}

fn is_headless(svc: &Service) -> bool {
    svc.spec.as_ref().and_then(|s| s.cluster_ip.as_deref()) == Some("None")
}

/// The slice labels: the Service's labels (minus the reserved ones) plus the reserved ones.
fn slice_labels(svc: &Service) -> BTreeMap<String, String> {
    let mut l: BTreeMap<String, String> = svc
        .metadata
        .labels
        .clone()
        .unwrap_or_default()
        .into_iter()
        .filter(|(k, _)| k != LABEL_SERVICE_NAME && k != LABEL_MANAGED_BY && k != LABEL_HEADLESS)
        .collect_map();
    if is_headless(svc) {
        l.insert(LABEL_HEADLESS.into(), String::new());
    }
    l.insert(LABEL_SERVICE_NAME.into(), svc.metadata.name.clone().unwrap_or_default());
    l.insert(LABEL_MANAGED_BY.into(), MANAGED_BY.into());
    l
}

fn pod_to_endpoint(cx: &Cx, pod: &Pod, svc: &Service, ip: &str) -> Endpoint {
    let serving = is_pod_ready(pod);
    let terminating = pod.metadata.deletion_timestamp.is_some();
    let publish = svc.spec.as_ref().and_then(|s| s.publish_not_ready_addresses).unwrap_or(false);
    let ready = publish || (serving && !terminating);
    let node = node_name(pod);
    let zone = match get(cx.core, "Node", None, node) {
        Some(Object::Node(n)) => {
            n.metadata.labels.as_ref().and_then(|l| l.get(ZONE_LABEL)).filter(|z| !z.is_empty()).cloned()
        }
        _ => None,
    };
    let hostname = pod.spec.as_ref().and_then(|s| {
        s.hostname.clone().filter(|h| !h.is_empty() && s.subdomain.as_deref() == svc.metadata.name.as_deref())
    });
    Endpoint {
        addresses: vec![ip.to_string()],
        conditions: Some(EndpointConditions {
            ready: Some(ready),
            serving: Some(serving),
            terminating: Some(terminating),
        }),
        target_ref: Some(ObjectReference {
            kind: Some("Pod".into()),
            namespace: pod.metadata.namespace.clone(),
            name: pod.metadata.name.clone(),
            uid: pod.metadata.uid.clone(),
            ..Default::default()
        }),
        node_name: (!node.is_empty()).then(|| node.to_string()),
        zone,
        hostname,
        ..Default::default()
    }
}

fn port_key(ports: &[EndpointPort]) -> String {
    let mut v: Vec<String> = ports
        .iter()
        .map(|p| {
            format!(
                "{}/{}/{}",
                p.name.as_deref().unwrap_or(""),
                p.port.unwrap_or(0),
                p.protocol.as_deref().unwrap_or("")
            )
        })
        .collect();
    crate::sort::sort(&mut v);
    v.join(",")
}

fn endpoint_pod(e: &Endpoint) -> String {
    e.target_ref.as_ref().and_then(|r| r.uid.clone()).unwrap_or_default()
}

fn describe_endpoints(eps: &[Endpoint]) -> String {
    let ready = eps.iter().filter(|e| e.conditions.as_ref().and_then(|c| c.ready) == Some(true)).count();
    format!("{} endpoint(s), {ready} ready", eps.len())
}

impl Controller for EndpointSliceController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            Object::Service(svc) => {
                if ev.kind == EventType::Deleted {
                    self.triggers.remove(&key_of(&svc.metadata));
                    return;
                }
                if let Some(Object::Service(prev)) = ev.prev.as_deref() {
                    if prev.spec == svc.spec && prev.metadata.labels == svc.metadata.labels {
                        return;
                    }
                }
                let reason = if ev.kind == EventType::Added {
                    "a new Service: publish its endpoints"
                } else {
                    "the Service changed"
                };
                cx.watch(NAME, Phase::Endpoints, ev, &key_of(&svc.metadata), WATCH_LATENCY_MS, reason);
            }
            Object::Pod(pod) => observe_pod_for_services(cx, NAME, ev, pod),
            Object::EndpointSlice(slice) if ev.kind == EventType::Deleted => {
                let labels = slice.metadata.labels.clone().unwrap_or_default();
                if labels.get(LABEL_MANAGED_BY).map(String::as_str) != Some(MANAGED_BY) {
                    return;
                }
                let Some(svc_name) = labels.get(LABEL_SERVICE_NAME) else { return };
                let ns = slice.metadata.namespace.as_deref();
                if let Some(Object::Service(svc)) = get(cx.core, "Service", ns, svc_name) {
                    if !is_deleting(&svc.metadata) {
                        cx.watch(
                            NAME,
                            Phase::Endpoints,
                            ev,
                            &key_of(&svc.metadata),
                            WATCH_LATENCY_MS,
                            "a managed EndpointSlice was deleted",
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
        if reconcile(cx, &svc, &pods, trigger).is_err() {
            cx.requeue_with_backoff(NAME, key, SYNC_BACKOFF_MS, MAX_SYNC_BACKOFF_MS);
        } else {
            cx.forget(NAME, key);
        }
    }
}

/// One slice to write.
struct Planned {
    /// Existing name (update) or None (create).
    name: Option<String>,
    ports: Vec<EndpointPort>,
    endpoints: Vec<Endpoint>,
}

fn reconcile(cx: &mut Cx, svc: &Service, pods: &[Pod], trigger: Option<i64>) -> Result<(), ()> {
    let ns = svc.metadata.namespace.clone();
    let svc_name = svc.metadata.name.clone().unwrap_or_default();
    let svc_uid = svc.metadata.uid.clone().unwrap_or_default();
    let existing: Vec<EndpointSlice> = list(cx.core, "EndpointSlice", ns.as_deref())
        .into_iter()
        .filter_map(|o| match o {
            Object::EndpointSlice(s) => Some(std::sync::Arc::unwrap_or_clone(s)),
            _ => None,
        })
        .filter(|s| {
            let l = s.metadata.labels.clone().unwrap_or_default();
            l.get(LABEL_SERVICE_NAME) == Some(&svc_name)
                && l.get(LABEL_MANAGED_BY).map(String::as_str) == Some(MANAGED_BY)
        })
        .collect();

    // Desired endpoints grouped by their port set.
    let mut desired: BTreeMap<String, (Vec<EndpointPort>, Vec<Endpoint>)> = BTreeMap::new();
    let mut sorted: Vec<&Pod> = pods.iter().collect();
    crate::sort::sort_by(&mut sorted, |a, b| a.metadata.name.cmp(&b.metadata.name));
    let publish = svc.spec.as_ref().and_then(|s| s.publish_not_ready_addresses).unwrap_or(false);
    let mut skipped = Vec::new();
    for pod in sorted {
        if matches!(phase(pod), "Succeeded" | "Failed") {
            continue;
        }
        let Some(ip) = pod_ip(pod) else { continue };
        if !publish && !node_name(pod).is_empty() && get(cx.core, "Node", None, node_name(pod)).is_none() {
            skipped.push(pod.metadata.name.clone().unwrap_or_default());
            continue;
        }
        let mut ports = Vec::new();
        if !(service_ports(svc).is_empty() && is_headless(svc)) {
            for sp in service_ports(svc) {
                if let Some(n) = find_port(pod, &sp) {
                    ports.push(EndpointPort {
                        name: Some(sp.name.clone().unwrap_or_default()),
                        port: Some(n),
                        protocol: Some(sp.protocol.clone().unwrap_or_else(|| "TCP".into())),
                        app_protocol: sp.app_protocol.clone(),
                    });
                }
            }
        }
        let ep = pod_to_endpoint(cx, pod, svc, ip);
        desired.entry(port_key(&ports)).or_insert_with(|| (ports, Vec::new())).1.push(ep);
    }

    // Match existing slices to port sets; plan updates, creates and deletes.
    let mut plans: Vec<Planned> = Vec::new();
    let mut to_delete: Vec<EndpointSlice> = Vec::new();
    let mut by_key: BTreeMap<String, Vec<EndpointSlice>> = BTreeMap::new();
    for s in existing.iter() {
        let owned = s.metadata.owner_references.iter().flatten().any(|r| r.uid == svc_uid && r.kind == "Service");
        if !owned {
            to_delete.push(s.clone());
            continue;
        }
        by_key.entry(port_key(s.ports.as_deref().unwrap_or(&[]))).or_default().push(s.clone());
    }
    let labels = slice_labels(svc);
    for (k, (ports, eps)) in &desired {
        let mut slices = by_key.remove(k).unwrap_or_default();
        crate::sort::sort_by(&mut slices, |a, b| a.metadata.name.cmp(&b.metadata.name));
        // Keep existing endpoints in place (updated), drop the undesired, append the new.
        let mut remaining: Vec<Endpoint> = eps.clone();
        let mut kept_plans = Vec::new();
        for s in slices.iter() {
            let mut new_eps = Vec::new();
            for old in s.endpoints.iter().flatten() {
                if let Some(i) = remaining.iter().position(|e| endpoint_pod(e) == endpoint_pod(old)) {
                    new_eps.push(remaining.remove(i));
                }
            }
            kept_plans.push((s.clone(), new_eps));
        }
        for (_, new_eps) in kept_plans.iter_mut() {
            while new_eps.len() < MAX_ENDPOINTS_PER_SLICE && !remaining.is_empty() {
                new_eps.push(remaining.remove(0));
            }
        }
        for (s, new_eps) in kept_plans {
            if new_eps.is_empty() {
                to_delete.push(s);
                continue;
            }
            let changed = s.endpoints.as_deref().unwrap_or(&[]) != new_eps.as_slice()
                || s.metadata.labels.as_ref() != Some(&labels)
                || s.ports.as_deref().unwrap_or(&[]) != ports.as_slice();
            if changed {
                plans.push(Planned { name: s.metadata.name.clone(), ports: ports.clone(), endpoints: new_eps });
            }
        }
        while !remaining.is_empty() {
            let n = remaining.len().min(MAX_ENDPOINTS_PER_SLICE);
            plans.push(Planned { name: None, ports: ports.clone(), endpoints: remaining.drain(..n).collect() });
        }
    }
    for (_, slices) in by_key {
        to_delete.extend(slices);
    }
    let creates = plans.iter().filter(|p| p.name.is_none()).count();
    // No endpoints at all: one placeholder slice (kept if it is already there).
    if existing.len() == to_delete.len() && creates == 0 && desired.is_empty() {
        let placeholder_idx = to_delete.iter().position(|s| {
            s.endpoints.as_ref().is_none_or(|e| e.is_empty())
                && s.ports.as_ref().is_none_or(|p| p.is_empty())
                && s.metadata.labels.as_ref() == Some(&labels)
                && s.metadata.owner_references.iter().flatten().any(|r| r.uid == svc_uid)
        });
        match placeholder_idx {
            Some(i) if to_delete.len() == 1 => {
                to_delete.remove(i);
            }
            _ => plans.push(Planned { name: None, ports: vec![], endpoints: vec![] }),
        }
    }
    // Turn creates into updates of slices that would be deleted (finalize).
    for plan in plans.iter_mut().filter(|p| p.name.is_none()) {
        if let Some(i) =
            to_delete.iter().position(|s| s.metadata.owner_references.iter().flatten().any(|r| r.uid == svc_uid))
        {
            plan.name = to_delete.remove(i).metadata.name;
        }
    }
    if plans.is_empty() && to_delete.is_empty() {
        return Ok(());
    }

    let svc_obj = Object::from(svc.clone());
    let all_eps: Vec<Endpoint> = desired.values().flat_map(|(_, e)| e.clone()).collect();
    let mut actions = Vec::new();
    for p in &plans {
        let what = if p.endpoints.is_empty() {
            "no endpoints (placeholder)".to_string()
        } else {
            describe_endpoints(&p.endpoints)
        };
        match &p.name {
            Some(n) => actions.push(format!("update EndpointSlice {n}: {what}")),
            None => actions.push(format!("create EndpointSlice (generateName {svc_name}-): {what}")),
        }
    }
    for s in &to_delete {
        actions.push(format!("delete EndpointSlice {}", s.metadata.name.as_deref().unwrap_or("")));
    }
    if !skipped.is_empty() {
        actions.push(format!("skip Pod(s) on a Node that does not exist: {}", skipped.join(", ")));
    }
    let selector = svc.spec.as_ref().and_then(|s| s.selector.clone()).unwrap_or_default();
    let observed =
        format!("{} Pod(s) match {}; {}", pods.len(), format_labels(&selector), describe_endpoints(&all_eps));
    let warn = all_eps.is_empty();
    let summary = if all_eps.is_empty() {
        format!("endpointslice-controller: Service {svc_name} selects no Pod with an IP: its EndpointSlice has no endpoints")
    } else {
        format!("endpointslice-controller publishes {} for Service {svc_name}", describe_endpoints(&all_eps))
    };
    cx.decide(
        Phase::Endpoints,
        NAME,
        Some(&svc_obj),
        summary,
        observed,
        "one endpoint per matching Pod with an IP, in slices of up to 100".into(),
        actions,
        if warn { StepStatus::Warning } else { StepStatus::Ok },
    );

    let owner = new_controller_ref(&svc.metadata, "v1", "Service");
    let mut failed = None;
    let deleting = is_deleting(&svc.metadata);
    for p in plans {
        let mut annotations = BTreeMap::new();
        if let Some(t) = trigger {
            annotations.insert(TRIGGER_TIME_ANNOTATION.to_string(), rfc3339_nano(t));
        }
        let mut slice = EndpointSlice {
            address_type: "IPv4".into(),
            endpoints: (!p.endpoints.is_empty()).then_some(p.endpoints),
            ports: (!p.ports.is_empty()).then_some(p.ports),
            ..Default::default()
        };
        slice.metadata.namespace = ns.clone();
        slice.metadata.labels = Some(labels.clone());
        slice.metadata.owner_references = Some(vec![owner.clone()]);
        let resp = match p.name {
            Some(n) => {
                let current = existing.iter().find(|s| s.metadata.name.as_deref() == Some(n.as_str()));
                slice.metadata = current.map(|c| c.metadata.clone()).unwrap_or(slice.metadata);
                slice.metadata.labels = Some(labels.clone());
                let mut ann = slice.metadata.annotations.clone().unwrap_or_default();
                ann.remove(TRIGGER_TIME_ANNOTATION);
                ann.extend(annotations);
                slice.metadata.annotations = (!ann.is_empty()).then_some(ann);
                cx.update(SERVICE_ACCOUNT, Object::from(slice))
            }
            None if deleting => continue,
            None => {
                slice.metadata.generate_name = Some(format!("{svc_name}-"));
                slice.metadata.annotations = (!annotations.is_empty()).then_some(annotations);
                cx.create(SERVICE_ACCOUNT, Object::from(slice))
            }
        };
        if let Some(e) = resp.error {
            if !super::replicaset::namespace_terminating(&e.message) {
                failed.get_or_insert(e.message);
            }
        }
    }
    for s in to_delete {
        let resp =
            cx.delete(SERVICE_ACCOUNT, "EndpointSlice", ns.as_deref(), s.metadata.name.as_deref().unwrap_or(""), None);
        if let Some(e) = resp.error.filter(|e| e.code != 404) {
            failed.get_or_insert(e.message);
        }
    }
    if let Some(msg) = failed {
        let ns = ns.unwrap_or_default();
        cx.event(
            SOURCE,
            &svc_obj,
            "Warning",
            "FailedToUpdateEndpointSlices",
            &format!("Error updating Endpoint Slices for Service {ns}/{svc_name}: {msg}"),
        );
        return Err(());
    }
    if !skipped.is_empty() {
        return Err(());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trigger_times_format_like_rfc3339nano() {
        assert_eq!(rfc3339_nano(3_000), "2026-01-01T00:00:03Z");
        assert_eq!(rfc3339_nano(3_250), "2026-01-01T00:00:03.25Z");
    }
}
