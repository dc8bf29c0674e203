//! Kubernetes resource quantities (`100m`, `1.5Gi`, `2e3`): parsing, arithmetic and the
//! canonical text form the API server prints (`resource.Quantity` in apimachinery).

use std::cmp::Ordering;
use std::fmt;

/// How the quantity was written; the canonical form keeps the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `Ki`, `Mi`, `Gi`...
    BinarySI,
    /// `m`, ``, `k`, `M`, `G`...
    DecimalSI,
    /// `1e3`, `5E-3`.
    DecimalExponent,
}

/// A quantity held in thousandths of a unit (millicores for CPU, millibytes for memory).
/// Values below one thousandth round up, as `MilliValue` does upstream.
#[derive(Clone, Copy, Debug)]
pub struct Quantity {
    milli: i128,
    format: Format,
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.milli == other.milli
    }
}
impl Eq for Quantity {}
impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Quantity {
    fn cmp(&self, other: &Self) -> Ordering {
        self.milli.cmp(&other.milli)
    }
}

/// The message the API server gives for a string that is not a quantity.
pub const PARSE_ERROR: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

impl Quantity {
    pub const ZERO: Quantity = Quantity { milli: 0, format: Format::DecimalSI };

    pub fn from_milli(milli: i128, format: Format) -> Self {
        Quantity { milli, format }
    }

    /// A whole number of units (e.g. bytes or cores), decimal format.
    pub fn from_units(units: i128) -> Self {
        Quantity { milli: units * 1000, format: Format::DecimalSI }
    }

    pub fn milli(&self) -> i128 {
        self.milli
    }

    /// Whole units, rounded up (upstream `Value()`).
    pub fn value(&self) -> i128 {
        (self.milli + 999).div_euclid(1000)
    }

    pub fn format(&self) -> Format {
        self.format
    }

    pub fn is_zero(&self) -> bool {
        self.milli == 0
    }

    /// Parses the text form. Errors carry upstream's message.
    pub fn parse(s: &str) -> Result<Quantity, String> {
        let s = s.trim();
        if s.is_empty() {
            return Err(PARSE_ERROR.to_string());
        }
        let bytes = s.as_bytes();
        let mut i = 0;
        let negative = match bytes[0] {
            b'-' => {
                i = 1;
                true
            }
            b'+' => {
                i = 1;
                false
            }
            _ => false,
        };
        let num_start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let number = &s[num_start..i];
        let suffix = &s[i..];
        if number.is_empty() || number == "." || number.matches('.').count() > 1 {
            return Err(PARSE_ERROR.to_string());
        }
        let (int_part, frac_part) = number.split_once('.').unwrap_or((number, ""));
        // The number as a decimal: digits and a power-of-ten exponent.
        let digits = [int_part, frac_part].concat();
        let digits = digits.trim_start_matches('0');
        let mut exp10: i32 = -(frac_part.len() as i32);
        let (format, mul_num, mul_exp10): (Format, i128, i32) = match suffix {
            "" => (Format::DecimalSI, 1, 0),
            "n" => (Format::DecimalSI, 1, -9),
            "u" => (Format::DecimalSI, 1, -6),
            "m" => (Format::DecimalSI, 1, -3),
            "k" => (Format::DecimalSI, 1, 3),
            "M" => (Format::DecimalSI, 1, 6),
            "G" => (Format::DecimalSI, 1, 9),
            "T" => (Format::DecimalSI, 1, 12),
            "P" => (Format::DecimalSI, 1, 15),
            "E" => (Format::DecimalSI, 1, 18),
            "Ki" => (Format::BinarySI, 1 << 10, 0),
            "Mi" => (Format::BinarySI, 1 << 20, 0),
            "Gi" => (Format::BinarySI, 1 << 30, 0),
            "Ti" => (Format::BinarySI, 1 << 40, 0),
            "Pi" => (Format::BinarySI, 1 << 50, 0),
            "Ei" => (Format::BinarySI, 1 << 60, 0),
            other if other.starts_with(['e', 'E']) => {
                let e: i32 = other[1..].parse().map_err(|_| PARSE_ERROR.to_string())?;
                if other[1..].is_empty() {
                    return Err(PARSE_ERROR.to_string());
                }
                (Format::DecimalExponent, 1, e)
            }
            _ => return Err(PARSE_ERROR.to_string()),
        };
        exp10 = exp10.saturating_add(mul_exp10).saturating_add(3); // thousandths
        if digits.len() > 30 {
            return Err("quantity is too great".to_string());
        }
        let mut value: i128 =
            if digits.is_empty() { 0 } else { digits.parse().map_err(|_| PARSE_ERROR.to_string())? };
        value = value.checked_mul(mul_num).ok_or_else(|| "quantity is too great".to_string())?;
        if value != 0 && exp10 > 45 {
            return Err("quantity is too great".to_string());
        }
        // Zero stays zero whatever the exponent (and a huge exponent must not loop).
        if value != 0 && exp10 >= 0 {
            for _ in 0..exp10 {
                value = value.checked_mul(10).ok_or_else(|| "quantity is too great".to_string())?;
            }
        } else if value != 0 {
            let mut div: i128 = 1;
            for _ in 0..exp10.saturating_neg().min(38) {
                div = div.saturating_mul(10);
            }
            // Round up (towards positive infinity for positive values), as MilliValue does.
            value = (value + div - 1) / div;
        }
        Ok(Quantity { milli: if negative { -value } else { value }, format })
    }
}

impl std::ops::Add for Quantity {
    type Output = Quantity;
    fn add(self, other: Quantity) -> Quantity {
        Quantity { milli: self.milli + other.milli, format: self.format }
    }
}

impl std::ops::Sub for Quantity {
    type Output = Quantity;
    fn sub(self, other: Quantity) -> Quantity {
        Quantity { milli: self.milli - other.milli, format: self.format }
    }
}

impl std::ops::AddAssign for Quantity {
    fn add_assign(&mut self, other: Quantity) {
        self.milli += other.milli;
    }
}

impl std::str::FromStr for Quantity {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Quantity::parse(s)
    }
}

/// The canonical form: `500m`, `1`, `128Mi`, `1536Mi`, `2k`.
impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let milli = self.milli;
        if milli == 0 {
            return f.write_str("0");
        }
        if milli % 1000 != 0 {
            return write!(f, "{milli}m");
        }
        let units = milli / 1000;
        match self.format {
            Format::BinarySI if units.abs() >= 1024 => {
                const SUFFIXES: [&str; 6] = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
                let mut n = units;
                let mut k = 0;
                while k < SUFFIXES.len() && n % 1024 == 0 {
                    n /= 1024;
                    k += 1;
                }
                if k == 0 {
                    write!(f, "{units}")
                } else {
                    write!(f, "{n}{}", SUFFIXES[k - 1])
                }
            }
            _ => {
                const SUFFIXES: [&str; 6] = ["k", "M", "G", "T", "P", "E"];
                let mut n = units;
                let mut k = 0;
                while k < SUFFIXES.len() && n % 1000 == 0 {
                    n /= 1000;
                    k += 1;
                }
                if k == 0 {
                    write!(f, "{units}")
                } else if self.format == Format::DecimalExponent {
                    write!(f, "{n}e{}", 3 * k)
                } else {
                    write!(f, "{n}{}", SUFFIXES[k - 1])
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        Quantity::parse(s).map(|q| q.to_string()).unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn parses_and_prints_canonically() {
        let cases = [
            ("100m", "100m"),
            ("0.5", "500m"),
            ("1", "1"),
            ("1000m", "1"),
            ("2", "2"),
            ("128Mi", "128Mi"),
            ("1.5Gi", "1536Mi"),
            ("1Gi", "1Gi"),
            ("1024Mi", "1Gi"),
            ("1000", "1k"),
            ("64M", "64M"),
            ("1e3", "1e3"),
            ("0", "0"),
            ("1u", "1m"),
            ("0e2000000000", "0"),
            ("1e2000000000", "error: quantity is too great"),
            ("1e2147483647", "error: quantity is too great"),
            ("1e-2147483648", "1m"),
            (
                "abc",
                "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
            ),
            (
                "1Gb",
                "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(canon(input), want, "{input}");
        }
    }

    #[test]
    fn arithmetic_and_order() {
        let a = Quantity::parse("250m").unwrap();
        let b = Quantity::parse("0.75").unwrap();
        assert_eq!(a + b, Quantity::parse("1").unwrap());
        assert!(a < b);
        assert_eq!(Quantity::parse("64Mi").unwrap().value(), 64 * 1024 * 1024);
        assert_eq!(Quantity::parse("1.5").unwrap().value(), 2);
    }
}
