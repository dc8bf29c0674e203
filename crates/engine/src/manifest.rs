//! Reading the learner's file: multi-document YAML into documents, or an error that points
//! at the line and column.

use serde::{Deserialize, Serialize};

/// One YAML document of the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// Position among the file's non-empty documents, from 0.
    pub index: usize,
    /// 1-based line where the document's content starts.
    pub line: usize,
    pub api_version: String,
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    #[serde(skip)]
    pub value: serde_yaml::Value,
}

/// A YAML syntax error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct YamlError {
    /// The parser's message without the position.
    pub message: String,
    /// 1-based line and column, when the parser knows them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column {c}: {}", self.message),
            (Some(l), None) => write!(f, "line {l}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// The documents read before the first error, and the error if there was one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ParsedManifest {
    pub documents: Vec<Document>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<YamlError>,
}

/// 1-based start line of each document: the first line, and the line after every `---`.
fn document_start_lines(text: &str) -> Vec<usize> {
    let mut starts = vec![1];
    for (i, line) in text.lines().enumerate() {
        let is_marker = line.starts_with("---") && line[3..].chars().next().is_none_or(char::is_whitespace);
        if is_marker {
            if i == 0 {
                starts[0] = 2;
            } else {
                starts.push(i + 2);
            }
        }
    }
    starts
}

fn yaml_error(e: &serde_yaml::Error) -> YamlError {
    let text = e.to_string();
    // serde_yaml appends " at line L column C" to the libyaml message; keep the message bare.
    let message = match text.find(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    };
    let loc = e.location();
    YamlError { message, line: loc.as_ref().map(|l| l.line()), column: loc.as_ref().map(|l| l.column()) }
}

fn str_field(v: &serde_yaml::Value, path: &[&str]) -> Option<String> {
    let mut cur = v;
    for key in path {
        cur = cur.get(*key)?;
    }
    cur.as_str().map(str::to_string)
}

/// Splits and parses a multi-document YAML file. Parsing stops at the first syntax error
/// (serde_yaml would otherwise report the same error forever).
pub fn parse_manifest(text: &str) -> ParsedManifest {
    use serde::Deserialize as _;
    let starts = document_start_lines(text);
    let mut out = ParsedManifest::default();
    for (raw_index, de) in serde_yaml::Deserializer::from_str(text).enumerate() {
        match serde_yaml::Value::deserialize(de) {
            Ok(serde_yaml::Value::Null) => continue,
            Ok(value) => {
                let line = starts.get(raw_index).copied().unwrap_or(1);
                out.documents.push(Document {
                    index: out.documents.len(),
                    line,
                    api_version: str_field(&value, &["apiVersion"]).unwrap_or_default(),
                    kind: str_field(&value, &["kind"]).unwrap_or_default(),
                    name: str_field(&value, &["metadata", "name"]),
                    namespace: str_field(&value, &["metadata", "namespace"]),
                    value,
                });
            }
            Err(e) => {
                out.error = Some(yaml_error(&e));
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    fn check(input: &str, expect: Expect) {
        let parsed = parse_manifest(input);
        let mut out = String::new();
        for d in &parsed.documents {
            out += &format!(
                "doc {} line {}: {} {} {}\n",
                d.index,
                d.line,
                d.api_version,
                d.kind,
                d.name.as_deref().unwrap_or("-")
            );
        }
        if let Some(e) = &parsed.error {
            out += &format!("error: {e}\n");
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn multi_document() {
        check(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n",
            expect![[r#"
                doc 0 line 1: v1 Pod web
                doc 1 line 6: apps/v1 Deployment api
            "#]],
        );
    }

    #[test]
    fn leading_marker_and_empty_documents() {
        check(
            "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: dev\n---\n---\n",
            expect![[r#"
                doc 0 line 2: v1 Namespace dev
            "#]],
        );
    }

    #[test]
    fn syntax_error_has_line_and_column() {
        check(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: app: web\n",
            expect![[r#"
                error: line 5, column 14: mapping values are not allowed in this context
            "#]],
        );
    }
}
