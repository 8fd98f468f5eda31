//! JavaScript strings into Rust with the host's `TextEncoder.encodeInto`.
//!
//! wasm-bindgen's own conversion (`JsValue::as_string`) copies a string
//! into memory one UTF-16 unit at a time in JavaScript while it is ASCII;
//! the host's encoder does the same work in native code. On a 24,000
//! character ASCII memory that loop took about 28 µs, three quarters of an
//! `injectionBlock` call (BENCHMARKS.md).

use std::borrow::Cow;

use js_sys::JsString;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;

#[wasm_bindgen]
extern "C" {
    /// The host's `TextEncoder` (every runtime memdoc supports has one).
    #[wasm_bindgen(js_name = TextEncoder)]
    type Encoder;

    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Encoder;

    /// Writes the UTF-8 of `source` into `destination` (lone surrogates
    /// as U+FFFD), as far as it fits, without splitting a code point.
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &Encoder, source: &JsString, destination: &mut [u8]) -> Progress;

    /// What `encodeInto` did.
    type Progress;

    /// UTF-16 units read.
    #[wasm_bindgen(method, getter)]
    fn read(this: &Progress) -> u32;

    /// Bytes written.
    #[wasm_bindgen(method, getter)]
    fn written(this: &Progress) -> u32;
}

thread_local! {
    static ENCODER: Encoder = Encoder::new();
}

/// The string `value` holds, or `None` when it is not a string.
pub(crate) fn string(value: &JsValue) -> Option<String> {
    value.dyn_ref::<JsString>().map(encode)
}

/// `source` as UTF-8: first into as many bytes as it has UTF-16 units,
/// which is all an ASCII text needs, then the rest, if any, into three bytes
/// per unit (the most one takes: a unit of the BMP is at most three bytes,
/// and a surrogate pair is four bytes for two units).
fn encode(source: &JsString) -> String {
    let units = source.length();
    let mut bytes = vec![0u8; units as usize];
    let first = ENCODER.with(|e| e.encode_into(source, &mut bytes));
    let (read, mut written) = (first.read(), first.written() as usize);
    if read < units {
        let rest = source.slice(read, units);
        bytes.resize(written + (units - read) as usize * 3, 0);
        let more = ENCODER.with(|e| e.encode_into(&rest, &mut bytes[written..]));
        written += more.written() as usize;
    }
    bytes.truncate(written);
    // encodeInto writes only whole UTF-8 sequences.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A result made of `pieces` as one JavaScript string, where `text` is the
/// Rust copy of the JavaScript string `source`: a piece that is a part of
/// `text` is handed back as a slice of `source` (V8 shares a slice's
/// characters with the string it was cut from), the others are converted.
/// A result that repeats the memory it was given then costs no copy of it.
/// Not when `text` holds a U+FFFD: that may stand for a lone surrogate of
/// `source`, which a slice would hand back unreplaced.
pub(crate) fn joined(source: &JsString, text: &str, pieces: &[Cow<'_, str>]) -> JsString {
    let ascii = source.length() as usize == text.len();
    let range = if text.contains('\u{FFFD}') {
        0..0
    } else {
        text.as_ptr() as usize..text.as_ptr() as usize + text.len()
    };
    pieces
        .iter()
        .map(|piece| {
            let start = piece.as_ptr() as usize;
            if matches!(piece, Cow::Borrowed(_))
                && range.contains(&start)
                && start + piece.len() <= range.end
            {
                let from = units(text, start - range.start, ascii);
                source.slice(from, from + units(piece, piece.len(), ascii))
            } else {
                JsString::from(piece.as_ref())
            }
        })
        .reduce(|all, piece| all.concat(&piece))
        .unwrap_or_default()
}

/// The UTF-16 units of `text[..bytes]`: the bytes themselves for ASCII text;
/// otherwise one per character and two for one outside the BMP (a four-byte
/// one).
fn units(text: &str, bytes: usize, ascii: bool) -> u32 {
    let n = if ascii {
        bytes
    } else {
        text.as_bytes()[..bytes]
            .iter()
            .map(|&b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
            .sum()
    };
    u32::try_from(n).unwrap_or(u32::MAX)
}
