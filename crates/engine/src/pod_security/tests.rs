//! Snapshot tests of PodSecurity's exact messages. Every case is
//! `check(manifest, namespace_policy, expect)`: the manifest goes through [`admit`] in a
//! namespace labelled from `namespace_policy` (`enforce=restricted`,
//! `warn=baseline:v1.30 audit=restricted`, ...), and the snapshot shows the verdict, the
//! Status message, warnings and audit annotations.

use std::collections::BTreeMap;

use expect_test::{expect, Expect};
use k8s_openapi::api::core::v1::Pod;

use super::*;
use crate::object::Object;

fn object(yaml: &str) -> Object {
    let value: serde_json::Value = serde_yaml::from_str(yaml).expect("test manifest is YAML");
    let api_version = value["apiVersion"].as_str().unwrap_or("v1").to_string();
    let kind = value["kind"].as_str().unwrap_or("Pod").to_string();
    Object::from_json(&api_version, &kind, value).expect("test manifest decodes")
}

/// `enforce=restricted warn=baseline:v1.30` -> namespace labels.
fn labels(spec: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for part in spec.split_whitespace() {
        let Some((mode, value)) = part.split_once('=') else { continue };
        let (level, version) = match value.split_once(':') {
            Some((l, v)) => (l, Some(v)),
            None => (value, None),
        };
        out.insert(format!("{LABEL_PREFIX}{mode}"), level.to_string());
        if let Some(v) = version {
            out.insert(format!("{LABEL_PREFIX}{mode}-version"), v.to_string());
        }
    }
    out
}

fn render(out: &PsaOutcome, obj: &Object) -> String {
    let mut s = format!("verdict: {:?}\n", out.verdict);
    if let Some(m) = out.status_message(obj) {
        s.push_str(&format!("message: {m}\n"));
    }
    for w in &out.warnings {
        s.push_str(&format!("Warning: {w}\n"));
    }
    for (k, v) in &out.audit_annotations {
        s.push_str(&format!("audit: {k}={v}\n"));
    }
    s
}

fn check(input: &str, namespace_policy: &str, expect: Expect) {
    let obj = object(input);
    let config = PodSecurityConfig::default();
    let ns = config.policy_for_namespace(&labels(namespace_policy));
    let req = AdmissionRequest::new(Operation::Create, &obj).with_namespace("demo");
    let out = admit(&config, &ns, &req);
    expect.assert_eq(&render(&out, &obj));
}

const NGINX: &str = "
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - name: app
    image: nginx:1.29
";

#[test]
fn restricted_four_at_once_on_plain_nginx() {
    check(
        NGINX,
        "enforce=restricted",
        expect![[r#"
            verdict: Denied
            message: pods "web" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
            audit: pod-security.kubernetes.io/enforce-policy=restricted:latest
        "#]],
    );
}

#[test]
fn plain_nginx_passes_baseline_and_unlabelled_namespace() {
    check(
        NGINX,
        "enforce=baseline",
        expect![[r#"
            verdict: Allowed
            audit: pod-security.kubernetes.io/enforce-policy=baseline:latest
        "#]],
    );
    check(
        NGINX,
        "",
        expect![[r#"
            verdict: Allowed
            audit: pod-security.kubernetes.io/enforce-policy=privileged:latest
        "#]],
    );
}

#[test]
fn baseline_privileged_pod() {
    check(
        "
apiVersion: v1
kind: Pod
metadata: {name: debug}
spec:
  hostNetwork: true
  hostPID: true
  containers:
  - name: shell
    image: busybox
    securityContext: {privileged: true}
  - name: sidecar
    image: busybox
    securityContext: {privileged: true}
",
        "enforce=baseline",
        expect![[r#"
            verdict: Denied
            message: pods "debug" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true, hostPID=true), privileged (containers "shell", "sidecar" must not set securityContext.privileged=true)
            audit: pod-security.kubernetes.io/enforce-policy=baseline:latest
        "#]],
    );
}

const HOSTPATH: &str = "
apiVersion: v1
kind: Pod
metadata: {name: logs}
spec:
  containers:
  - name: reader
    image: busybox
  volumes:
  - name: varlog
    hostPath: {path: /var/log}
  - name: scratch
    emptyDir: {}
  - name: docker
    hostPath: {path: /var/run/docker.sock}
";

#[test]
fn host_path_volumes() {
    check(
        HOSTPATH,
        "enforce=baseline",
        expect![[r#"
            verdict: Denied
            message: pods "logs" is forbidden: violates PodSecurity "baseline:latest": hostPath volumes (volumes "varlog", "docker")
            audit: pod-security.kubernetes.io/enforce-policy=baseline:latest
        "#]],
    );
    // At restricted, restrictedVolumes replaces hostPathVolumes.
    check(
        HOSTPATH,
        "enforce=restricted",
        expect![[r#"
            verdict: Denied
            message: pods "logs" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "reader" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "reader" must set securityContext.capabilities.drop=["ALL"]), restricted volume types (volumes "varlog", "docker" use restricted volume type "hostPath"), runAsNonRoot != true (pod or container "reader" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "reader" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
            audit: pod-security.kubernetes.io/enforce-policy=restricted:latest
        "#]],
    );
}

const CAPS: &str = "
apiVersion: v1
kind: Pod
metadata: {name: net}
spec:
  initContainers:
  - name: setup
    image: busybox
    securityContext:
      capabilities: {add: [NET_ADMIN]}
  containers:
  - name: a
    image: busybox
    securityContext:
      capabilities: {add: [SYS_TIME, CHOWN, NET_RAW]}
  - name: b
    image: busybox
    securityContext:
      capabilities: {add: [NET_BIND_SERVICE], drop: [ALL]}
  - name: c
    image: busybox
    securityContext:
      capabilities: {add: [NET_ADMIN], drop: [ALL]}
";

#[test]
fn capabilities_with_several_containers() {
    check(
        CAPS,
        "enforce=baseline",
        expect![[r#"
            verdict: Denied
            message: pods "net" is forbidden: violates PodSecurity "baseline:latest": non-default capabilities (containers "setup", "a", "c" must not include "NET_ADMIN", "NET_RAW", "SYS_TIME" in securityContext.capabilities.add)
            audit: pod-security.kubernetes.io/enforce-policy=baseline:latest
        "#]],
    );
    check(
        CAPS,
        "enforce=restricted",
        expect![[r#"
            verdict: Denied
            message: pods "net" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (containers "setup", "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (containers "setup", "a" must set securityContext.capabilities.drop=["ALL"]; containers "setup", "a", "c" must not include "CHOWN", "NET_ADMIN", "NET_RAW", "SYS_TIME" in securityContext.capabilities.add), runAsNonRoot != true (pod or containers "setup", "a", "b", "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or containers "setup", "a", "b", "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
            audit: pod-security.kubernetes.io/enforce-policy=restricted:latest
        "#]],
    );
}

#[test]
fn warn_mode_allows_with_a_warning() {
    check(
        NGINX,
        "enforce=baseline warn=restricted:v1.37",
        expect![[r#"
            verdict: Allowed
            Warning: would violate PodSecurity "restricted:v1.37": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
            audit: pod-security.kubernetes.io/enforce-policy=baseline:latest
        "#]],
    );
}

#[test]
fn audit_mode_annotates() {
    check(
        NGINX,
        "audit=restricted",
        expect![[r#"
            verdict: Allowed
            audit: pod-security.kubernetes.io/audit-violations=would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
            audit: pod-security.kubernetes.io/enforce-policy=privileged:latest
        "#]],
    );
}

const DEPLOYMENT: &str = "
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: demo}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.29
        ports: [{containerPort: 80, hostPort: 8080}]
";

#[test]
fn deployment_template_is_warned_about_never_enforced() {
    // enforce=restricted makes warn follow it; the Deployment is still admitted.
    check(
        DEPLOYMENT,
        "enforce=restricted",
        expect![[r#"
            verdict: Allowed
            Warning: would violate PodSecurity "restricted:latest": hostPort (container "nginx" uses hostPort 8080), allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
        "#]],
    );
    // An explicitly privileged warn level silences it; audit alone still records it.
    check(
        DEPLOYMENT,
        "enforce=restricted warn=privileged audit=baseline",
        expect![[r#"
            verdict: Allowed
            audit: pod-security.kubernetes.io/audit-violations=would violate PodSecurity "baseline:latest": hostPort (container "nginx" uses hostPort 8080)
        "#]],
    );
}

#[test]
fn other_workloads_use_their_template() {
    check(
        "
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: '0 3 * * *'
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          hostIPC: true
          containers: [{name: job, image: busybox}]
",
        "warn=baseline",
        expect![[r#"
            verdict: Allowed
            Warning: would violate PodSecurity "baseline:latest": host namespaces (hostIPC=true)
        "#]],
    );
    check(
        "
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata:
      labels: {app: agent}
      annotations: {container.apparmor.security.beta.kubernetes.io/agent: unconfined}
    spec:
      containers: [{name: agent, image: agent}]
",
        "warn=baseline",
        expect![[r#"
            verdict: Allowed
            Warning: would violate PodSecurity "baseline:latest": forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/agent="unconfined"")
        "#]],
    );
    // A kind without a pod template is not PodSecurity's business.
    check(
        "
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {a: b}
",
        "enforce=restricted",
        expect![[r#"
            verdict: NotApplicable
        "#]],
    );
}

#[test]
fn detail_shapes_of_other_checks() {
    check(
        "
apiVersion: v1
kind: Pod
metadata: {name: odd}
spec:
  hostUsers: true
  securityContext:
    seLinuxOptions: {type: spc_t, user: system_u}
    seccompProfile: {type: Unconfined}
    sysctls:
    - {name: kernel.msgmax, value: '1'}
    - {name: net.ipv4.tcp_rmem, value: '4096 87380 6291456'}
    - {name: net.core.somaxconn, value: '1024'}
    windowsOptions: {hostProcess: true}
  containers:
  - name: a
    image: x
    ports: [{containerPort: 80, hostPort: 9090}, {containerPort: 81, hostPort: 10000}]
    securityContext:
      procMount: Unmasked
      appArmorProfile: {type: Unconfined}
      seLinuxOptions: {role: sysadm_r}
    livenessProbe: {httpGet: {host: 10.0.0.1, port: 80}}
  - name: b
    image: x
    ports: [{containerPort: 82, hostPort: 8080}]
    securityContext:
      seccompProfile: {type: Unconfined}
    lifecycle:
      preStop: {tcpSocket: {host: example.com, port: 80}}
",
        "enforce=baseline",
        expect![[r#"
            verdict: Denied
            message: pods "odd" is forbidden: violates PodSecurity "baseline:latest": forbidden AppArmor profile (container "a" must not set AppArmor profile type to "Unconfined"), hostPort (containers "a", "b" use hostPorts 10000, 8080, 9090), probe or lifecycle host (containers "a", "b" use probe or lifecycle hosts "10.0.0.1", "example.com"), procMount (container "a" must not set securityContext.procMount to "Unmasked"), seLinuxOptions (pod and container "a" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set; role may not be set), seccompProfile (pod and container "b" must not set securityContext.seccompProfile.type to "Unconfined"), forbidden sysctls (kernel.msgmax, net.core.somaxconn), hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)
            audit: pod-security.kubernetes.io/enforce-policy=baseline:latest
        "#]],
    );
}

#[test]
fn versions_change_the_checks() {
    let pod = "
apiVersion: v1
kind: Pod
metadata: {name: v}
spec:
  securityContext:
    runAsNonRoot: true
    seccompProfile: {type: RuntimeDefault}
    sysctls: [{name: net.ipv4.tcp_rmem, value: '4096 87380 6291456'}]
  containers:
  - name: app
    image: x
    securityContext:
      allowPrivilegeEscalation: false
      capabilities: {drop: [ALL]}
      seLinuxOptions: {type: container_engine_t}
    readinessProbe: {tcpSocket: {host: db, port: 5432}}
";
    // v1.30: no host probe check yet, container_engine_t not yet allowed, tcp_rmem not yet safe.
    check(
        pod,
        "enforce=restricted:v1.30",
        expect![[r#"
            verdict: Denied
            message: pods "v" is forbidden: violates PodSecurity "restricted:v1.30": seLinuxOptions (container "app" set forbidden securityContext.seLinuxOptions: type "container_engine_t"), forbidden sysctls (net.ipv4.tcp_rmem)
            audit: pod-security.kubernetes.io/enforce-policy=restricted:v1.30
        "#]],
    );
    check(
        pod,
        "enforce=restricted:v1.33",
        expect![[r#"
            verdict: Allowed
            audit: pod-security.kubernetes.io/enforce-policy=restricted:v1.33
        "#]],
    );
    check(
        pod,
        "enforce=restricted:v1.34",
        expect![[r#"
            verdict: Denied
            message: pods "v" is forbidden: violates PodSecurity "restricted:v1.34": probe or lifecycle host (container "app" uses probe or lifecycle host "db")
            audit: pod-security.kubernetes.io/enforce-policy=restricted:v1.34
        "#]],
    );
    // Versions newer than the registry evaluate as the newest one but print as given.
    check(
        pod,
        "enforce=restricted:v1.99",
        expect![[r#"
            verdict: Denied
            message: pods "v" is forbidden: violates PodSecurity "restricted:v1.99": probe or lifecycle host (container "app" uses probe or lifecycle host "db")
            audit: pod-security.kubernetes.io/enforce-policy=restricted:v1.99
        "#]],
    );
}

#[test]
fn windows_and_user_namespace_relaxations() {
    let windows = "
apiVersion: v1
kind: Pod
metadata: {name: win}
spec:
  os: {name: windows}
  containers: [{name: app, image: x}]
";
    check(
        windows,
        "enforce=restricted",
        expect![[r#"
            verdict: Denied
            message: pods "win" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)
            audit: pod-security.kubernetes.io/enforce-policy=restricted:latest
        "#]],
    );
    // Before v1.25 the Windows exemption did not exist (and runAsUser starts at v1.23).
    check(
        windows,
        "enforce=restricted:v1.24",
        expect![[r#"
            verdict: Denied
            message: pods "win" is forbidden: violates PodSecurity "restricted:v1.24": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
            audit: pod-security.kubernetes.io/enforce-policy=restricted:v1.24
        "#]],
    );
    let userns = "
apiVersion: v1
kind: Pod
metadata: {name: userns}
spec:
  hostUsers: false
  securityContext:
    runAsUser: 0
    seccompProfile: {type: RuntimeDefault}
  containers:
  - name: app
    image: x
    securityContext:
      procMount: Unmasked
      allowPrivilegeEscalation: false
      capabilities: {drop: [ALL]}
";
    check(
        userns,
        "enforce=baseline",
        expect![[r#"
            verdict: Allowed
            audit: pod-security.kubernetes.io/enforce-policy=baseline:latest
        "#]],
    );
    check(
        userns,
        "enforce=restricted",
        expect![[r#"
            verdict: Denied
            message: pods "userns" is forbidden: violates PodSecurity "restricted:latest": procMount (container "app" must not set securityContext.procMount to "Unmasked")
            audit: pod-security.kubernetes.io/enforce-policy=restricted:latest
        "#]],
    );
    check(
        userns,
        "enforce=restricted:v1.34",
        expect![[r#"
            verdict: Denied
            message: pods "userns" is forbidden: violates PodSecurity "restricted:v1.34": procMount (container "app" must not set securityContext.procMount to "Unmasked"), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), runAsUser=0 (pod must not set runAsUser=0)
            audit: pod-security.kubernetes.io/enforce-policy=restricted:v1.34
        "#]],
    );
}

#[test]
fn invalid_labels_fail_closed_for_enforce_and_open_for_warn() {
    check(
        NGINX,
        "enforce=strict:v1.x warn=loud",
        expect![[r#"
            verdict: Denied
            message: pods "web" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
            audit: pod-security.kubernetes.io/enforce-policy=restricted:latest
            audit: pod-security.kubernetes.io/error=Failed to parse policy: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v1.x": must be "latest" or "v1.x", metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "loud": must be one of privileged, baseline, restricted]
        "#]],
    );
    // An invalid enforce label does not make warn follow it; an invalid warn is privileged.
    let ns = policy_for_namespace(&labels("enforce=bogus"));
    assert_eq!(ns.policy.warn.to_string(), "privileged:latest");
    let ns = policy_for_namespace(&labels("enforce=baseline:v1.20"));
    assert_eq!(ns.policy.warn.to_string(), "baseline:v1.20");
    let ns = policy_for_namespace(&labels("enforce=baseline:v1.20 warn=restricted"));
    assert_eq!(ns.policy.warn.to_string(), "restricted:latest");
}

fn namespace(yaml_labels: &str) -> Object {
    object(&format!("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n  labels: {yaml_labels}\n"))
}

#[test]
fn namespace_labels_are_validated() {
    let config = PodSecurityConfig::default();
    let none = policy_for_namespace(&BTreeMap::new());
    let bad =
        namespace("{pod-security.kubernetes.io/enforce: strict, pod-security.kubernetes.io/warn-version: '1.30'}");
    let out = admit(&config, &none, &AdmissionRequest::new(Operation::Create, &bad));
    expect![[r#"
        verdict: Denied
        message: Namespace "team" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"]
    "#]]
    .assert_eq(&render(&out, &bad));

    // Updating a namespace whose bad labels did not change is allowed.
    let out = admit(&config, &none, &AdmissionRequest::new(Operation::Update, &bad).with_old(&bad));
    assert_eq!(out.verdict, crate::trace::AdmissionVerdict::Allowed);
}

#[test]
fn stricter_enforce_on_a_namespace_warns_about_existing_pods() {
    let config = PodSecurityConfig::default();
    let none = policy_for_namespace(&BTreeMap::new());
    let old = namespace("{}");
    let new = namespace("{pod-security.kubernetes.io/enforce: baseline}");
    let pod = |name: &str, extra: &str| -> Pod {
        serde_yaml::from_str(&format!(
            "metadata: {{name: {name}}}\nspec:\n  {extra}\n  containers: [{{name: c, image: x}}]\n"
        ))
        .expect("pod")
    };
    let pods = vec![
        pod("zeta", "hostNetwork: true"),
        pod("alpha", "hostNetwork: true"),
        pod("beta", "volumes: [{name: root, hostPath: {path: /}}]"),
        pod("gamma", "hostPID: true"),
        pod("fine", "hostNetwork: false"),
        pod("mid", "hostNetwork: true"),
    ];
    let req = AdmissionRequest::new(Operation::Update, &new).with_old(&old).with_namespace_pods(&pods);
    let out = admit(&config, &none, &req);
    expect![[r#"
        verdict: Allowed
        Warning: existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:latest"
        Warning: alpha (and 3 other pods): host namespaces
        Warning: beta: hostPath volumes
    "#]]
    .assert_eq(&render(&out, &new));
}

#[test]
fn updates_subresources_and_exemptions() {
    let config = PodSecurityConfig::default();
    let ns = policy_for_namespace(&labels("enforce=restricted"));
    let pod = object(NGINX);
    let relabelled = object(&NGINX.replace("metadata: {name: web}", "metadata: {name: web, labels: {a: b}}"));
    let new_image = object(&NGINX.replace("nginx:1.29", "nginx:1.30"));

    let out = admit(&config, &ns, &AdmissionRequest::new(Operation::Update, &relabelled).with_old(&pod));
    assert_eq!(render(&out, &relabelled), "verdict: Allowed\n");
    let out = admit(&config, &ns, &AdmissionRequest::new(Operation::Update, &new_image).with_old(&pod));
    assert_eq!(out.verdict, crate::trace::AdmissionVerdict::Denied);
    let out = admit(&config, &ns, &AdmissionRequest::new(Operation::Update, &pod).with_subresource("status"));
    assert_eq!(render(&out, &pod), "verdict: Allowed\n");
    let out =
        admit(&config, &ns, &AdmissionRequest::new(Operation::Update, &pod).with_subresource("ephemeralcontainers"));
    assert_eq!(out.verdict, crate::trace::AdmissionVerdict::Denied);
    let out = admit(&config, &ns, &AdmissionRequest::new(Operation::Delete, &pod));
    assert_eq!(out.verdict, crate::trace::AdmissionVerdict::NotApplicable);

    let exempt = PodSecurityConfig {
        exemptions: Exemptions {
            usernames: vec!["system:serviceaccount:kube-system:replicaset-controller".into()],
            runtime_classes: vec!["kata".into()],
            namespaces: vec!["kube-system".into()],
        },
        ..PodSecurityConfig::default()
    };
    let by_user = admit(
        &exempt,
        &ns,
        &AdmissionRequest::new(Operation::Create, &pod)
            .with_user("system:serviceaccount:kube-system:replicaset-controller"),
    );
    let by_ns = admit(&exempt, &ns, &AdmissionRequest::new(Operation::Create, &pod).with_namespace("kube-system"));
    let kata = object(&NGINX.replace("spec:\n", "spec:\n  runtimeClassName: kata\n"));
    let by_rc = admit(&exempt, &ns, &AdmissionRequest::new(Operation::Create, &kata));
    expect![[r#"
        verdict: Allowed
        audit: pod-security.kubernetes.io/exempt=user
        verdict: Allowed
        audit: pod-security.kubernetes.io/exempt=namespace
        verdict: Allowed
        audit: pod-security.kubernetes.io/exempt=runtimeClass
    "#]]
    .assert_eq(&[render(&by_user, &pod), render(&by_ns, &pod), render(&by_rc, &kata)].concat());

    // Labels on an exempt namespace draw a warning.
    let labelled = object(
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: kube-system\n  labels: {pod-security.kubernetes.io/enforce: restricted}\n",
    );
    let out = admit(&exempt, &ns, &AdmissionRequest::new(Operation::Create, &labelled));
    expect![[r#"
        verdict: Allowed
        Warning: namespace "kube-system" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored
    "#]]
    .assert_eq(&render(&out, &labelled));
}

#[test]
fn explanation_for_a_learner() {
    let config = PodSecurityConfig::default();
    let ns = policy_for_namespace(&labels("enforce=restricted"));
    let pod = object(NGINX);
    let out = admit(&config, &ns, &AdmissionRequest::new(Operation::Create, &pod).with_namespace("demo"));
    expect![[r#"
        Namespace "demo" asks for enforce=restricted:latest (from label), audit=privileged:latest (cluster default), warn=restricted:latest (follows enforce).
        enforce restricted:latest: 15 checks ran (the baseline checks, where a stricter restricted check does not replace them, and the restricted checks, as defined at policy v1.37): appArmorProfile, hostNamespaces, hostPorts, hostProbesAndHostLifecycle, privileged, seLinuxOptions, sysctls, windowsHostProcess, allowPrivilegeEscalation, capabilities_restricted, procMount_restricted, restrictedVolumes, runAsNonRoot, runAsUser, seccompProfile_restricted. 4 failed, so the request is rejected with 403 Forbidden and nothing is stored:
          - allowPrivilegeEscalation: allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false). To pass: set securityContext.allowPrivilegeEscalation: false on every listed container.
          - capabilities_restricted: unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]). To pass: set securityContext.capabilities.drop: ["ALL"] on every listed container and add nothing except NET_BIND_SERVICE.
          - runAsNonRoot: runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true). To pass: set securityContext.runAsNonRoot: true in the pod spec (it covers every container) and never false on a container; the image must then run as a non-zero UID.
          - seccompProfile_restricted: seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"). To pass: set securityContext.seccompProfile.type: RuntimeDefault (or Localhost) in the pod spec, or on every container.
        audit privileged:latest: privileged allows everything, so no checks run.
        Warn is not evaluated: the request is already rejected, so no warning is added."#]]
    .assert_eq(&out.explanation);
}

#[test]
fn registry_order_and_versions() {
    // Evaluation order is baseline ids sorted, then restricted ids sorted (byte order).
    let baseline: Vec<&str> = CHECKS.iter().filter(|c| c.level == Level::Baseline).map(|c| c.id).collect();
    let restricted: Vec<&str> = CHECKS.iter().filter(|c| c.level == Level::Restricted).map(|c| c.id).collect();
    let mut sorted_b = baseline.clone();
    sorted_b.sort();
    let mut sorted_r = restricted.clone();
    sorted_r.sort();
    assert_eq!(baseline, sorted_b);
    assert_eq!(restricted, sorted_r);
    assert_eq!(baseline.len() + restricted.len(), CHECKS.len());
    assert_eq!(newest_registered_minor(), LATEST_MINOR);

    let lv = |l: Level, v: u64| LevelVersion::new(l, Version::Minor(v));
    expect![[r#"
        baseline:v1.0 appArmorProfile capabilities_baseline hostNamespaces hostPathVolumes hostPorts privileged procMount seLinuxOptions seccompProfile_baseline sysctls windowsHostProcess
        restricted:v1.0 appArmorProfile capabilities_baseline hostNamespaces hostPorts privileged procMount seLinuxOptions seccompProfile_baseline sysctls windowsHostProcess restrictedVolumes runAsNonRoot
        restricted:v1.19 appArmorProfile capabilities_baseline hostNamespaces hostPorts privileged procMount seLinuxOptions sysctls windowsHostProcess allowPrivilegeEscalation restrictedVolumes runAsNonRoot seccompProfile_restricted
        restricted:v1.23 appArmorProfile hostNamespaces hostPorts privileged procMount seLinuxOptions sysctls windowsHostProcess allowPrivilegeEscalation capabilities_restricted restrictedVolumes runAsNonRoot runAsUser seccompProfile_restricted
        restricted:v1.35 appArmorProfile hostNamespaces hostPorts hostProbesAndHostLifecycle privileged seLinuxOptions sysctls windowsHostProcess allowPrivilegeEscalation capabilities_restricted procMount_restricted restrictedVolumes runAsNonRoot runAsUser seccompProfile_restricted
        privileged:latest
    "#]]
    .assert_eq(
        &[
            lv(Level::Baseline, 0),
            lv(Level::Restricted, 0),
            lv(Level::Restricted, 19),
            lv(Level::Restricted, 23),
            lv(Level::Restricted, 35),
            LevelVersion::new(Level::Privileged, Version::Latest),
        ]
        .iter()
        .map(|l| format!("{l} {}\n", check_ids(*l).join(" ")).replace(" \n", "\n"))
        .collect::<String>(),
    );
}

#[test]
fn label_value_parsing() {
    let cases = ["latest", "v1.0", "v1.37", "v1.05", "v2.0", "1.30", "v1.", "v1.-1", "v1.9223372036854775808", " v1.2"];
    let parsed: Vec<String> = cases
        .iter()
        .map(|c| match Version::parse(c) {
            Ok(v) => format!("{c:?} -> {v}"),
            Err(e) => format!("{c:?} -> error: {e}"),
        })
        .collect();
    expect![[r#"
        "latest" -> latest
        "v1.0" -> v1.0
        "v1.37" -> v1.37
        "v1.05" -> error: must be "latest" or "v1.x"
        "v2.0" -> error: must be "latest" or "v1.x"
        "1.30" -> error: must be "latest" or "v1.x"
        "v1." -> error: must be "latest" or "v1.x"
        "v1.-1" -> error: must be "latest" or "v1.x"
        "v1.9223372036854775808" -> error: must be "latest" or "v1.x"
        " v1.2" -> error: must be "latest" or "v1.x""#]]
    .assert_eq(&parsed.join("\n"));
    assert!(Level::parse("Restricted").is_err());
    assert_eq!(go_quote("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\x01\"");
}

#[test]
fn seccomp_annotations_before_v1_19() {
    check(
        "
apiVersion: v1
kind: Pod
metadata:
  name: old
  annotations:
    seccomp.security.alpha.kubernetes.io/pod: unconfined
    container.seccomp.security.alpha.kubernetes.io/app: docker/default
    container.seccomp.security.alpha.kubernetes.io/side: unconfined
spec:
  containers: [{name: app, image: x}, {name: side, image: x}]
",
        "enforce=baseline:v1.18",
        expect![[r#"
            verdict: Denied
            message: pods "old" is forbidden: violates PodSecurity "baseline:v1.18": seccompProfile (forbidden annotations container.seccomp.security.alpha.kubernetes.io/side="unconfined", seccomp.security.alpha.kubernetes.io/pod="unconfined")
            audit: pod-security.kubernetes.io/enforce-policy=baseline:v1.18
        "#]],
    );
}

/// Cases transcribed from upstream's `policy/check_*_test.go` (pod and expected strings):
/// each check alone must give exactly upstream's reason and detail.
#[test]
fn checks_match_upstream_unit_cases() {
    use k8s_openapi::api::core::v1::{PodSpec, Volume};

    fn run(id: &str, spec: &PodSpec, meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> String {
        let def = check_def(id).expect("registered");
        let lv = LevelVersion::new(def.level, Version::Latest);
        let r = evaluate(lv, meta, spec).into_iter().find(|r| r.id == id).expect("check runs at latest");
        format!("{}|{}", r.reason, r.detail)
    }
    fn yaml_case(id: &str, pod: &str) -> String {
        let pod: Pod = serde_yaml::from_str(pod).expect("case pod");
        run(id, &pod.spec.unwrap_or_default(), &pod.metadata)
    }

    assert_eq!(
        yaml_case(
            "seLinuxOptions",
            "spec:
  securityContext: {seLinuxOptions: {type: foo, user: bar, role: baz}}
  containers:
  - {name: a, securityContext: {seLinuxOptions: {type: container_t}}}
  - {name: b, securityContext: {seLinuxOptions: {type: container_init_t}}}
  - {name: c, securityContext: {seLinuxOptions: {type: container_kvm_t}}}
  - {name: d, securityContext: {seLinuxOptions: {type: container_engine_t}}}
  - {name: e, securityContext: {seLinuxOptions: {type: bar}}}
  - {name: f, securityContext: {seLinuxOptions: {user: bar}}}
  - {name: g, securityContext: {seLinuxOptions: {role: baz}}}"
        ),
        r#"seLinuxOptions|pod and containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set"#
    );
    assert_eq!(
        yaml_case(
            "capabilities_restricted",
            "spec:
  containers:
  - {name: a, securityContext: {capabilities: {add: [FOO, BAR]}}}
  - {name: b, securityContext: {capabilities: {add: [BAR, BAZ]}}}
  - {name: c, securityContext: {capabilities: {add: [NET_BIND_SERVICE, CHOWN], drop: [ALL, FOO]}}}"
        ),
        r#"unrestricted capabilities|containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; containers "a", "b", "c" must not include "BAR", "BAZ", "CHOWN", "FOO" in securityContext.capabilities.add"#
    );
    assert_eq!(
        yaml_case(
            "runAsNonRoot",
            "spec:
  securityContext: {runAsNonRoot: true}
  containers:
  - {name: a}
  - {name: b, securityContext: {}}
  - {name: c, securityContext: {runAsNonRoot: false}}
  - {name: d, securityContext: {runAsNonRoot: false}}
  - {name: e, securityContext: {runAsNonRoot: true}}"
        ),
        r#"runAsNonRoot != true|containers "c", "d" must not set securityContext.runAsNonRoot=false"#
    );
    assert_eq!(
        yaml_case(
            "hostPorts",
            "spec:
  containers:
  - {name: a, ports: [{containerPort: 1, hostPort: 0}]}
  - {name: b, ports: [{containerPort: 1, hostPort: 0}, {containerPort: 2, hostPort: 10}, {containerPort: 3, hostPort: 20}]}
  - {name: c, ports: [{containerPort: 1, hostPort: 0}, {containerPort: 2, hostPort: 10}, {containerPort: 3, hostPort: 30}]}"
        ),
        r#"hostPort|containers "b", "c" use hostPorts 10, 20, 30"#
    );
    assert_eq!(
        yaml_case(
            "appArmorProfile",
            r#"metadata:
  annotations:
    container.apparmor.security.beta.kubernetes.io/: bogus
    container.apparmor.security.beta.kubernetes.io/a: ''
    container.apparmor.security.beta.kubernetes.io/b: runtime/default
    container.apparmor.security.beta.kubernetes.io/c: localhost/
    container.apparmor.security.beta.kubernetes.io/d: localhost/foo
    container.apparmor.security.beta.kubernetes.io/e: unconfined
    container.apparmor.security.beta.kubernetes.io/f: unknown
spec: {containers: []}"#
        ),
        r#"forbidden AppArmor profiles|annotations must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/="bogus"", "container.apparmor.security.beta.kubernetes.io/e="unconfined"", "container.apparmor.security.beta.kubernetes.io/f="unknown"""#
    );

    // restrictedVolumes over every volume type, as upstream's table.
    let mut volumes = Vec::new();
    let ok: [fn(&mut Volume); 9] = [
        |v| v.empty_dir = Some(Default::default()),
        |v| v.secret = Some(Default::default()),
        |v| v.persistent_volume_claim = Some(Default::default()),
        |v| v.downward_api = Some(Default::default()),
        |v| v.config_map = Some(Default::default()),
        |v| v.projected = Some(Default::default()),
        |v| v.csi = Some(Default::default()),
        |v| v.ephemeral = Some(Default::default()),
        |v| v.image = Some(Default::default()),
    ];
    let bad: [fn(&mut Volume); 21] = [
        |v| v.host_path = Some(Default::default()),
        |v| v.gce_persistent_disk = Some(Default::default()),
        |v| v.aws_elastic_block_store = Some(Default::default()),
        |v| v.git_repo = Some(Default::default()),
        |v| v.nfs = Some(Default::default()),
        |v| v.iscsi = Some(Default::default()),
        |v| v.glusterfs = Some(Default::default()),
        |v| v.rbd = Some(Default::default()),
        |v| v.flex_volume = Some(Default::default()),
        |v| v.cinder = Some(Default::default()),
        |v| v.cephfs = Some(Default::default()),
        |v| v.flocker = Some(Default::default()),
        |v| v.fc = Some(Default::default()),
        |v| v.azure_file = Some(Default::default()),
        |v| v.vsphere_volume = Some(Default::default()),
        |v| v.quobyte = Some(Default::default()),
        |v| v.azure_disk = Some(Default::default()),
        |v| v.photon_persistent_disk = Some(Default::default()),
        |v| v.portworx_volume = Some(Default::default()),
        |v| v.scale_io = Some(Default::default()),
        |v| v.storageos = Some(Default::default()),
    ];
    for (prefix, setters) in [("a", &ok[..]), ("b", &bad[..])] {
        for (i, set) in setters.iter().enumerate() {
            let mut v = Volume { name: format!("{prefix}{}", i + 1), ..Default::default() };
            set(&mut v);
            volumes.push(v);
        }
    }
    volumes.push(Volume { name: "c1".into(), ..Default::default() });
    let spec = PodSpec { volumes: Some(volumes), ..Default::default() };
    assert_eq!(
        run("restrictedVolumes", &spec, &Default::default()),
        concat!(
            "restricted volume types|volumes ",
            r#""b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11", "b12", "b13", "b14", "b15", "b16", "b17", "b18", "b19", "b20", "b21", "c1""#,
            " use restricted volume types ",
            r#""awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "fc", "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", "#,
            r#""hostPath", "iscsi", "nfs", "photonPersistentDisk", "portworxVolume", "quobyte", "rbd", "scaleIO", "storageos", "unknown", "vsphereVolume""#,
        )
    );
}
