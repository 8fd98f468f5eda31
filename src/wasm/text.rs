//! JavaScript strings into Rust with the host's `TextEncoder.encodeInto`.
//!
//! wasm-bindgen's own conversion (`JsValue::as_string`) copies a string
//! into memory one UTF-16 unit at a time in JavaScript while it is ASCII;
//! the host's encoder does the same work in native code. On a 24,000
//! character ASCII memory that loop took about 28 µs, three quarters of an
//! `injectionBlock` call (BENCHMARKS.md).

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
