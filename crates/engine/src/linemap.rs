//! Where a field of a document is in the learner's text, so the lab can mark the line an
//! error is about.
//!
//! serde_yaml's `Value` keeps no positions, so this module scans the text itself. The scan
//! understands block-style YAML: indentation, `key: value` (plain, `"double"` or `'single'`
//! quoted keys), `- ` sequence items (also `- key: value` and compact sequences at the
//! indentation of their key), comments, anchors/tags before values, block scalars (`|`, `>`)
//! and multi-line plain or quoted scalars. A flow collection (`{...}`, `[...]`) is one value:
//! paths inside it resolve to the key that holds it.
//!
//! * [`scan`] lists every key and item with its position and the style of its scalar value.
//! * [`locate`] maps a field path (`spec.containers[0].image`, `metadata.labels[app]`,
//!   `data.key`) to a 1-based line and column, falling back to the nearest parent that exists
//!   in the text, and to the document's first line.
//! * [`locate_in`] does the same for a parsed [`Document`].

use crate::manifest::Document;

/// How a scalar value is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    /// Unquoted: YAML's type rules apply (`yes`, `0644`, `1.0`).
    Plain,
    /// `"..."` or `'...'`: always a string.
    Quoted,
    /// `|` or `>`: always a string.
    Block,
    /// `{...}` or `[...]`.
    Flow,
    /// `*alias`.
    Alias,
}

/// One path segment: a mapping key or a sequence index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Key(String),
    Index(usize),
}

/// A key or sequence item found in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub path: Vec<Segment>,
    /// 1-based line and column of the key (or of the item's content after `- `).
    pub line: usize,
    pub column: usize,
    /// The style of the value when it starts on the same line, with its 1-based column.
    pub value: Option<(ScalarStyle, usize)>,
}

/// Renders a path as the API server writes field paths (`spec.containers[0].image`).
pub fn path_to_string(path: &[Segment]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            // Keys that would not read back as one segment are bracketed, as upstream's
            // `field.Path.Key` does.
            Segment::Key(k) if k.is_empty() || k.contains(['.', '[', ']']) => {
                s.push('[');
                s.push_str(k);
                s.push(']');
            }
            Segment::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Segment::Index(i) => {
                s.push_str(&format!("[{i}]"));
            }
        }
    }
    s
}

/// Parses `spec.containers[0].image` or `metadata.labels[app.kubernetes.io/name]` into
/// segments. A bracketed number is an index; anything else in brackets is a key.
pub fn parse_path(path: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '.' => {
                if !cur.is_empty() {
                    out.push(Segment::Key(std::mem::take(&mut cur)));
                }
            }
            '[' => {
                if !cur.is_empty() {
                    out.push(Segment::Key(std::mem::take(&mut cur)));
                }
                let mut inner = String::new();
                for d in chars.by_ref() {
                    if d == ']' {
                        break;
                    }
                    inner.push(d);
                }
                match inner.parse::<usize>() {
                    Ok(i) if !inner.starts_with('+') => out.push(Segment::Index(i)),
                    _ => out.push(Segment::Key(inner)),
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(Segment::Key(cur));
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    Map,
    Seq,
}

struct Frame {
    indent: usize,
    kind: FrameKind,
    path: Vec<Segment>,
    /// Next index, for sequences.
    next: usize,
}

/// The scanner's state between lines.
struct Scanner {
    entries: Vec<Entry>,
    stack: Vec<Frame>,
    /// The path whose value is expected on the following lines (a key or item with nothing
    /// after it), and the indentation of that key or dash.
    pending: Option<(Vec<Segment>, usize)>,
    /// Lines more indented than this belong to the previous scalar (block, multi-line plain
    /// or quoted, multi-line flow).
    skip_deeper_than: Option<usize>,
    /// Inside a multi-line flow collection or quoted scalar until this closes.
    open_flow: i32,
    open_quote: Option<char>,
}

fn count_indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Finds the end of a key at the start of `s`: returns (key text, byte offset just after the
/// `:`), or None when `s` is not `key:`.
fn split_key(s: &str) -> Option<(String, usize)> {
    let bytes = s.as_bytes();
    if bytes.is_empty() {
        return None;
    }
    let (key, rest_at) = match bytes[0] {
        b'"' => {
            let mut out = String::new();
            let mut chars = s[1..].char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, n)) = chars.next() {
                            out.push(match n {
                                'n' => '\n',
                                't' => '\t',
                                other => other,
                            });
                        }
                    }
                    '"' => {
                        end = Some(i + 2);
                        break;
                    }
                    c => out.push(c),
                }
            }
            (out, end?)
        }
        b'\'' => {
            let mut out = String::new();
            let body = &s[1..];
            let mut i = 0;
            let mut end = None;
            while i < body.len() {
                let rest = &body[i..];
                if let Some(r) = rest.strip_prefix("''") {
                    out.push('\'');
                    i = body.len() - r.len();
                } else if rest.starts_with('\'') {
                    end = Some(i + 2);
                    break;
                } else {
                    let c = rest.chars().next()?;
                    out.push(c);
                    i += c.len_utf8();
                }
            }
            (out, end?)
        }
        b'{' | b'[' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'%' | b'@' | b'`' => return None,
        _ => {
            // A plain key ends at the first ": " or at a final ":"; " #" starts a comment.
            let mut prev_space = false;
            for (i, c) in s.char_indices() {
                if c == '#' && prev_space {
                    return None;
                }
                if c == ':' {
                    let next = s[i + 1..].chars().next();
                    if next.is_none_or(|n| n == ' ' || n == '\t') {
                        return Some((s[..i].trim_end().to_string(), i + 1));
                    }
                }
                prev_space = c == ' ' || c == '\t';
            }
            return None;
        }
    };
    let after = &s[rest_at..];
    let trimmed = after.trim_start_matches([' ', '\t']);
    let colon_at = rest_at + (after.len() - trimmed.len());
    if trimmed.starts_with(':') && trimmed[1..].chars().next().is_none_or(|n| n == ' ' || n == '\t') {
        Some((key, colon_at + 1))
    } else {
        None
    }
}

/// Strips a trailing comment (` #...`) outside quotes from a plain value.
fn strip_comment(s: &str) -> &str {
    let mut prev_space = true;
    for (i, c) in s.char_indices() {
        if c == '#' && prev_space {
            return s[..i].trim_end();
        }
        prev_space = c == ' ' || c == '\t';
    }
    s.trim_end()
}

impl Scanner {
    fn new() -> Self {
        Scanner {
            entries: Vec::new(),
            stack: Vec::new(),
            pending: None,
            skip_deeper_than: None,
            open_flow: 0,
            open_quote: None,
        }
    }

    /// The path a new container at `indent` belongs to.
    fn parent_path(&self, indent: usize) -> Vec<Segment> {
        match &self.pending {
            Some((p, at)) if *at <= indent => p.clone(),
            _ => self.stack.last().map(|f| f.path.clone()).unwrap_or_default(),
        }
    }

    fn line(&mut self, line_no: usize, raw: &str) {
        let line = raw.trim_end_matches(['\r', '\n']);
        // Continuation of a multi-line flow collection or quoted scalar.
        if self.open_flow > 0 || self.open_quote.is_some() {
            self.track_open(line);
            return;
        }
        let content = line.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            return;
        }
        let indent = count_indent(line);
        if let Some(limit) = self.skip_deeper_than {
            if indent > limit {
                return;
            }
            self.skip_deeper_than = None;
        }
        if line.starts_with("---") || line.starts_with("...") || line.starts_with('%') {
            return;
        }
        self.node(line_no, line, indent);
    }

    /// Updates the open flow/quote state with the rest of a line.
    fn track_open(&mut self, s: &str) {
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            match self.open_quote {
                Some('"') => match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => self.open_quote = None,
                    _ => {}
                },
                Some(q) => {
                    if c == q {
                        self.open_quote = None;
                    }
                }
                None => match c {
                    '"' | '\'' if self.open_flow > 0 => self.open_quote = Some(c),
                    '[' | '{' => self.open_flow += 1,
                    ']' | '}' => self.open_flow -= 1,
                    '#' if self.open_flow > 0 => break,
                    _ => {}
                },
            }
        }
        if self.open_flow < 0 {
            self.open_flow = 0;
        }
    }

    /// A node that starts at byte `col` of `line`.
    fn node(&mut self, line_no: usize, line: &str, col: usize) {
        let s = &line[col..];
        let is_dash = s == "-" || s.starts_with("- ") || s.starts_with("-\t");
        while self.stack.last().is_some_and(|f| f.indent > col) {
            self.stack.pop();
        }
        if is_dash {
            let continues = self.stack.last().is_some_and(|f| f.indent == col && f.kind == FrameKind::Seq);
            if !continues {
                let path = self.parent_path(col);
                self.stack.push(Frame { indent: col, kind: FrameKind::Seq, path, next: 0 });
            }
            let Some(frame) = self.stack.last_mut() else { return };
            let mut path = frame.path.clone();
            path.push(Segment::Index(frame.next));
            frame.next += 1;
            let rest = &s[1..];
            let trimmed = rest.trim_start_matches([' ', '\t']);
            let (inner, skipped) = strip_anchor_and_tag(trimmed);
            let inner_col = col + 1 + (rest.len() - trimmed.len()) + skipped;
            if inner.is_empty() || inner.starts_with('#') {
                self.entries.push(Entry { path: path.clone(), line: line_no, column: col + 1, value: None });
                self.pending = Some((path, col));
                return;
            }
            let is_container = inner == "-" || inner.starts_with("- ") || split_key(inner).is_some();
            if is_container {
                self.entries.push(Entry { path: path.clone(), line: line_no, column: inner_col + 1, value: None });
                self.pending = Some((path, col));
                self.node(line_no, line, inner_col);
            } else {
                let style = self.value(inner, col);
                self.entries.push(Entry {
                    path: path.clone(),
                    line: line_no,
                    column: inner_col + 1,
                    value: Some((style, inner_col + 1)),
                });
                self.pending = None;
            }
            return;
        }
        let Some((key, after)) = split_key(s) else {
            // A bare scalar where a node was expected (e.g. a document that is a string, or a
            // plain scalar's continuation at an unusual place): nothing to map.
            return;
        };
        // A key at the indentation of a compact sequence ends the sequence.
        if self.stack.last().is_some_and(|f| f.indent == col && f.kind == FrameKind::Seq) {
            self.stack.pop();
        }
        let same_map = self.stack.last().is_some_and(|f| f.indent == col && f.kind == FrameKind::Map);
        if !same_map {
            let path = self.parent_path(col);
            self.stack.push(Frame { indent: col, kind: FrameKind::Map, path, next: 0 });
        }
        let Some(frame) = self.stack.last() else { return };
        let mut path = frame.path.clone();
        path.push(Segment::Key(key));
        let rest = &s[after..];
        let trimmed = rest.trim_start_matches([' ', '\t']);
        let (value, skipped) = strip_anchor_and_tag(trimmed);
        let value_col = col + after + (rest.len() - trimmed.len()) + skipped;
        if value.is_empty() || value.starts_with('#') {
            self.entries.push(Entry { path: path.clone(), line: line_no, column: col + 1, value: None });
            self.pending = Some((path, col));
            return;
        }
        let style = self.value(value, col);
        self.entries.push(Entry { path, line: line_no, column: col + 1, value: Some((style, value_col + 1)) });
        self.pending = None;
    }

    /// Classifies a value that starts on the key's (or dash's) line and arranges for its
    /// continuation lines to be skipped. `owner_indent` is the key's or dash's indentation.
    fn value(&mut self, v: &str, owner_indent: usize) -> ScalarStyle {
        let first = v.as_bytes().first().copied().unwrap_or(b' ');
        match first {
            b'|' | b'>' => {
                self.skip_deeper_than = Some(owner_indent);
                ScalarStyle::Block
            }
            b'"' | b'\'' => {
                self.open_quote = None;
                let q = first as char;
                // Track whether the quote closes on this line.
                self.open_quote = Some(q);
                self.track_open(&v[1..]);
                if self.open_quote.is_none() {
                    self.skip_deeper_than = Some(owner_indent);
                }
                ScalarStyle::Quoted
            }
            b'{' | b'[' => {
                self.track_open(strip_comment(v));
                self.skip_deeper_than = Some(owner_indent);
                ScalarStyle::Flow
            }
            b'*' => ScalarStyle::Alias,
            _ => {
                // A plain scalar may continue on more-indented lines.
                self.skip_deeper_than = Some(owner_indent);
                ScalarStyle::Plain
            }
        }
    }
}

/// Skips `&anchor` and `!tag` properties before a value; returns the rest and how many bytes
/// were skipped.
fn strip_anchor_and_tag(v: &str) -> (&str, usize) {
    let mut rest = v;
    loop {
        if rest.starts_with('&') || rest.starts_with('!') {
            let end = rest.find([' ', '\t']).unwrap_or(rest.len());
            rest = rest[end..].trim_start_matches([' ', '\t']);
        } else {
            break;
        }
    }
    (rest, v.len() - rest.len())
}

/// Every key and sequence item of a block-style YAML document, in text order. `first_line`
/// is the file line of the text's first line.
pub fn scan(text: &str, first_line: usize) -> Vec<Entry> {
    let mut sc = Scanner::new();
    for (i, line) in text.split('\n').enumerate() {
        sc.line(first_line + i, line);
    }
    sc.entries
}

/// A position found for a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub line: usize,
    pub column: usize,
    /// The path that was found: the requested one, a parent of it, or empty for the
    /// document's first line.
    pub found: String,
}

fn segments_match(have: &[Segment], want: &[Segment]) -> bool {
    have.len() == want.len()
        && have.iter().zip(want).all(|(h, w)| match (h, w) {
            (Segment::Key(a), Segment::Key(b)) => a == b,
            (Segment::Index(a), Segment::Index(b)) => a == b,
            // `[0]` may name a mapping key "0".
            (Segment::Key(a), Segment::Index(b)) => a == &b.to_string(),
            _ => false,
        })
}

/// Finds `path` among scanned entries, or its nearest parent; `None` if not even the first
/// segment is there.
pub fn find<'a>(entries: &'a [Entry], path: &str) -> Option<(&'a Entry, String)> {
    let mut want = parse_path(path);
    while !want.is_empty() {
        if let Some(e) = entries.iter().find(|e| segments_match(&e.path, &want)) {
            return Some((e, path_to_string(&want)));
        }
        want.pop();
    }
    None
}

/// Where `path` is in a document whose text starts at file line `first_line`: the key's line
/// and column, else its nearest parent's, else `(first_line, 1)`.
pub fn locate_detail(text: &str, first_line: usize, path: &str) -> Location {
    let entries = scan(text, first_line);
    match find(&entries, path) {
        Some((e, found)) => Location { line: e.line, column: e.column, found },
        None => {
            // The document's first non-blank, non-comment line.
            let offset =
                text.lines().position(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')).unwrap_or(0);
            Location { line: first_line + offset, column: 1, found: String::new() }
        }
    }
}

/// 1-based (line, column) of `path` in a document's text (see [`locate_detail`]).
pub fn locate(text: &str, first_line: usize, path: &str) -> Option<(usize, usize)> {
    let l = locate_detail(text, first_line, path);
    Some((l.line, l.column))
}

/// [`locate_detail`] for a parsed document.
pub fn locate_in(doc: &Document, path: &str) -> Location {
    locate_detail(&doc.source, doc.line, path)
}

/// The style of the scalar at `path`, if the path's value starts on its key's line.
pub fn scalar_style(entries: &[Entry], path: &[Segment]) -> Option<ScalarStyle> {
    entries.iter().find(|e| segments_match(&e.path, path)).and_then(|e| e.value.map(|v| v.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::parse_manifest;
    use expect_test::{expect, Expect};

    /// Lists every entry of the scan as `line:col path [style]`.
    fn check_scan(input: &str, expect: Expect) {
        let mut out = String::new();
        for e in scan(input, 1) {
            let v = match e.value {
                Some((s, c)) => format!(" = {s:?}@{c}"),
                None => String::new(),
            };
            out += &format!("{}:{} {}{}\n", e.line, e.column, path_to_string(&e.path), v);
        }
        expect.assert_eq(&out);
    }

    /// Locates each path in every document of a multi-document file.
    fn check(input: &str, paths: &[&str], expect: Expect) {
        let parsed = parse_manifest(input);
        let mut out = String::new();
        for d in &parsed.documents {
            for p in paths {
                let l = locate_in(d, p);
                let text = input.lines().nth(l.line - 1).unwrap_or("");
                out += &format!("doc {} {p} -> {}:{} ({}) {:?}\n", d.index, l.line, l.column, l.found, text);
            }
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn pod_paths() {
        let pod = "\
apiVersion: v1
kind: Pod
metadata:
  name: web   # the name
  labels:
    app.kubernetes.io/name: web
    \"quoted key\": x
spec:
  containers:
  - name: web
    image: nginx:1.29
    ports:
      - containerPort: 80
        name: http
  - name: side
    command: [\"sh\", \"-c\"]
    args:
    - |
      echo hi
      echo there
    - plain
  volumes: []
";
        check(
            pod,
            &[
                "metadata.name",
                "metadata.labels[app.kubernetes.io/name]",
                "metadata.labels.quoted key",
                "spec.containers[0].image",
                "spec.containers[0].ports[0].name",
                "spec.containers[1]",
                "spec.containers[1].command[1]",
                "spec.containers[1].args[1]",
                "spec.containers[1].resources.limits",
                "spec.volumes[0].name",
                "status",
            ],
            expect![[r#"
                doc 0 metadata.name -> 4:3 (metadata.name) "  name: web   # the name"
                doc 0 metadata.labels[app.kubernetes.io/name] -> 6:5 (metadata.labels[app.kubernetes.io/name]) "    app.kubernetes.io/name: web"
                doc 0 metadata.labels.quoted key -> 7:5 (metadata.labels.quoted key) "    \"quoted key\": x"
                doc 0 spec.containers[0].image -> 11:5 (spec.containers[0].image) "    image: nginx:1.29"
                doc 0 spec.containers[0].ports[0].name -> 14:9 (spec.containers[0].ports[0].name) "        name: http"
                doc 0 spec.containers[1] -> 15:5 (spec.containers[1]) "  - name: side"
                doc 0 spec.containers[1].command[1] -> 16:5 (spec.containers[1].command) "    command: [\"sh\", \"-c\"]"
                doc 0 spec.containers[1].args[1] -> 21:7 (spec.containers[1].args[1]) "    - plain"
                doc 0 spec.containers[1].resources.limits -> 15:5 (spec.containers[1]) "  - name: side"
                doc 0 spec.volumes[0].name -> 22:3 (spec.volumes) "  volumes: []"
                doc 0 status -> 1:1 () "apiVersion: v1"
            "#]],
        );
    }

    #[test]
    fn scan_shapes() {
        check_scan(
            "\
a:
  b: 1
  c:
  - x
  - y: 2
    z: '3'
  -
    w: \"4\"
  - - nested
    - deeper
d: |
  text: not a key
  - not an item
e: >-
  folded
f: &anchor !!str plain value
g: *anchor
h: [1,
  2]
i: {j: k}
l: multi
  line plain
m: \"multi
  line quoted\"
n: end
",
            expect![[r#"
                1:1 a
                2:3 a.b = Plain@6
                3:3 a.c
                4:5 a.c[0] = Plain@5
                5:5 a.c[1]
                5:5 a.c[1].y = Plain@8
                6:5 a.c[1].z = Quoted@8
                7:3 a.c[2]
                8:5 a.c[2].w = Quoted@8
                9:5 a.c[3]
                9:7 a.c[3][0] = Plain@7
                10:7 a.c[3][1] = Plain@7
                11:1 d = Block@4
                14:1 e = Block@4
                16:1 f = Plain@18
                17:1 g = Alias@4
                18:1 h = Flow@4
                20:1 i = Flow@4
                21:1 l = Plain@4
                23:1 m = Quoted@4
                25:1 n = Plain@4
            "#]],
        );
    }

    #[test]
    fn multi_document_lines() {
        let file = "\
apiVersion: v1
kind: Namespace
metadata:
  name: dev
---
# a comment first
apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: dev
spec:
  containers:
  - name: web
    image: nginx
";
        check(
            file,
            &["metadata.name", "spec.containers[0].image", "spec", "nothing.here"],
            expect![[r#"
            doc 0 metadata.name -> 4:3 (metadata.name) "  name: dev"
            doc 0 spec.containers[0].image -> 1:1 () "apiVersion: v1"
            doc 0 spec -> 1:1 () "apiVersion: v1"
            doc 0 nothing.here -> 1:1 () "apiVersion: v1"
            doc 1 metadata.name -> 10:3 (metadata.name) "  name: web"
            doc 1 spec.containers[0].image -> 15:5 (spec.containers[0].image) "    image: nginx"
            doc 1 spec -> 12:1 (spec) "spec:"
            doc 1 nothing.here -> 7:1 () "apiVersion: v1"
        "#]],
        );
    }

    #[test]
    fn flow_documents_fall_back_to_the_start() {
        check(
            "{apiVersion: v1, kind: Pod, metadata: {name: web}}\n",
            &["metadata.name"],
            expect![[r#"
            doc 0 metadata.name -> 1:1 () "{apiVersion: v1, kind: Pod, metadata: {name: web}}"
        "#]],
        );
    }
}
