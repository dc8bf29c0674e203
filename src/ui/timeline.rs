//! The timeline: playback controls, a scrubber, and every step grouped under the fifteen
//! phases. The live region announces each step shown.

use super::Lab;
use crate::state::{announce, time_label, SPEEDS};
use leptos::prelude::*;
use podlab_engine::trace::StepStatus;

fn status_mark(s: StepStatus) -> (&'static str, &'static str) {
    match s {
        StepStatus::Ok => ("ok", ""),
        StepStatus::Warning => ("warn", "warning: "),
        StepStatus::Failed => ("fail", "failed: "),
    }
}

#[component]
pub fn Timeline() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let list: NodeRef<leptos::html::Div> = NodeRef::new();
    let len = Memo::new(move |_| lab.step_count());
    let at_start = move || lab.step.get() == 0;
    let at_end = move || lab.step.get() + 1 >= len.get();

    // Keep the current step visible inside the scrolling step list (without moving the page).
    Effect::new(move |_| {
        let _ = lab.step.get();
        lab.outcome.track();
        let Some(container) = list.get() else { return };
        let Ok(Some(current)) = container.query_selector("button.step[aria-current]") else { return };
        let Ok(current) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(current) else { return };
        let top = current.offset_top();
        let bottom = top + current.offset_height();
        let view_top = container.scroll_top();
        let view_bottom = view_top + container.client_height();
        if top < view_top + 30 {
            container.set_scroll_top((top - 30).max(0));
        } else if bottom > view_bottom - 10 {
            container.set_scroll_top(bottom - container.client_height() + 10);
        }
    });

    let announcement =
        move || lab.run().and_then(|r| r.step(lab.step.get()).map(|s| announce(s, r.len()))).unwrap_or_default();

    view! {
        <section class="panel timeline" aria-labelledby="timeline-title">
            <div class="panel-head">
                <h2 id="timeline-title" class="panel-title" tabindex="-1">
                    "Timeline"
                </h2>
                <p class="position" id="position">
                    {move || {
                        let n = len.get();
                        if n == 0 {
                            return "No steps".to_string();
                        }
                        let i = lab.step.get();
                        let t = lab.run().and_then(|r| r.step(i).map(|s| s.time_ms)).unwrap_or(0);
                        format!("Step {} of {n} · {}", i + 1, time_label(t))
                    }}
                </p>
            </div>
            <div class="controls" role="group" aria-label="Playback">
                <button
                    type="button"
                    id="first"
                    title="First step"
                    disabled=at_start
                    on:click=move |_| {
                        lab.stop();
                        lab.go(0);
                    }
                >
                    "« First"
                </button>
                <button
                    type="button"
                    id="back"
                    title="Previous step (←)"
                    disabled=at_start
                    on:click=move |_| {
                        lab.stop();
                        lab.back();
                    }
                >
                    "◀ Back"
                </button>
                <button
                    type="button"
                    id="play"
                    class="primary"
                    aria-pressed=move || if lab.playing.get() { "true" } else { "false" }
                    disabled=move || len.get() < 2
                    on:click=move |_| {
                        if lab.playing.get_untracked() { lab.stop() } else { lab.play() }
                    }
                >
                    {move || if lab.playing.get() { "■ Pause" } else { "▶ Play" }}
                </button>
                <button
                    type="button"
                    id="forward"
                    title="Next step (→)"
                    disabled=at_end
                    on:click=move |_| {
                        lab.stop();
                        lab.forward();
                    }
                >
                    "Next ▶"
                </button>
                <button
                    type="button"
                    id="last"
                    title="Last step"
                    disabled=at_end
                    on:click=move |_| {
                        lab.stop();
                        lab.go(usize::MAX);
                    }
                >
                    "Last »"
                </button>
                <label class="speed">
                    "Speed "
                    <select
                        id="speed"
                        on:change=move |ev| {
                            if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                                lab.set_speed(i);
                            }
                        }
                        prop:value=move || lab.speed.get().to_string()
                    >
                        {SPEEDS
                            .iter()
                            .enumerate()
                            .map(|(i, (label, _))| view! { <option value=i.to_string()>{*label}</option> })
                            .collect_view()}
                    </select>
                </label>
            </div>
            <div class="scrub">
                <label for="scrubber" class="sr-only">
                    "Step"
                </label>
                <input
                    id="scrubber"
                    type="range"
                    min="0"
                    max=move || len.get().saturating_sub(1).to_string()
                    step="1"
                    disabled=move || len.get() < 2
                    prop:value=move || lab.step.get().to_string()
                    aria-valuetext=announcement
                    on:input=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            lab.stop();
                            lab.go(i);
                        }
                    }
                />
            </div>
            <p class="hint">"Use ← and → to step (outside the editor). Pick a phase to jump to its first step."</p>
            <div id="live" class="sr-only" aria-live="polite" aria-atomic="true">
                {announcement}
            </div>
            <div class="steps-scroll" node_ref=list tabindex="0" role="region" aria-label="Steps by phase">
                <ol class="phases" id="phases">
                    {move || {
                        let Some(run) = lab.run() else { return ().into_any() };
                        run.phases
                            .iter()
                            .enumerate()
                            .map(|(n, group)| {
                                let phase = group.phase;
                                let first = group.steps.first().copied();
                                let count = group.steps.len();
                                let steps = group.steps.clone();
                                let contains = steps.clone();
                                let is_current = move || contains.contains(&lab.step.get());
                                let count_text = match count {
                                    0 => "no steps".to_string(),
                                    1 => "1 step".to_string(),
                                    n => format!("{n} steps"),
                                };
                                let run2 = run.clone();
                                view! {
                                    <li
                                        class="phase"
                                        class:current=is_current
                                        class:empty={count == 0}
                                        data-phase=phase.id()
                                    >
                                        <div class="phase-head">
                                            <button
                                                type="button"
                                                class="phase-jump"
                                                disabled=first.is_none()
                                                on:click=move |_| {
                                                    if let Some(f) = first {
                                                        lab.stop();
                                                        lab.go(f);
                                                    }
                                                }
                                            >
                                                <span class="phase-n">{n + 1}</span>
                                                <span class="phase-title">{phase.title()}</span>
                                            </button>
                                            <span class="phase-count">{count_text}</span>
                                            <a
                                                class="phase-about"
                                                href=format!("#explain-{}", phase.id())
                                                on:click=|_| super::explain::open_all()
                                            >
                                                "About"
                                                <span class="sr-only">" " {phase.title()}</span>
                                            </a>
                                        </div>
                                        {(count > 0)
                                            .then(|| {
                                                view! {
                                                    <ol class="steps">
                                                        {steps
                                                            .into_iter()
                                                            .filter_map(|i| run2.step(i).cloned())
                                                            .map(|s| {
                                                                let i = s.index;
                                                                let (class, prefix) = status_mark(s.status);
                                                                view! {
                                                                    <li>
                                                                        <button
                                                                            type="button"
                                                                            class=format!("step {class}")
                                                                            aria-current=move || {
                                                                                (lab.step.get() == i).then_some("step")
                                                                            }
                                                                            on:click=move |_| {
                                                                                lab.stop();
                                                                                lab.go(i);
                                                                            }
                                                                        >
                                                                            <span class="step-n">{i + 1}</span>
                                                                            <span class="step-text">
                                                                                <span class="sr-only">{prefix}</span>
                                                                                {s.summary.clone()}
                                                                            </span>
                                                                        </button>
                                                                    </li>
                                                                }
                                                            })
                                                            .collect_view()}
                                                    </ol>
                                                }
                                            })}
                                    </li>
                                }
                            })
                            .collect_view()
                            .into_any()
                    }}
                </ol>
            </div>
        </section>
    }
}
