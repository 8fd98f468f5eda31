//! The static table (`static_table`) distilled from MiniLM, much as
//! model2vec distils one: each token of the vocabulary alone between [CLS]
//! and [SEP] through the six layers, the token's own output vector kept
//! (not [CLS]'s or [SEP]'s, which are much alike for every token and blur
//! the rows together); the vectors centred, reduced by PCA to
//! `static_table::DIMENSIONS` and half-whitened (each component divided by
//! the fourth root of its variance, so the few directions every row shares
//! weigh less); each row weighted by SIF over a Zipf estimate of the token's
//! frequency from its rank in the vocabulary (`SIF / (SIF + p)`); each row
//! quantised to int8 with a scale of its own. Each choice was measured on the
//! recall evaluation set's questions (tests/recall/eval/questions.json,
//! never its held-out set): the answer's rank among a memory's items by
//! cosine alone, BENCHMARKS.md has the numbers.
//!
//! Deterministic to the bit, so the table's SHA-256 is committed
//! (`static.sha256`): the forward pass adds and multiplies in one order on
//! every target (no fused multiply-add; libm's `expf` and `erff`), and the
//! PCA is computed here in f64 by cyclic Jacobi rotations, in a fixed order,
//! each component's sign fixed by its largest coordinate.

use crate::model::Model;
use crate::static_table::{self, DIMENSIONS};
use crate::tokenizer::Tokenizer;
use crate::Arithmetic;

/// The SIF coefficient: model2vec's 1e-4 left the commonest words (and
/// question words: "which", "do", "we") too much weight; 1e-5 to 3e-5
/// ranked answers best.
const SIF: f64 = 2e-5;
/// Tokens of one forward pass (each alone between [CLS] and [SEP]: packed
/// texts do not see each other, so a pass gives each the vectors it gives
/// alone, to the bit).
const BATCH: usize = 40;
/// Jacobi sweeps at most (the off-diagonal mass falls below 1e-22 of the
/// diagonal's within about ten).
const SWEEPS: usize = 50;

/// The table's bytes (`static_table` describes the format).
pub fn distill(tokenizer: &Tokenizer, model: &Model) -> Vec<u8> {
    let vocab = tokenizer.vocab_size();
    let hidden = crate::DIMENSIONS;
    let (cls, sep) = tokenizer.cls_sep();
    let mut own = vec![0.0f64; vocab * hidden];
    // The rows of the tokens from `first` on: their outputs, `BATCH` at a
    // time.
    let outputs = |first: usize, rows: &mut [f64]| {
        for (chunk, rows) in rows.chunks_mut(BATCH * hidden).enumerate() {
            let texts: Vec<[u32; 3]> = (0..rows.len() / hidden)
                .map(|i| {
                    let id = first + chunk * BATCH + i;
                    [cls, u32::try_from(id).expect("a token id"), sep]
                })
                .collect();
            let batch: Vec<&[u32]> = texts.iter().map(|t| &t[..]).collect();
            let out = model.forward(&batch, Arithmetic::Reproducible);
            for (row, text) in rows
                .chunks_exact_mut(hidden)
                .zip(out.chunks_exact(3 * hidden))
            {
                // The middle of [CLS], the token, [SEP].
                let token = &text[hidden..2 * hidden];
                row.iter_mut()
                    .zip(token)
                    .for_each(|(r, v)| *r = f64::from(*v));
            }
        }
    };
    // One part of the vocabulary a core: each token's rows are the same
    // bits whichever thread computes them.
    let threads = if cfg!(target_arch = "wasm32") {
        1
    } else {
        std::thread::available_parallelism().map_or(1, usize::from)
    };
    let part = vocab.div_ceil(threads).div_ceil(BATCH) * BATCH;
    if threads == 1 {
        outputs(0, &mut own);
    } else {
        std::thread::scope(|scope| {
            for (i, rows) in own.chunks_mut(part * hidden).enumerate() {
                let outputs = &outputs;
                scope.spawn(move || outputs(i * part, rows));
            }
        });
    }
    let mean = column_mean(&own, hidden);
    for row in own.chunks_exact_mut(hidden) {
        row.iter_mut().zip(&mean).for_each(|(r, m)| *r -= m);
    }
    let (components, variances) = principal_components(&own, hidden, DIMENSIONS);
    let whiten: Vec<f64> = variances
        .iter()
        .map(|v| (v / vocab as f64).max(f64::MIN_POSITIVE).powf(-0.25))
        .collect();
    let zipf_total: f64 = (0..vocab).map(|rank| 1.0 / (rank as f64 + 2.0)).sum();
    let mut rows = Vec::with_capacity(vocab * DIMENSIONS);
    for (rank, row) in own.chunks_exact(hidden).enumerate() {
        let p = 1.0 / (rank as f64 + 2.0) / zipf_total;
        let weight = SIF / (SIF + p);
        rows.extend(
            components
                .chunks_exact(hidden)
                .zip(&whiten)
                .map(|(c, w)| weight * w * c.iter().zip(row).map(|(a, b)| a * b).sum::<f64>()),
        );
    }
    static_table::encode(&rows, vocab)
}

fn column_mean(x: &[f64], width: usize) -> Vec<f64> {
    let mut mean = vec![0.0; width];
    let rows = x.len() / width;
    for row in x.chunks_exact(width) {
        mean.iter_mut().zip(row).for_each(|(m, v)| *m += v);
    }
    mean.iter_mut().for_each(|m| *m /= rows as f64);
    mean
}

/// The `k` eigenvectors of Xᵀ·X with the largest eigenvalues, row after
/// row (`k × width`), and those eigenvalues.
fn principal_components(x: &[f64], width: usize, k: usize) -> (Vec<f64>, Vec<f64>) {
    let mut a = vec![0.0; width * width];
    for row in x.chunks_exact(width) {
        for i in 0..width {
            let ri = row[i];
            for j in i..width {
                a[i * width + j] += ri * row[j];
            }
        }
    }
    for i in 0..width {
        for j in 0..i {
            a[i * width + j] = a[j * width + i];
        }
    }
    let (values, vectors) = jacobi(a, width);
    let mut order: Vec<usize> = (0..width).collect();
    order.sort_by(|&p, &q| values[q].total_cmp(&values[p]).then(p.cmp(&q)));
    let mut out = Vec::with_capacity(k * width);
    for &c in &order[..k] {
        let column: Vec<f64> = (0..width).map(|r| vectors[r * width + c]).collect();
        let largest = column
            .iter()
            .copied()
            .max_by(|p, q| p.abs().total_cmp(&q.abs()))
            .unwrap_or(1.0);
        let sign = if largest < 0.0 { -1.0 } else { 1.0 };
        out.extend(column.iter().map(|v| v * sign));
    }
    (out, order[..k].iter().map(|&c| values[c]).collect())
}

/// Eigenvalues and eigenvectors (columns) of the symmetric `a` (`n × n`),
/// by cyclic Jacobi rotations.
fn jacobi(mut a: Vec<f64>, n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut v = vec![0.0; n * n];
    (0..n).for_each(|i| v[i * n + i] = 1.0);
    let diagonal: f64 = (0..n).map(|i| a[i * n + i] * a[i * n + i]).sum();
    for _ in 0..SWEEPS {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * n + j] * a[i * n + j])
            .sum();
        if off <= diagonal * 1e-22 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                let theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akq) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for k in 0..n {
                    let (vkp, vkq) = (v[k * n + p], v[k * n + q]);
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    let values = (0..n).map(|i| a[i * n + i]).collect();
    (values, v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jacobi_finds_the_eigenvectors_of_a_small_matrix() {
        // [[2, 1], [1, 2]]: eigenvalues 3 (1, 1)/√2 and 1 (1, −1)/√2.
        let (values, vectors) = jacobi(vec![2.0, 1.0, 1.0, 2.0], 2);
        let mut sorted = values.clone();
        sorted.sort_by(f64::total_cmp);
        assert!((sorted[0] - 1.0).abs() < 1e-12 && (sorted[1] - 3.0).abs() < 1e-12);
        let top = if values[0] > values[1] { 0 } else { 1 };
        let (x, y) = (vectors[top], vectors[2 + top]);
        assert!((x.abs() - y.abs()).abs() < 1e-12 && x * y > 0.0);
    }
}
