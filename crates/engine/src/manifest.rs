//! Reading the learner's file: multi-document YAML into documents, or an error that points
//! at the line and column.
//!
//! The split follows kubectl (apimachinery `YAMLReader`): a line that starts with `---` ends a
//! document, and anything but a comment after the marker is an error. Each document is read
//! the way kubectl's YAML-to-JSON step reads it (sigs.k8s.io/yaml over yaml.v2): a key given
//! twice keeps its last value silently (recorded in [`Document::duplicates`] so the lab can
//! point at it), tags are dropped, and `<<` merge keys are applied. YAML 1.1 scalar rules
//! that differ from serde_yaml's YAML 1.2 (`0644`, `yes`) are applied later, in
//! `decode`, where the original text tells plain scalars from quoted ones.
//!
//! [`YamlError::kubectl`] is the text kubectl prints after `error parsing <file>: `.

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_yaml::{Mapping, Value};

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
    /// The document's own text (lines `line..` up to the next `---`), for positions and for
    /// telling plain scalars from quoted ones.
    #[serde(skip)]
    pub source: String,
    /// Paths of keys that appeared more than once in one mapping (the last value was kept,
    /// as kubectl does without a word).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub duplicates: Vec<String>,
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
    /// What kubectl prints after `error parsing <file>: `, e.g. `error converting YAML to
    /// JSON: yaml: line 4: mapping values are not allowed in this context` (yaml.v2 counts
    /// lines from the start of the document, and one less for parser errors).
    #[serde(default)]
    pub kubectl: String,
}

impl YamlError {
    /// The whole line kubectl prints (`error: error parsing pod.yaml: ...`).
    pub fn kubectl_line(&self, source: &str) -> String {
        format!("error: error parsing {source}: {}", self.kubectl)
    }
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

fn is_separator(line: &str) -> bool {
    line.starts_with("---")
}

/// One chunk of the file as kubectl's `YAMLReader` cuts it.
struct Chunk {
    /// 1-based first line of the chunk (yaml.v2 numbers its lines from here).
    first_line: usize,
    /// 1-based line where content starts (after a leading `---`).
    content_line: usize,
    /// Byte range of the chunk's text in the file.
    start: usize,
    end: usize,
}

/// Splits the file at `---` lines. Returns the chunks and, if a separator is followed by
/// anything but a comment, the 1-based line of that separator and kubectl's message (the
/// chunks then stop before the document the bad separator was to end).
fn split_chunks(text: &str) -> (Vec<Chunk>, Option<(usize, String)>) {
    let mut chunks = Vec::new();
    let mut cur = Chunk { first_line: 1, content_line: 1, start: 0, end: 0 };
    let mut has_content = false;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let line_no = i + 1;
        let bare = line.trim_end_matches(['\n', '\r']);
        if is_separator(bare) {
            let trimmed = bare[3..].trim();
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                // kubectl fails while reading the document this line would end: that
                // document is lost too.
                return (chunks, Some((line_no, format!("invalid Yaml document separator: {trimmed}"))));
            }
            if has_content {
                cur.end = offset;
                chunks.push(cur);
                cur = Chunk { first_line: line_no + 1, content_line: line_no + 1, start: offset + line.len(), end: 0 };
                has_content = false;
            } else {
                // A separator before any content stays in the chunk (kubectl keeps it).
                cur.content_line = line_no + 1;
            }
        } else if !bare.trim().is_empty() {
            has_content = true;
        }
        offset += line.len();
    }
    cur.end = text.len();
    chunks.push(cur);
    (chunks, None)
}

fn serde_error(e: &serde_yaml::Error, text: &str, chunk_first_line: usize) -> YamlError {
    let display = e.to_string();
    // serde_yaml appends " at line L column C" (and a context) to the libyaml message.
    let message = match display.find(" at line ").or_else(|| display.find(" at position ")) {
        Some(i) => display[..i].to_string(),
        None => display.clone(),
    };
    let debug = format!("{e:?}");
    let field = |name: &str| -> Option<usize> {
        let i = debug.find(name)? + name.len();
        let digits: String = debug[i..].chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    };
    let (mut line, mut column) = match e.location() {
        Some(l) => (Some(l.line()), Some(l.column())),
        None => (None, None),
    };
    let kind_reader = debug.contains("kind: READER");
    if kind_reader {
        // Reader errors carry a byte offset, not a mark.
        if let Some(off) = field("problem_offset: ") {
            let off = off.min(text.len());
            let before = &text.as_bytes()[..off];
            let l = before.iter().filter(|b| **b == b'\n').count() + 1;
            let c = off - before.iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1) + 1;
            line = Some(l);
            column = Some(c);
        }
    }
    // yaml.v2's "yaml: line N: " prefix: scanner errors count from 1, parser errors from 0
    // (so they name the line before), both from the start of the document's chunk.
    let rel = line.map(|l| l.saturating_sub(chunk_first_line) + 1);
    let yaml_line = if kind_reader {
        None
    } else if debug.contains("kind: PARSER") {
        let problem = rel.map(|r| r - 1).filter(|r| *r != 0);
        problem.or_else(|| {
            field("context_mark: Mark { line: ").map(|c| c.saturating_sub(chunk_first_line)).filter(|c| *c != 0)
        })
    } else if debug.contains("kind: SCANNER") {
        rel
    } else {
        None
    };
    // serde_yaml's own limits, said plainly (kubectl's yaml.v2 refuses alias bombs as
    // "excessive aliasing"; the lab's reader also stops at 128 levels of nesting).
    let message = match message.as_str() {
        "repetition limit exceeded" => {
            return YamlError {
                message: "the document expands its aliases too many times (an alias bomb); refused".into(),
                line,
                column,
                kubectl: "error converting YAML to JSON: yaml: document contains excessive aliasing".into(),
            };
        }
        "recursion limit exceeded" => {
            "recursion limit exceeded: the document nests deeper than the 128 levels the lab reads".to_string()
        }
        _ => message,
    };
    let kubectl = match yaml_line {
        Some(n) => format!("error converting YAML to JSON: yaml: line {n}: {message}"),
        None => format!("error converting YAML to JSON: yaml: {message}"),
    };
    YamlError { message, line, column, kubectl }
}

fn str_field(v: &Value, path: &[&str]) -> Option<String> {
    let mut cur = v;
    for key in path {
        cur = cur.get(*key)?;
    }
    cur.as_str().map(str::to_string)
}

/// Builds a `Value` the way yaml.v2 reads into `interface{}`: duplicate keys keep the last
/// value (and are recorded), tags are dropped, `<<` merges are applied.
struct Lenient<'a> {
    path: String,
    duplicates: &'a mut Vec<String>,
}

fn key_text(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Null => "null".into(),
        other => serde_yaml::to_string(other).unwrap_or_default().trim_end().to_string(),
    }
}

impl<'de> DeserializeSeed<'de> for Lenient<'_> {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Lenient<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Lenient {
            path: format!("{}[{}]", self.path, out.len()),
            duplicates: &mut *self.duplicates,
        })? {
            out.push(v);
        }
        Ok(Value::Sequence(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Mapping::new();
        let mut merged: Vec<Value> = Vec::new();
        while let Some(k) = map.next_key_seed(Lenient { path: self.path.clone(), duplicates: &mut *self.duplicates })? {
            let name = key_text(&k);
            let path = if self.path.is_empty() { name.clone() } else { format!("{}.{name}", self.path) };
            let v = map.next_value_seed(Lenient { path: path.clone(), duplicates: &mut *self.duplicates })?;
            if k.as_str() == Some("<<") && matches!(v, Value::Mapping(_) | Value::Sequence(_)) {
                merged.push(v);
                continue;
            }
            if out.insert(k, v).is_some() {
                self.duplicates.push(path);
            }
        }
        // Merged mappings fill in keys the mapping does not set itself; earlier sources win.
        for source in merged {
            let maps = match source {
                Value::Mapping(m) => vec![m],
                Value::Sequence(s) => s
                    .into_iter()
                    .filter_map(|x| match x {
                        Value::Mapping(m) => Some(m),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            for m in maps {
                for (k, v) in m {
                    if !out.contains_key(&k) {
                        out.insert(k, v);
                    }
                }
            }
        }
        Ok(Value::Mapping(out))
    }
    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        use serde::de::VariantAccess;
        // A tagged node (`!tag value`): keep the value, drop the tag.
        let (_tag, variant): (String, _) = data.variant()?;
        variant.newtype_variant_seed(self)
    }
}

/// Flow collections (`[`, `{`) nested deeper than this are refused before parsing: libyaml
/// tokenises the whole document first and slows down quadratically with the flow depth, while
/// serde_yaml would refuse anything past 128 levels anyway.
const MAX_FLOW_DEPTH: usize = 1000;

/// The 1-based line and column where the flow nesting of `text` passes [`MAX_FLOW_DEPTH`]
/// (quoted scalars are skipped; a rough count is enough for such a high bound).
fn flow_depth_exceeded(text: &str) -> Option<(usize, usize)> {
    let (mut depth, mut line, mut col) = (0usize, 1usize, 0usize);
    let mut quote: Option<char> = None;
    for c in text.chars() {
        col += 1;
        match (quote, c) {
            (_, '\n') => {
                line += 1;
                col = 0;
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Some((line, col));
                }
            }
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Splits and parses a multi-document YAML file. Parsing stops at the first syntax error
/// (serde_yaml would otherwise report the same error forever) or at a malformed `---` line.
pub fn parse_manifest(text: &str) -> ParsedManifest {
    let (chunks, separator_error) = split_chunks(text);
    let mut out = ParsedManifest::default();
    for chunk in &chunks {
        let chunk_text = &text[chunk.start..chunk.end];
        if let Some((line, column)) = flow_depth_exceeded(chunk_text) {
            let message = "recursion limit exceeded: the document nests deeper than the 128 levels the lab reads";
            out.error = Some(YamlError {
                message: message.into(),
                line: Some(line + chunk.first_line - 1),
                column: Some(column),
                kubectl: format!("error converting YAML to JSON: yaml: {message}"),
            });
            return out;
        }
        let de = serde_yaml::Deserializer::from_str(chunk_text);
        let mut duplicates = Vec::new();
        // A chunk holds one document, except when a `...` end marker splits it further.
        let mut docs = de.into_iter();
        let Some(first) = docs.next() else { continue };
        match (Lenient { path: String::new(), duplicates: &mut duplicates }).deserialize(first) {
            Ok(Value::Null) => {}
            Ok(value) => {
                let content_offset: usize =
                    chunk_text.split_inclusive('\n').take(chunk.content_line - chunk.first_line).map(str::len).sum();
                out.documents.push(Document {
                    index: out.documents.len(),
                    line: chunk.content_line,
                    api_version: str_field(&value, &["apiVersion"]).unwrap_or_default(),
                    kind: str_field(&value, &["kind"]).unwrap_or_default(),
                    name: str_field(&value, &["metadata", "name"]),
                    namespace: str_field(&value, &["metadata", "namespace"]),
                    value,
                    source: chunk_text[content_offset.min(chunk_text.len())..].to_string(),
                    duplicates,
                });
            }
            Err(e) => {
                let mut err = serde_error(&e, chunk_text, 1);
                // Positions are relative to the chunk: move them to the file.
                err.line = err.line.map(|l| l + chunk.first_line - 1);
                out.error = Some(err);
                return out;
            }
        }
    }
    if let Some((line, message)) = separator_error {
        out.error = Some(YamlError { kubectl: message.clone(), message, line: Some(line), column: Some(1) });
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
            for dup in &d.duplicates {
                out += &format!("  duplicate key: {dup}\n");
            }
            out += &format!("  source starts: {:?}\n", d.source.lines().next().unwrap_or(""));
        }
        if let Some(e) = &parsed.error {
            out += &format!("error: {e}\n{}\n", e.kubectl_line("pod.yaml"));
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn multi_document() {
        check(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n",
            expect![[r#"
                doc 0 line 1: v1 Pod web
                  source starts: "apiVersion: v1"
                doc 1 line 6: apps/v1 Deployment api
                  source starts: "apiVersion: apps/v1"
            "#]],
        );
    }

    #[test]
    fn leading_marker_and_empty_documents() {
        check(
            "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: dev\n---\n---\n",
            expect![[r#"
                doc 0 line 2: v1 Namespace dev
                  source starts: "apiVersion: v1"
            "#]],
        );
    }

    #[test]
    fn syntax_error_has_line_and_column() {
        check(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: app: web\n",
            expect![[r#"
                error: line 5, column 14: mapping values are not allowed in this context
                error: error parsing pod.yaml: error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context
            "#]],
        );
    }

    #[test]
    fn errors_in_later_documents_count_lines_like_yaml_v2() {
        // Scanner error in the second document: yaml.v2 counts from the line after `---`.
        check(
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: dev\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: app: web\n",
            expect![[r#"
                doc 0 line 1: v1 Namespace dev
                  source starts: "apiVersion: v1"
                error: line 10, column 14: mapping values are not allowed in this context
                error: error parsing pod.yaml: error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context
            "#]],
        );
        // Parser errors are reported one line earlier by yaml.v2 (0-based mark).
        check(
            "a: [1, 2\n",
            expect![[r#"
            error: line 2, column 1: did not find expected ',' or ']'
            error: error parsing pod.yaml: error converting YAML to JSON: yaml: line 1: did not find expected ',' or ']'
        "#]],
        );
        check(
            "spec:\n  containers:\n  - name: a\n  image: b\n   bad: 1\n",
            expect![[r#"
            error: line 5, column 7: mapping values are not allowed in this context
            error: error parsing pod.yaml: error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context
        "#]],
        );
        // Reader errors have no line in kubectl's text.
        check(
            "a: b\u{1}c\n",
            expect![[r#"
            error: line 1, column 5: control characters are not allowed
            error: error parsing pod.yaml: error converting YAML to JSON: yaml: control characters are not allowed
        "#]],
        );
    }

    #[test]
    fn separators_like_kubectl() {
        check(
            "a: 1\n--- # comment\nb: 2\n",
            expect![[r#"
            doc 0 line 1:   -
              source starts: "a: 1"
            doc 1 line 3:   -
              source starts: "b: 2"
        "#]],
        );
        check(
            "a: 1\n--- {b: 2}\n",
            expect![[r#"
            error: line 2, column 1: invalid Yaml document separator: {b: 2}
            error: error parsing pod.yaml: invalid Yaml document separator: {b: 2}
        "#]],
        );
        check(
            "a: 1\n----\nb: 2\n",
            expect![[r#"
            error: line 2, column 1: invalid Yaml document separator: -
            error: error parsing pod.yaml: invalid Yaml document separator: -
        "#]],
        );
    }

    #[test]
    fn duplicate_keys_keep_the_last_value() {
        let parsed = parse_manifest(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\nspec:\n  containers:\n  - name: c\n    image: x\n    image: y\n",
        );
        let d = &parsed.documents[0];
        assert_eq!(d.name.as_deref(), Some("b"));
        assert_eq!(d.value["spec"]["containers"][0]["image"].as_str(), Some("y"));
        check(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\nspec:\n  containers:\n  - name: c\n    image: x\n    image: y\n",
            expect![[r#"
                doc 0 line 1: v1 Pod b
                  duplicate key: metadata.name
                  duplicate key: spec.containers[0].image
                  source starts: "apiVersion: v1"
            "#]],
        );
    }

    #[test]
    fn tags_and_merge_keys() {
        let parsed = parse_manifest("base: &b\n  x: 1\n  y: 2\nm:\n  <<: *b\n  y: 3\nt: !custom 5\n");
        let v = &parsed.documents[0].value;
        assert_eq!(serde_json::to_string(v).unwrap(), r#"{"base":{"x":1,"y":2},"m":{"y":3,"x":1},"t":5}"#);
    }
}
