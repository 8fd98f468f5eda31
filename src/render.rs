//! [`Document`] -> canonical text (docs/FORMAT.md §6). The canonical form is what
//! gets stored and measured; rendering it again gives the same string.

use std::borrow::Cow;

use crate::document::{Document, Line, Section};
use crate::parse::parse;

/// Parse `text` and render its canonical form.
///
/// ```
/// let text = "Sure, here it is:\n## Facts   \r\n  - (2024-11-02) [fact] legacy\n\n\n";
/// assert_eq!(memdoc::render(text), "## Facts\n- 2024-11-02: legacy");
/// assert_eq!(memdoc::render(&memdoc::render(text)), memdoc::render(text));
/// ```
#[must_use]
pub fn render(text: &str) -> String {
    parse(text).render_from(text)
}

impl Document<'_> {
    /// The canonical text: each section as `## {title}` and its lines (entries
    /// as `- {date}: {text}`, raw lines verbatim), without the section's
    /// trailing blank lines; sections joined by one blank line; no trailing
    /// newline. The preamble is not rendered.
    #[must_use]
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    /// [`Document::render`] of the document parsed from `text`: the
    /// canonical form is about as long as the text, so it is allocated once
    /// instead of once per doubling.
    pub(crate) fn render_from(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        self.write(&mut out);
        out
    }

    /// [`Document::render`] onto the end of `out`.
    fn write(&self, out: &mut String) {
        for (i, section) in self.sections.iter().enumerate() {
            if i > 0 {
                out.push_str("\n\n");
            }
            render_section(section, out);
        }
    }
}

fn render_section(section: &Section<'_>, out: &mut String) {
    section.write_heading(out);
    for line in section.content_lines() {
        out.push('\n');
        line.write(out);
    }
}

impl<'a> Section<'a> {
    /// The heading line as the canonical form writes it: `## {title}`.
    pub(crate) fn heading(&self) -> String {
        let mut out = String::new();
        self.write_heading(&mut out);
        out
    }

    fn write_heading(&self, out: &mut String) {
        write_heading(&self.title, out);
    }

    /// The section's lines without its trailing blank lines, which are not
    /// content: the canonical form drops them, so every comparison and every
    /// join of sections leaves them out too.
    pub(crate) fn content_lines(&self) -> &[Line<'a>] {
        let kept = self
            .lines
            .iter()
            .rposition(|line| !line.is_blank())
            .map_or(0, |last| last + 1);
        &self.lines[..kept]
    }
}

impl Line<'_> {
    /// The line as the canonical form writes it: an entry as
    /// `- {date}: {text}` (a legacy marker renders away), a raw line
    /// verbatim.
    pub(crate) fn render(&self) -> Cow<'_, str> {
        match self {
            Line::Entry(_) => {
                let mut out = String::new();
                self.write(&mut out);
                Cow::Owned(out)
            }
            Line::Raw(raw) => Cow::Borrowed(&raw.text),
        }
    }

    pub(crate) fn write(&self, out: &mut String) {
        match self {
            Line::Entry(entry) => write_entry(&entry.date, &entry.text, out),
            Line::Raw(raw) => out.push_str(&raw.text),
        }
    }
}

/// A section's heading as the canonical form writes it, `## {title}`, onto
/// the end of `out`.
pub(crate) fn write_heading(title: &str, out: &mut String) {
    out.push_str("## ");
    out.push_str(title);
}

/// An entry as the canonical form writes it, `- {date}: {text}`, onto the
/// end of `out`.
// Inlined in each of its two callers, a line and a recalled item: the
// module is smaller so.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn write_entry(date: &str, text: &str, out: &mut String) {
    out.push_str("- ");
    out.push_str(date);
    out.push_str(": ");
    out.push_str(text);
}
