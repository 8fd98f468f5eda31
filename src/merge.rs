//! Three-way merge of memory documents (docs/ops.md): two teammates or two
//! agents edit the same memory from the same base, and their edits are
//! combined at the level of the document's structure instead of its text.
//!
//! Sections are matched by normalized title (and, for repeated titles, by
//! their rank among the sections with that title); entries by date and text;
//! raw lines by content and position within their section. Each rule is a
//! small function below. A real conflict is reported with both versions and
//! their locations, never resolved by guessing: the result is then not clean
//! and its content holds ours' version of every conflicting part, so that the
//! caller can show it, never save it silently. This module does no I/O and
//! knows nothing of JavaScript; the view types at its foot are plain data.

mod diff3;
mod fence;
mod view;

use std::collections::{HashMap, HashSet};

use crate::document::{Document, Line, Section};
use crate::heading::normalize_heading;
use crate::parse::parse;
use crate::render::render;
use crate::span::Span;

use diff3::{diff3, Chunk};
pub use view::{ConflictSideView, ConflictView, DroppedLineView, MergeResultView};

/// Which input of a merge something comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// What kind of disagreement a [`Conflict`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConflictKind {
    /// The same raw lines of a section were changed differently on both sides.
    Lines,
    /// A section was removed on one side and changed on the other.
    SectionRemoved,
    /// A section's title was rewritten differently on both sides (same
    /// normalized title, different text).
    Title,
}

impl ConflictKind {
    /// `"lines"`, `"section-removed"` or `"title"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
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

/// The result of [`merge`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeResult {
    /// The merged document, canonical. When not clean, it holds ours'
    /// version of every conflicting part and must not be saved unreviewed.
    pub content: String,
    /// No conflict: `content` is the merge of both sides' changes.
    pub clean: bool,
    /// Every conflict, in the order of the merged sections.
    pub conflicts: Vec<Conflict>,
    /// Preamble lines of the inputs, which are not kept (FORMAT.md §5).
    pub dropped: Vec<DroppedLine>,
}

/// Merge two edits of the same memory document.
///
/// - Sections are matched by [`normalize_heading`] of their titles; the n-th
///   section with a repeated title matches the n-th one with that title on
///   the other sides. Section order is merged like lines: base order, with
///   the insertions and moves of whichever side made them; where both sides
///   changed the same stretch, base's sections come first, then those new
///   in ours, then those new in theirs.
/// - A section removed on one side and unchanged on the other is removed;
///   removed on one side and changed on the other is a
///   [`ConflictKind::SectionRemoved`] conflict.
/// - Within a section, an entry (keyed by date and text) added on one side is
///   kept, removed on one side is removed, added on both appears once; an
///   entry whose text changed is the removal of the old and the addition of
///   the new one, so entries never conflict. Where both sides add entries at
///   the same place, base's survivors come first, then ours', then theirs'.
/// - Raw lines are merged by content and position (diff3); the same raw lines
///   changed differently on both sides are a [`ConflictKind::Lines`]
///   conflict.
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
    let docs = [parse(base), parse(ours), parse(theirs)];
    let [b, o, t] = [&docs[0], &docs[1], &docs[2]].map(keyed_sections);
    let mut merged = Document::default();
    let mut conflicts = Vec::new();
    for key in section_order(&b, &o, &t) {
        let found = [&b, &o, &t].map(|side| side.get(&key).copied());
        if let Some(section) = merge_section(found, &mut conflicts) {
            merged.sections.push(section);
        }
    }
    if let Some((_, before_last)) = merged.sections.split_last_mut() {
        before_last.iter_mut().for_each(fence::close_open_fence);
    }
    MergeResult {
        content: render(&merged.render()),
        clean: conflicts.is_empty(),
        conflicts,
        dropped: dropped_lines(&docs),
    }
}

/// A section's identity across the three inputs: its normalized title and
/// its rank among the sections of the same document with that title.
type SectionKey = (String, usize);

/// The sections of a document by key, with the keys in document order.
struct Keyed<'a> {
    order: Vec<SectionKey>,
    sections: HashMap<SectionKey, &'a Section>,
}

impl<'a> Keyed<'a> {
    fn get(&self, key: &SectionKey) -> Option<&&'a Section> {
        self.sections.get(key)
    }
}

fn section_key(title: &str) -> String {
    let key = normalize_heading(title);
    // Titles made only of symbols normalize to nothing; they are then told
    // apart by their exact text, as the duplicate-heading rule does.
    if key.is_empty() {
        title.to_owned()
    } else {
        key
    }
}

fn keyed_sections(doc: &Document) -> Keyed<'_> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut keyed = Keyed {
        order: Vec::new(),
        sections: HashMap::new(),
    };
    for section in &doc.sections {
        let title = section_key(&section.title);
        let rank = seen.entry(title.clone()).or_insert(0);
        let key = (title, *rank);
        *rank += 1;
        keyed.order.push(key.clone());
        keyed.sections.insert(key, section);
    }
    keyed
}

/// The order of the merged sections: the title sequences are merged like
/// lines (diff3), so a reordering or an insertion made by one side is kept;
/// where both sides changed the same stretch, base order comes first, then
/// sections new in ours, then sections new in theirs. A section that one side
/// dropped from the sequence but that survives (a conflict) keeps its place
/// after its predecessor.
fn section_order(b: &Keyed<'_>, o: &Keyed<'_>, t: &Keyed<'_>) -> Vec<SectionKey> {
    let mut order: Vec<SectionKey> = Vec::new();
    let mut seen: HashSet<SectionKey> = HashSet::new();
    for chunk in diff3(&b.order, &o.order, &t.order) {
        let keys: Vec<&SectionKey> = match chunk {
            Chunk::Stable { ours } => vec![&o.order[ours]],
            Chunk::Changed { base, ours, theirs } => {
                let (cb, co, ct) = (&b.order[base], &o.order[ours], &t.order[theirs]);
                if co == cb {
                    ct.iter().collect()
                } else if ct == cb || co == ct {
                    co.iter().collect()
                } else {
                    cb.iter().chain(co).chain(ct).collect()
                }
            }
        };
        for key in keys {
            if seen.insert(key.clone()) {
                order.push(key.clone());
            }
        }
    }
    for side in [b, o, t] {
        for (i, key) in side.order.iter().enumerate() {
            if seen.contains(key) {
                continue;
            }
            let at = side.order[..i]
                .iter()
                .rev()
                .find_map(|prev| order.iter().position(|k| k == prev))
                .map_or(0, |p| p + 1);
            order.insert(at, key.clone());
            seen.insert(key.clone());
        }
    }
    order
}

/// The merged section, or `None` when it is removed (or removed by ours in
/// a conflict, which is then recorded).
fn merge_section(
    [b, o, t]: [Option<&Section>; 3],
    conflicts: &mut Vec<Conflict>,
) -> Option<Section> {
    match (b, o, t) {
        (Some(b), Some(o), Some(t)) => Some(merge_both_kept(Some(b), o, t, conflicts)),
        (None, Some(o), Some(t)) => Some(merge_both_kept(None, o, t, conflicts)),
        (Some(b), Some(o), None) => {
            removed_by_one(b, o, Side::Theirs, conflicts).then(|| o.clone())
        }
        (Some(b), None, Some(t)) => {
            removed_by_one(b, t, Side::Ours, conflicts);
            None
        }
        (None, Some(only), None) | (None, None, Some(only)) => Some(only.clone()),
        (Some(_) | None, None, None) => None,
    }
}

/// One side removed the section `b`, the other holds `kept`. Returns whether
/// the other side changed it, in which case a conflict is recorded.
fn removed_by_one(
    b: &Section,
    kept: &Section,
    remover: Side,
    conflicts: &mut Vec<Conflict>,
) -> bool {
    if same_section(b, kept) {
        return false;
    }
    let kept_side = Some(whole_section(kept));
    let (ours, theirs) = match remover {
        Side::Theirs => (kept_side, None),
        Side::Base | Side::Ours => (None, kept_side),
    };
    conflicts.push(Conflict {
        kind: ConflictKind::SectionRemoved,
        section: kept.title.clone(),
        base: Some(whole_section(b)),
        ours,
        theirs,
    });
    true
}

fn same_section(a: &Section, b: &Section) -> bool {
    a.title == b.title && keys(content_lines(a)) == keys(content_lines(b))
}

fn whole_section(section: &Section) -> ConflictSide {
    let lines = content_lines(section);
    let mut rendered = vec![format!("## {}", section.title)];
    rendered.extend(lines.iter().map(line_text));
    let end = lines.last().map_or(section.span.end, |l| l.span().end);
    ConflictSide {
        lines: rendered,
        span: Span::new(section.span.start.min(end), end.max(section.span.start)),
    }
}

/// Both sides hold the section; the base may not.
fn merge_both_kept(
    b: Option<&Section>,
    o: &Section,
    t: &Section,
    conflicts: &mut Vec<Conflict>,
) -> Section {
    let title = merge_title(b, o, t, conflicts);
    let mut own = Vec::new();
    let lines = merge_lines(
        [b, Some(o), Some(t)],
        b.map_or(&[][..], content_lines),
        content_lines(o),
        content_lines(t),
        &mut own,
    );
    let merged = Section {
        title,
        explicit: o.explicit || t.explicit,
        span: Span::default(),
        lines,
    };
    if fence::keeps_its_meaning(&merged) {
        conflicts.extend(own);
        return merged;
    }
    // The combined lines would read differently (a fence of one side around
    // the other's lines, or one side's code outside its fence): the whole
    // section conflicts and the content keeps ours' lines.
    let whole = |s: &Section| {
        let lines = content_lines(s);
        chunk_side(s, lines, &(0..lines.len()))
    };
    conflicts.push(Conflict {
        kind: ConflictKind::Lines,
        section: o.title.clone(),
        base: b.map(whole),
        ours: Some(whole(o)),
        theirs: Some(whole(t)),
    });
    Section {
        lines: content_lines(o).to_vec(),
        ..merged
    }
}

fn merge_title(
    b: Option<&Section>,
    o: &Section,
    t: &Section,
    conflicts: &mut Vec<Conflict>,
) -> String {
    let base = b.map(|s| s.title.as_str());
    if Some(o.title.as_str()) == base || o.title == t.title {
        return t.title.clone();
    }
    if Some(t.title.as_str()) == base {
        return o.title.clone();
    }
    let heading = |s: &Section| ConflictSide {
        lines: vec![format!("## {}", s.title)],
        span: s.span,
    };
    conflicts.push(Conflict {
        kind: ConflictKind::Title,
        section: o.title.clone(),
        base: b.map(heading),
        ours: Some(heading(o)),
        theirs: Some(heading(t)),
    });
    o.title.clone()
}

/// A section's lines without its trailing blank lines, which are not content
/// (rendering drops them).
fn content_lines(section: &Section) -> &[Line] {
    let kept = section
        .lines
        .iter()
        .rposition(|line| !line.is_blank())
        .map_or(0, |last| last + 1);
    &section.lines[..kept]
}

/// What a line is compared by: an entry by date and text (a legacy marker
/// renders away, so it does not count), a raw line by its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum LineKey<'a> {
    Entry(&'a str, &'a str),
    Raw(&'a str),
}

fn key(line: &Line) -> LineKey<'_> {
    match line {
        Line::Entry(e) => LineKey::Entry(&e.date, &e.text),
        Line::Raw(r) => LineKey::Raw(&r.text),
    }
}

fn keys(lines: &[Line]) -> Vec<LineKey<'_>> {
    lines.iter().map(key).collect()
}

fn line_text(line: &Line) -> String {
    match line {
        Line::Entry(e) => format!("- {}: {}", e.date, e.text),
        Line::Raw(r) => r.text.clone(),
    }
}

/// Merge the lines of a section held by both sides: diff3 for placement and
/// raw lines, then the entry counts of the whole section enforced, so that an
/// entry moved on one side is neither lost nor doubled.
fn merge_lines(
    sections: [Option<&Section>; 3],
    b: &[Line],
    o: &[Line],
    t: &[Line],
    conflicts: &mut Vec<Conflict>,
) -> Vec<Line> {
    let (kb, ko, kt) = (keys(b), keys(o), keys(t));
    let mut out = Vec::new();
    for chunk in diff3(&kb, &ko, &kt) {
        match chunk {
            Chunk::Stable { ours } => out.push(o[ours].clone()),
            Chunk::Changed { base, ours, theirs } => {
                let (cb, co, ct) = (&b[base.clone()], &o[ours.clone()], &t[theirs.clone()]);
                let resolved = resolve_chunk(cb, co, ct);
                if resolved.conflict {
                    let title = sections[1].map_or_else(String::new, |s| s.title.clone());
                    conflicts.push(Conflict {
                        kind: ConflictKind::Lines,
                        section: title,
                        base: sections[0].map(|s| chunk_side(s, b, &base)),
                        ours: sections[1].map(|s| chunk_side(s, o, &ours)),
                        theirs: sections[2].map(|s| chunk_side(s, t, &theirs)),
                    });
                }
                out.extend(resolved.lines);
            }
        }
    }
    enforce_entry_counts(out, b, o, t)
}

/// The lines `range` of a section's `lines`, with their span; an empty range
/// is located where its lines were (just after the line before it).
fn chunk_side(section: &Section, lines: &[Line], range: &std::ops::Range<usize>) -> ConflictSide {
    let part = &lines[range.clone()];
    let span = if let (Some(first), Some(last)) = (part.first(), part.last()) {
        Span::new(first.span().start, last.span().end)
    } else {
        let heading_end = if section.explicit {
            section.span.end
        } else {
            section.span.start
        };
        let at = range
            .start
            .checked_sub(1)
            .and_then(|i| lines.get(i))
            .map_or(heading_end, |l| l.span().end);
        Span::new(at, at)
    };
    ConflictSide {
        lines: part.iter().map(line_text).collect(),
        span,
    }
}

struct Resolved {
    lines: Vec<Line>,
    conflict: bool,
}

/// A changed chunk: the side that changed wins; identical changes are taken
/// once; changes on both sides keep both sides' entries and take the raw
/// lines (with their blank lines) of the one side that changed its
/// non-blank raw lines, ours' when neither did, or report a conflict (and
/// keep ours') when both did.
fn resolve_chunk(b: &[Line], o: &[Line], t: &[Line]) -> Resolved {
    let (kb, ko, kt) = (keys(b), keys(o), keys(t));
    let whole = |lines: &[Line]| Resolved {
        lines: lines.to_vec(),
        conflict: false,
    };
    if ko == kb {
        return whole(t);
    }
    if kt == kb || ko == kt {
        return whole(o);
    }
    let (rb, ro, rt) = (raw(b), raw(o), raw(t));
    let (skeleton, conflict) = if rt == rb || ro == rt {
        (o, false)
    } else if ro == rb {
        (t, false)
    } else {
        (o, true)
    };
    let mut remaining = merged_counts(b, o, t);
    let mut lines = Vec::new();
    for line in skeleton {
        if take(&mut remaining, line) {
            lines.push(line.clone());
        }
    }
    for line in b.iter().chain(o).chain(t) {
        if matches!(line, Line::Entry(_)) && take(&mut remaining, line) {
            lines.push(line.clone());
        }
    }
    Resolved { lines, conflict }
}

/// The non-blank raw lines of a chunk: what decides whose raw lines a chunk
/// changed on both sides takes. Blank lines alone never make a conflict.
fn raw(lines: &[Line]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| match l {
            Line::Raw(r) if !r.text.is_empty() => Some(r.text.as_str()),
            Line::Raw(_) | Line::Entry(_) => None,
        })
        .collect()
}

/// Whether `line` is kept: raw lines always, entries while their merged
/// count lasts.
fn take(remaining: &mut HashMap<(String, String), usize>, line: &Line) -> bool {
    let Line::Entry(entry) = line else {
        return true;
    };
    match remaining.get_mut(&(entry.date.clone(), entry.text.clone())) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    }
}

/// How many copies of each entry the merge keeps: the side that changed the
/// count wins; when both did in the same direction the larger change is
/// taken once (an entry added on both sides appears once); when they
/// disagree both changes apply.
fn merged_count(b: usize, o: usize, t: usize) -> usize {
    if o == b {
        t
    } else if t == b {
        o
    } else if o > b && t > b {
        o.max(t)
    } else if o < b && t < b {
        o.min(t)
    } else {
        (o + t).saturating_sub(b)
    }
}

fn merged_counts(b: &[Line], o: &[Line], t: &[Line]) -> HashMap<(String, String), usize> {
    let mut counts: HashMap<(String, String), [usize; 3]> = HashMap::new();
    for (side, lines) in [b, o, t].into_iter().enumerate() {
        for entry in lines.iter().filter_map(Line::as_entry) {
            counts
                .entry((entry.date.clone(), entry.text.clone()))
                .or_default()[side] += 1;
        }
    }
    counts
        .into_iter()
        .map(|(k, [b, o, t])| (k, merged_count(b, o, t)))
        .collect()
}

/// Keep exactly the merged count of every entry of the section: extra copies
/// (an entry moved on both sides to different places) go, missing ones are
/// appended in base, ours, theirs order.
fn enforce_entry_counts(lines: Vec<Line>, b: &[Line], o: &[Line], t: &[Line]) -> Vec<Line> {
    let mut remaining = merged_counts(b, o, t);
    let mut out: Vec<Line> = lines
        .into_iter()
        .filter(|line| take(&mut remaining, line))
        .collect();
    for line in b.iter().chain(o).chain(t) {
        if matches!(line, Line::Entry(_)) && take(&mut remaining, line) {
            out.push(line.clone());
        }
    }
    out
}

fn dropped_lines(docs: &[Document; 3]) -> Vec<DroppedLine> {
    [Side::Base, Side::Ours, Side::Theirs]
        .into_iter()
        .zip(docs)
        .flat_map(|(side, doc)| {
            doc.preamble.iter().map(move |raw| DroppedLine {
                side,
                text: raw.text.clone(),
                span: raw.span,
            })
        })
        .collect()
}
