//! The editor's markers: which line and column of the learner's text a problem is about, and
//! what kind of problem it is. The engine reads the text (its YAML reader, kubectl's client
//! checks, the API server's strict decoding) and, for a run of the text, takes each refused
//! document's first failed step; the line map turns the field path each problem names into a
//! line and column. The page only renders the list.
//!
//! * [`markers`] for a text, with or without its run ([`crate::lab::Run::markers`]): while the
//!   learner types, only what reading the text says (YAML syntax, duplicate keys).
//! * [`MarkerKind`] says what went wrong as a type; [`MarkerKind::title`] is its short text.

use crate::decode::{self, DecodeError};
use crate::lab::Run;
use crate::linemap::locate_in;
use crate::manifest::{parse_manifest, Document};
use crate::trace::{AdmissionVerdict, Detail, Step, StepStatus};

/// How bad a marker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// What a marker is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkerKind {
    /// The YAML reader stopped.
    YamlSyntax,
    /// A mapping key given twice (kubectl keeps the last value).
    DuplicateKey,
    /// A field the API server's strict decoding does not know.
    UnknownField,
    /// A value the API server cannot decode (wrong type, a malformed quantity).
    CannotDecode,
    /// A decoding refusal without a field to point at.
    BadRequest,
    /// A validation error of one field.
    Invalid,
    /// RBAC (or another authorizer) refused the request.
    Forbidden,
    /// An admission plugin (or webhook) denied the request.
    Denied { plugin: String },
    /// Authentication failed.
    Unauthorized,
    /// kubectl refused the document before sending it.
    KubectlRefused,
    /// The request failed with this HTTP status text.
    Response { status: String },
    /// etcd did not store the object.
    NotStored,
    /// Any other failed step.
    Refused,
}

impl MarkerKind {
    /// Short kind of problem, as the marker list titles it: `YAML syntax error`,
    /// `Unknown field`, `Forbidden`, `Denied by PodSecurity`, ...
    pub fn title(&self) -> String {
        match self {
            MarkerKind::YamlSyntax => "YAML syntax error".into(),
            MarkerKind::DuplicateKey => "Duplicate key".into(),
            MarkerKind::UnknownField => "Unknown field".into(),
            MarkerKind::CannotDecode => "Cannot decode".into(),
            MarkerKind::BadRequest => "Bad request".into(),
            MarkerKind::Invalid => "Invalid".into(),
            MarkerKind::Forbidden => "Forbidden".into(),
            MarkerKind::Denied { plugin } => format!("Denied by {plugin}"),
            MarkerKind::Unauthorized => "Unauthorized".into(),
            MarkerKind::KubectlRefused => "kubectl refused it".into(),
            MarkerKind::Response { status } => status.clone(),
            MarkerKind::NotStored => "Not stored".into(),
            MarkerKind::Refused => "Refused".into(),
        }
    }
}

/// One marker: a line (and column) of the text and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    /// 1-based.
    pub line: usize,
    /// 1-based.
    pub column: usize,
    pub severity: Severity,
    pub kind: MarkerKind,
    /// The field path the problem is about (`spec.containers[0].image`); empty for a YAML
    /// syntax error, which has no field.
    pub field: String,
    pub message: String,
    /// The step of the run that reported it, if any.
    pub step: Option<usize>,
}

impl Marker {
    /// The kind's title ([`MarkerKind::title`]).
    pub fn title(&self) -> String {
        self.kind.title()
    }

    /// `line 9, column 14` as the marker list shows it.
    pub fn position(&self) -> String {
        format!("line {}, column {}", self.line, self.column)
    }
}

/// Every marker for `text`, as read by the engine and, when given, as `run` (the run of this
/// same text) went. Sorted by line; at most one marker per line and problem.
pub fn markers(text: &str, run: Option<&Run>) -> Vec<Marker> {
    let parsed = parse_manifest(text);
    let mut out = Vec::new();
    if let Some(e) = &parsed.error {
        out.push(Marker {
            line: e.line.unwrap_or(1),
            column: e.column.unwrap_or(1),
            severity: Severity::Error,
            kind: MarkerKind::YamlSyntax,
            field: String::new(),
            message: e.message.clone(),
            step: None,
        });
    }
    for doc in &parsed.documents {
        for dup in &doc.duplicates {
            out.push(at(
                doc,
                dup,
                Severity::Warning,
                MarkerKind::DuplicateKey,
                format!("\"{dup}\" appears more than once; kubectl keeps the last value without a word"),
                None,
            ));
        }
    }
    if let Some(run) = run {
        for result in run.documents.iter().filter(|r| !r.accepted) {
            let Some(doc) = parsed.documents.iter().find(|d| d.index == result.index) else { continue };
            let failed = match result.refused_at_step {
                // kubectl refused the document before sending it.
                Some(step) => run.steps.get(step),
                None => run.steps.iter().find(|s| {
                    s.status == StepStatus::Failed && s.request_id.is_some_and(|id| result.request_ids.contains(&id))
                }),
            };
            out.extend(document_markers(doc, failed));
        }
    }
    crate::sort::sort_by_key(&mut out, |m| (m.line, m.column));
    out.dedup_by(|a, b| a.line == b.line && a.kind == b.kind && a.message == b.message);
    out
}

fn at(
    doc: &Document,
    path: &str,
    severity: Severity,
    kind: MarkerKind,
    message: String,
    step: Option<usize>,
) -> Marker {
    let loc = locate_in(doc, path);
    Marker { line: loc.line, column: loc.column, severity, kind, field: path.to_string(), message, step }
}

/// What decoding a document reports: kubectl's refusal or the API server's, if either.
fn decode_error(doc: &Document) -> Option<DecodeError> {
    match decode::request_body(doc) {
        Err(e) => Some(e),
        Ok(body) => decode::decode_body(&body).err(),
    }
}

fn document_markers(doc: &Document, failed: Option<&Step>) -> Vec<Marker> {
    let Some(failed) = failed else { return Vec::new() };
    let step = Some(failed.index);
    let error = |kind: MarkerKind, path: &str, message: String| at(doc, path, Severity::Error, kind, message, step);
    match &failed.detail {
        Detail::Validation(v) => {
            let mut out = Vec::new();
            for e in &v.errors {
                if !e.field.is_empty() {
                    out.push(error(MarkerKind::Invalid, &e.field, format!("{}: {}", e.field, e.message)));
                    continue;
                }
                // A decoding error: the engine's decoder knows the fields.
                let decoded = decode_error(doc);
                let paths = decoded.as_ref().map(DecodeError::paths).unwrap_or_default();
                for path in paths {
                    let (kind, message) = match &decoded {
                        Some(DecodeError::Server { unknown_fields: true, .. }) => {
                            (MarkerKind::UnknownField, format!("unknown field \"{path}\""))
                        }
                        Some(DecodeError::Server { status, .. }) => (MarkerKind::CannotDecode, status.message.clone()),
                        Some(DecodeError::Client { error: e, .. }) => (MarkerKind::CannotDecode, e.message("the file")),
                        None => continue,
                    };
                    out.push(error(kind, path, message));
                }
                if paths.is_empty() {
                    out.push(error(MarkerKind::BadRequest, "kind", e.message.clone()));
                }
            }
            out
        }
        Detail::Authorization(a) if !a.allowed => {
            vec![error(MarkerKind::Forbidden, "metadata.namespace", a.message.clone())]
        }
        Detail::Admission(a) if a.verdict == AdmissionVerdict::Denied => {
            let message = a.message.clone().unwrap_or_else(|| a.explanation.clone());
            vec![error(MarkerKind::Denied { plugin: a.plugin.clone() }, "kind", message)]
        }
        Detail::Authentication(a) => vec![error(MarkerKind::Unauthorized, "kind", a.explanation.clone())],
        Detail::Note { text } => {
            let paths = match decode::request_body(doc) {
                Err(e) => e.paths().to_vec(),
                Ok(_) => Vec::new(),
            };
            let first = text.lines().next().unwrap_or_default().to_string();
            if paths.is_empty() {
                vec![error(MarkerKind::KubectlRefused, "kind", first)]
            } else {
                paths.iter().map(|p| error(MarkerKind::KubectlRefused, p, first.clone())).collect()
            }
        }
        Detail::Response(r) => {
            vec![error(MarkerKind::Response { status: r.status_text.clone() }, "kind", r.kubectl.clone())]
        }
        Detail::Etcd(e) => vec![error(MarkerKind::NotStored, "metadata.name", e.error.clone().unwrap_or_default())],
        _ => vec![error(MarkerKind::Refused, "kind", failed.summary.clone())],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::{run, LabInput};
    use expect_test::{expect, Expect};

    fn check(text: &str, preset: &str, expect: Expect) {
        let mut input = LabInput::new(text, "pod.yaml");
        input.cluster = crate::cluster::preset(preset).map(str::to_string);
        let r = run(&input).unwrap();
        let mut out = String::new();
        for m in r.markers() {
            out += &format!("{:?} {}: {}: {}\n", m.severity, m.position(), m.title(), m.message);
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn yaml_syntax_error() {
        check(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: app: web\n",
            "kind",
            expect![[r#"
                Error line 5, column 14: YAML syntax error: mapping values are not allowed in this context
            "#]],
        );
    }

    #[test]
    fn unknown_fields_and_bad_quantities_point_at_their_lines() {
        check(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n    imagePullPolcy: Always\n",
            "kind",
            expect![[r#"
                Error line 9, column 5: Unknown field: unknown field "spec.containers[0].imagePullPolcy"
            "#]],
        );
        check(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n    resources:\n      limits:\n        cpu: abc\n",
            "kind",
            expect![[r#"
                Error line 11, column 9: Cannot decode: Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
            "#]],
        );
    }

    #[test]
    fn validation_errors_point_at_the_field() {
        check(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: Web_1\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n",
            "kind",
            expect![[r#"
                Error line 4, column 3: Invalid: metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
            "#]],
        );
    }

    #[test]
    fn forbidden_marks_the_namespace() {
        // The web lab's "forbidden" starter.
        check(
            "# Run this with the cluster preset \"rbac-alice\": kubectl acts as alice, who may only\n# read Pods in the namespace dev. Creating one is Forbidden.\napiVersion: v1\nkind: Pod\nmetadata:\n  name: debug\n  namespace: dev\nspec:\n  containers:\n  - name: shell\n    image: busybox:1.37\n    command: [\"sleep\", \"3600\"]\n",
            "rbac-alice",
            expect![[r#"
                Error line 7, column 3: Forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "dev"
            "#]],
        );
    }

    #[test]
    fn client_side_errors_and_duplicates() {
        check(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  name: web2\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n---\nmetadata:\n  name: nokind\n",
            "kind",
            expect![[r#"
                Warning line 4, column 3: Duplicate key: "metadata.name" appears more than once; kubectl keeps the last value without a word
                Error line 11, column 1: kubectl refused it: error validating "pod.yaml": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false
            "#]],
        );
    }

    #[test]
    fn while_typing_only_the_reader_speaks() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  name: web2\n  labels: app: web\n";
        let found = markers(text, None);
        let kinds: Vec<_> = found.iter().map(|m| (m.line, m.kind.clone())).collect();
        assert_eq!(kinds, [(6, MarkerKind::YamlSyntax)]);
        let dup = markers("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  name: web2\n", None);
        assert_eq!(dup.len(), 1);
        assert_eq!(
            (dup[0].kind.clone(), dup[0].severity, dup[0].field.as_str()),
            (MarkerKind::DuplicateKey, Severity::Warning, "metadata.name")
        );
    }
}
