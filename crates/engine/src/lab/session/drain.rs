//! `kubectl drain NODE...`, as kubectl's drain command and its `drain.Helper` do it:
//!
//! 1. a GET of each node (`Error from server (NotFound): nodes "x" not found` ends it), or
//!    with `-l/--selector` (and no node named: `error: cannot specify both a node name and a
//!    --selector option`) a LIST of the nodes, those the selector picks;
//! 2. the cordon: a strategic merge patch of `spec.unschedulable` (`node/NODE cordoned`, or
//!    `node/NODE already cordoned`);
//! 3. for each node, a LIST of the Pods (kubectl asks for `fieldSelector=spec.nodeName=NODE`
//!    across all namespaces; the lab's list has no field selectors, so the Pods are picked from
//!    the answer), then kubectl's filters in its order: DaemonSet-managed Pods (a GET of their
//!    DaemonSet; an error unless `--ignore-daemonsets`, then a warning and they stay), mirror
//!    Pods (skipped), Pods with an `emptyDir` (an error unless `--delete-emptydir-data`), Pods
//!    without a controller (an error unless `--force`). Errors stop the node:
//!    `error: unable to drain node "NODE" due to error: cannot delete ..., continuing
//!    command...`, then `There are pending nodes to be drained:` and the errors again, one a
//!    line; warnings print as `Warning: ...`;
//! 4. each remaining Pod is evicted (a POST of a policy/v1 Eviction to `pods/NAME/eviction`;
//!    `--disable-eviction` sends a DELETE instead): `evicting pod NS/NAME` each attempt; a 429
//!    (a PodDisruptionBudget that allows no disruption) prints `error when evicting pods/"NAME"
//!    -n "NS" (will retry after 5s): ...` and is retried 5 s of cluster time later (after a GET
//!    of the Pod); kubectl then waits for each evicted Pod to be gone, polling every second, and
//!    prints `pod/NAME evicted`; last `node/NODE drained`. Meanwhile the cluster runs: the
//!    kubelet stops the Pods, their ReplicaSets create replacements on other nodes, the
//!    disruption controller counts them, and the next eviction may go through;
//! 5. `--timeout` (0, the default, is no limit): an eviction still retried when it passes ends
//!    with `error when evicting pods/"NAME" -n "NS": global timeout reached: 30s`, and the node
//!    is reported with its pending Pods.
//!
//! `--dry-run=client` sends no write (`(dry run)` after each line); `--dry-run=server` sends
//! every write with `dryRun=All` (the cordon's patch, each Eviction's or DELETE's
//! `deleteOptions`): the API server runs the whole request, a budget may still refuse with a
//! 429 (retried), and nothing is stored, so kubectl waits for no Pod (`(server dry run)` after
//! each line, as `drain.Helper` and the printers write it).
//!
//! The polls for the evicted Pods are not traced as requests (kubectl GETs each Pod every
//! second; the lab checks the store at the same instants).

use super::*;
use crate::controllers::util::go_duration;
use crate::object::Object;
use serde_json::{json, Value};

/// How long kubectl waits before it retries a refused eviction (`EvictErrorRetryDelay`).
const RETRY_MS: u64 = 5_000;
/// How often kubectl looks whether an evicted or deleted Pod is gone.
const POLL_MS: u64 = 1_000;

const DAEMONSET_FATAL: &str = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)";
const DAEMONSET_WARNING: &str = "ignoring DaemonSet-managed Pods";
const LOCAL_STORAGE_FATAL: &str = "Pods with local storage (use --delete-emptydir-data to override)";

const UNMANAGED_FATAL: &str = "cannot delete Pods that declare no controller (use --force to override)";
const UNMANAGED_WARNING: &str = "deleting Pods that declare no controller";

/// What kubectl's filters decided for one Pod.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    Okay,
    Skip,
    Warning { delete: bool, message: String },
    Error(String),
}

impl Verdict {
    fn delete(&self) -> bool {
        matches!(self, Verdict::Okay | Verdict::Warning { delete: true, .. })
    }
}

/// The options of one drain.
struct Options {
    force: bool,
    ignore_daemonsets: bool,
    delete_emptydir: bool,
    disable_eviction: bool,
    grace: i64,
    timeout_ms: u64,
    dry_run: bool,
    /// `--dry-run=server`: the requests are sent with `dryRun=All`; nothing is waited for.
    server_dry_run: bool,
    pod_selector: Vec<(String, SelectorOp, String)>,
}

/// One Pod being evicted or deleted.
struct Removal {
    namespace: String,
    name: String,
    uid: String,
    /// When the next eviction attempt is due (`None` once it went through).
    next_attempt: Option<u64>,
    /// The attempt is a retry (kubectl reads the Pod again first).
    retry: bool,
    done: bool,
}

/// `utilerrors.NewAggregate(...).Error()`: one message bare, several in brackets.
fn aggregate(errors: &[String]) -> String {
    let mut seen: Vec<&String> = Vec::new();
    for e in errors {
        if !seen.contains(&e) {
            seen.push(e);
        }
    }
    match seen.as_slice() {
        [one] => (*one).clone(),
        many => format!("[{}]", many.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")),
    }
}

/// A boolean flag: present bare, or `=true`.
fn flag_on(flags: &Flags, name: &str) -> bool {
    flags
        .flags
        .iter()
        .rev()
        .find(|(n, _)| n == name)
        .is_some_and(|(_, v)| v.as_deref().is_none_or(|v| matches!(v, "1" | "t" | "T" | "TRUE" | "true" | "True")))
}

impl Session {
    /// `kubectl drain NODE...` (see the module docs).
    pub(super) fn drain(&mut self, flags: &Flags) -> Output {
        let known = [
            "--force",
            "--ignore-daemonsets",
            "--delete-emptydir-data",
            "--grace-period",
            "--timeout",
            "--disable-eviction",
            "--pod-selector",
            "--dry-run",
            "-l",
            "--selector",
            "--skip-wait-for-delete-timeout",
            "--chunk-size",
        ];
        if let Some(f) = flags.unknown(&known) {
            return Output::error(format!("Error: unknown flag: {f}\nSee 'kubectl drain --help' for usage."));
        }
        for f in ["--skip-wait-for-delete-timeout", "--chunk-size"] {
            if flags.has(&[f]) {
                return Output::error(format!(
                    "podlab: kubectl drain {f} is not modelled by the lab's session yet; name the node (kubectl drain NODE)"
                ));
            }
        }
        let node_selector = flags.value(&["-l", "--selector"]);
        if flags.args.is_empty() && !flags.has(&["-l", "--selector"]) {
            return Output::error("error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples");
        }
        if !flags.args.is_empty() && node_selector.is_some_and(|s| !s.is_empty()) {
            return Output::error(
                "error: cannot specify both a node name and a --selector option\nSee 'kubectl drain -h' for help and examples",
            );
        }
        // pflag's ParseBool for the boolean flags given a value.
        for (name, value) in &flags.flags {
            let boolean = ["--force", "--ignore-daemonsets", "--delete-emptydir-data", "--disable-eviction"];
            if let (true, Some(v)) = (boolean.contains(&name.as_str()), value) {
                if !["1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False"]
                    .contains(&v.as_str())
                {
                    return Output::error(format!(
                        "Error: invalid argument \"{v}\" for \"{name}\" flag: strconv.ParseBool: parsing \"{v}\": invalid syntax\nSee 'kubectl drain --help' for usage."
                    ));
                }
            }
        }
        let grace = match flags.value(&["--grace-period"]) {
            None => -1,
            Some(g) => match g.parse::<i64>() {
                Ok(g) => g,
                Err(_) => {
                    return Output::error(format!(
                        "Error: invalid argument \"{g}\" for \"--grace-period\" flag: strconv.ParseInt: parsing \"{g}\": invalid syntax\nSee 'kubectl drain --help' for usage."
                    ))
                }
            },
        };
        let timeout_ms = match flags.value(&["--timeout"]) {
            None => 0,
            Some(t) => match parse_duration_ms(t) {
                Some(ms) => ms,
                None => {
                    return Output::error(format!(
                        "Error: invalid argument \"{t}\" for \"--timeout\" flag: time: invalid duration \"{t}\"\nSee 'kubectl drain --help' for usage."
                    ))
                }
            },
        };
        let (dry_run, server_dry_run) = match self.dry_run_flag(flags) {
            Ok(d) => (d == super::dry_run::DryRun::Client, d == super::dry_run::DryRun::Server),
            Err(e) => return e,
        };
        let pod_selector = match flags.value(&["--pod-selector"]).map(parse_selector).transpose() {
            Ok(s) => s.unwrap_or_default(),
            Err(_) => return Output::error("error: --pod-selector=<pod_selector> must be a valid label selector"),
        };
        let opts = Options {
            force: flag_on(flags, "--force"),
            ignore_daemonsets: flag_on(flags, "--ignore-daemonsets"),
            delete_emptydir: flag_on(flags, "--delete-emptydir-data"),
            disable_eviction: flag_on(flags, "--disable-eviction"),
            grace,
            timeout_ms,
            dry_run,
            server_dry_run,
            pod_selector,
        };
        if server_dry_run {
            // Every write of the command carries `dryRun=All` (the cordon's patch; the
            // evictions and deletions put it in their DeleteOptions).
            if let Some(c) = self.command.as_mut() {
                c.dry_run = true;
            }
        }
        let mut out = Output::default();
        // The nodes, through the API server (kubectl's resource builder).
        let node_res = resource_for_kind("Node").expect("Node is a known kind");
        let mut nodes = Vec::new();
        if let Some(text) = node_selector.filter(|_| flags.args.is_empty()) {
            // `-l`: a LIST of the nodes, those the selector picks, in name order.
            let wanted = match parse_selector(text) {
                Ok(w) => w,
                Err(e) => return Output::error(format!("error: {e}")),
            };
            let req = self.request(Verb::List, node_res, None, None);
            let resp = apiserver::handle(&mut self.world, req);
            if let Some(status) = resp.error.clone() {
                return Output::error(kubectl_stderr(&[CommandError::Server(status)]));
            }
            nodes = self
                .world
                .store
                .live(&node_res.list_prefix(None))
                .map(|(_, o)| o)
                .filter(|o| selector_matches(&wanted, o.meta().labels.as_ref()))
                .cloned()
                .collect();
        }
        for name in &flags.args {
            let req = self.request(Verb::Get, node_res, None, Some(name));
            let resp = apiserver::handle(&mut self.world, req);
            match resp.error.clone() {
                Some(status) => {
                    out.stderr += &kubectl_stderr(&[CommandError::Server(status)]);
                    out.exit = 1;
                    return out;
                }
                None => nodes.extend(resp.into_object()),
            }
        }
        let suffix = match (opts.dry_run, opts.server_dry_run) {
            (true, _) => " (dry run)",
            (_, true) => " (server dry run)",
            _ => "",
        };
        // Cordon every node first.
        for node in &nodes {
            let name = node.name().to_string();
            let unschedulable = node.to_json().pointer("/spec/unschedulable").and_then(Value::as_bool).unwrap_or(false);
            if unschedulable {
                out.stdout += &format!("node/{name} already cordoned{suffix}\n");
                continue;
            }
            if !opts.dry_run {
                let mut req = self.request(Verb::Patch, node_res, None, Some(&name));
                req.body = Some(Body::Json(json!({"spec": {"unschedulable": true}})));
                let resp = apiserver::handle(&mut self.world, req);
                if let Some(status) = resp.error.clone() {
                    out.stderr += &format!("error: unable to cordon node \"{name}\": {}\n", status.message);
                    continue;
                }
            }
            out.stdout += &format!("node/{name} cordoned{suffix}\n");
        }
        let mut fatal: Vec<Vec<String>> = Vec::new();
        let mut remaining: Vec<String> = Vec::new();
        for node in &nodes {
            let name = node.name().to_string();
            match self.drain_node(&name, &opts, &mut out) {
                Ok(()) => out.stdout += &format!("node/{name} drained{suffix}\n"),
                Err(errs) => {
                    out.stderr += &format!(
                        "error: unable to drain node \"{name}\" due to error: {}, continuing command...\n",
                        aggregate(&errs)
                    );
                    fatal.push(errs);
                    remaining.push(name);
                }
            }
        }
        if !remaining.is_empty() {
            out.stderr += "There are pending nodes to be drained:\n";
            for n in &remaining {
                out.stderr += &format!(" {n}\n");
            }
            // cmdutil.CheckErr: an aggregate of one is unwrapped, an aggregate prints one
            // error a line without the `error: ` prefix.
            match fatal.as_slice() {
                [one] => {
                    for e in one {
                        out.stderr += &format!("{e}\n");
                    }
                }
                many => {
                    for errs in many {
                        out.stderr += &format!("{}\n", aggregate(errs));
                    }
                }
            }
            out.exit = 1;
        }
        out
    }

    /// kubectl's filters for one Pod of the node, in their order (the last verdict counts).
    fn drain_filter(&mut self, pod: &k8s_openapi::api::core::v1::Pod, opts: &Options) -> Verdict {
        let ns = pod.metadata.namespace.clone().unwrap_or_default();
        let terminal = matches!(pod.status.as_ref().and_then(|s| s.phase.as_deref()), Some("Succeeded" | "Failed"));
        let controller = crate::controllers::util::controller_of(&pod.metadata).cloned();
        // daemonSetFilter
        if let Some(c) = controller.as_ref().filter(|c| c.kind == "DaemonSet" && !terminal) {
            let ds_res = resource_for_kind("DaemonSet").expect("DaemonSet is a known kind");
            let req = self.request(Verb::Get, ds_res, Some(&ns), Some(&c.name));
            let resp = apiserver::handle(&mut self.world, req);
            let verdict = match resp.error.clone() {
                Some(status) if resp.is_not_found() && opts.force => {
                    Verdict::Warning { delete: true, message: status.message }
                }
                Some(status) => Verdict::Error(status.message),
                None if !opts.ignore_daemonsets => Verdict::Error(DAEMONSET_FATAL.into()),
                None => Verdict::Warning { delete: false, message: DAEMONSET_WARNING.into() },
            };
            if !verdict.delete() {
                return verdict;
            }
        }
        // mirrorPodFilter
        if pod.metadata.annotations.as_ref().is_some_and(|a| a.contains_key("kubernetes.io/config.mirror")) {
            return Verdict::Skip;
        }
        // localStorageFilter (its warning, `deleting Pods with local storage`, is replaced by the
        // next filter's verdict, as upstream's is)
        let empty_dir =
            pod.spec.as_ref().and_then(|s| s.volumes.as_ref()).is_some_and(|v| v.iter().any(|v| v.empty_dir.is_some()));
        if empty_dir && !terminal && !opts.delete_emptydir {
            return Verdict::Error(LOCAL_STORAGE_FATAL.into());
        }
        // unreplicatedFilter
        if terminal || controller.is_some() {
            Verdict::Okay
        } else if opts.force {
            Verdict::Warning { delete: true, message: UNMANAGED_WARNING.into() }
        } else {
            Verdict::Error(UNMANAGED_FATAL.into())
        }
    }

    /// `GetPodsForDeletion`: a traced LIST, the node's Pods, each through the filters.
    fn pods_for_deletion(
        &mut self,
        node: &str,
        opts: &Options,
    ) -> Result<Vec<(k8s_openapi::api::core::v1::Pod, Verdict)>, Vec<String>> {
        let pod_res = resource_for_kind("Pod").expect("Pod is a known kind");
        let mut req = self.request(Verb::List, pod_res, None, None);
        req.namespace = None;
        let resp = apiserver::handle(&mut self.world, req);
        if let Some(status) = resp.error.clone() {
            return Err(vec![status.message]);
        }
        let pods: Vec<k8s_openapi::api::core::v1::Pod> = self
            .world
            .store
            .live(&pod_res.list_prefix(None))
            .filter_map(|(_, o)| match o {
                Object::Pod(p) => Some((**p).clone()),
                _ => None,
            })
            .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(node))
            .filter(|p| selector_matches(&opts.pod_selector, p.metadata.labels.as_ref()))
            .collect();
        Ok(pods
            .into_iter()
            .map(|p| {
                let v = self.drain_filter(&p, opts);
                (p, v)
            })
            .collect())
    }

    /// `deleteOrEvictPodsSimple` for one node: `Err` holds the errors of the aggregate kubectl
    /// returns.
    fn drain_node(&mut self, node: &str, opts: &Options, out: &mut Output) -> Result<(), Vec<String>> {
        let list = self.pods_for_deletion(node, opts)?;
        let key = |p: &k8s_openapi::api::core::v1::Pod| {
            format!("{}/{}", p.metadata.namespace.as_deref().unwrap_or(""), p.metadata.name.as_deref().unwrap_or(""))
        };
        // Errors and warnings grouped by message, in the order they first occur.
        let mut errors: Vec<(String, Vec<String>)> = Vec::new();
        let mut warnings: Vec<(String, Vec<String>)> = Vec::new();
        for (p, v) in &list {
            let (group, message) = match v {
                Verdict::Error(m) => (&mut errors, m),
                Verdict::Warning { message, .. } => (&mut warnings, message),
                _ => continue,
            };
            match group.iter_mut().find(|(m, _)| m == message) {
                Some((_, pods)) => pods.push(key(p)),
                None => group.push((message.clone(), vec![key(p)])),
            }
        }
        if !errors.is_empty() {
            return Err(errors
                .into_iter()
                .map(|(m, pods)| {
                    if m.to_ascii_lowercase().starts_with("cannot delete") {
                        format!("{m}: {}", pods.join(", "))
                    } else {
                        format!("cannot delete {m}: {}", pods.join(", "))
                    }
                })
                .collect());
        }
        if !warnings.is_empty() {
            let text: Vec<String> = warnings.iter().map(|(m, pods)| format!("{m}: {}", pods.join(", "))).collect();
            out.stderr += &format!("Warning: {}\n", text.join("; "));
        }
        let pods: Vec<k8s_openapi::api::core::v1::Pod> =
            list.into_iter().filter(|(_, v)| v.delete()).map(|(p, _)| p).collect();
        if opts.dry_run {
            for p in &pods {
                out.stdout += &format!("evicting pod {} (dry run)\n", key(p));
            }
            return Ok(());
        }
        let result =
            if opts.disable_eviction { self.delete_pods(&pods, opts, out) } else { self.evict_pods(&pods, opts, out) };
        if let Err(errs) = &result {
            if let Ok(pending) = self.pods_for_deletion(node, opts) {
                let pending: Vec<String> = pending
                    .into_iter()
                    .filter(|(_, v)| v.delete())
                    .map(|(p, _)| p.metadata.name.unwrap_or_default())
                    .collect();
                if !pending.is_empty() {
                    out.stderr += &format!(
                        "There are pending pods in node \"{node}\" when an error occurred: {}\n",
                        aggregate(errs)
                    );
                    for p in pending {
                        out.stderr += &format!("pod/{p}\n");
                    }
                }
            }
        }
        result
    }

    fn delete_options(opts: &Options) -> Value {
        let mut o = json!({});
        if opts.grace >= 0 {
            o["gracePeriodSeconds"] = json!(opts.grace);
        }
        if opts.server_dry_run {
            o["dryRun"] = json!(["All"]);
        }
        o
    }

    /// `evictPods`: every Pod at once, each retried every 5 s while refused, then waited for.
    fn evict_pods(
        &mut self,
        pods: &[k8s_openapi::api::core::v1::Pod],
        opts: &Options,
        out: &mut Output,
    ) -> Result<(), Vec<String>> {
        let pod_res = resource_for_kind("Pod").expect("Pod is a known kind");
        let start = self.world.now;
        let deadline = (opts.timeout_ms > 0).then(|| start + opts.timeout_ms);
        let timeout_text = if opts.timeout_ms > 0 { go_duration(opts.timeout_ms as i64) } else { String::new() };
        let mut removals: Vec<Removal> = pods
            .iter()
            .map(|p| Removal {
                namespace: p.metadata.namespace.clone().unwrap_or_default(),
                name: p.metadata.name.clone().unwrap_or_default(),
                uid: p.metadata.uid.clone().unwrap_or_default(),
                next_attempt: Some(start),
                retry: false,
                done: false,
            })
            .collect();
        let mut errors: Vec<String> = Vec::new();
        loop {
            let now = self.world.now;
            for r in removals.iter_mut().filter(|r| !r.done) {
                let (ns, name) = (r.namespace.clone(), r.name.clone());
                if let Some(at) = r.next_attempt {
                    if now < at {
                        continue;
                    }
                    if r.retry {
                        // kubectl reads the Pod again before it retries (errors ignored).
                        let req = self.request(Verb::Get, pod_res, Some(&ns), Some(&name));
                        let resp = apiserver::handle(&mut self.world, req);
                        if let Some(p) = resp.into_object() {
                            r.uid = p.meta().uid.clone().unwrap_or_default();
                        }
                    }
                    let dry = if opts.server_dry_run { " (server dry run)" } else { "" };
                    out.stdout += &format!("evicting pod {ns}/{name}{dry}\n");
                    if deadline.is_some_and(|d| now >= d) {
                        errors.push(format!(
                            "error when evicting pods/\"{name}\" -n \"{ns}\": global timeout reached: {timeout_text}"
                        ));
                        r.done = true;
                        continue;
                    }
                    let mut req = self.request(Verb::Create, pod_res, Some(&ns), Some(&name));
                    req.subresource = Some("eviction".into());
                    req.body = Some(Body::Json(json!({
                        "apiVersion": "policy/v1",
                        "deleteOptions": Self::delete_options(opts),
                        "kind": "Eviction",
                        "metadata": {"creationTimestamp": null, "name": name, "namespace": ns},
                    })));
                    let resp = apiserver::handle(&mut self.world, req);
                    match resp.error.clone() {
                        // A server dry run waits for nothing.
                        None if opts.server_dry_run => {
                            r.done = true;
                            continue;
                        }
                        None => r.next_attempt = None,
                        Some(_) if resp.is_not_found() => {
                            r.done = true;
                            continue;
                        }
                        Some(status) if status.reason == crate::errors::StatusReason::TooManyRequests => {
                            out.stderr += &format!(
                                "error when evicting pods/\"{name}\" -n \"{ns}\" (will retry after 5s): {}\n",
                                status.message
                            );
                            r.next_attempt = Some(now + RETRY_MS);
                            r.retry = true;
                            continue;
                        }
                        Some(status) => {
                            errors.push(format!("error when evicting pods/\"{name}\" -n \"{ns}\": {}", status.message));
                            r.done = true;
                            continue;
                        }
                    }
                }
                // Waiting for the Pod to be gone (or replaced by one of the same name).
                let gone = match self.world.store.get(&pod_res.etcd_key(Some(&ns), &name)) {
                    None => true,
                    Some((o, _)) => o.meta().uid.as_deref().unwrap_or("") != r.uid,
                };
                if gone {
                    out.stdout += &format!("pod/{name} evicted\n");
                    r.done = true;
                } else if deadline.is_some_and(|d| now >= d) {
                    errors.push(format!(
                        "error when waiting for pod \"{name}\" in namespace \"{ns}\" to terminate: context deadline exceeded"
                    ));
                    r.done = true;
                }
            }
            if removals.iter().all(|r| r.done) {
                break;
            }
            let before = self.world.now;
            self.advance(None, before + POLL_MS, |_| false);
            if self.world.now == before {
                // The session's time limit: kubectl would still be waiting.
                errors.push("podlab: the session's time limit was reached while kubectl drain was waiting".into());
                break;
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// `deletePods` (`--disable-eviction`): a DELETE each, then a wait for all of them.
    fn delete_pods(
        &mut self,
        pods: &[k8s_openapi::api::core::v1::Pod],
        opts: &Options,
        out: &mut Output,
    ) -> Result<(), Vec<String>> {
        let pod_res = resource_for_kind("Pod").expect("Pod is a known kind");
        for p in pods {
            let ns = p.metadata.namespace.clone().unwrap_or_default();
            let name = p.metadata.name.clone().unwrap_or_default();
            let mut req = self.request(Verb::Delete, pod_res, Some(&ns), Some(&name));
            req.body = Some(Body::Json(Self::delete_options(opts)));
            let resp = apiserver::handle(&mut self.world, req);
            if let Some(status) = resp.error.clone() {
                if !resp.is_not_found() {
                    return Err(vec![kubectl_stderr(&[CommandError::Server(status)]).trim_end().to_string()]);
                }
            }
        }
        if opts.server_dry_run {
            return Ok(());
        }
        let start = self.world.now;
        let mut waiting: Vec<(String, String, String)> = pods
            .iter()
            .map(|p| {
                (
                    p.metadata.namespace.clone().unwrap_or_default(),
                    p.metadata.name.clone().unwrap_or_default(),
                    p.metadata.uid.clone().unwrap_or_default(),
                )
            })
            .collect();
        loop {
            waiting.retain(|(ns, name, uid)| {
                let gone = match self.world.store.get(&pod_res.etcd_key(Some(ns), name)) {
                    None => true,
                    Some((o, _)) => o.meta().uid.as_deref().unwrap_or("") != uid,
                };
                if gone {
                    out.stdout += &format!("pod/{name} deleted\n");
                }
                !gone
            });
            if waiting.is_empty() {
                return Ok(());
            }
            if opts.timeout_ms > 0 && self.world.now >= start + opts.timeout_ms {
                return Err(vec!["context deadline exceeded".into()]);
            }
            let before = self.world.now;
            self.advance(None, before + POLL_MS, |_| false);
            if self.world.now == before {
                return Err(
                    vec!["podlab: the session's time limit was reached while kubectl drain was waiting".into()],
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    const WEB: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.29\n";
    const PDB: &str = "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n      app: web\n";
    const AGENT: &str = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector:\n    matchLabels:\n      app: agent\n  template:\n    metadata:\n      labels:\n        app: agent\n    spec:\n      containers:\n      - name: agent\n        image: busybox:1.37\n        command: [sleep, infinity]\n";
    const LONE: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: lone\nspec:\n  nodeSelector:\n    kubernetes.io/hostname: kind-worker\n  containers:\n  - name: nginx\n    image: nginx:1.29\n";
    const CACHE: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: cache\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: cache\n  template:\n    metadata:\n      labels:\n        app: cache\n    spec:\n      nodeSelector:\n        kubernetes.io/hostname: kind-worker\n      containers:\n      - name: redis\n        image: redis:8\n        volumeMounts:\n        - name: scratch\n          mountPath: /data\n      volumes:\n      - name: scratch\n        emptyDir: {}\n";

    fn heredoc(line: &str, manifest: &str) -> String {
        format!("{line} <<EOF\n{manifest}EOF\n")
    }

    /// Every command's line, time, output and exit status.
    fn transcript(script: &str) -> String {
        let loaded = Loaded::load(None).unwrap();
        let mut session = Session::new(&loaded, 1, None, None, crate::lab::DEFAULT_LIMIT_MS).unwrap();
        let read = |_: &str| None;
        let mut out = String::new();
        for c in parse_script(script, &read).unwrap() {
            let r = session.run(&c).clone();
            out += &format!(
                "[{}ms-{}ms] $ {}\n{}{}(exit status {})\n",
                r.start_ms, r.end_ms, r.line, r.stdout, r.stderr, r.exit_code
            );
        }
        out
    }

    /// Three replicas over two workers and a budget of minAvailable 2: the first eviction
    /// takes the one disruption allowed, the second is refused (429) and retried every 5 s
    /// until the first Pod's replacement is Ready on the other worker.
    #[test]
    fn a_budget_holds_the_second_eviction_until_a_replacement_is_ready() {
        let script = heredoc("kubectl apply -f -", WEB)
            + "sleep 20s\n"
            + &heredoc("kubectl apply -f -", PDB)
            + "sleep 2s\nkubectl get pdb\nkubectl get pods -o wide\nkubectl drain kind-worker2\nkubectl get pods -o wide\nkubectl get pdb web -o yaml\nkubectl describe pdb web\nkubectl get nodes\nkubectl drain kind-worker2\nkubectl uncordon kind-worker2\n";
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20008ms] $ kubectl apply -f -
            poddisruptionbudget.policy/web created
            (exit status 0)
            [20008ms-22008ms] $ sleep 2s
            (exit status 0)
            [22008ms-22008ms] $ kubectl get pdb
            NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE
            web    2               N/A               1                     2s
            (exit status 0)
            [22008ms-22008ms] $ kubectl get pods -o wide
            NAME                   READY   STATUS    RESTARTS   AGE   IP           NODE           NOMINATED NODE   READINESS GATES
            web-7c64c74567-65lg7   1/1     Running   0          22s   10.244.2.3   kind-worker2   <none>           <none>
            web-7c64c74567-9vtnp   1/1     Running   0          22s   10.244.1.2   kind-worker    <none>           <none>
            web-7c64c74567-pgw5x   1/1     Running   0          22s   10.244.2.2   kind-worker2   <none>           <none>
            (exit status 0)
            [22008ms-28008ms] $ kubectl drain kind-worker2
            node/kind-worker2 cordoned
            evicting pod default/web-7c64c74567-65lg7
            evicting pod default/web-7c64c74567-pgw5x
            pod/web-7c64c74567-65lg7 evicted
            evicting pod default/web-7c64c74567-pgw5x
            pod/web-7c64c74567-pgw5x evicted
            node/kind-worker2 drained
            error when evicting pods/"web-7c64c74567-pgw5x" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.
            (exit status 0)
            [28008ms-28008ms] $ kubectl get pods -o wide
            NAME                   READY   STATUS    RESTARTS   AGE   IP           NODE          NOMINATED NODE   READINESS GATES
            web-7c64c74567-9vtnp   1/1     Running   0          28s   10.244.1.2   kind-worker   <none>           <none>
            web-7c64c74567-dnwzt   1/1     Running   0          6s    10.244.1.3   kind-worker   <none>           <none>
            web-7c64c74567-fm74l   1/1     Running   0          1s    10.244.1.4   kind-worker   <none>           <none>
            (exit status 0)
            [28008ms-28008ms] $ kubectl get pdb web -o yaml
            apiVersion: policy/v1
            kind: PodDisruptionBudget
            metadata:
              annotations:
                kubectl.kubernetes.io/last-applied-configuration: |
                  {"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"annotations":{},"name":"web","namespace":"default"},"spec":{"minAvailable":2,"selector":{"matchLabels":{"app":"web"}}}}
              creationTimestamp: "2026-01-01T00:00:20Z"
              generation: 1
              name: web
              namespace: default
              resourceVersion: "258"
              uid: 528f9e03-12ca-4ff8-bdf9-d9ce5974e6ed
            spec:
              minAvailable: 2
              selector:
                matchLabels:
                  app: web
            status:
              conditions:
              - lastTransitionTime: "2026-01-01T00:00:28Z"
                message: ""
                observedGeneration: 1
                reason: SufficientPods
                status: "True"
                type: DisruptionAllowed
              currentHealthy: 3
              desiredHealthy: 2
              disruptionsAllowed: 1
              expectedPods: 3
              observedGeneration: 1
            (exit status 0)
            [28008ms-28008ms] $ kubectl describe pdb web
            Name:           web
            Namespace:      default
            Min available:  2
            Selector:       app=web
            Status:
                Allowed disruptions:  1
                Current:              3
                Desired:              2
                Total:                3
            Events:                   <none>
            (exit status 0)
            [28008ms-28008ms] $ kubectl get nodes
            NAME                 STATUS                     ROLES           AGE   VERSION
            kind-control-plane   Ready                      control-plane   28s   v1.37.0
            kind-worker          Ready                      <none>          28s   v1.37.0
            kind-worker2         Ready,SchedulingDisabled   <none>          28s   v1.37.0
            (exit status 0)
            [28008ms-28008ms] $ kubectl drain kind-worker2
            node/kind-worker2 already cordoned
            node/kind-worker2 drained
            (exit status 0)
            [28008ms-28008ms] $ kubectl uncordon kind-worker2
            node/kind-worker2 uncordoned
            (exit status 0)
        "#]].assert_eq(&transcript(&script));
    }

    /// DaemonSet Pods stop a drain unless `--ignore-daemonsets`; then they stay, with a warning.
    #[test]
    fn daemonset_pods_need_ignore_daemonsets() {
        let script = heredoc("kubectl apply -f -", AGENT)
            + "sleep 20s\nkubectl drain kind-worker\nkubectl drain kind-worker --ignore-daemonsets\nkubectl get pods -o wide\n";
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            daemonset.apps/agent created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms] $ kubectl drain kind-worker
            node/kind-worker cordoned
            error: unable to drain node "kind-worker" due to error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/agent-vqspg, continuing command...
            There are pending nodes to be drained:
             kind-worker
            cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/agent-vqspg
            (exit status 1)
            [20004ms-20004ms] $ kubectl drain kind-worker --ignore-daemonsets
            node/kind-worker already cordoned
            node/kind-worker drained
            Warning: ignoring DaemonSet-managed Pods: default/agent-vqspg
            (exit status 0)
            [20004ms-20004ms] $ kubectl get pods -o wide
            NAME          READY   STATUS    RESTARTS   AGE   IP           NODE           NOMINATED NODE   READINESS GATES
            agent-rzc9v   1/1     Running   0          20s   10.244.2.2   kind-worker2   <none>           <none>
            agent-vqspg   1/1     Running   0          20s   10.244.1.2   kind-worker    <none>           <none>
            (exit status 0)
        "#]].assert_eq(&transcript(&script));
    }

    /// `-l` picks the nodes by label (and not with a node name); `--dry-run=server` sends the
    /// cordon and the evictions with `dryRun=All`: the budget still answers (one eviction
    /// allowed, the next refused and retried), nothing is written, no Pod goes.
    #[test]
    fn drain_by_label_and_server_dry_run() {
        let script = heredoc("kubectl apply -f -", WEB)
            + "sleep 20s\n"
            + &heredoc("kubectl apply -f -", PDB)
            + "sleep 2s\nkubectl drain kind-worker -l kubernetes.io/hostname=kind-worker\nkubectl drain -l kubernetes.io/hostname=nowhere\nkubectl drain -l kubernetes.io/hostname=kind-worker2 --dry-run=server --timeout=12s\nkubectl get nodes\nkubectl get pdb\nkubectl drain --selector=kubernetes.io/hostname=kind-worker --dry-run=server\nkubectl get pods -o wide\n";
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20008ms] $ kubectl apply -f -
            poddisruptionbudget.policy/web created
            (exit status 0)
            [20008ms-22008ms] $ sleep 2s
            (exit status 0)
            [22008ms-22008ms] $ kubectl drain kind-worker -l kubernetes.io/hostname=kind-worker
            error: cannot specify both a node name and a --selector option
            See 'kubectl drain -h' for help and examples
            (exit status 1)
            [22008ms-22008ms] $ kubectl drain -l kubernetes.io/hostname=nowhere
            (exit status 0)
            [22008ms-22008ms] $ kubectl drain -l kubernetes.io/hostname=kind-worker2 --dry-run=server --timeout=12s
            node/kind-worker2 cordoned (server dry run)
            evicting pod default/web-7c64c74567-65lg7 (server dry run)
            evicting pod default/web-7c64c74567-pgw5x (server dry run)
            node/kind-worker2 drained (server dry run)
            (exit status 0)
            [22008ms-22008ms] $ kubectl get nodes
            NAME                 STATUS   ROLES           AGE   VERSION
            kind-control-plane   Ready    control-plane   22s   v1.37.0
            kind-worker          Ready    <none>          22s   v1.37.0
            kind-worker2         Ready    <none>          22s   v1.37.0
            (exit status 0)
            [22008ms-22008ms] $ kubectl get pdb
            NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE
            web    2               N/A               1                     2s
            (exit status 0)
            [22008ms-22008ms] $ kubectl drain --selector=kubernetes.io/hostname=kind-worker --dry-run=server
            node/kind-worker cordoned (server dry run)
            evicting pod default/web-7c64c74567-9vtnp (server dry run)
            node/kind-worker drained (server dry run)
            (exit status 0)
            [22008ms-22008ms] $ kubectl get pods -o wide
            NAME                   READY   STATUS    RESTARTS   AGE   IP           NODE           NOMINATED NODE   READINESS GATES
            web-7c64c74567-65lg7   1/1     Running   0          22s   10.244.2.3   kind-worker2   <none>           <none>
            web-7c64c74567-9vtnp   1/1     Running   0          22s   10.244.1.2   kind-worker    <none>           <none>
            web-7c64c74567-pgw5x   1/1     Running   0          22s   10.244.2.2   kind-worker2   <none>           <none>
            (exit status 0)
        "#]].assert_eq(&transcript(&script));
    }

    /// A Pod without a controller needs `--force` (and is then gone for good); a Pod with an
    /// emptyDir needs `--delete-emptydir-data`.
    #[test]
    fn unmanaged_and_emptydir_pods_need_their_flags() {
        let script = heredoc("kubectl apply -f -", LONE)
            + &heredoc("kubectl apply -f -", CACHE)
            + "sleep 20s\nkubectl drain kind-worker\nkubectl drain kind-worker --force\nkubectl drain kind-worker --force --delete-emptydir-data --grace-period=5\nkubectl get pods -o wide\n";
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            pod/lone created
            (exit status 0)
            [4ms-8ms] $ kubectl apply -f -
            deployment.apps/cache created
            (exit status 0)
            [8ms-20008ms] $ sleep 20s
            (exit status 0)
            [20008ms-20008ms] $ kubectl drain kind-worker
            node/kind-worker cordoned
            error: unable to drain node "kind-worker" due to error: [cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache-745c785f6c-fkcrz, cannot delete Pods that declare no controller (use --force to override): default/lone], continuing command...
            There are pending nodes to be drained:
             kind-worker
            cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache-745c785f6c-fkcrz
            cannot delete Pods that declare no controller (use --force to override): default/lone
            (exit status 1)
            [20008ms-20008ms] $ kubectl drain kind-worker --force
            node/kind-worker already cordoned
            error: unable to drain node "kind-worker" due to error: cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache-745c785f6c-fkcrz, continuing command...
            There are pending nodes to be drained:
             kind-worker
            cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache-745c785f6c-fkcrz
            (exit status 1)
            [20008ms-21008ms] $ kubectl drain kind-worker --force --delete-emptydir-data --grace-period=5
            node/kind-worker already cordoned
            evicting pod default/cache-745c785f6c-fkcrz
            evicting pod default/lone
            pod/cache-745c785f6c-fkcrz evicted
            pod/lone evicted
            node/kind-worker drained
            Warning: deleting Pods that declare no controller: default/lone
            (exit status 0)
            [21008ms-21008ms] $ kubectl get pods -o wide
            NAME                     READY   STATUS    RESTARTS   AGE   IP       NODE     NOMINATED NODE   READINESS GATES
            cache-745c785f6c-gz4nd   0/1     Pending   0          1s    <none>   <none>   <none>           <none>
            (exit status 0)
        "#]].assert_eq(&transcript(&script));
    }

    /// An unknown node, a missing node name, a client-side dry run and `--timeout` with a
    /// budget that never allows a disruption.
    #[test]
    fn errors_dry_run_and_timeout() {
        let pdb_all = PDB.replace("minAvailable: 2", "minAvailable: 3");
        let script = "kubectl drain x\nkubectl drain\nkubectl drain kind-worker --bogus\nkubectl drain x --force=maybe\nkubectl drain x --dry-run=bad\nkubectl drain x --grace-period=x\nkubectl drain x --pod-selector=a=(b\n".to_string()
            + &heredoc("kubectl apply -f -", WEB)
            + "sleep 20s\n"
            + &heredoc("kubectl apply -f -", &pdb_all)
            + "sleep 2s\nkubectl drain kind-worker --dry-run=client\nkubectl drain kind-worker --timeout=12s\n";
        expect![[r#"
            [0ms-0ms] $ kubectl drain x
            Error from server (NotFound): nodes "x" not found
            (exit status 1)
            [0ms-0ms] $ kubectl drain
            error: USAGE: drain NODE [flags]
            See 'kubectl drain -h' for help and examples
            (exit status 1)
            [0ms-0ms] $ kubectl drain kind-worker --bogus
            Error: unknown flag: --bogus
            See 'kubectl drain --help' for usage.
            (exit status 1)
            [0ms-0ms] $ kubectl drain x --force=maybe
            Error: invalid argument "maybe" for "--force" flag: strconv.ParseBool: parsing "maybe": invalid syntax
            See 'kubectl drain --help' for usage.
            (exit status 1)
            [0ms-0ms] $ kubectl drain x --dry-run=bad
            error: Invalid dry-run value (bad). Must be "none", "server", or "client".
            (exit status 1)
            [0ms-0ms] $ kubectl drain x --grace-period=x
            Error: invalid argument "x" for "--grace-period" flag: strconv.ParseInt: parsing "x": invalid syntax
            See 'kubectl drain --help' for usage.
            (exit status 1)
            [0ms-0ms] $ kubectl drain x --pod-selector=a=(b
            error: --pod-selector=<pod_selector> must be a valid label selector
            (exit status 1)
            [0ms-4ms] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20008ms] $ kubectl apply -f -
            poddisruptionbudget.policy/web created
            (exit status 0)
            [20008ms-22008ms] $ sleep 2s
            (exit status 0)
            [22008ms-22008ms] $ kubectl drain kind-worker --dry-run=client
            node/kind-worker cordoned (dry run)
            evicting pod default/web-7c64c74567-9vtnp (dry run)
            node/kind-worker drained (dry run)
            (exit status 0)
            [22008ms-37008ms] $ kubectl drain kind-worker --timeout=12s
            node/kind-worker cordoned
            evicting pod default/web-7c64c74567-9vtnp
            evicting pod default/web-7c64c74567-9vtnp
            evicting pod default/web-7c64c74567-9vtnp
            evicting pod default/web-7c64c74567-9vtnp
            error when evicting pods/"web-7c64c74567-9vtnp" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.
            error when evicting pods/"web-7c64c74567-9vtnp" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.
            error when evicting pods/"web-7c64c74567-9vtnp" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.
            There are pending pods in node "kind-worker" when an error occurred: error when evicting pods/"web-7c64c74567-9vtnp" -n "default": global timeout reached: 12s
            pod/web-7c64c74567-9vtnp
            error: unable to drain node "kind-worker" due to error: error when evicting pods/"web-7c64c74567-9vtnp" -n "default": global timeout reached: 12s, continuing command...
            There are pending nodes to be drained:
             kind-worker
            error when evicting pods/"web-7c64c74567-9vtnp" -n "default": global timeout reached: 12s
            (exit status 1)
        "#]].assert_eq(&transcript(&script));
    }

    /// `--disable-eviction` deletes the Pods instead: no budget is asked, so a budget that
    /// allows nothing does not hold the drain.
    #[test]
    fn disable_eviction_deletes_past_the_budget() {
        let pdb_all = PDB.replace("minAvailable: 2", "minAvailable: 3");
        let script = heredoc("kubectl apply -f -", WEB)
            + "sleep 20s\n"
            + &heredoc("kubectl apply -f -", &pdb_all)
            + "sleep 2s\nkubectl get pdb\nkubectl drain kind-worker2 --disable-eviction --grace-period=0\nkubectl get pods -o wide\n";
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20008ms] $ kubectl apply -f -
            poddisruptionbudget.policy/web created
            (exit status 0)
            [20008ms-22008ms] $ sleep 2s
            (exit status 0)
            [22008ms-22008ms] $ kubectl get pdb
            NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE
            web    3               N/A               0                     2s
            (exit status 0)
            [22008ms-22008ms] $ kubectl drain kind-worker2 --disable-eviction --grace-period=0
            node/kind-worker2 cordoned
            pod/web-7c64c74567-65lg7 deleted
            pod/web-7c64c74567-pgw5x deleted
            node/kind-worker2 drained
            (exit status 0)
            [22008ms-22008ms] $ kubectl get pods -o wide
            NAME                   READY   STATUS    RESTARTS   AGE   IP           NODE          NOMINATED NODE   READINESS GATES
            web-7c64c74567-9vtnp   1/1     Running   0          22s   10.244.1.2   kind-worker   <none>           <none>
            (exit status 0)
        "#]].assert_eq(&transcript(&script));
    }

    /// A user who may cordon and list but not create `pods/eviction`: the eviction is
    /// Forbidden and the drain fails at once.
    #[test]
    fn a_user_without_pods_eviction_is_forbidden() {
        let rbac = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: node-patcher\nrules:\n- apiGroups: [\"\"]\n  resources: [nodes]\n  verbs: [get, patch]\n- apiGroups: [\"\"]\n  resources: [pods]\n  verbs: [get, list]\n- apiGroups: [apps]\n  resources: [daemonsets]\n  verbs: [get]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: carol-patches-nodes\nsubjects:\n- kind: User\n  name: carol\n  apiGroup: rbac.authorization.k8s.io\nroleRef:\n  kind: ClusterRole\n  name: node-patcher\n  apiGroup: rbac.authorization.k8s.io\n";
        let setup = heredoc("kubectl apply -f -", rbac) + &heredoc("kubectl apply -f -", WEB) + "sleep 20s\n";
        // The admin sets up; then carol (impersonated) drains.
        let loaded = Loaded::load(None).unwrap();
        let mut admin = Session::new(&loaded, 1, None, None, crate::lab::DEFAULT_LIMIT_MS).unwrap();
        for c in parse_script(&setup, &|_: &str| None).unwrap() {
            admin.run(&c);
        }
        let carol = crate::lab::Identity { user: "carol".into(), groups: vec![] };
        admin.caller.impersonate =
            Some(crate::trace::UserInfo { username: carol.user.clone(), groups: vec!["system:authenticated".into()] });
        let r = admin.run(&SessionCommand { line: "kubectl drain kind-worker".into(), file: None }).clone();
        expect![[r#"
            node/kind-worker cordoned
            evicting pod default/web-7c64c74567-x6cdr
            There are pending pods in node "kind-worker" when an error occurred: error when evicting pods/"web-7c64c74567-x6cdr" -n "default": pods "web-7c64c74567-x6cdr" is forbidden: User "carol" cannot create resource "pods/eviction" in API group "" in the namespace "default"
            pod/web-7c64c74567-x6cdr
            error: unable to drain node "kind-worker" due to error: error when evicting pods/"web-7c64c74567-x6cdr" -n "default": pods "web-7c64c74567-x6cdr" is forbidden: User "carol" cannot create resource "pods/eviction" in API group "" in the namespace "default", continuing command...
            There are pending nodes to be drained:
             kind-worker
            error when evicting pods/"web-7c64c74567-x6cdr" -n "default": pods "web-7c64c74567-x6cdr" is forbidden: User "carol" cannot create resource "pods/eviction" in API group "" in the namespace "default"
            (exit status 1)
        "#]].assert_eq(&format!("{}{}(exit status {})\n", r.stdout, r.stderr, r.exit_code));
    }
}
