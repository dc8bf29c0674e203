//! What the lab keeps in the browser (localStorage): the learner's manifest (saved on every
//! edit, so a reload or a crash never loses it), the cluster and identity settings, the
//! theme, and a marker that says a run is in progress (if the page dies during a run, the
//! next visit does not start the same run again by itself).

use serde::{Deserialize, Serialize};

/// The manifest text.
pub const MANIFEST_KEY: &str = "podlab.manifest";
/// The lab settings ([`Settings`], JSON).
pub const SETTINGS_KEY: &str = "podlab.settings";
/// `light`, `dark`, or absent (follow the system).
pub const THEME_KEY: &str = "podlab.theme";
/// The session's commands typed in the terminal after the apply (a JSON list of lines).
pub const SESSION_KEY: &str = "podlab.session";
/// Present while the engine runs; a page that died mid-run leaves it behind.
pub const RUNNING_KEY: &str = "podlab.running";

/// Everything about a run but the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The engine preset the cluster text came from, or `custom` once edited.
    pub preset: String,
    /// The cluster YAML (a preset's text until the learner edits it).
    pub cluster: String,
    /// The kubeconfig user (`--user`); empty for the cluster's `currentUser`.
    pub user: String,
    /// `--as`; empty for no impersonation.
    pub as_user: String,
    /// `--as-group`, separated by commas or spaces.
    pub as_groups: String,
    /// The file name kubectl is given.
    pub file: String,
    /// The starter last picked (for the picker).
    pub starter: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            preset: "kind".into(),
            cluster: podlab_engine::cluster::DEFAULT_CLUSTER.into(),
            user: String::new(),
            as_user: String::new(),
            as_groups: String::new(),
            file: "pod.yaml".into(),
            starter: "pod".into(),
        }
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

pub fn get(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok().flatten()
}

/// Saves a value; a browser that refuses storage (private mode, quota) loses only that.
pub fn set(key: &str, value: &str) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(key, value);
    }
}

/// Saves a value and says whether the browser kept it (a full quota or disabled storage
/// gives `Err` with the browser's reason).
pub fn try_set(key: &str, value: &str) -> Result<(), String> {
    let s = local_storage().ok_or_else(|| "this browser keeps no local storage".to_string())?;
    s.set_item(key, value).map_err(|e| {
        // A DOMException is not a string: its name says what happened.
        let field = |name: &str| js_sys::Reflect::get(&e, &name.into()).ok().and_then(|v| v.as_string());
        match (e.as_string(), field("name")) {
            (Some(text), _) => text,
            (None, Some(name)) if name == "QuotaExceededError" => {
                "it is over the browser's storage quota (QuotaExceededError)".into()
            }
            (None, Some(name)) => field("message").filter(|m| !m.is_empty()).unwrap_or(name),
            (None, None) => "the browser refused to store it".into(),
        }
    })
}

pub fn remove(key: &str) {
    if let Some(s) = local_storage() {
        let _ = s.remove_item(key);
    }
}

/// The manifest saved by an earlier visit, if the browser kept one.
pub fn load_manifest() -> Option<String> {
    get(MANIFEST_KEY)
}

/// Saves the manifest; `Err` says why the browser did not keep it (a text over the quota,
/// about 5 MB, or storage disabled), and the manifest saved before stays.
pub fn save_manifest(text: &str) -> Result<(), String> {
    try_set(MANIFEST_KEY, text)
}

/// The session's saved commands (none when absent or unreadable).
pub fn load_session() -> Vec<String> {
    get(SESSION_KEY).and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

/// Saves the session's commands (an empty session removes the key).
pub fn save_session(lines: &[String]) {
    if lines.is_empty() {
        remove(SESSION_KEY);
    } else {
        set(SESSION_KEY, &serde_json::to_string(lines).unwrap_or_default());
    }
}

/// The saved settings, or the defaults (also for unreadable JSON).
pub fn load_settings() -> Settings {
    get(SETTINGS_KEY).and_then(|s| serde_json::from_str(&s).ok()).unwrap_or_default()
}

pub fn save_settings(s: &Settings) {
    if let Ok(json) = serde_json::to_string(s) {
        set(SETTINGS_KEY, &json);
    }
}
