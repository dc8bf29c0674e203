//! ImageLocality: favours nodes that already have the pod's images. Each image present
//! counts its size scaled by the share of nodes that have it (so an image every node has
//! counts fully, a rare one little: spreading beats "node heating"); the sum is mapped
//! linearly from [23Mi, 1000Mi x containers] to [0, 100].

use std::any::Any;

use crate::scheduler::framework::{Ctx, Plugin, PreScorePlugin, ScorePlugin, StateData, Status, MAX_NODE_SCORE};
use crate::scheduler::snapshot::{NodeInfo, PodInfo};

pub struct ImageLocality;

const MB: i64 = 1024 * 1024;
pub const MIN_THRESHOLD: i64 = 23 * MB;
pub const MAX_CONTAINER_THRESHOLD: i64 = 1000 * MB;

/// `normalizedImageName`: an image without a tag gets `:latest`.
pub fn normalized_image_name(name: &str) -> String {
    let colon = name.rfind(':').map(|i| i as i64).unwrap_or(-1);
    let slash = name.rfind('/').map(|i| i as i64).unwrap_or(-1);
    if colon <= slash {
        format!("{name}:latest")
    } else {
        name.to_string()
    }
}

/// `calculatePriority`.
pub fn calculate_priority(sum: i64, containers: usize) -> i64 {
    let max_threshold = MAX_CONTAINER_THRESHOLD * containers.max(1) as i64;
    let sum = sum.clamp(MIN_THRESHOLD, max_threshold);
    MAX_NODE_SCORE * (sum - MIN_THRESHOLD) / (max_threshold - MIN_THRESHOLD)
}

/// The pod's images resolved once per cycle: interned id (if any node has it) and
/// `numNodes / totalNodes`.
#[derive(Clone)]
struct PodImages {
    images: Vec<(u32, f64)>,
    containers: usize,
}

impl Plugin for ImageLocality {
    fn name(&self) -> &'static str {
        "ImageLocality"
    }
    // Upstream computes the pod's image list inside Score; here it is done once in
    // PreScore (never skipped) so that Score is a lookup per image.
    fn as_pre_score(&self) -> Option<&dyn PreScorePlugin> {
        Some(self)
    }
    fn as_score(&self) -> Option<&dyn ScorePlugin> {
        Some(self)
    }
}

impl PreScorePlugin for ImageLocality {
    fn pre_score(&self, ctx: &Ctx, pod: &PodInfo, _: &[usize]) -> (Status, Option<Box<dyn StateData>>) {
        let total = ctx.snapshot.num_nodes().max(1) as f64;
        let mut images = Vec::new();
        let mut containers = 0;
        if let Some(spec) = pod.spec() {
            for c in spec.init_containers.iter().flatten().chain(spec.containers.iter()) {
                containers += 1;
                let name = normalized_image_name(c.image.as_deref().unwrap_or(""));
                if let Some(id) = ctx.snapshot.image_id(&name) {
                    images.push((id, ctx.snapshot.image_num_nodes(id) as f64 / total));
                }
            }
        }
        (Status::success(), Some(Box::new(PodImages { images, containers })))
    }
}

/// `sumImageScores` then `calculatePriority` for one node.
fn node_score(s: &PodImages, node: &NodeInfo) -> i64 {
    let mut sum = 0i64;
    for (id, spread) in &s.images {
        if let Some(size) = node.image_size(*id) {
            sum += (size as f64 * spread) as i64;
        }
    }
    calculate_priority(sum, s.containers)
}

impl ScorePlugin for ImageLocality {
    fn score(&self, state: Option<&dyn Any>, _: &Ctx, _: &PodInfo, node: &NodeInfo) -> i64 {
        let Some(s) = state.and_then(|s| s.downcast_ref::<PodImages>()) else { return 0 };
        node_score(s, node)
    }

    fn score_nodes(&self, state: Option<&dyn Any>, ctx: &Ctx, _: &PodInfo, nodes: &[usize], out: &mut [i64]) {
        let Some(s) = state.and_then(|s| s.downcast_ref::<PodImages>()) else {
            out.fill(0);
            return;
        };
        // No node has any of the pod's images: every node gets the same score.
        if s.images.is_empty() {
            out.fill(calculate_priority(0, s.containers));
            return;
        }
        for (o, &ni) in out.iter_mut().zip(nodes) {
            *o = node_score(s, ctx.snapshot.node(ni));
        }
    }
}
