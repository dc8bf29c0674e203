//! Quizzes, the predict-then-reveal pause, exercises and the course overview. Grading and
//! goal checks are `podlab_learn`'s; answers are read from signals holding choice ids, never
//! from the page's text, so a translated page grades the same.

use super::Lab;
use crate::learn::{json_data_url, parse_stored, LearnEvent, PROGRESS_KEY};
use crate::storage;
use leptos::prelude::*;
use podlab_learn::content;
use podlab_learn::exercise::{self, Exercise, GoalResult};
use podlab_learn::progress::Progress;
use podlab_learn::quiz::{grade, Graded, Kind, Question, Response};
use wasm_bindgen::JsCast;

/// The learning state shared by the page: progress, the open view, and the events an
/// embedding page can follow ([`LearnUi::events`]).
#[derive(Clone, Copy)]
pub struct LearnUi {
    pub progress: RwSignal<Progress>,
    /// A notice for the learner (reset progress, storage full, import result).
    pub notice: RwSignal<Option<String>>,
    /// The quiz group shown.
    pub group: RwSignal<String>,
    /// `quiz`, `exercises`.
    pub view: RwSignal<&'static str>,
    /// The exercise loaded into the lab.
    pub exercise: RwSignal<Option<String>>,
    /// The latest learning event (quiz answered, exercise completed): a plain callback point
    /// for an embedding page.
    pub events: RwSignal<Option<LearnEvent>>,
}

impl LearnUi {
    pub fn new() -> LearnUi {
        let (progress, notice) = parse_stored(storage::get(PROGRESS_KEY));
        LearnUi {
            progress: RwSignal::new(progress),
            notice: RwSignal::new(notice),
            group: RwSignal::new("request-authentication".into()),
            view: RwSignal::new("quiz"),
            exercise: RwSignal::new(None),
            events: RwSignal::new(None),
        }
    }

    /// Saves the progress; a refused write (quota, private mode) becomes a notice.
    pub fn save(&self) {
        let json = self.progress.with_untracked(Progress::to_json);
        if let Err(e) = storage::try_set(PROGRESS_KEY, &json) {
            self.notice
                .set(Some(format!("Your progress could not be saved in this browser: {e}. Export it to keep it.")));
        }
    }

    pub fn update(&self, f: impl FnOnce(&mut Progress)) {
        self.progress.update(f);
        self.save();
    }

    pub fn open_quiz(&self, group: &str) {
        self.group.set(group.to_string());
        self.view.set("quiz");
    }

    /// Publishes `e` to the page (`events`) and, in an embed, to the host page.
    fn emit(&self, e: LearnEvent) {
        match &e {
            LearnEvent::QuizAnswered { question, correct, answer } => {
                crate::embed::quiz_answered(question, *correct, answer.clone())
            }
            LearnEvent::ExerciseCompleted { exercise } => crate::embed::exercise_completed(exercise),
            LearnEvent::PredictionAnswered { .. } => {}
        }
        self.events.set(Some(e));
    }
}

impl Default for LearnUi {
    fn default() -> Self {
        LearnUi::new()
    }
}

/// The learner's current answer to one question, by ids.
#[derive(Clone, Debug, Default, PartialEq)]
struct Draft {
    chosen: Vec<usize>,
    text: String,
    order: Vec<usize>,
}

fn response(q: &Question, d: &Draft) -> Response {
    match q.kind {
        Kind::SingleChoice | Kind::WhichFailed => Response::Choice(d.chosen.first().copied().unwrap_or(usize::MAX)),
        Kind::MultipleSelect => Response::Choices(d.chosen.clone()),
        Kind::ShortAnswer => Response::Text(d.text.clone()),
        Kind::Ordering => Response::Order(d.order.clone()),
    }
}

/// One question with its inputs, Check button and result (announced politely).
fn question_view(
    q: Question,
    on_graded: impl Fn(&Question, &Graded, &Response) + Clone + Send + Sync + 'static,
) -> impl IntoView {
    let initial_order: Vec<usize> = q.choices.iter().map(|c| c.id).collect();
    let draft = RwSignal::new(Draft { order: initial_order, ..Draft::default() });
    let result = RwSignal::new(None::<Graded>);
    let qid = q.id.clone();
    let q_for_check = q.clone();
    let inputs = match q.kind {
        Kind::ShortAnswer => view! {
            <label class="short">
                "Your answer "
                <input
                    type="text"
                    class="short-answer"
                    prop:value=move || draft.with(|d| d.text.clone())
                    on:input=move |ev| draft.update(|d| d.text = event_target_value(&ev))
                />
            </label>
        }
        .into_any(),
        Kind::Ordering => {
            let q2 = q.clone();
            view! {
                <ol class="ordering">
                    {move || {
                        let order = draft.with(|d| d.order.clone());
                        let n = order.len();
                        order
                            .into_iter()
                            .enumerate()
                            .map(|(pos, id)| {
                                let text = q2.choice(id).map(|c| c.text.clone()).unwrap_or_default();
                                let swap = move |a: usize, b: usize| draft.update(|d| d.order.swap(a, b));
                                view! {
                                    <li data-id=id.to_string()>
                                        <span class="item">{text.clone()}</span>
                                        <button
                                            type="button"
                                            class="small"
                                            disabled={pos == 0}
                                            aria-label=format!("Move up: {text}")
                                            on:click=move |_| swap(pos, pos - 1)
                                        >
                                            "↑"
                                        </button>
                                        <button
                                            type="button"
                                            class="small"
                                            disabled={pos + 1 >= n}
                                            aria-label=format!("Move down: {text}")
                                            on:click=move |_| swap(pos, pos + 1)
                                        >
                                            "↓"
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ol>
            }
            .into_any()
        }
        kind => {
            let multi = kind == Kind::MultipleSelect;
            let name = format!("q-{}", q.id);
            view! {
                <ul class="choices">
                    {q
                        .choices
                        .iter()
                        .map(|c| {
                            let id = c.id;
                            let name = name.clone();
                            view! {
                                <li>
                                    <label>
                                        <input
                                            type=if multi { "checkbox" } else { "radio" }
                                            name=name
                                            value=id.to_string()
                                            prop:checked=move || draft.with(|d| d.chosen.contains(&id))
                                            on:change=move |_| {
                                                draft
                                                    .update(|d| {
                                                        if multi {
                                                            if let Some(p) = d.chosen.iter().position(|x| *x == id) {
                                                                d.chosen.remove(p);
                                                            } else {
                                                                d.chosen.push(id);
                                                            }
                                                        } else {
                                                            d.chosen = vec![id];
                                                        }
                                                    })
                                            }
                                        />
                                        " "
                                        {c.text.clone()}
                                    </label>
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            }
            .into_any()
        }
    };
    let hint = match q.kind {
        Kind::MultipleSelect => "Select all that apply.",
        Kind::Ordering => "Put the items in order with the arrow buttons.",
        _ => "",
    };
    let q_for_result = q.clone();
    view! {
        <fieldset class="question" data-question=qid.clone()>
            <legend>{q.prompt.clone()}</legend>
            {(!hint.is_empty()).then(|| view! { <p class="muted">{hint}</p> })}
            {inputs}
            <button
                type="button"
                class="check"
                on:click=move |_| {
                    let answer = draft.with_untracked(|d| response(&q_for_check, d));
                    let g = grade(&q_for_check, &answer);
                    on_graded(&q_for_check, &g, &answer);
                    result.set(Some(g));
                }
            >
                "Check answer"
            </button>
            <div class="result" aria-live="polite">
                {move || {
                    result
                        .get()
                        .map(|g| {
                            let q = q_for_result.clone();
                            let verdict = if g.correct { "Correct." } else { "Not quite." };
                            let answer = (!g.correct).then(|| format!("The answer: {}.", q.answer_text()));
                            view! {
                                <p class=if g.correct { "verdict right" } else { "verdict wrong" }>
                                    <strong>{verdict}</strong>
                                    " "
                                    {answer}
                                </p>
                                <p class="explanation">{g.explanation.clone()}</p>
                                <ul class="reasons">
                                    {g
                                        .reasons
                                        .iter()
                                        .filter(|r| r.chosen || r.correct || q.kind == Kind::Ordering)
                                        .filter(|r| !r.why.is_empty())
                                        .map(|r| {
                                            let text = q.choice(r.id).map(|c| c.text.clone()).unwrap_or_default();
                                            view! {
                                                <li class=if r.correct { "why right" } else { "why wrong" }>
                                                    <strong>{text}</strong>
                                                    ": "
                                                    {r.why.clone()}
                                                </li>
                                            }
                                        })
                                        .collect_view()}
                                </ul>
                            }
                        })
                }}
            </div>
        </fieldset>
    }
}

/// The predict-then-reveal toggle, and the question while the lab is paused before a step.
#[component]
pub fn PredictPause() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let ui = expect_context::<LearnUi>();
    let current = Memo::new(move |_| {
        let at = lab.asking.get()?;
        lab.predictions.with(|ps| ps.iter().find(|p| p.before_step == at).cloned())
    });
    view! {
        <section class="panel predict" aria-labelledby="predict-title">
            <h2 id="predict-title" class="panel-title">
                "Predict, then reveal"
            </h2>
            <label class="toggle">
                <input
                    type="checkbox"
                    id="ask-toggle"
                    prop:checked=move || lab.ask.get()
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        lab.ask.set(on);
                        if !on {
                            lab.asking.set(None);
                        }
                    }
                />
                " Ask me before decisive steps"
            </label>
            {move || {
                current
                    .get()
                    .map(|p| {
                        let before = p.before_step;
                        let reveal = p.reveal_step;
                        let answered = RwSignal::new(false);
                        view! {
                            <div class="predict-question" id="predict-question">
                                <p class="muted">"The lab paused before step " {before + 1} ". What will happen?"</p>
                                {question_view(
                                    p.question.clone(),
                                    move |q: &Question, g: &Graded, _: &Response| {
                                        ui.emit(LearnEvent::PredictionAnswered {
                                            question: q.id.clone(),
                                            correct: g.correct,
                                        });
                                        answered.set(true);
                                    },
                                )}
                                <p>
                                    <button
                                        type="button"
                                        id="reveal"
                                        on:click=move |_| {
                                            lab.answered.update(|a| {
                                                a.insert(before);
                                            });
                                            lab.asking.set(None);
                                            lab.go(reveal);
                                        }
                                    >
                                        {move || if answered.get() { "Show the step" } else { "Skip and show the step" }}
                                    </button>
                                </p>
                            </div>
                        }
                    })
            }}
        </section>
    }
}

/// The quizzes, the exercises and the course overview.
#[component]
pub fn LearnPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let ui = expect_context::<LearnUi>();
    let quizzes = StoredValue::new(content::quizzes());
    let exercises = StoredValue::new(content::exercises());
    view! {
        <section class="panel learn" id="learn" aria-labelledby="learn-title">
            <h2 id="learn-title" class="panel-title" tabindex="-1">
                "Learn: quizzes and exercises"
            </h2>
            {move || ui.notice.get().map(|n| view! { <p class="notice" role="status">{n}</p> })}
            <div class="learn-tabs">
                <button
                    type="button"
                    id="learn-quiz-tab"
                    aria-pressed=move || (ui.view.get() == "quiz").to_string()
                    on:click=move |_| ui.view.set("quiz")
                >
                    "Quizzes"
                </button>
                <button
                    type="button"
                    id="learn-exercises-tab"
                    aria-pressed=move || (ui.view.get() == "exercises").to_string()
                    on:click=move |_| ui.view.set("exercises")
                >
                    "Exercises"
                </button>
            </div>
            {move || {
                if ui.view.get() == "quiz" {
                    quiz_view(ui, quizzes).into_any()
                } else {
                    exercises_view(lab, ui, exercises).into_any()
                }
            }}
            <ProgressFile />
        </section>
    }
}

fn quiz_view(ui: LearnUi, quizzes: StoredValue<Vec<podlab_learn::quiz::Quiz>>) -> impl IntoView {
    view! {
        <label class="group-pick">
            "Phase "
            <select
                id="quiz-group"
                on:change=move |ev| ui.group.set(event_target_value(&ev))
                prop:value=move || ui.group.get()
            >
                {quizzes
                    .with_value(|qs| {
                        qs.iter()
                            .map(|q| {
                                let total = q.questions.len();
                                let ids: Vec<String> = q.questions.iter().map(|x| x.id.clone()).collect();
                                let group = q.group.clone();
                                let title = q.title.clone();
                                view! {
                                    <option value=group.clone()>
                                        {move || {
                                            let right = ui
                                                .progress
                                                .with(|p| p.correct_count(ids.iter().map(String::as_str)));
                                            format!("{title} ({right}/{total})")
                                        }}
                                    </option>
                                }
                            })
                            .collect_view()
                    })}
            </select>
        </label>
        {move || {
            let group = ui.group.get();
            quizzes
                .with_value(|qs| qs.iter().find(|q| q.group == group).cloned())
                .map(|quiz| {
                    view! {
                        <div class="quiz" id=format!("quiz-{}", quiz.group)>
                            {quiz
                                .questions
                                .into_iter()
                                .map(|q| {
                                    question_view(
                                        q,
                                        move |q: &Question, g: &Graded, a: &Response| record_quiz(ui, q, g, a),
                                    )
                                })
                                .collect_view()}
                        </div>
                    }
                })
        }}
    }
}

/// Questions answered in place, each graded and recorded like the Learn view's (the phase
/// card's quiz).
pub fn questions_view(ui: LearnUi, questions: Vec<Question>) -> impl IntoView {
    questions
        .into_iter()
        .map(|q| question_view(q, move |q: &Question, g: &Graded, a: &Response| record_quiz(ui, q, g, a)))
        .collect_view()
}

/// Records a quiz answer in the progress and tells the page (and an embedding host).
fn record_quiz(ui: LearnUi, q: &Question, g: &Graded, answer: &Response) {
    ui.update(|p| p.record_answer(&q.id, g.correct));
    ui.emit(LearnEvent::QuizAnswered {
        question: q.id.clone(),
        correct: g.correct,
        answer: serde_json::to_value(answer).unwrap_or_default(),
    });
}

pub fn load_exercise(lab: Lab, ui: LearnUi, ex: &Exercise) {
    ui.exercise.set(Some(ex.id.clone()));
    let cluster = ex.cluster_yaml().unwrap_or_else(|| podlab_engine::cluster::DEFAULT_CLUSTER.to_string());
    let preset =
        ex.cluster.clone().filter(|c| podlab_engine::cluster::preset(c).is_some()).unwrap_or_else(|| "kind".into());
    let user = ex.user.clone().unwrap_or_default();
    lab.update_settings(|s| {
        s.cluster = cluster;
        s.preset = preset;
        s.user = user;
        s.as_user.clear();
        s.as_groups.clear();
        s.file = exercise::FILE_NAME.into();
    });
    // A session exercise starts with its own commands in the terminal (a stopped component,
    // an outage); any other starts with none.
    lab.set_session(ex.setup.clone());
    lab.edit(ex.manifest.clone());
}

fn exercises_view(lab: Lab, ui: LearnUi, exercises: StoredValue<Vec<Exercise>>) -> impl IntoView {
    view! {
        <div class="course">
            <h3>
                "Course: "
                {move || {
                    let done = exercises
                        .with_value(|xs| xs.iter().filter(|x| ui.progress.with(|p| p.exercise_done(&x.id))).count());
                    format!("{done} of {} done", exercises.with_value(Vec::len))
                }}
            </h3>
            <ol class="course-list" id="course-list">
                {exercises
                    .with_value(|xs| {
                        xs.iter()
                            .map(|ex| {
                                let ex2 = ex.clone();
                                let id = ex.id.clone();
                                let id2 = ex.id.clone();
                                view! {
                                    <li data-exercise=id.clone() class:done=move || ui.progress.with(|p| p.exercise_done(&id))>
                                        <button
                                            type="button"
                                            class="linkish"
                                            on:click=move |_| {
                                                load_exercise(lab, ui, &ex2);
                                            }
                                        >
                                            {ex.title.clone()}
                                        </button>
                                        {move || {
                                            if ui.progress.with(|p| p.exercise_done(&id2)) { " ✓ done" } else { "" }
                                        }}
                                    </li>
                                }
                            })
                            .collect_view()
                    })}
            </ol>
        </div>
        {exercise_detail(lab, ui, exercises)}
    }
}

/// The exercise loaded (`LearnUi::exercise`): its goals, Check, hints and solution. Rebuilt
/// (results and the open solution forgotten) when another exercise is loaded.
fn exercise_detail(lab: Lab, ui: LearnUi, exercises: StoredValue<Vec<Exercise>>) -> impl IntoView {
    view! {
        {move || {
            let id = ui.exercise.get()?;
            let ex = exercises.with_value(|xs| xs.iter().find(|x| x.id == id).cloned())?;
            let results = RwSignal::new(None::<Vec<GoalResult>>);
            let solution_open = RwSignal::new(false);
            let ex_check = ex.clone();
            let ex_hint = ex.clone();
            let hints = ex.hints.clone();
            let n_hints = hints.len();
            let id_h = ex.id.clone();
            let id_s = ex.id.clone();
            let id_next = ex.id.clone();
            let on_hint = move |_: leptos::ev::MouseEvent| {
                let used = ui.progress.with_untracked(|p| p.hints_used(&id_next));
                ui.update(|p| p.record_hint(&id_next, used + 1));
            };
            Some(
                view! {
                    <div class="exercise" id="exercise">
                        <h3>{ex.title.clone()}</h3>
                        <p>{ex.brief.clone()}</p>
                        <p class="muted">
                            {if ex.is_session() {
                                "Work in the lab: edit the manifest, type the commands in the terminal under the editor, then check."
                            } else {
                                "Work in the lab: edit the manifest (and the cluster, where a goal needs it), then check."
                            }}
                        </p>
                        <ul class="goals-list">
                            {ex.goals.iter().map(|g| view! { <li>{exercise::describe(g)}</li> }).collect_view()}
                        </ul>
                        <button
                            type="button"
                            id="exercise-check"
                            on:click=move |_| {
                                let manifest = lab.manifest.get_untracked();
                                let (cluster, file) = lab.settings.with_untracked(|s| (s.cluster.clone(), s.file.clone()));
                                // The learner's commands: the terminal's, without the exercise's
                                // own that it starts with (the check runs those itself).
                                let lines = lab.session.get_untracked();
                                let typed = lines.strip_prefix(ex_check.setup.as_slice()).unwrap_or(&lines);
                                let commands: Vec<_> = typed
                                    .iter()
                                    .map(|l| crate::state::session_command(l, &file, &manifest))
                                    .collect();
                                let r = exercise::check_session(&ex_check, &manifest, Some(&cluster), &commands);
                                if r.iter().all(|g| g.met) {
                                    ui.update(|p| p.record_done(&ex_check.id));
                                    ui.emit(LearnEvent::ExerciseCompleted {
                                        exercise: ex_check.id.clone(),
                                    });
                                }
                                results.set(Some(r));
                            }
                        >
                            "Check"
                        </button>
                        <div class="goal-results" aria-live="polite" id="goal-results">
                            {move || {
                                results
                                    .get()
                                    .map(|r| {
                                        let all = r.iter().all(|g| g.met);
                                        view! {
                                            <p class=if all { "verdict right" } else { "verdict wrong" }>
                                                <strong>
                                                    {if all {
                                                        "Every goal is met: exercise done.".to_string()
                                                    } else {
                                                        format!("{} of {} goals met.", r.iter().filter(|g| g.met).count(), r.len())
                                                    }}
                                                </strong>
                                            </p>
                                            <ul class="goals">
                                                {r
                                                    .into_iter()
                                                    .map(|g| {
                                                        view! {
                                                            <li class=if g.met { "goal met" } else { "goal unmet" }>
                                                                {if g.met { "Met: " } else { "Not yet: " }}
                                                                <strong>{g.goal}</strong>
                                                                " — "
                                                                {g.explanation}
                                                            </li>
                                                        }
                                                    })
                                                    .collect_view()}
                                            </ul>
                                        }
                                    })
                            }}
                        </div>
                        <div class="hints">
                            <ol>
                                {move || {
                                    let used = ui.progress.with(|p| p.hints_used(&ex_hint.id));
                                    hints.iter().take(used).map(|h| view! { <li>{h.clone()}</li> }).collect_view()
                                }}
                            </ol>
                            <button
                                type="button"
                                id="hint"
                                disabled={move || ui.progress.with(|p| p.hints_used(&id_h)) >= n_hints}
                                on:click=on_hint
                            >
                                {move || {
                                    let used = ui.progress.with(|p| p.hints_used(&ex.id));
                                    format!("Show a hint ({used} of {n_hints})")
                                }}
                            </button>
                            <button
                                type="button"
                                id="solution"
                                aria-expanded=move || solution_open.get().to_string()
                                on:click=move |_| {
                                    solution_open.update(|o| *o = !*o);
                                    ui.update(|p| p.record_solution_shown(&id_s));
                                }
                            >
                                "Solution"
                            </button>
                        </div>
                        {
                            let sol = ex.solution.clone();
                            move || {
                                solution_open
                                    .get()
                                    .then(|| {
                                        view! {
                                            <div class="solution">
                                                <p>{sol.explanation.clone()}</p>
                                                <pre translate="no">{sol.manifest.clone()}</pre>
                                                {sol
                                                    .cluster
                                                    .clone()
                                                    .map(|c| {
                                                        view! {
                                                            <p>"The cluster:"</p>
                                                            <pre translate="no">{c}</pre>
                                                        }
                                                    })}
                                            </div>
                                        }
                                    })
                            }
                        }
                    </div>
                },
            )
        }}
    }
}

/// What an embed's `quiz=` and `exercise=` ask for: one phase's quiz (by group, such as
/// `scheduling`) or one question (by id), and the exercise loaded into the lab.
#[component]
pub fn EmbedLearn(quiz: Option<String>, exercise: Option<String>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let ui = expect_context::<LearnUi>();
    let exercises = StoredValue::new(content::exercises());
    let quiz_view = quiz.map(|wanted| {
        let quizzes = content::quizzes();
        let found = quizzes
            .iter()
            .find(|q| q.group == wanted)
            .map(|q| (q.title.clone(), q.questions.clone()))
            .or_else(|| {
                quizzes.iter().find_map(|q| {
                    q.questions.iter().find(|x| x.id == wanted).map(|x| (q.title.clone(), vec![x.clone()]))
                })
            });
        match found {
            Some((title, questions)) => view! {
                <section class="panel learn" id="learn" aria-labelledby="learn-title">
                    <h2 id="learn-title" class="panel-title">"Quiz: " {title}</h2>
                    <div class="quiz">
                        {questions
                            .into_iter()
                            .map(|q| question_view(q, move |q: &Question, g: &Graded, a: &Response| record_quiz(ui, q, g, a)))
                            .collect_view()}
                    </div>
                </section>
            }
            .into_any(),
            None => view! {
                <p class="notice" role="alert">
                    "This embed asks for the quiz “" {wanted} "”, which podlab does not have."
                </p>
            }
            .into_any(),
        }
    });
    let exercise_view = exercise.map(|wanted| {
        if exercises.with_value(|xs| xs.iter().any(|x| x.id == wanted)) {
            view! {
                <section class="panel learn" aria-label="Exercise">
                    {exercise_detail(lab, ui, exercises)}
                </section>
            }
            .into_any()
        } else {
            view! {
                <p class="notice" role="alert">
                    "This embed asks for the exercise “" {wanted} "”, which podlab does not have."
                </p>
            }
            .into_any()
        }
    });
    view! { {quiz_view} {exercise_view} }
}

/// Export and import of the progress as a JSON file.
#[component]
fn ProgressFile() -> impl IntoView {
    let ui = expect_context::<LearnUi>();
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        let Ok(reader) = web_sys::FileReader::new() else { return };
        let r2 = reader.clone();
        let onload = wasm_bindgen::closure::Closure::once_into_js(move |_: web_sys::Event| {
            let text = r2.result().ok().and_then(|v| v.as_string()).unwrap_or_default();
            let parsed = podlab_learn::progress::parse(&text);
            match parsed.notice {
                Some(n) => ui.notice.set(Some(format!("Import failed: {n}"))),
                None => {
                    ui.progress.set(parsed.progress);
                    ui.save();
                    ui.notice.set(Some("Progress imported.".into()));
                }
            }
        });
        reader.set_onload(Some(onload.unchecked_ref()));
        let _ = reader.read_as_text(&file);
    };
    view! {
        <div class="progress-file">
            <a
                id="export-progress"
                download="podlab-progress.json"
                href=move || ui.progress.with(|p| json_data_url(&p.to_json()))
            >
                "Export progress"
            </a>
            <label>
                " Import progress "
                <input type="file" id="import-progress" accept="application/json,.json" on:change=import />
            </label>
        </div>
    }
}
