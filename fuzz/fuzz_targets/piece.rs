//! The lines the structured fuzz targets build documents from: headings,
//! entries, code fences (the ones that hide headings and entries, and some
//! that do not quite open one), notes and free text, so that a few bytes of
//! fuzzer input reach the interesting cases.

use libfuzzer_sys::arbitrary::{self, Arbitrary};

const HEADINGS: &[&str] = &[
    "## Decisions",
    "## Facts",
    "## decisions",
    "## Notes",
    "## Memory",
    "## 🎯",
    "##NoSpace",
    "  ## Indented",
];
const DATES: &[&str] = &["2025-01-01", "2025-01-02", "2024-02-29", "2025-02-30"];
const TEXTS: &[&str] = &["a", "b", "A", "b  ", "long entry text", "`code`", "é 😀"];
const FENCES: &[&str] = &[
    "```", "~~~", "````", "```sh", "  ```", "~~~~ x", "``", "\t```",
];
const NOTES: &[&str] = &[
    "note",
    "- not an entry",
    "  indented",
    "<team_memory>",
    "- (2024-11-02) [fact] legacy",
    "NO_UPDATE",
    "\r",
];

/// One line of a generated document.
#[derive(Arbitrary, Debug, Clone)]
pub enum Piece {
    Heading(u8),
    Entry(u8, u8),
    Fence(u8),
    Blank,
    Note(u8),
    Text(String),
}

fn pick(list: &[&'static str], i: u8) -> &'static str {
    list[usize::from(i) % list.len()]
}

impl Piece {
    /// The line.
    pub fn line(&self) -> String {
        match self {
            Self::Heading(i) => pick(HEADINGS, *i).to_owned(),
            Self::Entry(d, t) => format!("- {}: {}", pick(DATES, *d), pick(TEXTS, *t)),
            Self::Fence(i) => pick(FENCES, *i).to_owned(),
            Self::Blank => String::new(),
            Self::Note(i) => pick(NOTES, *i).to_owned(),
            Self::Text(s) => s.clone(),
        }
    }
}

/// The lines of at most `max` pieces.
pub fn lines(pieces: &[Piece], max: usize) -> Vec<String> {
    pieces.iter().take(max).map(Piece::line).collect()
}
