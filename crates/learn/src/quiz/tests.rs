use super::*;

const MDBOOK: &str = r#"
[[questions]]
type = "ShortAnswer"
prompt.prompt = "What is the keyword for declaring a variable in Rust?"
answer.answer = "let"
context = "For example, you can write: `let x = 1`"

[[questions]]
id = "b230bed3-d6ba-4048-8b06-aa655d837b04"
type = "MultipleChoice"
prompt.prompt = "What is 1 + 1?"
prompt.distractors = ["1", "3", "**infinity**"]
answer.answer = ["2"]
context = "Ask a mathematician."

[[questions]]
type = "MultipleChoice"
prompt.prompt = "Pick the even numbers"
prompt.distractors = ["1"]
answer.answer = ["2", "4"]
context = "Even numbers divide by two."

[[questions]]
type = "MultipleChoice"
prompt.prompt = "Which is first?"
prompt.distractors = ["b", "c"]
prompt.answerIndex = 0
answer.answer = "a"
context = "a comes first."
"#;

#[test]
fn an_mdbook_quiz_file_loads() {
    let quiz = parse_quiz("mdbook", MDBOOK).expect("mdbook-quiz format loads");
    assert_eq!(quiz.questions.len(), 4);
    let short = &quiz.questions[0];
    assert_eq!(short.kind, Kind::ShortAnswer);
    assert_eq!(short.id, "mdbook-1");
    assert!(grade(short, &Response::Text(" `LET` ".into())).correct);
    assert!(!grade(short, &Response::Text("var".into())).correct);
    let mc = &quiz.questions[1];
    assert_eq!(mc.kind, Kind::SingleChoice, "a one-element answer array is a single choice");
    assert_eq!(mc.choices.len(), 4);
    let right = mc.choices.iter().find(|c| c.text == "2").unwrap().id;
    assert!(grade(mc, &Response::Choice(right)).correct);
    let wrong = mc.choices.iter().find(|c| c.text == "3").unwrap().id;
    let g = grade(mc, &Response::Choice(wrong));
    assert!(!g.correct);
    assert_eq!(g.explanation, "Ask a mathematician.");
    assert!(g.reasons.iter().any(|r| r.id == wrong && r.chosen && !r.correct));
    assert_eq!(quiz.questions[2].kind, Kind::MultipleSelect);
    assert_eq!(quiz.questions[3].choices[0].text, "a", "answerIndex places the answer");
    // Plain mdbook-quiz distractors have no reasons: they load, but are not course-ready.
    assert!(validate(mc).iter().any(|p| p.contains("no reason")));
}

const OURS: &str = r#"
title = "Test"
group = "test"

[scenarios.web]
manifest = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n  - name: c\n    image: nginx\n"

[[questions]]
id = "t-ms"
type = "MultipleSelect"
prompt.prompt = "Pick"
answer.answer = [{ text = "A", why = "a is right" }, { text = "B", why = "b is right" }]
prompt.distractors = [{ text = "C", why = "c is wrong" }]
context = "A and B."

[[questions]]
id = "t-ord"
type = "Ordering"
prompt.prompt = "Order"
answer.answer = [{ text = "one", why = "first" }, { text = "two", why = "second" }, { text = "three", why = "third" }]
context = "Counting."

[[questions]]
id = "t-wf"
type = "WhichFailed"
prompt.prompt = "Which failed?"
answer.answer = { text = "the scheduler", fact = "kube-scheduler", why = "no node fits" }
prompt.distractors = [{ text = "the kubelet", why = "never ran" }]
context = "Scheduling failed."
scenario = "web"
check = "first-failed-component"
"#;

#[test]
fn our_additive_types_load_and_grade_by_id() {
    let quiz = parse_quiz("x", OURS).unwrap();
    assert_eq!(quiz.title, "Test");
    assert!(validate_all(&quiz.questions).is_empty(), "{:?}", validate_all(&quiz.questions));
    let ms = &quiz.questions[0];
    let id_of = |q: &Question, t: &str| q.choices.iter().find(|c| c.text == t).unwrap().id;
    assert!(grade(ms, &Response::Choices(vec![id_of(ms, "B"), id_of(ms, "A")])).correct);
    assert!(!grade(ms, &Response::Choices(vec![id_of(ms, "A")])).correct);
    assert!(!grade(ms, &Response::Choices(vec![id_of(ms, "A"), id_of(ms, "B"), id_of(ms, "C")])).correct);
    assert!(!grade(ms, &Response::Choice(id_of(ms, "A"))).correct, "wrong shape");

    let ord = &quiz.questions[1];
    assert_ne!(ord.choices.iter().map(|c| c.id).collect::<Vec<_>>(), vec![0, 1, 2], "never shown in order");
    assert!(grade(ord, &Response::Order(vec![0, 1, 2])).correct);
    assert!(!grade(ord, &Response::Order(vec![1, 0, 2])).correct);

    let wf = &quiz.questions[2];
    assert_eq!(wf.kind, Kind::WhichFailed);
    assert_eq!(wf.scenario.as_ref().unwrap().manifest.lines().nth(1), Some("kind: Pod"));
    assert_eq!(wf.check.as_ref().unwrap().fact, "first-failed-component");
    assert_eq!(wf.choices.iter().find(|c| c.correct).unwrap().key(), "kube-scheduler");
    // Grading ignores the displayed text: renaming a choice (as a translator would) changes nothing.
    let mut translated = wf.clone();
    for c in &mut translated.choices {
        c.text = format!("übersetzt {}", c.id);
    }
    let right = wf.choices.iter().find(|c| c.correct).unwrap().id;
    assert!(grade(&translated, &Response::Choice(right)).correct);
}

#[test]
fn validation_catches_broken_questions() {
    let bad = r#"
[[questions]]
id = "dup"
type = "MultipleChoice"
prompt.prompt = "P"
answer.answer = "A"
prompt.distractors = [{ text = "A", why = "same text" }]

[[questions]]
id = "dup"
type = "WhichFailed"
prompt.prompt = "P"
answer.answer = [{ text = "A", why = "x" }, { text = "B", why = "y" }]
prompt.distractors = [{ text = "C", why = "z" }]
context = "c"
check = "no-such-fact"
"#;
    let quiz = parse_quiz("bad", bad).unwrap();
    let problems = validate_all(&quiz.questions).join("\n");
    assert!(problems.contains("dup: id used twice"), "{problems}");
    assert!(problems.contains("no explanation"), "{problems}");
    assert!(problems.contains("appears twice"), "{problems}");
    assert!(problems.contains("exactly one answer"), "{problems}");
    assert!(problems.contains("a check needs a scenario"), "{problems}");
    assert!(problems.contains("unknown fact"), "{problems}");
    assert!(parse_quiz("x", "[[questions]]\ntype = \"Essay\"\nprompt.prompt = \"p\"\nanswer.answer = \"a\"").is_err());
    assert!(parse_quiz(
        "x",
        "[[questions]]\nscenario = \"missing\"\ntype = \"ShortAnswer\"\nprompt.prompt = \"p\"\nanswer.answer = \"a\""
    )
    .is_err());
}
