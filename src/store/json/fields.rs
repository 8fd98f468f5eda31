//! A record's fields taken from a JSON object, strictly: each field the
//! record has at most once and of its type, no other field, none missing
//! unless it may be. The sentences are those of serde's derived readers
//! ("missing field \`id\`", "invalid type: integer \`1\`, expected a
//! string"), but for `null`, which is called `null`.

use std::fmt::Write as _;

use super::read::Value;
use crate::quoted::Quoted;

/// The fields of one object, by the names a record gives them.
pub(crate) struct Fields<'t> {
    names: &'static [&'static str],
    values: Vec<Option<Value<'t>>>,
}

impl<'t> Fields<'t> {
    /// The fields of `value`, which must be an object (`what` it should be,
    /// for the sentence: `struct HeadRecord`) holding no field but `names`,
    /// and each at most once.
    pub(crate) fn of(
        value: Value<'t>,
        what: &str,
        names: &'static [&'static str],
    ) -> Result<Self, String> {
        let Value::Object(entries) = value else {
            return Err(invalid_type(&value, what));
        };
        let mut values: Vec<Option<Value<'t>>> = names.iter().map(|_| None).collect();
        for (key, value) in entries {
            let Some(at) = names.iter().position(|name| *name == key) else {
                return Err(unknown_field(&key, names));
            };
            if values[at].replace(value).is_some() {
                return Err(format!("duplicate field `{key}`"));
            }
        }
        Ok(Self { names, values })
    }

    /// The field `name`'s value, if the object has it.
    fn take(&mut self, name: &str) -> Option<Value<'t>> {
        let at = self.names.iter().position(|n| *n == name)?;
        self.values[at].take()
    }

    /// The field `name`, which must be there.
    fn required(&mut self, name: &str) -> Result<Value<'t>, String> {
        self.take(name).ok_or_else(|| missing(name))
    }

    /// The string `name`.
    pub(crate) fn string(&mut self, name: &str) -> Result<String, String> {
        string(self.required(name)?)
    }

    /// The string `name`, or `None` when it is `null` or absent.
    pub(crate) fn optional_string(&mut self, name: &str) -> Result<Option<String>, String> {
        match self.take(name) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => string(value).map(Some),
        }
    }

    /// The whole number `name`, at least 0 and at most `max` (`type_name`
    /// says which, as serde does: `u64`, `usize`).
    pub(crate) fn whole(&mut self, name: &str, max: u64, type_name: &str) -> Result<u64, String> {
        match self.required(name)? {
            Value::Whole(n) if n <= max => Ok(n),
            value @ (Value::Whole(_) | Value::Negative(_)) => Err(format!(
                "invalid value: {}, expected {type_name}",
                found(&value)
            )),
            value => Err(invalid_type(&value, type_name)),
        }
    }

    /// The signed whole number `name`.
    pub(crate) fn signed(&mut self, name: &str) -> Result<i64, String> {
        match self.required(name)? {
            Value::Negative(n) => Ok(n),
            Value::Whole(n) => i64::try_from(n)
                .map_err(|_| format!("invalid value: {}, expected i64", found(&Value::Whole(n)))),
            value => Err(invalid_type(&value, "i64")),
        }
    }

    /// The array `name`, each item read by `item`; empty when absent if
    /// `optional`.
    pub(crate) fn list<T>(
        &mut self,
        name: &str,
        optional: bool,
        item: impl Fn(Value<'t>) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let value = match self.take(name) {
            None if optional => return Ok(Vec::new()),
            None => return Err(missing(name)),
            Some(value) => value,
        };
        match value {
            Value::Array(items) => items.into_iter().map(item).collect(),
            value => Err(invalid_type(&value, "a sequence")),
        }
    }
}

/// `value`, which must be a string.
pub(crate) fn string(value: Value<'_>) -> Result<String, String> {
    match value {
        Value::Str(text) => Ok(text.into_owned()),
        value => Err(invalid_type(&value, "a string")),
    }
}

#[cold]
fn missing(name: &str) -> String {
    format!("missing field `{name}`")
}

#[cold]
fn invalid_type(value: &Value<'_>, expected: &str) -> String {
    format!("invalid type: {}, expected {expected}", found(value))
}

/// What serde calls a value it did not expect.
fn found(value: &Value<'_>) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Str(text) => format!("string {}", Quoted(text)),
        Value::Whole(n) => format!("integer `{n}`"),
        Value::Negative(n) => format!("integer `{n}`"),
        Value::Array(_) => "sequence".to_owned(),
        Value::Object(_) => "map".to_owned(),
    }
}

#[cold]
fn unknown_field(key: &str, names: &[&str]) -> String {
    let mut sentence = format!("unknown field `{key}`, expected ");
    match names {
        [one] => {
            let _ = write!(sentence, "`{one}`");
        }
        [a, b] => {
            let _ = write!(sentence, "`{a}` or `{b}`");
        }
        _ => {
            sentence.push_str("one of ");
            for (i, name) in names.iter().enumerate() {
                let comma = if i == 0 { "" } else { ", " };
                let _ = write!(sentence, "{comma}`{name}`");
            }
        }
    }
    sentence
}
