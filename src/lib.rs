//! The podlab web app (Leptos, client-side rendered). It hands the learner's manifest,
//! cluster and identity to the engine (`podlab_engine::lab::run`) and renders the run that
//! comes back: the editor with the engine's errors on their lines, the timeline of steps, each
//! step's detail, kubectl's terminal panes, the sequence diagram and the cluster's nodes. It
//! computes no Kubernetes behaviour itself.
//!
//! Plain-Rust modules hold the logic (tested natively and in the browser); `ui` holds the
//! components.

pub mod diagram;
pub mod embed;
pub mod explain;
pub mod highlight;
pub mod learn;
pub mod markers;
pub mod nodes;
pub mod share;
pub mod starters;
pub mod state;
pub mod storage;
pub mod ui;

pub use storage::MANIFEST_KEY as STORAGE_KEY;
pub use ui::App;

/// Shows a recovery message when the app panics: the learner's text is already saved (on
/// every edit), so a reload brings it back; the message also shows the text to copy.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        ui::show_recovery(&info.to_string());
    }));
}

/// Reports a quiz answer to the host page of an embed, as the quiz UI does through
/// [`embed::quiz_answered`]. Exported to JavaScript (Trunk's loader puts the exports on
/// `window.wasmBindings`) for the end-to-end tests and for scripts in the lab's own document.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = podlabQuizAnswered)]
pub fn js_quiz_answered(quiz: &str, correct: bool) {
    embed::quiz_answered(quiz, correct, serde_json::Value::Null);
}

/// Reports a completed exercise to the host page of an embed (see [`js_quiz_answered`]).
#[wasm_bindgen::prelude::wasm_bindgen(js_name = podlabExerciseCompleted)]
pub fn js_exercise_completed(exercise: &str) {
    embed::exercise_completed(exercise);
}
