//! The store's options as JavaScript sends them (camelCase, every field
//! optional, numbers as `f64`) and their checked conversion into
//! [`StoreOptions`] and [`StoreSaveOptions`]. This is the only part of the
//! store that sees JavaScript-shaped input; it shares the crate's check of
//! JavaScript numbers with the other `*Input` types.

use serde::Deserialize;

use crate::options::{describe_number, positive_whole};
use crate::LimitsInput;

use super::error::StoreError;
use super::options::{OnConflict, StoreOptions, StoreSaveOptions, MAX_HISTORY_DEPTH};

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
}

impl StoreOptionsInput {
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
