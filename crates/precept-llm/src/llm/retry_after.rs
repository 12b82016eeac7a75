//! Reads a `Retry-After` header: delay-seconds or an HTTP-date
//! (RFC 9110 §10.2.3, IMF-fixdate such as `Sun, 06 Nov 1994 08:49:37 GMT`).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The wait the header asks for, measured from `now`; a date in the past
/// means no wait. None when the value is neither form.
pub fn retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = UNIX_EPOCH + Duration::from_secs(http_date_seconds(value)?);
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Seconds since the epoch of an IMF-fixdate.
fn http_date_seconds(text: &str) -> Option<u64> {
    // "Sun, 06 Nov 1994 08:49:37 GMT"
    let (_, rest) = text.split_once(", ")?;
    let parts: Vec<&str> = rest.split_whitespace().collect();
    let [day, month, year, time, "GMT"] = parts.as_slice() else {
        return None;
    };
    let day: u64 = day.parse().ok()?;
    let month = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    .iter()
    .position(|m| m == month)? as u64
        + 1;
    let year: u64 = year.parse().ok()?;
    let mut hms = time.split(':').map(|p| p.parse::<u64>().ok());
    let (hour, minute, second) = (hms.next()??, hms.next()??, hms.next()??);
    if !(1..=31).contains(&day) || year < 1970 || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    Some(days_from_civil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second)
}

/// Days from 1970-01-01 to the given date (proleptic Gregorian calendar).
fn days_from_civil(year: u64, month: u64, day: u64) -> u64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year / 400;
    let year_of_era = year - era * 400;
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_and_dates_are_read() {
        let now = UNIX_EPOCH + Duration::from_secs(784_111_777); // 1994-11-06 08:49:37
        assert_eq!(retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:49:40 GMT", now),
            Some(Duration::from_secs(3))
        );
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:49:00 GMT", now),
            Some(Duration::ZERO),
            "a past date means no wait"
        );
        assert_eq!(http_date_seconds("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            http_date_seconds("Sun, 29 Feb 2032 12:00:00 GMT"),
            Some(1_961_668_800)
        );
        for bad in [
            "soon",
            "-3",
            "Sun, 06 Nov 1994 08:49:37 PST",
            "Sun, 32 Nov 1994 08:49:37 GMT",
        ] {
            assert_eq!(retry_after(bad, now), None, "{bad}");
        }
    }
}
