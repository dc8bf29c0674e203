//! Snapshot tests: a cluster and a pod in YAML, one scheduling cycle, and the filter
//! table, the score table and the outcome rendered as text.

use expect_test::{expect, Expect};
use k8s_openapi::api::core::v1::Pod;

use super::*;
use crate::object::Object;
use crate::trace::ScheduleDetail;

fn objects(yaml: &str) -> Vec<Object> {
    let mut out = Vec::new();
    for doc in serde_yaml::Deserializer::from_str(yaml) {
        use serde::Deserialize as _;
        let v = serde_yaml::Value::deserialize(doc).expect("valid yaml");
        if v.is_null() {
            continue;
        }
        let json: serde_json::Value = serde_json::to_value(&v).expect("json");
        let api = json["apiVersion"].as_str().unwrap_or("v1").to_string();
        let kind = json["kind"].as_str().expect("kind").to_string();
        out.push(Object::from_json(&api, &kind, json).expect("object"));
    }
    out
}

pub(crate) fn snapshot(yaml: &str) -> ClusterSnapshot {
    let objs = objects(yaml);
    ClusterSnapshot::from_objects(objs.iter())
}

pub(crate) fn pod(yaml: &str) -> Pod {
    let mut p: Pod = serde_yaml::from_str(yaml).expect("pod yaml");
    p.metadata.namespace.get_or_insert_with(|| "default".into());
    p.metadata.uid.get_or_insert_with(|| "uid-incoming".into());
    p
}

fn render_detail(d: &ScheduleDetail, out: &mut String) {
    use std::fmt::Write;
    if !d.prefilter_results.is_empty() {
        let parts: Vec<String> = d
            .prefilter_results
            .iter()
            .map(|v| {
                if v.message.is_empty() {
                    format!("{} {}", v.plugin, v.code)
                } else {
                    format!("{} {}: {}", v.plugin, v.code, v.message)
                }
            })
            .collect();
        let _ = writeln!(out, "prefilter: {}", parts.join(", "));
    }
    for p in &d.prefilter {
        let _ = writeln!(out, "prefilter note: {p}");
    }
    if let Some(s) = &d.sampling {
        let _ = writeln!(
            out,
            "sampling: {} nodes, {}%{}, find {}, start {}, evaluated {}, feasible {}",
            s.nodes_total,
            s.percentage,
            if s.adaptive { " (adaptive)" } else { "" },
            s.nodes_to_find,
            s.start_index,
            s.evaluated,
            s.feasible
        );
    }
    if !d.filter.is_empty() {
        let _ = writeln!(out, "filter:");
        for row in &d.filter {
            let verdicts: Vec<String> = row
                .verdicts
                .iter()
                .map(|v| {
                    if v.passed {
                        format!("{} ok", v.plugin)
                    } else {
                        format!(
                            "{} {}{}",
                            v.plugin,
                            v.reasons.join(" + "),
                            if v.resolvable { "" } else { " [unresolvable]" }
                        )
                    }
                })
                .collect();
            let _ = write!(
                out,
                "  {} {}: {}",
                row.node,
                if row.feasible { "FITS" } else { "REJECTED" },
                verdicts.join(", ")
            );
            if !row.not_run.is_empty() {
                let _ = write!(out, " (not run: {})", row.not_run.join(", "));
            }
            out.push('\n');
        }
    }
    for v in &d.prescore_results {
        let _ = writeln!(out, "prescore: {} {}", v.plugin, v.code);
    }
    if !d.scores.is_empty() {
        let _ = writeln!(out, "scores (raw -> normalized x weight):");
        for row in &d.scores {
            let parts: Vec<String> = row
                .scores
                .iter()
                .map(|s| format!("{} {}->{}x{}", short(&s.plugin), s.raw, s.normalized, s.weight))
                .collect();
            let _ = writeln!(out, "  {} = {}: {}", row.node, row.total, parts.join(", "));
        }
    }
    if let Some(t) = &d.tie_break {
        let _ = writeln!(out, "tie-break: {t}");
    }
    for v in &d.postfilter_results {
        let _ = writeln!(
            out,
            "postfilter: {} {}{}",
            v.plugin,
            v.code,
            if v.message.is_empty() { String::new() } else { format!(": {}", v.message) }
        );
    }
    for v in &d.binding_results {
        let _ = writeln!(
            out,
            "bind: {} {}{}",
            v.plugin,
            v.code,
            if v.message.is_empty() { String::new() } else { format!(": {}", v.message) }
        );
    }
}

fn short(plugin: &str) -> &str {
    match plugin {
        "TaintToleration" => "Taint",
        "NodeAffinity" => "Affinity",
        "NodeResourcesFit" => "Fit",
        "PodTopologySpread" => "Spread",
        "InterPodAffinity" => "PodAffinity",
        "NodeResourcesBalancedAllocation" => "Balanced",
        "ImageLocality" => "Image",
        other => other,
    }
}

pub(crate) fn render(o: &ScheduleOutcome, pod: &Pod) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    render_detail(&o.detail, &mut out);
    match &o.result {
        ScheduleResult::Scheduled { node, binding, volume_actions } => {
            let _ = writeln!(
                out,
                "=> scheduled on {node} (Binding {}/{} -> {} {})",
                binding.metadata.namespace.as_deref().unwrap_or(""),
                binding.metadata.name.as_deref().unwrap_or(""),
                binding.target.kind.as_deref().unwrap_or(""),
                binding.target.name.as_deref().unwrap_or("")
            );
            for a in volume_actions {
                let _ = writeln!(out, "   volume: {a:?}");
            }
        }
        ScheduleResult::Unschedulable { nominated_node, victims, unschedulable_plugins, .. } => {
            let _ = writeln!(out, "=> unschedulable (rejected by: {})", unschedulable_plugins.join(", "));
            match nominated_node.as_deref() {
                Some("") => out.push_str("   nominated node: cleared\n"),
                Some(n) => {
                    let _ = writeln!(out, "   nominated node: {n}");
                }
                None => {}
            }
            for v in victims {
                let _ = writeln!(out, "   victim: {}/{} (priority {}) on {}", v.namespace, v.name, v.priority, v.node);
            }
        }
        ScheduleResult::Gated { gates, message } => {
            let _ = writeln!(out, "=> gated {gates:?}: {message}");
        }
        ScheduleResult::Error { message } => {
            let _ = writeln!(out, "=> error: {message}");
        }
    }
    let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
    let name = pod.metadata.name.as_deref().unwrap_or("");
    if let Some(e) = o.event(ns, name) {
        let _ = writeln!(out, "event: {} {} ({}): {}", e.event_type, e.reason, e.from, e.message);
    }
    if let Some(c) = o.pod_condition() {
        let _ = writeln!(out, "condition: PodScheduled={} reason={} message={}", c.status, c.reason, c.message);
    }
    out
}

fn check_seed(cluster: &str, pod_yaml: &str, seed: u64, expect: Expect) {
    let snap = snapshot(cluster);
    let p = pod(pod_yaml);
    let outcome = Scheduler::default_scheduler().schedule(&p, &snap, &mut crate::rng::Rng::new(seed));
    expect.assert_eq(&render(&outcome, &p));
}

fn check(cluster: &str, pod_yaml: &str, expect: Expect) {
    check_seed(cluster, pod_yaml, 1, expect)
}

/// A kind cluster: a tainted control plane and two workers, 4 CPUs and 8Gi each.
const KIND: &str = r#"
apiVersion: v1
kind: Node
metadata:
  name: kind-control-plane
  labels: {kubernetes.io/hostname: kind-control-plane, node-role.kubernetes.io/control-plane: ""}
spec:
  taints: [{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}]
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110", ephemeral-storage: 100Gi}
---
apiVersion: v1
kind: Node
metadata:
  name: kind-worker
  labels: {kubernetes.io/hostname: kind-worker, disk: ssd}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110", ephemeral-storage: 100Gi}
---
apiVersion: v1
kind: Node
metadata:
  name: kind-worker2
  labels: {kubernetes.io/hostname: kind-worker2, disk: hdd}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110", ephemeral-storage: 100Gi}
"#;

/// Each worker already runs a 3-CPU pod of priority 0.
const BUSY: &str = r#"
---
apiVersion: v1
kind: Pod
metadata: {name: busy-1, namespace: default, uid: u-busy-1}
spec:
  nodeName: kind-worker
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "3", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: busy-2, namespace: default, uid: u-busy-2}
spec:
  nodeName: kind-worker2
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "3", memory: 1Gi}}}]
"#;

fn kind_busy() -> String {
    format!("{KIND}{BUSY}")
}

#[test]
fn fits_and_scores_on_kind() {
    check(
        &format!("{KIND}{}", &BUSY[..BUSY.find("---\napiVersion: v1\nkind: Pod\nmetadata: {name: busy-2").unwrap()]),
        r#"
metadata: {name: web}
spec:
  containers: [{name: web, image: nginx, resources: {requests: {cpu: 500m, memory: 256Mi}}}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 2
            filter:
              kind-control-plane REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration node(s) had untolerated taint(s) [unresolvable] (not run: NodeResourcesFit)
              kind-worker FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
              kind-worker2 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
            prescore: NodeAffinity Skip
            prescore: VolumeBinding Skip
            prescore: PodTopologySpread Skip
            prescore: InterPodAffinity Skip
            scores (raw -> normalized x weight):
              kind-worker = 421: Taint 0->100x3, Fit 48->48x1, Balanced 73->73x1, Image 0->0x1
              kind-worker2 = 463: Taint 0->100x3, Fit 91->91x1, Balanced 72->72x1, Image 0->0x1
            bind: VolumeBinding Success
            bind: DefaultBinder Success: Binding default/web to node kind-worker2
            => scheduled on kind-worker2 (Binding default/web -> Node kind-worker2)
            event: Normal Scheduled (default-scheduler): Successfully assigned default/web to kind-worker2
        "#]],
    );
}

#[test]
fn taint_and_insufficient_cpu_without_victims() {
    // 2 CPUs do not fit next to the 3-CPU pods; those have the same priority, so
    // preemption finds no victims. The control plane's taint cannot be fixed at all.
    check(
        &kind_busy(),
        r#"
metadata: {name: big}
spec:
  containers: [{name: app, image: nginx, resources: {requests: {cpu: "2"}}}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 0
            filter:
              kind-control-plane REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration node(s) had untolerated taint(s) [unresolvable] (not run: NodeResourcesFit)
              kind-worker REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
              kind-worker2 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Unschedulable: preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
            => unschedulable (rejected by: NodeResourcesFit, TaintToleration)
               nominated node: cleared
            event: Warning FailedScheduling (default-scheduler): 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
            condition: PodScheduled=False reason=Unschedulable message=0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
        "#]],
    );
}

#[test]
fn request_larger_than_any_node() {
    check(
        KIND,
        r#"
metadata: {name: huge}
spec:
  containers: [{name: app, image: nginx, resources: {requests: {cpu: "64"}}}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 0
            filter:
              kind-control-plane REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration node(s) had untolerated taint(s) [unresolvable] (not run: NodeResourcesFit)
              kind-worker REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu [unresolvable]
              kind-worker2 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu [unresolvable]
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Unschedulable: preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
            => unschedulable (rejected by: NodeResourcesFit, TaintToleration)
               nominated node: cleared
            event: Warning FailedScheduling (default-scheduler): 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
            condition: PodScheduled=False reason=Unschedulable message=0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
        "#]],
    );
}

#[test]
fn node_selector_mismatch() {
    check(
        KIND,
        r#"
metadata: {name: gpu}
spec:
  nodeSelector: {accelerator: nvidia}
  containers: [{name: app, image: nginx}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Success, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 0
            filter:
              kind-control-plane REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration node(s) had untolerated taint(s) [unresolvable] (not run: NodeAffinity, NodeResourcesFit)
              kind-worker REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeAffinity node(s) didn't match Pod's node affinity/selector [unresolvable] (not run: NodeResourcesFit)
              kind-worker2 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeAffinity node(s) didn't match Pod's node affinity/selector [unresolvable] (not run: NodeResourcesFit)
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Unschedulable: preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
            => unschedulable (rejected by: NodeAffinity, TaintToleration)
               nominated node: cleared
            event: Warning FailedScheduling (default-scheduler): 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
            condition: PodScheduled=False reason=Unschedulable message=0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
        "#]],
    );
}

#[test]
fn too_many_pods() {
    check(
        r#"
apiVersion: v1
kind: Node
metadata: {name: tiny, labels: {kubernetes.io/hostname: tiny}}
status: {allocatable: {cpu: "2", memory: 2Gi, pods: "1"}}
---
apiVersion: v1
kind: Pod
metadata: {name: first, namespace: default, uid: u-first}
spec: {nodeName: tiny, containers: [{name: c, image: busybox}]}
"#,
        r#"
metadata: {name: second}
spec:
  containers: [{name: app, image: busybox, resources: {requests: {cpu: 100m}}}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 1 nodes, 100% (adaptive), find 1, start 0, evaluated 1, feasible 0
            filter:
              tiny REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Too many pods
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Unschedulable: preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.
            => unschedulable (rejected by: NodeResourcesFit)
               nominated node: cleared
            event: Warning FailedScheduling (default-scheduler): 0/1 nodes are available: 1 Too many pods. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.
            condition: PodScheduled=False reason=Unschedulable message=0/1 nodes are available: 1 Too many pods. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.
        "#]],
    );
}

#[test]
fn preemption_evicts_lower_priority_pods() {
    // busy-1 and busy-2 have priority 0; the pod has 1000 and needs 2 CPUs.
    check(
        &format!(
            "{}{}",
            kind_busy(),
            r#"
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
"#
        ),
        r#"
metadata: {name: urgent}
spec:
  priorityClassName: high
  priority: 1000
  containers: [{name: app, image: nginx, resources: {requests: {cpu: "2"}}}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 0
            filter:
              kind-control-plane REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration node(s) had untolerated taint(s) [unresolvable] (not run: NodeResourcesFit)
              kind-worker REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
              kind-worker2 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Success
            => unschedulable (rejected by: NodeResourcesFit, TaintToleration)
               nominated node: kind-worker2
               victim: default/busy-2 (priority 0) on kind-worker2
            event: Warning FailedScheduling (default-scheduler): 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu.
            condition: PodScheduled=False reason=Unschedulable message=0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu.
        "#]],
    );
}

#[test]
fn preemption_policy_never() {
    check(
        &kind_busy(),
        r#"
metadata: {name: polite}
spec:
  priority: 1000
  preemptionPolicy: Never
  containers: [{name: app, image: nginx, resources: {requests: {cpu: "2"}}}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 0
            filter:
              kind-control-plane REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration node(s) had untolerated taint(s) [unresolvable] (not run: NodeResourcesFit)
              kind-worker REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
              kind-worker2 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Unschedulable: preemption: not eligible due to preemptionPolicy=Never.
            => unschedulable (rejected by: NodeResourcesFit, TaintToleration)
            event: Warning FailedScheduling (default-scheduler): 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.
            condition: PodScheduled=False reason=Unschedulable message=0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.
        "#]],
    );
}

#[test]
fn preemption_keeps_the_most_important_pods() {
    // Three small pods on one node: evicting the lowest-priority one is enough.
    check(
        r#"
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "3", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: low, namespace: default, uid: u-low}
spec: {nodeName: n1, priority: 1, containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: mid, namespace: default, uid: u-mid}
spec: {nodeName: n1, priority: 5, containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: top, namespace: default, uid: u-top}
spec: {nodeName: n1, priority: 50, containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}
"#,
        r#"
metadata: {name: p}
spec:
  priority: 10
  containers: [{name: app, image: x, resources: {requests: {cpu: "1"}}}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 1 nodes, 100% (adaptive), find 1, start 0, evaluated 1, feasible 0
            filter:
              n1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Success
            => unschedulable (rejected by: NodeResourcesFit)
               nominated node: n1
               victim: default/low (priority 1) on n1
            event: Warning FailedScheduling (default-scheduler): 0/1 nodes are available: 1 Insufficient cpu.
            condition: PodScheduled=False reason=Unschedulable message=0/1 nodes are available: 1 Insufficient cpu.
        "#]],
    );
}

/// Two pods on a full node: the one a PodDisruptionBudget protects (no disruption allowed)
/// is added back first and kept, though it is the less important; the other is the victim.
/// Without the budget (the `mid` pod unprotected), the least important pod goes.
#[test]
fn preemption_spares_the_pods_a_disruption_budget_protects() {
    let cluster = |budget: &str| {
        format!(
            r#"
apiVersion: v1
kind: Node
metadata: {{name: n1, labels: {{kubernetes.io/hostname: n1}}}}
status: {{allocatable: {{cpu: "2", memory: 4Gi, pods: "10"}}}}
---
apiVersion: v1
kind: Pod
metadata: {{name: db, namespace: default, uid: u-db, labels: {{app: db}}}}
spec: {{nodeName: n1, priority: 1, containers: [{{name: c, image: x, resources: {{requests: {{cpu: "1"}}}}}}]}}
---
apiVersion: v1
kind: Pod
metadata: {{name: mid, namespace: default, uid: u-mid, labels: {{app: cache}}}}
spec: {{nodeName: n1, priority: 5, containers: [{{name: c, image: x, resources: {{requests: {{cpu: "1"}}}}}}]}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: db, namespace: default}}
spec: {{minAvailable: 1, selector: {{matchLabels: {{app: db}}}}}}
status: {budget}
"#
        )
    };
    let pod = r#"
metadata: {name: p}
spec:
  priority: 10
  containers: [{name: app, image: x, resources: {requests: {cpu: "1"}}}]
"#;
    let protected = cluster("{disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1}");
    check(
        &protected,
        pod,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 1 nodes, 100% (adaptive), find 1, start 0, evaluated 1, feasible 0
            filter:
              n1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Success
            => unschedulable (rejected by: NodeResourcesFit)
               nominated node: n1
               victim: default/mid (priority 5) on n1
            event: Warning FailedScheduling (default-scheduler): 0/1 nodes are available: 1 Insufficient cpu.
            condition: PodScheduled=False reason=Unschedulable message=0/1 nodes are available: 1 Insufficient cpu.
        "#]],
    );
    // One disruption allowed: evicting db violates nothing, so the least important goes.
    let allowed = cluster("{disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 0, expectedPods: 1}");
    check(
        &allowed,
        pod,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 1 nodes, 100% (adaptive), find 1, start 0, evaluated 1, feasible 0
            filter:
              n1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Success
            => unschedulable (rejected by: NodeResourcesFit)
               nominated node: n1
               victim: default/db (priority 1) on n1
            event: Warning FailedScheduling (default-scheduler): 0/1 nodes are available: 1 Insufficient cpu.
            condition: PodScheduled=False reason=Unschedulable message=0/1 nodes are available: 1 Insufficient cpu.
        "#]],
    );
    // A pod already in the budget's disruptedPods is not counted against it.
    let disrupted = cluster(
        "{disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1, disruptedPods: {db: \"2026-01-01T00:00:00Z\"}}",
    );
    check(
        &disrupted,
        pod,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 1 nodes, 100% (adaptive), find 1, start 0, evaluated 1, feasible 0
            filter:
              n1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Success
            => unschedulable (rejected by: NodeResourcesFit)
               nominated node: n1
               victim: default/db (priority 1) on n1
            event: Warning FailedScheduling (default-scheduler): 0/1 nodes are available: 1 Insufficient cpu.
            condition: PodScheduled=False reason=Unschedulable message=0/1 nodes are available: 1 Insufficient cpu.
        "#]],
    );
}

/// Two nodes each with one pod to preempt: the node whose victim a budget protects is
/// not chosen (criterion 1, fewest PDB violations), whichever node would win otherwise.
#[test]
fn preemption_prefers_the_node_without_budget_violations() {
    let cluster = |protected: &str| {
        format!(
            r#"
apiVersion: v1
kind: Node
metadata: {{name: n1, labels: {{kubernetes.io/hostname: n1}}}}
status: {{allocatable: {{cpu: "1", memory: 4Gi, pods: "10"}}}}
---
apiVersion: v1
kind: Node
metadata: {{name: n2, labels: {{kubernetes.io/hostname: n2}}}}
status: {{allocatable: {{cpu: "1", memory: 4Gi, pods: "10"}}}}
---
apiVersion: v1
kind: Pod
metadata: {{name: a, namespace: default, uid: u-a, labels: {{app: a}}}}
spec: {{nodeName: n1, priority: 1, containers: [{{name: c, image: x, resources: {{requests: {{cpu: "1"}}}}}}]}}
---
apiVersion: v1
kind: Pod
metadata: {{name: b, namespace: default, uid: u-b, labels: {{app: b}}}}
spec: {{nodeName: n2, priority: 1, containers: [{{name: c, image: x, resources: {{requests: {{cpu: "1"}}}}}}]}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: keep, namespace: default}}
spec: {{minAvailable: 1, selector: {{matchLabels: {{app: {protected}}}}}}}
status: {{disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1}}
"#
        )
    };
    let pod = r#"
metadata: {name: p}
spec:
  priority: 10
  containers: [{name: app, image: x, resources: {requests: {cpu: "1"}}}]
"#;
    check(
        &cluster("a"),
        pod,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 2 nodes, 100% (adaptive), find 2, start 0, evaluated 2, feasible 0
            filter:
              n1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
              n2 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Success
            => unschedulable (rejected by: NodeResourcesFit)
               nominated node: n2
               victim: default/b (priority 1) on n2
            event: Warning FailedScheduling (default-scheduler): 0/2 nodes are available: 2 Insufficient cpu.
            condition: PodScheduled=False reason=Unschedulable message=0/2 nodes are available: 2 Insufficient cpu.
        "#]],
    );
    check(
        &cluster("b"),
        pod,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 2 nodes, 100% (adaptive), find 2, start 0, evaluated 2, feasible 0
            filter:
              n1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
              n2 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Success
            => unschedulable (rejected by: NodeResourcesFit)
               nominated node: n1
               victim: default/a (priority 1) on n1
            event: Warning FailedScheduling (default-scheduler): 0/2 nodes are available: 2 Insufficient cpu.
            condition: PodScheduled=False reason=Unschedulable message=0/2 nodes are available: 2 Insufficient cpu.
        "#]],
    );
}

#[test]
fn node_affinity_operators_and_preferences() {
    let cluster = r#"
apiVersion: v1
kind: Node
metadata: {name: a, labels: {kubernetes.io/hostname: a, cores: "8", zone: z1, gpu: "yes"}}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: b, labels: {kubernetes.io/hostname: b, cores: "16", zone: z2}}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: c, labels: {kubernetes.io/hostname: c, cores: "2", zone: z3}}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "10"}}
"#;
    check(
        cluster,
        r#"
metadata: {name: picky}
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: cores, operator: Gt, values: ["4"]}
          - {key: zone, operator: NotIn, values: [z3]}
          - {key: zone, operator: Exists}
          - {key: tainted, operator: DoesNotExist}
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 10
        preference: {matchExpressions: [{key: gpu, operator: In, values: ["yes"]}]}
      - weight: 30
        preference: {matchExpressions: [{key: cores, operator: Lt, values: ["10"]}]}
  containers: [{name: app, image: x}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Success, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 2
            filter:
              a FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeAffinity ok, NodeResourcesFit ok
              b FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeAffinity ok, NodeResourcesFit ok
              c REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeAffinity node(s) didn't match Pod's node affinity/selector [unresolvable] (not run: NodeResourcesFit)
            prescore: VolumeBinding Skip
            prescore: PodTopologySpread Skip
            prescore: InterPodAffinity Skip
            prescore: NodeResourcesBalancedAllocation Skip
            scores (raw -> normalized x weight):
              a = 597: Taint 0->100x3, Affinity 40->100x2, Fit 97->97x1, Image 0->0x1
              b = 397: Taint 0->100x3, Affinity 0->0x2, Fit 97->97x1, Image 0->0x1
            bind: VolumeBinding Success
            bind: DefaultBinder Success: Binding default/picky to node a
            => scheduled on a (Binding default/picky -> Node a)
            event: Normal Scheduled (default-scheduler): Successfully assigned default/picky to a
        "#]],
    );
    // matchFields on metadata.name narrows the search in PreFilter.
    check(
        cluster,
        r#"
metadata: {name: pinned}
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchFields: [{key: metadata.name, operator: In, values: [c]}]
          matchExpressions: [{key: cores, operator: Gt, values: ["4"]}]
  containers: [{name: app, image: x}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Success, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            prefilter note: NodeAffinity: only c can fit
            sampling: 1 nodes, 100% (adaptive), find 1, start 0, evaluated 1, feasible 0
            filter:
              a REJECTED: NodeAffinity node(s) didn't satisfy plugin(s) [NodeAffinity] [unresolvable]
              b REJECTED: NodeAffinity node(s) didn't satisfy plugin(s) [NodeAffinity] [unresolvable]
              c REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeAffinity node(s) didn't match Pod's node affinity/selector [unresolvable] (not run: NodeResourcesFit)
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Unschedulable: preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
            => unschedulable (rejected by: NodeAffinity)
               nominated node: cleared
            event: Warning FailedScheduling (default-scheduler): 0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
            condition: PodScheduled=False reason=Unschedulable message=0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
        "#]],
    );
}

#[test]
fn tolerations_and_prefer_no_schedule() {
    check(
        &format!(
            "{KIND}{}",
            r#"
---
apiVersion: v1
kind: Node
metadata:
  name: kind-worker3
  labels: {kubernetes.io/hostname: kind-worker3}
spec:
  taints: [{key: spot, value: "true", effect: PreferNoSchedule}]
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
"#
        ),
        r#"
metadata: {name: tolerant}
spec:
  tolerations: [{key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}]
  containers: [{name: app, image: x, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 4 nodes, 100% (adaptive), find 4, start 0, evaluated 4, feasible 4
            filter:
              kind-control-plane FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
              kind-worker FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
              kind-worker2 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
              kind-worker3 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
            prescore: NodeAffinity Skip
            prescore: VolumeBinding Skip
            prescore: PodTopologySpread Skip
            prescore: InterPodAffinity Skip
            scores (raw -> normalized x weight):
              kind-control-plane = 471: Taint 0->100x3, Fit 97->97x1, Balanced 74->74x1, Image 0->0x1
              kind-worker = 471: Taint 0->100x3, Fit 97->97x1, Balanced 74->74x1, Image 0->0x1
              kind-worker2 = 471: Taint 0->100x3, Fit 97->97x1, Balanced 74->74x1, Image 0->0x1
              kind-worker3 = 171: Taint 1->0x3, Fit 97->97x1, Balanced 74->74x1, Image 0->0x1
            tie-break: 3 nodes share the top score 471; kind-control-plane was picked at random
            bind: VolumeBinding Success
            bind: DefaultBinder Success: Binding default/tolerant to node kind-control-plane
            => scheduled on kind-control-plane (Binding default/tolerant -> Node kind-control-plane)
            event: Normal Scheduled (default-scheduler): Successfully assigned default/tolerant to kind-control-plane
        "#]],
    );
}

#[test]
fn host_ports_cordon_and_node_name() {
    let cluster = r#"
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "2", memory: 2Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}
spec: {unschedulable: true, taints: [{key: node.kubernetes.io/unschedulable, effect: NoSchedule}]}
status: {allocatable: {cpu: "2", memory: 2Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: proxy, namespace: default, uid: u-proxy}
spec:
  nodeName: n1
  containers: [{name: c, image: envoy, ports: [{containerPort: 8080, hostPort: 8080}]}]
"#;
    check(
        cluster,
        r#"
metadata: {name: another-proxy}
spec:
  containers: [{name: c, image: envoy, ports: [{containerPort: 8080, hostPort: 8080, protocol: TCP}]}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Success, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 2 nodes, 100% (adaptive), find 2, start 0, evaluated 2, feasible 0
            filter:
              n1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodePorts node(s) didn't have free ports for the requested pod ports (not run: NodeResourcesFit)
              n2 REJECTED: NodeUnschedulable node(s) were unschedulable [unresolvable] (not run: NodeName, TaintToleration, NodePorts, NodeResourcesFit)
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Unschedulable: preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.
            => unschedulable (rejected by: NodePorts, NodeUnschedulable)
               nominated node: cleared
            event: Warning FailedScheduling (default-scheduler): 0/2 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.
            condition: PodScheduled=False reason=Unschedulable message=0/2 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.
        "#]],
    );
    check(
        cluster,
        r#"
metadata: {name: named}
spec:
  nodeName: n9
  containers: [{name: c, image: envoy}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 2 nodes, 100% (adaptive), find 2, start 0, evaluated 2, feasible 0
            filter:
              n1 REJECTED: NodeUnschedulable ok, NodeName node(s) didn't match the requested node name [unresolvable] (not run: TaintToleration, NodeResourcesFit)
              n2 REJECTED: NodeUnschedulable node(s) were unschedulable [unresolvable] (not run: NodeName, TaintToleration, NodeResourcesFit)
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Unschedulable: preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.
            => unschedulable (rejected by: NodeName, NodeUnschedulable)
               nominated node: cleared
            event: Warning FailedScheduling (default-scheduler): 0/2 nodes are available: 1 node(s) didn't match the requested node name, 1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.
            condition: PodScheduled=False reason=Unschedulable message=0/2 nodes are available: 1 node(s) didn't match the requested node name, 1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.
        "#]],
    );
}

#[test]
fn topology_spread_constraints() {
    let cluster = r#"
apiVersion: v1
kind: Node
metadata: {name: a1, labels: {kubernetes.io/hostname: a1, topology.kubernetes.io/zone: a}}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: b1, labels: {kubernetes.io/hostname: b1, topology.kubernetes.io/zone: b}}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: nolabel, labels: {kubernetes.io/hostname: nolabel}}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: default, uid: u1, labels: {app: web}}
spec: {nodeName: a1, containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web-2, namespace: default, uid: u2, labels: {app: web}}
spec: {nodeName: a1, containers: [{name: c, image: x}]}
"#;
    check(
        cluster,
        r#"
metadata: {name: web-3, labels: {app: web}}
spec:
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {matchLabels: {app: web}}
  containers: [{name: c, image: x}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Success, InterPodAffinity Skip, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 1
            filter:
              a1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, PodTopologySpread node(s) didn't match pod topology spread constraints
              b1 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, PodTopologySpread ok
              nolabel REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, PodTopologySpread node(s) didn't match pod topology spread constraints (missing required label) [unresolvable]
            tie-break: only one feasible node: scoring skipped
            bind: VolumeBinding Success
            bind: DefaultBinder Success: Binding default/web-3 to node b1
            => scheduled on b1 (Binding default/web-3 -> Node b1)
            event: Normal Scheduled (default-scheduler): Successfully assigned default/web-3 to b1
        "#]],
    );
}

#[test]
fn default_spreading_for_replica_set_pods() {
    check(
        r#"
apiVersion: v1
kind: Node
metadata: {name: a1, labels: {kubernetes.io/hostname: a1, topology.kubernetes.io/zone: a}}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: b1, labels: {kubernetes.io/hostname: b1, topology.kubernetes.io/zone: b}}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web-5d8f, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: x}]}}
---
apiVersion: v1
kind: Pod
metadata: {name: web-5d8f-aaaaa, namespace: default, uid: u1, labels: {app: web}}
spec: {nodeName: a1, containers: [{name: c, image: x}]}
"#,
        r#"
metadata:
  name: web-5d8f-bbbbb
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d8f, uid: rs-uid, controller: true}]
spec:
  containers: [{name: c, image: x}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 2 nodes, 100% (adaptive), find 2, start 0, evaluated 2, feasible 2
            filter:
              a1 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
              b1 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
            prescore: NodeAffinity Skip
            prescore: VolumeBinding Skip
            prescore: InterPodAffinity Skip
            prescore: NodeResourcesBalancedAllocation Skip
            scores (raw -> normalized x weight):
              a1 = 524: Taint 0->100x3, Fit 92->92x1, Spread 9->66x2, Image 0->0x1
              b1 = 596: Taint 0->100x3, Fit 96->96x1, Spread 6->100x2, Image 0->0x1
            bind: VolumeBinding Success
            bind: DefaultBinder Success: Binding default/web-5d8f-bbbbb to node b1
            => scheduled on b1 (Binding default/web-5d8f-bbbbb -> Node b1)
            event: Normal Scheduled (default-scheduler): Successfully assigned default/web-5d8f-bbbbb to b1
        "#]],
    );
}

#[test]
fn inter_pod_affinity_rules() {
    let cluster = r#"
apiVersion: v1
kind: Node
metadata: {name: a1, labels: {kubernetes.io/hostname: a1, topology.kubernetes.io/zone: a}}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: a2, labels: {kubernetes.io/hostname: a2, topology.kubernetes.io/zone: a}}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: b1, labels: {kubernetes.io/hostname: b1, topology.kubernetes.io/zone: b}}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: cache, namespace: default, uid: u-cache, labels: {app: cache}}
spec:
  nodeName: a1
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: batch}}, topologyKey: kubernetes.io/hostname}
  containers: [{name: c, image: redis}]
"#;
    // Wants to be in the cache's zone, but not on a node that already runs a cache.
    check(
        cluster,
        r#"
metadata: {name: web, labels: {app: web}}
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: cache}}, topologyKey: topology.kubernetes.io/zone}
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: cache}}, topologyKey: kubernetes.io/hostname}
  containers: [{name: c, image: nginx}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Success, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 1
            filter:
              a1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, InterPodAffinity node(s) didn't match pod anti-affinity rules
              b1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, InterPodAffinity node(s) didn't match pod affinity rules [unresolvable]
              a2 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, InterPodAffinity ok
            tie-break: only one feasible node: scoring skipped
            bind: VolumeBinding Success
            bind: DefaultBinder Success: Binding default/web to node a2
            => scheduled on a2 (Binding default/web -> Node a2)
            event: Normal Scheduled (default-scheduler): Successfully assigned default/web to a2
        "#]],
    );
    // The running cache refuses batch pods on its node; affinity to a missing app fails.
    check(
        cluster,
        r#"
metadata: {name: job, labels: {app: batch}}
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: db}}, topologyKey: topology.kubernetes.io/zone}
  containers: [{name: c, image: busybox}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Success, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 0
            filter:
              a1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, InterPodAffinity node(s) didn't match pod affinity rules [unresolvable]
              b1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, InterPodAffinity node(s) didn't match pod affinity rules [unresolvable]
              a2 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, InterPodAffinity node(s) didn't match pod affinity rules [unresolvable]
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Unschedulable: preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
            => unschedulable (rejected by: InterPodAffinity)
               nominated node: cleared
            event: Warning FailedScheduling (default-scheduler): 0/3 nodes are available: 3 node(s) didn't match pod affinity rules. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
            condition: PodScheduled=False reason=Unschedulable message=0/3 nodes are available: 3 node(s) didn't match pod affinity rules. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
        "#]],
    );
    check(
        cluster,
        r#"
metadata: {name: job2, labels: {app: batch}}
spec:
  affinity:
    podAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 50
        podAffinityTerm: {labelSelector: {matchLabels: {app: cache}}, topologyKey: topology.kubernetes.io/zone}
  containers: [{name: c, image: busybox}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Success, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 2
            filter:
              a1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, InterPodAffinity node(s) didn't satisfy existing pods anti-affinity rules
              b1 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, InterPodAffinity ok
              a2 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, InterPodAffinity ok
            prescore: NodeAffinity Skip
            prescore: VolumeBinding Skip
            prescore: PodTopologySpread Skip
            prescore: NodeResourcesBalancedAllocation Skip
            scores (raw -> normalized x weight):
              b1 = 396: Taint 0->100x3, Fit 96->96x1, PodAffinity 0->0x2, Image 0->0x1
              a2 = 596: Taint 0->100x3, Fit 96->96x1, PodAffinity 50->100x2, Image 0->0x1
            bind: VolumeBinding Success
            bind: DefaultBinder Success: Binding default/job2 to node a2
            => scheduled on a2 (Binding default/job2 -> Node a2)
            event: Normal Scheduled (default-scheduler): Successfully assigned default/job2 to a2
        "#]],
    );
}

#[test]
fn image_locality() {
    check(
        r#"
apiVersion: v1
kind: Node
metadata: {name: warm, labels: {kubernetes.io/hostname: warm}}
status:
  allocatable: {cpu: "4", memory: 4Gi, pods: "10"}
  images:
  - {names: ["docker.io/library/postgres:16", "postgres:16"], sizeBytes: 450000000}
---
apiVersion: v1
kind: Node
metadata: {name: cold, labels: {kubernetes.io/hostname: cold}}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
"#,
        r#"
metadata: {name: db}
spec:
  containers: [{name: db, image: "postgres:16", resources: {requests: {cpu: 500m, memory: 512Mi}}}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 2 nodes, 100% (adaptive), find 2, start 0, evaluated 2, feasible 2
            filter:
              warm FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
              cold FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
            prescore: NodeAffinity Skip
            prescore: VolumeBinding Skip
            prescore: PodTopologySpread Skip
            prescore: InterPodAffinity Skip
            scores (raw -> normalized x weight):
              warm = 481: Taint 0->100x3, Fit 87->87x1, Balanced 75->75x1, Image 19->19x1
              cold = 462: Taint 0->100x3, Fit 87->87x1, Balanced 75->75x1, Image 0->0x1
            bind: VolumeBinding Success
            bind: DefaultBinder Success: Binding default/db to node warm
            => scheduled on warm (Binding default/db -> Node warm)
            event: Normal Scheduled (default-scheduler): Successfully assigned default/db to warm
        "#]],
    );
}

const STORAGE: &str = r#"
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1, topology.kubernetes.io/zone: a}}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2, topology.kubernetes.io/zone: b}}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: standard}
provisioner: rancher.io/local-path
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: ebs.csi.aws.com
volumeBindingMode: Immediate
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: default}
spec: {storageClassName: standard, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: pending-fast, namespace: default}
spec: {storageClassName: fast, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
status: {phase: Pending}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: bound, namespace: default, annotations: {pv.kubernetes.io/bind-completed: "yes"}}
spec: {storageClassName: standard, volumeName: pv-local-n1, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-local-n1}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: standard
  claimRef: {namespace: default, name: bound}
  local: {path: /mnt/disk}
  nodeAffinity:
    required:
      nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n1]}]}]
status: {phase: Bound}
"#;

fn pod_with_claim(claim: &str) -> String {
    format!(
        r#"
metadata: {{name: db}}
spec:
  containers: [{{name: db, image: postgres}}]
  volumes: [{{name: data, persistentVolumeClaim: {{claimName: {claim}}}}}]
"#
    )
}

#[test]
fn volume_binding_cases() {
    check(
        STORAGE,
        &pod_with_claim("missing"),
        expect![[r#"
        prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding UnschedulableAndUnresolvable: persistentvolumeclaim "missing" not found
        prefilter note: persistentvolumeclaim "missing" not found
        postfilter: DynamicResources Error: not found
        => unschedulable (rejected by: VolumeBinding)
        event: Warning FailedScheduling (default-scheduler): 0/2 nodes are available: persistentvolumeclaim "missing" not found. not found
        condition: PodScheduled=False reason=Unschedulable message=0/2 nodes are available: persistentvolumeclaim "missing" not found. not found
    "#]],
    );
    check(
        STORAGE,
        &pod_with_claim("pending-fast"),
        expect![[r#"
        prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding UnschedulableAndUnresolvable: pod has unbound immediate PersistentVolumeClaims
        prefilter note: pod has unbound immediate PersistentVolumeClaims
        postfilter: DynamicResources Error: not found
        => unschedulable (rejected by: VolumeBinding)
        event: Warning FailedScheduling (default-scheduler): 0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found
        condition: PodScheduled=False reason=Unschedulable message=0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found
    "#]],
    );
    check(
        STORAGE,
        &pod_with_claim("data"),
        expect![[r#"
        prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Success, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
        sampling: 2 nodes, 100% (adaptive), find 2, start 0, evaluated 2, feasible 2
        filter:
          n1 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, VolumeBinding ok
          n2 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, VolumeBinding ok
        prescore: NodeAffinity Skip
        prescore: VolumeBinding Skip
        prescore: PodTopologySpread Skip
        prescore: InterPodAffinity Skip
        prescore: NodeResourcesBalancedAllocation Skip
        scores (raw -> normalized x weight):
          n1 = 396: Taint 0->100x3, Fit 96->96x1, Image 0->0x1
          n2 = 396: Taint 0->100x3, Fit 96->96x1, Image 0->0x1
        tie-break: 2 nodes share the top score 396; n1 was picked at random
        bind: VolumeBinding Success
        bind: DefaultBinder Success: Binding default/db to node n1
        => scheduled on n1 (Binding default/db -> Node n1)
           volume: Provision { namespace: "default", claim: "data", node: "n1" }
        event: Normal Scheduled (default-scheduler): Successfully assigned default/db to n1
    "#]],
    );
    check(
        STORAGE,
        &pod_with_claim("bound"),
        expect![[r#"
        prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Success, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
        sampling: 2 nodes, 100% (adaptive), find 2, start 0, evaluated 2, feasible 1
        filter:
          n1 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, VolumeBinding ok
          n2 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok, VolumeBinding node(s) had volume node affinity conflict [unresolvable]
        tie-break: only one feasible node: scoring skipped
        bind: VolumeBinding Success
        bind: DefaultBinder Success: Binding default/db to node n1
        => scheduled on n1 (Binding default/db -> Node n1)
        event: Normal Scheduled (default-scheduler): Successfully assigned default/db to n1
    "#]],
    );
}

#[test]
fn scheduling_gates() {
    check(
        KIND,
        r#"
metadata: {name: gated}
spec:
  schedulingGates: [{name: example.com/quota}, {name: example.com/approval}]
  containers: [{name: c, image: x}]
"#,
        expect![[r#"
            prefilter note: SchedulingGates: waiting for scheduling gates: [example.com/quota example.com/approval]
            => gated ["example.com/quota", "example.com/approval"]: waiting for scheduling gates: [example.com/quota example.com/approval]
            condition: PodScheduled=False reason=SchedulingGated message=Scheduling is blocked due to non-empty scheduling gates
        "#]],
    );
}

#[test]
fn init_containers_sidecars_and_overhead_count() {
    // Needs max(1 + 0.5 sidecar, 3 init + 0.5 sidecar) + 0.25 overhead = 3.75 CPUs.
    check(
        &kind_busy(),
        r#"
metadata: {name: layered}
spec:
  overhead: {cpu: 250m}
  initContainers:
  - {name: log-shipper, image: x, restartPolicy: Always, resources: {requests: {cpu: 500m}}}
  - {name: migrate, image: x, resources: {requests: {cpu: "3"}}}
  containers: [{name: app, image: x, resources: {requests: {cpu: "1"}}}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 0
            filter:
              kind-control-plane REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration node(s) had untolerated taint(s) [unresolvable] (not run: NodeResourcesFit)
              kind-worker REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
              kind-worker2 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Unschedulable: preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
            => unschedulable (rejected by: NodeResourcesFit, TaintToleration)
               nominated node: cleared
            event: Warning FailedScheduling (default-scheduler): 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
            condition: PodScheduled=False reason=Unschedulable message=0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
        "#]],
    );
}

#[test]
fn no_nodes() {
    check(
        "",
        "metadata: {name: lonely}\nspec: {containers: [{name: c, image: x}]}\n",
        expect![[r#"
        => unschedulable (rejected by: )
           nominated node: cleared
        event: Warning FailedScheduling (default-scheduler): no nodes available to schedule pods
        condition: PodScheduled=False reason=Unschedulable message=no nodes available to schedule pods
    "#]],
    );
}

#[test]
fn ties_are_broken_by_the_seeded_generator() {
    let cluster = r#"
apiVersion: v1
kind: Node
metadata: {name: w1, labels: {kubernetes.io/hostname: w1}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: w2, labels: {kubernetes.io/hostname: w2}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: w3, labels: {kubernetes.io/hostname: w3}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"#;
    let snap = snapshot(cluster);
    let p = pod("metadata: {name: p}\nspec: {containers: [{name: c, image: x}]}\n");
    let mut picks = String::new();
    for seed in 0..12 {
        let o = Scheduler::default_scheduler().schedule(&p, &snap, &mut crate::rng::Rng::new(seed));
        let again = Scheduler::default_scheduler().schedule(&p, &snap, &mut crate::rng::Rng::new(seed));
        assert_eq!(o, again, "same seed, same outcome");
        picks.push_str(&format!("seed {seed}: {}\n", o.detail.chosen.clone().unwrap_or_default()));
    }
    expect![[r#"
        seed 0: w1
        seed 1: w1
        seed 2: w1
        seed 3: w2
        seed 4: w2
        seed 5: w2
        seed 6: w1
        seed 7: w3
        seed 8: w1
        seed 9: w1
        seed 10: w2
        seed 11: w3
    "#]]
    .assert_eq(&picks);
    check_seed(
        cluster,
        "metadata: {name: p}\nspec: {containers: [{name: c, image: x}]}\n",
        3,
        expect![[r#"
        prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
        sampling: 3 nodes, 100% (adaptive), find 3, start 0, evaluated 3, feasible 3
        filter:
          w1 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
          w2 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
          w3 FITS: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit ok
        prescore: NodeAffinity Skip
        prescore: VolumeBinding Skip
        prescore: PodTopologySpread Skip
        prescore: InterPodAffinity Skip
        prescore: NodeResourcesBalancedAllocation Skip
        scores (raw -> normalized x weight):
          w1 = 397: Taint 0->100x3, Fit 97->97x1, Image 0->0x1
          w2 = 397: Taint 0->100x3, Fit 97->97x1, Image 0->0x1
          w3 = 397: Taint 0->100x3, Fit 97->97x1, Image 0->0x1
        tie-break: 3 nodes share the top score 397; w2 was picked at random
        bind: VolumeBinding Success
        bind: DefaultBinder Success: Binding default/p to node w2
        => scheduled on w2 (Binding default/p -> Node w2)
        event: Normal Scheduled (default-scheduler): Successfully assigned default/p to w2
    "#]],
    );
}

#[test]
fn large_clusters_search_a_share_of_the_nodes() {
    let mut yaml = String::new();
    for i in 0..500 {
        let zone = ["a", "b", "c"][i % 3];
        yaml.push_str(&format!(
            "---\napiVersion: v1\nkind: Node\nmetadata: {{name: node-{i:03}, labels: {{kubernetes.io/hostname: node-{i:03}, topology.kubernetes.io/zone: {zone}}}}}\nstatus: {{allocatable: {{cpu: \"4\", memory: 8Gi, pods: \"110\"}}}}\n"
        ));
    }
    let snap = snapshot(&yaml);
    let p = pod("metadata: {name: p}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]}\n");
    let mut s = Scheduler::new(
        &Profile::default_profile(),
        SchedulerOptions { detail: DetailLevel::Summary, ..Default::default() },
    )
    .unwrap();
    let mut out = String::new();
    for _ in 0..3 {
        let o = s.schedule(&p, &snap, &mut crate::rng::Rng::new(7));
        let sm = o.detail.sampling.clone().unwrap();
        out.push_str(&format!(
            "{}% of {} -> find {}, start {}, evaluated {}, chose {}\n",
            sm.percentage,
            sm.nodes_total,
            sm.nodes_to_find,
            sm.start_index,
            sm.evaluated,
            o.detail.chosen.unwrap()
        ));
    }
    expect![[r#"
        46% of 500 -> find 230, start 0, evaluated 230, chose node-002
        46% of 500 -> find 230, start 230, evaluated 230, chose node-232
        46% of 500 -> find 230, start 460, evaluated 230, chose node-462
    "#]]
    .assert_eq(&out);
    assert_eq!(num_feasible_nodes_to_find(0, 50), (50, 100));
    assert_eq!(num_feasible_nodes_to_find(0, 5000), (500, 10));
    assert_eq!(num_feasible_nodes_to_find(0, 6000), (300, 5));
    assert_eq!(num_feasible_nodes_to_find(100, 5000), (5000, 100));
    assert_eq!(num_feasible_nodes_to_find(1, 5000), (100, 1));
}

#[test]
fn failed_scheduling_reasons_sort_as_strings() {
    use super::framework::{NodeToStatus, Status};
    let mut st = NodeToStatus::default();
    for i in 0..10 {
        st.explicit.push((i, Status::unschedulable("Insufficient memory")));
    }
    st.explicit.push((10, Status::unschedulable("Insufficient cpu")));
    st.explicit.push((11, Status::unschedulable("Insufficient cpu")));
    let msg = fit_error_message(12, "", &st, "preemption: x");
    expect!["0/12 nodes are available: 10 Insufficient memory, 2 Insufficient cpu. preemption: x"].assert_eq(&msg);
}

/// Properties over random clusters and pod sequences.
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn node_yaml(i: usize, cpu_m: u32, mem_mi: u32, pods: u32, tainted: bool) -> String {
        let taint = if tainted { "spec: {taints: [{key: dedicated, value: db, effect: NoSchedule}]}\n" } else { "" };
        format!(
            "---\napiVersion: v1\nkind: Node\nmetadata: {{name: n{i}, labels: {{kubernetes.io/hostname: n{i}, topology.kubernetes.io/zone: z{}}}}}\n{taint}status: {{allocatable: {{cpu: {cpu_m}m, memory: {mem_mi}Mi, pods: \"{pods}\"}}}}\n",
            i % 2
        )
    }

    fn pod_yaml(i: usize, cpu_m: u32, mem_mi: u32, priority: i32, tolerate: bool) -> String {
        let tol = if tolerate { "  tolerations: [{key: dedicated, operator: Exists}]\n" } else { "" };
        format!(
            "metadata: {{name: p{i}, uid: uid-{i}, labels: {{app: a{}}}}}\nspec:\n  priority: {priority}\n{tol}  containers: [{{name: c, image: x, resources: {{requests: {{cpu: {cpu_m}m, memory: {mem_mi}Mi}}}}}}]\n",
            i % 3
        )
    }

    type Cluster = Vec<(u32, u32, u32, bool)>;
    type Pods = Vec<(u32, u32, i32, bool)>;

    fn cluster_strategy() -> impl Strategy<Value = Cluster> {
        prop::collection::vec((500u32..4000, 256u32..4096, 1u32..6, any::<bool>()), 1..6)
    }

    fn pods_strategy() -> impl Strategy<Value = Pods> {
        prop::collection::vec((0u32..2500, 0u32..2048, 0i32..3, any::<bool>()), 1..25)
    }

    /// Schedules the pods one after the other, binding each scheduled pod and deleting
    /// preemption victims, and returns the trace of decisions.
    fn run(cluster: &Cluster, pods: &Pods, seed: u64) -> (ClusterSnapshot, Vec<ScheduleOutcome>) {
        let yaml: String = cluster.iter().enumerate().map(|(i, (c, m, p, t))| node_yaml(i, *c, *m, *p, *t)).collect();
        let mut snap = snapshot(&yaml);
        let mut sched = Scheduler::default_scheduler();
        let mut rng = crate::rng::Rng::new(seed);
        let mut outcomes = Vec::new();
        for (i, (c, m, prio, tol)) in pods.iter().enumerate() {
            let p = pod(&pod_yaml(i, *c, *m, *prio, *tol));
            let o = sched.schedule(&p, &snap, &mut rng);
            match &o.result {
                ScheduleResult::Scheduled { node, .. } => snap.assume(&p, node),
                ScheduleResult::Unschedulable { victims, .. } => {
                    for v in victims {
                        snap.remove_pod(&v.namespace, &v.name);
                    }
                }
                _ => {}
            }
            outcomes.push(o);
        }
        (snap, outcomes)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn requests_never_exceed_allocatable(cluster in cluster_strategy(), pods in pods_strategy(), seed in any::<u64>()) {
            let (snap, _) = run(&cluster, &pods, seed);
            for n in snap.nodes() {
                prop_assert!(n.requested.milli_cpu <= n.allocatable.milli_cpu, "cpu on {}", n.name);
                prop_assert!(n.requested.memory <= n.allocatable.memory, "memory on {}", n.name);
                prop_assert!(n.pods.len() as i64 <= n.allocatable.allowed_pods, "pods on {}", n.name);
                let tainted = !n.taints.is_empty();
                for p in &n.pods {
                    prop_assert!(!tainted || !p.tolerations().is_empty(), "untolerated pod on {}", n.name);
                }
            }
        }

        #[test]
        fn same_inputs_and_seed_same_outcome(cluster in cluster_strategy(), pods in pods_strategy(), seed in any::<u64>()) {
            let (_, a) = run(&cluster, &pods, seed);
            let (_, b) = run(&cluster, &pods, seed);
            prop_assert_eq!(a, b);
        }

        #[test]
        fn batched_plugins_agree_with_node_by_node(
            nodes in prop::collection::vec((500u32..4000, 256u32..4096, 0u32..4, 0u8..4, any::<bool>(), any::<bool>()), 1..12),
            (cpu, mem, tolerate, named, image) in (0u32..3000, 0u32..3000, any::<bool>(), 0usize..14, any::<bool>()),
        ) {
            // Nodes cordoned or not, with no taint, a NoSchedule or a PreferNoSchedule
            // taint, full or not, with the pod's image or not; the pod may name a node.
            let yaml: String = nodes
                .iter()
                .enumerate()
                .map(|(i, (c, m, pods, taint, cordoned, has_image))| {
                    let taints = match taint {
                        1 => "taints: [{key: dedicated, value: db, effect: NoSchedule}]",
                        2 => "taints: [{key: spot, effect: PreferNoSchedule}]",
                        _ => "",
                    };
                    let images = if *has_image { "images: [{names: [\"nginx:1.29\"], sizeBytes: 70000000}], " } else { "" };
                    format!(
                        "---\napiVersion: v1\nkind: Node\nmetadata: {{name: n{i}, labels: {{kubernetes.io/hostname: n{i}}}}}\nspec: {{unschedulable: {cordoned}, {taints}}}\nstatus: {{{images}allocatable: {{cpu: {c}m, memory: {m}Mi, pods: \"{pods}\"}}}}\n"
                    )
                })
                .collect();
            let snap = snapshot(&yaml);
            let tol = if tolerate { "  tolerations: [{key: dedicated, operator: Exists}, {key: node.kubernetes.io/unschedulable, operator: Exists}]\n" } else { "" };
            let node_name = if named < nodes.len() { format!("  nodeName: n{named}\n") } else { String::new() };
            let img = if image { "nginx:1.29" } else { "redis:8" };
            let p = pod(&format!(
                "metadata: {{name: p, labels: {{app: a}}}}\nspec:\n{tol}{node_name}  containers: [{{name: c, image: \"{img}\", resources: {{requests: {{cpu: {cpu}m, memory: {mem}Mi}}}}}}]\n"
            ));
            let fw = Scheduler::default_scheduler().framework;
            let ctx = framework::Ctx { snapshot: &snap };
            let info = snap.pod_info(&p);
            let all: Vec<usize> = (0..snap.num_nodes()).collect();
            for (i, plugin) in fw.plugins().enumerate() {
                let name = fw.plugin_name(i);
                if let Some(f) = plugin.as_filter() {
                    let out = plugin.as_pre_filter().map(|pf| pf.pre_filter(&ctx, &info));
                    let state = out.as_ref().and_then(|o| o.state.as_deref()).map(|s| s.as_any());
                    let mut alive: Vec<u32> = (0..all.len() as u32).collect();
                    let mut rejected = Vec::new();
                    f.filter_nodes(state, &ctx, &info, &all, &mut alive, &mut rejected);
                    for (k, &ni) in all.iter().enumerate() {
                        let one = f.filter(state, &ctx, &info, snap.node(ni));
                        let batch = rejected.iter().find(|r| r.0 as usize == k).map(|r| r.1.clone());
                        prop_assert_eq!(batch.is_none(), alive.contains(&(k as u32)), "{} node {}", name, k);
                        prop_assert_eq!(batch.unwrap_or_else(framework::Status::success), one, "{} node {}", name, k);
                    }
                }
                if let Some(sp) = plugin.as_score() {
                    let state = plugin.as_pre_score().and_then(|ps| ps.pre_score(&ctx, &info, &all).1);
                    let state = state.as_deref().map(|s| s.as_any());
                    let mut batch = vec![0; all.len()];
                    sp.score_nodes(state, &ctx, &info, &all, &mut batch);
                    let one: Vec<i64> = all.iter().map(|&ni| sp.score(state, &ctx, &info, snap.node(ni))).collect();
                    prop_assert_eq!(batch, one, "{} scores", name);
                }
            }
        }
    }
}

#[test]
fn nominated_pods_hold_their_place() {
    // After preemption `urgent` is nominated to n1 (its victim is terminating). A
    // lower-priority pod must not take the room it freed; an equal one must also see it.
    let cluster = r#"
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: urgent, namespace: default, uid: u-urgent}
spec: {priority: 100, containers: [{name: c, image: x, resources: {requests: {cpu: "2"}}}]}
status: {phase: Pending, nominatedNodeName: n1}
"#;
    check(
        cluster,
        r#"
metadata: {name: sneaky}
spec:
  priority: 5
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
"#,
        expect![[r#"
            prefilter: NodeAffinity Skip, NodePorts Skip, NodeResourcesFit Success, VolumeBinding Skip, PodTopologySpread Skip, InterPodAffinity Skip, DynamicResources Skip
            sampling: 1 nodes, 100% (adaptive), find 1, start 0, evaluated 1, feasible 0
            filter:
              n1 REJECTED: NodeUnschedulable ok, NodeName ok, TaintToleration ok, NodeResourcesFit Insufficient cpu
            postfilter: DynamicResources Unschedulable: no new claims to deallocate
            postfilter: DefaultPreemption Unschedulable: preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.
            => unschedulable (rejected by: NodeResourcesFit)
               nominated node: cleared
            event: Warning FailedScheduling (default-scheduler): 0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.
            condition: PodScheduled=False reason=Unschedulable message=0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.
        "#]],
    );
}

#[test]
fn queueing_hints() {
    use super::queue::{should_requeue, ClusterEvent};
    let s = Scheduler::default_scheduler();
    let snap = ClusterSnapshot::new();
    let p = pod(r#"
metadata: {name: p}
spec:
  nodeSelector: {disk: ssd}
  containers: [{name: c, image: x, resources: {requests: {cpu: "2"}}}]
"#);
    let info = snap.pod_info(&p);
    let node = |labels: &str, cpu: &str| -> k8s_openapi::api::core::v1::Node {
        serde_yaml::from_str(&format!(
            "metadata: {{name: n, labels: {labels}}}\nstatus: {{allocatable: {{cpu: \"{cpu}\", memory: 1Gi, pods: \"10\"}}}}"
        ))
        .unwrap()
    };
    let small_ssd = node("{disk: ssd}", "1");
    let big_hdd = node("{disk: hdd}", "8");
    let big_ssd = node("{disk: ssd}", "8");
    let bound: Pod = serde_yaml::from_str("metadata: {name: old}\nspec: {nodeName: n, containers: []}").unwrap();
    let plugins = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut out = String::new();
    for (what, rejected, ev) in [
        (
            "ssd node added, too small",
            plugins(&["NodeAffinity", "NodeResourcesFit"]),
            ClusterEvent::NodeAdded(&small_ssd),
        ),
        ("hdd node added", plugins(&["NodeAffinity"]), ClusterEvent::NodeAdded(&big_hdd)),
        ("hdd relabelled ssd", plugins(&["NodeAffinity"]), ClusterEvent::NodeUpdated { old: &big_hdd, new: &big_ssd }),
        ("bound pod deleted", plugins(&["NodeResourcesFit"]), ClusterEvent::PodDeleted(&bound)),
        ("bound pod deleted", plugins(&["TaintToleration"]), ClusterEvent::PodDeleted(&bound)),
        ("any event", plugins(&[]), ClusterEvent::PodDeleted(&bound)),
    ] {
        let d = should_requeue(&s.framework, &info, &rejected, &ev);
        out.push_str(&format!("{what} [{}]: {:?} - {}\n", rejected.join(","), d.hint, d.explanation));
    }
    expect![[r#"
        ssd node added, too small [NodeAffinity,NodeResourcesFit]: Queue - Node/Add may make the pod schedulable (NodeAffinity says Queue)
        hdd node added [NodeAffinity]: QueueSkip - Node/Add does not change what rejected the pod; it stays unschedulable
        hdd relabelled ssd [NodeAffinity]: Queue - Node/Update may make the pod schedulable (NodeAffinity says Queue)
        bound pod deleted [NodeResourcesFit]: Queue - Pod/Delete may make the pod schedulable (NodeResourcesFit says Queue)
        bound pod deleted [TaintToleration]: QueueSkip - Pod/Delete is not an event TaintToleration watches; the pod stays unschedulable
        any event []: Queue - Pod/Delete: the pod was not rejected by a particular plugin, so any event retries it
    "#]].assert_eq(&out);
}
