//! JavaScript strings for the names the boundary reads and writes on every
//! call (the fields of options, the text field set on a result, the names
//! `parse`'s result is built with): each one made once per instance, then
//! shared, instead of being decoded again from WebAssembly's memory by the
//! host's `TextDecoder` each time it is used.

use std::cell::RefCell;

use wasm_bindgen::JsValue;

thread_local! {
    /// The names made so far, by the literal's address (a few dozen at
    /// most: one per literal the boundary names).
    static NAMES: RefCell<Vec<(&'static str, JsValue)>> = const { RefCell::new(Vec::new()) };
}

/// The JavaScript string `text`. A literal is found by its address and
/// length, not compared byte by byte with every name made before it (two
/// copies of one literal, if the compiler kept two, make two names).
pub(crate) fn name(text: &'static str) -> JsValue {
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        if let Some((_, made)) = names.iter().find(|(known, _)| std::ptr::eq(*known, text)) {
            return made.clone();
        }
        let made = JsValue::from_str(text);
        names.push((text, made.clone()));
        made
    })
}
