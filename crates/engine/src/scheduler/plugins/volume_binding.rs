//! VolumeBinding: a pod's PersistentVolumeClaims must exist and be usable from the node.
//!
//! PreFilter: a claim that does not exist, is being deleted or was lost rejects the pod;
//! an unbound claim whose StorageClass binds immediately (or that has no class) must be
//! bound by the PV controller first ("pod has unbound immediate PersistentVolumeClaims");
//! a pod without claims skips the plugin.
//! Filter, per node: a bound claim's PV must exist and its node affinity must match; an
//! unbound `WaitForFirstConsumer` claim needs an available PV that fits (class, size,
//! access modes, node affinity) or a class that can provision on this node.
//! Reserve/PreBind: for the chosen node, the claims to bind to a PV, and the claims to
//! provision (annotated `volume.kubernetes.io/selected-node`), returned to the caller.

use std::any::Any;

use k8s_openapi::api::core::v1::{PersistentVolume, PersistentVolumeClaim};
use serde::{Deserialize, Serialize};

use crate::quantity::Quantity;
use crate::scheduler::framework::{
    Code, Ctx, FilterPlugin, Plugin, PreFilterOutput, PreFilterPlugin, PreScorePlugin, ReservePlugin, ScorePlugin,
    StateData, Status,
};
use crate::scheduler::queue::{ClusterEvent, QueueingHint};
use crate::scheduler::selectors::{node_selector_matches, Selector};
use crate::scheduler::snapshot::{ClusterSnapshot, NodeInfo, PodInfo};

pub struct VolumeBinding;

pub const ERR_REASON_BIND_CONFLICT: &str = "node(s) didn't find available persistent volumes to bind";
pub const ERR_REASON_NODE_CONFLICT: &str = "node(s) had volume node affinity conflict";
pub const ERR_REASON_NOT_ENOUGH_SPACE: &str = "node(s) did not have enough free storage";
pub const ERR_REASON_PV_NOT_EXIST: &str = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
pub const ERR_UNBOUND_IMMEDIATE: &str = "pod has unbound immediate PersistentVolumeClaims";

const ANN_BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";
pub const ANN_SELECTED_NODE: &str = "volume.kubernetes.io/selected-node";
const NO_PROVISIONER: &str = "kubernetes.io/no-provisioner";

/// What PreBind will do for the chosen node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "action")]
pub enum VolumeAction {
    /// Bind the claim to an existing PersistentVolume.
    Bind { namespace: String, claim: String, volume: String },
    /// Ask the claim's provisioner for a volume on the node (annotation on the claim).
    Provision { namespace: String, claim: String, node: String },
}

#[derive(Clone, Default)]
struct Claims {
    bound: Vec<PersistentVolumeClaim>,
    delayed: Vec<PersistentVolumeClaim>,
}

fn claim_class(pvc: &PersistentVolumeClaim) -> String {
    pvc.spec.as_ref().and_then(|s| s.storage_class_name.clone()).unwrap_or_default()
}

fn is_fully_bound(pvc: &PersistentVolumeClaim) -> bool {
    let named = pvc.spec.as_ref().and_then(|s| s.volume_name.as_deref()).is_some_and(|v| !v.is_empty());
    // Upstream requires the PV controller's bind-completed annotation; the lab's PV
    // controller may record the binding as `status.phase: Bound` instead.
    let completed = pvc.metadata.annotations.as_ref().is_some_and(|a| a.contains_key(ANN_BIND_COMPLETED))
        || pvc.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Bound");
    named && completed
}

fn is_delay_binding(snap: &ClusterSnapshot, pvc: &PersistentVolumeClaim) -> bool {
    let class = claim_class(pvc);
    if class.is_empty() {
        return false;
    }
    snap.storage_classes
        .get(&class)
        .and_then(|sc| sc.volume_binding_mode.as_deref())
        .is_some_and(|m| m == "WaitForFirstConsumer")
}

fn pod_claim_names(pod: &PodInfo) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for v in pod.spec().and_then(|s| s.volumes.as_ref()).into_iter().flatten() {
        if let Some(c) = &v.persistent_volume_claim {
            out.push((c.claim_name.clone(), false));
        } else if v.ephemeral.is_some() {
            out.push((format!("{}-{}", pod.name, v.name), true));
        }
    }
    out
}

fn quantity_units(q: Option<&k8s_openapi::apimachinery::pkg::api::resource::Quantity>) -> i128 {
    q.and_then(|q| Quantity::parse(&q.0).ok()).map(|q| q.milli()).unwrap_or(0)
}

fn pv_matches_node(pv: &PersistentVolume, node: &NodeInfo) -> bool {
    match pv.spec.as_ref().and_then(|s| s.node_affinity.as_ref()).and_then(|a| a.required.as_ref()) {
        Some(ns) => node_selector_matches(ns, &node.name, &node.labels),
        None => true,
    }
}

fn bound_to_claim(pv: &PersistentVolume, pvc: &PersistentVolumeClaim) -> bool {
    pv.spec.as_ref().and_then(|s| s.claim_ref.as_ref()).is_some_and(|r| {
        r.name.as_deref() == pvc.metadata.name.as_deref()
            && r.namespace.as_deref().unwrap_or("default") == pvc.metadata.namespace.as_deref().unwrap_or("default")
    })
}

/// `FindMatchingVolume` on the scheduler path: the smallest available PV of the claim's
/// class that is big enough, has the access modes and volume mode, matches the claim's
/// selector and whose node affinity allows the node. A PV pre-bound to the claim wins.
fn find_matching_volume<'a>(
    snap: &'a ClusterSnapshot,
    pvc: &PersistentVolumeClaim,
    node: &NodeInfo,
    exclude: &[String],
) -> Option<&'a PersistentVolume> {
    let spec = pvc.spec.as_ref()?;
    let want = quantity_units(spec.resources.as_ref().and_then(|r| r.requests.as_ref()).and_then(|r| r.get("storage")));
    let class = claim_class(pvc);
    let selector = spec.selector.as_ref().map(|s| Selector::from_label_selector(Some(s)));
    let want_mode = spec.volume_mode.clone().unwrap_or_else(|| "Filesystem".into());
    let mut best: Option<(&PersistentVolume, i128)> = None;
    for (name, pv) in &snap.pvs {
        if exclude.contains(name) {
            continue;
        }
        let Some(pvs) = pv.spec.as_ref() else { continue };
        if pvs.claim_ref.is_some() && !bound_to_claim(pv, pvc) {
            continue;
        }
        let size = quantity_units(pvs.capacity.as_ref().and_then(|c| c.get("storage")));
        if size < want {
            continue;
        }
        if pvs.volume_mode.clone().unwrap_or_else(|| "Filesystem".into()) != want_mode {
            continue;
        }
        if pv.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let node_ok = pv_matches_node(pv, node);
        if bound_to_claim(pv, pvc) {
            return if node_ok { Some(pv) } else { None };
        }
        // [approximate] A PV without a status yet counts as Available.
        let phase = pv.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("Available");
        if phase != "Available" {
            continue;
        }
        if let Some(sel) = &selector {
            if !sel.matches(pv.metadata.labels.as_ref().unwrap_or(crate::scheduler::selectors::no_labels())) {
                continue;
            }
        }
        if pvs.storage_class_name.clone().unwrap_or_default() != class || !node_ok {
            continue;
        }
        let have: Vec<&String> = pvs.access_modes.iter().flatten().collect();
        if !spec.access_modes.iter().flatten().all(|m| have.contains(&m)) {
            continue;
        }
        if best.is_none_or(|(_, s)| s > size) {
            best = Some((pv, size));
        }
    }
    best.map(|(pv, _)| pv)
}

/// `FindPodVolumes` for one node: the conflict reasons (in upstream's order) and, when
/// there are none, what binding the pod's volumes on that node would take.
fn find_pod_volumes(
    snap: &ClusterSnapshot,
    claims: &Claims,
    node: &NodeInfo,
) -> (Vec<&'static str>, Vec<VolumeAction>) {
    let mut bound_ok = true;
    let mut pvs_found = true;
    for pvc in &claims.bound {
        let pv_name = pvc.spec.as_ref().and_then(|s| s.volume_name.clone()).unwrap_or_default();
        match snap.pvs.get(&pv_name) {
            None => pvs_found = false,
            Some(pv) => {
                if !pv_matches_node(pv, node) {
                    bound_ok = false;
                }
            }
        }
    }
    let mut unbound_ok = true;
    let mut actions = Vec::new();
    let mut chosen: Vec<String> = Vec::new();
    for pvc in &claims.delayed {
        let ns = pvc.metadata.namespace.clone().unwrap_or_else(|| "default".into());
        let name = pvc.metadata.name.clone().unwrap_or_default();
        if let Some(pv) = find_matching_volume(snap, pvc, node, &chosen) {
            let pv_name = pv.metadata.name.clone().unwrap_or_default();
            chosen.push(pv_name.clone());
            actions.push(VolumeAction::Bind { namespace: ns, claim: name, volume: pv_name });
            continue;
        }
        let class = snap.storage_classes.get(&claim_class(pvc));
        let provisioner = class.map(|c| c.provisioner.as_str()).unwrap_or("");
        let topology_ok = class.and_then(|c| c.allowed_topologies.as_ref()).is_none_or(|terms| {
            terms.is_empty()
                || terms.iter().any(|t| {
                    t.match_label_expressions
                        .iter()
                        .flatten()
                        .all(|e| node.labels.get(&e.key).is_some_and(|v| e.values.contains(v)))
                })
        });
        if provisioner.is_empty() || provisioner == NO_PROVISIONER || !topology_ok {
            unbound_ok = false;
            break;
        }
        actions.push(VolumeAction::Provision { namespace: ns, claim: name, node: node.name.clone() });
    }
    let mut reasons = Vec::new();
    if !bound_ok {
        reasons.push(ERR_REASON_NODE_CONFLICT);
    }
    if !unbound_ok {
        reasons.push(ERR_REASON_BIND_CONFLICT);
    }
    if !pvs_found {
        reasons.push(ERR_REASON_PV_NOT_EXIST);
    }
    (reasons, actions)
}

/// The actions PreBind takes for the chosen node (empty when all claims are bound).
pub fn volume_actions(snap: &ClusterSnapshot, pod: &PodInfo, node: &str) -> Vec<VolumeAction> {
    let Some(node) = snap.node_by_name(node) else { return Vec::new() };
    match classify(snap, pod) {
        Ok(Some(claims)) => find_pod_volumes(snap, &claims, node).1,
        _ => Vec::new(),
    }
}

/// `podHasPVCs` + `GetPodVolumeClaims`: Ok(None) when the pod has no claim.
fn classify(snap: &ClusterSnapshot, pod: &PodInfo) -> Result<Option<Claims>, Status> {
    let names = pod_claim_names(pod);
    if names.is_empty() {
        return Ok(None);
    }
    let mut claims = Claims::default();
    let mut immediate = false;
    for (name, ephemeral) in names {
        let Some(pvc) = snap.pvcs.get(&(pod.namespace.clone(), name.clone())) else {
            let msg = if ephemeral {
                format!("waiting for ephemeral volume controller to create the persistentvolumeclaim \"{name}\"")
            } else {
                format!("persistentvolumeclaim \"{name}\" not found")
            };
            return Err(Status::unresolvable(msg));
        };
        if pvc.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Lost") {
            let pv = pvc.spec.as_ref().and_then(|s| s.volume_name.clone()).unwrap_or_default();
            return Err(Status::unresolvable(format!(
                "persistentvolumeclaim \"{name}\" bound to non-existent persistentvolume \"{pv}\""
            )));
        }
        if pvc.metadata.deletion_timestamp.is_some() {
            return Err(Status::unresolvable(format!("persistentvolumeclaim \"{name}\" is being deleted")));
        }
        if is_fully_bound(pvc) {
            claims.bound.push(pvc.clone());
        } else if is_delay_binding(snap, pvc)
            && pvc.spec.as_ref().and_then(|s| s.volume_name.as_deref()).is_none_or(|v| v.is_empty())
        {
            claims.delayed.push(pvc.clone());
        } else {
            immediate = true;
        }
    }
    if immediate {
        return Err(Status::new(Code::UnschedulableAndUnresolvable, ERR_UNBOUND_IMMEDIATE));
    }
    Ok(Some(claims))
}

impl Plugin for VolumeBinding {
    fn name(&self) -> &'static str {
        "VolumeBinding"
    }
    fn as_pre_filter(&self) -> Option<&dyn PreFilterPlugin> {
        Some(self)
    }
    fn as_filter(&self) -> Option<&dyn FilterPlugin> {
        Some(self)
    }
    fn as_pre_score(&self) -> Option<&dyn PreScorePlugin> {
        Some(self)
    }
    fn as_score(&self) -> Option<&dyn ScorePlugin> {
        Some(self)
    }
    fn as_reserve(&self) -> Option<&dyn ReservePlugin> {
        Some(self)
    }
    fn queueing_hint(&self, pod: &PodInfo, event: &ClusterEvent) -> Option<QueueingHint> {
        let claim_event = |pvc: &PersistentVolumeClaim| {
            let same_ns = pvc.metadata.namespace.as_deref().unwrap_or("default") == pod.namespace;
            let wanted = pod_claim_names(pod).iter().any(|(n, _)| Some(n.as_str()) == pvc.metadata.name.as_deref());
            if same_ns && wanted {
                QueueingHint::Queue
            } else {
                QueueingHint::QueueSkip
            }
        };
        match event {
            ClusterEvent::PvcAdded(c) | ClusterEvent::PvcUpdated(c) => Some(claim_event(c)),
            ClusterEvent::PvAdded(_) | ClusterEvent::PvUpdated(_) | ClusterEvent::StorageClassAdded(_) => {
                Some(QueueingHint::Queue)
            }
            ClusterEvent::NodeAdded(_) => Some(QueueingHint::Queue),
            ClusterEvent::NodeUpdated { old, new } => Some(if old.metadata.labels != new.metadata.labels {
                QueueingHint::Queue
            } else {
                QueueingHint::QueueSkip
            }),
            _ => None,
        }
    }
}

impl PreFilterPlugin for VolumeBinding {
    fn pre_filter(&self, ctx: &Ctx, pod: &PodInfo) -> PreFilterOutput {
        match classify(ctx.snapshot, pod) {
            Ok(None) => PreFilterOutput::skip(),
            Ok(Some(claims)) => PreFilterOutput::ok(claims),
            Err(status) => PreFilterOutput::status(status),
        }
    }
}

impl FilterPlugin for VolumeBinding {
    fn filter(&self, state: Option<&dyn Any>, ctx: &Ctx, _: &PodInfo, node: &NodeInfo) -> Status {
        let Some(claims) = state.and_then(|s| s.downcast_ref::<Claims>()) else {
            return Status::error("reading \"VolumeBinding\" from cycleState: not found");
        };
        let (reasons, _) = find_pod_volumes(ctx.snapshot, claims, node);
        if reasons.is_empty() {
            return Status::success();
        }
        Status {
            code: Code::UnschedulableAndUnresolvable,
            reasons: reasons.into_iter().map(Into::into).collect(),
            plugin: "",
        }
    }
}

impl PreScorePlugin for VolumeBinding {
    /// Volume capacity scoring needs an alpha/beta gate that is off by default.
    fn pre_score(&self, _: &Ctx, _: &PodInfo, _: &[usize]) -> (Status, Option<Box<dyn StateData>>) {
        (Status::skip(), None)
    }
}

impl ScorePlugin for VolumeBinding {
    fn score(&self, _: Option<&dyn Any>, _: &Ctx, _: &PodInfo, _: &NodeInfo) -> i64 {
        0
    }
}

impl ReservePlugin for VolumeBinding {
    fn reserve(&self, _: &Ctx, _: &PodInfo, _: &str) -> Status {
        Status::success()
    }
}
