//! The file's 4-bit weights in f32. A block of 32 values is an f16 scale
//! and 16 bytes of nibbles, each value `(nibble − 8) × scale`: exact in
//! f32. The layers' matrices are widened once at load, so that memdoc-bert's
//! f32 products (the ones MiniLM runs, with the CPU's widest registers)
//! multiply them; the 250,002-row word table stays in 4 bits and a row is
//! widened when a token looks it up.

use crate::file::{BLOCK, BLOCK_BYTES};

/// An f16 scale's value.
fn scale(bytes: &[u8]) -> f32 {
    half::f16::from_le_bytes([bytes[0], bytes[1]]).to_f32()
}

/// The values of `blocks` (whole 4-bit blocks) into `out`, 32 a block:
/// byte j of a block holds value j in its low nibble and value j + 16 in
/// its high one.
fn widen(blocks: &[u8], out: &mut [f32]) {
    for (chunk, out) in blocks
        .chunks_exact(BLOCK_BYTES)
        .zip(out.chunks_exact_mut(BLOCK))
    {
        let d = scale(chunk);
        for (j, &b) in chunk[2..].iter().enumerate() {
            out[j] = f32::from((b & 0x0F) as i8 - 8) * d;
            out[j + 16] = f32::from((b >> 4) as i8 - 8) * d;
        }
    }
}

/// Row `row` of a 4-bit matrix with `columns` values a row, in f32.
pub fn dequantize_row(bytes: &[u8], columns: usize, row: usize, out: &mut [f32]) {
    let row_bytes = columns / BLOCK * BLOCK_BYTES;
    widen(&bytes[row * row_bytes..][..row_bytes], &mut out[..columns]);
}

/// A whole 4-bit matrix in f32, in the file's order.
pub fn dequantize(bytes: &[u8]) -> Vec<f32> {
    let mut out = vec![0.0f32; bytes.len() / BLOCK_BYTES * BLOCK];
    widen(bytes, &mut out);
    out
}
