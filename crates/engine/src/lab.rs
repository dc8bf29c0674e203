//! The one entry point of the engine: [`run`] plays `kubectl apply -f FILE` against a cluster
//! and returns the [`Run`] — the trace, kubectl's output, each document's outcome and the
//! etcd model with its full history — that the web app, the CLI, the tests and the benchmarks
//! render.
//!
//! A run: a copy of the starting state loaded from the cluster YAML ([`Loaded`],
//! [`crate::cluster::load`]; the built-in kind cluster when `None`, loaded once per process;
//! [`run_reusing`] keeps a loaded cluster file for the next run), its randomness seeded with
//! `seed`; kubectl's work queued at time 0 as the kubeconfig user (the settings' `currentUser`,
//! or `user`), impersonating `identity` when given (`--as`/`--as-group`); then [`crate::sim::run_loop`] with the actors until the
//! cluster settles or `limit_ms` passes. The final `Core` is kept, so any view can be computed
//! at any step ([`Run::store`], [`Run::revision_at`]).
//!
//! `Run` serialises to JSON with stable field names (`docs/trace-format.md`); the `Core` and
//! the manifest text (kept for [`Run::markers`]) are not part of the JSON.

use crate::apiserver::{Caller, Credential};
use crate::cluster::{self, ClusterError, LabSettings};
use crate::controllers::ControllerManager;
use crate::kubectl::apply::OutputLine;
use crate::kubectl::{ApplyOptions, DocumentResult, KubectlApply};
use crate::kubelet::{Kubelet, KubeletConfig};
use crate::object::Object;
use crate::rng::Rng;
use crate::scheduler::actor::SchedulerActor;
use crate::sim::{run_loop_slice, Actor, Core};
use crate::store::Store;
use crate::trace::{Step, UserInfo};
use crate::world::World;
use serde::{Deserialize, Serialize};

/// How long a run may last by default (logical ms): five minutes of cluster time.
pub const DEFAULT_LIMIT_MS: u64 = 300_000;

/// Whom kubectl impersonates (`--as USER --as-group GROUP...`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    pub user: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
}

/// What to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabInput {
    /// The learner's file.
    pub manifest: String,
    /// Its name as kubectl is given it (`-f pod.yaml`), for kubectl's messages.
    pub file_name: String,
    /// The starting cluster as YAML (see [`crate::cluster`]); the built-in kind cluster when
    /// `None`.
    pub cluster: Option<String>,
    /// The kubeconfig user kubectl uses (`--user`); the settings' `currentUser` when `None`.
    pub user: Option<String>,
    /// `--as`/`--as-group`.
    pub identity: Option<Identity>,
    pub seed: u64,
    /// When to stop if the cluster has not settled (logical ms).
    pub limit_ms: u64,
}

impl LabInput {
    /// A run of `manifest` (named `file_name`) on the default cluster as its admin, seed 1.
    pub fn new(manifest: impl Into<String>, file_name: impl Into<String>) -> LabInput {
        LabInput {
            manifest: manifest.into(),
            file_name: file_name.into(),
            cluster: None,
            user: None,
            identity: None,
            seed: 1,
            limit_ms: DEFAULT_LIMIT_MS,
        }
    }
}

/// Why a run could not start (the lab's inputs, not the learner's manifest, are wrong).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum LabError {
    /// The cluster file is broken.
    Cluster(ClusterError),
    /// `user` names no user of the cluster's settings.
    UnknownUser { user: String, known: Vec<String> },
}

impl std::fmt::Display for LabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LabError::Cluster(e) => write!(f, "the cluster is invalid: {e}"),
            LabError::UnknownUser { user, known } => {
                write!(f, "user \"{user}\" is not in the cluster's settings (known: {})", known.join(", "))
            }
        }
    }
}

/// The result of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    /// The Kubernetes release the engine plays (`v1.37`).
    pub kubernetes_version: &'static str,
    pub seed: u64,
    pub file_name: String,
    /// The kubeconfig user kubectl acted as.
    pub user: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impersonate: Option<Identity>,
    /// kubectl's context namespace.
    pub namespace: String,
    /// The etcd revision when the learner pressed apply (after the starting state).
    pub setup_revision: u64,
    pub steps: Vec<Step>,
    pub documents: Vec<DocumentResult>,
    /// kubectl's standard output and error, and both as a terminal shows them.
    pub stdout: String,
    pub stderr: String,
    pub kubectl_output: String,
    /// kubectl's output line by line, with the logical time each line was printed.
    pub output_lines: Vec<OutputLine>,
    pub exit_code: i32,
    /// The logical time the run ended.
    pub end_ms: u64,
    pub final_revision: u64,
    /// The objects of the run that a component the lab does not model would act on in a real
    /// cluster (each announced by a warning step; see [`crate::consumers`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_modelled: Vec<crate::consumers::NotModelled>,
    /// The learner's file as it was run (the markers' lines are its lines).
    #[serde(skip)]
    manifest: String,
    #[serde(skip)]
    core: Core,
}

impl Run {
    /// The etcd model with its full history.
    pub fn store(&self) -> &Store<Object> {
        &self.core.store
    }

    /// The final simulation state (its trace moved out into [`Run::steps`]).
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// The etcd revision right after step `step` (the last revision for an out-of-range step).
    pub fn revision_at(&self, step: usize) -> u64 {
        self.steps.get(step).map(|s| s.revision).unwrap_or(self.final_revision)
    }

    /// The manifest text this run applied.
    pub fn manifest(&self) -> &str {
        &self.manifest
    }

    /// The editor's markers for this run: every problem of its manifest, on its line and
    /// column, with the step that reported it ([`crate::views::markers`]).
    pub fn markers(&self) -> Vec<crate::views::Marker> {
        crate::views::markers::markers(&self.manifest, Some(self))
    }

    /// Whether every document was accepted.
    pub fn all_accepted(&self) -> bool {
        self.exit_code == 0
    }

    /// The run as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// The credential of a kubeconfig user.
pub fn credential_of(settings: &LabSettings, user: &str) -> Option<Credential> {
    let u = settings.user(user)?;
    Some(if u.revoked {
        let what = if u.client_certificate.is_some() { "client certificate" } else { "bearer token" };
        Credential::Invalid { what: what.into() }
    } else if let Some(c) = &u.client_certificate {
        Credential::ClientCertificate {
            common_name: c.common_name.clone().unwrap_or_else(|| u.name.clone()),
            organizations: c.organizations.clone(),
        }
    } else if let Some(t) = &u.token {
        Credential::BearerToken(t.clone())
    } else if let Some(sa) = &u.service_account {
        Credential::ServiceAccount { namespace: sa.namespace.clone(), name: sa.name.clone() }
    } else {
        Credential::Anonymous
    })
}

/// The kubelet of `node` as the lab settings configure it: the node's faults (`nodeFaults`,
/// in the kubelet's `NodeFaults` shape) and the registry's extra images.
pub fn kubelet_config(settings: &LabSettings, node: &str) -> KubeletConfig {
    kubelet_config_from(KubeletConfig::default(), settings, node)
}

/// [`kubelet_config`] starting from `config` (a run builds the default registry once and
/// gives each kubelet a copy).
fn kubelet_config_from(mut config: KubeletConfig, settings: &LabSettings, node: &str) -> KubeletConfig {
    if let Some(faults) = settings.node_faults.get(node) {
        // Checked when the settings were loaded; a shape the kubelet cannot read means no faults.
        config.faults = crate::decode::from_value(faults).unwrap_or_default();
    }
    for image in &settings.registry {
        let words = |key: &str| -> Vec<String> {
            image
                .extra
                .get(key)
                .and_then(serde_json::Value::as_array)
                .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
                .unwrap_or_default()
        };
        let (entrypoint, cmd) = (words("entrypoint"), words("cmd"));
        let entrypoint: Vec<&str> = entrypoint.iter().map(String::as_str).collect();
        let cmd: Vec<&str> = cmd.iter().map(String::as_str).collect();
        // A reference the registry cannot parse is left out; pulls of it then fail as unknown.
        let _ = config.registry.add(&image.image, image.size_bytes.unwrap_or(5_000_000), &entrypoint, &cmd);
    }
    config
}

/// A cluster loaded and ready for runs: a [`World`] holding the starting state of `cluster`
/// (`None`: the built-in kind cluster), and the cluster's settings. Loading is deterministic
/// and leaves the run's seed out (the cluster YAML decides everything it writes; see
/// [`cluster::LOAD_SEED`]), so one `Loaded` serves any number of runs of any seed: each works
/// on its own copy, reseeded with the run's seed, which shares the stored objects (copied on
/// write) instead of rebuilding every bootstrap object.
#[derive(Clone, Debug)]
pub struct Loaded {
    cluster: Option<String>,
    core: World,
    settings: LabSettings,
}

impl Loaded {
    /// Loads `cluster` ([`cluster::load`]).
    pub fn load(cluster: Option<&str>) -> Result<Loaded, LabError> {
        let mut core = World::new(cluster::LOAD_SEED);
        let settings = cluster::load(&mut core, cluster).map_err(LabError::Cluster)?;
        Ok(Loaded { cluster: cluster.map(str::to_string), core, settings })
    }

    /// Whether `input` runs on this cluster (the same cluster YAML).
    pub fn fits(&self, input: &LabInput) -> bool {
        self.cluster.as_deref() == input.cluster.as_deref()
    }
}

/// The built-in kind cluster, loaded once per process (it is the same on every load).
fn default_cluster() -> Result<&'static Loaded, LabError> {
    static DEFAULT: std::sync::OnceLock<Result<Loaded, LabError>> = std::sync::OnceLock::new();
    DEFAULT.get_or_init(|| Loaded::load(None)).as_ref().map_err(Clone::clone)
}

/// Runs the lab (see the module docs).
pub fn run(input: &LabInput) -> Result<Run, LabError> {
    match input.cluster.as_deref() {
        None => run_on(default_cluster()?, input),
        Some(cluster) => run_on(&Loaded::load(Some(cluster))?, input),
    }
}

/// [`run`] with `loaded` kept loaded with the input's cluster: reused when it fits the input,
/// loaded anew when it is empty or its cluster differs. For callers that run one manifest
/// after another with their own cluster files (the page, the CLI's corpus report).
pub fn run_reusing(loaded: &mut Option<Loaded>, input: &LabInput) -> Result<Run, LabError> {
    start_reusing(loaded, input).map(Running::run_to_end)
}

/// [`run_reusing`] to be run in slices ([`Running`]).
pub fn start_reusing(loaded: &mut Option<Loaded>, input: &LabInput) -> Result<Running, LabError> {
    let fitting = match loaded.take().filter(|l| l.fits(input)) {
        Some(l) => l,
        None => Loaded::load(input.cluster.as_deref())?,
    };
    let running = Running::start(&fitting, input);
    *loaded = Some(fitting);
    running
}

/// kubectl's caller: the kubeconfig `user` (the settings' current user when `None`), as
/// `identity` when impersonating; with the user's name.
fn kubectl_caller(
    settings: &LabSettings,
    user: Option<&str>,
    identity: Option<&Identity>,
) -> Result<(String, Caller), LabError> {
    let user = user.map(str::to_string).or_else(|| settings.current_user.clone()).unwrap_or_default();
    let credential = credential_of(settings, &user).ok_or_else(|| LabError::UnknownUser {
        user: user.clone(),
        known: settings.users.iter().map(|u| u.name.clone()).collect(),
    })?;
    let mut caller = Caller::kubectl(credential);
    caller.impersonate = identity.map(|i| UserInfo { username: i.user.clone(), groups: i.groups.clone() });
    Ok((user, caller))
}

/// One kubelet per Node of the starting cluster, started.
fn start_kubelets(world: &mut World, settings: &LabSettings) -> Vec<Kubelet> {
    let base = KubeletConfig::default();
    let nodes: Vec<String> =
        world.store.list("/registry/minions/").into_iter().map(|(_, node, _)| node.name().to_string()).collect();
    let mut kubelets: Vec<Kubelet> =
        nodes.iter().map(|node| Kubelet::new(node, kubelet_config_from(base.clone(), settings, node))).collect();
    for kubelet in &mut kubelets {
        kubelet.start(world);
    }
    kubelets
}

/// Runs the lab on a copy of `loaded`, which fits the input (see [`Loaded::fits`]).
fn run_on(loaded: &Loaded, input: &LabInput) -> Result<Run, LabError> {
    Running::start(loaded, input).map(Running::run_to_end)
}

/// A run under way, for a caller that cannot wait for the whole of it at once (the page runs
/// a big manifest between its frames, so it keeps answering the learner): [`Running::start`]
/// queues kubectl's work, each [`Running::advance`] runs a slice of the cluster's tasks, and
/// [`Running::finish`] gives the [`Run`]. Slices of any size make the same run, step for
/// step, as [`run`].
pub struct Running {
    core: World,
    input: LabInput,
    user: String,
    namespace: String,
    setup_revision: u64,
    /// The last etcd revision offered to the actors.
    delivered: u64,
    kubectl: KubectlApply,
    controllers: ControllerManager,
    announcer: crate::consumers::Announcer,
    scheduler: SchedulerActor,
    kubelets: Vec<Kubelet>,
}

impl Running {
    /// A run of `input` on a copy of `loaded`, kubectl's work queued; nothing has run yet.
    pub fn start(loaded: &Loaded, input: &LabInput) -> Result<Running, LabError> {
        debug_assert!(loaded.fits(input), "a run on a cluster loaded for another cluster");
        let mut core = loaded.core.clone();
        core.rng = Rng::new(input.seed);
        // Room for a typical run's steps (a Deployment of three replicas takes some 150), so
        // the trace is not copied as it grows.
        core.steps.reserve(256);
        let settings = &loaded.settings;
        let setup_revision = core.store.revision();
        let (user, caller) = kubectl_caller(settings, input.user.as_deref(), input.identity.as_ref())?;
        let namespace = settings.context_namespace().to_string();
        let mut kubectl = KubectlApply::new(ApplyOptions {
            file: input.file_name.clone(),
            manifest: input.manifest.clone(),
            caller,
            namespace: namespace.clone(),
        });
        kubectl.start(&mut core);
        // The actors of the cluster: kubectl, kube-controller-manager (every controller,
        // node-lifecycle and taint-eviction included: the kubelets' heartbeats are routine
        // writes, which keep no run from settling), kube-scheduler, and one kubelet per Node
        // of the starting cluster.
        let mut scheduler = SchedulerActor::default();
        scheduler.start(&mut core);
        let kubelets = start_kubelets(&mut core, settings);
        let delivered = core.store.revision();
        Ok(Running {
            core,
            input: input.clone(),
            user,
            namespace,
            setup_revision,
            delivered,
            kubectl,
            controllers: ControllerManager::new(),
            announcer: crate::consumers::Announcer::default(),
            scheduler,
            kubelets,
        })
    }

    /// Runs at most `max_tasks` of the cluster's tasks: `true` once the run is over (the
    /// cluster settled or the input's time limit came).
    pub fn advance(&mut self, max_tasks: usize) -> bool {
        let mut actors: Vec<&mut dyn Actor<World>> =
            vec![&mut self.kubectl, &mut self.controllers, &mut self.scheduler];
        actors.extend(self.kubelets.iter_mut().map(|k| k as &mut dyn Actor<World>));
        actors.push(&mut self.announcer);
        run_loop_slice(&mut self.core, &mut actors, &mut self.delivered, self.input.limit_ms, max_tasks)
    }

    /// The whole run at once.
    pub fn run_to_end(mut self) -> Run {
        while !self.advance(usize::MAX) {}
        self.finish()
    }

    /// How far the run has got: its steps so far and the cluster's time (logical ms).
    pub fn progress(&self) -> (usize, u64) {
        (self.core.steps.len(), self.core.now)
    }

    /// The run, as far as it has got (call it once [`Running::advance`] said it is over).
    pub fn finish(self) -> Run {
        let Running { mut core, input, user, namespace, setup_revision, mut kubectl, announcer, .. } = self;
        let (stdout, stderr, kubectl_output, exit_code) = kubectl.finish();
        Run {
            kubernetes_version: crate::KUBERNETES_VERSION,
            seed: input.seed,
            file_name: input.file_name.clone(),
            user,
            impersonate: input.identity.clone(),
            namespace,
            setup_revision,
            steps: std::mem::take(&mut core.steps),
            documents: kubectl.results.clone(),
            stdout,
            stderr,
            kubectl_output,
            output_lines: kubectl.lines.clone(),
            exit_code,
            end_ms: core.now,
            final_revision: core.store.revision(),
            not_modelled: announcer.found,
            manifest: input.manifest,
            core: core.core,
        }
    }
}

/// A session as the lab page plays it (issue 25): `input`'s manifest applied as
/// `kubectl apply -f FILE` and the cluster settled (the steps of [`run`], one for one), then
/// each of `commands` at the time the cluster settled, the cluster settling after each as it
/// would while the learner reads (each with `input.limit_ms` of cluster time at most).
pub fn run_session(input: &LabInput, commands: &[session::SessionCommand]) -> Result<SessionRun, LabError> {
    let owned;
    let loaded: &Loaded = match input.cluster.as_deref() {
        None => default_cluster()?,
        Some(cluster) => {
            owned = Loaded::load(Some(cluster))?;
            &owned
        }
    };
    let mut s =
        session::Session::new(loaded, input.seed, input.user.as_deref(), input.identity.as_ref(), input.limit_ms)?;
    let apply = session::SessionCommand {
        line: format!("kubectl apply -f {}", input.file_name),
        file: Some((input.file_name.clone(), input.manifest.clone())),
    };
    s.run(&apply);
    s.settle();
    for c in commands {
        s.extend_limit(input.limit_ms);
        s.run(c);
        s.settle();
    }
    let stopped = s.stopped();
    let (run, commands) = s.into_run(input);
    Ok(SessionRun { run, commands, stopped })
}

/// A session's run and what each command printed ([`run_session`]); command 0 is the apply.
#[derive(Clone, Debug)]
pub struct SessionRun {
    pub run: Run,
    pub commands: Vec<session::CommandRecord>,
    /// The components stopped with `lab stop` at the end (`kube-scheduler`,
    /// `kubelet/kind-worker`), in name order.
    pub stopped: Vec<String>,
}

pub mod complete;
pub mod session;

#[cfg(test)]
mod tests;
