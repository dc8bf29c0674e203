//! `kubectl describe` of the kinds `describe.rs`, `workloads.rs`, `storage.rs`, `node.rs`
//! and `config.rs` leave out (kubectl's `pkg/describe/describe.go`): the specific describers
//! of Endpoints, EndpointSlice, HorizontalPodAutoscaler (the `autoscaling/v2` one, which
//! kubectl uses for every served version), StorageClass, PriorityClass, IngressClass,
//! Ingress, NetworkPolicy and ReplicationController; and `GenericDescriberFor`, which kubectl
//! uses for every kind without a describer of its own (Lease, ControllerRevision, Event,
//! RuntimeClass, CSIDriver, PodTemplate, the webhook configurations, CRDs, custom resources):
//! Name, Namespace, Labels, Annotations, then `printUnstructuredContent` of the rest of the
//! object (keys sorted, each named by `smartLabelFor`), then the events.
//!
//! The lab's API server does not apply the defaults of StorageClass, PriorityClass and
//! NetworkPolicy; where kubectl reads a field a real API server always sets, the describer
//! falls back to that default (`Delete`, `Immediate`, `PreemptLowerPriority`, the policy
//! types `SetDefaults_NetworkPolicy` derives).

use super::describe::{
    describe_events, describe_pod_template, print_annotations_multiline, print_labels_multiline, PrefixWriter,
};
use super::format::{format_labels, rfc1123z_opt, Clock};
use super::kinds::{ingress_address, is_default_class};
use super::kinds::{map_of, s};
use super::printers::format_label_selector;
use super::workloads::{describe_conditions, PodPhaseCounts};
use super::Snapshot;
use crate::object::{resource_for_kind, Object};
use k8s_openapi::api::core::v1::{Endpoints, Event, PodTemplateSpec};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use serde_json::Value;

/// A quantity as `resource.Quantity.String()` prints it.
fn quantity(v: &Value) -> String {
    let text = s(v);
    crate::quantity::Quantity::parse(&text).map(|q| q.to_string()).unwrap_or(if text.is_empty() {
        "0".to_string()
    } else {
        text
    })
}

fn head(w: &mut PrefixWriter, meta: &ObjectMeta) {
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")));
    print_labels_multiline(w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(w, "Annotations", meta.annotations.as_ref());
}

/// `describeEndpoints`: each subset's ready and not-ready addresses and its ports.
pub fn describe_endpoints(ep: &Endpoints, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    head(&mut w, &ep.metadata);
    w.write(0, "Subsets:\n");
    for subset in ep.subsets.iter().flatten() {
        let ips = |list: Option<&Vec<k8s_openapi::api::core::v1::EndpointAddress>>| {
            let joined = list.into_iter().flatten().map(|a| a.ip.as_str()).collect::<Vec<_>>().join(",");
            if joined.is_empty() {
                "<none>".to_string()
            } else {
                joined
            }
        };
        w.write(1, &format!("Addresses:\t{}\n", ips(subset.addresses.as_ref())));
        w.write(1, &format!("NotReadyAddresses:\t{}\n", ips(subset.not_ready_addresses.as_ref())));
        let ports = subset.ports.as_deref().unwrap_or_default();
        if !ports.is_empty() {
            w.write(1, "Ports:\n");
            w.write(2, "Name\tPort\tProtocol\n");
            w.write(2, "----\t----\t--------\n");
            for p in ports {
                let name = p.name.as_deref().filter(|n| !n.is_empty()).unwrap_or("<unset>");
                w.write(2, &format!("{name}\t{}\t{}\n", p.port, p.protocol.as_deref().unwrap_or("")));
            }
        }
        w.write(0, "\n");
    }
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `describeEndpointSliceV1`: the address type, the ports, then each endpoint with its
/// conditions, host name, target, node and zone.
pub fn describe_endpoint_slice(eps: &EndpointSlice, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    head(&mut w, &eps.metadata);
    w.write(0, &format!("AddressType:\t{}\n", eps.address_type));
    let ports = eps.ports.as_deref().unwrap_or_default();
    if ports.is_empty() {
        w.write(0, "Ports: <unset>\n");
    } else {
        w.write(0, "Ports:\n");
        w.write(1, "Name\tPort\tProtocol\n");
        w.write(1, "----\t----\t--------\n");
        for p in ports {
            let name = p.name.as_deref().filter(|n| !n.is_empty()).unwrap_or("<unset>");
            let port = p.port.map(|n| n.to_string()).unwrap_or_else(|| "<unset>".into());
            w.write(1, &format!("{name}\t{port}\t{}\n", p.protocol.as_deref().unwrap_or("")));
        }
    }
    let endpoints = eps.endpoints.as_deref().unwrap_or_default();
    if endpoints.is_empty() {
        w.write(0, "Endpoints: <none>\n");
    } else {
        w.write(0, "Endpoints:\n");
        for e in endpoints {
            let addresses = e.addresses.join(", ");
            w.write(1, &format!("- Addresses:\t{}\n", if addresses.is_empty() { "<none>" } else { &addresses }));
            w.write(2, "Conditions:\n");
            let ready = e.conditions.as_ref().and_then(|c| c.ready).map(|r| r.to_string());
            w.write(3, &format!("Ready:\t{}\n", ready.as_deref().unwrap_or("<unset>")));
            w.write(2, &format!("Hostname:\t{}\n", e.hostname.as_deref().unwrap_or("<unset>")));
            if let Some(t) = &e.target_ref {
                w.write(
                    2,
                    &format!("TargetRef:\t{}/{}\n", t.kind.as_deref().unwrap_or(""), t.name.as_deref().unwrap_or("")),
                );
            }
            w.write(2, &format!("NodeName:\t{}\n", e.node_name.as_deref().unwrap_or("<unset>")));
            w.write(2, &format!("Zone:\t{}\n", e.zone.as_deref().unwrap_or("<unset>")));
        }
    }
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `printDirectionBehavior`.
fn direction_behavior(w: &mut PrefixWriter, direction: &str, rules: &Value) {
    if !rules.is_object() {
        return;
    }
    w.write(1, &format!("{direction}:\n"));
    if let Some(window) = rules["stabilizationWindowSeconds"].as_i64() {
        w.write(2, &format!("Stabilization Window: {window} seconds\n"));
    }
    let policies = rules["policies"].as_array().cloned().unwrap_or_default();
    if !policies.is_empty() {
        let select = rules["selectPolicy"].as_str().unwrap_or("Max");
        w.write(2, &format!("Select Policy: {select}\n"));
        w.write(2, "Policies:\n");
        for p in &policies {
            w.write(
                3,
                &format!(
                    "- Type: {}\tValue: {}\tPeriod: {} seconds\n",
                    s(&p["type"]),
                    p["value"].as_i64().unwrap_or(0),
                    p["periodSeconds"].as_i64().unwrap_or(0)
                ),
            );
        }
    }
}

/// `describeHorizontalPodAutoscalerV2` of the stored object read as `autoscaling/v2` (an
/// `autoscaling/v1` object's CPU target becomes its one Resource metric, as the API server's
/// conversion makes it).
pub fn describe_hpa(hpa: &crate::object::Unstructured, events: &[&Event], clock: Clock) -> String {
    let spec = hpa.rest.get("spec").cloned().unwrap_or_default();
    let status = hpa.rest.get("status").cloned().unwrap_or_default();
    let mut w = PrefixWriter::new();
    head(&mut w, &hpa.metadata);
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z_opt(hpa.metadata.creation_timestamp.as_ref())));
    let target = &spec["scaleTargetRef"];
    w.write(0, &format!("Reference:\t{}/{}\n", s(&target["kind"]), s(&target["name"])));
    w.write(0, "Metrics:\t( current / target )\n");
    let current = status["currentMetrics"].as_array().cloned().unwrap_or_default();
    for (i, m) in crate::controllers::podautoscaler::metrics_of(&hpa.api_version, &spec).iter().enumerate() {
        let v = &m.value;
        // The metric's status, when the status holds one of that source.
        let status_of = |field: &str| current.get(i).map(|c| &c[field]).filter(|c| c.is_object());
        match m.type_.as_str() {
            "External" => {
                let t = &v["external"]["target"];
                let metric = s(&v["external"]["metric"]["name"]);
                let c = status_of("external");
                if !t["averageValue"].is_null() {
                    let cur = c
                        .map(|c| &c["current"]["averageValue"])
                        .filter(|a| !a.is_null())
                        .map(quantity)
                        .unwrap_or_else(|| "<unknown>".into());
                    w.write(
                        1,
                        &format!("{metric:?} (target average value):\t{cur} / {}\n", quantity(&t["averageValue"])),
                    );
                } else {
                    let cur = c.map(|c| quantity(&c["current"]["value"])).unwrap_or_else(|| "<unknown>".into());
                    w.write(1, &format!("{metric:?} (target value):\t{cur} / {}\n", quantity(&t["value"])));
                }
            }
            "Pods" => {
                let cur = status_of("pods")
                    .map(|c| quantity(&c["current"]["averageValue"]))
                    .unwrap_or_else(|| "<unknown>".into());
                let metric = s(&v["pods"]["metric"]["name"]);
                w.write(
                    1,
                    &format!("{metric:?} on pods:\t{cur} / {}\n", quantity(&v["pods"]["target"]["averageValue"])),
                );
            }
            "Object" => {
                let o = &v["object"];
                w.write(
                    1,
                    &format!(
                        "\"{}\" on {}/{} ",
                        s(&o["metric"]["name"]),
                        s(&o["describedObject"]["kind"]),
                        s(&o["describedObject"]["name"])
                    ),
                );
                let c = status_of("object");
                if o["target"]["type"] == "AverageValue" {
                    let cur = c.map(|c| quantity(&c["current"]["averageValue"])).unwrap_or_else(|| "<unknown>".into());
                    w.write(
                        0,
                        &format!("(target average value):\t{cur} / {}\n", quantity(&o["target"]["averageValue"])),
                    );
                } else {
                    let cur = c.map(|c| quantity(&c["current"]["value"])).unwrap_or_else(|| "<unknown>".into());
                    w.write(0, &format!("(target value):\t{cur} / {}\n", quantity(&o["target"]["value"])));
                }
            }
            type_ @ ("Resource" | "ContainerResource") => {
                let field = if type_ == "Resource" { "resource" } else { "containerResource" };
                let r = &v[field];
                if type_ == "Resource" {
                    w.write(1, &format!("resource {} on pods", s(&r["name"])));
                } else {
                    w.write(1, &format!("resource {} of container \"{}\" on pods", s(&r["name"]), s(&r["container"])));
                }
                let c = status_of(field);
                if !r["target"]["averageValue"].is_null() {
                    let cur = c.map(|c| quantity(&c["current"]["averageValue"])).unwrap_or_else(|| "<unknown>".into());
                    w.write(0, &format!(":\t{cur} / {}\n", quantity(&r["target"]["averageValue"])));
                } else {
                    let cur = c
                        .filter(|c| c["current"]["averageUtilization"].is_i64())
                        .map(|c| {
                            format!(
                                "{}% ({})",
                                c["current"]["averageUtilization"].as_i64().unwrap_or(0),
                                quantity(&c["current"]["averageValue"])
                            )
                        })
                        .unwrap_or_else(|| "<unknown>".into());
                    let target = r["target"]["averageUtilization"]
                        .as_i64()
                        .map(|p| format!("{p}%"))
                        .unwrap_or_else(|| "<auto>".into());
                    w.write(1, &format!("(as a percentage of request):\t{cur} / {target}\n"));
                }
            }
            other => w.write(1, &format!("<unknown metric type {other:?}>\n")),
        }
    }
    let min = spec["minReplicas"].as_i64().map(|m| m.to_string()).unwrap_or_else(|| "<unset>".into());
    w.write(0, &format!("Min replicas:\t{min}\n"));
    w.write(0, &format!("Max replicas:\t{}\n", spec["maxReplicas"].as_i64().unwrap_or(0)));
    if spec["behavior"].is_object() {
        w.write(0, "Behavior:\n");
        direction_behavior(&mut w, "Scale Up", &spec["behavior"]["scaleUp"]);
        direction_behavior(&mut w, "Scale Down", &spec["behavior"]["scaleDown"]);
    }
    w.write(0, &format!("{} pods:\t", s(&target["kind"])));
    w.write(
        0,
        &format!(
            "{} current / {} desired\n",
            status["currentReplicas"].as_i64().unwrap_or(0),
            status["desiredReplicas"].as_i64().unwrap_or(0)
        ),
    );
    let conditions = status["conditions"].as_array().cloned().unwrap_or_default();
    if !conditions.is_empty() {
        w.write(0, "Conditions:\n");
        w.write(1, "Type\tStatus\tReason\tMessage\n");
        w.write(1, "----\t------\t------\t-------\n");
        for c in &conditions {
            w.write(1, &format!("{}\t{}\t{}\t{}\n", s(&c["type"]), s(&c["status"]), s(&c["reason"]), s(&c["message"])));
        }
    }
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `describeStorageClass`.
pub fn describe_storage_class(o: &Object, events: &[&Event], clock: Clock) -> String {
    let j = o.to_json();
    let meta = o.meta();
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", o.name()));
    w.write(0, &format!("IsDefaultClass:\t{}\n", if is_default_class(meta) { "Yes" } else { "No" }));
    w.write(0, &format!("Annotations:\t{}\n", format_labels(meta.annotations.as_ref())));
    w.write(0, &format!("Provisioner:\t{}\n", s(&j["provisioner"])));
    w.write(0, &format!("Parameters:\t{}\n", format_labels(map_of(&j["parameters"]).as_ref())));
    let expansion = match j["allowVolumeExpansion"].as_bool() {
        Some(true) => "True",
        Some(false) => "False",
        None => "<unset>",
    };
    w.write(0, &format!("AllowVolumeExpansion:\t{expansion}\n"));
    let options: Vec<String> = j["mountOptions"].as_array().into_iter().flatten().map(s).collect();
    if options.is_empty() {
        w.write(0, "MountOptions:\t<none>\n");
    } else {
        w.write(0, "MountOptions:\n");
        for option in &options {
            w.write(1, &format!("{option}\n"));
        }
    }
    w.write(0, &format!("ReclaimPolicy:\t{}\n", j["reclaimPolicy"].as_str().unwrap_or("Delete")));
    w.write(0, &format!("VolumeBindingMode:\t{}\n", j["volumeBindingMode"].as_str().unwrap_or("Immediate")));
    if let Some(terms) = j["allowedTopologies"].as_array() {
        w.write(0, "AllowedTopologies:\t");
        if terms.is_empty() {
            w.line("<none>");
        } else {
            w.line("");
            for (i, term) in terms.iter().enumerate() {
                w.write(1, &format!("Term {i}:\t"));
                let reqs = term["matchLabelExpressions"].as_array().cloned().unwrap_or_default();
                if reqs.is_empty() {
                    w.line("<none>");
                }
                for (k, req) in reqs.iter().enumerate() {
                    if k != 0 {
                        w.write(1, "\t");
                    }
                    let values: Vec<String> = req["values"].as_array().into_iter().flatten().map(s).collect();
                    let mut expr = format!("{} in", s(&req["key"]));
                    if !values.is_empty() {
                        expr = format!("{expr} [{}]", values.join(", "));
                    }
                    w.write(0, &format!("{expr}\n"));
                }
            }
        }
    }
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `describePriorityClass`.
pub fn describe_priority_class(o: &Object, events: &[&Event], clock: Clock) -> String {
    let j = o.to_json();
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", o.name()));
    w.write(0, &format!("Value:\t{}\n", j["value"].as_i64().unwrap_or(0)));
    w.write(0, &format!("GlobalDefault:\t{}\n", j["globalDefault"].as_bool().unwrap_or(false)));
    w.write(0, &format!("PreemptionPolicy:\t{}\n", j["preemptionPolicy"].as_str().unwrap_or("PreemptLowerPriority")));
    w.write(0, &format!("Description:\t{}\n", s(&j["description"])));
    w.write(0, &format!("Annotations:\t{}\n", format_labels(o.meta().annotations.as_ref())));
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `describeIngressClassV1`.
pub fn describe_ingress_class(o: &Object, events: &[&Event], clock: Clock) -> String {
    let j = o.to_json();
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", o.name()));
    print_labels_multiline(&mut w, "Labels", o.meta().labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", o.meta().annotations.as_ref());
    w.write(0, &format!("Controller:\t{}\n", s(&j["spec"]["controller"])));
    let p = &j["spec"]["parameters"];
    if p.is_object() {
        w.write(0, "Parameters:\n");
        if let Some(g) = p["apiGroup"].as_str() {
            w.write(1, &format!("APIGroup:\t{g}\n"));
        }
        w.write(1, &format!("Kind:\t{}\n", s(&p["kind"])));
        w.write(1, &format!("Name:\t{}\n", s(&p["name"])));
    }
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `formatEndpointSlices`: the ready endpoints of the slices' port named `port` as
/// `ip:port` (bare addresses for slices without ports), three at most.
pub(crate) fn format_endpoint_slices(slices: &[Value], port: &str) -> String {
    if slices.is_empty() {
        return "<none>".to_string();
    }
    const MAX: usize = 3;
    let mut list: Vec<String> = Vec::new();
    let mut more = false;
    let mut count = 0;
    for slice in slices {
        let endpoints = slice["endpoints"].as_array().cloned().unwrap_or_default();
        let ready = |e: &Value| e["conditions"]["ready"].as_bool().unwrap_or(true);
        let ports = slice["ports"].as_array().cloned().unwrap_or_default();
        if ports.is_empty() {
            for e in &endpoints {
                if list.len() == MAX {
                    more = true;
                }
                if !ready(e) {
                    continue;
                }
                if !more {
                    list.push(s(&e["addresses"][0]));
                }
                count += 1;
            }
            continue;
        }
        for p in ports.iter().filter(|p| s(&p["name"]) == port) {
            for e in &endpoints {
                if list.len() == MAX {
                    more = true;
                }
                if !ready(e) {
                    continue;
                }
                if !more {
                    let addr = s(&e["addresses"][0]);
                    let number = p["port"].as_i64().unwrap_or(0);
                    list.push(if addr.contains(':') {
                        format!("[{addr}]:{number}")
                    } else {
                        format!("{addr}:{number}")
                    });
                }
                count += 1;
            }
        }
    }
    let ret = list.join(",");
    if more {
        format!("{ret} + {} more...", count - MAX)
    } else {
        ret
    }
}

impl Snapshot<'_> {
    /// `describeBackendV1`: a Service backend with the endpoints of its port, or a resource
    /// backend.
    fn ingress_backend(&self, namespace: &str, backend: &Value) -> String {
        let svc = &backend["service"];
        if svc.is_object() {
            let name = s(&svc["name"]);
            let number = svc["port"]["number"].as_i64().unwrap_or(0);
            let port_name = s(&svc["port"]["name"]);
            let shown = if number != 0 { format!("{name}:{number}") } else { format!("{name}:{port_name}") };
            let Some(service) = self.get("Service", Some(namespace), &name) else {
                return format!("{shown} (<error: services \"{name}\" not found>)");
            };
            let service = service.to_json();
            let mut sp_name = String::new();
            for sp in service["spec"]["ports"].as_array().into_iter().flatten() {
                let matches_number = number != 0 && sp["port"].as_i64() == Some(number);
                let matches_name = !port_name.is_empty() && s(&sp["name"]) == port_name;
                if matches_number || matches_name {
                    sp_name = s(&sp["name"]);
                }
            }
            let slices: Vec<Value> = self
                .list("EndpointSlice", Some(namespace))
                .into_iter()
                .map(|o| o.to_json())
                .filter(|j| j["metadata"]["labels"]["kubernetes.io/service-name"].as_str() == Some(name.as_str()))
                .collect();
            return format!("{shown} ({})", format_endpoint_slices(&slices, &sp_name));
        }
        let r = &backend["resource"];
        if r.is_object() {
            let group = r["apiGroup"].as_str().unwrap_or("<none>");
            return format!("APIGroup: {group}, Kind: {}, Name: {}", s(&r["kind"]), s(&r["name"]));
        }
        String::new()
    }

    /// `describeIngressV1`.
    pub fn describe_ingress(&self, namespace: &str, name: &str) -> Option<String> {
        let o = self.get("Ingress", Some(namespace), name)?;
        let j = o.to_json();
        let spec = &j["spec"];
        let ns = o.namespace().unwrap_or("");
        let mut w = PrefixWriter::new();
        w.write(0, &format!("Name:\t{}\n", o.name()));
        print_labels_multiline(&mut w, "Labels", o.meta().labels.as_ref());
        w.write(0, &format!("Namespace:\t{ns}\n"));
        w.write(0, &format!("Address:\t{}\n", ingress_address(&j["status"])));
        w.write(0, &format!("Ingress Class:\t{}\n", spec["ingressClassName"].as_str().unwrap_or("<none>")));
        let default_backend = if spec["defaultBackend"].is_object() {
            self.ingress_backend(ns, &spec["defaultBackend"])
        } else {
            "<default>".to_string()
        };
        w.write(0, &format!("Default backend:\t{default_backend}\n"));
        let tls = spec["tls"].as_array().cloned().unwrap_or_default();
        if !tls.is_empty() {
            w.write(0, "TLS:\n");
            for t in &tls {
                let hosts: Vec<String> = t["hosts"].as_array().into_iter().flatten().map(s).collect();
                match t["secretName"].as_str().filter(|n| !n.is_empty()) {
                    None => w.write(1, &format!("SNI routes {}\n", hosts.join(","))),
                    Some(secret) => w.write(1, &format!("{secret} terminates {}\n", hosts.join(","))),
                }
            }
        }
        w.write(0, "Rules:\n  Host\tPath\tBackends\n");
        w.write(1, "----\t----\t--------\n");
        let mut count = 0;
        for rule in spec["rules"].as_array().into_iter().flatten() {
            if !rule["http"].is_object() {
                continue;
            }
            count += 1;
            let host = rule["host"].as_str().filter(|h| !h.is_empty()).unwrap_or("*");
            w.write(1, &format!("{host}\t\n"));
            for path in rule["http"]["paths"].as_array().into_iter().flatten() {
                let backend = self.ingress_backend(ns, &path["backend"]);
                w.write(2, &format!("\t{} \t{backend}\n", s(&path["path"])));
            }
        }
        if count == 0 {
            w.write(1, &format!("*\t*\t{default_backend}\n"));
        }
        print_annotations_multiline(&mut w, "Annotations", o.meta().annotations.as_ref());
        describe_events(&mut w, &self.events_about(Some("Ingress"), o.meta()), self.clock);
        Some(w.finish())
    }
}

/// `port.Port` as `%s` prints an `*intstr.IntOrString` (`<nil>` when unset).
fn policy_port(p: &Value) -> String {
    match &p["port"] {
        Value::Null => "<nil>".to_string(),
        v => s(v),
    }
}

/// `printNetworkPolicySpecIngressFrom` / `printNetworkPolicySpecEgressTo`.
fn policy_rules(w: &mut PrefixWriter, rules: &[Value], peers_key: &str, ingress: bool) {
    let indent = "    ";
    if rules.is_empty() {
        let text = if ingress {
            "<none> (Selected pods are isolated for ingress connectivity)"
        } else {
            "<none> (Selected pods are isolated for egress connectivity)"
        };
        w.write(0, &format!("{indent}{text}\n"));
        return;
    }
    for (i, rule) in rules.iter().enumerate() {
        let ports = rule["ports"].as_array().cloned().unwrap_or_default();
        if ports.is_empty() {
            w.write(0, &format!("{indent}To Port: <any> (traffic allowed to all ports)\n"));
        }
        for p in &ports {
            let proto = p["protocol"].as_str().unwrap_or("TCP");
            match p["endPort"].as_i64() {
                None => w.write(0, &format!("{indent}To Port: {}/{proto}\n", policy_port(p))),
                Some(end) => w.write(0, &format!("{indent}To Port Range: {}-{end}/{proto}\n", policy_port(p))),
            }
        }
        let peers = rule[peers_key].as_array().cloned().unwrap_or_default();
        let (title, any) = if ingress {
            ("From:", "From: <any> (traffic not restricted by source)")
        } else {
            ("To:", "To: <any> (traffic not restricted by destination)")
        };
        if peers.is_empty() {
            w.write(0, &format!("{indent}{any}\n"));
        }
        for peer in &peers {
            w.write(0, &format!("{indent}{title}\n"));
            let selector = |v: &Value| {
                let sel: LabelSelector = serde_json::from_value(v.clone()).unwrap_or_default();
                format_label_selector(Some(&sel))
            };
            let (pods, namespaces) = (&peer["podSelector"], &peer["namespaceSelector"]);
            if pods.is_object() && namespaces.is_object() {
                w.write(1, &format!("{indent}NamespaceSelector: {}\n", selector(namespaces)));
                w.write(1, &format!("{indent}PodSelector: {}\n", selector(pods)));
            } else if pods.is_object() {
                w.write(1, &format!("{indent}PodSelector: {}\n", selector(pods)));
            } else if namespaces.is_object() {
                w.write(1, &format!("{indent}NamespaceSelector: {}\n", selector(namespaces)));
            } else if peer["ipBlock"].is_object() {
                let block = &peer["ipBlock"];
                let except: Vec<String> = block["except"].as_array().into_iter().flatten().map(s).collect();
                w.write(1, &format!("{indent}IPBlock:\n"));
                w.write(2, &format!("{indent}CIDR: {}\n", s(&block["cidr"])));
                w.write(2, &format!("{indent}Except: {}\n", except.join(", ")));
            }
        }
        if i != rules.len() - 1 {
            w.write(0, &format!("{indent}----------\n"));
        }
    }
}

/// `describeNetworkPolicy` (kubectl shows no events for a NetworkPolicy).
pub fn describe_network_policy(o: &Object) -> String {
    let j = o.to_json();
    let spec = &j["spec"];
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", o.name()));
    w.write(0, &format!("Namespace:\t{}\n", o.namespace().unwrap_or("")));
    // `metav1.Time`'s `String()`: Go's default time layout, in UTC.
    let created = o
        .meta()
        .creation_timestamp
        .as_ref()
        .map(|t| t.0.to_zoned(k8s_openapi::jiff::tz::TimeZone::UTC).strftime("%Y-%m-%d %H:%M:%S +0000 UTC").to_string())
        .unwrap_or_else(|| "0001-01-01 00:00:00 +0000 UTC".to_string());
    w.write(0, &format!("Created on:\t{created}\n"));
    print_labels_multiline(&mut w, "Labels", o.meta().labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", o.meta().annotations.as_ref());
    w.write(0, "Spec:\n");
    w.write(1, "PodSelector: ");
    let selector: LabelSelector = serde_json::from_value(spec["podSelector"].clone()).unwrap_or_default();
    if selector.match_labels.as_ref().is_none_or(|m| m.is_empty())
        && selector.match_expressions.as_ref().is_none_or(|m| m.is_empty())
    {
        w.write(2, "<none> (Allowing the specific traffic to all pods in this namespace)\n");
    } else {
        w.write(2, &format!("{}\n", format_label_selector(Some(&selector))));
    }
    let ingress_rules = spec["ingress"].as_array().cloned().unwrap_or_default();
    let egress_rules = spec["egress"].as_array().cloned().unwrap_or_default();
    // `SetDefaults_NetworkPolicy`: Ingress always, Egress when there are egress rules.
    let mut types: Vec<String> = spec["policyTypes"].as_array().into_iter().flatten().map(s).collect();
    if types.is_empty() {
        types.push("Ingress".into());
        if !egress_rules.is_empty() {
            types.push("Egress".into());
        }
    }
    if types.iter().any(|t| t == "Ingress") {
        w.write(1, "Allowing ingress traffic:\n");
        policy_rules(&mut w, &ingress_rules, "from", true);
    } else {
        w.write(1, "Not affecting ingress traffic\n");
    }
    if types.iter().any(|t| t == "Egress") {
        w.write(1, "Allowing egress traffic:\n");
        policy_rules(&mut w, &egress_rules, "to", false);
    } else {
        w.write(1, "Not affecting egress traffic\n");
    }
    w.write(1, &format!("Policy Types: {}\n", types.join(", ")));
    w.finish()
}

/// `describeReplicationController`.
pub fn describe_replication_controller(o: &Object, pods: PodPhaseCounts, events: &[&Event], clock: Clock) -> String {
    let j = o.to_json();
    let mut w = PrefixWriter::new();
    w.write(0, &format!("Name:\t{}\n", o.name()));
    w.write(0, &format!("Namespace:\t{}\n", o.namespace().unwrap_or("")));
    w.write(0, &format!("Selector:\t{}\n", format_labels(map_of(&j["spec"]["selector"]).as_ref())));
    print_labels_multiline(&mut w, "Labels", o.meta().labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", o.meta().annotations.as_ref());
    w.write(
        0,
        &format!(
            "Replicas:\t{} current / {} desired\n",
            j["status"]["replicas"].as_i64().unwrap_or(0),
            j["spec"]["replicas"].as_i64().unwrap_or(1)
        ),
    );
    w.write(
        0,
        &format!(
            "Pods Status:\t{} Running / {} Waiting / {} Succeeded / {} Failed\n",
            pods.running, pods.waiting, pods.succeeded, pods.failed
        ),
    );
    let template: Option<PodTemplateSpec> = serde_json::from_value(j["spec"]["template"].clone()).ok();
    describe_pod_template(&mut w, template.as_ref());
    let conditions = j["status"]["conditions"].as_array().cloned().unwrap_or_default();
    let rows: Vec<(String, String, String)> =
        conditions.iter().map(|c| (s(&c["type"]), s(&c["status"]), s(&c["reason"]))).collect();
    describe_conditions(&mut w, rows.iter().map(|(t, st, r)| (Some(t.as_str()), Some(st.as_str()), Some(r.as_str()))));
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `smartLabelFor`: a field name as words (`creationTimestamp` → `Creation Timestamp`,
/// `apiVersion` → `API Version`, `podCIDRs` → `Pod CIDRs`); a name with anything but letters
/// and `-` stays as it is.
pub fn smart_label_for(field: &str) -> String {
    if field.chars().any(|c| !c.is_alphabetic() && c != '-') {
        return field.to_string();
    }
    // fatih/camelcase's Split: runs of lower case, upper case and other characters, the last
    // upper-case letter of a run moved to the lower-case run after it.
    let class = |c: char| {
        if c.is_lowercase() {
            1
        } else if c.is_uppercase() {
            2
        } else if c.is_numeric() {
            3
        } else {
            4
        }
    };
    let mut runs: Vec<Vec<char>> = Vec::new();
    let mut last = 0;
    for c in field.chars() {
        let k = class(c);
        match runs.last_mut() {
            Some(run) if k == last => run.push(c),
            _ => runs.push(vec![c]),
        }
        last = k;
    }
    for i in 0..runs.len().saturating_sub(1) {
        let upper_then_lower =
            runs[i].first().is_some_and(|c| c.is_uppercase()) && runs[i + 1].first().is_some_and(|c| c.is_lowercase());
        if upper_then_lower {
            if let Some(c) = runs[i].pop() {
                runs[i + 1].insert(0, c);
            }
        }
    }
    let parts: Vec<String> = runs.into_iter().filter(|r| !r.is_empty()).map(|r| r.into_iter().collect()).collect();
    // Two or more upper-case letters followed by a part that starts upper case: one word.
    let mut merged: Vec<String> = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        let part = &parts[i];
        if let Some(next) = parts.get(i + 1) {
            let all_upper = part.chars().all(|c| !c.is_alphabetic() || c.is_uppercase());
            if part.len() >= 2 && all_upper && next.chars().next().is_some_and(|c| c.is_uppercase()) {
                merged.push(format!("{part}{next}"));
                i += 2;
                continue;
            }
        }
        merged.push(part.clone());
        i += 1;
    }
    merged
        .into_iter()
        .filter(|p| p != "_")
        .map(|p| {
            let upper = p.to_uppercase();
            if ["API", "URL", "UID", "GUID"].contains(&upper.as_str()) {
                upper
            } else if p.to_lowercase() == p {
                let mut c = p.chars();
                c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
            } else {
                p
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Go's `%v` of a JSON value as `encoding/json` decodes it into `interface{}`.
fn go_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => f.to_string(),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
        Value::Array(list) => format!("[{}]", list.iter().map(go_value).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            format!("map[{}]", keys.iter().map(|k| format!("{k}:{}", go_value(&m[*k]))).collect::<Vec<_>>().join(" "))
        }
    }
}

/// `printUnstructuredContent`: the fields in name order; a map as a heading and its fields
/// one level deeper, a list as a heading and its items one level deeper (maps one after
/// the other, other values one a line), anything else `Label:\tvalue`. `skip` holds the
/// paths (`.metadata.name`) left out.
fn print_unstructured(
    w: &mut PrefixWriter,
    level: usize,
    content: &serde_json::Map<String, Value>,
    prefix: &str,
    skip: &[&str],
) {
    let mut fields: Vec<&String> = content.keys().collect();
    fields.sort();
    for field in fields {
        let path = format!("{prefix}.{field}");
        if skip.contains(&path.as_str()) {
            continue;
        }
        match &content[field] {
            Value::Object(m) => {
                w.write(level, &format!("{}:\n", smart_label_for(field)));
                print_unstructured(w, level + 1, m, &path, skip);
            }
            Value::Array(list) => {
                w.write(level, &format!("{}:\n", smart_label_for(field)));
                for item in list {
                    match item {
                        Value::Object(m) => print_unstructured(w, level + 1, m, &path, skip),
                        other => w.write(level + 1, &format!("{}\n", go_value(other))),
                    }
                }
            }
            other => w.write(level, &format!("{}:\t{}\n", smart_label_for(field), go_value(other))),
        }
    }
}

/// `GenericDescriberFor`'s text of an object as the API server returns it (`json`, with its
/// `resourceVersion`).
pub fn describe_generic(meta: &ObjectMeta, json: &Value, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    head(&mut w, meta);
    if let Value::Object(content) = json {
        let skip = [
            ".metadata.managedFields",
            ".metadata.name",
            ".metadata.namespace",
            ".metadata.labels",
            ".metadata.annotations",
        ];
        print_unstructured(&mut w, 0, content, "", &skip);
    }
    describe_events(&mut w, events, clock);
    w.finish()
}

impl Snapshot<'_> {
    /// `kubectl describe` of a kind the describers of this file answer: the specific ones,
    /// then the generic describer for every other kind of the API server's. `None` when the
    /// object does not exist at this revision.
    pub fn describe_kind(&self, kind: &str, namespace: &str, name: &str) -> Option<String> {
        let res = resource_for_kind(kind)?;
        let ns = Some(namespace).filter(|_| res.namespaced);
        let obj = self.get(kind, ns, name)?;
        let events = self.events_about(Some(kind), obj.meta());
        Some(match kind {
            "Endpoints" => {
                let ep = crate::decode::from_value::<Endpoints>(&obj.to_json()).ok()?;
                describe_endpoints(&ep, &events, self.clock)
            }
            "EndpointSlice" => match obj {
                Object::EndpointSlice(eps) => describe_endpoint_slice(eps, &events, self.clock),
                _ => return None,
            },
            "HorizontalPodAutoscaler" => match obj {
                Object::Other(u) => describe_hpa(u, &events, self.clock),
                _ => return None,
            },
            "StorageClass" => describe_storage_class(obj, &events, self.clock),
            "PriorityClass" => describe_priority_class(obj, &events, self.clock),
            "IngressClass" => describe_ingress_class(obj, &events, self.clock),
            "Ingress" => return self.describe_ingress(namespace, name),
            "NetworkPolicy" => describe_network_policy(obj),
            "ReplicationController" => {
                let j = obj.to_json();
                let selector = LabelSelector { match_labels: map_of(&j["spec"]["selector"]), ..Default::default() };
                let pods = self.pod_phases_for_controller(ns, &selector, obj.meta().uid.as_deref());
                describe_replication_controller(obj, pods, &events, self.clock)
            }
            _ => {
                let key = res.etcd_key(ns, name);
                let revision = self.store.get_at(&key, self.revision).map(|(_, r)| r).unwrap_or(self.revision);
                let mut json = obj.to_json();
                if json["metadata"].get("resourceVersion").is_none() {
                    json["metadata"]["resourceVersion"] = Value::String(revision.to_string());
                }
                describe_generic(obj.meta(), &json, &events, self.clock)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_labels_as_kubectl_words_them() {
        let cases = [
            ("apiVersion", "API Version"),
            ("creationTimestamp", "Creation Timestamp"),
            ("uid", "UID"),
            ("resourceVersion", "Resource Version"),
            ("podCIDRs", "Pod CIDRs"),
            ("holderIdentity", "Holder Identity"),
            ("leaseDurationSeconds", "Lease Duration Seconds"),
            ("clientConfig", "Client Config"),
            ("url", "URL"),
            ("HTTPGet", "HTTPGet"),
            ("app", "App"),
            ("kubernetes.io/metadata.name", "kubernetes.io/metadata.name"),
            ("v1", "v1"),
            ("foo-bar", "Foo - Bar"),
        ];
        for (field, want) in cases {
            assert_eq!(smart_label_for(field), want, "{field}");
        }
    }

    #[test]
    fn go_values() {
        let v: Value = serde_json::from_str(r#"[1, 2.5, "a", true, null, [1, "b"], {"b": 1, "a": "x"}]"#).unwrap();
        let out: Vec<String> = v.as_array().unwrap().iter().map(go_value).collect();
        assert_eq!(out, ["1", "2.5", "a", "true", "<nil>", "[1 b]", "map[a:x b:1]"]);
    }
}
