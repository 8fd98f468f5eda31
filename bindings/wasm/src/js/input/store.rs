//! The options of a `MemoryStore` (its constructor, `save` and `revert`),
//! a revision number, a memory's reference, and the records `importRecords`
//! takes.

use serde::Deserialize;

use memdoc::describe_number;
use memdoc::store::{
    MemoryRef, OnConflict, StoreError, StoreOptions, StoreSaveOptions, StoredRecords,
    StoredSnapshot, MAX_HISTORY_DEPTH,
};
use memdoc::Error;
#[cfg(test)]
use memdoc::Scope;

use super::{positive_whole, whole_number, LimitsInput};

/// Options of `new MemoryStore(host, options)`.
///
/// As they arrive from JavaScript, checked into [`StoreOptions`]; without
/// the callbacks `rewrite` and `now`, which the binding wraps itself (their
/// TypeScript declarations are in src/base/handwritten.d.ts).
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "StoreOptions", optional_fields = nullable))]
#[serde(rename_all = "camelCase")]
pub struct StoreOptionsInput {
    /// Either limit may be left out: its default applies.
    #[cfg_attr(test, ts(type = "Partial<Limits> | null", optional = nullable))]
    pub limits: Option<LimitsInput>,
    /// Default: the four personal headings of docs/FORMAT.md §9.
    pub forbidden_team_headings: Option<Vec<String>>,
    /// Default `"memdoc"`.
    pub key_prefix: Option<String>,
    /// Revisions kept, 1-1000; default 20.
    pub history_depth: Option<f64>,
    /// Over the hard limit (and when `rewrite` did not make it fit), compact
    /// the document deterministically and archive every removed entry in the
    /// revision's `AuditEntry.archived`. Default `false`.
    pub compact_over_limit: Option<bool>,
    /// How long each host call (`get`, `put`, `delete`) may take, in
    /// milliseconds (a whole number, 1 to 2147483647); a call that takes longer
    /// rejects the operation with `store/host-timeout`. Default: no limit (a
    /// host promise that never settles leaves the operation pending). A write
    /// that timed out may still be carried out by the host later; the memory
    /// stays consistent (compare-and-swap), so reload before retrying.
    pub timeout_ms: Option<f64>,
}

impl StoreOptionsInput {
    /// Checked options, defaults filled in, without a clock.
    ///
    /// # Errors
    /// Bad limits, prefix, depth or `timeoutMs`.
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
            timeout_ms: self.timeout_ms.map(timeout_ms).transpose()?,
        };
        options.check()?;
        Ok(options)
    }
}

/// A `timeoutMs` from a JavaScript number: a whole number of milliseconds
/// from 1 to [`MAX_TIMEOUT_MS`](memdoc::store::MAX_TIMEOUT_MS) (the upper
/// bound is [`StoreOptions::check`]'s).
fn timeout_ms<E>(ms: f64) -> Result<u32, StoreError<E>> {
    positive_whole(ms)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| {
            StoreError::Options(Error::InvalidOptions(format!(
                "timeoutMs must be a whole number of milliseconds from 1 to {}, not {}",
                memdoc::store::MAX_TIMEOUT_MS,
                describe_number(ms)
            )))
        })
}

/// Options of `save` and `revert`.
///
/// As they arrive from JavaScript, checked into [`StoreSaveOptions`].
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "StoreSaveOptions", optional_fields = nullable))]
#[serde(rename_all = "camelCase")]
pub struct StoreSaveOptionsInput {
    /// The revision the caller edited (0 = none yet); required.
    #[cfg_attr(test, ts(as = "f64"))]
    pub base_revision: Option<f64>,
    /// Who is writing, recorded in the audit trail (at most 256 characters).
    pub actor: Option<String>,
    /// Allow replacing a non-empty memory with an empty one.
    pub allow_erase: Option<bool>,
    /// Default `"reject"`.
    #[cfg_attr(test, ts(as = "Option<OnConflict>", inline))]
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
        .or(if zero_ok { whole_number(n) } else { None })
        .ok_or_else(|| {
            StoreError::InvalidRevision(format!(
                "{} is not a whole number {}",
                describe_number(n),
                if zero_ok { "≥ 0" } else { "≥ 1" }
            ))
        })
}

/// One memory. `id`: 1-128 of `[A-Za-z0-9._@:-]`, starting alphanumeric.
///
/// As it arrives from JavaScript, checked into a [`MemoryRef`].
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "MemoryRef"))]
#[serde(deny_unknown_fields)]
pub struct MemoryRefInput {
    /// Whose memory it is.
    #[cfg_attr(test, ts(as = "Scope"))]
    pub scope: String,
    /// The id.
    pub id: String,
}

impl MemoryRefInput {
    /// The checked reference.
    ///
    /// # Errors
    /// `options/invalid-scope`, `store/invalid-id`.
    pub fn resolve<E>(&self) -> Result<MemoryRef, StoreError<E>> {
        MemoryRef::parse(&self.scope, &self.id)
    }
}

/// A memory's records as `importRecords` takes them: [`StoredRecords`]
/// with its revisions as JavaScript numbers.
#[derive(Debug, Clone)]
pub struct StoredRecordsInput {
    /// The head record.
    pub head: String,
    /// The kept snapshots the head names.
    pub snapshots: Vec<StoredSnapshotInput>,
}

/// One snapshot of [`StoredRecordsInput`].
#[derive(Debug, Clone)]
pub struct StoredSnapshotInput {
    /// The revision it holds.
    pub revision: f64,
    /// Its key.
    pub key: String,
    /// The snapshot record.
    pub value: String,
}

impl StoredRecordsInput {
    /// The records, each revision checked.
    ///
    /// # Errors
    /// `store/invalid-revision`.
    pub fn resolve<E>(self) -> Result<StoredRecords, StoreError<E>> {
        let snapshots = self
            .snapshots
            .into_iter()
            .map(|s| {
                Ok(StoredSnapshot {
                    revision: revision_number(s.revision, false)?,
                    key: s.key,
                    value: s.value,
                })
            })
            .collect::<Result<_, StoreError<E>>>()?;
        Ok(StoredRecords {
            head: self.head,
            snapshots,
        })
    }
}
