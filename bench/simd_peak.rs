//! The native half of bench/simd_peak.mjs: the most multiply-adds a core
//! of this CPU does per second from registers, in each width the forward
//! pass's kernels use (embedders/bert/src/linear.rs), printed as JSON
//! (GFLOP/s, a multiply-add counted as two operations), in independent
//! chains enough to hide each instruction's latency: 4-lane SSE multiply
//! then add (what WebAssembly's SIMD becomes on x86-64), 8-lane AVX2 and
//! 16-lane AVX-512 fused multiply-add. Thread CPU time
//! (`clock_gettime`), best of 5: the machine may be shared.
//!
//!   cargo run --release -p memdoc-minilm --example simd_peak

#[path = "cpu_time.rs"]
mod cpu_time;
use cpu_time::cpu_ms;

const SSE_CHAINS: usize = 7;
const FUSED_CHAINS: usize = 12;
const ITERATIONS: usize = 20_000_000;

/// GFLOP/s of `run` (which does `flops` operations), best of 5.
fn rate(flops: f64, run: impl Fn() -> f32) -> f64 {
    (0..5)
        .map(|_| {
            let t = cpu_ms();
            std::hint::black_box(run());
            flops / (cpu_ms() - t) / 1e6
        })
        .fold(0.0, f64::max)
}

/// Multiply then add, as WebAssembly's `f32x4.mul` and `f32x4.add`: seven
/// chains of products `x = x · y` and seven of sums `acc = acc + x`, fifteen
/// registers with `y` (all V8 leaves a function of x86-64's sixteen;
/// bench/simd_peak.mjs runs the same loop in WebAssembly).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
unsafe fn sse(iterations: usize) -> f32 {
    use std::arch::x86_64::*;
    let y = _mm_set1_ps(std::hint::black_box(0.999_9));
    let mut x = [_mm_set1_ps(std::hint::black_box(1e-4)); SSE_CHAINS];
    let mut acc = x;
    for _ in 0..iterations {
        for (a, x) in acc.iter_mut().zip(&mut x) {
            *x = _mm_mul_ps(*x, y);
            *a = _mm_add_ps(*a, *x);
        }
    }
    acc.iter().map(|&a| _mm_cvtss_f32(a)).sum()
}

/// Fused multiply-add in twelve chains `acc = acc · y + x`.
macro_rules! fused {
    ($name:ident, $feature:literal, $set:ident, $fmadd:ident, $first:expr) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        unsafe fn $name(iterations: usize) -> f32 {
            use std::arch::x86_64::*;
            let y = $set(std::hint::black_box(0.999_9));
            let x = $set(std::hint::black_box(1e-4));
            let mut acc = [x; FUSED_CHAINS];
            for _ in 0..iterations {
                for a in &mut acc {
                    *a = $fmadd(*a, y, x);
                }
            }
            acc.iter().map(|&a| $first(a)).sum()
        }
    };
}

fused!(avx2, "avx2,fma", _mm256_set1_ps, _mm256_fmadd_ps, |a| {
    _mm256_cvtss_f32(a)
});
fused!(avx512, "avx512f", _mm512_set1_ps, _mm512_fmadd_ps, |a| {
    _mm512_cvtss_f32(a)
});

fn main() {
    let flops = |chains: usize, lanes: usize| (ITERATIONS * chains * lanes * 2) as f64;
    let mut out = vec![];
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY (each): the CPU has the feature (SSE2 on every x86-64),
        // checked just before.
        out.push(format!(
            "\"sse_mul_add\":{:.2}",
            rate(flops(SSE_CHAINS, 4), || unsafe { sse(ITERATIONS) })
        ));
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            out.push(format!(
                "\"avx2_fma\":{:.2}",
                rate(flops(FUSED_CHAINS, 8), || unsafe { avx2(ITERATIONS) })
            ));
        }
        if std::is_x86_feature_detected!("avx512f") {
            out.push(format!(
                "\"avx512_fma\":{:.2}",
                rate(flops(FUSED_CHAINS, 16), || unsafe { avx512(ITERATIONS) })
            ));
        }
    }
    println!("{{{}}}", out.join(","));
}
