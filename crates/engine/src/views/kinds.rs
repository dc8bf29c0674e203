//! The API server's table printers for every other kind the lab stores
//! (`pkg/printers/internalversion/printers.go`, the column definitions of `AddHandlers` and
//! each `print*` function): Lease, StorageClass (` (default)` after the default class's
//! name), PriorityClass, ControllerRevision, Ingress, IngressClass, NetworkPolicy,
//! RuntimeClass, CSIDriver, PodTemplate, ReplicationController, the webhook configurations,
//! Namespace, ConfigMap, Secret, ServiceAccount, ResourceQuota and the role bindings; the
//! default table convertor (`NAME`, `CREATED AT` in RFC 3339) of the kinds without a printer
//! (Role, ClusterRole, LimitRange, CustomResourceDefinition); and the
//! `additionalPrinterColumns` of the VolumeSnapshot CRDs (external-snapshotter's
//! `client/config/crd`), as the custom resource table convertor fills them (a missing value
//! is an empty cell, a `date` an age).
//!
//! Printers read the object as JSON, as stored: defaults the API server would have filled
//! are applied where the printer itself falls back to them (a StorageClass's `Delete` and
//! `Immediate`, a CSIDriver's `attachRequired: true`).

use super::format::{format_labels, Clock};
use super::printers::format_label_selector;
use super::table::{col, wide, Column, GetOptions, Row};
use super::Snapshot;
use crate::object::{resource_for_kind, Object};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, Time};
use serde_json::Value;

/// A kind's columns and the function that fills a row's cells (every column, wide ones
/// included, in order) from the object and its JSON.
struct Printer {
    kind: &'static str,
    columns: &'static [Column],
    cells: fn(&Object, &Value, Clock) -> Vec<String>,
}

/// A JSON scalar as text (`""` for anything else).
pub(super) fn s(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

/// `fmt.Sprint` of a `*bool` the printer dereferences with a default.
fn bool_or(v: &Value, default: bool) -> String {
    v.as_bool().unwrap_or(default).to_string()
}

fn age(o: &Object, clock: Clock) -> String {
    clock.since(o.meta().creation_timestamp.as_ref())
}

fn name(o: &Object) -> String {
    o.name().to_string()
}

/// A JSON object of scalars as a map of texts.
pub(super) fn map_of(v: &Value) -> Option<std::collections::BTreeMap<String, String>> {
    v.as_object().map(|m| m.iter().map(|(k, v)| (k.clone(), s(v))).collect())
}

fn selector_of(v: &Value) -> LabelSelector {
    serde_json::from_value(v.clone()).unwrap_or_default()
}

/// `layoutContainerCells`: the containers' names and images, comma-separated.
fn containers(pod_spec: &Value) -> (String, String) {
    let list = pod_spec["containers"].as_array().cloned().unwrap_or_default();
    let names: Vec<String> = list.iter().map(|c| s(&c["name"])).collect();
    let images: Vec<String> = list.iter().map(|c| s(&c["image"])).collect();
    (names.join(","), images.join(","))
}

const LEASE_COLUMNS: &[Column] = &[col("Name"), col("Holder"), col("Age")];

fn lease(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    vec![name(o), s(&j["spec"]["holderIdentity"]), age(o, clock)]
}

const STORAGE_CLASS_COLUMNS: &[Column] = &[
    col("Name"),
    col("Provisioner"),
    col("ReclaimPolicy"),
    col("VolumeBindingMode"),
    col("AllowVolumeExpansion"),
    col("Age"),
];

/// `storageutil.IsDefaultAnnotation`: the GA or the beta annotation set to `true`.
pub(crate) fn is_default_class(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> bool {
    let annotations = meta.annotations.as_ref();
    ["storageclass.kubernetes.io/is-default-class", "storageclass.beta.kubernetes.io/is-default-class"]
        .iter()
        .any(|k| annotations.and_then(|a| a.get(*k)).is_some_and(|v| v == "true"))
}

fn storage_class(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    let mut n = name(o);
    if is_default_class(o.meta()) {
        n += " (default)";
    }
    vec![
        n,
        s(&j["provisioner"]),
        j["reclaimPolicy"].as_str().unwrap_or("Delete").to_string(),
        j["volumeBindingMode"].as_str().unwrap_or("Immediate").to_string(),
        bool_or(&j["allowVolumeExpansion"], false),
        age(o, clock),
    ]
}

const PRIORITY_CLASS_COLUMNS: &[Column] =
    &[col("Name"), col("Value"), col("Global-Default"), col("Age"), wide("PreemptionPolicy")];

fn priority_class(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    vec![
        name(o),
        j["value"].as_i64().unwrap_or(0).to_string(),
        bool_or(&j["globalDefault"], false),
        age(o, clock),
        s(&j["preemptionPolicy"]),
    ]
}

const CONTROLLER_REVISION_COLUMNS: &[Column] = &[col("Name"), col("Controller"), col("Revision"), col("Age")];

fn controller_revision(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    // `formatResourceName`: the lower-cased `Kind.group` of the controller, then its name.
    let controller = o
        .meta()
        .owner_references
        .iter()
        .flatten()
        .find(|r| r.controller == Some(true))
        .map(|r| {
            let group = r.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
            let kind = if group.is_empty() { r.kind.clone() } else { format!("{}.{group}", r.kind) };
            format!("{}/{}", kind.to_lowercase(), r.name)
        })
        .unwrap_or_else(|| "<none>".to_string());
    vec![name(o), controller, j["revision"].as_i64().unwrap_or(0).to_string(), age(o, clock)]
}

const INGRESS_COLUMNS: &[Column] = &[col("Name"), col("Class"), col("Hosts"), col("Address"), col("Ports"), col("Age")];

/// `formatHosts`: three hosts at most (rules without a host count but show nothing), `*`
/// when none shows.
fn ingress_hosts(rules: &[Value]) -> String {
    const MAX: usize = 3;
    let mut list: Vec<String> = Vec::new();
    let mut more = false;
    for rule in rules {
        if list.len() == MAX {
            more = true;
        }
        let host = s(&rule["host"]);
        if !more && !host.is_empty() {
            list.push(host);
        }
    }
    if list.is_empty() {
        return "*".to_string();
    }
    let ret = list.join(",");
    if more {
        format!("{ret} + {} more...", rules.len() - MAX)
    } else {
        ret
    }
}

/// `ingressLoadBalancerStatusStringer`: the sorted, de-duplicated IPs (or host names) of the
/// load balancer. The API server's table convertor generates wide rows, so the cell is
/// never clipped.
pub(crate) fn ingress_address(status: &Value) -> String {
    let mut set = std::collections::BTreeSet::new();
    for i in status["loadBalancer"]["ingress"].as_array().into_iter().flatten() {
        let ip = s(&i["ip"]);
        let host = s(&i["hostname"]);
        if !ip.is_empty() {
            set.insert(ip);
        } else if !host.is_empty() {
            set.insert(host);
        }
    }
    set.into_iter().collect::<Vec<_>>().join(",")
}

fn ingress(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    let spec = &j["spec"];
    let rules = spec["rules"].as_array().cloned().unwrap_or_default();
    let tls = spec["tls"].as_array().is_some_and(|t| !t.is_empty());
    vec![
        name(o),
        spec["ingressClassName"].as_str().unwrap_or("<none>").to_string(),
        ingress_hosts(&rules),
        ingress_address(&j["status"]),
        if tls { "80, 443" } else { "80" }.to_string(),
        age(o, clock),
    ]
}

const INGRESS_CLASS_COLUMNS: &[Column] = &[col("Name"), col("Controller"), col("Parameters"), col("Age")];

fn ingress_class(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    let p = &j["spec"]["parameters"];
    let parameters = if p.is_object() {
        let mut kind = s(&p["kind"]);
        if let Some(g) = p["apiGroup"].as_str() {
            kind = format!("{kind}.{g}");
        }
        format!("{kind}/{}", s(&p["name"]))
    } else {
        "<none>".to_string()
    };
    vec![name(o), s(&j["spec"]["controller"]), parameters, age(o, clock)]
}

const NETWORK_POLICY_COLUMNS: &[Column] = &[col("Name"), col("Pod-Selector"), col("Age")];

fn network_policy(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    let selector = selector_of(&j["spec"]["podSelector"]);
    vec![name(o), format_label_selector(Some(&selector)), age(o, clock)]
}

const RUNTIME_CLASS_COLUMNS: &[Column] = &[col("Name"), col("Handler"), col("Age")];

fn runtime_class(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    vec![name(o), s(&j["handler"]), age(o, clock)]
}

const CSI_DRIVER_COLUMNS: &[Column] = &[
    col("Name"),
    col("AttachRequired"),
    col("PodInfoOnMount"),
    col("StorageCapacity"),
    col("TokenRequests"),
    col("RequiresRepublish"),
    col("Modes"),
    col("Age"),
];

fn csi_driver(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    let spec = &j["spec"];
    let modes: Vec<String> = spec["volumeLifecycleModes"].as_array().into_iter().flatten().map(s).collect();
    let tokens = match spec["tokenRequests"].as_array() {
        Some(list) => list.iter().map(|t| s(&t["audience"])).collect::<Vec<_>>().join(","),
        None => "<unset>".to_string(),
    };
    vec![
        name(o),
        bool_or(&spec["attachRequired"], true),
        bool_or(&spec["podInfoOnMount"], false),
        bool_or(&spec["storageCapacity"], false),
        tokens,
        bool_or(&spec["requiresRepublish"], false),
        if modes.is_empty() { "<none>".to_string() } else { modes.join(",") },
        age(o, clock),
    ]
}

const POD_TEMPLATE_COLUMNS: &[Column] = &[col("Name"), col("Containers"), col("Images"), col("Pod Labels")];

fn pod_template(o: &Object, j: &Value, _clock: Clock) -> Vec<String> {
    let template = &j["template"];
    let (names, images) = containers(&template["spec"]);
    vec![name(o), names, images, format_labels(map_of(&template["metadata"]["labels"]).as_ref())]
}

const REPLICATION_CONTROLLER_COLUMNS: &[Column] = &[
    col("Name"),
    col("Desired"),
    col("Current"),
    col("Ready"),
    col("Age"),
    wide("Containers"),
    wide("Images"),
    wide("Selector"),
];

fn replication_controller(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    let (names, images) = containers(&j["spec"]["template"]["spec"]);
    vec![
        name(o),
        j["spec"]["replicas"].as_i64().unwrap_or(1).to_string(),
        j["status"]["replicas"].as_i64().unwrap_or(0).to_string(),
        j["status"]["readyReplicas"].as_i64().unwrap_or(0).to_string(),
        age(o, clock),
        names,
        images,
        format_labels(map_of(&j["spec"]["selector"]).as_ref()),
    ]
}

const WEBHOOK_COLUMNS: &[Column] = &[col("Name"), col("Webhooks"), col("Age")];

fn webhook_configuration(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    vec![name(o), j["webhooks"].as_array().map_or(0, Vec::len).to_string(), age(o, clock)]
}

const NAMESPACE_COLUMNS: &[Column] = &[col("Name"), col("Status"), col("Age")];

fn namespace(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    vec![name(o), s(&j["status"]["phase"]), age(o, clock)]
}

const CONFIG_MAP_COLUMNS: &[Column] = &[col("Name"), col("Data"), col("Age")];

fn config_map(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    let count = |k: &str| j[k].as_object().map_or(0, |m| m.len());
    vec![name(o), (count("data") + count("binaryData")).to_string(), age(o, clock)]
}

const SECRET_COLUMNS: &[Column] = &[col("Name"), col("Type"), col("Data"), col("Age")];

fn secret(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    // The API server folds `stringData` into `data` on write: count the keys of both.
    let mut keys: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for field in ["data", "stringData"] {
        keys.extend(j[field].as_object().into_iter().flatten().map(|(k, _)| k.as_str()));
    }
    vec![name(o), s(&j["type"]), keys.len().to_string(), age(o, clock)]
}

const SERVICE_ACCOUNT_COLUMNS: &[Column] = &[col("Name"), col("Secrets"), col("Age")];

fn service_account(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    vec![name(o), j["secrets"].as_array().map_or(0, Vec::len).to_string(), age(o, clock)]
}

const RESOURCE_QUOTA_COLUMNS: &[Column] = &[col("Name"), col("Request"), col("Limit"), col("Age")];

/// `printResourceQuota`: `resource: used/hard` for each resource of `status.hard` in name
/// order, the `limits.*` ones in the LIMIT column.
fn resource_quota(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    let hard = j["status"]["hard"].as_object().cloned().unwrap_or_default();
    let used = &j["status"]["used"];
    let mut request: Vec<String> = Vec::new();
    let mut limit: Vec<String> = Vec::new();
    for (resource, h) in &hard {
        let canonical = |v: &Value| {
            let text = s(v);
            crate::quantity::Quantity::parse(&text).map(|q| q.to_string()).unwrap_or(if text.is_empty() {
                "0".to_string()
            } else {
                text
            })
        };
        let cell = format!("{resource}: {}/{}", canonical(&used[resource.as_str()]), canonical(h));
        let parts: Vec<&str> = resource.split('.').collect();
        if parts.len() > 1 && parts[0] == "limits" {
            limit.push(cell);
        } else {
            request.push(cell);
        }
    }
    vec![name(o), request.join(", "), limit.join(", "), age(o, clock)]
}

const ROLE_BINDING_COLUMNS: &[Column] =
    &[col("Name"), col("Role"), col("Age"), wide("Users"), wide("Groups"), wide("ServiceAccounts")];

/// `printRoleBinding`/`printClusterRoleBinding` with `rbac.SubjectsStrings`.
fn role_binding(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    let (mut users, mut groups, mut sas) = (Vec::new(), Vec::new(), Vec::new());
    for subject in j["subjects"].as_array().into_iter().flatten() {
        match subject["kind"].as_str().unwrap_or("") {
            "ServiceAccount" => sas.push(format!("{}/{}", s(&subject["namespace"]), s(&subject["name"]))),
            "User" => users.push(s(&subject["name"])),
            "Group" => groups.push(s(&subject["name"])),
            _ => {}
        }
    }
    vec![
        name(o),
        format!("{}/{}", s(&j["roleRef"]["kind"]), s(&j["roleRef"]["name"])),
        age(o, clock),
        users.join(", "),
        groups.join(", "),
        sas.join(", "),
    ]
}

/// The API server's default table convertor, for kinds without a printer.
const DEFAULT_COLUMNS: &[Column] = &[col("Name"), col("Created At")];

fn default_table(o: &Object, _j: &Value, _clock: Clock) -> Vec<String> {
    let created = o.meta().creation_timestamp.as_ref().map(|t| t.0.to_string()).unwrap_or_default();
    vec![name(o), created]
}

/// A custom resource's `date` column: the age of the time it holds.
fn date_cell(v: &Value, clock: Clock) -> String {
    match v.as_str() {
        None => String::new(),
        Some(text) => match text.parse::<k8s_openapi::jiff::Timestamp>() {
            Ok(t) => clock.since(Some(&Time(t))),
            Err(_) => "<invalid>".to_string(),
        },
    }
}

const VOLUME_SNAPSHOT_COLUMNS: &[Column] = &[
    col("Name"),
    col("ReadyToUse"),
    col("SourcePVC"),
    col("SourceSnapshotContent"),
    col("RestoreSize"),
    col("SnapshotClass"),
    col("SnapshotContent"),
    col("CreationTime"),
    col("Age"),
];

fn volume_snapshot(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    vec![
        name(o),
        s(&j["status"]["readyToUse"]),
        s(&j["spec"]["source"]["persistentVolumeClaimName"]),
        s(&j["spec"]["source"]["volumeSnapshotContentName"]),
        s(&j["status"]["restoreSize"]),
        s(&j["spec"]["volumeSnapshotClassName"]),
        s(&j["status"]["boundVolumeSnapshotContentName"]),
        date_cell(&j["status"]["creationTime"], clock),
        age(o, clock),
    ]
}

const VOLUME_SNAPSHOT_CLASS_COLUMNS: &[Column] = &[col("Name"), col("Driver"), col("DeletionPolicy"), col("Age")];

fn volume_snapshot_class(o: &Object, j: &Value, clock: Clock) -> Vec<String> {
    vec![name(o), s(&j["driver"]), s(&j["deletionPolicy"]), age(o, clock)]
}

const PRINTERS: &[Printer] = &[
    Printer { kind: "Lease", columns: LEASE_COLUMNS, cells: lease },
    Printer { kind: "StorageClass", columns: STORAGE_CLASS_COLUMNS, cells: storage_class },
    Printer { kind: "PriorityClass", columns: PRIORITY_CLASS_COLUMNS, cells: priority_class },
    Printer { kind: "ControllerRevision", columns: CONTROLLER_REVISION_COLUMNS, cells: controller_revision },
    Printer { kind: "Ingress", columns: INGRESS_COLUMNS, cells: ingress },
    Printer { kind: "IngressClass", columns: INGRESS_CLASS_COLUMNS, cells: ingress_class },
    Printer { kind: "NetworkPolicy", columns: NETWORK_POLICY_COLUMNS, cells: network_policy },
    Printer { kind: "RuntimeClass", columns: RUNTIME_CLASS_COLUMNS, cells: runtime_class },
    Printer { kind: "CSIDriver", columns: CSI_DRIVER_COLUMNS, cells: csi_driver },
    Printer { kind: "PodTemplate", columns: POD_TEMPLATE_COLUMNS, cells: pod_template },
    Printer { kind: "ReplicationController", columns: REPLICATION_CONTROLLER_COLUMNS, cells: replication_controller },
    Printer { kind: "MutatingWebhookConfiguration", columns: WEBHOOK_COLUMNS, cells: webhook_configuration },
    Printer { kind: "ValidatingWebhookConfiguration", columns: WEBHOOK_COLUMNS, cells: webhook_configuration },
    Printer { kind: "Namespace", columns: NAMESPACE_COLUMNS, cells: namespace },
    Printer { kind: "ConfigMap", columns: CONFIG_MAP_COLUMNS, cells: config_map },
    Printer { kind: "Secret", columns: SECRET_COLUMNS, cells: secret },
    Printer { kind: "ServiceAccount", columns: SERVICE_ACCOUNT_COLUMNS, cells: service_account },
    Printer { kind: "ResourceQuota", columns: RESOURCE_QUOTA_COLUMNS, cells: resource_quota },
    Printer { kind: "RoleBinding", columns: ROLE_BINDING_COLUMNS, cells: role_binding },
    Printer { kind: "ClusterRoleBinding", columns: ROLE_BINDING_COLUMNS, cells: role_binding },
    Printer { kind: "Role", columns: DEFAULT_COLUMNS, cells: default_table },
    Printer { kind: "ClusterRole", columns: DEFAULT_COLUMNS, cells: default_table },
    Printer { kind: "LimitRange", columns: DEFAULT_COLUMNS, cells: default_table },
    Printer { kind: "CustomResourceDefinition", columns: DEFAULT_COLUMNS, cells: default_table },
    Printer { kind: "VolumeSnapshot", columns: VOLUME_SNAPSHOT_COLUMNS, cells: volume_snapshot },
    Printer { kind: "VolumeSnapshotClass", columns: VOLUME_SNAPSHOT_CLASS_COLUMNS, cells: volume_snapshot_class },
];

/// The kinds this module prints.
pub const KINDS: &[&str] = &[
    "Lease",
    "StorageClass",
    "PriorityClass",
    "ControllerRevision",
    "Ingress",
    "IngressClass",
    "NetworkPolicy",
    "RuntimeClass",
    "CSIDriver",
    "PodTemplate",
    "ReplicationController",
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
    "Namespace",
    "ConfigMap",
    "Secret",
    "ServiceAccount",
    "ResourceQuota",
    "RoleBinding",
    "ClusterRoleBinding",
    "Role",
    "ClusterRole",
    "LimitRange",
    "CustomResourceDefinition",
    "VolumeSnapshot",
    "VolumeSnapshotClass",
];

/// The row of one object of a kind this module prints, with its columns. A StorageClass is
/// marked ` (default)` by its annotation here; `kubectl get storageclasses` marks only the
/// effective default ([`effective_default_class`]).
pub fn kind_row(obj: &Object, clock: Clock) -> Option<(&'static [Column], Row)> {
    let printer = PRINTERS.iter().find(|p| p.kind == obj.kind())?;
    let json = obj.to_json();
    let cells = (printer.cells)(obj, &json, clock);
    Some((printer.columns, Row { namespace: obj.namespace().unwrap_or("").to_string(), cells }))
}

impl Snapshot<'_> {
    /// `kubectl get` of a kind this module prints; `None` for another kind.
    pub fn get_kind(&self, kind: &str, namespace: &str, opts: GetOptions) -> Option<String> {
        let printer = PRINTERS.iter().find(|p| p.kind == kind)?;
        resource_for_kind(kind)?;
        let effective_default = if kind == "StorageClass" { self.effective_default_class() } else { None };
        let rows = self
            .list(kind, Self::scope(namespace, opts))
            .into_iter()
            .filter_map(|o| {
                let (_, mut row) = kind_row(o, self.clock)?;
                if kind == "StorageClass" {
                    row.cells[0] = o.name().to_string();
                    if effective_default.as_deref() == Some(o.name()) {
                        row.cells[0] += " (default)";
                    }
                }
                Some(row)
            })
            .collect();
        Some(self.render(kind, printer.columns, rows, namespace, opts))
    }

    /// The StorageClass the API server's StorageClass table convertor marks ` (default)`:
    /// of every class annotated as the default, the newest (the first by name among equals).
    pub fn effective_default_class(&self) -> Option<String> {
        let all = Snapshot { pick: None, ..*self };
        let mut defaults: Vec<&Object> =
            all.list("StorageClass", None).into_iter().filter(|o| is_default_class(o.meta())).collect();
        crate::sort::sort_by_key(&mut defaults, |o| {
            let created = o.meta().creation_timestamp.as_ref().map(|t| t.0.as_nanosecond()).unwrap_or(0);
            (std::cmp::Reverse(created), o.name().to_string())
        });
        defaults.first().map(|o| o.name().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_printer() {
        for k in KINDS {
            assert_eq!(PRINTERS.iter().filter(|p| p.kind == *k).count(), 1, "{k}");
        }
        assert_eq!(PRINTERS.len(), KINDS.len());
        for r in crate::object::RESOURCES {
            assert!(crate::views::has_table_printer(r.kind), "{} has no table printer", r.kind);
        }
    }

    #[test]
    fn hosts_and_addresses() {
        let rules: Vec<Value> = serde_json::from_str(
            r#"[{"host":"a.example"},{"http":{}},{"host":"b.example"},{"host":"c.example"},{"host":"d.example"}]"#,
        )
        .unwrap();
        assert_eq!(ingress_hosts(&rules), "a.example,b.example,c.example + 2 more...");
        assert_eq!(ingress_hosts(&rules[1..2]), "*");
        let status: Value =
            serde_json::from_str(r#"{"loadBalancer":{"ingress":[{"ip":"172.18.0.5"},{"hostname":"lb.example.com"}]}}"#)
                .unwrap();
        assert_eq!(ingress_address(&status), "172.18.0.5,lb.example.com");
    }
}
