//! Deterministic compaction (docs/ops.md): shrink a memory document that is
//! over budget without an LLM, by steps that lose the least first, stopping
//! as soon as the canonical form fits the target.
//!
//! 1. Merge sections whose titles normalize the same into the first of them
//!    (`join`).
//! 2. Remove duplicate entries of a section (same text up to white space and
//!    case), keeping the newest (`removal`).
//! 3. Remove the oldest entries, lowest-priority sections first (`removal`,
//!    by the classes of `priority`).
//!
//! Raw lines and headings are never removed. Everything a step does is
//! reported (merged sections, each removed entry with its section and its
//! location in the input), so that a caller can archive it: nothing is lost
//! silently. Each step is a fixed list of operations that only ever shrink
//! the document, and the smallest prefix that fits is found in one pass by
//! counting each operation's effect on the size (`measure`, and the joins of
//! `join`): the work stays linear even on very large documents.

mod join;
mod measure;
mod options;
mod priority;
mod removal;
mod result;

use std::borrow::Cow;

use crate::document::{Document, RawLine};
use crate::fast::char_count;
use crate::parse::parse;

use join::merge_step;
use removal::Removal;

pub use options::CompactOptions;
pub use priority::{section_priority, Priority};
pub use result::{Compaction, MergedSection, RemovalReason, RemovedEntry};

/// Compact `text` to at most `options.target` code points of canonical form.
///
/// When the canonical form already fits, it is returned unchanged and nothing
/// is removed (so compaction is idempotent). Otherwise the steps of this
/// module run in order, each only as far as needed. Removal order in step 3:
/// priority class (lowest first), then date (oldest first; with `today`, a
/// date after it counts as `today`, so a mistyped future date cannot make an
/// entry outlive everything), then document order. When even removing every
/// entry is not enough, `fits` is `false` and `content` is what remains.
///
/// ```
/// use memdoc::{compact, CompactOptions, Scope};
/// let text = "## Open Questions\n- 2025-01-01: Which CI?\n\n## Decisions\n- 2025-01-02: Use Rust";
/// let options = CompactOptions { scope: Scope::Team, target: 60, today: None };
/// let result = compact(text, &options);
/// assert!(result.fits);
/// assert_eq!(result.content, "## Open Questions\n\n## Decisions\n- 2025-01-02: Use Rust");
/// assert_eq!(result.removed[0].text, "Which CI?");
/// ```
#[must_use]
pub fn compact(text: &str, options: &CompactOptions) -> Compaction {
    let input = parse(text);
    let before = size(&input);
    let mut result = Compaction {
        content: String::new(),
        fits: false,
        target: options.target,
        before,
        after: before,
        merged: Vec::new(),
        removed: Vec::new(),
        dropped: input
            .preamble
            .iter()
            .cloned()
            .map(RawLine::into_owned)
            .collect(),
    };
    // The document so far and its size, which each step counts as it goes.
    let mut doc = Cow::Borrowed(&input);
    let mut now = before;
    if now > options.target {
        if let Some((joined, size)) = merge_step(&input, now, options.target, &mut result.merged) {
            (doc, now) = (Cow::Owned(joined), size);
        }
    }
    if now > options.target {
        let mut removal = Removal::new(&input, options, &mut result.removed);
        if let Some((out, size)) = removal.duplicates(&doc) {
            (doc, now) = (Cow::Owned(out), size);
        }
        if now > options.target {
            if let Some((out, size)) = removal.oldest(&doc) {
                (doc, now) = (Cow::Owned(out), size);
            }
        }
    }
    result.content = doc.render();
    result.after = char_count(&result.content);
    debug_assert_eq!(result.after, now, "the steps' count of the size");
    result.fits = result.after <= options.target;
    result
}

/// The size of a document's canonical form, in code points.
pub(super) fn size(doc: &Document) -> usize {
    char_count(&doc.render())
}
