//! Seeded randomness. The engine never reads entropy from the machine: every random choice
//! (generated names, UIDs, tie breaks among equally scored nodes) comes from this generator,
//! so the same inputs and seed give a byte-identical trace.

/// SplitMix64: small, fast, and good enough for simulation choices.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        // Lemire's multiply-shift; the bias is negligible for the small n the engine uses.
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// `n` characters from the alphabet Kubernetes uses for generated name suffixes
    /// (`k8s.io/apimachinery/pkg/util/rand`: consonants and digits without look-alikes).
    pub fn name_suffix(&mut self, n: usize) -> String {
        const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        (0..n).map(|_| ALPHANUMS[self.below(ALPHANUMS.len() as u64) as usize] as char).collect()
    }

    /// A version-4 UUID in its usual text form.
    pub fn uuid(&mut self) -> String {
        let a = self.next_u64();
        let b = self.next_u64();
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&a.to_be_bytes());
        bytes[8..].copy_from_slice(&b.to_be_bytes());
        bytes[6] = (bytes[6] & 0x0f) | 0x40;
        bytes[8] = (bytes[8] & 0x3f) | 0x80;
        let mut out = String::with_capacity(36);
        for (i, b) in bytes.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                out.push('-');
            }
            crate::text::push_hex_byte(&mut out, *b);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_text_is_the_usual_form() {
        // The text as the engine printed it before (hex of each byte, then the 8-4-4-4-12 groups).
        fn reference(rng: &mut Rng) -> String {
            let a = rng.next_u64();
            let b = rng.next_u64();
            let mut bytes = [0u8; 16];
            bytes[..8].copy_from_slice(&a.to_be_bytes());
            bytes[8..].copy_from_slice(&b.to_be_bytes());
            bytes[6] = (bytes[6] & 0x0f) | 0x40;
            bytes[8] = (bytes[8] & 0x3f) | 0x80;
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            format!("{}-{}-{}-{}-{}", &hex[0..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..32])
        }
        for seed in [0, 1, 42, u64::MAX] {
            let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
            for _ in 0..100 {
                assert_eq!(a.uuid(), reference(&mut b));
            }
        }
    }

    #[test]
    fn same_seed_same_sequence() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        assert_eq!(a.uuid(), b.uuid());
        assert_eq!(a.name_suffix(5), b.name_suffix(5));
        let u = Rng::new(7).uuid();
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }
}
