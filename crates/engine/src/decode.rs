//! From a parsed YAML document to an [`Object`], with the errors kubectl and the API server
//! give on the way.
//!
//! Two sides, as in a real cluster:
//!
//! 1. **kubectl** ([`request_body`]) converts the YAML to the JSON it sends, the way
//!    sigs.k8s.io/yaml over yaml.v2 does: YAML 1.1 scalars (`0644` is 420, `yes` is `true`,
//!    `1_000` is 1000) for plain scalars, integral floats written as integers, non-string keys
//!    turned into strings, and object keys sorted (kubectl re-encodes a Go map, so the body's
//!    keys are in byte order). It then checks `apiVersion` and `kind` (`error validating
//!    "pod.yaml": error validating data: [apiVersion not set, kind not set]; ...`) and maps the
//!    kind to a resource (`resource mapping not found for name: ... no matches for kind "Foo" in
//!    version "example.com/v1"` + `ensure CRDs are installed first`). These are
//!    [`DecodeError::Client`] errors: nothing reaches the server.
//! 2. **The API server** ([`decode_body`]) decodes the body into the typed object with
//!    `fieldValidation=Strict` (kubectl's default `--validate=strict`): every unknown field
//!    is reported, in body order (`strict decoding error: unknown field "spec.x", unknown field
//!    "spec.y"`); a value of the wrong JSON type stops decoding with Go's message (`json: cannot
//!    unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`); a bad
//!    quantity or base64 string gives the type's own message. All are 400 BadRequest
//!    [`DecodeError::Server`] errors with `<Kind> in version "<v>" cannot be handled as a
//!    <Kind>: ...`.
//!
//! Kinds with a typed variant in [`Object`] are decoded strictly; other built-in kinds (those in
//! [`crate::object::RESOURCES`]) become [`Object::Other`] without field checks.
//!
//! The typed decoding runs through this module's own `serde::Deserializer` over the JSON body,
//! which knows where it is (full path with indices for the lab; Go's struct name and
//! field-name path for the messages) and records every field the types ignore. That is what
//! `serde_ignored` would give, plus the location of type errors, with one deserializer type for
//! all kinds (no per-kind closure: see the size note in `shared/reference/crates.md`).
//!
//! Public API: [`decode`], [`decode_document`] (also returns the request body), [`request_body`],
//! [`decode_body`], [`DecodeError`] ([`DecodeError::command_error`] gives what kubectl prints).

use crate::errors::{go_json, go_quote, CommandError, Status};
use crate::linemap::{self, Entry, ScalarStyle, Segment};
use crate::manifest::Document;
use crate::object::{resource_for, Object, Unstructured};
use crate::quantity::Quantity;
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Number, Value};
use std::fmt;

/// Why a document did not become an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// kubectl stopped before sending anything.
    Client {
        error: ClientError,
        /// Field paths the error is about (for marking lines).
        paths: Vec<String>,
    },
    /// The API server answered 400 BadRequest.
    Server {
        status: Box<Status>,
        /// Unknown fields, or the field whose value has the wrong type.
        paths: Vec<String>,
        /// Whether `paths` are unknown fields (strict decoding) rather than a bad value.
        unknown_fields: bool,
    },
}

/// kubectl's own errors while reading a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The YAML could not become JSON (`error converting YAML to JSON: <msg>`).
    Convert(String),
    /// kubectl's pre-check of `apiVersion` and `kind` (`apiVersion not set`, `kind not set`,
    /// `kind isn't string type`, `invalid object to validate`, ...).
    Validating(Vec<String>),
    /// The kind is not served by the cluster.
    NoKindMatch { kind: String, version: String, name: String, namespace: String },
    /// `kind` is an empty string.
    MissingKind { body: String },
}

impl ClientError {
    /// The message as kubectl builds it for a file called `source` (without `error: `).
    pub fn message(&self, source: &str) -> String {
        match self {
            ClientError::Convert(msg) => format!("error parsing {source}: error converting YAML to JSON: {msg}"),
            ClientError::Validating(problems) => format!(
                "error validating {}: error validating data: {}; if you choose to ignore these errors, turn validation off with --validate=false",
                go_quote(source),
                crate::errors::aggregate(problems)
            ),
            ClientError::NoKindMatch { kind, version, name, namespace } => format!(
                "resource mapping not found for name: {} namespace: {} from {}: no matches for kind {} in version {}\nensure CRDs are installed first",
                go_quote(name),
                go_quote(namespace),
                go_quote(source),
                go_quote(kind),
                go_quote(version)
            ),
            ClientError::MissingKind { body } => {
                format!("unable to decode {}: Object 'Kind' is missing in '{body}'", go_quote(source))
            }
        }
    }
}

impl DecodeError {
    pub fn is_client_side(&self) -> bool {
        matches!(self, DecodeError::Client { .. })
    }

    pub fn paths(&self) -> &[String] {
        match self {
            DecodeError::Client { paths, .. } | DecodeError::Server { paths, .. } => paths,
        }
    }

    /// The server's Status, for server-side errors.
    pub fn status(&self) -> Option<&Status> {
        match self {
            DecodeError::Server { status, .. } => Some(&**status),
            DecodeError::Client { .. } => None,
        }
    }

    /// The error as `kubectl create/apply -f <source>` ends with it (feed it to
    /// [`crate::errors::kubectl_stderr`]).
    pub fn command_error(&self, source: &str) -> CommandError {
        match self {
            DecodeError::Client { error, .. } => CommandError::Client(error.message(source)),
            DecodeError::Server { status, .. } => CommandError::Server(status.with_source("creating", source)),
        }
    }

    /// What kubectl prints for this error alone, without the final newline.
    pub fn kubectl_line(&self, source: &str) -> String {
        let text = crate::errors::kubectl_stderr(&[self.command_error(source)]);
        text.strip_suffix('\n').unwrap_or(&text).to_string()
    }
}

/// A decoded document: the object and the JSON body kubectl sent for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    pub object: Object,
    pub body: Value,
}

/// kubectl's reading and the server's decoding of one document.
pub fn decode(doc: &Document) -> Result<Object, DecodeError> {
    decode_document(doc).map(|d| d.object)
}

/// [`decode`], also returning the request body.
pub fn decode_document(doc: &Document) -> Result<Decoded, DecodeError> {
    let body = request_body(doc)?;
    let object = decode_body(&body)?;
    Ok(Decoded { object, body })
}

/// `kubectl apply`'s own refusals for an object without a name, before any request: a
/// `generateName` (`from web-: cannot use generate name with apply`) or no name at all (the GET
/// of the current configuration fails with `resource name may not be empty`). Returns the
/// message without `error: `; `obj` should carry the namespace kubectl uses.
pub fn apply_client_check(obj: &Object, source: &str) -> Option<String> {
    if !obj.name().is_empty() {
        return None;
    }
    if let Some(g) = obj.meta().generate_name.as_deref().filter(|g| !g.is_empty()) {
        return Some(format!("from {g}: cannot use generate name with apply"));
    }
    let api_version = obj.api_version();
    let (group, version) = match api_version.split_once('/') {
        Some((g, v)) => (g.to_string(), v.to_string()),
        None => (String::new(), api_version.clone()),
    };
    let plural =
        obj.resource().map(|r| r.plural.to_string()).unwrap_or_else(|| format!("{}s", obj.kind().to_lowercase()));
    let verb = format!(
        "retrieving current configuration of:\nResource: {}, GroupVersionKind: {}\nName: {}, Namespace: {}\nfrom server for:",
        go_quote(&format!("{group}/{version}, Resource={plural}")),
        go_quote(&format!("{group}/{version}, Kind={}", obj.kind())),
        go_quote(""),
        go_quote(obj.namespace().unwrap_or_default())
    );
    Some(format!("error when {verb} {}: resource name may not be empty", go_quote(source)))
}

// ---------------------------------------------------------------------------------------
// kubectl: YAML to JSON, apiVersion/kind checks, resource mapping
// ---------------------------------------------------------------------------------------

fn client(error: ClientError, paths: Vec<String>) -> DecodeError {
    DecodeError::Client { error, paths }
}

/// The JSON kubectl sends for a document, after its client-side checks.
pub fn request_body(doc: &Document) -> Result<Value, DecodeError> {
    let mut conv = Converter { source: &doc.source, first_line: doc.line, plain: None };
    let mut path = Vec::new();
    let body = conv.convert(&doc.value, &mut path)?;
    let Value::Object(fields) = &body else {
        return Err(client(ClientError::Validating(vec!["invalid object to validate".into()]), vec![]));
    };
    let mut problems = Vec::new();
    let mut paths = Vec::new();
    let mut group_version = None;
    match fields.get("apiVersion") {
        None | Some(Value::Null) => problems.push("apiVersion not set".to_string()),
        Some(Value::String(gv)) => match parse_group_version(gv) {
            Ok(v) => group_version = Some(v),
            Err(e) => problems.push(e),
        },
        Some(_) => problems.push("apiVersion isn't string type".to_string()),
    }
    if !problems.is_empty() {
        paths.push("apiVersion".to_string());
    }
    match fields.get("kind") {
        None | Some(Value::Null) => problems.push("kind not set".to_string()),
        Some(Value::String(_)) => {}
        Some(_) => problems.push("kind isn't string type".to_string()),
    }
    if problems.len() > paths.len() {
        paths.push("kind".to_string());
    }
    if !problems.is_empty() {
        return Err(client(ClientError::Validating(problems), paths));
    }
    let kind = fields.get("kind").and_then(Value::as_str).unwrap_or_default();
    let (group, version) = group_version.unwrap_or_default();
    if kind.is_empty() {
        return Err(client(ClientError::MissingKind { body: go_json(&body) }, vec!["kind".into()]));
    }
    let api_version = if group.is_empty() { version.clone() } else { format!("{group}/{version}") };
    if resource_for(&api_version, kind).is_none() && !ALSO_SERVED.contains(&(api_version.as_str(), kind)) {
        let meta = fields.get("metadata");
        let text = |k: &str| meta.and_then(|m| m.get(k)).and_then(Value::as_str).unwrap_or_default().to_string();
        return Err(client(
            ClientError::NoKindMatch {
                kind: kind.to_string(),
                version: api_version,
                name: text("name"),
                namespace: text("namespace"),
            },
            vec!["apiVersion".into(), "kind".into()],
        ));
    }
    Ok(body)
}

/// Group-versions a v1.37 API server still serves for a kind, besides the one in
/// [`crate::object::RESOURCES`] (which lists one version per kind).
const ALSO_SERVED: &[(&str, &str)] = &[("autoscaling/v1", "HorizontalPodAutoscaler")];

/// `schema.ParseGroupVersion`: `v1`, `apps/v1`; more than one `/` is an error.
fn parse_group_version(gv: &str) -> Result<(String, String), String> {
    if gv.is_empty() || gv == "/" {
        return Ok((String::new(), String::new()));
    }
    match gv.matches('/').count() {
        0 => Ok((String::new(), gv.to_string())),
        1 => {
            let (g, v) = gv.split_once('/').unwrap_or_default();
            Ok((g.to_string(), v.to_string()))
        }
        _ => Err(format!("unexpected GroupVersion string: {gv}")),
    }
}

struct Converter<'a> {
    source: &'a str,
    first_line: usize,
    /// The paths of plain scalars in the document's text, found the first time one is in
    /// question.
    plain: Option<std::collections::BTreeSet<String>>,
}

impl Converter<'_> {
    fn is_plain(&mut self, path: &[Segment]) -> bool {
        let plain = self.plain.get_or_insert_with(|| {
            let entries: Vec<Entry> = linemap::scan(self.source, self.first_line);
            entries
                .iter()
                .filter(|e| e.value.is_some_and(|v| v.0 == ScalarStyle::Plain))
                .map(|e| linemap::path_to_string(&e.path))
                .collect()
        });
        plain.contains(&linemap::path_to_string(path))
    }

    fn convert(&mut self, v: &serde_yaml::Value, path: &mut Vec<Segment>) -> Result<Value, DecodeError> {
        Ok(match v {
            serde_yaml::Value::Null => Value::Null,
            serde_yaml::Value::Bool(b) => Value::Bool(*b),
            serde_yaml::Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Value::from(i)
                } else if let Some(u) = n.as_u64() {
                    Value::from(u)
                } else {
                    let f = n.as_f64().unwrap_or(0.0);
                    json_float(f).map_err(|m| client(ClientError::Convert(m), vec![linemap::path_to_string(path)]))?
                }
            }
            serde_yaml::Value::String(s) => {
                if may_resolve_differently(s) && self.is_plain(path) {
                    match yaml11_resolve(s) {
                        Some(Yaml11::Bool(b)) => Value::Bool(b),
                        Some(Yaml11::Int(i)) => Value::from(i),
                        Some(Yaml11::Uint(u)) => Value::from(u),
                        Some(Yaml11::Float(f)) => json_float(f)
                            .map_err(|m| client(ClientError::Convert(m), vec![linemap::path_to_string(path)]))?,
                        None => Value::String(s.clone()),
                    }
                } else {
                    Value::String(s.clone())
                }
            }
            serde_yaml::Value::Sequence(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    path.push(Segment::Index(i));
                    let r = self.convert(item, path);
                    path.pop();
                    out.push(r?);
                }
                Value::Array(out)
            }
            serde_yaml::Value::Mapping(m) => {
                // A Go map: two keys that read the same (`1` and `"1"`) keep the last value, and the
                // encoding lists keys in byte order.
                let mut pairs: std::collections::BTreeMap<String, Value> = std::collections::BTreeMap::new();
                for (k, val) in m {
                    let key = match k {
                        serde_yaml::Value::String(s) => s.clone(),
                        serde_yaml::Value::Bool(b) => b.to_string(),
                        serde_yaml::Value::Number(n) => match n.as_i64() {
                            Some(i) => i.to_string(),
                            None => match n.as_u64() {
                                Some(u) => u.to_string(),
                                None => go_float32_key(n.as_f64().unwrap_or(0.0)),
                            },
                        },
                        other => {
                            let kind = match other {
                                serde_yaml::Value::Null => "<nil>",
                                serde_yaml::Value::Sequence(_) => "[]interface {}",
                                _ => "map[interface {}]interface {}",
                            };
                            return Err(client(
                                ClientError::Convert(format!("unsupported map key of type: {kind}")),
                                vec![linemap::path_to_string(path)],
                            ));
                        }
                    };
                    path.push(Segment::Key(key.clone()));
                    let r = self.convert(val, path);
                    path.pop();
                    let r = r?;
                    pairs.insert(key, r);
                }
                Value::Object(pairs.into_iter().collect::<Map<String, Value>>())
            }
            serde_yaml::Value::Tagged(t) => self.convert(&t.value, path)?,
        })
    }
}

/// A float as Go's `json.Marshal` writes it: integral values as integers, NaN and infinities
/// refused.
fn json_float(f: f64) -> Result<Value, String> {
    if f.is_nan() {
        return Err("json: unsupported value: NaN".into());
    }
    if f.is_infinite() {
        return Err(format!("json: unsupported value: {}", if f > 0.0 { "+Inf" } else { "-Inf" }));
    }
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        return Ok(Value::from(f as i64));
    }
    Ok(Number::from_f64(f).map(Value::Number).unwrap_or(Value::Null))
}

/// A float key as sigs.k8s.io/yaml writes it (`strconv.FormatFloat(f, 'g', -1, 32)`).
fn go_float32_key(f: f64) -> String {
    let g = f as f32;
    if g.is_infinite() {
        return if g > 0.0 { ".inf".into() } else { "-.inf".into() };
    }
    if g.is_nan() {
        return ".nan".into();
    }
    format!("{g}")
}

enum Yaml11 {
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
}

/// Whether yaml.v2 (YAML 1.1) might read this plain scalar as something other than the
/// string serde_yaml (YAML 1.2) made of it.
fn may_resolve_differently(s: &str) -> bool {
    matches!(
        s,
        "y" | "Y" | "yes" | "Yes" | "YES" | "n" | "N" | "no" | "No" | "NO" | "on" | "On" | "ON" | "off" | "Off" | "OFF"
    ) || s.as_bytes().first().is_some_and(|b| b.is_ascii_digit() || *b == b'+' || *b == b'-')
}

/// yaml.v2's resolution of a plain scalar that serde_yaml left as a string.
fn yaml11_resolve(s: &str) -> Option<Yaml11> {
    match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => return Some(Yaml11::Bool(true)),
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => return Some(Yaml11::Bool(false)),
        _ => {}
    }
    let plain: String = s.chars().filter(|c| *c != '_').collect();
    if let Some(i) = go_parse_int(&plain) {
        return Some(i);
    }
    if is_yaml_style_float(&plain) {
        if let Ok(f) = plain.parse::<f64>() {
            return Some(Yaml11::Float(f));
        }
    }
    None
}

/// `strconv.ParseInt(s, 0, 64)`, falling back to `ParseUint`.
fn go_parse_int(s: &str) -> Option<Yaml11> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if let Some(d) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        (16, d)
    } else if let Some(d) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
        (8, d)
    } else if let Some(d) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        (2, d)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if neg {
        if magnitude <= i64::MAX as u64 + 1 {
            return Some(Yaml11::Int((magnitude as i128).wrapping_neg() as i64));
        }
        None
    } else if magnitude <= i64::MAX as u64 {
        Some(Yaml11::Int(magnitude as i64))
    } else {
        Some(Yaml11::Uint(magnitude))
    }
}

/// yaml.v2's float pattern: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

// ---------------------------------------------------------------------------------------
// The API server: strict decoding into the typed object
// ---------------------------------------------------------------------------------------

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

fn decode_kind(api_version: &str, kind: &str, body: &Value, ctx: &mut Ctx) -> Result<Object, DeError> {
    use k8s_openapi::api::admissionregistration::v1::{MutatingWebhookConfiguration, ValidatingWebhookConfiguration};
    use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
    use k8s_openapi::api::batch::v1::Job;
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
        Job,
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

fn strict<'a, T: Deserialize<'a>>(body: &'a Value, ctx: &mut Ctx) -> Result<T, DeError> {
    T::deserialize(De { v: body, path: Loc::Root, go_struct: "", go_field: Loc::Root, ctx })
}

/// Where the deserializer is in the body, as a chain of borrowed segments; rendered to a
/// string only when something is reported (an unknown field or an error).
#[derive(Clone, Copy)]
enum Loc<'p> {
    Root,
    /// `parent.key` (just `key` when the parent renders empty).
    Key(&'p Loc<'p>, &'p str),
    /// `parent[index]`.
    Index(&'p Loc<'p>, usize),
}

impl Loc<'_> {
    fn write_into(&self, out: &mut String) {
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

    fn render(&self) -> String {
        let mut out = String::new();
        self.write_into(&mut out);
        out
    }
}

/// State shared by the whole decoding: the unknown fields found so far, and the mode.
#[derive(Default)]
struct Ctx {
    unknown: Vec<String>,
    /// [`from_value`]'s mode: decode exactly as `serde_json::from_value` does (serde's
    /// semantics and messages, unknown fields ignored) instead of as the API server does.
    lenient: bool,
}

impl Ctx {
    fn unknown_field(&mut self, path: &Loc) {
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
struct DeError(Box<DeErrorInner>);

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
struct DeErrorInner {
    kind: DeErrorKind,
    located: bool,
    /// Full path with indices (`spec.containers[0].image`).
    path: String,
    /// Go's `UnmarshalTypeError` context: the struct holding the field and the field-name
    /// path (no indices, no map keys).
    go_struct: String,
    go_field: String,
    /// Go's description of the JSON value (`string`, `number 1.5`, `object`).
    value: String,
}

#[derive(Debug, Clone)]
enum DeErrorKind {
    /// The value has the wrong type for the field; `expected` is serde's description, `json`
    /// the message serde_json gives for it (what [`from_value`] reports).
    Type { expected: String, json: String },
    /// A message that stands as it is (quantities, base64, times).
    Message(String),
    /// Anything else serde reports.
    Custom(String),
}

impl DeError {
    fn message(msg: String) -> Self {
        DeError(Box::new(DeErrorInner {
            kind: DeErrorKind::Message(msg),
            located: false,
            path: String::new(),
            go_struct: String::new(),
            go_field: String::new(),
            value: String::new(),
        }))
    }

    fn of_type(exp: &dyn de::Expected, json: String) -> Self {
        let mut e = DeError::message(String::new());
        e.kind = DeErrorKind::Type { expected: exp.to_string(), json };
        e
    }

    /// The message serde_json's own deserializer gives for this error.
    fn json_message(&self) -> &str {
        match &self.kind {
            DeErrorKind::Type { json, .. } => json,
            DeErrorKind::Message(m) | DeErrorKind::Custom(m) => m,
        }
    }

    fn render(&self) -> String {
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
fn go_type(expected: &str, go_struct: &str, field: &str) -> String {
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

fn go_slice_elem(go_struct: &str, field: &str) -> String {
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
        ("DeploymentStatus" | "ReplicaSetStatus" | "PodStatus" | "JobStatus" | "NodeStatus", "conditions") => {
            return format!("v1.{}Condition", go_struct.trim_end_matches("Status"));
        }
        _ => "string",
    };
    t.to_string()
}

fn go_map_type(go_struct: &str, field: &str) -> &'static str {
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

/// The deserializer over the JSON body.
struct De<'a, 'p, 'c> {
    v: &'a Value,
    path: Loc<'p>,
    go_struct: &'static str,
    go_field: Loc<'p>,
    ctx: &'c mut Ctx,
}

/// Fills in where an error happened, unless an inner level already did.
fn locate_at(mut e: DeError, path: &Loc, go_struct: &'static str, go_field: &Loc, v: &Value) -> DeError {
    if !e.located {
        e.located = true;
        e.path = path.render();
        e.go_struct = go_struct.to_string();
        e.go_field = go_field.render();
        if let DeErrorKind::Type { expected, .. } = &e.kind {
            e.value = value_desc(v, expected);
        }
    }
    e
}

/// Go's description of a JSON value in an `UnmarshalTypeError`.
fn value_desc(v: &Value, expected: &str) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::String(_) => "string".into(),
        Value::Array(_) => "array".into(),
        Value::Object(_) => "object".into(),
        Value::Number(n) => {
            // Into an integer type, Go quotes the literal (fractional or out of range).
            if matches!(expected, "i32" | "i64" | "u8" | "u16" | "u32" | "u64") {
                format!("number {n}")
            } else {
                "number".into()
            }
        }
    }
}

impl<'a> De<'a, '_, '_> {
    fn locate(&self, e: DeError) -> DeError {
        locate_at(e, &self.path, self.go_struct, &self.go_field, self.v)
    }

    fn any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        let r = match self.v {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else {
                    visitor.visit_f64(n.as_f64().unwrap_or(0.0))
                }
            }
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => {
                return self.seq(items, visitor);
            }
            Value::Object(m) => {
                return self.map(Some(m), None, visitor);
            }
        };
        r.map_err(|e| self.locate(e))
    }

    /// An array (`items`; empty for a strict `null`) through `visit_seq`, in either mode: the
    /// strict mode locates an error, the lenient one (serde_json's) requires every element to
    /// be taken. One function for both, so each visitor type has one `visit_seq` call site.
    fn seq<V: Visitor<'a>>(self, items: &'a [Value], visitor: V) -> Result<V::Value, DeError> {
        let De { v, path, go_struct, go_field, ctx } = self;
        let lenient = ctx.lenient;
        let mut access = SeqDe { items: items.iter(), index: 0, path: &path, go_struct, go_field: &go_field, ctx };
        match visitor.visit_seq(&mut access) {
            Ok(out) => match seq_left(lenient, items.len(), access.items.len()) {
                None => Ok(out),
                Some(e) => Err(e),
            },
            Err(e) => Err(locate_unless(lenient, e, &path, go_struct, &go_field, v)),
        }
    }

    /// An object (`None`: no entries, a strict `null`) through `visit_map`, in either mode, as
    /// [`De::seq`] does for arrays.
    fn map<V: Visitor<'a>>(
        self,
        m: Option<&'a Map<String, Value>>,
        struct_name: Option<&'static str>,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let De { v, path, go_struct, go_field, ctx } = self;
        let lenient = ctx.lenient;
        let mut access = MapDe {
            iter: m.map(|m| m.iter()),
            value: None,
            path: &path,
            struct_name,
            go_struct,
            go_field: &go_field,
            ctx,
        };
        match visitor.visit_map(&mut access) {
            Ok(out) => match map_left(lenient, m, access.iter.map_or(0, |i| i.len())) {
                None => Ok(out),
                Some(e) => Err(e),
            },
            Err(e) => Err(locate_unless(lenient, e, &path, go_struct, &go_field, v)),
        }
    }
}

/// The lenient mode's error for an array whose elements were not all taken.
fn seq_left(lenient: bool, len: usize, left: usize) -> Option<DeError> {
    (lenient && left != 0).then(|| de::Error::invalid_length(len, &"fewer elements in array"))
}

/// The lenient mode's error for an object whose entries were not all taken.
fn map_left(lenient: bool, m: Option<&Map<String, Value>>, left: usize) -> Option<DeError> {
    (lenient && left != 0).then(|| de::Error::invalid_length(m.map_or(0, Map::len), &"fewer elements in map"))
}

/// Strict errors are located where they happened; lenient ones go up as they are.
fn locate_unless(lenient: bool, e: DeError, path: &Loc, go_struct: &'static str, go_field: &Loc, v: &Value) -> DeError {
    if lenient {
        e
    } else {
        locate_at(e, path, go_struct, go_field, v)
    }
}

/// Go's `CorruptInputError` offset for a string `encoding/base64.StdEncoding` refuses.
fn go_base64_error(s: &str) -> Option<usize> {
    let src = s.as_bytes();
    let valid = |c: u8| c.is_ascii_alphanumeric() || c == b'+' || c == b'/';
    let mut si = 0;
    loop {
        // One quantum of up to four characters.
        let mut j = 0;
        while j < 4 {
            if si == src.len() {
                return match j {
                    0 => None,
                    _ => Some(si - j),
                };
            }
            let c = src[si];
            si += 1;
            if valid(c) {
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            if c != b'=' {
                return Some(si - 1);
            }
            // Padding.
            match j {
                0 | 1 => return Some(si - 1),
                2 => {
                    while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                        si += 1;
                    }
                    if si == src.len() {
                        return Some(src.len());
                    }
                    if src[si] != b'=' {
                        return Some(si - 1);
                    }
                    si += 1;
                }
                _ => {}
            }
            while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                si += 1;
            }
            if si < src.len() {
                return Some(si);
            }
            return None;
        }
    }
}

/// Whether the visitor describes what it expects as `want` (compared as it is written, without
/// building the description).
fn expects<'de, V: Visitor<'de>>(v: &V, want: &str) -> bool {
    struct Compare<'w> {
        rest: &'w str,
        same: bool,
    }
    impl fmt::Write for Compare<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            match self.rest.strip_prefix(s) {
                Some(rest) if self.same => self.rest = rest,
                _ => self.same = false,
            }
            Ok(())
        }
    }
    let mut c = Compare { rest: want, same: true };
    let _ = fmt::write(&mut c, format_args!("{}", v as &dyn de::Expected));
    c.same && c.rest.is_empty()
}

macro_rules! forward_zero {
    ($($method:ident => $zero:expr, $lenient:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
                if self.ctx.lenient {
                    return self.$lenient(visitor);
                }
                if self.v.is_null() {
                    let r = $zero(visitor);
                    return r.map_err(|e| self.locate(e));
                }
                self.any(visitor)
            }
        )*
    };
}

impl<'a> de::Deserializer<'a> for De<'a, '_, '_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.ctx.lenient {
            return self.lenient_any(visitor);
        }
        if expects(&visitor, "IntOrString") {
            return self.int_or_string(visitor);
        }
        self.any(visitor)
    }

    forward_zero!(
        deserialize_bool => |v: V| v.visit_bool(false), lenient_bool,
        deserialize_i8 => |v: V| v.visit_i64(0), lenient_number,
        deserialize_i16 => |v: V| v.visit_i64(0), lenient_number,
        deserialize_i32 => |v: V| v.visit_i64(0), lenient_number,
        deserialize_i64 => |v: V| v.visit_i64(0), lenient_number,
        deserialize_u8 => |v: V| v.visit_u64(0), lenient_number,
        deserialize_u16 => |v: V| v.visit_u64(0), lenient_number,
        deserialize_u32 => |v: V| v.visit_u64(0), lenient_number,
        deserialize_u64 => |v: V| v.visit_u64(0), lenient_number,
        deserialize_f32 => |v: V| v.visit_f64(0.0), lenient_number,
        deserialize_f64 => |v: V| v.visit_f64(0.0), lenient_number,
        deserialize_char => |v: V| v.visit_str(""), lenient_str,
        deserialize_string => |v: V| v.visit_str(""), lenient_str,
        deserialize_bytes => |v: V| v.visit_bytes(&[]), lenient_bytes,
        deserialize_byte_buf => |v: V| v.visit_bytes(&[]), lenient_bytes,
        deserialize_unit => |v: V| v.visit_unit(), lenient_unit,
        deserialize_identifier => |v: V| v.visit_str(""), lenient_str,
    );

    fn deserialize_str<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.ctx.lenient {
            return self.lenient_str(visitor);
        }
        if let Value::String(s) = self.v {
            if expects(&visitor, "a base64-encoded string") {
                if let Some(at) = go_base64_error(s) {
                    return Err(self.locate(DeError::message(format!("illegal base64 data at input byte {at}"))));
                }
                if s.contains(['\n', '\r']) {
                    let clean: String = s.chars().filter(|c| *c != '\n' && *c != '\r').collect();
                    return visitor.visit_string(clean).map_err(|e| self.locate(e));
                }
            }
        }
        if self.v.is_null() {
            return visitor.visit_str("").map_err(|e| self.locate(e));
        }
        self.any(visitor)
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.v.is_null() {
            return visitor.visit_none().map_err(|e| self.locate(e));
        }
        visitor.visit_some(self)
    }

    fn deserialize_unit_struct<V: Visitor<'a>>(self, _name: &'static str, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(self, name: &'static str, visitor: V) -> Result<V::Value, DeError> {
        if self.ctx.lenient {
            return visitor.visit_newtype_struct(self);
        }
        match (name, self.v) {
            ("Quantity", Value::Null) => visitor.visit_str("").map_err(|e| self.locate(e)),
            ("Quantity", v) => {
                let text = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                if let Err(msg) = parse_quantity(&text) {
                    return Err(self.locate(DeError::message(msg)));
                }
                visitor.visit_string(text).map_err(|e| self.locate(e))
            }
            ("Time" | "MicroTime", Value::String(s)) => {
                let s = s.clone();
                visitor
                    .visit_newtype_struct(De {
                        v: self.v,
                        path: self.path,
                        go_struct: self.go_struct,
                        go_field: self.go_field,
                        ctx: self.ctx,
                    })
                    .map_err(|_| {
                        let mut e = DeError::message(format!(
                            "parsing time {} as \"2006-01-02T15:04:05Z07:00\": cannot parse {} as \"2006\"",
                            go_quote(&s),
                            go_quote(&s)
                        ));
                        e.located = true;
                        e
                    })
            }
            ("Time" | "MicroTime", Value::Null) => visitor.visit_newtype_struct(self),
            ("Time" | "MicroTime", v) => {
                let desc = match v {
                    Value::Bool(_) => "bool",
                    Value::Number(_) => "number",
                    Value::Array(_) => "array",
                    _ => "object",
                };
                Err(self
                    .locate(DeError::message(format!("json: cannot unmarshal {desc} into Go value of type string"))))
            }
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Array(items) => self.seq(items, visitor),
            _ if self.ctx.lenient => self.wrong_type(&visitor),
            Value::Null => self.seq(&[], visitor),
            _ => self.any(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Object(m) => self.map(Some(m), None, visitor),
            _ if self.ctx.lenient => self.wrong_type(&visitor),
            Value::Null => self.map(None, None, visitor),
            _ => self.any(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.v {
            Value::Object(m) => self.map(Some(m), Some(name), visitor),
            Value::Array(items) if self.ctx.lenient => self.seq(items, visitor),
            _ if self.ctx.lenient => self.wrong_type(&visitor),
            Value::Null => self.map(None, Some(name), visitor),
            _ => self.any(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.v {
            Value::String(s) => visitor.visit_enum(s.as_str().into_deserializer()).map_err(|e| self.locate(e)),
            Value::Object(m) if self.ctx.lenient => self.lenient_enum(m, visitor),
            v if self.ctx.lenient => Err(de::Error::invalid_type(unexpected(v), &"string or map")),
            _ => self.any(visitor),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        // The type has no such field: strict decoding reports it and skips its value.
        if !self.ctx.lenient {
            self.ctx.unknown_field(&self.path);
        }
        visitor.visit_unit()
    }
}

impl<'a> De<'a, '_, '_> {
    /// `intstr.IntOrString`: a string, or a JSON number that fits an int32.
    fn int_or_string<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        let desc = match self.v {
            Value::String(s) => return visitor.visit_borrowed_str(s).map_err(|e| self.locate(e)),
            Value::Null => return visitor.visit_i64(0).map_err(|e| self.locate(e)),
            Value::Number(n) => match n.as_i64() {
                Some(i) if i32::try_from(i).is_ok() => return visitor.visit_i64(i).map_err(|e| self.locate(e)),
                _ => format!("number {n}"),
            },
            Value::Bool(_) => "bool".into(),
            Value::Array(_) => "array".into(),
            Value::Object(_) => "object".into(),
        };
        Err(self.locate(DeError::message(format!("json: cannot unmarshal {desc} into Go value of type int32"))))
    }
}

// ---------------------------------------------------------------------------------------
// The lenient mode: serde_json's `from_value`, through the same deserializer type
// ---------------------------------------------------------------------------------------

/// Builds a typed value from JSON exactly as `serde_json::from_value` does (the same values and
/// the same error messages; unknown fields are ignored), but through this module's deserializer.
/// Every type's `Deserialize` code is generic over the deserializer, so a second deserializer
/// type (serde_json's `Value`) would be a second copy of the whole k8s-openapi decoding tree in
/// the wasm; with this one, strict and lenient decoding share one copy.
pub fn from_value<T: de::DeserializeOwned>(v: &Value) -> Result<T, serde_json::Error> {
    let mut ctx = Ctx { unknown: Vec::new(), lenient: true };
    T::deserialize(De { v, path: Loc::Root, go_struct: "", go_field: Loc::Root, ctx: &mut ctx })
        .map_err(|e| de::Error::custom(e.json_message()))
}

/// How serde_json's `Value` describes itself in an `invalid type` error.
fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => de::Unexpected::Unsigned(u),
            (None, Some(i)) => de::Unexpected::Signed(i),
            (None, None) => de::Unexpected::Float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

/// A number as serde_json visits it: non-negative integers as `u64`, negative ones as `i64`.
fn visit_number<'a, V: Visitor<'a>>(n: &Number, visitor: V) -> Result<V::Value, DeError> {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => visitor.visit_u64(u),
        (None, Some(i)) => visitor.visit_i64(i),
        (None, None) => visitor.visit_f64(n.as_f64().unwrap_or_default()),
    }
}

/// The lenient mode's side of each `deserialize_*` method: what serde_json's `Value` does.
impl<'a> De<'a, '_, '_> {
    fn wrong_type<V: Visitor<'a>, T>(&self, visitor: &V) -> Result<T, DeError> {
        Err(de::Error::invalid_type(unexpected(self.v), visitor))
    }

    fn lenient_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => visit_number(n, visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => self.seq(items, visitor),
            Value::Object(m) => self.map(Some(m), None, visitor),
        }
    }

    fn lenient_bool<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Bool(b) => visitor.visit_bool(*b),
            _ => self.wrong_type(&visitor),
        }
    }

    fn lenient_number<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Number(n) => visit_number(n, visitor),
            _ => self.wrong_type(&visitor),
        }
    }

    fn lenient_str<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::String(s) => visitor.visit_borrowed_str(s),
            _ => self.wrong_type(&visitor),
        }
    }

    fn lenient_bytes<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => self.seq(items, visitor),
            _ => self.wrong_type(&visitor),
        }
    }

    fn lenient_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Null => visitor.visit_unit(),
            _ => self.wrong_type(&visitor),
        }
    }

    /// An enum written as an object of one key, the variant, holding its content.
    fn lenient_enum<V: Visitor<'a>>(self, m: &'a Map<String, Value>, visitor: V) -> Result<V::Value, DeError> {
        let mut entries = m.iter();
        let (Some((variant, v)), None) = (entries.next(), entries.next()) else {
            return Err(de::Error::invalid_value(de::Unexpected::Map, &"map with a single key"));
        };
        let De { path, go_struct, go_field, ctx, .. } = self;
        visitor.visit_enum(LenientEnum { variant, content: De { v, path, go_struct, go_field, ctx } })
    }
}

struct LenientEnum<'a, 'p, 'c> {
    variant: &'a str,
    content: De<'a, 'p, 'c>,
}

impl<'a, 'p, 'c> de::EnumAccess<'a> for LenientEnum<'a, 'p, 'c> {
    type Error = DeError;
    type Variant = De<'a, 'p, 'c>;

    fn variant_seed<S: DeserializeSeed<'a>>(self, seed: S) -> Result<(S::Value, Self::Variant), DeError> {
        let variant: de::value::BorrowedStrDeserializer<'a, DeError> =
            de::value::BorrowedStrDeserializer::new(self.variant);
        Ok((seed.deserialize(variant)?, self.content))
    }
}

/// The content of an enum variant (lenient mode only: strict decoding takes variants as
/// strings).
impl<'a> de::VariantAccess<'a> for De<'a, '_, '_> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<S: DeserializeSeed<'a>>(self, seed: S) -> Result<S::Value, DeError> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Array(items) if items.is_empty() => visitor.visit_unit(),
            Value::Array(items) => self.seq(items, visitor),
            v => Err(de::Error::invalid_type(unexpected(v), &"tuple variant")),
        }
    }

    fn struct_variant<V: Visitor<'a>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, DeError> {
        match self.v {
            Value::Object(m) => self.map(Some(m), None, visitor),
            v => Err(de::Error::invalid_type(unexpected(v), &"struct variant")),
        }
    }
}

struct SeqDe<'a, 'p, 'c> {
    items: std::slice::Iter<'a, Value>,
    index: usize,
    path: &'p Loc<'p>,
    go_struct: &'static str,
    go_field: &'p Loc<'p>,
    ctx: &'c mut Ctx,
}

impl<'a> SeqAccess<'a> for SeqDe<'a, '_, '_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>, DeError> {
        let Some(v) = self.items.next() else { return Ok(None) };
        let path = Loc::Index(self.path, self.index);
        self.index += 1;
        seed.deserialize(De { v, path, go_struct: self.go_struct, go_field: *self.go_field, ctx: self.ctx }).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct MapDe<'a, 'p, 'c> {
    /// The entries; `None` for a strict `null` (no entries).
    iter: Option<serde_json::map::Iter<'a>>,
    value: Option<(&'a String, &'a Value)>,
    path: &'p Loc<'p>,
    /// Set when the map is a struct: its fields extend Go's field path.
    struct_name: Option<&'static str>,
    go_struct: &'static str,
    go_field: &'p Loc<'p>,
    ctx: &'c mut Ctx,
}

impl<'a> MapAccess<'a> for MapDe<'a, '_, '_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, DeError> {
        let Some((k, v)) = self.iter.as_mut().and_then(Iterator::next) else { return Ok(None) };
        self.value = Some((k, v));
        let key: de::value::BorrowedStrDeserializer<'a, DeError> = de::value::BorrowedStrDeserializer::new(k);
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let Some((k, v)) = self.value.take() else { return Err(de::Error::custom("value without a key")) };
        let path = Loc::Key(self.path, k);
        let (go_struct, go_field) = match self.struct_name {
            Some(name) => (name, Loc::Key(self.go_field, k)),
            None => (self.go_struct, *self.go_field),
        };
        seed.deserialize(De { v, path, go_struct, go_field, ctx: self.ctx })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.as_ref().map_or(0, ExactSizeIterator::len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::parse_manifest;
    use expect_test::{expect, Expect};

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
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec: {replicas: 1, anything: goes}
",
            expect![[r#"
                ok StatefulSet "db"
                  body {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},"spec":{"anything":"goes","replicas":1}}
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
}
