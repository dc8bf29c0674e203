//! YAML text of a JSON value, byte for byte as `serde_yaml::to_string` writes it, without
//! running libyaml's emitter for every node.
//!
//! The trace shows objects as YAML (the etcd values and changes of kubectl's requests, the
//! defaults and mutations of admission), and serde_yaml's emitter is most of what writing
//! them costs. The layout of block mappings and sequences is simple and is written here; so
//! are the scalars that are surely plain (an identifier-like string, an integer, a boolean,
//! null). Every other scalar is handed to serde_yaml on its own: how libyaml quotes a
//! one-line scalar (plain, single- or double-quoted) does not depend on where it stands in
//! block style. A value with a multi-line string (a block scalar, whose indentation and
//! chomping depend on its place) or a key longer than a simple key may be goes to serde_yaml
//! whole. Tests compare the two on generated values, and `tests/yaml.rs` on every manifest
//! of the examples and corpora.

use serde_json::{Map, Value};

/// `serde_yaml::to_string(v)`.
pub fn to_string(v: &Value) -> String {
    if matches!(v, Value::String(s) if s.contains('\n')) || needs_serde_yaml(v) {
        return serde_yaml::to_string(v).unwrap_or_default();
    }
    let mut out = String::with_capacity(256);
    match v {
        Value::Object(m) if !m.is_empty() => map(&mut out, m, 0, false),
        Value::Array(a) if !a.is_empty() => seq(&mut out, a, 0, false),
        other => {
            scalar(&mut out, other);
            out.push('\n');
        }
    }
    out
}

/// Whether some part of `v` is written in a way that depends on its place in the document.
fn needs_serde_yaml(v: &Value) -> bool {
    match v {
        Value::String(s) => s.contains('\n') && !plain_literal(s),
        Value::Array(a) => a.iter().any(needs_serde_yaml),
        // libyaml writes a key of 128 bytes or more as a complex key (`? key`).
        Value::Object(m) => m.iter().any(|(k, v)| k.len() >= 128 || k.contains('\n') || needs_serde_yaml(v)),
        _ => false,
    }
}

fn indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// Entries at column `col`; the first one continues the current line when `inline` (an
/// item of a sequence).
fn map(out: &mut String, m: &Map<String, Value>, col: usize, inline: bool) {
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 || !inline {
            indent(out, col);
        }
        string(out, k);
        out.push(':');
        match v {
            Value::Object(inner) if !inner.is_empty() => {
                out.push('\n');
                map(out, inner, col + 2, false);
            }
            // A sequence in a mapping is not indented.
            Value::Array(items) if !items.is_empty() => {
                out.push('\n');
                seq(out, items, col, false);
            }
            Value::String(s) if s.contains('\n') => literal(out, s, col + 2),
            other => {
                out.push(' ');
                scalar(out, other);
                out.push('\n');
            }
        }
    }
}

/// Items at column `col` (`- ` then the item's content two columns further).
fn seq(out: &mut String, items: &[Value], col: usize, inline: bool) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 || !inline {
            indent(out, col);
        }
        out.push_str("- ");
        match item {
            Value::Object(m) if !m.is_empty() => map(out, m, col + 2, true),
            Value::Array(a) if !a.is_empty() => seq(out, a, col + 2, true),
            Value::String(s) if s.contains('\n') => {
                // `- ` ends in a space already: `- |`.
                out.pop();
                literal(out, s, col + 2);
            }
            other => {
                scalar(out, other);
                out.push('\n');
            }
        }
    }
}

/// A multi-line string that serde_yaml writes as a literal block scalar (`|`, or `|-` without
/// a final line break) whose lines are the string's, each indented to `col` (an empty line
/// stays empty). The caller's line so far ends where ` |` goes.
fn literal(out: &mut String, s: &str, col: usize) {
    out.push_str(if s.ends_with('\n') { " |\n" } else { " |-\n" });
    for line in s.strip_suffix('\n').unwrap_or(s).split('\n') {
        if !line.is_empty() {
            indent(out, col);
            out.push_str(line);
        }
        out.push('\n');
    }
}

/// A multi-line string whose literal block libyaml writes the same wherever it stands in
/// block style: printable ASCII and line breaks only (no special characters), no space at
/// its end or before a break (which rule a block scalar out), no space or break at its start
/// (which add an indentation hint) and at most one break at its end (more add the `+`
/// chomping hint and can end the document with `...`).
fn plain_literal(s: &str) -> bool {
    s.bytes().all(|b| b == b'\n' || (b' '..=b'~').contains(&b))
        && !s.starts_with([' ', '\n'])
        && !s.ends_with(' ')
        && !s.ends_with("\n\n")
        && !s.contains(" \n")
}

/// A scalar, or an empty mapping or sequence (`{}`, `[]`).
fn scalar(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) if n.is_i64() || n.is_u64() => out.push_str(&n.to_string()),
        Value::String(s) => string(out, s),
        Value::Object(_) => out.push_str("{}"),
        Value::Array(_) => out.push_str("[]"),
        other => by_serde_yaml(out, other),
    }
}

fn string(out: &mut String, s: &str) {
    if surely_plain(s) {
        out.push_str(s);
    } else {
        by_serde_yaml(out, &Value::String(s.to_string()));
    }
}

/// One one-line scalar as serde_yaml writes it.
fn by_serde_yaml(out: &mut String, v: &Value) {
    let text = serde_yaml::to_string(v).unwrap_or_default();
    out.push_str(text.strip_suffix('\n').unwrap_or(&text));
}

/// A string serde_yaml writes plain: it starts with a letter or `/`, holds only letters,
/// digits and `._/-`, and reads as no other YAML scalar (a boolean, null or number in any of
/// the spellings YAML 1.1 or 1.2 have; the others go through serde_yaml, which knows).
fn surely_plain(s: &str) -> bool {
    let mut bytes = s.bytes();
    let Some(first) = bytes.next() else { return false };
    if !(first.is_ascii_alphabetic() || first == b'/') {
        return false;
    }
    if !bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'/' | b'-')) {
        return false;
    }
    const WORDS: [&str; 10] = ["null", "true", "false", "yes", "no", "on", "off", "y", "n", "nan"];
    if s.len() <= 5 && WORDS.iter().any(|w| w.eq_ignore_ascii_case(s)) {
        return false;
    }
    s.parse::<f64>().is_err()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn same(v: &Value) {
        assert_eq!(to_string(v), serde_yaml::to_string(v).unwrap(), "{v}");
    }

    #[test]
    fn layouts_and_scalars() {
        same(&json!({
            "a": 1, "b": "x y", "c": [], "d": {}, "neg": -3, "big": u64::MAX,
            "e": [1, {"k": "v", "k2": ["x", "y"], "k3": {"z": 1}}, [2, 3, [4]], {}, [], null],
            "f": {"g": [{"h": 1, "i": [{"j": {}}]}], "i": null, "j": true, "k": 1.5, "l": "", "m": false},
            "nested": [[[]]], "f64": 2.0, "80": "key", "": "empty key", "a b": "spaced key", "k: v": 1,
        }));
        let strings = [
            "80",
            "a: b",
            "tab\there",
            "it's",
            "-x",
            " lead",
            "trail ",
            "é",
            "#x",
            "x #y",
            "yes",
            "Null",
            "1e5",
            ".inf",
            "0o17",
            "\"quoted\"",
            "back\\slash",
            "ctrl\u{7}",
            "~",
            "[x]",
            "{x}",
            "*x",
            "&x",
            "!x",
            "|",
            ">",
            "%x",
            "@x",
            "`x`",
            "NaN",
            "Infinity",
            "012",
            "1_000",
            "+1",
            "1.",
            "6e-3",
            "0x1f",
            "2026-12-04",
            "12:30",
            "http://x.y/z?a=b&c",
            "one\ntwo\n",
            "a\n\nb",
            "x\n\n",
            "\n x",
            "web-7d4b9c8f6d-x2x9z",
            "/registry/pods",
        ];
        for s in strings {
            same(&json!({ "k": s, "list": [s, { s: s }] }));
        }
        // Multi-line strings as values and items (block scalars), with a key after them and
        // at the end of the document.
        let multi_line = [
            "one\ntwo",
            "one\ntwo\n",
            "a\n\nb\n",
            "a\n  indented\nb",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}\n",
            "key: value\n# not a comment\n- not an item\n",
            "--- x\n...\n",
            "trailing space \nx",
            "x\n\n",
            "\nleading break",
            " leading space\nx",
            "ends in a space\nx ",
            "tab\tinside\nx",
            "é\nx",
            "\n",
        ];
        for s in multi_line {
            same(&json!({ "k": s, "list": [s, [s, [s]], { "in": s, "after": 1 }], "z": s }));
            same(&json!([s, { "m": { "n": s } }]));
        }
        for v in
            [json!("foo"), json!("80"), json!(""), json!(null), json!(3), json!([]), json!({}), json!(["a", {"b": []}])]
        {
            same(&v);
        }
        let long_key = "k".repeat(130);
        same(&json!({ long_key: "v", "short": "w" }));
    }

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| json!(f)),
            "[a-zA-Z0-9 ._/:#'\"\\\\~!&*?|>%@`,\\[\\]{}=+\\t\\n-]{0,12}".prop_map(Value::String),
            "[a-z][a-z0-9.-]{0,10}".prop_map(Value::String),
            "[0-9.+eExo_-][0-9a-fA-F.eE_-]{0,5}".prop_map(Value::String),
        ]
    }

    fn tree() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec(("[a-zA-Z0-9 ._/:-]{0,10}", inner), 0..5)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn agrees_with_serde_yaml_on_generated_values(v in tree()) {
            prop_assert_eq!(to_string(&v), serde_yaml::to_string(&v).unwrap());
        }
    }
}
