//! The merged text with conflict markers: what a person edits to finish a
//! merge that stopped at conflicts. Each conflicting part is shown as
//!
//! ```text
//! <<<<<<< {ours}
//! ours' lines
//! =======
//! theirs' lines
//! >>>>>>> {theirs}
//! ```
//!
//! around the lines of a section (a diff3 chunk, or the whole section when
//! a fence made the combination unsafe), around the heading when the titles
//! conflict, and around the whole section when one side removed it. The
//! rest is the merged document as [`merge`](super::merge) renders it. The
//! text is for a person: it is not canonical and parsing it again does not
//! give the merge back (a marker line is a raw line, and theirs' heading
//! inside a marker is a heading).

use crate::document::{Line, Section};

/// A line of a section as the marked text shows it.
#[derive(Debug, Clone)]
pub(super) enum Marked<'d> {
    /// A line of the merged section.
    Line(Line<'d>),
    /// The start of a conflicting part: ours' lines follow.
    Open,
    /// The end of ours' lines; theirs' lines of the part.
    Close(Vec<Line<'d>>),
}

/// How a section of the merge differs in the marked text.
#[derive(Debug, Clone)]
pub(super) enum Mark<'d> {
    /// The merged section, with its heading marked when the titles conflict
    /// (`Some(theirs' heading)`) and its lines marked when parts conflict.
    Within {
        theirs_heading: Option<String>,
        lines: Option<Vec<Marked<'d>>>,
    },
    /// A section removed on one side and changed on the other: each side's
    /// whole section, `""` for the side that removed it.
    Whole { ours: String, theirs: String },
}

/// One section of the merge in order: the merged section (none when it is
/// removed) and its mark (none when it has no conflict).
pub(super) type Part<'d> = (Option<usize>, Option<Mark<'d>>);

/// The marked text of the merge: `sections` are the merged document's,
/// `parts` every section of the merge in order, `labels` name ours and
/// theirs on the marker lines.
pub(super) fn render_marked(
    sections: &[Section<'_>],
    parts: &[Part<'_>],
    labels: [&str; 2],
) -> String {
    let mut out = String::new();
    for (at, mark) in parts {
        let section = at.and_then(|i| sections.get(i));
        if section.is_none() && mark.is_none() {
            continue;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        match (section, mark) {
            (_, Some(Mark::Whole { ours, theirs })) => block(&mut out, ours, theirs, labels),
            (
                Some(section),
                Some(Mark::Within {
                    theirs_heading,
                    lines,
                }),
            ) => {
                match theirs_heading {
                    Some(theirs) => block(&mut out, &section.heading(), theirs, labels),
                    None => out.push_str(&section.heading()),
                }
                match lines {
                    Some(lines) => marked_lines(&mut out, lines, labels),
                    None => push_lines(&mut out, section.content_lines()),
                }
            }
            (Some(section), None) => {
                out.push_str(&section.heading());
                push_lines(&mut out, section.content_lines());
            }
            (None, _) => {}
        }
    }
    out
}

/// The whole text of a section: its heading and lines.
pub(super) fn section_text(section: &Section<'_>) -> String {
    let mut out = section.heading();
    push_lines(&mut out, section.content_lines());
    out
}

fn push_line(out: &mut String, line: &Line<'_>) {
    out.push('\n');
    line.write(out);
}

fn push_lines(out: &mut String, lines: &[Line<'_>]) {
    for line in lines {
        push_line(out, line);
    }
}

/// `ours` and `theirs` between markers (a side's text may be empty).
fn block(out: &mut String, ours: &str, theirs: &str, [ours_label, theirs_label]: [&str; 2]) {
    out.push_str("<<<<<<< ");
    out.push_str(ours_label);
    for text in [ours, "=======", theirs] {
        if !text.is_empty() {
            out.push('\n');
            out.push_str(text);
        }
    }
    out.push_str("\n>>>>>>> ");
    out.push_str(theirs_label);
}

fn marked_lines(out: &mut String, lines: &[Marked<'_>], [ours_label, theirs_label]: [&str; 2]) {
    // Trailing blank lines are not content (Section::content_lines).
    let kept = lines
        .iter()
        .rposition(|m| !matches!(m, Marked::Line(l) if l.is_blank()))
        .map_or(0, |last| last + 1);
    for m in &lines[..kept] {
        match m {
            Marked::Line(line) => push_line(out, line),
            Marked::Open => {
                out.push_str("\n<<<<<<< ");
                out.push_str(ours_label);
            }
            Marked::Close(theirs) => {
                out.push_str("\n=======");
                push_lines(out, theirs);
                out.push_str("\n>>>>>>> ");
                out.push_str(theirs_label);
            }
        }
    }
}
