//! RFC 6902 JSON Patch, as mutating webhooks return it (`patchType: JSONPatch`).
//!
//! The API server applies a webhook's patch to the object's JSON and decodes the result; a
//! patch that does not apply fails the request with an internal error. The error texts follow
//! the patch library upstream uses (evanphx/json-patch) in shape; they are not byte-exact.

use serde_json::Value;

/// Why a patch did not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchError(pub String);

impl std::fmt::Display for PatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

fn segments(path: &str) -> Result<Vec<String>, PatchError> {
    if path.is_empty() {
        return Ok(vec![]);
    }
    if !path.starts_with('/') {
        return Err(PatchError(format!("invalid path: {path:?}")));
    }
    Ok(path[1..].split('/').map(unescape).collect())
}

fn missing(op: &str, path: &str) -> PatchError {
    PatchError(format!("{op} operation does not apply: doc is missing path: {path:?}: missing value"))
}

/// The parent container of `path` and the last segment.
fn parent<'v>(doc: &'v mut Value, segs: &[String], op: &str, path: &str) -> Result<&'v mut Value, PatchError> {
    let mut cur = doc;
    for s in &segs[..segs.len().saturating_sub(1)] {
        cur = match cur {
            Value::Object(m) => m.get_mut(s).ok_or_else(|| missing(op, path))?,
            Value::Array(a) => {
                let i: usize = s.parse().map_err(|_| missing(op, path))?;
                a.get_mut(i).ok_or_else(|| missing(op, path))?
            }
            _ => return Err(missing(op, path)),
        };
    }
    Ok(cur)
}

fn get<'v>(doc: &'v Value, path: &str) -> Option<&'v Value> {
    let segs = segments(path).ok()?;
    let mut cur = doc;
    for s in &segs {
        cur = match cur {
            Value::Object(m) => m.get(s)?,
            Value::Array(a) => a.get(s.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn add(doc: &mut Value, path: &str, value: Value, op: &str) -> Result<(), PatchError> {
    let segs = segments(path)?;
    let Some(last) = segs.last() else {
        *doc = value;
        return Ok(());
    };
    match parent(doc, &segs, op, path)? {
        Value::Object(m) => {
            m.insert(last.clone(), value);
            Ok(())
        }
        Value::Array(a) => {
            if last == "-" {
                a.push(value);
                return Ok(());
            }
            let i: usize = last.parse().map_err(|_| missing(op, path))?;
            if i > a.len() {
                return Err(PatchError(format!("{op} operation does not apply: index out of bounds: {path:?}")));
            }
            a.insert(i, value);
            Ok(())
        }
        _ => Err(missing(op, path)),
    }
}

fn remove(doc: &mut Value, path: &str, op: &str) -> Result<Value, PatchError> {
    let segs = segments(path)?;
    let Some(last) = segs.last() else { return Err(missing(op, path)) };
    match parent(doc, &segs, op, path)? {
        Value::Object(m) => m.shift_remove(last).ok_or_else(|| missing(op, path)),
        Value::Array(a) => {
            let i: usize = last.parse().map_err(|_| missing(op, path))?;
            if i >= a.len() {
                return Err(missing(op, path));
            }
            Ok(a.remove(i))
        }
        _ => Err(missing(op, path)),
    }
}

/// Applies a JSON Patch (an array of operations) to `doc`.
pub fn apply_patch(doc: &mut Value, patch: &Value) -> Result<(), PatchError> {
    let Some(ops) = patch.as_array() else {
        return Err(PatchError("a JSON patch must be an array of operations".into()));
    };
    for o in ops {
        let op = o.get("op").and_then(Value::as_str).unwrap_or("");
        let path = o.get("path").and_then(Value::as_str).unwrap_or("");
        let value = o.get("value").cloned();
        let from = o.get("from").and_then(Value::as_str).unwrap_or("");
        match op {
            "add" => add(doc, path, value.unwrap_or(Value::Null), op)?,
            "remove" => {
                remove(doc, path, op)?;
            }
            "replace" => {
                remove(doc, path, op)?;
                add(doc, path, value.unwrap_or(Value::Null), op)?;
            }
            "move" => {
                let v = remove(doc, from, op)?;
                add(doc, path, v, op)?;
            }
            "copy" => {
                let v = get(doc, from).cloned().ok_or_else(|| missing(op, from))?;
                add(doc, path, v, op)?;
            }
            "test" => {
                if get(doc, path) != value.as_ref() {
                    return Err(PatchError(format!("testing value {path:?} failed: test failed")));
                }
            }
            other => return Err(PatchError(format!("Unexpected kind: {other}"))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn applies_the_operations_webhooks_use() {
        let mut doc = json!({"metadata": {"name": "web"}, "spec": {"containers": [{"name": "web"}]}});
        let patch = json!([
            {"op": "add", "path": "/spec/containers/-", "value": {"name": "proxy"}},
            {"op": "add", "path": "/metadata/labels", "value": {"team": "a"}},
            {"op": "add", "path": "/metadata/labels/app.kubernetes.io~1name", "value": "web"},
            {"op": "replace", "path": "/spec/containers/0/name", "value": "app"},
            {"op": "copy", "from": "/metadata/name", "path": "/metadata/labels/copied"},
            {"op": "test", "path": "/metadata/labels/team", "value": "a"},
            {"op": "remove", "path": "/metadata/labels/copied"}
        ]);
        apply_patch(&mut doc, &patch).unwrap();
        assert_eq!(
            doc,
            json!({"metadata": {"name": "web", "labels": {"team": "a", "app.kubernetes.io/name": "web"}},
                "spec": {"containers": [{"name": "app"}, {"name": "proxy"}]}})
        );
        let err = apply_patch(&mut doc, &json!([{"op": "add", "path": "/spec/volumes/-", "value": {}}])).unwrap_err();
        assert_eq!(err.0, "add operation does not apply: doc is missing path: \"/spec/volumes/-\": missing value");
    }
}
