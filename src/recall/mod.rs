//! Recall (docs/FORMAT.md, "Recall and expiry"): the part of a memory document most relevant to
//! a query that fits a budget, as a valid memory document, with the reason
//! every item was taken or left out. Deterministic: no model, no network,
//! no clock; the same inputs give byte-identical output on every platform.
//!
//! The items are a document's entries and other non-blank lines (a code
//! fence with its lines is one item), each with its section. Each gets a
//! score ([`Why`]): a relevance to the query from 0 to 1 that fuses BM25
//! (over the item and its section title) with, given vectors from an
//! embedder, their cosine; recency; and section priority. Items under the
//! relevance floor are left out; the others are taken greedily (pinned
//! sections first, then by score, ties in document order) while the
//! rendered result fits the budget; an item is never cut.

mod bm25;
mod item_vectors;
mod lexicon;
mod math;
mod memory;
mod options;
mod result;
mod score;
mod select;
mod semantic;
mod stop_words;
mod supersede;
mod terms;
mod tokenize;
mod word_break;

use crate::compact::Priority;
use crate::document::{Document, Line};
use crate::error::Error;
use crate::parse::{parse, Fence};
use crate::render::{write_entry, write_heading};
use crate::span::Span;

pub use item_vectors::ItemVectors;
use lexicon::{Distinct, Lexicon};
pub use memory::PreparedMemory;
use select::descending;

pub use bm25::{BM25_B, BM25_K1};
pub use options::{
    RecallOptions, RecallWeights, DEFAULT_HALF_LIFE_DAYS, DEFAULT_PRIORITY_WEIGHT,
    DEFAULT_RECALL_BUDGET, DEFAULT_RECENCY_WEIGHT, DEFAULT_RELEVANCE_WEIGHT,
};
pub use result::{OmitReason, OmittedItem, Recall, RecallTotals, RecalledItem};
pub use score::{Measure, PriorityMeasure, RecencyMeasure, Why, UNDATED_RECENCY};
pub use semantic::{
    calibration, Calibration, RecallVectors, CALIBRATIONS, DEFAULT_CALIBRATION,
    LEXICAL_CALIBRATION, RELEVANCE_FLOOR,
};
pub use terms::PREFIX_LEAST;

/// One item of the memory.
#[derive(Debug)]
struct Item {
    section: usize,
    /// The entry's text or the raw line(s).
    text: String,
    date: Option<String>,
    /// Where it is in the text.
    span: Span,
}

impl Item {
    /// The item as rendered, `- date: text` or the raw line(s), onto the
    /// end of `out`.
    // One copy for its two callers.
    #[inline(never)]
    fn write(&self, out: &mut String) {
        match &self.date {
            Some(date) => write_entry(date, &self.text, out),
            None => out.push_str(&self.text),
        }
    }
}

/// What recall needs of a section, for one recall's options.
#[derive(Debug)]
struct Section<'m> {
    /// As written.
    title: &'m str,
    priority: Priority,
    pinned: bool,
}

impl Section<'_> {
    /// The heading as rendered, `## title`, onto the end of `out`.
    fn write_heading(&self, out: &mut String) {
        write_heading(self.title, out);
    }
}

/// A recall made ready ([`prepare_recall`]): its options checked, the
/// memory prepared ([`PreparedMemory`]), for an embedder to embed
/// ([`PreparedRecall::items`]) before [`PreparedRecall::finish`] ranks them.
#[derive(Debug)]
pub struct PreparedRecall {
    memory: PreparedMemory,
    query: String,
    options: RecallOptions,
}

/// Prepare the recall of `query` from `text`: check the options, parse the
/// memory and list its items, whose vectors [`PreparedRecall::finish`]
/// takes in the order of [`PreparedRecall::items`].
///
/// # Errors
/// The errors of [`RecallOptions::check`].
///
/// ```
/// use memdoc::{prepare_recall, RecallOptions, RecallVectors};
/// let memory = "## Facts\n- 2025-03-01: Services use PostgreSQL 16\n- 2025-03-02: Office in Oslo";
/// let prepared = prepare_recall(memory, "which relational database do we run?", &RecallOptions::default()).unwrap();
/// assert_eq!(prepared.items().collect::<Vec<_>>(), ["Services use PostgreSQL 16", "Office in Oslo"]);
/// // An embedder's vectors (here made up): the query is near the first item.
/// let vectors = RecallVectors { embedder: "example", query: &[1.0, 0.1], items: &[0.9, 0.2, 0.0, 1.0] };
/// let result = prepared.finish(Some(&vectors)).unwrap();
/// assert_eq!(result.content, "## Facts\n- 2025-03-01: Services use PostgreSQL 16");
/// ```
pub fn prepare_recall(
    text: &str,
    query: &str,
    options: &RecallOptions,
) -> Result<PreparedRecall, Error> {
    options.check()?;
    Ok(PreparedRecall::new(text, query, options))
}

impl PreparedRecall {
    fn new(text: &str, query: &str, options: &RecallOptions) -> Self {
        Self {
            memory: PreparedMemory::new(text),
            query: query.to_owned(),
            options: options.clone(),
        }
    }

    /// The text of every item, in the order [`PreparedRecall::finish`]
    /// takes their vectors: what an embedder embeds (the `text` of a
    /// selected or an omitted item).
    pub fn items(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.memory.items()
    }

    /// The recall: by words, and by meaning too given an embedder's vectors
    /// for the query and for each item of [`PreparedRecall::items`], in
    /// that order.
    ///
    /// # Errors
    /// [`Error::InvalidVectors`] when the vectors do not fit the items
    /// ([`RecallVectors::check`]).
    pub fn finish(self, vectors: Option<&RecallVectors<'_>>) -> Result<Recall, Error> {
        self.memory.answer(&self.query, &self.options, vectors)
    }
}

/// Recall the part of `text` that best answers `query` within
/// `options.budget` code points, by its words.
///
/// ```
/// use memdoc::{recall, RecallOptions, Scope};
/// let memory = "## Decisions\n- 2025-03-01: Use Postgres for billing\n- 2025-03-02: Deploy on Fridays\n\n## Facts\n- 2025-03-03: Office in Oslo";
/// let options = RecallOptions { scope: Scope::Team, budget: 60, ..RecallOptions::default() };
/// let result = recall(memory, "which database for billing?", &options);
/// assert_eq!(result.content, "## Decisions\n- 2025-03-01: Use Postgres for billing");
/// assert_eq!(result.selected[0].why.terms, ["billing"]);
/// // Where the item is in `memory` (line, column and offset in UTF-16).
/// let range = result.selected[0].range;
/// assert_eq!((range.start.line, range.start.offset, range.end.offset), (2, 13, 51));
/// assert_eq!(result.omitted[0].reason.as_str(), "no-match");
/// ```
#[must_use]
pub fn recall(text: &str, query: &str, options: &RecallOptions) -> Recall {
    PreparedMemory::new(text).run(query, options, None)
}

/// [`recall`] by words and meaning: with the vectors an embedder gave for
/// the query and for each item of [`recall_items`], in that order
/// ([`prepare_recall`] in one call).
///
/// # Errors
/// [`Error::InvalidVectors`] when the vectors do not fit the memory's
/// items ([`RecallVectors::check`]).
///
/// ```
/// use memdoc::{hybrid_recall, recall_items, RecallOptions, RecallVectors};
/// let memory = "## Facts\n- 2025-03-01: Services use PostgreSQL 16\n- 2025-03-02: Office in Oslo";
/// assert_eq!(recall_items(memory), ["Services use PostgreSQL 16", "Office in Oslo"]);
/// // An embedder's vectors (here made up): the query is near the first item.
/// let vectors = RecallVectors { embedder: "example", query: &[1.0, 0.1], items: &[0.9, 0.2, 0.0, 1.0] };
/// let result = hybrid_recall(memory, "which relational database do we run?", &RecallOptions::default(), &vectors).unwrap();
/// assert_eq!(result.content, "## Facts\n- 2025-03-01: Services use PostgreSQL 16");
/// assert!(result.selected[0].why.semantic.unwrap().normalized > 0.5);
/// ```
pub fn hybrid_recall(
    text: &str,
    query: &str,
    options: &RecallOptions,
    vectors: &RecallVectors<'_>,
) -> Result<Recall, Error> {
    PreparedRecall::new(text, query, options).finish(Some(vectors))
}

/// The text of every item of `text`, in the order [`hybrid_recall`] takes
/// their vectors: what an embedder embeds (the `text` of a selected or an
/// omitted item).
#[must_use]
pub fn recall_items(text: &str) -> Vec<String> {
    items(&parse(text))
        .into_iter()
        .map(|item| item.text)
        .collect()
}

/// Per item `asked` marks, the newest later entry of its section that
/// states the same thing ([`supersede::replacing`]; chains are followed by
/// [`supersede::gated`]). Content terms are found only in the sections
/// that hold an asked entry, among `every` part of the memory when it has
/// them, or else among the parts of those sections' entries.
fn replacing(
    items: &[Item],
    lexicon: &Lexicon,
    every: Option<&Distinct>,
    asked: &[bool],
) -> Vec<Option<usize>> {
    let sections = items.last().map_or(0, |i| i.section + 1);
    let mut wanted = vec![false; sections];
    for (item, &a) in items.iter().zip(asked) {
        wanted[item.section] |= a && item.date.is_some();
    }
    let wanted = |i: usize| wanted[items[i].section] && items[i].date.is_some();
    let found;
    let distinct = if let Some(every) = every {
        every
    } else {
        found = lexicon.of_items(&wanted);
        &found
    };
    let terms = distinct.content_terms(lexicon, &wanted);
    let dated: Vec<supersede::Dated> = items
        .iter()
        .zip(&terms)
        .map(|(item, words)| supersede::Dated {
            section: item.section,
            date: item.date.as_deref(),
            words,
        })
        .collect();
    supersede::replacing(&dated, asked, distinct.len())
}

/// Every item's score and its explanation.
fn score(
    sections: &[Section<'_>],
    items: &[Item],
    (lexicon, distinct): (&Lexicon, &Distinct),
    query: &terms::Query,
    options: &RecallOptions,
    reference: Option<&str>,
    vectors: Option<&RecallVectors<'_>>,
) -> Vec<(f64, Why)> {
    let by_part = distinct.matches(lexicon, query);
    let index = bm25::Index::new(
        items.iter().enumerate().map(|(i, item)| {
            let s = item.section;
            (
                lexicon.item_words(i) + lexicon.title_words(s),
                distinct
                    .item(lexicon, i)
                    .iter()
                    .chain(distinct.title(lexicon, s)),
            )
        }),
        &by_part,
        query,
    );
    let matches = index.search();
    let ideal = index.ideal();
    // Each item's cosine and its calibrated relevance.
    let semantic: Option<Vec<(f64, f64)>> = vectors.map(|v| {
        let query = semantic::QueryVector::new(v.query);
        let d = v.query.len();
        let cosines: Vec<f64> = (0..items.len())
            .map(|i| query.cosine(&v.items[i * d..(i + 1) * d]))
            .collect();
        let c = calibration(v.embedder);
        let centre = semantic::centre(v.embedder, &cosines);
        cosines
            .into_iter()
            .map(|cosine| (cosine, c.relevance(cosine - centre)))
            .collect()
    });
    let mut terms = matches.terms.into_iter();
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let bm25 = matches.scores[i];
            let share = if ideal > 0.0 { bm25 / ideal } else { 0.0 };
            let semantic = semantic.as_ref().map(|s| s[i]);
            let section = &sections[item.section];
            let why = Why::new(score::Parts {
                terms: terms.next().unwrap_or_default(),
                lexical: (bm25, LEXICAL_CALIBRATION.relevance(share)),
                semantic,
                date: item.date.as_deref(),
                reference,
                half_life_days: options.half_life_days,
                priority: section.priority,
                pinned: section.pinned,
            });
            (why.score(&options.weights), why)
        })
        .collect()
}

/// The items of a document, in order: each entry, each other non-blank
/// line, and each code fence whole (its blank lines included, its trailing
/// blank lines not), so that a kept item never opens a fence it does not
/// close.
fn items(doc: &Document<'_>) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    // The code blocks, by index.
    let mut blocks = Vec::new();
    for (s, section) in doc.sections.iter().enumerate() {
        // The fence a code block item is in, while it is open.
        let mut fence: Option<Fence> = None;
        for line in &section.lines {
            match line {
                Line::Entry(entry) => out.push(Item {
                    section: s,
                    text: entry.text.to_string(),
                    date: Some(entry.date.to_string()),
                    span: entry.span,
                }),
                Line::Raw(raw) if raw.fenced => {
                    if let (Some(open), Some(last)) = (fence, out.last_mut()) {
                        last.text.push('\n');
                        last.text.push_str(&raw.text);
                        if !raw.text.trim().is_empty() {
                            last.span.end = raw.span.end;
                        }
                        if open.is_closed_by(&raw.text) {
                            fence = None;
                        }
                    } else {
                        fence = Fence::open(&raw.text);
                        blocks.push(out.len());
                        out.push(Item {
                            section: s,
                            text: raw.text.to_string(),
                            date: None,
                            span: raw.span,
                        });
                    }
                }
                Line::Raw(raw) if !raw.text.is_empty() => out.push(Item {
                    section: s,
                    text: raw.text.to_string(),
                    date: None,
                    span: raw.span,
                }),
                Line::Raw(_) => {}
            }
        }
    }
    for b in blocks {
        // A code block: without its trailing blank lines, as rendered.
        let text = &mut out[b].text;
        text.truncate(text.trim_end_matches(['\n', ' ', '\t']).len());
    }
    out
}
