//! Options of the store and of its saves, with their defaults, and the
//! checked conversion from loosely typed input (camelCase, as JavaScript
//! sends it). Bad values are coded errors before any host call.

use std::fmt;

use serde::Deserialize;

use crate::error::Error;
use crate::limits::Limits;
use crate::options::{
    describe_number, positive_whole, LimitsInput, DEFAULT_FORBIDDEN_TEAM_HEADINGS,
};

use super::error::StoreError;
use super::key::{is_valid_key_prefix, DEFAULT_KEY_PREFIX};

/// Revisions kept by default (the current one included).
pub const DEFAULT_HISTORY_DEPTH: usize = 20;
/// The largest history depth accepted: the head record lists every kept
/// revision, and it has to stay small enough for any host's value limit.
pub const MAX_HISTORY_DEPTH: usize = 1000;
/// The longest actor name, in code points.
pub const MAX_ACTOR_CHARS: usize = 256;

/// A source of ISO 8601 timestamps for `updatedAt` and the audit trail.
///
/// Natively it is `Send + Sync`, so a store over a `Send + Sync` host can be
/// shared between threads and its futures are `Send`. On wasm32 there are no
/// threads to share with, and the binding's clock holds a JavaScript
/// function, which is neither.
#[cfg(not(target_arch = "wasm32"))]
pub type Clock = Box<dyn Fn() -> String + Send + Sync>;
/// A source of ISO 8601 timestamps for `updatedAt` and the audit trail.
#[cfg(target_arch = "wasm32")]
pub type Clock = Box<dyn Fn() -> String>;

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
            .finish()
    }
}

impl StoreOptions {
    /// Check the options.
    ///
    /// # Errors
    /// `options/invalid-key-prefix`, `options/invalid-history-depth`,
    /// `options/invalid-limits`.
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
        Ok(())
    }
}

/// What a save does when the memory changed since its base revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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
                "onConflict must be \"reject\" or \"merge\", not {other:?}"
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
            Some(a) if a.chars().count() > MAX_ACTOR_CHARS => Err(StoreError::InvalidActor(
                format!("longer than {MAX_ACTOR_CHARS} characters"),
            )),
            _ => Ok(()),
        }
    }
}

/// [`StoreOptions`] as they arrive from JavaScript (without the callbacks,
/// which the binding wraps itself).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreOptionsInput {
    /// Partial limits.
    pub limits: Option<LimitsInput>,
    /// Headings not allowed in team scope.
    pub forbidden_team_headings: Option<Vec<String>>,
    /// Key prefix.
    pub key_prefix: Option<String>,
    /// History depth, a whole number.
    pub history_depth: Option<f64>,
    /// Compact deterministically when over the hard limit.
    pub compact_over_limit: Option<bool>,
    /// How long a binding that can time host calls waits for each answer,
    /// in milliseconds (see [`StoreOptionsInput::timeout_ms`]).
    pub timeout_ms: Option<f64>,
}

/// The longest `timeoutMs`: what JavaScript's `setTimeout` can wait
/// (2^31 - 1 ms, about 24.8 days).
pub const MAX_TIMEOUT_MS: u32 = 2_147_483_647;

impl StoreOptionsInput {
    /// The checked `timeoutMs`: `None` (wait as long as the host takes) or a
    /// whole number of milliseconds from 1 to [`MAX_TIMEOUT_MS`]. The core
    /// store never waits on a clock itself; the JavaScript binding races
    /// each host call against a timer of this length.
    ///
    /// # Errors
    /// `options/invalid` for any other number.
    pub fn timeout_ms<E>(&self) -> Result<Option<u32>, StoreError<E>> {
        let Some(ms) = self.timeout_ms else {
            return Ok(None);
        };
        positive_whole(ms)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n <= MAX_TIMEOUT_MS)
            .map(Some)
            .ok_or_else(|| {
                StoreError::Options(Error::InvalidOptions(format!(
                    "timeoutMs must be a whole number of milliseconds from 1 to {MAX_TIMEOUT_MS}, not {}",
                    describe_number(ms)
                )))
            })
    }

    /// Checked options, defaults filled in, without a clock.
    ///
    /// # Errors
    /// Bad limits, prefix or depth.
    pub fn resolve<E>(self) -> Result<StoreOptions, StoreError<E>> {
        let defaults = StoreOptions::default();
        let history_depth = match self.history_depth {
            None => defaults.history_depth,
            Some(d) => positive_whole(d)
                .filter(|&n| n <= MAX_HISTORY_DEPTH as u64)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| {
                    StoreError::InvalidHistoryDepth(format!(
                        "{} is not a whole number between 1 and {MAX_HISTORY_DEPTH}",
                        describe_number(d)
                    ))
                })?,
        };
        let options = StoreOptions {
            limits: self
                .limits
                .unwrap_or_default()
                .resolve()
                .map_err(StoreError::Options)?,
            forbidden_team_headings: self
                .forbidden_team_headings
                .unwrap_or(defaults.forbidden_team_headings),
            key_prefix: self.key_prefix.unwrap_or(defaults.key_prefix),
            history_depth,
            now: None,
            compact_over_limit: self.compact_over_limit.unwrap_or(false),
        };
        options.check()?;
        Ok(options)
    }
}

/// [`StoreSaveOptions`] as they arrive from JavaScript.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreSaveOptionsInput {
    /// Required: a whole number ≥ 0.
    pub base_revision: Option<f64>,
    /// Who is writing.
    pub actor: Option<String>,
    /// Allow an erase.
    pub allow_erase: Option<bool>,
    /// `"reject"` or `"merge"`.
    pub on_conflict: Option<String>,
}

impl StoreSaveOptionsInput {
    /// Checked save options.
    ///
    /// # Errors
    /// `store/invalid-revision` for a missing, negative or fractional base
    /// revision; `options/invalid` for an unknown `onConflict`;
    /// `store/invalid-actor`.
    pub fn resolve<E>(self) -> Result<StoreSaveOptions, StoreError<E>> {
        let base = self.base_revision.ok_or_else(|| {
            StoreError::InvalidRevision("baseRevision is required (0 for a new memory)".to_owned())
        })?;
        let base_revision = revision_number(base, true)?;
        let options = StoreSaveOptions {
            base_revision,
            actor: self.actor,
            allow_erase: self.allow_erase.unwrap_or(false),
            on_conflict: self
                .on_conflict
                .as_deref()
                .map_or(Ok(OnConflict::Reject), str::parse)
                .map_err(StoreError::Options)?,
        };
        options.check()?;
        Ok(options)
    }
}

/// A revision number from a JavaScript number: whole, at least 1 (or 0 when
/// `zero_ok`), at most 2^53.
///
/// # Errors
/// `store/invalid-revision`.
pub fn revision_number<E>(n: f64, zero_ok: bool) -> Result<u64, StoreError<E>> {
    positive_whole(n)
        .or(if zero_ok && n == 0.0 { Some(0) } else { None })
        .ok_or_else(|| {
            StoreError::InvalidRevision(format!(
                "{} is not a whole number {}",
                describe_number(n),
                if zero_ok { "≥ 0" } else { "≥ 1" }
            ))
        })
}
