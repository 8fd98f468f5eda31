//! Steps 2 and 3 of compaction: duplicate entries go first (the newest of
//! them stays), then the oldest entries, lowest-priority sections first.
//! Every removed entry is reported with the section it came from.

use std::collections::{HashMap, HashSet};

use crate::document::{Document, Entry, Line, Section};
use crate::heading::lowercase;

use super::measure::{first_fitting, Measure};
use super::{section_priority, CompactOptions, Priority, RemovalReason, RemovedEntry};

/// An entry's date for age comparisons: not later than `today`, if given.
fn effective_date<'a>(entry: &'a Entry, today: Option<&'a str>) -> &'a str {
    match today {
        Some(today) if entry.date.as_str() > today => today,
        _ => &entry.date,
    }
}

/// Entries that differ only by white space or case are duplicates.
fn dedupe_key(text: &str) -> String {
    lowercase(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The position of an entry: section index and line index.
pub(super) type EntryIndex = (usize, usize);

fn entry_at(doc: &Document, (s, l): EntryIndex) -> Option<&Entry> {
    doc.sections.get(s)?.lines.get(l)?.as_entry()
}

pub(super) fn without(doc: &Document, removed: &[EntryIndex]) -> Document {
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

/// `doc` without the shortest prefix of `positions` that brings it to
/// `target` (all of them when none does), and the length of that prefix.
fn remove_fitting(doc: &Document, positions: &[EntryIndex], target: usize) -> (Document, usize) {
    let measure = Measure::new(doc);
    let k = first_fitting(positions.len(), target, |k| {
        measure.size_without(&positions[..k])
    });
    (without(doc, &positions[..k]), k)
}

/// Steps 2 and 3 over one input: the options, the section each entry of
/// the input came from, and the list removed entries are reported to.
pub(super) struct Removal<'a> {
    options: &'a CompactOptions,
    /// The input's section title of every entry, by the entry's start
    /// offset (unique per line), so that a removal names the section it came
    /// from even after merging.
    titles: HashMap<usize, String>,
    removed: &'a mut Vec<RemovedEntry>,
}

impl<'a> Removal<'a> {
    pub(super) fn new(
        input: &Document,
        options: &'a CompactOptions,
        removed: &'a mut Vec<RemovedEntry>,
    ) -> Self {
        let titles = input
            .sections
            .iter()
            .flat_map(|s| {
                s.lines
                    .iter()
                    .filter_map(Line::as_entry)
                    .map(|e| (e.span.start, s.title.clone()))
            })
            .collect();
        Self {
            options,
            titles,
            removed,
        }
    }

    /// Step 2: within each section, every entry with the same
    /// [`dedupe_key`] as a newer one (or as an earlier one of the same date)
    /// is removed, in document order.
    pub(super) fn duplicates(&mut self, doc: &Document) -> Document {
        let today = self.options.today.as_deref();
        let mut ops: Vec<(EntryIndex, EntryIndex)> = Vec::new();
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
        let positions: Vec<EntryIndex> = ops.iter().map(|&(p, _)| p).collect();
        let (out, k) = remove_fitting(doc, &positions, self.options.target);
        for &(at, keeper) in &ops[..k] {
            if let Some(entry) = self.entry(doc, at, RemovalReason::Duplicate) {
                self.removed.push(RemovedEntry {
                    duplicate_of: entry_at(doc, keeper).cloned(),
                    ..entry
                });
            }
        }
        out
    }

    /// Step 3: entries by priority class, then effective date, then
    /// position.
    pub(super) fn oldest(&mut self, doc: &Document) -> Document {
        let today = self.options.today.as_deref();
        let mut order: Vec<(Priority, &str, EntryIndex)> = Vec::new();
        for (s, section) in doc.sections.iter().enumerate() {
            let priority = section_priority(&section.title, self.options.scope);
            for (l, line) in section.lines.iter().enumerate() {
                if let Line::Entry(entry) = line {
                    order.push((priority, effective_date(entry, today), (s, l)));
                }
            }
        }
        crate::sorting::sort_by(&mut order, &Ord::cmp);
        let positions: Vec<EntryIndex> = order.iter().map(|&(_, _, p)| p).collect();
        let (out, k) = remove_fitting(doc, &positions, self.options.target);
        for &at in &positions[..k] {
            if let Some(entry) = self.entry(doc, at, RemovalReason::Oldest) {
                self.removed.push(entry);
            }
        }
        out
    }

    /// The report of the entry at `at`, removed for `reason`.
    fn entry(&self, doc: &Document, at: EntryIndex, reason: RemovalReason) -> Option<RemovedEntry> {
        let section = doc.sections.get(at.0)?;
        let entry = entry_at(doc, at)?;
        Some(RemovedEntry {
            section: self
                .titles
                .get(&entry.span.start)
                .cloned()
                .unwrap_or_else(|| section.title.clone()),
            date: entry.date.clone(),
            text: entry.text.clone(),
            span: entry.span,
            reason,
            priority: section_priority(&section.title, self.options.scope),
            duplicate_of: None,
        })
    }
}
