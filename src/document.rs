//! The document model: a [`Document`] is the dropped preamble and a list of
//! [`Section`]s, each a title and its [`Line`]s (dated [`Entry`]s and
//! [`RawLine`]s). Every element keeps its byte [`Span`] in the parsed input.
//! The model only holds data; building it is `parse`'s job and turning it into
//! text is `render`'s.

use crate::span::Span;

/// The title of the section that entries before the first heading open.
pub const IMPLICIT_TITLE: &str = "Memory";

/// A parsed memory document.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Document {
    /// The sections, in input order.
    pub sections: Vec<Section>,
    /// Non-blank lines before the first heading that are not kept (FORMAT §5).
    pub preamble: Vec<RawLine>,
    /// The opening line of a code fence that is never closed, if any.
    pub unclosed_fence: Option<Span>,
}

/// A `## Title` heading and the lines up to the next heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading text, trimmed ([`IMPLICIT_TITLE`] for the implicit section).
    pub title: String,
    /// `false` for the implicit `Memory` section opened by early entries.
    pub explicit: bool,
    /// The heading line, or the first entry when the section is implicit.
    pub span: Span,
    /// The section's lines, blank lines included.
    pub lines: Vec<Line>,
}

/// One line of a section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A dated bullet.
    Entry(Entry),
    /// Anything else, kept verbatim (up to trailing white space).
    Raw(RawLine),
}

/// The legacy SurfSense marker of a `- (YYYY-MM-DD) [marker] text` entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "lowercase"))]
pub enum LegacyMarker {
    /// `[fact]`
    Fact,
    /// `[pref]`
    Pref,
    /// `[instr]`
    Instr,
}

impl LegacyMarker {
    /// The marker as written between the brackets.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Fact => "fact",
            Self::Pref => "pref",
            Self::Instr => "instr",
        }
    }
}

/// A dated bullet: `- YYYY-MM-DD: text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The date, `YYYY-MM-DD`.
    pub date: String,
    /// The text after the date, trimmed.
    pub text: String,
    /// The marker when the entry was written in the legacy form.
    pub legacy_marker: Option<LegacyMarker>,
    /// The line, trimmed at both ends.
    pub span: Span,
}

/// A line that is not an entry or a heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawLine {
    /// The line without its trailing white space (leading white space kept).
    pub text: String,
    /// The line without its trailing white space.
    pub span: Span,
    /// Whether the line is part of a code fence (its delimiters included).
    pub fenced: bool,
}

impl Line {
    /// The line's range in the input.
    #[must_use]
    pub const fn span(&self) -> Span {
        match self {
            Self::Entry(entry) => entry.span,
            Self::Raw(raw) => raw.span,
        }
    }

    /// The entry, if this line is one.
    #[must_use]
    pub const fn as_entry(&self) -> Option<&Entry> {
        match self {
            Self::Entry(entry) => Some(entry),
            Self::Raw(_) => None,
        }
    }

    /// Whether the line is blank.
    #[must_use]
    pub fn is_blank(&self) -> bool {
        matches!(self, Self::Raw(raw) if raw.text.is_empty())
    }
}

impl Document {
    /// Whether the document has no sections (it renders to the empty string).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.sections.is_empty()
    }

    /// All entries of all sections, in order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.sections
            .iter()
            .flat_map(|s| s.lines.iter().filter_map(Line::as_entry))
    }
}
