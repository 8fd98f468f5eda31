//! Plain copies of loosely typed arguments (options, memory references), made
//! before they are read ([`read`](super::read)). The reader reads objects
//! with calls that do not catch, so a throwing getter or a Proxy trap would unwind
//! through WebAssembly as an uncoded exception (skipping Rust's clean-up),
//! and a deeply nested value would exhaust the stack. The copy is made in
//! JavaScript (`plain.js`), in one call instead of several per property,
//! with every read inside `try`: a value that throws while being read, nests
//! deeper than [`MAX_DEPTH`] or holds more than [`MAX_ITEMS`] values is
//! `options/invalid`. The copy keeps numbers as they are (`NaN` stays
//! `NaN`, for the resolvers to refuse), has only own enumerable string keys
//! defined as data properties in objects without a prototype (a
//! `__proto__` key stays a field, never a prototype), and keeps functions
//! as they are.

use js_sys::Array;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use memdoc::Error;

use crate::base::errors::to_js;

/// The deepest nesting an options value may have.
pub(crate) const MAX_DEPTH: usize = 16;

/// The most values (keys and array items, all levels) an options value may
/// hold.
pub(crate) const MAX_ITEMS: usize = 100_000;

#[wasm_bindgen(module = "/src/wasm/plain.js")]
extern "C" {
    /// `[0, copy]`, `[1]` (too deep), `[2]` (too large) or `[3, what was
    /// thrown]`.
    #[wasm_bindgen(js_name = plainCopy)]
    fn plain_copy(value: &JsValue, max_depth: u32, max_items: u32) -> Array;
}

/// A plain copy of `value`.
///
/// # Errors
/// `options/invalid` when reading it throws, or it is too deep or too large.
pub(crate) fn plain(value: &JsValue) -> Result<JsValue, JsValue> {
    let limit = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let answer = plain_copy(value, limit(MAX_DEPTH), limit(MAX_ITEMS));
    let why = match answer.get(0).as_f64() {
        Some(0.0) => return Ok(answer.get(1)),
        Some(1.0) => format!("options nest deeper than {MAX_DEPTH} levels"),
        Some(2.0) => format!("options hold more than {MAX_ITEMS} values"),
        _ => format!(
            "reading them threw: {}",
            answer.get(1).as_string().unwrap_or_default()
        ),
    };
    Err(to_js(&Error::InvalidOptions(why)))
}
