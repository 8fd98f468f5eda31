//! `recall`'s result as numbers and one string, for the JavaScript builder
//! beside this file (`recall.js`, imported by [`wasm`](self::wasm)) that
//! makes the [`Recall`] out of object literals. An exception to the default
//! format (`crate::wire::packed`): a memory has an item per line, each with
//! the same field names and a `why`, which the default format would tag
//! field by field.
//!
//! Every string of the result is written once into [`Recalled::strings`]
//! and named by its UTF-16 start and end there. The layout, all `f64`
//! (every count, index and offset exact):
//!
//! - head: `content` (a string), `chars`, `estimatedTokens`, the totals
//!   (`items`, `selected`, `omitted`, `relevant`, `memoryChars`, `budget`);
//! - tables: the number of section titles, each title (a string); the
//!   number of terms, each term; the number of omission reasons, each
//!   reason's name;
//! - `selected`: the number of items, each item;
//! - `omitted`: the number of items listed (the first `listed` of them),
//!   each item followed by its reason (an index into the reasons);
//! - item: its section (an index into the titles), text (a string), date (a
//!   string, or [`NO_DATE`] and 0), its range (the start's line, column
//!   and offset, then the end's), score, the number of terms, each term
//!   (an index into the terms), then the `why`: relevance; lexical raw and
//!   normalised; 1 and semantic raw and normalised, or [`NONE`] and two
//!   zeros; recency's age (or [`NONE`]) and normalised; priority (an index
//!   into [`PRIORITIES`]) and normalised; pinned (1 or 0); the line it is
//!   superseded by (or [`NONE`]).

use memdoc::Priority;
use memdoc::Range;
use memdoc::{OmitReason, Recall, Why};

use super::packed::{number, Strings};

#[cfg(target_arch = "wasm32")]
pub(crate) mod wasm;

/// A date's start where the item has no date.
pub const NO_DATE: f64 = -1.0;

/// A `why` value that is none (`null`): no semantic part, no age.
pub const NONE: f64 = -1.0;

/// The priority classes, in the order of their indices.
const PRIORITIES: [Priority; 4] = [
    Priority::Transient,
    Priority::Other,
    Priority::Facts,
    Priority::Core,
];

/// How many of a [`Table`]'s last strings a string is looked for among.
/// A query of up to 16 words has each of them written once.
const RECENT: usize = 16;

/// The reasons, in the order of their indices.
const REASONS: [OmitReason; 4] = [
    OmitReason::Budget,
    OmitReason::NoMatch,
    OmitReason::TooLarge,
    OmitReason::Superseded,
];

/// The numbers of a [`Recall`] and the strings they name.
#[derive(Debug, Clone, PartialEq)]
pub struct Recalled {
    /// Every string of the result, one after another.
    pub strings: String,
    /// The layout above.
    pub numbers: Vec<f64>,
}

impl Recalled {
    /// The numbers and strings of `recall`, its omitted items past the
    /// first `listed` left out (`totals.omitted` still counts them).
    #[must_use]
    pub fn of(recall: &Recall, listed: usize) -> Self {
        let selected = recall.selected.iter().map(|i| Item {
            section: &i.section,
            text: &i.text,
            date: i.date.as_deref(),
            range: i.range,
            score: i.score,
            why: &i.why,
        });
        let omitted = recall.omitted.iter().take(listed).map(|i| Item {
            section: &i.section,
            text: &i.text,
            date: i.date.as_deref(),
            range: i.range,
            score: i.score,
            why: &i.why,
        });
        let items: Vec<Item<'_>> = selected.chain(omitted).collect();
        let (titles, section_of) = Table::of(items.iter().map(|i| i.section));
        let terms = items
            .iter()
            .flat_map(|i| i.why.terms.iter().map(String::as_str));
        let (terms, term_of) = Table::of(terms);

        let mut out = Writer {
            strings: Strings::default(),
            numbers: Vec::with_capacity(32 + items.len() * 12),
        };
        out.string(&recall.content);
        let totals = &recall.totals;
        for n in [
            recall.chars,
            recall.estimated_tokens,
            totals.items,
            totals.selected,
            totals.omitted,
            totals.relevant,
            totals.memory_chars,
            totals.budget,
        ] {
            out.count(n);
        }
        out.table(&titles.0);
        out.table(&terms.0);
        out.table(&REASONS.map(OmitReason::as_str));

        let (mut section_of, mut term_of) = (section_of.into_iter(), term_of.into_iter());
        let (selected, omitted) = items.split_at(recall.selected.len());
        out.count(selected.len());
        for item in selected {
            out.item(item, section_of.next(), &mut term_of);
        }
        out.count(omitted.len());
        for (item, reason) in omitted.iter().zip(&recall.omitted) {
            out.item(item, section_of.next(), &mut term_of);
            let reason = REASONS.iter().position(|&r| r == reason.reason);
            out.count(reason.unwrap_or_default());
        }
        Self {
            strings: out.strings.text,
            numbers: out.numbers,
        }
    }
}

/// What the numbers say of a selected or an omitted item, its reason apart.
struct Item<'a> {
    section: &'a str,
    text: &'a str,
    date: Option<&'a str>,
    range: Range,
    score: f64,
    why: &'a Why,
}

/// Strings that repeat (section titles, terms), each written once into a
/// table and named by its index there. A string is looked for among the
/// last [`RECENT`] of the table only, so that the cost stays linear
/// whatever the input; one that recurs further apart is written again.
struct Table<'a>(Vec<&'a str>);

impl<'a> Table<'a> {
    /// The table of `strings` and the index of each of them in it.
    fn of(strings: impl Iterator<Item = &'a str>) -> (Self, Vec<usize>) {
        let mut table = Vec::new();
        let indices = strings
            .map(|s| {
                let recent = table.len().saturating_sub(RECENT);
                if let Some(k) = table[recent..].iter().rposition(|&t| t == s) {
                    recent + k
                } else {
                    table.push(s);
                    table.len() - 1
                }
            })
            .collect();
        (Self(table), indices)
    }
}

struct Writer {
    strings: Strings,
    numbers: Vec<f64>,
}

impl Writer {
    fn count(&mut self, n: usize) {
        self.numbers.push(number(n));
    }

    fn string(&mut self, s: &str) {
        let range = self.strings.push(s);
        self.numbers.extend(range);
    }

    /// An item, its section's index in the titles and its terms' in the
    /// terms taken from `terms`.
    fn item(
        &mut self,
        item: &Item<'_>,
        section: Option<usize>,
        terms: &mut impl Iterator<Item = usize>,
    ) {
        self.count(section.unwrap_or_default());
        self.string(item.text);
        match item.date {
            Some(date) => self.string(date),
            None => self.numbers.extend([NO_DATE, 0.0]),
        }
        for position in [item.range.start, item.range.end] {
            self.count(position.line);
            self.count(position.column);
            self.count(position.offset);
        }
        self.numbers.push(item.score);
        self.count(item.why.terms.len());
        for term in terms.take(item.why.terms.len()) {
            self.count(term);
        }
        let why = item.why;
        let (has, semantic) = why
            .semantic
            .map_or((NONE, [0.0, 0.0]), |s| (1.0, [s.raw, s.normalized]));
        let priority = PRIORITIES.iter().position(|&p| p == why.priority.raw);
        self.numbers.extend([
            why.relevance,
            why.lexical.raw,
            why.lexical.normalized,
            has,
            semantic[0],
            semantic[1],
            why.recency.raw.unwrap_or(NONE),
            why.recency.normalized,
            number(priority.unwrap_or_default()),
            why.priority.normalized,
            if why.pinned { 1.0 } else { 0.0 },
            why.superseded_by.map_or(NONE, number),
        ]);
    }

    fn table(&mut self, strings: &[&str]) {
        self.count(strings.len());
        for s in strings {
            self.string(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::packed::tests::floats;
    use memdoc::{recall, RecallOptions};

    /// The [`Recall`] the numbers describe, read back as the JavaScript
    /// builder reads them (its numbers as indices: exact, as written).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    fn read(r: &Recalled) -> serde_json::Value {
        let units: Vec<u16> = r.strings.encode_utf16().collect();
        let mut at = 0;
        let mut next = || {
            at += 1;
            r.numbers[at - 1]
        };
        let string = |start: f64, end: f64| {
            let (start, end) = (start as usize, end as usize);
            String::from_utf16(&units[start..end]).unwrap()
        };
        let read_string = |next: &mut dyn FnMut() -> f64| {
            let start = next();
            let end = next();
            string(start, end)
        };
        let content = read_string(&mut next);
        let head: Vec<f64> = (0..8).map(|_| next()).collect();
        let table = |next: &mut dyn FnMut() -> f64| {
            let count = next();
            (0..count as usize)
                .map(|_| read_string(next))
                .collect::<Vec<_>>()
        };
        let titles = table(&mut next);
        let terms = table(&mut next);
        let reasons = table(&mut next);
        let items = |next: &mut dyn FnMut() -> f64, omitted: bool| {
            let count = next();
            (0..count as usize)
                .map(|_| {
                    let section = titles[next() as usize].clone();
                    let text = read_string(next);
                    let (start, end) = (next(), next());
                    let date = (start != NO_DATE).then(|| string(start, end));
                    let mut position = || serde_json::json!({"line": next(), "column": next(), "offset": next()});
                    let range = serde_json::json!({"start": position(), "end": position()});
                    let score = next();
                    let count = next();
                    let words: Vec<_> = (0..count as usize)
                        .map(|_| terms[next() as usize].clone())
                        .collect();
                    let w: Vec<f64> = (0..12).map(|_| next()).collect();
                    let measure = |raw: f64, normalized: f64| serde_json::json!({"raw": raw, "normalized": normalized});
                    let semantic = if w[3] == NONE { serde_json::Value::Null } else { measure(w[4], w[5]) };
                    let age = if w[6] == NONE { serde_json::Value::Null } else { w[6].into() };
                    let priority = ["transient", "other", "facts", "core"][w[8] as usize];
                    let mut item = serde_json::json!({
                        "section": section, "text": text, "date": date, "range": range, "score": score,
                        "why": {"terms": words, "relevance": w[0], "lexical": measure(w[1], w[2]), "semantic": semantic,
                            "recency": {"raw": age, "normalized": w[7]}, "priority": {"raw": priority, "normalized": w[9]},
                            "pinned": w[10] > 0.5,
                            "supersededBy": if w[11] == NONE { serde_json::Value::Null } else { w[11].into() }},
                    });
                    if omitted {
                        item["reason"] = reasons[next() as usize].clone().into();
                    }
                    item
                })
                .collect::<Vec<_>>()
        };
        let selected = items(&mut next, false);
        let omitted = items(&mut next, true);
        assert_eq!(at, r.numbers.len(), "every number read");
        serde_json::json!({
            "content": content, "chars": head[0], "estimatedTokens": head[1],
            "selected": selected, "omitted": omitted,
            "totals": {"items": head[2], "selected": head[3], "omitted": head[4], "relevant": head[5], "memoryChars": head[6], "budget": head[7]},
        })
    }

    fn same(text: &str, query: &str, options: &RecallOptions) {
        let result = recall(text, query, options);
        let expected = floats(serde_json::to_value(&result).unwrap());
        assert_eq!(
            read(&Recalled::of(&result, usize::MAX)),
            expected,
            "{text:?} / {query:?}"
        );
    }

    /// `n` dated items in `sections` sections that recur.
    fn dated(n: usize, sections: usize) -> String {
        let mut many = String::new();
        for k in 0..n {
            let line = format!(
                "## S{}\n- 2025-01-{:02}: word{} shared\n",
                k % sections,
                k % 28 + 1,
                k % 5
            );
            many.push_str(&line);
        }
        many
    }

    #[test]
    fn the_numbers_are_the_whole_result() {
        let text = "intro\n## Work 😀\n- 2025-01-01: ships memdoc\n- 2025-02-01: café rust\n```\ncode 記憶\n```\n## Work 😀\n- 2025-03-01: again\n## Other\nplain line\n## Work 😀\n- 2025-01-05: third work";
        let small = RecallOptions {
            budget: 60,
            ..RecallOptions::default()
        };
        for query in [
            "",
            "memdoc",
            "rust memdoc café",
            "nothing",
            "記憶 code",
            "the",
        ] {
            same(text, query, &RecallOptions::default());
            same(text, query, &small);
            same("", query, &RecallOptions::default());
        }
        let many = dated(40, 11);
        same(&many, "shared word3 word4", &small);
        same(&many, "shared", &RecallOptions::default());
    }

    #[test]
    fn omitted_items_past_those_listed_are_left_out() {
        let many = dated(40, 7);
        let options = RecallOptions {
            budget: 60,
            ..RecallOptions::default()
        };
        let result = recall(&many, "shared word3", &options);
        assert!(result.omitted.len() > 3);
        for listed in [0, 3] {
            let mut expected = floats(serde_json::to_value(&result).unwrap());
            expected["omitted"].as_array_mut().unwrap().truncate(listed);
            assert_eq!(read(&Recalled::of(&result, listed)), expected);
        }
    }
}
