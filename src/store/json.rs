//! The JSON text of the stored records (docs/record-format.md), written and
//! read by the crate itself, natively and in WebAssembly alike: one codec,
//! so that both write the same bytes by construction.
//!
//! It covers what records hold, and nothing more: strings, whole numbers,
//! `null`, booleans, arrays and objects. [`object`] writes compact JSON
//! with `serde_json`'s escapes (those of `JSON.stringify` too: `\"`, `\\`,
//! `\b`, `\f`, `\n`, `\r`, `\t`, the other control characters as
//! `\u00xx`, everything else as it is). [`from_json`] reads any JSON text
//! of those values (whitespace, every escape, surrogate pairs), and refuses
//! a number with a fraction or an exponent, a lone surrogate, nesting
//! deeper than a record's and anything after the value. [`Fields`] takes a
//! record's fields from the value read, refusing unknown, repeated,
//! missing and mistyped ones.
//!
//! Public for the `memdoc` command (memdoc-cli), which reads the hub's
//! answers and writes its JSON reports with it: [`from_json`], [`Value`],
//! [`object`] and [`Object`]; the records' own fields stay the store's.
//!
//! In WebAssembly the module used to hand records to the host's `JSON`.
//! That copied a record's text out of the module and its fields back in one
//! call each, and the store's audit trail made the head a few hundred
//! fields; see BENCHMARKS.md, "The store's records in the module".

mod fields;
mod read;
mod write;

use crate::fast::{word, zero_bytes, HIGH, ONES};

pub(crate) use fields::{string, Fields};
pub use read::{from_json, Value};
pub(crate) use write::string as quote;
pub use write::{object, Object};

/// How many bytes at the start of `bytes` a JSON string holds as they
/// are: those before the first `"`, `\` or control character. Eight bytes
/// at a time, then one by one from the word that holds the first.
fn plain_prefix(bytes: &[u8]) -> usize {
    let mut at = 0;
    while let Some(eight) = bytes.get(at..at + 8) {
        let x = word(eight);
        let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
        if control
            | zero_bytes(x ^ (ONES * u64::from(b'"')))
            | zero_bytes(x ^ (ONES * u64::from(b'\\')))
            != 0
        {
            break;
        }
        at += 8;
    }
    at + bytes[at..]
        .iter()
        .position(|&b| b < 0x20 || b == b'"' || b == b'\\')
        .unwrap_or(bytes.len() - at)
}

// Against serde_json and with proptest, both native only.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
