//! The storage describers: `kubectl describe persistentvolumeclaim` (with the pods using the
//! claim, "Used By") and `kubectl describe persistentvolume` (with its node affinity and
//! its source).

use super::describe::PrefixWriter;
use super::describe::{
    canonical_quantity, describe_events, print_annotations_multiline, print_csi_volume_attributes,
    print_host_path_volume_source, print_labels_multiline, print_nfs_volume_source,
};
use super::format::{rfc1123z_opt, Clock};
use super::printers::access_modes;
use k8s_openapi::api::core::v1::{
    Event, NodeSelectorRequirement, PersistentVolume, PersistentVolumeClaim, Pod, VolumeNodeAffinity,
};
use std::collections::BTreeMap;

/// The annotation that named a claim's or a volume's class before `storageClassName`.
const BETA_STORAGE_CLASS: &str = "volume.beta.kubernetes.io/storage-class";

fn class_of(annotations: Option<&BTreeMap<String, String>>, class_name: Option<&String>) -> String {
    annotations.and_then(|a| a.get(BETA_STORAGE_CLASS)).or(class_name).cloned().unwrap_or_default()
}

/// `storageutil.GetPersistentVolumeClaimClass`: the beta annotation, else
/// `spec.storageClassName`, else `""`.
pub fn claim_storage_class(pvc: &PersistentVolumeClaim) -> String {
    class_of(pvc.metadata.annotations.as_ref(), pvc.spec.as_ref().and_then(|s| s.storage_class_name.as_ref()))
}

/// `storageutil.GetPersistentVolumeClass`: the same for a volume.
pub fn volume_storage_class(pv: &PersistentVolume) -> String {
    class_of(pv.metadata.annotations.as_ref(), pv.spec.as_ref().and_then(|s| s.storage_class_name.as_ref()))
}

/// Go's `%v` of a string slice: `[a b]`.
fn go_list(items: Option<&Vec<String>>) -> String {
    format!("[{}]", items.map(|i| i.join(" ")).unwrap_or_default())
}

/// The pods `kubectl describe pvc` lists under "Used By" (`getPodsForPVC`): every pod of the
/// namespace once per volume of it that names the claim, then the pods the claim's owner
/// references name (a generic ephemeral volume's pod) not already listed.
pub fn pods_using_claim<'a>(pvc: &PersistentVolumeClaim, namespace_pods: &[&'a Pod]) -> Vec<&'a Pod> {
    let name = pvc.metadata.name.as_deref().unwrap_or("");
    let mut pods: Vec<&Pod> = Vec::new();
    for pod in namespace_pods {
        for v in pod.spec.as_ref().and_then(|s| s.volumes.as_ref()).into_iter().flatten() {
            if v.persistent_volume_claim.as_ref().is_some_and(|c| c.claim_name == name) {
                pods.push(pod);
            }
        }
    }
    for owner in pvc.metadata.owner_references.iter().flatten().filter(|o| o.kind == "Pod") {
        let Some(pod) = namespace_pods.iter().find(|p| p.metadata.uid.as_deref() == Some(owner.uid.as_str())) else {
            continue;
        };
        if !pods.iter().any(|p| p.metadata.uid == pod.metadata.uid) {
            pods.push(pod);
        }
    }
    pods
}

/// `printPodsMultiline`: the pods' names, sorted.
fn print_pods_multiline(w: &mut PrefixWriter, title: &str, pods: &[&Pod]) {
    w.write(0, &format!("{title}:\t"));
    if pods.is_empty() {
        w.line("<none>");
        return;
    }
    let mut names: Vec<&str> = pods.iter().map(|p| p.metadata.name.as_deref().unwrap_or("")).collect();
    crate::sort::sort(&mut names);
    for (i, name) in names.into_iter().enumerate() {
        if i != 0 {
            w.write(0, "\t");
        }
        w.write(0, &format!("{name}\n"));
    }
}

/// "Status": `Terminating (lasts ...)` once deleted, else the phase.
fn status_line(
    meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    phase: Option<&str>,
    clock: Clock,
) -> String {
    match &meta.deletion_timestamp {
        Some(t) => format!("Status:\tTerminating (lasts {})\n", clock.since(Some(t))),
        None => format!("Status:\t{}\n", phase.unwrap_or("")),
    }
}

/// `kubectl describe pvc`: capacity and access modes are the bound volume's (through the
/// claim's status), empty while the claim has no volume.
pub fn describe_pvc(pvc: &PersistentVolumeClaim, used_by: &[&Pod], events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    let meta = &pvc.metadata;
    let spec = pvc.spec.clone().unwrap_or_default();
    let status = pvc.status.clone().unwrap_or_default();
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")));
    w.write(0, &format!("StorageClass:\t{}\n", claim_storage_class(pvc)));
    w.write(0, &status_line(meta, status.phase.as_deref(), clock));
    let volume = spec.volume_name.clone().unwrap_or_default();
    w.write(0, &format!("Volume:\t{volume}\n"));
    print_labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.write(0, &format!("Finalizers:\t{}\n", go_list(meta.finalizers.as_ref())));
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (
            status
                .capacity
                .as_ref()
                .and_then(|c| c.get("storage"))
                .map(canonical_quantity)
                .unwrap_or_else(|| "0".into()),
            access_modes(status.access_modes.as_ref()),
        )
    };
    w.write(0, &format!("Capacity:\t{capacity}\n"));
    w.write(0, &format!("Access Modes:\t{modes}\n"));
    if let Some(mode) = &spec.volume_mode {
        w.write(0, &format!("VolumeMode:\t{mode}\n"));
    }
    if let Some(ds) = &spec.data_source {
        w.write(0, "DataSource:\n");
        if let Some(group) = &ds.api_group {
            w.write(1, &format!("APIGroup:\t{group}\n"));
        }
        w.write(1, &format!("Kind:\t{}\n", ds.kind));
        w.write(1, &format!("Name:\t{}\n", ds.name));
    }
    print_pods_multiline(&mut w, "Used By", used_by);
    if let Some(conditions) = status.conditions.as_ref().filter(|c| !c.is_empty()) {
        w.write(0, "Conditions:\n");
        w.write(1, "Type\tStatus\tLastProbeTime\tLastTransitionTime\tReason\tMessage\n");
        w.write(1, "----\t------\t-----------------\t------------------\t------\t-------\n");
        for c in conditions {
            w.write(
                1,
                &format!(
                    "{} \t{} \t{} \t{} \t{} \t{}\n",
                    c.type_,
                    c.status,
                    rfc1123z_opt(c.last_probe_time.as_ref()),
                    rfc1123z_opt(c.last_transition_time.as_ref()),
                    c.reason.as_deref().unwrap_or(""),
                    c.message.as_deref().unwrap_or("")
                ),
            );
        }
    }
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `printNodeSelectorTermsMultilineWithIndent` at level 2: `key op [v1, v2]`, the operator
/// in lower case.
fn print_node_selector_term(w: &mut PrefixWriter, title: &str, reqs: &[NodeSelectorRequirement]) {
    w.write(2, &format!("{title}:\t"));
    if reqs.is_empty() {
        w.line("<none>");
        return;
    }
    for (i, req) in reqs.iter().enumerate() {
        if i != 0 {
            w.write(2, "\t");
        }
        let mut expr = format!("{} {}", req.key, req.operator.to_lowercase());
        if let Some(values) = req.values.as_ref().filter(|v| !v.is_empty()) {
            expr.push_str(&format!(" [{}]", values.join(", ")));
        }
        w.write(0, &format!("{expr}\n"));
    }
}

/// `printVolumeNodeAffinity`: `<none>`, or the required terms one by one.
fn print_volume_node_affinity(w: &mut PrefixWriter, affinity: Option<&VolumeNodeAffinity>) {
    w.write(0, "Node Affinity:\t");
    let Some(required) = affinity.and_then(|a| a.required.as_ref()) else {
        w.line("<none>");
        return;
    };
    w.line("");
    w.write(1, "Required Terms:\t");
    if required.node_selector_terms.is_empty() {
        w.line("<none>");
        return;
    }
    w.line("");
    for (i, term) in required.node_selector_terms.iter().enumerate() {
        print_node_selector_term(w, &format!("Term {i}"), term.match_expressions.as_deref().unwrap_or(&[]));
    }
}

/// `kubectl describe pv`. Its "Source" shows the volume types a kind cluster has (hostPath,
/// as the local-path provisioner makes them; local; NFS; CSI); the cloud and legacy in-tree
/// types are not modelled by the lab and show as `<unknown>`.
pub fn describe_pv(pv: &PersistentVolume, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    let meta = &pv.metadata;
    let spec = pv.spec.clone().unwrap_or_default();
    let status = pv.status.clone().unwrap_or_default();
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    print_labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.write(0, &format!("Finalizers:\t{}\n", go_list(meta.finalizers.as_ref())));
    w.write(0, &format!("StorageClass:\t{}\n", volume_storage_class(pv)));
    w.write(0, &status_line(meta, status.phase.as_deref(), clock));
    let claim = spec
        .claim_ref
        .as_ref()
        .map(|r| format!("{}/{}", r.namespace.as_deref().unwrap_or(""), r.name.as_deref().unwrap_or("")))
        .unwrap_or_default();
    w.write(0, &format!("Claim:\t{claim}\n"));
    w.write(0, &format!("Reclaim Policy:\t{}\n", spec.persistent_volume_reclaim_policy.as_deref().unwrap_or("")));
    w.write(0, &format!("Access Modes:\t{}\n", access_modes(spec.access_modes.as_ref())));
    if let Some(mode) = &spec.volume_mode {
        w.write(0, &format!("VolumeMode:\t{mode}\n"));
    }
    let capacity = spec.capacity.as_ref().and_then(|c| c.get("storage")).map(canonical_quantity);
    w.write(0, &format!("Capacity:\t{}\n", capacity.unwrap_or_else(|| "0".to_string())));
    print_volume_node_affinity(&mut w, spec.node_affinity.as_ref());
    w.write(0, &format!("Message:\t{}\n", status.message.as_deref().unwrap_or("")));
    w.write(0, "Source:\n");
    if let Some(h) = &spec.host_path {
        print_host_path_volume_source(&mut w, h);
    } else if let Some(nfs) = &spec.nfs {
        print_nfs_volume_source(&mut w, nfs);
    } else if let Some(local) = &spec.local {
        w.write(
            2,
            &format!(
                "Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n    Path:\t{}\n",
                local.path
            ),
        );
    } else if let Some(csi) = &spec.csi {
        w.write(
            2,
            &format!(
                "Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t{}\n    FSType:\t{}\n    VolumeHandle:\t{}\n    ReadOnly:\t{}\n",
                csi.driver,
                csi.fs_type.as_deref().unwrap_or(""),
                csi.volume_handle,
                csi.read_only.unwrap_or(false)
            ),
        );
        print_csi_volume_attributes(&mut w, csi.volume_attributes.as_ref());
    } else {
        w.write(1, "<unknown>\n");
    }
    describe_events(&mut w, events, clock);
    w.finish()
}
