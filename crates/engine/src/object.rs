//! Kubernetes objects as the engine holds them: upstream's own types (k8s-openapi, v1.37)
//! for the kinds the engine reasons about, and an unstructured form for every other kind,
//! which is stored and reported but has no controller.

use k8s_openapi::api::admissionregistration::v1::{MutatingWebhookConfiguration, ValidatingWebhookConfiguration};
use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::{
    ConfigMap, Event, LimitRange, Namespace, Node, PersistentVolume, PersistentVolumeClaim, Pod, ResourceQuota, Secret,
    Service, ServiceAccount,
};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use k8s_openapi::api::scheduling::v1::PriorityClass;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Where a kind lives in the API: its group, version, plural resource name, scope and
/// etcd key prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceInfo {
    pub kind: &'static str,
    /// `""` for the core group.
    pub group: &'static str,
    pub version: &'static str,
    pub plural: &'static str,
    pub namespaced: bool,
    /// The part of the etcd key after `/registry/`.
    pub etcd_prefix: &'static str,
}

impl ResourceInfo {
    /// `v1` or `apps/v1`.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// Whether `api_version` is [`ResourceInfo::api_version`] (compared without building it).
    pub fn is_api_version(&self, api_version: &str) -> bool {
        if self.group.is_empty() {
            api_version == self.version
        } else {
            api_version
                .strip_prefix(self.group)
                .and_then(|rest| rest.strip_prefix('/'))
                .is_some_and(|v| v == self.version)
        }
    }

    /// The group-qualified resource (`pods`, `deployments.apps`), as Status messages print it.
    pub fn qualified_resource(&self) -> String {
        if self.group.is_empty() {
            self.plural.to_string()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }

    /// The group-qualified kind (`Pod`, `Deployment.apps`), as Invalid messages print it.
    pub fn qualified_kind(&self) -> String {
        if self.group.is_empty() {
            self.kind.to_string()
        } else {
            format!("{}.{}", self.kind, self.group)
        }
    }

    /// The REST path of the collection (`/api/v1/namespaces/default/pods`).
    pub fn collection_path(&self, namespace: Option<&str>) -> String {
        // Built by appending (paths are made for every request and step).
        let ns = namespace.filter(|_| self.namespaced);
        let mut p = String::with_capacity(64);
        if self.group.is_empty() {
            p.push_str("/api/");
        } else {
            p.push_str("/apis/");
            p.push_str(self.group);
            p.push('/');
        }
        p.push_str(self.version);
        if let Some(ns) = ns {
            p.push_str("/namespaces/");
            p.push_str(ns);
        }
        p.push('/');
        p.push_str(self.plural);
        p
    }

    /// The key prefix a list reads: `/registry/<prefix>/<namespace>/` for a namespaced kind
    /// in one namespace, `/registry/<prefix>/` for all namespaces or a cluster-scoped kind.
    pub fn list_prefix(&self, namespace: Option<&str>) -> String {
        self.etcd_key(namespace, "")
    }

    /// The etcd key of an object of this kind.
    pub fn etcd_key(&self, namespace: Option<&str>, name: &str) -> String {
        let mut key = String::with_capacity(64);
        key.push_str("/registry/");
        key.push_str(self.etcd_prefix);
        key.push('/');
        if let Some(ns) = namespace.filter(|_| self.namespaced) {
            key.push_str(ns);
            key.push('/');
        }
        key.push_str(name);
        key
    }
}

macro_rules! ri {
    ($kind:literal, $group:literal, $version:literal, $plural:literal, $ns:literal, $prefix:literal) => {
        ResourceInfo {
            kind: $kind,
            group: $group,
            version: $version,
            plural: $plural,
            namespaced: $ns,
            etcd_prefix: $prefix,
        }
    };
}

/// Every kind the API server of the lab knows (built-in kinds of v1.37). A kind that is not
/// here is unknown to the server, as a custom resource without its CRD would be.
pub const RESOURCES: &[ResourceInfo] = &[
    ri!("Pod", "", "v1", "pods", true, "pods"),
    ri!("Namespace", "", "v1", "namespaces", false, "namespaces"),
    ri!("Node", "", "v1", "nodes", false, "minions"),
    ri!("Service", "", "v1", "services", true, "services/specs"),
    ri!("ConfigMap", "", "v1", "configmaps", true, "configmaps"),
    ri!("Secret", "", "v1", "secrets", true, "secrets"),
    ri!("ServiceAccount", "", "v1", "serviceaccounts", true, "serviceaccounts"),
    ri!("LimitRange", "", "v1", "limitranges", true, "limitranges"),
    ri!("ResourceQuota", "", "v1", "resourcequotas", true, "resourcequotas"),
    ri!("PersistentVolumeClaim", "", "v1", "persistentvolumeclaims", true, "persistentvolumeclaims"),
    ri!("PersistentVolume", "", "v1", "persistentvolumes", false, "persistentvolumes"),
    ri!("Event", "", "v1", "events", true, "events"),
    ri!("ReplicationController", "", "v1", "replicationcontrollers", true, "controllers"),
    ri!("Endpoints", "", "v1", "endpoints", true, "services/endpoints"),
    ri!("PodTemplate", "", "v1", "podtemplates", true, "podtemplates"),
    ri!("Deployment", "apps", "v1", "deployments", true, "deployments"),
    ri!("ReplicaSet", "apps", "v1", "replicasets", true, "replicasets"),
    ri!("StatefulSet", "apps", "v1", "statefulsets", true, "statefulsets"),
    ri!("DaemonSet", "apps", "v1", "daemonsets", true, "daemonsets"),
    ri!("ControllerRevision", "apps", "v1", "controllerrevisions", true, "controllerrevisions"),
    ri!("Job", "batch", "v1", "jobs", true, "jobs"),
    ri!("CronJob", "batch", "v1", "cronjobs", true, "cronjobs"),
    ri!("HorizontalPodAutoscaler", "autoscaling", "v2", "horizontalpodautoscalers", true, "horizontalpodautoscalers"),
    // autoscaling/v1 is served too (kubernetes.io's HPA examples use it).
    ri!("HorizontalPodAutoscaler", "autoscaling", "v1", "horizontalpodautoscalers", true, "horizontalpodautoscalers"),
    ri!("PodDisruptionBudget", "policy", "v1", "poddisruptionbudgets", true, "poddisruptionbudgets"),
    ri!("EndpointSlice", "discovery.k8s.io", "v1", "endpointslices", true, "endpointslices"),
    ri!("Ingress", "networking.k8s.io", "v1", "ingresses", true, "ingress"),
    ri!("IngressClass", "networking.k8s.io", "v1", "ingressclasses", false, "ingressclasses"),
    ri!("NetworkPolicy", "networking.k8s.io", "v1", "networkpolicies", true, "networkpolicies"),
    ri!("Role", "rbac.authorization.k8s.io", "v1", "roles", true, "roles"),
    ri!("ClusterRole", "rbac.authorization.k8s.io", "v1", "clusterroles", false, "clusterroles"),
    ri!("RoleBinding", "rbac.authorization.k8s.io", "v1", "rolebindings", true, "rolebindings"),
    ri!("ClusterRoleBinding", "rbac.authorization.k8s.io", "v1", "clusterrolebindings", false, "clusterrolebindings"),
    ri!(
        "MutatingWebhookConfiguration",
        "admissionregistration.k8s.io",
        "v1",
        "mutatingwebhookconfigurations",
        false,
        "mutatingwebhookconfigurations"
    ),
    ri!(
        "ValidatingWebhookConfiguration",
        "admissionregistration.k8s.io",
        "v1",
        "validatingwebhookconfigurations",
        false,
        "validatingwebhookconfigurations"
    ),
    ri!("PriorityClass", "scheduling.k8s.io", "v1", "priorityclasses", false, "priorityclasses"),
    ri!("StorageClass", "storage.k8s.io", "v1", "storageclasses", false, "storageclasses"),
    ri!("CSIDriver", "storage.k8s.io", "v1", "csidrivers", false, "csidrivers"),
    ri!("RuntimeClass", "node.k8s.io", "v1", "runtimeclasses", false, "runtimeclasses"),
    ri!("Lease", "coordination.k8s.io", "v1", "leases", true, "leases"),
    ri!(
        "CustomResourceDefinition",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        false,
        "apiextensions.k8s.io/customresourcedefinitions"
    ),
    ri!(
        "VolumeSnapshot",
        "snapshot.storage.k8s.io",
        "v1",
        "volumesnapshots",
        true,
        "snapshot.storage.k8s.io/volumesnapshots"
    ),
    ri!(
        "VolumeSnapshotClass",
        "snapshot.storage.k8s.io",
        "v1",
        "volumesnapshotclasses",
        false,
        "snapshot.storage.k8s.io/volumesnapshotclasses"
    ),
];

/// Finds a kind by its `apiVersion` and `kind`.
pub fn resource_for(api_version: &str, kind: &str) -> Option<&'static ResourceInfo> {
    RESOURCES.iter().find(|r| r.kind == kind && r.is_api_version(api_version))
}

/// Finds a kind by name alone (for messages and lookups where the version is known).
pub fn resource_for_kind(kind: &str) -> Option<&'static ResourceInfo> {
    RESOURCES.iter().find(|r| r.kind == kind)
}

/// An object of a kind the engine has no type for: its metadata and the rest as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unstructured {
    #[serde(rename = "apiVersion")]
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(flatten)]
    pub rest: serde_json::Map<String, serde_json::Value>,
}

macro_rules! objects {
    ($($variant:ident),* $(,)?) => {
        /// Any object the engine stores. Each variant holds its value in an `Arc`, so a copy
        /// of an object is a shared handle; a writer goes through `Arc::make_mut`, which copies
        /// the value only while another handle still shares it (copy on write: a copy never
        /// sees a later change to the original, as with a plain value).
        #[derive(Clone, Debug)]
        pub enum Object {
            $($variant(Arc<$variant>),)*
            Other(Arc<Unstructured>),
        }

        /// Equal values; two handles of one shared value are equal without comparing it
        /// (an admission plugin that changed nothing left the object it was given shared).
        impl PartialEq for Object {
            fn eq(&self, other: &Object) -> bool {
                match (self, other) {
                    $((Object::$variant(a), Object::$variant(b)) => Arc::ptr_eq(a, b) || a == b,)*
                    (Object::Other(a), Object::Other(b)) => Arc::ptr_eq(a, b) || a == b,
                    _ => false,
                }
            }
        }

        impl Object {
            pub fn kind(&self) -> &str {
                match self {
                    $(Object::$variant(_) => stringify!($variant),)*
                    Object::Other(u) => &u.kind,
                }
            }

            /// `v1`, `apps/v1`, ...
            pub fn api_version(&self) -> String {
                self.api_version_str().to_string()
            }

            /// [`Object::api_version`] without a copy.
            pub fn api_version_str(&self) -> &str {
                match self {
                    $(Object::$variant(_) => <$variant as k8s_openapi::Resource>::API_VERSION,)*
                    Object::Other(u) => &u.api_version,
                }
            }

            pub fn meta(&self) -> &ObjectMeta {
                match self {
                    $(Object::$variant(o) => &o.metadata,)*
                    Object::Other(u) => &u.metadata,
                }
            }

            pub fn meta_mut(&mut self) -> &mut ObjectMeta {
                match self {
                    $(Object::$variant(o) => &mut Arc::make_mut(o).metadata,)*
                    Object::Other(u) => &mut Arc::make_mut(u).metadata,
                }
            }

            /// The object as JSON, with `apiVersion` and `kind` first.
            pub fn to_json(&self) -> serde_json::Value {
                let (api_version, body) = match self {
                    $(Object::$variant(o) => (
                        <$variant as k8s_openapi::Resource>::API_VERSION.to_string(),
                        serde_json::to_value(&**o),
                    ),)*
                    Object::Other(u) => (u.api_version.clone(), serde_json::to_value(&**u)),
                };
                let mut out = serde_json::Map::new();
                out.insert("apiVersion".into(), api_version.into());
                out.insert("kind".into(), self.kind().to_string().into());
                if let Ok(serde_json::Value::Object(m)) = body {
                    for (k, v) in m {
                        if k != "apiVersion" && k != "kind" {
                            out.insert(k, v);
                        }
                    }
                }
                serde_json::Value::Object(out)
            }

            /// Builds an object from JSON of a known `apiVersion`/`kind`; kinds without a
            /// type become [`Object::Other`]. Unknown fields are ignored here (strict
            /// decoding, which reports them, happens in `decode`).
            pub fn from_json(api_version: &str, kind: &str, value: serde_json::Value) -> Result<Object, serde_json::Error> {
                Ok(match kind {
                    $(stringify!($variant) if api_version == <$variant as k8s_openapi::Resource>::API_VERSION => {
                        Object::$variant(Arc::new(crate::decode::from_value(&value)?))
                    })*
                    _ => Object::Other(Arc::new(crate::decode::from_value(&value)?)),
                })
            }
        }

        $(
            impl From<$variant> for Object {
                fn from(o: $variant) -> Object {
                    Object::$variant(Arc::new(o))
                }
            }
        )*
    };
}

objects!(
    Pod,
    Namespace,
    Node,
    Service,
    ConfigMap,
    Secret,
    ServiceAccount,
    LimitRange,
    ResourceQuota,
    PersistentVolumeClaim,
    PersistentVolume,
    Event,
    Deployment,
    ReplicaSet,
    DaemonSet,
    StatefulSet,
    ControllerRevision,
    Job,
    CronJob,
    EndpointSlice,
    Role,
    ClusterRole,
    RoleBinding,
    ClusterRoleBinding,
    MutatingWebhookConfiguration,
    ValidatingWebhookConfiguration,
    PriorityClass,
);

impl Object {
    pub fn name(&self) -> &str {
        self.meta().name.as_deref().unwrap_or("")
    }

    pub fn namespace(&self) -> Option<&str> {
        self.meta().namespace.as_deref()
    }

    pub fn resource(&self) -> Option<&'static ResourceInfo> {
        resource_for(self.api_version_str(), self.kind())
    }

    /// The object as YAML text, as `kubectl get -o yaml` would print it.
    pub fn to_yaml(&self) -> String {
        crate::yaml::to_string(&self.to_json())
    }

    pub fn as_pod(&self) -> Option<&Pod> {
        match self {
            Object::Pod(p) => Some(p),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_prefixes() {
        let pods = resource_for("v1", "Pod").unwrap();
        let nodes = resource_for("v1", "Node").unwrap();
        assert_eq!(pods.list_prefix(Some("default")), "/registry/pods/default/");
        assert_eq!(pods.list_prefix(None), "/registry/pods/");
        assert_eq!(nodes.list_prefix(Some("default")), "/registry/minions/");
        assert_eq!(nodes.list_prefix(None), "/registry/minions/");
    }

    #[test]
    fn keys_paths_and_round_trip() {
        let pod = resource_for("v1", "Pod").unwrap();
        assert_eq!(pod.etcd_key(Some("default"), "web"), "/registry/pods/default/web");
        assert_eq!(pod.collection_path(Some("default")), "/api/v1/namespaces/default/pods");
        let dep = resource_for("apps/v1", "Deployment").unwrap();
        assert_eq!(dep.qualified_resource(), "deployments.apps");
        assert_eq!(dep.qualified_kind(), "Deployment.apps");
        assert_eq!(dep.collection_path(Some("dev")), "/apis/apps/v1/namespaces/dev/deployments");
        for r in RESOURCES {
            assert!(r.is_api_version(&r.api_version()), "{}", r.kind);
            for other in ["", "v1", "apps/v1", "v2", "apps/v1beta1", "/v1", "rbac.authorization.k8s.io/v1"] {
                assert_eq!(r.is_api_version(other), r.api_version() == other, "{} {other}", r.kind);
            }
        }
        let node = resource_for("v1", "Node").unwrap();
        assert_eq!(node.etcd_key(None, "worker-1"), "/registry/minions/worker-1");
        // A namespace given for a cluster-scoped kind is ignored; a namespaced kind without one
        // gets the all-namespaces path and key.
        assert_eq!(node.etcd_key(Some("default"), "worker-1"), "/registry/minions/worker-1");
        assert_eq!(node.collection_path(Some("default")), "/api/v1/nodes");
        assert_eq!(pod.collection_path(None), "/api/v1/pods");
        assert_eq!(pod.etcd_key(None, "web"), "/registry/pods/web");
        assert_eq!(dep.collection_path(None), "/apis/apps/v1/deployments");
        let crb = resource_for("rbac.authorization.k8s.io/v1", "ClusterRoleBinding").unwrap();
        assert_eq!(crb.collection_path(Some("x")), "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings");
        assert_eq!(crb.etcd_key(None, "a"), "/registry/clusterrolebindings/a");

        let json = serde_json::json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
            "spec": {"containers": [{"name": "web", "image": "nginx:1.29"}]}});
        let obj = Object::from_json("v1", "Pod", json.clone()).unwrap();
        assert_eq!(obj.kind(), "Pod");
        assert_eq!(obj.name(), "web");
        assert_eq!(obj.to_json(), json);
        let other = Object::from_json("v1", "ReplicationController", serde_json::json!({"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "db"}, "spec": {"replicas": 1}})).unwrap();
        assert!(matches!(other, Object::Other(_)));
        assert_eq!(other.api_version(), "v1");
        assert_eq!(other.resource().unwrap().plural, "replicationcontrollers");
        let cron = Object::from_json("batch/v1", "CronJob", serde_json::json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "db"}, "spec": {"schedule": "* * * * *", "jobTemplate": {}}})).unwrap();
        assert!(matches!(cron, Object::CronJob(_)));
        let sts = Object::from_json("apps/v1", "StatefulSet", serde_json::json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db"}, "spec": {"replicas": 1, "serviceName": "db"}})).unwrap();
        assert!(matches!(sts, Object::StatefulSet(_)));
        assert_eq!(sts.resource().unwrap().plural, "statefulsets");
        let cr = Object::from_json("apps/v1", "ControllerRevision", serde_json::json!({"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": {"name": "db-5d8f"}, "revision": 1, "data": {"spec": {}}})).unwrap();
        assert!(matches!(cr, Object::ControllerRevision(_)));
        assert_eq!(cr.resource().unwrap().plural, "controllerrevisions");
    }
}
