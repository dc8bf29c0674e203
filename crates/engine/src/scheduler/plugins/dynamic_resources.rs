//! DynamicResources (DRA, GA since v1.34 and in the default profile): allocates
//! ResourceClaims. The lab models no ResourceClaims, so only what a pod without claims
//! sees is faithful: PreFilter records an empty state and returns Skip, and PostFilter
//! answers "no new claims to deallocate" — the phrase every FailedScheduling message of a
//! current cluster carries before the preemption part. When an earlier PreFilter plugin
//! rejected the pod as unresolvable, this plugin's PreFilter never ran, its PostFilter
//! finds no state and fails with "not found", which also stops DefaultPreemption:
//! current clusters then print `... PersistentVolumeClaims. not found`.

use std::any::Any;

use crate::scheduler::framework::{
    Code, Ctx, NodeToStatus, Plugin, PostFilterCtx, PostFilterPlugin, PostFilterResult, PreFilterOutput,
    PreFilterPlugin, Status,
};
use crate::scheduler::snapshot::PodInfo;

pub struct DynamicResources;

#[derive(Clone)]
struct StateData {
    claims: usize,
}

impl Plugin for DynamicResources {
    fn name(&self) -> &'static str {
        "DynamicResources"
    }
    fn as_pre_filter(&self) -> Option<&dyn PreFilterPlugin> {
        Some(self)
    }
    fn as_post_filter(&self) -> Option<&dyn PostFilterPlugin> {
        Some(self)
    }
}

impl PreFilterPlugin for DynamicResources {
    fn pre_filter(&self, _: &Ctx, pod: &PodInfo) -> PreFilterOutput {
        let claims = pod.spec().and_then(|s| s.resource_claims.as_ref()).map(|c| c.len()).unwrap_or(0);
        if claims == 0 {
            return PreFilterOutput {
                status: Status::skip(),
                node_names: None,
                state: Some(Box::new(StateData { claims })),
            };
        }
        // [approximate] No ResourceClaim exists in the lab: report the first one missing.
        let first = pod.spec().and_then(|s| s.resource_claims.as_ref()).and_then(|c| c.first());
        let msg = match first.and_then(|c| c.resource_claim_name.clone()) {
            Some(name) => format!("resourceclaim.resource.k8s.io \"{name}\" not found"),
            None => format!("pod \"{}\": ResourceClaim not created yet", pod.key()),
        };
        PreFilterOutput {
            status: Status::unresolvable(msg),
            node_names: None,
            state: Some(Box::new(StateData { claims })),
        }
    }
}

impl PostFilterPlugin for DynamicResources {
    fn post_filter(
        &self,
        _: &mut PostFilterCtx,
        own_state: Option<&dyn Any>,
        _: &PodInfo,
        _: &NodeToStatus,
    ) -> (Status, Option<PostFilterResult>) {
        match own_state.and_then(|s| s.downcast_ref::<StateData>()) {
            None => (Status::new(Code::Error, "not found"), None),
            Some(s) if s.claims == 0 => (Status::unschedulable("no new claims to deallocate"), None),
            Some(_) => (Status::unschedulable("still not schedulable"), None),
        }
    }
}
