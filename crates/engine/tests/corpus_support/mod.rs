//! Shared by the corpus test and the `corpus` example: runs kubectl's reading, decoding,
//! defaulting and create validation over the kubernetes.io example manifests in
//! `../shared/conformance/website-examples` and reports each file's outcome.

use podlab_engine::decode::decode;
use podlab_engine::defaults::apply_defaults;
use podlab_engine::errors::{kubectl_stderr, CommandError, GroupKind, Status};
use podlab_engine::manifest::parse_manifest;
use podlab_engine::object::Object;
use podlab_engine::validation::validate_create;
use std::path::{Path, PathBuf};

/// Where the shared examples belong (`<repo>/../shared/...`), present or not.
pub fn examples_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/website-examples")
}

/// Every `.yaml`/`.yml` file under `dir`, sorted, as paths relative to `root`.
pub fn yaml_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            yaml_files(root, &p, out);
        } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(p.strip_prefix(root).unwrap_or(&p).to_path_buf());
        }
    }
}

/// The outcome of one document.
pub struct DocOutcome {
    pub kind: String,
    pub name: String,
    /// `None` when accepted; else what kubectl prints.
    pub rejection: Option<String>,
}

/// The steps of the registry that run between defaulting and validation and that the lab's
/// API server does elsewhere: a name from `generateName`, and a Job's generated selector.
fn registry_prepare(obj: &mut Object) {
    let meta = obj.meta_mut();
    if meta.name.as_deref().unwrap_or_default().is_empty() {
        if let Some(g) = meta.generate_name.clone() {
            meta.name = Some(format!("{g}abcde"));
        }
    }
    if let Object::Job(job) = obj {
        let job = std::sync::Arc::make_mut(job);
        let uid = "00000000-0000-0000-0000-000000000000".to_string();
        let name = job.metadata.name.clone().unwrap_or_default();
        let Some(spec) = job.spec.as_mut() else { return };
        if spec.manual_selector != Some(true) {
            let tmeta = spec.template.metadata.get_or_insert_with(Default::default);
            let labels = tmeta.labels.get_or_insert_with(Default::default);
            for k in ["job-name", "batch.kubernetes.io/job-name"] {
                labels.entry(k.to_string()).or_insert_with(|| name.clone());
            }
            for k in ["controller-uid", "batch.kubernetes.io/controller-uid"] {
                labels.entry(k.to_string()).or_insert_with(|| uid.clone());
            }
            let sel = spec.selector.get_or_insert_with(Default::default);
            sel.match_labels
                .get_or_insert_with(Default::default)
                .entry("batch.kubernetes.io/controller-uid".into())
                .or_insert(uid);
        }
    }
}

/// Runs one file; returns the documents' outcomes and a YAML error, if any.
pub fn run_file(text: &str, source: &str) -> (Vec<DocOutcome>, Option<String>) {
    let parsed = parse_manifest(text);
    let mut out = Vec::new();
    for doc in &parsed.documents {
        let kind = doc.kind.clone();
        let name = doc.name.clone().unwrap_or_default();
        let mut obj = match decode(doc) {
            Ok(o) => o,
            Err(e) => {
                out.push(DocOutcome { kind, name, rejection: Some(e.kubectl_line(source)) });
                continue;
            }
        };
        let info = obj.resource().or_else(|| podlab_engine::object::resource_for_kind(obj.kind()));
        if info.is_some_and(|r| r.namespaced) && obj.namespace().is_none() {
            obj.meta_mut().namespace = Some("default".into());
        }
        apply_defaults(&mut obj);
        registry_prepare(&mut obj);
        let errs = validate_create(&obj);
        let rejection = if errs.is_empty() {
            None
        } else {
            let gk = obj.resource().map(GroupKind::from).unwrap_or_else(|| GroupKind::new("", obj.kind()));
            let status = Status::invalid(gk, obj.name(), &errs);
            let text = kubectl_stderr(&[CommandError::Server(status)]);
            Some(text.trim_end().to_string())
        };
        out.push(DocOutcome { kind, name, rejection });
    }
    (out, parsed.error.map(|e| e.kubectl_line(source)))
}

/// A report of every file under a tree, with totals.
pub struct Report {
    pub text: String,
    pub files: usize,
    pub documents: usize,
    pub accepted: usize,
    /// `(file, message)` for every rejection and YAML error.
    pub rejections: Vec<(String, String)>,
}

pub fn run_tree(root: &Path, sub: &Path, skip: Option<&str>) -> Report {
    let mut files = Vec::new();
    yaml_files(root, &root.join(sub), &mut files);
    if let Some(skip) = skip {
        files.retain(|f| !f.starts_with(skip));
    }
    let mut r = Report { text: String::new(), files: files.len(), documents: 0, accepted: 0, rejections: Vec::new() };
    for f in &files {
        let source = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let key = f.to_string_lossy().to_string();
        let text = match std::fs::read(root.join(f)) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).to_string(),
            Err(e) => {
                r.text += &format!("{key}: unreadable: {e}\n");
                continue;
            }
        };
        let (docs, yaml_error) = run_file(&text, &source);
        for d in &docs {
            r.documents += 1;
            match &d.rejection {
                None => {
                    r.accepted += 1;
                    r.text += &format!("{key}: {} {:?} accepted\n", d.kind, d.name);
                }
                Some(msg) => {
                    r.text +=
                        &format!("{key}: {} {:?} REJECTED\n    {}\n", d.kind, d.name, msg.replace('\n', "\n    "));
                    r.rejections.push((key.clone(), msg.clone()));
                }
            }
        }
        if let Some(e) = yaml_error {
            r.text += &format!("{key}: YAML ERROR\n    {e}\n");
            r.rejections.push((key.clone(), e));
        }
    }
    r
}
