//! Levels, policy versions and the namespace labels that select them.
//!
//! A namespace chooses a Pod Security Standard per mode (`enforce`, `audit`, `warn`) with
//! the labels `pod-security.kubernetes.io/<mode>` and `pod-security.kubernetes.io/<mode>-version`.
//! Unlabelled modes fall back to the cluster defaults (`privileged:latest` for all three
//! unless the admission configuration says otherwise).

use std::collections::BTreeMap;
use std::fmt;

use crate::sort::CollectMap;
use serde::{Deserialize, Serialize};

/// The prefix of every Pod Security label and audit annotation.
pub const LABEL_PREFIX: &str = "pod-security.kubernetes.io/";
pub const ENFORCE_LEVEL_LABEL: &str = "pod-security.kubernetes.io/enforce";
pub const ENFORCE_VERSION_LABEL: &str = "pod-security.kubernetes.io/enforce-version";
pub const AUDIT_LEVEL_LABEL: &str = "pod-security.kubernetes.io/audit";
pub const AUDIT_VERSION_LABEL: &str = "pod-security.kubernetes.io/audit-version";
pub const WARN_LEVEL_LABEL: &str = "pod-security.kubernetes.io/warn";
pub const WARN_VERSION_LABEL: &str = "pod-security.kubernetes.io/warn-version";

/// Audit annotation keys (the API server prefixes them with [`LABEL_PREFIX`]).
pub const EXEMPT_ANNOTATION: &str = "exempt";
pub const AUDIT_VIOLATIONS_ANNOTATION: &str = "audit-violations";
pub const ENFORCED_POLICY_ANNOTATION: &str = "enforce-policy";
pub const ERROR_ANNOTATION: &str = "error";

/// The newest policy version the lab's check registry knows (`latest` evaluates as this).
pub const LATEST_MINOR: u64 = 37;

/// A Pod Security Standard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    Privileged,
    Baseline,
    Restricted,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Privileged, Level::Baseline, Level::Restricted];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Privileged => "privileged",
            Level::Baseline => "baseline",
            Level::Restricted => "restricted",
        }
    }

    /// Parses a level label value. An unknown value is an error, and upstream then
    /// evaluates `restricted` (the caller decides whether to fail open instead).
    pub fn parse(value: &str) -> Result<Level, String> {
        match value {
            "privileged" => Ok(Level::Privileged),
            "baseline" => Ok(Level::Baseline),
            "restricted" => Ok(Level::Restricted),
            _ => Err("must be one of privileged, baseline, restricted".to_string()),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A policy version: `latest` or `v1.<minor>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Version {
    Latest,
    /// `v1.<minor>`; any minor is accepted, newer than the registry means "the newest known".
    Minor(u64),
}

impl Version {
    /// Parses a version label value: `latest` or `v1.<n>` (no leading zeros). Anything else
    /// is an error, and upstream then evaluates `latest`.
    pub fn parse(value: &str) -> Result<Version, String> {
        const MSG: &str = r#"must be "latest" or "v1.x""#;
        if value == "latest" {
            return Ok(Version::Latest);
        }
        let Some(minor) = value.strip_prefix("v1.") else {
            return Err(MSG.to_string());
        };
        let digits_ok = !minor.is_empty()
            && minor.bytes().all(|b| b.is_ascii_digit())
            && (minor.len() == 1 || !minor.starts_with('0'));
        if !digits_ok {
            return Err(MSG.to_string());
        }
        // Go parses into a signed 64-bit int; a number beyond it is invalid.
        match minor.parse::<i64>() {
            Ok(n) if n >= 0 => Ok(Version::Minor(n as u64)),
            _ => Err(MSG.to_string()),
        }
    }

    /// `true` if `self` is strictly older than `other`; `latest` is newer than every version.
    pub fn older(self, other: Version) -> bool {
        match (self, other) {
            (Version::Latest, _) => false,
            (Version::Minor(_), Version::Latest) => true,
            (Version::Minor(a), Version::Minor(b)) => a < b,
        }
    }

    /// The minor version whose checks apply: `latest` and anything newer than the registry
    /// evaluate as the newest registered version.
    pub fn effective_minor(self) -> u64 {
        match self {
            Version::Latest => LATEST_MINOR,
            Version::Minor(m) => m.min(LATEST_MINOR),
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Version::Latest => f.write_str("latest"),
            Version::Minor(m) => write!(f, "v1.{m}"),
        }
    }
}

/// A level at a version, printed `restricted:latest`, `baseline:v1.30`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LevelVersion {
    pub level: Level,
    pub version: Version,
}

impl LevelVersion {
    pub const fn new(level: Level, version: Version) -> LevelVersion {
        LevelVersion { level, version }
    }

    /// Both privileged, or equal level and version.
    pub fn equivalent(&self, other: &LevelVersion) -> bool {
        (self.level == Level::Privileged && other.level == Level::Privileged) || self == other
    }
}

impl fmt::Display for LevelVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.level, self.version)
    }
}

/// The three modes of a namespace's policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    Enforce,
    Audit,
    Warn,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Enforce => "enforce",
            Mode::Audit => "audit",
            Mode::Warn => "warn",
        }
    }

    pub fn level_label(self) -> &'static str {
        match self {
            Mode::Enforce => ENFORCE_LEVEL_LABEL,
            Mode::Audit => AUDIT_LEVEL_LABEL,
            Mode::Warn => WARN_LEVEL_LABEL,
        }
    }

    pub fn version_label(self) -> &'static str {
        match self {
            Mode::Enforce => ENFORCE_VERSION_LABEL,
            Mode::Audit => AUDIT_VERSION_LABEL,
            Mode::Warn => WARN_VERSION_LABEL,
        }
    }
}

/// Enforce, audit and warn level-versions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Policy {
    pub enforce: LevelVersion,
    pub audit: LevelVersion,
    pub warn: LevelVersion,
}

impl Policy {
    /// The built-in default of the API server: `privileged:latest` for every mode.
    pub const PRIVILEGED: Policy = Policy {
        enforce: LevelVersion::new(Level::Privileged, Version::Latest),
        audit: LevelVersion::new(Level::Privileged, Version::Latest),
        warn: LevelVersion::new(Level::Privileged, Version::Latest),
    };

    pub fn get(&self, mode: Mode) -> LevelVersion {
        match mode {
            Mode::Enforce => self.enforce,
            Mode::Audit => self.audit,
            Mode::Warn => self.warn,
        }
    }

    pub fn fully_privileged(&self) -> bool {
        self.enforce.level == Level::Privileged
            && self.audit.level == Level::Privileged
            && self.warn.level == Level::Privileged
    }

    pub fn equivalent(&self, other: &Policy) -> bool {
        self.enforce.equivalent(&other.enforce)
            && self.audit.equivalent(&other.audit)
            && self.warn.equivalent(&other.warn)
    }
}

impl Default for Policy {
    fn default() -> Policy {
        Policy::PRIVILEGED
    }
}

/// An invalid Pod Security label, reported as an Invalid field error on
/// `metadata.labels[<label>]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelError {
    pub label: String,
    pub value: String,
    /// e.g. `must be one of privileged, baseline, restricted`.
    pub detail: String,
}

impl LabelError {
    /// `metadata.labels[pod-security.kubernetes.io/enforce]`
    pub fn field(&self) -> String {
        format!("metadata.labels[{}]", self.label)
    }

    /// The error body without the field: `Invalid value: "foo": must be one of ...`.
    pub fn body(&self) -> String {
        format!("Invalid value: {}: {}", go_quote(&self.value), self.detail)
    }
}

impl fmt::Display for LabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field(), self.body())
    }
}

/// Several errors as one message, the way Kubernetes aggregates them: one error alone,
/// otherwise `[a, b]` with repeated messages left out.
pub fn aggregate_errors(errors: &[LabelError]) -> String {
    let mut seen: Vec<String> = Vec::new();
    for e in errors {
        let msg = e.to_string();
        if !seen.contains(&msg) {
            seen.push(msg);
        }
    }
    match seen.len() {
        0 => String::new(),
        1 => seen.remove(0),
        _ => format!("[{}]", seen.join(", ")),
    }
}

/// The policy a namespace's labels select, with the label problems found on the way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamespacePolicy {
    pub policy: Policy,
    /// Invalid label values, in label order enforce, enforce-version, audit, audit-version,
    /// warn, warn-version.
    pub errors: Vec<LabelError>,
    /// The Pod Security labels the namespace carried (other labels left out).
    pub labels: BTreeMap<String, String>,
    /// Warn was not labelled and took the stricter enforce level.
    pub warn_follows_enforce: bool,
}

impl NamespacePolicy {
    pub fn has_label(&self, label: &str) -> bool {
        self.labels.contains_key(label)
    }
}

/// Resolves a namespace's labels against the lab's defaults (`privileged:latest` everywhere).
pub fn policy_for_namespace(labels: &BTreeMap<String, String>) -> NamespacePolicy {
    policy_with_defaults(labels, &Policy::PRIVILEGED)
}

/// Resolves a namespace's labels, falling back to `defaults` for unlabelled modes.
///
/// Invalid values are reported and replaced: an invalid enforce level evaluates as
/// `restricted` (fail closed), an invalid audit or warn level as `privileged` (fail open),
/// and an invalid version as `latest`. A valid policy is always returned. When warn is not
/// labelled, it follows a valid enforce level that is stricter than it (and takes the
/// enforce version too unless warn-version is labelled).
pub fn policy_with_defaults(labels: &BTreeMap<String, String>, defaults: &Policy) -> NamespacePolicy {
    let mut p = *defaults;
    let mut errors = Vec::new();
    let own: BTreeMap<String, String> =
        labels.iter().filter(|(k, _)| k.starts_with(LABEL_PREFIX)).map(|(k, v)| (k.clone(), v.clone())).collect_map();
    let mut err = |label: &str, value: &str, detail: String| {
        errors.push(LabelError { label: label.to_string(), value: value.to_string(), detail });
    };

    let mut has_enforce_level = false;
    if let Some(v) = labels.get(ENFORCE_LEVEL_LABEL) {
        match Level::parse(v) {
            Ok(l) => {
                p.enforce.level = l;
                has_enforce_level = true;
            }
            Err(e) => {
                p.enforce.level = Level::Restricted;
                err(ENFORCE_LEVEL_LABEL, v, e);
            }
        }
    }
    if let Some(v) = labels.get(ENFORCE_VERSION_LABEL) {
        p.enforce.version = Version::parse(v).unwrap_or_else(|e| {
            err(ENFORCE_VERSION_LABEL, v, e);
            Version::Latest
        });
    }
    if let Some(v) = labels.get(AUDIT_LEVEL_LABEL) {
        p.audit.level = Level::parse(v).unwrap_or_else(|e| {
            err(AUDIT_LEVEL_LABEL, v, e);
            Level::Privileged
        });
    }
    if let Some(v) = labels.get(AUDIT_VERSION_LABEL) {
        p.audit.version = Version::parse(v).unwrap_or_else(|e| {
            err(AUDIT_VERSION_LABEL, v, e);
            Version::Latest
        });
    }
    let has_warn_level = labels.contains_key(WARN_LEVEL_LABEL);
    if let Some(v) = labels.get(WARN_LEVEL_LABEL) {
        p.warn.level = Level::parse(v).unwrap_or_else(|e| {
            err(WARN_LEVEL_LABEL, v, e);
            Level::Privileged
        });
    }
    let has_warn_version = labels.contains_key(WARN_VERSION_LABEL);
    if let Some(v) = labels.get(WARN_VERSION_LABEL) {
        p.warn.version = Version::parse(v).unwrap_or_else(|e| {
            err(WARN_VERSION_LABEL, v, e);
            Version::Latest
        });
    }

    let mut warn_follows_enforce = false;
    if !has_warn_level && has_enforce_level && p.enforce.level > p.warn.level {
        p.warn.level = p.enforce.level;
        if !has_warn_version {
            p.warn.version = p.enforce.version;
        }
        warn_follows_enforce = true;
    }

    NamespacePolicy { policy: p, errors, labels: own, warn_follows_enforce }
}

/// Go's `%q` for a string: double quotes, with `"` and `\` escaped and control or
/// non-printing characters written as escapes.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() || (c.is_whitespace() && c != ' ') => {
                if (c as u32) <= 0xffff {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                } else {
                    out.push_str(&format!("\\U{:08x}", c as u32));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
