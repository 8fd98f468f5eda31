//! `parse`'s result as numbers, for the JavaScript builder beside this file
//! (`document.js`, imported by [`wasm`](self::wasm)) that makes the
//! [`DocumentView`](crate::js::view::DocumentView) out of object literals
//! and slices of the input string. An exception to the default format
//! (`crate::wire::packed`): `parse` is the hot call of the editor, and its
//! strings are slices of the input, which the default format would copy.
//!
//! The layout, all `u32`:
//!
//! - document: the number of sections, each section, the number of preamble
//!   lines, each preamble line;
//! - section: title (a string), explicit (0 or 1), range, the number of
//!   lines, each line;
//! - line: [`ENTRY`], date, text (strings), legacy marker (0 for none, else
//!   an index into the names), range; or [`RAW`], text (a string), range;
//! - string: the UTF-16 start and end of a slice of the input, or [`NAMED`]
//!   and an index into the names ([`Numbers::names`]);
//! - range: start line, column, offset, end line, column, offset.

use memdoc::{contains_replacement, utf16_len};
use memdoc::{Document, Line, RawLine, IMPLICIT_TITLE};
use memdoc::{LineIndex, Range, Span};

use crate::js::view::{EntryView, RawLineView};

#[cfg(target_arch = "wasm32")]
pub(crate) mod wasm;

/// A line that is an entry; also the index of its `kind` in the names.
pub const ENTRY: u32 = 0;
/// A line that is a raw line; also the index of its `kind` in the names.
pub const RAW: u32 = 1;
/// A string that is one of the names, not a slice of the input.
pub const NAMED: u32 = u32::MAX;

/// The numbers of a document, and the fixed strings they name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbers {
    /// The layout above.
    pub numbers: Vec<u32>,
    /// The `kind`s ([`ENTRY`], [`RAW`]), the implicit section's title, and
    /// the legacy markers the document has.
    pub names: Vec<&'static str>,
}

/// Index of [`IMPLICIT_TITLE`] in the names.
const IMPLICIT: u32 = 2;

impl Numbers {
    /// The numbers of `doc`, parsed from `text`; `None` when a string of the
    /// view is neither a part of `text` nor a name, or when `text` holds a
    /// U+FFFD (it may stand for a lone surrogate of the JavaScript input,
    /// which a slice of the input would hand back unreplaced; as
    /// `src/wasm/text/slices.rs` does for `joined`), or a number does not fit.
    #[must_use]
    pub fn of(doc: &Document<'_>, text: &str) -> Option<Self> {
        if contains_replacement(text) {
            return None;
        }
        let mut out = Writer {
            text,
            index: LineIndex::new(text),
            known: (0, 0),
            range_end: (0, 0),
            ascii_to: 0,
            numbers: Vec::new(),
            names: vec![
                EntryView::KIND.as_str(),
                RawLineView::KIND.as_str(),
                IMPLICIT_TITLE,
            ],
        };
        out.push(doc.sections.len())?;
        for section in &doc.sections {
            let range = out.range(section.span);
            match out.slice(&section.title) {
                Some(()) => {}
                None if section.title == IMPLICIT_TITLE => out.numbers.extend([NAMED, IMPLICIT]),
                None => return None,
            }
            out.numbers.push(u32::from(section.explicit));
            out.push_range(range)?;
            out.push(section.lines.len())?;
            for line in &section.lines {
                match line {
                    Line::Entry(e) => {
                        let range = out.range(e.span);
                        out.numbers.push(ENTRY);
                        out.slice(&e.date)?;
                        out.slice(&e.text)?;
                        let marker = match e.legacy_marker {
                            Some(m) => out.name(m.as_str()),
                            None => 0,
                        };
                        out.numbers.push(marker);
                        out.push_range(range)?;
                    }
                    Line::Raw(r) => out.raw(r)?,
                }
            }
        }
        out.push(doc.preamble.len())?;
        for r in &doc.preamble {
            out.raw(r)?;
        }
        Some(Self {
            numbers: out.numbers,
            names: out.names,
        })
    }
}

/// The numbers so far.
struct Writer<'t> {
    text: &'t str,
    index: LineIndex<'t>,
    /// A byte offset and its UTF-16 offset.
    known: (usize, usize),
    /// The end of the last range, as a byte offset and its UTF-16 offset:
    /// where a line's last string (an entry's text) ends.
    range_end: (usize, usize),
    /// Where the ASCII line of the last range ends (0 for a line that is
    /// not ASCII): up to there, from `known`, a byte is a unit.
    ascii_to: usize,
    numbers: Vec<u32>,
    names: Vec<&'static str>,
}

impl Writer<'_> {
    /// `n`, if it fits (and is not [`NAMED`]).
    fn push(&mut self, n: usize) -> Option<()> {
        self.numbers
            .push(u32::try_from(n).ok().filter(|&n| n != NAMED)?);
        Some(())
    }

    /// `piece` as its UTF-16 start and end in the input, if it is a part of
    /// the text (borrowed from it: an owned string's bytes are elsewhere).
    fn slice(&mut self, piece: &str) -> Option<()> {
        let byte = (piece.as_ptr() as usize).checked_sub(self.text.as_ptr() as usize)?;
        if byte + piece.len() > self.text.len() {
            return None;
        }
        let start = self.offset(byte);
        let end = if byte + piece.len() <= self.ascii_to {
            start + piece.len()
        } else if byte + piece.len() == self.range_end.0 {
            self.range_end.1
        } else {
            start + utf16_len(piece)
        };
        self.known = (byte + piece.len(), end);
        self.push(start)?;
        self.push(end)
    }

    /// The UTF-16 offset of `byte`: counted on from the last known offset
    /// when it is at or after it (the strings of a line follow its start),
    /// which is much faster than the index's search for the line.
    fn offset(&self, byte: usize) -> usize {
        let (from, offset) = self.known;
        if from <= byte && byte <= self.ascii_to {
            return offset + (byte - from);
        }
        match self.text.get(from..byte) {
            Some(between) => offset + utf16_len(between),
            None => self.index.position(byte).offset,
        }
    }

    /// The range of `span`, to [`push`](Self::push) after its strings.
    fn range(&mut self, span: Span) -> Range {
        let r = self.index.range(span);
        self.known = (span.start, r.start.offset);
        self.range_end = (span.end, r.end.offset);
        self.ascii_to = self.index.ascii_end(span.start).unwrap_or(0);
        r
    }

    fn push_range(&mut self, r: Range) -> Option<()> {
        for p in [r.start, r.end] {
            self.push(p.line)?;
            self.push(p.column)?;
            self.push(p.offset)?;
        }
        Some(())
    }

    fn raw(&mut self, r: &RawLine<'_>) -> Option<()> {
        let range = self.range(r.span);
        self.numbers.push(RAW);
        self.slice(&r.text)?;
        self.push_range(range)
    }

    /// The index of `name` in the names, added if new.
    fn name(&mut self, name: &'static str) -> u32 {
        let at = self
            .names
            .iter()
            .position(|&n| n == name)
            .unwrap_or_else(|| {
                self.names.push(name);
                self.names.len() - 1
            });
        u32::try_from(at).unwrap_or(NAMED)
    }
}

#[cfg(test)]
mod tests {
    use super::{Numbers, ENTRY, NAMED, RAW};
    use memdoc::parse;

    #[test]
    fn strings_are_utf16_slices_of_the_input_or_names() {
        let text = "é\n- 2025-01-01: x\n## 😀 T\n- (2025-01-02) [pref] y";
        let n = Numbers::of(&parse(text), text).expect("numbers");
        assert_eq!(n.names, ["entry", "raw", "Memory", "pref"]);
        #[rustfmt::skip]
        let want = [
            2, // sections
            NAMED, 2, 0, 2, 1, 2, 2, 16, 17, // implicit "Memory", the entry's line
            1,
            ENTRY, 4, 14, 16, 17, 0, 2, 1, 2, 2, 16, 17,
            21, 25, 1, 3, 1, 18, 3, 8, 25, // "😀 T": two units for the emoji
            1,
            ENTRY, 29, 39, 48, 49, 3, 4, 1, 26, 4, 24, 49,
            1, // preamble
            RAW, 0, 1, 1, 1, 0, 1, 2, 1,
        ];
        assert_eq!(n.numbers, want);
    }

    #[test]
    fn a_replacement_character_or_an_owned_string_is_no_slice() {
        let text = "## A\n- 2025-01-01: \u{FFFD}";
        assert_eq!(Numbers::of(&parse(text), text), None);
        let text = "## A\n- 2025-01-01: x";
        let mut doc = parse(text);
        doc.sections[0].title = "A".to_owned().into();
        assert_eq!(Numbers::of(&doc, text), None);
        assert!(Numbers::of(&parse(""), "").is_some());
    }
}
