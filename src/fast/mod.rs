//! Stand-ins for the standard library's text, slice and clock functions,
//! each answering exactly what its namesake answers, done the way each
//! target does best: byte comparison ([`eq`]), counting ([`char_count`],
//! [`utf16_len`]), trimming ([`trim`]), sorting ([`sort_by`]), case folding
//! ([`to_lowercase`]), the search for a line break, and the system clock.
//! The rest of the crate calls these where the standard library's would be
//! slower or larger in the WebAssembly module (BENCHMARKS.md has the
//! figures), and stays plain Rust; every `cfg(target_arch)` of the engine
//! is here. Tests compare each with its namesake.

mod case;
mod count;
#[cfg(target_arch = "wasm32")]
mod sixteen;
mod sort;
mod trim;
mod words;

// The byte scans, a block at a time: sixteen bytes in WebAssembly, with
// its SIMD; natively one word of eight.
#[cfg(target_arch = "wasm32")]
use sixteen as blocks;
#[cfg(not(target_arch = "wasm32"))]
use words as blocks;

pub(crate) use blocks::line_end as find_line_break;
pub(crate) use case::{folds_to_itself, to_nfkc_lowercase};
#[cfg(target_arch = "wasm32")]
pub use case::{install_host_folds, HostFolds};
pub use case::{to_lowercase, to_nfkc_lowercase_each};
pub(crate) use count::char_count;
pub use count::{contains_replacement, utf16_len, utf16_offset, utf16_offset_back};
pub(crate) use sort::{sort_by, sort_indices_by_key, sort_pairs_by_key};
pub(crate) use trim::{trim, trim_end, trim_start};
pub(crate) use words::{word, zero_bytes, HIGH, ONES};

/// `a == b`. In WebAssembly `==` on two strings calls the runtime's
/// `memcmp`, which compares one byte at a time; this compares a word at a
/// time (`merge` compares every line both sides hold). Natively `==`.
pub fn eq(a: &str, b: &str) -> bool {
    if cfg!(target_arch = "wasm32") {
        words::eq(a.as_bytes(), b.as_bytes())
    } else {
        a == b
    }
}

/// Milliseconds since the Unix epoch by the system clock, or `None` where
/// there is none: `wasm32-unknown-unknown`'s `SystemTime::now` panics.
pub(crate) fn unix_millis() -> Option<u128> {
    if cfg!(target_arch = "wasm32") {
        return None;
    }
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    Some(since.as_millis())
}
