//! Snapshot tests of the node side: a Node and a Pod already bound to it (what the
//! scheduler's binding would leave), the kubelet running until the cluster settles, and
//! the steps it recorded, the Pod's final status and the Events it wrote.

use super::*;
use crate::sim::run_loop;
use crate::world::World;
use expect_test::{expect, Expect};

/// A kind worker node: 8 CPUs, 16Gi, podCIDR 10.244.1.0/24.
const NODE: &str = r#"
apiVersion: v1
kind: Node
metadata:
  name: worker-1
  labels: {kubernetes.io/hostname: worker-1, kubernetes.io/os: linux, kubernetes.io/arch: amd64, disk: ssd}
spec:
  podCIDR: 10.244.1.0/24
  podCIDRs: [10.244.1.0/24]
status:
  addresses: [{type: InternalIP, address: 172.18.0.3}, {type: Hostname, address: worker-1}]
  capacity: {cpu: "8", memory: 16Gi, pods: "110", ephemeral-storage: 100Gi}
  allocatable: {cpu: "8", memory: 16Gi, pods: "110", ephemeral-storage: 100Gi}
  images:
  - names: ["registry.k8s.io/pause@sha256:ee6521f290b2168b6e0935a181d4cff9be1ac3f505666ef0e3c98fae8199917a", "registry.k8s.io/pause:3.10"]
    sizeBytes: 320368
  - names: ["docker.io/library/busybox@sha256:1fa89c01cd0473cedbd1a470abb8c139eeb80920edf1bc55de87851bfb63ea11", "docker.io/library/busybox:1.36"]
    sizeBytes: 2158472
"#;

/// Marks pods for graceful deletion later (`deletes`: time, `ns/name`, grace seconds): a
/// cluster admin's `kubectl delete pod --grace-period=N`, through the API server.
struct Setup {
    deletes: Vec<(u64, String, i64)>,
}

impl Actor<World> for Setup {
    fn handles(&self, t: &Target) -> bool {
        *t == Target::Controller("test-setup")
    }
    fn observe(&mut self, _: &mut World, _: &WatchEvent<Object>) {}
    fn run(&mut self, core: &mut World, task: &Task) {
        if let Some(key) = task.key.strip_prefix("delete|") {
            let grace = self.deletes.iter().find(|d| d.1 == key).map(|d| d.2).unwrap_or(30);
            let (ns, name) = key.split_once('/').unwrap_or(("default", key));
            let admin = apiserver::Caller::kubectl(apiserver::Credential::ClientCertificate {
                common_name: "kubernetes-admin".into(),
                organizations: vec!["system:masters".into()],
            });
            let req = apiserver::ApiRequest {
                caller: admin,
                verb: apiserver::Verb::Delete,
                resource: crate::object::resource_for_kind("Pod").expect("pods"),
                namespace: Some(ns.to_string()),
                name: Some(name.to_string()),
                subresource: None,
                body: Some(apiserver::Body::Json(
                    serde_json::json!({"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": grace}),
                )),
                verbose: false,
                file: None,
            };
            assert!(apiserver::handle(core, req).ok(), "the test's delete of {key} is accepted");
            return;
        }
        for (at, key, _) in &self.deletes {
            core.after(*at, Task::new(Target::Controller("test-setup"), format!("delete|{key}")));
        }
    }
}

fn docs(yaml: &str) -> Vec<serde_json::Value> {
    yaml.split("\n---\n")
        .filter(|d| !d.trim().is_empty())
        .map(|d| serde_yaml::from_str::<serde_json::Value>(d).expect("test yaml"))
        .collect()
}

fn secs(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

/// Runs the kubelet of `worker-1` on `objects` and renders what happened.
fn run(node: &str, objects: &str, config: KubeletConfig, limit_ms: u64, topics: &[&str]) -> String {
    run_scenario(node, objects, config, limit_ms, topics, vec![])
}

fn run_scenario(
    node: &str,
    objects: &str,
    config: KubeletConfig,
    limit_ms: u64,
    topics: &[&str],
    deletes: Vec<(u64, String, i64)>,
) -> String {
    let mut core = World::new(7);
    let mut all = docs(node);
    all.extend(docs(objects));
    let pod_keys: Vec<String> = all
        .iter()
        .filter(|d| d["kind"] == "Pod")
        .map(|d| {
            format!(
                "/registry/pods/{}/{}",
                d["metadata"]["namespace"].as_str().unwrap_or("default"),
                d["metadata"]["name"].as_str().unwrap_or("")
            )
        })
        .collect();
    // The starting cluster as the lab loads it: the namespaces with their ServiceAccount and
    // kube-root-ca.crt, the bootstrap RBAC policy, then the node and the test's objects.
    let cluster = format!("{node}\n---\n{objects}");
    crate::cluster::load(&mut core, Some(&cluster)).expect("the test cluster loads");
    let mut setup = Setup { deletes };
    let mut kubelet = Kubelet::new("worker-1", config);
    kubelet.start(&mut core);
    core.after(0, Task::new(Target::Controller("test-setup"), "create"));
    run_loop(&mut core, &mut [&mut setup, &mut kubelet], limit_ms);
    let mut out = String::new();
    // The API server's own steps for the kubelet's requests are left out when they succeed
    // (every status update and Event is one); a refused write stays in.
    let shown = |s: &&crate::trace::Step| {
        s.node.is_some()
            && !(matches!(s.detail, Detail::Etcd(_) | Detail::ApiCall(_)) && s.status == crate::trace::StepStatus::Ok)
    };
    for s in core.steps.iter().filter(shown) {
        out.push_str(&format!("{:>9} {:<10} {}\n", secs(s.time_ms), s.phase.id(), s.summary));
        if let Detail::Work(w) = &s.detail {
            if topics.contains(&w.topic.as_str()) {
                for (k, v) in &w.facts {
                    out.push_str(&format!("{:>21}{k}: {v}\n", ""));
                }
                for t in &w.tables {
                    out.push_str(&format!("{:>21}[{}] {}\n", "", t.title, t.columns.join(" | ")));
                    for r in &t.rows {
                        out.push_str(&format!("{:>21}  {}\n", "", r.join(" | ")));
                    }
                }
            }
        }
    }
    out.push_str(&format!("-- settled at {}\n", secs(core.now)));
    for pod_key in &pod_keys {
        if pod_keys.len() > 1 {
            out.push_str(&format!("== {}\n", pod_key.trim_start_matches("/registry/pods/")));
        }
        if let Some((Object::Pod(p), _)) = core.store.get(pod_key) {
            let (ready, status, restarts) = status::kubectl_columns(p);
            out.push_str(&format!("kubectl get pod: READY {ready} STATUS {status} RESTARTS {restarts}\n"));
            let st = p.status.clone().unwrap_or_default();
            out.push_str(&format!(
                "phase={} podIP={} hostIP={} qosClass={}{}\n",
                st.phase.unwrap_or_default(),
                st.pod_ip.unwrap_or_else(|| "-".into()),
                st.host_ip.unwrap_or_else(|| "-".into()),
                st.qos_class.unwrap_or_default(),
                st.message.map(|m| format!(" message={m:?}")).unwrap_or_default(),
            ));
            let conds: Vec<String> = st
                .conditions
                .iter()
                .flatten()
                .map(|c| match &c.reason {
                    Some(r) => format!("{}={}({r})", c.type_, c.status),
                    None => format!("{}={}", c.type_, c.status),
                })
                .collect();
            out.push_str(&format!("conditions: {}\n", conds.join(" ")));
            for (label, list) in [("init", &st.init_container_statuses), ("container", &st.container_statuses)] {
                for c in list.iter().flatten() {
                    let state = |s: &Option<k8s_openapi::api::core::v1::ContainerState>| -> String {
                        let Some(s) = s else { return "-".into() };
                        if let Some(w) = &s.waiting {
                            return format!(
                                "waiting {}{}",
                                w.reason.clone().unwrap_or_default(),
                                w.message.as_ref().map(|m| format!(" {m:?}")).unwrap_or_default()
                            );
                        }
                        if s.running.is_some() {
                            return "running".into();
                        }
                        if let Some(t) = &s.terminated {
                            return format!("terminated {} exit={}", t.reason.clone().unwrap_or_default(), t.exit_code);
                        }
                        "{}".into()
                    };
                    out.push_str(&format!(
                        "{label} {}: {} | last: {} | ready={} started={} restarts={} image={}\n",
                        c.name,
                        state(&c.state),
                        state(&c.last_state),
                        c.ready,
                        c.started.unwrap_or(false),
                        c.restart_count,
                        c.image
                    ));
                }
            }
        } else {
            out.push_str("pod is gone\n");
        }
    }
    // Events as `kubectl events` lists them.
    let mut evs: Vec<k8s_openapi::api::core::v1::Event> = core
        .store
        .list("/registry/events/")
        .into_iter()
        .filter_map(|(_, o, _)| match o {
            Object::Event(e) => Some((**e).clone()),
            _ => None,
        })
        .collect();
    evs.sort_by_key(|e| e.metadata.name.clone());
    out.push_str("events:\n");
    for e in evs {
        let count = e.count.unwrap_or(1);
        let times = if count > 1 { format!(" (x{count})") } else { String::new() };
        out.push_str(&format!(
            "  {} {}{times} {}: {}\n",
            e.type_.unwrap_or_default(),
            e.reason.unwrap_or_default(),
            e.involved_object.field_path.unwrap_or_else(|| e.involved_object.kind.unwrap_or_default()),
            e.message.unwrap_or_default()
        ));
    }
    out
}

fn check(node: &str, pod: &str, expect: Expect) {
    expect.assert_eq(&run(node, pod, KubeletConfig::default(), 30 * 60_000, &[]));
}

fn check_with(node: &str, pod: &str, config: KubeletConfig, limit_ms: u64, topics: &[&str], expect: Expect) {
    expect.assert_eq(&run(node, pod, config, limit_ms, topics));
}

/// A Pod as the API server stores it after admission (ServiceAccount volume, defaults) and
/// the scheduler's binding.
fn pod(name: &str, spec: &str) -> String {
    format!(
        r#"apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:
  nodeName: worker-1
  restartPolicy: Always
  terminationGracePeriodSeconds: 30
{spec}
status:
  phase: Pending
  conditions: [{{type: PodScheduled, status: "True", lastTransitionTime: "2026-01-01T00:00:00Z"}}]
"#
    )
}

#[test]
fn nginx_pod_runs_and_becomes_ready() {
    check(
        NODE,
        &pod(
            "web",
            r#"  containers:
  - name: web
    image: nginx:1.29
    imagePullPolicy: IfNotPresent
    ports: [{containerPort: 80}]
    volumeMounts: [{name: kube-api-access-x7k2p, mountPath: /var/run/secrets/kubernetes.io/serviceaccount, readOnly: true}]
  volumes:
  - name: kube-api-access-x7k2p
    projected:
      defaultMode: 420
      sources:
      - serviceAccountToken: {expirationSeconds: 3607, path: token}
      - configMap: {name: kube-root-ca.crt, items: [{key: ca.crt, path: ca.crt}]}
      - downwardAPI: {items: [{path: namespace, fieldRef: {apiVersion: v1, fieldPath: metadata.namespace}}]}"#,
        ),
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/web bound to its node
               0.002s kubelet    kubelet admits pod default/web
               0.002s kubelet    QoS class of default/web: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
               0.122s kubelet    kubelet mounts volume "kube-api-access-x7k2p" (projected)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/web
               0.272s cni        CNI ADD (ptp): default/web gets 10.244.1.2
               0.402s runtime    sandbox of default/web is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "nginx:1.29"
               0.402s runtime    containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
               2.748s runtime    kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
               2.748s status     kubelet reports the node's images (node.status.images)
               2.808s containers kubelet records Normal Created: Container created
               2.898s containers kubelet records Normal Started: Container started
               2.898s containers container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
               3.000s status     kubelet updates status of default/web: Running (1/1 ready, Running)
            -- settled at 70.000s
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 0
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            container web: running | last: {} | ready=true started=true restarts=0 image=docker.io/library/nginx:1.29
            events:
              Normal Pulling spec.containers{web}: Pulling image "nginx:1.29"
              Normal Pulled spec.containers{web}: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
              Normal Created spec.containers{web}: Container created
              Normal Started spec.containers{web}: Container started
        "#]],
    );
}

#[test]
fn image_tag_typo_goes_into_image_pull_back_off() {
    check_with(
        NODE,
        &pod("web", "  containers:\n  - {name: web, image: nginx:1.99, imagePullPolicy: IfNotPresent}"),
        KubeletConfig::default(),
        200_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/web bound to its node
               0.002s kubelet    kubelet admits pod default/web
               0.002s kubelet    QoS class of default/web: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/web
               0.272s cni        CNI ADD (ptp): default/web gets 10.244.1.2
               0.402s runtime    sandbox of default/web is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "nginx:1.99"
               0.402s runtime    containerd cannot pull "nginx:1.99"
               0.852s runtime    kubelet records Warning Failed: Failed to pull image "nginx:1.99": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.99": failed to resolve reference "docker.io/library/nginx:1.99": docker.io/library/nginx:1.99: not found
               0.852s runtime    kubelet records Warning Failed: Error: ErrImagePull
               0.852s status     kubelet updates status of default/web: Pending (0/1 ready, ErrImagePull)
               1.000s runtime    kubelet records Normal BackOff: Back-off pulling image "nginx:1.99"
               1.000s runtime    kubelet records Warning Failed: Error: ImagePullBackOff
               1.000s status     kubelet updates status of default/web: Pending (0/1 ready, ImagePullBackOff)
              10.852s runtime    kubelet records Normal Pulling (x2): Pulling image "nginx:1.99"
              10.852s runtime    containerd cannot pull "nginx:1.99"
              11.302s runtime    kubelet records Warning Failed (x2): Failed to pull image "nginx:1.99": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.99": failed to resolve reference "docker.io/library/nginx:1.99": docker.io/library/nginx:1.99: not found
              11.302s runtime    kubelet records Warning Failed (x2): Error: ErrImagePull
              11.302s status     kubelet updates status of default/web: Pending (0/1 ready, ErrImagePull)
              12.000s runtime    kubelet records Normal BackOff (x2): Back-off pulling image "nginx:1.99"
              12.000s runtime    kubelet records Warning Failed (x2): Error: ImagePullBackOff
              12.000s status     kubelet updates status of default/web: Pending (0/1 ready, ImagePullBackOff)
              31.302s runtime    kubelet records Normal Pulling (x3): Pulling image "nginx:1.99"
              31.302s runtime    containerd cannot pull "nginx:1.99"
              31.752s runtime    kubelet records Warning Failed (x3): Failed to pull image "nginx:1.99": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.99": failed to resolve reference "docker.io/library/nginx:1.99": docker.io/library/nginx:1.99: not found
              31.752s runtime    kubelet records Warning Failed (x3): Error: ErrImagePull
              31.752s status     kubelet updates status of default/web: Pending (0/1 ready, ErrImagePull)
              32.000s runtime    kubelet records Normal BackOff (x3): Back-off pulling image "nginx:1.99"
              32.000s runtime    kubelet records Warning Failed (x3): Error: ImagePullBackOff
              32.000s status     kubelet updates status of default/web: Pending (0/1 ready, ImagePullBackOff)
              71.752s runtime    kubelet records Normal Pulling (x4): Pulling image "nginx:1.99"
              71.752s runtime    containerd cannot pull "nginx:1.99"
              72.202s runtime    kubelet records Warning Failed (x4): Failed to pull image "nginx:1.99": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.99": failed to resolve reference "docker.io/library/nginx:1.99": docker.io/library/nginx:1.99: not found
              72.202s runtime    kubelet records Warning Failed (x4): Error: ErrImagePull
              72.202s status     kubelet updates status of default/web: Pending (0/1 ready, ErrImagePull)
              73.000s runtime    kubelet records Normal BackOff (x4): Back-off pulling image "nginx:1.99"
              73.000s runtime    kubelet records Warning Failed (x4): Error: ImagePullBackOff
              73.000s status     kubelet updates status of default/web: Pending (0/1 ready, ImagePullBackOff)
            -- settled at 140.000s
            kubectl get pod: READY 0/1 STATUS ImagePullBackOff RESTARTS 0
            phase=Pending podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container web: waiting ImagePullBackOff "Back-off pulling image \"nginx:1.99\": ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/nginx:1.99\": failed to resolve reference \"docker.io/library/nginx:1.99\": docker.io/library/nginx:1.99: not found" | last: {} | ready=false started=false restarts=0 image=nginx:1.99
            events:
              Normal Pulling (x4) spec.containers{web}: Pulling image "nginx:1.99"
              Warning Failed (x4) spec.containers{web}: Failed to pull image "nginx:1.99": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.99": failed to resolve reference "docker.io/library/nginx:1.99": docker.io/library/nginx:1.99: not found
              Warning Failed (x4) spec.containers{web}: Error: ErrImagePull
              Normal BackOff (x4) spec.containers{web}: Back-off pulling image "nginx:1.99"
              Warning Failed (x4) spec.containers{web}: Error: ImagePullBackOff
        "#]],
    );
}

#[test]
fn busybox_without_command_crash_loops() {
    check_with(
        NODE,
        &pod("box", "  containers:\n  - {name: box, image: busybox:1.36, imagePullPolicy: IfNotPresent}"),
        KubeletConfig::default(),
        400_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/box bound to its node
               0.002s kubelet    kubelet admits pod default/box
               0.002s kubelet    QoS class of default/box: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/box: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/box
               0.272s cni        CNI ADD (ptp): default/box gets 10.244.1.2
               0.402s runtime    sandbox of default/box is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.462s containers kubelet records Normal Created: Container created
               0.552s containers kubelet records Normal Started: Container started
               0.552s containers container "box" is running: sh (an interactive shell) reads commands from stdin; a container has no stdin or TTY unless `stdin`/`tty` is set, so it reads end-of-file and exits 0 at once
               0.567s containers container "box" exited with code 0 (Completed) after 15ms
               1.000s runtime    kubelet records Normal Pulled (x2): Container image "busybox:1.36" already present on machine and can be accessed by the pod
               1.000s status     kubelet updates status of default/box: Running (0/1 ready, Completed)
               1.060s containers kubelet records Normal Created (x2): Container created
               1.150s containers kubelet records Normal Started (x2): Container started
               1.150s containers container "box" is running: sh (an interactive shell) reads commands from stdin; a container has no stdin or TTY unless `stdin`/`tty` is set, so it reads end-of-file and exits 0 at once
               1.165s containers container "box" exited with code 0 (Completed) after 15ms
               2.000s containers kubelet records Warning BackOff: Back-off restarting failed container box in pod box_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
               2.000s status     kubelet updates status of default/box: Running (0/1 ready, CrashLoopBackOff, 1 restarts)
              11.165s runtime    kubelet records Normal Pulled (x3): Container image "busybox:1.36" already present on machine and can be accessed by the pod
              11.225s containers kubelet records Normal Created (x3): Container created
              11.315s containers kubelet records Normal Started (x3): Container started
              11.315s containers container "box" is running: sh (an interactive shell) reads commands from stdin; a container has no stdin or TTY unless `stdin`/`tty` is set, so it reads end-of-file and exits 0 at once
              11.330s containers container "box" exited with code 0 (Completed) after 15ms
              12.000s containers kubelet records Warning BackOff (x2): Back-off restarting failed container box in pod box_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
              12.000s status     kubelet updates status of default/box: Running (0/1 ready, CrashLoopBackOff, 2 restarts)
              31.330s runtime    kubelet records Normal Pulled (x4): Container image "busybox:1.36" already present on machine and can be accessed by the pod
              31.390s containers kubelet records Normal Created (x4): Container created
              31.480s containers kubelet records Normal Started (x4): Container started
              31.480s containers container "box" is running: sh (an interactive shell) reads commands from stdin; a container has no stdin or TTY unless `stdin`/`tty` is set, so it reads end-of-file and exits 0 at once
              31.495s containers container "box" exited with code 0 (Completed) after 15ms
              32.000s containers kubelet records Warning BackOff (x3): Back-off restarting failed container box in pod box_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
              32.000s status     kubelet updates status of default/box: Running (0/1 ready, CrashLoopBackOff, 3 restarts)
              71.495s runtime    kubelet records Normal Pulled (x5): Container image "busybox:1.36" already present on machine and can be accessed by the pod
              71.555s containers kubelet records Normal Created (x5): Container created
              71.645s containers kubelet records Normal Started (x5): Container started
              71.645s containers container "box" is running: sh (an interactive shell) reads commands from stdin; a container has no stdin or TTY unless `stdin`/`tty` is set, so it reads end-of-file and exits 0 at once
              71.660s containers container "box" exited with code 0 (Completed) after 15ms
              72.000s containers kubelet records Warning BackOff (x4): Back-off restarting failed container box in pod box_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
              72.000s status     kubelet updates status of default/box: Running (0/1 ready, CrashLoopBackOff, 4 restarts)
            -- settled at 140.000s
            kubectl get pod: READY 0/1 STATUS CrashLoopBackOff RESTARTS 4
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container box: waiting CrashLoopBackOff "back-off 1m20s restarting failed container=box pod=box_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)" | last: terminated Completed exit=0 | ready=false started=false restarts=4 image=docker.io/library/busybox:1.36
            events:
              Normal Pulled (x5) spec.containers{box}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created (x5) spec.containers{box}: Container created
              Normal Started (x5) spec.containers{box}: Container started
              Warning BackOff (x4) spec.containers{box}: Back-off restarting failed container box in pod box_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
        "#]],
    );
}

#[test]
fn job_like_pod_completes() {
    check(
        NODE,
        &pod(
            "once",
            "  containers:\n  - {name: once, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sleep, \"5\"]}",
        )
        .replace("restartPolicy: Always", "restartPolicy: Never"),
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/once bound to its node
               0.002s kubelet    kubelet admits pod default/once
               0.002s kubelet    QoS class of default/once: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/once: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/once
               0.272s cni        CNI ADD (ptp): default/once gets 10.244.1.2
               0.402s runtime    sandbox of default/once is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.462s containers kubelet records Normal Created: Container created
               0.552s containers kubelet records Normal Started: Container started
               0.552s containers container "once" is running: sleeps 5s and exits 0
               1.000s status     kubelet updates status of default/once: Running (1/1 ready, Running)
               5.552s containers container "once" exited with code 0 (Completed) after 5s
               6.000s containers pod default/once is finished: Succeeded
               6.000s cni        CNI DEL: default/once releases 10.244.1.2
               6.000s status     kubelet updates status of default/once: Succeeded (0/1 ready, Completed)
            -- settled at 70.000s
            kubectl get pod: READY 0/1 STATUS Completed RESTARTS 0
            phase=Succeeded podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=False Initialized=True Ready=False(PodCompleted) ContainersReady=False(PodCompleted) PodScheduled=True
            container once: terminated Completed exit=0 | last: {} | ready=false started=false restarts=0 image=docker.io/library/busybox:1.36
            events:
              Normal Pulled spec.containers{once}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created spec.containers{once}: Container created
              Normal Started spec.containers{once}: Container started
        "#]],
    );
}

/// `cat` of a file a configMap volume provides prints it and exits 0 (the container
/// completes); a file the ConfigMap does not have fails as in a real container.
#[test]
fn cat_reads_a_file_from_a_config_map_volume() {
    let config_map = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app-config, namespace: default}\ndata: {app.properties: \"mode=lab\"}\n---\n";
    let once = |name: &str, file: &str| {
        pod(
            name,
            &format!(
                r#"  containers:
  - name: show
    image: busybox:1.36
    imagePullPolicy: IfNotPresent
    command: [cat, /config/{file}]
    volumeMounts: [{{name: config, mountPath: /config}}]
  volumes:
  - name: config
    configMap: {{name: app-config}}"#
            ),
        )
        .replace("restartPolicy: Always", "restartPolicy: Never")
    };
    // The end state of a run: the `kubectl get pod` row and the container's status.
    let outcome = |objects: String| {
        let out = run(NODE, &objects, KubeletConfig::default(), 30_000, &[]);
        let summary: Vec<&str> =
            out.lines().filter(|l| l.contains("kubectl get pod") || l.contains("container show:")).collect();
        summary.join("\n")
    };
    expect![[r#"
        kubectl get pod: READY 0/1 STATUS Completed RESTARTS 0
        container show: terminated Completed exit=0 | last: {} | ready=false started=false restarts=0 image=docker.io/library/busybox:1.36"#]].assert_eq(&outcome(format!("{config_map}{}", once("show", "app.properties"))));
    expect![[r#"
        kubectl get pod: READY 0/1 STATUS Error RESTARTS 0
        container show: terminated Error exit=1 | last: {} | ready=false started=false restarts=0 image=docker.io/library/busybox:1.36"#]].assert_eq(&outcome(format!("{config_map}{}", once("missing", "other.properties"))));
    // A script from the ConfigMap runs with `sh FILE`; what `cat` printed is the step's output.
    let script_map = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app-config, namespace: default}\ndata: {app.properties: \"mode=lab\", run.sh: \"cat /config/app.properties\\nsleep 3\\nexit 0\\n\"}\n---\n";
    let objects = format!(
        "{script_map}{}",
        once("script", "run.sh").replace("command: [cat, /config/run.sh]", "command: [sh, /config/run.sh]")
    );
    let out = run(NODE, &objects, KubeletConfig::default(), 30_000, &["container"]);
    let summary: Vec<&str> = out
        .lines()
        .filter(|l| {
            l.contains("kubectl get pod") || l.contains("is running") || l.contains("output") || l.contains("exited")
        })
        .collect();
    expect![[r#"
           0.552s containers container "show" is running: the script runs for 3s and exits 0
                             output: mode=lab
           3.552s containers container "show" exited with code 0 (Completed) after 3s
        kubectl get pod: READY 0/1 STATUS Completed RESTARTS 0"#]]
    .assert_eq(&summary.join("\n"));
}

#[test]
fn memory_hog_is_oom_killed() {
    check_with(
        NODE,
        &pod(
            "hog",
            r#"  containers:
  - name: hog
    image: polinux/stress
    imagePullPolicy: IfNotPresent
    command: [stress]
    args: [--vm, "1", --vm-bytes, 250M, --vm-hang, "1"]
    resources: {requests: {memory: 50Mi}, limits: {memory: 100Mi}}"#,
        ),
        KubeletConfig::default(),
        60_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/hog bound to its node
               0.002s kubelet    kubelet admits pod default/hog
               0.002s kubelet    QoS class of default/hog: Burstable
               0.002s kubelet    kubelet creates cgroup kubepods-burstable-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/hog: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/hog
               0.272s cni        CNI ADD (ptp): default/hog gets 10.244.1.2
               0.402s runtime    sandbox of default/hog is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "polinux/stress"
               0.402s runtime    containerd pulls "polinux/stress" (4.1 MB, 312ms)
               0.714s runtime    kubelet records Normal Pulled: Successfully pulled image "polinux/stress" in 312ms (312ms including waiting). Image size: 4126345 bytes.
               0.714s status     kubelet reports the node's images (node.status.images)
               0.774s containers kubelet records Normal Created: Container created
               0.864s containers kubelet records Normal Started: Container started
               0.864s containers container "hog" is running: stress with 1 memory worker(s) of 250 MiB each; it needs about 251 MiB but the memory limit is 100 MiB, so the kernel OOM-kills it
               1.000s status     kubelet updates status of default/hog: Running (1/1 ready, Running)
               1.664s containers container "hog" exited with code 137 (OOMKilled) after 800ms
               1.664s kubelet    kubelet records Warning SystemOOM: System OOM encountered, victim process: stress, pid: 9401
               2.000s runtime    kubelet records Normal Pulled: Container image "polinux/stress" already present on machine and can be accessed by the pod
               2.000s status     kubelet updates status of default/hog: Running (0/1 ready, OOMKilled)
               2.060s containers kubelet records Normal Created (x2): Container created
               2.150s containers kubelet records Normal Started (x2): Container started
               2.150s containers container "hog" is running: stress with 1 memory worker(s) of 250 MiB each; it needs about 251 MiB but the memory limit is 100 MiB, so the kernel OOM-kills it
               2.950s containers container "hog" exited with code 137 (OOMKilled) after 800ms
               2.950s kubelet    kubelet records Warning SystemOOM: System OOM encountered, victim process: stress, pid: 61268
               3.000s containers kubelet records Warning BackOff: Back-off restarting failed container hog in pod hog_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
               3.000s status     kubelet updates status of default/hog: Running (0/1 ready, CrashLoopBackOff, 1 restarts)
              12.950s runtime    kubelet records Normal Pulled (x2): Container image "polinux/stress" already present on machine and can be accessed by the pod
              13.010s containers kubelet records Normal Created (x3): Container created
              13.100s containers kubelet records Normal Started (x3): Container started
              13.100s containers container "hog" is running: stress with 1 memory worker(s) of 250 MiB each; it needs about 251 MiB but the memory limit is 100 MiB, so the kernel OOM-kills it
              13.900s containers container "hog" exited with code 137 (OOMKilled) after 800ms
              13.900s kubelet    kubelet records Warning SystemOOM: System OOM encountered, victim process: stress, pid: 58189
              14.000s containers kubelet records Warning BackOff (x2): Back-off restarting failed container hog in pod hog_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
              14.000s status     kubelet updates status of default/hog: Running (0/1 ready, CrashLoopBackOff, 2 restarts)
              33.900s runtime    kubelet records Normal Pulled (x3): Container image "polinux/stress" already present on machine and can be accessed by the pod
              33.960s containers kubelet records Normal Created (x4): Container created
              34.050s containers kubelet records Normal Started (x4): Container started
              34.050s containers container "hog" is running: stress with 1 memory worker(s) of 250 MiB each; it needs about 251 MiB but the memory limit is 100 MiB, so the kernel OOM-kills it
              34.850s containers container "hog" exited with code 137 (OOMKilled) after 800ms
              34.850s kubelet    kubelet records Warning SystemOOM: System OOM encountered, victim process: stress, pid: 53720
              35.000s containers kubelet records Warning BackOff (x3): Back-off restarting failed container hog in pod hog_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
              35.000s status     kubelet updates status of default/hog: Running (0/1 ready, CrashLoopBackOff, 3 restarts)
            -- settled at 60.000s
            kubectl get pod: READY 0/1 STATUS CrashLoopBackOff RESTARTS 3
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=Burstable
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container hog: waiting CrashLoopBackOff "back-off 40s restarting failed container=hog pod=hog_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)" | last: terminated OOMKilled exit=137 | ready=false started=false restarts=3 image=docker.io/polinux/stress:latest
            events:
              Normal Pulling spec.containers{hog}: Pulling image "polinux/stress"
              Normal Pulled spec.containers{hog}: Successfully pulled image "polinux/stress" in 312ms (312ms including waiting). Image size: 4126345 bytes.
              Normal Created (x4) spec.containers{hog}: Container created
              Normal Started (x4) spec.containers{hog}: Container started
              Normal Pulled (x3) spec.containers{hog}: Container image "polinux/stress" already present on machine and can be accessed by the pod
              Warning BackOff (x3) spec.containers{hog}: Back-off restarting failed container hog in pod hog_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
              Warning SystemOOM Node: System OOM encountered, victim process: stress, pid: 9401
              Warning SystemOOM Node: System OOM encountered, victim process: stress, pid: 61268
              Warning SystemOOM Node: System OOM encountered, victim process: stress, pid: 58189
              Warning SystemOOM Node: System OOM encountered, victim process: stress, pid: 53720
        "#]],
    );
}

#[test]
fn missing_config_map_volume_keeps_the_pod_creating() {
    check_with(
        NODE,
        &pod(
            "app",
            r#"  containers:
  - name: app
    image: nginx:1.29
    volumeMounts: [{name: config, mountPath: /etc/app}]
  volumes:
  - name: config
    configMap: {name: app-config}"#,
        ),
        KubeletConfig::default(),
        150_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/app bound to its node
               0.002s kubelet    kubelet admits pod default/app
               0.002s kubelet    QoS class of default/app: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/app: Pending (0/1 ready, ContainerCreating)
               0.122s kubelet    kubelet records Warning FailedMount: MountVolume.SetUp failed for volume "config" : configmap "app-config" not found
               0.622s kubelet    kubelet records Warning FailedMount (x2): MountVolume.SetUp failed for volume "config" : configmap "app-config" not found
               1.622s kubelet    kubelet records Warning FailedMount (x3): MountVolume.SetUp failed for volume "config" : configmap "app-config" not found
               3.622s kubelet    kubelet records Warning FailedMount (x4): MountVolume.SetUp failed for volume "config" : configmap "app-config" not found
               7.622s kubelet    kubelet records Warning FailedMount (x5): MountVolume.SetUp failed for volume "config" : configmap "app-config" not found
              15.622s kubelet    kubelet records Warning FailedMount (x6): MountVolume.SetUp failed for volume "config" : configmap "app-config" not found
              31.622s kubelet    kubelet records Warning FailedMount (x7): MountVolume.SetUp failed for volume "config" : configmap "app-config" not found
              63.622s kubelet    kubelet records Warning FailedMount (x8): MountVolume.SetUp failed for volume "config" : configmap "app-config" not found
             123.122s kubelet    kubelet gives up this sync of default/app after 2m3s waiting for volumes (log only)
             127.622s kubelet    kubelet records Warning FailedMount (x9): MountVolume.SetUp failed for volume "config" : configmap "app-config" not found
            -- settled at 150.000s
            kubectl get pod: READY 0/1 STATUS ContainerCreating RESTARTS 0
            phase=Pending podIP=- hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=False Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container app: waiting ContainerCreating | last: {} | ready=false started=false restarts=0 image=nginx:1.29
            events:
              Warning FailedMount (x9) Pod: MountVolume.SetUp failed for volume "config" : configmap "app-config" not found
        "#]],
    );
}

#[test]
fn missing_env_config_map_is_a_config_error() {
    check_with(
        NODE,
        &pod(
            "app",
            r#"  containers:
  - name: app
    image: busybox:1.36
    imagePullPolicy: IfNotPresent
    command: [sh, -c, "echo $MODE; sleep 3600"]
    env:
    - name: MODE
      valueFrom: {configMapKeyRef: {name: app-config, key: mode}}"#,
        ),
        KubeletConfig::default(),
        40_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/app bound to its node
               0.002s kubelet    kubelet admits pod default/app
               0.002s kubelet    QoS class of default/app: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/app: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/app
               0.272s cni        CNI ADD (ptp): default/app gets 10.244.1.2
               0.402s runtime    sandbox of default/app is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.402s containers kubelet records Warning Failed: Error: configmap "app-config" not found
               0.402s status     kubelet updates status of default/app: Pending (0/1 ready, CreateContainerConfigError)
              10.402s runtime    kubelet records Normal Pulled (x2): Container image "busybox:1.36" already present on machine and can be accessed by the pod
              10.402s containers kubelet records Warning Failed (x2): Error: configmap "app-config" not found
              20.402s runtime    kubelet records Normal Pulled (x3): Container image "busybox:1.36" already present on machine and can be accessed by the pod
              20.402s containers kubelet records Warning Failed (x3): Error: configmap "app-config" not found
              30.402s runtime    kubelet records Normal Pulled (x4): Container image "busybox:1.36" already present on machine and can be accessed by the pod
              30.402s containers kubelet records Warning Failed (x4): Error: configmap "app-config" not found
            -- settled at 40.000s
            kubectl get pod: READY 0/1 STATUS CreateContainerConfigError RESTARTS 0
            phase=Pending podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container app: waiting CreateContainerConfigError "configmap \"app-config\" not found" | last: {} | ready=false started=false restarts=0 image=busybox:1.36
            events:
              Normal Pulled (x4) spec.containers{app}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Warning Failed (x4) spec.containers{app}: Error: configmap "app-config" not found
        "#]],
    );
}

#[test]
fn failing_readiness_probe_keeps_the_pod_unready() {
    check_with(
        NODE,
        &pod(
            "web",
            r#"  containers:
  - name: web
    image: nginx:1.29
    imagePullPolicy: IfNotPresent
    readinessProbe:
      httpGet: {path: /healthz, port: 8080}
      periodSeconds: 5"#,
        ),
        KubeletConfig::default(),
        40_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/web bound to its node
               0.002s kubelet    kubelet admits pod default/web
               0.002s kubelet    QoS class of default/web: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/web
               0.272s cni        CNI ADD (ptp): default/web gets 10.244.1.2
               0.402s runtime    sandbox of default/web is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "nginx:1.29"
               0.402s runtime    containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
               2.748s runtime    kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
               2.748s status     kubelet reports the node's images (node.status.images)
               2.808s containers kubelet records Normal Created: Container created
               2.898s containers kubelet records Normal Started: Container started
               2.898s containers container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
               3.000s status     kubelet records Warning Unhealthy: Readiness probe failed: Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused
               3.000s status     kubelet updates status of default/web: Running (0/1 ready, Running)
               5.002s status     kubelet records Warning Unhealthy (x2): Readiness probe failed: Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused
              10.002s status     kubelet records Warning Unhealthy (x3): Readiness probe failed: Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused
              15.002s status     kubelet records Warning Unhealthy (x4): Readiness probe failed: Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused
              20.002s status     kubelet records Warning Unhealthy (x5): Readiness probe failed: Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused
              25.002s status     kubelet records Warning Unhealthy (x6): Readiness probe failed: Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused
              30.002s status     kubelet records Warning Unhealthy (x7): Readiness probe failed: Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused
              35.002s status     kubelet records Warning Unhealthy (x8): Readiness probe failed: Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused
            -- settled at 40.000s
            kubectl get pod: READY 0/1 STATUS Running RESTARTS 0
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container web: running | last: {} | ready=false started=true restarts=0 image=docker.io/library/nginx:1.29
            events:
              Normal Pulling spec.containers{web}: Pulling image "nginx:1.29"
              Normal Pulled spec.containers{web}: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
              Normal Created spec.containers{web}: Container created
              Normal Started spec.containers{web}: Container started
              Warning Unhealthy (x8) spec.containers{web}: Readiness probe failed: Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused
        "#]],
    );
}

#[test]
fn failing_liveness_probe_restarts_the_container() {
    check_with(
        NODE,
        &pod(
            "web",
            r#"  containers:
  - name: web
    image: nginx:1.29
    imagePullPolicy: IfNotPresent
    livenessProbe:
      httpGet: {path: /healthz, port: 80}
      initialDelaySeconds: 3
      periodSeconds: 3"#,
        ),
        KubeletConfig::default(),
        45_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/web bound to its node
               0.002s kubelet    kubelet admits pod default/web
               0.002s kubelet    QoS class of default/web: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/web
               0.272s cni        CNI ADD (ptp): default/web gets 10.244.1.2
               0.402s runtime    sandbox of default/web is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "nginx:1.29"
               0.402s runtime    containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
               2.748s runtime    kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
               2.748s status     kubelet reports the node's images (node.status.images)
               2.808s containers kubelet records Normal Created: Container created
               2.898s containers kubelet records Normal Started: Container started
               2.898s containers container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
               3.000s status     kubelet updates status of default/web: Running (1/1 ready, Running)
               6.002s status     kubelet records Warning Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 404
               9.002s status     kubelet records Warning Unhealthy (x2): Liveness probe failed: HTTP probe failed with statuscode: 404
              12.002s status     kubelet records Warning Unhealthy (x3): Liveness probe failed: HTTP probe failed with statuscode: 404
              12.002s status     liveness probe of "web" fails
              12.002s containers kubelet records Normal Killing: Container web failed liveness probe, will be restarted
              12.122s containers container "web" exited with code 0 (Completed) after 9.224s
              12.122s runtime    kubelet records Normal Pulled: Container image "nginx:1.29" already present on machine and can be accessed by the pod
              12.182s containers kubelet records Normal Created (x2): Container created
              12.272s containers kubelet records Normal Started (x2): Container started
              12.272s containers container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
              13.000s status     kubelet updates status of default/web: Running (1/1 ready, Running, 1 restarts)
              18.002s status     kubelet records Warning Unhealthy (x4): Liveness probe failed: HTTP probe failed with statuscode: 404
              21.002s status     kubelet records Warning Unhealthy (x5): Liveness probe failed: HTTP probe failed with statuscode: 404
              24.002s status     kubelet records Warning Unhealthy (x6): Liveness probe failed: HTTP probe failed with statuscode: 404
              24.002s status     liveness probe of "web" fails
              24.002s containers kubelet records Normal Killing (x2): Container web failed liveness probe, will be restarted
              24.122s containers container "web" exited with code 0 (Completed) after 11.85s
              24.122s runtime    kubelet records Normal Pulled (x2): Container image "nginx:1.29" already present on machine and can be accessed by the pod
              24.182s containers kubelet records Normal Created (x3): Container created
              24.272s containers kubelet records Normal Started (x3): Container started
              24.272s containers container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
              25.000s status     kubelet updates status of default/web: Running (1/1 ready, Running, 2 restarts)
              30.002s status     kubelet records Warning Unhealthy (x7): Liveness probe failed: HTTP probe failed with statuscode: 404
              33.002s status     kubelet records Warning Unhealthy (x8): Liveness probe failed: HTTP probe failed with statuscode: 404
              36.002s status     kubelet records Warning Unhealthy (x9): Liveness probe failed: HTTP probe failed with statuscode: 404
              36.002s status     liveness probe of "web" fails
              36.002s containers kubelet records Normal Killing (x3): Container web failed liveness probe, will be restarted
              36.122s containers container "web" exited with code 0 (Completed) after 11.85s
              36.122s runtime    kubelet records Normal Pulled (x3): Container image "nginx:1.29" already present on machine and can be accessed by the pod
              36.182s containers kubelet records Normal Created (x4): Container created
              36.272s containers kubelet records Normal Started (x4): Container started
              36.272s containers container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
              37.000s status     kubelet updates status of default/web: Running (1/1 ready, Running, 3 restarts)
            -- settled at 42.002s
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 3
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            container web: running | last: terminated Completed exit=0 | ready=true started=true restarts=3 image=docker.io/library/nginx:1.29
            events:
              Normal Pulling spec.containers{web}: Pulling image "nginx:1.29"
              Normal Pulled spec.containers{web}: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
              Normal Created (x4) spec.containers{web}: Container created
              Normal Started (x4) spec.containers{web}: Container started
              Warning Unhealthy (x9) spec.containers{web}: Liveness probe failed: HTTP probe failed with statuscode: 404
              Normal Killing (x3) spec.containers{web}: Container web failed liveness probe, will be restarted
              Normal Pulled (x3) spec.containers{web}: Container image "nginx:1.29" already present on machine and can be accessed by the pod
        "#]],
    );
}

#[test]
fn init_containers_run_in_order() {
    check(
        NODE,
        &pod(
            "myapp",
            r#"  initContainers:
  - {name: init-myservice, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sh, -c, "echo waiting; sleep 2"]}
  - {name: init-mydb, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sh, -c, "sleep 1; echo done"]}
  containers:
  - {name: myapp, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sh, -c, "echo The app is running! && sleep 3600"]}"#,
        ),
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/myapp bound to its node
               0.002s kubelet    kubelet admits pod default/myapp
               0.002s kubelet    QoS class of default/myapp: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/myapp: Pending (0/1 ready, Init:0/2)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/myapp
               0.272s cni        CNI ADD (ptp): default/myapp gets 10.244.1.2
               0.402s runtime    sandbox of default/myapp is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.462s containers kubelet records Normal Created: Container created
               0.552s containers kubelet records Normal Started: Container started
               0.552s containers container "init-myservice" is running: the script runs for 2s and exits 0
               1.000s status     kubelet updates status of default/myapp: Pending (0/1 ready, Init:0/2)
               2.552s containers container "init-myservice" exited with code 0 (Completed) after 2s
               3.000s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               3.000s status     kubelet updates status of default/myapp: Pending (0/1 ready, Init:1/2)
               3.060s containers kubelet records Normal Created: Container created
               3.150s containers kubelet records Normal Started: Container started
               3.150s containers container "init-mydb" is running: the script runs for 1s and exits 0
               4.000s status     kubelet updates status of default/myapp: Pending (0/1 ready, Init:1/2)
               4.150s containers container "init-mydb" exited with code 0 (Completed) after 1s
               5.000s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               5.000s status     kubelet updates status of default/myapp: Pending (0/1 ready, PodInitializing)
               5.060s containers kubelet records Normal Created: Container created
               5.150s containers kubelet records Normal Started: Container started
               5.150s containers container "myapp" is running: the script runs for 1h0m0s and exits 0
               6.000s status     kubelet updates status of default/myapp: Running (1/1 ready, Running)
            -- settled at 70.000s
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 0
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            init init-myservice: terminated Completed exit=0 | last: {} | ready=false started=false restarts=0 image=docker.io/library/busybox:1.36
            init init-mydb: terminated Completed exit=0 | last: {} | ready=false started=false restarts=0 image=docker.io/library/busybox:1.36
            container myapp: running | last: {} | ready=true started=true restarts=0 image=docker.io/library/busybox:1.36
            events:
              Normal Pulled spec.initContainers{init-myservice}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created spec.initContainers{init-myservice}: Container created
              Normal Started spec.initContainers{init-myservice}: Container started
              Normal Pulled spec.initContainers{init-mydb}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created spec.initContainers{init-mydb}: Container created
              Normal Started spec.initContainers{init-mydb}: Container started
              Normal Pulled spec.containers{myapp}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created spec.containers{myapp}: Container created
              Normal Started spec.containers{myapp}: Container started
        "#]],
    );
}

#[test]
fn cni_failure_fails_the_sandbox_and_retries() {
    let config = KubeletConfig {
        faults: NodeFaults { cni: Some(CniFault::PluginMissing), ..Default::default() },
        ..Default::default()
    };
    check_with(
        NODE,
        &pod("web", "  containers:\n  - {name: web, image: nginx:1.29}"),
        config,
        115_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/web bound to its node
               0.002s kubelet    kubelet admits pod default/web
               0.002s kubelet    QoS class of default/web: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/web
               0.272s cni        CNI ADD (ptp) fails for default/web
               0.272s cni        kubelet records Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "63cbe1e459320dd7044c3cd7f43c661ce6984080bab12a02953aeb70673e29cb": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              10.272s runtime    kubelet → containerd: RunPodSandbox for default/web
              10.422s cni        CNI ADD (ptp) fails for default/web
              10.422s cni        kubelet records Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "1a82e79b05b5faebf5ba4eb728dd632ceb0354df4a45b34edf0f9924a3016430": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              20.422s runtime    kubelet → containerd: RunPodSandbox for default/web
              20.572s cni        CNI ADD (ptp) fails for default/web
              20.572s cni        kubelet records Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "9e7eb00e4c9c9e35c1dfda7a5eb236f8acb06798004bbc2f1b5051c62d0332cd": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              30.572s runtime    kubelet → containerd: RunPodSandbox for default/web
              30.722s cni        CNI ADD (ptp) fails for default/web
              30.722s cni        kubelet records Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "13a16201310d9aba683409b1f2fb545fe6df52ffdf834b476a3f7fb9fcd4241d": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              40.722s runtime    kubelet → containerd: RunPodSandbox for default/web
              40.872s cni        CNI ADD (ptp) fails for default/web
              40.872s cni        kubelet records Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "8eb67bb2bf528e019b5554bef5ebf42b1363f25caeb7c570ef6841424a61a275": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              50.872s runtime    kubelet → containerd: RunPodSandbox for default/web
              51.022s cni        CNI ADD (ptp) fails for default/web
              51.022s cni        kubelet records Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "61cc42d4094b9c400ef74aa7dd7f4aec0a45f286b9e7d38251ce3318362240f6": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              61.022s runtime    kubelet → containerd: RunPodSandbox for default/web
              61.172s cni        CNI ADD (ptp) fails for default/web
              61.172s cni        kubelet records Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "abaab8919ec9278a5c90961b7f936d2210987a47c025a15240a76d853561f4e6": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              71.172s runtime    kubelet → containerd: RunPodSandbox for default/web
              71.322s cni        CNI ADD (ptp) fails for default/web
              71.322s cni        kubelet records Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "9211e20229fc1eaa9dc443bfb29af5425aee8a91c100fde65edecf33512736da": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              81.322s runtime    kubelet → containerd: RunPodSandbox for default/web
              81.472s cni        CNI ADD (ptp) fails for default/web
              81.472s cni        kubelet records Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "cbf3f4c210aaec11c722d16d8c3f0f43fc26f9e9c7dc23bff43ef5f607528fb6": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              91.472s runtime    kubelet → containerd: RunPodSandbox for default/web
              91.622s cni        CNI ADD (ptp) fails for default/web
              91.622s cni        kubelet records Warning FailedCreatePodSandBox: (combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "a7c92cf10f4bb044f0b4b1b94408ab713884f50d388dc2425b96d654f1c64b88": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
             101.622s runtime    kubelet → containerd: RunPodSandbox for default/web
             101.772s cni        CNI ADD (ptp) fails for default/web
             101.772s cni        kubelet records Warning FailedCreatePodSandBox (x2): (combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "c4e6f9a7b057682f53867f8a1972b8d603b061f66135183628dcfc58bb70252f": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
             111.772s runtime    kubelet → containerd: RunPodSandbox for default/web
             111.922s cni        CNI ADD (ptp) fails for default/web
             111.922s cni        kubelet records Warning FailedCreatePodSandBox (x3): (combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "d511148311f199c640e9726ccf2a820df46025fd97f61d68112250ec2d7add89": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
            -- settled at 111.922s
            kubectl get pod: READY 0/1 STATUS ContainerCreating RESTARTS 0
            phase=Pending podIP=- hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=False Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container web: waiting ContainerCreating | last: {} | ready=false started=false restarts=0 image=nginx:1.29
            events:
              Warning FailedCreatePodSandBox Pod: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "63cbe1e459320dd7044c3cd7f43c661ce6984080bab12a02953aeb70673e29cb": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              Warning FailedCreatePodSandBox Pod: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "1a82e79b05b5faebf5ba4eb728dd632ceb0354df4a45b34edf0f9924a3016430": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              Warning FailedCreatePodSandBox Pod: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "9e7eb00e4c9c9e35c1dfda7a5eb236f8acb06798004bbc2f1b5051c62d0332cd": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              Warning FailedCreatePodSandBox Pod: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "13a16201310d9aba683409b1f2fb545fe6df52ffdf834b476a3f7fb9fcd4241d": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              Warning FailedCreatePodSandBox Pod: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "8eb67bb2bf528e019b5554bef5ebf42b1363f25caeb7c570ef6841424a61a275": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              Warning FailedCreatePodSandBox Pod: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "61cc42d4094b9c400ef74aa7dd7f4aec0a45f286b9e7d38251ce3318362240f6": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              Warning FailedCreatePodSandBox Pod: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "abaab8919ec9278a5c90961b7f936d2210987a47c025a15240a76d853561f4e6": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              Warning FailedCreatePodSandBox Pod: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "9211e20229fc1eaa9dc443bfb29af5425aee8a91c100fde65edecf33512736da": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              Warning FailedCreatePodSandBox Pod: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "cbf3f4c210aaec11c722d16d8c3f0f43fc26f9e9c7dc23bff43ef5f607528fb6": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
              Warning FailedCreatePodSandBox (x3) Pod: (combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "d511148311f199c640e9726ccf2a820df46025fd97f61d68112250ec2d7add89": plugin type="ptp" failed (add): failed to find plugin "ptp" in path [/opt/cni/bin]
        "#]],
    );
}

#[test]
fn qos_classes_and_cgroup_values() {
    let guaranteed = pod(
        "g",
        "  containers:\n  - {name: app, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sleep, infinity], resources: {requests: {cpu: 500m, memory: 256Mi}, limits: {cpu: 500m, memory: 256Mi}}}",
    );
    let burstable = pod(
        "b",
        "  containers:\n  - {name: app, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sleep, infinity], resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {memory: 128Mi}}}\n  - {name: side, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sleep, infinity], resources: {requests: {cpu: 100m}}}",
    );
    let besteffort = pod("be", "  containers:\n  - {name: app, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sleep, infinity]}");
    let render = |p: &str| {
        let full = run(NODE, p, KubeletConfig::default(), 10_000, &["qos", "cgroups"]);
        full.lines()
            .filter(|l| l.contains("QoS class") || l.contains("cgroup") || l.starts_with("                     "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    expect![[r#"
           0.002s kubelet    QoS class of default/g: Guaranteed
                             qosClass: Guaranteed
                             why: every container limits cpu and memory, and requests equal limits
                             [Requests and limits] container | cpu request | cpu limit | memory request | memory limit
                               app | 500m | 500m | 256Mi | 256Mi
           0.002s kubelet    kubelet creates cgroup kubepods-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
                             driver: systemd, cgroup v2
                             path: /sys/fs/cgroup/kubepods.slice/kubepods-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
                             cpu requests (pod): 500m
                             [Pod cgroup] file | value
                               path | /sys/fs/cgroup/kubepods.slice/kubepods-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
                               cpu.weight | 20 (shares 512)
                               cpu.max | 50000 100000
                               memory.max | 268435456
                               memory.min / memory.low | 0 (MemoryQoS feature gate is off)
                               pids.max | max
                             [Container cgroups (cri-containerd-<id>.scope)] container | cpu.weight | shares | cpu.max | memory.max | pids.max | oom_score_adj | from
                               app | 20 | 512 | 50000 100000 | 268435456 | max | -997 | cpu request 500m; cpu limit 500m; memory limit 256Mi
        ---
           0.002s kubelet    QoS class of default/b: Burstable
                             qosClass: Burstable
                             why: container "app" does not limit both cpu and memory
                             [Requests and limits] container | cpu request | cpu limit | memory request | memory limit
                               app | 250m | - | 64Mi | 128Mi
                               side | 100m | - | - | -
           0.002s kubelet    kubelet creates cgroup kubepods-burstable-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
                             driver: systemd, cgroup v2
                             path: /sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
                             cpu requests (pod): 350m
                             [Pod cgroup] file | value
                               path | /sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
                               cpu.weight | 14 (shares 358)
                               cpu.max | max 100000
                               memory.max | max
                               memory.min / memory.low | 0 (MemoryQoS feature gate is off)
                               pids.max | max
                             [Container cgroups (cri-containerd-<id>.scope)] container | cpu.weight | shares | cpu.max | memory.max | pids.max | oom_score_adj | from
                               app | 10 | 256 | max 100000 | 134217728 | max | 997 | cpu request 250m; no cpu limit; memory limit 128Mi
                               side | 4 | 102 | max 100000 | max | max | 999 | cpu request 100m; no cpu limit; no memory limit
        ---
           0.002s kubelet    QoS class of default/be: BestEffort
                             qosClass: BestEffort
                             why: no container requests or limits cpu or memory
                             [Requests and limits] container | cpu request | cpu limit | memory request | memory limit
                               app | - | - | - | -
           0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
                             driver: systemd, cgroup v2
                             path: /sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
                             cpu requests (pod): 0m
                             [Pod cgroup] file | value
                               path | /sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
                               cpu.weight | 1 (shares 2)
                               cpu.max | max 100000
                               memory.max | max
                               memory.min / memory.low | 0 (MemoryQoS feature gate is off)
                               pids.max | max
                             [Container cgroups (cri-containerd-<id>.scope)] container | cpu.weight | shares | cpu.max | memory.max | pids.max | oom_score_adj | from
                               app | 1 | 2 | max 100000 | max | max | 1000 | no cpu request: minimum shares; no cpu limit; no memory limit"#]].assert_eq(&format!("{}\n---\n{}\n---\n{}", render(&guaranteed), render(&burstable), render(&besteffort)));
}

#[test]
fn pod_too_big_for_the_node_is_rejected() {
    check(
        NODE,
        &pod(
            "big",
            "  containers:\n  - {name: big, image: nginx:1.29, resources: {requests: {cpu: \"12\", memory: 1Gi}}}",
        ),
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/big bound to its node
               0.002s kubelet    kubelet rejects pod default/big: OutOfcpu
               0.002s kubelet    kubelet records Warning OutOfcpu: Node didn't have enough resource: cpu, requested: 12000, used: 0, capacity: 8000
               0.002s status     kubelet updates status of default/big: Failed (0/1 ready, OutOfcpu)
            -- settled at 70.000s
            kubectl get pod: READY 0/1 STATUS OutOfcpu RESTARTS 0
            phase=Failed podIP=- hostIP=- qosClass=Burstable message="Pod was rejected: Node didn't have enough resource: cpu, requested: 12000, used: 0, capacity: 8000"
            conditions: 
            events:
              Warning OutOfcpu Pod: Node didn't have enough resource: cpu, requested: 12000, used: 0, capacity: 8000
        "#]],
    );
}

#[test]
fn pod_whose_node_selector_does_not_match_is_rejected() {
    check(
        NODE,
        &pod("pinned", "  nodeSelector: {disk: hdd}\n  containers:\n  - {name: web, image: nginx:1.29}"),
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/pinned bound to its node
               0.002s kubelet    kubelet rejects pod default/pinned: NodeAffinity
               0.002s kubelet    kubelet records Warning NodeAffinity: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector
               0.002s status     kubelet updates status of default/pinned: Failed (0/1 ready, NodeAffinity)
            -- settled at 70.000s
            kubectl get pod: READY 0/1 STATUS NodeAffinity RESTARTS 0
            phase=Failed podIP=- hostIP=- qosClass=BestEffort message="Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"
            conditions: 
            events:
              Warning NodeAffinity Pod: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector
        "#]],
    );
}

#[test]
fn two_pods_share_the_puller_and_get_consecutive_ips() {
    let objects = format!(
        "{}\n---\n{}",
        pod("a", "  containers:\n  - {name: web, image: nginx:1.29, imagePullPolicy: IfNotPresent}"),
        pod("b", "  containers:\n  - {name: cache, image: redis:8, imagePullPolicy: IfNotPresent}")
    );
    check(
        NODE,
        &objects,
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/a bound to its node
               0.002s kubelet    kubelet admits pod default/a
               0.002s kubelet    QoS class of default/a: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/a: Pending (0/1 ready, ContainerCreating)
               0.002s kubelet    kubelet on worker-1 sees pod default/b bound to its node
               0.002s kubelet    kubelet admits pod default/b
               0.002s kubelet    QoS class of default/b: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod3f364394_aea2_43d9_a497_2069afb04795.slice
               0.002s status     kubelet updates status of default/b: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/a
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/b
               0.272s cni        CNI ADD (ptp): default/a gets 10.244.1.2
               0.272s cni        CNI ADD (ptp): default/b gets 10.244.1.3
               0.402s runtime    sandbox of default/a is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "nginx:1.29"
               0.402s runtime    containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
               0.402s runtime    sandbox of default/b is ready (10.244.1.3)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "redis:8"
               0.402s runtime    containerd pulls "redis:8" (51.2 MB, 1.716s)
               2.748s runtime    kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
               2.748s status     kubelet reports the node's images (node.status.images)
               2.808s containers kubelet records Normal Created: Container created
               2.898s containers kubelet records Normal Started: Container started
               2.898s containers container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
               3.000s status     kubelet updates status of default/a: Running (1/1 ready, Running)
               4.464s runtime    kubelet records Normal Pulled: Successfully pulled image "redis:8" in 1.716s (4.062s including waiting). Image size: 51235402 bytes.
               4.464s status     kubelet reports the node's images (node.status.images)
               4.524s containers kubelet records Normal Created: Container created
               4.614s containers kubelet records Normal Started: Container started
               4.614s containers container "cache" is running: Redis listening on TCP port 6379
               5.000s status     kubelet updates status of default/b: Running (1/1 ready, Running)
            -- settled at 70.000s
            == default/a
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 0
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            container web: running | last: {} | ready=true started=true restarts=0 image=docker.io/library/nginx:1.29
            == default/b
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 0
            phase=Running podIP=10.244.1.3 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            container cache: running | last: {} | ready=true started=true restarts=0 image=docker.io/library/redis:8
            events:
              Normal Pulling spec.containers{web}: Pulling image "nginx:1.29"
              Normal Pulled spec.containers{web}: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
              Normal Created spec.containers{web}: Container created
              Normal Started spec.containers{web}: Container started
              Normal Pulling spec.containers{cache}: Pulling image "redis:8"
              Normal Pulled spec.containers{cache}: Successfully pulled image "redis:8" in 1.716s (4.062s including waiting). Image size: 51235402 bytes.
              Normal Created spec.containers{cache}: Container created
              Normal Started spec.containers{cache}: Container started
        "#]],
    );
}

#[test]
fn postgres_without_password_exits_one() {
    check_with(
        NODE,
        &pod("db", "  containers:\n  - {name: db, image: postgres:17, imagePullPolicy: IfNotPresent}"),
        KubeletConfig::default(),
        30_000,
        &["container"],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/db bound to its node
               0.002s kubelet    kubelet admits pod default/db
               0.002s kubelet    QoS class of default/db: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/db: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/db
               0.272s cni        CNI ADD (ptp): default/db gets 10.244.1.2
               0.402s runtime    sandbox of default/db is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "postgres:17"
               0.402s runtime    containerd pulls "postgres:17" (162.9 MB, 5.044s)
               5.446s runtime    kubelet records Normal Pulled: Successfully pulled image "postgres:17" in 5.044s (5.044s including waiting). Image size: 162881905 bytes.
               5.446s status     kubelet reports the node's images (node.status.images)
               5.506s containers kubelet records Normal Created: Container created
               5.596s containers kubelet records Normal Started: Container started
               5.596s containers container "db" is running: the postgres entrypoint refuses to initialise a database without POSTGRES_PASSWORD and exits 1
                                 container ID: containerd://df0f9924a3016430dd2f9b2d0b5f15e68c5c906b1aeb85f8e12e5d006cd3d6af
                                 image: docker.io/library/postgres:17 (docker.io/library/postgres@sha256:1933e5fa6a00a1546a16f947fed6151b42868e5ef1dedaa7f3c9f714af0bf734)
                                 command line: ["docker-entrypoint.sh", "postgres"]
                                 cgroup: /sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice/cri-containerd-df0f9924a3016430dd2f9b2d0b5f15e68c5c906b1aeb85f8e12e5d006cd3d6af.scope
                                 what it does: the postgres entrypoint refuses to initialise a database without POSTGRES_PASSWORD and exits 1
                                 output: Error: Database is uninitialized and superuser password is not specified.
                   You must specify POSTGRES_PASSWORD to a non-empty value for the
                   superuser. For example, "-e POSTGRES_PASSWORD=password" on "docker run".
               5.716s containers container "db" exited with code 1 (Error) after 120ms
                                 exit code: 1
                                 reason: Error
                                 why: its main process ended with a non-zero exit code
               6.000s runtime    kubelet records Normal Pulled: Container image "postgres:17" already present on machine and can be accessed by the pod
               6.000s status     kubelet updates status of default/db: Running (0/1 ready, Error)
               6.060s containers kubelet records Normal Created (x2): Container created
               6.150s containers kubelet records Normal Started (x2): Container started
               6.150s containers container "db" is running: the postgres entrypoint refuses to initialise a database without POSTGRES_PASSWORD and exits 1
                                 container ID: containerd://6c7c5b1c60b890ffe70cd6df5d49ce30f5d81f333a1fb9e913a16201310d9aba
                                 image: docker.io/library/postgres:17 (docker.io/library/postgres@sha256:1933e5fa6a00a1546a16f947fed6151b42868e5ef1dedaa7f3c9f714af0bf734)
                                 command line: ["docker-entrypoint.sh", "postgres"]
                                 cgroup: /sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice/cri-containerd-6c7c5b1c60b890ffe70cd6df5d49ce30f5d81f333a1fb9e913a16201310d9aba.scope
                                 what it does: the postgres entrypoint refuses to initialise a database without POSTGRES_PASSWORD and exits 1
                                 output: Error: Database is uninitialized and superuser password is not specified.
                   You must specify POSTGRES_PASSWORD to a non-empty value for the
                   superuser. For example, "-e POSTGRES_PASSWORD=password" on "docker run".
                                 restart: #1
               6.270s containers container "db" exited with code 1 (Error) after 120ms
                                 exit code: 1
                                 reason: Error
                                 why: its main process ended with a non-zero exit code
               7.000s containers kubelet records Warning BackOff: Back-off restarting failed container db in pod db_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
               7.000s status     kubelet updates status of default/db: Running (0/1 ready, CrashLoopBackOff, 1 restarts)
              16.270s runtime    kubelet records Normal Pulled (x2): Container image "postgres:17" already present on machine and can be accessed by the pod
              16.330s containers kubelet records Normal Created (x3): Container created
              16.420s containers kubelet records Normal Started (x3): Container started
              16.420s containers container "db" is running: the postgres entrypoint refuses to initialise a database without POSTGRES_PASSWORD and exits 1
                                 container ID: containerd://0de2b0ab6b89f8ac62184fdaeffa95c84857c52e70ded4d28eb67bb2bf528e01
                                 image: docker.io/library/postgres:17 (docker.io/library/postgres@sha256:1933e5fa6a00a1546a16f947fed6151b42868e5ef1dedaa7f3c9f714af0bf734)
                                 command line: ["docker-entrypoint.sh", "postgres"]
                                 cgroup: /sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice/cri-containerd-0de2b0ab6b89f8ac62184fdaeffa95c84857c52e70ded4d28eb67bb2bf528e01.scope
                                 what it does: the postgres entrypoint refuses to initialise a database without POSTGRES_PASSWORD and exits 1
                                 output: Error: Database is uninitialized and superuser password is not specified.
                   You must specify POSTGRES_PASSWORD to a non-empty value for the
                   superuser. For example, "-e POSTGRES_PASSWORD=password" on "docker run".
                                 restart: #2
              16.540s containers container "db" exited with code 1 (Error) after 120ms
                                 exit code: 1
                                 reason: Error
                                 why: its main process ended with a non-zero exit code
              17.000s containers kubelet records Warning BackOff (x2): Back-off restarting failed container db in pod db_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
              17.000s status     kubelet updates status of default/db: Running (0/1 ready, CrashLoopBackOff, 2 restarts)
            -- settled at 30.000s
            kubectl get pod: READY 0/1 STATUS CrashLoopBackOff RESTARTS 2
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container db: waiting CrashLoopBackOff "back-off 20s restarting failed container=db pod=db_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)" | last: terminated Error exit=1 | ready=false started=false restarts=2 image=docker.io/library/postgres:17
            events:
              Normal Pulling spec.containers{db}: Pulling image "postgres:17"
              Normal Pulled spec.containers{db}: Successfully pulled image "postgres:17" in 5.044s (5.044s including waiting). Image size: 162881905 bytes.
              Normal Created (x3) spec.containers{db}: Container created
              Normal Started (x3) spec.containers{db}: Container started
              Normal Pulled (x2) spec.containers{db}: Container image "postgres:17" already present on machine and can be accessed by the pod
              Warning BackOff (x2) spec.containers{db}: Back-off restarting failed container db in pod db_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
        "#]],
    );
}

#[test]
fn command_typo_cannot_start() {
    check_with(
        NODE,
        &pod(
            "web",
            "  containers:\n  - {name: web, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [slep, \"3600\"]}",
        ),
        KubeletConfig::default(),
        30_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/web bound to its node
               0.002s kubelet    kubelet admits pod default/web
               0.002s kubelet    QoS class of default/web: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/web
               0.272s cni        CNI ADD (ptp): default/web gets 10.244.1.2
               0.402s runtime    sandbox of default/web is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.462s containers kubelet records Normal Created: Container created
               0.552s containers kubelet records Warning Failed: Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "slep": executable file not found in $PATH: unknown
               0.552s containers container "web" cannot start
               0.552s status     kubelet updates status of default/web: Running (0/1 ready, RunContainerError)
               1.000s runtime    kubelet records Normal Pulled (x2): Container image "busybox:1.36" already present on machine and can be accessed by the pod
               1.060s containers kubelet records Normal Created (x2): Container created
               1.150s containers kubelet records Warning Failed (x2): Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "slep": executable file not found in $PATH: unknown
               1.150s containers container "web" cannot start
               1.150s status     kubelet updates status of default/web: Running (0/1 ready, RunContainerError, 1 restarts)
               2.000s containers kubelet records Warning BackOff: Back-off restarting failed container web in pod web_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
               2.000s status     kubelet updates status of default/web: Running (0/1 ready, CrashLoopBackOff, 1 restarts)
              11.150s runtime    kubelet records Normal Pulled (x3): Container image "busybox:1.36" already present on machine and can be accessed by the pod
              11.210s containers kubelet records Normal Created (x3): Container created
              11.300s containers kubelet records Warning Failed (x3): Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "slep": executable file not found in $PATH: unknown
              11.300s containers container "web" cannot start
              11.300s status     kubelet updates status of default/web: Running (0/1 ready, RunContainerError, 2 restarts)
              12.000s containers kubelet records Warning BackOff (x2): Back-off restarting failed container web in pod web_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
              12.000s status     kubelet updates status of default/web: Running (0/1 ready, CrashLoopBackOff, 2 restarts)
            -- settled at 30.000s
            kubectl get pod: READY 0/1 STATUS CrashLoopBackOff RESTARTS 2
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container web: waiting CrashLoopBackOff "back-off 20s restarting failed container=web pod=web_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)" | last: terminated StartError exit=128 | ready=false started=false restarts=2 image=docker.io/library/busybox:1.36
            events:
              Normal Pulled (x3) spec.containers{web}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created (x3) spec.containers{web}: Container created
              Warning Failed (x3) spec.containers{web}: Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "slep": executable file not found in $PATH: unknown
              Warning BackOff (x2) spec.containers{web}: Back-off restarting failed container web in pod web_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
        "#]],
    );
}

#[test]
fn never_pull_policy_without_the_image() {
    check_with(
        NODE,
        &pod("web", "  containers:\n  - {name: web, image: nginx:1.29, imagePullPolicy: Never}"),
        KubeletConfig::default(),
        15_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/web bound to its node
               0.002s kubelet    kubelet admits pod default/web
               0.002s kubelet    QoS class of default/web: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/web
               0.272s cni        CNI ADD (ptp): default/web gets 10.244.1.2
               0.402s runtime    sandbox of default/web is ready (10.244.1.2)
               0.402s runtime    kubelet records Warning ErrImageNeverPull: Container image "nginx:1.29" is not present with pull policy of Never
               0.402s runtime    kubelet records Warning Failed: Error: ErrImageNeverPull
               0.402s status     kubelet updates status of default/web: Pending (0/1 ready, ErrImageNeverPull)
              10.402s runtime    kubelet records Warning ErrImageNeverPull (x2): Container image "nginx:1.29" is not present with pull policy of Never
              10.402s runtime    kubelet records Warning Failed (x2): Error: ErrImageNeverPull
            -- settled at 10.402s
            kubectl get pod: READY 0/1 STATUS ErrImageNeverPull RESTARTS 0
            phase=Pending podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container web: waiting ErrImageNeverPull "Container image \"nginx:1.29\" is not present with pull policy of Never" | last: {} | ready=false started=false restarts=0 image=nginx:1.29
            events:
              Warning ErrImageNeverPull (x2) spec.containers{web}: Container image "nginx:1.29" is not present with pull policy of Never
              Warning Failed (x2) spec.containers{web}: Error: ErrImageNeverPull
        "#]],
    );
}

#[test]
fn exec_liveness_probe_from_the_docs() {
    check_with(
        NODE,
        &pod(
            "liveness-exec",
            r#"  containers:
  - name: liveness
    image: registry.k8s.io/busybox:1.27.2
    args: [/bin/sh, -c, "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600"]
    livenessProbe:
      exec: {command: [cat, /tmp/healthy]}
      initialDelaySeconds: 5
      periodSeconds: 5"#,
        ),
        KubeletConfig::default(),
        80_000,
        &["probe"],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/liveness-exec bound to its node
               0.002s kubelet    kubelet admits pod default/liveness-exec
               0.002s kubelet    QoS class of default/liveness-exec: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/liveness-exec: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/liveness-exec
               0.272s cni        CNI ADD (ptp): default/liveness-exec gets 10.244.1.2
               0.402s runtime    sandbox of default/liveness-exec is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "registry.k8s.io/busybox:1.27.2"
               0.402s runtime    containerd pulls "registry.k8s.io/busybox:1.27.2" (1.1 MB, 223ms)
               0.625s runtime    kubelet records Normal Pulled: Successfully pulled image "registry.k8s.io/busybox:1.27.2" in 223ms (223ms including waiting). Image size: 1113554 bytes.
               0.625s status     kubelet reports the node's images (node.status.images)
               0.685s containers kubelet records Normal Created: Container created
               0.775s containers kubelet records Normal Started: Container started
               0.775s containers container "liveness" is running: the script runs for 10m30s and exits 0
               1.000s status     kubelet updates status of default/liveness-exec: Running (1/1 ready, Running)
              35.002s status     kubelet records Warning Unhealthy: Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory
              40.002s status     kubelet records Warning Unhealthy (x2): Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory
              45.002s status     kubelet records Warning Unhealthy (x3): Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory
              45.002s status     liveness probe of "liveness" fails
                                 probe: exec [cat /tmp/healthy] delay=5s timeout=1s period=5s #success=1 #failure=3
                                 result: Failure: cat: can't open '/tmp/healthy': No such file or directory
                                 consecutive: 3 (threshold 3)
              45.002s containers kubelet records Normal Killing: Container liveness failed liveness probe, will be restarted
              75.002s containers container "liveness" exited with code 137 (Error) after 1m14.227s
              75.002s runtime    kubelet records Normal Pulled: Container image "registry.k8s.io/busybox:1.27.2" already present on machine and can be accessed by the pod
              75.062s containers kubelet records Normal Created (x2): Container created
              75.152s containers kubelet records Normal Started (x2): Container started
              75.152s containers container "liveness" is running: the script runs for 10m30s and exits 0
              76.000s status     kubelet updates status of default/liveness-exec: Running (1/1 ready, Running, 1 restarts)
            -- settled at 80.000s
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 1
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            container liveness: running | last: terminated Error exit=137 | ready=true started=true restarts=1 image=registry.k8s.io/busybox:1.27.2
            events:
              Normal Pulling spec.containers{liveness}: Pulling image "registry.k8s.io/busybox:1.27.2"
              Normal Pulled spec.containers{liveness}: Successfully pulled image "registry.k8s.io/busybox:1.27.2" in 223ms (223ms including waiting). Image size: 1113554 bytes.
              Normal Created (x2) spec.containers{liveness}: Container created
              Normal Started (x2) spec.containers{liveness}: Container started
              Warning Unhealthy (x3) spec.containers{liveness}: Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory
              Normal Killing spec.containers{liveness}: Container liveness failed liveness probe, will be restarted
              Normal Pulled spec.containers{liveness}: Container image "registry.k8s.io/busybox:1.27.2" already present on machine and can be accessed by the pod
        "#]],
    );
}

#[test]
fn http_liveness_probe_from_the_docs() {
    check_with(
        NODE,
        &pod(
            "liveness-http",
            r#"  containers:
  - name: liveness
    image: registry.k8s.io/e2e-test-images/agnhost:2.40
    args: [liveness]
    livenessProbe:
      httpGet: {path: /healthz, port: 8080, httpHeaders: [{name: Custom-Header, value: Awesome}]}
      initialDelaySeconds: 3
      periodSeconds: 3"#,
        ),
        KubeletConfig::default(),
        25_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/liveness-http bound to its node
               0.002s kubelet    kubelet admits pod default/liveness-http
               0.002s kubelet    QoS class of default/liveness-http: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/liveness-http: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/liveness-http
               0.272s cni        CNI ADD (ptp): default/liveness-http gets 10.244.1.2
               0.402s runtime    sandbox of default/liveness-http is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "registry.k8s.io/e2e-test-images/agnhost:2.40"
               0.402s runtime    containerd pulls "registry.k8s.io/e2e-test-images/agnhost:2.40" (55.1 MB, 1.833s)
               2.235s runtime    kubelet records Normal Pulled: Successfully pulled image "registry.k8s.io/e2e-test-images/agnhost:2.40" in 1.833s (1.833s including waiting). Image size: 55134761 bytes.
               2.235s status     kubelet reports the node's images (node.status.images)
               2.295s containers kubelet records Normal Created: Container created
               2.385s containers kubelet records Normal Started: Container started
               2.385s containers container "liveness" is running: agnhost liveness: /healthz on port 8080 answers 200 for 10 s, then 500
               3.000s status     kubelet updates status of default/liveness-http: Running (1/1 ready, Running)
              15.002s status     kubelet records Warning Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500
              18.002s status     kubelet records Warning Unhealthy (x2): Liveness probe failed: HTTP probe failed with statuscode: 500
              21.002s status     kubelet records Warning Unhealthy (x3): Liveness probe failed: HTTP probe failed with statuscode: 500
              21.002s status     liveness probe of "liveness" fails
              21.002s containers kubelet records Normal Killing: Container liveness failed liveness probe, will be restarted
              21.122s containers container "liveness" exited with code 2 (Error) after 18.737s
              21.122s runtime    kubelet records Normal Pulled: Container image "registry.k8s.io/e2e-test-images/agnhost:2.40" already present on machine and can be accessed by the pod
              21.182s containers kubelet records Normal Created (x2): Container created
              21.272s containers kubelet records Normal Started (x2): Container started
              21.272s containers container "liveness" is running: agnhost liveness: /healthz on port 8080 answers 200 for 10 s, then 500
              22.000s status     kubelet updates status of default/liveness-http: Running (1/1 ready, Running, 1 restarts)
            -- settled at 24.002s
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 1
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            container liveness: running | last: terminated Error exit=2 | ready=true started=true restarts=1 image=registry.k8s.io/e2e-test-images/agnhost:2.40
            events:
              Normal Pulling spec.containers{liveness}: Pulling image "registry.k8s.io/e2e-test-images/agnhost:2.40"
              Normal Pulled spec.containers{liveness}: Successfully pulled image "registry.k8s.io/e2e-test-images/agnhost:2.40" in 1.833s (1.833s including waiting). Image size: 55134761 bytes.
              Normal Created (x2) spec.containers{liveness}: Container created
              Normal Started (x2) spec.containers{liveness}: Container started
              Warning Unhealthy (x3) spec.containers{liveness}: Liveness probe failed: HTTP probe failed with statuscode: 500
              Normal Killing spec.containers{liveness}: Container liveness failed liveness probe, will be restarted
              Normal Pulled spec.containers{liveness}: Container image "registry.k8s.io/e2e-test-images/agnhost:2.40" already present on machine and can be accessed by the pod
        "#]],
    );
}

/// With restartPolicy Never a failed liveness probe still kills the container (the Killing
/// message then lacks ", will be restarted"), nothing starts it again, and the pod fails.
#[test]
fn failed_liveness_probe_under_restart_policy_never_ends_the_pod() {
    check_with(
        NODE,
        &pod(
            "once",
            r#"  containers:
  - name: app
    image: busybox:1.37
    command: [sleep, "3600"]
    livenessProbe:
      exec: {command: [cat, /tmp/healthy]}
      periodSeconds: 5
      failureThreshold: 1"#,
        )
        .replace("restartPolicy: Always", "restartPolicy: Never"),
        KubeletConfig::default(),
        60_000,
        &["probe"],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/once bound to its node
               0.002s kubelet    kubelet admits pod default/once
               0.002s kubelet    QoS class of default/once: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/once: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/once
               0.272s cni        CNI ADD (ptp): default/once gets 10.244.1.2
               0.402s runtime    sandbox of default/once is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "busybox:1.37"
               0.402s runtime    containerd pulls "busybox:1.37" (2.2 MB, 254ms)
               0.656s runtime    kubelet records Normal Pulled: Successfully pulled image "busybox:1.37" in 254ms (254ms including waiting). Image size: 2166802 bytes.
               0.656s status     kubelet reports the node's images (node.status.images)
               0.716s containers kubelet records Normal Created: Container created
               0.806s containers kubelet records Normal Started: Container started
               0.806s containers container "app" is running: sleeps 1h0m0s and exits 0
               1.000s status     kubelet updates status of default/once: Running (1/1 ready, Running)
               5.002s status     kubelet records Warning Unhealthy: Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory
               5.002s status     liveness probe of "app" fails
                                 probe: exec [cat /tmp/healthy] delay=0s timeout=1s period=5s #success=1 #failure=1
                                 result: Failure: cat: can't open '/tmp/healthy': No such file or directory
                                 consecutive: 1 (threshold 1)
               5.002s containers kubelet records Normal Killing: Container app failed liveness probe
              35.002s containers container "app" exited with code 137 (Error) after 34.196s
              36.000s containers pod default/once is finished: Failed
              36.000s cni        CNI DEL: default/once releases 10.244.1.2
              36.000s status     kubelet updates status of default/once: Failed (0/1 ready, Error)
            -- settled at 60.000s
            kubectl get pod: READY 0/1 STATUS Error RESTARTS 0
            phase=Failed podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=False Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container app: terminated Error exit=137 | last: {} | ready=false started=false restarts=0 image=docker.io/library/busybox:1.37
            events:
              Normal Pulling spec.containers{app}: Pulling image "busybox:1.37"
              Normal Pulled spec.containers{app}: Successfully pulled image "busybox:1.37" in 254ms (254ms including waiting). Image size: 2166802 bytes.
              Normal Created spec.containers{app}: Container created
              Normal Started spec.containers{app}: Container started
              Warning Unhealthy spec.containers{app}: Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory
              Normal Killing spec.containers{app}: Container app failed liveness probe
        "#]],
    );
}

#[test]
fn failing_post_start_hook_kills_the_container() {
    check_with(
        NODE,
        &pod(
            "hooked",
            r#"  containers:
  - name: web
    image: nginx:1.29
    imagePullPolicy: IfNotPresent
    lifecycle:
      postStart:
        exec: {command: [/bin/sh, -c, "exit 1"]}"#,
        ),
        KubeletConfig::default(),
        8_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/hooked bound to its node
               0.002s kubelet    kubelet admits pod default/hooked
               0.002s kubelet    QoS class of default/hooked: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/hooked: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/hooked
               0.272s cni        CNI ADD (ptp): default/hooked gets 10.244.1.2
               0.402s runtime    sandbox of default/hooked is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "nginx:1.29"
               0.402s runtime    containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
               2.748s runtime    kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
               2.748s status     kubelet reports the node's images (node.status.images)
               2.808s containers kubelet records Normal Created: Container created
               2.898s containers kubelet records Normal Started: Container started
               2.898s containers container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
               2.898s containers kubelet records Warning FailedPostStartHook: Exec lifecycle hook ([/bin/sh -c exit 1]) for Container "web" in Pod "hooked_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)" failed - error: command '/bin/sh -c exit 1' exited with 1: , message: ""
               2.898s containers kubelet records Normal Killing: FailedPostStartHook
               3.018s containers container "web" exited with code 0 (Completed) after 120ms
               4.000s runtime    kubelet records Normal Pulled: Container image "nginx:1.29" already present on machine and can be accessed by the pod
               4.000s status     kubelet updates status of default/hooked: Running (0/1 ready, Completed)
               4.060s containers kubelet records Normal Created (x2): Container created
               4.150s containers kubelet records Normal Started (x2): Container started
               4.150s containers container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
               4.150s containers kubelet records Warning FailedPostStartHook (x2): Exec lifecycle hook ([/bin/sh -c exit 1]) for Container "web" in Pod "hooked_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)" failed - error: command '/bin/sh -c exit 1' exited with 1: , message: ""
               4.150s containers kubelet records Normal Killing (x2): FailedPostStartHook
               4.270s containers container "web" exited with code 0 (Completed) after 120ms
               5.000s containers kubelet records Warning BackOff: Back-off restarting failed container web in pod hooked_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
               5.000s status     kubelet updates status of default/hooked: Running (0/1 ready, CrashLoopBackOff, 1 restarts)
            -- settled at 5.000s
            kubectl get pod: READY 0/1 STATUS CrashLoopBackOff RESTARTS 1
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container web: waiting CrashLoopBackOff "back-off 10s restarting failed container=web pod=hooked_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)" | last: terminated Completed exit=0 | ready=false started=false restarts=1 image=docker.io/library/nginx:1.29
            events:
              Normal Pulling spec.containers{web}: Pulling image "nginx:1.29"
              Normal Pulled spec.containers{web}: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
              Normal Created (x2) spec.containers{web}: Container created
              Normal Started (x2) spec.containers{web}: Container started
              Warning FailedPostStartHook (x2) spec.containers{web}: Exec lifecycle hook ([/bin/sh -c exit 1]) for Container "web" in Pod "hooked_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)" failed - error: command '/bin/sh -c exit 1' exited with 1: , message: ""
              Normal Killing (x2) spec.containers{web}: FailedPostStartHook
              Normal Pulled spec.containers{web}: Container image "nginx:1.29" already present on machine and can be accessed by the pod
              Warning BackOff spec.containers{web}: Back-off restarting failed container web in pod hooked_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
        "#]],
    );
}

#[test]
fn sidecar_starts_before_the_app_and_keeps_running() {
    check_with(
        NODE,
        &pod(
            "with-sidecar",
            r#"  initContainers:
  - {name: logshipper, image: busybox:1.36, imagePullPolicy: IfNotPresent, restartPolicy: Always, command: [sh, -c, "tail -F /opt/logs.txt"]}
  containers:
  - {name: app, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sh, -c, "while true; do echo logging >> /opt/logs.txt; sleep 1; done"]}"#,
        ),
        KubeletConfig::default(),
        10_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/with-sidecar bound to its node
               0.002s kubelet    kubelet admits pod default/with-sidecar
               0.002s kubelet    QoS class of default/with-sidecar: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/with-sidecar: Pending (0/2 ready, Init:0/1)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/with-sidecar
               0.272s cni        CNI ADD (ptp): default/with-sidecar gets 10.244.1.2
               0.402s runtime    sandbox of default/with-sidecar is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.462s containers kubelet records Normal Created: Container created
               0.552s containers kubelet records Normal Started: Container started
               0.552s containers container "logshipper" is running: the script ends in a foreground process: follows a file forever
               1.000s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               1.000s status     kubelet updates status of default/with-sidecar: Pending (1/2 ready, PodInitializing)
               1.060s containers kubelet records Normal Created: Container created
               1.150s containers kubelet records Normal Started: Container started
               1.150s containers container "app" is running: the script loops forever
               2.000s status     kubelet updates status of default/with-sidecar: Running (2/2 ready, Running)
            -- settled at 10.000s
            kubectl get pod: READY 2/2 STATUS Running RESTARTS 0
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            init logshipper: running | last: {} | ready=true started=true restarts=0 image=docker.io/library/busybox:1.36
            container app: running | last: {} | ready=true started=true restarts=0 image=docker.io/library/busybox:1.36
            events:
              Normal Pulled spec.initContainers{logshipper}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created spec.initContainers{logshipper}: Container created
              Normal Started spec.initContainers{logshipper}: Container started
              Normal Pulled spec.containers{app}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created spec.containers{app}: Container created
              Normal Started spec.containers{app}: Container started
        "#]],
    );
}

#[test]
fn registry_down_fails_pulls_with_a_dial_error() {
    let config =
        KubeletConfig { faults: NodeFaults { registry_down: true, ..Default::default() }, ..Default::default() };
    check_with(
        NODE,
        &pod("web", "  containers:\n  - {name: web, image: nginx:1.29, imagePullPolicy: IfNotPresent}"),
        config,
        5_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/web bound to its node
               0.002s kubelet    kubelet admits pod default/web
               0.002s kubelet    QoS class of default/web: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/web
               0.272s cni        CNI ADD (ptp): default/web gets 10.244.1.2
               0.402s runtime    sandbox of default/web is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "nginx:1.29"
               0.402s runtime    containerd cannot pull "nginx:1.29"
               0.432s runtime    kubelet records Warning Failed: Failed to pull image "nginx:1.29": failed to pull and unpack image "docker.io/library/nginx:1.29": failed to resolve reference "docker.io/library/nginx:1.29": failed to do request: Head "https://registry-1.docker.io/v2/library/nginx/manifests/1.29": dial tcp 51.64.218.161:443: connect: connection refused
               0.432s runtime    kubelet records Warning Failed: Error: ErrImagePull
               0.432s status     kubelet updates status of default/web: Pending (0/1 ready, ErrImagePull)
               1.000s runtime    kubelet records Normal BackOff: Back-off pulling image "nginx:1.29"
               1.000s runtime    kubelet records Warning Failed: Error: ImagePullBackOff
               1.000s status     kubelet updates status of default/web: Pending (0/1 ready, ImagePullBackOff)
            -- settled at 1.000s
            kubectl get pod: READY 0/1 STATUS ImagePullBackOff RESTARTS 0
            phase=Pending podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container web: waiting ImagePullBackOff "Back-off pulling image \"nginx:1.29\": ErrImagePull: failed to pull and unpack image \"docker.io/library/nginx:1.29\": failed to resolve reference \"docker.io/library/nginx:1.29\": failed to do request: Head \"https://registry-1.docker.io/v2/library/nginx/manifests/1.29\": dial tcp 51.64.218.161:443: connect: connection refused" | last: {} | ready=false started=false restarts=0 image=nginx:1.29
            events:
              Normal Pulling spec.containers{web}: Pulling image "nginx:1.29"
              Warning Failed spec.containers{web}: Failed to pull image "nginx:1.29": failed to pull and unpack image "docker.io/library/nginx:1.29": failed to resolve reference "docker.io/library/nginx:1.29": failed to do request: Head "https://registry-1.docker.io/v2/library/nginx/manifests/1.29": dial tcp 51.64.218.161:443: connect: connection refused
              Warning Failed spec.containers{web}: Error: ErrImagePull
              Normal BackOff spec.containers{web}: Back-off pulling image "nginx:1.29"
              Warning Failed spec.containers{web}: Error: ImagePullBackOff
        "#]],
    );
}

#[test]
fn disk_pressure_evicts_best_effort_pods() {
    let config = KubeletConfig {
        faults: NodeFaults {
            disk_pressure: Some(DiskPressure { since_ms: 20_000, available_percent: 5 }),
            ..Default::default()
        },
        ..Default::default()
    };
    let objects = format!(
        "{}\n---\n{}",
        pod("besteffort", "  containers:\n  - {name: web, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sleep, infinity]}"),
        pod(
            "guaranteed",
            "  containers:\n  - {name: web, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sleep, infinity], resources: {limits: {cpu: 100m, memory: 64Mi}}}"
        )
    );
    check_with(
        NODE,
        &objects,
        config,
        60_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/besteffort bound to its node
               0.002s kubelet    kubelet admits pod default/besteffort
               0.002s kubelet    QoS class of default/besteffort: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/besteffort: Pending (0/1 ready, ContainerCreating)
               0.002s kubelet    kubelet on worker-1 sees pod default/guaranteed bound to its node
               0.002s kubelet    kubelet admits pod default/guaranteed
               0.002s kubelet    QoS class of default/guaranteed: Guaranteed
               0.002s kubelet    kubelet creates cgroup kubepods-pod3f364394_aea2_43d9_a497_2069afb04795.slice
               0.002s status     kubelet updates status of default/guaranteed: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/besteffort
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/guaranteed
               0.272s cni        CNI ADD (ptp): default/besteffort gets 10.244.1.2
               0.272s cni        CNI ADD (ptp): default/guaranteed gets 10.244.1.3
               0.402s runtime    sandbox of default/besteffort is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.402s runtime    sandbox of default/guaranteed is ready (10.244.1.3)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.462s containers kubelet records Normal Created: Container created
               0.462s containers kubelet records Normal Created: Container created
               0.552s containers kubelet records Normal Started: Container started
               0.552s containers container "web" is running: sleeps forever
               0.552s containers kubelet records Normal Started: Container started
               0.552s containers container "web" is running: sleeps forever
               1.000s status     kubelet updates status of default/besteffort: Running (1/1 ready, Running)
               1.000s status     kubelet updates status of default/guaranteed: Running (1/1 ready, Running)
              20.000s status     kubelet reports DiskPressure=True on worker-1
              20.000s kubelet    kubelet records Normal NodeHasDiskPressure: Node worker-1 status is now: NodeHasDiskPressure
              20.000s kubelet    kubelet records Warning EvictionThresholdMet: Attempting to reclaim ephemeral-storage
              20.000s kubelet    kubelet records Warning Evicted: The node was low on resource: ephemeral-storage. Threshold quantity: 10737418240, available: 5242880Ki. Container web was using 8Ki, request is 0, has larger consumption of ephemeral-storage. 
              20.000s containers kubelet records Normal Killing: Stopping container web
              21.000s containers container "web" exited with code 137 (Error) after 20.448s
              21.000s cni        CNI DEL: default/besteffort releases 10.244.1.2
              21.000s status     kubelet updates status of default/besteffort: Failed (0/1 ready, Error)
            -- settled at 60.000s
            == default/besteffort
            kubectl get pod: READY 0/1 STATUS Error RESTARTS 0
            phase=Failed podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort message="The node was low on resource: ephemeral-storage. Threshold quantity: 10737418240, available: 5242880Ki. Container web was using 8Ki, request is 0, has larger consumption of ephemeral-storage. "
            conditions: DisruptionTarget=True(TerminationByKubelet) PodReadyToStartContainers=False Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container web: terminated Error exit=137 | last: {} | ready=false started=false restarts=0 image=docker.io/library/busybox:1.36
            == default/guaranteed
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 0
            phase=Running podIP=10.244.1.3 hostIP=172.18.0.3 qosClass=Guaranteed
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            container web: running | last: {} | ready=true started=true restarts=0 image=docker.io/library/busybox:1.36
            events:
              Normal Pulled spec.containers{web}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created spec.containers{web}: Container created
              Normal Started spec.containers{web}: Container started
              Warning Evicted Pod: The node was low on resource: ephemeral-storage. Threshold quantity: 10737418240, available: 5242880Ki. Container web was using 8Ki, request is 0, has larger consumption of ephemeral-storage. 
              Normal Killing spec.containers{web}: Stopping container web
              Normal Pulled spec.containers{web}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created spec.containers{web}: Container created
              Normal Started spec.containers{web}: Container started
              Normal NodeHasDiskPressure Node: Node worker-1 status is now: NodeHasDiskPressure
              Warning EvictionThresholdMet Node: Attempting to reclaim ephemeral-storage
        "#]],
    );
}

#[test]
fn kubelet_stopping_freezes_the_node() {
    let config =
        KubeletConfig { faults: NodeFaults { not_ready_at: Some(1_000), ..Default::default() }, ..Default::default() };
    let mut kubelet_started = run(
        NODE,
        &pod("web", "  containers:\n  - {name: web, image: nginx:1.29, imagePullPolicy: IfNotPresent}"),
        config,
        30_000,
        &["node-heartbeat"],
    );
    kubelet_started.truncate(kubelet_started.find("events:").unwrap_or(kubelet_started.len()));
    expect![[r#"
           0.002s kubelet    kubelet on worker-1 sees pod default/web bound to its node
           0.002s kubelet    kubelet admits pod default/web
           0.002s kubelet    QoS class of default/web: BestEffort
           0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
           0.002s status     kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
           0.122s runtime    kubelet → containerd: RunPodSandbox for default/web
           0.272s cni        CNI ADD (ptp): default/web gets 10.244.1.2
           0.402s runtime    sandbox of default/web is ready (10.244.1.2)
           0.402s runtime    kubelet records Normal Pulling: Pulling image "nginx:1.29"
           0.402s runtime    containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
           1.000s kubelet    kubelet on worker-1 stops: no more node status, Lease renewals, pod syncs or probes
                             node: worker-1
                             last heartbeat: 2026-01-01T00:00:01Z
                             containers: keep running: only the kubelet is gone
        -- settled at 10.000s
        kubectl get pod: READY 0/1 STATUS ContainerCreating RESTARTS 0
        phase=Pending podIP=- hostIP=172.18.0.3 qosClass=BestEffort
        conditions: PodReadyToStartContainers=False Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
        container web: waiting ContainerCreating | last: {} | ready=false started=false restarts=0 image=nginx:1.29
    "#]].assert_eq(&kubelet_started);
}

#[test]
fn graceful_deletion_stops_containers_then_deletes_the_pod() {
    let objects = pod(
        "web",
        r#"  containers:
  - {name: web, image: nginx:1.29, imagePullPolicy: IfNotPresent}
  - {name: sleeper, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sleep, infinity]}"#,
    );
    let out =
        run_scenario(NODE, &objects, KubeletConfig::default(), 120_000, &[], vec![(10_000, "default/web".into(), 30)]);
    expect![[r#"
           0.002s kubelet    kubelet on worker-1 sees pod default/web bound to its node
           0.002s kubelet    kubelet admits pod default/web
           0.002s kubelet    QoS class of default/web: BestEffort
           0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
           0.002s status     kubelet updates status of default/web: Pending (0/2 ready, ContainerCreating)
           0.122s runtime    kubelet → containerd: RunPodSandbox for default/web
           0.272s cni        CNI ADD (ptp): default/web gets 10.244.1.2
           0.402s runtime    sandbox of default/web is ready (10.244.1.2)
           0.402s runtime    kubelet records Normal Pulling: Pulling image "nginx:1.29"
           0.402s runtime    containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
           2.748s runtime    kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
           2.748s status     kubelet reports the node's images (node.status.images)
           2.808s containers kubelet records Normal Created: Container created
           2.898s containers kubelet records Normal Started: Container started
           2.898s containers container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
           2.898s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
           2.958s containers kubelet records Normal Created: Container created
           3.048s containers kubelet records Normal Started: Container started
           3.048s containers container "sleeper" is running: sleeps forever
           4.000s status     kubelet updates status of default/web: Running (2/2 ready, Running)
          10.002s kubelet    kubelet sees pod default/web marked for deletion (grace 30s)
          10.002s containers kubelet records Normal Killing: Stopping container sleeper
          10.002s containers kubelet records Normal Killing: Stopping container web
          10.122s containers container "web" exited with code 0 (Completed) after 7.224s
          40.002s containers container "sleeper" exited with code 137 (Error) after 36.954s
          40.002s cni        CNI DEL: default/web releases 10.244.1.2
          40.002s status     kubelet updates status of default/web: Failed (0/2 ready, Completed)
          40.002s status     kubelet deletes pod default/web (grace period 0): its containers are gone
        -- settled at 110.000s
        pod is gone
        events:
          Normal Pulling spec.containers{web}: Pulling image "nginx:1.29"
          Normal Pulled spec.containers{web}: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
          Normal Created spec.containers{web}: Container created
          Normal Started spec.containers{web}: Container started
          Normal Pulled spec.containers{sleeper}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
          Normal Created spec.containers{sleeper}: Container created
          Normal Started spec.containers{sleeper}: Container started
          Normal Killing spec.containers{sleeper}: Stopping container sleeper
          Normal Killing spec.containers{web}: Stopping container web
    "#]].assert_eq(&out);
}

#[test]
fn claims_and_memory_backed_volumes() {
    let objects = [
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: default}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\nstatus: {phase: Pending}",
        "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv-logs}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /var/local-path-provisioner/pv-logs}}",
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: logs, namespace: default}\nspec: {accessModes: [ReadWriteOnce], volumeName: pv-logs, resources: {requests: {storage: 1Gi}}}\nstatus: {phase: Bound}",
        &pod(
            "db",
            r#"  containers:
  - name: db
    image: redis:8
    resources: {limits: {memory: 256Mi}}
    volumeMounts: [{name: data, mountPath: /data}, {name: scratch, mountPath: /scratch}, {name: logs, mountPath: /logs}]
  volumes:
  - {name: scratch, emptyDir: {medium: Memory}}
  - {name: logs, persistentVolumeClaim: {claimName: logs}}
  - {name: data, persistentVolumeClaim: {claimName: data}}"#,
        ),
    ]
    .join("\n---\n");
    check_with(
        NODE,
        &objects,
        KubeletConfig::default(),
        5_000,
        &["volume"],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/db bound to its node
               0.002s kubelet    kubelet admits pod default/db
               0.002s kubelet    QoS class of default/db: Burstable
               0.002s kubelet    kubelet creates cgroup kubepods-burstable-pod8d29213c_1e3a_4a88_9c4b_57ecb1415bc8.slice
               0.002s status     kubelet updates status of default/db: Pending (0/1 ready, ContainerCreating)
               0.122s kubelet    kubelet mounts volume "scratch" (emptyDir)
                                 type: emptyDir
                                 on the node: /var/lib/kubelet/pods/8d29213c-1e3a-4a88-9c4b-57ecb1415bc8/volumes/kubernetes.io~empty-dir/scratch
                                 backed by: tmpfs (size 256Mi, counts against the container's memory)
                                 [Mounted into] container | path | mode
                                   db | /scratch | rw
               0.122s kubelet    kubelet mounts volume "logs" (persistentVolumeClaim)
                                 type: persistentVolumeClaim
                                 on the node: /var/local-path-provisioner/pv-logs
                                 backed by: hostPath PersistentVolume: a directory of this node
                                 [Mounted into] container | path | mode
                                   db | /logs | rw
               0.122s kubelet    kubelet waits for volume "data": PVC default/data has non-bound phase ("Pending") or empty pvc.Spec.VolumeName ("")
                                 volume: data
                                 waiting for: PVC default/data has non-bound phase ("Pending") or empty pvc.Spec.VolumeName ("")
            -- settled at 4.122s
            kubectl get pod: READY 0/1 STATUS ContainerCreating RESTARTS 0
            phase=Pending podIP=- hostIP=172.18.0.3 qosClass=Burstable
            conditions: PodReadyToStartContainers=False Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container db: waiting ContainerCreating | last: {} | ready=false started=false restarts=0 image=redis:8
            events:
        "#]],
    );
}

#[test]
fn failing_init_container_blocks_the_pod() {
    let init = "  initContainers:\n  - {name: migrate, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sh, -c, \"echo migrating; exit 1\"]}\n  containers:\n  - {name: app, image: nginx:1.29}";
    let objects = format!(
        "{}\n---\n{}",
        pod("retrying", init),
        pod("once", init).replace("restartPolicy: Always", "restartPolicy: Never")
    );
    check_with(
        NODE,
        &objects,
        KubeletConfig::default(),
        30_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/once bound to its node
               0.002s kubelet    kubelet admits pod default/once
               0.002s kubelet    QoS class of default/once: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod3f364394_aea2_43d9_a497_2069afb04795.slice
               0.002s status     kubelet updates status of default/once: Pending (0/1 ready, Init:0/1)
               0.002s kubelet    kubelet on worker-1 sees pod default/retrying bound to its node
               0.002s kubelet    kubelet admits pod default/retrying
               0.002s kubelet    QoS class of default/retrying: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/retrying: Pending (0/1 ready, Init:0/1)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/once
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/retrying
               0.272s cni        CNI ADD (ptp): default/once gets 10.244.1.2
               0.272s cni        CNI ADD (ptp): default/retrying gets 10.244.1.3
               0.402s runtime    sandbox of default/once is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.402s runtime    sandbox of default/retrying is ready (10.244.1.3)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.462s containers kubelet records Normal Created: Container created
               0.462s containers kubelet records Normal Created: Container created
               0.552s containers kubelet records Normal Started: Container started
               0.552s containers container "migrate" is running: the script runs for 0s and exits 1
               0.552s containers kubelet records Normal Started: Container started
               0.552s containers container "migrate" is running: the script runs for 0s and exits 1
               0.567s containers container "migrate" exited with code 1 (Error) after 15ms
               0.567s containers container "migrate" exited with code 1 (Error) after 15ms
               1.000s containers pod default/once is finished: Failed
               1.000s cni        CNI DEL: default/once releases 10.244.1.2
               1.000s status     kubelet updates status of default/once: Failed (0/1 ready, Init:Error)
               1.000s runtime    kubelet records Normal Pulled (x2): Container image "busybox:1.36" already present on machine and can be accessed by the pod
               1.000s status     kubelet updates status of default/retrying: Pending (0/1 ready, Init:Error)
               1.060s containers kubelet records Normal Created (x2): Container created
               1.150s containers kubelet records Normal Started (x2): Container started
               1.150s containers container "migrate" is running: the script runs for 0s and exits 1
               1.165s containers container "migrate" exited with code 1 (Error) after 15ms
               2.000s containers kubelet records Warning BackOff: Back-off restarting failed container migrate in pod retrying_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
               2.000s status     kubelet updates status of default/retrying: Pending (0/1 ready, Init:CrashLoopBackOff, 1 restarts)
              11.165s runtime    kubelet records Normal Pulled (x3): Container image "busybox:1.36" already present on machine and can be accessed by the pod
              11.225s containers kubelet records Normal Created (x3): Container created
              11.315s containers kubelet records Normal Started (x3): Container started
              11.315s containers container "migrate" is running: the script runs for 0s and exits 1
              11.330s containers container "migrate" exited with code 1 (Error) after 15ms
              12.000s containers kubelet records Warning BackOff (x2): Back-off restarting failed container migrate in pod retrying_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
              12.000s status     kubelet updates status of default/retrying: Pending (0/1 ready, Init:CrashLoopBackOff, 2 restarts)
            -- settled at 30.000s
            == default/retrying
            kubectl get pod: READY 0/1 STATUS Init:CrashLoopBackOff RESTARTS 2
            phase=Pending podIP=10.244.1.3 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=False(ContainersNotInitialized) Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            init migrate: waiting CrashLoopBackOff "back-off 20s restarting failed container=migrate pod=retrying_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)" | last: terminated Error exit=1 | ready=false started=false restarts=2 image=docker.io/library/busybox:1.36
            container app: waiting PodInitializing | last: {} | ready=false started=false restarts=0 image=nginx:1.29
            == default/once
            kubectl get pod: READY 0/1 STATUS Init:Error RESTARTS 0
            phase=Failed podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=False Initialized=False(ContainersNotInitialized) Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            init migrate: terminated Error exit=1 | last: {} | ready=false started=false restarts=0 image=docker.io/library/busybox:1.36
            container app: waiting PodInitializing | last: {} | ready=false started=false restarts=0 image=nginx:1.29
            events:
              Normal Pulled spec.initContainers{migrate}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created spec.initContainers{migrate}: Container created
              Normal Started spec.initContainers{migrate}: Container started
              Normal Pulled (x3) spec.initContainers{migrate}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created (x3) spec.initContainers{migrate}: Container created
              Normal Started (x3) spec.initContainers{migrate}: Container started
              Warning BackOff (x2) spec.initContainers{migrate}: Back-off restarting failed container migrate in pod retrying_default(6b4d9145-b1c3-4e63-ab4a-3b1a59fb67a6)
        "#]],
    );
}

#[test]
fn on_failure_restarts_only_failed_containers() {
    let objects = format!(
        "{}\n---\n{}",
        pod("ok", "  containers:\n  - {name: task, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sh, -c, \"sleep 2\"]}")
            .replace("restartPolicy: Always", "restartPolicy: OnFailure"),
        pod("flaky", "  containers:\n  - {name: task, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sh, -c, \"sleep 2; exit 3\"]}")
            .replace("restartPolicy: Always", "restartPolicy: OnFailure"),
    );
    check_with(
        NODE,
        &objects,
        KubeletConfig::default(),
        20_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/flaky bound to its node
               0.002s kubelet    kubelet admits pod default/flaky
               0.002s kubelet    QoS class of default/flaky: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod3f364394_aea2_43d9_a497_2069afb04795.slice
               0.002s status     kubelet updates status of default/flaky: Pending (0/1 ready, ContainerCreating)
               0.002s kubelet    kubelet on worker-1 sees pod default/ok bound to its node
               0.002s kubelet    kubelet admits pod default/ok
               0.002s kubelet    QoS class of default/ok: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/ok: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/flaky
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/ok
               0.272s cni        CNI ADD (ptp): default/flaky gets 10.244.1.2
               0.272s cni        CNI ADD (ptp): default/ok gets 10.244.1.3
               0.402s runtime    sandbox of default/flaky is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.402s runtime    sandbox of default/ok is ready (10.244.1.3)
               0.402s runtime    kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
               0.462s containers kubelet records Normal Created: Container created
               0.462s containers kubelet records Normal Created: Container created
               0.552s containers kubelet records Normal Started: Container started
               0.552s containers container "task" is running: the script runs for 2s and exits 3
               0.552s containers kubelet records Normal Started: Container started
               0.552s containers container "task" is running: the script runs for 2s and exits 0
               1.000s status     kubelet updates status of default/flaky: Running (1/1 ready, Running)
               1.000s status     kubelet updates status of default/ok: Running (1/1 ready, Running)
               2.552s containers container "task" exited with code 3 (Error) after 2s
               2.552s containers container "task" exited with code 0 (Completed) after 2s
               3.000s runtime    kubelet records Normal Pulled (x2): Container image "busybox:1.36" already present on machine and can be accessed by the pod
               3.000s status     kubelet updates status of default/flaky: Running (0/1 ready, Error)
               3.000s containers pod default/ok is finished: Succeeded
               3.000s cni        CNI DEL: default/ok releases 10.244.1.3
               3.000s status     kubelet updates status of default/ok: Succeeded (0/1 ready, Completed)
               3.060s containers kubelet records Normal Created (x2): Container created
               3.150s containers kubelet records Normal Started (x2): Container started
               3.150s containers container "task" is running: the script runs for 2s and exits 3
               4.000s status     kubelet updates status of default/flaky: Running (1/1 ready, Running, 1 restarts)
               5.150s containers container "task" exited with code 3 (Error) after 2s
               6.000s containers kubelet records Warning BackOff: Back-off restarting failed container task in pod flaky_default(3f364394-aea2-43d9-a497-2069afb04795)
               6.000s status     kubelet updates status of default/flaky: Running (0/1 ready, CrashLoopBackOff, 1 restarts)
              15.150s runtime    kubelet records Normal Pulled (x3): Container image "busybox:1.36" already present on machine and can be accessed by the pod
              15.210s containers kubelet records Normal Created (x3): Container created
              15.300s containers kubelet records Normal Started (x3): Container started
              15.300s containers container "task" is running: the script runs for 2s and exits 3
              16.000s status     kubelet updates status of default/flaky: Running (1/1 ready, Running, 2 restarts)
              17.300s containers container "task" exited with code 3 (Error) after 2s
              18.000s containers kubelet records Warning BackOff (x2): Back-off restarting failed container task in pod flaky_default(3f364394-aea2-43d9-a497-2069afb04795)
              18.000s status     kubelet updates status of default/flaky: Running (0/1 ready, CrashLoopBackOff, 2 restarts)
            -- settled at 20.000s
            == default/ok
            kubectl get pod: READY 0/1 STATUS Completed RESTARTS 0
            phase=Succeeded podIP=10.244.1.3 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=False Initialized=True Ready=False(PodCompleted) ContainersReady=False(PodCompleted) PodScheduled=True
            container task: terminated Completed exit=0 | last: {} | ready=false started=false restarts=0 image=docker.io/library/busybox:1.36
            == default/flaky
            kubectl get pod: READY 0/1 STATUS CrashLoopBackOff RESTARTS 2
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container task: waiting CrashLoopBackOff "back-off 20s restarting failed container=task pod=flaky_default(3f364394-aea2-43d9-a497-2069afb04795)" | last: terminated Error exit=3 | ready=false started=false restarts=2 image=docker.io/library/busybox:1.36
            events:
              Normal Pulled (x3) spec.containers{task}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created (x3) spec.containers{task}: Container created
              Normal Started (x3) spec.containers{task}: Container started
              Warning BackOff (x2) spec.containers{task}: Back-off restarting failed container task in pod flaky_default(3f364394-aea2-43d9-a497-2069afb04795)
              Normal Pulled spec.containers{task}: Container image "busybox:1.36" already present on machine and can be accessed by the pod
              Normal Created spec.containers{task}: Container created
              Normal Started spec.containers{task}: Container started
        "#]],
    );
}

#[test]
fn startup_probe_gives_a_slow_database_time_or_kills_it() {
    let objects = format!(
        "{}\n---\n{}",
        pod(
            "patient",
            r#"  containers:
  - name: db
    image: mysql:8.4
    imagePullPolicy: IfNotPresent
    env: [{name: MYSQL_ROOT_PASSWORD, value: secret}]
    startupProbe: {tcpSocket: {port: 3306}, periodSeconds: 5, failureThreshold: 6}
    livenessProbe: {tcpSocket: {port: 3306}, periodSeconds: 10}
    readinessProbe: {exec: {command: [mysqladmin, ping]}, periodSeconds: 5}"#
        ),
        pod(
            "impatient",
            r#"  containers:
  - name: db
    image: mysql:8.4
    imagePullPolicy: IfNotPresent
    env: [{name: MYSQL_ROOT_PASSWORD, value: secret}]
    startupProbe: {tcpSocket: {port: 3306}, periodSeconds: 2, failureThreshold: 3}"#
        )
    );
    check_with(
        NODE,
        &objects,
        KubeletConfig::default(),
        40_000,
        &["probe"],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/impatient bound to its node
               0.002s kubelet    kubelet admits pod default/impatient
               0.002s kubelet    QoS class of default/impatient: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod3f364394_aea2_43d9_a497_2069afb04795.slice
               0.002s status     kubelet updates status of default/impatient: Pending (0/1 ready, ContainerCreating)
               0.002s kubelet    kubelet on worker-1 sees pod default/patient bound to its node
               0.002s kubelet    kubelet admits pod default/patient
               0.002s kubelet    QoS class of default/patient: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/patient: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/impatient
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/patient
               0.272s cni        CNI ADD (ptp): default/impatient gets 10.244.1.2
               0.272s cni        CNI ADD (ptp): default/patient gets 10.244.1.3
               0.402s runtime    sandbox of default/impatient is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "mysql:8.4"
               0.402s runtime    containerd pulls "mysql:8.4" (179.8 MB, 5.549s)
               0.402s runtime    sandbox of default/patient is ready (10.244.1.3)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "mysql:8.4"
               0.402s runtime    containerd pulls "mysql:8.4" (179.8 MB, 490ms)
               5.951s runtime    kubelet records Normal Pulled: Successfully pulled image "mysql:8.4" in 5.549s (5.549s including waiting). Image size: 179822445 bytes.
               5.951s status     kubelet reports the node's images (node.status.images)
               6.011s containers kubelet records Normal Created: Container created
               6.101s containers kubelet records Normal Started: Container started
               6.101s containers container "db" is running: MySQL: initialises (about 12 s), then listens on TCP 3306
               6.441s runtime    kubelet records Normal Pulled: Successfully pulled image "mysql:8.4" in 490ms (6.039s including waiting). Image size: 179822445 bytes.
               6.501s containers kubelet records Normal Created: Container created
               6.591s containers kubelet records Normal Started: Container started
               6.591s containers container "db" is running: MySQL: initialises (about 12 s), then listens on TCP 3306
               7.000s status     kubelet updates status of default/impatient: Running (0/1 ready, Running)
               7.000s status     kubelet updates status of default/patient: Running (0/1 ready, Running)
               8.002s status     kubelet records Warning Unhealthy: Startup probe failed: dial tcp 10.244.1.2:3306: connect: connection refused
              10.002s status     kubelet records Warning Unhealthy: Startup probe failed: dial tcp 10.244.1.3:3306: connect: connection refused
              10.002s status     kubelet records Warning Unhealthy (x2): Startup probe failed: dial tcp 10.244.1.2:3306: connect: connection refused
              12.002s status     kubelet records Warning Unhealthy (x3): Startup probe failed: dial tcp 10.244.1.2:3306: connect: connection refused
              12.002s status     startup probe of "db" fails
                                 probe: tcp-socket :3306 delay=0s timeout=1s period=2s #success=1 #failure=3
                                 result: Failure: dial tcp 10.244.1.2:3306: connect: connection refused
                                 consecutive: 3 (threshold 3)
              12.002s containers kubelet records Normal Killing: Container db failed startup probe, will be restarted
              12.122s containers container "db" exited with code 0 (Completed) after 6.021s
              12.122s runtime    kubelet records Normal Pulled: Container image "mysql:8.4" already present on machine and can be accessed by the pod
              12.182s containers kubelet records Normal Created (x2): Container created
              12.272s containers kubelet records Normal Started (x2): Container started
              12.272s containers container "db" is running: MySQL: initialises (about 12 s), then listens on TCP 3306
              13.000s status     kubelet updates status of default/impatient: Running (0/1 ready, Running, 1 restarts)
              14.002s status     kubelet records Warning Unhealthy (x4): Startup probe failed: dial tcp 10.244.1.2:3306: connect: connection refused
              15.002s status     kubelet records Warning Unhealthy (x2): Startup probe failed: dial tcp 10.244.1.3:3306: connect: connection refused
              16.002s status     kubelet records Warning Unhealthy (x5): Startup probe failed: dial tcp 10.244.1.2:3306: connect: connection refused
              18.002s status     kubelet records Warning Unhealthy (x6): Startup probe failed: dial tcp 10.244.1.2:3306: connect: connection refused
              18.002s status     startup probe of "db" fails
                                 probe: tcp-socket :3306 delay=0s timeout=1s period=2s #success=1 #failure=3
                                 result: Failure: dial tcp 10.244.1.2:3306: connect: connection refused
                                 consecutive: 3 (threshold 3)
              18.002s containers kubelet records Normal Killing (x2): Container db failed startup probe, will be restarted
              18.122s containers container "db" exited with code 0 (Completed) after 5.85s
              18.122s runtime    kubelet records Normal Pulled (x2): Container image "mysql:8.4" already present on machine and can be accessed by the pod
              18.182s containers kubelet records Normal Created (x3): Container created
              18.272s containers kubelet records Normal Started (x3): Container started
              18.272s containers container "db" is running: MySQL: initialises (about 12 s), then listens on TCP 3306
              19.000s status     kubelet updates status of default/impatient: Running (0/1 ready, Running, 2 restarts)
              20.002s status     startup probe of "db" succeeds
                                 probe: tcp-socket :3306 delay=0s timeout=1s period=5s #success=1 #failure=6
                                 result: Success
                                 consecutive: 1 (threshold 1)
              20.002s status     readiness probe of "db" succeeds
                                 probe: exec [mysqladmin ping] delay=0s timeout=1s period=5s #success=1 #failure=3
                                 result: Success
                                 consecutive: 1 (threshold 1)
              20.002s status     kubelet records Warning Unhealthy (x7): Startup probe failed: dial tcp 10.244.1.2:3306: connect: connection refused
              20.002s status     kubelet updates status of default/patient: Running (1/1 ready, Running)
              22.002s status     kubelet records Warning Unhealthy (x8): Startup probe failed: dial tcp 10.244.1.2:3306: connect: connection refused
              24.002s status     kubelet records Warning Unhealthy (x9): Startup probe failed: dial tcp 10.244.1.2:3306: connect: connection refused
              24.002s status     startup probe of "db" fails
                                 probe: tcp-socket :3306 delay=0s timeout=1s period=2s #success=1 #failure=3
                                 result: Failure: dial tcp 10.244.1.2:3306: connect: connection refused
                                 consecutive: 3 (threshold 3)
              24.002s containers kubelet records Normal Killing (x3): Container db failed startup probe, will be restarted
              24.122s containers container "db" exited with code 0 (Completed) after 5.85s
              24.122s containers kubelet records Warning BackOff: Back-off restarting failed container db in pod impatient_default(3f364394-aea2-43d9-a497-2069afb04795)
              25.000s status     kubelet updates status of default/impatient: Running (0/1 ready, CrashLoopBackOff, 2 restarts)
              34.122s runtime    kubelet records Normal Pulled (x3): Container image "mysql:8.4" already present on machine and can be accessed by the pod
              34.182s containers kubelet records Normal Created (x4): Container created
              34.272s containers container "db" is running: MySQL: initialises (about 12 s), then listens on TCP 3306
              35.000s status     kubelet updates status of default/impatient: Running (0/1 ready, Running, 3 restarts)
            -- settled at 40.000s
            == default/patient
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 0
            phase=Running podIP=10.244.1.3 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            container db: running | last: {} | ready=true started=true restarts=0 image=docker.io/library/mysql:8.4
            == default/impatient
            kubectl get pod: READY 0/1 STATUS Running RESTARTS 3
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=False(ContainersNotReady) ContainersReady=False(ContainersNotReady) PodScheduled=True
            container db: running | last: terminated Completed exit=0 | ready=false started=false restarts=3 image=docker.io/library/mysql:8.4
            events:
              Normal Pulling spec.containers{db}: Pulling image "mysql:8.4"
              Normal Pulled spec.containers{db}: Successfully pulled image "mysql:8.4" in 5.549s (5.549s including waiting). Image size: 179822445 bytes.
              Normal Created (x4) spec.containers{db}: Container created
              Normal Started (x3) spec.containers{db}: Container started
              Warning Unhealthy (x9) spec.containers{db}: Startup probe failed: dial tcp 10.244.1.2:3306: connect: connection refused
              Normal Killing (x3) spec.containers{db}: Container db failed startup probe, will be restarted
              Normal Pulled (x3) spec.containers{db}: Container image "mysql:8.4" already present on machine and can be accessed by the pod
              Warning BackOff spec.containers{db}: Back-off restarting failed container db in pod impatient_default(3f364394-aea2-43d9-a497-2069afb04795)
              Normal Pulling spec.containers{db}: Pulling image "mysql:8.4"
              Normal Pulled spec.containers{db}: Successfully pulled image "mysql:8.4" in 490ms (6.039s including waiting). Image size: 179822445 bytes.
              Normal Created spec.containers{db}: Container created
              Normal Started spec.containers{db}: Container started
              Warning Unhealthy (x2) spec.containers{db}: Startup probe failed: dial tcp 10.244.1.3:3306: connect: connection refused
        "#]],
    );
}

#[test]
fn grpc_liveness_probe_from_the_docs() {
    let etcd = |name: &str, listen: &str| {
        pod(
            name,
            &format!(
                r#"  containers:
  - name: etcd
    image: registry.k8s.io/etcd:3.5.1-0
    command: [/usr/local/bin/etcd, --data-dir, /var/lib/etcd, --listen-client-urls, "{listen}", --advertise-client-urls, "http://127.0.0.1:2379", --log-level, debug]
    ports: [{{containerPort: 2379}}]
    livenessProbe: {{grpc: {{port: 2379}}, initialDelaySeconds: 10}}"#
            ),
        )
    };
    let objects = format!(
        "{}\n---\n{}",
        etcd("etcd-with-grpc", "http://0.0.0.0:2379"),
        etcd("etcd-localhost", "http://127.0.0.1:2379")
    );
    check_with(
        NODE,
        &objects,
        KubeletConfig::default(),
        45_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/etcd-localhost bound to its node
               0.002s kubelet    kubelet admits pod default/etcd-localhost
               0.002s kubelet    QoS class of default/etcd-localhost: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod3f364394_aea2_43d9_a497_2069afb04795.slice
               0.002s status     kubelet updates status of default/etcd-localhost: Pending (0/1 ready, ContainerCreating)
               0.002s kubelet    kubelet on worker-1 sees pod default/etcd-with-grpc bound to its node
               0.002s kubelet    kubelet admits pod default/etcd-with-grpc
               0.002s kubelet    QoS class of default/etcd-with-grpc: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/etcd-with-grpc: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/etcd-localhost
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/etcd-with-grpc
               0.272s cni        CNI ADD (ptp): default/etcd-localhost gets 10.244.1.2
               0.272s cni        CNI ADD (ptp): default/etcd-with-grpc gets 10.244.1.3
               0.402s runtime    sandbox of default/etcd-localhost is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "registry.k8s.io/etcd:3.5.1-0"
               0.402s runtime    containerd pulls "registry.k8s.io/etcd:3.5.1-0" (22.7 MB, 866ms)
               0.402s runtime    sandbox of default/etcd-with-grpc is ready (10.244.1.3)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "registry.k8s.io/etcd:3.5.1-0"
               0.402s runtime    containerd pulls "registry.k8s.io/etcd:3.5.1-0" (22.7 MB, 490ms)
               1.268s runtime    kubelet records Normal Pulled: Successfully pulled image "registry.k8s.io/etcd:3.5.1-0" in 866ms (866ms including waiting). Image size: 22695259 bytes.
               1.268s status     kubelet reports the node's images (node.status.images)
               1.328s containers kubelet records Normal Created: Container created
               1.418s containers kubelet records Normal Started: Container started
               1.418s containers container "etcd" is running: etcd serving clients (gRPC with the health service) on port 2379 of 127.0.0.1 only
               1.758s runtime    kubelet records Normal Pulled: Successfully pulled image "registry.k8s.io/etcd:3.5.1-0" in 490ms (1.356s including waiting). Image size: 22695259 bytes.
               1.818s containers kubelet records Normal Created: Container created
               1.908s containers kubelet records Normal Started: Container started
               1.908s containers container "etcd" is running: etcd serving clients (gRPC with the health service) on port 2379
               2.000s status     kubelet updates status of default/etcd-localhost: Running (1/1 ready, Running)
               2.000s status     kubelet updates status of default/etcd-with-grpc: Running (1/1 ready, Running)
              20.002s status     kubelet records Warning Unhealthy: Liveness probe failed: timeout: failed to connect service "10.244.1.2:2379" within 1s: context deadline exceeded
              30.002s status     kubelet records Warning Unhealthy (x2): Liveness probe failed: timeout: failed to connect service "10.244.1.2:2379" within 1s: context deadline exceeded
              40.002s status     kubelet records Warning Unhealthy (x3): Liveness probe failed: timeout: failed to connect service "10.244.1.2:2379" within 1s: context deadline exceeded
              40.002s status     liveness probe of "etcd" fails
              40.002s containers kubelet records Normal Killing: Container etcd failed liveness probe, will be restarted
              40.122s containers container "etcd" exited with code 0 (Completed) after 38.704s
              40.122s runtime    kubelet records Normal Pulled: Container image "registry.k8s.io/etcd:3.5.1-0" already present on machine and can be accessed by the pod
              40.182s containers kubelet records Normal Created (x2): Container created
              40.272s containers kubelet records Normal Started (x2): Container started
              40.272s containers container "etcd" is running: etcd serving clients (gRPC with the health service) on port 2379 of 127.0.0.1 only
              41.000s status     kubelet updates status of default/etcd-localhost: Running (1/1 ready, Running, 1 restarts)
            -- settled at 41.000s
            == default/etcd-with-grpc
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 0
            phase=Running podIP=10.244.1.3 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            container etcd: running | last: {} | ready=true started=true restarts=0 image=registry.k8s.io/etcd:3.5.1-0
            == default/etcd-localhost
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 1
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            container etcd: running | last: terminated Completed exit=0 | ready=true started=true restarts=1 image=registry.k8s.io/etcd:3.5.1-0
            events:
              Normal Pulling spec.containers{etcd}: Pulling image "registry.k8s.io/etcd:3.5.1-0"
              Normal Pulled spec.containers{etcd}: Successfully pulled image "registry.k8s.io/etcd:3.5.1-0" in 866ms (866ms including waiting). Image size: 22695259 bytes.
              Normal Created (x2) spec.containers{etcd}: Container created
              Normal Started (x2) spec.containers{etcd}: Container started
              Warning Unhealthy (x3) spec.containers{etcd}: Liveness probe failed: timeout: failed to connect service "10.244.1.2:2379" within 1s: context deadline exceeded
              Normal Killing spec.containers{etcd}: Container etcd failed liveness probe, will be restarted
              Normal Pulled spec.containers{etcd}: Container image "registry.k8s.io/etcd:3.5.1-0" already present on machine and can be accessed by the pod
              Normal Pulling spec.containers{etcd}: Pulling image "registry.k8s.io/etcd:3.5.1-0"
              Normal Pulled spec.containers{etcd}: Successfully pulled image "registry.k8s.io/etcd:3.5.1-0" in 490ms (1.356s including waiting). Image size: 22695259 bytes.
              Normal Created spec.containers{etcd}: Container created
              Normal Started spec.containers{etcd}: Container started
        "#]],
    );
}

#[test]
fn kubelet_start_picks_up_pods_already_bound() {
    // The pod exists before the kubelet starts (a kubelet restart): it lists instead of
    // waiting for a watch event.
    let mut core = World::new(7);
    let pod = pod(
        "web",
        "  containers:\n  - {name: web, image: busybox:1.36, imagePullPolicy: IfNotPresent, command: [sleep, infinity]}",
    );
    crate::cluster::load(&mut core, Some(&format!("{NODE}\n---\n{pod}"))).expect("the test cluster loads");
    let mut kubelet = Kubelet::new("worker-1", KubeletConfig::default());
    kubelet.start(&mut core);
    run_loop(&mut core, &mut [&mut kubelet], 10_000);
    let summaries: Vec<String> = core
        .steps
        .iter()
        .filter(|s| s.node.is_some() && !matches!(s.detail, Detail::Etcd(_) | Detail::ApiCall(_)))
        .map(|s| format!("{} {}", secs(s.time_ms), s.summary))
        .collect();
    expect![[r#"
        0.002s kubelet on worker-1 sees pod default/web bound to its node
        0.002s kubelet admits pod default/web
        0.002s QoS class of default/web: BestEffort
        0.002s kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
        0.002s kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
        0.122s kubelet → containerd: RunPodSandbox for default/web
        0.272s CNI ADD (ptp): default/web gets 10.244.1.2
        0.402s sandbox of default/web is ready (10.244.1.2)
        0.402s kubelet records Normal Pulled: Container image "busybox:1.36" already present on machine and can be accessed by the pod
        0.462s kubelet records Normal Created: Container created
        0.552s kubelet records Normal Started: Container started
        0.552s container "web" is running: sleeps forever
        1.000s kubelet updates status of default/web: Running (1/1 ready, Running)"#]]
    .assert_eq(&summaries.join("\n"));
}

#[test]
fn custom_registry_image_serves_its_declared_port() {
    let mut config = KubeletConfig::default();
    config.registry.add("registry.example.com/shop/api:1.4", 48_000_000, &["/api"], &[]).expect("valid reference");
    check_with(
        NODE,
        &pod(
            "api",
            "  containers:\n  - {name: api, image: registry.example.com/shop/api:1.4, ports: [{containerPort: 8080}], readinessProbe: {httpGet: {path: /ready, port: 8080}}}",
        ),
        config,
        10_000,
        &[],
        expect![[r#"
               0.002s kubelet    kubelet on worker-1 sees pod default/api bound to its node
               0.002s kubelet    kubelet admits pod default/api
               0.002s kubelet    QoS class of default/api: BestEffort
               0.002s kubelet    kubelet creates cgroup kubepods-besteffort-pod6b4d9145_b1c3_4e63_ab4a_3b1a59fb67a6.slice
               0.002s status     kubelet updates status of default/api: Pending (0/1 ready, ContainerCreating)
               0.122s runtime    kubelet → containerd: RunPodSandbox for default/api
               0.272s cni        CNI ADD (ptp): default/api gets 10.244.1.2
               0.402s runtime    sandbox of default/api is ready (10.244.1.2)
               0.402s runtime    kubelet records Normal Pulling: Pulling image "registry.example.com/shop/api:1.4"
               0.402s runtime    containerd pulls "registry.example.com/shop/api:1.4" (48.0 MB, 1.62s)
               2.022s runtime    kubelet records Normal Pulled: Successfully pulled image "registry.example.com/shop/api:1.4" in 1.62s (1.62s including waiting). Image size: 48000000 bytes.
               2.022s status     kubelet reports the node's images (node.status.images)
               2.082s containers kubelet records Normal Created: Container created
               2.172s containers kubelet records Normal Started: Container started
               2.172s containers container "api" is running: the image's own program, serving HTTP on its declared port(s) 8080
               3.000s status     readiness probe of "api" succeeds
               3.000s status     kubelet updates status of default/api: Running (1/1 ready, Running)
            -- settled at 10.000s
            kubectl get pod: READY 1/1 STATUS Running RESTARTS 0
            phase=Running podIP=10.244.1.2 hostIP=172.18.0.3 qosClass=BestEffort
            conditions: PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True
            container api: running | last: {} | ready=true started=true restarts=0 image=registry.example.com/shop/api:1.4
            events:
              Normal Pulling spec.containers{api}: Pulling image "registry.example.com/shop/api:1.4"
              Normal Pulled spec.containers{api}: Successfully pulled image "registry.example.com/shop/api:1.4" in 1.62s (1.62s including waiting). Image size: 48000000 bytes.
              Normal Created spec.containers{api}: Container created
              Normal Started spec.containers{api}: Container started
        "#]],
    );
}

#[test]
fn faults_parse_from_lab_settings() {
    let faults: NodeFaults = serde_json::from_value(serde_json::json!({
        "notReadyAt": 30000,
        "cni": {"custom": "failed to set bridge addr: \"cni0\" already has an IP address different from 10.244.1.1/24"},
        "diskPressure": {"sinceMs": 5000},
        "registryDown": true
    }))
    .expect("faults parse");
    expect![[r#"NodeFaults { not_ready_at: Some(30000), cni: Some(Custom("failed to set bridge addr: \"cni0\" already has an IP address different from 10.244.1.1/24")), disk_pressure: Some(DiskPressure { since_ms: 5000, available_percent: 5 }), registry_down: true }"#]].assert_eq(&format!("{faults:?}"));
}

/// The summaries of the steps the kubelet of `worker-1` leaves in `limit_ms` on a cluster of
/// `NODE` and `objects` (no pods), and the Lease as stored at the end, if any.
fn heartbeat_steps(objects: &str, limit_ms: u64) -> (Vec<String>, Option<String>) {
    let mut core = World::new(7);
    crate::cluster::load(&mut core, Some(&format!("{NODE}\n---\n{objects}"))).expect("the test cluster loads");
    let mut kubelet = Kubelet::new("worker-1", KubeletConfig::default());
    kubelet.start(&mut core);
    run_loop(&mut core, &mut [&mut kubelet], limit_ms);
    let lease = core.store.get("/registry/leases/kube-node-lease/worker-1").map(|(o, _)| o.to_json());
    let renewed = lease.and_then(|l| l["spec"]["renewTime"].as_str().map(str::to_string));
    (core.steps.iter().map(|s| s.summary.clone()).collect(), renewed)
}

#[test]
fn heartbeats_that_succeed_leave_no_step_and_refused_ones_do() {
    let (steps, renewed) = heartbeat_steps("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: unrelated}\n", 25_000);
    assert!(steps.iter().all(|s| !s.contains("leases")), "{steps:#?}");
    assert_eq!(renewed.as_deref(), Some("2026-01-01T00:00:20.000000Z"));

    // A kube-node-lease namespace being deleted refuses the Lease: every attempt is a step.
    let terminating = "apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-node-lease, \
                       deletionTimestamp: '2026-01-01T00:00:00Z'}\nstatus: {phase: Terminating}\n";
    let (steps, renewed) = heartbeat_steps(terminating, 25_000);
    let refused: Vec<&String> = steps.iter().filter(|s| s.contains("leases")).collect();
    assert_eq!(renewed, None);
    expect![[r#"
        [
            "kubelet POST /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases → 403 Forbidden",
            "kubelet POST /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases → 403 Forbidden",
        ]
    "#]]
    .assert_debug_eq(&refused);
}
