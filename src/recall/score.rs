//! An item's score: each part normalized to 0..1 and named, then weighted
//! and added. Scores are rounded to millionths, so that the order of items
//! cannot depend on the last bits of `ln` or `exp` (which [`super::math`]
//! computes alike on every platform).

use serde::Serialize;

use crate::compact::Priority;
use crate::date::days_between;

use super::math::half_to_the;
use super::options::RecallWeights;

/// The recency of a line without a date: neither recent nor old.
pub const UNDATED_RECENCY: f64 = 0.5;

/// The parts of an item's score, each from 0 to 1, before weighting.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ScoreParts {
    /// BM25 against the query, divided by the best item's (0 without a
    /// query or a matching word).
    pub relevance: f64,
    /// `0.5^(age / half-life)` with the age in days (a date after the
    /// reference day counts as that day); [`UNDATED_RECENCY`] (0.5) when
    /// undated.
    pub recency: f64,
    /// The section's compaction class: core 1, facts 2/3, other 1/3,
    /// transient 0.
    pub priority: f64,
}

impl ScoreParts {
    /// The parts of one item, rounded.
    pub(crate) fn new(
        relevance: f64,
        date: Option<&str>,
        reference: Option<&str>,
        half_life_days: f64,
        priority: Priority,
    ) -> Self {
        Self {
            relevance: round(relevance),
            recency: round(recency(date, reference, half_life_days)),
            priority: round(priority_value(priority)),
        }
    }

    /// The weighted sum, rounded.
    pub(crate) fn total(&self, weights: &RecallWeights) -> f64 {
        round(
            weights.relevance * self.relevance
                + weights.recency * self.recency
                + weights.priority * self.priority,
        )
    }
}

fn recency(date: Option<&str>, reference: Option<&str>, half_life_days: f64) -> f64 {
    match (date, reference) {
        (Some(date), Some(reference)) => match days_between(date, reference) {
            // Ages are far below 2^53 days.
            #[allow(clippy::cast_precision_loss)]
            Some(age) => half_to_the(age.max(0) as f64 / half_life_days),
            None => UNDATED_RECENCY,
        },
        (Some(_), None) => 1.0,
        (None, _) => UNDATED_RECENCY,
    }
}

fn priority_value(priority: Priority) -> f64 {
    match priority {
        Priority::Transient => 0.0,
        Priority::Other => 1.0 / 3.0,
        Priority::Facts => 2.0 / 3.0,
        Priority::Core => 1.0,
    }
}

/// Round to millionths.
fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recency_halves_every_half_life_and_clamps_the_future() {
        let r = |d: &str| recency(Some(d), Some("2025-04-01"), 90.0);
        assert!((r("2025-04-01") - 1.0).abs() < 1e-12);
        assert!((r("2025-01-01") - 0.5).abs() < 1e-12);
        assert!((r("2025-05-01") - 1.0).abs() < 1e-12);
        assert!((recency(None, Some("2025-04-01"), 90.0) - UNDATED_RECENCY).abs() < 1e-12);
    }

    #[test]
    fn weights_add_the_rounded_parts() {
        let parts = ScoreParts::new(
            0.333_333_3,
            Some("2025-01-01"),
            Some("2025-04-01"),
            90.0,
            Priority::Core,
        );
        let w = RecallWeights {
            relevance: 1.0,
            recency: 0.25,
            priority: 0.15,
        };
        assert!((parts.total(&w) - (0.333_333 + 0.125 + 0.15)).abs() < 1e-9);
    }
}
