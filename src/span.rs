//! Byte ranges into the input text, and the [`LineIndex`] that turns them into
//! the 1-based line, 1-based UTF-16 column and 0-based UTF-16 offset that
//! editors and JavaScript use. Internally every range is a byte range with an
//! exclusive end; nothing else in the crate deals in UTF-16.

use serde::Serialize;

/// A byte range `start..end` (end exclusive) into the text that was parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// A range from `start` to `end` (bytes, end exclusive).
    #[must_use]
    pub const fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }

    /// The same range moved `by` bytes to the right.
    #[must_use]
    pub const fn shifted(self, by: usize) -> Self {
        Self::new(self.start + by, self.end + by)
    }

    /// The text this range covers in `text`, or `""` when it is out of bounds.
    #[must_use]
    pub fn slice(self, text: &str) -> &str {
        text.get(self.start..self.end).unwrap_or("")
    }
}

/// A position as editors and JavaScript count it: 1-based line, 1-based
/// UTF-16 column, 0-based UTF-16 offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Position {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in UTF-16 code units.
    pub column: usize,
    /// 0-based offset from the start of the text, in UTF-16 code units.
    pub offset: usize,
}

/// A range in the text that was passed in; `end` is exclusive.
///
/// A [`Span`] converted to editor positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Range {
    /// Where the range starts.
    pub start: Position,
    /// Where the range ends (exclusive).
    pub end: Position,
}

/// Line starts of a text, for converting byte offsets into [`Position`]s.
///
/// Lines break at LF, CRLF and a lone CR, exactly as the parser splits them.
///
/// ```
/// use memdoc::{LineIndex, Span};
/// let text = "é\n😀x";
/// let index = LineIndex::new(text);
/// let range = index.range(Span::new(7, 8)); // the "x"
/// assert_eq!((range.start.line, range.start.column, range.start.offset), (2, 3, 4));
/// ```
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset and UTF-16 offset of the start of each line.
    starts: Vec<(usize, usize)>,
}

impl<'a> LineIndex<'a> {
    /// Index the line starts of `text`.
    #[must_use]
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![(0, 0)];
        let mut utf16 = 0;
        let mut last = 0;
        let mut mark = |start: usize, starts: &mut Vec<(usize, usize)>| {
            utf16 += utf16_len(&text[last..start]);
            starts.push((start, utf16));
            last = start;
        };
        // The parser's own splitter; it starts no line after a final break,
        // which still starts one here (a position can be at the very end).
        for (start, _) in crate::parse::lines(text).skip(1) {
            mark(start, &mut starts);
        }
        if text.ends_with(['\n', '\r']) {
            mark(text.len(), &mut starts);
        }
        Self { text, starts }
    }

    /// The position of byte `offset` (clamped to the text, and down to a
    /// character boundary).
    #[must_use]
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&(start, _)| start <= offset) - 1;
        let (start, start16) = self.starts[line];
        let column = utf16_len(&self.text[start..offset]);
        Position {
            line: line + 1,
            column: column + 1,
            offset: start16 + column,
        }
    }

    /// The editor range of a byte span.
    #[must_use]
    pub fn range(&self, span: Span) -> Range {
        Range {
            start: self.position(span.start),
            end: self.position(span.end),
        }
    }
}

/// The length of `s` in UTF-16 units: JavaScript string positions.
pub(crate) fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

    #[test]
    fn lines_start_after_lf_crlf_and_a_lone_cr_and_after_a_final_break() {
        let text = "a\r\nb\rc\né\n";
        let index = LineIndex::new(text);
        let at = |offset| {
            let p = index.position(offset);
            (p.line, p.column, p.offset)
        };
        assert_eq!(at(0), (1, 1, 0));
        assert_eq!(at(3), (2, 1, 3));
        assert_eq!(at(5), (3, 1, 5));
        assert_eq!(at(7), (4, 1, 7));
        // After "é" (two bytes, one UTF-16 unit) and the final LF: line 5.
        assert_eq!(at(text.len()), (5, 1, 9));
        assert_eq!(LineIndex::new("").position(0).line, 1);
    }
}
