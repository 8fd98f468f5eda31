//! Text out: the part of a result that repeats the input as a slice of the
//! input string, not a new copy; [`crate::js::repeats`] finds the
//! stretches, and `slices.js` joins the pieces in one call.

use std::borrow::Cow;
use std::ops::Range;

use js_sys::JsString;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;

use crate::js::repeats::{pieces, utf16_units, Piece};
use memdoc::{contains_replacement, eq};

use super::kept::{Kept, Pair};
use super::parts::Parts;

#[wasm_bindgen(module = "/src/wasm/text/slices.js")]
extern "C" {
    /// The pieces of `plan` joined, three numbers each: [`FROM_SOURCE`] or
    /// [`FROM_CONVERTED`], and the UTF-16 units where the piece starts and
    /// ends in that string.
    fn join(source: &JsString, converted: &JsString, plan: &[u32]) -> JsString;
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

impl Kept {
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
    /// all of a joined string into one before it cuts a slice of it, which
    /// at every save of a store would copy the record before (BENCHMARKS.md,
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
