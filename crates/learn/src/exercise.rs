//! Exercises: a starting cluster and manifest, goals the engine checks, hints revealed one at a
//! time and a reference solution.
//!
//! # File format (`content/exercises/NN-name.toml`)
//!
//! ```toml
//! id = "pending-pod"
//! order = 8                 # position in the course
//! group = "scheduling"      # the quiz group it practises
//! title = "..."
//! brief = "..."             # what to do
//! cluster = "kind"          # a preset name or a cluster YAML (optional: kind)
//! user = "alice"            # kubectl's user (optional: the cluster's currentUser)
//! manifest = "..."
//! setup = ["lab stop kube-scheduler"]  # commands run after the apply, before the learner's
//!                           # (optional; a session exercise: the learner types commands too)
//! hints = ["...", "..."]
//! solution.manifest = "..."
//! solution.cluster = "..."  # only when the solution changes the cluster
//! solution.commands = ["kubectl delete pod -l app=web"]  # the learner's commands, if any
//! solution.explanation = "..."
//! [[goals]]
//! type = "pod-status"       # see [`Goal`]
//! status = "Running"
//! ```

use crate::facts::{self, learner_steps};
use crate::quiz::resolve_cluster;
use podlab_engine::lab::session::{parse_script, SessionCommand};
use podlab_engine::lab::{self, LabInput, Run, SessionRun};
use podlab_engine::object::Object;
use podlab_engine::sim::Core;
use podlab_engine::trace::Detail;
use podlab_engine::views::pod_summary;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;

/// A condition the learner's run must meet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Goal {
    /// kubectl accepted every document of the file.
    Accepted,
    /// Accepted, and the API server authenticated the requests as `user`.
    AcceptedAs { user: String },
    /// Every pod the file created (or the pod `pod`) shows `status` in `kubectl get pods`,
    /// and there are at least `min` of them (default 1).
    PodStatus {
        status: String,
        #[serde(default)]
        pod: Option<String>,
        #[serde(default)]
        min: Option<usize>,
    },
    /// Every pod the file created is ready (READY n/n).
    PodsReady,
    /// No pod the file created shows `status`.
    NoPodStatus { status: String },
    /// The pod's QoS class.
    QosClass { class: String },
    /// The pod runs on `node`.
    OnNode { node: String },
    /// The Service has at least `min` ready endpoints.
    ReadyEndpoints { service: String, min: usize },
    /// A validating admission plugin let the requests through with no warning.
    AdmittedCleanly { plugin: String },
    /// The cluster's Nodes are as the exercise started them.
    NodesUnchanged,
    /// The cluster is as the exercise started it (only the manifest may change).
    ClusterUnchanged,
    /// `user` may do at most `verbs` on pods in `namespace`, granted only there (no
    /// ClusterRoleBinding, no wildcard), through bindings to the user or its groups.
    RbacAtMost { user: String, namespace: String, verbs: Vec<String> },
    /// One of the learner's commands that starts with `command` succeeded (exit status 0).
    Ran { command: String },
    /// At most `max` of the learner's commands start with `command`.
    AtMost { command: String, max: usize },
    /// At the end, at least `min` Pods matching `selector` (`app=web,tier=x`) are Ready and
    /// not being deleted.
    ReadyPods { selector: String, min: usize },
    /// From the learner's first command to the end, at every revision of the store, at
    /// least `min` Pods matching `selector` were Ready and not being deleted.
    NeverBelow { selector: String, min: usize },
    /// At the end no object of `kinds` matching `selector` is left.
    NoneLeft { kinds: Vec<String>, selector: String },
    /// The object still exists at the end (in the default namespace when namespaced).
    Kept { kind: String, name: String },
    /// Deployment `deployment` runs `image` and has rolled it out (every replica updated
    /// and available).
    DeploymentImage { deployment: String, image: String },
    /// The kubelet started a container of `pod` again while kube-apiserver was stopped.
    RestartedDuringOutage { pod: String },
    /// `component` runs at the end (`kube-scheduler`, `kubelet/kind-worker`).
    ComponentRunning { component: String },
    /// Node `node` is cordoned and runs no Pod matching `selector`.
    NodeDrained { node: String, selector: String },
}

/// The reference solution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    pub manifest: String,
    #[serde(default)]
    pub cluster: Option<String>,
    pub explanation: String,
    /// The commands the learner types after the apply (a session exercise).
    #[serde(default)]
    pub commands: Vec<String>,
}

/// One exercise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    pub id: String,
    pub order: u32,
    pub group: String,
    pub title: String,
    pub brief: String,
    /// A preset name or a cluster YAML; the kind cluster when absent.
    #[serde(default)]
    pub cluster: Option<String>,
    #[serde(default)]
    pub user: Option<String>,
    pub manifest: String,
    pub hints: Vec<String>,
    pub solution: Solution,
    pub goals: Vec<Goal>,
    /// Commands the exercise runs after the manifest's apply and before the learner's (a
    /// component stopped, an outage): the exercise is a session.
    #[serde(default)]
    pub setup: Vec<String>,
}

impl Exercise {
    /// Whether the learner works in a session: the exercise runs commands of its own, or a
    /// goal reads the learner's commands.
    pub fn is_session(&self) -> bool {
        !self.setup.is_empty()
            || !self.solution.commands.is_empty()
            || self.goals.iter().any(|g| matches!(g, Goal::Ran { .. } | Goal::AtMost { .. }))
    }

    /// The starting cluster as YAML (a preset resolved), `None` for the default cluster.
    pub fn cluster_yaml(&self) -> Option<String> {
        self.cluster.as_deref().map(resolve_cluster)
    }

    /// The solution's cluster (the start's when the solution does not change it).
    pub fn solution_cluster(&self) -> Option<String> {
        self.solution.cluster.as_deref().map(resolve_cluster).or_else(|| self.cluster_yaml())
    }
}

/// Parses an exercise file.
#[cfg(not(target_arch = "wasm32"))]
pub fn parse_exercise(name: &str, text: &str) -> Result<Exercise, crate::quiz::LoadError> {
    toml::from_str(text).map_err(|e| crate::quiz::LoadError { file: name.to_string(), message: e.to_string() })
}

/// Parses an exercise file converted to JSON by the build (see [`crate::content`]).
pub fn parse_exercise_json(name: &str, json: &str) -> Result<Exercise, crate::quiz::LoadError> {
    serde_json::from_str(json).map_err(|e| crate::quiz::LoadError { file: name.to_string(), message: e.to_string() })
}

/// Problems with an exercise's content (empty texts, no goals, no hints).
pub fn validate(ex: &Exercise) -> Vec<String> {
    let mut p = Vec::new();
    let id = &ex.id;
    for (what, text) in [("title", &ex.title), ("brief", &ex.brief), ("solution.explanation", &ex.solution.explanation)]
    {
        if text.trim().is_empty() {
            p.push(format!("{id}: empty {what}"));
        }
    }
    if ex.goals.is_empty() {
        p.push(format!("{id}: no goals"));
    }
    if ex.hints.is_empty() || ex.hints.iter().any(|h| h.trim().is_empty()) {
        p.push(format!("{id}: needs hints, none empty"));
    }
    p
}

/// The verdict on one goal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GoalResult {
    /// The goal in words.
    pub goal: String,
    pub met: bool,
    /// Why it is met or not, from the run.
    pub explanation: String,
}

/// The goal in words.
pub fn describe(goal: &Goal) -> String {
    match goal {
        Goal::Accepted => "kubectl accepts every document".into(),
        Goal::AcceptedAs { user } => format!("the request is accepted as {user}"),
        Goal::PodStatus { status, pod: Some(p), .. } => format!("pod {p} shows STATUS {status}"),
        Goal::PodStatus { status, min, .. } => match min {
            Some(n) if *n > 1 => format!("{n} pods show STATUS {status}"),
            _ => format!("the pod shows STATUS {status}"),
        },
        Goal::PodsReady => "every pod is ready (READY n/n)".into(),
        Goal::NoPodStatus { status } => format!("no pod shows {status}"),
        Goal::QosClass { class } => format!("the pod's QoS class is {class}"),
        Goal::OnNode { node } => format!("the pod runs on {node}"),
        Goal::ReadyEndpoints { service, min } => format!("Service {service} has at least {min} ready endpoint(s)"),
        Goal::AdmittedCleanly { plugin } => format!("{plugin} admits the pod with no warning"),
        Goal::NodesUnchanged => "the nodes are unchanged".into(),
        Goal::ClusterUnchanged => "the cluster is unchanged (only the manifest may change)".into(),
        Goal::RbacAtMost { user, namespace, verbs } => {
            format!("{user} gets at most [{}] on pods, in namespace {namespace} only", verbs.join(", "))
        }
        Goal::Ran { command } => format!("you run `{command}` successfully"),
        Goal::AtMost { command, max } => match max {
            0 => format!("you do not run `{command}`"),
            1 => format!("you run `{command}` at most once"),
            n => format!("you run `{command}` at most {n} times"),
        },
        Goal::ReadyPods { selector, min } => format!("at least {min} Pod(s) labelled {selector} are Ready at the end"),
        Goal::NeverBelow { selector, min } => {
            format!("at least {min} Pod(s) labelled {selector} stay Ready throughout your commands")
        }
        Goal::NoneLeft { kinds, selector } => format!("no {} labelled {selector} is left", kinds.join(", ")),
        Goal::Kept { kind, name } => format!("{kind} {name} is kept"),
        Goal::DeploymentImage { deployment, image } => format!("Deployment {deployment} has rolled out {image}"),
        Goal::RestartedDuringOutage { pod } => {
            format!("the kubelet restarts {pod}'s container while kube-apiserver is down")
        }
        Goal::ComponentRunning { component } => format!("{component} runs"),
        Goal::NodeDrained { node, selector } => format!("{node} is cordoned and runs no Pod labelled {selector}"),
    }
}

/// Runs the learner's manifest on the learner's cluster (`None`: the exercise's starting
/// cluster) and checks every goal, with no command typed.
pub fn check(ex: &Exercise, manifest: &str, cluster: Option<&str>) -> Vec<GoalResult> {
    check_session(ex, manifest, cluster, &[])
}

/// The exercise's own commands and the learner's as a session's commands: `kubectl apply -f
/// FILE_NAME` applies `manifest` (what the page's editor holds).
pub fn script(lines: &[String], file_name: &str, manifest: &str) -> Vec<SessionCommand> {
    let read = |path: &str| (path == file_name).then(|| manifest.to_string());
    lines
        .iter()
        .flat_map(|l| {
            parse_script(l, &read).unwrap_or_else(|_| vec![SessionCommand { line: l.trim().to_string(), file: None }])
        })
        .collect()
}

/// The file name the exercise's manifest is applied as.
pub const FILE_NAME: &str = "exercise.yaml";

/// [`check`] after the learner's `commands`: the manifest is applied and the cluster
/// settles, the exercise's `setup` commands run, then the learner's, each followed by the
/// cluster settling (as the page's terminal plays them).
pub fn check_session(
    ex: &Exercise,
    manifest: &str,
    cluster: Option<&str>,
    commands: &[SessionCommand],
) -> Vec<GoalResult> {
    let cluster_yaml = cluster.map(resolve_cluster).or_else(|| ex.cluster_yaml());
    let mut input = LabInput::new(manifest, FILE_NAME);
    input.cluster = cluster_yaml.clone();
    input.user = ex.user.clone();
    let setup = script(&ex.setup, FILE_NAME, manifest);
    let outcome = if setup.is_empty() && commands.is_empty() {
        lab::run(&input).map(|run| SessionRun { run, commands: Vec::new(), stopped: Vec::new() })
    } else {
        let all: Vec<SessionCommand> = setup.iter().chain(commands).cloned().collect();
        lab::run_session(&input, &all)
    };
    ex.goals
        .iter()
        .map(|goal| {
            let (met, explanation) = match &outcome {
                Err(e) => (false, format!("the lab could not start: {e}")),
                Ok(s) => {
                    // Record 0 is the apply, then the exercise's commands, then the learner's.
                    let learner = s.commands.get(1 + setup.len()..).unwrap_or(&[]);
                    match crate::session_goals::check(goal, s, learner) {
                        Some(verdict) => verdict,
                        None => check_goal(ex, goal, &s.run, cluster_yaml.as_deref()),
                    }
                }
            };
            GoalResult { goal: describe(goal), met, explanation }
        })
        .collect()
}

fn pods(run: &Run) -> Vec<&Object> {
    facts::created_objects(run, "/registry/pods/")
}

fn check_goal(ex: &Exercise, goal: &Goal, run: &Run, cluster: Option<&str>) -> (bool, String) {
    let refused =
        || run.documents.iter().filter(|d| !d.accepted).map(|d| d.outcome.clone()).collect::<Vec<_>>().join("; ");
    match goal {
        Goal::Accepted => {
            if run.documents.is_empty() {
                (false, "the file has no document kubectl could send".into())
            } else if run.all_accepted() {
                (true, format!("kubectl printed: {}", run.stdout.trim()))
            } else {
                (false, format!("kubectl printed: {}", refused()))
            }
        }
        Goal::AcceptedAs { user } => {
            let seen = learner_steps(run).find_map(|s| match &s.detail {
                Detail::Authentication(a) => Some(a.user.username.clone()),
                _ => None,
            });
            match seen {
                Some(u) if &u != user => (false, format!("the API server saw the user {u}, not {user}")),
                None => (false, "no request reached the API server".into()),
                Some(_) if !run.all_accepted() || run.documents.is_empty() => {
                    (false, format!("{user} was refused: {}", refused()))
                }
                Some(_) => (true, format!("accepted as {user}: {}", run.stdout.trim())),
            }
        }
        Goal::PodStatus { status, pod, min } => {
            let all = pods(run);
            let selected: Vec<&Object> =
                all.iter().copied().filter(|o| pod.as_deref().is_none_or(|n| o.name() == n)).collect();
            let min = min.unwrap_or(1);
            let rows: Vec<(String, String)> = selected
                .iter()
                .filter_map(|o| o.as_pod().map(|p| (o.name().to_string(), pod_summary(p).status)))
                .collect();
            let listing = rows.iter().map(|(n, s)| format!("{n} {s}")).collect::<Vec<_>>().join(", ");
            if rows.len() < min {
                (
                    false,
                    format!(
                        "{} pod(s) created, {min} needed{}",
                        rows.len(),
                        if listing.is_empty() { String::new() } else { format!(": {listing}") }
                    ),
                )
            } else if rows.iter().all(|(_, s)| s == status) {
                (true, format!("kubectl get pods: {listing}"))
            } else {
                (false, format!("kubectl get pods: {listing}"))
            }
        }
        Goal::PodsReady => {
            let rows: Vec<(String, usize, usize)> = pods(run)
                .iter()
                .filter_map(|o| o.as_pod().map(|p| (o.name().to_string(), pod_summary(p))))
                .map(|(n, s)| (n, s.ready, s.total))
                .collect();
            let listing = rows.iter().map(|(n, r, t)| format!("{n} {r}/{t}")).collect::<Vec<_>>().join(", ");
            if rows.is_empty() {
                (false, "no pod was created".into())
            } else {
                (rows.iter().all(|(_, r, t)| r == t), format!("READY: {listing}"))
            }
        }
        Goal::NoPodStatus { status } => {
            let bad: Vec<String> = pods(run)
                .iter()
                .filter(|o| o.as_pod().is_some_and(|p| &pod_summary(p).status == status))
                .map(|o| o.name().to_string())
                .collect();
            if pods(run).is_empty() {
                (false, "no pod was created".into())
            } else if bad.is_empty() {
                (true, format!("no pod shows {status}"))
            } else {
                (false, format!("{} show(s) {status}", bad.join(", ")))
            }
        }
        Goal::QosClass { class } => {
            let got = facts::learner_pod(run, None)
                .and_then(|p| p.to_json().pointer("/status/qosClass").and_then(Value::as_str).map(str::to_string));
            match got {
                Some(c) if &c == class => (true, format!("QoS class {c}")),
                Some(c) => (false, format!("the API server computed QoS class {c}")),
                None => (false, "no pod was created".into()),
            }
        }
        Goal::OnNode { node } => {
            let got = facts::learner_pod(run, None)
                .and_then(|p| p.to_json().pointer("/spec/nodeName").and_then(Value::as_str).map(str::to_string));
            match got {
                Some(n) if &n == node => (true, format!("bound to {n}")),
                Some(n) => (false, format!("the scheduler bound it to {n}")),
                None => {
                    let why = run.steps.iter().rev().find_map(|s| match &s.detail {
                        Detail::Schedule(d) => d.message.clone(),
                        _ => None,
                    });
                    (false, why.map(|m| format!("not scheduled: {m}")).unwrap_or_else(|| "no pod was scheduled".into()))
                }
            }
        }
        Goal::ReadyEndpoints { service, min } => {
            let n = facts::ready_endpoints(run, service);
            (n >= *min, format!("Service {service} has {n} ready endpoint(s)"))
        }
        Goal::AdmittedCleanly { plugin } => match facts::admitted_cleanly(run, plugin) {
            None => (false, format!("no request reached {plugin}")),
            Some(true) => (true, format!("{plugin} allowed it with no warning")),
            Some(false) => {
                let msg = learner_steps(run)
                    .find_map(|s| match &s.detail {
                        Detail::Admission(a)
                            if a.plugin == *plugin && (a.message.is_some() || !a.warnings.is_empty()) =>
                        {
                            Some(a.message.clone().unwrap_or_else(|| a.warnings.join("; ")))
                        }
                        _ => None,
                    })
                    .unwrap_or_default();
                (false, msg)
            }
        },
        Goal::NodesUnchanged | Goal::ClusterUnchanged => {
            let prefix = if *goal == Goal::NodesUnchanged { "/registry/minions/" } else { "" };
            let start = state(ex.cluster_yaml().as_deref(), prefix);
            let now = state(cluster, prefix);
            match (start, now) {
                (Ok(a), Ok(b)) if a == b => (true, "unchanged".into()),
                (Ok(a), Ok(b)) => {
                    let keys_a: BTreeSet<&String> = a.iter().map(|(k, _)| k).collect();
                    let changed: Vec<String> = b
                        .iter()
                        .filter(|(k, v)| !a.iter().any(|(ka, va)| ka == k && va == v))
                        .map(|(k, _)| if keys_a.contains(k) { format!("{k} changed") } else { format!("{k} added") })
                        .chain(
                            a.iter()
                                .filter(|(k, _)| !b.iter().any(|(kb, _)| kb == k))
                                .map(|(k, _)| format!("{k} removed")),
                        )
                        .collect();
                    (false, changed.join(", "))
                }
                (_, Err(e)) | (Err(e), _) => (false, e),
            }
        }
        Goal::RbacAtMost { user, namespace, verbs } => rbac_at_most(run, user, namespace, verbs),
        // Checked by `session_goals::check`, which answers for every session goal.
        _ => (false, "not a goal on the run alone".into()),
    }
}

/// The starting state a cluster file loads to, under `prefix`: (key, object JSON without its
/// generated uid), in key order.
fn state(cluster: Option<&str>, prefix: &str) -> Result<Vec<(String, Value)>, String> {
    let mut core = Core::new(1);
    podlab_engine::cluster::load(&mut core, cluster).map_err(|e| format!("the cluster is invalid: {e}"))?;
    Ok(core
        .store
        .list(prefix)
        .into_iter()
        .map(|(k, o, _)| {
            let mut j = o.to_json();
            if let Some(m) = j.get_mut("metadata").and_then(Value::as_object_mut) {
                m.remove("uid");
            }
            (k.to_string(), j)
        })
        .collect())
}

fn str_list(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

fn rbac_at_most(run: &Run, user: &str, namespace: &str, allowed: &[String]) -> (bool, String) {
    let groups: Vec<String> = learner_steps(run)
        .find_map(|s| match &s.detail {
            Detail::Authentication(a) if a.user.username == user => Some(a.user.groups.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let matches = |binding: &Value| {
        binding.get("subjects").and_then(Value::as_array).is_some_and(|subjects| {
            subjects.iter().any(|s| {
                let kind = s.get("kind").and_then(Value::as_str).unwrap_or("");
                let name = s.get("name").and_then(Value::as_str).unwrap_or("");
                (kind == "User" && name == user) || (kind == "Group" && groups.iter().any(|g| g == name))
            })
        })
    };
    let store = run.store();
    let get = |key: String| store.get_at(&key, run.final_revision).map(|(o, _)| o.to_json());
    let mut problems = Vec::new();
    let mut granted: BTreeSet<String> = BTreeSet::new();
    for (_, b, _) in store.list("/registry/clusterrolebindings/") {
        let b = b.to_json();
        if matches(&b) {
            let name = b.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
            // The bootstrap policy binds every authenticated user to discovery roles, which
            // grant nothing on pods; only grants on pods count.
            let role = b.pointer("/roleRef/name").and_then(Value::as_str).unwrap_or("");
            if let Some(r) = get(format!("/registry/clusterroles/{role}")) {
                if pod_verbs(&r).next().is_some() {
                    problems.push(format!("ClusterRoleBinding {name} grants {role} in every namespace"));
                }
            }
        }
    }
    for (_, b, _) in store.list(&format!("/registry/rolebindings/{namespace}/")) {
        let b = b.to_json();
        if !matches(&b) {
            continue;
        }
        let kind = b.pointer("/roleRef/kind").and_then(Value::as_str).unwrap_or("");
        let role = b.pointer("/roleRef/name").and_then(Value::as_str).unwrap_or("");
        let key = if kind == "ClusterRole" {
            format!("/registry/clusterroles/{role}")
        } else {
            format!("/registry/roles/{namespace}/{role}")
        };
        if let Some(r) = get(key) {
            granted.extend(pod_verbs(&r));
        }
    }
    let extra: Vec<&String> = granted.iter().filter(|v| !allowed.contains(v)).collect();
    if !extra.is_empty() {
        problems.push(format!(
            "{user} may also {} pods in {namespace}",
            extra.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
        ));
    }
    if problems.is_empty() {
        (true, format!("{user} may {} pods in {namespace}", granted.into_iter().collect::<Vec<_>>().join(", ")))
    } else {
        (false, problems.join("; "))
    }
}

/// The verbs a role's rules grant on pods (core group, resource `pods` or `*`).
fn pod_verbs(role: &Value) -> impl Iterator<Item = String> {
    let rules = role.get("rules").and_then(Value::as_array).cloned().unwrap_or_default();
    rules
        .into_iter()
        .filter(|r| {
            let groups = str_list(r, "apiGroups");
            let resources = str_list(r, "resources");
            groups.iter().any(|g| g.is_empty() || g == "*") && resources.iter().any(|x| x == "pods" || x == "*")
        })
        .flat_map(|r| str_list(&r, "verbs"))
        .collect::<Vec<_>>()
        .into_iter()
}
