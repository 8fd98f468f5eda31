//! Recall's result (docs/API.md, "Recall"): the recalled document, every
//! item taken or left out with its score and why, and the counts. These are
//! the JavaScript shapes too (`memdoc_wasm::wire::recall`, bindings/wasm/, carries them across).

use serde::Serialize;

use super::Why;
use crate::options::Recalled;
use crate::span::Range;

/// The result of [`recall`](super::recall).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Recall {
    /// The recalled part: a valid canonical memory document within the
    /// budget, each selected item under its section's heading, sections and
    /// items in their original order.
    pub content: String,
    /// Code points of `content` (at most the budget).
    pub chars: usize,
    /// An estimate of the tokens of `content`: code points / 4, rounded up.
    /// Real tokenizers differ; use it for rough accounting only.
    pub estimated_tokens: usize,
    /// The items taken, in document order.
    pub selected: Vec<RecalledItem>,
    /// The items left out, in document order.
    pub omitted: Vec<OmittedItem>,
    /// Counts.
    pub totals: RecallTotals,
}

/// An item that [`recall`](super::recall) took.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RecalledItem {
    /// The title of its section, as written.
    pub section: String,
    /// The entry's text; for another line the line as written (a code
    /// block: its lines joined by `"\n"`).
    pub text: String,
    /// The entry's date; none (`null`) for a line that is not an entry.
    pub date: Option<String>,
    /// Where it is in the text recalled from: its line (a code block: from
    /// its opening fence to its last line that is not blank).
    pub range: Range,
    /// Its score: `why.relevance`, `why.recency.normalized` and
    /// `why.priority.normalized` weighted and added, rounded to millionths.
    pub score: f64,
    /// Why it scored so.
    pub why: Why,
}

/// An item that [`recall`](super::recall) left out, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OmittedItem {
    /// The title of its section, as written.
    pub section: String,
    /// The entry's text; for another line the line as written (a code
    /// block: its lines joined by `"\n"`).
    pub text: String,
    /// The entry's date; none (`null`) for a line that is not an entry.
    pub date: Option<String>,
    /// Where it is in the text recalled from: its line (a code block: from
    /// its opening fence to its last line that is not blank).
    pub range: Range,
    /// Its score: `why.relevance`, `why.recency.normalized` and
    /// `why.priority.normalized` weighted and added, rounded to millionths.
    pub score: f64,
    /// Why it scored so.
    pub why: Why,
    /// Why it was left out.
    pub reason: OmitReason,
}

/// Why [`recall`](super::recall) left an item out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum OmitReason {
    /// It would fit alone, but not with the items that scored higher.
    Budget,
    /// The query has words and the item's relevance is under the floor, or
    /// the query is under its embedder's query floor
    /// (and its section is not pinned).
    NoMatch,
    /// Even alone under its heading it is larger than the budget.
    TooLarge,
    /// A later entry of its section states the same thing
    /// (`why.supersededBy`), and that entry was not selected or this one
    /// did not fit after every current item: a stale value is never
    /// returned without the value that replaced it.
    Superseded,
}

impl OmitReason {
    /// `"budget"`, `"no-match"`, `"too-large"` or `"superseded"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Budget => "budget",
            Self::NoMatch => "no-match",
            Self::TooLarge => "too-large",
            Self::Superseded => "superseded",
        }
    }
}

/// The counts of a [`Recall`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RecallTotals {
    /// Items in the memory.
    pub items: usize,
    /// Items taken.
    pub selected: usize,
    /// Items left out.
    pub omitted: usize,
    /// Items that answer the query (relevance at or above the floor and,
    /// by meaning, the query at the embedder's query floor), or every item
    /// when the query has no words. 0: nothing in the memory
    /// answers the query, and nothing is selected (pinned sections apart).
    pub relevant: usize,
    /// Code points of the memory's canonical form.
    pub memory_chars: usize,
    /// The budget used.
    pub budget: usize,
}

impl From<&RecallTotals> for Recalled {
    fn from(totals: &RecallTotals) -> Self {
        Self {
            selected: totals.selected,
            items: totals.items,
        }
    }
}
