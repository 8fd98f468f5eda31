//! Recall's semantic channel: the vectors an embedder gave for the query
//! and for each item (docs/FORMAT.md §12), their cosine, and the
//! calibration that turns a cosine, or a lexical match, into a relevance
//! from 0 to 1 whose floor means the same for every embedder. The engine
//! never embeds: the vectors come from the caller, in item order
//! ([`recall_items`](crate::recall_items)).

use crate::error::Error;

use super::math::half_to_the;
use super::score::Why;

/// The relevance under which an item does not answer the query: it is
/// omitted as `no-match` (unless its section is pinned).
pub const RELEVANCE_FLOOR: f64 = 0.5;

/// The vectors of a hybrid recall: the query's, and every item's in the
/// order of [`recall_items`](crate::recall_items), one after another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecallVectors<'a> {
    /// The embedder's id: decides the calibration ([`calibration`]).
    pub embedder: &'a str,
    /// The query's vector.
    pub query: &'a [f32],
    /// Each item's vector, of the query's length, concatenated.
    pub items: &'a [f32],
}

impl RecallVectors<'_> {
    /// Check the vectors against a memory of `items` items.
    ///
    /// # Errors
    /// [`Error::InvalidVectors`] for an empty query vector, item vectors
    /// that are not `items` times its length, or a value that is not
    /// finite.
    pub fn check(&self, items: usize) -> Result<(), Error> {
        let dimensions = self.query.len();
        if dimensions == 0 {
            return Err(Error::InvalidVectors(
                "the query's vector is empty".to_owned(),
            ));
        }
        if self.items.len() != items * dimensions {
            return Err(Error::InvalidVectors(format!(
                "{} numbers for {items} items of {dimensions} dimensions",
                self.items.len()
            )));
        }
        if !self.query.iter().chain(self.items).all(|x| x.is_finite()) {
            return Err(Error::InvalidVectors(
                "a value is not a finite number".to_owned(),
            ));
        }
        Ok(())
    }
}

/// How a channel's raw value becomes a relevance: 0 up to `zero`, then
/// `1 − 0.5^((x − zero) / half)`, so the floor (0.5) lies at
/// `zero + half` and a stronger match only comes nearer to 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    /// The raw value at and below which the relevance is 0.
    pub zero: f64,
    /// How far above `zero` the relevance reaches the floor.
    pub half: f64,
}

impl Calibration {
    /// The relevance of a raw value.
    pub(crate) fn relevance(self, x: f64) -> f64 {
        if x.is_nan() || x <= self.zero {
            0.0
        } else {
            1.0 - half_to_the((x - self.zero) / self.half)
        }
    }
}

/// The lexical channel's calibration, over BM25 divided by the BM25 of an
/// average-length item holding each of the query's words once (about 1
/// when every word of the query is matched, less for a part of it, weighed
/// by rarity): the floor needs about 42% of the query. Measured on the
/// evaluation set (`tests/recall_eval.rs`): with 30%, two of its twelve
/// unanswerable questions select entries by one shared word ("which font
/// does the marketing site use?" against "Services use `PostgreSQL` 16");
/// with 40% and words matching their inflections, one ("what is his blood
/// type?" against "Asked about type theory on Friday", at 40.6%), while
/// every keyword question, inflected ones included, is answered at 42%.
pub const LEXICAL_CALIBRATION: Calibration = Calibration {
    zero: 0.0,
    half: 0.42,
};

/// Cosine calibrations by embedder id, fitted on the evaluation set
/// (`cargo run --release --example recall_fit`): the floor (`zero + half`)
/// as high as it goes while paraphrased questions keep their answers
/// (the floors of `tests/recall_eval.rs`, with a margin).
pub const CALIBRATIONS: [(&str, Calibration); 3] = [
    // The floor (cosine 0.10) below where unanswerable questions' best
    // items lie: whether anything answers is decided once per query
    // ([`QUERY_FLOORS`]), so the floor only decides which items fill the
    // budget; `half` 0.30 keeps the cosines of answers (0.2 to 0.6) apart
    // instead of all near 1, so that recency does not decide their order.
    (
        "all-MiniLM-L6-v2",
        Calibration {
            zero: -0.20,
            half: 0.30,
        },
    ),
    // The static table (memdoc-minilm's static_table), fitted on the
    // evaluation set's questions through the engine's own selection: the
    // calibration on a grid of 0.02 that rejects the most unanswerable
    // questions while keeping the best paraphrase recall (91.4% within
    // 1,200, 74.3% within 400) less two questions; none rejects any.
    (
        "all-MiniLM-L6-v2-static-256-v2",
        Calibration {
            zero: 0.10,
            half: 0.04,
        },
    ),
    // multilingual-e5-small (memdoc-e5), over the cosine less the
    // memory's median ([`CENTRED`]), fitted on the Chinese and
    // cross-lingual set (tests/recall_eval_zh.rs): the floor 0.01 above
    // the median.
    (
        "multilingual-e5-small-q4",
        Calibration {
            zero: -0.02,
            half: 0.03,
        },
    ),
];

/// Embedders whose calibration applies to the cosine less the median
/// cosine of the memory's items for the query (the upper median), or less
/// the value given here while the memory has fewer than
/// [`CENTRED_MIN_ITEMS`] items. multilingual-e5-small's cosines sit high
/// and close, and where depends on the languages: 0.84 to 0.92 for the
/// answers of Chinese questions in a Chinese memory, 0.77 to 0.85 across
/// Chinese and English, with medians from 0.74 to 0.87; one cut-off on the
/// cosine itself cannot serve both (`tests/recall_eval_zh.rs`), the distance
/// from the median can.
pub const CENTRED: [(&str, f64); 1] = [("multilingual-e5-small-q4", 0.80)];

/// Embedders for which a query is answered by meaning only when its best
/// item's cosine reaches the value given here (a query answered by words,
/// an item at the lexical floor, always is); otherwise no item answers it.
/// `MiniLM`'s is its floor before the query floor came (cosine 0.15): on the
/// evaluation set, higher ones up to 0.18 reject no more unanswerable
/// questions, and 0.19 rejects three more of twelve but misses answers at
/// 0.157 ("which relational database do we run?" against "Services use
/// `PostgreSQL` 16"); tests/recall/eval/methods.py measures it against the
/// other methods (docs/FORMAT.md §12, "The query floor").
pub const QUERY_FLOORS: [(&str, f64); 1] = [("all-MiniLM-L6-v2", 0.15)];

/// Whether anything answers the query: an item at the lexical floor, or
/// an item whose cosine reaches the embedder's query floor
/// ([`QUERY_FLOORS`]; any cosine, for an embedder not in it).
pub(crate) fn answered<'a>(
    whys: impl Iterator<Item = &'a Why>,
    vectors: Option<&RecallVectors<'_>>,
) -> bool {
    let floor = vectors.map_or(0.0, |v| {
        QUERY_FLOORS
            .iter()
            .find(|(known, _)| *known == v.embedder)
            .map_or(f64::NEG_INFINITY, |(_, floor)| *floor)
    });
    let mut whys = whys;
    whys.any(|why| {
        why.lexical.normalized >= RELEVANCE_FLOOR || why.semantic.is_some_and(|s| s.raw >= floor)
    })
}

/// The fewest items whose median cosine a centred calibration uses.
pub const CENTRED_MIN_ITEMS: usize = 8;

/// What a centred embedder's cosines are measured from (0 for the others):
/// see [`CENTRED`].
pub(crate) fn centre(id: &str, cosines: &[f64]) -> f64 {
    let Some((_, fixed)) = CENTRED.iter().find(|(known, _)| *known == id) else {
        return 0.0;
    };
    if cosines.len() < CENTRED_MIN_ITEMS {
        return *fixed;
    }
    // The module's one sort (`fast::sort_indices_by_key`), highest first.
    let keys: Vec<u64> = cosines.iter().map(|&c| super::descending(c)).collect();
    let order = crate::fast::sort_indices_by_key(&keys);
    cosines[order[cosines.len() - 1 - cosines.len() / 2]]
}

/// The calibration of an embedder not in [`CALIBRATIONS`] (not fitted):
/// the floor at a cosine of 0.45, where the answers of questions commonly
/// lie above and unrelated texts below for embedders whose cosines spread
/// over 0 to 1.
pub const DEFAULT_CALIBRATION: Calibration = Calibration {
    zero: 0.2,
    half: 0.25,
};

/// The calibration of the embedder `id`.
#[must_use]
pub fn calibration(id: &str) -> Calibration {
    CALIBRATIONS
        .iter()
        .find(|(known, _)| *known == id)
        .map_or(DEFAULT_CALIBRATION, |(_, c)| *c)
}

/// A query vector and its squared length, computed once for every item.
pub(crate) struct QueryVector<'a> {
    vector: &'a [f32],
    square: f64,
}

impl<'a> QueryVector<'a> {
    pub(crate) fn new(vector: &'a [f32]) -> Self {
        Self {
            vector,
            square: dot(vector, vector),
        }
    }

    /// The cosine of the query's and `item`'s vectors (of the same length);
    /// 0 when either is zero.
    pub(crate) fn cosine(&self, item: &[f32]) -> f64 {
        let square = dot(item, item);
        if self.square == 0.0 || square == 0.0 {
            0.0
        } else {
            (dot(self.vector, item) / (self.square * square).sqrt()).clamp(-1.0, 1.0)
        }
    }
}

/// The dot product in `f64`, in a fixed order: four running sums (element
/// `k` into sum `k mod 4`), then the rest, then `(s0 + s1) + (s2 + s3) +
/// rest`. Additions, multiplications and `sqrt` are correctly rounded on
/// every platform and Rust never fuses or reorders them, so native builds
/// and WebAssembly get the same bits; four sums instead of one let the
/// additions overlap.
fn dot(a: &[f32], b: &[f32]) -> f64 {
    let mut sums = [0.0_f64; 4];
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (a4.remainder(), b4.remainder());
    for (x, y) in a4.zip(b4) {
        for k in 0..4 {
            sums[k] += f64::from(x[k]) * f64::from(y[k]);
        }
    }
    let mut rest = 0.0;
    for (&x, &y) in ra.iter().zip(rb) {
        rest += f64::from(x) * f64::from(y);
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + rest
}

/// Two channels' relevances as one: the stronger. A strong match on either
/// channel is never weakened by the other, and two weak ones do not add up
/// to a match: on the evaluation set the maximum separates unanswerable
/// questions better (area under the ROC curve 0.848) than
/// `1 − (1 − a)(1 − b)` (0.815) at the same recall, and far better than
/// reciprocal rank fusion (0.589, which also loses a third of the answers
/// within 400 code points); docs/FORMAT.md §12.
pub(crate) fn fuse(a: f64, b: f64) -> f64 {
    a.max(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(a: &[f32], b: &[f32]) -> f64 {
        QueryVector::new(a).cosine(b)
    }

    #[test]
    fn cosine_of_parallel_orthogonal_and_zero_vectors() {
        assert!((cosine(&[1.0, 2.0], &[2.0, 4.0]) - 1.0).abs() < 1e-12);
        assert!(cosine(&[1.0, 0.0], &[0.0, 3.0]).abs() < 1e-12);
        assert!(cosine(&[0.0, 0.0], &[1.0, 3.0]).abs() < 1e-12);
        let a: Vec<f32> = (0..11)
            .map(|k| f32::from(u8::try_from(k).unwrap()) - 5.0)
            .collect();
        let b: Vec<f32> = a.iter().map(|x| 3.0 * x).collect();
        assert!(
            (cosine(&a, &b) - 1.0).abs() < 1e-12,
            "every element, the rest too"
        );
    }

    #[test]
    fn calibration_puts_the_floor_at_zero_plus_half() {
        let c = Calibration {
            zero: 0.2,
            half: 0.1,
        };
        assert!(c.relevance(0.1).abs() < 1e-12);
        assert!((c.relevance(0.3) - RELEVANCE_FLOOR).abs() < 1e-12);
        assert!(c.relevance(0.9) > 0.99 && c.relevance(0.9) < 1.0);
    }

    #[test]
    fn a_centred_embedder_measures_from_the_median() {
        let id = CENTRED[0].0;
        let cosines: Vec<f64> = (0..9).map(|k| f64::from(k) / 10.0).collect();
        assert!((centre(id, &cosines) - 0.4).abs() < 1e-12);
        assert!(
            (centre(id, &cosines[..8]) - 0.4).abs() < 1e-12,
            "upper median"
        );
        assert!((centre(id, &cosines[..3]) - CENTRED[0].1).abs() < 1e-12);
        assert!(centre("all-MiniLM-L6-v2", &cosines).abs() < 1e-12);
    }

    #[test]
    fn fusion_never_weakens_the_stronger_channel() {
        for (a, b) in [(0.9, 0.0), (0.0, 0.9), (0.6, 0.3), (1.0, 0.2)] {
            assert!(fuse(a, b) >= f64::max(a, b), "{a} {b}");
            assert!(fuse(a, b) <= 1.0);
        }
        assert!(
            fuse(0.4, 0.4) < RELEVANCE_FLOOR,
            "two weak channels are no match"
        );
    }
}
