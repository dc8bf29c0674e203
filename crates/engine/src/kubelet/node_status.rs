//! Node status (upstream's `pkg/kubelet/nodestatus` and `kubelet_node_status.go`): the
//! kubelet posts its Node's status (images, conditions) when it changes and at least every
//! `nodeStatusReportFrequency`; every post is a heartbeat.

use super::Kubelet;
use crate::apiserver::{self, ApiRequest, Body, Caller, Verb};
use crate::object::{resource_for, Object};
use crate::sim::{object_ref, StepBuilder};
use crate::trace::{Component, Detail, Phase, WorkDetail};
use crate::world::World;
use k8s_openapi::api::core::v1::Node;

/// `nodeStatusUpdateFrequency`: how often the kubelet computes its node status.
pub const NODE_STATUS_UPDATE_FREQUENCY_MS: u64 = 10_000;
/// `nodeStatusReportFrequency`: unchanged node status is still posted this often.
pub const NODE_STATUS_REPORT_FREQUENCY_MS: u64 = 300_000;

/// A routine write of the heartbeat: one that succeeds leaves no step (the API server
/// records none for it, and this drops any its callees recorded); a refused one stays.
fn quietly(core: &mut World, write: impl FnOnce(&mut World) -> bool) {
    let steps = core.steps.len();
    if core.routine(write) {
        core.steps.truncate(steps);
    }
}

/// Sets every node condition's `lastHeartbeatTime` to `now_ms` (a post of node status).
fn stamp_heartbeat(node: &mut Node, now_ms: u64) {
    let stamp = apiserver::timestamp(now_ms);
    for c in node.status.iter_mut().flat_map(|s| s.conditions.iter_mut().flatten()) {
        c.last_heartbeat_time = Some(stamp.clone());
    }
}

/// The conditions the kubelet sets, in the order its status setters run
/// (`MemoryPressureCondition`, `DiskPressureCondition`, `PIDPressureCondition`,
/// `ReadyCondition` in `pkg/kubelet/nodestatus/setters.go`): type, status, reason, message,
/// and the event recorded when the status changes.
const HEALTHY: [(&str, &str, &str, &str, &str); 4] = [
    (
        "MemoryPressure",
        "False",
        "KubeletHasSufficientMemory",
        "kubelet has sufficient memory available",
        "NodeHasSufficientMemory",
    ),
    ("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", "NodeHasNoDiskPressure"),
    ("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available", "NodeHasSufficientPID"),
    ("Ready", "True", "KubeletReady", "kubelet is posting ready status", "NodeReady"),
];

impl Kubelet {
    /// The kubelet process starts (after `lab start kubelet` or a boot): it records
    /// `Starting` ("Starting kubelet.") and `NodeAllocatableEnforced`, then posts its node
    /// status at once: each condition the node-lifecycle controller set to Unknown while it
    /// was away gets the kubelet's own value again (a new lastTransitionTime, and the event
    /// `Node <node> status is now: <reason>` the setters record on a change), so the node is
    /// Ready again and the controller lifts its `unreachable` taints.
    pub(super) fn boot(&mut self, core: &mut World) {
        self.node_event(core, "Normal", "Starting", "Starting kubelet.".into());
        self.node_event(core, "Normal", "NodeAllocatableEnforced", "Updated Node Allocatable limit across pods".into());
        self.post_conditions(core, "starts and posts its node status");
    }

    /// Whether a condition the kubelet sets is stored as Unknown (the node-lifecycle
    /// controller's doing while the kubelet was away, or while its first post after a start
    /// was refused).
    fn conditions_unknown(&self, core: &World) -> bool {
        self.node_ref(core)
            .and_then(|n| n.status.as_ref())
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|cs| cs.iter().any(|c| c.status == "Unknown" && HEALTHY.iter().any(|h| h.0 == c.type_)))
    }

    /// Posts the node's conditions as the kubelet sees them: each one whose status changes
    /// gets a new lastTransitionTime and the event `Node <node> status is now: <reason>`.
    fn post_conditions(&mut self, core: &mut World, what: &str) {
        let Some(node) = self.node_obj(core) else { return };
        let mut node = std::sync::Arc::unwrap_or_clone(node);
        let stamp = apiserver::timestamp(core.now);
        let mut changed = Vec::new();
        let conds = node.status.get_or_insert_with(Default::default).conditions.get_or_insert_with(Vec::new);
        for (type_, status, reason, message, event) in HEALTHY {
            let (status, reason, message, event) = if type_ == "DiskPressure" && self.disk_pressure_reported {
                ("True", "KubeletHasDiskPressure", "kubelet has disk pressure", "NodeHasDiskPressure")
            } else {
                (status, reason, message, event)
            };
            let c = match conds.iter_mut().position(|c| c.type_ == type_) {
                Some(i) => &mut conds[i],
                None => {
                    conds.push(k8s_openapi::api::core::v1::NodeCondition { type_: type_.into(), ..Default::default() });
                    conds.last_mut().expect("just pushed")
                }
            };
            if c.status != status {
                c.status = status.into();
                c.last_transition_time = Some(stamp.clone());
                changed.push(event);
            }
            c.reason = Some(reason.into());
            c.message = Some(message.into());
        }
        for event in &changed {
            let text = format!("Node {} status is now: {event}", self.node);
            self.node_event(core, "Normal", event, text);
        }
        let ready = if changed.contains(&"NodeReady") { ": Ready=True" } else { "" };
        self.write_node_status(core, node, format!("kubelet on {} {what}{ready}", self.node));
    }

    /// The kubelet's two heartbeats, every 10 s: it renews its Lease `kube-node-lease/<node>`
    /// (creating it first if it is missing, owned by the Node), and it posts its node status
    /// when `nodeStatusReportFrequency` (5 min) has passed since the last post (changes are
    /// posted when they happen). Both are routine writes ([`Core::routine`]): stored and
    /// watched like any other, they keep no run from settling, and a write that succeeds is
    /// not a step of the trace (a run would otherwise show one every 10 s per node); a
    /// refused one is.
    pub(super) fn heartbeat(&mut self, core: &mut World) {
        quietly(core, |core| self.renew_lease(core));
        if self.conditions_unknown(core) {
            // The status sync (every nodeStatusUpdateFrequency) finds the stored conditions
            // differ from its own and posts them.
            self.post_conditions(core, "posts its node status");
            return;
        }
        if core.now >= self.last_status_report_ms + NODE_STATUS_REPORT_FREQUENCY_MS {
            if let Some(node) = self.node_obj(core) {
                let mut node = std::sync::Arc::unwrap_or_clone(node);
                stamp_heartbeat(&mut node, core.now);
                self.last_status_report_ms = core.now;
                if let Some(req) = self.node_status_request(&node) {
                    quietly(core, |core| apiserver::handle(core, req).ok());
                }
            }
        }
    }

    /// Writes `node.status.images` after a pull (and once DiskPressure starts).
    pub(super) fn update_node_images(&mut self, core: &mut World) {
        let Some(node) = self.node_obj(core) else { return };
        let mut node = std::sync::Arc::unwrap_or_clone(node);
        let list: Vec<k8s_openapi::api::core::v1::ContainerImage> = self
            .images
            .node_status_images()
            .into_iter()
            .map(|(names, size)| k8s_openapi::api::core::v1::ContainerImage {
                names: Some(names),
                size_bytes: Some(size as i64),
            })
            .collect();
        let status = node.status.get_or_insert_with(Default::default);
        status.images = Some(list);
        self.write_node_status(core, node, "kubelet reports the node's images (node.status.images)".into());
    }

    pub(super) fn write_node_status(&mut self, core: &mut World, mut node: Node, summary: String) {
        let Some(resource) = resource_for("v1", "Node") else { return };
        // Every post of node status is a heartbeat: each condition's lastHeartbeatTime is now.
        stamp_heartbeat(&mut node, core.now);
        self.last_status_report_ms = core.now;
        let obj = Object::Node(std::sync::Arc::new(node.clone()));
        core.record(
            StepBuilder::new(
                Phase::Status,
                Component::Kubelet,
                Component::ApiServer,
                summary,
                Detail::Work(WorkDetail {
                    topic: "status".into(),
                    facts: vec![],
                    tables: vec![],
                    changes: vec![],
                    explanation: "The kubelet keeps its Node's status current: images on the node (used by the scheduler's ImageLocality score) and conditions.".into(),
                }),
            )
            .node(self.node.clone())
            .object(Some(object_ref(&obj))),
        );
        apiserver::handle(
            core,
            ApiRequest {
                caller: Caller::kubelet(&self.node),
                verb: Verb::Update,
                resource,
                namespace: None,
                name: Some(self.node.clone()),
                subresource: Some("status".into()),
                body: Some(Body::Object(obj)),
                verbose: false,
                file: None,
            },
        );
    }

    fn node_status_request(&self, node: &Node) -> Option<ApiRequest> {
        Some(ApiRequest {
            caller: Caller::kubelet(&self.node),
            verb: Verb::Update,
            resource: resource_for("v1", "Node")?,
            namespace: None,
            name: Some(self.node.clone()),
            subresource: Some("status".into()),
            body: Some(Body::Object(Object::Node(std::sync::Arc::new(node.clone())))),
            verbose: false,
            file: None,
        })
    }
}
