//! [`LineIndex`]: byte offsets -> 1-based line, 1-based UTF-16 column,
//! 0-based UTF-16 offset.

use memdoc::{LineIndex, Position, Span};

#[cfg(not(target_arch = "wasm32"))]
#[path = "common/positions.rs"]
mod positions;

fn pos(line: usize, column: usize, offset: usize) -> Position {
    Position {
        line,
        column,
        offset,
    }
}

#[test]
fn counts_utf16_units_for_accents_cjk_and_emoji() {
    let text = "é中😀x\nab";
    let index = LineIndex::new(text);
    // é = 2 bytes/1 unit, 中 = 3 bytes/1 unit, 😀 = 4 bytes/2 units.
    assert_eq!(index.position(0), pos(1, 1, 0), "should start at 1:1");
    assert_eq!(
        index.position(2),
        pos(1, 2, 1),
        "should count é as one unit"
    );
    assert_eq!(
        index.position(5),
        pos(1, 3, 2),
        "should count 中 as one unit"
    );
    assert_eq!(
        index.position(9),
        pos(1, 5, 4),
        "should count the emoji as two units"
    );
    assert_eq!(
        index.position(10),
        pos(1, 6, 5),
        "should reach the line break"
    );
    assert_eq!(
        index.position(11),
        pos(2, 1, 6),
        "should start line 2 after LF"
    );
    assert_eq!(index.position(13), pos(2, 3, 8), "should reach the end");
    let r = index.range(Span::new(5, 9));
    assert_eq!(
        (r.start, r.end),
        (pos(1, 3, 2), pos(1, 5, 4)),
        "should convert a span"
    );
}

#[test]
fn offsets_slice_the_same_text_in_utf16() {
    let text = "## Über 中文 😀\r\n- 2025-01-01: 😀😀 x\rend";
    let index = LineIndex::new(text);
    let utf16: Vec<u16> = text.encode_utf16().collect();
    for (start, _) in text.char_indices() {
        for end in [start, text.len()] {
            let r = index.range(Span::new(start, end));
            let got = String::from_utf16(&utf16[r.start.offset..r.end.offset])
                .expect("should be whole characters");
            assert_eq!(
                got,
                &text[start..end],
                "should slice the same text for {start}..{end}"
            );
        }
    }
}

#[test]
fn breaks_lines_at_crlf_and_lone_cr_like_the_parser() {
    let text = "a\r\nb\rc\nd\u{2028}e\u{85}f";
    let index = LineIndex::new(text);
    assert_eq!(
        index.position(3),
        pos(2, 1, 3),
        "should start line 2 after CRLF"
    );
    assert_eq!(
        index.position(5),
        pos(3, 1, 5),
        "should start line 3 after a lone CR"
    );
    assert_eq!(
        index.position(7),
        pos(4, 1, 7),
        "should start line 4 after LF"
    );
    let e = text.find('e').expect("e");
    assert_eq!(
        index.position(e),
        pos(4, 3, 9),
        "should not break at U+2028"
    );
    let f = text.find('f').expect("f");
    assert_eq!(index.position(f), pos(4, 5, 11), "should not break at NEL");
    assert_eq!(
        index.position(2),
        pos(1, 3, 2),
        "should keep the LF of a CRLF on the first line"
    );
}

#[test]
fn clamps_out_of_range_and_mid_character_offsets() {
    let text = "é😀";
    let index = LineIndex::new(text);
    assert_eq!(
        index.position(1),
        pos(1, 1, 0),
        "should clamp inside é down to its start"
    );
    assert_eq!(
        index.position(4),
        pos(1, 2, 1),
        "should clamp inside the emoji down to its start"
    );
    assert_eq!(index.position(6), pos(1, 4, 3), "should reach the end");
    assert_eq!(
        index.position(1000),
        pos(1, 4, 3),
        "should clamp past the end"
    );
    let r = index.range(Span::new(usize::MAX, usize::MAX));
    assert_eq!(r.start, pos(1, 4, 3), "should clamp huge offsets");
    let empty = LineIndex::new("");
    assert_eq!(
        empty.position(5),
        pos(1, 1, 0),
        "should handle the empty text"
    );
}

#[test]
fn trailing_line_break_opens_a_last_line() {
    let index = LineIndex::new("a\n");
    assert_eq!(
        index.position(2),
        pos(2, 1, 2),
        "should place the end after the final break on a new line"
    );
}

#[test]
fn span_helpers() {
    assert_eq!(
        Span::new(1, 3).shifted(4),
        Span::new(5, 7),
        "should shift both ends"
    );
    assert_eq!(Span::new(0, 2).slice("é"), "é", "should slice in bounds");
    assert_eq!(
        Span::new(0, 1).slice("é"),
        "",
        "should give empty text off a char boundary"
    );
    assert_eq!(
        Span::new(2, 9).slice("ab"),
        "",
        "should give empty text out of bounds"
    );
}

// Natively only (proptest does not build for wasm32); the wasm-bindgen
// tests (bindings/wasm/tests/wasm.rs) check every position of its texts in
// the module.
#[cfg(not(target_arch = "wasm32"))]
proptest::proptest! {
    /// Lines of ASCII, accents, CJK and emoji: a position is counted from
    /// the start of its line or back from the next, and either way it is
    /// the one a count a character at a time finds, in any order of asking.
    #[test]
    fn every_position_is_the_one_counted_a_character_at_a_time(
        pieces in proptest::collection::vec(
            proptest::sample::select(vec!["a", "word ", "é", "記", "😀", "\n", "\r", "\r\n", "- 2025-01-01: "]),
            0..120,
        ),
        backwards in proptest::bool::ANY,
    ) {
        let text: String = pieces.concat();
        let index = LineIndex::new(&text);
        let mut expected = positions::positions_one_by_one(&text);
        if backwards {
            expected.reverse();
        }
        for (at, want) in expected {
            proptest::prop_assert_eq!(index.position(at), want, "byte {} of {:?}", at, text);
        }
    }
}
