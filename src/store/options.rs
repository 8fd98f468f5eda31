//! Options of the store and of its saves, with their defaults and checks.
//! Bad values are coded errors before any host call.

use std::fmt;

use crate::error::Error;
use crate::fast::char_count;
use crate::limits::Limits;
use crate::options::DEFAULT_FORBIDDEN_TEAM_HEADINGS;

use super::error::StoreError;
use super::key::{is_valid_key_prefix, DEFAULT_KEY_PREFIX};
use crate::quoted::Quoted;

/// Revisions kept by default (the current one included).
pub const DEFAULT_HISTORY_DEPTH: usize = 20;
/// The largest history depth accepted: the head record lists every kept
/// revision, and it has to stay small enough for any host's value limit.
pub const MAX_HISTORY_DEPTH: usize = 1000;
/// The longest actor name, in code points.
pub const MAX_ACTOR_CHARS: usize = 256;
/// The longest `timeout_ms`: what JavaScript's `setTimeout` can wait
/// (2^31 - 1 ms, about 24.8 days).
pub const MAX_TIMEOUT_MS: u32 = 2_147_483_647;

/// A source of ISO 8601 timestamps for `updatedAt` and the audit trail.
///
/// `Send + Sync`, so a store over a `Send + Sync` host can be shared
/// between threads and its futures are `Send`. (The wasm binding's clock
/// holds a JavaScript function, which is both in a module without threads.)
pub type Clock = Box<dyn Fn() -> String + Send + Sync>;

/// Options of a [`MemoryStore`](super::MemoryStore).
pub struct StoreOptions {
    /// Size limits of every save.
    pub limits: Limits,
    /// Headings not allowed in team scope.
    pub forbidden_team_headings: Vec<String>,
    /// The first segment(s) of every key, default `memdoc`.
    pub key_prefix: String,
    /// Revisions kept, the current one included (1–1000, default 20). The
    /// audit trail keeps as many entries.
    pub history_depth: usize,
    /// The clock; `None` uses the system clock on native targets. The wasm
    /// binding always installs one (there is no system clock on
    /// `wasm32-unknown-unknown`).
    pub now: Option<Clock>,
    /// When a save is over the hard limit and no rewrite made it fit, compact
    /// it deterministically ([`compact`](crate::compact)) to below the limit
    /// and archive every removed entry in the revision's audit entry.
    /// Off by default: removing entries is the caller's decision.
    pub compact_over_limit: bool,
    /// How long a binding that can time host calls waits for each answer,
    /// in milliseconds (1 to [`MAX_TIMEOUT_MS`]); `None` waits as long as
    /// the host takes. The core store never waits on a clock itself; the
    /// JavaScript binding races each host call against a timer of this
    /// length (`store/host-timeout`).
    pub timeout_ms: Option<u32>,
}

impl Default for StoreOptions {
    fn default() -> Self {
        Self {
            limits: Limits::default(),
            forbidden_team_headings: DEFAULT_FORBIDDEN_TEAM_HEADINGS
                .iter()
                .map(|&h| h.to_owned())
                .collect(),
            key_prefix: DEFAULT_KEY_PREFIX.to_owned(),
            history_depth: DEFAULT_HISTORY_DEPTH,
            now: None,
            compact_over_limit: false,
            timeout_ms: None,
        }
    }
}

impl fmt::Debug for StoreOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StoreOptions")
            .field("limits", &self.limits)
            .field("forbidden_team_headings", &self.forbidden_team_headings)
            .field("key_prefix", &self.key_prefix)
            .field("history_depth", &self.history_depth)
            .field("now", &self.now.as_ref().map(|_| "<clock>"))
            .field("compact_over_limit", &self.compact_over_limit)
            .field("timeout_ms", &self.timeout_ms)
            .finish()
    }
}

impl StoreOptions {
    /// Check the options.
    ///
    /// # Errors
    /// `options/invalid-key-prefix`, `options/invalid-history-depth`,
    /// `options/invalid-limits`, `options/invalid` for a `timeout_ms` of 0
    /// or over [`MAX_TIMEOUT_MS`].
    pub fn check<E>(&self) -> Result<(), StoreError<E>> {
        if !is_valid_key_prefix(&self.key_prefix) {
            return Err(StoreError::InvalidKeyPrefix(self.key_prefix.clone()));
        }
        if !(1..=MAX_HISTORY_DEPTH).contains(&self.history_depth) {
            return Err(StoreError::InvalidHistoryDepth(format!(
                "{} is not between 1 and {MAX_HISTORY_DEPTH}",
                self.history_depth
            )));
        }
        Limits::new(self.limits.soft, self.limits.hard).map_err(StoreError::Options)?;
        if let Some(ms) = self
            .timeout_ms
            .filter(|ms| !(1..=MAX_TIMEOUT_MS).contains(ms))
        {
            return Err(StoreError::Options(Error::InvalidOptions(format!(
                "timeoutMs must be a whole number of milliseconds from 1 to {MAX_TIMEOUT_MS}, not {ms}"
            ))));
        }
        Ok(())
    }
}

/// What a save does when the memory changed since its base revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "lowercase")
)]
pub enum OnConflict {
    /// Write nothing; report the current content and revision.
    #[default]
    Reject,
    /// Three-way merge against the base revision; save the merge when it is
    /// clean, otherwise report the conflict.
    Merge,
}

impl std::str::FromStr for OnConflict {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "reject" => Ok(Self::Reject),
            "merge" => Ok(Self::Merge),
            other => Err(Error::InvalidOptions(format!(
                "onConflict must be \"reject\" or \"merge\", not {}",
                Quoted(other)
            ))),
        }
    }
}

/// Options of one save or revert.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StoreSaveOptions {
    /// The revision the caller edited (0 = the memory did not exist yet).
    pub base_revision: u64,
    /// Who is writing, recorded in the audit trail.
    pub actor: Option<String>,
    /// Allow replacing a non-empty memory with an empty one.
    pub allow_erase: bool,
    /// What to do when the memory changed since `base_revision`.
    pub on_conflict: OnConflict,
}

impl StoreSaveOptions {
    /// Check the options.
    ///
    /// # Errors
    /// `store/invalid-actor` for an actor over 256 characters.
    pub fn check<E>(&self) -> Result<(), StoreError<E>> {
        match &self.actor {
            Some(a) if char_count(a) > MAX_ACTOR_CHARS => Err(StoreError::InvalidActor(format!(
                "longer than {MAX_ACTOR_CHARS} characters"
            ))),
            _ => Ok(()),
        }
    }
}
