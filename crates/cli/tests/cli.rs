//! Snapshots of `podlab apply` as a learner sees it: the text trace and kubectl's output.

use expect_test::{expect, Expect};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Writes `manifest` to a scratch file named `file` and runs `podlab apply -f <it>` with
/// `extra` flags; returns the output with the scratch directory removed, and the exit code.
fn check(file: &str, manifest: &str, extra: &[&str], expect: Expect) {
    // Tests run in parallel and several use the same file name: one directory per call.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir: PathBuf = std::env::temp_dir().join(format!("podlab-cli-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join(file);
    std::fs::write(&path, manifest).expect("scratch file");
    let mut args = vec!["apply".to_string(), "-f".to_string(), path.display().to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    let mut out = Vec::new();
    let code = podlab_cli::run(&args, &mut out);
    let text = String::from_utf8(out).expect("utf-8").replace(&format!("{}/", dir.display()), "");
    let _ = std::fs::remove_dir_all(&dir);
    expect.assert_eq(&format!("{text}[exit {code}]\n"));
}

const POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: web
    image: nginx:1.29
";

#[test]
fn accepted_pod() {
    check(
        "pod.yaml",
        POD,
        &[],
        expect![[r##"
            # podlab: kubectl apply -f pod.yaml as kubernetes-admin (Kubernetes v1.37, seed 1)
                 0.000s  Request              kubectl → kube-apiserver
                         kubectl sends GET /api/v1/namespaces/default/pods/web
                           request: GET /api/v1/namespaces/default/pods/web
                           header: Accept: application/json
                           header: User-Agent: kubectl/v1.37.0 (linux/amd64) kubernetes/6a1f3e2
                           header: Kubectl-Command: kubectl apply
                 0.000s  Authentication       kube-apiserver
                         authenticated as kubernetes-admin (x509 client certificate)
                           method: x509 client certificate
                           user: kubernetes-admin groups=["system:masters", "system:authenticated"]
                           why: the TLS client certificate is signed by the cluster CA; its Common Name "kubernetes-admin" is the user name and its Organizations ["system:masters"] are the groups
                 0.000s  Authorization        kube-apiserver
                         system:masters allows kubernetes-admin to get pods in namespace default
                           request: kubernetes-admin may get pods in namespace default named web?
                           decision: allowed by system:masters
                           message: kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted
                 0.000s  etcd                 kube-apiserver → etcd
                         reads /registry/pods/default/web: not found
                           etcd: get /registry/pods/default/web (revision 155)
                           error: key not found
                 0.000s  etcd                 kube-apiserver → kubectl
                         404 Not Found: pods "web" not found
                           response: 404 Not Found
                 0.004s  Request              kubectl → kube-apiserver
                         kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
                           request: POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
                           header: Accept: application/json
                           header: Content-Type: application/json
                           header: User-Agent: kubectl/v1.37.0 (linux/amd64) kubernetes/6a1f3e2
                           header: Kubectl-Command: kubectl apply
                           body: {"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadat… (401 bytes)
                 0.004s  Authentication       kube-apiserver
                         authenticated as kubernetes-admin (x509 client certificate)
                           method: x509 client certificate
                           user: kubernetes-admin groups=["system:masters", "system:authenticated"]
                           why: the TLS client certificate is signed by the cluster CA; its Common Name "kubernetes-admin" is the user name and its Organizations ["system:masters"] are the groups
                 0.004s  Authorization        kube-apiserver
                         system:masters allows kubernetes-admin to create pods in namespace default
                           request: kubernetes-admin may create pods in namespace default?
                           decision: allowed by system:masters
                           message: kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted
                 0.004s  Validation           kube-apiserver
                         decodes the Pod strictly and fills in 9 default(s)
                           set: spec.enableServiceLinks = true
                           set: spec.dnsPolicy = ClusterFirst
                           set: spec.restartPolicy = Always
                           set: spec.securityContext = {}
                           set: spec.terminationGracePeriodSeconds = 30
                           set: spec.schedulerName = default-scheduler
                           set: spec.containers[0].imagePullPolicy = IfNotPresent
                           set: spec.containers[0].terminationMessagePath = /dev/termination-log
                           set: spec.containers[0].terminationMessagePolicy = File
                 0.004s  Mutating admission   kube-apiserver
                         NamespaceLifecycle: allowed
                           plugin: NamespaceLifecycle (mutating pass: allowed)
                           why: The namespace default exists and is Active.
                 0.004s  Mutating admission   kube-apiserver
                         LimitRanger: nothing to do
                           plugin: LimitRanger (mutating pass: not-applicable)
                           why: There is no LimitRange in namespace default.
                 0.004s  Mutating admission   kube-apiserver
                         ServiceAccount: changed 4 field(s)
                           plugin: ServiceAccount (mutating pass: mutated)
                           change: /spec/containers/0/volumeMounts: (none) → - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                                     name: kube-api-access-t29pp
                                     readOnly: true
                           change: /spec/serviceAccount: (none) → default
                           change: /spec/serviceAccountName: (none) → default
                           change: /spec/volumes: (none) → - name: kube-api-access-t29pp
                                     projected:
                                       defaultMode: 420
                                       sources:
                                       - serviceAccountToken:
                                           expirationSeconds: 3607
                                           path: token
                                       - configMap:
                                           items:
                                           - key: ca.crt
                                             path: ca.crt
                                           name: kube-root-ca.crt
                                       - downwardAPI:
                                           items:
                                           - fieldRef:
                                               apiVersion: v1
                                               fieldPath: metadata.namespace
                                             path: namespace
                           why: The pod names no service account, so it runs as "default". Token volume kube-api-access-t29pp (a bound token valid for 3607 s, the cluster CA and the namespace) is mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in container web.
                 0.004s  Mutating admission   kube-apiserver
                         Priority: changed 2 field(s)
                           plugin: Priority (mutating pass: mutated)
                           change: /spec/preemptionPolicy: (none) → PreemptLowerPriority
                           change: /spec/priority: (none) → 0
                           why: No priorityClassName and no globalDefault PriorityClass: priority 0. Preemption policy PreemptLowerPriority.
                 0.004s  Mutating admission   kube-apiserver
                         DefaultTolerationSeconds: changed 1 field(s)
                           plugin: DefaultTolerationSeconds (mutating pass: mutated)
                           change: /spec/tolerations: (none) → - effect: NoExecute
                                     key: node.kubernetes.io/not-ready
                                     operator: Exists
                                     tolerationSeconds: 300
                                   - effect: NoExecute
                                     key: node.kubernetes.io/unreachable
                                     operator: Exists
                                     tolerationSeconds: 300
                           why: Added node.kubernetes.io/not-ready:NoExecute and node.kubernetes.io/unreachable:NoExecute for 300 s: if the pod's node stops reporting, the pod is evicted after five minutes.
                 0.004s  Mutating admission   kube-apiserver
                         RuntimeClass: nothing to do
                           plugin: RuntimeClass (mutating pass: not-applicable)
                           why: The pod names no RuntimeClass: the node's default runtime handler runs it.
                 0.004s  Validation           kube-apiserver
                         Pod "web" is valid
                           set: metadata.generation = 1
                           set: status = phase: Pending
                                qosClass: BestEffort
                 0.004s  Validating admission kube-apiserver
                         LimitRanger: nothing to do
                           plugin: LimitRanger (validating pass: not-applicable)
                           why: There is no LimitRange in namespace default.
                 0.004s  Validating admission kube-apiserver
                         ServiceAccount: allowed
                           plugin: ServiceAccount (validating pass: allowed)
                           why: The ServiceAccount default exists; the pod's 1 container(s) may use its token.
                 0.004s  Validating admission kube-apiserver
                         PodSecurity: allowed
                           plugin: PodSecurity (validating pass: allowed)
                           why: Namespace "default" asks for enforce=privileged:latest (cluster default), audit=privileged:latest (cluster default), warn=privileged:latest (cluster default).
                                All three modes are privileged, which allows everything, so PodSecurity checks nothing.
                 0.004s  Validating admission kube-apiserver
                         RuntimeClass: nothing to do
                           plugin: RuntimeClass (validating pass: not-applicable)
                           why: The pod has no overhead to check.
                 0.004s  Validating admission kube-apiserver
                         ResourceQuota: nothing to do
                           plugin: ResourceQuota (validating pass: not-applicable)
                           why: There is no ResourceQuota in namespace default.
                 0.004s  etcd                 kube-apiserver → etcd
                         creates /registry/pods/default/web at revision 156
                           etcd: create /registry/pods/default/web (revision 156)
                 0.004s  etcd                 kube-apiserver → kubectl
                         201 Created
                           response: 201 Created
                           kubectl prints: pod/web created
                 0.004s  Scheduling           kube-apiserver → kube-scheduler
                         kube-scheduler sees new pod default/web with no node
                           watch: kube-scheduler ADDED /registry/pods/default/web (revision 156): the pod has no spec.nodeName and asks for the default-scheduler
                 0.006s  Scheduling           kube-scheduler
                         kube-scheduler picks kind-worker for pod default/web
                           chosen: kind-worker
                 0.006s  etcd                 kube-scheduler → kube-apiserver
                         kube-scheduler POST /api/v1/namespaces/default/pods/web/binding → 201 Created
                           user: system:kube-scheduler
                           authorized: true by RBAC: RBAC: allowed by ClusterRoleBinding "system:kube-scheduler" of ClusterRole "system:kube-scheduler" to User "system:kube-scheduler"
                           etcd: /registry/pods/default/web revision 157
                 0.006s  etcd                 kube-scheduler → kube-apiserver
                         kube-scheduler POST /api/v1/namespaces/default/events → 201 Created
                           user: system:kube-scheduler
                           authorized: true by RBAC: RBAC: allowed by ClusterRoleBinding "system:kube-scheduler" of ClusterRole "system:kube-scheduler" to User "system:kube-scheduler"
                           etcd: /registry/events/default/web.18867251ee558d81 revision 158
                 0.006s  Scheduling           kube-scheduler → kube-apiserver
                         event Normal Scheduled: Successfully assigned default/web to kind-worker
                           event: Normal Scheduled (default-scheduler): Successfully assigned default/web to kind-worker
                 0.008s  Kubelet              kube-apiserver → kubelet [kind-worker]
                         kubelet on kind-worker sees pod default/web bound to its node
                           watch: kubelet (kind-worker) ADDED /registry/pods/default/web (revision 157): spec.nodeName is "kind-worker": this kubelet runs the pod
                 0.008s  Kubelet              kubelet [kind-worker]
                         kubelet admits pod default/web
                           node: kind-worker
                 0.008s  Kubelet              kubelet [kind-worker]
                         QoS class of default/web: BestEffort
                           qosClass: BestEffort
                           why: no container requests or limits cpu or memory
                 0.008s  Kubelet              kubelet [kind-worker]
                         kubelet creates cgroup kubepods-besteffort-podc34d0bff_9015_4280_a099_ec6cd7363ca5.slice
                           driver: systemd, cgroup v2
                           path: /sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-podc34d0bff_9015_4280_a099_ec6cd7363ca5.slice
                           cpu requests (pod): 0m
                 0.008s  Probes & status      kubelet → kube-apiserver [kind-worker]
                         kubelet updates status of default/web: Pending (0/1 ready, ContainerCreating)
                 0.008s  etcd                 kubelet → kube-apiserver [kind-worker]
                         kubelet PUT /api/v1/namespaces/default/pods/web/status → 200 OK
                           user: system:node:kind-worker
                           authorized: true by Node: the Node authorizer allows kubelet system:node:kind-worker this request (kubelets report the status of pods; the NodeRestriction admission plugin keeps them to their own pods)
                           etcd: /registry/pods/default/web revision 159
                 0.128s  Kubelet              kubelet [kind-worker]
                         kubelet mounts volume "kube-api-access-t29pp" (projected)
                           type: projected
                           on the node: /var/lib/kubelet/pods/c34d0bff-9015-4280-a099-ec6cd7363ca5/volumes/kubernetes.io~projected/kube-api-access-t29pp
                           backed by: tmpfs
                           files: token, ca.crt, namespace
                 0.128s  Container runtime    kubelet → container runtime [kind-worker]
                         kubelet → containerd: RunPodSandbox for default/web
                           CRI call: RunPodSandbox
                           sandbox ID: 6775dc7701564f619afcd44d14cf8bfe7476cf8a4baa5dc087b341d690d7a28a
                           pause image: registry.k8s.io/pause:3.10 (already present: the runtime's pinned sandbox image)
                           network namespace: /var/run/netns/cni-6f9b6dae-6f4c-47a8-aac2-ce17a5794a3b
                           hostname: web
                           cgroup parent: /sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-podc34d0bff_9015_4280_a099_ec6cd7363ca5.slice
                           DNS: nameserver 10.96.0.10, search default.svc.cluster.local svc.cluster.local cluster.local, options ndots:5
                 0.278s  CNI                  container runtime → CNI plugin [kind-worker]
                         CNI ADD (ptp): default/web gets 10.244.1.2
                           network: kindnet (plugin type "ptp", IPAM host-local)
                           container ID: 6775dc7701564f619afcd44d14cf8bfe7476cf8a4baa5dc087b341d690d7a28a
                           netns: /var/run/netns/cni-6f9b6dae-6f4c-47a8-aac2-ce17a5794a3b
                           host side: vethb7fd0b63 (f2:aa:2b:57:da:d0) with 10.244.1.1/32
                           pod side: eth0 (ee:89:af:30:96:37) with 10.244.1.2/24
                           routes in the pod: default via 10.244.1.1 dev eth0
                           route on the node: 10.244.1.2 dev vethb7fd0b63 scope host
                           IPAM range: 10.244.1.1-10.244.1.254 (1 in use, gateway 10.244.1.1 never handed out)
                           MTU: 1500
                 0.408s  Container runtime    container runtime → kubelet [kind-worker]
                         sandbox of default/web is ready (10.244.1.2)
                           sandbox ID: 6775dc7701564f619afcd44d14cf8bfe7476cf8a4baa5dc087b341d690d7a28a
                           pause container: running
                           pod IP: 10.244.1.2
                 0.408s  Container runtime    kubelet → kube-apiserver [kind-worker]
                         kubelet records Normal Pulling: Pulling image "nginx:1.29"
                           event: Normal Pulling (kubelet): Pulling image "nginx:1.29"
                 0.408s  etcd                 kubelet → kube-apiserver [kind-worker]
                         kubelet POST /api/v1/namespaces/default/events → 201 Created
                           user: system:node:kind-worker
                           authorized: true by Node: the Node authorizer allows kubelet system:node:kind-worker this request (the system:node rules allow it)
                           etcd: /registry/events/default/web.18867252064b9601 revision 160
                 0.408s  Container runtime    kubelet → container runtime [kind-worker]
                         containerd pulls "nginx:1.29" (72.4 MB, 2.346s)
                           image: nginx:1.29
                           reference: docker.io/library/nginx:1.29
                           imagePullPolicy: IfNotPresent
                           size: 72361947 bytes
                           time: 2.346s at 32 MiB/s plus 190 ms to resolve
                 2.754s  Container runtime    kubelet → kube-apiserver [kind-worker]
                         kubelet records Normal Pulled: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
                           event: Normal Pulled (kubelet): Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
                 2.754s  etcd                 kubelet → kube-apiserver [kind-worker]
                         kubelet POST /api/v1/namespaces/default/events → 201 Created
                           user: system:node:kind-worker
                           authorized: true by Node: the Node authorizer allows kubelet system:node:kind-worker this request (the system:node rules allow it)
                           etcd: /registry/events/default/web.188672529220b482 revision 161
                 2.754s  Probes & status      kubelet → kube-apiserver [kind-worker]
                         kubelet reports the node's images (node.status.images)
                 2.754s  etcd                 kubelet → kube-apiserver [kind-worker]
                         kubelet PUT /api/v1/nodes/kind-worker/status → 200 OK
                           user: system:node:kind-worker
                           authorized: true by Node: the Node authorizer allows kubelet system:node:kind-worker this request (kubelets manage their own Node object)
                           etcd: /registry/minions/kind-worker revision 162
                 2.814s  Containers           kubelet → kube-apiserver [kind-worker]
                         kubelet records Normal Created: Container created
                           event: Normal Created (kubelet): Container created
                 2.814s  etcd                 kubelet → kube-apiserver [kind-worker]
                         kubelet POST /api/v1/namespaces/default/events → 201 Created
                           user: system:node:kind-worker
                           authorized: true by Node: the Node authorizer allows kubelet system:node:kind-worker this request (the system:node rules allow it)
                           etcd: /registry/events/default/web.1886725295b43b83 revision 163
                 2.904s  Containers           kubelet → kube-apiserver [kind-worker]
                         kubelet records Normal Started: Container started
                           event: Normal Started (kubelet): Container started
                 2.904s  etcd                 kubelet → kube-apiserver [kind-worker]
                         kubelet POST /api/v1/namespaces/default/events → 201 Created
                           user: system:node:kind-worker
                           authorized: true by Node: the Node authorizer allows kubelet system:node:kind-worker this request (the system:node rules allow it)
                           etcd: /registry/events/default/web.188672529b118604 revision 164
                 2.904s  Containers           container runtime → kubelet [kind-worker]
                         container "web" is running: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
                           container ID: containerd://1f8410633ef306ac497305c5d1aab99f0c43407dc177b6f783f91ca7864a7135
                           image: docker.io/library/nginx:1.29 (docker.io/library/nginx@sha256:deaf06bb1e4dfb573be032d0a2645e1ca2ff141a89513d0f1c1c71f22ef7df98)
                           command line: ["/docker-entrypoint.sh", "nginx", "-g", "daemon off;"]
                           cgroup: /sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-podc34d0bff_9015_4280_a099_ec6cd7363ca5.slice/cri-containerd-1f8410633ef306ac497305c5d1aab99f0c43407dc177b6f783f91ca7864a7135.scope
                           what it does: nginx serving HTTP on port 80 (`/` answers 200, other paths 404)
                           listens on: 80/TCP
                 3.000s  Probes & status      kubelet → kube-apiserver [kind-worker]
                         kubelet updates status of default/web: Running (1/1 ready, Running)
                 3.000s  etcd                 kubelet → kube-apiserver [kind-worker]
                         kubelet PUT /api/v1/namespaces/default/pods/web/status → 200 OK
                           user: system:node:kind-worker
                           authorized: true by Node: the Node authorizer allows kubelet system:node:kind-worker this request (kubelets report the status of pods; the NodeRestriction admission plugin keeps them to their own pods)
                           etcd: /registry/pods/default/web revision 165

            $ kubectl apply -f pod.yaml
            pod/web created
            (exit status 0)

            $ kubectl get pods -o wide
            NAME   READY   STATUS    RESTARTS   AGE   IP           NODE          NOMINATED NODE   READINESS GATES
            web    1/1     Running   0          65s   10.244.1.2   kind-worker   <none>           <none>

            $ kubectl describe pod web
            Name:             web
            Namespace:        default
            Priority:         0
            Service Account:  default
            Node:             kind-worker/172.18.0.3
            Start Time:       Thu, 01 Jan 2026 00:00:00 +0000
            Labels:           <none>
            Annotations:      <none>
            Status:           Running
            IP:               10.244.1.2
            IPs:
              IP:  10.244.1.2
            Containers:
              web:
                Container ID:   containerd://1f8410633ef306ac497305c5d1aab99f0c43407dc177b6f783f91ca7864a7135
                Image:          nginx:1.29
                Image ID:       docker.io/library/nginx@sha256:deaf06bb1e4dfb573be032d0a2645e1ca2ff141a89513d0f1c1c71f22ef7df98
                Port:           <none>
                Host Port:      <none>
                State:          Running
                  Started:      Thu, 01 Jan 2026 00:00:02 +0000
                Ready:          True
                Restart Count:  0
                Environment:    <none>
                Mounts:
                  /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-t29pp (ro)
            Conditions:
              Type                        Status
              PodReadyToStartContainers   True 
              Initialized                 True 
              Ready                       True 
              ContainersReady             True 
              PodScheduled                True 
            Volumes:
              kube-api-access-t29pp:
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
              Normal  Scheduled  65s   default-scheduler  Successfully assigned default/web to kind-worker
              Normal  Pulling    65s   kubelet            spec.containers{web}: Pulling image "nginx:1.29"
              Normal  Pulled     63s   kubelet            spec.containers{web}: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
              Normal  Created    63s   kubelet            spec.containers{web}: Container created
              Normal  Started    63s   kubelet            spec.containers{web}: Container started
            [exit 0]
        "##]],
    );
}

#[test]
fn forbidden_for_a_limited_user() {
    check(
        "pod.yaml",
        POD,
        &["--cluster", "rbac-alice"],
        expect![[r##"
            # podlab: kubectl apply -f pod.yaml as alice (Kubernetes v1.37, seed 1)
                 0.000s  Request              kubectl → kube-apiserver
                         kubectl sends GET /api/v1/namespaces/dev/pods/web
                           request: GET /api/v1/namespaces/dev/pods/web
                           header: Accept: application/json
                           header: User-Agent: kubectl/v1.37.0 (linux/amd64) kubernetes/6a1f3e2
                           header: Kubectl-Command: kubectl apply
                 0.000s  Authentication       kube-apiserver
                         authenticated as alice (x509 client certificate)
                           method: x509 client certificate
                           user: alice groups=["developers", "system:authenticated"]
                           why: the TLS client certificate is signed by the cluster CA; its Common Name "alice" is the user name and its Organizations ["developers"] are the groups
                 0.000s  Authorization        kube-apiserver
                         RBAC (RoleBinding dev/alice-reads-pods) allows alice to get pods in namespace dev
                           request: alice may get pods in namespace dev named web?
                           decision: allowed by RBAC
                           binding: RoleBinding dev/alice-reads-pods → Role pod-reader (subject User "alice")
                           rule: #0 apiGroups=[""] resources=["pods","pods/log"] verbs=["get","list","watch"]
                           message: RBAC: allowed by RoleBinding "alice-reads-pods/dev" of Role "pod-reader" to User "alice"
                 0.000s  etcd                 kube-apiserver → etcd
                         reads /registry/pods/dev/web: not found
                           etcd: get /registry/pods/dev/web (revision 161)
                           error: key not found
                 0.000s  etcd                 kube-apiserver → kubectl
                         404 Not Found: pods "web" not found
                           response: 404 Not Found
                 0.004s  Request              kubectl → kube-apiserver
                         kubectl sends POST /api/v1/namespaces/dev/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
                           request: POST /api/v1/namespaces/dev/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
                           header: Accept: application/json
                           header: Content-Type: application/json
                           header: User-Agent: kubectl/v1.37.0 (linux/amd64) kubernetes/6a1f3e2
                           header: Kubectl-Command: kubectl apply
                           body: {"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadat… (393 bytes)
                 0.004s  Authentication       kube-apiserver
                         authenticated as alice (x509 client certificate)
                           method: x509 client certificate
                           user: alice groups=["developers", "system:authenticated"]
                           why: the TLS client certificate is signed by the cluster CA; its Common Name "alice" is the user name and its Organizations ["developers"] are the groups
            ✗    0.004s  Authorization        kube-apiserver
                         forbidden: alice may not create pods in namespace dev
                           request: alice may create pods in namespace dev?
                           decision: denied by Node,RBAC
                           considered: ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"
                           considered: ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"
                           considered: ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:authenticated"
                           considered: RoleBinding "alice-reads-pods/dev" of Role "pod-reader" to User "alice"
                           message: User "alice" cannot create resource "pods" in API group "" in the namespace "dev"
            ✗    0.004s  etcd                 kube-apiserver → kubectl
                         403 Forbidden: pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "dev"
                           response: 403 Forbidden
                           kubectl prints: Error from server (Forbidden): error when creating "pod.yaml": pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "dev"

            $ kubectl apply -f pod.yaml
            Error from server (Forbidden): error when creating "pod.yaml": pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "dev"
            (exit status 1)

            $ kubectl get pods -o wide
            No resources found in dev namespace.
            [exit 1]
        "##]],
    );
}

#[test]
fn unknown_field() {
    let pod = POD.replace(
        "    image: nginx:1.29\n",
        "    image: nginx:1.29\n    ports:\n    - containerPort: 80\n      protocl: TCP\n",
    );
    check(
        "pod.yaml",
        &pod,
        &[],
        expect![[r##"
            # podlab: kubectl apply -f pod.yaml as kubernetes-admin (Kubernetes v1.37, seed 1)
                 0.000s  Request              kubectl → kube-apiserver
                         kubectl sends GET /api/v1/namespaces/default/pods/web
                           request: GET /api/v1/namespaces/default/pods/web
                           header: Accept: application/json
                           header: User-Agent: kubectl/v1.37.0 (linux/amd64) kubernetes/6a1f3e2
                           header: Kubectl-Command: kubectl apply
                 0.000s  Authentication       kube-apiserver
                         authenticated as kubernetes-admin (x509 client certificate)
                           method: x509 client certificate
                           user: kubernetes-admin groups=["system:masters", "system:authenticated"]
                           why: the TLS client certificate is signed by the cluster CA; its Common Name "kubernetes-admin" is the user name and its Organizations ["system:masters"] are the groups
                 0.000s  Authorization        kube-apiserver
                         system:masters allows kubernetes-admin to get pods in namespace default
                           request: kubernetes-admin may get pods in namespace default named web?
                           decision: allowed by system:masters
                           message: kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted
                 0.000s  etcd                 kube-apiserver → etcd
                         reads /registry/pods/default/web: not found
                           etcd: get /registry/pods/default/web (revision 155)
                           error: key not found
                 0.000s  etcd                 kube-apiserver → kubectl
                         404 Not Found: pods "web" not found
                           response: 404 Not Found
                 0.004s  Request              kubectl → kube-apiserver
                         kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
                           request: POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
                           header: Accept: application/json
                           header: Content-Type: application/json
                           header: User-Agent: kubectl/v1.37.0 (linux/amd64) kubernetes/6a1f3e2
                           header: Kubectl-Command: kubectl apply
                           body: {"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadat… (503 bytes)
                 0.004s  Authentication       kube-apiserver
                         authenticated as kubernetes-admin (x509 client certificate)
                           method: x509 client certificate
                           user: kubernetes-admin groups=["system:masters", "system:authenticated"]
                           why: the TLS client certificate is signed by the cluster CA; its Common Name "kubernetes-admin" is the user name and its Organizations ["system:masters"] are the groups
                 0.004s  Authorization        kube-apiserver
                         system:masters allows kubernetes-admin to create pods in namespace default
                           request: kubernetes-admin may create pods in namespace default?
                           decision: allowed by system:masters
                           message: kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted
            ✗    0.004s  Validation           kube-apiserver
                         cannot decode the Pod: 400 Bad Request
                           error: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].ports[0].protocl"
            ✗    0.004s  etcd                 kube-apiserver → kubectl
                         400 Bad Request: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].ports[0].protocl"
                           response: 400 Bad Request
                           kubectl prints: Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].ports[0].protocl"

            $ kubectl apply -f pod.yaml
            Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].ports[0].protocl"
            (exit status 1)

            $ kubectl get pods -o wide
            No resources found in default namespace.
            [exit 1]
        "##]],
    );
}

#[test]
fn invalid_pod() {
    let pod = POD.replace("    image: nginx:1.29\n", "    image: nginx:1.29\n    resources:\n      requests:\n        cpu: \"2\"\n      limits:\n        cpu: \"1\"\n");
    check(
        "pod.yaml",
        &pod,
        &[],
        expect![[r##"
            # podlab: kubectl apply -f pod.yaml as kubernetes-admin (Kubernetes v1.37, seed 1)
                 0.000s  Request              kubectl → kube-apiserver
                         kubectl sends GET /api/v1/namespaces/default/pods/web
                           request: GET /api/v1/namespaces/default/pods/web
                           header: Accept: application/json
                           header: User-Agent: kubectl/v1.37.0 (linux/amd64) kubernetes/6a1f3e2
                           header: Kubectl-Command: kubectl apply
                 0.000s  Authentication       kube-apiserver
                         authenticated as kubernetes-admin (x509 client certificate)
                           method: x509 client certificate
                           user: kubernetes-admin groups=["system:masters", "system:authenticated"]
                           why: the TLS client certificate is signed by the cluster CA; its Common Name "kubernetes-admin" is the user name and its Organizations ["system:masters"] are the groups
                 0.000s  Authorization        kube-apiserver
                         system:masters allows kubernetes-admin to get pods in namespace default
                           request: kubernetes-admin may get pods in namespace default named web?
                           decision: allowed by system:masters
                           message: kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted
                 0.000s  etcd                 kube-apiserver → etcd
                         reads /registry/pods/default/web: not found
                           etcd: get /registry/pods/default/web (revision 155)
                           error: key not found
                 0.000s  etcd                 kube-apiserver → kubectl
                         404 Not Found: pods "web" not found
                           response: 404 Not Found
                 0.004s  Request              kubectl → kube-apiserver
                         kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
                           request: POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
                           header: Accept: application/json
                           header: Content-Type: application/json
                           header: User-Agent: kubectl/v1.37.0 (linux/amd64) kubernetes/6a1f3e2
                           header: Kubectl-Command: kubectl apply
                           body: {"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadat… (531 bytes)
                 0.004s  Authentication       kube-apiserver
                         authenticated as kubernetes-admin (x509 client certificate)
                           method: x509 client certificate
                           user: kubernetes-admin groups=["system:masters", "system:authenticated"]
                           why: the TLS client certificate is signed by the cluster CA; its Common Name "kubernetes-admin" is the user name and its Organizations ["system:masters"] are the groups
                 0.004s  Authorization        kube-apiserver
                         system:masters allows kubernetes-admin to create pods in namespace default
                           request: kubernetes-admin may create pods in namespace default?
                           decision: allowed by system:masters
                           message: kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted
                 0.004s  Validation           kube-apiserver
                         decodes the Pod strictly and fills in 9 default(s)
                           set: spec.enableServiceLinks = true
                           set: spec.dnsPolicy = ClusterFirst
                           set: spec.restartPolicy = Always
                           set: spec.securityContext = {}
                           set: spec.terminationGracePeriodSeconds = 30
                           set: spec.schedulerName = default-scheduler
                           set: spec.containers[0].imagePullPolicy = IfNotPresent
                           set: spec.containers[0].terminationMessagePath = /dev/termination-log
                           set: spec.containers[0].terminationMessagePolicy = File
                 0.004s  Mutating admission   kube-apiserver
                         NamespaceLifecycle: allowed
                           plugin: NamespaceLifecycle (mutating pass: allowed)
                           why: The namespace default exists and is Active.
                 0.004s  Mutating admission   kube-apiserver
                         LimitRanger: nothing to do
                           plugin: LimitRanger (mutating pass: not-applicable)
                           why: There is no LimitRange in namespace default.
                 0.004s  Mutating admission   kube-apiserver
                         ServiceAccount: changed 4 field(s)
                           plugin: ServiceAccount (mutating pass: mutated)
                           change: /spec/containers/0/volumeMounts: (none) → - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                                     name: kube-api-access-t29pp
                                     readOnly: true
                           change: /spec/serviceAccount: (none) → default
                           change: /spec/serviceAccountName: (none) → default
                           change: /spec/volumes: (none) → - name: kube-api-access-t29pp
                                     projected:
                                       defaultMode: 420
                                       sources:
                                       - serviceAccountToken:
                                           expirationSeconds: 3607
                                           path: token
                                       - configMap:
                                           items:
                                           - key: ca.crt
                                             path: ca.crt
                                           name: kube-root-ca.crt
                                       - downwardAPI:
                                           items:
                                           - fieldRef:
                                               apiVersion: v1
                                               fieldPath: metadata.namespace
                                             path: namespace
                           why: The pod names no service account, so it runs as "default". Token volume kube-api-access-t29pp (a bound token valid for 3607 s, the cluster CA and the namespace) is mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in container web.
                 0.004s  Mutating admission   kube-apiserver
                         Priority: changed 2 field(s)
                           plugin: Priority (mutating pass: mutated)
                           change: /spec/preemptionPolicy: (none) → PreemptLowerPriority
                           change: /spec/priority: (none) → 0
                           why: No priorityClassName and no globalDefault PriorityClass: priority 0. Preemption policy PreemptLowerPriority.
                 0.004s  Mutating admission   kube-apiserver
                         DefaultTolerationSeconds: changed 1 field(s)
                           plugin: DefaultTolerationSeconds (mutating pass: mutated)
                           change: /spec/tolerations: (none) → - effect: NoExecute
                                     key: node.kubernetes.io/not-ready
                                     operator: Exists
                                     tolerationSeconds: 300
                                   - effect: NoExecute
                                     key: node.kubernetes.io/unreachable
                                     operator: Exists
                                     tolerationSeconds: 300
                           why: Added node.kubernetes.io/not-ready:NoExecute and node.kubernetes.io/unreachable:NoExecute for 300 s: if the pod's node stops reporting, the pod is evicted after five minutes.
                 0.004s  Mutating admission   kube-apiserver
                         RuntimeClass: nothing to do
                           plugin: RuntimeClass (mutating pass: not-applicable)
                           why: The pod names no RuntimeClass: the node's default runtime handler runs it.
            ✗    0.004s  Validation           kube-apiserver
                         Pod "web" is invalid: 1 error(s)
                           set: metadata.generation = 1
                           set: status = phase: Pending
                                qosClass: Burstable
                           error: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1
            ✗    0.004s  etcd                 kube-apiserver → kubectl
                         422 Unprocessable Entity: Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1
                           response: 422 Unprocessable Entity
                           kubectl prints: The Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1

            $ kubectl apply -f pod.yaml
            The Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1
            (exit status 1)

            $ kubectl get pods -o wide
            No resources found in default namespace.
            [exit 1]
        "##]],
    );
}

#[test]
fn missing_namespace() {
    let pod = POD.replace("  name: web\n", "  name: web\n  namespace: staging\n");
    check(
        "pod.yaml",
        &pod,
        &[],
        expect![[r##"
            # podlab: kubectl apply -f pod.yaml as kubernetes-admin (Kubernetes v1.37, seed 1)
                 0.000s  Request              kubectl → kube-apiserver
                         kubectl sends GET /api/v1/namespaces/staging/pods/web
                           request: GET /api/v1/namespaces/staging/pods/web
                           header: Accept: application/json
                           header: User-Agent: kubectl/v1.37.0 (linux/amd64) kubernetes/6a1f3e2
                           header: Kubectl-Command: kubectl apply
                 0.000s  Authentication       kube-apiserver
                         authenticated as kubernetes-admin (x509 client certificate)
                           method: x509 client certificate
                           user: kubernetes-admin groups=["system:masters", "system:authenticated"]
                           why: the TLS client certificate is signed by the cluster CA; its Common Name "kubernetes-admin" is the user name and its Organizations ["system:masters"] are the groups
                 0.000s  Authorization        kube-apiserver
                         system:masters allows kubernetes-admin to get pods in namespace staging
                           request: kubernetes-admin may get pods in namespace staging named web?
                           decision: allowed by system:masters
                           message: kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted
                 0.000s  etcd                 kube-apiserver → etcd
                         reads /registry/pods/staging/web: not found
                           etcd: get /registry/pods/staging/web (revision 155)
                           error: key not found
                 0.000s  etcd                 kube-apiserver → kubectl
                         404 Not Found: pods "web" not found
                           response: 404 Not Found
                 0.004s  Request              kubectl → kube-apiserver
                         kubectl sends POST /api/v1/namespaces/staging/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
                           request: POST /api/v1/namespaces/staging/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
                           header: Accept: application/json
                           header: Content-Type: application/json
                           header: User-Agent: kubectl/v1.37.0 (linux/amd64) kubernetes/6a1f3e2
                           header: Kubectl-Command: kubectl apply
                           body: {"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadat… (401 bytes)
                 0.004s  Authentication       kube-apiserver
                         authenticated as kubernetes-admin (x509 client certificate)
                           method: x509 client certificate
                           user: kubernetes-admin groups=["system:masters", "system:authenticated"]
                           why: the TLS client certificate is signed by the cluster CA; its Common Name "kubernetes-admin" is the user name and its Organizations ["system:masters"] are the groups
                 0.004s  Authorization        kube-apiserver
                         system:masters allows kubernetes-admin to create pods in namespace staging
                           request: kubernetes-admin may create pods in namespace staging?
                           decision: allowed by system:masters
                           message: kubernetes-admin is in the group system:masters, which kube-apiserver allows every request before the Node and RBAC authorizers are asked; no RoleBinding is consulted
                 0.004s  Validation           kube-apiserver
                         decodes the Pod strictly and fills in 9 default(s)
                           set: spec.enableServiceLinks = true
                           set: spec.dnsPolicy = ClusterFirst
                           set: spec.restartPolicy = Always
                           set: spec.securityContext = {}
                           set: spec.terminationGracePeriodSeconds = 30
                           set: spec.schedulerName = default-scheduler
                           set: spec.containers[0].imagePullPolicy = IfNotPresent
                           set: spec.containers[0].terminationMessagePath = /dev/termination-log
                           set: spec.containers[0].terminationMessagePolicy = File
            ✗    0.004s  Mutating admission   kube-apiserver
                         NamespaceLifecycle: denied
                           plugin: NamespaceLifecycle (mutating pass: denied)
                           message: namespaces "staging" not found
                           why: The namespace "staging" does not exist: create it first (kubectl create namespace staging).
            ✗    0.004s  etcd                 kube-apiserver → kubectl
                         404 Not Found: namespaces "staging" not found
                           response: 404 Not Found
                           kubectl prints: Error from server (NotFound): error when creating "pod.yaml": namespaces "staging" not found

            $ kubectl apply -f pod.yaml
            Error from server (NotFound): error when creating "pod.yaml": namespaces "staging" not found
            (exit status 1)

            $ kubectl get pods -o wide
            No resources found in default namespace.
            [exit 1]
        "##]],
    );
}

#[test]
fn usage_errors() {
    let mut out = Vec::new();
    let code = podlab_cli::run(&["apply".to_string()], &mut out);
    let text = String::from_utf8(out).unwrap();
    expect![[r#"
        error: must specify -f FILE
        usage:
          podlab apply -f FILE [--cluster FILE|PRESET] [--user USER] [--as USER] [--as-group GROUP]... [-o text|json] [--seed N] [--limit-ms N]
          podlab session -f SCRIPT [--cluster FILE|PRESET] [--user USER] [--as USER] [--as-group GROUP]... [-o text|json] [--seed N] [--limit-ms N]
          podlab parse -f FILE
          podlab presets
          podlab report website-examples [DIR] [--runtime]
        [exit 2]
    "#]].assert_eq(&format!("{text}[exit {code}]\n"));
}

/// `podlab session -o json`: the run's JSON with each step's command and the commands' records.
#[test]
fn session_as_json_tags_each_step_with_its_command() {
    let dir: PathBuf = std::env::temp_dir().join(format!("podlab-cli-session-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    std::fs::write(dir.join("pod.yaml"), POD).expect("manifest");
    let script = dir.join("session.sh");
    std::fs::write(&script, "kubectl apply -f pod.yaml\nkubectl delete pod web\nkubectl get pods\n").expect("script");
    let mut out = Vec::new();
    let code = podlab_cli::run(
        &["session".into(), "-f".into(), script.display().to_string(), "-o".into(), "json".into()],
        &mut out,
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
    let commands = v["commands"].as_array().expect("commands");
    let lines: Vec<&str> = commands.iter().map(|c| c["line"].as_str().unwrap()).collect();
    assert_eq!(lines, ["kubectl apply -f pod.yaml", "kubectl delete pod web", "kubectl get pods"]);
    assert_eq!(commands[1]["stdout"], "pod \"web\" deleted from default namespace\n");
    assert_eq!(commands[2]["stderr"], "No resources found in default namespace.\n");
    let steps = v["steps"].as_array().expect("steps");
    for (i, c) in commands.iter().enumerate() {
        let (first, end) = (c["first_step"].as_u64().unwrap() as usize, c["end_step"].as_u64().unwrap() as usize);
        assert!(first < end, "command {i} caused steps");
        assert!(steps[first..end].iter().all(|s| s["command"] == i), "the steps of command {i} are tagged with it");
    }
    assert_eq!(v["stdout"], "pod/web created\n", "the first apply's output");
    assert_eq!(v["kubernetes_version"], podlab_engine::KUBERNETES_VERSION);
}
