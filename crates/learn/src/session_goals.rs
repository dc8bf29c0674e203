//! The goals of session exercises: they read the learner's commands and what the cluster did
//! while they ran, not only the cluster at the end of one apply.

use crate::exercise::Goal;
use podlab_engine::lab::session::CommandRecord;
use podlab_engine::lab::SessionRun;
use podlab_engine::object::{resource_for_kind, Object};
use podlab_engine::trace::{Component, Phase};
use serde_json::Value;
use std::collections::BTreeMap;

/// The verdict on a session goal, or `None` for a goal on the run alone.
pub fn check(goal: &Goal, s: &SessionRun, learner: &[CommandRecord]) -> Option<(bool, String)> {
    Some(match goal {
        Goal::Ran { command } => {
            let matching: Vec<&CommandRecord> = learner.iter().filter(|c| starts(&c.line, command)).collect();
            match matching.iter().find(|c| c.exit_code == 0) {
                Some(c) => (true, format!("`{}` ran: {}", c.line, first_line(&c.stdout))),
                None => match matching.last() {
                    Some(c) => (false, format!("`{}` failed: {}", c.line, first_line(&c.stderr))),
                    None if learner.is_empty() => (false, "no command typed yet (use the terminal)".into()),
                    None => (false, format!("none of your {} command(s) is `{command} …`", learner.len())),
                },
            }
        }
        Goal::AtMost { command, max } => {
            let n = learner.iter().filter(|c| starts(&c.line, command)).count();
            (n <= *max, format!("you ran `{command}` {n} time(s)"))
        }
        Goal::ReadyPods { selector, min } => {
            let sel = parse_selector(selector);
            let store = s.run.store();
            let ready: Vec<String> = store
                .list_at("/registry/pods/", s.run.final_revision)
                .into_iter()
                .filter(|(_, o, _)| matches(o, &sel) && serving(o))
                .map(|(_, o, _)| o.name().to_string())
                .collect();
            (
                ready.len() >= *min,
                if ready.is_empty() { "no such Pod is Ready".into() } else { format!("Ready: {}", ready.join(", ")) },
            )
        }
        Goal::NeverBelow { selector, min } => never_below(s, learner, selector, *min),
        Goal::NoneLeft { kinds, selector } => {
            let sel = parse_selector(selector);
            let store = s.run.store();
            let left: Vec<String> = kinds
                .iter()
                .filter_map(|k| resource_for_kind(k).map(|r| (k, r)))
                .flat_map(|(k, r)| {
                    store
                        .list(&r.list_prefix(None))
                        .into_iter()
                        .filter(|(_, o, _)| matches(o, &sel))
                        .map(move |(_, o, _)| format!("{k} {}", o.name()))
                        .collect::<Vec<_>>()
                })
                .collect();
            if left.is_empty() {
                (true, "nothing is left".into())
            } else {
                (false, format!("still there: {}", left.join(", ")))
            }
        }
        Goal::Kept { kind, name } => {
            let found = resource_for_kind(kind).and_then(|r| {
                let ns = r.namespaced.then_some("default");
                s.run.store().get(&r.etcd_key(ns, name))
            });
            match found {
                Some(_) => (true, format!("{kind} {name} is still there")),
                None => (false, format!("{kind} {name} was deleted")),
            }
        }
        Goal::DeploymentImage { deployment, image } => deployment_image(s, deployment, image),
        Goal::RestartedDuringOutage { pod } => restarted_during_outage(s, pod),
        Goal::ComponentRunning { component } => {
            if s.stopped.iter().any(|c| c == component) {
                (false, format!("{component} is stopped"))
            } else {
                (true, format!("{component} runs"))
            }
        }
        Goal::NodeDrained { node, selector } => {
            let store = s.run.store();
            let cordoned = store
                .get(&format!("/registry/minions/{node}"))
                .map(|(o, _)| o.to_json().pointer("/spec/unschedulable").and_then(Value::as_bool) == Some(true));
            let sel = parse_selector(selector);
            let on_node: Vec<String> = store
                .list("/registry/pods/")
                .into_iter()
                .filter(|(_, o, _)| {
                    matches(o, &sel) && o.to_json().pointer("/spec/nodeName").and_then(Value::as_str) == Some(node)
                })
                .map(|(_, o, _)| o.name().to_string())
                .collect();
            match cordoned {
                None => (false, format!("there is no node {node}")),
                Some(false) => (false, format!("{node} is not cordoned (it still accepts new Pods)")),
                Some(true) if !on_node.is_empty() => (false, format!("{node} still runs {}", on_node.join(", "))),
                Some(true) => (true, format!("{node} is cordoned and runs none of them")),
            }
        }
        _ => return None,
    })
}

/// `line` is `command` or `command` followed by more words (`kubectl delete pod` matches
/// `kubectl delete pod web` and `kubectl delete pods`, not `kubectl delete deployment`).
fn starts(line: &str, command: &str) -> bool {
    let line: Vec<&str> = line.split_whitespace().collect();
    let want: Vec<&str> = command.split_whitespace().collect();
    line.len() >= want.len()
        && line.iter().zip(&want).enumerate().all(|(i, (l, w))| {
            // The last word may be a prefix (`pod` for `pods`), the others exact.
            if i + 1 == want.len() {
                l.starts_with(w)
            } else {
                l == w
            }
        })
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim()
}

/// `app=web,tier=front` as label pairs.
fn parse_selector(text: &str) -> BTreeMap<String, String> {
    text.split(',')
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

fn matches(o: &Object, sel: &BTreeMap<String, String>) -> bool {
    let labels = o.meta().labels.as_ref();
    sel.iter().all(|(k, v)| labels.and_then(|l| l.get(k)) == Some(v))
}

/// A Pod that serves: Ready and not being deleted.
fn serving(o: &Object) -> bool {
    let Some(p) = o.as_pod() else { return false };
    p.metadata.deletion_timestamp.is_none()
        && p.status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

fn never_below(s: &SessionRun, learner: &[CommandRecord], selector: &str, min: usize) -> (bool, String) {
    let Some(first) = learner.first() else {
        return (false, "no command typed yet (use the terminal)".into());
    };
    let sel = parse_selector(selector);
    let store = s.run.store();
    // The store as the learner's first command found it, then after each write.
    let from = s.run.steps.get(..first.first_step).and_then(|st| st.last()).map(|st| st.revision).unwrap_or(1);
    let mut lowest: Option<(usize, u64)> = None;
    for rev in from..=s.run.final_revision {
        let n = store
            .list_at("/registry/pods/", rev)
            .into_iter()
            .filter(|(_, o, _)| matches(o, &sel) && serving(o))
            .count();
        if lowest.is_none_or(|(l, _)| n < l) {
            lowest = Some((n, rev));
        }
    }
    let (n, rev) = lowest.unwrap_or((0, from));
    let when = s
        .run
        .steps
        .iter()
        .find(|st| st.revision >= rev)
        .map(|st| format!(" (at {:.1} s of cluster time)", st.time_ms as f64 / 1000.0))
        .unwrap_or_default();
    if n >= min {
        (true, format!("never fewer than {n} Ready"))
    } else {
        (false, format!("only {n} Ready at one point{when}, {min} needed"))
    }
}

fn deployment_image(s: &SessionRun, name: &str, image: &str) -> (bool, String) {
    let Some((d, _)) = s.run.store().get(&format!("/registry/deployments/default/{name}")) else {
        return (false, format!("there is no Deployment {name}"));
    };
    let d = d.to_json();
    let images: Vec<&str> = d
        .pointer("/spec/template/spec/containers")
        .and_then(Value::as_array)
        .map(|cs| cs.iter().filter_map(|c| c.get("image").and_then(Value::as_str)).collect())
        .unwrap_or_default();
    let int = |p: &str| d.pointer(p).and_then(Value::as_i64).unwrap_or(0);
    let (want, updated, available) =
        (int("/spec/replicas"), int("/status/updatedReplicas"), int("/status/availableReplicas"));
    let total = int("/status/replicas");
    if !images.contains(&image) {
        (false, format!("its template runs {}", images.join(", ")))
    } else if updated < want || available < want || total > want {
        (
            false,
            format!("{updated} of {want} replicas updated, {available} available, {total} in all: still rolling out"),
        )
    } else {
        (true, format!("{image}: {updated}/{want} updated and available"))
    }
}

fn restarted_during_outage(s: &SessionRun, pod: &str) -> (bool, String) {
    // The windows between `lab stop kube-apiserver` and the next `lab start kube-apiserver`.
    let mut windows: Vec<(u64, u64)> = Vec::new();
    let mut down: Option<u64> = None;
    for c in &s.commands {
        let line: Vec<&str> = c.line.split_whitespace().collect();
        match line.as_slice() {
            ["lab", "stop", "kube-apiserver"] if c.exit_code == 0 && down.is_none() => down = Some(c.end_ms),
            ["lab", "start", "kube-apiserver"] if c.exit_code == 0 => {
                if let Some(from) = down.take() {
                    windows.push((from, c.start_ms));
                }
            }
            _ => {}
        }
    }
    if let Some(from) = down {
        windows.push((from, s.run.end_ms));
    }
    if windows.is_empty() {
        return (false, "kube-apiserver was never stopped".into());
    }
    // The runtime's step for a container that starts (`container "app" is running…`).
    let restarted = s.run.steps.iter().any(|st| {
        st.phase == Phase::Containers
            && st.from == Component::Runtime
            && st.object.as_ref().is_some_and(|o| o.name == pod)
            && st.summary.contains("\" is running")
            && windows.iter().any(|(a, b)| st.time_ms > *a && st.time_ms < *b)
    });
    if restarted {
        (true, format!("the kubelet started {pod}'s container again without the API server"))
    } else {
        (false, format!("no container of {pod} was started while kube-apiserver was down"))
    }
}
