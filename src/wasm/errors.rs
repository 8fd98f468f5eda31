//! The one place a JavaScript error is built: a real `Error` whose message is
//! the core error's sentence and whose `code` property is its stable code, so
//! callers can branch on `error.code` and never on message text.

use js_sys::Reflect;
use wasm_bindgen::JsValue;

/// The `Error` to throw for `error`.
pub(crate) fn to_js(error: &crate::Error) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    // Setting a property only fails on frozen objects and proxies; a fresh
    // Error is neither, so there is no failure to report here.
    let _ = Reflect::set(
        &js,
        &JsValue::from_str("code"),
        &JsValue::from_str(error.code()),
    );
    js.into()
}
