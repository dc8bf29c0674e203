//! Small formatting rules shared by the printers: ages (apimachinery's `HumanDuration`),
//! RFC 1123 dates, label maps, and the escaping kubectl applies to what it prints.

use crate::apiserver::EPOCH_UNIX_MS;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, Time};
use std::collections::BTreeMap;

/// "Now" for a printer: the logical clock in milliseconds. Objects carry wall-clock
/// timestamps (`apiserver::timestamp`: the lab's epoch plus logical time, whole seconds),
/// so an age is `now` minus the stored timestamp, exactly as kubectl computes
/// `time.Since(creationTimestamp)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub now_ms: u64,
}

impl Clock {
    pub fn at(now_ms: u64) -> Clock {
        Clock { now_ms }
    }

    fn unix_ms(self) -> i64 {
        EPOCH_UNIX_MS + self.now_ms as i64
    }

    /// Milliseconds from `t` to now (negative for a time in the future).
    pub fn elapsed_ms(self, t: &Time) -> i64 {
        self.unix_ms() - t.0.as_millisecond()
    }

    /// `translateTimestampSince`: `<unknown>` for an unset time.
    pub fn since(self, t: Option<&Time>) -> String {
        match t {
            Some(t) => human_duration(self.elapsed_ms(t)),
            None => "<unknown>".to_string(),
        }
    }

    /// `translateMicroTimestampSince`.
    pub fn since_micro(self, t: Option<&MicroTime>) -> String {
        match t {
            Some(t) => human_duration(self.unix_ms() - t.0.as_millisecond()),
            None => "<unknown>".to_string(),
        }
    }
}

/// apimachinery's `duration.HumanDuration`: about two significant figures, never negative
/// beyond a second of clock skew.
pub fn human_duration(ms: i64) -> String {
    let seconds = ms / 1000;
    if seconds < -1 {
        return "<invalid>".to_string();
    } else if seconds < 0 {
        return "0s".to_string();
    } else if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = ms / 60_000;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 { format!("{minutes}m") } else { format!("{minutes}m{s}s") };
    } else if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = ms / 3_600_000;
    if hours < 8 {
        let m = minutes % 60;
        if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        }
    } else if hours < 48 {
        format!("{hours}h")
    } else if hours < 24 * 8 {
        let h = hours % 24;
        if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        }
    } else if hours < 24 * 365 * 2 {
        format!("{}d", hours / 24)
    } else if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        if dy == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{dy}d", hours / 24 / 365)
        }
    } else {
        format!("{}y", hours / 24 / 365)
    }
}

/// Go's `time.RFC1123Z` layout (`Mon, 02 Jan 2006 15:04:05 -0700`), in UTC: the lab's
/// kubectl runs with `TZ=UTC`.
pub fn rfc1123z(t: &k8s_openapi::jiff::Timestamp) -> String {
    t.to_zoned(k8s_openapi::jiff::tz::TimeZone::UTC).strftime("%a, %d %b %Y %H:%M:%S %z").to_string()
}

/// `RFC1123Z` of an optional time; Go formats the zero time.
pub fn rfc1123z_opt(t: Option<&Time>) -> String {
    match t {
        Some(t) => rfc1123z(&t.0),
        None => "Mon, 01 Jan 0001 00:00:00 +0000".to_string(),
    }
}

/// cli-runtime's terminal escaping of everything a describer writes: escape characters
/// and carriage returns are made visible.
pub fn escape_terminal(s: &str) -> String {
    if !s.contains(['\u{1b}', '\r']) {
        return s.to_string();
    }
    s.replace('\u{1b}', "^[").replace('\r', "\\r")
}

/// How a table cell is printed: cut at the first line break (with `...`), escaped.
pub fn table_cell(s: &str) -> String {
    match s.find(['\u{c}', '\n', '\r']) {
        Some(i) => format!("{}...", escape_terminal(&s[..i])),
        None => escape_terminal(s),
    }
}

/// `labels.FormatLabels`: `k=v,k2=v2` sorted by key, `<none>` when empty.
pub fn format_labels(labels: Option<&BTreeMap<String, String>>) -> String {
    match labels {
        Some(l) if !l.is_empty() => l.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(","),
        _ => "<none>".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_durations_follow_apimachinery() {
        let cases = [
            (-5_000, "<invalid>"),
            (-1_500, "0s"),
            (0, "0s"),
            (999, "0s"),
            (45_000, "45s"),
            (119_999, "119s"),
            (120_000, "2m"),
            (125_000, "2m5s"),
            (9 * 60_000 + 59_000, "9m59s"),
            (10 * 60_000 + 30_000, "10m"),
            (179 * 60_000, "179m"),
            (3 * 3_600_000, "3h"),
            (3 * 3_600_000 + 25 * 60_000, "3h25m"),
            (8 * 3_600_000 + 59 * 60_000, "8h"),
            (47 * 3_600_000, "47h"),
            (50 * 3_600_000, "2d2h"),
            (72 * 3_600_000, "3d"),
            (8 * 24 * 3_600_000, "8d"),
            (800 * 24 * 3_600_000, "2y70d"),
            (9 * 365 * 24 * 3_600_000, "9y"),
        ];
        for (ms, want) in cases {
            assert_eq!(human_duration(ms), want, "{ms}");
        }
    }

    #[test]
    fn dates_and_cells() {
        let t = crate::apiserver::timestamp(65_000);
        assert_eq!(rfc1123z(&t.0), "Thu, 01 Jan 2026 00:01:05 +0000");
        assert_eq!(Clock::at(125_400).since(Some(&t)), "60s");
        assert_eq!(Clock::at(0).since(None), "<unknown>");
        assert_eq!(table_cell("line one\nline two"), "line one...");
        assert_eq!(table_cell("\u{1b}[31mred"), "^[[31mred");
    }
}
