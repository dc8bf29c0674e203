//! Every scenario under `examples/` (the repository root), run as its README line says:
//! `podlab apply -f <manifest> [--cluster <dir>/cluster.yaml] [<dir>/flags]`. Each directory
//! holds one manifest (the `.yaml` that is not `cluster.yaml`), optionally a `cluster.yaml`
//! and a `flags` file (extra arguments on one line), and `expected.txt`: the end of the
//! output — kubectl's apply output, `kubectl get pods -o wide`, `kubectl describe pod` for
//! every pod created and `kubectl describe statefulset|daemonset|cronjob|pvc|pv` for every
//! object of those kinds created — and the exit code. `UPDATE_EXPECT=1` rewrites `expected.txt`.

use std::path::{Path, PathBuf};

/// The scenarios the README lists, in its order.
const EXAMPLES: [&str; 25] = [
    "happy-deployment",
    "forbidden",
    "admission-rejected",
    "stuck-pending",
    "stuck-containercreating",
    "no-traffic",
    "node-failure",
    "pod-update-refused",
    "not-modelled",
    "statefulset",
    "daemonset",
    "pvc-provisioned",
    "cronjob",
    "hpa",
    "session-self-heal",
    "session-stopped-scheduler",
    "session-rollout",
    "session-node-maintenance",
    "session-apiserver-outage",
    "session-drain",
    "session-debugging",
    "session-power-off",
    "session-watch",
    "session-kinds",
    "session-multi",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// A session example (`session.sh`): `podlab session -f session.sh`, its transcript only
/// (each `$ command`, what it printed and its exit status; the steps, indented, left out).
fn run_session_example(dir: &Path) -> String {
    let script = dir.join("session.sh");
    let args = vec!["session".to_string(), "-f".to_string(), script.display().to_string()];
    let mut out = Vec::new();
    let code = podlab_cli::run(&args, &mut out);
    let text = String::from_utf8(out).expect("utf-8").replace(&format!("{}/", dir.display()), "");
    // A step's first line is its status mark (` `, `!` or `✗`), a space and its time right-aligned
    // in eight columns (`   0.000s`); its summary and facts are indented by 13 spaces or more.
    // Anything else (a describer's indented lines included) is the command's output.
    let step = |l: &str| {
        let mut chars = l.chars();
        let timed = matches!(chars.next(), Some(' ' | '!' | '✗'))
            && chars.as_str().split_once("s  ").is_some_and(|(time, _)| {
                time.starts_with(' ') && time.trim().contains('.') && time.trim().parse::<f64>().is_ok()
            });
        timed || l.starts_with("             ")
    };
    let mut kept: String = text.lines().skip(1).filter(|l| !step(l)).map(|l| format!("{l}\n")).collect();
    kept += &format!("[exit {code}]\n");
    kept
}

fn run_example(dir: &Path) -> String {
    if dir.join("session.sh").exists() {
        return run_session_example(dir);
    }
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("example directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml") && !p.ends_with("cluster.yaml"))
        .collect();
    manifests.sort();
    assert_eq!(manifests.len(), 1, "{}: one manifest per example", dir.display());
    let name = manifests[0].file_name().expect("file name").to_string_lossy().to_string();
    // Run from inside the directory so kubectl's messages name the file as the README does.
    let mut args = vec!["apply".to_string(), "-f".to_string(), manifests[0].display().to_string()];
    let cluster = dir.join("cluster.yaml");
    if cluster.exists() {
        args.extend(["--cluster".to_string(), cluster.display().to_string()]);
    }
    if let Ok(flags) = std::fs::read_to_string(dir.join("flags")) {
        args.extend(flags.split_whitespace().map(str::to_string));
    }
    let mut out = Vec::new();
    let code = podlab_cli::run(&args, &mut out);
    let text = String::from_utf8(out).expect("utf-8").replace(&format!("{}/", dir.display()), "");
    let marker = format!("\n$ kubectl apply -f {name}\n");
    let tail = text.find(&marker).map(|i| &text[i + 1..]).unwrap_or(&text);
    format!("{tail}[exit {code}]\n")
}

#[test]
fn every_example_ends_as_expected() {
    let mut found: Vec<String> = std::fs::read_dir(root())
        .expect("examples/")
        .map(|e| e.expect("entry"))
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    found.sort();
    let mut listed: Vec<String> = EXAMPLES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed, "examples/ and the list of this test differ");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    for example in EXAMPLES {
        let dir = root().join(example);
        let actual = run_example(&dir);
        let path = dir.join("expected.txt");
        if update {
            std::fs::write(&path, &actual).expect("write expected.txt");
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected != actual {
            failures.push(format!("== {example}: expected.txt differs; actual output:\n{actual}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A one-command session is the run of today, step for step and byte for byte: every example
/// manifest and starter (with its example's cluster file when it has one), as JSON.
#[test]
fn a_one_command_session_is_the_run() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut cases = Vec::new();
    for dir in [root.join("examples"), root.join("src/starters")] {
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .expect("examples and starters are in the repository")
            .flatten()
            .map(|e| e.path())
            .collect();
        paths.sort();
        for path in paths {
            let (files, cluster) = if path.is_dir() {
                let cluster = std::fs::read_to_string(path.join("cluster.yaml")).ok();
                let mut files: Vec<_> = std::fs::read_dir(&path).unwrap().flatten().map(|e| e.path()).collect();
                files.sort();
                (
                    files
                        .into_iter()
                        .filter(|f| f.extension().is_some_and(|e| e == "yaml") && !f.ends_with("cluster.yaml"))
                        .collect::<Vec<_>>(),
                    cluster,
                )
            } else {
                (vec![path.clone()], None)
            };
            for file in files {
                cases.push((file, cluster.clone()));
            }
        }
    }
    assert!(cases.len() > 20, "{} manifests", cases.len());
    for (file, cluster) in cases {
        let mut input = podlab_engine::lab::LabInput::new(
            std::fs::read_to_string(&file).unwrap(),
            file.file_name().unwrap().to_string_lossy(),
        );
        input.cluster = cluster;
        let one = podlab_engine::lab::run(&input).map(|r| (r.to_json(), r.kubectl_output));
        let session = podlab_engine::lab::run_session(&input, &[]).map(|s| (s.run.to_json(), s.run.kubectl_output));
        match (one, session) {
            (Ok(a), Ok(b)) => assert!(a == b, "{}: the one-command session differs from the run", file.display()),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!("{}: {:?} vs {:?}", file.display(), a.map(|_| ()), b.map(|_| ())),
        }
    }
}
