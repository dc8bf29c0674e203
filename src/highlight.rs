//! Syntax colouring of the manifest editor: a small line-by-line YAML tokenizer. It only
//! decides colours (keys, strings, numbers, comments, ...); reading the YAML is the engine's
//! job, so a line this tokenizer gets wrong is only coloured wrong.

/// What a piece of a line is, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// Indentation and spaces between tokens.
    Space,
    Key,
    /// A plain (unquoted) scalar that YAML reads as a string.
    Plain,
    /// A quoted scalar, or a line of a block scalar (`|`, `>`).
    Str,
    /// Numbers, booleans and null.
    Literal,
    Comment,
    /// `:`, `-`, `|`, `>`, `{`, `}`, `[`, `]`, `,`.
    Punct,
    /// Anchors, aliases and tags (`&a`, `*a`, `!!str`).
    Meta,
    /// `---` and `...`.
    Document,
}

impl Tok {
    /// The CSS class of the token (`None` for spaces and plain text without colour).
    pub fn class(self) -> Option<&'static str> {
        match self {
            Tok::Space => None,
            Tok::Key => Some("t-key"),
            Tok::Plain => Some("t-plain"),
            Tok::Str => Some("t-str"),
            Tok::Literal => Some("t-lit"),
            Tok::Comment => Some("t-com"),
            Tok::Punct => Some("t-punct"),
            Tok::Meta => Some("t-meta"),
            Tok::Document => Some("t-doc"),
        }
    }
}

/// One line as coloured pieces; the pieces concatenate to the line.
pub type Line = Vec<(Tok, String)>;

/// Colours every line of `text` (the result has one entry per `\n`-separated line).
pub fn highlight(text: &str) -> Vec<Line> {
    let mut state = State::default();
    text.split('\n').map(|line| state.line(line)).collect()
}

/// The byte offset where each `\n`-separated line of `text` starts (at least one entry).
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
}

/// Line `i` (0-based) of `text`, given its [`line_starts`].
fn nth_line<'a>(text: &'a str, starts: &[usize], i: usize) -> &'a str {
    let end = starts.get(i + 1).map(|&next| next - 1).unwrap_or(text.len());
    &text[starts[i]..end]
}

/// Colours lines `from..to` (0-based, clamped to the text) exactly as [`highlight`] colours
/// them in the whole text, without colouring the rest: the editor shows only the lines in
/// view. The only state a line inherits is whether it is inside a block scalar, and a
/// non-blank line at column 0 always ends one, so the scan starts at the last such line at
/// or before `from` and only follows the block state up to `from`.
pub fn highlight_lines(text: &str, starts: &[usize], from: usize, to: usize) -> Vec<Line> {
    let to = to.min(starts.len());
    let from = from.min(to);
    let restart = (0..=from.min(starts.len() - 1))
        .rev()
        .find(|&i| {
            let line = nth_line(text, starts, i);
            !line.starts_with(' ') && !line.trim().is_empty()
        })
        .unwrap_or(0);
    let mut state = State::default();
    for i in restart..from {
        state.follow(nth_line(text, starts, i));
    }
    (from..to).map(|i| state.line(nth_line(text, starts, i))).collect()
}

/// What a line inherits from the lines above it.
#[derive(Default)]
struct State {
    /// The indentation of the key that opened a block scalar, while inside it.
    block_parent: Option<usize>,
}

impl State {
    /// Whether `line` (of the given indentation) is a line of the block scalar being read;
    /// ends the block scalar if not.
    fn in_block(&mut self, line: &str, indent: usize) -> bool {
        if let Some(parent) = self.block_parent {
            if line.trim().is_empty() || indent > parent {
                return true;
            }
            self.block_parent = None;
        }
        false
    }

    /// Colours the next line.
    fn line(&mut self, line: &str) -> Line {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if self.in_block(line, indent) {
            return if line.trim().is_empty() { plain_line(line, Tok::Space) } else { block_line(line, indent) };
        }
        let (pieces, opens_block) = tokenize(line);
        if opens_block {
            self.block_parent = Some(indent);
        }
        pieces
    }

    /// Reads the next line for its effect on the state only (the lines of a block scalar
    /// cost no tokenizing).
    fn follow(&mut self, line: &str) {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if !self.in_block(line, indent) && tokenize(line).1 {
            self.block_parent = Some(indent);
        }
    }
}

fn plain_line(line: &str, tok: Tok) -> Line {
    if line.is_empty() {
        Vec::new()
    } else {
        vec![(tok, line.to_string())]
    }
}

fn block_line(line: &str, indent: usize) -> Line {
    vec![(Tok::Space, line[..indent].to_string()), (Tok::Str, line[indent..].to_string())]
}

struct Out {
    pieces: Line,
}

impl Out {
    fn push(&mut self, tok: Tok, s: &str) {
        if s.is_empty() {
            return;
        }
        match self.pieces.last_mut() {
            Some((t, text)) if *t == tok => text.push_str(s),
            _ => self.pieces.push((tok, s.to_string())),
        }
    }
}

/// Tokenizes one line; also says whether it ends with a block scalar indicator.
fn tokenize(line: &str) -> (Line, bool) {
    let mut out = Out { pieces: Vec::new() };
    let trimmed = line.trim_end();
    if trimmed == "---" || trimmed == "..." || trimmed.starts_with("--- ") {
        out.push(Tok::Document, &line[..3]);
        let (rest, block) = value_part(&line[3..], &mut out);
        let _ = rest;
        return (out.pieces, block);
    }
    let mut rest = line;
    // Indentation and sequence dashes (`- - key: v`).
    loop {
        let spaces = rest.len() - rest.trim_start_matches(' ').len();
        out.push(Tok::Space, &rest[..spaces]);
        rest = &rest[spaces..];
        if rest == "-" || rest.starts_with("- ") {
            out.push(Tok::Punct, "-");
            rest = &rest[1..];
        } else {
            break;
        }
    }
    if rest.starts_with('#') {
        out.push(Tok::Comment, rest);
        return (out.pieces, false);
    }
    // `key:` at the start of the content.
    if let Some(end) = key_end(rest) {
        let (key, after) = rest.split_at(end);
        out.push(Tok::Key, key);
        out.push(Tok::Punct, ":");
        rest = &after[1..];
    }
    let (_, block) = value_part(rest, &mut out);
    (out.pieces, block)
}

/// Where the `:` of a `key: value` is, if the text starts with a key.
fn key_end(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let first = *bytes.first()?;
    if matches!(first, b'{' | b'[' | b'&' | b'*' | b'!' | b'|' | b'>' | b'#' | b'%' | b'@' | b'`') {
        return None;
    }
    if first == b'"' || first == b'\'' {
        let close = s[1..].find(first as char)? + 1;
        let after = close + 1;
        return (s[after..].starts_with(':') && is_end_or_space(bytes.get(after + 1))).then_some(after);
    }
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b':' if is_end_or_space(bytes.get(i + 1)) => return Some(i),
            b'#' if i > 0 && bytes[i - 1] == b' ' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

fn is_end_or_space(b: Option<&u8>) -> bool {
    matches!(b, None | Some(b' ') | Some(b'\t'))
}

/// Tokenizes what follows a key (or a dash); returns what is left and whether it is a block
/// scalar indicator.
fn value_part<'a>(s: &'a str, out: &mut Out) -> (&'a str, bool) {
    let mut rest = s;
    let mut block = false;
    while !rest.is_empty() {
        let spaces = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        if spaces > 0 {
            out.push(Tok::Space, &rest[..spaces]);
            rest = &rest[spaces..];
            continue;
        }
        let c = rest.as_bytes()[0];
        match c {
            b'#' => {
                out.push(Tok::Comment, rest);
                return ("", block);
            }
            b'"' | b'\'' => {
                let len = quoted_len(rest, c);
                out.push(Tok::Str, &rest[..len]);
                rest = &rest[len..];
            }
            b'|' | b'>' => {
                let len = rest.find([' ', '\t']).unwrap_or(rest.len());
                out.push(Tok::Punct, &rest[..len]);
                rest = &rest[len..];
                block = true;
            }
            b'&' | b'*' | b'!' => {
                let len = rest.find([' ', '\t', ',', ']', '}']).unwrap_or(rest.len()).max(1);
                out.push(Tok::Meta, &rest[..len]);
                rest = &rest[len..];
            }
            b'{' | b'}' | b'[' | b']' | b',' => {
                out.push(Tok::Punct, &rest[..1]);
                rest = &rest[1..];
            }
            b':' if rest.len() == 1 || rest.as_bytes()[1] == b' ' => {
                out.push(Tok::Punct, ":");
                rest = &rest[1..];
            }
            _ => {
                // A plain scalar, up to a comment, or a flow indicator inside a flow collection.
                let in_flow = out.pieces.iter().any(|(t, p)| *t == Tok::Punct && (p == "{" || p == "["));
                let mut end = rest.len();
                let bytes = rest.as_bytes();
                for i in 0..bytes.len() {
                    if bytes[i] == b'#' && i > 0 && bytes[i - 1] == b' ' {
                        end = i;
                        break;
                    }
                    if in_flow && matches!(bytes[i], b',' | b']' | b'}') {
                        end = i;
                        break;
                    }
                    if in_flow && bytes[i] == b':' && is_end_or_space(bytes.get(i + 1)) {
                        end = i;
                        break;
                    }
                }
                let word = &rest[..end];
                let core = word.trim_end();
                let tok = if in_flow && rest[end..].starts_with(':') { Tok::Key } else { scalar_tok(core) };
                out.push(tok, core);
                out.push(Tok::Space, &word[core.len()..]);
                rest = &rest[end..];
            }
        }
    }
    (rest, block)
}

fn quoted_len(s: &str, quote: u8) -> usize {
    let bytes = s.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        if quote == b'"' && bytes[i] == b'\\' {
            i += 2;
            continue;
        }
        if bytes[i] == quote {
            if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i += 1;
    }
    s.len()
}

/// Numbers, booleans and null are literals (YAML 1.2 core schema, plus the common spellings).
fn scalar_tok(s: &str) -> Tok {
    let lower = s.to_ascii_lowercase();
    let is_number = {
        let t = s.strip_prefix(['-', '+']).unwrap_or(s);
        !t.is_empty()
            && (t.bytes().all(|b| b.is_ascii_digit())
                || t.parse::<f64>().is_ok()
                    && t.bytes().any(|b| b.is_ascii_digit())
                    && !t.contains(char::is_alphabetic)
                || t.starts_with("0x") && t.len() > 2 && t[2..].bytes().all(|b| b.is_ascii_hexdigit())
                || t.starts_with("0o") && t.len() > 2 && t[2..].bytes().all(|b| (b'0'..=b'7').contains(&b)))
    };
    if is_number || matches!(lower.as_str(), "true" | "false" | "null" | "~" | ".inf" | "-.inf" | ".nan") {
        Tok::Literal
    } else {
        Tok::Plain
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    fn check(text: &str, expect: Expect) {
        let mut out = String::new();
        for line in highlight(text) {
            let pieces: Vec<String> = line
                .iter()
                .filter(|(t, _)| *t != Tok::Space)
                .map(|(t, s)| format!("{}({s})", t.class().unwrap_or("?").trim_start_matches("t-")))
                .collect();
            out += &pieces.join(" ");
            out.push('\n');
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn pieces_concatenate_to_the_text() {
        let text = "a: b # c\n- x: [1, 'two', {k: v}]\n  s: |\n    keep: this\n  n: 3\n---\n\"q\": x";
        let joined: Vec<String> =
            highlight(text).iter().map(|l| l.iter().map(|(_, s)| s.as_str()).collect::<String>()).collect();
        assert_eq!(joined.join("\n"), text);
    }

    #[test]
    fn a_window_is_coloured_as_in_the_whole_text() {
        let text = "# c\napiVersion: v1\ndata:\n  a: |\n    x: 1\n\n    # not a comment\n  b: >-\n\tkey: v\n    y\nkind: ConfigMap\n- |\n  - z\n";
        let all = highlight(text);
        let starts = line_starts(text);
        assert_eq!(starts.len(), all.len());
        for from in 0..=all.len() {
            for to in from..=all.len() + 2 {
                assert_eq!(highlight_lines(text, &starts, from, to), all[from..to.min(all.len())], "{from}..{to}");
            }
        }
        assert_eq!(line_starts(""), vec![0]);
        assert_eq!(highlight_lines("", &[0], 0, 5), highlight(""));
    }

    #[test]
    fn colours_a_manifest() {
        check(
            "# a pod\napiVersion: v1\nkind: Pod\nmetadata:\n  name: \"web\"\n  labels: {app: web}\nspec:\n  replicas: 3\n  containers:\n  - name: web\n    command: [\"sh\", \"-c\"]\n    args:\n    - |\n      echo hi: there\n      # not a comment\n    tty: true\n---\nanchor: &a x\nref: *a\nempty:\nurl: http://x:80/a#b # c\n",
            expect![[r#"
                com(# a pod)
                key(apiVersion) punct(:) plain(v1)
                key(kind) punct(:) plain(Pod)
                key(metadata) punct(:)
                key(name) punct(:) str("web")
                key(labels) punct(:) punct({) key(app) punct(:) plain(web) punct(})
                key(spec) punct(:)
                key(replicas) punct(:) lit(3)
                key(containers) punct(:)
                punct(-) key(name) punct(:) plain(web)
                key(command) punct(:) punct([) str("sh") punct(,) str("-c") punct(])
                key(args) punct(:)
                punct(-) punct(|)
                str(echo hi: there)
                str(# not a comment)
                key(tty) punct(:) lit(true)
                doc(---)
                key(anchor) punct(:) meta(&a) plain(x)
                key(ref) punct(:) meta(*a)
                key(empty) punct(:)
                key(url) punct(:) plain(http://x:80/a#b) com(# c)

            "#]],
        );
    }
}
