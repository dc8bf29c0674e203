//! Browser tests of the web app: the plain-Rust state logic compiled to wasm32, and the app
//! mounted in headless Chromium, read through the DOM.
//! Run with `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p podlab`
//! (see CONTRIBUTING.md). Natively this file compiles to nothing.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use podlab::state::{lab_input, LabRun};
use podlab::storage::{self, Settings};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn clear_storage() {
    for key in [storage::MANIFEST_KEY, storage::SETTINGS_KEY, storage::RUNNING_KEY, storage::THEME_KEY] {
        storage::remove(key);
    }
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

/// Waits (at most about five seconds: CI machines are busy) until the reactive updates have
/// reached the DOM.
async fn until(mut done: impl FnMut() -> bool) -> bool {
    for _ in 0..500 {
        if done() {
            return true;
        }
        TimeoutFuture::new(10).await;
    }
    done()
}

fn type_into(root: &Element, text: &str) {
    let area: HtmlTextAreaElement = root.query_selector("#manifest").unwrap().unwrap().unchecked_into();
    area.set_value(text);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict("input", &init).unwrap();
    area.dispatch_event(&event).unwrap();
}

fn click(root: &Element, selector: &str) {
    let el: HtmlElement = root.query_selector(selector).unwrap().unwrap().unchecked_into();
    el.click();
}

/// The engine runs in the browser exactly as natively: the state module's derived data.
#[wasm_bindgen_test]
fn the_engine_runs_in_wasm_and_the_state_indexes_it() {
    let starter = podlab::starters::by_id("forbidden").unwrap();
    let settings = Settings {
        preset: starter.preset.into(),
        cluster: podlab_engine::cluster::preset(starter.preset).unwrap().into(),
        file: starter.file.into(),
        ..Settings::default()
    };
    let run = LabRun::start(&lab_input(starter.yaml, &settings)).unwrap();
    assert_eq!(run.phases.len(), 15);
    let failure = run.failure.clone().unwrap();
    assert_eq!(failure.phase, podlab_engine::trace::Phase::Authorization);
    assert!(failure.message.contains("User \"alice\" cannot create resource \"pods\""), "{}", failure.message);
    assert_eq!(run.markers.len(), 1);
    assert_eq!(run.markers[0].title(), "Forbidden");
    assert!(run.views_at(run.last()).get_pods.starts_with("No resources found in dev namespace."));
}

#[wasm_bindgen_test]
fn settings_survive_a_round_trip_through_local_storage() {
    clear_storage();
    assert_eq!(storage::load_settings(), Settings::default());
    let s = Settings { as_user: "alice".into(), as_groups: "dev".into(), ..Settings::default() };
    storage::save_settings(&s);
    assert_eq!(storage::load_settings(), s);
    storage::set(storage::SETTINGS_KEY, "{not json");
    assert_eq!(storage::load_settings(), Settings::default());
    clear_storage();
}

#[wasm_bindgen_test]
async fn the_app_runs_the_starter_and_steps_through_it() {
    clear_storage();
    let root = mount();
    assert!(until(|| texts(&root, "#phases > li").len() == 15).await, "the timeline lists the 15 phases");
    assert!(texts(&root, ".version")[0].contains(podlab_engine::KUBERNETES_VERSION));
    let position = texts(&root, "#position")[0].clone();
    assert!(position.starts_with("Step 1 of "), "{position}");
    assert!(texts(&root, "#live")[0].starts_with("Step 1 of "));

    click(&root, "#forward");
    assert!(until(|| texts(&root, "#position")[0].starts_with("Step 2 of ")).await);
    assert!(texts(&root, "#step-summary")[0].starts_with("authenticated as kubernetes-admin"));
    click(&root, "#back");
    assert!(until(|| texts(&root, "#position")[0].starts_with("Step 1 of ")).await);

    click(&root, "#last");
    assert!(until(|| texts(&root, "#pane-body")[0].contains("pod/web created")).await);
    root.remove();
    clear_storage();
}

#[wasm_bindgen_test]
async fn a_yaml_error_is_marked_on_its_line_and_the_text_is_saved() {
    clear_storage();
    let root = mount();
    let broken = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: app: web\n";
    type_into(&root, broken);
    assert!(until(|| !texts(&root, ".marker").is_empty()).await);
    let marker = texts(&root, ".marker")[0].clone();
    assert!(marker.contains("line 5, column 14"), "{marker}");
    assert!(marker.contains("mapping values are not allowed"), "{marker}");
    assert_eq!(texts(&root, ".gutter .ln.err"), ["5"]);
    assert_eq!(storage::load_manifest().as_deref(), Some(broken));
    root.remove();
    clear_storage();
}
