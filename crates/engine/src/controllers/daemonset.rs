//! The DaemonSet controller (upstream `pkg/controller/daemon`: `daemon_controller.go`,
//! `update.go`, `util/daemonset_util.go`): one Pod of the template on every node that should
//! run it.
//!
//! A sync of a DaemonSet:
//! - records the template as a ControllerRevision (`constructHistory`): the revision that holds
//!   the current template is found by comparing its data, a patch that replaces
//!   `spec.template`, with the DaemonSet's; when none holds it, a new one named
//!   `<ds>-<hash>` is created with the next revision number;
//! - decides for every node whether it should run a daemon Pod (`NodeShouldRunDaemonPod`):
//!   the template's `nodeName`, `nodeSelector` and required node affinity must select it, and
//!   the Pod, with the tolerations the controller adds to every daemon Pod, must tolerate its
//!   `NoSchedule` and `NoExecute` taints (a Pod already there may stay while it tolerates the
//!   `NoExecute` ones);
//! - creates a Pod for each node that should run one and has none, in slow-start batches, at
//!   most 250 a sync: `generateName: <ds>-`, the template's labels plus
//!   `controller-revision-hash` and `pod-template-generation`, the DaemonSet as controlling
//!   owner, and a required node affinity `matchFields: metadata.name In [<node>]` through which
//!   the default scheduler binds it to that node; deletes the Pods of nodes that should not run
//!   one, Pods that failed or succeeded (a failed one no more often than a growing back-off
//!   allows), and the extra Pods of a node;
//! - with the RollingUpdate strategy, replaces Pods of older revisions: without `maxSurge`,
//!   deletes old Pods while fewer than `maxUnavailable` Pods are unavailable and lets the next
//!   sync create their replacements; with `maxSurge`, creates the new Pod beside the old one and
//!   deletes the old one once the new one is available. OnDelete replaces nothing: a Pod gets
//!   the new template only when it is deleted;
//! - deletes old ControllerRevisions beyond `revisionHistoryLimit` that no Pod still uses;
//! - writes `status` (desiredNumberScheduled, currentNumberScheduled, numberMisscheduled,
//!   numberReady, numberAvailable, updatedNumberScheduled, numberUnavailable,
//!   observedGeneration).
//!
//! Node events wake every DaemonSet whose answer for that node changes (a node added,
//! relabelled, tainted or untainted). Upstream also keeps "expectations" so it does not act
//! twice before its informer has seen its own writes; the lab's store is always current, so a
//! sync that created or deleted Pods simply leaves the rolling update to the next sync, as the
//! unmet expectations would. Upstream walks the nodes of a rolling update in a Go map's
//! (random) order; the lab walks them by name.

use super::deployment::compute_hash;
use super::history::{self, CONTROLLER_REVISION_HASH_LABEL};
use super::replicaset::{namespace_terminating, pod_from_template, slow_start_batches};
use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::apiserver::strategy::TEMPLATE_GENERATION;
use crate::labels;
use crate::object::Object;
use crate::scheduler::selectors::{first_untolerated, tolerations_tolerate, RequiredNodeAffinity};
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet, DaemonSetSpec, DaemonSetStatus};
use k8s_openapi::api::core::v1::{
    Affinity, Node, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod, PodSpec, Taint,
    Toleration,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

pub const NAME: &str = "daemonset-controller";
pub const SERVICE_ACCOUNT: &str = "daemon-set-controller";
/// From a watch event to the sync of the DaemonSet.
pub const WATCH_LATENCY_MS: u64 = 2;
/// Most Pods created or deleted in one sync (`BurstReplicas`).
pub const BURST_REPLICAS: usize = 250;
/// The label that carries the template generation on daemon Pods
/// (`extensions.DaemonSetTemplateGenerationKey`).
pub const TEMPLATE_GENERATION_LABEL: &str = "pod-template-generation";
/// The back-off between deletions of failed daemon Pods on one node
/// (`flowcontrol.NewBackOff(1s, 15min)` in kube-controller-manager).
pub const FAILED_POD_BACKOFF_INITIAL_MS: u64 = 1_000;
pub const FAILED_POD_BACKOFF_MAX_MS: u64 = 900_000;
/// `revisionHistoryLimit` when the field is absent (the API default).
const DEFAULT_REVISION_HISTORY_LIMIT: i32 = 10;

const SOURCE: EventSourceInfo =
    EventSourceInfo { component: NAME, service_account: SERVICE_ACCOUNT, phase: Phase::Controllers };

/// The controller and its one piece of state: the failed-Pod back-off per DaemonSet,
/// generation and node.
#[derive(Debug, Default)]
pub struct DaemonSetsController {
    /// key → (time of the last deletion, current back-off), as `flowcontrol.Backoff`.
    failed_pods_backoff: BTreeMap<String, (u64, u64)>,
}

impl Controller for DaemonSetsController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            Object::DaemonSet(ds) => observe_daemon_set(cx, ev, ds),
            Object::Pod(pod) => observe_pod(cx, ev, pod),
            Object::Node(node) => observe_node(cx, ev, node),
            Object::ControllerRevision(cr) => observe_history(cx, ev, cr),
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        let (ns, name) = split_key(key);
        let Some(Object::DaemonSet(ds)) = get_shared(cx.core, "DaemonSet", ns, name).as_deref().cloned() else {
            return;
        };
        match self.sync_daemon_set(cx, &ds) {
            Ok(()) => cx.forget(NAME, key),
            Err(()) => {
                cx.requeue_rate_limited(NAME, key);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Watches

fn observe_daemon_set(cx: &mut Cx, ev: &WatchEvent<Object>, ds: &DaemonSet) {
    if ev.kind == EventType::Deleted {
        return;
    }
    // Upstream queues every update; one that changed only the status (the controller's own
    // write) leads to a sync that changes nothing, so the lab skips it.
    if let Some(Object::DaemonSet(prev)) = ev.prev.as_deref() {
        if prev.spec == ds.spec
            && prev.metadata.labels == ds.metadata.labels
            && prev.metadata.annotations == ds.metadata.annotations
            && prev.metadata.owner_references == ds.metadata.owner_references
            && prev.metadata.deletion_timestamp == ds.metadata.deletion_timestamp
            && prev.metadata.uid == ds.metadata.uid
        {
            return;
        }
    }
    let reason = if ev.kind == EventType::Added {
        "a new DaemonSet: create its Pods on the nodes that should run one"
    } else {
        "the DaemonSet changed: check its Pods on every node"
    };
    cx.watch(NAME, Phase::Controllers, ev, &key_of(&ds.metadata), WATCH_LATENCY_MS, reason);
}

/// The DaemonSet a controller reference names, if it is one and still exists
/// (`resolveControllerRef`).
fn owner_of(cx: &Cx, namespace: Option<&str>, meta: &ObjectMeta) -> Option<Arc<DaemonSet>> {
    let r = controller_of(meta).filter(|r| r.kind == "DaemonSet")?;
    match resolve_owner(cx.core, namespace, r).as_deref() {
        Some(Object::DaemonSet(ds)) => Some(Arc::clone(ds)),
        _ => None,
    }
}

/// The DaemonSets of `namespace` whose selector matches `labels` (`GetPodDaemonSets`).
fn selecting(cx: &Cx, namespace: Option<&str>, labels: Option<&BTreeMap<String, String>>) -> Vec<Arc<DaemonSet>> {
    daemon_sets(cx, namespace)
        .into_iter()
        .filter(|ds| {
            let sel = Some(&ds.spec).map(|s| &s.selector);
            // An empty selector selects nothing here (`LabelSelectorAsSelector` of `{}` is
            // everything, but such a DaemonSet is refused by validation and never synced).
            sel.is_some_and(|s| s.match_labels.is_some() || s.match_expressions.is_some())
                && labels::matches(sel, labels)
        })
        .collect()
}

fn daemon_sets(cx: &Cx, namespace: Option<&str>) -> Vec<Arc<DaemonSet>> {
    list_shared(cx.core, "DaemonSet", namespace)
        .into_iter()
        .filter_map(|o| match &*o {
            Object::DaemonSet(ds) => Some(Arc::clone(ds)),
            _ => None,
        })
        .collect()
}

fn observe_pod(cx: &mut Cx, ev: &WatchEvent<Object>, pod: &Pod) {
    let ns = pod.metadata.namespace.as_deref();
    let prev = match ev.prev.as_deref() {
        Some(Object::Pod(p)) => Some(p.as_ref()),
        _ => None,
    };
    // A Pod moved away from a DaemonSet wakes its old owner.
    if let Some(p) = prev {
        if controller_of(&p.metadata) != controller_of(&pod.metadata) {
            if let Some(ds) = owner_of(cx, ns, &p.metadata) {
                cx.watch(
                    NAME,
                    Phase::Controllers,
                    ev,
                    &key_of(&ds.metadata),
                    WATCH_LATENCY_MS,
                    "a Pod left this DaemonSet",
                );
            }
        }
    }
    if let Some(ds) = owner_of(cx, ns, &pod.metadata) {
        let key = key_of(&ds.metadata);
        let reason = match ev.kind {
            EventType::Added => "a Pod of this DaemonSet was created",
            EventType::Deleted => "a Pod of this DaemonSet is gone",
            EventType::Modified if pod.metadata.deletion_timestamp.is_some() => {
                "a Pod of this DaemonSet is terminating"
            }
            EventType::Modified => "a Pod of this DaemonSet changed",
        };
        cx.watch(NAME, Phase::Controllers, ev, &key, WATCH_LATENCY_MS, reason);
        // A Pod that just became ready becomes available minReadySeconds later (plus a
        // second against clock skew, as upstream adds).
        let min_ready = Some(&ds.spec).and_then(|s| s.min_ready_seconds).unwrap_or(0);
        if ev.kind == EventType::Modified
            && pod.metadata.deletion_timestamp.is_none()
            && min_ready > 0
            && is_pod_ready(pod)
            && !prev.is_some_and(is_pod_ready)
        {
            cx.enqueue(NAME, &key, min_ready as u64 * 1000 + 1000);
        }
        return;
    }
    if controller_of(&pod.metadata).is_some() || ev.kind == EventType::Deleted {
        return;
    }
    // An orphan: every DaemonSet whose selector matches may adopt it.
    let changed = prev.is_none_or(|p| {
        p.metadata.labels != pod.metadata.labels || controller_of(&p.metadata) != controller_of(&pod.metadata)
    });
    if changed && pod.metadata.deletion_timestamp.is_none() {
        for ds in selecting(cx, ns, pod.metadata.labels.as_ref()) {
            let key = key_of(&ds.metadata);
            cx.watch(NAME, Phase::Controllers, ev, &key, WATCH_LATENCY_MS, "an orphan Pod matches the selector");
        }
    }
}

fn observe_history(cx: &mut Cx, ev: &WatchEvent<Object>, cr: &ControllerRevision) {
    let ns = cr.metadata.namespace.as_deref();
    let prev = match ev.prev.as_deref() {
        Some(Object::ControllerRevision(p)) => Some(p.as_ref()),
        _ => None,
    };
    if let Some(p) = prev {
        if controller_of(&p.metadata) != controller_of(&cr.metadata) {
            if let Some(ds) = owner_of(cx, ns, &p.metadata) {
                let key = key_of(&ds.metadata);
                cx.watch(
                    NAME,
                    Phase::Controllers,
                    ev,
                    &key,
                    WATCH_LATENCY_MS,
                    "a ControllerRevision left this DaemonSet",
                );
            }
        }
    }
    if let Some(ds) = owner_of(cx, ns, &cr.metadata) {
        // A new revision of its own does not wake the DaemonSet (upstream only logs it).
        let reason = match ev.kind {
            EventType::Added if cr.metadata.deletion_timestamp.is_none() => return,
            EventType::Modified => "a ControllerRevision of this DaemonSet changed",
            _ => "a ControllerRevision of this DaemonSet is gone",
        };
        cx.watch(NAME, Phase::Controllers, ev, &key_of(&ds.metadata), WATCH_LATENCY_MS, reason);
        return;
    }
    if controller_of(&cr.metadata).is_some() || ev.kind == EventType::Deleted {
        return;
    }
    let changed = prev.is_none_or(|p| p.metadata.labels != cr.metadata.labels);
    if changed {
        for ds in selecting(cx, ns, cr.metadata.labels.as_ref()) {
            let key = key_of(&ds.metadata);
            cx.watch(
                NAME,
                Phase::Controllers,
                ev,
                &key,
                WATCH_LATENCY_MS,
                "an orphan ControllerRevision matches the selector",
            );
        }
    }
}

/// `nodeInSameCondition`: the same condition types are True on both.
fn same_true_conditions(old: &Node, cur: &Node) -> bool {
    let trues = |n: &Node| -> Vec<String> {
        let mut v: Vec<String> = n
            .status
            .iter()
            .flat_map(|s| s.conditions.iter().flatten())
            .filter(|c| c.status == "True")
            .map(|c| c.type_.clone())
            .collect();
        crate::sort::sort(&mut v);
        v.dedup();
        v
    };
    trues(old) == trues(cur)
}

/// `shouldIgnoreNodeUpdate`: nothing but the conditions' details changed.
fn ignore_node_update(old: &Node, cur: &Node) -> bool {
    if !same_true_conditions(old, cur) {
        return false;
    }
    let strip = |n: &Node| {
        let mut n = n.clone();
        if let Some(s) = n.status.as_mut() {
            s.conditions = None;
        }
        n.metadata.resource_version = None;
        n
    };
    strip(old) == strip(cur)
}

fn observe_node(cx: &mut Cx, ev: &WatchEvent<Object>, node: &Node) {
    if ev.kind == EventType::Deleted {
        // Upstream has no delete handler for nodes: the Pods of a deleted node are the
        // garbage collector's (PodGC's) to remove.
        return;
    }
    let all = daemon_sets(cx, None);
    if all.is_empty() {
        return;
    }
    let node_name = node.metadata.name.clone().unwrap_or_default();
    match ev.prev.as_deref() {
        Some(Object::Node(old)) if ev.kind == EventType::Modified => {
            if ignore_node_update(old, node) {
                return;
            }
            for ds in all {
                let (was_run, was_cont) = node_should_run_daemon_pod(old, &ds).answer();
                let (run, cont) = node_should_run_daemon_pod(node, &ds).answer();
                if was_run != run || was_cont != cont {
                    let reason = format!(
                        "node {node_name} changed whether it should run a Pod of this DaemonSet (should run: {was_run} -> {run}, may keep one: {was_cont} -> {cont})"
                    );
                    cx.watch(NAME, Phase::Controllers, ev, &key_of(&ds.metadata), WATCH_LATENCY_MS, &reason);
                }
            }
        }
        _ => {
            for ds in all {
                if node_should_run_daemon_pod(node, &ds).answer().0 {
                    let reason = format!("a new node {node_name} that should run a Pod of this DaemonSet");
                    cx.watch(NAME, Phase::Controllers, ev, &key_of(&ds.metadata), WATCH_LATENCY_MS, &reason);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Which nodes run a daemon Pod

/// The answer of `NodeShouldRunDaemonPod` for one node, with the reason when it is no.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeFit {
    /// The Pod should run there.
    Runs,
    /// The template's `spec.nodeName` names another node.
    OtherNodeName(String),
    /// The template's `nodeSelector` or required node affinity does not select the node.
    AffinityMismatch,
    /// A taint the Pod does not tolerate; `keep` says whether a Pod already there may stay
    /// (every untolerated taint is `NoSchedule`, none `NoExecute`).
    Untolerated { taint: Taint, keep: bool },
}

impl NodeFit {
    /// `(shouldRun, shouldContinueRunning)`.
    pub fn answer(&self) -> (bool, bool) {
        match self {
            NodeFit::Runs => (true, true),
            NodeFit::Untolerated { keep, .. } => (false, *keep),
            _ => (false, false),
        }
    }

    /// The answer in words; `has_pods` says whether the node has a Pod of the DaemonSet (the
    /// "may stay" of an untolerated NoSchedule taint is told only then).
    fn describe(&self, has_pods: bool) -> String {
        match self {
            NodeFit::Runs => "should run a Pod".into(),
            NodeFit::OtherNodeName(n) => format!("not this node: the template's nodeName is {n}"),
            NodeFit::AffinityMismatch => "not selected by the template's nodeSelector/node affinity".into(),
            NodeFit::Untolerated { taint, keep } => format!(
                "taint {}{}:{} not tolerated{}",
                taint.key,
                taint.value.as_deref().map(|v| format!("={v}")).unwrap_or_default(),
                taint.effect,
                if *keep && has_pods { " (the Pod already there may stay: the taint is not NoExecute)" } else { "" }
            ),
        }
    }
}

/// `NodeShouldRunDaemonPod`: whether `node` should run a Pod of `ds`, tested on the Pod the
/// controller would create there (`NewPod`: the template, its tolerations completed).
pub fn node_should_run_daemon_pod(node: &Node, ds: &DaemonSet) -> NodeFit {
    let node_name = node.metadata.name.as_deref().unwrap_or("");
    let pod = new_pod(ds, node_name);
    let spec = pod.spec.clone().unwrap_or_default();
    let template_node = Some(&ds.spec).and_then(|s| s.template.spec.as_ref()).and_then(|s| s.node_name.as_deref());
    if let Some(n) = template_node.filter(|n| !n.is_empty() && *n != node_name) {
        return NodeFit::OtherNodeName(n.to_string());
    }
    let labels = node.metadata.labels.clone().unwrap_or_default();
    if !RequiredNodeAffinity::from_pod(&pod).matches(node_name, &labels) {
        return NodeFit::AffinityMismatch;
    }
    let taints = node.spec.as_ref().and_then(|s| s.taints.clone()).unwrap_or_default();
    let tolerations = spec.tolerations.unwrap_or_default();
    match first_untolerated(&taints, &tolerations) {
        None => NodeFit::Runs,
        Some(t) => {
            let no_execute = taints.iter().any(|t| t.effect == "NoExecute" && !tolerations_tolerate(&tolerations, t));
            NodeFit::Untolerated { taint: t.clone(), keep: !no_execute }
        }
    }
}

/// `NewPod`: the template as a Pod of `namespace`, placed on `node_name`, with the daemon
/// tolerations.
fn new_pod(ds: &DaemonSet, node_name: &str) -> Pod {
    let template = Some(&ds.spec).map(|s| s.template.clone()).unwrap_or_default();
    let mut spec = template.spec.unwrap_or_default();
    spec.node_name = Some(node_name.to_string());
    add_or_update_daemon_pod_tolerations(&mut spec);
    let mut metadata = template.metadata.unwrap_or_default();
    metadata.namespace = ds.metadata.namespace.clone();
    Pod { metadata, spec: Some(spec), status: None }
}

/// The tolerations every daemon Pod gets (`AddOrUpdateDaemonPodTolerations`): it survives
/// the node lifecycle's `not-ready` and `unreachable` NoExecute taints, and is placed
/// despite the node-condition taints and a cordon (and `network-unavailable` when it uses the
/// host's network).
pub fn add_or_update_daemon_pod_tolerations(spec: &mut PodSpec) {
    let mut wanted = vec![
        ("node.kubernetes.io/not-ready", "NoExecute"),
        ("node.kubernetes.io/unreachable", "NoExecute"),
        ("node.kubernetes.io/disk-pressure", "NoSchedule"),
        ("node.kubernetes.io/memory-pressure", "NoSchedule"),
        ("node.kubernetes.io/pid-pressure", "NoSchedule"),
        ("node.kubernetes.io/unschedulable", "NoSchedule"),
    ];
    if spec.host_network == Some(true) {
        wanted.push(("node.kubernetes.io/network-unavailable", "NoSchedule"));
    }
    for (key, effect) in wanted {
        let t = Toleration {
            key: Some(key.into()),
            operator: Some("Exists".into()),
            effect: Some(effect.into()),
            ..Toleration::default()
        };
        add_or_update_toleration(spec, t);
    }
}

/// `AddOrUpdateTolerationInPodSpec`: a toleration with the same key, operator, value and
/// effect is replaced (its tolerationSeconds dropped), otherwise the toleration is appended.
fn add_or_update_toleration(spec: &mut PodSpec, t: Toleration) {
    let list = spec.tolerations.get_or_insert_with(Vec::new);
    let same =
        |x: &Toleration| x.key == t.key && x.operator == t.operator && x.value == t.value && x.effect == t.effect;
    match list.iter_mut().find(|x| same(x)) {
        Some(x) => *x = t,
        None => list.push(t),
    }
}

/// `ReplaceDaemonSetPodNodeNameNodeAffinity`: the required node affinity becomes the one term
/// `metadata.name In [node]`, whatever required terms the template had (the controller only
/// creates Pods on nodes those terms select).
pub fn replace_node_name_affinity(affinity: Option<Affinity>, node: &str) -> Affinity {
    let selector = NodeSelector {
        node_selector_terms: vec![NodeSelectorTerm {
            match_fields: Some(vec![NodeSelectorRequirement {
                key: "metadata.name".into(),
                operator: "In".into(),
                values: Some(vec![node.to_string()]),
            }]),
            match_expressions: None,
        }],
    };
    let mut affinity = affinity.unwrap_or_default();
    let na = affinity.node_affinity.get_or_insert_with(NodeAffinity::default);
    na.required_during_scheduling_ignored_during_execution = Some(selector);
    affinity
}

/// `GetTargetNodeName`: the node a daemon Pod is bound to, or the one its required node
/// affinity names while it waits for the scheduler.
pub fn target_node_name(pod: &Pod) -> Option<String> {
    let spec = pod.spec.as_ref()?;
    if let Some(n) = spec.node_name.as_ref().filter(|n| !n.is_empty()) {
        return Some(n.clone());
    }
    let terms = &spec
        .affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required_during_scheduling_ignored_during_execution
        .as_ref()?
        .node_selector_terms;
    for term in terms {
        for req in term.match_fields.iter().flatten() {
            if req.key == "metadata.name" && req.operator == "In" {
                let values = req.values.as_deref().unwrap_or(&[]);
                return if values.len() == 1 { Some(values[0].clone()) } else { None };
            }
        }
    }
    None
}

/// `podByCreationTimestampAndPhase`: bound Pods first, then the oldest, then by name.
fn pod_order(a: &Pod, b: &Pod) -> std::cmp::Ordering {
    let (ba, bb) = (!node_name(a).is_empty(), !node_name(b).is_empty());
    if ba != bb {
        return bb.cmp(&ba);
    }
    let created = |p: &Pod| p.metadata.creation_timestamp.as_ref().map(time_ms);
    created(a).cmp(&created(b)).then_with(|| a.metadata.name.cmp(&b.metadata.name))
}

// ---------------------------------------------------------------------------------------
// Revisions and templates

/// `util.GetTemplateGeneration`: the `deprecated.daemonset.template.generation` annotation.
fn template_generation(ds: &DaemonSet) -> Option<i64> {
    ds.metadata.annotations.as_ref()?.get(TEMPLATE_GENERATION)?.parse().ok()
}

/// `util.IsPodUpdated`: the Pod carries the current hash, or the current template generation.
pub fn is_pod_updated(pod: &Pod, hash: &str, generation: Option<i64>) -> bool {
    let labels = pod.metadata.labels.as_ref();
    let label = |k: &str| labels.and_then(|l| l.get(k)).map(String::as_str);
    let generation_matches =
        generation.is_some_and(|g| label(TEMPLATE_GENERATION_LABEL) == Some(g.to_string().as_str()));
    let hash_matches = !hash.is_empty() && label(CONTROLLER_REVISION_HASH_LABEL) == Some(hash);
    hash_matches || generation_matches
}

/// Sorts the keys of every object, as Go writes a JSON map.
fn sorted(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let map: BTreeMap<String, Value> = m.into_iter().map(|(k, v)| (k, sorted(v))).collect();
            Value::Object(map.into_iter().collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// `getPatch`: the data of a revision, a patch that replaces `spec.template` with the
/// DaemonSet's.
pub fn get_patch(ds: &DaemonSet) -> Value {
    let template = Some(&ds.spec).map(|s| s.template.clone()).unwrap_or_default();
    let mut t = serde_json::to_value(template).unwrap_or_default();
    if let Value::Object(m) = &mut t {
        m.insert("$patch".into(), Value::String("replace".into()));
    }
    sorted(serde_json::json!({"spec": {"template": t}}))
}

fn revision_hash(cr: &ControllerRevision) -> &str {
    cr.metadata.labels.as_ref().and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL)).map_or("", String::as_str)
}

/// `util.CreatePodTemplate`: the template with the daemon tolerations and the
/// `pod-template-generation` and `controller-revision-hash` labels.
fn create_pod_template(
    ds: &DaemonSet,
    generation: Option<i64>,
    hash: &str,
) -> k8s_openapi::api::core::v1::PodTemplateSpec {
    let mut t = Some(&ds.spec).map(|s| s.template.clone()).unwrap_or_default();
    let spec = t.spec.get_or_insert_with(PodSpec::default);
    add_or_update_daemon_pod_tolerations(spec);
    let meta = t.metadata.get_or_insert_with(ObjectMeta::default);
    let labels = meta.labels.get_or_insert_with(BTreeMap::new);
    if let Some(g) = generation {
        labels.insert(TEMPLATE_GENERATION_LABEL.into(), g.to_string());
    }
    if !hash.is_empty() {
        labels.insert(CONTROLLER_REVISION_HASH_LABEL.into(), hash.into());
    }
    t
}

fn max_surge(spec: &DaemonSetSpec, desired: i32) -> i32 {
    let s = spec.update_strategy.as_ref();
    if s.and_then(|s| s.type_.as_deref()).unwrap_or("RollingUpdate") != "RollingUpdate" {
        return 0;
    }
    scaled_value(s.and_then(|s| s.rolling_update.as_ref()).and_then(|r| r.max_surge.as_ref()), desired, true)
}

fn max_unavailable(spec: &DaemonSetSpec, desired: i32) -> i32 {
    let s = spec.update_strategy.as_ref();
    if s.and_then(|s| s.type_.as_deref()).unwrap_or("RollingUpdate") != "RollingUpdate" {
        return 0;
    }
    match s.and_then(|s| s.rolling_update.as_ref()) {
        None => 0,
        Some(r) => scaled_value(r.max_unavailable.as_ref(), desired, true),
    }
}

/// `util.AllowsSurge`.
fn allows_surge(spec: &DaemonSetSpec) -> bool {
    max_surge(spec, 1) != 0
}

// ---------------------------------------------------------------------------------------
// The sync

/// What one sync found: the claimed Pods by node, as they were when it began.
struct Seen {
    by_node: BTreeMap<String, Vec<Arc<Pod>>>,
}

impl DaemonSetsController {
    fn sync_daemon_set(&mut self, cx: &mut Cx, ds: &Arc<DaemonSet>) -> Result<(), ()> {
        let name = ds.metadata.name.clone().unwrap_or_default();
        let ds_obj = Object::DaemonSet(Arc::clone(ds));
        let spec = &ds.spec;
        let nodes: Vec<Arc<Node>> = list_shared(cx.core, "Node", None)
            .into_iter()
            .filter_map(|o| match &*o {
                Object::Node(n) => Some(Arc::clone(n)),
                _ => None,
            })
            .collect();
        if spec.selector.match_labels.is_none() && spec.selector.match_expressions.is_none() {
            cx.event(
                SOURCE,
                &ds_obj,
                "Warning",
                "SelectingAll",
                "This daemon set is selecting all pods. A non-empty selector is required.",
            );
            return Ok(());
        }
        // The history of a DaemonSet being deleted may already be gone: upstream leaves it
        // (and its status) alone.
        if is_deleting(&ds.metadata) {
            return Ok(());
        }
        let (cur, old) = match construct_history(cx, ds) {
            Ok(h) => h,
            Err(e) => {
                cx.decide(
                    Phase::Controllers,
                    NAME,
                    Some(&ds_obj),
                    format!("daemonset-controller: DaemonSet {name} could not record its revision"),
                    format!("failed to construct revisions of DaemonSet: {e}"),
                    "a ControllerRevision holding the current template".into(),
                    vec![format!("retry the sync: {e}")],
                    StepStatus::Warning,
                );
                return Err(());
            }
        };
        let hash = revision_hash(&cur).to_string();

        let seen = match claim_pods(cx, ds) {
            Ok(s) => s,
            Err(e) => {
                cx.decide(
                    Phase::Controllers,
                    NAME,
                    Some(&ds_obj),
                    format!("daemonset-controller: DaemonSet {name} could not claim its Pods"),
                    format!("couldn't get node to daemon pod mapping for daemon set \"{name}\": {e}"),
                    "each Pod it selects owned by it, and none it does not select".into(),
                    vec![format!("retry the sync: {e}")],
                    StepStatus::Warning,
                );
                return Err(());
            }
        };

        let (acted, manage_err) = self.manage(cx, ds, &ds_obj, &nodes, &seen, &hash);
        let mut err = manage_err;
        if err.is_none() && !acted {
            match spec.update_strategy.as_ref().and_then(|s| s.type_.as_deref()).unwrap_or("RollingUpdate") {
                "RollingUpdate" => err = rolling_update(cx, ds, &ds_obj, &nodes, &seen, &hash),
                _ => on_delete_note(cx, ds, &ds_obj, &seen, &hash),
            }
        }
        if err.is_none() {
            if let Err(e) = cleanup_history(cx, ds, &old, &seen) {
                err = Some(format!("failed to clean up revisions of DaemonSet: {e}"));
            }
        }
        update_status(cx, ds, &ds_obj, &nodes, &seen, &hash);
        if err.is_some() {
            return Err(());
        }
        Ok(())
    }

    /// `manage`: which nodes need a Pod and which Pods must go (`podsShouldBeOnNode` for
    /// every node, plus unscheduled Pods of nodes that no longer exist), then `syncNodes`.
    /// Returns whether it created or deleted anything, and the first error.
    fn manage(
        &mut self,
        cx: &mut Cx,
        ds: &DaemonSet,
        ds_obj: &Object,
        nodes: &[Arc<Node>],
        seen: &Seen,
        hash: &str,
    ) -> (bool, Option<String>) {
        let name = ds.metadata.name.clone().unwrap_or_default();
        let spec = ds.spec.clone();
        let mut need: Vec<String> = Vec::new();
        let mut delete: Vec<(String, String)> = Vec::new();
        let mut observed = Vec::new();
        let mut waits: Vec<String> = Vec::new();
        let mut wanted = 0;
        for node in nodes {
            let node_name = node.metadata.name.clone().unwrap_or_default();
            let fit = node_should_run_daemon_pod(node, ds);
            let (should_run, should_continue) = fit.answer();
            if should_run {
                wanted += 1;
            }
            let pods = seen.by_node.get(&node_name);
            let count = pods.map_or(0, |p| p.iter().filter(|p| !is_deleting(&p.metadata)).count());
            observed.push(format!("{node_name}: {}, {count} Pod(s)", fit.describe(count > 0)));
            match (should_run, pods) {
                (true, None) => need.push(node_name),
                _ if should_continue => {
                    let mut running: Vec<Arc<Pod>> = Vec::new();
                    for pod in pods.into_iter().flatten() {
                        if is_deleting(&pod.metadata) {
                            continue;
                        }
                        let pod_name = pod.metadata.name.clone().unwrap_or_default();
                        match phase(pod) {
                            "Failed" => {
                                let key = format!(
                                    "{}/{}/{node_name}",
                                    ds.metadata.uid.as_deref().unwrap_or(""),
                                    ds.status.as_ref().and_then(|s| s.observed_generation).unwrap_or(0)
                                );
                                let now = cx.core.now;
                                if let Some(delay) = self.in_backoff(&key, now) {
                                    cx.enqueue(NAME, &key_of(&ds.metadata), delay);
                                    waits.push(format!(
                                        "wait {} before deleting the failed Pod {pod_name} on {node_name} (the failed-Pod back-off; sync again then)",
                                        go_duration(delay as i64)
                                    ));
                                    continue;
                                }
                                self.next_backoff(&key, now);
                                let msg = format!(
                                    "Found failed daemon pod {}/{pod_name} on node {node_name}, will try to kill it",
                                    ds.metadata.namespace.as_deref().unwrap_or("")
                                );
                                cx.event(SOURCE, ds_obj, "Warning", "FailedDaemonPod", &msg);
                                delete.push((pod_name, format!("it failed on {node_name}")));
                            }
                            "Succeeded" => {
                                let msg = format!(
                                    "Found succeeded daemon pod {}/{pod_name} on node {node_name}, will try to delete it",
                                    ds.metadata.namespace.as_deref().unwrap_or("")
                                );
                                cx.event(SOURCE, ds_obj, "Normal", "SucceededDaemonPod", &msg);
                                delete.push((pod_name, format!("it succeeded on {node_name}")));
                            }
                            _ => running.push(Arc::clone(pod)),
                        }
                    }
                    crate::sort::sort_by(&mut running, |a, b| pod_order(a, b));
                    if !allows_surge(&spec) {
                        for p in running.iter().skip(1) {
                            let n = p.metadata.name.clone().unwrap_or_default();
                            delete.push((n, format!("an extra Pod on {node_name} (the oldest stays)")));
                        }
                    } else if running.len() <= 1 {
                        if running.is_empty() && should_run {
                            need.push(node_name);
                        }
                    } else {
                        // Surging: at most one old and one new Pod; the old one goes when it is
                        // not ready or the new one is available.
                        let (mut oldest_new, mut oldest_old): (Option<&Arc<Pod>>, Option<&Arc<Pod>>) = (None, None);
                        for p in &running {
                            let slot = if p
                                .metadata
                                .labels
                                .as_ref()
                                .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL))
                                .map(String::as_str)
                                == Some(hash)
                            {
                                &mut oldest_new
                            } else {
                                &mut oldest_old
                            };
                            if slot.is_none() {
                                *slot = Some(p);
                                continue;
                            }
                            let n = p.metadata.name.clone().unwrap_or_default();
                            delete.push((n, format!("an extra Pod on {node_name}")));
                        }
                        if let (Some(new), Some(old)) = (oldest_new, oldest_old) {
                            let min_ready = spec.min_ready_seconds.unwrap_or(0);
                            let n = old.metadata.name.clone().unwrap_or_default();
                            if !is_pod_ready(old) {
                                delete.push((
                                    n,
                                    format!("the old Pod on {node_name} is not ready and a new one is there"),
                                ));
                            } else if is_pod_available(new, min_ready, cx.core.now) {
                                delete.push((n, format!("the new Pod on {node_name} is available")));
                            }
                        }
                    }
                }
                (false, Some(pods)) => {
                    for p in pods.iter().filter(|p| !is_deleting(&p.metadata)) {
                        let n = p.metadata.name.clone().unwrap_or_default();
                        delete.push((n, format!("{node_name} should not run it ({})", fit.describe(false))));
                    }
                }
                _ => {}
            }
        }
        // Pods waiting for a node that no longer exists are never scheduled, and the Pod
        // garbage collector does not delete unscheduled Pods: the DaemonSet deletes them.
        for (node_name, pods) in &seen.by_node {
            if nodes.iter().any(|n| n.metadata.name.as_deref() == Some(node_name.as_str())) {
                continue;
            }
            for p in pods.iter().filter(|p| node_name_of(p).is_empty()) {
                let n = p.metadata.name.clone().unwrap_or_default();
                delete.push((n, format!("it waits for node {node_name}, which does not exist")));
            }
        }
        if need.is_empty() && delete.is_empty() {
            if !waits.is_empty() {
                cx.decide(
                    Phase::Controllers,
                    NAME,
                    Some(ds_obj),
                    format!("daemonset-controller: DaemonSet {name} waits for the failed-Pod back-off"),
                    observed.join("; "),
                    format!("one Pod on each of the {wanted} node(s) that should run it, none elsewhere"),
                    waits,
                    StepStatus::Warning,
                );
            }
            return (false, None);
        }
        let mut actions = waits;
        let creates = need.len().min(BURST_REPLICAS);
        if creates > 0 {
            let batches = slow_start_batches(creates as i32);
            actions.push(format!(
                "create {creates} Pod(s) with generateName {name}-, each with the required node affinity metadata.name In [<node>] so the scheduler binds it there (slow start: batches of {})",
                batches.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ")
            ));
            for n in need.iter().take(creates) {
                actions.push(format!("  a Pod for {n}"));
            }
        }
        for (p, why) in delete.iter().take(BURST_REPLICAS) {
            actions.push(format!("delete Pod {p}: {why}"));
        }
        let mut summary =
            format!("daemonset-controller: DaemonSet {name} should run on {wanted} of {} node(s)", nodes.len());
        if creates > 0 {
            summary += &format!(": creating {creates} Pod(s)");
        }
        if !delete.is_empty() {
            summary +=
                &format!("{} deleting {}", if creates > 0 { "," } else { ":" }, delete.len().min(BURST_REPLICAS));
        }
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(ds_obj),
            summary,
            observed.join("; "),
            format!("one Pod on each of the {wanted} node(s) that should run it, none elsewhere"),
            actions,
            StepStatus::Ok,
        );
        let names: Vec<String> = delete.into_iter().map(|(n, _)| n).collect();
        let (done, err) = sync_nodes(cx, ds, ds_obj, &names, &need, hash);
        (done, err)
    }

    /// `failedPodsBackoff.IsInBackOffSinceUpdate`: the delay left when the last deletion on
    /// this node was less than the current back-off ago.
    fn in_backoff(&self, key: &str, now: u64) -> Option<u64> {
        let &(last, delay) = self.failed_pods_backoff.get(key)?;
        (now.saturating_sub(last) < delay).then_some(delay)
    }

    /// `failedPodsBackoff.Next`: 1 s at first, doubled on each deletion up to 15 min (and
    /// back to 1 s after a quiet period of twice the maximum).
    fn next_backoff(&mut self, key: &str, now: u64) {
        let entry = self.failed_pods_backoff.entry(key.to_string()).or_insert((now, 0));
        let expired = now.saturating_sub(entry.0) > 2 * FAILED_POD_BACKOFF_MAX_MS;
        entry.1 = if entry.1 == 0 || expired {
            FAILED_POD_BACKOFF_INITIAL_MS
        } else {
            (entry.1 * 2).min(FAILED_POD_BACKOFF_MAX_MS)
        };
        entry.0 = now;
    }
}

fn node_name_of(pod: &Pod) -> &str {
    node_name(pod)
}

/// `getDaemonPods` and `getNodesToDaemonPods`: claims the Pods of the namespace (adopting
/// orphans the selector matches, releasing owned Pods it no longer matches) and groups the
/// claimed ones by their target node, leaving out terminal Pods already being deleted.
fn claim_pods(cx: &mut Cx, ds: &DaemonSet) -> Result<Seen, String> {
    let ns = ds.metadata.namespace.clone();
    let uid = ds.metadata.uid.clone().unwrap_or_default();
    let selector = Some(&ds.spec).map(|s| s.selector.clone());
    let mut claimed = Vec::new();
    let mut first_err = None;
    let mut recheck: Option<Result<(), String>> = None;
    for pod in pods(cx.core, ns.as_deref()) {
        let matches = labels::matches(selector.as_ref(), pod.metadata.labels.as_ref());
        let pod_name = pod.metadata.name.clone().unwrap_or_default();
        match controller_of(&pod.metadata) {
            Some(r) if r.uid == uid => {
                if matches {
                    claimed.push(pod);
                    continue;
                }
                let patch = release_patch(&uid, pod.metadata.uid.as_deref().unwrap_or(""));
                let resp = cx.patch(SERVICE_ACCOUNT, "Pod", ns.as_deref(), &pod_name, patch);
                if !resp.ok() && !resp.is_not_found() {
                    first_err.get_or_insert_with(|| resp.message().to_string());
                }
            }
            Some(_) => {}
            None => {
                if !matches || is_deleting(&pod.metadata) {
                    continue;
                }
                let checked = recheck
                    .get_or_insert_with(|| cx.recheck_before_adopting(SERVICE_ACCOUNT, "DaemonSet", &ds.metadata));
                if let Err(e) = checked {
                    first_err.get_or_insert_with(|| e.clone());
                    continue;
                }
                let patch =
                    adopt_patch(&ds.metadata, "apps/v1", "DaemonSet", pod.metadata.uid.as_deref().unwrap_or(""), &[]);
                let resp = cx.patch(SERVICE_ACCOUNT, "Pod", ns.as_deref(), &pod_name, patch);
                match resp.stored_object() {
                    Some(Object::Pod(p)) if resp.ok() => claimed.push(Arc::clone(p)),
                    _ if resp.ok() || resp.is_not_found() => {}
                    _ => {
                        first_err.get_or_insert_with(|| resp.message().to_string());
                    }
                }
            }
        }
    }
    if let Some(e) = first_err {
        return Err(e);
    }
    let mut by_node: BTreeMap<String, Vec<Arc<Pod>>> = BTreeMap::new();
    for pod in claimed {
        if matches!(phase(&pod), "Succeeded" | "Failed") && is_deleting(&pod.metadata) {
            continue;
        }
        if let Some(node) = target_node_name(&pod) {
            by_node.entry(node).or_default().push(pod);
        }
    }
    Ok(Seen { by_node })
}

/// `syncNodes`: deletes `to_delete` and creates a Pod for each node of `need` (at most 250 of
/// each), the creations in slow-start batches that stop at the first failure. Returns whether
/// any request succeeded and the first error.
fn sync_nodes(
    cx: &mut Cx,
    ds: &DaemonSet,
    ds_obj: &Object,
    to_delete: &[String],
    need: &[String],
    hash: &str,
) -> (bool, Option<String>) {
    let ns = ds.metadata.namespace.clone();
    let name = ds.metadata.name.clone().unwrap_or_default();
    let template = create_pod_template(ds, template_generation(ds), hash);
    let owner = new_controller_ref(&ds.metadata, "apps/v1", "DaemonSet");
    let mut first_err: Option<String> = None;
    let mut acted = false;
    let creates = need.len().min(BURST_REPLICAS);
    let mut pos = 0;
    for batch in slow_start_batches(creates as i32) {
        let batch = batch as usize;
        let mut failed = false;
        for node in &need[pos..pos + batch] {
            let mut pod = pod_from_template(&template, ns.as_deref(), format!("{name}-"), owner.clone());
            if let Some(spec) = pod.spec.as_mut() {
                spec.affinity = Some(replace_node_name_affinity(spec.affinity.take(), node));
            }
            let resp = cx.create(SERVICE_ACCOUNT, Object::from(pod));
            match (resp.object_identity(), &resp.error) {
                (Some(created), None) => {
                    acted = true;
                    cx.event(SOURCE, ds_obj, "Normal", "SuccessfulCreate", &format!("Created pod: {}", created.name()));
                }
                (_, Some(e)) => {
                    if namespace_terminating(&e.message) {
                        continue;
                    }
                    cx.event(SOURCE, ds_obj, "Warning", "FailedCreate", &format!("Error creating: {}", e.message));
                    first_err.get_or_insert_with(|| e.message.clone());
                    failed = true;
                }
                _ => {}
            }
        }
        pos += batch;
        if failed {
            break;
        }
    }
    for pod_name in to_delete.iter().take(BURST_REPLICAS) {
        let resp = cx.delete(SERVICE_ACCOUNT, "Pod", ns.as_deref(), pod_name, None);
        match &resp.error {
            None => {
                acted = true;
                cx.event(SOURCE, ds_obj, "Normal", "SuccessfulDelete", &format!("Deleted pod: {pod_name}"));
            }
            Some(e) if e.code == 404 => {}
            Some(e) => {
                cx.event(SOURCE, ds_obj, "Warning", "FailedDelete", &format!("Error deleting: {}", e.message));
                first_err.get_or_insert_with(|| e.message.clone());
            }
        }
    }
    (acted, first_err)
}

// ---------------------------------------------------------------------------------------
// History

/// `constructHistory`: claims the DaemonSet's ControllerRevisions, finds the one holding the
/// current template (creating it, or raising its revision number to the newest), and returns
/// it with the others.
fn construct_history(
    cx: &mut Cx,
    ds: &DaemonSet,
) -> Result<(Arc<ControllerRevision>, Vec<Arc<ControllerRevision>>), String> {
    let ns = ds.metadata.namespace.clone();
    let name = ds.metadata.name.clone().unwrap_or_default();
    let uid = ds.metadata.uid.clone().unwrap_or_default();
    let selector = Some(&ds.spec).map(|s| s.selector.clone());
    let mut histories: Vec<Arc<ControllerRevision>> = Vec::new();
    let mut recheck: Option<Result<(), String>> = None;
    for o in list_shared(cx.core, "ControllerRevision", ns.as_deref()) {
        let Object::ControllerRevision(cr) = &*o else { continue };
        let matches = labels::matches(selector.as_ref(), cr.metadata.labels.as_ref());
        let cr_name = cr.metadata.name.clone().unwrap_or_default();
        match controller_of(&cr.metadata) {
            Some(r) if r.uid == uid => {
                if matches {
                    histories.push(Arc::clone(cr));
                    continue;
                }
                let patch = release_patch(&uid, cr.metadata.uid.as_deref().unwrap_or(""));
                let resp = cx.patch(SERVICE_ACCOUNT, "ControllerRevision", ns.as_deref(), &cr_name, patch);
                if !resp.ok() && !resp.is_not_found() {
                    return Err(resp.message().to_string());
                }
            }
            Some(_) => {}
            None => {
                if !matches || is_deleting(&cr.metadata) {
                    continue;
                }
                let checked = recheck
                    .get_or_insert_with(|| cx.recheck_before_adopting(SERVICE_ACCOUNT, "DaemonSet", &ds.metadata));
                if let Err(e) = checked {
                    return Err(e.clone());
                }
                let patch =
                    adopt_patch(&ds.metadata, "apps/v1", "DaemonSet", cr.metadata.uid.as_deref().unwrap_or(""), &[]);
                let resp = cx.patch(SERVICE_ACCOUNT, "ControllerRevision", ns.as_deref(), &cr_name, patch);
                match resp.stored_object() {
                    Some(Object::ControllerRevision(c)) if resp.ok() => histories.push(Arc::clone(c)),
                    _ if resp.ok() || resp.is_not_found() => {}
                    _ => return Err(resp.message().to_string()),
                }
            }
        }
    }
    let patch = get_patch(ds);
    let mut current = Vec::new();
    let mut old = Vec::new();
    for mut h in histories {
        // A revision without the hash label gets its name as the label.
        if revision_hash(&h).is_empty() {
            let mut to_update = (*h).clone();
            let cr_name = to_update.metadata.name.clone().unwrap_or_default();
            to_update
                .metadata
                .labels
                .get_or_insert_with(BTreeMap::new)
                .insert(CONTROLLER_REVISION_HASH_LABEL.into(), cr_name);
            let resp = cx.update(SERVICE_ACCOUNT, Object::ControllerRevision(Arc::new(to_update)));
            match resp.stored_object() {
                Some(Object::ControllerRevision(c)) if resp.ok() => h = Arc::clone(c),
                _ => return Err(resp.message().to_string()),
            }
        }
        if h.data.0 == patch {
            current.push(h);
        } else {
            old.push(h);
        }
    }
    let next = history::max_revision(old.iter().map(|h| h.as_ref())) + 1;
    let cur = if current.is_empty() {
        snapshot(cx, ds, next, patch)?
    } else {
        let keep = dedup_current(cx, ds, current)?;
        if keep.revision.unwrap_or(0) < next {
            let mut to_update = (*keep).clone();
            to_update.revision = Some(next);
            let resp = cx.update(SERVICE_ACCOUNT, Object::ControllerRevision(Arc::new(to_update)));
            if !resp.ok() {
                return Err(resp.message().to_string());
            }
            cx.decide(
                Phase::Controllers,
                NAME,
                Some(&Object::ControllerRevision(Arc::clone(&keep))),
                format!(
                    "daemonset-controller: DaemonSet {name} is back to the template of ControllerRevision {}: revision {next}",
                    keep.metadata.name.as_deref().unwrap_or("")
                ),
                format!("revision {} holds the current template", keep.revision.unwrap_or(0)),
                format!("the current template as the newest revision ({next})"),
                vec![format!("PUT ControllerRevision {}: revision {next}", keep.metadata.name.as_deref().unwrap_or(""))],
                StepStatus::Ok,
            );
        }
        keep
    };
    Ok((cur, old))
}

/// `dedupCurHistories`: of several revisions holding the current template, keeps the newest,
/// relabels the Pods with its hash and deletes the others.
fn dedup_current(
    cx: &mut Cx,
    ds: &DaemonSet,
    current: Vec<Arc<ControllerRevision>>,
) -> Result<Arc<ControllerRevision>, String> {
    if current.len() == 1 {
        return Ok(Arc::clone(&current[0]));
    }
    let ns = ds.metadata.namespace.clone();
    let mut keep = Arc::clone(&current[0]);
    for c in &current {
        if c.revision.unwrap_or(0) >= keep.revision.unwrap_or(0) {
            keep = Arc::clone(c);
        }
    }
    let keep_hash = revision_hash(&keep).to_string();
    let uid = ds.metadata.uid.clone().unwrap_or_default();
    for pod in pods(cx.core, ns.as_deref()) {
        if !is_controlled_by(&pod.metadata, &uid) {
            continue;
        }
        if pod.metadata.labels.as_ref().and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL)) != Some(&keep_hash) {
            let patch = serde_json::json!({"metadata": {"labels": {CONTROLLER_REVISION_HASH_LABEL: keep_hash}}});
            let pod_name = pod.metadata.name.clone().unwrap_or_default();
            let resp = cx.patch(SERVICE_ACCOUNT, "Pod", ns.as_deref(), &pod_name, patch);
            if !resp.ok() {
                return Err(resp.message().to_string());
            }
        }
    }
    for c in &current {
        if c.metadata.name == keep.metadata.name {
            continue;
        }
        let resp = cx.delete(
            SERVICE_ACCOUNT,
            "ControllerRevision",
            ns.as_deref(),
            c.metadata.name.as_deref().unwrap_or(""),
            None,
        );
        if !resp.ok() {
            return Err(resp.message().to_string());
        }
    }
    Ok(keep)
}

/// `snapshot`: creates the revision of the current template, `<ds>-<hash>`.
fn snapshot(cx: &mut Cx, ds: &DaemonSet, revision: i64, patch: Value) -> Result<Arc<ControllerRevision>, String> {
    let ns = ds.metadata.namespace.clone();
    let ds_name = ds.metadata.name.clone().unwrap_or_default();
    let template = Some(&ds.spec).map(|s| s.template.clone()).unwrap_or_default();
    let collision_count = ds.status.as_ref().and_then(|s| s.collision_count);
    let hash = compute_hash(&template, collision_count);
    let name = format!("{ds_name}-{hash}");
    let mut labels = template.metadata.as_ref().and_then(|m| m.labels.clone()).unwrap_or_default();
    labels.insert(CONTROLLER_REVISION_HASH_LABEL.into(), hash.clone());
    let cr = ControllerRevision {
        metadata: ObjectMeta {
            name: Some(name.clone()),
            namespace: ns.clone(),
            labels: Some(labels),
            annotations: ds.metadata.annotations.clone(),
            owner_references: Some(vec![new_controller_ref(&ds.metadata, "apps/v1", "DaemonSet")]),
            ..ObjectMeta::default()
        },
        data: RawExtension(patch.clone()),
        revision: Some(revision),
    };
    let ds_obj = Object::DaemonSet(Arc::new(ds.clone()));
    cx.decide(
        Phase::Controllers,
        NAME,
        Some(&ds_obj),
        format!("daemonset-controller records revision {revision} of DaemonSet {ds_name}: ControllerRevision {name}"),
        "no ControllerRevision holds the current template".into(),
        format!("a ControllerRevision of the template, labelled {CONTROLLER_REVISION_HASH_LABEL}={hash} like the Pods made from it"),
        vec![format!("POST ControllerRevision {name} (revision {revision}, data: a patch replacing spec.template)")],
        StepStatus::Ok,
    );
    let resp = cx.create(SERVICE_ACCOUNT, Object::ControllerRevision(Arc::new(cr)));
    if let Some(Object::ControllerRevision(c)) = resp.stored_object().filter(|_| resp.ok()) {
        return Ok(Arc::clone(c));
    }
    if !resp.is_already_exists() {
        return Err(resp.message().to_string());
    }
    let outer = resp.message().to_string();
    let got = cx.request(
        SERVICE_ACCOUNT,
        crate::apiserver::Verb::Get,
        "ControllerRevision",
        ns.as_deref(),
        Some(&name),
        None,
        None,
    );
    let existing = match got.stored_object().filter(|_| got.ok()) {
        Some(Object::ControllerRevision(c)) => Arc::clone(c),
        _ => return Err(got.message().to_string()),
    };
    if existing.data.0 == patch {
        return Ok(existing);
    }
    // Another template has this hash: raise the collision count so the next hash differs.
    let got = cx.request(
        SERVICE_ACCOUNT,
        crate::apiserver::Verb::Get,
        "DaemonSet",
        ns.as_deref(),
        Some(&ds_name),
        None,
        None,
    );
    let mut current = match got.stored_object().filter(|_| got.ok()) {
        Some(Object::DaemonSet(d)) => (**d).clone(),
        _ => return Err(got.message().to_string()),
    };
    let cur_count = current.status.as_ref().and_then(|s| s.collision_count);
    if cur_count != collision_count {
        return Err(format!(
            "found a stale collision count ({}, expected {}) of DaemonSet \"{ds_name}\" while processing; will retry until it is updated",
            collision_count.map_or("<nil>".to_string(), |c| c.to_string()),
            cur_count.map_or("<nil>".to_string(), |c| c.to_string())
        ));
    }
    let status = current.status.get_or_insert_with(DaemonSetStatus::default);
    status.collision_count = Some(cur_count.unwrap_or(0) + 1);
    let resp = cx.update_status(SERVICE_ACCOUNT, Object::DaemonSet(Arc::new(current)));
    if !resp.ok() {
        return Err(resp.message().to_string());
    }
    Err(outer)
}

/// `cleanupHistory`: deletes the oldest revisions beyond `revisionHistoryLimit` that no Pod
/// carries the hash of.
fn cleanup_history(cx: &mut Cx, ds: &DaemonSet, old: &[Arc<ControllerRevision>], seen: &Seen) -> Result<(), String> {
    let limit = Some(&ds.spec).and_then(|s| s.revision_history_limit).unwrap_or(DEFAULT_REVISION_HISTORY_LIMIT);
    let mut to_kill = old.len() as i64 - i64::from(limit);
    if to_kill <= 0 {
        return Ok(());
    }
    // Terminal Pods being deleted count here too (upstream includes them).
    let uid = ds.metadata.uid.clone().unwrap_or_default();
    let ns = ds.metadata.namespace.clone();
    let mut live: Vec<String> = seen
        .by_node
        .values()
        .flatten()
        .filter_map(|p| p.metadata.labels.as_ref()?.get(CONTROLLER_REVISION_HASH_LABEL).cloned())
        .collect();
    for p in pods(cx.core, ns.as_deref()) {
        if is_controlled_by(&p.metadata, &uid) {
            if let Some(h) = p.metadata.labels.as_ref().and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL)) {
                live.push(h.clone());
            }
        }
    }
    let mut old: Vec<Arc<ControllerRevision>> = old.to_vec();
    crate::sort::sort_by_key(&mut old, |h| h.revision.unwrap_or(0));
    for h in old {
        if to_kill <= 0 {
            break;
        }
        if live.iter().any(|l| l == revision_hash(&h)) {
            continue;
        }
        let cr_name = h.metadata.name.clone().unwrap_or_default();
        let resp = cx.delete(SERVICE_ACCOUNT, "ControllerRevision", ns.as_deref(), &cr_name, None);
        if !resp.ok() {
            return Err(resp.message().to_string());
        }
        to_kill -= 1;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Updates

/// The `(new, old)` Pods of one node, or `None` when it has more than one of either
/// (`findUpdatedPodsOnNode`: the manage loop prunes those first).
#[allow(clippy::type_complexity)]
fn find_updated_pods_on_node<'a>(
    pods: &'a [Arc<Pod>],
    hash: &str,
    generation: Option<i64>,
) -> Option<(Option<&'a Arc<Pod>>, Option<&'a Arc<Pod>>)> {
    let (mut new, mut old) = (None, None);
    for p in pods.iter().filter(|p| !is_deleting(&p.metadata)) {
        let slot = if is_pod_updated(p, hash, generation) { &mut new } else { &mut old };
        if slot.is_some() {
            return None;
        }
        *slot = Some(p);
    }
    Some((new, old))
}

/// `rollingUpdate`: replaces Pods of older templates within `maxUnavailable` (deleting old
/// Pods; the next sync creates their replacements) or, with `maxSurge`, within `maxSurge`
/// (creating new Pods beside old ones and deleting an old one once its replacement is
/// available).
fn rolling_update(
    cx: &mut Cx,
    ds: &DaemonSet,
    ds_obj: &Object,
    nodes: &[Arc<Node>],
    seen: &Seen,
    hash: &str,
) -> Option<String> {
    let spec = ds.spec.clone();
    let name = ds.metadata.name.clone().unwrap_or_default();
    let generation = template_generation(ds);
    let now = cx.core.now;
    let min_ready = spec.min_ready_seconds.unwrap_or(0);
    // `updatedDesiredNodeCounts`: every node that should run a Pod is in the map.
    let mut by_node = seen.by_node.clone();
    let mut desired = 0;
    for n in nodes {
        if node_should_run_daemon_pod(n, ds).answer().0 {
            desired += 1;
            by_node.entry(n.metadata.name.clone().unwrap_or_default()).or_default();
        }
    }
    let surge = max_surge(&spec, desired);
    let mut unavailable_max = max_unavailable(&spec, desired);
    if desired > 0 && unavailable_max == 0 && surge == 0 {
        unavailable_max = 1;
    }
    let available = |p: &Pod| is_pod_available(p, min_ready, now);
    let mut to_delete: Vec<(String, String)> = Vec::new();
    let mut to_create: Vec<String> = Vec::new();
    let observed;
    if surge == 0 {
        let mut num_unavailable = 0;
        let mut allowed: Vec<(String, String)> = Vec::new();
        let mut candidates: Vec<(String, String)> = Vec::new();
        for (node, pods) in &by_node {
            let Some((new, old)) = find_updated_pods_on_node(pods, hash, generation) else {
                num_unavailable += 1;
                continue;
            };
            match (new, old) {
                (None, None) | (Some(_), Some(_)) => num_unavailable += 1,
                (Some(new), None) => {
                    if !available(new) {
                        num_unavailable += 1;
                    }
                }
                (None, Some(old)) => {
                    let old_name = old.metadata.name.clone().unwrap_or_default();
                    if !available(old) {
                        allowed.push((old_name, format!("old Pod on {node}, not available: replace it now")));
                        num_unavailable += 1;
                    } else if num_unavailable < unavailable_max {
                        candidates.push((old_name, format!("old Pod on {node}")));
                    }
                }
            }
        }
        let remaining = (unavailable_max - num_unavailable).max(0).min(candidates.len() as i32) as usize;
        observed = format!(
            "{desired} node(s) should run a Pod, {num_unavailable} unavailable, maxUnavailable {unavailable_max}; {} old Pod(s) available to replace",
            candidates.len()
        );
        to_delete.extend(allowed);
        to_delete.extend(candidates.into_iter().take(remaining));
    } else {
        let mut shouldnt_run: Vec<(String, String)> = Vec::new();
        let mut allowed_new: Vec<String> = Vec::new();
        let mut candidate_new: Vec<String> = Vec::new();
        let mut num_surge = 0;
        let mut num_available = 0;
        for (node_name, pods) in &by_node {
            let Some((new, old)) = find_updated_pods_on_node(pods, hash, generation) else {
                num_surge += 1;
                continue;
            };
            match (old, new) {
                (Some(o), _) if available(o) => num_available += 1,
                (None, Some(n)) if available(n) => num_available += 1,
                _ => {}
            }
            let should_run = || {
                nodes
                    .iter()
                    .find(|n| n.metadata.name.as_deref() == Some(node_name.as_str()))
                    .is_some_and(|n| node_should_run_daemon_pod(n, ds).answer().0)
            };
            match (old, new) {
                (None, _) => {}
                (Some(o), None) => {
                    let old_name = o.metadata.name.clone().unwrap_or_default();
                    if !available(o) {
                        if !should_run() {
                            to_delete.push((
                                old_name,
                                format!("old Pod on {node_name}, not available, and the node should not run one"),
                            ));
                            continue;
                        }
                        allowed_new.push(node_name.clone());
                    } else {
                        if !should_run() {
                            shouldnt_run.push((old_name, format!("old Pod on {node_name}, which should not run one")));
                            continue;
                        }
                        if num_surge >= surge {
                            continue;
                        }
                        candidate_new.push(node_name.clone());
                    }
                }
                (Some(o), Some(n)) => {
                    if !available(n) {
                        num_surge += 1;
                        continue;
                    }
                    let old_name = o.metadata.name.clone().unwrap_or_default();
                    to_delete.push((old_name, format!("old Pod on {node_name}: its replacement is available")));
                }
            }
        }
        let deletable = (num_available - desired).max(0).min(shouldnt_run.len() as i32) as usize;
        to_delete.extend(shouldnt_run.into_iter().take(deletable));
        let remaining = (surge - num_surge).max(0).min(candidate_new.len() as i32) as usize;
        observed = format!(
            "{desired} node(s) should run a Pod, {num_surge} surging, maxSurge {surge}; {} node(s) with an available old Pod to surge onto",
            candidate_new.len()
        );
        to_create.extend(allowed_new);
        to_create.extend(candidate_new.into_iter().take(remaining));
    }
    if to_delete.is_empty() && to_create.is_empty() {
        return None;
    }
    let mut actions: Vec<String> = to_delete.iter().map(|(p, why)| format!("delete Pod {p} ({why})")).collect();
    actions.extend(to_create.iter().map(|n| format!("create a new Pod on {n} beside the old one")));
    cx.decide(
        Phase::Controllers,
        NAME,
        Some(ds_obj),
        format!(
            "daemonset-controller: rolling update of DaemonSet {name} to {CONTROLLER_REVISION_HASH_LABEL} {hash}: {} old Pod(s) to delete, {} new Pod(s) to create",
            to_delete.len(),
            to_create.len()
        ),
        observed,
        "every Pod from the current template, within the strategy's limits".into(),
        actions,
        StepStatus::Ok,
    );
    let names: Vec<String> = to_delete.into_iter().map(|(n, _)| n).collect();
    sync_nodes(cx, ds, ds_obj, &names, &to_create, hash).1
}

/// The OnDelete strategy replaces nothing; the trace says so once per template when old
/// Pods remain.
fn on_delete_note(cx: &mut Cx, ds: &DaemonSet, ds_obj: &Object, seen: &Seen, hash: &str) {
    let generation = template_generation(ds);
    let old: Vec<String> = seen
        .by_node
        .values()
        .flatten()
        .filter(|p| !is_deleting(&p.metadata) && !is_pod_updated(p, hash, generation))
        .filter_map(|p| p.metadata.name.clone())
        .collect();
    if old.is_empty() {
        return;
    }
    // Only when the template changed since the last status write (one note per change).
    let observed = ds.status.as_ref().and_then(|s| s.observed_generation).unwrap_or(0);
    if observed >= ds.metadata.generation.unwrap_or(0) {
        return;
    }
    cx.decide(
        Phase::Controllers,
        NAME,
        Some(ds_obj),
        format!(
            "daemonset-controller: DaemonSet {} uses the OnDelete strategy: {} Pod(s) keep the old template until they are deleted",
            ds.metadata.name.as_deref().unwrap_or(""),
            old.len()
        ),
        format!("Pods from an older template: {}", old.join(", ")),
        "new Pods from the current template, only where a Pod is deleted".into(),
        vec!["nothing now: delete a Pod to have it replaced from the current template".into()],
        StepStatus::Ok,
    );
}

// ---------------------------------------------------------------------------------------
// Status

/// `updateDaemonSetStatus` and `storeDaemonSetStatus`, from the Pods as they were when the
/// sync began (its own writes are not in the informer yet).
fn update_status(cx: &mut Cx, ds: &DaemonSet, ds_obj: &Object, nodes: &[Arc<Node>], seen: &Seen, hash: &str) {
    let spec = ds.spec.clone();
    let min_ready = spec.min_ready_seconds.unwrap_or(0);
    let generation = template_generation(ds);
    let now = cx.core.now;
    let (mut desired, mut current, mut misscheduled, mut ready, mut updated, mut available) = (0, 0, 0, 0, 0, 0);
    for node in nodes {
        let node_name = node.metadata.name.as_deref().unwrap_or("");
        let should_run = node_should_run_daemon_pod(node, ds).answer().0;
        let pods = seen.by_node.get(node_name).filter(|p| !p.is_empty());
        if should_run {
            desired += 1;
            let Some(pods) = pods else { continue };
            current += 1;
            let mut sorted_pods = pods.clone();
            crate::sort::sort_by(&mut sorted_pods, |a, b| pod_order(a, b));
            let pod = &sorted_pods[0];
            if is_pod_ready(pod) {
                ready += 1;
                if is_pod_available(pod, min_ready, now) {
                    available += 1;
                }
            }
            if is_pod_updated(pod, hash, generation) {
                updated += 1;
            }
        } else if pods.is_some() {
            misscheduled += 1;
        }
    }
    let unavailable = desired - available;
    let gen = ds.metadata.generation.unwrap_or(0);
    let old = ds.status.clone().unwrap_or_default();
    let unchanged = old.desired_number_scheduled == desired
        && old.current_number_scheduled == current
        && old.number_misscheduled == misscheduled
        && old.number_ready == ready
        && old.updated_number_scheduled.unwrap_or(0) == updated
        && old.number_available.unwrap_or(0) == available
        && old.number_unavailable.unwrap_or(0) == unavailable
        && old.observed_generation.unwrap_or(0) >= gen;
    if !unchanged {
        let name = ds.metadata.name.clone().unwrap_or_default();
        let mut latest = ds.clone();
        let status = latest.status.get_or_insert_with(DaemonSetStatus::default);
        status.observed_generation = nz64(gen);
        status.desired_number_scheduled = desired;
        status.current_number_scheduled = current;
        status.number_misscheduled = misscheduled;
        status.number_ready = ready;
        status.updated_number_scheduled = nz(updated);
        status.number_available = nz(available);
        status.number_unavailable = nz(unavailable);
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(ds_obj),
            format!(
                "daemonset-controller updates status of DaemonSet {name}: desired {desired}, current {current}, ready {ready}, available {available}"
            ),
            format!("{} node(s), {} with a Pod of this DaemonSet", nodes.len(), seen.by_node.values().filter(|p| !p.is_empty()).count()),
            format!("{desired} node(s) should run a Pod"),
            vec![format!(
                "PUT status: desiredNumberScheduled={desired} currentNumberScheduled={current} numberMisscheduled={misscheduled} numberReady={ready} updatedNumberScheduled={updated} numberAvailable={available} numberUnavailable={unavailable} observedGeneration={gen}"
            )],
            StepStatus::Ok,
        );
        let _ = cx.update_status(SERVICE_ACCOUNT, Object::DaemonSet(Arc::new(latest)));
    }
    // Check again when a ready Pod should have become available.
    if min_ready > 0 && ready != available {
        cx.enqueue(NAME, &key_of(&ds.metadata), min_ready as u64 * 1000);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::NodeSpec;

    fn node(name: &str, taints: &[(&str, &str)]) -> Node {
        Node {
            metadata: ObjectMeta { name: Some(name.into()), ..Default::default() },
            spec: Some(NodeSpec {
                taints: Some(
                    taints
                        .iter()
                        .map(|(k, e)| Taint { key: k.to_string(), effect: e.to_string(), ..Default::default() })
                        .collect(),
                ),
                ..Default::default()
            }),
            status: None,
        }
    }

    fn ds(yaml: &str) -> DaemonSet {
        serde_yaml::from_str(yaml).unwrap()
    }

    const AGENT: &str = "
metadata: {name: agent, namespace: default}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: a, image: busybox}]
";

    #[test]
    fn tolerations_are_added_once_and_replace_a_matching_one() {
        let mut spec: PodSpec = serde_yaml::from_str(
            "containers: []\nhostNetwork: true\ntolerations:\n- {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 30}\n",
        )
        .unwrap();
        add_or_update_daemon_pod_tolerations(&mut spec);
        add_or_update_daemon_pod_tolerations(&mut spec);
        let got: Vec<String> = spec
            .tolerations
            .unwrap()
            .iter()
            .map(|t| {
                format!("{}:{}:{:?}", t.key.as_deref().unwrap(), t.effect.as_deref().unwrap(), t.toleration_seconds)
            })
            .collect();
        assert_eq!(
            got,
            [
                "node.kubernetes.io/not-ready:NoExecute:None",
                "node.kubernetes.io/unreachable:NoExecute:None",
                "node.kubernetes.io/disk-pressure:NoSchedule:None",
                "node.kubernetes.io/memory-pressure:NoSchedule:None",
                "node.kubernetes.io/pid-pressure:NoSchedule:None",
                "node.kubernetes.io/unschedulable:NoSchedule:None",
                "node.kubernetes.io/network-unavailable:NoSchedule:None",
            ]
        );
    }

    #[test]
    fn which_nodes_should_run_a_daemon_pod() {
        let d = ds(AGENT);
        assert_eq!(node_should_run_daemon_pod(&node("w", &[]), &d).answer(), (true, true));
        // The controller's own tolerations cover a cordon and the node-condition taints.
        let cordoned = node(
            "w",
            &[("node.kubernetes.io/unschedulable", "NoSchedule"), ("node.kubernetes.io/not-ready", "NoExecute")],
        );
        assert_eq!(node_should_run_daemon_pod(&cordoned, &d).answer(), (true, true));
        // kind's control plane: no new Pod, but one already there may stay.
        let cp = node("cp", &[("node-role.kubernetes.io/control-plane", "NoSchedule")]);
        assert_eq!(node_should_run_daemon_pod(&cp, &d).answer(), (false, true));
        let evicting = node("x", &[("dedicated", "NoExecute")]);
        assert_eq!(node_should_run_daemon_pod(&evicting, &d).answer(), (false, false));
        let mut selective = d.clone();
        selective.spec.template.spec.as_mut().unwrap().node_selector =
            Some([("disk".to_string(), "ssd".to_string())].into());
        assert_eq!(node_should_run_daemon_pod(&node("w", &[]), &selective), NodeFit::AffinityMismatch);
        let mut named = d.clone();
        named.spec.template.spec.as_mut().unwrap().node_name = Some("other".into());
        assert_eq!(node_should_run_daemon_pod(&node("w", &[]), &named).answer(), (false, false));
    }

    #[test]
    fn node_name_affinity_replaces_required_terms_and_is_read_back() {
        let a: Affinity = serde_yaml::from_str(
            "nodeAffinity:\n  requiredDuringSchedulingIgnoredDuringExecution:\n    nodeSelectorTerms:\n    - matchExpressions: [{key: disk, operator: In, values: [ssd]}]\n",
        )
        .unwrap();
        let got = replace_node_name_affinity(Some(a), "kind-worker");
        let json = serde_json::to_string(&got).unwrap();
        assert_eq!(
            json,
            r#"{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["kind-worker"]}]}]}}}"#
        );
        let pod = Pod { spec: Some(PodSpec { affinity: Some(got), ..Default::default() }), ..Default::default() };
        assert_eq!(target_node_name(&pod).as_deref(), Some("kind-worker"));
    }

    #[test]
    fn revision_data_replaces_the_template() {
        let d = ds(AGENT);
        let p = get_patch(&d);
        assert_eq!(
            p.to_string(),
            r#"{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"agent"}},"spec":{"containers":[{"image":"busybox","name":"a"}]}}}}"#
        );
    }

    #[test]
    fn updated_pods_by_hash_or_generation() {
        let pod = |labels: &[(&str, &str)]| Pod {
            metadata: ObjectMeta {
                labels: Some(labels.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()),
                ..Default::default()
            },
            ..Default::default()
        };
        assert!(is_pod_updated(&pod(&[("controller-revision-hash", "abc")]), "abc", None));
        assert!(is_pod_updated(&pod(&[("pod-template-generation", "2")]), "abc", Some(2)));
        assert!(!is_pod_updated(
            &pod(&[("controller-revision-hash", "old"), ("pod-template-generation", "1")]),
            "abc",
            Some(2)
        ));
    }
}
