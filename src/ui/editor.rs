//! The manifest editor: a transparent `<textarea>` over a syntax-coloured `<pre>`, line
//! numbers, and the engine's errors marked on their lines and listed below.

use super::Lab;
use crate::highlight::highlight;
use crate::starters::STARTERS;
use leptos::prelude::*;
use podlab_engine::views::markers::{markers, Marker, Severity};
use wasm_bindgen::JsCast;

/// Pixel height of one editor line (the stylesheet sets the same line height).
const LINE_PX: i32 = 21;

/// The markers to show for the text in the editor: the run's, when the run is of this text;
/// while a new run is pending, only what the engine's reader says now (YAML errors).
fn current_markers(lab: Lab) -> Vec<Marker> {
    let text = lab.manifest.get();
    match lab.run() {
        Some(run) if run.manifest == text => run.markers.clone(),
        _ => markers(&text, None),
    }
}

/// The UTF-16 offset (what a textarea's selection counts) of the start of `line` (1-based).
fn line_offset(text: &str, line: usize) -> u32 {
    text.split('\n').take(line.saturating_sub(1)).map(|l| l.encode_utf16().count() as u32 + 1).sum()
}

#[component]
pub fn Editor() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let area: NodeRef<leptos::html::Textarea> = NodeRef::new();
    let scroll = RwSignal::new((0i32, 0i32));
    let markers = Memo::new(move |_| current_markers(lab));
    let lines = Memo::new(move |_| lab.manifest.with(|t| highlight(t)));

    let go_to = move |m: &Marker| {
        let Some(ta) = area.get() else { return };
        let text = lab.manifest.get_untracked();
        let start = line_offset(&text, m.line) + (m.column.saturating_sub(1)) as u32;
        let _ = ta.focus();
        let _ = ta.set_selection_range(start, start);
        ta.set_scroll_top(((m.line as i32) - 4).max(0) * LINE_PX);
    };

    view! {
        <section class="panel editor-panel" aria-labelledby="manifest-label">
            <div class="panel-head">
                <h2 class="panel-title">
                    <label id="manifest-label" for="manifest">
                        "Manifest"
                    </label>
                </h2>
                <span class="file" title="The file name kubectl is given">
                    {move || lab.settings.with(|s| s.file.clone())}
                </span>
            </div>
            <div class="starter-row" hidden=lab.embedded>
                <label for="starter">"Start from an example"</label>
                <select
                    id="starter"
                    on:change=move |ev| {
                        let id = event_target_value(&ev);
                        lab.load_starter(&id);
                    }
                    prop:value=move || lab.settings.with(|s| s.starter.clone())
                >
                    {STARTERS
                        .iter()
                        .map(|s| {
                            view! { <option value=s.id>{s.title}</option> }
                        })
                        .collect_view()}
                </select>
                <button
                    type="button"
                    on:click=move |_| {
                        let id = lab.settings.with_untracked(|s| s.starter.clone());
                        lab.load_starter(&id);
                    }
                >
                    "Reload example"
                </button>
            </div>
            <p id="starter-expect" class="hint" hidden=lab.embedded>
                {move || {
                    lab.settings
                        .with(|s| crate::starters::by_id(&s.starter).map(|s| s.expect).unwrap_or_default())
                }}
            </p>
            <div class="editor" class:has-errors=move || markers.with(|m| !m.is_empty())>
                <div class="gutter" aria-hidden="true">
                    <div
                        class="gutter-inner"
                        style:transform=move || format!("translateY({}px)", -scroll.get().1)
                    >
                        {move || {
                            let marks = markers.get();
                            (1..=lines.with(|l| l.len()))
                                .map(|n| {
                                    let sev = marks.iter().find(|m| m.line == n).map(|m| m.severity);
                                    let class = match sev {
                                        Some(Severity::Error) => "ln err",
                                        Some(Severity::Warning) => "ln warn",
                                        None => "ln",
                                    };
                                    view! { <div class=class>{n}</div> }
                                })
                                .collect_view()
                        }}
                    </div>
                </div>
                <div class="code">
                    <pre class="hl" aria-hidden="true">
                        <code style:transform=move || {
                            let (x, y) = scroll.get();
                            format!("translate({}px, {}px)", -x, -y)
                        }>
                            {move || {
                                let marks = markers.get();
                                lines
                                    .get()
                                    .into_iter()
                                    .enumerate()
                                    .map(|(i, pieces)| {
                                        let sev = marks.iter().find(|m| m.line == i + 1).map(|m| m.severity);
                                        let class = match sev {
                                            Some(Severity::Error) => "line mark-err",
                                            Some(Severity::Warning) => "line mark-warn",
                                            None => "line",
                                        };
                                        view! {
                                            <span class=class>
                                                {pieces
                                                    .into_iter()
                                                    .map(|(tok, text)| match tok.class() {
                                                        Some(c) => view! { <span class=c>{text}</span> }.into_any(),
                                                        None => text.into_any(),
                                                    })
                                                    .collect_view()}
                                                "\n"
                                            </span>
                                        }
                                    })
                                    .collect_view()
                            }}
                        </code>
                    </pre>
                    <textarea
                        id="manifest"
                        node_ref=area
                        spellcheck="false"
                        autocomplete="off"
                        autocapitalize="off"
                        wrap="off"
                        readonly=lab.readonly
                        aria-describedby="manifest-hint markers"
                        aria-invalid=move || {
                            markers
                                .with(|m| m.iter().any(|m| m.severity == Severity::Error))
                                .then_some("true")
                        }
                        prop:value=move || lab.manifest.get()
                        on:input=move |ev| lab.edit(event_target_value(&ev))
                        on:scroll=move |ev| {
                            if let Some(ta) = ev
                                .target()
                                .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
                            {
                                scroll.set((ta.scroll_left(), ta.scroll_top()));
                            }
                        }
                        on:keydown=move |ev| {
                            if !lab.readonly && ev.key() == "Tab" && !ev.shift_key() && !ev.ctrl_key() && !ev.alt_key()
                                && !ev.meta_key()
                            {
                                // Tab indents by two spaces; Escape then Tab leaves the editor.
                                if let Some(ta) = area.get() {
                                    if ta.dataset().get("escaped").is_none() {
                                        ev.prevent_default();
                                        let start = ta.selection_start().ok().flatten().unwrap_or(0);
                                        let _ = ta.set_range_text("  ");
                                        let _ = ta.set_selection_range(start + 2, start + 2);
                                        lab.edit(ta.value());
                                    }
                                }
                            } else if let Some(ta) = area.get() {
                                if ev.key() == "Escape" {
                                    let _ = ta.dataset().set("escaped", "1");
                                } else {
                                    ta.dataset().delete("escaped");
                                }
                            }
                        }
                        on:blur=move |_| {
                            if let Some(ta) = area.get() {
                                ta.dataset().delete("escaped");
                            }
                        }
                    ></textarea>
                </div>
            </div>
            <p id="manifest-hint" class="hint">
                {if lab.readonly {
                    "This manifest is read-only here. Press Tab to leave the editor.".into_any()
                } else {
                    view! {
                        "Separate documents with "
                        <code>"---"</code>
                        ". Tab indents; press Escape, then Tab, to leave the editor."
                    }
                        .into_any()
                }}
                // An embed saves nothing (docs/embedding.md): it does not say it does.
                {(!lab.embedded).then_some(" Your text is saved in this browser as you type.")}
            </p>
            <div id="markers" class="markers" aria-live="polite">
                {move || {
                    let marks = markers.get();
                    if marks.is_empty() {
                        return view! { <p class="muted">"No problems found in this manifest."</p> }
                            .into_any();
                    }
                    view! {
                        <h3 class="sub">"Problems"</h3>
                        <ul class="marker-list">
                            {marks
                                .into_iter()
                                .map(|m| {
                                    let class = match m.severity {
                                        Severity::Error => "marker err",
                                        Severity::Warning => "marker warn",
                                    };
                                    let m2 = m.clone();
                                    view! {
                                        <li class=class>
                                            <button
                                                type="button"
                                                class="linkish"
                                                title="Put the cursor on this line"
                                                on:click=move |_| go_to(&m2)
                                            >
                                                {m.position()}
                                            </button>
                                            " "
                                            <strong class="marker-title">{m.title()}</strong>
                                            <span class="marker-message">{m.message.clone()}</span>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                        .into_any()
                }}
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::line_offset;

    #[test]
    fn offsets_count_utf16_units() {
        assert_eq!(line_offset("ab\ncd\nef", 1), 0);
        assert_eq!(line_offset("ab\ncd\nef", 3), 6);
        assert_eq!(line_offset("é😀\nx", 2), 4);
    }
}
