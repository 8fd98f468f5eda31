//! The dense layers' matrix product, the forward pass's hot loop: blocks of
//! rows × columns accumulated in a small local array the compiler keeps in
//! vector registers (SSE/AVX natively, SIMD128 in WebAssembly).

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
/// Outputs accumulated together: ROWS × COLS sums stay in vector registers
/// (8 of SSE's or WebAssembly's 4-lane registers).
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

    /// R rows of outputs (R ≤ ROWS), COLS columns at a time.
    fn rows<const R: usize>(&self, x: &[f32], r0: usize, y: &mut [f32]) {
        let (n, m) = (self.inputs, self.outputs);
        let xs: [&[f32]; R] = std::array::from_fn(|r| &x[(r0 + r) * n..(r0 + r + 1) * n]);
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
        // Every layer's width is a multiple of COLS; any other is finished here.
        for (r, x) in xs.iter().enumerate() {
            for c in c0..m {
                let sum: f32 = (0..n).map(|k| x[k] * self.weight[k * m + c]).sum();
                y[(r0 + r) * m + c] = self.bias[c] + sum;
            }
        }
    }
}
