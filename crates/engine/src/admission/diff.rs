//! What a mutating plugin changed: a structural diff of the object's JSON before and after.

use crate::trace::Change;
use serde_json::Value;

/// The changes from `before` to `after`, as JSON-pointer paths (`/spec/containers/0/image`)
/// with the old and new values as YAML fragments. Objects are compared key by key, arrays
/// element by element (so an appended container is one change at `/spec/containers/1`); a new
/// map or list shows as one change with the whole value.
pub fn diff(before: &Value, after: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    walk(&mut String::new(), Some(before), Some(after), &mut out);
    out
}

/// RFC 6901 escaping of one path segment.
pub(crate) fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

fn fragment(v: &Value) -> String {
    crate::yaml::to_string(v).trim_end().to_string()
}

/// Appends `/` and the escaped `segment` to `path`.
fn push_segment(path: &mut String, segment: &str) {
    path.push('/');
    if segment.contains(['~', '/']) {
        path.push_str(&escape(segment));
    } else {
        path.push_str(segment);
    }
}

fn walk(path: &mut String, before: Option<&Value>, after: Option<&Value>, out: &mut Vec<Change>) {
    match (before, after) {
        (Some(Value::Object(b)), Some(Value::Object(a))) => {
            for (k, bv) in b {
                let av = a.get(k);
                // Equal subtrees have nothing to report: skip them without building paths.
                if av == Some(bv) {
                    continue;
                }
                let len = path.len();
                push_segment(path, k);
                walk(path, Some(bv), av, out);
                path.truncate(len);
            }
            for (k, av) in a {
                if !b.contains_key(k) {
                    let len = path.len();
                    push_segment(path, k);
                    walk(path, None, Some(av), out);
                    path.truncate(len);
                }
            }
        }
        (Some(Value::Array(b)), Some(Value::Array(a))) => {
            for i in 0..b.len().max(a.len()) {
                let (bv, av) = (b.get(i), a.get(i));
                if bv == av {
                    continue;
                }
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                walk(path, bv, av, out);
                path.truncate(len);
            }
        }
        (b, a) => {
            if b != a {
                out.push(Change {
                    path: if path.is_empty() { "/".to_string() } else { path.clone() },
                    before: b.map(fragment),
                    after: a.map(fragment),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reports_added_changed_and_removed_values() {
        let before =
            json!({"metadata": {"name": "web", "labels": {"a": "1"}}, "spec": {"containers": [{"name": "web"}]}});
        let after = json!({"metadata": {"name": "web", "labels": {"a": "2"}, "annotations": {"kubernetes.io/x": "y"}},
            "spec": {"containers": [{"name": "web"}, {"name": "log", "image": "busybox"}]}});
        let got: Vec<String> =
            diff(&before, &after).iter().map(|c| format!("{} {:?} -> {:?}", c.path, c.before, c.after)).collect();
        assert_eq!(
            got,
            vec![
                "/metadata/labels/a Some(\"'1'\") -> Some(\"'2'\")",
                "/metadata/annotations None -> Some(\"kubernetes.io/x: y\")",
                "/spec/containers/1 None -> Some(\"name: log\\nimage: busybox\")",
            ]
        );
        assert!(diff(&before, &before).is_empty());
        assert_eq!(escape("a/b~c"), "a~1b~0c");
    }
}
