//! `NodeRestriction` (`plugin/pkg/admission/noderestriction`).
//!
//! Requests from kubelets (user `system:node:<name>` in group `system:nodes`) are limited to
//! their own node: its Node object (without changing taints or protected labels), pods bound
//! to it (status updates, evictions, deletions), mirror pods of its static pods, and its Lease.
//! Anyone else passes untouched.

use super::{is_mirror_pod, pod_config_map_names, pod_secret_names, MIRROR_POD_ANNOTATION};
use crate::admission::{Attributes, Context, Decision, MutatingPlugin, Operation, Rejection};
use crate::object::Object;
use k8s_openapi::api::core::v1::Pod;
use std::collections::{BTreeMap, BTreeSet};

pub(crate) struct NodeRestriction;

/// The node a user acts for: `Some("")` for a `system:node:` user without a name.
fn node_identity(attrs: &Attributes) -> Option<String> {
    let u = &attrs.user;
    if !u.groups.iter().any(|g| g == "system:nodes") {
        return None;
    }
    u.username.strip_prefix("system:node:").map(str::to_string)
}

/// Labels a kubelet may set on its own Node (`kubeletapis.IsKubeletLabel`).
fn is_kubelet_label(key: &str) -> bool {
    const LABELS: [&str; 11] = [
        "kubernetes.io/hostname",
        "kubernetes.io/arch",
        "kubernetes.io/os",
        "beta.kubernetes.io/arch",
        "beta.kubernetes.io/os",
        "beta.kubernetes.io/instance-type",
        "node.kubernetes.io/instance-type",
        "failure-domain.beta.kubernetes.io/region",
        "failure-domain.beta.kubernetes.io/zone",
        "topology.kubernetes.io/region",
        "topology.kubernetes.io/zone",
    ];
    if LABELS.contains(&key) {
        return true;
    }
    let ns = label_namespace(key);
    ["kubelet.kubernetes.io", "node.kubernetes.io"].iter().any(|a| ns == *a || ns.ends_with(&format!(".{a}")))
}

fn label_namespace(key: &str) -> &str {
    key.split_once('/').map(|(ns, _)| ns).unwrap_or("")
}

fn is_kubernetes_label(key: &str) -> bool {
    let ns = label_namespace(key);
    ns == "kubernetes.io" || ns.ends_with(".kubernetes.io") || ns == "k8s.io" || ns.ends_with(".k8s.io")
}

fn forbidden_labels(new: &BTreeMap<String, String>, old: &BTreeMap<String, String>) -> Vec<String> {
    let mut modified = BTreeSet::new();
    for (k, v) in new {
        if old.get(k) != Some(v) {
            modified.insert(k.clone());
        }
    }
    for (k, v) in old {
        if new.get(k) != Some(v) {
            modified.insert(k.clone());
        }
    }
    modified
        .into_iter()
        .filter(|k| {
            let ns = label_namespace(k);
            let restricted = ns == "node-restriction.kubernetes.io" || ns.ends_with(".node-restriction.kubernetes.io");
            restricted || (is_kubernetes_label(k) && !is_kubelet_label(k))
        })
        .collect()
}

impl MutatingPlugin for NodeRestriction {
    fn name(&self) -> &'static str {
        "NodeRestriction"
    }

    fn handles(&self, attrs: &Attributes) -> bool {
        matches!(attrs.operation, Operation::Create | Operation::Update | Operation::Delete)
            && node_identity(attrs).is_some()
    }

    fn admit(&self, ctx: &Context, attrs: &Attributes, obj: &mut Object) -> Decision {
        let Some(node) = node_identity(attrs) else { return Decision::silent() };
        let obj: &Object = obj;
        if node.is_empty() {
            return deny(attrs, obj, format!("could not determine node from user \"{}\"", attrs.user.username));
        }
        let r = attrs.resource;
        match (r.group, r.plural) {
            ("", "pods") => match attrs.subresource.as_str() {
                "" => admit_pod(ctx, attrs, obj, &node),
                "status" => admit_pod_status(ctx, attrs, obj, &node),
                "eviction" => admit_eviction(ctx, attrs, obj, &node),
                other => deny(
                    attrs,
                    obj,
                    format!("unexpected pod subresource \"{other}\", only 'status' and 'eviction' are allowed"),
                ),
            },
            ("", "nodes") => admit_node(ctx, attrs, obj, &node),
            ("", "persistentvolumeclaims") if attrs.subresource != "status" => {
                deny(attrs, obj, "may only update PVC status".to_string())
            }
            ("coordination.k8s.io", "leases") => {
                if attrs.namespace != "kube-node-lease" {
                    return deny(
                        attrs,
                        obj,
                        "can only access leases in the \"kube-node-lease\" system namespace".into(),
                    );
                }
                let name = if attrs.operation == Operation::Create { obj.name() } else { attrs.name.as_str() };
                if name != node {
                    return deny(
                        attrs,
                        obj,
                        "can only access node lease with the same name as the requesting node".into(),
                    );
                }
                Decision::allow(ctx.explain(|| format!("The kubelet of {node} renews its own Lease.")))
            }
            _ => Decision::allow(ctx.explain(|| {
                format!(
                    "The kubelet of {node} may do this; NodeRestriction only guards pods, nodes, claims and leases."
                )
            })),
        }
    }
}

fn deny(attrs: &Attributes, obj: &Object, err: String) -> Decision {
    Decision::deny(attrs.forbidden(Some(obj), err), "A kubelet may only act on its own node and the pods bound to it.")
}

fn stored_pod<'a>(ctx: &Context<'a>, attrs: &Attributes, name: &str) -> Option<&'a Pod> {
    match ctx.get("Pod", Some(&attrs.namespace), name) {
        Some(Object::Pod(p)) => Some(p),
        _ => None,
    }
}

fn pod_node(pod: &Pod) -> &str {
    pod.spec.as_ref().and_then(|s| s.node_name.as_deref()).unwrap_or("")
}

fn admit_pod(ctx: &Context, attrs: &Attributes, obj: &Object, node: &str) -> Decision {
    match attrs.operation {
        Operation::Create => {
            let Object::Pod(pod) = obj else { return deny(attrs, obj, format!("unexpected type {}", obj.kind())) };
            if !is_mirror_pod(pod) {
                return deny(
                    attrs,
                    obj,
                    format!("pod does not have \"{MIRROR_POD_ANNOTATION}\" annotation, node \"{node}\" can only create mirror pods"),
                );
            }
            if pod_node(pod) != node {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" can only create pods with spec.nodeName set to itself"),
                );
            }
            let owners = pod.metadata.owner_references.as_deref().unwrap_or(&[]);
            if owners.len() > 1 {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" can only create pods with a single owner reference set to itself"),
                );
            }
            let Some(owner) = owners.first() else {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" can only create pods with an owner reference set to itself"),
                );
            };
            if owner.api_version != "v1" || owner.kind != "Node" || owner.name != node {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" can only create pods with an owner reference set to itself"),
                );
            }
            if owner.controller != Some(true) {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" can only create pods with a controller owner reference set to itself"),
                );
            }
            if owner.block_owner_deletion == Some(true) {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" must not set blockOwnerDeletion on an owner reference"),
                );
            }
            let Some(node_obj) = ctx.get("Node", None, node) else {
                return Decision::deny(
                    Rejection::not_found("", "nodes", node),
                    "The kubelet's own Node does not exist.",
                );
            };
            let uid = node_obj.meta().uid.clone().unwrap_or_default();
            if owner.uid != uid {
                return deny(attrs, obj, format!("node {node} UID mismatch: expected {} got {uid}", owner.uid));
            }
            let Some(spec) = pod.spec.as_ref() else { return Decision::allow("A mirror pod.") };
            if spec.service_account_name.as_deref().is_some_and(|s| !s.is_empty()) {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" can not create pods that reference a service account"),
                );
            }
            if !pod_secret_names(spec).is_empty() {
                return deny(attrs, obj, format!("node \"{node}\" can not create pods that reference secrets"));
            }
            if !pod_config_map_names(spec).is_empty() {
                return deny(attrs, obj, format!("node \"{node}\" can not create pods that reference configmaps"));
            }
            let projected = spec
                .volumes
                .iter()
                .flatten()
                .filter_map(|v| v.projected.as_ref())
                .flat_map(|p| p.sources.iter().flatten());
            if projected.clone().any(|s| s.cluster_trust_bundle.is_some()) {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" can not create pods that reference clustertrustbundles"),
                );
            }
            if spec.volumes.iter().flatten().any(|v| v.persistent_volume_claim.is_some()) {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" can not create pods that reference persistentvolumeclaims"),
                );
            }
            Decision::allow(
                ctx.explain(|| format!("The kubelet of {node} registers the mirror pod of one of its static pods.")),
            )
        }
        Operation::Delete => {
            let Some(existing) = stored_pod(ctx, attrs, &attrs.name) else {
                return Decision::deny(Rejection::not_found("", "pods", &attrs.name), "The pod does not exist.");
            };
            if pod_node(existing) != node {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" can only delete pods with spec.nodeName set to itself"),
                );
            }
            Decision::allow(ctx.explain(|| format!("The pod is bound to {node}, so its kubelet may delete it.")))
        }
        op => deny(
            attrs,
            obj,
            format!("unexpected operation \"{}\", node \"{node}\" can only create and delete mirror pods", op.as_str()),
        ),
    }
}

fn admit_pod_status(ctx: &Context, attrs: &Attributes, obj: &Object, node: &str) -> Decision {
    if attrs.operation != Operation::Update {
        return deny(attrs, obj, format!("unexpected operation \"{}\"", attrs.operation.as_str()));
    }
    let Some(Object::Pod(old)) = &attrs.old_object else {
        return deny(attrs, obj, "unexpected type <nil>".into());
    };
    if pod_node(old) != node {
        return deny(
            attrs,
            obj,
            format!("node \"{node}\" can only update pod status for pods with spec.nodeName set to itself"),
        );
    }
    if let Object::Pod(new) = obj {
        if new.metadata.labels.clone().unwrap_or_default() != old.metadata.labels.clone().unwrap_or_default() {
            return deny(attrs, obj, format!("node \"{node}\" cannot update labels through pod status"));
        }
    }
    Decision::allow(ctx.explain(|| format!("The pod is bound to {node}: its kubelet reports its status.")))
}

fn admit_eviction(ctx: &Context, attrs: &Attributes, obj: &Object, node: &str) -> Decision {
    if attrs.operation != Operation::Create {
        return deny(attrs, obj, format!("unexpected operation {}", attrs.operation.as_str()));
    }
    let name = if attrs.name.is_empty() { obj.name().to_string() } else { attrs.name.clone() };
    if name.is_empty() {
        return deny(attrs, obj, "could not determine pod from request data".into());
    }
    let Some(existing) = stored_pod(ctx, attrs, &name) else {
        return Decision::deny(Rejection::not_found("", "pods", &name), "The pod does not exist.");
    };
    if pod_node(existing) != node {
        return deny(attrs, obj, format!("node {node} can only evict pods with spec.nodeName set to itself"));
    }
    Decision::allow(ctx.explain(|| format!("The pod runs on {node}, so its kubelet may evict it.")))
}

fn admit_node(ctx: &Context, attrs: &Attributes, obj: &Object, node: &str) -> Decision {
    let requested = if attrs.name.is_empty() { obj.name() } else { attrs.name.as_str() };
    if requested != node {
        return deny(attrs, obj, format!("node \"{node}\" is not allowed to modify node \"{requested}\""));
    }
    let Object::Node(new) = obj else {
        return Decision::allow(ctx.explain(|| format!("The kubelet of {node} acts on its own Node.")));
    };
    let new_labels = new.metadata.labels.clone().unwrap_or_default();
    match attrs.operation {
        Operation::Create => {
            if new.spec.as_ref().is_some_and(|s| s.config_source.is_some()) {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" is not allowed to create pods with a non-nil configSource"),
                );
            }
            let bad = forbidden_labels(&new_labels, &BTreeMap::new());
            if !bad.is_empty() {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" is not allowed to set the following labels: {}", bad.join(", ")),
                );
            }
            Decision::allow(ctx.explain(|| format!("The kubelet registers its own Node {node}.")))
        }
        Operation::Update => {
            let Some(Object::Node(old)) = &attrs.old_object else {
                return Decision::allow(ctx.explain(|| format!("The kubelet of {node} updates its own Node.")));
            };
            let new_spec = new.spec.clone().unwrap_or_default();
            let old_spec = old.spec.clone().unwrap_or_default();
            if new_spec.config_source.is_some() && new_spec.config_source != old_spec.config_source {
                return deny(
                    attrs,
                    obj,
                    format!("node \"{node}\" is not allowed to update configSource to a new non-nil configSource"),
                );
            }
            let norm = |t: Option<Vec<k8s_openapi::api::core::v1::Taint>>| t.filter(|v| !v.is_empty());
            if norm(new_spec.taints) != norm(old_spec.taints) {
                return deny(attrs, obj, format!("node \"{node}\" is not allowed to modify taints"));
            }
            let bad = forbidden_labels(&new_labels, &old.metadata.labels.clone().unwrap_or_default());
            if !bad.is_empty() {
                return deny(attrs, obj, format!("is not allowed to modify labels: {}", bad.join(", ")));
            }
            Decision::allow(ctx.explain(|| format!("The kubelet of {node} updates its own Node.")))
        }
        _ => Decision::allow(ctx.explain(|| format!("The kubelet of {node} acts on its own Node."))),
    }
}
