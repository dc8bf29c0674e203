//! The manifest editor: a transparent `<textarea>` over a syntax-coloured `<pre>`, line
//! numbers, and the engine's errors marked on their lines and listed below.
//!
//! Only the lines in view (and a margin around them) are coloured and put in the page, for
//! the `<pre>` and for the line numbers alike: a 2,000-line paste costs the DOM of about a
//! hundred lines. Both are moved with a transform to where the textarea shows those lines.

use super::Lab;
use crate::highlight::{highlight_lines, line_starts};
use crate::starters::STARTERS;
use leptos::prelude::*;
use podlab_engine::views::markers::{markers, Marker, Severity};
use wasm_bindgen::JsCast;

/// Pixel height of one editor line (the stylesheet sets the same line height).
const LINE_PX: i32 = 21;
/// Lines put in the page above and below the ones in view.
const MARGIN_LINES: usize = 20;
/// The window of lines moves by this many lines at a time, so that scrolling a few lines
/// changes nothing in the page.
const CHUNK_LINES: usize = 20;
/// The height assumed for the text area until it is measured.
const DEFAULT_VIEW_PX: i32 = 26 * 16;

/// The lines (0-based, `first..end`) to put in the page when the text area, `view_px` high,
/// is scrolled `scroll_px` down a text of `count` lines.
fn window(scroll_px: i32, view_px: i32, count: usize) -> (usize, usize) {
    let top = (scroll_px.max(0) / LINE_PX) as usize;
    let visible = (view_px.max(0) / LINE_PX) as usize + 2;
    let end = ((top + visible + MARGIN_LINES).div_ceil(CHUNK_LINES) * CHUNK_LINES).min(count);
    // A scroll position left from a longer text still shows the end of this one.
    let last_first = count.saturating_sub(visible + MARGIN_LINES) / CHUNK_LINES * CHUNK_LINES;
    let first = (top.saturating_sub(MARGIN_LINES) / CHUNK_LINES * CHUNK_LINES).min(last_first);
    (first, end.max(first))
}

/// The markers of the run shown, if that run is of `text`.
fn run_markers(lab: Lab, text: &str) -> Option<Vec<Marker>> {
    lab.outcome.with(|o| o.run().filter(|r| r.manifest == text).map(|r| r.markers.clone()))
}

/// `5.2 MB` or `830 KB` for a text of `bytes` bytes.
fn size_label(bytes: usize) -> String {
    if bytes >= 1024 * 1024 {
        format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
    } else {
        format!("{} KB", bytes.div_ceil(1024))
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
    let view_px = RwSignal::new(DEFAULT_VIEW_PX);
    // What the engine's reader says of the text alone (YAML errors, duplicate keys): read
    // only when asked for (a memo runs when read), that is when no run of this text is shown
    // or coming.
    let reader_markers = Memo::new(move |_| lab.manifest.with(|t| markers(t, None)));
    // The markers shown: the run's, when the run shown is of this text (read once per run);
    // while the run of a new text is pending (the learner is typing), the markers shown until
    // then stay, rather than reading the whole text again at every key; with no run coming
    // (the lab could not run), the reader's.
    let markers = Memo::new(move |shown: Option<&Vec<Marker>>| {
        if let Some(m) = lab.manifest.with(|t| run_markers(lab, t)) {
            return m;
        }
        if lab.pending.get() {
            return shown.cloned().unwrap_or_default();
        }
        reader_markers.get()
    });
    let starts = Memo::new(move |_| lab.manifest.with(|t| line_starts(t)));
    let shown = Memo::new(move |_| {
        let count = starts.with(|s| s.len());
        window(scroll.get().1, view_px.get(), count)
    });
    // The first marker of each line decides its colour.
    let severities = Memo::new(move |_| {
        let mut by_line = std::collections::BTreeMap::new();
        markers.with(|marks| {
            for m in marks {
                by_line.entry(m.line).or_insert(m.severity);
            }
        });
        by_line
    });
    let measure = move || {
        if let Some(ta) = area.get_untracked() {
            scroll.set((ta.scroll_left(), ta.scroll_top()));
            view_px.set(ta.client_height());
        }
    };
    // The text area's height: measured when it changes (the editor can be resized).
    type Observer = (web_sys::ResizeObserver, wasm_bindgen::closure::Closure<dyn FnMut()>);
    let observer = StoredValue::new_local(None::<Observer>);
    Effect::new(move |_| {
        let Some(ta) = area.get() else { return };
        let on_resize = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(measure);
        if let Ok(o) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
            o.observe(&ta);
            observer.set_value(Some((o, on_resize)));
        }
    });
    on_cleanup(move || {
        let _ = observer.try_with_value(|o| o.as_ref().map(|(o, _)| o.disconnect()));
    });
    // A new text can move the text area's scroll position without a scroll event.
    Effect::new(move |_| {
        lab.manifest.track();
        request_animation_frame(measure);
    });

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
                    // Wide enough for the last line's number, whichever lines are in the page.
                    <div
                        class="gutter-inner"
                        style:min-width=move || {
                            format!("calc({}ch + 0.9rem)", starts.with(|s| s.len()).to_string().len())
                        }
                        style:transform=move || {
                            format!("translateY({}px)", shown.get().0 as i32 * LINE_PX - scroll.get().1)
                        }
                    >
                        {move || {
                            let (first, end) = shown.get();
                            severities
                                .with(|sev| {
                                    (first + 1..=end)
                                        .map(|n| {
                                            let class = match sev.get(&n) {
                                                Some(Severity::Error) => "ln err",
                                                Some(Severity::Warning) => "ln warn",
                                                None => "ln",
                                            };
                                            view! { <div class=class>{n}</div> }
                                        })
                                        .collect_view()
                                })
                        }}
                    </div>
                </div>
                <div class="code">
                    <pre class="hl" aria-hidden="true">
                        <code style:transform=move || {
                            let (x, y) = scroll.get();
                            format!("translate({}px, {}px)", -x, shown.get().0 as i32 * LINE_PX - y)
                        }>
                            {move || {
                                let (first, end) = shown.get();
                                let lines = lab.manifest.with(|t| starts.with(|s| highlight_lines(t, s, first, end)));
                                severities
                                    .with(|sev| {
                                        lines
                                            .into_iter()
                                            .zip(first + 1..)
                                            .map(|(pieces, n)| {
                                                let class = match sev.get(&n) {
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
                                    })
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
                        on:scroll=move |_| measure()
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
                {move || {
                    (!lab.embedded && lab.unsaved.with(|u| u.is_none()))
                        .then_some(" Your text is saved in this browser as you type.")
                }}
            </p>
            // A long run says how far it has got, here where the learner pasted (not over
            // the timeline, whose controls stay where they are while it runs).
            {move || {
                lab.progress
                    .get()
                    .map(|(steps, ms)| {
                        view! {
                            <p id="run-progress" class="run-progress" role="status">
                                {format!(
                                    "Running the lab: {steps} steps so far, {} of cluster time… The journey shows the \
                                     run before until this one is done.",
                                    crate::state::time_label(ms),
                                )}
                            </p>
                        }
                    })
            }}
            {move || {
                lab.unsaved
                    .get()
                    .map(|why| {
                        let size = lab.manifest.with(|t| size_label(t.len()));
                        view! {
                            <p id="unsaved" class="notice" role="status">
                                {format!(
                                    "This manifest ({size}) is not saved in this browser: {why}. It stays in this page \
                                     while the page is open; a reload or a new visit opens the manifest saved before. Keep \
                                     a copy of it in a file.",
                                )}
                            </p>
                        }
                    })
            }}
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
    use super::{line_offset, size_label, window, LINE_PX};

    #[test]
    fn offsets_count_utf16_units() {
        assert_eq!(line_offset("ab\ncd\nef", 1), 0);
        assert_eq!(line_offset("ab\ncd\nef", 3), 6);
        assert_eq!(line_offset("é😀\nx", 2), 4);
    }

    #[test]
    fn sizes_read_as_kb_and_mb() {
        assert_eq!(size_label(200 * 1024), "200 KB");
        assert_eq!(size_label(1), "1 KB");
        assert_eq!(size_label(5 * 1024 * 1024 + 300 * 1024), "5.3 MB");
    }

    #[test]
    fn the_window_covers_the_lines_in_view_and_a_margin() {
        // 20 lines in view (420 px), scrolled to line 1,000 of 2,000.
        let (first, end) = window(1000 * LINE_PX, 420, 2000);
        assert!(first <= 1000 - 20 && end >= 1000 + 20 + 20, "{first}..{end}");
        assert!(end - first <= 100, "{first}..{end}");
        // A few lines of scrolling move nothing.
        assert_eq!(window(1003 * LINE_PX, 420, 2000), (first, end));
        // The top, a short text, and a scroll position left from a longer text.
        assert_eq!(window(0, 420, 2000).0, 0);
        assert_eq!(window(0, 420, 7), (0, 7));
        let (first, end) = window(5000 * LINE_PX, 420, 100);
        assert_eq!(end, 100);
        assert!(first < 100 - 20, "{first}");
        assert_eq!(window(0, 420, 1), (0, 1));
    }
}
