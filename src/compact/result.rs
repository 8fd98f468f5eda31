//! What [`compact`](super::compact) returns: the compacted content and
//! everything it merged or removed, so that nothing is lost silently.

use crate::document::{Entry, RawLine};
use crate::span::Span;

use super::Priority;

/// Why compaction removed an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "lowercase")
)]
pub enum RemovalReason {
    /// It repeated another entry of its section (up to white space and case).
    Duplicate,
    /// It was among the oldest of the lowest-priority sections.
    Oldest,
}

impl RemovalReason {
    /// `"duplicate"` or `"oldest"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Duplicate => "duplicate",
            Self::Oldest => "oldest",
        }
    }
}

/// An entry that compaction removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedEntry {
    /// The title of the section it was in, as written in the input.
    pub section: String,
    /// Its date.
    pub date: String,
    /// Its text.
    pub text: String,
    /// Where it is in the input.
    pub span: Span,
    /// Why it was removed.
    pub reason: RemovalReason,
    /// The priority class of its section (after merging, the kept section's).
    pub priority: Priority,
    /// For a duplicate, the entry that was kept in its place.
    pub duplicate_of: Option<Entry<'static>>,
}

/// A section that compaction merged into an earlier one with the same
/// normalized title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergedSection {
    /// The title of the section that was merged away.
    pub from: String,
    /// Its heading in the input.
    pub from_span: Span,
    /// The title of the section that received its lines.
    pub into: String,
    /// That section's heading in the input (its first entry when implicit).
    pub into_span: Span,
}

/// The result of [`compact`](super::compact).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compaction {
    /// The compacted document, canonical.
    pub content: String,
    /// Whether `content` is at most `target` code points.
    pub fits: bool,
    /// The target used.
    pub target: usize,
    /// Code points of the input's canonical form.
    pub before: usize,
    /// Code points of `content`.
    pub after: usize,
    /// Sections merged (step 1), in document order.
    pub merged: Vec<MergedSection>,
    /// Entries removed (steps 2 and 3), in the order they were removed.
    pub removed: Vec<RemovedEntry>,
    /// Preamble lines of the input, which the canonical form never keeps.
    pub dropped: Vec<RawLine<'static>>,
}
