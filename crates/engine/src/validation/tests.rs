use super::validate_create;
use crate::decode::decode;
use crate::defaults::apply_defaults;
use crate::errors::{kubectl_stderr, CommandError, GroupKind, Status};
use crate::manifest::parse_manifest;
use expect_test::{expect, Expect};

/// Runs every document through decode, defaults and validation (with the namespace kubectl
/// fills in), and shows what `kubectl apply` would print for the Invalid response.
fn check(input: &str, expect: Expect) {
    let parsed = parse_manifest(input);
    let mut out = String::new();
    for doc in &parsed.documents {
        let mut obj = match decode(doc) {
            Ok(o) => o,
            Err(e) => {
                out += &format!("decode: {}\n", e.kubectl_line("x.yaml"));
                continue;
            }
        };
        let info = obj.resource().or_else(|| crate::object::resource_for_kind(obj.kind()));
        if info.is_some_and(|r| r.namespaced) && obj.namespace().is_none() {
            obj.meta_mut().namespace = Some("default".into());
        }
        apply_defaults(&mut obj);
        let errs = validate_create(&obj);
        if errs.is_empty() {
            out += &format!("{} {:?}: valid\n", obj.kind(), obj.name());
            continue;
        }
        let gk = obj.resource().map(GroupKind::from).unwrap_or_else(|| GroupKind::new("", obj.kind()));
        let status = Status::invalid(gk, obj.name(), &errs);
        out += &kubectl_stderr(&[CommandError::Server(status)]);
    }
    expect.assert_eq(&out);
}

#[test]
fn pod_basics() {
    check(
        "\
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - name: web
    image: nginx:1.29
---
apiVersion: v1
kind: Pod
metadata: {name: noimage}
spec:
  containers:
  - name: web
---
apiVersion: v1
kind: Pod
metadata: {name: empty}
spec: {}
---
apiVersion: v1
kind: Pod
metadata: {}
spec:
  containers: [{name: web, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata: {name: My_Pod}
spec:
  restartPolicy: Sometimes
  containers:
  - name: Web
    image: nginx
  - name: Web
    image: nginx
",
        expect![[r#"
            Pod "web": valid
            The Pod "noimage" is invalid: spec.containers[0].image: Required value
            The Pod "empty" is invalid: spec.containers: Required value
            The Pod "" is invalid: metadata.name: Required value: name or generateName is required
            The Pod "My_Pod" is invalid: 
            * metadata.name: Invalid value: "My_Pod": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
            * spec.containers[0].name: Invalid value: "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
            * spec.containers[1].name: Invalid value: "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
            * spec.containers[1].name: Duplicate value: "Web"
            * spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"
        "#]],
    );
}

#[test]
fn pod_containers_in_detail() {
    check(
        "\
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  dnsPolicy: Cluster
  containers:
  - name: web
    image: ' nginx'
    imagePullPolicy: Sometimes
    ports:
    - {containerPort: 0, name: http}
    - {containerPort: 70000, name: http, protocol: tcp}
    - {containerPort: 80, hostPort: 8080}
    - {containerPort: 81, hostPort: 8080}
    env:
    - {name: 'A=B', value: x}
    - name: FROM
      value: x
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
    - name: BAD
      valueFrom: {fieldRef: {fieldPath: spec.nope}}
    resources:
      limits: {cpu: 1, memory: 1Gi}
      requests: {cpu: 2, memory: 2Gi, nvidia.com/gpu: 1}
    volumeMounts:
    - {name: data, mountPath: /data}
    - {name: conf, mountPath: /data}
    livenessProbe:
      httpGet: {port: 80}
      successThreshold: 2
    readinessProbe: {}
",
        expect![[r#"
            The Pod "web" is invalid: 
            * spec.containers[0].ports[0].containerPort: Required value
            * spec.containers[0].ports[1].name: Duplicate value: "http"
            * spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive
            * spec.containers[0].ports[1].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"
            * spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='
            * spec.containers[0].env[1].valueFrom: Invalid value: "": may not be specified when `value` is not empty
            * spec.containers[0].env[2].valueFrom.fieldRef.fieldPath: Unsupported value: "spec.nope": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"
            * spec.containers[0].volumeMounts[0].name: Not found: "data"
            * spec.containers[0].volumeMounts[1].name: Not found: "conf"
            * spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique
            * spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"
            * spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1
            * spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi
            * spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources
            * spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1
            * spec.containers[0].readinessProbe: Required value: must specify a handler type
            * spec.containers[0].ports[3].hostPort: Duplicate value: "TCP//8080"
            * spec.dnsPolicy: Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"
            * spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace
        "#]],
    );
}

#[test]
fn pod_volumes_and_scheduling_fields() {
    check(
        "\
apiVersion: v1
kind: Pod
metadata:
  name: vols
  labels: {'bad key': v, app: 'bad value'}
  annotations: {'a/b/c': x}
spec:
  nodeSelector: {disktype: ssd}
  tolerations:
  - {operator: Equal, value: x}
  - {key: k, operator: Exists, value: v, effect: NoExecute}
  - {key: k, effect: NoSchedule, tolerationSeconds: 5}
  - {key: k, operator: Maybe}
  initContainers:
  - name: init
    image: busybox
    livenessProbe: {exec: {command: ['true']}}
  containers:
  - name: web
    image: nginx
    volumeMounts:
    - {name: conf, mountPath: /etc/conf}
    - {name: cm, mountPath: /etc/cm}
  volumes:
  - name: conf
    configMap: {name: conf, defaultMode: 999}
    secret: {secretName: s}
  - name: cm
    configMap: {name: cm}
  - name: cm
    emptyDir: {}
  - name: Bad_Name
    hostPath: {path: /x, type: Folder}
",
        expect![[r#"
            The Pod "vols" is invalid: 
            * metadata.labels: Invalid value: "bad value": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
            * metadata.labels: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
            * metadata.annotations: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')
            * spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type
            * spec.volumes[2].name: Duplicate value: "cm"
            * spec.volumes[3].hostPath.type: Unsupported value: "Folder": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"
            * spec.volumes[3].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
            * spec.containers[0].volumeMounts[0].name: Not found: "conf"
            * spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always
            * spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"
            * spec.tolerations[1].operator: Invalid value: "v": value must be empty when `operator` is 'Exists'
            * spec.tolerations[2].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when `tolerationSeconds` is set
            * spec.tolerations[3].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"
        "#]],
    );
}

#[test]
fn host_network_and_names_on_templates() {
    check(
        "\
apiVersion: v1
kind: Pod
metadata: {name: hn}
spec:
  hostNetwork: true
  containers:
  - name: web
    image: nginx
    ports: [{containerPort: 80, hostPort: 8080}]
---
apiVersion: v1
kind: Namespace
metadata: {name: Dev.Team}
---
apiVersion: v1
kind: Namespace
metadata: {name: dev, namespace: other}
",
        expect![[r#"
            The Pod "hn" is invalid: spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true
            The Namespace "Dev.Team" is invalid: metadata.name: Invalid value: "Dev.Team": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
            The Namespace "dev" is invalid: metadata.namespace: Forbidden: not allowed on this type
        "#]],
    );
}

#[test]
fn workloads() {
    check(
        "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: -1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: api}}
    spec:
      restartPolicy: OnFailure
      containers: [{name: web, image: nginx}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: nosel}
spec:
  template:
    metadata: {labels: {app: x}}
    spec:
      containers: [{name: web, image: nginx}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ok}
spec:
  selector: {matchLabels: {app: ok}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: ok}}
    spec:
      containers: [{name: web, image: nginx}]
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec:
  selector: {matchLabels: {app: rs}}
  template:
    metadata: {labels: {app: rs}}
    spec:
      containers: [{name: web, image: nginx}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: pi}
spec:
  selector: {matchLabels: {job: pi}}
  template:
    metadata: {labels: {job: pi}}
    spec:
      containers: [{name: pi, image: perl}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: nosel}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: pi, image: perl}]
",
        expect![[r#"
            The Deployment "web" is invalid: 
            * spec.replicas: Invalid value: -1: must be greater than or equal to 0
            * spec.template.metadata.labels: Invalid value: {"app":"api"}: `selector` does not match template `labels`
            * spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"
            The Deployment "nosel" is invalid: 
            * spec.selector: Required value
            * spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`
            The Deployment "ok" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0
            ReplicaSet "rs": valid
            The Job "pi" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"
            The Job "nosel" is invalid: 
            * spec.selector: Required value
            * spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`
        "#]],
    );
}

#[test]
fn services_and_config() {
    check(
        "\
apiVersion: v1
kind: Service
metadata: {name: 1web}
spec:
  ports: [{port: 80}, {port: 80, name: b}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {'bad key': x, good.key: y}
---
apiVersion: v1
kind: Secret
metadata: {name: tls}
type: kubernetes.io/tls
stringData: {tls.crt: x}
",
        expect![[r#"
            The Service "1web" is invalid: 
            * metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')
            * spec.ports[0].name: Required value
            * spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}
            Service "web": valid
            The ConfigMap "cfg" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')
            The Secret "tls" is invalid: data[tls.key]: Required value
        "#]],
    );
}

#[test]
fn quotas_limits_and_rbac() {
    check(
        "\
apiVersion: v1
kind: LimitRange
metadata: {name: lr}
spec:
  limits:
  - type: Container
    max: {cpu: 1}
    min: {cpu: 2}
    default: {memory: 1Gi}
    defaultRequest: {memory: 2Gi}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: rq}
spec:
  hard: {pods: 1500m, cpu: 10, apples: 3}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: r}
rules:
- verbs: []
  resources: [pods]
- verbs: [get]
  nonResourceURLs: [/healthz]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb}
roleRef: {kind: Thing, name: r}
subjects:
- {kind: User, name: jane}
- {kind: ServiceAccount, name: Bad}
- {kind: Robot, name: x}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: crb}
roleRef: {kind: ClusterRole, name: view, apiGroup: rbac.authorization.k8s.io}
subjects:
- {kind: ServiceAccount, name: default}
",
        expect![[r#"
            The LimitRange "lr" is invalid: 
            * spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1
            * spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1
            * spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1
            * spec.limits[0].defaultRequest[memory]: Invalid value: "2Gi": default request value 2Gi is greater than default limit value 1Gi
            The ResourceQuota "rq" is invalid: 
            * spec.hard[apples]: Invalid value: "apples": must be a standard resource type or fully qualified
            * spec.hard[apples]: Invalid value: "apples": must be a standard resource for quota
            * spec.hard[pods]: Invalid value: "1500m": must be an integer
            The Role "r" is invalid: 
            * rules[0].verbs: Required value: verbs must contain at least one value
            * rules[0].apiGroups: Required value: resource rules must supply at least one api group
            * rules[1].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs
            The RoleBinding "rb" is invalid: 
            * roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole"
            * subjects[1].name: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
            * subjects[2].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"
            The ClusterRoleBinding "crb" is invalid: subjects[0].namespace: Required value
        "#]],
    );
}

/// Validates an update: each case is the stored object and the object the update produces,
/// both decoded and defaulted; shows what `kubectl apply` would print.
fn check_update(cases: &[(&str, &str)], expect: Expect) {
    let object = |yaml: &str| {
        let parsed = parse_manifest(yaml);
        let mut obj = decode(&parsed.documents[0]).expect("decodes");
        obj.meta_mut().namespace = Some("default".into());
        apply_defaults(&mut obj);
        obj
    };
    let mut out = String::new();
    for (old, new) in cases {
        let (old, new) = (object(old), object(new));
        let errs = super::validate_update(&new, &old);
        if errs.is_empty() {
            out += &format!("{} {:?}: valid\n", new.kind(), new.name());
            continue;
        }
        let gk = new.resource().map(GroupKind::from).unwrap_or_else(|| GroupKind::new("", new.kind()));
        out += &kubectl_stderr(&[CommandError::Server(Status::invalid(gk, new.name(), &errs))]);
    }
    expect.assert_eq(&out);
}

const POD: &str = "\
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  activeDeadlineSeconds: 10
  tolerations: [{key: dedicated, operator: Equal, value: web, effect: NoSchedule}]
  schedulingGates: [{name: example.com/wait}]
  containers:
  - name: web
    image: nginx:1.28
    ports: [{containerPort: 80}]
";

#[test]
fn pod_updates() {
    let with = |from: &str, to: &str| POD.replace(from, to);
    check_update(
        &[
            // What an update may change: images, a lower deadline, added tolerations, a
            // toleration's seconds, removed scheduling gates, metadata.
            (POD, &with("nginx:1.28", "nginx:1.29")),
            (POD, &with("activeDeadlineSeconds: 10", "activeDeadlineSeconds: 5")),
            (POD, &with("tolerations: [", "tolerations: [{key: b, operator: Exists}, ")),
            (POD, &with("schedulingGates: [{name: example.com/wait}]", "schedulingGates: []")),
            (POD, &with("metadata: {name: web}", "metadata: {name: web, labels: {tier: front}}")),
            // What it may not.
            (POD, &with("containerPort: 80", "containerPort: 8080")),
            (
                POD,
                &with(
                    "    ports: [{containerPort: 80}]\n",
                    "    ports: [{containerPort: 80}]\n  - {name: log, image: busybox}\n",
                ),
            ),
            (POD, &with("nginx:1.28", "' nginx:1.28'")),
            (POD, &with("activeDeadlineSeconds: 10", "activeDeadlineSeconds: 20")),
            (POD, &with("  activeDeadlineSeconds: 10\n", "")),
            (POD, &with("value: web", "value: api")),
            (
                POD,
                &with(
                    "schedulingGates: [{name: example.com/wait}]",
                    "schedulingGates: [{name: example.com/wait}, {name: b}]",
                ),
            ),
        ],
        expect![[r#"
            Pod "web": valid
            Pod "web": valid
            Pod "web": valid
            Pod "web": valid
            Pod "web": valid
            The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)
              core.PodSpec{
              	Containers: []core.Container{
              		{
              			Ports: []core.ContainerPort{
              				{
            - 					ContainerPort: 80,
            + 					ContainerPort: 8080,
              				},
              			},
              		},
              	},
              }

            The Pod "web" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers
            The Pod "web" is invalid: spec.containers[0].image: Invalid value: " nginx:1.28": must not have leading or trailing whitespace
            The Pod "web" is invalid: spec.activeDeadlineSeconds: Invalid value: 20: must be less than or equal to previous value
            The Pod "web" is invalid: spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value
            The Pod "web" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds
            The Pod "web" is invalid: spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'b'
        "#]],
    );
}

#[test]
fn workload_selectors_are_immutable() {
    let deployment = "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
";
    let replica_set = deployment.replace("kind: Deployment", "kind: ReplicaSet");
    check_update(
        &[
            (deployment, &deployment.replace("replicas: 1", "replicas: 3")),
            (deployment, &deployment.replace("app: web", "app: api")),
            (
                deployment,
                &deployment.replace("selector: {matchLabels: {app: web}}", "selector: {matchLabels: {app: api}}"),
            ),
            (&replica_set, &replica_set.replace("app: web", "app: api")),
        ],
        expect![[r#"
            Deployment "web": valid
            The Deployment "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"api"}}: field is immutable
            The Deployment "web" is invalid: 
            * spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`
            * spec.selector: Invalid value: {"matchLabels":{"app":"api"}}: field is immutable
            The ReplicaSet "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"api"}}: field is immutable
        "#]],
    );
}

#[test]
fn daemonsets_statefulsets_and_cronjobs() {
    check(
        "\
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: 0}}
  template:
    metadata: {labels: {app: other}}
    spec:
      restartPolicy: OnFailure
      activeDeadlineSeconds: 10
      containers: [{name: a, image: busybox}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ok}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: a, image: busybox}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: Db}
spec:
  replicas: -1
  podManagementPolicy: Sometimes
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      activeDeadlineSeconds: 5
      containers: [{name: db, image: postgres}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: \"TZ=Europe/Paris 0 3 * * *\"
  timeZone: Mars/Olympus
  concurrencyPolicy: Sometimes
  startingDeadlineSeconds: -1
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: n, image: busybox}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: bad-schedule}
spec:
  schedule: \"61 * * * *\"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: n, image: busybox}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: hello}
spec:
  schedule: \"*/1 * * * *\"
  timeZone: Etc/UTC
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: n, image: busybox}]
",
        expect![[r#"
            The DaemonSet "agent" is invalid: 
            * spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`
            * spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"
            * spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported
            * spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0
            DaemonSet "ok": valid
            The StatefulSet "Db" is invalid: 
            * metadata.name: Invalid value: "Db": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
            * spec.podManagementPolicy: Invalid value: "Sometimes": must be 'OrderedReady' or 'Parallel'
            * spec.replicas: Invalid value: -1: must be greater than or equal to 0
            * spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported
            StatefulSet "db": valid
            The CronJob "nightly" is invalid: 
            * spec.schedule: Invalid value: "TZ=Europe/Paris 0 3 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead
            * spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0
            * spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus
            * spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"
            The CronJob "bad-schedule" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61
            CronJob "hello": valid
        "#]],
    );
}
