//! The podlab web app (Leptos, client-side rendered). It sends the learner's input to the
//! engine and renders what comes back; it computes no Kubernetes behaviour itself.

use leptos::prelude::*;
use podlab_engine::manifest::parse_manifest;

const STARTER: &str =
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n";

#[component]
pub fn App() -> impl IntoView {
    let (text, set_text) = signal(STARTER.to_string());
    let parsed = Memo::new(move |_| parse_manifest(&text.get()));
    view! {
        <main>
            <h1>"podlab"</h1>
            <p>"Kubernetes " {podlab_engine::KUBERNETES_VERSION}</p>
            <label for="manifest">"Manifest"</label>
            <textarea id="manifest" prop:value=text on:input=move |ev| set_text.set(event_target_value(&ev))></textarea>
            <ul id="documents">
                {move || parsed.get().documents.into_iter().map(|d| view! { <li>{d.kind} " " {d.name.unwrap_or_default()}</li> }).collect_view()}
            </ul>
            <p id="yaml-error">{move || parsed.get().error.map(|e| e.to_string())}</p>
        </main>
    }
}
