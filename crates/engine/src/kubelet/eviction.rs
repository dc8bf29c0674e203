//! The eviction manager (upstream's `pkg/kubelet/eviction`): under a node pressure it reports
//! the condition and evicts one pod per monitoring interval; its admit handler reads the same
//! pressure (`pressure`).

use super::qos::QosClass;
use super::{Kubelet, PodWorker};
use crate::apiserver;
use crate::sim::{Core, Task};
use crate::trace::Phase;
use crate::world::World;

/// The eviction manager's monitoring interval.
pub const EVICTION_MONITORING_MS: u64 = 10_000;
/// Grace period of a pod evicted for a hard eviction threshold.
pub const EVICTION_GRACE_S: i64 = 1;
/// Ephemeral-storage eviction threshold kind's kubelet uses (`nodefs.available<10%`).
pub const NODEFS_EVICTION_PERCENT: u64 = 10;
/// A node's ephemeral storage when its status does not say.
pub const DEFAULT_NODE_EPHEMERAL_BYTES: u64 = 100 * 1024 * 1024 * 1024;

impl Kubelet {
    /// Pressure conditions the eviction manager reports.
    pub(super) fn pressure(&self, core: &Core) -> Vec<String> {
        match &self.config.faults.disk_pressure {
            Some(dp) if core.now >= dp.since_ms => vec!["DiskPressure".to_string()],
            _ => vec![],
        }
    }

    pub(super) fn eviction(&mut self, core: &mut World) {
        self.ensure_init(core);
        let Some(dp) = self.config.faults.disk_pressure.clone() else { return };
        if core.now < dp.since_ms {
            core.after(dp.since_ms - core.now, Task::periodic(self.target(), "evict"));
            return;
        }
        let node = self.node_obj(core);
        let cap = node
            .as_ref()
            .and_then(|n| n.status.as_ref())
            .and_then(|s| s.capacity.as_ref())
            .and_then(|c| c.get("ephemeral-storage"))
            .and_then(|q| crate::quantity::Quantity::parse(&q.0).ok())
            .map(|q| q.value().max(0) as u64)
            .unwrap_or(DEFAULT_NODE_EPHEMERAL_BYTES);
        let threshold = cap / 100 * NODEFS_EVICTION_PERCENT;
        let available_ki = cap / 100 * dp.available_percent / 1024;
        if !self.disk_pressure_reported {
            self.disk_pressure_reported = true;
            if let Some(mut n) = node.as_deref().cloned() {
                let st = n.status.get_or_insert_with(Default::default);
                let conds = st.conditions.get_or_insert_with(Vec::new);
                let ts = apiserver::timestamp(core.now);
                let cond = k8s_openapi::api::core::v1::NodeCondition {
                    type_: "DiskPressure".into(),
                    status: "True".into(),
                    reason: Some("KubeletHasDiskPressure".into()),
                    message: Some("kubelet has disk pressure".into()),
                    last_heartbeat_time: Some(ts.clone()),
                    last_transition_time: Some(ts),
                };
                match conds.iter_mut().find(|c| c.type_ == "DiskPressure") {
                    Some(c) => *c = cond,
                    None => conds.push(cond),
                }
                self.write_node_status(core, n, format!("kubelet reports DiskPressure=True on {}", self.node));
            }
            let node_name = self.node.clone();
            self.node_event(
                core,
                "Normal",
                "NodeHasDiskPressure",
                format!("Node {node_name} status is now: NodeHasDiskPressure"),
            );
            self.node_event(core, "Warning", "EvictionThresholdMet", "Attempting to reclaim ephemeral-storage".into());
        }
        // One pod per monitoring interval: BestEffort pods first (they use more than their
        // zero request), lowest priority first.
        let mut candidates: Vec<(i32, String)> = self
            .pods
            .values()
            .filter(|w| {
                w.admitted == Some(true)
                    && w.terminal.is_none()
                    && w.evicted.is_none()
                    && !w.deleting
                    && w.qos == QosClass::BestEffort
            })
            .map(|w| (w.pod.spec.as_ref().and_then(|s| s.priority).unwrap_or(0), w.key.clone()))
            .collect();
        crate::sort::sort(&mut candidates);
        if let Some((_, key)) = candidates.first().cloned() {
            if let Some(mut w) = self.pods.remove(&key) {
                let mut msg = format!(
                    "The node was low on resource: ephemeral-storage. Threshold quantity: {threshold}, available: {available_ki}Ki. "
                );
                for c in w.ctrs[w.n_init..].iter().filter(|c| c.running()) {
                    let used = if c.process.as_ref().is_some_and(|p| !p.listeners.is_empty()) { 24 } else { 8 };
                    msg.push_str(&format!(
                        "Container {} was using {used}Ki, request is 0, has larger consumption of ephemeral-storage. ",
                        c.name
                    ));
                }
                self.event(core, &w, None, "Warning", "Evicted", msg.clone(), Phase::Kubelet);
                w.evicted = Some(msg);
                for i in (0..w.ctrs.len()).rev() {
                    if w.ctrs[i].running() {
                        let name = w.ctrs[i].name.clone();
                        self.kill_terminating(core, &mut w, i, format!("Stopping container {name}"), EVICTION_GRACE_S);
                    }
                }
                w.terminal = Some("Failed".into());
                self.update_status(core, &mut w);
                self.pods.insert(key.clone(), w);
            }
        }
        core.after(EVICTION_MONITORING_MS, Task::periodic(self.target(), "evict"));
    }

    /// After an evicted pod's containers stopped: remove its sandbox.
    pub(super) fn finish_evicted(&mut self, core: &mut World, w: &mut PodWorker) {
        if w.evicted.is_some() && !w.ctrs.iter().any(|c| c.running()) {
            self.stop_sandbox(core, w);
            self.update_status(core, w);
        }
    }
}
