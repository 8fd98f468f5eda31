//! Line edits, so that the two sides of a merge are related to their base.

use libfuzzer_sys::arbitrary::{self, Arbitrary};

use crate::piece::Piece;

/// One edit of a list of lines.
#[derive(Arbitrary, Debug, Clone)]
pub enum Edit {
    Insert(u16, Piece),
    Delete(u16),
    Replace(u16, Piece),
}

/// `base` with at most `max` edits applied, joined with line feeds.
pub fn edited(base: &[String], edits: &[Edit], max: usize) -> String {
    let mut out = base.to_vec();
    for edit in edits.iter().take(max) {
        let at = |i: u16, len: usize| usize::from(i) % (len + 1);
        match edit {
            Edit::Insert(i, p) => {
                let i = at(*i, out.len());
                out.insert(i, p.line());
            }
            Edit::Delete(i) | Edit::Replace(i, _) if out.is_empty() => {
                let _ = i;
            }
            Edit::Delete(i) => {
                let i = usize::from(*i) % out.len();
                out.remove(i);
            }
            Edit::Replace(i, p) => {
                let i = usize::from(*i) % out.len();
                out[i] = p.line();
            }
        }
    }
    out.join("\n")
}
