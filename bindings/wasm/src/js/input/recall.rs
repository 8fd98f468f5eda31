//! The options of `recall` and their weights.

use serde::Deserialize;

use memdoc::describe_number;
use memdoc::Error;
use memdoc::Scope;
use memdoc::{RecallOptions, RecallWeights};

use super::positive_whole;

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
