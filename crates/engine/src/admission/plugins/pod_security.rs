//! `PodSecurity`: Pod Security Admission as a validating plugin, wrapping the evaluator of
//! [`crate::pod_security`].
//!
//! The namespace's `pod-security.kubernetes.io/<mode>` labels (or the configured defaults)
//! choose a level per mode: `enforce` rejects the pod with
//! `violates PodSecurity "<level>:<version>": ...`, `warn` returns the same text as a
//! `Warning:` header (`would violate ...`), `audit` records an audit annotation. Workloads with
//! a pod template get warnings and audit annotations only; namespace label changes are
//! validated and report which existing pods would violate a stricter enforce level.

use crate::admission::{Attributes, Context, Decision, Operation, Rejection, RejectionDetails, ValidatingPlugin};
use crate::object::Object;
use crate::pod_security::{admit, AdmissionRequest, Operation as PsaOperation};
use crate::trace::{AdmissionVerdict, FieldCause};
use k8s_openapi::api::core::v1::Pod;

pub(crate) struct PodSecurity;

fn operation(op: Operation) -> PsaOperation {
    match op {
        Operation::Create => PsaOperation::Create,
        Operation::Update => PsaOperation::Update,
        Operation::Delete => PsaOperation::Delete,
        Operation::Connect => PsaOperation::Connect,
    }
}

impl ValidatingPlugin for PodSecurity {
    fn name(&self) -> &'static str {
        "PodSecurity"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        if !matches!(attrs.operation, Operation::Create | Operation::Update) {
            return false;
        }
        let r = attrs.resource.qualified_resource();
        r == "pods" || r == "namespaces" || crate::pod_security::POD_TEMPLATE_RESOURCES.contains(&r.as_str())
    }

    fn validate(&self, ctx: &Context, attrs: &Attributes, obj: &Object) -> Decision {
        let is_namespace = attrs.is_core("namespaces");
        let namespace = if is_namespace { obj.name().to_string() } else { attrs.namespace.clone() };
        let labels = if is_namespace {
            obj.meta().labels.clone().unwrap_or_default()
        } else {
            ctx.get("Namespace", None, &namespace).and_then(|n| n.meta().labels.clone()).unwrap_or_default()
        };
        let ns_policy = ctx.pod_security.policy_for_namespace(&labels);
        let pods: Vec<Pod> = if is_namespace && attrs.operation == Operation::Update {
            ctx.list("Pod", Some(&namespace))
                .into_iter()
                .filter_map(|o| match o {
                    Object::Pod(p) => Some((**p).clone()),
                    _ => None,
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut req = AdmissionRequest::new(operation(attrs.operation), obj)
            .with_subresource(&attrs.subresource)
            .with_namespace(&namespace)
            .with_user(&attrs.user.username)
            .with_namespace_pods(&pods)
            .with_explanation(ctx.detailed);
        if let Some(old) = &attrs.old_object {
            req = req.with_old(old);
        }
        let outcome = admit(&ctx.pod_security, &ns_policy, &req);
        let mut decision = Decision::allow(outcome.explanation.clone());
        decision.not_applicable = outcome.verdict == AdmissionVerdict::NotApplicable;
        decision.warnings = outcome.warnings.clone();
        decision.annotations = outcome.audit_annotations.clone();
        if let Some(body) = &outcome.denied {
            decision.rejection = Some(attrs.forbidden(Some(obj), body));
        } else if !outcome.invalid.is_empty() {
            let message = outcome.status_message(obj).unwrap_or_default();
            decision.rejection = Some(Rejection {
                code: 422,
                reason: "Invalid".into(),
                message,
                details: Some(Box::new(RejectionDetails {
                    name: obj.name().to_string(),
                    group: String::new(),
                    kind: "Namespace".into(),
                    causes: outcome
                        .invalid
                        .iter()
                        .map(|e| FieldCause { reason: "FieldValueInvalid".into(), message: e.body(), field: e.field() })
                        .collect(),
                })),
            });
        }
        decision
    }
}
