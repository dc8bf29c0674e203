//! The podlab web app (Leptos, client-side rendered). It hands the learner's text to the
//! engine and renders what comes back; it computes no Kubernetes behaviour itself.
//!
//! This first slice is the manifest editor and the engine's reading of it: the documents
//! and kinds it found, or the YAML error with its line and column.

use leptos::prelude::*;
use podlab_engine::manifest::parse_manifest;
use podlab_engine::KUBERNETES_VERSION;

/// The manifest a first visit starts with.
pub const STARTER: &str = "\
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: web
spec:
  containers:
  - name: web
    image: nginx:1.29
    ports:
    - containerPort: 80
";

/// The localStorage key under which the learner's manifest survives a reload.
pub const STORAGE_KEY: &str = "podlab.manifest";

/// One document of the manifest, as the page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocRow {
    pub kind: String,
    pub name: String,
    pub api_version: String,
    pub namespace: Option<String>,
    /// 1-based line where the document starts.
    pub line: usize,
}

/// What the page shows for a manifest: the engine's documents and its error, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    pub documents: Vec<DocRow>,
    /// The engine's YAML error, `line L, column C: message`.
    pub error: Option<String>,
}

fn or_placeholder(value: String, placeholder: &str) -> String {
    if value.is_empty() {
        placeholder.to_string()
    } else {
        value
    }
}

/// Asks the engine to read `text` and keeps what the page displays.
pub fn outline(text: &str) -> Outline {
    let parsed = parse_manifest(text);
    Outline {
        documents: parsed
            .documents
            .into_iter()
            .map(|d| DocRow {
                kind: or_placeholder(d.kind, "(no kind)"),
                name: or_placeholder(d.name.unwrap_or_default(), "(no name)"),
                api_version: or_placeholder(d.api_version, "(no apiVersion)"),
                namespace: d.namespace,
                line: d.line,
            })
            .collect(),
        error: parsed.error.map(|e| e.to_string()),
    }
}

/// "No documents", "1 document", "3 documents".
pub fn count_label(n: usize) -> String {
    match n {
        0 => "No documents".to_string(),
        1 => "1 document".to_string(),
        n => format!("{n} documents"),
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The manifest saved by an earlier visit, if the browser kept one.
pub fn load_manifest() -> Option<String> {
    local_storage()?.get_item(STORAGE_KEY).ok().flatten()
}

/// Saves the manifest; a browser that refuses storage (private mode, quota) loses only that.
pub fn save_manifest(text: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(STORAGE_KEY, text);
    }
}

#[component]
fn DocumentItem(doc: DocRow) -> impl IntoView {
    let namespace = doc.namespace.map(|ns| format!(" · namespace {ns}"));
    view! {
        <li class="doc">
            <span class="kind">{doc.kind}</span>
            <span class="name">{doc.name}</span>
            <span class="meta">{doc.api_version} " · line " {doc.line} {namespace}</span>
        </li>
    }
}

#[component]
pub fn App() -> impl IntoView {
    let (text, set_text) = signal(load_manifest().unwrap_or_else(|| STARTER.to_string()));
    let result = Memo::new(move |_| text.with(|t| outline(t)));
    let edit = move |value: String| {
        save_manifest(&value);
        set_text.set(value);
    };
    view! {
        <header class="topbar">
            <h1 class="brand">"podlab"</h1>
            <p class="tagline">"a Kubernetes learning lab"</p>
            <p class="version" title="The Kubernetes release whose behaviour podlab models">
                "Kubernetes " {KUBERNETES_VERSION}
            </p>
        </header>
        <main class="slice">
            <section class="panel" aria-labelledby="manifest-label">
                <div class="panel-head">
                    <label id="manifest-label" for="manifest" class="panel-title">
                        "Manifest"
                    </label>
                    <button type="button" on:click=move |_| edit(STARTER.to_string())>
                        "Restore example"
                    </button>
                </div>
                <p id="manifest-hint" class="hint">
                    "Paste or type YAML; separate documents with " <code>"---"</code>
                    ". Your text is kept in this browser."
                </p>
                <textarea
                    id="manifest"
                    spellcheck="false"
                    autocomplete="off"
                    autocapitalize="off"
                    aria-describedby="manifest-hint"
                    prop:value=text
                    on:input=move |ev| edit(event_target_value(&ev))
                ></textarea>
            </section>
            <section class="panel" aria-labelledby="result-title">
                <div class="panel-head">
                    <h2 id="result-title" class="panel-title">"What the engine read"</h2>
                    <p id="doc-count" class="count" role="status">
                        {move || result.with(|r| count_label(r.documents.len()))}
                    </p>
                </div>
                <ol id="documents" class="documents">
                    {move || {
                        result
                            .get()
                            .documents
                            .into_iter()
                            .map(|doc| view! { <DocumentItem doc /> })
                            .collect_view()
                    }}
                </ol>
                {move || {
                    result
                        .get()
                        .error
                        .map(|error| {
                            view! {
                                <div id="yaml-error" class="error" role="alert">
                                    <strong>"YAML error"</strong>
                                    <span class="message">{error}</span>
                                </div>
                            }
                        })
                }}
            </section>
        </main>
        <footer class="foot">
            "Everything runs in your browser: the podlab engine, compiled to WebAssembly."
        </footer>
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    fn check(text: &str, expect: Expect) {
        let outline = outline(text);
        let mut out = format!("{}\n", count_label(outline.documents.len()));
        for d in &outline.documents {
            out += &format!(
                "line {}: {} {} {} ns={}\n",
                d.line,
                d.api_version,
                d.kind,
                d.name,
                d.namespace.as_deref().unwrap_or("-")
            );
        }
        if let Some(e) = &outline.error {
            out += &format!("error: {e}\n");
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn starter_is_one_valid_pod() {
        check(
            STARTER,
            expect![[r#"
                1 document
                line 1: v1 Pod web ns=-
            "#]],
        );
    }

    #[test]
    fn two_documents_and_placeholders() {
        check(
            "kind: ConfigMap\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\n",
            expect![[r#"
                2 documents
                line 1: (no apiVersion) ConfigMap (no name) ns=-
                line 3: v1 Service web ns=shop
            "#]],
        );
    }

    #[test]
    fn error_keeps_documents_read_before_it() {
        check(
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: dev\n---\nkind: Pod\nmetadata:\n  name: web\n  labels: app: web\n",
            expect![[r#"
                1 document
                line 1: v1 Namespace dev ns=-
                error: line 9, column 14: mapping values are not allowed in this context
            "#]],
        );
    }

    #[test]
    fn empty_text_has_no_documents() {
        check(
            "",
            expect![[r#"
            No documents
        "#]],
        );
    }
}
