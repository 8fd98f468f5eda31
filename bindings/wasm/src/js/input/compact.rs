//! The options of `compact`.

use serde::Deserialize;

use memdoc::is_valid_date;
use memdoc::CompactOptions;
use memdoc::Error;
use memdoc::Scope;
use memdoc::{describe_number, DEFAULT_HARD_LIMIT};

use super::positive_whole;

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
