//! The course content: every quiz file parses and validates, and every engine-checked
//! question's answer is what the engine computes.

use podlab_learn::content::{self, QUIZ_FILES, QUIZ_JSON};
use podlab_learn::facts::verify;
use podlab_learn::quiz::{parse_quiz, parse_quiz_json, unknown_keys, validate_all};

const GROUPS: &[&str] = &[
    "request-authentication",
    "authorization",
    "admission",
    "validation-etcd",
    "controllers",
    "scheduling",
    "kubelet-runtime",
    "networking-endpoints",
    "status-troubleshooting",
];

#[test]
fn every_quiz_file_parses_and_validates() {
    let mut all = Vec::new();
    for (name, text) in QUIZ_FILES {
        let quiz = parse_quiz(name, text).unwrap_or_else(|e| panic!("{e}"));
        let unknown = unknown_keys(text);
        assert!(unknown.is_empty(), "{name}: keys podlab does not read:\n{}", unknown.join("\n"));
        assert_eq!(quiz.group, *name, "the group is the file name");
        assert!(quiz.questions.len() >= 6, "{name}: {} questions, at least 6 needed", quiz.questions.len());
        all.extend(quiz.questions);
    }
    let groups: Vec<&str> = QUIZ_FILES.iter().map(|(n, _)| *n).collect();
    assert_eq!(groups, GROUPS, "one file per phase group, in path order");
    assert!(all.len() >= 60, "{} questions, at least 60 needed", all.len());
    let problems = validate_all(&all);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(content::all_questions().len(), all.len());
}

#[test]
fn the_lab_loads_what_the_toml_files_say() {
    // The lab reads the JSON that build.rs converts each TOML file to.
    let names = |files: &[(&str, &str)]| files.iter().map(|(n, _)| n.to_string()).collect::<Vec<_>>();
    assert_eq!(names(QUIZ_JSON), names(QUIZ_FILES));
    for ((name, text), (_, json)) in QUIZ_FILES.iter().zip(QUIZ_JSON) {
        assert_eq!(parse_quiz_json(name, json), parse_quiz(name, text), "{name}: the JSON differs");
    }
    let from_toml: Vec<_> = QUIZ_FILES.iter().map(|(name, text)| parse_quiz(name, text).unwrap()).collect();
    assert_eq!(content::quizzes(), from_toml);
}

#[test]
fn engine_checked_questions_match_the_engine() {
    let all = content::all_questions();
    let mut checked = 0;
    let mut failures = Vec::new();
    for q in &all {
        match verify(q) {
            Ok(Some(_)) => checked += 1,
            Ok(None) => {}
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A large share of the bank is checked against the engine.
    assert!(checked * 4 >= all.len() * 3, "only {checked} of {} questions are engine-checked", all.len());
}

#[test]
fn a_misspelt_key_is_reported_with_its_path() {
    let text = r#"
title = "t"
[[questions]]
id = "q"
type = "MultipleChoice"
chek = "first-failed-phase"
prompt.prompt = "Which?"
prompt.distractors = [{ text = "b", wy = "no" }]
answer.answer = "a"
context = "because"
"#;
    parse_quiz("t", text).expect("loading ignores unknown keys, as mdbook-quiz does");
    assert_eq!(
        unknown_keys(text),
        ["questions[0]: unknown key \"chek\"", "questions[0].prompt.distractors[0]: unknown key \"wy\""]
    );
    assert!(unknown_keys("title = \"ok\"\n").is_empty());
    assert!(unknown_keys("not toml [").is_empty());
}
