//! The starting state of a run: what the cluster holds before the learner's `kubectl apply`.
//!
//! A cluster is described by a multi-document YAML file of Kubernetes objects (Nodes,
//! Namespaces with Pod Security labels, RBAC, LimitRanges, ResourceQuotas, Services,
//! PriorityClasses, existing Pods, webhook configurations, ...) plus at most one document of the
//! lab's own kind, [`LabSettings`] (`apiVersion: podlab.dev/v1alpha1`, `kind: LabSettings`), for
//! what is not a Kubernetes object: the users and their credentials, whom kubectl acts as by
//! default, simulated webhook servers, node faults, the image registry's contents.
//!
//! Loading ([`load`]) writes, directly into the etcd model and without trace steps (the setup is
//! "before the learner pressed apply"; the first step of a run is kubectl's first request):
//!
//! 1. what every real cluster has, whatever the file says ([`base_objects`]): the namespaces
//!    `default`, `kube-system`, `kube-public`, `kube-node-lease`, each with its `default`
//!    ServiceAccount and `kube-root-ca.crt` ConfigMap; the `kubernetes` Service and its
//!    EndpointSlice; the PriorityClasses `system-cluster-critical` and `system-node-critical`; the
//!    bootstrap RBAC policy ([`crate::apiserver::bootstrap`]); and a ServiceAccount in kube-system
//!    for each controller (kube-controller-manager runs with `--use-service-account-credentials`,
//!    as kubeadm configures it);
//! 2. the file's objects, in order. `LabSettings.extends: <preset>` loads a preset first. A
//!    document naming an object that already exists (from the base, the extended preset or an
//!    earlier document) is merged into it as a JSON merge patch, so a preset can resize a node
//!    with a few lines. Every namespace then has its `default` ServiceAccount and
//!    `kube-root-ca.crt` ConfigMap, as the controllers would have given it;
//! 3. the settings ([`base_settings`]: the user `kubernetes-admin` in `system:masters`, kubectl's
//!    default; then the file's `LabSettings`), at the key [`SETTINGS_KEY`] outside `/registry/` (no view of etcd shows it:
//!    it is configuration of the lab, as kube-apiserver's flags and files are configuration of a
//!    real cluster).
//!
//! Every stored object gets a uid, `creationTimestamp` at the lab's epoch, `generation: 1` for
//! kinds that track it, and its namespace (`default` when absent); `resourceVersion` is never
//! stored (it is the key's revision when read). Objects are stored as the file gives them (no
//! defaulting or validation: the file describes a running cluster, which is the author's
//! responsibility). The PEM text of `kube-root-ca.crt` is a placeholder.
//!
//! The built-in default cluster ([`DEFAULT_CLUSTER`], preset `kind`) is three kind nodes:
//! `kind-control-plane` (tainted `node-role.kubernetes.io/control-plane:NoSchedule`),
//! `kind-worker` and `kind-worker2`, 4 CPUs and ~7.75 GiB each (kind reserves nothing, so
//! allocatable equals capacity), podCIDRs `10.244.{0,1,2}.0/24`, and the user
//! `kubernetes-admin` with a client certificate in `system:masters`. (kubeadm >= 1.29 gives
//! `admin.conf` the group `kubeadm:cluster-admins`, bound to `cluster-admin`, and keeps
//! `system:masters` for `super-admin.conf`; the lab uses the superuser group so the learner
//! meets the authorizer's shortcut. The `kubeadm:cluster-admins` binding exists too.)
//! It also has what kind installs for storage: the namespace `local-path-storage` with the
//! local-path provisioner's ServiceAccount and RBAC, and the default StorageClass `standard`
//! (provisioner `rancher.io/local-path`, `WaitForFirstConsumer`, reclaim policy `Delete`); the
//! lab runs that provisioner ([`crate::controllers::localpath`]).
//! The control-plane and DaemonSet pods a kind cluster runs (etcd, kube-apiserver, coredns,
//! kindnet, kube-proxy, the local-path-provisioner's own Pod, ...) are not modelled as Pods.

use crate::apiserver::{self, bootstrap};
use crate::manifest::parse_manifest;
use crate::object::{resource_for, Object, Unstructured};
use crate::rng::Rng;
use crate::sim::Core;
use crate::store::Store;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The API version and kind of the lab's settings document.
pub const SETTINGS_API_VERSION: &str = "podlab.dev/v1alpha1";
pub const SETTINGS_KIND: &str = "LabSettings";
/// Where the settings are kept in the etcd model (outside `/registry/`).
pub const SETTINGS_KEY: &str = "/podlab/settings";

/// The built-in default cluster (preset `kind`).
pub const DEFAULT_CLUSTER: &str = include_str!("clusters/kind.yaml");

/// The named cluster files that ship with the engine.
pub const PRESETS: &[(&str, &str)] = &[
    ("kind", DEFAULT_CLUSTER),
    ("restricted-namespace", include_str!("clusters/restricted-namespace.yaml")),
    ("rbac-alice", include_str!("clusters/rbac-alice.yaml")),
    ("tight-resources", include_str!("clusters/tight-resources.yaml")),
    ("gpu", include_str!("clusters/gpu.yaml")),
    ("tainted-pool", include_str!("clusters/tainted-pool.yaml")),
    ("full", include_str!("clusters/full.yaml")),
];

/// A preset's YAML by name.
pub fn preset(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, y)| *y)
}

/// The client certificate of a user (x509: CN is the user name, O the groups).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClientCertificate {
    /// Defaults to the user's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub common_name: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub organizations: Vec<String>,
}

/// A service account whose token a user holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ServiceAccountRef {
    pub namespace: String,
    pub name: String,
}

/// A kubeconfig user: a name and one credential. With a `token`, the user is also an entry of
/// kube-apiserver's static token file (`token,user,uid,"group1,group2"`). A user with no
/// credential at all talks to the API server anonymously.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LabUser {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_certificate: Option<ClientCertificate>,
    /// A static bearer token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The uid of a static-token user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    /// The groups of a static-token user.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account: Option<ServiceAccountRef>,
    /// The credential is not accepted any more (an expired or revoked token, a certificate
    /// from another CA): every request of this user is refused with 401.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub revoked: bool,
}

/// An image of the lab's own in the simulated registry (for the kubelet's image pulls, its
/// `Registry::add`); fields the kubelet model defines beyond these are kept in `extra`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegistryImage {
    /// The image reference as pods name it (`registry.example.com/shop/api:1.4`).
    pub image: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entrypoint: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cmd: Vec<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The lab's own settings document.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LabSettings {
    /// Kept for the document's header (`apiVersion`, `kind`); not used.
    #[serde(default, rename = "apiVersion", skip_serializing)]
    pub api_version: Option<String>,
    #[serde(default, skip_serializing)]
    pub kind: Option<String>,
    #[serde(default, skip_serializing)]
    pub metadata: Option<Value>,
    /// A preset to load before this file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
    #[serde(default)]
    pub users: Vec<LabUser>,
    /// The user kubectl acts as unless told otherwise (kubeconfig's current context).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_user: Option<String>,
    /// kubectl's context namespace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// kube-apiserver `--anonymous-auth` (kubeadm leaves it on: true when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anonymous_auth: Option<bool>,
    /// The simulated servers behind the cluster's admission webhooks, one entry per webhook
    /// (read by [`crate::admission::SimulatedWebhook::from_value`]: `name` plus either the
    /// generic fields `allowed`, `message`, `code`, `patch`, `warnings`, `latencyMs`, `error`, or
    /// one ready-made behaviour such as `injectSidecar`, `denyImages`, `addLabels`, `deny`,
    /// `down`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub webhooks: Vec<Value>,
    /// Faults of each node's kubelet, runtime and CNI plugin, by node name, as the kubelet
    /// model reads them (its `NodeFaults`: `notReadyAt`, `cni`, `diskPressure`,
    /// `registryDown`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_faults: BTreeMap<String, Value>,
    /// Images the simulated registry serves, beyond the kubelet model's own catalogue.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub registry: Vec<RegistryImage>,
}

impl LabSettings {
    pub fn user(&self, name: &str) -> Option<&LabUser> {
        self.users.iter().find(|u| u.name == name)
    }

    /// Whether kube-apiserver accepts requests without credentials.
    pub fn anonymous_enabled(&self) -> bool {
        self.anonymous_auth.unwrap_or(true)
    }

    /// kubectl's namespace for objects without one.
    pub fn context_namespace(&self) -> &str {
        self.namespace.as_deref().unwrap_or("default")
    }

    /// Layers `later` over `self`: users with the same name are replaced, others added; set
    /// scalars win; lists are appended.
    fn merge(&mut self, later: LabSettings) {
        for u in later.users {
            match self.users.iter_mut().find(|x| x.name == u.name) {
                Some(x) => *x = u,
                None => self.users.push(u),
            }
        }
        if later.current_user.is_some() {
            self.current_user = later.current_user;
        }
        if later.namespace.is_some() {
            self.namespace = later.namespace;
        }
        if later.anonymous_auth.is_some() {
            self.anonymous_auth = later.anonymous_auth;
        }
        self.webhooks.extend(later.webhooks);
        self.node_faults.extend(later.node_faults);
        self.registry.extend(later.registry);
    }
}

/// Reads the settings stored by [`load`] (defaults if there are none).
pub fn settings(store: &Store<Object>) -> LabSettings {
    match store.get(SETTINGS_KEY) {
        Some((Object::Other(u), _)) => crate::decode::from_value(&Value::Object(u.rest.clone())).unwrap_or_default(),
        _ => LabSettings::default(),
    }
}

/// A problem with a cluster file (the lab author's, not the learner's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusterError {
    /// The preset or `cluster file`.
    pub source: String,
    /// 1-based line of the document, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for ClusterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}: line {l}: {}", self.source, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

/// Kinds whose strategy sets `metadata.generation` (1 on create, +1 on each spec change).
pub fn tracks_generation(kind: &str) -> bool {
    matches!(
        kind,
        "Pod"
            | "Deployment"
            | "ReplicaSet"
            | "StatefulSet"
            | "DaemonSet"
            | "Job"
            | "CronJob"
            | "ReplicationController"
            | "PodDisruptionBudget"
            | "NetworkPolicy"
            | "Ingress"
            | "MutatingWebhookConfiguration"
            | "ValidatingWebhookConfiguration"
            | "CustomResourceDefinition"
    )
}

fn cm_with_ca(namespace: &str) -> Value {
    use crate::controllers::rootcacert::{CLUSTER_CA_PEM, DESCRIPTION};
    // As root-ca-cert-publisher writes it (it restores this data when it lists the cluster).
    json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "kube-root-ca.crt", "namespace": namespace,
            "annotations": {"kubernetes.io/description": DESCRIPTION}},
        "data": {"ca.crt": CLUSTER_CA_PEM}
    })
}

/// What every cluster has, as JSON documents in creation order.
pub fn base_objects() -> Vec<Value> {
    let mut out = Vec::new();
    for ns in ["default", "kube-system", "kube-public", "kube-node-lease"] {
        out.push(json!({
            "apiVersion": "v1", "kind": "Namespace",
            "metadata": {"name": ns, "labels": {"kubernetes.io/metadata.name": ns}},
            "spec": {"finalizers": ["kubernetes"]},
            "status": {"phase": "Active"}
        }));
    }
    for ns in ["default", "kube-system", "kube-public", "kube-node-lease"] {
        out.push(
            json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default", "namespace": ns}}),
        );
        out.push(cm_with_ca(ns));
    }
    for c in bootstrap::controller_names() {
        out.push(
            json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": c, "namespace": "kube-system"}}),
        );
    }
    out.push(json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "kubernetes", "namespace": "default", "labels": {"component": "apiserver", "provider": "kubernetes"}},
        "spec": {
            "clusterIP": "10.96.0.1", "clusterIPs": ["10.96.0.1"],
            "internalTrafficPolicy": "Cluster", "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack",
            "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": 6443}],
            "sessionAffinity": "None", "type": "ClusterIP"
        },
        "status": {"loadBalancer": {}}
    }));
    out.push(json!({
        "apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
        "metadata": {"name": "kubernetes", "namespace": "default", "labels": {"kubernetes.io/service-name": "kubernetes"}},
        "addressType": "IPv4",
        "endpoints": [{"addresses": ["172.18.0.2"], "conditions": {"ready": true}}],
        "ports": [{"name": "https", "port": 6443, "protocol": "TCP"}]
    }));
    out.push(json!({
        "apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
        "metadata": {"name": "system-node-critical"},
        "value": 2000001000, "globalDefault": false, "preemptionPolicy": "PreemptLowerPriority",
        "description": "Used for system critical pods that must not be moved from their current node."
    }));
    out.push(json!({
        "apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
        "metadata": {"name": "system-cluster-critical"},
        "value": 2000000000, "globalDefault": false, "preemptionPolicy": "PreemptLowerPriority",
        "description": "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."
    }));
    out
}

/// The settings every cluster starts from: the kubeadm admin user (a client certificate in
/// `system:masters`), whom kubectl acts as unless the file says otherwise.
pub fn base_settings() -> LabSettings {
    LabSettings {
        users: vec![LabUser {
            name: "kubernetes-admin".into(),
            client_certificate: Some(ClientCertificate {
                common_name: Some("kubernetes-admin".into()),
                organizations: vec!["system:masters".into()],
            }),
            ..LabUser::default()
        }],
        current_user: Some("kubernetes-admin".into()),
        ..LabSettings::default()
    }
}

/// One document to load, with where it came from.
#[derive(Clone)]
struct Doc {
    source: String,
    line: Option<usize>,
    value: Value,
}

fn collect(
    source: &str,
    text: &str,
    depth: usize,
    docs: &mut Vec<Doc>,
    settings: &mut LabSettings,
) -> Result<(), ClusterError> {
    let err = |line: Option<usize>, message: String| ClusterError { source: source.to_string(), line, message };
    if depth > 4 {
        return Err(err(None, "presets extend each other too deeply".into()));
    }
    let parsed = parse_manifest(text);
    if let Some(e) = &parsed.error {
        return Err(err(e.line, e.message.clone()));
    }
    // The settings document first, so `extends` is loaded before this file's objects.
    let mut own = LabSettings::default();
    let mut seen_settings = false;
    for d in &parsed.documents {
        if d.kind == SETTINGS_KIND {
            if d.api_version != SETTINGS_API_VERSION {
                return Err(err(Some(d.line), format!("{SETTINGS_KIND} must have apiVersion {SETTINGS_API_VERSION}")));
            }
            if seen_settings {
                return Err(err(Some(d.line), format!("more than one {SETTINGS_KIND} document")));
            }
            seen_settings = true;
            own = serde_yaml::from_value(d.value.clone()).map_err(|e| err(Some(d.line), e.to_string()))?;
        }
    }
    if let Some(base) = own.extends.clone() {
        let Some(text) = preset(&base) else {
            return Err(err(None, format!("unknown preset \"{base}\" in extends")));
        };
        collect(&format!("preset {base}"), text, depth + 1, docs, settings)?;
    }
    settings.merge(own);
    for d in parsed.documents {
        if d.kind == SETTINGS_KIND {
            continue;
        }
        if resource_for(&d.api_version, &d.kind).is_none() {
            return Err(err(Some(d.line), format!("unknown kind \"{}\" in version \"{}\"", d.kind, d.api_version)));
        }
        if d.name.is_none() {
            return Err(err(Some(d.line), format!("{} without metadata.name", d.kind)));
        }
        let value = serde_json::to_value(&d.value).map_err(|e| err(Some(d.line), e.to_string()))?;
        docs.push(Doc { source: source.to_string(), line: Some(d.line), value });
    }
    Ok(())
}

/// RFC 7386 JSON merge patch.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    match patch {
        Value::Object(p) => {
            if !target.is_object() {
                *target = Value::Object(Map::new());
            }
            if let Value::Object(t) = target {
                for (k, v) in p {
                    if v.is_null() {
                        t.remove(k);
                    } else {
                        merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
                    }
                }
            }
        }
        other => *target = other.clone(),
    }
}

/// Writes one object of the starting state: fills the system metadata and stores it, or
/// merges it into the object already stored under its key.
fn put(core: &mut Core, source: &str, line: Option<usize>, value: Value) -> Result<(), ClusterError> {
    put_prepared(core, source, line, &prepare(value))
}

/// The etcd key of a document of the starting state, and the document with the namespace a
/// namespaced object without one gets (`default`).
fn keyed(mut value: Value) -> Result<(String, Value), String> {
    let api_version = value.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
    let Some(resource) = resource_for(api_version, kind) else {
        return Err(format!("unknown kind \"{kind}\" in version \"{api_version}\""));
    };
    let meta_str = |field: &str| value.get("metadata").and_then(|m| m.get(field)).and_then(Value::as_str);
    let name = meta_str("name").unwrap_or("").to_string();
    let mut namespace = meta_str("namespace").map(str::to_string);
    if resource.namespaced && namespace.is_none() {
        namespace = Some("default".to_string());
        if let Some(m) = value.get_mut("metadata").and_then(Value::as_object_mut) {
            m.insert("namespace".into(), "default".into());
        }
    }
    let key = resource.etcd_key(if resource.namespaced { namespace.as_deref() } else { None }, &name);
    Ok((key, value))
}

/// A document whose key is taken already is merged into the stored object (a merge patch).
fn merge_into(core: &mut Core, key: &str, value: &Value) -> Result<(), String> {
    let api_version = value.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
    let Some((existing, _)) = core.store.get(key) else { return Err(format!("{key} is not stored")) };
    let mut merged = existing.to_json();
    merge_patch(&mut merged, value);
    let mut obj = Object::from_json(api_version, kind, merged).map_err(|e| e.to_string())?;
    apiserver::hooks::convert(&mut obj);
    core.store.update(key, obj, None).map_err(|e| format!("{e:?}"))?;
    Ok(())
}

/// A document for a free key as it is stored, but for what every load sets itself (its
/// uid and creationTimestamp: see [`create`]).
fn decode_new(value: Value) -> Result<Object, String> {
    let api_version = value.get("apiVersion").and_then(Value::as_str).unwrap_or("").to_string();
    let kind = value.get("kind").and_then(Value::as_str).unwrap_or("").to_string();
    let mut obj = Object::from_json(&api_version, &kind, value).map_err(|e| e.to_string())?;
    // Stored as the API server stores it: a Secret's stringData already merged into data.
    apiserver::hooks::convert(&mut obj);
    let namespaced = obj.resource().is_some_and(|r| r.namespaced);
    if let Object::Namespace(ns) = &mut obj {
        // kube-apiserver labels every namespace with its own name on create (the label that
        // namespaceSelectors such as a webhook's match on).
        let name = ns.metadata.name.clone().unwrap_or_default();
        std::sync::Arc::make_mut(ns)
            .metadata
            .labels
            .get_or_insert_with(Default::default)
            .insert("kubernetes.io/metadata.name".into(), name);
    }
    let meta = obj.meta_mut();
    meta.resource_version = None;
    // A namespaced document has its namespace already (see `keyed`).
    if !namespaced {
        meta.namespace = None;
    }
    if tracks_generation(&kind) && meta.generation.is_none() {
        meta.generation = Some(1);
    }
    // A Pod of the starting state without a status was created through the API server like
    // any other: defaulted, and given the status every new Pod gets, so that it shows
    // `Pending` until the scheduler and a kubelet take it on.
    if matches!(&obj, Object::Pod(p) if p.status.is_none()) {
        crate::defaults::apply_defaults_unlisted(&mut obj);
        if let Object::Pod(p) = &mut obj {
            let pod = std::sync::Arc::make_mut(p);
            pod.status = Some(apiserver::strategy::new_pod_status(pod));
        }
    }
    Ok(obj)
}

/// Stores an object of the starting state under a free key with a fresh uid and the load's
/// time as its creationTimestamp.
fn create(core: &mut Core, key: &str, mut obj: Object) -> Result<(), String> {
    let uid = core.rng.uuid();
    let meta = obj.meta_mut();
    meta.uid = Some(uid);
    meta.creation_timestamp = Some(apiserver::timestamp(core.now));
    core.store.create(key, obj).map_err(|e| format!("{e:?}"))?;
    Ok(())
}

/// Documents of the starting state that are the same on every load (the base objects, the
/// default cluster's), keyed and decoded once per process: a load stores each decoded
/// object when its key is free and merges the document as [`put`] does otherwise.
struct Prepared {
    key: String,
    /// The document with its namespace (see [`keyed`]), for a merge.
    value: Value,
    object: Result<Object, String>,
}

fn prepare(value: Value) -> Result<Prepared, String> {
    let (key, value) = keyed(value)?;
    let object = decode_new(value.clone());
    Ok(Prepared { key, value, object })
}

/// [`put`] of a prepared document (a document that could not be keyed is an error here).
fn put_prepared(
    core: &mut Core,
    source: &str,
    line: Option<usize>,
    p: &Result<Prepared, String>,
) -> Result<(), ClusterError> {
    let err = |message: String| ClusterError { source: source.to_string(), line, message };
    let p = p.as_ref().map_err(|e| err(e.clone()))?;
    if core.store.get(&p.key).is_some() {
        return merge_into(core, &p.key, &p.value).map_err(err);
    }
    let obj = p.object.clone().map_err(err)?;
    create(core, &p.key, obj).map_err(err)
}

/// [`base_objects`], prepared once per process.
fn prepared_base_objects() -> &'static [Result<Prepared, String>] {
    static BASE: OnceLock<Vec<Result<Prepared, String>>> = OnceLock::new();
    BASE.get_or_init(|| base_objects().into_iter().map(prepare).collect())
}

/// Stores a typed object of the starting state directly (the bootstrap policy).
fn put_object(core: &mut Core, mut obj: Object) {
    let Some(resource) = obj.resource() else { return };
    let uid = core.rng.uuid();
    let meta = obj.meta_mut();
    meta.uid = Some(uid);
    meta.creation_timestamp = Some(apiserver::timestamp(core.now));
    let key = resource.etcd_key(obj.namespace(), obj.name());
    core.store.create(&key, obj).ok();
}

/// The default cluster's documents and settings, read once per process (the text is built in
/// and reading it is deterministic, so every load gets the same copy).
fn default_cluster() -> &'static Result<(Vec<Doc>, LabSettings), ClusterError> {
    static DEFAULT: OnceLock<Result<(Vec<Doc>, LabSettings), ClusterError>> = OnceLock::new();
    DEFAULT.get_or_init(|| {
        let mut docs = Vec::new();
        let mut settings = base_settings();
        collect("preset kind", DEFAULT_CLUSTER, 0, &mut docs, &mut settings)?;
        Ok((docs, settings))
    })
}

/// A document of the default cluster, prepared once per process, and where it comes from.
struct PreparedDoc {
    source: &'static str,
    line: Option<usize>,
    prepared: Result<Prepared, String>,
}

/// The default cluster's documents, prepared once per process (see [`Prepared`]).
fn prepared_default_cluster() -> &'static [PreparedDoc] {
    static DOCS: OnceLock<Vec<PreparedDoc>> = OnceLock::new();
    DOCS.get_or_init(|| match default_cluster() {
        Ok((docs, _)) => docs
            .iter()
            .map(|d| PreparedDoc { source: &d.source, line: d.line, prepared: prepare(d.value.clone()) })
            .collect(),
        Err(_) => Vec::new(),
    })
}

/// The bootstrap policy objects, built once per process (they never change).
fn bootstrap_objects() -> &'static [Object] {
    static OBJECTS: OnceLock<Vec<Object>> = OnceLock::new();
    OBJECTS.get_or_init(bootstrap::bootstrap_objects)
}

/// The seed of the randomness loading draws from (the uids of the starting state's objects).
/// Loading leaves the run's randomness alone: the starting state was there before the run
/// began, so it is a function of the cluster file only, and one loaded cluster serves a run
/// of any seed (see [`crate::lab::Loaded`]).
pub const LOAD_SEED: u64 = 0x706f_646c_6162; // "podlab"

/// Loads the starting state into `core` (see the module docs): the base objects, then the
/// cluster file (the default cluster when `None`), then the settings. Returns the settings.
/// The uids come from a stream seeded with [`LOAD_SEED`]; `core.rng` is left as it was.
pub fn load(core: &mut Core, cluster: Option<&str>) -> Result<LabSettings, ClusterError> {
    let run_rng = std::mem::replace(&mut core.rng, Rng::new(LOAD_SEED));
    let loaded = load_with_load_rng(core, cluster);
    core.rng = run_rng;
    loaded
}

/// [`load`] with `core.rng` being the load's own stream.
fn load_with_load_rng(core: &mut Core, cluster: Option<&str>) -> Result<LabSettings, ClusterError> {
    let (source, docs, settings) = match cluster {
        Some(text) => {
            let source = "cluster file";
            let mut docs = Vec::new();
            let mut settings = base_settings();
            collect(source, text, 0, &mut docs, &mut settings)?;
            (source, Some(docs), settings)
        }
        None => {
            let (_, settings) = default_cluster().as_ref().map_err(Clone::clone)?;
            ("preset kind", None, settings.clone())
        }
    };
    for p in prepared_base_objects() {
        put_prepared(core, "base", None, p)?;
    }
    for o in bootstrap_objects() {
        put_object(core, o.clone());
    }
    match docs {
        Some(docs) => {
            for d in docs {
                put(core, &d.source, d.line, d.value)?;
            }
        }
        None => {
            for d in prepared_default_cluster() {
                put_prepared(core, d.source, d.line, &d.prepared)?;
            }
        }
    }
    // Namespaces of the file have what the serviceaccount and root-ca-cert-publisher
    // controllers gave them long ago.
    let namespaces: Vec<String> =
        core.store.list("/registry/namespaces/").into_iter().map(|(_, o, _)| o.name().to_string()).collect();
    for ns in namespaces {
        if core.store.get(&format!("/registry/serviceaccounts/{ns}/default")).is_none() {
            let sa =
                json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default", "namespace": ns}});
            put(core, "base", None, sa)?;
        }
        if core.store.get(&format!("/registry/configmaps/{ns}/kube-root-ca.crt")).is_none() {
            put(core, "base", None, cm_with_ca(&ns))?;
        }
    }
    for w in &settings.webhooks {
        if let Err(e) = crate::admission::SimulatedWebhook::from_value(w) {
            return Err(ClusterError { source: source.to_string(), line: None, message: format!("webhooks: {e}") });
        }
    }
    if let Some(u) = &settings.current_user {
        if settings.user(u).is_none() {
            return Err(ClusterError {
                source: source.to_string(),
                line: None,
                message: format!("currentUser \"{u}\" is not among the users"),
            });
        }
    }
    let rest = match serde_json::to_value(&settings) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let meta =
        k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta { name: Some("lab".into()), ..Default::default() };
    let obj = Object::Other(std::sync::Arc::new(Unstructured {
        api_version: SETTINGS_API_VERSION.into(),
        kind: SETTINGS_KIND.into(),
        metadata: meta,
        rest,
    }));
    if core.store.get(SETTINGS_KEY).is_some() {
        core.store.update(SETTINGS_KEY, obj, None).ok();
    } else {
        core.store.create(SETTINGS_KEY, obj).ok();
    }
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    /// Everything a load stored, as JSON, with the store's revisions.
    fn stored(core: &Core) -> Vec<(String, serde_json::Value, u64)> {
        core.store.list("/registry/").into_iter().map(|(k, o, rev)| (k.to_string(), o.to_json(), rev)).collect()
    }

    #[test]
    fn prepared_documents_load_as_the_text_does() {
        // The default cluster through the documents decoded once per process, and the same
        // text read afresh: the same objects, uids and revisions.
        let (mut prepared, mut read) = (Core::new(7), Core::new(7));
        load(&mut prepared, None).expect("the default cluster loads");
        load(&mut read, Some(DEFAULT_CLUSTER)).expect("its text loads");
        assert!(stored(&prepared).len() > 100);
        assert_eq!(stored(&prepared), stored(&read));
        // Loading again merges into what is stored, on both paths alike.
        load(&mut prepared, None).expect("the default cluster loads again");
        load(&mut read, Some(DEFAULT_CLUSTER)).expect("its text loads again");
        assert_eq!(stored(&prepared), stored(&read));
    }

    fn check(cluster: Option<&str>, expect: Expect) {
        let mut core = Core::new(7);
        let out = match load(&mut core, cluster) {
            Ok(s) => {
                let mut out = format!(
                    "revision {}; users {:?}; current {:?}; namespace {}\n",
                    core.store.revision(),
                    s.users.iter().map(|u| u.name.as_str()).collect::<Vec<_>>(),
                    s.current_user,
                    s.context_namespace()
                );
                for (key, obj, _) in core.store.list("/registry/") {
                    let interesting = !key.starts_with("/registry/clusterrole")
                        && !key.starts_with("/registry/serviceaccounts/kube-system/")
                        && !key.starts_with("/registry/roles/")
                        && !key.starts_with("/registry/rolebindings/kube-system/");
                    if interesting {
                        out += &format!("{key} {}\n", obj.kind());
                    }
                }
                out
            }
            Err(e) => format!("error: {e}\n"),
        };
        expect.assert_eq(&out);
    }

    #[test]
    fn default_cluster() {
        check(
            None,
            expect![[r#"
                revision 155; users ["kubernetes-admin"]; current Some("kubernetes-admin"); namespace default
                /registry/configmaps/default/kube-root-ca.crt ConfigMap
                /registry/configmaps/kube-node-lease/kube-root-ca.crt ConfigMap
                /registry/configmaps/kube-public/kube-root-ca.crt ConfigMap
                /registry/configmaps/kube-system/kube-root-ca.crt ConfigMap
                /registry/configmaps/local-path-storage/kube-root-ca.crt ConfigMap
                /registry/endpointslices/default/kubernetes EndpointSlice
                /registry/minions/kind-control-plane Node
                /registry/minions/kind-worker Node
                /registry/minions/kind-worker2 Node
                /registry/namespaces/default Namespace
                /registry/namespaces/kube-node-lease Namespace
                /registry/namespaces/kube-public Namespace
                /registry/namespaces/kube-system Namespace
                /registry/namespaces/local-path-storage Namespace
                /registry/priorityclasses/system-cluster-critical PriorityClass
                /registry/priorityclasses/system-node-critical PriorityClass
                /registry/serviceaccounts/default/default ServiceAccount
                /registry/serviceaccounts/kube-node-lease/default ServiceAccount
                /registry/serviceaccounts/kube-public/default ServiceAccount
                /registry/serviceaccounts/local-path-storage/default ServiceAccount
                /registry/serviceaccounts/local-path-storage/local-path-provisioner-service-account ServiceAccount
                /registry/services/specs/default/kubernetes Service
                /registry/storageclasses/standard StorageClass
            "#]],
        );
    }

    #[test]
    fn presets_extend_and_merge() {
        check(
            preset("rbac-alice"),
            expect![[r#"
                revision 161; users ["kubernetes-admin", "alice", "bob"]; current Some("alice"); namespace dev
                /registry/configmaps/default/kube-root-ca.crt ConfigMap
                /registry/configmaps/dev/kube-root-ca.crt ConfigMap
                /registry/configmaps/kube-node-lease/kube-root-ca.crt ConfigMap
                /registry/configmaps/kube-public/kube-root-ca.crt ConfigMap
                /registry/configmaps/kube-system/kube-root-ca.crt ConfigMap
                /registry/configmaps/local-path-storage/kube-root-ca.crt ConfigMap
                /registry/endpointslices/default/kubernetes EndpointSlice
                /registry/minions/kind-control-plane Node
                /registry/minions/kind-worker Node
                /registry/minions/kind-worker2 Node
                /registry/namespaces/default Namespace
                /registry/namespaces/dev Namespace
                /registry/namespaces/kube-node-lease Namespace
                /registry/namespaces/kube-public Namespace
                /registry/namespaces/kube-system Namespace
                /registry/namespaces/local-path-storage Namespace
                /registry/priorityclasses/system-cluster-critical PriorityClass
                /registry/priorityclasses/system-node-critical PriorityClass
                /registry/rolebindings/dev/alice-reads-pods RoleBinding
                /registry/rolebindings/dev/ops-edit RoleBinding
                /registry/serviceaccounts/default/default ServiceAccount
                /registry/serviceaccounts/dev/default ServiceAccount
                /registry/serviceaccounts/kube-node-lease/default ServiceAccount
                /registry/serviceaccounts/kube-public/default ServiceAccount
                /registry/serviceaccounts/local-path-storage/default ServiceAccount
                /registry/serviceaccounts/local-path-storage/local-path-provisioner-service-account ServiceAccount
                /registry/services/specs/default/kubernetes Service
                /registry/storageclasses/standard StorageClass
            "#]],
        );
        let mut core = Core::new(1);
        load(&mut core, preset("tight-resources")).unwrap();
        let (node, _) = core.store.get("/registry/minions/kind-worker").unwrap();
        let status = node.to_json()["status"].clone();
        assert_eq!(status["allocatable"]["cpu"], "900m");
        assert_eq!(status["allocatable"]["pods"], "110");
        assert_eq!(status["capacity"]["memory"], "2Gi");
    }

    #[test]
    fn settings_for_other_components_are_kept() {
        let file = "apiVersion: podlab.dev/v1alpha1
kind: LabSettings
extends: kind
nodeFaults:
  kind-worker: {notReadyAt: 60000, cni: pluginMissing}
registry:
- {image: registry.example.com/shop/api:1.4, sizeBytes: 23000000, entrypoint: [/app]}
webhooks:
- {name: pod-policy.example.com, allowed: false, message: no latest tags}
";
        let mut core = Core::new(1);
        load(&mut core, Some(file)).unwrap();
        let s = settings(&core.store);
        let out = format!(
            "{}\n{}\n{}\n",
            serde_json::to_string(&s.node_faults).unwrap(),
            serde_json::to_string(&s.registry).unwrap(),
            serde_json::to_string(&s.webhooks).unwrap()
        );
        expect![[r#"
            {"kind-worker":{"notReadyAt":60000,"cni":"pluginMissing"}}
            [{"image":"registry.example.com/shop/api:1.4","sizeBytes":23000000,"entrypoint":["/app"]}]
            [{"name":"pod-policy.example.com","allowed":false,"message":"no latest tags"}]
        "#]]
        .assert_eq(&out);
        check(
            Some("apiVersion: podlab.dev/v1alpha1\nkind: LabSettings\nwebhooks:\n- {allowed: false}\n"),
            expect![[r#"
                error: cluster file: webhooks: a webhook server needs the webhook's name
            "#]],
        );
    }

    #[test]
    fn bad_cluster_files() {
        check(
            Some("apiVersion: v1\nkind: Widget\nmetadata:\n  name: x\n"),
            expect![[r#"
            error: cluster file: line 1: unknown kind "Widget" in version "v1"
        "#]],
        );
        check(
            Some("apiVersion: podlab.dev/v1alpha1\nkind: LabSettings\nextends: nope\n"),
            expect![[r#"
            error: cluster file: unknown preset "nope" in extends
        "#]],
        );
        check(
            Some("apiVersion: podlab.dev/v1alpha1\nkind: LabSettings\nuserz: []\n"),
            expect![[r#"
                error: cluster file: line 1: unknown field `userz`, expected one of `apiVersion`, `kind`, `metadata`, `extends`, `users`, `currentUser`, `namespace`, `anonymousAuth`, `webhooks`, `nodeFaults`, `registry`
            "#]],
        );
        check(
            Some("apiVersion: podlab.dev/v1alpha1\nkind: LabSettings\ncurrentUser: zed\n"),
            expect![[r#"
            error: cluster file: currentUser "zed" is not among the users
        "#]],
        );
        check(
            Some("a: b: c\n"),
            expect![[r#"
            error: cluster file: line 1: mapping values are not allowed in this context
        "#]],
        );
    }
}
