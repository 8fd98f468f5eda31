//! Generated documents through `compact` with any target, scope and date:
//! the laws of tests/common/compact_laws.rs hold (kept plus removed entries
//! are the input's, raw lines stay, canonical, measured, idempotent).
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use memdoc::{CompactOptions, Scope};

#[path = "../../tests/common/compact_laws.rs"]
mod compact_laws;
mod piece;

use piece::{lines, Piece};

#[derive(Arbitrary, Debug)]
struct Input {
    text: Vec<Piece>,
    target: u16,
    team: bool,
    today: Option<u8>,
}

fuzz_target!(|input: Input| {
    let text = lines(&input.text, 96).join("\n");
    let options = CompactOptions {
        scope: if input.team { Scope::Team } else { Scope::User },
        target: usize::from(input.target) % 600,
        today: input
            .today
            .map(|d| ["2025-01-02", "2024-12-31", "2025-02-30"][usize::from(d) % 3].to_owned()),
    };
    if let Err(broken) = compact_laws::check_compact(&text, &options) {
        panic!("{broken}\ntext: {text:?}\noptions: {options:?}");
    }
});
