//! [`Document`] -> canonical text (docs/FORMAT.md §6). The canonical form is what
//! gets stored and measured; rendering it again gives the same string.

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
    parse(text).render()
}

impl Document {
    /// The canonical text: each section as `## {title}` and its lines (entries
    /// as `- {date}: {text}`, raw lines verbatim), without the section's
    /// trailing blank lines; sections joined by one blank line; no trailing
    /// newline. The preamble is not rendered.
    #[must_use]
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (i, section) in self.sections.iter().enumerate() {
            if i > 0 {
                out.push_str("\n\n");
            }
            render_section(section, &mut out);
        }
        out
    }
}

fn render_section(section: &Section, out: &mut String) {
    out.push_str("## ");
    out.push_str(&section.title);
    let kept = section
        .lines
        .iter()
        .rposition(|line| !line.is_blank())
        .map_or(0, |last| last + 1);
    for line in &section.lines[..kept] {
        out.push('\n');
        match line {
            Line::Entry(entry) => {
                out.push_str("- ");
                out.push_str(&entry.date);
                out.push_str(": ");
                out.push_str(&entry.text);
            }
            Line::Raw(raw) => out.push_str(&raw.text),
        }
    }
}
