//! Deterministic compaction (docs/ops.md): shrink a memory document that is
//! over budget without an LLM, by steps that lose the least first, stopping
//! as soon as the canonical form fits the target.
//!
//! 1. Merge sections whose titles normalize the same into the first of them.
//! 2. Remove duplicate entries of a section (same text up to white space and
//!    case), keeping the newest.
//! 3. Remove the oldest entries, lowest-priority sections first.
//!
//! Raw lines and headings are never removed. Everything a step does is
//! reported (merged sections, each removed entry with its section and its
//! location in the input), so that a caller can archive it: nothing is lost
//! silently. Each step is a fixed list of operations whose effect on the size
//! only ever shrinks it, so the smallest prefix that fits is found by binary
//! search: the work stays near-linear even on very large documents.

mod options;

use std::collections::{HashMap, HashSet};

use crate::document::{Document, Entry, Line, RawLine, Section};
use crate::heading::normalize_heading;
use crate::options::Scope;
use crate::parse::parse;
use crate::span::Span;

pub use options::CompactOptions;

/// How long a section's entries are kept when compaction has to remove some.
/// Lower classes lose their entries first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// Current priorities and open questions: they go stale first.
    Transient,
    /// A section no keyword classifies.
    Other,
    /// Facts.
    Facts,
    /// Team: decisions and conventions. User: instructions and preferences.
    Core,
}

impl Priority {
    /// `"transient"`, `"other"`, `"facts"` or `"core"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Transient => "transient",
            Self::Other => "other",
            Self::Facts => "facts",
            Self::Core => "core",
        }
    }
}

/// The priority class of a section title in a scope: a keyword matches when
/// a word of the normalized title starts with it (`priorit` matches
/// `priorities`; `fact` does not match `artifacts`). When several match, the
/// class kept longest wins.
///
/// | class | team | user |
/// |---|---|---|
/// | core | `decision`, `convention` | `instruction`, `preference` |
/// | facts | `fact` | `fact` |
/// | other | anything else | anything else |
/// | transient | `priorit`, `question` | `priorit`, `question` |
///
/// ```
/// use memdoc::{section_priority, Priority, Scope};
/// assert_eq!(section_priority("Product Decisions", Scope::Team), Priority::Core);
/// assert_eq!(section_priority("Current Priorities", Scope::Team), Priority::Transient);
/// assert_eq!(section_priority("Preferences", Scope::Team), Priority::Other);
/// assert_eq!(section_priority("Preferences", Scope::User), Priority::Core);
/// ```
#[must_use]
pub fn section_priority(title: &str, scope: Scope) -> Priority {
    let core: &[&str] = match scope {
        Scope::Team => &["decision", "convention"],
        Scope::User => &["instruction", "preference"],
    };
    let normalized = normalize_heading(title);
    let has = |keywords: &[&str]| {
        normalized
            .split(' ')
            .any(|word| keywords.iter().any(|k| word.starts_with(k)))
    };
    if has(core) {
        Priority::Core
    } else if has(&["fact"]) {
        Priority::Facts
    } else if has(&["priorit", "question"]) {
        Priority::Transient
    } else {
        Priority::Other
    }
}

/// Why compaction removed an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RemovalReason {
    /// It repeated another entry of its section (up to white space and case).
    Duplicate,
    /// It was among the oldest of the lowest-priority sections.
    Oldest,
}

impl RemovalReason {
    /// `"duplicate"` or `"oldest"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Duplicate => "duplicate",
            Self::Oldest => "oldest",
        }
    }
}

/// An entry that compaction removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedEntry {
    /// The title of the section it was in, as written in the input.
    pub section: String,
    /// Its date.
    pub date: String,
    /// Its text.
    pub text: String,
    /// Where it is in the input.
    pub span: Span,
    /// Why it was removed.
    pub reason: RemovalReason,
    /// The priority class of its section (after merging, the kept section's).
    pub priority: Priority,
    /// For a duplicate, the entry that was kept in its place.
    pub duplicate_of: Option<Entry>,
}

/// A section that compaction merged into an earlier one with the same
/// normalized title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergedSection {
    /// The title of the section that was merged away.
    pub from: String,
    /// Its heading in the input.
    pub from_span: Span,
    /// The title of the section that received its lines.
    pub into: String,
    /// That section's heading in the input (its first entry when implicit).
    pub into_span: Span,
}

/// The result of [`compact`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compaction {
    /// The compacted document, canonical.
    pub content: String,
    /// Whether `content` is at most `target` code points.
    pub fits: bool,
    /// The target used.
    pub target: usize,
    /// Code points of the input's canonical form.
    pub before: usize,
    /// Code points of `content`.
    pub after: usize,
    /// Sections merged (step 1), in document order.
    pub merged: Vec<MergedSection>,
    /// Entries removed (steps 2 and 3), in the order they were removed.
    pub removed: Vec<RemovedEntry>,
    /// Preamble lines of the input, which the canonical form never keeps.
    pub dropped: Vec<RawLine>,
}

/// Compact `text` to at most `options.target` code points of canonical form.
///
/// When the canonical form already fits, it is returned unchanged and nothing
/// is removed (so compaction is idempotent). Otherwise the steps of this
/// module run in order, each only as far as needed. Removal order in step 3:
/// priority class (lowest first), then date (oldest first; with `today`, a
/// date after it counts as `today`, so a mistyped future date cannot make an
/// entry outlive everything), then document order. When even removing every
/// entry is not enough, `fits` is `false` and `content` is what remains.
///
/// ```
/// use memdoc::{compact, CompactOptions, Scope};
/// let text = "## Open Questions\n- 2025-01-01: Which CI?\n\n## Decisions\n- 2025-01-02: Use Rust";
/// let options = CompactOptions { scope: Scope::Team, target: 60, today: None };
/// let result = compact(text, &options);
/// assert!(result.fits);
/// assert_eq!(result.content, "## Open Questions\n\n## Decisions\n- 2025-01-02: Use Rust");
/// assert_eq!(result.removed[0].text, "Which CI?");
/// ```
#[must_use]
pub fn compact(text: &str, options: &CompactOptions) -> Compaction {
    let input = parse(text);
    let before = size(&input);
    let mut result = Compaction {
        content: String::new(),
        fits: false,
        target: options.target,
        before,
        after: before,
        merged: Vec::new(),
        removed: Vec::new(),
        dropped: input.preamble.clone(),
    };
    let mut doc = input.clone();
    if before > options.target {
        doc = merge_step(&doc, options.target, &mut result.merged);
    }
    if size(&doc) > options.target {
        let titles = origin_titles(&input);
        doc = dedupe_step(&doc, options, &titles, &mut result.removed);
        if size(&doc) > options.target {
            doc = oldest_step(&doc, options, &titles, &mut result.removed);
        }
    }
    result.content = doc.render();
    result.after = result.content.chars().count();
    result.fits = result.after <= options.target;
    result
}

fn size(doc: &Document) -> usize {
    doc.render().chars().count()
}

/// The smallest `k` in `0..=n` whose `size_of(k)` fits `target`, or `n`
/// when none does. `size_of` must not grow as `k` grows.
fn first_fitting(n: usize, target: usize, size_of: impl Fn(usize) -> usize) -> usize {
    if size_of(n) > target {
        return n;
    }
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if size_of(mid) <= target {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    hi
}

/// The code points each part of a document renders to, so that the size of
/// the document without some entries is counted without rendering it.
struct Measure {
    /// Per section: its heading (`## ` and title), and per line its length
    /// and whether it is blank.
    sections: Vec<(usize, Vec<(usize, bool)>)>,
}

impl Measure {
    fn new(doc: &Document) -> Self {
        let line = |l: &Line| match l {
            Line::Entry(e) => (e.date.chars().count() + e.text.chars().count() + 4, false),
            Line::Raw(r) => (r.text.chars().count(), r.text.is_empty()),
        };
        Self {
            sections: doc
                .sections
                .iter()
                .map(|s| {
                    (
                        s.title.chars().count() + 3,
                        s.lines.iter().map(line).collect(),
                    )
                })
                .collect(),
        }
    }

    /// The canonical size without the lines at `removed` (as `render` counts
    /// it: trailing blank lines of a section dropped, one blank line between
    /// sections).
    fn size_without(&self, removed: &[Position]) -> usize {
        let removed: HashSet<Position> = removed.iter().copied().collect();
        let mut total = (2 * self.sections.len()).saturating_sub(2);
        for (s, (heading, lines)) in self.sections.iter().enumerate() {
            total += heading;
            let mut pending = 0;
            for (l, &(len, blank)) in lines.iter().enumerate() {
                if removed.contains(&(s, l)) {
                    continue;
                }
                pending += len + 1;
                if !blank {
                    total += pending;
                    pending = 0;
                }
            }
        }
        total
    }
}

fn section_key(title: &str) -> String {
    let key = normalize_heading(title);
    if key.is_empty() {
        title.to_owned()
    } else {
        key
    }
}

/// Step 1: each later section with a title already seen, merged into the
/// first one (its trailing blank lines dropped so the lines join up), except
/// a section holding an unclosed code fence.
fn merge_step(doc: &Document, target: usize, merged: &mut Vec<MergedSection>) -> Document {
    let mut first: HashMap<String, usize> = HashMap::new();
    let mut ops = Vec::new();
    for (i, section) in doc.sections.iter().enumerate() {
        // A section that ends inside a code fence never closed is the last
        // one; moved up, its fence would turn every later heading into code.
        if opens_unclosed_fence(doc, section) {
            continue;
        }
        match first.get(&section_key(&section.title)) {
            Some(&into) => ops.push((i, into)),
            None => {
                first.insert(section_key(&section.title), i);
            }
        }
    }
    let k = first_fitting(ops.len(), target, |k| size(&merge_sections(doc, &ops[..k])));
    let out = merge_sections(doc, &ops[..k]);
    merged.extend(ops[..k].iter().map(|&(from, into)| MergedSection {
        from: doc.sections[from].title.clone(),
        from_span: doc.sections[from].span,
        into: doc.sections[into].title.clone(),
        into_span: doc.sections[into].span,
    }));
    out
}

fn opens_unclosed_fence(doc: &Document, section: &Section) -> bool {
    doc.unclosed_fence
        .is_some_and(|fence| section.lines.iter().any(|l| l.span() == fence))
}

fn merge_sections(doc: &Document, ops: &[(usize, usize)]) -> Document {
    let into: HashMap<usize, usize> = ops.iter().copied().collect();
    let mut sections: Vec<Section> = doc.sections.clone();
    for (i, section) in doc.sections.iter().enumerate() {
        if let Some(&target) = into.get(&i) {
            let lines = &mut sections[target].lines;
            trim_trailing_blanks(lines);
            lines.extend(section.lines.iter().cloned());
        }
    }
    Document {
        sections: sections
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !into.contains_key(i))
            .map(|(_, s)| s)
            .collect(),
        preamble: Vec::new(),
        unclosed_fence: None,
    }
}

fn trim_trailing_blanks(lines: &mut Vec<Line>) {
    while lines.last().is_some_and(Line::is_blank) {
        lines.pop();
    }
}

/// An entry's date for age comparisons: not later than `today`, if given.
fn effective_date<'a>(entry: &'a Entry, today: Option<&'a str>) -> &'a str {
    match today {
        Some(today) if entry.date.as_str() > today => today,
        _ => &entry.date,
    }
}

/// Entries that differ only by white space or case are duplicates.
fn dedupe_key(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The position of an entry: section index and line index.
type Position = (usize, usize);

fn entry_at(doc: &Document, (s, l): Position) -> Option<&Entry> {
    doc.sections.get(s)?.lines.get(l)?.as_entry()
}

fn without(doc: &Document, removed: &[Position]) -> Document {
    let removed: HashSet<Position> = removed.iter().copied().collect();
    Document {
        sections: doc
            .sections
            .iter()
            .enumerate()
            .map(|(s, section)| Section {
                lines: section
                    .lines
                    .iter()
                    .enumerate()
                    .filter(|(l, _)| !removed.contains(&(s, *l)))
                    .map(|(_, line)| line.clone())
                    .collect(),
                ..section.clone()
            })
            .collect(),
        preamble: Vec::new(),
        unclosed_fence: None,
    }
}

/// Step 2: within each section, every entry with the same [`dedupe_key`] as
/// a newer one (or as an earlier one of the same date) is removed, in
/// document order.
fn dedupe_step(
    doc: &Document,
    options: &CompactOptions,
    titles: &HashMap<usize, String>,
    removed: &mut Vec<RemovedEntry>,
) -> Document {
    let today = options.today.as_deref();
    let mut ops: Vec<(Position, Position)> = Vec::new();
    for (s, section) in doc.sections.iter().enumerate() {
        let mut kept: HashMap<String, usize> = HashMap::new();
        for (l, line) in section.lines.iter().enumerate() {
            let Line::Entry(entry) = line else { continue };
            let slot = kept.entry(dedupe_key(&entry.text)).or_insert(l);
            let keeper = section.lines[*slot].as_entry();
            if keeper.is_some_and(|k| effective_date(entry, today) > effective_date(k, today)) {
                *slot = l;
            }
        }
        for (l, line) in section.lines.iter().enumerate() {
            let Line::Entry(entry) = line else { continue };
            if let Some(&keeper) = kept.get(&dedupe_key(&entry.text)) {
                if keeper != l {
                    ops.push(((s, l), (s, keeper)));
                }
            }
        }
    }
    let positions: Vec<Position> = ops.iter().map(|&(p, _)| p).collect();
    let measure = Measure::new(doc);
    let k = first_fitting(ops.len(), options.target, |k| {
        measure.size_without(&positions[..k])
    });
    let out = without(doc, &positions[..k]);
    for &(at, keeper) in &ops[..k] {
        if let Some(entry) = report(doc, at, options.scope, titles, RemovalReason::Duplicate) {
            removed.push(RemovedEntry {
                duplicate_of: entry_at(doc, keeper).cloned(),
                ..entry
            });
        }
    }
    out
}

/// Step 3: entries by priority class, then effective date, then position.
fn oldest_step(
    doc: &Document,
    options: &CompactOptions,
    titles: &HashMap<usize, String>,
    removed: &mut Vec<RemovedEntry>,
) -> Document {
    let today = options.today.as_deref();
    let mut order: Vec<(Priority, &str, Position)> = Vec::new();
    for (s, section) in doc.sections.iter().enumerate() {
        let priority = section_priority(&section.title, options.scope);
        for (l, line) in section.lines.iter().enumerate() {
            if let Line::Entry(entry) = line {
                order.push((priority, effective_date(entry, today), (s, l)));
            }
        }
    }
    order.sort_unstable();
    let positions: Vec<Position> = order.iter().map(|&(_, _, p)| p).collect();
    let measure = Measure::new(doc);
    let k = first_fitting(positions.len(), options.target, |k| {
        measure.size_without(&positions[..k])
    });
    let out = without(doc, &positions[..k]);
    removed.extend(
        positions[..k]
            .iter()
            .filter_map(|&at| report(doc, at, options.scope, titles, RemovalReason::Oldest)),
    );
    out
}

/// The input's section title of every entry, by the entry's start offset
/// (unique per line), so that a removal names the section it came from even
/// after merging.
fn origin_titles(input: &Document) -> HashMap<usize, String> {
    input
        .sections
        .iter()
        .flat_map(|s| {
            s.lines
                .iter()
                .filter_map(Line::as_entry)
                .map(|e| (e.span.start, s.title.clone()))
        })
        .collect()
}

fn report(
    doc: &Document,
    at: Position,
    scope: Scope,
    titles: &HashMap<usize, String>,
    reason: RemovalReason,
) -> Option<RemovedEntry> {
    let section = doc.sections.get(at.0)?;
    let entry = entry_at(doc, at)?;
    Some(RemovedEntry {
        section: titles
            .get(&entry.span.start)
            .cloned()
            .unwrap_or_else(|| section.title.clone()),
        date: entry.date.clone(),
        text: entry.text.clone(),
        span: entry.span,
        reason,
        priority: section_priority(&section.title, scope),
        duplicate_of: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measure_counts_what_render_renders() {
        let doc = parse(
            "## A
- 2025-01-01: é

raw


## B

- 2025-01-02: x

## C",
        );
        let measure = Measure::new(&doc);
        for removed in [
            vec![],
            vec![(0, 0)],
            vec![(0, 2)],
            vec![(1, 1)],
            vec![(0, 2), (1, 1)],
        ] {
            assert_eq!(
                measure.size_without(&removed),
                size(&without(&doc, &removed)),
                "{removed:?}"
            );
        }
    }
}
