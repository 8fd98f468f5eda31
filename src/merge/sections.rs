//! One section across the three inputs: kept, removed, or merged line by
//! line, with its title; a removal that meets a change, or titles changed
//! differently, are conflicts.

use std::borrow::Cow;

use crate::document::Section;
use crate::span::Span;

use super::fence;
use super::lines::{chunk_side, keys, merge_lines};
use super::marked::{section_text, Mark, Marked};
use super::{Conflict, ConflictKind, ConflictSide, Side};

/// The merged section, or `None` when it is removed (or removed by ours in
/// a conflict, which is then recorded), and how the marked text shows it
/// when it conflicts.
pub(super) fn merge_section<'d>(
    [b, o, t]: [Option<&Section<'d>>; 3],
    conflicts: &mut Vec<Conflict>,
) -> (Option<Section<'d>>, Option<Mark<'d>>) {
    match (b, o, t) {
        (Some(b), Some(o), Some(t)) => {
            let (merged, mark) = merge_both_kept(Some(b), o, t, conflicts);
            (Some(merged), mark)
        }
        (None, Some(o), Some(t)) => {
            let (merged, mark) = merge_both_kept(None, o, t, conflicts);
            (Some(merged), mark)
        }
        (Some(b), Some(o), None) => match removed_by_one(b, o, Side::Theirs, conflicts) {
            Some(mark) => (Some(o.clone()), Some(mark)),
            None => (None, None),
        },
        (Some(b), None, Some(t)) => (None, removed_by_one(b, t, Side::Ours, conflicts)),
        (None, Some(only), None) | (None, None, Some(only)) => (Some(only.clone()), None),
        (Some(_) | None, None, None) => (None, None),
    }
}

/// One side removed the section `b`, the other holds `kept`. When the other
/// side changed it, a conflict is recorded and its mark returned.
fn removed_by_one<'d>(
    b: &Section<'_>,
    kept: &Section<'_>,
    remover: Side,
    conflicts: &mut Vec<Conflict>,
) -> Option<Mark<'d>> {
    if same_section(b, kept) {
        return None;
    }
    let kept_side = Some(whole_section(kept));
    let (ours, theirs) = match remover {
        Side::Theirs => (kept_side, None),
        Side::Base | Side::Ours => (None, kept_side),
    };
    let text = section_text(kept);
    let mark = match remover {
        Side::Theirs => Mark::Whole {
            ours: text,
            theirs: String::new(),
        },
        Side::Base | Side::Ours => Mark::Whole {
            ours: String::new(),
            theirs: text,
        },
    };
    conflicts.push(Conflict {
        kind: ConflictKind::SectionRemoved,
        section: kept.title.to_string(),
        base: Some(whole_section(b)),
        ours,
        theirs,
    });
    Some(mark)
}

fn same_section(a: &Section<'_>, b: &Section<'_>) -> bool {
    a.title == b.title && keys(a.content_lines()) == keys(b.content_lines())
}

fn whole_section(section: &Section<'_>) -> ConflictSide {
    let lines = section.content_lines();
    let mut rendered = vec![section.heading()];
    rendered.extend(lines.iter().map(|l| l.render().into_owned()));
    let end = lines.last().map_or(section.span.end, |l| l.span().end);
    ConflictSide {
        lines: rendered,
        span: Span::new(section.span.start.min(end), end.max(section.span.start)),
    }
}

/// Both sides hold the section; the base may not.
fn merge_both_kept<'d>(
    b: Option<&Section<'d>>,
    o: &Section<'d>,
    t: &Section<'d>,
    conflicts: &mut Vec<Conflict>,
) -> (Section<'d>, Option<Mark<'d>>) {
    let (title, theirs_heading) = merge_title(b, o, t, conflicts);
    let mut own = Vec::new();
    let (lines, marked) = merge_lines(
        [b, Some(o), Some(t)],
        b.map_or(&[][..], Section::content_lines),
        o.content_lines(),
        t.content_lines(),
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
        let mark = (theirs_heading.is_some() || marked.is_some()).then_some(Mark::Within {
            theirs_heading,
            lines: marked,
        });
        return (merged, mark);
    }
    // The combined lines would read differently (a fence of one side around
    // the other's lines, or one side's code outside its fence): the whole
    // section conflicts and the content keeps ours' lines.
    let whole = |s: &Section<'_>| {
        let lines = s.content_lines();
        chunk_side(s, lines, &(0..lines.len()))
    };
    conflicts.push(Conflict {
        kind: ConflictKind::Lines,
        section: o.title.to_string(),
        base: b.map(whole),
        ours: Some(whole(o)),
        theirs: Some(whole(t)),
    });
    let ours_lines = o.content_lines().to_vec();
    let mut marked = vec![Marked::Open];
    marked.extend(ours_lines.iter().cloned().map(Marked::Line));
    marked.push(Marked::Close(t.content_lines().to_vec()));
    let mark = Mark::Within {
        theirs_heading,
        lines: Some(marked),
    };
    let section = Section {
        lines: ours_lines,
        ..merged
    };
    (section, Some(mark))
}

fn merge_title<'d>(
    b: Option<&Section<'d>>,
    o: &Section<'d>,
    t: &Section<'d>,
    conflicts: &mut Vec<Conflict>,
) -> (Cow<'d, str>, Option<String>) {
    let base = b.map(|s| &*s.title);
    if Some(&*o.title) == base || o.title == t.title {
        return (t.title.clone(), None);
    }
    if Some(&*t.title) == base {
        return (o.title.clone(), None);
    }
    let heading = |s: &Section<'_>| ConflictSide {
        lines: vec![s.heading()],
        span: s.span,
    };
    conflicts.push(Conflict {
        kind: ConflictKind::Title,
        section: o.title.to_string(),
        base: b.map(heading),
        ours: Some(heading(o)),
        theirs: Some(heading(t)),
    });
    (o.title.clone(), Some(t.heading()))
}
