//! The kubernetes.io example manifests (`../shared/conformance/website-examples`), each applied
//! on the default cluster as kubernetes-admin: every file must be accepted, or rejected the way
//! a fresh kind cluster rejects it (a namespace it expects someone to create first, a kind only
//! a CRD would serve). Skipped, with a message, when `../shared` is not there, unless PODLAB_REQUIRE_SHARED=1 (CI).
//! `cargo run -p podlab-cli -- report website-examples` prints the same report.

#[test]
fn website_examples_are_accepted_or_rejected_as_upstream() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/website-examples");
    let Some(report) = podlab_cli::website_report(&dir) else {
        // CI (`.ci/run`) sets PODLAB_REQUIRE_SHARED=1: there a missing corpus fails.
        assert_ne!(std::env::var("PODLAB_REQUIRE_SHARED").as_deref(), Ok("1"), "{} is absent", dir.display());
        eprintln!("skipped: {} is absent (the shared material sits beside the project)", dir.display());
        return;
    };
    let summary = report.text.lines().last().unwrap_or("").to_string();
    println!("{summary}");
    let ours: Vec<&str> = report.text.lines().filter(|l| l.starts_with("OURS")).collect();
    assert!(ours.is_empty(), "rejected by the lab's fault:\n{}", ours.join("\n"));
    assert!(report.files >= 140, "{summary}");
}
