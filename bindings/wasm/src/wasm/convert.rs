//! Conversions across the boundary: text and options in (coded errors for
//! the wrong types), views out through the default wire format
//! ([`view`], `crate::wire::packed`), one JSON-compatible serializer
//! (`null`, never `undefined`; plain objects, never `Map`), with a text
//! field that repeats the input set as slices of it.

use crate::js::error::BoundaryError;
pub(crate) use crate::wire::packed::wasm::view;
use memdoc::Error;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

use super::plain::plain;
use super::read::{Path, Read};
use super::text::Kept;
use crate::base::errors::{boundary_to_js, to_js};

/// A text argument; `what` names it in the error.
pub(crate) fn string(value: &JsValue, what: &str) -> Result<String, JsValue> {
    super::text::argument_string(value).ok_or_else(|| not_a_string(what))
}

/// A text argument converted [`near`](Kept::near) the text `kept` holds.
pub(crate) fn string_near(value: &JsValue, what: &str, kept: &Kept) -> Result<String, JsValue> {
    kept.near(value).ok_or_else(|| not_a_string(what))
}

fn not_a_string(what: &str) -> JsValue {
    boundary_to_js(&BoundaryError::NotAString(what.to_owned()))
}

/// A loosely typed value of the shape `I` (`MemoryRefInput`); a wrong shape,
/// or a value that throws while being read (see [`plain`]), is
/// `options/invalid`.
pub(crate) fn shaped<I: Read>(value: &JsValue) -> Result<I, JsValue> {
    I::read(plain(value)?, Path::Top).map_err(|e| to_js(&Error::InvalidOptions(e.0)))
}

/// Loosely typed options (`OptionsInput`, `LimitsInput`,
/// `StoreOptionsInput`, …); missing, `undefined` and `null` are the
/// defaults, a wrong shape is `options/invalid`.
pub(crate) fn input<I: Read + Default>(value: Option<JsValue>) -> Result<I, JsValue> {
    match value {
        Some(v) if !v.is_undefined() && !v.is_null() => shaped(&v),
        _ => Ok(I::default()),
    }
}

/// Read loosely typed options and check them with one of the core's
/// resolvers (`OptionsInput::validate_options`, `LimitsInput::resolve`, …).
pub(crate) fn checked<I: Read + Default, T>(
    value: Option<JsValue>,
    resolve: impl FnOnce(I) -> Result<T, Error>,
) -> Result<T, JsValue> {
    resolve(input(value)?).map_err(|e| to_js(&e))
}

/// `value` through serde-wasm-bindgen's JSON-compatible serializer, which
/// [`view`] makes the same value as (test builds only: the JavaScript tests
/// compare the two).
#[cfg(feature = "test-panic")]
pub(crate) fn view_through_serde<T: JsCast>(value: &impl Serialize) -> Result<T, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map(JsCast::unchecked_into)
        .map_err(|e| boundary_to_js(&BoundaryError::Internal(e.to_string())))
}

/// `value` as the JavaScript result `T`, with its text field (`field`,
/// serialized as `name`) set afterwards as
/// [`repeated`](super::text::repeated) gives it: a slice of the input string
/// `input` (whose Rust copy is `source`) when it repeats it.
pub(crate) fn view_repeating<V: Serialize, S: AsRef<str> + Default, T: JsCast>(
    value: V,
    field: fn(&mut V) -> &mut S,
    name: &'static str,
    input: &JsValue,
    source: &str,
) -> Result<T, JsValue> {
    view_setting(value, field, name, |text| {
        super::text::repeated(input.unchecked_ref(), source, text.as_ref())
    })
}

/// `value` as the JavaScript result `T`, with its text field (`field`,
/// serialized as `name`) made by `kept` ([`Kept::repeated`]): slices of the
/// string kept there where the text repeats it. The text is kept in turn.
pub(crate) fn view_kept<V: Serialize, T: JsCast>(
    value: V,
    field: fn(&mut V) -> &mut String,
    name: &'static str,
    kept: &Kept,
) -> Result<T, JsValue> {
    view_setting(value, field, name, |text| kept.repeated(text.into()))
}

/// `value` as the JavaScript result `T`, with its text field (`field`,
/// serialized as `name`) taken out first and set afterwards as `make`
/// makes it.
fn view_setting<V: Serialize, S: Default, T: JsCast>(
    mut value: V,
    field: fn(&mut V) -> &mut S,
    name: &'static str,
    make: impl FnOnce(S) -> js_sys::JsString,
) -> Result<T, JsValue> {
    let text = std::mem::take(field(&mut value));
    let result: T = view(&value)?;
    js_sys::Reflect::set(
        result.as_ref(),
        &crate::base::names::name(name),
        &make(text),
    )?;
    Ok(result)
}
