//! Architecture invariants Cargo cannot check (see ARCHITECTURE.md): the engine reads no wall
//! clock, does no I/O, spawns no threads, draws no entropy from the machine, iterates no
//! randomly ordered hash maps, and depends on nothing web-specific.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("engine sources are readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Patterns that must not appear in the engine's code (tests included: they must not hide
/// a dependency on the machine either, except through this file and the corpus readers in
/// `tests/`).
const FORBIDDEN: &[(&str, &str)] = &[
    ("Instant::now", "wall clock"),
    ("SystemTime", "wall clock"),
    ("Timestamp::now", "wall clock"),
    ("std::time::", "wall clock"),
    ("std::fs", "file I/O"),
    ("std::net", "network I/O"),
    ("std::thread", "threads"),
    ("std::env", "process environment"),
    ("std::process", "processes"),
    ("HashMap", "random iteration order (use BTreeMap)"),
    ("HashSet", "random iteration order (use BTreeSet)"),
    ("RandomState", "entropy from the machine"),
    ("static mut", "mutable global state"),
    ("thread_local!", "per-thread global state"),
    ("wasm_bindgen", "web dependency"),
    ("web_sys", "web dependency"),
    ("js_sys", "web dependency"),
];

#[test]
fn engine_sources_keep_the_invariants() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    assert!(!files.is_empty());
    let mut violations = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for (pattern, why) in FORBIDDEN {
                if code.contains(pattern) {
                    violations.push(format!("{}:{}: `{pattern}` ({why})", file.display(), n + 1));
                }
            }
        }
    }
    assert!(violations.is_empty(), "architecture invariants broken:\n{}", violations.join("\n"));
}

#[test]
fn engine_depends_on_nothing_web_specific() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let deps = manifest.split("[dependencies]").nth(1).unwrap_or("").split("\n[").next().unwrap_or("");
    for banned in ["leptos", "wasm-bindgen", "web-sys", "js-sys", "gloo", "getrandom", "rand", "chrono"] {
        for line in deps.lines() {
            let name = line.split('=').next().unwrap_or("").trim();
            assert_ne!(name, banned, "the engine must not depend on {banned}");
        }
    }
}
