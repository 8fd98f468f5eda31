//! Texts across the boundary. In: JavaScript strings into Rust with the
//! host's `TextEncoder.encodeInto` where that is faster than wasm-bindgen's
//! own conversion (`JsValue::as_string`), which copies a string one UTF-16
//! unit at a time in JavaScript while it is ASCII: on a 24,000-character
//! ASCII memory that loop took about 28 µs, three quarters of an
//! `injectionBlock` call (BENCHMARKS.md). A long text in options, and a
//! store's last host value and content, are kept with their conversions
//! ([`Kept`]), for the next call that passes the same string; a text
//! argument, and a store's update, are converted near the kept text
//! ([`Kept::near`]): only what they do not share with it. Out: the part
//! of a result that repeats the input as a slice of the input string, not a
//! new copy.

use std::any::Any;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::ops::{Range, RangeInclusive};
use std::rc::Rc;

use js_sys::JsString;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;

use crate::fast::{contains_replacement, eq, utf16_offset, utf16_offset_back};
use crate::js::repeats::{pieces, utf16_units, Piece};

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

#[wasm_bindgen(module = "/src/wasm/text.js")]
extern "C" {
    /// How many units two strings share at their start and then at their
    /// end (`shared[0]`, `shared[1]`), neither between the halves of a
    /// surrogate pair.
    fn common(a: &JsString, b: &JsString, shared: &mut [u32]);

    /// The pieces of `plan` joined, three numbers each: [`FROM_SOURCE`] or
    /// [`FROM_CONVERTED`], and the UTF-16 units where the piece starts and
    /// ends in that string.
    fn join(source: &JsString, converted: &JsString, plan: &[u32]) -> JsString;
}

/// The lengths, in UTF-16 units, of the texts a [`Kept`] keeps: a stored
/// document, even a short one (a memory of 1,000 characters is checked
/// 1.03x-1.23x as fast as when only texts from 1,024 units were kept), not
/// a scope or a name, which costs less to convert than to compare; up to
/// 16,777,216 units, past the 10 MB memories of the benchmarks, but not the
/// tens of megabytes of a hostile input. Keeping a text does not make the
/// module's memory larger: a call on it grew that memory by several times
/// the copy (to 79 MiB for a check of a 10 MB memory) and WebAssembly's
/// memory never shrinks. An upper end of 1,048,576 units was a step in the
/// cost of a check: past it `previous` was converted at every call
/// (BENCHMARKS.md).
const KEPT: RangeInclusive<u32> = 128..=1 << 24;

/// A JavaScript string kept with its conversion, for the next call that
/// hands over the same string (`===`), a string that shares most of it, or
/// makes a result that repeats it: a comparison and a copy in WebAssembly's
/// memory, or a slice of the JavaScript string, instead of a pass of the
/// host's encoder or decoder over all of it. The texts that come back call after call are stored
/// documents: the editor passes the revision being edited as `previous` at
/// every check, and a store reads back the head record it wrote or read
/// last, and the content it saved or loaded last.
///
/// The pair is a JavaScript string and what [`encode`] makes of it (or the
/// text it was made from), so using it gives what converting again would.
/// With them it holds what a caller made of the text
/// ([`derived`](Self::derived)), which goes with the pair when another
/// takes its place.
///
/// The pair is shared (`Rc`) and taken out of its cell before any call into
/// JavaScript: the host's functions it calls (`TextEncoder`'s `encodeInto`,
/// `String.prototype.normalize`, …) may have been replaced by a page with
/// ones that call the package again, and such a call may replace the pair
/// while the outer one still reads the old one.
pub(crate) struct Kept(RefCell<Option<Rc<Pair>>>);

/// What a [`Kept`] holds.
struct Pair {
    js: JsValue,
    text: String,
    /// The strings `js` was joined from by [`Kept::repeated`], when it was;
    /// slices of `js` are cut from them.
    parts: Parts,
    /// Whether `text` holds a U+FFFD, once asked ([`Pair::faithful`]).
    replacement: Cell<Option<bool>>,
    /// What a caller made of `text` ([`Kept::derived`]).
    derived: RefCell<Option<Rc<dyn Any>>>,
}

impl Kept {
    /// Nothing kept yet.
    pub(crate) const fn new() -> Self {
        Self(RefCell::new(None))
    }

    /// The pair, out of its cell.
    fn pair(&self) -> Option<Rc<Pair>> {
        self.0.borrow().clone()
    }

    /// What `make` makes of `text`, kept with the kept text when `text` is
    /// that text (the same characters), so that the next call on the same
    /// text finds it made; `None` when `text` is not the kept text (the
    /// caller makes its own). No borrow is held while `make` runs: it may
    /// call the host (the case folding of titles), whose JavaScript may
    /// call the package again and replace the pair; what was made then
    /// goes with the pair it was made of.
    pub(crate) fn derived<T: 'static>(
        &self,
        text: &str,
        make: impl FnOnce() -> T,
    ) -> Option<Rc<T>> {
        let pair = self.pair()?;
        if !eq(&pair.text, text) {
            return None;
        }
        let known = pair.derived.borrow().clone();
        if let Some(known) = known.and_then(|d| d.downcast::<T>().ok()) {
            return Some(known);
        }
        let fresh = Rc::new(make());
        *pair.derived.borrow_mut() = Some(fresh.clone());
        Some(fresh)
    }

    /// [`near`](Self::near), then kept (when its length is in [`KEPT`]).
    pub(crate) fn string(&self, value: &JsValue) -> Option<String> {
        let (text, same) = self.converted(value)?;
        if !same {
            self.keep(value.clone(), text.clone());
        }
        Some(text)
    }

    /// [`encode`], through the kept pair, without keeping `value`: the kept
    /// text when `value` is the kept string; otherwise, for a text of a
    /// length in [`KEPT`], what it shares at its start and at its end with
    /// the kept string ([`common`]) is copied from the kept text and only
    /// the rest converted. A text passed with the memory it edits
    /// (`planSave(text, { previous })`, a store's save of its memory)
    /// then costs the host's encoder only the edit.
    pub(crate) fn near(&self, value: &JsValue) -> Option<String> {
        self.converted(value).map(|(text, _)| text)
    }

    /// [`near`](Self::near), and whether `value` was the kept string.
    fn converted(&self, value: &JsValue) -> Option<(String, bool)> {
        let source = value.dyn_ref::<JsString>()?;
        let units = source.length();
        let Some(pair) = self.pair().filter(|_| KEPT.contains(&units)) else {
            return Some((encode(source), false));
        };
        let (kept, text) = (&pair.js, &pair.text);
        if kept == value {
            return Some((text.clone(), true));
        }
        let kept: &JsString = kept.unchecked_ref();
        let mut shared = [0; 2];
        common(source, kept, &mut shared);
        let [start, end] = shared;
        // Less than half of it shared is not worth finding where.
        let worth = start + end >= units / 2 && start + end <= units;
        let Some((head, tail)) = worth
            .then(|| shared_bytes(text, kept.length(), start, end))
            .flatten()
        else {
            return Some((encode(source), false));
        };
        let middle = encode(&source.slice(start, units - end));
        Some(([&text[..head], &middle, &text[tail..]].concat(), false))
    }

    /// `text` as a JavaScript string: what it repeats of the kept text as
    /// slices of the kept string ([`repeated`]; cut from the parts it was
    /// joined from, when it was made here), the rest converted. The
    /// result is kept in place of the pair ([`keep`](Self::keep): a borrowed
    /// `text` is copied only when its length is one kept).
    pub(crate) fn repeated(&self, text: Cow<'_, str>) -> JsString {
        let kept = self.0.borrow_mut().take();
        // The kept text itself (a load of the memory saved or loaded last):
        // its string, and the pair stays. Not when the text holds a U+FFFD,
        // which may stand for a lone surrogate of the string (see
        // [`repeated`]).
        let itself = |pair: &&Pair| eq(&pair.text, &text) && pair.faithful();
        if let Some(pair) = kept.as_deref().filter(itself) {
            let js = pair.js.clone().unchecked_into();
            *self.0.borrow_mut() = kept;
            return js;
        }
        let parts = kept
            .as_deref()
            .map(|pair| pair.repeated_parts(&text))
            .unwrap_or_default();
        let js = parts
            .joined()
            .unwrap_or_else(|| JsString::from(text.as_ref()));
        self.keep_joined(js.clone().into(), text, parts.kept());
        js
    }

    /// Keep `text` as the conversion of `value`, a JavaScript string that
    /// was converted from it or to it. A borrowed `text` is copied only
    /// when its length is one kept.
    pub(crate) fn keep(&self, value: JsValue, text: impl Into<String>) {
        self.keep_joined(value, text, Parts::default());
    }

    /// [`keep`](Self::keep) a value joined from `parts`.
    fn keep_joined(&self, value: JsValue, text: impl Into<String>, parts: Parts) {
        let units = value.dyn_ref::<JsString>().map_or(0, JsString::length);
        if KEPT.contains(&units) {
            *self.0.borrow_mut() = Some(Rc::new(Pair {
                js: value,
                text: text.into(),
                parts,
                replacement: Cell::new(None),
                derived: RefCell::default(),
            }));
        }
    }
}

thread_local! {
    /// The last long text read from options.
    static OPTION_TEXT: Kept = const { Kept::new() };
}

/// Where the first `start` and the last `end` UTF-16 units of a string of
/// `units` units, whose UTF-8 is `text`, end and begin in `text`: `None`
/// unless both fall between characters and do not overlap. A text of as
/// many bytes as units is ASCII, where the two counts are the same. The
/// units are counted from the start, a block at a time, unless what is
/// not shared at the start is a sixteenth of it or less (an edit at the
/// end of a memory, the most common): then back from the end, a
/// character at a time.
fn shared_bytes(text: &str, units: u32, start: u32, end: u32) -> Option<(usize, usize)> {
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

/// A text argument, converted [`near`](Kept::near) the last long text read
/// from options: the memory a text is most often an edit of.
pub(crate) fn argument_string(value: &JsValue) -> Option<String> {
    OPTION_TEXT.with(|kept| kept.near(value))
}

/// What `make` makes of `text`, kept with the last long text read from
/// options when `text` is that text ([`Kept::derived`]): what the checks of
/// a memory need of the stored memory (`previous`) it is checked against.
pub(crate) fn option_text_derived<T: 'static>(
    text: &str,
    make: impl FnOnce() -> T,
) -> Option<Rc<T>> {
    OPTION_TEXT.with(|kept| kept.derived(text, make))
}

/// [`encode`] for the strings the reader of options reads
/// ([`read`](super::read)), through a [`Kept`]: the long one in options is
/// the stored document a text is checked against (`previous`), and a caller
/// passes the same one call after call.
pub(crate) fn option_string(value: &JsValue) -> Option<String> {
    OPTION_TEXT.with(|kept| kept.string(value))
}

/// `source` as UTF-8. The host's encoder is fast on ASCII; on other text
/// it is no faster than wasm-bindgen's conversion, which also needs no check
/// in Rust that the bytes are UTF-8. So an ASCII start goes through the
/// encoder, and the text from its first other character on, if any, through
/// wasm-bindgen (whose JavaScript loop then stops at once).
fn encode(source: &JsString) -> String {
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

/// A result made of `pieces` as one JavaScript string, where `text` is the
/// Rust copy of the JavaScript string `source`: a piece that is a part of
/// `text` is handed back as a slice of `source` (V8 shares a slice's
/// characters with the string it was cut from), the others are converted.
/// A result that repeats the memory it was given then costs no copy of it.
/// Not when `text` holds a U+FFFD: that may stand for a lone surrogate of
/// `source`, which a slice would hand back unreplaced.
pub(crate) fn joined(source: &JsString, text: &str, pieces: &[Cow<'_, str>]) -> JsString {
    let range = text.as_ptr() as usize..text.as_ptr() as usize + text.len();
    let within = |piece: &Cow<'_, str>| {
        let start = piece.as_ptr() as usize;
        matches!(piece, Cow::Borrowed(_))
            && range.contains(&start)
            && start + piece.len() <= range.end
    };
    // Looked at only when there is something to slice.
    let faithful = pieces.iter().any(within) && !contains_replacement(text);
    let ascii = faithful && source.length() as usize == text.len();
    pieces
        .iter()
        .map(|piece| {
            if faithful && within(piece) {
                let from = utf16_units(&text[..piece.as_ptr() as usize - range.start], ascii);
                source.slice(from, from + utf16_units(piece, ascii))
            } else {
                JsString::from(piece.as_ref())
            }
        })
        .reduce(|all, piece| all.concat(&piece))
        .unwrap_or_default()
}

/// `result`, a text computed from `text` (the Rust copy of the JavaScript
/// string `source`), as a JavaScript string: the stretches of lines it
/// repeats from `text` as slices of `source`, only the rest converted
/// ([`pieces`]). A canonical memory's canonical form is the memory itself,
/// or without its trailing white space: all of it a slice, and only what is
/// left out counted (at every check of the editor, a canonical memory of
/// some 25,000 characters is the text itself). A memory with a line out of
/// canonical form here and there converts those lines; a result with less
/// than half of it repeated is converted whole. So is the result of a `text`
/// with a U+FFFD, as [`joined`] does.
pub(crate) fn repeated(source: &JsString, text: &str, result: &str) -> JsString {
    let Some(pieces) = sliceable(text, source.length(), result, || {
        !contains_replacement(text)
    }) else {
        return JsString::from(result);
    };
    if let [Piece::Input(units)] = pieces.as_slice() {
        return source.slice(units.start, units.end);
    }
    // The converted pieces in one conversion, and the join in one call:
    // a piece at a time, the calls across the boundary cost more than the
    // work (BENCHMARKS.md, "A result joined in one call").
    let mut converted = String::new();
    let mut plan = Vec::with_capacity(3 * pieces.len());
    let mut at = 0;
    for piece in &pieces {
        match piece {
            Piece::Input(units) => plan.extend([FROM_SOURCE, units.start, units.end]),
            Piece::Result(bytes) => {
                let part = &result[bytes.clone()];
                let units = utf16_units(part, false);
                plan.extend([FROM_CONVERTED, at, at + units]);
                at += units;
                converted.push_str(part);
            }
        }
    }
    join(source, &JsString::from(converted.as_str()), &plan)
}

/// A piece of [`join`]'s plan that is a slice of the input string.
const FROM_SOURCE: u32 = 0;
/// A piece of [`join`]'s plan that is a slice of the converted string.
const FROM_CONVERTED: u32 = 1;

/// What [`pieces`] makes `result` of, when the input string is `faithful`
/// to `text` (a U+FFFD of `text` may stand for a lone surrogate of the
/// string, which a slice would hand back unreplaced).
fn sliceable(
    text: &str,
    units: u32,
    result: &str,
    faithful: impl FnOnce() -> bool,
) -> Option<Vec<Piece>> {
    pieces(text, units, result).filter(|_| faithful())
}

impl Pair {
    /// Whether `js` is exactly what `text` converts to: not when `text`
    /// holds a U+FFFD, which may stand for a lone surrogate of `js`. Looked
    /// for once per pair.
    fn faithful(&self) -> bool {
        let replacement = self
            .replacement
            .get()
            .unwrap_or_else(|| contains_replacement(&self.text));
        self.replacement.set(Some(replacement));
        !replacement
    }

    /// The parts [`Kept::repeated`] joins `result` from, as [`repeated`]
    /// finds them (none when it is converted whole): slices cut from this
    /// pair's string, and each converted piece a string of its own.
    fn repeated_parts(&self, result: &str) -> Parts {
        let mut parts = Parts::default();
        let whole: &JsString = self.js.unchecked_ref();
        let Some(pieces) = sliceable(&self.text, whole.length(), result, || self.faithful()) else {
            return parts;
        };
        for piece in &pieces {
            match piece {
                Piece::Input(units) => self.cut(units.clone(), &mut parts),
                Piece::Result(bytes) => {
                    let converted = JsString::from(&result[bytes.clone()]);
                    let units = converted.length();
                    parts.push(converted, units);
                }
            }
        }
        parts
    }

    /// The units `units` of this pair's string, onto `out`: a slice of each
    /// part it was joined from that they fall in (the part itself when all
    /// of it), or one of the whole string when it has no parts. V8 copies
    /// all of a joined string into one before it cuts a slice of it: at
    /// every save of a store, a record made of the record before it was
    /// copied so, 2 MB for a memory of a million characters (BENCHMARKS.md,
    /// "Slices cut from the parts of a joined string"). A part is a
    /// converted string or a slice of one, which V8 cuts without a copy; it
    /// begins and ends between two characters, so no slice splits a
    /// surrogate pair.
    fn cut(&self, units: Range<u32>, out: &mut Parts) {
        if self.parts.0.is_empty() {
            let whole: &JsString = self.js.unchecked_ref();
            out.push(whole.slice(units.start, units.end), units.end - units.start);
            return;
        }
        let mut from = 0;
        for (to, part) in &self.parts.0 {
            let (start, end) = (units.start.max(from), units.end.min(*to));
            if start < end {
                let cut = if (start, end) == (from, *to) {
                    part.clone()
                } else {
                    part.slice(start - from, end - from)
                };
                out.push(cut, end - start);
            }
            if *to >= units.end {
                break;
            }
            from = *to;
        }
    }
}

/// Strings to join in order, each with the UTF-16 unit where it ends in the
/// join.
#[derive(Default)]
struct Parts(Vec<(u32, JsString)>);

/// The most parts a kept string keeps. A store that adds to its memory at
/// every save makes each record of one part more than the one before; past
/// this many, the next slice of it copies it once (it is one string then).
const MOST_PARTS: usize = 16;

impl Parts {
    fn push(&mut self, part: JsString, units: u32) {
        let end = self.0.last().map_or(0, |(end, _)| *end) + units;
        self.0.push((end, part));
    }

    /// The parts joined; `None` when there are none.
    fn joined(&self) -> Option<JsString> {
        self.0
            .iter()
            .map(|(_, part)| part.clone())
            .reduce(|all, next| all.concat(&next))
    }

    /// What a kept string keeps of the parts it was joined from: nothing
    /// when it is one part or too many.
    fn kept(self) -> Self {
        if (2..=MOST_PARTS).contains(&self.0.len()) {
            self
        } else {
            Self::default()
        }
    }
}
