//! Snapshot tests: hand-built objects (as the API server stores them) rendered by each
//! printer at a logical time. Logical time 0 is `2026-01-01T00:00:00Z`.

use super::*;
use crate::object::{resource_for, Object};
use crate::store::Store;
use expect_test::{expect, Expect};

/// Loads multi-document YAML into a store, one create per object, in document order.
fn store_of(objects_yaml: &str) -> Store<Object> {
    let mut store = Store::new();
    for doc in serde_yaml::Deserializer::from_str(objects_yaml) {
        let value = serde_json::to_value(serde_yaml::Value::deserialize(doc).expect("valid YAML")).expect("JSON");
        if value.is_null() {
            continue;
        }
        let obj = object_of(value);
        let res = resource_for(&obj.api_version(), obj.kind()).expect("known kind");
        store.create(&res.etcd_key(obj.namespace(), obj.name()), obj).expect("unique objects");
    }
    store
}

fn object_of(value: serde_json::Value) -> Object {
    let api_version = value["apiVersion"].as_str().expect("apiVersion").to_string();
    let kind = value["kind"].as_str().expect("kind").to_string();
    Object::from_json(&api_version, &kind, value).expect("valid object")
}

use serde::Deserialize;

/// Runs one kubectl command against the objects at logical time `now_ms` and compares what
/// the terminal shows (the command line first).
fn check(objects_yaml: &str, now_ms: u64, command: &str, expect: Expect) {
    let store = store_of(objects_yaml);
    let s = Snapshot::new(&store, store.revision(), now_ms);
    let ns = "default";
    let plain = GetOptions::default();
    let wide = GetOptions { wide: true, all_namespaces: false };
    let all = GetOptions { wide: false, all_namespaces: true };
    let out = match command.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["get", "pods"] => s.get_pods(ns, plain),
        ["get", "pods", "-o", "wide"] => s.get_pods(ns, wide),
        ["get", "pods", "-A"] => s.get_pods(ns, all),
        ["get", "events"] => s.get_events(ns, plain),
        ["get", "deployments"] => s.get_deployments(ns, plain),
        ["get", "replicasets"] => s.get_replicasets(ns, plain),
        ["get", "jobs"] => s.get_jobs(ns, plain),
        ["get", "services"] => s.get_services(ns, plain),
        ["get", "services", "-o", "wide"] => s.get_services(ns, wide),
        ["get", "endpointslices"] => s.get_endpointslices(ns, plain),
        ["get", "endpoints"] => s.get_endpoints(ns, plain),
        ["get", "nodes"] => s.get_nodes(plain),
        ["get", "nodes", "-o", "wide"] => s.get_nodes(wide),
        ["describe", "pod", name] => s.describe_pod(ns, name).unwrap_or_else(|| format!("no pod {name}\n")),
        ["describe", "node", name] => s.describe_node(name).unwrap_or_else(|| format!("no node {name}\n")),
        _ => panic!("unknown command {command}"),
    };
    expect.assert_eq(&format!("$ kubectl {command}\n{out}"));
}

const POD_STATUSES: &str = r#"
apiVersion: v1
kind: Pod
metadata: {name: a-pending, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {containers: [{name: app, image: nginx}]}
status: {phase: Pending, qosClass: BestEffort}
---
apiVersion: v1
kind: Pod
metadata: {name: b-gated, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {containers: [{name: app, image: nginx}], schedulingGates: [{name: example.com/quota}]}
status:
  phase: Pending
  conditions: [{type: PodScheduled, status: "False", reason: SchedulingGated, message: Scheduling is blocked due to non-empty scheduling gates}]
---
apiVersion: v1
kind: Pod
metadata: {name: c-creating, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: app, image: nginx}]}
status:
  phase: Pending
  containerStatuses:
  - {name: app, image: nginx, imageID: "", ready: false, restartCount: 0, started: false, state: {waiting: {reason: ContainerCreating}}}
---
apiVersion: v1
kind: Pod
metadata: {name: d-running, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: app, image: nginx}]}
status:
  phase: Running
  conditions: [{type: Ready, status: "True"}]
  podIP: 10.244.1.5
  podIPs: [{ip: 10.244.1.5}]
  containerStatuses:
  - {name: app, image: nginx, imageID: "", ready: true, restartCount: 0, started: true, state: {running: {startedAt: "2026-01-01T00:00:04Z"}}}
---
apiVersion: v1
kind: Pod
metadata: {name: e-init-running, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  nodeName: kind-worker
  initContainers: [{name: setup, image: busybox}, {name: migrate, image: busybox}]
  containers: [{name: app, image: nginx}]
status:
  phase: Pending
  conditions: [{type: Initialized, status: "False", reason: ContainersNotInitialized}]
  initContainerStatuses:
  - {name: setup, image: busybox, imageID: "", ready: false, restartCount: 0, state: {running: {startedAt: "2026-01-01T00:00:02Z"}}}
  - {name: migrate, image: busybox, imageID: "", ready: false, restartCount: 0, state: {waiting: {reason: PodInitializing}}}
  containerStatuses:
  - {name: app, image: nginx, imageID: "", ready: false, restartCount: 0, state: {waiting: {reason: PodInitializing}}}
---
apiVersion: v1
kind: Pod
metadata: {name: f-init-crash, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  nodeName: kind-worker
  initContainers: [{name: setup, image: busybox}]
  containers: [{name: app, image: nginx}]
status:
  phase: Pending
  initContainerStatuses:
  - name: setup
    image: busybox
    imageID: ""
    ready: false
    restartCount: 3
    state: {waiting: {reason: CrashLoopBackOff, message: "back-off 40s restarting failed container=setup"}}
    lastState: {terminated: {exitCode: 1, reason: Error, startedAt: "2026-01-01T00:01:00Z", finishedAt: "2026-01-01T00:01:15Z"}}
---
apiVersion: v1
kind: Pod
metadata: {name: g-init-error, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, restartPolicy: Never, initContainers: [{name: setup, image: busybox}], containers: [{name: app, image: nginx}]}
status:
  phase: Failed
  initContainerStatuses:
  - {name: setup, image: busybox, imageID: "", ready: false, restartCount: 0, state: {terminated: {exitCode: 1, reason: Error}}}
---
apiVersion: v1
kind: Pod
metadata: {name: h-init-exitcode, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, initContainers: [{name: setup, image: busybox}], containers: [{name: app, image: nginx}]}
status:
  phase: Pending
  initContainerStatuses:
  - {name: setup, image: busybox, imageID: "", ready: false, restartCount: 0, state: {terminated: {exitCode: 2}}}
---
apiVersion: v1
kind: Pod
metadata: {name: i-init-signal, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, initContainers: [{name: setup, image: busybox}], containers: [{name: app, image: nginx}]}
status:
  phase: Pending
  initContainerStatuses:
  - {name: setup, image: busybox, imageID: "", ready: false, restartCount: 0, state: {terminated: {exitCode: 137, signal: 9}}}
---
apiVersion: v1
kind: Pod
metadata: {name: j-pull-error, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: app, image: nginx:no-such-tag}]}
status:
  phase: Pending
  containerStatuses:
  - {name: app, image: "nginx:no-such-tag", imageID: "", ready: false, restartCount: 0, state: {waiting: {reason: ErrImagePull}}}
---
apiVersion: v1
kind: Pod
metadata: {name: k-pull-backoff, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: app, image: nginx:no-such-tag}]}
status:
  phase: Pending
  containerStatuses:
  - {name: app, image: "nginx:no-such-tag", imageID: "", ready: false, restartCount: 0, state: {waiting: {reason: ImagePullBackOff}}}
---
apiVersion: v1
kind: Pod
metadata: {name: l-crash-loop, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: app, image: busybox}]}
status:
  phase: Running
  conditions: [{type: Ready, status: "False"}]
  containerStatuses:
  - name: app
    image: busybox
    imageID: ""
    ready: false
    restartCount: 3
    state: {waiting: {reason: CrashLoopBackOff}}
    lastState: {terminated: {exitCode: 1, reason: Error, startedAt: "2026-01-01T00:01:14Z", finishedAt: "2026-01-01T00:01:15Z"}}
---
apiVersion: v1
kind: Pod
metadata: {name: m-config-error, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: app, image: nginx}]}
status:
  phase: Pending
  containerStatuses:
  - {name: app, image: nginx, imageID: "", ready: false, restartCount: 0, state: {waiting: {reason: CreateContainerConfigError, message: configmap "app-config" not found}}}
---
apiVersion: v1
kind: Pod
metadata: {name: n-completed, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, restartPolicy: Never, containers: [{name: app, image: busybox}]}
status:
  phase: Succeeded
  containerStatuses:
  - {name: app, image: busybox, imageID: "", ready: false, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed}}}
---
apiVersion: v1
kind: Pod
metadata: {name: o-error, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, restartPolicy: Never, containers: [{name: app, image: busybox}]}
status:
  phase: Failed
  containerStatuses:
  - {name: app, image: busybox, imageID: "", ready: false, restartCount: 0, state: {terminated: {exitCode: 1, reason: Error}}}
---
apiVersion: v1
kind: Pod
metadata: {name: p-oom, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, restartPolicy: Never, containers: [{name: app, image: busybox}]}
status:
  phase: Failed
  containerStatuses:
  - {name: app, image: busybox, imageID: "", ready: false, restartCount: 0, state: {terminated: {exitCode: 137, reason: OOMKilled}}}
---
apiVersion: v1
kind: Pod
metadata: {name: q-exitcode, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, restartPolicy: Never, containers: [{name: app, image: busybox}]}
status:
  phase: Failed
  containerStatuses:
  - {name: app, image: busybox, imageID: "", ready: false, restartCount: 0, state: {terminated: {exitCode: 3}}}
---
apiVersion: v1
kind: Pod
metadata: {name: r-terminating, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z", deletionTimestamp: "2026-01-01T00:02:00Z", deletionGracePeriodSeconds: 30}
spec: {nodeName: kind-worker, containers: [{name: app, image: nginx}]}
status:
  phase: Running
  conditions: [{type: Ready, status: "True"}]
  containerStatuses:
  - {name: app, image: nginx, imageID: "", ready: true, restartCount: 0, state: {running: {startedAt: "2026-01-01T00:00:04Z"}}}
---
apiVersion: v1
kind: Pod
metadata: {name: s-evicted, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: app, image: nginx}]}
status:
  phase: Failed
  reason: Evicted
  message: "The node was low on resource: memory. "
---
apiVersion: v1
kind: Pod
metadata: {name: t-not-ready, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: job, image: busybox}, {name: app, image: nginx}]}
status:
  phase: Running
  conditions: [{type: Ready, status: "False", reason: ContainersNotReady}]
  containerStatuses:
  - {name: app, image: nginx, imageID: "", ready: true, restartCount: 0, state: {running: {startedAt: "2026-01-01T00:00:04Z"}}}
  - {name: job, image: busybox, imageID: "", ready: false, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed}}}
---
apiVersion: v1
kind: Pod
metadata: {name: u-sidecar, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  nodeName: kind-worker
  initContainers: [{name: proxy, image: envoy, restartPolicy: Always}]
  containers: [{name: app, image: nginx}]
status:
  phase: Running
  conditions: [{type: Initialized, status: "True"}, {type: Ready, status: "True"}]
  initContainerStatuses:
  - name: proxy
    image: envoy
    imageID: ""
    ready: true
    started: true
    restartCount: 1
    state: {running: {startedAt: "2026-01-01T00:00:30Z"}}
    lastState: {terminated: {exitCode: 1, reason: Error, finishedAt: "2026-01-01T00:00:29Z"}}
  containerStatuses:
  - {name: app, image: nginx, imageID: "", ready: true, restartCount: 0, state: {running: {startedAt: "2026-01-01T00:00:04Z"}}}
---
apiVersion: v1
kind: Pod
metadata: {name: v-node-lost, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z", deletionTimestamp: "2026-01-01T00:01:00Z"}
spec: {nodeName: kind-worker2, containers: [{name: app, image: nginx}]}
status: {phase: Running, reason: NodeLost}
"#;

#[test]
fn get_pods_status_rules() {
    check(
        POD_STATUSES,
        120_000,
        "get pods",
        expect![[r#"
            $ kubectl get pods
            NAME              READY   STATUS                       RESTARTS      AGE
            a-pending         0/1     Pending                      0             2m
            b-gated           0/1     SchedulingGated              0             2m
            c-creating        0/1     ContainerCreating            0             2m
            d-running         1/1     Running                      0             2m
            e-init-running    0/1     Init:0/2                     0             2m
            f-init-crash      0/1     Init:CrashLoopBackOff        3 (45s ago)   2m
            g-init-error      0/1     Init:Error                   0             2m
            h-init-exitcode   0/1     Init:ExitCode:2              0             2m
            i-init-signal     0/1     Init:Signal:9                0             2m
            j-pull-error      0/1     ErrImagePull                 0             2m
            k-pull-backoff    0/1     ImagePullBackOff             0             2m
            l-crash-loop      0/1     CrashLoopBackOff             3 (45s ago)   2m
            m-config-error    0/1     CreateContainerConfigError   0             2m
            n-completed       0/1     Completed                    0             2m
            o-error           0/1     Error                        0             2m
            p-oom             0/1     OOMKilled                    0             2m
            q-exitcode        0/1     ExitCode:3                   0             2m
            r-terminating     1/1     Terminating                  0             2m
            s-evicted         0/1     Evicted                      0             2m
            t-not-ready       1/2     NotReady                     0             2m
            u-sidecar         2/2     Running                      1 (91s ago)   2m
            v-node-lost       0/1     Unknown                      0             2m
        "#]],
    );
}
