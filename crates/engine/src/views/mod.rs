//! What a learner would see in a terminal at any step of the trace: kubectl v1.37's
//! printers, exact to the character, rendered from the etcd model at a revision.
//!
//! * [`Snapshot`] reads the store as it stood at one revision and renders one command:
//!   `kubectl get pods` (`-o wide`, `-A`), `describe pod`, `get events`, `get deployments`,
//!   `describe deployment`, `get replicasets`, `get statefulsets`, `describe statefulset`,
//!   `get daemonsets`, `describe daemonset`, `get cronjobs`, `describe cronjob`, `get jobs`,
//!   `get persistentvolumeclaims`, `describe persistentvolumeclaim`, `get persistentvolumes`,
//!   `describe persistentvolume`, `get services`, `get endpointslices`, `get endpoints`,
//!   `get nodes` (`-o wide`), `describe node` and the `describe` of ConfigMaps, Secrets,
//!   Namespaces, ServiceAccounts, LimitRanges, ResourceQuotas and the RBAC kinds (`config.rs`);
//!   `get` of every other kind (`kinds.rs`) and the describers of the kinds left, kubectl's
//!   generic one included (`describers.rs`).
//! * [`get_pods_watch`] replays `kubectl get pods -w` from the store's watch log; [`table_row`]
//!   and [`WatchTable`] print the rows of a session's `kubectl get -w` for any kind.
//! * [`at`] renders all of them at once for the lab's panes ([`Views`]).
//! * The web lab's other panels, as plain data: the cluster panel's node and policy
//!   summaries at a revision ([`nodes_at`], [`policy_at`]) and the editor's [`markers`].
//!
//! Time: objects carry wall-clock timestamps derived from the logical clock
//! (`apiserver::timestamp`), and a printer's "now" is a logical time in milliseconds, so an
//! object created at logical `t` shows the age `now - t` (to the second, as stored).
//!
//! Sources (facts, re-implemented): `pkg/printers/internalversion/printers.go` (the API
//! server's table printers), cli-runtime's `tableprinter.go` and the `liggitt/tabwriter`
//! settings kubectl uses, kubectl's `get.go` (watch, "No resources found"), `describe.go`
//! and apimachinery's `duration.HumanDuration`.

mod cluster;
mod config;
mod describe;
mod describers;
mod format;
mod kinds;
pub mod markers;
mod node;
mod pods;
mod policy;
mod printers;
mod storage;
mod table;
mod tabwriter;
mod watch;
mod workloads;

#[cfg(test)]
mod tests;

pub use cluster::{nodes_at, NodeSummary, Usage};
pub use config::{
    describe_binding, describe_configmap, describe_limitrange, describe_namespace, describe_resourcequota,
    describe_role, describe_secret, describe_serviceaccount,
};
pub use describe::{describe_pod, describe_probe, pod_qos};
pub use describers::{describe_endpoint_slice, describe_endpoints, describe_generic, describe_hpa, smart_label_for};
pub use format::{human_duration, rfc1123z, Clock};
pub use kinds::{kind_row, KINDS};
pub use markers::{Marker, MarkerKind, Severity};
pub use node::{describe_node, pod_limits, pod_requests, LeaseInfo};
pub use pods::{pod_row, pod_summary, PodSummary, POD_COLUMNS};
pub use policy::{policy_at, BindingSummary, NamespaceSummary, PolicySummary, WebhookSummary};
pub use printers::{
    deployment_row, endpoint_slice_row, endpoints_row, event_row, format_label_selector, job_row,
    label_selector_string, node_roles, node_row, replicaset_row, service_row,
};
pub use storage::{claim_storage_class, describe_pv, describe_pvc, pods_using_claim, volume_storage_class};
pub use table::{no_resources, render_get, Column, GetOptions, Row, Table};
pub use tabwriter::TabWriter;
pub use watch::{get_pods_watch, has_table_printer, table_row, RevisionClock, WatchTable, TABLE_KINDS};
pub use workloads::{
    describe_cronjob, describe_daemonset, describe_deployment, describe_statefulset, old_and_new_replicasets,
    PodPhaseCounts,
};

use crate::object::{resource_for_kind, Object};
use crate::store::Store;
use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
use k8s_openapi::api::core::v1::{Endpoints, Event, LimitRange, Node, Pod, ResourceQuota};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use serde::{Deserialize, Serialize};

/// The store as it stood at one revision, seen at one logical time.
#[derive(Clone, Copy, Debug)]
pub struct Snapshot<'a> {
    pub store: &'a Store<Object>,
    pub revision: u64,
    pub clock: Clock,
    /// Keeps only the objects it accepts in [`Snapshot::list`] (`kubectl get TYPE NAME`,
    /// `-l SELECTOR`); `None` keeps all.
    pub pick: Option<Pick<'a>>,
}

/// A filter on the objects a [`Snapshot`] lists.
#[derive(Clone, Copy)]
pub struct Pick<'a>(pub &'a dyn Fn(&Object) -> bool);

impl std::fmt::Debug for Pick<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pick(..)")
    }
}

/// `DescribePodTemplate`'s text for one template (`kubectl rollout history --revision=N`).
pub fn describe_template(template: Option<&k8s_openapi::api::core::v1::PodTemplateSpec>) -> String {
    let mut w = describe::PrefixWriter::new();
    describe::describe_pod_template(&mut w, template);
    w.finish()
}

impl<'a> Snapshot<'a> {
    pub fn new(store: &'a Store<Object>, revision: u64, now_ms: u64) -> Snapshot<'a> {
        Snapshot { store, revision, clock: Clock::at(now_ms), pick: None }
    }

    /// The same snapshot, listing only the objects `pick` accepts.
    pub fn picking(mut self, pick: &'a dyn Fn(&Object) -> bool) -> Snapshot<'a> {
        self.pick = Some(Pick(pick));
        self
    }

    /// Objects of `kind` in `namespace` (all namespaces for `None` or a cluster-scoped
    /// kind), in etcd key order — the order the API server lists them in.
    pub fn list(&self, kind: &str, namespace: Option<&str>) -> Vec<&'a Object> {
        let Some(res) = resource_for_kind(kind) else { return Vec::new() };
        self.store
            .list_at(&res.list_prefix(namespace), self.revision)
            .into_iter()
            .map(|(_, o, _)| o)
            .filter(|o| o.kind() == kind)
            .filter(|o| self.pick.is_none_or(|p| (p.0)(o)))
            .collect()
    }

    pub fn get(&self, kind: &str, namespace: Option<&str>, name: &str) -> Option<&'a Object> {
        let res = resource_for_kind(kind)?;
        self.store.get_at(&res.etcd_key(namespace, name), self.revision).map(|(o, _)| o)
    }

    fn pods(&self, namespace: Option<&str>) -> Vec<&'a Pod> {
        self.list("Pod", namespace).into_iter().filter_map(Object::as_pod).collect()
    }

    fn events(&self, namespace: Option<&str>) -> Vec<&'a Event> {
        self.list("Event", namespace)
            .into_iter()
            .filter_map(|o| match o {
                Object::Event(e) => Some(&**e),
                _ => None,
            })
            .collect()
    }

    fn render(
        &self,
        kind: &str,
        columns: &'static [Column],
        rows: Vec<Row>,
        namespace: &str,
        opts: GetOptions,
    ) -> String {
        let namespaced = resource_for_kind(kind).is_some_and(|r| r.namespaced);
        render_get(&Table { columns, rows }, opts, namespaced, namespace)
    }

    fn scope(namespace: &str, opts: GetOptions) -> Option<&str> {
        if opts.all_namespaces {
            None
        } else {
            Some(namespace)
        }
    }

    /// `kubectl get pods [-o wide] [-A]`.
    pub fn get_pods(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self.pods(Self::scope(namespace, opts)).into_iter().map(|p| pod_row(p, self.clock)).collect();
        self.render("Pod", POD_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get events`.
    pub fn get_events(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self.events(Self::scope(namespace, opts)).into_iter().map(|e| event_row(e, self.clock)).collect();
        self.render("Event", printers::EVENT_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get deployments`.
    pub fn get_deployments(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("Deployment", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| match o {
                Object::Deployment(d) => Some(deployment_row(d, self.clock)),
                _ => None,
            })
            .collect();
        self.render("Deployment", printers::DEPLOYMENT_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get replicasets`.
    pub fn get_replicasets(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("ReplicaSet", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| match o {
                Object::ReplicaSet(rs) => Some(replicaset_row(rs, self.clock)),
                _ => None,
            })
            .collect();
        self.render("ReplicaSet", printers::REPLICASET_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get statefulsets`.
    pub fn get_statefulsets(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("StatefulSet", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| match o {
                Object::StatefulSet(set) => Some(printers::statefulset_row(set, self.clock)),
                _ => None,
            })
            .collect();
        self.render("StatefulSet", printers::STATEFULSET_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get daemonsets`.
    pub fn get_daemonsets(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("DaemonSet", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| match o {
                Object::DaemonSet(ds) => Some(printers::daemonset_row(ds, self.clock)),
                _ => None,
            })
            .collect();
        self.render("DaemonSet", printers::DAEMONSET_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get persistentvolumeclaims`.
    pub fn get_pvcs(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("PersistentVolumeClaim", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| match o {
                Object::PersistentVolumeClaim(c) => Some(printers::persistent_volume_claim_row(c, self.clock)),
                _ => None,
            })
            .collect();
        self.render("PersistentVolumeClaim", printers::PERSISTENT_VOLUME_CLAIM_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get persistentvolumes` (cluster-scoped).
    pub fn get_pvs(&self, opts: GetOptions) -> String {
        let rows = self
            .list("PersistentVolume", None)
            .into_iter()
            .filter_map(|o| match o {
                Object::PersistentVolume(v) => Some(printers::persistent_volume_row(v, self.clock)),
                _ => None,
            })
            .collect();
        self.render("PersistentVolume", printers::PERSISTENT_VOLUME_COLUMNS, rows, "", opts)
    }

    /// `kubectl get cronjobs`.
    pub fn get_cronjobs(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("CronJob", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| match o {
                Object::CronJob(cj) => Some(printers::cronjob_row(cj, self.clock)),
                _ => None,
            })
            .collect();
        self.render("CronJob", printers::CRONJOB_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get hpa` (horizontalpodautoscalers).
    pub fn get_hpas(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("HorizontalPodAutoscaler", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| match o {
                Object::Other(u) => Some(printers::hpa_row(u, self.clock)),
                _ => None,
            })
            .collect();
        self.render("HorizontalPodAutoscaler", printers::HPA_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get poddisruptionbudgets`.
    pub fn get_pdbs(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("PodDisruptionBudget", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| match o {
                Object::Other(u) => Some(printers::pdb_row(u, self.clock)),
                _ => None,
            })
            .collect();
        self.render("PodDisruptionBudget", printers::PDB_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get jobs`.
    pub fn get_jobs(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("Job", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| match o {
                Object::Job(j) => Some(job_row(j, self.clock)),
                _ => None,
            })
            .collect();
        self.render("Job", printers::JOB_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get services`.
    pub fn get_services(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("Service", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| match o {
                Object::Service(s) => Some(service_row(s, self.clock, opts.wide)),
                _ => None,
            })
            .collect();
        self.render("Service", printers::SERVICE_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get endpointslices`.
    pub fn get_endpointslices(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("EndpointSlice", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| match o {
                Object::EndpointSlice(e) => Some(endpoint_slice_row(e, self.clock)),
                _ => None,
            })
            .collect();
        self.render("EndpointSlice", printers::ENDPOINT_SLICE_COLUMNS, rows, namespace, opts)
    }

    /// `kubectl get endpoints`, with the deprecation warning the API server sends (v1.33+).
    pub fn get_endpoints(&self, namespace: &str, opts: GetOptions) -> String {
        let rows = self
            .list("Endpoints", Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| crate::decode::from_value::<Endpoints>(&o.to_json()).ok())
            .map(|e| endpoints_row(&e, self.clock))
            .collect();
        let table = self.render("Endpoints", printers::ENDPOINTS_COLUMNS, rows, namespace, opts);
        format!("Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n{table}")
    }

    fn nodes(&self) -> Vec<&'a Node> {
        self.list("Node", None)
            .into_iter()
            .filter_map(|o| match o {
                Object::Node(n) => Some(&**n),
                _ => None,
            })
            .collect()
    }

    /// `kubectl get nodes [-o wide]`.
    pub fn get_nodes(&self, opts: GetOptions) -> String {
        let rows = self.nodes().into_iter().map(|n| node_row(n, self.clock)).collect();
        self.render("Node", printers::NODE_COLUMNS, rows, "", opts)
    }

    /// The events `kubectl describe pod` finds: same namespace, name and (when the pod has
    /// one) UID in `involvedObject`.
    pub fn pod_events(&self, pod: &Pod) -> Vec<&'a Event> {
        self.events_about(None, &pod.metadata)
    }

    /// `kubectl describe pod <name>`; `None` when the pod does not exist at this revision.
    pub fn describe_pod(&self, namespace: &str, name: &str) -> Option<String> {
        let pod = self.get("Pod", Some(namespace), name)?.as_pod()?;
        Some(describe_pod(pod, &self.pod_events(pod), self.clock))
    }

    /// The events a describer finds for an object: same namespace, name, kind (unless
    /// `None`, as for pods) and, when the object has one, UID. For a cluster-scoped object
    /// kubectl searches the events of every namespace (the recorder files them in
    /// `default`) for an empty `involvedObject.namespace`.
    fn events_about(
        &self,
        kind: Option<&str>,
        meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    ) -> Vec<&'a Event> {
        let ns = meta.namespace.as_deref().unwrap_or("");
        let name = meta.name.as_deref().unwrap_or("");
        let uid = meta.uid.as_deref().filter(|u| !u.is_empty());
        self.events(Some(ns).filter(|ns| !ns.is_empty()))
            .into_iter()
            .filter(|e| {
                let o = &e.involved_object;
                o.name.as_deref() == Some(name)
                    && o.namespace.as_deref().unwrap_or("") == ns
                    && kind.is_none_or(|k| o.kind.as_deref() == Some(k))
                    && uid.is_none_or(|u| o.uid.as_deref() == Some(u))
            })
            .collect()
    }

    fn replicasets(&self, namespace: Option<&str>) -> Vec<&'a ReplicaSet> {
        self.list("ReplicaSet", namespace)
            .into_iter()
            .filter_map(|o| match o {
                Object::ReplicaSet(rs) => Some(&**rs),
                _ => None,
            })
            .collect()
    }

    fn deployments(&self, namespace: Option<&str>) -> Vec<&'a Deployment> {
        self.list("Deployment", namespace)
            .into_iter()
            .filter_map(|o| match o {
                Object::Deployment(d) => Some(&**d),
                _ => None,
            })
            .collect()
    }

    /// `kubectl describe deployment <name>`.
    pub fn describe_deployment(&self, namespace: &str, name: &str) -> Option<String> {
        let d = match self.get("Deployment", Some(namespace), name)? {
            Object::Deployment(d) => &**d,
            _ => return None,
        };
        Some(self.describe_deployment_object(d))
    }

    fn describe_deployment_object(&self, d: &Deployment) -> String {
        let all = self.replicasets(d.metadata.namespace.as_deref());
        let (old, new) = old_and_new_replicasets(d, &all);
        describe_deployment(d, &old, new, &self.events_about(Some("Deployment"), &d.metadata), self.clock)
    }

    /// "Pods Status" of a workload (`getPodStatusForController`): the pods of `namespace`
    /// that `selector` matches and whose controller reference has the workload's `uid`, by
    /// phase.
    fn pod_phases_for_controller(
        &self,
        namespace: Option<&str>,
        selector: &LabelSelector,
        uid: Option<&str>,
    ) -> PodPhaseCounts {
        let mut counts = PodPhaseCounts::default();
        for pod in self.pods(namespace) {
            if !crate::labels::label_selector_matches(selector, pod.metadata.labels.as_ref()) {
                continue;
            }
            let owner = pod.metadata.owner_references.iter().flatten().find(|o| o.controller == Some(true));
            if owner.is_none_or(|o| Some(o.uid.as_str()) != uid) {
                continue;
            }
            counts.add(pod.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or(""));
        }
        counts
    }

    /// `kubectl describe replicaset <name>`.
    pub fn describe_replicaset(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::ReplicaSet(rs) = self.get("ReplicaSet", Some(namespace), name)? else { return None };
        let pods = self.pod_phases_for_controller(Some(namespace), &rs.spec.selector, rs.metadata.uid.as_deref());
        let events = self.events_about(Some("ReplicaSet"), &rs.metadata);
        Some(workloads::describe_replicaset(rs, pods, &events, self.clock))
    }

    /// `kubectl describe service <name>`, its endpoints from the Service's EndpointSlices.
    pub fn describe_service(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::Service(svc) = self.get("Service", Some(namespace), name)? else { return None };
        let slices: Vec<serde_json::Value> = self
            .list("EndpointSlice", Some(namespace))
            .into_iter()
            .map(|o| o.to_json())
            .filter(|j| {
                j.pointer("/metadata/labels/kubernetes.io~1service-name").and_then(|v| v.as_str()) == Some(name)
            })
            .collect();
        let events = self.events_about(Some("Service"), &svc.metadata);
        Some(describe::describe_service(svc, &slices, &events, self.clock))
    }

    /// `kubectl describe statefulset <name>`.
    pub fn describe_statefulset(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::StatefulSet(set) = self.get("StatefulSet", Some(namespace), name)? else { return None };
        let selector = set.spec.selector.clone();
        let pods = self.pod_phases_for_controller(Some(namespace), &selector, set.metadata.uid.as_deref());
        let events = self.events_about(Some("StatefulSet"), &set.metadata);
        Some(describe_statefulset(set, pods, &events, self.clock))
    }

    /// `kubectl describe daemonset <name>`.
    pub fn describe_daemonset(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::DaemonSet(ds) = self.get("DaemonSet", Some(namespace), name)? else { return None };
        let selector = ds.spec.selector.clone();
        let pods = self.pod_phases_for_controller(Some(namespace), &selector, ds.metadata.uid.as_deref());
        let events = self.events_about(Some("DaemonSet"), &ds.metadata);
        Some(describe_daemonset(ds, pods, &events, self.clock))
    }

    /// `kubectl describe cronjob <name>`.
    pub fn describe_cronjob(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::CronJob(cj) = self.get("CronJob", Some(namespace), name)? else { return None };
        Some(describe_cronjob(cj, &self.events_about(Some("CronJob"), &cj.metadata), self.clock))
    }

    /// `kubectl describe job <name>`.
    pub fn describe_job(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::Job(job) = self.get("Job", Some(namespace), name)? else { return None };
        Some(workloads::describe_job(job, &self.events_about(Some("Job"), &job.metadata), self.clock))
    }

    /// `kubectl describe poddisruptionbudget <name>`.
    pub fn describe_pdb(&self, namespace: &str, name: &str) -> Option<String> {
        let pdb = self.get("PodDisruptionBudget", Some(namespace), name)?;
        if !matches!(pdb, Object::Other(_)) {
            return None;
        }
        let events = self.events_about(Some("PodDisruptionBudget"), pdb.meta());
        Some(workloads::describe_pdb(&pdb.to_json(), &events, self.clock))
    }

    /// `kubectl describe persistentvolumeclaim <name>`, with the pods of its namespace using it.
    pub fn describe_pvc(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::PersistentVolumeClaim(pvc) = self.get("PersistentVolumeClaim", Some(namespace), name)? else {
            return None;
        };
        let pods = self.pods(Some(namespace));
        let used_by = pods_using_claim(pvc, &pods);
        let events = self.events_about(Some("PersistentVolumeClaim"), &pvc.metadata);
        Some(describe_pvc(pvc, &used_by, &events, self.clock))
    }

    /// `kubectl describe persistentvolume <name>` (cluster-scoped).
    pub fn describe_pv(&self, name: &str) -> Option<String> {
        let Object::PersistentVolume(pv) = self.get("PersistentVolume", None, name)? else { return None };
        Some(describe_pv(pv, &self.events_about(Some("PersistentVolume"), &pv.metadata), self.clock))
    }

    /// `kubectl describe configmap <name>`.
    pub fn describe_configmap(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::ConfigMap(cm) = self.get("ConfigMap", Some(namespace), name)? else { return None };
        Some(describe_configmap(cm, &self.events_about(Some("ConfigMap"), &cm.metadata), self.clock))
    }

    /// `kubectl describe secret <name>` (kubectl shows no events for a Secret).
    pub fn describe_secret(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::Secret(secret) = self.get("Secret", Some(namespace), name)? else { return None };
        Some(describe_secret(secret))
    }

    /// `kubectl describe serviceaccount <name>`.
    pub fn describe_serviceaccount(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::ServiceAccount(sa) = self.get("ServiceAccount", Some(namespace), name)? else { return None };
        Some(describe_serviceaccount(sa, &self.events_about(Some("ServiceAccount"), &sa.metadata), self.clock))
    }

    /// `kubectl describe namespace <name>`, with the ResourceQuotas and LimitRanges in it.
    pub fn describe_namespace(&self, name: &str) -> Option<String> {
        let Object::Namespace(ns) = self.get("Namespace", None, name)? else { return None };
        let quotas: Vec<&ResourceQuota> = self
            .list("ResourceQuota", Some(name))
            .into_iter()
            .filter_map(|o| match o {
                Object::ResourceQuota(q) => Some(&**q),
                _ => None,
            })
            .collect();
        let ranges: Vec<&LimitRange> = self
            .list("LimitRange", Some(name))
            .into_iter()
            .filter_map(|o| match o {
                Object::LimitRange(l) => Some(&**l),
                _ => None,
            })
            .collect();
        Some(describe_namespace(ns, &quotas, &ranges))
    }

    /// `kubectl describe limitrange <name>`.
    pub fn describe_limitrange(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::LimitRange(lr) = self.get("LimitRange", Some(namespace), name)? else { return None };
        Some(describe_limitrange(lr))
    }

    /// `kubectl describe resourcequota <name>`.
    pub fn describe_resourcequota(&self, namespace: &str, name: &str) -> Option<String> {
        let Object::ResourceQuota(q) = self.get("ResourceQuota", Some(namespace), name)? else { return None };
        Some(describe_resourcequota(q))
    }

    /// `kubectl describe role|clusterrole <name>` (`namespace` is ignored for a ClusterRole).
    pub fn describe_role(&self, kind: &str, namespace: &str, name: &str) -> Option<String> {
        match self.get(kind, Some(namespace).filter(|_| kind == "Role"), name)? {
            Object::Role(r) => Some(describe_role(&r.metadata, r.rules.as_deref().unwrap_or_default())),
            Object::ClusterRole(r) => Some(describe_role(&r.metadata, r.rules.as_deref().unwrap_or_default())),
            _ => None,
        }
    }

    /// `kubectl describe rolebinding|clusterrolebinding <name>` (`namespace` is ignored for a
    /// ClusterRoleBinding).
    pub fn describe_binding(&self, kind: &str, namespace: &str, name: &str) -> Option<String> {
        match self.get(kind, Some(namespace).filter(|_| kind == "RoleBinding"), name)? {
            Object::RoleBinding(b) => {
                Some(describe_binding(&b.metadata, &b.role_ref, b.subjects.as_deref().unwrap_or_default()))
            }
            Object::ClusterRoleBinding(b) => {
                Some(describe_binding(&b.metadata, &b.role_ref, b.subjects.as_deref().unwrap_or_default()))
            }
            _ => None,
        }
    }

    /// The pods bound to node `name` and not finished (neither `Succeeded` nor `Failed`):
    /// the ones `kubectl describe node` lists and whose requests it sums.
    pub fn pods_on_node(&self, name: &str) -> Vec<&'a Pod> {
        self.pods(None)
            .into_iter()
            .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(name))
            .filter(|p| {
                let phase = p.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("");
                phase != "Succeeded" && phase != "Failed"
            })
            .collect()
    }

    /// `kubectl describe node <name>`.
    pub fn describe_node(&self, name: &str) -> Option<String> {
        let node = match self.get("Node", None, name)? {
            Object::Node(n) => &**n,
            _ => return None,
        };
        let pods = self.pods_on_node(name);
        // Node events: the controllers use the node's UID, the kubelet its name.
        let uid = node.metadata.uid.as_deref().unwrap_or("");
        let all_events = self.events(None);
        let about_node = |wanted_uid: &str| {
            all_events
                .iter()
                .copied()
                .filter(|e| {
                    let o = &e.involved_object;
                    o.name.as_deref() == Some(name)
                        && o.namespace.as_deref().unwrap_or("").is_empty()
                        && o.kind.as_deref() == Some("Node")
                        && (wanted_uid.is_empty() || o.uid.as_deref() == Some(wanted_uid))
                })
                .collect::<Vec<_>>()
        };
        let mut events = about_node(uid);
        events.extend(about_node(name));
        let lease = self.get("Lease", Some("kube-node-lease"), name).map(|o| lease_info(&o.to_json()));
        Some(describe_node(node, &pods, &events, lease.as_ref(), self.clock))
    }
}

fn lease_info(json: &serde_json::Value) -> LeaseInfo {
    let spec = &json["spec"];
    let time = |k: &str| spec[k].as_str().and_then(|s| s.parse::<k8s_openapi::jiff::Timestamp>().ok());
    LeaseInfo {
        holder_identity: spec["holderIdentity"].as_str().map(str::to_string),
        acquire_time: time("acquireTime"),
        renew_time: time("renewTime"),
    }
}

/// Every pane of the lab at one step.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Views {
    pub namespace: String,
    pub get_pods: String,
    pub get_pods_wide: String,
    pub get_pods_all_namespaces: String,
    /// `kubectl get pods -w`, started at the watch revision.
    pub get_pods_watch: String,
    /// `kubectl describe pod <name>` for each pod of the namespace, by name.
    pub describe_pods: Vec<(String, String)>,
    pub get_events: String,
    pub get_deployments: String,
    pub get_replicasets: String,
    pub get_statefulsets: String,
    pub get_daemonsets: String,
    pub get_pvcs: String,
    pub get_pvs: String,
    pub get_cronjobs: String,
    pub get_hpas: String,
    pub get_jobs: String,
    pub get_services: String,
    pub get_endpointslices: String,
    pub get_endpoints: String,
    pub get_nodes: String,
    pub get_nodes_wide: String,
    /// `kubectl describe deployment <name>` for each deployment of the namespace.
    pub describe_deployments: Vec<(String, String)>,
    /// `kubectl describe node <name>` for each node.
    pub describe_nodes: Vec<(String, String)>,
}

/// Renders every view at `revision`, seen at logical time `now_ms`, for `namespace`. The
/// watch pane shows `kubectl get pods -w` started at `watch_from_revision`; `clock` says
/// when each revision was written (see [`RevisionClock::from_steps`]).
pub fn at(
    store: &Store<Object>,
    revision: u64,
    now_ms: u64,
    namespace: &str,
    watch_from_revision: u64,
    clock: &RevisionClock,
) -> Views {
    let s = Snapshot::new(store, revision, now_ms);
    let plain = GetOptions::default();
    let wide = GetOptions { wide: true, all_namespaces: false };
    let all = GetOptions { wide: false, all_namespaces: true };
    let describe_pods = s
        .pods(Some(namespace))
        .into_iter()
        .map(|p| {
            let name = p.metadata.name.clone().unwrap_or_default();
            (name, describe_pod(p, &s.pod_events(p), s.clock))
        })
        .collect();
    let describe_deployments = s
        .deployments(Some(namespace))
        .into_iter()
        .map(|d| (d.metadata.name.clone().unwrap_or_default(), s.describe_deployment_object(d)))
        .collect();
    let describe_nodes = s
        .nodes()
        .into_iter()
        .filter_map(|n| {
            let name = n.metadata.name.clone().unwrap_or_default();
            s.describe_node(&name).map(|d| (name, d))
        })
        .collect();
    Views {
        namespace: namespace.to_string(),
        get_pods: s.get_pods(namespace, plain),
        get_pods_wide: s.get_pods(namespace, wide),
        get_pods_all_namespaces: s.get_pods(namespace, all),
        get_pods_watch: get_pods_watch(store, namespace, watch_from_revision.min(revision), revision, clock, now_ms),
        describe_pods,
        get_events: s.get_events(namespace, plain),
        get_deployments: s.get_deployments(namespace, plain),
        describe_deployments,
        get_replicasets: s.get_replicasets(namespace, plain),
        get_statefulsets: s.get_statefulsets(namespace, plain),
        get_daemonsets: s.get_daemonsets(namespace, plain),
        get_pvcs: s.get_pvcs(namespace, plain),
        get_pvs: s.get_pvs(plain),
        get_cronjobs: s.get_cronjobs(namespace, plain),
        get_hpas: s.get_hpas(namespace, plain),
        get_jobs: s.get_jobs(namespace, plain),
        get_services: s.get_services(namespace, plain),
        get_endpointslices: s.get_endpointslices(namespace, plain),
        get_endpoints: s.get_endpoints(namespace, plain),
        get_nodes: s.get_nodes(plain),
        get_nodes_wide: s.get_nodes(wide),
        describe_nodes,
    }
}
