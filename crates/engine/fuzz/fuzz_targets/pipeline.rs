//! Fuzzes the whole reading of a learner's file: YAML parsing, kubectl's checks and the
//! server's strict decoding, defaulting, create validation, error rendering and the line map.
//! Run: `RUSTC_BOOTSTRAP=1 cargo fuzz run pipeline` from `crates/engine`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use podlab_engine::decode::decode_document;
use podlab_engine::defaults::apply_defaults;
use podlab_engine::errors::{kubectl_stderr, CommandError, GroupKind, Status};
use podlab_engine::linemap::locate_in;
use podlab_engine::manifest::parse_manifest;
use podlab_engine::validation::validate_create;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parsed = parse_manifest(&text);
    for doc in &parsed.documents {
        for dup in &doc.duplicates {
            let _ = locate_in(doc, dup);
        }
        match decode_document(doc) {
            Ok(mut decoded) => {
                let obj = &mut decoded.object;
                let _ = apply_defaults(obj);
                let errs = validate_create(obj);
                for e in &errs {
                    let _ = locate_in(doc, &e.field);
                }
                let gk = obj.resource().map(GroupKind::from).unwrap_or_else(|| GroupKind::new("", obj.kind()));
                let status = Status::invalid(gk, obj.name(), &errs);
                let _ = kubectl_stderr(&[CommandError::Server(status.with_source("creating", "f.yaml"))]);
                let _ = status.to_json();
                let _ = obj.to_yaml();
            }
            Err(e) => {
                let _ = e.kubectl_line("f.yaml");
                for p in e.paths() {
                    let _ = locate_in(doc, p);
                }
            }
        }
    }
    if let Some(e) = &parsed.error {
        let _ = e.kubectl_line("f.yaml");
    }
});
