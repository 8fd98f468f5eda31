//! The document model: a [`Document`] is the dropped preamble and a list of
//! [`Section`]s, each a title and its [`Line`]s (dated [`Entry`]s and
//! [`RawLine`]s). Every element keeps its byte [`Span`] in the parsed input.
//! The model only holds data; building it is `parse`'s job and turning it into
//! text is `render`'s.

use std::borrow::Cow;

use crate::span::Span;

/// The title of the section that entries before the first heading open.
pub const IMPLICIT_TITLE: &str = "Memory";

/// A parsed memory document.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Document<'a> {
    /// The sections, in input order.
    pub sections: Vec<Section<'a>>,
    /// Non-blank lines before the first heading that are not kept (FORMAT §5).
    pub preamble: Vec<RawLine<'a>>,
    /// The opening line of a code fence that is never closed, if any.
    pub unclosed_fence: Option<Span>,
}

/// A `## Title` heading and the lines up to the next heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section<'a> {
    /// The heading text, trimmed ([`IMPLICIT_TITLE`] for the implicit section).
    pub title: Cow<'a, str>,
    /// `false` for the implicit `Memory` section opened by early entries.
    pub explicit: bool,
    /// The heading line, or the first entry when the section is implicit.
    pub span: Span,
    /// The section's lines, blank lines included.
    pub lines: Vec<Line<'a>>,
}

/// One line of a section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line<'a> {
    /// A dated bullet.
    Entry(Entry<'a>),
    /// Anything else, kept verbatim (up to trailing white space).
    Raw(RawLine<'a>),
}

/// The legacy SurfSense marker of a `- (YYYY-MM-DD) [marker] text` entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "lowercase")
)]
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
pub struct Entry<'a> {
    /// The date, `YYYY-MM-DD`.
    pub date: Cow<'a, str>,
    /// The text after the date, trimmed.
    pub text: Cow<'a, str>,
    /// The marker when the entry was written in the legacy form.
    pub legacy_marker: Option<LegacyMarker>,
    /// The line, trimmed at both ends.
    pub span: Span,
}

/// A line that is not an entry or a heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawLine<'a> {
    /// The line without its trailing white space (leading white space kept).
    pub text: Cow<'a, str>,
    /// The line without its trailing white space.
    pub span: Span,
    /// Whether the line is part of a code fence (its delimiters included).
    pub fenced: bool,
}

impl<'a> Line<'a> {
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
    pub const fn as_entry(&self) -> Option<&Entry<'a>> {
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

impl Entry<'_> {
    /// The entry holding its own text, free of the input it was parsed from.
    #[must_use]
    pub fn into_owned(self) -> Entry<'static> {
        Entry {
            date: Cow::Owned(self.date.into_owned()),
            text: Cow::Owned(self.text.into_owned()),
            legacy_marker: self.legacy_marker,
            span: self.span,
        }
    }
}

impl RawLine<'_> {
    /// The line holding its own text, free of the input it was parsed from.
    #[must_use]
    pub fn into_owned(self) -> RawLine<'static> {
        RawLine {
            text: Cow::Owned(self.text.into_owned()),
            span: self.span,
            fenced: self.fenced,
        }
    }
}

impl<'a> Document<'a> {
    /// Whether the document has no sections (it renders to the empty string).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.sections.is_empty()
    }

    /// The title of each section, in order.
    pub(crate) fn titles(&self) -> Vec<&str> {
        self.sections.iter().map(|s| &*s.title).collect()
    }

    /// All entries of all sections, in order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry<'a>> {
        self.sections
            .iter()
            .flat_map(|s| s.lines.iter().filter_map(Line::as_entry))
    }
}
