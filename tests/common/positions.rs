//! Positions counted a character at a time, independently of
//! `memdoc::LineIndex`: what its positions are checked against.

use memdoc::Position;

/// The position of every character of `text` and of its end, each with its
/// byte offset, counted a character at a time; lines break as the parser
/// splits them (LF, CR, CRLF).
pub fn positions_one_by_one(text: &str) -> Vec<(usize, Position)> {
    let (mut line, mut column, mut offset) = (1, 1, 0);
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        out.push((
            at,
            Position {
                line,
                column,
                offset,
            },
        ));
        offset += c.len_utf16();
        let breaks = c == '\n' || (c == '\r' && chars.peek().map(|&(_, n)| n) != Some('\n'));
        (line, column) = if breaks {
            (line + 1, 1)
        } else {
            (line, column + c.len_utf16())
        };
    }
    out.push((
        text.len(),
        Position {
            line,
            column,
            offset,
        },
    ));
    out
}
