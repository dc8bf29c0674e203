//! `Priority` (`plugin/pkg/admission/priority`).
//!
//! On pod create the plugin resolves `priorityClassName` (or, when it is empty, the class
//! marked `globalDefault`) into the pod's numeric `priority` and its `preemptionPolicy`; the
//! scheduler only reads those. A pod may not carry its own different numbers. On PriorityClass
//! writes it keeps `globalDefault` unique. The two system classes exist in every cluster:
//! kube-apiserver creates them at startup.

use super::pod_mut;
use crate::admission::{Attributes, Context, Decision, MutatingPlugin, Operation, Rejection, ValidatingPlugin};
use crate::object::Object;
use k8s_openapi::api::scheduling::v1::PriorityClass;

pub(crate) struct Priority;

/// `system-cluster-critical` and `system-node-critical` (`scheduling.SystemPriorityClasses`).
pub(crate) const SYSTEM_CLASSES: [(&str, i32); 2] =
    [("system-node-critical", 2_000_001_000), ("system-cluster-critical", 2_000_000_000)];

fn system_class(name: &str) -> Option<PriorityClass> {
    SYSTEM_CLASSES.iter().find(|(n, _)| *n == name).map(|(n, v)| {
        let mut pc = PriorityClass { value: Some(*v), ..PriorityClass::default() };
        pc.metadata.name = Some(n.to_string());
        pc.preemption_policy = Some("PreemptLowerPriority".into());
        pc
    })
}

fn classes(ctx: &Context) -> Vec<PriorityClass> {
    ctx.list("PriorityClass", None)
        .into_iter()
        .filter_map(|o| match o {
            Object::PriorityClass(p) => Some((**p).clone()),
            _ => None,
        })
        .collect()
}

fn find(ctx: &Context, name: &str) -> Option<PriorityClass> {
    classes(ctx).into_iter().find(|p| p.metadata.name.as_deref() == Some(name)).or_else(|| system_class(name))
}

/// The global default class: the lowest value wins if a race left several.
fn default_class(ctx: &Context) -> Option<PriorityClass> {
    classes(ctx).into_iter().filter(|p| p.global_default == Some(true)).min_by_key(|p| p.value.unwrap_or(0))
}

impl MutatingPlugin for Priority {
    fn name(&self) -> &'static str {
        "Priority"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        attrs.subresource.is_empty()
            && attrs.is_core("pods")
            && matches!(attrs.operation, Operation::Create | Operation::Update)
    }

    fn admit(&self, ctx: &Context, attrs: &Attributes, obj: &mut Object) -> Decision {
        let snapshot = obj.clone();
        let Some(pod) = pod_mut(obj) else {
            return Decision::deny(
                Rejection::bad_request("resource was marked with kind Pod but was unable to be converted"),
                "The body is not a Pod.",
            );
        };
        let spec = pod.spec.get_or_insert_with(Default::default);
        if attrs.operation == Operation::Update {
            if let Some(Object::Pod(old)) = &attrs.old_object {
                let old_spec = old.spec.as_ref();
                if spec.priority.is_none() {
                    spec.priority = old_spec.and_then(|s| s.priority);
                }
                if spec.preemption_policy.is_none() {
                    spec.preemption_policy = old_spec.and_then(|s| s.preemption_policy.clone());
                }
            }
            return Decision::allow("On update the priority set at creation is kept; it cannot change.");
        }
        let class_name = spec.priority_class_name.clone().unwrap_or_default();
        let (priority, policy, explanation) = if class_name.is_empty() {
            match default_class(ctx) {
                Some(pc) => {
                    let name = pc.metadata.name.clone().unwrap_or_default();
                    spec.priority_class_name = Some(name.clone());
                    (
                        pc.value.unwrap_or(0),
                        pc.preemption_policy.clone().unwrap_or_else(|| "PreemptLowerPriority".into()),
                        format!(
                            "No priorityClassName: the global default class {name} gives priority {}.",
                            pc.value.unwrap_or(0)
                        ),
                    )
                }
                None => (
                    0,
                    "PreemptLowerPriority".to_string(),
                    "No priorityClassName and no globalDefault PriorityClass: priority 0.".to_string(),
                ),
            }
        } else {
            match find(ctx, &class_name) {
                Some(pc) => (
                    pc.value.unwrap_or(0),
                    pc.preemption_policy.clone().unwrap_or_else(|| "PreemptLowerPriority".into()),
                    format!("PriorityClass {class_name} has value {}.", pc.value.unwrap_or(0)),
                ),
                None => {
                    return Decision::deny(
                        attrs.forbidden(Some(&snapshot), format!("no PriorityClass with name {class_name} was found")),
                        format!("There is no PriorityClass {class_name:?} (kubectl get priorityclasses)."),
                    )
                }
            }
        };
        if let Some(p) = spec.priority {
            if p != priority {
                return Decision::deny(
                    attrs.forbidden(
                        Some(&snapshot),
                        format!(
                            "the integer value of priority ({p}) must not be provided in pod spec; priority admission controller computed {priority} from the given PriorityClass name"
                        ),
                    ),
                    "A pod may not set its own priority number.",
                );
            }
        }
        spec.priority = Some(priority);
        if let Some(p) = &spec.preemption_policy {
            if *p != policy {
                return Decision::deny(
                    attrs.forbidden(
                        Some(&snapshot),
                        format!(
                            "the string value of PreemptionPolicy ({p}) must not be provided in pod spec; priority admission controller computed {policy} from the given PriorityClass name"
                        ),
                    ),
                    "A pod may not set its own preemption policy.",
                );
            }
        }
        spec.preemption_policy = Some(policy.clone());
        Decision::allow(ctx.explain(|| format!("{explanation} Preemption policy {policy}.")))
    }
}

impl ValidatingPlugin for Priority {
    fn name(&self) -> &'static str {
        "Priority"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        attrs.is_main("scheduling.k8s.io", "priorityclasses")
            && matches!(attrs.operation, Operation::Create | Operation::Update)
    }

    fn validate(&self, ctx: &Context, attrs: &Attributes, obj: &Object) -> Decision {
        let Object::PriorityClass(pc) = obj else { return Decision::silent() };
        if pc.global_default != Some(true) {
            return Decision::allow("Not a globalDefault class: nothing to check.");
        }
        if let Some(d) = default_class(ctx) {
            let dname = d.metadata.name.clone().unwrap_or_default();
            if attrs.operation == Operation::Create || dname != pc.metadata.name.clone().unwrap_or_default() {
                return Decision::deny(
                    attrs.forbidden(
                        Some(obj),
                        format!("PriorityClass {dname} is already marked as default. Only one default can exist"),
                    ),
                    "Only one PriorityClass may be the global default.",
                );
            }
        }
        Decision::allow("No other PriorityClass is the global default.")
    }
}
