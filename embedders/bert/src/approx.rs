//! GELU's erf and softmax's exp for `Arithmetic::Fast`: rational and
//! polynomial approximations without branches or tables, over whole
//! slices, so that they vectorise (8 lanes natively where the CPU has AVX2,
//! WebAssembly's 4 lanes in the SIMD build). libm's `erff` and `expf`, which
//! `Arithmetic::Reproducible` keeps, take one value per call and were a
//! large share of the forward pass. Both stay within a few units in the
//! last place of libm's (the tests below).

/// GELU (erf form) of every value, in place.
pub fn gelu(values: &mut [f32]) {
    lanes(values, |x| {
        0.5 * x * (1.0 + erf(x * std::f32::consts::FRAC_1_SQRT_2))
    });
}

/// e^x of every value, in place; the values are at most 0 (softmax's
/// scores less their largest).
pub fn exp_nonpositive(values: &mut [f32]) {
    lanes(values, exp);
}

/// `f` of every value, in place, in as many lanes as the CPU has.
#[inline(always)]
fn lanes(values: &mut [f32], f: impl Fn(f32) -> f32) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA.
        unsafe { lanes_avx2(values, f) };
        return;
    }
    each(values, f);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn lanes_avx2(values: &mut [f32], f: impl Fn(f32) -> f32) {
    each(values, f);
}

#[inline(always)]
fn each(values: &mut [f32], f: impl Fn(f32) -> f32) {
    for v in values {
        *v = f(*v);
    }
}

/// erf(x) as Eigen's and XLA's float erf compute it: an odd polynomial of
/// degree 13 over an even one of degree 8, on x clamped to [-4, 4] (beyond
/// which erf is ±1 in f32).
#[inline(always)]
fn erf(x: f32) -> f32 {
    let x = x.clamp(-4.0, 4.0);
    let x2 = x * x;
    let mut p = -2.726_142_3e-10_f32;
    p = p * x2 + 2.770_681_4e-8;
    p = p * x2 - 2.101_024_1e-6;
    p = p * x2 - 5.692_506_4e-5;
    p = p * x2 - 7.349_906_3e-4;
    p = p * x2 - 2.954_600_1e-3;
    p = p * x2 - 1.609_603_3e-2;
    let mut q = -1.456_607_2e-5_f32;
    q = q * x2 - 2.133_740_6e-4;
    q = q * x2 - 1.682_827e-3;
    q = q * x2 - 7.373_329_2e-3;
    q = q * x2 - 1.426_473_9e-2;
    x * p / q
}

/// e^x for x ≤ 0, as Cephes' expf: x = n·ln 2 + r with n whole and
/// |r| ≤ ln 2 / 2, e^r by a polynomial of degree 7, times 2^n built in the
/// exponent's bits. Below −87, about e^−87 (near f32's smallest normal:
/// nothing, to a softmax).
#[inline(always)]
fn exp(x: f32) -> f32 {
    // 1.5 · 2^23: adding and taking it away rounds to a whole number.
    const ROUND: f32 = 12_582_912.0;
    let x = x.max(-87.0);
    let n = (x * std::f32::consts::LOG2_E + ROUND) - ROUND;
    // ln 2 in two parts, the first exact in few bits, so that n·ln 2 is
    // taken away without rounding.
    let r = x - n * 0.693_359_4 - n * -2.121_944_4e-4;
    let mut p = 1.987_569_1e-4_f32;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 0.5;
    let e = p * r * r + r + 1.0;
    // n is whole and within −126..=0.
    #[allow(clippy::cast_possible_truncation)]
    let scale = f32::from_bits(((n as i32 + 127) as u32) << 23);
    e * scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_is_libm_s_within_float_error() {
        let mut worst = 0.0f32;
        for i in -60_000..=60_000 {
            let x = i as f32 / 10_000.0;
            worst = worst.max((erf(x) - libm::erff(x)).abs());
        }
        assert!(worst < 1e-6, "largest difference {worst}");
    }

    #[test]
    fn exp_is_libm_s_within_a_few_ulp() {
        let mut worst = 0.0f32;
        for i in 0..=1_000_000 {
            let x = -(i as f32) / 10_000.0;
            let (got, want) = (exp(x), libm::expf(x));
            if want > 1e-30 {
                worst = worst.max((got - want).abs() / want);
            }
        }
        assert!(worst < 1e-6, "largest relative difference {worst}");
        assert_eq!(exp(0.0), 1.0);
        assert!(exp(-1e4) < 1e-37);
    }

    #[test]
    fn the_slices_are_every_value_s() {
        let mut values: Vec<f32> = (-40..40).map(|i| i as f32 / 7.0).collect();
        let want: Vec<f32> = values
            .iter()
            .map(|x| 0.5 * x * (1.0 + erf(x * std::f32::consts::FRAC_1_SQRT_2)))
            .collect();
        gelu(&mut values);
        assert_eq!(values, want);
    }
}
