//! The timeline: playback controls, a scrubber, and every step grouped under the fifteen
//! phases. The live region announces each step shown.
//!
//! A long run (a big paste gives thousands of steps) puts only the steps in view in the
//! page: each row then has one fixed height (a summary too long for it ends in an ellipsis),
//! and each phase's list keeps the height of all its steps with padding above and below the
//! rows it shows.

use super::Lab;
use crate::state::{announce, time_label, SPEEDS};
use leptos::prelude::*;
use podlab_engine::trace::StepStatus;

/// Runs with more steps than this show only the steps in view.
const WINDOW_ABOVE_STEPS: usize = 300;
/// The height of one step row in a windowed list, gap included (the stylesheet's
/// `.steps-scroll.windowed` rows are 30 px high, 2 px apart).
const STEP_PX: i32 = 32;
/// Rows put in the page above and below the ones in view.
const MARGIN_ROWS: usize = 15;
/// The window of rows moves by this many at a time.
const CHUNK_ROWS: usize = 10;
/// Rows a phase shows before the list is measured.
const FIRST_ROWS: usize = 20;

/// The rows (`first..end`) of a phase list of `count` steps whose top is `list_top` px into
/// the scrolled content, when `scroll_px..scroll_px + view_px` is in view.
fn rows_in_view(list_top: i32, count: usize, scroll_px: i32, view_px: i32) -> (usize, usize) {
    let from = scroll_px - list_top;
    let to = from + view_px;
    if to < 0 || from > count as i32 * STEP_PX {
        return (0, 0);
    }
    let first = (from.max(0) / STEP_PX) as usize;
    let last = (to.max(0) / STEP_PX) as usize + 1;
    let first = first.saturating_sub(MARGIN_ROWS) / CHUNK_ROWS * CHUNK_ROWS;
    let end = ((last + MARGIN_ROWS).div_ceil(CHUNK_ROWS) * CHUNK_ROWS).min(count);
    (first.min(end), end)
}

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

    // A long run: which rows each phase shows, measured from the list's scroll position.
    let windowed = Memo::new(move |_| len.get() > WINDOW_ABOVE_STEPS);
    let rows = RwSignal::new(Vec::<(usize, usize)>::new());
    let measure = move || {
        if !windowed.get_untracked() {
            return;
        }
        let Some(container) = list.get_untracked() else { return };
        let Some(run) = lab.outcome.with_untracked(|o| o.run().cloned()) else { return };
        let (scroll_px, view_px) = (container.scroll_top(), container.client_height());
        let shown: Vec<(usize, usize)> = run
            .phases
            .iter()
            .enumerate()
            .map(|(n, group)| {
                let top = container
                    .query_selector(&format!("ol.steps[data-n=\"{n}\"]"))
                    .ok()
                    .flatten()
                    .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
                    .map(|e| e.offset_top());
                match top {
                    Some(top) => rows_in_view(top, group.steps.len(), scroll_px, view_px),
                    None => (0, 0),
                }
            })
            .collect();
        if rows.with_untracked(|r| *r != shown) {
            rows.set(shown);
        }
    };
    // A new run: its lists are measured once they are in the page.
    Effect::new(move |_| {
        lab.outcome.track();
        rows.set(Vec::new());
        request_animation_frame(measure);
    });

    // Keep the current step visible inside the scrolling step list (without moving the page).
    let reveal = move |step: usize| {
        let Some(container) = list.get_untracked() else { return };
        // Where the current step's row is: its button, or in a windowed list, its place.
        let (top, bottom) = if windowed.get_untracked() {
            let Some(run) = lab.outcome.with_untracked(|o| o.run().cloned()) else { return };
            let Some((n, k)) =
                run.phases.iter().enumerate().find_map(|(n, g)| g.steps.binary_search(&step).ok().map(|k| (n, k)))
            else {
                return;
            };
            let Ok(Some(ol)) = container.query_selector(&format!("ol.steps[data-n=\"{n}\"]")) else { return };
            let Ok(ol) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(ol) else { return };
            let top = ol.offset_top() + k as i32 * STEP_PX;
            (top, top + STEP_PX)
        } else {
            // By its index: the effect can run before the rows' aria-current has moved.
            let Ok(Some(current)) = container.query_selector(&format!("button.step[data-step=\"{step}\"]")) else {
                return;
            };
            let Ok(current) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(current) else { return };
            let top = current.offset_top();
            (top, top + current.offset_height())
        };
        let view_top = container.scroll_top();
        let view_bottom = view_top + container.client_height();
        if top < view_top + 30 {
            container.set_scroll_top((top - 30).max(0));
        } else if bottom > view_bottom - 10 {
            container.set_scroll_top(bottom - container.client_height() + 10);
        }
        measure();
    };
    Effect::new(move |_| {
        let step = lab.step.get();
        lab.outcome.track();
        // Once the page shows the step's row (a new run's rows come after this effect).
        request_animation_frame(move || reveal(step));
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
            <div
                class="steps-scroll"
                class:windowed=windowed
                node_ref=list
                tabindex="0"
                role="region"
                aria-label="Steps by phase"
                on:scroll=move |_| measure()
            >
                <ol class="phases" id="phases">
                    {move || {
                        let Some(run) = lab.run() else { return ().into_any() };
                        run.phases
                            .iter()
                            .enumerate()
                            .map(|(n, group)| {
                                let phase = group.phase;
                                let command = group.command.clone();
                                let first = group.steps.first().copied();
                                let jump = move |_| {
                                    if let Some(f) = first {
                                        lab.stop();
                                        lab.go(f);
                                    }
                                };
                                let count = group.steps.len();
                                let steps = std::sync::Arc::new(group.steps.clone());
                                let contains = steps.clone();
                                let is_current = move || contains.binary_search(&lab.step.get()).is_ok();
                                let count_text = match count {
                                    0 => "no steps".to_string(),
                                    1 => "1 step".to_string(),
                                    n => format!("{n} steps"),
                                };
                                let run2 = run.clone();
                                let long = count > 0 && windowed.get_untracked();
                                // The rows this phase shows: all, or those in view.
                                let shown = Memo::new(move |_| {
                                    if !long {
                                        return (0, count);
                                    }
                                    rows.with(|r| r.get(n).copied().unwrap_or((0, count.min(FIRST_ROWS))))
                                });
                                view! {
                                    <li
                                        class="phase"
                                        class:current=is_current
                                        class:empty={count == 0}
                                        class:command=command.is_some()
                                        data-phase=command.is_none().then(|| phase.id())
                                    >
                                        {match command.clone() {
                                            None => {
                                                view! {
                                                    <div class="phase-head">
                                                        <button
                                                            type="button"
                                                            class="phase-jump"
                                                            disabled=first.is_none()
                                                            on:click=jump
                                                        >
                                                            <span class="phase-n">{n + 1}</span>
                                                            <span class="phase-title">{phase.title()}</span>
                                                        </button>
                                                        <span class="phase-count">{count_text.clone()}</span>
                                                        <a
                                                            class="phase-about"
                                                            href=format!("#explain-{}", phase.id())
                                                            on:click=|_| super::explain::open_all()
                                                        >
                                                            "About"
                                                            <span class="sr-only">" " {phase.title()}</span>
                                                        </a>
                                                    </div>
                                                }
                                                    .into_any()
                                            }
                                            // A later command of the session: its line heads its steps.
                                            Some(line) => {
                                                view! {
                                                    <div class="phase-head command-head">
                                                        <button
                                                            type="button"
                                                            class="phase-jump"
                                                            disabled=first.is_none()
                                                            on:click=jump
                                                        >
                                                            <span class="phase-n" aria-hidden="true">"$"</span>
                                                            <span class="phase-title command-line">
                                                                <span class="sr-only">"Command: "</span>
                                                                {line}
                                                            </span>
                                                        </button>
                                                        <span class="phase-count">{count_text.clone()}</span>
                                                    </div>
                                                }
                                                    .into_any()
                                            }
                                        }}
                                        {(count > 0)
                                            .then(|| {
                                                view! {
                                                    <ol
                                                        class="steps"
                                                        data-n=n
                                                        style:padding-top=move || {
                                                            long.then(|| format!("{}px", shown.get().0 as i32 * STEP_PX))
                                                        }
                                                        style:padding-bottom=move || {
                                                            long.then(|| {
                                                                let end = shown.get().1;
                                                                format!("calc({}px + 0.4rem)", (count - end) as i32 * STEP_PX)
                                                            })
                                                        }
                                                    >
                                                        {move || {
                                                            let (first, end) = shown.get();
                                                            steps[first..end]
                                                                .iter()
                                                                .filter_map(|&i| run2.step(i).cloned())
                                                                .map(|s| step_row(lab, s, long))
                                                                .collect_view()
                                                        }}
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

/// One step's button in the timeline (with the full summary as its tooltip when the row
/// may cut it).
fn step_row(lab: Lab, s: podlab_engine::trace::Step, cut: bool) -> impl IntoView {
    let i = s.index;
    let (class, prefix) = status_mark(s.status);
    view! {
        <li>
            <button
                type="button"
                class=format!("step {class}")
                data-step=i
                title=cut.then(|| s.summary.clone())
                aria-current=move || (lab.step.get() == i).then_some("step")
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
}

#[cfg(test)]
mod tests {
    use super::{rows_in_view, STEP_PX};

    #[test]
    fn a_long_list_shows_the_rows_in_view_and_a_margin() {
        // A list of 1,000 steps starting 100 px down, scrolled to its 500th row, 300 px in view.
        let (first, end) = rows_in_view(100, 1000, 100 + 500 * STEP_PX, 300);
        assert!(first <= 500 - 10 && end >= 500 + 10 + 10, "{first}..{end}");
        assert!(end - first <= 60, "{first}..{end}");
        // A few pixels of scrolling move nothing.
        assert_eq!(rows_in_view(100, 1000, 100 + 500 * STEP_PX + 5, 300), (first, end));
        // A list above or below the view shows nothing; one at the top shows its first rows.
        assert_eq!(rows_in_view(100, 10, 5000, 300), (0, 0));
        assert_eq!(rows_in_view(5000, 10, 0, 300), (0, 0));
        let (first, end) = rows_in_view(0, 1000, 0, 300);
        assert_eq!(first, 0);
        assert!(end >= 300 / STEP_PX as usize && end <= 40, "{end}");
        // The end of a list.
        assert_eq!(rows_in_view(0, 50, 50 * STEP_PX - 300, 300).1, 50);
    }
}
