//! The dense layers' matrix product, the forward pass's hot loop. The
//! weights are stored in panels of 16 outputs (`[outputs / 16][inputs][16]`):
//! one panel (24 KiB, or 96 KiB for the FFN's second layer) stays in cache
//! while every row of the input (every token of a batch of texts) passes
//! through it, so each weight is read from memory once per batch, not once
//! per token. A block of rows is accumulated in vector registers by one of
//! the kernels below, chosen once per product (`Kernel::pick`) from the
//! arithmetic asked for and the CPU found at run time:
//!
//! - `Arithmetic::Reproducible`: each output is the bias plus the products
//!   added in input order, each rounded (no fused multiply-add), so every
//!   path gives the same bits: 8-lane AVX natively where the CPU has it,
//!   WebAssembly's 4-lane SIMD (built with `+simd128`), a portable loop
//!   elsewhere. The static table's distillation needs those bits.
//! - `Arithmetic::Fast`: fused multiply-add (each product added unrounded),
//!   16 lanes and twelve rows at a time with AVX-512, 8 lanes and six rows
//!   with AVX2 and FMA. WebAssembly's SIMD has no fused multiply-add: its
//!   kernel serves both, four rows at a time, reading them packed side by
//!   side (`pack`), and half a panel at a time, each half stored after the
//!   other (`slot`).

use crate::Arithmetic;

/// Outputs per panel.
const PANEL: usize = 16;

/// How far ahead of the input value it multiplies a kernel asks the CPU to
/// bring the weights into its L2 cache, in inputs (a panel's 16 weights of
/// an input are one 64-byte cache line): 256 lines, 16 KiB. The panels
/// follow each other in memory, so near a panel's end this is the next
/// panel's start. A short text's pass (a question's 14 tokens) reads the
/// layers' 42 MB of f32 weights once and does little with each line, so it
/// waits on memory; the hardware's own prefetcher did not run far enough
/// ahead: 0.79x the question's time, 0.94x eight questions packed together
/// (BENCHMARKS.md).
#[cfg(target_arch = "x86_64")]
const AHEAD: usize = 256;

/// Asks for the cache line `AHEAD` inputs after weight row `w` of a panel.
/// A prefetch never faults: past the last panel it asks for nothing useful
/// and costs nothing.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch(w: &[f32]) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};
    // SAFETY: a prefetch reads nothing the program sees and never faults,
    // whatever the address (`wrapping_add`: it may be past the weights).
    unsafe { _mm_prefetch::<_MM_HINT_T1>(w.as_ptr().wrapping_add(AHEAD * PANEL).cast()) };
}

/// A dense layer, its weights in panels.
pub struct Linear {
    panels: Vec<f32>,
    bias: Vec<f32>,
    inputs: usize,
    outputs: usize,
}

impl Linear {
    /// From PyTorch's layout, `[outputs][inputs]`; `outputs` is a multiple
    /// of 16 (every layer of both models is).
    pub fn from_torch(weight: &[f32], bias: Vec<f32>, outputs: usize, inputs: usize) -> Self {
        assert_eq!(outputs % PANEL, 0, "outputs in whole panels");
        let mut panels = vec![0.0; weight.len()];
        for o in 0..outputs {
            let panel = &mut panels[(o / PANEL) * inputs * PANEL..][..inputs * PANEL];
            for i in 0..inputs {
                panel[slot(inputs, i, o % PANEL)] = weight[o * inputs + i];
            }
        }
        Linear {
            panels,
            bias,
            inputs,
            outputs,
        }
    }

    /// Several layers over the same input as one (query, key and value):
    /// their panels one after the other.
    pub fn concat(parts: Vec<Linear>) -> Self {
        let inputs = parts[0].inputs;
        assert!(parts.iter().all(|p| p.inputs == inputs));
        Linear {
            panels: parts
                .iter()
                .flat_map(|p| p.panels.iter().copied())
                .collect(),
            bias: parts.iter().flat_map(|p| p.bias.iter().copied()).collect(),
            outputs: parts.iter().map(|p| p.outputs).sum(),
            inputs,
        }
    }

    /// `x · W + b` for `x` of `rows` rows.
    pub fn forward(&self, x: &[f32], rows: usize, arithmetic: Arithmetic) -> Vec<f32> {
        let (n, m) = (self.inputs, self.outputs);
        debug_assert_eq!(x.len(), rows * n);
        let kernel = Kernel::pick(arithmetic);
        // The rows in blocks of equal size (14 rows as 7 and 7, not 12 and
        // 2): each weight loaded serves as many rows as it can.
        let blocks = rows.div_ceil(kernel.rows()).max(1);
        let step = rows.div_ceil(blocks);
        let packed;
        let x = if kernel.packs() {
            packed = pack(x, n, rows, step);
            &packed[..]
        } else {
            x
        };
        let mut y = vec![0.0f32; rows * m];
        for (p, panel) in self.panels.chunks_exact(n * PANEL).enumerate() {
            let bias: &[f32; PANEL] = self.bias[p * PANEL..][..PANEL].try_into().expect("a panel");
            let mut r0 = 0;
            while r0 < rows {
                let take = step.min(rows - r0);
                Block {
                    panel,
                    bias,
                    x,
                    n,
                    m,
                    r0,
                    c0: p * PANEL,
                }
                .run(kernel, take, &mut y);
                r0 += take;
            }
        }
        y
    }
}

/// Where weight `i` of a panel's output `o` goes in the panel: `[i][o]`,
/// or for WebAssembly's kernel, which reads half a panel at a time, each
/// half after the other (`[o / 8][i][o % 8]`), so that it reads one run of
/// memory.
fn slot(inputs: usize, i: usize, o: usize) -> usize {
    if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        (o / 8) * inputs * 8 + i * 8 + o % 8
    } else {
        i * PANEL + o
    }
}

/// The input with each block of `step` rows (the last may have fewer)
/// interleaved, `[k][row]`: a block's values for one input are side by
/// side, read from one pointer at constant offsets rather than from a
/// pointer per row.
fn pack(x: &[f32], n: usize, rows: usize, step: usize) -> Vec<f32> {
    let mut packed = vec![0.0f32; x.len()];
    let mut r0 = 0;
    while r0 < rows {
        let take = step.min(rows - r0);
        let block = &mut packed[r0 * n..][..take * n];
        for r in 0..take {
            for (k, &v) in x[(r0 + r) * n..][..n].iter().enumerate() {
                block[k * take + r] = v;
            }
        }
        r0 += take;
    }
    packed
}

/// The loop that accumulates a block of rows.
#[derive(Clone, Copy)]
enum Kernel {
    #[cfg_attr(
        any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        ),
        allow(dead_code)
    )]
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx,
    #[cfg(target_arch = "x86_64")]
    Avx2Fma,
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

impl Kernel {
    #[cfg(target_arch = "x86_64")]
    fn pick(arithmetic: Arithmetic) -> Kernel {
        if arithmetic == Arithmetic::Fast {
            if std::is_x86_feature_detected!("avx512f") {
                return Kernel::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                return Kernel::Avx2Fma;
            }
        }
        if std::is_x86_feature_detected!("avx") {
            Kernel::Avx
        } else {
            Kernel::Portable
        }
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn pick(_: Arithmetic) -> Kernel {
        Kernel::Simd128
    }

    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    fn pick(_: Arithmetic) -> Kernel {
        Kernel::Portable
    }

    /// Whether the kernel reads the input packed by blocks (`pack`).
    fn packs(self) -> bool {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if let Kernel::Simd128 = self {
            return true;
        }
        false
    }

    /// Rows a block takes: as many as keep the accumulators, the weights
    /// and a broadcast value in the vector registers (16 of AVX2's, 32 of
    /// AVX-512's; 6 rows for 16 registers: fewer were slower,
    /// BENCHMARKS.md). WebAssembly's 4 rows: V8 keeps one of x86's 16
    /// registers for itself and needs one for each product before its
    /// addition, and LLVM loads every row's broadcast value before the
    /// first product, so 8 accumulators, 2 weights and 4 values are what
    /// fit (5 and 6 rows spilled, and took 1.5x and 1.4x 4 rows' time in Node:
    /// bench/HISTORY.md, "The WebAssembly kernel's shape").
    fn rows(self) -> usize {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => 12,
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => 4,
            _ => 6,
        }
    }
}

/// One panel over rows `r0..r0 + R` of the input.
struct Block<'a> {
    panel: &'a [f32],
    bias: &'a [f32; PANEL],
    x: &'a [f32],
    n: usize,
    m: usize,
    r0: usize,
    c0: usize,
}

impl Block<'_> {
    fn run(&self, kernel: Kernel, rows: usize, y: &mut [f32]) {
        match rows {
            1 => self.rows::<1>(kernel, y),
            2 => self.rows::<2>(kernel, y),
            3 => self.rows::<3>(kernel, y),
            4 => self.rows::<4>(kernel, y),
            5 => self.rows::<5>(kernel, y),
            6 => self.rows::<6>(kernel, y),
            7 => self.rows::<7>(kernel, y),
            8 => self.rows::<8>(kernel, y),
            9 => self.rows::<9>(kernel, y),
            10 => self.rows::<10>(kernel, y),
            11 => self.rows::<11>(kernel, y),
            _ => self.rows::<12>(kernel, y),
        }
    }

    fn rows<const R: usize>(&self, kernel: Kernel, y: &mut [f32]) {
        let xs = || -> [&[f32]; R] {
            std::array::from_fn(|r| &self.x[(self.r0 + r) * self.n..][..self.n])
        };
        let mut out = [[0.0f32; PANEL]; R];
        match kernel {
            Kernel::Portable => self.portable(&xs(), &mut out),
            // SAFETY (each): `Kernel::pick` found the CPU's features.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx => unsafe { self.avx(&xs(), &mut out) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2Fma => unsafe { self.avx2_fma(&xs(), &mut out) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => unsafe { self.avx512(&xs(), &mut out) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => self.simd128(&mut out),
        }
        for (r, row) in out.iter().enumerate() {
            y[(self.r0 + r) * self.m + self.c0..][..PANEL].copy_from_slice(row);
        }
    }

    fn portable<const R: usize>(&self, xs: &[&[f32]; R], out: &mut [[f32; PANEL]; R]) {
        for row in out.iter_mut() {
            *row = *self.bias;
        }
        for (k, w) in self.panel.chunks_exact(PANEL).enumerate() {
            for (row, x) in out.iter_mut().zip(xs) {
                let a = x[k];
                for (o, w) in row.iter_mut().zip(w) {
                    *o += a * w;
                }
            }
        }
    }

    /// Two 8-lane registers per row, multiply then add.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn avx<const R: usize>(&self, xs: &[&[f32]; R], out: &mut [[f32; PANEL]; R]) {
        use std::arch::x86_64::*;
        let b = self.bias.as_ptr();
        let mut acc = [[_mm256_loadu_ps(b), _mm256_loadu_ps(b.add(8))]; R];
        for (k, w) in self.panel.chunks_exact(PANEL).enumerate() {
            prefetch(w);
            let (w0, w1) = (
                _mm256_loadu_ps(w.as_ptr()),
                _mm256_loadu_ps(w.as_ptr().add(8)),
            );
            for (row, x) in acc.iter_mut().zip(xs) {
                let a = _mm256_set1_ps(x[k]);
                row[0] = _mm256_add_ps(row[0], _mm256_mul_ps(a, w0));
                row[1] = _mm256_add_ps(row[1], _mm256_mul_ps(a, w1));
            }
        }
        for (row, o) in acc.iter().zip(out.iter_mut()) {
            _mm256_storeu_ps(o.as_mut_ptr(), row[0]);
            _mm256_storeu_ps(o.as_mut_ptr().add(8), row[1]);
        }
    }

    /// Two 8-lane registers per row, fused multiply-add.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn avx2_fma<const R: usize>(&self, xs: &[&[f32]; R], out: &mut [[f32; PANEL]; R]) {
        use std::arch::x86_64::*;
        let b = self.bias.as_ptr();
        let mut acc = [[_mm256_loadu_ps(b), _mm256_loadu_ps(b.add(8))]; R];
        let xs: [*const f32; R] = std::array::from_fn(|r| xs[r].as_ptr());
        for (k, w) in self.panel.chunks_exact(PANEL).enumerate() {
            prefetch(w);
            let (w0, w1) = (
                _mm256_loadu_ps(w.as_ptr()),
                _mm256_loadu_ps(w.as_ptr().add(8)),
            );
            for (row, x) in acc.iter_mut().zip(xs) {
                // SAFETY: k < n, the length of every row.
                let a = _mm256_broadcast_ss(&*x.add(k));
                row[0] = _mm256_fmadd_ps(a, w0, row[0]);
                row[1] = _mm256_fmadd_ps(a, w1, row[1]);
            }
        }
        for (row, o) in acc.iter().zip(out.iter_mut()) {
            _mm256_storeu_ps(o.as_mut_ptr(), row[0]);
            _mm256_storeu_ps(o.as_mut_ptr().add(8), row[1]);
        }
    }

    /// One 16-lane register per row, fused multiply-add.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn avx512<const R: usize>(&self, xs: &[&[f32]; R], out: &mut [[f32; PANEL]; R]) {
        use std::arch::x86_64::*;
        let mut acc = [_mm512_loadu_ps(self.bias.as_ptr()); R];
        let xs: [*const f32; R] = std::array::from_fn(|r| xs[r].as_ptr());
        for (k, w) in self.panel.chunks_exact(PANEL).enumerate() {
            prefetch(w);
            let w = _mm512_loadu_ps(w.as_ptr());
            for (row, x) in acc.iter_mut().zip(xs) {
                // SAFETY: k < n, the length of every row.
                *row = _mm512_fmadd_ps(_mm512_set1_ps(*x.add(k)), w, *row);
            }
        }
        for (row, o) in acc.iter().zip(out.iter_mut()) {
            _mm512_storeu_ps(o.as_mut_ptr(), *row);
        }
    }

    /// Half a panel at a time, two 4-lane registers per row, each input
    /// value loaded straight into all four lanes from the block's packed
    /// rows (`pack`).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn simd128<const R: usize>(&self, out: &mut [[f32; PANEL]; R]) {
        use std::arch::wasm32::*;
        let x = self.x[self.r0 * self.n..][..R * self.n].as_ptr();
        // SAFETY (every load and store): the bias and each row of `out` hold
        // 16 values, the panel n rows of 16, the block's packed rows n × R
        // values.
        unsafe {
            for half in [0, 8] {
                let b = self.bias.as_ptr().add(half);
                let mut acc = [[v128_load(b.cast()), v128_load(b.add(4).cast())]; R];
                let mut w = self.panel.as_ptr().add(half * self.n);
                let mut a = x;
                for _ in 0..self.n {
                    let (w0, w1) = (v128_load(w.cast()), v128_load(w.add(4).cast()));
                    for (r, row) in acc.iter_mut().enumerate() {
                        let a = v128_load32_splat(a.add(r).cast());
                        row[0] = f32x4_add(row[0], f32x4_mul(a, w0));
                        row[1] = f32x4_add(row[1], f32x4_mul(a, w1));
                    }
                    w = w.add(PANEL / 2);
                    a = a.add(R);
                }
                for (row, o) in acc.iter().zip(out.iter_mut()) {
                    let o = o.as_mut_ptr().add(half);
                    v128_store(o.cast(), row[0]);
                    v128_store(o.add(4).cast(), row[1]);
                }
            }
        }
    }
}
