//! The lab's state as plain Rust, kept out of the components: turning the learner's inputs
//! into the engine's [`LabInput`], keeping the [`Run`] with what the page derives from it once
//! (phases, markers, where it broke), and the timeline's navigation. Everything about
//! Kubernetes comes from the run; this module only indexes and words it.

use crate::storage::Settings;
use podlab_engine::kubectl::apply::OutputLine;
use podlab_engine::lab::session::{parse_script, CommandRecord, SessionCommand};
use podlab_engine::lab::{self, Identity, LabInput, Run, DEFAULT_LIMIT_MS};
use podlab_engine::trace::{Component, Detail, Phase, Step, StepStatus};
use podlab_engine::views::{self, Marker, RevisionClock, Views};
use std::sync::Arc;

/// How long the editor waits after the last keystroke before it runs the engine.
pub const DEBOUNCE_MS: u32 = 350;

/// Playback speeds: label and milliseconds per step.
pub const SPEEDS: [(&str, u32); 4] = [("0.5×", 1600), ("1×", 800), ("2×", 400), ("4×", 150)];
/// The speed a first visit plays at (index into [`SPEEDS`]).
pub const DEFAULT_SPEED: usize = 1;

/// `--as-group` values from a text field: separated by commas or spaces.
pub fn parse_groups(text: &str) -> Vec<String> {
    text.split([',', ' ', '\n', '\t']).map(str::trim).filter(|g| !g.is_empty()).map(str::to_string).collect()
}

/// The engine's input for a manifest and the lab settings.
pub fn lab_input(manifest: &str, settings: &Settings) -> LabInput {
    let mut input = LabInput::new(manifest, if settings.file.is_empty() { "pod.yaml" } else { &settings.file });
    input.cluster = Some(settings.cluster.clone());
    input.user = Some(settings.user.trim().to_string()).filter(|u| !u.is_empty());
    let as_user = settings.as_user.trim();
    input.identity = (!as_user.is_empty())
        .then(|| Identity { user: as_user.to_string(), groups: parse_groups(&settings.as_groups) });
    input.limit_ms = DEFAULT_LIMIT_MS;
    input
}

/// A group of the timeline: the steps of one phase of the first `kubectl apply`, in trace
/// order, or (`command`) every step of a later command of the session, the cluster's
/// reaction included (`phase` is then its first step's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseGroup {
    pub phase: Phase,
    pub steps: Vec<usize>,
    /// The command line, for a later command of a session.
    pub command: Option<String>,
}

/// All fifteen phases in order, each with the indexes of its steps (possibly none).
pub fn group_by_phase(steps: &[Step]) -> Vec<PhaseGroup> {
    Phase::ALL
        .into_iter()
        .map(|phase| PhaseGroup {
            phase,
            steps: steps.iter().filter(|s| s.phase == phase).map(|s| s.index).collect(),
            command: None,
        })
        .collect()
}

/// The timeline's groups for a session: the fifteen phases of the first command's steps (up
/// to the next command), then one group per later command, from its first step to the next.
pub fn group_session(steps: &[Step], commands: &[CommandRecord]) -> Vec<PhaseGroup> {
    let bounds: Vec<usize> = commands.iter().skip(1).map(|c| c.first_step).chain([steps.len()]).collect();
    let mut groups = group_by_phase(&steps[..bounds[0].min(steps.len())]);
    for (c, end) in commands.iter().skip(1).zip(bounds.iter().skip(1)) {
        let range = c.first_step.min(steps.len())..(*end).min(steps.len());
        groups.push(PhaseGroup {
            phase: steps.get(range.start).map(|s| s.phase).unwrap_or(Phase::Request),
            steps: range.collect(),
            command: Some(c.line.clone()),
        });
    }
    groups
}

/// A command typed in the page's terminal, with the editor's manifest as the file it names
/// (`kubectl apply -f deployment.yaml`); any other file is one the session does not have.
pub fn session_command(line: &str, file_name: &str, manifest: &str) -> SessionCommand {
    let read = |path: &str| (path == file_name).then(|| manifest.to_string());
    parse_script(line, &read)
        .ok()
        .and_then(|mut c| (c.len() == 1).then(|| c.remove(0)))
        .unwrap_or_else(|| SessionCommand { line: line.trim().to_string(), file: None })
}

/// Where a run broke: its first failed step, in the words of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub step: usize,
    pub phase: Phase,
    pub component: Component,
    pub summary: String,
    /// The message the component gave (the Forbidden text, the validation errors, ...).
    pub message: String,
}

/// The first failed step of the run, if any.
pub fn failure(run: &Run) -> Option<Failure> {
    let step = run.steps.iter().find(|s| s.status == StepStatus::Failed)?;
    Some(Failure {
        step: step.index,
        phase: step.phase,
        component: step.from,
        summary: step.summary.clone(),
        message: step_message(step),
    })
}

/// The most telling message of a step: the text the component reported.
pub fn step_message(step: &Step) -> String {
    let text = match &step.detail {
        Detail::Note { text } => text.clone(),
        Detail::Authorization(a) => a.message.clone(),
        Detail::Authentication(a) => a.explanation.clone(),
        Detail::Admission(a) => a.message.clone().unwrap_or_else(|| a.explanation.clone()),
        Detail::Validation(v) => v
            .errors
            .iter()
            .map(|e| if e.field.is_empty() { e.message.clone() } else { format!("{}: {}", e.field, e.message) })
            .collect::<Vec<_>>()
            .join("\n"),
        Detail::Response(r) if !r.kubectl.is_empty() => r.kubectl.clone(),
        Detail::Etcd(e) => e.error.clone().unwrap_or_default(),
        Detail::Schedule(s) => s.message.clone().unwrap_or_default(),
        Detail::Event(e) => e.message.clone(),
        Detail::ApiCall(a) => a.error.clone().unwrap_or_else(|| a.authorization.clone()),
        Detail::Work(w) => w.explanation.clone(),
        _ => String::new(),
    };
    if text.trim().is_empty() {
        step.summary.clone()
    } else {
        text
    }
}

/// A component as the diagram and the announcements name it (with its node).
pub fn component_name(c: Component, node: Option<&str>) -> String {
    match (c, node) {
        (Component::Kubelet | Component::Runtime | Component::Cni, Some(n)) => format!("{} ({n})", c.title()),
        _ => c.title().to_string(),
    }
}

/// `kube-scheduler → kube-apiserver: <summary>`, or `kube-apiserver: <summary>` for work
/// inside one component: the text alternative of the diagram.
pub fn arrow_text(step: &Step) -> String {
    let node = step.node.as_deref();
    if step.from == step.to {
        format!("{}: {}", component_name(step.from, node), step.summary)
    } else {
        format!("{} → {}: {}", component_name(step.from, node), component_name(step.to, node), step.summary)
    }
}

/// What the live region says when a step is shown.
pub fn announce(step: &Step, total: usize) -> String {
    let status = match step.status {
        StepStatus::Ok => "",
        StepStatus::Warning => " (warning)",
        StepStatus::Failed => " (failed)",
    };
    format!("Step {} of {total}, {}{status}: {}", step.index + 1, step.phase.title(), arrow_text(step))
}

/// `0.004 s` for a logical time in milliseconds.
pub fn time_label(ms: u64) -> String {
    format!("{}.{:03} s", ms / 1000, ms % 1000)
}

thread_local! {
    /// The cluster loaded for the last run (see [`LabRun::start`]).
    static LOADED: std::cell::RefCell<Option<lab::Loaded>> = const { std::cell::RefCell::new(None) };
}

/// Everything the page derives from one run, computed once per run.
#[derive(Debug)]
pub struct LabRun {
    pub run: Run,
    /// The manifest text this run is of (markers refer to its lines).
    pub manifest: String,
    pub clock: RevisionClock,
    pub phases: Vec<PhaseGroup>,
    /// The namespace the kubectl panes show: the first applied object's, else kubectl's.
    pub namespace: String,
    pub markers: Vec<Marker>,
    pub failure: Option<Failure>,
    /// The kubeconfig users the cluster defines, and the one kubectl uses by default.
    pub users: Vec<String>,
    pub current_user: Option<String>,
    /// The session's commands: the apply of the manifest first, then those typed in the
    /// terminal (if any).
    pub commands: Vec<CommandRecord>,
}

impl LabRun {
    /// Runs the engine; `Err` is the engine's [`lab::LabError`] (a broken cluster, an
    /// unknown user) as text.
    ///
    /// The cluster loaded for the last run is kept (one per thread: the page's) and reused
    /// while the seed and the cluster stay the same, so a learner's next run starts at once.
    pub fn start(input: &LabInput) -> Result<LabRun, String> {
        let run = LOADED.with_borrow_mut(|loaded| lab::run_reusing(loaded, input)).map_err(|e| e.to_string())?;
        Ok(LabRun::from_run(run, input.manifest.clone()))
    }

    /// [`LabRun::start`] in slices: the run queued on the kept cluster, for the caller to
    /// advance a slice at a time ([`lab::Running::advance`]) and finish with
    /// [`LabRun::from_run`].
    pub fn begin(input: &LabInput) -> Result<lab::Running, String> {
        LOADED.with_borrow_mut(|loaded| lab::start_reusing(loaded, input)).map_err(|e| e.to_string())
    }

    /// Runs a session: the manifest applied, then `lines` typed in the terminal, the cluster
    /// settling after each ([`lab::run_session`]); a run of the manifest alone without lines.
    pub fn start_session(input: &LabInput, lines: &[String]) -> Result<LabRun, String> {
        if lines.is_empty() {
            return LabRun::start(input);
        }
        let commands: Vec<SessionCommand> =
            lines.iter().map(|l| session_command(l, &input.file_name, &input.manifest)).collect();
        let session = lab::run_session(input, &commands).map_err(|e| e.to_string())?;
        let mut run = LabRun::from_run(session.run, input.manifest.clone());
        run.phases = group_session(&run.run.steps, &session.commands);
        run.commands = session.commands;
        Ok(run)
    }

    pub fn from_run(run: Run, manifest: String) -> LabRun {
        let clock = RevisionClock::from_steps(&run.steps);
        let phases = group_by_phase(&run.steps);
        let namespace = run
            .documents
            .iter()
            .filter_map(|d| d.object.as_ref()?.namespace.clone())
            .next()
            .unwrap_or_else(|| run.namespace.clone());
        let markers = run.markers();
        let failure = failure(&run);
        let settings = podlab_engine::cluster::settings(run.store());
        LabRun {
            users: settings.users.iter().map(|u| u.name.clone()).collect(),
            current_user: settings.current_user.clone(),
            clock,
            phases,
            namespace,
            markers,
            failure,
            manifest,
            // The apply is the session's first command (the terminal shows it first).
            commands: vec![CommandRecord {
                line: format!("kubectl apply -f {}", run.file_name),
                stdout: run.stdout.clone(),
                stderr: run.stderr.clone(),
                exit_code: run.exit_code,
                start_ms: 0,
                end_ms: run.end_ms,
                first_step: 0,
                end_step: run.steps.len(),
            }],
            run,
        }
    }

    pub fn len(&self) -> usize {
        self.run.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.run.steps.is_empty()
    }

    pub fn step(&self, i: usize) -> Option<&Step> {
        self.run.steps.get(i)
    }

    /// The index of the last step (0 for a run without steps).
    pub fn last(&self) -> usize {
        self.len().saturating_sub(1)
    }

    /// The first step of `phase` in the first command, if the run reached it.
    pub fn first_of(&self, phase: Phase) -> Option<usize> {
        self.phases.iter().find(|g| g.phase == phase && g.command.is_none()).and_then(|g| g.steps.first().copied())
    }

    /// Every kubectl pane at step `i`: the store at that step's revision, seen at its time.
    pub fn views_at(&self, i: usize) -> Views {
        let (revision, now) = match self.step(i) {
            Some(s) => (s.revision, s.time_ms),
            None => (self.run.setup_revision, 0),
        };
        views::at(self.run.store(), revision, now, &self.namespace, self.run.setup_revision, &self.clock)
    }

    /// kubectl's output lines printed by the time step `i` is shown: a line appears with the
    /// step kubectl had just seen when it printed it (the response it reports).
    pub fn printed_lines(&self, i: usize) -> Vec<&OutputLine> {
        self.run.output_lines.iter().filter(|line| line.after_step.unwrap_or(0) <= i).collect()
    }

    /// Whether the apply has finished printing: the last step is shown, or in a session, a
    /// step after the apply's last.
    pub fn finished_at(&self, i: usize) -> bool {
        match self.commands.first() {
            Some(apply) if self.commands.len() > 1 => i + 1 >= apply.end_step,
            _ => i >= self.last(),
        }
    }
}

/// A run shared between the page's signals (compared by identity: a new run is a new value).
#[derive(Clone, Debug)]
pub struct Shared(pub Arc<LabRun>);

impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for Shared {
    type Target = LabRun;
    fn deref(&self) -> &LabRun {
        &self.0
    }
}

/// What the page has to show.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Outcome {
    /// Nothing ran yet (first load, or a run was interrupted by a crash).
    #[default]
    Idle,
    Ran(Shared),
    /// The lab could not start: the engine's message.
    LabError(String),
}

impl Outcome {
    pub fn run(&self) -> Option<&Shared> {
        match self {
            Outcome::Ran(r) => Some(r),
            _ => None,
        }
    }
}

/// The step after `i`, within a run of `len` steps.
pub fn next_step(i: usize, len: usize) -> usize {
    (i + 1).min(len.saturating_sub(1))
}

pub fn prev_step(i: usize) -> usize {
    i.saturating_sub(1)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::starters::by_id;
    use expect_test::expect;

    fn starter_run(id: &str) -> LabRun {
        let s = by_id(id).unwrap();
        let settings = Settings {
            preset: s.preset.into(),
            cluster: podlab_engine::cluster::preset(s.preset).unwrap().into(),
            file: s.file.into(),
            ..Settings::default()
        };
        LabRun::start(&lab_input(s.yaml, &settings)).unwrap()
    }

    #[test]
    fn groups_cover_every_phase_in_order() {
        let r = starter_run("pod");
        assert_eq!(r.phases.len(), 15);
        assert_eq!(r.phases.iter().map(|g| g.phase).collect::<Vec<_>>(), Phase::ALL.to_vec());
        let total: usize = r.phases.iter().map(|g| g.steps.len()).sum();
        assert_eq!(total, r.len());
        assert_eq!(r.first_of(Phase::Request), Some(0));
    }

    #[test]
    fn forbidden_run_says_where_it_broke() {
        let r = starter_run("forbidden");
        let f = r.failure.clone().unwrap();
        expect![[r#"
            Failure {
                step: 7,
                phase: Authorization,
                component: ApiServer,
                summary: "forbidden: alice may not create pods in namespace dev",
                message: "User \"alice\" cannot create resource \"pods\" in API group \"\" in the namespace \"dev\"",
            }
        "#]]
        .assert_debug_eq(&f);
        assert_eq!(r.namespace, "dev");
        assert_eq!(r.users, ["kubernetes-admin", "alice", "bob"]);
        assert_eq!(r.current_user.as_deref(), Some("alice"));
    }

    #[test]
    fn output_lines_appear_with_their_response() {
        let r = starter_run("pod");
        // kubectl's GET (404) comes first; the line reports the POST's 201.
        let response = r.run.steps.iter().position(|s| s.summary.starts_with("201 Created")).unwrap();
        assert!(matches!(r.step(response).unwrap().detail, Detail::Response(_)));
        assert!(r.printed_lines(response - 1).is_empty(), "not printed before the response");
        let printed = |i| r.printed_lines(i).iter().map(|l| l.text.clone()).collect::<Vec<_>>();
        assert_eq!(printed(response), ["pod/web created"]);
        assert_eq!(printed(r.last()), ["pod/web created"], "printed once, kept to the end");
    }

    #[test]
    fn announcements_and_arrows() {
        let r = starter_run("pod");
        expect![
            "Step 1 of 52, Request: kubectl → kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web"
        ]
        .assert_eq(&announce(r.step(0).unwrap(), r.len()));
        expect![[r#"kube-apiserver: authenticated as kubernetes-admin (x509 client certificate)"#]]
            .assert_eq(&arrow_text(r.step(1).unwrap()));
    }

    #[test]
    fn views_follow_the_step() {
        let r = starter_run("pod");
        assert_eq!(r.views_at(0).get_pods, "No resources found in default namespace.\n");
        assert!(r.views_at(r.last()).get_pods.starts_with("NAME "));
    }

    /// A session: the apply's fifteen phases, then a group per later command; every step in
    /// exactly one group; the editor's file is the one `-f` names.
    #[test]
    fn a_session_groups_each_command_after_the_phases() {
        let s = by_id("deployment").unwrap();
        let settings = Settings {
            preset: s.preset.into(),
            cluster: podlab_engine::cluster::preset(s.preset).unwrap().into(),
            file: s.file.into(),
            ..Settings::default()
        };
        let lines: Vec<String> = [
            "kubectl delete pods -l app=shop --wait=false",
            "kubectl get deploy",
            &format!("kubectl apply -f {}", s.file),
            "kubectl apply -f other.yaml",
        ]
        .iter()
        .map(|l| l.to_string())
        .collect();
        let r = LabRun::start_session(&lab_input(s.yaml, &settings), &lines).unwrap();
        assert_eq!(r.commands.len(), 5);
        assert_eq!(r.phases.len(), 15 + 4);
        assert!(r.phases[..15].iter().all(|g| g.command.is_none()));
        assert_eq!(r.phases[15].command.as_deref(), Some(lines[0].as_str()));
        let mut all: Vec<usize> = r.phases.iter().flat_map(|g| g.steps.clone()).collect();
        all.sort();
        assert_eq!(all, (0..r.len()).collect::<Vec<_>>());
        // The apply's output is whole once its steps are past.
        assert!(!r.finished_at(r.commands[0].end_step - 2) && r.finished_at(r.commands[0].end_step - 1));
        let out: Vec<String> = r.commands[1..]
            .iter()
            .map(|c| format!("$ {}\n{}{}(exit {})", c.line, c.stdout, c.stderr, c.exit_code))
            .collect();
        expect![[r#"
            [
                "$ kubectl delete pods -l app=shop --wait=false\npod \"shop-7bd5cc99b6-9vtnp\" deleted from default namespace\npod \"shop-7bd5cc99b6-pgw5x\" deleted from default namespace\n(exit 0)",
                "$ kubectl get deploy\nNAME   READY   UP-TO-DATE   AVAILABLE   AGE\nshop   2/2     2            2           2m10s\n(exit 0)",
                "$ kubectl apply -f deployment.yaml\ndeployment.apps/shop unchanged\n(exit 0)",
                "$ kubectl apply -f other.yaml\nerror: the path \"other.yaml\" does not exist\n(exit 1)",
            ]
        "#]].assert_debug_eq(&out);
    }

    #[test]
    fn inputs() {
        assert_eq!(parse_groups(" dev, ops  qa,"), ["dev", "ops", "qa"]);
        let s = Settings { as_user: "alice".into(), as_groups: "developers".into(), ..Settings::default() };
        let input = lab_input("x", &s);
        assert_eq!(input.identity, Some(Identity { user: "alice".into(), groups: vec!["developers".into()] }));
        assert_eq!(input.user, None);
        assert_eq!(next_step(3, 4), 3);
        assert_eq!(next_step(0, 0), 0);
        assert_eq!(prev_step(0), 0);
    }
}
