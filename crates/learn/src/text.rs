//! Small text helpers: answer normalisation and a stable hash for deterministic shuffles.

/// Normalises a short answer for comparison: surrounding whitespace, backticks and quotes are
/// removed, inner whitespace is collapsed to one space, and case is folded.
pub fn normalize(answer: &str) -> String {
    let mut s = answer.trim();
    loop {
        let stripped = ['`', '"', '\'', '\u{201c}', '\u{201d}', '\u{2018}', '\u{2019}']
            .iter()
            .find_map(|q| s.strip_prefix(*q).and_then(|rest| rest.strip_suffix(|c: char| is_quote(c))))
            .map(str::trim);
        match stripped {
            Some(inner) if inner.len() < s.len() => s = inner,
            _ => break,
        }
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

fn is_quote(c: char) -> bool {
    matches!(c, '`' | '"' | '\'' | '\u{201c}' | '\u{201d}' | '\u{2018}' | '\u{2019}')
}

/// FNV-1a, 64 bits: a stable hash of a string (the same on every platform and build).
pub fn stable_hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A deterministic permutation of `0..n` seeded by `key` (Fisher-Yates over SplitMix64).
pub fn permutation(n: usize, key: &str) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut state = stable_hash(key);
    for i in (1..n).rev() {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let j = (z % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_strips_quotes_backticks_case_and_whitespace() {
        assert_eq!(normalize("  `Burstable` "), "burstable");
        assert_eq!(normalize("\"kube   scheduler\""), "kube scheduler");
        assert_eq!(normalize("'`let`'"), "let");
        assert_eq!(normalize("a`b"), "a`b");
        assert_eq!(normalize(""), "");
    }

    #[test]
    fn permutation_is_stable_and_complete() {
        let p = permutation(5, "q1");
        assert_eq!(p, permutation(5, "q1"));
        let mut sorted = p.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2, 3, 4]);
        assert_ne!(permutation(6, "a"), permutation(6, "b"));
    }
}
