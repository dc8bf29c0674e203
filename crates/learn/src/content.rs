//! The course content embedded in the crate: quiz files and exercise files, in course order.

use crate::exercise::{self, Exercise};
use crate::quiz::{self, Question, Quiz};

/// The files of a content directory, in the order given, as (file stem, text): the TOML
/// source (native builds only: the tests read it) and the JSON that `build.rs` converts it to,
/// value for value, which the lab loads (so the browser needs no TOML parser).
macro_rules! content_files {
    ($(#[$doc:meta])* $toml:ident, $json:ident, $dir:literal: $($stem:literal),* $(,)?) => {
        $(#[$doc])*
        #[cfg(not(target_arch = "wasm32"))]
        pub const $toml: &[(&str, &str)] =
            &[$(($stem, include_str!(concat!("../../../content/", $dir, "/", $stem, ".toml")))),*];
        $(#[$doc])*
        ///
        /// As JSON, converted at build time.
        pub const $json: &[(&str, &str)] =
            &[$(($stem, include_str!(concat!(env!("OUT_DIR"), "/", $dir, "/", $stem, ".json")))),*];
    };
}

content_files!(
    /// The quiz files, in the order of the path (file stem, text).
    QUIZ_FILES,
    QUIZ_JSON,
    "quizzes":
    "request-authentication",
    "authorization",
    "admission",
    "validation-etcd",
    "controllers",
    "scheduling",
    "kubelet-runtime",
    "networking-endpoints",
    "status-troubleshooting",
);

content_files!(
    /// The exercise files (file stem, text); the course order is each exercise's `order`.
    EXERCISE_FILES,
    EXERCISE_JSON,
    "exercises":
    "01-strict-fields",
    "02-required-fields",
    "03-least-privilege",
    "04-missing-namespace",
    "05-restricted",
    "06-limitrange",
    "07-deployment",
    "08-pending",
    "09-control-plane",
    "10-guaranteed",
    "11-image",
    "12-crashloop",
    "13-service",
    "14-readiness",
    "15-statefulset-order",
    "16-daemonset-control-plane",
    "17-claim-access-mode",
    "18-cronjob-suspended",
    "19-self-heal",
    "20-rollback",
    "21-stopped-component",
    "22-cascading-delete",
    "23-apiserver-outage",
    "24-drain",
);

/// Every quiz, parsed. A file that does not parse is skipped here (the tests fail on it).
pub fn quizzes() -> Vec<Quiz> {
    QUIZ_JSON.iter().filter_map(|(name, json)| quiz::parse_quiz_json(name, json).ok()).collect()
}

/// Every question of every quiz.
pub fn all_questions() -> Vec<Question> {
    quizzes().into_iter().flat_map(|q| q.questions).collect()
}

/// The quiz of a group (`scheduling`, ...).
pub fn quiz(group: &str) -> Option<Quiz> {
    quizzes().into_iter().find(|q| q.group == group)
}

/// The exercises, in course order.
pub fn exercises() -> Vec<Exercise> {
    let mut all: Vec<Exercise> =
        EXERCISE_JSON.iter().filter_map(|(name, json)| exercise::parse_exercise_json(name, json).ok()).collect();
    podlab_engine::sort::sort_by(&mut all, |a, b| a.order.cmp(&b.order).then_with(|| a.id.cmp(&b.id)));
    all
}
