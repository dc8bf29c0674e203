//! The node lease (upstream's `pkg/kubelet/nodelease`, the `component-helpers` lease
//! controller): the Lease `kube-node-lease/<node>` the kubelet creates and renews as its
//! heartbeat.

use super::Kubelet;
use crate::apiserver::{self, ApiRequest, Body, Caller, Verb};
use crate::object::{resource_for, Object};
use crate::world::World;

/// `nodeLeaseDurationSeconds`: the Lease's `spec.leaseDurationSeconds`.
pub const NODE_LEASE_DURATION_S: i32 = 40;
/// The Lease is renewed every `nodeLeaseDurationSeconds` × 0.25 (`renewIntervalFraction`).
pub const NODE_LEASE_RENEW_INTERVAL_MS: u64 = 10_000;
/// The namespace of the node Leases.
pub const NODE_LEASE_NAMESPACE: &str = "kube-node-lease";

impl Kubelet {
    pub(super) fn renew_lease(&self, core: &mut World) -> bool {
        let Some(resource) = resource_for("coordination.k8s.io/v1", "Lease") else { return false };
        let key = resource.etcd_key(Some(NODE_LEASE_NAMESPACE), &self.node);
        let renew = crate::controllers::util::micro_time(core.now);
        let (verb, name, body) = match core.store.get(&key) {
            Some((lease, _)) => {
                // A Lease has no typed variant: its spec is JSON already, changed in place.
                let Object::Other(mut u) = lease.clone() else { return false };
                let spec = std::sync::Arc::make_mut(&mut u).rest.entry("spec").or_insert_with(|| serde_json::json!({}));
                spec["renewTime"] = serde_json::json!(renew);
                (Verb::Update, Some(self.node.clone()), Body::Object(Object::Other(u)))
            }
            None => {
                let Some(node) = self.node_obj(core) else { return false };
                let v = serde_json::json!({
                    "apiVersion": "coordination.k8s.io/v1",
                    "kind": "Lease",
                    "metadata": {
                        "name": self.node,
                        "namespace": NODE_LEASE_NAMESPACE,
                        "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": self.node,
                            "uid": node.metadata.uid.clone().unwrap_or_default()}],
                    },
                    "spec": {"holderIdentity": self.node, "leaseDurationSeconds": NODE_LEASE_DURATION_S, "renewTime": renew},
                });
                // Sent as an object, as client-go sends a typed Lease.
                let Ok(lease) = Object::from_json("coordination.k8s.io/v1", "Lease", v) else { return false };
                (Verb::Create, None, Body::Object(lease))
            }
        };
        let req = ApiRequest {
            caller: Caller::kubelet(&self.node),
            verb,
            resource,
            namespace: Some(NODE_LEASE_NAMESPACE.into()),
            name,
            subresource: None,
            body: Some(body),
            verbose: false,
            file: None,
        };
        apiserver::handle(core, req).ok()
    }
}
