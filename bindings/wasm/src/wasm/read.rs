//! The one reader of JavaScript values: options and memory references on
//! their way in, from the plain copies [`plain`](super::plain) makes
//! (objects without a prototype, so every field read is the object's own).
//!
//! Each options type reads its fields by name ([`Read`], implemented in
//! [`options`](super::options)); `undefined` and `null` are absent. A value
//! of the wrong type is refused with a sentence that names where it is and
//! what it is: ``\`limits.soft\` must be a number, not the string "10"``.
//! Numbers in it are written as the host writes them (`String(n)`), so the
//! module carries no float formatting of its own.

use std::cell::Cell;

use js_sys::{Array, JsString, Number};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::text::option_string;
use crate::base::names::name;
use memdoc::Quoted;

/// Why a value is not of the shape expected: the sentence.
#[derive(Debug)]
pub(crate) struct Invalid(pub(crate) String);

/// A value read from a plain copy of a JavaScript value.
pub(crate) trait Read: Sized {
    /// `value`, which is at `at`.
    ///
    /// # Errors
    /// [`Invalid`] when it is not of this type.
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid>;
}

/// Where a value is in the options: the options themselves, a field of an
/// object or an item of a list.
#[derive(Clone, Copy)]
pub(crate) enum Path<'a> {
    /// The options (or the memory reference) as passed.
    Top,
    /// A field of the object at the first path.
    Field(&'a Path<'a>, &'static str),
    /// An item of the list at the first path.
    Item(&'a Path<'a>, usize),
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Top => Ok(()),
            Self::Field(Self::Top, field) => f.write_str(field),
            Self::Field(parent, field) => write!(f, "{parent}.{field}"),
            Self::Item(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

impl Path<'_> {
    /// `value`, found here, is not `expected` (`"a string"`).
    #[cold]
    pub(crate) fn invalid(self, value: &JsValue, expected: &str) -> Invalid {
        let found = found(value);
        Invalid(match self {
            Self::Top => format!("expected {expected}, not {found}"),
            _ => format!("`{self}` must be {expected}, not {found}"),
        })
    }
}

/// The longest string a sentence quotes; a longer one is described by its
/// length.
const QUOTED_UNITS: u32 = 64;

/// What `value` is, for a sentence: `the number 5`, `the string "big"`,
/// `a list`. Also how the store names a host's malformed answer. It only
/// asks types, so no code of the value's runs.
pub(crate) fn found(value: &JsValue) -> String {
    if value.is_null() {
        "null".to_owned()
    } else if value.is_undefined() {
        "undefined".to_owned()
    } else if let Some(b) = value.as_bool() {
        format!("the boolean {b}")
    } else if let Some(n) = value.as_f64() {
        let written = Number::from(n)
            .to_string_with_radix(10)
            .map(String::from)
            .unwrap_or_default();
        format!("the number {written}")
    } else if let Some(text) = value.dyn_ref::<JsString>() {
        if text.length() > QUOTED_UNITS {
            format!("a string of {} UTF-16 units", text.length())
        } else {
            format!("the string {}", Quoted(&String::from(text)))
        }
    } else if Array::is_array(value) {
        "a list".to_owned()
    } else if value.is_function() {
        "a function".to_owned()
    } else if value.is_symbol() {
        "a symbol".to_owned()
    } else if value.is_bigint() {
        "a bigint".to_owned()
    } else {
        "an object".to_owned()
    }
}

impl Read for String {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        option_string(&value).ok_or_else(|| at.invalid(&value, "a string"))
    }
}

impl Read for f64 {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        value.as_f64().ok_or_else(|| at.invalid(&value, "a number"))
    }
}

impl Read for bool {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        value
            .as_bool()
            .ok_or_else(|| at.invalid(&value, "a boolean"))
    }
}

impl<T: Read> Read for Vec<T> {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let Some(list) = value.dyn_ref::<Array>() else {
            return Err(at.invalid(&value, "a list"));
        };
        list.iter()
            .enumerate()
            .map(|(index, item)| T::read(item, Path::Item(&at, index)))
            .collect()
    }
}

#[wasm_bindgen(module = "/src/wasm/plain.js")]
extern "C" {
    /// `object[key]` of a plain copy, which cannot throw (no getters, Proxies
    /// or prototype), with `null` read as `undefined` when `absent_if_null`.
    #[wasm_bindgen(js_name = ownField)]
    fn own_field(object: &JsValue, key: &JsValue, absent_if_null: bool) -> JsValue;

    /// How many fields a plain copy has.
    #[wasm_bindgen(js_name = ownCount)]
    fn own_count(object: &JsValue) -> u32;
}

/// The fields of an object, read by name.
pub(crate) struct Fields<'a> {
    object: JsValue,
    at: Path<'a>,
    /// How many of the object's fields have not been found yet: once all
    /// have, every other field is absent without asking (options name a
    /// few of the fields a type has).
    unfound: Cell<u32>,
}

impl<'a> Fields<'a> {
    /// The fields of `value`, which must be an object (not a list or a
    /// function).
    ///
    /// # Errors
    /// [`Invalid`] for any other value.
    pub(crate) fn of(value: JsValue, at: Path<'a>) -> Result<Self, Invalid> {
        if !value.is_object() || Array::is_array(&value) {
            return Err(at.invalid(&value, "an object"));
        }
        Ok(Self {
            unfound: Cell::new(own_count(&value)),
            object: value,
            at,
        })
    }

    /// The field `field`'s value; `None` when the object has none, or it is
    /// `undefined` (or `null`, when `absent_if_null`).
    fn get(&self, field: &'static str, absent_if_null: bool) -> Option<JsValue> {
        let unfound = self.unfound.get();
        if unfound == 0 {
            return None;
        }
        let value = own_field(&self.object, &name(field), absent_if_null);
        if value.is_undefined() {
            return None;
        }
        self.unfound.set(unfound - 1);
        Some(value)
    }

    /// The field `field`, `None` when it is absent, `undefined` or `null`.
    ///
    /// # Errors
    /// [`Invalid`] when it is of the wrong type.
    pub(crate) fn optional<T: Read>(&self, field: &'static str) -> Result<Option<T>, Invalid> {
        self.get(field, true)
            .map(|value| T::read(value, Path::Field(&self.at, field)))
            .transpose()
    }

    /// The field `field`, which must be there (not `undefined`).
    ///
    /// # Errors
    /// [`Invalid`] when it is missing or of the wrong type.
    pub(crate) fn required<T: Read>(&self, field: &'static str) -> Result<T, Invalid> {
        let at = Path::Field(&self.at, field);
        match self.get(field, false) {
            Some(value) => T::read(value, at),
            None => Err(Invalid(format!("`{at}` is required"))),
        }
    }
}
