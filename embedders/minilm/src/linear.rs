//! The dense layers' matrix product, the forward pass's hot loop: blocks of
//! 4 rows × 16 (AVX, natively where the CPU has it) or 8 (WebAssembly's SIMD,
//! built with `+simd128`) columns accumulated in vector registers, each
//! weight loaded once for 4 rows; a portable loop elsewhere. Each output is
//! the bias plus the products added in input order, each rounded (no fused
//! multiply-add), so every path gives the same bits.

/// A dense layer with its weight matrix stored input-major (`[inputs][outputs]`,
/// the transpose of PyTorch's `[outputs][inputs]`), so that the inner loop
/// runs along contiguous outputs.
pub struct Linear {
    weight: Vec<f32>,
    bias: Vec<f32>,
    inputs: usize,
    outputs: usize,
}

/// Rows of the input taken together: each weight loaded serves this many.
const ROWS: usize = 4;
/// Outputs accumulated together by the portable loop.
const COLS: usize = 8;

impl Linear {
    /// From PyTorch's layout, `[outputs][inputs]`.
    pub fn from_torch(weight: &[f32], bias: Vec<f32>, outputs: usize, inputs: usize) -> Self {
        let mut transposed = vec![0.0; weight.len()];
        for o in 0..outputs {
            for i in 0..inputs {
                transposed[i * outputs + o] = weight[o * inputs + i];
            }
        }
        Linear {
            weight: transposed,
            bias,
            inputs,
            outputs,
        }
    }

    /// Several layers over the same input as one (query, key and value).
    pub fn concat(parts: Vec<Linear>) -> Self {
        let inputs = parts[0].inputs;
        let outputs = parts.iter().map(|p| p.outputs).sum();
        let mut weight = Vec::with_capacity(inputs * outputs);
        for i in 0..inputs {
            for p in &parts {
                weight.extend_from_slice(&p.weight[i * p.outputs..(i + 1) * p.outputs]);
            }
        }
        let bias = parts.iter().flat_map(|p| p.bias.iter().copied()).collect();
        Linear {
            weight,
            bias,
            inputs,
            outputs,
        }
    }

    /// `x · W + b` for `x` of `rows` rows.
    pub fn forward(&self, x: &[f32], rows: usize) -> Vec<f32> {
        debug_assert_eq!(x.len(), rows * self.inputs);
        let mut y = vec![0.0f32; rows * self.outputs];
        let mut r0 = 0;
        while r0 < rows {
            match rows - r0 {
                1 => self.rows::<1>(x, r0, &mut y),
                2 => self.rows::<2>(x, r0, &mut y),
                3 => self.rows::<3>(x, r0, &mut y),
                _ => self.rows::<ROWS>(x, r0, &mut y),
            }
            r0 += ROWS;
        }
        y
    }

    /// R rows of outputs (R ≤ ROWS): explicit vector code where there is
    /// some (AVX, WebAssembly SIMD), the portable loop elsewhere.
    fn rows<const R: usize>(&self, x: &[f32], r0: usize, y: &mut [f32]) {
        let n = self.inputs;
        let xs: [&[f32]; R] = std::array::from_fn(|r| &x[(r0 + r) * n..(r0 + r + 1) * n]);
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx") {
            // SAFETY: the CPU has AVX.
            return unsafe { self.rows_avx(xs, r0, y) };
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return self.rows_simd128(xs, r0, y);
        #[allow(unreachable_code)]
        self.portable(xs, r0, y);
    }

    /// 16 columns at a time in two 8-lane registers per row.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn rows_avx<const R: usize>(&self, xs: [&[f32]; R], r0: usize, y: &mut [f32]) {
        use std::arch::x86_64::*;
        let (n, m) = (self.inputs, self.outputs);
        let mut c0 = 0;
        while c0 + 16 <= m {
            let b = self.bias.as_ptr().add(c0);
            let mut acc = [[_mm256_loadu_ps(b), _mm256_loadu_ps(b.add(8))]; R];
            for k in 0..n {
                let w = self.weight[k * m + c0..k * m + c0 + 16].as_ptr();
                let (w0, w1) = (_mm256_loadu_ps(w), _mm256_loadu_ps(w.add(8)));
                for (row, x) in acc.iter_mut().zip(&xs) {
                    let a = _mm256_set1_ps(x[k]);
                    row[0] = _mm256_add_ps(row[0], _mm256_mul_ps(a, w0));
                    row[1] = _mm256_add_ps(row[1], _mm256_mul_ps(a, w1));
                }
            }
            for (r, row) in acc.iter().enumerate() {
                let out = y[(r0 + r) * m + c0..(r0 + r) * m + c0 + 16].as_mut_ptr();
                _mm256_storeu_ps(out, row[0]);
                _mm256_storeu_ps(out.add(8), row[1]);
            }
            c0 += 16;
        }
        self.rest(&xs, r0, c0, y);
    }

    /// 8 columns at a time in two 4-lane registers per row.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn rows_simd128<const R: usize>(&self, xs: [&[f32]; R], r0: usize, y: &mut [f32]) {
        use std::arch::wasm32::*;
        let (n, m) = (self.inputs, self.outputs);
        let load = |s: &[f32]| f32x4(s[0], s[1], s[2], s[3]);
        let mut c0 = 0;
        while c0 + 8 <= m {
            let mut acc = [[load(&self.bias[c0..]), load(&self.bias[c0 + 4..])]; R];
            for k in 0..n {
                let w = &self.weight[k * m + c0..k * m + c0 + 8];
                // SAFETY: w holds 8 values.
                let (w0, w1) = unsafe {
                    (
                        v128_load(w.as_ptr().cast()),
                        v128_load(w[4..].as_ptr().cast()),
                    )
                };
                for (row, x) in acc.iter_mut().zip(&xs) {
                    let a = f32x4_splat(x[k]);
                    row[0] = f32x4_add(row[0], f32x4_mul(a, w0));
                    row[1] = f32x4_add(row[1], f32x4_mul(a, w1));
                }
            }
            for (r, row) in acc.iter().enumerate() {
                let out = &mut y[(r0 + r) * m + c0..(r0 + r) * m + c0 + 8];
                // SAFETY: out holds 8 values.
                unsafe {
                    v128_store(out.as_mut_ptr().cast(), row[0]);
                    v128_store(out[4..].as_mut_ptr().cast(), row[1]);
                }
            }
            c0 += 8;
        }
        self.rest(&xs, r0, c0, y);
    }

    /// The columns from `c0` on, one at a time (none for this model's layers).
    fn rest(&self, xs: &[&[f32]], r0: usize, c0: usize, y: &mut [f32]) {
        let m = self.outputs;
        for (r, x) in xs.iter().enumerate() {
            for c in c0..m {
                let mut sum = self.bias[c];
                for (k, a) in x.iter().enumerate() {
                    sum += a * self.weight[k * m + c];
                }
                y[(r0 + r) * m + c] = sum;
            }
        }
    }

    /// The portable loop: COLS columns at a time.
    fn portable<const R: usize>(&self, xs: [&[f32]; R], r0: usize, y: &mut [f32]) {
        let m = self.outputs;
        let mut c0 = 0;
        while c0 + COLS <= m {
            let mut acc = [[0.0f32; COLS]; R];
            for row in acc.iter_mut() {
                row.copy_from_slice(&self.bias[c0..c0 + COLS]);
            }
            for (k, weights) in self.weight.chunks_exact(m).enumerate() {
                let w: &[f32; COLS] = weights[c0..c0 + COLS].try_into().expect("COLS values");
                for (row, x) in acc.iter_mut().zip(&xs) {
                    let a = x[k];
                    for (o, w) in row.iter_mut().zip(w) {
                        *o += a * w;
                    }
                }
            }
            for (r, row) in acc.iter().enumerate() {
                y[(r0 + r) * m + c0..(r0 + r) * m + c0 + COLS].copy_from_slice(row);
            }
            c0 += COLS;
        }
        self.rest(&xs, r0, c0, y);
    }
}
