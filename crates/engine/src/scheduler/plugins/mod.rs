//! The in-tree plugins of the default profile, one file each, named as upstream.

pub mod balanced_allocation;
pub mod default_binder;
pub mod default_preemption;
pub mod dynamic_resources;
pub mod image_locality;
pub mod inter_pod_affinity;
pub mod node_affinity;
pub mod node_name;
pub mod node_ports;
pub mod node_resources_fit;
pub mod node_unschedulable;
pub mod pod_topology_spread;
pub mod priority_sort;
pub mod scheduling_gates;
pub mod taint_toleration;
pub mod unmodeled;
pub mod volume_binding;

use super::framework::MAX_NODE_SCORE;

/// `helper.DefaultNormalizeScore`: scales scores to 0..max by the highest one; with
/// `reverse`, a high raw score becomes a low final score. All zeros stay 0 (or become
/// `max` when reversed).
pub fn default_normalize(max: i64, reverse: bool, scores: &mut [i64]) {
    let highest = scores.iter().copied().max().unwrap_or(0).max(0);
    if highest == 0 {
        if reverse {
            scores.iter_mut().for_each(|s| *s = max);
        }
        return;
    }
    for s in scores.iter_mut() {
        let mut v = max * *s / highest;
        if reverse {
            v = max - v;
        }
        *s = v;
    }
}

/// `MAX_NODE_SCORE` for plugins that normalize to the full range.
pub const MAX: i64 = MAX_NODE_SCORE;
