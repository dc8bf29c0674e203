//! Permalinks: the view that matters (manifest, cluster, identity, current step, an optional
//! exercise) written into the URL fragment and read back.
//!
//! A fragment is `v1:` followed by the payload: compact JSON with short keys, compressed with
//! raw DEFLATE (`miniz_oxide`) and written in unpadded URL-safe base64 (`A-Z a-z 0-9 - _`), so
//! it needs no escaping anywhere in a URL. A cluster taken from an engine preset is stored by
//! its name, an edited cluster by its text.
//!
//! Decoding takes untrusted input (anyone can hand out a link): it never panics, bounds the
//! fragment and the inflated size, and reports what was wrong as a [`LinkError`]. Fragments
//! without a `word:` prefix are in-page anchors (`#timeline-title`) and are not links at all
//! ([`parse_fragment`] returns `None`).

use crate::storage::Settings;
use serde::{Deserialize, Serialize};

/// The version this build writes and reads.
pub const VERSION: &str = "v1";
/// The longest fragment decoding looks at (characters after `#`).
pub const MAX_FRAGMENT: usize = 256 * 1024;
/// The most bytes a payload may inflate to.
pub const MAX_PAYLOAD: usize = 1024 * 1024;

/// What a permalink holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Permalink {
    pub manifest: String,
    /// Cluster (preset name or text), identity, file name, starter.
    pub settings: Settings,
    /// The index of the step shown.
    pub step: usize,
    /// The exercise the learner was working on, if any.
    pub exercise: Option<String>,
    /// The session's commands typed in the terminal after the apply.
    pub session: Vec<String>,
}

/// Why a fragment could not be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// A `word:` fragment of another version or another tool.
    Foreign(String),
    /// Longer than [`MAX_FRAGMENT`].
    TooLong,
    /// Not URL-safe base64 (the link was cut or changed).
    Encoding,
    /// The compressed data is damaged, or inflates past [`MAX_PAYLOAD`].
    Compression,
    /// The data is not a podlab link payload.
    Payload(String),
    /// The link names a cluster preset this build does not have.
    UnknownPreset(String),
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkError::Foreign(v) => {
                write!(f, "it was made by another version of podlab or another tool (it starts with \"{v}:\")")
            }
            LinkError::TooLong => write!(f, "it is longer than any link podlab makes"),
            LinkError::Encoding => {
                write!(f, "it has characters a podlab link never has; it may have been cut or changed")
            }
            LinkError::Compression => write!(f, "its data is damaged; it may have been cut or changed"),
            LinkError::Payload(e) => write!(f, "its data is not a podlab lab ({e})"),
            LinkError::UnknownPreset(p) => {
                write!(f, "it names a starting cluster this version does not have (\"{p}\")")
            }
        }
    }
}

/// The payload as JSON: short keys, empty values left out.
#[derive(Serialize, Deserialize, Default)]
#[serde(default)]
struct Wire {
    /// Manifest.
    m: String,
    /// File name kubectl is given.
    #[serde(skip_serializing_if = "String::is_empty")]
    f: String,
    /// Preset name (when the cluster is a preset's text).
    #[serde(skip_serializing_if = "String::is_empty")]
    p: String,
    /// Cluster text (when it is not a preset's).
    #[serde(skip_serializing_if = "Option::is_none")]
    c: Option<String>,
    #[serde(skip_serializing_if = "String::is_empty")]
    u: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    a: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    g: String,
    /// Starter last picked.
    #[serde(skip_serializing_if = "String::is_empty")]
    t: String,
    /// Step index.
    #[serde(skip_serializing_if = "is_zero")]
    s: usize,
    /// Exercise id.
    #[serde(skip_serializing_if = "Option::is_none")]
    x: Option<String>,
    /// The session's commands.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    k: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The fragment for `link`, without the leading `#`.
pub fn encode(link: &Permalink) -> String {
    let s = &link.settings;
    let preset_text = podlab_engine::cluster::preset(&s.preset);
    let (p, c) = match preset_text {
        Some(text) if text == s.cluster => (s.preset.clone(), None),
        _ => (String::new(), Some(s.cluster.clone())),
    };
    let wire = Wire {
        m: link.manifest.clone(),
        f: s.file.clone(),
        p,
        c,
        u: s.user.clone(),
        a: s.as_user.clone(),
        g: s.as_groups.clone(),
        t: s.starter.clone(),
        s: link.step,
        x: link.exercise.clone(),
        k: link.session.clone(),
    };
    // Serialising plain strings and numbers cannot fail.
    let json = serde_json::to_vec(&wire).unwrap_or_default();
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{VERSION}:{}", base64url_encode(&packed))
}

/// Reads a fragment (with or without the leading `#`). `None`: not a link (empty, or an
/// in-page anchor); otherwise the link or why it cannot be opened.
pub fn parse_fragment(hash: &str) -> Option<Result<Permalink, LinkError>> {
    let frag = hash.strip_prefix('#').unwrap_or(hash);
    let (version, body) = split_version(frag)?;
    Some(if version == VERSION { decode_body(body) } else { Err(LinkError::Foreign(version.to_string())) })
}

/// Decodes a fragment that must be a link.
pub fn decode(hash: &str) -> Result<Permalink, LinkError> {
    parse_fragment(hash).unwrap_or_else(|| Err(LinkError::Payload("no version prefix".into())))
}

/// `("v1", "...")` for `v1:...`: a prefix of up to 16 letters, digits, `-`, `_` or `.`.
fn split_version(frag: &str) -> Option<(&str, &str)> {
    let colon = frag.find(':')?;
    let version = &frag[..colon];
    let ok = !version.is_empty()
        && version.len() <= 16
        && version.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    ok.then(|| (version, &frag[colon + 1..]))
}

fn decode_body(body: &str) -> Result<Permalink, LinkError> {
    if body.len() > MAX_FRAGMENT {
        return Err(LinkError::TooLong);
    }
    let packed = base64url_decode(body).ok_or(LinkError::Encoding)?;
    let json =
        miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_PAYLOAD).map_err(|_| LinkError::Compression)?;
    let wire: Wire = serde_json::from_slice(&json).map_err(|e| LinkError::Payload(e.to_string()))?;
    let defaults = Settings::default();
    let (preset, cluster) = match (wire.c, wire.p.is_empty()) {
        (Some(text), _) => ("custom".to_string(), text),
        (None, false) => {
            let text =
                podlab_engine::cluster::preset(&wire.p).ok_or_else(|| LinkError::UnknownPreset(wire.p.clone()))?;
            (wire.p, text.to_string())
        }
        (None, true) => (defaults.preset.clone(), defaults.cluster.clone()),
    };
    Ok(Permalink {
        manifest: wire.m,
        settings: Settings {
            preset,
            cluster,
            user: wire.u,
            as_user: wire.a,
            as_groups: wire.g,
            file: if wire.f.is_empty() { defaults.file } else { wire.f },
            starter: wire.t,
        },
        step: wire.s,
        exercise: wire.x.filter(|x| !x.is_empty()),
        session: wire.k,
    })
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Unpadded URL-safe base64 (RFC 4648 §5).
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// The bytes of unpadded URL-safe base64; `None` for any other character, a length no
/// encoder produces (1 mod 4) or non-zero trailing bits. Trailing `=` padding is accepted.
pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    for chunk in text.as_bytes().chunks(4) {
        let mut n: u32 = 0;
        for &c in chunk {
            let v = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'-' => 62,
                b'_' => 63,
                _ => return None,
            };
            n = (n << 6) | u32::from(v);
        }
        // Left-align a short chunk to 24 bits.
        n <<= 6 * (4 - chunk.len() as u32);
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let keep = chunk.len() - 1;
        // The bits past the last whole byte must be zero (one encoding per byte string).
        if keep < 3 && (n & (0xFF_FFFF >> (8 * keep))) != 0 {
            return None;
        }
        out.extend_from_slice(&bytes[..keep]);
    }
    Some(out)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::starters::STARTERS;
    use proptest::prelude::*;

    fn starter_link(id: &str, step: usize) -> Permalink {
        let s = crate::starters::by_id(id).unwrap();
        Permalink {
            manifest: s.yaml.to_string(),
            settings: Settings {
                preset: s.preset.into(),
                cluster: podlab_engine::cluster::preset(s.preset).unwrap().into(),
                file: s.file.into(),
                starter: s.id.into(),
                ..Settings::default()
            },
            step,
            exercise: None,
            session: if id == "deployment" { vec!["kubectl delete pods -l app=shop".into()] } else { Vec::new() },
        }
    }

    #[test]
    fn every_starter_round_trips() {
        for s in STARTERS {
            let link = starter_link(s.id, 17);
            let frag = encode(&link);
            assert!(frag.starts_with("v1:"));
            assert!(frag[3..].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{frag}");
            assert_eq!(decode(&format!("#{frag}")), Ok(link));
        }
    }

    #[test]
    fn a_preset_is_stored_by_name_and_an_edited_cluster_by_text() {
        let link = starter_link("forbidden", 3);
        let by_name = encode(&link);
        let mut edited = link.clone();
        edited.settings.cluster.push_str("\n# one more line\n");
        edited.settings.preset = "custom".into();
        let by_text = encode(&edited);
        assert!(by_text.len() > by_name.len() + 100, "{} vs {}", by_text.len(), by_name.len());
        assert_eq!(decode(&by_text), Ok(edited));
        // A preset's exact text under "custom" comes back as the preset.
        let mut same = link.clone();
        same.settings.preset = "custom".into();
        assert_eq!(decode(&encode(&same)).unwrap().settings.preset, "custom");
    }

    #[test]
    fn identity_step_and_exercise_round_trip() {
        let mut link = starter_link("pod", 41);
        link.settings.user = "alice".into();
        link.settings.as_user = "bob".into();
        link.settings.as_groups = "dev, ops".into();
        link.exercise = Some("rbac-1".into());
        assert_eq!(decode(&encode(&link)), Ok(link));
    }

    #[test]
    fn the_default_pod_link_is_short() {
        // The starter Pod with the kind preset by name: a link that fits in a chat message.
        let frag = encode(&starter_link("pod", 0));
        assert!(frag.len() < 400, "{} chars: {frag}", frag.len());
    }

    #[test]
    fn anchors_are_not_links() {
        assert_eq!(parse_fragment(""), None);
        assert_eq!(parse_fragment("#"), None);
        assert_eq!(parse_fragment("#timeline-title"), None);
        assert_eq!(parse_fragment("#explain-scheduling"), None);
        assert_eq!(parse_fragment("#podlab-panic-test"), None);
    }

    #[test]
    fn broken_and_foreign_fragments_say_why() {
        let good = encode(&starter_link("pod", 2));
        assert_eq!(decode("#v2:abc"), Err(LinkError::Foreign("v2".into())));
        assert_eq!(decode("#state:{}"), Err(LinkError::Foreign("state".into())));
        assert_eq!(decode("#v1:not base64!"), Err(LinkError::Encoding));
        assert_eq!(decode(&good[..good.len() / 2]), Err(LinkError::Compression));
        assert_eq!(decode(&format!("v1:{}", base64url_encode(b"plain text"))), Err(LinkError::Compression));
        let not_json = base64url_encode(&miniz_oxide::deflate::compress_to_vec(b"[1,2]", 6));
        assert!(matches!(decode(&format!("v1:{not_json}")), Err(LinkError::Payload(_))));
        let bad_preset = base64url_encode(&miniz_oxide::deflate::compress_to_vec(br#"{"m":"","p":"nope"}"#, 6));
        assert_eq!(decode(&format!("v1:{bad_preset}")), Err(LinkError::UnknownPreset("nope".into())));
        assert_eq!(decode(&format!("v1:{}", "A".repeat(MAX_FRAGMENT + 4))), Err(LinkError::TooLong));
        // A payload that inflates past the limit.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; MAX_PAYLOAD + 10], 9);
        assert_eq!(decode(&format!("v1:{}", base64url_encode(&bomb))), Err(LinkError::Compression));
        assert!(LinkError::Encoding.to_string().contains("cut or changed"));
    }

    #[test]
    fn base64url_known_vectors() {
        // RFC 4648 §10, unpadded, URL-safe alphabet.
        for (raw, enc) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64url_encode(raw.as_bytes()), enc);
            assert_eq!(base64url_decode(enc).as_deref(), Some(raw.as_bytes()));
        }
        assert_eq!(base64url_encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(base64url_decode("Zg=="), Some(b"f".to_vec()));
        assert_eq!(base64url_decode("Zh"), None, "non-zero trailing bits");
        assert_eq!(base64url_decode("Z"), None);
        assert_eq!(base64url_decode("Zm+v"), None, "standard alphabet is refused");
    }

    fn arb_settings() -> impl Strategy<Value = Settings> {
        let presets: Vec<String> = podlab_engine::cluster::PRESETS.iter().map(|(n, _)| n.to_string()).collect();
        (
            prop::sample::select(presets),
            any::<bool>(),
            ".{0,40}",
            "[a-z]{0,8}",
            "[a-z]{0,8}",
            "[a-z, ]{0,12}",
            "[a-z.]{0,12}",
        )
            .prop_map(|(preset, custom, extra, user, as_user, as_groups, file)| {
                let text = podlab_engine::cluster::preset(&preset).unwrap().to_string();
                let (preset, cluster) = if custom { ("custom".to_string(), text + &extra) } else { (preset, text) };
                Settings {
                    preset,
                    cluster,
                    user,
                    as_user,
                    as_groups,
                    file: if file.is_empty() { "pod.yaml".into() } else { file },
                    starter: String::new(),
                }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        #[test]
        fn encode_then_decode_is_identity(
            manifest in "\\PC{0,300}",
            settings in arb_settings(),
            step in 0usize..10_000,
            exercise in proptest::option::of("[a-z0-9-]{1,20}"),
            session in proptest::collection::vec("\\PC{1,60}", 0..4),
        ) {
            let link = Permalink { manifest, settings, step, exercise, session };
            prop_assert_eq!(decode(&encode(&link)), Ok(link));
        }

        #[test]
        fn random_text_never_panics(text in "\\PC{0,400}") {
            let _ = parse_fragment(&text);
            let _ = decode(&format!("v1:{text}"));
        }

        #[test]
        fn random_base64_never_panics(text in "[A-Za-z0-9_-]{0,600}") {
            let _ = decode(&format!("#v1:{text}"));
        }

        #[test]
        fn random_deflate_input_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let _ = decode(&format!("v1:{}", base64url_encode(&bytes)));
        }

        #[test]
        fn mutated_links_decode_or_fail_cleanly(
            id in prop::sample::select(STARTERS.iter().map(|s| s.id).collect::<Vec<_>>()),
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6),
        ) {
            let mut frag = encode(&starter_link(id, 5)).into_bytes();
            for (at, byte, op) in edits {
                if frag.is_empty() { break; }
                let i = at.index(frag.len());
                let c = ALPHABET[usize::from(byte) % 64];
                match op {
                    0 => frag[i] = c,
                    1 => { frag.remove(i); }
                    _ => frag.insert(i, c),
                }
            }
            let text = String::from_utf8(frag).unwrap();
            match decode(&text) {
                Ok(link) => prop_assert!(link.manifest.len() <= MAX_PAYLOAD),
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }

        #[test]
        fn mutated_payload_json_decodes_or_fails_cleanly(
            id in prop::sample::select(STARTERS.iter().map(|s| s.id).collect::<Vec<_>>()),
            cut in any::<prop::sample::Index>(),
            junk in "\\PC{0,20}",
        ) {
            let wire = serde_json::to_string(&Wire { m: crate::starters::by_id(id).unwrap().yaml.into(), p: "kind".into(), ..Wire::default() }).unwrap();
            let i = cut.index(wire.len() + 1);
            let mut j = i;
            while !wire.is_char_boundary(j) { j -= 1; }
            let text = format!("{}{junk}{}", &wire[..j], &wire[j..]);
            let packed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 6);
            let _ = decode(&format!("v1:{}", base64url_encode(&packed)));
        }
    }
}
