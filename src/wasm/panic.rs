//! Panics made readable. A panic in wasm32 aborts as a bare
//! `WebAssembly.RuntimeError: unreachable`; the hook installed here keeps the
//! panic's message (and still logs it with `console_error_panic_hook`), and
//! the package's JavaScript entry, on catching that `RuntimeError`, asks for
//! the message with `__takePanic` and throws an `Error` with code
//! `internal/panic` instead.

use std::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::js::error::BoundaryError;

use super::errors::boundary_to_js;

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Record every panic's message, and log it to the console as well.
pub(crate) fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|last| {
            // A panic while the slot is borrowed (a panic inside this hook)
            // must not panic again; the console still gets the message.
            if let Ok(mut slot) = last.try_borrow_mut() {
                *slot = Some(info.to_string());
            }
        });
        console_error_panic_hook::hook(info);
    }));
}

/// The `internal/panic` error for the last panic, which is then forgotten.
/// Called by the package entry only; not part of the public API.
#[wasm_bindgen(js_name = __takePanic, skip_typescript)]
pub fn take_panic() -> JsValue {
    let message = LAST_PANIC
        .with(|last| last.try_borrow_mut().ok().and_then(|mut slot| slot.take()))
        .unwrap_or_else(|| "the WebAssembly module trapped without a panic message".to_owned());
    boundary_to_js(&BoundaryError::Panic(message))
}

/// With the `test-panic` feature (test builds only), a text equal to this
/// panics, so the JavaScript tests can exercise the panic path through a real
/// export. Release builds do not have it.
#[cfg(feature = "test-panic")]
const TEST_PANIC_TEXT: &str = "\u{0}memdoc:test-panic";

/// Panic if `text` is the test trigger and the `test-panic` feature is on.
#[cfg_attr(not(feature = "test-panic"), allow(unused_variables))]
pub(crate) fn test_trigger(text: &str) {
    #[cfg(feature = "test-panic")]
    assert!(
        text != TEST_PANIC_TEXT,
        "test panic requested through the boundary"
    );
}
