//! Browser tests of the web app: mount it in headless Chromium and read the DOM.
//! Run with `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p podlab`
//! (see CONTRIBUTING.md). Natively this file compiles to nothing.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Mounts the app into a fresh element; returns that element.
fn mount() -> HtmlElement {
    let root: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    leptos::mount::mount_to(root.clone(), podlab::App).forget();
    root
}

fn texts(root: &Element, selector: &str) -> Vec<String> {
    let nodes = root.query_selector_all(selector).unwrap();
    (0..nodes.length()).filter_map(|i| nodes.item(i)).map(|n| n.text_content().unwrap_or_default()).collect()
}

/// Waits (at most about a second) until the reactive updates have reached the DOM.
async fn until(mut done: impl FnMut() -> bool) {
    for _ in 0..100 {
        if done() {
            return;
        }
        TimeoutFuture::new(10).await;
    }
}

fn type_into(root: &Element, text: &str) {
    let area: HtmlTextAreaElement = root.query_selector("#manifest").unwrap().unwrap().unchecked_into();
    area.set_value(text);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict("input", &init).unwrap();
    area.dispatch_event(&event).unwrap();
}

fn clear_saved_manifest() {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.remove_item(podlab::STORAGE_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn shows_the_starter_manifest_and_the_kubernetes_version() {
    clear_saved_manifest();
    let root = mount();
    until(|| !texts(&root, "#documents .kind").is_empty()).await;

    assert_eq!(texts(&root, "#documents .kind"), ["Pod"]);
    assert_eq!(texts(&root, "#documents .name"), ["web"]);
    assert_eq!(texts(&root, "#doc-count"), ["1 document"]);
    assert!(texts(&root, ".version")[0].contains(podlab_engine::KUBERNETES_VERSION));
    assert!(root.query_selector("#yaml-error").unwrap().is_none());
    root.remove();
}

#[wasm_bindgen_test]
async fn lists_every_kind_of_a_multi_document_manifest_and_saves_it() {
    clear_saved_manifest();
    let root = mount();
    let manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: api\n  namespace: shop\n";
    type_into(&root, manifest);
    until(|| texts(&root, "#documents .kind").len() == 2).await;

    assert_eq!(texts(&root, "#documents .kind"), ["Deployment", "Service"]);
    assert_eq!(texts(&root, "#doc-count"), ["2 documents"]);
    assert!(texts(&root, "#documents .meta")[1].contains("namespace shop"));
    assert_eq!(podlab::load_manifest().as_deref(), Some(manifest));
    root.remove();
    clear_saved_manifest();
}

#[wasm_bindgen_test]
async fn shows_the_engine_yaml_error_with_line_and_column() {
    clear_saved_manifest();
    let root = mount();
    type_into(&root, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: app: web\n");
    until(|| root.query_selector("#yaml-error").unwrap().is_some()).await;

    let error = texts(&root, "#yaml-error .message");
    assert_eq!(error, ["line 5, column 14: mapping values are not allowed in this context"]);
    assert_eq!(texts(&root, "#doc-count"), ["No documents"]);
    root.remove();
    clear_saved_manifest();
}
