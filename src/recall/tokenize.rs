//! The words of an item or a query, as recall compares them: Unicode word
//! segmentation (UAX #29), then the NFKC folding that headings use and
//! lower-casing, so `Ｐｏｓｔｇｒｅｓ`, `POSTGRES` and `postgres` are one word.
//! Stemming and identifiers are [`super::terms`]'. Segments without a letter or digit (punctuation,
//! emoji) are not words.

use super::word_break::Bounds;
#[cfg(test)]
use crate::fast::to_nfkc_lowercase;

/// The folded words of `text`, in order, repeats kept.
#[cfg(test)]
pub(crate) fn words(text: &str) -> Vec<String> {
    words_of_folded(&to_nfkc_lowercase(text))
        .map(str::to_owned)
        .collect()
}

/// The words of a text that [`to_nfkc_lowercase`] already folded, borrowed from
/// it: [`words`] without a string per word, for the many items of a memory.
pub(crate) fn words_of_folded(folded: &str) -> Words<'_> {
    Words {
        rest: folded,
        chunk: Chunk::Done,
    }
}

/// The words of a text, a stretch between spaces at a time
/// ([`split_at_safe_spaces`]): a stretch of ASCII by the segmentation's
/// rules as they apply to ASCII ([`AsciiWords`]), any other by the
/// segmentation itself ([`Bounds`]), whose table lookup per character was a
/// third of recall's time. Each stretch's words are the ones the whole text
/// has there (tests compare the two).
pub(crate) struct Words<'a> {
    rest: &'a str,
    chunk: Chunk<'a>,
}

enum Chunk<'a> {
    Ascii(AsciiWords<'a>),
    Unicode(std::iter::Filter<Bounds<'a>, fn(&&str) -> bool>),
    Done,
}

fn has_alphanumeric(word: &&str) -> bool {
    word.chars().any(char::is_alphanumeric)
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        loop {
            let word = match &mut self.chunk {
                Chunk::Ascii(words) => words.next(),
                Chunk::Unicode(words) => words.next(),
                Chunk::Done => None,
            };
            if word.is_some() {
                return word;
            }
            if self.rest.is_empty() {
                return None;
            }
            let (stretch, rest) = split_at_safe_spaces(self.rest);
            self.rest = rest;
            self.chunk = if stretch.is_ascii() {
                Chunk::Ascii(AsciiWords {
                    text: stretch,
                    at: 0,
                })
            } else {
                Chunk::Unicode(Bounds::new(stretch).filter(has_alphanumeric))
            };
        }
    }
}

/// `text` up to its first run of spaces between two ASCII characters (or
/// the text's start or end), and what follows that run. Nothing joins an
/// ASCII character to a space after it or a space to an ASCII character
/// after it, so the segmentation breaks on both sides of such a run.
/// Around other characters it may not: a space before a combining mark
/// joins it (`WB4`), and spaces join other spaces such as U+3000 (`WB3d`).
fn split_at_safe_spaces(text: &str) -> (&str, &str) {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = bytes[from..].iter().position(|&b| b == b' ') {
        let start = from + at;
        let end = bytes[start..]
            .iter()
            .position(|&b| b != b' ')
            .map_or(bytes.len(), |n| start + n);
        let ascii_before = start == 0 || bytes[start - 1].is_ascii();
        let ascii_after = bytes.get(end).map_or(true, u8::is_ascii);
        if ascii_before && ascii_after {
            return (&text[..start], &text[end..]);
        }
        from = end;
    }
    (text, "")
}

/// UAX #29's words of an ASCII text, as `unicode_words` finds them. In
/// ASCII, letters, digits and `_` (`ExtendNumLet`) always join one another
/// (`WB5`, `WB8`–`WB10`, `WB13a`, `WB13b`); a `:` (`MidLetter`), `.`
/// (`MidNumLet`) or `'` (`Single_Quote`) between two letters joins them
/// (`WB6`, `WB7`); a `,` or `;` (`MidNum`), `.` or `'` between two digits
/// joins them (`WB11`, `WB12`). Every other character is a segment of its
/// own or part of a run of spaces, neither of which is a word.
pub(crate) struct AsciiWords<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for AsciiWords<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let joins = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        loop {
            let start = self.at + bytes.get(self.at..)?.iter().position(|&b| joins(b))?;
            let mut end = start + 1;
            loop {
                match (bytes[end - 1], bytes.get(end), bytes.get(end + 1)) {
                    (_, Some(&b), _) if joins(b) => end += 1,
                    (before, Some(b':' | b'.' | b'\''), Some(after))
                        if before.is_ascii_alphabetic() && after.is_ascii_alphabetic() =>
                    {
                        end += 2;
                    }
                    (before, Some(b',' | b';' | b'.' | b'\''), Some(after))
                        if before.is_ascii_digit() && after.is_ascii_digit() =>
                    {
                        end += 2;
                    }
                    _ => break,
                }
            }
            self.at = end;
            let word = &self.text[start..end];
            // A run of `_` alone is no word.
            if word.bytes().any(|b| b.is_ascii_alphanumeric()) {
                return Some(word);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use unicode_segmentation::UnicodeSegmentation;

    use super::super::word_break::every_text;
    use super::words;

    #[test]
    fn segments_folds_and_lowercases() {
        assert_eq!(
            words("We moved to Postgres (v16), not MySQL!"),
            ["we", "moved", "to", "postgres", "v16", "not", "mysql"]
        );
        assert_eq!(words("Ｐｏｓｔｇｒｅｓ 🐘 — ok"), ["postgres", "ok"]);
        assert_eq!(words("Zürich's café"), ["zürich's", "café"]);
        assert_eq!(words(""), Vec::<String>::new());
    }

    /// These words against the segmentation's own, for a text.
    fn same_words(text: &str) {
        let ours: Vec<&str> = super::words_of_folded(text).collect();
        let theirs: Vec<&str> = text
            .unicode_words()
            .filter(|w| w.chars().any(char::is_alphanumeric))
            .collect();
        assert_eq!(ours, theirs, "{text:?}");
    }

    /// Letters, digits, `_`, every character a rule names, and others.
    const ALPHABET: &[u8] = b"aZ09_:.',; \"\n\r\t-!";

    /// Every text of up to `longest` of `chars`, compared.
    fn same_words_for_every_text(chars: &[char], longest: u32) {
        every_text(chars, longest, same_words);
    }

    #[test]
    fn ascii_words_are_the_segmentations_words_for_every_short_text() {
        let chars: Vec<char> = ALPHABET.iter().map(|&b| char::from(b)).collect();
        same_words_for_every_text(&chars, 4);
    }

    /// Characters of other kinds the rules name: a letter with an accent,
    /// combining marks (Extend; U+1A71 is alphabetic), a zero-width joiner,
    /// an emoji, a Chinese character, a Katakana letter, Hebrew letters
    /// (which join over `"`), a full-width letter, a regional indicator,
    /// other spaces and a right single quotation mark (`MidNumLet`).
    const OTHERS: [char; 14] = [
        'é',
        '\u{301}',
        '\u{1a71}',
        '\u{200d}',
        '😀',
        '日',
        'カ',
        'א',
        'ב',
        'Ｐ',
        '\u{1f1eb}',
        '\u{a0}',
        '\u{3000}',
        '\u{2019}',
    ];

    #[test]
    fn a_combining_mark_after_spaces_is_a_word_with_them() {
        // U+1A71 is an alphabetic combining mark: the segmentation makes
        // the spaces before it and it one segment.
        same_words("a. \u{1a71}b");
        same_words("x  \u{1a71} y");
        same_words("x\u{3000} \u{1a71}");
        same_words("\u{3000}  \u{1a71}");
        assert_eq!(
            super::words_of_folded(" \u{1a71}").collect::<Vec<_>>(),
            [" \u{1a71}"]
        );
    }

    #[test]
    fn words_are_the_segmentations_words_for_every_short_mixed_text() {
        let chars: Vec<char> = ALPHABET
            .iter()
            .map(|&b| char::from(b))
            .chain(OTHERS)
            .collect();
        same_words_for_every_text(&chars, 3);
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn ascii_words_are_the_segmentations_words(
            picks in proptest::collection::vec(0..ALPHABET.len(), 0..60),
        ) {
            let text: String = picks.iter().map(|&i| char::from(ALPHABET[i])).collect();
            same_words(&text);
        }

        #[test]
        fn words_are_the_segmentations_words_for_mixed_texts(
            picks in proptest::collection::vec(0..ALPHABET.len() + OTHERS.len(), 0..60),
        ) {
            let text: String = picks
                .iter()
                .map(|&i| ALPHABET.get(i).map_or_else(|| OTHERS[i - ALPHABET.len()], |&b| char::from(b)))
                .collect();
            same_words(&text);
        }

        #[test]
        fn ascii_words_are_the_segmentations_words_for_any_ascii(text in "[\\x00-\\x7f]{0,60}") {
            same_words(&text);
        }

        #[test]
        fn words_are_the_segmentations_words_for_any_text(text in "\\PC{0,40}") {
            same_words(&text);
        }
    }
}
