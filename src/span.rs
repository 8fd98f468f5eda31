//! Byte ranges into the input text, and the [`LineIndex`] that turns them into
//! the 1-based line, 1-based UTF-16 column and 0-based UTF-16 offset that
//! editors and JavaScript use. Internally every range is a byte range with an
//! exclusive end; UTF-16 is counted only here and at the boundary.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::OnceLock;

use serde::Serialize;

use crate::fast::utf16_len;
use crate::lines::lines;

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
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
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
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
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
#[derive(Debug)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset and UTF-16 offset of the start of each line, and last
    /// those of the end of the text: found at the first lookup, a pass over
    /// the whole text that a result with no range (a clean merge, a report
    /// without ranged findings) never makes.
    bounds: OnceLock<Vec<(usize, usize)>>,
    /// The line of the last offset looked up: positions are mostly asked
    /// for in the order of the text, so the next one is usually on it or
    /// on the line after, found without a search. (Atomic only so that the
    /// index stays `Sync`; the order of the accesses does not matter.)
    last: AtomicUsize,
}

impl Clone for LineIndex<'_> {
    fn clone(&self) -> Self {
        Self {
            text: self.text,
            bounds: self.bounds.clone(),
            last: AtomicUsize::new(self.last.load(Relaxed)),
        }
    }
}

impl<'a> LineIndex<'a> {
    /// An index of the line starts of `text`, which are found when a
    /// position is first asked for.
    #[must_use]
    pub const fn new(text: &'a str) -> Self {
        Self {
            text,
            bounds: OnceLock::new(),
            last: AtomicUsize::new(0),
        }
    }

    /// The line starts, found now if they were not yet.
    fn starts(&self) -> &[(usize, usize)] {
        let bounds = self.bounds();
        &bounds[..bounds.len() - 1]
    }

    /// The line starts and the end of the text.
    fn bounds(&self) -> &[(usize, usize)] {
        self.bounds.get_or_init(|| {
            let text = self.text;
            let mut starts = vec![(0, 0)];
            let mut utf16 = 0;
            let mut last = 0;
            let mut mark = |start: usize, starts: &mut Vec<(usize, usize)>| {
                utf16 += utf16_len(&text[last..start]);
                starts.push((start, utf16));
                last = start;
            };
            // The parser's own splitter; it starts no line after a final
            // break, which still starts one here (a position can be at the
            // very end).
            for (start, _) in lines(text).skip(1) {
                mark(start, &mut starts);
            }
            if text.ends_with(['\n', '\r']) {
                mark(text.len(), &mut starts);
            }
            let end = utf16 + utf16_len(&text[last..]);
            starts.push((text.len(), end));
            starts
        })
    }

    /// Where the line of byte `offset` ends (with its line break), when
    /// the line is ASCII (`is_ascii_line`): there a byte is a UTF-16
    /// unit, and positions on it need no count.
    #[must_use]
    pub fn ascii_end(&self, offset: usize) -> Option<usize> {
        let line = self.line_of(self.clamped(offset));
        let bounds = self.bounds();
        let (start, next) = (bounds[line], bounds[line + 1]);
        is_ascii_line(start, next).then_some(next.0)
    }

    /// The position of byte `offset` (clamped to the text, and down to a
    /// character boundary).
    #[must_use]
    pub fn position(&self, offset: usize) -> Position {
        let offset = self.clamped(offset);
        self.position_on(self.line_of(offset), offset)
    }

    /// The editor range of a byte span.
    #[must_use]
    pub fn range(&self, span: Span) -> Range {
        let start = self.clamped(span.start);
        let end = self.clamped(span.end);
        let line = self.line_of(start);
        // Most spans are within one line: no second search for it.
        let same = start <= end
            && self
                .starts()
                .get(line + 1)
                .map_or(true, |&(next, _)| end < next);
        Range {
            start: self.position_on(line, start),
            end: self.position_on(if same { line } else { self.line_of(end) }, end),
        }
    }

    /// `offset` clamped to the text, and down to a character boundary.
    fn clamped(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// The 0-based line of the (clamped) byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        let starts = self.starts();
        let last = self.last.load(Relaxed);
        let on = |line: usize| {
            starts.get(line).is_some_and(|&(start, _)| start <= offset)
                && starts
                    .get(line + 1)
                    .map_or(true, |&(next, _)| offset < next)
        };
        let line = if on(last) {
            return last;
        } else if on(last + 1) {
            last + 1
        } else {
            starts.partition_point(|&(start, _)| start <= offset) - 1
        };
        self.last.store(line, Relaxed);
        line
    }

    /// The position of the (clamped) byte `offset` on the 0-based `line`.
    /// On a line that is not ASCII its units are counted from the start of
    /// the line or back from the start of the next, whichever is nearer:
    /// the end of a line's text (where the range of an entry ends) is then
    /// its line break away.
    fn position_on(&self, line: usize, offset: usize) -> Position {
        let bounds = self.bounds();
        let ((start, start16), (next, next16)) = (bounds[line], bounds[line + 1]);
        let column = if is_ascii_line((start, start16), (next, next16)) {
            offset - start
        } else if offset - start <= next - offset {
            utf16_len(&self.text[start..offset])
        } else {
            next16 - start16 - utf16_len(&self.text[offset..next])
        };
        Position {
            line: line + 1,
            column: column + 1,
            offset: start16 + column,
        }
    }
}

/// Whether the line from `start` to `next` (each a byte offset and its
/// UTF-16 offset) is ASCII: it spans as many units as bytes, since a
/// character that is not ASCII has more bytes than units.
fn is_ascii_line(start: (usize, usize), next: (usize, usize)) -> bool {
    next.0 - start.0 == next.1 - start.1
}

#[cfg(test)]
mod tests {
    use super::{utf16_len, LineIndex, Span};

    /// Line, column and UTF-16 offset of `offset`, counted from the start.
    fn counted(text: &str, offset: usize) -> (usize, usize, usize) {
        let before = &text[..offset];
        let breaks = before.matches("\r\n").count()
            + before.matches('\r').count()
            + before.matches('\n').count()
            - before.matches("\r\n").count() * 2;
        // A CR at `offset - 1` followed by LF at `offset` has started no
        // line yet: the CRLF is one break, after its LF.
        let pending_crlf = before.ends_with('\r') && text[offset..].starts_with('\n');
        let line_start = before.rfind(['\n', '\r']).map_or(0, |at| at + 1);
        let (line, column) = if pending_crlf {
            let start = before[..before.len() - 1]
                .rfind(['\n', '\r'])
                .map_or(0, |at| at + 1);
            (breaks, utf16_len(&before[start..]))
        } else {
            (breaks + 1, utf16_len(&before[line_start..]))
        };
        (line, column + 1, utf16_len(before))
    }

    #[test]
    fn a_line_is_ascii_when_it_spans_as_many_units_as_bytes() {
        let text = "ab\r\né\n😀\nplain\n\nx";
        let index = LineIndex::new(text);
        let ends: Vec<Option<usize>> = [0, 3, 4, 7, 12, 17, 18, 19]
            .iter()
            .map(|&o| index.ascii_end(o))
            .collect();
        assert_eq!(
            ends,
            [
                Some(4),
                Some(4),
                None,
                None,
                Some(18),
                Some(18),
                Some(19),
                Some(20)
            ],
            "each line with its break; the last line to the end of the text"
        );
        assert_eq!(LineIndex::new("").ascii_end(0), Some(0));
        assert_eq!(LineIndex::new("é").ascii_end(0), None);
    }

    #[test]
    fn positions_are_the_same_in_any_order_of_lookup() {
        let text = "a\r\nbé\rc\n\n😀 x\r\n\r\nlong line here\nz\n";
        let offsets: Vec<usize> = (0..=text.len())
            .filter(|&o| text.is_char_boundary(o))
            .collect();
        let n = offsets.len();
        let orders: [Vec<usize>; 4] = [
            offsets.clone(),
            offsets.iter().rev().copied().collect(),
            (0..n).map(|i| offsets[i * 7 % n]).collect(),
            offsets
                .iter()
                .flat_map(|&o| {
                    [
                        o,
                        o,
                        offsets[n - 1 - offsets.iter().position(|&x| x == o).unwrap()],
                    ]
                })
                .collect(),
        ];
        for order in orders {
            let mut index = LineIndex::new(text);
            for (i, &offset) in order.iter().enumerate() {
                if i % 5 == 4 {
                    index = index.clone();
                }
                let p = index.position(offset);
                assert_eq!(
                    (p.line, p.column, p.offset),
                    counted(text, offset),
                    "at {offset}"
                );
                let r = index.range(Span::new(offset, text.len()));
                assert_eq!(r.start, p);
            }
        }
    }

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

    #[test]
    fn the_lines_are_found_at_the_first_lookup_only() {
        let index = LineIndex::new("a\nb");
        assert!(index.bounds.get().is_none(), "no pass over the text yet");
        let copy = index.clone();
        assert_eq!(index.position(2).line, 2);
        assert_eq!(
            index.bounds.get().map(Vec::len),
            Some(3),
            "two lines and the end"
        );
        assert!(
            copy.bounds.get().is_none(),
            "a clone made before has its own"
        );
        assert_eq!(copy.range(Span::new(0, 3)).end.column, 2);
    }
}
