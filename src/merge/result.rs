//! What [`merge`](super::merge) returns: the merged content, whether it is
//! clean, and every conflict with the versions of each side and where they
//! are.

use crate::span::Span;

/// Which input of a merge something comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "MergeSide", rename_all = "lowercase")
)]
pub enum Side {
    /// The common ancestor.
    Base,
    /// The local edit (the one whose version a conflicting result holds).
    Ours,
    /// The other edit.
    Theirs,
}

impl Side {
    /// `"base"`, `"ours"` or `"theirs"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Base => "base",
            Self::Ours => "ours",
            Self::Theirs => "theirs",
        }
    }
}

/// What kind of disagreement a conflict is.
///
/// The kind of a [`Conflict`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "MergeConflictKind", rename_all = "kebab-case")
)]
pub enum ConflictKind {
    /// One entry of the base changed differently on both sides, or changed
    /// on one side and removed on the other.
    Entry,
    /// The same raw lines of a section were changed differently on both sides.
    Lines,
    /// A section was removed on one side and changed on the other.
    SectionRemoved,
    /// A section's title was rewritten differently on both sides (same
    /// normalized title, different text).
    Title,
}

impl ConflictKind {
    /// `"entry"`, `"lines"`, `"section-removed"` or `"title"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Entry => "entry",
            Self::Lines => "lines",
            Self::SectionRemoved => "section-removed",
            Self::Title => "title",
        }
    }
}

/// One side's version of a conflicting part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConflictSide {
    /// The lines, rendered canonically (a section's heading first for
    /// [`ConflictKind::SectionRemoved`]; the heading alone for
    /// [`ConflictKind::Title`]). Empty when this side deleted the lines.
    pub lines: Vec<String>,
    /// Where they are in this side's input text. Empty lines give an empty
    /// span at the place they were deleted from.
    pub span: Span,
}

/// A part of the document that the two sides changed incompatibly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// What disagrees.
    pub kind: ConflictKind,
    /// The title of the section concerned (ours' title when ours has it).
    pub section: String,
    /// The base's version; `None` when the part is new on both sides.
    pub base: Option<ConflictSide>,
    /// Ours' version; `None` when ours removed the whole section.
    pub ours: Option<ConflictSide>,
    /// Theirs' version; `None` when theirs removed the whole section.
    pub theirs: Option<ConflictSide>,
}

/// A preamble line of one input, which no merged document keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedLine {
    /// Which input it was in.
    pub side: Side,
    /// The line, without trailing white space.
    pub text: String,
    /// Where it is in that input.
    pub span: Span,
}

/// The result of [`merge`](super::merge).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeResult {
    /// The merged document, canonical. When not clean, it holds ours'
    /// version of every conflicting part and must not be saved unreviewed.
    pub content: String,
    /// No conflict: `content` is the merge of both sides' changes.
    pub clean: bool,
    /// Every conflict, in the order of the merged sections.
    pub conflicts: Vec<Conflict>,
    /// Preamble lines of the inputs, which are not kept (docs/FORMAT.md §5).
    pub dropped: Vec<DroppedLine>,
}
