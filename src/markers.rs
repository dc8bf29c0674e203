//! Inline markers of the editor: which line of the learner's text an error is about. The
//! errors and their field paths all come from the engine (its YAML reader, its decoding, the
//! API server's steps in the run); the engine's line map turns a field path into a line.

use podlab_engine::decode;
use podlab_engine::lab::Run;
use podlab_engine::linemap::locate_in;
use podlab_engine::manifest::{parse_manifest, Document};
use podlab_engine::trace::{AdmissionVerdict, Detail, Step, StepStatus};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One marker: a line (and column) of the text and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    /// 1-based.
    pub line: usize,
    pub column: usize,
    pub severity: Severity,
    /// Short kind of problem: `YAML syntax error`, `Unknown field`, `Forbidden`, ...
    pub title: String,
    pub message: String,
    /// The step of the run that reported it, if any.
    pub step: Option<usize>,
}

impl Marker {
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
            title: "YAML syntax error".into(),
            message: e.message.clone(),
            step: None,
        });
    }
    for doc in &parsed.documents {
        for dup in &doc.duplicates {
            let loc = locate_in(doc, dup);
            out.push(Marker {
                line: loc.line,
                column: loc.column,
                severity: Severity::Warning,
                title: "Duplicate key".into(),
                message: format!("\"{dup}\" appears more than once; kubectl keeps the last value without a word"),
                step: None,
            });
        }
    }
    if let Some(run) = run {
        for result in run.documents.iter().filter(|r| !r.accepted) {
            let Some(doc) = parsed.documents.iter().find(|d| d.index == result.index) else { continue };
            let failed = failed_step(run, result.index, &result.request_ids, result.line);
            out.extend(document_markers(doc, failed));
        }
    }
    podlab_engine::sort::sort_by_key(&mut out, |m| (m.line, m.column));
    out.dedup_by(|a, b| a.line == b.line && a.title == b.title && a.message == b.message);
    out
}

/// The first failed step of a document: one of its requests, or kubectl's own refusal.
fn failed_step<'a>(run: &'a Run, index: usize, request_ids: &[u32], line: usize) -> Option<&'a Step> {
    if request_ids.is_empty() {
        // kubectl refused the document before sending it (its step names the document).
        let needle = format!("document {} (line {line})", index + 1);
        return run.steps.iter().find(|s| s.status == StepStatus::Failed && s.summary.contains(&needle));
    }
    run.steps
        .iter()
        .find(|s| s.status == StepStatus::Failed && s.request_id.is_some_and(|id| request_ids.contains(&id)))
}

/// Field paths the engine's decoding reports for a document (unknown fields, a value of the
/// wrong type, a missing kind), with the error text.
fn decode_paths(doc: &Document) -> Vec<(String, String)> {
    let err = match decode::request_body(doc) {
        Err(e) => e,
        Ok(body) => match decode::decode_body(&body) {
            Err(e) => e,
            Ok(_) => return Vec::new(),
        },
    };
    let message = match &err {
        decode::DecodeError::Server { status, .. } => status.message.clone(),
        decode::DecodeError::Client { error, .. } => error.message("the file"),
    };
    err.paths().iter().map(|p| (p.clone(), message.clone())).collect()
}

fn at(doc: &Document, path: &str, severity: Severity, title: &str, message: String, step: Option<usize>) -> Marker {
    let loc = locate_in(doc, path);
    Marker { line: loc.line, column: loc.column, severity, title: title.into(), message, step }
}

fn document_markers(doc: &Document, failed: Option<&Step>) -> Vec<Marker> {
    let step = failed.map(|s| s.index);
    let detail = failed.map(|s| &s.detail);
    match detail {
        Some(Detail::Validation(v)) => {
            let mut out = Vec::new();
            for e in &v.errors {
                if e.field.is_empty() {
                    // A decoding error: the engine's decoder knows the fields.
                    let paths = decode_paths(doc);
                    for (path, message) in &paths {
                        let text = if message.contains("unknown field") {
                            format!("unknown field \"{path}\"")
                        } else {
                            message.clone()
                        };
                        let title = if message.contains("unknown field") { "Unknown field" } else { "Cannot decode" };
                        out.push(at(doc, path, Severity::Error, title, text, step));
                    }
                    if paths.is_empty() {
                        out.push(at(doc, "kind", Severity::Error, "Bad request", e.message.clone(), step));
                    }
                } else {
                    out.push(at(
                        doc,
                        &e.field,
                        Severity::Error,
                        "Invalid",
                        format!("{}: {}", e.field, e.message),
                        step,
                    ));
                }
            }
            out
        }
        Some(Detail::Authorization(a)) if !a.allowed => {
            vec![at(doc, "metadata.namespace", Severity::Error, "Forbidden", a.message.clone(), step)]
        }
        Some(Detail::Admission(a)) if a.verdict == AdmissionVerdict::Denied => {
            let message = a.message.clone().unwrap_or_else(|| a.explanation.clone());
            vec![at(doc, "kind", Severity::Error, &format!("Denied by {}", a.plugin), message, step)]
        }
        Some(Detail::Authentication(a)) => {
            vec![at(doc, "kind", Severity::Error, "Unauthorized", a.explanation.clone(), step)]
        }
        Some(Detail::Note { text }) => {
            let paths = match decode::request_body(doc) {
                Err(e) => e.paths().to_vec(),
                Ok(_) => Vec::new(),
            };
            let first = text.lines().next().unwrap_or_default().to_string();
            if paths.is_empty() {
                vec![at(doc, "kind", Severity::Error, "kubectl refused it", first, step)]
            } else {
                paths.iter().map(|p| at(doc, p, Severity::Error, "kubectl refused it", first.clone(), step)).collect()
            }
        }
        Some(Detail::Response(r)) => vec![at(doc, "kind", Severity::Error, &r.status_text, r.kubectl.clone(), step)],
        Some(Detail::Etcd(e)) => {
            vec![at(doc, "metadata.name", Severity::Error, "Not stored", e.error.clone().unwrap_or_default(), step)]
        }
        Some(other) => {
            let text = failed.map(|s| s.summary.clone()).unwrap_or_default();
            let _ = other;
            vec![at(doc, "kind", Severity::Error, "Refused", text, step)]
        }
        None => Vec::new(),
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};
    use podlab_engine::lab::{run, LabInput};

    fn check(text: &str, preset: &str, expect: Expect) {
        let mut input = LabInput::new(text, "pod.yaml");
        input.cluster = podlab_engine::cluster::preset(preset).map(str::to_string);
        let r = run(&input).unwrap();
        let mut out = String::new();
        for m in markers(text, Some(&r)) {
            out += &format!("{:?} {}: {}: {}\n", m.severity, m.position(), m.title, m.message);
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
        check(
            crate::starters::by_id("forbidden").unwrap().yaml,
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
}
