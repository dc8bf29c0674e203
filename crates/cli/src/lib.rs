//! The `podlab` command, as a library so tests can drive it without a process.
//!
//! ```text
//! podlab apply -f FILE [--cluster FILE|PRESET] [--user USER] [--as USER] [--as-group GROUP]...
//!                      [-o text|json] [--seed N] [--limit-ms N]
//! podlab parse -f FILE
//! podlab presets
//! podlab report website-examples [DIR] [--runtime]
//! ```
//!
//! `apply` runs the engine (`podlab_engine::lab::run`) and prints the step-by-step trace,
//! then exactly what `kubectl apply -f FILE` would have printed, then what `kubectl get pods
//! -o wide`, `kubectl describe pod NAME` (each pod the run created) and `kubectl describe
//! statefulset|daemonset|cronjob|pvc|pv NAME` (each such object the run created) print once
//! the cluster has settled (text); or the whole run (json).
//! Exit status: 0 when every object was accepted, 1 otherwise, 2 for usage errors (and for a
//! cluster file the engine cannot load).

use podlab_engine::cluster;
use podlab_engine::lab::{self, Identity, LabInput, Run};
use podlab_engine::trace::{Detail, Step, StepStatus};
use std::io::Write;
use std::path::{Path, PathBuf};

const USAGE: &str = "usage:
  podlab apply -f FILE [--cluster FILE|PRESET] [--user USER] [--as USER] [--as-group GROUP]... [-o text|json] [--seed N] [--limit-ms N]
  podlab session -f SCRIPT [--cluster FILE|PRESET] [--user USER] [--as USER] [--as-group GROUP]... [-o text|json] [--seed N] [--limit-ms N]
  podlab parse -f FILE
  podlab presets
  podlab report website-examples [DIR] [--runtime]";

/// Runs the command with `args` (without the program name); returns the exit code.
pub fn run(args: &[String], out: &mut dyn Write) -> i32 {
    match args.first().map(String::as_str) {
        Some("apply") => apply(&args[1..], out),
        Some("session") => session(&args[1..], out),
        Some("parse") => parse(&args[1..], out),
        Some("presets") => {
            for (name, text) in cluster::PRESETS {
                let first = text.lines().next().unwrap_or("").trim_start_matches("# ");
                let _ = writeln!(out, "{name:<22} {first}");
            }
            0
        }
        Some("report") => match args.get(1).map(String::as_str) {
            Some("website-examples") => {
                let runtime = args[2..].iter().any(|a| a == "--runtime");
                let dir = args[2..]
                    .iter()
                    .find(|a| !a.starts_with("--"))
                    .map(PathBuf::from)
                    .unwrap_or_else(default_examples_dir);
                match website_report_with(&dir, runtime) {
                    Some(r) => {
                        let _ = out.write_all(r.text.as_bytes());
                        if r.ours == 0 {
                            0
                        } else {
                            1
                        }
                    }
                    None => {
                        let _ = writeln!(out, "skipped: {} does not exist", dir.display());
                        0
                    }
                }
            }
            _ => usage(out),
        },
        _ => usage(out),
    }
}

fn usage(out: &mut dyn Write) -> i32 {
    let _ = writeln!(out, "{USAGE}");
    2
}

fn parse(args: &[String], out: &mut dyn Write) -> i32 {
    let Some(file) = flag(args, "-f") else { return usage(out) };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(out, "error: the path \"{file}\" cannot be read: {e}");
            return 1;
        }
    };
    let parsed = podlab_engine::manifest::parse_manifest(&text);
    for d in &parsed.documents {
        let _ = writeln!(out, "{} {} {}", d.api_version, d.kind, d.name.as_deref().unwrap_or("<no name>"));
    }
    match parsed.error {
        Some(e) => {
            let _ = writeln!(out, "error: {file}: {e}");
            1
        }
        None => 0,
    }
}

/// The options of `podlab apply`.
#[derive(Debug, Default, PartialEq)]
struct ApplyArgs {
    file: String,
    cluster: Option<String>,
    user: Option<String>,
    as_user: Option<String>,
    as_groups: Vec<String>,
    json: bool,
    seed: u64,
    limit_ms: u64,
}

fn parse_apply_args(args: &[String]) -> Result<ApplyArgs, String> {
    let mut a = ApplyArgs { seed: 1, limit_ms: lab::DEFAULT_LIMIT_MS, ..ApplyArgs::default() };
    let mut i = 0;
    let mut file = None;
    while i < args.len() {
        let arg = args[i].as_str();
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg, None),
        };
        let mut value = || -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            i += 1;
            args.get(i).cloned().ok_or_else(|| format!("flag needs an argument: {name}"))
        };
        match name {
            "-f" | "--filename" => file = Some(value()?),
            "--cluster" => a.cluster = Some(value()?),
            "--user" => a.user = Some(value()?),
            "--as" => a.as_user = Some(value()?),
            "--as-group" => a.as_groups.push(value()?),
            "-o" | "--output" => match value()?.as_str() {
                "json" => a.json = true,
                "text" => a.json = false,
                other => return Err(format!("unknown output format \"{other}\" (text or json)")),
            },
            "--seed" => a.seed = value()?.parse().map_err(|_| "--seed needs a number".to_string())?,
            "--limit-ms" => a.limit_ms = value()?.parse().map_err(|_| "--limit-ms needs a number".to_string())?,
            other => return Err(format!("unknown flag: {other}")),
        }
        i += 1;
    }
    a.file = file.ok_or_else(|| "must specify -f FILE".to_string())?;
    if a.as_user.is_none() && !a.as_groups.is_empty() {
        return Err("--as-group needs --as (kubectl cannot impersonate groups without a user)".into());
    }
    Ok(a)
}

/// The cluster YAML for `--cluster`: a preset name, else a file.
fn cluster_text(spec: &str) -> Result<String, String> {
    if let Some(t) = cluster::preset(spec) {
        return Ok(t.to_string());
    }
    std::fs::read_to_string(spec).map_err(|e| {
        let names: Vec<&str> = cluster::PRESETS.iter().map(|(n, _)| *n).collect();
        format!("--cluster {spec}: not a preset ({}) and not a readable file: {e}", names.join(", "))
    })
}

fn apply(args: &[String], out: &mut dyn Write) -> i32 {
    let a = match parse_apply_args(args) {
        Ok(a) => a,
        Err(e) => {
            let _ = writeln!(out, "error: {e}\n{USAGE}");
            return 2;
        }
    };
    let manifest = match std::fs::read_to_string(&a.file) {
        Ok(t) => t,
        Err(e) => {
            // kubectl's own wording for a missing file.
            let _ = writeln!(out, "error: the path \"{}\" does not exist ({e})", a.file);
            return 1;
        }
    };
    let cluster = match a.cluster.as_deref().map(cluster_text).transpose() {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            return 2;
        }
    };
    let input = LabInput {
        manifest,
        file_name: a.file.clone(),
        cluster,
        user: a.user.clone(),
        identity: a.as_user.clone().map(|user| Identity { user, groups: a.as_groups.clone() }),
        seed: a.seed,
        limit_ms: a.limit_ms,
    };
    let run = match lab::run(&input) {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            return 2;
        }
    };
    if a.json {
        let _ = writeln!(out, "{}", run.to_json());
    } else {
        let _ = out.write_all(render_text(&run, &a.file).as_bytes());
    }
    run.exit_code
}

/// `podlab session`: the script's commands against one live cluster. For each command, the
/// steps it caused, then `$ <command>`, what the terminal shows and `(exit status N)`; after
/// the last one, the steps of the cluster settling, what was not modelled, and `kubectl get
/// pods -o wide`.
fn session(args: &[String], out: &mut dyn Write) -> i32 {
    use podlab_engine::lab::session::{parse_script, Session};
    let a = match parse_apply_args(args) {
        Ok(a) => a,
        Err(e) => {
            let _ = writeln!(out, "error: {e}\n{USAGE}");
            return 2;
        }
    };
    let script = match std::fs::read_to_string(&a.file) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(out, "error: the script \"{}\" cannot be read ({e})", a.file);
            return 1;
        }
    };
    let dir = Path::new(&a.file).parent().map(Path::to_path_buf).unwrap_or_default();
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).ok();
    let commands = match parse_script(&script, &read) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(out, "error: {}: {e}", a.file);
            return 2;
        }
    };
    let cluster = match a.cluster.as_deref().map(cluster_text).transpose() {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            return 2;
        }
    };
    let identity = a.as_user.clone().map(|user| Identity { user, groups: a.as_groups.clone() });
    let mut session = match lab::Loaded::load(cluster.as_deref())
        .and_then(|l| Session::new(&l, a.seed, a.user.as_deref(), identity.as_ref(), a.limit_ms))
    {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            return 2;
        }
    };
    // Every command, and the settling after the last, has the time limit of a run of its
    // own: a long script is not cut short.
    if a.json {
        for c in &commands {
            session.extend_limit(a.limit_ms);
            session.run(c);
        }
        session.extend_limit(a.limit_ms);
        session.settle();
        let mut input = LabInput::new(
            commands.iter().find_map(|c| c.file.as_ref().map(|(_, text)| text.clone())).unwrap_or_default(),
            a.file.clone(),
        );
        input.seed = a.seed;
        input.identity = identity;
        let (run, records) = session.into_run(&input);
        let last_exit = records.last().map(|r| r.exit_code).unwrap_or(0);
        let _ = writeln!(out, "{}", session_json(&run, &records));
        return last_exit;
    }
    let _ = writeln!(
        out,
        "# podlab: session {} ({} commands, Kubernetes {}, seed {})",
        a.file,
        commands.len(),
        podlab_engine::KUBERNETES_VERSION,
        a.seed
    );
    let mut last_exit = 0;
    for c in &commands {
        session.extend_limit(a.limit_ms);
        let record = session.run(c).clone();
        let steps = &session.world().steps[record.first_step..record.end_step];
        let mut s = format!("\n$ {}\n", record.line);
        for step in steps {
            s += &render_step(step);
        }
        s += &format!("{}{}(exit status {})\n", record.stdout, record.stderr, record.exit_code);
        let _ = out.write_all(s.as_bytes());
        last_exit = record.exit_code;
    }
    let from = session.world().steps.len();
    session.extend_limit(a.limit_ms);
    session.settle();
    let mut s = String::from("\n# after the last command, the cluster runs until it settles\n");
    for step in &session.world().steps[from..] {
        s += &render_step(step);
    }
    for n in session.not_modelled() {
        s += &format!("# podlab: not modelled (step {}): {}\n", n.step + 1, n.text);
    }
    let world = session.world();
    let end = podlab_engine::views::Snapshot::new(&world.store, world.store.revision(), world.now);
    let wide = podlab_engine::views::GetOptions { wide: true, all_namespaces: false };
    s += &format!(
        "\n# the cluster at the end ({} of cluster time)\n$ kubectl get pods -o wide\n{}",
        podlab_engine::views::human_duration(world.now as i64),
        end.get_pods("default", wide)
    );
    let _ = out.write_all(s.as_bytes());
    last_exit
}

/// A session as JSON (docs/trace-format.md, "Sessions"): the run's fields, each step with the
/// index of the command it belongs to (`command`; the steps of the cluster settling after the
/// last command have none), and `commands`, what each printed and its range of steps.
fn session_json(run: &lab::Run, records: &[podlab_engine::lab::session::CommandRecord]) -> String {
    let mut value: serde_json::Value = serde_json::from_str(&run.to_json()).unwrap_or_default();
    if let Some(steps) = value.get_mut("steps").and_then(|s| s.as_array_mut()) {
        for (i, r) in records.iter().enumerate() {
            for step in steps.iter_mut().take(r.end_step).skip(r.first_step) {
                step["command"] = serde_json::json!(i);
            }
        }
    }
    value["commands"] = serde_json::json!(records);
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let t: String = s.chars().take(n).collect();
        format!("{t}… ({} bytes)", s.len())
    }
}

/// The trace as text: one block per step (time, phase, arrow, summary) with the key facts of
/// its detail indented, then kubectl's output.
pub fn render_text(run: &Run, file: &str) -> String {
    let mut s = String::new();
    s += &format!(
        "# podlab: kubectl apply -f {file} as {}{} (Kubernetes {}, seed {})\n",
        run.user,
        run.impersonate
            .as_ref()
            .map(|i| {
                let mut t = format!(" --as {}", i.user);
                for g in &i.groups {
                    t += &format!(" --as-group {g}");
                }
                t
            })
            .unwrap_or_default(),
        run.kubernetes_version,
        run.seed
    );
    for step in &run.steps {
        s += &render_step(step);
    }
    s += &format!("\n$ kubectl apply -f {file}\n{}", run.kubectl_output);
    s += &format!("(exit status {})\n", run.exit_code);
    s += &render_not_modelled(run);
    s += &render_tail(run);
    s
}

/// One line per object of the run that a component the lab does not model would act on
/// (`# podlab: not modelled ...`), so the quiet after it is never read as Kubernetes'.
pub fn render_not_modelled(run: &Run) -> String {
    let mut s = String::new();
    for n in &run.not_modelled {
        s += &format!("# podlab: not modelled (step {}): {}\n", n.step + 1, n.text);
    }
    s
}

/// The kinds whose objects `render_tail` describes after the pods, with the resource name
/// kubectl is given: the workloads and storage objects a run creates and the controllers
/// act on.
const DESCRIBED_AFTER_PODS: [(&str, &str); 5] = [
    ("StatefulSet", "statefulset"),
    ("DaemonSet", "daemonset"),
    ("CronJob", "cronjob"),
    ("PersistentVolumeClaim", "pvc"),
    ("PersistentVolume", "pv"),
];

/// What a learner types next, printed from the cluster as the run left it: `kubectl get pods
/// -o wide` (in kubectl's namespace, and in each other namespace where the run created pods),
/// `kubectl describe pod NAME` for every pod the run created, then `kubectl describe
/// statefulset|daemonset|cronjob|pvc|pv NAME` for every object of those kinds the run
/// created (by the manifest or by a controller: a StatefulSet's claims, a provisioned volume).
pub fn render_tail(run: &Run) -> String {
    let store = run.store();
    let end = podlab_engine::views::Snapshot::new(store, run.final_revision, run.end_ms);
    let before = podlab_engine::views::Snapshot::new(store, run.setup_revision, run.end_ms);
    // The objects of a kind created during the run, by namespace (kubectl's first; none for
    // a cluster-scoped kind), in etcd key order.
    let created_of = |kind: &str| {
        let mut created: Vec<(Option<String>, String)> = end
            .list(kind, None)
            .into_iter()
            .filter(|o| before.get(kind, o.namespace(), o.name()).is_none())
            .map(|o| (o.namespace().map(str::to_string), o.name().to_string()))
            .collect();
        created.sort_by_key(|(ns, name)| (ns.as_deref() != Some(run.namespace.as_str()), ns.clone(), name.clone()));
        created
    };
    let created: Vec<(String, String)> =
        created_of("Pod").into_iter().map(|(ns, name)| (ns.unwrap_or_else(|| "default".to_string()), name)).collect();
    let flag = |ns: &str| if ns == run.namespace { String::new() } else { format!(" -n {ns}") };
    let mut namespaces = vec![run.namespace.clone()];
    for (ns, _) in &created {
        if !namespaces.contains(ns) {
            namespaces.push(ns.clone());
        }
    }
    let wide = podlab_engine::views::GetOptions { wide: true, all_namespaces: false };
    let mut s = String::new();
    for ns in &namespaces {
        s += &format!("\n$ kubectl get pods -o wide{}\n{}", flag(ns), end.get_pods(ns, wide));
    }
    for (ns, name) in &created {
        if let Some(d) = end.describe_pod(ns, name) {
            s += &format!("\n$ kubectl describe pod {name}{}\n{d}", flag(ns));
        }
    }
    for (kind, resource) in DESCRIBED_AFTER_PODS {
        for (ns, name) in created_of(kind) {
            let ns = ns.as_deref();
            let described = match (kind, ns) {
                ("StatefulSet", Some(ns)) => end.describe_statefulset(ns, &name),
                ("DaemonSet", Some(ns)) => end.describe_daemonset(ns, &name),
                ("CronJob", Some(ns)) => end.describe_cronjob(ns, &name),
                ("PersistentVolumeClaim", Some(ns)) => end.describe_pvc(ns, &name),
                ("PersistentVolume", None) => end.describe_pv(&name),
                _ => None,
            };
            if let Some(d) = described {
                s += &format!("\n$ kubectl describe {resource} {name}{}\n{d}", ns.map(flag).unwrap_or_default());
            }
        }
    }
    // Autoscalers: their TARGETS and REPLICAS columns say what the controller could read.
    let mut hpa_namespaces: Vec<String> = Vec::new();
    for (ns, _) in created_of("HorizontalPodAutoscaler") {
        let ns = ns.unwrap_or_else(|| "default".to_string());
        if !hpa_namespaces.contains(&ns) {
            hpa_namespaces.push(ns);
        }
    }
    for ns in &hpa_namespaces {
        s += &format!("\n$ kubectl get hpa{}\n{}", flag(ns), end.get_hpas(ns, Default::default()));
    }
    s
}

fn render_step(step: &Step) -> String {
    let mark = match step.status {
        StepStatus::Ok => " ",
        StepStatus::Warning => "!",
        StepStatus::Failed => "✗",
    };
    let arrow = if step.from == step.to {
        step.from.title().to_string()
    } else {
        format!("{} → {}", step.from.title(), step.to.title())
    };
    let node = step.node.as_ref().map(|n| format!(" [{n}]")).unwrap_or_default();
    let mut s = format!(
        "{mark} {:>8.3}s  {:<20} {arrow}{node}\n             {}\n",
        step.time_ms as f64 / 1000.0,
        step.phase.title(),
        step.summary
    );
    let mut fact = |k: &str, v: String| {
        for (i, line) in v.lines().enumerate() {
            if i == 0 {
                s += &format!("               {k}: {line}\n");
            } else {
                s += &format!("               {:width$}  {line}\n", "", width = k.chars().count());
            }
        }
    };
    match &step.detail {
        Detail::Note { text } => fact("note", text.clone()),
        Detail::Request(r) => {
            let q = if r.query.is_empty() {
                String::new()
            } else {
                format!("?{}", r.query.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&"))
            };
            fact("request", format!("{} {}{q}", r.method, r.path));
            for (k, v) in &r.headers {
                fact("header", format!("{k}: {v}"));
            }
            if !r.body.is_empty() {
                fact("body", truncate(&r.body, 160));
            }
        }
        Detail::Response(r) => {
            fact("response", format!("{} {}", r.code, r.status_text));
            if !r.kubectl.is_empty() {
                fact("kubectl prints", r.kubectl.clone());
            }
        }
        Detail::Authentication(a) => {
            fact("method", a.method.clone());
            if a.authenticated {
                fact("user", format!("{} groups={:?}", a.user.username, a.user.groups));
            }
            if let Some(by) = &a.impersonated_by {
                fact("impersonated by", by.username.clone());
            }
            fact("why", a.explanation.clone());
        }
        Detail::Authorization(a) => {
            let at = &a.attributes;
            let mut what = format!("{} {}", at.verb, at.resource);
            if !at.subresource.is_empty() {
                what += &format!("/{}", at.subresource);
            }
            if !at.api_group.is_empty() {
                what += &format!(" (group {})", at.api_group);
            }
            if !at.namespace.is_empty() {
                what += &format!(" in namespace {}", at.namespace);
            }
            if !at.name.is_empty() {
                what += &format!(" named {}", at.name);
            }
            fact("request", format!("{} may {what}?", at.user.username));
            fact("decision", format!("{} by {}", if a.allowed { "allowed" } else { "denied" }, a.authorizer));
            if let Some(m) = &a.matched {
                let ns = m.binding_namespace.as_ref().map(|n| format!("{n}/")).unwrap_or_default();
                fact(
                    "binding",
                    format!(
                        "{} {ns}{} → {} {} (subject {})",
                        m.binding_kind, m.binding_name, m.role_kind, m.role_name, m.subject
                    ),
                );
                fact("rule", format!("#{} {}", m.rule_index, m.rule));
            }
            if !a.considered.is_empty() && !a.allowed {
                for c in &a.considered {
                    fact("considered", c.clone());
                }
            }
            fact("message", a.message.clone());
        }
        Detail::Admission(a) => {
            fact("plugin", format!("{} ({} pass: {})", a.plugin, id(&a.stage), id(&a.verdict)));
            for c in &a.changes {
                fact(
                    "change",
                    format!(
                        "{}: {} → {}",
                        c.path,
                        c.before.clone().unwrap_or_else(|| "(none)".into()),
                        c.after.clone().unwrap_or_else(|| "(removed)".into())
                    ),
                );
            }
            if let Some(m) = &a.message {
                fact("message", m.clone());
            }
            for w in &a.warnings {
                fact("warning", w.clone());
            }
            if !a.explanation.is_empty() {
                fact("why", a.explanation.clone());
            }
        }
        Detail::Validation(v) => {
            for c in &v.defaults {
                fact("set", format!("{} = {}", c.path, c.after.clone().unwrap_or_default()));
            }
            for e in &v.errors {
                if e.field.is_empty() {
                    fact("error", e.message.clone());
                } else {
                    fact("error", format!("{}: {}", e.field, e.message));
                }
            }
        }
        Detail::Etcd(e) => {
            fact("etcd", format!("{} {} (revision {})", id(&e.operation), e.key, e.revision));
            if let Some(err) = &e.error {
                fact("error", err.clone());
            }
        }
        Detail::ApiCall(c) => {
            fact("user", c.user.username.clone());
            fact("authorized", format!("{} by {}: {}", c.allowed, c.authorizer, c.authorization));
            if !c.mutated_by.is_empty() {
                fact("mutated by", c.mutated_by.join(", "));
            }
            if let Some(e) = &c.error {
                fact("error", e.clone());
            }
            if let Some(e) = &c.etcd {
                fact("etcd", format!("{} revision {}", e.key, e.revision));
            }
        }
        Detail::Watch(w) => {
            fact("watch", format!("{} {} {} (revision {}): {}", w.watcher, w.event, w.key, w.revision, w.reason))
        }
        Detail::Controller(c) => {
            fact("observed", c.observed.clone());
            fact("desired", c.desired.clone());
            for a in &c.actions {
                fact("action", a.clone());
            }
        }
        Detail::Schedule(sd) => {
            if let Some(n) = &sd.chosen {
                fact("chosen", n.clone());
            }
            if let Some(m) = &sd.message {
                fact("message", m.clone());
            }
        }
        Detail::Event(e) => fact("event", format!("{} {} ({}): {}", e.event_type, e.reason, e.from, e.message)),
        Detail::Work(w) => {
            for (k, v) in &w.facts {
                fact(k, v.clone());
            }
        }
    }
    s
}

/// A value's serde name (`mutating`, `not-applicable`, `create`).
fn id<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

/// Where the kubernetes.io example manifests are when `../shared` sits beside the project.
pub fn default_examples_dir() -> PathBuf {
    for base in [Path::new("../shared"), Path::new("../../shared"), Path::new("../../../shared")] {
        let p = base.join("conformance/website-examples");
        if p.is_dir() {
            return p;
        }
    }
    PathBuf::from("../shared/conformance/website-examples")
}

/// The corpus report: every example file applied on the default cluster as kubernetes-admin.
#[derive(Debug, Default)]
pub struct Report {
    pub text: String,
    pub files: usize,
    pub documents: usize,
    pub accepted_files: usize,
    /// Rejections a real kind cluster would give too (a namespace or kind the example expects
    /// someone to create first).
    pub expected: usize,
    /// Rejections that are the lab's fault.
    pub ours: usize,
    /// With `--runtime`: how many pods of the accepted files end in each state (kubectl's
    /// STATUS column; `Pending` split by why: `Pending (FailedScheduling)` or not scheduled yet).
    pub pod_states: std::collections::BTreeMap<String, usize>,
    /// Objects of the runs that a component the lab does not model would act on, counted by
    /// that component (every one announced in its run).
    pub not_modelled: std::collections::BTreeMap<String, usize>,
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().and_then(|n| n.to_str()) != Some("_newer-unverified") {
                yaml_files(&p, out);
            }
        } else if p.extension().and_then(|e| e.to_str()) == Some("yaml") {
            out.push(p);
        }
    }
}

/// API groups a v1.37 cluster serves (kinds of other groups need a CRD first).
fn builtin_group(group: &str) -> bool {
    matches!(group, "" | "apps" | "batch" | "autoscaling" | "policy")
        || (group.ends_with(".k8s.io") && !group.ends_with(".x-k8s.io"))
}

/// Whether a rejection is one a fresh kind cluster gives as well: an object the example
/// expects someone to create first (a namespace, refused by NamespaceLifecycle; a service
/// account, refused by the ServiceAccount plugin), a template whose `$PLACEHOLDER`s were meant
/// to be substituted first (refused by validation), or a kind of a group no cluster serves
/// without a CRD (kind.x-k8s.io's Cluster config, custom resources).
fn expected_rejection(line: &str) -> bool {
    let line = line.trim_start_matches("error: ");
    if line.starts_with("Error from server (NotFound)") && line.contains("namespaces \"") {
        return true;
    }
    if line.starts_with("Error from server (Forbidden)") && line.contains("error looking up service account") {
        return true;
    }
    if line.contains("is invalid") && line.contains("Invalid value: \"") && line.contains('$') {
        return true;
    }
    if let Some(rest) = line.split("no matches for kind \"").nth(1) {
        let version = rest.split("in version \"").nth(1).and_then(|v| v.split('"').next()).unwrap_or("");
        let group = version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
        return !builtin_group(group);
    }
    false
}

/// Applies every `.yaml` under `dir` (except `_newer-unverified/`); `None` when `dir` does
/// not exist.
pub fn website_report(dir: &Path) -> Option<Report> {
    website_report_with(dir, false)
}

/// The final `kubectl get pods` rows of the pods a run created (all namespaces): `NAMESPACE/NAME
/// READY STATUS RESTARTS NODE`, with the reason of a pod left Pending.
fn runtime_rows(run: &Run, states: &mut std::collections::BTreeMap<String, usize>) -> String {
    use podlab_engine::object::Object;
    use podlab_engine::views::{pod_summary, Snapshot};
    let end = Snapshot::new(run.store(), run.final_revision, run.end_ms);
    let before = Snapshot::new(run.store(), run.setup_revision, run.end_ms);
    let failed_scheduling: Vec<String> = end
        .list("Event", None)
        .into_iter()
        .filter_map(|o| match o {
            Object::Event(e) if e.reason.as_deref() == Some("FailedScheduling") => {
                Some(e.involved_object.name.clone().unwrap_or_default())
            }
            _ => None,
        })
        .collect();
    let mut out = String::new();
    for o in end.list("Pod", None) {
        let Object::Pod(p) = o else { continue };
        if before.get("Pod", o.namespace(), o.name()).is_some() {
            continue;
        }
        let sum = pod_summary(p);
        let node = p.spec.as_ref().and_then(|s| s.node_name.clone()).unwrap_or_else(|| "<none>".into());
        let mut state = sum.status.clone();
        if state == "Pending" && node == "<none>" {
            state = if failed_scheduling.iter().any(|n| n == o.name()) {
                "Pending (FailedScheduling)".into()
            } else {
                "Pending (not scheduled)".into()
            };
        }
        *states.entry(state.clone()).or_default() += 1;
        out += &format!(
            "           {}/{} {}/{} {state} {} {node}\n",
            o.namespace().unwrap_or(""),
            o.name(),
            sum.ready,
            sum.total,
            sum.restarts
        );
    }
    out
}

/// [`website_report`], with `runtime`: each accepted file's pods as they end
/// ([`runtime_rows`]) and a count of their states.
pub fn website_report_with(dir: &Path, runtime: bool) -> Option<Report> {
    if !dir.is_dir() {
        return None;
    }
    let mut files = Vec::new();
    yaml_files(dir, &mut files);
    let mut r = Report::default();
    let mut lines = String::new();
    // Every file runs on the default cluster: it is loaded once and copied for each run.
    let mut loaded = None;
    for path in &files {
        let rel = path.strip_prefix(dir).unwrap_or(path).display().to_string();
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("x.yaml").to_string();
        let run = match lab::run_reusing(&mut loaded, &LabInput::new(text, name)) {
            Ok(run) => run,
            Err(e) => {
                lines += &format!("OURS     {rel}: lab error: {e}\n");
                r.ours += 1;
                r.files += 1;
                continue;
            }
        };
        r.files += 1;
        r.documents += run.documents.len();
        if run.exit_code == 0 {
            r.accepted_files += 1;
            let ok: Vec<&str> = run.documents.iter().map(|d| d.outcome.as_str()).collect();
            lines += &format!("ok       {rel}: {}\n", ok.join(", "));
            for n in &run.not_modelled {
                *r.not_modelled.entry(n.component.clone()).or_default() += 1;
                lines += &format!("           not modelled: {} {} ({})\n", n.object.kind, n.object.name, n.component);
            }
            if runtime {
                lines += &runtime_rows(&run, &mut r.pod_states);
            }
        } else {
            let failed: Vec<String> = run.documents.iter().filter(|d| !d.accepted).map(|d| d.outcome.clone()).collect();
            let all_expected = !failed.is_empty() && failed.iter().all(|l| expected_rejection(l));
            let tag = if all_expected {
                r.expected += 1;
                "expected"
            } else {
                r.ours += 1;
                "OURS    "
            };
            let shown = if failed.is_empty() {
                run.kubectl_output.trim_end().replace('\n', " | ")
            } else {
                failed.join(" | ").replace('\n', " ")
            };
            lines += &format!("{tag} {rel}: {shown}\n");
        }
    }
    r.text = format!(
        "{lines}\nwebsite examples: {} files ({} documents): {} accepted, {} rejected as a fresh kind cluster would, {} rejected by the lab's fault\n",
        r.files, r.documents, r.accepted_files, r.expected, r.ours
    );
    if !r.not_modelled.is_empty() {
        let total: usize = r.not_modelled.values().sum();
        let by: Vec<String> = r.not_modelled.iter().map(|(c, n)| format!("{n} {c}")).collect();
        r.text += &format!("objects announced as not modelled: {total}: {}\n", by.join(", "));
    }
    if runtime {
        let total: usize = r.pod_states.values().sum();
        let states: Vec<String> = r.pod_states.iter().map(|(s, n)| format!("{n} {s}")).collect();
        r.text += &format!("pods of the accepted files at the end: {total}: {}\n", states.join(", "));
    }
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    fn check(args: &[&str], expect: Expect) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let out = match parse_apply_args(&args) {
            Ok(a) => format!("{a:?}"),
            Err(e) => format!("error: {e}"),
        };
        expect.assert_eq(&out);
    }

    #[test]
    fn flags() {
        check(
            &[
                "-f",
                "pod.yaml",
                "--cluster=rbac-alice",
                "--as",
                "alice",
                "--as-group",
                "dev",
                "--as-group=ops",
                "-o",
                "json",
                "--seed",
                "7",
            ],
            expect![[
                r#"ApplyArgs { file: "pod.yaml", cluster: Some("rbac-alice"), user: None, as_user: Some("alice"), as_groups: ["dev", "ops"], json: true, seed: 7, limit_ms: 300000 }"#
            ]],
        );
        check(&["--cluster", "kind"], expect![[r#"error: must specify -f FILE"#]]);
        check(
            &["-f", "x", "--as-group", "g"],
            expect![[r#"error: --as-group needs --as (kubectl cannot impersonate groups without a user)"#]],
        );
        check(&["-f", "x", "-o", "yaml"], expect![[r#"error: unknown output format "yaml" (text or json)"#]]);
        check(&["-f", "x", "--bogus"], expect![[r#"error: unknown flag: --bogus"#]]);
        check(&["-f"], expect![[r#"error: flag needs an argument: -f"#]]);
    }
}
