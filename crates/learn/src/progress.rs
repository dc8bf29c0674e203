//! The learner's progress: quiz answers, exercises done, hints used. A versioned JSON
//! document, stored by the web app under [`STORAGE_KEY`] and exported/imported as a file.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The localStorage key.
pub const STORAGE_KEY: &str = "podlab.progress";
/// The version this build writes and reads.
pub const VERSION: u32 = 1;

/// One answered question.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    pub correct: bool,
    pub attempts: u32,
}

/// One exercise.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExerciseProgress {
    pub done: bool,
    /// How many hints were revealed.
    pub hints_used: usize,
    pub solution_shown: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub version: u32,
    /// Question id → the latest answer.
    #[serde(default)]
    pub answers: BTreeMap<String, Answer>,
    /// Exercise id → its state.
    #[serde(default)]
    pub exercises: BTreeMap<String, ExerciseProgress>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress { version: VERSION, answers: BTreeMap::new(), exercises: BTreeMap::new() }
    }
}

/// The result of reading stored or imported progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub progress: Progress,
    /// Set when the data could not be used and the defaults were returned.
    pub notice: Option<String>,
}

/// Reads progress; corrupt data or data from a newer version gives the defaults and a notice.
pub fn parse(text: &str) -> Parsed {
    #[derive(Deserialize)]
    struct Versioned {
        version: u32,
    }
    let reset = |why: String| Parsed { progress: Progress::default(), notice: Some(why) };
    let object = serde_json::from_str::<serde_json::Value>(text).ok().filter(serde_json::Value::is_object);
    match object.ok_or(()).and_then(|v| serde_json::from_value::<Versioned>(v).map_err(|_| ())) {
        Err(()) => reset("The saved progress could not be read, so it was reset.".into()),
        Ok(v) if v.version > VERSION => reset(format!(
            "The saved progress was written by a newer podlab (format version {}, this one reads {VERSION}); it was reset.",
            v.version
        )),
        Ok(v) if v.version == 0 => reset("The saved progress has no valid version, so it was reset.".into()),
        Ok(_) => match serde_json::from_str::<Progress>(text) {
            Ok(p) => Parsed { progress: p, notice: None },
            Err(_) => reset("The saved progress could not be read, so it was reset.".into()),
        },
    }
}

impl Progress {
    /// The progress as JSON text (what is stored and exported).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Records an answer (the latest one counts; attempts accumulate).
    pub fn record_answer(&mut self, question: &str, correct: bool) {
        let a = self.answers.entry(question.to_string()).or_default();
        a.correct = correct;
        a.attempts += 1;
    }

    pub fn record_hint(&mut self, exercise: &str, revealed: usize) {
        let e = self.exercises.entry(exercise.to_string()).or_default();
        e.hints_used = e.hints_used.max(revealed);
    }

    pub fn record_solution_shown(&mut self, exercise: &str) {
        self.exercises.entry(exercise.to_string()).or_default().solution_shown = true;
    }

    pub fn record_done(&mut self, exercise: &str) {
        self.exercises.entry(exercise.to_string()).or_default().done = true;
    }

    pub fn exercise_done(&self, exercise: &str) -> bool {
        self.exercises.get(exercise).is_some_and(|e| e.done)
    }

    pub fn hints_used(&self, exercise: &str) -> usize {
        self.exercises.get(exercise).map(|e| e.hints_used).unwrap_or(0)
    }

    /// How many of `questions` were last answered correctly.
    pub fn correct_count<'a>(&self, questions: impl IntoIterator<Item = &'a str>) -> usize {
        questions.into_iter().filter(|q| self.answers.get(*q).is_some_and(|a| a.correct)).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut p = Progress::default();
        p.record_answer("q1", false);
        p.record_answer("q1", true);
        p.record_hint("ex1", 2);
        p.record_hint("ex1", 1);
        p.record_done("ex1");
        let back = parse(&p.to_json());
        assert_eq!(back.notice, None);
        assert_eq!(back.progress, p);
        assert_eq!(back.progress.answers["q1"], Answer { correct: true, attempts: 2 });
        assert_eq!(back.progress.hints_used("ex1"), 2);
        assert!(back.progress.exercise_done("ex1"));
        assert_eq!(back.progress.correct_count(["q1", "q2"]), 1);
    }

    #[test]
    fn corrupt_or_future_data_resets_with_a_notice() {
        for bad in ["", "{", "null", "[1]", r#"{"version":"one"}"#, r#"{"version":1,"answers":3}"#, r#"{"version":0}"#]
        {
            let p = parse(bad);
            assert_eq!(p.progress, Progress::default(), "{bad}");
            assert!(p.notice.is_some(), "{bad}");
        }
        let future = parse(r#"{"version":2,"answers":{}}"#);
        assert!(future.notice.unwrap().contains("newer podlab"));
        assert_eq!(parse(r#"{"version":1}"#).notice, None, "missing maps default");
    }
}
