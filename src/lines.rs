//! Where a text's lines break (docs/FORMAT.md): at LF, CRLF and a lone CR,
//! for the parser and for the [`LineIndex`](crate::LineIndex) that counts
//! positions as the parser splits.

use crate::fast::find_line_break;

/// Split at LF, CRLF and a lone CR, yielding each line's start offset.
/// A final line break does not start another line.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    std::iter::from_fn(move || {
        if pos >= bytes.len() {
            return None;
        }
        let start = pos;
        let end = find_line_break(bytes, start);
        pos = if end < bytes.len() && bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') {
            end + 2
        } else {
            end + 1
        };
        Some((start, &text[start..end]))
    })
}
