//! Three-way merge of memory documents (docs/ops.md): two teammates or two
//! agents edit the same memory from the same base, and their edits are
//! combined at the level of the document's structure instead of its text.
//!
//! Sections are matched by normalized title (and, for repeated titles, by
//! their rank among the sections with that title, and across a rename by
//! their lines); entries by date and text, then by similar text
//! (`identity`), so that an edited entry is one entry; raw lines by content
//! and position within their section. Each rule is a
//! small function: `order` pairs the sections of the three inputs and orders
//! them, `sections` merges one section, `lines` the lines of a section both
//! sides hold (placed by `diff3`), and `fence` keeps code fences from
//! changing what the other side's lines mean. A real conflict is reported
//! with both versions and their locations, never resolved by guessing: the
//! result is then not clean and its content holds ours' version of every
//! conflicting part, so that the caller can show it, never save it silently.
//! This module does no I/O and knows nothing of JavaScript.

// The line matching of the merge, also behind `memdoc fmt --check`'s diff.
pub(crate) mod diff3;
mod fence;
mod identity;
mod lines;
mod marked;
mod order;
mod result;
mod sections;

use crate::document::Document;
use crate::parse::parse;
use crate::render::render;

use marked::{render_marked, Part};
use order::{keyed, section_order};
use sections::merge_section;

pub use diff3::matches as lcs_matches;
pub use result::{Conflict, ConflictKind, ConflictSide, DroppedLine, MergeResult, Side};

/// Merge two edits of the same memory document.
///
/// - Sections are matched by [`normalize_heading`](crate::normalize_heading)
///   of their titles; the n-th section with a repeated title matches the
///   n-th one with that title on the other sides. Section order is merged like lines: base order, with
///   the insertions and moves of whichever side made them; where both sides
///   changed the same stretch, base's sections come first, then those new
///   in ours, then those new in theirs.
/// - A section removed on one side and unchanged on the other is removed;
///   removed on one side and changed on the other is a
///   [`ConflictKind::SectionRemoved`] conflict.
/// - A section of one side whose title the base lacks is the base's
///   section that side lacks when it holds more than half of its lines: a
///   rename (docs/ops.md).
/// - Within a section, each side's entries are matched to the base's, by
///   date and text, then by similar text: a matched entry whose date or text
///   differs is an edit. An edit on one side is taken; edits that differ, or
///   an edit on one side and a removal on the other, are a
///   [`ConflictKind::Entry`] conflict, never two entries. An entry added on
///   one side is kept, removed on one side is removed, added on both appears
///   once. Where both sides add entries at the same place, base's survivors
///   come first, then ours', then theirs'.
/// - Raw lines are merged by content and position (diff3); the same raw lines
///   changed differently on both sides are a [`ConflictKind::Lines`]
///   conflict. Blank lines outside code fences are layout, not content: raw
///   lines that differ only in them do not conflict.
///
/// ```
/// let base = "## Decisions\n- 2025-03-01: Use Postgres";
/// let ours = "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-02: Ship on Fridays";
/// let theirs = "## Decisions\n- 2025-03-01: Use Postgres\n\n## Facts\n- 2025-03-03: Office in Oslo";
/// let merged = memdoc::merge(base, ours, theirs);
/// assert!(merged.clean);
/// assert_eq!(
///     merged.content,
///     "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-02: Ship on Fridays\n\n## Facts\n- 2025-03-03: Office in Oslo"
/// );
/// ```
#[must_use]
pub fn merge(base: &str, ours: &str, theirs: &str) -> MergeResult {
    merge_inner(base, ours, theirs, None).0
}

/// [`merge`], and when it is not clean, the merged text with conflict
/// markers around each conflicting part, `labels` naming ours and theirs
/// on the marker lines (`<<<<<<< {ours}`, `=======`, `>>>>>>> {theirs}`):
/// what a person edits to finish the merge. `None` when the merge is clean.
///
/// ```
/// let base = "## Notes\nmeet on Monday";
/// let merged = memdoc::merge_marked(base, "## Notes\nmeet on Tuesday", "## Notes\nmeet on Friday", ["ours", "theirs"]);
/// assert!(!merged.0.clean);
/// assert_eq!(
///     merged.1.as_deref(),
///     Some("## Notes\n<<<<<<< ours\nmeet on Tuesday\n=======\nmeet on Friday\n>>>>>>> theirs")
/// );
/// ```
#[must_use]
pub fn merge_marked(
    base: &str,
    ours: &str,
    theirs: &str,
    labels: [&str; 2],
) -> (MergeResult, Option<String>) {
    merge_inner(base, ours, theirs, Some(labels))
}

// Once in the module for `merge` and `merge_marked` alike: each has one
// call of it, which inlining would otherwise copy into both.
#[inline(never)]
fn merge_inner(
    base: &str,
    ours: &str,
    theirs: &str,
    labels: Option<[&str; 2]>,
) -> (MergeResult, Option<String>) {
    let docs = [parse(base), parse(ours), parse(theirs)];
    let [b, o, t] = keyed(&docs);
    let mut merged = Document::default();
    let mut conflicts = Vec::new();
    let mut parts: Vec<Part<'_>> = Vec::new();
    for key in section_order(&b, &o, &t) {
        let found = [&b, &o, &t].map(|side| side.get(&key));
        let (section, mark) = merge_section(found, &mut conflicts);
        let at = section.map(|section| {
            merged.sections.push(section);
            merged.sections.len() - 1
        });
        if labels.is_some() {
            parts.push((at, mark));
        }
    }
    if let Some((_, before_last)) = merged.sections.split_last_mut() {
        before_last.iter_mut().for_each(fence::close_open_fence);
    }
    let marked = match labels {
        Some(labels) if !conflicts.is_empty() => {
            Some(render_marked(&merged.sections, &parts, labels))
        }
        _ => None,
    };
    let result = MergeResult {
        content: render(&merged.render()),
        clean: conflicts.is_empty(),
        conflicts,
        dropped: dropped_lines(&docs),
    };
    (result, marked)
}

/// The preamble lines of the three inputs, which the merge does not keep.
fn dropped_lines(docs: &[Document<'_>; 3]) -> Vec<DroppedLine> {
    [Side::Base, Side::Ours, Side::Theirs]
        .into_iter()
        .zip(docs)
        .flat_map(|(side, doc)| {
            doc.preamble.iter().map(move |raw| DroppedLine {
                side,
                text: raw.text.to_string(),
                span: raw.span,
            })
        })
        .collect()
}
