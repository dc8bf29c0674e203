//! The built-in plugins, one unit each, named as upstream.

mod inert;
mod limit_ranger;
mod namespace_lifecycle;
mod node_restriction;
mod pod_security;
mod priority;
mod resource_quota;
mod runtime_class;
mod service_account;
mod simple;

use super::{MutatingPlugin, ValidatingPlugin};
use crate::object::Object;
use k8s_openapi::api::core::v1::{Container, Pod, PodSpec};
pub(crate) use limit_ranger::pod_totals;
pub use resource_quota::QuotaStatusUpdate;

pub(crate) type Built = (Option<Box<dyn MutatingPlugin>>, Option<Box<dyn ValidatingPlugin>>);

/// The plugin units for one entry of the ordered list.
pub(crate) fn build(name: &'static str) -> Built {
    match name {
        "NamespaceLifecycle" => (Some(Box::new(namespace_lifecycle::NamespaceLifecycle)), None),
        "LimitRanger" => (Some(Box::new(limit_ranger::LimitRanger)), Some(Box::new(limit_ranger::LimitRanger))),
        "ServiceAccount" => {
            (Some(Box::new(service_account::ServiceAccount)), Some(Box::new(service_account::ServiceAccount)))
        }
        "NodeRestriction" => (Some(Box::new(node_restriction::NodeRestriction)), None),
        "TaintNodesByCondition" => (Some(Box::new(simple::TaintNodesByCondition)), None),
        "PodSecurity" => (None, Some(Box::new(pod_security::PodSecurity))),
        "Priority" => (Some(Box::new(priority::Priority)), Some(Box::new(priority::Priority))),
        "DefaultTolerationSeconds" => (Some(Box::new(simple::DefaultTolerationSeconds)), None),
        "DefaultStorageClass" => (Some(Box::new(simple::DefaultStorageClass)), None),
        "StorageObjectInUseProtection" => (Some(Box::new(simple::StorageObjectInUseProtection)), None),
        "RuntimeClass" => (Some(Box::new(runtime_class::RuntimeClass)), Some(Box::new(runtime_class::RuntimeClass))),
        "DefaultIngressClass" => (Some(Box::new(simple::DefaultIngressClass)), None),
        "MutatingAdmissionWebhook" => (Some(Box::new(super::webhook::MutatingAdmissionWebhook)), None),
        "ValidatingAdmissionWebhook" => (None, Some(Box::new(super::webhook::ValidatingAdmissionWebhook))),
        "ResourceQuota" => (None, Some(Box::new(resource_quota::ResourceQuota))),
        other => inert::build(other),
    }
}

pub(crate) fn pod_mut(obj: &mut Object) -> Option<&mut Pod> {
    match obj {
        Object::Pod(p) => Some(std::sync::Arc::make_mut(p)),
        _ => None,
    }
}

/// Init containers first, then app containers (the order upstream's helpers visit them).
pub(crate) fn all_containers(spec: &PodSpec) -> impl Iterator<Item = &Container> {
    spec.init_containers.iter().flatten().chain(spec.containers.iter())
}

/// `kubernetes.io/config.mirror`: the annotation of mirror pods (static pods as the API sees them).
pub(crate) const MIRROR_POD_ANNOTATION: &str = "kubernetes.io/config.mirror";

pub(crate) fn is_mirror_pod(pod: &Pod) -> bool {
    pod.metadata.annotations.as_ref().is_some_and(|a| a.contains_key(MIRROR_POD_ANNOTATION))
}

/// Names of the Secrets a pod references (pull secrets, volumes, env), as `VisitPodSecretNames`.
pub(crate) fn pod_secret_names(spec: &PodSpec) -> Vec<String> {
    let mut out = Vec::new();
    for s in spec.image_pull_secrets.iter().flatten() {
        out.push(s.name.clone());
    }
    let envs = all_containers(spec)
        .map(|c| (&c.env, &c.env_from))
        .chain(spec.ephemeral_containers.iter().flatten().map(|c| (&c.env, &c.env_from)));
    for (env, env_from) in envs {
        for e in env_from.iter().flatten() {
            if let Some(r) = &e.secret_ref {
                out.push(r.name.clone());
            }
        }
        for e in env.iter().flatten() {
            if let Some(r) = e.value_from.as_ref().and_then(|v| v.secret_key_ref.as_ref()) {
                out.push(r.name.clone());
            }
        }
    }
    for v in spec.volumes.iter().flatten() {
        if let Some(s) = &v.secret {
            out.push(s.secret_name.clone().unwrap_or_default());
        }
        for p in v.projected.iter().flat_map(|p| p.sources.iter().flatten()) {
            if let Some(s) = &p.secret {
                out.push(s.name.clone());
            }
        }
    }
    out
}

/// Names of the ConfigMaps a pod references (volumes, env), as `VisitPodConfigmapNames`.
pub(crate) fn pod_config_map_names(spec: &PodSpec) -> Vec<String> {
    let mut out = Vec::new();
    for c in all_containers(spec) {
        for e in c.env_from.iter().flatten() {
            if let Some(r) = &e.config_map_ref {
                out.push(r.name.clone());
            }
        }
        for e in c.env.iter().flatten() {
            if let Some(r) = e.value_from.as_ref().and_then(|v| v.config_map_key_ref.as_ref()) {
                out.push(r.name.clone());
            }
        }
    }
    for v in spec.volumes.iter().flatten() {
        if let Some(c) = &v.config_map {
            out.push(c.name.clone());
        }
        for p in v.projected.iter().flat_map(|p| p.sources.iter().flatten()) {
            if let Some(c) = &p.config_map {
                out.push(c.name.clone());
            }
        }
    }
    out
}
