//! Small defaulting plugins: `TaintNodesByCondition`, `DefaultTolerationSeconds`,
//! `DefaultStorageClass`, `StorageObjectInUseProtection`, `DefaultIngressClass`.

use super::pod_mut;
use crate::admission::{Attributes, Context, Decision, MutatingPlugin, Operation, Rejection};
use crate::object::Object;
use k8s_openapi::api::core::v1::{Taint, Toleration};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use std::sync::Arc;

/// `TaintNodesByCondition` (`plugin/pkg/admission/nodetaint`): a Node is created with the
/// `node.kubernetes.io/not-ready:NoSchedule` taint, so nothing is scheduled onto it before the
/// node controller has seen it Ready (and removed the taint).
pub(crate) struct TaintNodesByCondition;

const NOT_READY: &str = "node.kubernetes.io/not-ready";
const UNREACHABLE: &str = "node.kubernetes.io/unreachable";

impl MutatingPlugin for TaintNodesByCondition {
    fn name(&self) -> &'static str {
        "TaintNodesByCondition"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        attrs.operation == Operation::Create && attrs.is_main("", "nodes")
    }

    fn admit(&self, _: &Context, attrs: &Attributes, obj: &mut Object) -> Decision {
        let snapshot = obj.clone();
        let Object::Node(node) = obj else {
            return Decision::deny(
                attrs.forbidden(Some(&snapshot), format!("unexpected type {}", snapshot.kind())),
                "The body is not a Node.",
            );
        };
        let node = Arc::make_mut(node);
        let spec = node.spec.get_or_insert_with(Default::default);
        let taints = spec.taints.get_or_insert_with(Vec::new);
        if taints.iter().any(|t| t.key == NOT_READY && t.effect == "NoSchedule") {
            return Decision::allow("The node already carries the not-ready:NoSchedule taint.");
        }
        taints.push(Taint { key: NOT_READY.into(), effect: "NoSchedule".into(), ..Taint::default() });
        Decision::allow(
            "New nodes start tainted node.kubernetes.io/not-ready:NoSchedule; the node lifecycle controller \
             removes the taint once the kubelet reports Ready.",
        )
    }
}

/// `DefaultTolerationSeconds` (`plugin/pkg/admission/defaulttolerationseconds`): every pod
/// tolerates the `not-ready` and `unreachable` NoExecute taints for 300 s, unless it already
/// tolerates them (a toleration with that key or no key, and NoExecute or no effect).
pub(crate) struct DefaultTolerationSeconds;

/// `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds`.
pub(crate) const DEFAULT_TOLERATION_SECONDS: i64 = 300;

fn tolerates(tols: &[Toleration], key: &str) -> bool {
    tols.iter().any(|t| {
        let k = t.key.as_deref().unwrap_or("");
        let e = t.effect.as_deref().unwrap_or("");
        (k == key || k.is_empty()) && (e == "NoExecute" || e.is_empty())
    })
}

impl MutatingPlugin for DefaultTolerationSeconds {
    fn name(&self) -> &'static str {
        "DefaultTolerationSeconds"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        attrs.is_main("", "pods") && matches!(attrs.operation, Operation::Create | Operation::Update)
    }

    fn admit(&self, ctx: &Context, _: &Attributes, obj: &mut Object) -> Decision {
        let Some(pod) = pod_mut(obj) else {
            return Decision::deny(Rejection::bad_request("expected *api.Pod"), "The body is not a Pod.");
        };
        let spec = pod.spec.get_or_insert_with(Default::default);
        let tols = spec.tolerations.get_or_insert_with(Vec::new);
        let mut added = Vec::new();
        for key in [NOT_READY, UNREACHABLE] {
            if !tolerates(tols, key) {
                tols.push(Toleration {
                    key: Some(key.into()),
                    operator: Some("Exists".into()),
                    effect: Some("NoExecute".into()),
                    toleration_seconds: Some(DEFAULT_TOLERATION_SECONDS),
                    value: None,
                });
                added.push(key);
            }
        }
        if tols.is_empty() {
            spec.tolerations = None;
        }
        if added.is_empty() {
            return Decision::allow("The pod already tolerates not-ready and unreachable NoExecute taints.");
        }
        Decision::allow(ctx.explain(|| {
            format!(
                "Added {} for 300 s: if the pod's node stops reporting, the pod is evicted after five minutes.",
                added.iter().map(|k| format!("{k}:NoExecute")).collect::<Vec<_>>().join(" and ")
            )
        }))
    }
}

/// The newest object (by creationTimestamp, then name ascending) among `candidates`.
fn newest(candidates: Vec<&Object>) -> Option<&Object> {
    let mut c = candidates;
    crate::sort::sort_by(&mut c, |a, b| {
        let ta = a.meta().creation_timestamp.as_ref().map(|t| t.0);
        let tb = b.meta().creation_timestamp.as_ref().map(|t| t.0);
        tb.cmp(&ta).then_with(|| a.name().cmp(b.name()))
    });
    c.into_iter().next()
}

fn annotation<'m>(meta: &'m ObjectMeta, key: &str) -> Option<&'m str> {
    meta.annotations.as_ref().and_then(|a| a.get(key)).map(String::as_str)
}

/// `DefaultStorageClass` (`plugin/pkg/admission/storage/storageclass/setdefault`): a claim that
/// names no class gets the default StorageClass (annotation
/// `storageclass.kubernetes.io/is-default-class: "true"`); with several defaults, the newest.
pub(crate) struct DefaultStorageClass;

impl MutatingPlugin for DefaultStorageClass {
    fn name(&self) -> &'static str {
        "DefaultStorageClass"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        attrs.operation == Operation::Create && attrs.is_main("", "persistentvolumeclaims")
    }

    fn admit(&self, ctx: &Context, _: &Attributes, obj: &mut Object) -> Decision {
        let defaults: Vec<&Object> = ctx
            .list("StorageClass", None)
            .into_iter()
            .filter(|o| {
                annotation(o.meta(), "storageclass.kubernetes.io/is-default-class") == Some("true")
                    || annotation(o.meta(), "storageclass.beta.kubernetes.io/is-default-class") == Some("true")
            })
            .collect();
        let count = defaults.len();
        let Object::PersistentVolumeClaim(pvc) = obj else { return Decision::silent() };
        let pvc = Arc::make_mut(pvc);
        let has_class = pvc.spec.as_ref().is_some_and(|s| s.storage_class_name.is_some())
            || annotation(&pvc.metadata, "volume.beta.kubernetes.io/storage-class").is_some();
        if has_class {
            return Decision::allow(
                "The claim names its StorageClass (an empty name means: no class, static binding only).",
            );
        }
        let Some(def) = newest(defaults) else {
            return Decision::not_applicable(
                "No StorageClass is marked default: the claim stays without a class and waits for a matching PersistentVolume.",
            );
        };
        let name = def.name().to_string();
        pvc.spec.get_or_insert_with(Default::default).storage_class_name = Some(name.clone());
        let extra =
            if count > 1 { format!(" ({count} classes are marked default; the newest wins)") } else { String::new() };
        Decision::allow(
            ctx.explain(|| format!("The claim names no class, so it gets the default StorageClass {name}{extra}.")),
        )
    }
}

/// `StorageObjectInUseProtection`: claims get the `kubernetes.io/pvc-protection` finalizer and
/// volumes `kubernetes.io/pv-protection`, so deleting one that is in use waits until it is not.
pub(crate) struct StorageObjectInUseProtection;

impl MutatingPlugin for StorageObjectInUseProtection {
    fn name(&self) -> &'static str {
        "StorageObjectInUseProtection"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        attrs.operation == Operation::Create
            && (attrs.is_main("", "persistentvolumeclaims") || attrs.is_main("", "persistentvolumes"))
    }

    fn admit(&self, ctx: &Context, attrs: &Attributes, obj: &mut Object) -> Decision {
        let (finalizer, what) = if attrs.is_core("persistentvolumes") {
            ("kubernetes.io/pv-protection", "volume")
        } else {
            ("kubernetes.io/pvc-protection", "claim")
        };
        if !matches!(obj, Object::PersistentVolume(_) | Object::PersistentVolumeClaim(_)) {
            return Decision::silent();
        }
        let meta = obj.meta_mut();
        let fins = meta.finalizers.get_or_insert_with(Vec::new);
        if fins.iter().any(|f| f == finalizer) {
            return Decision::allow(ctx.explain(|| format!("The {what} already has the {finalizer} finalizer.")));
        }
        fins.push(finalizer.into());
        Decision::allow(ctx.explain(|| {
            format!(
            "Finalizer {finalizer}: deleting the {what} while it is in use leaves it Terminating until it is released."
        )
        }))
    }
}

/// `DefaultIngressClass`: an Ingress without `ingressClassName` (and without the old
/// `kubernetes.io/ingress.class` annotation) gets the default IngressClass
/// (`ingressclass.kubernetes.io/is-default-class: "true"`), the newest if several.
pub(crate) struct DefaultIngressClass;

impl MutatingPlugin for DefaultIngressClass {
    fn name(&self) -> &'static str {
        "DefaultIngressClass"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        attrs.operation == Operation::Create && attrs.is_main("networking.k8s.io", "ingresses")
    }

    fn admit(&self, ctx: &Context, _: &Attributes, obj: &mut Object) -> Decision {
        let defaults: Vec<&Object> = ctx
            .list("IngressClass", None)
            .into_iter()
            .filter(|o| annotation(o.meta(), "ingressclass.kubernetes.io/is-default-class") == Some("true"))
            .collect();
        let Object::Other(ing) = obj else { return Decision::silent() };
        let ing = Arc::make_mut(ing);
        let has_name = ing.rest.get("spec").and_then(|s| s.get("ingressClassName")).is_some_and(|v| !v.is_null());
        if has_name {
            return Decision::allow("The Ingress names its IngressClass.");
        }
        if annotation(&ing.metadata, "kubernetes.io/ingress.class").is_some() {
            return Decision::allow("The Ingress uses the kubernetes.io/ingress.class annotation.");
        }
        let Some(def) = newest(defaults) else {
            return Decision::not_applicable("No IngressClass is marked default: the Ingress stays without a class.");
        };
        let name = def.name().to_string();
        let spec = ing.rest.entry("spec").or_insert_with(|| serde_json::json!({}));
        if let Some(m) = spec.as_object_mut() {
            m.insert("ingressClassName".into(), name.clone().into());
        }
        Decision::allow(
            ctx.explain(|| format!("The Ingress names no class, so it gets the default IngressClass {name}.")),
        )
    }
}
