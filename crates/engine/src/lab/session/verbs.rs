//! The session's kubectl commands beyond apply, delete, get and scale: `label`, `annotate`,
//! `set image`, `rollout status|history|undo|restart|pause|resume`, `describe`,
//! `cordon`/`uncordon`, `taint`, and `create -f`/`replace -f`. Every request goes through
//! [`apiserver::handle`] as the learner's own (traced: authentication, RBAC, admission...).
//! kubectl's client-side errors are its own words (checked against a kubectl v1.32 client
//! where it can answer without a server).

use super::dry_run::{print_file_objects, DryRun};
use super::*;
use crate::controllers::deployment::{equal_ignore_hash, REVISION_ANNOTATION};
use crate::kubectl::FileVerb;
use crate::object::Object;
use k8s_openapi::api::core::v1::PodTemplateSpec;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The ReplicaSet annotation `kubectl rollout history` shows in its CHANGE-CAUSE column.
const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";
/// The template annotation `kubectl rollout restart` sets.
const RESTARTED_AT: &str = "kubectl.kubernetes.io/restartedAt";

pub(super) fn unknown_flag(cmd: &str, f: &str) -> Output {
    Output::error(format!("Error: unknown flag: {f}\nSee 'kubectl {cmd} --help' for usage."))
}

const NO_RESOURCES: &str = "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

pub(super) fn server_error(status: crate::errors::Status) -> Output {
    Output::error(kubectl_stderr(&[CommandError::Server(status)]))
}

/// A describer's text without its `Events:` section (the last one), as describers print
/// it when kubectl's `ShowEvents` is off.
fn without_events(text: String) -> String {
    match text.rfind("\nEvents:") {
        Some(i) => text[..=i].to_string(),
        None => text,
    }
}

/// `TYPE NAME` or `TYPE/NAME`: the resource and the name.
pub(super) fn target(args: &[String]) -> Result<(&'static ResourceInfo, String), Output> {
    let Some(first) = args.first() else { return Err(Output::error(NO_RESOURCES)) };
    let (type_, name) = match first.split_once('/') {
        Some((t, n)) => {
            if args.len() > 1 {
                return Err(Output::error("error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'"));
            }
            (t, Some(n.to_string()))
        }
        None => (first.as_str(), args.get(1).cloned()),
    };
    let res = resource_named(type_).ok_or_else(|| no_type(type_))?;
    let name = name.ok_or_else(|| Output::error("error: resource(s) were provided, but no name was specified"))?;
    Ok((res, name))
}

/// `Revision` of a ReplicaSet (its `deployment.kubernetes.io/revision` annotation).
fn revision_of(o: &Object) -> Option<i64> {
    o.meta().annotations.as_ref()?.get(REVISION_ANNOTATION)?.parse().ok()
}

/// A label value as `validation.IsValidLabelValue` accepts it.
fn valid_label_value(v: &str) -> bool {
    v.is_empty()
        || (v.len() <= 63
            && v.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && v.starts_with(|c: char| c.is_ascii_alphanumeric())
            && v.ends_with(|c: char| c.is_ascii_alphanumeric()))
}

/// `{"a": {"b": leaf}}` for the pointer `/a/b`.
fn nest(pointer: &str, leaf: Value) -> Value {
    pointer.split('/').filter(|s| !s.is_empty()).rev().fold(leaf, |acc, seg| {
        let mut m = Map::new();
        m.insert(seg.to_string(), acc);
        Value::Object(m)
    })
}

/// Where a kind keeps its Pod spec, as a JSON pointer.
fn pod_spec_pointer(kind: &str) -> Option<&'static str> {
    match kind {
        "Pod" => Some("/spec"),
        "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job" => Some("/spec/template/spec"),
        "CronJob" => Some("/spec/jobTemplate/spec/template/spec"),
        _ => None,
    }
}

/// kubectl's Go-style rendering of a taint (`key=value:Effect`).
fn taint_string(key: &str, value: &str, effect: &str) -> String {
    let mut s = key.to_string();
    if !value.is_empty() {
        s += &format!("={value}");
    }
    if !effect.is_empty() {
        s += &format!(":{effect}");
    }
    s
}

/// A revision and its ReplicaSet.
type Revisioned<'a> = (i64, Option<&'a Object>);

const TAINT_EFFECTS: &[&str] = &["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// The status line of `kubectl rollout status` for a Deployment (kubectl's
/// `DeploymentStatusViewer`): the message, whether the rollout is done, or an error.
fn deployment_rollout_status(d: &Value) -> Result<(String, bool), String> {
    let name = d.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
    let generation = d.pointer("/metadata/generation").and_then(Value::as_i64).unwrap_or(0);
    let status = &d["status"];
    let num = |f: &str| status.get(f).and_then(Value::as_i64).unwrap_or(0);
    if generation <= num("observedGeneration") {
        let timed_out = status.get("conditions").and_then(Value::as_array).is_some_and(|cs| {
            cs.iter().any(|c| c["type"] == "Progressing" && c["reason"] == "ProgressDeadlineExceeded")
        });
        if timed_out {
            return Err(format!("deployment \"{name}\" exceeded its progress deadline"));
        }
        let (updated, replicas, available) = (num("updatedReplicas"), num("replicas"), num("availableReplicas"));
        if let Some(want) = d.pointer("/spec/replicas").and_then(Value::as_i64) {
            if updated < want {
                return Ok((
                    format!("Waiting for deployment \"{name}\" rollout to finish: {updated} out of {want} new replicas have been updated...\n"),
                    false,
                ));
            }
        }
        if replicas > updated {
            return Ok((
                format!(
                    "Waiting for deployment \"{name}\" rollout to finish: {} old replicas are pending termination...\n",
                    replicas - updated
                ),
                false,
            ));
        }
        if available < updated {
            return Ok((
                format!("Waiting for deployment \"{name}\" rollout to finish: {available} of {updated} updated replicas are available...\n"),
                false,
            ));
        }
        return Ok((format!("deployment \"{name}\" successfully rolled out\n"), true));
    }
    Ok(("Waiting for deployment spec update to be observed...\n".to_string(), false))
}

/// kubectl's `StatefulSetStatusViewer`: the status line, whether the rollout is done, or an
/// error (`rollout_status.go`).
fn statefulset_rollout_status(set: &Value) -> Result<(String, bool), String> {
    let strategy = set.pointer("/spec/updateStrategy/type").and_then(Value::as_str).unwrap_or("RollingUpdate");
    if strategy != "RollingUpdate" {
        return Err("rollout status is only available for RollingUpdate strategy type".to_string());
    }
    let generation = set.pointer("/metadata/generation").and_then(Value::as_i64).unwrap_or(0);
    let status = &set["status"];
    let num = |f: &str| status.get(f).and_then(Value::as_i64).unwrap_or(0);
    let text = |f: &str| status.get(f).and_then(Value::as_str).unwrap_or("").to_string();
    if num("observedGeneration") == 0 || generation > num("observedGeneration") {
        return Ok(("Waiting for statefulset spec update to be observed...\n".to_string(), false));
    }
    let replicas = set.pointer("/spec/replicas").and_then(Value::as_i64);
    if let Some(want) = replicas.filter(|w| num("readyReplicas") < *w) {
        return Ok((format!("Waiting for {} pods to be ready...\n", want - num("readyReplicas")), false));
    }
    if let Some(rolling) = set.pointer("/spec/updateStrategy/rollingUpdate").filter(|r| !r.is_null()) {
        if let (Some(want), Some(partition)) = (replicas, rolling.get("partition").and_then(Value::as_i64)) {
            if num("updatedReplicas") < want - partition {
                return Ok((
                    format!(
                        "Waiting for partitioned roll out to finish: {} out of {} new pods have been updated...\n",
                        num("updatedReplicas"),
                        want - partition
                    ),
                    false,
                ));
            }
        }
        return Ok((
            format!("partitioned roll out complete: {} new pods have been updated...\n", num("updatedReplicas")),
            true,
        ));
    }
    if text("updateRevision") != text("currentRevision") {
        return Ok((
            format!(
                "waiting for statefulset rolling update to complete {} pods at revision {}...\n",
                num("updatedReplicas"),
                text("updateRevision")
            ),
            false,
        ));
    }
    Ok((
        format!(
            "statefulset rolling update complete {} pods at revision {}...\n",
            num("currentReplicas"),
            text("currentRevision")
        ),
        true,
    ))
}

/// kubectl's `DaemonSetStatusViewer` (`rollout_status.go`).
fn daemonset_rollout_status(ds: &Value) -> Result<(String, bool), String> {
    let strategy = ds.pointer("/spec/updateStrategy/type").and_then(Value::as_str).unwrap_or("RollingUpdate");
    if strategy != "RollingUpdate" {
        return Err("rollout status is only available for RollingUpdate strategy type".to_string());
    }
    let name = ds.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
    let generation = ds.pointer("/metadata/generation").and_then(Value::as_i64).unwrap_or(0);
    let status = &ds["status"];
    let num = |f: &str| status.get(f).and_then(Value::as_i64).unwrap_or(0);
    if generation > num("observedGeneration") {
        return Ok(("Waiting for daemon set spec update to be observed...\n".to_string(), false));
    }
    let desired = num("desiredNumberScheduled");
    if num("updatedNumberScheduled") < desired {
        return Ok((
            format!(
                "Waiting for daemon set \"{name}\" rollout to finish: {} out of {desired} new pods have been updated...\n",
                num("updatedNumberScheduled")
            ),
            false,
        ));
    }
    if num("numberAvailable") < desired {
        return Ok((
            format!(
                "Waiting for daemon set \"{name}\" rollout to finish: {} of {desired} updated pods are available...\n",
                num("numberAvailable")
            ),
            false,
        ));
    }
    Ok((format!("daemon set \"{name}\" successfully rolled out\n"), true))
}

/// The Pod template a ControllerRevision of a StatefulSet or DaemonSet holds: its data is the
/// patch `{"spec":{"template":{..., "$patch":"replace"}}}`, so applying it to the set
/// (`applyStatefulSetHistory`, `applyDaemonSetHistory`) gives that template.
fn revision_template(rev: &Value) -> Value {
    let mut t = rev.pointer("/data/spec/template").cloned().unwrap_or(json!({}));
    if let Some(m) = t.as_object_mut() {
        m.remove("$patch");
    }
    t
}

impl Session {
    /// `kubectl rollout status|history|undo|restart|pause|resume` for a StatefulSet or a
    /// DaemonSet (`live`, just read): the history is the ControllerRevisions the set
    /// controls (`controlledHistory`), undo sends a revision's data back as a strategic merge
    /// patch (`StatefulSetRollbacker`, `DaemonSetRollbacker`), pause and resume are refused
    /// as kubectl refuses them (`objectpauser.go`, `objectresumer.go`).
    fn rollout_revisions(
        &mut self,
        sub: &str,
        res: &'static ResourceInfo,
        ns: &str,
        name: &str,
        live: &Object,
        flags: &Flags,
    ) -> Output {
        let resource_string = format!("{}.{}", res.plural, res.group);
        let done = |text: String| Output { stdout: text, ..Output::default() };
        match sub {
            "status" => return self.rollout_status(res, ns, name, flags),
            "pause" => return Output::error(format!("error: {resource_string} \"{name}\" pausing is not supported")),
            "resume" => return Output::error(format!("error: {resource_string} \"{name}\" resuming is not supported")),
            "restart" => {
                let set = live.to_json();
                let now = serde_json::to_value(apiserver::timestamp(self.world.now)).unwrap_or(Value::Null);
                if set.pointer("/spec/template/metadata/annotations").and_then(|a| a.get(RESTARTED_AT)) == Some(&now) {
                    return Output::error(format!("error: failed to create patch for {name}: if restart has already been triggered within the past second, please wait before attempting to trigger another"));
                }
                let patch = json!({"spec": {"template": {"metadata": {"annotations": {RESTARTED_AT: now}}}}});
                return match self.send_patch(res, ns, name, patch) {
                    Ok(_) => done(format!("{}/{name} restarted\n", kind_string(res))),
                    Err(status) => server_error(*status),
                };
            }
            _ => {}
        }
        // The set's ControllerRevisions: a traced LIST, kept when controlled by the set.
        let cr_res = resource_for_kind("ControllerRevision").expect("ControllerRevision is a known kind");
        let uid = live.meta().uid.clone().unwrap_or_default();
        let mut history: Vec<Value> = match self.list_live(cr_res, ns) {
            Ok(list) => list
                .into_iter()
                .filter(|r| {
                    r.meta().owner_references.iter().flatten().any(|o| o.controller == Some(true) && o.uid == uid)
                })
                .map(|r| r.to_json())
                .collect(),
            Err(o) => return o,
        };
        let revision_of = |r: &Value| r.get("revision").and_then(Value::as_i64).unwrap_or(0);
        crate::sort::sort_by_key(&mut history, revision_of);
        if sub == "history" {
            let revision = flags.value(&["--revision"]).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
            let body = if history.is_empty() {
                "No rollout history found.".to_string()
            } else if revision > 0 {
                let Some(r) = history.iter().rev().find(|r| revision_of(r) == revision) else {
                    return Output::error("error: unable to find the specified revision");
                };
                let t: PodTemplateSpec = serde_json::from_value(revision_template(r)).unwrap_or_default();
                crate::views::describe_template(Some(&t))
            } else {
                let mut w = crate::views::TabWriter::new(0, 2, false);
                w.write("REVISION\tCHANGE-CAUSE\n");
                let mut last = None;
                for r in &history {
                    // One line a revision number (kubectl keys its map by revision).
                    if last == Some(revision_of(r)) {
                        continue;
                    }
                    last = Some(revision_of(r));
                    let cause = r
                        .pointer("/metadata/annotations")
                        .and_then(|a| a.get(CHANGE_CAUSE))
                        .and_then(Value::as_str)
                        .filter(|c| !c.is_empty())
                        .unwrap_or("<none>");
                    w.write(&format!("{}\t{cause}\n", revision_of(r)));
                }
                w.finish()
            };
            let with = if revision > 0 { format!("with revision #{revision}") } else { String::new() };
            return done(format!("{}/{name} {with}\n{body}\n", kind_string(res)));
        }
        // undo
        let to = flags.value(&["--to-revision"]).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
        let not_found = || Output::error(format!("error: unable to find specified revision {to} in history"));
        if to < 0 {
            return not_found();
        }
        if to == 0 && history.len() <= 1 {
            return Output::error("error: no last revision to roll back to");
        }
        let target =
            if to == 0 { history.get(history.len() - 2) } else { history.iter().find(|r| revision_of(r) == to) };
        let Some(target) = target else { return not_found() };
        let current = live.to_json().pointer("/spec/template").cloned().unwrap_or(json!({}));
        if revision_template(target) == current {
            return done(format!(
                "{}/{name} skipped rollback (current template already matches revision {to})\n",
                kind_string(res)
            ));
        }
        let patch = target.get("data").cloned().unwrap_or(json!({}));
        match self.send_patch(res, ns, name, patch) {
            Ok(_) => done(format!("{}/{name} rolled back\n", kind_string(res))),
            Err(status) => Output::error(format!("error: failed restoring revision {to}: {}", status.message)),
        }
    }

    /// A traced GET of one object.
    fn get_live(&mut self, res: &'static ResourceInfo, ns: &str, name: &str) -> Result<Object, Output> {
        let req = self.request(Verb::Get, res, Some(ns), Some(name));
        let resp = apiserver::handle(&mut self.world, req);
        if let Some(status) = resp.error.clone() {
            return Err(server_error(status));
        }
        resp.into_object().ok_or_else(|| Output::error("error: the server returned no object"))
    }

    /// A traced PATCH (a JSON array is sent as an RFC 6902 JSON patch, anything else as a
    /// merge patch).
    fn send_patch(
        &mut self,
        res: &'static ResourceInfo,
        ns: &str,
        name: &str,
        body: Value,
    ) -> Result<Object, Box<crate::errors::Status>> {
        let mut req = self.request(Verb::Patch, res, Some(ns), Some(name));
        req.body = Some(Body::Json(body));
        let resp = apiserver::handle(&mut self.world, req);
        match resp.error.clone() {
            Some(status) => Err(Box::new(status)),
            None => Ok(resp.into_object().unwrap_or_else(|| Object::from_json("v1", "Status", json!({})).unwrap())),
        }
    }

    /// A traced LIST; the live objects of `res` in `ns` after it.
    fn list_live(&mut self, res: &'static ResourceInfo, ns: &str) -> Result<Vec<Object>, Output> {
        let req = self.request(Verb::List, res, Some(ns), None);
        let resp = apiserver::handle(&mut self.world, req);
        if let Some(status) = resp.error.clone() {
            return Err(server_error(status));
        }
        let prefix = res.list_prefix(if res.namespaced { Some(ns) } else { None });
        Ok(self.world.store.live(&prefix).map(|(_, o)| o.clone()).collect())
    }

    /// `kubectl label|annotate TYPE NAME k=v... k-... [--overwrite]`: a GET, then a merge
    /// patch of `metadata.labels` (or `annotations`).
    pub(super) fn label(&mut self, flags: &Flags, annotate: bool) -> Output {
        let cmd = if annotate { "annotate" } else { "label" };
        let what = if annotate { "annotation" } else { "label" };
        if let Some(f) = flags.unknown(&["-n", "--namespace", "--overwrite", "--dry-run"]) {
            return unknown_flag(cmd, f);
        }
        let dry_run = match self.dry_run_flag(flags) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let (pairs, resources): (Vec<String>, Vec<String>) =
            flags.args.iter().cloned().partition(|a| a.contains('=') || (a.len() > 1 && a.ends_with('-')));
        if pairs.is_empty() || pairs.iter().any(|p| p.starts_with('=')) {
            return Output::error(format!("error: at least one {what} update is required"));
        }
        let mut set: BTreeMap<String, String> = BTreeMap::new();
        let mut remove: Vec<String> = Vec::new();
        for p in &pairs {
            if let Some((k, v)) = p.split_once('=') {
                if !annotate && !valid_label_value(v) {
                    return Output::error(format!(
                        "error: invalid label value: \"{p}\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
                    ));
                }
                set.insert(k.to_string(), v.to_string());
            } else {
                remove.push(p[..p.len() - 1].to_string());
            }
        }
        let both: Vec<&String> = remove.iter().filter(|k| set.contains_key(*k)).collect();
        if !both.is_empty() {
            return Output::error(if annotate {
                format!(
                    "error: can not both modify and remove the following annotation(s) in the same command: {}",
                    both.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                )
            } else {
                "error: can not both modify and remove a label in the same command".to_string()
            });
        }
        let (res, name) = match target(&resources) {
            Ok(t) => t,
            Err(o) => return o,
        };
        let overwrite = flags.has(&["--overwrite"]) && flags.value(&["--overwrite"]) != Some("false");
        let ns = self.namespace_of(flags);
        let live = match self.get_live(res, &ns, &name) {
            Ok(o) => o,
            Err(o) => return o,
        };
        let meta = live.meta();
        let old: BTreeMap<String, String> =
            if annotate { meta.annotations.clone() } else { meta.labels.clone() }.unwrap_or_default();
        if !overwrite {
            let clashes: Vec<(&String, &String)> =
                set.iter().filter_map(|(k, v)| old.get(k).filter(|cur| *cur != v).map(|cur| (k, cur))).collect();
            if !clashes.is_empty() {
                return Output::error(if annotate {
                    format!(
                        "error: --overwrite is false but found the following declared annotation(s): {}",
                        clashes
                            .iter()
                            .map(|(k, cur)| format!("'{k}' already has a value ({cur})"))
                            .collect::<Vec<_>>()
                            .join("; ")
                    )
                } else {
                    let each: Vec<String> = clashes
                        .iter()
                        .map(|(k, cur)| format!("'{k}' already has a value ({cur}), and --overwrite is false"))
                        .collect();
                    if each.len() == 1 {
                        format!("error: {}", each[0])
                    } else {
                        format!("error: [{}]", each.join(", "))
                    }
                });
            }
        }
        let mut out = Output::default();
        // `labelFunc` / `updateAnnotations`: what the command adds (a new key or a new value)
        // and removes (a key the object has).
        let mut patch = Map::new();
        let (mut added, mut removed) = (0, 0);
        for k in &remove {
            if old.contains_key(k) {
                patch.insert(k.clone(), Value::Null);
                removed += 1;
            } else if !annotate && dry_run != DryRun::Client {
                out.stdout += &format!("label \"{k}\" not found.\n");
            }
        }
        for (k, v) in &set {
            if old.get(k) != Some(v) {
                patch.insert(k.clone(), Value::String(v.clone()));
                added += 1;
            }
        }
        let field = if annotate { "annotations" } else { "labels" };
        // kubectl label sends nothing when nothing changes; annotate always sends its
        // (possibly empty) merge patch.
        let send = dry_run != DryRun::Client && (annotate || added + removed > 0);
        if send {
            if dry_run == DryRun::Server {
                self.server_dry_run();
            }
            let body = if patch.is_empty() { json!({}) } else { json!({"metadata": {field: patch}}) };
            if let Err(status) = self.send_patch(res, &ns, &name, body) {
                out.stderr += &kubectl_stderr(&[CommandError::Server(*status)]);
                out.exit = 1;
                return out;
            }
        }
        // `updateDataChangeMsg` (v1.35+): `modified` when the command both adds and removes.
        let msg = match (annotate, added > 0, removed > 0) {
            (true, _, _) => "annotated",
            (false, true, true) => "modified",
            (false, true, false) => "labeled",
            (false, false, true) => "unlabeled",
            (false, false, false) => "not labeled",
        };
        out.stdout += &format!("{}/{name} {msg}{}\n", kind_string(res), dry_run.suffix());
        out
    }

    /// `kubectl set image TYPE/NAME CONTAINER=IMAGE...`: a strategic merge patch of the Pod
    /// template's containers (`*` names every container).
    pub(super) fn set(&mut self, flags: &Flags) -> Output {
        match flags.args.first().map(String::as_str) {
            Some("image") => {}
            Some(other) => {
                return Output::error(format!(
                    "podlab: kubectl set {other} is not modelled by the lab's session yet (it knows kubectl set image)"
                ))
            }
            None => {
                return Output::error(
                    "podlab: the lab's session knows kubectl set image TYPE/NAME CONTAINER=IMAGE (a real kubectl also has set env, resources, selector, serviceaccount, subject)",
                )
            }
        }
        if let Some(f) = flags.unknown(&["-n", "--namespace", "--dry-run"]) {
            return unknown_flag("set image", f);
        }
        let dry_run = match self.dry_run_flag(flags) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let (pairs, resources): (Vec<String>, Vec<String>) =
            flags.args[1..].iter().cloned().partition(|a| a.contains('='));
        if resources.is_empty() {
            return Output::error(NO_RESOURCES);
        }
        let (res, name) = match target(&resources) {
            Ok(t) => t,
            Err(o) => return o,
        };
        if pairs.is_empty() {
            return Output::error("error: at least one image update is required");
        }
        let Some(pointer) = pod_spec_pointer(res.kind) else {
            return Output::error(format!(
                "podlab: kubectl set image works on objects with a Pod template; {} has none",
                kind_string(res)
            ));
        };
        let ns = self.namespace_of(flags);
        let live = match self.get_live(res, &ns, &name) {
            Ok(o) => o,
            Err(o) => return o,
        };
        let spec = live.to_json().pointer(pointer).cloned().unwrap_or(Value::Null);
        let mut errors = Vec::new();
        let mut patch_spec = Map::new();
        let mut changed: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
        for pair in &pairs {
            let (container, image) = pair.split_once('=').unwrap_or((pair, ""));
            let mut found = false;
            for list in ["initContainers", "containers"] {
                for c in spec.get(list).and_then(Value::as_array).into_iter().flatten() {
                    let cname = c["name"].as_str().unwrap_or("");
                    if container == "*" || cname == container {
                        found = true;
                        if c["image"].as_str() != Some(image) {
                            changed.entry(list).or_default().push(json!({"image": image, "name": cname}));
                        }
                    }
                }
            }
            if !found {
                errors.push(format!("error: unable to find container named \"{container}\""));
            }
        }
        for (list, elems) in changed {
            let order: Vec<Value> =
                spec[list].as_array().into_iter().flatten().map(|c| json!({"name": c["name"].clone()})).collect();
            patch_spec.insert(format!("$setElementOrder/{list}"), Value::Array(order));
            patch_spec.insert(list.to_string(), Value::Array(elems));
        }
        let mut out = Output::default();
        let line = format!("{}/{name} image updated{}\n", kind_string(res), dry_run.suffix());
        if !patch_spec.is_empty() && dry_run == DryRun::Client {
            out.stdout = line;
        } else if !patch_spec.is_empty() {
            if dry_run == DryRun::Server {
                self.server_dry_run();
            }
            match self.send_patch(res, &ns, &name, nest(pointer, Value::Object(patch_spec))) {
                Ok(_) => out.stdout = line,
                Err(status) => errors.push(format!(
                    "failed to patch image update to pod template: {}",
                    kubectl_stderr(&[CommandError::Server(*status)]).trim_end()
                )),
            }
        }
        if !errors.is_empty() {
            out.stderr += &if errors.len() == 1 {
                format!("{}\n", errors[0])
            } else {
                format!("error: [{}]\n", errors.join(", "))
            };
            out.exit = 1;
        }
        out
    }

    /// `kubectl rollout SUBCOMMAND TYPE/NAME` for Deployments.
    pub(super) fn rollout(&mut self, flags: &Flags) -> Output {
        let Some(sub) = flags.args.first().map(String::as_str) else {
            return Output::error(
                "podlab: kubectl rollout needs a subcommand: history, pause, restart, resume, status or undo",
            );
        };
        let known: &[&str] = match sub {
            "status" => &["-n", "--namespace", "--timeout", "-w", "--watch"],
            "history" => &["-n", "--namespace", "--revision"],
            "undo" => &["-n", "--namespace", "--to-revision"],
            "restart" | "pause" | "resume" => &["-n", "--namespace"],
            other => {
                return Output::error(format!(
                    "error: unknown command \"{other}\"\nSee 'kubectl rollout -h' for help and examples"
                ))
            }
        };
        if let Some(f) = flags.unknown(known) {
            return unknown_flag(&format!("rollout {sub}"), f);
        }
        for flag in ["--revision", "--to-revision"] {
            if let Some(v) = flags.value(&[flag]) {
                if v.parse::<i64>().is_err() {
                    return Output::error(format!(
                        "Error: invalid argument \"{v}\" for \"{flag}\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax\nSee 'kubectl rollout {sub} --help' for usage."
                    ));
                }
            }
        }
        if flags.args.len() < 2 {
            return Output::error("error: required resource not specified");
        }
        let (res, name) = match target(&flags.args[1..]) {
            Ok(t) => t,
            Err(o) => return o,
        };
        let ns = self.namespace_of(flags);
        let live = match self.get_live(res, &ns, &name) {
            Ok(o) => o,
            Err(o) => return o,
        };
        if !["Deployment", "StatefulSet", "DaemonSet"].contains(&res.kind) {
            // kubectl's polymorphic helpers know these three kinds only (`GroupKind.String()`:
            // `Pod`, `ReplicaSet.apps`).
            let group_kind =
                if res.group.is_empty() { res.kind.to_string() } else { format!("{}.{}", res.kind, res.group) };
            let resource_string =
                if res.group.is_empty() { res.plural.to_string() } else { format!("{}.{}", res.plural, res.group) };
            return Output::error(match sub {
                "status" => format!("error: no status viewer has been implemented for {group_kind}"),
                "history" => format!("error: no history viewer has been implemented for \"{group_kind}\""),
                "undo" => format!("error: no rollbacker has been implemented for \"{group_kind}\""),
                "restart" => format!("error: {resource_string} \"{name}\" restarting is not supported"),
                "pause" => format!("error: {resource_string} \"{name}\" pausing is not supported"),
                _ => format!("error: {resource_string} \"{name}\" resuming is not supported"),
            });
        }
        if res.kind != "Deployment" {
            return self.rollout_revisions(sub, res, &ns, &name, &live, flags);
        }
        let d = live.to_json();
        let paused = d.pointer("/spec/paused").and_then(Value::as_bool).unwrap_or(false);
        let resource_string = format!("{}.{}", res.plural, res.group);
        let done = |text: String| Output { stdout: text, ..Output::default() };
        match sub {
            "status" => self.rollout_status(res, &ns, &name, flags),
            "history" => {
                let revision = flags.value(&["--revision"]).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
                let rss = match self.owned_replicasets(&ns, &live) {
                    Ok(r) => r,
                    Err(o) => return o,
                };
                let mut history: BTreeMap<i64, PodTemplateSpec> = BTreeMap::new();
                for rs in &rss {
                    let Some(v) = revision_of(rs) else { continue };
                    let rsj = rs.to_json();
                    let mut t: PodTemplateSpec =
                        serde_json::from_value(rsj.pointer("/spec/template").cloned().unwrap_or(json!({})))
                            .unwrap_or_default();
                    let cause = rs.meta().annotations.as_ref().and_then(|a| a.get(CHANGE_CAUSE)).cloned();
                    let meta = t.metadata.get_or_insert_with(Default::default);
                    let ann = meta.annotations.get_or_insert_with(Default::default);
                    if let Some(c) = cause.filter(|c| !c.is_empty()) {
                        ann.insert(CHANGE_CAUSE.into(), c);
                    }
                    history.insert(v, t);
                }
                let body = if history.is_empty() {
                    "No rollout history found.".to_string()
                } else if revision > 0 {
                    let Some(t) = history.get(&revision) else {
                        return Output::error("error: unable to find the specified revision");
                    };
                    crate::views::describe_template(Some(t))
                } else {
                    let mut w = crate::views::TabWriter::new(0, 2, false);
                    w.write("REVISION\tCHANGE-CAUSE\n");
                    for (v, t) in &history {
                        let cause = t
                            .metadata
                            .as_ref()
                            .and_then(|m| m.annotations.as_ref())
                            .and_then(|a| a.get(CHANGE_CAUSE))
                            .filter(|c| !c.is_empty())
                            .map(String::as_str)
                            .unwrap_or("<none>");
                        w.write(&format!("{v}\t{cause}\n"));
                    }
                    w.finish()
                };
                let with = if revision > 0 { format!("with revision #{revision}") } else { String::new() };
                done(format!("{}/{name} {with}\n{body}\n", kind_string(res)))
            }
            "undo" => {
                if paused {
                    return Output::error("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again");
                }
                let to = flags.value(&["--to-revision"]).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
                let rss = match self.owned_replicasets(&ns, &live) {
                    Ok(r) => r,
                    Err(o) => return o,
                };
                // deploymentRevision: the one asked for, or the newest but one.
                let mut found: Option<&Object> = None;
                let mut latest: Revisioned = (-1, None);
                let mut previous: Revisioned = (-1, None);
                for rs in &rss {
                    let Some(v) = revision_of(rs) else { continue };
                    if to == 0 {
                        if latest.0 < v {
                            previous = latest;
                            latest = (v, Some(rs));
                        } else if previous.0 < v {
                            previous = (v, Some(rs));
                        }
                    } else if to == v {
                        found = Some(rs);
                        break;
                    }
                }
                let rs = match (to, found, previous.1) {
                    (0, _, Some(rs)) => rs,
                    (0, _, None) => {
                        return Output::error(format!("error: no rollout history found for deployment \"{name}\""))
                    }
                    (_, Some(rs), _) => rs,
                    (n, None, _) => {
                        return Output::error(format!("error: unable to find specified revision {n} in history"))
                    }
                };
                let rsj = rs.to_json();
                let mut template = rsj.pointer("/spec/template").cloned().unwrap_or(json!({}));
                let rs_t: PodTemplateSpec = serde_json::from_value(template.clone()).unwrap_or_default();
                let d_t: PodTemplateSpec =
                    serde_json::from_value(d.pointer("/spec/template").cloned().unwrap_or(json!({})))
                        .unwrap_or_default();
                if equal_ignore_hash(&rs_t, &d_t) {
                    return done(format!(
                        "{}/{name} skipped rollback (current template already matches revision {to})\n",
                        kind_string(res)
                    ));
                }
                if let Some(l) = template.pointer_mut("/metadata/labels").and_then(Value::as_object_mut) {
                    l.remove("pod-template-hash");
                }
                let skip = crate::controllers::deployment::SKIP_COPY_ANNOTATIONS;
                let mut annotations = Map::new();
                let d_ann = d.pointer("/metadata/annotations").and_then(Value::as_object).cloned().unwrap_or_default();
                for k in skip {
                    if let Some(v) = d_ann.get(k) {
                        annotations.insert(k.to_string(), v.clone());
                    }
                }
                for (k, v) in rsj.pointer("/metadata/annotations").and_then(Value::as_object).into_iter().flatten() {
                    if !skip.contains(&k.as_str()) {
                        annotations.insert(k.clone(), v.clone());
                    }
                }
                let patch = json!([
                    {"op": "replace", "path": "/spec/template", "value": template},
                    {"op": "replace", "path": "/metadata/annotations", "value": annotations},
                ]);
                let revision = revision_of(rs).unwrap_or(to);
                match self.send_patch(res, &ns, &name, patch) {
                    Ok(_) => done(format!("{}/{name} rolled back\n", kind_string(res))),
                    Err(status) => {
                        Output::error(format!("error: failed restoring revision {revision}: {}", status.message))
                    }
                }
            }
            "restart" => {
                if paused {
                    return Output::error(format!(
                        "error: {resource_string} \"{name}\" can't restart paused deployment (run rollout resume first)"
                    ));
                }
                let now = serde_json::to_value(apiserver::timestamp(self.world.now)).unwrap_or(Value::Null);
                if d.pointer("/spec/template/metadata/annotations").and_then(|a| a.get(RESTARTED_AT)) == Some(&now) {
                    return Output::error(format!("error: failed to create patch for {name}: if restart has already been triggered within the past second, please wait before attempting to trigger another"));
                }
                let patch = json!({"spec": {"template": {"metadata": {"annotations": {RESTARTED_AT: now}}}}});
                match self.send_patch(res, &ns, &name, patch) {
                    Ok(_) => done(format!("{}/{name} restarted\n", kind_string(res))),
                    Err(status) => server_error(*status),
                }
            }
            _ => {
                let pause = sub == "pause";
                if pause == paused {
                    let why = if pause { "is already paused" } else { "is not paused" };
                    return Output::error(format!("error: {resource_string} \"{name}\" {why}"));
                }
                let patch = json!({"spec": {"paused": if pause { json!(true) } else { Value::Null }}});
                match self.send_patch(res, &ns, &name, patch) {
                    Ok(_) => {
                        done(format!("{}/{name} {}\n", kind_string(res), if pause { "paused" } else { "resumed" }))
                    }
                    Err(status) => server_error(*status),
                }
            }
        }
    }

    /// The ReplicaSets a Deployment controls (a traced LIST of the namespace's ReplicaSets,
    /// kept when their controller reference names the Deployment's UID).
    fn owned_replicasets(&mut self, ns: &str, d: &Object) -> Result<Vec<Object>, Output> {
        let rs_res = resource_for_kind("ReplicaSet").expect("ReplicaSet is a known kind");
        let uid = d.meta().uid.clone().unwrap_or_default();
        Ok(self
            .list_live(rs_res, ns)?
            .into_iter()
            .filter(|rs| {
                rs.meta().owner_references.iter().flatten().any(|r| r.controller == Some(true) && r.uid == uid)
            })
            .collect())
    }

    /// `kubectl rollout status deployment/NAME`: one line each time the Deployment changes
    /// (kubectl watches it), until the rollout is complete; cluster time passes meanwhile.
    fn rollout_status(&mut self, res: &'static ResourceInfo, ns: &str, name: &str, flags: &Flags) -> Output {
        let key = res.etcd_key(Some(ns), name);
        let timeout = flags.value(&["--timeout"]).and_then(parse_duration_ms).filter(|t| *t > 0);
        let deadline = self.world.now + timeout.unwrap_or(DELETE_POLL_LIMIT_MS);
        let watch = flags.value(&["-w", "--watch"]).is_none_or(|v| v != "false");
        let mut out = Output::default();
        loop {
            let Some((obj, rev)) = self.world.store.get(&key).map(|(o, r)| (o.clone(), r)) else {
                out.stderr = "error: object has been deleted\n".into();
                out.exit = 1;
                return out;
            };
            let status = match res.kind {
                "StatefulSet" => statefulset_rollout_status(&obj.to_json()),
                "DaemonSet" => daemonset_rollout_status(&obj.to_json()),
                _ => deployment_rollout_status(&obj.to_json()),
            };
            match status {
                Err(e) => {
                    out.stderr = format!("error: {e}\n");
                    out.exit = 1;
                    return out;
                }
                Ok((line, finished)) => {
                    out.stdout += &line;
                    if finished || !watch {
                        return out;
                    }
                }
            }
            if self.world.now >= deadline.min(self.limit_ms) {
                out.stderr = "error: timed out waiting for the condition\n".into();
                out.exit = 1;
                return out;
            }
            self.advance(None, deadline, |w| w.store.get(&key).map(|(_, r)| r) != Some(rev));
            if self.world.store.get(&key).map(|(_, r)| r) == Some(rev) {
                out.stderr = "error: timed out waiting for the condition\n".into();
                out.exit = 1;
                return out;
            }
        }
    }

    /// `kubectl describe TYPE[,TYPE...] [NAME...] | TYPE/NAME... | all [-l SELECTOR] [-A]`:
    /// the objects through the resource builder (`session/builder.rs`: a LIST of each type, or
    /// a GET of each name), then each one's describer text, two blank lines apart. Since
    /// v1.36 kubectl leaves the events out when it describes more than one object or a read
    /// failed, unless `--show-events` is given. `describe TYPE NAME` whose one GET is not
    /// found lists TYPE and describes every object whose name starts with NAME
    /// (`DescribeMatchingResources`).
    pub(super) fn describe(&mut self, flags: &Flags) -> Output {
        if let Some(f) =
            flags.unknown(&["-n", "--namespace", "-l", "--selector", "-A", "--all-namespaces", "--show-events"])
        {
            return unknown_flag("describe", f);
        }
        if flags.args.is_empty() {
            return Output::error("error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.");
        }
        let show_events_flag = match flags.flags.iter().rev().find(|(n, _)| n == "--show-events") {
            None => None,
            Some((_, None)) => Some(true),
            Some((_, Some(v))) => match v.as_str() {
                "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
                "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
                other => {
                    return Output::error(format!(
                        "Error: invalid argument \"{other}\" for \"--show-events\" flag: strconv.ParseBool: parsing \"{other}\": invalid syntax\nSee 'kubectl describe --help' for usage."
                    ))
                }
            },
        };
        let all = flags.has(&["-A", "--all-namespaces"]);
        let ns = self.namespace_of(flags);
        let selector = flags.value(&["-l", "--selector"]);
        let wanted = match selector.map(parse_selector).transpose() {
            Ok(w) => w.unwrap_or_default(),
            Err(e) => return Output::error(format!("error: {e}")),
        };
        let opts = builder::BuildOptions {
            allow_empty_selector: true,
            selector: selector.is_some(),
            all_namespaces: all,
            ..Default::default()
        };
        let selection = match builder::select(&flags.args, opts) {
            Ok(s) => s,
            Err(e) => return Output::error(e),
        };
        let (infos, errors) = self.visit(&selection, &ns, all, &wanted, true);
        let found: Vec<(&'static ResourceInfo, String, String)> = builder::flatten(&infos)
            .into_iter()
            .map(|(r, o)| (r, o.namespace().unwrap_or(&ns).to_string(), o.name().to_string()))
            .collect();
        if let [CommandError::Server(status)] = errors.as_slice() {
            if status.reason == crate::errors::StatusReason::NotFound && flags.args.len() == 2 {
                return self.describe_matching(&flags.args[0], &flags.args[1], status.clone(), &ns, show_events_flag);
            }
        }
        let show_events = show_events_flag.unwrap_or(errors.is_empty() && found.len() <= 1);
        let texts = self.describe_texts(&found, show_events);
        let mut out = Output { stdout: texts.join("\n\n"), ..Output::default() };
        if found.is_empty() && errors.is_empty() {
            out.stderr = crate::views::no_resources(!all, &ns);
        }
        out.stderr += &self.quota_notes(&found);
        if !errors.is_empty() {
            out.stderr = format!("{}{}", kubectl_stderr(&errors), out.stderr);
            out.exit = 1;
        }
        if found.iter().any(|(r, _, _)| r.kind == "Endpoints") {
            // The API server's warning on every request for v1 Endpoints, printed by kubectl
            // once, as the first answer arrives.
            out.stderr.insert_str(
                0,
                "Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n",
            );
        }
        out
    }

    /// `DescribeMatchingResources`: `describe TYPE NAME` of an object that is not found lists
    /// TYPE (one type only) and describes each object whose name starts with NAME, without
    /// events; none is the NotFound error.
    fn describe_matching(
        &mut self,
        type_: &str,
        prefix: &str,
        not_found: crate::errors::Status,
        ns: &str,
        show_events: Option<bool>,
    ) -> Output {
        let opts = builder::BuildOptions { allow_empty_selector: true, single_type: true, ..Default::default() };
        let selection = match builder::select(&[type_.to_string()], opts) {
            Ok(s) => s,
            Err(e) => return Output::error(e),
        };
        let (infos, errors) = self.visit(&selection, ns, false, &[], false);
        if !errors.is_empty() {
            return Output::error(kubectl_stderr(&errors));
        }
        let found: Vec<(&'static ResourceInfo, String, String)> = builder::flatten(&infos)
            .into_iter()
            .filter(|(_, o)| o.name().starts_with(prefix))
            .map(|(r, o)| (r, ns.to_string(), o.name().to_string()))
            .collect();
        if found.is_empty() {
            return server_error(not_found);
        }
        let texts = self.describe_texts(&found, show_events.unwrap_or(false));
        let mut out = Output::default();
        for t in texts {
            out.stdout += &format!("{t}\n");
        }
        out.stderr += &self.quota_notes(&found);
        out
    }

    /// Each object's describer text (without its `Events:` section unless `show_events`), and
    /// the lab's note, once per kind, for the kinds it has no describer for.
    fn describe_texts(&self, found: &[(&'static ResourceInfo, String, String)], show_events: bool) -> Vec<String> {
        let snap = Snapshot::new(&self.world.store, self.world.store.revision(), self.world.now);
        let mut texts = Vec::new();
        for (res, ns, n) in found {
            let text = match res.kind {
                "Pod" => snap.describe_pod(ns, n),
                "Deployment" => snap.describe_deployment(ns, n),
                "ReplicaSet" => snap.describe_replicaset(ns, n),
                "Service" => snap.describe_service(ns, n),
                "StatefulSet" => snap.describe_statefulset(ns, n),
                "DaemonSet" => snap.describe_daemonset(ns, n),
                "CronJob" => snap.describe_cronjob(ns, n),
                "Job" => snap.describe_job(ns, n),
                "PersistentVolumeClaim" => snap.describe_pvc(ns, n),
                "PersistentVolume" => snap.describe_pv(n),
                "PodDisruptionBudget" => snap.describe_pdb(ns, n),
                "ConfigMap" => snap.describe_configmap(ns, n),
                "Secret" => snap.describe_secret(ns, n),
                "Namespace" => snap.describe_namespace(n),
                "ServiceAccount" => snap.describe_serviceaccount(ns, n),
                "LimitRange" => snap.describe_limitrange(ns, n),
                "ResourceQuota" => snap.describe_resourcequota(ns, n),
                kind @ ("Role" | "ClusterRole") => snap.describe_role(kind, ns, n),
                kind @ ("RoleBinding" | "ClusterRoleBinding") => snap.describe_binding(kind, ns, n),
                "Node" => snap.describe_node(n),
                // Every other kind: its own describer or kubectl's generic one (views/describers.rs).
                kind => snap.describe_kind(kind, ns, n),
            };
            texts.extend(text.map(|t| if show_events { t } else { without_events(t) }));
        }
        texts
    }

    /// The ResourceQuotas among `found` (or in the Namespaces among it) shown without a
    /// status: no resource quota controller fills it in the lab.
    fn quota_notes(&self, found: &[(&'static ResourceInfo, String, String)]) -> String {
        let snap = Snapshot::new(&self.world.store, self.world.store.revision(), self.world.now);
        let mut quotas: Vec<(String, String)> = Vec::new();
        for (res, ns, n) in found {
            match res.kind {
                "ResourceQuota" => quotas.push((ns.clone(), n.clone())),
                "Namespace" => quotas
                    .extend(snap.list("ResourceQuota", Some(n)).into_iter().map(|q| (n.clone(), q.name().to_string()))),
                _ => {}
            }
        }
        let mut text = String::new();
        for (qns, qname) in quotas {
            let Some(Object::ResourceQuota(q)) = snap.get("ResourceQuota", Some(&qns), &qname) else { continue };
            if q.status.as_ref().and_then(|s| s.hard.as_ref()).is_none_or(|h| h.is_empty()) {
                text += &format!("podlab: ResourceQuota {qns}/{qname} has no status yet, so its table is empty: the lab does not model the resource quota controller, which on a real cluster copies spec.hard into status.hard and counts status.used within seconds; the lab's quota admission fills both in when it first charges an object to the quota\n");
            }
        }
        text
    }

    /// `kubectl cordon|uncordon NODE...`: a merge patch of `spec.unschedulable`.
    pub(super) fn cordon(&mut self, flags: &Flags, cordon: bool) -> Output {
        let cmd = if cordon { "cordon" } else { "uncordon" };
        if let Some(f) = flags.unknown(&[]) {
            return unknown_flag(cmd, f);
        }
        if flags.args.is_empty() {
            return Output::error(format!(
                "error: USAGE: {cmd} NODE [flags]\nSee 'kubectl {cmd} -h' for help and examples"
            ));
        }
        let res = resource_for_kind("Node").expect("Node is a known kind");
        let mut out = Output::default();
        let mut errors = Vec::new();
        for name in flags.args.clone() {
            let node = match self.get_live(res, "", &name) {
                Ok(o) => o,
                Err(o) => {
                    out.stderr += &o.stderr;
                    out.exit = 1;
                    continue;
                }
            };
            let unschedulable = node.to_json().pointer("/spec/unschedulable").and_then(Value::as_bool).unwrap_or(false);
            let word = if cordon { "cordoned" } else { "uncordoned" };
            if unschedulable == cordon {
                out.stdout += &format!("node/{name} already {word}\n");
                continue;
            }
            let patch = json!({"spec": {"unschedulable": if cordon { json!(true) } else { Value::Null }}});
            match self.send_patch(res, "", &name, patch) {
                Ok(_) => out.stdout += &format!("node/{name} {word}\n"),
                Err(status) => errors.push(CommandError::Server(*status)),
            }
        }
        if !errors.is_empty() {
            out.stderr += &kubectl_stderr(&errors);
            out.exit = 1;
        }
        out
    }

    /// `kubectl taint nodes NODE key[=value]:Effect... key[:Effect]-... [--overwrite]`: the
    /// node's whole `spec.taints` list in a patch.
    pub(super) fn taint(&mut self, flags: &Flags) -> Output {
        if let Some(f) = flags.unknown(&["--overwrite"]) {
            return unknown_flag("taint", f);
        }
        let (pairs, resources): (Vec<String>, Vec<String>) = flags
            .args
            .iter()
            .cloned()
            .partition(|a| a.contains('=') || a.contains(':') || (a.len() > 1 && a.ends_with('-')));
        if pairs.is_empty() {
            return Output::error("error: at least one taint update is required");
        }
        let usage = "See 'kubectl taint -h' for help and examples";
        let mut add: Vec<(String, String, String)> = Vec::new();
        let mut remove: Vec<(String, String)> = Vec::new();
        for p in &pairs {
            if let Some(spec) = p.strip_suffix('-') {
                let (kv, effect) = spec.split_once(':').unwrap_or((spec, ""));
                if !effect.is_empty() && !TAINT_EFFECTS.contains(&effect) {
                    return Output::error(format!(
                        "error: invalid taint effect: {effect}, unsupported taint effect\n{usage}"
                    ));
                }
                remove.push((kv.split('=').next().unwrap_or("").to_string(), effect.to_string()));
                continue;
            }
            let Some((kv, effect)) = p.split_once(':') else {
                return Output::error(format!(
                    "error: invalid taint spec: {p}, name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n{usage}"
                ));
            };
            if !TAINT_EFFECTS.contains(&effect) {
                return Output::error(format!(
                    "error: invalid taint effect: {effect}, unsupported taint effect\n{usage}"
                ));
            }
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            add.push((k.to_string(), v.to_string(), effect.to_string()));
        }
        let name =
            match resources.as_slice() {
                [t, n] if resource_named(t).is_some_and(|r| r.kind == "Node") => n.clone(),
                [t] if t.split_once('/').is_some_and(|(t, _)| resource_named(t).is_some_and(|r| r.kind == "Node")) => {
                    t.split_once('/').map(|(_, n)| n.to_string()).unwrap_or_default()
                }
                [t, ..] if resource_named(t.split('/').next().unwrap_or("")).is_none() => {
                    return no_type(t.split('/').next().unwrap_or(""))
                }
                [] => return Output::error(NO_RESOURCES),
                _ => return Output::error(
                    "podlab: the lab's session taints one node at a time: kubectl taint nodes NODE key=value:Effect",
                ),
            };
        let overwrite = flags.has(&["--overwrite"]) && flags.value(&["--overwrite"]) != Some("false");
        let res = resource_for_kind("Node").expect("Node is a known kind");
        let node = match self.get_live(res, "", &name) {
            Ok(o) => o,
            Err(o) => return o,
        };
        let old: Vec<Value> =
            node.to_json().pointer("/spec/taints").and_then(Value::as_array).cloned().unwrap_or_default();
        let field = |t: &Value, f: &str| t.get(f).and_then(Value::as_str).unwrap_or("").to_string();
        if !overwrite {
            let clash: Vec<String> = add
                .iter()
                .filter(|(k, _, e)| old.iter().any(|t| field(t, "key") == *k && field(t, "effect") == *e))
                .map(|(k, _, _)| k.clone())
                .collect();
            if !clash.is_empty() {
                return Output::error(format!(
                    "error: node {name} already has {} taint(s) with same effect(s) and --overwrite is false",
                    clash.join(",")
                ));
            }
        }
        // reorganizeTaints: the new taints first, then the old ones they do not replace,
        // less the removed ones.
        let mut taints: Vec<Value> = add
            .iter()
            .map(|(k, v, e)| {
                let mut t = Map::new();
                t.insert("effect".into(), json!(e));
                t.insert("key".into(), json!(k));
                if !v.is_empty() {
                    t.insert("value".into(), json!(v));
                }
                Value::Object(t)
            })
            .collect();
        for t in &old {
            if !add.iter().any(|(k, _, e)| field(t, "key") == *k && field(t, "effect") == *e) {
                taints.push(t.clone());
            }
        }
        let mut errors = Vec::new();
        for (k, e) in &remove {
            let before = taints.len();
            taints.retain(|t| !(field(t, "key") == *k && (e.is_empty() || field(t, "effect") == *e)));
            if taints.len() == before {
                errors.push(format!("taint \"{}\" not found", taint_string(k, "", e)));
            }
        }
        if !errors.is_empty() {
            return Output::error(if errors.len() == 1 {
                format!("error: {}", errors[0])
            } else {
                format!("error: [{}]", errors.join(", "))
            });
        }
        let word = if overwrite || (!add.is_empty() && !remove.is_empty()) {
            "modified"
        } else if !add.is_empty() {
            "tainted"
        } else {
            "untainted"
        };
        let patch = json!({"spec": {"taints": if taints.is_empty() { Value::Null } else { Value::Array(taints) }}});
        match self.send_patch(res, "", &name, patch) {
            Ok(_) => Output { stdout: format!("node/{name} {word}\n"), ..Output::default() },
            Err(status) => server_error(*status),
        }
    }

    /// `kubectl create -f FILE` / `kubectl replace -f FILE`: kubectl apply's client, POSTing
    /// (or PUTting) each document as it is; `--dry-run` and `-o name|yaml|json` as
    /// `session/dry_run.rs` reads them.
    pub(super) fn create_or_replace(&mut self, flags: &Flags, command: &SessionCommand, replace: bool) -> Output {
        let cmd = if replace { "replace" } else { "create" };
        if let Some(sub) = flags.args.first() {
            return Output::error(format!(
                "podlab: kubectl {cmd} {sub} is not modelled by the lab's session yet; it knows kubectl {cmd} -f FILE"
            ));
        }
        if let Some(f) = flags.unknown(&["-f", "--filename", "-n", "--namespace", "--dry-run", "-o", "--output"]) {
            return unknown_flag(cmd, f);
        }
        let file = match self.file_flags(flags) {
            Ok(f) => f,
            Err(e) => return e,
        };
        let Some((file_name, manifest)) = command.file.clone() else {
            return Output::error("error: must specify one of -f and -k");
        };
        if file.dry_run == DryRun::Server {
            self.server_dry_run();
        }
        let verb = if replace { FileVerb::Replace } else { FileVerb::Create };
        let mut caller = self.caller.clone();
        caller.command = self.command.clone();
        let mut kubectl =
            KubectlApply::new(ApplyOptions { file: file_name, manifest, caller, namespace: self.namespace_of(flags) })
                .with_verb(verb)
                .with_dry_run(file.dry_run)
                .with_printing(file.printing);
        kubectl.start(&mut self.world);
        let limit = self.limit_ms;
        self.advance(Some(&mut kubectl), limit, |w| !has_task_for(w, &Target::Kubectl));
        let (mut stdout, stderr, _, exit) = kubectl.finish();
        if let Some(format) = file.format {
            stdout += &print_file_objects(&kubectl.printed, format, verb);
        }
        Output { stdout, stderr, exit }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_script, Session};
    use crate::lab::Loaded;
    use expect_test::expect;

    const DB: &str = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\nspec:\n  serviceName: db\n  replicas: 2\n  selector:\n    matchLabels:\n      app: db\n  template:\n    metadata:\n      labels:\n        app: db\n    spec:\n      containers:\n      - name: redis\n        image: redis:8\n";
    const AGENT: &str = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector:\n    matchLabels:\n      app: agent\n  template:\n    metadata:\n      labels:\n        app: agent\n    spec:\n      containers:\n      - name: agent\n        image: busybox:1.37\n        command: [sleep, infinity]\n";
    const JOB: &str = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: pi\nspec:\n  completions: 2\n  backoffLimit: 3\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: pi\n        image: busybox:1.37\n        command: [sh, -c, \"echo 3.14\"]\n";

    fn transcript(script: &str) -> String {
        let loaded = Loaded::load(None).unwrap();
        let mut session = Session::new(&loaded, 1, None, None, crate::lab::DEFAULT_LIMIT_MS * 2).unwrap();
        let mut out = String::new();
        for c in parse_script(script, &|_| None).unwrap() {
            let r = session.run(&c).clone();
            out += &format!(
                "[{}ms-{}ms] $ {}\n{}{}(exit status {})\n",
                r.start_ms, r.end_ms, r.line, r.stdout, r.stderr, r.exit_code
            );
        }
        out
    }

    /// A StatefulSet rolled out, its history from ControllerRevisions, undone to the first
    /// revision, restarted; pause and resume refused as kubectl refuses them.
    #[test]
    fn statefulset_rollouts() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DB}EOF\nkubectl rollout status statefulset/db\nkubectl rollout history statefulset/db\nkubectl rollout undo statefulset/db\nkubectl set image statefulset/db redis=redis:8.2\nkubectl rollout status sts/db --timeout=5m\nkubectl rollout history statefulset/db\nkubectl rollout history statefulset/db --revision=1\nkubectl rollout undo statefulset/db --to-revision=7\nkubectl rollout undo statefulset/db\nkubectl rollout status statefulset/db\nkubectl rollout history statefulset/db\nkubectl rollout undo statefulset/db --to-revision=3\nkubectl rollout pause statefulset/db\nkubectl rollout resume statefulset/db\nkubectl rollout restart statefulset/db\nkubectl rollout status pod/db-0\nkubectl rollout undo pod/db-0\nkubectl rollout restart pod/db-0\nkubectl rollout history replicaset/nope\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            statefulset.apps/db created
            (exit status 0)
            [4ms-6002ms] $ kubectl rollout status statefulset/db
            Waiting for statefulset spec update to be observed...
            Waiting for 2 pods to be ready...
            Waiting for 2 pods to be ready...
            Waiting for 1 pods to be ready...
            Waiting for 1 pods to be ready...
            partitioned roll out complete: 2 new pods have been updated...
            (exit status 0)
            [6002ms-6002ms] $ kubectl rollout history statefulset/db
            statefulset.apps/db 
            REVISION  CHANGE-CAUSE
            1         <none>

            (exit status 0)
            [6002ms-6002ms] $ kubectl rollout undo statefulset/db
            error: no last revision to roll back to
            (exit status 1)
            [6002ms-6002ms] $ kubectl set image statefulset/db redis=redis:8.2
            statefulset.apps/db image updated
            (exit status 0)
            [6002ms-12002ms] $ kubectl rollout status sts/db --timeout=5m
            Waiting for statefulset spec update to be observed...
            Waiting for partitioned roll out to finish: 0 out of 2 new pods have been updated...
            Waiting for partitioned roll out to finish: 0 out of 2 new pods have been updated...
            Waiting for 1 pods to be ready...
            Waiting for 1 pods to be ready...
            Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...
            Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...
            Waiting for 1 pods to be ready...
            Waiting for 1 pods to be ready...
            partitioned roll out complete: 2 new pods have been updated...
            (exit status 0)
            [12002ms-12002ms] $ kubectl rollout history statefulset/db
            statefulset.apps/db 
            REVISION  CHANGE-CAUSE
            1         <none>
            2         <none>

            (exit status 0)
            [12002ms-12002ms] $ kubectl rollout history statefulset/db --revision=1
            statefulset.apps/db with revision #1
            Pod Template:
              Labels:  app=db
              Containers:
               redis:
                Image:         redis:8
                Port:          <none>
                Host Port:     <none>
                Environment:   <none>
                Mounts:        <none>
              Volumes:         <none>
              Node-Selectors:  <none>
              Tolerations:     <none>

            (exit status 0)
            [12002ms-12002ms] $ kubectl rollout undo statefulset/db --to-revision=7
            error: unable to find specified revision 7 in history
            (exit status 1)
            [12002ms-12002ms] $ kubectl rollout undo statefulset/db
            statefulset.apps/db rolled back
            (exit status 0)
            [12002ms-14002ms] $ kubectl rollout status statefulset/db
            Waiting for statefulset spec update to be observed...
            Waiting for partitioned roll out to finish: 0 out of 2 new pods have been updated...
            Waiting for partitioned roll out to finish: 0 out of 2 new pods have been updated...
            Waiting for 1 pods to be ready...
            Waiting for 1 pods to be ready...
            Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...
            Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...
            Waiting for 1 pods to be ready...
            Waiting for 1 pods to be ready...
            partitioned roll out complete: 2 new pods have been updated...
            (exit status 0)
            [14002ms-14002ms] $ kubectl rollout history statefulset/db
            statefulset.apps/db 
            REVISION  CHANGE-CAUSE
            2         <none>
            3         <none>

            (exit status 0)
            [14002ms-14002ms] $ kubectl rollout undo statefulset/db --to-revision=3
            statefulset.apps/db skipped rollback (current template already matches revision 3)
            (exit status 0)
            [14002ms-14002ms] $ kubectl rollout pause statefulset/db
            error: statefulsets.apps "db" pausing is not supported
            (exit status 1)
            [14002ms-14002ms] $ kubectl rollout resume statefulset/db
            error: statefulsets.apps "db" resuming is not supported
            (exit status 1)
            [14002ms-14002ms] $ kubectl rollout restart statefulset/db
            statefulset.apps/db restarted
            (exit status 0)
            [14002ms-14002ms] $ kubectl rollout status pod/db-0
            error: no status viewer has been implemented for Pod
            (exit status 1)
            [14002ms-14002ms] $ kubectl rollout undo pod/db-0
            error: no rollbacker has been implemented for "Pod"
            (exit status 1)
            [14002ms-14002ms] $ kubectl rollout restart pod/db-0
            error: pods "db-0" restarting is not supported
            (exit status 1)
            [14002ms-14002ms] $ kubectl rollout history replicaset/nope
            Error from server (NotFound): replicasets.apps "nope" not found
            (exit status 1)
        "#]]
        .assert_eq(&transcript(&script));
    }

    #[test]
    fn daemonset_rollouts() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{AGENT}EOF\nkubectl rollout status ds/agent\nkubectl set image daemonset/agent agent=busybox:1.36\nkubectl rollout status daemonset/agent\nkubectl rollout history daemonset/agent\nkubectl rollout undo daemonset/agent\nkubectl rollout status daemonset/agent\nkubectl rollout history daemonset/agent\nkubectl rollout pause daemonset/agent\nkubectl rollout restart daemonset/agent\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            daemonset.apps/agent created
            (exit status 0)
            [4ms-1002ms] $ kubectl rollout status ds/agent
            Waiting for daemon set spec update to be observed...
            Waiting for daemon set "agent" rollout to finish: 0 out of 2 new pods have been updated...
            Waiting for daemon set "agent" rollout to finish: 0 of 2 updated pods are available...
            daemon set "agent" successfully rolled out
            (exit status 0)
            [1002ms-1002ms] $ kubectl set image daemonset/agent agent=busybox:1.36
            daemonset.apps/agent image updated
            (exit status 0)
            [1002ms-63002ms] $ kubectl rollout status daemonset/agent
            Waiting for daemon set spec update to be observed...
            Waiting for daemon set "agent" rollout to finish: 0 out of 2 new pods have been updated...
            Waiting for daemon set "agent" rollout to finish: 0 out of 2 new pods have been updated...
            Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated...
            Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated...
            Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated...
            Waiting for daemon set "agent" rollout to finish: 1 of 2 updated pods are available...
            daemon set "agent" successfully rolled out
            (exit status 0)
            [63002ms-63002ms] $ kubectl rollout history daemonset/agent
            daemonset.apps/agent 
            REVISION  CHANGE-CAUSE
            1         <none>
            2         <none>

            (exit status 0)
            [63002ms-63002ms] $ kubectl rollout undo daemonset/agent
            daemonset.apps/agent rolled back
            (exit status 0)
            [63002ms-125002ms] $ kubectl rollout status daemonset/agent
            Waiting for daemon set spec update to be observed...
            Waiting for daemon set "agent" rollout to finish: 0 out of 2 new pods have been updated...
            Waiting for daemon set "agent" rollout to finish: 0 out of 2 new pods have been updated...
            Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated...
            Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated...
            Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated...
            Waiting for daemon set "agent" rollout to finish: 1 of 2 updated pods are available...
            daemon set "agent" successfully rolled out
            (exit status 0)
            [125002ms-125002ms] $ kubectl rollout history daemonset/agent
            daemonset.apps/agent 
            REVISION  CHANGE-CAUSE
            2         <none>
            3         <none>

            (exit status 0)
            [125002ms-125002ms] $ kubectl rollout pause daemonset/agent
            error: daemonsets.apps "agent" pausing is not supported
            (exit status 1)
            [125002ms-125002ms] $ kubectl rollout restart daemonset/agent
            daemonset.apps/agent restarted
            (exit status 0)
        "#]]
        .assert_eq(&transcript(&script));
    }

    const CONFIG: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\n  labels:\n    app: web\n    tier: front\ndata:\n  nginx.conf: |\n    server {\n      listen 80;\n    }\n  LOG_LEVEL: debug\nbinaryData:\n  logo.png: iVBORw0KGgo=\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: db-pass\n  annotations:\n    owner: team-a\ntype: Opaque\ndata:\n  password: czNjcjN0\nstringData:\n  username: admin\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: builder-token\n  annotations:\n    kubernetes.io/service-account.name: builder\ntype: kubernetes.io/service-account-token\ndata:\n  token: ZXlKaGJHY2lPaUpTVXpJMU5pSjkuZmFrZQ==\n  namespace: ZGVmYXVsdA==\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: builder\nimagePullSecrets:\n- name: registry-a\n- name: registry-b\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: pod-reader\nrules:\n- apiGroups: [\"\"]\n  resources: [pods, pods/log]\n  verbs: [get, list, watch]\n- apiGroups: [apps]\n  resources: [deployments]\n  resourceNames: [web]\n  verbs: [get, patch]\n- apiGroups: [\"\"]\n  resources: [pods]\n  verbs: [delete]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: read-pods\nsubjects:\n- kind: ServiceAccount\n  name: builder\n  namespace: default\n- kind: User\n  name: jane\n  apiGroup: rbac.authorization.k8s.io\nroleRef:\n  kind: Role\n  name: pod-reader\n  apiGroup: rbac.authorization.k8s.io\n---\napiVersion: v1\nkind: LimitRange\nmetadata:\n  name: limits\nspec:\n  limits:\n  - type: Container\n    default:\n      cpu: 500m\n      memory: 256Mi\n    defaultRequest:\n      cpu: 100m\n    max:\n      memory: 1Gi\n---\napiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: compute\nspec:\n  scopes: [NotBestEffort]\n  hard:\n    pods: \"10\"\n    requests.cpu: \"2\"\n    limits.memory: 2Gi\n";

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n    resources:\n      requests:\n        cpu: 250m\n      limits:\n        memory: 128Mi\n";

    /// `kubectl describe` of the configuration and RBAC kinds, a namespace with and without
    /// a LimitRange, and a name that matches nothing.
    #[test]
    fn describe_config_and_rbac_kinds() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{CONFIG}EOF\nkubectl describe configmap app-config\nkubectl describe secrets\nkubectl describe serviceaccount builder\nkubectl describe sa default\nkubectl describe role pod-reader\nkubectl describe rolebinding read-pods\nkubectl describe limitrange limits\nkubectl describe quota compute\nkubectl describe namespace default\nkubectl describe ns kube-system\nkubectl describe clusterrole view\nkubectl describe clusterrolebinding cluster-admin\nkubectl describe configmap nope\nkubectl describe ns nope\nkubectl apply -f - <<EOF\n{POD}EOF\nkubectl describe quota compute\n"
        );
        expect![[r#"
            [0ms-60ms] $ kubectl apply -f -
            configmap/app-config created
            secret/db-pass created
            secret/builder-token created
            serviceaccount/builder created
            role.rbac.authorization.k8s.io/pod-reader created
            rolebinding.rbac.authorization.k8s.io/read-pods created
            limitrange/limits created
            resourcequota/compute created
            (exit status 0)
            [60ms-60ms] $ kubectl describe configmap app-config
            Name:         app-config
            Namespace:    default
            Labels:       app=web
                          tier=front
            Annotations:  <none>

            Data
            ====
            LOG_LEVEL:
            ----
            debug

            nginx.conf:
            ----
            server {
              listen 80;
            }



            BinaryData
            ====
            logo.png: 8 bytes

            Events:  <none>
            (exit status 0)
            [60ms-60ms] $ kubectl describe secrets
            Name:         builder-token
            Namespace:    default
            Labels:       <none>
            Annotations:  kubernetes.io/service-account.name: builder

            Type:  kubernetes.io/service-account-token

            Data
            ====
            namespace:  7 bytes
            token:      eyJhbGciOiJSUzI1NiJ9.fake


            Name:         db-pass
            Namespace:    default
            Labels:       <none>
            Annotations:  owner: team-a

            Type:  Opaque

            Data
            ====
            password:  6 bytes
            username:  5 bytes
            (exit status 0)
            [60ms-60ms] $ kubectl describe serviceaccount builder
            Name:                builder
            Namespace:           default
            Labels:              <none>
            Annotations:         <none>
            Image pull secrets:  registry-a
                                 registry-b
            Events:              <none>
            (exit status 0)
            [60ms-60ms] $ kubectl describe sa default
            Name:                default
            Namespace:           default
            Labels:              <none>
            Annotations:         <none>
            Image pull secrets:  <none>
            Events:              <none>
            (exit status 0)
            [60ms-60ms] $ kubectl describe role pod-reader
            Name:         pod-reader
            Labels:       <none>
            Annotations:  <none>
            PolicyRule:
              Resources         Non-Resource URLs  Resource Names  Verbs
              ---------         -----------------  --------------  -----
              pods              []                 []              [get list watch delete]
              pods/log          []                 []              [get list watch]
              deployments.apps  []                 [web]           [get patch]
            (exit status 0)
            [60ms-60ms] $ kubectl describe rolebinding read-pods
            Name:         read-pods
            Labels:       <none>
            Annotations:  <none>
            Role:
              Kind:  Role
              Name:  pod-reader
            Subjects:
              Kind            Name     Namespace
              ----            ----     ---------
              ServiceAccount  builder  default
              User            jane     
            (exit status 0)
            [60ms-60ms] $ kubectl describe limitrange limits
            Name:       limits
            Namespace:  default
            Type        Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio
            ----        --------  ---  ---  ---------------  -------------  -----------------------
            Container   cpu       -    -    100m             500m           -
            Container   memory    -    1Gi  256Mi            256Mi          -
            (exit status 0)
            [60ms-60ms] $ kubectl describe quota compute
            Name:       compute
            Namespace:  default
            Scopes:     NotBestEffort
             * Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.
            Resource  Used  Hard
            --------  ----  ----
            podlab: ResourceQuota default/compute has no status yet, so its table is empty: the lab does not model the resource quota controller, which on a real cluster copies spec.hard into status.hard and counts status.used within seconds; the lab's quota admission fills both in when it first charges an object to the quota
            (exit status 0)
            [60ms-60ms] $ kubectl describe namespace default
            Name:         default
            Labels:       kubernetes.io/metadata.name=default
            Annotations:  <none>
            Status:       Active

            Resource Quotas
              Name:    compute
              Scopes:  NotBestEffort
              * Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.
              Resource  Used  Hard
              --------  ---   ---

            Resource Limits
             Type       Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio
             ----       --------  ---  ---  ---------------  -------------  -----------------------
             Container  cpu       -    -    100m             500m           -
             Container  memory    -    1Gi  256Mi            256Mi          -
            podlab: ResourceQuota default/compute has no status yet, so its table is empty: the lab does not model the resource quota controller, which on a real cluster copies spec.hard into status.hard and counts status.used within seconds; the lab's quota admission fills both in when it first charges an object to the quota
            (exit status 0)
            [60ms-60ms] $ kubectl describe ns kube-system
            Name:         kube-system
            Labels:       kubernetes.io/metadata.name=kube-system
            Annotations:  <none>
            Status:       Active

            No resource quota.

            No LimitRange resource.
            (exit status 0)
            [60ms-60ms] $ kubectl describe clusterrole view
            Name:         view
            Labels:       kubernetes.io/bootstrapping=rbac-defaults
                          rbac.authorization.k8s.io/aggregate-to-edit=true
            Annotations:  rbac.authorization.kubernetes.io/autoupdate: true
            PolicyRule:
              Resources                                    Non-Resource URLs  Resource Names  Verbs
              ---------                                    -----------------  --------------  -----
              bindings                                     []                 []              [get list watch]
              configmaps                                   []                 []              [get list watch]
              endpoints                                    []                 []              [get list watch]
              events                                       []                 []              [get list watch]
              limitranges                                  []                 []              [get list watch]
              namespaces/status                            []                 []              [get list watch]
              namespaces                                   []                 []              [get list watch]
              persistentvolumeclaims/status                []                 []              [get list watch]
              persistentvolumeclaims                       []                 []              [get list watch]
              pods/log                                     []                 []              [get list watch]
              pods/status                                  []                 []              [get list watch]
              pods                                         []                 []              [get list watch]
              replicationcontrollers/scale                 []                 []              [get list watch]
              replicationcontrollers/status                []                 []              [get list watch]
              replicationcontrollers                       []                 []              [get list watch]
              resourcequotas/status                        []                 []              [get list watch]
              resourcequotas                               []                 []              [get list watch]
              serviceaccounts                              []                 []              [get list watch]
              services/status                              []                 []              [get list watch]
              services                                     []                 []              [get list watch]
              controllerrevisions.apps                     []                 []              [get list watch]
              daemonsets.apps/status                       []                 []              [get list watch]
              daemonsets.apps                              []                 []              [get list watch]
              deployments.apps/scale                       []                 []              [get list watch]
              deployments.apps/status                      []                 []              [get list watch]
              deployments.apps                             []                 []              [get list watch]
              replicasets.apps/scale                       []                 []              [get list watch]
              replicasets.apps/status                      []                 []              [get list watch]
              replicasets.apps                             []                 []              [get list watch]
              statefulsets.apps/scale                      []                 []              [get list watch]
              statefulsets.apps/status                     []                 []              [get list watch]
              statefulsets.apps                            []                 []              [get list watch]
              horizontalpodautoscalers.autoscaling/status  []                 []              [get list watch]
              horizontalpodautoscalers.autoscaling         []                 []              [get list watch]
              cronjobs.batch/status                        []                 []              [get list watch]
              cronjobs.batch                               []                 []              [get list watch]
              jobs.batch/status                            []                 []              [get list watch]
              jobs.batch                                   []                 []              [get list watch]
              endpointslices.discovery.k8s.io              []                 []              [get list watch]
              daemonsets.extensions/status                 []                 []              [get list watch]
              daemonsets.extensions                        []                 []              [get list watch]
              deployments.extensions/scale                 []                 []              [get list watch]
              deployments.extensions/status                []                 []              [get list watch]
              deployments.extensions                       []                 []              [get list watch]
              ingresses.extensions/status                  []                 []              [get list watch]
              ingresses.extensions                         []                 []              [get list watch]
              networkpolicies.extensions                   []                 []              [get list watch]
              replicasets.extensions/scale                 []                 []              [get list watch]
              replicasets.extensions/status                []                 []              [get list watch]
              replicasets.extensions                       []                 []              [get list watch]
              replicationcontrollers.extensions/scale      []                 []              [get list watch]
              ingresses.networking.k8s.io/status           []                 []              [get list watch]
              ingresses.networking.k8s.io                  []                 []              [get list watch]
              networkpolicies.networking.k8s.io            []                 []              [get list watch]
              poddisruptionbudgets.policy/status           []                 []              [get list watch]
              poddisruptionbudgets.policy                  []                 []              [get list watch]
            (exit status 0)
            [60ms-60ms] $ kubectl describe clusterrolebinding cluster-admin
            Name:         cluster-admin
            Labels:       kubernetes.io/bootstrapping=rbac-defaults
            Annotations:  rbac.authorization.kubernetes.io/autoupdate: true
            Role:
              Kind:  ClusterRole
              Name:  cluster-admin
            Subjects:
              Kind   Name            Namespace
              ----   ----            ---------
              Group  system:masters  
            (exit status 0)
            [60ms-60ms] $ kubectl describe configmap nope
            Error from server (NotFound): configmaps "nope" not found
            (exit status 1)
            [60ms-60ms] $ kubectl describe ns nope
            Error from server (NotFound): namespaces "nope" not found
            (exit status 1)
            [60ms-64ms] $ kubectl apply -f -
            pod/web created
            (exit status 0)
            [64ms-64ms] $ kubectl describe quota compute
            Name:       compute
            Namespace:  default
            Scopes:     NotBestEffort
             * Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.
            Resource       Used   Hard
            --------       ----   ----
            limits.memory  128Mi  2Gi
            pods           1      10
            requests.cpu   250m   2
            (exit status 0)
        "#]]
        .assert_eq(&transcript(&script));
    }

    #[test]
    fn describe_a_job() {
        let script = format!("kubectl apply -f - <<EOF\n{JOB}EOF\nsleep 30s\nkubectl describe job pi\nkubectl describe jobs\nkubectl describe job nope\n");
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            job.batch/pi created
            (exit status 0)
            [4ms-30004ms] $ sleep 30s
            (exit status 0)
            [30004ms-30004ms] $ kubectl describe job pi
            Name:             pi
            Namespace:        default
            Selector:         batch.kubernetes.io/controller-uid=910a2dec-8902-4cc1-beeb-8da1658eec67
            Labels:           batch.kubernetes.io/controller-uid=910a2dec-8902-4cc1-beeb-8da1658eec67
                              batch.kubernetes.io/job-name=pi
                              controller-uid=910a2dec-8902-4cc1-beeb-8da1658eec67
                              job-name=pi
            Annotations:      <none>
            Parallelism:      1
            Completions:      2
            Completion Mode:  NonIndexed
            Suspend:          false
            Backoff Limit:    3
            Start Time:       Thu, 01 Jan 2026 00:00:00 +0000
            Completed At:     Thu, 01 Jan 2026 00:00:02 +0000
            Duration:         2s
            Pods Statuses:    0 Active (0 Ready) / 2 Succeeded / 0 Failed
            Pod Template:
              Labels:  batch.kubernetes.io/controller-uid=910a2dec-8902-4cc1-beeb-8da1658eec67
                       batch.kubernetes.io/job-name=pi
                       controller-uid=910a2dec-8902-4cc1-beeb-8da1658eec67
                       job-name=pi
              Containers:
               pi:
                Image:      busybox:1.37
                Port:       <none>
                Host Port:  <none>
                Command:
                  sh
                  -c
                  echo 3.14
                Environment:   <none>
                Mounts:        <none>
              Volumes:         <none>
              Node-Selectors:  <none>
              Tolerations:     <none>
            Events:
              Type    Reason            Age   From            Message
              ----    ------            ----  ----            -------
              Normal  SuccessfulCreate  30s   job-controller  Created pod: pi-4nvqs
              Normal  SuccessfulCreate  29s   job-controller  Created pod: pi-77lfl
              Normal  Completed         28s   job-controller  Job completed
            (exit status 0)
            [30004ms-30004ms] $ kubectl describe jobs
            Name:             pi
            Namespace:        default
            Selector:         batch.kubernetes.io/controller-uid=910a2dec-8902-4cc1-beeb-8da1658eec67
            Labels:           batch.kubernetes.io/controller-uid=910a2dec-8902-4cc1-beeb-8da1658eec67
                              batch.kubernetes.io/job-name=pi
                              controller-uid=910a2dec-8902-4cc1-beeb-8da1658eec67
                              job-name=pi
            Annotations:      <none>
            Parallelism:      1
            Completions:      2
            Completion Mode:  NonIndexed
            Suspend:          false
            Backoff Limit:    3
            Start Time:       Thu, 01 Jan 2026 00:00:00 +0000
            Completed At:     Thu, 01 Jan 2026 00:00:02 +0000
            Duration:         2s
            Pods Statuses:    0 Active (0 Ready) / 2 Succeeded / 0 Failed
            Pod Template:
              Labels:  batch.kubernetes.io/controller-uid=910a2dec-8902-4cc1-beeb-8da1658eec67
                       batch.kubernetes.io/job-name=pi
                       controller-uid=910a2dec-8902-4cc1-beeb-8da1658eec67
                       job-name=pi
              Containers:
               pi:
                Image:      busybox:1.37
                Port:       <none>
                Host Port:  <none>
                Command:
                  sh
                  -c
                  echo 3.14
                Environment:   <none>
                Mounts:        <none>
              Volumes:         <none>
              Node-Selectors:  <none>
              Tolerations:     <none>
            Events:
              Type    Reason            Age   From            Message
              ----    ------            ----  ----            -------
              Normal  SuccessfulCreate  30s   job-controller  Created pod: pi-4nvqs
              Normal  SuccessfulCreate  29s   job-controller  Created pod: pi-77lfl
              Normal  Completed         28s   job-controller  Job completed
            (exit status 0)
            [30004ms-30004ms] $ kubectl describe job nope
            Error from server (NotFound): jobs.batch "nope" not found
            (exit status 1)
        "#]]
        .assert_eq(&transcript(&script));
    }

    /// A Secret applied with `stringData`: the API server merges it into `data` (winning over
    /// the same key) and stores none; kubectl's last-applied annotation keeps the file's
    /// `stringData`, so every later apply sends it again and prints `configured`
    /// (kubernetes/kubernetes#87736); `kubectl patch` with `stringData` works the same.
    #[test]
    fn secret_string_data_through_apply() {
        let secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: b2xk\n  user: YWRtaW4=\nstringData:\n  password: hunter2\n";
        let script = format!(
            "kubectl apply -f - <<EOF\n{secret}EOF\nkubectl get secret db -o yaml\nkubectl apply -f - <<EOF\n{secret}EOF\nkubectl patch secret db -p '{{\"stringData\":{{\"token\":\"abc\"}}}}'\nkubectl describe secret db\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            secret/db created
            (exit status 0)
            [4ms-4ms] $ kubectl get secret db -o yaml
            apiVersion: v1
            data:
              password: aHVudGVyMg==
              user: YWRtaW4=
            kind: Secret
            metadata:
              annotations:
                kubectl.kubernetes.io/last-applied-configuration: |
                  {"apiVersion":"v1","data":{"password":"b2xk","user":"YWRtaW4="},"kind":"Secret","metadata":{"annotations":{},"name":"db","namespace":"default"},"stringData":{"password":"hunter2"}}
              creationTimestamp: "2026-01-01T00:00:00Z"
              name: db
              namespace: default
              resourceVersion: "156"
              uid: 910a2dec-8902-4cc1-beeb-8da1658eec67
            type: Opaque
            (exit status 0)
            [4ms-8ms] $ kubectl apply -f -
            secret/db configured
            (exit status 0)
            [8ms-8ms] $ kubectl patch secret db -p '{"stringData":{"token":"abc"}}'
            secret/db patched
            (exit status 0)
            [8ms-8ms] $ kubectl describe secret db
            Name:         db
            Namespace:    default
            Labels:       <none>
            Annotations:  <none>

            Type:  Opaque

            Data
            ====
            password:  7 bytes
            token:     3 bytes
            user:      5 bytes
            (exit status 0)
        "#]].assert_eq(&transcript(&script));
    }
}
