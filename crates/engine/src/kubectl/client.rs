//! What kubectl makes of the file before it sends anything: the documents in order, each one
//! either an object it can map to a resource, or a client-side error with kubectl's text.
//!
//! The exact client-side texts (YAML errors, missing apiVersion/kind, unknown kinds) belong to
//! the `decode` module; the functions here are their single call site and are INTERIM where
//! marked.

use crate::manifest::{parse_manifest, Document};
use crate::object::{resource_for, ResourceInfo};
use serde_json::Value;

/// An object kubectl will apply.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientObject {
    pub resource: &'static ResourceInfo,
    /// `metadata.namespace` as the file gives it.
    pub namespace: Option<String>,
    pub name: String,
    /// The object as kubectl converts it from YAML to JSON.
    pub body: Value,
}

/// One document of the file.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientDocument {
    pub index: usize,
    pub line: usize,
    pub api_version: String,
    pub kind: String,
    pub name: Option<String>,
    pub object: Result<ClientObject, String>,
}

/// The documents kubectl reads, and the error that stopped reading (a YAML syntax error ends
/// the stream: later documents are never seen).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClientFile {
    pub documents: Vec<ClientDocument>,
    pub stream_error: Option<String>,
}

/// The YAML-to-JSON conversion kubectl does. INTERIM: serde_yaml's reading.
fn to_json(doc: &Document) -> Result<Value, String> {
    serde_json::to_value(&doc.value).map_err(|e| e.to_string())
}

/// Reads the file as kubectl's resource builder does (see the module docs).
pub fn read_file(text: &str, file: &str) -> ClientFile {
    let parsed = parse_manifest(text);
    let mut out = ClientFile::default();
    for d in &parsed.documents {
        let object = client_object(d, file);
        out.documents.push(ClientDocument {
            index: d.index,
            line: d.line,
            api_version: d.api_version.clone(),
            kind: d.kind.clone(),
            name: d.name.clone(),
            object,
        });
    }
    if let Some(e) = &parsed.error {
        let detail = if e.kubectl.is_empty() { e.to_string() } else { e.kubectl.clone() };
        out.stream_error = Some(format!("error parsing {file}: {detail}"));
    }
    out
}

fn client_object(d: &Document, file: &str) -> Result<ClientObject, String> {
    let mut missing = Vec::new();
    if d.api_version.is_empty() {
        missing.push("apiVersion not set");
    }
    if d.kind.is_empty() {
        missing.push("kind not set");
    }
    if !missing.is_empty() {
        let what = crate::errors::aggregate(&missing);
        return Err(format!(
            "error validating \"{file}\": error validating data: {what}; if you choose to ignore these errors, turn validation off with --validate=false"
        ));
    }
    let name = d.name.clone().unwrap_or_default();
    let Some(resource) = resource_for(&d.api_version, &d.kind) else {
        return Err(format!(
            "resource mapping not found for name: \"{name}\" namespace: \"{}\" from \"{file}\": no matches for kind \"{}\" in version \"{}\"\nensure CRDs are installed first",
            d.namespace.as_deref().unwrap_or(""),
            d.kind,
            d.api_version
        ));
    };
    let body = to_json(d).map_err(|e| format!("error parsing {file}: {e}"))?;
    Ok(ClientObject { resource, namespace: d.namespace.clone(), name, body })
}
