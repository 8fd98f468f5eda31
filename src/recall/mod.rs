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
mod math;
mod options;
mod score;
mod semantic;
mod stop_words;
mod supersede;
mod terms;
mod tokenize;
mod word_break;

use std::borrow::Cow;

use serde::Serialize;

use crate::compact::section_priority;
use crate::document::{Document, Line};
use crate::error::Error;
use crate::fast::char_count;
use crate::fast::{to_nfkc_lowercase, to_nfkc_lowercase_each};
use crate::grouping::TextSet;
use crate::heading::{normalize_heading, section_keys};
use crate::options::Recalled;
use crate::parse::{parse, Fence};
use crate::span::{LineIndex, Range, Span};

pub use bm25::{BM25_B, BM25_K1};
pub use options::{
    RecallOptions, RecallWeights, DEFAULT_HALF_LIFE_DAYS, DEFAULT_PRIORITY_WEIGHT,
    DEFAULT_RECALL_BUDGET, DEFAULT_RECENCY_WEIGHT, DEFAULT_RELEVANCE_WEIGHT,
};
pub use score::{Measure, PriorityMeasure, RecencyMeasure, Why, UNDATED_RECENCY};
pub use semantic::{
    calibration, Calibration, RecallVectors, CALIBRATIONS, DEFAULT_CALIBRATION,
    LEXICAL_CALIBRATION, RELEVANCE_FLOOR,
};
pub use terms::PREFIX_LEAST;

/// The result of [`recall`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Recall {
    /// The recalled part: a valid canonical memory document within the
    /// budget, each selected item under its section's heading, sections and
    /// items in their original order.
    pub content: String,
    /// Code points of `content` (at most the budget).
    pub chars: usize,
    /// An estimate of the tokens of `content`: code points / 4, rounded up.
    /// Real tokenizers differ; use it for rough accounting only.
    pub estimated_tokens: usize,
    /// The items taken, in document order.
    pub selected: Vec<RecalledItem>,
    /// The items left out, in document order.
    pub omitted: Vec<OmittedItem>,
    /// Counts.
    pub totals: RecallTotals,
}

/// An item that [`recall`] took.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RecalledItem {
    /// The title of its section, as written.
    pub section: String,
    /// The entry's text; for another line the line as written (a code
    /// block: its lines joined by `"\n"`).
    pub text: String,
    /// The entry's date; none (`null`) for a line that is not an entry.
    pub date: Option<String>,
    /// Where it is in the text recalled from: its line (a code block: from
    /// its opening fence to its last line that is not blank).
    pub range: Range,
    /// Its score: `why.relevance`, `why.recency.normalized` and
    /// `why.priority.normalized` weighted and added, rounded to millionths.
    pub score: f64,
    /// Why it scored so.
    pub why: Why,
}

/// An item that [`recall`] left out, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OmittedItem {
    /// The title of its section, as written.
    pub section: String,
    /// The entry's text; for another line the line as written (a code
    /// block: its lines joined by `"\n"`).
    pub text: String,
    /// The entry's date; none (`null`) for a line that is not an entry.
    pub date: Option<String>,
    /// Where it is in the text recalled from: its line (a code block: from
    /// its opening fence to its last line that is not blank).
    pub range: Range,
    /// Its score: `why.relevance`, `why.recency.normalized` and
    /// `why.priority.normalized` weighted and added, rounded to millionths.
    pub score: f64,
    /// Why it scored so.
    pub why: Why,
    /// Why it was left out.
    pub reason: OmitReason,
}

/// Why [`recall`] left an item out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum OmitReason {
    /// It would fit alone, but not with the items that scored higher.
    Budget,
    /// The query has words and the item's relevance is under the floor, or
    /// the query is under its embedder's query floor
    /// (and its section is not pinned).
    NoMatch,
    /// Even alone under its heading it is larger than the budget.
    TooLarge,
    /// A later entry of its section states the same thing
    /// (`why.supersededBy`), and that entry was not selected or this one
    /// did not fit after every current item: a stale value is never
    /// returned without the value that replaced it.
    Superseded,
}

impl OmitReason {
    /// `"budget"`, `"no-match"`, `"too-large"` or `"superseded"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Budget => "budget",
            Self::NoMatch => "no-match",
            Self::TooLarge => "too-large",
            Self::Superseded => "superseded",
        }
    }
}

/// The counts of a [`Recall`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RecallTotals {
    /// Items in the memory.
    pub items: usize,
    /// Items taken.
    pub selected: usize,
    /// Items left out.
    pub omitted: usize,
    /// Items that answer the query (relevance at or above the floor and,
    /// by meaning, the query at the embedder's query floor), or every item
    /// when the query has no words. 0: nothing in the memory
    /// answers the query, and nothing is selected (pinned sections apart).
    pub relevant: usize,
    /// Code points of the memory's canonical form.
    pub memory_chars: usize,
    /// The budget used.
    pub budget: usize,
}

impl From<&RecallTotals> for Recalled {
    fn from(totals: &RecallTotals) -> Self {
        Self {
            selected: totals.selected,
            items: totals.items,
        }
    }
}

/// One item of the memory.
struct Item<'a> {
    section: usize,
    /// The entry's text or the raw line(s).
    text: String,
    date: Option<String>,
    /// As rendered: `- date: text` or the raw line(s).
    line: Cow<'a, str>,
    /// Where it is in the text.
    span: Span,
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
    let doc = parse(text);
    let items = items(&doc);
    run(&doc, &LineIndex::new(text), items, query, options, None)
}

/// [`recall`] by words and meaning: with the vectors an embedder gave for
/// the query and for each item of [`recall_items`], in that order.
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
    let doc = parse(text);
    let items = items(&doc);
    vectors.check(items.len())?;
    Ok(run(
        &doc,
        &LineIndex::new(text),
        items,
        query,
        options,
        Some(vectors),
    ))
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

fn run(
    doc: &Document,
    lines: &LineIndex,
    items: Vec<Item>,
    query: &str,
    options: &RecallOptions,
    vectors: Option<&RecallVectors<'_>>,
) -> Recall {
    let folded_query = to_nfkc_lowercase(query);
    let words: Vec<&str> = tokenize::words_of_folded(&folded_query).collect();
    let has_query = !words.is_empty();
    let query_terms = terms::Query::new(&words);
    let pinned: Vec<String> = options
        .pinned
        .iter()
        .map(|p| normalize_heading(p))
        .collect();
    let pinned = TextSet::new(pinned.iter().map(String::as_str).collect());
    let section_pinned: Vec<bool> = if options.pinned.is_empty() {
        vec![false; doc.sections.len()]
    } else {
        section_keys(doc)
            .iter()
            .map(|key| pinned.contains(key))
            .collect()
    };
    // Each text folded once; its words are borrowed from that.
    let texts: Vec<&str> = items.iter().map(|item| &*item.text).collect();
    let texts = to_nfkc_lowercase_each(&texts);
    let mut scored = score(
        doc,
        &items,
        &texts,
        &query_terms,
        &section_pinned,
        options,
        vectors,
    );
    let answered = semantic::answered(scored.iter().map(|(_, why)| why), vectors);
    let relevant: Vec<bool> = scored
        .iter()
        .map(|(_, why)| !has_query || (answered && why.relevance >= RELEVANCE_FLOOR))
        .collect();
    let superseded = superseded(&items, &texts, &relevant);
    for (i, by) in superseded.iter().enumerate() {
        scored[i].1.superseded_by = by.map(|j| lines.range(items[j].span).start.line);
    }

    let reasons = select(
        doc,
        &items,
        &scored,
        &Selection {
            pinned: &section_pinned,
            relevant: &relevant,
            superseded: &superseded,
        },
        options.budget,
    );
    let content = render(doc, &items, &reasons);
    let chars = char_count(&content);
    let mut selected = Vec::new();
    let mut omitted = Vec::new();
    for ((item, (score, why)), reason) in items.into_iter().zip(scored).zip(reasons) {
        let section = doc.sections[item.section].title.to_string();
        let range = lines.range(item.span);
        match reason {
            None => selected.push(RecalledItem {
                section,
                text: item.text,
                date: item.date,
                range,
                score,
                why,
            }),
            Some(reason) => omitted.push(OmittedItem {
                section,
                text: item.text,
                date: item.date,
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
            memory_chars: char_count(&doc.render()),
            budget: options.budget,
        },
        content,
        chars,
        selected,
        omitted,
    }
}

/// Per item, the newest later entry of its section that states the same
/// thing, for the relevant entries (module [`supersede`]). Content terms
/// are found only in the sections that hold a relevant entry.
fn superseded(items: &[Item], texts: &[String], relevant: &[bool]) -> Vec<Option<usize>> {
    let sections = items.last().map_or(0, |i| i.section + 1);
    let mut wanted = vec![false; sections];
    for (item, &r) in items.iter().zip(relevant) {
        wanted[item.section] |= r && item.date.is_some();
    }
    let dated: Vec<supersede::Dated> = items
        .iter()
        .zip(texts)
        .map(|(item, text)| {
            let (head, words) = if wanted[item.section] && item.date.is_some() {
                terms::content_terms(tokenize::words_of_folded(text))
            } else {
                (None, Vec::new())
            };
            supersede::Dated {
                section: item.section,
                date: item.date.as_deref(),
                head,
                words,
            }
        })
        .collect();
    supersede::superseded(&dated, relevant)
}

/// Every item's score and its explanation.
fn score(
    doc: &Document,
    items: &[Item],
    texts: &[String],
    query: &terms::Query,
    section_pinned: &[bool],
    options: &RecallOptions,
    vectors: Option<&RecallVectors<'_>>,
) -> Vec<(f64, Why)> {
    let titles = to_nfkc_lowercase_each(&doc.titles());
    let titles: Vec<Vec<&str>> = titles
        .iter()
        .map(|t| tokenize::words_of_folded(t).collect())
        .collect();
    let index = bm25::Index::new(
        items.iter().zip(texts).map(|(item, text)| {
            tokenize::words_of_folded(text).chain(titles[item.section].iter().copied())
        }),
        query,
    );
    let matches = index.search();
    let ideal = index.ideal();
    let reference = options
        .today
        .clone()
        .or_else(|| doc.entries().map(|e| e.date.to_string()).max());
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
            let why = Why::new(score::Parts {
                terms: terms.next().unwrap_or_default(),
                lexical: (bm25, LEXICAL_CALIBRATION.relevance(share)),
                semantic,
                date: item.date.as_deref(),
                reference: reference.as_deref(),
                half_life_days: options.half_life_days,
                priority: section_priority(&doc.sections[item.section].title, options.scope),
                pinned: section_pinned[item.section],
            });
            (why.score(&options.weights), why)
        })
        .collect()
}

/// The items of a document, in order: each entry, each other non-blank
/// line, and each code fence whole (its blank lines included, its trailing
/// blank lines not), so that a kept item never opens a fence it does not
/// close.
fn items<'a>(doc: &'a Document<'_>) -> Vec<Item<'a>> {
    let mut out: Vec<Item<'a>> = Vec::new();
    for (s, section) in doc.sections.iter().enumerate() {
        // The fence a code block item is in, while it is open.
        let mut fence: Option<Fence> = None;
        for line in &section.lines {
            match line {
                Line::Entry(entry) => out.push(Item {
                    section: s,
                    text: entry.text.to_string(),
                    date: Some(entry.date.to_string()),
                    line: line.render(),
                    span: entry.span,
                }),
                Line::Raw(raw) if raw.fenced => {
                    if let (Some(open), Some(last)) = (fence, out.last_mut()) {
                        let block = last.line.to_mut();
                        block.push('\n');
                        block.push_str(&raw.text);
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
                            line: Cow::Borrowed(&raw.text),
                            span: raw.span,
                        });
                    }
                }
                Line::Raw(raw) if !raw.text.is_empty() => out.push(Item {
                    section: s,
                    text: raw.text.to_string(),
                    date: None,
                    line: Cow::Borrowed(&raw.text),
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
            match &mut item.line {
                Cow::Owned(line) => line.truncate(len),
                Cow::Borrowed(line) => *line = &line[..len],
            }
            item.text = item.line.to_string();
        }
    }
    out
}

/// What decides the order of selection besides the scores.
struct Selection<'a> {
    /// Per section, whether it is pinned.
    pinned: &'a [bool],
    /// Per item, whether it answers the query.
    relevant: &'a [bool],
    /// Per item, the later entry that supersedes it.
    superseded: &'a [Option<usize>],
}

/// Per item, `None` when taken, or why it was left out. Pinned sections'
/// items first; then the current items that answer the query (and the
/// entries that supersede one, even under the floor, at the score of the
/// highest they supersede), by score; a superseded item after the current
/// ones of its group, and only once the entry that supersedes it (which is
/// current) was taken.
fn select(
    doc: &Document,
    items: &[Item],
    scored: &[(f64, Why)],
    how: &Selection<'_>,
    budget: usize,
) -> Vec<Option<OmitReason>> {
    let mut reasons: Vec<Option<OmitReason>> = vec![Some(OmitReason::NoMatch); items.len()];
    let mut keys: Vec<f64> = scored.iter().map(|(score, _)| *score).collect();
    let mut taken = vec![false; items.len()];
    for (i, item) in items.iter().enumerate() {
        taken[i] |= how.relevant[i] || how.pinned[item.section];
        if let (true, Some(j)) = (how.relevant[i], how.superseded[i]) {
            taken[j] = true;
            keys[j] = keys[j].max(keys[i]);
        }
    }
    let order: Vec<usize> = (0..items.len()).filter(|&i| taken[i]).collect();
    let sorted: Vec<u64> = order.iter().map(|&i| descending(keys[i])).collect();
    // Pinned sections' current items, their superseded ones, then the
    // other current items and superseded ones; each by score, ties in
    // document order (the sort is stable). A superseded item comes after
    // the entry superseding it, which is in its section.
    let group = |i: usize| {
        2 * usize::from(!how.pinned[items[i].section]) + usize::from(how.superseded[i].is_some())
    };
    let by_score: Vec<usize> = crate::fast::sort_indices_by_key(&sorted)
        .into_iter()
        .map(|k| order[k])
        .collect();
    let mut ranked = Vec::with_capacity(by_score.len());
    for g in 0..4 {
        ranked.extend(by_score.iter().copied().filter(|&i| group(i) == g));
    }
    let headings: Vec<usize> = doc
        .sections
        .iter()
        .map(|s| char_count(&s.heading()))
        .collect();
    let heading = |s: usize| headings[s];
    let mut kept = vec![false; doc.sections.len()];
    let mut any = false;
    let mut used = 0;
    for i in ranked {
        let item = &items[i];
        let line = char_count(&item.line) + 1;
        if heading(item.section) + line > budget {
            reasons[i] = Some(OmitReason::TooLarge);
            continue;
        }
        let stale = how.superseded[i].is_some();
        reasons[i] = Some(if stale {
            OmitReason::Superseded
        } else {
            OmitReason::Budget
        });
        if stale && how.superseded[i].is_some_and(|j| reasons[j].is_some()) {
            continue;
        }
        let cost = if kept[item.section] {
            line
        } else {
            line + heading(item.section) + if any { 2 } else { 0 }
        };
        if used + cost <= budget {
            used += cost;
            kept[item.section] = true;
            any = true;
            reasons[i] = None;
        }
    }
    reasons
}

/// A key that orders scores from the highest down, in `f64::total_cmp`'s
/// order reversed: a negative number's bits count down as it grows, a
/// positive one's up.
fn descending(score: f64) -> u64 {
    let bits = score.to_bits();
    let ascending = if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    };
    !ascending
}

/// The selected items under their headings, in document order.
fn render(doc: &Document, items: &[Item], reasons: &[Option<OmitReason>]) -> String {
    let mut out = String::new();
    let mut open: Option<usize> = None;
    for (item, reason) in items.iter().zip(reasons) {
        if reason.is_some() {
            continue;
        }
        if open != Some(item.section) {
            if open.is_some() {
                out.push_str("\n\n");
            }
            out.push_str(&doc.sections[item.section].heading());
            open = Some(item.section);
        }
        out.push('\n');
        out.push_str(&item.line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::descending;

    #[test]
    fn descending_keys_order_scores_as_total_cmp_reversed() {
        let scores = [
            f64::NAN,
            f64::INFINITY,
            2.5,
            1.0,
            f64::MIN_POSITIVE,
            0.0,
            -0.0,
            -f64::MIN_POSITIVE,
            -1.0,
            f64::NEG_INFINITY,
            -f64::NAN,
        ];
        for a in scores {
            for b in scores {
                assert_eq!(
                    descending(a).cmp(&descending(b)),
                    b.total_cmp(&a),
                    "{a} against {b}"
                );
            }
        }
    }
}
