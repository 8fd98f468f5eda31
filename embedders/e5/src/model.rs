//! The encoder multilingual-e5-small is (BERT's, as XLM-RoBERTa configures
//! it): 384 hidden values, 12 layers of 12 heads, an FFN of 1,536 with GELU
//! (erf form), LayerNorm, positions up to 512 (the file's table starts at
//! XLM-RoBERTa's first position, so positions count from 0 here). Every
//! matrix product is 4-bit weights by 8-bit activations (`quant`); the
//! embeddings, attention, norms and pooling are f32.

use std::ops::Range;

use crate::file::{Layout, Tensor, BLOCK};
use crate::quant::{dequantize_row, Activations, Linear};
use crate::Error;

struct Norm {
    weight: Vec<f32>,
    bias: Vec<f32>,
}

struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: Norm,
    up: Linear,
    down: Linear,
    out_norm: Norm,
}

pub struct Model {
    /// The whole file: the word embeddings are read from it, in 4 bits.
    bytes: Vec<u8>,
    words: Range<usize>,
    positions: Vec<f32>,
    token_type: Vec<f32>,
    embeddings_norm: Norm,
    layers: Vec<Layer>,
    pub hidden: usize,
    heads: usize,
    ffn: usize,
    pub max_tokens: usize,
    vocabulary: usize,
    eps: f32,
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

impl Model {
    pub fn load(bytes: Vec<u8>, layout: &Layout) -> Result<Self, Error> {
        let h = &layout.header;
        let (hidden, ffn) = (h.hidden, h.ffn);
        if hidden == 0
            || hidden % BLOCK != 0
            || ffn % BLOCK != 0
            || h.heads == 0
            || hidden % h.heads != 0
        {
            return Err(Error::Weights(format!(
                "{hidden} hidden values, {} heads, an FFN of {ffn}",
                h.heads
            )));
        }
        let tensor = |name: &str, quantized: bool, elements: usize| -> Result<&Tensor, Error> {
            let t = layout
                .tensors
                .iter()
                .find(|t| t.name == name)
                .ok_or_else(|| Error::Weights(format!("no tensor {name}")))?;
            if t.quantized != quantized || t.elements != elements {
                return Err(Error::Weights(format!("{name}: {} values", t.elements)));
            }
            Ok(t)
        };
        let floats = |name: &str, elements: usize| -> Result<Vec<f32>, Error> {
            let t = tensor(name, false, elements)?;
            Ok(f32s(&bytes[t.start..t.end]))
        };
        let norm = |prefix: &str| -> Result<Norm, Error> {
            Ok(Norm {
                weight: floats(&format!("{prefix}.w"), hidden)?,
                bias: floats(&format!("{prefix}.b"), hidden)?,
            })
        };
        let linear = |prefix: &str, outputs: usize, inputs: usize| -> Result<Linear, Error> {
            let t = tensor(&format!("{prefix}.w"), true, outputs * inputs)?;
            let bias = floats(&format!("{prefix}.b"), outputs)?;
            Ok(Linear::new(&bytes[t.start..t.end], bias, inputs))
        };
        let mut layers = Vec::with_capacity(h.layers);
        for l in 0..h.layers {
            layers.push(Layer {
                query: linear(&format!("l{l}.q"), hidden, hidden)?,
                key: linear(&format!("l{l}.k"), hidden, hidden)?,
                value: linear(&format!("l{l}.v"), hidden, hidden)?,
                attention_out: linear(&format!("l{l}.ao"), hidden, hidden)?,
                attention_norm: norm(&format!("l{l}.aln"))?,
                up: linear(&format!("l{l}.fi"), ffn, hidden)?,
                down: linear(&format!("l{l}.fo"), hidden, ffn)?,
                out_norm: norm(&format!("l{l}.oln"))?,
            });
        }
        let words = tensor("emb.word", true, h.vocabulary * hidden)?;
        let words = words.start..words.end;
        Ok(Model {
            positions: floats("emb.pos", h.positions * hidden)?,
            token_type: floats("emb.type", hidden)
                .or_else(|_| floats("emb.type", 2 * hidden).map(|t| t[..hidden].to_vec()))?,
            embeddings_norm: norm("emb.ln")?,
            layers,
            hidden,
            heads: h.heads,
            ffn,
            max_tokens: h.positions,
            vocabulary: h.vocabulary,
            eps: h.eps,
            words,
            bytes,
        })
    }

    pub fn vocabulary(&self) -> usize {
        self.vocabulary
    }

    /// The mean of the last layer's token vectors for `ids` (at most
    /// `max_tokens`, every id below the vocabulary's size).
    pub fn pooled(&self, ids: &[u32]) -> Vec<f32> {
        let (n, h) = (ids.len(), self.hidden);
        let mut x = vec![0.0f32; n * h];
        for (t, &id) in ids.iter().enumerate() {
            let row = &mut x[t * h..(t + 1) * h];
            dequantize_row(&self.bytes[self.words.clone()], h, id as usize, row);
            let position = &self.positions[t * h..(t + 1) * h];
            for ((r, p), k) in row.iter_mut().zip(position).zip(&self.token_type) {
                *r += p + k;
            }
        }
        layer_norm(&mut x, None, &self.embeddings_norm, h, self.eps);

        let mut q8 = Activations::default();
        let (mut q, mut k, mut v) = (vec![0.0; n * h], vec![0.0; n * h], vec![0.0; n * h]);
        let mut context = vec![0.0f32; n * h];
        let mut projected = vec![0.0f32; n * h];
        let mut middle = vec![0.0f32; n * self.ffn];
        for layer in &self.layers {
            q8.quantize(&x);
            layer.query.forward(&q8, &mut q);
            layer.key.forward(&q8, &mut k);
            layer.value.forward(&q8, &mut v);
            self.attention(&q, &k, &v, n, &mut context);
            q8.quantize(&context);
            layer.attention_out.forward(&q8, &mut projected);
            layer_norm(&mut x, Some(&projected), &layer.attention_norm, h, self.eps);
            q8.quantize(&x);
            layer.up.forward(&q8, &mut middle);
            middle.iter_mut().for_each(|m| *m = gelu(*m));
            q8.quantize(&middle);
            layer.down.forward(&q8, &mut projected);
            layer_norm(&mut x, Some(&projected), &layer.out_norm, h, self.eps);
        }

        let mut out = vec![0.0f32; h];
        for row in x.chunks_exact(h) {
            for (o, r) in out.iter_mut().zip(row) {
                *o += r;
            }
        }
        let inverse = 1.0 / n as f32;
        out.iter_mut().for_each(|o| *o *= inverse);
        out
    }

    /// Scaled dot-product attention over every token, head by head.
    fn attention(&self, q: &[f32], k: &[f32], v: &[f32], n: usize, out: &mut [f32]) {
        let h = self.hidden;
        let size = h / self.heads;
        let scale = 1.0 / (size as f32).sqrt();
        let mut weights = vec![0.0f32; n];
        for t in 0..n {
            for head in 0..self.heads {
                let at = head * size;
                let qh = &q[t * h + at..t * h + at + size];
                let mut max = f32::NEG_INFINITY;
                for (s, w) in weights.iter_mut().enumerate() {
                    let kh = &k[s * h + at..s * h + at + size];
                    let mut d = 0.0f32;
                    for (a, b) in qh.iter().zip(kh) {
                        d += a * b;
                    }
                    *w = d * scale;
                    max = max.max(*w);
                }
                let mut sum = 0.0f32;
                for w in &mut weights {
                    *w = (*w - max).exp();
                    sum += *w;
                }
                let inverse = 1.0 / sum;
                let ch = &mut out[t * h + at..t * h + at + size];
                ch.fill(0.0);
                for (s, w) in weights.iter().enumerate() {
                    let p = w * inverse;
                    let vh = &v[s * h + at..s * h + at + size];
                    for (c, b) in ch.iter_mut().zip(vh) {
                        *c += p * b;
                    }
                }
            }
        }
    }
}

/// `x = LayerNorm(x + y)` row by row (`x` alone without `y`).
fn layer_norm(x: &mut [f32], y: Option<&[f32]>, norm: &Norm, width: usize, eps: f32) {
    for (t, row) in x.chunks_exact_mut(width).enumerate() {
        if let Some(y) = y {
            for (r, a) in row.iter_mut().zip(&y[t * width..(t + 1) * width]) {
                *r += a;
            }
        }
        let mean = row.iter().sum::<f32>() / width as f32;
        let variance = row.iter().map(|r| (r - mean) * (r - mean)).sum::<f32>() / width as f32;
        let inverse = 1.0 / (variance + eps).sqrt();
        for ((r, w), b) in row.iter_mut().zip(&norm.weight).zip(&norm.bias) {
            *r = (*r - mean) * inverse * w + b;
        }
    }
}

fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + libm::erff(x * std::f32::consts::FRAC_1_SQRT_2))
}
