//! The PersistentVolume controller (`persistentvolume-binder-controller`, upstream
//! `pkg/controller/volume/persistentvolume`): it pairs claims with volumes.
//!
//! For a claim without a volume (`syncUnboundClaim`):
//! - a volume that fits (same class, at least the requested size, the access modes, the
//!   volume mode; the smallest such) is bound to it: the volume's `claimRef` and phase
//!   `Bound`, then the claim's `volumeName`, its `pv.kubernetes.io/bind-completed` annotation
//!   and phase `Bound` with the volume's capacity;
//! - with a class whose `volumeBindingMode` is `WaitForFirstConsumer`, nothing is bound or
//!   provisioned until the scheduler has placed a Pod that uses the claim and written the
//!   node into the claim (`volume.kubernetes.io/selected-node`); until then the event
//!   `WaitForFirstConsumer` says so. Only volumes already reserved for the claim are bound
//!   before that (the scheduler picks unreserved ones);
//! - with a class and no fitting volume, the claim is handed to the class's provisioner: the
//!   annotations `volume.kubernetes.io/storage-provisioner` (and its beta twin) name it, and the
//!   event `ExternalProvisioning` says the controller waits for it. Only in-tree plugins were
//!   provisioned by this controller itself, and there are none left;
//! - with no class, the claim waits for a volume (`FailedBinding`).
//!
//! For a volume (`syncVolume`): without a claim it becomes `Available`; reserved for a claim
//! that is not bound yet (a provisioned volume), it wakes that claim; its claim gone, it is
//! `Released`.

use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::labels;
use crate::object::Object;
use crate::quantity::Quantity;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::core::v1::{
    ObjectReference, PersistentVolume, PersistentVolumeClaim, PersistentVolumeClaimStatus,
};
use k8s_openapi::api::storage::v1::StorageClass;
use std::collections::BTreeSet;
use std::sync::Arc;

pub const NAME: &str = "persistentvolume-binder-controller";
pub const SERVICE_ACCOUNT: &str = "persistent-volume-binder";
/// From a watch event to the sync.
pub const WATCH_LATENCY_MS: u64 = 2;
pub const ANN_BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";
pub const ANN_BOUND_BY_CONTROLLER: &str = "pv.kubernetes.io/bound-by-controller";
pub const ANN_SELECTED_NODE: &str = "volume.kubernetes.io/selected-node";
pub const ANN_STORAGE_PROVISIONER: &str = "volume.kubernetes.io/storage-provisioner";
pub const ANN_BETA_STORAGE_PROVISIONER: &str = "volume.beta.kubernetes.io/storage-provisioner";

const SOURCE: EventSourceInfo = EventSourceInfo {
    component: "persistentvolume-controller",
    service_account: SERVICE_ACCOUNT,
    phase: Phase::Controllers,
};

/// The controller, with the claims it has already said it waits for (upstream repeats the
/// event at every resync; the lab says it once).
#[derive(Debug, Default)]
pub struct PersistentVolumeController {
    said: BTreeSet<(String, &'static str)>,
}

fn claim_key(claim: &PersistentVolumeClaim) -> String {
    format!("claim/{}", key_of(&claim.metadata))
}

fn volume_key(pv: &PersistentVolume) -> String {
    format!("volume/{}", pv.metadata.name.as_deref().unwrap_or(""))
}

fn annotation<'a>(meta: &'a k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta, key: &str) -> Option<&'a str> {
    meta.annotations.as_ref().and_then(|a| a.get(key)).map(String::as_str)
}

/// The class a claim asks for (`""`: none).
pub fn claim_class(claim: &PersistentVolumeClaim) -> &str {
    claim.spec.as_ref().and_then(|s| s.storage_class_name.as_deref()).unwrap_or("")
}

fn volume_class(pv: &PersistentVolume) -> &str {
    pv.spec.as_ref().and_then(|s| s.storage_class_name.as_deref()).unwrap_or("")
}

fn volume_name_of(claim: &PersistentVolumeClaim) -> &str {
    claim.spec.as_ref().and_then(|s| s.volume_name.as_deref()).unwrap_or("")
}

fn requested(claim: &PersistentVolumeClaim) -> Option<Quantity> {
    let q = claim.spec.as_ref()?.resources.as_ref()?.requests.as_ref()?.get("storage")?;
    Quantity::parse(&q.0).ok()
}

fn capacity(pv: &PersistentVolume) -> Option<Quantity> {
    let q = pv.spec.as_ref()?.capacity.as_ref()?.get("storage")?;
    Quantity::parse(&q.0).ok()
}

fn volume_mode_claim(claim: &PersistentVolumeClaim) -> &str {
    claim.spec.as_ref().and_then(|s| s.volume_mode.as_deref()).unwrap_or("Filesystem")
}

fn volume_mode(pv: &PersistentVolume) -> &str {
    pv.spec.as_ref().and_then(|s| s.volume_mode.as_deref()).unwrap_or("Filesystem")
}

fn volume_phase(pv: &PersistentVolume) -> &str {
    pv.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("")
}

fn claim_phase(claim: &PersistentVolumeClaim) -> &str {
    claim.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("")
}

/// Whether `pv`'s claimRef names `claim` (by namespace and name, and by uid when it has one).
fn reserved_for(pv: &PersistentVolume, claim: &PersistentVolumeClaim) -> bool {
    let Some(r) = pv.spec.as_ref().and_then(|s| s.claim_ref.as_ref()) else { return false };
    r.name.as_deref() == claim.metadata.name.as_deref()
        && r.namespace.as_deref().unwrap_or("default") == claim.metadata.namespace.as_deref().unwrap_or("default")
        && r.uid.as_deref().is_none_or(|u| u.is_empty() || Some(u) == claim.metadata.uid.as_deref())
}

fn access_modes_fit(pv: &PersistentVolume, claim: &PersistentVolumeClaim) -> bool {
    let offered = pv.spec.as_ref().and_then(|s| s.access_modes.clone()).unwrap_or_default();
    let wanted = claim.spec.as_ref().and_then(|s| s.access_modes.clone()).unwrap_or_default();
    wanted.iter().all(|m| offered.contains(m))
}

/// `FindMatchingVolume`: a volume reserved for the claim first; otherwise (unless binding
/// waits for the first consumer) the smallest available volume of the claim's class that
/// offers its size, access modes and volume mode and matches its selector.
pub fn find_match(
    volumes: &[Arc<PersistentVolume>],
    claim: &PersistentVolumeClaim,
    delay: bool,
) -> Option<Arc<PersistentVolume>> {
    let want = requested(claim);
    let mut best: Option<(Arc<PersistentVolume>, Quantity)> = None;
    for pv in volumes {
        if volume_mode(pv) != volume_mode_claim(claim) {
            continue;
        }
        let cap = capacity(pv);
        let fits = match (&want, &cap) {
            (Some(w), Some(c)) => c >= w,
            (None, _) => true,
            _ => false,
        };
        if reserved_for(pv, claim) {
            if fits && access_modes_fit(pv, claim) {
                return Some(Arc::clone(pv));
            }
            continue;
        }
        let taken = pv.spec.as_ref().and_then(|s| s.claim_ref.as_ref()).is_some();
        if taken || delay || volume_phase(pv) != "Available" {
            continue;
        }
        if volume_class(pv) != claim_class(claim) || !fits || !access_modes_fit(pv, claim) {
            continue;
        }
        let selector = claim.spec.as_ref().and_then(|s| s.selector.as_ref());
        if selector.is_some() && !labels::matches(selector, pv.metadata.labels.as_ref()) {
            continue;
        }
        let c = cap.unwrap_or(Quantity::from_units(0));
        if best.as_ref().is_none_or(|(_, b)| c < *b) {
            best = Some((Arc::clone(pv), c));
        }
    }
    best.map(|(pv, _)| pv)
}

/// A StorageClass by name (kept unstructured in the store, read typed).
pub fn storage_class(cx: &Cx, name: &str) -> Option<StorageClass> {
    if name.is_empty() {
        return None;
    }
    let o = get_shared(cx.core, "StorageClass", None, name)?;
    crate::decode::from_value(&o.to_json()).ok()
}

fn volumes(cx: &Cx) -> Vec<Arc<PersistentVolume>> {
    list_shared(cx.core, "PersistentVolume", None)
        .into_iter()
        .filter_map(|o| match &*o {
            Object::PersistentVolume(v) => Some(Arc::clone(v)),
            _ => None,
        })
        .collect()
}

impl Controller for PersistentVolumeController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            Object::PersistentVolumeClaim(claim) => {
                if ev.kind == EventType::Deleted {
                    // Its volume may be released.
                    if !volume_name_of(claim).is_empty() {
                        let key = format!("volume/{}", volume_name_of(claim));
                        cx.watch(NAME, Phase::Controllers, ev, &key, WATCH_LATENCY_MS, "the volume's claim is gone");
                    }
                    return;
                }
                if let Some(Object::PersistentVolumeClaim(prev)) = ev.prev.as_deref() {
                    if prev.spec == claim.spec && prev.metadata.annotations == claim.metadata.annotations {
                        return;
                    }
                }
                let reason = if ev.kind == EventType::Added {
                    "a new claim: find or provision a volume for it"
                } else {
                    "the claim changed: check its binding"
                };
                cx.watch(NAME, Phase::Controllers, ev, &claim_key(claim), WATCH_LATENCY_MS, reason);
            }
            Object::PersistentVolume(pv) => {
                if ev.kind == EventType::Deleted {
                    return;
                }
                if let Some(Object::PersistentVolume(prev)) = ev.prev.as_deref() {
                    if prev.spec == pv.spec && volume_phase(prev) == volume_phase(pv) {
                        return;
                    }
                }
                let reason = if ev.kind == EventType::Added {
                    "a new volume: mark it Available or bind it to its claim"
                } else {
                    "the volume changed: check its binding"
                };
                cx.watch(NAME, Phase::Controllers, ev, &volume_key(pv), WATCH_LATENCY_MS, reason);
            }
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        if let Some(rest) = key.strip_prefix("claim/") {
            let (ns, name) = split_key(rest);
            if let Some(Object::PersistentVolumeClaim(claim)) = get(cx.core, "PersistentVolumeClaim", ns, name) {
                if claim.metadata.deletion_timestamp.is_none() {
                    self.sync_claim(cx, &claim);
                }
            }
        } else if let Some(name) = key.strip_prefix("volume/") {
            if let Some(Object::PersistentVolume(pv)) = get(cx.core, "PersistentVolume", None, name) {
                self.sync_volume(cx, &pv);
            }
        }
    }
}

impl PersistentVolumeController {
    fn once(&mut self, claim: &PersistentVolumeClaim, what: &'static str) -> bool {
        self.said.insert((claim_key(claim), what))
    }

    fn sync_claim(&mut self, cx: &mut Cx, claim: &Arc<PersistentVolumeClaim>) {
        let claim_obj = Object::PersistentVolumeClaim(Arc::clone(claim));
        let name = claim.metadata.name.clone().unwrap_or_default();
        let class = claim_class(claim).to_string();
        let volume_name = volume_name_of(claim).to_string();
        if !volume_name.is_empty() {
            // Bound, or reserved by the user for a volume: complete the binding.
            let Some(Object::PersistentVolume(pv)) = get(cx.core, "PersistentVolume", None, &volume_name) else {
                if claim_phase(claim) == "Bound" && self.once(claim, "lost") {
                    cx.event(
                        SOURCE,
                        &claim_obj,
                        "Warning",
                        "ClaimLost",
                        "Bound claim has lost its PersistentVolume. Data on the volume is lost!",
                    );
                }
                return;
            };
            if claim_phase(claim) != "Bound" || volume_phase(&pv) != "Bound" {
                self.bind(cx, &pv, claim);
            }
            return;
        }
        let sc = storage_class(cx, &class);
        let delay = sc.as_ref().and_then(|s| s.volume_binding_mode.as_deref()) == Some("WaitForFirstConsumer");
        let selected = annotation(&claim.metadata, ANN_SELECTED_NODE).map(str::to_string);
        if let Some(pv) = find_match(&volumes(cx), claim, delay) {
            self.bind(cx, &pv, claim);
            return;
        }
        if delay && selected.is_none() {
            if self.once(claim, "wait") {
                cx.decide(
                    Phase::Controllers,
                    NAME,
                    Some(&claim_obj),
                    format!("persistentvolume-controller: claim {name} waits for a Pod that uses it"),
                    format!("claim {name} asks for class {class}, whose volumeBindingMode is WaitForFirstConsumer"),
                    "a volume on the node where the first Pod using the claim is scheduled".into(),
                    vec!["nothing yet: the scheduler picks the node, then writes it into the claim (volume.kubernetes.io/selected-node)".into()],
                    StepStatus::Ok,
                );
                cx.event(
                    SOURCE,
                    &claim_obj,
                    "Normal",
                    "WaitForFirstConsumer",
                    "waiting for first consumer to be created before binding",
                );
            }
            return;
        }
        if class.is_empty() {
            if self.once(claim, "nothing") {
                cx.decide(
                    Phase::Controllers,
                    NAME,
                    Some(&claim_obj),
                    format!("persistentvolume-controller: no volume for claim {name}"),
                    format!("claim {name} names no StorageClass and no available PersistentVolume offers what it asks"),
                    "an available PersistentVolume of no class, as large as the claim asks".into(),
                    vec!["wait: a volume created later is bound to it".into()],
                    StepStatus::Warning,
                );
                cx.event(
                    SOURCE,
                    &claim_obj,
                    "Normal",
                    "FailedBinding",
                    "no persistent volumes available for this claim and no storage class is set",
                );
            }
            return;
        }
        let Some(sc) = sc else {
            if self.once(claim, "noclass") {
                cx.event(
                    SOURCE,
                    &claim_obj,
                    "Warning",
                    "ProvisioningFailed",
                    &format!("storageclass.storage.k8s.io \"{class}\" not found"),
                );
            }
            return;
        };
        let provisioner = sc.provisioner.clone();
        if provisioner == "kubernetes.io/no-provisioner" {
            if self.once(claim, "noprov") {
                cx.event(
                    SOURCE,
                    &claim_obj,
                    "Normal",
                    "FailedBinding",
                    "no persistent volumes available for this claim and no storage class is set",
                );
            }
            return;
        }
        // `provisionClaim` for an external provisioner: name it in the claim and wait.
        if annotation(&claim.metadata, ANN_STORAGE_PROVISIONER) != Some(provisioner.as_str()) {
            cx.decide(
                Phase::Controllers,
                NAME,
                Some(&claim_obj),
                format!("persistentvolume-controller: claim {name} is handed to provisioner {provisioner}"),
                format!(
                    "no PersistentVolume fits claim {name}; its class {class} names the provisioner {provisioner}{}",
                    selected.as_deref().map(|n| format!(", and the scheduler chose node {n}")).unwrap_or_default()
                ),
                "a PersistentVolume created for the claim by the class's provisioner".into(),
                vec![format!(
                    "PUT the claim with the annotations {ANN_STORAGE_PROVISIONER} and {ANN_BETA_STORAGE_PROVISIONER}: {provisioner} (an external provisioner watches for them; the controller binds what it creates)"
                )],
                StepStatus::Ok,
            );
            let mut c = PersistentVolumeClaim::clone(claim);
            let ann = c.metadata.annotations.get_or_insert_with(Default::default);
            ann.insert(ANN_BETA_STORAGE_PROVISIONER.into(), provisioner.clone());
            ann.insert(ANN_STORAGE_PROVISIONER.into(), provisioner.clone());
            let resp = cx.update(SERVICE_ACCOUNT, Object::from(c));
            if !resp.ok() {
                cx.requeue_rate_limited(NAME, &claim_key(claim));
                return;
            }
        }
        if self.once(claim, "external") {
            cx.event(
                SOURCE,
                &claim_obj,
                "Normal",
                "ExternalProvisioning",
                &format!(
                    "Waiting for a volume to be created either by the external provisioner '{provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."
                ),
            );
        }
    }

    fn sync_volume(&mut self, cx: &mut Cx, pv: &Arc<PersistentVolume>) {
        let name = pv.metadata.name.clone().unwrap_or_default();
        let claim_ref = pv.spec.as_ref().and_then(|s| s.claim_ref.clone());
        let Some(r) = claim_ref else {
            if volume_phase(pv) != "Available" {
                self.set_volume_phase(cx, pv, "Available", "no claim reserves it: any claim that fits may have it");
            }
            return;
        };
        let claim_name = r.name.clone().unwrap_or_default();
        let claim_ns = r.namespace.clone().unwrap_or_else(|| "default".into());
        match get(cx.core, "PersistentVolumeClaim", Some(&claim_ns), &claim_name) {
            Some(Object::PersistentVolumeClaim(claim))
                if r.uid.as_deref().is_none_or(|u| u.is_empty() || Some(u) == claim.metadata.uid.as_deref()) =>
            {
                if volume_name_of(&claim).is_empty() {
                    // Reserved for a claim that is not bound yet (a provisioned volume): bind it.
                    cx.enqueue(NAME, &claim_key(&claim), 0);
                } else if volume_name_of(&claim) == name && volume_phase(pv) != "Bound" {
                    self.set_volume_phase(cx, pv, "Bound", &format!("bound to claim {claim_ns}/{claim_name}"));
                }
            }
            _ if r.uid.as_deref().is_some_and(|u| !u.is_empty()) => {
                if volume_phase(pv) != "Released" && volume_phase(pv) != "Failed" {
                    let policy = pv
                        .spec
                        .as_ref()
                        .and_then(|s| s.persistent_volume_reclaim_policy.clone())
                        .unwrap_or_else(|| "Retain".into());
                    self.set_volume_phase(
                        cx,
                        pv,
                        "Released",
                        &format!("its claim {claim_ns}/{claim_name} is gone; reclaim policy {policy}"),
                    );
                }
            }
            _ => {
                if volume_phase(pv) != "Available" {
                    self.set_volume_phase(
                        cx,
                        pv,
                        "Available",
                        &format!("reserved for claim {claim_ns}/{claim_name}, which does not exist yet"),
                    );
                }
            }
        }
    }

    fn set_volume_phase(&mut self, cx: &mut Cx, pv: &Arc<PersistentVolume>, phase: &str, why: &str) {
        let name = pv.metadata.name.clone().unwrap_or_default();
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&Object::PersistentVolume(Arc::clone(pv))),
            format!("persistentvolume-controller: volume {name} is {phase}"),
            why.to_string(),
            format!("status.phase {phase}"),
            vec![format!("PUT status: phase={phase}")],
            StepStatus::Ok,
        );
        let mut v = PersistentVolume::clone(pv);
        let status = v.status.get_or_insert_with(Default::default);
        status.phase = Some(phase.to_string());
        status.last_phase_transition_time = Some(crate::apiserver::timestamp(cx.core.now));
        let _ = cx.update_status(SERVICE_ACCOUNT, Object::from(v));
    }

    /// `bind`: the volume to the claim, then the claim to the volume, each spec then status.
    fn bind(&mut self, cx: &mut Cx, pv: &Arc<PersistentVolume>, claim: &Arc<PersistentVolumeClaim>) {
        let pv_name = pv.metadata.name.clone().unwrap_or_default();
        let claim_name = claim.metadata.name.clone().unwrap_or_default();
        let ns = claim.metadata.namespace.clone().unwrap_or_else(|| "default".into());
        let claim_obj = Object::PersistentVolumeClaim(Arc::clone(claim));
        let cap = pv.spec.as_ref().and_then(|s| s.capacity.clone());
        let modes = pv.spec.as_ref().and_then(|s| s.access_modes.clone());
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&claim_obj),
            format!("persistentvolume-controller binds claim {ns}/{claim_name} to volume {pv_name}"),
            format!(
                "volume {pv_name} ({}, {}, class {}) {}",
                cap.as_ref().and_then(|c| c.get("storage")).map(|q| q.0.clone()).unwrap_or_default(),
                modes.clone().unwrap_or_default().join(","),
                if volume_class(pv).is_empty() { "\"\"" } else { volume_class(pv) },
                if reserved_for(pv, claim) {
                    "is reserved for this claim"
                } else {
                    "is the smallest available volume that fits"
                }
            ),
            "claim and volume bound to each other".into(),
            vec![
                format!("PUT volume {pv_name}: spec.claimRef → {ns}/{claim_name}"),
                format!("PUT volume {pv_name} status: phase=Bound"),
                format!("PUT claim {claim_name}: spec.volumeName={pv_name}, annotation {ANN_BIND_COMPLETED}: yes"),
                "PUT claim status: phase=Bound, with the volume's capacity and access modes".into(),
            ],
            StepStatus::Ok,
        );
        // The volume's claimRef.
        let mut v = PersistentVolume::clone(pv);
        if !reserved_for(&v, claim)
            || v.spec
                .as_ref()
                .and_then(|s| s.claim_ref.as_ref())
                .and_then(|r| r.uid.as_deref())
                .is_none_or(str::is_empty)
        {
            let spec = v.spec.get_or_insert_with(Default::default);
            let by_controller = spec.claim_ref.is_none();
            spec.claim_ref = Some(ObjectReference {
                api_version: Some("v1".into()),
                kind: Some("PersistentVolumeClaim".into()),
                name: Some(claim_name.clone()),
                namespace: Some(ns.clone()),
                uid: claim.metadata.uid.clone(),
                resource_version: revision_of(cx.core, &claim_obj).map(|r| r.to_string()),
                field_path: None,
            });
            if by_controller {
                v.metadata
                    .annotations
                    .get_or_insert_with(Default::default)
                    .insert(ANN_BOUND_BY_CONTROLLER.into(), "yes".into());
            }
            let resp = cx.update(SERVICE_ACCOUNT, Object::from(v));
            match resp.stored_object() {
                Some(Object::PersistentVolume(s)) if resp.ok() => v = PersistentVolume::clone(s),
                _ => {
                    cx.requeue_rate_limited(NAME, &claim_key(claim));
                    return;
                }
            }
        }
        if volume_phase(&v) != "Bound" {
            let status = v.status.get_or_insert_with(Default::default);
            status.phase = Some("Bound".into());
            status.last_phase_transition_time = Some(crate::apiserver::timestamp(cx.core.now));
            let _ = cx.update_status(SERVICE_ACCOUNT, Object::from(v));
        }
        // The claim's volumeName and annotations.
        let mut c = PersistentVolumeClaim::clone(claim);
        let needs_spec = volume_name_of(&c) != pv_name || annotation(&c.metadata, ANN_BIND_COMPLETED).is_none();
        if needs_spec {
            let by_controller = volume_name_of(&c).is_empty();
            c.spec.get_or_insert_with(Default::default).volume_name = Some(pv_name.clone());
            let ann = c.metadata.annotations.get_or_insert_with(Default::default);
            ann.insert(ANN_BIND_COMPLETED.into(), "yes".into());
            if by_controller {
                ann.insert(ANN_BOUND_BY_CONTROLLER.into(), "yes".into());
            }
            let resp = cx.update(SERVICE_ACCOUNT, Object::from(c));
            match resp.stored_object() {
                Some(Object::PersistentVolumeClaim(s)) if resp.ok() => c = PersistentVolumeClaim::clone(s),
                _ => {
                    cx.requeue_rate_limited(NAME, &claim_key(claim));
                    return;
                }
            }
        }
        c.status = Some(PersistentVolumeClaimStatus {
            phase: Some("Bound".into()),
            access_modes: modes,
            capacity: cap,
            ..c.status.clone().unwrap_or_default()
        });
        let _ = cx.update_status(SERVICE_ACCOUNT, Object::from(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pv(name: &str, size: &str, class: &str, phase: &str) -> Arc<PersistentVolume> {
        let v: PersistentVolume = serde_json::from_value(serde_json::json!({
            "metadata": {"name": name},
            "spec": {"capacity": {"storage": size}, "accessModes": ["ReadWriteOnce"], "storageClassName": class},
            "status": {"phase": phase}
        }))
        .unwrap();
        Arc::new(v)
    }

    fn claim(size: &str, class: &str) -> PersistentVolumeClaim {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "data", "namespace": "default", "uid": "u1"},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": size}}, "storageClassName": class}
        }))
        .unwrap()
    }

    #[test]
    fn the_smallest_available_volume_of_the_class_that_fits() {
        let vols = vec![
            pv("big", "10Gi", "", "Available"),
            pv("small", "1Gi", "", "Available"),
            pv("tiny", "100Mi", "", "Available"),
            pv("other", "1Gi", "fast", "Available"),
            pv("pending", "1Gi", "", "Pending"),
        ];
        let got = find_match(&vols, &claim("500Mi", ""), false);
        assert_eq!(got.and_then(|v| v.metadata.name.clone()).as_deref(), Some("small"));
        assert!(find_match(&vols, &claim("20Gi", ""), false).is_none());
        // Waiting for the first consumer: only a volume reserved for the claim is bound.
        assert!(find_match(&vols, &claim("500Mi", ""), true).is_none());
    }
}
