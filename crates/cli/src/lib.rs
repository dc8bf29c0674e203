//! The `podlab` command, as a library so tests can drive it without a process.

use std::io::Write;

const USAGE: &str = "usage: podlab parse -f FILE";

/// Runs the command with `args` (without the program name); returns the exit code.
pub fn run(args: &[String], out: &mut dyn Write) -> i32 {
    match args.first().map(String::as_str) {
        Some("parse") => {
            let Some(file) = flag(args, "-f") else {
                let _ = writeln!(out, "{USAGE}");
                return 2;
            };
            let text = match std::fs::read_to_string(&file) {
                Ok(t) => t,
                Err(e) => {
                    let _ = writeln!(out, "error: the path \"{file}\" cannot be read: {e}");
                    return 1;
                }
            };
            let parsed = podlab_engine::manifest::parse_manifest(&text);
            for d in &parsed.documents {
                let _ = writeln!(out, "{} {} {}", d.api_version, d.kind, d.name.as_deref().unwrap_or("<no name>"));
            }
            match parsed.error {
                Some(e) => {
                    let _ = writeln!(out, "error: {file}: {e}");
                    1
                }
                None => 0,
            }
        }
        _ => {
            let _ = writeln!(out, "{USAGE}");
            2
        }
    }
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}
