//! Steps 2 and 3 of compaction: duplicate entries go first (the newest of
//! them stays), then the oldest entries, lowest-priority sections first.
//! Every removed entry is reported with the section it came from.

use std::borrow::Cow;

use crate::date::day_number;
use crate::document::{Document, Entry, Line, Section};
use crate::fast::{folds_to_itself, to_lowercase};
use crate::fast::{word, HIGH, ONES};
use crate::grouping::first_equal;

use super::measure::{EntryIndex, Measure};
use super::priority::priority_of_normalized;
use super::{CompactOptions, Priority, RemovalReason, RemovedEntry};
use crate::heading::section_keys;

/// An entry's date for age comparisons: not later than `today`, if given.
fn effective_date<'a>(entry: &'a Entry<'_>, today: Option<&'a str>) -> &'a str {
    match today {
        Some(today) if &*entry.date > today => today,
        _ => &entry.date,
    }
}

/// The order of [`effective_date`] as a number: the date's day number
/// (every entry's date is a real date), and for an entry after `today` the
/// key of `today`, which is after every real date when `today` is not one
/// (every date is then before it, as strings).
fn date_key(entry: &Entry<'_>, today: Option<&str>) -> u64 {
    let day = |date: &str| day_number(date).and_then(|d| u64::try_from(d - FIRST_DAY).ok());
    match today {
        Some(today) if &*entry.date > today => day(today).unwrap_or(u64::from(u32::MAX)),
        _ => day(&entry.date).unwrap_or_default(),
    }
}

/// The day number of 0001-01-01, the first real date.
const FIRST_DAY: i64 = -719_162;

/// Whether `text` is its own duplicate key: no capital or control
/// character, nothing that lower-casing would change (known without a
/// table: [`folds_to_itself`]), its words one space apart with none at
/// either end. Eight bytes at a time while they are ASCII ([`ascii_fits`]),
/// else a character at a time.
fn is_own_key(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    // A space at the start is a space after a space.
    let mut after_space = true;
    while let Some(&b) = bytes.get(at) {
        if let Some(eight) = bytes.get(at..at + 8).map(word) {
            if eight & HIGH == 0 {
                let Some(ends_in_space) = ascii_fits(eight, after_space) else {
                    return false;
                };
                after_space = ends_in_space;
                at += 8;
                continue;
            }
        }
        let fits = if b == b' ' {
            !after_space
        } else if b.is_ascii() {
            b.is_ascii_graphic() && !b.is_ascii_uppercase()
        } else {
            let c = text[at..].chars().next().unwrap_or(' ');
            at += c.len_utf8() - 1;
            folds_to_itself(c)
        };
        if !fits {
            return false;
        }
        after_space = b == b' ';
        at += 1;
    }
    !after_space || text.is_empty()
}

/// For eight ASCII bytes (`eight`, little-endian, no high bit set) that
/// follow a space when `after_space`: whether they fit an own key (no
/// control character, capital or DEL; no space after a space), and if so
/// whether the last is a space. `ge(n)` sets the high bit of each byte of
/// `n` or more: `b + 0x80 - n` borrows from no neighbour, as `b < 0x80`.
fn ascii_fits(eight: u64, after_space: bool) -> Option<bool> {
    let ge = |n: u64| ((eight | HIGH) - n * ONES) & HIGH;
    let space = ge(0x20) & !ge(0x21);
    let spaces_before = (space << 8) | (u64::from(after_space) << 7);
    let bad = (!ge(0x20) & HIGH) | ge(0x7f) | (ge(0x41) & !ge(0x5b)) | (space & spaces_before);
    (bad == 0).then_some(space >> 63 == 1)
}

/// Entries that differ only by white space or case are duplicates. Most
/// texts are their own key (no capitals, single spaces: [`is_own_key`]):
/// those are borrowed.
fn dedupe_key(text: &str) -> Cow<'_, str> {
    if is_own_key(text) {
        Cow::Borrowed(text)
    } else {
        let mut words = String::with_capacity(text.len());
        for word in text.split_whitespace() {
            if !words.is_empty() {
                words.push(' ');
            }
            words.push_str(word);
        }
        Cow::Owned(to_lowercase(&words))
    }
}

fn entry_at<'d, 'a>(doc: &'d Document<'a>, (s, l): EntryIndex) -> Option<&'d Entry<'a>> {
    doc.sections.get(s)?.lines.get(l)?.as_entry()
}

pub(super) fn without<'a>(doc: &Document<'a>, removed: &[EntryIndex]) -> Document<'a> {
    // Per section, whether each line is removed.
    let mut gone: Vec<Vec<bool>> = doc
        .sections
        .iter()
        .map(|s| vec![false; s.lines.len()])
        .collect();
    for &(s, l) in removed {
        if let Some(line) = gone.get_mut(s).and_then(|lines| lines.get_mut(l)) {
            *line = true;
        }
    }
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
                    .filter(|(l, _)| !gone[s][*l])
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
    /// The input, whose sections a removal is reported in: the one an
    /// entry came from, even after merging.
    input: &'a Document<'a>,
    removed: &'a mut Vec<RemovedEntry>,
}

impl<'a> Removal<'a> {
    pub(super) fn new(
        input: &'a Document<'a>,
        options: &'a CompactOptions,
        removed: &'a mut Vec<RemovedEntry>,
    ) -> Self {
        Self {
            options,
            input,
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
            // The section's entries with their lines, and per entry the
            // first entry with its key, whose slot holds the group's keeper.
            let entries: Vec<(usize, &Entry<'_>)> = section
                .lines
                .iter()
                .enumerate()
                .filter_map(|(l, line)| Some((l, line.as_entry()?)))
                .collect();
            let keys: Vec<Cow<'_, str>> =
                entries.iter().map(|(_, e)| dedupe_key(&e.text)).collect();
            let first = first_equal(keys.len(), &|e| keys[e].as_bytes());
            let mut keepers: Vec<usize> = (0..entries.len()).collect();
            for (e, &group) in first.iter().enumerate() {
                let keeper = &mut keepers[group];
                if effective_date(entries[e].1, today) > effective_date(entries[*keeper].1, today) {
                    *keeper = e;
                }
            }
            for (e, &group) in first.iter().enumerate() {
                let keeper = keepers[group];
                if keeper != e {
                    ops.push(((s, entries[e].0), (s, entries[keeper].0)));
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
        // Keys of the priority class above the date's (a day number has at
        // most 32 bits); entries in document order, which equal keys keep.
        let mut keys: Vec<u64> = Vec::new();
        let mut entries: Vec<EntryIndex> = Vec::new();
        for (s, section) in doc.sections.iter().enumerate() {
            let priority = (priorities[s] as u64) << 32;
            for (l, line) in section.lines.iter().enumerate() {
                if let Line::Entry(entry) = line {
                    keys.push(priority | date_key(entry, today));
                    entries.push((s, l));
                }
            }
        }
        let positions: Vec<EntryIndex> = crate::fast::sort_indices_by_key(&keys)
            .into_iter()
            .map(|i| entries[i])
            .collect();
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
        section_keys(doc)
            .iter()
            .map(|normalized| priority_of_normalized(normalized, self.options.scope))
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
        // The input's sections are in the order of their offsets, and an
        // entry lies after its section's start and before the next one's.
        let origin = self
            .input
            .sections
            .partition_point(|s| s.span.start <= entry.span.start)
            .checked_sub(1)
            .and_then(|i| self.input.sections.get(i))
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

// With proptest, native only.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use proptest::prelude::*;

    use super::{dedupe_key, is_own_key, without};
    use crate::compact::measure::Measure;
    use crate::compact::size;
    use crate::fast::to_lowercase;
    use crate::parse::parse;

    /// The key of `text` made the long way.
    fn key(text: &str) -> String {
        to_lowercase(&text.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    #[test]
    fn measure_counts_what_render_renders() {
        let doc = parse(
            "## A
- 2025-01-01: é

raw


## B

- 2025-01-02: x

- 2025-01-03: y


## C",
        );
        let removals = [(1, 3), (0, 0), (1, 1), (0, 2)];
        // Every removal shrinks the rendered size, so the shortest prefix that
        // fits the size of the first k removals is those k, and one code
        // point less takes one more removal.
        for k in 0..=removals.len() {
            let fits = size(&without(&doc, &removals[..k]));
            let measure = || Measure::new(&doc);
            assert_eq!(measure().fitting_prefix(&removals, fits), (k, fits));
            let more = (k + 1).min(removals.len());
            let (taken, left) = measure().fitting_prefix(&removals, fits - 1);
            assert_eq!(taken, more);
            assert_eq!(left, size(&without(&doc, &removals[..more])));
        }
    }

    proptest! {
        #[test]
        fn a_text_is_its_own_key_only_when_it_is(text in "[ aZ!~\t\u{7f}\u{85}\u{a0}éÉ×ß記😀\u{3000}\u{2028}ΣΑ]{0,24}") {
            if is_own_key(&text) {
                prop_assert_eq!(key(&text), text.clone());
            }
            // An ASCII text is found to be its own key whenever it is.
            if text.is_ascii() {
                let own = key(&text) == text && !text.chars().any(char::is_control);
                prop_assert_eq!(is_own_key(&text), own);
            }
        }

        #[test]
        fn an_ascii_text_is_its_own_key_exactly_when_it_is(
            text in prop_oneof!["[ \x00-\x7f]{0,40}", "[ a-z.]{0,40}", "[ a-z.]{0,20}[\x00-\x7f][ a-z.]{0,20}"],
            padding in 0usize..8,
        ) {
            // Every alignment of the eight-byte words.
            let text = format!("{}{text}", "a".repeat(padding));
            let own = key(&text) == text && !text.chars().any(char::is_control);
            prop_assert_eq!(is_own_key(&text), own, "{:?}", text);
        }

        #[test]
        fn a_key_is_the_texts_words_one_space_apart_lower_cased(text in "[ aZ!\t\n\u{b}\u{c}\r\u{85}\u{a0}\u{3000}É]{0,12}") {
            prop_assert_eq!(&*dedupe_key(&text), &*key(&text));
        }
    }

    #[test]
    fn accents_japanese_and_emoji_in_lower_case_are_their_own_key() {
        for text in ["café 記憶 😀 ß×", "a", ""] {
            assert!(is_own_key(text), "{text}");
        }
        for text in [
            "Café",
            "caf\u{e9} ",
            "ÉTÉ",
            "ΣΑ",
            "a\u{a0}b",
            "a\u{3000}b",
            "a\u{85}",
        ] {
            assert!(!is_own_key(text), "{text}");
        }
    }
}
