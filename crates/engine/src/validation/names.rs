//! Name and format rules of apimachinery (`pkg/util/validation`, `pkg/api/validate/content`,
//! `pkg/api/validation`), each returning upstream's messages.
//!
//! The regular expressions are checked by hand; the messages quote upstream's patterns.

/// `RegexError`: the message, then ` (e.g. 'a' or 'b', regex used for validation is '<re>')`.
/// Each example is followed by `, ` and examples are joined with ` or `, so two examples read
/// `'my-name',  or '123-abc', ` (with the double space upstream prints).
pub fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{re}')");
    }
    let mut s = format!("{msg} (e.g. ");
    for (i, ex) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push('\'');
        s.push_str(ex);
        s.push_str("', ");
    }
    s.push_str(&format!("regex used for validation is '{re}')"));
    s
}

/// `must be no more than <n> characters` (util/validation).
pub fn max_len_chars(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// `must be no more than <n> bytes` (api/validate/content, used for label keys and values).
pub fn max_len_bytes(n: usize) -> String {
    format!("must be no more than {n} bytes")
}

pub fn inclusive_range_error(lo: i64, hi: i64) -> String {
    format!("must be between {lo} and {hi}, inclusive")
}

fn is_lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
pub fn matches_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && is_lower_alnum(b[0])
        && is_lower_alnum(b[b.len() - 1])
        && b.iter().all(|c| is_lower_alnum(*c) || *c == b'-')
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`
pub fn matches_dns1123_subdomain(s: &str) -> bool {
    !s.is_empty() && s.split('.').all(matches_dns1123_label)
}

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/// `IsDNS1123Label` (util/validation: lengths in characters).
pub fn dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len_chars(63));
    }
    if !matches_dns1123_label(s) {
        if matches_dns1123_subdomain(s) {
            errs.push("must not contain dots".into());
        } else {
            errs.push(regex_error(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, &["my-name", "123-abc"]));
        }
    }
    errs
}

/// `IsDNS1123Subdomain` (util/validation: lengths in characters).
pub fn dns1123_subdomain(s: &str) -> Vec<String> {
    subdomain_with(s, max_len_chars)
}

/// The content package's `IsDNS1123Subdomain` (lengths in bytes), used for label key prefixes.
fn dns1123_subdomain_bytes(s: &str) -> Vec<String> {
    subdomain_with(s, max_len_bytes)
}

fn subdomain_with(s: &str, max_len: fn(usize) -> String) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 253 {
        errs.push(max_len(253));
    }
    if !matches_dns1123_subdomain(s) {
        errs.push(regex_error(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, &["example.com"]));
    }
    errs
}

/// `IsDNS1035Label`: `[a-z]([-a-z0-9]*[a-z0-9])?`.
pub fn dns1035_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len_chars(63));
    }
    let b = s.as_bytes();
    let ok = !b.is_empty()
        && b[0].is_ascii_lowercase()
        && is_lower_alnum(b[b.len() - 1])
        && b.iter().all(|c| is_lower_alnum(*c) || *c == b'-');
    if !ok {
        errs.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            "[a-z]([-a-z0-9]*[a-z0-9])?",
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// A name validation function of upstream (`ValidateNameFunc`): the name, and whether it is a
/// `generateName` prefix (then a trailing dash is allowed).
pub type NameFn = fn(&str, bool) -> Vec<String>;

/// `maskTrailingDash`: a prefix may end with `-` since random characters follow.
fn mask_trailing_dash(name: &str) -> String {
    // Upstream drops two bytes; if the second is part of a multi-byte character the name is
    // invalid either way, so keep it as it is then.
    if name.len() > 1 && name.ends_with('-') && name.is_char_boundary(name.len() - 2) {
        format!("{}a", &name[..name.len() - 2])
    } else {
        name.to_string()
    }
}

pub fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    let n = if prefix { mask_trailing_dash(name) } else { name.to_string() };
    dns1123_subdomain(&n)
}

pub fn name_is_dns_label(name: &str, prefix: bool) -> Vec<String> {
    let n = if prefix { mask_trailing_dash(name) } else { name.to_string() };
    dns1123_label(&n)
}

pub fn name_is_dns1035_label(name: &str, prefix: bool) -> Vec<String> {
    let n = if prefix { mask_trailing_dash(name) } else { name.to_string() };
    dns1035_label(&n)
}

/// `IsPathSegmentName` (RBAC object names).
pub fn path_segment_name(name: &str, prefix: bool) -> Vec<String> {
    if !prefix {
        for bad in [".", ".."] {
            if name == bad {
                return vec![format!("may not be '{bad}'")];
            }
        }
    }
    ["/", "%"].iter().filter(|c| name.contains(*c)).map(|c| format!("may not contain '{c}'")).collect()
}

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`
fn matches_label_key_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `IsQualifiedName` / `IsLabelKey`: an optional DNS subdomain prefix and `/`, then a name.
pub fn qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(dns1123_subdomain_bytes(prefix).into_iter().map(|m| format!("prefix part {m}")));
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".into());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_bytes(63)));
    }
    if !matches_label_key_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    errs
}

/// `IsValidLabelValue`: empty, or a label-key-like name of at most 63 bytes.
pub fn label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push(max_len_bytes(63));
    }
    if !value.is_empty() && !matches_label_key_name(value) {
        errs.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?",
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `IsConfigMapKey` (also used for Secret keys).
pub fn config_map_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push(max_len_chars(253));
    }
    let ok = !value.is_empty() && value.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'));
    if !ok {
        errs.push(regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    errs.extend(chdir_prefix(value));
    errs
}

fn chdir_prefix(value: &str) -> Vec<String> {
    if value == "." {
        vec!["must not be '.'".into()]
    } else if value == ".." {
        vec!["must not be '..'".into()]
    } else if value.starts_with("..") {
        vec!["must not start with '..'".into()]
    } else {
        Vec::new()
    }
}

/// `IsRelaxedEnvVarName` (RelaxedEnvironmentVariableValidation is GA): printable ASCII but `=`.
pub fn relaxed_env_var_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.is_empty() {
        errs.push("environment variable name must be non-empty".into());
    }
    if value.chars().any(|c| !(' '..='~').contains(&c) || c == '=') {
        errs.push(
            "a valid environment variable name must consist only of printable ASCII characters other than '='".into(),
        );
    }
    errs
}

/// `IsValidPortNum`.
pub fn port_num(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        Vec::new()
    } else {
        vec![inclusive_range_error(1, 65535)]
    }
}

/// `IsValidPortName` (an IANA service name).
pub fn port_name(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push(max_len_chars(15));
    }
    if port.is_empty() || !port.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-') {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into());
    }
    if !port.bytes().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".into());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".into());
    }
    if port.starts_with('-') || port.ends_with('-') {
        errs.push("must not begin or end with a hyphen".into());
    }
    errs
}

/// `IsValidPercent`: `[0-9]+%`.
pub fn percent(value: &str) -> Vec<String> {
    let ok = value.len() > 1 && value.ends_with('%') && value[..value.len() - 1].bytes().all(|c| c.is_ascii_digit());
    if ok {
        Vec::new()
    } else {
        vec![regex_error(
            "a valid percent string must be a numeric string followed by an ending '%'",
            "[0-9]+%",
            &["1%", "93%"],
        )]
    }
}

/// `IsHTTPHeaderName`.
pub fn http_header_name(value: &str) -> Vec<String> {
    let ok = !value.is_empty() && value.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-');
    if ok {
        Vec::new()
    } else {
        vec![regex_error(
            "a valid HTTP header must consist of alphanumeric characters or '-'",
            "[-A-Za-z0-9]+",
            &["X-Header-Name"],
        )]
    }
}

/// Whether a string is an IPv4 or IPv6 address in canonical form (a loose `IsValidIP`).
pub fn ip_errors(value: &str) -> Vec<String> {
    match value.parse::<std::net::IpAddr>() {
        Ok(ip) if ip.to_string() == value => Vec::new(),
        Ok(ip) => vec![format!("must be in canonical form ({})", crate::errors::go_quote(&ip.to_string()))],
        Err(_) => vec!["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)".into()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    fn check(results: &[(&str, Vec<String>)], expect: Expect) {
        let mut out = String::new();
        for (input, errs) in results {
            out += &format!("{input:?}: {}\n", if errs.is_empty() { "ok".to_string() } else { errs.join(" | ") });
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn dns_names() {
        check(
            &[
                ("web", dns1123_label("web")),
                ("Web", dns1123_label("Web")),
                ("a.b", dns1123_label("a.b")),
                ("My_Pod", dns1123_subdomain("My_Pod")),
                ("example.com", dns1123_subdomain("example.com")),
                ("1web", dns1035_label("1web")),
                ("gen-", name_is_dns_subdomain("gen-", true)),
                ("x*64", dns1123_label(&"x".repeat(64))),
            ],
            expect![[r#"
                "web": ok
                "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
                "a.b": must not contain dots
                "My_Pod": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
                "example.com": ok
                "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')
                "gen-": ok
                "x*64": must be no more than 63 characters
            "#]],
        );
    }

    #[test]
    fn label_keys_and_values() {
        check(
            &[
                ("app", qualified_name("app")),
                ("app.kubernetes.io/name", qualified_name("app.kubernetes.io/name")),
                ("/x", qualified_name("/x")),
                ("a/b/c", qualified_name("a/b/c")),
                ("Bad_Prefix/x", qualified_name("Bad_Prefix/x")),
                ("-x", qualified_name("-x")),
                ("value", label_value("value")),
                ("", label_value("")),
                ("bad value", label_value("bad value")),
                ("1.0", label_value("1.0")),
            ],
            expect![[r#"
                "app": ok
                "app.kubernetes.io/name": ok
                "/x": prefix part must be non-empty
                "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')
                "Bad_Prefix/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
                "-x": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
                "value": ok
                "": ok
                "bad value": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
                "1.0": ok
            "#]],
        );
    }

    #[test]
    fn other_formats() {
        check(
            &[
                ("http", port_name("http")),
                ("8080", port_name("8080")),
                ("-web-", port_name("-web-")),
                ("key.name", config_map_key("key.name")),
                ("a b", config_map_key("a b")),
                ("..x", config_map_key("..x")),
                ("MY_ENV", relaxed_env_var_name("MY_ENV")),
                ("A=B", relaxed_env_var_name("A=B")),
                ("25%", percent("25%")),
                ("25", percent("25")),
                ("10.0.0.1", ip_errors("10.0.0.1")),
                ("10.0.0", ip_errors("10.0.0")),
            ],
            expect![[r#"
                "http": ok
                "8080": must contain at least one letter (a-z)
                "-web-": must not begin or end with a hyphen
                "key.name": ok
                "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')
                "..x": must not start with '..'
                "MY_ENV": ok
                "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='
                "25%": ok
                "25": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')
                "10.0.0.1": ok
                "10.0.0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)
            "#]],
        );
    }
}
