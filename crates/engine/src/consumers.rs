//! Who acts on each kind the API server accepts, and whether the lab models it.
//!
//! The API server of the lab stores every kind in [`crate::object::RESOURCES`], as a real one
//! does. What happens next is up to the components that watch the kind: a controller of
//! kube-controller-manager, the scheduler, a kubelet, an add-on. Where the lab has that
//! component, the trace shows it acting. Where it does not, a learner must not read the
//! quiet that follows as Kubernetes' behaviour: [`Announcer`] records a step saying which
//! component would act in a real cluster and what it would do, and the run lists those
//! objects ([`crate::lab::Run::not_modelled`]) for the page's outcome and the CLI.
//!
//! [`CONSUMERS`] is plain data, one row per kind; a test walks every kind of
//! [`crate::object::RESOURCES`] and checks that each has a row and that applying an object of
//! each kind that is not modelled is announced.

use crate::object::{Object, ResourceInfo};
use crate::sim::{object_ref, Actor, StepBuilder, Target, Task};
use crate::store::{EventType, WatchEvent};
use crate::trace::{Component, Detail, ObjectRef, Phase, StepStatus};
use crate::world::World;
use serde::Serialize;

/// What becomes of an object of one kind once it is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consumer {
    /// The lab models the components that act on it (named).
    Modelled(&'static str),
    /// Data that components read when they need it; nothing acts on it by itself, in a real
    /// cluster as in the lab (what reads it is named).
    Data(&'static str),
    /// A real cluster has a component acting on it that the lab does not model.
    NotModelled(Gap),
}

/// A component of a real cluster that the lab lacks, and what it would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gap {
    /// The component as upstream names it (`statefulset-controller`).
    pub component: &'static str,
    /// Where it runs (`kube-controller-manager`, `an add-on`), as the step's sentence says.
    pub runs_in: &'static str,
    /// The lifeline of the sequence diagram the step points at.
    pub lifeline: Component,
    /// What it would do with the object, in a sentence (present tense, "it" is the object).
    pub would: &'static str,
    /// What the learner sees in the lab instead.
    pub here: &'static str,
}

/// One row of [`CONSUMERS`].
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub group: &'static str,
    pub kind: &'static str,
    pub consumer: Consumer,
}

const KCM: &str = "kube-controller-manager";

macro_rules! modelled {
    ($group:literal, $kind:literal, $by:literal) => {
        Row { group: $group, kind: $kind, consumer: Consumer::Modelled($by) }
    };
}
macro_rules! data {
    ($group:literal, $kind:literal, $by:literal) => {
        Row { group: $group, kind: $kind, consumer: Consumer::Data($by) }
    };
}
macro_rules! gap {
    ($group:literal, $kind:literal, $component:literal, $runs_in:expr, $lifeline:expr, $would:literal, $here:literal) => {
        Row {
            group: $group,
            kind: $kind,
            consumer: Consumer::NotModelled(Gap {
                component: $component,
                runs_in: $runs_in,
                lifeline: $lifeline,
                would: $would,
                here: $here,
            }),
        }
    };
}

/// Every kind the API server accepts, with what acts on it.
pub const CONSUMERS: &[Row] = &[
    modelled!("", "Pod", "kube-scheduler, the kubelet, the container runtime and the CNI plugin"),
    modelled!("", "Namespace", "the NamespaceLifecycle admission plugin and the namespace controller"),
    modelled!("", "Node", "the kubelet, the node-lifecycle and taint-eviction controllers and kube-scheduler"),
    modelled!("", "Service", "the API server's ClusterIP allocation and the EndpointSlice and Endpoints controllers"),
    data!("", "ConfigMap", "the kubelet, for volumes and environment variables"),
    data!("", "Secret", "the kubelet, for volumes, environment variables and image pull secrets"),
    modelled!("", "ServiceAccount", "the ServiceAccount admission plugin and the kubelet's projected token"),
    modelled!("", "LimitRange", "the LimitRanger admission plugin"),
    modelled!("", "ResourceQuota", "the ResourceQuota admission plugin"),
    modelled!("", "PersistentVolumeClaim", "the PersistentVolume controller (binding, handing claims to their provisioner), kube-scheduler's VolumeBinding and the kubelet's mount"),
    modelled!("", "PersistentVolume", "the PersistentVolume controller and the kubelet's mount"),
    data!("", "Event", "kubectl describe and kubectl get events"),
    gap!(
        "",
        "ReplicationController",
        "replicationcontroller",
        KCM,
        Component::ControllerManager,
        "creates Pods from its template until spec.replicas of them match its selector, as a ReplicaSet does",
        "no Pods are created"
    ),
    modelled!("", "Endpoints", "the Endpoints controller (kube-proxy reads EndpointSlices; traffic is not modelled)"),
    data!("", "PodTemplate", "nothing: a stored template that other tools may copy"),
    modelled!("apps", "Deployment", "the deployment controller"),
    modelled!("apps", "ReplicaSet", "the replicaset controller"),
    modelled!("apps", "StatefulSet", "the statefulset controller"),
    modelled!("apps", "DaemonSet", "the daemonset controller"),
    data!("apps", "ControllerRevision", "the DaemonSet and StatefulSet controllers, which record their template revisions in it"),
    modelled!("batch", "Job", "the job controller"),
    modelled!("batch", "CronJob", "the cronjob controller"),
    modelled!(
        "autoscaling",
        "HorizontalPodAutoscaler",
        "the horizontal-pod-autoscaler controller, as on kind: no metrics-server, so its metrics are <unknown> and only minReplicas and maxReplicas are enforced"
    ),
    modelled!("policy", "PodDisruptionBudget", "the disruption controller (its status) and the Eviction API (kubectl drain)"),
    modelled!("discovery.k8s.io", "EndpointSlice", "the EndpointSlice controller (kube-proxy would read it; traffic is not modelled)"),
    gap!(
        "networking.k8s.io",
        "Ingress",
        "an ingress controller",
        "an add-on",
        Component::ApiServer,
        "routes HTTP to the backend Services and writes its address into status.loadBalancer; a kind cluster has no ingress controller until you install one (ingress-nginx, for example), so a real kind cluster leaves it without an ADDRESS too",
        "the Ingress has no address"
    ),
    gap!(
        "networking.k8s.io",
        "IngressClass",
        "an ingress controller",
        "an add-on",
        Component::ApiServer,
        "claims the Ingresses of this class (spec.controller names it); a kind cluster has none installed",
        "no controller claims it"
    ),
    gap!(
        "networking.k8s.io",
        "NetworkPolicy",
        "the network plugin's policy agent",
        "every node (kindnet on kind)",
        Component::Cni,
        "turns it into packet filters on every node, so only the traffic it allows reaches the Pods it selects",
        "no traffic is modelled, so nothing is filtered"
    ),
    modelled!("rbac.authorization.k8s.io", "Role", "the RBAC authorizer"),
    modelled!("rbac.authorization.k8s.io", "ClusterRole", "the RBAC authorizer and the clusterrole-aggregation controller"),
    modelled!("rbac.authorization.k8s.io", "RoleBinding", "the RBAC authorizer"),
    modelled!("rbac.authorization.k8s.io", "ClusterRoleBinding", "the RBAC authorizer"),
    modelled!("admissionregistration.k8s.io", "MutatingWebhookConfiguration", "the MutatingAdmissionWebhook plugin"),
    modelled!("admissionregistration.k8s.io", "ValidatingWebhookConfiguration", "the ValidatingAdmissionWebhook plugin"),
    modelled!("scheduling.k8s.io", "PriorityClass", "the Priority admission plugin and kube-scheduler's preemption"),
    gap!(
        "storage.k8s.io",
        "StorageClass",
        "its volume provisioner",
        "an add-on or CSI driver",
        Component::ControllerManager,
        "creates a PersistentVolume for each claim of this class (for WaitForFirstConsumer, once a Pod using the claim is scheduled); the lab models only kind's own provisioner, rancher.io/local-path, and classes that need none (kubernetes.io/no-provisioner)",
        "claims of this class that no existing volume fits stay Pending"
    ),
    gap!(
        "storage.k8s.io",
        "CSIDriver",
        "the kubelet's CSI volume plugin and the attach-detach controller",
        "every node and kube-controller-manager",
        Component::Kubelet,
        "tells them how to attach and mount the driver's volumes",
        "no CSI volume is attached or mounted"
    ),
    modelled!("node.k8s.io", "RuntimeClass", "the RuntimeClass admission plugin and the kubelet"),
    data!("coordination.k8s.io", "Lease", "leader election and the node-lifecycle controller (each kubelet renews its own)"),
    gap!(
        "apiextensions.k8s.io",
        "CustomResourceDefinition",
        "the API server's apiextensions handler",
        "kube-apiserver",
        Component::ApiServer,
        "checks its names, marks it Established and starts serving the new resource, so objects of the new kind can be created",
        "the definition is stored but the new kind is not served"
    ),
    gap!(
        "snapshot.storage.k8s.io",
        "VolumeSnapshot",
        "snapshot-controller",
        "an add-on",
        Component::ControllerManager,
        "asks the CSI driver for a snapshot of the claim's volume (a kind cluster has neither the snapshot CRDs nor the controller: there `kubectl apply` itself fails with `no matches for kind`)",
        "no snapshot is taken"
    ),
    gap!(
        "snapshot.storage.k8s.io",
        "VolumeSnapshotClass",
        "snapshot-controller",
        "an add-on",
        Component::ControllerManager,
        "uses it to take the snapshots of its driver (a kind cluster has neither the snapshot CRDs nor the controller)",
        "no snapshot is taken"
    ),
];

/// The row of `kind` in `group`, if the table has one.
pub fn row(group: &str, kind: &str) -> Option<&'static Row> {
    CONSUMERS.iter().find(|r| r.group == group && r.kind == kind)
}

/// The row of a kind of the resource table.
pub fn row_of(info: &ResourceInfo) -> Option<&'static Row> {
    row(info.group, info.kind)
}

/// The gap of an object's kind, when the lab does not model what acts on it.
pub fn gap_of(obj: &Object) -> Option<&'static Gap> {
    // A StorageClass is acted on by its provisioner: the lab models kind's own.
    if obj.kind() == "StorageClass" {
        let provisioner = obj.to_json().get("provisioner").and_then(|p| p.as_str().map(str::to_string));
        if matches!(
            provisioner.as_deref(),
            Some(crate::controllers::localpath::PROVISIONER | "kubernetes.io/no-provisioner")
        ) {
            return None;
        }
    }
    match row_of(obj.resource()?)?.consumer {
        Consumer::NotModelled(ref gap) => Some(gap),
        _ => None,
    }
}

/// An object of the run that a component the lab lacks would act on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NotModelled {
    pub object: ObjectRef,
    /// The component that would act (`statefulset-controller`).
    pub component: String,
    /// The whole sentence the step shows.
    pub text: String,
    /// The step that says so.
    pub step: usize,
}

/// The sentence a step shows for `gap` and `obj`.
pub fn sentence(gap: &Gap, obj: &Object) -> String {
    let what = match obj.namespace() {
        Some(ns) => format!("{} {ns}/{}", obj.kind(), obj.name()),
        None => format!("{} {}", obj.kind(), obj.name()),
    };
    format!(
        "In a real cluster, {} ({}) acts on {what}: it {}. The lab does not model {}, so here {}. Read this as a gap of the lab, not as Kubernetes' behaviour.",
        gap.component, gap.runs_in, gap.would, gap.component, gap.here
    )
}

/// The actor that announces the objects whose consumer the lab lacks: it watches every
/// kind and, when an object of such a kind is created during the run, records a warning
/// step with [`sentence`] and keeps it for [`crate::lab::Run::not_modelled`].
#[derive(Debug, Default)]
pub struct Announcer {
    pub found: Vec<NotModelled>,
}

impl Actor<World> for Announcer {
    fn handles(&self, _target: &Target) -> bool {
        false
    }

    fn observe(&mut self, core: &mut World, event: &WatchEvent<Object>) {
        if event.kind != EventType::Added {
            return;
        }
        let obj = &*event.object;
        let Some(gap) = gap_of(obj) else { return };
        let text = sentence(gap, obj);
        let summary = format!("not modelled: {} would act on {} {}", gap.component, obj.kind(), obj.name());
        let step = core.record(
            StepBuilder::new(
                Phase::Controllers,
                Component::ApiServer,
                gap.lifeline,
                summary,
                Detail::Note { text: text.clone() },
            )
            .object(Some(object_ref(obj)))
            .status(StepStatus::Warning),
        );
        self.found.push(NotModelled { object: object_ref(obj), component: gap.component.to_string(), text, step });
    }

    fn run(&mut self, _core: &mut World, _task: &Task) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::RESOURCES;

    #[test]
    fn every_kind_the_api_server_accepts_has_a_row() {
        for info in RESOURCES {
            assert!(row_of(info).is_some(), "{} ({}) has no row in CONSUMERS", info.kind, info.api_version());
        }
        for r in CONSUMERS {
            assert!(
                RESOURCES.iter().any(|i| i.group == r.group && i.kind == r.kind),
                "{} in {:?} is not a kind of the API server",
                r.kind,
                r.group
            );
            assert_eq!(CONSUMERS.iter().filter(|o| o.group == r.group && o.kind == r.kind).count(), 1, "{}", r.kind);
        }
    }
}
