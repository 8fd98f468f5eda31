//! Text in: a JavaScript string into Rust with the host's
//! `TextEncoder.encodeInto` where that is faster than wasm-bindgen's own
//! conversion (`JsValue::as_string`), which copies a string one UTF-16 unit
//! at a time in JavaScript while it is ASCII; and what two strings share,
//! so that a text passed with the one it edits converts only the edit
//! ([`Kept::near`](super::Kept::near)).

use js_sys::JsString;
use wasm_bindgen::prelude::wasm_bindgen;

use memdoc::{utf16_offset, utf16_offset_back};

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

#[wasm_bindgen(module = "/src/wasm/text/encode.js")]
extern "C" {
    /// How many units two strings share at their start and then at their
    /// end (`shared[0]`, `shared[1]`), neither between the halves of a
    /// surrogate pair.
    pub(super) fn common(a: &JsString, b: &JsString, shared: &mut [u32]);
}

/// Where the first `start` and the last `end` UTF-16 units of a string of
/// `units` units, whose UTF-8 is `text`, end and begin in `text`: `None`
/// unless both fall between characters and do not overlap. A text of as
/// many bytes as units is ASCII, where the two counts are the same. The
/// units are counted from the start, a block at a time, unless what is
/// not shared at the start is a sixteenth of it or less (an edit at the
/// end of a memory, the most common): then back from the end, a
/// character at a time.
pub(super) fn shared_bytes(text: &str, units: u32, start: u32, end: u32) -> Option<(usize, usize)> {
    let middle = units.checked_sub(start)?.checked_sub(end)?;
    let (start, middle, end) = (start as usize, middle as usize, end as usize);
    if text.len() == units as usize {
        return Some((start, start + middle));
    }
    if (middle + end) * 16 <= start {
        let tail = utf16_offset_back(text, end)?;
        return Some((utf16_offset_back(&text[..tail], middle)?, tail));
    }
    let head = utf16_offset(text, start)?;
    Some((head, head + utf16_offset(&text[head..], middle)?))
}

/// `source` as UTF-8. The host's encoder is fast on ASCII; on other text
/// it is no faster than wasm-bindgen's conversion, which also needs no check
/// in Rust that the bytes are UTF-8. So an ASCII start goes through the
/// encoder, and the text from its first other character on, if any, through
/// wasm-bindgen (whose JavaScript loop then stops at once).
pub(super) fn encode(source: &JsString) -> String {
    let units = source.length();
    // A look at the first characters: a text that is not ASCII from its
    // start goes to wasm-bindgen whole.
    let mut probe = [0u8; 64];
    let first = ENCODER.with(|e| e.encode_into(source, &mut probe));
    let seen = &probe[..first.written() as usize];
    if !seen.is_ascii() {
        return String::from(source);
    }
    if first.read() == units {
        return String::from_utf8(seen.to_vec()).unwrap_or_default();
    }
    // As many bytes as units is room for all of an ASCII text.
    let mut bytes = vec![0u8; units as usize];
    let written = ENCODER
        .with(|e| e.encode_into(source, &mut bytes))
        .written() as usize;
    bytes.truncate(written);
    if !bytes.is_ascii() {
        bytes.truncate(bytes.iter().position(|b| !b.is_ascii()).unwrap_or(written));
    }
    // An ASCII prefix has as many units as bytes.
    let ascii = u32::try_from(bytes.len()).unwrap_or(units);
    let mut text = String::from_utf8(bytes).unwrap_or_default();
    if ascii < units {
        text.push_str(&String::from(source.slice(ascii, units)));
    }
    text
}
