//! The options of the pure functions (`validate`, `planSave`, `injectionBlock`, …),
//! their limits, and a recall's totals handed to `injectionBlock`.

use serde::Deserialize;

use memdoc::Error;
use memdoc::{describe_number, Limits};
use memdoc::{InjectOptions, Recalled, SaveOptions, Scope, ValidateOptions};

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

    /// Options for [`validate`](memdoc::validate). They take `previous`,
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

    /// Options for [`plan_save`](memdoc::plan_save).
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

    /// Options for [`injection_block`](memdoc::injection_block).
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
