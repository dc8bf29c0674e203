//! Pod and pod-spec validation (kubernetes `pkg/apis/core/validation/validation.go`:
//! `ValidatePodCreate`, `ValidatePodSpec`, `validateContainers`, `ValidateVolumes`, ...), in
//! upstream's order.

use super::meta;
use super::names;
use crate::errors::FieldError;
use crate::quantity::Quantity;
use crate::sort::CollectMap;
use k8s_openapi::api::core::v1::{
    Container, ContainerPort, EnvFromSource, EnvVar, Lifecycle, LifecycleHandler, Pod, PodSpec, PodTemplateSpec, Probe,
    ResourceRequirements, SecurityContext, Toleration, Volume, VolumeMount,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as KQuantity;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};

mod security_context;
mod volumes;

use security_context::*;
use volumes::*;

type Errs = Vec<FieldError>;

/// Options that differ between a Pod and a pod template.
#[derive(Clone, Copy)]
pub struct Opts {
    /// The top-level object is a Pod (not a template inside a workload).
    pub resource_is_pod: bool,
}

/// `ValidatePodCreate`.
pub fn validate_pod_create(pod: &Pod, errs: &mut Errs) {
    pod_metadata_and_spec(pod, errs);
    let empty = PodSpec::default();
    let spec = pod.spec.as_ref().unwrap_or(&empty);
    for (field, list) in [("containers", Some(&spec.containers)), ("initContainers", spec.init_containers.as_ref())] {
        for (i, c) in list.into_iter().flatten().enumerate() {
            image_without_whitespace(c.image.as_deref().unwrap_or_default(), field, i, errs);
        }
    }
    if spec.ephemeral_containers.as_ref().is_some_and(|e| !e.is_empty()) {
        errs.push(FieldError::forbidden("spec.ephemeralContainers", "cannot be set on create"));
    }
    if !spec.node_name.as_deref().unwrap_or_default().is_empty()
        && spec.scheduling_gates.as_ref().is_some_and(|g| !g.is_empty())
    {
        errs.push(FieldError::forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared"));
    }
}

/// A Pod's container image may not start or end with whitespace (checked on create and on
/// update, not in templates).
fn image_without_whitespace(image: &str, field: &str, i: usize, errs: &mut Errs) {
    if image.len() != image.trim().len() {
        errs.push(FieldError::invalid(
            format!("spec.{field}[{i}].image"),
            image,
            "must not have leading or trailing whitespace",
        ));
    }
}

/// `validatePodMetadataAndSpec`: what a create and an update of a Pod both check.
fn pod_metadata_and_spec(pod: &Pod, errs: &mut Errs) {
    meta::object_meta(&pod.metadata, true, names::name_is_dns_subdomain, errs);
    let empty = PodSpec::default();
    let spec = pod.spec.as_ref().unwrap_or(&empty);
    let opts = Opts { resource_is_pod: true };
    validate_pod_spec(spec, Some(pod.metadata.name.as_deref().unwrap_or_default()), "spec", opts, errs);
    if spec.service_account_name.as_deref().unwrap_or_default().is_empty() {
        for (vi, v) in spec.volumes.iter().flatten().enumerate() {
            for (si, s) in v.projected.iter().flat_map(|p| p.sources.iter().flatten()).enumerate() {
                if s.service_account_token.is_some() {
                    errs.push(FieldError::forbidden(
                        format!("spec.volumes[{vi}].projected.sources[{si}].serviceAccountToken"),
                        "must not be specified when serviceAccountName is not set",
                    ));
                }
            }
        }
    }
}

/// The fields of a Pod's spec an update may change, as `ValidatePodUpdate`'s message lists them.
const UPDATABLE_POD_SPEC_FIELDS: [&str; 5] = [
    "`spec.containers[*].image`",
    "`spec.initContainers[*].image`",
    "`spec.activeDeadlineSeconds`",
    "`spec.tolerations` (only additions to existing tolerations)",
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
];

/// `ValidatePodUpdate`: the new Pod's metadata and spec, then the update rules in upstream's
/// order: the containers and init containers (no additions or removals; images set and
/// without surrounding whitespace), `activeDeadlineSeconds` (set, or lowered), tolerations
/// (only additions; `tolerationSeconds` may change), scheduling gates (only removals), and
/// last every other field of the spec, which may not change (the error carries a diff of the
/// two specs, see [`super::godiff`]). Not modelled: the relaxations for Pods that still have
/// scheduling gates (additions to `nodeSelector` and node affinity), and the metadata rules
/// of `ValidateObjectMetaUpdate` (kubectl's requests cannot change a name or namespace).
pub fn validate_pod_update(new: &Pod, old: &Pod, errs: &mut Errs) {
    pod_metadata_and_spec(new, errs);
    let empty = PodSpec::default();
    let ns = new.spec.as_ref().unwrap_or(&empty);
    let os = old.spec.as_ref().unwrap_or(&empty);
    let none: &[Container] = &[];
    for (field, n, o) in [
        ("containers", ns.containers.as_slice(), os.containers.as_slice()),
        (
            "initContainers",
            ns.init_containers.as_deref().unwrap_or(none),
            os.init_containers.as_deref().unwrap_or(none),
        ),
    ] {
        if n.len() != o.len() {
            errs.push(FieldError::forbidden(format!("spec.{field}"), "pod updates may not add or remove containers"));
            return;
        }
        for (i, c) in n.iter().enumerate() {
            let image = c.image.as_deref().unwrap_or_default();
            if image.is_empty() {
                errs.push(FieldError::required(format!("spec.{field}[{i}].image"), ""));
            }
            image_without_whitespace(image, field, i, errs);
        }
    }
    match (ns.active_deadline_seconds, os.active_deadline_seconds) {
        (Some(n), o) => {
            if !(0..=i64::from(i32::MAX)).contains(&n) {
                errs.push(FieldError::invalid(
                    "spec.activeDeadlineSeconds",
                    n,
                    "must be between 0 and 2147483647, inclusive",
                ));
                return;
            }
            if o.is_some_and(|o| o < n) {
                errs.push(FieldError::invalid(
                    "spec.activeDeadlineSeconds",
                    n,
                    "must be less than or equal to previous value",
                ));
                return;
            }
        }
        (None, Some(_)) => errs.push(FieldError::invalid(
            "spec.activeDeadlineSeconds",
            serde_json::Value::Null,
            "must not update from a positive integer to nil value",
        )),
        (None, None) => {}
    }
    only_added_tolerations(
        ns.tolerations.as_deref().unwrap_or_default(),
        os.tolerations.as_deref().unwrap_or_default(),
        errs,
    );
    only_deleted_scheduling_gates(ns, os, errs);
    if ns == os {
        return;
    }
    // The fields an update may change are set back to their old values; what still differs
    // may not change.
    let mut munged = ns.clone();
    for (c, o) in munged.containers.iter_mut().zip(&os.containers) {
        c.image.clone_from(&o.image);
    }
    for (c, o) in munged.init_containers.iter_mut().flatten().zip(os.init_containers.iter().flatten()) {
        c.image.clone_from(&o.image);
    }
    munged.active_deadline_seconds = os.active_deadline_seconds;
    munged.scheduling_gates.clone_from(&os.scheduling_gates);
    munged.tolerations.clone_from(&os.tolerations);
    if os.termination_grace_period_seconds.is_some_and(|g| g < 0) && munged.termination_grace_period_seconds == Some(1)
    {
        munged.termination_grace_period_seconds = os.termination_grace_period_seconds;
    }
    if munged != *os {
        let diff = super::godiff::pod_spec_diff(os, &munged);
        errs.push(FieldError::forbidden(
            "spec",
            format!("pod updates may not change fields other than {}\n{diff}", UPDATABLE_POD_SPEC_FIELDS.join(",")),
        ));
    }
}

/// `validateOnlyAddedTolerations`: every old toleration is still there (its
/// `tolerationSeconds` aside); then the new list is validated (again: upstream validates it
/// with the spec too).
fn only_added_tolerations(new: &[Toleration], old: &[Toleration], errs: &mut Errs) {
    let without_seconds = |t: &Toleration| Toleration { toleration_seconds: None, ..t.clone() };
    for o in old {
        let o = without_seconds(o);
        if !new.iter().any(|n| without_seconds(n) == o) {
            errs.push(FieldError::forbidden(
                "spec.tolerations",
                "existing toleration can not be modified except its tolerationSeconds",
            ));
            return;
        }
    }
    tolerations(new, "spec.tolerations", errs);
}

/// `validateOnlyDeletedSchedulingGates`: one error per gate the old spec did not have (upstream
/// reports them in map order, which is random; here in the order of the new list).
fn only_deleted_scheduling_gates(new: &PodSpec, old: &PodSpec, errs: &mut Errs) {
    let new_gates = new.scheduling_gates.as_deref().unwrap_or_default();
    let old_names: BTreeSet<&str> = old.scheduling_gates.iter().flatten().map(|g| g.name.as_str()).collect();
    for (i, g) in new_gates.iter().enumerate() {
        // A name listed twice is reported at its last index, as upstream's map of names keeps it.
        let listed_again = new_gates[i + 1..].iter().any(|later| later.name == g.name);
        if !old_names.contains(g.name.as_str()) && !listed_again {
            errs.push(FieldError::forbidden(
                format!("spec.schedulingGates[{i}].name"),
                format!("only deletion is allowed, but found new scheduling gate '{}'", g.name),
            ));
        }
    }
}

/// `ValidatePodTemplateSpec` at `path` (e.g. `spec.template`).
pub fn validate_pod_template_spec(t: &PodTemplateSpec, path: &str, errs: &mut Errs) {
    meta::template_meta(t.metadata.as_ref(), &format!("{path}.metadata"), errs);
    let empty = PodSpec::default();
    let spec = t.spec.as_ref().unwrap_or(&empty);
    validate_pod_spec(spec, None, &format!("{path}.spec"), Opts { resource_is_pod: false }, errs);
    if spec.ephemeral_containers.as_ref().is_some_and(|e| !e.is_empty()) {
        errs.push(FieldError::forbidden(
            format!("{path}.spec.ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
}

/// The volumes that validated, by name (what mounts may refer to).
type VolumeSet = BTreeMap<String, Volume>;

/// `ValidatePodSpec`.
pub fn validate_pod_spec(spec: &PodSpec, pod_name: Option<&str>, p: &str, opts: Opts, errs: &mut Errs) {
    if spec.termination_grace_period_seconds.is_none() {
        errs.push(FieldError::required(format!("{p}.terminationGracePeriodSeconds"), ""));
    }
    let grace = spec.termination_grace_period_seconds;
    let vols = validate_volumes(spec.volumes.as_deref().unwrap_or_default(), pod_name, &format!("{p}.volumes"), errs);
    let restart = spec.restart_policy.clone().unwrap_or_default();
    validate_containers(&spec.containers, &vols, grace, &format!("{p}.containers"), &restart, errs);
    validate_init_containers(
        spec.init_containers.as_deref().unwrap_or_default(),
        &spec.containers,
        &vols,
        grace,
        &format!("{p}.initContainers"),
        &restart,
        errs,
    );
    // Host network: ports must use the container port as host port.
    if spec.host_network == Some(true) {
        for (i, c) in spec.containers.iter().enumerate() {
            for (j, port) in c.ports.iter().flatten().enumerate() {
                let hp = port.host_port.unwrap_or(0);
                if (opts.resource_is_pod || hp != 0) && hp != port.container_port {
                    errs.push(FieldError::invalid(
                        format!("{p}.containers[{i}].ports[{j}].hostPort"),
                        hp,
                        "must match `containerPort` when `hostNetwork` is true",
                    ));
                }
            }
        }
    }
    match restart.as_str() {
        "Always" | "OnFailure" | "Never" => {}
        "" => errs.push(FieldError::required(format!("{p}.restartPolicy"), "")),
        other => {
            errs.push(FieldError::not_supported(format!("{p}.restartPolicy"), other, &["Always", "OnFailure", "Never"]))
        }
    }
    match spec.dns_policy.as_deref().unwrap_or_default() {
        "ClusterFirstWithHostNet" | "ClusterFirst" | "Default" | "None" => {}
        "" => errs.push(FieldError::required(format!("{p}.dnsPolicy"), "")),
        other => errs.push(FieldError::not_supported(
            format!("{p}.dnsPolicy"),
            other,
            &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        )),
    }
    meta::labels(spec.node_selector.as_ref(), &format!("{p}.nodeSelector"), errs);
    pod_security_context(spec, p, errs);
    for (i, s) in spec.image_pull_secrets.iter().flatten().enumerate() {
        // Only `name` exists in the type, so nothing else can be set.
        let _ = (i, s);
    }
    dns_config(spec, p, errs);
    for (i, g) in spec.readiness_gates.iter().flatten().enumerate() {
        for m in names::qualified_name(&g.condition_type) {
            errs.push(FieldError::invalid(
                format!("{p}.readinessGates[{i}].conditionType"),
                g.condition_type.as_str(),
                m,
            ));
        }
    }
    let mut seen_gates = BTreeSet::new();
    for (i, g) in spec.scheduling_gates.iter().flatten().enumerate() {
        for m in names::qualified_name(&g.name) {
            errs.push(FieldError::invalid(format!("{p}.schedulingGates[{i}]"), g.name.as_str(), m));
        }
        if !seen_gates.insert(g.name.clone()) {
            errs.push(FieldError::duplicate(format!("{p}.schedulingGates[{i}]"), g.name.as_str()));
        }
    }
    if let Some(sa) = spec.service_account_name.as_deref().filter(|s| !s.is_empty()) {
        for m in names::name_is_dns_subdomain(sa, false) {
            errs.push(FieldError::invalid(format!("{p}.serviceAccountName"), sa, m));
        }
    }
    if let Some(node) = spec.node_name.as_deref().filter(|s| !s.is_empty()) {
        for m in names::name_is_dns_subdomain(node, false) {
            errs.push(FieldError::invalid(format!("{p}.nodeName"), node, m));
        }
    }
    if let Some(v) = spec.active_deadline_seconds {
        if !(1..=i32::MAX as i64).contains(&v) {
            errs.push(FieldError::invalid(
                format!("{p}.activeDeadlineSeconds"),
                v,
                names::inclusive_range_error(1, i32::MAX as i64),
            ));
        }
    }
    for (field, value) in [("hostname", &spec.hostname), ("subdomain", &spec.subdomain)] {
        if let Some(v) = value.as_deref().filter(|s| !s.is_empty()) {
            for m in names::dns1123_label(v) {
                errs.push(FieldError::invalid(format!("{p}.{field}"), v, m));
            }
        }
    }
    tolerations(spec.tolerations.as_deref().unwrap_or_default(), &format!("{p}.tolerations"), errs);
    for (i, h) in spec.host_aliases.iter().flatten().enumerate() {
        for m in names::ip_errors(&h.ip) {
            errs.push(FieldError::invalid(format!("{p}.hostAliases[{i}].ip"), h.ip.as_str(), m));
        }
        for (j, hn) in h.hostnames.iter().flatten().enumerate() {
            for m in names::dns1123_subdomain(hn) {
                errs.push(FieldError::invalid(format!("{p}.hostAliases[{i}].hostnames[{j}]"), hn.as_str(), m));
            }
        }
    }
    if let Some(pc) = spec.priority_class_name.as_deref().filter(|s| !s.is_empty()) {
        for m in names::name_is_dns_subdomain(pc, false) {
            errs.push(FieldError::invalid(format!("{p}.priorityClassName"), pc, m));
        }
    }
    if let Some(rc) = spec.runtime_class_name.as_deref() {
        for m in names::name_is_dns_subdomain(rc, false) {
            errs.push(FieldError::invalid(format!("{p}.runtimeClassName"), rc, m));
        }
    }
    if let Some(pp) = spec.preemption_policy.as_deref() {
        match pp {
            "PreemptLowerPriority" | "Never" => {}
            "" => errs.push(FieldError::required(format!("{p}.preemptionPolicy"), "")),
            other => errs.push(FieldError::not_supported(
                format!("{p}.preemptionPolicy"),
                other,
                &["PreemptLowerPriority", "Never"],
            )),
        }
    }
    if let Some(os) = spec.os.as_ref() {
        if !matches!(os.name.as_str(), "linux" | "windows") {
            errs.push(FieldError::not_supported(format!("{p}.os.name"), os.name.as_str(), &["linux", "windows"]));
        }
    }
}

fn validate_containers(
    containers: &[Container],
    vols: &VolumeSet,
    grace: Option<i64>,
    p: &str,
    restart: &str,
    errs: &mut Errs,
) {
    if containers.is_empty() {
        errs.push(FieldError::required(p, ""));
        return;
    }
    let mut names = BTreeSet::new();
    for (i, c) in containers.iter().enumerate() {
        let cp = format!("{p}[{i}]");
        container_common(c, vols, &cp, restart, errs);
        if !names.insert(c.name.clone()) {
            errs.push(FieldError::duplicate(format!("{cp}.name"), c.name.as_str()));
        }
        if let Some(l) = &c.lifecycle {
            lifecycle(l, grace, &format!("{cp}.lifecycle"), errs);
        }
        probes(c, grace, &cp, errs);
        if c.restart_policy.is_some() {
            errs.push(FieldError::forbidden(format!("{cp}.restartPolicy"), "may not be set for non-init containers"));
        }
    }
    host_port_conflicts(containers, p, errs);
}

fn validate_init_containers(
    inits: &[Container],
    regular: &[Container],
    vols: &VolumeSet,
    grace: Option<i64>,
    p: &str,
    restart: &str,
    errs: &mut Errs,
) {
    let mut names: BTreeSet<String> = regular.iter().map(|c| c.name.clone()).collect();
    for (i, c) in inits.iter().enumerate() {
        let cp = format!("{p}[{i}]");
        container_common(c, vols, &cp, restart, errs);
        let mut restart_always = false;
        if let Some(rp) = c.restart_policy.as_deref() {
            if rp != "Always" {
                errs.push(FieldError::not_supported(format!("{cp}.restartPolicy"), rp, &["Always"]));
            }
            restart_always = rp == "Always";
        }
        if names.contains(&c.name) {
            errs.push(FieldError::duplicate(format!("{cp}.name"), c.name.as_str()));
        } else if !c.name.is_empty() {
            names.insert(c.name.clone());
        }
        // Upstream checks each init container alone, under the list's path: index 0.
        host_port_conflicts(std::slice::from_ref(c), p, errs);
        if restart_always {
            if let Some(l) = &c.lifecycle {
                lifecycle(l, grace, &format!("{cp}.lifecycle"), errs);
            }
            probes(c, grace, &cp, errs);
        } else {
            let msg = "may not be set for init containers without restartPolicy=Always";
            if c.lifecycle.is_some() {
                errs.push(FieldError::forbidden(format!("{cp}.lifecycle"), msg));
            }
            if c.liveness_probe.is_some() {
                errs.push(FieldError::forbidden(format!("{cp}.livenessProbe"), msg));
            }
            if c.readiness_probe.is_some() {
                errs.push(FieldError::forbidden(format!("{cp}.readinessProbe"), msg));
            }
            if c.startup_probe.is_some() {
                errs.push(FieldError::forbidden(format!("{cp}.startupProbe"), msg));
            }
        }
    }
}

/// `validateContainerCommon`.
fn container_common(c: &Container, vols: &VolumeSet, p: &str, restart: &str, errs: &mut Errs) {
    if c.name.is_empty() {
        errs.push(FieldError::required(format!("{p}.name"), ""));
    } else {
        for m in names::dns1123_label(&c.name) {
            errs.push(FieldError::invalid(format!("{p}.name"), c.name.as_str(), m));
        }
    }
    if c.image.as_deref().unwrap_or_default().is_empty() {
        errs.push(FieldError::required(format!("{p}.image"), ""));
    }
    match c.termination_message_policy.as_deref().unwrap_or_default() {
        "File" | "FallbackToLogsOnError" => {}
        "" => errs.push(FieldError::required(format!("{p}.terminationMessagePolicy"), "")),
        other => errs.push(FieldError::not_supported(
            format!("{p}.terminationMessagePolicy"),
            other,
            &["File", "FallbackToLogsOnError"],
        )),
    }
    container_ports(c.ports.as_deref().unwrap_or_default(), &format!("{p}.ports"), errs);
    env(c.env.as_deref().unwrap_or_default(), &format!("{p}.env"), errs);
    env_from(c.env_from.as_deref().unwrap_or_default(), &format!("{p}.envFrom"), errs);
    let devices: BTreeMap<&str, &str> =
        c.volume_devices.iter().flatten().map(|d| (d.name.as_str(), d.device_path.as_str())).collect_map();
    volume_mounts(
        c,
        c.volume_mounts.as_deref().unwrap_or_default(),
        &devices,
        vols,
        &format!("{p}.volumeMounts"),
        errs,
    );
    volume_devices(c, vols, &format!("{p}.volumeDevices"), errs);
    match c.image_pull_policy.as_deref().unwrap_or_default() {
        "Always" | "IfNotPresent" | "Never" => {}
        "" => errs.push(FieldError::required(format!("{p}.imagePullPolicy"), "")),
        other => errs.push(FieldError::not_supported(
            format!("{p}.imagePullPolicy"),
            other,
            &["Always", "IfNotPresent", "Never"],
        )),
    }
    if let Some(r) = &c.resources {
        resource_requirements(r, &format!("{p}.resources"), errs);
    }
    resize_policy(c, &format!("{p}.resizePolicy"), restart, errs);
    if let Some(sc) = &c.security_context {
        security_context(sc, &format!("{p}.securityContext"), errs);
    }
}

fn container_ports(ports: &[ContainerPort], p: &str, errs: &mut Errs) {
    let mut names = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let pp = format!("{p}[{i}]");
        if let Some(name) = port.name.as_deref().filter(|n| !n.is_empty()) {
            let msgs = names::port_name(name);
            if !msgs.is_empty() {
                for m in msgs {
                    errs.push(FieldError::invalid(format!("{pp}.name"), name, m));
                }
            } else if !names.insert(name.to_string()) {
                errs.push(FieldError::duplicate(format!("{pp}.name"), name));
            }
        }
        if port.container_port == 0 {
            errs.push(FieldError::required(format!("{pp}.containerPort"), ""));
        } else {
            for m in names::port_num(port.container_port as i64) {
                errs.push(FieldError::invalid(format!("{pp}.containerPort"), port.container_port, m));
            }
        }
        if let Some(hp) = port.host_port.filter(|h| *h != 0) {
            for m in names::port_num(hp as i64) {
                errs.push(FieldError::invalid(format!("{pp}.hostPort"), hp, m));
            }
        }
        match port.protocol.as_deref().unwrap_or_default() {
            "TCP" | "UDP" | "SCTP" => {}
            "" => errs.push(FieldError::required(format!("{pp}.protocol"), "")),
            other => errs.push(FieldError::not_supported(format!("{pp}.protocol"), other, &["SCTP", "TCP", "UDP"])),
        }
    }
}

/// `AccumulateUniqueHostPorts` over a list of containers.
fn host_port_conflicts(containers: &[Container], p: &str, errs: &mut Errs) {
    let mut seen = BTreeSet::new();
    for (ci, c) in containers.iter().enumerate() {
        for (pi, port) in c.ports.iter().flatten().enumerate() {
            let hp = port.host_port.unwrap_or(0);
            if hp == 0 {
                continue;
            }
            let key = format!(
                "{}/{}/{hp}",
                port.protocol.as_deref().unwrap_or_default(),
                port.host_ip.as_deref().unwrap_or_default()
            );
            if !seen.insert(key.clone()) {
                errs.push(FieldError::duplicate(format!("{p}[{ci}].ports[{pi}].hostPort"), key));
            }
        }
    }
}

const ENV_FIELD_PATHS: [&str; 9] = [
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

const RESOURCE_FIELD_PATHS: [&str; 6] = [
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

fn env(vars: &[EnvVar], p: &str, errs: &mut Errs) {
    for (i, ev) in vars.iter().enumerate() {
        let ip = format!("{p}[{i}]");
        if ev.name.is_empty() {
            errs.push(FieldError::required(format!("{ip}.name"), ""));
        } else {
            for m in names::relaxed_env_var_name(&ev.name) {
                errs.push(FieldError::invalid(format!("{ip}.name"), ev.name.as_str(), m));
            }
        }
        let Some(vf) = &ev.value_from else { continue };
        let fp = format!("{ip}.valueFrom");
        let mut n = 0;
        if let Some(f) = &vf.field_ref {
            n += 1;
            let rp = format!("{fp}.fieldRef");
            if f.api_version.as_deref().unwrap_or_default().is_empty() {
                errs.push(FieldError::required(format!("{rp}.apiVersion"), ""));
            } else if f.field_path.is_empty() {
                errs.push(FieldError::required(format!("{rp}.fieldPath"), ""));
            } else {
                let fpath = f.field_path.as_str();
                if let Some((base, rest)) = fpath.split_once('[') {
                    let sub = rest.trim_end_matches(']').trim_matches('\'');
                    match base {
                        "metadata.annotations" => {
                            for m in names::qualified_name(&sub.to_lowercase()) {
                                errs.push(FieldError::invalid(rp.clone(), sub.to_lowercase(), m));
                            }
                        }
                        "metadata.labels" => {
                            for m in names::qualified_name(sub) {
                                errs.push(FieldError::invalid(rp.clone(), sub, m));
                            }
                        }
                        other => errs.push(FieldError::invalid(rp.clone(), other, "does not support subscript")),
                    }
                } else if !ENV_FIELD_PATHS.contains(&fpath) {
                    errs.push(FieldError::not_supported(format!("{rp}.fieldPath"), fpath, &ENV_FIELD_PATHS));
                }
            }
        }
        if let Some(r) = &vf.resource_field_ref {
            n += 1;
            let rp = format!("{fp}.resourceFieldRef");
            if r.resource.is_empty() {
                errs.push(FieldError::required(format!("{rp}.resource"), ""));
            } else if !RESOURCE_FIELD_PATHS.contains(&r.resource.as_str())
                && !r.resource.starts_with("requests.hugepages-")
                && !r.resource.starts_with("limits.hugepages-")
            {
                errs.push(FieldError::not_supported(
                    format!("{rp}.resource"),
                    r.resource.as_str(),
                    &RESOURCE_FIELD_PATHS,
                ));
            }
        }
        for (field, sel) in [
            ("configMapKeyRef", vf.config_map_key_ref.as_ref().map(|s| (&s.name, &s.key))),
            ("secretKeyRef", vf.secret_key_ref.as_ref().map(|s| (&s.name, &s.key))),
        ] {
            let Some((name, key)) = sel else { continue };
            n += 1;
            let sp = format!("{fp}.{field}");
            for m in names::name_is_dns_subdomain(name, false) {
                errs.push(FieldError::invalid(format!("{sp}.name"), name.as_str(), m));
            }
            if key.is_empty() {
                errs.push(FieldError::required(format!("{sp}.key"), ""));
            } else {
                for m in names::config_map_key(key) {
                    errs.push(FieldError::invalid(format!("{sp}.key"), key.as_str(), m));
                }
            }
        }
        if vf.file_key_ref.is_some() {
            n += 1;
        }
        if n == 0 {
            errs.push(FieldError::invalid(
                fp,
                "",
                "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
            ));
        } else if !ev.value.as_deref().unwrap_or_default().is_empty() {
            errs.push(FieldError::invalid(fp, "", "may not be specified when `value` is not empty"));
        } else if n > 1 {
            errs.push(FieldError::invalid(fp, "", "may not have more than one field specified at a time"));
        }
    }
}

fn env_from(sources: &[EnvFromSource], p: &str, errs: &mut Errs) {
    for (i, ev) in sources.iter().enumerate() {
        let ip = format!("{p}[{i}]");
        if let Some(prefix) = ev.prefix.as_deref().filter(|s| !s.is_empty()) {
            for m in names::relaxed_env_var_name(prefix) {
                errs.push(FieldError::invalid(format!("{ip}.prefix"), prefix, m));
            }
        }
        let mut n = 0;
        for (field, name) in [
            ("configMapRef", ev.config_map_ref.as_ref().map(|r| &r.name)),
            ("secretRef", ev.secret_ref.as_ref().map(|r| &r.name)),
        ] {
            let Some(name) = name else { continue };
            n += 1;
            if name.is_empty() {
                errs.push(FieldError::required(format!("{ip}.{field}.name"), ""));
            } else {
                for m in names::name_is_dns_subdomain(name, true) {
                    errs.push(FieldError::invalid(format!("{ip}.{field}.name"), name.as_str(), m));
                }
            }
        }
        if n == 0 {
            errs.push(FieldError::invalid(p, "", "must specify one of: `configMapRef` or `secretRef`"));
        } else if n > 1 {
            errs.push(FieldError::invalid(p, "", "may not have more than one field specified at a time"));
        }
    }
}

fn volume_mounts(
    c: &Container,
    mounts: &[VolumeMount],
    devices: &BTreeMap<&str, &str>,
    vols: &VolumeSet,
    p: &str,
    errs: &mut Errs,
) {
    let mut points = BTreeSet::new();
    for (i, m) in mounts.iter().enumerate() {
        let ip = format!("{p}[{i}]");
        if m.name.is_empty() {
            errs.push(FieldError::required(format!("{ip}.name"), ""));
        }
        if !vols.contains_key(&m.name) {
            errs.push(FieldError::not_found(format!("{ip}.name"), m.name.as_str()));
        }
        if m.mount_path.is_empty() {
            errs.push(FieldError::required(format!("{ip}.mountPath"), ""));
        }
        if !points.insert(m.mount_path.clone()) {
            errs.push(FieldError::invalid(format!("{ip}.mountPath"), m.mount_path.as_str(), "must be unique"));
        }
        if devices.contains_key(m.name.as_str()) {
            errs.push(FieldError::invalid(
                format!("{ip}.name"),
                m.name.as_str(),
                "must not already exist in volumeDevices",
            ));
        }
        if devices.values().any(|d| *d == m.mount_path) {
            errs.push(FieldError::invalid(
                format!("{ip}.mountPath"),
                m.mount_path.as_str(),
                "must not already exist as a path in volumeDevices",
            ));
        }
        let sub = m.sub_path.as_deref().unwrap_or_default();
        let sub_expr = m.sub_path_expr.as_deref().unwrap_or_default();
        // (Image volumes accept subPath since v1.33; the alpha-era refusal is gone.)
        // Upstream reports these two under the list's path, not the item's.
        if !sub.is_empty() {
            local_descending_path(sub, &format!("{p}.subPath"), errs);
        }
        if !sub_expr.is_empty() {
            if !sub.is_empty() {
                errs.push(FieldError::invalid(
                    format!("{ip}.subPathExpr"),
                    sub_expr,
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            local_descending_path(sub_expr, &format!("{p}.subPathExpr"), errs);
        }
        if let Some(mp) = m.mount_propagation.as_deref() {
            const MODES: [&str; 3] = ["Bidirectional", "HostToContainer", "None"];
            if !MODES.contains(&mp) {
                errs.push(FieldError::not_supported(format!("{p}.mountPropagation"), mp, &MODES));
            }
            let privileged = c.security_context.as_ref().and_then(|s| s.privileged) == Some(true);
            if mp == "Bidirectional" && !privileged {
                errs.push(FieldError::forbidden(
                    format!("{p}.mountPropagation"),
                    "Bidirectional mount propagation is available only to privileged containers",
                ));
            }
        }
        if let Some(rro) = m.recursive_read_only.as_deref() {
            let rp = format!("{p}.recursiveReadOnly");
            match rro {
                "Disabled" => {}
                "Enabled" | "IfPossible" => {
                    if m.read_only != Some(true) {
                        errs.push(FieldError::forbidden(rp.clone(), "may only be specified when readOnly is true"));
                    }
                    if m.mount_propagation.as_deref().is_some_and(|mp| mp != "None") {
                        errs.push(FieldError::forbidden(
                            rp,
                            "may only be specified when mountPropagation is None or not specified",
                        ));
                    }
                }
                other => errs.push(FieldError::not_supported(rp, other, &["Disabled", "Enabled", "IfPossible"])),
            }
        }
    }
}

fn volume_devices(c: &Container, vols: &VolumeSet, p: &str, errs: &mut Errs) {
    let mounts: BTreeMap<&str, &str> =
        c.volume_mounts.iter().flatten().map(|m| (m.name.as_str(), m.mount_path.as_str())).collect_map();
    let mut paths = BTreeSet::new();
    let mut names = BTreeSet::new();
    for (i, d) in c.volume_devices.iter().flatten().enumerate() {
        let ip = format!("{p}[{i}]");
        let matched = vols.get(&d.name);
        let is_pvc = matched.is_some_and(|v| v.persistent_volume_claim.is_some() || v.ephemeral.is_some());
        if d.name.is_empty() {
            errs.push(FieldError::required(format!("{ip}.name"), ""));
        }
        if names.contains(&d.name) {
            errs.push(FieldError::invalid(format!("{ip}.name"), d.name.as_str(), "must be unique"));
        }
        if matched.is_some() && !is_pvc {
            errs.push(FieldError::invalid(
                format!("{ip}.name"),
                d.name.as_str(),
                "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
            ));
        }
        if matched.is_none() {
            errs.push(FieldError::not_found(format!("{ip}.name"), d.name.as_str()));
        }
        if d.device_path.is_empty() {
            errs.push(FieldError::required(format!("{ip}.devicePath"), ""));
        }
        if paths.contains(&d.device_path) {
            errs.push(FieldError::invalid(format!("{ip}.devicePath"), d.device_path.as_str(), "must be unique"));
        }
        if !d.device_path.is_empty() && d.device_path.split('/').any(|s| s == "..") {
            errs.push(FieldError::invalid(
                format!("{ip}.devicePath"),
                d.device_path.as_str(),
                "can not contain backsteps ('..')",
            ));
        } else {
            paths.insert(d.device_path.clone());
        }
        if mounts.contains_key(d.name.as_str()) {
            errs.push(FieldError::invalid(
                format!("{ip}.name"),
                d.name.as_str(),
                "must not already exist in volumeMounts",
            ));
        }
        if mounts.values().any(|m| *m == d.device_path) {
            errs.push(FieldError::invalid(
                format!("{ip}.devicePath"),
                d.device_path.as_str(),
                "must not already exist as a path in volumeMounts",
            ));
        }
        if !d.name.is_empty() {
            names.insert(d.name.clone());
        }
    }
}

/// The standard container resources (`IsStandardContainerResourceName`).
fn is_standard_container_resource(name: &str) -> bool {
    matches!(name, "cpu" | "memory" | "ephemeral-storage") || name.starts_with("hugepages-")
}

/// Resources that can be over-committed (requests may be below limits).
fn overcommit_allowed(name: &str) -> bool {
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    native && !name.starts_with("hugepages-")
}

fn q(k: &KQuantity) -> Option<Quantity> {
    crate::decode::parse_quantity(&k.0).ok()
}

/// `validateContainerResourceName` (`validateResourceName`, then the container rules).
fn container_resource_name(name: &str, p: &str, errs: &mut Errs) {
    let mut own = Vec::new();
    for m in names::qualified_name(name) {
        own.push(FieldError::invalid(p, name, m));
    }
    if own.is_empty() && !name.contains('/') && !super::core::is_standard_resource_name(name) {
        own.push(FieldError::invalid(p, name, "must be a standard resource type or fully qualified"));
    }
    errs.extend(own);
    if !name.contains('/') {
        if !is_standard_container_resource(name) {
            errs.push(FieldError::invalid(p, name, "must be a standard resource for containers"));
        }
    } else if !name.contains("kubernetes.io/") {
        let extended = !name.starts_with("requests.") && names::qualified_name(&format!("requests.{name}")).is_empty();
        if !extended {
            errs.push(FieldError::invalid(p, name, "doesn't follow extended resource name standard"));
        }
    }
}

/// `validateResourceRequirements` for a container.
fn resource_requirements(r: &ResourceRequirements, p: &str, errs: &mut Errs) {
    let lim_path = format!("{p}.limits");
    let req_path = format!("{p}.requests");
    let mut lim_cpu_mem = false;
    let mut req_cpu_mem = false;
    let mut huge = false;
    let limits = r.limits.clone().unwrap_or_default();
    for (name, qty) in &limits {
        let fp = format!("{lim_path}[{name}]");
        container_resource_name(name, &fp, errs);
        quantity_value(name, qty, &fp, errs);
        huge |= name.starts_with("hugepages-");
        lim_cpu_mem |= name == "cpu" || name == "memory";
    }
    for (name, qty) in r.requests.iter().flatten() {
        let fp = format!("{req_path}[{name}]");
        container_resource_name(name, &fp, errs);
        quantity_value(name, qty, &fp, errs);
        let text = q(qty).map(|x| x.to_string()).unwrap_or_else(|| qty.0.clone());
        match limits.get(name) {
            Some(limit) => {
                if let (Some(rq), Some(lq)) = (q(qty), q(limit)) {
                    if rq != lq && !overcommit_allowed(name) {
                        errs.push(FieldError::invalid(
                            req_path.clone(),
                            text,
                            format!("must be equal to {name} limit of {lq}"),
                        ));
                    } else if rq > lq {
                        errs.push(FieldError::invalid(
                            req_path.clone(),
                            text,
                            format!("must be less than or equal to {name} limit of {lq}"),
                        ));
                    }
                }
            }
            None if !overcommit_allowed(name) => {
                errs.push(FieldError::required(lim_path.clone(), "Limit must be set for non overcommitable resources"));
            }
            None => {}
        }
        huge |= name.starts_with("hugepages-");
        req_cpu_mem |= name == "cpu" || name == "memory";
    }
    if !lim_cpu_mem && !req_cpu_mem && huge {
        errs.push(FieldError::forbidden(p, "HugePages require cpu or memory"));
    }
}

/// `ValidateResourceQuantityValue`: not negative; whole numbers for integer resources.
pub fn quantity_value(name: &str, qty: &KQuantity, p: &str, errs: &mut Errs) {
    let Some(v) = q(qty) else { return };
    if v < Quantity::ZERO {
        errs.push(FieldError::invalid(p, v.to_string(), "must be greater than or equal to 0"));
    }
    if super::core::is_integer_resource(name) && v.milli() % 1000 != 0 {
        errs.push(FieldError::invalid(p, v.to_string(), "must be an integer"));
    }
}

fn resize_policy(c: &Container, p: &str, restart: &str, errs: &mut Errs) {
    let mut seen = BTreeSet::new();
    for (i, rp) in c.resize_policy.iter().flatten().enumerate() {
        if !seen.insert(rp.resource_name.clone()) {
            errs.push(FieldError::duplicate(format!("{p}[{i}]"), rp.resource_name.as_str()));
        }
        match rp.resource_name.as_str() {
            "cpu" | "memory" => {}
            "" => errs.push(FieldError::required(p, "")),
            other => errs.push(FieldError::not_supported(p, other, &["cpu", "memory"])),
        }
        match rp.restart_policy.as_str() {
            "NotRequired" | "RestartContainer" => {}
            "" => errs.push(FieldError::required(p, "")),
            other => errs.push(FieldError::not_supported(p, other, &["NotRequired", "RestartContainer"])),
        }
        if restart == "Never" && rp.restart_policy != "NotRequired" {
            errs.push(FieldError::invalid(
                p,
                rp.restart_policy.as_str(),
                "must be 'NotRequired' when `restartPolicy` is 'Never'",
            ));
        }
    }
}

fn dns_config(spec: &PodSpec, p: &str, errs: &mut Errs) {
    let dp = format!("{p}.dnsConfig");
    if spec.dns_policy.as_deref() == Some("None") {
        match &spec.dns_config {
            None => {
                errs.push(FieldError::required(dp, "must provide `dnsConfig` when `dnsPolicy` is None"));
                return;
            }
            Some(c) if c.nameservers.as_ref().is_none_or(Vec::is_empty) => {
                errs.push(FieldError::required(
                    format!("{dp}.nameservers"),
                    "must provide at least one DNS nameserver when `dnsPolicy` is None",
                ));
                return;
            }
            _ => {}
        }
    }
    let Some(c) = &spec.dns_config else { return };
    let ns = c.nameservers.as_deref().unwrap_or_default();
    if ns.len() > 3 {
        errs.push(FieldError::invalid(format!("{dp}.nameservers"), json!(ns), "must not have more than 3 nameservers"));
    }
    for (i, n) in ns.iter().enumerate() {
        for m in names::ip_errors(n) {
            errs.push(FieldError::invalid(format!("{dp}.nameservers[{i}]"), n.as_str(), m));
        }
    }
    let searches = c.searches.as_deref().unwrap_or_default();
    if searches.len() > 32 {
        errs.push(FieldError::invalid(
            format!("{dp}.searches"),
            json!(searches),
            "must not have more than 32 search paths",
        ));
    }
    if searches.join(" ").len() > 2048 {
        errs.push(FieldError::invalid(
            format!("{dp}.searches"),
            json!(searches),
            "must not have more than 2048 characters (including spaces) in the search list",
        ));
    }
    for (i, s) in searches.iter().enumerate() {
        let s = s.strip_suffix('.').unwrap_or(s);
        for m in names::dns1123_subdomain(s) {
            errs.push(FieldError::invalid(format!("{dp}.searches[{i}]"), s, m));
        }
    }
    for (i, o) in c.options.iter().flatten().enumerate() {
        if o.name.as_deref().unwrap_or_default().is_empty() {
            errs.push(FieldError::required(format!("{dp}.options[{i}]"), "must not be empty"));
        }
    }
}

/// `ValidateTolerations`.
pub fn tolerations(tols: &[Toleration], p: &str, errs: &mut Errs) {
    for (i, t) in tols.iter().enumerate() {
        let ip = format!("{p}[{i}]");
        let key = t.key.as_deref().unwrap_or_default();
        let op = t.operator.as_deref().unwrap_or_default();
        let effect = t.effect.as_deref().unwrap_or_default();
        let value = t.value.as_deref().unwrap_or_default();
        if !key.is_empty() {
            meta::label_name(key, &format!("{ip}.key"), errs);
        }
        if key.is_empty() && op != "Exists" {
            errs.push(FieldError::invalid(
                format!("{ip}.operator"),
                op,
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if t.toleration_seconds.is_some() && effect != "NoExecute" {
            errs.push(FieldError::invalid(
                format!("{ip}.effect"),
                effect,
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match op {
            "Equal" | "" => {
                let msgs = names::label_value(value);
                if !msgs.is_empty() {
                    errs.push(FieldError::invalid(format!("{ip}.operator"), value, msgs.join(";")));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errs.push(FieldError::invalid(
                        format!("{ip}.operator"),
                        value,
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            other => errs.push(FieldError::not_supported(format!("{ip}.operator"), other, &["Equal", "Exists"])),
        }
        if !effect.is_empty() && !matches!(effect, "NoSchedule" | "PreferNoSchedule" | "NoExecute") {
            errs.push(FieldError::not_supported(
                format!("{ip}.effect"),
                effect,
                &["NoSchedule", "PreferNoSchedule", "NoExecute"],
            ));
        }
    }
}

fn lifecycle(l: &Lifecycle, grace: Option<i64>, p: &str, errs: &mut Errs) {
    for (name, h) in [("postStart", &l.post_start), ("preStop", &l.pre_stop)] {
        if let Some(h) = h {
            lifecycle_handler(h, grace, &format!("{p}.{name}"), errs);
        }
    }
}

fn lifecycle_handler(h: &LifecycleHandler, grace: Option<i64>, p: &str, errs: &mut Errs) {
    let mut n = 0;
    if let Some(e) = &h.exec {
        n += 1;
        if e.command.as_ref().is_none_or(Vec::is_empty) {
            errs.push(FieldError::required(format!("{p}.exec.command"), ""));
        }
    }
    if let Some(hg) = &h.http_get {
        if n > 0 {
            errs.push(FieldError::forbidden(format!("{p}.httpGet"), "may not specify more than 1 handler type"));
        } else {
            n += 1;
            http_get(hg, &format!("{p}.httpGet"), errs);
        }
    }
    if let Some(t) = &h.tcp_socket {
        if n > 0 {
            errs.push(FieldError::forbidden(format!("{p}.tcpSocket"), "may not specify more than 1 handler type"));
        } else {
            n += 1;
            port_num_or_name(&t.port, &format!("{p}.tcpSocket.port"), errs);
        }
    }
    if let Some(s) = &h.sleep {
        if n > 0 {
            errs.push(FieldError::forbidden(format!("{p}.sleep"), "may not specify more than 1 handler type"));
        } else {
            n += 1;
            if let Some(g) = grace {
                if s.seconds < 0 || s.seconds > g {
                    errs.push(FieldError::invalid(
                        format!("{p}.sleep"),
                        s.seconds,
                        format!("must be non-negative and less than terminationGracePeriodSeconds ({g})"),
                    ));
                }
            }
        }
    }
    if n == 0 {
        errs.push(FieldError::required(p, "must specify a handler type"));
    }
}

fn http_get(h: &k8s_openapi::api::core::v1::HTTPGetAction, p: &str, errs: &mut Errs) {
    if h.path.as_deref().unwrap_or_default().is_empty() {
        errs.push(FieldError::required(format!("{p}.path"), ""));
    }
    port_num_or_name(&h.port, &format!("{p}.port"), errs);
    let scheme = h.scheme.as_deref().unwrap_or_default();
    if !matches!(scheme, "HTTP" | "HTTPS") {
        errs.push(FieldError::not_supported(format!("{p}.scheme"), scheme, &["HTTP", "HTTPS"]));
    }
    for hdr in h.http_headers.iter().flatten() {
        for m in names::http_header_name(&hdr.name) {
            errs.push(FieldError::invalid(format!("{p}.httpHeaders"), hdr.name.as_str(), m));
        }
    }
}

/// `ValidatePortNumOrName`.
pub fn port_num_or_name(port: &IntOrString, p: &str, errs: &mut Errs) {
    match port {
        IntOrString::Int(i) => {
            for m in names::port_num(*i as i64) {
                errs.push(FieldError::invalid(p, *i, m));
            }
        }
        IntOrString::String(s) => {
            for m in names::port_name(s) {
                errs.push(FieldError::invalid(p, s.as_str(), m));
            }
        }
    }
}

fn probes(c: &Container, grace: Option<i64>, cp: &str, errs: &mut Errs) {
    for (field, probe) in [
        ("livenessProbe", &c.liveness_probe),
        ("readinessProbe", &c.readiness_probe),
        ("startupProbe", &c.startup_probe),
    ] {
        let Some(pr) = probe else { continue };
        let p = format!("{cp}.{field}");
        probe_common(pr, grace, &p, errs);
        let success = pr.success_threshold.unwrap_or(0);
        if field != "readinessProbe" && success != 1 {
            errs.push(FieldError::invalid(format!("{p}.successThreshold"), success, "must be 1"));
        }
        if field == "readinessProbe" {
            if let Some(t) = pr.termination_grace_period_seconds {
                errs.push(FieldError::invalid(
                    format!("{p}.terminationGracePeriodSeconds"),
                    t,
                    "must not be set for readinessProbes",
                ));
            }
        }
    }
}

fn probe_common(pr: &Probe, _grace: Option<i64>, p: &str, errs: &mut Errs) {
    let mut n = 0;
    if let Some(e) = &pr.exec {
        n += 1;
        if e.command.as_ref().is_none_or(Vec::is_empty) {
            errs.push(FieldError::required(format!("{p}.exec.command"), ""));
        }
    }
    if let Some(h) = &pr.http_get {
        if n > 0 {
            errs.push(FieldError::forbidden(format!("{p}.httpGet"), "may not specify more than 1 handler type"));
        } else {
            n += 1;
            http_get(h, &format!("{p}.httpGet"), errs);
        }
    }
    if let Some(t) = &pr.tcp_socket {
        if n > 0 {
            errs.push(FieldError::forbidden(format!("{p}.tcpSocket"), "may not specify more than 1 handler type"));
        } else {
            n += 1;
            port_num_or_name(&t.port, &format!("{p}.tcpSocket.port"), errs);
        }
    }
    if let Some(g) = &pr.grpc {
        if n > 0 {
            errs.push(FieldError::forbidden(format!("{p}.grpc"), "may not specify more than 1 handler type"));
        } else {
            n += 1;
            port_num_or_name(&IntOrString::Int(g.port), &format!("{p}.grpc.port"), errs);
        }
    }
    if n == 0 {
        errs.push(FieldError::required(p, "must specify a handler type"));
    }
    for (field, v) in [
        ("initialDelaySeconds", pr.initial_delay_seconds),
        ("timeoutSeconds", pr.timeout_seconds),
        ("periodSeconds", pr.period_seconds),
        ("successThreshold", pr.success_threshold),
        ("failureThreshold", pr.failure_threshold),
    ] {
        if let Some(v) = v.filter(|v| *v < 0) {
            errs.push(FieldError::invalid(format!("{p}.{field}"), v as i64, "must be greater than or equal to 0"));
        }
    }
    if let Some(t) = pr.termination_grace_period_seconds.filter(|t| *t <= 0) {
        errs.push(FieldError::invalid(format!("{p}.terminationGracePeriodSeconds"), t, "must be greater than 0"));
    }
}
