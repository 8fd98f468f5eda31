//! How results cross from WebAssembly into JavaScript: one folder per wire
//! format, each with its Rust writer (`mod.rs`, plain data, tested
//! natively), its import (`wasm.rs`, wasm32 only) and the JavaScript reader
//! that makes the value (`<format>.js`), under one name.
//!
//! - [`packed`], the default: any `Serialize` view as numbers and one
//!   string, read by one reader into the value serde-wasm-bindgen's
//!   JSON-compatible serializer would make. A new result type uses it
//!   (`crate::wasm::convert::view`) unless a benchmark shows otherwise.
//! - [`document`], `parse`'s result: its strings are slices of the input
//!   string and its shape is fixed, where the default format copies every
//!   string and tags every value (measured several times as slow), and
//!   `parse` is the editor's call at every keystroke.
//! - [`recall`], `recall`'s result: an item per line of the memory, each
//!   with the same fields, which the default format would tag field by
//!   field.
//!
//! A result's text that repeats the input (a canonical form, a merged
//! memory) goes out as slices of the input string: `crate::js::repeats`
//! finds them and `crate::wasm::text` joins them. Figures for each choice
//! are in BENCHMARKS.md.

pub mod document;
pub mod packed;
pub mod recall;
