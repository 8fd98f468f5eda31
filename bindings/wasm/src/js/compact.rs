//! The JSON-compatible view of a [`Compaction`], as the JavaScript
//! `compact(text, options)` returns it (docs/ops.md): camelCase fields,
//! string enums, and UTF-16 ranges in the text that was compacted.

use crate::js::name::Name;
use serde::Serialize;

use super::view::{EntryView, LineView, RawLineView};
use memdoc::{Compaction, MergedSection, RemovedEntry};
use memdoc::{LineIndex, Range};

/// The result of `compact(text, options)`.
///
/// A [`Compaction`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Compaction"))]
#[serde(rename_all = "camelCase")]
pub struct CompactionView<'a> {
    /// The compacted document, canonical.
    pub content: &'a str,
    /// `after <= target`; false when even removing every entry was not
    /// enough.
    pub fits: bool,
    /// The target used.
    pub target: usize,
    /// Code points of the input's canonical form.
    pub before: usize,
    /// Code points of `content`.
    pub after: usize,
    /// Step 1, in document order.
    pub merged: Vec<MergedSectionView<'a>>,
    /// Steps 2 and 3, in the order they were removed.
    pub removed: Vec<RemovedEntryView<'a>>,
    /// Preamble lines of the input, never kept.
    // Always raw lines (see `DocumentView::preamble`).
    #[cfg_attr(test, ts(as = "Vec<RawLineView<'a>>"))]
    pub dropped: Vec<LineView<'a>>,
}

/// A section that compaction merged into an earlier one with the same
/// normalized title.
///
/// A [`MergedSection`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "MergedSection"))]
#[serde(rename_all = "camelCase")]
pub struct MergedSectionView<'a> {
    /// Title of the section merged away.
    pub from: &'a str,
    /// Its heading.
    pub from_range: Range,
    /// Title of the earlier section that received its lines.
    pub into: &'a str,
    /// Its heading (its first entry when implicit).
    pub into_range: Range,
}

/// An entry that compaction removed.
///
/// A [`RemovedEntry`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "RemovedEntry"))]
#[serde(rename_all = "camelCase")]
pub struct RemovedEntryView<'a> {
    /// Title of its section, as written in the input.
    pub section: &'a str,
    /// `YYYY-MM-DD`.
    pub date: &'a str,
    /// Its text.
    pub text: &'a str,
    /// The entry's line in the input.
    pub range: Range,
    /// Why it was removed.
    #[cfg_attr(test, ts(as = "memdoc::RemovalReason"))]
    pub reason: Name,
    /// Class of its section.
    #[cfg_attr(test, ts(as = "memdoc::Priority"))]
    pub priority: Name,
    /// `reason: "duplicate"`: the entry kept in its place; otherwise `null`.
    // Always an entry (see `DocumentView::preamble`).
    #[cfg_attr(test, ts(as = "Option<EntryView<'a>>"))]
    pub duplicate_of: Option<LineView<'a>>,
}

impl<'a> CompactionView<'a> {
    /// Convert the compaction of `text`.
    #[must_use]
    pub fn new(result: &'a Compaction, text: &str) -> Self {
        let index = LineIndex::new(text);
        let merged = |m: &'a MergedSection| MergedSectionView {
            from: &m.from,
            from_range: index.range(m.from_span),
            into: &m.into,
            into_range: index.range(m.into_span),
        };
        let removed = |r: &'a RemovedEntry| RemovedEntryView {
            section: &r.section,
            date: &r.date,
            text: &r.text,
            range: index.range(r.span),
            reason: Name(r.reason.as_str()),
            priority: Name(r.priority.as_str()),
            duplicate_of: r
                .duplicate_of
                .as_ref()
                .map(|e| LineView::Entry(EntryView::new(e, &index))),
        };
        Self {
            content: &result.content,
            fits: result.fits,
            target: result.target,
            before: result.before,
            after: result.after,
            merged: result.merged.iter().map(merged).collect(),
            removed: result.removed.iter().map(removed).collect(),
            dropped: result
                .dropped
                .iter()
                .map(|r| LineView::Raw(RawLineView::new(r, &index)))
                .collect(),
        }
    }
}
