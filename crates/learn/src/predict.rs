//! Predict, then reveal: questions generated from the learner's own trace, to ask before a
//! decisive step and answer when the lab reaches it.
//!
//! Every choice comes from the run: the scheduler question offers the nodes the scheduler
//! looked at (each wrong one with its filter reason or its lower score), the admission question
//! the plugins of that request's mutating pass (each with what it did), the pod IP question the
//! podCIDRs of the cluster's nodes, the `kubectl get pods` question the statuses the pod shows
//! over the run. Only the QoS question offers Kubernetes' three classes. In a session, a Pod
//! the learner deletes in the terminal asks what happens next, answered by whether its
//! ReplicaSet replaces it in that very session; a deleted Deployment (or other owner) asks
//! what becomes of its dependents, answered by the garbage collector's steps; a stopped API
//! server asks what becomes of the running Pods, answered by what the kubelets did meanwhile.

use crate::facts::learner_request_ids;
use crate::quiz::{Choice, Kind, Question};
use crate::text::permutation;
use podlab_engine::lab::Run;
use podlab_engine::trace::{AdmissionStage, AdmissionVerdict, Component, Detail, Step};
use podlab_engine::views::pod_summary;
use serde::Serialize;
use serde_json::Value;

/// A generated question: pause before `before_step` is shown, reveal at `reveal_step`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Prediction {
    pub before_step: usize,
    pub reveal_step: usize,
    pub question: Question,
}

/// How many `kubectl get pods` predictions a run gets at most.
const MAX_STATUS_PREDICTIONS: usize = 3;

/// Every prediction for `run`, ordered by `before_step`.
pub fn questions(run: &Run) -> Vec<Prediction> {
    let mut out = Vec::new();
    out.extend(authorization(run));
    out.extend(admission(run));
    for step in &run.steps {
        match &step.detail {
            Detail::Schedule(_) => out.extend(schedule(step)),
            Detail::Work(w) if w.topic == "qos" => out.extend(qos(step)),
            Detail::Work(w) if w.topic == "cni" => out.extend(pod_ip(run, step)),
            _ => {}
        }
    }
    out.extend(pod_status(run));
    out.extend(deleted_pods(run));
    out.extend(api_server_outage(run));
    out.extend(deleted_owners(run));
    podlab_engine::sort::sort_by_key(&mut out, |p| (p.before_step, p.reveal_step));
    out
}

fn choice(id: usize, text: impl Into<String>, correct: bool, why: impl Into<String>) -> Choice {
    Choice { id, text: text.into(), correct, why: why.into(), fact: None }
}

/// A question whose choices are shown in a shuffle seeded by its id.
fn question(id: String, kind: Kind, prompt: String, choices: Vec<Choice>, explanation: String) -> Question {
    let order = permutation(choices.len(), &id);
    let choices = order.into_iter().map(|i| choices[i].clone()).collect();
    Question { id, kind, prompt, choices, accepted: vec![], explanation, scenario: None, check: None }
}

fn authorization(run: &Run) -> Vec<Prediction> {
    let ids = learner_request_ids(run);
    run.steps
        .iter()
        .filter(|s| s.request_id.is_some_and(|id| ids.contains(&id)))
        .filter_map(|s| match &s.detail {
            Detail::Authorization(a) if a.attributes.verb != "get" => Some((s, a)),
            _ => None,
        })
        .map(|(s, a)| {
            let at = &a.attributes;
            let target = if at.namespace.is_empty() {
                at.resource.clone()
            } else {
                format!("{} in namespace {}", at.resource, at.namespace)
            };
            let considered = if a.considered.is_empty() {
                "no binding applies to this user".to_string()
            } else {
                format!("the bindings looked at ({}) grant no such rule", a.considered.join(", "))
            };
            let mut decided = if a.matched.as_ref().is_some() || a.allowed {
                format!("The {} authorizer allowed it: {}", a.authorizer, a.message)
            } else {
                format!("Nothing allows it: {considered}. {}", a.message)
            };
            if !decided.ends_with('.') {
                decided.push('.');
            }
            let (allowed_why, denied_why) = if a.allowed {
                (
                    format!("The {} authorizer allows the request.", a.authorizer),
                    "A request is refused only when no authorizer allows it, and one does here.".to_string(),
                )
            } else {
                (
                    format!("No authorizer allows it: {considered}."),
                    "No authorizer allows the request, so kube-apiserver answers 403 Forbidden.".to_string(),
                )
            };
            let choices = vec![
                choice(0, "Allowed", a.allowed, allowed_why),
                choice(1, "Denied: 403 Forbidden", !a.allowed, denied_why),
            ];
            Prediction {
                before_step: s.index,
                reveal_step: s.index,
                question: question(
                    format!("predict-authz-{}", s.index),
                    Kind::SingleChoice,
                    format!("Will kube-apiserver let {} {} {target}?", at.user.username, at.verb),
                    choices,
                    decided,
                ),
            }
        })
        .collect()
}

fn admission(run: &Run) -> Vec<Prediction> {
    let ids = learner_request_ids(run);
    let mut out = Vec::new();
    for id in ids {
        let steps: Vec<&Step> = run
            .steps
            .iter()
            .filter(|s| s.request_id == Some(id))
            .filter(|s| matches!(&s.detail, Detail::Admission(a) if a.stage == AdmissionStage::Mutating))
            .collect();
        let (Some(first), Some(last)) = (steps.first(), steps.last()) else { continue };
        let object =
            first.object.as_ref().map(|o| format!("{} {}", o.kind, o.name)).unwrap_or_else(|| "the object".into());
        let mut choices = Vec::new();
        let mut mutated = Vec::new();
        for s in &steps {
            let Detail::Admission(a) = &s.detail else { continue };
            if choices.iter().any(|c: &Choice| c.text == a.plugin) {
                continue;
            }
            let changed = a.verdict == AdmissionVerdict::Mutated;
            let paths: Vec<&str> = a.changes.iter().map(|c| c.path.as_str()).collect();
            let why = if changed {
                mutated.push(a.plugin.clone());
                format!("It changes {}. {}", paths.join(", "), a.explanation)
            } else {
                format!("It changes nothing here. {}", a.explanation)
            };
            choices.push(choice(choices.len(), a.plugin.clone(), changed, why));
        }
        let none_why = if mutated.is_empty() {
            "Right: no plugin of the mutating pass changed it.".to_string()
        } else {
            format!("{} changed it.", mutated.join(", "))
        };
        choices.push(choice(choices.len(), "None of them", mutated.is_empty(), none_why));
        let explanation = if mutated.is_empty() {
            format!("The mutating admission pass leaves {object} as it is.")
        } else {
            format!("In the mutating pass, {} change {object}; the others only look.", mutated.join(" and "))
        };
        out.push(Prediction {
            before_step: first.index,
            reveal_step: last.index,
            question: question(
                format!("predict-admission-{}", first.index),
                Kind::MultipleSelect,
                format!("Which mutating admission plugins will change {object}? Select all that apply."),
                choices,
                explanation,
            ),
        });
    }
    out
}

fn schedule(step: &Step) -> Option<Prediction> {
    let Detail::Schedule(d) = &step.detail else { return None };
    let pod = step.object.as_ref().map(|o| o.name.clone()).unwrap_or_else(|| "the pod".into());
    let total = |node: &str| d.scores.iter().find(|r| r.node == node).map(|r| r.total);
    let chosen_total = d.chosen.as_deref().and_then(total);
    let mut choices = Vec::new();
    for row in &d.filter {
        let correct = d.chosen.as_deref() == Some(row.node.as_str());
        let why = if !row.feasible {
            let reasons: Vec<String> = row
                .verdicts
                .iter()
                .filter(|v| !v.passed)
                .map(|v| format!("{} rejects it: {}", v.plugin, v.reasons.join(", ")))
                .collect();
            format!("{} is filtered out. {}.", row.node, reasons.join("; "))
        } else if correct {
            let mut w = format!("{} passes every filter", row.node);
            if let Some(t) = chosen_total {
                w.push_str(&format!(" and has the highest total score, {t}"));
            }
            if let Some(tb) = &d.tie_break {
                w.push_str(&format!(". {tb}"));
            }
            w.push('.');
            w
        } else {
            match (total(&row.node), chosen_total) {
                (Some(t), Some(c)) if t < c => format!("{} fits, but scores {t}, less than {c}.", row.node),
                (Some(t), Some(_)) => format!(
                    "{} fits and ties at {t}; {}",
                    row.node,
                    d.tie_break.clone().unwrap_or_else(|| "the tie is broken at random.".into())
                ),
                _ => format!("{} fits, but another node was chosen.", row.node),
            }
        };
        choices.push(choice(choices.len(), row.node.clone(), correct, why));
    }
    let none_correct = d.chosen.is_none();
    let none_why = match &d.message {
        Some(m) if none_correct => m.clone(),
        _ => "At least one node passes every filter.".into(),
    };
    choices.push(choice(choices.len(), "No node: the pod stays Pending", none_correct, none_why));
    if d.filter.is_empty() && !none_correct {
        return None;
    }
    let explanation = match &d.chosen {
        Some(n) => {
            format!("kube-scheduler filters out the nodes that cannot run {pod}, scores the rest and binds it to {n}.")
        }
        None => {
            format!("No node passes the filters, so {pod} stays Pending: {}", d.message.clone().unwrap_or_default())
        }
    };
    Some(Prediction {
        before_step: step.index,
        reveal_step: step.index,
        question: question(
            format!("predict-node-{}", step.index),
            Kind::SingleChoice,
            format!("Which node will kube-scheduler pick for pod {pod}?"),
            choices,
            explanation,
        ),
    })
}

fn qos(step: &Step) -> Option<Prediction> {
    let Detail::Work(w) = &step.detail else { return None };
    let class = w.facts.iter().find(|(l, _)| l == "qosClass").map(|(_, v)| v.clone())?;
    let why_fact = w.facts.iter().find(|(l, _)| l == "why").map(|(_, v)| v.clone()).unwrap_or_default();
    let pod = step.object.as_ref().map(|o| o.name.clone()).unwrap_or_else(|| "the pod".into());
    let rules = [
        ("Guaranteed", "Guaranteed needs every container to set CPU and memory limits, with requests equal to them"),
        ("Burstable", "Burstable is any pod that sets some request or limit but is not Guaranteed"),
        ("BestEffort", "BestEffort is a pod where no container sets any CPU or memory request or limit"),
    ];
    let choices = rules
        .iter()
        .enumerate()
        .map(|(i, (c, rule))| {
            let correct = *c == class;
            let why = if correct { format!("{rule}: {why_fact}.") } else { format!("{rule}; here {why_fact}.") };
            choice(i, *c, correct, why)
        })
        .collect();
    Some(Prediction {
        before_step: step.index,
        reveal_step: step.index,
        question: Question {
            id: format!("predict-qos-{}", step.index),
            kind: Kind::SingleChoice,
            prompt: format!("Which QoS class will the kubelet give pod {pod}?"),
            choices,
            accepted: vec![],
            explanation: format!("{pod} is {class}: {why_fact}."),
            scenario: None,
            check: None,
        },
    })
}

fn pod_ip(run: &Run, step: &Step) -> Option<Prediction> {
    let node = step.node.clone()?;
    let rev = step.revision;
    let nodes: Vec<(String, String)> = run
        .store()
        .list_at("/registry/minions/", rev)
        .into_iter()
        .filter_map(|(_, o, _)| {
            let j = o.to_json();
            let cidr = j.pointer("/spec/podCIDR").and_then(Value::as_str)?.to_string();
            Some((o.name().to_string(), cidr))
        })
        .collect();
    let own = nodes.iter().find(|(n, _)| *n == node)?.1.clone();
    if nodes.len() < 2 {
        return None;
    }
    let Detail::Work(w) = &step.detail else { return None };
    let pod_side = w.facts.iter().find(|(l, _)| l == "pod side").map(|(_, v)| v.clone()).unwrap_or_default();
    let pod = step.object.as_ref().map(|o| o.name.clone()).unwrap_or_else(|| "the pod".into());
    let choices = nodes
        .iter()
        .enumerate()
        .map(|(i, (n, cidr))| {
            let correct = *n == node;
            let why = if correct {
                format!("{cidr} is the podCIDR of {node}, where {pod} runs; the pod side gets {pod_side}.")
            } else {
                format!("{cidr} is the podCIDR of {n}, but {pod} runs on {node}.")
            };
            choice(i, cidr.clone(), correct, why)
        })
        .collect();
    Some(Prediction {
        before_step: step.index,
        reveal_step: step.index,
        question: question(
            format!("predict-podip-{}", step.index),
            Kind::SingleChoice,
            format!("From which range will the CNI plugin give pod {pod} its IP address?"),
            choices,
            format!(
                "Each node owns a slice of the cluster's pod network (its spec.podCIDR); the CNI plugin's IPAM on {node} allocates from {own}."
            ),
        ),
    })
}

fn pod_status(run: &Run) -> Vec<Prediction> {
    let store = run.store();
    let Some(key) = store
        .list("/registry/pods/")
        .into_iter()
        .map(|(k, _, _)| k.to_string())
        .find(|k| store.get_at(k, run.setup_revision).is_none())
    else {
        return vec![];
    };
    let name = key.rsplit('/').next().unwrap_or_default().to_string();
    let status_at = |rev: u64| store.get_at(&key, rev).and_then(|(o, _)| o.as_pod().map(|p| pod_summary(p).status));
    // (step, before, after) for every change of STATUS.
    let mut changes: Vec<(usize, String, String)> = Vec::new();
    let mut prev = status_at(run.setup_revision);
    for s in &run.steps {
        let now = status_at(s.revision);
        if let (Some(a), Some(b)) = (&prev, &now) {
            if a != b {
                changes.push((s.index, a.clone(), b.clone()));
            }
        }
        if now.is_some() {
            prev = now;
        }
    }
    let seen: Vec<String> = {
        let mut v: Vec<String> = Vec::new();
        for (_, a, b) in &changes {
            for s in [a, b] {
                if !v.contains(s) {
                    v.push(s.clone());
                }
            }
        }
        v
    };
    changes
        .iter()
        .take(MAX_STATUS_PREDICTIONS)
        .map(|(index, before, after)| {
            let step = &run.steps[*index];
            let choices = seen
                .iter()
                .enumerate()
                .map(|(i, st)| {
                    let correct = st == after;
                    let why = if correct {
                        format!("After this step ({}), STATUS reads {after}.", step.summary)
                    } else if st == before {
                        format!("{before} is what it shows now; this step changes it.")
                    } else {
                        let when = changes.iter().find(|(_, _, b)| b == st).map(|(i, _, _)| *i);
                        match when {
                            Some(w) if w > *index => format!("{st} comes later in this run (step {}).", w + 1),
                            _ => format!("{st} was shown earlier in this run, not next."),
                        }
                    };
                    choice(i, st.clone(), correct, why)
                })
                .collect();
            Prediction {
                before_step: *index,
                reveal_step: *index,
                question: question(
                    format!("predict-status-{index}"),
                    Kind::SingleChoice,
                    format!(
                        "`kubectl get pods` shows {name} as {before}. What will its STATUS be after the next step?"
                    ),
                    choices,
                    format!("{}: STATUS goes from {before} to {after}.", step.summary),
                ),
            }
        })
        .collect()
}

/// How many "you deleted a Pod" predictions a session gets at most.
const MAX_DELETE_PREDICTIONS: usize = 2;

/// Each Pod the learner deletes in the session's terminal (`kubectl delete pod NAME`): before
/// the DELETE is sent, what happens next? Revealed at the ReplicaSet's decision to create a
/// replacement, or, when nothing replaces it (a Pod without a controller, a stopped
/// controller manager), at the DELETE's answer.
fn deleted_pods(run: &Run) -> Vec<Prediction> {
    let mut out = Vec::new();
    for (i, step) in run.steps.iter().enumerate() {
        if out.len() == MAX_DELETE_PREDICTIONS {
            break;
        }
        let Some(path) = step.summary.strip_prefix("kubectl sends DELETE /api/v1/namespaces/") else { continue };
        if step.phase != podlab_engine::trace::Phase::Request {
            continue;
        }
        let Some((_, name)) = path.split_once("/pods/") else { continue };
        let name = name.split('?').next().unwrap_or(name).to_string();
        // The request's own steps, then what follows until the next kubectl request.
        let answered = run.steps[i..]
            .iter()
            .take_while(|s| s.request_id == step.request_id)
            .last()
            .map(|s| s.index)
            .unwrap_or(step.index);
        let later = run.steps[answered + 1..].iter().take_while(|s| !s.summary.starts_with("kubectl sends ")).find(
            |s| match &s.detail {
                Detail::Controller(c) => c.controller == "replicaset-controller" && s.summary.contains(": creating "),
                _ => false,
            },
        );
        let (reveal, replaced) = match later {
            Some(s) => (s.index, true),
            None => (answered, false),
        };
        let owner = if replaced {
            later.map(|s| s.summary.trim_start_matches("replicaset-controller: ").to_string()).unwrap_or_default()
        } else {
            String::new()
        };
        let choices = vec![
            choice(
                0,
                "A controller creates a new Pod (with a new name) to take its place",
                replaced,
                if replaced {
                    format!("Its ReplicaSet saw one Pod fewer than it wants: {owner}.")
                } else {
                    "Not in this session: no controller counts this Pod (it has no owner, or the controller manager is stopped), so nothing replaces it.".to_string()
                },
            ),
            choice(
                1,
                "It is gone for good: nothing brings it back",
                !replaced,
                if replaced {
                    "Its ReplicaSet keeps a count of Pods and creates a new one as soon as it sees the deletion."
                        .to_string()
                } else {
                    "Right: nothing in this cluster watches for it to go (a bare Pod, or a stopped controller manager)."
                        .to_string()
                },
            ),
            choice(
                2,
                "The kubelet starts the same Pod again on its node",
                false,
                "The kubelet restarts containers of Pods that exist; a deleted Pod is stopped and its object removed.",
            ),
            choice(
                3,
                "The scheduler moves it to another node",
                false,
                "The scheduler only binds Pods that have no node yet; it never moves or recreates one.",
            ),
        ];
        out.push(Prediction {
            before_step: step.index,
            reveal_step: reveal,
            question: question(
                format!("predict-delete-{}", step.index),
                Kind::SingleChoice,
                format!("You delete the Pod {name}. What happens next?"),
                choices,
                if replaced {
                    format!("{owner}: a replacement is on its way while the old Pod is still stopping.")
                } else {
                    format!("Nothing replaces {name}: no controller owns it here.")
                },
            ),
        });
    }
    out
}

/// The kinds whose deletion cascades to dependents: (resource in the DELETE path, kind, what
/// it owns).
const OWNERS: [(&str, &str, &str); 6] = [
    ("/deployments/", "Deployment", "ReplicaSets and their Pods"),
    ("/replicasets/", "ReplicaSet", "Pods"),
    ("/statefulsets/", "StatefulSet", "Pods"),
    ("/daemonsets/", "DaemonSet", "Pods"),
    ("/jobs/", "Job", "Pods"),
    ("/cronjobs/", "CronJob", "Jobs and their Pods"),
];

/// The learner deletes an owner in the terminal (`kubectl delete deployment web`): what
/// becomes of what it owns? Revealed at the garbage collector's first step about its
/// dependents (it deletes them, or orphans them for `--cascade=orphan`); no question when
/// the collector never acts on them in the session (nothing owned, or a stopped controller
/// manager).
fn deleted_owners(run: &Run) -> Vec<Prediction> {
    let mut out = Vec::new();
    for step in &run.steps {
        if out.len() == MAX_DELETE_PREDICTIONS {
            break;
        }
        if step.phase != podlab_engine::trace::Phase::Request {
            continue;
        }
        let Some(path) = step.summary.strip_prefix("kubectl sends DELETE /apis/") else { continue };
        let path = path.split('?').next().unwrap_or(path);
        let Some((resource, kind, owns)) = OWNERS.iter().find(|(r, ..)| path.contains(r)) else { continue };
        let Some((_, name)) = path.split_once(resource) else { continue };
        let owner = format!("{kind} {name}");
        let gc = run.steps[step.index + 1..].iter().find(|s| match &s.detail {
            Detail::Controller(c) => {
                c.controller == "garbage-collector-controller"
                    && (s.summary.contains(&format!("its owner {owner} ")) || s.summary.ends_with(&format!("/{name}")))
                    && (s.summary.contains("garbage collector deletes")
                        || s.summary.contains("garbage collector orphans"))
            }
            _ => false,
        });
        let Some(gc) = gc else { continue };
        let orphaned = gc.summary.contains("garbage collector orphans");
        let choices = vec![
            choice(
                0,
                format!("The garbage collector deletes its {owns}"),
                !orphaned,
                if orphaned {
                    "Not this time: the DELETE asked for propagationPolicy=Orphan (--cascade=orphan), so the dependents stay.".to_string()
                } else {
                    format!("Each dependent names {owner} in its ownerReferences; once the owner is gone (or being deleted in the foreground), the garbage collector deletes it: {}.", gc.summary)
                },
            ),
            choice(
                1,
                format!("Its {owns} stay, without an owner"),
                orphaned,
                if orphaned {
                    format!("--cascade=orphan: {}; they keep running, and a new owner whose selector matches them can adopt them.", gc.summary)
                } else {
                    "Only with --cascade=orphan; the default (background) cascades the deletion to every dependent.".to_string()
                },
            ),
            choice(
                2,
                format!("kubectl deletes its {owns} one by one"),
                false,
                "kubectl sends one DELETE; the cascade happens in the cluster, done by the garbage collector in kube-controller-manager.",
            ),
            choice(
                3,
                format!("The {kind} is scaled to 0 before the object goes"),
                false,
                "Nothing scales it down: the owner's object is removed, and the dependents are handled through their ownerReferences.",
            ),
        ];
        out.push(Prediction {
            before_step: step.index,
            reveal_step: gc.index,
            question: question(
                format!("predict-cascade-{}", step.index),
                Kind::SingleChoice,
                format!("You delete the {owner}. What becomes of its {owns}?"),
                choices,
                format!("{}.", gc.summary.trim_end_matches('.')),
            ),
        });
    }
    out
}

/// `lab stop kube-apiserver` (or etcd) while Pods run: what happens to them? Revealed at the
/// first thing a node does during the outage (a refused status write, a restarted
/// container); no question when no node did anything before the API server came back.
fn api_server_outage(run: &Run) -> Vec<Prediction> {
    let Some(stop) = run
        .steps
        .iter()
        .find(|s| s.summary.starts_with("lab: kube-apiserver stopped") || s.summary.starts_with("lab: etcd stopped"))
    else {
        return vec![];
    };
    let during: Vec<&Step> = run.steps[stop.index + 1..]
        .iter()
        .take_while(|s| !s.summary.contains("started: the API server answers again"))
        .filter(|s| s.node.is_some() && matches!(s.from, Component::Kubelet | Component::Runtime | Component::Cni))
        .collect();
    let Some(first) = during.first() else { return vec![] };
    let refused = |what: &str| {
        during.iter().filter(|s| s.summary.contains("connection refused") && s.summary.contains(what)).count()
    };
    let (statuses, events) = (refused("/status\""), refused("/events/"));
    let started = during
        .iter()
        .find(|s| s.from == Component::Runtime && s.summary.contains(" is running"))
        .map(|s| format!(" It restarted a container on its own: {}.", s.summary.trim_end_matches('.')))
        .unwrap_or_default();
    let nodes: std::collections::BTreeSet<&str> = during.iter().filter_map(|s| s.node.as_deref()).collect();
    let evidence = format!(
        "While the API server was away the kubelet{} on {} went on ({} steps); {statuses} status update(s) and {events} event(s) it sent were refused, and it sends the Pods' status again once the API server is back.{started}",
        if nodes.len() == 1 { "" } else { "s" },
        nodes.iter().copied().collect::<Vec<_>>().join(", "),
        during.len()
    );
    let choices = vec![
        choice(
            0,
            "They keep running: each node's kubelet goes on without the API server",
            true,
            evidence.clone(),
        ),
        choice(
            1,
            "They stop until the API server is back",
            false,
            "The containers run under the node's kubelet and container runtime, which need no API server to keep them going.",
        ),
        choice(
            2,
            "The scheduler moves them to nodes that still reach the API server",
            false,
            "The scheduler cannot read or write anything without the API server, and it never moves a bound Pod anyway.",
        ),
        choice(
            3,
            "They are deleted, and their controllers make new ones when the API server returns",
            false,
            "Nothing can delete an object while the API server is down; the controllers only list everything again when it returns.",
        ),
    ];
    let what = if stop.summary.starts_with("lab: etcd") { "etcd" } else { "kube-apiserver" };
    vec![Prediction {
        before_step: stop.index,
        reveal_step: first.index,
        question: question(
            format!("predict-outage-{}", stop.index),
            Kind::SingleChoice,
            format!("You stop {what} while Pods are running. What happens to those Pods?"),
            choices,
            evidence,
        ),
    }]
}
