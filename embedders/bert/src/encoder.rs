//! The encoder's layers (BERT's: self-attention, then a feed-forward layer
//! with GELU, erf form, each followed by the residual and LayerNorm) over
//! the tokens of several texts packed one after the other, with no padding:
//! every product takes all the rows together; attention stays within each
//! text, as a block-diagonal mask would keep it. Each text's rows are what
//! it alone would give, to the bit.

use crate::linear::Linear;
use crate::{approx, Arithmetic, HEAD, HEADS, HIDDEN};

/// A LayerNorm's scale and shift (`HIDDEN` values each).
pub struct Norm {
    pub weight: Vec<f32>,
    pub bias: Vec<f32>,
}

/// One layer's weights.
pub struct Layer {
    /// Query, key and value as one product (`Linear::concat`).
    pub qkv: Linear,
    pub attention_out: Linear,
    pub attention_norm: Norm,
    pub up: Linear,
    pub down: Linear,
    pub out_norm: Norm,
}

/// What each dense layer multiplies its weights with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activations {
    /// The values as they are.
    F32,
    /// Each block of 32 values rounded to one of 255 steps of its largest
    /// magnitude (ties to even), as the 4-bit model's own engine multiplies
    /// 8-bit activations with its weights: its vectors are the model's.
    Int8,
}

/// The encoder: the embeddings' positions and norm, and its layers.
pub struct Encoder {
    /// `HIDDEN` values per position; a text has at most as many tokens.
    pub positions: Vec<f32>,
    /// The first token type's row (every token is of that type).
    pub token_type: Vec<f32>,
    pub embeddings_norm: Norm,
    pub layers: Vec<Layer>,
    /// LayerNorm's ε.
    pub eps: f32,
    pub activations: Activations,
}

impl Encoder {
    /// The most tokens a text may have.
    pub fn max_tokens(&self) -> usize {
        self.positions.len() / HIDDEN
    }

    /// The last layer's vectors, one row of `HIDDEN` per token, of `items`
    /// (each of at most `max_tokens` tokens) packed together. `word` writes
    /// a token's embedding (`HIDDEN` values) for its id.
    pub fn forward(
        &self,
        items: &[&[u32]],
        word: impl Fn(u32, &mut [f32]),
        arithmetic: Arithmetic,
    ) -> Vec<f32> {
        let lengths: Vec<usize> = items
            .iter()
            .map(|ids| ids.len().min(self.max_tokens()))
            .collect();
        let n: usize = lengths.iter().sum();
        let mut x = Vec::with_capacity(n * HIDDEN);
        let mut row = [0.0f32; HIDDEN];
        for (ids, &length) in items.iter().zip(&lengths) {
            for (position, &id) in ids[..length].iter().enumerate() {
                word(id, &mut row);
                let pos = &self.positions[position * HIDDEN..][..HIDDEN];
                x.extend((0..HIDDEN).map(|i| row[i] + pos[i] + self.token_type[i]));
            }
        }
        self.layer_norm(&mut x, &self.embeddings_norm);
        let mut input = Vec::new();
        for layer in &self.layers {
            let qkv = layer.qkv.forward(self.input(&x, &mut input), n, arithmetic);
            let context = attention(&qkv, &lengths, arithmetic);
            let mut attended =
                layer
                    .attention_out
                    .forward(self.input(&context, &mut input), n, arithmetic);
            add(&mut attended, &x);
            self.layer_norm(&mut attended, &layer.attention_norm);
            let mut inner = layer
                .up
                .forward(self.input(&attended, &mut input), n, arithmetic);
            gelu(&mut inner, arithmetic);
            let mut out = layer
                .down
                .forward(self.input(&inner, &mut input), n, arithmetic);
            add(&mut out, &attended);
            self.layer_norm(&mut out, &layer.out_norm);
            x = out;
        }
        x
    }

    /// What a dense layer multiplies for `x`: `x` itself, or its 8-bit
    /// rounding written into `scratch`.
    fn input<'a>(&self, x: &'a [f32], scratch: &'a mut Vec<f32>) -> &'a [f32] {
        match self.activations {
            Activations::F32 => x,
            Activations::Int8 => {
                scratch.clear();
                for block in x.chunks_exact(32) {
                    let max = block.iter().fold(0.0f32, |m, v| m.max(v.abs()));
                    let d = max / 127.0;
                    let inverse = if d > 0.0 { 1.0 / d } else { 0.0 };
                    // Adding and taking away 1.5 · 2^23 rounds to a whole
                    // number, ties to even (what `round_ties_even` gives for
                    // these values, at most 127 in magnitude), in a form
                    // that vectorises rather than a call per value.
                    const ROUND: f32 = 12_582_912.0;
                    scratch.extend(block.iter().map(|v| {
                        let step = ((v * inverse).clamp(-128.0, 127.0) + ROUND) - ROUND;
                        step * d
                    }));
                }
                scratch
            }
        }
    }

    fn layer_norm(&self, x: &mut [f32], norm: &Norm) {
        for row in x.chunks_exact_mut(HIDDEN) {
            let mean = row.iter().sum::<f32>() / HIDDEN as f32;
            let variance = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / HIDDEN as f32;
            let inv = 1.0 / (variance + self.eps).sqrt();
            for ((v, w), b) in row.iter_mut().zip(&norm.weight).zip(&norm.bias) {
                *v = (*v - mean) * inv * w + b;
            }
        }
    }
}

/// Softmax(Q·Kᵀ/√32)·V per head, within each text of `lengths` tokens;
/// every token attends to every token of its text. The keys are
/// transposed first, so that each score row is built by adding along
/// contiguous values (which vectorises) in the same order as a dot product
/// would.
fn attention(qkv: &[f32], lengths: &[usize], arithmetic: Arithmetic) -> Vec<f32> {
    let width = 3 * HIDDEN;
    let rows: usize = lengths.iter().sum();
    let longest = lengths.iter().copied().max().unwrap_or(0);
    let scale = 1.0 / (HEAD as f32).sqrt();
    let mut context = vec![0.0f32; rows * HIDDEN];
    let mut scores = vec![0.0f32; longest];
    let mut keys = vec![0.0f32; HEAD * longest];
    let mut first = 0;
    for &n in lengths {
        let qkv = &qkv[first * width..][..n * width];
        let context = &mut context[first * HIDDEN..][..n * HIDDEN];
        let scores = &mut scores[..n];
        let keys = &mut keys[..HEAD * n];
        first += n;
        for h in 0..HEADS {
            let (qo, ko, vo) = (h * HEAD, HIDDEN + h * HEAD, 2 * HIDDEN + h * HEAD);
            for j in 0..n {
                for d in 0..HEAD {
                    keys[d * n + j] = qkv[j * width + ko + d];
                }
            }
            for i in 0..n {
                let q = &qkv[i * width + qo..][..HEAD];
                scores.fill(0.0);
                for (a, column) in q.iter().zip(keys.chunks_exact(n)) {
                    for (s, k) in scores.iter_mut().zip(column) {
                        *s += a * k;
                    }
                }
                let mut max = f32::NEG_INFINITY;
                for s in scores.iter_mut() {
                    *s *= scale;
                    max = max.max(*s);
                }
                scores.iter_mut().for_each(|s| *s -= max);
                match arithmetic {
                    Arithmetic::Reproducible => scores.iter_mut().for_each(|s| *s = libm::expf(*s)),
                    Arithmetic::Fast => approx::exp_nonpositive(scores),
                }
                let total: f32 = scores.iter().sum();
                let out = &mut context[i * HIDDEN + h * HEAD..][..HEAD];
                for (j, s) in scores.iter().enumerate() {
                    let p = s / total;
                    let v = &qkv[j * width + vo..][..HEAD];
                    for (o, v) in out.iter_mut().zip(v) {
                        *o += p * v;
                    }
                }
            }
        }
    }
    context
}

fn add(x: &mut [f32], residual: &[f32]) {
    x.iter_mut().zip(residual).for_each(|(a, b)| *a += b);
}

/// GELU, erf form (BERT's "gelu"), in place. Reproducibly with libm's erff
/// (and libm's expf in the softmax) rather than the platform's: the same
/// bits natively and in WebAssembly.
fn gelu(values: &mut [f32], arithmetic: Arithmetic) {
    match arithmetic {
        Arithmetic::Reproducible => values
            .iter_mut()
            .for_each(|x| *x = 0.5 * *x * (1.0 + libm::erff(*x * std::f32::consts::FRAC_1_SQRT_2))),
        Arithmetic::Fast => approx::gelu(values),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int8_rounding_is_round_ties_even_of_each_block_s_steps() {
        let encoder = Encoder {
            positions: Vec::new(),
            token_type: Vec::new(),
            embeddings_norm: Norm {
                weight: Vec::new(),
                bias: Vec::new(),
            },
            layers: Vec::new(),
            eps: 1e-12,
            activations: Activations::Int8,
        };
        // A block of zeros, then blocks of values across their range.
        let x: Vec<f32> = (0..32 * 40)
            .map(|i| match i / 32 {
                0 => 0.0,
                b => ((i % 32) as f32 - 15.5) * (b as f32) * 0.37,
            })
            .collect();
        let mut scratch = Vec::new();
        let got = encoder.input(&x, &mut scratch).to_vec();
        let want: Vec<f32> = x
            .chunks_exact(32)
            .flat_map(|block| {
                let d = block.iter().fold(0.0f32, |m, v| m.max(v.abs())) / 127.0;
                let inverse = if d > 0.0 { 1.0 / d } else { 0.0 };
                block
                    .iter()
                    .map(move |v| (v * inverse).round_ties_even().clamp(-128.0, 127.0) * d)
            })
            .collect();
        assert_eq!(got, want);
    }
}
