//! The stored records' JSON in WebAssembly (`crate::store::json`): the
//! host's `JSON.stringify` and `JSON.parse`, with the records converted
//! through the boundary's serializer on the way out and through
//! [`Value`], a strict reader of parsed JSON, on the way in.
//!
//! `JSON.stringify` writes the records exactly as `serde_json::to_string`
//! does natively: keys in field order, the same escapes in strings, whole
//! numbers without a fraction (a record holds no other numbers).

use std::fmt;

use js_sys::{Array, Number, Object, JSON};
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, Visitor};
use serde::{forward_to_deserialize_any, Serialize};
use wasm_bindgen::{JsCast, JsValue};

use super::convert::SERIALIZER;

/// `value` as compact JSON.
pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    // The records are structs of strings, whole numbers below 2^53 and
    // vectors: they always serialize, and JSON.stringify takes any value
    // they serialize to.
    value
        .serialize(&SERIALIZER)
        .ok()
        .and_then(|js| JSON::stringify(&js).ok())
        .and_then(|s| s.as_string())
        .unwrap_or_default()
}

/// The `T` in `text`, or why it is not one.
pub(crate) fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let parsed = JSON::parse(text).map_err(|e| {
        e.dyn_ref::<js_sys::Error>()
            .map_or_else(|| "not JSON".to_owned(), |e| String::from(e.message()))
    })?;
    T::deserialize(Value(parsed)).map_err(|e| e.0)
}

/// Why a parsed value is not the record expected.
#[derive(Debug)]
pub(crate) struct Invalid(String);

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
}

/// A value as `JSON.parse` returns it, read as strictly as `serde_json`
/// reads text: every key of an object is visited (so unknown fields are
/// refused), a number is an integer only when it is a safe whole number,
/// `null` is only an absent option.
struct Value(JsValue);

impl<'de> de::Deserializer<'de> for Value {
    type Error = Invalid;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        let v = self.0;
        if v.is_null() {
            return visitor.visit_unit();
        }
        if let Some(b) = v.as_bool() {
            return visitor.visit_bool(b);
        }
        if let Some(n) = v.as_f64() {
            // A record holds no fractions; saying so here keeps float
            // formatting out of the module.
            if !Number::is_safe_integer(&v) {
                return Err(Invalid(
                    "a number that is not a whole number below 2^53".to_owned(),
                ));
            }
            // Safe integers convert exactly.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            return if n < 0.0 {
                visitor.visit_i64(n as i64)
            } else {
                visitor.visit_u64(n as u64)
            };
        }
        if let Some(s) = v.as_string() {
            return visitor.visit_string(s);
        }
        if Array::is_array(&v) {
            return visitor.visit_seq(Items {
                items: v.unchecked_into::<Array>().into_iter(),
            });
        }
        visitor.visit_map(Entries {
            entries: Object::entries(v.unchecked_ref()).into_iter(),
            value: None,
        })
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        if self.0.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    /// An ignored value (the fields the format tag is read without) is not
    /// converted at all.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple tuple_struct
        map struct enum identifier
    }
}

/// The items of an array.
struct Items {
    items: js_sys::ArrayIntoIter,
}

impl<'de> de::SeqAccess<'de> for Items {
    type Error = Invalid;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Invalid> {
        self.items
            .next()
            .map(|item| seed.deserialize(Value(item)))
            .transpose()
    }
}

/// The `[key, value]` entries of an object, in order.
struct Entries {
    entries: js_sys::ArrayIntoIter,
    value: Option<JsValue>,
}

impl<'de> de::MapAccess<'de> for Entries {
    type Error = Invalid;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Invalid> {
        let Some(entry) = self.entries.next() else {
            return Ok(None);
        };
        let entry: Array = entry.unchecked_into();
        self.value = Some(entry.get(1));
        let key = entry.get(0).as_string().unwrap_or_default();
        seed.deserialize(key.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Invalid> {
        seed.deserialize(Value(self.value.take().unwrap_or(JsValue::NULL)))
    }
}
