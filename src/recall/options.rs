//! The options of [`recall`](crate::recall), their documented defaults, and
//! their checked conversion from loosely typed input (what arrives from
//! JavaScript): bad values are coded errors, never silent defaults.

use serde::Deserialize;

use crate::error::Error;
use crate::js::input::{describe_number, positive_whole};
use crate::options::Scope;
use crate::parse::is_valid_date;

/// The default budget: code points of the recalled document.
pub const DEFAULT_RECALL_BUDGET: usize = 4_000;

/// The default half-life of recency, in days: an entry this old counts half
/// as recent as one dated `today`, one twice as old a quarter.
pub const DEFAULT_HALF_LIFE_DAYS: f64 = 90.0;

/// The default weight of lexical relevance (BM25, scaled so the best
/// matching item has 1).
pub const DEFAULT_RELEVANCE_WEIGHT: f64 = 1.0;

/// The default weight of recency (1 for an entry dated `today`, halving
/// every half-life; 0.5 for an undated line).
pub const DEFAULT_RECENCY_WEIGHT: f64 = 0.25;

/// The default weight of section priority (compaction's classes: core 1,
/// facts 2/3, other 1/3, transient 0).
pub const DEFAULT_PRIORITY_WEIGHT: f64 = 0.15;

/// The weight of each part of an item's score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecallWeights {
    /// Lexical relevance.
    pub relevance: f64,
    /// Recency.
    pub recency: f64,
    /// Section priority.
    pub priority: f64,
}

impl Default for RecallWeights {
    fn default() -> Self {
        Self {
            relevance: DEFAULT_RELEVANCE_WEIGHT,
            recency: DEFAULT_RECENCY_WEIGHT,
            priority: DEFAULT_PRIORITY_WEIGHT,
        }
    }
}

/// Options of [`recall`](crate::recall).
#[derive(Debug, Clone, PartialEq)]
pub struct RecallOptions {
    /// Whose memory it is: decides the section priorities.
    pub scope: Scope,
    /// The most code points the recalled document may have.
    pub budget: usize,
    /// `YYYY-MM-DD` that ages are counted to. `None`: the newest entry date
    /// of the document (so the result depends on the text alone).
    pub today: Option<String>,
    /// Section titles (compared normalized) whose items are taken first,
    /// whether they match the query or not, as far as they fit.
    pub pinned: Vec<String>,
    /// The weights of the score's parts.
    pub weights: RecallWeights,
    /// The half-life of recency in days (positive).
    pub half_life_days: f64,
}

impl Default for RecallOptions {
    fn default() -> Self {
        Self {
            scope: Scope::User,
            budget: DEFAULT_RECALL_BUDGET,
            today: None,
            pinned: Vec::new(),
            weights: RecallWeights::default(),
            half_life_days: DEFAULT_HALF_LIFE_DAYS,
        }
    }
}

/// [`RecallWeights`] as JavaScript passes them; a missing weight is its
/// default.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecallWeightsInput {
    /// Default 1.
    pub relevance: Option<f64>,
    /// Default 0.25.
    pub recency: Option<f64>,
    /// Default 0.15.
    pub priority: Option<f64>,
}

/// [`RecallOptions`] as JavaScript passes them: camelCase, every field
/// optional, `null` allowed.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecallOptionsInput {
    /// `"user"` or `"team"`, default `"user"`.
    pub scope: Option<String>,
    /// A positive whole number, default 4,000.
    pub budget: Option<f64>,
    /// A real `YYYY-MM-DD` date.
    pub today: Option<String>,
    /// Section titles taken first.
    pub pinned: Option<Vec<String>>,
    /// Partial weights.
    pub weights: Option<RecallWeightsInput>,
    /// A positive number of days, default 90.
    pub half_life_days: Option<f64>,
}

impl RecallOptionsInput {
    /// Check and complete the options.
    ///
    /// # Errors
    /// [`Error::InvalidScope`]; [`Error::InvalidBudget`] for a budget that is
    /// not a positive whole number; [`Error::InvalidDate`] for a `today` that
    /// is not a real date; [`Error::InvalidWeight`] for a weight that is
    /// negative or not finite, or a half-life that is not a positive finite
    /// number.
    ///
    /// ```
    /// use memdoc::RecallOptionsInput;
    /// let input = RecallOptionsInput { budget: Some(0.0), ..RecallOptionsInput::default() };
    /// assert_eq!(input.resolve().unwrap_err().code(), "options/invalid-budget");
    /// ```
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
        if let Some(today) = &self.today {
            if !is_valid_date(today) {
                return Err(Error::InvalidDate(today.clone()));
            }
        }
        let w = self.weights.unwrap_or_default();
        let weights = RecallWeights {
            relevance: weight("relevance", w.relevance, defaults.weights.relevance)?,
            recency: weight("recency", w.recency, defaults.weights.recency)?,
            priority: weight("priority", w.priority, defaults.weights.priority)?,
        };
        let half_life_days = match self.half_life_days {
            None => defaults.half_life_days,
            Some(v) if v.is_finite() && v > 0.0 => v,
            Some(v) => {
                return Err(Error::InvalidWeight(format!(
                    "the half-life {} is not a positive number of days",
                    describe_number(v)
                )))
            }
        };
        Ok(RecallOptions {
            scope,
            budget,
            today: self.today.clone(),
            pinned: self.pinned.clone().unwrap_or_default(),
            weights,
            half_life_days,
        })
    }
}

fn weight(name: &str, value: Option<f64>, default: f64) -> Result<f64, Error> {
    match value {
        None => Ok(default),
        Some(v) if v.is_finite() && v >= 0.0 => Ok(v),
        Some(v) => Err(Error::InvalidWeight(format!(
            "the {name} weight {} is not a finite number ≥ 0",
            describe_number(v)
        ))),
    }
}
