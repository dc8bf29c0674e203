//! Cron schedules as the CronJob controller and the API server's validation read them:
//! robfig/cron v3's `ParseStandard` (five fields, minute hour day-of-month month day-of-week,
//! or a descriptor), its error texts, and its `Next` (the first activation strictly after a
//! time, searched at most five years ahead).
//!
//! The syntax: `*` or `?` (every value), a number, a name (`jan`-`dec`, `sun`-`sat`, any
//! case), a range `a-b`, a step `*/n`, `a-b/n` or `a/n` (from `a` to the field's maximum), and
//! lists of those separated by commas. Descriptors: `@yearly` (`@annually`), `@monthly`,
//! `@weekly`, `@daily` (`@midnight`), `@hourly` and `@every <Go duration>`. A `TZ=<zone>` or
//! `CRON_TZ=<zone>` prefix names the zone of the schedule (the controller adds it for
//! `spec.timeZone`; validation refuses it in `spec.schedule`).
//!
//! Day of month and day of week: when either field is a star (`*`, `?`, or a star with step
//! 1), a day must match both; otherwise it may match either (`0 0 1 * mon` runs on the 1st
//! and on every Monday).
//!
//! Time zones ([`load_location`]): Go's `time.LoadLocation` knows every name of the IANA
//! database; so does this module (`zones.rs`). The activation times are computed with a fixed
//! offset: exact for UTC and its aliases, the `Etc/GMT±N` zones and the zones of
//! [`FIXED_ZONES`], which keep one offset all year and have not changed it since before the
//! lab's epoch (2026). Any other zone is computed as UTC, and [`Zone::exact`] is false so the
//! controller says so in the trace.

use super::zones::ZONES;

/// robfig/cron's `starBit`: the field was `*` or `?` (matters for the day fields).
const STAR_BIT: u64 = 1 << 63;

/// One field's bounds and names.
struct Bounds {
    min: u32,
    max: u32,
    names: &'static [(&'static str, u32)],
}

const MINUTES: Bounds = Bounds { min: 0, max: 59, names: &[] };
const HOURS: Bounds = Bounds { min: 0, max: 23, names: &[] };
const DOM: Bounds = Bounds { min: 1, max: 31, names: &[] };
const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ],
};
const DOW: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &[("sun", 0), ("mon", 1), ("tue", 2), ("wed", 3), ("thu", 4), ("fri", 5), ("sat", 6)],
};

/// The bit set of a five-field schedule (the seconds field of the standard parser is `0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Spec {
    second: u64,
    minute: u64,
    hour: u64,
    dom: u64,
    month: u64,
    dow: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Spec(Spec),
    /// `@every`: a constant delay in whole seconds (at least one).
    Every(i64),
}

/// A parsed schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    kind: Kind,
    /// The zone of a `TZ=`/`CRON_TZ=` prefix; none: the controller's local zone (UTC).
    pub zone: Option<Zone>,
}

/// A time zone as the lab computes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    pub name: String,
    /// Seconds east of UTC.
    pub offset_s: i64,
    /// Whether `offset_s` is the zone's offset all year (false: computed as UTC).
    pub exact: bool,
}

impl Zone {
    pub fn utc() -> Zone {
        Zone { name: "UTC".into(), offset_s: 0, exact: true }
    }
}

/// Zones with one offset all year, unchanged since before 2026 (hours, minutes east of UTC).
pub const FIXED_ZONES: &[(&str, i64, i64)] = &[
    ("Africa/Johannesburg", 2, 0),
    ("Africa/Lagos", 1, 0),
    ("Africa/Nairobi", 3, 0),
    ("America/Argentina/Buenos_Aires", -3, 0),
    ("America/Bogota", -5, 0),
    ("America/Lima", -5, 0),
    ("America/Phoenix", -7, 0),
    ("America/Sao_Paulo", -3, 0),
    ("Asia/Bangkok", 7, 0),
    ("Asia/Calcutta", 5, 30),
    ("Asia/Dhaka", 6, 0),
    ("Asia/Dubai", 4, 0),
    ("Asia/Ho_Chi_Minh", 7, 0),
    ("Asia/Hong_Kong", 8, 0),
    ("Asia/Jakarta", 7, 0),
    ("Asia/Karachi", 5, 0),
    ("Asia/Kathmandu", 5, 45),
    ("Asia/Kolkata", 5, 30),
    ("Asia/Manila", 8, 0),
    ("Asia/Riyadh", 3, 0),
    ("Asia/Seoul", 9, 0),
    ("Asia/Shanghai", 8, 0),
    ("Asia/Singapore", 8, 0),
    ("Asia/Taipei", 8, 0),
    ("Asia/Tokyo", 9, 0),
    ("Australia/Brisbane", 10, 0),
    ("Australia/Perth", 8, 0),
    ("Europe/Istanbul", 3, 0),
    ("Europe/Moscow", 3, 0),
    ("Pacific/Honolulu", -10, 0),
];

const UTC_ALIASES: &[&str] = &[
    "Etc/UTC",
    "Etc/UCT",
    "Etc/Universal",
    "Etc/Zulu",
    "UCT",
    "Universal",
    "Zulu",
    "GMT",
    "GMT+0",
    "GMT-0",
    "GMT0",
    "Greenwich",
    "Etc/GMT",
    "Etc/GMT+0",
    "Etc/GMT-0",
    "Etc/GMT0",
    "Etc/Greenwich",
];

/// Whether the IANA database has `name` (a zone or a link).
fn in_database(name: &str) -> bool {
    let (area, leaf) = name.rsplit_once('/').unwrap_or(("-", name));
    ZONES.lines().any(|line| {
        let mut words = line.split(' ');
        words.next() == Some(area) && words.any(|w| w == leaf)
    })
}

/// Go's `time.LoadLocation`: `""` and `UTC` are UTC, `Local` the process's zone (UTC in the
/// controller manager's container), a database name its zone; else Go's error text.
pub fn load_location(name: &str) -> Result<Zone, String> {
    if name.is_empty() || name == "UTC" || name == "Local" {
        return Ok(Zone { name: name.to_string(), offset_s: 0, exact: true });
    }
    if name.contains("..") || name.starts_with('/') || name.starts_with('\\') {
        return Err("time: invalid location name".into());
    }
    if !in_database(name) {
        return Err(format!("unknown time zone {name}"));
    }
    let zone = |offset_s, exact| Ok(Zone { name: name.to_string(), offset_s, exact });
    if UTC_ALIASES.contains(&name) {
        return zone(0, true);
    }
    // POSIX signs: Etc/GMT+5 is five hours west of UTC.
    if let Some(n) = name.strip_prefix("Etc/GMT").and_then(|r| r.parse::<i64>().ok()) {
        return zone(-n * 3600, true);
    }
    match FIXED_ZONES.iter().find(|(n, ..)| *n == name) {
        Some((_, h, m)) => zone(h * 3600 + h.signum() * m * 60, true),
        None => zone(0, false),
    }
}

/// Go's `strconv.Quote`/`time.quote` for the texts here: quotes and escapes.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `strconv.Atoi` with its error text.
fn atoi(s: &str) -> Result<i64, String> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("strconv.Atoi: parsing {}: invalid syntax", quote(s)));
    }
    s.parse::<i64>().map_err(|_| format!("strconv.Atoi: parsing {}: value out of range", quote(s)))
}

/// robfig's `mustParseInt`.
fn must_parse_int(expr: &str) -> Result<u64, String> {
    let n = atoi(expr).map_err(|e| format!("failed to parse int from {expr}: {e}"))?;
    if n < 0 {
        return Err(format!("negative number ({n}) not allowed: {expr}"));
    }
    Ok(n as u64)
}

fn parse_int_or_name(expr: &str, b: &Bounds) -> Result<u64, String> {
    let lower = expr.to_lowercase();
    match b.names.iter().find(|(n, _)| *n == lower) {
        Some((_, v)) => Ok(u64::from(*v)),
        None => must_parse_int(expr),
    }
}

/// The bits `min..=max` by `step`.
fn bits(min: u64, max: u64, step: u64) -> u64 {
    let mut out = 0;
    let mut i = min;
    while i <= max && i < 64 {
        out |= 1 << i;
        i += step;
    }
    out
}

/// robfig's `getRange`: `*`, `?`, `n`, `a-b`, each with an optional `/step`.
fn range(expr: &str, b: &Bounds) -> Result<u64, String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single = low_and_high.len() == 1;
    let (min, max) = (u64::from(b.min), u64::from(b.max));
    let (start, mut end, mut extra);
    if low_and_high[0] == "*" || low_and_high[0] == "?" {
        (start, end, extra) = (min, max, STAR_BIT);
    } else {
        start = parse_int_or_name(low_and_high[0], b)?;
        end = match low_and_high.len() {
            1 => start,
            2 => parse_int_or_name(low_and_high[1], b)?,
            _ => return Err(format!("too many hyphens: {expr}")),
        };
        extra = 0;
    }
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = must_parse_int(range_and_step[1])?;
            // `n/step` runs from n to the maximum.
            if single {
                end = max;
            }
            if step > 1 {
                extra = 0;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < min {
        return Err(format!("beginning of range ({start}) below minimum ({min}): {expr}"));
    }
    if end > max {
        return Err(format!("end of range ({end}) above maximum ({max}): {expr}"));
    }
    if start > end {
        return Err(format!("beginning of range ({start}) beyond end of range ({end}): {expr}"));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(bits(start, end, step) | extra)
}

/// robfig's `getField`: a comma-separated list of ranges.
fn field(text: &str, b: &Bounds) -> Result<u64, String> {
    let mut out = 0;
    for expr in text.split(',').filter(|e| !e.is_empty()) {
        out |= range(expr, b)?;
    }
    Ok(out)
}

fn all(b: &Bounds) -> u64 {
    bits(u64::from(b.min), u64::from(b.max), 1) | STAR_BIT
}

/// Go's `time.ParseDuration`, in nanoseconds, with its error texts.
pub fn parse_duration(orig: &str) -> Result<i128, String> {
    let invalid = || format!("time: invalid duration {}", quote(orig));
    let mut s = orig;
    let mut neg = false;
    if let Some(c) = s.chars().next().filter(|c| *c == '-' || *c == '+') {
        neg = c == '-';
        s = &s[1..];
    }
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    let mut total: i128 = 0;
    while !s.is_empty() {
        let b = s.as_bytes()[0];
        if !(b == b'.' || b.is_ascii_digit()) {
            return Err(invalid());
        }
        let int_len = s.bytes().take_while(u8::is_ascii_digit).count();
        let int_part = &s[..int_len];
        s = &s[int_len..];
        let mut frac_part = "";
        if let Some(rest) = s.strip_prefix('.') {
            let n = rest.bytes().take_while(u8::is_ascii_digit).count();
            frac_part = &rest[..n];
            s = &rest[n..];
        }
        if int_part.is_empty() && frac_part.is_empty() {
            return Err(invalid());
        }
        let unit_len = s.bytes().take_while(|b| *b != b'.' && !b.is_ascii_digit()).count();
        if unit_len == 0 {
            return Err(format!("time: missing unit in duration {}", quote(orig)));
        }
        let unit = &s[..unit_len];
        s = &s[unit_len..];
        let scale: i128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return Err(format!("time: unknown unit {} in duration {}", quote(unit), quote(orig))),
        };
        let v: i128 = if int_part.is_empty() { 0 } else { int_part.parse().map_err(|_| invalid())? };
        let mut d = v.checked_mul(scale).ok_or_else(invalid)?;
        if !frac_part.is_empty() {
            let digits = &frac_part[..frac_part.len().min(30)];
            let f: i128 = digits.parse().map_err(|_| invalid())?;
            d += f * scale / 10i128.pow(digits.len() as u32);
        }
        total = total.checked_add(d).ok_or_else(invalid)?;
        if total > i64::MAX as i128 {
            return Err(invalid());
        }
    }
    Ok(if neg { -total } else { total })
}

/// robfig/cron v3's `ParseStandard`, with its error texts.
pub fn parse_standard(spec: &str) -> Result<Schedule, String> {
    if spec.is_empty() {
        return Err("empty spec string".into());
    }
    let mut spec = spec;
    let mut zone = None;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        // robfig cuts the zone at the first space (a prefix without one makes it panic; the
        // lab takes the whole text as the zone's name instead).
        let eq = spec.find('=').unwrap_or(0);
        let end = spec.find(' ').unwrap_or(spec.len());
        let name = &spec[eq + 1..end.max(eq + 1)];
        match load_location(name) {
            Ok(z) => zone = Some(z),
            Err(e) => return Err(format!("provided bad location {name}: {e}")),
        }
        spec = spec[end..].trim();
    }
    if spec.starts_with('@') {
        let d = |dom, month, dow, hour| Kind::Spec(Spec { second: 1, minute: 1, hour, dom, month, dow });
        let kind = match spec {
            "@yearly" | "@annually" => d(1 << DOM.min, 1 << MONTHS.min, all(&DOW), 1),
            "@monthly" => d(1 << DOM.min, all(&MONTHS), all(&DOW), 1),
            "@weekly" => d(all(&DOM), all(&MONTHS), 1 << DOW.min, 1),
            "@daily" | "@midnight" => d(all(&DOM), all(&MONTHS), all(&DOW), 1),
            "@hourly" => d(all(&DOM), all(&MONTHS), all(&DOW), all(&HOURS)),
            _ => match spec.strip_prefix("@every ") {
                Some(text) => {
                    let nanos = parse_duration(text).map_err(|e| format!("failed to parse duration {spec}: {e}"))?;
                    // `Every`: at least a second, rounded down to whole seconds.
                    Kind::Every((nanos / 1_000_000_000).max(1) as i64)
                }
                None => return Err(format!("unrecognized descriptor: {spec}")),
            },
        };
        return Ok(Schedule { kind, zone });
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!("expected exactly 5 fields, found {}: [{}]", fields.len(), fields.join(" ")));
    }
    let spec = Spec {
        second: 1,
        minute: field(fields[0], &MINUTES)?,
        hour: field(fields[1], &HOURS)?,
        dom: field(fields[2], &DOM)?,
        month: field(fields[3], &MONTHS)?,
        dow: field(fields[4], &DOW)?,
    };
    Ok(Schedule { kind: Kind::Spec(spec), zone })
}

// ---------------------------------------------------------------------------------------
// Civil time over local seconds (a fixed offset: no daylight saving time)

#[derive(Clone, Copy, Debug)]
struct Civil {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
    weekday: i64,
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil(t: i64) -> Civil {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    Civil {
        year,
        month,
        day,
        hour: secs / 3600,
        minute: secs / 60 % 60,
        second: secs % 60,
        weekday: (days + 4).rem_euclid(7),
    }
}

/// Go's `time.Date` in a fixed zone: a day past the month's end runs into the next month.
fn date(year: i64, month: i64, day: i64, h: i64, m: i64, s: i64) -> i64 {
    let (year, month) = (year + (month - 1).div_euclid(12), (month - 1).rem_euclid(12) + 1);
    (days_from_civil(year, month, 1) + day - 1) * 86_400 + h * 3600 + m * 60 + s
}

fn day_matches(s: &Spec, c: &Civil) -> bool {
    let dom = (1u64 << c.day) & s.dom > 0;
    let dow = (1u64 << c.weekday) & s.dow > 0;
    if s.dom & STAR_BIT > 0 || s.dow & STAR_BIT > 0 {
        dom && dow
    } else {
        dom || dow
    }
}

/// robfig's `SpecSchedule.Next` over local seconds: the first matching second after `t`.
fn spec_next(s: &Spec, t: i64) -> Option<i64> {
    let mut t = t + 1;
    let mut added = false;
    let year_limit = civil(t).year + 5;
    'wrap: loop {
        if civil(t).year > year_limit {
            return None;
        }
        while (1u64 << civil(t).month) & s.month == 0 {
            let c = civil(t);
            if !added {
                added = true;
                t = date(c.year, c.month, 1, 0, 0, 0);
            }
            let c = civil(t);
            t = date(c.year, c.month + 1, c.day, c.hour, c.minute, c.second);
            if civil(t).month == 1 {
                continue 'wrap;
            }
        }
        while !day_matches(s, &civil(t)) {
            if !added {
                added = true;
                t -= t.rem_euclid(86_400);
            }
            t += 86_400;
            if civil(t).day == 1 {
                continue 'wrap;
            }
        }
        while (1u64 << civil(t).hour) & s.hour == 0 {
            if !added {
                added = true;
                t -= t.rem_euclid(3600);
            }
            t += 3600;
            if civil(t).hour == 0 {
                continue 'wrap;
            }
        }
        while (1u64 << civil(t).minute) & s.minute == 0 {
            if !added {
                added = true;
                t -= t.rem_euclid(60);
            }
            t += 60;
            if civil(t).minute == 0 {
                continue 'wrap;
            }
        }
        while (1u64 << civil(t).second) & s.second == 0 {
            added = true;
            t += 1;
            if civil(t).second == 0 {
                continue 'wrap;
            }
        }
        return Some(t);
    }
}

impl Schedule {
    /// The first activation strictly after `after_ms` (Unix milliseconds), in Unix
    /// milliseconds, with the schedule's own zone or else `zone`; `None` when robfig finds
    /// none within five years (its zero time: `30 2` as day and month never comes).
    pub fn next(&self, after_ms: i64, zone: &Zone) -> Option<i64> {
        let secs = after_ms.div_euclid(1000);
        match self.kind {
            Kind::Every(delay) => Some((secs + delay) * 1000),
            Kind::Spec(s) => {
                let offset = self.zone.as_ref().unwrap_or(zone).offset_s;
                spec_next(&s, secs + offset).map(|t| (t - offset) * 1000)
            }
        }
    }
}

/// `2026-01-01T00:01:00Z` (UTC), for the trace.
pub fn wall_clock(unix_ms: i64) -> String {
    let c = civil(unix_ms.div_euclid(1000));
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", c.year, c.month, c.day, c.hour, c.minute, c.second)
}

/// RFC 3339 in a fixed zone (`2026-01-01T09:01:00+09:00`, `...Z` for UTC), as Go's
/// `Format(time.RFC3339)` writes a time `In` that zone.
pub fn rfc3339_in(unix_ms: i64, zone: &Zone) -> String {
    let c = civil(unix_ms.div_euclid(1000) + zone.offset_s);
    let date = format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", c.year, c.month, c.day, c.hour, c.minute, c.second);
    if zone.offset_s == 0 {
        return format!("{date}Z");
    }
    let sign = if zone.offset_s < 0 { '-' } else { '+' };
    let a = zone.offset_s.abs();
    format!("{date}{sign}{:02}:{:02}", a / 3600, a / 60 % 60)
}

/// Go's `Format(time.RFC1123Z)` in UTC: `Thu, 01 Jan 2026 00:01:00 +0000`.
pub fn rfc1123z(unix_ms: i64) -> String {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let c = civil(unix_ms.div_euclid(1000));
    format!(
        "{}, {:02} {} {:04} {:02}:{:02}:{:02} +0000",
        DAYS[c.weekday as usize],
        c.day,
        MONTHS[(c.month - 1) as usize],
        c.year,
        c.hour,
        c.minute,
        c.second
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unix ms of a UTC date and time.
    fn at(y: i64, mo: i64, d: i64, h: i64, mi: i64, s: i64) -> i64 {
        date(y, mo, d, h, mi, s) * 1000
    }

    /// The next `n` activations after `from`, as wall clock texts.
    fn nexts(spec: &str, from: i64, n: usize) -> Vec<String> {
        let s = parse_standard(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let mut t = from;
        let mut out = Vec::new();
        for _ in 0..n {
            match s.next(t, &Zone::utc()) {
                Some(x) => {
                    out.push(wall_clock(x));
                    t = x;
                }
                None => {
                    out.push("none".into());
                    break;
                }
            }
        }
        out
    }

    const EPOCH: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z, a Thursday

    #[test]
    fn civil_round_trip_and_weekday() {
        assert_eq!(at(2026, 1, 1, 0, 0, 0), EPOCH);
        assert_eq!(civil(EPOCH / 1000).weekday, 4);
        assert_eq!(wall_clock(at(2028, 2, 29, 23, 59, 59)), "2028-02-29T23:59:59Z");
        assert_eq!(wall_clock(date(2026, 13, 32, 0, 0, 0) * 1000), "2027-02-01T00:00:00Z");
        assert_eq!(rfc1123z(EPOCH + 60_000), "Thu, 01 Jan 2026 00:01:00 +0000");
    }

    #[test]
    fn every_syntax_form() {
        let from = EPOCH + 30_000; // 00:00:30
        assert_eq!(
            nexts("*/1 * * * *", from, 3),
            ["2026-01-01T00:01:00Z", "2026-01-01T00:02:00Z", "2026-01-01T00:03:00Z"]
        );
        assert_eq!(nexts("* * * * *", EPOCH, 2), ["2026-01-01T00:01:00Z", "2026-01-01T00:02:00Z"]);
        assert_eq!(nexts("?/5 * * * ?", EPOCH, 2), ["2026-01-01T00:05:00Z", "2026-01-01T00:10:00Z"]);
        assert_eq!(nexts("30 2 * * *", EPOCH, 2), ["2026-01-01T02:30:00Z", "2026-01-02T02:30:00Z"]);
        assert_eq!(nexts("0 9-11 * * *", EPOCH, 4)[3], "2026-01-02T09:00:00Z");
        assert_eq!(
            nexts("0 8-18/5 * * *", EPOCH, 4),
            ["2026-01-01T08:00:00Z", "2026-01-01T13:00:00Z", "2026-01-01T18:00:00Z", "2026-01-02T08:00:00Z"]
        );
        assert_eq!(
            nexts("10/20 * * * *", EPOCH, 4),
            ["2026-01-01T00:10:00Z", "2026-01-01T00:30:00Z", "2026-01-01T00:50:00Z", "2026-01-01T01:10:00Z"]
        );
        assert_eq!(
            nexts("0,15,45 0 * * *", EPOCH, 3),
            ["2026-01-01T00:15:00Z", "2026-01-01T00:45:00Z", "2026-01-02T00:00:00Z"]
        );
        assert_eq!(nexts("0 0 * JUN-aug *", EPOCH, 1), ["2026-06-01T00:00:00Z"]);
        assert_eq!(nexts("0 0 * * MON", EPOCH, 2), ["2026-01-05T00:00:00Z", "2026-01-12T00:00:00Z"]);
        assert_eq!(
            nexts("0 0 * * fri-sat", EPOCH, 3),
            ["2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z", "2026-01-09T00:00:00Z"]
        );
        assert_eq!(
            parse_standard("0 0 * * sat-sun").unwrap_err(),
            "beginning of range (6) beyond end of range (0): sat-sun"
        );
        // Day of month OR day of week when neither is a star: the 13th and every Friday.
        assert_eq!(
            nexts("0 0 13 * fri", EPOCH, 3),
            ["2026-01-02T00:00:00Z", "2026-01-09T00:00:00Z", "2026-01-13T00:00:00Z"]
        );
        // AND when one is a star: Friday the 13th only.
        assert_eq!(nexts("0 0 13 * */1", EPOCH, 1), ["2026-01-13T00:00:00Z"]);
        assert_eq!(nexts("0 0 29 2 *", EPOCH, 2), ["2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z"]);
        assert_eq!(
            nexts("0 0 31 * *", EPOCH, 3),
            ["2026-01-31T00:00:00Z", "2026-03-31T00:00:00Z", "2026-05-31T00:00:00Z"]
        );
        // A date that never comes: robfig's zero time.
        assert_eq!(nexts("0 0 30 2 *", EPOCH, 1), ["none"]);
    }

    #[test]
    fn descriptors() {
        assert_eq!(nexts("@yearly", EPOCH, 1), ["2027-01-01T00:00:00Z"]);
        assert_eq!(nexts("@annually", EPOCH + 1, 1), ["2027-01-01T00:00:00Z"]);
        assert_eq!(nexts("@monthly", EPOCH, 1), ["2026-02-01T00:00:00Z"]);
        assert_eq!(nexts("@weekly", EPOCH, 1), ["2026-01-04T00:00:00Z"]);
        assert_eq!(nexts("@daily", EPOCH, 1), ["2026-01-02T00:00:00Z"]);
        assert_eq!(nexts("@midnight", EPOCH, 1), ["2026-01-02T00:00:00Z"]);
        assert_eq!(nexts("@hourly", EPOCH, 2), ["2026-01-01T01:00:00Z", "2026-01-01T02:00:00Z"]);
        assert_eq!(nexts("@every 90s", EPOCH + 500, 2), ["2026-01-01T00:01:30Z", "2026-01-01T00:03:00Z"]);
        assert_eq!(nexts("@every 1.5h", EPOCH, 1), ["2026-01-01T01:30:00Z"]);
        assert_eq!(nexts("@every 10ms", EPOCH, 1), ["2026-01-01T00:00:01Z"]);
    }

    #[test]
    fn zones() {
        let tokyo = parse_standard("TZ=Asia/Tokyo 0 9 * * *").unwrap();
        assert_eq!(wall_clock(tokyo.next(EPOCH, &Zone::utc()).unwrap()), "2026-01-02T00:00:00Z");
        let kolkata = parse_standard("CRON_TZ=Asia/Kolkata 0 0 * * *").unwrap();
        assert_eq!(wall_clock(kolkata.next(EPOCH, &Zone::utc()).unwrap()), "2026-01-01T18:30:00Z");
        let gmt = load_location("Etc/GMT+5").unwrap();
        assert_eq!((gmt.offset_s, gmt.exact), (-5 * 3600, true));
        assert!(load_location("Etc/UTC").unwrap().exact);
        assert!(!load_location("Europe/Berlin").unwrap().exact);
        assert_eq!(load_location("America/Argentina/Buenos_Aires").unwrap().offset_s, -3 * 3600);
        assert_eq!(load_location("Asia/Kathmandu").unwrap().offset_s, 5 * 3600 + 45 * 60);
        assert_eq!(load_location("Europe/Berln").unwrap_err(), "unknown time zone Europe/Berln");
        assert_eq!(load_location("a/../b").unwrap_err(), "time: invalid location name");
        assert_eq!(rfc3339_in(EPOCH, &load_location("Asia/Kolkata").unwrap()), "2026-01-01T05:30:00+05:30");
        assert_eq!(rfc3339_in(EPOCH, &Zone::utc()), "2026-01-01T00:00:00Z");
        for (name, ..) in FIXED_ZONES {
            assert!(in_database(name), "{name}");
        }
    }

    #[test]
    fn invalid_schedules_have_robfigs_texts() {
        let err = |s: &str| parse_standard(s).unwrap_err();
        assert_eq!(err(""), "empty spec string");
        assert_eq!(err("* * * *"), "expected exactly 5 fields, found 4: [* * * *]");
        assert_eq!(err("0 * * * * *"), "expected exactly 5 fields, found 6: [0 * * * * *]");
        assert_eq!(err("60 * * * *"), "end of range (60) above maximum (59): 60");
        assert_eq!(err("* 24 * * *"), "end of range (24) above maximum (23): 24");
        assert_eq!(err("* * 0 * *"), "beginning of range (0) below minimum (1): 0");
        assert_eq!(err("* * * 13 *"), "end of range (13) above maximum (12): 13");
        assert_eq!(err("* * * * 7"), "end of range (7) above maximum (6): 7");
        assert_eq!(err("5-1 * * * *"), "beginning of range (5) beyond end of range (1): 5-1");
        assert_eq!(err("*/0 * * * *"), "step of range should be a positive number: */0");
        assert_eq!(err("1-2-3 * * * *"), "too many hyphens: 1-2-3");
        assert_eq!(err("*/2/3 * * * *"), "too many slashes: */2/3");
        assert_eq!(err("x * * * *"), "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax");
        assert_eq!(err("-1 * * * *"), "failed to parse int from : strconv.Atoi: parsing \"\": invalid syntax");
        assert_eq!(err("* * * foo *"), "failed to parse int from foo: strconv.Atoi: parsing \"foo\": invalid syntax");
        assert_eq!(err("@often"), "unrecognized descriptor: @often");
        assert_eq!(err("@every x"), "failed to parse duration @every x: time: invalid duration \"x\"");
        assert_eq!(err("@every 5"), "failed to parse duration @every 5: time: missing unit in duration \"5\"");
        assert_eq!(err("@every 5d"), "failed to parse duration @every 5d: time: unknown unit \"d\" in duration \"5d\"");
        assert_eq!(err("TZ=Mars/Base * * * * *"), "provided bad location Mars/Base: unknown time zone Mars/Base");
        assert!(parse_standard("TZ=UTC * * * * *").is_ok());
        assert!(parse_standard("0 0 1,15 * *").is_ok());
    }

    #[test]
    fn go_durations() {
        assert_eq!(parse_duration("1h30m"), Ok(5_400_000_000_000));
        assert_eq!(parse_duration("-1.5s"), Ok(-1_500_000_000));
        assert_eq!(parse_duration("0"), Ok(0));
        assert_eq!(parse_duration(".5m"), Ok(30_000_000_000));
        assert_eq!(parse_duration(""), Err("time: invalid duration \"\"".into()));
        assert_eq!(parse_duration("1.h"), Ok(3_600_000_000_000));
        assert!(parse_duration(".s").is_err());
    }
}
