//! The registry strategies: what the API server does to an object on its way into etcd
//! beyond decoding, admission and validation (upstream `pkg/registry/<group>/<kind>/strategy.go`
//! and the generic store).
//!
//! * [`prepare_for_create`]: status reset and `generation: 1`; Pods start `Pending` with their
//!   `qosClass` computed (and the `SchedulingGated` condition when they have scheduling gates);
//!   Namespaces start `Active` with the `kubernetes` finalizer; Jobs get their generated
//!   selector and template labels (`batch.kubernetes.io/controller-uid`, `job-name`, ...);
//!   apps/v1 DaemonSets the `deprecated.daemonset.template.generation: "1"` annotation;
//!   Services their ClusterIP (random in the upper part of `10.96.0.0/16`, kind's service range,
//!   as upstream's allocator prefers) and NodePorts (30000-32767); PVCs and PVs start `Pending`.
//! * [`prepare_for_update`]: a write to the main resource keeps the stored `status` (for kinds
//!   with a status subresource) and the system metadata; `generation` goes up by one when the
//!   spec changed; [`prepare_for_status_update`] keeps everything but `status`.
//! * [`pod_qos`]: the QoS class (facts §9: cpu and memory only, pod-level resources first).

use crate::cluster::tracks_generation;
use crate::object::Object;
use crate::quantity::Quantity;
use crate::rng::Rng;
use crate::store::Store;
use crate::trace::Change;
use k8s_openapi::api::core::v1::{Pod, PodCondition, PodStatus, ResourceRequirements};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Kinds whose `status` is only written through the `status` subresource.
pub fn has_status_subresource(kind: &str) -> bool {
    matches!(
        kind,
        "Pod"
            | "Node"
            | "Namespace"
            | "Service"
            | "PersistentVolumeClaim"
            | "PersistentVolume"
            | "ResourceQuota"
            | "ReplicationController"
            | "Deployment"
            | "ReplicaSet"
            | "StatefulSet"
            | "DaemonSet"
            | "Job"
            | "CronJob"
            | "HorizontalPodAutoscaler"
            | "PodDisruptionBudget"
            | "Ingress"
            | "CustomResourceDefinition"
    )
}

fn yaml(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => crate::yaml::to_string(other).trim_end().to_string(),
    }
}

fn change(path: &str, before: Option<&Value>, after: Option<&Value>) -> Change {
    Change { path: path.to_string(), before: before.map(yaml), after: after.map(yaml) }
}

fn zero_or_missing(
    list: Option<&BTreeMap<String, k8s_openapi::apimachinery::pkg::api::resource::Quantity>>,
    name: &str,
) -> Option<Quantity> {
    list.and_then(|m| m.get(name)).and_then(|q| Quantity::parse(&q.0).ok())
}

/// `BestEffort`, `Burstable` or `Guaranteed` (upstream `qos.GetPodQOS`).
pub fn pod_qos(pod: &Pod) -> &'static str {
    let Some(spec) = &pod.spec else { return "BestEffort" };
    let classify_one = |r: Option<&ResourceRequirements>| -> (bool, bool, bool) {
        // (has any cpu/memory request or limit, all set equal and non-zero for cpu and memory)
        let req = r.and_then(|r| r.requests.as_ref());
        let lim = r.and_then(|r| r.limits.as_ref());
        let mut any = false;
        let mut guaranteed = true;
        for res in ["cpu", "memory"] {
            let q = zero_or_missing(req, res).filter(|q| !q.is_zero());
            let l = zero_or_missing(lim, res).filter(|q| !q.is_zero());
            if q.is_some() || l.is_some() {
                any = true;
            }
            match (q, l) {
                (Some(q), Some(l)) if q == l => {}
                _ => guaranteed = false,
            }
        }
        (any, guaranteed, !any)
    };
    if let Some(r) = &spec.resources {
        let (any, guaranteed, _) = classify_one(Some(r));
        if any {
            return if guaranteed { "Guaranteed" } else { "Burstable" };
        }
    }
    let mut all_best_effort = true;
    let mut all_guaranteed = true;
    let containers = spec.containers.iter().chain(spec.init_containers.iter().flatten());
    for c in containers {
        let (any, guaranteed, best_effort) = classify_one(c.resources.as_ref());
        if any {
            all_best_effort = false;
        }
        if !best_effort && !guaranteed {
            return "Burstable";
        }
        if !guaranteed {
            all_guaranteed = false;
        }
    }
    if all_best_effort {
        "BestEffort"
    } else if all_guaranteed {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// Reads the stored JSON, applies `f`, writes it back; returns the changes.
fn edit_json(obj: &mut Object, f: impl FnOnce(&mut Value)) -> Result<(), String> {
    let api_version = obj.api_version();
    let kind = obj.kind().to_string();
    let mut v = obj.to_json();
    f(&mut v);
    *obj = Object::from_json(&api_version, &kind, v).map_err(|e| e.to_string())?;
    Ok(())
}

/// What the create strategy does; returns the changes it made (for the trace).
/// The status every new Pod is stored with: phase Pending, its QoS class, and for a Pod
/// with scheduling gates the `PodScheduled=False` condition (`SchedulingGated`).
pub fn new_pod_status(pod: &Pod) -> PodStatus {
    let gated = pod.spec.as_ref().and_then(|s| s.scheduling_gates.as_ref()).is_some_and(|g| !g.is_empty());
    let mut status =
        PodStatus { phase: Some("Pending".into()), qos_class: Some(pod_qos(pod).into()), ..PodStatus::default() };
    if gated {
        status.conditions = Some(vec![PodCondition {
            type_: "PodScheduled".into(),
            status: "False".into(),
            reason: Some("SchedulingGated".into()),
            message: Some("Scheduling is blocked due to non-empty scheduling gates".into()),
            ..PodCondition::default()
        }]);
    }
    status
}

pub fn prepare_for_create(obj: &mut Object, store: &Store<Object>, rng: &mut Rng, now_ms: u64) -> Vec<Change> {
    let mut changes = Vec::new();
    let kind = obj.kind().to_string();
    if tracks_generation(&kind) {
        let before = obj.meta().generation;
        obj.meta_mut().generation = Some(1);
        if before != Some(1) {
            changes.push(change("metadata.generation", before.map(Value::from).as_ref(), Some(&json!(1))));
        }
    }
    match obj {
        Object::Pod(pod) => {
            let pod = Arc::make_mut(pod);
            let before = pod.status.as_ref().map(|s| serde_json::to_value(s).unwrap_or(Value::Null));
            let status = new_pod_status(pod);
            let after = serde_json::to_value(&status).unwrap_or(Value::Null);
            if before.as_ref() != Some(&after) {
                changes.push(change("status", before.as_ref().filter(|b| !b.is_null()), Some(&after)));
            }
            pod.status = Some(status);
        }
        Object::Namespace(ns) => {
            let ns = Arc::make_mut(ns);
            let spec = ns.spec.get_or_insert_with(Default::default);
            let finalizers = spec.finalizers.get_or_insert_with(Vec::new);
            if !finalizers.iter().any(|f| f == "kubernetes") {
                finalizers.push("kubernetes".into());
                changes.push(change("spec.finalizers", None, Some(&json!(["kubernetes"]))));
            }
            ns.status =
                Some(k8s_openapi::api::core::v1::NamespaceStatus { phase: Some("Active".into()), conditions: None });
            changes.push(change("status.phase", None, Some(&json!("Active"))));
        }
        Object::Job(job) => {
            let job = Arc::make_mut(job);
            let uid = job.metadata.uid.clone().unwrap_or_default();
            let name = job.metadata.name.clone().unwrap_or_default();
            if let Some(spec) = job.spec.as_mut() {
                if !spec.manual_selector.unwrap_or(false) {
                    let tmeta = spec.template.metadata.get_or_insert_with(Default::default);
                    let labels = tmeta.labels.get_or_insert_with(BTreeMap::new);
                    for (k, v) in [
                        ("job-name", &name),
                        ("batch.kubernetes.io/job-name", &name),
                        ("controller-uid", &uid),
                        ("batch.kubernetes.io/controller-uid", &uid),
                    ] {
                        if !labels.contains_key(k) {
                            labels.insert(k.to_string(), v.clone());
                            changes.push(change(&format!("spec.template.metadata.labels.{k}"), None, Some(&json!(v))));
                        }
                    }
                    let sel = spec.selector.get_or_insert_with(Default::default);
                    let ml = sel.match_labels.get_or_insert_with(BTreeMap::new);
                    if !ml.contains_key("batch.kubernetes.io/controller-uid") {
                        ml.insert("batch.kubernetes.io/controller-uid".into(), uid.clone());
                        changes.push(change(
                            "spec.selector.matchLabels.batch.kubernetes.io/controller-uid",
                            None,
                            Some(&json!(uid)),
                        ));
                    }
                }
            }
            job.status = None;
        }
        Object::Deployment(d) => Arc::make_mut(d).status = None,
        Object::ReplicaSet(r) => Arc::make_mut(r).status = None,
        Object::CronJob(c) => Arc::make_mut(c).status = None,
        Object::DaemonSet(d) => {
            // The internal `spec.templateGeneration` starts at 1; apps/v1 carries it as this
            // annotation.
            let d = Arc::make_mut(d);
            d.status = None;
            let ann = d.metadata.annotations.get_or_insert_with(BTreeMap::new);
            ann.insert(TEMPLATE_GENERATION.into(), "1".into());
            changes.push(change(&format!("metadata.annotations.{TEMPLATE_GENERATION}"), None, Some(&json!("1"))));
        }
        Object::StatefulSet(s) => Arc::make_mut(s).status = None,
        Object::PersistentVolumeClaim(c) => {
            let c = Arc::make_mut(c);
            c.status = Some(k8s_openapi::api::core::v1::PersistentVolumeClaimStatus {
                phase: Some("Pending".into()),
                ..Default::default()
            });
        }
        Object::PersistentVolume(v) => {
            let v = Arc::make_mut(v);
            v.status = Some(k8s_openapi::api::core::v1::PersistentVolumeStatus {
                phase: Some("Pending".into()),
                last_phase_transition_time: Some(super::timestamp(now_ms)),
                ..Default::default()
            });
        }
        Object::Service(_) => {
            let c = allocate_service(obj, store, rng);
            changes.extend(c);
            if let Object::Service(s) = obj {
                let s = Arc::make_mut(s);
                s.status = Some(k8s_openapi::api::core::v1::ServiceStatus {
                    load_balancer: Some(Default::default()),
                    conditions: None,
                });
            }
        }
        Object::ResourceQuota(q) => Arc::make_mut(q).status = None,
        Object::Other(u) => {
            let u = Arc::make_mut(u);
            if has_status_subresource(&u.kind) {
                u.rest.remove("status");
            }
        }
        _ => {}
    }
    changes
}

/// The annotation apps/v1 DaemonSets carry their internal `spec.templateGeneration` in.
pub const TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";

/// A DaemonSet's template generation (the annotation, 0 when absent or unreadable).
pub fn template_generation(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> i64 {
    meta.annotations.as_ref().and_then(|a| a.get(TEMPLATE_GENERATION)).and_then(|g| g.parse().ok()).unwrap_or(0)
}

/// The service range of kind clusters and the NodePort range.
const SERVICE_NET: [u8; 2] = [10, 96];
const NODE_PORTS: (u64, u64) = (30000, 32767);

fn allocate_service(obj: &mut Object, store: &Store<Object>, rng: &mut Rng) -> Vec<Change> {
    let mut used_ips = Vec::new();
    let mut used_ports = Vec::new();
    for (_, o, _) in store.list("/registry/services/specs/") {
        if let Object::Service(s) = o {
            if let Some(spec) = &s.spec {
                used_ips.extend(spec.cluster_ip.clone());
                for p in spec.ports.iter().flatten() {
                    used_ports.extend(p.node_port);
                }
            }
        }
    }
    let mut changes = Vec::new();
    let _ = edit_json(obj, |v| {
        let spec = v.get_mut("spec").and_then(Value::as_object_mut);
        let Some(spec) = spec else { return };
        let ty = spec.get("type").and_then(Value::as_str).unwrap_or("ClusterIP").to_string();
        if ty == "ExternalName" {
            return;
        }
        let ip = spec.get("clusterIP").and_then(Value::as_str).unwrap_or("").to_string();
        if ip.is_empty() {
            // The dynamic band: above the first 256 addresses of the /16.
            let mut chosen = String::new();
            for _ in 0..64 {
                let offset = 256 + rng.below(65534 - 256);
                let candidate = format!("{}.{}.{}.{}", SERVICE_NET[0], SERVICE_NET[1], offset / 256, offset % 256);
                if !used_ips.contains(&candidate) {
                    chosen = candidate;
                    break;
                }
            }
            spec.insert("clusterIP".into(), json!(chosen));
            spec.insert("clusterIPs".into(), json!([chosen]));
            changes.push(change("spec.clusterIP", None, Some(&json!(chosen))));
            changes.push(change("spec.clusterIPs", None, Some(&json!([chosen]))));
        } else if spec.get("clusterIPs").is_none() {
            spec.insert("clusterIPs".into(), json!([ip]));
            changes.push(change("spec.clusterIPs", None, Some(&json!([ip]))));
        }
        if spec.get("ipFamilies").is_none() {
            spec.insert("ipFamilies".into(), json!(["IPv4"]));
            changes.push(change("spec.ipFamilies", None, Some(&json!(["IPv4"]))));
        }
        if spec.get("ipFamilyPolicy").is_none() {
            spec.insert("ipFamilyPolicy".into(), json!("SingleStack"));
            changes.push(change("spec.ipFamilyPolicy", None, Some(&json!("SingleStack"))));
        }
        if ty == "NodePort" || ty == "LoadBalancer" {
            if let Some(ports) = spec.get_mut("ports").and_then(Value::as_array_mut) {
                for (i, p) in ports.iter_mut().enumerate() {
                    if p.get("nodePort").and_then(Value::as_u64).unwrap_or(0) == 0 {
                        let span = NODE_PORTS.1 - NODE_PORTS.0 + 1;
                        let mut port = 0;
                        for _ in 0..64 {
                            let candidate = (NODE_PORTS.0 + rng.below(span)) as i32;
                            if !used_ports.contains(&candidate) {
                                port = candidate;
                                break;
                            }
                        }
                        used_ports.push(port);
                        if let Some(m) = p.as_object_mut() {
                            m.insert("nodePort".into(), json!(port));
                        }
                        changes.push(change(&format!("spec.ports[{i}].nodePort"), None, Some(&json!(port))));
                    }
                }
            }
        }
    });
    changes
}

/// A write to the main resource: keeps the stored status and system metadata, bumps the
/// generation when the spec changed.
pub fn prepare_for_update(new: &mut Object, old: &Object) {
    let kind = old.kind().to_string();
    keep_system_metadata(new, old);
    if let (Object::Other(n), Object::Other(o)) = (&mut *new, old) {
        // The same steps on the JSON an object of a kind without a type already is.
        let n = Arc::make_mut(n);
        if has_status_subresource(&kind) {
            match o.rest.get("status") {
                Some(s) => {
                    n.rest.insert("status".into(), s.clone());
                }
                None => {
                    n.rest.remove("status");
                }
            }
        }
        if tracks_generation(&kind) && !same_spec(&o.rest, &n.rest) {
            n.metadata.generation = Some(old.meta().generation.unwrap_or(0) + 1);
        }
        return;
    }
    keep_status_and_bump_generation_via_json(new, old, &kind);
    if let (Object::DaemonSet(n), Object::DaemonSet(o)) = (&mut *new, old) {
        // `daemonSetStrategy.PrepareForUpdate`: the template generation is the server's; it
        // goes up by one when the template changed (the annotation is its apps/v1 form).
        let changed = n.spec.template != o.spec.template;
        let generation = template_generation(&o.metadata) + i64::from(changed);
        let n = Arc::make_mut(n);
        let ann = n.metadata.annotations.get_or_insert_with(BTreeMap::new);
        if generation == 0 {
            ann.remove(TEMPLATE_GENERATION);
        } else {
            ann.insert(TEMPLATE_GENERATION.into(), generation.to_string());
        }
        if ann.is_empty() {
            n.metadata.annotations = None;
        }
    }
}

/// The metadata an update cannot change: uid, creation and deletion stamps, generation.
fn keep_system_metadata(new: &mut Object, old: &Object) {
    let om = old.meta();
    let m = new.meta_mut();
    m.uid.clone_from(&om.uid);
    m.creation_timestamp.clone_from(&om.creation_timestamp);
    m.deletion_timestamp.clone_from(&om.deletion_timestamp);
    m.deletion_grace_period_seconds = om.deletion_grace_period_seconds;
    m.generation = om.generation;
}

/// [`prepare_for_update`]'s status and generation steps on the objects' JSON forms.
fn keep_status_and_bump_generation_via_json(new: &mut Object, old: &Object, kind: &str) {
    let old_json = old.to_json();
    let mut new_json = new.to_json();
    if has_status_subresource(kind) {
        match old_json.get("status") {
            Some(s) => {
                new_json["status"] = s.clone();
            }
            None => {
                if let Some(m) = new_json.as_object_mut() {
                    m.remove("status");
                }
            }
        }
    }
    if tracks_generation(kind) {
        let empty = serde_json::Map::new();
        let spec_changed = !same_spec(old_json.as_object().unwrap_or(&empty), new_json.as_object().unwrap_or(&empty));
        if spec_changed {
            let g = old.meta().generation.unwrap_or(0) + 1;
            new_json["metadata"]["generation"] = json!(g);
        }
    }
    if let Ok(o) = Object::from_json(&old.api_version(), kind, new_json) {
        *new = o;
    }
}

/// Whether two objects' JSON maps hold the same "spec": every top-level field that is
/// neither metadata nor status (for some kinds it is not called `spec`: ConfigMap data,
/// webhook lists, ...), compared as maps (key order aside), without copying them.
fn same_spec(a: &serde_json::Map<String, Value>, b: &serde_json::Map<String, Value>) -> bool {
    fn spec(m: &serde_json::Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
        m.iter().filter(|(k, _)| !matches!(k.as_str(), "metadata" | "status" | "apiVersion" | "kind"))
    }
    spec(a).count() == spec(b).count() && spec(a).all(|(k, v)| b.get(k) == Some(v))
}

/// For the typed kinds whose status update replaces `status` and nothing else: whether the
/// `(new, old)` pair differs only in status and `resourceVersion` (false for other kinds).
macro_rules! spec_unchanged {
    ($pair:expr; $($kind:ident),+) => {
        match $pair {
            $((Object::$kind(n), Object::$kind(o)) => {
                meta_equal_but_version(&n.metadata, &o.metadata, false) && n.spec == o.spec
            })+
            _ => false,
        }
    };
}

/// For the same kinds: copies the new status into the `(out, new)` pair's stored copy;
/// whether the kind was one of them.
macro_rules! copy_status {
    ($pair:expr; $($kind:ident),+) => {
        match $pair {
            $((Object::$kind(o), Object::$kind(n)) => {
                Arc::make_mut(o).status = n.status.clone();
                true
            })+
            _ => false,
        }
    };
}

/// A write to the `status` subresource: only `status` changes (and, for a Deployment, its
/// annotations).
pub fn prepare_for_status_update(new: Object, old: &Object) -> Object {
    // A writer usually sends the object it read with a new status (the kubelet its pod, a
    // controller its Deployment): then the request's object is the result as it stands, and
    // the stored one is not copied. `resourceVersion` is left out of that comparison (the
    // caller checked it against the stored revision and clears it).
    let same_but_status = match (&new, old) {
        (Object::Pod(n), Object::Pod(o)) => {
            meta_equal_but_version(&n.metadata, &o.metadata, false)
                && n.spec == o.spec
                && !loses_qos_class(n.status.as_ref(), o.status.as_ref())
        }
        (Object::Deployment(n), Object::Deployment(o)) => {
            meta_equal_but_version(&n.metadata, &o.metadata, true) && n.spec == o.spec
        }
        pair => spec_unchanged!(pair; ReplicaSet, StatefulSet, DaemonSet, Node, Job, CronJob),
    };
    if same_but_status {
        return new;
    }
    let new = &new;
    // The kinds with a typed variant copy the status field itself; what follows is the same
    // operation on the JSON form for the others.
    let mut out = old.clone();
    match (&mut out, new) {
        (Object::Pod(o), Object::Pod(n)) => {
            let o = Arc::make_mut(o);
            o.status = n.status.clone();
            // The QoS class is immutable; old kubelets dropped it (upstream backfills it).
            let old_qos = old.as_pod().and_then(|p| p.status.as_ref()).and_then(|s| s.qos_class.as_ref());
            if let Some(q) = old_qos {
                if o.status.as_ref().and_then(|s| s.qos_class.as_ref()).is_none() {
                    o.status.get_or_insert_with(Default::default).qos_class = Some(q.clone());
                }
            }
            return out;
        }
        (Object::Deployment(o), Object::Deployment(n)) => {
            let o = Arc::make_mut(o);
            o.status = n.status.clone();
            // `deploymentStatusStrategy` resets only the spec and the labels: the deployment
            // controller records `deployment.kubernetes.io/revision` (an annotation) through
            // the status subresource.
            o.metadata.annotations = n.metadata.annotations.clone();
            return out;
        }
        pair => {
            if copy_status!(pair; ReplicaSet, StatefulSet, DaemonSet, Node, Job, CronJob) {
                return out;
            }
        }
    }
    let mut out = old.to_json();
    match new.to_json().as_object_mut().and_then(|m| m.remove("status")) {
        Some(s) => out["status"] = s,
        None => {
            if let Some(m) = out.as_object_mut() {
                m.remove("status");
            }
        }
    }
    Object::from_json(&old.api_version(), old.kind(), out).unwrap_or_else(|_| old.clone())
}

/// Whether a pod status without a `qosClass` would replace one that has it (the class is
/// immutable: the status update keeps the stored one).
fn loses_qos_class(
    new: Option<&k8s_openapi::api::core::v1::PodStatus>,
    old: Option<&k8s_openapi::api::core::v1::PodStatus>,
) -> bool {
    old.and_then(|s| s.qos_class.as_ref()).is_some() && new.and_then(|s| s.qos_class.as_ref()).is_none()
}

/// Metadata equal in every field but `resourceVersion` (and `annotations` too when
/// `but_annotations`: the Deployment's status update takes them from the request).
fn meta_equal_but_version(
    a: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    b: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    but_annotations: bool,
) -> bool {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    // Destructured in full so that a field added to ObjectMeta cannot be missed here.
    let ObjectMeta {
        annotations,
        creation_timestamp,
        deletion_grace_period_seconds,
        deletion_timestamp,
        finalizers,
        generate_name,
        generation,
        labels,
        managed_fields,
        name,
        namespace,
        owner_references,
        resource_version: _,
        self_link,
        uid,
    } = a;
    (but_annotations || *annotations == b.annotations)
        && *creation_timestamp == b.creation_timestamp
        && *deletion_grace_period_seconds == b.deletion_grace_period_seconds
        && *deletion_timestamp == b.deletion_timestamp
        && *finalizers == b.finalizers
        && *generate_name == b.generate_name
        && *generation == b.generation
        && *labels == b.labels
        && *managed_fields == b.managed_fields
        && *name == b.name
        && *namespace == b.namespace
        && *owner_references == b.owner_references
        && *self_link == b.self_link
        && *uid == b.uid
}

#[cfg(test)]
mod update_tests {
    use super::*;

    fn other(v: Value) -> Object {
        let (api_version, kind) =
            (v["apiVersion"].as_str().unwrap().to_string(), v["kind"].as_str().unwrap().to_string());
        let o = Object::from_json(&api_version, &kind, v).unwrap();
        assert!(matches!(o, Object::Other(_)), "{kind} has no typed variant");
        o
    }

    /// Objects of kinds without a type take a shortcut through their JSON maps; it must give
    /// what the JSON round trip gives (status kept or dropped, generation bumped or not).
    #[test]
    fn untyped_objects_update_as_their_json_does() {
        let meta = json!({"name": "x", "namespace": "default", "uid": "u1", "generation": 3});
        let cases = [
            // A Lease: no status subresource, no generation.
            (
                json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": meta, "spec": {"renewTime": "a"}}),
                json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "x"}, "spec": {"renewTime": "b"}, "status": {"x": 1}}),
            ),
            // Status subresource: the stored status wins, the new one is dropped or replaced.
            (
                json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta, "spec": {"a": 1}, "status": {"lb": 1}}),
                json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "x"}, "status": {"lb": 2}, "spec": {"a": 2}}),
            ),
            (
                json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta, "spec": {"a": 1}}),
                json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "x"}, "status": {"lb": 2}, "spec": {"a": 1}, "z": 0}),
            ),
            // Only the status differs: no new generation.
            (
                json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta, "spec": {"a": 1}, "status": {"lb": 1}}),
                json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "x"}, "spec": {"a": 1}, "status": {"lb": 9}}),
            ),
        ];
        let mut generations = Vec::new();
        for (old, new) in cases {
            let old = other(old);
            let mut shortcut = other(new);
            let mut via_json = shortcut.clone();
            prepare_for_update(&mut shortcut, &old);
            keep_system_metadata(&mut via_json, &old);
            keep_status_and_bump_generation_via_json(&mut via_json, &old, old.kind());
            assert_eq!(shortcut, via_json);
            // Key order too (it shows in YAML output).
            assert_eq!(shortcut.to_json().to_string(), via_json.to_json().to_string());
            generations.push(shortcut.meta().generation);
        }
        assert_eq!(generations, [Some(3), Some(4), Some(4), Some(3)]);
    }
    /// A status update keeps everything of the stored object but its status (the
    /// Deployment's annotations too): whether the request's object is taken as it stands or
    /// the stored one is copied, the result is the stored object with the new status.
    #[test]
    fn status_updates_keep_all_but_the_status() {
        let pod = |spec_image: &str, label: &str, qos: Option<&str>, phase: &str, rv: Option<&str>| {
            let mut status = json!({"phase": phase});
            if let Some(q) = qos {
                status["qosClass"] = json!(q);
            }
            let mut meta = json!({"name": "p", "namespace": "default", "uid": "u1", "labels": {"app": label}});
            if let Some(rv) = rv {
                meta["resourceVersion"] = json!(rv);
            }
            Object::from_json(
                "v1",
                "Pod",
                json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta,
                       "spec": {"containers": [{"name": "c", "image": spec_image}]}, "status": status}),
            )
            .unwrap()
        };
        let stored = pod("nginx", "web", Some("BestEffort"), "Pending", None);
        let cases = [
            // The stored pod with a new status (and the version it was read at).
            (
                pod("nginx", "web", Some("BestEffort"), "Running", Some("7")),
                pod("nginx", "web", Some("BestEffort"), "Running", Some("7")),
            ),
            // A changed spec and label are not taken.
            (
                pod("busybox", "db", Some("BestEffort"), "Running", None),
                pod("nginx", "web", Some("BestEffort"), "Running", None),
            ),
            // Nor a changed label alone.
            (
                pod("nginx", "db", Some("BestEffort"), "Running", None),
                pod("nginx", "web", Some("BestEffort"), "Running", None),
            ),
            // A status without the QoS class keeps the stored class.
            (pod("nginx", "web", None, "Running", None), pod("nginx", "web", Some("BestEffort"), "Running", None)),
        ];
        for (request, want) in cases {
            assert_eq!(prepare_for_status_update(request, &stored), want);
        }
        let deployment = |replicas: i64, revision: &str, ready: i64| {
            Object::from_json(
                "apps/v1",
                "Deployment",
                json!({"apiVersion": "apps/v1", "kind": "Deployment",
                       "metadata": {"name": "d", "namespace": "default", "uid": "u2",
                                    "annotations": {"deployment.kubernetes.io/revision": revision}},
                       "spec": {"replicas": replicas, "selector": {"matchLabels": {"a": "b"}},
                                "template": {"metadata": {"labels": {"a": "b"}},
                                             "spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
                       "status": {"readyReplicas": ready}}),
            )
            .unwrap()
        };
        let stored = deployment(3, "1", 0);
        assert_eq!(prepare_for_status_update(deployment(3, "2", 3), &stored), deployment(3, "2", 3));
        assert_eq!(prepare_for_status_update(deployment(5, "2", 3), &stored), deployment(3, "2", 3));
    }
}
