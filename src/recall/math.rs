//! The two functions of real numbers recall's scores need, `ln` for BM25's
//! inverse document frequency and `0.5^y` for recency, in additions,
//! multiplications and divisions only. Every platform computes those to the
//! same bits (IEEE 754, and Rust never fuses them), so native builds and
//! WebAssembly score alike before the scores are rounded, whatever their
//! C library's `log` and `pow` would give; and the module carries neither
//! (their WebAssembly port is not small: BENCHMARKS.md).

use std::f64::consts::{LN_2, SQRT_2};

/// `ln 2` in two parts: the first has its low 21 bits zero (32 significant
/// bits), so that `e × LN_2_HIGH` is exact for any exponent `e` of an
/// `f64` (at most 11 bits).
const LN_2_HIGH: f64 = 0.693_147_180_369_123_8;
const LN_2_LOW: f64 = LN_2 - LN_2_HIGH;

/// The natural logarithm of `number`, a positive normal number (recall's
/// arguments are at least 1), within a unit or two in the last place.
pub(crate) fn ln(number: f64) -> f64 {
    // number = m · 2^e with m in [√½, √2).
    let bits = number.to_bits();
    let mut exponent = f64::from(((bits >> 52) & 0x7ff) as u16) - 1023.0;
    let mut mantissa = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if mantissa > SQRT_2 {
        mantissa /= 2.0;
        exponent += 1.0;
    }
    // With f = m − 1 and s = f / (2 + f), |s| ≤ 0.172:
    // ln m = 2 atanh(s) = 2s + s R, R = 2s²/3 + 2s⁴/5 + …, and 2s = f − f²/2
    // + s f²/2, so ln m = f − (f²/2 − s (f²/2 + R)): f is exact, and the
    // rest a correction (the terms of R after s²⁴ are below 10⁻¹⁹ of it).
    let f = mantissa - 1.0;
    let s = f / (2.0 + f);
    let s2 = s * s;
    let mut rest = 0.0;
    for k in (1..=12u8).rev() {
        rest = rest * s2 + 2.0 / f64::from(2 * k + 1);
    }
    rest *= s2;
    let half_f2 = 0.5 * f * f;
    exponent * LN_2_HIGH - ((half_f2 - (s * (half_f2 + rest) + exponent * LN_2_LOW)) - f)
}

/// `0.5^y` for `y ≥ 0` (an age in half-lives), within two units in the
/// last place: 1 at 0, exactly `0.5^n` at an integer `n`, 0 past 1,074.
pub(crate) fn half_to_the(y: f64) -> f64 {
    if y.is_nan() || y <= 0.0 {
        return 1.0;
    }
    let whole = y.floor();
    if whole >= 1075.0 {
        return 0.0;
    }
    // 0.5^f = e^(−t), t = f ln 2 in [0, 0.694): the terms after t¹⁸/18! are
    // below 10⁻¹⁸.
    let t = (y - whole) * LN_2;
    let mut series = 0.0;
    for c in INVERSE_FACTORIALS.iter().rev() {
        series = series * -t + c;
    }
    // Halved `whole` times, in steps that stay exact down to the smallest
    // subnormal: 2^-1000 and below 2^-1000 one power of two.
    let mut result = series;
    let mut left = whole;
    while left > 0.0 {
        let step = left.min(1000.0);
        result *= power_of_half(step);
        left -= step;
    }
    result
}

/// `1 / k!` for k from 0 to 18, rounded to the nearest `f64` (a test checks
/// them): the coefficients of `e^x`'s series.
const INVERSE_FACTORIALS: [f64; 19] = [
    1.0,
    1.0,
    0.5,
    0.166_666_666_666_666_66,
    0.041_666_666_666_666_664,
    0.008_333_333_333_333_333,
    0.001_388_888_888_888_889,
    0.000_198_412_698_412_698_4,
    2.480_158_730_158_73e-5,
    2.755_731_922_398_589_3e-6,
    2.755_731_922_398_589e-7,
    2.505_210_838_544_172e-8,
    2.087_675_698_786_81e-9,
    1.605_904_383_682_161_3e-10,
    1.147_074_559_772_972_5e-11,
    7.647_163_731_819_816e-13,
    4.779_477_332_387_385e-14,
    2.811_457_254_345_520_6e-15,
    1.561_920_696_858_622_5e-16,
];

/// `0.5^n` for a whole `n` from 0 to 1,000: a normal number, exactly.
fn power_of_half(n: f64) -> f64 {
    // The biased exponent of 2^-n is 1023 − n, a whole number from 23 to
    // 1023: the cast is exact.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let biased = (1023.0 - n) as u64;
    f64::from_bits(biased << 52)
}

// Exact values are what these tests check.
#[allow(clippy::float_cmp)]
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use proptest::prelude::*;

    use super::{half_to_the, ln, INVERSE_FACTORIALS, LN_2_HIGH};

    /// How many units in the last place `a` is from `b` (both positive).
    fn ulps(a: f64, b: f64) -> u64 {
        a.to_bits().abs_diff(b.to_bits())
    }

    #[test]
    fn the_coefficients_are_the_inverse_factorials() {
        let mut factorial = 1u128;
        for (k, &c) in INVERSE_FACTORIALS.iter().enumerate() {
            if k > 0 {
                factorial *= k as u128;
            }
            // k! is exact in an f64 up to 18!, and one division rounds.
            #[allow(clippy::cast_precision_loss)]
            let expected = 1.0 / factorial as f64;
            assert_eq!(c.to_bits(), expected.to_bits(), "1/{k}!");
        }
    }

    #[test]
    fn the_high_part_of_ln_2_leaves_room_for_any_exponent() {
        assert_eq!(LN_2_HIGH.to_bits() & ((1 << 21) - 1), 0);
        // 32 significant bits times 11 leave the product's low 10 bits zero:
        // nothing was rounded off.
        for e in [-1074.0, -1022.0, -1.0, 1.0, 1023.0] {
            let product: f64 = e * LN_2_HIGH;
            assert_eq!(product.to_bits() & ((1 << 10) - 1), 0, "{e} × LN_2_HIGH");
        }
    }

    #[test]
    fn exact_where_the_answer_is() {
        assert_eq!(ln(1.0).to_bits(), 0.0_f64.to_bits());
        assert_eq!(half_to_the(0.0), 1.0);
        assert_eq!(half_to_the(-3.0), 1.0);
        for n in 0..=1074 {
            assert_eq!(half_to_the(f64::from(n)), 0.5_f64.powi(n), "0.5^{n}");
        }
        assert_eq!(half_to_the(1075.0), 0.0);
        assert_eq!(half_to_the(1e300), 0.0);
        assert_eq!(half_to_the(f64::INFINITY), 0.0);
        for e in -1022..=1023 {
            let x = 2.0_f64.powi(e);
            assert!(
                ulps(ln(x), f64::from(e) * std::f64::consts::LN_2) <= 1,
                "ln 2^{e}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn ln_is_the_standard_librarys_within_two_units(x in 1.0..1e15_f64) {
            let (ours, theirs) = (ln(x), x.ln());
            prop_assert!(
                ours == theirs || ulps(ours, theirs) <= 2,
                "ln({x}) = {ours}, the standard library's {theirs}"
            );
        }

        #[test]
        fn ln_near_one(x in 1.0..1.001_f64) {
            let (ours, theirs) = (ln(x), x.ln());
            prop_assert!(ours == theirs || ulps(ours, theirs) <= 2, "ln({x}) = {ours}, {theirs}");
        }

        #[test]
        fn half_to_the_is_the_standard_librarys_within_two_units(y in 0.0..1100.0_f64) {
            let (ours, theirs) = (half_to_the(y), 0.5_f64.powf(y));
            prop_assert!(
                ours == theirs || ulps(ours, theirs) <= 2,
                "0.5^{y} = {ours}, the standard library's {theirs}"
            );
        }

        #[test]
        fn half_to_the_of_recall_ages(days in 0u32..100_000, half_life in 1u32..3650) {
            let y = f64::from(days) / f64::from(half_life);
            let (ours, theirs) = (half_to_the(y), 0.5_f64.powf(y));
            prop_assert!(ours == theirs || ulps(ours, theirs) <= 2, "0.5^{y} = {ours}, {theirs}");
        }
    }
}
