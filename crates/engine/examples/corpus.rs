//! Prints the corpus report: `cargo run -p podlab-engine --example corpus`.

#[path = "../tests/corpus_support/mod.rs"]
mod corpus_support;

fn main() {
    let root = corpus_support::examples_path();
    if !root.is_dir() {
        println!("skipped: {} is not present next to the project", root.display());
        return;
    }
    for (title, sub, skip) in [
        ("kubernetes.io examples (2023 snapshot)", ".", Some("_newer-unverified")),
        ("_newer-unverified (not asserted)", "_newer-unverified", None),
    ] {
        let r = corpus_support::run_tree(&root, std::path::Path::new(sub), skip);
        println!("== {title} ==");
        print!("{}", r.text);
        println!(
            "-- {} files, {} documents: {} accepted, {} rejected or unreadable\n",
            r.files,
            r.documents,
            r.accepted,
            r.rejections.len()
        );
    }
}
