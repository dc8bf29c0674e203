//! DefaultBinder: binds the pod by creating a `Binding` (POST
//! `/api/v1/namespaces/<ns>/pods/<name>/binding`). The caller writes it through the
//! API server, which sets `spec.nodeName`.

use k8s_openapi::api::core::v1::{Binding, ObjectReference};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use crate::scheduler::framework::{BindPlugin, Plugin};
use crate::scheduler::snapshot::PodInfo;

pub struct DefaultBinder;

impl Plugin for DefaultBinder {
    fn name(&self) -> &'static str {
        "DefaultBinder"
    }
    fn as_bind(&self) -> Option<&dyn BindPlugin> {
        Some(self)
    }
}

impl BindPlugin for DefaultBinder {
    fn bind(&self, pod: &PodInfo, node: &str) -> Binding {
        Binding {
            metadata: ObjectMeta {
                namespace: Some(pod.namespace.clone()),
                name: Some(pod.name.clone()),
                uid: if pod.uid.is_empty() { None } else { Some(pod.uid.clone()) },
                ..Default::default()
            },
            target: ObjectReference { kind: Some("Node".into()), name: Some(node.to_string()), ..Default::default() },
        }
    }
}
