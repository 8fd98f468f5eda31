//! The stored records' JSON in WebAssembly (`crate::store::json`): the
//! host's `JSON.stringify` and `JSON.parse`, with the records converted
//! by the boundary's [`view`] on the way out and read back by the
//! boundary's deserializer in its strict form ([`De::strict`]: every key is
//! a field, so unknown fields are refused as natively).
//!
//! `JSON.stringify` writes the records exactly as `serde_json::to_string`
//! does natively: keys in field order, the same escapes in strings, whole
//! numbers without a fraction (a record holds no other numbers).

use js_sys::{JsString, JSON};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::convert::view;
use super::de::De;
use crate::store::Json;

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of a string that is already JavaScript's.
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn parse(text: &JsString) -> Result<JsValue, JsValue>;
}

/// `value` as compact JSON, a JavaScript string.
pub(crate) fn to_json<T: Serialize>(value: &T) -> Json {
    // The records are structs of strings, whole numbers below 2^53 and
    // vectors: they always serialize, and JSON.stringify takes any value
    // they serialize to.
    Json(
        view::<JsValue>(value)
            .ok()
            .and_then(|js| JSON::stringify(&js).ok())
            .unwrap_or_else(|| JsString::from("")),
    )
}

/// The `T` in `text`, or why it is not one.
pub(crate) fn from_json<T: DeserializeOwned>(text: &Json) -> Result<T, String> {
    let parsed = parse(&text.0).map_err(|e| {
        e.dyn_ref::<js_sys::Error>()
            .map_or_else(|| "not JSON".to_owned(), |e| String::from(e.message()))
    })?;
    T::deserialize(De::strict(parsed)).map_err(|e| e.0)
}
