//! Panics made readable and survivable. A panic in wasm32 would abort as a
//! bare `WebAssembly.RuntimeError: unreachable` and leave the instance
//! poisoned (no destructor ran, borrows and locks stay taken), so calling it
//! again is not safe. The hook installed here schedules a fresh instance for
//! the next call (`schedule_reinit`: wasm-bindgen's glue instantiates the
//! same module again and marks every object of the old one as stale), and
//! throws the `internal/panic` error, with the panic's message, in place of
//! the trap. A trap without a panic (out of memory, stack overflow) reaches
//! the package's JavaScript entry bare; it asks for the same recovery with
//! [`schedule_reinit`] and for the error with [`panic_error`].

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::js::error::BoundaryError;

use crate::base::errors::boundary_to_js;

/// On every panic: log it, schedule a fresh instance, throw `internal/panic`.
pub(crate) fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        wasm_bindgen::handler::schedule_reinit();
        wasm_bindgen::throw_val(boundary_to_js(&BoundaryError::Panic(info.to_string())));
    }));
}

/// Replace this instance before the next call. Called by the package entry
/// after a trap that was not a panic; it touches no memory, so a poisoned
/// instance can still run it. Not part of the public API.
#[wasm_bindgen(js_name = __scheduleReinit, skip_typescript)]
pub fn schedule_reinit() {
    wasm_bindgen::handler::schedule_reinit();
}

/// The `internal/panic` error saying `message`. Called by the package entry
/// (on the fresh instance) for a trap that was not a panic and for a call
/// that a panic elsewhere abandoned. Not part of the public API.
///
/// `message` is a `JsValue`, not a `String`: the glue copies a string
/// argument into the instance's memory before it replaces a poisoned
/// instance, so the copy would land in the old memory.
#[wasm_bindgen(js_name = __panicError, skip_typescript)]
pub fn panic_error(message: &JsValue) -> JsValue {
    let message = message.as_string().unwrap_or_default();
    boundary_to_js(&BoundaryError::Panic(message))
}

/// With the `test-panic` feature (test builds only), a text equal to one of
/// these panics, or traps without a panic (as running out of memory would),
/// so the JavaScript tests can exercise both paths through a real export.
/// Release builds do not have them.
#[cfg(feature = "test-panic")]
const TEST_PANIC_TEXT: &str = "\u{0}memdoc:test-panic";
#[cfg(feature = "test-panic")]
const TEST_TRAP_TEXT: &str = "\u{0}memdoc:test-trap";

/// Panic or trap if `text` is a test trigger and the `test-panic` feature is
/// on.
#[cfg_attr(not(feature = "test-panic"), allow(unused_variables))]
pub(crate) fn test_trigger(text: &str) {
    #[cfg(feature = "test-panic")]
    {
        if text == TEST_TRAP_TEXT {
            std::arch::wasm32::unreachable();
        }
        assert!(
            text != TEST_PANIC_TEXT,
            "test panic requested through the boundary"
        );
    }
}
