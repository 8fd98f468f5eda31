//! The command line's way of writing what the API takes as options: an
//! expiry policy as `SECTION=DAYS` (`--policy "Current Priorities=30"`),
//! and today's date, which `expire` needs and a command takes from the
//! clock when `--today` is not given.

use memdoc::Error;
use memdoc::ExpiryPolicy;
use memdoc::Quoted;

/// The policy `SECTION=DAYS`, split at its last `=` (a title may hold one).
///
/// # Errors
/// [`Error::InvalidPolicy`] without an `=`, or when `DAYS` is not a whole
/// number of days ≥ 0. The title is checked with the other options
/// ([`ExpireOptions::check`](memdoc::ExpireOptions::check)).
///
/// ```
/// use memdoc_cli::policy::policy;
/// let p = policy("Current Priorities=30").unwrap();
/// assert_eq!((p.section.as_str(), p.max_age_days), ("Current Priorities", 30));
/// assert_eq!(policy("Notes").unwrap_err().code(), "options/invalid-policy");
/// ```
pub fn policy(text: &str) -> Result<ExpiryPolicy, Error> {
    let (section, days) = text.rsplit_once('=').ok_or_else(|| {
        Error::InvalidPolicy(format!(
            "{} is not SECTION=DAYS (e.g. \"Current Priorities=30\")",
            Quoted(text)
        ))
    })?;
    let max_age_days = days
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|&d| d <= 1 << 53)
        .ok_or_else(|| {
            Error::InvalidPolicy(format!(
                "{} is not a whole number of days from 0 to 2^53",
                Quoted(days)
            ))
        })?;
    Ok(ExpiryPolicy {
        section: section.trim().to_owned(),
        max_age_days,
    })
}

/// The UTC date (`YYYY-MM-DD`) of `seconds` since 1970-01-01T00:00:00Z.
///
/// ```
/// assert_eq!(memdoc_cli::policy::utc_date(0), "1970-01-01");
/// assert_eq!(memdoc_cli::policy::utc_date(1_748_736_000), "2025-06-01");
/// ```
#[must_use]
pub fn utc_date(seconds: u64) -> String {
    let (year, month, day) = memdoc::civil_date(seconds / 86_400);
    format!("{year:04}-{month:02}-{day:02}")
}
