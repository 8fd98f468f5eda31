//! The native half of benches/simd_peak.mjs: the most multiply-adds a core
//! of this CPU does per second from registers, in each width the forward
//! pass's kernels use (src/linear.rs), printed as JSON (GFLOP/s, a
//! multiply-add counted as two operations). Twelve independent chains
//! `acc = acc · y + x`, enough to hide each instruction's latency: 4-lane
//! SSE multiply then add (what WebAssembly's SIMD becomes on x86-64),
//! 8-lane AVX2 and 16-lane AVX-512 fused multiply-add. Thread CPU time
//! (Linux's schedstat), best of 5: the machine may be shared.
//!
//!   cargo run --release -p memdoc-minilm --example peak

/// This thread's CPU time so far, in seconds.
fn cpu_s() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("/proc/thread-self/schedstat (Linux)");
    let ns: f64 = stat
        .split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .expect("the time on CPU");
    ns / 1e9
}

const CHAINS: usize = 12;
const ITERATIONS: usize = 20_000_000;

/// GFLOP/s of `run` (which does `flops` operations), best of 5.
fn rate(flops: f64, run: impl Fn() -> f32) -> f64 {
    (0..5)
        .map(|_| {
            let t = cpu_s();
            std::hint::black_box(run());
            flops / (cpu_s() - t) / 1e9
        })
        .fold(0.0, f64::max)
}

macro_rules! chains {
    ($name:ident, $feature:literal, $lanes:literal, $set:ident, $step:expr, $sum:expr) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        unsafe fn $name(iterations: usize) -> f32 {
            use std::arch::x86_64::*;
            let y = $set(std::hint::black_box(0.999_9));
            let x = $set(std::hint::black_box(1e-4));
            let mut acc = [x; CHAINS];
            for _ in 0..iterations {
                for a in &mut acc {
                    *a = $step(*a, y, x);
                }
            }
            acc.iter().map(|&a| $sum(a)).sum()
        }
    };
}

chains!(
    sse,
    "sse2",
    4,
    _mm_set1_ps,
    |a, y, x| _mm_add_ps(_mm_mul_ps(a, y), x),
    |a| _mm_cvtss_f32(a)
);
chains!(
    avx2,
    "avx2,fma",
    8,
    _mm256_set1_ps,
    |a, y, x| _mm256_fmadd_ps(a, y, x),
    |a| _mm256_cvtss_f32(a)
);
chains!(
    avx512,
    "avx512f",
    16,
    _mm512_set1_ps,
    |a, y, x| _mm512_fmadd_ps(a, y, x),
    |a| _mm512_reduce_add_ps(a)
);

fn main() {
    let flops = |lanes: usize| (ITERATIONS * CHAINS * lanes * 2) as f64;
    let mut out = vec![];
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY (each): the CPU has the feature, checked just before.
        out.push(format!(
            "\"sse_mul_add\":{:.2}",
            rate(flops(4), || unsafe { sse(ITERATIONS) })
        ));
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            out.push(format!(
                "\"avx2_fma\":{:.2}",
                rate(flops(8), || unsafe { avx2(ITERATIONS) })
            ));
        }
        if std::is_x86_feature_detected!("avx512f") {
            out.push(format!(
                "\"avx512_fma\":{:.2}",
                rate(flops(16), || unsafe { avx512(ITERATIONS) })
            ));
        }
    }
    println!("{{{}}}", out.join(","));
}
