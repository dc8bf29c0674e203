//! Upstream's Pod Security fixtures (`shared/conformance/pod-security/<level>/v1.37/`):
//! every `pass/` pod must be allowed and every `fail/` pod denied at that level and
//! version, and a failing pod must fail the check its file is named after.

mod require_shared;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use k8s_openapi::api::core::v1::Pod;
use podlab_engine::object::Object;
use podlab_engine::pod_security::{
    admit, check_def, evaluate_pod, policy_for_namespace, AdmissionRequest, Level, Operation, PodSecurityConfig,
    PsaOutcome, Version, ENFORCE_LEVEL_LABEL, ENFORCE_VERSION_LABEL,
};

const VERSION: &str = "v1.37";

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        fs::read_dir(dir).map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "yaml"));
    files.sort();
    files
}

/// `capabilities_baseline0.yaml` -> `capabilities_baseline`.
fn check_prefix(path: &Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    stem.trim_end_matches(|c: char| c.is_ascii_digit()).to_string()
}

/// Upstream runs these fixtures through a real API server (dry-run creates), so PodSecurity
/// sees them after defaulting. The one default that matters to a check: a volume with no
/// source becomes an `emptyDir` (`SetDefaults_Volume`), which restrictedVolumes allows.
fn with_api_defaults(mut pod: Pod) -> Pod {
    for v in pod.spec.iter_mut().flat_map(|s| s.volumes.iter_mut().flatten()) {
        let empty = serde_json::to_value(&*v).ok().and_then(|j| j.as_object().map(|m| m.len() == 1)).unwrap_or(false);
        if empty {
            v.empty_dir = Some(Default::default());
        }
    }
    pod
}

/// Whether check `id` is the one a file prefix names, or the restricted check that replaces
/// it (restrictedVolumes for hostPathVolumes, procMount_restricted for procMount, ...).
fn names_check(id: &str, prefix: &str, version: Version) -> bool {
    if id.to_lowercase() == prefix {
        return true;
    }
    let minor = version.effective_minor();
    check_def(id).and_then(|c| c.at(minor)).is_some_and(|v| v.overrides.iter().any(|o| o.to_lowercase() == prefix))
}

#[test]
fn pod_security_fixtures_v1_37() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/pod-security");
    if !require_shared::present(&root) {
        return;
    }
    let version = Version::parse(VERSION).expect("fixture version parses");
    let config = PodSecurityConfig::default();
    let mut failures = Vec::new();
    let mut total = 0;

    for level in [Level::Baseline, Level::Restricted] {
        let dir = root.join(level.as_str()).join(VERSION);
        let labels = BTreeMap::from([
            (ENFORCE_LEVEL_LABEL.to_string(), level.as_str().to_string()),
            (ENFORCE_VERSION_LABEL.to_string(), VERSION.to_string()),
        ]);
        let ns_policy = policy_for_namespace(&labels);
        let mut figures = Vec::new();
        for expect_allowed in [true, false] {
            let files = yaml_files(&dir.join(if expect_allowed { "pass" } else { "fail" }));
            let mut ok = 0;
            for path in &files {
                total += 1;
                let text = fs::read_to_string(path).unwrap_or_default();
                let pod: Pod = match serde_yaml::from_str(&text) {
                    Ok(p) => p,
                    Err(e) => {
                        failures.push(format!("{}: does not decode: {e}", path.display()));
                        continue;
                    }
                };
                let pod = with_api_defaults(pod);
                let spec = pod.spec.clone().unwrap_or_default();
                let results = evaluate_pod(level, version, &pod.metadata, &spec);
                let failed: Vec<&str> = results.iter().filter(|r| !r.allowed).map(|r| r.id.as_str()).collect();

                // The same pod through the whole plugin, in a namespace enforcing the level.
                let object = Object::from(pod.clone());
                let outcome =
                    admit(&config, &ns_policy, &AdmissionRequest::new(Operation::Create, &object).with_namespace("ns"));

                let mut problems = Vec::new();
                // Without its explanation (the API server's summarised requests) the outcome
                // is the same in everything but that text.
                let request = AdmissionRequest::new(Operation::Create, &object).with_namespace("ns");
                let quiet = admit(&config, &ns_policy, &request.with_explanation(false));
                let expected = PsaOutcome { explanation: String::new(), ..outcome.clone() };
                if !quiet.explanation.is_empty() || quiet != expected {
                    problems.push("the outcome without its explanation differs".to_string());
                }
                if expect_allowed {
                    if !failed.is_empty() {
                        problems.push(format!("expected allowed, failed {failed:?}"));
                    }
                    if let Some(d) = &outcome.denied {
                        problems.push(format!("admit denied: {d}"));
                    }
                } else {
                    let prefix = check_prefix(path);
                    if failed.is_empty() {
                        problems.push("expected denied, every check passed".to_string());
                    } else if !failed.iter().any(|id| names_check(id, &prefix, version)) {
                        problems.push(format!("expected check {prefix:?} to fail, failed {failed:?}"));
                    }
                    if outcome.denied.is_none() {
                        problems.push("admit allowed it".to_string());
                    }
                }
                if problems.is_empty() {
                    ok += 1;
                } else {
                    failures.push(format!("{}: {}", path.display(), problems.join("; ")));
                }
            }
            figures.push(format!(
                "{ok}/{} {} {}",
                files.len(),
                if expect_allowed { "pass" } else { "fail" },
                if expect_allowed { "allowed" } else { "denied" }
            ));
        }
        println!("{}: {}", level, figures.join(", "));
    }
    println!("{total} fixtures checked");
    assert!(total > 0, "no fixtures found under {}", root.display());
    assert!(failures.is_empty(), "{} fixture(s) disagree:\n{}", failures.len(), failures.join("\n"));
}
