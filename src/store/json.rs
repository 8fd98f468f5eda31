//! The JSON text of the stored records: `serde_json` natively; in
//! WebAssembly the host's `JSON` (see `crate::wasm::json`), which writes the
//! same bytes for these records (strings, whole numbers, `null`, arrays and
//! objects in field order) without carrying a second JSON implementation in
//! the module.

#[cfg(target_arch = "wasm32")]
pub(crate) use crate::wasm::json::{from_json, to_json};

/// `value` as compact JSON.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> String {
    // The records are structs of strings, numbers and vectors: they always
    // serialize.
    serde_json::to_string(value).unwrap_or_default()
}

/// The `T` in `text`, or why it is not one.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn from_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}
