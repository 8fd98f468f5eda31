//! `parse`'s result built in JavaScript (`literal.js`) from the numbers of
//! [`Numbers`], with its strings sliced from the input string: about five
//! times as fast as converting the view through serde-wasm-bindgen, which
//! calls into JavaScript for every field (BENCHMARKS.md). The view goes
//! through the boundary's serializer (`crate::js::packed`) when a string
//! cannot be a slice of the input ([`Numbers::of`] is `None`).

use js_sys::{Array, JsString};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::js::literal::Numbers;
use crate::js::view::DocumentView;
use crate::Document;

use super::convert::view;
use super::names::name;
use super::types::MemoryDocument;

#[wasm_bindgen(module = "/src/wasm/literal.js")]
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
