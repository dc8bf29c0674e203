//! Embed mode: `?embed` shows a compact lab for documentation sites (inside an iframe).
//!
//! This module is plain Rust: it parses the page's query string into [`EmbedOptions`], words
//! the events the embed posts to its host page ([`Event`] → JSON) and reads the commands a
//! host may send ([`Command`]). The browser side (posting, listening, the ResizeObserver) is in
//! `ui::embed`; the quiz and exercise UI reports answers through [`quiz_answered`] and
//! [`exercise_completed`], and reads the requested quiz or exercise with [`options`].
//!
//! Query parameters (all optional but `embed`):
//!
//! | parameter | meaning |
//! |---|---|
//! | `embed` | turns embed mode on |
//! | `manifest=` | the manifest text (URL-encoded) |
//! | `starter=` | a starter's id (`pod`, `forbidden`, ...), used when `manifest` is absent |
//! | `cluster=` | an engine cluster preset name (`kind`, `rbac-alice`, ...) |
//! | `panels=` | comma-separated: `editor,cluster,outcome,timeline,diagram,detail,kubectl,explain` |
//! | `phase=` | start at the first step of this phase (`scheduling`, `etcd`, ...) |
//! | `step=` | start at this step index (0-based) |
//! | `autoplay` | play the run once it is ready |
//! | `readonly` | the manifest cannot be edited |
//! | `theme=light\|dark` | the colour scheme (default: the system's) |
//! | `quiz=`, `exercise=` | a quiz group or question id, an exercise id (rendered by `ui::learn::EmbedLearn`) |
//! | `origin=` | host origins whose messages are accepted (repeat or separate with commas) |

use podlab_engine::trace::Phase;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// The `source` of every message the embed posts.
pub const SOURCE: &str = "podlab";

/// A panel an embed can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Panel {
    Editor,
    Cluster,
    Outcome,
    Timeline,
    Diagram,
    Detail,
    Kubectl,
    Explain,
    /// The session's terminal (kubectl commands after the apply).
    Terminal,
}

impl Panel {
    pub const ALL: [Panel; 9] = [
        Panel::Editor,
        Panel::Cluster,
        Panel::Outcome,
        Panel::Timeline,
        Panel::Diagram,
        Panel::Detail,
        Panel::Kubectl,
        Panel::Explain,
        Panel::Terminal,
    ];
    /// The panels shown when `panels=` is absent.
    pub const DEFAULT: [Panel; 4] = [Panel::Editor, Panel::Outcome, Panel::Timeline, Panel::Detail];

    pub fn id(self) -> &'static str {
        match self {
            Panel::Editor => "editor",
            Panel::Cluster => "cluster",
            Panel::Outcome => "outcome",
            Panel::Timeline => "timeline",
            Panel::Diagram => "diagram",
            Panel::Detail => "detail",
            Panel::Kubectl => "kubectl",
            Panel::Explain => "explain",
            Panel::Terminal => "terminal",
        }
    }

    pub fn from_id(id: &str) -> Option<Panel> {
        Panel::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// The colour scheme an embed asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedTheme {
    Light,
    Dark,
}

/// What the embed's URL asks for.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EmbedOptions {
    pub manifest: Option<String>,
    pub starter: Option<String>,
    pub cluster: Option<String>,
    pub panels: BTreeSet<Panel>,
    pub phase: Option<Phase>,
    pub step: Option<usize>,
    pub autoplay: bool,
    pub readonly: bool,
    pub theme: Option<EmbedTheme>,
    pub quiz: Option<String>,
    pub exercise: Option<String>,
    /// The session's commands after the apply (`session=`, one command a value or a line).
    pub session: Vec<String>,
    /// Origins (`scheme://host[:port]`) whose messages the embed accepts.
    pub origins: Vec<String>,
    /// Values that were not understood, in words (the embed shows them to the author).
    pub problems: Vec<String>,
}

impl EmbedOptions {
    pub fn shows(&self, panel: Panel) -> bool {
        self.panels.contains(&panel)
    }

    /// Whether a message from `origin` may drive the embed.
    pub fn accepts(&self, origin: &str) -> bool {
        self.origins.iter().any(|o| o == origin)
    }

    /// The origins to post events to: the allowlist, or `*` when there is none (events
    /// carry only what the host page put into the embed's URL, and the step shown).
    pub fn post_targets(&self) -> Vec<String> {
        if self.origins.is_empty() {
            vec!["*".to_string()]
        } else {
            self.origins.clone()
        }
    }
}

/// Parses a query string (`?embed&starter=pod`, with or without `?`). `None`: not an embed.
pub fn parse_query(search: &str) -> Option<EmbedOptions> {
    let pairs = query_pairs(search);
    if !pairs.iter().any(|(k, _)| k == "embed") {
        return None;
    }
    let mut o = EmbedOptions::default();
    let mut panels: Option<BTreeSet<Panel>> = None;
    for (key, value) in pairs {
        let flag = || matches!(value.as_str(), "" | "1" | "true" | "yes");
        match key.as_str() {
            "embed" => {}
            "manifest" => o.manifest = Some(value),
            "starter" => {
                if crate::starters::by_id(&value).is_some() {
                    o.starter = Some(value);
                } else {
                    o.problems.push(format!("unknown starter \"{value}\""));
                }
            }
            "cluster" => {
                if podlab_engine::cluster::preset(&value).is_some() {
                    o.cluster = Some(value);
                } else {
                    o.problems.push(format!("unknown cluster preset \"{value}\""));
                }
            }
            "panels" => {
                let set = panels.get_or_insert_with(BTreeSet::new);
                for id in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    match Panel::from_id(id) {
                        Some(p) => {
                            set.insert(p);
                        }
                        None => o.problems.push(format!("unknown panel \"{id}\"")),
                    }
                }
            }
            "phase" => match Phase::ALL.into_iter().find(|p| p.id() == value) {
                Some(p) => o.phase = Some(p),
                None => o.problems.push(format!("unknown phase \"{value}\"")),
            },
            "step" => match value.parse() {
                Ok(n) => o.step = Some(n),
                Err(_) => o.problems.push(format!("step \"{value}\" is not a number")),
            },
            "autoplay" => o.autoplay = flag(),
            "readonly" => o.readonly = flag(),
            "theme" => match value.as_str() {
                "light" => o.theme = Some(EmbedTheme::Light),
                "dark" => o.theme = Some(EmbedTheme::Dark),
                "" | "system" => o.theme = None,
                other => o.problems.push(format!("unknown theme \"{other}\"")),
            },
            "quiz" if !value.is_empty() => o.quiz = Some(value),
            "exercise" if !value.is_empty() => o.exercise = Some(value),
            "session" => o.session.extend(value.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string)),
            "origin" => {
                for origin in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    match normalize_origin(origin) {
                        Some(n) => o.origins.push(n),
                        None => o.problems.push(format!("\"{origin}\" is not an origin (scheme://host[:port])")),
                    }
                }
            }
            _ => {}
        }
    }
    o.panels = panels.filter(|p| !p.is_empty()).unwrap_or_else(|| Panel::DEFAULT.into_iter().collect());
    Some(o)
}

/// `https://docs.example.org` from `https://docs.example.org/` (an origin has no path);
/// `None` for anything that is not `http(s)://host[:port]`.
fn normalize_origin(text: &str) -> Option<String> {
    let trimmed = text.strip_suffix('/').unwrap_or(text);
    let rest = trimmed.strip_prefix("https://").or_else(|| trimmed.strip_prefix("http://"))?;
    let ok = !rest.is_empty()
        && rest.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'));
    ok.then(|| trimmed.to_ascii_lowercase())
}

/// The `key=value` pairs of a query string, percent- and `+`-decoded.
pub fn query_pairs(search: &str) -> Vec<(String, String)> {
    let q = search.strip_prefix('?').unwrap_or(search);
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

/// Decodes `%XX` escapes and `+` (form encoding); a malformed escape is kept as it is, and
/// bytes that are not UTF-8 become U+FFFD.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// What the embed tells its host.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The first run is shown.
    Ready {
        steps: usize,
    },
    /// The document's height changed (CSS pixels).
    Resize {
        height: u32,
    },
    /// A step is shown.
    Step {
        index: usize,
        total: usize,
        phase: Phase,
        summary: String,
    },
    QuizAnswered {
        quiz: String,
        correct: bool,
        answer: Value,
    },
    ExerciseCompleted {
        exercise: String,
    },
}

impl Event {
    /// `{source:"podlab", type:..., ...}`.
    pub fn to_json(&self) -> Value {
        let mut v = match self {
            Event::Ready { steps } => json!({ "type": "ready", "steps": steps }),
            Event::Resize { height } => json!({ "type": "resize", "height": height }),
            Event::Step { index, total, phase, summary } => json!({
                "type": "step", "step": index, "total": total, "phase": phase.id(), "summary": summary,
            }),
            Event::QuizAnswered { quiz, correct, answer } => {
                json!({ "type": "quiz-answered", "quiz": quiz, "correct": correct, "answer": answer })
            }
            Event::ExerciseCompleted { exercise } => json!({ "type": "exercise-completed", "exercise": exercise }),
        };
        v["source"] = json!(SOURCE);
        v
    }
}

/// What a host may ask of the embed (`postMessage` from an allowlisted origin).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Show step `index` (0-based).
    Goto(usize),
    /// Replace the manifest and run it.
    Load(String),
    /// Run a command as the session's next (`{type:"command", command:"kubectl get pods"}`).
    Command(String),
    Play,
    Pause,
}

/// Reads a host's message (`{type:"goto", step: 3}`, `{type:"load", manifest: "..."}`,
/// `{type:"play"}`, `{type:"pause"}`); `None` for anything else.
pub fn parse_command(data: &Value) -> Option<Command> {
    match data.get("type")?.as_str()? {
        "goto" => Some(Command::Goto(usize::try_from(data.get("step")?.as_u64()?).ok()?)),
        "load" => Some(Command::Load(data.get("manifest")?.as_str()?.to_string())),
        "command" => Some(Command::Command(data.get("command")?.as_str()?.to_string())),
        "play" => Some(Command::Play),
        "pause" => Some(Command::Pause),
        _ => None,
    }
}

/// Where events go: a function the app installs.
pub type Sink = Box<dyn Fn(&Event)>;

thread_local! {
    static OPTIONS: RefCell<Option<EmbedOptions>> = const { RefCell::new(None) };
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// Set once at start-up by the app (`None` outside embed mode).
pub fn set_options(options: Option<EmbedOptions>) {
    OPTIONS.with(|o| *o.borrow_mut() = options);
}

/// The embed's options, or `None` when the page is not an embed. The quiz/exercise UI reads
/// `quiz` and `exercise` here.
pub fn options() -> Option<EmbedOptions> {
    OPTIONS.with(|o| o.borrow().clone())
}

/// Where events go (the app installs a sink that posts to the host page).
pub fn set_sink(sink: Option<Sink>) {
    SINK.with(|s| *s.borrow_mut() = sink);
}

/// Sends an event to the host; nothing happens outside embed mode.
pub fn emit(event: &Event) {
    SINK.with(|s| {
        if let Some(sink) = s.borrow().as_ref() {
            sink(event);
        }
    });
}

/// For the quiz UI: the learner answered quiz `quiz`; `answer` is what they chose.
pub fn quiz_answered(quiz: &str, correct: bool, answer: Value) {
    emit(&Event::QuizAnswered { quiz: quiz.to_string(), correct, answer });
}

/// For the exercise UI: the learner completed exercise `exercise`.
pub fn exercise_completed(exercise: &str) {
    emit(&Event::ExerciseCompleted { exercise: exercise.to_string() });
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn not_an_embed_without_the_flag() {
        assert_eq!(parse_query(""), None);
        assert_eq!(parse_query("?starter=pod"), None);
        assert!(parse_query("?embed").is_some());
        assert!(parse_query("embed=1&x").is_some());
    }

    #[test]
    fn every_option() {
        let o = parse_query(
            "?embed&starter=forbidden&cluster=rbac-alice&panels=timeline,diagram,kubectl&phase=scheduling\
             &step=4&autoplay&readonly=1&theme=dark&quiz=rbac-q1&exercise=ex-2\
             &origin=https%3A%2F%2Fdocs.example.org%2F,http://localhost:3000",
        )
        .unwrap();
        assert_eq!(o.starter.as_deref(), Some("forbidden"));
        assert_eq!(o.cluster.as_deref(), Some("rbac-alice"));
        assert_eq!(o.panels.iter().copied().collect::<Vec<_>>(), [Panel::Timeline, Panel::Diagram, Panel::Kubectl]);
        assert_eq!(o.phase, Some(Phase::Scheduling));
        assert_eq!(o.step, Some(4));
        assert!(o.autoplay && o.readonly);
        assert_eq!(o.theme, Some(EmbedTheme::Dark));
        assert_eq!(o.quiz.as_deref(), Some("rbac-q1"));
        assert_eq!(o.exercise.as_deref(), Some("ex-2"));
        assert_eq!(o.origins, ["https://docs.example.org", "http://localhost:3000"]);
        assert!(o.problems.is_empty(), "{:?}", o.problems);
        assert!(o.accepts("https://docs.example.org"));
        assert!(!o.accepts("https://docs.example.org.evil.test"));
        assert!(!o.accepts("null"));
        assert_eq!(o.post_targets(), o.origins);
    }

    #[test]
    fn defaults_and_problems() {
        let o = parse_query("?embed&manifest=kind%3A+Pod%0Aa%3A+%E2%9C%93&panels=&phase=nope&theme=blue&starter=zzz&origin=javascript:alert(1)&step=x").unwrap();
        assert_eq!(o.manifest.as_deref(), Some("kind: Pod\na: ✓"));
        assert_eq!(o.panels, Panel::DEFAULT.into_iter().collect());
        assert!(!o.autoplay && !o.readonly);
        assert_eq!(o.theme, None);
        assert!(o.origins.is_empty());
        assert_eq!(o.post_targets(), ["*"]);
        assert_eq!(
            o.problems,
            [
                "unknown phase \"nope\"",
                "unknown theme \"blue\"",
                "unknown starter \"zzz\"",
                "\"javascript:alert(1)\" is not an origin (scheme://host[:port])",
                "step \"x\" is not a number",
            ]
        );
        assert!(parse_query("?embed&autoplay=0").is_some_and(|o| !o.autoplay));
    }

    #[test]
    fn percent_decoding_is_lenient() {
        assert_eq!(percent_decode("a%20b+c"), "a b c");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("%ff"), "\u{fffd}");
        assert_eq!(percent_decode("%41%42"), "AB");
    }

    #[test]
    fn events_as_json() {
        let step = Event::Step { index: 3, total: 54, phase: Phase::Authorization, summary: "ok".into() };
        assert_eq!(
            step.to_json(),
            json!({"source":"podlab","type":"step","step":3,"total":54,"phase":"authorization","summary":"ok"})
        );
        assert_eq!(Event::Resize { height: 640 }.to_json(), json!({"source":"podlab","type":"resize","height":640}));
        assert_eq!(Event::Ready { steps: 9 }.to_json()["type"], "ready");
        assert_eq!(
            Event::QuizAnswered { quiz: "q".into(), correct: true, answer: json!([1]) }.to_json(),
            json!({"source":"podlab","type":"quiz-answered","quiz":"q","correct":true,"answer":[1]})
        );
        assert_eq!(
            Event::ExerciseCompleted { exercise: "e".into() }.to_json(),
            json!({"source":"podlab","type":"exercise-completed","exercise":"e"})
        );
    }

    #[test]
    fn a_session_and_the_terminal() {
        let o = parse_query(
            "?embed&panels=editor,terminal&session=kubectl%20get%20pods%0A%0Asleep%2010s&session=kubectl+get+deploy",
        )
        .unwrap();
        assert_eq!(o.session, ["kubectl get pods", "sleep 10s", "kubectl get deploy"]);
        assert!(o.shows(Panel::Terminal) && !o.shows(Panel::Timeline));
        assert!(o.problems.is_empty(), "{:?}", o.problems);
    }

    #[test]
    fn commands() {
        assert_eq!(parse_command(&json!({"type":"goto","step":7})), Some(Command::Goto(7)));
        assert_eq!(parse_command(&json!({"type":"load","manifest":"a: b"})), Some(Command::Load("a: b".into())));
        assert_eq!(parse_command(&json!({"type":"play"})), Some(Command::Play));
        assert_eq!(parse_command(&json!({"type":"pause"})), Some(Command::Pause));
        assert_eq!(
            parse_command(&json!({"type":"command","command":"kubectl get pods"})),
            Some(Command::Command("kubectl get pods".into()))
        );
        assert_eq!(parse_command(&json!({"type":"command"})), None);
        assert_eq!(parse_command(&json!({"type":"goto","step":-1})), None);
        assert_eq!(parse_command(&json!({"type":"goto","step":"3"})), None);
        assert_eq!(parse_command(&json!({"type":"rm -rf"})), None);
        assert_eq!(parse_command(&json!("goto")), None);
    }

    #[test]
    fn emit_goes_to_the_sink() {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let s = seen.clone();
        emit(&Event::Ready { steps: 1 }); // no sink: nothing happens
        set_sink(Some(Box::new(move |e: &Event| s.borrow_mut().push(e.to_json()["type"].clone()))));
        quiz_answered("q1", false, json!("b"));
        exercise_completed("e1");
        set_sink(None);
        assert_eq!(*seen.borrow(), [json!("quiz-answered"), json!("exercise-completed")]);
    }
}
