//! Sharing: the "Copy link" button (the permalink of the view shown) and the notices about
//! a link in the URL (a shared lab is shown; a link could not be opened).

use super::{page_url_without_hash, Lab};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What the last copy did.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Copied {
    No,
    Yes,
    Failed,
}

/// The full URL of the view shown.
pub fn current_link(lab: Lab) -> String {
    format!("{}#{}", page_url_without_hash(), crate::share::encode(&lab.permalink()))
}

/// Writes `text` to the clipboard; resolves to whether the browser allowed it.
async fn write_clipboard(text: String) -> bool {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else { return false };
    // `navigator.clipboard` is missing on insecure origins: check before calling it.
    let has = js_sys::Reflect::get(&nav, &"clipboard".into()).map(|v| !v.is_undefined()).unwrap_or(false);
    if !has {
        return false;
    }
    wasm_bindgen_futures::JsFuture::from(nav.clipboard().write_text(&text)).await.is_ok()
}

/// "Copy link": copies the permalink and shows it in a selectable field (the fallback when
/// the browser does not allow the clipboard, and a way to see what was copied).
#[component]
pub fn CopyLink() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let link = RwSignal::new(None::<String>);
    let copied = RwSignal::new(Copied::No);
    let field: NodeRef<leptos::html::Input> = NodeRef::new();
    let copy = move |_| {
        let url = current_link(lab);
        link.set(Some(url.clone()));
        copied.set(Copied::No);
        leptos::task::spawn_local(async move {
            let ok = write_clipboard(url).await;
            copied.set(if ok { Copied::Yes } else { Copied::Failed });
            if !ok {
                if let Some(input) = field.get_untracked() {
                    let _ = input.focus();
                    input.select();
                }
            }
        });
    };
    view! {
        <div class="share">
            <button type="button" id="copy-link" on:click=copy>
                "Copy link"
            </button>
            {move || {
                link.get()
                    .map(|url| {
                        view! {
                            <div class="share-box" id="share-box">
                                <label for="share-url">"Link to this view (manifest, cluster, identity, step)"</label>
                                <input
                                    id="share-url"
                                    type="text"
                                    readonly=true
                                    node_ref=field
                                    prop:value=url
                                    on:focus=move |ev| {
                                        if let Some(i) = ev
                                            .target()
                                            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                                        {
                                            i.select();
                                        }
                                    }
                                />
                                <p id="share-status" role="status">
                                    {move || match copied.get() {
                                        Copied::No => "",
                                        Copied::Yes => "Copied to the clipboard.",
                                        Copied::Failed => {
                                            "The browser did not allow copying: the link is selected above, copy it with Ctrl+C (⌘C)."
                                        }
                                    }}
                                </p>
                                <button type="button" class="link-button" on:click=move |_| link.set(None)>
                                    "Close"
                                </button>
                            </div>
                        }
                    })
            }}
        </div>
    }
}

/// The notices about the URL's link: a shared lab is shown, or the link could not be opened.
#[component]
pub fn LinkNotices() -> impl IntoView {
    let lab = expect_context::<Lab>();
    view! {
        {move || {
            lab.link_error
                .get()
                .map(|e| {
                    view! {
                        <div class="notice link-notice" id="link-notice" role="alert">
                            <p>
                                <strong>"This link cannot be opened: "</strong>
                                {e}
                                ". You see "
                                {if lab.embedded { "the lab's default example" } else { "your own lab" }}
                                " instead."
                            </p>
                            <button type="button" on:click=move |_| lab.link_error.set(None)>
                                "Dismiss"
                            </button>
                        </div>
                    }
                })
        }}
        {move || {
            lab.linked
                .get()
                .then(|| {
                    view! {
                        <div class="notice link-banner" id="link-banner" role="status">
                            <p>
                                "You are looking at a shared lab. Your own manifest is still saved in this browser; "
                                "editing this one makes it yours and replaces it."
                            </p>
                            <button type="button" on:click=move |_| lab.leave_link()>
                                "Back to my lab"
                            </button>
                        </div>
                    }
                })
        }}
    }
}
