//! The 4-bit weights and the 8-bit activations they multiply, as the model
//! file's reference engine computes them: each block of 32 activations is
//! scaled to integers in −127..=127 by its largest magnitude (ties to
//! even), multiplied with the weights' 4-bit integers exactly, and the
//! integer sum scaled by both blocks' scales. Weights are unpacked once at
//! load, one signed byte per value (`nibble − 8`), so the inner loop is a
//! plain integer dot product the compiler vectorises.

use crate::file::{BLOCK, BLOCK_BYTES};

/// An f16 scale's value.
fn scale(bytes: &[u8]) -> f32 {
    half::f16::from_le_bytes([bytes[0], bytes[1]]).to_f32()
}

/// One 4-bit block's 32 values as integers −8..=7 (byte j holds value j in
/// its low nibble and value j + 16 in its high one).
fn unpack(block: &[u8], out: &mut [i8]) {
    for (j, &b) in block[2..BLOCK_BYTES].iter().enumerate() {
        out[j] = (b & 0x0F) as i8 - 8;
        out[j + 16] = (b >> 4) as i8 - 8;
    }
}

/// Row `row` of a 4-bit matrix with `columns` values a row, in f32.
pub fn dequantize_row(bytes: &[u8], columns: usize, row: usize, out: &mut [f32]) {
    let blocks = columns / BLOCK;
    let start = row * blocks * BLOCK_BYTES;
    let mut values = [0i8; BLOCK];
    for (b, chunk) in bytes[start..start + blocks * BLOCK_BYTES]
        .chunks_exact(BLOCK_BYTES)
        .enumerate()
    {
        unpack(chunk, &mut values);
        let d = scale(chunk);
        for (o, &v) in out[b * BLOCK..(b + 1) * BLOCK].iter_mut().zip(&values) {
            *o = f32::from(v) * d;
        }
    }
}

/// A linear layer `y = W x + bias` with 4-bit `W` (`outputs` rows of
/// `inputs` values).
pub struct Linear {
    values: Vec<i8>,
    scales: Vec<f32>,
    bias: Vec<f32>,
    inputs: usize,
}

impl Linear {
    pub fn new(weight: &[u8], bias: Vec<f32>, inputs: usize) -> Self {
        let blocks = weight.len() / BLOCK_BYTES;
        let mut values = vec![0i8; blocks * BLOCK];
        let mut scales = Vec::with_capacity(blocks);
        for (chunk, out) in weight
            .chunks_exact(BLOCK_BYTES)
            .zip(values.chunks_exact_mut(BLOCK))
        {
            unpack(chunk, out);
            scales.push(scale(chunk));
        }
        Linear {
            values,
            scales,
            bias,
            inputs,
        }
    }

    /// `y` (tokens × outputs) for the quantised activations `x`.
    pub fn forward(&self, x: &Activations, y: &mut [f32]) {
        let outputs = self.bias.len();
        let blocks = self.inputs / BLOCK;
        let tokens = x.scales.len() / blocks;
        for (r, (row, row_scales)) in self
            .values
            .chunks_exact(self.inputs)
            .zip(self.scales.chunks_exact(blocks))
            .enumerate()
        {
            for t in 0..tokens {
                let a = &x.values[t * self.inputs..(t + 1) * self.inputs];
                let a_scales = &x.scales[t * blocks..(t + 1) * blocks];
                let mut acc = 0.0f32;
                for b in 0..blocks {
                    let range = b * BLOCK..(b + 1) * BLOCK;
                    let sum = dot(&row[range.clone()], &a[range]);
                    acc += row_scales[b] * a_scales[b] * sum as f32;
                }
                y[t * outputs + r] = self.bias[r] + acc;
            }
        }
    }
}

#[inline]
fn dot(w: &[i8], a: &[i8]) -> i32 {
    w.iter()
        .zip(a)
        .map(|(&w, &a)| i32::from(w) * i32::from(a))
        .sum()
}

/// Activations in 8 bits: per block of 32, integers and a scale.
#[derive(Default)]
pub struct Activations {
    values: Vec<i8>,
    scales: Vec<f32>,
}

impl Activations {
    /// Quantise `x` (rows of `width` values) in place of what was held.
    pub fn quantize(&mut self, x: &[f32]) {
        self.values.clear();
        self.scales.clear();
        for block in x.chunks_exact(BLOCK) {
            let max = block.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            let d = max / 127.0;
            let inverse = if d > 0.0 { 1.0 / d } else { 0.0 };
            self.scales.push(d);
            self.values.extend(
                block
                    .iter()
                    .map(|v| (v * inverse).round_ties_even().clamp(-128.0, 127.0) as i8),
            );
        }
    }
}
