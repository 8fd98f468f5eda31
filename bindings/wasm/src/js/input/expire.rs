//! The options of `expire` and of `MemoryStore.sweep`, and a section's
//! expiry policy.

use serde::Deserialize;

use memdoc::describe_number;
use memdoc::store::{StoreError, SweepOptions};
use memdoc::Error;
use memdoc::{ExpireOptions, ExpiryPolicy};

use super::whole_number;

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
