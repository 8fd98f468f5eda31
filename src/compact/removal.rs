//! Steps 2 and 3 of compaction: duplicate entries go first (the newest of
//! them stays), then the oldest entries, lowest-priority sections first.
//! Every removed entry is reported with the section it came from.

use std::collections::{HashMap, HashSet};

use crate::document::{Document, Entry, Line, Section};
use crate::heading::lowercase;

use super::measure::Measure;
use super::{section_priority, CompactOptions, Priority, RemovalReason, RemovedEntry};

/// An entry's date for age comparisons: not later than `today`, if given.
fn effective_date<'a>(entry: &'a Entry<'_>, today: Option<&'a str>) -> &'a str {
    match today {
        Some(today) if &*entry.date > today => today,
        _ => &entry.date,
    }
}

/// Entries that differ only by white space or case are duplicates.
fn dedupe_key(text: &str) -> String {
    lowercase(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The position of an entry: section index and line index.
pub(super) type EntryIndex = (usize, usize);

fn entry_at<'d, 'a>(doc: &'d Document<'a>, (s, l): EntryIndex) -> Option<&'d Entry<'a>> {
    doc.sections.get(s)?.lines.get(l)?.as_entry()
}

pub(super) fn without<'a>(doc: &Document<'a>, removed: &[EntryIndex]) -> Document<'a> {
    let removed: HashSet<EntryIndex> = removed.iter().copied().collect();
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

/// The length of the shortest prefix of `positions` that brings `doc` to
/// `target` (all of them when none does), and `doc` without them with its
/// size (`None` when that is no entry).
fn remove_fitting<'a>(
    doc: &Document<'a>,
    positions: &[EntryIndex],
    target: usize,
) -> (usize, Option<(Document<'a>, usize)>) {
    let (k, size) = Measure::new(doc).fitting_prefix(positions, target);
    (k, (k > 0).then(|| (without(doc, &positions[..k]), size)))
}

/// Steps 2 and 3 over one input: the options, the section each entry of
/// the input came from, and the list removed entries are reported to.
pub(super) struct Removal<'a> {
    options: &'a CompactOptions,
    input: &'a Document<'a>,
    /// The input's section of every entry, by the entry's start offset
    /// (unique per line), so that a removal names the section it came from
    /// even after merging.
    sections: HashMap<usize, usize>,
    removed: &'a mut Vec<RemovedEntry>,
}

impl<'a> Removal<'a> {
    pub(super) fn new(
        input: &'a Document<'a>,
        options: &'a CompactOptions,
        removed: &'a mut Vec<RemovedEntry>,
    ) -> Self {
        let sections = input
            .sections
            .iter()
            .enumerate()
            .flat_map(|(i, s)| {
                s.lines
                    .iter()
                    .filter_map(Line::as_entry)
                    .map(move |e| (e.span.start, i))
            })
            .collect();
        Self {
            options,
            input,
            sections,
            removed,
        }
    }

    /// Step 2: within each section, every entry with the same
    /// [`dedupe_key`] as a newer one (or as an earlier one of the same date)
    /// is removed, in document order; the document without them and its size,
    /// or `None` when none needs to go.
    pub(super) fn duplicates<'d>(&mut self, doc: &Document<'d>) -> Option<(Document<'d>, usize)> {
        let today = self.options.today.as_deref();
        let mut ops: Vec<(EntryIndex, EntryIndex)> = Vec::new();
        for (s, section) in doc.sections.iter().enumerate() {
            if section
                .lines
                .iter()
                .filter(|l| l.as_entry().is_some())
                .nth(1)
                .is_none()
            {
                continue;
            }
            // Per entry its line and the index of its key; per key its keeper.
            let mut index: HashMap<String, usize> = HashMap::new();
            let mut keepers: Vec<usize> = Vec::new();
            let mut entries: Vec<(usize, usize)> = Vec::new();
            for (l, line) in section.lines.iter().enumerate() {
                let Line::Entry(entry) = line else { continue };
                let next = keepers.len();
                let key = *index.entry(dedupe_key(&entry.text)).or_insert(next);
                if key == next {
                    keepers.push(l);
                }
                entries.push((l, key));
                let keeper = section.lines[keepers[key]].as_entry();
                if keeper.is_some_and(|k| effective_date(entry, today) > effective_date(k, today)) {
                    keepers[key] = l;
                }
            }
            for (l, key) in entries {
                if keepers[key] != l {
                    ops.push(((s, l), (s, keepers[key])));
                }
            }
        }
        let positions: Vec<EntryIndex> = ops.iter().map(|&(p, _)| p).collect();
        let (k, out) = remove_fitting(doc, &positions, self.options.target);
        let priorities = self.priorities(doc);
        for &(at, keeper) in &ops[..k] {
            if let Some(entry) = self.entry(doc, &priorities, at, RemovalReason::Duplicate) {
                self.removed.push(RemovedEntry {
                    duplicate_of: entry_at(doc, keeper).cloned().map(Entry::into_owned),
                    ..entry
                });
            }
        }
        out
    }

    /// Step 3: entries by priority class, then effective date, then
    /// position; the document without them and its size, or `None` when none
    /// needs to go.
    pub(super) fn oldest<'d>(&mut self, doc: &Document<'d>) -> Option<(Document<'d>, usize)> {
        let today = self.options.today.as_deref();
        let priorities = self.priorities(doc);
        let mut order: Vec<(Priority, &str, EntryIndex)> = Vec::new();
        for (s, section) in doc.sections.iter().enumerate() {
            let priority = priorities[s];
            for (l, line) in section.lines.iter().enumerate() {
                if let Line::Entry(entry) = line {
                    order.push((priority, effective_date(entry, today), (s, l)));
                }
            }
        }
        crate::sorting::sort_by(&mut order, &Ord::cmp);
        let positions: Vec<EntryIndex> = order.iter().map(|&(_, _, p)| p).collect();
        let (k, out) = remove_fitting(doc, &positions, self.options.target);
        for &at in &positions[..k] {
            if let Some(entry) = self.entry(doc, &priorities, at, RemovalReason::Oldest) {
                self.removed.push(entry);
            }
        }
        out
    }

    /// The priority class of each section of `doc`.
    fn priorities(&self, doc: &Document) -> Vec<Priority> {
        doc.sections
            .iter()
            .map(|s| section_priority(&s.title, self.options.scope))
            .collect()
    }

    /// The report of the entry at `at`, removed for `reason`.
    fn entry(
        &self,
        doc: &Document,
        priorities: &[Priority],
        at: EntryIndex,
        reason: RemovalReason,
    ) -> Option<RemovedEntry> {
        let section = doc.sections.get(at.0)?;
        let entry = entry_at(doc, at)?;
        let origin = self
            .sections
            .get(&entry.span.start)
            .and_then(|&i| self.input.sections.get(i))
            .unwrap_or(section);
        Some(RemovedEntry {
            section: origin.title.to_string(),
            date: entry.date.to_string(),
            text: entry.text.to_string(),
            span: entry.span,
            reason,
            priority: priorities[at.0],
            duplicate_of: None,
        })
    }
}
