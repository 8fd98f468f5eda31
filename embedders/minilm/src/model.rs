//! BERT's encoder as all-MiniLM-L6-v2 configures it (config.json): 384
//! hidden values, 6 layers, 12 attention heads of 32, an FFN of 1536 with
//! GELU (erf form), LayerNorm ε 1e-12, absolute positions up to 512: read
//! from the safetensors file into memdoc-bert's `Encoder`, which runs it.

use memdoc_bert::{Activations, Encoder, Layer, Linear, Norm, FFN, HIDDEN};

use crate::safetensors::{File, Table};
use crate::{Arithmetic, Error};

const LAYERS: usize = 6;
const POSITIONS: usize = 512;
const EPS: f32 = 1e-12;

pub struct Model {
    /// In the weights file's precision: f16 halves the largest table.
    words: Table,
    encoder: Encoder,
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
            encoder: Encoder {
                positions: file.f32(
                    "embeddings.position_embeddings.weight",
                    &[POSITIONS, HIDDEN],
                )?,
                token_type: token_types[..HIDDEN].to_vec(),
                embeddings_norm: norm("embeddings")?,
                layers,
                eps: EPS,
                activations: Activations::F32,
            },
            vocab,
        })
    }

    pub fn vocab_size(&self) -> usize {
        self.vocab
    }

    /// The last layer's vectors, one row of HIDDEN per token, of several
    /// texts packed together (`Encoder::forward`). Each of `items` holds
    /// at most POSITIONS tokens, each below the vocabulary's size (the
    /// tokenizer's ids, checked when loading).
    pub fn forward(&self, items: &[&[u32]], arithmetic: Arithmetic) -> Vec<f32> {
        self.encoder.forward(
            items,
            |id, row| self.words.row(id as usize, HIDDEN, row),
            arithmetic,
        )
    }
}
