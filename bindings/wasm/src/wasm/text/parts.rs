//! The parts a text out is joined from ([`Parts`]), which a kept string
//! keeps to answer a slice of it without copying it whole: made by
//! [`slices`](super::slices), kept by [`kept`](super::kept).

use js_sys::JsString;

/// Strings to join in order, each with the UTF-16 unit where it ends in the
/// join.
#[derive(Default)]
pub(super) struct Parts(pub(super) Vec<(u32, JsString)>);

/// The most parts a kept string keeps. A store that adds to its memory at
/// every save makes each record of one part more than the one before; past
/// this many, the next slice of it copies it once (it is one string then).
const MOST_PARTS: usize = 16;

impl Parts {
    /// Append `part`, of `units` UTF-16 units.
    pub(super) fn push(&mut self, part: JsString, units: u32) {
        let end = self.0.last().map_or(0, |(end, _)| *end) + units;
        self.0.push((end, part));
    }

    /// The parts joined; `None` when there are none.
    pub(super) fn joined(&self) -> Option<JsString> {
        self.0
            .iter()
            .map(|(_, part)| part.clone())
            .reduce(|all, next| all.concat(&next))
    }

    /// What a kept string keeps of the parts it was joined from: nothing
    /// when it is one part or too many.
    pub(super) fn kept(self) -> Self {
        if (2..=MOST_PARTS).contains(&self.0.len()) {
            self
        } else {
            Self::default()
        }
    }
}
