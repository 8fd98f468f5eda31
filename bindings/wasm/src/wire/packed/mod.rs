//! The default wire format: any result as numbers and one string, for the
//! one JavaScript reader that makes the value out of them (`packed.js`
//! beside this file, imported by [`wasm`](self::wasm)): a serde serializer
//! whose output crosses the boundary in two calls, where
//! serde-wasm-bindgen's calls into JavaScript for every field, string and
//! array element. The value it makes is the one
//! serde-wasm-bindgen's JSON-compatible serializer makes: `null` for `None`
//! and `()`, plain objects for structs and maps, a unit variant as its name,
//! other variants as `{ name: value }`.
//!
//! The strings are written one after another into [`Packed::strings`] and
//! named by their UTF-16 start and end there. The numbers, all `f64`, are
//! one value:
//!
//! - [`NULL`], [`FALSE`], [`TRUE`];
//! - [`NUMBER`] and the number;
//! - [`STRING`] and a string;
//! - [`NAME`] and a name: a field's or a variant's, a `&'static str` of the
//!   program, named by its index in [`Names`], which the reader keeps as
//!   long as the writer does. The names new to the reader are in
//!   [`Packed::fresh`], which the reader takes in before it reads the value,
//!   so that a value it fails to make leaves it knowing every name;
//! - [`ARRAY`], the number of elements, each value;
//! - [`OBJECT`], the number of fields, each field: a name and a value;
//! - [`MAP`], the number of entries, each entry: a [`STRING`] value (the
//!   key) and a value.

use std::fmt;

use serde::ser::{self, Serialize};

#[cfg(target_arch = "wasm32")]
pub(crate) mod wasm;

/// `null`.
pub const NULL: f64 = 0.0;
/// `false`.
pub const FALSE: f64 = 1.0;
/// `true`.
pub const TRUE: f64 = 2.0;
/// A number.
pub const NUMBER: f64 = 3.0;
/// A string.
pub const STRING: f64 = 4.0;
/// A name, as a string.
pub const NAME: f64 = 5.0;
/// An array.
pub const ARRAY: f64 = 6.0;
/// An object whose keys are names.
pub const OBJECT: f64 = 7.0;
/// An object whose keys are strings.
pub const MAP: f64 = 8.0;

/// A value as numbers and the strings they name.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Packed {
    /// Every string of the value, one after another.
    pub strings: String,
    /// The layout above.
    pub numbers: Vec<f64>,
    /// The names new to the reader: for each, its index, then its start and
    /// end in `strings`.
    pub fresh: Vec<f64>,
}

/// Why a value could not be packed: its `Serialize` said so, or it holds
/// bytes, which have no JSON form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackError(pub String);

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PackError {}

impl ser::Error for PackError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

impl Packed {
    /// `value` packed, for a reader that knows `names`.
    ///
    /// # Errors
    /// What its `Serialize` reports, bytes, and a map key that is not a
    /// string.
    pub fn of<T: Serialize + ?Sized>(value: &T, names: &mut Names) -> Result<Self, PackError> {
        let mut packer = Packer {
            strings: Strings::default(),
            numbers: Vec::new(),
            fresh: Vec::new(),
            names,
        };
        if let Err(e) = value.serialize(&mut packer) {
            // Names marked as sent that will not be: sending them all again
            // is always right.
            *packer.names = Names::default();
            return Err(e);
        }
        Ok(Self {
            strings: packer.strings.text,
            numbers: packer.numbers,
            fresh: packer.fresh,
        })
    }
}

/// A count, index or offset as a number. Exact: a `usize` of the 32-bit
/// WebAssembly target, and any length a native memory holds, is below 2^53.
#[allow(clippy::cast_precision_loss)]
pub fn number(n: usize) -> f64 {
    n as f64
}

/// Strings written one after another, each named by its UTF-16 start and
/// end there.
#[derive(Debug, Default)]
pub struct Strings {
    /// The strings.
    pub text: String,
    /// The UTF-16 units of `text`.
    units: usize,
}

impl Strings {
    /// Append `s`: its start and end.
    pub fn push(&mut self, s: &str) -> [f64; 2] {
        let start = self.units;
        self.text.push_str(s);
        self.units += memdoc::utf16_len(s);
        [number(start), number(self.units)]
    }
}

/// The names a reader has been sent, by their address and length (a name
/// is a `&'static str`: the same text twice in the program may be two
/// names, which costs one more entry), with their indices: an open-addressed
/// table, found in one or two probes (a packed result names a field for
/// every field it holds).
#[derive(Debug, Default)]
pub struct Names {
    /// Address, length and index + 1 (0: an empty slot); a power of two
    /// long, at most half full.
    slots: Vec<(usize, usize, usize)>,
    len: usize,
}

impl Names {
    /// The index of `name`, and whether it is new to the reader.
    fn index(&mut self, name: &'static str) -> (usize, bool) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let key = (name.as_ptr() as usize, name.len());
        let at = self.slot(key);
        match self.slots[at] {
            (_, _, 0) => {
                self.len += 1;
                self.slots[at] = (key.0, key.1, self.len);
                (self.len - 1, true)
            }
            (_, _, index) => (index - 1, false),
        }
    }

    /// Where `key` is, or the empty slot where it goes.
    fn slot(&self, key: (usize, usize)) -> usize {
        let mask = self.slots.len() - 1;
        // Names lie a few bytes apart: the address is mixed (Fibonacci
        // hashing) so that they spread over the table.
        #[allow(clippy::cast_possible_truncation)]
        let mut at = ((key.0 as u64 ^ key.1 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32)
            as usize
            & mask;
        loop {
            match self.slots[at] {
                (_, _, 0) => return at,
                (address, len, _) if (address, len) == key => return at,
                _ => at = (at + 1) & mask,
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(64);
        let old = std::mem::replace(&mut self.slots, vec![(0, 0, 0); size]);
        for entry in old.into_iter().filter(|&(_, _, index)| index != 0) {
            let at = self.slot((entry.0, entry.1));
            self.slots[at] = entry;
        }
    }
}

/// The serializer.
pub struct Packer<'n> {
    strings: Strings,
    numbers: Vec<f64>,
    fresh: Vec<f64>,
    names: &'n mut Names,
}

impl<'n> Packer<'n> {
    fn count(&mut self, n: usize) {
        self.numbers.push(number(n));
    }

    #[inline(never)]
    fn string(&mut self, s: &str) {
        let range = self.strings.push(s);
        self.numbers.extend(range);
    }

    #[inline(never)]
    fn name(&mut self, name: &'static str) {
        let (k, new) = self.names.index(name);
        if new {
            self.fresh.push(number(k));
            self.fresh.extend(self.strings.push(name));
        }
        self.count(k);
    }

    /// Start an array, object or map: its tag and a count filled in by
    /// [`Compound::close`].
    #[inline(never)]
    fn open(&mut self, tag: f64) -> Compound<'_, 'n> {
        self.numbers.extend([tag, 0.0]);
        let at = self.numbers.len() - 1;
        Compound {
            packer: self,
            at,
            count: 0,
        }
    }

    /// `{ name: ` before a variant's value, which closes it.
    #[inline(never)]
    fn open_variant(&mut self, variant: &'static str) {
        self.numbers.extend([OBJECT, 1.0]);
        self.name(variant);
    }
}

/// An array, object or map being written.
pub struct Compound<'a, 'n> {
    packer: &'a mut Packer<'n>,
    /// Where its count goes.
    at: usize,
    count: usize,
}

impl Compound<'_, '_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), PackError> {
        self.count += 1;
        value.serialize(&mut *self.packer)
    }

    fn field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), PackError> {
        self.packer.name(key);
        self.element(value)
    }

    fn close(self) {
        self.packer.numbers[self.at] = number(self.count);
    }
}

type Result<T, E = PackError> = std::result::Result<T, E>;

/// The number types, each written as an `f64` (as JavaScript has them; a
/// 64-bit integer beyond 2^53 loses its last bits, as it would in JSON).
macro_rules! numbers {
    ($($method:ident: $type:ty),*) => {$(
        #[allow(clippy::cast_lossless, clippy::cast_precision_loss)]
        fn $method(self, v: $type) -> Result<()> {
            self.serialize_f64(v as f64)
        }
    )*};
}

impl<'a, 'n> ser::Serializer for &'a mut Packer<'n> {
    type Ok = ();
    type Error = PackError;
    type SerializeSeq = Compound<'a, 'n>;
    type SerializeTuple = Compound<'a, 'n>;
    type SerializeTupleStruct = Compound<'a, 'n>;
    type SerializeTupleVariant = Compound<'a, 'n>;
    type SerializeMap = Compound<'a, 'n>;
    type SerializeStruct = Compound<'a, 'n>;
    type SerializeStructVariant = Compound<'a, 'n>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.numbers.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    numbers!(
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
        serialize_f32: f32
    );
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.numbers.extend([NUMBER, v]);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.numbers.push(STRING);
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<()> {
        Err(PackError("bytes have no JSON form".to_owned()))
    }
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.numbers.push(NULL);
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.numbers.push(NAME);
        self.name(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.open_variant(variant);
        value.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a, 'n>> {
        Ok(self.open(ARRAY))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a, 'n>> {
        Ok(self.open(ARRAY))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a, 'n>> {
        Ok(self.open(ARRAY))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 'n>> {
        self.open_variant(variant);
        Ok(self.open(ARRAY))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a, 'n>> {
        Ok(self.open(MAP))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a, 'n>> {
        Ok(self.open(OBJECT))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 'n>> {
        self.open_variant(variant);
        Ok(self.open(OBJECT))
    }
}

/// The traits of an array's elements: `serialize_element` or
/// `serialize_field`, each a value in order.
macro_rules! elements {
    ($($trait:ident::$method:ident),*) => {$(
        impl ser::$trait for Compound<'_, '_> {
            type Ok = ();
            type Error = PackError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                self.element(value)
            }
            fn end(self) -> Result<()> {
                self.close();
                Ok(())
            }
        }
    )*};
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = PackError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        // JSON's keys are strings: another kind of key is refused.
        let at = self.packer.numbers.len();
        key.serialize(&mut *self.packer)?;
        if self.packer.numbers.get(at) == Some(&STRING) {
            Ok(())
        } else {
            Err(PackError("a map key must be a string".to_owned()))
        }
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.close();
        Ok(())
    }
}

/// The traits of an object's fields, each a name and a value.
macro_rules! fields {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Compound<'_, '_> {
            type Ok = ();
            type Error = PackError;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<()> {
                self.field(key, value)
            }
            fn end(self) -> Result<()> {
                self.close();
                Ok(())
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
pub(crate) mod tests;
