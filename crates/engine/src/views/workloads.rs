//! The workload describers: `kubectl describe deployment` (the summary, the pod template,
//! the conditions, the old and new ReplicaSets found as the deployment controller finds them
//! and the events), `describe statefulset` (with its volume claim templates), `describe
//! daemonset`, `describe replicaset` and `describe cronjob` (with its job template). All of
//! them print the pod template with the same `DescribePodTemplate` as upstream.

use super::describe::PrefixWriter;
use super::describe::{
    canonical_quantity, describe_events, describe_pod_template, print_annotations_multiline, print_bool,
    print_labels_multiline, print_labels_multiline_with_indent,
};
use super::format::{format_labels, rfc1123z_opt, Clock};
use super::printers::label_selector_string;
use super::storage::claim_storage_class;
use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::{CronJob, Job, JobTemplateSpec};
use k8s_openapi::api::core::v1::{Event, PersistentVolumeClaim, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

const POD_TEMPLATE_HASH: &str = "pod-template-hash";

fn int_or_string(v: Option<&IntOrString>) -> String {
    match v {
        Some(IntOrString::Int(i)) => i.to_string(),
        Some(IntOrString::String(s)) => s.clone(),
        None => "0".to_string(),
    }
}

/// The template without the `pod-template-hash` label (`EqualIgnoreHash`).
fn without_hash(t: Option<&PodTemplateSpec>) -> serde_json::Value {
    let mut t = t.cloned().unwrap_or_default();
    if let Some(labels) = t.metadata.as_mut().and_then(|m| m.labels.as_mut()) {
        labels.remove(POD_TEMPLATE_HASH);
    }
    serde_json::to_value(t).unwrap_or_default()
}

/// The deployment's ReplicaSets split as `deploymentutil.GetAllReplicaSets` does: the new
/// one (the oldest whose template matches the deployment's) and all the others.
pub fn old_and_new_replicasets<'a>(
    d: &Deployment,
    all: &[&'a ReplicaSet],
) -> (Vec<&'a ReplicaSet>, Option<&'a ReplicaSet>) {
    let uid = d.metadata.uid.as_deref();
    let name = d.metadata.name.as_deref();
    let mut owned: Vec<&ReplicaSet> = all
        .iter()
        .copied()
        .filter(|rs| rs.metadata.namespace == d.metadata.namespace)
        .filter(|rs| {
            rs.metadata.owner_references.iter().flatten().any(|o| {
                o.controller == Some(true)
                    && o.kind == "Deployment"
                    && match uid {
                        Some(u) if !u.is_empty() => o.uid == u,
                        _ => Some(o.name.as_str()) == name,
                    }
            })
        })
        .collect();
    crate::sort::sort_by(&mut owned, |a, b| {
        let t = |rs: &ReplicaSet| rs.metadata.creation_timestamp.as_ref().map(|t| t.0.as_millisecond());
        t(a).cmp(&t(b)).then_with(|| a.metadata.name.cmp(&b.metadata.name))
    });
    let want = without_hash(Some(&d.spec.template));
    let new = owned.iter().copied().find(|rs| without_hash(rs.spec.template.as_ref()) == want);
    let old = owned.into_iter().filter(|rs| new.is_none_or(|n| !std::ptr::eq(*rs, n))).collect();
    (old, new)
}

fn replicasets_by_labels(list: &[&ReplicaSet]) -> String {
    if list.is_empty() {
        return "<none>".to_string();
    }
    list.iter()
        .map(|rs| {
            format!(
                "{} ({}/{} replicas created)",
                rs.metadata.name.as_deref().unwrap_or(""),
                rs.status.as_ref().map(|s| s.replicas).unwrap_or(0),
                rs.spec.replicas.unwrap_or(1)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `kubectl describe deployment`.
pub fn describe_deployment(
    d: &Deployment,
    old: &[&ReplicaSet],
    new: Option<&ReplicaSet>,
    events: &[&Event],
    clock: Clock,
) -> String {
    let mut w = PrefixWriter::new();
    let meta = &d.metadata;
    let status = d.status.clone().unwrap_or_default();
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")));
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z_opt(meta.creation_timestamp.as_ref())));
    print_labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.write(0, &format!("Selector:\t{}\n", label_selector_string(Some(&d.spec.selector))));
    w.write(
        0,
        &format!(
            "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable\n",
            d.spec.replicas.unwrap_or(1),
            status.updated_replicas.unwrap_or(0),
            status.replicas.unwrap_or(0),
            status.available_replicas.unwrap_or(0),
            status.unavailable_replicas.unwrap_or(0)
        ),
    );
    let strategy = d.spec.strategy.clone().unwrap_or_default();
    // The API server defaults the strategy to RollingUpdate with 25%/25%.
    let strategy_type = strategy.type_.clone().unwrap_or_else(|| "RollingUpdate".to_string());
    w.write(0, &format!("StrategyType:\t{strategy_type}\n"));
    w.write(0, &format!("MinReadySeconds:\t{}\n", d.spec.min_ready_seconds.unwrap_or(0)));
    if strategy_type == "RollingUpdate" {
        let ru = strategy.rolling_update.clone().unwrap_or_default();
        let pct = IntOrString::String("25%".to_string());
        w.write(
            0,
            &format!(
                "RollingUpdateStrategy:\t{} max unavailable, {} max surge\n",
                int_or_string(ru.max_unavailable.as_ref().or(Some(&pct))),
                int_or_string(ru.max_surge.as_ref().or(Some(&pct)))
            ),
        );
    }
    describe_pod_template(&mut w, Some(&d.spec.template));
    let conditions = status.conditions.iter().flatten();
    describe_conditions(&mut w, conditions.map(|c| (c.type_.as_deref(), c.status.as_deref(), c.reason.as_deref())));
    if !old.is_empty() || new.is_some() {
        w.write(0, &format!("OldReplicaSets:\t{}\n", replicasets_by_labels(old)));
        w.write(0, &format!("NewReplicaSet:\t{}\n", replicasets_by_labels(&new.into_iter().collect::<Vec<_>>())));
    }
    describe_events(&mut w, events, clock);
    w.finish()
}

/// The "Conditions" table of a Deployment or ReplicaSet (type, status, reason), when it has
/// any.
pub(crate) fn describe_conditions<'c>(
    w: &mut PrefixWriter,
    conditions: impl Iterator<Item = (Option<&'c str>, Option<&'c str>, Option<&'c str>)>,
) {
    let rows: Vec<_> = conditions.collect();
    if rows.is_empty() {
        return;
    }
    w.write(0, "Conditions:\n  Type\tStatus\tReason\n");
    w.write(1, "----\t------\t------\n");
    for (type_, status, reason) in rows {
        let [type_, status, reason] = [type_, status, reason].map(|v| v.unwrap_or(""));
        w.write(1, &format!("{type_} \t{status}\t{reason}\n"));
    }
}

/// `kubectl describe replicaset` (upstream's `describeReplicaSet`).
pub fn describe_replicaset(rs: &ReplicaSet, pods: PodPhaseCounts, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    let meta = &rs.metadata;
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")));
    w.write(0, &format!("Selector:\t{}\n", label_selector_string(Some(&rs.spec.selector))));
    print_labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    if let Some(owner) = meta.owner_references.iter().flatten().find(|o| o.controller == Some(true)) {
        w.write(0, &format!("Controlled By:\t{}/{}\n", owner.kind, owner.name));
    }
    let status = rs.status.clone().unwrap_or_default();
    w.write(0, &format!("Replicas:\t{} current / {} desired\n", status.replicas, rs.spec.replicas.unwrap_or(1)));
    w.write(0, &pods.line());
    describe_pod_template(&mut w, rs.spec.template.as_ref());
    let conditions = status.conditions.iter().flatten();
    describe_conditions(&mut w, conditions.map(|c| (c.type_.as_deref(), c.status.as_deref(), c.reason.as_deref())));
    describe_events(&mut w, events, clock);
    w.finish()
}

/// The phases of the pods a controller owns, as `getPodStatusForController` counts them for
/// "Pods Status": the pods of the namespace its selector matches whose controller reference
/// carries its UID.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PodPhaseCounts {
    pub running: usize,
    pub waiting: usize,
    pub succeeded: usize,
    pub failed: usize,
}

impl PodPhaseCounts {
    /// Counts one pod of `phase` (`Pending` is "Waiting"; an unknown phase is not counted).
    pub fn add(&mut self, phase: &str) {
        match phase {
            "Running" => self.running += 1,
            "Pending" => self.waiting += 1,
            "Succeeded" => self.succeeded += 1,
            "Failed" => self.failed += 1,
            _ => {}
        }
    }

    fn line(&self) -> String {
        format!(
            "Pods Status:\t{} Running / {} Waiting / {} Succeeded / {} Failed\n",
            self.running, self.waiting, self.succeeded, self.failed
        )
    }
}

/// `describeVolumeClaimTemplates`: each template's name, class, labels, annotations (as
/// `k=v`), requested storage (`<default>` when none) and access modes (Go's slice format).
fn describe_volume_claim_templates(w: &mut PrefixWriter, templates: &[PersistentVolumeClaim]) {
    if templates.is_empty() {
        w.write(0, "Volume Claims:\t<none>\n");
        return;
    }
    w.write(0, "Volume Claims:\n");
    for pvc in templates {
        let spec = pvc.spec.clone().unwrap_or_default();
        w.write(1, &format!("Name:\t{}\n", pvc.metadata.name.as_deref().unwrap_or("")));
        w.write(1, &format!("StorageClass:\t{}\n", claim_storage_class(pvc)));
        print_labels_multiline_with_indent(w, "  ", "Labels", pvc.metadata.labels.as_ref());
        print_labels_multiline_with_indent(w, "  ", "Annotations", pvc.metadata.annotations.as_ref());
        let capacity = spec
            .resources
            .as_ref()
            .and_then(|r| r.requests.as_ref())
            .and_then(|r| r.get("storage"))
            .map(canonical_quantity)
            .unwrap_or_else(|| "<default>".to_string());
        w.write(1, &format!("Capacity:\t{capacity}\n"));
        w.write(1, &format!("Access Modes:\t[{}]\n", spec.access_modes.unwrap_or_default().join(" ")));
    }
}

/// `kubectl describe statefulset`.
pub fn describe_statefulset(set: &StatefulSet, pods: PodPhaseCounts, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    let meta = &set.metadata;
    let spec = &set.spec;
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")));
    w.write(0, &format!("CreationTimestamp:\t{}\n", rfc1123z_opt(meta.creation_timestamp.as_ref())));
    w.write(0, &format!("Selector:\t{}\n", label_selector_string(Some(&spec.selector))));
    print_labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.write(
        0,
        &format!(
            "Replicas:\t{} desired | {} total\n",
            spec.replicas.unwrap_or(1),
            set.status.as_ref().map(|s| s.replicas).unwrap_or(0)
        ),
    );
    let strategy = spec.update_strategy.clone().unwrap_or_default();
    w.write(0, &format!("Update Strategy:\t{}\n", strategy.type_.as_deref().unwrap_or("")));
    // Upstream shows maxUnavailable only with a partition (both are defaulted together).
    if let Some(partition) = strategy.rolling_update.as_ref().and_then(|ru| ru.partition) {
        w.write(1, &format!("Partition:\t{partition}\n"));
        if let Some(mu) = strategy.rolling_update.as_ref().and_then(|ru| ru.max_unavailable.as_ref()) {
            w.write(1, &format!("MaxUnavailable:\t{}\n", int_or_string(Some(mu))));
        }
    }
    w.write(0, &pods.line());
    describe_pod_template(&mut w, Some(&spec.template));
    describe_volume_claim_templates(&mut w, spec.volume_claim_templates.as_deref().unwrap_or(&[]));
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `kubectl describe daemonset`: its scheduling counts are written without a tab, as upstream
/// does, so they are not aligned with the other fields.
pub fn describe_daemonset(ds: &DaemonSet, pods: PodPhaseCounts, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    let meta = &ds.metadata;
    let spec = &ds.spec;
    let status = ds.status.clone().unwrap_or_default();
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")));
    w.write(0, &format!("Selector:\t{}\n", label_selector_string(Some(&spec.selector))));
    let node_selector = spec.template.spec.as_ref().and_then(|s| s.node_selector.as_ref());
    w.write(0, &format!("Node-Selector:\t{}\n", format_labels(node_selector)));
    print_labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.write(0, &format!("Desired Number of Nodes Scheduled: {}\n", status.desired_number_scheduled));
    w.write(0, &format!("Current Number of Nodes Scheduled: {}\n", status.current_number_scheduled));
    w.write(
        0,
        &format!("Number of Nodes Scheduled with Up-to-date Pods: {}\n", status.updated_number_scheduled.unwrap_or(0)),
    );
    w.write(0, &format!("Number of Nodes Scheduled with Available Pods: {}\n", status.number_available.unwrap_or(0)));
    w.write(0, &format!("Number of Nodes Misscheduled: {}\n", status.number_misscheduled));
    w.write(0, &pods.line());
    describe_pod_template(&mut w, Some(&spec.template));
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `describeJobTemplate`: what a CronJob's Jobs will be made of.
fn describe_job_template(w: &mut PrefixWriter, template: &JobTemplateSpec) {
    let spec = template.spec.clone().unwrap_or_default();
    match &spec.selector {
        Some(sel) => w.write(0, &format!("Selector:\t{}\n", label_selector_string(Some(sel)))),
        None => w.write(0, "Selector:\t<unset>\n"),
    }
    let or_unset = |v: Option<i32>| v.map(|v| v.to_string()).unwrap_or_else(|| "<unset>".to_string());
    w.write(0, &format!("Parallelism:\t{}\n", or_unset(spec.parallelism)));
    w.write(0, &format!("Completions:\t{}\n", or_unset(spec.completions)));
    if let Some(d) = spec.active_deadline_seconds {
        w.write(0, &format!("Active Deadline Seconds:\t{d}s\n"));
    }
    describe_pod_template(w, Some(&spec.template));
}

/// `kubectl describe cronjob`: the schedule and its policies (`<unset>` for what the
/// CronJob does not set), the job template, the last schedule time and the active Jobs.
pub fn describe_cronjob(cj: &CronJob, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    let meta = &cj.metadata;
    let spec = &cj.spec;
    let status = cj.status.clone().unwrap_or_default();
    let or_unset = |v: Option<String>| v.unwrap_or_else(|| "<unset>".to_string());
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")));
    print_labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    w.write(0, &format!("Schedule:\t{}\n", spec.schedule));
    w.write(0, &format!("Concurrency Policy:\t{}\n", spec.concurrency_policy.as_deref().unwrap_or("")));
    w.write(0, &format!("Suspend:\t{}\n", or_unset(spec.suspend.map(|b| print_bool(b).to_string()))));
    w.write(0, &format!("Time Zone:\t{}\n", or_unset(spec.time_zone.clone())));
    w.write(
        0,
        &format!(
            "Successful Job History Limit:\t{}\n",
            or_unset(spec.successful_jobs_history_limit.map(|n| n.to_string()))
        ),
    );
    w.write(
        0,
        &format!("Failed Job History Limit:\t{}\n", or_unset(spec.failed_jobs_history_limit.map(|n| n.to_string()))),
    );
    w.write(
        0,
        &format!("Starting Deadline Seconds:\t{}\n", or_unset(spec.starting_deadline_seconds.map(|n| format!("{n}s")))),
    );
    describe_job_template(&mut w, &spec.job_template);
    w.write(
        0,
        &format!(
            "Last Schedule Time:\t{}\n",
            or_unset(status.last_schedule_time.as_ref().map(|t| rfc1123z_opt(Some(t))))
        ),
    );
    let active: Vec<&str> = status.active.iter().flatten().map(|r| r.name.as_deref().unwrap_or("")).collect();
    w.write(0, "Active Jobs:\t");
    if active.is_empty() {
        w.line("<none>");
    } else {
        w.line(&active.join(", "));
    }
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `kubectl describe job` (`describeJob`): the spec's counts and policies (a field the Job
/// leaves unset is left out, but for Completions, `<unset>`), when it started and completed,
/// its Pods by phase from the status (with the ready count when the status has one), the
/// completed indexes of an Indexed Job, the Pod template and the Events.
pub fn describe_job(job: &Job, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    let meta = &job.metadata;
    let spec = job.spec.clone().unwrap_or_default();
    let status = job.status.clone().unwrap_or_default();
    w.write(0, &format!("Name:\t{}\n", meta.name.as_deref().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta.namespace.as_deref().unwrap_or("")));
    w.write(0, &format!("Selector:\t{}\n", label_selector_string(spec.selector.as_ref())));
    print_labels_multiline(&mut w, "Labels", meta.labels.as_ref());
    print_annotations_multiline(&mut w, "Annotations", meta.annotations.as_ref());
    if let Some(owner) = meta.owner_references.iter().flatten().find(|o| o.controller == Some(true)) {
        w.write(0, &format!("Controlled By:\t{}/{}\n", owner.kind, owner.name));
    }
    if let Some(p) = spec.parallelism {
        w.write(0, &format!("Parallelism:\t{p}\n"));
    }
    match spec.completions {
        Some(c) => w.write(0, &format!("Completions:\t{c}\n")),
        None => w.write(0, "Completions:\t<unset>\n"),
    }
    if let Some(mode) = &spec.completion_mode {
        w.write(0, &format!("Completion Mode:\t{mode}\n"));
    }
    if let Some(s) = spec.suspend {
        w.write(0, &format!("Suspend:\t{s}\n"));
    }
    if let Some(b) = spec.backoff_limit {
        w.write(0, &format!("Backoff Limit:\t{b}\n"));
    }
    if let Some(t) = spec.ttl_seconds_after_finished {
        w.write(0, &format!("TTL Seconds After Finished:\t{t}\n"));
    }
    if let Some(t) = &status.start_time {
        w.write(0, &format!("Start Time:\t{}\n", rfc1123z_opt(Some(t))));
    }
    if let Some(t) = &status.completion_time {
        w.write(0, &format!("Completed At:\t{}\n", rfc1123z_opt(Some(t))));
    }
    if let (Some(start), Some(end)) = (&status.start_time, &status.completion_time) {
        let ms = end.0.as_millisecond() - start.0.as_millisecond();
        w.write(0, &format!("Duration:\t{}\n", super::format::human_duration(ms)));
    }
    if let Some(d) = spec.active_deadline_seconds {
        w.write(0, &format!("Active Deadline Seconds:\t{d}s\n"));
    }
    let (active, succeeded, failed) =
        (status.active.unwrap_or(0), status.succeeded.unwrap_or(0), status.failed.unwrap_or(0));
    match status.ready {
        None => w.write(0, &format!("Pods Statuses:\t{active} Active / {succeeded} Succeeded / {failed} Failed\n")),
        Some(ready) => w.write(
            0,
            &format!("Pods Statuses:\t{active} Active ({ready} Ready) / {succeeded} Succeeded / {failed} Failed\n"),
        ),
    }
    if spec.completion_mode.as_deref() == Some("Indexed") {
        w.write(
            0,
            &format!("Completed Indexes:\t{}\n", cap_indexes(status.completed_indexes.as_deref().unwrap_or(""), 50)),
        );
    }
    describe_pod_template(&mut w, Some(&spec.template));
    describe_events(&mut w, events, clock);
    w.finish()
}

/// `capIndexesListOrNone`: `<none>`, or the list cut after the first comma at or past
/// `soft_limit` characters, followed by `...`.
fn cap_indexes(indexes: &str, soft_limit: usize) -> String {
    if indexes.is_empty() {
        return "<none>".to_string();
    }
    match indexes.char_indices().skip(soft_limit).find(|(_, c)| *c == ',') {
        Some((i, _)) => format!("{}...", &indexes[..=i]),
        None => indexes.to_string(),
    }
}

/// `kubectl describe poddisruptionbudget` (policy/v1's describer): the bound that is set, the
/// selector (`<unset>` when there is none), the status counts, the Events.
pub fn describe_pdb(pdb: &serde_json::Value, events: &[&Event], clock: Clock) -> String {
    let mut w = PrefixWriter::new();
    let meta = &pdb["metadata"];
    let spec = &pdb["spec"];
    let status = &pdb["status"];
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    w.write(0, &format!("Name:\t{}\n", meta["name"].as_str().unwrap_or("")));
    w.write(0, &format!("Namespace:\t{}\n", meta["namespace"].as_str().unwrap_or("")));
    if !spec["minAvailable"].is_null() {
        w.write(0, &format!("Min available:\t{}\n", text(&spec["minAvailable"])));
    } else if !spec["maxUnavailable"].is_null() {
        w.write(0, &format!("Max unavailable:\t{}\n", text(&spec["maxUnavailable"])));
    }
    match serde_json::from_value::<k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector>(
        spec["selector"].clone(),
    ) {
        Ok(sel) if !spec["selector"].is_null() => {
            w.write(0, &format!("Selector:\t{}\n", super::printers::format_label_selector(Some(&sel))))
        }
        _ => w.write(0, "Selector:\t<unset>\n"),
    }
    let n = |f: &str| status[f].as_i64().unwrap_or(0);
    w.write(0, "Status:\n");
    w.write(2, &format!("Allowed disruptions:\t{}\n", n("disruptionsAllowed")));
    w.write(2, &format!("Current:\t{}\n", n("currentHealthy")));
    w.write(2, &format!("Desired:\t{}\n", n("desiredHealthy")));
    w.write(2, &format!("Total:\t{}\n", n("expectedPods")));
    describe_events(&mut w, events, clock);
    w.finish()
}
