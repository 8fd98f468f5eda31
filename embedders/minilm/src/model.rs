//! BERT's encoder as all-MiniLM-L6-v2 configures it (config.json): 384
//! hidden values, 6 layers, 12 attention heads of 32, an FFN of 1536 with
//! GELU (erf form), LayerNorm ε 1e-12, absolute positions up to 512.

use crate::approx;
use crate::linear::Linear;
use crate::safetensors::{File, Table};
use crate::{Arithmetic, Error};

const HIDDEN: usize = 384;
const LAYERS: usize = 6;
const HEADS: usize = 12;
const HEAD: usize = HIDDEN / HEADS;
const FFN: usize = 1536;
const POSITIONS: usize = 512;
const EPS: f32 = 1e-12;

struct Norm {
    weight: Vec<f32>,
    bias: Vec<f32>,
}

struct Layer {
    qkv: Linear,
    attention_out: Linear,
    attention_norm: Norm,
    up: Linear,
    down: Linear,
    out_norm: Norm,
}

pub struct Model {
    /// In the weights file's precision: f16 halves the largest table.
    words: Table,
    positions: Vec<f32>,
    token_type: Vec<f32>,
    embeddings_norm: Norm,
    layers: Vec<Layer>,
    vocab: usize,
}

/// The tensors the forward pass reads (the pooler and position_ids are not).
pub fn used(name: &str) -> bool {
    name.starts_with("embeddings.") && name != "embeddings.position_ids"
        || name.starts_with("encoder.")
}

impl Model {
    pub fn load(bytes: &[u8]) -> Result<Self, Error> {
        let file = File::parse(bytes)?;
        let (_, word_shape, _) = file.raw("embeddings.word_embeddings.weight")?;
        let vocab = match word_shape[..] {
            [vocab, HIDDEN] => vocab,
            _ => {
                return Err(Error::Weights(format!(
                    "word embeddings of shape {word_shape:?}"
                )))
            }
        };
        let norm = |prefix: &str| -> Result<Norm, Error> {
            Ok(Norm {
                weight: file.f32(&format!("{prefix}.LayerNorm.weight"), &[HIDDEN])?,
                bias: file.f32(&format!("{prefix}.LayerNorm.bias"), &[HIDDEN])?,
            })
        };
        let linear = |name: &str, outputs: usize, inputs: usize| -> Result<Linear, Error> {
            let weight = file.f32(&format!("{name}.weight"), &[outputs, inputs])?;
            let bias = file.f32(&format!("{name}.bias"), &[outputs])?;
            Ok(Linear::from_torch(&weight, bias, outputs, inputs))
        };
        let mut layers = Vec::with_capacity(LAYERS);
        for l in 0..LAYERS {
            let p = format!("encoder.layer.{l}");
            layers.push(Layer {
                qkv: Linear::concat(vec![
                    linear(&format!("{p}.attention.self.query"), HIDDEN, HIDDEN)?,
                    linear(&format!("{p}.attention.self.key"), HIDDEN, HIDDEN)?,
                    linear(&format!("{p}.attention.self.value"), HIDDEN, HIDDEN)?,
                ]),
                attention_out: linear(&format!("{p}.attention.output.dense"), HIDDEN, HIDDEN)?,
                attention_norm: norm(&format!("{p}.attention.output"))?,
                up: linear(&format!("{p}.intermediate.dense"), FFN, HIDDEN)?,
                down: linear(&format!("{p}.output.dense"), HIDDEN, FFN)?,
                out_norm: norm(&format!("{p}.output"))?,
            });
        }
        let token_types = file.f32("embeddings.token_type_embeddings.weight", &[2, HIDDEN])?;
        Ok(Model {
            words: file.table("embeddings.word_embeddings.weight", &[vocab, HIDDEN])?,
            positions: file.f32(
                "embeddings.position_embeddings.weight",
                &[POSITIONS, HIDDEN],
            )?,
            token_type: token_types[..HIDDEN].to_vec(),
            embeddings_norm: norm("embeddings")?,
            layers,
            vocab,
        })
    }

    pub fn vocab_size(&self) -> usize {
        self.vocab
    }

    /// The last layer's vectors, one row of HIDDEN per token, of several
    /// texts at once: their tokens packed one text after the other, with
    /// no padding (every product takes all the rows together; attention
    /// stays within each text, as a block-diagonal mask would keep it).
    /// Each text's rows are what it alone would give, to the bit. Each of
    /// `items` holds at most POSITIONS tokens, each below the vocabulary's
    /// size (the tokenizer's ids, checked when loading).
    pub fn forward(&self, items: &[&[u32]], arithmetic: Arithmetic) -> Vec<f32> {
        let lengths: Vec<usize> = items.iter().map(|ids| ids.len().min(POSITIONS)).collect();
        let n: usize = lengths.iter().sum();
        let mut x = Vec::with_capacity(n * HIDDEN);
        let mut word = [0.0f32; HIDDEN];
        for (ids, &length) in items.iter().zip(&lengths) {
            for (position, &id) in ids[..length].iter().enumerate() {
                self.words.row(id as usize, HIDDEN, &mut word);
                let pos = &self.positions[position * HIDDEN..][..HIDDEN];
                x.extend((0..HIDDEN).map(|i| word[i] + pos[i] + self.token_type[i]));
            }
        }
        layer_norm(&mut x, &self.embeddings_norm);
        for layer in &self.layers {
            let qkv = layer.qkv.forward(&x, n, arithmetic);
            let context = attention(&qkv, &lengths, arithmetic);
            let mut attended = layer.attention_out.forward(&context, n, arithmetic);
            add(&mut attended, &x);
            layer_norm(&mut attended, &layer.attention_norm);
            let mut inner = layer.up.forward(&attended, n, arithmetic);
            gelu(&mut inner, arithmetic);
            let mut out = layer.down.forward(&inner, n, arithmetic);
            add(&mut out, &attended);
            layer_norm(&mut out, &layer.out_norm);
            x = out;
        }
        x
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

fn layer_norm(x: &mut [f32], norm: &Norm) {
    for row in x.chunks_exact_mut(HIDDEN) {
        let mean = row.iter().sum::<f32>() / HIDDEN as f32;
        let variance = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / HIDDEN as f32;
        let inv = 1.0 / (variance + EPS).sqrt();
        for ((v, w), b) in row.iter_mut().zip(&norm.weight).zip(&norm.bias) {
            *v = (*v - mean) * inv * w + b;
        }
    }
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
