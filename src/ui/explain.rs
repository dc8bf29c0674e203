//! The phases explained: the current step's phase in a card of its own under the step detail,
//! with its quiz one click away ("Check yourself on …", answered in place), and every phase on
//! demand (linked from the timeline and from "Where it broke"), the current one marked.

use super::layout::{focus_element, Layout, View};
use super::Lab;
use crate::explain::phase_text;
use crate::learn::group_for_phase;
use leptos::prelude::*;
use podlab_engine::trace::Phase;

/// The id of the collapsible list of every phase on the page.
const ALL_ID: &str = "explain-all";

/// Opens the list of every phase (before a link to one of them is followed).
pub fn open_all() {
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(ALL_ID)) {
        let _ = el.set_attribute("open", "");
    }
}

/// The button that opens (or closes) the phase card's quiz for `phase`; `id` tells the copies
/// apart (one in the step detail's head, one in the card).
pub fn quiz_button(phase: Phase, id: &'static str) -> AnyView {
    let layout = expect_context::<Layout>();
    let ui = expect_context::<super::learn::LearnUi>();
    let group = group_for_phase(phase);
    let ids = podlab_learn::content::quizzes()
        .into_iter()
        .find(|q| q.group == group)
        .map(|q| q.questions.into_iter().map(|x| x.id).collect::<Vec<_>>())
        .unwrap_or_default();
    let total = ids.len();
    view! {
        <p class="quiz-at-phase">
            <button
                type="button"
                id=id
                class="quiz-open"
                aria-controls="phase-quiz"
                aria-expanded=move || layout.phase_quiz.get().to_string()
                on:click=move |_| {
                    let open = !layout.phase_quiz.get_untracked();
                    layout.phase_quiz.set(open);
                    if open {
                        // Once the questions are on the page: show them and take the focus there.
                        gloo_timers::callback::Timeout::new(0, || focus_element("phase-quiz-title")).forget();
                    }
                }
            >
                "Check yourself on " {phase.title()}
            </button>
            " "
            <span class="muted quiz-score">
                {move || {
                    let right = ui.progress.with(|p| p.correct_count(ids.iter().map(String::as_str)));
                    format!("{right} of {total} answered right")
                }}
            </span>
        </p>
    }
    .into_any()
}

/// The current step's phase: who acts, what happens, what goes wrong, how to fix it, and its
/// quiz, answered in place.
#[component]
pub fn PhaseCard() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let layout = expect_context::<Layout>();
    let ui = expect_context::<super::learn::LearnUi>();
    let current = Memo::new(move |_| lab.run().and_then(|r| r.step(lab.step.get()).map(|s| s.phase)));
    // The quiz is rebuilt (answers being typed forgotten) only when the phase's group changes.
    let group = Memo::new(move |_| current.get().map(group_for_phase));
    view! {
        <section class="panel phase-card" id="phase-card" aria-labelledby="phase-card-title">
            {move || {
                let Some(p) = current.get() else {
                    return view! {
                        <h2 id="phase-card-title" class="panel-title">
                            "This phase"
                        </h2>
                        <p class="muted">"The phase of the step shown is explained here."</p>
                    }
                        .into_any();
                };
                let t = phase_text(p);
                view! {
                    <h2 id="phase-card-title" class="panel-title" data-phase=p.id()>
                        "This phase: " {p.title()} <span class="who">" · " {t.who}</span>
                    </h2>
                    <p>{t.what}</p>
                    <p>
                        <strong>"What can go wrong: "</strong>
                        {t.wrong}
                    </p>
                    <p>
                        <strong>"If it breaks here: "</strong>
                        {t.fix}
                    </p>
                    {quiz_button(p, "phase-quiz-toggle")}
                }
                    .into_any()
            }}
            <div id="phase-quiz" class="phase-quiz" hidden=move || !layout.phase_quiz.get()>
                {move || {
                    if !layout.phase_quiz.get() {
                        return None;
                    }
                    let g = group.get()?;
                    let quiz = podlab_learn::content::quizzes().into_iter().find(|q| q.group == g)?;
                    Some(
                        view! {
                            <h3 id="phase-quiz-title" class="sub" tabindex="-1">
                                "Check yourself: " {quiz.title.clone()}
                            </h3>
                            {super::learn::questions_view(ui, quiz.questions)}
                            <p class="muted">
                                "Every quiz and the exercises are in "
                                <button
                                    type="button"
                                    class="linkish"
                                    on:click=move |_| {
                                        ui.open_quiz(g);
                                        layout.show_and_focus(View::Learn, "learn-title");
                                    }
                                >
                                    "Learn"
                                </button>
                                "."
                            </p>
                        },
                    )
                }}
            </div>
        </section>
    }
}

/// Every phase explained. `collapsible` (the page): behind a disclosure, opened on demand or by
/// a link to one of them; otherwise (an embed's `explain` panel) always shown.
#[component]
pub fn Explanations(#[prop(optional)] collapsible: bool) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let learn_ui = expect_context::<super::learn::LearnUi>();
    let layout = expect_context::<Layout>();
    let current = Memo::new(move |_| lab.run().and_then(|r| r.step(lab.step.get()).map(|s| s.phase)));
    let list = view! {
        <ol class="explain-list">
            {Phase::ALL
                .into_iter()
                .map(|p| {
                    let t = phase_text(p);
                    view! {
                        <li
                            id=format!("explain-{}", p.id())
                            class="explain-item"
                            class:current=move || current.get() == Some(p)
                            tabindex="-1"
                        >
                            <h3>
                                {p.title()} <span class="who">" · " {t.who}</span>
                            </h3>
                            <p>{t.what}</p>
                            <p>
                                <strong>"What can go wrong: "</strong>
                                {t.wrong}
                            </p>
                            <p>
                                <strong>"If it breaks here: "</strong>
                                {t.fix}
                            </p>
                            <p>
                                <button
                                    type="button"
                                    class="linkish"
                                    disabled=move || lab.run().and_then(|r| r.first_of(p)).is_none()
                                    on:click=move |_| {
                                        if let Some(i) = lab.run().and_then(|r| r.first_of(p)) {
                                            lab.stop();
                                            lab.go(i);
                                            focus_element("timeline-title");
                                        }
                                    }
                                >
                                    "Show the first " {p.title()} " step"
                                </button>
                                " · "
                                <a
                                    href="#learn"
                                    on:click=move |ev| {
                                        learn_ui.open_quiz(group_for_phase(p));
                                        if collapsible {
                                            // The page's Learn view: shown, then focused.
                                            ev.prevent_default();
                                            layout.show_and_focus(View::Learn, "learn-title");
                                        }
                                    }
                                >
                                    "Quiz on " {p.title()}
                                </a>
                            </p>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    };
    if collapsible {
        view! {
            <section class="panel explain" aria-labelledby="explain-title">
                <details id=ALL_ID>
                    <summary>
                        <h2 id="explain-title" class="panel-title">
                            "All fifteen phases, explained"
                        </h2>
                    </summary>
                    {list}
                </details>
            </section>
        }
        .into_any()
    } else {
        view! {
            <section class="panel explain" aria-labelledby="explain-title">
                <h2 id="explain-title" class="panel-title">
                    "The phases, explained"
                </h2>
                {list}
            </section>
        }
        .into_any()
    }
}
