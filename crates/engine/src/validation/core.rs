//! Services, namespaces, config maps, secrets, quotas, limit ranges, claims and RBAC objects
//! (kubernetes `pkg/apis/core/validation/validation.go`, `pkg/apis/rbac/validation`).

use super::meta;
use super::names;
use super::pod::{port_num_or_name, quantity_value};
use crate::errors::FieldError;
use crate::quantity::Quantity;
use crate::sort::CollectMap;
use k8s_openapi::api::core::v1::{
    ConfigMap, LimitRange, Namespace, PersistentVolumeClaimSpec, ResourceQuota, Secret, Service,
};
use k8s_openapi::api::rbac::v1::{PolicyRule, RoleRef, Subject};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as KQuantity;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};

type Errs = Vec<FieldError>;

const STANDARD_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];

const STANDARD_QUOTA_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.storage",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "persistentvolumeclaims",
    "configmaps",
    "services.nodeports",
    "services.loadbalancers",
];

const INTEGER_RESOURCES: &[&str] = &[
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

fn is_quota_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-") || name.starts_with("requests.hugepages-") || name.starts_with("limits.hugepages-")
}

pub fn is_standard_resource_name(name: &str) -> bool {
    STANDARD_RESOURCES.contains(&name) || is_quota_hugepages(name)
}

fn is_extended_resource_name(name: &str) -> bool {
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    !native && !name.starts_with("requests.") && names::qualified_name(&format!("requests.{name}")).is_empty()
}

pub fn is_integer_resource(name: &str) -> bool {
    INTEGER_RESOURCES.contains(&name) || is_extended_resource_name(name)
}

fn resource_name(name: &str, p: &str, errs: &mut Errs) -> bool {
    let before = errs.len();
    for m in names::qualified_name(name) {
        errs.push(FieldError::invalid(p, name, m));
    }
    if errs.len() != before {
        return false;
    }
    if !name.contains('/') && !is_standard_resource_name(name) {
        errs.push(FieldError::invalid(p, name, "must be a standard resource type or fully qualified"));
        return false;
    }
    true
}

/// `ValidateService`.
pub fn service(svc: &Service, errs: &mut Errs) {
    meta::object_meta(&svc.metadata, true, names::name_is_dns1035_label, errs);
    let empty = Default::default();
    let spec = svc.spec.as_ref().unwrap_or(&empty);
    let ports = spec.ports.as_deref().unwrap_or_default();
    let ty = spec.type_.as_deref().unwrap_or_default();
    let headless = spec.cluster_ip.as_deref() == Some("None")
        || spec.cluster_ips.as_ref().and_then(|v| v.first()).map(String::as_str) == Some("None");
    if ports.is_empty() && !headless && ty != "ExternalName" {
        errs.push(FieldError::required("spec.ports", ""));
    }
    match ty {
        "LoadBalancer" | "NodePort" if headless => {
            errs.push(FieldError::invalid(
                "spec.clusterIPs[0]",
                "None",
                format!("may not be set to 'None' for {ty} services"),
            ));
        }
        "ExternalName" => {
            if spec.cluster_ips.as_ref().is_some_and(|v| !v.is_empty()) {
                errs.push(FieldError::forbidden("spec.clusterIPs", "may not be set for ExternalName services"));
            }
            if spec.ip_families.as_ref().is_some_and(|v| !v.is_empty()) {
                errs.push(FieldError::forbidden("spec.ipFamilies", "may not be set for ExternalName services"));
            }
            if spec.ip_family_policy.is_some() {
                errs.push(FieldError::forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services"));
            }
            let cname = spec.external_name.as_deref().unwrap_or_default();
            let cname = cname.strip_suffix('.').unwrap_or(cname);
            if cname.is_empty() {
                errs.push(FieldError::required("spec.externalName", ""));
            } else {
                for m in names::dns1123_subdomain(cname) {
                    errs.push(FieldError::invalid("spec.externalName", cname, m));
                }
            }
        }
        _ => {}
    }
    let mut port_names = BTreeSet::new();
    for (i, sp) in ports.iter().enumerate() {
        let pp = format!("spec.ports[{i}]");
        let name = sp.name.as_deref().unwrap_or_default();
        if ports.len() > 1 && name.is_empty() {
            errs.push(FieldError::required(format!("{pp}.name"), ""));
        } else if !name.is_empty() {
            for m in names::dns1123_label(name) {
                errs.push(FieldError::invalid(format!("{pp}.name"), name, m));
            }
            if !port_names.insert(name.to_string()) {
                errs.push(FieldError::duplicate(format!("{pp}.name"), name));
            }
        }
        for m in names::port_num(sp.port as i64) {
            errs.push(FieldError::invalid(format!("{pp}.port"), sp.port, m));
        }
        match sp.protocol.as_deref().unwrap_or_default() {
            "TCP" | "UDP" | "SCTP" => {}
            "" => errs.push(FieldError::required(format!("{pp}.protocol"), "")),
            other => errs.push(FieldError::not_supported(format!("{pp}.protocol"), other, &["SCTP", "TCP", "UDP"])),
        }
        let target = sp.target_port.clone().unwrap_or(IntOrString::Int(0));
        port_num_or_name(&target, &format!("{pp}.targetPort"), errs);
        if let Some(ap) = sp.app_protocol.as_deref() {
            for m in names::qualified_name(ap) {
                errs.push(FieldError::invalid(format!("{pp}.appProtocol"), ap, m));
            }
        }
    }
    meta::labels(spec.selector.as_ref(), "spec.selector", errs);
    let affinity = spec.session_affinity.as_deref().unwrap_or_default();
    match affinity {
        "" => errs.push(FieldError::required("spec.sessionAffinity", "")),
        "ClientIP" | "None" => {}
        other => errs.push(FieldError::not_supported("spec.sessionAffinity", other, &["ClientIP", "None"])),
    }
    if affinity == "ClientIP" {
        let cfg = spec.session_affinity_config.as_ref();
        let cp = "spec.sessionAffinityConfig";
        match cfg.and_then(|c| c.client_ip.as_ref()) {
            None if cfg.is_none() => errs.push(FieldError::required(cp, "when session affinity type is ClientIP")),
            None => errs.push(FieldError::required(format!("{cp}.clientIP"), "when session affinity type is ClientIP")),
            Some(ip) => match ip.timeout_seconds {
                None => errs.push(FieldError::required(
                    format!("{cp}.clientIP.timeoutSeconds"),
                    "when session affinity type is ClientIP",
                )),
                Some(t) if t <= 0 || t > 86400 => errs.push(FieldError::invalid(
                    format!("{cp}.clientIP.timeoutSeconds"),
                    t,
                    "must be greater than 0 and less than 86400",
                )),
                Some(_) => {}
            },
        }
    } else if affinity == "None" && spec.session_affinity_config.is_some() {
        errs.push(FieldError::forbidden("spec.sessionAffinityConfig", "must not be set when session affinity is None"));
    }
    for (i, ip) in spec.external_ips.iter().flatten().enumerate() {
        for m in names::ip_errors(ip) {
            errs.push(FieldError::invalid(format!("spec.externalIPs[{i}]"), ip.as_str(), m));
        }
    }
    match ty {
        "" => errs.push(FieldError::required("spec.type", "")),
        "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName" => {}
        other => errs.push(FieldError::not_supported(
            "spec.type",
            other,
            &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
        )),
    }
    if ty == "ClusterIP" {
        for (i, sp) in ports.iter().enumerate() {
            if sp.node_port.unwrap_or(0) != 0 {
                errs.push(FieldError::forbidden(
                    format!("spec.ports[{i}].nodePort"),
                    "may not be used when `type` is 'ClusterIP'",
                ));
            }
        }
    }
    let mut node_ports = BTreeSet::new();
    for (i, sp) in ports.iter().enumerate() {
        let np = sp.node_port.unwrap_or(0);
        if np == 0 {
            continue;
        }
        if !node_ports.insert((sp.protocol.clone().unwrap_or_default(), np)) {
            errs.push(FieldError::duplicate(format!("spec.ports[{i}].nodePort"), np));
        }
    }
    let mut seen = BTreeSet::new();
    for (i, sp) in ports.iter().enumerate() {
        let protocol = sp.protocol.clone().unwrap_or_default();
        if !seen.insert((protocol.clone(), sp.port)) {
            // The key is an internal ServicePort with only protocol and port set.
            errs.push(FieldError::duplicate(
                format!("spec.ports[{i}]"),
                json!({"Name": "", "Protocol": protocol, "AppProtocol": null, "Port": sp.port, "TargetPort": 0, "NodePort": 0}),
            ));
        }
    }
    if spec.load_balancer_source_ranges.as_ref().is_some_and(|v| !v.is_empty()) && ty != "LoadBalancer" {
        errs.push(FieldError::forbidden(
            "spec.LoadBalancerSourceRanges",
            "may only be used when `type` is 'LoadBalancer'",
        ));
    }
    if spec.allocate_load_balancer_node_ports.is_some() && ty != "LoadBalancer" {
        errs.push(FieldError::forbidden(
            "spec.allocateLoadBalancerNodePorts",
            "may only be used when `type` is 'LoadBalancer'",
        ));
    }
    if ty == "LoadBalancer" && spec.allocate_load_balancer_node_ports.is_none() {
        errs.push(FieldError::required("allocateLoadBalancerNodePorts", ""));
    }
    let externally_accessible = ty == "LoadBalancer"
        || ty == "NodePort"
        || (ty == "ClusterIP" && spec.external_ips.as_ref().is_some_and(|v| !v.is_empty()));
    let etp = spec.external_traffic_policy.as_deref().unwrap_or_default();
    if !externally_accessible {
        if !etp.is_empty() {
            errs.push(FieldError::invalid(
                "spec.externalTrafficPolicy",
                etp,
                "may only be set for externally-accessible services",
            ));
        }
    } else if etp.is_empty() {
        errs.push(FieldError::required("spec.externalTrafficPolicy", ""));
    } else if !matches!(etp, "Cluster" | "Local") {
        errs.push(FieldError::not_supported("spec.externalTrafficPolicy", etp, &["Cluster", "Local"]));
    }
    let needs_health_check = ty == "LoadBalancer" && etp == "Local";
    let hc = spec.health_check_node_port.unwrap_or(0);
    if !needs_health_check && hc != 0 {
        errs.push(FieldError::invalid(
            "spec.healthCheckNodePort",
            hc,
            "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ));
    }
    match spec.internal_traffic_policy.as_deref() {
        None if matches!(ty, "NodePort" | "LoadBalancer" | "ClusterIP") => {
            errs.push(FieldError::required("spec.internalTrafficPolicy", ""));
        }
        Some(itp) if !matches!(itp, "Cluster" | "Local") => {
            errs.push(FieldError::not_supported("spec.internalTrafficPolicy", itp, &["Cluster", "Local"]));
        }
        _ => {}
    }
}

/// `ValidateNamespace`.
pub fn namespace(ns: &Namespace, errs: &mut Errs) {
    meta::object_meta(&ns.metadata, false, names::name_is_dns_label, errs);
    for f in ns.spec.iter().flat_map(|s| s.finalizers.iter().flatten()) {
        for m in names::qualified_name(f) {
            errs.push(FieldError::invalid("spec.finalizers", f.as_str(), m));
        }
        if !f.contains('/') && f != "kubernetes" {
            errs.push(FieldError::invalid(
                "spec.finalizers",
                f.as_str(),
                "name is neither a standard finalizer name nor is it fully qualified",
            ));
        }
    }
}

const MAX_SECRET_SIZE: usize = 1024 * 1024;

/// `ValidateConfigMap`.
pub fn config_map(cm: &ConfigMap, errs: &mut Errs) {
    meta::object_meta(&cm.metadata, true, names::name_is_dns_subdomain, errs);
    let mut total = 0;
    let binary = cm.binary_data.clone().unwrap_or_default();
    for (k, v) in cm.data.iter().flatten() {
        for m in names::config_map_key(k) {
            errs.push(FieldError::invalid(format!("data[{k}]"), k.as_str(), m));
        }
        if binary.contains_key(k) {
            errs.push(FieldError::invalid(format!("data[{k}]"), k.as_str(), "duplicate of key present in binaryData"));
        }
        total += v.len();
    }
    for (k, v) in &binary {
        for m in names::config_map_key(k) {
            errs.push(FieldError::invalid(format!("binaryData[{k}]"), k.as_str(), m));
        }
        total += v.0.len();
    }
    if total > MAX_SECRET_SIZE {
        errs.push(FieldError::too_long("", MAX_SECRET_SIZE as i64));
    }
}

/// `ValidateSecret` (after `stringData` was merged into `data`, as conversion does).
pub fn secret(s: &Secret, errs: &mut Errs) {
    meta::object_meta(&s.metadata, true, names::name_is_dns_subdomain, errs);
    let mut data: BTreeMap<String, usize> = s.data.iter().flatten().map(|(k, v)| (k.clone(), v.0.len())).collect_map();
    for (k, v) in s.string_data.iter().flatten() {
        data.insert(k.clone(), v.len());
    }
    let mut total = 0;
    for (k, len) in &data {
        for m in names::config_map_key(k) {
            errs.push(FieldError::invalid(format!("data[{k}]"), k.as_str(), m));
        }
        total += len;
    }
    if total > MAX_SECRET_SIZE {
        errs.push(FieldError::too_long("data", MAX_SECRET_SIZE as i64));
    }
    let has = |k: &str| data.contains_key(k);
    match s.type_.as_deref().unwrap_or_default() {
        "kubernetes.io/service-account-token" => {
            let sa = s.metadata.annotations.as_ref().and_then(|a| a.get("kubernetes.io/service-account.name"));
            if sa.is_none_or(String::is_empty) {
                errs.push(FieldError::required("metadata.annotations[kubernetes.io/service-account.name]", ""));
            }
        }
        "kubernetes.io/dockercfg" if !has(".dockercfg") => errs.push(FieldError::required("data[.dockercfg]", "")),
        "kubernetes.io/dockerconfigjson" if !has(".dockerconfigjson") => {
            errs.push(FieldError::required("data[.dockerconfigjson]", ""))
        }
        "kubernetes.io/basic-auth" if !has("username") && !has("password") => {
            errs.push(FieldError::required("data[username]", ""));
            errs.push(FieldError::required("data[password]", ""));
        }
        "kubernetes.io/ssh-auth" if data.get("ssh-privatekey").copied().unwrap_or(0) == 0 => {
            errs.push(FieldError::required("data[ssh-privatekey]", ""))
        }
        "kubernetes.io/tls" => {
            if !has("tls.crt") {
                errs.push(FieldError::required("data[tls.crt]", ""));
            }
            if !has("tls.key") {
                errs.push(FieldError::required("data[tls.key]", ""));
            }
        }
        _ => {}
    }
}

fn quantity_text(q: &KQuantity) -> String {
    crate::decode::parse_quantity(&q.0).map(|x| x.to_string()).unwrap_or_else(|_| q.0.clone())
}

/// `ValidateLimitRange`.
pub fn limit_range(lr: &LimitRange, errs: &mut Errs) {
    meta::object_meta(&lr.metadata, true, names::name_is_dns_subdomain, errs);
    let mut types = BTreeSet::new();
    for (i, item) in lr.spec.iter().flat_map(|s| s.limits.iter()).enumerate() {
        let ip = format!("spec.limits[{i}]");
        let t = item.type_.as_str();
        let before = errs.len();
        for m in names::qualified_name(t) {
            errs.push(FieldError::invalid(format!("{ip}.type"), t, m));
        }
        if errs.len() == before && !t.contains('/') && !matches!(t, "Pod" | "Container" | "PersistentVolumeClaim") {
            errs.push(FieldError::invalid(format!("{ip}.type"), t, "must be a standard limit type or fully qualified"));
        }
        if !types.insert(t.to_string()) {
            errs.push(FieldError::duplicate(format!("{ip}.type"), t));
        }
        let check_name = |k: &str, p: &str, errs: &mut Errs| {
            if matches!(t, "Pod" | "Container") {
                resource_name(k, p, errs);
                let container_resource = k.contains('/')
                    || matches!(k, "cpu" | "memory" | "ephemeral-storage")
                    || k.starts_with("hugepages-");
                if !container_resource {
                    errs.push(FieldError::invalid(p, k, "must be a standard resource for containers"));
                }
            } else {
                resource_name(k, p, errs);
            }
        };
        let mut keys = BTreeSet::new();
        let get = |m: &Option<BTreeMap<String, KQuantity>>| m.clone().unwrap_or_default();
        let (max, min, default, default_request, ratio) = (
            get(&item.max),
            get(&item.min),
            get(&item.default),
            get(&item.default_request),
            get(&item.max_limit_request_ratio),
        );
        for k in max.keys() {
            check_name(k, &format!("{ip}.max[{k}]"), errs);
            keys.insert(k.clone());
        }
        for k in min.keys() {
            check_name(k, &format!("{ip}.min[{k}]"), errs);
            keys.insert(k.clone());
        }
        if t == "Pod" {
            if !default.is_empty() {
                errs.push(FieldError::forbidden(format!("{ip}.default"), "may not be specified when `type` is 'Pod'"));
            }
            if !default_request.is_empty() {
                errs.push(FieldError::forbidden(
                    format!("{ip}.defaultRequest"),
                    "may not be specified when `type` is 'Pod'",
                ));
            }
        } else {
            for k in default.keys() {
                check_name(k, &format!("{ip}.default[{k}]"), errs);
                keys.insert(k.clone());
            }
            for k in default_request.keys() {
                check_name(k, &format!("{ip}.defaultRequest[{k}]"), errs);
                keys.insert(k.clone());
            }
        }
        if t == "PersistentVolumeClaim" && !min.contains_key("storage") && !max.contains_key("storage") {
            errs.push(FieldError::required(
                format!("{ip}.limits"),
                "either minimum or maximum storage value is required, but neither was provided",
            ));
        }
        for k in ratio.keys() {
            check_name(k, &format!("{ip}.maxLimitRequestRatio[{k}]"), errs);
            keys.insert(k.clone());
        }
        let parse =
            |m: &BTreeMap<String, KQuantity>, k: &str| m.get(k).and_then(|q| crate::decode::parse_quantity(&q.0).ok());
        for k in &keys {
            let (mn, mx) = (parse(&min, k), parse(&max, k));
            let (df, dr) = (
                if t == "Pod" { None } else { parse(&default, k) },
                if t == "Pod" { None } else { parse(&default_request, k) },
            );
            let rt = parse(&ratio, k);
            if let (Some(mn), Some(mx)) = (mn, mx) {
                if mn > mx {
                    errs.push(FieldError::invalid(
                        format!("{ip}.min[{k}]"),
                        mn.to_string(),
                        format!("min value {mn} is greater than max value {mx}"),
                    ));
                }
            }
            if let (Some(dr), Some(mn)) = (dr, mn) {
                if mn > dr {
                    errs.push(FieldError::invalid(
                        format!("{ip}.defaultRequest[{k}]"),
                        dr.to_string(),
                        format!("min value {mn} is greater than default request value {dr}"),
                    ));
                }
            }
            if let (Some(dr), Some(mx)) = (dr, mx) {
                if dr > mx {
                    errs.push(FieldError::invalid(
                        format!("{ip}.defaultRequest[{k}]"),
                        dr.to_string(),
                        format!("default request value {dr} is greater than max value {mx}"),
                    ));
                }
            }
            if let (Some(dr), Some(df)) = (dr, df) {
                if dr > df {
                    errs.push(FieldError::invalid(
                        format!("{ip}.defaultRequest[{k}]"),
                        dr.to_string(),
                        format!("default request value {dr} is greater than default limit value {df}"),
                    ));
                }
            }
            if let (Some(df), Some(mn)) = (df, mn) {
                if mn > df {
                    errs.push(FieldError::invalid(
                        format!("{ip}.default[{k}]"),
                        mn.to_string(),
                        format!("min value {mn} is greater than default value {df}"),
                    ));
                }
            }
            if let (Some(df), Some(mx)) = (df, mx) {
                if df > mx {
                    errs.push(FieldError::invalid(
                        format!("{ip}.default[{k}]"),
                        mx.to_string(),
                        format!("default value {df} is greater than max value {mx}"),
                    ));
                }
            }
            if let Some(r) = rt {
                if r < Quantity::from_units(1) {
                    errs.push(FieldError::invalid(
                        format!("{ip}.maxLimitRequestRatio[{k}]"),
                        r.to_string(),
                        format!("ratio {r} is less than 1"),
                    ));
                }
                if let (Some(mn), Some(mx)) = (mn, mx) {
                    if mn.milli() > 0 {
                        let limit = mx.milli() as f64 / mn.milli() as f64;
                        if r.milli() as f64 / 1000.0 > limit {
                            errs.push(FieldError::invalid(
                                format!("{ip}.maxLimitRequestRatio[{k}]"),
                                r.to_string(),
                                format!("ratio {r} is greater than max/min = {limit:.6}"),
                            ));
                        }
                    }
                }
            }
        }
    }
}

/// `ValidateResourceQuota` (spec only; status is the controller's).
pub fn resource_quota(rq: &ResourceQuota, errs: &mut Errs) {
    meta::object_meta(&rq.metadata, true, names::name_is_dns_subdomain, errs);
    let Some(spec) = &rq.spec else { return };
    for (k, v) in spec.hard.iter().flatten() {
        let p = format!("spec.hard[{k}]");
        resource_name(k, &p, errs);
        let quota_resource = k.contains('/') || STANDARD_QUOTA_RESOURCES.contains(&k.as_str()) || is_quota_hugepages(k);
        if !quota_resource {
            errs.push(FieldError::invalid(p.clone(), k.as_str(), "must be a standard resource for quota"));
        }
        quantity_value(k, v, &p, errs);
    }
    let scopes = spec.scopes.clone().unwrap_or_default();
    const SCOPES: [&str; 6] =
        ["Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity"];
    for s in &scopes {
        if !SCOPES.contains(&s.as_str()) {
            errs.push(FieldError::invalid("spec.scopes", json!(scopes), "unsupported scope"));
        }
    }
    let has = |a: &str| scopes.iter().any(|s| s == a);
    if (has("BestEffort") && has("NotBestEffort")) || (has("Terminating") && has("NotTerminating")) {
        errs.push(FieldError::invalid("spec.scopes", json!(scopes), "conflicting scopes"));
    }
}

/// `ValidatePersistentVolumeClaimSpec`.
pub fn pvc_spec(spec: &PersistentVolumeClaimSpec, p: &str, errs: &mut Errs) {
    let modes = spec.access_modes.clone().unwrap_or_default();
    if modes.is_empty() {
        errs.push(FieldError::required(format!("{p}.accessModes"), "at least 1 access mode is required"));
    }
    if let Some(sel) = &spec.selector {
        meta::label_selector(sel, &format!("{p}.selector"), errs);
    }
    const MODES: [&str; 4] = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];
    let (mut rwop, mut other) = (false, false);
    for m in &modes {
        if !MODES.contains(&m.as_str()) {
            errs.push(FieldError::not_supported(format!("{p}.accessModes"), m.as_str(), &MODES));
        }
        if m == "ReadWriteOncePod" {
            rwop = true;
        } else if MODES.contains(&m.as_str()) {
            other = true;
        }
    }
    if rwop && other {
        errs.push(FieldError::forbidden(
            format!("{p}.accessModes"),
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
    let sp = format!("{p}.resources[storage]");
    match spec.resources.as_ref().and_then(|r| r.requests.as_ref()).and_then(|r| r.get("storage")) {
        None => errs.push(FieldError::required(sp, "")),
        Some(q) => {
            if crate::decode::parse_quantity(&q.0).is_ok_and(|v| v <= Quantity::ZERO) {
                errs.push(FieldError::invalid(sp, quantity_text(q), "must be greater than zero"));
            } else {
                quantity_value("storage", q, &sp, errs);
            }
        }
    }
    if let Some(sc) = spec.storage_class_name.as_deref().filter(|s| !s.is_empty()) {
        for m in names::name_is_dns_subdomain(sc, false) {
            errs.push(FieldError::invalid(format!("{p}.storageClassName"), sc, m));
        }
    }
    if let Some(vm) = spec.volume_mode.as_deref() {
        if !matches!(vm, "Block" | "Filesystem") {
            errs.push(FieldError::not_supported(format!("{p}.volumeMode"), vm, &["Block", "Filesystem"]));
        }
    }
}

fn policy_rule(rule: &PolicyRule, namespaced: bool, p: &str, errs: &mut Errs) {
    if rule.verbs.is_empty() {
        errs.push(FieldError::required(format!("{p}.verbs"), "verbs must contain at least one value"));
    }
    let urls = rule.non_resource_urls.clone().unwrap_or_default();
    let groups = rule.api_groups.as_deref().unwrap_or_default();
    let resources = rule.resources.as_deref().unwrap_or_default();
    let resource_names = rule.resource_names.as_deref().unwrap_or_default();
    if !urls.is_empty() {
        if namespaced {
            errs.push(FieldError::invalid(
                format!("{p}.nonResourceURLs"),
                json!(urls),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        if !groups.is_empty() || !resources.is_empty() || !resource_names.is_empty() {
            errs.push(FieldError::invalid(
                format!("{p}.nonResourceURLs"),
                json!(urls),
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return;
    }
    if groups.is_empty() {
        errs.push(FieldError::required(format!("{p}.apiGroups"), "resource rules must supply at least one api group"));
    }
    if resources.is_empty() {
        errs.push(FieldError::required(format!("{p}.resources"), "resource rules must supply at least one resource"));
    }
    if !resource_names.is_empty() && resources.len() > 1 {
        errs.push(FieldError::required(
            format!("{p}.resourceNames"),
            "resource names cannot apply to multiple resources",
        ));
    }
}

/// `ValidateRole` / `ValidateClusterRole`.
pub fn role(
    metadata: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    rules: &[PolicyRule],
    namespaced: bool,
    errs: &mut Errs,
) {
    meta::object_meta(metadata, namespaced, names::path_segment_name, errs);
    for (i, r) in rules.iter().enumerate() {
        policy_rule(r, namespaced, &format!("rules[{i}]"), errs);
    }
}

/// `ValidateRoleBinding` / `ValidateClusterRoleBinding`.
pub fn role_binding(
    metadata: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    role_ref: &RoleRef,
    subjects: &[Subject],
    namespaced: bool,
    errs: &mut Errs,
) {
    const GROUP: &str = "rbac.authorization.k8s.io";
    meta::object_meta(metadata, namespaced, names::path_segment_name, errs);
    let api_group = role_ref.api_group.as_deref().unwrap_or_default();
    if api_group != GROUP {
        errs.push(FieldError::not_supported("roleRef.apiGroup", api_group, &[GROUP]));
    }
    let kinds: &[&str] = if namespaced { &["Role", "ClusterRole"] } else { &["ClusterRole"] };
    if !kinds.contains(&role_ref.kind.as_str()) {
        errs.push(FieldError::not_supported("roleRef.kind", role_ref.kind.as_str(), kinds));
    }
    if role_ref.name.is_empty() {
        errs.push(FieldError::required("roleRef.name", ""));
    } else {
        for m in names::path_segment_name(&role_ref.name, false) {
            errs.push(FieldError::invalid("roleRef.name", role_ref.name.as_str(), m));
        }
    }
    for (i, s) in subjects.iter().enumerate() {
        let p = format!("subjects[{i}]");
        if s.name.is_empty() {
            errs.push(FieldError::required(format!("{p}.name"), ""));
        }
        let group = s.api_group.as_deref().unwrap_or_default();
        match s.kind.as_str() {
            "ServiceAccount" => {
                if !s.name.is_empty() {
                    for m in names::name_is_dns_subdomain(&s.name, false) {
                        errs.push(FieldError::invalid(format!("{p}.name"), s.name.as_str(), m));
                    }
                }
                if !group.is_empty() {
                    errs.push(FieldError::not_supported(format!("{p}.apiGroup"), group, &[""]));
                }
                if !namespaced && s.namespace.as_deref().unwrap_or_default().is_empty() {
                    errs.push(FieldError::required(format!("{p}.namespace"), ""));
                }
            }
            "User" | "Group" => {
                if s.name.is_empty() {
                    let what = if s.kind == "User" { "user" } else { "group" };
                    errs.push(FieldError::invalid(format!("{p}.name"), "", format!("{what} name cannot be empty")));
                }
                if group != GROUP {
                    errs.push(FieldError::not_supported(format!("{p}.apiGroup"), group, &[GROUP]));
                }
            }
            other => {
                errs.push(FieldError::not_supported(format!("{p}.kind"), other, &["ServiceAccount", "User", "Group"]))
            }
        }
    }
}
