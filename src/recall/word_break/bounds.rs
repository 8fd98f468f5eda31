//! The segments between a text's word boundaries, first to last.

use super::{class_of, Class};

/// The segments of a text between its word boundaries (UAX #29 as the
/// `unicode-segmentation` crate applies it): every character is in one,
/// and joined they are the text.
pub(crate) struct Bounds<'a> {
    rest: &'a str,
}

impl<'a> Bounds<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Self { rest: text }
    }
}

impl<'a> Iterator for Bounds<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        let (segment, rest) = self.rest.split_at(first_segment(self.rest));
        self.rest = rest;
        Some(segment)
    }
}

/// What the characters so far of a segment allow next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Start,
    Letter,
    Hebrew,
    Numeric,
    Katakana,
    ExtendNumLet,
    /// One regional indicator: a second makes a flag.
    HalfFlag,
    Flag,
    /// The segment started with a zero width joiner.
    Zwj,
    /// A joiner and an `Extended_Pictographic` character (`WB3c`).
    Emoji,
    Space,
    /// A first character that takes the Extend, Format and joiner
    /// characters after it (WB4), and nothing else.
    Extended,
    /// A Hebrew letter and a single quote (`WB7a`): a letter may follow.
    HebrewQuote,
    /// A letter and a `MidLetter`, `MidNumLet` or single quote, at `.0`
    /// (WB6): without a letter next, the segment ends before it.
    LetterMid(usize),
    /// A Hebrew letter and a double quote at `.0` (`WB7b`): the same with
    /// a Hebrew letter.
    HebrewMid(usize),
    /// A number and a `MidNum`, `MidNumLet` or single quote at `.0` (WB12).
    NumericMid(usize),
}

/// The length in bytes of the first segment of `text` (not empty).
fn first_segment(text: &str) -> usize {
    use Class as C;
    use State as S;

    let mut state = S::Start;
    // Whether the last character, skipped or not, was a joiner (`WB3c` goes
    // before WB4).
    let mut after_zwj = false;
    // Whether a character was skipped by WB4 (`WB3d` goes before it).
    let mut skipped = false;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let (class, pictographic) = class_of(c);
        let joined = std::mem::replace(&mut after_zwj, class == C::Zwj);
        if state != S::Start && matches!(class, C::Extend | C::Zwj) {
            skipped = true;
            continue;
        }
        if joined && pictographic {
            state = S::Emoji;
            continue;
        }
        // A letter, a Hebrew letter or a number continues these (WB5, WB8 to
        // WB10, WB13b), and so does a connector (WB13a).
        let word = matches!(
            state,
            S::Start | S::Letter | S::Hebrew | S::Numeric | S::ExtendNumLet
        );
        state = match (state, class) {
            (S::Start, C::Cr) => {
                let lf = chars.peek().is_some_and(|&(_, next)| next == '\n');
                return at + 1 + usize::from(lf);
            }
            (S::Start, C::Newline) => return at + c.len_utf8(),
            (_, C::ALetter) if word || matches!(state, S::LetterMid(_) | S::HebrewQuote) => {
                S::Letter
            }
            (_, C::HebrewLetter)
                if word || matches!(state, S::LetterMid(_) | S::HebrewQuote | S::HebrewMid(_)) =>
            {
                S::Hebrew
            }
            (_, C::Numeric) if word || matches!(state, S::NumericMid(_)) => S::Numeric,
            (S::Start | S::Katakana | S::ExtendNumLet, C::Katakana) => S::Katakana,
            (_, C::ExtendNumLet) if word || state == S::Katakana => S::ExtendNumLet,
            (S::Start, C::RegionalIndicator) => S::HalfFlag,
            (S::HalfFlag, C::RegionalIndicator) => S::Flag,
            (S::Start, C::Zwj) => S::Zwj,
            (S::Start, C::WSegSpace) => S::Space,
            (S::Space, C::WSegSpace) if !skipped => S::Space,
            (S::Hebrew, C::DoubleQuote) => S::HebrewMid(at),
            (S::Hebrew, C::SingleQuote) => S::HebrewQuote,
            (S::Letter | S::Hebrew, C::MidLetter | C::MidNumLet | C::SingleQuote) => {
                S::LetterMid(at)
            }
            (S::Numeric, C::MidNum | C::MidNumLet | C::SingleQuote) => S::NumericMid(at),
            (S::Start, _) => {
                let extended = chars
                    .peek()
                    .is_some_and(|&(_, next)| matches!(class_of(next).0, C::Extend | C::Zwj));
                if !extended {
                    return at + c.len_utf8();
                }
                S::Extended
            }
            (S::LetterMid(mid) | S::HebrewMid(mid) | S::NumericMid(mid), _) => return mid,
            _ => return at,
        };
    }
    match state {
        S::LetterMid(mid) | S::HebrewMid(mid) | S::NumericMid(mid) => mid,
        _ => text.len(),
    }
}
