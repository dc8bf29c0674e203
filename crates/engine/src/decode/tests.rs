use super::deserializer::go_base64_error;
use super::*;
use crate::errors::go_json;
use crate::manifest::parse_manifest;
use crate::object::Unstructured;
use expect_test::{expect, Expect};
use serde::{de, Deserialize};
use std::fmt;

/// Decodes every document of `input` and shows the body kubectl sends (compact, Go-style)
/// or what kubectl prints, with the paths involved.
fn check(input: &str, expect: Expect) {
    let parsed = parse_manifest(input);
    let mut out = String::new();
    for doc in &parsed.documents {
        match decode_document(doc) {
            Ok(d) => out += &format!("ok {} {:?}\n  body {}\n", d.object.kind(), d.object.name(), go_json(&d.body)),
            Err(e) => {
                let side = if e.is_client_side() { "client" } else { "server" };
                out += &format!("{side} {:?}\n  {}\n", e.paths(), e.kubectl_line("pod.yaml").replace('\n', "\n  "));
            }
        }
    }
    if let Some(e) = &parsed.error {
        out += &format!("yaml {}\n", e.kubectl_line("pod.yaml"));
    }
    expect.assert_eq(&out);
}

#[test]
fn a_valid_pod_and_its_body() {
    check(
        "\
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {tier: front, app: web}
spec:
  containers:
  - name: web
    image: nginx:1.29
    ports:
    - containerPort: 80
    resources:
      limits: {cpu: 1, memory: 128Mi}
",
        expect![[r#"
                ok Pod "web"
                  body {"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"app":"web","tier":"front"},"name":"web"},"spec":{"containers":[{"image":"nginx:1.29","name":"web","ports":[{"containerPort":80}],"resources":{"limits":{"cpu":1,"memory":"128Mi"}}}]}}
            "#]],
    );
}

#[test]
fn unknown_fields_are_all_listed_in_body_order() {
    check(
        "\
apiVersion: v1
kind: Pod
metadata:
  name: web
  lables: {app: web}
spec:
  containers:
  - name: web
    image: nginx
    imagePullPolicyy: Always
    resources:
      limitz: {cpu: 1}
  restartPolicyy: Never
  apiVersion: v1
",
        expect![[r#"
                server ["metadata.lables", "spec.apiVersion", "spec.containers[0].imagePullPolicyy", "spec.containers[0].resources.limitz", "spec.restartPolicyy"]
                  Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "metadata.lables", unknown field "spec.apiVersion", unknown field "spec.containers[0].imagePullPolicyy", unknown field "spec.containers[0].resources.limitz", unknown field "spec.restartPolicyy"
            "#]],
    );
}

#[test]
fn wrong_types() {
    check(
        "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: three
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    version: 1.5
spec:
  containers: [{name: web, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - name: web
    image: nginx
    ports:
    - containerPort: \"80\"
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: nginx
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - name: web
    image: nginx
    ports: [{containerPort: 1.5}]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - name: web
    image: nginx
    env:
    - name: DEBUG
      value: true
",
        expect![[r#"
                server ["spec.replicas"]
                  Error from server (BadRequest): error when creating "pod.yaml": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32
                server ["metadata.labels.version"]
                  Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string
                server ["spec.containers[0].ports[0].containerPort"]
                  Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32
                server ["spec.containers"]
                  Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container
                server ["spec.containers[0].ports[0].containerPort"]
                  Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32
                server ["spec.containers[0].env[0].value"]
                  Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string
            "#]],
    );
}

#[test]
fn type_specific_messages() {
    check(
        "\
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - name: web
    image: nginx
    resources:
      limits: {cpu: one}
---
apiVersion: v1
kind: Secret
metadata: {name: s}
data:
  password: hello
---
apiVersion: v1
kind: Service
metadata: {name: s}
spec:
  ports:
  - port: 80
    targetPort: true
",
        expect![[r#"
                server ["spec.containers[0].resources.limits.cpu"]
                  Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
                server ["data.password"]
                  Error from server (BadRequest): error when creating "pod.yaml": Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 4
                server ["spec.ports[0].targetPort"]
                  Error from server (BadRequest): error when creating "pod.yaml": Service in version "v1" cannot be handled as a Service: json: cannot unmarshal bool into Go value of type int32
            "#]],
    );
}

#[test]
fn yaml_1_1_scalars_like_kubectl() {
    // Plain `yes` is a boolean and plain 0644 is octal (420) for kubectl's yaml.v2;
    // quoted, they stay strings.
    check(
        "\
apiVersion: v1
kind: Pod
metadata: {name: a}
spec:
  containers:
  - name: web
    image: nginx
    env:
    - name: A
      value: yes
---
apiVersion: v1
kind: Pod
metadata:
  name: b
  annotations:
    quoted: \"yes\"
spec:
  terminationGracePeriodSeconds: 1_0
  containers:
  - name: web
    image: nginx
  volumes:
  - name: c
    configMap:
      name: c
      defaultMode: 0644
---
apiVersion: v1
kind: Pod
metadata: {name: c}
spec:
  containers: [{name: web, image: nginx}]
  volumes:
  - name: d
    secret:
      secretName: d
      defaultMode: '0644'
",
        expect![[r#"
                server ["spec.containers[0].env[0].value"]
                  Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string
                ok Pod "b"
                  body {"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"quoted":"yes"},"name":"b"},"spec":{"containers":[{"image":"nginx","name":"web"}],"terminationGracePeriodSeconds":10,"volumes":[{"configMap":{"defaultMode":420,"name":"c"},"name":"c"}]}}
                server ["spec.volumes[0].secret.defaultMode"]
                  Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field SecretVolumeSource.spec.volumes.secret.defaultMode of type int32
            "#]],
    );
}

#[test]
fn kubectl_client_side_errors() {
    check(
        "\
metadata: {name: x}
---
kind: Pod
apiVersion: 1
metadata: {name: x}
---
apiVersion: example.com/v1
kind: Foo
metadata: {name: foo, namespace: dev}
---
apiVersion: apps/v1beta2
kind: Deployment
metadata: {name: nginx}
---
apiVersion: a/b/c
kind: Pod
---
- just
- a list
---
apiVersion: v1
kind: \"\"
---
apiVersion: v1
kind: Pod
metadata: {name: x}
spec:
  n: .inf
",
        expect![[r#"
                client ["apiVersion", "kind"]
                  error: error validating "pod.yaml": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false
                client ["apiVersion"]
                  error: error validating "pod.yaml": error validating data: apiVersion isn't string type; if you choose to ignore these errors, turn validation off with --validate=false
                client ["apiVersion", "kind"]
                  error: resource mapping not found for name: "foo" namespace: "dev" from "pod.yaml": no matches for kind "Foo" in version "example.com/v1"
                  ensure CRDs are installed first
                client ["apiVersion", "kind"]
                  error: resource mapping not found for name: "nginx" namespace: "" from "pod.yaml": no matches for kind "Deployment" in version "apps/v1beta2"
                  ensure CRDs are installed first
                client ["apiVersion"]
                  error: error validating "pod.yaml": error validating data: unexpected GroupVersion string: a/b/c; if you choose to ignore these errors, turn validation off with --validate=false
                client []
                  error: error validating "pod.yaml": error validating data: invalid object to validate; if you choose to ignore these errors, turn validation off with --validate=false
                client ["kind"]
                  error: unable to decode "pod.yaml": Object 'Kind' is missing in '{"apiVersion":"v1","kind":""}'
                client ["spec.n"]
                  error: error parsing pod.yaml: error converting YAML to JSON: json: unsupported value: +Inf
            "#]],
    );
}

#[test]
fn kinds_without_a_type_are_kept_unstructured() {
    check(
        "\
apiVersion: v1
kind: ReplicationController
metadata: {name: db}
spec: {replicas: 1, anything: goes}
",
        expect![[r#"
                ok ReplicationController "db"
                  body {"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"db"},"spec":{"anything":"goes","replicas":1}}
            "#]],
    );
}

#[test]
fn nulls_and_integral_floats_like_go() {
    check(
        "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  creationTimestamp: null
spec:
  replicas: 2.0
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        args: ~
",
        expect![[r#"
                ok Deployment "web"
                  body {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"creationTimestamp":null,"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"args":null,"image":"nginx","name":"web"}]}}}}
            "#]],
    );
}

#[test]
fn apply_refuses_objects_without_a_name() {
    let parsed = parse_manifest(
            "apiVersion: v1\nkind: Pod\nmetadata: {generateName: web-}\n---\napiVersion: v1\nkind: Pod\nmetadata: {namespace: default}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ok}\n",
        );
    let mut out = String::new();
    for doc in &parsed.documents {
        let obj = decode(doc).unwrap();
        let msg = apply_client_check(&obj, "pod.yaml").map(|m| format!("error: {m}")).unwrap_or("-".into());
        out += &format!("{msg}\n");
    }
    expect![[r#"
            error: from web-: cannot use generate name with apply
            error: error when retrieving current configuration of:
            Resource: "/v1, Resource=pods", GroupVersionKind: "/v1, Kind=Pod"
            Name: "", Namespace: "default"
            from server for: "pod.yaml": resource name may not be empty
            -
        "#]]
    .assert_eq(&out);
}

#[test]
fn go_base64_offsets() {
    let cases = ["aGVsbG8=", "hello", "hello world", "abc", "ab==", "a===", "aGVsbG8=x", "aGVs\nbG8=", ""];
    let out: Vec<String> = cases.iter().map(|c| format!("{c:?}: {:?}", go_base64_error(c))).collect();
    expect![[r#"
            "aGVsbG8=": None
            "hello": Some(4)
            "hello world": Some(5)
            "abc": Some(0)
            "ab==": None
            "a===": Some(1)
            "aGVsbG8=x": Some(8)
            "aGVs\nbG8=": None
            "": None"#]]
    .assert_eq(&out.join("\n"));
}

/// `from_value` decodes as `serde_json::from_value` does: the same value or the same message.
fn same_as_serde_json<T>(json: Value) -> String
where
    T: de::DeserializeOwned + PartialEq + fmt::Debug,
{
    let ours = from_value::<T>(&json).map_err(|e| e.to_string());
    let theirs = serde_json::from_value::<T>(json.clone()).map_err(|e| e.to_string());
    assert_eq!(ours, theirs, "{json}");
    match ours {
        Ok(_) => "ok".into(),
        Err(e) => e,
    }
}

#[test]
fn from_value_is_serde_json_from_value() {
    use crate::cluster::LabSettings;
    use k8s_openapi::api::apps::v1::{Deployment, StatefulSet};
    use k8s_openapi::api::core::v1::{Pod, Secret};
    use serde_json::json;

    #[derive(Debug, PartialEq, Deserialize)]
    enum Shape {
        Unit,
        Newtype(u8),
        Tuple(i32, String),
        Struct { a: Option<bool> },
    }
    #[derive(Debug, PartialEq, Deserialize)]
    struct Shapes {
        shapes: Vec<Shape>,
        #[serde(default)]
        pair: Option<(u16, f64)>,
        #[serde(default)]
        unit: (),
    }

    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "labels": {"a": "b"},
            "creationTimestamp": "2026-01-02T03:04:05Z"},
            "spec": {"containers": [{"name": "web", "image": "nginx", "ports": [{"containerPort": 80}],
            "resources": {"limits": {"cpu": "1", "memory": 128}}, "unknown": [1, 2]}],
            "tolerations": [{"key": "k", "operator": "Exists", "tolerationSeconds": -5}]},
            "status": {"phase": "Running"}});
    let mut out = vec![same_as_serde_json::<Pod>(pod)];
    for bad in [
        json!({"spec": {"containers": [{"name": 1}]}}),
        json!({"spec": {"containers": {"name": "web"}}}),
        json!({"spec": {"containers": [{"name": "web", "ports": [{"containerPort": 1.5}]}]}}),
        json!({"spec": {"containers": [{"name": "web", "ports": [{"containerPort": 99999999999i64}]}]}}),
        json!({"spec": {"containers": [{"name": "web", "ports": [{"containerPort": -1}]}]}}),
        json!({"spec": {"containers": [{"name": "web", "ports": [{"containerPort": null}]}]}}),
        json!({"spec": {"containers": [{"name": "web", "resources": {"limits": {"cpu": true}}}]}}),
        json!({"spec": {"containers": [{"name": "web", "tty": "yes"}]}}),
        json!({"metadata": {"creationTimestamp": "yesterday"}}),
        json!({"metadata": {"creationTimestamp": 5}}),
        json!({"metadata": {"labels": ["a"]}}),
        json!({"metadata": "web"}),
        json!({"spec": ["web"]}),
        json!([1]),
        json!(null),
    ] {
        out.push(same_as_serde_json::<Pod>(bad));
    }
    out.push(same_as_serde_json::<Deployment>(json!({"spec": {"replicas": "3"}})));
    out.push(same_as_serde_json::<Deployment>(json!({"spec": {"strategy": {"rollingUpdate": {"maxSurge": 1.5}}}})));
    out.push(same_as_serde_json::<StatefulSet>(json!({"spec": {"template": {"spec": {"containers": 3}}}})));
    out.push(same_as_serde_json::<Secret>(json!({"data": {"k": "aGVsbG8="}})));
    out.push(same_as_serde_json::<Secret>(json!({"data": {"k": "not base64!"}})));
    out.push(same_as_serde_json::<Unstructured>(
        json!({"apiVersion": "x/v1", "kind": "K", "spec": {"a": [1, -2, 3.5]}}),
    ));
    out.push(same_as_serde_json::<Unstructured>(json!({"apiVersion": "x/v1", "metadata": {"name": 7}})));
    out.push(same_as_serde_json::<LabSettings>(json!({"users": [{"name": "alice"}], "namespace": "dev"})));
    out.push(same_as_serde_json::<LabSettings>(json!({"users": [{"name": "alice"}], "nmespace": "dev"})));
    out.push(same_as_serde_json::<Shapes>(
            json!({"shapes": ["Unit", {"Newtype": 7}, {"Tuple": [1, "x"]}, {"Struct": {"a": true}}], "pair": [1, 2], "unit": null}),
        ));
    for bad in [
        json!({"shapes": [{"Unit": null, "Newtype": 1}]}),
        json!({"shapes": [{}]}),
        json!({"shapes": [5]}),
        json!({"shapes": ["Newtype"]}),
        json!({"shapes": ["Tuple"]}),
        json!({"shapes": [{"Unit": 1}]}),
        json!({"shapes": [{"Newtype": 300}]}),
        json!({"shapes": [{"Tuple": [1]}]}),
        json!({"shapes": [{"Tuple": [1, "x", 2]}]}),
        json!({"shapes": [{"Tuple": "x"}]}),
        json!({"shapes": [{"Struct": [true]}]}),
        json!({"shapes": [{"Struct": 1}]}),
        json!({"shapes": [{"Other": 1}]}),
        json!({"shapes": [], "pair": [1]}),
        json!({"shapes": [], "pair": [1, 2, 3]}),
        json!({"shapes": [], "unit": 0}),
        json!({}),
    ] {
        out.push(same_as_serde_json::<Shapes>(bad));
    }
    expect![[r#"
            ok
            invalid type: integer `1`, expected a string
            invalid type: map, expected a sequence
            invalid type: floating point `1.5`, expected i32
            invalid value: integer `99999999999`, expected i32
            ok
            ok
            invalid type: boolean `true`, expected Quantity
            invalid type: string "yes", expected a boolean
            failed to parse four digit integer as year: invalid digit, expected 0-9 but got y
            invalid type: integer `5`, expected a timestamp string
            invalid type: sequence, expected a map
            invalid type: string "web", expected ObjectMeta
            invalid type: sequence, expected PodSpec
            invalid type: sequence, expected Pod
            invalid type: null, expected Pod
            invalid type: string "3", expected i32
            invalid type: floating point `1.5`, expected IntOrString
            invalid type: integer `3`, expected a sequence
            ok
            Invalid symbol 32, offset 3.
            ok
            invalid type: integer `7`, expected a string
            ok
            unknown field `nmespace`, expected one of `apiVersion`, `kind`, `metadata`, `extends`, `users`, `currentUser`, `namespace`, `anonymousAuth`, `webhooks`, `nodeFaults`, `registry`
            ok
            invalid value: map, expected map with a single key
            invalid value: map, expected map with a single key
            invalid type: integer `5`, expected string or map
            invalid type: unit variant, expected newtype variant
            invalid type: unit variant, expected tuple variant
            invalid type: integer `1`, expected unit
            invalid value: integer `300`, expected u8
            invalid length 1, expected tuple variant Shape::Tuple with 2 elements
            invalid length 3, expected fewer elements in array
            invalid type: string "x", expected tuple variant
            invalid type: sequence, expected struct variant
            invalid type: integer `1`, expected struct variant
            unknown variant `Other`, expected one of `Unit`, `Newtype`, `Tuple`, `Struct`
            invalid length 1, expected a tuple of size 2
            invalid length 3, expected fewer elements in array
            invalid type: integer `0`, expected unit
            missing field `shapes`"#]].assert_eq(&out.join("\n"));
}
