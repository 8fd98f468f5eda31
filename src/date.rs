//! Calendar arithmetic on `YYYY-MM-DD` dates: the number of a day, so that
//! ages (recall's recency, expiry's maximum age) are whole days.

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

#[cfg(test)]
mod tests {
    use super::{day_number, days_between};

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
