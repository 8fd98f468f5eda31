//! Three related inputs (a base and two edits of it) through `merge`: the
//! laws of tests/common/merge_laws.rs hold (canonical, conflict spans in
//! their inputs, a clean result keeps every section and entry of both sides,
//! the identities), and the JavaScript view converts.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use memdoc_wasm::js::merge::MergeResultView;
use memdoc::merge;

mod edit;
#[path = "../../tests/common/merge_laws.rs"]
mod merge_laws;
mod piece;

use edit::{edited, Edit};
use piece::{lines, Piece};

#[derive(Arbitrary, Debug)]
struct Input {
    base: Vec<Piece>,
    ours: Vec<Edit>,
    theirs: Vec<Edit>,
}

fuzz_target!(|input: Input| {
    let base = lines(&input.base, 64);
    let ours = edited(&base, &input.ours, 16);
    let theirs = edited(&base, &input.theirs, 16);
    let base = base.join("\n");
    let m = merge(&base, &ours, &theirs);
    if let Err(broken) = merge_laws::check_merge(&base, &ours, &theirs, &m) {
        panic!(
            "{broken}\nbase: {base:?}\nours: {ours:?}\ntheirs: {theirs:?}\nresult: {:?}",
            m.content
        );
    }
    if let Err(broken) = merge_laws::check_identities(&base, &ours) {
        panic!("{broken}\nbase: {base:?}\nx: {ours:?}");
    }
    let view = MergeResultView::new(&m, &base, &ours, &theirs);
    assert_eq!(view.conflicts.len(), m.conflicts.len());
});
