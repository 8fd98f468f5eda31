//! The wasm32 half of [`packed`](super): the import of `packed.js`, the
//! reader that makes a value out of a [`Packed`]'s numbers and strings.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::{Names, PackError, Packed};
use crate::base::errors::boundary_to_js;
use crate::js::error::BoundaryError;

#[wasm_bindgen(module = "/src/wire/packed/packed.js")]
extern "C" {
    /// The value of a [`Packed`]'s numbers and strings.
    fn unpack(strings: &str, numbers: &[f64], fresh: &[f64]) -> JsValue;
}

thread_local! {
    /// The names `packed.js` has been sent by this instance (it keeps them
    /// across instances: a fresh one sends them again, and they replace
    /// its copies).
    static NAMES: std::cell::RefCell<Names> = std::cell::RefCell::default();
}

/// A view as the typed JavaScript value `T` the TypeScript contract names.
pub(crate) fn view<T: JsCast>(value: &impl serde::Serialize) -> Result<T, JsValue> {
    let packed = NAMES.with(|names| Packed::of(value, &mut names.borrow_mut()));
    unpacked(packed).map(JsCast::unchecked_into)
}

/// The value of `packed`, or the error of not packing it (the part of
/// [`view`] that is the same for every type).
#[inline(never)]
fn unpacked(packed: Result<Packed, PackError>) -> Result<JsValue, JsValue> {
    packed
        .map(|p| unpack(&p.strings, &p.numbers, &p.fresh))
        .map_err(|e| boundary_to_js(&BoundaryError::Internal(e.to_string())))
}
