//! The errors only the JavaScript boundary has: an argument that is not a
//! string where the Rust API takes `&str`, a panic (a bug, reported instead
//! of a bare trap), and a result that could not be converted (a bug).

use std::fmt;

use memdoc::error_codes;

/// A failure at the boundary, with a stable [`BoundaryError::code`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoundaryError {
    /// An argument where a string was required was something else; the
    /// text names the argument.
    NotAString(String),
    /// A bug in memdoc: the engine panicked. The message is the panic's.
    Panic(String),
    /// A bug in memdoc: a result could not be converted for the caller.
    Internal(String),
}

error_codes! {
    BoundaryError,
    /// Every code a [`BoundaryError`] can have.
    pub const BOUNDARY_ERROR_CODES;
    NotAString = "input/not-a-string",
    Panic = "internal/panic",
    Internal = "internal/error",
}

impl fmt::Display for BoundaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAString(what) => write!(f, "{what} must be a string"),
            Self::Panic(why) => write!(f, "memdoc panicked (this is a bug): {why}"),
            Self::Internal(why) => write!(f, "internal error (this is a bug): {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BoundaryError, BOUNDARY_ERROR_CODES};
    use memdoc::store::STORE_ERROR_CODES;
    use memdoc::Error;

    #[test]
    fn every_variant_has_a_listed_code_and_a_sentence() {
        let all = [
            BoundaryError::NotAString("text".into()),
            BoundaryError::Panic("boom".into()),
            BoundaryError::Internal("x".into()),
        ];
        let codes: Vec<&str> = all.iter().map(BoundaryError::code).collect();
        assert_eq!(
            codes, BOUNDARY_ERROR_CODES,
            "should list every code once, in order"
        );
        assert_eq!(all[0].to_string(), "text must be a string");
        assert_eq!(all[1].to_string(), "memdoc panicked (this is a bug): boom");
        let others = [Error::CODES, STORE_ERROR_CODES].concat();
        assert!(
            BOUNDARY_ERROR_CODES.iter().all(|c| !others.contains(c)),
            "should not repeat a code of Error or StoreError"
        );
    }
}
