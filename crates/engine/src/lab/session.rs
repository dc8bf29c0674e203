//! A live session: several commands, one after another, against one simulated cluster on
//! one clock (issue 25's first slice). Where [`super::run`] plays one `kubectl apply` and lets
//! the cluster settle, a [`Session`] keeps the cluster's actors alive between commands:
//!
//! - `kubectl apply -f FILE` runs until kubectl has its last answer (the controllers, the
//!   scheduler and the kubelets go on reacting meanwhile, as they would);
//! - `kubectl delete TYPE NAME` sends the DELETE (propagation `Background`, kubectl's default
//!   cascade), prints `pod "web-1" deleted from default namespace`, then waits, as kubectl
//!   does by default (`--wait=true`), until the object is gone: cluster time passes while the
//!   kubelet stops the Pod and the controllers react;
//! - `kubectl get TYPE [NAME...] [-l SELECTOR] [-o wide|name|yaml|json] [-n NS | -A]` lists
//!   (or GETs each name) through the API server (its request is traced like any other) and
//!   prints kubectl's table, names, or the stored objects (one alone, several in a `List`);
//!   with `-w`/`--watch` (`--watch-only`, `--output-watch-events`) it then prints every watch
//!   event on those objects while the cluster runs, until it is quiet (`session/watch.rs`);
//! - `get`, `delete` and `describe` read their arguments as kubectl's resource builder does
//!   (`session/builder.rs`): several types (`get deployment,service`, `get deploy/web
//!   svc/web`, `delete deployment,service web`, `-l` over several types), `get all`;
//! - `--dry-run=none|client|server` on the commands that write (`session/dry_run.rs`);
//! - `kubectl scale TYPE NAME --replicas=N` GETs the object and patches its `scale`
//!   subresource;
//! - `kubectl create -f FILE` / `kubectl replace -f FILE` POST / PUT each document;
//! - `kubectl label|annotate TYPE NAME k=v k- [--overwrite]` GET, then merge-patch the
//!   metadata (a Pod labelled out of its ReplicaSet's selector is released and replaced);
//! - `kubectl set image TYPE/NAME CONTAINER=IMAGE` patches the Pod template;
//! - `kubectl rollout status|history|undo|restart|pause|resume deployment/NAME` (and
//!   `statefulset/NAME`, `daemonset/NAME`: history and undo from their ControllerRevisions,
//!   pause and resume refused as kubectl refuses them): status prints a line each time the
//!   object changes while cluster time passes;
//! - `kubectl describe TYPE [NAME]` GETs the object and prints its describer's text;
//! - `kubectl cordon|uncordon NODE` and `kubectl taint nodes NODE k=v:Effect | k:Effect-`;
//! - `kubectl drain NODE [--ignore-daemonsets] [--delete-emptydir-data] [--force]
//!   [--grace-period=N] [--timeout=D] [--disable-eviction] [--pod-selector=S] [--dry-run=client|server]`
//!   (or `kubectl drain -l SELECTOR ...` for the nodes a label selector picks):
//!   cordons, then evicts the node's Pods through the Eviction API (PodDisruptionBudgets may
//!   refuse; kubectl retries every 5 s while cluster time passes), see `session/drain.rs`;
//! - `kubectl patch TYPE NAME -p PATCH [--type=strategic|merge|json]` (`session/patch.rs`);
//! - `kubectl logs POD|TYPE/NAME [-c C] [-p] [--tail=N]`, `kubectl exec POD [-c C] -- CMD...`,
//!   `kubectl auth can-i VERB RESOURCE [NAME]` and `kubectl api-resources`
//!   (`session/inspect.rs`);
//! - `sleep DURATION` lets cluster time pass (`10`, `10s`, `2m`, `1m30s`).
//!
//! `get` and `delete` live in `session/builder.rs`; the commands beyond apply, get, delete and
//! scale in `session/verbs.rs`, `session/patch.rs`, `session/inspect.rs`, `session/drain.rs`
//! and `session/watch.rs`; each declares its
//! `Kubectl-Command` header, field manager and patch type on its requests. `session/kinds.rs`
//! maps kubectl's resource names to the served kinds (and says which types only a real cluster serves).
//!
//! After the last command the cluster runs until it settles, as a one-command run does. Each
//! command's output and exit status are kept with the range of steps it caused
//! ([`CommandRecord`]). A command the session does not know gets kubectl's own error, or for
//! anything that is not kubectl or `sleep`, a plain statement that the lab does not run it.

use super::{kubectl_caller, start_kubelets, LabError, Loaded};
use crate::apiserver::{self, ApiRequest, Body, Caller, KubectlCommand, Verb};
use crate::controllers::ControllerManager;
use crate::errors::{kubectl_stderr, CommandError};
use crate::kubectl::{ApplyOptions, KubectlApply};
use crate::kubelet::Kubelet;
use crate::object::{resource_for_kind, ResourceInfo};
use crate::rng::Rng;
use crate::scheduler::actor::SchedulerActor;
use crate::sim::{has_task_for, run_loop_from, run_until, Actor, Target};
use crate::views::{GetOptions, Snapshot};
use crate::world::World;
use kinds::{no_type, resource_named};
use serde::Serialize;
use std::collections::BTreeMap;

mod builder;
mod drain;
mod dry_run;
mod inspect;
pub(crate) mod kinds;
mod outage;
mod patch;
mod power;
mod verbs;
mod watch;

/// How long kubectl waits for a deletion by default (`--timeout=0s`: a week; the session's
/// time limit cuts it first).
const DELETE_POLL_LIMIT_MS: u64 = 7 * 24 * 3600 * 1000;

/// One command of a session as typed, with its input file when it reads one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionCommand {
    /// The command line (`kubectl apply -f app.yaml`).
    pub line: String,
    /// The text of the file it names (`-f FILE` or a heredoc), and the file's name.
    pub file: Option<(String, String)>,
}

/// What one command printed and which steps it caused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CommandRecord {
    pub line: String,
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
    /// The cluster time when the command started and when its output was complete.
    pub start_ms: u64,
    pub end_ms: u64,
    /// The steps recorded while it ran: `steps[first_step..end_step]`.
    pub first_step: usize,
    pub end_step: usize,
}

/// A live cluster and the commands run against it.
pub struct Session {
    world: World,
    controllers: ControllerManager,
    announcer: crate::consumers::Announcer,
    scheduler: SchedulerActor,
    kubelets: Vec<Kubelet>,
    caller: Caller,
    namespace: String,
    delivered: u64,
    limit_ms: u64,
    /// The components stopped with `lab stop` (`kube-scheduler`, `kube-controller-manager`,
    /// `kubelet/<node>`): left out of the loop, so their queued work is lost and they miss
    /// every watch event until `lab start`, when they relist.
    stopped: std::collections::BTreeSet<String>,
    /// The kubectl command running (its header, field manager and patch type), for the
    /// commands other than apply, get, delete and scale.
    command: Option<KubectlCommand>,
    pub commands: Vec<CommandRecord>,
    /// The etcd revision of the starting cluster, before any command.
    setup_revision: u64,
    /// The session's first `kubectl apply`, kept for [`Session::into_run`].
    first_apply: Option<(KubectlApply, (String, String, String, i32))>,
    /// The kubeconfig user kubectl acts as.
    user: String,
    /// kubectl's log lines (klog) of the running command, printed first on its standard error.
    log: String,
}

/// kubectl's name for a kind in its messages: `deployment.apps`, `pod`.
fn kind_string(res: &ResourceInfo) -> String {
    if res.group.is_empty() {
        res.kind.to_ascii_lowercase()
    } else {
        format!("{}.{}", res.kind.to_ascii_lowercase(), res.group)
    }
}

/// One requirement of an equality-based label selector (`-l app=web,tier!=db,canary,!old`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SelectorOp {
    Equals,
    NotEquals,
    Exists,
    DoesNotExist,
}

/// Reads `-l`'s selector; set-based requirements (`in`, `notin`) are not read by the lab.
fn parse_selector(text: &str) -> Result<Vec<(String, SelectorOp, String)>, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if part.contains(" in ") || part.contains(" notin ") || part.contains('(') {
            return Err(format!(
                "the lab reads equality-based selectors only (k=v, k!=v, k, !k); a real kubectl also reads \"{part}\""
            ));
        }
        let req = if let Some((k, v)) = part.split_once("!=") {
            (k.trim().to_string(), SelectorOp::NotEquals, v.trim().to_string())
        } else if let Some((k, v)) = part.split_once("==").or_else(|| part.split_once('=')) {
            (k.trim().to_string(), SelectorOp::Equals, v.trim().to_string())
        } else if let Some(k) = part.strip_prefix('!') {
            (k.trim().to_string(), SelectorOp::DoesNotExist, String::new())
        } else {
            (part.to_string(), SelectorOp::Exists, String::new())
        };
        out.push(req);
    }
    Ok(out)
}

/// Whether `labels` meet every requirement of a parsed `-l` selector.
fn selector_matches(wanted: &[(String, SelectorOp, String)], labels: Option<&BTreeMap<String, String>>) -> bool {
    wanted.iter().all(|(k, op, v)| {
        let value = labels.and_then(|l| l.get(k));
        match op {
            SelectorOp::Equals => value == Some(v),
            SelectorOp::NotEquals => value != Some(v),
            SelectorOp::Exists => value.is_some(),
            SelectorOp::DoesNotExist => value.is_none(),
        }
    })
}

/// A duration as the shell's `sleep` and kubectl read it: `30`, `30s`, `2m`, `1m30s`, `1h`.
pub fn parse_duration_ms(text: &str) -> Option<u64> {
    if let Ok(s) = text.parse::<u64>() {
        return Some(s * 1000);
    }
    let mut total = 0u64;
    let mut number = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let n: u64 = number.parse().ok()?;
        number.clear();
        total += n * match c {
            's' => 1000,
            'm' => 60_000,
            'h' => 3_600_000,
            _ => return None,
        };
    }
    number.is_empty().then_some(total)
}

/// The words of a command line, quotes removed (no variables, globs or pipes: the lab runs
/// one command a line).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            None => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Flags of a kubectl command: `--name=value`, `--name value`, `-n value`, and the rest.
struct Flags {
    args: Vec<String>,
    flags: Vec<(String, Option<String>)>,
}

/// Flags that take a value (the others are booleans).
const VALUED: &[&str] = &[
    "-n",
    "--namespace",
    "-o",
    "--output",
    "-f",
    "--filename",
    "--replicas",
    "-l",
    "--selector",
    "--timeout",
    "--revision",
    "--to-revision",
    "--grace-period",
    "--pod-selector",
];

fn parse_flags(words: &[String]) -> Flags {
    let mut args = Vec::new();
    let mut flags = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if let Some((name, value)) = w.split_once('=').filter(|_| w.starts_with('-')) {
            flags.push((name.to_string(), Some(value.to_string())));
        } else if w.starts_with('-') && w.len() > 1 {
            if VALUED.contains(&w.as_str()) {
                flags.push((w.clone(), words.get(i + 1).cloned()));
                i += 1;
            } else {
                flags.push((w.clone(), None));
            }
        } else {
            args.push(w.clone());
        }
        i += 1;
    }
    Flags { args, flags }
}

impl Flags {
    fn value(&self, names: &[&str]) -> Option<&str> {
        self.flags.iter().rev().find(|(n, _)| names.contains(&n.as_str())).and_then(|(_, v)| v.as_deref())
    }
    fn has(&self, names: &[&str]) -> bool {
        self.flags.iter().any(|(n, _)| names.contains(&n.as_str()))
    }
    /// The first flag not in `known`, for kubectl's `unknown flag` error.
    fn unknown(&self, known: &[&str]) -> Option<&str> {
        self.flags.iter().map(|(n, _)| n.as_str()).find(|n| !known.contains(n))
    }
}

/// What a command printed.
#[derive(Default)]
struct Output {
    stdout: String,
    stderr: String,
    exit: i32,
}

impl Output {
    fn error(text: impl Into<String>) -> Output {
        let mut t = text.into();
        if !t.ends_with('\n') {
            t.push('\n');
        }
        Output { stdout: String::new(), stderr: t, exit: 1 }
    }
}

impl Session {
    /// A session on `loaded`, kubectl acting as `user` (the settings' current user when
    /// `None`), impersonating `identity` when given.
    pub fn new(
        loaded: &Loaded,
        seed: u64,
        user: Option<&str>,
        identity: Option<&super::Identity>,
        limit_ms: u64,
    ) -> Result<Session, LabError> {
        let mut world = loaded.core.clone();
        world.rng = Rng::new(seed);
        let settings = &loaded.settings;
        let (user, caller) = kubectl_caller(settings, user, identity)?;
        let setup_revision = world.store.revision();
        let mut scheduler = SchedulerActor::default();
        scheduler.start(&mut world);
        let kubelets = start_kubelets(&mut world, settings);
        let delivered = world.store.revision();
        Ok(Session {
            world,
            controllers: ControllerManager::new(),
            announcer: crate::consumers::Announcer::default(),
            scheduler,
            kubelets,
            caller,
            namespace: settings.context_namespace().to_string(),
            delivered,
            limit_ms,
            stopped: Default::default(),
            command: None,
            commands: Vec::new(),
            setup_revision,
            first_apply: None,
            user,
            log: String::new(),
        })
    }

    /// The cluster as it stands.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The components stopped with `lab stop` (`kube-scheduler`, `kubelet/kind-worker`), in
    /// name order; a node powered off with `lab power-off` is listed as `node/<node>`, and
    /// its kubelet as `kubelet/<node>` beside it.
    pub fn stopped(&self) -> Vec<String> {
        self.stopped.iter().cloned().collect()
    }

    /// The objects announced as not modelled so far.
    pub fn not_modelled(&self) -> &[crate::consumers::NotModelled] {
        &self.announcer.found
    }

    /// Runs the cluster, with `extra` as one more actor (kubectl apply), until `done` holds
    /// or the clock reaches `until_ms`. Stopped components take no part.
    fn advance(
        &mut self,
        extra: Option<&mut dyn Actor<World>>,
        until_ms: u64,
        done: impl FnMut(&mut World) -> bool,
    ) -> bool {
        let mut actors: Vec<&mut dyn Actor<World>> = Vec::new();
        if let Some(e) = extra {
            actors.push(e);
        }
        Self::running(&self.stopped, &mut self.controllers, &mut self.scheduler, &mut self.kubelets, &mut actors);
        actors.push(&mut self.announcer);
        run_until(&mut self.world, &mut actors, &mut self.delivered, until_ms.min(self.limit_ms), done)
    }

    /// The components not stopped, as actors.
    fn running<'a>(
        stopped: &std::collections::BTreeSet<String>,
        controllers: &'a mut ControllerManager,
        scheduler: &'a mut SchedulerActor,
        kubelets: &'a mut [Kubelet],
        actors: &mut Vec<&'a mut dyn Actor<World>>,
    ) {
        // Without the API server, the controllers and the scheduler see no event and can
        // write nothing: they wait (and start over once it is back).
        let api_down = outage::API_PATH.iter().any(|c| stopped.contains(*c));
        if !stopped.contains("kube-controller-manager") && !api_down {
            actors.push(controllers);
        }
        if !stopped.contains("kube-scheduler") && !api_down {
            actors.push(scheduler);
        }
        for k in kubelets.iter_mut() {
            if !stopped.contains(&format!("kubelet/{}", k.node_name())) {
                actors.push(k);
            }
        }
    }

    /// Runs one command at the current cluster time.
    pub fn run(&mut self, command: &SessionCommand) -> &CommandRecord {
        let start_ms = self.world.now;
        let first_step = self.world.steps.len();
        let w = words(&command.line);
        self.log.clear();
        let out = match w.first().map(String::as_str) {
            None => Output::default(),
            Some("kubectl") => self.kubectl(&w[1..], command),
            Some("sleep") => self.sleep(&w[1..]),
            Some("lab") => self.lab(&w[1..]),
            Some(other) => Output::error(format!(
                "podlab: {other}: the lab runs kubectl commands and sleep only; in a real terminal this would run the program {other}"
            )),
        };
        let mut out = out;
        out.stderr.insert_str(0, &std::mem::take(&mut self.log));
        if out.exit != 0 && out.stderr.is_empty() && self.world.now >= self.limit_ms {
            // kubectl was cut off by the session's time limit before it had its answers.
            out.stderr = format!(
                "podlab: the session reached its time limit ({} of cluster time) before kubectl had all its answers; the lab stops the cluster there\n",
                crate::controllers::util::go_duration(self.limit_ms as i64)
            );
        }
        self.commands.push(CommandRecord {
            line: command.line.clone(),
            stdout: out.stdout,
            stderr: out.stderr,
            exit_code: out.exit,
            start_ms,
            end_ms: self.world.now,
            first_step,
            end_step: self.world.steps.len(),
        });
        self.commands.last().expect("just pushed")
    }

    /// Moves the session's time limit to `ms` after now: the page lets the cluster settle
    /// after each command, each with the time a one-command run has.
    pub fn extend_limit(&mut self, ms: u64) {
        self.limit_ms = self.world.now.saturating_add(ms);
    }

    /// The session as a [`Run`]: every step of every command, the first command's kubectl
    /// output and documents (a session whose first command is `kubectl apply -f FILE` of
    /// `input`'s manifest, settled, is that manifest's run step for step), the cluster as it
    /// stands, and the command records.
    pub fn into_run(mut self, input: &super::LabInput) -> (super::Run, Vec<CommandRecord>) {
        let (first, (stdout, stderr, kubectl_output, exit_code)) = match self.first_apply.take() {
            Some((k, out)) => (Some(k), out),
            None => (None, Default::default()),
        };
        let run = super::Run {
            kubernetes_version: crate::KUBERNETES_VERSION,
            seed: input.seed,
            file_name: input.file_name.clone(),
            user: self.user.clone(),
            impersonate: input.identity.clone(),
            namespace: self.namespace.clone(),
            setup_revision: self.setup_revision,
            steps: std::mem::take(&mut self.world.steps),
            documents: first.as_ref().map(|k| k.results.clone()).unwrap_or_default(),
            stdout,
            stderr,
            kubectl_output,
            output_lines: first.map(|k| k.lines).unwrap_or_default(),
            exit_code,
            end_ms: self.world.now,
            final_revision: self.world.store.revision(),
            not_modelled: std::mem::take(&mut self.announcer.found),
            manifest: input.manifest.clone(),
            core: self.world.core,
        };
        (run, self.commands)
    }

    /// After the last command: the cluster runs until it settles (or the time limit).
    pub fn settle(&mut self) {
        let mut actors: Vec<&mut dyn Actor<World>> = Vec::new();
        Self::running(&self.stopped, &mut self.controllers, &mut self.scheduler, &mut self.kubelets, &mut actors);
        actors.push(&mut self.announcer);
        run_loop_from(&mut self.world, &mut actors, &mut self.delivered, self.limit_ms);
    }

    /// `lab stop|start COMPONENT`: the lab's shortcut for what an operator would do on the
    /// node (move a static Pod's manifest out of `/etc/kubernetes/manifests` and back, or
    /// `systemctl stop kubelet`).
    fn lab(&mut self, args: &[String]) -> Output {
        let usage = "usage: lab stop|start kube-apiserver|etcd|kube-scheduler|kube-controller-manager|kubelet NODE\n       lab stop control-plane-component\n       lab power-off|power-on NODE";
        if let Some(action @ ("power-off" | "power-on")) = args.first().map(String::as_str) {
            return self.power(action, args.get(1), usage);
        }
        let (Some(action), Some(what)) = (args.first(), args.get(1)) else { return Output::error(usage) };
        if action != "stop" && action != "start" {
            return Output::error(usage);
        }
        if what == "control-plane-component" && action == "stop" {
            return self.stop_unnamed();
        }
        let component = match what.as_str() {
            "kube-apiserver" | "etcd" | "kube-scheduler" | "kube-controller-manager" => what.clone(),
            "kubelet" => {
                let Some(node) = args.get(2) else { return Output::error(usage) };
                if !self.kubelets.iter().any(|k| k.node_name() == node) {
                    return Output::error(format!("lab: no node named {node} in this cluster"));
                }
                if self.powered_off(node) {
                    return Output::error(format!(
                        "lab: {node} is powered off: its kubelet runs again when the machine boots (lab power-on {node})"
                    ));
                }
                format!("kubelet/{node}")
            }
            other => return Output::error(format!("lab: unknown component {other}\n{usage}")),
        };
        let how = match (what.as_str(), action.as_str()) {
            ("kubelet", _) => format!("as `systemctl {action} kubelet` on {} does", args[2]),
            (_, "stop") => format!(
                "as when /etc/kubernetes/manifests/{what}.yaml is moved away on kind-control-plane and the kubelet stops the static Pod"
            ),
            _ => format!(
                "as when /etc/kubernetes/manifests/{what}.yaml is put back on kind-control-plane and the kubelet starts the static Pod"
            ),
        };
        let running = !self.stopped.contains(&component);
        let was_down = self.api_down();
        let text = if action == "stop" {
            if !running {
                return Output { stdout: format!("{component} is already stopped\n"), ..Output::default() };
            }
            self.stopped.insert(component.clone());
            let what_stops = match what.as_str() {
                "kube-apiserver" => "every client's connection is refused: kubectl's, the controllers' and the scheduler's (they see no watch event and can write nothing), the kubelets' (they keep running their Pods' containers and retry their status writes)".to_string(),
                "etcd" => "kube-apiserver can no longer read or write anything; its /livez check fails, the kubelet on kind-control-plane restarts it and it exits at start, so every client's connection is refused: kubectl's, the controllers' and the scheduler's, the kubelets' (they keep running their Pods' containers and retry their status writes)".to_string(),
                _ => "it loses its work queues and sees no watch event until it starts again".to_string(),
            };
            format!("{component} stopped: {what_stops} ({how})")
        } else {
            if running {
                return Output { stdout: format!("{component} is already running\n"), ..Output::default() };
            }
            self.stopped.remove(&component);
            match what.as_str() {
                "kube-apiserver" | "etcd" if self.api_down() => format!(
                    "{component} started ({how}); {} is still stopped, so clients are still refused",
                    if what == "etcd" { "kube-apiserver" } else { "etcd" }
                ),
                "kube-apiserver" | "etcd" => format!(
                    "{component} started: the API server answers again; kube-controller-manager and kube-scheduler list every object again and reconcile what changed, the kubelets resync their Pods and send the status they could not ({how})"
                ),
                "kube-scheduler" | "kube-controller-manager" if was_down => format!(
                    "{component} started ({how}); it cannot reach the API server until kube-apiserver and etcd run"
                ),
                _ => format!("{component} started: it lists every object again and reconciles what changed while it was down ({how})"),
            }
        };
        self.lab_note(&text, action == "stop");
        match (what.as_str(), action.as_str()) {
            ("kube-apiserver" | "etcd", "stop") => self.api_stopped(),
            ("kube-apiserver" | "etcd", _) => self.api_started(),
            // A kubelet runs its Pods without the API server; the others wait for it.
            (_, "start") if !was_down || what == "kubelet" => self.restart(&component),
            _ => {}
        }
        Output { stdout: format!("{text}\n"), ..Output::default() }
    }

    /// The step of a `lab` command: what it did, a warning for a fault.
    fn lab_note(&mut self, text: &str, fault: bool) {
        self.world.record(
            crate::sim::StepBuilder::new(
                crate::trace::Phase::Request,
                crate::trace::Component::Kubectl,
                crate::trace::Component::Kubectl,
                format!("lab: {text}"),
                crate::trace::Detail::Note { text: text.to_string() },
            )
            .status(if fault { crate::trace::StepStatus::Warning } else { crate::trace::StepStatus::Ok }),
        );
    }

    /// A component that starts again: its informers list everything (ADDED events for every
    /// stored object, delivered to it alone), a kubelet also restarts its timers and sync.
    fn restart(&mut self, component: &str) {
        let events = self.world.store.relist("/registry/");
        let mut only: Vec<&mut dyn Actor<World>> = Vec::new();
        match component {
            "kube-controller-manager" => {
                self.controllers = ControllerManager::new();
                only.push(&mut self.controllers);
            }
            "kube-scheduler" => {
                self.scheduler = SchedulerActor::default();
                only.push(&mut self.scheduler);
            }
            _ => {
                let node = component.trim_start_matches("kubelet/");
                if let Some(k) = self.kubelets.iter_mut().find(|k| k.node_name() == node) {
                    k.restart(&mut self.world);
                    only.push(k);
                }
            }
        }
        for ev in &events {
            for actor in only.iter_mut() {
                actor.observe(&mut self.world, ev);
            }
        }
    }

    fn sleep(&mut self, args: &[String]) -> Output {
        let Some(ms) = args.first().and_then(|a| parse_duration_ms(a)) else {
            return Output::error(match args.first() {
                Some(a) => format!("sleep: invalid time interval '{a}'"),
                None => "sleep: missing operand".to_string(),
            });
        };
        let until = self.world.now + ms;
        self.advance(None, until, |_| false);
        Output::default()
    }

    fn kubectl(&mut self, args: &[String], command: &SessionCommand) -> Output {
        let Some(verb) = args.first() else {
            return Output::error("error: the lab needs a kubectl command (apply, create, replace, delete, get, describe, scale, label, annotate, set image, rollout, cordon, uncordon, taint, drain, patch, logs, exec, auth can-i, api-resources)");
        };
        let flags = parse_flags(&args[1..]);
        if let Some(out) = self.refused(verb, &flags) {
            return out;
        }
        let sub = flags.args.first().map(String::as_str).unwrap_or("");
        let declared = |name, field_manager, strict, merge_patch| KubectlCommand {
            name,
            field_manager,
            strict,
            merge_patch,
            dry_run: false,
        };
        self.command = match verb.as_str() {
            "label" => Some(declared("kubectl label", "kubectl-label", false, true)),
            "annotate" => Some(declared("kubectl annotate", "kubectl-annotate", false, true)),
            "set" => Some(declared("kubectl set image", "kubectl-set", false, false)),
            "rollout" => Some(declared(
                match sub {
                    "status" => "kubectl rollout status",
                    "history" => "kubectl rollout history",
                    "undo" => "kubectl rollout undo",
                    "restart" => "kubectl rollout restart",
                    "pause" => "kubectl rollout pause",
                    "resume" => "kubectl rollout resume",
                    _ => "kubectl rollout",
                },
                "kubectl-rollout",
                false,
                false,
            )),
            "get" => Some(declared("kubectl get", "", false, false)),
            "delete" => Some(declared("kubectl delete", "", false, false)),
            "scale" => Some(declared("kubectl scale", "", false, false)),
            "describe" => Some(declared("kubectl describe", "", false, false)),
            "cordon" => Some(declared("kubectl cordon", "", false, false)),
            "uncordon" => Some(declared("kubectl uncordon", "", false, false)),
            "taint" => Some(declared("kubectl taint", "kubectl-taint", false, false)),
            "drain" => Some(declared("kubectl drain", "", false, false)),
            "create" => Some(declared("kubectl create", "kubectl-create", true, false)),
            "replace" => Some(declared("kubectl replace", "kubectl-replace", true, false)),
            _ => None,
        };
        match verb.as_str() {
            "apply" => self.apply(&flags, command),
            "delete" => self.delete(&flags),
            "get" => self.get(&flags),
            "scale" => self.scale(&flags),
            "label" => self.label(&flags, false),
            "annotate" => self.label(&flags, true),
            "set" => self.set(&flags),
            "rollout" => self.rollout(&flags),
            "describe" => self.describe(&flags),
            "cordon" => self.cordon(&flags, true),
            "uncordon" => self.cordon(&flags, false),
            "taint" => self.taint(&flags),
            "drain" => self.drain(&flags),
            "create" => self.create_or_replace(&flags, command, false),
            "replace" => self.create_or_replace(&flags, command, true),
            "patch" => self.patch(&args[1..]),
            "logs" => self.logs(&args[1..]),
            "exec" => self.exec(&args[1..]),
            "auth" => self.auth(&args[1..]),
            "api-resources" => self.api_resources(&args[1..]),
            "edit" | "expose" | "run" | "wait"
            | "top" | "port-forward" | "cp" | "debug" | "explain" | "config" | "version" => Output::error(format!(
                "podlab: kubectl {verb} is not modelled by the lab's session yet; a real cluster would run it (the session knows apply, create, replace, delete, get, describe, scale, label, annotate, set image, rollout, cordon, uncordon, taint, drain, patch, logs, exec, auth can-i, api-resources and sleep)"
            )),
            other => Output::error(format!("Error: unknown command \"{other}\" for \"kubectl\"")),
        }
    }

    fn namespace_of(&self, flags: &Flags) -> String {
        flags.value(&["-n", "--namespace"]).unwrap_or(&self.namespace).to_string()
    }

    fn apply(&mut self, flags: &Flags, command: &SessionCommand) -> Output {
        if let Some(f) = flags.unknown(&["-f", "--filename", "-n", "--namespace", "--dry-run", "-o", "--output"]) {
            return Output::error(format!("Error: unknown flag: {f}\nSee 'kubectl apply --help' for usage."));
        }
        let file = match self.file_flags(flags) {
            Ok(f) => f,
            Err(e) => return e,
        };
        let Some((file_name, manifest)) = command.file.clone() else {
            return Output::error(match flags.value(&["-f", "--filename"]) {
                // A terminal with nothing on kubectl's standard input.
                Some("-") => "error: no objects passed to apply".to_string(),
                Some(path) => format!("error: the path \"{path}\" does not exist"),
                None => "error: must specify one of -f and -k".to_string(),
            });
        };
        let mut caller = self.caller.clone();
        if file.dry_run == dry_run::DryRun::Server {
            // apply's requests declare nothing else (no `Kubectl-Command` of their own).
            caller.command = Some(KubectlCommand {
                name: "kubectl apply",
                field_manager: apiserver::KUBECTL_FIELD_MANAGER,
                strict: true,
                merge_patch: false,
                dry_run: true,
            });
        }
        let mut kubectl =
            KubectlApply::new(ApplyOptions { file: file_name, manifest, caller, namespace: self.namespace_of(flags) })
                .with_dry_run(file.dry_run)
                .with_printing(file.printing);
        kubectl.start(&mut self.world);
        let limit = self.limit_ms;
        self.advance(Some(&mut kubectl), limit, |w| !has_task_for(w, &Target::Kubectl));
        let finished = kubectl.finish();
        let (mut stdout, stderr, exit) = (finished.0.clone(), finished.1.clone(), finished.3);
        // `-o yaml|json`: the objects, once everything succeeded (apply's post-processor).
        if let (Some(format), 0) = (file.format, exit) {
            stdout += &dry_run::print_file_objects(&kubectl.printed, format, crate::kubectl::FileVerb::Apply);
        }
        if self.commands.is_empty() && self.first_apply.is_none() {
            self.first_apply = Some((kubectl, finished));
        }
        Output { stdout, stderr, exit }
    }

    fn request(&self, verb: Verb, res: &'static ResourceInfo, ns: Option<&str>, name: Option<&str>) -> ApiRequest {
        let mut caller = self.caller.clone();
        caller.command = self.command.clone();
        ApiRequest {
            caller,
            verb,
            resource: res,
            namespace: if res.namespaced { ns.map(str::to_string) } else { None },
            name: name.map(str::to_string),
            subresource: None,
            body: None,
            verbose: true,
            file: None,
        }
    }

    /// `kubectl scale TYPE NAME --replicas=N`: kubectl's resource builder GETs the object,
    /// then a merge patch of its `scale` subresource; `--dry-run=client` sends no patch,
    /// `--dry-run=server` sends it with `dryRun=All`.
    fn scale(&mut self, flags: &Flags) -> Output {
        if let Some(f) = flags.unknown(&["-n", "--namespace", "--replicas", "--dry-run"]) {
            return Output::error(format!("Error: unknown flag: {f}\nSee 'kubectl scale --help' for usage."));
        }
        let Some(replicas) = flags.value(&["--replicas"]).and_then(|r| r.parse::<i64>().ok()) else {
            return Output::error("error: required flag(s) \"replicas\" not set");
        };
        let mut out = Output::default();
        let dry_run = match self.dry_run_flag(flags) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let (type_, name) = match (flags.args.first(), flags.args.get(1)) {
            (Some(t), _) if t.contains('/') => {
                let (t, n) = t.split_once('/').unwrap_or_default();
                (t.to_string(), n.to_string())
            }
            (Some(t), Some(n)) => (t.clone(), n.clone()),
            _ => return Output::error("error: resource(s) were provided, but no name was specified"),
        };
        let Some(res) = resource_named(&type_) else { return no_type(&type_) };
        let ns = self.namespace_of(flags);
        let get = self.request(Verb::Get, res, Some(&ns), Some(&name));
        let resp = apiserver::handle(&mut self.world, get);
        if let Some(status) = resp.error.clone() {
            return Output { exit: 1, stderr: out.stderr + &kubectl_stderr(&[CommandError::Server(status)]), ..out };
        }
        let line = format!("{}/{name} scaled{}\n", kind_string(res), dry_run.suffix());
        if dry_run == dry_run::DryRun::Client {
            out.stdout = line;
            return out;
        }
        if dry_run == dry_run::DryRun::Server {
            self.server_dry_run();
        }
        let mut req = self.request(Verb::Patch, res, Some(&ns), Some(&name));
        req.subresource = Some("scale".into());
        req.body = Some(Body::Json(serde_json::json!({"spec": {"replicas": replicas}})));
        let resp = apiserver::handle(&mut self.world, req);
        match resp.error.clone() {
            None => out.stdout = line,
            Some(status) => {
                out.stderr += &kubectl_stderr(&[CommandError::Server(status)]);
                out.exit = 1;
            }
        }
        out
    }
}

/// `json.MarshalIndent(v, "", "    ")` and a newline, as kubectl's JSON printer writes: Go
/// escapes `<`, `>` and `&` (they can only stand inside strings).
fn go_json_indent(v: &serde_json::Value) -> String {
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    let _ = v.serialize(&mut ser);
    let text = String::from_utf8(buf).unwrap_or_default();
    text.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026") + "\n"
}

/// YAML as kubectl's printer writes it (sigs.k8s.io/yaml, go-yaml v2): the same block layout
/// as [`crate::yaml::to_string`] (libyaml's), except that go-yaml quotes with double quotes
/// where libyaml uses single ones (`resourceVersion: "165"`), and also quotes strings that
/// read as timestamps.
fn go_yaml(v: &serde_json::Value) -> String {
    let text = crate::yaml::to_string(v);
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.lines() {
        // The value of `key: value`, `- value` or `- key: value`.
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let (head, value) = match body.strip_prefix("- ") {
            Some(rest) => match rest.split_once(": ") {
                Some((k, v)) => (format!("{indent}- {k}: "), v),
                None => (format!("{indent}- "), rest),
            },
            None => match body.split_once(": ") {
                Some((k, v)) => (format!("{indent}{k}: "), v),
                None => (String::new(), ""),
            },
        };
        let b = value.as_bytes();
        let timestamp = b.len() >= 20
            && b[4] == b'-'
            && b[7] == b'-'
            && b[10] == b'T'
            && b[..4].iter().all(u8::is_ascii_digit)
            && value.ends_with('Z')
            && !value.contains(' ');
        let single = value.len() >= 2 && value.starts_with('\'') && value.ends_with('\'');
        if timestamp {
            out += &format!("{head}\"{value}\"");
        } else if single && !value.contains('"') && !value.contains('\\') {
            let inner = value[1..value.len() - 1].replace("''", "'");
            out += &format!("{head}\"{inner}\"");
        } else {
            out += line;
        }
        out.push('\n');
    }
    out
}

/// Reads a session script: one command a line, `#` comments and blank lines skipped, a line
/// ending in a backslash continued on the next, and heredocs (`kubectl apply -f - <<EOF` up to
/// a line `EOF`; `<<'EOF'` and `<<-EOF` too) as the standard input of the command. A command
/// with `-f FILE` gets the file from `read` (the caller resolves it, relative to the script);
/// a file it cannot read is an error naming the line.
pub fn parse_script(text: &str, read: &dyn Fn(&str) -> Option<String>) -> Result<Vec<SessionCommand>, String> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, raw)) = lines.next() {
        let mut line = raw.trim().to_string();
        while line.ends_with('\\') {
            line.pop();
            line.truncate(line.trim_end().len());
            match lines.next() {
                Some((_, more)) => {
                    line.push(' ');
                    line.push_str(more.trim());
                }
                None => break,
            }
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut file = None;
        if let Some(i) = line.find("<<") {
            let spec = line[i + 2..].trim();
            let strip_tabs = spec.starts_with('-');
            let delimiter = spec.trim_start_matches('-').trim_matches(|c| c == '\'' || c == '"').to_string();
            if delimiter.is_empty() {
                return Err(format!("line {}: a heredoc needs a delimiter (<<EOF)", n + 1));
            }
            let mut body = String::new();
            let mut closed = false;
            for (_, l) in lines.by_ref() {
                let l = if strip_tabs { l.trim_start_matches('\t') } else { l };
                if l.trim_end() == delimiter {
                    closed = true;
                    break;
                }
                body.push_str(l);
                body.push('\n');
            }
            if !closed {
                return Err(format!("line {}: the heredoc is not closed by a line {delimiter}", n + 1));
            }
            line = line[..i].trim().to_string();
            file = Some(("STDIN".to_string(), body));
        }
        let w = words(&line);
        if file.is_none() && w.first().is_some_and(|c| c == "kubectl") {
            let f = parse_flags(&w[1..]);
            if let Some(path) = f.value(&["-f", "--filename"]) {
                if path != "-" {
                    let text =
                        read(path).ok_or_else(|| format!("line {}: the path \"{path}\" does not exist", n + 1))?;
                    file = Some((path.to_string(), text));
                }
            }
        }
        out.push(SessionCommand { line, file });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_read_comments_heredocs_and_files() {
        let script = "# a comment\nkubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nEOF\n\nkubectl get \\\n  pods\nkubectl apply -f app.yaml\nsleep 5s\n";
        let read = |p: &str| (p == "app.yaml").then(|| "kind: X\n".to_string());
        let cmds = parse_script(script, &read).unwrap();
        assert_eq!(cmds.len(), 4);
        assert_eq!(cmds[0].line, "kubectl apply -f -");
        assert_eq!(cmds[0].file, Some(("STDIN".into(), "apiVersion: v1\nkind: Pod\n".into())));
        assert_eq!(cmds[1].line, "kubectl get pods");
        assert_eq!(cmds[2].file, Some(("app.yaml".into(), "kind: X\n".into())));
        assert_eq!(cmds[3].line, "sleep 5s");
        assert!(parse_script("kubectl apply -f nope.yaml", &read).unwrap_err().contains("nope.yaml"));
        assert!(parse_script("kubectl apply -f - <<EOF\nkind: Pod\n", &read).unwrap_err().contains("not closed"));
    }

    #[test]
    fn durations_read_as_sleep_reads_them() {
        assert_eq!(parse_duration_ms("30"), Some(30_000));
        assert_eq!(parse_duration_ms("30s"), Some(30_000));
        assert_eq!(parse_duration_ms("2m"), Some(120_000));
        assert_eq!(parse_duration_ms("1m30s"), Some(90_000));
        assert_eq!(parse_duration_ms("x"), None);
        assert_eq!(parse_duration_ms("5x"), None);
    }

    #[test]
    fn words_drop_quotes() {
        assert_eq!(words("kubectl get pods -l 'app=web'"), vec!["kubectl", "get", "pods", "-l", "app=web"]);
        assert_eq!(words("  sleep   10s "), vec!["sleep", "10s"]);
    }
}

#[cfg(test)]
mod session_tests {
    use super::*;
    use expect_test::expect;

    const CRASHER: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: crasher\nspec:\n  containers:\n  - name: app\n    image: busybox:1.37\n    command: [\"sh\", \"-c\", \"sleep 10; exit 1\"]\n";
    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.29\n";

    /// Every command's line, time, output and exit status, then the pods at the end.
    fn transcript(script: &str) -> String {
        transcript_within(script, crate::lab::DEFAULT_LIMIT_MS)
    }

    /// [`transcript`] with a time limit of `limit_ms`.
    fn transcript_within(script: &str, limit_ms: u64) -> String {
        let loaded = Loaded::load(None).unwrap();
        let mut session = Session::new(&loaded, 1, None, None, limit_ms).unwrap();
        let read = |_: &str| None;
        let mut out = String::new();
        for c in parse_script(script, &read).unwrap() {
            let r = session.run(&c).clone();
            out += &format!(
                "[{}ms-{}ms, {} steps] $ {}\n{}{}(exit status {})\n",
                r.start_ms,
                r.end_ms,
                r.end_step - r.first_step,
                r.line,
                r.stdout,
                r.stderr,
                r.exit_code
            );
        }
        session.settle();
        let w = session.world();
        let snap = Snapshot::new(&w.store, w.store.revision(), w.now);
        out += &format!("[settled at {}ms]\n{}", w.now, snap.get_pods("default", GetOptions::default()));
        out
    }

    /// [`transcript`] with, under each command, the requests kubectl sent (their first step's
    /// summary: method and path) and their response codes.
    fn transcript_with_requests(script: &str) -> String {
        let loaded = Loaded::load(None).unwrap();
        let mut session = Session::new(&loaded, 1, None, None, crate::lab::DEFAULT_LIMIT_MS).unwrap();
        let read = |_: &str| None;
        let mut out = String::new();
        for c in parse_script(script, &read).unwrap() {
            let r = session.run(&c).clone();
            out += &format!("[{}ms-{}ms] $ {}\n", r.start_ms, r.end_ms, r.line);
            for s in &session.world().steps[r.first_step..r.end_step] {
                if s.phase == crate::trace::Phase::Request && s.from == crate::trace::Component::Kubectl {
                    out += &format!("  > {}\n", s.summary);
                }
            }
            out += &format!("{}{}(exit status {})\n", r.stdout, r.stderr, r.exit_code);
        }
        out
    }

    /// Reconciliation done by hand: a deleted Pod of a Deployment is replaced while kubectl
    /// waits for the deletion; `kubectl scale` goes through the scale subresource.
    #[test]
    fn a_deleted_pod_of_a_deployment_is_replaced() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nkubectl get pods\nkubectl delete pod web-7c64c74567-pgw5x\nkubectl get pods\nkubectl scale deploy/web --replicas=3\nkubectl get deployments\n"
        );
        expect![[r#"
            [0ms-4ms, 16 steps] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms, 91 steps] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms, 4 steps] $ kubectl get pods
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-9vtnp   1/1     Running   0          20s
            web-7c64c74567-pgw5x   1/1     Running   0          20s
            (exit status 0)
            [20004ms-20126ms, 41 steps] $ kubectl delete pod web-7c64c74567-pgw5x
            pod "web-7c64c74567-pgw5x" deleted from default namespace
            (exit status 0)
            [20126ms-20126ms, 4 steps] $ kubectl get pods
            NAME                   READY   STATUS              RESTARTS   AGE
            web-7c64c74567-5blzt   0/1     ContainerCreating   0          0s
            web-7c64c74567-9vtnp   1/1     Running             0          20s
            (exit status 0)
            [20126ms-20126ms, 14 steps] $ kubectl scale deploy/web --replicas=3
            deployment.apps/web scaled
            (exit status 0)
            [20126ms-20126ms, 4 steps] $ kubectl get deployments
            NAME   READY   UP-TO-DATE   AVAILABLE   AGE
            web    1/3     2            1           20s
            (exit status 0)
            [settled at 85004ms]
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-5blzt   1/1     Running   0          65s
            web-7c64c74567-9vtnp   1/1     Running   0          85s
            web-7c64c74567-hdnjl   1/1     Running   0          65s
        "#]]
        .assert_eq(&transcript(&script));
    }

    /// The scheduler stopped: a new Pod stays Pending with no event at all (nobody looks at
    /// it); started again, it lists the Pods and binds it.
    #[test]
    fn a_stopped_scheduler_leaves_new_pods_pending_until_it_starts() {
        let script = "lab stop kube-scheduler\nkubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.29\nEOF\nsleep 30s\nkubectl get pods\nlab start kube-scheduler\nsleep 10s\nkubectl get pods -o wide\n";
        expect![[r#"
            [0ms-0ms, 1 steps] $ lab stop kube-scheduler
            kube-scheduler stopped: it loses its work queues and sees no watch event until it starts again (as when /etc/kubernetes/manifests/kube-scheduler.yaml is moved away on kind-control-plane and the kubelet stops the static Pod)
            (exit status 0)
            [0ms-4ms, 23 steps] $ kubectl apply -f -
            pod/web created
            (exit status 0)
            [4ms-30004ms, 0 steps] $ sleep 30s
            (exit status 0)
            [30004ms-30004ms, 4 steps] $ kubectl get pods
            NAME   READY   STATUS    RESTARTS   AGE
            web    0/1     Pending   0          30s
            (exit status 0)
            [30004ms-30004ms, 2 steps] $ lab start kube-scheduler
            kube-scheduler started: it lists every object again and reconciles what changed while it was down (as when /etc/kubernetes/manifests/kube-scheduler.yaml is put back on kind-control-plane and the kubelet starts the static Pod)
            (exit status 0)
            [30004ms-40004ms, 28 steps] $ sleep 10s
            (exit status 0)
            [40004ms-40004ms, 4 steps] $ kubectl get pods -o wide
            NAME   READY   STATUS    RESTARTS   AGE   IP           NODE          NOMINATED NODE   READINESS GATES
            web    1/1     Running   0          40s   10.244.1.2   kind-worker   <none>           <none>
            (exit status 0)
            [settled at 95004ms]
            NAME   READY   STATUS    RESTARTS   AGE
            web    1/1     Running   0          95s
        "#]].assert_eq(&transcript(script));
    }

    /// A worker loses power: after the grace period its node is Unknown and tainted, after the
    /// toleration its Pod is deleted and replaced on the other worker, the deleted one stays
    /// Terminating; powered on, the kubelet completes that deletion and the node is Ready.
    #[test]
    fn a_powered_off_node_loses_its_pods_and_a_powered_on_one_finishes_their_deletion() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nkubectl get pods -o wide\nlab power-off kind-worker\nlab power-off kind-worker\nsleep 6m\nkubectl get pods -o wide\nkubectl get nodes\nkubectl describe node kind-worker\nlab power-on kind-worker\nsleep 30s\nkubectl get pods -o wide\nkubectl get nodes\nkubectl describe node kind-worker\nlab power-on kind-worker\n"
        );
        expect![[r#"
            [0ms-4ms, 16 steps] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms, 91 steps] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms, 4 steps] $ kubectl get pods -o wide
            NAME                   READY   STATUS    RESTARTS   AGE   IP           NODE           NOMINATED NODE   READINESS GATES
            web-7c64c74567-9vtnp   1/1     Running   0          20s   10.244.2.2   kind-worker2   <none>           <none>
            web-7c64c74567-pgw5x   1/1     Running   0          20s   10.244.1.2   kind-worker    <none>           <none>
            (exit status 0)
            [20004ms-20004ms, 2 steps] $ lab power-off kind-worker
            kind-worker powered off: every container and pod sandbox on it died with the machine, and its kubelet stopped posting node status and renewing its Lease. Nobody tells the API server: after the node monitor grace period (50s) the node-lifecycle controller sets the node's conditions to Unknown and taints it node.kubernetes.io/unreachable, and the taint eviction controller deletes its Pods once their toleration runs out (300s by default); they stay Terminating, since no kubelet confirms the kill (as `docker stop kind-worker` does to kind's node container)
            (exit status 0)
            [20004ms-20004ms, 0 steps] $ lab power-off kind-worker
            kind-worker is already powered off
            (exit status 0)
            [20004ms-380004ms, 70 steps] $ sleep 6m
            (exit status 0)
            [380004ms-380004ms, 4 steps] $ kubectl get pods -o wide
            NAME                   READY   STATUS        RESTARTS   AGE     IP           NODE           NOMINATED NODE   READINESS GATES
            web-7c64c74567-9vtnp   1/1     Running       0          6m20s   10.244.2.2   kind-worker2   <none>           <none>
            web-7c64c74567-pgw5x   1/1     Terminating   0          6m20s   10.244.1.2   kind-worker    <none>           <none>
            web-7c64c74567-wb57n   1/1     Running       0          5s      10.244.2.3   kind-worker2   <none>           <none>
            (exit status 0)
            [380004ms-380004ms, 4 steps] $ kubectl get nodes
            NAME                 STATUS     ROLES           AGE     VERSION
            kind-control-plane   Ready      control-plane   6m20s   v1.37.0
            kind-worker          NotReady   <none>          6m20s   v1.37.0
            kind-worker2         Ready      <none>          6m20s   v1.37.0
            (exit status 0)
            [380004ms-380004ms, 5 steps] $ kubectl describe node kind-worker
            Name:               kind-worker
            Roles:              <none>
            Labels:             beta.kubernetes.io/arch=amd64
                                beta.kubernetes.io/os=linux
                                kubernetes.io/arch=amd64
                                kubernetes.io/hostname=kind-worker
                                kubernetes.io/os=linux
            Annotations:        kubeadm.alpha.kubernetes.io/cri-socket: unix:///run/containerd/containerd.sock
                                node.alpha.kubernetes.io/ttl: 0
                                volumes.kubernetes.io/controller-managed-attach-detach: true
            CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000
            Taints:             node.kubernetes.io/unreachable:NoExecute
                                node.kubernetes.io/unreachable:NoSchedule
            Unschedulable:      false
            Lease:
              HolderIdentity:  kind-worker
              AcquireTime:     <unset>
              RenewTime:       Thu, 01 Jan 2026 00:00:20 +0000
            Conditions:
              Type             Status    LastHeartbeatTime                 LastTransitionTime                Reason              Message
              ----             ------    -----------------                 ------------------                ------              -------
              MemoryPressure   Unknown   Thu, 01 Jan 2026 00:00:02 +0000   Thu, 01 Jan 2026 00:01:15 +0000   NodeStatusUnknown   Kubelet stopped posting node status.
              DiskPressure     Unknown   Thu, 01 Jan 2026 00:00:02 +0000   Thu, 01 Jan 2026 00:01:15 +0000   NodeStatusUnknown   Kubelet stopped posting node status.
              PIDPressure      Unknown   Thu, 01 Jan 2026 00:00:02 +0000   Thu, 01 Jan 2026 00:01:15 +0000   NodeStatusUnknown   Kubelet stopped posting node status.
              Ready            Unknown   Thu, 01 Jan 2026 00:00:02 +0000   Thu, 01 Jan 2026 00:01:15 +0000   NodeStatusUnknown   Kubelet stopped posting node status.
            Addresses:
              InternalIP:  172.18.0.3
              Hostname:    kind-worker
            Capacity:
              cpu:                4
              ephemeral-storage:  102626232Ki
              hugepages-1Gi:      0
              hugepages-2Mi:      0
              memory:             8131440Ki
              pods:               110
            Allocatable:
              cpu:                4
              ephemeral-storage:  102626232Ki
              hugepages-1Gi:      0
              hugepages-2Mi:      0
              memory:             8131440Ki
              pods:               110
            System Info:
              Machine ID:                 
              System UUID:                
              Boot ID:                    
              Kernel Version:             6.8.0-64-generic
              OS Image:                   Debian GNU/Linux 12 (bookworm)
              Operating System:           linux
              Architecture:               amd64
              Container Runtime Version:  containerd://2.1.3
              Kubelet Version:            v1.37.0
            PodCIDR:                      10.244.1.0/24
            PodCIDRs:                     10.244.1.0/24
            ProviderID:                   kind://docker/kind/kind-worker
            Non-terminated Pods:          (1 in total)
              Namespace                   Name                    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
              ---------                   ----                    ------------  ----------  ---------------  -------------  ---
              default                     web-7c64c74567-pgw5x    0 (0%)        0 (0%)      0 (0%)           0 (0%)         6m20s
            Allocated resources:
              (Total limits may be over 100 percent, i.e., overcommitted.)
              Resource           Requests  Limits
              --------           --------  ------
              cpu                0 (0%)    0 (0%)
              memory             0 (0%)    0 (0%)
              ephemeral-storage  0 (0%)    0 (0%)
              hugepages-1Gi      0 (0%)    0 (0%)
              hugepages-2Mi      0 (0%)    0 (0%)
            Events:
              Type    Reason        Age   From             Message
              ----    ------        ----  ----             -------
              Normal  NodeNotReady  5m5s  node-controller  Node kind-worker status is now: NodeNotReady
            (exit status 0)
            [380004ms-380004ms, 1 steps] $ lab power-on kind-worker
            kind-worker powered on: containerd finds its old sandboxes not ready and its containers exited (255, Unknown); the kubelet starts with an empty memory, posts its node status (Ready again, so the node-lifecycle controller lifts the node.kubernetes.io/unreachable taints), lists its Pods from the API server, re-creates the sandbox of each Pod still bound to it (SandboxChanged, a new IP, each container's restart count one higher) and completes the deletion of those deleted while it was off (as `docker start kind-worker` does)
            (exit status 0)
            [380004ms-410004ms, 34 steps] $ sleep 30s
            (exit status 0)
            [410004ms-410004ms, 4 steps] $ kubectl get pods -o wide
            NAME                   READY   STATUS    RESTARTS   AGE     IP           NODE           NOMINATED NODE   READINESS GATES
            web-7c64c74567-9vtnp   1/1     Running   0          6m50s   10.244.2.2   kind-worker2   <none>           <none>
            web-7c64c74567-wb57n   1/1     Running   0          35s     10.244.2.3   kind-worker2   <none>           <none>
            (exit status 0)
            [410004ms-410004ms, 4 steps] $ kubectl get nodes
            NAME                 STATUS   ROLES           AGE     VERSION
            kind-control-plane   Ready    control-plane   6m50s   v1.37.0
            kind-worker          Ready    <none>          6m50s   v1.37.0
            kind-worker2         Ready    <none>          6m50s   v1.37.0
            (exit status 0)
            [410004ms-410004ms, 5 steps] $ kubectl describe node kind-worker
            Name:               kind-worker
            Roles:              <none>
            Labels:             beta.kubernetes.io/arch=amd64
                                beta.kubernetes.io/os=linux
                                kubernetes.io/arch=amd64
                                kubernetes.io/hostname=kind-worker
                                kubernetes.io/os=linux
            Annotations:        kubeadm.alpha.kubernetes.io/cri-socket: unix:///run/containerd/containerd.sock
                                node.alpha.kubernetes.io/ttl: 0
                                volumes.kubernetes.io/controller-managed-attach-detach: true
            CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000
            Taints:             <none>
            Unschedulable:      false
            Lease:
              HolderIdentity:  kind-worker
              AcquireTime:     <unset>
              RenewTime:       Thu, 01 Jan 2026 00:06:50 +0000
            Conditions:
              Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
              ----             ------  -----------------                 ------------------                ------                       -------
              MemoryPressure   False   Thu, 01 Jan 2026 00:06:20 +0000   Thu, 01 Jan 2026 00:06:20 +0000   KubeletHasSufficientMemory   kubelet has sufficient memory available
              DiskPressure     False   Thu, 01 Jan 2026 00:06:20 +0000   Thu, 01 Jan 2026 00:06:20 +0000   KubeletHasNoDiskPressure     kubelet has no disk pressure
              PIDPressure      False   Thu, 01 Jan 2026 00:06:20 +0000   Thu, 01 Jan 2026 00:06:20 +0000   KubeletHasSufficientPID      kubelet has sufficient PID available
              Ready            True    Thu, 01 Jan 2026 00:06:20 +0000   Thu, 01 Jan 2026 00:06:20 +0000   KubeletReady                 kubelet is posting ready status
            Addresses:
              InternalIP:  172.18.0.3
              Hostname:    kind-worker
            Capacity:
              cpu:                4
              ephemeral-storage:  102626232Ki
              hugepages-1Gi:      0
              hugepages-2Mi:      0
              memory:             8131440Ki
              pods:               110
            Allocatable:
              cpu:                4
              ephemeral-storage:  102626232Ki
              hugepages-1Gi:      0
              hugepages-2Mi:      0
              memory:             8131440Ki
              pods:               110
            System Info:
              Machine ID:                 
              System UUID:                
              Boot ID:                    
              Kernel Version:             6.8.0-64-generic
              OS Image:                   Debian GNU/Linux 12 (bookworm)
              Operating System:           linux
              Architecture:               amd64
              Container Runtime Version:  containerd://2.1.3
              Kubelet Version:            v1.37.0
            PodCIDR:                      10.244.1.0/24
            PodCIDRs:                     10.244.1.0/24
            ProviderID:                   kind://docker/kind/kind-worker
            Non-terminated Pods:          (0 in total)
              Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
              ---------                   ----    ------------  ----------  ---------------  -------------  ---
            Allocated resources:
              (Total limits may be over 100 percent, i.e., overcommitted.)
              Resource           Requests  Limits
              --------           --------  ------
              cpu                0 (0%)    0 (0%)
              memory             0 (0%)    0 (0%)
              ephemeral-storage  0 (0%)    0 (0%)
              hugepages-1Gi      0 (0%)    0 (0%)
              hugepages-2Mi      0 (0%)    0 (0%)
            Events:
              Type    Reason                   Age    From             Message
              ----    ------                   ----   ----             -------
              Normal  NodeNotReady             5m35s  node-controller  Node kind-worker status is now: NodeNotReady
              Normal  Starting                 30s    kubelet          Starting kubelet.
              Normal  NodeAllocatableEnforced  30s    kubelet          Updated Node Allocatable limit across pods
              Normal  NodeHasSufficientMemory  30s    kubelet          Node kind-worker status is now: NodeHasSufficientMemory
              Normal  NodeHasNoDiskPressure    30s    kubelet          Node kind-worker status is now: NodeHasNoDiskPressure
              Normal  NodeHasSufficientPID     30s    kubelet          Node kind-worker status is now: NodeHasSufficientPID
              Normal  NodeReady                30s    kubelet          Node kind-worker status is now: NodeReady
            (exit status 0)
            [410004ms-410004ms, 0 steps] $ lab power-on kind-worker
            kind-worker is already powered on
            (exit status 0)
            [settled at 445004ms]
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-9vtnp   1/1     Running   0          7m25s
            web-7c64c74567-wb57n   1/1     Running   0          70s
        "#]].assert_eq(&transcript_within(&script, 900_000));
    }

    /// A short power cycle, before any eviction: the Pod's sandbox is re-created (the
    /// SandboxChanged event, a new IP), its container restarted once, its last state the
    /// container lost with the machine (255, Unknown).
    #[test]
    fn a_power_cycled_node_recreates_its_pods_sandboxes() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nkubectl get pods -o wide\nlab power-off kind-worker\nsleep 20s\nlab stop kubelet kind-worker\nlab power-on kind-worker\nsleep 20s\nkubectl get pods -o wide\nkubectl describe pod web-7c64c74567-pgw5x\n"
        );
        expect![[r#"
            [0ms-4ms, 16 steps] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms, 91 steps] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms, 4 steps] $ kubectl get pods -o wide
            NAME                   READY   STATUS    RESTARTS   AGE   IP           NODE           NOMINATED NODE   READINESS GATES
            web-7c64c74567-9vtnp   1/1     Running   0          20s   10.244.2.2   kind-worker2   <none>           <none>
            web-7c64c74567-pgw5x   1/1     Running   0          20s   10.244.1.2   kind-worker    <none>           <none>
            (exit status 0)
            [20004ms-20004ms, 2 steps] $ lab power-off kind-worker
            kind-worker powered off: every container and pod sandbox on it died with the machine, and its kubelet stopped posting node status and renewing its Lease. Nobody tells the API server: after the node monitor grace period (50s) the node-lifecycle controller sets the node's conditions to Unknown and taints it node.kubernetes.io/unreachable, and the taint eviction controller deletes its Pods once their toleration runs out (300s by default); they stay Terminating, since no kubelet confirms the kill (as `docker stop kind-worker` does to kind's node container)
            (exit status 0)
            [20004ms-40004ms, 0 steps] $ sleep 20s
            (exit status 0)
            [40004ms-40004ms, 0 steps] $ lab stop kubelet kind-worker
            lab: kind-worker is powered off: its kubelet runs again when the machine boots (lab power-on kind-worker)
            (exit status 1)
            [40004ms-40004ms, 1 steps] $ lab power-on kind-worker
            kind-worker powered on: containerd finds its old sandboxes not ready and its containers exited (255, Unknown); the kubelet starts with an empty memory, posts its node status (Ready again, so the node-lifecycle controller lifts the node.kubernetes.io/unreachable taints), lists its Pods from the API server, re-creates the sandbox of each Pod still bound to it (SandboxChanged, a new IP, each container's restart count one higher) and completes the deletion of those deleted while it was off (as `docker start kind-worker` does)
            (exit status 0)
            [40004ms-60004ms, 35 steps] $ sleep 20s
            (exit status 0)
            [60004ms-60004ms, 4 steps] $ kubectl get pods -o wide
            NAME                   READY   STATUS    RESTARTS      AGE   IP           NODE           NOMINATED NODE   READINESS GATES
            web-7c64c74567-9vtnp   1/1     Running   0             60s   10.244.2.2   kind-worker2   <none>           <none>
            web-7c64c74567-pgw5x   1/1     Running   1 (40s ago)   60s   10.244.1.3   kind-worker    <none>           <none>
            (exit status 0)
            [60004ms-60004ms, 5 steps] $ kubectl describe pod web-7c64c74567-pgw5x
            Name:             web-7c64c74567-pgw5x
            Namespace:        default
            Priority:         0
            Service Account:  default
            Node:             kind-worker/172.18.0.3
            Start Time:       Thu, 01 Jan 2026 00:00:00 +0000
            Labels:           app=web
                              pod-template-hash=7c64c74567
            Annotations:      <none>
            Status:           Running
            IP:               10.244.1.3
            IPs:
              IP:           10.244.1.3
            Controlled By:  ReplicaSet/web-7c64c74567
            Containers:
              nginx:
                Container ID:   containerd://0781577a0f53e5d6d909c315b21d8f6ce8e6022a79eb517b62db179ca8487c5a
                Image:          nginx:1.29
                Image ID:       docker.io/library/nginx@sha256:deaf06bb1e4dfb573be032d0a2645e1ca2ff141a89513d0f1c1c71f22ef7df98
                Port:           <none>
                Host Port:      <none>
                State:          Running
                  Started:      Thu, 01 Jan 2026 00:00:40 +0000
                Last State:     Terminated
                  Reason:       Unknown
                  Exit Code:    255
                  Started:      Thu, 01 Jan 2026 00:00:02 +0000
                  Finished:     Thu, 01 Jan 2026 00:00:20 +0000
                Ready:          True
                Restart Count:  1
                Environment:    <none>
                Mounts:
                  /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-sk4nv (ro)
            Conditions:
              Type                        Status
              PodReadyToStartContainers   True 
              Initialized                 True 
              Ready                       True 
              ContainersReady             True 
              PodScheduled                True 
            Volumes:
              kube-api-access-sk4nv:
                Type:                    Projected (a volume that contains injected data from multiple sources)
                TokenExpirationSeconds:  3607
                ConfigMapName:           kube-root-ca.crt
                Optional:                false
                DownwardAPI:             true
            QoS Class:                   BestEffort
            Node-Selectors:              <none>
            Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                                         node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
            Events:
              Type    Reason          Age   From               Message
              ----    ------          ----  ----               -------
              Normal  Scheduled       60s   default-scheduler  Successfully assigned default/web-7c64c74567-pgw5x to kind-worker
              Normal  Pulling         60s   kubelet            spec.containers{nginx}: Pulling image "nginx:1.29"
              Normal  Pulled          58s   kubelet            spec.containers{nginx}: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
              Normal  Created         58s   kubelet            spec.containers{nginx}: Container created
              Normal  Started         58s   kubelet            spec.containers{nginx}: Container started
              Normal  SandboxChanged  20s   kubelet            Pod sandbox changed, it will be killed and re-created.
              Normal  Pulled          20s   kubelet            spec.containers{nginx}: Container image "nginx:1.29" already present on machine and can be accessed by the pod
              Normal  Created         20s   kubelet            spec.containers{nginx}: Container created
              Normal  Started         20s   kubelet            spec.containers{nginx}: Container started
            (exit status 0)
            [settled at 105004ms]
            NAME                   READY   STATUS    RESTARTS      AGE
            web-7c64c74567-9vtnp   1/1     Running   0             105s
            web-7c64c74567-pgw5x   1/1     Running   1 (85s ago)   105s
        "#]].assert_eq(&transcript(&script));
    }

    /// A power cycle of Pods bound to kind-worker: the init container runs again in the new
    /// sandbox; a Pod with `restartPolicy: Never` gets no new sandbox and fails.
    #[test]
    fn a_power_cycle_reruns_init_containers_and_fails_pods_that_never_restart() {
        let pods = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: app\nspec:\n  nodeName: kind-worker\n  initContainers:\n  - {name: setup, image: busybox:1.36, command: [sh, -c, \"echo ready\"]}\n  containers:\n  - {name: app, image: busybox:1.36, command: [sh, -c, \"sleep 3600\"]}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: once\nspec:\n  nodeName: kind-worker\n  restartPolicy: Never\n  containers:\n  - {name: once, image: busybox:1.36, command: [sh, -c, \"sleep 3600\"]}\n";
        let script = format!(
            "kubectl apply -f - <<EOF\n{pods}EOF\nsleep 20s\nkubectl get pods -o wide\nlab power-off kind-worker\nsleep 10s\nlab power-on kind-worker\nsleep 1s\nkubectl get pods\nsleep 20s\nkubectl get pods -o wide\nkubectl get pod app -o yaml\nkubectl get pod once -o yaml\n"
        );
        expect![[r#"
            [0ms-12ms, 52 steps] $ kubectl apply -f -
            pod/app created
            pod/once created
            (exit status 0)
            [12ms-20012ms, 50 steps] $ sleep 20s
            (exit status 0)
            [20012ms-20012ms, 4 steps] $ kubectl get pods -o wide
            NAME   READY   STATUS    RESTARTS   AGE   IP           NODE          NOMINATED NODE   READINESS GATES
            app    1/1     Running   0          20s   10.244.1.2   kind-worker   <none>           <none>
            once   1/1     Running   0          20s   10.244.1.3   kind-worker   <none>           <none>
            (exit status 0)
            [20012ms-20012ms, 2 steps] $ lab power-off kind-worker
            kind-worker powered off: every container and pod sandbox on it died with the machine, and its kubelet stopped posting node status and renewing its Lease. Nobody tells the API server: after the node monitor grace period (50s) the node-lifecycle controller sets the node's conditions to Unknown and taints it node.kubernetes.io/unreachable, and the taint eviction controller deletes its Pods once their toleration runs out (300s by default); they stay Terminating, since no kubelet confirms the kill (as `docker stop kind-worker` does to kind's node container)
            (exit status 0)
            [20012ms-30012ms, 0 steps] $ sleep 10s
            (exit status 0)
            [30012ms-30012ms, 1 steps] $ lab power-on kind-worker
            kind-worker powered on: containerd finds its old sandboxes not ready and its containers exited (255, Unknown); the kubelet starts with an empty memory, posts its node status (Ready again, so the node-lifecycle controller lifts the node.kubernetes.io/unreachable taints), lists its Pods from the API server, re-creates the sandbox of each Pod still bound to it (SandboxChanged, a new IP, each container's restart count one higher) and completes the deletion of those deleted while it was off (as `docker start kind-worker` does)
            (exit status 0)
            [30012ms-31012ms, 30 steps] $ sleep 1s
            (exit status 0)
            [31012ms-31012ms, 4 steps] $ kubectl get pods
            NAME   READY   STATUS    RESTARTS   AGE
            app    0/1     Unknown   0          31s
            once   0/1     Unknown   0          31s
            (exit status 0)
            [31012ms-51012ms, 7 steps] $ sleep 20s
            (exit status 0)
            [51012ms-51012ms, 4 steps] $ kubectl get pods -o wide
            NAME   READY   STATUS    RESTARTS      AGE   IP           NODE          NOMINATED NODE   READINESS GATES
            app    1/1     Running   1 (31s ago)   51s   10.244.1.4   kind-worker   <none>           <none>
            once   0/1     Unknown   0             51s   10.244.1.3   kind-worker   <none>           <none>
            (exit status 0)
            [51012ms-51012ms, 5 steps] $ kubectl get pod app -o yaml
            apiVersion: v1
            kind: Pod
            metadata:
              annotations:
                kubectl.kubernetes.io/last-applied-configuration: |
                  {"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"name":"app","namespace":"default"},"spec":{"containers":[{"command":["sh","-c","sleep 3600"],"image":"busybox:1.36","name":"app"}],"initContainers":[{"command":["sh","-c","echo ready"],"image":"busybox:1.36","name":"setup"}],"nodeName":"kind-worker"}}
              creationTimestamp: "2026-01-01T00:00:00Z"
              generation: 1
              name: app
              namespace: default
              resourceVersion: "197"
              uid: c34d0bff-9015-4280-a099-ec6cd7363ca5
            spec:
              containers:
              - command:
                - sh
                - -c
                - sleep 3600
                image: busybox:1.36
                imagePullPolicy: IfNotPresent
                name: app
                terminationMessagePath: /dev/termination-log
                terminationMessagePolicy: File
                volumeMounts:
                - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                  name: kube-api-access-t29pp
                  readOnly: true
              dnsPolicy: ClusterFirst
              enableServiceLinks: true
              initContainers:
              - command:
                - sh
                - -c
                - echo ready
                image: busybox:1.36
                imagePullPolicy: IfNotPresent
                name: setup
                terminationMessagePath: /dev/termination-log
                terminationMessagePolicy: File
                volumeMounts:
                - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                  name: kube-api-access-t29pp
                  readOnly: true
              nodeName: kind-worker
              preemptionPolicy: PreemptLowerPriority
              priority: 0
              restartPolicy: Always
              schedulerName: default-scheduler
              securityContext: {}
              serviceAccount: default
              serviceAccountName: default
              terminationGracePeriodSeconds: 30
              tolerations:
              - effect: NoExecute
                key: node.kubernetes.io/not-ready
                operator: Exists
                tolerationSeconds: 300
              - effect: NoExecute
                key: node.kubernetes.io/unreachable
                operator: Exists
                tolerationSeconds: 300
              volumes:
              - name: kube-api-access-t29pp
                projected:
                  defaultMode: 420
                  sources:
                  - serviceAccountToken:
                      expirationSeconds: 3607
                      path: token
                  - configMap:
                      items:
                      - key: ca.crt
                        path: ca.crt
                      name: kube-root-ca.crt
                  - downwardAPI:
                      items:
                      - fieldRef:
                          apiVersion: v1
                          fieldPath: metadata.namespace
                        path: namespace
            status:
              conditions:
              - lastTransitionTime: "2026-01-01T00:00:31Z"
                observedGeneration: 1
                status: "True"
                type: PodReadyToStartContainers
              - lastTransitionTime: "2026-01-01T00:00:31Z"
                observedGeneration: 1
                status: "True"
                type: Initialized
              - lastTransitionTime: "2026-01-01T00:00:32Z"
                observedGeneration: 1
                status: "True"
                type: Ready
              - lastTransitionTime: "2026-01-01T00:00:32Z"
                observedGeneration: 1
                status: "True"
                type: ContainersReady
              - lastTransitionTime: "2026-01-01T00:00:00Z"
                observedGeneration: 1
                status: "True"
                type: PodScheduled
              containerStatuses:
              - containerID: containerd://4f05f03735c3b951bc73014050141d0196bf5d405151ec53aa3de53fbde4ae5b
                image: docker.io/library/busybox:1.36
                imageID: docker.io/library/busybox@sha256:f9e1702a986c880b43a898f22c2463373f2c269b344f12f84e55412187e5ca16
                lastState:
                  terminated:
                    containerID: containerd://e4d9303221373073e9a6100461edd57a4d4673ef77ba057421af8cfd4c4cbee5
                    exitCode: 255
                    finishedAt: "2026-01-01T00:00:20Z"
                    reason: Unknown
                    startedAt: "2026-01-01T00:00:01Z"
                name: app
                ready: true
                restartCount: 1
                started: true
                state:
                  running:
                    startedAt: "2026-01-01T00:00:31Z"
                volumeMounts:
                - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                  name: kube-api-access-t29pp
                  readOnly: true
                  recursiveReadOnly: Disabled
              hostIP: 172.18.0.3
              hostIPs:
              - ip: 172.18.0.3
              initContainerStatuses:
              - containerID: containerd://bcf35b6db5f3ba40c7c9572ddea951a8635b0b7e74f0c83e18c80a5e762810c2
                image: docker.io/library/busybox:1.36
                imageID: docker.io/library/busybox@sha256:f9e1702a986c880b43a898f22c2463373f2c269b344f12f84e55412187e5ca16
                lastState:
                  terminated:
                    containerID: containerd://d16aa4b296eb9d18ab27a171be5b133cdca0c749607e2c86b54b3c40881e2907
                    exitCode: 0
                    finishedAt: "2026-01-01T00:00:00Z"
                    reason: Completed
                    startedAt: "2026-01-01T00:00:00Z"
                name: setup
                ready: false
                restartCount: 1
                started: false
                state:
                  terminated:
                    containerID: containerd://bcf35b6db5f3ba40c7c9572ddea951a8635b0b7e74f0c83e18c80a5e762810c2
                    exitCode: 0
                    finishedAt: "2026-01-01T00:00:30Z"
                    reason: Completed
                    startedAt: "2026-01-01T00:00:30Z"
                volumeMounts:
                - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                  name: kube-api-access-t29pp
                  readOnly: true
                  recursiveReadOnly: Disabled
              observedGeneration: 1
              phase: Running
              podIP: 10.244.1.4
              podIPs:
              - ip: 10.244.1.4
              qosClass: BestEffort
              startTime: "2026-01-01T00:00:00Z"
            (exit status 0)
            [51012ms-51012ms, 5 steps] $ kubectl get pod once -o yaml
            apiVersion: v1
            kind: Pod
            metadata:
              annotations:
                kubectl.kubernetes.io/last-applied-configuration: |
                  {"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"name":"once","namespace":"default"},"spec":{"containers":[{"command":["sh","-c","sleep 3600"],"image":"busybox:1.36","name":"once"}],"nodeName":"kind-worker","restartPolicy":"Never"}}
              creationTimestamp: "2026-01-01T00:00:00Z"
              generation: 1
              name: once
              namespace: default
              resourceVersion: "189"
              uid: 7476cf8a-4baa-4dc0-87b3-41d690d7a28a
            spec:
              containers:
              - command:
                - sh
                - -c
                - sleep 3600
                image: busybox:1.36
                imagePullPolicy: IfNotPresent
                name: once
                terminationMessagePath: /dev/termination-log
                terminationMessagePolicy: File
                volumeMounts:
                - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                  name: kube-api-access-sk4nv
                  readOnly: true
              dnsPolicy: ClusterFirst
              enableServiceLinks: true
              nodeName: kind-worker
              preemptionPolicy: PreemptLowerPriority
              priority: 0
              restartPolicy: Never
              schedulerName: default-scheduler
              securityContext: {}
              serviceAccount: default
              serviceAccountName: default
              terminationGracePeriodSeconds: 30
              tolerations:
              - effect: NoExecute
                key: node.kubernetes.io/not-ready
                operator: Exists
                tolerationSeconds: 300
              - effect: NoExecute
                key: node.kubernetes.io/unreachable
                operator: Exists
                tolerationSeconds: 300
              volumes:
              - name: kube-api-access-sk4nv
                projected:
                  defaultMode: 420
                  sources:
                  - serviceAccountToken:
                      expirationSeconds: 3607
                      path: token
                  - configMap:
                      items:
                      - key: ca.crt
                        path: ca.crt
                      name: kube-root-ca.crt
                  - downwardAPI:
                      items:
                      - fieldRef:
                          apiVersion: v1
                          fieldPath: metadata.namespace
                        path: namespace
            status:
              conditions:
              - lastTransitionTime: "2026-01-01T00:00:30Z"
                observedGeneration: 1
                status: "False"
                type: PodReadyToStartContainers
              - lastTransitionTime: "2026-01-01T00:00:00Z"
                observedGeneration: 1
                status: "True"
                type: Initialized
              - lastTransitionTime: "2026-01-01T00:00:30Z"
                message: "containers with unready status: [once]"
                observedGeneration: 1
                reason: ContainersNotReady
                status: "False"
                type: Ready
              - lastTransitionTime: "2026-01-01T00:00:30Z"
                message: "containers with unready status: [once]"
                observedGeneration: 1
                reason: ContainersNotReady
                status: "False"
                type: ContainersReady
              - lastTransitionTime: "2026-01-01T00:00:00Z"
                observedGeneration: 1
                status: "True"
                type: PodScheduled
              containerStatuses:
              - containerID: containerd://f55540b2bff06252e02852925a4dc85286c5d1b05ce2ce141180b23a1075b77f
                image: docker.io/library/busybox:1.36
                imageID: docker.io/library/busybox@sha256:f9e1702a986c880b43a898f22c2463373f2c269b344f12f84e55412187e5ca16
                lastState: {}
                name: once
                ready: false
                restartCount: 0
                started: false
                state:
                  terminated:
                    containerID: containerd://f55540b2bff06252e02852925a4dc85286c5d1b05ce2ce141180b23a1075b77f
                    exitCode: 255
                    finishedAt: "2026-01-01T00:00:20Z"
                    reason: Unknown
                    startedAt: "2026-01-01T00:00:01Z"
                volumeMounts:
                - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                  name: kube-api-access-sk4nv
                  readOnly: true
                  recursiveReadOnly: Disabled
              hostIP: 172.18.0.3
              hostIPs:
              - ip: 172.18.0.3
              observedGeneration: 1
              phase: Failed
              podIP: 10.244.1.3
              podIPs:
              - ip: 10.244.1.3
              qosClass: BestEffort
              startTime: "2026-01-01T00:00:00Z"
            (exit status 0)
            [settled at 95004ms]
            NAME   READY   STATUS    RESTARTS      AGE
            app    1/1     Running   1 (75s ago)   95s
            once   0/1     Unknown   0             95s
        "#]].assert_eq(&transcript(&script));
    }

    /// A kubelet stopped past the grace period: the node goes NotReady while its Pod runs on;
    /// started again, the kubelet posts its node status and the node is Ready.
    #[test]
    fn a_started_kubelet_posts_its_node_status_again() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nlab stop kubelet kind-worker\nsleep 70s\nkubectl get nodes\nlab start kubelet kind-worker\nsleep 10s\nkubectl get nodes\nkubectl get pods -o wide\n"
        );
        expect![[r#"
            [0ms-4ms, 16 steps] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms, 91 steps] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms, 1 steps] $ lab stop kubelet kind-worker
            kubelet/kind-worker stopped: it loses its work queues and sees no watch event until it starts again (as `systemctl stop kubelet` on kind-worker does)
            (exit status 0)
            [20004ms-90004ms, 20 steps] $ sleep 70s
            (exit status 0)
            [90004ms-90004ms, 4 steps] $ kubectl get nodes
            NAME                 STATUS     ROLES           AGE   VERSION
            kind-control-plane   Ready      control-plane   90s   v1.37.0
            kind-worker          NotReady   <none>          90s   v1.37.0
            kind-worker2         Ready      <none>          90s   v1.37.0
            (exit status 0)
            [90004ms-90004ms, 1 steps] $ lab start kubelet kind-worker
            kubelet/kind-worker started: it lists every object again and reconciles what changed while it was down (as `systemctl start kubelet` on kind-worker does)
            (exit status 0)
            [90004ms-100004ms, 30 steps] $ sleep 10s
            (exit status 0)
            [100004ms-100004ms, 4 steps] $ kubectl get nodes
            NAME                 STATUS   ROLES           AGE    VERSION
            kind-control-plane   Ready    control-plane   100s   v1.37.0
            kind-worker          Ready    <none>          100s   v1.37.0
            kind-worker2         Ready    <none>          100s   v1.37.0
            (exit status 0)
            [100004ms-100004ms, 4 steps] $ kubectl get pods -o wide
            NAME                   READY   STATUS    RESTARTS   AGE    IP           NODE           NOMINATED NODE   READINESS GATES
            web-7c64c74567-9vtnp   1/1     Running   0          100s   10.244.2.2   kind-worker2   <none>           <none>
            web-7c64c74567-pgw5x   1/1     Running   0          100s   10.244.1.2   kind-worker    <none>           <none>
            (exit status 0)
            [settled at 300000ms]
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-9vtnp   1/1     Running   0          5m
            web-7c64c74567-pgw5x   1/1     Running   0          5m
        "#]].assert_eq(&transcript(&script));
    }

    /// Powered on while the API server is down: the kubelet restarts its Pods' containers
    /// without the API server, its first node status is refused, and the next status sync
    /// after the API server is back posts Ready.
    #[test]
    fn a_node_powered_on_during_an_api_outage_reports_ready_once_it_is_back() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nlab power-off kind-worker\nsleep 70s\nlab stop kube-apiserver\nlab power-on kind-worker\nsleep 10s\nlab start kube-apiserver\nsleep 15s\nkubectl get nodes\nkubectl get pods -o wide\n"
        );
        expect![[r#"
            [0ms-4ms, 16 steps] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms, 91 steps] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms, 2 steps] $ lab power-off kind-worker
            kind-worker powered off: every container and pod sandbox on it died with the machine, and its kubelet stopped posting node status and renewing its Lease. Nobody tells the API server: after the node monitor grace period (50s) the node-lifecycle controller sets the node's conditions to Unknown and taints it node.kubernetes.io/unreachable, and the taint eviction controller deletes its Pods once their toleration runs out (300s by default); they stay Terminating, since no kubelet confirms the kill (as `docker stop kind-worker` does to kind's node container)
            (exit status 0)
            [20004ms-90004ms, 20 steps] $ sleep 70s
            (exit status 0)
            [90004ms-90004ms, 1 steps] $ lab stop kube-apiserver
            kube-apiserver stopped: every client's connection is refused: kubectl's, the controllers' and the scheduler's (they see no watch event and can write nothing), the kubelets' (they keep running their Pods' containers and retry their status writes) (as when /etc/kubernetes/manifests/kube-apiserver.yaml is moved away on kind-control-plane and the kubelet stops the static Pod)
            (exit status 0)
            [90004ms-90004ms, 1 steps] $ lab power-on kind-worker
            kind-worker powered on: containerd finds its old sandboxes not ready and its containers exited (255, Unknown); the kubelet starts with an empty memory, posts its node status (Ready again, so the node-lifecycle controller lifts the node.kubernetes.io/unreachable taints), lists its Pods from the API server, re-creates the sandbox of each Pod still bound to it (SandboxChanged, a new IP, each container's restart count one higher) and completes the deletion of those deleted while it was off (as `docker start kind-worker` does); kube-apiserver is down, so the kubelet runs its Pods from what it last knew and its writes are refused until it is back
            (exit status 0)
            [90004ms-100004ms, 51 steps] $ sleep 10s
            (exit status 0)
            [100004ms-100004ms, 17 steps] $ lab start kube-apiserver
            kube-apiserver started: the API server answers again; kube-controller-manager and kube-scheduler list every object again and reconcile what changed, the kubelets resync their Pods and send the status they could not (as when /etc/kubernetes/manifests/kube-apiserver.yaml is put back on kind-control-plane and the kubelet starts the static Pod)
            (exit status 0)
            [100004ms-115004ms, 30 steps] $ sleep 15s
            (exit status 0)
            [115004ms-115004ms, 4 steps] $ kubectl get nodes
            NAME                 STATUS   ROLES           AGE    VERSION
            kind-control-plane   Ready    control-plane   115s   v1.37.0
            kind-worker          Ready    <none>          115s   v1.37.0
            kind-worker2         Ready    <none>          115s   v1.37.0
            (exit status 0)
            [115004ms-115004ms, 4 steps] $ kubectl get pods -o wide
            NAME                   READY   STATUS    RESTARTS      AGE    IP           NODE           NOMINATED NODE   READINESS GATES
            web-7c64c74567-9vtnp   1/1     Running   0             115s   10.244.2.2   kind-worker2   <none>           <none>
            web-7c64c74567-pgw5x   1/1     Running   1 (95s ago)   115s   10.244.1.3   kind-worker    <none>           <none>
            (exit status 0)
            [settled at 300000ms]
            NAME                   READY   STATUS    RESTARTS        AGE
            web-7c64c74567-9vtnp   1/1     Running   0               5m
            web-7c64c74567-pgw5x   1/1     Running   1 (4m40s ago)   5m
        "#]].assert_eq(&transcript(&script));
    }

    /// Probes start over with the restarted container: not ready until its readiness probe
    /// passes again after its initial delay; the liveness probe finds it alive.
    #[test]
    fn a_power_cycled_pods_probes_start_over() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  nodeName: kind-worker\n  containers:\n  - name: nginx\n    image: nginx:1.29\n    ports:\n    - containerPort: 80\n    readinessProbe:\n      httpGet: {path: /, port: 80}\n      initialDelaySeconds: 5\n      periodSeconds: 5\n    livenessProbe:\n      httpGet: {path: /, port: 80}\n      periodSeconds: 5\n";
        let script = format!(
            "kubectl apply -f - <<EOF\n{pod}EOF\nsleep 20s\nkubectl get pods\nlab power-off kind-worker\nsleep 5s\nlab power-on kind-worker\nsleep 3s\nkubectl get pods\nsleep 10s\nkubectl get pods\nsleep 60s\nkubectl get pods -o wide\n"
        );
        expect![[r#"
            [0ms-4ms, 23 steps] $ kubectl apply -f -
            pod/web created
            (exit status 0)
            [4ms-20004ms, 27 steps] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms, 4 steps] $ kubectl get pods
            NAME   READY   STATUS    RESTARTS   AGE
            web    1/1     Running   0          20s
            (exit status 0)
            [20004ms-20004ms, 2 steps] $ lab power-off kind-worker
            kind-worker powered off: every container and pod sandbox on it died with the machine, and its kubelet stopped posting node status and renewing its Lease. Nobody tells the API server: after the node monitor grace period (50s) the node-lifecycle controller sets the node's conditions to Unknown and taints it node.kubernetes.io/unreachable, and the taint eviction controller deletes its Pods once their toleration runs out (300s by default); they stay Terminating, since no kubelet confirms the kill (as `docker stop kind-worker` does to kind's node container)
            (exit status 0)
            [20004ms-25004ms, 0 steps] $ sleep 5s
            (exit status 0)
            [25004ms-25004ms, 1 steps] $ lab power-on kind-worker
            kind-worker powered on: containerd finds its old sandboxes not ready and its containers exited (255, Unknown); the kubelet starts with an empty memory, posts its node status (Ready again, so the node-lifecycle controller lifts the node.kubernetes.io/unreachable taints), lists its Pods from the API server, re-creates the sandbox of each Pod still bound to it (SandboxChanged, a new IP, each container's restart count one higher) and completes the deletion of those deleted while it was off (as `docker start kind-worker` does)
            (exit status 0)
            [25004ms-28004ms, 23 steps] $ sleep 3s
            (exit status 0)
            [28004ms-28004ms, 4 steps] $ kubectl get pods
            NAME   READY   STATUS    RESTARTS     AGE
            web    0/1     Running   1 (8s ago)   28s
            (exit status 0)
            [28004ms-38004ms, 3 steps] $ sleep 10s
            (exit status 0)
            [38004ms-38004ms, 4 steps] $ kubectl get pods
            NAME   READY   STATUS    RESTARTS      AGE
            web    1/1     Running   1 (18s ago)   38s
            (exit status 0)
            [38004ms-98004ms, 0 steps] $ sleep 60s
            (exit status 0)
            [98004ms-98004ms, 4 steps] $ kubectl get pods -o wide
            NAME   READY   STATUS    RESTARTS      AGE   IP           NODE          NOMINATED NODE   READINESS GATES
            web    1/1     Running   1 (78s ago)   98s   10.244.1.3   kind-worker   <none>           <none>
            (exit status 0)
            [settled at 98004ms]
            NAME   READY   STATUS    RESTARTS      AGE
            web    1/1     Running   1 (78s ago)   98s
        "#]].assert_eq(&transcript(&script));
    }

    /// The control-plane node is not powered off; unknown nodes and missing names are refused.
    #[test]
    fn power_off_refuses_the_control_plane_and_unknown_nodes() {
        expect![[r#"
            [0ms-0ms, 0 steps] $ lab power-off kind-control-plane
            lab: kind-control-plane runs the control plane (etcd, kube-apiserver, kube-controller-manager and kube-scheduler as static Pods): powering it off stops the whole cluster, and kubectl could reach nothing until it boots again; the lab does not model that. `lab stop kube-apiserver` or `lab stop etcd` shows what clients see while the control plane is away; `lab power-off` a worker node shows a machine lost
            (exit status 1)
            [0ms-0ms, 0 steps] $ lab power-off kind-worker9
            lab: no node named kind-worker9 in this cluster
            (exit status 1)
            [0ms-0ms, 0 steps] $ lab power-on
            usage: lab stop|start kube-apiserver|etcd|kube-scheduler|kube-controller-manager|kubelet NODE
                   lab stop control-plane-component
                   lab power-off|power-on NODE
            (exit status 1)
            [0ms-0ms, 0 steps] $ lab power-on kind-worker2
            kind-worker2 is already powered on
            (exit status 0)
            [settled at 60000ms]
            No resources found in default namespace.
        "#]].assert_eq(&transcript(
            "lab power-off kind-control-plane\nlab power-off kind-worker9\nlab power-on\nlab power-on kind-worker2\n",
        ));
    }

    /// The controller manager stopped: a deleted Pod of a Deployment is not replaced until
    /// it starts again and resyncs the ReplicaSet.
    #[test]
    fn a_stopped_controller_manager_does_not_replace_a_deleted_pod() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nlab stop kube-controller-manager\nkubectl delete pod web-7c64c74567-pgw5x\nsleep 30s\nkubectl get pods\nlab start kube-controller-manager\nsleep 10s\nkubectl get pods\n"
        );
        expect![[r#"
            [0ms-4ms, 16 steps] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms, 91 steps] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms, 1 steps] $ lab stop kube-controller-manager
            kube-controller-manager stopped: it loses its work queues and sees no watch event until it starts again (as when /etc/kubernetes/manifests/kube-controller-manager.yaml is moved away on kind-control-plane and the kubelet stops the static Pod)
            (exit status 0)
            [20004ms-20126ms, 14 steps] $ kubectl delete pod web-7c64c74567-pgw5x
            pod "web-7c64c74567-pgw5x" deleted from default namespace
            (exit status 0)
            [20126ms-50126ms, 0 steps] $ sleep 30s
            (exit status 0)
            [50126ms-50126ms, 4 steps] $ kubectl get pods
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-9vtnp   1/1     Running   0          50s
            (exit status 0)
            [50126ms-50126ms, 15 steps] $ lab start kube-controller-manager
            kube-controller-manager started: it lists every object again and reconciles what changed while it was down (as when /etc/kubernetes/manifests/kube-controller-manager.yaml is put back on kind-control-plane and the kubelet starts the static Pod)
            (exit status 0)
            [50126ms-60126ms, 46 steps] $ sleep 10s
            (exit status 0)
            [60126ms-60126ms, 4 steps] $ kubectl get pods
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-9vtnp   1/1     Running   0          60s
            web-7c64c74567-lztwr   1/1     Running   0          10s
            (exit status 0)
            [settled at 115126ms]
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-9vtnp   1/1     Running   0          115s
            web-7c64c74567-lztwr   1/1     Running   0          65s
        "#]].assert_eq(&transcript(&script));
    }

    /// Cascading deletes: a Deployment deleted in the background takes its ReplicaSet and
    /// Pods with it (the garbage collector); with --cascade=orphan the Pods stay, ownerless;
    /// `-l` picks by label.
    #[test]
    fn pods_keep_running_through_an_api_server_outage() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}---\n{CRASHER}EOF\nsleep 20s\nlab stop kube-apiserver\nkubectl get pods\nkubectl delete pod web-7c64c74567-pgw5x\nkubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 30s\nlab start kube-apiserver\nsleep 5s\nkubectl get pods\n"
        );
        expect![[r#"
            [0ms-12ms, 74 steps] $ kubectl apply -f -
            deployment.apps/web created
            pod/crasher created
            (exit status 0)
            [12ms-20012ms, 97 steps] $ sleep 20s
            (exit status 0)
            [20012ms-20012ms, 1 steps] $ lab stop kube-apiserver
            kube-apiserver stopped: every client's connection is refused: kubectl's, the controllers' and the scheduler's (they see no watch event and can write nothing), the kubelets' (they keep running their Pods' containers and retry their status writes) (as when /etc/kubernetes/manifests/kube-apiserver.yaml is moved away on kind-control-plane and the kubelet stops the static Pod)
            (exit status 0)
            [20012ms-20012ms, 1 steps] $ kubectl get pods
            E0101 00:00:20.012000   48240 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.013500   48240 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.015000   48240 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.016500   48240 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.018000   48240 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?
            (exit status 1)
            [20012ms-20012ms, 1 steps] $ kubectl delete pod web-7c64c74567-pgw5x
            E0101 00:00:20.012000   48249 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.013500   48249 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.015000   48249 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.016500   48249 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.018000   48249 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?
            (exit status 1)
            [20012ms-20012ms, 1 steps] $ kubectl apply -f -
            error: error validating "STDIN": error validating data: failed to download openapi: Get "https://127.0.0.1:6443/openapi/v2?timeout=32s": dial tcp 127.0.0.1:6443: connect: connection refused; if you choose to ignore these errors, turn validation off with --validate=false
            (exit status 1)
            [20012ms-50012ms, 21 steps] $ sleep 30s
            (exit status 0)
            [50012ms-50012ms, 15 steps] $ lab start kube-apiserver
            kube-apiserver started: the API server answers again; kube-controller-manager and kube-scheduler list every object again and reconcile what changed, the kubelets resync their Pods and send the status they could not (as when /etc/kubernetes/manifests/kube-apiserver.yaml is put back on kind-control-plane and the kubelet starts the static Pod)
            (exit status 0)
            [50012ms-55012ms, 2 steps] $ sleep 5s
            (exit status 0)
            [55012ms-55012ms, 4 steps] $ kubectl get pods
            NAME                   READY   STATUS             RESTARTS      AGE
            crasher                0/1     CrashLoopBackOff   2 (11s ago)   55s
            web-7c64c74567-9vtnp   1/1     Running            0             55s
            web-7c64c74567-pgw5x   1/1     Running            0             55s
            (exit status 0)
            [settled at 185012ms]
            NAME                   READY   STATUS             RESTARTS      AGE
            crasher                0/1     CrashLoopBackOff   4 (61s ago)   3m5s
            web-7c64c74567-9vtnp   1/1     Running            0             3m5s
            web-7c64c74567-pgw5x   1/1     Running            0             3m5s
        "#]].assert_eq(&transcript(&script));
    }

    #[test]
    fn a_stopped_etcd_cuts_every_client_off_until_it_starts() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nlab stop etcd\nkubectl scale deployment web --replicas=3\nlab stop kube-apiserver\nlab start etcd\nkubectl get deploy\nlab start kube-apiserver\nkubectl scale deployment web --replicas=3\nsleep 10s\nkubectl get deploy\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms] $ lab stop etcd
              > lab: etcd stopped: kube-apiserver can no longer read or write anything; its /livez check fails, the kubelet on kind-control-plane restarts it and it exits at start, so every client's connection is refused: kubectl's, the controllers' and the scheduler's, the kubelets' (they keep running their Pods' containers and retry their status writes) (as when /etc/kubernetes/manifests/etcd.yaml is moved away on kind-control-plane and the kubelet stops the static Pod)
            etcd stopped: kube-apiserver can no longer read or write anything; its /livez check fails, the kubelet on kind-control-plane restarts it and it exits at start, so every client's connection is refused: kubectl's, the controllers' and the scheduler's, the kubelets' (they keep running their Pods' containers and retry their status writes) (as when /etc/kubernetes/manifests/etcd.yaml is moved away on kind-control-plane and the kubelet stops the static Pod)
            (exit status 0)
            [20004ms-20004ms] $ kubectl scale deployment web --replicas=3
              > kubectl cannot connect: dial tcp 127.0.0.1:6443: connect: connection refused (kube-apiserver is down); nothing was sent, nothing changed in the cluster
            E0101 00:00:20.004000   48240 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.005500   48240 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.007000   48240 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.008500   48240 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.010000   48240 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?
            (exit status 1)
            [20004ms-20004ms] $ lab stop kube-apiserver
              > lab: kube-apiserver stopped: every client's connection is refused: kubectl's, the controllers' and the scheduler's (they see no watch event and can write nothing), the kubelets' (they keep running their Pods' containers and retry their status writes) (as when /etc/kubernetes/manifests/kube-apiserver.yaml is moved away on kind-control-plane and the kubelet stops the static Pod)
            kube-apiserver stopped: every client's connection is refused: kubectl's, the controllers' and the scheduler's (they see no watch event and can write nothing), the kubelets' (they keep running their Pods' containers and retry their status writes) (as when /etc/kubernetes/manifests/kube-apiserver.yaml is moved away on kind-control-plane and the kubelet stops the static Pod)
            (exit status 0)
            [20004ms-20004ms] $ lab start etcd
              > lab: etcd started (as when /etc/kubernetes/manifests/etcd.yaml is put back on kind-control-plane and the kubelet starts the static Pod); kube-apiserver is still stopped, so clients are still refused
            etcd started (as when /etc/kubernetes/manifests/etcd.yaml is put back on kind-control-plane and the kubelet starts the static Pod); kube-apiserver is still stopped, so clients are still refused
            (exit status 0)
            [20004ms-20004ms] $ kubectl get deploy
              > kubectl cannot connect: dial tcp 127.0.0.1:6443: connect: connection refused (kube-apiserver is down); nothing was sent, nothing changed in the cluster
            E0101 00:00:20.004000   48267 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.005500   48267 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.007000   48267 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.008500   48267 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            E0101 00:00:20.010000   48267 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"
            The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?
            (exit status 1)
            [20004ms-20004ms] $ lab start kube-apiserver
              > lab: kube-apiserver started: the API server answers again; kube-controller-manager and kube-scheduler list every object again and reconcile what changed, the kubelets resync their Pods and send the status they could not (as when /etc/kubernetes/manifests/kube-apiserver.yaml is put back on kind-control-plane and the kubelet starts the static Pod)
            kube-apiserver started: the API server answers again; kube-controller-manager and kube-scheduler list every object again and reconcile what changed, the kubelets resync their Pods and send the status they could not (as when /etc/kubernetes/manifests/kube-apiserver.yaml is put back on kind-control-plane and the kubelet starts the static Pod)
            (exit status 0)
            [20004ms-20004ms] $ kubectl scale deployment web --replicas=3
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web/scale
            deployment.apps/web scaled
            (exit status 0)
            [20004ms-30004ms] $ sleep 10s
            (exit status 0)
            [30004ms-30004ms] $ kubectl get deploy
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments?limit=500
            NAME   READY   UP-TO-DATE   AVAILABLE   AGE
            web    3/3     3            3           30s
            (exit status 0)
        "#]].assert_eq(&transcript_with_requests(&script));
    }

    #[test]
    fn describe_replicasets_and_services() {
        let service = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n    targetPort: 80\n";
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}---\n{service}EOF\nsleep 10s\nkubectl describe rs\nkubectl describe service web\nkubectl describe svc nothing\n"
        );
        expect![[r#"
            [0ms-12ms, 66 steps] $ kubectl apply -f -
            deployment.apps/web created
            service/web created
            (exit status 0)
            [12ms-10012ms, 67 steps] $ sleep 10s
            (exit status 0)
            [10012ms-10012ms, 4 steps] $ kubectl describe rs
            Name:           web-7c64c74567
            Namespace:      default
            Selector:       app=web,pod-template-hash=7c64c74567
            Labels:         app=web
                            pod-template-hash=7c64c74567
            Annotations:    deployment.kubernetes.io/desired-replicas: 2
                            deployment.kubernetes.io/max-replicas: 3
                            deployment.kubernetes.io/revision: 1
            Controlled By:  Deployment/web
            Replicas:       2 current / 2 desired
            Pods Status:    2 Running / 0 Waiting / 0 Succeeded / 0 Failed
            Pod Template:
              Labels:  app=web
                       pod-template-hash=7c64c74567
              Containers:
               nginx:
                Image:         nginx:1.29
                Port:          <none>
                Host Port:     <none>
                Environment:   <none>
                Mounts:        <none>
              Volumes:         <none>
              Node-Selectors:  <none>
              Tolerations:     <none>
            Events:
              Type    Reason            Age   From                   Message
              ----    ------            ----  ----                   -------
              Normal  SuccessfulCreate  10s   replicaset-controller  Created pod: web-7c64c74567-pgw5x
              Normal  SuccessfulCreate  10s   replicaset-controller  Created pod: web-7c64c74567-9vtnp
            (exit status 0)
            [10012ms-10012ms, 5 steps] $ kubectl describe service web
            Name:                     web
            Namespace:                default
            Labels:                   <none>
            Annotations:              <none>
            Selector:                 app=web
            Type:                     ClusterIP
            IP Family Policy:         SingleStack
            IP Families:              IPv4
            IP:                       10.96.222.144
            IPs:                      10.96.222.144
            Port:                     <unset>  80/TCP
            TargetPort:               80/TCP
            Endpoints:                10.244.2.2:80,10.244.1.2:80
            Session Affinity:         None
            Internal Traffic Policy:  Cluster
            Events:                   <none>
            (exit status 0)
            [10012ms-10012ms, 9 steps] $ kubectl describe svc nothing
            Error from server (NotFound): services "nothing" not found
            (exit status 1)
            [settled at 65004ms]
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-9vtnp   1/1     Running   0          65s
            web-7c64c74567-pgw5x   1/1     Running   0          65s
        "#]]
        .assert_eq(&transcript(&script));
    }

    #[test]
    fn a_pod_of_the_cluster_file_without_a_node_is_scheduled() {
        let cluster = "apiVersion: podlab.dev/v1alpha1\nkind: LabSettings\nextends: kind\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: preexisting\nspec:\n  containers:\n  - name: app\n    image: nginx:1.29\n";
        let loaded = Loaded::load(Some(cluster)).unwrap();
        let mut session = Session::new(&loaded, 1, None, None, crate::lab::DEFAULT_LIMIT_MS).unwrap();
        let read = |_: &str| None;
        let mut out = String::new();
        // Before the scheduler has run it is Pending, defaulted as the API server would have
        // stored it.
        let script = "kubectl get pods\nsleep 10s\nkubectl get pods -o wide\n";
        for c in parse_script(script, &read).unwrap() {
            out += &session.run(&c).stdout;
        }
        expect![[r#"
            NAME          READY   STATUS    RESTARTS   AGE
            preexisting   0/1     Pending   0          0s
            NAME          READY   STATUS    RESTARTS   AGE   IP           NODE          NOMINATED NODE   READINESS GATES
            preexisting   1/1     Running   0          10s   10.244.1.2   kind-worker   <none>           <none>
        "#]]
        .assert_eq(&out);
        let stored = loaded.core.store.get("/registry/pods/default/preexisting").map(|(o, _)| o.to_json()).unwrap();
        assert_eq!(stored.pointer("/status/qosClass"), Some(&serde_json::json!("BestEffort")));
        assert_eq!(stored.pointer("/spec/containers/0/imagePullPolicy"), Some(&serde_json::json!("IfNotPresent")));
        assert_eq!(stored.pointer("/spec/restartPolicy"), Some(&serde_json::json!("Always")));
        // The one-command run schedules it too.
        let mut input = crate::lab::LabInput::new("", "empty.yaml");
        input.cluster = Some(cluster.to_string());
        let run = crate::lab::run(&input).unwrap();
        let snap = Snapshot::new(run.store(), run.final_revision, run.end_ms);
        assert!(snap.get_pods("default", GetOptions::default()).contains("Running"));
    }

    #[test]
    fn deleting_a_deployment_cascades_unless_orphaned() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nkubectl delete deployment web\nsleep 40s\nkubectl get rs,pods\nkubectl get rs\nkubectl get pods\nkubectl apply -f - <<EOF\n{}EOF\nsleep 20s\nkubectl delete deploy api --cascade=orphan\nkubectl get replicasets\nkubectl delete rs -l app=api\nkubectl delete pods -l app=nothing\nsleep 5s\nkubectl get pods\n",
            DEPLOYMENT.replace("web", "api")
        );
        expect![[r#"
            [0ms-4ms, 16 steps] $ kubectl apply -f -
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms, 91 steps] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms, 6 steps] $ kubectl delete deployment web
            deployment.apps "web" deleted from default namespace
            (exit status 0)
            [20004ms-60004ms, 26 steps] $ sleep 40s
            (exit status 0)
            [60004ms-60004ms, 8 steps] $ kubectl get rs,pods
            No resources found in default namespace.
            (exit status 0)
            [60004ms-60004ms, 4 steps] $ kubectl get rs
            No resources found in default namespace.
            (exit status 0)
            [60004ms-60004ms, 4 steps] $ kubectl get pods
            No resources found in default namespace.
            (exit status 0)
            [60004ms-60008ms, 16 steps] $ kubectl apply -f -
            deployment.apps/api created
            (exit status 0)
            [60008ms-80008ms, 81 steps] $ sleep 20s
            (exit status 0)
            [80008ms-80011ms, 11 steps] $ kubectl delete deploy api --cascade=orphan
            deployment.apps "api" deleted from default namespace
            (exit status 0)
            [80011ms-80011ms, 4 steps] $ kubectl get replicasets
            NAME             DESIRED   CURRENT   READY   AGE
            api-774db8d685   2         2         2       20s
            (exit status 0)
            [80011ms-80011ms, 11 steps] $ kubectl delete rs -l app=api
            replicaset.apps "api-774db8d685" deleted from default namespace
            (exit status 0)
            [80011ms-80011ms, 4 steps] $ kubectl delete pods -l app=nothing
            No resources found
            (exit status 0)
            [80011ms-85011ms, 22 steps] $ sleep 5s
            (exit status 0)
            [85011ms-85011ms, 4 steps] $ kubectl get pods
            No resources found in default namespace.
            (exit status 0)
            [settled at 145004ms]
            No resources found in default namespace.
        "#]]
        .assert_eq(&transcript(&script));
    }

    /// Errors a learner meets: a missing object, an unknown resource type, flag and command,
    /// and a program that is not kubectl.
    #[test]
    fn command_errors_are_kubectls() {
        let script = "kubectl delete pod nope\nkubectl get widgets\nkubectl get pods --bogus\nkubectl frobnicate\nls -l\nsleep soon\nkubectl scale deployment web --replicas=2\nkubectl get pods\n";
        expect![[r#"
            [0ms-0ms, 4 steps] $ kubectl delete pod nope
            Error from server (NotFound): pods "nope" not found
            (exit status 1)
            [0ms-0ms, 0 steps] $ kubectl get widgets
            error: the server doesn't have a resource type "widgets"
            (exit status 1)
            [0ms-0ms, 0 steps] $ kubectl get pods --bogus
            Error: unknown flag: --bogus
            See 'kubectl get --help' for usage.
            (exit status 1)
            [0ms-0ms, 0 steps] $ kubectl frobnicate
            Error: unknown command "frobnicate" for "kubectl"
            (exit status 1)
            [0ms-0ms, 0 steps] $ ls -l
            podlab: ls: the lab runs kubectl commands and sleep only; in a real terminal this would run the program ls
            (exit status 1)
            [0ms-0ms, 0 steps] $ sleep soon
            sleep: invalid time interval 'soon'
            (exit status 1)
            [0ms-0ms, 5 steps] $ kubectl scale deployment web --replicas=2
            Error from server (NotFound): deployments.apps "web" not found
            (exit status 1)
            [0ms-0ms, 4 steps] $ kubectl get pods
            No resources found in default namespace.
            (exit status 0)
            [settled at 60000ms]
            No resources found in default namespace.
        "#]]
        .assert_eq(&transcript(script));
    }

    /// kubectl label and annotate: a GET then a merge patch. A Pod labelled out of its
    /// ReplicaSet's selector is released, and the ReplicaSet creates a replacement.
    #[test]
    fn label_and_annotate() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nkubectl label pod web-7c64c74567-pgw5x app=debug\nkubectl label pod web-7c64c74567-pgw5x app=debug --overwrite\nsleep 10s\nkubectl get pods -l app=web\nkubectl get pods -l app=debug\nkubectl label pods/web-7c64c74567-pgw5x tier=frontend\nkubectl label pods/web-7c64c74567-pgw5x tier=frontend\nkubectl label pods/web-7c64c74567-pgw5x tier-\nkubectl label pods/web-7c64c74567-pgw5x tier-\nkubectl label deploy web team=blue\nkubectl annotate deployment web owner=alice\nkubectl annotate deployment web owner=bob\nkubectl annotate deployment web owner=bob --overwrite\nkubectl annotate deployment web owner-\nkubectl label pod nope a=b\nkubectl label pod nope a=b --bogus\nkubectl label pod\nkubectl label pod nope a=b a-\nkubectl annotate pod nope a=b a-\nkubectl label pod nope 'a=b c'\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms] $ kubectl label pod web-7c64c74567-pgw5x app=debug
              > kubectl sends GET /api/v1/namespaces/default/pods/web-7c64c74567-pgw5x
            error: 'app' already has a value (web), and --overwrite is false
            (exit status 1)
            [20004ms-20004ms] $ kubectl label pod web-7c64c74567-pgw5x app=debug --overwrite
              > kubectl sends GET /api/v1/namespaces/default/pods/web-7c64c74567-pgw5x
              > kubectl sends PATCH /api/v1/namespaces/default/pods/web-7c64c74567-pgw5x?fieldManager=kubectl-label
            pod/web-7c64c74567-pgw5x labeled
            (exit status 0)
            [20004ms-30004ms] $ sleep 10s
            (exit status 0)
            [30004ms-30004ms] $ kubectl get pods -l app=web
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-5blzt   1/1     Running   0          10s
            web-7c64c74567-9vtnp   1/1     Running   0          30s
            (exit status 0)
            [30004ms-30004ms] $ kubectl get pods -l app=debug
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            NAME                   READY   STATUS    RESTARTS   AGE
            web-7c64c74567-pgw5x   1/1     Running   0          30s
            (exit status 0)
            [30004ms-30004ms] $ kubectl label pods/web-7c64c74567-pgw5x tier=frontend
              > kubectl sends GET /api/v1/namespaces/default/pods/web-7c64c74567-pgw5x
              > kubectl sends PATCH /api/v1/namespaces/default/pods/web-7c64c74567-pgw5x?fieldManager=kubectl-label
            pod/web-7c64c74567-pgw5x labeled
            (exit status 0)
            [30004ms-30004ms] $ kubectl label pods/web-7c64c74567-pgw5x tier=frontend
              > kubectl sends GET /api/v1/namespaces/default/pods/web-7c64c74567-pgw5x
            pod/web-7c64c74567-pgw5x not labeled
            (exit status 0)
            [30004ms-30004ms] $ kubectl label pods/web-7c64c74567-pgw5x tier-
              > kubectl sends GET /api/v1/namespaces/default/pods/web-7c64c74567-pgw5x
              > kubectl sends PATCH /api/v1/namespaces/default/pods/web-7c64c74567-pgw5x?fieldManager=kubectl-label
            pod/web-7c64c74567-pgw5x unlabeled
            (exit status 0)
            [30004ms-30004ms] $ kubectl label pods/web-7c64c74567-pgw5x tier-
              > kubectl sends GET /api/v1/namespaces/default/pods/web-7c64c74567-pgw5x
            label "tier" not found.
            pod/web-7c64c74567-pgw5x not labeled
            (exit status 0)
            [30004ms-30004ms] $ kubectl label deploy web team=blue
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-label
            deployment.apps/web labeled
            (exit status 0)
            [30004ms-30004ms] $ kubectl annotate deployment web owner=alice
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-annotate
            deployment.apps/web annotated
            (exit status 0)
            [30004ms-30004ms] $ kubectl annotate deployment web owner=bob
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            error: --overwrite is false but found the following declared annotation(s): 'owner' already has a value (alice)
            (exit status 1)
            [30004ms-30004ms] $ kubectl annotate deployment web owner=bob --overwrite
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-annotate
            deployment.apps/web annotated
            (exit status 0)
            [30004ms-30004ms] $ kubectl annotate deployment web owner-
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-annotate
            deployment.apps/web annotated
            (exit status 0)
            [30004ms-30004ms] $ kubectl label pod nope a=b
              > kubectl sends GET /api/v1/namespaces/default/pods/nope
            Error from server (NotFound): pods "nope" not found
            (exit status 1)
            [30004ms-30004ms] $ kubectl label pod nope a=b --bogus
            Error: unknown flag: --bogus
            See 'kubectl label --help' for usage.
            (exit status 1)
            [30004ms-30004ms] $ kubectl label pod
            error: at least one label update is required
            (exit status 1)
            [30004ms-30004ms] $ kubectl label pod nope a=b a-
            error: can not both modify and remove a label in the same command
            (exit status 1)
            [30004ms-30004ms] $ kubectl annotate pod nope a=b a-
            error: can not both modify and remove the following annotation(s) in the same command: a
            (exit status 1)
            [30004ms-30004ms] $ kubectl label pod nope 'a=b c'
            error: invalid label value: "a=b c": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
            (exit status 1)
        "#]].assert_eq(&transcript_with_requests(&script));
    }

    /// kubectl set image starts a rollout (a new ReplicaSet); rollout status follows it
    /// while cluster time passes; history, undo, pause, resume and restart.
    #[test]
    fn set_image_and_rollouts() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{}EOF\nsleep 20s\nkubectl set image deployment/web nginx=nginx:1.28\nkubectl rollout status deployment/web\nkubectl rollout history deployment/web\nkubectl set image deployment/web nginx=nginx:1.28\nkubectl set image deployment/web x=nginx:1.28\nkubectl rollout undo deployment/web\nkubectl rollout status deploy/web\nkubectl get rs\nkubectl rollout history deployment web\nkubectl rollout history deployment web --revision=2\nkubectl rollout undo deployment/web --to-revision=3\nkubectl rollout undo deployment/web --to-revision=9\nkubectl rollout pause deployment/web\nkubectl rollout pause deployment/web\nkubectl rollout restart deployment/web\nkubectl rollout undo deployment/web\nkubectl rollout resume deployment/web\nkubectl rollout resume deployment/web\nkubectl rollout restart deployment/web\nkubectl rollout status deployment/web\nkubectl set image deployment/web nginx=nginx:1.30\nkubectl rollout status deployment/web --timeout=40s\nkubectl get pods\nkubectl rollout status deployment/nope\nkubectl set image deployment/nope nginx=nginx:1.30\nkubectl rollout status deployment/web --bogus\nkubectl rollout frob deployment/web\nkubectl rollout status\nkubectl rollout undo deployment/web --to-revision=x\n",
            DEPLOYMENT.replace("replicas: 2", "replicas: 3")
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms] $ kubectl set image deployment/web nginx=nginx:1.28
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-set
            deployment.apps/web image updated
            (exit status 0)
            [20004ms-27012ms] $ kubectl rollout status deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            Waiting for deployment spec update to be observed...
            Waiting for deployment "web" rollout to finish: 0 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...
            Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...
            Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...
            deployment "web" successfully rolled out
            (exit status 0)
            [27012ms-27012ms] $ kubectl rollout history deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
            deployment.apps/web 
            REVISION  CHANGE-CAUSE
            1         <none>
            2         <none>

            (exit status 0)
            [27012ms-27012ms] $ kubectl set image deployment/web nginx=nginx:1.28
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            (exit status 0)
            [27012ms-27012ms] $ kubectl set image deployment/web x=nginx:1.28
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            error: unable to find container named "x"
            (exit status 1)
            [27012ms-27012ms] $ kubectl rollout undo deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-rollout
            deployment.apps/web rolled back
            (exit status 0)
            [27012ms-30012ms] $ kubectl rollout status deploy/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            Waiting for deployment spec update to be observed...
            Waiting for deployment "web" rollout to finish: 0 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 0 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...
            Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...
            Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...
            deployment "web" successfully rolled out
            (exit status 0)
            [30012ms-30012ms] $ kubectl get rs
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
            NAME             DESIRED   CURRENT   READY   AGE
            web-7c64c74567   3         3         3       30s
            web-c47498c66    0         0         0       10s
            (exit status 0)
            [30012ms-30012ms] $ kubectl rollout history deployment web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
            deployment.apps/web 
            REVISION  CHANGE-CAUSE
            2         <none>
            3         <none>

            (exit status 0)
            [30012ms-30012ms] $ kubectl rollout history deployment web --revision=2
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
            deployment.apps/web with revision #2
            Pod Template:
              Labels:  app=web
                       pod-template-hash=c47498c66
              Containers:
               nginx:
                Image:         nginx:1.28
                Port:          <none>
                Host Port:     <none>
                Environment:   <none>
                Mounts:        <none>
              Volumes:         <none>
              Node-Selectors:  <none>
              Tolerations:     <none>

            (exit status 0)
            [30012ms-30012ms] $ kubectl rollout undo deployment/web --to-revision=3
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
            deployment.apps/web skipped rollback (current template already matches revision 3)
            (exit status 0)
            [30012ms-30012ms] $ kubectl rollout undo deployment/web --to-revision=9
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
            error: unable to find specified revision 9 in history
            (exit status 1)
            [30012ms-30012ms] $ kubectl rollout pause deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-rollout
            deployment.apps/web paused
            (exit status 0)
            [30012ms-30012ms] $ kubectl rollout pause deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            error: deployments.apps "web" is already paused
            (exit status 1)
            [30012ms-30012ms] $ kubectl rollout restart deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            error: deployments.apps "web" can't restart paused deployment (run rollout resume first)
            (exit status 1)
            [30012ms-30012ms] $ kubectl rollout undo deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again
            (exit status 1)
            [30012ms-30012ms] $ kubectl rollout resume deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-rollout
            deployment.apps/web resumed
            (exit status 0)
            [30012ms-30012ms] $ kubectl rollout resume deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            error: deployments.apps "web" is not paused
            (exit status 1)
            [30012ms-30012ms] $ kubectl rollout restart deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-rollout
            deployment.apps/web restarted
            (exit status 0)
            [30012ms-33012ms] $ kubectl rollout status deployment/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            Waiting for deployment spec update to be observed...
            Waiting for deployment "web" rollout to finish: 0 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...
            Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...
            Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...
            deployment "web" successfully rolled out
            (exit status 0)
            [33012ms-33012ms] $ kubectl set image deployment/web nginx=nginx:1.30
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-set
            deployment.apps/web image updated
            (exit status 0)
            [33012ms-73012ms] $ kubectl rollout status deployment/web --timeout=40s
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            Waiting for deployment spec update to be observed...
            Waiting for deployment "web" rollout to finish: 0 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...
            error: timed out waiting for the condition
            (exit status 1)
            [73012ms-73012ms] $ kubectl get pods
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            NAME                   READY   STATUS             RESTARTS   AGE
            web-57dddfcd44-gcg4f   0/1     ImagePullBackOff   0          40s
            web-794ccc7458-6xntd   1/1     Running            0          41s
            web-794ccc7458-98hjg   1/1     Running            0          43s
            web-794ccc7458-d4nhm   1/1     Running            0          42s
            (exit status 0)
            [73012ms-73012ms] $ kubectl rollout status deployment/nope
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/nope
            Error from server (NotFound): deployments.apps "nope" not found
            (exit status 1)
            [73012ms-73012ms] $ kubectl set image deployment/nope nginx=nginx:1.30
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/nope
            Error from server (NotFound): deployments.apps "nope" not found
            (exit status 1)
            [73012ms-73012ms] $ kubectl rollout status deployment/web --bogus
            Error: unknown flag: --bogus
            See 'kubectl rollout status --help' for usage.
            (exit status 1)
            [73012ms-73012ms] $ kubectl rollout frob deployment/web
            error: unknown command "frob"
            See 'kubectl rollout -h' for help and examples
            (exit status 1)
            [73012ms-73012ms] $ kubectl rollout status
            error: required resource not specified
            (exit status 1)
            [73012ms-73012ms] $ kubectl rollout undo deployment/web --to-revision=x
            Error: invalid argument "x" for "--to-revision" flag: strconv.ParseInt: parsing "x": invalid syntax
            See 'kubectl rollout undo --help' for usage.
            (exit status 1)
        "#]].assert_eq(&transcript_with_requests(&script));
    }

    /// kubectl get by name (a traced GET; several names; NotFound), with -l, and -o
    /// name|yaml|json (one object alone, several in a List).
    #[test]
    fn get_by_name_selector_and_output_formats() {
        let script = "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.29\nEOF\nsleep 10s\nkubectl get pod web\nkubectl get pods/web pods/nope\nkubectl get pod nope\nkubectl get pods -l app=web -o name\nkubectl get pods -l app=db\nkubectl get pods -l app=db -o name\nkubectl get pod web -o json\nkubectl get pods -l app=db -o yaml\nkubectl get nodes -o name\nkubectl get pod web -l app=web\nkubectl get pod web -A\nkubectl get pods -o jsonpath='{.items}'\nkubectl get pods -o bogus\nkubectl get pod web -o yaml\n";
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
              > kubectl sends GET /api/v1/namespaces/default/pods/web
              > kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            pod/web created
            (exit status 0)
            [4ms-10004ms] $ sleep 10s
            (exit status 0)
            [10004ms-10004ms] $ kubectl get pod web
              > kubectl sends GET /api/v1/namespaces/default/pods/web
            NAME   READY   STATUS    RESTARTS   AGE
            web    1/1     Running   0          10s
            (exit status 0)
            [10004ms-10004ms] $ kubectl get pods/web pods/nope
              > kubectl sends GET /api/v1/namespaces/default/pods/web
              > kubectl sends GET /api/v1/namespaces/default/pods/nope
            NAME   READY   STATUS    RESTARTS   AGE
            web    1/1     Running   0          10s
            Error from server (NotFound): pods "nope" not found
            (exit status 1)
            [10004ms-10004ms] $ kubectl get pod nope
              > kubectl sends GET /api/v1/namespaces/default/pods/nope
            Error from server (NotFound): pods "nope" not found
            (exit status 1)
            [10004ms-10004ms] $ kubectl get pods -l app=web -o name
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            pod/web
            (exit status 0)
            [10004ms-10004ms] $ kubectl get pods -l app=db
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            No resources found in default namespace.
            (exit status 0)
            [10004ms-10004ms] $ kubectl get pods -l app=db -o name
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            (exit status 0)
            [10004ms-10004ms] $ kubectl get pod web -o json
              > kubectl sends GET /api/v1/namespaces/default/pods/web
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {
                    "annotations": {
                        "kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"web\"},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"image\":\"nginx:1.29\",\"name\":\"nginx\"}]}}\n"
                    },
                    "creationTimestamp": "2026-01-01T00:00:00Z",
                    "generation": 1,
                    "labels": {
                        "app": "web"
                    },
                    "name": "web",
                    "namespace": "default",
                    "resourceVersion": "165",
                    "uid": "c34d0bff-9015-4280-a099-ec6cd7363ca5"
                },
                "spec": {
                    "containers": [
                        {
                            "image": "nginx:1.29",
                            "imagePullPolicy": "IfNotPresent",
                            "name": "nginx",
                            "terminationMessagePath": "/dev/termination-log",
                            "terminationMessagePolicy": "File",
                            "volumeMounts": [
                                {
                                    "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                                    "name": "kube-api-access-t29pp",
                                    "readOnly": true
                                }
                            ]
                        }
                    ],
                    "dnsPolicy": "ClusterFirst",
                    "enableServiceLinks": true,
                    "nodeName": "kind-worker",
                    "preemptionPolicy": "PreemptLowerPriority",
                    "priority": 0,
                    "restartPolicy": "Always",
                    "schedulerName": "default-scheduler",
                    "securityContext": {},
                    "serviceAccount": "default",
                    "serviceAccountName": "default",
                    "terminationGracePeriodSeconds": 30,
                    "tolerations": [
                        {
                            "effect": "NoExecute",
                            "key": "node.kubernetes.io/not-ready",
                            "operator": "Exists",
                            "tolerationSeconds": 300
                        },
                        {
                            "effect": "NoExecute",
                            "key": "node.kubernetes.io/unreachable",
                            "operator": "Exists",
                            "tolerationSeconds": 300
                        }
                    ],
                    "volumes": [
                        {
                            "name": "kube-api-access-t29pp",
                            "projected": {
                                "defaultMode": 420,
                                "sources": [
                                    {
                                        "serviceAccountToken": {
                                            "expirationSeconds": 3607,
                                            "path": "token"
                                        }
                                    },
                                    {
                                        "configMap": {
                                            "items": [
                                                {
                                                    "key": "ca.crt",
                                                    "path": "ca.crt"
                                                }
                                            ],
                                            "name": "kube-root-ca.crt"
                                        }
                                    },
                                    {
                                        "downwardAPI": {
                                            "items": [
                                                {
                                                    "fieldRef": {
                                                        "apiVersion": "v1",
                                                        "fieldPath": "metadata.namespace"
                                                    },
                                                    "path": "namespace"
                                                }
                                            ]
                                        }
                                    }
                                ]
                            }
                        }
                    ]
                },
                "status": {
                    "conditions": [
                        {
                            "lastTransitionTime": "2026-01-01T00:00:03Z",
                            "observedGeneration": 1,
                            "status": "True",
                            "type": "PodReadyToStartContainers"
                        },
                        {
                            "lastTransitionTime": "2026-01-01T00:00:00Z",
                            "observedGeneration": 1,
                            "status": "True",
                            "type": "Initialized"
                        },
                        {
                            "lastTransitionTime": "2026-01-01T00:00:03Z",
                            "observedGeneration": 1,
                            "status": "True",
                            "type": "Ready"
                        },
                        {
                            "lastTransitionTime": "2026-01-01T00:00:03Z",
                            "observedGeneration": 1,
                            "status": "True",
                            "type": "ContainersReady"
                        },
                        {
                            "lastTransitionTime": "2026-01-01T00:00:00Z",
                            "observedGeneration": 1,
                            "status": "True",
                            "type": "PodScheduled"
                        }
                    ],
                    "containerStatuses": [
                        {
                            "containerID": "containerd://1f8410633ef306ac497305c5d1aab99f0c43407dc177b6f783f91ca7864a7135",
                            "image": "docker.io/library/nginx:1.29",
                            "imageID": "docker.io/library/nginx@sha256:deaf06bb1e4dfb573be032d0a2645e1ca2ff141a89513d0f1c1c71f22ef7df98",
                            "lastState": {},
                            "name": "nginx",
                            "ready": true,
                            "restartCount": 0,
                            "started": true,
                            "state": {
                                "running": {
                                    "startedAt": "2026-01-01T00:00:02Z"
                                }
                            },
                            "volumeMounts": [
                                {
                                    "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                                    "name": "kube-api-access-t29pp",
                                    "readOnly": true,
                                    "recursiveReadOnly": "Disabled"
                                }
                            ]
                        }
                    ],
                    "hostIP": "172.18.0.3",
                    "hostIPs": [
                        {
                            "ip": "172.18.0.3"
                        }
                    ],
                    "observedGeneration": 1,
                    "phase": "Running",
                    "podIP": "10.244.1.2",
                    "podIPs": [
                        {
                            "ip": "10.244.1.2"
                        }
                    ],
                    "qosClass": "BestEffort",
                    "startTime": "2026-01-01T00:00:00Z"
                }
            }
            (exit status 0)
            [10004ms-10004ms] $ kubectl get pods -l app=db -o yaml
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            apiVersion: v1
            items: []
            kind: List
            metadata:
              resourceVersion: ""
            (exit status 0)
            [10004ms-10004ms] $ kubectl get nodes -o name
              > kubectl sends GET /api/v1/nodes?limit=500
            node/kind-control-plane
            node/kind-worker
            node/kind-worker2
            (exit status 0)
            [10004ms-10004ms] $ kubectl get pod web -l app=web
            error: name cannot be provided when a selector is specified
            (exit status 1)
            [10004ms-10004ms] $ kubectl get pod web -A
            error: a resource cannot be retrieved by name across all namespaces
            (exit status 1)
            [10004ms-10004ms] $ kubectl get pods -o jsonpath='{.items}'
            podlab: kubectl get -o jsonpath={.items} is not modelled by the lab's session yet (it prints the table, -o wide, name, yaml and json)
            (exit status 1)
            [10004ms-10004ms] $ kubectl get pods -o bogus
            error: unable to match a printer suitable for the output format "bogus", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,wide,yaml
            (exit status 1)
            [10004ms-10004ms] $ kubectl get pod web -o yaml
              > kubectl sends GET /api/v1/namespaces/default/pods/web
            apiVersion: v1
            kind: Pod
            metadata:
              annotations:
                kubectl.kubernetes.io/last-applied-configuration: |
                  {"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"labels":{"app":"web"},"name":"web","namespace":"default"},"spec":{"containers":[{"image":"nginx:1.29","name":"nginx"}]}}
              creationTimestamp: "2026-01-01T00:00:00Z"
              generation: 1
              labels:
                app: web
              name: web
              namespace: default
              resourceVersion: "165"
              uid: c34d0bff-9015-4280-a099-ec6cd7363ca5
            spec:
              containers:
              - image: nginx:1.29
                imagePullPolicy: IfNotPresent
                name: nginx
                terminationMessagePath: /dev/termination-log
                terminationMessagePolicy: File
                volumeMounts:
                - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                  name: kube-api-access-t29pp
                  readOnly: true
              dnsPolicy: ClusterFirst
              enableServiceLinks: true
              nodeName: kind-worker
              preemptionPolicy: PreemptLowerPriority
              priority: 0
              restartPolicy: Always
              schedulerName: default-scheduler
              securityContext: {}
              serviceAccount: default
              serviceAccountName: default
              terminationGracePeriodSeconds: 30
              tolerations:
              - effect: NoExecute
                key: node.kubernetes.io/not-ready
                operator: Exists
                tolerationSeconds: 300
              - effect: NoExecute
                key: node.kubernetes.io/unreachable
                operator: Exists
                tolerationSeconds: 300
              volumes:
              - name: kube-api-access-t29pp
                projected:
                  defaultMode: 420
                  sources:
                  - serviceAccountToken:
                      expirationSeconds: 3607
                      path: token
                  - configMap:
                      items:
                      - key: ca.crt
                        path: ca.crt
                      name: kube-root-ca.crt
                  - downwardAPI:
                      items:
                      - fieldRef:
                          apiVersion: v1
                          fieldPath: metadata.namespace
                        path: namespace
            status:
              conditions:
              - lastTransitionTime: "2026-01-01T00:00:03Z"
                observedGeneration: 1
                status: "True"
                type: PodReadyToStartContainers
              - lastTransitionTime: "2026-01-01T00:00:00Z"
                observedGeneration: 1
                status: "True"
                type: Initialized
              - lastTransitionTime: "2026-01-01T00:00:03Z"
                observedGeneration: 1
                status: "True"
                type: Ready
              - lastTransitionTime: "2026-01-01T00:00:03Z"
                observedGeneration: 1
                status: "True"
                type: ContainersReady
              - lastTransitionTime: "2026-01-01T00:00:00Z"
                observedGeneration: 1
                status: "True"
                type: PodScheduled
              containerStatuses:
              - containerID: containerd://1f8410633ef306ac497305c5d1aab99f0c43407dc177b6f783f91ca7864a7135
                image: docker.io/library/nginx:1.29
                imageID: docker.io/library/nginx@sha256:deaf06bb1e4dfb573be032d0a2645e1ca2ff141a89513d0f1c1c71f22ef7df98
                lastState: {}
                name: nginx
                ready: true
                restartCount: 0
                started: true
                state:
                  running:
                    startedAt: "2026-01-01T00:00:02Z"
                volumeMounts:
                - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
                  name: kube-api-access-t29pp
                  readOnly: true
                  recursiveReadOnly: Disabled
              hostIP: 172.18.0.3
              hostIPs:
              - ip: 172.18.0.3
              observedGeneration: 1
              phase: Running
              podIP: 10.244.1.2
              podIPs:
              - ip: 10.244.1.2
              qosClass: BestEffort
              startTime: "2026-01-01T00:00:00Z"
            (exit status 0)
        "#]].assert_eq(&transcript_with_requests(script));
    }

    /// kubectl describe: a traced GET, then the describer (a name not found is read as a
    /// prefix, as kubectl does, after a LIST).
    #[test]
    fn describe_objects() {
        let script = format!(
            "kubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nkubectl describe deployment web\nkubectl describe pod web-7c64c74567-pgw5x\nkubectl describe pods web-7c64c74567-9\nkubectl describe pod nope\nkubectl describe rs web\nkubectl describe\nkubectl describe pod web --bogus\n"
        );
        expect![[r#"
            [0ms-4ms] $ kubectl apply -f -
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms] $ kubectl describe deployment web
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
            Name:                   web
            Namespace:              default
            CreationTimestamp:      Thu, 01 Jan 2026 00:00:00 +0000
            Labels:                 <none>
            Annotations:            deployment.kubernetes.io/revision: 1
            Selector:               app=web
            Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable
            StrategyType:           RollingUpdate
            MinReadySeconds:        0
            RollingUpdateStrategy:  25% max unavailable, 25% max surge
            Pod Template:
              Labels:  app=web
              Containers:
               nginx:
                Image:         nginx:1.29
                Port:          <none>
                Host Port:     <none>
                Environment:   <none>
                Mounts:        <none>
              Volumes:         <none>
              Node-Selectors:  <none>
              Tolerations:     <none>
            Conditions:
              Type           Status  Reason
              ----           ------  ------
              Available      True    MinimumReplicasAvailable
              Progressing    True    NewReplicaSetAvailable
            OldReplicaSets:  <none>
            NewReplicaSet:   web-7c64c74567 (2/2 replicas created)
            Events:
              Type    Reason             Age   From                   Message
              ----    ------             ----  ----                   -------
              Normal  ScalingReplicaSet  20s   deployment-controller  Scaled up replica set web-7c64c74567 from 0 to 2
            (exit status 0)
            [20004ms-20004ms] $ kubectl describe pod web-7c64c74567-pgw5x
              > kubectl sends GET /api/v1/namespaces/default/pods/web-7c64c74567-pgw5x
            Name:             web-7c64c74567-pgw5x
            Namespace:        default
            Priority:         0
            Service Account:  default
            Node:             kind-worker/172.18.0.3
            Start Time:       Thu, 01 Jan 2026 00:00:00 +0000
            Labels:           app=web
                              pod-template-hash=7c64c74567
            Annotations:      <none>
            Status:           Running
            IP:               10.244.1.2
            IPs:
              IP:           10.244.1.2
            Controlled By:  ReplicaSet/web-7c64c74567
            Containers:
              nginx:
                Container ID:   containerd://91866d4d0cde66a91eb967d7929813bb29663e9ea0ec2561d2c61eeb27a21187
                Image:          nginx:1.29
                Image ID:       docker.io/library/nginx@sha256:deaf06bb1e4dfb573be032d0a2645e1ca2ff141a89513d0f1c1c71f22ef7df98
                Port:           <none>
                Host Port:      <none>
                State:          Running
                  Started:      Thu, 01 Jan 2026 00:00:02 +0000
                Ready:          True
                Restart Count:  0
                Environment:    <none>
                Mounts:
                  /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-sk4nv (ro)
            Conditions:
              Type                        Status
              PodReadyToStartContainers   True 
              Initialized                 True 
              Ready                       True 
              ContainersReady             True 
              PodScheduled                True 
            Volumes:
              kube-api-access-sk4nv:
                Type:                    Projected (a volume that contains injected data from multiple sources)
                TokenExpirationSeconds:  3607
                ConfigMapName:           kube-root-ca.crt
                Optional:                false
                DownwardAPI:             true
            QoS Class:                   BestEffort
            Node-Selectors:              <none>
            Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                                         node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
            Events:
              Type    Reason     Age   From               Message
              ----    ------     ----  ----               -------
              Normal  Scheduled  20s   default-scheduler  Successfully assigned default/web-7c64c74567-pgw5x to kind-worker
              Normal  Pulling    20s   kubelet            spec.containers{nginx}: Pulling image "nginx:1.29"
              Normal  Pulled     18s   kubelet            spec.containers{nginx}: Successfully pulled image "nginx:1.29" in 2.346s (2.346s including waiting). Image size: 72361947 bytes.
              Normal  Created    18s   kubelet            spec.containers{nginx}: Container created
              Normal  Started    18s   kubelet            spec.containers{nginx}: Container started
            (exit status 0)
            [20004ms-20004ms] $ kubectl describe pods web-7c64c74567-9
              > kubectl sends GET /api/v1/namespaces/default/pods/web-7c64c74567-9
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            Name:             web-7c64c74567-9vtnp
            Namespace:        default
            Priority:         0
            Service Account:  default
            Node:             kind-worker2/172.18.0.4
            Start Time:       Thu, 01 Jan 2026 00:00:00 +0000
            Labels:           app=web
                              pod-template-hash=7c64c74567
            Annotations:      <none>
            Status:           Running
            IP:               10.244.2.2
            IPs:
              IP:           10.244.2.2
            Controlled By:  ReplicaSet/web-7c64c74567
            Containers:
              nginx:
                Container ID:   containerd://90ccb6a06cd2330e78788347686687439fbd96359554aa53dc3320bb97ca63be
                Image:          nginx:1.29
                Image ID:       docker.io/library/nginx@sha256:deaf06bb1e4dfb573be032d0a2645e1ca2ff141a89513d0f1c1c71f22ef7df98
                Port:           <none>
                Host Port:      <none>
                State:          Running
                  Started:      Thu, 01 Jan 2026 00:00:02 +0000
                Ready:          True
                Restart Count:  0
                Environment:    <none>
                Mounts:
                  /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-rfkcr (ro)
            Conditions:
              Type                        Status
              PodReadyToStartContainers   True 
              Initialized                 True 
              Ready                       True 
              ContainersReady             True 
              PodScheduled                True 
            Volumes:
              kube-api-access-rfkcr:
                Type:                    Projected (a volume that contains injected data from multiple sources)
                TokenExpirationSeconds:  3607
                ConfigMapName:           kube-root-ca.crt
                Optional:                false
                DownwardAPI:             true
            QoS Class:                   BestEffort
            Node-Selectors:              <none>
            Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                                         node.kubernetes.io/unreachable:NoExecute op=Exists for 300s

            (exit status 0)
            [20004ms-20004ms] $ kubectl describe pod nope
              > kubectl sends GET /api/v1/namespaces/default/pods/nope
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            Error from server (NotFound): pods "nope" not found
            (exit status 1)
            [20004ms-20004ms] $ kubectl describe rs web
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets/web
              > kubectl sends GET /apis/apps/v1/namespaces/default/replicasets?limit=500
            Name:           web-7c64c74567
            Namespace:      default
            Selector:       app=web,pod-template-hash=7c64c74567
            Labels:         app=web
                            pod-template-hash=7c64c74567
            Annotations:    deployment.kubernetes.io/desired-replicas: 2
                            deployment.kubernetes.io/max-replicas: 3
                            deployment.kubernetes.io/revision: 1
            Controlled By:  Deployment/web
            Replicas:       2 current / 2 desired
            Pods Status:    2 Running / 0 Waiting / 0 Succeeded / 0 Failed
            Pod Template:
              Labels:  app=web
                       pod-template-hash=7c64c74567
              Containers:
               nginx:
                Image:         nginx:1.29
                Port:          <none>
                Host Port:     <none>
                Environment:   <none>
                Mounts:        <none>
              Volumes:         <none>
              Node-Selectors:  <none>
              Tolerations:     <none>

            (exit status 0)
            [20004ms-20004ms] $ kubectl describe
            error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.
            (exit status 1)
            [20004ms-20004ms] $ kubectl describe pod web --bogus
            Error: unknown flag: --bogus
            See 'kubectl describe --help' for usage.
            (exit status 1)
        "#]].assert_eq(&transcript_with_requests(&script));
    }

    /// kubectl describe node, cordon/uncordon (a cordoned node gets no new Pod) and taints.
    #[test]
    fn cordon_and_taint_nodes() {
        let script = format!(
            "kubectl cordon kind-worker\nkubectl cordon kind-worker\nkubectl taint nodes kind-worker2 dedicated=db:NoSchedule\nkubectl taint nodes kind-worker2 dedicated=web:NoSchedule\nkubectl apply -f - <<EOF\n{DEPLOYMENT}EOF\nsleep 20s\nkubectl get pods -o wide\nkubectl describe node kind-worker2\nkubectl taint nodes kind-worker2 dedicated:NoSchedule-\nkubectl taint nodes kind-worker2 dedicated:NoSchedule-\nkubectl uncordon kind-worker\nkubectl uncordon kind-worker\nsleep 20s\nkubectl get pods -o wide\nkubectl get nodes\nkubectl cordon nope\nkubectl cordon\nkubectl cordon kind-worker --bogus\nkubectl taint nodes kind-worker a=b\nkubectl taint nodes kind-worker a=b:Bad\nkubectl taint node/nope a=b:NoSchedule\n"
        );
        expect![[r#"
            [0ms-0ms] $ kubectl cordon kind-worker
              > kubectl sends GET /api/v1/nodes/kind-worker
              > kubectl sends PATCH /api/v1/nodes/kind-worker
            node/kind-worker cordoned
            (exit status 0)
            [0ms-0ms] $ kubectl cordon kind-worker
              > kubectl sends GET /api/v1/nodes/kind-worker
            node/kind-worker already cordoned
            (exit status 0)
            [0ms-0ms] $ kubectl taint nodes kind-worker2 dedicated=db:NoSchedule
              > kubectl sends GET /api/v1/nodes/kind-worker2
              > kubectl sends PATCH /api/v1/nodes/kind-worker2?fieldManager=kubectl-taint
            node/kind-worker2 tainted
            (exit status 0)
            [0ms-0ms] $ kubectl taint nodes kind-worker2 dedicated=web:NoSchedule
              > kubectl sends GET /api/v1/nodes/kind-worker2
            error: node kind-worker2 already has dedicated taint(s) with same effect(s) and --overwrite is false
            (exit status 1)
            [0ms-4ms] $ kubectl apply -f -
              > kubectl sends GET /apis/apps/v1/namespaces/default/deployments/web
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict
            deployment.apps/web created
            (exit status 0)
            [4ms-20004ms] $ sleep 20s
            (exit status 0)
            [20004ms-20004ms] $ kubectl get pods -o wide
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            NAME                   READY   STATUS    RESTARTS   AGE   IP       NODE     NOMINATED NODE   READINESS GATES
            web-7c64c74567-9vtnp   0/1     Pending   0          20s   <none>   <none>   <none>           <none>
            web-7c64c74567-pgw5x   0/1     Pending   0          20s   <none>   <none>   <none>           <none>
            (exit status 0)
            [20004ms-20004ms] $ kubectl describe node kind-worker2
              > kubectl sends GET /api/v1/nodes/kind-worker2
            Name:               kind-worker2
            Roles:              <none>
            Labels:             beta.kubernetes.io/arch=amd64
                                beta.kubernetes.io/os=linux
                                kubernetes.io/arch=amd64
                                kubernetes.io/hostname=kind-worker2
                                kubernetes.io/os=linux
            Annotations:        kubeadm.alpha.kubernetes.io/cri-socket: unix:///run/containerd/containerd.sock
                                node.alpha.kubernetes.io/ttl: 0
                                volumes.kubernetes.io/controller-managed-attach-detach: true
            CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000
            Taints:             dedicated=db:NoSchedule
            Unschedulable:      false
            Lease:
              HolderIdentity:  kind-worker2
              AcquireTime:     <unset>
              RenewTime:       Thu, 01 Jan 2026 00:00:20 +0000
            Conditions:
              Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
              ----             ------  -----------------                 ------------------                ------                       -------
              MemoryPressure   False   Mon, 01 Jan 0001 00:00:00 +0000   Mon, 01 Jan 0001 00:00:00 +0000   KubeletHasSufficientMemory   kubelet has sufficient memory available
              DiskPressure     False   Mon, 01 Jan 0001 00:00:00 +0000   Mon, 01 Jan 0001 00:00:00 +0000   KubeletHasNoDiskPressure     kubelet has no disk pressure
              PIDPressure      False   Mon, 01 Jan 0001 00:00:00 +0000   Mon, 01 Jan 0001 00:00:00 +0000   KubeletHasSufficientPID      kubelet has sufficient PID available
              Ready            True    Mon, 01 Jan 0001 00:00:00 +0000   Mon, 01 Jan 0001 00:00:00 +0000   KubeletReady                 kubelet is posting ready status
            Addresses:
              InternalIP:  172.18.0.4
              Hostname:    kind-worker2
            Capacity:
              cpu:                4
              ephemeral-storage:  102626232Ki
              hugepages-1Gi:      0
              hugepages-2Mi:      0
              memory:             8131440Ki
              pods:               110
            Allocatable:
              cpu:                4
              ephemeral-storage:  102626232Ki
              hugepages-1Gi:      0
              hugepages-2Mi:      0
              memory:             8131440Ki
              pods:               110
            System Info:
              Machine ID:                 
              System UUID:                
              Boot ID:                    
              Kernel Version:             6.8.0-64-generic
              OS Image:                   Debian GNU/Linux 12 (bookworm)
              Operating System:           linux
              Architecture:               amd64
              Container Runtime Version:  containerd://2.1.3
              Kubelet Version:            v1.37.0
            PodCIDR:                      10.244.2.0/24
            PodCIDRs:                     10.244.2.0/24
            ProviderID:                   kind://docker/kind/kind-worker2
            Non-terminated Pods:          (0 in total)
              Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
              ---------                   ----    ------------  ----------  ---------------  -------------  ---
            Allocated resources:
              (Total limits may be over 100 percent, i.e., overcommitted.)
              Resource           Requests  Limits
              --------           --------  ------
              cpu                0 (0%)    0 (0%)
              memory             0 (0%)    0 (0%)
              ephemeral-storage  0 (0%)    0 (0%)
              hugepages-1Gi      0 (0%)    0 (0%)
              hugepages-2Mi      0 (0%)    0 (0%)
            Events:              <none>
            (exit status 0)
            [20004ms-20004ms] $ kubectl taint nodes kind-worker2 dedicated:NoSchedule-
              > kubectl sends GET /api/v1/nodes/kind-worker2
              > kubectl sends PATCH /api/v1/nodes/kind-worker2?fieldManager=kubectl-taint
            node/kind-worker2 untainted
            (exit status 0)
            [20004ms-20004ms] $ kubectl taint nodes kind-worker2 dedicated:NoSchedule-
              > kubectl sends GET /api/v1/nodes/kind-worker2
            error: taint "dedicated:NoSchedule" not found
            (exit status 1)
            [20004ms-20004ms] $ kubectl uncordon kind-worker
              > kubectl sends GET /api/v1/nodes/kind-worker
              > kubectl sends PATCH /api/v1/nodes/kind-worker
            node/kind-worker uncordoned
            (exit status 0)
            [20004ms-20004ms] $ kubectl uncordon kind-worker
              > kubectl sends GET /api/v1/nodes/kind-worker
            node/kind-worker already uncordoned
            (exit status 0)
            [20004ms-40004ms] $ sleep 20s
            (exit status 0)
            [40004ms-40004ms] $ kubectl get pods -o wide
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            NAME                   READY   STATUS    RESTARTS   AGE   IP           NODE           NOMINATED NODE   READINESS GATES
            web-7c64c74567-9vtnp   1/1     Running   0          40s   10.244.2.2   kind-worker2   <none>           <none>
            web-7c64c74567-pgw5x   1/1     Running   0          40s   10.244.1.2   kind-worker    <none>           <none>
            (exit status 0)
            [40004ms-40004ms] $ kubectl get nodes
              > kubectl sends GET /api/v1/nodes?limit=500
            NAME                 STATUS   ROLES           AGE   VERSION
            kind-control-plane   Ready    control-plane   40s   v1.37.0
            kind-worker          Ready    <none>          40s   v1.37.0
            kind-worker2         Ready    <none>          40s   v1.37.0
            (exit status 0)
            [40004ms-40004ms] $ kubectl cordon nope
              > kubectl sends GET /api/v1/nodes/nope
            Error from server (NotFound): nodes "nope" not found
            (exit status 1)
            [40004ms-40004ms] $ kubectl cordon
            error: USAGE: cordon NODE [flags]
            See 'kubectl cordon -h' for help and examples
            (exit status 1)
            [40004ms-40004ms] $ kubectl cordon kind-worker --bogus
            Error: unknown flag: --bogus
            See 'kubectl cordon --help' for usage.
            (exit status 1)
            [40004ms-40004ms] $ kubectl taint nodes kind-worker a=b
            error: invalid taint spec: a=b, name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
            See 'kubectl taint -h' for help and examples
            (exit status 1)
            [40004ms-40004ms] $ kubectl taint nodes kind-worker a=b:Bad
            error: invalid taint effect: Bad, unsupported taint effect
            See 'kubectl taint -h' for help and examples
            (exit status 1)
            [40004ms-40004ms] $ kubectl taint node/nope a=b:NoSchedule
              > kubectl sends GET /api/v1/nodes/nope
            Error from server (NotFound): nodes "nope" not found
            (exit status 1)
        "#]].assert_eq(&transcript_with_requests(&script));
    }

    /// kubectl create -f and replace -f through the file client apply uses.
    #[test]
    fn create_and_replace_from_files() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.29\n";
        let script = format!(
            "kubectl create -f - <<EOF\n{pod}EOF\nkubectl create -f - <<EOF\n{pod}EOF\nkubectl replace -f - <<EOF\n{}EOF\nkubectl replace -f - <<EOF\n{}EOF\nkubectl create -f - <<EOF\n{DEPLOYMENT}EOF\nkubectl replace -f - <<EOF\n{}EOF\nkubectl create deployment x --image=nginx\nkubectl create\nkubectl create -f - --bogus <<EOF\n{pod}EOF\nsleep 20s\nkubectl get pods\n",
            pod.replace("name: web\n", "name: web\n  labels:\n    tier: front\n"),
            pod.replace("name: web", "name: api"),
            DEPLOYMENT.replace("api: 2", "replicas: 3").replace("replicas: 2", "replicas: 3")
        );
        expect![[r#"
            [0ms-0ms] $ kubectl create -f -
              > kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-create&fieldValidation=Strict
            pod/web created
            (exit status 0)
            [0ms-0ms] $ kubectl create -f -
              > kubectl sends POST /api/v1/namespaces/default/pods?fieldManager=kubectl-create&fieldValidation=Strict
            Error from server (AlreadyExists): error when creating "STDIN": pods "web" already exists
            (exit status 1)
            [0ms-0ms] $ kubectl replace -f -
              > kubectl sends PUT /api/v1/namespaces/default/pods/web?fieldManager=kubectl-replace&fieldValidation=Strict
            The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)
              core.PodSpec{
              	Containers: []core.Container{
              		{
            - 			VolumeMounts: []core.VolumeMount{{MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", Name: "kube-api-access-t29pp", ReadOnly: true}},
            + 			VolumeMounts: nil,
              		},
              	},
            - 	DeprecatedServiceAccount: "default",
            + 	DeprecatedServiceAccount: "",
            - 	ServiceAccountName: "default",
            + 	ServiceAccountName: "",
            - 	Volumes: []core.Volume{{Name: "kube-api-access-t29pp", Projected: {DefaultMode: 420, Sources: {{ServiceAccountToken: {ExpirationSeconds: 3607, Path: "token"}}, {ConfigMap: {Items: {{Key: "ca.crt", Path: "ca.crt"}}, Name: "kube-root-ca.crt"}}, {DownwardAPI: {Items: {{FieldRef: {ApiVersion: "v1", FieldPath: "metadata.namespace"}, Path: "namespace"}}}}}}}},
            + 	Volumes: nil,
              }

            (exit status 1)
            [0ms-0ms] $ kubectl replace -f -
              > kubectl sends PUT /api/v1/namespaces/default/pods/api?fieldManager=kubectl-replace&fieldValidation=Strict
            Error from server (NotFound): error when replacing "STDIN": pods "api" not found
            (exit status 1)
            [0ms-0ms] $ kubectl create -f -
              > kubectl sends POST /apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create&fieldValidation=Strict
            deployment.apps/web created
            (exit status 0)
            [0ms-0ms] $ kubectl replace -f -
              > kubectl sends PUT /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-replace&fieldValidation=Strict
            deployment.apps/web replaced
            (exit status 0)
            [0ms-0ms] $ kubectl create deployment x --image=nginx
            podlab: kubectl create deployment is not modelled by the lab's session yet; it knows kubectl create -f FILE
            (exit status 1)
            [0ms-0ms] $ kubectl create
            error: must specify one of -f and -k
            (exit status 1)
            [0ms-0ms] $ kubectl create -f - --bogus
            Error: unknown flag: --bogus
            See 'kubectl create --help' for usage.
            (exit status 1)
            [0ms-20000ms] $ sleep 20s
            (exit status 0)
            [20000ms-20000ms] $ kubectl get pods
              > kubectl sends GET /api/v1/namespaces/default/pods?limit=500
            NAME                   READY   STATUS    RESTARTS   AGE
            web                    1/1     Running   0          20s
            web-7c64c74567-c2szk   1/1     Running   0          20s
            web-7c64c74567-lg77l   1/1     Running   0          20s
            web-7c64c74567-tnpjs   1/1     Running   0          20s
            (exit status 0)
        "#]].assert_eq(&transcript_with_requests(&script));
    }
}

#[cfg(test)]
mod session_properties {
    use super::*;
    use crate::object::Object;
    use proptest::prelude::*;

    /// The page's starter manifests, which learners start sessions from.
    const STARTERS: &[(&str, &str)] = &[
        ("deployment.yaml", include_str!("../../../../src/starters/deployment.yaml")),
        ("pod.yaml", include_str!("../../../../src/starters/pod.yaml")),
        ("service.yaml", include_str!("../../../../src/starters/service.yaml")),
        ("statefulset.yaml", include_str!("../../../../src/starters/statefulset.yaml")),
        ("pending.yaml", include_str!("../../../../src/starters/pending.yaml")),
        ("image-typo.yaml", include_str!("../../../../src/starters/image-typo.yaml")),
    ];

    fn command() -> impl Strategy<Value = SessionCommand> {
        let plain = |line: &str| SessionCommand { line: line.to_string(), file: None };
        prop_oneof![
            (0..STARTERS.len()).prop_map(|i| SessionCommand {
                line: format!("kubectl apply -f {}", STARTERS[i].0),
                file: Some((STARTERS[i].0.to_string(), STARTERS[i].1.to_string())),
            }),
            (0..STARTERS.len(), any::<bool>()).prop_map(|(i, replace)| SessionCommand {
                line: format!("kubectl {} -f {}", if replace { "replace" } else { "create" }, STARTERS[i].0),
                file: Some((STARTERS[i].0.to_string(), STARTERS[i].1.to_string())),
            }),
            (1u64..90).prop_map(move |s| plain(&format!("sleep {s}s"))),
            (1u64..3).prop_map(|n| SessionCommand {
                line: "kubectl apply -f pdb.yaml".to_string(),
                file: Some((
                    "pdb.yaml".to_string(),
                    format!("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: shop\nspec:\n  minAvailable: {n}\n  selector:\n    matchLabels:\n      app: shop\n"),
                )),
            }),
            prop::sample::select(vec![
                "kubectl delete pods --all",
                "kubectl delete pods -l app=shop",
                "kubectl delete deployment shop",
                "kubectl delete deployment shop --cascade=orphan",
                "kubectl delete deployment shop --cascade=foreground",
                "kubectl delete statefulset db",
                "kubectl delete rs --all",
                "kubectl scale deployment shop --replicas=0",
                "kubectl scale deployment shop --replicas=4",
                "kubectl scale statefulset db --replicas=3",
                "kubectl get pods -o wide",
                "kubectl get deployments -A",
                "kubectl get pods -w",
                "kubectl get pods -l app=shop -w --output-watch-events",
                "kubectl get deployments -A --watch-only -o name",
                "kubectl get deployment shop -w -o yaml",
                "kubectl get statefulsets -w -o json --output-watch-events",
                "kubectl rollout status statefulset/db --timeout=20s",
                "kubectl rollout history statefulset/db",
                "kubectl rollout undo statefulset/db",
                "kubectl rollout restart statefulset/db",
                "kubectl set image statefulset/db *=redis:8.2",
                "kubectl describe jobs",
                "kubectl drain -l kubernetes.io/hostname=kind-worker --ignore-daemonsets --force --dry-run=server",
                "kubectl drain -l kubernetes.io/hostname=kind-worker2 --ignore-daemonsets --force --timeout=30s",
                "lab stop kube-controller-manager",
                "lab start kube-controller-manager",
                "lab stop kube-scheduler",
                "lab start kube-scheduler",
                "lab stop kubelet kind-worker",
                "lab start kubelet kind-worker",
                "lab power-off kind-worker",
                "lab power-on kind-worker",
                "lab power-off kind-worker2",
                "lab power-on kind-worker2",
                "lab power-off kind-control-plane",
                "lab stop kube-apiserver",
                "lab start kube-apiserver",
                "lab stop etcd",
                "lab stop control-plane-component",
                "lab start etcd",
                "kubectl rollout undo deployment shop",
                "kubectl rollout undo deployment/shop --to-revision=1",
                "kubectl rollout status deployment/shop --timeout=20s",
                "kubectl rollout history deployment/shop",
                "kubectl rollout restart deployment/shop",
                "kubectl rollout pause deployment/shop",
                "kubectl rollout resume deployment/shop",
                "kubectl set image deployment/shop *=nginx:1.28",
                "kubectl set image deployment/shop *=nginx:9.99",
                "kubectl label deployment shop tier=web",
                "kubectl label pods -l app=shop",
                "kubectl annotate deployment shop note=x --overwrite",
                "kubectl get pods -o yaml",
                "kubectl get deployments -o name",
                "kubectl get pods -l app=shop -o json",
                "kubectl get deployment shop",
                "kubectl describe pods",
                "kubectl describe deployment shop",
                "kubectl describe node kind-worker",
                "kubectl cordon kind-worker",
                "kubectl uncordon kind-worker",
                "kubectl taint nodes kind-worker2 dedicated=db:NoSchedule",
                "kubectl taint nodes kind-worker2 dedicated:NoSchedule-",
                "kubectl drain kind-worker --ignore-daemonsets --force --timeout=30s",
                "kubectl drain kind-worker2 --delete-emptydir-data --timeout=20s",
                "kubectl get pdb",
                "kubectl get",
                "kubectl patch deployment shop -p '{\"spec\":{\"replicas\":2}}'",
                "kubectl patch deployment shop --type=json -p '[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":1}]'",
                "kubectl patch deployment shop --type=merge -p '{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"shop\",\"image\":\"nginx:1.28\"}]}}}}'",
                "kubectl logs deployment/shop",
                "kubectl logs deployment/shop --previous --tail=1",
                "kubectl exec deployment/shop -- env",
                "kubectl exec deployment/shop -- cat /var/run/secrets/kubernetes.io/serviceaccount/namespace",
                "kubectl auth can-i delete pods",
                "kubectl auth can-i create pods --subresource=exec --as nobody",
                "kubectl api-resources --namespaced=true -o name",
                "helm install x",
            ])
            .prop_map(plain),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Any sequence of commands over the starters: no panic, every command answered, and
        /// once the cluster has settled with its controller manager running, every Pod's
        /// controlling owner exists with the UID the Pod names (the garbage collector removed
        /// the others; an orphaned Pod has no owner left).
        #[test]
        fn sessions_never_panic_and_leave_no_dangling_owner(cmds in prop::collection::vec(command(), 1..8), seed in 0u64..4) {
            let loaded = Loaded::load(None).unwrap();
            let mut session = Session::new(&loaded, seed, None, None, crate::lab::DEFAULT_LIMIT_MS * 2).unwrap();
            for c in &cmds {
                let r = session.run(c).clone();
                prop_assert!(r.end_step >= r.first_step);
                // `kubectl auth can-i` answers `no` on standard output with exit status 1.
                let answered_no = r.line.starts_with("kubectl auth can-i") && r.stdout.starts_with("no");
                prop_assert!(r.exit_code == 0 || !r.stderr.is_empty() || answered_no, "{} failed silently", r.line);
            }
            session.settle();
            if session.stopped.contains("kube-controller-manager") || session.api_down() {
                return Ok(());
            }
            let store = &session.world().store;
            for pod in store.list_shared("/registry/pods/") {
                let Object::Pod(p) = &*pod else { continue };
                for r in p.metadata.owner_references.iter().flatten().filter(|r| r.controller == Some(true)) {
                    let owner = resource_for_kind(&r.kind)
                        .and_then(|res| store.get(&res.etcd_key(p.metadata.namespace.as_deref(), &r.name)));
                    prop_assert!(
                        owner.is_some_and(|(o, _)| o.meta().uid.as_deref() == Some(r.uid.as_str())),
                        "pod {:?} names {} {} which does not exist (commands: {:?})",
                        p.metadata.name, r.kind, r.name, cmds.iter().map(|c| &c.line).collect::<Vec<_>>()
                    );
                }
            }
        }
    }
}
