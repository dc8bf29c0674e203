//! The ServiceAccount controller: every namespace gets a ServiceAccount named `default`.
//!
//! Pods that name no service account run as `default`; the ServiceAccount admission plugin
//! rejects Pods in a namespace whose `default` ServiceAccount does not exist yet, which is
//! why a Pod created in the first milliseconds of a brand-new namespace can fail with
//! `error looking up service account <ns>/default`. The controller creates it on namespace
//! creation and again if someone deletes it.

use super::util::*;
use super::{Controller, Cx};
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::core::v1::{Namespace, ServiceAccount};

pub const NAME: &str = "serviceaccount-controller";
pub const SERVICE_ACCOUNT: &str = "service-account-controller";
pub const WATCH_LATENCY_MS: u64 = 2;
/// The service accounts every namespace gets (`--service-account-names`... upstream default).
pub const DEFAULT_SERVICE_ACCOUNT: &str = "default";

#[derive(Debug, Default)]
pub struct ServiceAccountController;

/// A namespace that is being deleted gets no new content.
pub fn terminating(ns: &Namespace) -> bool {
    is_deleting(&ns.metadata) || ns.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Terminating")
}

impl Controller for ServiceAccountController {
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
                    "a new namespace needs its default ServiceAccount",
                );
            }
            Object::ServiceAccount(sa)
                if ev.kind == EventType::Deleted && sa.metadata.name.as_deref() == Some(DEFAULT_SERVICE_ACCOUNT) =>
            {
                let ns = sa.metadata.namespace.clone().unwrap_or_default();
                cx.watch(NAME, Phase::Controllers, ev, &ns, WATCH_LATENCY_MS, "the default ServiceAccount was deleted");
            }
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        let Some(Object::Namespace(ns)) = get(cx.core, "Namespace", None, key) else { return };
        if terminating(&ns) || get(cx.core, "ServiceAccount", Some(key), DEFAULT_SERVICE_ACCOUNT).is_some() {
            return;
        }
        let mut sa = ServiceAccount::default();
        sa.metadata.name = Some(DEFAULT_SERVICE_ACCOUNT.into());
        sa.metadata.namespace = Some(key.to_string());
        let ns_obj = Object::from(std::sync::Arc::unwrap_or_clone(ns));
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(&ns_obj),
            format!("serviceaccount-controller creates ServiceAccount {key}/default"),
            format!("namespace {key} has no default ServiceAccount"),
            "a default ServiceAccount in every namespace".into(),
            vec![format!("POST ServiceAccount default in namespace {key}")],
            StepStatus::Ok,
        );
        let resp = cx.create(SERVICE_ACCOUNT, Object::from(sa));
        if resp.error.as_ref().is_some_and(|e| e.code != 409 && !super::replicaset::namespace_terminating(&e.message)) {
            cx.requeue_rate_limited(NAME, key);
        }
    }
}
