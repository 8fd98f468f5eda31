//! Conversions across the boundary: text and options in (coded errors for
//! the wrong types), views out through one shared JSON-compatible serializer
//! (`null`, never `undefined`; plain objects, never `Map`).

use crate::js::error::BoundaryError;
use crate::Error;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_wasm_bindgen::Serializer;
use wasm_bindgen::{JsCast, JsValue};

use super::de::De;
use super::errors::{boundary_to_js, to_js};
use super::plain::plain;

/// The serializer every result goes through.
pub(crate) const SERIALIZER: Serializer = Serializer::json_compatible();

/// A text argument; `what` names it in the error.
pub(crate) fn string(value: &JsValue, what: &str) -> Result<String, JsValue> {
    super::text::string(value)
        .ok_or_else(|| boundary_to_js(&BoundaryError::NotAString(what.to_owned())))
}

/// A loosely typed value of the shape `I` (`MemoryRefInput`); a wrong shape,
/// or a value that throws while being read (see [`plain`]), is
/// `options/invalid`.
pub(crate) fn shaped<I: DeserializeOwned>(value: &JsValue) -> Result<I, JsValue> {
    I::deserialize(De::lenient(plain(value)?)).map_err(|e| to_js(&Error::InvalidOptions(e.0)))
}

/// Loosely typed options (`OptionsInput`, `LimitsInput`,
/// `StoreOptionsInput`, …); missing, `undefined` and `null` are the
/// defaults, a wrong shape is `options/invalid`.
pub(crate) fn input<I: DeserializeOwned + Default>(value: Option<JsValue>) -> Result<I, JsValue> {
    match value {
        Some(v) if !v.is_undefined() && !v.is_null() => shaped(&v),
        _ => Ok(I::default()),
    }
}

/// Read loosely typed options and check them with one of the core's
/// resolvers (`OptionsInput::validate_options`, `LimitsInput::resolve`, …).
pub(crate) fn checked<I: DeserializeOwned + Default, T>(
    value: Option<JsValue>,
    resolve: impl FnOnce(I) -> Result<T, Error>,
) -> Result<T, JsValue> {
    resolve(input(value)?).map_err(|e| to_js(&e))
}

/// A view as the typed JavaScript value `T` the TypeScript contract names.
pub(crate) fn view<T: JsCast>(value: &impl Serialize) -> Result<T, JsValue> {
    value
        .serialize(&SERIALIZER)
        .map(JsCast::unchecked_into)
        .map_err(|e| boundary_to_js(&BoundaryError::Internal(e.to_string())))
}
