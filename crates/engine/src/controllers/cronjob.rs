//! The CronJob controller (upstream's `ControllerV2`, `cronjob-controller`): a Job at each time
//! a CronJob's schedule names.
//!
//! A sync (upstream `sync`, then `syncCronJob`):
//! 1. reads the CronJob and the Jobs it controls (a controller reference with its name);
//! 2. trims finished Jobs beyond `successfulJobsHistoryLimit` (default 3) and
//!    `failedJobsHistoryLimit` (default 1), oldest start time first, each deleted with
//!    propagation `Background` (`SuccessfulDelete` "Deleted job NAME");
//! 3. takes finished Jobs out of `status.active` (`SawCompletedJob` "Saw completed job: NAME,
//!    condition: Complete"), notes `status.lastSuccessfulTime` from a succeeded Job's
//!    `completionTime`, and drops active references whose Job is gone (`MissingJob`);
//! 4. unless the CronJob is being deleted or `suspend` is true, finds the most recent
//!    scheduled time not yet processed (upstream `mostRecentScheduleTime`, from
//!    `status.lastScheduleTime`, else the creation time, or `now - startingDeadlineSeconds`
//!    when that is later). Too late for `startingDeadlineSeconds`: `MissSchedule`. Already
//!    processed: nothing. `concurrencyPolicy: Forbid` with a Job still active: skipped
//!    (`JobAlreadyActive`); `Replace`: the active Jobs are deleted first. Then the Job
//!    `<cronjob>-<scheduled time in minutes since the Unix epoch>` is made from `jobTemplate`
//!    (its labels and annotations, the annotation `batch.kubernetes.io/cronjob-scheduled-timestamp`
//!    in RFC 3339 in the CronJob's zone, the CronJob as controller), `SuccessfulCreate`
//!    "Created job NAME", and it goes into `status.active` with `status.lastScheduleTime`;
//! 5. writes the status when it changed, and queues the next sync for the next scheduled time
//!    plus 100 ms (`nextScheduleDelta`).
//!
//! Schedules are computed in `spec.timeZone` when set, UTC otherwise (kind's
//! controller-manager runs in UTC); see [`schedule`] for which zones the lab computes exactly.
//!
//! **How the lab's run ends with a CronJob.** The simulation stops once nothing but periodic
//! work is queued and the cluster has been quiet for a minute (`sim::SETTLE_MS`). The sync
//! that waits for a CronJob's *first* Job is ordinary work, so the run goes on until that Job
//! is created (the lab's clock starts at 2026-01-01T00:00:00Z, so `*/1 * * * *` fires at
//! 00:01:00, well inside the default 5-minute limit) and its Pod completes. Every later
//! schedule is periodic work: it does not keep the run alive by itself. A schedule that fires
//! again within the settling minute (such as `*/1`) still runs, since the previous Job's
//! writes are less than a minute old, so such a run goes on making a Job a minute until the
//! lab's time limit, as a real cluster would keep doing.
//!
//! Not modelled: the `UnexpectedJob` warning for an unfinished Job the controller does not
//! list as active (the lab's controller never loses its own status writes), and the
//! `creationSkew` metric.

pub mod schedule;
mod zones;

use super::util::*;
use super::{Controller, Cx, EventSourceInfo};
use crate::apiserver::{timestamp, EPOCH_UNIX_MS};
use crate::object::Object;
use crate::store::{EventType, WatchEvent};
use crate::trace::{Phase, StepStatus};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};
use schedule::{Schedule, Zone};
use std::collections::BTreeMap;
use std::sync::Arc;

pub const NAME: &str = "cronjob-controller";
pub const SERVICE_ACCOUNT: &str = "cronjob-controller";
/// From a watch event to the sync of the CronJob.
pub const WATCH_LATENCY_MS: u64 = 2;
/// A CronJob is synced this long after its scheduled time (`nextScheduleDelta`).
pub const NEXT_SCHEDULE_DELTA_MS: i64 = 100;
/// The annotation with a Job's scheduled time (`batch.kubernetes.io/cronjob-scheduled-timestamp`).
pub const SCHEDULED_TIMESTAMP_ANNOTATION: &str = "batch.kubernetes.io/cronjob-scheduled-timestamp";

const SOURCE: EventSourceInfo =
    EventSourceInfo { component: "cronjob-controller", service_account: SERVICE_ACCOUNT, phase: Phase::Controllers };

#[derive(Debug, Default)]
pub struct CronJobController {
    /// For each CronJob key, the logical time its next scheduled sync is queued for (so a
    /// sync woken by a Job change does not queue or announce it again).
    next_due: BTreeMap<String, u64>,
}

/// How many schedules were missed since the earliest time (upstream `missedSchedulesType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Missed {
    None,
    Few,
    Many,
}

/// The zone a CronJob's schedule runs in: `spec.timeZone`, else the controller's (UTC).
fn zone_of(cj: &CronJob) -> Result<Zone, String> {
    match cj.spec.time_zone.as_deref() {
        Some(tz) => schedule::load_location(tz),
        None => Ok(Zone::utc()),
    }
}

fn creation_unix_ms(meta: &ObjectMeta) -> i64 {
    meta.creation_timestamp.as_ref().map(|t| time_ms(t) + EPOCH_UNIX_MS).unwrap_or(EPOCH_UNIX_MS)
}

fn unix_ms(t: &Time) -> i64 {
    time_ms(t) + EPOCH_UNIX_MS
}

/// A Unix time as the API's timestamp.
fn api_time(unix_ms: i64) -> Time {
    timestamp((unix_ms - EPOCH_UNIX_MS).max(0) as u64)
}

/// Upstream `mostRecentScheduleTime`: the earliest time considered, the most recent scheduled
/// time not after `now` (if any), and how many were missed. All times in Unix milliseconds.
fn most_recent_schedule_time(
    cj: &CronJob,
    now: i64,
    sched: &Schedule,
    zone: &Zone,
    with_deadline: bool,
) -> Result<(i64, Option<i64>, Missed), (i64, String)> {
    let status = cj.status.as_ref();
    let mut earliest = match status.and_then(|s| s.last_schedule_time.as_ref()) {
        Some(t) => unix_ms(t),
        None => creation_unix_ms(&cj.metadata),
    };
    if with_deadline {
        if let Some(d) = cj.spec.starting_deadline_seconds {
            let deadline = now - d * 1000;
            if deadline > earliest {
                earliest = deadline;
            }
        }
    }
    let too_close = || (earliest, "time difference between two schedules is less than 1 second".to_string());
    // robfig's zero time (no activation within five years) never comes.
    let Some(t1) = sched.next(earliest, zone) else { return Err(too_close()) };
    let Some(t2) = sched.next(t1, zone) else { return Err(too_close()) };
    if now < t1 {
        return Ok((earliest, None, Missed::None));
    }
    if now < t2 {
        return Ok((earliest, Some(t1), Missed::None));
    }
    let between = ((t2 - t1) + 500).div_euclid(1000);
    if between < 1 {
        return Err(too_close());
    }
    let elapsed = (now - t1).div_euclid(1000);
    let missed = elapsed / between + 1;
    let mut most_recent = None;
    let mut t = sched.next(t1 + (missed - 2) * between * 1000, zone);
    while let Some(x) = t.filter(|x| *x <= now) {
        most_recent = Some(x);
        t = sched.next(x, zone);
    }
    let kind = if missed > 100 { Missed::Many } else { Missed::Few };
    Ok((earliest, most_recent, kind))
}

/// Upstream `nextScheduleTimeDuration`: how long from `now` until the sync after the next
/// scheduled time, and that time.
fn next_schedule_duration(cj: &CronJob, now: i64, sched: &Schedule, zone: &Zone) -> Option<(i64, i64)> {
    let from = match most_recent_schedule_time(cj, now, sched, zone, false) {
        Err(_) => now,
        Ok((_, Some(t), _)) => t,
        Ok((earliest, None, Missed::None)) => earliest,
        Ok((_, None, _)) => now,
    };
    let next = sched.next(from, zone)?;
    Some((next, (next + NEXT_SCHEDULE_DELTA_MS - now).max(0)))
}

fn finished_condition(job: &Job) -> Option<&str> {
    let conditions = job.status.as_ref()?.conditions.as_ref()?;
    conditions
        .iter()
        .find(|c| (c.type_ == "Complete" || c.type_ == "Failed") && c.status == "True")
        .map(|c| c.type_.as_str())
}

fn in_active_list(cj: &CronJob, uid: &str) -> bool {
    cj.status.as_ref().and_then(|s| s.active.as_ref()).is_some_and(|a| a.iter().any(|r| r.uid.as_deref() == Some(uid)))
}

fn delete_from_active_list(cj: &mut CronJob, uid: &str) {
    if let Some(active) = cj.status.as_mut().and_then(|s| s.active.as_mut()) {
        active.retain(|r| r.uid.as_deref() != Some(uid));
    }
}

fn active_refs(cj: &CronJob) -> Vec<ObjectReference> {
    cj.status.as_ref().and_then(|s| s.active.clone()).unwrap_or_default()
}

/// Upstream `getJobName`: the CronJob's name and the scheduled time in minutes since the epoch.
pub fn job_name(cronjob: &str, scheduled_unix_ms: i64) -> String {
    format!("{cronjob}-{}", scheduled_unix_ms.div_euclid(1000) / 60)
}

/// Upstream `getJobFromTemplate2`: the Job for one scheduled time.
fn job_from_template(cj: &CronJob, scheduled: i64, zone: &Zone) -> Job {
    let template = cj.spec.job_template.clone();
    let tmeta = template.metadata.unwrap_or_default();
    let mut annotations = tmeta.annotations.unwrap_or_default();
    annotations.insert(SCHEDULED_TIMESTAMP_ANNOTATION.to_string(), schedule::rfc3339_in(scheduled, zone));
    let name = cj.metadata.name.clone().unwrap_or_default();
    Job {
        metadata: ObjectMeta {
            name: Some(job_name(&name, scheduled)),
            namespace: cj.metadata.namespace.clone(),
            labels: Some(tmeta.labels.unwrap_or_default()),
            annotations: Some(annotations),
            creation_timestamp: Some(api_time(scheduled)),
            owner_references: Some(vec![new_controller_ref(&cj.metadata, "batch/v1", "CronJob")]),
            ..Default::default()
        },
        spec: template.spec,
        status: None,
    }
}

/// `byJobStartTime`: Jobs without a start time last, then by start time, then by name.
fn sort_by_start_time(jobs: &mut [Arc<Job>]) {
    jobs.sort_by(|a, b| {
        let sa = a.status.as_ref().and_then(|s| s.start_time.as_ref()).map(time_ms);
        let sb = b.status.as_ref().and_then(|s| s.start_time.as_ref()).map(time_ms);
        match (sa, sb) {
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(_), None) => std::cmp::Ordering::Less,
            (x, y) if x == y => a.metadata.name.cmp(&b.metadata.name),
            (x, y) => x.cmp(&y),
        }
    });
}

/// What one sync saw and did, for the trace.
struct Pass {
    name: String,
    observed: String,
    desired: String,
}

impl Pass {
    fn decide(&self, cx: &mut Cx, obj: &Object, summary: String, actions: Vec<String>, status: StepStatus) {
        cx.decide(
            Phase::Controllers,
            NAME,
            Some(obj),
            format!("cronjob-controller: CronJob {}: {summary}", self.name),
            self.observed.clone(),
            self.desired.clone(),
            actions,
            status,
        );
    }
}

/// Upstream `deleteJob`: deletes a Job with propagation Background and takes it out of the
/// active list; false when the delete failed (`FailedDelete`).
fn delete_job(cx: &mut Cx, pass: &Pass, cj_obj: &Object, cj: &mut CronJob, job: &Job, why: &str) -> bool {
    let job_name = job.metadata.name.clone().unwrap_or_default();
    pass.decide(
        cx,
        cj_obj,
        format!("delete Job {job_name} ({why})"),
        vec![format!("DELETE Job {job_name} (propagationPolicy: Background)")],
        StepStatus::Ok,
    );
    let resp = cx.delete(SERVICE_ACCOUNT, "Job", job.metadata.namespace.as_deref(), &job_name, Some("Background"));
    if !resp.ok() {
        cx.event(SOURCE, cj_obj, "Warning", "FailedDelete", &format!("Deleted job: {}", resp.message()));
        return false;
    }
    delete_from_active_list(cj, job.metadata.uid.as_deref().unwrap_or(""));
    cx.event(SOURCE, cj_obj, "Normal", "SuccessfulDelete", &format!("Deleted job {job_name}"));
    true
}

/// The outcome of `syncCronJob`: when to sync again (Unix ms of the scheduled time and the
/// delay), whether the status changed, and an error to retry after.
struct SyncResult {
    requeue: Option<(i64, i64)>,
    update_status: bool,
    error: bool,
}

impl Controller for CronJobController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn observe(&mut self, cx: &mut Cx, ev: &WatchEvent<Object>) {
        match &*ev.object {
            Object::CronJob(cj) => {
                let reason = match ev.kind {
                    EventType::Added => "a new CronJob: work out its next scheduled time",
                    EventType::Modified => "the CronJob changed",
                    EventType::Deleted => return,
                };
                cx.watch(NAME, Phase::Controllers, ev, &key_of(&cj.metadata), WATCH_LATENCY_MS, reason);
            }
            Object::Job(job) => {
                let Some(r) = controller_of(&job.metadata).filter(|r| r.kind == "CronJob") else { return };
                let Some(owner) = resolve_owner(cx.core, job.metadata.namespace.as_deref(), r) else { return };
                let reason = match ev.kind {
                    EventType::Added => "a Job of this CronJob was created",
                    EventType::Modified => "a Job of this CronJob changed",
                    EventType::Deleted => "a Job of this CronJob is gone",
                };
                cx.watch(NAME, Phase::Controllers, ev, &key_of(owner.meta()), WATCH_LATENCY_MS, reason);
            }
            _ => {}
        }
    }

    fn sync(&mut self, cx: &mut Cx, key: &str) {
        let (ns, name) = split_key(key);
        let Some(Object::CronJob(cj)) = get(cx.core, "CronJob", ns, name) else {
            self.next_due.remove(key);
            return;
        };
        let cj_obj = Object::CronJob(cj.clone());
        let mut copy = Arc::unwrap_or_clone(cj.clone());
        let mut jobs: Vec<Arc<Job>> = list_shared(cx.core, "Job", ns)
            .into_iter()
            .filter_map(|o| match &*o {
                Object::Job(j) => Some(j.clone()),
                _ => None,
            })
            .filter(|j| controller_of(&j.metadata).is_some_and(|r| r.name == name))
            .collect();
        jobs.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
        let spec = cj.spec.clone();
        let zone_text = spec.time_zone.clone().map(|z| format!("time zone {z}")).unwrap_or_else(|| "UTC".into());
        let active: Vec<String> = active_refs(&cj).iter().map(|r| r.name.clone().unwrap_or_default()).collect();
        let pass = Pass {
            name: name.to_string(),
            observed: format!(
                "schedule \"{}\" ({zone_text}), concurrencyPolicy {}, suspend {}; {} Job(s) of this CronJob; active: {}; lastScheduleTime: {}",
                spec.schedule,
                spec.concurrency_policy.as_deref().unwrap_or("Allow"),
                spec.suspend.unwrap_or(false),
                jobs.len(),
                if active.is_empty() { "none".to_string() } else { active.join(", ") },
                cj.status
                    .as_ref()
                    .and_then(|s| s.last_schedule_time.as_ref())
                    .map(|t| schedule::wall_clock(unix_ms(t)))
                    .unwrap_or_else(|| "none".into()),
            ),
            desired: "one Job for each scheduled time, started no later than startingDeadlineSeconds after it; at most successfulJobsHistoryLimit succeeded and failedJobsHistoryLimit failed Jobs kept".into(),
        };

        let cleaned = cleanup_finished_jobs(cx, &pass, &cj_obj, &mut copy, &jobs);
        // Trimmed Jobs are gone for the rest of the sync.
        jobs.retain(|j| get(cx.core, "Job", ns, j.metadata.name.as_deref().unwrap_or("")).is_some());
        let result = self.sync_cronjob(cx, &pass, &cj_obj, &mut copy, &jobs);

        if cleaned || result.update_status {
            let status = copy.status.clone().unwrap_or_default();
            let names: Vec<String> =
                status.active.iter().flatten().map(|r| r.name.clone().unwrap_or_default()).collect();
            let action = format!(
                "PUT status: active=[{}] lastScheduleTime={} lastSuccessfulTime={}",
                names.join(","),
                status.last_schedule_time.as_ref().map(|t| schedule::wall_clock(unix_ms(t))).unwrap_or_default(),
                status.last_successful_time.as_ref().map(|t| schedule::wall_clock(unix_ms(t))).unwrap_or_default(),
            );
            pass.decide(cx, &cj_obj, "updates its status".into(), vec![action], StepStatus::Ok);
            let resp = cx.update_status(SERVICE_ACCOUNT, Object::from(copy.clone()));
            if !resp.ok() {
                cx.requeue_rate_limited(NAME, key);
                return;
            }
        }
        if result.error {
            cx.requeue_rate_limited(NAME, key);
            return;
        }
        cx.forget(NAME, key);
        let Some((at, delay)) = result.requeue else {
            self.next_due.remove(key);
            return;
        };
        let due = cx.core.now + delay as u64;
        if self.next_due.get(key) == Some(&due) {
            return;
        }
        self.next_due.insert(key.to_string(), due);
        // Until the CronJob's first Job, its next schedule keeps the run alive; after that it
        // is periodic work (see the module documentation).
        let first = copy.status.as_ref().and_then(|s| s.last_schedule_time.as_ref()).is_none();
        let zone = zone_of(&copy).unwrap_or_else(|_| Zone::utc());
        let mut note = format!(
            "sync again in {}: at the next scheduled time {} plus 100 ms{}",
            go_duration(delay),
            schedule::rfc3339_in(at, &zone),
            if first { "" } else { " (periodic work: it does not keep the lab's run going by itself)" },
        );
        if !zone.exact {
            note.push_str(&format!(
                "; the lab computes time zone {} as UTC (a real cluster uses the zone's offset and daylight saving rules)",
                zone.name
            ));
        }
        pass.decide(
            cx,
            &cj_obj,
            format!("next run due at {}", schedule::rfc3339_in(at, &zone)),
            vec![note],
            StepStatus::Ok,
        );
        if first {
            cx.enqueue(NAME, key, delay as u64);
        } else {
            cx.enqueue_periodic(NAME, key, delay as u64);
        }
    }
}

/// Upstream `cleanupFinishedJobs`: deletes the oldest finished Jobs beyond the history limits.
fn cleanup_finished_jobs(cx: &mut Cx, pass: &Pass, cj_obj: &Object, cj: &mut CronJob, jobs: &[Arc<Job>]) -> bool {
    let spec = cj.spec.clone();
    if spec.failed_jobs_history_limit.is_none() && spec.successful_jobs_history_limit.is_none() {
        return false;
    }
    let mut succeeded: Vec<Arc<Job>> =
        jobs.iter().filter(|j| finished_condition(j) == Some("Complete")).cloned().collect();
    let mut failed: Vec<Arc<Job>> = jobs.iter().filter(|j| finished_condition(j) == Some("Failed")).cloned().collect();
    let mut update = false;
    for (list, limit, field) in [
        (&mut succeeded, spec.successful_jobs_history_limit, "successfulJobsHistoryLimit"),
        (&mut failed, spec.failed_jobs_history_limit, "failedJobsHistoryLimit"),
    ] {
        let Some(limit) = limit else { continue };
        let excess = list.len() as i64 - limit as i64;
        if excess <= 0 {
            continue;
        }
        sort_by_start_time(list);
        for job in list.iter().take(excess as usize) {
            let why = format!("{} finished Jobs, {field} is {limit}", list.len());
            if delete_job(cx, pass, cj_obj, cj, job, &why) {
                update = true;
            }
        }
    }
    update
}

impl CronJobController {
    /// Upstream `syncCronJob`.
    fn sync_cronjob(
        &mut self,
        cx: &mut Cx,
        pass: &Pass,
        cj_obj: &Object,
        cj: &mut CronJob,
        jobs: &[Arc<Job>],
    ) -> SyncResult {
        let now = EPOCH_UNIX_MS + cx.core.now as i64;
        let mut update = false;
        let done = |update, requeue| SyncResult { requeue, update_status: update, error: false };

        let mut children = Vec::new();
        for j in jobs {
            let uid = j.metadata.uid.clone().unwrap_or_default();
            children.push(uid.clone());
            let found = in_active_list(cj, &uid);
            let finished = finished_condition(j);
            if let (true, Some(condition)) = (found, finished) {
                let job_name = j.metadata.name.clone().unwrap_or_default();
                delete_from_active_list(cj, &uid);
                pass.decide(
                    cx,
                    cj_obj,
                    format!("Job {job_name} finished ({condition})"),
                    vec![format!("take Job {job_name} out of status.active")],
                    StepStatus::Ok,
                );
                cx.event(
                    SOURCE,
                    cj_obj,
                    "Normal",
                    "SawCompletedJob",
                    &format!("Saw completed job: {job_name}, condition: {condition}"),
                );
                update = true;
            } else if finished == Some("Complete") {
                // A succeeded Job need not be active to count for lastSuccessfulTime.
                let completion = j.status.as_ref().and_then(|s| s.completion_time.clone());
                let status = cj.status.get_or_insert_with(Default::default);
                match (&status.last_successful_time, &completion) {
                    (None, _) => {
                        status.last_successful_time = completion;
                        update = true;
                    }
                    (Some(last), Some(c)) if time_ms(c) > time_ms(last) => {
                        status.last_successful_time = completion;
                        update = true;
                    }
                    _ => {}
                }
            }
        }

        // Active references whose Job is gone.
        for r in active_refs(cj) {
            let uid = r.uid.clone().unwrap_or_default();
            if children.contains(&uid) {
                continue;
            }
            let job_name = r.name.clone().unwrap_or_default();
            let resp = cx.request(
                SERVICE_ACCOUNT,
                crate::apiserver::Verb::Get,
                "Job",
                r.namespace.as_deref(),
                Some(&job_name),
                None,
                None,
            );
            if resp.is_not_found() {
                cx.event(SOURCE, cj_obj, "Normal", "MissingJob", &format!("Active job went missing: {job_name}"));
                delete_from_active_list(cj, &uid);
                update = true;
            } else if !resp.ok() {
                return SyncResult { requeue: None, update_status: update, error: true };
            }
        }

        if is_deleting(&cj.metadata) {
            return done(update, None);
        }
        let spec = cj.spec.clone();
        let zone = match zone_of(cj) {
            Ok(z) => z,
            Err(e) => {
                let tz = spec.time_zone.clone().unwrap_or_default();
                cx.event(SOURCE, cj_obj, "Warning", "UnknownTimeZone", &format!("invalid timeZone: {tz:?}: {e}"));
                return done(update, None);
            }
        };
        if spec.suspend == Some(true) {
            pass.decide(
                cx,
                cj_obj,
                "suspended: no Job is started".into(),
                vec!["nothing to do until spec.suspend is false".into()],
                StepStatus::Ok,
            );
            return done(update, None);
        }
        let sched = match schedule::parse_standard(&spec.schedule) {
            Ok(s) => s,
            Err(e) => {
                cx.event(
                    SOURCE,
                    cj_obj,
                    "Warning",
                    "UnparseableSchedule",
                    &format!("unparseable schedule: {:?} : {e}", spec.schedule),
                );
                return done(update, None);
            }
        };
        let requeue = |cj: &CronJob| next_schedule_duration(cj, now, &sched, &zone);

        // Upstream `nextScheduleTime`.
        let scheduled = match most_recent_schedule_time(cj, now, &sched, &zone, true) {
            Err((_, e)) => {
                cx.event(
                    SOURCE,
                    cj_obj,
                    "Warning",
                    "InvalidSchedule",
                    &format!("invalid schedule: {} : {e}", spec.schedule),
                );
                return done(update, None);
            }
            Ok((_, None, _)) => return done(update, requeue(cj)),
            Ok((_, Some(t), missed)) => {
                if missed == Missed::Many {
                    cx.event(
                        SOURCE,
                        cj_obj,
                        "Warning",
                        "TooManyMissedTimes",
                        "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew",
                    );
                }
                t
            }
        };

        if let Some(deadline) = spec.starting_deadline_seconds {
            if scheduled + deadline * 1000 < now {
                pass.decide(
                    cx,
                    cj_obj,
                    format!("missed the scheduled time {}", schedule::rfc3339_in(scheduled, &zone)),
                    vec![format!("too late to start it: startingDeadlineSeconds is {deadline}")],
                    StepStatus::Warning,
                );
                cx.event(
                    SOURCE,
                    cj_obj,
                    "Warning",
                    "MissSchedule",
                    &format!("Missed scheduled time to start a job: {}", schedule::rfc1123z(scheduled)),
                );
                return done(update, requeue(cj));
            }
        }
        let name = cj.metadata.name.clone().unwrap_or_default();
        let job_name = job_name(&name, scheduled);
        let already = active_refs(cj).iter().any(|r| r.name.as_deref() == Some(job_name.as_str()))
            || cj.status.as_ref().and_then(|s| s.last_schedule_time.as_ref()).map(unix_ms).map(|t| t.div_euclid(1000))
                == Some(scheduled.div_euclid(1000));
        if already {
            return done(update, requeue(cj));
        }
        let policy = spec.concurrency_policy.clone().unwrap_or_else(|| "Allow".into());
        let active = active_refs(cj);
        if policy == "Forbid" && !active.is_empty() {
            pass.decide(
                cx,
                cj_obj,
                format!("skips the scheduled time {}", schedule::rfc3339_in(scheduled, &zone)),
                vec![format!(
                    "Not starting job because prior execution is still running and concurrency policy is Forbid (active: {})",
                    active.iter().map(|r| r.name.clone().unwrap_or_default()).collect::<Vec<_>>().join(", ")
                )],
                StepStatus::Ok,
            );
            cx.event(
                SOURCE,
                cj_obj,
                "Normal",
                "JobAlreadyActive",
                "Not starting job because prior execution is running and concurrency policy is Forbid",
            );
            return done(update, requeue(cj));
        }
        if policy == "Replace" {
            for r in &active {
                let rname = r.name.clone().unwrap_or_default();
                let resp = cx.request(
                    SERVICE_ACCOUNT,
                    crate::apiserver::Verb::Get,
                    "Job",
                    r.namespace.as_deref(),
                    Some(&rname),
                    None,
                    None,
                );
                let Some(Object::Job(job)) = resp.stored_object().filter(|_| resp.ok()).cloned() else {
                    cx.event(SOURCE, cj_obj, "Warning", "FailedGet", &format!("Get job: {}", resp.message()));
                    return SyncResult { requeue: None, update_status: update, error: true };
                };
                let why = "concurrencyPolicy Replace: it is still running at the next scheduled time";
                if !delete_job(cx, pass, cj_obj, cj, &job, why) {
                    return SyncResult { requeue: None, update_status: update, error: true };
                }
                update = true;
            }
        }

        let job = job_from_template(cj, scheduled, &zone);
        pass.decide(
            cx,
            cj_obj,
            format!("creates Job {job_name} for the scheduled time {}", schedule::rfc3339_in(scheduled, &zone)),
            vec![format!(
                "POST Job {job_name} from spec.jobTemplate (annotation {SCHEDULED_TIMESTAMP_ANNOTATION}: {}, controller: CronJob {name})",
                schedule::rfc3339_in(scheduled, &zone)
            )],
            StepStatus::Ok,
        );
        let resp = cx.create(SERVICE_ACCOUNT, Object::from(job));
        let created = if resp.ok() {
            let created = resp.stored_object().cloned();
            cx.event(SOURCE, cj_obj, "Normal", "SuccessfulCreate", &format!("Created job {job_name}"));
            created
        } else if super::replicaset::namespace_terminating(resp.message()) {
            return SyncResult { requeue: None, update_status: update, error: true };
        } else if resp.is_already_exists() {
            let ns = cj.metadata.namespace.clone();
            let got = cx.request(
                SERVICE_ACCOUNT,
                crate::apiserver::Verb::Get,
                "Job",
                ns.as_deref(),
                Some(&job_name),
                None,
                None,
            );
            let Some(existing) = got.stored_object().filter(|_| got.ok()).cloned() else {
                return SyncResult { requeue: None, update_status: update, error: true };
            };
            let uid = cj.metadata.uid.clone().unwrap_or_default();
            let existing_uid = existing.meta().uid.clone().unwrap_or_default();
            if !is_controlled_by(existing.meta(), &uid) || in_active_list(cj, &existing_uid) {
                return done(update, None);
            }
            Some(existing)
        } else {
            cx.event(SOURCE, cj_obj, "Warning", "FailedCreate", &format!("Error creating job: {}", resp.message()));
            return SyncResult { requeue: None, update_status: update, error: true };
        };
        let Some(created) = created else {
            return SyncResult { requeue: None, update_status: update, error: true };
        };
        let meta = created.meta();
        let reference = ObjectReference {
            kind: Some("Job".into()),
            api_version: Some("batch/v1".into()),
            name: meta.name.clone(),
            namespace: meta.namespace.clone(),
            uid: meta.uid.clone(),
            resource_version: meta.resource_version.clone(),
            ..Default::default()
        };
        let status = cj.status.get_or_insert_with(Default::default);
        status.active.get_or_insert_with(Vec::new).push(reference);
        status.last_schedule_time = Some(api_time(scheduled));
        done(true, requeue(cj))
    }
}
