//! The session's terminal, under the editor: the learner types kubectl commands (and `sleep`,
//! `lab stop|start`, `lab power-off|power-on`) against the cluster the manifest's apply left,
//! one after another on one clock. Each command's steps join the timeline as a group of their
//! own; the transcript shows what each command printed, and a click on a command shows its
//! first step.
//!
//! Keys: Enter runs the line, ↑/↓ walk the session's commands, Tab completes the word (the
//! verb, the resource type, the names of the objects in the cluster), Ctrl-L clears the
//! screen (the session and its history stay).

use super::Lab;
use leptos::prelude::*;
use podlab_engine::lab::complete::{common_prefix, complete};

#[component]
pub fn Terminal() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let line = RwSignal::new(String::new());
    // Where ↑/↓ is in the session's commands (None: the line being typed).
    let browsing = RwSignal::new(None::<usize>);
    // Ctrl-L: the commands before this index are off the screen.
    let cleared = RwSignal::new(0usize);
    // Tab with several words possible: they are listed under the prompt.
    let choices = RwSignal::new(Vec::<String>::new());
    let screen: NodeRef<leptos::html::Div> = NodeRef::new();

    let run_line = move || {
        let text = line.get_untracked();
        if text.trim().is_empty() {
            return;
        }
        line.set(String::new());
        browsing.set(None);
        choices.set(Vec::new());
        lab.stop();
        lab.command(&text);
        // The newest output in view.
        request_animation_frame(move || {
            if let Some(s) = screen.get_untracked() {
                s.set_scroll_top(s.scroll_height());
            }
        });
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let history = lab.session.get_untracked();
        match ev.key().as_str() {
            "ArrowUp" if !history.is_empty() => {
                ev.prevent_default();
                let i = browsing.get_untracked().map_or(history.len() - 1, |i| i.saturating_sub(1));
                browsing.set(Some(i));
                line.set(history[i].clone());
            }
            "ArrowDown" if browsing.get_untracked().is_some() => {
                ev.prevent_default();
                let next = browsing.get_untracked().map(|i| i + 1).filter(|i| *i < history.len());
                browsing.set(next);
                line.set(next.map(|i| history[i].clone()).unwrap_or_default());
            }
            "Tab" => {
                let text = line.get_untracked();
                let Some(run) = lab.run() else { return };
                let found = complete(run.run.store(), &run.run.namespace, &text);
                if found.is_empty() {
                    return;
                }
                ev.prevent_default();
                let start = if text.ends_with(char::is_whitespace) {
                    text.len()
                } else {
                    text.rfind(char::is_whitespace).map_or(0, |i| i + 1)
                };
                let mut completed = format!("{}{}", &text[..start], common_prefix(&found));
                if found.len() == 1 {
                    completed.push(' ');
                    choices.set(Vec::new());
                } else {
                    choices.set(found);
                }
                line.set(completed);
            }
            "l" | "L" if ev.ctrl_key() => {
                ev.prevent_default();
                cleared.set(lab.run().map(|r| r.commands.len()).unwrap_or(0));
            }
            _ => {}
        }
    };

    view! {
        <section class="panel terminal-panel" aria-labelledby="terminal-title">
            <div class="panel-head">
                <h2 id="terminal-title" class="panel-title">
                    "Terminal"
                </h2>
                <button
                    type="button"
                    id="reset-cluster"
                    title="Forget the commands typed here: the manifest's apply alone runs again"
                    disabled=move || lab.session.with(Vec::is_empty)
                    on:click=move |_| {
                        cleared.set(0);
                        lab.stop();
                        lab.reset_cluster();
                    }
                >
                    "Reset cluster"
                </button>
            </div>
            <p class="hint" id="terminal-hint">
                "Go on with the cluster your manifest left: kubectl get, delete, scale…, sleep 30s, or lab stop kube-scheduler. Each command's steps join the timeline. ↑/↓ history, Tab completes, Ctrl-L clears."
            </p>
            <div
                class="terminal session-screen"
                id="session-screen"
                node_ref=screen
                role="log"
                aria-label="Terminal output"
                tabindex="0"
            >
                // Rebuilt for a new run or a clear; a step shown only moves the `current` mark.
                {move || {
                    let Some(run) = lab.run() else { return ().into_any() };
                    let from = cleared.get();
                    let len = run.len();
                    // Each command's steps run up to the next command's first.
                    let ends: Vec<usize> = run.commands.iter().skip(1).map(|c| c.first_step).chain([len]).collect();
                    run.commands
                        .iter()
                        .zip(ends)
                        .enumerate()
                        .skip(from)
                        .map(|(i, (c, end))| {
                            let first = c.first_step;
                            let current = move || (first..end).contains(&lab.step.get());
                            view! {
                                <div class="term-entry" class:current=current data-command=i>
                                    <button
                                        type="button"
                                        class="term-cmd"
                                        title="Show this command's first step"
                                        disabled={first >= len}
                                        on:click=move |_| {
                                            lab.stop();
                                            lab.go(first);
                                        }
                                    >
                                        <span class="term-prompt" aria-hidden="true">
                                            "$ "
                                        </span>
                                        {c.line.clone()}
                                    </button>
                                    {(!c.stdout.is_empty()).then(|| view! { <pre class="term-out">{c.stdout.clone()}</pre> })}
                                    {(!c.stderr.is_empty())
                                        .then(|| view! { <pre class="term-err">{c.stderr.clone()}</pre> })}
                                </div>
                            }
                        })
                        .collect_view()
                        .into_any()
                }}
            </div>
            <form
                class="term-input"
                on:submit=move |ev| {
                    ev.prevent_default();
                    run_line();
                }
            >
                <label for="term-line" class="term-prompt">
                    "$"
                    <span class="sr-only">" command"</span>
                </label>
                <input
                    id="term-line"
                    type="text"
                    autocomplete="off"
                    autocapitalize="off"
                    spellcheck="false"
                    placeholder="kubectl get pods"
                    aria-describedby="terminal-hint"
                    prop:value=move || line.get()
                    on:input=move |ev| {
                        line.set(event_target_value(&ev));
                        browsing.set(None);
                        choices.set(Vec::new());
                    }
                    on:keydown=on_key
                />
                <button type="submit">"Run"</button>
            </form>
            {move || {
                let c = choices.get();
                (!c.is_empty()).then(|| view! { <p class="term-choices" role="status">{c.join("  ")}</p> })
            }}
        </section>
    }
}
