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
        ["get", "statefulsets"] => s.get_statefulsets(ns, plain),
        ["get", "cronjobs"] => s.get_cronjobs(ns, plain),
        ["get", "cronjobs", "-o", "wide"] => s.get_cronjobs(ns, wide),
        ["get", "daemonsets"] => s.get_daemonsets(ns, plain),
        ["get", "daemonsets", "-o", "wide"] => s.get_daemonsets(ns, wide),
        ["get", "pvc"] => s.get_pvcs(ns, plain),
        ["get", "pvc", "-o", "wide"] => s.get_pvcs(ns, wide),
        ["get", "pv"] => s.get_pvs(plain),
        ["get", "pv", "-o", "wide"] => s.get_pvs(wide),
        ["get", "statefulsets", "-o", "wide"] => s.get_statefulsets(ns, wide),
        ["get", "jobs"] => s.get_jobs(ns, plain),
        ["get", "services"] => s.get_services(ns, plain),
        ["get", "services", "-o", "wide"] => s.get_services(ns, wide),
        ["get", "endpointslices"] => s.get_endpointslices(ns, plain),
        ["get", "endpoints"] => s.get_endpoints(ns, plain),
        ["get", "nodes"] => s.get_nodes(plain),
        ["get", "nodes", "-o", "wide"] => s.get_nodes(wide),
        ["describe", "pod", name] => s.describe_pod(ns, name).unwrap_or_else(|| format!("no pod {name}\n")),
        ["describe", "deployment", name] => {
            s.describe_deployment(ns, name).unwrap_or_else(|| format!("no deployment {name}\n"))
        }
        ["describe", "node", name] => s.describe_node(name).unwrap_or_else(|| format!("no node {name}\n")),
        ["describe", "statefulset", name] => s.describe_statefulset(ns, name).unwrap_or_default(),
        ["describe", "daemonset", name] => s.describe_daemonset(ns, name).unwrap_or_default(),
        ["describe", "cronjob", name] => s.describe_cronjob(ns, name).unwrap_or_default(),
        ["describe", "pvc", name] => s.describe_pvc(ns, name).unwrap_or_default(),
        ["describe", "pv", name] => s.describe_pv(name).unwrap_or_default(),
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

#[test]
fn get_pods_wide_all_namespaces_and_empty() {
    let objects = r#"
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  nodeName: kind-worker
  readinessGates: [{conditionType: example.com/lb-ready}]
  containers: [{name: web, image: nginx}]
status:
  phase: Running
  conditions: [{type: example.com/lb-ready, status: "False"}, {type: Ready, status: "False"}]
  podIP: 10.244.1.5
  podIPs: [{ip: 10.244.1.5}, {ip: "fd00:10:244:1::5"}]
  containerStatuses:
  - {name: web, image: nginx, imageID: "", ready: true, restartCount: 0, state: {running: {startedAt: "2026-01-01T00:00:04Z"}}}
---
apiVersion: v1
kind: Pod
metadata: {name: pending-one, namespace: default, creationTimestamp: "2026-01-01T00:05:00Z"}
spec: {containers: [{name: web, image: nginx}]}
status:
  phase: Pending
  nominatedNodeName: kind-worker2
---
apiVersion: v1
kind: Pod
metadata: {name: coredns-7db6d8ff4d-x2x9v, namespace: kube-system, creationTimestamp: "2025-12-31T12:00:00Z"}
spec: {nodeName: kind-control-plane, containers: [{name: coredns, image: "registry.k8s.io/coredns/coredns:v1.12.1"}]}
status:
  phase: Running
  conditions: [{type: Ready, status: "True"}]
  podIPs: [{ip: 10.244.0.3}]
  containerStatuses:
  - {name: coredns, image: "registry.k8s.io/coredns/coredns:v1.12.1", imageID: "", ready: true, restartCount: 0, state: {running: {}}}
"#;
    check(
        objects,
        600_000,
        "get pods -o wide",
        expect![[r#"
            $ kubectl get pods -o wide
            NAME          READY   STATUS    RESTARTS   AGE   IP           NODE          NOMINATED NODE   READINESS GATES
            pending-one   0/1     Pending   0          5m    <none>       <none>        kind-worker2     <none>
            web           1/1     Running   0          10m   10.244.1.5   kind-worker   <none>           0/1
        "#]],
    );
    check(
        objects,
        600_000,
        "get pods -A",
        expect![[r#"
        $ kubectl get pods -A
        NAMESPACE     NAME                       READY   STATUS    RESTARTS   AGE
        default       pending-one                0/1     Pending   0          5m
        default       web                        1/1     Running   0          10m
        kube-system   coredns-7db6d8ff4d-x2x9v   1/1     Running   0          12h
    "#]],
    );
    check(
        "",
        0,
        "get pods",
        expect![[r#"
        $ kubectl get pods
        No resources found in default namespace.
    "#]],
    );
    check(
        "",
        0,
        "get pods -A",
        expect![[r#"
        $ kubectl get pods -A
        No resources found
    "#]],
    );
    check(
        "",
        0,
        "get nodes",
        expect![[r#"
        $ kubectl get nodes
        No resources found
    "#]],
    );
}

/// A running nginx pod as the lab's cluster stores it after admission, scheduling and the
/// kubelet's status updates, with the events of a normal start.
const NGINX: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: nginx
  namespace: default
  uid: 6f1c2a4e-0d1b-4c55-9a0e-2f4b8c7d9e10
  creationTimestamp: "2026-01-01T00:00:00Z"
  labels: {app: nginx}
spec:
  containers:
  - name: nginx
    image: nginx:1.29
    imagePullPolicy: IfNotPresent
    ports: [{containerPort: 80, protocol: TCP}]
    readinessProbe:
      httpGet: {path: /, port: 80, scheme: HTTP}
      timeoutSeconds: 1
      periodSeconds: 10
      successThreshold: 1
      failureThreshold: 3
    volumeMounts:
    - {name: kube-api-access-7x2kq, mountPath: /var/run/secrets/kubernetes.io/serviceaccount, readOnly: true}
  nodeName: kind-worker
  priority: 0
  serviceAccountName: default
  tolerations:
  - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
  volumes:
  - name: kube-api-access-7x2kq
    projected:
      defaultMode: 420
      sources:
      - serviceAccountToken: {expirationSeconds: 3607, path: token}
      - configMap: {name: kube-root-ca.crt, items: [{key: ca.crt, path: ca.crt}]}
      - downwardAPI: {items: [{path: namespace, fieldRef: {apiVersion: v1, fieldPath: metadata.namespace}}]}
status:
  phase: Running
  conditions:
  - {type: PodReadyToStartContainers, status: "True", lastTransitionTime: "2026-01-01T00:00:02Z"}
  - {type: Initialized, status: "True", lastTransitionTime: "2026-01-01T00:00:01Z"}
  - {type: Ready, status: "True", lastTransitionTime: "2026-01-01T00:00:05Z"}
  - {type: ContainersReady, status: "True", lastTransitionTime: "2026-01-01T00:00:05Z"}
  - {type: PodScheduled, status: "True", lastTransitionTime: "2026-01-01T00:00:00Z"}
  hostIP: 172.18.0.3
  hostIPs: [{ip: 172.18.0.3}]
  podIP: 10.244.1.5
  podIPs: [{ip: 10.244.1.5}]
  startTime: "2026-01-01T00:00:01Z"
  qosClass: BestEffort
  containerStatuses:
  - name: nginx
    image: docker.io/library/nginx:1.29
    imageID: docker.io/library/nginx@sha256:3b7732505933ca591ce4a6d860cb713ad96a3176b82f7979a8dfa9973486a0d6
    containerID: containerd://9f2a1c0b7e3d4c5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c
    ready: true
    started: true
    restartCount: 0
    state: {running: {startedAt: "2026-01-01T00:00:04Z"}}
---
apiVersion: v1
kind: Event
metadata: {name: nginx.188a1c2b3c4d5e6f, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
involvedObject: {kind: Pod, namespace: default, name: nginx, uid: 6f1c2a4e-0d1b-4c55-9a0e-2f4b8c7d9e10, apiVersion: v1}
reason: Scheduled
message: Successfully assigned default/nginx to kind-worker
source: {}
reportingComponent: default-scheduler
reportingInstance: default-scheduler-kind-control-plane
eventTime: "2026-01-01T00:00:00.120000Z"
action: Binding
type: Normal
---
apiVersion: v1
kind: Event
metadata: {name: nginx.188a1c2b4d5e6f70, namespace: default, creationTimestamp: "2026-01-01T00:00:01Z"}
involvedObject: {kind: Pod, namespace: default, name: nginx, uid: 6f1c2a4e-0d1b-4c55-9a0e-2f4b8c7d9e10, apiVersion: v1, fieldPath: "spec.containers{nginx}"}
reason: Pulling
message: Pulling image "nginx:1.29"
source: {component: kubelet, host: kind-worker}
firstTimestamp: "2026-01-01T00:00:01Z"
lastTimestamp: "2026-01-01T00:00:01Z"
count: 1
type: Normal
---
apiVersion: v1
kind: Event
metadata: {name: nginx.188a1c2b5e6f7081, namespace: default, creationTimestamp: "2026-01-01T00:00:03Z"}
involvedObject: {kind: Pod, namespace: default, name: nginx, uid: 6f1c2a4e-0d1b-4c55-9a0e-2f4b8c7d9e10, apiVersion: v1, fieldPath: "spec.containers{nginx}"}
reason: Pulled
message: "Successfully pulled image \"nginx:1.29\" in 2.345s (2.345s including waiting). Image size: 72361947 bytes."
source: {component: kubelet, host: kind-worker}
firstTimestamp: "2026-01-01T00:00:03Z"
lastTimestamp: "2026-01-01T00:00:03Z"
count: 1
type: Normal
---
apiVersion: v1
kind: Event
metadata: {name: nginx.188a1c2b6f708192, namespace: default, creationTimestamp: "2026-01-01T00:00:03Z"}
involvedObject: {kind: Pod, namespace: default, name: nginx, uid: 6f1c2a4e-0d1b-4c55-9a0e-2f4b8c7d9e10, apiVersion: v1, fieldPath: "spec.containers{nginx}"}
reason: Created
message: "Created container: nginx"
source: {component: kubelet, host: kind-worker}
firstTimestamp: "2026-01-01T00:00:03Z"
lastTimestamp: "2026-01-01T00:00:03Z"
count: 1
type: Normal
---
apiVersion: v1
kind: Event
metadata: {name: nginx.188a1c2b708192a3, namespace: default, creationTimestamp: "2026-01-01T00:00:04Z"}
involvedObject: {kind: Pod, namespace: default, name: nginx, uid: 6f1c2a4e-0d1b-4c55-9a0e-2f4b8c7d9e10, apiVersion: v1, fieldPath: "spec.containers{nginx}"}
reason: Started
message: Started container nginx
source: {component: kubelet, host: kind-worker}
firstTimestamp: "2026-01-01T00:00:04Z"
lastTimestamp: "2026-01-01T00:00:04Z"
count: 1
type: Normal
---
apiVersion: v1
kind: Event
metadata: {name: other.188a1c2b708192a3, namespace: default, creationTimestamp: "2026-01-01T00:00:04Z"}
involvedObject: {kind: Pod, namespace: default, name: other, uid: 00000000-0000-0000-0000-000000000000, apiVersion: v1}
reason: Scheduled
message: Successfully assigned default/other to kind-worker
source: {component: default-scheduler}
firstTimestamp: "2026-01-01T00:00:04Z"
lastTimestamp: "2026-01-01T00:00:04Z"
count: 1
type: Normal
"#;

#[test]
fn describe_running_nginx() {
    check(
        NGINX,
        62_000,
        "describe pod nginx",
        expect![[r#"
        $ kubectl describe pod nginx
        Name:             nginx
        Namespace:        default
        Priority:         0
        Service Account:  default
        Node:             kind-worker/172.18.0.3
        Start Time:       Thu, 01 Jan 2026 00:00:01 +0000
        Labels:           app=nginx
        Annotations:      <none>
        Status:           Running
        IP:               10.244.1.5
        IPs:
          IP:  10.244.1.5
        Containers:
          nginx:
            Container ID:   containerd://9f2a1c0b7e3d4c5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c
            Image:          nginx:1.29
            Image ID:       docker.io/library/nginx@sha256:3b7732505933ca591ce4a6d860cb713ad96a3176b82f7979a8dfa9973486a0d6
            Port:           80/TCP
            Host Port:      0/TCP
            State:          Running
              Started:      Thu, 01 Jan 2026 00:00:04 +0000
            Ready:          True
            Restart Count:  0
            Readiness:      http-get http://:80/ delay=0s timeout=1s period=10s successThreshold=1 failureThreshold=3
            Environment:    <none>
            Mounts:
              /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-7x2kq (ro)
        Conditions:
          Type                        Status
          PodReadyToStartContainers   True 
          Initialized                 True 
          Ready                       True 
          ContainersReady             True 
          PodScheduled                True 
        Volumes:
          kube-api-access-7x2kq:
            Type:                    Projected (a volume that contains injected data from multiple sources)
            TokenExpirationSeconds:  3607
            ConfigMapName:           kube-root-ca.crt
            Optional:                false
            DownwardAPI:             true
        QoS Class:                   BestEffort
        Node-Selectors:              <none>
        Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                                     node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
        Events:
          Type    Reason     Age   From               Message
          ----    ------     ----  ----               -------
          Normal  Scheduled  61s   default-scheduler  Successfully assigned default/nginx to kind-worker
          Normal  Pulling    61s   kubelet            spec.containers{nginx}: Pulling image "nginx:1.29"
          Normal  Pulled     59s   kubelet            spec.containers{nginx}: Successfully pulled image "nginx:1.29" in 2.345s (2.345s including waiting). Image size: 72361947 bytes.
          Normal  Created    59s   kubelet            spec.containers{nginx}: Created container: nginx
          Normal  Started    58s   kubelet            spec.containers{nginx}: Started container nginx
    "#]],
    );
}

#[test]
fn get_events_lists_every_event_of_the_namespace() {
    check(
        NGINX,
        62_000,
        "get events",
        expect![[r#"
        $ kubectl get events
        LAST SEEN   TYPE     REASON      OBJECT      MESSAGE
        61s         Normal   Scheduled   pod/nginx   Successfully assigned default/nginx to kind-worker
        61s         Normal   Pulling     pod/nginx   Pulling image "nginx:1.29"
        59s         Normal   Pulled      pod/nginx   Successfully pulled image "nginx:1.29" in 2.345s (2.345s including waiting). Image size: 72361947 bytes.
        59s         Normal   Created     pod/nginx   Created container: nginx
        58s         Normal   Started     pod/nginx   Started container nginx
        58s         Normal   Scheduled   pod/other   Successfully assigned default/other to kind-worker
    "#]],
    );
}

/// A pod whose image cannot be pulled, with an init container, resources, env vars of
/// every kind, a liveness probe and repeated events.
const FAILING: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: api
  namespace: default
  uid: 0b0e8f57-6a43-4c8e-8d0c-0d6f1e9a7c21
  creationTimestamp: "2026-01-01T00:00:00Z"
  labels: {app: api, tier: backend}
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","kind":"Pod"}'
    example.com/owner: team-a
  ownerReferences:
  - {apiVersion: apps/v1, kind: ReplicaSet, name: api-5d9c7b6f4, uid: 11111111-2222-3333-4444-555555555555, controller: true, blockOwnerDeletion: true}
spec:
  priorityClassName: high
  priority: 1000
  serviceAccountName: api
  nodeName: kind-worker
  nodeSelector: {disktype: ssd}
  initContainers:
  - name: wait-db
    image: busybox:1.37
    command: [sh, -c, "until nc -z db 5432; do sleep 1; done"]
  containers:
  - name: api
    image: example.com/api:v2
    ports: [{name: http, containerPort: 8080, protocol: TCP}, {name: metrics, containerPort: 9090, protocol: TCP}]
    args: [--port=8080]
    resources:
      requests: {cpu: 250m, memory: 64Mi}
      limits: {memory: 128Mi}
    livenessProbe:
      tcpSocket: {port: http}
      initialDelaySeconds: 5
      timeoutSeconds: 1
      periodSeconds: 10
      successThreshold: 1
      failureThreshold: 3
    envFrom:
    - configMapRef: {name: api-config}
    - secretRef: {name: api-secrets, optional: true}
      prefix: SECRET_
    env:
    - {name: LOG_LEVEL, value: debug}
    - name: POD_NAME
      valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}}
    - name: NODE_NAME
      valueFrom: {fieldRef: {apiVersion: v1, fieldPath: spec.nodeName}}
    - name: MEMORY_LIMIT
      valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}
    - name: CPU_LIMIT
      valueFrom: {resourceFieldRef: {resource: limits.cpu}}
    - name: DB_PASSWORD
      valueFrom: {secretKeyRef: {name: db, key: password}}
    - name: FEATURE
      valueFrom: {configMapKeyRef: {name: flags, key: feature, optional: true}}
    volumeMounts:
    - {name: cache, mountPath: /var/cache/api}
    - {name: kube-api-access-p9d2m, mountPath: /var/run/secrets/kubernetes.io/serviceaccount, readOnly: true}
    - {name: config, mountPath: /etc/api/app.yaml, subPath: app.yaml}
  tolerations:
  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
  - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
  - {key: dedicated, operator: Equal, value: api, effect: NoSchedule}
  volumes:
  - name: cache
    emptyDir: {}
  - name: config
    configMap: {name: api-config}
  - name: kube-api-access-p9d2m
    projected:
      sources:
      - serviceAccountToken: {expirationSeconds: 3607, path: token}
      - configMap: {name: kube-root-ca.crt}
      - downwardAPI: {items: [{path: namespace, fieldRef: {apiVersion: v1, fieldPath: metadata.namespace}}]}
status:
  phase: Pending
  conditions:
  - {type: PodReadyToStartContainers, status: "True"}
  - {type: Initialized, status: "True"}
  - {type: Ready, status: "False", reason: ContainersNotReady, message: "containers with unready status: [api]"}
  - {type: ContainersReady, status: "False", reason: ContainersNotReady, message: "containers with unready status: [api]"}
  - {type: PodScheduled, status: "True"}
  hostIP: 172.18.0.3
  podIP: 10.244.1.9
  podIPs: [{ip: 10.244.1.9}]
  startTime: "2026-01-01T00:00:01Z"
  qosClass: Burstable
  initContainerStatuses:
  - name: wait-db
    image: docker.io/library/busybox:1.37
    imageID: docker.io/library/busybox@sha256:e3652a00a2fabd16ce889f0aa32c38eec347b997e73bd09e69c962ec7f8732ee
    containerID: containerd://1a2b3c
    ready: true
    restartCount: 0
    state: {terminated: {exitCode: 0, reason: Completed, startedAt: "2026-01-01T00:00:02Z", finishedAt: "2026-01-01T00:00:03Z", containerID: "containerd://1a2b3c"}}
  containerStatuses:
  - name: api
    image: example.com/api:v2
    imageID: ""
    ready: false
    started: false
    restartCount: 0
    state: {waiting: {reason: ImagePullBackOff, message: "Back-off pulling image \"example.com/api:v2\": ErrImagePull: failed to resolve reference"}}
---
apiVersion: v1
kind: Event
metadata: {name: api.188a1c2b00000001, namespace: default}
involvedObject: {kind: Pod, namespace: default, name: api, uid: 0b0e8f57-6a43-4c8e-8d0c-0d6f1e9a7c21, apiVersion: v1, fieldPath: "spec.containers{api}"}
reason: Pulling
message: Pulling image "example.com/api:v2"
source: {component: kubelet, host: kind-worker}
firstTimestamp: "2026-01-01T00:00:04Z"
lastTimestamp: "2026-01-01T00:01:30Z"
count: 4
type: Normal
---
apiVersion: v1
kind: Event
metadata: {name: api.188a1c2b00000002, namespace: default}
involvedObject: {kind: Pod, namespace: default, name: api, uid: 0b0e8f57-6a43-4c8e-8d0c-0d6f1e9a7c21, apiVersion: v1, fieldPath: "spec.containers{api}"}
reason: Failed
message: "Failed to pull image \"example.com/api:v2\": failed to resolve reference \"example.com/api:v2\": not found"
source: {component: kubelet, host: kind-worker}
firstTimestamp: "2026-01-01T00:00:05Z"
lastTimestamp: "2026-01-01T00:01:31Z"
count: 4
type: Warning
---
apiVersion: v1
kind: Event
metadata: {name: api.188a1c2b00000003, namespace: default}
involvedObject: {kind: Pod, namespace: default, name: api, uid: 0b0e8f57-6a43-4c8e-8d0c-0d6f1e9a7c21, apiVersion: v1, fieldPath: "spec.containers{api}"}
reason: Failed
message: "Error: ErrImagePull"
source: {component: kubelet, host: kind-worker}
firstTimestamp: "2026-01-01T00:00:05Z"
lastTimestamp: "2026-01-01T00:01:31Z"
count: 4
type: Warning
---
apiVersion: v1
kind: Event
metadata: {name: api.188a1c2b00000004, namespace: default}
involvedObject: {kind: Pod, namespace: default, name: api, uid: 0b0e8f57-6a43-4c8e-8d0c-0d6f1e9a7c21, apiVersion: v1, fieldPath: "spec.containers{api}"}
reason: BackOff
message: Back-off pulling image "example.com/api:v2"
source: {component: kubelet, host: kind-worker}
firstTimestamp: "2026-01-01T00:00:06Z"
lastTimestamp: "2026-01-01T00:02:40Z"
count: 7
type: Normal
---
apiVersion: v1
kind: Event
metadata: {name: api.188a1c2b00000005, namespace: default}
involvedObject: {kind: Pod, namespace: default, name: api, uid: 0b0e8f57-6a43-4c8e-8d0c-0d6f1e9a7c21, apiVersion: v1, fieldPath: "spec.containers{api}"}
reason: Failed
message: "Error: ImagePullBackOff"
source: {component: kubelet, host: kind-worker}
firstTimestamp: "2026-01-01T00:00:06Z"
lastTimestamp: "2026-01-01T00:02:40Z"
count: 7
type: Warning
---
apiVersion: v1
kind: Event
metadata: {name: api.188a1c2a00000000, namespace: default}
involvedObject: {kind: Pod, namespace: default, name: api, uid: 0b0e8f57-6a43-4c8e-8d0c-0d6f1e9a7c21, apiVersion: v1}
reason: Scheduled
message: Successfully assigned default/api to kind-worker
source: {component: default-scheduler}
firstTimestamp: "2026-01-01T00:00:00Z"
lastTimestamp: "2026-01-01T00:00:00Z"
count: 1
type: Normal
"#;

#[test]
fn describe_failing_pod() {
    check(
        FAILING,
        180_000,
        "describe pod api",
        expect![[r#"
        $ kubectl describe pod api
        Name:                 api
        Namespace:            default
        Priority:             1000
        Priority Class Name:  high
        Service Account:      api
        Node:                 kind-worker/172.18.0.3
        Start Time:           Thu, 01 Jan 2026 00:00:01 +0000
        Labels:               app=api
                              tier=backend
        Annotations:          example.com/owner: team-a
        Status:               Pending
        IP:                   10.244.1.9
        IPs:
          IP:           10.244.1.9
        Controlled By:  ReplicaSet/api-5d9c7b6f4
        Init Containers:
          wait-db:
            Container ID:  containerd://1a2b3c
            Image:         busybox:1.37
            Image ID:      docker.io/library/busybox@sha256:e3652a00a2fabd16ce889f0aa32c38eec347b997e73bd09e69c962ec7f8732ee
            Port:          <none>
            Host Port:     <none>
            Command:
              sh
              -c
              until nc -z db 5432; do sleep 1; done
            State:          Terminated
              Reason:       Completed
              Exit Code:    0
              Started:      Thu, 01 Jan 2026 00:00:02 +0000
              Finished:     Thu, 01 Jan 2026 00:00:03 +0000
            Ready:          True
            Restart Count:  0
            Environment:    <none>
            Mounts:         <none>
        Containers:
          api:
            Container ID:  
            Image:         example.com/api:v2
            Image ID:      
            Ports:         8080/TCP (http), 9090/TCP (metrics)
            Host Ports:    0/TCP (http), 0/TCP (metrics)
            Args:
              --port=8080
            State:          Waiting
              Reason:       ImagePullBackOff
            Ready:          False
            Restart Count:  0
            Limits:
              memory:  128Mi
            Requests:
              cpu:     250m
              memory:  64Mi
            Liveness:  tcp-socket :http delay=5s timeout=1s period=10s successThreshold=1 failureThreshold=3
            Environment Variables from:
              api-config   ConfigMap                     Optional: false
              api-secrets  Secret with prefix 'SECRET_'  Optional: true
            Environment:
              LOG_LEVEL:     debug
              POD_NAME:      api (v1:metadata.name)
              NODE_NAME:      (v1:spec.nodeName)
              MEMORY_LIMIT:  128 (limits.memory)
              CPU_LIMIT:     node allocatable (limits.cpu)
              DB_PASSWORD:   <set to the key 'password' in secret 'db'>        Optional: false
              FEATURE:       <set to the key 'feature' of config map 'flags'>  Optional: true
            Mounts:
              /etc/api/app.yaml from config (rw,path="app.yaml")
              /var/cache/api from cache (rw)
              /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-p9d2m (ro)
        Conditions:
          Type                        Status
          PodReadyToStartContainers   True 
          Initialized                 True 
          Ready                       False 
          ContainersReady             False 
          PodScheduled                True 
        Volumes:
          cache:
            Type:       EmptyDir (a temporary directory that shares a pod's lifetime)
            Medium:     
            SizeLimit:  <unset>
          config:
            Type:      ConfigMap (a volume populated by a ConfigMap)
            Name:      api-config
            Optional:  false
          kube-api-access-p9d2m:
            Type:                    Projected (a volume that contains injected data from multiple sources)
            TokenExpirationSeconds:  3607
            ConfigMapName:           kube-root-ca.crt
            Optional:                false
            DownwardAPI:             true
        QoS Class:                   Burstable
        Node-Selectors:              disktype=ssd
        Tolerations:                 dedicated=api:NoSchedule
                                     node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                                     node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
        Events:
          Type     Reason     Age                  From               Message
          ----     ------     ----                 ----               -------
          Normal   Scheduled  3m                   default-scheduler  Successfully assigned default/api to kind-worker
          Normal   Pulling    90s (x4 over 2m56s)  kubelet            spec.containers{api}: Pulling image "example.com/api:v2"
          Warning  Failed     89s (x4 over 2m55s)  kubelet            spec.containers{api}: Failed to pull image "example.com/api:v2": failed to resolve reference "example.com/api:v2": not found
          Warning  Failed     89s (x4 over 2m55s)  kubelet            spec.containers{api}: Error: ErrImagePull
          Normal   BackOff    20s (x7 over 2m54s)  kubelet            spec.containers{api}: Back-off pulling image "example.com/api:v2"
          Warning  Failed     20s (x7 over 2m54s)  kubelet            spec.containers{api}: Error: ImagePullBackOff
    "#]],
    );
}

/// Applies writes at logical times and returns the store and when each revision happened.
fn history(writes: &[(u64, &str, &str)]) -> (Store<Object>, RevisionClock) {
    let mut store = Store::new();
    let mut points = Vec::new();
    for (time, op, yaml) in writes {
        let value: serde_json::Value = serde_yaml::from_str(yaml).expect("valid YAML");
        let obj = object_of(value);
        let res = resource_for(&obj.api_version(), obj.kind()).expect("known kind");
        let key = res.etcd_key(obj.namespace(), obj.name());
        let rev = match *op {
            "create" => store.create(&key, obj).expect("create"),
            "update" => store.update(&key, obj, None).expect("update"),
            "delete" => store.delete(&key).expect("delete").0,
            _ => panic!("unknown op {op}"),
        };
        points.push((rev, *time));
    }
    (store, RevisionClock::from_points(points))
}

const WEB_CREATED: &str = r#"
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {containers: [{name: web, image: "nginx:1.29"}]}
status: {phase: Pending, qosClass: BestEffort}
"#;

const WEB_SCHEDULED: &str = r#"
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: web, image: "nginx:1.29"}]}
status:
  phase: Pending
  qosClass: BestEffort
  conditions: [{type: PodScheduled, status: "True"}]
"#;

const WEB_CREATING: &str = r#"
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: web, image: "nginx:1.29"}]}
status:
  phase: Pending
  qosClass: BestEffort
  hostIP: 172.18.0.3
  startTime: "2026-01-01T00:00:01Z"
  conditions:
  - {type: PodReadyToStartContainers, status: "False"}
  - {type: Initialized, status: "True"}
  - {type: Ready, status: "False", reason: ContainersNotReady}
  - {type: ContainersReady, status: "False", reason: ContainersNotReady}
  - {type: PodScheduled, status: "True"}
  containerStatuses:
  - {name: web, image: "nginx:1.29", imageID: "", ready: false, restartCount: 0, started: false, state: {waiting: {reason: ContainerCreating}}}
"#;

const WEB_RUNNING: &str = r#"
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: web, image: "nginx:1.29"}]}
status:
  phase: Running
  qosClass: BestEffort
  hostIP: 172.18.0.3
  podIP: 10.244.1.5
  podIPs: [{ip: 10.244.1.5}]
  startTime: "2026-01-01T00:00:01Z"
  conditions:
  - {type: PodReadyToStartContainers, status: "True"}
  - {type: Initialized, status: "True"}
  - {type: Ready, status: "True"}
  - {type: ContainersReady, status: "True"}
  - {type: PodScheduled, status: "True"}
  containerStatuses:
  - {name: web, image: "docker.io/library/nginx:1.29", imageID: "", ready: true, restartCount: 0, started: true, state: {running: {startedAt: "2026-01-01T00:00:04Z"}}}
"#;

const WEB_TERMINATING: &str = r#"
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z", deletionTimestamp: "2026-01-01T00:03:30Z", deletionGracePeriodSeconds: 30}
spec: {nodeName: kind-worker, containers: [{name: web, image: "nginx:1.29"}]}
status:
  phase: Running
  conditions: [{type: Ready, status: "True"}]
  containerStatuses:
  - {name: web, image: "docker.io/library/nginx:1.29", imageID: "", ready: true, restartCount: 0, started: true, state: {running: {startedAt: "2026-01-01T00:00:04Z"}}}
"#;

const WEB_STOPPED: &str = r#"
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z", deletionTimestamp: "2026-01-01T00:03:30Z", deletionGracePeriodSeconds: 0}
spec: {nodeName: kind-worker, containers: [{name: web, image: "nginx:1.29"}]}
status:
  phase: Running
  conditions: [{type: Ready, status: "False"}]
  containerStatuses:
  - {name: web, image: "docker.io/library/nginx:1.29", imageID: "", ready: false, restartCount: 0, started: false, state: {terminated: {exitCode: 0, reason: Completed}}}
"#;

const OTHER_NAMESPACE_POD: &str = r#"
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: staging, creationTimestamp: "2026-01-01T00:00:02Z"}
spec: {containers: [{name: web, image: "nginx:1.29"}]}
status: {phase: Pending}
"#;

#[test]
fn watch_a_pod_from_pending_to_running() {
    let (store, clock) = history(&[
        (0, "create", WEB_CREATED),
        (8, "update", WEB_SCHEDULED),
        (1_250, "update", WEB_CREATING),
        (2_000, "create", OTHER_NAMESPACE_POD),
        (3_400, "update", WEB_RUNNING),
    ]);
    // Started before the pod existed: the header comes with the first event.
    expect![[r#"
        NAME   READY   STATUS    RESTARTS   AGE
        web    0/1     Pending   0          0s
        web    0/1     Pending   0          0s
        web    0/1     ContainerCreating   0          1s
        web    1/1     Running             0          3s
    "#]]
    .assert_eq(&get_pods_watch(&store, "default", 1, store.revision(), &clock, 5_000));
    // Midway: only the events up to the step being shown.
    expect![[r#"
        NAME   READY   STATUS    RESTARTS   AGE
        web    0/1     Pending   0          0s
        web    0/1     Pending   0          0s
    "#]]
    .assert_eq(&get_pods_watch(&store, "default", 1, 3, &clock, 5_000));
}

#[test]
fn watch_started_on_a_running_pod_then_deleted() {
    let (store, clock) = history(&[
        (0, "create", WEB_CREATED),
        (3_400, "update", WEB_RUNNING),
        (180_000, "update", WEB_TERMINATING),
        (181_500, "update", WEB_STOPPED),
        (181_600, "delete", WEB_STOPPED),
    ]);
    expect![[r#"
        NAME   READY   STATUS    RESTARTS   AGE
        web    1/1     Running   0          3s
        web    1/1     Terminating   0          3m
        web    0/1     Terminating   0          3m1s
        web    0/1     Terminating   0          3m1s
    "#]]
    .assert_eq(&get_pods_watch(&store, "default", 3, store.revision(), &clock, 200_000));
}

#[test]
fn revision_clock_maps_revisions_to_the_first_step_that_saw_them() {
    let step = |revision: u64, time_ms: u64| crate::trace::Step {
        index: 0,
        time_ms,
        phase: crate::trace::Phase::Etcd,
        from: crate::trace::Component::ApiServer,
        to: crate::trace::Component::Etcd,
        node: None,
        object: None,
        request_id: None,
        summary: String::new(),
        status: crate::trace::StepStatus::Ok,
        revision,
        detail: crate::trace::Detail::Note { text: String::new() },
    };
    let clock = RevisionClock::from_steps(&[step(1, 0), step(2, 10), step(2, 15), step(5, 40)]);
    assert_eq!(clock.time_of(2), Some(10));
    // Revisions 3 and 4 were written without a step of their own: the next step saw them.
    assert_eq!(clock.time_of(4), Some(40));
    assert_eq!(clock.time_of(6), None);
}

const WORKLOADS: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: "nginx:1.29"}]}}
status: {replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2, unavailableReplicas: 1}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: worker, namespace: default, creationTimestamp: "2026-01-01T00:00:30Z"}
spec:
  selector: {matchLabels: {app: worker}}
  template: {metadata: {labels: {app: worker}}, spec: {containers: [{name: worker, image: busybox}]}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web-7d4b9c8f5d, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  replicas: 3
  selector: {matchLabels: {app: web, pod-template-hash: 7d4b9c8f5d}}
  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: "nginx:1.29"}]}}
status: {replicas: 3, readyReplicas: 2, availableReplicas: 2}
---
apiVersion: batch/v1
kind: Job
metadata: {name: backup, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  completions: 1
  parallelism: 1
  template: {spec: {restartPolicy: Never, containers: [{name: backup, image: busybox}]}}
status:
  startTime: "2026-01-01T00:00:01Z"
  completionTime: "2026-01-01T00:00:13Z"
  succeeded: 1
  conditions: [{type: SuccessCriteriaMet, status: "True"}, {type: Complete, status: "True"}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: crunch, namespace: default, creationTimestamp: "2026-01-01T00:01:00Z"}
spec:
  parallelism: 4
  template: {spec: {restartPolicy: Never, containers: [{name: crunch, image: busybox}]}}
status: {startTime: "2026-01-01T00:01:00Z", active: 4}
---
apiVersion: batch/v1
kind: Job
metadata: {name: flaky, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  completions: 3
  template: {spec: {restartPolicy: Never, containers: [{name: flaky, image: busybox}]}}
status:
  startTime: "2026-01-01T00:00:00Z"
  failed: 7
  succeeded: 1
  conditions: [{type: FailureTarget, status: "True"}, {type: Failed, status: "True", reason: BackoffLimitExceeded}]
---
apiVersion: v1
kind: Service
metadata: {name: kubernetes, namespace: default, creationTimestamp: "2025-12-31T00:00:00Z"}
spec:
  type: ClusterIP
  clusterIP: 10.96.0.1
  clusterIPs: [10.96.0.1]
  ports: [{name: https, port: 443, protocol: TCP, targetPort: 6443}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  type: NodePort
  clusterIP: 10.96.120.15
  clusterIPs: [10.96.120.15]
  selector: {app: web}
  ports: [{port: 80, protocol: TCP, targetPort: 80, nodePort: 30080}, {name: metrics, port: 9090, protocol: TCP, targetPort: 9090, nodePort: 31090}]
---
apiVersion: v1
kind: Service
metadata: {name: web-lb, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  type: LoadBalancer
  clusterIP: 10.96.7.200
  clusterIPs: [10.96.7.200]
  selector: {app: web}
  ports: [{port: 80, protocol: TCP, targetPort: 80, nodePort: 32000}]
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  clusterIP: None
  clusterIPs: [None]
  selector: {app: db}
  ports: [{port: 5432, protocol: TCP}]
---
apiVersion: v1
kind: Service
metadata: {name: search, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {type: ExternalName, externalName: search.example.com}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: web-abc12, namespace: default, creationTimestamp: "2026-01-01T00:00:05Z", labels: {kubernetes.io/service-name: web}}
addressType: IPv4
ports: [{name: "", port: 80, protocol: TCP}, {name: metrics, port: 9090, protocol: TCP}]
endpoints:
- addresses: [10.244.1.5]
  conditions: {ready: true}
- addresses: [10.244.2.7]
  conditions: {ready: true}
- addresses: [10.244.1.6]
  conditions: {ready: false}
- addresses: [10.244.2.8]
  conditions: {ready: true}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: db-x7k2p, namespace: default, creationTimestamp: "2026-01-01T00:00:05Z"}
addressType: IPv4
---
apiVersion: v1
kind: Endpoints
metadata: {name: web, namespace: default, creationTimestamp: "2026-01-01T00:00:05Z"}
subsets:
- addresses: [{ip: 10.244.1.5}, {ip: 10.244.2.7}]
  notReadyAddresses: [{ip: 10.244.1.6}]
  ports: [{port: 80, protocol: TCP}, {name: metrics, port: 9090, protocol: TCP}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: db, namespace: default, creationTimestamp: "2026-01-01T00:00:05Z"}
"#;

#[test]
fn get_workloads_services_and_endpoints() {
    check(
        WORKLOADS,
        125_000,
        "get deployments",
        expect![[r#"
        $ kubectl get deployments
        NAME     READY   UP-TO-DATE   AVAILABLE   AGE
        web      2/3     3            2           2m5s
        worker   0/1     0            0           95s
    "#]],
    );
    check(
        WORKLOADS,
        125_000,
        "get replicasets",
        expect![[r#"
        $ kubectl get replicasets
        NAME             DESIRED   CURRENT   READY   AGE
        web-7d4b9c8f5d   3         3         2       2m5s
    "#]],
    );
    check(
        WORKLOADS,
        125_000,
        "get jobs",
        expect![[r#"
        $ kubectl get jobs
        NAME     STATUS     COMPLETIONS   DURATION   AGE
        backup   Complete   1/1           12s        2m5s
        crunch   Running    0/1 of 4      65s        65s
        flaky    Failed     1/3           2m5s       2m5s
    "#]],
    );
    check(
        WORKLOADS,
        125_000,
        "get services",
        expect![[r#"
        $ kubectl get services
        NAME         TYPE           CLUSTER-IP     EXTERNAL-IP          PORT(S)                       AGE
        db           ClusterIP      None           <none>               5432/TCP                      2m5s
        kubernetes   ClusterIP      10.96.0.1      <none>               443/TCP                       24h
        search       ExternalName   <none>         search.example.com   <none>                        2m5s
        web          NodePort       10.96.120.15   <none>               80:30080/TCP,9090:31090/TCP   2m5s
        web-lb       LoadBalancer   10.96.7.200    <pending>            80:32000/TCP                  2m5s
    "#]],
    );
    check(
        WORKLOADS,
        125_000,
        "get services -o wide",
        expect![[r#"
        $ kubectl get services -o wide
        NAME         TYPE           CLUSTER-IP     EXTERNAL-IP          PORT(S)                       AGE    SELECTOR
        db           ClusterIP      None           <none>               5432/TCP                      2m5s   app=db
        kubernetes   ClusterIP      10.96.0.1      <none>               443/TCP                       24h    <none>
        search       ExternalName   <none>         search.example.com   <none>                        2m5s   <none>
        web          NodePort       10.96.120.15   <none>               80:30080/TCP,9090:31090/TCP   2m5s   app=web
        web-lb       LoadBalancer   10.96.7.200    <pending>            80:32000/TCP                  2m5s   app=web
    "#]],
    );
    check(
        WORKLOADS,
        125_000,
        "get endpointslices",
        expect![[r#"
        $ kubectl get endpointslices
        NAME        ADDRESSTYPE   PORTS     ENDPOINTS                                      AGE
        db-x7k2p    IPv4          <unset>   <unset>                                        2m
        web-abc12   IPv4          80,9090   10.244.1.5,10.244.2.7,10.244.1.6 + 1 more...   2m
    "#]],
    );
    check(
        WORKLOADS,
        125_000,
        "get endpoints",
        expect![[r#"
        $ kubectl get endpoints
        Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice
        NAME   ENDPOINTS                                                 AGE
        db     <none>                                                    2m
        web    10.244.1.5:80,10.244.2.7:80,10.244.1.5:9090 + 1 more...   2m
    "#]],
    );
}

const CLUSTER: &str = r#"
apiVersion: v1
kind: Node
metadata:
  name: kind-control-plane
  uid: 2a7e5f0c-1111-4c3d-9e8f-000000000001
  creationTimestamp: "2025-12-30T00:00:00Z"
  labels: {kubernetes.io/hostname: kind-control-plane, kubernetes.io/os: linux, node-role.kubernetes.io/control-plane: ""}
spec:
  podCIDR: 10.244.0.0/24
  podCIDRs: [10.244.0.0/24]
  providerID: kind://docker/kind/kind-control-plane
  taints: [{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}]
status:
  conditions:
  - {type: Ready, status: "True", reason: KubeletReady, message: kubelet is posting ready status, lastHeartbeatTime: "2026-01-01T00:00:00Z", lastTransitionTime: "2025-12-30T00:00:20Z"}
  addresses: [{type: InternalIP, address: 172.18.0.2}, {type: Hostname, address: kind-control-plane}]
  capacity: {cpu: "8", memory: 16331092Ki, pods: "110", ephemeral-storage: 263112772Ki, hugepages-2Mi: "0"}
  allocatable: {cpu: "8", memory: 16331092Ki, pods: "110", ephemeral-storage: 263112772Ki, hugepages-2Mi: "0"}
  nodeInfo: {machineID: 3f1d0c5e, systemUUID: 3f1d0c5e-aaaa, bootID: 1b2c3d4e, kernelVersion: 6.8.0-45-generic, osImage: Debian GNU/Linux 12 (bookworm), containerRuntimeVersion: containerd://2.1.3, kubeletVersion: v1.37.0, kubeProxyVersion: "", operatingSystem: linux, architecture: amd64}
---
apiVersion: v1
kind: Node
metadata:
  name: kind-worker
  uid: 2a7e5f0c-1111-4c3d-9e8f-000000000002
  creationTimestamp: "2025-12-30T00:00:40Z"
  labels: {kubernetes.io/hostname: kind-worker, kubernetes.io/os: linux}
  annotations: {node.alpha.kubernetes.io/ttl: "0", volumes.kubernetes.io/controller-managed-attach-detach: "true"}
spec:
  podCIDR: 10.244.1.0/24
  podCIDRs: [10.244.1.0/24]
status:
  conditions:
  - {type: MemoryPressure, status: "False", reason: KubeletHasSufficientMemory, message: kubelet has sufficient memory available, lastHeartbeatTime: "2026-01-01T00:00:00Z", lastTransitionTime: "2025-12-30T00:00:40Z"}
  - {type: Ready, status: "True", reason: KubeletReady, message: kubelet is posting ready status, lastHeartbeatTime: "2026-01-01T00:00:00Z", lastTransitionTime: "2025-12-30T00:01:00Z"}
  addresses: [{type: InternalIP, address: 172.18.0.3}, {type: Hostname, address: kind-worker}]
  capacity: {cpu: "4", memory: 8Gi, pods: "110", ephemeral-storage: 100Gi}
  allocatable: {cpu: 3900m, memory: 7Gi, pods: "110", ephemeral-storage: 100Gi, example.com/gpu: "2"}
  nodeInfo: {machineID: 9e8d7c6b, systemUUID: 9e8d7c6b-bbbb, bootID: 5f6e7d8c, kernelVersion: 6.8.0-45-generic, osImage: Debian GNU/Linux 12 (bookworm), containerRuntimeVersion: containerd://2.1.3, kubeletVersion: v1.37.0, kubeProxyVersion: "", operatingSystem: linux, architecture: amd64}
---
apiVersion: v1
kind: Node
metadata: {name: kind-worker2, uid: 2a7e5f0c-1111-4c3d-9e8f-000000000003, creationTimestamp: "2025-12-30T00:00:40Z", labels: {kubernetes.io/role: gpu}}
spec: {unschedulable: true}
status:
  conditions:
  - {type: Ready, status: Unknown, reason: NodeStatusUnknown, message: Kubelet stopped posting node status.}
  addresses: [{type: InternalIP, address: 172.18.0.4}, {type: ExternalIP, address: 203.0.113.9}]
  nodeInfo: {machineID: "", systemUUID: "", bootID: "", kernelVersion: "", osImage: "", containerRuntimeVersion: "", kubeletVersion: v1.36.2, kubeProxyVersion: "", operatingSystem: linux, architecture: amd64}
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: kind-worker, namespace: kube-node-lease, creationTimestamp: "2025-12-30T00:00:40Z"}
spec: {holderIdentity: kind-worker, leaseDurationSeconds: 40, renewTime: "2026-01-01T00:01:55.123456Z"}
---
apiVersion: v1
kind: Pod
metadata: {name: web-7d4b9c8f5d-abcde, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  nodeName: kind-worker
  initContainers: [{name: init, image: busybox, resources: {requests: {cpu: "1"}}}]
  containers:
  - {name: web, image: nginx, resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {memory: 128Mi}}}
  - {name: log, image: busybox, resources: {requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 200m, memory: 64Mi}}}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: done, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {nodeName: kind-worker, containers: [{name: c, image: busybox, resources: {requests: {cpu: "2"}}}]}
status: {phase: Succeeded}
---
apiVersion: v1
kind: Pod
metadata: {name: kube-proxy-x8k2d, namespace: kube-system, creationTimestamp: "2025-12-30T00:00:40Z"}
spec:
  nodeName: kind-worker
  initContainers: [{name: sidecar, image: envoy, restartPolicy: Always, resources: {requests: {cpu: 50m, memory: 16Mi}}}]
  containers: [{name: kube-proxy, image: kube-proxy}]
status: {phase: Running}
---
apiVersion: v1
kind: Event
metadata: {name: kind-worker.188a1c2b00000001, namespace: default}
involvedObject: {kind: Node, name: kind-worker, uid: kind-worker, apiVersion: v1}
reason: Starting
message: Starting kubelet.
source: {component: kubelet, host: kind-worker}
firstTimestamp: "2025-12-30T00:00:40Z"
lastTimestamp: "2025-12-30T00:00:40Z"
count: 1
type: Normal
---
apiVersion: v1
kind: Event
metadata: {name: kind-worker.188a1c2b00000002, namespace: default}
involvedObject: {kind: Node, name: kind-worker, uid: 2a7e5f0c-1111-4c3d-9e8f-000000000002, apiVersion: v1}
reason: RegisteredNode
message: "Node kind-worker event: Registered Node kind-worker in Controller"
source: {component: node-controller}
firstTimestamp: "2025-12-30T00:00:45Z"
lastTimestamp: "2025-12-30T00:00:45Z"
count: 1
type: Normal
"#;

#[test]
fn get_and_describe_nodes() {
    check(
        CLUSTER,
        120_000,
        "get nodes",
        expect![[r#"
        $ kubectl get nodes
        NAME                 STATUS                        ROLES           AGE   VERSION
        kind-control-plane   Ready                         control-plane   2d    v1.37.0
        kind-worker          Ready                         <none>          2d    v1.37.0
        kind-worker2         NotReady,SchedulingDisabled   gpu             2d    v1.36.2
    "#]],
    );
    check(
        CLUSTER,
        120_000,
        "get nodes -o wide",
        expect![[r#"
        $ kubectl get nodes -o wide
        NAME                 STATUS                        ROLES           AGE   VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE                         KERNEL-VERSION     CONTAINER-RUNTIME
        kind-control-plane   Ready                         control-plane   2d    v1.37.0   172.18.0.2    <none>        Debian GNU/Linux 12 (bookworm)   6.8.0-45-generic   containerd://2.1.3
        kind-worker          Ready                         <none>          2d    v1.37.0   172.18.0.3    <none>        Debian GNU/Linux 12 (bookworm)   6.8.0-45-generic   containerd://2.1.3
        kind-worker2         NotReady,SchedulingDisabled   gpu             2d    v1.36.2   172.18.0.4    203.0.113.9   <unknown>                        <unknown>          <unknown>
    "#]],
    );
    check(
        CLUSTER,
        120_000,
        "describe node kind-worker",
        expect![[r#"
        $ kubectl describe node kind-worker
        Name:               kind-worker
        Roles:              <none>
        Labels:             kubernetes.io/hostname=kind-worker
                            kubernetes.io/os=linux
        Annotations:        node.alpha.kubernetes.io/ttl: 0
                            volumes.kubernetes.io/controller-managed-attach-detach: true
        CreationTimestamp:  Tue, 30 Dec 2025 00:00:40 +0000
        Taints:             <none>
        Unschedulable:      false
        Lease:
          HolderIdentity:  kind-worker
          AcquireTime:     <unset>
          RenewTime:       Thu, 01 Jan 2026 00:01:55 +0000
        Conditions:
          Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
          ----             ------  -----------------                 ------------------                ------                       -------
          MemoryPressure   False   Thu, 01 Jan 2026 00:00:00 +0000   Tue, 30 Dec 2025 00:00:40 +0000   KubeletHasSufficientMemory   kubelet has sufficient memory available
          Ready            True    Thu, 01 Jan 2026 00:00:00 +0000   Tue, 30 Dec 2025 00:01:00 +0000   KubeletReady                 kubelet is posting ready status
        Addresses:
          InternalIP:  172.18.0.3
          Hostname:    kind-worker
        Capacity:
          cpu:                4
          ephemeral-storage:  100Gi
          memory:             8Gi
          pods:               110
        Allocatable:
          cpu:                3900m
          ephemeral-storage:  100Gi
          example.com/gpu:    2
          memory:             7Gi
          pods:               110
        System Info:
          Machine ID:                 9e8d7c6b
          System UUID:                9e8d7c6b-bbbb
          Boot ID:                    5f6e7d8c
          Kernel Version:             6.8.0-45-generic
          OS Image:                   Debian GNU/Linux 12 (bookworm)
          Operating System:           linux
          Architecture:               amd64
          Container Runtime Version:  containerd://2.1.3
          Kubelet Version:            v1.37.0
        PodCIDR:                      10.244.1.0/24
        PodCIDRs:                     10.244.1.0/24
        Non-terminated Pods:          (2 in total)
          Namespace                   Name                    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
          ---------                   ----                    ------------  ----------  ---------------  -------------  ---
          default                     web-7d4b9c8f5d-abcde    1 (25%)       200m (5%)   96Mi (1%)        192Mi (2%)     2m
          kube-system                 kube-proxy-x8k2d        50m (1%)      0 (0%)      16Mi (0%)        0 (0%)         2d
        Allocated resources:
          (Total limits may be over 100 percent, i.e., overcommitted.)
          Resource           Requests     Limits
          --------           --------     ------
          cpu                1050m (26%)  200m (5%)
          memory             112Mi (1%)   192Mi (2%)
          ephemeral-storage  0 (0%)       0 (0%)
          example.com/gpu    0            0
        Events:
          Type    Reason          Age   From             Message
          ----    ------          ----  ----             -------
          Normal  Starting        2d    kubelet          Starting kubelet.
          Normal  RegisteredNode  2d    node-controller  Node kind-worker event: Registered Node kind-worker in Controller
    "#]],
    );
    check(
        CLUSTER,
        120_000,
        "describe node kind-worker2",
        expect![[r#"
        $ kubectl describe node kind-worker2
        Name:               kind-worker2
        Roles:              gpu
        Labels:             kubernetes.io/role=gpu
        Annotations:        <none>
        CreationTimestamp:  Tue, 30 Dec 2025 00:00:40 +0000
        Taints:             <none>
        Unschedulable:      true
        Lease:              Failed to get lease: leases.coordination.k8s.io "kind-worker2" not found
        Conditions:
          Type    Status    LastHeartbeatTime                 LastTransitionTime                Reason              Message
          ----    ------    -----------------                 ------------------                ------              -------
          Ready   Unknown   Mon, 01 Jan 0001 00:00:00 +0000   Mon, 01 Jan 0001 00:00:00 +0000   NodeStatusUnknown   Kubelet stopped posting node status.
        Addresses:
          InternalIP:  172.18.0.4
          ExternalIP:  203.0.113.9
        System Info:
          Machine ID:                 
          System UUID:                
          Boot ID:                    
          Kernel Version:             
          OS Image:                   
          Operating System:           linux
          Architecture:               amd64
          Container Runtime Version:  
          Kubelet Version:            v1.36.2
        Non-terminated Pods:          (0 in total)
          Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
          ---------                   ----    ------------  ----------  ---------------  -------------  ---
        Allocated resources:
          (Total limits may be over 100 percent, i.e., overcommitted.)
          Resource           Requests  Limits
          --------           --------  ------
          cpu                0 (0%)    0 (0%)
          memory             0 (0%)    0 (0%)
          ephemeral-storage  0 (0%)    0 (0%)
        Events:              <none>
    "#]],
    );
}

#[test]
fn views_at_a_revision() {
    let (store, clock) = history(&[
        (0, "create", WEB_CREATED),
        (8, "update", WEB_SCHEDULED),
        (1_250, "update", WEB_CREATING),
        (3_400, "update", WEB_RUNNING),
    ]);
    // The learner looks at the step that wrote revision 4 (ContainerCreating), at 1.3s.
    let v = at(&store, 4, 1_300, "default", 1, &clock);
    expect![[r#"
        NAME   READY   STATUS              RESTARTS   AGE
        web    0/1     ContainerCreating   0          1s
        ---
        NAME   READY   STATUS    RESTARTS   AGE
        web    0/1     Pending   0          0s
        web    0/1     Pending   0          0s
        web    0/1     ContainerCreating   0          1s
        ---
        web---
        No resources found in default namespace.
    "#]]
    .assert_eq(&format!(
        "{}---\n{}---\n{}---\n{}",
        v.get_pods,
        v.get_pods_watch,
        v.describe_pods.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(","),
        v.get_deployments
    ));
}

const ROLLOUT: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  uid: d0d0d0d0-0000-4000-8000-000000000001
  generation: 2
  creationTimestamp: "2026-01-01T00:00:00Z"
  labels: {app: web}
  annotations: {deployment.kubernetes.io/revision: "2"}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 25%, maxSurge: 1}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.29
        ports: [{containerPort: 80, protocol: TCP}]
        env:
        - name: POD_NAME
          valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}}
status:
  replicas: 3
  updatedReplicas: 3
  readyReplicas: 3
  availableReplicas: 3
  conditions:
  - {type: Available, status: "True", reason: MinimumReplicasAvailable, message: Deployment has minimum availability.}
  - {type: Progressing, status: "True", reason: NewReplicaSetAvailable, message: ReplicaSet "web-6d8f9b7c4" has successfully progressed.}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-5c7b8d9f6
  namespace: default
  creationTimestamp: "2026-01-01T00:00:00Z"
  labels: {app: web, pod-template-hash: 5c7b8d9f6}
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d0d0d0d0-0000-4000-8000-000000000001, controller: true}]
spec:
  replicas: 0
  selector: {matchLabels: {app: web, pod-template-hash: 5c7b8d9f6}}
  template:
    metadata: {labels: {app: web, pod-template-hash: 5c7b8d9f6}}
    spec: {containers: [{name: web, image: "nginx:1.28", ports: [{containerPort: 80, protocol: TCP}]}]}
status: {replicas: 0}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-6d8f9b7c4
  namespace: default
  creationTimestamp: "2026-01-01T00:01:00Z"
  labels: {app: web, pod-template-hash: 6d8f9b7c4}
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d0d0d0d0-0000-4000-8000-000000000001, controller: true}]
spec:
  replicas: 3
  selector: {matchLabels: {app: web, pod-template-hash: 6d8f9b7c4}}
  template:
    metadata: {labels: {app: web, pod-template-hash: 6d8f9b7c4}}
    spec:
      containers:
      - name: web
        image: nginx:1.29
        ports: [{containerPort: 80, protocol: TCP}]
        env:
        - name: POD_NAME
          valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}}
status: {replicas: 3, readyReplicas: 3, availableReplicas: 3}
---
apiVersion: v1
kind: Event
metadata: {name: web.188a1c2b00000001, namespace: default}
involvedObject: {kind: Deployment, namespace: default, name: web, uid: d0d0d0d0-0000-4000-8000-000000000001, apiVersion: apps/v1}
reason: ScalingReplicaSet
message: Scaled up replica set web-5c7b8d9f6 from 0 to 3
source: {component: deployment-controller}
firstTimestamp: "2026-01-01T00:00:00Z"
lastTimestamp: "2026-01-01T00:00:00Z"
count: 1
type: Normal
---
apiVersion: v1
kind: Event
metadata: {name: web.188a1c2b00000002, namespace: default}
involvedObject: {kind: Deployment, namespace: default, name: web, uid: d0d0d0d0-0000-4000-8000-000000000001, apiVersion: apps/v1}
reason: ScalingReplicaSet
message: Scaled up replica set web-6d8f9b7c4 from 0 to 1
source: {component: deployment-controller}
firstTimestamp: "2026-01-01T00:01:00Z"
lastTimestamp: "2026-01-01T00:01:00Z"
count: 1
type: Normal
---
apiVersion: v1
kind: Event
metadata: {name: web.188a1c2b00000003, namespace: default}
involvedObject: {kind: ReplicaSet, namespace: default, name: web, uid: d0d0d0d0-0000-4000-8000-000000000001, apiVersion: apps/v1}
reason: SuccessfulCreate
message: not about the deployment (another kind with the same name)
source: {component: replicaset-controller}
firstTimestamp: "2026-01-01T00:01:00Z"
lastTimestamp: "2026-01-01T00:01:00Z"
count: 1
type: Normal
"#;

#[test]
fn describe_a_deployment_after_a_rollout() {
    check(
        ROLLOUT,
        150_000,
        "describe deployment web",
        expect![[r#"
        $ kubectl describe deployment web
        Name:                   web
        Namespace:              default
        CreationTimestamp:      Thu, 01 Jan 2026 00:00:00 +0000
        Labels:                 app=web
        Annotations:            deployment.kubernetes.io/revision: 2
        Selector:               app=web
        Replicas:               3 desired | 3 updated | 3 total | 3 available | 0 unavailable
        StrategyType:           RollingUpdate
        MinReadySeconds:        0
        RollingUpdateStrategy:  25% max unavailable, 1 max surge
        Pod Template:
          Labels:  app=web
          Containers:
           web:
            Image:      nginx:1.29
            Port:       80/TCP
            Host Port:  0/TCP
            Environment:
              POD_NAME:     (v1:metadata.name)
            Mounts:        <none>
          Volumes:         <none>
          Node-Selectors:  <none>
          Tolerations:     <none>
        Conditions:
          Type           Status  Reason
          ----           ------  ------
          Available      True    MinimumReplicasAvailable
          Progressing    True    NewReplicaSetAvailable
        OldReplicaSets:  web-5c7b8d9f6 (0/0 replicas created)
        NewReplicaSet:   web-6d8f9b7c4 (3/3 replicas created)
        Events:
          Type    Reason             Age    From                   Message
          ----    ------             ----   ----                   -------
          Normal  ScalingReplicaSet  2m30s  deployment-controller  Scaled up replica set web-5c7b8d9f6 from 0 to 3
          Normal  ScalingReplicaSet  90s    deployment-controller  Scaled up replica set web-6d8f9b7c4 from 0 to 1
    "#]],
    );
    check(
        ROLLOUT,
        150_000,
        "get replicasets",
        expect![[r#"
        $ kubectl get replicasets
        NAME            DESIRED   CURRENT   READY   AGE
        web-5c7b8d9f6   0         0         0       2m30s
        web-6d8f9b7c4   3         3         3       90s
    "#]],
    );
}

const UNSCHEDULED: &str = r#"
apiVersion: v1
kind: Pod
metadata: {name: big, namespace: default, uid: 7a7a7a7a-0000-4000-8000-000000000001, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  priority: 0
  serviceAccountName: default
  containers:
  - name: big
    image: nginx
    resources: {requests: {cpu: "64", memory: 1Ti}, limits: {cpu: "64", memory: 1Ti}}
status:
  phase: Pending
  qosClass: Guaranteed
  conditions:
  - {type: PodScheduled, status: "False", reason: Unschedulable, message: "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."}
---
apiVersion: v1
kind: Event
metadata: {name: big.188a1c2b00000001, namespace: default}
involvedObject: {kind: Pod, namespace: default, name: big, uid: 7a7a7a7a-0000-4000-8000-000000000001, apiVersion: v1}
reason: FailedScheduling
message: "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
reportingComponent: default-scheduler
reportingInstance: default-scheduler-kind-control-plane
action: Scheduling
eventTime: "2026-01-01T00:00:00.004000Z"
series: {count: 3, lastObservedTime: "2026-01-01T00:04:10.000000Z"}
type: Warning
---
apiVersion: v1
kind: Pod
metadata: {name: leaving, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z", deletionTimestamp: "2026-01-01T00:05:20Z", deletionGracePeriodSeconds: 30}
spec: {nodeName: kind-worker, containers: [{name: app, image: nginx}]}
status:
  phase: Running
  hostIP: 172.18.0.3
  podIP: 10.244.1.7
  podIPs: [{ip: 10.244.1.7}]
  containerStatuses:
  - name: app
    image: nginx
    imageID: ""
    ready: true
    restartCount: 2
    state: {running: {startedAt: "2026-01-01T00:03:00Z"}}
    lastState: {terminated: {exitCode: 137, reason: OOMKilled, signal: 9, startedAt: "2026-01-01T00:02:00Z", finishedAt: "2026-01-01T00:02:59Z", message: "memory limit exceeded"}}
"#;

#[test]
fn describe_an_unschedulable_and_a_terminating_pod() {
    check(
        UNSCHEDULED,
        300_000,
        "describe pod big",
        expect![[r#"
        $ kubectl describe pod big
        Name:             big
        Namespace:        default
        Priority:         0
        Service Account:  default
        Node:             <none>
        Labels:           <none>
        Annotations:      <none>
        Status:           Pending
        IP:               
        IPs:              <none>
        Containers:
          big:
            Image:      nginx
            Port:       <none>
            Host Port:  <none>
            Limits:
              cpu:     64
              memory:  1Ti
            Requests:
              cpu:        64
              memory:     1Ti
            Environment:  <none>
            Mounts:       <none>
        Conditions:
          Type           Status
          PodScheduled   False 
        Volumes:         <none>
        QoS Class:       Guaranteed
        Node-Selectors:  <none>
        Tolerations:     <none>
        Events:
          Type     Reason            Age                  From               Message
          ----     ------            ----                 ----               -------
          Warning  FailedScheduling  50s (x3 over 4m59s)  default-scheduler  0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
    "#]],
    );
    check(
        UNSCHEDULED,
        300_000,
        "describe pod leaving",
        expect![[r#"
        $ kubectl describe pod leaving
        Name:                      leaving
        Namespace:                 default
        Node:                      kind-worker/172.18.0.3
        Labels:                    <none>
        Annotations:               <none>
        Status:                    Terminating (lasts <invalid>)
        Termination Grace Period:  30s
        IP:                        10.244.1.7
        IPs:
          IP:  10.244.1.7
        Containers:
          app:
            Container ID:   
            Image:          nginx
            Image ID:       
            Port:           <none>
            Host Port:      <none>
            State:          Running
              Started:      Thu, 01 Jan 2026 00:03:00 +0000
            Last State:     Terminated
              Reason:       OOMKilled
              Message:      memory limit exceeded
              Exit Code:    137
              Signal:       9
              Started:      Thu, 01 Jan 2026 00:02:00 +0000
              Finished:     Thu, 01 Jan 2026 00:02:59 +0000
            Ready:          True
            Restart Count:  2
            Environment:    <none>
            Mounts:         <none>
        Volumes:            <none>
        QoS Class:          BestEffort
        Node-Selectors:     <none>
        Tolerations:        <none>
        Events:             <none>
    "#]],
    );
    check(
        UNSCHEDULED,
        300_000,
        "get events",
        expect![[r#"
        $ kubectl get events
        LAST SEEN   TYPE      REASON             OBJECT    MESSAGE
        50s         Warning   FailedScheduling   pod/big   0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
    "#]],
    );
    check(
        FAILING,
        180_000,
        "get events",
        expect![[r#"
        $ kubectl get events
        LAST SEEN   TYPE      REASON      OBJECT    MESSAGE
        3m          Normal    Scheduled   pod/api   Successfully assigned default/api to kind-worker
        90s         Normal    Pulling     pod/api   Pulling image "example.com/api:v2"
        89s         Warning   Failed      pod/api   Failed to pull image "example.com/api:v2": failed to resolve reference "example.com/api:v2": not found
        89s         Warning   Failed      pod/api   Error: ErrImagePull
        20s         Normal    BackOff     pod/api   Back-off pulling image "example.com/api:v2"
        20s         Warning   Failed      pod/api   Error: ImagePullBackOff
    "#]],
    );
}

#[test]
fn watch_columns_grow_for_a_longer_row() {
    let long = WEB_CREATED.replace("name: web,", "name: web-canary-5f7d8c9b6-x2kq7,");
    let (store, clock) = history(&[
        (0, "create", WEB_CREATED),
        (1_250, "update", WEB_CREATING),
        (2_000, "create", &long),
        (3_400, "update", WEB_RUNNING),
    ]);
    expect![[r#"
        NAME   READY   STATUS    RESTARTS   AGE
        web    0/1     Pending   0          0s
        web    0/1     ContainerCreating   0          1s
        web-canary-5f7d8c9b6-x2kq7   0/1     Pending             0          2s
        web                          1/1     Running             0          3s
    "#]]
    .assert_eq(&get_pods_watch(&store, "default", 1, store.revision(), &clock, 5_000));
}

#[test]
fn load_balancer_addresses_are_clipped_unless_wide() {
    let objects = r#"
apiVersion: v1
kind: Service
metadata: {name: public, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {type: LoadBalancer, clusterIPs: [10.96.3.3], ports: [{port: 443, protocol: TCP, nodePort: 31443}], externalIPs: [198.51.100.7]}
status: {loadBalancer: {ingress: [{hostname: a1b2c3-éu.elb.example.com}, {ip: 203.0.113.10}]}}
"#;
    check(
        objects,
        60_000,
        "get services",
        expect![[r#"
        $ kubectl get services
        NAME     TYPE           CLUSTER-IP   EXTERNAL-IP                     PORT(S)         AGE
        public   LoadBalancer   10.96.3.3    203.0.113.10,...,198.51.100.7   443:31443/TCP   60s
    "#]],
    );
    check(
        objects,
        60_000,
        "get services -o wide",
        expect![[r#"
        $ kubectl get services -o wide
        NAME     TYPE           CLUSTER-IP   EXTERNAL-IP                                           PORT(S)         AGE   SELECTOR
        public   LoadBalancer   10.96.3.3    203.0.113.10,a1b2c3-éu.elb.example.com,198.51.100.7   443:31443/TCP   60s   <none>
    "#]],
    );
}

const STATEFUL_SETS: &str = r#"
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  replicas: 3
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: redis, image: "redis:7.4"}, {name: exporter, image: "oliver006/redis_exporter:v1.62.0"}]}
status: {replicas: 2, readyReplicas: 1, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 1}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: default, creationTimestamp: "2026-01-01T00:01:00Z"}
spec:
  serviceName: web
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: "nginx:1.29"}]}
"#;

#[test]
fn stateful_set_columns() {
    check(
        STATEFUL_SETS,
        150_000,
        "get statefulsets",
        expect![[r#"
            $ kubectl get statefulsets
            NAME   READY   AGE
            db     1/3     2m30s
            web    0/1     90s
        "#]],
    );
    check(
        STATEFUL_SETS,
        150_000,
        "get statefulsets -o wide",
        expect![[r#"
            $ kubectl get statefulsets -o wide
            NAME   READY   AGE     CONTAINERS       IMAGES
            db     1/3     2m30s   redis,exporter   redis:7.4,oliver006/redis_exporter:v1.62.0
            web    0/1     90s     nginx            nginx:1.29
        "#]],
    );
}

const DAEMON_SETS: &str = r#"
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: "busybox:1.37"}]}
status: {desiredNumberScheduled: 2, currentNumberScheduled: 2, numberReady: 1, updatedNumberScheduled: 2, numberAvailable: 1, numberMisscheduled: 0}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ssd-driver, namespace: default, creationTimestamp: "2026-01-01T00:02:00Z"}
spec:
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec: {nodeSelector: {ssd: "true"}, containers: [{name: nginx, image: "nginx:1.29"}]}
"#;

#[test]
fn daemon_set_columns() {
    check(
        DAEMON_SETS,
        150_000,
        "get daemonsets",
        expect![[r#"
            $ kubectl get daemonsets
            NAME         DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE
            agent        2         2         1       2            1           <none>          2m30s
            ssd-driver   0         0         0       0            0           ssd=true        30s
        "#]],
    );
    check(
        DAEMON_SETS,
        150_000,
        "get daemonsets -o wide",
        expect![[r#"
            $ kubectl get daemonsets -o wide
            NAME         DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE     CONTAINERS   IMAGES         SELECTOR
            agent        2         2         1       2            1           <none>          2m30s   agent        busybox:1.37   app=agent
            ssd-driver   0         0         0       0            0           ssd=true        30s     nginx        nginx:1.29     app=nginx
        "#]],
    );
}

/// A claim bound to a provisioned volume, one waiting for its first consumer, and a static
/// volume still available, as kind shows them.
const STORAGE: &str = r#"
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: notes, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Mi}}, storageClassName: standard, volumeName: pvc-b4fb1995-3929-4c26-930e-08074d960afb, volumeMode: Filesystem}
status: {phase: Bound, accessModes: [ReadWriteOnce], capacity: {storage: 10Mi}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: waiting, namespace: default, creationTimestamp: "2026-01-01T00:01:00Z"}
spec: {accessModes: [ReadWriteOnce, ReadOnlyMany], resources: {requests: {storage: 1Gi}}, storageClassName: standard, volumeMode: Filesystem}
status: {phase: Pending}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pvc-b4fb1995-3929-4c26-930e-08074d960afb, creationTimestamp: "2026-01-01T00:00:03Z"}
spec:
  accessModes: [ReadWriteOnce]
  capacity: {storage: 10Mi}
  claimRef: {apiVersion: v1, kind: PersistentVolumeClaim, name: notes, namespace: default}
  hostPath: {path: /var/local-path-provisioner/pvc-b4fb1995-3929-4c26-930e-08074d960afb_default_notes, type: DirectoryOrCreate}
  persistentVolumeReclaimPolicy: Delete
  storageClassName: standard
  volumeMode: Filesystem
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-manual, creationTimestamp: "2026-01-01T00:02:00Z"}
spec:
  accessModes: [ReadWriteOnce]
  capacity: {storage: 100Mi}
  hostPath: {path: /srv/manual}
  persistentVolumeReclaimPolicy: Retain
status: {phase: Available}
"#;

#[test]
fn persistent_volume_and_claim_columns() {
    check(
        STORAGE,
        150_000,
        "get pvc",
        expect![[r#"
            $ kubectl get pvc
            NAME      STATUS    VOLUME                                     CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE
            notes     Bound     pvc-b4fb1995-3929-4c26-930e-08074d960afb   10Mi       RWO            standard       <unset>                 2m30s
            waiting   Pending                                                                        standard       <unset>                 90s
        "#]],
    );
    check(
        STORAGE,
        150_000,
        "get pvc -o wide",
        expect![[r#"
            $ kubectl get pvc -o wide
            NAME      STATUS    VOLUME                                     CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE     VOLUMEMODE
            notes     Bound     pvc-b4fb1995-3929-4c26-930e-08074d960afb   10Mi       RWO            standard       <unset>                 2m30s   Filesystem
            waiting   Pending                                                                        standard       <unset>                 90s     Filesystem
        "#]],
    );
    check(
        STORAGE,
        150_000,
        "get pv",
        expect![[r#"
            $ kubectl get pv
            NAME                                       CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS      CLAIM           STORAGECLASS   VOLUMEATTRIBUTESCLASS   REASON   AGE
            pv-manual                                  100Mi      RWO            Retain           Available                                  <unset>                          30s
            pvc-b4fb1995-3929-4c26-930e-08074d960afb   10Mi       RWO            Delete           Bound       default/notes   standard       <unset>                          2m27s
        "#]],
    );
}

const CRON_JOBS: &str = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: hello, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  schedule: "*/1 * * * *"
  suspend: false
  jobTemplate:
    spec:
      template:
        spec: {restartPolicy: OnFailure, containers: [{name: hello, image: "busybox:1.37"}]}
status:
  active: [{kind: Job, namespace: default, name: hello-29453762, apiVersion: batch/v1}]
  lastScheduleTime: "2026-01-01T00:02:00Z"
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: default, creationTimestamp: "2026-01-01T00:01:00Z"}
spec:
  schedule: "0 9 * * 1-5"
  timeZone: Asia/Tokyo
  jobTemplate:
    spec:
      selector: {matchLabels: {app: report}}
      template:
        metadata: {labels: {app: report}}
        spec: {restartPolicy: Never, containers: [{name: report, image: "python:3.13"}]}
"#;

#[test]
fn cron_job_columns() {
    check(
        CRON_JOBS,
        150_000,
        "get cronjobs",
        expect![[r#"
        $ kubectl get cronjobs
        NAME     SCHEDULE      TIMEZONE     SUSPEND   ACTIVE   LAST SCHEDULE   AGE
        hello    */1 * * * *   <none>       False     1        30s             2m30s
        report   0 9 * * 1-5   Asia/Tokyo   <unset>   0        <none>          90s
    "#]],
    );
    check(
        CRON_JOBS,
        150_000,
        "get cronjobs -o wide",
        expect![[r#"
        $ kubectl get cronjobs -o wide
        NAME     SCHEDULE      TIMEZONE     SUSPEND   ACTIVE   LAST SCHEDULE   AGE     CONTAINERS   IMAGES         SELECTOR
        hello    */1 * * * *   <none>       False     1        30s             2m30s   hello        busybox:1.37   <none>
        report   0 9 * * 1-5   Asia/Tokyo   <unset>   0        <none>          90s     report       python:3.13    app=report
    "#]],
    );
}

/// A lab run of `manifest` (the built-in kind cluster, seed 1), to describe the objects as
/// the controllers left them.
fn lab_run(manifest: &str, file: &str) -> crate::lab::Run {
    crate::lab::run(&crate::lab::LabInput::new(manifest, file)).expect("the lab runs")
}

/// The cluster at the end of `run`, seen when the run ended.
fn at_end(run: &crate::lab::Run) -> Snapshot<'_> {
    Snapshot::new(run.store(), run.final_revision, run.end_ms)
}

const STATEFUL_SET_EXAMPLE: &str = include_str!("../../../../examples/statefulset/app.yaml");

#[test]
fn describe_the_statefulset_example() {
    let run = lab_run(STATEFUL_SET_EXAMPLE, "app.yaml");
    let s = at_end(&run);
    assert_eq!(s.describe_statefulset("default", "nope"), None);
    expect![[r#"
        Name:               db
        Namespace:          default
        CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000
        Selector:           app=db
        Labels:             <none>
        Annotations:        <none>
        Replicas:           2 desired | 2 total
        Update Strategy:    RollingUpdate
          Partition:        0
          MaxUnavailable:   1
        Pods Status:        2 Running / 0 Waiting / 0 Succeeded / 0 Failed
        Pod Template:
          Labels:  app=db
          Containers:
           redis:
            Image:         redis:7.4
            Port:          6379/TCP (redis)
            Host Port:     0/TCP (redis)
            Readiness:     tcp-socket :6379 delay=2s timeout=1s period=5s successThreshold=1 failureThreshold=3
            Environment:   <none>
            Mounts:        <none>
          Volumes:         <none>
          Node-Selectors:  <none>
          Tolerations:     <none>
        Volume Claims:     <none>
        Events:
          Type    Reason            Age   From                    Message
          ----    ------            ----  ----                    -------
          Normal  SuccessfulCreate  75s   statefulset-controller  create Pod db-0 in StatefulSet db successful
          Normal  SuccessfulCreate  70s   statefulset-controller  create Pod db-1 in StatefulSet db successful
    "#]]
    .assert_eq(&s.describe_statefulset("default", "db").expect("db exists"));
}

#[test]
fn describe_a_statefulset_with_claim_templates_and_its_claim_and_volume() {
    let manifest = STATEFUL_SET_EXAMPLE.replace("  replicas: 2\n", "  replicas: 1\n")
        + "  volumeClaimTemplates:\n  - metadata:\n      name: data\n      labels:\n        tier: cache\n    spec:\n      accessModes: [ReadWriteOnce]\n      resources:\n        requests:\n          storage: 1Gi\n";
    let run = lab_run(&manifest, "app.yaml");
    let s = at_end(&run);
    expect![[r#"
        Name:               db
        Namespace:          default
        CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000
        Selector:           app=db
        Labels:             <none>
        Annotations:        <none>
        Replicas:           1 desired | 1 total
        Update Strategy:    RollingUpdate
          Partition:        0
          MaxUnavailable:   1
        Pods Status:        1 Running / 0 Waiting / 0 Succeeded / 0 Failed
        Pod Template:
          Labels:  app=db
          Containers:
           redis:
            Image:         redis:7.4
            Port:          6379/TCP (redis)
            Host Port:     0/TCP (redis)
            Readiness:     tcp-socket :6379 delay=2s timeout=1s period=5s successThreshold=1 failureThreshold=3
            Environment:   <none>
            Mounts:        <none>
          Volumes:         <none>
          Node-Selectors:  <none>
          Tolerations:     <none>
        Volume Claims:
          Name:          data
          StorageClass:  
          Labels:        tier=cache
          Annotations:   <none>
          Capacity:      1Gi
          Access Modes:  [ReadWriteOnce]
        Events:
          Type    Reason            Age   From                    Message
          ----    ------            ----  ----                    -------
          Normal  SuccessfulCreate  70s   statefulset-controller  create Claim data-db-0 Pod db-0 in StatefulSet db success
          Normal  SuccessfulCreate  70s   statefulset-controller  create Pod db-0 in StatefulSet db successful
    "#]].assert_eq(&s.describe_statefulset("default", "db").expect("db exists"));
    expect![[r#"
        Name:          data-db-0
        Namespace:     default
        StorageClass:  standard
        Status:        Bound
        Volume:        pvc-2ac2ce17-a579-4a3b-a534-a6a6b7fd0b63
        Labels:        app=db
                       tier=cache
        Annotations:   pv.kubernetes.io/bind-completed: yes
                       pv.kubernetes.io/bound-by-controller: yes
                       volume.beta.kubernetes.io/storage-provisioner: rancher.io/local-path
                       volume.kubernetes.io/selected-node: kind-worker2
                       volume.kubernetes.io/storage-provisioner: rancher.io/local-path
        Finalizers:    [kubernetes.io/pvc-protection]
        Capacity:      1Gi
        Access Modes:  RWO
        VolumeMode:    Filesystem
        Used By:       db-0
        Events:
          Type    Reason                 Age   From                                                                                                Message
          ----    ------                 ----  ----                                                                                                -------
          Normal  WaitForFirstConsumer   70s   persistentvolume-controller                                                                         waiting for first consumer to be created before binding
          Normal  ExternalProvisioning   70s   persistentvolume-controller                                                                         Waiting for a volume to be created either by the external provisioner 'rancher.io/local-path' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.
          Normal  Provisioning           70s   rancher.io/local-path_local-path-provisioner-7dc846544d-x4vzb_0b8c3f2e-5a1d-4f6e-9c7b-2d4e6f8a1b3c  External provisioner is provisioning volume for claim "default/data-db-0"
          Normal  ProvisioningSucceeded  68s   rancher.io/local-path_local-path-provisioner-7dc846544d-x4vzb_0b8c3f2e-5a1d-4f6e-9c7b-2d4e6f8a1b3c  Successfully provisioned volume pvc-2ac2ce17-a579-4a3b-a534-a6a6b7fd0b63
    "#]].assert_eq(&s.describe_pvc("default", "data-db-0").expect("the claim exists"));
}

#[test]
fn describe_the_daemonset_example() {
    let run = lab_run(include_str!("../../../../examples/daemonset/agent.yaml"), "agent.yaml");
    let s = at_end(&run);
    assert_eq!(s.describe_daemonset("default", "nope"), None);
    expect![[r#"
        Name:           node-agent
        Namespace:      default
        Selector:       app=node-agent
        Node-Selector:  <none>
        Labels:         app=node-agent
        Annotations:    deprecated.daemonset.template.generation: 1
        Desired Number of Nodes Scheduled: 2
        Current Number of Nodes Scheduled: 2
        Number of Nodes Scheduled with Up-to-date Pods: 2
        Number of Nodes Scheduled with Available Pods: 2
        Number of Nodes Misscheduled: 0
        Pods Status:  2 Running / 0 Waiting / 0 Succeeded / 0 Failed
        Pod Template:
          Labels:  app=node-agent
          Containers:
           agent:
            Image:      busybox:1.37
            Port:       <none>
            Host Port:  <none>
            Command:
              sh
              -c
              while true; do sleep 3600; done
            Environment:   <none>
            Mounts:        <none>
          Volumes:         <none>
          Node-Selectors:  <none>
          Tolerations:     <none>
        Events:
          Type    Reason            Age   From                  Message
          ----    ------            ----  ----                  -------
          Normal  SuccessfulCreate  65s   daemonset-controller  Created pod: node-agent-vqspg
          Normal  SuccessfulCreate  65s   daemonset-controller  Created pod: node-agent-rzc9v
    "#]]
    .assert_eq(&s.describe_daemonset("default", "node-agent").expect("exists"));
}

#[test]
fn describe_the_cronjob_example() {
    let run = lab_run(include_str!("../../../../examples/cronjob/hello.yaml"), "hello.yaml");
    let s = at_end(&run);
    assert_eq!(s.describe_cronjob("default", "nope"), None);
    expect![[r#"
        Name:                          hello
        Namespace:                     default
        Labels:                        <none>
        Annotations:                   <none>
        Schedule:                      */1 * * * *
        Concurrency Policy:            Allow
        Suspend:                       False
        Time Zone:                     <unset>
        Successful Job History Limit:  3
        Failed Job History Limit:      1
        Starting Deadline Seconds:     <unset>
        Selector:                      <unset>
        Parallelism:                   <unset>
        Completions:                   <unset>
        Pod Template:
          Labels:  <none>
          Containers:
           hello:
            Image:      busybox:1.37
            Port:       <none>
            Host Port:  <none>
            Command:
              sh
              -c
              date; echo Hello from the Kubernetes cluster
            Environment:     <none>
            Mounts:          <none>
          Volumes:           <none>
          Node-Selectors:    <none>
          Tolerations:       <none>
        Last Schedule Time:  Thu, 01 Jan 2026 00:04:00 +0000
        Active Jobs:         <none>
        Events:
          Type    Reason            Age    From                Message
          ----    ------            ----   ----                -------
          Normal  SuccessfulCreate  4m     cronjob-controller  Created job hello-29453761
          Normal  SawCompletedJob   3m59s  cronjob-controller  Saw completed job: hello-29453761, condition: Complete
          Normal  SuccessfulCreate  3m     cronjob-controller  Created job hello-29453762
          Normal  SawCompletedJob   2m59s  cronjob-controller  Saw completed job: hello-29453762, condition: Complete
          Normal  SuccessfulCreate  2m     cronjob-controller  Created job hello-29453763
          Normal  SawCompletedJob   119s   cronjob-controller  Saw completed job: hello-29453763, condition: Complete
          Normal  SuccessfulCreate  60s    cronjob-controller  Created job hello-29453764
          Normal  SuccessfulDelete  59s    cronjob-controller  Deleted job hello-29453761
          Normal  SawCompletedJob   59s    cronjob-controller  Saw completed job: hello-29453764, condition: Complete
    "#]]
    .assert_eq(&s.describe_cronjob("default", "hello").expect("exists"));
}

#[test]
fn describe_the_provisioned_claim_and_its_volume() {
    let run = lab_run(include_str!("../../../../examples/pvc-provisioned/app.yaml"), "app.yaml");
    let s = at_end(&run);
    assert_eq!(s.describe_pvc("default", "nope"), None);
    assert_eq!(s.describe_pv("nope"), None);
    let claim = s.describe_pvc("default", "notes").expect("the claim exists");
    expect![[r#"
        Name:          notes
        Namespace:     default
        StorageClass:  standard
        Status:        Bound
        Volume:        pvc-910a2dec-8902-4cc1-beeb-8da1658eec67
        Labels:        <none>
        Annotations:   pv.kubernetes.io/bind-completed: yes
                       pv.kubernetes.io/bound-by-controller: yes
                       volume.beta.kubernetes.io/storage-provisioner: rancher.io/local-path
                       volume.kubernetes.io/selected-node: kind-worker2
                       volume.kubernetes.io/storage-provisioner: rancher.io/local-path
        Finalizers:    [kubernetes.io/pvc-protection]
        Capacity:      10Mi
        Access Modes:  RWO
        VolumeMode:    Filesystem
        Used By:       writer
        Events:
          Type    Reason                 Age   From                                                                                                Message
          ----    ------                 ----  ----                                                                                                -------
          Normal  WaitForFirstConsumer   65s   persistentvolume-controller                                                                         waiting for first consumer to be created before binding
          Normal  ExternalProvisioning   65s   persistentvolume-controller                                                                         Waiting for a volume to be created either by the external provisioner 'rancher.io/local-path' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.
          Normal  Provisioning           65s   rancher.io/local-path_local-path-provisioner-7dc846544d-x4vzb_0b8c3f2e-5a1d-4f6e-9c7b-2d4e6f8a1b3c  External provisioner is provisioning volume for claim "default/notes"
          Normal  ProvisioningSucceeded  63s   rancher.io/local-path_local-path-provisioner-7dc846544d-x4vzb_0b8c3f2e-5a1d-4f6e-9c7b-2d4e6f8a1b3c  Successfully provisioned volume pvc-910a2dec-8902-4cc1-beeb-8da1658eec67
    "#]].assert_eq(&claim);
    let volume = s.list("PersistentVolume", None).first().map(|o| o.name().to_string()).expect("a volume");
    expect![[r#"
        Name:              pvc-910a2dec-8902-4cc1-beeb-8da1658eec67
        Labels:            <none>
        Annotations:       local.path.provisioner/selected-node: kind-worker2
                           pv.kubernetes.io/provisioned-by: rancher.io/local-path
        Finalizers:        [kubernetes.io/pv-protection]
        StorageClass:      standard
        Status:            Bound
        Claim:             default/notes
        Reclaim Policy:    Delete
        Access Modes:      RWO
        VolumeMode:        Filesystem
        Capacity:          10Mi
        Node Affinity:     
          Required Terms:  
            Term 0:        kubernetes.io/hostname in [kind-worker2]
        Message:           
        Source:
            Type:          HostPath (bare host directory volume)
            Path:          /var/local-path-provisioner/pvc-910a2dec-8902-4cc1-beeb-8da1658eec67_default_notes
            HostPathType:  DirectoryOrCreate
        Events:            <none>
    "#]]
    .assert_eq(&s.describe_pv(&volume).expect("the volume exists"));
}

/// What the lab's runs do not produce: an OnDelete StatefulSet, a DaemonSet with a node
/// selector whose pods are pending or owned by someone else, a CronJob setting every policy
/// with an active Job, claims pending and terminating with conditions, volumes with a local
/// or an unmodelled source and none or an empty node affinity.
const DESCRIBE_EDGES: &str = r#"
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: default, uid: 5e5e5e5e-0000-4000-8000-000000000001, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  replicas: 3
  selector: {matchExpressions: [{key: app, operator: In, values: [web, www]}]}
  updateStrategy: {type: OnDelete}
  template:
    metadata: {labels: {app: web}, annotations: {team: blue}}
    spec: {containers: [{name: nginx, image: "nginx:1.29"}]}
  volumeClaimTemplates:
  - metadata: {name: www, annotations: {volume.beta.kubernetes.io/storage-class: fast}}
    spec: {accessModes: [ReadWriteOnce, ReadOnlyMany]}
status: {replicas: 2}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-0
  namespace: default
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: web, uid: 5e5e5e5e-0000-4000-8000-000000000001, controller: true}]
spec: {containers: [{name: nginx, image: "nginx:1.29"}]}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: default
  labels: {app: www}
  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: web, uid: 5e5e5e5e-0000-4000-8000-000000000001, controller: true}]
spec: {containers: [{name: nginx, image: "nginx:1.29"}]}
status: {phase: Pending}
---
apiVersion: v1
kind: Pod
metadata: {name: stray, namespace: default, labels: {app: web}}
spec:
  containers: [{name: nginx, image: "nginx:1.29"}]
  volumes:
  - {name: a, persistentVolumeClaim: {claimName: leaving}}
  - {name: b, persistentVolumeClaim: {claimName: leaving}}
status: {phase: Failed}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ssd, namespace: default, uid: 5e5e5e5e-0000-4000-8000-000000000002, labels: {app: ssd, tier: node}}
spec:
  selector: {matchLabels: {app: ssd}}
  template:
    metadata: {labels: {app: ssd}}
    spec: {nodeSelector: {disk: ssd, zone: a}, containers: [{name: driver, image: "busybox:1.37"}], tolerations: [{operator: Exists}]}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: default}
spec:
  schedule: "0 9 * * 1-5"
  timeZone: Asia/Tokyo
  concurrencyPolicy: Forbid
  suspend: true
  startingDeadlineSeconds: 200
  successfulJobsHistoryLimit: 0
  failedJobsHistoryLimit: 2
  jobTemplate:
    spec:
      selector: {matchLabels: {app: report}}
      parallelism: 2
      completions: 4
      activeDeadlineSeconds: 600
      template:
        metadata: {labels: {app: report}}
        spec: {restartPolicy: Never, containers: [{name: report, image: "python:3.13"}]}
status:
  active: [{kind: Job, namespace: default, name: report-29453760}, {kind: Job, namespace: default, name: report-29453820}]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: waiting, namespace: default, creationTimestamp: "2026-01-01T00:01:00Z"}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: standard, dataSource: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: snap}}
status: {phase: Pending}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: leaving, namespace: default, deletionTimestamp: "2026-01-01T00:02:00Z", finalizers: [kubernetes.io/pvc-protection]}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, volumeName: pv-local}
status:
  phase: Bound
  accessModes: [ReadWriteOnce]
  capacity: {storage: 2Gi}
  conditions: [{type: FileSystemResizePending, status: "True", lastTransitionTime: "2026-01-01T00:01:30Z"}]
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-local, finalizers: [kubernetes.io/pv-protection, example.com/keep]}
spec:
  capacity: {storage: 2Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  claimRef: {namespace: default, name: leaving}
  local: {path: /mnt/disks/ssd1}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: kubernetes.io/hostname, operator: In, values: [kind-worker, kind-worker2]}
        - {key: disk, operator: Exists}
      - {}
status: {phase: Bound, message: still in use}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-cloud, deletionTimestamp: "2026-01-01T00:01:00Z"}
spec:
  awsElasticBlockStore: {volumeID: vol-1}
  nodeAffinity: {required: {nodeSelectorTerms: []}}
status: {phase: Released}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-plain}
spec: {nfs: {server: nfs.example.com, path: /exports}}
status: {phase: Available}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-csi}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany, ReadWriteOnce]
  volumeMode: Block
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-0a1b, volumeAttributes: {type: gp3, iops: "3000"}}
status: {phase: Available}
"#;

#[test]
fn describe_what_the_runs_leave_unset() {
    check(
        DESCRIBE_EDGES,
        150_000,
        "describe statefulset web",
        expect![[r#"
        $ kubectl describe statefulset web
        Name:               web
        Namespace:          default
        CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000
        Selector:           app in (web,www)
        Labels:             <none>
        Annotations:        <none>
        Replicas:           3 desired | 2 total
        Update Strategy:    OnDelete
        Pods Status:        1 Running / 1 Waiting / 0 Succeeded / 0 Failed
        Pod Template:
          Labels:       app=web
          Annotations:  team: blue
          Containers:
           nginx:
            Image:         nginx:1.29
            Port:          <none>
            Host Port:     <none>
            Environment:   <none>
            Mounts:        <none>
          Volumes:         <none>
          Node-Selectors:  <none>
          Tolerations:     <none>
        Volume Claims:
          Name:          www
          StorageClass:  fast
          Labels:        <none>
          Annotations:   volume.beta.kubernetes.io/storage-class=fast
          Capacity:      <default>
          Access Modes:  [ReadWriteOnce ReadOnlyMany]
        Events:          <none>
    "#]],
    );
    check(
        DESCRIBE_EDGES,
        150_000,
        "describe daemonset ssd",
        expect![[r#"
        $ kubectl describe daemonset ssd
        Name:           ssd
        Namespace:      default
        Selector:       app=ssd
        Node-Selector:  disk=ssd,zone=a
        Labels:         app=ssd
                        tier=node
        Annotations:    <none>
        Desired Number of Nodes Scheduled: 0
        Current Number of Nodes Scheduled: 0
        Number of Nodes Scheduled with Up-to-date Pods: 0
        Number of Nodes Scheduled with Available Pods: 0
        Number of Nodes Misscheduled: 0
        Pods Status:  0 Running / 0 Waiting / 0 Succeeded / 0 Failed
        Pod Template:
          Labels:  app=ssd
          Containers:
           driver:
            Image:         busybox:1.37
            Port:          <none>
            Host Port:     <none>
            Environment:   <none>
            Mounts:        <none>
          Volumes:         <none>
          Node-Selectors:  disk=ssd
                           zone=a
          Tolerations:     op=Exists
        Events:            <none>
    "#]],
    );
    check(
        DESCRIBE_EDGES,
        150_000,
        "describe cronjob report",
        expect![[r#"
        $ kubectl describe cronjob report
        Name:                          report
        Namespace:                     default
        Labels:                        <none>
        Annotations:                   <none>
        Schedule:                      0 9 * * 1-5
        Concurrency Policy:            Forbid
        Suspend:                       True
        Time Zone:                     Asia/Tokyo
        Successful Job History Limit:  0
        Failed Job History Limit:      2
        Starting Deadline Seconds:     200s
        Selector:                      app=report
        Parallelism:                   2
        Completions:                   4
        Active Deadline Seconds:       600s
        Pod Template:
          Labels:  app=report
          Containers:
           report:
            Image:           python:3.13
            Port:            <none>
            Host Port:       <none>
            Environment:     <none>
            Mounts:          <none>
          Volumes:           <none>
          Node-Selectors:    <none>
          Tolerations:       <none>
        Last Schedule Time:  <unset>
        Active Jobs:         report-29453760, report-29453820
        Events:              <none>
    "#]],
    );
    check(
        DESCRIBE_EDGES,
        150_000,
        "describe pvc waiting",
        expect![[r#"
        $ kubectl describe pvc waiting
        Name:          waiting
        Namespace:     default
        StorageClass:  standard
        Status:        Pending
        Volume:        
        Labels:        <none>
        Annotations:   <none>
        Finalizers:    []
        Capacity:      
        Access Modes:  
        DataSource:
          APIGroup:  snapshot.storage.k8s.io
          Kind:      VolumeSnapshot
          Name:      snap
        Used By:     <none>
        Events:      <none>
    "#]],
    );
    check(
        DESCRIBE_EDGES,
        150_000,
        "describe pvc leaving",
        expect![[r#"
        $ kubectl describe pvc leaving
        Name:          leaving
        Namespace:     default
        StorageClass:  
        Status:        Terminating (lasts 30s)
        Volume:        pv-local
        Labels:        <none>
        Annotations:   <none>
        Finalizers:    [kubernetes.io/pvc-protection]
        Capacity:      2Gi
        Access Modes:  RWO
        Used By:       stray
                       stray
        Conditions:
          Type                      Status  LastProbeTime                     LastTransitionTime                Reason  Message
          ----                      ------  -----------------                 ------------------                ------  -------
          FileSystemResizePending   True    Mon, 01 Jan 0001 00:00:00 +0000   Thu, 01 Jan 2026 00:01:30 +0000           
        Events:                     <none>
    "#]],
    );
    check(
        DESCRIBE_EDGES,
        150_000,
        "describe pv pv-local",
        expect![[r#"
        $ kubectl describe pv pv-local
        Name:              pv-local
        Labels:            <none>
        Annotations:       <none>
        Finalizers:        [kubernetes.io/pv-protection example.com/keep]
        StorageClass:      
        Status:            Bound
        Claim:             default/leaving
        Reclaim Policy:    Retain
        Access Modes:      RWO
        Capacity:          2Gi
        Node Affinity:     
          Required Terms:  
            Term 0:        kubernetes.io/hostname in [kind-worker, kind-worker2]
                           disk exists
            Term 1:        <none>
        Message:           still in use
        Source:
            Type:  LocalVolume (a persistent volume backed by local storage on a node)
            Path:  /mnt/disks/ssd1
        Events:    <none>
    "#]],
    );
    check(
        DESCRIBE_EDGES,
        150_000,
        "describe pv pv-cloud",
        expect![[r#"
        $ kubectl describe pv pv-cloud
        Name:              pv-cloud
        Labels:            <none>
        Annotations:       <none>
        Finalizers:        []
        StorageClass:      
        Status:            Terminating (lasts 90s)
        Claim:             
        Reclaim Policy:    
        Access Modes:      
        Capacity:          0
        Node Affinity:     
          Required Terms:  <none>
        Message:           
        Source:
          <unknown>
        Events:  <none>
    "#]],
    );
    check(
        DESCRIBE_EDGES,
        150_000,
        "describe pv pv-csi",
        expect![[r#"
        $ kubectl describe pv pv-csi
        Name:            pv-csi
        Labels:          <none>
        Annotations:     <none>
        Finalizers:      []
        StorageClass:    
        Status:          Available
        Claim:           
        Reclaim Policy:  
        Access Modes:    RWO,RWX
        VolumeMode:      Block
        Capacity:        5Gi
        Node Affinity:   <none>
        Message:         
        Source:
            Type:              CSI (a Container Storage Interface (CSI) volume source)
            Driver:            ebs.csi.aws.com
            FSType:            
            VolumeHandle:      vol-0a1b
            ReadOnly:          false
            VolumeAttributes:      iops=3000
                                   type=gp3
        Events:                <none>
    "#]],
    );
    check(
        DESCRIBE_EDGES,
        150_000,
        "describe pv pv-plain",
        expect![[r#"
        $ kubectl describe pv pv-plain
        Name:            pv-plain
        Labels:          <none>
        Annotations:     <none>
        Finalizers:      []
        StorageClass:    
        Status:          Available
        Claim:           
        Reclaim Policy:  
        Access Modes:    
        Capacity:        0
        Node Affinity:   <none>
        Message:         
        Source:
            Type:      NFS (an NFS mount that lasts the lifetime of a pod)
            Server:    nfs.example.com
            Path:      /exports
            ReadOnly:  false
        Events:        <none>
    "#]],
    );
}
