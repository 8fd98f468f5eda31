//! JSON text to a [`Value`]: the values records hold (strings, whole
//! numbers, `null`, booleans, arrays, objects). This refuses what is not
//! JSON, numbers that are not whole, lone surrogates, nesting deeper than
//! [`MAX_DEPTH`] and anything after the value; what a record's fields must
//! be is [`super::fields`]'s to check.

use std::borrow::Cow;

use super::plain_prefix;

/// Arrays and objects inside one another: a record nests three deep (the
/// head's audit entries' codes). Deeper text is refused before it could
/// exhaust the stack.
const MAX_DEPTH: usize = 16;

/// A JSON value of the kinds records hold, its strings borrowed from the
/// text where they can be.
#[derive(Debug)]
pub enum Value<'t> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A string, its escapes undone.
    Str(Cow<'t, str>),
    /// A whole number of zero or more.
    Whole(u64),
    /// A negative whole number.
    Negative(i64),
    /// An array.
    Array(Vec<Value<'t>>),
    /// The entries in the text's order, a key given twice too.
    Object(Vec<(Cow<'t, str>, Value<'t>)>),
}

/// The value `text` holds, or why it holds none.
///
/// # Errors
///
/// What is wrong with the text and at which byte, when it is not one JSON
/// value of the kinds above.
pub fn from_json(text: &str) -> Result<Value<'_>, String> {
    let mut reader = Reader {
        text,
        at: 0,
        depth: 0,
    };
    let value = reader.value()?;
    reader.space();
    if reader.at < text.len() {
        return Err(reader.error("trailing characters"));
    }
    Ok(value)
}

#[cold]
fn malformed_at(at: usize, what: &str) -> String {
    format!("{what} at byte {at}")
}

struct Reader<'t> {
    text: &'t str,
    /// The byte offset of the next character.
    at: usize,
    /// Arrays and objects open around the value being read.
    depth: usize,
}

impl<'t> Reader<'t> {
    #[cold]
    fn error(&self, what: &str) -> String {
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

    /// Skip whitespace, then the byte `want` (`:` or `,`), which must be
    /// next.
    fn expect(&mut self, want: u8) -> Result<(), String> {
        self.space();
        if self.peek() == Some(want) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(if want == b':' {
                "expected `:`"
            } else {
                "expected `,`"
            }))
        }
    }

    /// The literal `word` (`null`, `true`, `false`), which must be next.
    fn word(&mut self, word: &str) -> Result<(), String> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(())
        } else {
            Err(self.error("expected a value"))
        }
    }

    /// Enter an array or an object.
    fn open(&mut self) -> Result<(), String> {
        if self.depth == MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.depth += 1;
        self.at += 1;
        Ok(())
    }

    /// A whole number: a `u64`, or an `i64` when it is negative.
    fn number(&mut self) -> Result<Value<'t>, String> {
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
            return Ok(Value::Whole(value));
        }
        // `i64::MIN` is one further from zero than `i64::MAX`.
        match 0i64.checked_sub_unsigned(value) {
            Some(n) => Ok(Value::Negative(n)),
            None => Err(malformed_at(start, "a number out of range")),
        }
    }

    /// The next value, arrays and objects with all they hold.
    fn value(&mut self) -> Result<Value<'t>, String> {
        self.space();
        Ok(match self.peek() {
            Some(b'n') => self.word("null").map(|()| Value::Null)?,
            Some(b't') => self.word("true").map(|()| Value::Bool(true))?,
            Some(b'f') => self.word("false").map(|()| Value::Bool(false))?,
            Some(b'"') => Value::Str(self.string()?),
            Some(b'[') => {
                self.open()?;
                let mut items = Vec::new();
                while self.more(b']', items.is_empty())? {
                    items.push(self.value()?);
                }
                Value::Array(items)
            }
            Some(b'{') => {
                self.open()?;
                let mut entries = Vec::new();
                while self.more(b'}', entries.is_empty())? {
                    self.space();
                    if self.peek() != Some(b'"') {
                        return Err(self.error("expected a key"));
                    }
                    let key = self.string()?;
                    self.expect(b':')?;
                    entries.push((key, self.value()?));
                }
                Value::Object(entries)
            }
            Some(b'-' | b'0'..=b'9') => self.number()?,
            _ => return Err(self.error("expected a value")),
        })
    }

    /// Whether another item of the array or object entered follows, past
    /// its comma; if not, leave it at its closing `end`.
    fn more(&mut self, end: u8, first: bool) -> Result<bool, String> {
        self.space();
        if self.peek() == Some(end) {
            self.at += 1;
            self.depth -= 1;
            return Ok(false);
        }
        if !first {
            self.expect(b',')?;
        }
        Ok(true)
    }

    /// A string, at its opening quote: borrowed from the text when it holds
    /// no escape.
    fn string(&mut self) -> Result<Cow<'t, str>, String> {
        self.at += 1;
        let mut text = Cow::Borrowed("");
        loop {
            let from = self.at;
            self.at += plain_prefix(&self.text.as_bytes()[from..]);
            let plain = &self.text[from..self.at];
            if text.is_empty() {
                text = Cow::Borrowed(plain);
            } else {
                text.to_mut().push_str(plain);
            }
            match self.peek() {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(text);
                }
                Some(b'\\') => {
                    self.at += 1;
                    text.to_mut().push(self.escape()?);
                }
                Some(_) => return Err(self.error("a control character in a string")),
            }
        }
    }

    /// The character of an escape, after its backslash.
    fn escape(&mut self) -> Result<char, String> {
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
    fn hex(&mut self) -> Result<u32, String> {
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
