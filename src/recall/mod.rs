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
mod lexicon;
mod math;
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

use crate::compact::{section_priority, Priority};
use crate::document::{Document, Line};
use crate::error::Error;
use crate::fast::char_count;
use crate::fast::to_nfkc_lowercase;
use crate::grouping::TextSet;
use crate::heading::{normalize_each, normalize_heading};
use crate::parse::{parse, Fence};
use crate::span::{LineIndex, Range, Span};

use lexicon::Lexicon;
use select::{descending, render, select, Selection};

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
    /// As rendered: `- date: text` or the raw line(s).
    line: String,
    /// Where it is in the text.
    span: Span,
}

/// What recall needs of a section, for one recall's options.
#[derive(Debug)]
struct Section<'m> {
    /// As written.
    title: &'m str,
    /// As rendered (`## title`).
    heading: &'m str,
    priority: Priority,
    pinned: bool,
}

/// A memory made ready for recall ([`PreparedMemory::new`]): everything
/// that does not depend on the query or the options, done once (parsed,
/// its items listed with their ranges, their texts and the section titles
/// folded, their words split into parts, each part's stop-word mark and,
/// once asked for, its stem), for as many recalls as asked
/// ([`PreparedMemory::recall`]), each equal to [`recall`] or
/// [`hybrid_recall`] of the memory's text.
///
/// ```
/// use memdoc::{recall, PreparedMemory, RecallOptions};
/// let memory = "## Facts\n- 2025-03-01: Services use PostgreSQL 16\n- 2025-03-02: Office in Oslo";
/// let prepared = PreparedMemory::new(memory);
/// let options = RecallOptions::default();
/// for query in ["which database?", "where is the office?"] {
///     assert_eq!(prepared.recall(query, &options, None).unwrap(), recall(memory, query, &options));
/// }
/// ```
#[derive(Debug)]
pub struct PreparedMemory {
    /// Each section's title as written.
    titles: Vec<String>,
    /// Each section's heading as rendered (`## title`).
    headings: Vec<String>,
    items: Vec<Item>,
    /// Each item's range in the text.
    ranges: Vec<Range>,
    /// The items' and the titles' words.
    lexicon: Lexicon,
    /// The newest entry date: what recency counts to without `today`.
    newest: Option<String>,
    /// Code points of the memory's canonical form.
    memory_chars: usize,
}

impl PreparedMemory {
    /// `text` parsed, its items listed and their words looked at.
    #[must_use]
    pub fn new(text: &str) -> Self {
        let doc = parse(text);
        let lines = LineIndex::new(text);
        let items = items(&doc);
        let titles: Vec<String> = doc.sections.iter().map(|s| s.title.to_string()).collect();
        let texts: Vec<&str> = items.iter().map(|item| &*item.text).collect();
        let lexicon = Lexicon::new(&texts, &doc.titles());
        Self {
            headings: doc
                .sections
                .iter()
                .map(crate::document::Section::heading)
                .collect(),
            titles,
            ranges: items.iter().map(|item| lines.range(item.span)).collect(),
            items,
            lexicon,
            newest: doc.entries().map(|e| e.date.to_string()).max(),
            memory_chars: char_count(&doc.render()),
        }
    }

    /// The text of every item, in the order [`PreparedMemory::recall`]
    /// takes their vectors: what an embedder embeds.
    pub fn items(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.items.iter().map(|item| &*item.text)
    }

    /// The recall of `query`: by words, and by meaning too given an
    /// embedder's vectors for the query and for each item of
    /// [`PreparedMemory::items`], in that order.
    ///
    /// # Errors
    /// The errors of [`RecallOptions::check`]; [`Error::InvalidVectors`]
    /// when the vectors do not fit the items ([`RecallVectors::check`]).
    pub fn recall(
        &self,
        query: &str,
        options: &RecallOptions,
        vectors: Option<&RecallVectors<'_>>,
    ) -> Result<Recall, Error> {
        options.check()?;
        self.answer(query, options, vectors)
    }

    /// [`PreparedMemory::recall`] with options already checked.
    fn answer(
        &self,
        query: &str,
        options: &RecallOptions,
        vectors: Option<&RecallVectors<'_>>,
    ) -> Result<Recall, Error> {
        if let Some(v) = vectors {
            v.check(self.items.len())?;
        }
        Ok(self.run(query, options, vectors))
    }

    /// What recall needs of each section, for `options`.
    fn sections(&self, options: &RecallOptions) -> Vec<Section<'_>> {
        let pinned: Vec<String> = options
            .pinned
            .iter()
            .map(|p| normalize_heading(p))
            .collect();
        let pinned = TextSet::new(pinned.iter().map(String::as_str).collect());
        let keys = if options.pinned.is_empty() {
            Vec::new()
        } else {
            let titles: Vec<&str> = self.titles.iter().map(String::as_str).collect();
            normalize_each(&titles)
        };
        self.titles
            .iter()
            .zip(&self.headings)
            .enumerate()
            .map(|(s, (title, heading))| Section {
                title,
                heading,
                priority: section_priority(title, options.scope),
                pinned: keys.get(s).is_some_and(|key| pinned.contains(key)),
            })
            .collect()
    }

    fn run(
        &self,
        query: &str,
        options: &RecallOptions,
        vectors: Option<&RecallVectors<'_>>,
    ) -> Recall {
        let Self {
            items,
            ranges,
            lexicon,
            newest,
            memory_chars,
            ..
        } = self;
        let sections = self.sections(options);
        let folded_query = to_nfkc_lowercase(query);
        let words: Vec<&str> = tokenize::words_of_folded(&folded_query).collect();
        let has_query = !words.is_empty();
        let query_terms = terms::Query::new(&words);
        let reference = options.today.as_deref().or(newest.as_deref());
        let mut scored = score(
            &sections,
            items,
            lexicon,
            &query_terms,
            options,
            reference,
            vectors,
        );
        let answered = semantic::answered(scored.iter().map(|(_, why)| why), vectors);
        let relevant: Vec<bool> = scored
            .iter()
            .map(|(_, why)| !has_query || (answered && why.relevance >= RELEVANCE_FLOOR))
            .collect();
        let superseded = superseded(items, lexicon, &relevant);
        for (i, by) in superseded.iter().enumerate() {
            scored[i].1.superseded_by = by.map(|j| ranges[j].start.line);
        }

        let reasons = select(
            &sections,
            items,
            &scored,
            &Selection {
                relevant: &relevant,
                superseded: &superseded,
            },
            options.budget,
        );
        let content = render(&sections, items, &reasons);
        let chars = char_count(&content);
        let mut selected = Vec::new();
        let mut omitted = Vec::new();
        let results = items.iter().zip(scored).zip(reasons).zip(ranges);
        for (((item, (score, why)), reason), &range) in results {
            let section = sections[item.section].title.to_owned();
            let text = item.text.clone();
            let date = item.date.clone();
            match reason {
                None => selected.push(RecalledItem {
                    section,
                    text,
                    date,
                    range,
                    score,
                    why,
                }),
                Some(reason) => omitted.push(OmittedItem {
                    section,
                    text,
                    date,
                    range,
                    score,
                    why,
                    reason,
                }),
            }
        }
        Recall {
            estimated_tokens: chars.div_ceil(4),
            totals: RecallTotals {
                items: selected.len() + omitted.len(),
                selected: selected.len(),
                omitted: omitted.len(),
                relevant: relevant.iter().filter(|&&r| r).count(),
                memory_chars: *memory_chars,
                budget: options.budget,
            },
            content,
            chars,
            selected,
            omitted,
        }
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

/// Per item, the newest later entry of its section that states the same
/// thing, for the relevant entries (module [`supersede`]). Content terms
/// are found only in the sections that hold a relevant entry.
fn superseded(items: &[Item], lexicon: &Lexicon, relevant: &[bool]) -> Vec<Option<usize>> {
    let sections = items.last().map_or(0, |i| i.section + 1);
    let mut wanted = vec![false; sections];
    for (item, &r) in items.iter().zip(relevant) {
        wanted[item.section] |= r && item.date.is_some();
    }
    let terms = lexicon.content_terms(&|i| wanted[items[i].section] && items[i].date.is_some());
    let dated: Vec<supersede::Dated> = items
        .iter()
        .zip(&terms)
        .map(|(item, words)| supersede::Dated {
            section: item.section,
            date: item.date.as_deref(),
            words,
        })
        .collect();
    supersede::superseded(&dated, relevant, lexicon.len())
}

/// Every item's score and its explanation.
fn score(
    sections: &[Section<'_>],
    items: &[Item],
    lexicon: &Lexicon,
    query: &terms::Query,
    options: &RecallOptions,
    reference: Option<&str>,
    vectors: Option<&RecallVectors<'_>>,
) -> Vec<(f64, Why)> {
    let by_part = lexicon.matches(query);
    let index = bm25::Index::new(
        items.iter().enumerate().map(|(i, item)| {
            let s = item.section;
            (
                lexicon.item_words(i) + lexicon.title_words(s),
                lexicon.item(i).iter().chain(lexicon.title(s)),
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
    for (s, section) in doc.sections.iter().enumerate() {
        // The fence a code block item is in, while it is open.
        let mut fence: Option<Fence> = None;
        for line in &section.lines {
            match line {
                Line::Entry(entry) => out.push(Item {
                    section: s,
                    text: entry.text.to_string(),
                    date: Some(entry.date.to_string()),
                    line: line.render().into_owned(),
                    span: entry.span,
                }),
                Line::Raw(raw) if raw.fenced => {
                    if let (Some(open), Some(last)) = (fence, out.last_mut()) {
                        last.line.push('\n');
                        last.line.push_str(&raw.text);
                        if !raw.text.trim().is_empty() {
                            last.span.end = raw.span.end;
                        }
                        if open.is_closed_by(&raw.text) {
                            fence = None;
                        }
                    } else {
                        fence = Fence::open(&raw.text);
                        out.push(Item {
                            section: s,
                            text: String::new(),
                            date: None,
                            line: raw.text.to_string(),
                            span: raw.span,
                        });
                    }
                }
                Line::Raw(raw) if !raw.text.is_empty() => out.push(Item {
                    section: s,
                    text: raw.text.to_string(),
                    date: None,
                    line: raw.text.to_string(),
                    span: raw.span,
                }),
                Line::Raw(_) => {}
            }
        }
    }
    for item in &mut out {
        if item.date.is_none() && item.text.is_empty() {
            // A code block: without its trailing blank lines, as rendered.
            let len = item.line.trim_end_matches(['\n', ' ', '\t']).len();
            item.line.truncate(len);
            item.text.clone_from(&item.line);
        }
    }
    out
}
