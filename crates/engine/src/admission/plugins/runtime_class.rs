//! `RuntimeClass` (`plugin/pkg/admission/runtimeclass`).
//!
//! A pod that names a RuntimeClass gets the class's `overhead.podFixed` as `spec.overhead` (the
//! scheduler and the kubelet add it to the pod's requests) and its `scheduling` node selector
//! and tolerations. A pod may not bring an overhead of its own.

use super::pod_mut;
use crate::admission::{Attributes, Context, Decision, MutatingPlugin, Operation, Rejection, ValidatingPlugin};
use crate::object::Object;
use crate::quantity::Quantity;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::api::node::v1::RuntimeClass as Rc;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as KQuantity;
use std::collections::BTreeMap;

pub(crate) struct RuntimeClass;

fn handles(attrs: &Attributes) -> bool {
    attrs.operation == Operation::Create && attrs.is_main("", "pods")
}

/// The pod's RuntimeClass: `Ok(None)` when it names none.
fn class_of(ctx: &Context, attrs: &Attributes, obj: &Object, pod: &Pod) -> Result<Option<Rc>, Rejection> {
    let Some(name) = pod.spec.as_ref().and_then(|s| s.runtime_class_name.clone()) else { return Ok(None) };
    match ctx.get("RuntimeClass", None, &name).and_then(|o| ctx.typed::<Rc>(o)) {
        Some(rc) => Ok(Some(rc)),
        None => Err(attrs.forbidden(Some(obj), format!("pod rejected: RuntimeClass \"{name}\" not found"))),
    }
}

fn same_resources(a: &BTreeMap<String, KQuantity>, b: &BTreeMap<String, KQuantity>) -> bool {
    a.len() == b.len()
        && a.iter().all(|(k, v)| {
            b.get(k).is_some_and(|w| match (Quantity::parse(&v.0), Quantity::parse(&w.0)) {
                (Ok(x), Ok(y)) => x == y,
                _ => v.0 == w.0,
            })
        })
}

fn render(list: &BTreeMap<String, KQuantity>) -> String {
    list.iter().map(|(k, v)| format!("{k}={}", v.0)).collect::<Vec<_>>().join(", ")
}

impl MutatingPlugin for RuntimeClass {
    fn name(&self) -> &'static str {
        "RuntimeClass"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        handles(attrs)
    }

    fn admit(&self, ctx: &Context, attrs: &Attributes, obj: &mut Object) -> Decision {
        let Object::Pod(pod) = &*obj else {
            return Decision::deny(
                Rejection::bad_request("Resource was marked with kind Pod but was unable to be converted"),
                "The body is not a Pod.",
            );
        };
        // The class is looked up on the pod as it came: a pod that names none is not copied.
        let rc = match class_of(ctx, attrs, obj, pod) {
            Ok(Some(rc)) => rc,
            Ok(None) => {
                return Decision::not_applicable(
                    "The pod names no RuntimeClass: the node's default runtime handler runs it.",
                )
            }
            Err(r) => {
                return Decision::deny(r, "The RuntimeClass the pod names does not exist (kubectl get runtimeclasses).")
            }
        };
        let snapshot = obj.clone();
        let Some(pod) = pod_mut(obj) else { return Decision::silent() };
        let name = rc.metadata.name.clone().unwrap_or_default();
        let mut notes = vec![format!("RuntimeClass {name} runs the pod with handler {:?}.", rc.handler)];
        let spec = pod.spec.get_or_insert_with(Default::default);
        if let Some(fixed) = rc.overhead.as_ref().and_then(|o| o.pod_fixed.clone()) {
            if let Some(own) = spec.overhead.as_ref().filter(|o| !o.is_empty()) {
                if !same_resources(own, &fixed) {
                    return Decision::deny(
                        attrs.forbidden(
                            Some(&snapshot),
                            "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
                        ),
                        "Only the RuntimeClass may set a pod's overhead.",
                    );
                }
            }
            notes.push(format!(
                "Its overhead ({}) is added to the pod's requests for scheduling and cgroups.",
                render(&fixed)
            ));
            spec.overhead = Some(fixed);
        }
        if let Some(sched) = rc.scheduling.as_ref() {
            if let Some(sel) = sched.node_selector.as_ref().filter(|s| !s.is_empty()) {
                let pod_sel = spec.node_selector.get_or_insert_with(BTreeMap::new);
                for (k, v) in sel {
                    if let Some(pv) = pod_sel.get(k).filter(|pv| *pv != v) {
                        return Decision::deny(
                            attrs.forbidden(
                                Some(&snapshot),
                                format!("conflict: runtimeClass.scheduling.nodeSelector[{k}] = {v}; pod.spec.nodeSelector[{k}] = {pv}"),
                            ),
                            "The pod's nodeSelector contradicts the RuntimeClass's.",
                        );
                    }
                    pod_sel.insert(k.clone(), v.clone());
                }
                notes.push("The class's node selector is merged into the pod's.".into());
            }
            if let Some(tols) = sched.tolerations.as_ref().filter(|t| !t.is_empty()) {
                let pod_tols = spec.tolerations.get_or_insert_with(Vec::new);
                for t in tols {
                    if !pod_tols.contains(t) {
                        pod_tols.push(t.clone());
                    }
                }
                notes.push("The class's tolerations are added.".into());
            }
        }
        Decision::allow(notes.join(" "))
    }
}

impl ValidatingPlugin for RuntimeClass {
    fn name(&self) -> &'static str {
        "RuntimeClass"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        handles(attrs)
    }

    fn validate(&self, ctx: &Context, attrs: &Attributes, obj: &Object) -> Decision {
        let Object::Pod(pod) = obj else { return Decision::silent() };
        let rc = match class_of(ctx, attrs, obj, pod) {
            Ok(rc) => rc,
            Err(r) => return Decision::deny(r, "The RuntimeClass the pod names does not exist."),
        };
        let Some(own) = pod.spec.as_ref().and_then(|s| s.overhead.as_ref()).filter(|o| !o.is_empty()) else {
            return Decision::not_applicable("The pod has no overhead to check.");
        };
        match rc.and_then(|rc| rc.overhead.and_then(|o| o.pod_fixed)) {
            Some(fixed) if same_resources(own, &fixed) => Decision::allow("The pod's overhead is its RuntimeClass's."),
            Some(_) => Decision::deny(
                attrs
                    .forbidden(Some(obj), "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"),
                "Only the RuntimeClass may set a pod's overhead.",
            ),
            None => Decision::deny(
                attrs.forbidden(
                    Some(obj),
                    "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead",
                ),
                "An overhead needs a RuntimeClass that defines it.",
            ),
        }
    }
}
