//! The wasm32 half of [`document`](super): `parse`'s result built by
//! `document.js` from the numbers of [`Numbers`], its strings sliced from
//! the input string. The view goes through the default format
//! (`crate::wire::packed`) when a string cannot be a slice of the input
//! ([`Numbers::of`] is `None`).

use js_sys::{Array, JsString};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::Numbers;
use crate::base::names::name;
use crate::base::types::MemoryDocument;
use crate::js::view::DocumentView;
use crate::wire::packed::wasm::view;
use memdoc::Document;

#[wasm_bindgen(module = "/src/wire/document/document.js")]
extern "C" {
    /// The `MemoryDocument` of `numbers`, its strings sliced from `input`
    /// or taken from `names`.
    #[wasm_bindgen(js_name = buildDocument)]
    fn build_document(input: &JsString, names: &Array, numbers: &[u32]) -> MemoryDocument;
}

/// The result of `parse` for `doc`, parsed from `text`, the Rust copy of
/// the JavaScript string `input`.
pub(crate) fn document(
    doc: &Document<'_>,
    text: &str,
    input: &JsString,
) -> Result<MemoryDocument, JsValue> {
    match Numbers::of(doc, text) {
        Some(n) => {
            let names: Array = n.names.iter().map(|&s| name(s)).collect();
            Ok(build_document(input, &names, &n.numbers))
        }
        None => view(&DocumentView::new(doc, text)),
    }
}
