//! The components of the lab page. They read the lab's signals ([`Lab`]) and render; the
//! logic lives in the plain modules (`state`, `diagram`, ...) and in the engine's views
//! (markers, node and policy summaries).

mod cluster;
mod detail;
mod diagram;
mod editor;
mod embed;
mod explain;
pub mod layout;
pub mod learn;
mod panes;
mod share;
mod terminal;
mod timeline;

use crate::embed::{EmbedOptions, EmbedTheme};
use crate::share::{parse_fragment, Permalink};
use crate::starters;
use crate::state::{lab_input, LabRun, Outcome, Shared, DEBOUNCE_MS, DEFAULT_SPEED};
use crate::storage::{self, Settings};
use gloo_timers::callback::{Interval, Timeout};
use leptos::prelude::*;
use podlab_engine::KUBERNETES_VERSION;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// The page's theme choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Follow the system (`prefers-color-scheme`).
    System,
    Light,
    Dark,
}

impl Theme {
    fn from_storage() -> Theme {
        match storage::get(storage::THEME_KEY).as_deref() {
            Some("light") => Theme::Light,
            Some("dark") => Theme::Dark,
            _ => Theme::System,
        }
    }

    fn next(self) -> Theme {
        match self {
            Theme::System => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::System,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Theme::System => "Theme: system",
            Theme::Light => "Theme: light",
            Theme::Dark => "Theme: dark",
        }
    }

    /// Sets `data-theme` on `<html>` (the stylesheet reads it) and remembers the choice.
    fn apply(self) {
        let Some(root) = document_element() else {
            return;
        };
        match self {
            Theme::System => {
                let _ = root.remove_attribute("data-theme");
                storage::remove(storage::THEME_KEY);
            }
            Theme::Light => {
                let _ = root.set_attribute("data-theme", "light");
                storage::set(storage::THEME_KEY, "light");
            }
            Theme::Dark => {
                let _ = root.set_attribute("data-theme", "dark");
                storage::set(storage::THEME_KEY, "dark");
            }
        }
    }
}

fn document_element() -> Option<web_sys::Element> {
    web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element())
}

/// Where the lab goes once the next run is ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Step(usize),
    Phase(podlab_engine::trace::Phase),
    /// The first step of the session's command `i` (0: the apply).
    Command(usize),
}

/// The page's URL without its fragment.
pub fn page_url_without_hash() -> String {
    let Some(loc) = web_sys::window().map(|w| w.location()) else { return String::new() };
    let href = loc.href().unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_string()
}

/// Removes the fragment from the address bar without a reload or a history entry.
fn clear_hash() {
    let Some(w) = web_sys::window() else { return };
    let Ok(history) = w.history() else { return };
    let url = page_url_without_hash();
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}

/// A change of the manifest by more characters than this is a paste (it runs at once).
const PASTE_CHARS: usize = 2_000;
/// How long a slice of a run goes before the page takes its turn (ms of the browser's clock).
const SLICE_MS: f64 = 30.0;
/// Tasks the engine runs between two looks at the clock (a task takes microseconds).
const TASKS_PER_CHECK: usize = 16;
/// A run still going after this long says how far it has got (ms).
const PROGRESS_AFTER_MS: f64 = 300.0;

/// Which kubectl pane is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    Apply,
    Watch,
    Wide,
    Describe,
    Events,
    Workloads,
}

/// The lab's signals, shared by every component (all `Copy`).
#[derive(Clone, Copy)]
pub struct Lab {
    pub manifest: RwSignal<String>,
    pub settings: RwSignal<Settings>,
    pub outcome: RwSignal<Outcome>,
    /// The index of the step shown.
    pub step: RwSignal<usize>,
    pub playing: RwSignal<bool>,
    /// Index into [`crate::state::SPEEDS`].
    pub speed: RwSignal<usize>,
    pub pane: RwSignal<Pane>,
    /// A run is scheduled (the learner is typing).
    pub pending: RwSignal<bool>,
    /// The previous visit stopped during a run: the lab waits for the learner.
    pub interrupted: RwSignal<bool>,
    /// How many runs finished (the page exposes it as `data-runs`, for tests).
    pub runs: RwSignal<u32>,
    /// The lab shows a shared link (permalink): nothing is saved until the learner edits it,
    /// and then the whole view becomes their saved lab.
    pub linked: RwSignal<bool>,
    /// Why the link in the URL could not be opened (shown as a notice).
    pub link_error: RwSignal<Option<String>>,
    /// The exercise the lab was opened for (from a permalink or an embed's `exercise=`).
    pub exercise: RwSignal<Option<String>>,
    /// Why the manifest in the editor is not saved in this browser (too big for its
    /// storage, or storage disabled), if it is not: it is kept in the page only.
    pub unsaved: RwSignal<Option<String>>,
    /// The session: the commands typed in the terminal after the manifest's apply, run
    /// against the same cluster one after another (the whole session runs again when the
    /// manifest or a setting changes).
    pub session: RwSignal<Vec<String>>,
    /// Embed mode: never reads or writes the learner's saved lab.
    pub embedded: bool,
    /// The manifest cannot be edited (an embed's `readonly`).
    pub readonly: bool,
    target: StoredValue<Option<Target>, LocalStorage>,
    /// "Ask me before decisive steps": playing and stepping pause before a prediction.
    pub ask: RwSignal<bool>,
    /// The predictions generated from the run shown (see `podlab_learn::predict`).
    pub predictions: RwSignal<Vec<podlab_learn::predict::Prediction>>,
    /// The step the lab paused before, waiting for the learner's prediction.
    pub asking: RwSignal<Option<usize>>,
    /// The steps whose prediction was answered in this run.
    pub answered: RwSignal<std::collections::BTreeSet<usize>>,
    /// A run under way: its steps so far and the cluster's time, once it has taken longer
    /// than [`PROGRESS_AFTER_MS`].
    pub progress: RwSignal<Option<(usize, u64)>>,
    /// Counts the runs started; a run in slices stops when a newer one starts.
    generation: StoredValue<u64, LocalStorage>,
    timer: StoredValue<Option<Timeout>, LocalStorage>,
    player: StoredValue<Option<Interval>, LocalStorage>,
}

/// The learner's saved manifest, or the default starter (saved at once, so that even a crash
/// before the first edit keeps it).
fn saved_manifest() -> String {
    storage::load_manifest().unwrap_or_else(|| {
        let text = starters::default_starter().yaml.to_string();
        // A browser that keeps nothing says so at the first edit.
        let _ = storage::save_manifest(&text);
        text
    })
}

/// The settings a starter is written for.
fn starter_settings(s: &starters::Starter) -> Settings {
    Settings {
        starter: s.id.to_string(),
        file: s.file.to_string(),
        preset: s.preset.to_string(),
        cluster: podlab_engine::cluster::preset(s.preset).unwrap_or_default().to_string(),
        ..Settings::default()
    }
}

impl Lab {
    /// The lab of this page: an embed's (from its options), a shared link's (from the URL
    /// fragment), or the learner's saved lab.
    fn new(embed: Option<&EmbedOptions>) -> Lab {
        let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
        let link = parse_fragment(&hash);
        let mut link_error = None;
        let mut linked = false;
        let mut target = None;
        let mut exercise = None;
        let session: Vec<String>;
        let (manifest, settings) = match (embed, link) {
            (_, Some(Ok(link))) => {
                linked = embed.is_none();
                target = Some(Target::Step(link.step));
                exercise = link.exercise;
                session = link.session;
                (link.manifest, link.settings)
            }
            (Some(o), other) => {
                if let Some(Err(e)) = other {
                    link_error = Some(e.to_string());
                }
                let starter = o.starter.as_deref().and_then(starters::by_id).unwrap_or(starters::default_starter());
                let mut settings = starter_settings(starter);
                if let Some(name) = &o.cluster {
                    if let Some(text) = podlab_engine::cluster::preset(name) {
                        settings.preset = name.clone();
                        settings.cluster = text.to_string();
                    }
                }
                if o.manifest.is_some() {
                    settings.starter.clear();
                    settings.file = "manifest.yaml".into();
                }
                target = o.step.map(Target::Step).or(o.phase.map(Target::Phase));
                exercise = o.exercise.clone();
                session = o.session.clone();
                (o.manifest.clone().unwrap_or_else(|| starter.yaml.to_string()), settings)
            }
            (None, other) => {
                if let Some(Err(e)) = other {
                    link_error = Some(e.to_string());
                }
                session = storage::load_session();
                (saved_manifest(), storage::load_settings())
            }
        };
        // An embed never reads the page's crash marker (it is the learner's own lab's).
        let interrupted = embed.is_none() && !linked && storage::get(storage::RUNNING_KEY).is_some();
        Lab {
            manifest: RwSignal::new(manifest),
            settings: RwSignal::new(settings),
            outcome: RwSignal::new(Outcome::Idle),
            step: RwSignal::new(0),
            playing: RwSignal::new(false),
            speed: RwSignal::new(DEFAULT_SPEED),
            pane: RwSignal::new(Pane::Apply),
            pending: RwSignal::new(false),
            interrupted: RwSignal::new(interrupted),
            runs: RwSignal::new(0),
            linked: RwSignal::new(linked),
            link_error: RwSignal::new(link_error),
            unsaved: RwSignal::new(None),
            session: RwSignal::new(session),
            exercise: RwSignal::new(exercise),
            embedded: embed.is_some(),
            readonly: embed.is_some_and(|o| o.readonly),
            target: StoredValue::new_local(target),
            ask: RwSignal::new(false),
            predictions: RwSignal::new(Vec::new()),
            asking: RwSignal::new(None),
            answered: RwSignal::new(Default::default()),
            progress: RwSignal::new(None),
            generation: StoredValue::new_local(0),
            timer: StoredValue::new_local(None),
            player: StoredValue::new_local(None),
        }
    }

    /// Whether changes are saved to the learner's lab (not in an embed; for a shared link,
    /// only once the learner edits it, see [`Lab::adopt`]).
    fn persists(&self) -> bool {
        !self.embedded
    }

    /// The learner edits a shared link: from now on it is their lab (manifest and settings
    /// saved, the fragment removed so that a reload shows what they saved).
    fn adopt(&self) {
        if self.linked.get_untracked() {
            self.linked.set(false);
            self.save_manifest();
            self.settings.with_untracked(storage::save_settings);
            self.session.with_untracked(|s| storage::save_session(s));
            clear_hash();
        }
    }

    /// Saves the manifest in the editor, and says in [`Lab::unsaved`] whether the browser
    /// kept it. A text the browser refuses stays in the page all the same (the editor says
    /// that it is not saved); what was saved before stays saved.
    fn save_manifest(&self) {
        let unsaved = self.manifest.with_untracked(|m| storage::save_manifest(m)).err();
        if self.unsaved.with_untracked(|u| *u != unsaved) {
            self.unsaved.set(unsaved);
        }
    }

    /// Opens a shared link: its manifest, cluster and identity, then its step once run.
    pub fn open_link(&self, link: Permalink) {
        self.stop();
        self.linked.set(!self.embedded);
        self.link_error.set(None);
        self.manifest.set(link.manifest);
        self.settings.set(link.settings);
        self.exercise.set(link.exercise);
        self.session.set(link.session);
        self.target.set_value(Some(Target::Step(link.step)));
        self.schedule(0);
    }

    /// Leaves a shared link for the learner's own saved lab.
    pub fn leave_link(&self) {
        self.linked.set(false);
        self.manifest.set(saved_manifest());
        self.settings.set(storage::load_settings());
        self.session.set(storage::load_session());
        self.exercise.set(None);
        clear_hash();
        self.schedule(0);
    }

    /// The permalink of what is shown now.
    pub fn permalink(&self) -> Permalink {
        Permalink {
            manifest: self.manifest.get_untracked(),
            settings: self.settings.get_untracked(),
            step: self.step.get_untracked(),
            exercise: self.exercise.get_untracked(),
            session: self.session.get_untracked(),
        }
    }

    /// Runs `line` as the session's next command: the session runs again with it (the same
    /// cluster, the same clock: the engine is deterministic) and the timeline shows the
    /// command's first step.
    pub fn command(&self, line: &str) {
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        self.adopt();
        self.session.update(|s| s.push(line.to_string()));
        if self.persists() {
            self.session.with_untracked(|s| storage::save_session(s));
        }
        let index = self.session.with_untracked(Vec::len);
        self.target.set_value(Some(Target::Command(index)));
        self.run_now();
    }

    /// Replaces the session's commands (an exercise's own, on loading it); the run follows
    /// the next edit.
    pub fn set_session(&self, lines: Vec<String>) {
        self.adopt();
        if self.persists() {
            storage::save_session(&lines);
        }
        self.session.set(lines);
    }

    /// "Reset cluster": forgets the session's commands; the manifest alone runs again.
    pub fn reset_cluster(&self) {
        self.adopt();
        self.session.set(Vec::new());
        if self.persists() {
            storage::save_session(&[]);
        }
        self.run_now();
    }

    /// Shows `target` after the next run (or now, if a run is shown and none is pending).
    pub fn go_to_after_run(&self, target: Target) {
        self.target.set_value(Some(target));
    }

    /// The run shown, if there is one.
    pub fn run(&self) -> Option<Shared> {
        self.outcome.with(|o| o.run().cloned())
    }

    /// The manifest changed: save it at once, run the engine a moment later.
    pub fn edit(&self, text: String) {
        if self.readonly {
            return;
        }
        self.adopt();
        // A paste (thousands of characters at once) is not followed by more keys: it runs at
        // once; typing waits for a pause.
        let pasted = self.manifest.with_untracked(|old| old.len().abs_diff(text.len()) > PASTE_CHARS);
        self.manifest.set(text);
        if self.persists() {
            self.save_manifest();
        }
        self.schedule(if pasted { 0 } else { DEBOUNCE_MS });
    }

    /// Changes the settings (saved at once) and schedules a run.
    pub fn update_settings(&self, f: impl FnOnce(&mut Settings)) {
        self.adopt();
        self.settings.update(f);
        if self.persists() {
            self.settings.with_untracked(storage::save_settings);
        }
        self.schedule(DEBOUNCE_MS);
    }

    /// Loads a starter: its manifest, file name and the cluster preset it is written for.
    pub fn load_starter(&self, id: &str) {
        let Some(s) = starters::by_id(id) else { return };
        self.adopt();
        self.manifest.set(s.yaml.to_string());
        if self.persists() {
            self.save_manifest();
        }
        self.settings.update(|st| {
            st.starter = s.id.to_string();
            st.file = s.file.to_string();
            st.preset = s.preset.to_string();
            st.cluster = podlab_engine::cluster::preset(s.preset).unwrap_or_default().to_string();
            st.user.clear();
            st.as_user.clear();
            st.as_groups.clear();
        });
        if self.persists() {
            self.settings.with_untracked(storage::save_settings);
        }
        self.schedule(0);
    }

    /// Runs the engine after `delay_ms`, replacing a run scheduled earlier.
    pub fn schedule(&self, delay_ms: u32) {
        let lab = *self;
        self.pending.set(true);
        let timeout = Timeout::new(delay_ms, move || lab.run_now());
        // Dropping the previous timeout cancels it.
        self.timer.set_value(Some(timeout));
    }

    /// Runs the engine on the current inputs and shows the new run from its first step.
    ///
    /// A run of the manifest alone goes in slices of about [`SLICE_MS`] between which the
    /// page answers the learner (a big paste makes thousands of steps); after
    /// [`PROGRESS_AFTER_MS`] a line under the editor says how far it has got. A newer run (an edit, a
    /// command) replaces one under way. A session with commands runs in one piece.
    pub fn run_now(&self) {
        self.timer.set_value(None);
        let generation = self.generation.get_value().wrapping_add(1);
        self.generation.set_value(generation);
        self.progress.set(None);
        let input = lab_input(&self.manifest.get_untracked(), &self.settings.get_untracked());
        // If the page dies during the run, the next visit does not start it again by itself.
        if self.persists() {
            storage::set(storage::RUNNING_KEY, "1");
        }
        if self.session.with_untracked(|lines| !lines.is_empty()) {
            let outcome = self.session.with_untracked(|lines| LabRun::start_session(&input, lines));
            self.show(outcome);
            return;
        }
        let mut running = match LabRun::begin(&input) {
            Ok(r) => r,
            Err(e) => return self.show(Err(e)),
        };
        let lab = *self;
        leptos::task::spawn_local(async move {
            let began = js_sys::Date::now();
            loop {
                let slice = js_sys::Date::now();
                let mut done = false;
                while !done && js_sys::Date::now() - slice < SLICE_MS {
                    done = running.advance(TASKS_PER_CHECK);
                }
                if done {
                    break;
                }
                if js_sys::Date::now() - began > PROGRESS_AFTER_MS {
                    lab.progress.set(Some(running.progress()));
                }
                if !lab.turn(generation).await {
                    return;
                }
            }
            // After a long run, what the page derives from it and its rendering each get a
            // turn of their own (each takes as long as a few slices for thousands of steps).
            let long = js_sys::Date::now() - began > SLICE_MS;
            if long && !lab.turn(generation).await {
                return;
            }
            let run = LabRun::from_run(running.finish(), input.manifest);
            if long && !lab.turn(generation).await {
                return;
            }
            let predictions = podlab_learn::predict::questions(&run.run);
            if long && !lab.turn(generation).await {
                return;
            }
            lab.show_with(Ok(run), predictions);
        });
    }

    /// Gives the page its turn (a `setTimeout(0)`); `false` when a newer run than
    /// `generation` has started meanwhile.
    async fn turn(&self, generation: u64) -> bool {
        gloo_timers::future::TimeoutFuture::new(0).await;
        self.generation.try_get_value() == Some(generation)
    }

    /// Shows a new run (or the engine's refusal) from its target step.
    fn show(&self, result: Result<LabRun, String>) {
        let predictions = match &result {
            Ok(run) => podlab_learn::predict::questions(&run.run),
            Err(_) => Vec::new(),
        };
        self.show_with(result, predictions);
    }

    /// [`Lab::show`] with the run's predictions already made.
    fn show_with(&self, result: Result<LabRun, String>, predictions: Vec<podlab_learn::predict::Prediction>) {
        let outcome = match result {
            Ok(run) => {
                self.predictions.set(predictions);
                Outcome::Ran(Shared(Arc::new(run)))
            }
            Err(e) => Outcome::LabError(e),
        };
        if self.persists() {
            storage::remove(storage::RUNNING_KEY);
        }
        let start = match (self.target.get_value(), outcome.run()) {
            (Some(Target::Step(i)), Some(run)) => i.min(run.last()),
            (Some(Target::Phase(p)), Some(run)) => run.first_of(p).unwrap_or(0),
            (Some(Target::Command(i)), Some(run)) => {
                run.commands.get(i).map(|c| c.first_step.min(run.last())).unwrap_or(0)
            }
            _ => 0,
        };
        self.target.set_value(None);
        self.stop();
        self.interrupted.set(false);
        self.pending.set(false);
        self.progress.set(None);
        self.step.set(0);
        self.asking.set(None);
        self.answered.set(Default::default());
        self.outcome.set(outcome);
        self.step.set(start);
        self.runs.update(|n| *n += 1);
    }

    /// The number of steps of the run shown.
    pub fn step_count(&self) -> usize {
        self.outcome.with(|o| o.run().map(|r| r.len()).unwrap_or(0))
    }

    /// Shows step `i` (clamped to the run).
    pub fn go(&self, i: usize) {
        let len = self.step_count();
        self.step.set(i.min(len.saturating_sub(1)));
    }

    pub fn forward(&self) {
        let next = self.step.get_untracked() + 1;
        if next < self.step_count() && self.pause_for(next) {
            return;
        }
        self.go(next);
    }

    /// Pauses before step `next` when a prediction is due there (and stops playing).
    pub fn pause_for(&self, next: usize) -> bool {
        let due: Vec<usize> = self.predictions.with_untracked(|p| p.iter().map(|p| p.before_step).collect());
        let pause =
            self.answered.with_untracked(|a| crate::learn::should_pause(self.ask.get_untracked(), &due, a, next));
        if pause {
            self.stop();
            self.asking.set(Some(next));
        }
        pause
    }

    pub fn back(&self) {
        self.go(self.step.get_untracked().saturating_sub(1));
    }

    pub fn play(&self) {
        let len = self.step_count();
        if len == 0 {
            return;
        }
        if self.step.get_untracked() + 1 >= len {
            self.step.set(0);
        }
        self.playing.set(true);
        self.restart_player();
    }

    pub fn stop(&self) {
        self.playing.set(false);
        self.player.set_value(None);
    }

    fn restart_player(&self) {
        if !self.playing.get_untracked() {
            return;
        }
        let lab = *self;
        let ms = crate::state::SPEEDS[self.speed.get_untracked().min(crate::state::SPEEDS.len() - 1)].1;
        let interval = Interval::new(ms, move || {
            let len = lab.step_count();
            let next = lab.step.get_untracked() + 1;
            if next >= len {
                lab.stop();
            } else if !lab.pause_for(next) {
                lab.step.set(next);
                if next + 1 >= len {
                    lab.stop();
                }
            }
        });
        self.player.set_value(Some(interval));
    }

    pub fn set_speed(&self, i: usize) {
        self.speed.set(i);
        self.restart_player();
    }
}

fn is_text_entry(target: Option<web_sys::EventTarget>) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    let tag = el.tag_name().to_ascii_lowercase();
    tag == "textarea" || tag == "input" || tag == "select" || el.closest("[role=tablist]").ok().flatten().is_some()
}

#[component]
pub fn App() -> impl IntoView {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let embed = crate::embed::parse_query(&search);
    crate::embed::set_options(embed.clone());
    let lab = Lab::new(embed.as_ref());
    provide_context(lab);
    let learn_ui = learn::LearnUi::new();
    provide_context(learn_ui);
    // A page opened for an exercise (a permalink's) shows it beside the manifest.
    let first_view = if embed.is_none() && lab.exercise.get_untracked().is_some() {
        layout::View::Learn
    } else {
        layout::View::Journey
    };
    let layout = layout::Layout::new(first_view);
    provide_context(layout);
    // The exercise of a permalink or an embed's `exercise=` is the learn panel's exercise,
    // and the exercise loaded there goes into the page's permalink.
    if let Some(id) = lab.exercise.get_untracked() {
        learn_ui.view.set("exercises");
        let from_link = matches!(
            parse_fragment(&web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()),
            Some(Ok(_))
        );
        let fresh_embed = !from_link && embed.as_ref().is_some_and(|o| o.manifest.is_none());
        match podlab_learn::content::exercises().into_iter().find(|x| x.id == id) {
            // An embed's exercise starts from the exercise's own cluster and manifest, unless
            // the embed gives its manifest inline or opens a permalink.
            Some(ex) if fresh_embed => learn::load_exercise(lab, learn_ui, &ex),
            _ => learn_ui.exercise.set(Some(id)),
        }
    }
    Effect::new(move || {
        let id = lab.exercise.get();
        if id.is_some() && learn_ui.exercise.get_untracked() != id {
            learn_ui.view.set("exercises");
            learn_ui.exercise.set(id);
            layout.show(layout::View::Learn);
        }
    });
    Effect::new(move || {
        let id = learn_ui.exercise.get();
        if lab.exercise.get_untracked() != id {
            lab.exercise.set(id);
        }
    });

    // Arrow keys step through the run (Home and End go to its first and last step), unless the learner is typing (or in the tab list,
    // whose arrow keys switch panes).
    let keys = window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.alt_key() || ev.ctrl_key() || ev.meta_key() || ev.shift_key() || is_text_entry(ev.target()) {
            return;
        }
        match ev.key().as_str() {
            "ArrowRight" => {
                ev.prevent_default();
                lab.stop();
                lab.forward();
            }
            "ArrowLeft" => {
                ev.prevent_default();
                lab.stop();
                lab.back();
            }
            "Home" => {
                ev.prevent_default();
                lab.stop();
                lab.go(0);
            }
            "End" => {
                ev.prevent_default();
                lab.stop();
                lab.go(lab.step_count().saturating_sub(1));
            }
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());

    // The first run: at once, unless the previous visit died during a run.
    if !lab.interrupted.get_untracked() {
        lab.schedule(0);
    }
    if web_sys::window().and_then(|w| w.location().hash().ok()).as_deref() == Some("#podlab-panic-test") {
        // The recovery message's own test: a deliberate panic after the page has mounted.
        Timeout::new(50, || panic!("podlab panic test (#podlab-panic-test)")).forget();
    }
    register_service_worker();
    // A link pasted into the address bar of an open lab changes only the fragment.
    let hashes = window_event_listener(leptos::ev::hashchange, move |_| {
        let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
        match parse_fragment(&hash) {
            Some(Ok(link)) => lab.open_link(link),
            Some(Err(e)) => lab.link_error.set(Some(e.to_string())),
            None => {}
        }
    });
    on_cleanup(move || hashes.remove());

    match embed {
        Some(options) => embed::EmbedApp(embed::EmbedAppProps { lab, options }).into_any(),
        None => page(lab).into_any(),
    }
}

/// The full lab page: the header, the view tabs and the two columns (see [`layout`]).
fn page(lab: Lab) -> impl IntoView {
    use layout::{View, ViewTabs};
    let layout = expect_context::<layout::Layout>();
    let theme = RwSignal::new(Theme::from_storage());
    theme.get_untracked().apply();
    // A view's container: a tab panel, shown by the stylesheet when its column (or, on a
    // narrow screen, the page) shows it.
    let panel = |v: View, children: AnyView| {
        view! {
            <div id=v.panel_id() class=format!("view view-{}", v.id()) role="tabpanel" aria-label=v.title()>
                {children}
            </div>
        }
    };
    view! {
        <a
            class="skip"
            href="#timeline-title"
            on:click=move |ev| {
                ev.prevent_default();
                layout.show_and_focus(View::Journey, "timeline-title");
            }
        >
            "Skip to the timeline"
        </a>
        <header class="topbar">
            <h1 class="brand">"podlab"</h1>
            <p class="tagline">"what a cluster does with your manifest, step by step"</p>
            <p class="version" title="The Kubernetes release whose behaviour podlab models">
                "Kubernetes " {KUBERNETES_VERSION}
            </p>
            <button
                type="button"
                class="theme"
                on:click=move |_| {
                    let t = theme.get_untracked().next();
                    t.apply();
                    theme.set(t);
                }
            >
                {move || theme.get().label()}
            </button>
            <share::CopyLink />
        </header>
        <share::LinkNotices />
        <ViewTabs views=&View::ALL narrow=true label="Lab views" />
        <main
            class="lab"
            id="lab"
            data-runs=move || lab.runs.get().to_string()
            data-left=move || layout.left.get().id()
            data-right=move || layout.right.get().id()
            data-focus=move || layout.focus.get().id()
        >
            <div class="col-input">
                <ViewTabs views=&View::LEFT narrow=false label="Your input" />
                // The Manifest view: the editor, and the session's terminal under it.
                {panel(
                    View::Manifest,
                    view! {
                        <editor::Editor />
                        <terminal::Terminal />
                        <p class="to-journey">
                            <button type="button" on:click=move |_| layout.show_and_focus(View::Journey, "status-title")>
                                "See what the cluster did ▸"
                            </button>
                        </p>
                    }
                        .into_any(),
                )}
                {panel(View::Cluster, view! { <cluster::ClusterPanel /> }.into_any())}
            </div>
            <div class="col-run">
                <ViewTabs views=&View::RIGHT narrow=false label="What happened" />
                {panel(
                    View::Journey,
                    view! {
                        <RunStatus />
                        <timeline::Timeline />
                        <learn::PredictPause />
                        <detail::StepDetail phase_quiz=true />
                        <explain::PhaseCard />
                        <diagram::Diagram />
                        <panes::Panes />
                        <explain::Explanations collapsible=true />
                    }
                        .into_any(),
                )}
                {panel(View::Learn, view! { <learn::LearnPanel /> }.into_any())}
            </div>
        </main>
        <footer class="foot">
            "Everything runs in your browser: the podlab engine, compiled to WebAssembly, plays a Kubernetes "
            {KUBERNETES_VERSION} " cluster."
        </footer>
    }
}

/// Registers `sw.js` (beside the page, so any sub-path works): after one visit the lab loads
/// without a network. Browsers without service workers, or a page opened from a file, just
/// go on without it.
fn register_service_worker() {
    let Some(w) = web_sys::window() else { return };
    let nav = w.navigator();
    let Ok(container) = js_sys::Reflect::get(&nav, &"serviceWorker".into()) else { return };
    if container.is_undefined() {
        return;
    }
    let Ok(register) = js_sys::Reflect::get(&container, &"register".into()) else { return };
    let Ok(register) = register.dyn_into::<js_sys::Function>() else { return };
    if let Ok(promise) = register.call1(&container, &"./sw.js".into()) {
        if let Ok(promise) = promise.dyn_into::<js_sys::Promise>() {
            // A refusal (an insecure origin, no sw.js in a development build) is not an error.
            leptos::task::spawn_local(async move {
                let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
            });
        }
    }
}

/// Sets the colour scheme an embed asks for (not remembered).
fn apply_embed_theme(theme: Option<EmbedTheme>) {
    let Some(root) = document_element() else { return };
    let _ = match theme {
        Some(EmbedTheme::Light) => root.set_attribute("data-theme", "light"),
        Some(EmbedTheme::Dark) => root.set_attribute("data-theme", "dark"),
        None => root.remove_attribute("data-theme"),
    };
}

/// The run's outcome in a few words: kubectl's exit, where it broke, or why it did not run.
#[component]
fn RunStatus() -> impl IntoView {
    let lab = expect_context::<Lab>();
    view! {
        <section class="panel status" aria-labelledby="status-title">
            <h2 id="status-title" class="panel-title" tabindex="-1">
                "Outcome"
            </h2>
            {move || {
                if lab.interrupted.get() {
                    return view! {
                        <div class="notice" role="status">
                            <p>
                                "The lab stopped during the last run. Your text is kept; change it, or run it again."
                            </p>
                            <button type="button" on:click=move |_| lab.run_now()>
                                "Run again"
                            </button>
                        </div>
                    }
                        .into_any();
                }
                match lab.outcome.get() {
                    Outcome::Idle => view! { <p class="muted">"Running…"</p> }.into_any(),
                    Outcome::LabError(e) => {
                        view! {
                            <div class="failure" id="lab-error">
                                <p>
                                    <strong>"The lab cannot start: "</strong>
                                    {e}
                                </p>
                                <p class="muted">
                                    "This is about the cluster or the identity in the Cluster panel, not your manifest."
                                </p>
                            </div>
                        }
                            .into_any()
                    }
                    Outcome::Ran(run) => outcome_view(lab, run).into_any(),
                }
            }}
        </section>
    }
}

fn outcome_view(lab: Lab, run: Shared) -> impl IntoView {
    let exit = run.run.exit_code;
    let accepted: Vec<String> =
        run.run.documents.iter().filter(|d| d.accepted).map(|d| d.outcome.clone()).filter(|o| !o.is_empty()).collect();
    let failure = run.failure.clone();
    let gaps = run.run.not_modelled.clone();
    let summary = format!(
        "{} steps, {} of cluster time · kubectl exited with {exit}",
        run.len(),
        crate::state::time_label(run.run.end_ms)
    );
    view! {
        <p class="run-summary" id="run-summary">
            {summary}
        </p>
        {(!accepted.is_empty())
            .then(|| {
                view! {
                    <ul class="accepted">
                        {accepted.into_iter().map(|a| view! { <li>{a}</li> }).collect_view()}
                    </ul>
                }
            })}
        {(!gaps.is_empty())
            .then(|| {
                view! {
                    <div class="not-modelled" id="not-modelled" role="note">
                        <h3>"Not modelled by the lab"</h3>
                        {gaps
                            .into_iter()
                            .map(|g| {
                                let step = g.step;
                                view! {
                                    <p>{g.text}</p>
                                    <p class="actions">
                                        <button type="button" on:click=move |_| lab.go(step)>
                                            "Show this step"
                                        </button>
                                    </p>
                                }
                            })
                            .collect_view()}
                    </div>
                }
            })}
        {failure
            .map(|f| {
                let text = crate::explain::phase_text(f.phase);
                let href = format!("#explain-{}", f.phase.id());
                // The message in a block of its own only when the sentence does not already
                // say it (a scheduler's or admission's summary often is the message).
                let message = (!f.message.trim().is_empty() && !f.summary.contains(f.message.trim()))
                    .then(|| view! { <pre class="message">{f.message.clone()}</pre> });
                view! {
                    <div class="failure" id="failure">
                        <h3>"Where it broke"</h3>
                        <p>
                            "Step " {f.step + 1} ", " <strong>{f.phase.title()}</strong> " ("
                            {f.component.title()} "): " {f.summary.clone()}
                        </p>
                        {message}
                        <p>
                            <strong>"How to fix it: "</strong>
                            {text.fix}
                        </p>
                        <p class="actions">
                            <button type="button" on:click=move |_| lab.go(f.step)>
                                "Show this step"
                            </button>
                            <a href=href on:click=|_| explain::open_all()>
                                "About " {f.phase.title()}
                            </a>
                        </p>
                    </div>
                }
            })}
    }
}

/// Replaces the page with a recovery message after a panic (the app cannot go on). The
/// learner's manifest is in localStorage already; it is also shown here to copy.
pub fn show_recovery(message: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(body) = doc.body() else { return };
    // The text in the editor, which can be newer than the saved one (a text too big for the
    // browser's storage is kept in the page only).
    let saved = storage::load_manifest().unwrap_or_default();
    let text = doc
        .get_element_by_id("manifest")
        .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
        .map(|ta| ta.value())
        .unwrap_or_else(|| saved.clone());
    let is_saved = text == saved;
    // The next visit waits for the learner instead of running the same input again.
    storage::set(storage::RUNNING_KEY, "1");
    let div = match doc.create_element("div") {
        Ok(d) => d,
        Err(_) => return,
    };
    div.set_id("recovery");
    let _ = div.set_attribute("role", "alert");
    let _ = div.set_attribute("class", "recovery");
    let heading = doc.create_element("h2").ok();
    let p1 = doc.create_element("p").ok();
    let p2 = doc.create_element("p").ok();
    let link = doc.create_element("a").ok();
    let area = doc.create_element("textarea").ok();
    let label = doc.create_element("label").ok();
    let details = doc.create_element("p").ok();
    if let Some(h) = &heading {
        h.set_text_content(Some("Something went wrong in podlab"));
        let _ = div.append_child(h);
    }
    if let Some(p) = &p1 {
        p.set_text_content(Some(if is_saved {
            "The lab stopped. Your manifest is saved in this browser: reload the page to get it back. \
             The lab will not run it again by itself, so you can change it first."
        } else {
            "The lab stopped. Your manifest, below, is not saved in this browser (it refused to store \
             it): copy it before you reload the page. The lab will not run it again by itself."
        }));
        let _ = div.append_child(p);
    }
    if let (Some(p), Some(a)) = (&p2, &link) {
        a.set_text_content(Some("Reload podlab"));
        let _ = a.set_attribute("href", "./");
        let _ = p.append_child(a);
        let _ = div.append_child(p);
    }
    if let (Some(l), Some(a)) = (&label, &area) {
        l.set_text_content(Some("Your manifest"));
        let _ = l.set_attribute("for", "recovery-text");
        a.set_id("recovery-text");
        let _ = a.set_attribute("readonly", "");
        let _ = a.set_attribute("rows", "10");
        a.set_text_content(Some(&text));
        let _ = div.append_child(l);
        let _ = div.append_child(a);
    }
    if let Some(p) = &details {
        let _ = p.set_attribute("class", "muted");
        p.set_text_content(Some(&format!("Details for a bug report: {message}")));
        let _ = div.append_child(p);
    }
    // Hide the dead app, show the message first.
    if let Ok(children) = doc.query_selector_all("body > :not(script)") {
        for i in 0..children.length() {
            if let Some(el) = children.item(i).and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = el.set_attribute("hidden", "");
            }
        }
    }
    let _ = body.prepend_with_node_1(&div);
}
