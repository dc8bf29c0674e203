//! The cluster as the scheduler sees it: upstream's scheduler cache and its per-cycle
//! snapshot. Nodes carry precomputed `NodeInfo` (allocatable, requested, ports, images,
//! the pods bound there); pods carry precomputed `PodInfo` (requests, ports, parsed
//! affinity terms). The simulation keeps one `ClusterSnapshot` up to date as objects
//! change (`add_pod`, `assume`, `remove_pod`, `add_node`, ...), so a scheduling cycle
//! never re-reads manifests.

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::apps::v1::{ReplicaSet, StatefulSet};
use k8s_openapi::api::core::v1::{
    Namespace, Node, PersistentVolume, PersistentVolumeClaim, Pod, PodAffinityTerm, ReplicationController, Service,
    Taint,
};
use k8s_openapi::api::scheduling::v1::PriorityClass;
use k8s_openapi::api::storage::v1::StorageClass;

use super::resources::{node_allocatable, pod_resources, PodResources, Resource};
use super::selectors::{no_labels, Labels, Selector};
use crate::object::Object;

/// A host port a pod binds on its node (`hostIP` defaults to 0.0.0.0, protocol to TCP).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostPort {
    pub ip: String,
    pub protocol: String,
    pub port: i32,
}

impl HostPort {
    /// `HostPortInfo.CheckConflict`: 0.0.0.0 conflicts with every address.
    pub fn conflicts(&self, other: &HostPort) -> bool {
        self.port == other.port
            && self.protocol == other.protocol
            && (self.ip == other.ip || self.ip == "0.0.0.0" || other.ip == "0.0.0.0")
    }
}

/// A parsed pod (anti-)affinity term (`fwk.AffinityTerm`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffinityTerm {
    pub namespaces: Vec<String>,
    pub namespace_selector: Selector,
    pub selector: Selector,
    pub topology_key: String,
}

impl AffinityTerm {
    fn new(owner_ns: &str, t: &PodAffinityTerm) -> AffinityTerm {
        let given = t.namespaces.clone().unwrap_or_default();
        let namespaces =
            if given.is_empty() && t.namespace_selector.is_none() { vec![owner_ns.to_string()] } else { given };
        AffinityTerm {
            namespaces,
            namespace_selector: Selector::from_label_selector(t.namespace_selector.as_ref()),
            selector: Selector::from_label_selector(t.label_selector.as_ref()),
            topology_key: t.topology_key.clone(),
        }
    }

    /// Whether `pod` (in a namespace with labels `ns_labels`) is selected by the term.
    pub fn matches(&self, pod: &PodInfo, ns_labels: &Labels) -> bool {
        (self.namespaces.contains(&pod.namespace) || self.namespace_selector.matches(ns_labels))
            && self.selector.matches(&pod.labels)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightedTerm {
    pub term: AffinityTerm,
    pub weight: i32,
}

/// A pod with everything the plugins need precomputed (upstream `PodInfo`).
#[derive(Clone, Debug)]
pub struct PodInfo {
    /// The pod (the store's handle when the snapshot was built from the store).
    pub pod: Arc<Pod>,
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub labels: Labels,
    pub priority: i32,
    pub resources: PodResources,
    pub host_ports: Vec<HostPort>,
    pub required_affinity: Vec<AffinityTerm>,
    pub required_anti_affinity: Vec<AffinityTerm>,
    pub preferred_affinity: Vec<WeightedTerm>,
    pub preferred_anti_affinity: Vec<WeightedTerm>,
    /// `status.startTime` in ms since the epoch (preemption prefers to keep older pods).
    pub start_time_ms: Option<i64>,
    /// Has a deletion timestamp (terminating pods are not counted by spreading).
    pub terminating: bool,
    pub node_name: String,
    pub nominated_node: String,
}

impl PodInfo {
    /// `priority_classes` resolves `priorityClassName` when `spec.priority` is not set yet
    /// (the Priority admission plugin normally sets it).
    pub fn new(pod: impl Into<Arc<Pod>>, priority_classes: &BTreeMap<String, PriorityClass>) -> PodInfo {
        let pod: Arc<Pod> = pod.into();
        let meta = &pod.metadata;
        let namespace = meta.namespace.clone().unwrap_or_else(|| "default".to_string());
        let spec = pod.spec.as_ref();
        let priority = spec
            .and_then(|s| s.priority)
            .or_else(|| {
                spec.and_then(|s| s.priority_class_name.as_ref())
                    .and_then(|n| priority_classes.get(n))
                    .and_then(|pc| pc.value)
            })
            .unwrap_or(0);
        let mut host_ports = Vec::new();
        if let Some(spec) = spec {
            // GetHostPorts: app containers and sidecars (init containers that keep running).
            let sidecars =
                spec.init_containers.iter().flatten().filter(|c| c.restart_policy.as_deref() == Some("Always"));
            for c in sidecars.chain(spec.containers.iter()) {
                for p in c.ports.iter().flatten() {
                    if let Some(hp) = p.host_port.filter(|hp| *hp > 0) {
                        host_ports.push(HostPort {
                            ip: p.host_ip.clone().filter(|s| !s.is_empty()).unwrap_or_else(|| "0.0.0.0".into()),
                            protocol: p.protocol.clone().filter(|s| !s.is_empty()).unwrap_or_else(|| "TCP".into()),
                            port: hp,
                        });
                    }
                }
            }
        }
        let affinity = spec.and_then(|s| s.affinity.as_ref());
        let pa = affinity.and_then(|a| a.pod_affinity.as_ref());
        let paa = affinity.and_then(|a| a.pod_anti_affinity.as_ref());
        let terms = |ts: Option<&Vec<PodAffinityTerm>>| -> Vec<AffinityTerm> {
            ts.into_iter().flatten().map(|t| AffinityTerm::new(&namespace, t)).collect()
        };
        let weighted = |ts: Option<&Vec<k8s_openapi::api::core::v1::WeightedPodAffinityTerm>>| -> Vec<WeightedTerm> {
            ts.into_iter()
                .flatten()
                .map(|t| WeightedTerm { term: AffinityTerm::new(&namespace, &t.pod_affinity_term), weight: t.weight })
                .collect()
        };
        PodInfo {
            required_affinity: terms(pa.and_then(|a| a.required_during_scheduling_ignored_during_execution.as_ref())),
            required_anti_affinity: terms(
                paa.and_then(|a| a.required_during_scheduling_ignored_during_execution.as_ref()),
            ),
            preferred_affinity: weighted(
                pa.and_then(|a| a.preferred_during_scheduling_ignored_during_execution.as_ref()),
            ),
            preferred_anti_affinity: weighted(
                paa.and_then(|a| a.preferred_during_scheduling_ignored_during_execution.as_ref()),
            ),
            pod: Arc::clone(&pod),
            name: meta.name.clone().unwrap_or_default(),
            uid: meta.uid.clone().unwrap_or_default(),
            labels: meta.labels.clone().unwrap_or_default(),
            priority,
            resources: pod_resources(&pod),
            host_ports,
            start_time_ms: pod.status.as_ref().and_then(|s| s.start_time.as_ref()).map(|t| t.0.as_millisecond()),
            terminating: meta.deletion_timestamp.is_some(),
            node_name: spec.and_then(|s| s.node_name.clone()).unwrap_or_default(),
            nominated_node: pod.status.as_ref().and_then(|s| s.nominated_node_name.clone()).unwrap_or_default(),
            namespace,
        }
    }

    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    pub fn spec(&self) -> Option<&k8s_openapi::api::core::v1::PodSpec> {
        self.pod.spec.as_ref()
    }

    pub fn tolerations(&self) -> &[k8s_openapi::api::core::v1::Toleration] {
        self.spec().and_then(|s| s.tolerations.as_deref()).unwrap_or(&[])
    }

    /// Has pod affinity or anti-affinity of any kind (`podWithAffinity`).
    pub fn has_affinity(&self) -> bool {
        let a = self.spec().and_then(|s| s.affinity.as_ref());
        a.is_some_and(|a| a.pod_affinity.is_some() || a.pod_anti_affinity.is_some())
    }

    fn same_pod(&self, namespace: &str, name: &str) -> bool {
        self.namespace == namespace && self.name == name
    }
}

/// A node with its pods and the totals the plugins read (upstream `NodeInfo`).
#[derive(Clone, Debug)]
pub struct NodeInfo {
    pub node: Arc<Node>,
    pub name: String,
    pub labels: Labels,
    pub taints: Vec<Taint>,
    pub unschedulable: bool,
    pub allocatable: Resource,
    /// Sum of the bound pods' requests.
    pub requested: Resource,
    /// Sum with the scoring defaults for containers without requests.
    pub non_zero_cpu: i64,
    pub non_zero_memory: i64,
    pub pods: Vec<Arc<PodInfo>>,
    pub used_ports: Vec<HostPort>,
    /// Images present on the node: interned name id and size in bytes, sorted by id.
    pub images: Vec<(u32, i64)>,
    pub pods_with_affinity: usize,
    pub pods_with_required_anti_affinity: usize,
    /// cpu/memory balance of the bound pods' requests (NodeResourcesBalancedAllocation's
    /// "without the pod" term), kept up to date as pods come and go.
    pub balance: i64,
}

impl NodeInfo {
    fn new(node: Arc<Node>, images: Vec<(u32, i64)>) -> NodeInfo {
        let spec = node.spec.as_ref();
        NodeInfo {
            name: node.metadata.name.clone().unwrap_or_default(),
            labels: node.metadata.labels.clone().unwrap_or_default(),
            taints: spec.and_then(|s| s.taints.clone()).unwrap_or_default(),
            unschedulable: spec.and_then(|s| s.unschedulable).unwrap_or(false),
            allocatable: node_allocatable(&node),
            requested: Resource::default(),
            non_zero_cpu: 0,
            non_zero_memory: 0,
            pods: Vec::new(),
            used_ports: Vec::new(),
            images,
            pods_with_affinity: 0,
            pods_with_required_anti_affinity: 0,
            balance: super::plugins::balanced_allocation::balance([0, 0], [1, 1]),
            node,
        }
    }

    pub fn add_pod(&mut self, p: Arc<PodInfo>) {
        self.update(&p, 1);
        self.pods.push(p);
    }

    pub fn remove_pod(&mut self, namespace: &str, name: &str) -> Option<Arc<PodInfo>> {
        let i = self.pods.iter().position(|p| p.same_pod(namespace, name))?;
        let p = self.pods.remove(i);
        self.update(&p, -1);
        Some(p)
    }

    fn update(&mut self, p: &PodInfo, sign: i64) {
        self.requested.add_scaled(&p.resources.requests, sign);
        self.non_zero_cpu += sign * p.resources.non_zero_cpu;
        self.non_zero_memory += sign * p.resources.non_zero_memory;
        if p.has_affinity() {
            self.pods_with_affinity = (self.pods_with_affinity as i64 + sign) as usize;
        }
        if !p.required_anti_affinity.is_empty() {
            self.pods_with_required_anti_affinity = (self.pods_with_required_anti_affinity as i64 + sign) as usize;
        }
        self.balance = super::plugins::balanced_allocation::balance(
            [self.requested.milli_cpu, self.requested.memory],
            [self.allocatable.milli_cpu, self.allocatable.memory],
        );
        for hp in &p.host_ports {
            if sign > 0 {
                self.used_ports.push(hp.clone());
            } else if let Some(i) = self.used_ports.iter().position(|u| u == hp) {
                self.used_ports.remove(i);
            }
        }
    }

    pub fn image_size(&self, id: u32) -> Option<i64> {
        self.images.binary_search_by_key(&id, |(i, _)| *i).ok().map(|i| self.images[i].1)
    }
}

/// Everything the scheduler reads about the cluster.
#[derive(Debug, Default)]
pub struct ClusterSnapshot {
    nodes: Vec<NodeInfo>,
    by_name: BTreeMap<String, usize>,
    /// Node indexes in the order upstream's node tree lists them (zones round-robin).
    order: OnceCell<Vec<usize>>,
    image_ids: BTreeMap<String, u32>,
    /// Per image id: on how many nodes the image is present.
    image_nodes: Vec<u32>,
    /// Pending pods nominated to a node by an earlier preemption.
    pub nominated: Vec<Arc<PodInfo>>,
    pub pvcs: BTreeMap<(String, String), PersistentVolumeClaim>,
    pub pvs: BTreeMap<String, PersistentVolume>,
    pub storage_classes: BTreeMap<String, StorageClass>,
    pub priority_classes: BTreeMap<String, PriorityClass>,
    pub namespaces: BTreeMap<String, Arc<Namespace>>,
    pub services: Vec<Arc<Service>>,
    pub replica_sets: Vec<Arc<ReplicaSet>>,
    pub stateful_sets: Vec<Arc<StatefulSet>>,
    pub replication_controllers: Vec<ReplicationController>,
    /// PodDisruptionBudgets, as preemption reads them.
    pub pdbs: Vec<PdbInfo>,
}

/// A PodDisruptionBudget as preemption reads it (`filterPodsWithPDBViolation`): its
/// namespace, selector, `status.disruptionsAllowed` and `status.disruptedPods`.
#[derive(Clone, Debug)]
pub struct PdbInfo {
    pub namespace: String,
    pub name: String,
    /// `spec.selector`; a missing or empty one matches no Pod here (upstream's
    /// `selector.Empty()` check).
    pub selector: Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector>,
    pub disruptions_allowed: i32,
    pub disrupted_pods: std::collections::BTreeSet<String>,
}

impl PdbInfo {
    fn new(o: &Object) -> PdbInfo {
        let spec = crate::controllers::disruption::spec_of(o);
        let status = crate::controllers::disruption::status_of(o);
        PdbInfo {
            namespace: o.namespace().unwrap_or("default").to_string(),
            name: o.name().to_string(),
            selector: spec.selector,
            disruptions_allowed: status.disruptions_allowed.unwrap_or(0),
            disrupted_pods: status.disrupted_pods.unwrap_or_default().into_keys().collect(),
        }
    }

    /// Whether the budget covers `pod`: same namespace, a non-empty selector that selects
    /// its labels (a Pod without labels matches no budget).
    pub fn covers(&self, pod: &PodInfo) -> bool {
        !pod.labels.is_empty()
            && self.namespace == pod.namespace
            && self.selector.as_ref().is_some_and(|sel| {
                !crate::labels::is_empty(sel) && crate::labels::label_selector_matches(sel, Some(&pod.labels))
            })
    }
}

fn meta_name(m: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> String {
    m.name.clone().unwrap_or_default()
}

fn meta_ns(m: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> String {
    m.namespace.clone().unwrap_or_else(|| "default".to_string())
}

/// The zone of a node as the node tree groups it (`utilnode.GetZoneKey`).
fn zone_key(labels: &Labels) -> String {
    let get = |a: &str, b: &str| labels.get(a).or_else(|| labels.get(b)).cloned().unwrap_or_default();
    let region = get("topology.kubernetes.io/region", "failure-domain.beta.kubernetes.io/region");
    let zone = get("topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone");
    if region.is_empty() && zone.is_empty() {
        String::new()
    } else {
        format!("{region}:\x00:{zone}")
    }
}

impl ClusterSnapshot {
    pub fn new() -> ClusterSnapshot {
        ClusterSnapshot::default()
    }

    /// Builds a snapshot from stored objects: nodes first, then everything else; pods
    /// with `spec.nodeName` are bound to their node, pending pods with a nominated node
    /// are remembered as nominated.
    pub fn from_objects<'a>(objects: impl IntoIterator<Item = &'a Object> + Clone) -> ClusterSnapshot {
        let mut s = ClusterSnapshot::new();
        for o in objects.clone() {
            match o {
                Object::Node(n) => s.add_node(Arc::clone(n)),
                Object::PriorityClass(pc) => s.add_priority_class((**pc).clone()),
                _ => {}
            }
        }
        for o in objects {
            if !matches!(o, Object::Node(_) | Object::PriorityClass(_)) {
                s.add_object(o);
            }
        }
        s
    }

    /// The kinds [`ClusterSnapshot::add_object`] reads (apiVersion, kind): what the
    /// scheduler's informers watch.
    pub const WATCHED: [(&'static str, &'static str); 12] = [
        ("v1", "Pod"),
        ("v1", "Node"),
        ("v1", "PersistentVolumeClaim"),
        ("v1", "PersistentVolume"),
        ("v1", "Namespace"),
        ("v1", "Service"),
        ("v1", "ReplicationController"),
        ("apps/v1", "ReplicaSet"),
        ("apps/v1", "StatefulSet"),
        ("scheduling.k8s.io/v1", "PriorityClass"),
        ("storage.k8s.io/v1", "StorageClass"),
        ("policy/v1", "PodDisruptionBudget"),
    ];

    /// Adds any object the scheduler cares about ([`ClusterSnapshot::WATCHED`]); other kinds
    /// are ignored.
    pub fn add_object(&mut self, o: &Object) {
        let typed = |o: &Object| Some(o.to_json());
        match o {
            Object::Pod(p) => self.add_pod(Arc::clone(p)),
            Object::Node(n) => self.add_node(Arc::clone(n)),
            Object::PersistentVolumeClaim(c) => self.add_pvc((**c).clone()),
            Object::PersistentVolume(v) => self.add_pv((**v).clone()),
            Object::Namespace(n) => {
                self.namespaces.insert(meta_name(&n.metadata), Arc::clone(n));
            }
            Object::Service(sv) => self.services.push(Arc::clone(sv)),
            Object::ReplicaSet(rs) => self.replica_sets.push(Arc::clone(rs)),
            Object::StatefulSet(ss) => self.stateful_sets.push(Arc::clone(ss)),
            Object::PriorityClass(pc) => self.add_priority_class((**pc).clone()),
            Object::Other(u) => match (u.api_version.as_str(), u.kind.as_str()) {
                ("storage.k8s.io/v1", "StorageClass") => {
                    if let Some(sc) = typed(o).and_then(|v| crate::decode::from_value::<StorageClass>(&v).ok()) {
                        self.add_storage_class(sc);
                    }
                }
                ("policy/v1", "PodDisruptionBudget") => self.pdbs.push(PdbInfo::new(o)),
                ("v1", "ReplicationController") => {
                    if let Some(rc) = typed(o).and_then(|v| crate::decode::from_value::<ReplicationController>(&v).ok())
                    {
                        self.replication_controllers.push(rc);
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }

    // ---- nodes ----

    pub fn add_node(&mut self, node: impl Into<Arc<Node>>) {
        let node = node.into();
        let name = meta_name(&node.metadata);
        if self.by_name.contains_key(&name) {
            self.update_node(node);
            return;
        }
        let images = self.intern_images(&node, 1);
        self.by_name.insert(name, self.nodes.len());
        self.nodes.push(NodeInfo::new(node, images));
        self.order = OnceCell::new();
    }

    /// Replaces a node's object, keeping the pods bound to it.
    pub fn update_node(&mut self, node: impl Into<Arc<Node>>) {
        let node = node.into();
        let name = meta_name(&node.metadata);
        let Some(&i) = self.by_name.get(&name) else {
            self.add_node(node);
            return;
        };
        let old = self.nodes[i].node.clone();
        self.intern_images(&old, -1);
        let images = self.intern_images(&node, 1);
        let pods = std::mem::take(&mut self.nodes[i].pods);
        let mut info = NodeInfo::new(node, images);
        for p in pods {
            info.add_pod(p);
        }
        self.nodes[i] = info;
        self.order = OnceCell::new();
    }

    pub fn remove_node(&mut self, name: &str) {
        let Some(i) = self.by_name.remove(name) else { return };
        let old = self.nodes.remove(i);
        self.intern_images(&old.node, -1);
        for v in self.by_name.values_mut() {
            if *v > i {
                *v -= 1;
            }
        }
        self.order = OnceCell::new();
    }

    fn intern_images(&mut self, node: &Node, sign: i32) -> Vec<(u32, i64)> {
        let mut out: Vec<(u32, i64)> = Vec::new();
        for img in node.status.as_ref().and_then(|s| s.images.as_ref()).into_iter().flatten() {
            for name in img.names.iter().flatten() {
                let next = self.image_ids.len() as u32;
                let id = *self.image_ids.entry(name.clone()).or_insert(next);
                if id as usize >= self.image_nodes.len() {
                    self.image_nodes.push(0);
                }
                if !out.iter().any(|(i, _)| *i == id) {
                    out.push((id, img.size_bytes.unwrap_or(0)));
                    let n = &mut self.image_nodes[id as usize];
                    *n = (*n as i64 + sign as i64).max(0) as u32;
                }
            }
        }
        crate::sort::sort(&mut out);
        out
    }

    pub fn image_id(&self, name: &str) -> Option<u32> {
        self.image_ids.get(name).copied()
    }

    /// On how many nodes an image is present (`ImageStateSummary.NumNodes`).
    pub fn image_num_nodes(&self, id: u32) -> u32 {
        self.image_nodes.get(id as usize).copied().unwrap_or(0)
    }

    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    pub fn node(&self, i: usize) -> &NodeInfo {
        &self.nodes[i]
    }

    pub fn node_by_name(&self, name: &str) -> Option<&NodeInfo> {
        self.by_name.get(name).map(|&i| &self.nodes[i])
    }

    pub fn node_index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    pub fn nodes(&self) -> &[NodeInfo] {
        &self.nodes
    }

    /// Node indexes in listing order: upstream's node tree takes one node from each
    /// zone in turn (zones in the order they appeared, nodes in the order they were
    /// added), so a partial search still spreads over zones.
    pub fn node_order(&self) -> &[usize] {
        self.order.get_or_init(|| {
            let mut zones: Vec<(String, Vec<usize>)> = Vec::new();
            for (i, n) in self.nodes.iter().enumerate() {
                let z = zone_key(&n.labels);
                match zones.iter_mut().find(|(k, _)| *k == z) {
                    Some((_, v)) => v.push(i),
                    None => zones.push((z, vec![i])),
                }
            }
            let mut order = Vec::with_capacity(self.nodes.len());
            let mut round = 0;
            while order.len() < self.nodes.len() {
                for (_, v) in &zones {
                    if let Some(&i) = v.get(round) {
                        order.push(i);
                    }
                }
                round += 1;
            }
            order
        })
    }

    // ---- pods ----

    /// Adds a pod: bound to its node when `spec.nodeName` names a known node, otherwise
    /// remembered as nominated when `status.nominatedNodeName` is set. Succeeded and
    /// failed pods hold no resources and are ignored, as the scheduler cache does.
    pub fn add_pod(&mut self, pod: impl Into<Arc<Pod>>) {
        let pod: Arc<Pod> = pod.into();
        let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("");
        if phase == "Succeeded" || phase == "Failed" {
            return;
        }
        let info = Arc::new(PodInfo::new(pod, &self.priority_classes));
        if !info.node_name.is_empty() {
            self.remove_nominated(&info.namespace, &info.name);
            if let Some(&i) = self.by_name.get(&info.node_name) {
                self.nodes[i].remove_pod(&info.namespace, &info.name);
                self.nodes[i].add_pod(info);
            }
        } else if !info.nominated_node.is_empty() {
            self.remove_nominated(&info.namespace, &info.name);
            self.nominated.push(info);
        }
    }

    /// The scheduler's `assume`: the pod is now counted on `node` (before or after the
    /// Binding is written).
    pub fn assume(&mut self, pod: &Pod, node: &str) {
        let mut p = pod.clone();
        p.spec.get_or_insert_with(Default::default).node_name = Some(node.to_string());
        if let Some(st) = p.status.as_mut() {
            st.nominated_node_name = None;
        }
        self.add_pod(p);
    }

    pub fn remove_pod(&mut self, namespace: &str, name: &str) {
        for n in &mut self.nodes {
            if n.remove_pod(namespace, name).is_some() {
                break;
            }
        }
        self.remove_nominated(namespace, name);
    }

    fn remove_nominated(&mut self, namespace: &str, name: &str) {
        self.nominated.retain(|p| !p.same_pod(namespace, name));
    }

    // ---- other objects ----

    pub fn add_pvc(&mut self, pvc: PersistentVolumeClaim) {
        self.pvcs.insert((meta_ns(&pvc.metadata), meta_name(&pvc.metadata)), pvc);
    }

    pub fn add_pv(&mut self, pv: PersistentVolume) {
        self.pvs.insert(meta_name(&pv.metadata), pv);
    }

    pub fn add_storage_class(&mut self, sc: StorageClass) {
        self.storage_classes.insert(meta_name(&sc.metadata), sc);
    }

    pub fn add_priority_class(&mut self, pc: PriorityClass) {
        self.priority_classes.insert(meta_name(&pc.metadata), pc);
    }

    pub fn namespace_labels(&self, ns: &str) -> &Labels {
        self.namespaces.get(ns).and_then(|n| n.metadata.labels.as_ref()).unwrap_or(no_labels())
    }

    pub fn pod_info(&self, pod: &Pod) -> PodInfo {
        PodInfo::new(pod.clone(), &self.priority_classes)
    }

    /// The PriorityClasses by name (how a pod's `priorityClassName` resolves).
    pub fn priority_classes(&self) -> &BTreeMap<String, PriorityClass> {
        &self.priority_classes
    }
}
