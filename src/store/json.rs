//! The JSON text of the stored records: `serde_json` natively; in
//! WebAssembly the host's `JSON` (see `crate::wasm::json`), which writes the
//! same bytes for these records (strings, whole numbers, `null`, arrays and
//! objects in field order) without carrying a second JSON implementation in
//! the module.

use std::borrow::Cow;

#[cfg(target_arch = "wasm32")]
pub(crate) use crate::wasm::json::{from_json, to_json};

/// A record's JSON text, where the host holds it.
///
/// Natively it is a Rust string. In WebAssembly it is a JavaScript string:
/// a record read from a JavaScript host is parsed by `JSON.parse` where it
/// is, and a record written goes from `JSON.stringify` to the host, without
/// being copied into the module's memory and back out (for 25,000
/// characters, about 20 µs in and 65 µs out). The store reaches its host
/// through [`Host::get_json`](super::Host::get_json) and
/// [`Host::put_json`](super::Host::put_json), which a Rust host answers
/// with its `get` and `put`.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Json(
    #[cfg(not(target_arch = "wasm32"))] pub(crate) String,
    #[cfg(target_arch = "wasm32")] pub(crate) js_sys::JsString,
);

impl Json {
    /// The text as a Rust string (copied out of JavaScript when it is there).
    pub fn text(&self) -> Cow<'_, str> {
        #[cfg(not(target_arch = "wasm32"))]
        return Cow::Borrowed(&self.0);
        #[cfg(target_arch = "wasm32")]
        return Cow::Owned(String::from(&self.0));
    }
}

impl From<String> for Json {
    fn from(text: String) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        return Self(text);
        #[cfg(target_arch = "wasm32")]
        return Self(js_sys::JsString::from(text));
    }
}

/// `value` as compact JSON.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Json {
    // The records are structs of strings, numbers and vectors: they always
    // serialize.
    Json(serde_json::to_string(value).unwrap_or_default())
}

/// The `T` in `text`, or why it is not one.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn from_json<T: serde::de::DeserializeOwned>(text: &Json) -> Result<T, String> {
    serde_json::from_str(&text.0).map_err(|e| e.to_string())
}
