//! Completion for the page's terminal, as a shell with kubectl's completion script gives it:
//! the program, kubectl's verb, the resource type, then the names of the objects of that type
//! stored in the cluster (in kubectl's namespace, or the one given with `-n`).

use super::session::kinds::{resource_named, served};
use crate::object::{resource_for_kind, Object};
use crate::store::Store;

/// The programs the session runs.
const PROGRAMS: &[&str] = &["kubectl", "sleep", "lab"];
/// The kubectl verbs offered (the session answers the others with a plain "not modelled").
const VERBS: &[&str] = &[
    "annotate",
    "api-resources",
    "apply",
    "auth",
    "cordon",
    "create",
    "delete",
    "describe",
    "drain",
    "exec",
    "get",
    "label",
    "logs",
    "patch",
    "replace",
    "rollout",
    "scale",
    "set",
    "taint",
    "uncordon",
];
/// `lab`'s actions and components.
const LAB_ACTIONS: &[&str] = &["power-off", "power-on", "start", "stop"];
const LAB_COMPONENTS: &[&str] =
    &["control-plane-component", "etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubelet"];

/// The words that complete the last word of `line` (empty when the line ends with a space:
/// the next word), sorted; the objects' names come from `store` as it stands.
pub fn complete(store: &Store<Object>, namespace: &str, line: &str) -> Vec<String> {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    let partial = if line.ends_with(char::is_whitespace) || line.is_empty() { "" } else { words.pop().unwrap_or("") };
    // Flags and their values are not words of the command's grammar.
    let mut namespace = namespace.to_string();
    let mut plain = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if w == "-n" || w == "--namespace" {
            if let Some(ns) = words.get(i + 1) {
                namespace = ns.to_string();
            }
            i += 2;
            continue;
        }
        if let Some(ns) = w.strip_prefix("--namespace=") {
            namespace = ns.to_string();
        } else if !w.starts_with('-') {
            plain.push(w);
        }
        i += 1;
    }
    if partial.starts_with('-') {
        return Vec::new();
    }
    let candidates: Vec<String> = match plain.as_slice() {
        [] => PROGRAMS.iter().map(|s| s.to_string()).collect(),
        ["kubectl"] => VERBS.iter().map(|s| s.to_string()).collect(),
        ["kubectl", "apply" | "create" | "replace"] => Vec::new(),
        ["kubectl", "cordon" | "uncordon" | "drain"] => names(store, "Node", &namespace),
        ["kubectl", "taint"] => vec!["nodes".to_string()],
        ["kubectl", "taint", "nodes" | "node" | "no"] => names(store, "Node", &namespace),
        ["kubectl", "rollout"] => {
            ["history", "pause", "restart", "resume", "status", "undo"].iter().map(|s| s.to_string()).collect()
        }
        ["kubectl", "rollout", _] => ["deployment", "statefulset", "daemonset"].iter().map(|s| s.to_string()).collect(),
        ["kubectl", "set"] => vec!["image".to_string()],
        ["kubectl", "set", "image"] => vec!["deployment".to_string()],
        ["kubectl", _] | ["kubectl", "rollout" | "set", _, _] if partial.contains('/') => {
            let (type_, _) = partial.split_once('/').unwrap_or_default();
            kind_of(type_)
                .map(|k| names(store, k, &namespace))
                .unwrap_or_default()
                .into_iter()
                .map(|n| format!("{type_}/{n}"))
                .collect()
        }
        ["kubectl", _] => served().map(|r| r.plural.to_string()).collect(),
        ["kubectl", _, type_] | ["kubectl", "rollout" | "set", _, type_] => {
            kind_of(type_).map(|k| names(store, k, &namespace)).unwrap_or_default()
        }
        ["lab"] => LAB_ACTIONS.iter().map(|s| s.to_string()).collect(),
        ["lab", "power-off" | "power-on"] => names(store, "Node", &namespace),
        ["lab", _] => LAB_COMPONENTS.iter().map(|s| s.to_string()).collect(),
        ["lab", _, "kubelet"] => names(store, "Node", &namespace),
        _ => Vec::new(),
    };
    let mut out: Vec<String> = candidates.into_iter().filter(|c| c.starts_with(partial)).collect();
    out.sort();
    out.dedup();
    out
}

/// The kind a resource name (plural, singular or short) stands for.
fn kind_of(name: &str) -> Option<&'static str> {
    resource_named(name).map(|r| r.kind)
}

/// The names of the stored objects of `kind` (in `namespace` when it is namespaced).
fn names(store: &Store<Object>, kind: &str, namespace: &str) -> Vec<String> {
    let Some(res) = resource_for_kind(kind) else { return Vec::new() };
    let prefix = res.list_prefix(res.namespaced.then_some(namespace));
    store.live(&prefix).map(|(_, o)| o.name().to_string()).collect()
}

/// The longest prefix the candidates share (what a shell's Tab inserts).
pub fn common_prefix(candidates: &[String]) -> String {
    let Some(first) = candidates.first() else { return String::new() };
    let mut end = first.len();
    for c in &candidates[1..] {
        end = first.bytes().zip(c.bytes()).take(end).take_while(|(a, b)| a == b).count();
    }
    while !first.is_char_boundary(end) {
        end -= 1;
    }
    first[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::{run, LabInput};

    #[test]
    fn completes_programs_verbs_types_and_names() {
        let manifest = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx\n";
        let r = run(&LabInput::new(manifest, "pod.yaml")).unwrap();
        let store = r.store();
        assert_eq!(complete(store, "default", ""), ["kubectl", "lab", "sleep"]);
        assert_eq!(complete(store, "default", "kub"), ["kubectl"]);
        assert_eq!(complete(store, "default", "kubectl de"), ["delete", "describe"]);
        assert_eq!(complete(store, "default", "kubectl dr"), ["drain"]);
        assert_eq!(complete(store, "default", "kubectl get dep"), ["deployments"]);
        assert_eq!(complete(store, "default", "kubectl get stor"), ["storageclasses"]);
        assert_eq!(complete(store, "default", "kubectl describe sc "), ["standard"]);
        assert_eq!(complete(store, "default", "kubectl get pc system-n"), ["system-node-critical"]);
        assert_eq!(
            complete(store, "default", "kubectl get lease -n kube-node-lease kind-w"),
            ["kind-worker", "kind-worker2"]
        );
        assert_eq!(complete(store, "default", "kubectl delete pod "), ["web"]);
        assert_eq!(complete(store, "default", "kubectl delete po w"), ["web"]);
        assert_eq!(complete(store, "default", "kubectl delete pod/"), ["pod/web"]);
        assert_eq!(complete(store, "default", "kubectl delete pod -n kube-system w"), Vec::<String>::new());
        assert_eq!(
            complete(store, "default", "kubectl cordon "),
            ["kind-control-plane", "kind-worker", "kind-worker2"]
        );
        assert_eq!(complete(store, "default", "lab stop kubelet kind-w"), ["kind-worker", "kind-worker2"]);
        assert_eq!(complete(store, "default", "lab pow"), ["power-off", "power-on"]);
        assert_eq!(complete(store, "default", "lab power-off kind-w"), ["kind-worker", "kind-worker2"]);
        assert_eq!(complete(store, "default", "lab power-on kind-worker "), Vec::<String>::new());
        assert_eq!(complete(store, "default", "kubectl get pods --all"), Vec::<String>::new());
        assert_eq!(common_prefix(&["kind-worker".into(), "kind-worker2".into()]), "kind-worker");
        assert_eq!(common_prefix(&["delete".into(), "describe".into()]), "de");
        assert_eq!(common_prefix(&[]), "");
    }
}
