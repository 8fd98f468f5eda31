//! Calendar arithmetic on `YYYY-MM-DD` dates: the number of a day, so that
//! ages (recall's recency, expiry's maximum age) are whole days, and back
//! from a day number to its date (the store's timestamps).

use crate::parse::is_valid_date;

/// The day number of a real `YYYY-MM-DD` date (days since 1970-01-01,
/// negative before it), or `None` for anything else.
///
/// Howard Hinnant's days-from-civil, in whole numbers only.
pub(crate) fn day_number(date: &str) -> Option<i64> {
    if !is_valid_date(date) {
        return None;
    }
    let field = |range: std::ops::Range<usize>| date.get(range)?.parse::<i64>().ok();
    let (year, month, day) = (field(0..4)?, field(5..7)?, field(8..10)?);
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// Whole days from `from` to `to` (negative when `to` is earlier), when both
/// are real dates.
pub(crate) fn days_between(from: &str, to: &str) -> Option<i64> {
    Some(day_number(to)? - day_number(from)?)
}

/// The `(year, month, day)` of a day number (days since 1970-01-01, at or
/// after it): the inverse of the day numbers the expiry and recall's
/// recency count with, and the `memdoc` command's today from the clock.
///
/// Howard Hinnant's civil-from-days, in whole numbers only.
pub fn civil_date(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::{civil_date, day_number, days_between};

    #[test]
    fn civil_date_inverts_day_number() {
        for date in [
            "1970-01-01",
            "2000-02-29",
            "2000-03-01",
            "2024-12-31",
            "9999-12-31",
        ] {
            let n = u64::try_from(day_number(date).unwrap()).unwrap();
            let (y, m, d) = civil_date(n);
            assert_eq!(
                format!("{y:04}-{m:02}-{d:02}"),
                date,
                "should round-trip {date}"
            );
        }
    }

    #[test]
    fn counts_days_across_months_leap_years_and_eras() {
        assert_eq!(day_number("1970-01-01"), Some(0));
        assert_eq!(day_number("1969-12-31"), Some(-1));
        assert_eq!(day_number("2000-03-01"), Some(11_017));
        assert_eq!(days_between("2024-02-28", "2024-03-01"), Some(2));
        assert_eq!(days_between("2023-02-28", "2023-03-01"), Some(1));
        assert_eq!(days_between("0001-01-01", "9999-12-31"), Some(3_652_058));
        assert_eq!(day_number("2025-02-30"), None);
        assert_eq!(day_number("2025-1-01"), None);
    }
}
