//! The words of a memory's items and section titles, split into their
//! parts once ([`super::terms::parts`]), each distinct part looked at once:
//! whether it is a stop word, its stem, the query terms it matches. A
//! memory repeats its words; stemming each occurrence, once for BM25 and
//! once more for supersession, was half of a recall's time. Distinct parts
//! are found by [`first_equal`], and numbered in the order they first
//! occur, so nothing here depends on a hash's order. Nothing here depends
//! on a query: a prepared memory keeps its lexicon, and each stem, once
//! found, for every recall after.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::ops::Range;

use super::stop_words::is_stop_word;
use super::terms::{parts, stem, Query};
use super::tokenize::words_of_folded;
use crate::fast::to_nfkc_lowercase_each;
use crate::grouping::first_equal;

/// The parts of the items' and the titles' folded words.
#[derive(Debug)]
pub(crate) struct Lexicon {
    /// The items' folded texts, then the titles', one after another.
    folded: String,
    /// Each distinct part, in the order it first occurs: where in `folded`.
    distinct: Vec<Range<usize>>,
    /// Whether each distinct part is a stop word.
    stop: Vec<bool>,
    /// Each distinct part's stem, once asked for (`None`: the part itself).
    stems: Vec<OnceCell<Option<Box<str>>>>,
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

impl Lexicon {
    /// The parts of `items`' and `titles`' texts, folded.
    pub(crate) fn new(items: &[&str], titles: &[&str]) -> Self {
        let mut folded = String::new();
        let mut texts = Vec::with_capacity(items.len() + titles.len());
        for text in to_nfkc_lowercase_each(items)
            .into_iter()
            .chain(to_nfkc_lowercase_each(titles))
        {
            texts.push(folded.len()..folded.len() + text.len());
            folded.push_str(&text);
        }
        // Where a part (a slice of `folded`) is in it.
        let at = |part: &str| {
            let start = part.as_ptr() as usize - folded.as_ptr() as usize;
            start..start + part.len()
        };
        let mut all: Vec<Range<usize>> = Vec::new();
        let mut starts = vec![0];
        let mut words = Vec::with_capacity(texts.len());
        for text in &texts {
            let mut count = 0;
            for word in words_of_folded(&folded[text.clone()]) {
                count += 1;
                all.extend(parts(word).map(&at));
            }
            words.push(count);
            starts.push(all.len());
        }
        let first = first_equal(all.len(), &|i| folded[all[i].clone()].as_bytes());
        let mut distinct = Vec::new();
        let mut ids: Vec<usize> = Vec::with_capacity(all.len());
        for (i, &f) in first.iter().enumerate() {
            if f == i {
                ids.push(distinct.len());
                distinct.push(all[i].clone());
            } else {
                ids.push(ids[f]);
            }
        }
        Self {
            stop: distinct
                .iter()
                .map(|d| is_stop_word(&folded[d.clone()]))
                .collect(),
            stems: vec![OnceCell::new(); distinct.len()],
            folded,
            distinct,
            ids,
            starts,
            words,
            items: items.len(),
        }
    }

    /// Distinct part `d`.
    fn part(&self, d: usize) -> &str {
        &self.folded[self.distinct[d].clone()]
    }

    /// The stem of distinct part `d`, found once.
    fn stem(&self, d: usize) -> &str {
        let part = self.part(d);
        self.stems[d]
            .get_or_init(|| match stem(part) {
                Cow::Borrowed(_) => None,
                Cow::Owned(changed) => Some(changed.into()),
            })
            .as_deref()
            .unwrap_or(part)
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
    pub(crate) fn matches(&self, query: &Query<'_>) -> Vec<Vec<usize>> {
        (0..self.distinct.len())
            .map(|d| {
                let mut found = Vec::new();
                let part = self.part(d);
                if query.may_match(part) {
                    query.matches(part, self.stem(d), &mut |k| found.push(k));
                }
                found
            })
            .collect()
    }

    /// Per item that `wanted` marks, its content terms (its parts that are
    /// not stop words, by stem: two parts with one stem are one term, named
    /// by the first part that has it), each once, in the order they first
    /// occur; none for the others.
    pub(crate) fn content_terms(&self, wanted: &dyn Fn(usize) -> bool) -> Vec<Vec<usize>> {
        let mut content = vec![false; self.distinct.len()];
        for i in (0..self.items).filter(|&i| wanted(i)) {
            for &d in self.item(i) {
                content[d] = true;
            }
        }
        for (d, &stop) in self.stop.iter().enumerate() {
            content[d] &= !stop;
        }
        let asked: Vec<usize> = (0..content.len()).filter(|&d| content[d]).collect();
        let key = |k: usize| self.stem(asked[k]).as_bytes();
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
