//! Converts the course content (`content/quizzes/*.toml`, `content/exercises/*.toml` at the
//! repository root) to JSON in OUT_DIR, value for value, so that the web app reads it with
//! serde_json (which it links anyway) and does not carry a TOML parser. The TOML files stay
//! the source that course authors edit; `src/content.rs` embeds the JSON.
//!
//! A file that is not valid TOML stops the build with its name and the parser's message.
//! Everything else (unknown keys, missing fields, wrong types) is the loader's business: the
//! content tests parse the TOML files themselves and check that the embedded JSON loads to the
//! same quizzes and exercises.

use std::fs;
use std::path::Path;

fn main() {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
    let out = Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).to_path_buf();
    for dir in ["quizzes", "exercises"] {
        let src = content.join(dir);
        // A file added or removed changes the directory; an edited file is watched below.
        println!("cargo:rerun-if-changed={}", src.display());
        let dest = out.join(dir);
        fs::create_dir_all(&dest).unwrap_or_else(|e| fail(format!("{}: {e}", dest.display())));
        let mut files: Vec<_> = fs::read_dir(&src)
            .unwrap_or_else(|e| fail(format!("{}: {e}", src.display())))
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
            .collect();
        files.sort();
        for file in files {
            println!("cargo:rerun-if-changed={}", file.display());
            let name = format!("content/{dir}/{}", file.file_name().unwrap().to_string_lossy());
            let text = fs::read_to_string(&file).unwrap_or_else(|e| fail(format!("{name}: {e}")));
            let table: toml::Table = toml::from_str(&text).unwrap_or_else(|e| fail(format!("{name}: {e}")));
            let json = to_json(&name, toml::Value::Table(table));
            let target = dest.join(file.with_extension("json").file_name().unwrap());
            fs::write(&target, json.to_string()).unwrap_or_else(|e| fail(format!("{}: {e}", target.display())));
        }
    }
}

/// Stops the build with a message (a file's name and what is wrong with it).
fn fail(message: String) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}

/// The same value as JSON. The content uses strings, integers, booleans, arrays and tables; a
/// date (or an infinite float) has no JSON form that reads back the same, so it stops the build.
fn to_json(name: &str, value: toml::Value) -> serde_json::Value {
    match value {
        toml::Value::String(s) => s.into(),
        toml::Value::Integer(i) => i.into(),
        toml::Value::Boolean(b) => b.into(),
        toml::Value::Array(items) => items.into_iter().map(|v| to_json(name, v)).collect(),
        toml::Value::Table(table) => {
            serde_json::Value::Object(table.into_iter().map(|(k, v)| (k, to_json(name, v))).collect())
        }
        toml::Value::Float(f) => serde_json::Number::from_f64(f)
            .unwrap_or_else(|| fail(format!("{name}: the float {f} has no JSON form")))
            .into(),
        toml::Value::Datetime(d) => fail(format!("{name}: the date {d} has no JSON form; quote it")),
    }
}
