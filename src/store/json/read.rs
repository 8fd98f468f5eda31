//! JSON text to records: a `serde` deserializer of the values records hold
//! (strings, whole numbers, `null`, booleans, arrays, objects). The
//! records' derived `Deserialize` refuses unknown, missing, repeated and
//! mistyped fields; this refuses what is not JSON, numbers that are not
//! whole, lone surrogates, nesting deeper than [`MAX_DEPTH`] and anything
//! after the value.

use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, Expected, Unexpected, Visitor};
use serde::forward_to_deserialize_any;

use super::plain_prefix;

/// Arrays and objects inside one another: a record nests three deep (the
/// head's audit entries' codes). Deeper text is refused before it could
/// exhaust the stack.
const MAX_DEPTH: usize = 16;

/// The `T` in `text`, or why it is not one.
pub(crate) fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut reader = Reader {
        text,
        at: 0,
        depth: 0,
    };
    let value = T::deserialize(&mut reader).map_err(|e| e.0)?;
    reader.end().map_err(|e| e.0)?;
    Ok(value)
}

/// Why a text is not the record asked for: the sentence.
#[derive(Debug)]
pub(crate) struct Malformed(String);

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Malformed {}

impl de::Error for Malformed {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }

    // In WebAssembly, the boundary's sentences (`crate::wasm::de`): serde's
    // own `Display` of `Unexpected` would bring float formatting into the
    // module for a value this never reads.
    #[cfg(target_arch = "wasm32")]
    fn invalid_type(found: Unexpected<'_>, expected: &dyn Expected) -> Self {
        Self(<crate::wasm::de::Invalid as de::Error>::invalid_type(found, expected).0)
    }

    #[cfg(target_arch = "wasm32")]
    fn invalid_value(found: Unexpected<'_>, expected: &dyn Expected) -> Self {
        Self(<crate::wasm::de::Invalid as de::Error>::invalid_value(found, expected).0)
    }
}

#[cold]
fn malformed_at(at: usize, what: &str) -> Malformed {
    Malformed(format!("{what} at byte {at}"))
}

/// What a value starts with.
enum Token {
    Null,
    Bool(bool),
    Str(String),
    /// A whole number of zero or more.
    Whole(u64),
    /// A negative whole number.
    Negative(i64),
    /// `[`, entered.
    Array,
    /// `{`, entered.
    Object,
}

struct Reader<'t> {
    text: &'t str,
    /// The byte offset of the next character.
    at: usize,
    /// Arrays and objects open around the value being read.
    depth: usize,
}

impl Reader<'_> {
    #[cold]
    fn error(&self, what: &str) -> Malformed {
        malformed_at(self.at, what)
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Skip whitespace.
    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Skip whitespace, then the byte `want`, which must be next.
    fn expect(&mut self, want: u8) -> Result<(), Malformed> {
        self.space();
        if self.peek() == Some(want) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(match want {
                b':' => "expected `:`",
                b',' => "expected `,`",
                b']' => "expected `]`",
                _ => "expected `}`",
            }))
        }
    }

    /// The literal `word` (`null`, `true`, `false`), which must be next.
    fn word(&mut self, word: &str) -> Result<(), Malformed> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(())
        } else {
            Err(self.error("expected a value"))
        }
    }

    /// Enter an array or an object.
    fn open(&mut self) -> Result<(), Malformed> {
        if self.depth == MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.depth += 1;
        self.at += 1;
        Ok(())
    }

    /// A whole number: a `u64`, or an `i64` when it is negative.
    fn number(&mut self) -> Result<Token, Malformed> {
        let start = self.at;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let digits = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        let text = &self.text[digits..self.at];
        if text.is_empty() || (text.len() > 1 && text.starts_with('0')) {
            return Err(self.error("invalid number"));
        }
        // `-0` too, which JSON readers take for the float -0.0.
        if matches!(self.peek(), Some(b'.' | b'e' | b'E')) || (negative && text == "0") {
            return Err(self.error("a number that is not whole"));
        }
        // Checked as it grows: more than 20 digits overflow on the way.
        let mut value: u64 = 0;
        for digit in text.bytes() {
            value = match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(digit - b'0')))
            {
                Some(v) => v,
                None => return Err(malformed_at(start, "a number out of range")),
            };
        }
        if !negative {
            return Ok(Token::Whole(value));
        }
        // `i64::MIN` is one further from zero than `i64::MAX`.
        match 0i64.checked_sub_unsigned(value) {
            Some(n) => Ok(Token::Negative(n)),
            None => Err(malformed_at(start, "a number out of range")),
        }
    }

    /// The next value's first token: a whole value, or the opening of an
    /// array or an object (entered).
    #[inline(never)]
    fn token(&mut self) -> Result<Token, Malformed> {
        self.space();
        match self.peek() {
            Some(b'n') => self.word("null").map(|()| Token::Null),
            Some(b't') => self.word("true").map(|()| Token::Bool(true)),
            Some(b'f') => self.word("false").map(|()| Token::Bool(false)),
            Some(b'"') => self.string().map(Token::Str),
            Some(b'[') => self.open().map(|()| Token::Array),
            Some(b'{') => self.open().map(|()| Token::Object),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error("expected a value")),
        }
    }

    /// A string, at its opening quote.
    fn string(&mut self) -> Result<String, Malformed> {
        self.at += 1;
        let mut text = String::new();
        loop {
            let from = self.at;
            self.at += plain_prefix(&self.text.as_bytes()[from..]);
            text.push_str(&self.text[from..self.at]);
            match self.peek() {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(text);
                }
                Some(b'\\') => {
                    self.at += 1;
                    text.push(self.escape()?);
                }
                Some(_) => return Err(self.error("a control character in a string")),
            }
        }
    }

    /// The character of an escape, after its backslash.
    fn escape(&mut self) -> Result<char, Malformed> {
        let byte = self.peek();
        self.at += 1;
        Ok(match byte {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let unit = self.hex()?;
                let code = match unit {
                    0xd800..=0xdbff => {
                        let low = if self.text[self.at..].starts_with("\\u") {
                            self.at += 2;
                            self.hex()?
                        } else {
                            0
                        };
                        if !(0xdc00..=0xdfff).contains(&low) {
                            return Err(self.error("a lone surrogate"));
                        }
                        0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)
                    }
                    0xdc00..=0xdfff => return Err(self.error("a lone surrogate")),
                    _ => unit,
                };
                // Every code outside the surrogates is a character.
                char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
            }
            _ => return Err(self.error("an invalid escape")),
        })
    }

    /// The four hex digits of a `\u` escape.
    fn hex(&mut self) -> Result<u32, Malformed> {
        let mut unit = 0;
        for _ in 0..4 {
            let digit = self.peek().and_then(|b| char::from(b).to_digit(16));
            let Some(digit) = digit else {
                return Err(self.error("an invalid \\u escape"));
            };
            unit = unit * 16 + digit;
            self.at += 1;
        }
        Ok(unit)
    }
}

// Each type is asked for on its own rather than through `deserialize_any`:
// a derived visitor then holds the code of its field's type only.
impl<'de> de::Deserializer<'de> for &mut Reader<'_> {
    type Error = Malformed;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Malformed> {
        match self.token()? {
            Token::Null => visitor.visit_unit(),
            Token::Bool(b) => visitor.visit_bool(b),
            Token::Str(text) => visitor.visit_string(text),
            Token::Whole(n) => visitor.visit_u64(n),
            Token::Negative(n) => visitor.visit_i64(n),
            Token::Array => self.array(visitor),
            Token::Object => self.object(visitor),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Malformed> {
        match self.token()? {
            Token::Bool(b) => visitor.visit_bool(b),
            other => Err(mismatch(&other, &visitor)),
        }
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Malformed> {
        match self.token()? {
            Token::Whole(n) => visitor.visit_u64(n),
            Token::Negative(n) => visitor.visit_i64(n),
            other => Err(mismatch(&other, &visitor)),
        }
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Malformed> {
        self.deserialize_u64(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Malformed> {
        match self.token()? {
            Token::Str(text) => visitor.visit_string(text),
            other => Err(mismatch(&other, &visitor)),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Malformed> {
        self.deserialize_string(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Malformed> {
        self.deserialize_string(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Malformed> {
        if self.null()? {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Malformed> {
        match self.token()? {
            Token::Array => self.array(visitor),
            other => Err(mismatch(&other, &visitor)),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Malformed> {
        match self.token()? {
            Token::Object => self.object(visitor),
            other => Err(mismatch(&other, &visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Malformed> {
        self.deserialize_map(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Malformed> {
        self.skip()?;
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        i8 i16 i32 i128 u8 u16 u32 u128 f32 f64 char bytes byte_buf unit
        unit_struct newtype_struct tuple tuple_struct enum
    }
}

/// serde's sentence for a value of the wrong type.
#[cold]
fn mismatch(found: &Token, expected: &dyn Expected) -> Malformed {
    let found = match found {
        Token::Null => Unexpected::Unit,
        Token::Bool(b) => Unexpected::Bool(*b),
        Token::Str(text) => Unexpected::Str(text),
        Token::Whole(n) => Unexpected::Unsigned(*n),
        Token::Negative(n) => Unexpected::Signed(*n),
        Token::Array => Unexpected::Seq,
        Token::Object => Unexpected::Map,
    };
    de::Error::invalid_type(found, expected)
}

impl Reader<'_> {
    /// The items of an array whose `[` was read, and its `]`.
    fn array<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Malformed> {
        let value = visitor.visit_seq(Items::new(self))?;
        self.close(b']')?;
        Ok(value)
    }

    /// The entries of an object whose `{` was read, and its `}`.
    fn object<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Malformed> {
        let value = visitor.visit_map(Items::new(self))?;
        self.close(b'}')?;
        Ok(value)
    }

    /// Read past the next value.
    fn skip(&mut self) -> Result<(), Malformed> {
        let end = match self.token()? {
            Token::Array => b']',
            Token::Object => b'}',
            _ => return Ok(()),
        };
        let mut items = Items::new(self);
        while items.more(end)? {
            if end == b'}' {
                items.reader.key()?;
                items.reader.skip()?;
                items.reader.expect(b':')?;
            }
            items.reader.skip()?;
        }
        self.close(end)
    }

    /// Whether the next value is `null`, read if it is.
    #[inline(never)]
    fn null(&mut self) -> Result<bool, Malformed> {
        self.space();
        if self.peek() != Some(b'n') {
            return Ok(false);
        }
        self.word("null")?;
        Ok(true)
    }

    /// An object's key must be next.
    #[inline(never)]
    fn key(&mut self) -> Result<(), Malformed> {
        self.space();
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a key"));
        }
        Ok(())
    }

    /// The end of the text, after the value.
    #[inline(never)]
    fn end(&mut self) -> Result<(), Malformed> {
        self.space();
        if self.at < self.text.len() {
            return Err(self.error("trailing characters"));
        }
        Ok(())
    }

    /// Leave an array or an object at its closing `end`.
    #[inline(never)]
    fn close(&mut self, end: u8) -> Result<(), Malformed> {
        self.expect(end)?;
        self.depth -= 1;
        Ok(())
    }
}

/// The items of an array, or the entries of an object, after its opening
/// bracket.
struct Items<'r, 't> {
    reader: &'r mut Reader<'t>,
    first: bool,
}

impl<'r, 't> Items<'r, 't> {
    fn new(reader: &'r mut Reader<'t>) -> Self {
        Self {
            reader,
            first: true,
        }
    }

    /// Whether another item follows (`end` does not), past its comma.
    #[inline(never)]
    fn more(&mut self, end: u8) -> Result<bool, Malformed> {
        self.reader.space();
        if self.reader.peek() == Some(end) {
            return Ok(false);
        }
        if !std::mem::replace(&mut self.first, false) {
            self.reader.expect(b',')?;
        }
        Ok(true)
    }
}

impl<'de> de::SeqAccess<'de> for Items<'_, '_> {
    type Error = Malformed;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Malformed> {
        if !self.more(b']')? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

impl<'de> de::MapAccess<'de> for Items<'_, '_> {
    type Error = Malformed;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Malformed> {
        if !self.more(b'}')? {
            return Ok(None);
        }
        self.reader.key()?;
        seed.deserialize(&mut *self.reader).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Malformed> {
        self.reader.expect(b':')?;
        seed.deserialize(&mut *self.reader)
    }
}
