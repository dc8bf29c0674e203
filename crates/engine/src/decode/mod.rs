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

use crate::errors::{go_quote, CommandError, Status};
use crate::manifest::Document;
use crate::object::Object;
use serde_json::Value;

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

mod deserializer;
mod strict;
#[cfg(test)]
mod tests;

pub use crate::kubectl::yaml_to_json::request_body;
pub use deserializer::from_value;
pub use strict::{decode_body, parse_quantity};
