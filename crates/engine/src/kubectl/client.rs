//! What kubectl makes of the file before it sends anything: the documents in order, each one
//! either the JSON body kubectl will send (YAML converted the way sigs.k8s.io/yaml does, keys
//! sorted, `apiVersion`/`kind` checked, the kind mapped to a resource) or a client-side error
//! with kubectl's text (both from [`crate::decode`]). A YAML syntax error ends the stream: the
//! documents after it are never read.

use crate::decode::{request_body, DecodeError};
use crate::manifest::parse_manifest;
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

/// The documents kubectl reads, and the error that stopped reading.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClientFile {
    pub documents: Vec<ClientDocument>,
    pub stream_error: Option<String>,
}

/// Reads the file as kubectl's resource builder does (see the module docs).
pub fn read_file(text: &str, file: &str) -> ClientFile {
    let parsed = parse_manifest(text);
    let mut out = ClientFile::default();
    for d in &parsed.documents {
        let object = match request_body(d) {
            Ok(body) => {
                let str_at = |p: &str| body.pointer(p).and_then(Value::as_str).map(str::to_string);
                let api_version = str_at("/apiVersion").unwrap_or_default();
                let kind = str_at("/kind").unwrap_or_default();
                match resource_for(&api_version, &kind) {
                    Some(resource) => Ok(ClientObject {
                        resource,
                        namespace: str_at("/metadata/namespace"),
                        name: str_at("/metadata/name").unwrap_or_default(),
                        body,
                    }),
                    None => Err(format!("no resource for {api_version} {kind}")),
                }
            }
            Err(DecodeError::Client { error, .. }) => Err(error.message(file)),
            Err(e) => Err(e.kubectl_line(file)),
        };
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
