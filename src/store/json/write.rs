//! Records to compact JSON: a `serde` serializer of strings, whole numbers,
//! options, sequences and structs. Anything else (floats, maps, enums with
//! data, bytes) is an error no record makes.

use std::fmt::{self, Write as _};

use serde::ser::{self, Impossible, Serialize};

use super::plain_prefix;

/// `value` as compact JSON.
pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    let mut out = String::new();
    // Records are structs of strings, whole numbers, options and vectors:
    // they always serialize.
    let _ = value.serialize(Writer { out: &mut out });
    out
}

/// Why a value has no JSON here (never for a record).
#[derive(Debug)]
pub(crate) struct Unsupported;

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a record value")
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Self
    }
}

/// `text` as a JSON string, with `serde_json`'s escapes (and
/// `JSON.stringify`'s). Also how a message quotes a text
/// ([`Quoted`](crate::quoted::Quoted)).
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

struct Writer<'a> {
    out: &'a mut String,
}

impl<'a> ser::Serializer for Writer<'a> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Items<'a>;
    type SerializeTuple = Impossible<(), Unsupported>;
    type SerializeTupleStruct = Impossible<(), Unsupported>;
    type SerializeTupleVariant = Impossible<(), Unsupported>;
    type SerializeMap = Impossible<(), Unsupported>;
    type SerializeStruct = Items<'a>;
    type SerializeStructVariant = Impossible<(), Unsupported>;

    fn serialize_bool(self, v: bool) -> Result<(), Unsupported> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<(), Unsupported> {
        self.serialize_i64(v.into())
    }

    fn serialize_i16(self, v: i16) -> Result<(), Unsupported> {
        self.serialize_i64(v.into())
    }

    fn serialize_i32(self, v: i32) -> Result<(), Unsupported> {
        self.serialize_i64(v.into())
    }

    fn serialize_i64(self, v: i64) -> Result<(), Unsupported> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }

    fn serialize_u8(self, v: u8) -> Result<(), Unsupported> {
        self.serialize_u64(v.into())
    }

    fn serialize_u16(self, v: u16) -> Result<(), Unsupported> {
        self.serialize_u64(v.into())
    }

    fn serialize_u32(self, v: u32) -> Result<(), Unsupported> {
        self.serialize_u64(v.into())
    }

    fn serialize_u64(self, v: u64) -> Result<(), Unsupported> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }

    fn serialize_f32(self, _: f32) -> Result<(), Unsupported> {
        Err(Unsupported)
    }

    fn serialize_f64(self, _: f64) -> Result<(), Unsupported> {
        Err(Unsupported)
    }

    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        string(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        string(self.out, v);
        Ok(())
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<(), Unsupported> {
        Err(Unsupported)
    }

    fn serialize_none(self) -> Result<(), Unsupported> {
        self.serialize_unit()
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Unsupported> {
        self.out.push_str("null");
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unsupported> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Unsupported> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Unsupported> {
        Err(Unsupported)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Items<'a>, Unsupported> {
        self.out.push('[');
        Ok(Items {
            out: self.out,
            first: true,
        })
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Unsupported> {
        Err(Unsupported)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Unsupported> {
        Err(Unsupported)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Unsupported> {
        Err(Unsupported)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unsupported> {
        Err(Unsupported)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Items<'a>, Unsupported> {
        self.out.push('{');
        Ok(Items {
            out: self.out,
            first: true,
        })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Unsupported> {
        Err(Unsupported)
    }
}

/// The items of an array, or the fields of an object.
struct Items<'a> {
    out: &'a mut String,
    first: bool,
}

impl Items<'_> {
    fn comma(&mut self) {
        if !std::mem::replace(&mut self.first, false) {
            self.out.push(',');
        }
    }
}

impl ser::SerializeSeq for Items<'_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.comma();
        value.serialize(Writer { out: self.out })
    }

    fn end(self) -> Result<(), Unsupported> {
        self.out.push(']');
        Ok(())
    }
}

impl ser::SerializeStruct for Items<'_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        self.comma();
        string(self.out, key);
        self.out.push(':');
        value.serialize(Writer { out: self.out })
    }

    fn end(self) -> Result<(), Unsupported> {
        self.out.push('}');
        Ok(())
    }
}
