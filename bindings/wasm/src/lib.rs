//! memdoc's WebAssembly module, the npm package `memdoc`'s
//! (`pkg/memdoc_bg.wasm` and its glue, built by scripts/build.mjs): the
//! engine's API in its JavaScript shape, over the engine's public API only.
//!
//! In layers, each using only those before it: [`js`], the inputs and views
//! (plain data, tested natively); `base`, what the formats and the exports
//! share in WebAssembly (property names, the TypeScript contract,
//! JavaScript errors); [`wire`], the formats the results cross in;
//! [`wasm`], the exports (wasm32 only), which convert their arguments, call
//! the engine, and send the result through a wire format.
#![forbid(unsafe_code)]
#![warn(clippy::pedantic)]
// Documents are counted in code points and bytes; these casts are checked where they happen.
#![allow(clippy::module_name_repetitions, clippy::must_use_candidate)]

#[cfg(target_arch = "wasm32")]
mod base;
pub mod js;
pub mod wire;

// Public so that tests/wasm.rs can call the exports from Rust; JavaScript
// callers use the npm package.
#[cfg(target_arch = "wasm32")]
pub mod wasm;
