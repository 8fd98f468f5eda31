//! The lines of a section held by both sides: entries matched to the base's
//! (`identity`) so that an edited entry is the same entry, raw lines placed
//! by diff3, and the entry counts of the whole section enforced so that an
//! entry moved on one side is neither lost nor doubled.

use crate::document::{Line, Section};
use crate::fast::{self, sort_by};
use crate::span::Span;

use super::diff3::{diff3, Chunk};
use super::identity::{fates, outcome, Fate, Outcome};
use super::marked::Marked;
use super::{Conflict, ConflictKind, ConflictSide, Side};

/// What a line is compared by: an entry by date and text (a legacy marker
/// renders away, so it does not count), a raw line by its text; during a
/// merge, an entry matched to the base's entry at an index by that index.
#[derive(Debug, Clone, Copy, Eq)]
pub(super) enum LineKey<'a> {
    Entry(&'a str, &'a str),
    Raw(&'a str),
    Base(usize),
}

impl PartialEq for LineKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Entry(d, t), Self::Entry(e, u)) => d == e && fast::eq(t, u),
            (Self::Raw(t), Self::Raw(u)) => fast::eq(t, u),
            (Self::Base(i), Self::Base(j)) => i == j,
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

/// A line of the merged section with its key, or where a conflicting part
/// starts and ends (with theirs' lines of the part), for the marked text.
#[derive(Clone, Copy)]
enum Piece<'a, 'd> {
    Line(&'a Line<'d>, LineKey<'a>),
    /// The start of a conflict of lines: its index among them.
    Open(usize),
    /// The start of an entry's conflict.
    OpenEntry,
    Close(&'a [Line<'d>]),
    /// The end of an entry's conflict: theirs' version, if any.
    CloseEntry(Option<&'a Line<'d>>),
}

/// One side's lines and their keys, entries matched to the base's.
#[derive(Clone, Copy)]
struct Seq<'s, 'a, 'd> {
    lines: &'a [Line<'d>],
    keys: &'s [LineKey<'a>],
}

impl<'s, 'a, 'd> Seq<'s, 'a, 'd> {
    fn part(self, range: std::ops::Range<usize>) -> Self {
        Self {
            lines: &self.lines[range.clone()],
            keys: &self.keys[range],
        }
    }

    fn pieces(self) -> impl Iterator<Item = Piece<'a, 'd>> + 's {
        self.lines
            .iter()
            .zip(self.keys)
            .map(|(l, k)| Piece::Line(l, *k))
    }
}

/// The keys of a side's lines, each entry that `fates` matched to a base
/// entry keyed by that entry's index.
fn matched_keys<'a>(lines: &'a [Line<'_>], fates: &[Fate]) -> Vec<LineKey<'a>> {
    let mut out = keys(lines);
    for (i, fate) in fates.iter().enumerate() {
        if let Fate::Same(j) | Fate::Edited(j) = *fate {
            out[j] = LineKey::Base(i);
        }
    }
    out
}

/// Merge the lines of a section held by both sides: entries matched to the
/// base's, diff3 for placement and raw lines, the entry counts of the whole
/// section enforced, then each base entry written as its outcome: as it is,
/// as the side that edited it wrote it, or as a conflict.
pub(super) fn merge_lines<'a, 'd>(
    sections: [Option<&Section<'d>>; 3],
    b: &'a [Line<'d>],
    o: &'a [Line<'d>],
    t: &'a [Line<'d>],
    conflicts: &mut Vec<Conflict>,
) -> MergedLines<'d> {
    {
        let (kb, ko, kt) = (keys(b), keys(o), keys(t));
        // A side that left the section as it was takes the other side's
        // lines, as the merge below would, without its cost.
        if ko == kb {
            return (t.to_vec(), None);
        }
        if kt == kb || ko == kt {
            return (o.to_vec(), None);
        }
    }
    let (fo, ft) = (fates(b, o), fates(b, t));
    let outcomes: Vec<Outcome> = fo
        .iter()
        .zip(&ft)
        .map(|(&x, &y)| outcome(x, y, |j, k| key(&o[j]) == key(&t[k])))
        .collect();
    let mut kb = keys(b);
    for (i, k) in kb.iter_mut().enumerate() {
        if matches!(k, LineKey::Entry(..)) {
            *k = LineKey::Base(i);
        }
    }
    let (ko, kt) = (matched_keys(o, &fo), matched_keys(t, &ft));
    let sb = Seq {
        lines: b,
        keys: &kb,
    };
    let so = Seq {
        lines: o,
        keys: &ko,
    };
    let st = Seq {
        lines: t,
        keys: &kt,
    };
    let (placed, of_lines) = place(sections, [sb, so, st], &outcomes);
    let pieces = enforce_entry_counts(placed, [sb, so, st], &outcomes);
    let (written, conflicting) = write_outcomes(
        pieces,
        sections,
        [sb, so, st],
        [&fo, &ft],
        &outcomes,
        &of_lines,
        conflicts,
    );
    let lines = written
        .iter()
        .filter_map(|p| match p {
            Piece::Line(l, _) => Some((*l).clone()),
            _ => None,
        })
        .collect();
    (lines, conflicting.then(|| marked(&written)))
}

/// The lines of the section placed by diff3 over the keys, each changed
/// chunk resolved, and the conflicts of lines met, in order (each `Open`
/// piece gives its index).
fn place<'a, 'd>(
    sections: [Option<&Section<'d>>; 3],
    [sb, so, st]: [Seq<'_, 'a, 'd>; 3],
    outcomes: &[Outcome],
) -> (Vec<Piece<'a, 'd>>, Vec<Conflict>) {
    let mut out: Vec<Piece<'a, 'd>> = Vec::new();
    let mut of_lines = Vec::new();
    for chunk in diff3(sb.keys, so.keys, st.keys) {
        match chunk {
            Chunk::Stable { ours } => out.push(Piece::Line(&so.lines[ours], so.keys[ours])),
            Chunk::Changed { base, ours, theirs } => {
                let (cb, co, ct) = (
                    sb.part(base.clone()),
                    so.part(ours.clone()),
                    st.part(theirs.clone()),
                );
                let resolved = resolve_chunk(cb, co, ct, outcomes);
                if resolved.conflict {
                    let title = sections[1].map_or_else(String::new, |s| s.title.to_string());
                    of_lines.push(Conflict {
                        kind: ConflictKind::Lines,
                        section: title,
                        base: sections[0].map(|s| chunk_side(s, sb.lines, &base)),
                        ours: sections[1].map(|s| chunk_side(s, so.lines, &ours)),
                        theirs: sections[2].map(|s| chunk_side(s, st.lines, &theirs)),
                    });
                    out.push(Piece::Open(of_lines.len() - 1));
                    out.extend(resolved.lines);
                    out.push(Piece::Close(ct.lines));
                } else {
                    out.extend(resolved.lines);
                }
            }
        }
    }
    (out, of_lines)
}

/// Each base entry of `pieces` written as its outcome (the version kept, or
/// both versions between conflict markers, the conflict recorded), and the
/// conflicts of lines recorded in their place; whether anything conflicts.
fn write_outcomes<'a, 'd>(
    pieces: Vec<Piece<'a, 'd>>,
    sections: [Option<&Section<'d>>; 3],
    [sb, so, st]: [Seq<'_, 'a, 'd>; 3],
    [fo, ft]: [&[Fate]; 2],
    outcomes: &[Outcome],
    of_lines: &[Conflict],
    conflicts: &mut Vec<Conflict>,
) -> (Vec<Piece<'a, 'd>>, bool) {
    let mut conflicting = false;
    let mut written = Vec::with_capacity(pieces.len());
    let line = |seq: Seq<'_, 'a, 'd>, j: usize| Piece::Line(&seq.lines[j], seq.keys[j]);
    for piece in pieces {
        match piece {
            Piece::Line(_, LineKey::Base(i)) => match outcomes[i] {
                Outcome::Keep(Side::Theirs, k) => written.push(line(st, k)),
                Outcome::Keep(_, j) => written.push(line(so, j)),
                Outcome::Drop => {}
                Outcome::Conflict => {
                    conflicting = true;
                    let side = |s: Option<&Section<'_>>, seq: Seq<'_, '_, '_>, fate: Fate| {
                        s.map(|s| entry_side(s, seq, fate, &sb.keys[..i]))
                    };
                    conflicts.push(Conflict {
                        kind: ConflictKind::Entry,
                        section: sections[1].map_or_else(String::new, |s| s.title.to_string()),
                        base: sections[0].map(|s| chunk_side(s, sb.lines, &(i..i + 1))),
                        ours: side(sections[1], so, fo[i]),
                        theirs: side(sections[2], st, ft[i]),
                    });
                    written.push(Piece::OpenEntry);
                    if let Fate::Same(j) | Fate::Edited(j) = fo[i] {
                        written.push(line(so, j));
                    }
                    written.push(Piece::CloseEntry(match ft[i] {
                        Fate::Same(k) | Fate::Edited(k) => Some(&st.lines[k]),
                        Fate::Gone => None,
                    }));
                }
            },
            Piece::Open(at) => {
                conflicting = true;
                conflicts.push(of_lines[at].clone());
                written.push(piece);
            }
            _ => written.push(piece),
        }
    }
    (written, conflicting)
}

/// The merged lines with their conflicting parts marked.
fn marked<'d>(written: &[Piece<'_, 'd>]) -> Vec<Marked<'d>> {
    written
        .iter()
        .map(|p| match p {
            Piece::Line(l, _) => Marked::Line((*l).clone()),
            Piece::Open(_) | Piece::OpenEntry => Marked::Open,
            Piece::CloseEntry(theirs) => {
                Marked::Close(theirs.iter().map(|l| (*l).clone()).collect())
            }
            // Entries of a conflict of lines are merged in already.
            Piece::Close(theirs) => Marked::Close(
                theirs
                    .iter()
                    .filter(|l| matches!(l, Line::Raw(_)))
                    .cloned()
                    .collect(),
            ),
        })
        .collect()
}

/// One side's version of a conflicting base entry: its line, or, where the
/// side removed it, an empty range after the side's line that is the last
/// of `before` (the base's keys before the entry) it still holds.
fn entry_side(
    section: &Section<'_>,
    seq: Seq<'_, '_, '_>,
    fate: Fate,
    before: &[LineKey<'_>],
) -> ConflictSide {
    let at = match fate {
        Fate::Same(j) | Fate::Edited(j) => return chunk_side(section, seq.lines, &(j..j + 1)),
        Fate::Gone => before
            .iter()
            .rev()
            .find_map(|k| seq.keys.iter().position(|x| x == k))
            .map_or(0, |p| p + 1),
    };
    chunk_side(section, seq.lines, &(at..at))
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
    lines: Vec<Piece<'a, 'd>>,
    conflict: bool,
}

/// A changed chunk: the side that changed wins; identical changes are taken
/// once; changes on both sides keep both sides' entries and take the raw
/// lines of the one side that changed them, or report a conflict (and keep
/// ours') when both did.
fn resolve_chunk<'a, 'd>(
    b: Seq<'_, 'a, 'd>,
    o: Seq<'_, 'a, 'd>,
    t: Seq<'_, 'a, 'd>,
    outcomes: &[Outcome],
) -> Resolved<'a, 'd> {
    let whole = |seq: Seq<'_, 'a, 'd>| Resolved {
        lines: seq.pieces().collect(),
        conflict: false,
    };
    if o.keys == b.keys {
        return whole(t);
    }
    if t.keys == b.keys || o.keys == t.keys {
        return whole(o);
    }
    // Blank lines outside fences are layout, not content (the canonical form
    // drops a section's trailing ones, so the same place can hold a different
    // number of them on each side): when the raw lines differ only there,
    // the side that changed the other raw lines wins, and ours' layout
    // otherwise.
    let sides = [b.lines, o.lines, t.lines];
    let (skeleton, conflict) = match changed_raw(sides, raw).or_else(|| changed_raw(sides, written))
    {
        Some(Side::Theirs) => (t, false),
        Some(_) => (o, false),
        None => (o, true),
    };
    let mut counts = Counts::new([b.keys, o.keys, t.keys], outcomes);
    let mut lines = Vec::new();
    for piece in skeleton.pieces() {
        if let Piece::Line(_, k) = piece {
            if counts.take(k) {
                lines.push(piece);
            }
        }
    }
    for piece in b.pieces().chain(o.pieces()).chain(t.pieces()) {
        if let Piece::Line(line, k) = piece {
            if matches!(line, Line::Entry(_)) && counts.take(k) {
                lines.push(piece);
            }
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

/// How many copies of each entry are still to be placed: of an entry not
/// matched to the base's, by date and text, the merged count of the three
/// sides; of a base entry, one when its outcome keeps it or conflicts.
struct Counts<'a> {
    /// Each unmatched entry's date and text once, in order.
    keys: Vec<(&'a str, &'a str)>,
    remaining: Vec<usize>,
    /// Per base index, whether the base entry is still to be placed.
    base: Vec<bool>,
}

impl<'a> Counts<'a> {
    fn new(sides: [&[LineKey<'a>]; 3], outcomes: &[Outcome]) -> Self {
        let mut all: Vec<((&str, &str), usize)> = sides
            .into_iter()
            .enumerate()
            .flat_map(|(side, keys)| {
                keys.iter().filter_map(move |k| match *k {
                    LineKey::Entry(d, t) => Some(((d, t), side)),
                    LineKey::Raw(_) | LineKey::Base(_) => None,
                })
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
        let base = outcomes.iter().map(|o| *o != Outcome::Drop).collect();
        Self {
            keys,
            remaining,
            base,
        }
    }

    /// Whether a line of key `key` is kept: raw lines always, entries while
    /// their count lasts.
    fn take(&mut self, key: LineKey<'_>) -> bool {
        match key {
            LineKey::Raw(_) => true,
            LineKey::Base(i) => self.base.get_mut(i).is_some_and(std::mem::take),
            LineKey::Entry(d, t) => match self.keys.binary_search(&(d, t)) {
                Ok(at) if self.remaining[at] > 0 => {
                    self.remaining[at] -= 1;
                    true
                }
                _ => false,
            },
        }
    }
}

/// Keep exactly the merged count of every entry of the section: extra copies
/// (an entry moved on both sides to different places) go; missing ones are
/// appended in base, ours, theirs order, but a base entry that is kept is
/// placed after the last line before it in the base that is placed.
/// Markers stay where they are.
fn enforce_entry_counts<'a, 'd>(
    pieces: Vec<Piece<'a, 'd>>,
    sides: [Seq<'_, 'a, 'd>; 3],
    outcomes: &[Outcome],
) -> Vec<Piece<'a, 'd>> {
    let mut counts = Counts::new(sides.map(|s| s.keys), outcomes);
    let mut out: Vec<Piece<'a, 'd>> = pieces
        .into_iter()
        .filter(|piece| match piece {
            Piece::Line(_, k) => counts.take(*k),
            _ => true,
        })
        .collect();
    for (side, seq) in sides.into_iter().enumerate() {
        for (i, piece) in seq.pieces().enumerate() {
            let Piece::Line(line, k) = piece else {
                continue;
            };
            if !matches!(line, Line::Entry(_)) || !counts.take(k) {
                continue;
            }
            if side > 0 {
                out.push(piece);
                continue;
            }
            let after = seq.keys[..i].iter().rev().find_map(|prev| {
                out.iter()
                    .position(|p| matches!(p, Piece::Line(_, x) if x == prev))
            });
            out.insert(after.map_or(0, |at| at + 1), piece);
        }
    }
    out
}
