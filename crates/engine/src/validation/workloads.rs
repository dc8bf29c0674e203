//! Deployments, ReplicaSets, DaemonSets, StatefulSets, ControllerRevisions, Jobs and CronJobs
//! (kubernetes `pkg/apis/apps/validation`,
//! `pkg/apis/batch/validation`).

use super::meta;
use super::names;
use super::pod::validate_pod_template_spec;
use crate::errors::FieldError;
use crate::labels;
use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet, StatefulSetSpec};
use k8s_openapi::api::batch::v1::{CronJob, Job, JobSpec, JobTemplateSpec};
use k8s_openapi::api::core::v1::PodTemplateSpec;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::json;

type Errs = Vec<FieldError>;

fn nonnegative(v: i64, p: &str, errs: &mut Errs) {
    if v < 0 {
        errs.push(FieldError::invalid(p, v, "must be greater than or equal to 0"));
    }
}

fn template_labels(t: &PodTemplateSpec) -> serde_json::Value {
    json!(t.metadata.as_ref().and_then(|m| m.labels.clone()).unwrap_or_default())
}

/// A required selector against its template's labels (Deployments, ReplicaSets,
/// StatefulSets): present, valid, convertible (otherwise `unconvertible` is the message, which
/// upstream words per kind) and matching the labels. Returns whether it converted.
///
/// k8s-openapi makes `spec.selector` a plain struct, so an absent selector and `selector: {}`
/// both arrive empty; they are treated as absent (upstream's nil selector), the common case.
fn required_selector_matches(
    selector: &LabelSelector,
    template: &PodTemplateSpec,
    unconvertible: &str,
    errs: &mut Errs,
) -> bool {
    let does_not_match = |errs: &mut Errs| {
        errs.push(FieldError::invalid(
            "spec.template.metadata.labels",
            template_labels(template),
            "`selector` does not match template `labels`",
        ))
    };
    if labels::is_empty(selector) {
        errs.push(FieldError::required("spec.selector", ""));
        // A nil selector converts to one that matches nothing.
        does_not_match(errs);
        return true;
    }
    meta::label_selector(selector, "spec.selector", errs);
    if !meta::selector_convertible(selector) {
        errs.push(FieldError::invalid(
            "spec.selector",
            serde_json::to_value(selector).unwrap_or_default(),
            unconvertible,
        ));
        return false;
    }
    if !labels::label_selector_matches(selector, template.metadata.as_ref().and_then(|m| m.labels.as_ref())) {
        does_not_match(errs);
    }
    true
}

/// The selector checks shared by Deployments and ReplicaSets, then the template.
fn selector_and_template(selector: &LabelSelector, template: &PodTemplateSpec, errs: &mut Errs) {
    if !required_selector_matches(selector, template, "invalid label selector", errs) {
        return;
    }
    validate_pod_template_spec(template, "spec.template", errs);
    restart_always_no_deadline(template, "ReplicaSet", errs);
}

fn int_or_percent(v: &IntOrString, p: &str, errs: &mut Errs) {
    match v {
        IntOrString::String(s) => {
            for m in names::percent(s) {
                errs.push(FieldError::invalid(p, s.as_str(), m));
            }
        }
        IntOrString::Int(i) => nonnegative(*i as i64, p, errs),
    }
}

fn int_or_percent_value(v: &IntOrString) -> i64 {
    match v {
        IntOrString::Int(i) => *i as i64,
        IntOrString::String(s) => {
            if names::percent(s).is_empty() {
                s[..s.len() - 1].parse().unwrap_or(0)
            } else {
                0
            }
        }
    }
}

fn int_or_string_json(v: &IntOrString) -> serde_json::Value {
    match v {
        IntOrString::Int(i) => json!(i),
        IntOrString::String(s) => json!(s),
    }
}

/// The pod template of a controller whose Pods run forever (`ValidatePodTemplateSpecForReplicaSet`
/// and its DaemonSet and StatefulSet forms): `restartPolicy: Always` and no
/// `activeDeadlineSeconds`, the message naming `kind` as upstream's does.
fn restart_always_no_deadline(template: &PodTemplateSpec, kind: &str, errs: &mut Errs) {
    let spec = template.spec.as_ref();
    let restart = spec.and_then(|s| s.restart_policy.clone()).unwrap_or_default();
    if restart != "Always" {
        errs.push(FieldError::not_supported("spec.template.spec.restartPolicy", restart.as_str(), &["Always"]));
    }
    if spec.and_then(|s| s.active_deadline_seconds).is_some() {
        errs.push(FieldError::forbidden(
            "spec.template.spec.activeDeadlineSeconds",
            format!("activeDeadlineSeconds in {kind} is not Supported"),
        ));
    }
}

/// `ValidateDeployment`.
pub fn deployment(d: &Deployment, errs: &mut Errs) {
    meta::object_meta(&d.metadata, true, names::name_is_dns_subdomain, errs);
    let spec = &d.spec;
    nonnegative(spec.replicas.unwrap_or(0) as i64, "spec.replicas", errs);
    selector_and_template(&spec.selector, &spec.template, errs);
    let strategy = spec.strategy.clone().unwrap_or_default();
    match strategy.type_.as_deref().unwrap_or_default() {
        "Recreate" => {
            if strategy.rolling_update.is_some() {
                errs.push(FieldError::forbidden(
                    "spec.strategy.rollingUpdate",
                    "may not be specified when strategy `type` is 'Recreate'",
                ));
            }
        }
        "RollingUpdate" => match &strategy.rolling_update {
            None => errs
                .push(FieldError::required("spec.strategy.rollingUpdate", "this should be defaulted and never be nil")),
            Some(ru) => {
                let zero = IntOrString::Int(0);
                let mu = ru.max_unavailable.as_ref().unwrap_or(&zero);
                let ms = ru.max_surge.as_ref().unwrap_or(&zero);
                int_or_percent(mu, "spec.strategy.rollingUpdate.maxUnavailable", errs);
                int_or_percent(ms, "spec.strategy.rollingUpdate.maxSurge", errs);
                if int_or_percent_value(mu) == 0 && int_or_percent_value(ms) == 0 {
                    errs.push(FieldError::invalid(
                        "spec.strategy.rollingUpdate.maxUnavailable",
                        int_or_string_json(mu),
                        "may not be 0 when `maxSurge` is 0",
                    ));
                }
                if let IntOrString::String(s) = mu {
                    if names::percent(s).is_empty() && int_or_percent_value(mu) > 100 {
                        errs.push(FieldError::invalid(
                            "spec.strategy.rollingUpdate.maxUnavailable",
                            s.as_str(),
                            "must not be greater than 100%",
                        ));
                    }
                }
            }
        },
        _ => errs.push(FieldError::not_supported(
            "spec.strategy",
            serde_json::to_value(&strategy).unwrap_or_default(),
            &["Recreate", "RollingUpdate"],
        )),
    }
    nonnegative(spec.min_ready_seconds.unwrap_or(0) as i64, "spec.minReadySeconds", errs);
    if let Some(r) = spec.revision_history_limit {
        nonnegative(r as i64, "spec.revisionHistoryLimit", errs);
    }
    if let Some(pd) = spec.progress_deadline_seconds {
        nonnegative(pd as i64, "spec.progressDeadlineSeconds", errs);
        if pd <= spec.min_ready_seconds.unwrap_or(0) {
            errs.push(FieldError::invalid("spec.progressDeadlineSeconds", pd, "must be greater than minReadySeconds"));
        }
    }
}

/// `ValidateReplicaSet`.
pub fn replica_set(rs: &ReplicaSet, errs: &mut Errs) {
    meta::object_meta(&rs.metadata, true, names::name_is_dns_subdomain, errs);
    let spec = &rs.spec;
    nonnegative(spec.replicas.unwrap_or(0) as i64, "spec.replicas", errs);
    nonnegative(spec.min_ready_seconds.unwrap_or(0) as i64, "spec.minReadySeconds", errs);
    let empty = PodTemplateSpec::default();
    selector_and_template(&spec.selector, spec.template.as_ref().unwrap_or(&empty), errs);
}

/// `validateJobSpec`: what a Job's spec and a CronJob's job template share (`p` is the path of
/// the spec).
fn job_spec(spec: &JobSpec, p: &str, errs: &mut Errs) {
    for (field, v) in [
        ("parallelism", spec.parallelism.map(i64::from)),
        ("completions", spec.completions.map(i64::from)),
        ("activeDeadlineSeconds", spec.active_deadline_seconds),
        ("backoffLimit", spec.backoff_limit.map(i64::from)),
        ("ttlSecondsAfterFinished", spec.ttl_seconds_after_finished.map(i64::from)),
        ("backoffLimitPerIndex", spec.backoff_limit_per_index.map(i64::from)),
        ("maxFailedIndexes", spec.max_failed_indexes.map(i64::from)),
    ] {
        if let Some(v) = v {
            nonnegative(v, &format!("{p}.{field}"), errs);
        }
    }
    if spec.max_failed_indexes.is_some() && spec.backoff_limit_per_index.is_none() {
        errs.push(FieldError::required(format!("{p}.backoffLimitPerIndex"), "when maxFailedIndexes is specified"));
    }
    let mode = spec.completion_mode.clone();
    if let Some(m) = mode.as_deref() {
        if m != "NonIndexed" && m != "Indexed" {
            errs.push(FieldError::not_supported(format!("{p}.completionMode"), m, &["NonIndexed", "Indexed"]));
        }
        if m == "Indexed" && spec.completions.is_none() {
            errs.push(FieldError::required(format!("{p}.completions"), "when completion mode is Indexed"));
        }
    }
    if mode.as_deref().is_none_or(|m| m == "NonIndexed") {
        if let Some(b) = spec.backoff_limit_per_index {
            errs.push(FieldError::invalid(format!("{p}.backoffLimitPerIndex"), b, "requires indexed completion mode"));
        }
        if let Some(m) = spec.max_failed_indexes {
            errs.push(FieldError::invalid(format!("{p}.maxFailedIndexes"), m, "requires indexed completion mode"));
        }
    }
    if let Some(rp) = spec.pod_replacement_policy.as_deref() {
        if spec.pod_failure_policy.is_some() {
            if rp != "Failed" {
                errs.push(FieldError::not_supported(format!("{p}.podReplacementPolicy"), rp, &["Failed"]));
            }
        } else if !matches!(rp, "Failed" | "TerminatingOrFailed") {
            errs.push(FieldError::not_supported(
                format!("{p}.podReplacementPolicy"),
                rp,
                &["Failed", "TerminatingOrFailed"],
            ));
        }
    }
    validate_pod_template_spec(&spec.template, &format!("{p}.template"), errs);
    let restart = spec.template.spec.as_ref().and_then(|s| s.restart_policy.clone()).unwrap_or_default();
    if restart == "Always" || restart.is_empty() {
        errs.push(FieldError::required(
            format!("{p}.template.spec.restartPolicy"),
            "valid values: \"OnFailure\", \"Never\"",
        ));
    } else if restart != "OnFailure" && restart != "Never" {
        errs.push(FieldError::not_supported(
            format!("{p}.template.spec.restartPolicy"),
            restart.as_str(),
            &["OnFailure", "Never"],
        ));
    } else if spec.pod_failure_policy.is_some() && restart != "Never" {
        errs.push(FieldError::invalid(
            format!("{p}.template.spec.restartPolicy"),
            restart.as_str(),
            "only \"Never\" is supported when podFailurePolicy is specified",
        ));
    }
}

/// `ValidateJob` for a create. The registry generates the selector (from the UID) before
/// validation unless `manualSelector` is true; without one, `spec.selector` is required.
pub fn job(j: &Job, errs: &mut Errs) {
    meta::object_meta(&j.metadata, true, names::name_is_dns_subdomain, errs);
    let empty = Default::default();
    let spec = j.spec.as_ref().unwrap_or(&empty);
    job_spec(spec, "spec", errs);
    match &spec.selector {
        None => errs.push(FieldError::required("spec.selector", "")),
        Some(sel) => meta::label_selector(sel, "spec.selector", errs),
    }
    // A nil selector converts to one that matches nothing.
    let labels = spec.template.metadata.as_ref().and_then(|m| m.labels.as_ref());
    let mismatch = match &spec.selector {
        None => true,
        Some(sel) => meta::selector_convertible(sel) && !labels::label_selector_matches(sel, labels),
    };
    if mismatch {
        errs.push(FieldError::invalid(
            "spec.template.metadata.labels",
            labels.map(|l| json!(l)).unwrap_or(serde_json::Value::Null),
            "`selector` does not match template `labels`",
        ));
    }
}

/// `ValidateCronJobCreate`: metadata, the spec, then the name's 52 characters (the controller
/// appends `-<minutes since the Unix epoch>`, 11 characters, to name a Job).
pub fn cron_job(c: &CronJob, errs: &mut Errs) {
    meta::object_meta(&c.metadata, true, names::name_is_dns_subdomain, errs);
    let spec = &c.spec;
    if spec.schedule.is_empty() {
        errs.push(FieldError::required("spec.schedule", ""));
    } else {
        if let Err(e) = crate::controllers::cronjob::schedule::parse_standard(&spec.schedule) {
            errs.push(FieldError::invalid("spec.schedule", spec.schedule.as_str(), e));
        }
        if spec.schedule.contains("TZ") {
            errs.push(FieldError::invalid(
                "spec.schedule",
                spec.schedule.as_str(),
                "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
            ));
        }
    }
    if let Some(d) = spec.starting_deadline_seconds {
        nonnegative(d, "spec.startingDeadlineSeconds", errs);
    }
    if let Some(tz) = spec.time_zone.as_deref() {
        time_zone(tz, errs);
    }
    match spec.concurrency_policy.as_deref().unwrap_or_default() {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errs.push(FieldError::required("spec.concurrencyPolicy", "")),
        other => errs.push(FieldError::not_supported("spec.concurrencyPolicy", other, &["Allow", "Forbid", "Replace"])),
    }
    job_template_spec(&spec.job_template, "spec.jobTemplate", errs);
    if let Some(v) = spec.successful_jobs_history_limit {
        nonnegative(v.into(), "spec.successfulJobsHistoryLimit", errs);
    }
    if let Some(v) = spec.failed_jobs_history_limit {
        nonnegative(v.into(), "spec.failedJobsHistoryLimit", errs);
    }
    let name = c.metadata.name.as_deref().unwrap_or_default();
    if name.len() > 52 {
        errs.push(FieldError::invalid("metadata.name", name, "must be no more than 52 characters"));
    }
}

/// `validateTimeZone`: IANA's naming rules for each part (digits and `+` tolerated), not
/// `Local`, and a name `time.LoadLocation` knows.
fn time_zone(tz: &str, errs: &mut Errs) {
    let p = "spec.timeZone";
    if tz.is_empty() {
        errs.push(FieldError::invalid(p, tz, "timeZone must be nil or non-empty string"));
        return;
    }
    let part_ok = |part: &str| {
        (1..=14).contains(&part.len())
            && part != "."
            && part != ".."
            && !part.starts_with('-')
            && part.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'+'))
    };
    if !tz.split('/').all(part_ok) {
        errs.push(FieldError::invalid(p, tz, format!("unknown time zone {tz}")));
        return;
    }
    if tz.eq_ignore_ascii_case("Local") {
        errs.push(FieldError::invalid(
            p,
            tz,
            "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
        ));
    }
    if let Err(e) = crate::controllers::cronjob::schedule::load_location(tz) {
        errs.push(FieldError::invalid(p, tz, e));
    }
}

/// `ValidateJobTemplateSpec`: the Job spec without a selector (the Job made from it gets a
/// generated one).
fn job_template_spec(t: &JobTemplateSpec, p: &str, errs: &mut Errs) {
    let empty = Default::default();
    let spec = t.spec.as_ref().unwrap_or(&empty);
    job_spec(spec, &format!("{p}.spec"), errs);
    if let Some(sel) = &spec.selector {
        errs.push(FieldError::invalid(
            format!("{p}.spec.selector"),
            serde_json::to_value(sel).unwrap_or_default(),
            "`selector` will be auto-generated",
        ));
    }
    if spec.manual_selector == Some(true) {
        errs.push(FieldError::not_supported(format!("{p}.spec.manualSelector"), true, &["nil", "false"]));
    }
}

/// `ValidateDaemonSet` (`ValidateDaemonSetSpec` and its update strategy).
///
/// As for Deployments, k8s-openapi gives `spec.selector` as a plain struct: an absent
/// selector and `selector: {}` both arrive empty and are read as upstream's nil selector,
/// which `ValidateDaemonSetSpec` does not require but which selects nothing, so the template's
/// labels do not match it.
pub fn daemon_set(ds: &DaemonSet, errs: &mut Errs) {
    meta::object_meta(&ds.metadata, true, names::name_is_dns_subdomain, errs);
    let spec = &ds.spec;
    let template = &spec.template;
    let labels = template.metadata.as_ref().and_then(|m| m.labels.as_ref());
    let selector = &spec.selector;
    let nil = labels::is_empty(selector);
    if !nil {
        meta::label_selector(selector, "spec.selector", errs);
    }
    let convertible = nil || meta::selector_convertible(selector);
    if convertible && (nil || !labels::label_selector_matches(selector, labels)) {
        errs.push(FieldError::invalid(
            "spec.template.metadata.labels",
            template_labels(template),
            "`selector` does not match template `labels`",
        ));
    }
    validate_pod_template_spec(template, "spec.template", errs);
    restart_always_no_deadline(template, "DaemonSet", errs);
    nonnegative(spec.min_ready_seconds.unwrap_or(0) as i64, "spec.minReadySeconds", errs);
    let template_generation = ds
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get("deprecated.daemonset.template.generation"))
        .and_then(|g| g.parse::<i64>().ok())
        .unwrap_or(0);
    nonnegative(template_generation, "spec.templateGeneration", errs);
    let strategy = spec.update_strategy.clone().unwrap_or_default();
    match strategy.type_.as_deref().unwrap_or_default() {
        "OnDelete" => {}
        "RollingUpdate" => match &strategy.rolling_update {
            None => errs.push(FieldError::required("spec.updateStrategy.rollingUpdate", "")),
            Some(ru) => {
                let zero = IntOrString::Int(0);
                let mu = ru.max_unavailable.as_ref().unwrap_or(&zero);
                let ms = ru.max_surge.as_ref().unwrap_or(&zero);
                let mu_path = "spec.updateStrategy.rollingUpdate.maxUnavailable";
                let ms_path = "spec.updateStrategy.rollingUpdate.maxSurge";
                int_or_percent(mu, mu_path, errs);
                int_or_percent(ms, ms_path, errs);
                for (v, p) in [(mu, mu_path), (ms, ms_path)] {
                    if let IntOrString::String(s) = v {
                        let s = s.as_str();
                        if names::percent(s).is_empty() && int_or_percent_value(v) > 100 {
                            errs.push(FieldError::invalid(p, s, "must not be greater than 100%"));
                        }
                    }
                }
                let has_unavailable = int_or_percent_value(mu) != 0;
                let has_surge = int_or_percent_value(ms) != 0;
                if has_unavailable && has_surge {
                    errs.push(FieldError::invalid(
                        ms_path,
                        int_or_string_json(ms),
                        "may not be set when maxUnavailable is non-zero",
                    ));
                } else if !has_unavailable && !has_surge {
                    errs.push(FieldError::required(mu_path, "cannot be 0 when maxSurge is 0"));
                }
            }
        },
        _ => errs.push(FieldError::not_supported(
            "spec.updateStrategy",
            serde_json::to_value(&strategy).unwrap_or_default(),
            &["RollingUpdate", "OnDelete"],
        )),
    }
    if let Some(r) = spec.revision_history_limit {
        nonnegative(r as i64, "spec.revisionHistoryLimit", errs);
    }
}

/// `ValidateStatefulSet`: the name is a DNS label (it prefixes the Pods' host names).
pub fn stateful_set(s: &StatefulSet, errs: &mut Errs) {
    meta::object_meta(&s.metadata, true, names::name_is_dns_label, errs);
    stateful_set_spec(&s.spec, errs);
}

/// `ValidateStatefulSetSpec`. Upstream checks only the template's labels and annotations, not
/// its pod spec (a broken pod spec is refused when the controller creates the Pods), and
/// has no rule for `serviceName` (optional since v1.33).
pub fn stateful_set_spec(spec: &StatefulSetSpec, errs: &mut Errs) {
    match spec.pod_management_policy.as_deref().unwrap_or_default() {
        "" => errs.push(FieldError::required("spec.podManagementPolicy", "")),
        "OrderedReady" | "Parallel" => {}
        other => {
            errs.push(FieldError::invalid("spec.podManagementPolicy", other, "must be 'OrderedReady' or 'Parallel'"))
        }
    }
    let strategy = spec.update_strategy.clone().unwrap_or_default();
    match strategy.type_.as_deref().unwrap_or_default() {
        "" => errs.push(FieldError::required("spec.updateStrategy", "")),
        "OnDelete" => {
            if let Some(ru) = &strategy.rolling_update {
                errs.push(FieldError::invalid(
                    "spec.updateStrategy.rollingUpdate",
                    serde_json::to_value(ru).unwrap_or_default(),
                    "only allowed for updateStrategy 'RollingUpdate'",
                ));
            }
        }
        "RollingUpdate" => {
            if let Some(ru) = &strategy.rolling_update {
                nonnegative(ru.partition.unwrap_or(0) as i64, "spec.updateStrategy.rollingUpdate.partition", errs);
                if let Some(mu) = &ru.max_unavailable {
                    let p = "spec.updateStrategy.rollingUpdate.maxUnavailable";
                    int_or_percent(mu, p, errs);
                    if int_or_percent_value(mu) == 0 {
                        errs.push(FieldError::invalid(p, int_or_string_json(mu), "cannot be 0"));
                    }
                    if let IntOrString::String(s) = mu {
                        if names::percent(s).is_empty() && int_or_percent_value(mu) > 100 {
                            errs.push(FieldError::invalid(p, s.as_str(), "must not be greater than 100%"));
                        }
                    }
                }
            }
        }
        _ => errs.push(FieldError::invalid(
            "spec.updateStrategy",
            serde_json::to_value(&strategy).unwrap_or_default(),
            "must be 'RollingUpdate' or 'OnDelete'",
        )),
    }
    if let Some(pol) = &spec.persistent_volume_claim_retention_policy {
        for (field, v) in [("whenDeleted", &pol.when_deleted), ("whenScaled", &pol.when_scaled)] {
            let v = v.as_deref().unwrap_or_default();
            if v != "Retain" && v != "Delete" {
                errs.push(FieldError::not_supported(
                    format!("spec.persistentVolumeClaimRetentionPolicy.{field}"),
                    v,
                    &["Retain", "Delete"],
                ));
            }
        }
    }
    nonnegative(spec.replicas.unwrap_or(0) as i64, "spec.replicas", errs);
    nonnegative(spec.min_ready_seconds.unwrap_or(0) as i64, "spec.minReadySeconds", errs);
    if let Some(o) = &spec.ordinals {
        nonnegative(o.start.unwrap_or(0) as i64, "spec.ordinals.start", errs);
    }
    let template = &spec.template;
    let tmeta = template.metadata.as_ref();
    let tlabels = tmeta.and_then(|m| m.labels.as_ref());
    required_selector_matches(&spec.selector, template, "", errs);
    // Upstream's paths here skip `metadata` (`spec.template.labels`).
    meta::labels(tlabels, "spec.template.labels", errs);
    meta::annotations(tmeta.and_then(|m| m.annotations.as_ref()), "spec.template.annotations", errs);
    restart_always_no_deadline(template, "StatefulSet", errs);
}

/// `ValidateStatefulSetUpdate`: the spec as on create (the name is not checked again), and
/// nothing but replicas, ordinals, template, updateStrategy, the claim retention policy and
/// minReadySeconds may change.
pub fn stateful_set_update(new: &StatefulSet, old: &StatefulSet, errs: &mut Errs) {
    stateful_set_spec(&new.spec, errs);
    let mut clone = new.spec.clone();
    clone.replicas = old.spec.replicas;
    clone.template = old.spec.template.clone();
    clone.update_strategy = old.spec.update_strategy.clone();
    clone.min_ready_seconds = old.spec.min_ready_seconds;
    clone.ordinals = old.spec.ordinals.clone();
    clone.persistent_volume_claim_retention_policy = old.spec.persistent_volume_claim_retention_policy.clone();
    if clone != old.spec {
        errs.push(FieldError::forbidden(
            "spec",
            "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ));
    }
}

/// `ValidateControllerRevision`: its metadata, `data` required, `revision` not negative.
pub fn controller_revision(cr: &ControllerRevision, errs: &mut Errs) {
    meta::object_meta(&cr.metadata, true, names::name_is_dns_subdomain, errs);
    if cr.data.0.is_null() {
        errs.push(FieldError::required("data", "data is mandatory"));
    }
    nonnegative(cr.revision.unwrap_or(0), "revision", errs);
}

/// `ValidatePodDisruptionBudget` (policy/v1): the metadata (a DNS subdomain name), then
/// `ValidatePodDisruptionBudgetSpec`: `minAvailable` and `maxUnavailable` not both set, each a
/// non-negative integer or a percentage of at most 100%, the selector, and
/// `unhealthyPodEvictionPolicy` one of `AlwaysAllow`, `IfHealthyBudget`. The object is read
/// from its JSON (the lab keeps PodDisruptionBudgets unstructured).
pub fn pod_disruption_budget(v: &serde_json::Value, errs: &mut Errs) {
    use k8s_openapi::api::policy::v1::PodDisruptionBudgetSpec;
    let Some(spec) = v.get("spec") else { return };
    let Ok(typed) = serde_json::from_value::<PodDisruptionBudgetSpec>(spec.clone()) else { return };
    if typed.min_available.is_some() && typed.max_unavailable.is_some() {
        errs.push(FieldError::invalid("spec", spec.clone(), "minAvailable and maxUnavailable cannot be both set"));
    }
    for (field, value) in [("minAvailable", &typed.min_available), ("maxUnavailable", &typed.max_unavailable)] {
        let Some(value) = value else { continue };
        let p = format!("spec.{field}");
        int_or_percent(value, &p, errs);
        if let IntOrString::String(s) = value {
            if names::percent(s).is_empty() && int_or_percent_value(value) > 100 {
                errs.push(FieldError::invalid(p.as_str(), s.as_str(), "must not be greater than 100%"));
            }
        }
    }
    if let Some(sel) = &typed.selector {
        meta::label_selector(sel, "spec.selector", errs);
    }
    if let Some(policy) = &typed.unhealthy_pod_eviction_policy {
        if policy != "AlwaysAllow" && policy != "IfHealthyBudget" {
            errs.push(FieldError::not_supported(
                "spec.unhealthyPodEvictionPolicy",
                policy.as_str(),
                &["AlwaysAllow", "IfHealthyBudget"],
            ));
        }
    }
}
