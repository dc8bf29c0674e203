//! Appending numbers to a `String` without the formatting machinery, for the paths a run takes
//! many times (uuids, generated names, the summaries of component writes).

/// Appends `n` in decimal (`{n}`).
pub(crate) fn push_decimal(s: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    s.extend(digits[i..].iter().map(|&d| char::from(d)));
}

/// Appends `b` as two lowercase hex digits (`{b:02x}`).
pub(crate) fn push_hex_byte(s: &mut String, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    s.push(char::from(HEX[usize::from(b >> 4)]));
    s.push(char::from(HEX[usize::from(b & 0x0f)]));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_the_formatter_writes_them() {
        for n in [0, 7, 10, 404, 1_000_000_007, u64::MAX] {
            let mut s = String::new();
            push_decimal(&mut s, n);
            assert_eq!(s, n.to_string());
        }
        for b in [0u8, 0x0f, 0x10, 0xa5, 0xff] {
            let mut s = String::new();
            push_hex_byte(&mut s, b);
            assert_eq!(s, format!("{b:02x}"));
        }
    }
}
