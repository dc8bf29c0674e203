//! `NamespaceLifecycle` (apiserver `pkg/admission/plugin/namespace/lifecycle`).
//!
//! Nothing may be written into a namespace that does not exist, nothing new may be created in
//! a namespace that is being deleted, and the three system namespaces can never be deleted.

use crate::admission::{Attributes, Context, Decision, MutatingPlugin, Operation, Rejection};
use crate::object::Object;
use crate::trace::FieldCause;
use k8s_openapi::api::core::v1::Namespace;

pub(crate) struct NamespaceLifecycle;

/// The namespaces kube-apiserver registers as immortal.
const IMMORTAL: [&str; 3] = ["default", "kube-system", "kube-public"];

impl MutatingPlugin for NamespaceLifecycle {
    fn name(&self) -> &'static str {
        "NamespaceLifecycle"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        if attrs.operation == Operation::Connect {
            return false;
        }
        // Cluster-scoped objects (other than namespaces themselves) are always allowed.
        !attrs.namespace.is_empty() || attrs.is_core("namespaces")
    }

    fn admit(&self, ctx: &Context, attrs: &Attributes, obj: &mut Object) -> Decision {
        let is_namespace = attrs.is_core("namespaces");
        if is_namespace {
            if attrs.operation == Operation::Delete && IMMORTAL.contains(&attrs.name.as_str()) {
                return Decision::deny(
                    Rejection::forbidden("", "namespaces", &attrs.name, "this namespace may not be deleted"),
                    format!(
                        "{} is one of the namespaces the API server keeps alive (default, kube-system, kube-public).",
                        attrs.name
                    ),
                );
            }
            return Decision::allow("Operations on Namespace objects themselves are always allowed.");
        }
        if attrs.operation == Operation::Delete {
            return Decision::allow("Deleting is always allowed, even in a namespace that is being terminated.");
        }
        if attrs.resource.group == "authorization.k8s.io" && attrs.resource.plural == "localsubjectaccessreviews" {
            return Decision::allow("Access reviews are allowed without looking at the namespace.");
        }
        let ns = attrs.namespace.as_str();
        let Some(stored) = ctx.get("Namespace", None, ns) else {
            return Decision::deny(
                Rejection::not_found("", "namespaces", ns),
                format!("The namespace {ns:?} does not exist: create it first (kubectl create namespace {ns})."),
            );
        };
        let phase = match stored {
            Object::Namespace(n) => phase_of(n),
            _ => String::new(),
        };
        if attrs.operation == Operation::Create && phase == "Terminating" {
            let mut r = attrs.forbidden(
                Some(obj),
                format!("unable to create new content in namespace {ns} because it is being terminated"),
            );
            if let Some(d) = r.details.as_mut() {
                d.causes.push(FieldCause {
                    reason: "NamespaceTerminating".into(),
                    message: format!("namespace {ns} is being terminated"),
                    field: "metadata.namespace".into(),
                });
            }
            return Decision::deny(
                r,
                format!("The namespace {ns} is being deleted (phase Terminating): nothing new may be created in it."),
            );
        }
        Decision::allow(ctx.explain(|| {
            format!(
                "The namespace {ns} exists{}.",
                if phase.is_empty() { String::new() } else { format!(" and is {phase}") }
            )
        }))
    }
}

fn phase_of(ns: &Namespace) -> String {
    ns.status.as_ref().and_then(|s| s.phase.clone()).unwrap_or_default()
}
