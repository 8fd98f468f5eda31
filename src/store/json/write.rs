//! Records to compact JSON: an object writer that each record drives field
//! by field ([`object`]), in the order its `read` names the fields.
//! Strings, whole numbers, `null`, and lists of strings or of objects: what
//! records hold, and nothing more.

use std::fmt::{self, Write as _};
use std::ops::Range;

use super::plain_prefix;

/// The JSON object `write` writes, as compact JSON.
pub fn object(capacity: usize, write: impl FnOnce(&mut Object<'_>)) -> String {
    let mut out = String::with_capacity(capacity);
    let mut o = Object::new(&mut out);
    write(&mut o);
    o.end();
    out
}

/// `text` as a JSON string, with `serde_json`'s escapes (and
/// `JSON.stringify`'s). Also how a message quotes a text
/// ([`Quoted`](crate::quoted::Quoted)).
#[inline(never)]
pub(crate) fn string(out: &mut String, text: &str) {
    out.push('"');
    let bytes = text.as_bytes();
    let mut from = 0;
    loop {
        let at = from + plain_prefix(&bytes[from..]);
        out.push_str(&text[from..at]);
        let Some(&byte) = bytes.get(at) else { break };
        match byte {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(byte >> 4)]));
                out.push(char::from(HEX[usize::from(byte & 15)]));
            }
        }
        from = at + 1;
    }
    out.push('"');
}

/// A JSON object being written at the end of a `String`: its fields, one
/// call each. The calls are not inlined (`#[inline(never)]`): inlined into
/// every record's writer, inside the store's state machines, they made the
/// module larger (BENCHMARKS.md).
pub struct Object<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Object<'a> {
    fn new(out: &'a mut String) -> Self {
        out.push('{');
        Self { out, first: true }
    }

    fn end(self) {
        self.out.push('}');
    }

    /// The field's name, after a comma unless it is the first.
    #[inline(never)]
    fn name(&mut self, name: &str) -> &mut String {
        if !std::mem::replace(&mut self.first, false) {
            self.out.push(',');
        }
        string(self.out, name);
        self.out.push(':');
        self.out
    }

    /// A value already written as JSON.
    pub fn json(&mut self, name: &str, json: &str) -> &mut Self {
        self.name(name).push_str(json);
        self
    }

    /// A string, and where its JSON is in the whole text.
    pub fn string_at(&mut self, name: &str, value: &str) -> Range<usize> {
        let out = self.name(name);
        let start = out.len();
        string(out, value);
        start..out.len()
    }

    /// A string.
    #[inline(never)]
    pub fn string(&mut self, name: &str, value: &str) -> &mut Self {
        string(self.name(name), value);
        self
    }

    /// A string, or `null`.
    #[inline(never)]
    pub fn optional_string(&mut self, name: &str, value: Option<&str>) -> &mut Self {
        if let Some(value) = value {
            return self.string(name, value);
        }
        self.name(name).push_str("null");
        self
    }

    /// A whole number.
    pub fn number(&mut self, name: &str, value: impl fmt::Display) -> &mut Self {
        let _ = write!(self.name(name), "{value}");
        self
    }

    /// A list of strings.
    #[inline(never)]
    pub fn strings(&mut self, name: &str, values: &[String]) -> &mut Self {
        let out = self.name(name);
        out.push('[');
        for (k, value) in values.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            string(out, value);
        }
        out.push(']');
        self
    }

    /// A list of objects, each written by `write`.
    pub fn objects<T>(
        &mut self,
        name: &str,
        items: &[T],
        write: fn(&T, &mut Object<'_>),
    ) -> &mut Self {
        let out = self.name(name);
        out.push('[');
        for (k, item) in items.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let mut o = Object::new(out);
            write(item, &mut o);
            o.end();
        }
        out.push(']');
        self
    }
}
