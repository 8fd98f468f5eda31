//! The lines of a section held by both sides: entries keyed by date and
//! text, raw lines placed by diff3, and the entry counts of the whole section
//! enforced so that an entry moved on one side is neither lost nor doubled.

use crate::document::{Line, Section};
use crate::fast::{self, sort_by};
use crate::span::Span;

use super::diff3::{diff3, Chunk};
use super::marked::Marked;
use super::{Conflict, ConflictKind, ConflictSide, Side};

/// What a line is compared by: an entry by date and text (a legacy marker
/// renders away, so it does not count), a raw line by its text.
#[derive(Debug, Clone, Copy, Eq)]
pub(super) enum LineKey<'a> {
    Entry(&'a str, &'a str),
    Raw(&'a str),
}

impl PartialEq for LineKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Entry(d, t), Self::Entry(e, u)) => d == e && fast::eq(t, u),
            (Self::Raw(t), Self::Raw(u)) => fast::eq(t, u),
            _ => false,
        }
    }
}

fn key<'a>(line: &'a Line<'_>) -> LineKey<'a> {
    match line {
        Line::Entry(e) => LineKey::Entry(&e.date, &e.text),
        Line::Raw(r) => LineKey::Raw(&r.text),
    }
}

pub(super) fn keys<'a>(lines: &'a [Line<'_>]) -> Vec<LineKey<'a>> {
    lines.iter().map(key).collect()
}

/// The merged lines of a section held by both sides, and the same lines
/// with conflict markers when a part of them conflicts.
pub(super) type MergedLines<'d> = (Vec<Line<'d>>, Option<Vec<Marked<'d>>>);

/// A line of the merged section, or where a conflicting part starts and
/// ends (with theirs' lines of the part), for the marked text.
#[derive(Clone, Copy)]
enum Piece<'a, 'd> {
    Line(&'a Line<'d>),
    Open,
    Close(&'a [Line<'d>]),
}

/// Merge the lines of a section held by both sides: diff3 for placement and
/// raw lines, then the entry counts of the whole section enforced, so that an
/// entry moved on one side is neither lost nor doubled.
pub(super) fn merge_lines<'a, 'd>(
    sections: [Option<&Section<'d>>; 3],
    b: &'a [Line<'d>],
    o: &'a [Line<'d>],
    t: &'a [Line<'d>],
    conflicts: &mut Vec<Conflict>,
) -> MergedLines<'d> {
    let (kb, ko, kt) = (keys(b), keys(o), keys(t));
    // A side that left the section as it was takes the other side's lines,
    // as diff3 and the entry counts below would, without their cost.
    if ko == kb {
        return (t.to_vec(), None);
    }
    if kt == kb || ko == kt {
        return (o.to_vec(), None);
    }
    let mut out: Vec<Piece<'a, 'd>> = Vec::new();
    let mut conflicting = false;
    for chunk in diff3(&kb, &ko, &kt) {
        match chunk {
            Chunk::Stable { ours } => out.push(Piece::Line(&o[ours])),
            Chunk::Changed { base, ours, theirs } => {
                let (cb, co, ct) = (&b[base.clone()], &o[ours.clone()], &t[theirs.clone()]);
                let resolved = resolve_chunk(cb, co, ct);
                if resolved.conflict {
                    conflicting = true;
                    let title = sections[1].map_or_else(String::new, |s| s.title.to_string());
                    conflicts.push(Conflict {
                        kind: ConflictKind::Lines,
                        section: title,
                        base: sections[0].map(|s| chunk_side(s, b, &base)),
                        ours: sections[1].map(|s| chunk_side(s, o, &ours)),
                        theirs: sections[2].map(|s| chunk_side(s, t, &theirs)),
                    });
                    out.push(Piece::Open);
                    out.extend(resolved.lines.into_iter().map(Piece::Line));
                    out.push(Piece::Close(ct));
                } else {
                    out.extend(resolved.lines.into_iter().map(Piece::Line));
                }
            }
        }
    }
    let pieces = enforce_entry_counts(out, b, o, t);
    let lines = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Line(l) => Some((*l).clone()),
            Piece::Open | Piece::Close(_) => None,
        })
        .collect();
    let marked = conflicting.then(|| {
        pieces
            .iter()
            .map(|p| match p {
                Piece::Line(l) => Marked::Line((*l).clone()),
                Piece::Open => Marked::Open,
                // Entries never conflict: theirs' are merged in already.
                Piece::Close(theirs) => Marked::Close(
                    theirs
                        .iter()
                        .filter(|l| matches!(l, Line::Raw(_)))
                        .cloned()
                        .collect(),
                ),
            })
            .collect()
    });
    (lines, marked)
}

/// The lines `range` of a section's `lines`, with their span; an empty range
/// is located where its lines were (just after the line before it).
pub(super) fn chunk_side(
    section: &Section<'_>,
    lines: &[Line<'_>],
    range: &std::ops::Range<usize>,
) -> ConflictSide {
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
        lines: part.iter().map(|l| l.render().into_owned()).collect(),
        span,
    }
}

struct Resolved<'a, 'd> {
    lines: Vec<&'a Line<'d>>,
    conflict: bool,
}

/// A changed chunk: the side that changed wins; identical changes are taken
/// once; changes on both sides keep both sides' entries and take the raw
/// lines of the one side that changed them, or report a conflict (and keep
/// ours') when both did.
fn resolve_chunk<'a, 'd>(
    b: &'a [Line<'d>],
    o: &'a [Line<'d>],
    t: &'a [Line<'d>],
) -> Resolved<'a, 'd> {
    let (kb, ko, kt) = (keys(b), keys(o), keys(t));
    let whole = |lines: &'a [Line<'d>]| Resolved {
        lines: lines.iter().collect(),
        conflict: false,
    };
    if ko == kb {
        return whole(t);
    }
    if kt == kb || ko == kt {
        return whole(o);
    }
    // Blank lines outside fences are layout, not content (the canonical form
    // drops a section's trailing ones, so the same place can hold a different
    // number of them on each side): when the raw lines differ only there,
    // the side that changed the other raw lines wins, and ours' layout
    // otherwise.
    let (skeleton, conflict) =
        match changed_raw([b, o, t], raw).or_else(|| changed_raw([b, o, t], written)) {
            Some(Side::Theirs) => (t, false),
            Some(_) => (o, false),
            None => (o, true),
        };
    let mut counts = Counts::new(b, o, t);
    let mut lines = Vec::new();
    for line in skeleton {
        if counts.take(line) {
            lines.push(line);
        }
    }
    for line in b.iter().chain(o).chain(t) {
        if matches!(line, Line::Entry(_)) && counts.take(line) {
            lines.push(line);
        }
    }
    Resolved { lines, conflict }
}

/// Whose raw lines a chunk takes, compared by `text`: theirs when only theirs
/// changed them, ours when only ours did or both changed them alike, `None`
/// when both changed them differently.
fn changed_raw<'a>(
    sides: [&'a [Line<'_>]; 3],
    text: fn(&'a [Line<'_>]) -> Vec<&'a str>,
) -> Option<Side> {
    let [b, o, t] = sides.map(text);
    if t == b || o == t {
        Some(Side::Ours)
    } else if o == b {
        Some(Side::Theirs)
    } else {
        None
    }
}

fn raw<'a>(lines: &'a [Line<'_>]) -> Vec<&'a str> {
    lines
        .iter()
        .filter_map(|l| match l {
            Line::Raw(r) => Some(&*r.text),
            Line::Entry(_) => None,
        })
        .collect()
}

/// The raw lines without the blank lines outside fences (a blank line inside
/// a fence is code).
fn written<'a>(lines: &'a [Line<'_>]) -> Vec<&'a str> {
    lines
        .iter()
        .filter_map(|l| match l {
            Line::Raw(r) if r.fenced || !r.text.is_empty() => Some(&*r.text),
            Line::Raw(_) | Line::Entry(_) => None,
        })
        .collect()
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

/// The merged count of every entry of a section's three sides, by date and
/// text, and how many copies of each are still to be placed.
struct Counts<'a> {
    /// Each entry's date and text once, in order.
    keys: Vec<(&'a str, &'a str)>,
    remaining: Vec<usize>,
}

impl<'a> Counts<'a> {
    fn new(b: &'a [Line<'_>], o: &'a [Line<'_>], t: &'a [Line<'_>]) -> Self {
        let mut all: Vec<((&str, &str), usize)> = [b, o, t]
            .into_iter()
            .enumerate()
            .flat_map(|(side, lines)| {
                lines
                    .iter()
                    .filter_map(Line::as_entry)
                    .map(move |e| ((&*e.date, &*e.text), side))
            })
            .collect();
        sort_by(&mut all, &|x, y| x.0.cmp(&y.0));
        let mut keys = Vec::new();
        let mut remaining = Vec::new();
        for copies in all.chunk_by(|x, y| x.0 == y.0) {
            let mut per_side = [0; 3];
            for &(_, side) in copies {
                per_side[side] += 1;
            }
            let [b, o, t] = per_side;
            keys.push(copies[0].0);
            remaining.push(merged_count(b, o, t));
        }
        Self { keys, remaining }
    }

    /// Whether `line` is kept: raw lines always, entries while their merged
    /// count lasts.
    fn take(&mut self, line: &Line<'_>) -> bool {
        let Line::Entry(entry) = line else {
            return true;
        };
        match self.keys.binary_search(&(&*entry.date, &*entry.text)) {
            Ok(at) if self.remaining[at] > 0 => {
                self.remaining[at] -= 1;
                true
            }
            _ => false,
        }
    }
}

/// Keep exactly the merged count of every entry of the section: extra copies
/// (an entry moved on both sides to different places) go, missing ones are
/// appended in base, ours, theirs order. Markers stay where they are.
fn enforce_entry_counts<'a, 'd>(
    pieces: Vec<Piece<'a, 'd>>,
    b: &'a [Line<'d>],
    o: &'a [Line<'d>],
    t: &'a [Line<'d>],
) -> Vec<Piece<'a, 'd>> {
    let mut counts = Counts::new(b, o, t);
    let mut out: Vec<Piece<'a, 'd>> = pieces
        .into_iter()
        .filter(|piece| match piece {
            Piece::Line(line) => counts.take(line),
            Piece::Open | Piece::Close(_) => true,
        })
        .collect();
    for line in b.iter().chain(o).chain(t) {
        if matches!(line, Line::Entry(_)) && counts.take(line) {
            out.push(Piece::Line(line));
        }
    }
    out
}
