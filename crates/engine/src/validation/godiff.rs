//! The diff `ValidatePodUpdate` appends to its "pod updates may not change fields" error:
//! upstream prints `cmp.Diff(oldSpec, newSpec)` of its internal Go types with the go-cmp
//! library, whose output is deliberately unstable (go-cmp varies its whitespace from run to
//! run so that nobody depends on it). This module writes a diff in go-cmp's layout from the
//! two specs' JSON: `  core.PodSpec{` … `  }`, one line per level with a two-character
//! prefix (`  ` for context, `- ` for the old value, `+ ` for the new one) and tabs for
//! depth, Go field names (`ContainerPort:`), Go literals (`"TCP"`, `80`, `nil`) and the
//! element and map-entry structure. It differs from go-cmp's text where the internal types
//! differ from the JSON (go-cmp names every nested type and elides runs of unchanged fields
//! with `... // 3 identical fields`; this shows only what changed, on the path to it).

use k8s_openapi::api::core::v1::PodSpec;
use serde_json::{Map, Value};

/// The diff of two pod specs, old to new, ending with a newline.
pub fn pod_spec_diff(old: &PodSpec, new: &PodSpec) -> String {
    let old = serde_json::to_value(old).unwrap_or(Value::Null);
    let new = serde_json::to_value(new).unwrap_or(Value::Null);
    let empty = Map::new();
    let mut out = String::from("  core.PodSpec{\n");
    fields(old.as_object().unwrap_or(&empty), new.as_object().unwrap_or(&empty), "spec", 1, &mut out);
    out.push_str("  }\n");
    out
}

/// The fields of two structs that differ, in the JSON's key order.
fn fields(old: &Map<String, Value>, new: &Map<String, Value>, parent: &str, depth: usize, out: &mut String) {
    for key in union_keys(old, new) {
        let (o, n) = (old.get(key).unwrap_or(&Value::Null), new.get(key).unwrap_or(&Value::Null));
        if o == n {
            continue;
        }
        let name = go_field_name(key);
        let ty = go_type(parent, key);
        match (o, n) {
            (Value::Object(o), Value::Object(n)) if is_map(key) => {
                line(out, ' ', depth, &format!("{name}: {}{{", ty.unwrap_or("map[string]string")));
                map_entries(o, n, key, depth + 1, out);
                line(out, ' ', depth, "},");
            }
            (Value::Object(o), Value::Object(n)) => {
                line(out, ' ', depth, &format!("{name}: {}{{", ty.unwrap_or("")));
                fields(o, n, key, depth + 1, out);
                line(out, ' ', depth, "},");
            }
            (Value::Array(o), Value::Array(n)) => {
                line(out, ' ', depth, &format!("{name}: {}{{", ty.unwrap_or("")));
                elements(o, n, key, depth + 1, out);
                line(out, ' ', depth, "},");
            }
            _ => {
                let (ot, nt) = (literal(o, n, key, ty), literal(n, o, key, ty));
                line(out, '-', depth, &format!("{name}: {ot},"));
                line(out, '+', depth, &format!("{name}: {nt},"));
            }
        }
    }
}

/// The keys of two JSON objects, sorted, each once.
fn union_keys<'a>(old: &'a Map<String, Value>, new: &'a Map<String, Value>) -> Vec<&'a String> {
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    crate::sort::sort(&mut keys);
    keys.dedup();
    keys
}

/// The elements of two lists that differ, by index; extra elements on either side.
fn elements(old: &[Value], new: &[Value], field: &str, depth: usize, out: &mut String) {
    for i in 0..old.len().max(new.len()) {
        match (old.get(i), new.get(i)) {
            (Some(o), Some(n)) if o == n => {}
            (Some(Value::Object(o)), Some(Value::Object(n))) => {
                line(out, ' ', depth, "{");
                fields(o, n, field, depth + 1, out);
                line(out, ' ', depth, "},");
            }
            (o, n) => {
                if let Some(o) = o {
                    line(out, '-', depth, &format!("{},", element_literal(o, field)));
                }
                if let Some(n) = n {
                    line(out, '+', depth, &format!("{},", element_literal(n, field)));
                }
            }
        }
    }
}

/// The entries of two maps that differ (labels, node selectors, resource lists).
fn map_entries(old: &Map<String, Value>, new: &Map<String, Value>, field: &str, depth: usize, out: &mut String) {
    let resource_list = matches!(field, "requests" | "limits");
    let key_text = |k: &str| if resource_list { format!("s{}", go_string(k)) } else { go_string(k) };
    for k in union_keys(old, new) {
        match (old.get(k), new.get(k)) {
            (Some(o), Some(n)) if o == n => {}
            (o, n) => {
                for (sign, v) in [('-', o), ('+', n)] {
                    if let Some(v) = v {
                        let text = if resource_list { quantity(v) } else { element_literal(v, field) };
                        line(out, sign, depth, &format!("{}: {text},", key_text(k)));
                    }
                }
            }
        }
    }
}

/// One line: the prefix (`  `, `- ` or `+ `), `depth` tabs, the text.
fn line(out: &mut String, sign: char, depth: usize, text: &str) {
    out.push(sign);
    out.push(' ');
    for _ in 0..depth {
        out.push('\t');
    }
    out.push_str(text);
    out.push('\n');
}

/// A field's value as a Go literal; an absent value is the Go zero value of the type the
/// other side has (`""`, `0`, `false`, or `nil` for a struct, list or map).
fn literal(v: &Value, other: &Value, field: &str, ty: Option<&str>) -> String {
    match v {
        Value::Null => match other {
            Value::String(_) => "\"\"".into(),
            Value::Number(_) => "0".into(),
            Value::Bool(_) => "false".into(),
            _ => "nil".into(),
        },
        Value::Object(_) | Value::Array(_) => format!("{}{}", ty.unwrap_or(""), compact(v, field)),
        _ => element_literal(v, field),
    }
}

/// A value inside a list or a struct literal.
fn element_literal(v: &Value, field: &str) -> String {
    match v {
        Value::Null => "nil".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => go_string(s),
        Value::Object(_) | Value::Array(_) => compact(v, field),
    }
}

/// A struct, map or list on one line: `{Name: "web", ContainerPort: 80}`, `{"a", "b"}`.
fn compact(v: &Value, field: &str) -> String {
    match v {
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, x)| {
                    if matches!(field, "requests" | "limits") {
                        format!("s{}: {}", go_string(k), quantity(x))
                    } else if is_map(field) {
                        format!("{}: {}", go_string(k), element_literal(x, k))
                    } else {
                        format!("{}: {}", go_field_name(k), element_literal(x, k))
                    }
                })
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(|x| element_literal(x, field)).collect();
            format!("{{{}}}", parts.join(", "))
        }
        other => element_literal(other, field),
    }
}

/// A `resource.Quantity` as go-cmp prints the internal type: its cached string and format.
fn quantity(v: &Value) -> String {
    let s = v.as_str().unwrap_or_default();
    let format = if s.ends_with('i') {
        "BinarySI"
    } else if s.contains(['e', 'E']) {
        "DecimalExponent"
    } else {
        "DecimalSI"
    };
    format!("{{i: {{...}}, s: {}, Format: {}}}", go_string(s), go_string(format))
}

/// A Go string literal (`%q`).
fn go_string(s: &str) -> String {
    crate::errors::go_quote(s)
}

/// The Go field name of a JSON key: the key with its first letter upper-cased, except where
/// the internal type names the field differently.
fn go_field_name(key: &str) -> String {
    match key {
        "serviceAccount" => "DeprecatedServiceAccount".into(),
        _ => {
            let mut chars = key.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        }
    }
}

/// Keys whose values are Go maps rather than structs.
fn is_map(key: &str) -> bool {
    matches!(key, "nodeSelector" | "requests" | "limits" | "overhead" | "labels" | "annotations")
}

/// The Go type go-cmp names for a field that holds a struct, list or map, where known.
fn go_type(parent: &str, key: &str) -> Option<&'static str> {
    Some(match key {
        "containers" | "initContainers" => "[]core.Container",
        "ephemeralContainers" => "[]core.EphemeralContainer",
        "ports" => "[]core.ContainerPort",
        "env" => "[]core.EnvVar",
        "envFrom" => "[]core.EnvFromSource",
        "volumeMounts" => "[]core.VolumeMount",
        "volumeDevices" => "[]core.VolumeDevice",
        "volumes" => "[]core.Volume",
        "tolerations" => "[]core.Toleration",
        "imagePullSecrets" => "[]core.LocalObjectReference",
        "hostAliases" => "[]core.HostAlias",
        "topologySpreadConstraints" => "[]core.TopologySpreadConstraint",
        "readinessGates" => "[]core.PodReadinessGate",
        "schedulingGates" => "[]core.PodSchedulingGate",
        "command" | "args" => "[]string",
        "resources" if parent == "spec" => "&core.ResourceRequirements",
        "resources" => "core.ResourceRequirements",
        "requests" | "limits" | "overhead" => "core.ResourceList",
        "nodeSelector" => "map[string]string",
        "securityContext" if parent == "spec" => "&core.PodSecurityContext",
        "securityContext" => "&core.SecurityContext",
        "livenessProbe" | "readinessProbe" | "startupProbe" => "&core.Probe",
        "lifecycle" => "&core.Lifecycle",
        "affinity" => "&core.Affinity",
        "dnsConfig" => "&core.PodDNSConfig",
        "httpGet" => "&core.HTTPGetAction",
        "exec" => "&core.ExecAction",
        "tcpSocket" => "&core.TCPSocketAction",
        "grpc" => "&core.GRPCAction",
        "valueFrom" => "&core.EnvVarSource",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;
    use serde_json::json;

    fn spec(v: Value) -> PodSpec {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_changed_port_and_an_added_request() {
        let old = spec(
            json!({"containers": [{"name": "web", "image": "nginx", "ports": [{"containerPort": 80, "protocol": "TCP"}]}], "restartPolicy": "Always"}),
        );
        let new = spec(
            json!({"containers": [{"name": "web", "image": "nginx", "ports": [{"containerPort": 8080, "protocol": "TCP"}], "resources": {"requests": {"memory": "2Gi"}}}], "restartPolicy": "Always"}),
        );
        expect![[r#"
              core.PodSpec{
              	Containers: []core.Container{
              		{
              			Ports: []core.ContainerPort{
              				{
            - 					ContainerPort: 80,
            + 					ContainerPort: 8080,
              				},
              			},
            - 			Resources: nil,
            + 			Resources: core.ResourceRequirements{Requests: {s"memory": {i: {...}, s: "2Gi", Format: "BinarySI"}}},
              		},
              	},
              }
        "#]]
        .assert_eq(&pod_spec_diff(&old, &new));
    }

    #[test]
    fn lists_maps_and_zero_values() {
        let old =
            spec(json!({"containers": [{"name": "a", "command": ["sleep", "1"]}], "nodeSelector": {"disk": "ssd"}}));
        let new = spec(
            json!({"containers": [{"name": "a", "command": ["sleep", "2", "3"], "tty": true}, {"name": "b"}], "nodeSelector": {"disk": "hdd", "zone": "a"}, "hostNetwork": true}),
        );
        expect![[r#"
              core.PodSpec{
              	Containers: []core.Container{
              		{
              			Command: []string{
            - 				"1",
            + 				"2",
            + 				"3",
              			},
            - 			Tty: false,
            + 			Tty: true,
              		},
            + 		{Name: "b"},
              	},
            - 	HostNetwork: false,
            + 	HostNetwork: true,
              	NodeSelector: map[string]string{
            - 		"disk": "ssd",
            + 		"disk": "hdd",
            + 		"zone": "a",
              	},
              }
        "#]]
        .assert_eq(&pod_spec_diff(&old, &new));
    }
}
