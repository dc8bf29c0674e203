//! The podlab web app (Leptos, client-side rendered). It hands the learner's manifest,
//! cluster and identity to the engine (`podlab_engine::lab::run`) and renders the run that
//! comes back: the editor with the engine's errors on their lines, the timeline of steps, each
//! step's detail, kubectl's terminal panes, the sequence diagram and the cluster's nodes. It
//! computes no Kubernetes behaviour itself.
//!
//! Plain-Rust modules hold the logic (tested natively and in the browser); `ui` holds the
//! components.

pub mod diagram;
pub mod embed;
pub mod explain;
pub mod highlight;
pub mod learn;
pub mod share;
pub mod starters;
pub mod state;
pub mod storage;
pub mod ui;

pub use storage::MANIFEST_KEY as STORAGE_KEY;

/// Small blocks come from per-size free lists in front of Rust's default wasm allocator
/// (`podlab-alloc`): an engine run allocates and frees tens of thousands of them.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: podlab_alloc::SizeClasses<std::alloc::System> = podlab_alloc::SizeClasses::new(std::alloc::System);
pub use ui::App;

/// Shows a recovery message when the app panics: the learner's text is already saved (on
/// every edit), so a reload brings it back; the message also shows the text to copy.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        ui::show_recovery(&info.to_string());
    }));
}
