//! What the package is: its version and the stable codes it can produce.

use crate::js::typescript::ERROR_CODES;
use memdoc::Code;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::view;
use crate::base::types::{DiagnosticCodeList, ErrorCodeList};

/// The package version (the crate's).
#[wasm_bindgen(js_name = version)]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// Every diagnostic code, in the order of docs/FORMAT.md §9.
///
/// # Errors
/// Only if the list cannot be converted (a bug).
#[wasm_bindgen(js_name = diagnosticCodes)]
pub fn diagnostic_codes() -> Result<DiagnosticCodeList, JsValue> {
    view(&Code::ALL.iter().map(|c| c.as_str()).collect::<Vec<_>>())
}

/// Every `code` a thrown error can carry: the core's, the boundary's, then
/// the store's.
///
/// # Errors
/// Only if the list cannot be converted (a bug).
#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> Result<ErrorCodeList, JsValue> {
    view(&ERROR_CODES)
}
