//! The text and section titles of the `recall` and `expire` targets: free
//! bytes or generated lines, and titles that match the generated headings
//! after normalization, or not, or free text.

use libfuzzer_sys::arbitrary::{self, Arbitrary};

use crate::piece::{lines, Piece};

const TITLES: &[&str] = &[
    "Decisions",
    "facts",
    "NOTES",
    "Memory",
    "🎯",
    "",
    "Ｆａｃｔｓ",
    "decisions ",
];

/// A memory document.
#[derive(Arbitrary, Debug)]
pub enum Text {
    Free(String),
    Lines(Vec<Piece>),
}

impl Text {
    /// The text (at most 96 generated lines).
    pub fn text(&self) -> String {
        match self {
            Self::Free(s) => s.clone(),
            Self::Lines(p) => lines(p, 96).join("\n"),
        }
    }
}

/// A section title.
#[derive(Arbitrary, Debug)]
pub enum Title {
    Known(u8),
    Free(String),
}

impl Title {
    /// The title.
    pub fn title(&self) -> String {
        match self {
            Self::Known(i) => TITLES[usize::from(*i) % TITLES.len()].to_owned(),
            Self::Free(s) => s.clone(),
        }
    }
}
