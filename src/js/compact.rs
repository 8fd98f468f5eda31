//! The JSON-compatible view of a [`Compaction`], as the JavaScript
//! `compact(text, options)` returns it (docs/ops.md): camelCase fields,
//! string enums, and UTF-16 ranges in the text that was compacted.

use serde::Serialize;

use super::view::LineView;
use crate::compact::{Compaction, MergedSection, RemovedEntry};
use crate::span::{LineIndex, Range};

/// A [`Compaction`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CompactionView {
    /// The compacted canonical document.
    pub content: String,
    /// Whether `content` is within `target`.
    pub fits: bool,
    /// The target used.
    pub target: usize,
    /// Code points before.
    pub before: usize,
    /// Code points after.
    pub after: usize,
    /// Sections merged into an earlier one of the same title.
    pub merged: Vec<MergedSectionView>,
    /// Entries removed.
    pub removed: Vec<RemovedEntryView>,
    /// Preamble lines not kept (each a `kind: "raw"` line).
    pub dropped: Vec<LineView>,
}

/// A [`MergedSection`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct MergedSectionView {
    /// Title merged away.
    pub from: String,
    /// Its heading.
    pub from_range: Range,
    /// Title kept.
    pub into: String,
    /// Its heading.
    pub into_range: Range,
}

/// A [`RemovedEntry`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RemovedEntryView {
    /// Section title in the input.
    pub section: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Text.
    pub text: String,
    /// Range in the input.
    pub range: Range,
    /// `"duplicate"` or `"oldest"`.
    pub reason: &'static str,
    /// `"transient"`, `"other"`, `"facts"` or `"core"`.
    pub priority: &'static str,
    /// The entry kept instead of a duplicate, or `null`.
    pub duplicate_of: Option<LineView>,
}

impl CompactionView {
    /// Convert the compaction of `text`.
    #[must_use]
    pub fn new(result: &Compaction, text: &str) -> Self {
        let index = LineIndex::new(text);
        let merged = |m: &MergedSection| MergedSectionView {
            from: m.from.clone(),
            from_range: index.range(m.from_span),
            into: m.into.clone(),
            into_range: index.range(m.into_span),
        };
        let removed = |r: &RemovedEntry| RemovedEntryView {
            section: r.section.clone(),
            date: r.date.clone(),
            text: r.text.clone(),
            range: index.range(r.span),
            reason: r.reason.as_str(),
            priority: r.priority.as_str(),
            duplicate_of: r.duplicate_of.as_ref().map(|e| LineView::Entry {
                date: e.date.clone(),
                text: e.text.clone(),
                legacy_marker: e.legacy_marker.map(crate::LegacyMarker::as_str),
                range: index.range(e.span),
            }),
        };
        Self {
            content: result.content.clone(),
            fits: result.fits,
            target: result.target,
            before: result.before,
            after: result.after,
            merged: result.merged.iter().map(merged).collect(),
            removed: result.removed.iter().map(removed).collect(),
            dropped: result
                .dropped
                .iter()
                .map(|r| LineView::Raw {
                    text: r.text.clone(),
                    range: index.range(r.span),
                })
                .collect(),
        }
    }
}
