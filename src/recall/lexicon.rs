//! The words of a memory's items and section titles, split into their
//! parts once ([`super::terms::parts`]), and the distinct parts among those
//! a recall looks at ([`Distinct`]), each looked at once: its stem, the
//! query terms it matches, whether it is a stop word. A memory repeats its
//! words; stemming each occurrence, once for BM25 and once more for
//! supersession, was half of a recall's time. Distinct parts are found by
//! [`first_equal`], and numbered in the order they first occur, so nothing
//! here depends on a hash's order. The lexicon does not depend on a query:
//! a prepared memory keeps it and the distinct parts of all its words, and
//! each stem, once found, for every recall after; a memory recalled from
//! once numbers only the parts that may match the query's terms
//! ([`Lexicon::matching`]), then those of the entries supersession compares
//! ([`Lexicon::of_items`]).

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
    /// Every part of every item's words, then of every title's: where in
    /// `folded`.
    parts: Vec<Range<usize>>,
    /// Where each item's parts, then each title's, start in `parts`, and
    /// where the last ends.
    starts: Vec<usize>,
    /// Each item's words, then each title's.
    words: Vec<usize>,
    /// How many items.
    items: usize,
}

/// The distinct parts among some of a lexicon's parts
/// ([`Lexicon::distinct`]), numbered from 1: 0 stands for every part not
/// looked at, as an empty part, which matches no term and is no item's
/// content (an item whose content terms are asked for was looked at whole).
#[derive(Debug)]
pub(crate) struct Distinct {
    /// Per part of the lexicon, the index of its distinct part, or 0.
    ids: Vec<usize>,
    /// Each distinct part, in the order it first occurs, after the empty
    /// one: where in the lexicon's `folded`.
    parts: Vec<Range<usize>>,
    /// Each distinct part's stem, once asked for (`None`: the part itself).
    stems: Vec<OnceCell<Option<Box<str>>>>,
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
        let mut starts = Vec::with_capacity(texts.len() + 1);
        starts.push(0);
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
        Self {
            folded,
            parts: all,
            starts,
            words,
            items: items.len(),
        }
    }

    /// Part `p`'s bytes.
    fn bytes(&self, p: usize) -> &[u8] {
        &self.folded.as_bytes()[self.parts[p].clone()]
    }

    /// The distinct parts among the `chosen` parts (by index in the
    /// lexicon, in order).
    fn distinct(&self, chosen: &[usize]) -> Distinct {
        let first = first_equal(chosen.len(), &|k| self.bytes(chosen[k]));
        let mut ids = vec![0; self.parts.len()];
        let mut parts = vec![Range::default()];
        for (k, &f) in first.iter().enumerate() {
            ids[chosen[k]] = if f == k {
                parts.push(self.parts[chosen[k]].clone());
                parts.len() - 1
            } else {
                ids[chosen[f]]
            };
        }
        Distinct {
            ids,
            stems: vec![OnceCell::new(); parts.len()],
            parts,
        }
    }

    /// Every part of the lexicon ([`Lexicon::distinct`] of all), as a
    /// memory prepared for many recalls keeps them.
    pub(crate) fn every(&self) -> Distinct {
        let all: Vec<usize> = (0..self.parts.len()).collect();
        self.distinct(&all)
    }

    /// The parts that may match one of `query`'s terms
    /// ([`Query::may_match`]): what a single recall scores with.
    // Out of recall's one large function: the module is smaller so.
    #[inline(never)]
    pub(crate) fn matching(&self, query: &Query<'_>) -> Distinct {
        let chosen: Vec<usize> = (0..self.parts.len())
            .filter(|&p| query.may_match(self.bytes(p)))
            .collect();
        self.distinct(&chosen)
    }

    /// The parts of the items that `wanted` marks: what a single recall's
    /// supersession compares.
    pub(crate) fn of_items(&self, wanted: &dyn Fn(usize) -> bool) -> Distinct {
        let mut chosen = Vec::new();
        for i in (0..self.items).filter(|&i| wanted(i)) {
            chosen.extend(self.item(i));
        }
        self.distinct(&chosen)
    }

    /// Where item `i`'s parts are among the lexicon's.
    fn item(&self, i: usize) -> Range<usize> {
        self.starts[i]..self.starts[i + 1]
    }

    /// The words of item `i`.
    pub(crate) fn item_words(&self, i: usize) -> usize {
        self.words[i]
    }

    /// The words of section `s`'s title.
    pub(crate) fn title_words(&self, s: usize) -> usize {
        self.words[self.items + s]
    }
}

impl Distinct {
    /// The distinct parts of item `i`'s words, in order, repeats kept.
    pub(crate) fn item(&self, lexicon: &Lexicon, i: usize) -> &[usize] {
        &self.ids[lexicon.item(i)]
    }

    /// The distinct parts of section `s`'s title, in order, repeats kept.
    pub(crate) fn title(&self, lexicon: &Lexicon, s: usize) -> &[usize] {
        self.item(lexicon, lexicon.items + s)
    }

    /// Distinct part `d`.
    fn part<'l>(&self, lexicon: &'l Lexicon, d: usize) -> &'l str {
        &lexicon.folded[self.parts[d].clone()]
    }

    /// The stem of distinct part `d`, found once.
    fn stem<'a>(&'a self, lexicon: &'a Lexicon, d: usize) -> &'a str {
        let part = self.part(lexicon, d);
        self.stems[d]
            .get_or_init(|| match stem(part) {
                Cow::Borrowed(_) => None,
                Cow::Owned(changed) => Some(changed.into()),
            })
            .as_deref()
            .unwrap_or(part)
    }

    /// Per distinct part, the query's terms it matches (by index).
    pub(crate) fn matches(&self, lexicon: &Lexicon, query: &Query<'_>) -> Vec<Vec<usize>> {
        (0..self.parts.len())
            .map(|d| {
                let mut found = Vec::new();
                let part = self.part(lexicon, d);
                if query.may_match(part.as_bytes()) {
                    query.matches(part, self.stem(lexicon, d), &mut |k| found.push(k));
                }
                found
            })
            .collect()
    }

    /// Per item that `wanted` marks (whose parts were all looked at), its
    /// content terms (its parts that are not stop words, by stem: two
    /// parts with one stem are one term, named by the first part that has
    /// it), each once, in the order they first occur; none for the others.
    pub(crate) fn content_terms(
        &self,
        lexicon: &Lexicon,
        wanted: &dyn Fn(usize) -> bool,
    ) -> Vec<Vec<usize>> {
        let mut content = vec![false; self.parts.len()];
        for i in (0..lexicon.items).filter(|&i| wanted(i)) {
            for &d in self.item(lexicon, i) {
                content[d] = true;
            }
        }
        for (d, c) in content.iter_mut().enumerate() {
            *c = *c && !is_stop_word(self.part(lexicon, d));
        }
        let asked: Vec<usize> = (0..content.len()).filter(|&d| content[d]).collect();
        let key = |k: usize| self.stem(lexicon, asked[k]).as_bytes();
        let mut term = vec![0; self.parts.len()];
        for (k, f) in first_equal(asked.len(), &key).into_iter().enumerate() {
            term[asked[k]] = asked[f];
        }
        // The item that last took each term: each term once per item.
        let mut taken = vec![usize::MAX; self.parts.len()];
        (0..lexicon.items)
            .map(|i| {
                let mut terms = Vec::new();
                if wanted(i) {
                    for &d in self.item(lexicon, i).iter().filter(|&&d| content[d]) {
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
        self.parts.len()
    }
}
