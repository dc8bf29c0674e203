//! The sequence diagram: the eight components as lifelines and the last few steps as arrows,
//! the current one highlighted. A visually hidden sentence says the same in words.

use super::Lab;
use crate::diagram::{active, arrows, height, short_name, x, COLUMN, HEADER, WIDTH};
use crate::state::arrow_text;
use leptos::prelude::*;
use podlab_engine::trace::{Component, StepStatus};

#[component]
pub fn Diagram() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let h = height();
    let current = Memo::new(move |_| {
        let run = lab.run()?;
        let step = run.step(lab.step.get())?.clone();
        Some(step)
    });
    let description =
        move || current.with(|s| s.as_ref().map(arrow_text).unwrap_or_else(|| "No step to show yet.".to_string()));
    view! {
        <section class="panel diagram" aria-labelledby="diagram-title">
            <h2 id="diagram-title" class="panel-title">
                "Who talks to whom"
            </h2>
            <p id="diagram-text" class="sr-only">
                {description}
            </p>
            <div class="diagram-scroll" tabindex="0" role="region" aria-label="Sequence diagram">
                <svg
                    class="seq"
                    viewBox=format!("0 0 {WIDTH} {h}")
                    role="img"
                    aria-labelledby="diagram-title diagram-text"
                    preserveAspectRatio="xMinYMin meet"
                >
                    <defs>
                        <marker
                            id="head"
                            viewBox="0 0 10 10"
                            refX="9"
                            refY="5"
                            markerWidth="7"
                            markerHeight="7"
                            orient="auto-start-reverse"
                        >
                            <path d="M0,0 L10,5 L0,10 z" class="head" />
                        </marker>
                        <marker
                            id="head-current"
                            viewBox="0 0 10 10"
                            refX="9"
                            refY="5"
                            markerWidth="7"
                            markerHeight="7"
                            orient="auto-start-reverse"
                        >
                            <path d="M0,0 L10,5 L0,10 z" class="head-current" />
                        </marker>
                    </defs>
                    {Component::ALL
                        .iter()
                        .map(|c| {
                            let c = *c;
                            let cx = x(c);
                            let is_active = move || current.with(|s| s.as_ref().is_some_and(|s| active(s).contains(&c)));
                            view! {
                                <g class="lifeline" class:active=is_active>
                                    <title>{c.title()}</title>
                                    <line x1=cx y1=HEADER x2=cx y2=h - 4.0 class="life" />
                                    <rect
                                        x=cx - COLUMN / 2.0 + 6.0
                                        y="6"
                                        width=COLUMN - 12.0
                                        height=HEADER - 14.0
                                        rx="6"
                                        class="box"
                                    />
                                    <text x=cx y=HEADER / 2.0 + 2.0 text-anchor="middle" class="box-label">
                                        {short_name(c)}
                                    </text>
                                </g>
                            }
                        })
                        .collect_view()}
                    {move || {
                        let Some(run) = lab.run() else { return ().into_any() };
                        let i = lab.step.get();
                        arrows(&run.run.steps, i)
                            .into_iter()
                            .map(|a| {
                                let status = match a.status {
                                    StepStatus::Ok => "",
                                    StepStatus::Warning => " warn",
                                    StepStatus::Failed => " fail",
                                };
                                let class = format!("arrow{}{status}", if a.current { " current" } else { "" });
                                let marker = if a.current { "url(#head-current)" } else { "url(#head)" };
                                let shape = if a.self_loop {
                                    let x0 = a.from_x;
                                    let y0 = a.y - 10.0;
                                    view! {
                                        <path
                                            d=format!(
                                                "M{x0},{y0} h22 v14 h-20",
                                            )
                                            class="line"
                                            fill="none"
                                            marker-end=marker
                                        />
                                    }
                                        .into_any()
                                } else {
                                    view! {
                                        <line
                                            x1=a.from_x
                                            y1=a.y
                                            x2=a.to_x
                                            y2=a.y
                                            class="line"
                                            marker-end=marker
                                        />
                                    }
                                        .into_any()
                                };
                                view! {
                                    <g class=class>
                                        <title>{a.title.clone()}</title>
                                        {shape}
                                        <text x=a.label_x y=a.y - 6.0 class="arrow-label">
                                            {format!("{}. {}", a.step + 1, a.label)}
                                        </text>
                                    </g>
                                }
                            })
                            .collect_view()
                            .into_any()
                    }}
                </svg>
            </div>
        </section>
    }
}
