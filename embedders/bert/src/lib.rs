//! BERT's encoder in f32, as memdoc's embedders run it: all-MiniLM-L6-v2
//! (memdoc-minilm, six layers) and multilingual-e5-small (memdoc-e5, twelve
//! layers of the same width, its 4-bit weights widened to f32 at load).
//! The dense layers' products (`linear`), the encoder's layers, attention
//! within each text of a packed batch and the norms (`encoder`), the
//! vectorisable GELU and exp (`approx`), and the grouping of texts into
//! forward passes (`batches`). It does not read weight files or tokenise:
//! each embedder's crate does, and builds an `Encoder` from what it read.

mod approx;
mod encoder;
mod linear;

pub use encoder::{Activations, Encoder, Layer, Norm};
pub use linear::Linear;

/// The hidden values of each token (both models).
pub const HIDDEN: usize = 384;
/// Attention heads of each layer.
pub const HEADS: usize = 12;
/// The values of each head.
pub const HEAD: usize = HIDDEN / HEADS;
/// The feed-forward layer's width.
pub const FFN: usize = 1536;
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
    /// that vectorise. Within float error of `Reproducible`.
    Fast,
}

/// The texts of each forward pass, in order, given each text's tokens: as
/// many as reach `BATCH_TOKENS` tokens.
pub fn batches(lengths: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut batches = Vec::new();
    let mut first = 0;
    while first < lengths.len() {
        let mut end = first;
        let mut tokens = 0;
        while end < lengths.len() && tokens < BATCH_TOKENS {
            tokens += lengths[end];
            end += 1;
        }
        batches.push(first..end);
        first = end;
    }
    batches
}

/// The mean of each text's token vectors in `hidden` (the rows of
/// `lengths` texts one after the other; every token is attended: no
/// padding).
pub fn mean_pool(hidden: &[f32], lengths: &[usize]) -> Vec<Vec<f32>> {
    let mut row = 0;
    let mut means = Vec::with_capacity(lengths.len());
    for &n in lengths {
        let mut out = vec![0.0f32; HIDDEN];
        for token in hidden[row * HIDDEN..][..n * HIDDEN].chunks_exact(HIDDEN) {
            for (o, h) in out.iter_mut().zip(token) {
                *o += h;
            }
        }
        let scale = 1.0 / n as f32;
        out.iter_mut().for_each(|o| *o *= scale);
        means.push(out);
        row += n;
    }
    means
}

/// `pass` of every batch, in order, with the batches shared among
/// `threads` threads (a memory's items are independent; one short question
/// is one pass, which no thread shares). The same results as running them
/// one after the other.
#[cfg(not(target_arch = "wasm32"))]
pub fn parallel<T: Send>(
    batches: &[std::ops::Range<usize>],
    threads: usize,
    pass: impl Fn(std::ops::Range<usize>) -> Vec<T> + Sync,
) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Vec<T>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.clamp(1, batches.len().max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let b = next.fetch_add(1, Ordering::Relaxed);
                        let Some(batch) = batches.get(b) else {
                            return mine;
                        };
                        mine.push((b, pass(batch.clone())));
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
    done.into_iter().flat_map(|(_, results)| results).collect()
}
