//! Runs parse → decode → defaults → validation over the kubernetes.io example manifests
//! (`../shared/conformance/website-examples`) and asserts that the only rejected files are the
//! ones a real cluster rejects too. `_newer-unverified/` is run and printed, not asserted.
//! Print the full report with `cargo run -p podlab-engine --example corpus`.

mod corpus_support;
mod require_shared;

use std::path::Path;

/// Files of the verified snapshot that a v1.37 cluster rejects as well, and why.
const GENUINELY_REJECTED: &[(&str, &str)] = &[
    (
        "application/job/job-tmpl.yaml",
        "a template: `$ITEM` placeholders are meant to be replaced (sed) before use, so the name and label are invalid",
    ),
    (
        "pods/security/seccomp/kind.yaml",
        "a kind (kind.x-k8s.io) cluster configuration, not a Kubernetes API object: no such kind on the server",
    ),
];

#[test]
fn website_examples_are_accepted() {
    let root = corpus_support::examples_path();
    if !require_shared::present(&root) {
        return;
    }
    let main = corpus_support::run_tree(&root, Path::new("."), Some("_newer-unverified"));
    println!("{}", main.text);
    println!("snapshot: {} files, {} documents, {} accepted", main.files, main.documents, main.accepted);
    let mut rejected: Vec<&str> = main.rejections.iter().map(|(f, _)| f.as_str()).collect();
    rejected.dedup();
    let expected: Vec<&str> = GENUINELY_REJECTED.iter().map(|(f, _)| *f).collect();
    assert_eq!(rejected, expected, "unexpected rejections:\n{:#?}", main.rejections);
    assert!(main.files >= 140, "the snapshot should hold about 147 files, found {}", main.files);

    let newer = corpus_support::run_tree(&root, Path::new("_newer-unverified"), None);
    println!("{}", newer.text);
    println!(
        "_newer-unverified (not asserted): {} files, {} documents, {} accepted, {} rejected",
        newer.files,
        newer.documents,
        newer.accepted,
        newer.rejections.len()
    );
}
