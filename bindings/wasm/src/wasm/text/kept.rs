//! A JavaScript string kept with its conversion from call to call ([`Kept`]):
//! the long text last read from options, and in a store its last host
//! value and content. Text in ([`encode`](super::encode)) and text out
//! ([`slices`](super::slices)) both go through it.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ops::RangeInclusive;
use std::rc::Rc;

use js_sys::JsString;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;

use memdoc::eq;

use super::encode::{common, encode, shared_bytes};
use super::parts::Parts;

/// The lengths, in UTF-16 units, of the texts a [`Kept`] keeps: a stored
/// document, even a short one (a short memory is checked faster kept), not
/// a scope or a name, which costs less to convert than to compare; up to
/// 16,777,216 units, past the 10 MB memories of the benchmarks, but not the
/// tens of megabytes of a hostile input, whose copy would grow the module's
/// memory, which WebAssembly never gives back. Figures in BENCHMARKS.md.
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
pub(crate) struct Kept(pub(super) RefCell<Option<Rc<Pair>>>);

/// What a [`Kept`] holds.
pub(super) struct Pair {
    pub(super) js: JsValue,
    pub(super) text: String,
    /// The strings `js` was joined from by [`Kept::repeated`], when it was;
    /// slices of `js` are cut from them.
    pub(super) parts: Parts,
    /// Whether `text` holds a U+FFFD, once asked ([`Pair::faithful`]).
    pub(super) replacement: Cell<Option<bool>>,
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

    /// Keep `text` as the conversion of `value`, a JavaScript string that
    /// was converted from it or to it. A borrowed `text` is copied only
    /// when its length is one kept.
    pub(crate) fn keep(&self, value: JsValue, text: impl Into<String>) {
        self.keep_joined(value, text, Parts::default());
    }

    /// [`keep`](Self::keep) a value joined from `parts`.
    pub(super) fn keep_joined(&self, value: JsValue, text: impl Into<String>, parts: Parts) {
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
/// ([`read`](crate::wasm::read)), through a [`Kept`]: the long one in options is
/// the stored document a text is checked against (`previous`), and a caller
/// passes the same one call after call.
pub(crate) fn option_string(value: &JsValue) -> Option<String> {
    OPTION_TEXT.with(|kept| kept.string(value))
}
