//! A memory made ready for recall: what does not depend on the query or
//! the options, done once, then the recall of each query (the steps of the
//! module [`super`]: score, supersede, select, render).

use std::cell::OnceCell;

use crate::compact::section_priority;
use crate::error::Error;
use crate::fast::{char_count, to_nfkc_lowercase};
use crate::grouping::TextSet;
use crate::heading::{normalize_each, normalize_heading};
use crate::parse::parse;
use crate::span::{LineIndex, Range};

use super::lexicon::{Distinct, Lexicon};
use super::select::{render, select, Selection};
use super::{
    items, replacing, score, semantic, supersede, terms, tokenize, Item, OmittedItem, Recall,
    RecallOptions, RecallTotals, RecallVectors, RecalledItem, Section, RELEVANCE_FLOOR,
};

/// A memory made ready for recall ([`PreparedMemory::new`]): everything
/// that does not depend on the query or the options, done once (parsed,
/// its items listed with their ranges, their texts and the section titles
/// folded, their words split into parts, and, from the first
/// [`PreparedMemory::recall`] on, their distinct parts, each part's stem
/// once asked for, and which later entry replaces each entry),
/// for as many recalls as asked
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
    items: Vec<Item>,
    /// Each item's range in the text.
    ranges: Vec<Range>,
    /// The items' and the titles' words.
    lexicon: Lexicon,
    /// The newest entry date: what recency counts to without `today`.
    newest: Option<String>,
    /// Code points of the memory's canonical form.
    memory_chars: usize,
    /// What the first [`PreparedMemory::recall`] finds for the next ones. A
    /// single recall ([`recall`](super::recall)) looks only at the parts
    /// that may match and at the sections that answer.
    every: OnceCell<Every>,
}

/// What a memory prepared for many recalls finds once, whatever the query.
#[derive(Debug)]
struct Every {
    /// The distinct parts of all the items' and titles' words.
    distinct: Distinct,
    /// Per item, the newest later entry of its section that states the
    /// same thing.
    replacing: Vec<Option<usize>>,
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
            titles,
            ranges: items.iter().map(|item| lines.range(item.span)).collect(),
            items,
            lexicon,
            newest: doc.entries().map(|e| &*e.date).max().map(str::to_owned),
            memory_chars: char_count(&doc.render()),
            every: OnceCell::new(),
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
        self.check_vectors(vectors)?;
        Ok(self.recall_checked(query, options, vectors))
    }

    /// Whether `vectors` fit this memory's items ([`RecallVectors::check`]).
    fn check_vectors(&self, vectors: Option<&RecallVectors<'_>>) -> Result<(), Error> {
        vectors.map_or(Ok(()), |v| v.check(self.items.len()))
    }

    /// [`PreparedMemory::recall`] with its options and vectors checked.
    pub(super) fn recall_checked(
        &self,
        query: &str,
        options: &RecallOptions,
        vectors: Option<&RecallVectors<'_>>,
    ) -> Recall {
        if self.every.get().is_none() {
            let distinct = self.lexicon.every();
            let all = vec![true; self.items.len()];
            let replacing = replacing(&self.items, &self.lexicon, Some(&distinct), &all);
            // Empty just before: it cannot be set already.
            let _ = self.every.set(Every {
                distinct,
                replacing,
            });
        }
        self.run(query, options, vectors)
    }

    /// [`PreparedMemory::recall`] for a memory recalled from once (the
    /// package's `recall`, `recallWithVectors` and `PreparedRecall`): what
    /// later entries replace is found only for the entries that answer, as
    /// [`recall`](super::recall) does, not for every entry for later recalls.
    ///
    /// # Errors
    /// As [`PreparedMemory::recall`].
    pub fn recall_once(
        &self,
        query: &str,
        options: &RecallOptions,
        vectors: Option<&RecallVectors<'_>>,
    ) -> Result<Recall, Error> {
        options.check()?;
        self.answer(query, options, vectors)
    }

    /// [`PreparedMemory::recall`] with options already checked.
    pub(super) fn answer(
        &self,
        query: &str,
        options: &RecallOptions,
        vectors: Option<&RecallVectors<'_>>,
    ) -> Result<Recall, Error> {
        self.check_vectors(vectors)?;
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
            .enumerate()
            .map(|(s, title)| Section {
                title,
                priority: section_priority(title, options.scope),
                pinned: keys.get(s).is_some_and(|key| pinned.contains(key)),
            })
            .collect()
    }

    pub(super) fn run(
        &self,
        query: &str,
        options: &RecallOptions,
        vectors: Option<&RecallVectors<'_>>,
    ) -> Recall {
        let Self {
            items,
            ranges,
            lexicon,
            memory_chars,
            ..
        } = self;
        let sections = self.sections(options);
        let folded_query = to_nfkc_lowercase(query);
        let words: Vec<&str> = tokenize::words_of_folded(&folded_query).collect();
        let query_terms = terms::Query::new(&words);
        let reference = options.today.as_deref().or(self.newest.as_deref());
        // Prepared for many recalls, the memory knows every part and every
        // entry's replacement; a single recall numbers only the parts that
        // may match, and finds only the answering entries' replacements.
        let every = self.every.get();
        let matching;
        let distinct = if let Some(every) = every {
            &every.distinct
        } else {
            matching = lexicon.matching(&query_terms);
            &matching
        };
        let mut scored = score(
            &sections,
            items,
            (lexicon, distinct),
            &query_terms,
            options,
            reference,
            vectors,
        );
        let answered = semantic::answered(scored.iter().map(|(_, why)| why), vectors);
        let relevant: Vec<bool> = scored
            .iter()
            .map(|(_, why)| words.is_empty() || (answered && why.relevance >= RELEVANCE_FLOOR))
            .collect();
        let asked;
        let replaced = if let Some(every) = every {
            &every.replacing
        } else {
            asked = replacing(items, lexicon, None, &relevant);
            &asked
        };
        let superseded = supersede::gated(replaced, &relevant);
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
