//! The crate's one error type: bad options and ids, and failures of a store's
//! host. Findings about a document are never errors; they are diagnostics.

use std::fmt;

/// What went wrong, with a stable [`Error::code`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A scope other than exactly `user` or `team`.
    InvalidScope(String),
    /// Limits that are zero or have `soft > hard`.
    InvalidLimits(String),
    /// Options of the wrong shape (a field of the wrong type).
    InvalidOptions(String),
    /// Text where a string was required was something else.
    NotAString(String),
    /// A compaction target that is not a positive whole number.
    InvalidTarget(String),
    /// A date option that is not a real `YYYY-MM-DD` calendar date.
    InvalidDate(String),
}

impl Error {
    /// The stable code of this error, e.g. `options/invalid-scope`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            Self::InvalidScope(_) => "options/invalid-scope",
            Self::InvalidLimits(_) => "options/invalid-limits",
            Self::InvalidOptions(_) => "options/invalid",
            Self::NotAString(_) => "input/not-a-string",
            Self::InvalidTarget(_) => "options/invalid-target",
            Self::InvalidDate(_) => "options/invalid-date",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidScope(s) => {
                write!(f, "invalid scope {s:?}: expected \"user\" or \"team\"")
            }
            Self::InvalidLimits(why) => write!(f, "invalid limits: {why}"),
            Self::InvalidOptions(why) => write!(f, "invalid options: {why}"),
            Self::NotAString(what) => write!(f, "{what} must be a string"),
            Self::InvalidTarget(why) => write!(f, "invalid target: {why}"),
            Self::InvalidDate(d) => {
                write!(f, "invalid date {d:?}: expected a real YYYY-MM-DD date")
            }
        }
    }
}

impl std::error::Error for Error {}
