//! The crate's one error type: bad options, with a stable code each. Findings
//! about a document are never errors; they are diagnostics. Also the
//! [`error_codes!`] table that gives this type, the store's error and the
//! boundary's their codes, each written once.

use crate::quoted::Quoted;
use std::fmt;

/// The codes of an error enum, written once: `code()` (each variant's stable
/// string) and the list of every code in the table's order. A variant that
/// passes another error's code on is named after `=>` with the expression
/// that gives it. A variant whose code depends on a field names the field's
/// patterns in braces, one row per code (`Variant { field: Pattern } = "…"`).
///
/// Public so that the errors of a crate over this one (the npm module's
/// boundary errors, bindings/wasm/) are coded the same way.
#[macro_export]
macro_rules! error_codes {
    (
        $ty:ident $(<$g:ident>)?, $(#[$list_doc:meta])* $vis:vis const $list:ident;
        $($variant:ident $({ $($field:ident: $pat:pat),+ })? = $code:literal,)*
        $(=> $pass:ident($inner:ident) => $via:expr;)?
    ) => {
        $(#[$list_doc])*
        $vis const $list: &[&str] = &[$($code,)*];

        impl$(<$g>)? $ty$(<$g>)? {
            /// The stable code of this error, e.g. `options/invalid-scope`.
            #[must_use]
            pub const fn code(&self) -> &'static str {
                match self {
                    $(Self::$variant { $($($field: $pat,)+)? .. } => $code,)*
                    $(Self::$pass($inner) => $via,)?
                }
            }
        }
    };
}

/// What went wrong, with a stable [`Error::code`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A scope other than exactly `user` or `team`.
    InvalidScope(String),
    /// Limits that are zero or have `soft > hard`.
    InvalidLimits(String),
    /// Options of the wrong shape (a field of the wrong type or value).
    InvalidOptions(String),
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
    /// Recall vectors that do not fit the memory: an empty query vector,
    /// item vectors of another number or length, or a value that is not
    /// finite.
    InvalidVectors(String),
}

error_codes! {
    Error,
    /// Every code [`Error::code`] can return, for callers that match on them.
    const ERROR_CODES;
    InvalidScope = "options/invalid-scope",
    InvalidLimits = "options/invalid-limits",
    InvalidOptions = "options/invalid",
    InvalidTarget = "options/invalid-target",
    InvalidDate = "options/invalid-date",
    InvalidBudget = "options/invalid-budget",
    InvalidWeight = "options/invalid-weight",
    InvalidPolicy = "options/invalid-policy",
    InvalidVectors = "options/invalid-vectors",
}

impl Error {
    /// Every code [`Error::code`] can return, for callers that match on them.
    pub const CODES: &'static [&'static str] = ERROR_CODES;
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidScope(s) => {
                write!(
                    f,
                    "invalid scope {}: expected \"user\" or \"team\"",
                    Quoted(s)
                )
            }
            Self::InvalidLimits(why) => write!(f, "invalid limits: {why}"),
            Self::InvalidOptions(why) => write!(f, "invalid options: {why}"),
            Self::InvalidTarget(why) => write!(f, "invalid target: {why}"),
            Self::InvalidDate(d) => {
                write!(
                    f,
                    "invalid date {}: expected a real YYYY-MM-DD date",
                    Quoted(d)
                )
            }
            Self::InvalidBudget(why) => write!(f, "invalid budget: {why}"),
            Self::InvalidWeight(why) => write!(f, "invalid weight: {why}"),
            Self::InvalidPolicy(why) => write!(f, "invalid expiry policy: {why}"),
            Self::InvalidVectors(why) => write!(f, "invalid vectors: {why}"),
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
            Error::InvalidTarget("x".into()),
            Error::InvalidDate("x".into()),
            Error::InvalidBudget("x".into()),
            Error::InvalidWeight("x".into()),
            Error::InvalidPolicy("x".into()),
            Error::InvalidVectors("x".into()),
        ];
        let codes: Vec<&str> = all.iter().map(Error::code).collect();
        assert_eq!(codes, Error::CODES, "should list every code once, in order");
        assert_eq!(
            Error::InvalidLimits("soft > hard".into()).to_string(),
            "invalid limits: soft > hard"
        );
    }
}
