//! The API server's table printers (`pkg/printers/internalversion/printers.go`) for the kinds
//! the lab shows besides pods: deployments, replicasets, jobs, services, endpoint slices,
//! endpoints, nodes and events.

use super::format::{format_labels, human_duration, Clock};
use super::table::{col, wide, Column, Row};
use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::{Endpoints, Event, Node, PersistentVolume, PersistentVolumeClaim, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};

fn name(meta: &ObjectMeta) -> String {
    meta.name.clone().unwrap_or_default()
}

fn namespace(meta: &ObjectMeta) -> String {
    meta.namespace.clone().unwrap_or_default()
}

/// `metav1.FormatLabelSelector`: `<none>` for an empty selector, `<error>` for a bad one.
pub fn format_label_selector(selector: Option<&LabelSelector>) -> String {
    let s = label_selector_string(selector);
    if s.is_empty() {
        "<none>".to_string()
    } else {
        s
    }
}

pub use crate::labels::label_selector_string;

fn layout_containers(spec: Option<&k8s_openapi::api::core::v1::PodSpec>) -> (String, String) {
    let containers = spec.map(|s| s.containers.as_slice()).unwrap_or(&[]);
    let names = containers.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(",");
    let images = containers.iter().map(|c| c.image.as_deref().unwrap_or("")).collect::<Vec<_>>().join(",");
    (names, images)
}

pub const DEPLOYMENT_COLUMNS: &[Column] = &[
    col("Name"),
    col("Ready"),
    col("Up-to-date"),
    col("Available"),
    col("Age"),
    wide("Containers"),
    wide("Images"),
    wide("Selector"),
];

pub fn deployment_row(d: &Deployment, clock: Clock) -> Row {
    let spec = Some(&d.spec);
    let status = d.status.as_ref();
    // The API server defaults spec.replicas to 1.
    let desired = spec.and_then(|s| s.replicas).unwrap_or(1);
    let ready = status.and_then(|s| s.ready_replicas).unwrap_or(0);
    let (names, images) = layout_containers(spec.and_then(|s| s.template.spec.as_ref()));
    Row {
        namespace: namespace(&d.metadata),
        cells: vec![
            name(&d.metadata),
            format!("{ready}/{desired}"),
            status.and_then(|s| s.updated_replicas).unwrap_or(0).to_string(),
            status.and_then(|s| s.available_replicas).unwrap_or(0).to_string(),
            clock.since(d.metadata.creation_timestamp.as_ref()),
            names,
            images,
            label_selector_string(spec.map(|s| &s.selector)),
        ],
    }
}

/// `statefulSetColumnDefinitions`: READY is ready replicas over `spec.replicas`.
pub const STATEFULSET_COLUMNS: &[Column] = &[col("Name"), col("Ready"), col("Age"), wide("Containers"), wide("Images")];

pub fn statefulset_row(set: &StatefulSet, clock: Clock) -> Row {
    let desired = set.spec.replicas.unwrap_or(1);
    let ready = set.status.as_ref().and_then(|s| s.ready_replicas).unwrap_or(0);
    let (names, images) = layout_containers(set.spec.template.spec.as_ref());
    Row {
        namespace: namespace(&set.metadata),
        cells: vec![
            name(&set.metadata),
            format!("{ready}/{desired}"),
            clock.since(set.metadata.creation_timestamp.as_ref()),
            names,
            images,
        ],
    }
}

/// `daemonSetColumnDefinitions`.
pub const DAEMONSET_COLUMNS: &[Column] = &[
    col("Name"),
    col("Desired"),
    col("Current"),
    col("Ready"),
    col("Up-to-date"),
    col("Available"),
    col("Node Selector"),
    col("Age"),
    wide("Containers"),
    wide("Images"),
    wide("Selector"),
];

pub fn daemonset_row(ds: &DaemonSet, clock: Clock) -> Row {
    let status = ds.status.as_ref();
    let n = |f: fn(&k8s_openapi::api::apps::v1::DaemonSetStatus) -> i32| status.map(f).unwrap_or(0).to_string();
    let o = |f: fn(&k8s_openapi::api::apps::v1::DaemonSetStatus) -> Option<i32>| {
        status.and_then(f).unwrap_or(0).to_string()
    };
    let pod_spec = ds.spec.template.spec.as_ref();
    let (names, images) = layout_containers(pod_spec);
    Row {
        namespace: namespace(&ds.metadata),
        cells: vec![
            name(&ds.metadata),
            n(|s| s.desired_number_scheduled),
            n(|s| s.current_number_scheduled),
            n(|s| s.number_ready),
            o(|s| s.updated_number_scheduled),
            o(|s| s.number_available),
            format_labels(pod_spec.and_then(|s| s.node_selector.as_ref())),
            clock.since(ds.metadata.creation_timestamp.as_ref()),
            names,
            images,
            label_selector_string(Some(&ds.spec.selector)),
        ],
    }
}

/// `helper.GetAccessModesAsString`: the short names in upstream's fixed order.
pub fn access_modes(modes: Option<&Vec<String>>) -> String {
    let modes = modes.map(Vec::as_slice).unwrap_or(&[]);
    [("ReadWriteOnce", "RWO"), ("ReadOnlyMany", "ROX"), ("ReadWriteMany", "RWX"), ("ReadWriteOncePod", "RWOP")]
        .iter()
        .filter(|(long, _)| modes.iter().any(|m| m == long))
        .map(|(_, short)| *short)
        .collect::<Vec<_>>()
        .join(",")
}

/// `persistentVolumeColumnDefinitions`.
pub const PERSISTENT_VOLUME_COLUMNS: &[Column] = &[
    col("Name"),
    col("Capacity"),
    col("Access Modes"),
    col("Reclaim Policy"),
    col("Status"),
    col("Claim"),
    col("StorageClass"),
    col("VolumeAttributesClass"),
    col("Reason"),
    col("Age"),
    wide("VolumeMode"),
];

pub fn persistent_volume_row(pv: &PersistentVolume, clock: Clock) -> Row {
    let spec = pv.spec.as_ref();
    let claim = spec
        .and_then(|s| s.claim_ref.as_ref())
        .map(|r| format!("{}/{}", r.namespace.as_deref().unwrap_or(""), r.name.as_deref().unwrap_or("")))
        .unwrap_or_default();
    let phase = if pv.metadata.deletion_timestamp.is_some() {
        "Terminating".to_string()
    } else {
        pv.status.as_ref().and_then(|s| s.phase.clone()).unwrap_or_default()
    };
    Row {
        namespace: String::new(),
        cells: vec![
            name(&pv.metadata),
            spec.and_then(|s| s.capacity.as_ref())
                .and_then(|c| c.get("storage"))
                .map(|q| q.0.clone())
                .unwrap_or_default(),
            access_modes(spec.and_then(|s| s.access_modes.as_ref())),
            spec.and_then(|s| s.persistent_volume_reclaim_policy.clone()).unwrap_or_default(),
            phase,
            claim,
            super::storage::volume_storage_class(pv),
            spec.and_then(|s| s.volume_attributes_class_name.clone()).unwrap_or_else(|| "<unset>".into()),
            pv.status.as_ref().and_then(|s| s.reason.clone()).unwrap_or_default(),
            clock.since(pv.metadata.creation_timestamp.as_ref()),
            spec.and_then(|s| s.volume_mode.clone()).unwrap_or_else(|| "<unset>".into()),
        ],
    }
}

/// `persistentVolumeClaimColumnDefinitions`.
pub const PERSISTENT_VOLUME_CLAIM_COLUMNS: &[Column] = &[
    col("Name"),
    col("Status"),
    col("Volume"),
    col("Capacity"),
    col("Access Modes"),
    col("StorageClass"),
    col("VolumeAttributesClass"),
    col("Age"),
    wide("VolumeMode"),
];

pub fn persistent_volume_claim_row(pvc: &PersistentVolumeClaim, clock: Clock) -> Row {
    let spec = pvc.spec.as_ref();
    let status = pvc.status.as_ref();
    let volume = spec.and_then(|s| s.volume_name.clone()).unwrap_or_default();
    let phase = if pvc.metadata.deletion_timestamp.is_some() {
        "Terminating".to_string()
    } else {
        status.and_then(|s| s.phase.clone()).unwrap_or_default()
    };
    // Capacity and access modes come from the bound volume, through the claim's status.
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (
            status
                .and_then(|s| s.capacity.as_ref())
                .and_then(|c| c.get("storage"))
                .map(|q| q.0.clone())
                .unwrap_or_default(),
            access_modes(status.and_then(|s| s.access_modes.as_ref())),
        )
    };
    let class = super::storage::claim_storage_class(pvc);
    Row {
        namespace: namespace(&pvc.metadata),
        cells: vec![
            name(&pvc.metadata),
            phase,
            volume,
            capacity,
            modes,
            class,
            spec.and_then(|s| s.volume_attributes_class_name.clone()).unwrap_or_else(|| "<unset>".into()),
            clock.since(pvc.metadata.creation_timestamp.as_ref()),
            spec.and_then(|s| s.volume_mode.clone()).unwrap_or_else(|| "<unset>".into()),
        ],
    }
}

/// `cronJobColumnDefinitions`: TIMEZONE `<none>` when unset, SUSPEND as `printBoolPtr`
/// (`<unset>` when unset), ACTIVE the number of active Jobs, LAST SCHEDULE `<none>` or the
/// time since `status.lastScheduleTime`.
pub const CRONJOB_COLUMNS: &[Column] = &[
    col("Name"),
    col("Schedule"),
    col("Timezone"),
    col("Suspend"),
    col("Active"),
    col("Last Schedule"),
    col("Age"),
    wide("Containers"),
    wide("Images"),
    wide("Selector"),
];

pub fn cronjob_row(cj: &CronJob, clock: Clock) -> Row {
    let status = cj.status.as_ref();
    let last = status.and_then(|s| s.last_schedule_time.as_ref());
    let job_spec = cj.spec.job_template.spec.as_ref();
    let (names, images) = layout_containers(job_spec.and_then(|s| s.template.spec.as_ref()));
    Row {
        namespace: namespace(&cj.metadata),
        cells: vec![
            name(&cj.metadata),
            cj.spec.schedule.clone(),
            cj.spec.time_zone.clone().unwrap_or_else(|| "<none>".into()),
            match cj.spec.suspend {
                None => "<unset>".into(),
                Some(true) => "True".into(),
                Some(false) => "False".into(),
            },
            status.and_then(|s| s.active.as_ref()).map_or(0, Vec::len).to_string(),
            if last.is_some() { clock.since(last) } else { "<none>".into() },
            clock.since(cj.metadata.creation_timestamp.as_ref()),
            names,
            images,
            format_label_selector(job_spec.and_then(|s| s.selector.as_ref())),
        ],
    }
}

/// `horizontalPodAutoscalerColumnDefinitions`: TARGETS as `formatHPAMetrics` writes them
/// (`cpu: <unknown>/50%` while no metric could be read), MINPODS `<unset>` when unset,
/// REPLICAS `status.currentReplicas`.
pub const HPA_COLUMNS: &[Column] =
    &[col("Name"), col("Reference"), col("Targets"), col("MinPods"), col("MaxPods"), col("Replicas"), col("Age")];

/// `formatHPAMetrics`: each metric as `current/target`, `<unknown>` for a current value the
/// status does not hold; two at most, then `+ N more...`.
fn format_hpa_metrics(specs: &[crate::controllers::podautoscaler::Metric], statuses: &[serde_json::Value]) -> String {
    if specs.is_empty() {
        return "<none>".to_string();
    }
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    let list: Vec<String> = specs
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let status = statuses.get(i);
            let current = |field: &str, value: &str| {
                status
                    .map(|s| &s[field])
                    .filter(|s| s.is_object())
                    .map(|s| &s["current"][value])
                    .filter(|v| !v.is_null())
                    .map(text)
            };
            let v = &m.value;
            match m.type_.as_str() {
                "External" | "Object" => {
                    let field = if m.type_ == "External" { "external" } else { "object" };
                    let t = &v[field]["target"];
                    if !t["averageValue"].is_null() {
                        let c = current(field, "averageValue").unwrap_or_else(|| "<unknown>".into());
                        format!("{c}/{} (avg)", text(&t["averageValue"]))
                    } else {
                        let c = current(field, "value").unwrap_or_else(|| "<unknown>".into());
                        format!("{c}/{}", text(&t["value"]))
                    }
                }
                "Pods" => {
                    let c = current("pods", "averageValue").unwrap_or_else(|| "<unknown>".into());
                    format!("{c}/{}", text(&v["pods"]["target"]["averageValue"]))
                }
                "Resource" | "ContainerResource" => {
                    let field = if m.type_ == "Resource" { "resource" } else { "containerResource" };
                    let r = &v[field];
                    let t = &r["target"];
                    let name = text(&r["name"]);
                    if !t["averageValue"].is_null() {
                        let c = current(field, "averageValue").unwrap_or_else(|| "<unknown>".into());
                        format!("{name}: {c}/{}", text(&t["averageValue"]))
                    } else {
                        let c = current(field, "averageUtilization")
                            .map(|p| format!("{p}%"))
                            .unwrap_or_else(|| "<unknown>".into());
                        let target = t["averageUtilization"]
                            .as_i64()
                            .map(|p| format!("{p}%"))
                            .unwrap_or_else(|| "<auto>".into());
                        format!("{name}: {c}/{target}")
                    }
                }
                _ => "<unknown type>".to_string(),
            }
        })
        .collect();
    if list.len() > 2 {
        format!("{} + {} more...", list[..2].join(", "), list.len() - 2)
    } else {
        list.join(", ")
    }
}

/// A row of `kubectl get hpa` from the stored object (any served version, read as v2).
pub fn hpa_row(hpa: &crate::object::Unstructured, clock: Clock) -> Row {
    let spec = hpa.rest.get("spec").cloned().unwrap_or_default();
    let status = hpa.rest.get("status").cloned().unwrap_or_default();
    let metrics = crate::controllers::podautoscaler::metrics_of(&hpa.api_version, &spec);
    let statuses = status["currentMetrics"].as_array().cloned().unwrap_or_default();
    let target = &spec["scaleTargetRef"];
    Row {
        namespace: namespace(&hpa.metadata),
        cells: vec![
            name(&hpa.metadata),
            format!("{}/{}", target["kind"].as_str().unwrap_or(""), target["name"].as_str().unwrap_or("")),
            format_hpa_metrics(&metrics, &statuses),
            spec["minReplicas"].as_i64().map(|m| m.to_string()).unwrap_or_else(|| "<unset>".into()),
            spec["maxReplicas"].as_i64().unwrap_or(0).to_string(),
            status["currentReplicas"].as_i64().unwrap_or(0).to_string(),
            clock.since(hpa.metadata.creation_timestamp.as_ref()),
        ],
    }
}

/// `printPodDisruptionBudget`.
pub const PDB_COLUMNS: &[Column] =
    &[col("Name"), col("Min Available"), col("Max Unavailable"), col("Allowed Disruptions"), col("Age")];

/// A PodDisruptionBudget's row: each bound as written (`2`, `50%`) or `N/A`, and
/// `status.disruptionsAllowed`.
pub fn pdb_row(pdb: &crate::object::Unstructured, clock: Clock) -> Row {
    let spec = pdb.rest.get("spec").cloned().unwrap_or_default();
    let bound = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => "N/A".to_string(),
    };
    Row {
        namespace: namespace(&pdb.metadata),
        cells: vec![
            name(&pdb.metadata),
            bound(&spec["minAvailable"]),
            bound(&spec["maxUnavailable"]),
            pdb.rest.get("status").and_then(|s| s["disruptionsAllowed"].as_i64()).unwrap_or(0).to_string(),
            clock.since(pdb.metadata.creation_timestamp.as_ref()),
        ],
    }
}

pub const REPLICASET_COLUMNS: &[Column] = &[
    col("Name"),
    col("Desired"),
    col("Current"),
    col("Ready"),
    col("Age"),
    wide("Containers"),
    wide("Images"),
    wide("Selector"),
];

pub fn replicaset_row(rs: &ReplicaSet, clock: Clock) -> Row {
    let spec = Some(&rs.spec);
    let status = rs.status.as_ref();
    let (names, images) = layout_containers(spec.and_then(|s| s.template.as_ref()).and_then(|t| t.spec.as_ref()));
    Row {
        namespace: namespace(&rs.metadata),
        cells: vec![
            name(&rs.metadata),
            spec.and_then(|s| s.replicas).unwrap_or(1).to_string(),
            status.map(|s| s.replicas).unwrap_or(0).to_string(),
            status.and_then(|s| s.ready_replicas).unwrap_or(0).to_string(),
            clock.since(rs.metadata.creation_timestamp.as_ref()),
            names,
            images,
            format_label_selector(spec.map(|s| &s.selector)),
        ],
    }
}

pub const JOB_COLUMNS: &[Column] = &[
    col("Name"),
    col("Status"),
    col("Completions"),
    col("Duration"),
    col("Age"),
    wide("Containers"),
    wide("Images"),
    wide("Selector"),
];

pub fn job_row(job: &Job, clock: Clock) -> Row {
    let spec = job.spec.as_ref();
    let status = job.status.as_ref();
    let succeeded = status.and_then(|s| s.succeeded).unwrap_or(0);
    let completions = match spec.and_then(|s| s.completions) {
        Some(c) => format!("{succeeded}/{c}"),
        None => {
            let parallelism = spec.and_then(|s| s.parallelism).unwrap_or(0);
            if parallelism > 1 {
                format!("{succeeded}/1 of {parallelism}")
            } else {
                format!("{succeeded}/1")
            }
        }
    };
    let start = status.and_then(|s| s.start_time.as_ref());
    let completion = status.and_then(|s| s.completion_time.as_ref());
    let duration = match (start, completion) {
        (None, _) => String::new(),
        (Some(s), None) => human_duration(clock.elapsed_ms(s)),
        (Some(s), Some(c)) => human_duration(c.0.as_millisecond() - s.0.as_millisecond()),
    };
    let conditions = status.and_then(|s| s.conditions.as_deref()).unwrap_or(&[]);
    // The first condition of a type decides (hasJobCondition).
    let has = |t: &str| conditions.iter().find(|c| c.type_ == t).is_some_and(|c| c.status == "True");
    let state = if has("Complete") {
        "Complete"
    } else if has("Failed") {
        "Failed"
    } else if job.metadata.deletion_timestamp.is_some() {
        "Terminating"
    } else if has("Suspended") {
        "Suspended"
    } else if has("FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    let (names, images) = layout_containers(spec.and_then(|s| s.template.spec.as_ref()));
    Row {
        namespace: namespace(&job.metadata),
        cells: vec![
            name(&job.metadata),
            state.to_string(),
            completions,
            duration,
            clock.since(job.metadata.creation_timestamp.as_ref()),
            names,
            images,
            format_label_selector(spec.and_then(|s| s.selector.as_ref())),
        ],
    }
}

pub const SERVICE_COLUMNS: &[Column] =
    &[col("Name"), col("Type"), col("Cluster-IP"), col("External-IP"), col("Port(s)"), col("Age"), wide("Selector")];

const LOAD_BALANCER_WIDTH: usize = 16;

fn load_balancer_ips(svc: &Service, wide: bool) -> String {
    let ingress = svc.status.as_ref().and_then(|s| s.load_balancer.as_ref()).and_then(|l| l.ingress.as_deref());
    let mut set = std::collections::BTreeSet::new();
    for i in ingress.unwrap_or(&[]) {
        if let Some(ip) = i.ip.as_deref().filter(|s| !s.is_empty()) {
            set.insert(ip.to_string());
        } else if let Some(h) = i.hostname.as_deref().filter(|s| !s.is_empty()) {
            set.insert(h.to_string());
        }
    }
    let r = set.into_iter().collect::<Vec<_>>().join(",");
    if !wide && r.len() > LOAD_BALANCER_WIDTH {
        // Go cuts at a byte; stay on a character boundary.
        let mut end = LOAD_BALANCER_WIDTH - 3;
        while !r.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &r[..end])
    } else {
        r
    }
}

fn service_external_ip(svc: &Service, svc_type: &str, wide: bool) -> String {
    let spec = svc.spec.as_ref();
    let external_ips = spec.and_then(|s| s.external_ips.as_deref()).unwrap_or(&[]);
    match svc_type {
        "ClusterIP" | "NodePort" => {
            if external_ips.is_empty() {
                "<none>".to_string()
            } else {
                external_ips.join(",")
            }
        }
        "LoadBalancer" => {
            let lb = load_balancer_ips(svc, wide);
            if !external_ips.is_empty() {
                let mut all: Vec<String> = Vec::new();
                if !lb.is_empty() {
                    all.extend(lb.split(',').map(str::to_string));
                }
                all.extend(external_ips.iter().cloned());
                all.join(",")
            } else if !lb.is_empty() {
                lb
            } else {
                "<pending>".to_string()
            }
        }
        "ExternalName" => spec.and_then(|s| s.external_name.clone()).unwrap_or_default(),
        _ => "<unknown>".to_string(),
    }
}

/// The table comes from a wide conversion on the server (the EXTERNAL-IP of a load
/// balancer is only clipped for the non-wide listing), so the row depends on `wide`.
pub fn service_row(svc: &Service, clock: Clock, wide: bool) -> Row {
    let spec = svc.spec.as_ref();
    // The API server defaults the type to ClusterIP.
    let svc_type = spec.and_then(|s| s.type_.clone()).unwrap_or_else(|| "ClusterIP".to_string());
    let cluster_ip = spec
        .and_then(|s| s.cluster_ips.as_ref())
        .and_then(|ips| ips.first().cloned())
        .unwrap_or_else(|| "<none>".to_string());
    let ports = spec
        .and_then(|s| s.ports.as_deref())
        .unwrap_or(&[])
        .iter()
        .map(|p| {
            let proto = p.protocol.as_deref().unwrap_or("");
            match p.node_port.filter(|n| *n > 0) {
                Some(np) => format!("{}:{np}/{proto}", p.port),
                None => format!("{}/{proto}", p.port),
            }
        })
        .collect::<Vec<_>>()
        .join(",");
    Row {
        namespace: namespace(&svc.metadata),
        cells: vec![
            name(&svc.metadata),
            svc_type.clone(),
            cluster_ip,
            service_external_ip(svc, &svc_type, wide),
            if ports.is_empty() { "<none>".to_string() } else { ports },
            clock.since(svc.metadata.creation_timestamp.as_ref()),
            format_labels(spec.and_then(|s| s.selector.as_ref())),
        ],
    }
}

pub const ENDPOINT_SLICE_COLUMNS: &[Column] =
    &[col("Name"), col("AddressType"), col("Ports"), col("Endpoints"), col("Age")];

/// Up to three items, then ` + N more...`; `<unset>` when there is none.
fn list_with_more(items: impl Iterator<Item = String>) -> String {
    const MAX: usize = 3;
    let mut list = Vec::new();
    let mut count = 0;
    for item in items {
        if list.len() < MAX {
            list.push(item);
        }
        count += 1;
    }
    let ret = list.join(",");
    if count > MAX {
        format!("{ret} + {} more...", count - MAX)
    } else if ret.is_empty() {
        "<unset>".to_string()
    } else {
        ret
    }
}

pub fn endpoint_slice_row(eps: &EndpointSlice, clock: Clock) -> Row {
    let ports = eps.ports.as_deref().unwrap_or(&[]).iter().map(|p| match (p.port, &p.name) {
        (Some(port), _) => port.to_string(),
        (None, Some(name)) => name.clone(),
        (None, None) => "*".to_string(),
    });
    let endpoints = eps.endpoints.as_deref().unwrap_or(&[]).iter().flat_map(|e| e.addresses.iter().cloned());
    Row {
        namespace: namespace(&eps.metadata),
        cells: vec![
            name(&eps.metadata),
            eps.address_type.clone(),
            list_with_more(ports),
            list_with_more(endpoints),
            clock.since(eps.metadata.creation_timestamp.as_ref()),
        ],
    }
}

pub const ENDPOINTS_COLUMNS: &[Column] = &[col("Name"), col("Endpoints"), col("Age")];

fn join_host_port(host: &str, port: i32) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// `formatEndpoints` for all ports: `ip:port` pairs (or bare IPs without ports), three at most.
fn format_endpoints(ep: &Endpoints) -> String {
    let subsets = ep.subsets.as_deref().unwrap_or(&[]);
    if subsets.is_empty() {
        return "<none>".to_string();
    }
    const MAX: usize = 3;
    let mut list: Vec<String> = Vec::new();
    let mut more = false;
    let mut count = 0;
    for ss in subsets {
        let addresses = ss.addresses.as_deref().unwrap_or(&[]);
        let ports = ss.ports.as_deref().unwrap_or(&[]);
        if ports.is_empty() {
            count += addresses.len();
            for a in addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                list.push(a.ip.clone());
            }
            continue;
        }
        for port in ports {
            count += addresses.len();
            for a in addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                list.push(join_host_port(&a.ip, port.port));
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

pub fn endpoints_row(ep: &Endpoints, clock: Clock) -> Row {
    Row {
        namespace: namespace(&ep.metadata),
        cells: vec![name(&ep.metadata), format_endpoints(ep), clock.since(ep.metadata.creation_timestamp.as_ref())],
    }
}

pub const NODE_COLUMNS: &[Column] = &[
    col("Name"),
    col("Status"),
    col("Roles"),
    col("Age"),
    col("Version"),
    wide("Internal-IP"),
    wide("External-IP"),
    wide("OS-Image"),
    wide("Kernel-Version"),
    wide("Container-Runtime"),
];

/// Node roles from `node-role.kubernetes.io/<role>` labels and `kubernetes.io/role`, sorted.
pub fn node_roles(node: &Node) -> Vec<String> {
    let mut roles = std::collections::BTreeSet::new();
    for (k, v) in node.metadata.labels.iter().flatten() {
        if let Some(role) = k.strip_prefix("node-role.kubernetes.io/") {
            if !role.is_empty() {
                roles.insert(role.to_string());
            }
        } else if k == "kubernetes.io/role" && !v.is_empty() {
            roles.insert(v.clone());
        }
    }
    roles.into_iter().collect()
}

fn node_address(node: &Node, type_: &str) -> String {
    node.status
        .as_ref()
        .and_then(|s| s.addresses.as_deref())
        .unwrap_or(&[])
        .iter()
        .find(|a| a.type_ == type_)
        .map(|a| a.address.clone())
        .unwrap_or_else(|| "<none>".to_string())
}

pub fn node_row(node: &Node, clock: Clock) -> Row {
    let status = node.status.as_ref();
    let mut states: Vec<String> = Vec::new();
    // Only the Ready condition is shown; a condition type seen twice counts its last copy.
    if let Some(c) =
        status.and_then(|s| s.conditions.as_deref()).unwrap_or(&[]).iter().rev().find(|c| c.type_ == "Ready")
    {
        states.push(if c.status == "True" { "Ready".to_string() } else { "NotReady".to_string() });
    }
    if states.is_empty() {
        states.push("Unknown".to_string());
    }
    if node.spec.as_ref().and_then(|s| s.unschedulable).unwrap_or(false) {
        states.push("SchedulingDisabled".to_string());
    }
    let roles = node_roles(node);
    let info = status.and_then(|s| s.node_info.as_ref());
    let unknown = |v: Option<&String>| v.filter(|v| !v.is_empty()).cloned().unwrap_or_else(|| "<unknown>".to_string());
    Row {
        namespace: String::new(),
        cells: vec![
            name(&node.metadata),
            states.join(","),
            if roles.is_empty() { "<none>".to_string() } else { roles.join(",") },
            clock.since(node.metadata.creation_timestamp.as_ref()),
            info.map(|i| i.kubelet_version.clone()).unwrap_or_default(),
            node_address(node, "InternalIP"),
            node_address(node, "ExternalIP"),
            unknown(info.map(|i| &i.os_image)),
            unknown(info.map(|i| &i.kernel_version)),
            unknown(info.map(|i| &i.container_runtime_version)),
        ],
    }
}

pub const EVENT_COLUMNS: &[Column] = &[
    col("Last Seen"),
    col("Type"),
    col("Reason"),
    col("Object"),
    wide("Subobject"),
    wide("Source"),
    col("Message"),
    wide("First Seen"),
    wide("Count"),
    wide("Name"),
];

/// `formatEventSource`: the component (or reporting controller), then the host (or
/// reporting instance) after a comma.
fn event_source(e: &Event) -> String {
    let first = |a: Option<&String>, b: Option<&String>| {
        a.filter(|s| !s.is_empty()).or(b.filter(|s| !s.is_empty())).cloned().unwrap_or_default()
    };
    let source = e.source.as_ref();
    let component = first(source.and_then(|s| s.component.as_ref()), e.reporting_component.as_ref());
    let instance = first(source.and_then(|s| s.host.as_ref()), e.reporting_instance.as_ref());
    if instance.is_empty() {
        component
    } else {
        format!("{component}, {instance}")
    }
}

pub fn event_row(e: &Event, clock: Clock) -> Row {
    let first_seen = match &e.first_timestamp {
        Some(t) => clock.since(Some(t)),
        None => clock.since_micro(e.event_time.as_ref()),
    };
    let mut last_seen = match &e.last_timestamp {
        Some(t) => clock.since(Some(t)),
        None => first_seen.clone(),
    };
    let mut count = e.count.unwrap_or(0);
    if let Some(series) = &e.series {
        last_seen = clock.since_micro(series.last_observed_time.as_ref());
        count = series.count.unwrap_or(0);
    } else if count == 0 {
        count = 1;
    }
    let involved = &e.involved_object;
    let kind = involved.kind.clone().unwrap_or_default().to_lowercase();
    let target = match involved.name.as_deref().filter(|n| !n.is_empty()) {
        Some(n) => format!("{kind}/{n}"),
        None => kind,
    };
    Row {
        namespace: namespace(&e.metadata),
        cells: vec![
            last_seen,
            e.type_.clone().unwrap_or_default(),
            e.reason.clone().unwrap_or_default(),
            target,
            involved.field_path.clone().unwrap_or_default(),
            event_source(e),
            e.message.as_deref().unwrap_or("").trim().to_string(),
            first_seen,
            count.to_string(),
            name(&e.metadata),
        ],
    }
}
