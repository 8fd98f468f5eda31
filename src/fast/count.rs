//! Text counted in the units that limits and JavaScript count: code points
//! ([`char_count`]) and UTF-16 units ([`utf16_len`], [`utf16_offset`]),
//! on the bytes a block at a time, where the standard library decodes a
//! character at a time; and the search for U+FFFD
//! ([`contains_replacement`]).

use super::blocks;

/// The length of `s` in UTF-16 units: JavaScript string positions
/// (`s.encode_utf16().count()`).
///
/// Counted on the bytes, a block at a time (the positions of `parse`'s result
/// spent most of their time decoding characters): every byte of UTF-8 that
/// does not continue a character (`10xxxxxx`) starts one, one unit, and a
/// character of four bytes (lead byte `11110xxx`) takes two.
pub fn utf16_len(s: &str) -> usize {
    let (starts, fours) = starts_and_fours(s, true);
    starts + fours
}

/// The length of `s` in code points (`s.chars().count()`), what the limits
/// and sizes count. In WebAssembly counted a block at a time as
/// [`utf16_len`] counts, where the standard library's takes a `usize` at a
/// time, a visible share of `planSave`; not inlined, as a copy at each
/// caller makes the module larger (BENCHMARKS.md).
#[inline(never)]
pub(crate) fn char_count(s: &str) -> usize {
    if cfg!(target_arch = "wasm32") {
        starts_and_fours(s, false).0
    } else {
        s.chars().count()
    }
}

/// The bytes of `s` that start a character, and (when `fours`) those that
/// start one of four bytes (lead byte `11110xxx`).
fn starts_and_fours(s: &str, count_fours: bool) -> (usize, usize) {
    blocks::starts_and_fours(s.as_bytes(), count_fours)
}

/// The byte offset in `s` after its first `units` UTF-16 units: where a
/// JavaScript string position falls in its UTF-8. `None` when that is past
/// the end, or between the two units of a character of four bytes. Counted
/// as [`utf16_len`] counts, a block at a time.
pub fn utf16_offset(s: &str, units: usize) -> Option<usize> {
    let bytes = s.as_bytes();
    let (at, mut seen) = blocks::utf16_blocks(bytes, units);
    for (i, &b) in bytes[at..].iter().enumerate() {
        if b & 0xC0 == 0x80 {
            continue;
        }
        if seen == units {
            return Some(at + i);
        }
        seen += if b >= 0xF0 { 2 } else { 1 };
        if seen > units {
            return None;
        }
    }
    (seen == units).then_some(bytes.len())
}

/// The byte offset in `s` where its last `units` UTF-16 units begin:
/// [`utf16_offset`] counted back from the end, a character at a time, for
/// the short end of a long text. `None` when that is before the start, or
/// between the two units of a character of four bytes.
pub fn utf16_offset_back(s: &str, units: usize) -> Option<usize> {
    let mut seen = 0;
    for (at, c) in s.char_indices().rev() {
        if seen == units {
            return Some(at + c.len_utf8());
        }
        seen += c.len_utf16();
        if seen > units {
            return None;
        }
    }
    (seen == units).then_some(0)
}

/// Whether `s` holds a U+FFFD (`s.contains('\u{FFFD}')`), which is what a
/// lone surrogate of a JavaScript string becomes in UTF-8: where it may be
/// one, a position counted in `s` and the same position in the JavaScript
/// string can name different text. Searched for its first byte a block at
/// a time (`0xEF` leads only the characters U+F000 to U+FFFF), then
/// checked where one is found: the standard library searches for the
/// three bytes as a string. Not inlined: each caller carried a copy.
#[inline(never)]
pub fn contains_replacement(s: &str) -> bool {
    blocks::contains_replacement(s.as_bytes())
}

/// Whether a U+FFFD starts in `bytes[from..to]` (`to` past the end is the
/// end). The scans ask it of a block that holds the character's first
/// byte, `0xEF`, with `to` two bytes into the next block, for one that
/// starts in the block's last byte.
pub(super) fn fffd_from(bytes: &[u8], from: usize, to: usize) -> bool {
    bytes[from..to.min(bytes.len())]
        .windows(3)
        .any(|w| w == [0xEF, 0xBF, 0xBD])
}

#[cfg(test)]
mod tests {
    use super::{
        contains_replacement, starts_and_fours, utf16_len, utf16_offset, utf16_offset_back,
    };

    #[test]
    fn utf16_len_counts_what_javascript_counts() {
        for s in [
            "",
            "a",
            "é",
            "記憶",
            "😀",
            "a\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}z",
        ] {
            assert_eq!(utf16_len(s), s.encode_utf16().count(), "{s:?}");
        }
    }

    #[test]
    fn utf16_offsets_are_where_javascript_positions_fall() {
        // Every position of texts mixing characters of one to four bytes,
        // at every alignment to the eight-byte words: a character's start is
        // the offset of the units before it, the middle of a pair and past
        // the end are none.
        let mixes = ["aé記😀", "😀😀x", "記記記記記記記a", "éééééééé😀"];
        for mix in mixes {
            for lead in 0..9 {
                let s = "x".repeat(lead) + &mix.repeat(3);
                let mut expected = vec![None; s.encode_utf16().count() + 2];
                let mut units = 0;
                for (at, c) in s.char_indices() {
                    expected[units] = Some(at);
                    units += c.len_utf16();
                }
                expected[units] = Some(s.len());
                for (units, want) in expected.iter().enumerate() {
                    assert_eq!(utf16_offset(&s, units), *want, "{s:?} at {units}");
                }
                // The same positions counted back from the end.
                let total = s.encode_utf16().count();
                for back in 0..total + 2 {
                    let want = total.checked_sub(back).and_then(|units| expected[units]);
                    assert_eq!(
                        utf16_offset_back(&s, back),
                        want,
                        "{s:?} at {back} from the end"
                    );
                }
            }
        }
    }

    #[test]
    fn code_points_are_counted_eight_bytes_at_a_time_as_chars() {
        // WebAssembly's count, natively: every length to 40 bytes, with
        // characters of one to four bytes at every position.
        for c in ['a', 'é', '記', '😀'] {
            for len in 0..40 {
                for at in 0..len {
                    let s: String = (0..len).map(|k| if k == at { c } else { 'x' }).collect();
                    assert_eq!(starts_and_fours(&s, false).0, s.chars().count(), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn a_replacement_character_is_found_wherever_it_is() {
        // At every position of texts longer than a chunk, beside other
        // characters led by 0xEF (U+F000, U+FFFC) and other bytes.
        for filler in ["a", "é", "\u{f000}", "\u{fffc}", "😀"] {
            for len in 0..20 {
                let plain = filler.repeat(len);
                assert_eq!(
                    contains_replacement(&plain),
                    plain.contains('\u{FFFD}'),
                    "{plain:?}"
                );
                for at in 0..=len {
                    let mut text = filler.repeat(at);
                    text.push('\u{FFFD}');
                    text.push_str(&filler.repeat(len - at));
                    assert!(contains_replacement(&text), "{text:?}");
                }
            }
        }
        assert!(!contains_replacement(""));
        assert!(!contains_replacement("\u{ffef}\u{fbfd}"));
    }
}
