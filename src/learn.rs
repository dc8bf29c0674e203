//! The learning side of the lab, as plain Rust: progress in localStorage (versioned key
//! `podlab.progress`), the predict-then-reveal gate used while playing or stepping, percent
//! encoding for the export file, and the events an embedding page can follow.

use podlab_engine::trace::Phase;
use podlab_learn::progress::{self, Progress};
use std::collections::BTreeSet;

pub use podlab_learn::progress::STORAGE_KEY as PROGRESS_KEY;

/// The quiz group that covers a phase of the path.
pub fn group_for_phase(phase: Phase) -> &'static str {
    match phase {
        Phase::Request | Phase::Authentication => "request-authentication",
        Phase::Authorization => "authorization",
        Phase::MutatingAdmission | Phase::ValidatingAdmission => "admission",
        Phase::Validation | Phase::Etcd => "validation-etcd",
        Phase::Controllers => "controllers",
        Phase::Scheduling => "scheduling",
        Phase::Kubelet | Phase::Runtime | Phase::Containers => "kubelet-runtime",
        Phase::Cni | Phase::Endpoints => "networking-endpoints",
        Phase::Status => "status-troubleshooting",
    }
}

/// Whether moving to step `next` must pause for a prediction first: the learner asked for
/// it, a prediction is due before that step, and it was not answered yet in this run.
pub fn should_pause(ask: bool, before_steps: &[usize], answered: &BTreeSet<usize>, next: usize) -> bool {
    ask && before_steps.contains(&next) && !answered.contains(&next)
}

/// Something the learner achieved, for an embedding page to follow (see [`LearnEvents`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LearnEvent {
    /// `answer` is the learner's response as JSON (choice ids, text, or an order of ids).
    QuizAnswered {
        question: String,
        correct: bool,
        answer: serde_json::Value,
    },
    PredictionAnswered {
        question: String,
        correct: bool,
    },
    ExerciseCompleted {
        exercise: String,
    },
}

/// Reads the stored progress: the defaults and a notice when it is corrupt or newer.
pub fn parse_stored(text: Option<String>) -> (Progress, Option<String>) {
    match text {
        None => (Progress::default(), None),
        Some(t) => {
            let p = progress::parse(&t);
            (p.progress, p.notice)
        }
    }
}

/// `data:` URL of a JSON text (for the export link).
pub fn json_data_url(text: &str) -> String {
    let mut out = String::from("data:application/json;charset=utf-8,");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_only_when_asked_due_and_unanswered() {
        let due = [3, 7];
        let mut answered = BTreeSet::new();
        assert!(should_pause(true, &due, &answered, 3));
        assert!(!should_pause(false, &due, &answered, 3));
        assert!(!should_pause(true, &due, &answered, 4));
        answered.insert(3);
        assert!(!should_pause(true, &due, &answered, 3));
        assert!(should_pause(true, &due, &answered, 7));
    }

    #[test]
    fn every_phase_has_a_quiz() {
        let groups: Vec<String> = podlab_learn::content::quizzes().into_iter().map(|q| q.group).collect();
        for p in Phase::ALL {
            assert!(groups.iter().any(|g| g == group_for_phase(p)), "{p:?}");
        }
    }

    #[test]
    fn stored_progress_resets_with_a_notice() {
        assert_eq!(parse_stored(None), (Progress::default(), None));
        let (p, notice) = parse_stored(Some("{oops".into()));
        assert_eq!(p, Progress::default());
        assert!(notice.is_some());
    }

    #[test]
    fn data_url_escapes() {
        assert_eq!(json_data_url("{\"a\": 1}"), "data:application/json;charset=utf-8,%7B%22a%22%3A%201%7D");
    }
}
