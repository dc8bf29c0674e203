//! kubectl's side of decoding: a YAML document converted to the JSON it sends, the way
//! sigs.k8s.io/yaml over yaml.v2 does (YAML 1.1 scalars, integral floats as integers, keys
//! as strings, sorted), then its `apiVersion`/`kind` checks and resource mapping. Its errors
//! are `DecodeError::Client`: nothing reaches the server.

use crate::decode::{ClientError, DecodeError};
use crate::errors::go_json;
use crate::linemap::{self, Entry, ScalarStyle, Segment};
use crate::manifest::Document;
use crate::object::resource_for;
use serde_json::{Map, Number, Value};

pub(crate) fn client(error: ClientError, paths: Vec<String>) -> DecodeError {
    DecodeError::Client { error, paths }
}

/// The JSON kubectl sends for a document, after its client-side checks.
pub fn request_body(doc: &Document) -> Result<Value, DecodeError> {
    let mut conv = Converter { source: &doc.source, first_line: doc.line, plain: None };
    let mut path = Vec::new();
    let body = conv.convert(&doc.value, &mut path)?;
    let Value::Object(fields) = &body else {
        return Err(client(ClientError::Validating(vec!["invalid object to validate".into()]), vec![]));
    };
    let mut problems = Vec::new();
    let mut paths = Vec::new();
    let mut group_version = None;
    match fields.get("apiVersion") {
        None | Some(Value::Null) => problems.push("apiVersion not set".to_string()),
        Some(Value::String(gv)) => match parse_group_version(gv) {
            Ok(v) => group_version = Some(v),
            Err(e) => problems.push(e),
        },
        Some(_) => problems.push("apiVersion isn't string type".to_string()),
    }
    if !problems.is_empty() {
        paths.push("apiVersion".to_string());
    }
    match fields.get("kind") {
        None | Some(Value::Null) => problems.push("kind not set".to_string()),
        Some(Value::String(_)) => {}
        Some(_) => problems.push("kind isn't string type".to_string()),
    }
    if problems.len() > paths.len() {
        paths.push("kind".to_string());
    }
    if !problems.is_empty() {
        return Err(client(ClientError::Validating(problems), paths));
    }
    let kind = fields.get("kind").and_then(Value::as_str).unwrap_or_default();
    let (group, version) = group_version.unwrap_or_default();
    if kind.is_empty() {
        return Err(client(ClientError::MissingKind { body: go_json(&body) }, vec!["kind".into()]));
    }
    let api_version = if group.is_empty() { version.clone() } else { format!("{group}/{version}") };
    if resource_for(&api_version, kind).is_none() && !ALSO_SERVED.contains(&(api_version.as_str(), kind)) {
        let meta = fields.get("metadata");
        let text = |k: &str| meta.and_then(|m| m.get(k)).and_then(Value::as_str).unwrap_or_default().to_string();
        return Err(client(
            ClientError::NoKindMatch {
                kind: kind.to_string(),
                version: api_version,
                name: text("name"),
                namespace: text("namespace"),
            },
            vec!["apiVersion".into(), "kind".into()],
        ));
    }
    Ok(body)
}

/// Group-versions a v1.37 API server still serves for a kind, besides the one in
/// [`crate::object::RESOURCES`] (which lists one version per kind).
pub(crate) const ALSO_SERVED: &[(&str, &str)] = &[("autoscaling/v1", "HorizontalPodAutoscaler")];

/// `schema.ParseGroupVersion`: `v1`, `apps/v1`; more than one `/` is an error.
pub(crate) fn parse_group_version(gv: &str) -> Result<(String, String), String> {
    if gv.is_empty() || gv == "/" {
        return Ok((String::new(), String::new()));
    }
    match gv.matches('/').count() {
        0 => Ok((String::new(), gv.to_string())),
        1 => {
            let (g, v) = gv.split_once('/').unwrap_or_default();
            Ok((g.to_string(), v.to_string()))
        }
        _ => Err(format!("unexpected GroupVersion string: {gv}")),
    }
}

pub(crate) struct Converter<'a> {
    pub(crate) source: &'a str,
    pub(crate) first_line: usize,
    /// The paths of plain scalars in the document's text, found the first time one is in
    /// question.
    pub(crate) plain: Option<std::collections::BTreeSet<String>>,
}

impl Converter<'_> {
    pub(crate) fn is_plain(&mut self, path: &[Segment]) -> bool {
        let plain = self.plain.get_or_insert_with(|| {
            let entries: Vec<Entry> = linemap::scan(self.source, self.first_line);
            entries
                .iter()
                .filter(|e| e.value.is_some_and(|v| v.0 == ScalarStyle::Plain))
                .map(|e| linemap::path_to_string(&e.path))
                .collect()
        });
        plain.contains(&linemap::path_to_string(path))
    }

    pub(crate) fn convert(&mut self, v: &serde_yaml::Value, path: &mut Vec<Segment>) -> Result<Value, DecodeError> {
        Ok(match v {
            serde_yaml::Value::Null => Value::Null,
            serde_yaml::Value::Bool(b) => Value::Bool(*b),
            serde_yaml::Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Value::from(i)
                } else if let Some(u) = n.as_u64() {
                    Value::from(u)
                } else {
                    let f = n.as_f64().unwrap_or(0.0);
                    json_float(f).map_err(|m| client(ClientError::Convert(m), vec![linemap::path_to_string(path)]))?
                }
            }
            serde_yaml::Value::String(s) => {
                if may_resolve_differently(s) && self.is_plain(path) {
                    match yaml11_resolve(s) {
                        Some(Yaml11::Bool(b)) => Value::Bool(b),
                        Some(Yaml11::Int(i)) => Value::from(i),
                        Some(Yaml11::Uint(u)) => Value::from(u),
                        Some(Yaml11::Float(f)) => json_float(f)
                            .map_err(|m| client(ClientError::Convert(m), vec![linemap::path_to_string(path)]))?,
                        None => Value::String(s.clone()),
                    }
                } else {
                    Value::String(s.clone())
                }
            }
            serde_yaml::Value::Sequence(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    path.push(Segment::Index(i));
                    let r = self.convert(item, path);
                    path.pop();
                    out.push(r?);
                }
                Value::Array(out)
            }
            serde_yaml::Value::Mapping(m) => {
                // A Go map: two keys that read the same (`1` and `"1"`) keep the last value, and the
                // encoding lists keys in byte order.
                let mut pairs: std::collections::BTreeMap<String, Value> = std::collections::BTreeMap::new();
                for (k, val) in m {
                    let key = match k {
                        serde_yaml::Value::String(s) => s.clone(),
                        serde_yaml::Value::Bool(b) => b.to_string(),
                        serde_yaml::Value::Number(n) => match n.as_i64() {
                            Some(i) => i.to_string(),
                            None => match n.as_u64() {
                                Some(u) => u.to_string(),
                                None => go_float32_key(n.as_f64().unwrap_or(0.0)),
                            },
                        },
                        other => {
                            let kind = match other {
                                serde_yaml::Value::Null => "<nil>",
                                serde_yaml::Value::Sequence(_) => "[]interface {}",
                                _ => "map[interface {}]interface {}",
                            };
                            return Err(client(
                                ClientError::Convert(format!("unsupported map key of type: {kind}")),
                                vec![linemap::path_to_string(path)],
                            ));
                        }
                    };
                    path.push(Segment::Key(key.clone()));
                    let r = self.convert(val, path);
                    path.pop();
                    let r = r?;
                    pairs.insert(key, r);
                }
                Value::Object(pairs.into_iter().collect::<Map<String, Value>>())
            }
            serde_yaml::Value::Tagged(t) => self.convert(&t.value, path)?,
        })
    }
}

/// A float as Go's `json.Marshal` writes it: integral values as integers, NaN and infinities
/// refused.
pub(crate) fn json_float(f: f64) -> Result<Value, String> {
    if f.is_nan() {
        return Err("json: unsupported value: NaN".into());
    }
    if f.is_infinite() {
        return Err(format!("json: unsupported value: {}", if f > 0.0 { "+Inf" } else { "-Inf" }));
    }
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        return Ok(Value::from(f as i64));
    }
    Ok(Number::from_f64(f).map(Value::Number).unwrap_or(Value::Null))
}

/// A float key as sigs.k8s.io/yaml writes it (`strconv.FormatFloat(f, 'g', -1, 32)`).
pub(crate) fn go_float32_key(f: f64) -> String {
    let g = f as f32;
    if g.is_infinite() {
        return if g > 0.0 { ".inf".into() } else { "-.inf".into() };
    }
    if g.is_nan() {
        return ".nan".into();
    }
    format!("{g}")
}

pub(crate) enum Yaml11 {
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
}

/// Whether yaml.v2 (YAML 1.1) might read this plain scalar as something other than the
/// string serde_yaml (YAML 1.2) made of it.
pub(crate) fn may_resolve_differently(s: &str) -> bool {
    matches!(
        s,
        "y" | "Y" | "yes" | "Yes" | "YES" | "n" | "N" | "no" | "No" | "NO" | "on" | "On" | "ON" | "off" | "Off" | "OFF"
    ) || s.as_bytes().first().is_some_and(|b| b.is_ascii_digit() || *b == b'+' || *b == b'-')
}

/// yaml.v2's resolution of a plain scalar that serde_yaml left as a string.
pub(crate) fn yaml11_resolve(s: &str) -> Option<Yaml11> {
    match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => return Some(Yaml11::Bool(true)),
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => return Some(Yaml11::Bool(false)),
        _ => {}
    }
    let plain: String = s.chars().filter(|c| *c != '_').collect();
    if let Some(i) = go_parse_int(&plain) {
        return Some(i);
    }
    if is_yaml_style_float(&plain) {
        if let Ok(f) = plain.parse::<f64>() {
            return Some(Yaml11::Float(f));
        }
    }
    None
}

/// `strconv.ParseInt(s, 0, 64)`, falling back to `ParseUint`.
pub(crate) fn go_parse_int(s: &str) -> Option<Yaml11> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if let Some(d) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        (16, d)
    } else if let Some(d) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
        (8, d)
    } else if let Some(d) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        (2, d)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if neg {
        if magnitude <= i64::MAX as u64 + 1 {
            return Some(Yaml11::Int((magnitude as i128).wrapping_neg() as i64));
        }
        None
    } else if magnitude <= i64::MAX as u64 {
        Some(Yaml11::Int(magnitude as i64))
    } else {
        Some(Yaml11::Uint(magnitude))
    }
}

/// yaml.v2's float pattern: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
pub(crate) fn is_yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}
