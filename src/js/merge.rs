//! The JSON-compatible view of a [`MergeResult`], as the JavaScript
//! `merge(base, ours, theirs)` returns it (docs/ops.md): camelCase fields,
//! string kinds, and each location as a UTF-16 range in the input it belongs
//! to.

use serde::Serialize;

use crate::merge::{Conflict, ConflictSide, DroppedLine, MergeResult, Side};
use crate::span::{LineIndex, Range};

/// A [`MergeResult`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct MergeResultView {
    /// The merged canonical document (ours' version of conflicting parts).
    pub content: String,
    /// No conflict.
    pub clean: bool,
    /// The conflicts.
    pub conflicts: Vec<ConflictView>,
    /// Preamble lines of the inputs that are not kept.
    pub dropped: Vec<DroppedLineView>,
}

/// A [`Conflict`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ConflictView {
    /// `"lines"`, `"section-removed"` or `"title"`.
    pub kind: &'static str,
    /// The section's title.
    pub section: String,
    /// The base's version, or `null` when the part is new on both sides.
    pub base: Option<ConflictSideView>,
    /// Ours' version, or `null` when ours removed the section.
    pub ours: Option<ConflictSideView>,
    /// Theirs' version, or `null` when theirs removed the section.
    pub theirs: Option<ConflictSideView>,
}

/// A [`ConflictSide`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ConflictSideView {
    /// Canonical lines.
    pub lines: Vec<String>,
    /// UTF-16 range in that side's input.
    pub range: Range,
}

/// A [`DroppedLine`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DroppedLineView {
    /// `"base"`, `"ours"` or `"theirs"`.
    pub side: &'static str,
    /// The line.
    pub text: String,
    /// UTF-16 range in that input.
    pub range: Range,
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
        let index = |side: Side| match side {
            Side::Base => &indexes[0],
            Side::Ours => &indexes[1],
            Side::Theirs => &indexes[2],
        };
        let side = |s: Option<&ConflictSide>, which: Side| {
            s.map(|s| ConflictSideView {
                lines: s.lines.clone(),
                range: index(which).range(s.span),
            })
        };
        let conflict = |c: &Conflict| ConflictView {
            kind: c.kind.as_str(),
            section: c.section.clone(),
            base: side(c.base.as_ref(), Side::Base),
            ours: side(c.ours.as_ref(), Side::Ours),
            theirs: side(c.theirs.as_ref(), Side::Theirs),
        };
        let dropped = |d: &DroppedLine| DroppedLineView {
            side: d.side.as_str(),
            text: d.text.clone(),
            range: index(d.side).range(d.span),
        };
        Self {
            content: result.content.clone(),
            clean: result.clean,
            conflicts: result.conflicts.iter().map(conflict).collect(),
            dropped: result.dropped.iter().map(dropped).collect(),
        }
    }
}
