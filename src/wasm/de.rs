//! The one deserializer of JavaScript values: options and memory references
//! on their way in (after [`plain`](super::plain) copied them).
//!
//! For options it reads as `serde-wasm-bindgen` did, with the same error
//! sentences: `null` and `undefined` are absent, a struct reads the keys
//! of the object's own that are its fields and nothing else (a field that
//! `Object.prototype` holds is not an option), a sequence is an array (or
//! another iterable). It does not format
//! floats in Rust: a number in an error sentence is written from the host's
//! own digits (serde's sentences are rebuilt in [`Invalid`] for that), which
//! keeps float formatting and its tables out of the module.

use std::fmt;

use js_sys::{Array, Number};
use serde::de::{self, DeserializeSeed, Expected, IntoDeserializer, Unexpected, Visitor};
use serde::forward_to_deserialize_any;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::text::option_string;
use crate::quoted::Quoted;

/// Why a value is not of the shape expected: the sentence.
#[derive(Debug)]
pub(crate) struct Invalid(pub(crate) String);

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Invalid {}

impl de::Error for Invalid {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }

    // serde's own sentences, with `Unexpected` written by [`unexpected`]
    // rather than by its `Display`, which would bring float formatting in.
    fn invalid_type(found: Unexpected<'_>, expected: &dyn Expected) -> Self {
        Self(format!(
            "invalid type: {}, expected {expected}",
            unexpected(found)
        ))
    }

    fn invalid_value(found: Unexpected<'_>, expected: &dyn Expected) -> Self {
        Self(format!(
            "invalid value: {}, expected {expected}",
            unexpected(found)
        ))
    }
}

/// What serde's `Display` of `Unexpected` writes.
fn unexpected(found: Unexpected<'_>) -> String {
    match found {
        Unexpected::Bool(b) => format!("boolean `{b}`"),
        Unexpected::Unsigned(n) => format!("integer `{n}`"),
        Unexpected::Signed(n) => format!("integer `{n}`"),
        Unexpected::Float(n) => format!("floating point `{}`", float_text(n)),
        Unexpected::Char(c) => format!("character `{c}`"),
        Unexpected::Str(s) => format!("string {}", Quoted(s)),
        Unexpected::Bytes(_) => "byte array".to_owned(),
        Unexpected::Unit => "unit value".to_owned(),
        Unexpected::Option => "Option value".to_owned(),
        Unexpected::NewtypeStruct => "newtype struct".to_owned(),
        Unexpected::Seq => "sequence".to_owned(),
        Unexpected::Map => "map".to_owned(),
        Unexpected::Enum => "enum".to_owned(),
        Unexpected::UnitVariant => "unit variant".to_owned(),
        Unexpected::NewtypeVariant => "newtype variant".to_owned(),
        Unexpected::TupleVariant => "tuple variant".to_owned(),
        Unexpected::StructVariant => "struct variant".to_owned(),
        Unexpected::Other(other) => other.to_owned(),
    }
}

/// A JavaScript value to deserialize.
pub(crate) struct De {
    value: JsValue,
}

impl De {
    /// `value`, read as options are: a struct reads its own fields only.
    pub(crate) fn new(value: JsValue) -> Self {
        Self { value }
    }

    fn is_nullish(&self) -> bool {
        self.value.is_null() || self.value.is_undefined()
    }

    /// A safe integer, as an `i64`.
    fn safe_integer(&self) -> Option<i64> {
        if Number::is_safe_integer(&self.value) {
            // Safe integers convert exactly.
            #[allow(clippy::cast_possible_truncation)]
            return self.value.as_f64().map(|n| n as i64);
        }
        None
    }

    #[cold]
    fn invalid_type(&self, expected: &dyn Expected) -> Invalid {
        let text;
        let unexpected = if self.is_nullish() {
            Unexpected::Unit
        } else if let Some(b) = self.value.as_bool() {
            Unexpected::Bool(b)
        } else if let Some(n) = self.value.as_f64() {
            Unexpected::Float(n)
        } else if let Some(s) = self.value.as_string() {
            text = s;
            Unexpected::Str(&text)
        } else {
            text = format!("{:?}", self.value);
            Unexpected::Other(&text)
        };
        de::Error::invalid_type(unexpected, expected)
    }

    /// The items of an array (or of another iterable), `None` for a value
    /// that has none. Not generic, so compiled once.
    fn items(&self) -> Result<Option<Vec<JsValue>>, Invalid> {
        if let Some(array) = self.value.dyn_ref::<Array>() {
            return Ok(Some(array.to_vec()));
        }
        match js_sys::try_iter(&self.value).map_err(|e| thrown(&e))? {
            Some(iter) => iter
                .collect::<Result<Vec<_>, _>>()
                .map(Some)
                .map_err(|e| thrown(&e)),
            None => Ok(None),
        }
    }

    /// The object's own keys and values, in order, taken in one call; with
    /// `only`, those whose keys are among it (a struct's fields: the others
    /// are not read, and a field that `Object.prototype` holds is not the
    /// object's).
    fn visit_entries<'de, V: Visitor<'de>>(
        self,
        visitor: V,
        only: Option<&'static [&'static str]>,
    ) -> Result<V::Value, Invalid> {
        visitor.visit_map(Entries {
            flat: own_entries(&self.value),
            at: 0,
            value: None,
            only,
        })
    }
}

/// `n` as Rust's `Display` and serde's `Unexpected::Float` write it (all
/// the digits, no exponent, `.0` for a whole number, `NaN`, `inf`), from
/// the host's shortest digits.
fn float_text(n: f64) -> String {
    if n.is_nan() {
        return "NaN".to_owned();
    }
    let sign = if n.is_sign_negative() { "-" } else { "" };
    if n.is_infinite() {
        return format!("{sign}inf");
    }
    // `String(|n|)`: plain digits, or `d.ddde±x` outside 1e-6 <= |n| < 1e21.
    let host = Number::from(n.abs())
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default();
    let plain = match host.split_once('e') {
        None => host,
        Some((mantissa, exponent)) => {
            let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
            let exponent: i64 = exponent.parse().unwrap_or(0);
            let point = exponent + 1;
            if point <= 0 {
                let zeros = usize::try_from(-point).unwrap_or(0);
                format!("0.{}{digits}", "0".repeat(zeros))
            } else {
                let point = usize::try_from(point).unwrap_or(0);
                if digits.len() > point {
                    format!("{}.{}", &digits[..point], &digits[point..])
                } else {
                    format!("{digits}{}", "0".repeat(point - digits.len()))
                }
            }
        }
    };
    if plain.contains('.') {
        format!("{sign}{plain}")
    } else {
        format!("{sign}{plain}.0")
    }
}

impl<'de> de::Deserializer<'de> for De {
    type Error = Invalid;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        if self.is_nullish() {
            visitor.visit_unit()
        } else if let Some(b) = self.value.as_bool() {
            visitor.visit_bool(b)
        } else if self.value.as_f64().is_some() {
            match self.safe_integer() {
                Some(n) => visitor.visit_i64(n),
                // Only `f64` fields take other numbers, and they ask for one.
                None => Err(self.invalid_type(&visitor)),
            }
        } else if let Some(s) = option_string(&self.value) {
            visitor.visit_string(s)
        } else if Array::is_array(&self.value) {
            self.deserialize_seq(visitor)
        } else if self.value.is_object() {
            self.visit_entries(visitor, None)
        } else {
            Err(self.invalid_type(&visitor))
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        if self.is_nullish() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        if self.is_nullish() {
            visitor.visit_unit()
        } else {
            Err(self.invalid_type(&visitor))
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        match self.value.as_bool() {
            Some(b) => visitor.visit_bool(b),
            None => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        match self.value.as_f64() {
            Some(n) => visitor.visit_f64(n),
            None => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        match self.safe_integer() {
            Some(n) => visitor.visit_i64(n),
            None => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        match self.safe_integer().and_then(|n| u64::try_from(n).ok()) {
            Some(n) => visitor.visit_u64(n),
            None => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        self.deserialize_i64(visitor)
    }

    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        self.deserialize_i64(visitor)
    }

    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        self.deserialize_i64(visitor)
    }

    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        self.deserialize_u64(visitor)
    }

    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        self.deserialize_u64(visitor)
    }

    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        self.deserialize_u64(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        match option_string(&self.value) {
            Some(s) => visitor.visit_string(s),
            None => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        self.deserialize_string(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        self.deserialize_string(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        match self.items()? {
            Some(items) => visitor.visit_seq(Items {
                items: items.into_iter(),
            }),
            None => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        if self.value.is_object() {
            self.visit_entries(visitor, None)
        } else {
            Err(self.invalid_type(&visitor))
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Invalid> {
        if !self.value.is_object() {
            return Err(self.invalid_type(&visitor));
        }
        self.visit_entries(visitor, Some(fields))
    }

    /// An ignored value is not converted at all.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit_struct newtype_struct tuple
        tuple_struct enum
    }
}

/// A value the host threw while being iterated.
fn thrown(e: &JsValue) -> Invalid {
    Invalid(
        e.dyn_ref::<js_sys::Error>()
            .map_or_else(|| format!("{e:?}"), |e| String::from(e.message())),
    )
}

/// The items of a sequence.
struct Items {
    items: std::vec::IntoIter<JsValue>,
}

impl<'de> de::SeqAccess<'de> for Items {
    type Error = Invalid;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Invalid> {
        self.items
            .next()
            .map(|value| seed.deserialize(De { value }))
            .transpose()
    }
}

#[wasm_bindgen(module = "/src/wasm/plain.js")]
extern "C" {
    /// The object's own enumerable string keys, each followed by its value.
    #[wasm_bindgen(js_name = ownEntries)]
    fn own_entries(object: &JsValue) -> Array;
}

/// The entries of an object, in order: every one, or those whose keys are
/// `only`'s.
struct Entries {
    /// Each key followed by its value.
    flat: Array,
    at: u32,
    value: Option<JsValue>,
    only: Option<&'static [&'static str]>,
}

impl Entries {
    /// The next key, its value kept for `next_value_seed`.
    fn next_key(&mut self) -> Option<String> {
        while self.at < self.flat.length() {
            let key = self.flat.get(self.at).as_string().unwrap_or_default();
            self.at += 2;
            if self.only.map_or(true, |only| only.contains(&key.as_str())) {
                self.value = Some(self.flat.get(self.at - 1));
                return Some(key);
            }
        }
        None
    }
}

impl<'de> de::MapAccess<'de> for Entries {
    type Error = Invalid;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Invalid> {
        match self.next_key() {
            Some(key) => seed.deserialize(key.into_deserializer()).map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Invalid> {
        let value = self.value.take().unwrap_or(JsValue::UNDEFINED);
        seed.deserialize(De { value })
    }
}
