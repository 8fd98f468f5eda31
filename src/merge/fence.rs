//! Code fences across a merge. A fence hides headings and entries, so lines
//! that meant one thing on their side can mean another once merged: a fence
//! left open at the end of a section swallows every section after it, and a
//! fence delimiter taken from one side can turn the other side's entry or
//! heading into code (or code into an entry or a heading). The merge closes a
//! fence left open at the end of a section that another section follows, and
//! checks every section it combines from both sides by parsing it again.

use std::borrow::Cow;

use crate::document::{Document, Line, RawLine, Section};
use crate::parse::{parse, Fence};
use crate::span::Span;

use super::lines::keys;

/// Whether any line of the section was code (or a fence delimiter) on its
/// side. Without one, every line parses on its own the same way again, so
/// the checks below have nothing to do.
fn has_fenced_lines(section: &Section<'_>) -> bool {
    section
        .lines
        .iter()
        .any(|line| matches!(line, Line::Raw(raw) if raw.fenced))
}

/// The section rendered on its own, as the merged document renders it.
fn alone(section: &Section<'_>) -> String {
    Document {
        sections: vec![section.clone()],
        ..Document::default()
    }
    .render()
}

/// Whether the section, parsed again, is one section with the same entries
/// and raw lines in the same order: no line became a heading, no entry became
/// code and no code became an entry.
pub(super) fn keeps_its_meaning(section: &Section<'_>) -> bool {
    if !has_fenced_lines(section) {
        return true;
    }
    let text = alone(section);
    let doc = parse(&text);
    match doc.sections.as_slice() {
        [again] => keys(again.content_lines()) == keys(section.content_lines()),
        _ => false,
    }
}

/// When the section ends inside a code fence, drop its trailing blank lines
/// and close the fence with a line of the opening fence's character and
/// length, so that the sections after it stay sections.
pub(super) fn close_open_fence(section: &mut Section<'_>) {
    if !has_fenced_lines(section) {
        return;
    }
    let text = alone(section);
    let Some(open) = parse(&text).unclosed_fence else {
        return;
    };
    let Some(fence) = text.get(open.start..open.end).and_then(Fence::open) else {
        return;
    };
    let kept = section.content_lines().len();
    section.lines.truncate(kept);
    section.lines.push(Line::Raw(RawLine {
        text: Cow::Owned(fence.closing_line()),
        span: Span::default(),
        fenced: true,
    }));
}
