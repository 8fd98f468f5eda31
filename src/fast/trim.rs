//! White space trimmed exactly as `str::trim`, `trim_start` and `trim_end`
//! trim it (`char::is_whitespace`), after a look at one byte: most lines of
//! a memory start and end with a character that is not white space, and
//! the standard library's trims, not inlined in the module, decode a
//! character from each end at every call (the parser trims each line up to
//! four times). Used at the parser's per-line trims only, and inlined
//! there: a call costs more than the look saves (BENCHMARKS.md).

/// Whether a line may start (or end) with white space at `b`, its first
/// (or last) byte: ASCII white space as `char::is_whitespace` has it (tab,
/// LF, vertical tab, form feed, CR, space), or a byte of a character that
/// is not ASCII (U+0085, U+00A0, U+2000… are white space too), which the
/// standard library decodes.
fn may_be_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ') || !b.is_ascii()
}

/// `s.trim_start()`.
pub(crate) fn trim_start(s: &str) -> &str {
    match s.as_bytes().first() {
        Some(&b) if may_be_space(b) => s.trim_start(),
        _ => s,
    }
}

/// `s.trim_end()`.
pub(crate) fn trim_end(s: &str) -> &str {
    match s.as_bytes().last() {
        Some(&b) if may_be_space(b) => s.trim_end(),
        _ => s,
    }
}

/// `s.trim()`.
pub(crate) fn trim(s: &str) -> &str {
    trim_end(trim_start(s))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::{trim, trim_end, trim_start};
    use proptest::prelude::*;

    /// Every character that is white space, and its neighbours.
    fn spaces() -> Vec<char> {
        (0..=0x3000u32)
            .filter_map(char::from_u32)
            .filter(|c| c.is_whitespace())
            .chain(['a', 'é', '😀', '\u{FEFF}', '\u{200B}', '\0', '\u{1F}'])
            .collect()
    }

    #[test]
    fn every_white_space_character_at_either_end() {
        for &c in &spaces() {
            for &d in &spaces() {
                for s in [
                    format!("{c}"),
                    format!("{c}x{d}"),
                    format!("{c}{d}"),
                    format!("x{c} {d}"),
                    format!("{c}{d}x"),
                ] {
                    assert_eq!(trim_start(&s), s.trim_start(), "{s:?}");
                    assert_eq!(trim_end(&s), s.trim_end(), "{s:?}");
                    assert_eq!(trim(&s), s.trim(), "{s:?}");
                }
            }
        }
        assert_eq!(trim(""), "");
    }

    proptest! {
        #[test]
        fn as_the_standard_library_trims(s in "[ \\t\\n\\r\\u{0B}\\u{0C}\\u{85}\\u{A0}\\u{3000}ax-é😀]{0,12}") {
            prop_assert_eq!(trim_start(&s), s.trim_start());
            prop_assert_eq!(trim_end(&s), s.trim_end());
            prop_assert_eq!(trim(&s), s.trim());
        }

        #[test]
        fn any_text(s in any::<String>()) {
            prop_assert_eq!(trim(&s), s.trim());
        }
    }
}
