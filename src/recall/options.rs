//! The options of [`recall`](crate::recall), their documented defaults, and
//! their check: bad values are coded errors, never silent defaults.

use crate::error::Error;
use crate::limits::describe_number;
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
pub const DEFAULT_RECENCY_WEIGHT: f64 = 0.05;

/// The default weight of section priority (compaction's classes: core 1,
/// facts 2/3, other 1/3, transient 0).
pub const DEFAULT_PRIORITY_WEIGHT: f64 = 0.03;

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

impl RecallOptions {
    /// Check the options: the rules every caller's options follow, however
    /// they were built.
    ///
    /// # Errors
    /// [`Error::InvalidBudget`] for a budget of 0; [`Error::InvalidDate`]
    /// for a `today` that is not a real `YYYY-MM-DD` date;
    /// [`Error::InvalidWeight`] for a weight that is negative or not finite,
    /// or a half-life that is not a positive finite number of days.
    ///
    /// ```
    /// use memdoc::RecallOptions;
    /// let options = RecallOptions { budget: 0, ..RecallOptions::default() };
    /// assert_eq!(options.check().unwrap_err().code(), "options/invalid-budget");
    /// ```
    pub fn check(&self) -> Result<(), Error> {
        if self.budget == 0 {
            return Err(Error::InvalidBudget(
                "0 is not a positive whole number".to_owned(),
            ));
        }
        if let Some(today) = &self.today {
            if !is_valid_date(today) {
                return Err(Error::InvalidDate(today.clone()));
            }
        }
        let w = &self.weights;
        for (name, value) in [
            ("relevance", w.relevance),
            ("recency", w.recency),
            ("priority", w.priority),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(Error::InvalidWeight(format!(
                    "the {name} weight {} is not a finite number ≥ 0",
                    describe_number(value)
                )));
            }
        }
        if !(self.half_life_days.is_finite() && self.half_life_days > 0.0) {
            return Err(Error::InvalidWeight(format!(
                "the half-life {} is not a positive number of days",
                describe_number(self.half_life_days)
            )));
        }
        Ok(())
    }
}
