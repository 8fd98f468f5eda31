//! Options as JavaScript passes them: camelCase, every field optional,
//! `null` allowed, numbers as `f64`. Each `resolve` checks one into the
//! core's options; a value of the right type but out of range is a coded
//! error, never a silent default (a value of the wrong type was already
//! refused as it was read, `options/invalid`). The package reads them by
//! their fields' names (`src/wasm/options.rs`); serde's derived readers are
//! for Rust callers, and the generated TypeScript declarations come from
//! these types.

use serde::Deserialize;

use crate::compact::CompactOptions;
use crate::error::Error;
use crate::expire::{ExpireOptions, ExpiryPolicy};
use crate::limits::{describe_number, Limits, DEFAULT_HARD_LIMIT};
use crate::options::{InjectOptions, Recalled, SaveOptions, Scope, ValidateOptions};
use crate::parse::is_valid_date;
use crate::recall::{RecallOptions, RecallWeights};
use crate::store::{
    MemoryRef, OnConflict, StoreError, StoreOptions, StoreSaveOptions, SweepOptions,
    MAX_HISTORY_DEPTH,
};

/// Limits as given by a caller: either may be missing.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct LimitsInput {
    /// Soft limit, default 18,000.
    pub soft: Option<f64>,
    /// Hard limit, default 25,000.
    pub hard: Option<f64>,
}

/// The loosely typed options of every pure function, as they arrive from
/// JavaScript (`camelCase`, every field optional, `null` allowed).
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields = nullable))]
#[serde(rename_all = "camelCase")]
pub struct OptionsInput {
    /// Default `"user"`.
    #[cfg_attr(test, ts(as = "Option<Scope>"))]
    pub scope: Option<String>,
    /// The stored document, for the scope and diff rules.
    pub previous: Option<String>,
    /// Either limit may be left out: its default applies.
    #[cfg_attr(test, ts(type = "Partial<Limits> | null", optional = nullable))]
    pub limits: Option<LimitsInput>,
    /// Default: the four personal headings of docs/FORMAT.md §9.
    pub forbidden_team_headings: Option<Vec<String>>,
    /// Allow replacing a non-empty memory with an empty one.
    pub allow_erase: Option<bool>,
    /// The user's display name (user scope; its first word is used).
    pub user_name: Option<String>,
    /// The content is a recalled part of a larger memory: the opening tag gets
    /// `recalled="SELECTED of ITEMS"`. A recall's `totals` can be passed as is
    /// (its other fields are ignored).
    #[cfg_attr(test, ts(inline))]
    pub recalled: Option<RecalledInput>,
}

/// [`Recalled`] as JavaScript passes it: `{ selected, items }`, so that a
/// recall's `totals` can be passed as they are.
#[derive(Debug, Clone, Copy, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RecalledInput {
    /// Items taken, a whole number ≥ 0.
    pub selected: f64,
    /// Items in the memory, a whole number ≥ `selected`.
    pub items: f64,
}

impl RecalledInput {
    /// The checked count.
    ///
    /// # Errors
    /// [`Error::InvalidOptions`] for a count that is not a whole number
    /// ≥ 0, or more selected items than items.
    pub fn resolve(self) -> Result<Recalled, Error> {
        let count = |name: &str, v: f64| {
            whole_number(v)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| {
                    Error::InvalidOptions(format!(
                        "recalled.{name} {} is not a whole number ≥ 0",
                        describe_number(v)
                    ))
                })
        };
        let recalled = Recalled {
            selected: count("selected", self.selected)?,
            items: count("items", self.items)?,
        };
        if recalled.selected > recalled.items {
            return Err(Error::InvalidOptions(format!(
                "recalled: {} selected of {} items",
                recalled.selected, recalled.items
            )));
        }
        Ok(recalled)
    }
}

impl LimitsInput {
    /// Check and complete the limits.
    ///
    /// # Errors
    /// [`Error::InvalidLimits`] for a negative, fractional, non-finite or zero
    /// limit, or `soft > hard`.
    pub fn resolve(self) -> Result<Limits, Error> {
        let defaults = Limits::default();
        let soft = whole(self.soft, defaults.soft)?;
        let hard = whole(self.hard, defaults.hard)?;
        Limits::new(soft, hard)
    }
}

fn whole(value: Option<f64>, default: usize) -> Result<usize, Error> {
    let Some(v) = value else { return Ok(default) };
    positive_whole(v)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| {
            Error::InvalidLimits(format!(
                "{} is not a positive whole number",
                describe_number(v)
            ))
        })
}

/// `n` as a whole number ≥ 1 that a JavaScript number represents exactly
/// (at most 2^53), or `None`.
pub fn positive_whole(n: f64) -> Option<u64> {
    if n.is_finite() && n >= 1.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_992.0 {
        // Checked above: a positive whole number within 2^53.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(n as u64)
    } else {
        None
    }
}

/// `n` as a whole number ≥ 0 that a JavaScript number represents exactly
/// (at most 2^53), or `None`.
pub fn whole_number(n: f64) -> Option<u64> {
    positive_whole(n).or((n == 0.0).then_some(0))
}

impl OptionsInput {
    /// The scope, default `user`.
    ///
    /// # Errors
    /// [`Error::InvalidScope`] for anything but `user` or `team`.
    pub fn scope(&self) -> Result<Scope, Error> {
        self.scope.as_deref().map_or(Ok(Scope::User), str::parse)
    }

    /// The limits, defaults filled in.
    ///
    /// # Errors
    /// [`Error::InvalidLimits`].
    pub fn limits(&self) -> Result<Limits, Error> {
        self.limits.unwrap_or_default().resolve()
    }

    /// Options for [`validate`](crate::validate). They take `previous`,
    /// a whole memory, over rather than copy it.
    ///
    /// # Errors
    /// Bad scope or limits.
    pub fn validate_options(self) -> Result<ValidateOptions, Error> {
        let defaults = ValidateOptions::default();
        Ok(ValidateOptions {
            scope: self.scope()?,
            limits: self.limits()?,
            previous: self.previous,
            forbidden_team_headings: self
                .forbidden_team_headings
                .unwrap_or(defaults.forbidden_team_headings),
        })
    }

    /// Options for [`plan_save`](crate::plan_save).
    ///
    /// # Errors
    /// Bad scope or limits.
    pub fn save_options(self) -> Result<SaveOptions, Error> {
        let allow_erase = self.allow_erase.unwrap_or(false);
        Ok(SaveOptions {
            validate: self.validate_options()?,
            allow_erase,
        })
    }

    /// Options for [`injection_block`](crate::injection_block).
    ///
    /// # Errors
    /// Bad scope or limits.
    pub fn inject_options(&self) -> Result<InjectOptions, Error> {
        Ok(InjectOptions {
            scope: self.scope()?,
            limits: self.limits()?,
            user_name: self.user_name.clone(),
            recalled: self.recalled.map(RecalledInput::resolve).transpose()?,
        })
    }
}

/// Options of `compact`.
///
/// As JavaScript passes them: checked into [`CompactOptions`].
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "CompactOptions", optional_fields = nullable))]
#[serde(rename_all = "camelCase")]
pub struct CompactOptionsInput {
    /// Default `"user"`; decides which sections are kept longest.
    #[cfg_attr(test, ts(as = "Option<Scope>"))]
    pub scope: Option<String>,
    /// Code points of the canonical form, a whole number >= 1; default 25000
    /// (the default hard limit).
    pub target: Option<f64>,
    /// `"YYYY-MM-DD"`: entry dates after it count as this day.
    pub today: Option<String>,
}

impl CompactOptionsInput {
    /// Check and complete the options.
    ///
    /// # Errors
    /// [`Error::InvalidScope`] for a scope other than `user` or `team`;
    /// [`Error::InvalidTarget`] for a target that is not a whole number from
    /// 1 to 10^15; [`Error::InvalidDate`] for a `today` that is not a real
    /// `YYYY-MM-DD` date.
    pub fn resolve(&self) -> Result<CompactOptions, Error> {
        let scope = self.scope.as_deref().map_or(Ok(Scope::User), str::parse)?;
        let target = match self.target {
            None => DEFAULT_HARD_LIMIT,
            Some(v) => whole_target(v)?,
        };
        if let Some(today) = &self.today {
            if !is_valid_date(today) {
                return Err(Error::InvalidDate(today.clone()));
            }
        }
        Ok(CompactOptions {
            scope,
            target,
            today: self.today.clone(),
        })
    }
}

fn whole_target(v: f64) -> Result<usize, Error> {
    positive_whole(v)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| {
            Error::InvalidTarget(format!(
                "{} is not a positive whole number",
                describe_number(v)
            ))
        })
}

/// Options of `new MemoryStore(host, options)`.
///
/// As they arrive from JavaScript, checked into [`StoreOptions`]; without
/// the callbacks `rewrite` and `now`, which the binding wraps itself (their
/// TypeScript declarations are in src/wasm/handwritten.d.ts).
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
/// from 1 to [`MAX_TIMEOUT_MS`](crate::store::MAX_TIMEOUT_MS) (the upper
/// bound is [`StoreOptions::check`]'s).
fn timeout_ms<E>(ms: f64) -> Result<u32, StoreError<E>> {
    positive_whole(ms)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| {
            StoreError::Options(Error::InvalidOptions(format!(
                "timeoutMs must be a whole number of milliseconds from 1 to {}, not {}",
                crate::store::MAX_TIMEOUT_MS,
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

/// How long a section's entries are kept.
///
/// As JavaScript passes it, checked into an [`ExpiryPolicy`].
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ExpiryPolicy"))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExpiryPolicyInput {
    /// A section title, compared normalized (not empty once normalized);
    /// required.
    #[cfg_attr(test, ts(as = "String"))]
    pub section: Option<String>,
    /// Entries older than this many whole days expire (0: all before
    /// `today`); required.
    #[cfg_attr(test, ts(as = "f64"))]
    pub max_age_days: Option<f64>,
}

/// Options of `expire`.
///
/// As JavaScript passes them, checked into [`ExpireOptions`].
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ExpireOptions", optional_fields = nullable))]
#[serde(rename_all = "camelCase")]
pub struct ExpireOptionsInput {
    /// `"YYYY-MM-DD"`, required.
    #[cfg_attr(test, ts(as = "String"))]
    pub today: Option<String>,
    /// The policies (none: nothing expires).
    pub policies: Option<Vec<ExpiryPolicyInput>>,
}

impl ExpireOptionsInput {
    /// Check and complete the options.
    ///
    /// # Errors
    /// [`Error::InvalidPolicy`] for a policy without `maxAgeDays` or whose
    /// `maxAgeDays` is not a whole number from 0 to 2^53; otherwise as for
    /// [`ExpireOptions::check`] (a missing `today` is an invalid date, a
    /// missing section an empty title).
    pub fn resolve(&self) -> Result<ExpireOptions, Error> {
        let policies = self
            .policies
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, p)| p.resolve(i))
            .collect::<Result<_, _>>()?;
        let options = ExpireOptions {
            today: self.today.clone().unwrap_or_default(),
            policies,
        };
        options.check()?;
        Ok(options)
    }
}

impl ExpiryPolicyInput {
    fn resolve(&self, index: usize) -> Result<ExpiryPolicy, Error> {
        let max_age_days = match self.max_age_days {
            Some(v) => whole_number(v).ok_or_else(|| {
                Error::InvalidPolicy(format!(
                    "policy {index}: maxAgeDays {} is not a whole number ≥ 0",
                    describe_number(v)
                ))
            })?,
            None => {
                return Err(Error::InvalidPolicy(format!(
                    "policy {index} needs maxAgeDays"
                )))
            }
        };
        Ok(ExpiryPolicy {
            section: self.section.clone().unwrap_or_default(),
            max_age_days,
        })
    }
}

/// Options of `MemoryStore.sweep`.
///
/// As JavaScript passes them, checked into [`SweepOptions`].
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "SweepOptions", optional_fields = nullable))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SweepOptionsInput {
    /// `"YYYY-MM-DD"`, required.
    #[cfg_attr(test, ts(as = "String"))]
    pub today: Option<String>,
    /// The policies (none: nothing expires).
    pub policies: Option<Vec<ExpiryPolicyInput>>,
    /// Who sweeps, recorded in the audit trail (at most 256 characters).
    pub actor: Option<String>,
}

impl SweepOptionsInput {
    /// Check and complete the options.
    ///
    /// # Errors
    /// `options/invalid-date`, `options/invalid-policy` (as for
    /// [`ExpireOptionsInput::resolve`]), `store/invalid-actor`.
    pub fn resolve<E>(&self) -> Result<SweepOptions, StoreError<E>> {
        let expiry = ExpireOptionsInput {
            today: self.today.clone(),
            policies: self.policies.clone(),
        }
        .resolve()
        .map_err(StoreError::Options)?;
        let options = SweepOptions {
            today: expiry.today,
            policies: expiry.policies,
            actor: self.actor.clone(),
        };
        options.check()?;
        Ok(options)
    }
}

/// The weight of each part of a recall's score. Defaults: relevance 1,
/// recency 0.25, priority 0.15.
///
/// As JavaScript passes them, checked into [`RecallWeights`]; a missing
/// weight is its default.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "RecallWeights", optional_fields = nullable))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecallWeightsInput {
    /// Default 1.
    pub relevance: Option<f64>,
    /// Default 0.25.
    pub recency: Option<f64>,
    /// Default 0.15.
    pub priority: Option<f64>,
}

/// Options of `recall`.
///
/// As JavaScript passes them, checked into [`RecallOptions`].
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "RecallOptions", optional_fields = nullable))]
#[serde(rename_all = "camelCase")]
pub struct RecallOptionsInput {
    /// Default `"user"`; decides the section priorities.
    #[cfg_attr(test, ts(as = "Option<Scope>"))]
    pub scope: Option<String>,
    /// Code points of the returned document, a whole number >= 1; default 4000.
    pub budget: Option<f64>,
    /// `"YYYY-MM-DD"` that ages count to; default the newest entry date of the memory.
    pub today: Option<String>,
    /// Section titles (compared normalized) whose items are taken first.
    pub pinned: Option<Vec<String>>,
    /// The weight of each part of the score, each a finite number >= 0.
    pub weights: Option<RecallWeightsInput>,
    /// Days after which recency halves; a positive number, default 90.
    pub half_life_days: Option<f64>,
}

impl RecallOptionsInput {
    /// Check and complete the options.
    ///
    /// # Errors
    /// [`Error::InvalidScope`]; [`Error::InvalidBudget`] for a budget that is
    /// not a positive whole number; otherwise as for
    /// [`RecallOptions::check`].
    pub fn resolve(&self) -> Result<RecallOptions, Error> {
        let defaults = RecallOptions::default();
        let scope = self.scope.as_deref().map_or(Ok(Scope::User), str::parse)?;
        let budget = match self.budget {
            None => defaults.budget,
            Some(v) => positive_whole(v)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| {
                    Error::InvalidBudget(format!(
                        "{} is not a positive whole number",
                        describe_number(v)
                    ))
                })?,
        };
        let w = self.weights.unwrap_or_default();
        let options = RecallOptions {
            scope,
            budget,
            today: self.today.clone(),
            pinned: self.pinned.clone().unwrap_or_default(),
            weights: RecallWeights {
                relevance: w.relevance.unwrap_or(defaults.weights.relevance),
                recency: w.recency.unwrap_or(defaults.weights.recency),
                priority: w.priority.unwrap_or(defaults.weights.priority),
            },
            half_life_days: self.half_life_days.unwrap_or(defaults.half_life_days),
        };
        options.check()?;
        Ok(options)
    }
}
