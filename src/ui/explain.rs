//! The explanation of every phase (linked from the timeline and from "Where it broke"); the
//! current step's phase is marked.

use super::Lab;
use crate::explain::phase_text;
use leptos::prelude::*;
use podlab_engine::trace::Phase;

#[component]
pub fn Explanations() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let learn_ui = expect_context::<super::learn::LearnUi>();
    let current = Memo::new(move |_| lab.run().and_then(|r| r.step(lab.step.get()).map(|s| s.phase)));
    view! {
        <section class="panel explain" aria-labelledby="explain-title">
            <h2 id="explain-title" class="panel-title">
                "The phases, explained"
            </h2>
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
                                                if let Some(el) = web_sys::window()
                                                    .and_then(|w| w.document())
                                                    .and_then(|d| d.get_element_by_id("timeline-title"))
                                                {
                                                    el.scroll_into_view();
                                                    if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<
                                                        web_sys::HtmlElement,
                                                    >(el) {
                                                        let _ = el.focus();
                                                    }
                                                }
                                            }
                                        }
                                    >
                                        "Show the first " {p.title()} " step"
                                    </button>
                                    " · "
                                    <a
                                        href="#learn"
                                        on:click=move |_| learn_ui.open_quiz(crate::learn::group_for_phase(p))
                                    >
                                        "Quiz on " {p.title()}
                                    </a>
                                </p>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
    }
}
