//! The one place a JavaScript error is built: a real `Error` whose message is
//! the core error's sentence and whose `code` property is its stable code, so
//! callers can branch on `error.code` and never on message text. A store
//! error caused by the host carries the host's own error as `cause`,
//! unchanged (never stringified).

use js_sys::Reflect;
use wasm_bindgen::JsValue;

use crate::js::error::BoundaryError;
use memdoc::store::StoreError;

/// The `Error` to throw: `message`, with `code` and, when given, `cause`.
fn coded(code: &str, message: &str, cause: Option<&JsValue>) -> JsValue {
    let js = js_sys::Error::new(message);
    // Setting a property only fails on frozen objects and proxies; a fresh
    // Error is neither, so there is no failure to report here.
    let _ = Reflect::set(&js, &JsValue::from_str("code"), &JsValue::from_str(code));
    if let Some(cause) = cause {
        let _ = Reflect::set(&js, &JsValue::from_str("cause"), cause);
    }
    js.into()
}

/// The `Error` to throw for `error`.
pub(crate) fn to_js(error: &memdoc::Error) -> JsValue {
    coded(error.code(), &error.to_string(), None)
}

/// The `Error` to throw for a failure of the boundary itself.
pub(crate) fn boundary_to_js(error: &BoundaryError) -> JsValue {
    coded(error.code(), &error.to_string(), None)
}

/// The `Error` to throw for a store error; for `store/host-failed` after the
/// host threw or rejected, its `cause` is what the host threw; for an error
/// about one record, its `key` is the record's.
pub(crate) fn store_to_js(error: &StoreError<JsValue>) -> JsValue {
    let js = coded(error.code(), &error.message(), error.host_cause());
    if let Some(key) = error.key() {
        let _ = Reflect::set(&js, &JsValue::from_str("key"), &JsValue::from_str(key));
    }
    js
}
