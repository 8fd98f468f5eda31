//! The store's timestamps: the caller's clock when one is given, otherwise
//! the system clock, formatted as ISO 8601 UTC with milliseconds (what
//! JavaScript's `Date.prototype.toISOString` gives). `wasm32-unknown-unknown`
//! has no system clock, so there a clock is required.

use crate::date::civil_date;
use crate::fast::unix_millis;

use super::error::StoreError;
use super::options::StoreOptions;

/// Whether the options can tell the time on this target.
pub(crate) fn check<E>(options: &StoreOptions) -> Result<(), StoreError<E>> {
    if options.now.is_none() && unix_millis().is_none() {
        return Err(StoreError::Options(crate::Error::InvalidOptions(
            "a clock (`now`) is required on wasm32".to_owned(),
        )));
    }
    Ok(())
}

/// The current time as the store records it.
pub(crate) fn now(options: &StoreOptions) -> String {
    match &options.now {
        Some(clock) => clock(),
        // `check` refused a store without either.
        None => unix_millis().map(iso_from_unix_millis).unwrap_or_default(),
    }
}

/// Milliseconds since the Unix epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub(crate) fn iso_from_unix_millis(ms: u128) -> String {
    let millis = ms % 1000;
    let secs = ms / 1000;
    let (day_secs, days) = (secs % 86_400, secs / 86_400);
    let (year, month, day) = civil_date(u64::try_from(days).unwrap_or(u64::MAX / 2));
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        day_secs / 3600,
        day_secs % 3600 / 60,
        day_secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::iso_from_unix_millis;

    #[test]
    fn formats_like_to_iso_string() {
        assert_eq!(iso_from_unix_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            iso_from_unix_millis(951_782_400_000),
            "2000-02-29T00:00:00.000Z"
        );
        assert_eq!(
            iso_from_unix_millis(1_764_521_546_123),
            "2025-11-30T16:52:26.123Z"
        );
    }
}
