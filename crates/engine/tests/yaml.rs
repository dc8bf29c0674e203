//! `podlab_engine::yaml::to_string` writes every manifest of the examples and (when they are
//! next to the project, as CI requires) of `../shared/conformance` exactly as `serde_yaml::to_string` does.

mod require_shared;

use serde_json::Value;
use std::path::{Path, PathBuf};

#[test]
fn yaml_of_every_manifest_matches_serde_yaml() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    collect(&root.join("examples"), &mut files);
    let shared = root.join("../shared/conformance");
    if require_shared::present(&shared) {
        collect(&shared, &mut files);
    }
    let mut docs = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        for doc in serde_yaml::Deserializer::from_str(&text) {
            // A document that does not parse ends the file (serde_yaml stops there too).
            let Ok(v) = <Value as serde::Deserialize>::deserialize(doc) else { break };
            assert_eq!(podlab_engine::yaml::to_string(&v), serde_yaml::to_string(&v).unwrap(), "{}", f.display());
            docs += 1;
        }
    }
    println!("{docs} documents of {} files", files.len());
    assert!(docs >= 10, "only {docs} documents under {}", root.display());
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(p);
        }
    }
}
