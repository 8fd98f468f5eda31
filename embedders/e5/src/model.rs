//! The encoder multilingual-e5-small is (BERT's, as XLM-RoBERTa configures
//! it): 384 hidden values, 12 layers of 12 heads, an FFN of 1,536 with GELU
//! (erf form), LayerNorm, positions up to 512 (the file's table starts at
//! XLM-RoBERTa's first position, so positions count from 0 here). The
//! layers' 4-bit weights are widened to f32 at load and run by
//! memdoc-bert's `Encoder`, each product's input rounded to 8 bits a block
//! as the file's own engine rounds it (`Activations::Int8`); the word table
//! stays in 4 bits.

use memdoc_bert::{Activations, Arithmetic, Encoder, Layer, Linear, Norm, FFN, HEADS, HIDDEN};

use crate::file::{Layout, Tensor};
use crate::quant::{dequantize, dequantize_row};
use crate::Error;

pub struct Model {
    /// The word embeddings' 4-bit rows (the file's bytes, the rest
    /// dropped once the layers are read).
    words: Vec<u8>,
    encoder: Encoder,
    vocabulary: usize,
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

impl Model {
    pub fn load(mut bytes: Vec<u8>, layout: &Layout) -> Result<Self, Error> {
        let h = &layout.header;
        // Three positions at least: `<s>`, a piece, `</s>`.
        if h.hidden != HIDDEN || h.heads != HEADS || h.ffn != FFN || h.positions < 3 {
            return Err(Error::Weights(format!(
                "{} hidden values, {} heads, an FFN of {}, {} positions",
                h.hidden, h.heads, h.ffn, h.positions
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
                weight: floats(&format!("{prefix}.w"), HIDDEN)?,
                bias: floats(&format!("{prefix}.b"), HIDDEN)?,
            })
        };
        let linear = |prefix: &str, outputs: usize, inputs: usize| -> Result<Linear, Error> {
            let t = tensor(&format!("{prefix}.w"), true, outputs * inputs)?;
            let bias = floats(&format!("{prefix}.b"), outputs)?;
            let weight = dequantize(&bytes[t.start..t.end]);
            Ok(Linear::from_torch(&weight, bias, outputs, inputs))
        };
        let mut layers = Vec::with_capacity(h.layers);
        for l in 0..h.layers {
            layers.push(Layer {
                qkv: Linear::concat(vec![
                    linear(&format!("l{l}.q"), HIDDEN, HIDDEN)?,
                    linear(&format!("l{l}.k"), HIDDEN, HIDDEN)?,
                    linear(&format!("l{l}.v"), HIDDEN, HIDDEN)?,
                ]),
                attention_out: linear(&format!("l{l}.ao"), HIDDEN, HIDDEN)?,
                attention_norm: norm(&format!("l{l}.aln"))?,
                up: linear(&format!("l{l}.fi"), FFN, HIDDEN)?,
                down: linear(&format!("l{l}.fo"), HIDDEN, FFN)?,
                out_norm: norm(&format!("l{l}.oln"))?,
            });
        }
        let encoder = Encoder {
            positions: floats("emb.pos", h.positions * HIDDEN)?,
            token_type: floats("emb.type", HIDDEN)
                .or_else(|_| floats("emb.type", 2 * HIDDEN).map(|t| t[..HIDDEN].to_vec()))?,
            embeddings_norm: norm("emb.ln")?,
            layers,
            eps: h.eps,
            activations: Activations::Int8,
        };
        let words = tensor("emb.word", true, h.vocabulary * HIDDEN)?;
        let words = words.start..words.end;
        // Only the word table is read from now on: moved to the front, the
        // rest dropped, in place (no second copy of the file at once).
        let length = words.len();
        bytes.copy_within(words, 0);
        bytes.truncate(length);
        Ok(Model {
            words: bytes,
            encoder,
            vocabulary: h.vocabulary,
        })
    }

    pub fn vocabulary(&self) -> usize {
        self.vocabulary
    }

    /// The most tokens a window holds, `<s>` and `</s>` included.
    pub fn max_tokens(&self) -> usize {
        self.encoder.max_tokens()
    }

    /// The mean of the last layer's token vectors of each of `items`
    /// (forward passes packed as memdoc-bert's; each item at most
    /// `max_tokens` ids, every id below the vocabulary's size).
    pub fn pooled(&self, items: &[&[u32]]) -> Vec<Vec<f32>> {
        let hidden = self.encoder.forward(
            items,
            |id, row| dequantize_row(&self.words, HIDDEN, id as usize, row),
            Arithmetic::Fast,
        );
        let lengths: Vec<usize> = items.iter().map(|i| i.len()).collect();
        memdoc_bert::mean_pool(&hidden, &lengths)
    }
}
