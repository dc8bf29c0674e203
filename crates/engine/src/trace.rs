//! The trace: the one output of the engine that everything else renders.
//!
//! A run of the simulation is a list of [`Step`]s. Each step says when it happened (logical
//! milliseconds), which phase of the Pod-creation path it belongs to, which component acted
//! and towards which component (the arrow of the sequence diagram), which object it concerns,
//! a one-line summary, and a typed [`Detail`] with everything that component saw and decided.
//! `revision` is the etcd revision after the step, so the state of the cluster at any step can
//! be read back from the store's history. Field names are stable: the JSON form of this module
//! is the CLI's `-o json` output and is documented in `docs/trace-format.md`.

use serde::{Deserialize, Serialize};

/// The phases of the path, in the order a learner meets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// kubectl reads the file and builds the HTTP request.
    Request,
    Authentication,
    Authorization,
    MutatingAdmission,
    /// Decoding, defaulting and object validation.
    Validation,
    ValidatingAdmission,
    /// The write to etcd and the response.
    Etcd,
    Controllers,
    Scheduling,
    /// Node-local admission, QoS class, cgroups, volumes.
    Kubelet,
    /// Image pulls and the pause sandbox.
    Runtime,
    /// Network namespace, veth and the Pod IP.
    Cni,
    /// Init containers, app containers, lifecycle hooks.
    Containers,
    /// Probes and status updates.
    Status,
    Endpoints,
}

impl Phase {
    pub const ALL: [Phase; 15] = [
        Phase::Request,
        Phase::Authentication,
        Phase::Authorization,
        Phase::MutatingAdmission,
        Phase::Validation,
        Phase::ValidatingAdmission,
        Phase::Etcd,
        Phase::Controllers,
        Phase::Scheduling,
        Phase::Kubelet,
        Phase::Runtime,
        Phase::Cni,
        Phase::Containers,
        Phase::Status,
        Phase::Endpoints,
    ];

    /// The phase's name as the lab shows it.
    pub fn title(self) -> &'static str {
        match self {
            Phase::Request => "Request",
            Phase::Authentication => "Authentication",
            Phase::Authorization => "Authorization",
            Phase::MutatingAdmission => "Mutating admission",
            Phase::Validation => "Validation",
            Phase::ValidatingAdmission => "Validating admission",
            Phase::Etcd => "etcd",
            Phase::Controllers => "Controllers",
            Phase::Scheduling => "Scheduling",
            Phase::Kubelet => "Kubelet",
            Phase::Runtime => "Container runtime",
            Phase::Cni => "CNI",
            Phase::Containers => "Containers",
            Phase::Status => "Probes & status",
            Phase::Endpoints => "Endpoints",
        }
    }

    /// The stable identifier used in JSON, URLs and content files.
    pub fn id(self) -> &'static str {
        match self {
            Phase::Request => "request",
            Phase::Authentication => "authentication",
            Phase::Authorization => "authorization",
            Phase::MutatingAdmission => "mutating-admission",
            Phase::Validation => "validation",
            Phase::ValidatingAdmission => "validating-admission",
            Phase::Etcd => "etcd",
            Phase::Controllers => "controllers",
            Phase::Scheduling => "scheduling",
            Phase::Kubelet => "kubelet",
            Phase::Runtime => "runtime",
            Phase::Cni => "cni",
            Phase::Containers => "containers",
            Phase::Status => "status",
            Phase::Endpoints => "endpoints",
        }
    }

    pub fn from_id(id: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// The actors of the sequence diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Component {
    Kubectl,
    ApiServer,
    Etcd,
    ControllerManager,
    Scheduler,
    Kubelet,
    Runtime,
    Cni,
}

impl Component {
    pub const ALL: [Component; 8] = [
        Component::Kubectl,
        Component::ApiServer,
        Component::Etcd,
        Component::ControllerManager,
        Component::Scheduler,
        Component::Kubelet,
        Component::Runtime,
        Component::Cni,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Component::Kubectl => "kubectl",
            Component::ApiServer => "kube-apiserver",
            Component::Etcd => "etcd",
            Component::ControllerManager => "kube-controller-manager",
            Component::Scheduler => "kube-scheduler",
            Component::Kubelet => "kubelet",
            Component::Runtime => "container runtime",
            Component::Cni => "CNI plugin",
        }
    }
}

/// Which object a step concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectRef {
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
}

impl ObjectRef {
    /// `kind/name` or `kind/namespace/name`.
    pub fn display(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{}/{}/{}", self.kind, ns, self.name),
            None => format!("{}/{}", self.kind, self.name),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepStatus {
    /// The step went as it should.
    Ok,
    /// Something a learner should notice, but the path goes on (a warning, a retry).
    Warning,
    /// The step failed: a rejected request, a failed pull, a crashed container.
    Failed,
}

/// One step of the trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Position in the trace, from 0.
    pub index: usize,
    /// Logical time in milliseconds since the learner pressed apply.
    pub time_ms: u64,
    pub phase: Phase,
    /// The component acting.
    pub from: Component,
    /// The component it talks to (equal to `from` for work inside one component).
    pub to: Component,
    /// The node, for node components (kubelet, runtime, CNI).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<ObjectRef>,
    /// Groups the steps of one API request (all of them share the id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<u32>,
    pub summary: String,
    pub status: StepStatus,
    /// The etcd revision after this step.
    pub revision: u64,
    pub detail: Detail,
}

/// A single change to an object, as a JSON-pointer-like path with before and after values
/// rendered as YAML fragments (`None` = absent).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

/// Who is asking, as the authenticator resolved it.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct UserInfo {
    pub username: String,
    pub groups: Vec<String>,
}

/// The request attributes an authorizer and admission see.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RequestAttributes {
    pub user: UserInfo,
    pub verb: String,
    pub api_group: String,
    pub api_version: String,
    pub resource: String,
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub subresource: String,
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub namespace: String,
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub name: String,
}

/// What kubectl sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpRequestDetail {
    pub method: String,
    pub path: String,
    /// Query parameters in order, e.g. `fieldValidation=Strict`.
    pub query: Vec<(String, String)>,
    pub headers: Vec<(String, String)>,
    /// The body as JSON (what kubectl actually sends).
    pub body: String,
}

/// What the API server answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpResponseDetail {
    pub code: u16,
    /// `Created`, `OK`, `Forbidden`, ...
    pub status_text: String,
    /// The response body (the stored object or the Status object) as JSON.
    pub body: String,
    /// What kubectl prints for it.
    pub kubectl: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthenticationDetail {
    /// `x509 client certificate`, `bearer token`, `service account token`, `anonymous`.
    pub method: String,
    pub authenticated: bool,
    pub user: UserInfo,
    /// Impersonation (`--as`), when used: the identity that asked for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impersonated_by: Option<UserInfo>,
    pub explanation: String,
}

/// The RBAC rule that allowed a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RbacMatch {
    /// `ClusterRoleBinding` or `RoleBinding`.
    pub binding_kind: String,
    pub binding_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binding_namespace: Option<String>,
    /// `ClusterRole` or `Role`.
    pub role_kind: String,
    pub role_name: String,
    /// The subject of the binding that matched the user.
    pub subject: String,
    pub rule_index: usize,
    /// The rule as `apiGroups=[...] resources=[...] verbs=[...]`.
    pub rule: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthorizationDetail {
    pub attributes: RequestAttributes,
    /// The authorizer that decided (`RBAC`, `Node`, or the superuser group).
    pub authorizer: String,
    pub allowed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<RbacMatch>,
    /// Bindings that applied to the user and were looked at, in order.
    pub considered: Vec<String>,
    /// The Forbidden message when denied, or why it was allowed.
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdmissionStage {
    Mutating,
    Validating,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdmissionVerdict {
    /// The plugin had nothing to do for this object.
    NotApplicable,
    Allowed,
    /// Allowed and changed the object (mutating stage only).
    Mutated,
    Denied,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdmissionDetail {
    /// Upstream's plugin name, e.g. `LimitRanger`.
    pub plugin: String,
    pub stage: AdmissionStage,
    pub verdict: AdmissionVerdict,
    pub changes: Vec<Change>,
    /// Why the plugin did what it did, in plain words.
    pub explanation: String,
    /// The denial message, when denied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Warnings returned to the client (`Warning: would violate PodSecurity ...`).
    pub warnings: Vec<String>,
    /// Audit or object annotations the plugin added.
    pub annotations: Vec<(String, String)>,
    /// The webhooks called (MutatingAdmissionWebhook / ValidatingAdmissionWebhook only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub webhook_calls: Vec<WebhookCall>,
}

impl AdmissionDetail {
    /// An empty detail for `plugin`; fill in the rest field by field.
    pub fn new(plugin: &str, stage: AdmissionStage, verdict: AdmissionVerdict) -> AdmissionDetail {
        AdmissionDetail {
            plugin: plugin.to_string(),
            stage,
            verdict,
            changes: vec![],
            explanation: String::new(),
            message: None,
            warnings: vec![],
            annotations: vec![],
            webhook_calls: vec![],
        }
    }
}

/// One call of an admission webhook: which webhook, where, what was sent and answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookCall {
    /// The `MutatingWebhookConfiguration` / `ValidatingWebhookConfiguration` name.
    pub configuration: String,
    /// The webhook's name inside it (`sidecar-injector.example.com`).
    pub webhook: String,
    /// The URL the API server posts to, with its `?timeout=` parameter.
    pub url: String,
    /// 0 for the first mutating pass, 1 for a reinvocation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub round: u32,
    /// The AdmissionReview sent, as JSON.
    pub request: String,
    /// The AdmissionReview received, as JSON (`None` when the call failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// The decoded JSONPatch, when the webhook returned one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch: Option<String>,
    /// What happened, in plain words (`allowed`, `denied: ...`, `failed: ...`).
    pub outcome: String,
    /// Simulated round-trip time.
    pub latency_ms: u64,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One field error, as the API server reports it in `details.causes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldCause {
    /// `FieldValueRequired`, `FieldValueInvalid`, ...
    pub reason: String,
    /// The body of the error without the field, e.g. `Required value`.
    pub message: String,
    /// The field path, e.g. `spec.containers[0].image`.
    pub field: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidationDetail {
    /// Defaults the API server filled in before validation.
    pub defaults: Vec<Change>,
    pub errors: Vec<FieldCause>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EtcdOperation {
    Create,
    Update,
    Delete,
    /// A read (a GET served from etcd).
    Get,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EtcdDetail {
    pub operation: EtcdOperation,
    pub key: String,
    pub revision: u64,
    /// The object as stored, in YAML (resourceVersion shown as read back).
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchDetail {
    /// Who watches, e.g. `kube-scheduler` or `kubelet (worker-1)`.
    pub watcher: String,
    /// `ADDED`, `MODIFIED`, `DELETED`.
    pub event: String,
    pub key: String,
    pub revision: u64,
    /// Why this watcher cares.
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ControllerDetail {
    /// Upstream's controller name, e.g. `deployment-controller`.
    pub controller: String,
    /// What it observed (e.g. `0 ReplicaSets match the template`).
    pub observed: String,
    /// What it wants (e.g. `1 ReplicaSet with 3 replicas`).
    pub desired: String,
    /// What it does about the difference.
    pub actions: Vec<String>,
}

/// One plugin's filter verdict on one node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterVerdict {
    pub plugin: String,
    pub passed: bool,
    /// The reason string(s) upstream reports when the node is rejected.
    pub reasons: Vec<String>,
    /// Whether preemption could help (false = UnschedulableAndUnresolvable).
    pub resolvable: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeFilterRow {
    pub node: String,
    pub feasible: bool,
    pub verdicts: Vec<FilterVerdict>,
    /// Filter plugins that did not run on this node because an earlier one rejected it
    /// (the scheduler stops at the first failing filter).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginScore {
    pub plugin: String,
    pub raw: i64,
    pub normalized: i64,
    pub weight: i64,
    pub weighted: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeScoreRow {
    pub node: String,
    pub scores: Vec<PluginScore>,
    pub total: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleDetail {
    pub profile: String,
    /// PreFilter messages, if a PreFilter plugin rejected the pod or narrowed the nodes.
    pub prefilter: Vec<String>,
    pub filter: Vec<NodeFilterRow>,
    pub scores: Vec<NodeScoreRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
    /// How a tie was broken, if there was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tie_break: Option<String>,
    /// PostFilter (preemption) outcome.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub postfilter: Option<String>,
    /// The FailedScheduling message when no node fits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Every PreFilter plugin's answer, in profile order (Success, Skip, a rejection).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prefilter_results: Vec<PluginVerdict>,
    /// How many nodes were searched (percentageOfNodesToScore) and from where.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<SamplingDetail>,
    /// Score plugins whose PreScore said Skip (not scored this cycle).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prescore_results: Vec<PluginVerdict>,
    /// Every PostFilter plugin's answer, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub postfilter_results: Vec<PluginVerdict>,
    /// The node preemption nominated (`status.nominatedNodeName`); empty = cleared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nominated_node: Option<String>,
    /// Pods preemption evicts, as `namespace/name`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub victims: Vec<String>,
    /// Reserve and Bind plugins' answers on the chosen node.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub binding_results: Vec<PluginVerdict>,
}

/// One plugin's answer at a cluster-wide extension point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginVerdict {
    pub plugin: String,
    /// `Success`, `Skip`, `Unschedulable`, `UnschedulableAndUnresolvable`, `Error`.
    pub code: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

/// The node search of one cycle: upstream stops after finding `nodes_to_find` feasible
/// nodes, starting where the previous cycle stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SamplingDetail {
    pub nodes_total: usize,
    /// The percentage applied (computed by the adaptive formula when not configured).
    pub percentage: i32,
    pub adaptive: bool,
    pub nodes_to_find: usize,
    pub start_index: usize,
    /// Nodes the filters ran on.
    pub evaluated: usize,
    pub feasible: usize,
}

/// A Kubernetes Event as it was recorded (and later shown by `kubectl describe`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventDetail {
    /// `Normal` or `Warning`.
    pub event_type: String,
    pub reason: String,
    /// The reporting component as `kubectl describe` shows it (`default-scheduler`, `kubelet`).
    pub from: String,
    pub message: String,
}

/// A component's own work on a node or in the control plane, described as labelled facts
/// and optional tables (QoS, cgroups, volumes, image pulls, sandbox, CNI, containers, probes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkDetail {
    /// What kind of work: `qos`, `cgroups`, `volume`, `image-pull`, `sandbox`, `cni`,
    /// `container`, `probe`, `status`, `endpointslice`, `node-admission`, `binding`.
    pub topic: String,
    /// Labelled facts, in the order to show them.
    pub facts: Vec<(String, String)>,
    pub tables: Vec<Table>,
    pub changes: Vec<Change>,
    pub explanation: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// A component's routine API request summarised in one step: who asked, what the authorizer
/// decided, which admission plugins changed the object, and the etcd write (if any).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiCallDetail {
    /// `POST`, `PUT`, `PATCH`, `DELETE`, `GET`.
    pub method: String,
    pub path: String,
    /// The authenticated (or impersonated) user.
    pub user: UserInfo,
    /// The authorizer that decided (`Node`, `RBAC`, `system:masters`), or `""` when the request
    /// did not get that far.
    pub authorizer: String,
    pub allowed: bool,
    /// The authorizer's reason: the binding and role that allowed it, or the Forbidden text.
    pub authorization: String,
    /// Admission plugins that changed the object.
    pub mutated_by: Vec<String>,
    pub warnings: Vec<String>,
    /// The HTTP status code of the response.
    pub code: u16,
    /// The Status message when the request failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub etcd: Option<EtcdDetail>,
}

/// The typed body of a step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Detail {
    Note {
        text: String,
    },
    Request(HttpRequestDetail),
    Response(HttpResponseDetail),
    Authentication(AuthenticationDetail),
    Authorization(Box<AuthorizationDetail>),
    Admission(AdmissionDetail),
    Validation(ValidationDetail),
    Etcd(EtcdDetail),
    Watch(WatchDetail),
    Controller(ControllerDetail),
    Schedule(Box<ScheduleDetail>),
    Event(EventDetail),
    Work(WorkDetail),
    /// One API request of a component, summarised in a single step (see [`ApiCallDetail`]).
    ApiCall(Box<ApiCallDetail>),
}
