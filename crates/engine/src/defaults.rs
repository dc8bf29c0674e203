//! Defaulting: the values the API server fills in while decoding a request, before admission
//! and validation (upstream's generated `SetObjectDefaults_*`, which call the hand-written
//! `SetDefaults_*` of `pkg/apis/core/v1/defaults.go`, `pkg/apis/apps/v1/defaults.go`,
//! `pkg/apis/batch/v1/defaults.go` and the `+default=` markers of the API types).
//!
//! [`apply_defaults`] changes the object in place and returns every change, in the order
//! upstream makes them, as [`Change`]s with field paths (`spec.containers[0].imagePullPolicy`)
//! and YAML renderings of the values, for the trace.
//!
//! What is here, by kind:
//! * Pod: requests copied from limits (Pod only, not templates), `enableServiceLinks`,
//!   host-network ports; then the pod-spec defaults shared with templates: `dnsPolicy`,
//!   `restartPolicy`, `securityContext`, `terminationGracePeriodSeconds`, `schedulerName`;
//!   volume defaults (`emptyDir` when no source, `hostPath.type`, `defaultMode` 420 for
//!   secret/configMap/downwardAPI/projected, token expiration, `fieldRef.apiVersion`, image
//!   volume pull policy, ephemeral claim `volumeMode`); per container `imagePullPolicy`,
//!   `terminationMessagePath`/`Policy`, port `protocol`, probe timings, `httpGet` path and
//!   scheme, gRPC `service`; quantities stored in canonical form.
//! * Deployment, ReplicaSet, DaemonSet, StatefulSet (and its claim templates), Job, CronJob: their
//!   `SetDefaults_*` and the template's pod-spec defaults.
//! * Service, Secret, Namespace, PersistentVolume(Claim), LimitRange, Node, and the RBAC
//!   bindings (`roleRef.apiGroup`, subjects' `apiGroup`).
//!
//! Not defaults, so not here: `priority`/`preemptionPolicy` (the Priority admission plugin),
//! service account token volumes (ServiceAccount admission), tolerations
//! (DefaultTolerationSeconds), `status.phase`/`qosClass` of a Pod and a Job's selector and
//! labels (the registry's PrepareForCreate), a Service's cluster IP (its IP allocator).

use crate::object::Object;
use crate::trace::Change;
use k8s_openapi::api::core::v1::{Container, PodSpec, Probe, Volume};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as KQuantity;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Collects the changes made (when `record` is set; otherwise it only applies them).
struct Rec {
    changes: Vec<Change>,
    record: bool,
}

/// A change's field path, built only when the change is recorded: a static path,
/// `At(prefix, field)` or a closure.
trait AsPath {
    fn path(self) -> String;
}

impl AsPath for &'static str {
    fn path(self) -> String {
        self.to_string()
    }
}

impl<F: FnOnce() -> String> AsPath for F {
    fn path(self) -> String {
        self()
    }
}

/// `prefix.field` (just `field` under an empty prefix).
struct At<'a>(&'a str, &'static str);

impl AsPath for At<'_> {
    fn path(self) -> String {
        join(self.0, self.1)
    }
}

fn yaml<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => {
            // A plain string, quoted only when YAML would read it as something else.
            let y = crate::yaml::to_string(&serde_json::Value::String(s));
            y.trim_end().to_string()
        }
        Ok(serde_json::Value::Object(m)) if m.is_empty() => "{}".into(),
        Ok(serde_json::Value::Array(a)) if a.is_empty() => "[]".into(),
        Ok(other) => crate::yaml::to_string(&other).trim_end().to_string(),
        Err(_) => String::new(),
    }
}

impl Rec {
    fn set<T: Serialize>(&mut self, path: impl AsPath, after: &T) {
        if self.record {
            self.changes.push(Change { path: path.path(), before: None, after: Some(yaml(after)) });
        }
    }

    fn changed<T: Serialize>(&mut self, path: impl AsPath, before: &T, after: &T) {
        if self.record {
            self.changes.push(Change { path: path.path(), before: Some(yaml(before)), after: Some(yaml(after)) });
        }
    }

    /// Sets an optional string when it is absent or empty (Go's zero value).
    fn string(&mut self, slot: &mut Option<String>, path: impl AsPath, value: &str) {
        if slot.as_deref().unwrap_or_default().is_empty() {
            *slot = Some(value.to_string());
            self.set(path, &value);
        }
    }

    /// Sets an optional number when it is absent or zero.
    fn int32(&mut self, slot: &mut Option<i32>, path: impl AsPath, value: i32) {
        if slot.unwrap_or(0) == 0 {
            *slot = Some(value);
            self.set(path, &value);
        }
    }

    /// Sets a pointer field when it is absent (nil), whatever its value.
    fn ptr<T: Serialize + Clone>(&mut self, slot: &mut Option<T>, path: impl AsPath, value: T) {
        if slot.is_none() {
            self.set(path, &value);
            *slot = Some(value);
        }
    }
}

fn join(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_string()
    } else {
        format!("{prefix}.{field}")
    }
}

/// Applies the API server's defaults to a decoded object; returns what changed.
pub fn apply_defaults(obj: &mut Object) -> Vec<Change> {
    defaults(obj, true)
}

/// Applies the defaults as [`apply_defaults`] does, without listing them (for a request
/// whose steps the trace leaves out).
pub fn apply_defaults_unlisted(obj: &mut Object) {
    defaults(obj, false);
}

fn defaults(obj: &mut Object, record: bool) -> Vec<Change> {
    let mut rec = Rec { changes: Vec::new(), record };
    match obj {
        Object::Pod(pod) => {
            let pod = Arc::make_mut(pod);
            let spec = pod.spec.get_or_insert_with(Default::default);
            pod_only_defaults(spec, "spec", &mut rec);
            pod_spec_defaults(spec, "spec", &mut rec);
        }
        Object::Deployment(d) => {
            let d = Arc::make_mut(d);
            let spec = &mut d.spec;
            rec.ptr(&mut spec.replicas, "spec.replicas", 1);
            let strategy = spec.strategy.get_or_insert_with(Default::default);
            rec.string(&mut strategy.type_, "spec.strategy.type", "RollingUpdate");
            if strategy.type_.as_deref() == Some("RollingUpdate") {
                let ru = strategy.rolling_update.get_or_insert_with(Default::default);
                rec.ptr(
                    &mut ru.max_unavailable,
                    "spec.strategy.rollingUpdate.maxUnavailable",
                    IntOrString::String("25%".into()),
                );
                rec.ptr(&mut ru.max_surge, "spec.strategy.rollingUpdate.maxSurge", IntOrString::String("25%".into()));
            }
            rec.ptr(&mut spec.revision_history_limit, "spec.revisionHistoryLimit", 10);
            rec.ptr(&mut spec.progress_deadline_seconds, "spec.progressDeadlineSeconds", 600);
            template_defaults(spec.template.spec.get_or_insert_with(Default::default), "spec.template.spec", &mut rec);
        }
        Object::ReplicaSet(rs) => {
            let rs = Arc::make_mut(rs);
            let spec = &mut rs.spec;
            rec.ptr(&mut spec.replicas, "spec.replicas", 1);
            if let Some(t) = spec.template.as_mut() {
                template_defaults(t.spec.get_or_insert_with(Default::default), "spec.template.spec", &mut rec);
            }
        }
        Object::DaemonSet(ds) => {
            // `SetDefaults_DaemonSet`, then the template's pod-spec defaults.
            let ds = Arc::make_mut(ds);
            let spec = &mut ds.spec;
            let strategy = spec.update_strategy.get_or_insert_with(Default::default);
            rec.string(&mut strategy.type_, "spec.updateStrategy.type", "RollingUpdate");
            if strategy.type_.as_deref() == Some("RollingUpdate") {
                let ru = strategy.rolling_update.get_or_insert_with(Default::default);
                rec.ptr(
                    &mut ru.max_unavailable,
                    "spec.updateStrategy.rollingUpdate.maxUnavailable",
                    IntOrString::Int(1),
                );
                rec.ptr(&mut ru.max_surge, "spec.updateStrategy.rollingUpdate.maxSurge", IntOrString::Int(0));
            }
            rec.ptr(&mut spec.revision_history_limit, "spec.revisionHistoryLimit", 10);
            template_defaults(spec.template.spec.get_or_insert_with(Default::default), "spec.template.spec", &mut rec);
        }
        Object::StatefulSet(sts) => {
            let sts = Arc::make_mut(sts);
            let spec = &mut sts.spec;
            // `SetDefaults_StatefulSet`.
            rec.string(&mut spec.pod_management_policy, "spec.podManagementPolicy", "OrderedReady");
            let us = spec.update_strategy.get_or_insert_with(Default::default);
            if us.type_.as_deref().unwrap_or_default().is_empty() {
                rec.set("spec.updateStrategy.type", &"RollingUpdate");
                us.type_ = Some("RollingUpdate".into());
                us.rolling_update.get_or_insert_with(Default::default);
            }
            if us.type_.as_deref() == Some("RollingUpdate") {
                if let Some(ru) = us.rolling_update.as_mut() {
                    rec.ptr(&mut ru.partition, "spec.updateStrategy.rollingUpdate.partition", 0);
                    // MaxUnavailableStatefulSet is beta and on by default since v1.35.
                    rec.ptr(
                        &mut ru.max_unavailable,
                        "spec.updateStrategy.rollingUpdate.maxUnavailable",
                        IntOrString::Int(1),
                    );
                }
            }
            let pol = spec.persistent_volume_claim_retention_policy.get_or_insert_with(Default::default);
            rec.string(&mut pol.when_deleted, "spec.persistentVolumeClaimRetentionPolicy.whenDeleted", "Retain");
            rec.string(&mut pol.when_scaled, "spec.persistentVolumeClaimRetentionPolicy.whenScaled", "Retain");
            rec.ptr(&mut spec.replicas, "spec.replicas", 1);
            rec.ptr(&mut spec.revision_history_limit, "spec.revisionHistoryLimit", 10);
            template_defaults(spec.template.spec.get_or_insert_with(Default::default), "spec.template.spec", &mut rec);
            // Each claim template gets a claim's defaults.
            for (i, pvc) in spec.volume_claim_templates.iter_mut().flatten().enumerate() {
                let p = format!("spec.volumeClaimTemplates[{i}]");
                let status = pvc.status.get_or_insert_with(Default::default);
                rec.string(&mut status.phase, At(&p, "status.phase"), "Pending");
                let spec = pvc.spec.get_or_insert_with(Default::default);
                rec.ptr(&mut spec.volume_mode, At(&p, "spec.volumeMode"), "Filesystem".to_string());
                if let Some(r) = spec.resources.as_mut() {
                    canonical_list(&mut r.limits, &format!("{p}.spec.resources.limits"), &mut rec);
                    canonical_list(&mut r.requests, &format!("{p}.spec.resources.requests"), &mut rec);
                }
            }
        }
        Object::Job(job) => {
            let job = Arc::make_mut(job);
            let spec = job.spec.get_or_insert_with(Default::default);
            if spec.completions.is_none() && spec.parallelism.is_none() {
                rec.ptr(&mut spec.completions, "spec.completions", 1);
            }
            rec.ptr(&mut spec.parallelism, "spec.parallelism", 1);
            let backoff = if spec.backoff_limit_per_index.is_some() { i32::MAX } else { 6 };
            rec.ptr(&mut spec.backoff_limit, "spec.backoffLimit", backoff);
            let template_labels = spec.template.metadata.as_ref().and_then(|m| m.labels.clone());
            if let Some(labels) = template_labels {
                if job.metadata.labels.as_ref().is_none_or(BTreeMap::is_empty) {
                    rec.set("metadata.labels", &labels);
                    job.metadata.labels = Some(labels);
                }
            }
            rec.ptr(&mut spec.completion_mode, "spec.completionMode", "NonIndexed".to_string());
            rec.ptr(&mut spec.suspend, "spec.suspend", false);
            let replacement = if spec.pod_failure_policy.is_some() { "Failed" } else { "TerminatingOrFailed" };
            rec.ptr(&mut spec.pod_replacement_policy, "spec.podReplacementPolicy", replacement.to_string());
            rec.ptr(&mut spec.manual_selector, "spec.manualSelector", false);
            template_defaults(spec.template.spec.get_or_insert_with(Default::default), "spec.template.spec", &mut rec);
            if let Some(pfp) = spec.pod_failure_policy.as_mut() {
                for (i, rule) in pfp.rules.iter_mut().enumerate() {
                    for (j, pattern) in rule.on_pod_conditions.iter_mut().flatten().enumerate() {
                        if pattern.status.as_deref().unwrap_or_default().is_empty() {
                            pattern.status = Some("True".into());
                            rec.set(
                                || format!("spec.podFailurePolicy.rules[{i}].onPodConditions[{j}].status"),
                                &"True",
                            );
                        }
                    }
                }
            }
        }
        Object::CronJob(cj) => {
            // `SetDefaults_CronJob`, then the job template's pod spec (the generated defaulter
            // does not run `SetDefaults_Job` on the template: its completions, backoffLimit,
            // ... stay unset until a Job is made from it).
            let spec = &mut Arc::make_mut(cj).spec;
            rec.string(&mut spec.concurrency_policy, "spec.concurrencyPolicy", "Allow");
            rec.ptr(&mut spec.suspend, "spec.suspend", false);
            rec.ptr(&mut spec.successful_jobs_history_limit, "spec.successfulJobsHistoryLimit", 3);
            rec.ptr(&mut spec.failed_jobs_history_limit, "spec.failedJobsHistoryLimit", 1);
            let job_spec = spec.job_template.spec.get_or_insert_with(Default::default);
            let template = job_spec.template.spec.get_or_insert_with(Default::default);
            template_defaults(template, "spec.jobTemplate.spec.template.spec", &mut rec);
        }
        Object::Service(svc) => service_defaults(Arc::make_mut(svc), &mut rec),
        Object::Secret(secret) => {
            let secret = Arc::make_mut(secret);
            rec.string(&mut secret.type_, "type", "Opaque");
        }
        Object::Namespace(ns) => {
            let ns = Arc::make_mut(ns);
            if let Some(name) = ns.metadata.name.clone().filter(|n| !n.is_empty()) {
                let labels = ns.metadata.labels.get_or_insert_with(Default::default);
                let key = "kubernetes.io/metadata.name";
                let before = labels.insert(key.to_string(), name.clone());
                let path = || format!("metadata.labels[{key}]");
                match before {
                    Some(b) if b == name => {}
                    Some(b) => rec.changed(path, &b, &name),
                    None => rec.set(path, &name),
                }
            }
            let status = ns.status.get_or_insert_with(Default::default);
            rec.string(&mut status.phase, "status.phase", "Active");
        }
        Object::PersistentVolumeClaim(pvc) => {
            let pvc = Arc::make_mut(pvc);
            let status = pvc.status.get_or_insert_with(Default::default);
            rec.string(&mut status.phase, "status.phase", "Pending");
            let spec = pvc.spec.get_or_insert_with(Default::default);
            rec.ptr(&mut spec.volume_mode, "spec.volumeMode", "Filesystem".to_string());
            if let Some(r) = spec.resources.as_mut() {
                canonical_list(&mut r.limits, "spec.resources.limits", &mut rec);
                canonical_list(&mut r.requests, "spec.resources.requests", &mut rec);
            }
        }
        Object::PersistentVolume(pv) => {
            let pv = Arc::make_mut(pv);
            let status = pv.status.get_or_insert_with(Default::default);
            rec.string(&mut status.phase, "status.phase", "Pending");
            let spec = pv.spec.get_or_insert_with(Default::default);
            rec.string(&mut spec.persistent_volume_reclaim_policy, "spec.persistentVolumeReclaimPolicy", "Retain");
            rec.ptr(&mut spec.volume_mode, "spec.volumeMode", "Filesystem".to_string());
            canonical_list(&mut spec.capacity, "spec.capacity", &mut rec);
            if let Some(hp) = spec.host_path.as_mut() {
                rec.ptr(&mut hp.type_, "spec.hostPath.type", String::new());
            }
        }
        Object::LimitRange(lr) => {
            let lr = Arc::make_mut(lr);
            if let Some(spec) = lr.spec.as_mut() {
                for (i, item) in spec.limits.iter_mut().enumerate() {
                    let p = format!("spec.limits[{i}]");
                    if item.type_ == "Container" {
                        let max = item.max.clone().unwrap_or_default();
                        let default = item.default.get_or_insert_with(Default::default);
                        for (k, v) in &max {
                            if !default.contains_key(k) {
                                default.insert(k.clone(), v.clone());
                                rec.set(|| format!("{p}.default.{k}"), v);
                            }
                        }
                        let default = default.clone();
                        let min = item.min.clone().unwrap_or_default();
                        let dr = item.default_request.get_or_insert_with(Default::default);
                        for (k, v) in default.iter().chain(min.iter()) {
                            if !dr.contains_key(k) {
                                dr.insert(k.clone(), v.clone());
                                rec.set(|| format!("{p}.defaultRequest.{k}"), v);
                            }
                        }
                    }
                    canonical_list(&mut item.max, &format!("{p}.max"), &mut rec);
                    canonical_list(&mut item.min, &format!("{p}.min"), &mut rec);
                    canonical_list(&mut item.default, &format!("{p}.default"), &mut rec);
                    canonical_list(&mut item.default_request, &format!("{p}.defaultRequest"), &mut rec);
                    canonical_list(&mut item.max_limit_request_ratio, &format!("{p}.maxLimitRequestRatio"), &mut rec);
                }
            }
        }
        Object::ResourceQuota(rq) => {
            let rq = Arc::make_mut(rq);
            if let Some(spec) = rq.spec.as_mut() {
                canonical_list(&mut spec.hard, "spec.hard", &mut rec);
            }
        }
        Object::Node(node) => {
            let node = Arc::make_mut(node);
            if let Some(status) = node.status.as_mut() {
                if status.allocatable.is_none() && status.capacity.is_some() {
                    status.allocatable = status.capacity.clone();
                    rec.set("status.allocatable", &status.allocatable);
                }
                canonical_list(&mut status.capacity, "status.capacity", &mut rec);
                canonical_list(&mut status.allocatable, "status.allocatable", &mut rec);
            }
        }
        Object::RoleBinding(b) => {
            let b = Arc::make_mut(b);
            rbac_binding_defaults(&mut b.role_ref, b.subjects.as_mut(), &mut rec)
        }
        Object::ClusterRoleBinding(b) => {
            let b = Arc::make_mut(b);
            rbac_binding_defaults(&mut b.role_ref, b.subjects.as_mut(), &mut rec)
        }
        Object::Other(u) => unstructured_defaults(Arc::make_mut(u), &mut rec),
        _ => {}
    }
    rec.changes
}

/// `SetDefaults_RoleBinding`/`ClusterRoleBinding` and `SetDefaults_Subject`.
fn rbac_binding_defaults(
    role_ref: &mut k8s_openapi::api::rbac::v1::RoleRef,
    subjects: Option<&mut Vec<k8s_openapi::api::rbac::v1::Subject>>,
    rec: &mut Rec,
) {
    const GROUP: &str = "rbac.authorization.k8s.io";
    rec.string(&mut role_ref.api_group, "roleRef.apiGroup", GROUP);
    for (i, s) in subjects.into_iter().flatten().enumerate() {
        if s.api_group.as_deref().unwrap_or_default().is_empty() && matches!(s.kind.as_str(), "User" | "Group") {
            rec.string(&mut s.api_group, || format!("subjects[{i}].apiGroup"), GROUP);
        }
    }
}

/// `SetDefaults_Pod`: only for Pods, not for pod templates.
fn pod_only_defaults(spec: &mut PodSpec, prefix: &str, rec: &mut Rec) {
    let groups: [(&str, &mut Vec<Container>); 2] =
        [("containers", &mut spec.containers), ("initContainers", spec.init_containers.get_or_insert_with(Vec::new))];
    for (field, containers) in groups {
        for (i, c) in containers.iter_mut().enumerate() {
            let Some(res) = c.resources.as_mut() else { continue };
            let Some(limits) = res.limits.clone() else { continue };
            let requests = res.requests.get_or_insert_with(Default::default);
            for (k, v) in limits {
                if let std::collections::btree_map::Entry::Vacant(slot) = requests.entry(k) {
                    let v = canonical(&v);
                    rec.set(|| format!("{prefix}.{field}[{i}].resources.requests.{}", slot.key()), &v);
                    slot.insert(v);
                }
            }
        }
    }
    if spec.init_containers.as_ref().is_some_and(Vec::is_empty) {
        spec.init_containers = None;
    }
    rec.ptr(&mut spec.enable_service_links, At(prefix, "enableServiceLinks"), true);
    if spec.host_network == Some(true) {
        let groups: [(&str, Option<&mut Vec<Container>>); 2] =
            [("containers", Some(&mut spec.containers)), ("initContainers", spec.init_containers.as_mut())];
        for (field, containers) in groups {
            for (i, c) in containers.into_iter().flatten().enumerate() {
                for (j, port) in c.ports.iter_mut().flatten().enumerate() {
                    if port.host_port.unwrap_or(0) == 0 {
                        port.host_port = Some(port.container_port);
                        rec.set(|| format!("{prefix}.{field}[{i}].ports[{j}].hostPort"), &port.container_port);
                    }
                }
            }
        }
    }
}

/// The defaults of a pod template's spec (everything of a Pod but `SetDefaults_Pod`).
fn template_defaults(spec: &mut PodSpec, prefix: &str, rec: &mut Rec) {
    pod_spec_defaults(spec, prefix, rec);
}

/// `SetDefaults_PodSpec` and the nested defaults of volumes and containers.
fn pod_spec_defaults(spec: &mut PodSpec, prefix: &str, rec: &mut Rec) {
    rec.string(&mut spec.dns_policy, At(prefix, "dnsPolicy"), "ClusterFirst");
    rec.string(&mut spec.restart_policy, At(prefix, "restartPolicy"), "Always");
    rec.ptr(&mut spec.security_context, At(prefix, "securityContext"), Default::default());
    rec.ptr(&mut spec.termination_grace_period_seconds, At(prefix, "terminationGracePeriodSeconds"), 30);
    rec.string(&mut spec.scheduler_name, At(prefix, "schedulerName"), "default-scheduler");
    for (i, v) in spec.volumes.iter_mut().flatten().enumerate() {
        volume_defaults(v, &format!("{prefix}.volumes[{i}]"), rec);
    }
    for (i, c) in spec.init_containers.iter_mut().flatten().enumerate() {
        container_defaults(c, &format!("{prefix}.initContainers[{i}]"), rec);
    }
    for (i, c) in spec.containers.iter_mut().enumerate() {
        container_defaults(c, &format!("{prefix}.containers[{i}]"), rec);
    }
    for (i, c) in spec.ephemeral_containers.iter_mut().flatten().enumerate() {
        let p = format!("{prefix}.ephemeralContainers[{i}]");
        if c.image_pull_policy.as_deref().unwrap_or_default().is_empty() {
            let policy = default_pull_policy(c.image.as_deref().unwrap_or_default());
            c.image_pull_policy = Some(policy.into());
            rec.set(At(&p, "imagePullPolicy"), &policy);
        }
        rec.string(&mut c.termination_message_path, At(&p, "terminationMessagePath"), "/dev/termination-log");
        rec.string(&mut c.termination_message_policy, At(&p, "terminationMessagePolicy"), "File");
        for (j, port) in c.ports.iter_mut().flatten().enumerate() {
            rec.string(&mut port.protocol, || format!("{p}.ports[{j}].protocol"), "TCP");
        }
    }
    canonical_list(&mut spec.overhead, &join(prefix, "overhead"), rec);
}

fn volume_defaults(v: &mut Volume, p: &str, rec: &mut Rec) {
    let has_source = v.aws_elastic_block_store.is_some()
        || v.azure_disk.is_some()
        || v.azure_file.is_some()
        || v.cephfs.is_some()
        || v.cinder.is_some()
        || v.config_map.is_some()
        || v.csi.is_some()
        || v.downward_api.is_some()
        || v.empty_dir.is_some()
        || v.ephemeral.is_some()
        || v.fc.is_some()
        || v.flex_volume.is_some()
        || v.flocker.is_some()
        || v.gce_persistent_disk.is_some()
        || v.git_repo.is_some()
        || v.glusterfs.is_some()
        || v.host_path.is_some()
        || v.image.is_some()
        || v.iscsi.is_some()
        || v.nfs.is_some()
        || v.persistent_volume_claim.is_some()
        || v.photon_persistent_disk.is_some()
        || v.portworx_volume.is_some()
        || v.projected.is_some()
        || v.quobyte.is_some()
        || v.rbd.is_some()
        || v.scale_io.is_some()
        || v.secret.is_some()
        || v.storageos.is_some()
        || v.vsphere_volume.is_some();
    if !has_source {
        rec.ptr(&mut v.empty_dir, At(p, "emptyDir"), Default::default());
    }
    if let Some(img) = v.image.as_mut() {
        if img.pull_policy.as_deref().unwrap_or_default().is_empty() {
            let policy = if image_tag(img.reference.as_deref().unwrap_or_default()) == "latest" {
                "Always"
            } else {
                "IfNotPresent"
            };
            img.pull_policy = Some(policy.into());
            rec.set(At(p, "image.pullPolicy"), &policy);
        }
    }
    if let Some(hp) = v.host_path.as_mut() {
        rec.ptr(&mut hp.type_, At(p, "hostPath.type"), String::new());
    }
    if let Some(s) = v.secret.as_mut() {
        rec.ptr(&mut s.default_mode, At(p, "secret.defaultMode"), 420);
    }
    if let Some(d) = v.downward_api.as_mut() {
        rec.ptr(&mut d.default_mode, At(p, "downwardAPI.defaultMode"), 420);
        for (j, item) in d.items.iter_mut().flatten().enumerate() {
            if let Some(f) = item.field_ref.as_mut() {
                rec.string(&mut f.api_version, || format!("{p}.downwardAPI.items[{j}].fieldRef.apiVersion"), "v1");
            }
        }
    }
    if let Some(c) = v.config_map.as_mut() {
        rec.ptr(&mut c.default_mode, At(p, "configMap.defaultMode"), 420);
    }
    if let Some(pr) = v.projected.as_mut() {
        rec.ptr(&mut pr.default_mode, At(p, "projected.defaultMode"), 420);
        for (j, src) in pr.sources.iter_mut().flatten().enumerate() {
            if let Some(d) = src.downward_api.as_mut() {
                for (k, item) in d.items.iter_mut().flatten().enumerate() {
                    if let Some(f) = item.field_ref.as_mut() {
                        rec.string(
                            &mut f.api_version,
                            || format!("{p}.projected.sources[{j}].downwardAPI.items[{k}].fieldRef.apiVersion"),
                            "v1",
                        );
                    }
                }
            }
            if let Some(t) = src.service_account_token.as_mut() {
                rec.ptr(
                    &mut t.expiration_seconds,
                    || format!("{p}.projected.sources[{j}].serviceAccountToken.expirationSeconds"),
                    3600,
                );
            }
        }
    }
    if let Some(tpl) = v.ephemeral.as_mut().and_then(|e| e.volume_claim_template.as_mut()) {
        rec.ptr(&mut tpl.spec.volume_mode, At(p, "ephemeral.volumeClaimTemplate.spec.volumeMode"), "Filesystem".into());
    }
}

fn probe_defaults(probe: &mut Probe, p: &str, rec: &mut Rec) {
    rec.int32(&mut probe.timeout_seconds, At(p, "timeoutSeconds"), 1);
    rec.int32(&mut probe.period_seconds, At(p, "periodSeconds"), 10);
    rec.int32(&mut probe.success_threshold, At(p, "successThreshold"), 1);
    rec.int32(&mut probe.failure_threshold, At(p, "failureThreshold"), 3);
    if let Some(h) = probe.http_get.as_mut() {
        rec.string(&mut h.path, At(p, "httpGet.path"), "/");
        rec.string(&mut h.scheme, At(p, "httpGet.scheme"), "HTTP");
    }
    if let Some(g) = probe.grpc.as_mut() {
        rec.ptr(&mut g.service, At(p, "grpc.service"), String::new());
    }
}

fn container_defaults(c: &mut Container, p: &str, rec: &mut Rec) {
    if c.image_pull_policy.as_deref().unwrap_or_default().is_empty() {
        let policy = default_pull_policy(c.image.as_deref().unwrap_or_default());
        c.image_pull_policy = Some(policy.into());
        rec.set(At(p, "imagePullPolicy"), &policy);
    }
    rec.string(&mut c.termination_message_path, At(p, "terminationMessagePath"), "/dev/termination-log");
    rec.string(&mut c.termination_message_policy, At(p, "terminationMessagePolicy"), "File");
    for (j, port) in c.ports.iter_mut().flatten().enumerate() {
        rec.string(&mut port.protocol, || format!("{p}.ports[{j}].protocol"), "TCP");
    }
    for (j, env) in c.env.iter_mut().flatten().enumerate() {
        if let Some(f) = env.value_from.as_mut().and_then(|v| v.field_ref.as_mut()) {
            rec.string(&mut f.api_version, || format!("{p}.env[{j}].valueFrom.fieldRef.apiVersion"), "v1");
        }
    }
    if let Some(r) = c.resources.as_mut() {
        canonical_list(&mut r.limits, &format!("{p}.resources.limits"), rec);
        canonical_list(&mut r.requests, &format!("{p}.resources.requests"), rec);
    }
    if let Some(probe) = c.liveness_probe.as_mut() {
        probe_defaults(probe, &format!("{p}.livenessProbe"), rec);
    }
    if let Some(probe) = c.readiness_probe.as_mut() {
        probe_defaults(probe, &format!("{p}.readinessProbe"), rec);
    }
    if let Some(probe) = c.startup_probe.as_mut() {
        probe_defaults(probe, &format!("{p}.startupProbe"), rec);
    }
    if let Some(l) = c.lifecycle.as_mut() {
        for (name, hook) in [("postStart", l.post_start.as_mut()), ("preStop", l.pre_stop.as_mut())] {
            if let Some(h) = hook.and_then(|h| h.http_get.as_mut()) {
                rec.string(&mut h.path, || format!("{p}.lifecycle.{name}.httpGet.path"), "/");
                rec.string(&mut h.scheme, || format!("{p}.lifecycle.{name}.httpGet.scheme"), "HTTP");
            }
        }
    }
}

fn service_defaults(svc: &mut k8s_openapi::api::core::v1::Service, rec: &mut Rec) {
    let spec = svc.spec.get_or_insert_with(Default::default);
    rec.string(&mut spec.session_affinity, "spec.sessionAffinity", "None");
    if spec.session_affinity.as_deref() == Some("None") && spec.session_affinity_config.is_some() {
        if rec.record {
            rec.changes.push(Change {
                path: "spec.sessionAffinityConfig".into(),
                before: Some(yaml(&spec.session_affinity_config)),
                after: None,
            });
        }
        spec.session_affinity_config = None;
    }
    if spec.session_affinity.as_deref() == Some("ClientIP") {
        let missing = spec
            .session_affinity_config
            .as_ref()
            .and_then(|c| c.client_ip.as_ref())
            .and_then(|c| c.timeout_seconds)
            .is_none();
        if missing {
            let cfg = k8s_openapi::api::core::v1::SessionAffinityConfig {
                client_ip: Some(k8s_openapi::api::core::v1::ClientIPConfig { timeout_seconds: Some(10800) }),
            };
            rec.set("spec.sessionAffinityConfig", &cfg);
            spec.session_affinity_config = Some(cfg);
        }
    }
    rec.string(&mut spec.type_, "spec.type", "ClusterIP");
    for (i, port) in spec.ports.iter_mut().flatten().enumerate() {
        rec.string(&mut port.protocol, || format!("spec.ports[{i}].protocol"), "TCP");
        let unset = match &port.target_port {
            None => true,
            Some(IntOrString::Int(0)) => true,
            Some(IntOrString::String(s)) => s.is_empty(),
            _ => false,
        };
        if unset {
            port.target_port = Some(IntOrString::Int(port.port));
            rec.set(|| format!("spec.ports[{i}].targetPort"), &port.port);
        }
    }
    let ty = spec.type_.clone().unwrap_or_default();
    let externally_accessible = ty == "LoadBalancer"
        || ty == "NodePort"
        || (ty == "ClusterIP" && spec.external_ips.as_ref().is_some_and(|v| !v.is_empty()));
    if externally_accessible {
        rec.string(&mut spec.external_traffic_policy, "spec.externalTrafficPolicy", "Cluster");
    }
    if matches!(ty.as_str(), "NodePort" | "LoadBalancer" | "ClusterIP") {
        rec.ptr(&mut spec.internal_traffic_policy, "spec.internalTrafficPolicy", "Cluster".to_string());
    }
    if ty == "LoadBalancer" {
        rec.ptr(&mut spec.allocate_load_balancer_node_ports, "spec.allocateLoadBalancerNodePorts", true);
    }
    // Set by the Service storage when it allocates the cluster IP (single-stack IPv4
    // cluster), shown here with the other values the server fills in.
    if ty != "ExternalName" && spec.cluster_ip.as_deref() != Some("None") {
        rec.ptr(&mut spec.ip_family_policy, "spec.ipFamilyPolicy", "SingleStack".to_string());
        rec.ptr(&mut spec.ip_families, "spec.ipFamilies", vec!["IPv4".to_string()]);
    }
}

/// The pod-spec defaults of a template held as JSON (in a kind without a typed variant).
fn json_template_defaults(spec: Option<&mut serde_json::Value>, prefix: &str, rec: &mut Rec) {
    let Some(value) = spec else { return };
    let Ok(mut typed) = crate::decode::from_value::<PodSpec>(value) else { return };
    pod_spec_defaults(&mut typed, prefix, rec);
    if let Ok(v) = serde_json::to_value(&typed) {
        *value = v;
    }
}

/// Defaults of kinds held unstructured:
/// ReplicationController and PodTemplate: their own fields, then their pod template's.
fn unstructured_defaults(u: &mut crate::object::Unstructured, rec: &mut Rec) {
    use serde_json::{json, Value};
    let kind = u.kind.clone();
    if kind == "PodTemplate" {
        let spec = u.rest.get_mut("template").and_then(|t| t.get_mut("spec"));
        json_template_defaults(spec, "template.spec", rec);
        return;
    }
    let spec = match u.rest.get_mut("spec") {
        Some(Value::Object(m)) => m,
        _ => return,
    };
    let mut put = |m: &mut serde_json::Map<String, Value>, path: &str, key: &str, v: Value| {
        let empty = match m.get(key) {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s.is_empty(),
            _ => false,
        };
        if empty {
            rec.set(|| path.to_string(), &v);
            m.insert(key.to_string(), v);
        }
    };
    match kind.as_str() {
        "ReplicationController" => {
            put(spec, "spec.replicas", "replicas", json!(1));
        }
        "HorizontalPodAutoscaler" => {
            // autoscaling/v1 and v2 `SetDefaults_HorizontalPodAutoscaler`: one replica at
            // least; v2 also targets 80 % CPU when no metric is given (v1 defaults its CPU
            // target in the conversion, which the controller reads).
            put(spec, "spec.minReplicas", "minReplicas", json!(1));
            let no_metrics = spec.get("metrics").and_then(Value::as_array).is_none_or(|m| m.is_empty());
            // `SetDefaults_HorizontalPodAutoscalerBehavior`: a behavior given gets every rule
            // its `GenerateHPAScaleUpRules`/`GenerateHPAScaleDownRules` fill (scale-down keeps
            // no stabilization window: the controller's flag decides it).
            if u.api_version == "autoscaling/v2" {
                if let Some(Value::Object(behavior)) = spec.get_mut("behavior") {
                    let up_policies = json!([
                        {"type": "Pods", "value": 4, "periodSeconds": 15},
                        {"type": "Percent", "value": 100, "periodSeconds": 15}
                    ]);
                    let down_policies = json!([{"type": "Percent", "value": 100, "periodSeconds": 15}]);
                    for (key, policies) in [("scaleUp", up_policies), ("scaleDown", down_policies)] {
                        let path = format!("spec.behavior.{key}");
                        let rules = behavior.entry(key.to_string()).or_insert(Value::Null);
                        if rules.is_null() {
                            *rules = json!({});
                        }
                        let Value::Object(rules) = rules else { continue };
                        if key == "scaleUp" {
                            put(
                                rules,
                                &format!("{path}.stabilizationWindowSeconds"),
                                "stabilizationWindowSeconds",
                                json!(0),
                            );
                        }
                        put(rules, &format!("{path}.selectPolicy"), "selectPolicy", json!("Max"));
                        put(rules, &format!("{path}.policies"), "policies", policies);
                    }
                }
            }
            if u.api_version == "autoscaling/v2" && no_metrics {
                let v = json!([{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]);
                rec.set(|| "spec.metrics".to_string(), &v);
                spec.insert("metrics".to_string(), v);
            }
            return;
        }
        _ => return,
    }
    let t = spec.get_mut("template").and_then(|t| t.get_mut("spec"));
    json_template_defaults(t, "spec.template.spec", rec);
}

/// The canonical text of a quantity (what the API server stores), or the text itself if it
/// does not parse (validation reports that).
fn canonical(q: &KQuantity) -> KQuantity {
    match crate::decode::parse_quantity(&q.0) {
        Ok(parsed) => KQuantity(parsed.to_string()),
        Err(_) => q.clone(),
    }
}

/// `SetDefaults_ResourceList` plus serialization: every quantity in its canonical form.
fn canonical_list(list: &mut Option<BTreeMap<String, KQuantity>>, p: &str, rec: &mut Rec) {
    for (k, v) in list.iter_mut().flatten() {
        let c = canonical(v);
        if c != *v {
            rec.changed(|| format!("{p}.{k}"), v, &c);
            *v = c;
        }
    }
}

/// `imagePullPolicy` for an image without one: `Always` for `:latest` or no tag (and no
/// digest), else `IfNotPresent`.
fn default_pull_policy(image: &str) -> &'static str {
    if image_tag(image) == "latest" {
        "Always"
    } else {
        "IfNotPresent"
    }
}

/// The tag `parsers.ParseImageName` finds: the explicit tag, `latest` when there is neither
/// tag nor digest, and empty for a digest-only or unparsable reference.
pub fn image_tag(image: &str) -> String {
    if !valid_reference(image) {
        return String::new();
    }
    let (rest, digest) = match image.split_once('@') {
        Some((r, d)) => (r, Some(d)),
        None => (image, None),
    };
    let last_slash = rest.rfind('/').map_or(0, |i| i + 1);
    let tag = rest[last_slash..].split_once(':').map(|(_, t)| t.to_string());
    match (tag, digest) {
        (Some(t), _) => t,
        (None, Some(_)) => String::new(),
        (None, None) => "latest".into(),
    }
}

/// A loose check of docker's reference grammar: lower-case path components, an optional
/// domain (with a port), an optional tag and digest.
fn valid_reference(image: &str) -> bool {
    if image.is_empty() || image.len() > 255 + 128 + 80 {
        return false;
    }
    let (rest, digest) = match image.split_once('@') {
        Some((r, d)) => (r, Some(d)),
        None => (image, None),
    };
    if let Some(d) = digest {
        let Some((alg, hex)) = d.split_once(':') else { return false };
        if alg.is_empty() || hex.len() < 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return false;
        }
    }
    let last_slash = rest.rfind('/').map_or(0, |i| i + 1);
    let (name, tag) = match rest[last_slash..].split_once(':') {
        Some((n, t)) => (format!("{}{n}", &rest[..last_slash]), Some(t)),
        None => (rest.to_string(), None),
    };
    if let Some(t) = tag {
        let ok = !t.is_empty()
            && t.len() <= 128
            && t.chars().next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            && t.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
        if !ok {
            return false;
        }
    }
    let mut parts: Vec<&str> = name.split('/').collect();
    if parts.len() > 1 {
        let first = parts[0];
        let is_domain =
            first.contains(['.', ':']) || first == "localhost" || first.chars().any(|c| c.is_ascii_uppercase());
        if is_domain {
            let host = first.split(':').next().unwrap_or_default();
            if host.is_empty() || !host.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-') {
                return false;
            }
            parts.remove(0);
        }
    }
    parts.iter().all(|comp| {
        !comp.is_empty()
            && comp.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-'))
            && comp.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
            && comp.chars().last().is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;
    use crate::manifest::parse_manifest;
    use expect_test::{expect, Expect};

    /// Decodes each document, applies the defaults and lists the changes.
    fn check(input: &str, expect: Expect) {
        let parsed = parse_manifest(input);
        let mut out = String::new();
        for doc in &parsed.documents {
            let mut obj = decode(doc).expect("test manifests decode");
            out += &format!("{} {}\n", obj.kind(), obj.name());
            let mut unlisted = obj.clone();
            apply_defaults_unlisted(&mut unlisted);
            let changes = apply_defaults(&mut obj);
            assert_eq!(unlisted, obj, "listed or not, the same defaults apply");
            for c in changes {
                out += &format!(
                    "  {}: {} -> {}\n",
                    c.path,
                    c.before.as_deref().unwrap_or("(none)"),
                    c.after.as_deref().unwrap_or("(none)")
                );
            }
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn pod() {
        check(
            "\
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  initContainers:
  - name: init
    image: busybox:1.36
    resources:
      limits: {cpu: 100m}
  containers:
  - name: web
    image: nginx
    ports: [{containerPort: 80}]
    resources:
      limits: {cpu: 0.5, memory: 128Mi}
      requests: {memory: 64Mi}
    livenessProbe:
      httpGet: {port: 80}
    readinessProbe:
      grpc: {port: 9000}
      periodSeconds: 5
    env:
    - name: NODE
      valueFrom: {fieldRef: {fieldPath: spec.nodeName}}
  - name: side
    image: registry.example.com:5000/tools/side@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
    imagePullPolicy: Never
  volumes:
  - name: scratch
  - name: conf
    configMap: {name: conf}
  - name: host
    hostPath: {path: /var/log}
  - name: token
    projected:
      sources:
      - serviceAccountToken: {path: token}
",
            expect![[r#"
                Pod web
                  spec.containers[0].resources.requests.cpu: (none) -> 500m
                  spec.initContainers[0].resources.requests.cpu: (none) -> 100m
                  spec.enableServiceLinks: (none) -> true
                  spec.dnsPolicy: (none) -> ClusterFirst
                  spec.restartPolicy: (none) -> Always
                  spec.securityContext: (none) -> {}
                  spec.terminationGracePeriodSeconds: (none) -> 30
                  spec.schedulerName: (none) -> default-scheduler
                  spec.volumes[0].emptyDir: (none) -> {}
                  spec.volumes[1].configMap.defaultMode: (none) -> 420
                  spec.volumes[2].hostPath.type: (none) -> ''
                  spec.volumes[3].projected.defaultMode: (none) -> 420
                  spec.volumes[3].projected.sources[0].serviceAccountToken.expirationSeconds: (none) -> 3600
                  spec.initContainers[0].imagePullPolicy: (none) -> IfNotPresent
                  spec.initContainers[0].terminationMessagePath: (none) -> /dev/termination-log
                  spec.initContainers[0].terminationMessagePolicy: (none) -> File
                  spec.containers[0].imagePullPolicy: (none) -> Always
                  spec.containers[0].terminationMessagePath: (none) -> /dev/termination-log
                  spec.containers[0].terminationMessagePolicy: (none) -> File
                  spec.containers[0].ports[0].protocol: (none) -> TCP
                  spec.containers[0].env[0].valueFrom.fieldRef.apiVersion: (none) -> v1
                  spec.containers[0].resources.limits.cpu: '0.5' -> 500m
                  spec.containers[0].livenessProbe.timeoutSeconds: (none) -> 1
                  spec.containers[0].livenessProbe.periodSeconds: (none) -> 10
                  spec.containers[0].livenessProbe.successThreshold: (none) -> 1
                  spec.containers[0].livenessProbe.failureThreshold: (none) -> 3
                  spec.containers[0].livenessProbe.httpGet.path: (none) -> /
                  spec.containers[0].livenessProbe.httpGet.scheme: (none) -> HTTP
                  spec.containers[0].readinessProbe.timeoutSeconds: (none) -> 1
                  spec.containers[0].readinessProbe.successThreshold: (none) -> 1
                  spec.containers[0].readinessProbe.failureThreshold: (none) -> 3
                  spec.containers[0].readinessProbe.grpc.service: (none) -> ''
                  spec.containers[1].terminationMessagePath: (none) -> /dev/termination-log
                  spec.containers[1].terminationMessagePolicy: (none) -> File
            "#]],
        );
    }

    #[test]
    fn host_network_ports() {
        check(
            "\
apiVersion: v1
kind: Pod
metadata: {name: hn}
spec:
  hostNetwork: true
  restartPolicy: Never
  containers:
  - name: web
    image: nginx:latest
    ports: [{containerPort: 8080, hostPort: 8080}, {containerPort: 9090}]
",
            expect![[r#"
                Pod hn
                  spec.enableServiceLinks: (none) -> true
                  spec.containers[0].ports[1].hostPort: (none) -> 9090
                  spec.dnsPolicy: (none) -> ClusterFirst
                  spec.securityContext: (none) -> {}
                  spec.terminationGracePeriodSeconds: (none) -> 30
                  spec.schedulerName: (none) -> default-scheduler
                  spec.containers[0].imagePullPolicy: (none) -> Always
                  spec.containers[0].terminationMessagePath: (none) -> /dev/termination-log
                  spec.containers[0].terminationMessagePolicy: (none) -> File
                  spec.containers[0].ports[0].protocol: (none) -> TCP
                  spec.containers[0].ports[1].protocol: (none) -> TCP
            "#]],
        );
    }

    #[test]
    fn workloads() {
        check(
            "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx:1.29, resources: {limits: {cpu: 1}}}]
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec:
  replicas: 0
  selector: {matchLabels: {app: rs}}
  template:
    metadata: {labels: {app: rs}}
    spec:
      containers: [{name: c, image: nginx:1.29}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: pi}
spec:
  template:
    metadata: {labels: {app: pi}}
    spec:
      restartPolicy: Never
      containers: [{name: pi, image: perl:5.34.0, command: [perl]}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres}]
",
            expect![[r#"
                Deployment web
                  spec.replicas: (none) -> 1
                  spec.strategy.type: (none) -> RollingUpdate
                  spec.strategy.rollingUpdate.maxUnavailable: (none) -> 25%
                  spec.strategy.rollingUpdate.maxSurge: (none) -> 25%
                  spec.revisionHistoryLimit: (none) -> 10
                  spec.progressDeadlineSeconds: (none) -> 600
                  spec.template.spec.dnsPolicy: (none) -> ClusterFirst
                  spec.template.spec.restartPolicy: (none) -> Always
                  spec.template.spec.securityContext: (none) -> {}
                  spec.template.spec.terminationGracePeriodSeconds: (none) -> 30
                  spec.template.spec.schedulerName: (none) -> default-scheduler
                  spec.template.spec.containers[0].imagePullPolicy: (none) -> IfNotPresent
                  spec.template.spec.containers[0].terminationMessagePath: (none) -> /dev/termination-log
                  spec.template.spec.containers[0].terminationMessagePolicy: (none) -> File
                ReplicaSet rs
                  spec.template.spec.dnsPolicy: (none) -> ClusterFirst
                  spec.template.spec.restartPolicy: (none) -> Always
                  spec.template.spec.securityContext: (none) -> {}
                  spec.template.spec.terminationGracePeriodSeconds: (none) -> 30
                  spec.template.spec.schedulerName: (none) -> default-scheduler
                  spec.template.spec.containers[0].imagePullPolicy: (none) -> IfNotPresent
                  spec.template.spec.containers[0].terminationMessagePath: (none) -> /dev/termination-log
                  spec.template.spec.containers[0].terminationMessagePolicy: (none) -> File
                Job pi
                  spec.completions: (none) -> 1
                  spec.parallelism: (none) -> 1
                  spec.backoffLimit: (none) -> 6
                  metadata.labels: (none) -> app: pi
                  spec.completionMode: (none) -> NonIndexed
                  spec.suspend: (none) -> false
                  spec.podReplacementPolicy: (none) -> TerminatingOrFailed
                  spec.manualSelector: (none) -> false
                  spec.template.spec.dnsPolicy: (none) -> ClusterFirst
                  spec.template.spec.securityContext: (none) -> {}
                  spec.template.spec.terminationGracePeriodSeconds: (none) -> 30
                  spec.template.spec.schedulerName: (none) -> default-scheduler
                  spec.template.spec.containers[0].imagePullPolicy: (none) -> IfNotPresent
                  spec.template.spec.containers[0].terminationMessagePath: (none) -> /dev/termination-log
                  spec.template.spec.containers[0].terminationMessagePolicy: (none) -> File
                StatefulSet db
                  spec.podManagementPolicy: (none) -> OrderedReady
                  spec.updateStrategy.type: (none) -> RollingUpdate
                  spec.updateStrategy.rollingUpdate.partition: (none) -> 0
                  spec.updateStrategy.rollingUpdate.maxUnavailable: (none) -> 1
                  spec.persistentVolumeClaimRetentionPolicy.whenDeleted: (none) -> Retain
                  spec.persistentVolumeClaimRetentionPolicy.whenScaled: (none) -> Retain
                  spec.replicas: (none) -> 1
                  spec.revisionHistoryLimit: (none) -> 10
                  spec.template.spec.dnsPolicy: (none) -> ClusterFirst
                  spec.template.spec.restartPolicy: (none) -> Always
                  spec.template.spec.securityContext: (none) -> {}
                  spec.template.spec.terminationGracePeriodSeconds: (none) -> 30
                  spec.template.spec.schedulerName: (none) -> default-scheduler
                  spec.template.spec.containers[0].imagePullPolicy: (none) -> Always
                  spec.template.spec.containers[0].terminationMessagePath: (none) -> /dev/termination-log
                  spec.template.spec.containers[0].terminationMessagePolicy: (none) -> File
            "#]],
        );
    }

    #[test]
    fn services_namespaces_and_others() {
        check(
            "\
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80}, {port: 443, targetPort: https, name: https}]
---
apiVersion: v1
kind: Service
metadata: {name: lb}
spec:
  type: LoadBalancer
  sessionAffinity: ClientIP
  ports: [{port: 80}]
---
apiVersion: v1
kind: Namespace
metadata: {name: dev}
---
apiVersion: v1
kind: Secret
metadata: {name: s}
stringData: {a: b}
---
apiVersion: v1
kind: LimitRange
metadata: {name: lr}
spec:
  limits:
  - type: Container
    max: {cpu: 2}
    min: {memory: 64Mi}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
",
            expect![[r#"
                Service web
                  spec.sessionAffinity: (none) -> None
                  spec.type: (none) -> ClusterIP
                  spec.ports[0].protocol: (none) -> TCP
                  spec.ports[0].targetPort: (none) -> 80
                  spec.ports[1].protocol: (none) -> TCP
                  spec.internalTrafficPolicy: (none) -> Cluster
                  spec.ipFamilyPolicy: (none) -> SingleStack
                  spec.ipFamilies: (none) -> - IPv4
                Service lb
                  spec.sessionAffinityConfig: (none) -> clientIP:
                  timeoutSeconds: 10800
                  spec.ports[0].protocol: (none) -> TCP
                  spec.ports[0].targetPort: (none) -> 80
                  spec.externalTrafficPolicy: (none) -> Cluster
                  spec.internalTrafficPolicy: (none) -> Cluster
                  spec.allocateLoadBalancerNodePorts: (none) -> true
                  spec.ipFamilyPolicy: (none) -> SingleStack
                  spec.ipFamilies: (none) -> - IPv4
                Namespace dev
                  metadata.labels[kubernetes.io/metadata.name]: (none) -> dev
                  status.phase: (none) -> Active
                Secret s
                  type: (none) -> Opaque
                LimitRange lr
                  spec.limits[0].default.cpu: (none) -> '2'
                  spec.limits[0].defaultRequest.cpu: (none) -> '2'
                  spec.limits[0].defaultRequest.memory: (none) -> 64Mi
                PersistentVolumeClaim data
                  status.phase: (none) -> Pending
                  spec.volumeMode: (none) -> Filesystem
            "#]],
        );
    }

    #[test]
    fn image_tags() {
        let cases = [
            "nginx",
            "nginx:latest",
            "nginx:1.29",
            "library/nginx:1.29",
            "localhost:5000/nginx",
            "registry.k8s.io/pause:3.10",
            "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "NGINX",
            "",
            "nginx:",
        ];
        let out: Vec<String> = cases.iter().map(|c| format!("{c:?} -> {:?}", image_tag(c))).collect();
        expect![[r#"
            "nginx" -> "latest"
            "nginx:latest" -> "latest"
            "nginx:1.29" -> "1.29"
            "library/nginx:1.29" -> "1.29"
            "localhost:5000/nginx" -> "latest"
            "registry.k8s.io/pause:3.10" -> "3.10"
            "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" -> ""
            "NGINX" -> ""
            "" -> ""
            "nginx:" -> """#]]
        .assert_eq(&out.join("\n"));
    }
}
