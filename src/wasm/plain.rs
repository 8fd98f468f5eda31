//! Plain copies of loosely typed arguments (options, memory references), made
//! before they are deserialized. The deserializer reads objects with calls
//! that do not catch, so a throwing getter or a Proxy trap would unwind
//! through WebAssembly as an uncoded exception (skipping Rust's clean-up),
//! and a deeply nested value would exhaust the stack. Here every read is a
//! catching `Reflect` call: a value that throws while being read, nests
//! deeper than [`MAX_DEPTH`] or holds more than [`MAX_ITEMS`] values is
//! `options/invalid`. The copy keeps numbers as they are (`NaN` stays
//! `NaN`, for the resolvers to refuse), has only own enumerable string keys
//! defined as data properties (a `__proto__` key stays a field, never a
//! prototype), and keeps functions as they are.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::Error;

use super::errors::to_js;
use super::names::name;

/// The deepest nesting an options value may have.
pub(crate) const MAX_DEPTH: usize = 16;

/// The most values (keys and array items, all levels) an options value may
/// hold.
pub(crate) const MAX_ITEMS: usize = 100_000;

/// A plain copy of `value`.
///
/// # Errors
/// `options/invalid` when reading it throws, or it is too deep or too large.
pub(crate) fn plain(value: &JsValue) -> Result<JsValue, JsValue> {
    let mut budget = MAX_ITEMS;
    copy(value, MAX_DEPTH, &mut budget).map_err(|why| to_js(&Error::InvalidOptions(why)))
}

fn copy(value: &JsValue, depth: usize, budget: &mut usize) -> Result<JsValue, String> {
    if !value.is_object() || value.is_function() {
        return Ok(value.clone());
    }
    let Some(depth) = depth.checked_sub(1) else {
        return Err(format!("options nest deeper than {MAX_DEPTH} levels"));
    };
    let thrown = |e: JsValue| format!("reading them threw: {}", describe(&e));
    // Asked first: it throws for a revoked Proxy, which `Array.isArray` would
    // also do, without catching.
    let keys = Reflect::own_keys(value).map_err(thrown)?;
    let out: JsValue = if Array::is_array(value) {
        Array::new().into()
    } else {
        Object::new().into()
    };
    // One descriptor for every field, its `value` set for each.
    let field = Object::new();
    let value_key = name("value");
    for flag in ["enumerable", "writable", "configurable"] {
        Reflect::set(&field, &name(flag), &JsValue::TRUE).map_err(thrown)?;
    }
    for key in keys.iter().filter(JsValue::is_string) {
        let described = Reflect::get_own_property_descriptor(value.unchecked_ref::<Object>(), &key)
            .map_err(thrown)?;
        let enumerable = described.is_object()
            && Reflect::get(&described, &name("enumerable"))
                .map_err(thrown)?
                .is_truthy();
        if !enumerable {
            continue;
        }
        *budget = budget
            .checked_sub(1)
            .ok_or_else(|| format!("options hold more than {MAX_ITEMS} values"))?;
        let item = copy(&Reflect::get(value, &key).map_err(thrown)?, depth, budget)?;
        Reflect::set(&field, &value_key, &item).map_err(thrown)?;
        Reflect::define_property(out.unchecked_ref::<Object>(), &key, &field).map_err(thrown)?;
    }
    Ok(out)
}

/// A short description of what was thrown (an `Error`'s message, or the
/// value's type), never the value's own string conversion, which could
/// throw again.
fn describe(thrown: &JsValue) -> String {
    thrown.dyn_ref::<js_sys::Error>().map_or_else(
        || thrown.js_typeof().as_string().unwrap_or_default(),
        |e| String::from(e.message()),
    )
}
