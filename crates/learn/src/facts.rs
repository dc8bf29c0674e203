//! Facts the engine computes from a run, by name. Engine-checked questions compare their
//! answer with one of these; exercise goals and generated predictions read them too.
//!
//! "The learner's requests" are the requests kubectl sent for the file's documents
//! ([`Run::documents`]); "the pod" is the pod the learner's file created (named by the check's
//! `object`, else the first one in etcd key order).

use crate::quiz::Check;
use podlab_engine::lab::Run;
use podlab_engine::object::Object;
use podlab_engine::trace::{AdmissionStage, AdmissionVerdict, Detail, Phase, Step, StepStatus};
use podlab_engine::views::pod_summary;
use serde_json::Value;
use std::collections::BTreeSet;

/// A fact's value: one value, a set, or a sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    One(String),
    Set(BTreeSet<String>),
    Seq(Vec<String>),
}

impl std::fmt::Display for Fact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fact::One(v) => write!(f, "{v}"),
            Fact::Set(s) => write!(f, "{{{}}}", s.iter().cloned().collect::<Vec<_>>().join(", ")),
            Fact::Seq(s) => write!(f, "[{}]", s.join(" → ")),
        }
    }
}

/// Every fact name, with what it is.
pub const FACTS: &[&str] = &[
    "qos-class",              // the pod's status.qosClass
    "node",                   // the node the scheduler chose last ("none")
    "feasible-nodes",         // set: nodes that passed every filter in the first scheduling cycle
    "rejecting-filters",      // set: filter plugins that rejected a node in the first cycle
    "mutating-plugins",       // set: admission plugins that changed the learner's object
    "denied-by",              // the admission plugin that denied the learner's request ("none")
    "http-status",            // the code of the last response to the learner's requests
    "status-reason",          // the Status reason of the first refused document ("none")
    "authorizer",             // who decided the last authorization of the learner's requests
    "allowed",                // "yes"/"no": that decision
    "auth-method",            // how the learner's first request authenticated
    "username",               // the user the API server saw
    "groups",                 // set: its groups
    "first-failed-phase",     // the phase id of the first failed step ("none")
    "first-failed-component", // the acting component of the first failed step ("none")
    "pod-status",             // `kubectl get pods` STATUS of the pod at the end
    "pod-ready",              // its READY column
    "pod-ip",                 // status.podIP
    "pod-cidr",               // the podCIDR of the pod's node
    "pod-count",              // how many pods the run created
    "pod-field",              // the value at JSON pointer `arg` of the stored pod
    "event-reasons",          // seq: event reasons, first appearance order
    "warning-reasons",        // set: Warning event reasons
    "phase-order",            // seq: phase ids, first appearance order (GET requests left out)
    "controllers",            // set: controllers that acted
    "controller-count",       // how many distinct controllers acted
    "etcd-key",               // the key of the learner's first created object
    "validation-fields",      // set: field paths of validation errors
    "kubectl-output",         // kubectl's output, trimmed
    "ready-endpoints",        // number of ready endpoints in the Service `object`'s EndpointSlices
    "work-fact",              // the value labelled `arg` in the first Work step of topic `object`
];

/// The ids of the requests kubectl sent for the learner's file.
pub fn learner_request_ids(run: &Run) -> BTreeSet<u32> {
    run.documents.iter().flat_map(|d| d.request_ids.iter().copied()).collect()
}

/// The steps of the learner's own requests.
pub fn learner_steps(run: &Run) -> impl Iterator<Item = &Step> {
    let ids = learner_request_ids(run);
    run.steps.iter().filter(move |s| s.request_id.is_some_and(|id| ids.contains(&id)))
}

/// Objects of the run's final state that did not exist before the learner pressed apply,
/// under an etcd prefix, in key order.
pub fn created_objects<'a>(run: &'a Run, prefix: &str) -> Vec<&'a Object> {
    let store = run.store();
    store
        .list(prefix)
        .into_iter()
        .filter(|(key, _, _)| store.get_at(key, run.setup_revision).is_none())
        .map(|(_, o, _)| o)
        .collect()
}

/// The learner's pod: `name` if given (in any namespace), else the first created pod.
pub fn learner_pod<'a>(run: &'a Run, name: Option<&str>) -> Option<&'a Object> {
    let pods = created_objects(run, "/registry/pods/");
    match name {
        Some(n) => pods.into_iter().find(|o| o.name() == n),
        None => pods.into_iter().next(),
    }
}

fn one(s: impl Into<String>) -> Fact {
    Fact::One(s.into())
}

fn pointer_string(v: &Value, pointer: &str) -> Option<String> {
    v.pointer(pointer).map(|x| match x {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

/// Computes the fact `check` names from `run`. `Err` says why it cannot (an unknown fact, no
/// pod, ...).
pub fn compute(run: &Run, check: &Check) -> Result<Fact, String> {
    let object = check.object.as_deref();
    let pod = || learner_pod(run, object).ok_or_else(|| "the run created no pod".to_string());
    let pod_json = || pod().map(Object::to_json);
    Ok(match check.fact.as_str() {
        "qos-class" => one(pointer_string(&pod_json()?, "/status/qosClass").unwrap_or_default()),
        "node" => one(run
            .steps
            .iter()
            .rev()
            .find_map(|s| match &s.detail {
                Detail::Schedule(d) => Some(d.chosen.clone().unwrap_or_else(|| "none".into())),
                _ => None,
            })
            .unwrap_or_else(|| "none".into())),
        "feasible-nodes" | "rejecting-filters" => {
            let d = run
                .steps
                .iter()
                .find_map(|s| match &s.detail {
                    Detail::Schedule(d) => Some(d),
                    _ => None,
                })
                .ok_or("the run has no scheduling cycle")?;
            if check.fact == "feasible-nodes" {
                Fact::Set(d.filter.iter().filter(|r| r.feasible).map(|r| r.node.clone()).collect())
            } else {
                Fact::Set(
                    d.filter
                        .iter()
                        .flat_map(|r| r.verdicts.iter().filter(|v| !v.passed).map(|v| v.plugin.clone()))
                        .collect(),
                )
            }
        }
        "mutating-plugins" => Fact::Set(
            learner_steps(run)
                .filter_map(|s| match &s.detail {
                    Detail::Admission(a) if a.verdict == AdmissionVerdict::Mutated => Some(a.plugin.clone()),
                    _ => None,
                })
                .collect(),
        ),
        "denied-by" => one(learner_steps(run)
            .find_map(|s| match &s.detail {
                Detail::Admission(a) if a.verdict == AdmissionVerdict::Denied => Some(a.plugin.clone()),
                _ => None,
            })
            .unwrap_or_else(|| "none".into())),
        "http-status" => one(learner_steps(run)
            .filter_map(|s| match &s.detail {
                Detail::Response(r) => Some(r.code.to_string()),
                _ => None,
            })
            .last()
            .ok_or("no response to the learner's requests")?),
        "status-reason" => one(run.documents.iter().find_map(|d| d.reason.clone()).unwrap_or_else(|| "none".into())),
        "authorizer" | "allowed" => {
            let a = learner_steps(run)
                .filter_map(|s| match &s.detail {
                    Detail::Authorization(a) => Some(a),
                    _ => None,
                })
                .last()
                .ok_or("no authorization step")?;
            if check.fact == "authorizer" {
                one(a.authorizer.clone())
            } else {
                one(if a.allowed { "yes" } else { "no" })
            }
        }
        "auth-method" | "username" | "groups" => {
            let a = learner_steps(run)
                .find_map(|s| match &s.detail {
                    Detail::Authentication(a) => Some(a),
                    _ => None,
                })
                .ok_or("no authentication step")?;
            match check.fact.as_str() {
                "auth-method" => one(a.method.clone()),
                "username" => one(a.user.username.clone()),
                _ => Fact::Set(a.user.groups.iter().cloned().collect()),
            }
        }
        "first-failed-phase" | "first-failed-component" => {
            match run.steps.iter().find(|s| s.status == StepStatus::Failed) {
                None => one("none"),
                Some(s) if check.fact == "first-failed-phase" => one(s.phase.id()),
                Some(s) => one(s.from.title()),
            }
        }
        "pod-status" | "pod-ready" => {
            let p = pod()?.as_pod().ok_or("not a pod")?;
            let sum = pod_summary(p);
            if check.fact == "pod-status" {
                one(sum.status)
            } else {
                one(format!("{}/{}", sum.ready, sum.total))
            }
        }
        "pod-ip" => one(pointer_string(&pod_json()?, "/status/podIP").ok_or("the pod has no IP")?),
        "pod-cidr" => {
            let node = pointer_string(&pod_json()?, "/spec/nodeName").ok_or("the pod is not bound")?;
            let n = run
                .store()
                .get_at(&format!("/registry/minions/{node}"), run.final_revision)
                .ok_or("no such node")?
                .0
                .to_json();
            one(pointer_string(&n, "/spec/podCIDR").ok_or("the node has no podCIDR")?)
        }
        "pod-count" => one(created_objects(run, "/registry/pods/").len().to_string()),
        "pod-field" => {
            let pointer = check.arg.as_deref().ok_or("pod-field needs arg (a JSON pointer)")?;
            one(pointer_string(&pod_json()?, pointer).unwrap_or_else(|| "(none)".into()))
        }
        "event-reasons" | "warning-reasons" => {
            let mut seq: Vec<String> = Vec::new();
            for s in &run.steps {
                if let Detail::Event(e) = &s.detail {
                    if check.fact == "warning-reasons" && e.event_type != "Warning" {
                        continue;
                    }
                    if !seq.contains(&e.reason) {
                        seq.push(e.reason.clone());
                    }
                }
            }
            if check.fact == "event-reasons" {
                Fact::Seq(seq)
            } else {
                Fact::Set(seq.into_iter().collect())
            }
        }
        "phase-order" => {
            // The path of the writes: apply's preliminary GET (which reads etcd early) is
            // left out.
            let reads: BTreeSet<u32> = run
                .steps
                .iter()
                .filter_map(|s| match &s.detail {
                    Detail::Request(r) if r.method == "GET" => s.request_id,
                    _ => None,
                })
                .collect();
            let mut seq: Vec<String> = Vec::new();
            for s in run.steps.iter().filter(|s| s.request_id.is_none_or(|id| !reads.contains(&id))) {
                let id = s.phase.id().to_string();
                if !seq.contains(&id) {
                    seq.push(id);
                }
            }
            Fact::Seq(seq)
        }
        "controllers" => Fact::Set(
            run.steps
                .iter()
                .filter_map(|s| match &s.detail {
                    Detail::Controller(c) => Some(c.controller.clone()),
                    _ => None,
                })
                .collect(),
        ),
        "controller-count" => {
            let n = run
                .steps
                .iter()
                .filter_map(|s| match &s.detail {
                    Detail::Controller(c) => Some(c.controller.clone()),
                    _ => None,
                })
                .collect::<BTreeSet<_>>()
                .len();
            one(n.to_string())
        }
        "etcd-key" => one(learner_steps(run)
            .find_map(|s| match &s.detail {
                Detail::Etcd(e) if e.operation == podlab_engine::trace::EtcdOperation::Create && e.error.is_none() => {
                    Some(e.key.clone())
                }
                _ => None,
            })
            .ok_or("the learner's request wrote nothing")?),
        "validation-fields" => Fact::Set(
            learner_steps(run)
                .flat_map(|s| match &s.detail {
                    Detail::Validation(v) => v.errors.iter().map(|e| e.field.clone()).collect(),
                    _ => Vec::new(),
                })
                .collect(),
        ),
        "kubectl-output" => one(run.kubectl_output.trim()),
        "ready-endpoints" => {
            let service = object.ok_or("ready-endpoints needs object (the Service name)")?;
            one(ready_endpoints(run, service).to_string())
        }
        "work-fact" => {
            let topic = object.ok_or("work-fact needs object (the topic)")?;
            let label = check.arg.as_deref().ok_or("work-fact needs arg (the label)")?;
            one(run
                .steps
                .iter()
                .find_map(|s| match &s.detail {
                    Detail::Work(w) if w.topic == topic => {
                        w.facts.iter().find(|(l, _)| l == label).map(|(_, v)| v.clone())
                    }
                    _ => None,
                })
                .ok_or_else(|| format!("no {topic} step with {label:?}"))?)
        }
        other => return Err(format!("unknown fact {other:?}")),
    })
}

/// Ready endpoints of a Service's EndpointSlices (label `kubernetes.io/service-name`) at the
/// end of the run.
pub fn ready_endpoints(run: &Run, service: &str) -> usize {
    run.store()
        .list("/registry/endpointslices/")
        .into_iter()
        .map(|(_, o, _)| o.to_json())
        .filter(|j| pointer_string(j, "/metadata/labels/kubernetes.io~1service-name").as_deref() == Some(service))
        .map(|j| {
            j.get("endpoints")
                .and_then(Value::as_array)
                .map(|eps| {
                    eps.iter()
                        .filter(|e| e.pointer("/conditions/ready").and_then(Value::as_bool).unwrap_or(true))
                        .count()
                })
                .unwrap_or(0)
        })
        .sum()
}

/// Whether the learner's requests passed a validating admission plugin without a warning.
pub fn admitted_cleanly(run: &Run, plugin: &str) -> Option<bool> {
    let steps: Vec<_> = learner_steps(run)
        .filter_map(|s| match &s.detail {
            Detail::Admission(a) if a.plugin == plugin && a.stage == AdmissionStage::Validating => Some(a),
            _ => None,
        })
        .collect();
    if steps.is_empty() {
        return None;
    }
    Some(steps.iter().all(|a| a.verdict != AdmissionVerdict::Denied && a.warnings.is_empty()))
}

/// The first step of `phase` at or after `from`.
pub fn first_step_of(run: &Run, phase: Phase, from: usize) -> Option<usize> {
    run.steps.iter().skip(from).find(|s| s.phase == phase).map(|s| s.index)
}

/// Checks a question's answer against the engine: runs its scenario and compares the fact its
/// `check` names with the answer. Single choice: exactly the right choice stands for the fact
/// (a set fact must be that one value); multiple select: the right choices are exactly the
/// set; short answer: the fact is an accepted answer; ordering: the items, in the right order,
/// are the fact sequence restricted to them. `Ok(None)` for a question without a check.
pub fn verify(question: &crate::quiz::Question) -> Result<Option<Fact>, String> {
    use crate::quiz::Kind;
    use crate::text::normalize;
    let (Some(scenario), Some(check)) = (&question.scenario, &question.check) else { return Ok(None) };
    let run = podlab_engine::lab::run(&scenario.input()).map_err(|e| e.to_string())?;
    let fact = compute(&run, check)?;
    let keys = |correct: bool| -> BTreeSet<String> {
        question.choices.iter().filter(|c| c.correct == correct).map(|c| normalize(c.key())).collect()
    };
    let ok = match (question.kind, &fact) {
        (Kind::SingleChoice | Kind::WhichFailed, Fact::One(v)) => {
            let v = normalize(v);
            keys(true).contains(&v) && !keys(false).contains(&v)
        }
        (Kind::SingleChoice | Kind::WhichFailed | Kind::MultipleSelect, Fact::Set(set)) => {
            let set: BTreeSet<String> = set.iter().map(|s| normalize(s)).collect();
            keys(true) == set && keys(false).is_disjoint(&set)
        }
        (Kind::ShortAnswer, Fact::One(v)) => question.accepted.iter().any(|a| normalize(a) == normalize(v)),
        (Kind::Ordering, Fact::Seq(seq)) => {
            let items: Vec<String> = question
                .correct_order()
                .iter()
                .filter_map(|id| question.choice(*id))
                .map(|c| normalize(c.key()))
                .collect();
            let seen: Vec<String> = seq.iter().map(|s| normalize(s)).filter(|s| items.contains(s)).collect();
            seen == items
        }
        _ => false,
    };
    if ok {
        Ok(Some(fact))
    } else {
        Err(format!(
            "{}: the engine says {} = {fact}, the question says {}",
            question.id,
            check.fact,
            question.answer_text()
        ))
    }
}
