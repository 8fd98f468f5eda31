//! `&str` -> [`Document`]. Total: every string parses, in one linear pass,
//! and nothing here can panic (all slicing is at ASCII boundaries that were
//! just checked).
//!
//! The grammar (docs/FORMAT.md §2–5): lines break at LF, CRLF and a lone CR;
//! trailing white space is not part of a line; a heading is `## ` plus
//! non-blank text at column 0; code fences hide headings and entries; an entry
//! is a trimmed `- YYYY-MM-DD: text` (or the legacy `- (YYYY-MM-DD) [marker]
//! text`) with a real calendar date.

use std::borrow::Cow;

use crate::document::{Document, Entry, LegacyMarker, Line, RawLine, Section, IMPLICIT_TITLE};
use crate::fast::{trim, trim_end, trim_start};
use crate::lines::lines;
use crate::span::Span;

/// Parse a memory document. Accepts every string and never fails.
///
/// ```
/// let doc = memdoc::parse("## Facts\n- 2025-03-15: Office is in Seattle");
/// assert_eq!(doc.sections[0].title, "Facts");
/// let entry = doc.sections[0].lines[0].as_entry().unwrap();
/// assert_eq!((&*entry.date, &*entry.text), ("2025-03-15", "Office is in Seattle"));
/// ```
#[must_use]
pub fn parse(text: &str) -> Document<'_> {
    let mut doc = Parsing::default();
    // The opening line of the open fence.
    let mut open_fence: Option<Span> = None;
    for (span, content, kind) in classify(text) {
        match kind {
            Kind::FenceOpen => {
                open_fence = Some(span);
                doc.push_raw(content, span, true);
            }
            Kind::FenceClose => {
                open_fence = None;
                doc.push_raw(content, span, true);
            }
            Kind::Fenced => doc.push_raw(content, span, true),
            Kind::Heading(title) => doc.open(Section {
                title: Cow::Borrowed(title),
                explicit: true,
                span,
                lines: Vec::new(),
            }),
            Kind::Other => doc.push_other(content, span),
        }
    }
    let mut doc = doc.finish();
    doc.unclosed_fence = open_fence;
    doc
}

/// A document being parsed. The lines of its last section are gathered
/// apart and given to the section at their exact number when it ends: a
/// section of one line holds one line, not the four a growing vector starts
/// with (three times the memory of a document of short sections).
#[derive(Default)]
struct Parsing<'a> {
    doc: Document<'a>,
    lines: Vec<Line<'a>>,
}

impl<'a> Parsing<'a> {
    /// End the last section and start `section`.
    fn open(&mut self, section: Section<'a>) {
        self.close();
        self.doc.sections.push(section);
    }

    /// Give the last section its lines.
    fn close(&mut self) {
        if let Some(section) = self.doc.sections.last_mut() {
            section.lines = self.lines.drain(..).collect();
        }
    }

    fn finish(mut self) -> Document<'a> {
        self.close();
        self.doc
    }

    /// A line outside fences that is not a heading: an entry (opening the
    /// implicit section when it comes first) or a raw line.
    fn push_other(&mut self, content: &'a str, span: Span) {
        let trimmed = trim_start(content);
        let lead = content.len() - trimmed.len();
        let trimmed_span = Span::new(span.start + lead, span.end);
        let Some(entry) = parse_entry(trimmed, trimmed_span) else {
            self.push_raw(content, span, false);
            return;
        };
        if self.doc.sections.is_empty() {
            self.open(Section {
                title: Cow::Borrowed(IMPLICIT_TITLE),
                explicit: false,
                span: trimmed_span,
                lines: Vec::new(),
            });
        }
        self.lines.push(Line::Entry(entry));
    }

    fn push_raw(&mut self, content: &'a str, span: Span, fenced: bool) {
        let raw = RawLine {
            text: Cow::Borrowed(content),
            span,
            fenced,
        };
        if !self.doc.sections.is_empty() {
            self.lines.push(Line::Raw(raw));
        } else if !content.is_empty() {
            // Blank lines before the first heading are not content, so they
            // are neither kept nor reported.
            self.doc.preamble.push(raw);
        }
    }
}

/// The titles of the explicit sections of `text`, in order: what [`parse`]
/// would put in the `title` of each section with `explicit == true`, without
/// building the rest of the document.
pub(crate) fn explicit_titles(text: &str) -> impl Iterator<Item = &str> {
    classify(text).filter_map(|(_, _, kind)| match kind {
        Kind::Heading(title) => Some(title),
        _ => None,
    })
}

/// What a line of a document is, before entries are told from raw lines.
#[derive(Debug, Clone, Copy)]
enum Kind<'a> {
    /// A line that opens a code fence.
    FenceOpen,
    /// The line that closes the open code fence.
    FenceClose,
    /// A line inside a code fence.
    Fenced,
    /// A `## ` heading outside code fences, with its title.
    Heading(&'a str),
    /// Anything else: an entry or a raw line.
    Other,
}

/// Each line of `text` without its trailing white space, its span, and what
/// it is: the one place where code fences hide headings.
fn classify(text: &str) -> impl Iterator<Item = (Span, &str, Kind<'_>)> {
    let mut fence: Option<Fence> = None;
    lines(text).map(move |(start, line)| {
        let content = trim_end(line);
        let span = Span::new(start, start + content.len());
        let kind = if let Some(open) = fence {
            if open.is_closed_by(content) {
                fence = None;
                Kind::FenceClose
            } else {
                Kind::Fenced
            }
        } else if let Some(open) = Fence::open(content) {
            fence = Some(open);
            Kind::FenceOpen
        } else if let Some(title) = heading_title(content) {
            Kind::Heading(title)
        } else {
            Kind::Other
        };
        (span, content, kind)
    })
}

/// Whether a line (already without trailing white space) is a heading, and
/// its title. `##Foo`, `##\tFoo`, `  ## Foo` and `## ` are not headings.
#[must_use]
pub fn heading_title(line: &str) -> Option<&str> {
    let title = line.strip_prefix("## ")?.trim();
    (!title.is_empty()).then_some(title)
}

/// A code fence (docs/FORMAT.md §3): a line that starts, after indentation, with
/// three or more backticks or tildes opens one; a line of only the same
/// character, at least as many, closes it. The one definition of a fence,
/// for the parser and for unwrapping a fenced reply.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fence {
    ch: u8,
    len: usize,
}

impl Fence {
    /// The fence `line` opens, if it opens one.
    pub(crate) fn open(line: &str) -> Option<Self> {
        let t = trim_start(line);
        let ch = *t.as_bytes().first()?;
        if ch != b'`' && ch != b'~' {
            return None;
        }
        let len = t.bytes().take_while(|&b| b == ch).count();
        (len >= 3).then_some(Self { ch, len })
    }

    /// The shortest line that closes this fence.
    pub(crate) fn closing_line(self) -> String {
        char::from(self.ch).to_string().repeat(self.len)
    }

    /// Whether `line` closes this fence.
    pub(crate) fn is_closed_by(self, line: &str) -> bool {
        let t = line.trim();
        t.len() >= self.len && t.bytes().all(|b| b == self.ch)
    }
}

/// Parse a trimmed line as an entry. `span` is the trimmed line's range.
#[must_use]
pub fn parse_entry(line: &str, span: Span) -> Option<Entry<'_>> {
    let line = trim(line);
    let rest = line.strip_prefix("- ")?;
    let (date, text, legacy_marker) = if let Some(legacy) = rest.strip_prefix('(') {
        let date = legacy.get(..10)?;
        let after = legacy.get(10..)?.strip_prefix(") [")?;
        let close = after.find(']')?;
        let marker = match &after[..close] {
            "fact" => LegacyMarker::Fact,
            "pref" => LegacyMarker::Pref,
            "instr" => LegacyMarker::Instr,
            _ => return None,
        };
        let text = after[close + 1..].strip_prefix(' ')?;
        (date, text, Some(marker))
    } else {
        let date = rest.get(..10)?;
        let text = rest.get(10..)?.strip_prefix(": ")?;
        (date, text, None)
    };
    let text = trim(text);
    if text.is_empty() || !is_valid_date(date) {
        return None;
    }
    Some(Entry {
        date: Cow::Borrowed(date),
        text: Cow::Borrowed(text),
        legacy_marker,
        span,
    })
}

/// The date of a `- ` line that starts with a date written `YYYY-MM-DD`
/// (or `(YYYY-MM-DD)`, as a legacy entry does) that is not on the calendar
/// (`2025-02-30`, `2025-13-01`, `0000-01-01`): such a line is not an entry,
/// and is reported as what it is.
pub(crate) fn impossible_date(line: &str) -> Option<&str> {
    let rest = trim(line).strip_prefix("- ")?;
    let date = rest.strip_prefix('(').unwrap_or(rest).get(..10)?;
    let written = date.bytes().enumerate().all(|(i, b)| {
        if i == 4 || i == 7 {
            b == b'-'
        } else {
            b.is_ascii_digit()
        }
    });
    (written && !is_valid_date(date)).then_some(date)
}

/// `YYYY-MM-DD` with ASCII digits and a real calendar date in 0001–9999.
#[must_use]
pub fn is_valid_date(date: &str) -> bool {
    let b = date.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |range: std::ops::Range<usize>| -> Option<u32> {
        b[range].iter().try_fold(0u32, |acc, &d| {
            d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
        })
    };
    let (Some(year), Some(month), Some(day)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    year >= 1 && (1..=days).contains(&day)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn each_section_holds_its_lines_at_their_exact_number() {
        let doc = parse("intro\n## A\n- 2025-01-01: a\n## B\n## C\nx\n```\ny\n- 2025-01-02: c\n\n- (2025-01-03) [fact] d");
        let lines: Vec<_> = doc
            .sections
            .iter()
            .map(|s| (s.lines.len(), s.lines.capacity()))
            .collect();
        assert_eq!(lines, [(1, 1), (0, 0), (6, 6)]);
        assert_eq!(doc.preamble.len(), 1);
        let implicit = parse("- 2025-01-01: a\n- 2025-01-02: b\n## A");
        assert_eq!(implicit.sections[0].lines.capacity(), 2);
        assert!(!implicit.sections[0].explicit);
    }
}
