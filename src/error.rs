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
    /// A recall budget that is not a positive whole number.
    InvalidBudget(String),
    /// A recall weight that is negative or not finite, or a half-life that
    /// is not a positive number of days.
    InvalidWeight(String),
    /// An expiry policy without a section or with a maximum age that is not
    /// a whole number of days ≥ 0.
    InvalidPolicy(String),
    /// A bug in memdoc: the engine panicked. The message is the panic's.
    Panic(String),
    /// A bug in memdoc: a result could not be converted for the caller.
    Internal(String),
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
            Self::InvalidBudget(_) => "options/invalid-budget",
            Self::InvalidWeight(_) => "options/invalid-weight",
            Self::InvalidPolicy(_) => "options/invalid-policy",
            Self::Panic(_) => "internal/panic",
            Self::Internal(_) => "internal/error",
        }
    }

    /// Every code [`Error::code`] can return, for callers that match on them
    /// (the TypeScript `ErrorCode` union is checked against this list).
    pub const CODES: &'static [&'static str] = &[
        "options/invalid-scope",
        "options/invalid-limits",
        "options/invalid",
        "input/not-a-string",
        "options/invalid-target",
        "options/invalid-date",
        "options/invalid-budget",
        "options/invalid-weight",
        "options/invalid-policy",
        "internal/panic",
        "internal/error",
    ];
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
            Self::InvalidBudget(why) => write!(f, "invalid budget: {why}"),
            Self::InvalidWeight(why) => write!(f, "invalid weight: {why}"),
            Self::InvalidPolicy(why) => write!(f, "invalid expiry policy: {why}"),
            Self::Panic(why) => write!(f, "memdoc panicked (this is a bug): {why}"),
            Self::Internal(why) => write!(f, "internal error (this is a bug): {why}"),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn every_variant_has_a_listed_code_and_a_sentence() {
        let all = [
            Error::InvalidScope("x".into()),
            Error::InvalidLimits("x".into()),
            Error::InvalidOptions("x".into()),
            Error::NotAString("text".into()),
            Error::InvalidTarget("x".into()),
            Error::InvalidDate("x".into()),
            Error::InvalidBudget("x".into()),
            Error::InvalidWeight("x".into()),
            Error::InvalidPolicy("x".into()),
            Error::Panic("x".into()),
            Error::Internal("x".into()),
        ];
        let codes: Vec<&str> = all.iter().map(Error::code).collect();
        assert_eq!(codes, Error::CODES, "should list every code once, in order");
        assert_eq!(
            Error::NotAString("text".into()).to_string(),
            "text must be a string"
        );
        assert!(Error::Panic("boom".into()).to_string().contains("boom"));
    }
}
