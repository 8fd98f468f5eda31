//! An item's score and its explanation ([`Why`]): each part measured raw
//! and normalised to 0..1, the lexical and semantic channels fused into one
//! calibrated relevance, then relevance, recency and priority weighted and
//! added. Values are rounded to millionths, so that the order of items
//! cannot depend on the last bits of `ln` or `exp` (which [`super::math`]
//! computes alike on every platform).

use serde::Serialize;

use crate::compact::Priority;
use crate::date::days_between;

use super::math::half_to_the;
use super::options::RecallWeights;
use super::semantic::fuse;

/// The recency of a line without a date: neither recent nor old.
pub const UNDATED_RECENCY: f64 = 0.5;

/// The explanation of a score.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "RecallWhy"))]
#[serde(rename_all = "camelCase")]
pub struct Why {
    /// The query's words (stop words apart) the item or its section title
    /// contains, sorted.
    pub terms: Vec<String>,
    /// How well the item answers the query, from 0 to 1: the higher of the
    /// lexical and the semantic relevance. Under 0.5 (the floor) the item
    /// does not answer it.
    pub relevance: f64,
    /// BM25 (`raw`) and its calibrated relevance (`normalized`).
    pub lexical: Measure,
    /// The cosine of the item's and the query's vectors (`raw`) and its
    /// calibrated relevance (`normalized`); none (`null`) without vectors.
    pub semantic: Option<Measure>,
    /// The age in days (`raw`, none for an undated line) and
    /// `0.5^(age / half-life)` (`normalized`).
    pub recency: RecencyMeasure,
    /// The section's compaction class (`raw`) and its value (`normalized`).
    pub priority: PriorityMeasure,
    /// Whether the item's section is pinned (taken first).
    pub pinned: bool,
    /// The line of the later entry of its section that states the same
    /// thing with a newer date (docs/FORMAT.md §12, "The current fact
    /// first"); none (`null`) when the item is current, or does not answer
    /// the query.
    pub superseded_by: Option<usize>,
}

/// A part of a score: as measured, and from 0 to 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "RecallMeasure")
)]
#[serde(rename_all = "camelCase")]
pub struct Measure {
    /// As measured.
    pub raw: f64,
    /// From 0 to 1.
    pub normalized: f64,
}

/// Recency: the age in days, and its value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "RecallRecency")
)]
#[serde(rename_all = "camelCase")]
pub struct RecencyMeasure {
    /// Whole days from the entry's date to `today` (0 for a later date);
    /// none (`null`) for a line without a date, or without a day to count to.
    pub raw: Option<f64>,
    /// `0.5^(age / half-life)`; 0.5 when undated, 1 with no day to count to.
    pub normalized: f64,
}

/// Priority: the section's compaction class, and its value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "RecallPriority")
)]
#[serde(rename_all = "camelCase")]
pub struct PriorityMeasure {
    /// The class.
    pub raw: Priority,
    /// Core 1, facts 2/3, other 1/3, transient 0.
    pub normalized: f64,
}

/// What an item's explanation is made of, before rounding.
pub(crate) struct Parts<'a> {
    pub terms: Vec<String>,
    pub lexical: (f64, f64),
    pub semantic: Option<(f64, f64)>,
    pub date: Option<&'a str>,
    pub reference: Option<&'a str>,
    pub half_life_days: f64,
    pub priority: Priority,
    pub pinned: bool,
}

impl Why {
    /// The explanation of one item, rounded.
    pub(crate) fn new(parts: Parts<'_>) -> Self {
        let measure = |(raw, normalized): (f64, f64)| Measure {
            raw: round(raw),
            normalized: round(normalized),
        };
        let lexical = measure(parts.lexical);
        let semantic = parts.semantic.map(measure);
        let (age, value) = recency(parts.date, parts.reference, parts.half_life_days);
        Self {
            terms: parts.terms,
            relevance: round(fuse(
                lexical.normalized,
                semantic.map_or(0.0, |s| s.normalized),
            )),
            lexical,
            semantic,
            recency: RecencyMeasure {
                raw: age,
                normalized: round(value),
            },
            priority: PriorityMeasure {
                raw: parts.priority,
                normalized: round(priority_value(parts.priority)),
            },
            pinned: parts.pinned,
            superseded_by: None,
        }
    }

    /// The score: the weighted sum of relevance, recency and priority,
    /// rounded.
    pub(crate) fn score(&self, weights: &RecallWeights) -> f64 {
        round(
            weights.relevance * self.relevance
                + weights.recency * self.recency.normalized
                + weights.priority * self.priority.normalized,
        )
    }
}

/// The age in days (none when undated or nothing to count to) and recency.
fn recency(date: Option<&str>, reference: Option<&str>, half_life_days: f64) -> (Option<f64>, f64) {
    match (date, reference) {
        (Some(date), Some(reference)) => match days_between(date, reference) {
            // Ages are far below 2^53 days.
            #[allow(clippy::cast_precision_loss)]
            Some(age) => {
                let age = age.max(0) as f64;
                (Some(age), half_to_the(age / half_life_days))
            }
            None => (None, UNDATED_RECENCY),
        },
        (Some(_), None) => (None, 1.0),
        (None, _) => (None, UNDATED_RECENCY),
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
        let r = |d: &str| recency(Some(d), Some("2025-04-01"), 90.0).1;
        assert!((r("2025-04-01") - 1.0).abs() < 1e-12);
        assert!((r("2025-01-01") - 0.5).abs() < 1e-12);
        assert!((r("2025-05-01") - 1.0).abs() < 1e-12);
        assert_eq!(
            recency(Some("2025-01-01"), Some("2025-04-01"), 90.0).0,
            Some(90.0)
        );
        assert!((recency(None, Some("2025-04-01"), 90.0).1 - UNDATED_RECENCY).abs() < 1e-12);
    }

    #[test]
    fn weights_add_the_rounded_parts() {
        let why = Why::new(Parts {
            terms: Vec::new(),
            lexical: (2.0, 0.333_333_3),
            semantic: None,
            date: Some("2025-01-01"),
            reference: Some("2025-04-01"),
            half_life_days: 90.0,
            priority: Priority::Core,
            pinned: false,
        });
        let w = RecallWeights {
            relevance: 1.0,
            recency: 0.25,
            priority: 0.15,
        };
        assert!((why.score(&w) - (0.333_333 + 0.125 + 0.15)).abs() < 1e-9);
    }
}
