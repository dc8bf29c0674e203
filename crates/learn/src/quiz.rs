//! Questions: the TOML format, the normalised model, validation and grading.
//!
//! # File format
//!
//! A quiz file reads mdbook-quiz's schema (`[[questions]]` with `type`, `prompt.prompt`,
//! `prompt.distractors`, `answer.answer`, `context`, optional `id`, `prompt.answerIndex`;
//! `ShortAnswer` with `answer.alternatives`), so mdbook-quiz files load unchanged. Our
//! additions are all optional:
//!
//! * `type = "MultipleSelect"` (a `MultipleChoice` whose `answer.answer` is an array of
//!   two or more is one too), `"Ordering"` (`answer.answer` lists the items in the right order) and
//!   `"WhichFailed"` (a single choice among components or steps);
//! * a choice may be a table `{ text, why, fact }` instead of a plain string: `why` says why it
//!   is right or wrong, `fact` is the engine's value it stands for when that differs from the
//!   displayed text;
//! * file-level `title` and `group`, and `[scenarios.NAME]` (`manifest`, `cluster` = a preset
//!   name or a cluster YAML, `user`); a question's `scenario` names one (or is an inline
//!   table) and its `check` names the engine fact its answer must equal ([`crate::facts`]).
//!
//! # Ids
//!
//! Choices get ids in file order: the answers first, then the distractors. They are shown in a
//! deterministic shuffle (or at `answerIndex`), and grading only ever looks at ids, so a
//! translated page grades the same.

use crate::text::{normalize, permutation};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The kinds of question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    SingleChoice,
    MultipleSelect,
    ShortAnswer,
    Ordering,
    /// A single choice among the components or steps of the path: which one failed.
    WhichFailed,
}

/// One choice of a choice question, or one item of an ordering question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// Stable within the question: answers first, then distractors, in file order.
    pub id: usize,
    pub text: String,
    /// Whether this choice belongs to the right answer (every ordering item does).
    pub correct: bool,
    /// Why this choice is right or wrong (for ordering items: why it sits where it does).
    pub why: String,
    /// The engine value it stands for, when it differs from `text`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact: Option<String>,
}

impl Choice {
    /// The value compared with the engine's fact: `fact`, else the text.
    pub fn key(&self) -> &str {
        self.fact.as_deref().unwrap_or(&self.text)
    }
}

/// What a scenario runs: a manifest on a cluster (a preset name or cluster YAML), as a user.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub manifest: String,
    /// A preset name (`kind`, `rbac-alice`, ...) or a whole cluster YAML; `kind` when absent.
    #[serde(default)]
    pub cluster: Option<String>,
    #[serde(default)]
    pub user: Option<String>,
}

impl Scenario {
    /// The lab input of this scenario (seed 1, default time limit).
    pub fn input(&self) -> podlab_engine::lab::LabInput {
        let mut input = podlab_engine::lab::LabInput::new(self.manifest.clone(), "scenario.yaml");
        input.cluster = self.cluster.as_deref().map(resolve_cluster);
        input.user = self.user.clone();
        input
    }
}

/// A preset name becomes its YAML; anything else is taken as YAML.
pub fn resolve_cluster(cluster: &str) -> String {
    podlab_engine::cluster::preset(cluster.trim()).map(str::to_string).unwrap_or_else(|| cluster.to_string())
}

/// The engine fact a question's answer must equal (see [`crate::facts`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    pub fact: String,
    /// A parameter of the fact (a JSON pointer for `pod-field`, a label for `work-fact`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg: Option<String>,
    /// Which object the fact is about, when the run has several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
}

/// A question, normalised from any of the accepted file shapes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    pub id: String,
    pub kind: Kind,
    pub prompt: String,
    /// Choices (or ordering items) in display order.
    pub choices: Vec<Choice>,
    /// Short answers: the accepted answers, the first being the canonical one.
    pub accepted: Vec<String>,
    /// Why the right answer is right (mdbook-quiz's `context`).
    pub explanation: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<Scenario>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Check>,
}

impl Question {
    pub fn choice(&self, id: usize) -> Option<&Choice> {
        self.choices.iter().find(|c| c.id == id)
    }

    /// Ordering questions: the item ids in the right order.
    pub fn correct_order(&self) -> Vec<usize> {
        let mut items: Vec<&Choice> = self.choices.iter().collect();
        podlab_engine::sort::sort_by_key(&mut items, |c| c.id);
        items.into_iter().map(|c| c.id).collect()
    }

    /// The right answer as text (for reveals and summaries).
    pub fn answer_text(&self) -> String {
        match self.kind {
            Kind::ShortAnswer => self.accepted.first().cloned().unwrap_or_default(),
            Kind::Ordering => self
                .correct_order()
                .iter()
                .filter_map(|id| self.choice(*id))
                .map(|c| c.text.clone())
                .collect::<Vec<_>>()
                .join(" → "),
            _ => self.choices.iter().filter(|c| c.correct).map(|c| c.text.clone()).collect::<Vec<_>>().join("; "),
        }
    }
}

/// A quiz file: a title, the phase group it covers, its questions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quiz {
    /// The file's stem (`scheduling`), or the `group` it declares.
    pub group: String,
    pub title: String,
    pub questions: Vec<Question>,
}

// ---------------------------------------------------------------------------------------
// The file shapes.

#[derive(Deserialize)]
struct RawQuiz {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    group: Option<String>,
    #[serde(default)]
    scenarios: BTreeMap<String, Scenario>,
    #[serde(default)]
    questions: Vec<RawQuestion>,
    /// mdbook-quiz's multipart contexts: accepted and ignored.
    #[serde(default)]
    #[allow(dead_code)]
    multipart: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
struct RawQuestion {
    #[serde(default)]
    id: Option<String>,
    #[serde(rename = "type")]
    kind: String,
    prompt: RawPrompt,
    answer: RawAnswer,
    #[serde(default)]
    context: Option<String>,
    #[serde(default)]
    scenario: Option<ScenarioRef>,
    #[serde(default)]
    check: Option<CheckRef>,
    /// mdbook-quiz's multipart key: accepted and ignored.
    #[serde(default)]
    #[allow(dead_code)]
    multipart: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawPrompt {
    prompt: String,
    #[serde(default)]
    distractors: Vec<RawChoice>,
    #[serde(default)]
    answer_index: Option<usize>,
    #[serde(default)]
    #[allow(dead_code)]
    sort_answers: Option<bool>,
    #[serde(default)]
    #[allow(dead_code)]
    response: Option<String>,
}

#[derive(Deserialize)]
struct RawAnswer {
    answer: OneOrMany,
    #[serde(default)]
    alternatives: Vec<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(RawChoice),
    Many(Vec<RawChoice>),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawChoice {
    Text(String),
    Rich {
        text: String,
        #[serde(default)]
        why: String,
        #[serde(default)]
        fact: Option<String>,
    },
}

impl RawChoice {
    fn into_parts(self) -> (String, String, Option<String>) {
        match self {
            RawChoice::Text(t) => (t, String::new(), None),
            RawChoice::Rich { text, why, fact } => (text, why, fact),
        }
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ScenarioRef {
    Named(String),
    Inline(Scenario),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum CheckRef {
    Fact(String),
    Full(Check),
}

/// Why a file could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

/// Parses one quiz file (`name` is its stem, used as the group and for error messages).
#[cfg(not(target_arch = "wasm32"))]
pub fn parse_quiz(name: &str, text: &str) -> Result<Quiz, LoadError> {
    let raw = toml::from_str(text).map_err(|e| LoadError { file: name.to_string(), message: e.to_string() })?;
    from_raw(name, raw)
}

/// Parses one quiz file converted to JSON by the build (see [`crate::content`]).
pub fn parse_quiz_json(name: &str, json: &str) -> Result<Quiz, LoadError> {
    let raw = serde_json::from_str(json).map_err(|e| LoadError { file: name.to_string(), message: e.to_string() })?;
    from_raw(name, raw)
}

/// The normalised quiz of a file's contents.
fn from_raw(name: &str, raw: RawQuiz) -> Result<Quiz, LoadError> {
    let err = |message: String| LoadError { file: name.to_string(), message };
    let mut questions = Vec::new();
    for (i, q) in raw.questions.into_iter().enumerate() {
        let id = q.id.clone().unwrap_or_else(|| format!("{name}-{}", i + 1));
        let scenario = match q.scenario {
            None => None,
            Some(ScenarioRef::Inline(s)) => Some(s),
            Some(ScenarioRef::Named(n)) => Some(
                raw.scenarios.get(&n).cloned().ok_or_else(|| err(format!("question {id}: no scenario named {n:?}")))?,
            ),
        };
        let check = q.check.map(|c| match c {
            CheckRef::Fact(fact) => Check { fact, arg: None, object: None },
            CheckRef::Full(c) => c,
        });
        let answers = match q.answer.answer {
            OneOrMany::One(c) => vec![c],
            OneOrMany::Many(cs) => cs,
        };
        let kind = match q.kind.as_str() {
            "MultipleChoice" if answers.len() > 1 => Kind::MultipleSelect,
            "MultipleChoice" | "SingleChoice" => Kind::SingleChoice,
            "MultipleSelect" => Kind::MultipleSelect,
            "ShortAnswer" => Kind::ShortAnswer,
            "Ordering" => Kind::Ordering,
            "WhichFailed" => Kind::WhichFailed,
            other => return Err(err(format!("question {id}: unknown type {other:?}"))),
        };
        let mut choices = Vec::new();
        let mut accepted = Vec::new();
        if kind == Kind::ShortAnswer {
            for a in answers {
                accepted.push(a.into_parts().0);
            }
            accepted.extend(q.answer.alternatives);
        } else {
            for a in answers {
                let (text, why, fact) = a.into_parts();
                choices.push(Choice { id: choices.len(), text, correct: true, why, fact });
            }
            for d in q.prompt.distractors {
                let (text, why, fact) = d.into_parts();
                choices.push(Choice { id: choices.len(), text, correct: false, why, fact });
            }
            choices = display_order(&id, kind, choices, q.prompt.answer_index);
        }
        questions.push(Question {
            id,
            kind,
            prompt: q.prompt.prompt,
            choices,
            accepted,
            explanation: q.context.unwrap_or_default(),
            scenario,
            check,
        });
    }
    let group = raw.group.unwrap_or_else(|| name.to_string());
    Ok(Quiz { title: raw.title.unwrap_or_else(|| group.clone()), group, questions })
}

/// Choices in the order they are shown: at `answer_index` (single choice), else a shuffle
/// seeded by the question id; an ordering question is never shown already in order.
fn display_order(id: &str, kind: Kind, choices: Vec<Choice>, answer_index: Option<usize>) -> Vec<Choice> {
    let n = choices.len();
    if let (Some(at), Kind::SingleChoice | Kind::WhichFailed) = (answer_index, kind) {
        let mut rest: Vec<Choice> = choices.iter().filter(|c| !c.correct).cloned().collect();
        let answer = choices.iter().find(|c| c.correct).cloned();
        if let Some(a) = answer {
            rest.insert(at.min(rest.len()), a);
        }
        return rest;
    }
    let mut order = permutation(n, id);
    if kind == Kind::Ordering && n > 1 && order.iter().enumerate().all(|(i, o)| i == *o) {
        order.rotate_left(1);
    }
    order.into_iter().map(|i| choices[i].clone()).collect()
}

// ---------------------------------------------------------------------------------------
// Validation.

/// Problems that make a question unfit for the course: missing explanation or reasons, no
/// right answer, duplicate texts, a check without a scenario.
/// (mdbook-quiz files load without reasons; the course's own files must have them.)
pub fn validate(question: &Question) -> Vec<String> {
    let mut problems = Vec::new();
    let id = &question.id;
    if question.prompt.trim().is_empty() {
        problems.push(format!("{id}: empty prompt"));
    }
    if question.explanation.trim().is_empty() {
        problems.push(format!("{id}: no explanation (context) of the right answer"));
    }
    let correct = question.choices.iter().filter(|c| c.correct).count();
    match question.kind {
        Kind::SingleChoice | Kind::WhichFailed => {
            if correct != 1 {
                problems.push(format!("{id}: a single-choice question needs exactly one answer, has {correct}"));
            }
            if question.choices.len() < 2 {
                problems.push(format!("{id}: fewer than two choices"));
            }
        }
        Kind::MultipleSelect => {
            if correct == 0 {
                problems.push(format!("{id}: a multiple-select question needs an answer"));
            }
            if question.choices.len() < 3 {
                problems.push(format!("{id}: fewer than three choices"));
            }
        }
        Kind::Ordering => {
            if question.choices.len() < 3 {
                problems.push(format!("{id}: fewer than three items to order"));
            }
        }
        Kind::ShortAnswer => {
            if question.accepted.iter().all(|a| normalize(a).is_empty()) {
                problems.push(format!("{id}: no accepted answer"));
            }
        }
    }
    let mut texts = BTreeSet::new();
    for c in &question.choices {
        if c.text.trim().is_empty() {
            problems.push(format!("{id}: choice {} has no text", c.id));
        }
        if !texts.insert(normalize(&c.text)) {
            problems.push(format!("{id}: choice text {:?} appears twice", c.text));
        }
        if !c.correct && c.why.trim().is_empty() {
            problems.push(format!("{id}: wrong choice {:?} has no reason (why)", c.text));
        }
        if question.kind == Kind::Ordering && c.why.trim().is_empty() {
            problems.push(format!("{id}: item {:?} has no reason (why)", c.text));
        }
    }
    if question.check.is_some() && question.scenario.is_none() {
        problems.push(format!("{id}: a check needs a scenario"));
    }
    if let Some(check) = &question.check {
        if !crate::facts::FACTS.contains(&check.fact.as_str()) {
            problems.push(format!("{id}: unknown fact {:?}", check.fact));
        }
    }
    problems
}

/// Keys a quiz file may hold at each level: podlab's and mdbook-quiz's. Loading ignores any
/// other key (so mdbook-quiz files with keys of newer versions still load), which would let a
/// misspelt key such as `chek` silently drop an engine check; [`unknown_keys`] reports them.
#[cfg(not(target_arch = "wasm32"))]
const QUIZ_KEYS: &[&str] = &["title", "group", "scenarios", "questions", "multipart"];
#[cfg(not(target_arch = "wasm32"))]
const QUESTION_KEYS: &[&str] = &["id", "type", "prompt", "answer", "context", "scenario", "check", "multipart"];
#[cfg(not(target_arch = "wasm32"))]
const PROMPT_KEYS: &[&str] = &["prompt", "distractors", "answerIndex", "sortAnswers", "response"];
#[cfg(not(target_arch = "wasm32"))]
const ANSWER_KEYS: &[&str] = &["answer", "alternatives"];
#[cfg(not(target_arch = "wasm32"))]
const CHOICE_KEYS: &[&str] = &["text", "why", "fact"];

/// Every key of a quiz file that podlab does not read, as `path: unknown key "k"` lines
/// (`questions[2].prompt.distractors[0]: unknown key "wy"`). Empty for a file that does not
/// parse (its parse error says why).
#[cfg(not(target_arch = "wasm32"))]
pub fn unknown_keys(text: &str) -> Vec<String> {
    let Ok(top) = toml::from_str::<toml::Table>(text) else { return Vec::new() };
    let mut out = Vec::new();
    let mut check = |path: &str, table: &toml::value::Table, allowed: &[&str]| {
        for k in table.keys() {
            if !allowed.contains(&k.as_str()) {
                let at = if path.is_empty() { String::new() } else { format!("{path}: ") };
                out.push(format!("{at}unknown key {k:?}"));
            }
        }
    };
    check("", &top, QUIZ_KEYS);
    let questions = top.get("questions").and_then(toml::Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for (i, q) in questions.iter().enumerate() {
        let Some(q) = q.as_table() else { continue };
        let path = format!("questions[{i}]");
        check(&path, q, QUESTION_KEYS);
        let mut choices: Vec<(String, &toml::Value)> = Vec::new();
        if let Some(prompt) = q.get("prompt").and_then(toml::Value::as_table) {
            check(&format!("{path}.prompt"), prompt, PROMPT_KEYS);
            for (j, d) in prompt.get("distractors").and_then(toml::Value::as_array).into_iter().flatten().enumerate() {
                choices.push((format!("{path}.prompt.distractors[{j}]"), d));
            }
        }
        if let Some(answer) = q.get("answer").and_then(toml::Value::as_table) {
            check(&format!("{path}.answer"), answer, ANSWER_KEYS);
            match answer.get("answer") {
                Some(toml::Value::Array(items)) => {
                    for (j, a) in items.iter().enumerate() {
                        choices.push((format!("{path}.answer.answer[{j}]"), a));
                    }
                }
                Some(one) => choices.push((format!("{path}.answer.answer"), one)),
                None => {}
            }
        }
        for (p, c) in choices {
            if let Some(t) = c.as_table() {
                check(&p, t, CHOICE_KEYS);
            }
        }
    }
    out
}

/// Validates a whole bank: every question, and ids unique across it.
pub fn validate_all<'a>(questions: impl IntoIterator<Item = &'a Question>) -> Vec<String> {
    let mut problems = Vec::new();
    let mut ids = BTreeSet::new();
    for q in questions {
        if !ids.insert(q.id.clone()) {
            problems.push(format!("{}: id used twice", q.id));
        }
        problems.extend(validate(q));
    }
    problems
}

// ---------------------------------------------------------------------------------------
// Grading.

/// A learner's answer: choice ids, text, or an order of item ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "kebab-case")]
pub enum Response {
    Choice(usize),
    Choices(Vec<usize>),
    Text(String),
    Order(Vec<usize>),
}

/// The verdict on one choice, for showing every choice's reason after an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChoiceReason {
    pub id: usize,
    pub correct: bool,
    pub chosen: bool,
    pub why: String,
}

/// The result of grading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Graded {
    pub correct: bool,
    /// The explanation of the right answer.
    pub explanation: String,
    /// One entry per choice (or ordering item), in display order.
    pub reasons: Vec<ChoiceReason>,
}

/// Grades `response` against `question`. A response of the wrong shape is wrong.
pub fn grade(question: &Question, response: &Response) -> Graded {
    let chosen: BTreeSet<usize> = match response {
        Response::Choice(id) => [*id].into_iter().collect(),
        Response::Choices(ids) => ids.iter().copied().collect(),
        _ => BTreeSet::new(),
    };
    let correct = match (question.kind, response) {
        (Kind::SingleChoice | Kind::WhichFailed, Response::Choice(id)) => {
            question.choice(*id).is_some_and(|c| c.correct)
        }
        (Kind::MultipleSelect, Response::Choices(_)) => {
            let right: BTreeSet<usize> = question.choices.iter().filter(|c| c.correct).map(|c| c.id).collect();
            chosen == right
        }
        (Kind::ShortAnswer, Response::Text(t)) => {
            let t = normalize(t);
            !t.is_empty() && question.accepted.iter().any(|a| normalize(a) == t)
        }
        (Kind::Ordering, Response::Order(ids)) => *ids == question.correct_order(),
        _ => false,
    };
    let reasons = question
        .choices
        .iter()
        .map(|c| ChoiceReason { id: c.id, correct: c.correct, chosen: chosen.contains(&c.id), why: c.why.clone() })
        .collect();
    Graded { correct, explanation: question.explanation.clone(), reasons }
}

#[cfg(test)]
mod tests;
