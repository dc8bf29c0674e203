//! The embed page (`?embed`): the chosen panels without the page chrome, and its messages to
//! and from the host page (height, ready, step, quiz and exercise events; goto, load, play,
//! pause commands from an allowlisted origin). The options and the messages' shapes are plain
//! Rust in `crate::embed`.

use super::{
    apply_embed_theme, cluster, detail, diagram, editor, explain, learn, panes, share, terminal, timeline, Lab,
    RunStatus,
};
use crate::embed::{parse_command, Command, EmbedOptions, Event, Panel};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// Posts `event` to the host page (the iframe's parent), once per allowed origin.
fn post(event: &Event, targets: &[String]) {
    let Some(w) = web_sys::window() else { return };
    let Ok(Some(parent)) = w.parent() else { return };
    // The page is not framed: nobody to tell.
    if JsValue::from(parent.clone()) == JsValue::from(w.clone()) {
        return;
    }
    let Ok(data) = js_sys::JSON::parse(&event.to_json().to_string()) else { return };
    for origin in targets {
        let _ = parent.post_message(&data, origin);
    }
}

/// The document's height in CSS pixels (what the host's iframe needs to show it whole).
fn content_height() -> u32 {
    let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) else { return 0 };
    body.get_bounding_client_rect().height().ceil().max(0.0) as u32
}

/// Starts the messaging: events out (resize, ready, step), commands in.
fn install(lab: Lab, options: &EmbedOptions) {
    let targets = options.post_targets();
    let sink_targets = targets.clone();
    crate::embed::set_sink(Some(Box::new(move |e: &Event| post(e, &sink_targets))));

    // Height: a ResizeObserver on <body>, posted when it changes.
    let last_height = StoredValue::new(0u32);
    let on_resize = Closure::<dyn FnMut()>::new(move || {
        let h = content_height();
        if h != last_height.get_value() {
            last_height.set_value(h);
            crate::embed::emit(&Event::Resize { height: h });
        }
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
            observer.observe(&body);
        }
        // Lives as long as the page.
        std::mem::forget(observer);
    }
    on_resize.forget();

    // Ready after the first run; then every step shown.
    let autoplay = options.autoplay;
    Effect::new(move |was_ready: Option<bool>| {
        let runs = lab.runs.get();
        if runs > 0 && was_ready != Some(true) {
            crate::embed::emit(&Event::Ready { steps: lab.step_count() });
            if autoplay {
                lab.play();
            }
            return true;
        }
        was_ready.unwrap_or(false)
    });
    Effect::new(move |last: Option<Option<(usize, u32)>>| {
        let i = lab.step.get();
        let runs = lab.runs.get();
        let run = lab.run()?;
        let step = run.step(i)?;
        let key = Some((i, runs));
        if last.flatten() != key {
            crate::embed::emit(&Event::Step {
                index: i,
                total: run.len(),
                phase: step.phase,
                summary: step.summary.clone(),
            });
        }
        key
    });

    // Commands from the host: only from an allowlisted origin.
    let allowed = options.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
        if !allowed.accepts(&ev.origin()) {
            return;
        }
        let Ok(text) = js_sys::JSON::stringify(&ev.data()) else { return };
        let Some(text) = text.as_string() else { return };
        let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else { return };
        match parse_command(&value) {
            Some(Command::Goto(i)) => {
                lab.stop();
                lab.go(i);
            }
            Some(Command::Load(manifest)) => {
                lab.stop();
                lab.manifest.set(manifest);
                lab.schedule(0);
            }
            Some(Command::Command(line)) => {
                lab.stop();
                lab.command(&line);
            }
            Some(Command::Play) => lab.play(),
            Some(Command::Pause) => lab.stop(),
            None => {}
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    }
    on_message.forget();
}

/// The compact lab of an embed.
#[component]
pub fn EmbedApp(lab: Lab, options: EmbedOptions) -> impl IntoView {
    apply_embed_theme(options.theme);
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = root.class_list().add_1("embedded");
    }
    install(lab, &options);
    let show = |p: Panel| options.shows(p);
    let problems = options.problems.clone();
    let open_href = move || {
        // The full lab at this view: the page's own path, without the embed's query.
        let path = web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default();
        let _ = lab.step.get();
        lab.manifest.track();
        format!("{path}#{}", crate::share::encode(&lab.permalink()))
    };
    view! {
        <main class="lab embed" data-runs=move || lab.runs.get().to_string()>
            <share::LinkNotices />
            {(!problems.is_empty())
                .then(|| {
                    view! {
                        <div class="notice" id="embed-problems" role="alert">
                            <p>"This embed's URL has options podlab does not know:"</p>
                            <ul>{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
                        </div>
                    }
                })}
            {show(Panel::Editor).then(|| view! { <editor::Editor /> })}
            {show(Panel::Cluster).then(|| view! { <cluster::ClusterPanel /> })}
            {show(Panel::Outcome).then(|| view! { <RunStatus /> })}
            {show(Panel::Timeline).then(|| view! { <timeline::Timeline /> })}
            {show(Panel::Diagram).then(|| view! { <diagram::Diagram /> })}
            {show(Panel::Detail).then(|| view! { <detail::StepDetail /> })}
            {show(Panel::Kubectl).then(|| view! { <panes::Panes /> })}
            {show(Panel::Explain).then(|| view! { <explain::Explanations /> })}
            {show(Panel::Terminal).then(|| view! { <terminal::Terminal /> })}
            {(options.quiz.is_some() || options.exercise.is_some())
                .then(|| view! { <learn::EmbedLearn quiz=options.quiz.clone() exercise=options.exercise.clone() /> })}
            <p class="embed-foot">
                <a href=open_href target="_blank" rel="noopener">
                    "Open this in podlab"
                </a>
                " · Kubernetes "
                {podlab_engine::KUBERNETES_VERSION}
            </p>
        </main>
    }
}
