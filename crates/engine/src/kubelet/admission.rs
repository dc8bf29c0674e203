//! The kubelet's own admission of a Pod bound to its node (`pkg/kubelet/lifecycle/predicate.go`
//! and the eviction manager's admit handler), checked in upstream's order: the eviction
//! manager (node conditions), then the general predicates — resources fit (`Too many pods`
//! first, then cpu, memory, ephemeral-storage, extended resources), node affinity/selector,
//! node name, host ports — then untolerated `NoExecute` taints. Only the first failure is
//! reported: reason `OutOf<resource>` with `Node didn't have enough resource: <r>, requested:
//! <n>, used: <n>, capacity: <n>`, or `<Predicate>` with `Predicate <Predicate> failed: <reason>`.
//! A rejected pod becomes `Failed` with message `Pod was rejected: <message>`.
//!
//! `Kubelet::admit` runs the admit handlers for a new pod and, once it is admitted, records
//! its QoS class and creates its pod cgroup, as upstream's pod worker does before SyncPod.

use super::qos::{self, effective_requests, has_pod_level_resources, resource_list, QosClass};
use super::{admission, cgroups, volumes, Kubelet, PodWorker, POD_WORKER_BACKOFF_MS};
use crate::labels::Operator;
use crate::quantity::Quantity;
use crate::resource::{self, Totals};
use crate::trace::{Component, Phase, StepStatus, Table};
use crate::world::World;
use k8s_openapi::api::core::v1::{Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, Taint, Toleration};
use std::collections::BTreeMap;

/// The kubelet's `maxPods` default when the node reports no pods allocatable.
pub const DEFAULT_MAX_PODS: i64 = 110;

/// One check and its verdict, for the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub handler: String,
    pub passed: bool,
    pub detail: String,
}

/// The admission decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub checks: Vec<Check>,
    /// `(reason, message)` when rejected.
    pub rejected: Option<(String, String)>,
}

/// A pod's requests as the fit check counts them (no defaults for zero requests).
pub fn pod_requests(pod: &Pod) -> BTreeMap<String, Quantity> {
    let Some(spec) = pod.spec.as_ref() else { return BTreeMap::new() };
    if has_pod_level_resources(pod) {
        let mut r = effective_requests(spec.resources.as_ref());
        // Extended resources still come from the containers.
        for c in &spec.containers {
            for (k, v) in effective_requests(c.resources.as_ref()) {
                if k != "cpu" && k != "memory" {
                    let sum = r.get(&k).map(|p| *p + v).unwrap_or(v);
                    r.insert(k, sum);
                }
            }
        }
        return r;
    }
    let mut sum = resource::aggregate(spec, |c| effective_requests(c.resources.as_ref()));
    sum.add(&resource_list(spec.overhead.as_ref()));
    sum
}

fn requirement_matches(
    r: &NodeSelectorRequirement,
    labels: &BTreeMap<String, String>,
    node_name: &str,
    field: bool,
) -> bool {
    let value =
        if field { (r.key == "metadata.name").then(|| node_name.to_string()) } else { labels.get(&r.key).cloned() };
    let values = r.values.clone().unwrap_or_default();
    match r.operator.as_str() {
        "Gt" | "Lt" => {
            let (Some(v), Some(bound)) =
                (value.and_then(|v| v.parse::<i64>().ok()), values.first().and_then(|b| b.parse::<i64>().ok()))
            else {
                return false;
            };
            if r.operator == "Gt" {
                v > bound
            } else {
                v < bound
            }
        }
        op => Operator::from_name(op).is_some_and(|op| op.matches(value.as_deref(), &values)),
    }
}

fn term_matches(t: &NodeSelectorTerm, labels: &BTreeMap<String, String>, node_name: &str) -> bool {
    let exprs = t.match_expressions.iter().flatten();
    let fields = t.match_fields.iter().flatten();
    let any = t.match_expressions.as_ref().is_some_and(|v| !v.is_empty())
        || t.match_fields.as_ref().is_some_and(|v| !v.is_empty());
    any && exprs.clone().all(|r| requirement_matches(r, labels, node_name, false))
        && fields.clone().all(|r| requirement_matches(r, labels, node_name, true))
}

/// Whether the node satisfies the pod's nodeSelector and required node affinity.
pub fn node_affinity_matches(pod: &Pod, node: &Node) -> bool {
    let labels = node.metadata.labels.clone().unwrap_or_default();
    let node_name = node.metadata.name.as_deref().unwrap_or("");
    let Some(spec) = pod.spec.as_ref() else { return true };
    if let Some(sel) = &spec.node_selector {
        if !crate::labels::set_matches(sel, Some(&labels)) {
            return false;
        }
    }
    let required = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|na| na.required_during_scheduling_ignored_during_execution.as_ref());
    match required {
        Some(sel) => sel.node_selector_terms.iter().any(|t| term_matches(t, &labels, node_name)),
        None => true,
    }
}

/// Whether a toleration tolerates a taint (upstream `ToleratesTaint`).
pub fn tolerates(t: &Toleration, taint: &Taint) -> bool {
    if let Some(e) = t.effect.as_deref() {
        if !e.is_empty() && e != taint.effect {
            return false;
        }
    }
    let key = t.key.as_deref().unwrap_or("");
    if !key.is_empty() && key != taint.key {
        return false;
    }
    match t.operator.as_deref().unwrap_or("Equal") {
        "Exists" => true,
        "Equal" | "" => t.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or(""),
        _ => false,
    }
}

/// Admits (or rejects) `pod` on `node`, given the pods already admitted there.
pub fn admit(pod: &Pod, node: &Node, others: &[&Pod], node_conditions: &[String], qos: QosClass) -> Decision {
    let mut checks = vec![];
    let reject = |checks: Vec<Check>, reason: &str, message: String| Decision {
        checks,
        rejected: Some((reason.to_string(), message)),
    };
    // The eviction manager: memory pressure rejects only BestEffort pods; any other
    // pressure condition rejects everything (critical pods aside).
    if !node_conditions.is_empty() {
        let only_memory = node_conditions.len() == 1 && node_conditions[0] == "MemoryPressure";
        if !(only_memory && qos != QosClass::BestEffort) {
            let msg = format!("The node had condition: [{}]. ", node_conditions.join(" "));
            checks.push(Check { handler: "EvictionManager".into(), passed: false, detail: msg.clone() });
            return reject(checks, "Evicted", msg);
        }
    }
    checks.push(Check {
        handler: "EvictionManager".into(),
        passed: true,
        detail: "the node reports no resource pressure".into(),
    });
    // NodeResourcesFit.
    let alloc = resource_list(node.status.as_ref().and_then(|s| s.allocatable.as_ref()));
    let max_pods = alloc.get("pods").map(|q| q.value() as i64).unwrap_or(DEFAULT_MAX_PODS);
    if others.len() as i64 + 1 > max_pods {
        let msg = format!(
            "Node didn't have enough resource: pods, requested: 1, used: {}, capacity: {max_pods}",
            others.len()
        );
        checks.push(Check { handler: "NodeResourcesFit".into(), passed: false, detail: msg.clone() });
        return reject(checks, "OutOfpods", msg);
    }
    let req = pod_requests(pod);
    let mut used: BTreeMap<String, Quantity> = BTreeMap::new();
    for o in others {
        for (k, v) in pod_requests(o) {
            let s = used.get(&k).map(|p| *p + v).unwrap_or(v);
            used.insert(k, s);
        }
    }
    let mut names: Vec<String> = vec!["cpu".into(), "memory".into(), "ephemeral-storage".into()];
    names.extend(req.keys().filter(|k| !matches!(k.as_str(), "cpu" | "memory" | "ephemeral-storage")).cloned());
    let mut fit_lines = vec![];
    for name in names {
        let Some(r) = req.get(&name).copied().filter(|q| !q.is_zero()) else { continue };
        let cap = alloc.get(&name).copied().unwrap_or(Quantity::ZERO);
        let u = used.get(&name).copied().unwrap_or(Quantity::ZERO);
        let as_int = |q: Quantity| if name == "cpu" { q.milli() } else { q.value() };
        if name.contains('/') && !alloc.contains_key(&name) {
            // Extended resources unknown to the node are not checked by the kubelet.
            continue;
        }
        if r + u > cap {
            let msg = format!(
                "Node didn't have enough resource: {name}, requested: {}, used: {}, capacity: {}",
                as_int(r),
                as_int(u),
                as_int(cap)
            );
            checks.push(Check { handler: "NodeResourcesFit".into(), passed: false, detail: msg.clone() });
            return reject(checks, &format!("OutOf{name}"), msg);
        }
        fit_lines.push(format!("{name}: requested {r}, used {u}, allocatable {cap}"));
    }
    checks.push(Check {
        handler: "NodeResourcesFit".into(),
        passed: true,
        detail: if fit_lines.is_empty() {
            format!("1 more pod fits ({} of {max_pods} pods); the pod requests no cpu or memory", others.len())
        } else {
            format!("{} ({} of {max_pods} pods)", fit_lines.join("; "), others.len() + 1)
        },
    });
    if !node_affinity_matches(pod, node) {
        let msg = "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector".to_string();
        checks.push(Check { handler: "NodeAffinity".into(), passed: false, detail: msg.clone() });
        return reject(checks, "NodeAffinity", msg);
    }
    checks.push(Check {
        handler: "NodeAffinity".into(),
        passed: true,
        detail: "nodeSelector and required node affinity match the node's labels".into(),
    });
    // Host ports.
    let ports = |p: &Pod| -> Vec<(i32, String)> {
        p.spec
            .iter()
            .flat_map(|s| s.containers.iter().chain(s.init_containers.iter().flatten()))
            .flat_map(|c| c.ports.iter().flatten())
            .filter_map(|cp| {
                cp.host_port.filter(|h| *h > 0).map(|h| (h, cp.protocol.clone().unwrap_or_else(|| "TCP".into())))
            })
            .collect()
    };
    let mine = ports(pod);
    if !mine.is_empty() && others.iter().any(|o| ports(o).iter().any(|p| mine.contains(p))) {
        let msg = "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports".to_string();
        checks.push(Check { handler: "NodePorts".into(), passed: false, detail: msg.clone() });
        return reject(checks, "NodePorts", msg);
    }
    // Taints: the kubelet only cares about NoExecute.
    let tolerations = pod.spec.as_ref().and_then(|s| s.tolerations.clone()).unwrap_or_default();
    let taints = node.spec.as_ref().and_then(|s| s.taints.clone()).unwrap_or_default();
    if let Some(t) = taints.iter().find(|t| t.effect == "NoExecute" && !tolerations.iter().any(|tol| tolerates(tol, t)))
    {
        let msg = "Predicate TaintToleration failed: node(s) had untolerated taint(s)".to_string();
        checks.push(Check {
            handler: "TaintToleration".into(),
            passed: false,
            detail: format!(
                "{msg} ({}{}:NoExecute)",
                t.key,
                t.value.as_deref().map(|v| format!("={v}")).unwrap_or_default()
            ),
        });
        return reject(checks, "TaintToleration", msg);
    }
    checks.push(Check {
        handler: "TaintToleration".into(),
        passed: true,
        detail: "no untolerated NoExecute taint".into(),
    });
    Decision { checks, rejected: None }
}

impl Kubelet {
    /// Admission, QoS class, pod cgroup and the first status.
    pub(super) fn admit(&mut self, core: &mut World, w: &mut PodWorker) {
        let Some(node) = self.node_obj(core) else {
            let obj = w.reference();
            self.work(
                core,
                Phase::Kubelet,
                Component::Kubelet,
                Component::Kubelet,
                Some(&obj),
                format!("kubelet cannot admit {}: its Node object is missing", w.key),
                "node-admission",
                vec![],
                vec![],
                "The kubelet needs its Node object (allocatable resources, labels, taints) to admit pods; it retries."
                    .into(),
                StepStatus::Warning,
            );
            self.wake(core, w, core.now + POD_WORKER_BACKOFF_MS, true);
            return;
        };
        let others_ref: Vec<&Pod> = self
            .pods
            .values()
            .filter(|o| o.admitted == Some(true) && o.terminal.is_none() && o.uid != w.uid)
            .map(|o| &*o.pod)
            .collect();
        let (qos_class, qos_why) = qos::pod_qos(&w.pod);
        let conditions = self.pressure(core);
        let decision = admission::admit(&w.pod, &node, &others_ref, &conditions, qos_class);
        let obj = w.reference();
        let rows: Vec<Vec<String>> = decision
            .checks
            .iter()
            .map(|c| vec![c.handler.clone(), if c.passed { "pass".into() } else { "reject".into() }, c.detail.clone()])
            .collect();
        let table = Table {
            title: "Admit handlers".into(),
            columns: vec!["handler".into(), "verdict".into(), "detail".into()],
            rows,
        };
        if let Some((reason, message)) = decision.rejected.clone() {
            self.work(
                core,
                Phase::Kubelet,
                Component::Kubelet,
                Component::Kubelet,
                Some(&obj),
                format!("kubelet rejects pod {}: {reason}", w.key),
                "node-admission",
                vec![("reason".into(), reason.clone()), ("message".into(), message.clone())],
                vec![table],
                "The kubelet re-checks on its own node what the scheduler checked with its cache. A pod it cannot admit is not retried: it fails for good, and a controller (if any) must create a replacement.".into(),
                StepStatus::Failed,
            );
            w.admitted = Some(false);
            w.qos = qos_class;
            w.rejected = Some((reason.clone(), message.clone()));
            w.terminal = Some("Failed".into());
            self.event(core, w, None, "Warning", &reason, message, Phase::Kubelet);
            self.update_status(core, w);
            return;
        }
        self.work(
            core,
            Phase::Kubelet,
            Component::Kubelet,
            Component::Kubelet,
            Some(&obj),
            format!("kubelet admits pod {}", w.key),
            "node-admission",
            vec![("node".into(), self.node.clone())],
            vec![table],
            "Before running a pod the kubelet checks that it fits the node (resources, node affinity, host ports, NoExecute taints, node pressure).".into(),
            StepStatus::Ok,
        );
        w.admitted = Some(true);
        w.qos = qos_class;
        w.start_ms = core.now;
        w.probe_epoch = core.now;
        // QoS class.
        let mut qrows = vec![];
        for c in &w.ctrs {
            let res = c.spec.resources.as_ref();
            let fmt = |m: std::collections::BTreeMap<String, crate::quantity::Quantity>, k: &str| {
                m.get(k).map(|q| q.to_string()).unwrap_or_else(|| "-".into())
            };
            let req = qos::effective_requests(res);
            let lim = qos::limits(res);
            qrows.push(vec![
                if c.init { format!("{} (init)", c.name) } else { c.name.clone() },
                fmt(req.clone(), "cpu"),
                fmt(lim.clone(), "cpu"),
                fmt(req, "memory"),
                fmt(lim, "memory"),
            ]);
        }
        self.work(
            core,
            Phase::Kubelet,
            Component::Kubelet,
            Component::Kubelet,
            Some(&obj),
            format!("QoS class of {}: {}", w.key, qos_class.as_str()),
            "qos",
            vec![("qosClass".into(), qos_class.as_str().into()), ("why".into(), qos_why)],
            vec![Table {
                title: "Requests and limits".into(),
                columns: ["container", "cpu request", "cpu limit", "memory request", "memory limit"].iter().map(|s| s.to_string()).collect(),
                rows: qrows,
            }],
            "Only cpu and memory count. Guaranteed: every container limits both and requests equal limits. BestEffort: nothing set anywhere. Everything else is Burstable. Under memory pressure BestEffort pods are evicted first and Guaranteed ones last.".into(),
            StepStatus::Ok,
        );
        // Pod cgroup.
        let plan = cgroups::pod_cgroup(&w.pod, qos_class, cgroups::memory_capacity(Some(&node)));
        self.work(
            core,
            Phase::Kubelet,
            Component::Kubelet,
            Component::Kubelet,
            Some(&obj),
            format!("kubelet creates cgroup {}", plan.path.rsplit('/').next().unwrap_or("")),
            "cgroups",
            vec![
                ("driver".into(), "systemd, cgroup v2".into()),
                ("path".into(), format!("{}/{}", cgroups::CGROUP_ROOT, plan.path)),
                ("cpu requests (pod)".into(), format!("{}m", plan.request_milli_cpu)),
            ],
            cgroups::tables(&plan),
            "The kubelet creates the pod's cgroup under the slice of its QoS class; containerd then puts each container in a scope inside it. cpu.weight shares CPU under contention (from requests), cpu.max is a hard CFS quota (from limits), memory.max is the OOM-kill line (from limits).".into(),
            StepStatus::Ok,
        );
        self.update_status(core, w);
        w.vol_check_at = core.now + volumes::VOLUME_RECONCILE_MS + volumes::VOLUME_MOUNT_MS;
        self.wake(core, w, w.vol_check_at, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(pod: &str, node: &str, others: usize) -> String {
        let pod: Pod = serde_yaml::from_str(pod).unwrap();
        let node: Node = serde_yaml::from_str(node).unwrap();
        let other: Pod =
            serde_yaml::from_str("spec: {containers: [{name: o, image: x, resources: {requests: {cpu: 500m}}}]}")
                .unwrap();
        let others: Vec<&Pod> = (0..others).map(|_| &other).collect();
        let d = admit(&pod, &node, &others, &[], QosClass::Burstable);
        match d.rejected {
            Some((r, m)) => format!("{r}: {m}"),
            None => "admitted".into(),
        }
    }

    #[test]
    fn admission_messages() {
        let node = "metadata: {name: w1, labels: {disk: ssd}}\nspec: {taints: [{key: maint, effect: NoExecute}]}\nstatus: {allocatable: {cpu: '2', memory: 2Gi, pods: '3'}}";
        let tol = "tolerations: [{key: maint, operator: Exists}]";
        let out = [
            decide(
                &format!("spec: {{{tol}, containers: [{{name: a, image: x, resources: {{requests: {{cpu: '2'}}}}}}]}}"),
                node,
                1,
            ),
            decide(&format!("spec: {{{tol}, containers: [{{name: a, image: x}}]}}"), node, 3),
            decide(
                &format!("spec: {{{tol}, nodeSelector: {{disk: hdd}}, containers: [{{name: a, image: x}}]}}"),
                node,
                0,
            ),
            decide("spec: {containers: [{name: a, image: x}]}", node, 0),
            decide(
                &format!(
                    "spec: {{{tol}, containers: [{{name: a, image: x, resources: {{limits: {{memory: 3Gi}}}}}}]}}"
                ),
                node,
                0,
            ),
            decide(&format!("spec: {{{tol}, containers: [{{name: a, image: x}}]}}"), node, 0),
        ];
        expect_test::expect![[r#"
            OutOfcpu: Node didn't have enough resource: cpu, requested: 2000, used: 500, capacity: 2000
            OutOfpods: Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3
            NodeAffinity: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector
            TaintToleration: Predicate TaintToleration failed: node(s) had untolerated taint(s)
            OutOfmemory: Node didn't have enough resource: memory, requested: 3221225472, used: 0, capacity: 2147483648
            admitted"#]]
        .assert_eq(&out.join("\n"));
    }
}
