//! The static embedder: one vector per token of MiniLM's vocabulary
//! (`distill` makes the table), and a text's vector the mean of its
//! tokens' rows (each already weighted by SIF), scaled to length 1. The
//! same WordPiece tokenizer as MiniLM's; no [CLS] or [SEP].
//!
//! The table's bytes: `MAGIC`, the number of rows and of dimensions (u32,
//! little-endian), one f32 scale per row (little-endian), then the rows, each
//! `DIMENSIONS` int8 values; a row's values are its int8 values times its
//! scale.

use crate::tokenizer::Tokenizer;
use crate::Error;

/// The model's name, as embedders report it (`id`).
pub const ID: &str = "all-MiniLM-L6-v2-static-256-v2";
/// The length of each vector.
pub const DIMENSIONS: usize = 256;
/// The table's first bytes.
const MAGIC: &[u8; 8] = b"memdocS1";
/// Tokens of one text at most (far more than any memory item has).
const MAX_TOKENS: usize = 1 << 20;

/// The table's bytes from rows of f64 (`rows × DIMENSIONS`).
pub(crate) fn encode(values: &[f64], rows: usize) -> Vec<u8> {
    let mut scales = Vec::with_capacity(rows);
    let mut quantised = Vec::with_capacity(values.len());
    for row in values.chunks_exact(DIMENSIONS) {
        let largest = row.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let scale = if largest > 0.0 { largest / 127.0 } else { 1.0 };
        scales.push(scale as f32);
        // Rounded, and within −127..=127 by construction.
        #[allow(clippy::cast_possible_truncation)]
        quantised.extend(row.iter().map(|v| (v / scale).round() as i8));
    }
    let mut out = Vec::with_capacity(16 + rows * (4 + DIMENSIONS));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&u32::try_from(rows).expect("rows").to_le_bytes());
    out.extend_from_slice(&u32::try_from(DIMENSIONS).expect("dimensions").to_le_bytes());
    for s in &scales {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out.extend(quantised.iter().map(|&q| q.to_le_bytes()[0]));
    out
}

/// The static embedder, loaded once.
pub struct StaticModel {
    tokenizer: Tokenizer,
    scales: Vec<f32>,
    rows: Vec<i8>,
}

fn bad(message: impl Into<String>) -> Error {
    Error::Table(message.into())
}

impl StaticModel {
    /// The table's bytes and `tokenizer.json`'s text.
    pub fn load(table: &[u8], tokenizer_json: &str) -> Result<Self, Error> {
        let tokenizer = Tokenizer::from_json(tokenizer_json)?;
        let header = table
            .get(..16)
            .ok_or_else(|| bad("shorter than its header"))?;
        if &header[..8] != MAGIC {
            return Err(bad("not a memdoc static table"));
        }
        let word = |at: usize| {
            u32::from_le_bytes(header[at..at + 4].try_into().expect("4 bytes")) as usize
        };
        let (rows, dimensions) = (word(8), word(12));
        if dimensions != DIMENSIONS {
            return Err(bad(format!("{dimensions} dimensions, not {DIMENSIONS}")));
        }
        if rows < tokenizer.vocab_size() {
            return Err(bad(format!(
                "{rows} rows for a vocabulary of {}",
                tokenizer.vocab_size()
            )));
        }
        let body = &table[16..];
        if body.len() != rows * (4 + DIMENSIONS) {
            return Err(bad(format!(
                "{} bytes after the header, not {}",
                body.len(),
                rows * (4 + DIMENSIONS)
            )));
        }
        let (scales, values) = body.split_at(rows * 4);
        let scales = scales
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        let rows = values.iter().map(|&b| i8::from_le_bytes([b])).collect();
        Ok(StaticModel {
            tokenizer,
            scales,
            rows,
        })
    }

    /// The unit-length vector of `text` (`DIMENSIONS` values; all 0 for a
    /// text without tokens).
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let ids = self.tokenizer.encode(text, MAX_TOKENS);
        let mut out = vec![0.0f32; DIMENSIONS];
        for &id in &ids[1..ids.len() - 1] {
            let id = id as usize;
            let scale = self.scales[id];
            let row = &self.rows[id * DIMENSIONS..][..DIMENSIONS];
            out.iter_mut()
                .zip(row)
                .for_each(|(o, &q)| *o += f32::from(q) * scale);
        }
        let norm = out.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
        out.iter_mut().for_each(|o| *o /= norm);
        out
    }
}
