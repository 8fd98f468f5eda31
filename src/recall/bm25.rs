//! Okapi BM25 over the items of one document: how well an item's words
//! (its text and its section title) match the query's words. A word that
//! occurs in nearly every item has an inverse document frequency near zero,
//! so words that are too common carry almost no weight.

use super::math::ln;
use super::terms::Query;

/// Term-frequency saturation: how much a repeated word adds.
pub const BM25_K1: f64 = 1.2;

/// Length normalization: 0 ignores an item's length, 1 divides by it fully.
pub const BM25_B: f64 = 0.75;

/// The index of a set of items for one query.
pub(crate) struct Index<'q> {
    /// Each term's query part, sorted.
    query: Vec<&'q str>,
    /// Per term, in the same order: the items matching it, with the count,
    /// in item order.
    postings: Vec<Vec<(usize, u32)>>,
    /// Words per item.
    lengths: Vec<usize>,
    average: f64,
}

/// The BM25 score of every item and the query words each one contains.
pub(crate) struct Matches {
    /// Per item, its BM25 score (0 when it contains no query word).
    pub scores: Vec<f64>,
    /// Per item, the query words it contains, sorted.
    pub terms: Vec<Vec<String>>,
}

impl<'q> Index<'q> {
    /// Index items, given as their words' count and their parts (as
    /// distinct parts, [`super::lexicon`]), for the terms of `query`;
    /// `matched` holds each distinct part's terms.
    pub(crate) fn new<'p, P: IntoIterator<Item = &'p usize>>(
        items: impl IntoIterator<Item = (usize, P)>,
        matched: &[Vec<usize>],
        query: &Query<'q>,
    ) -> Self {
        let parts: Vec<&'q str> = (0..query.len()).map(|k| query.part(k)).collect();
        let mut postings: Vec<Vec<(usize, u32)>> = vec![Vec::new(); parts.len()];
        let mut lengths = Vec::new();
        for (i, (length, ids)) in items.into_iter().enumerate() {
            for &d in ids {
                for &k in &matched[d] {
                    let list = &mut postings[k];
                    match list.last_mut() {
                        Some((item, count)) if *item == i => *count += 1,
                        _ => list.push((i, 1)),
                    }
                }
            }
            lengths.push(length);
        }
        let total: usize = lengths.iter().sum();
        let average = if lengths.is_empty() {
            1.0
        } else {
            to_f64(total) / to_f64(lengths.len())
        };
        Self {
            query: parts,
            postings,
            lengths,
            average: average.max(1.0),
        }
    }

    /// The BM25 of an item of average length that holds each of the
    /// query's words once: the sum of their inverse document frequencies
    /// (a word no item holds counts as held by one). Dividing by it makes
    /// scores of different queries and memories comparable.
    pub(crate) fn ideal(&self) -> f64 {
        let n = self.lengths.len();
        self.postings
            .iter()
            .map(|list| idf(n, list.len().max(1)))
            .sum()
    }

    /// Score every item against the query's distinct words.
    pub(crate) fn search(&self) -> Matches {
        let n = self.lengths.len();
        let mut scores = vec![0.0; n];
        let mut terms = vec![Vec::new(); n];
        // The terms in their parts' sorted order, so that sums and lists
        // are deterministic and each item's terms sorted.
        for (&word, list) in self.query.iter().zip(&self.postings) {
            if list.is_empty() {
                continue;
            }
            let idf = idf(n, list.len());
            for &(item, count) in list {
                let tf = f64::from(count);
                let norm = 1.0 - BM25_B + BM25_B * to_f64(self.lengths[item]) / self.average;
                scores[item] += idf * tf * (BM25_K1 + 1.0) / (tf + BM25_K1 * norm);
                terms[item].push(word.to_owned());
            }
        }
        Matches { scores, terms }
    }
}

/// Inverse document frequency, in the form that never goes negative:
/// `ln(1 + (N − n + 0.5) / (n + 0.5))`.
fn idf(items: usize, containing: usize) -> f64 {
    let (n, k) = (to_f64(items), to_f64(containing));
    ln(1.0 + (n - k + 0.5) / (k + 0.5))
}

/// Counts of words and items as floats (exact below 2^53).
#[allow(clippy::cast_precision_loss)]
fn to_f64(n: usize) -> f64 {
    n as f64
}

#[cfg(test)]
mod tests {
    use super::super::lexicon::Lexicon;
    use super::*;

    #[test]
    fn rare_words_weigh_more_than_common_ones() {
        let items = ["x db is postgres", "x ci is github", "x team is small"];
        let lexicon = Lexicon::new(&items, &[]);
        let query = Query::new(&["x", "postgres", "x"]);
        let distinct = lexicon.every();
        let matched = distinct.matches(&lexicon, &query);
        let index = Index::new(
            (0..3).map(|i| (lexicon.item_words(i), distinct.item(&lexicon, i))),
            &matched,
            &query,
        );
        let m = index.search();
        assert!(m.scores[0] > 5.0 * m.scores[1], "{:?}", m.scores);
        assert_eq!(m.terms[0], ["postgres", "x"]);
        assert_eq!(m.terms[1], ["x"]);
        assert!(m.scores[1] > 0.0 && m.scores[1] < 0.2, "{:?}", m.scores);
    }
}
