//! The root CA certificate publisher: every namespace gets the ConfigMap `kube-root-ca.crt`
//! holding the cluster CA, so Pods can verify the API server. The projected service-account
//! token volume the kubelet mounts in every Pod includes this ConfigMap's `ca.crt`, so a Pod
//! in a namespace where it is missing waits in `ContainerCreating`.

use super::serviceaccount::terminating;
use super::util::*;
use super::{Controller, Cx};
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::core::v1::ConfigMap;
use std::collections::BTreeMap;

pub const NAME: &str = "root-ca-certificate-publisher-controller";
pub const SERVICE_ACCOUNT: &str = "root-ca-cert-publisher";
pub const WATCH_LATENCY_MS: u64 = 2;
pub const CONFIG_MAP_NAME: &str = "kube-root-ca.crt";
pub const DESCRIPTION_ANNOTATION: &str = "kubernetes.io/description";
pub const DESCRIPTION: &str = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

/// The lab cluster's CA certificate. It is a stand-in with the shape of a PEM certificate,
/// not a real one: the lab does no TLS.
pub const CLUSTER_CA_PEM: &str = "-----BEGIN CERTIFICATE-----
MIIDBTCCAe2gAwIBAgIIcG9kbGFiLWNhMA0GCSqGSIb3DQEBCwUAMBUxEzARBgNV
BAMTCmt1YmVybmV0ZXMwHhcNMjYwMTAxMDAwMDAwWhcNMzUxMjMwMDAwMDAwWjAV
MRMwEQYDVQQDEwprdWJlcm5ldGVzMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIB
cG9kbGFiIHN0YW5kLWluIENBIGNlcnRpZmljYXRlIGZvciB0aGUgbGFiIGNsdXN0
-----END CERTIFICATE-----
";

#[derive(Debug, Default)]
pub struct RootCaCertPublisher;

fn desired_data() -> BTreeMap<String, String> {
    BTreeMap::from([("ca.crt".to_string(), CLUSTER_CA_PEM.to_string())])
}

impl Controller for RootCaCertPublisher {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            Object::Namespace(ns) if ev.kind == EventType::Added && !terminating(ns) => {
                let name = ns.metadata.name.clone().unwrap_or_default();
                cx.watch(
                    NAME,
                    Phase::Controllers,
                    ev,
                    &name,
                    WATCH_LATENCY_MS,
                    "a new namespace needs the kube-root-ca.crt ConfigMap",
                );
            }
            Object::ConfigMap(cm)
                if cm.metadata.name.as_deref() == Some(CONFIG_MAP_NAME) && ev.kind != EventType::Added =>
            {
                if ev.kind == EventType::Modified && cm.data == Some(desired_data()) {
                    return;
                }
                let ns = cm.metadata.namespace.clone().unwrap_or_default();
                cx.watch(
                    NAME,
                    Phase::Controllers,
                    ev,
                    &ns,
                    WATCH_LATENCY_MS,
                    "the kube-root-ca.crt ConfigMap was changed or deleted",
                );
            }
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        let Some(Object::Namespace(ns)) = get(cx.core, "Namespace", None, key) else { return };
        if terminating(&ns) {
            return;
        }
        let ns_obj = Object::from(std::sync::Arc::unwrap_or_clone(ns));
        let resp = match get(cx.core, "ConfigMap", Some(key), CONFIG_MAP_NAME) {
            None => {
                let mut cm = ConfigMap::default();
                cm.metadata.name = Some(CONFIG_MAP_NAME.into());
                cm.metadata.namespace = Some(key.to_string());
                cm.metadata.annotations =
                    Some(BTreeMap::from([(DESCRIPTION_ANNOTATION.to_string(), DESCRIPTION.to_string())]));
                cm.data = Some(desired_data());
                cx.decide(
                    Phase::Controllers,
                    NAME,
                    Some(&ns_obj),
                    format!("root-ca-cert-publisher creates ConfigMap {key}/{CONFIG_MAP_NAME}"),
                    format!("namespace {key} has no {CONFIG_MAP_NAME}"),
                    "the cluster CA in every namespace".into(),
                    vec![format!("POST ConfigMap {CONFIG_MAP_NAME} (data ca.crt)")],
                    StepStatus::Ok,
                );
                cx.create(SERVICE_ACCOUNT, Object::from(cm))
            }
            Some(Object::ConfigMap(cm)) if cm.data != Some(desired_data()) => {
                let mut cm = std::sync::Arc::unwrap_or_clone(cm);
                cm.data = Some(desired_data());
                let ann = cm.metadata.annotations.get_or_insert_with(BTreeMap::new);
                ann.insert(DESCRIPTION_ANNOTATION.into(), DESCRIPTION.into());
                cx.decide(
                    Phase::Controllers,
                    NAME,
                    Some(&ns_obj),
                    format!("root-ca-cert-publisher restores ConfigMap {key}/{CONFIG_MAP_NAME}"),
                    "its ca.crt differs from the cluster CA".into(),
                    "the cluster CA in every namespace".into(),
                    vec![format!("PUT ConfigMap {CONFIG_MAP_NAME}")],
                    StepStatus::Ok,
                );
                cx.update(SERVICE_ACCOUNT, Object::from(cm))
            }
            _ => return,
        };
        if resp.error.as_ref().is_some_and(|e| e.code != 409 && !super::replicaset::namespace_terminating(&e.message)) {
            cx.requeue_rate_limited(NAME, key);
        }
    }
}
