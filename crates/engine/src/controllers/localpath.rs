//! kind's volume provisioner, `rancher.io/local-path` (the local-path-provisioner Deployment
//! kind installs in the namespace `local-path-storage`, behind the default StorageClass
//! `standard`). It is not part of kube-controller-manager: it is an add-on built on
//! sig-storage-lib-external-provisioner, running as its own service account. The lab runs it
//! beside the controllers, under that account and with kind's RBAC for it.
//!
//! It watches claims that the PersistentVolume controller handed to it (annotation
//! `volume.kubernetes.io/storage-provisioner: rancher.io/local-path`) and, for its
//! WaitForFirstConsumer class, that the scheduler placed (`volume.kubernetes.io/selected-node`):
//! 1. the event `Provisioning` ("External provisioner is provisioning volume for claim ...");
//! 2. a helper Pod on the chosen node creates the directory
//!    `/var/local-path-provisioner/pvc-<claim uid>_<namespace>_<claim>`; the lab does not run
//!    that Pod, it only lets the time pass that it takes ([`HELPER_POD_MS`]);
//! 3. a PersistentVolume `pvc-<claim uid>`: a `hostPath` volume of that directory, with the
//!    claim's size and access modes, reserved for the claim (`claimRef`), tied to the node by
//!    required node affinity (`kubernetes.io/hostname`), reclaim policy from the class;
//! 4. the event `ProvisioningSucceeded`. The PersistentVolume controller then binds them.
//!
//! A claim without a chosen node, or asking for an access mode other than ReadWriteOnce or
//! ReadWriteOncePod, fails with the provisioner's error (`ProvisioningFailed`).

use super::persistentvolume::{claim_class, storage_class, ANN_SELECTED_NODE, ANN_STORAGE_PROVISIONER};
use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::core::v1::{
    HostPathVolumeSource, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, ObjectReference, PersistentVolume,
    PersistentVolumeClaim, PersistentVolumeSpec, VolumeNodeAffinity,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The provisioner's name, as StorageClasses name it.
pub const PROVISIONER: &str = "rancher.io/local-path";
pub const NAME: &str = "local-path-provisioner";
/// Its service account, in its own namespace.
pub const SERVICE_ACCOUNT: &str = "local-path-storage:local-path-provisioner-service-account";
/// Where it keeps the volumes on each node (`nodePathMap` of kind's `local-path-config`).
pub const BASE_PATH: &str = "/var/local-path-provisioner";
/// How long the helper Pod that creates the directory takes, from the Provisioning event to
/// the volume (about 3 s on a kind cluster).
pub const HELPER_POD_MS: u64 = 2_500;
/// From a watch event to the provisioner's work.
pub const WATCH_LATENCY_MS: u64 = 2;

/// The event source: the provisioner's identity, `<provisioner>_<pod>_<uuid>`, as the
/// external-provisioner library records it (the Pod of this lab's kind cluster).
const SOURCE: EventSourceInfo = EventSourceInfo {
    component: "rancher.io/local-path_local-path-provisioner-7dc846544d-x4vzb_0b8c3f2e-5a1d-4f6e-9c7b-2d4e6f8a1b3c",
    service_account: SERVICE_ACCOUNT,
    phase: Phase::Controllers,
};

/// The provisioner, with the claims whose helper Pod is running.
#[derive(Debug, Default)]
pub struct LocalPathProvisioner {
    provisioning: BTreeSet<String>,
    failed: BTreeSet<String>,
}

fn annotation<'a>(meta: &'a ObjectMeta, key: &str) -> Option<&'a str> {
    meta.annotations.as_ref().and_then(|a| a.get(key)).map(String::as_str)
}

fn wants_us(claim: &PersistentVolumeClaim) -> bool {
    annotation(&claim.metadata, ANN_STORAGE_PROVISIONER) == Some(PROVISIONER)
        && claim.spec.as_ref().and_then(|s| s.volume_name.as_deref()).is_none_or(str::is_empty)
        && claim.metadata.deletion_timestamp.is_none()
}

fn volume_name(claim: &PersistentVolumeClaim) -> String {
    format!("pvc-{}", claim.metadata.uid.as_deref().unwrap_or(""))
}

impl Controller for LocalPathProvisioner {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        let Object::PersistentVolumeClaim(claim) = &*ev.object else { return };
        if ev.kind == EventType::Deleted || !wants_us(claim) {
            return;
        }
        if let Some(Object::PersistentVolumeClaim(prev)) = ev.prev.as_deref() {
            if wants_us(prev) && prev.metadata.annotations == claim.metadata.annotations {
                return;
            }
        }
        cx.watch(
            NAME,
            Phase::Controllers,
            ev,
            &key_of(&claim.metadata),
            WATCH_LATENCY_MS,
            "a claim for rancher.io/local-path",
        );
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        let (ns, name) = split_key(key);
        let Some(Object::PersistentVolumeClaim(claim)) = get(cx.core, "PersistentVolumeClaim", ns, name) else {
            self.provisioning.remove(key);
            return;
        };
        if !wants_us(&claim) || get_shared(cx.core, "PersistentVolume", None, &volume_name(&claim)).is_some() {
            self.provisioning.remove(key);
            return;
        }
        let class = claim_class(&claim).to_string();
        let sc = storage_class(cx, &class);
        let claim_obj = Object::PersistentVolumeClaim(Arc::clone(&claim));
        let node = annotation(&claim.metadata, ANN_SELECTED_NODE).map(str::to_string);
        let modes = claim.spec.as_ref().and_then(|s| s.access_modes.clone()).unwrap_or_default();
        let problem = match (&node, &sc) {
            (_, None) => Some(format!("storageclass.storage.k8s.io \"{class}\" not found")),
            (None, _) => Some("configuration error, no node was specified".to_string()),
            _ if modes.iter().any(|m| m != "ReadWriteOnce" && m != "ReadWriteOncePod") => {
                Some("NodePath only supports ReadWriteOnce and ReadWriteOncePod (1.22+) access modes".to_string())
            }
            _ => None,
        };
        if let Some(p) = problem {
            if self.failed.insert(key.to_string()) {
                cx.event(
                    SOURCE,
                    &claim_obj,
                    "Warning",
                    "ProvisioningFailed",
                    &format!("failed to provision volume with StorageClass \"{class}\": {p}"),
                );
            }
            return;
        }
        let node = node.unwrap_or_default();
        let ns = claim.metadata.namespace.clone().unwrap_or_else(|| "default".into());
        let pv_name = volume_name(&claim);
        let path = format!("{BASE_PATH}/{pv_name}_{ns}_{name}");
        if self.provisioning.insert(key.to_string()) {
            cx.event(
                SOURCE,
                &claim_obj,
                "Normal",
                "Provisioning",
                &format!("External provisioner is provisioning volume for claim \"{ns}/{name}\""),
            );
            cx.decide(
                Phase::Controllers,
                NAME,
                Some(&claim_obj),
                format!("local-path-provisioner creates the directory for claim {ns}/{name} on {node}"),
                format!("claim {name} of class {class} (provisioner {PROVISIONER}), scheduled for node {node}"),
                format!("a hostPath PersistentVolume {pv_name} on {node}"),
                vec![format!(
                    "run a helper Pod (helper-pod-create-{pv_name}) on {node} in namespace local-path-storage that creates {path}; the lab does not run that Pod, it waits the ~{} s it takes",
                    HELPER_POD_MS as f64 / 1000.0
                )],
                StepStatus::Ok,
            );
            cx.enqueue(NAME, key, HELPER_POD_MS);
            return;
        }
        // The directory exists: create the volume, reserved for the claim.
        let sc = sc.unwrap_or_default();
        let size = claim
            .spec
            .as_ref()
            .and_then(|s| s.resources.as_ref())
            .and_then(|r| r.requests.as_ref())
            .and_then(|r| r.get("storage"))
            .cloned();
        let pv = PersistentVolume {
            metadata: ObjectMeta {
                name: Some(pv_name.clone()),
                annotations: Some(BTreeMap::from([
                    ("local.path.provisioner/selected-node".to_string(), node.clone()),
                    ("pv.kubernetes.io/provisioned-by".to_string(), PROVISIONER.to_string()),
                ])),
                ..ObjectMeta::default()
            },
            spec: Some(PersistentVolumeSpec {
                access_modes: Some(modes.clone()),
                capacity: size.map(|q| BTreeMap::from([("storage".to_string(), q)])),
                claim_ref: Some(ObjectReference {
                    api_version: Some("v1".into()),
                    kind: Some("PersistentVolumeClaim".into()),
                    name: Some(name.to_string()),
                    namespace: Some(ns.clone()),
                    uid: claim.metadata.uid.clone(),
                    resource_version: revision_of(cx.core, &claim_obj).map(|r| r.to_string()),
                    field_path: None,
                }),
                host_path: Some(HostPathVolumeSource { path: path.clone(), type_: Some("DirectoryOrCreate".into()) }),
                node_affinity: Some(VolumeNodeAffinity {
                    required: Some(NodeSelector {
                        node_selector_terms: vec![NodeSelectorTerm {
                            match_expressions: Some(vec![NodeSelectorRequirement {
                                key: "kubernetes.io/hostname".into(),
                                operator: "In".into(),
                                values: Some(vec![node.clone()]),
                            }]),
                            match_fields: None,
                        }],
                    }),
                }),
                persistent_volume_reclaim_policy: Some(sc.reclaim_policy.clone().unwrap_or_else(|| "Delete".into())),
                storage_class_name: Some(class.clone()),
                volume_mode: Some("Filesystem".into()),
                ..PersistentVolumeSpec::default()
            }),
            status: None,
        };
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&claim_obj),
            format!("local-path-provisioner creates PersistentVolume {pv_name} for claim {ns}/{name}"),
            format!("the helper Pod created {path} on {node}"),
            format!("a volume the PersistentVolume controller binds to claim {name}"),
            vec![format!(
                "POST PersistentVolume {pv_name}: hostPath {path}, node affinity kubernetes.io/hostname In [{node}], claimRef {ns}/{name}, reclaim policy {}",
                pv.spec.as_ref().and_then(|s| s.persistent_volume_reclaim_policy.as_deref()).unwrap_or("")
            )],
            StepStatus::Ok,
        );
        let resp = cx.create(SERVICE_ACCOUNT, Object::from(pv));
        self.provisioning.remove(key);
        if resp.ok() || resp.is_already_exists() {
            cx.event(
                SOURCE,
                &claim_obj,
                "Normal",
                "ProvisioningSucceeded",
                &format!("Successfully provisioned volume {pv_name}"),
            );
        } else {
            cx.event(
                SOURCE,
                &claim_obj,
                "Warning",
                "ProvisioningFailed",
                &format!("failed to provision volume with StorageClass \"{class}\": {}", resp.message()),
            );
            cx.requeue_rate_limited(NAME, key);
        }
    }
}
