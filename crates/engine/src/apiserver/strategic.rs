//! A simplified strategic merge patch: the patch format kubectl apply sends for built-in kinds
//! (`application/strategic-merge-patch+json`) and the API server applies.
//!
//! Objects merge key by key and `null` deletes a key, as in a JSON merge patch (RFC 7386).
//! Lists whose elements carry a merge key merge element by element, as upstream's
//! `patchMergeKey` tags say: `containers`, `initContainers`, `ephemeralContainers`, `volumes`,
//! `env`, `imagePullSecrets`, `resourceClaims`, `schedulingGates` by `name`; `volumeMounts` by
//! `mountPath`; `volumeDevices` by `devicePath`; container `ports` by `containerPort` and Service
//! `ports` by `port`; `conditions` by `type`; `ownerReferences` by `uid`; `hostAliases` by `ip`;
//! `topologySpreadConstraints` by `topologyKey`. An element `{"$patch": "delete", <key>: ...}`
//! of a keyed list removes the element with that key (how controllers release an object:
//! `{"$patch": "delete", "uid": ...}` in `ownerReferences`). `finalizers` is a set, as its
//! `patchStrategy:"merge"` says: a patch adds the values it lists, and the
//! `$deleteFromPrimitiveList/finalizers` directive removes values (the job controller's
//! finalizer patch; kubectl apply's patch when a manifest drops a finalizer). Every other list
//! is replaced whole. A `$setElementOrder/<list>` directive next to a keyed list orders the
//! elements it names as it lists them, in the places those elements take in the merged list
//! (elements only the server has keep theirs). A map with `$patch: replace` replaces the map
//! whole. Not supported: other `$patch` directives on maps, `$patch` on whole lists, and
//! `$retainKeys`.
//!
//! [`three_way`] builds kubectl apply's patch as upstream's `CreateThreeWayMergePatch` does:
//! what changed from the live object to the manifest, plus what the last applied
//! configuration had and the manifest no longer has (`null` for a key,
//! `{"$patch": "delete", <key>: ...}` after the other elements of a keyed list,
//! `$deleteFromPrimitiveList/finalizers`), with `$setElementOrder/<list>` naming the
//! manifest's elements in order wherever a keyed list changed.

use serde_json::{Map, Value};

/// The merge key of a list field, given the list's field name and its elements.
fn merge_key(field: &str, elements: &[Value]) -> Option<&'static str> {
    let first = elements.iter().find(|e| e.is_object());
    match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "volumes"
        | "env"
        | "imagePullSecrets"
        | "resourceClaims"
        | "schedulingGates" => Some("name"),
        "volumeMounts" => Some("mountPath"),
        "volumeDevices" => Some("devicePath"),
        "conditions" => Some("type"),
        "ownerReferences" => Some("uid"),
        "hostAliases" => Some("ip"),
        "topologySpreadConstraints" => Some("topologyKey"),
        "ports" => match first {
            Some(e) if e.get("containerPort").is_some() => Some("containerPort"),
            Some(e) if e.get("port").is_some() => Some("port"),
            _ => None,
        },
        _ => None,
    }
}

fn keyed(list: &[Value], key: &str) -> bool {
    list.iter().all(|e| e.get(key).is_some())
}

/// Applies `patch` to `target`.
pub fn merge(target: &mut Value, patch: &Value) {
    merge_field("", target, patch);
}

fn merge_field(field: &str, target: &mut Value, patch: &Value) {
    match patch {
        Value::Object(p) if p.get("$patch").and_then(Value::as_str) == Some("replace") => {
            // `$patch: replace` on a map: the map is the patch's, the directive dropped (the
            // patch a ControllerRevision holds and `kubectl rollout undo` sends for a
            // StatefulSet or DaemonSet: `{"spec":{"template":{..., "$patch":"replace"}}}`).
            let mut replaced = p.clone();
            replaced.remove("$patch");
            *target = Value::Object(replaced);
        }
        Value::Object(p) => {
            if !target.is_object() {
                *target = Value::Object(Map::new());
            }
            if let Value::Object(t) = target {
                for (k, v) in p {
                    if k.starts_with("$setElementOrder/") {
                        // Applied after the list merged, below.
                        continue;
                    }
                    if let Some(list) = k.strip_prefix("$deleteFromPrimitiveList/") {
                        // Removes the listed values from a primitive list (a finalizer, say).
                        let gone = v.as_array().cloned().unwrap_or_default();
                        if let Some(Value::Array(items)) = t.get_mut(list) {
                            items.retain(|x| !gone.contains(x));
                            if items.is_empty() {
                                t.remove(list);
                            }
                        }
                    } else if v.is_null() {
                        t.remove(k);
                    } else {
                        let merged = t.entry(k.clone()).or_insert(Value::Null);
                        merge_field(k, merged, v);
                        // A keyed list whose last element a patch deleted is gone, as an empty
                        // list decodes to an omitted field.
                        if v.as_array().is_some_and(|p| !p.is_empty()) && merged.as_array().is_some_and(Vec::is_empty) {
                            t.remove(k);
                        }
                    }
                }
                for (k, order) in p {
                    if let (Some(list), Value::Array(order)) = (k.strip_prefix("$setElementOrder/"), order) {
                        if let Some(Value::Array(items)) = t.get_mut(list) {
                            set_element_order(list, items, order);
                        }
                    }
                }
            }
        }
        Value::Array(p) if field == "finalizers" && target.is_array() => {
            if let Value::Array(t) = target {
                for v in p {
                    if !t.contains(v) {
                        t.push(v.clone());
                    }
                }
            }
        }
        Value::Array(p) => {
            let key = merge_key(field, p);
            if !target.is_array() && key.is_some() {
                *target = Value::Array(Vec::new());
            }
            match (key, target.as_array_mut()) {
                (Some(key), Some(t)) if keyed(p, key) && keyed(t, key) => {
                    for pe in p {
                        let delete = pe.get("$patch").and_then(Value::as_str) == Some("delete");
                        let at = t.iter().position(|te| te.get(key) == pe.get(key));
                        match at {
                            Some(i) if delete => {
                                t.remove(i);
                            }
                            None if delete => {}
                            Some(i) => merge_field("", &mut t[i], pe),
                            None => t.push(pe.clone()),
                        }
                    }
                }
                _ => *target = patch.clone(),
            }
        }
        other => *target = other.clone(),
    }
}

/// Orders the elements of a merged keyed list that `order` names (`[{<key>: value}, ...]`)
/// as `order` lists them, in the positions those elements hold; the others stay where they
/// are.
fn set_element_order(field: &str, items: &mut [Value], order: &[Value]) {
    let Some(key) = merge_key(field, items).filter(|k| keyed(items, k)) else {
        return;
    };
    let rank = |item: &Value| order.iter().position(|o| o.get(key) == item.get(key));
    let slots: Vec<usize> = (0..items.len()).filter(|&i| rank(&items[i]).is_some()).collect();
    let mut named: Vec<Value> = slots.iter().map(|&i| items[i].clone()).collect();
    crate::sort::sort_by_key(&mut named, |item| rank(item));
    for (slot, item) in slots.into_iter().zip(named) {
        items[slot] = item;
    }
}

/// The patch that takes `current` to `modified`, deleting what `original` (the last applied
/// configuration) had and `modified` no longer has (kubectl's three-way merge, as described
/// in the module docs). An empty object means "nothing to do".
pub fn three_way(original: Option<&Value>, modified: &Value, current: &Value) -> Value {
    diff_field("", original, modified, current).unwrap_or(Value::Object(Map::new()))
}

/// The keyed list's merge key when `modified` and `current` are both lists of elements that
/// carry it (then the list is diffed element by element).
fn keyed_lists(field: &str, modified: &Value, current: &Value) -> Option<&'static str> {
    let (m, c) = (modified.as_array()?, current.as_array()?);
    merge_key(field, m).filter(|k| keyed(m, k) && keyed(c, k))
}

fn diff_field(field: &str, original: Option<&Value>, modified: &Value, current: &Value) -> Option<Value> {
    match (modified, current) {
        (Value::Object(m), Value::Object(c)) => {
            let mut out = Map::new();
            for (k, mv) in m {
                match c.get(k) {
                    Some(Value::Array(cv)) if k == "finalizers" && mv.is_array() => {
                        let mv = mv.as_array().map(Vec::as_slice).unwrap_or_default();
                        let added: Vec<Value> = mv.iter().filter(|v| !cv.contains(v)).cloned().collect();
                        let dropped: Vec<Value> = original
                            .and_then(|o| o.get(k))
                            .and_then(Value::as_array)
                            .map(|o| o.iter().filter(|v| !mv.contains(v) && cv.contains(v)).cloned().collect())
                            .unwrap_or_default();
                        if !added.is_empty() {
                            out.insert(k.clone(), Value::Array(added));
                        }
                        if !dropped.is_empty() {
                            out.insert(format!("$deleteFromPrimitiveList/{k}"), Value::Array(dropped));
                        }
                    }
                    Some(cv) => {
                        let ov = original.and_then(|o| o.get(k));
                        if let Some(d) = diff_field(k, ov, mv, cv) {
                            if let Some(key) = keyed_lists(k, mv, cv) {
                                let order = mv.as_array().into_iter().flatten().filter_map(|e| {
                                    e.get(key).map(|v| Value::Object(Map::from_iter([(key.to_string(), v.clone())])))
                                });
                                out.insert(format!("$setElementOrder/{k}"), Value::Array(order.collect()));
                            }
                            out.insert(k.clone(), d);
                        }
                    }
                    None => {
                        out.insert(k.clone(), mv.clone());
                    }
                }
            }
            if let Some(Value::Object(o)) = original {
                for k in o.keys() {
                    if !m.contains_key(k) {
                        out.insert(k.clone(), Value::Null);
                    }
                }
            }
            if out.is_empty() {
                None
            } else {
                Some(Value::Object(out))
            }
        }
        (Value::Array(m), Value::Array(c)) => {
            if let Some(key) = keyed_lists(field, modified, current) {
                let mut out = Vec::new();
                for me in m {
                    let ce = c.iter().find(|ce| ce.get(key) == me.get(key));
                    match ce {
                        Some(ce) => {
                            let oe = original
                                .and_then(Value::as_array)
                                .and_then(|o| o.iter().find(|oe| oe.get(key) == me.get(key)));
                            if let Some(Value::Object(mut d)) = diff_field("", oe, me, ce) {
                                let mut with_key = Map::new();
                                if let Some(kv) = me.get(key) {
                                    with_key.insert(key.to_string(), kv.clone());
                                }
                                with_key.append(&mut d);
                                out.push(Value::Object(with_key));
                            }
                        }
                        None => out.push(me.clone()),
                    }
                }
                // What the last applied configuration listed and the manifest no longer does.
                for oe in original.and_then(Value::as_array).into_iter().flatten() {
                    if let Some(kv) = oe.get(key).filter(|kv| !m.iter().any(|me| me.get(key) == Some(*kv))) {
                        out.push(Value::Object(Map::from_iter([
                            ("$patch".to_string(), Value::String("delete".into())),
                            (key.to_string(), kv.clone()),
                        ])));
                    }
                }
                if out.is_empty() {
                    None
                } else {
                    Some(Value::Array(out))
                }
            } else if m == c {
                None
            } else {
                Some(modified.clone())
            }
        }
        _ => {
            if modified == current {
                None
            } else {
                Some(modified.clone())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merges_keyed_lists_and_diffs_back_to_nothing() {
        let current = json!({"metadata": {"name": "web", "labels": {"a": "1"}},
            "spec": {"containers": [{"name": "web", "image": "nginx:1.28", "imagePullPolicy": "IfNotPresent"}]}});
        let modified = json!({"metadata": {"name": "web", "labels": {"a": "1"}},
            "spec": {"containers": [{"name": "web", "image": "nginx:1.29"}]}});
        let patch = three_way(None, &modified, &current);
        assert_eq!(
            patch,
            json!({"spec": {"$setElementOrder/containers": [{"name": "web"}],
                "containers": [{"name": "web", "image": "nginx:1.29"}]}})
        );
        let mut merged = current.clone();
        merge(&mut merged, &patch);
        assert_eq!(merged["spec"]["containers"][0]["imagePullPolicy"], "IfNotPresent");
        assert_eq!(merged["spec"]["containers"][0]["image"], "nginx:1.29");
        assert_eq!(three_way(Some(&modified), &modified, &merged), json!({}));
        // A label the last applied configuration had and the manifest dropped is deleted.
        let original = json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
        let current = json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
        let modified = json!({"metadata": {"labels": {"a": "1"}}});
        assert_eq!(three_way(Some(&original), &modified, &current), json!({"metadata": {"labels": {"b": null}}}));
    }

    #[test]
    fn an_element_the_manifest_dropped_is_deleted_and_order_follows_the_manifest() {
        // The last applied configuration exposed port 80; the manifest now exposes 8080.
        let original = json!({"spec": {"containers": [{"name": "web", "ports": [{"containerPort": 80}]}]}});
        let current = json!({"spec": {"containers": [{"name": "web", "image": "nginx",
            "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}});
        let modified = json!({"spec": {"containers": [{"name": "web", "ports": [{"containerPort": 8080}]}]}});
        let patch = three_way(Some(&original), &modified, &current);
        assert_eq!(
            patch,
            json!({"spec": {"$setElementOrder/containers": [{"name": "web"}], "containers": [{"name": "web",
                "$setElementOrder/ports": [{"containerPort": 8080}],
                "ports": [{"containerPort": 8080}, {"$patch": "delete", "containerPort": 80}]}]}})
        );
        let mut merged = current.clone();
        merge(&mut merged, &patch);
        assert_eq!(merged["spec"]["containers"][0]["ports"], json!([{"containerPort": 8080}]));
        assert!(merged["spec"]["containers"][0].get("$setElementOrder/ports").is_none());

        // A new element goes where the manifest puts it; one only the server has keeps its place.
        let mut live = json!({"env": [{"name": "INJECTED"}, {"name": "A"}, {"name": "C"}]});
        let patch =
            json!({"$setElementOrder/env": [{"name": "A"}, {"name": "B"}, {"name": "C"}], "env": [{"name": "B"}]});
        merge(&mut live, &patch);
        assert_eq!(live, json!({"env": [{"name": "INJECTED"}, {"name": "A"}, {"name": "B"}, {"name": "C"}]}));
    }

    #[test]
    fn a_controller_adopts_and_releases_through_owner_references() {
        let rs = json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web", "uid": "u-rs",
            "controller": true, "blockOwnerDeletion": true});
        let other = json!({"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "uid": "u-cm"});
        let mut pod = json!({"metadata": {"name": "p", "uid": "u-p", "ownerReferences": [other]}});
        merge(&mut pod, &json!({"metadata": {"ownerReferences": [rs], "uid": "u-p"}}));
        assert_eq!(pod["metadata"]["ownerReferences"], json!([other, rs]));
        let release = json!({"metadata": {"ownerReferences": [{"$patch": "delete", "uid": "u-rs"}], "uid": "u-p"}});
        merge(&mut pod, &release);
        assert_eq!(pod["metadata"]["ownerReferences"], json!([other]));
        // Deleting the last reference leaves no list; deleting a missing one changes nothing.
        merge(&mut pod, &json!({"metadata": {"ownerReferences": [{"$patch": "delete", "uid": "u-cm"}]}}));
        assert_eq!(pod["metadata"], json!({"name": "p", "uid": "u-p"}));
        merge(&mut pod, &release);
        assert_eq!(pod["metadata"], json!({"name": "p", "uid": "u-p"}));
        // An orphan with no references at all gets the list.
        merge(&mut pod, &json!({"metadata": {"ownerReferences": [rs]}}));
        assert_eq!(pod["metadata"]["ownerReferences"], json!([rs]));
    }

    #[test]
    fn finalizers_merge_as_a_set() {
        let mut pod = json!({"metadata": {"finalizers": ["a/keep"]}});
        merge(&mut pod, &json!({"metadata": {"finalizers": ["batch.kubernetes.io/job-tracking", "a/keep"]}}));
        assert_eq!(pod["metadata"]["finalizers"], json!(["a/keep", "batch.kubernetes.io/job-tracking"]));
        merge(&mut pod, &json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["a/keep"]}}));
        assert_eq!(pod["metadata"]["finalizers"], json!(["batch.kubernetes.io/job-tracking"]));
        // kubectl apply adds what the manifest adds, removes what it dropped since the last
        // apply and leaves a finalizer another client added alone.
        let original = json!({"metadata": {"finalizers": ["x/one", "x/two"]}});
        let modified = json!({"metadata": {"finalizers": ["x/one", "x/three"]}});
        let current = json!({"metadata": {"finalizers": ["x/one", "x/two", "y/theirs"]}});
        let patch = three_way(Some(&original), &modified, &current);
        assert_eq!(
            patch,
            json!({"metadata": {"finalizers": ["x/three"], "$deleteFromPrimitiveList/finalizers": ["x/two"]}})
        );
        let mut merged = current.clone();
        merge(&mut merged, &patch);
        assert_eq!(merged["metadata"]["finalizers"], json!(["x/one", "y/theirs", "x/three"]));
        assert_eq!(three_way(Some(&modified), &modified, &merged), json!({}));
    }
}
