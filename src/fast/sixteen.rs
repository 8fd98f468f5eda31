//! The byte scans of [`fast`](super) sixteen bytes at a time, with
//! WebAssembly's SIMD, in the module: they answer exactly what
//! [`words`](super::words) answers eight bytes at a time natively, and
//! leave to it what is left after the last whole block. The wasm-bindgen
//! tests (bindings/wasm/tests/wasm.rs) compare what they count with the
//! standard library's character-by-character answers.
//!
//! The crate has no `unsafe`, and a 16-byte load is unsafe in Rust, so a
//! block is read as two words of eight ([`word`]): two loads into one
//! vector.

use core::arch::wasm32::{
    i8x16_bitmask, i8x16_eq, u64x2, u8x16_ge, u8x16_splat, v128, v128_and, v128_or,
};

use super::count::fffd_from;
use super::words::{self, word};

/// The bytes a block holds.
pub(crate) const BLOCK: usize = 16;

/// The block of `bytes` at `at`, its first byte lowest.
#[target_feature(enable = "simd128")]
fn block(bytes: &[u8], at: usize) -> v128 {
    u64x2(word(&bytes[at..at + 8]), word(&bytes[at + 8..at + BLOCK]))
}

/// Bit `i` set where byte `i` of `v` is `byte`.
#[target_feature(enable = "simd128")]
fn equal(v: v128, byte: u8) -> u32 {
    u32::from(i8x16_bitmask(i8x16_eq(v, u8x16_splat(byte))))
}

/// Bit `i` set where byte `i` of `v` continues a character (`10xxxxxx`).
#[target_feature(enable = "simd128")]
fn continuing(v: v128) -> u32 {
    u32::from(i8x16_bitmask(i8x16_eq(
        v128_and(v, u8x16_splat(0xC0)),
        u8x16_splat(0x80),
    )))
}

/// Bit `i` set where byte `i` of `v` starts a character of four bytes
/// (`11110xxx`; no byte of valid UTF-8 is above those).
#[target_feature(enable = "simd128")]
fn fours(v: v128) -> u32 {
    u32::from(i8x16_bitmask(u8x16_ge(v, u8x16_splat(0xF0))))
}

/// The offset of the first LF or CR at or after `from`, or the length of
/// `bytes`. A line of a memory is often shorter than a block: its first
/// eight bytes are looked at as one word first.
#[target_feature(enable = "simd128")]
pub(crate) fn line_end(bytes: &[u8], from: usize) -> usize {
    let near = from.saturating_add(words::BLOCK).min(bytes.len());
    let first = words::line_end(&bytes[..near], from);
    if first < near {
        return first;
    }
    let mut at = near;
    while at + BLOCK <= bytes.len() {
        let v = block(bytes, at);
        let breaks = i8x16_bitmask(v128_or(
            i8x16_eq(v, u8x16_splat(b'\n')),
            i8x16_eq(v, u8x16_splat(b'\r')),
        ));
        if breaks != 0 {
            return at + breaks.trailing_zeros() as usize;
        }
        at += BLOCK;
    }
    words::line_end(bytes, at)
}

/// The bytes of `bytes` (UTF-8) that start a character, and (when
/// `count_fours`) those that start one of four bytes.
#[target_feature(enable = "simd128")]
pub(crate) fn starts_and_fours(bytes: &[u8], count_fours: bool) -> (usize, usize) {
    let (mut starts, mut four, mut at) = (0, 0, 0);
    while at + BLOCK <= bytes.len() {
        let v = block(bytes, at);
        starts += BLOCK - continuing(v).count_ones() as usize;
        if count_fours {
            four += fours(v).count_ones() as usize;
        }
        at += BLOCK;
    }
    let (rest, rest_fours) = words::starts_and_fours(&bytes[at..], count_fours);
    (starts + rest, four + rest_fours)
}

/// How far whole blocks of `bytes` (UTF-8) go from its start within the
/// first `units` UTF-16 units: the offset where they end and the units
/// before it. The rest is counted byte by byte.
#[target_feature(enable = "simd128")]
pub(crate) fn utf16_blocks(bytes: &[u8], units: usize) -> (usize, usize) {
    let (mut at, mut seen) = (0, 0);
    while at + BLOCK <= bytes.len() {
        let v = block(bytes, at);
        let n = BLOCK - continuing(v).count_ones() as usize + fours(v).count_ones() as usize;
        if seen + n > units {
            break;
        }
        seen += n;
        at += BLOCK;
    }
    let (more, more_seen) = words::utf16_blocks(&bytes[at..], units - seen);
    (at + more, seen + more_seen)
}

/// Whether `bytes` holds a U+FFFD: a block that holds its first byte
/// (`0xEF`) is looked at closely. The whole search is here, not a call per
/// block: a function compiled for SIMD is never inlined into one that is
/// not.
#[target_feature(enable = "simd128")]
pub(crate) fn contains_replacement(bytes: &[u8]) -> bool {
    let mut start = 0;
    while start + BLOCK <= bytes.len() {
        if equal(block(bytes, start), 0xEF) != 0 && fffd_from(bytes, start, start + BLOCK + 2) {
            return true;
        }
        start += BLOCK;
    }
    fffd_from(bytes, start, bytes.len())
}
