//! The JavaScript boundary (compiled for wasm32 only). It converts arguments,
//! delegates to the core, converts results and maps errors; it must hold no
//! behaviour of its own, so everything it returns is a `crate::view` type
//! that is tested natively.
//!
//! One file per topic: [`convert`] (arguments in, views out, one serializer),
//! [`read`] (the one reader of JavaScript values) and [`options`] (the
//! options types read by it),
//! [`errors`] (the one place a JavaScript `Error` is built), [`panic`] (panics
//! made readable), [`types`] (the TypeScript contract),
//! [`plain`] (plain copies of options, read without letting a throw escape),
//! [`pure`] (the pure functions), [`literal`] (`parse`'s result built in
//! JavaScript from numbers), [`ops`] (`merge` and `compact`),
//! [`recall`] (`recall` and `expire`), [`store`]
//! (the `MemoryStore` class over a JavaScript host), [`task`] (its calls in
//! progress, polled from JavaScript), [`info`] (version and code lists) and
//! [`allocator`] (the module's memory allocator), [`cli`] (the command
//! line's engine, in the module of the package's bin only: the `cli`
//! feature).
//! A new topic is one more file and one more `mod` line here.

mod allocator;
#[cfg(feature = "cli")]
pub mod cli;
mod convert;
mod errors;
pub mod info;
mod literal;
mod names;
pub mod ops;
mod options;
mod panic;
mod plain;
pub mod pure;
mod read;
pub mod recall;
pub mod store;
pub mod task;
mod text;
pub mod types;

use wasm_bindgen::prelude::wasm_bindgen;

/// Runs once when the module is instantiated, before any export is called.
#[wasm_bindgen(start, private)]
fn start() {
    panic::install_hook();
    install_host_folds();
}

/// Let heading normalization, recall and compaction use the host's NFKC
/// and lower-casing. Part of `start`; public (hidden) for the wasm-bindgen
/// tests, whose harness does not run `start`.
#[doc(hidden)]
pub fn install_host_folds() {
    crate::fast::install_host_folds(crate::fast::HostFolds {
        nfkc_lower: host_nfkc_lower,
        lower: host_lower,
    });
}

/// The crate's folding of many texts at once (`to_nfkc_lowercase_each`), for the
/// wasm-bindgen tests, which compare it with the host's folds one by one.
#[doc(hidden)]
pub fn fold_lower_each(texts: &[&str]) -> Vec<String> {
    crate::fast::to_nfkc_lowercase_each(texts)
}

/// The crate's lower-casing (`fast::to_lowercase`), for the wasm-bindgen
/// tests, which compare it with the host's.
#[doc(hidden)]
pub fn lowercase(text: &str) -> String {
    crate::fast::to_lowercase(text)
}

/// NFKC, then lower case, by the JavaScript host
/// (`String.prototype.normalize` and `toLowerCase`), in one call.
fn host_nfkc_lower(text: &str) -> String {
    js_sys::JsString::from(text)
        .normalize("NFKC")
        .to_lower_case()
        .into()
}

/// Lower case by the JavaScript host (`String.prototype.toLowerCase`).
fn host_lower(text: &str) -> String {
    js_sys::JsString::from(text).to_lower_case().into()
}
