//! Hostile inputs: each one must end in a clear outcome, without a panic or a hang. The test
//! only measures by completing (no timing assertions).

use expect_test::{expect, Expect};
use podlab_engine::decode::decode;
use podlab_engine::defaults::apply_defaults;
use podlab_engine::linemap::locate_in;
use podlab_engine::manifest::parse_manifest;
use podlab_engine::validation::validate_create;

/// The whole read of a file, summarised in a few lines (long texts are cut).
fn run(text: &str) -> String {
    let cut = |s: &str| if s.len() > 300 { format!("{}…", &s[..s.floor_char_boundary(300)]) } else { s.to_string() };
    let parsed = parse_manifest(text);
    let mut out = String::new();
    for doc in &parsed.documents {
        match decode(doc) {
            Ok(mut obj) => {
                let changes = apply_defaults(&mut obj);
                let errs = validate_create(&obj);
                out += &format!(
                    "{} {:?}: {} defaults, {} field errors\n",
                    obj.kind(),
                    cut(obj.name()),
                    changes.len(),
                    errs.len()
                );
                if let Some(e) = errs.first() {
                    let at = locate_in(doc, &e.field);
                    out += &format!("  first: {} (line {})\n", cut(&e.to_string()), at.line);
                }
            }
            Err(e) => {
                let at = e.paths().first().map(|p| locate_in(doc, p).line).unwrap_or(doc.line);
                out += &format!("rejected at line {at}: {}\n", cut(&e.kubectl_line("hostile.yaml")));
            }
        }
    }
    if let Some(e) = &parsed.error {
        out += &format!("yaml error: {}\n  kubectl: {}\n", cut(&e.to_string()), cut(&e.kubectl_line("hostile.yaml")));
    }
    out
}

fn check(text: &str, expect: Expect) {
    expect.assert_eq(&run(text));
}

#[test]
fn billion_laughs() {
    let mut s = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\nx0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let p = i - 1;
        s += &format!("x{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n");
    }
    check(
        &s,
        expect![[r#"
        yaml error: the document expands its aliases too many times (an alias bomb); refused
          kubectl: error: error parsing hostile.yaml: error converting YAML to JSON: yaml: document contains excessive aliasing
    "#]],
    );
}

#[test]
fn ten_thousand_levels_of_nesting() {
    let flow = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: deep}}\ndata: {}1{}\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    check(
        &flow,
        expect![[r#"
        yaml error: line 4, column 1007: recursion limit exceeded: the document nests deeper than the 128 levels the lab reads
          kubectl: error: error parsing hostile.yaml: error converting YAML to JSON: yaml: recursion limit exceeded: the document nests deeper than the 128 levels the lab reads
    "#]],
    );
    let mut block = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\n  labels:\n");
    for i in 0..200 {
        block += &format!("{}k{i}:\n", "  ".repeat(i + 2));
    }
    check(
        &block,
        expect![[r#"
        yaml error: line 132, column 257: recursion limit exceeded: the document nests deeper than the 128 levels the lab reads
          kubectl: error: error parsing hostile.yaml: error converting YAML to JSON: yaml: recursion limit exceeded: the document nests deeper than the 128 levels the lab reads
    "#]],
    );
}

#[test]
fn five_megabytes() {
    let mut s = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n");
    let mut i = 0;
    while s.len() < 5 * 1024 * 1024 {
        s += &format!("  key{i}: \"{}\"\n", "x".repeat(100));
        i += 1;
    }
    check(
        &s,
        expect![[r#"
        ConfigMap "big": 0 defaults, 2 field errors
          first: metadata.namespace: Required value (line 3)
    "#]],
    );
    // Many plain scalars that YAML 1.1 reads differently (each needs a look at the text).
    let mut t = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: octal}\ndata:\n");
    for i in 0..100_000 {
        t += &format!("  k{i}: 0{}\n", i % 8);
    }
    check(
        &t,
        expect![[r#"
        rejected at line 5: Error from server (BadRequest): error when creating "hostile.yaml": ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string
    "#]],
    );
}

#[test]
fn binary_nul_and_broken_utf8() {
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    check(
        &String::from_utf8_lossy(&bytes),
        expect![[r#"
        yaml error: line 1, column 1: control characters are not allowed
          kubectl: error: error parsing hostile.yaml: error converting YAML to JSON: yaml: control characters are not allowed
    "#]],
    );
    check(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: \"a\0b\"}\n",
        expect![[r#"
        yaml error: line 3, column 20: control characters are not allowed
          kubectl: error: error parsing hostile.yaml: error converting YAML to JSON: yaml: control characters are not allowed
    "#]],
    );
    check(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\0\n",
        expect![[r#"
        yaml error: line 4, column 12: control characters are not allowed
          kubectl: error: error parsing hostile.yaml: error converting YAML to JSON: yaml: control characters are not allowed
    "#]],
    );
    let broken =
        [b"apiVersion: v1\nkind: Pod\nmetadata: {name: w\xff\xfeb}\nspec:\n  containers: [{name: c, image: \xc3}]\n"
            .as_slice()]
        .concat();
    check(
        &String::from_utf8_lossy(&broken),
        expect![[r#"
        Pod "w��b": 9 defaults, 2 field errors
          first: metadata.name: Invalid value: "w��b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9… (line 3)
    "#]],
    );
}

#[test]
fn odd_shapes() {
    check("", expect![[""]]);
    check("---\n---\n...\n", expect![[""]]);
    check(
        "just a string\n",
        expect![[r#"
        rejected at line 1: error: error validating "hostile.yaml": error validating data: invalid object to validate; if you choose to ignore these errors, turn validation off with --validate=false
    "#]],
    );
    check("apiVersion: v1\nkind: Pod\nmetadata: {name: 0e2000000000}\nspec:\n  containers: [{name: c, image: i, resources: {limits: {cpu: 0e2000000000}}}]\n", expect![[r#"
        rejected at line 3: Error from server (BadRequest): error when creating "hostile.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string
    "#]]);
    check(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: é-}\n",
        expect![[r#"
        Pod "é-": 6 defaults, 3 field errors
          first: metadata.name: Invalid value: "é-": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*… (line 3)
    "#]],
    );
    check(
        "? [a, b]\n: c\n",
        expect![[r#"
        rejected at line 1: error: error parsing hostile.yaml: error converting YAML to JSON: unsupported map key of type: []interface {}
    "#]],
    );
}
