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

const ROWS: usize = 4;
const COLS: usize = 64;

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
        let (n, m) = (self.inputs, self.outputs);
        debug_assert_eq!(x.len(), rows * n);
        let mut y = vec![0.0f32; rows * m];
        for r0 in (0..rows).step_by(ROWS) {
            let r_count = ROWS.min(rows - r0);
            for c0 in (0..m).step_by(COLS) {
                let c_count = COLS.min(m - c0);
                if r_count == ROWS && c_count == COLS {
                    self.block(x, r0, c0, &mut y);
                } else {
                    self.edge(x, r0, r_count, c0, c_count, &mut y);
                }
            }
        }
        y
    }

    /// A full block of ROWS × COLS outputs.
    #[inline(always)]
    fn block(&self, x: &[f32], r0: usize, c0: usize, y: &mut [f32]) {
        let (n, m) = (self.inputs, self.outputs);
        let mut acc = [[0.0f32; COLS]; ROWS];
        for row in acc.iter_mut() {
            row.copy_from_slice(&self.bias[c0..c0 + COLS]);
        }
        let xs: [&[f32]; ROWS] = std::array::from_fn(|r| &x[(r0 + r) * n..(r0 + r + 1) * n]);
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
    }

    /// The blocks at the bottom and right edges.
    fn edge(&self, x: &[f32], r0: usize, r_count: usize, c0: usize, c_count: usize, y: &mut [f32]) {
        let (n, m) = (self.inputs, self.outputs);
        for r in r0..r0 + r_count {
            let out = &mut y[r * m + c0..r * m + c0 + c_count];
            out.copy_from_slice(&self.bias[c0..c0 + c_count]);
            for k in 0..n {
                let a = x[r * n + k];
                let w = &self.weight[k * m + c0..k * m + c0 + c_count];
                for (o, w) in out.iter_mut().zip(w) {
                    *o += a * w;
                }
            }
        }
    }
}
