//! The exports (compiled for wasm32 only), the top layer. Each converts
//! its arguments, delegates to the core, and sends the result through a
//! wire format (`crate::wire`); it holds no behaviour of its own,
//! so what it returns is a core result or a `crate::js` view, both tested
//! natively.
//!
//! The exports: [`pure`] (the pure functions), [`ops`] (`merge` and
//! `compact`), [`recall`] (`recall` and `expire`), [`store`] (the
//! `MemoryStore` class) over [`host`] (a JavaScript `KvHost` object) with
//! [`task`] (its calls in progress, polled from JavaScript) and [`info`]
//! (version and code lists). The command line's exports are the CLI's
//! crate's (cli/wasm/), over the engine's public API.
//!
//! What they share: [`convert`] (arguments in, results out through the
//! default wire format), [`text`] (texts in and out, and the text kept
//! between calls), [`read`] (the one reader of JavaScript values) with
//! [`options`] (the options types it reads) and [`plain`] (plain copies of
//! options, read without letting a throw escape), [`panic`] (panics made
//! readable) and [`allocator`] (the module's memory allocator); and, with
//! the wire formats, `crate::base` (property names, the TypeScript
//! contract, JavaScript errors).
//!
//! A file's JavaScript half is the `.js` of the same name beside it,
//! imported with `#[wasm_bindgen(module = ...)]`; the build copies them
//! into the package's `snippets/`. A new export is one more function in the
//! file of its topic, a new topic one more file and `mod` line here.

mod allocator;
mod convert;
mod host;
pub mod info;
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
    memdoc::install_host_folds(memdoc::HostFolds {
        nfkc_lower: host_nfkc_lower,
        lower: host_lower,
    });
}

/// The crate's folding of many texts at once (`to_nfkc_lowercase_each`), for the
/// wasm-bindgen tests, which compare it with the host's folds one by one.
#[doc(hidden)]
pub fn fold_lower_each(texts: &[&str]) -> Vec<String> {
    memdoc::to_nfkc_lowercase_each(texts)
}

/// The crate's lower-casing (`fast::to_lowercase`), for the wasm-bindgen
/// tests, which compare it with the host's.
#[doc(hidden)]
pub fn lowercase(text: &str) -> String {
    memdoc::to_lowercase(text)
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
