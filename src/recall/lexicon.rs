//! The words of one recall's items and section titles, split into their
//! parts once ([`super::terms::parts`]), each distinct part looked at once:
//! whether it is a stop word, its stem, the query terms it matches. A
//! memory repeats its words; stemming each occurrence, once for BM25 and
//! once more for supersession, was half of a recall's time. Distinct parts
//! are found by [`first_equal`], and numbered in the order they first
//! occur, so nothing here depends on a hash's order.

use super::stop_words::is_stop_word;
use super::terms::{parts, stem, Query, Term};
use super::tokenize::words_of_folded;
use crate::grouping::first_equal;

/// The parts of the items' and the titles' folded words.
pub(crate) struct Lexicon<'a> {
    /// Each distinct part, in the order it first occurs.
    distinct: Vec<&'a str>,
    /// Each distinct part's stem, once asked for.
    stems: Vec<Option<Term<'a>>>,
    /// Every part of every item's words, then of every title's, as the
    /// index of the distinct part.
    ids: Vec<usize>,
    /// Where each item's parts, then each title's, start in `ids`, and
    /// where the last ends.
    starts: Vec<usize>,
    /// Each item's words, then each title's.
    words: Vec<usize>,
    /// How many items.
    items: usize,
}

impl<'a> Lexicon<'a> {
    /// The parts of `items`' and `titles`' folded texts.
    pub(crate) fn new(items: &'a [String], titles: &'a [String]) -> Self {
        let mut all: Vec<&'a str> = Vec::new();
        let mut starts = vec![0];
        let mut words = Vec::with_capacity(items.len() + titles.len());
        for text in items.iter().chain(titles) {
            let mut count = 0;
            for word in words_of_folded(text) {
                count += 1;
                all.extend(parts(word));
            }
            words.push(count);
            starts.push(all.len());
        }
        let first = first_equal(all.len(), &|i| all[i].as_bytes());
        let mut distinct = Vec::new();
        let mut ids: Vec<usize> = Vec::with_capacity(all.len());
        for (i, &f) in first.iter().enumerate() {
            if f == i {
                ids.push(distinct.len());
                distinct.push(all[i]);
            } else {
                ids.push(ids[f]);
            }
        }
        Self {
            stems: vec![None; distinct.len()],
            distinct,
            ids,
            starts,
            words,
            items: items.len(),
        }
    }

    /// The distinct parts of item `i`'s words, in order, repeats kept.
    pub(crate) fn item(&self, i: usize) -> &[usize] {
        &self.ids[self.starts[i]..self.starts[i + 1]]
    }

    /// The distinct parts of section `s`'s title, in order, repeats kept.
    pub(crate) fn title(&self, s: usize) -> &[usize] {
        self.item(self.items + s)
    }

    /// The words of item `i`.
    pub(crate) fn item_words(&self, i: usize) -> usize {
        self.words[i]
    }

    /// The words of section `s`'s title.
    pub(crate) fn title_words(&self, s: usize) -> usize {
        self.words[self.items + s]
    }

    /// Per distinct part, the query's terms it matches (by index).
    pub(crate) fn matches(&mut self, query: &Query<'_>) -> Vec<Vec<usize>> {
        let Self {
            distinct, stems, ..
        } = self;
        distinct
            .iter()
            .zip(stems)
            .map(|(&part, stemmed)| {
                let mut found = Vec::new();
                if query.may_match(part) {
                    let stemmed = stemmed.get_or_insert_with(|| stem(part));
                    query.matches(part, stemmed, &mut |k| found.push(k));
                }
                found
            })
            .collect()
    }

    /// Per item that `wanted` marks, its content terms (its parts that are
    /// not stop words, by stem: two parts with one stem are one term, named
    /// by the first part that has it), each once, in the order they first
    /// occur; none for the others.
    pub(crate) fn content_terms(&mut self, wanted: &dyn Fn(usize) -> bool) -> Vec<Vec<usize>> {
        let mut content = vec![false; self.distinct.len()];
        for i in (0..self.items).filter(|&i| wanted(i)) {
            for &d in self.item(i) {
                content[d] = true;
            }
        }
        for (d, part) in self.distinct.iter().enumerate() {
            content[d] &= !is_stop_word(part);
        }
        let asked: Vec<usize> = (0..content.len()).filter(|&d| content[d]).collect();
        for &d in &asked {
            let part = self.distinct[d];
            self.stems[d].get_or_insert_with(|| stem(part));
        }
        let stems = &self.stems;
        let key = |k: usize| stems[asked[k]].as_deref().unwrap_or_default().as_bytes();
        let mut term = vec![0; self.distinct.len()];
        for (k, f) in first_equal(asked.len(), &key).into_iter().enumerate() {
            term[asked[k]] = asked[f];
        }
        // The item that last took each term: each term once per item.
        let mut taken = vec![usize::MAX; self.distinct.len()];
        (0..self.items)
            .map(|i| {
                let mut terms = Vec::new();
                if wanted(i) {
                    for &d in self.item(i).iter().filter(|&&d| content[d]) {
                        if taken[term[d]] != i {
                            taken[term[d]] = i;
                            terms.push(term[d]);
                        }
                    }
                }
                terms
            })
            .collect()
    }

    /// How many distinct parts: every term is under it.
    pub(crate) fn len(&self) -> usize {
        self.distinct.len()
    }
}
