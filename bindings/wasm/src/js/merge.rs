//! The JSON-compatible view of a [`MergeResult`], as the JavaScript
//! `merge(base, ours, theirs)` returns it (docs/ops.md): camelCase fields,
//! string kinds, and each location as a UTF-16 range in the input it belongs
//! to.

use crate::js::name::Name;
use serde::Serialize;

use memdoc::{Conflict, ConflictSide, DroppedLine, MergeResult, Side};
use memdoc::{LineIndex, Range};

/// The result of `merge(base, ours, theirs)`.
///
/// A [`MergeResult`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "MergeResult"))]
#[serde(rename_all = "camelCase")]
pub struct MergeResultView {
    /// The merged document, canonical. When `clean` is false it holds OURS'
    /// version of every conflicting part: show it, never save it without
    /// review.
    pub content: String,
    /// `true` exactly when `conflicts` is empty.
    pub clean: bool,
    /// In the order of the merged sections.
    pub conflicts: Vec<ConflictView>,
    /// Preamble lines of the inputs (never kept).
    pub dropped: Vec<DroppedLineView>,
}

/// A part of the document that the two sides changed incompatibly.
///
/// A [`Conflict`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "MergeConflict"))]
#[serde(rename_all = "camelCase")]
pub struct ConflictView {
    /// `"entry"`: one entry of the base changed differently on both sides,
    /// or changed on one and removed on the other;
    /// `"lines"`: the same raw lines changed differently on both sides;
    /// `"section-removed"`: removed on one side, changed on the other;
    /// `"title"`: a title rewritten differently on both sides.
    #[cfg_attr(test, ts(as = "memdoc::ConflictKind"))]
    pub kind: Name,
    /// The section's title (ours' when ours has the section).
    pub section: String,
    /// `null`: the part is new on both sides.
    pub base: Option<ConflictSideView>,
    /// `null`: ours removed the whole section.
    pub ours: Option<ConflictSideView>,
    /// `null`: theirs removed the whole section.
    pub theirs: Option<ConflictSideView>,
}

/// One side's version of a conflicting part.
///
/// A [`ConflictSide`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ConflictSide"))]
#[serde(rename_all = "camelCase")]
pub struct ConflictSideView {
    /// Canonical lines (for `"section-removed"` the heading line first).
    pub lines: Vec<String>,
    /// In THIS side's input; empty where this side deleted the lines.
    pub range: Range,
}

/// A preamble line of one input, which no merged document keeps.
///
/// A [`DroppedLine`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "MergeDroppedLine"))]
#[serde(rename_all = "camelCase")]
pub struct DroppedLineView {
    /// The input it was in.
    #[cfg_attr(test, ts(as = "Side"))]
    pub side: Name,
    /// The line without trailing white space.
    pub text: String,
    /// In that side's input.
    pub range: Range,
}

impl ConflictView {
    /// Convert a conflict whose spans point into the texts `indexes` index
    /// (base, ours, theirs).
    #[must_use]
    pub fn new(c: &Conflict, indexes: &[LineIndex; 3]) -> Self {
        let side = |s: Option<&ConflictSide>, which: Side| {
            s.map(|s| ConflictSideView {
                lines: s.lines.clone(),
                range: index(indexes, which).range(s.span),
            })
        };
        Self {
            kind: Name(c.kind.as_str()),
            section: c.section.clone(),
            base: side(c.base.as_ref(), Side::Base),
            ours: side(c.ours.as_ref(), Side::Ours),
            theirs: side(c.theirs.as_ref(), Side::Theirs),
        }
    }
}

fn index<'i, 't>(indexes: &'i [LineIndex<'t>; 3], side: Side) -> &'i LineIndex<'t> {
    match side {
        Side::Base => &indexes[0],
        Side::Ours => &indexes[1],
        Side::Theirs => &indexes[2],
    }
}

impl MergeResultView {
    /// Convert the result of `merge(base, ours, theirs)`.
    #[must_use]
    pub fn new(result: &MergeResult, base: &str, ours: &str, theirs: &str) -> Self {
        let indexes = [
            LineIndex::new(base),
            LineIndex::new(ours),
            LineIndex::new(theirs),
        ];
        let dropped = |d: &DroppedLine| DroppedLineView {
            side: Name(d.side.as_str()),
            text: d.text.clone(),
            range: index(&indexes, d.side).range(d.span),
        };
        Self {
            content: result.content.clone(),
            clean: result.clean,
            conflicts: result
                .conflicts
                .iter()
                .map(|c| ConflictView::new(c, &indexes))
                .collect(),
            dropped: result.dropped.iter().map(dropped).collect(),
        }
    }
}
