//! The store's errors, each with a stable code. A host's own failure is kept
//! unchanged as the cause (in the wasm binding it is the original `JsValue`),
//! never stringified; a read that failed is an error, never an empty memory.

use std::fmt;

use crate::error::Error;
use crate::error_codes;
use crate::quoted::Quoted;

/// Why a host call did not give a usable answer. A failure and a malformed
/// answer surface as `store/host-failed`, no answer in time as
/// `store/host-timeout`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostFailure<E> {
    /// The host itself failed (in JavaScript: the promise was rejected).
    Error(E),
    /// The host answered with something that is not a valid answer (wrong
    /// types, a record without `value` or `version`, `ok` missing).
    Malformed(String),
    /// The host did not answer within this many milliseconds (the store's
    /// `timeoutMs`, in bindings that can time a call). A write that timed
    /// out may still be carried out later; compare-and-swap keeps the
    /// memory consistent either way.
    TimedOut(u32),
}

/// What went wrong in a store operation, with a stable [`StoreError::code`].
///
/// | code | when |
/// |---|---|
/// | `store/host-failed` | a host call failed or answered malformed data |
/// | `store/host-timeout` | a host call did not answer within the store's `timeoutMs` |
/// | `store/invalid-id` | an id that is not 1–128 of `[A-Za-z0-9._@:-]` starting alphanumeric |
/// | `store/invalid-revision` | a revision or base revision that is not a whole number, or one the memory never had |
/// | `store/revision-unavailable` | a revision older than the history the store keeps |
/// | `store/corrupt-record` | a stored record that cannot be decoded or does not belong to its key |
/// | `store/unsupported-format` | a record written in a format this version does not read |
/// | `store/snapshot-collision` | every candidate snapshot key was taken by different data |
/// | `store/import-conflict` | another writer kept changing a record an import was writing |
/// | `store/invalid-actor` | an actor longer than 256 characters |
/// | `options/invalid-key-prefix` | a key prefix that is not 1–64 of `[A-Za-z0-9._:-]` in `/`-separated segments |
/// | `options/invalid-history-depth` | a history depth outside 1–1000 |
/// | `options/invalid-scope`, `options/invalid-limits`, `options/invalid` | bad options, as for the pure functions |
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreError<E> {
    /// A host call failed; `key` is the key it was about.
    HostFailed {
        /// The key of the failed call.
        key: String,
        /// The host's failure, kept as it was.
        cause: HostFailure<E>,
    },
    /// An id outside the id grammar.
    InvalidId(String),
    /// A revision number that is not valid here.
    InvalidRevision(String),
    /// A revision older than the kept history.
    RevisionUnavailable {
        /// The revision asked for.
        revision: u64,
        /// The oldest revision still kept.
        oldest: u64,
    },
    /// A stored record that cannot be decoded or is inconsistent.
    CorruptRecord {
        /// The key it was read from.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A record in a format this version does not read.
    UnsupportedFormat {
        /// The key it was read from.
        key: String,
        /// The record's `format` field.
        format: String,
    },
    /// Every candidate key for a snapshot already held different data.
    SnapshotCollision(String),
    /// Another writer kept changing the record at this key while an import
    /// was replacing it.
    ImportConflict(String),
    /// An actor name that is too long.
    InvalidActor(String),
    /// A key prefix outside the prefix grammar.
    InvalidKeyPrefix(String),
    /// A history depth outside 1–1000.
    InvalidHistoryDepth(String),
    /// Bad scope, limits or options, as for the pure functions.
    Options(Error),
}

error_codes! {
    StoreError<E>,
    /// Every code a [`StoreError`] can have beyond those of [`Error`] (which
    /// [`StoreError::Options`] passes on), in the order of the table above.
    pub const STORE_ERROR_CODES;
    HostFailed { cause: HostFailure::Error(_) | HostFailure::Malformed(_) } = "store/host-failed",
    HostFailed { cause: HostFailure::TimedOut(_) } = "store/host-timeout",
    InvalidId = "store/invalid-id",
    InvalidRevision = "store/invalid-revision",
    RevisionUnavailable = "store/revision-unavailable",
    CorruptRecord = "store/corrupt-record",
    UnsupportedFormat = "store/unsupported-format",
    SnapshotCollision = "store/snapshot-collision",
    ImportConflict = "store/import-conflict",
    InvalidActor = "store/invalid-actor",
    InvalidKeyPrefix = "options/invalid-key-prefix",
    InvalidHistoryDepth = "options/invalid-history-depth",
    => Options(e) => e.code();
}

impl<E> StoreError<E> {
    /// The key of the record the error is about, when it is about one.
    #[must_use]
    pub fn key(&self) -> Option<&str> {
        match self {
            Self::HostFailed { key, .. }
            | Self::CorruptRecord { key, .. }
            | Self::UnsupportedFormat { key, .. }
            | Self::SnapshotCollision(key)
            | Self::ImportConflict(key) => Some(key),
            _ => None,
        }
    }

    /// The host's own error, when a host call failed with one.
    #[must_use]
    pub const fn host_cause(&self) -> Option<&E> {
        match self {
            Self::HostFailed {
                cause: HostFailure::Error(e),
                ..
            } => Some(e),
            _ => None,
        }
    }

    /// The same error with the host error converted by `f` (for example to
    /// a type that is `Send`, or for display).
    #[must_use]
    pub fn map_host<F, T>(self, f: T) -> StoreError<F>
    where
        T: FnOnce(E) -> F,
    {
        match self {
            Self::HostFailed { key, cause } => StoreError::HostFailed {
                key,
                cause: match cause {
                    HostFailure::Error(e) => HostFailure::Error(f(e)),
                    HostFailure::Malformed(why) => HostFailure::Malformed(why),
                    HostFailure::TimedOut(ms) => HostFailure::TimedOut(ms),
                },
            },
            Self::InvalidId(s) => StoreError::InvalidId(s),
            Self::InvalidRevision(s) => StoreError::InvalidRevision(s),
            Self::RevisionUnavailable { revision, oldest } => {
                StoreError::RevisionUnavailable { revision, oldest }
            }
            Self::CorruptRecord { key, reason } => StoreError::CorruptRecord { key, reason },
            Self::UnsupportedFormat { key, format } => {
                StoreError::UnsupportedFormat { key, format }
            }
            Self::SnapshotCollision(s) => StoreError::SnapshotCollision(s),
            Self::ImportConflict(s) => StoreError::ImportConflict(s),
            Self::InvalidActor(s) => StoreError::InvalidActor(s),
            Self::InvalidKeyPrefix(s) => StoreError::InvalidKeyPrefix(s),
            Self::InvalidHistoryDepth(s) => StoreError::InvalidHistoryDepth(s),
            Self::Options(e) => StoreError::Options(e),
        }
    }
}

impl<E> StoreError<E> {
    /// One human sentence, without the host's own error (which a binding
    /// attaches as the `cause`, unchanged). Needs no `Display` of `E`.
    #[must_use]
    pub fn message(&self) -> String {
        match self {
            Self::HostFailed {
                key,
                cause: HostFailure::Error(_),
            } => format!("the host failed on {}", Quoted(key)),
            Self::HostFailed {
                key,
                cause: HostFailure::Malformed(why),
            } => format!("the host answered malformed data for {}: {why}", Quoted(key)),
            Self::HostFailed {
                key,
                cause: HostFailure::TimedOut(ms),
            } => format!("the host did not answer within {ms} ms for {}", Quoted(key)),
            Self::InvalidId(id) => format!(
                "invalid memory id {}: expected 1-128 of [A-Za-z0-9._@:-], starting with a letter or digit",
                Quoted(id)
            ),
            Self::InvalidRevision(why) => format!("invalid revision: {why}"),
            Self::RevisionUnavailable { revision, oldest } => format!(
                "revision {revision} is no longer kept; the oldest kept revision is {oldest}"
            ),
            Self::CorruptRecord { key, reason } => {
                format!("the record at {} is corrupt: {reason}", Quoted(key))
            }
            Self::UnsupportedFormat { key, format } => format!(
                "the record at {} has format {}, which this version cannot read",
                Quoted(key),
                Quoted(format)
            ),
            Self::SnapshotCollision(key) => {
                format!("every snapshot key near {} holds different data", Quoted(key))
            }
            Self::ImportConflict(key) => format!(
                "another writer kept changing {} while the import wrote it",
                Quoted(key)
            ),
            Self::InvalidActor(why) => format!("invalid actor: {why}"),
            Self::InvalidKeyPrefix(p) => format!(
                "invalid key prefix {}: expected 1-64 of [A-Za-z0-9._:-] in non-empty /-separated segments",
                Quoted(p)
            ),
            Self::InvalidHistoryDepth(why) => format!("invalid history depth: {why}"),
            Self::Options(e) => e.to_string(),
        }
    }
}

impl<E: fmt::Display> fmt::Display for StoreError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())?;
        match self.host_cause() {
            Some(e) => write!(f, ": {e}"),
            None => Ok(()),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for StoreError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::HostFailed {
                cause: HostFailure::Error(e),
                ..
            } => Some(e),
            Self::Options(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{HostFailure, StoreError, STORE_ERROR_CODES};
    use crate::error::Error;

    #[test]
    fn every_variant_has_a_listed_code() {
        let all: [StoreError<()>; 12] = [
            StoreError::HostFailed {
                key: "k".into(),
                cause: HostFailure::Error(()),
            },
            StoreError::HostFailed {
                key: "k".into(),
                cause: HostFailure::TimedOut(5),
            },
            StoreError::InvalidId("x".into()),
            StoreError::InvalidRevision("x".into()),
            StoreError::RevisionUnavailable {
                revision: 1,
                oldest: 2,
            },
            StoreError::CorruptRecord {
                key: "k".into(),
                reason: "x".into(),
            },
            StoreError::UnsupportedFormat {
                key: "k".into(),
                format: "x".into(),
            },
            StoreError::SnapshotCollision("k".into()),
            StoreError::ImportConflict("k".into()),
            StoreError::InvalidActor("x".into()),
            StoreError::InvalidKeyPrefix("x".into()),
            StoreError::InvalidHistoryDepth("x".into()),
        ];
        let codes: Vec<&str> = all.iter().map(StoreError::code).collect();
        assert_eq!(
            codes, STORE_ERROR_CODES,
            "should list every code once, in order"
        );
        assert!(
            STORE_ERROR_CODES.iter().all(|c| !Error::CODES.contains(c)),
            "should not repeat a code of Error"
        );
        let options: StoreError<()> = StoreError::Options(Error::InvalidScope("x".into()));
        assert_eq!(options.code(), "options/invalid-scope");
    }
}
