//! A container's environment, resolved as the kubelet does right before CreateContainer
//! (`makeEnvironmentVariables`): Service links, then `envFrom` sources, then `env` entries
//! in order. A missing ConfigMap or Secret (not marked optional) stops the container with
//! `CreateContainerConfigError`, using the kubelet's texts: `configmap "<n>" not found`,
//! `secret "<n>" not found`, `couldn't find key <k> in ConfigMap <ns>/<n>`,
//! `couldn't find key <k> in Secret <ns>/<n>`.

use super::volumes::{config_map, secret};
use crate::object::Object;
use crate::quantity::Quantity;
use crate::store::Store;
use k8s_openapi::api::core::v1::{Container, Pod, Service};
use std::collections::BTreeMap;

/// One resolved variable and where its value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvEntry {
    pub name: String,
    pub value: String,
    pub source: String,
}

/// What the environment depends on beyond the store.
pub struct EnvContext<'a> {
    pub pod_ip: &'a str,
    pub host_ip: &'a str,
    pub node_allocatable_cpu_milli: u64,
    pub node_allocatable_memory: u64,
}

fn decode_secret(v: &k8s_openapi::ByteString) -> String {
    String::from_utf8_lossy(&v.0).into_owned()
}

/// `FOO_BAR_SERVICE_HOST`-style name of a Service.
fn service_env_name(name: &str) -> String {
    name.to_ascii_uppercase().replace('-', "_")
}

fn service_links(store: &Store<Object>, ns: &str, enable: bool) -> Vec<EnvEntry> {
    let mut out = vec![];
    let add_service = |svc: &Service, out: &mut Vec<EnvEntry>| {
        let Some(spec) = svc.spec.as_ref() else { return };
        let Some(ip) = spec.cluster_ip.as_ref().filter(|ip| !ip.is_empty() && *ip != "None") else { return };
        let Some(first) = spec.ports.as_ref().and_then(|p| p.first()) else { return };
        let base = service_env_name(svc.metadata.name.as_deref().unwrap_or(""));
        let src = format!("service {}", svc.metadata.name.as_deref().unwrap_or(""));
        let proto = first.protocol.clone().unwrap_or_else(|| "TCP".into());
        let mut push = |n: String, v: String| out.push(EnvEntry { name: n, value: v, source: src.clone() });
        push(format!("{base}_SERVICE_HOST"), ip.clone());
        push(format!("{base}_SERVICE_PORT"), first.port.to_string());
        if let Some(pn) = &first.name {
            push(format!("{base}_SERVICE_PORT_{}", service_env_name(pn)), first.port.to_string());
        }
        push(format!("{base}_PORT"), format!("{}://{ip}:{}", proto.to_ascii_lowercase(), first.port));
        for p in spec.ports.iter().flatten() {
            let proto = p.protocol.clone().unwrap_or_else(|| "TCP".into());
            let prefix = format!("{base}_PORT_{}_{proto}", p.port);
            push(prefix.clone(), format!("{}://{ip}:{}", proto.to_ascii_lowercase(), p.port));
            push(format!("{prefix}_PROTO"), proto.to_ascii_lowercase());
            push(format!("{prefix}_PORT"), p.port.to_string());
            push(format!("{prefix}_ADDR"), ip.clone());
        }
    };
    if enable {
        for (_, obj, _) in store.list(&format!("/registry/services/specs/{ns}/")) {
            if let Object::Service(svc) = obj {
                if !(ns == "default" && svc.metadata.name.as_deref() == Some("kubernetes")) {
                    add_service(svc, &mut out);
                }
            }
        }
    }
    // The master service is always there, whatever enableServiceLinks says.
    if let Some((Object::Service(k), _)) = store.get("/registry/services/specs/default/kubernetes") {
        add_service(k, &mut out);
    }
    out
}

fn field_value(pod: &Pod, path: &str, ctx: &EnvContext) -> String {
    let meta = &pod.metadata;
    let spec = pod.spec.as_ref();
    if let Some(rest) = path.strip_prefix("metadata.labels['").and_then(|r| r.strip_suffix("']")) {
        return meta.labels.as_ref().and_then(|l| l.get(rest).cloned()).unwrap_or_default();
    }
    if let Some(rest) = path.strip_prefix("metadata.annotations['").and_then(|r| r.strip_suffix("']")) {
        return meta.annotations.as_ref().and_then(|l| l.get(rest).cloned()).unwrap_or_default();
    }
    match path {
        "metadata.name" => meta.name.clone().unwrap_or_default(),
        "metadata.namespace" => meta.namespace.clone().unwrap_or_default(),
        "metadata.uid" => meta.uid.clone().unwrap_or_default(),
        "spec.nodeName" => spec.and_then(|s| s.node_name.clone()).unwrap_or_default(),
        "spec.serviceAccountName" => spec.and_then(|s| s.service_account_name.clone()).unwrap_or_default(),
        "status.hostIP" | "status.hostIPs" => ctx.host_ip.to_string(),
        "status.podIP" | "status.podIPs" => ctx.pod_ip.to_string(),
        _ => String::new(),
    }
}

fn resource_value(c: &Container, resource: &str, divisor: Option<&str>, ctx: &EnvContext) -> String {
    let lists = |which: &str| -> BTreeMap<String, Quantity> {
        let r = c.resources.as_ref();
        let m = if which == "limits" { r.and_then(|r| r.limits.as_ref()) } else { r.and_then(|r| r.requests.as_ref()) };
        super::qos::resource_list(m)
    };
    let (which, name) = resource.split_once('.').unwrap_or(("limits", resource));
    let q = lists(which).get(name).copied();
    let div = divisor.and_then(|d| Quantity::parse(d).ok()).filter(|d| !d.is_zero());
    match name {
        "cpu" => {
            let milli = q.map(|q| q.milli().max(0) as u64).unwrap_or(if which == "limits" {
                ctx.node_allocatable_cpu_milli
            } else {
                0
            });
            let div_milli = div.map(|d| d.milli().max(1) as u64).unwrap_or(1000);
            milli.div_ceil(div_milli).to_string()
        }
        _ => {
            let bytes = q.map(|q| q.value().max(0) as u64).unwrap_or(if which == "limits" {
                ctx.node_allocatable_memory
            } else {
                0
            });
            let d = div.map(|d| d.value().max(1) as u64).unwrap_or(1);
            bytes.div_ceil(d).to_string()
        }
    }
}

/// Resolves a container's environment, or the kubelet's error text.
pub fn resolve(store: &Store<Object>, pod: &Pod, c: &Container, ctx: &EnvContext) -> Result<Vec<EnvEntry>, String> {
    let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
    let enable_links = pod.spec.as_ref().and_then(|s| s.enable_service_links).unwrap_or(true);
    let mut out: Vec<EnvEntry> = service_links(store, ns, enable_links);
    let set = |out: &mut Vec<EnvEntry>, e: EnvEntry| {
        out.retain(|x| x.name != e.name);
        out.push(e);
    };
    for from in c.env_from.iter().flatten() {
        let prefix = from.prefix.clone().unwrap_or_default();
        if let Some(r) = &from.config_map_ref {
            match config_map(store, ns, &r.name) {
                Some(cm) => {
                    for (k, v) in cm.data.iter().flatten() {
                        set(
                            &mut out,
                            EnvEntry {
                                name: format!("{prefix}{k}"),
                                value: v.clone(),
                                source: format!("configmap {}", r.name),
                            },
                        );
                    }
                }
                None if r.optional == Some(true) => {}
                None => return Err(format!("configmap {:?} not found", r.name)),
            }
        }
        if let Some(r) = &from.secret_ref {
            match secret(store, ns, &r.name) {
                Some(s) => {
                    for (k, v) in s.data.iter().flatten() {
                        set(
                            &mut out,
                            EnvEntry {
                                name: format!("{prefix}{k}"),
                                value: decode_secret(v),
                                source: format!("secret {}", r.name),
                            },
                        );
                    }
                }
                None if r.optional == Some(true) => {}
                None => return Err(format!("secret {:?} not found", r.name)),
            }
        }
    }
    for e in c.env.iter().flatten() {
        let Some(from) = &e.value_from else {
            set(
                &mut out,
                EnvEntry { name: e.name.clone(), value: e.value.clone().unwrap_or_default(), source: "value".into() },
            );
            continue;
        };
        if let Some(r) = &from.config_map_key_ref {
            let optional = r.optional == Some(true);
            let Some(cm) = config_map(store, ns, &r.name) else {
                if optional {
                    continue;
                }
                return Err(format!("configmap {:?} not found", r.name));
            };
            match cm.data.as_ref().and_then(|d| d.get(&r.key)) {
                Some(v) => set(
                    &mut out,
                    EnvEntry {
                        name: e.name.clone(),
                        value: v.clone(),
                        source: format!("configmap {} key {}", r.name, r.key),
                    },
                ),
                None if optional => {}
                None => return Err(format!("couldn't find key {} in ConfigMap {ns}/{}", r.key, r.name)),
            }
        } else if let Some(r) = &from.secret_key_ref {
            let optional = r.optional == Some(true);
            let Some(s) = secret(store, ns, &r.name) else {
                if optional {
                    continue;
                }
                return Err(format!("secret {:?} not found", r.name));
            };
            let v = s.data.as_ref().and_then(|d| d.get(&r.key)).map(decode_secret);
            match v {
                Some(v) => set(
                    &mut out,
                    EnvEntry { name: e.name.clone(), value: v, source: format!("secret {} key {}", r.name, r.key) },
                ),
                None if optional => {}
                None => return Err(format!("couldn't find key {} in Secret {ns}/{}", r.key, r.name)),
            }
        } else if let Some(f) = &from.field_ref {
            set(
                &mut out,
                EnvEntry {
                    name: e.name.clone(),
                    value: field_value(pod, &f.field_path, ctx),
                    source: format!("fieldRef {}", f.field_path),
                },
            );
        } else if let Some(r) = &from.resource_field_ref {
            let v = resource_value(c, &r.resource, r.divisor.as_ref().map(|d| d.0.as_str()), ctx);
            set(
                &mut out,
                EnvEntry { name: e.name.clone(), value: v, source: format!("resourceFieldRef {}", r.resource) },
            );
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::ConfigMap;

    fn run(container: &str, store: &Store<Object>) -> String {
        let pod: Pod = serde_yaml::from_str(&format!(
            "metadata: {{name: web, namespace: default, uid: u}}\nspec:\n  nodeName: worker-1\n  containers: [{container}]"
        ))
        .unwrap();
        let ctx = EnvContext {
            pod_ip: "10.244.1.2",
            host_ip: "172.18.0.3",
            node_allocatable_cpu_milli: 8000,
            node_allocatable_memory: 1 << 33,
        };
        match resolve(store, &pod, &pod.spec.as_ref().unwrap().containers[0], &ctx) {
            Ok(v) => v.iter().map(|e| format!("{}={}", e.name, e.value)).collect::<Vec<_>>().join(" "),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn env_sources_and_errors() {
        let mut store: Store<Object> = Store::new();
        let cm: ConfigMap =
            serde_yaml::from_str("metadata: {name: app, namespace: default}\ndata: {mode: fast}").unwrap();
        store.create("/registry/configmaps/default/app", cm.into()).unwrap();
        let out = [
            run("{name: a, image: x, env: [{name: MODE, valueFrom: {configMapKeyRef: {name: app, key: mode}}}, {name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}]}", &store),
            run("{name: a, image: x, env: [{name: MODE, valueFrom: {configMapKeyRef: {name: app-config, key: mode}}}]}", &store),
            run("{name: a, image: x, env: [{name: MODE, valueFrom: {configMapKeyRef: {name: app, key: level}}}]}", &store),
            run("{name: a, image: x, envFrom: [{secretRef: {name: db}}]}", &store),
            run("{name: a, image: x, env: [{name: P, valueFrom: {secretKeyRef: {name: db, key: password, optional: true}}}]}", &store),
            run("{name: a, image: x, resources: {limits: {memory: 64Mi}}, env: [{name: MEM, valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}}]}", &store),
        ];
        expect_test::expect![[r#"
            MODE=fast NODE=worker-1
            error: configmap "app-config" not found
            error: couldn't find key level in ConfigMap default/app
            error: secret "db" not found

            MEM=64"#]]
        .assert_eq(&out.join("\n"));
    }
}
