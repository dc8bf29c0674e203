//! The page's layout: four views (Manifest, Journey, Cluster, Learn) and the tab lists that
//! switch them. On a wide screen the page has two columns, each with a tab list of its own:
//! Manifest · Cluster on the left (the terminal pane of a future kubectl session belongs under
//! the editor, in the Manifest view), Journey · Learn on the right. On a narrow screen one
//! sticky tab list of all four shows one view at a time, the Journey first. Which views are
//! shown is only CSS over `data-left`, `data-right` and `data-focus` on `<main>`: every view
//! stays mounted, so nothing is rebuilt or recomputed by a switch.

use leptos::prelude::*;

/// One view of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Manifest,
    Journey,
    Cluster,
    Learn,
}

impl View {
    /// The narrow screen's tab order.
    pub const ALL: [View; 4] = [View::Manifest, View::Journey, View::Cluster, View::Learn];
    /// The wide screen's left column.
    pub const LEFT: [View; 2] = [View::Manifest, View::Cluster];
    /// The wide screen's right column.
    pub const RIGHT: [View; 2] = [View::Journey, View::Learn];

    pub fn id(self) -> &'static str {
        match self {
            View::Manifest => "manifest",
            View::Journey => "journey",
            View::Cluster => "cluster",
            View::Learn => "learn",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            View::Manifest => "Manifest",
            View::Journey => "Journey",
            View::Cluster => "Cluster",
            View::Learn => "Learn",
        }
    }

    /// The element id of the view's container (the tab panel).
    pub fn panel_id(self) -> String {
        format!("view-{}", self.id())
    }

    fn is_left(self) -> bool {
        matches!(self, View::Manifest | View::Cluster)
    }
}

/// Which view each column shows, and the view a narrow screen shows (the last one chosen).
#[derive(Clone, Copy)]
pub struct Layout {
    pub left: RwSignal<View>,
    pub right: RwSignal<View>,
    pub focus: RwSignal<View>,
    /// The phase card's quiz is open ("Check yourself on …").
    pub phase_quiz: RwSignal<bool>,
}

impl Layout {
    /// The page opens on the journey (or on `first`, e.g. Learn for an exercise's link).
    pub fn new(first: View) -> Layout {
        let layout = Layout {
            left: RwSignal::new(View::Manifest),
            right: RwSignal::new(View::Journey),
            focus: RwSignal::new(View::Journey),
            phase_quiz: RwSignal::new(false),
        };
        layout.show(first);
        layout
    }

    /// Shows `v`: in its column on a wide screen, alone on a narrow one.
    pub fn show(&self, v: View) {
        self.focus.set(v);
        if v.is_left() {
            self.left.set(v);
        } else {
            self.right.set(v);
        }
    }

    /// Shows `v`, then (once the page has updated) scrolls `target` into view and focuses it.
    pub fn show_and_focus(&self, v: View, target: &'static str) {
        self.show(v);
        gloo_timers::callback::Timeout::new(0, move || focus_element(target)).forget();
    }
}

/// Scrolls the element with id `id` into view and focuses it (headings have `tabindex=-1`).
pub fn focus_element(id: &str) {
    let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id)) else {
        return;
    };
    el.scroll_into_view();
    if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
        let _ = el.focus();
    }
}

/// A tab list of `views`: `narrow` for the one-column screen (selected: the view shown),
/// otherwise a column's (selected: the view its column shows). Arrow keys, Home and End move
/// between the tabs (one tab stop for the list).
#[component]
pub fn ViewTabs(views: &'static [View], narrow: bool, label: &'static str) -> impl IntoView {
    let layout = expect_context::<Layout>();
    let list: NodeRef<leptos::html::Div> = NodeRef::new();
    let selected = move |v: View| {
        if narrow {
            layout.focus.get() == v
        } else if v.is_left() {
            layout.left.get() == v
        } else {
            layout.right.get() == v
        }
    };
    let prefix = if narrow { "tab-n-" } else { "tab-c-" };
    let select = move |v: View, focus: bool| {
        layout.show(v);
        if focus {
            if let Some(list) = list.get() {
                if let Ok(Some(el)) = list.query_selector(&format!("#{prefix}{}", v.id())) {
                    if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                        let _ = el.focus();
                    }
                }
            }
        }
        if narrow {
            // A tab chosen far down the page: show the view from its top, under the bar.
            if let Some(main) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("lab")) {
                let top = main.get_bounding_client_rect().top();
                if top < 0.0 {
                    let bar = list.get().map(|l| l.get_bounding_client_rect().height()).unwrap_or(0.0);
                    if let Some(w) = web_sys::window() {
                        let y = w.scroll_y().unwrap_or(0.0) + top - bar;
                        w.scroll_to_with_x_and_y(0.0, y.max(0.0));
                    }
                }
            }
        }
    };
    let class = if narrow { "view-tabs narrow" } else { "view-tabs column" };
    view! {
        <div class=class role="tablist" aria-label=label node_ref=list>
            {views
                .iter()
                .enumerate()
                .map(|(n, v)| {
                    let v = *v;
                    view! {
                        <button
                            type="button"
                            role="tab"
                            id=format!("{prefix}{}", v.id())
                            data-view=v.id()
                            aria-controls=v.panel_id()
                            aria-selected=move || selected(v).to_string()
                            tabindex=move || if selected(v) { "0" } else { "-1" }
                            on:click=move |_| select(v, false)
                            on:keydown=move |ev| {
                                let t = match ev.key().as_str() {
                                    "ArrowRight" => Some((n + 1) % views.len()),
                                    "ArrowLeft" => Some((n + views.len() - 1) % views.len()),
                                    "Home" => Some(0),
                                    "End" => Some(views.len() - 1),
                                    _ => None,
                                };
                                if let Some(t) = t {
                                    ev.prevent_default();
                                    select(views[t], true);
                                }
                            }
                        >
                            {v.title()}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}
