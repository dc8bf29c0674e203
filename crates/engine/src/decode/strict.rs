//! The API server's side of decoding: a request body decoded into the typed object with
//! `fieldValidation=Strict`, its errors located with Go's struct and field names and
//! worded as `encoding/json` and the types' own parsers word them.

use super::deserializer::*;
use super::*;
use crate::errors::{go_quote, Status};
use crate::object::{Object, Unstructured};
use crate::quantity::Quantity;
use serde::de;
use serde::Deserialize;
use serde_json::Value;
use std::fmt;

/// [`Quantity::parse`], guarded against a zero mantissa with a huge exponent (`0e2000000000`),
/// which that parser would multiply out one power of ten at a time.
pub fn parse_quantity(text: &str) -> Result<Quantity, String> {
    let t = text.trim();
    if let Some(i) = t.find(['e', 'E']) {
        let mantissa = &t[..i];
        let zero =
            !mantissa.is_empty() && mantissa.trim_start_matches(['+', '-']).bytes().all(|c| c == b'0' || c == b'.');
        if zero && t[i + 1..].trim_start_matches(['+', '-']).bytes().all(|c| c.is_ascii_digit()) && t.len() > i + 1 {
            return Quantity::parse("0");
        }
    }
    Quantity::parse(t)
}

/// Decodes a request body (as [`request_body`] made it) the way the API server does with
/// `fieldValidation=Strict`.
pub fn decode_body(body: &Value) -> Result<Object, DecodeError> {
    let api_version = body.get("apiVersion").and_then(Value::as_str).unwrap_or_default();
    let kind = body.get("kind").and_then(Value::as_str).unwrap_or_default();
    let version = api_version.rsplit('/').next().unwrap_or_default();
    let mut ctx = Ctx::default();
    let result = decode_kind(api_version, kind, body, &mut ctx);
    let bad_request = |msg: String, paths: Vec<String>, unknown_fields: bool| DecodeError::Server {
        status: Box::new(Status::bad_request(format!(
            "{kind} in version {} cannot be handled as a {kind}: {msg}",
            go_quote(version)
        ))),
        paths,
        unknown_fields,
    };
    match result {
        Err(e) => {
            let path = e.path.clone();
            Err(bad_request(e.render(), vec![path], false))
        }
        Ok(obj) if !ctx.unknown.is_empty() => {
            let list: Vec<String> = ctx.unknown.iter().map(|p| format!("unknown field {}", go_quote(p))).collect();
            drop(obj);
            Err(bad_request(format!("strict decoding error: {}", list.join(", ")), ctx.unknown.clone(), true))
        }
        Ok(obj) => Ok(obj),
    }
}

macro_rules! typed_kinds {
    ($api_version:expr, $kind:expr, $body:expr, $ctx:expr, $($ty:ty),* $(,)?) => {{
        let api_version: &str = $api_version;
        let kind: &str = $kind;
        $(
            if kind == <$ty as k8s_openapi::Resource>::KIND && api_version == <$ty as k8s_openapi::Resource>::API_VERSION {
                let v: $ty = strict::<$ty>($body, $ctx)?;
                return Ok(Object::from(v));
            }
        )*
    }};
}

pub(crate) fn decode_kind(api_version: &str, kind: &str, body: &Value, ctx: &mut Ctx) -> Result<Object, DeError> {
    use k8s_openapi::api::admissionregistration::v1::{MutatingWebhookConfiguration, ValidatingWebhookConfiguration};
    use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet};
    use k8s_openapi::api::batch::v1::{CronJob, Job};
    use k8s_openapi::api::core::v1::{
        ConfigMap, Event, LimitRange, Namespace, Node, PersistentVolume, PersistentVolumeClaim, Pod, ResourceQuota,
        Secret, Service, ServiceAccount,
    };
    use k8s_openapi::api::discovery::v1::EndpointSlice;
    use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
    use k8s_openapi::api::scheduling::v1::PriorityClass;
    typed_kinds!(
        api_version,
        kind,
        body,
        ctx,
        Pod,
        Namespace,
        Node,
        Service,
        ConfigMap,
        Secret,
        ServiceAccount,
        LimitRange,
        ResourceQuota,
        PersistentVolumeClaim,
        PersistentVolume,
        Event,
        Deployment,
        ReplicaSet,
        DaemonSet,
        StatefulSet,
        ControllerRevision,
        Job,
        CronJob,
        EndpointSlice,
        Role,
        ClusterRole,
        RoleBinding,
        ClusterRoleBinding,
        MutatingWebhookConfiguration,
        ValidatingWebhookConfiguration,
        PriorityClass,
    );
    // A built-in kind without a typed variant: keep it unstructured (only metadata is typed).
    let u: Unstructured = strict::<Unstructured>(body, ctx)?;
    // A kind `Object` gained a variant for after this list was written still gets its type.
    Ok(match Object::from_json(api_version, kind, body.clone()) {
        Ok(obj) if !matches!(obj, Object::Other(_)) => obj,
        _ => Object::Other(std::sync::Arc::new(u)),
    })
}

pub(crate) fn strict<'a, T: Deserialize<'a>>(body: &'a Value, ctx: &mut Ctx) -> Result<T, DeError> {
    T::deserialize(De { v: body, path: Loc::Root, go_struct: "", go_field: Loc::Root, ctx })
}

/// Where the deserializer is in the body, as a chain of borrowed segments; rendered to a
/// string only when something is reported (an unknown field or an error).
#[derive(Clone, Copy)]
pub(crate) enum Loc<'p> {
    Root,
    /// `parent.key` (just `key` when the parent renders empty).
    Key(&'p Loc<'p>, &'p str),
    /// `parent[index]`.
    Index(&'p Loc<'p>, usize),
}

impl Loc<'_> {
    pub(crate) fn write_into(&self, out: &mut String) {
        match self {
            Loc::Root => {}
            Loc::Key(parent, k) => {
                parent.write_into(out);
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Loc::Index(parent, i) => {
                parent.write_into(out);
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }

    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        self.write_into(&mut out);
        out
    }
}

/// State shared by the whole decoding: the unknown fields found so far, and the mode.
#[derive(Default)]
pub(crate) struct Ctx {
    pub(crate) unknown: Vec<String>,
    /// [`from_value`]'s mode: decode exactly as `serde_json::from_value` does (serde's
    /// semantics and messages, unknown fields ignored) instead of as the API server does.
    pub(crate) lenient: bool,
}

impl Ctx {
    pub(crate) fn unknown_field(&mut self, path: &Loc) {
        // sigs.k8s.io/json keeps at most 100 strict errors, without repeats.
        if self.unknown.len() < 100 {
            let path = path.render();
            if !self.unknown.contains(&path) {
                self.unknown.push(path);
            }
        }
    }
}

/// A decoding error, located where it happened (boxed: it travels through every level).
#[derive(Debug, Clone)]
pub(crate) struct DeError(pub(crate) Box<DeErrorInner>);

impl std::ops::Deref for DeError {
    type Target = DeErrorInner;
    fn deref(&self) -> &DeErrorInner {
        &self.0
    }
}

impl std::ops::DerefMut for DeError {
    fn deref_mut(&mut self) -> &mut DeErrorInner {
        &mut self.0
    }
}

#[derive(Debug, Clone)]
pub(crate) struct DeErrorInner {
    pub(crate) kind: DeErrorKind,
    pub(crate) located: bool,
    /// Full path with indices (`spec.containers[0].image`).
    pub(crate) path: String,
    /// Go's `UnmarshalTypeError` context: the struct holding the field and the field-name
    /// path (no indices, no map keys).
    pub(crate) go_struct: String,
    pub(crate) go_field: String,
    /// Go's description of the JSON value (`string`, `number 1.5`, `object`).
    pub(crate) value: String,
}

#[derive(Debug, Clone)]
pub(crate) enum DeErrorKind {
    /// The value has the wrong type for the field; `expected` is serde's description, `json`
    /// the message serde_json gives for it (what [`from_value`] reports).
    Type { expected: String, json: String },
    /// A message that stands as it is (quantities, base64, times).
    Message(String),
    /// Anything else serde reports.
    Custom(String),
}

impl DeError {
    pub(crate) fn message(msg: String) -> Self {
        DeError(Box::new(DeErrorInner {
            kind: DeErrorKind::Message(msg),
            located: false,
            path: String::new(),
            go_struct: String::new(),
            go_field: String::new(),
            value: String::new(),
        }))
    }

    pub(crate) fn of_type(exp: &dyn de::Expected, json: String) -> Self {
        let mut e = DeError::message(String::new());
        e.kind = DeErrorKind::Type { expected: exp.to_string(), json };
        e
    }

    /// The message serde_json's own deserializer gives for this error.
    pub(crate) fn json_message(&self) -> &str {
        match &self.kind {
            DeErrorKind::Type { json, .. } => json,
            DeErrorKind::Message(m) | DeErrorKind::Custom(m) => m,
        }
    }

    pub(crate) fn render(&self) -> String {
        match &self.kind {
            DeErrorKind::Message(m) => m.clone(),
            DeErrorKind::Custom(m) => format!("json: {m}"),
            DeErrorKind::Type { expected, .. } => {
                let field_name = self.go_field.rsplit('.').next().unwrap_or_default();
                let ty = go_type(expected, &self.go_struct, field_name);
                if self.go_struct.is_empty() && self.go_field.is_empty() {
                    format!("json: cannot unmarshal {} into Go value of type {ty}", self.value)
                } else {
                    format!(
                        "json: cannot unmarshal {} into Go struct field {}.{} of type {ty}",
                        self.value, self.go_struct, self.go_field
                    )
                }
            }
        }
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        let mut e = DeError::message(String::new());
        e.kind = DeErrorKind::Custom(msg.to_string());
        e
    }
    fn invalid_type(unexp: de::Unexpected, exp: &dyn de::Expected) -> Self {
        let json = <serde_json::Error as de::Error>::invalid_type(unexp, exp).to_string();
        DeError::of_type(exp, json)
    }
    fn invalid_value(unexp: de::Unexpected, exp: &dyn de::Expected) -> Self {
        let json = <serde_json::Error as de::Error>::invalid_value(unexp, exp).to_string();
        DeError::of_type(exp, json)
    }
}

/// Go's name for the type serde expected, in the context of a field.
pub(crate) fn go_type(expected: &str, go_struct: &str, field: &str) -> String {
    match expected {
        "i32" => "int32".into(),
        "i64" => "int64".into(),
        "u8" | "u16" | "u32" | "u64" => format!("uint{}", &expected[1..]),
        "f32" | "f64" => "float64".into(),
        "a string" | "a borrowed string" => "string".into(),
        "a boolean" => "bool".into(),
        "a base64-encoded string" => "[]uint8".into(),
        "a sequence" => format!("[]{}", go_slice_elem(go_struct, field)),
        "a map" => go_map_type(go_struct, field).into(),
        "IntOrString" => "intstr.IntOrString".into(),
        "Quantity" => "resource.Quantity".into(),
        s if s.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && !s.contains(' ') => format!("v1.{s}"),
        other => other.to_string(),
    }
}

pub(crate) fn go_slice_elem(go_struct: &str, field: &str) -> String {
    let t = match (go_struct, field) {
        ("PodSpec", "containers" | "initContainers") => "v1.Container",
        ("PodSpec", "ephemeralContainers") => "v1.EphemeralContainer",
        ("PodSpec", "volumes") => "v1.Volume",
        ("PodSpec", "tolerations") => "v1.Toleration",
        ("PodSpec", "imagePullSecrets") | ("ServiceAccount", "imagePullSecrets") => "v1.LocalObjectReference",
        ("ServiceAccount", "secrets") => "v1.ObjectReference",
        ("PodSpec", "hostAliases") => "v1.HostAlias",
        ("PodSpec", "topologySpreadConstraints") => "v1.TopologySpreadConstraint",
        ("PodSpec", "readinessGates") => "v1.PodReadinessGate",
        ("PodSpec", "schedulingGates") => "v1.PodSchedulingGate",
        ("PodSpec", "resourceClaims") => "v1.PodResourceClaim",
        ("Container" | "EphemeralContainer", "ports") => "v1.ContainerPort",
        ("Container" | "EphemeralContainer", "env") => "v1.EnvVar",
        ("Container" | "EphemeralContainer", "envFrom") => "v1.EnvFromSource",
        ("Container" | "EphemeralContainer", "volumeMounts") => "v1.VolumeMount",
        ("Container" | "EphemeralContainer", "volumeDevices") => "v1.VolumeDevice",
        ("Container" | "EphemeralContainer", "resizePolicy") => "v1.ContainerResizePolicy",
        ("ServiceSpec", "ports") => "v1.ServicePort",
        ("StatefulSetSpec", "volumeClaimTemplates") => "v1.PersistentVolumeClaim",
        ("ServiceSpec", "ipFamilies") => "v1.IPFamily",
        ("ObjectMeta", "ownerReferences") => "v1.OwnerReference",
        ("ObjectMeta", "managedFields") => "v1.ManagedFieldsEntry",
        ("LabelSelector", "matchExpressions") => "v1.LabelSelectorRequirement",
        ("NodeSelector", "nodeSelectorTerms") => "v1.NodeSelectorTerm",
        ("NodeSelectorTerm", "matchExpressions" | "matchFields") => "v1.NodeSelectorRequirement",
        ("Role" | "ClusterRole", "rules") => "v1.PolicyRule",
        ("RoleBinding" | "ClusterRoleBinding", "subjects") => "v1.Subject",
        ("ConfigMapVolumeSource" | "SecretVolumeSource" | "ConfigMapProjection" | "SecretProjection", "items") => {
            "v1.KeyToPath"
        }
        ("ProjectedVolumeSource", "sources") => "v1.VolumeProjection",
        ("LimitRangeSpec", "limits") => "v1.LimitRangeItem",
        ("Capabilities", _) => "v1.Capability",
        ("HTTPGetAction", "httpHeaders") => "v1.HTTPHeader",
        ("PersistentVolumeClaimSpec" | "PersistentVolumeSpec", "accessModes") => "v1.PersistentVolumeAccessMode",
        ("NamespaceSpec", "finalizers") => "v1.FinalizerName",
        ("ResourceQuotaSpec", "scopes") => "v1.ResourceQuotaScope",
        ("NodeSpec", "taints") => "v1.Taint",
        (
            "DeploymentStatus" | "ReplicaSetStatus" | "DaemonSetStatus" | "StatefulSetStatus" | "PodStatus"
            | "JobStatus" | "NodeStatus",
            "conditions",
        ) => {
            return format!("v1.{}Condition", go_struct.trim_end_matches("Status"));
        }
        _ => "string",
    };
    t.to_string()
}

pub(crate) fn go_map_type(go_struct: &str, field: &str) -> &'static str {
    match (go_struct, field) {
        ("ResourceRequirements", "limits" | "requests")
        | ("ResourceQuotaSpec" | "ResourceQuotaStatus", _)
        | ("LimitRangeItem", _)
        | ("PodSpec", "overhead")
        | ("NodeStatus", "capacity" | "allocatable") => "v1.ResourceList",
        ("Secret", "data") | ("ConfigMap", "binaryData") => "map[string][]uint8",
        _ => "map[string]string",
    }
}
