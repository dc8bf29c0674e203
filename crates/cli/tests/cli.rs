//! Snapshots of `podlab apply` as a learner sees it: the text trace and kubectl's output.

use expect_test::{expect, Expect};
use std::path::PathBuf;

/// Writes `manifest` to a scratch file named `file` and runs `podlab apply -f <it>` with
/// `extra` flags; returns the output with the scratch directory removed, and the exit code.
fn check(file: &str, manifest: &str, extra: &[&str], expect: Expect) {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("podlab-cli-{}-{}", std::process::id(), file.replace('.', "-")));
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
                       etcd: get /registry/pods/default/web (revision 148)
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
                                 name: kube-api-access-qvlp9
                                 readOnly: true
                       change: /spec/serviceAccount: (none) → default
                       change: /spec/serviceAccountName: (none) → default
                       change: /spec/volumes: (none) → - name: kube-api-access-qvlp9
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
                       why: The pod names no service account, so it runs as "default". Token volume kube-api-access-qvlp9 (a bound token valid for 3607 s, the cluster CA and the namespace) is mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in container web.
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
                     creates /registry/pods/default/web at revision 149
                       etcd: create /registry/pods/default/web (revision 149)
             0.004s  etcd                 kube-apiserver → kubectl
                     201 Created
                       response: 201 Created
                       kubectl prints: pod/web created

        $ kubectl apply -f pod.yaml
        pod/web created
        (exit status 0)
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
                       etcd: get /registry/pods/dev/web (revision 154)
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
                       etcd: get /registry/pods/default/web (revision 148)
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
                       etcd: get /registry/pods/default/web (revision 148)
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
                                 name: kube-api-access-qvlp9
                                 readOnly: true
                       change: /spec/serviceAccount: (none) → default
                       change: /spec/serviceAccountName: (none) → default
                       change: /spec/volumes: (none) → - name: kube-api-access-qvlp9
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
                       why: The pod names no service account, so it runs as "default". Token volume kube-api-access-qvlp9 (a bound token valid for 3607 s, the cluster CA and the namespace) is mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in container web.
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
                       etcd: get /registry/pods/staging/web (revision 148)
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
          podlab parse -f FILE
          podlab presets
          podlab report website-examples [DIR]
        [exit 2]
    "#]].assert_eq(&format!("{text}[exit {code}]\n"));
}
