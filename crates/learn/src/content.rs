//! The course content embedded in the crate: quiz files and exercise files, in course order.

use crate::exercise::{self, Exercise};
use crate::quiz::{self, Question, Quiz};

/// The quiz files, in the order of the path (file stem, text).
pub const QUIZ_FILES: &[(&str, &str)] = &[
    ("request-authentication", include_str!("../../../content/quizzes/request-authentication.toml")),
    ("authorization", include_str!("../../../content/quizzes/authorization.toml")),
    ("admission", include_str!("../../../content/quizzes/admission.toml")),
    ("validation-etcd", include_str!("../../../content/quizzes/validation-etcd.toml")),
    ("controllers", include_str!("../../../content/quizzes/controllers.toml")),
    ("scheduling", include_str!("../../../content/quizzes/scheduling.toml")),
    ("kubelet-runtime", include_str!("../../../content/quizzes/kubelet-runtime.toml")),
    ("networking-endpoints", include_str!("../../../content/quizzes/networking-endpoints.toml")),
    ("status-troubleshooting", include_str!("../../../content/quizzes/status-troubleshooting.toml")),
];

/// The exercise files (file stem, text); the course order is each exercise's `order`.
pub const EXERCISE_FILES: &[(&str, &str)] = &[
    ("01-strict-fields", include_str!("../../../content/exercises/01-strict-fields.toml")),
    ("02-required-fields", include_str!("../../../content/exercises/02-required-fields.toml")),
    ("03-least-privilege", include_str!("../../../content/exercises/03-least-privilege.toml")),
    ("04-missing-namespace", include_str!("../../../content/exercises/04-missing-namespace.toml")),
    ("05-restricted", include_str!("../../../content/exercises/05-restricted.toml")),
    ("06-limitrange", include_str!("../../../content/exercises/06-limitrange.toml")),
    ("07-deployment", include_str!("../../../content/exercises/07-deployment.toml")),
    ("08-pending", include_str!("../../../content/exercises/08-pending.toml")),
    ("09-control-plane", include_str!("../../../content/exercises/09-control-plane.toml")),
    ("10-guaranteed", include_str!("../../../content/exercises/10-guaranteed.toml")),
    ("11-image", include_str!("../../../content/exercises/11-image.toml")),
    ("12-crashloop", include_str!("../../../content/exercises/12-crashloop.toml")),
    ("13-service", include_str!("../../../content/exercises/13-service.toml")),
    ("14-readiness", include_str!("../../../content/exercises/14-readiness.toml")),
];

/// Every quiz, parsed. A file that does not parse is skipped here (the tests fail on it).
pub fn quizzes() -> Vec<Quiz> {
    QUIZ_FILES.iter().filter_map(|(name, text)| quiz::parse_quiz(name, text).ok()).collect()
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
        EXERCISE_FILES.iter().filter_map(|(name, text)| exercise::parse_exercise(name, text).ok()).collect();
    all.sort_by(|a, b| a.order.cmp(&b.order).then_with(|| a.id.cmp(&b.id)));
    all
}
