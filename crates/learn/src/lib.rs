//! podlab-learn: the lab's quizzes, predict-then-reveal questions, exercises and progress.
//!
//! Pure and deterministic like the engine it reads: no clock, no I/O, no `HashMap`, no web
//! types. The content is data (`content/quizzes/*.toml`, `content/exercises/*.toml` at the
//! repository root), converted to JSON by `build.rs` and embedded at compile time (the browser
//! gets no TOML parser; native builds also read the TOML, for the content tests).
//!
//! * [`quiz`]: the question model (reads mdbook-quiz's TOML plus our additive types), loading,
//!   validation and [`quiz::grade`] (by choice ids, never by displayed text).
//! * [`facts`]: facts the engine computes from a run (QoS class, chosen node, mutating plugins,
//!   HTTP status, `get pods` STATUS, ...), which engine-checked questions and exercise goals
//!   are compared against.
//! * [`predict`]: questions generated from the learner's own trace before decisive steps.
//! * [`exercise`]: the course's exercises and their engine-checked goals;
//!   [`session_goals`] checks the goals that read the learner's commands (session exercises).
//! * [`progress`]: the learner's progress as a versioned, exportable JSON document.

pub mod content;
pub mod exercise;
pub mod facts;
pub mod predict;
pub mod progress;
pub mod quiz;
pub mod session_goals;
pub mod text;
