//! The Job controller: runs Pods until `completions` of them succeed, or gives up.
//!
//! Each Pod a Job creates carries the finalizer `batch.kubernetes.io/job-tracking`, so a
//! finished Pod cannot disappear before it is counted. Counting is two-phase: a finished
//! Pod's UID first goes into `status.uncountedTerminatedPods`, then the finalizer is
//! removed, then the UID moves into `succeeded` or `failed`. Only when nothing is uncounted
//! and no Pod is terminating does the Job get its terminal condition — since v1.31 the
//! interim `SuccessCriteriaMet` or `FailureTarget` condition comes first, then `Complete`
//! or `Failed` (with `completionTime` for a completed Job).
//!
//! Failed Pods are replaced after an exponential back-off: 10 s after the last failure,
//! doubled per consecutive failure, capped at 10 minutes (`DefaultJobPodFailureBackOff`,
//! `MaxJobPodFailureBackOff`). The Job fails when more than `backoffLimit` Pods failed
//! (`BackoffLimitExceeded`, "Job has reached the specified backoff limit") or when it
//! ran longer than `activeDeadlineSeconds` (`DeadlineExceeded`). Pod events are batched:
//! the controller syncs a Job one second after a Pod change (`syncJobBatchPeriod`).
//!
//! `completionMode: Indexed`: each Pod gets a completion index from 0 to `completions - 1`
//! (the annotation and label `batch.kubernetes.io/job-completion-index`, the environment
//! variable `JOB_COMPLETION_INDEX` in every container, the hostname `<job>-<index>` and the
//! name `<job>-<index>-<suffix>`); the lowest pending indexes are created first, a failed
//! index is retried with a new Pod, and success is counted by index in
//! `status.completedIndexes` (`0-2,4`), not by Pod UIDs.
//!
//! `podFailurePolicy`: each failed Pod is matched against the rules in order (exit codes of
//! terminated containers, app containers before init containers, or Pod conditions); the
//! first match decides: `FailJob` fails the Job at once (the interim `FailureTarget`, then
//! `Failed`, both with reason `PodFailurePolicy` and upstream's message), `Ignore` leaves the
//! failure out of the `backoffLimit` count (the Pod is still replaced), `Count` (and
//! `FailIndex`, which acts only with `backoffLimitPerIndex`) counts it as usual.
//!
//! Not modelled: `successPolicy`, `backoffLimitPerIndex`, `managedBy`, and
//! `podReplacementPolicy: Failed` delaying the replacement of terminating Pods.

use super::replicaset::{create_pods_in_batches, namespace_terminating};
use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::labels;
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::batch::v1::{Job, JobCondition, JobSpec, JobStatus, UncountedTerminatedPods};
use k8s_openapi::api::core::v1::Pod;
use std::collections::{BTreeMap, BTreeSet};

pub const NAME: &str = "job-controller";
pub const SERVICE_ACCOUNT: &str = "job-controller";
/// From a Job watch event to its sync.
pub const WATCH_LATENCY_MS: u64 = 2;
/// Pod events are batched (`syncJobBatchPeriod`).
pub const SYNC_BATCH_MS: u64 = 1000;
pub const DEFAULT_POD_FAILURE_BACKOFF_MS: i64 = 10_000;
pub const MAX_POD_FAILURE_BACKOFF_MS: i64 = 600_000;
pub const MAX_POD_CREATE_DELETE_PER_SYNC: i32 = 500;
pub const JOB_TRACKING_FINALIZER: &str = "batch.kubernetes.io/job-tracking";
/// The annotation (and label) with an Indexed Job's completion index.
pub const COMPLETION_INDEX: &str = "batch.kubernetes.io/job-completion-index";
/// The environment variable the controller adds to every container of an Indexed Job.
pub const COMPLETION_INDEX_ENV: &str = "JOB_COMPLETION_INDEX";
/// `names.MaxGeneratedNameLength`: 63 minus the 5 random characters.
const MAX_GENERATED_NAME_LENGTH: usize = 58;
/// Retry back-off of failed syncs (`DefaultJobApiBackOff`, `MaxJobApiBackOff`).
pub const API_BACKOFF_MS: u64 = 1_000;
pub const MAX_API_BACKOFF_MS: u64 = 60_000;

const SOURCE: EventSourceInfo =
    EventSourceInfo { component: "job-controller", service_account: SERVICE_ACCOUNT, phase: Phase::Controllers };

/// Consecutive failures since the last success, for the Pod re-creation back-off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct BackoffRecord {
    failures_after_last_success: i32,
    last_failure_ms: Option<i64>,
}

impl BackoffRecord {
    fn remaining_ms(&self, now_ms: i64) -> i64 {
        if self.failures_after_last_success == 0 {
            return 0;
        }
        let mut backoff = DEFAULT_POD_FAILURE_BACKOFF_MS;
        for _ in 1..self.failures_after_last_success {
            backoff *= 2;
            if backoff >= MAX_POD_FAILURE_BACKOFF_MS {
                backoff = MAX_POD_FAILURE_BACKOFF_MS;
                break;
            }
        }
        let elapsed = now_ms - self.last_failure_ms.unwrap_or(now_ms);
        (backoff - elapsed).max(0)
    }
}

#[derive(Debug, Default)]
pub struct JobController {
    backoff: BTreeMap<String, BackoffRecord>,
}

fn job_of(cx: &Cx, pod: &Pod) -> Option<Job> {
    let r = controller_of(&pod.metadata).filter(|r| r.kind == "Job")?;
    match resolve_owner(cx.core, pod.metadata.namespace.as_deref(), r).as_deref() {
        Some(Object::Job(j)) => Some((**j).clone()),
        _ => None,
    }
}

fn is_indexed(job: &Job) -> bool {
    job.spec.as_ref().and_then(|s| s.completion_mode.as_deref()) == Some("Indexed")
}

/// The Pod's completion index, when it has a valid one.
fn completion_index(pod: &Pod) -> Option<i32> {
    let v = pod.metadata.annotations.as_ref()?.get(COMPLETION_INDEX)?;
    v.parse::<i32>().ok().filter(|i| *i >= 0)
}

/// `completedIndexes` as upstream writes it: ascending, runs of three or more as `a-b`,
/// a run of two as `a,b` (`0-2,4,6,7`).
pub fn format_indexes(set: &BTreeSet<i32>) -> String {
    let mut out = String::new();
    let mut iter = set.iter().copied().peekable();
    while let Some(first) = iter.next() {
        let mut last = first;
        while iter.peek() == Some(&(last + 1)) {
            last = iter.next().unwrap_or(last);
        }
        if !out.is_empty() {
            out.push(',');
        }
        out.push_str(&first.to_string());
        if last > first {
            out.push(if last == first + 1 { ',' } else { '-' });
            out.push_str(&last.to_string());
        }
    }
    out
}

/// Parses `completedIndexes`, keeping indexes below `completions` (upstream drops the rest).
pub fn parse_indexes(text: &str, completions: i32) -> BTreeSet<i32> {
    let mut set = BTreeSet::new();
    for part in text.split(',').filter(|p| !p.is_empty()) {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        if let (Ok(a), Ok(b)) = (a.trim().parse::<i32>(), b.trim().parse::<i32>()) {
            set.extend(a.max(0)..=b.min(completions - 1));
        }
    }
    set
}

/// `podGenerateNameWithIndex`: `<job>-<index>-`, the job name cut so it fits.
pub fn generate_name_with_index(job: &str, index: i32) -> String {
    let append = format!("-{index}-");
    let prefix = format!("{job}{append}");
    if prefix.len() > MAX_GENERATED_NAME_LENGTH {
        // Job names are DNS subdomains (ASCII), so cutting at a byte is cutting at a character.
        return format!("{}{append}", &job[..MAX_GENERATED_NAME_LENGTH - append.len()]);
    }
    prefix
}

/// `calculateSucceededIndexes`: the indexes recorded in the status plus those of
/// succeeded Pods still carrying the tracking finalizer.
fn succeeded_indexes(job: &Job, pods: &[Pod]) -> BTreeSet<i32> {
    let completions = job.spec.as_ref().and_then(|s| s.completions).unwrap_or(0);
    let recorded = job.status.as_ref().and_then(|s| s.completed_indexes.as_deref()).unwrap_or("");
    let mut set = parse_indexes(recorded, completions);
    for p in pods {
        if phase(p) == "Succeeded" && has_tracking_finalizer(p) {
            if let Some(ix) = completion_index(p).filter(|ix| *ix < completions) {
                set.insert(ix);
            }
        }
    }
    set
}

fn has_tracking_finalizer(pod: &Pod) -> bool {
    has_finalizer(&pod.metadata, JOB_TRACKING_FINALIZER)
}

fn condition_true(job: &Job, t: &str) -> Option<JobCondition> {
    job.status.as_ref()?.conditions.as_ref()?.iter().find(|c| c.type_ == t && c.status == "True").cloned()
}

/// A Job with a `Complete` or `Failed` condition.
pub fn is_finished(job: &Job) -> bool {
    condition_true(job, "Complete").is_some() || condition_true(job, "Failed").is_some()
}

impl Controller for JobController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            Object::Job(job) => {
                if ev.kind == EventType::Deleted {
                    return;
                }
                if let Some(Object::Job(prev)) = ev.prev.as_deref() {
                    if prev.spec == job.spec
                        && prev.metadata.deletion_timestamp == job.metadata.deletion_timestamp
                        && prev.metadata.labels == job.metadata.labels
                    {
                        return;
                    }
                }
                let reason = if ev.kind == EventType::Added { "a new Job: start its Pods" } else { "the Job changed" };
                cx.watch(NAME, Phase::Controllers, ev, &key_of(&job.metadata), WATCH_LATENCY_MS, reason);
            }
            Object::Pod(pod) => {
                if let Some(job) = job_of(cx, pod) {
                    let reason = match ev.kind {
                        EventType::Added => "a Pod of this Job was created",
                        EventType::Deleted => "a Pod of this Job is gone",
                        EventType::Modified => "a Pod of this Job changed",
                    };
                    cx.watch(NAME, Phase::Controllers, ev, &key_of(&job.metadata), SYNC_BATCH_MS, reason);
                    if !is_finished(&job) {
                        return;
                    }
                }
                // A tracked Pod whose Job is gone or finished: remove the finalizer.
                if ev.kind != EventType::Deleted && has_tracking_finalizer(pod) {
                    let owned_by_job = controller_of(&pod.metadata).is_some_and(|r| r.kind == "Job");
                    let job = job_of(cx, pod);
                    if job.is_none() || job.as_ref().is_some_and(is_finished) || !owned_by_job {
                        let key = format!("orphan/{}", key_of(&pod.metadata));
                        cx.watch(
                            NAME,
                            Phase::Controllers,
                            ev,
                            &key,
                            WATCH_LATENCY_MS,
                            "a tracked Pod has no running Job",
                        );
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        if let Some(pod_key) = key.strip_prefix("orphan/") {
            sync_orphan_pod(cx, pod_key);
            return;
        }
        let (ns, name) = split_key(key);
        let Some(Object::Job(job)) = get(cx.core, "Job", ns, name) else {
            self.backoff.remove(key);
            return;
        };
        if is_finished(&job) {
            self.backoff.remove(key);
            return;
        }
        let mut s = JobSync {
            cx,
            key: key.to_string(),
            job: std::sync::Arc::unwrap_or_clone(job),
            backoff: self.backoff.get(key).copied().unwrap_or_default(),
        };
        let (result, record) = s.sync();
        if let Some(r) = record {
            self.backoff.insert(key.to_string(), r);
        }
        match result {
            Ok(()) => s.cx.forget(NAME, key),
            Err(()) => {
                s.cx.requeue_with_backoff(NAME, key, API_BACKOFF_MS, MAX_API_BACKOFF_MS);
            }
        }
    }
}

fn sync_orphan_pod(cx: &mut Cx, pod_key: &str) {
    let (ns, name) = split_key(pod_key);
    let Some(Object::Pod(pod)) = get(cx.core, "Pod", ns, name) else { return };
    if !has_tracking_finalizer(&pod) {
        return;
    }
    if let Some(r) = controller_of(&pod.metadata) {
        if r.kind != "Job" {
            return;
        }
        if let Some(Object::Job(job)) = resolve_owner(cx.core, ns, r).as_deref() {
            if !is_finished(job) {
                return;
            }
        }
    }
    let obj = Object::from(pod.as_ref().clone());
    cx.decide(
        Phase::Controllers,
        NAME,
        Some(&obj),
        format!("job-controller removes the tracking finalizer of orphan Pod {name}"),
        "the Pod's Job is gone or finished".into(),
        "no finalizer on Pods nobody tracks".into(),
        vec![format!("remove finalizer {JOB_TRACKING_FINALIZER}")],
        StepStatus::Ok,
    );
    let _ = remove_tracking_finalizer(cx, &pod);
}

/// ` completedIndexes=0-2` for an Indexed Job's status line, empty otherwise.
fn completed_text(st: &JobStatus) -> String {
    match st.completed_indexes.as_deref() {
        Some(t) => format!(" completedIndexes={t}"),
        None => String::new(),
    }
}

fn uncounted_text(u: &UncountedTerminatedPods) -> String {
    let mut parts = Vec::new();
    for (k, v) in [("succeeded", &u.succeeded), ("failed", &u.failed)] {
        if let Some(v) = v.as_ref().filter(|v| !v.is_empty()) {
            parts.push(format!("{k}: {} UID(s)", v.len()));
        }
    }
    format!("{{{}}}", parts.join(", "))
}

/// `removeTrackingFinalizerPatch`: a strategic merge patch that deletes the finalizer from
/// the Pod's list (the job-controller role may patch pods, not update them).
fn remove_tracking_finalizer(cx: &mut Cx, pod: &Pod) -> crate::apiserver::ApiResponse {
    let patch = serde_json::json!({"metadata": {"$deleteFromPrimitiveList/finalizers": [JOB_TRACKING_FINALIZER]}});
    cx.request(
        SERVICE_ACCOUNT,
        crate::apiserver::Verb::Patch,
        "Pod",
        pod.metadata.namespace.as_deref(),
        pod.metadata.name.as_deref(),
        None,
        Some(crate::apiserver::Body::Json(patch)),
    )
}

/// When a Pod finished: the last container termination, else the Ready=False transition,
/// else the deletion timestamp, else its creation (`getFinishedTime`).
fn finished_ms(p: &Pod) -> i64 {
    let statuses = p.status.as_ref().and_then(|s| s.container_statuses.as_ref());
    if let Some(cs) = statuses {
        let ends: Vec<Option<i64>> = cs
            .iter()
            .map(|c| {
                c.state.as_ref().and_then(|s| s.terminated.as_ref()).and_then(|t| t.finished_at.as_ref()).map(time_ms)
            })
            .collect();
        if !ends.is_empty() && ends.iter().all(Option::is_some) {
            return ends.into_iter().flatten().max().unwrap_or(0);
        }
    }
    if let Some(c) = pod_condition(p, "Ready").filter(|c| c.status == "False") {
        if let Some(t) = c.last_transition_time.as_ref() {
            return time_ms(t);
        }
    }
    if let Some(t) = p.metadata.deletion_timestamp.as_ref() {
        return time_ms(t);
    }
    p.metadata.creation_timestamp.as_ref().map(time_ms).unwrap_or(0)
}

/// Failed, or deleted before finishing (`isPodFailed`). A Job that only replaces failed
/// Pods (`podReplacementPolicy: Failed`, the default with a `podFailurePolicy`) waits for
/// the Failed phase.
fn is_pod_failed(spec: Option<&JobSpec>, p: &Pod) -> bool {
    let only_failed =
        spec.is_some_and(|s| s.pod_failure_policy.is_some() || s.pod_replacement_policy.as_deref() == Some("Failed"));
    phase(p) == "Failed" || (!only_failed && p.metadata.deletion_timestamp.is_some() && phase(p) != "Succeeded")
}

/// How a failed Pod matches the Job's `podFailurePolicy` (`matchPodFailurePolicy`): the
/// Job failure message of a `FailJob` rule, whether the failure counts towards
/// `backoffLimit` (not when an `Ignore` rule matches), and the matching rule's action. The
/// first rule that matches decides; no policy or no matching rule counts the failure.
fn match_pod_failure_policy(spec: Option<&JobSpec>, pod: &Pod) -> (Option<String>, bool, Option<String>) {
    let Some(policy) = spec.and_then(|s| s.pod_failure_policy.as_ref()) else {
        return (None, true, None);
    };
    let ns = pod.metadata.namespace.as_deref().unwrap_or("");
    let name = pod.metadata.name.as_deref().unwrap_or("");
    let status = pod.status.as_ref();
    for (index, rule) in policy.rules.iter().enumerate() {
        let matched = if let Some(req) = &rule.on_exit_codes {
            // App containers first, then init containers; a container that has not
            // terminated, or exited 0, has no exit code to match.
            let statuses = status
                .into_iter()
                .flat_map(|s| s.container_statuses.iter().flatten().chain(s.init_container_statuses.iter().flatten()));
            statuses
                .filter(|cs| req.container_name.as_ref().is_none_or(|n| *n == cs.name))
                .find_map(|cs| {
                    let code = cs.state.as_ref()?.terminated.as_ref()?.exit_code;
                    let listed = req.values.contains(&code);
                    let matches = match req.operator.as_str() {
                        "In" => listed,
                        "NotIn" => !listed,
                        _ => false,
                    };
                    (code != 0 && matches).then(|| {
                        format!(
                            "Container {} for pod {ns}/{name} failed with exit code {code} matching {} rule at index {index}",
                            cs.name, rule.action
                        )
                    })
                })
        } else if let Some(patterns) = &rule.on_pod_conditions {
            status.and_then(|s| s.conditions.as_ref()).and_then(|conds| {
                conds.iter().find_map(|c| {
                    patterns
                        .iter()
                        .any(|p| p.type_ == c.type_ && p.status.as_deref().unwrap_or("True") == c.status)
                        .then(|| {
                            format!(
                                "Pod {ns}/{name} has condition {} matching {} rule at index {index}",
                                c.type_, rule.action
                            )
                        })
                })
            })
        } else {
            None
        };
        let Some(fail_job_message) = matched else { continue };
        match rule.action.as_str() {
            "Ignore" => return (None, false, Some(rule.action.clone())),
            // FailIndex only acts with backoffLimitPerIndex (not modelled); it counts.
            "Count" | "FailIndex" => return (None, true, Some(rule.action.clone())),
            "FailJob" => return (Some(fail_job_message), true, Some(rule.action.clone())),
            _ => {}
        }
    }
    (None, true, None)
}

/// The message of the first failed Pod that matches a `FailJob` rule (`getFailJobMessage`).
fn fail_job_message(spec: Option<&JobSpec>, pods: &[Pod]) -> Option<String> {
    pods.iter().filter(|p| is_pod_failed(spec, p)).find_map(|p| match_pod_failure_policy(spec, p).0)
}

fn new_condition(t: &str, reason: &str, message: &str, now_ms: u64) -> JobCondition {
    let now = crate::apiserver::timestamp(now_ms);
    JobCondition {
        type_: t.into(),
        status: "True".into(),
        last_probe_time: Some(now.clone()),
        last_transition_time: Some(now),
        reason: Some(reason.into()),
        message: Some(message.into()),
    }
}

/// `ensureJobConditionStatus`: sets a condition, or adds it unless it would be False.
fn ensure_condition(
    list: &mut Vec<JobCondition>,
    t: &str,
    status: &str,
    reason: &str,
    message: &str,
    now_ms: u64,
) -> bool {
    if let Some(c) = list.iter_mut().find(|c| c.type_ == t) {
        if c.status != status || c.reason.as_deref() != Some(reason) || c.message.as_deref() != Some(message) {
            *c = new_condition(t, reason, message, now_ms);
            c.status = status.into();
            return true;
        }
        return false;
    }
    if status != "False" {
        let mut c = new_condition(t, reason, message, now_ms);
        c.status = status.into();
        list.push(c);
        return true;
    }
    false
}

struct JobSync<'a, 'b> {
    cx: &'a mut Cx<'b>,
    key: String,
    job: Job,
    backoff: BackoffRecord,
}

impl JobSync<'_, '_> {
    fn name(&self) -> String {
        self.job.metadata.name.clone().unwrap_or_default()
    }

    fn decide(&mut self, summary: String, observed: String, actions: Vec<String>, status: StepStatus) {
        let obj = Object::from(self.job.clone());
        let spec = self.job.spec.clone().unwrap_or_default();
        let desired = format!(
            "{} completion(s), parallelism {}, backoffLimit {}",
            spec.completions.map_or("any 1".to_string(), |c| c.to_string()),
            spec.parallelism.unwrap_or(1),
            spec.backoff_limit.unwrap_or(6)
        );
        self.cx.decide(Phase::Controllers, NAME, Some(&obj), summary, observed, desired, actions, status);
    }

    fn update_status(&mut self, summary: String, actions: Vec<String>, warn: bool) -> bool {
        let observed = {
            let s = self.job.status.clone().unwrap_or_default();
            format!(
                "active {}, ready {}, succeeded {}, failed {}, terminating {}",
                s.active.unwrap_or(0),
                s.ready.unwrap_or(0),
                s.succeeded.unwrap_or(0),
                s.failed.unwrap_or(0),
                s.terminating.unwrap_or(0)
            )
        };
        self.decide(summary, observed, actions, if warn { StepStatus::Warning } else { StepStatus::Ok });
        let resp = self.cx.update_status(SERVICE_ACCOUNT, Object::from(self.job.clone()));
        resp.ok()
    }

    fn sync(&mut self) -> (Result<(), ()>, Option<BackoffRecord>) {
        let now = self.cx.core.now;
        let ns = self.job.metadata.namespace.clone();
        let spec = self.job.spec.clone().unwrap_or_default();
        let backoff_limit = spec.backoff_limit.unwrap_or(6);
        let parallelism = spec.parallelism.unwrap_or(1);
        let completions = spec.completions.or(if spec.parallelism.is_none() { Some(1) } else { None });
        let suspended = spec.suspend.unwrap_or(false);
        let status = self.job.status.get_or_insert_with(Default::default);
        let uncounted = status.uncounted_terminated_pods.get_or_insert_with(UncountedTerminatedPods::default).clone();
        let unc_succ: BTreeSet<String> = uncounted.succeeded.clone().unwrap_or_default().into_iter().collect();
        let unc_fail: BTreeSet<String> = uncounted.failed.clone().unwrap_or_default().into_iter().collect();

        let pods = self.pods_for_job(ns.as_deref());
        let active_pods: Vec<Pod> = pods.iter().filter(|p| is_pod_active(p)).cloned().collect();
        let mut ready = active_pods.iter().filter(|p| is_pod_ready(p)).count() as i32;
        let mut terminating = pods.iter().filter(|p| is_pod_terminating(p)).count() as i32;
        let mut active = active_pods.len() as i32;
        let uid_of = |p: &Pod| p.metadata.uid.clone().unwrap_or_default();
        let new_succeeded: Vec<Pod> = pods
            .iter()
            .filter(|p| has_tracking_finalizer(p) && !unc_succ.contains(&uid_of(p)) && phase(p) == "Succeeded")
            .cloned()
            .collect();
        let new_failed: Vec<Pod> = pods
            .iter()
            .filter(|p| {
                has_tracking_finalizer(p) && !unc_fail.contains(&uid_of(p)) && is_pod_failed(self.job.spec.as_ref(), p)
            })
            .cloned()
            .collect();
        let status = self.job.status.clone().unwrap_or_default();
        // An Indexed Job counts success by index (empty for other Jobs).
        let done_indexes = if is_indexed(&self.job) { succeeded_indexes(&self.job, &pods) } else { BTreeSet::new() };
        let succeeded = if is_indexed(&self.job) {
            done_indexes.len() as i32
        } else {
            status.succeeded.unwrap_or(0) + new_succeeded.len() as i32 + unc_succ.len() as i32
        };
        // Failures an `Ignore` rule of the podFailurePolicy matches do not count.
        let counted_failures =
            new_failed.iter().filter(|p| match_pod_failure_policy(self.job.spec.as_ref(), p).1).count();
        let failed = status.failed.unwrap_or(0) + counted_failures as i32 + unc_fail.len() as i32;

        if status.start_time.is_none() && !suspended {
            self.job.status.get_or_insert_with(Default::default).start_time = Some(crate::apiserver::timestamp(now));
        }
        let new_backoff = self.new_backoff_record(&new_succeeded, &new_failed);

        // The end state: earlier interim conditions first, then failure, then success.
        let mut finished: Option<JobCondition> = condition_true(&self.job, "SuccessCriteriaMet");
        if finished.is_none() {
            if let Some(ft) = condition_true(&self.job, "FailureTarget") {
                finished = Some(new_condition(
                    "Failed",
                    ft.reason.as_deref().unwrap_or(""),
                    ft.message.as_deref().unwrap_or(""),
                    now,
                ));
            } else if let Some(message) = fail_job_message(self.job.spec.as_ref(), &pods) {
                finished = Some(new_condition("FailureTarget", "PodFailurePolicy", &message, now));
            }
        }
        if finished.is_none() {
            if failed > backoff_limit || past_backoff_limit_on_failure(&self.job, &pods, backoff_limit) {
                finished = Some(new_condition(
                    "FailureTarget",
                    "BackoffLimitExceeded",
                    "Job has reached the specified backoff limit",
                    now,
                ));
            } else if self.past_active_deadline() {
                finished = Some(new_condition(
                    "FailureTarget",
                    "DeadlineExceeded",
                    "Job was active longer than specified deadline",
                    now,
                ));
            } else if let (Some(ads), false) = (spec.active_deadline_seconds, suspended) {
                let start =
                    self.job.status.as_ref().and_then(|s| s.start_time.as_ref()).map(time_ms).unwrap_or(now as i64);
                let remaining = (start + ads * 1000 - now as i64).max(0) as u64;
                let key = self.key.clone();
                self.cx.enqueue(NAME, &key, remaining);
            }
        }

        let mut manage_err = false;
        let mut suspend_changed = false;
        if let Some(fc) = finished.clone() {
            // The Job failed: delete its active Pods (their finalizers stay until counted).
            if !active_pods.is_empty() {
                self.decide(
                    format!(
                        "job-controller deletes the {} active Pod(s) of failed Job {}",
                        active_pods.len(),
                        self.name()
                    ),
                    match fc.reason.as_deref() {
                        Some("PodFailurePolicy") => fc.message.clone().unwrap_or_default(),
                        _ => format!("{failed} failed Pod(s), backoffLimit {backoff_limit}"),
                    },
                    active_pods
                        .iter()
                        .map(|p| format!("DELETE Pod {}", p.metadata.name.as_deref().unwrap_or("")))
                        .collect(),
                    StepStatus::Warning,
                );
            }
            let mut deleted = 0;
            for p in &active_pods {
                let r = self.cx.delete(
                    SERVICE_ACCOUNT,
                    "Pod",
                    ns.as_deref(),
                    p.metadata.name.as_deref().unwrap_or(""),
                    None,
                );
                if r.ok() || r.error.as_ref().is_some_and(|e| e.code == 404) {
                    deleted += 1;
                    if is_pod_ready(p) {
                        ready -= 1;
                    }
                } else {
                    manage_err = true;
                }
            }
            if deleted != active {
                finished = None;
            } else {
                finished = Some(fc);
            }
            active -= deleted;
            terminating += deleted;
        } else {
            if self.job.metadata.deletion_timestamp.is_none() {
                let (a, err) = self.manage_job(
                    &active_pods,
                    succeeded,
                    &done_indexes,
                    parallelism,
                    completions,
                    suspended,
                    &new_backoff,
                    &mut ready,
                    &mut terminating,
                );
                active = a;
                manage_err = err;
                let complete = match completions {
                    None => succeeded > 0 && active == 0,
                    Some(c) => succeeded >= c && active == 0,
                };
                if complete {
                    finished = Some(new_condition(
                        "SuccessCriteriaMet",
                        "CompletionsReached",
                        "Reached expected number of succeeded pods",
                        now,
                    ));
                } else {
                    let (reason, msg, status, ev_reason) = if suspended {
                        ("JobSuspended", "Job suspended", "True", "Suspended")
                    } else {
                        ("JobResumed", "Job resumed", "False", "Resumed")
                    };
                    let st = self.job.status.get_or_insert_with(Default::default);
                    let mut conds = st.conditions.take().unwrap_or_default();
                    let changed = ensure_condition(&mut conds, "Suspended", status, reason, msg, now);
                    st.conditions = (!conds.is_empty()).then_some(conds);
                    if changed {
                        suspend_changed = true;
                        if !suspended {
                            st.start_time = Some(crate::apiserver::timestamp(now));
                        }
                        let obj = Object::from(self.job.clone());
                        self.cx.event(SOURCE, &obj, "Normal", ev_reason, msg);
                    }
                }
            }
        }

        let st = self.job.status.get_or_insert_with(Default::default);
        let needs_update = suspend_changed
            || st.active.unwrap_or(0) != active
            || st.ready != Some(ready)
            || st.terminating != Some(terminating);
        st.active = nz(active);
        st.ready = Some(ready);
        st.terminating = Some(terminating);
        let flushed = self.track_status(&pods, finished, needs_update, terminating);
        let record = if flushed { Some(new_backoff) } else { None };
        let result = if manage_err { Err(()) } else { Ok(()) };
        (result, record)
    }

    /// The Job's Pods: those it controls, plus orphans its selector matches (adopted, with
    /// the tracking finalizer added).
    fn pods_for_job(&mut self, ns: Option<&str>) -> Vec<Pod> {
        let uid = self.job.metadata.uid.clone().unwrap_or_default();
        let sel = self.job.spec.as_ref().and_then(|s| s.selector.clone());
        let mut out = Vec::new();
        let mut recheck = None;
        for p in pods(self.cx.core, ns) {
            let matches = labels::matches(sel.as_ref(), p.metadata.labels.as_ref());
            if is_controlled_by(&p.metadata, &uid) {
                out.push(std::sync::Arc::unwrap_or_clone(p));
            } else if controller_of(&p.metadata).is_none()
                && matches
                && is_pod_active(&p)
                && self.job.metadata.deletion_timestamp.is_none()
            {
                // A patch adding the controller reference and the tracking finalizer (the role
                // grants `patch` on pods), after one live read of the Job.
                let job_meta = &self.job.metadata;
                let checked = recheck
                    .get_or_insert_with(|| self.cx.recheck_before_adopting(SERVICE_ACCOUNT, "Job", job_meta).is_ok());
                if !*checked {
                    continue;
                }
                let pod_uid = p.metadata.uid.as_deref().unwrap_or("");
                let patch = adopt_patch(job_meta, "batch/v1", "Job", pod_uid, &[JOB_TRACKING_FINALIZER]);
                let name = p.metadata.name.as_deref().unwrap_or("");
                let resp = self.cx.patch(SERVICE_ACCOUNT, "Pod", ns, name, patch);
                if let (true, Some(Object::Pod(adopted))) = (resp.ok(), resp.stored_object()) {
                    out.push(Pod::clone(adopted));
                }
            }
        }
        out
    }

    fn past_active_deadline(&self) -> bool {
        let spec = self.job.spec.as_ref();
        let (Some(ads), Some(start)) = (
            spec.and_then(|s| s.active_deadline_seconds),
            self.job.status.as_ref().and_then(|s| s.start_time.as_ref()),
        ) else {
            return false;
        };
        if spec.and_then(|s| s.suspend).unwrap_or(false) {
            return false;
        }
        self.cx.core.now as i64 - time_ms(start) >= ads * 1000
    }

    /// `newBackoffRecord`: consecutive failures since the last success.
    fn new_backoff_record(&self, succeeded: &[Pod], failed: &[Pod]) -> BackoffRecord {
        let mut b = self.backoff;
        let mut failed_times: Vec<i64> = failed.iter().map(finished_ms).collect();
        crate::sort::sort(&mut failed_times);
        if succeeded.is_empty() {
            if let Some(last) = failed_times.last() {
                b.failures_after_last_success += failed_times.len() as i32;
                b.last_failure_ms = Some(*last);
            }
            return b;
        }
        b.failures_after_last_success = 0;
        b.last_failure_ms = None;
        let last_success = succeeded.iter().map(finished_ms).max().unwrap_or(0);
        for t in failed_times.iter().rev() {
            if *t <= last_success {
                break;
            }
            if b.last_failure_ms.is_none() {
                b.last_failure_ms = Some(*t);
            }
            b.failures_after_last_success += 1;
        }
        b
    }

    #[allow(clippy::too_many_arguments)]
    fn manage_job(
        &mut self,
        active_pods: &[Pod],
        succeeded: i32,
        done_indexes: &BTreeSet<i32>,
        parallelism: i32,
        completions: Option<i32>,
        suspended: bool,
        backoff: &BackoffRecord,
        ready: &mut i32,
        terminating: &mut i32,
    ) -> (i32, bool) {
        let active = active_pods.len() as i32;
        let ns = self.job.metadata.namespace.clone();
        if suspended {
            if !active_pods.is_empty() {
                self.decide(
                    format!("job-controller deletes the Pods of suspended Job {}", self.name()),
                    format!("{active} active Pod(s)"),
                    active_pods
                        .iter()
                        .map(|p| format!("DELETE Pod {}", p.metadata.name.as_deref().unwrap_or("")))
                        .collect(),
                    StepStatus::Ok,
                );
            }
            let (r, n, err) = self.delete_job_pods(active_pods, ns.as_deref());
            *ready -= r;
            *terminating += n;
            return (active - n, err);
        }
        let want_active = match completions {
            None if succeeded > 0 => active,
            None => parallelism,
            Some(c) => (c - succeeded).min(parallelism).max(0),
        };
        let rm = active - want_active;
        if rm > 0 {
            let mut sorted = active_pods.to_vec();
            crate::sort::sort_by(&mut sorted, active_pods_order);
            let victims: Vec<Pod> =
                sorted.into_iter().take((rm as usize).min(MAX_POD_CREATE_DELETE_PER_SYNC as usize)).collect();
            self.decide(
                format!("job-controller deletes {} excess Pod(s) of Job {}", victims.len(), self.name()),
                format!("{active} active Pod(s), {succeeded} succeeded"),
                victims.iter().map(|p| format!("DELETE Pod {}", p.metadata.name.as_deref().unwrap_or(""))).collect(),
                StepStatus::Ok,
            );
            let (r, n, err) = self.delete_job_pods(&victims, ns.as_deref());
            *ready -= r;
            *terminating += n;
            return (active - n, err);
        }
        let diff = want_active - active;
        if diff <= 0 {
            return (active, false);
        }
        let now = self.cx.core.now as i64;
        let remaining = backoff.remaining_ms(now);
        if remaining > 0 {
            let delay = (remaining as u64).max(SYNC_BATCH_MS);
            self.decide(
                format!(
                    "job-controller waits {} before re-creating a Pod of Job {} (back-off)",
                    go_duration(remaining),
                    self.name()
                ),
                format!("{} failure(s) since the last success", backoff.failures_after_last_success),
                vec![format!("requeue the Job in {}", go_duration(delay as i64))],
                StepStatus::Ok,
            );
            let key = self.key.clone();
            self.cx.enqueue(NAME, &key, delay);
            return (0, false);
        }
        let diff = diff.min(MAX_POD_CREATE_DELETE_PER_SYNC);
        if is_indexed(&self.job) {
            return self.create_indexed_pods(active_pods, done_indexes, diff);
        }
        self.decide(
            format!("job-controller creates {diff} Pod(s) for Job {}", self.name()),
            format!("{active} active, {succeeded} succeeded"),
            vec![format!(
                "create {diff} Pod(s) with generateName {}- and finalizer {JOB_TRACKING_FINALIZER}",
                self.name()
            )],
            StepStatus::Ok,
        );
        let mut template = self.job.spec.as_ref().map(|s| s.template.clone()).unwrap_or_default();
        let meta = template.metadata.get_or_insert_with(Default::default);
        let f = meta.finalizers.get_or_insert_with(Vec::new);
        if !f.iter().any(|x| x == JOB_TRACKING_FINALIZER) {
            f.push(JOB_TRACKING_FINALIZER.into());
        }
        let owner = new_controller_ref(&self.job.metadata, "batch/v1", "Job");
        let job_obj = Object::from(self.job.clone());
        let name = self.name();
        let (created, err) =
            create_pods_in_batches(self.cx, SOURCE, &template, ns.as_deref(), &name, owner, &job_obj, diff);
        let failed = err.as_deref().is_some_and(|e| !namespace_terminating(e));
        (active + created, failed)
    }

    /// `manageJob` for an Indexed Job: Pods for the `count` lowest indexes that neither
    /// succeeded nor have an active Pod (`firstPendingIndexes`), each from the template with
    /// its index filled in. Returns (active, error).
    fn create_indexed_pods(&mut self, active_pods: &[Pod], done: &BTreeSet<i32>, count: i32) -> (i32, bool) {
        let active = active_pods.len() as i32;
        let succeeded = done.len();
        let ns = self.job.metadata.namespace.clone();
        let name = self.name();
        let spec = self.job.spec.clone().unwrap_or_default();
        let completions = spec.completions.unwrap_or(0);
        let busy: BTreeSet<i32> = active_pods.iter().filter_map(completion_index).collect();
        let indexes: Vec<i32> =
            (0..completions).filter(|i| !done.contains(i) && !busy.contains(i)).take(count.max(0) as usize).collect();
        if indexes.is_empty() {
            return (active, false);
        }
        self.decide(
            format!("job-controller creates {} Pod(s) for Indexed Job {name}", indexes.len()),
            format!(
                "{active} active, {succeeded} succeeded; completed indexes: {}",
                if done.is_empty() { "none".to_string() } else { format_indexes(done) }
            ),
            indexes
                .iter()
                .map(|i| {
                    format!(
                        "create Pod for index {i} with generateName {}, hostname {name}-{i}, {COMPLETION_INDEX}={i} and finalizer {JOB_TRACKING_FINALIZER}",
                        generate_name_with_index(&name, *i)
                    )
                })
                .collect(),
            StepStatus::Ok,
        );
        // `addCompletionIndexEnvVariables`: once on the template, every container.
        let mut base = spec.template.clone();
        if let Some(ps) = base.spec.as_mut() {
            let containers = ps.containers.iter_mut().chain(ps.init_containers.iter_mut().flatten());
            for c in containers {
                let env = c.env.get_or_insert_with(Vec::new);
                if !env.iter().any(|e| e.name == COMPLETION_INDEX_ENV) {
                    env.push(k8s_openapi::api::core::v1::EnvVar {
                        name: COMPLETION_INDEX_ENV.to_string(),
                        value: None,
                        value_from: Some(k8s_openapi::api::core::v1::EnvVarSource {
                            field_ref: Some(k8s_openapi::api::core::v1::ObjectFieldSelector {
                                api_version: None,
                                field_path: format!("metadata.annotations['{COMPLETION_INDEX}']"),
                            }),
                            ..Default::default()
                        }),
                    });
                }
            }
        }
        let meta = base.metadata.get_or_insert_with(Default::default);
        let f = meta.finalizers.get_or_insert_with(Vec::new);
        if !f.iter().any(|x| x == JOB_TRACKING_FINALIZER) {
            f.push(JOB_TRACKING_FINALIZER.into());
        }
        let owner = new_controller_ref(&self.job.metadata, "batch/v1", "Job");
        let job_obj = Object::from(self.job.clone());
        let mut created = 0;
        for i in indexes {
            let mut template = base.clone();
            let meta = template.metadata.get_or_insert_with(Default::default);
            meta.annotations.get_or_insert_with(Default::default).insert(COMPLETION_INDEX.into(), i.to_string());
            meta.labels.get_or_insert_with(Default::default).insert(COMPLETION_INDEX.into(), i.to_string());
            if let Some(ps) = template.spec.as_mut() {
                ps.hostname = Some(format!("{name}-{i}"));
            }
            let generate = generate_name_with_index(&name, i);
            let prefix = generate.strip_suffix('-').unwrap_or(&generate);
            let (n, err) =
                create_pods_in_batches(self.cx, SOURCE, &template, ns.as_deref(), prefix, owner.clone(), &job_obj, 1);
            created += n;
            if let Some(e) = err {
                return (active + created, !namespace_terminating(&e));
            }
        }
        (active + created, false)
    }

    /// Removes the tracking finalizer and deletes each Pod; returns (ready deleted,
    /// deleted, error).
    fn delete_job_pods(&mut self, pods: &[Pod], ns: Option<&str>) -> (i32, i32, bool) {
        let (mut ready, mut n, mut err) = (0, 0, false);
        for p in pods {
            if has_tracking_finalizer(p) && !remove_tracking_finalizer(self.cx, p).ok() {
                err = true;
                continue;
            }
            let r = self.cx.delete(SERVICE_ACCOUNT, "Pod", ns, p.metadata.name.as_deref().unwrap_or(""), None);
            if r.ok() || r.error.as_ref().is_some_and(|e| e.code == 404) {
                n += 1;
                if is_pod_ready(p) {
                    ready += 1;
                }
            } else {
                err = true;
            }
        }
        (ready, n, err)
    }

    /// `trackJobStatusAndRemoveFinalizers`. Returns whether the status was flushed (the
    /// back-off record is saved then).
    fn track_status(
        &mut self,
        pods: &[Pod],
        mut finished: Option<JobCondition>,
        mut needs_flush: bool,
        terminating: i32,
    ) -> bool {
        let now = self.cx.core.now;
        let mut flushed = false;
        let mut with_finalizer: BTreeSet<String> =
            pods.iter().filter(|p| has_tracking_finalizer(p)).filter_map(|p| p.metadata.uid.clone()).collect();
        let indexed = is_indexed(&self.job);
        let completions = self.job.spec.as_ref().and_then(|s| s.completions).unwrap_or(0);
        let spec = self.job.spec.as_ref();
        let st = self.job.status.get_or_insert_with(Default::default);
        if clean_uncounted(st, &with_finalizer) {
            needs_flush = true;
        }
        let mut to_unfinalize = Vec::new();
        let mut counted = Vec::new();
        let recorded = st.completed_indexes.clone().unwrap_or_default();
        let mut done = parse_indexes(&recorded, completions);
        {
            let unc = st.uncounted_terminated_pods.get_or_insert_with(Default::default);
            for p in pods.iter().filter(|p| has_tracking_finalizer(p)) {
                let uid = p.metadata.uid.clone().unwrap_or_default();
                let failed = is_pod_failed(spec, p);
                let can_remove = self.job.metadata.deletion_timestamp.is_some()
                    || finished.is_some()
                    || phase(p) == "Succeeded"
                    || failed;
                if !can_remove {
                    continue;
                }
                to_unfinalize.push(p.clone());
                let in_failed = unc.failed.iter().flatten().any(|u| *u == uid);
                let in_succeeded = unc.succeeded.iter().flatten().any(|u| *u == uid);
                if phase(p) == "Succeeded" && !in_failed {
                    if indexed {
                        // The index is enough to avoid counting a Pod twice: no UID.
                        if let Some(ix) = completion_index(p).filter(|ix| *ix < completions && !done.contains(ix)) {
                            done.insert(ix);
                            counted.push(format!(
                                "Pod {} succeeded: index {ix} completed",
                                p.metadata.name.as_deref().unwrap_or("")
                            ));
                        }
                    } else if !in_succeeded {
                        unc.succeeded.get_or_insert_with(Vec::new).push(uid.clone());
                        counted.push(format!("Pod {} succeeded", p.metadata.name.as_deref().unwrap_or("")));
                        needs_flush = true;
                    }
                } else if (failed || finished.as_ref().is_some_and(|f| f.type_ != "SuccessCriteriaMet")) && !in_failed {
                    let pod_name = p.metadata.name.as_deref().unwrap_or("");
                    match match_pod_failure_policy(spec, p) {
                        (_, false, _) => {
                            counted.push(format!("Pod {pod_name} failed: not counted (podFailurePolicy Ignore rule)"))
                        }
                        (_, true, action) => {
                            unc.failed.get_or_insert_with(Vec::new).push(uid.clone());
                            counted.push(match action {
                                Some(action) => format!("Pod {pod_name} failed (podFailurePolicy {action} rule)"),
                                None => format!("Pod {pod_name} failed"),
                            });
                            needs_flush = true;
                        }
                    }
                }
            }
        }
        if indexed {
            let text = format_indexes(&done);
            if text != recorded {
                needs_flush = true;
            }
            st.succeeded = Some(done.len() as i32);
            st.completed_indexes = (!text.is_empty()).then_some(text);
        }
        let mut conditions_note = Vec::new();
        if let Some(fc) = finished.clone() {
            if fc.type_ == "FailureTarget" {
                st.conditions.get_or_insert_with(Vec::new).push(fc.clone());
                conditions_note.push(format!("condition FailureTarget=True ({})", fc.reason.as_deref().unwrap_or("")));
                needs_flush = true;
                finished = Some(new_condition(
                    "Failed",
                    fc.reason.as_deref().unwrap_or(""),
                    fc.message.as_deref().unwrap_or(""),
                    now,
                ));
            } else if fc.type_ == "SuccessCriteriaMet" {
                if condition_true(&self.job, "SuccessCriteriaMet").is_none() {
                    let st = self.job.status.get_or_insert_with(Default::default);
                    st.conditions.get_or_insert_with(Vec::new).push(fc.clone());
                    conditions_note
                        .push(format!("condition SuccessCriteriaMet=True ({})", fc.reason.as_deref().unwrap_or("")));
                    needs_flush = true;
                }
                finished = Some(new_condition(
                    "Complete",
                    fc.reason.as_deref().unwrap_or(""),
                    fc.message.as_deref().unwrap_or(""),
                    now,
                ));
            }
        }

        // Flush: record the uncounted Pods before touching their finalizers.
        if needs_flush {
            let st = self.job.status.clone().unwrap_or_default();
            let unc = st.uncounted_terminated_pods.clone().unwrap_or_default();
            let mut actions = counted.clone();
            actions.push(format!(
                "PUT status: active={} ready={} succeeded={} failed={}{} uncountedTerminatedPods={}",
                st.active.unwrap_or(0),
                st.ready.unwrap_or(0),
                st.succeeded.unwrap_or(0),
                st.failed.unwrap_or(0),
                completed_text(&st),
                uncounted_text(&unc)
            ));
            actions.extend(conditions_note.clone());
            let warn = conditions_note.iter().any(|c| c.contains("FailureTarget"));
            let summary = if counted.is_empty() {
                format!("job-controller updates status of Job {}", self.name())
            } else if indexed && unc.failed.as_ref().is_none_or(Vec::is_empty) {
                format!("job-controller records the completed indexes of Job {}", self.name())
            } else {
                format!("job-controller records finished Pods of Job {} as uncounted", self.name())
            };
            if !self.update_status(summary, actions, warn) {
                return false;
            }
            flushed = true;
            needs_flush = false;
        }
        // Remove the finalizers, then count the Pods that lost them.
        if !to_unfinalize.is_empty() {
            self.decide(
                format!("job-controller removes the tracking finalizer of {} finished Pod(s)", to_unfinalize.len()),
                "their results are recorded in uncountedTerminatedPods".into(),
                to_unfinalize
                    .iter()
                    .map(|p| {
                        format!(
                            "remove finalizer {JOB_TRACKING_FINALIZER} from Pod {}",
                            p.metadata.name.as_deref().unwrap_or("")
                        )
                    })
                    .collect(),
                StepStatus::Ok,
            );
        }
        for p in &to_unfinalize {
            let r = remove_tracking_finalizer(self.cx, p);
            if r.ok() || r.error.as_ref().is_some_and(|e| e.code == 404) {
                if let Some(uid) = p.metadata.uid.as_ref() {
                    with_finalizer.remove(uid);
                }
            }
        }
        let st = self.job.status.get_or_insert_with(Default::default);
        if clean_uncounted(st, &with_finalizer) {
            needs_flush = true;
        }
        // Enact the terminal condition once nothing is uncounted or terminating.
        let mut job_finished = false;
        if let Some(fc) = finished.as_ref() {
            let unc = st.uncounted_terminated_pods.clone().unwrap_or_default();
            let pending = unc.succeeded.as_ref().map_or(0, Vec::len) + unc.failed.as_ref().map_or(0, Vec::len);
            if pending == 0 && terminating == 0 {
                let conds = st.conditions.get_or_insert_with(Vec::new);
                ensure_condition(
                    conds,
                    &fc.type_,
                    "True",
                    fc.reason.as_deref().unwrap_or(""),
                    fc.message.as_deref().unwrap_or(""),
                    now,
                );
                if fc.type_ == "Complete" {
                    st.completion_time = fc.last_transition_time.clone();
                }
                job_finished = true;
                needs_flush = true;
            }
        }
        if needs_flush {
            let st = self.job.status.clone().unwrap_or_default();
            let mut actions = vec![format!(
                "PUT status: active={} succeeded={} failed={}{} uncountedTerminatedPods={{}}",
                st.active.unwrap_or(0),
                st.succeeded.unwrap_or(0),
                st.failed.unwrap_or(0),
                completed_text(&st)
            )];
            let warn = finished.as_ref().is_some_and(|f| f.type_ == "Failed");
            if job_finished {
                if let Some(fc) = finished.as_ref() {
                    actions.push(format!("condition {}=True ({})", fc.type_, fc.reason.as_deref().unwrap_or("")));
                    if fc.type_ == "Complete" {
                        actions.push("completionTime set".into());
                    }
                }
            }
            let summary = match (&finished, job_finished) {
                (Some(f), true) if f.type_ == "Complete" => {
                    format!("job-controller marks Job {} Complete", self.name())
                }
                (Some(f), true) => {
                    format!("job-controller marks Job {} Failed ({})", self.name(), f.reason.as_deref().unwrap_or(""))
                }
                _ => format!("job-controller counts the finished Pods of Job {}", self.name()),
            };
            if !self.update_status(summary, actions, warn && job_finished) {
                return flushed;
            }
            flushed = true;
            if job_finished {
                let obj = Object::from(self.job.clone());
                match finished {
                    Some(f) if f.type_ == "Complete" => {
                        let st = self.job.status.clone().unwrap_or_default();
                        if let Some(c) = self.job.spec.as_ref().and_then(|s| s.completions) {
                            if st.succeeded.unwrap_or(0) > c {
                                self.cx.event(
                                    SOURCE,
                                    &obj,
                                    "Warning",
                                    "TooManySucceededPods",
                                    "Too many succeeded pods running after completion count reached",
                                );
                            }
                        }
                        self.cx.event(SOURCE, &obj, "Normal", "Completed", "Job completed");
                    }
                    Some(f) => {
                        self.cx.event(
                            SOURCE,
                            &obj,
                            "Warning",
                            f.reason.as_deref().unwrap_or(""),
                            f.message.as_deref().unwrap_or(""),
                        );
                    }
                    None => {}
                }
            }
        }
        flushed
    }
}

/// Moves UIDs whose finalizer is gone from `uncountedTerminatedPods` into the counters.
fn clean_uncounted(st: &mut JobStatus, with_finalizer: &BTreeSet<String>) -> bool {
    let unc = st.uncounted_terminated_pods.get_or_insert_with(Default::default);
    let mut changed = false;
    let move_out = |list: &mut Option<Vec<String>>| -> i32 {
        let Some(v) = list.as_mut() else { return 0 };
        let before = v.len();
        v.retain(|u| with_finalizer.contains(u));
        let moved = (before - v.len()) as i32;
        if v.is_empty() {
            *list = None;
        }
        moved
    };
    let s = move_out(&mut unc.succeeded);
    let f = move_out(&mut unc.failed);
    if s > 0 {
        st.succeeded = nz(st.succeeded.unwrap_or(0) + s);
        changed = true;
    }
    if f > 0 {
        st.failed = nz(st.failed.unwrap_or(0) + f);
        changed = true;
    }
    changed
}

/// `pastBackoffLimitOnFailure`: with `restartPolicy: OnFailure`, container restarts count.
fn past_backoff_limit_on_failure(job: &Job, pods: &[Pod], limit: i32) -> bool {
    let policy = job.spec.as_ref().and_then(|s| s.template.spec.as_ref()).and_then(|s| s.restart_policy.as_deref());
    if policy != Some("OnFailure") {
        return false;
    }
    let restarts: i32 = pods
        .iter()
        .filter(|p| matches!(phase(p), "Running" | "Pending"))
        .map(|p| {
            let s = p.status.as_ref();
            let init: i32 = s
                .and_then(|s| s.init_container_statuses.as_ref())
                .map_or(0, |c| c.iter().map(|x| x.restart_count).sum());
            let main: i32 =
                s.and_then(|s| s.container_statuses.as_ref()).map_or(0, |c| c.iter().map(|x| x.restart_count).sum());
            init + main
        })
        .sum();
    if limit == 0 {
        restarts > 0
    } else {
        restarts >= limit
    }
}

/// `controller.ActivePods` order: unscheduled, pending, not ready, recently ready, restarted,
/// new Pods first.
fn active_pods_order(a: &Pod, b: &Pod) -> std::cmp::Ordering {
    use std::cmp::Ordering::*;
    let (na, nb) = (node_name(a), node_name(b));
    if na != nb && (na.is_empty() || nb.is_empty()) {
        return if na.is_empty() { Less } else { Greater };
    }
    let ord = |p: &Pod| match phase(p) {
        "Unknown" => 1,
        "Running" => 2,
        _ => 0,
    };
    if ord(a) != ord(b) {
        return ord(a).cmp(&ord(b));
    }
    if is_pod_ready(a) != is_pod_ready(b) {
        return if is_pod_ready(a) { Greater } else { Less };
    }
    if is_pod_ready(a) && is_pod_ready(b) && pod_ready_ms(a) != pod_ready_ms(b) {
        return pod_ready_ms(b).cmp(&pod_ready_ms(a));
    }
    if max_restarts(a) != max_restarts(b) {
        return max_restarts(b).cmp(&max_restarts(a));
    }
    let c = |p: &Pod| p.metadata.creation_timestamp.as_ref().map(time_ms);
    c(b).cmp(&c(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completed_indexes_use_upstream_notation() {
        let set = |v: &[i32]| v.iter().copied().collect::<BTreeSet<i32>>();
        assert_eq!(format_indexes(&set(&[])), "");
        assert_eq!(format_indexes(&set(&[0, 1, 2, 4, 6, 7])), "0-2,4,6,7");
        assert_eq!(format_indexes(&set(&[3])), "3");
        assert_eq!(parse_indexes("0-2,4,6,7", 10), set(&[0, 1, 2, 4, 6, 7]));
        assert_eq!(parse_indexes("1-5", 3), set(&[1, 2]));
        assert_eq!(generate_name_with_index("indexed-job", 4), "indexed-job-4-");
        let long = "a".repeat(60);
        let g = generate_name_with_index(&long, 12);
        assert_eq!(g.len(), MAX_GENERATED_NAME_LENGTH);
        assert!(g.ends_with("a-12-"));
    }

    #[test]
    fn backoff_doubles_and_caps() {
        let b = |n, last| BackoffRecord { failures_after_last_success: n, last_failure_ms: Some(last) };
        assert_eq!(b(1, 0).remaining_ms(0), 10_000);
        assert_eq!(b(2, 0).remaining_ms(5_000), 15_000);
        assert_eq!(b(3, 0).remaining_ms(0), 40_000);
        assert_eq!(b(10, 0).remaining_ms(0), 600_000);
        assert_eq!(BackoffRecord::default().remaining_ms(0), 0);
    }
}
