//! Reading a `Retry-After` header without trusting it.
//!
//! Source: RFC 9110, section 10.2.3: the value is either `delay-seconds` (digits) or an
//! `HTTP-date`, whose preferred form is the IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`
//! (section 5.6.7). Servers also send fractions ("0.5"); those are taken too. Whatever a
//! server writes (`inf`, `1e300`, `-1`, a date in the year 9999), the answer is a
//! [`Duration`] or `None`, never a panic; the caller caps it.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a `Retry-After` value asks to wait, seen at `now`. `None` when the value is not
/// one of the forms above, is negative or not finite; a date in the past is zero; a wait too
/// long for a [`Duration`] is [`Duration::MAX`] (the caller's cap applies).
pub fn parse(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if value.bytes().all(|b| b.is_ascii_digit()) && !value.is_empty() {
        // Digits only: more than u64 seconds is still "very long", not an error.
        return Some(
            value
                .parse::<u64>()
                .map_or(Duration::MAX, Duration::from_secs),
        );
    }
    if let Ok(seconds) = value.parse::<f64>() {
        if !seconds.is_finite() || seconds < 0.0 {
            return None;
        }
        return Some(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX));
    }
    let when = imf_fixdate(value)?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

/// `Sun, 06 Nov 1994 08:49:37 GMT` as a time; `None` for anything else.
fn imf_fixdate(value: &str) -> Option<SystemTime> {
    let rest = value.split_once(", ")?.1;
    let mut parts = rest.split(' ');
    let day: u64 = parts.next()?.parse().ok()?;
    let month = match parts.next()? {
        "Jan" => 1,
        "Feb" => 2,
        "Mar" => 3,
        "Apr" => 4,
        "May" => 5,
        "Jun" => 6,
        "Jul" => 7,
        "Aug" => 8,
        "Sep" => 9,
        "Oct" => 10,
        "Nov" => 11,
        "Dec" => 12,
        _ => return None,
    };
    let year: u64 = parts.next()?.parse().ok()?;
    let mut clock = parts.next()?.split(':');
    let hour: u64 = clock.next()?.parse().ok()?;
    let minute: u64 = clock.next()?.parse().ok()?;
    let second: u64 = clock.next()?.parse().ok()?;
    if parts.next()? != "GMT"
        || parts.next().is_some()
        || clock.next().is_some()
        || !(1970..=9999).contains(&year)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second;
    UNIX_EPOCH.checked_add(Duration::from_secs(seconds))
}

/// Days from 1970-01-01 to the given date (year ≥ 1970), after Howard Hinnant's
/// `days_from_civil` (public domain).
fn days_from_civil(year: u64, month: u64, day: u64) -> u64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year / 400;
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn seconds_fractions_and_nonsense() {
        let now = SystemTime::now();
        assert_eq!(parse("7", now), Some(Duration::from_secs(7)));
        assert_eq!(parse(" 0 ", now), Some(Duration::ZERO));
        assert_eq!(parse("0.5", now), Some(Duration::from_millis(500)));
        assert_eq!(parse("1e300", now), Some(Duration::MAX));
        assert_eq!(parse("99999999999999999999999", now), Some(Duration::MAX));
        for nonsense in ["inf", "-inf", "NaN", "-1", "-0.5", "", "soon", "1 2"] {
            assert_eq!(parse(nonsense, now), None, "{nonsense:?}");
        }
    }

    #[test]
    fn http_dates_in_the_future_the_past_and_malformed() {
        // 1994-11-06 08:49:37 UTC is 784111777 s after the epoch (RFC 9110's example).
        let example = UNIX_EPOCH + Duration::from_secs(784_111_777);
        assert_eq!(imf_fixdate("Sun, 06 Nov 1994 08:49:37 GMT"), Some(example));
        let before = example - Duration::from_secs(90);
        assert_eq!(
            parse("Sun, 06 Nov 1994 08:49:37 GMT", before),
            Some(Duration::from_secs(90))
        );
        assert_eq!(
            parse("Sun, 06 Nov 1994 08:49:37 GMT", SystemTime::now()),
            Some(Duration::ZERO)
        );
        assert_eq!(
            imf_fixdate("Thu, 29 Feb 2024 00:00:00 GMT"),
            Some(UNIX_EPOCH + Duration::from_secs(1_709_164_800))
        );
        assert!(parse("Fri, 31 Dec 9999 23:59:59 GMT", SystemTime::now()).is_some());
        for bad in [
            "Sun, 06 Nov 1994 08:49:37 CET",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT extra",
        ] {
            assert_eq!(imf_fixdate(bad), None, "{bad}");
        }
    }
}
