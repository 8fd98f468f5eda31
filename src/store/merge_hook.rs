//! The one place where a save with `onConflict: "merge"` meets the
//! three-way merge. The merge itself (`src/merge.rs`) is not part of this
//! build yet; until it lands, [`three_way`] reports that it is unavailable
//! and the store answers `conflict`, exactly as with `onConflict: "reject"`,
//! with a notice saying why. Wiring the merge in changes only this file.

/// What the merge made of a conflicting save.
// `Clean` and `Conflicted` are what the merge returns once it is wired in.
#[allow(dead_code)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MergeResult {
    /// A clean merge: store `content`; `note` tells the caller what was merged.
    Clean { content: String, note: String },
    /// The edits overlap; `note` says where.
    Conflicted { note: String },
    /// This build has no merge.
    Unavailable,
}

/// Merge `updated` (edited from `base`) with `current` (what the store holds
/// now, also descended from `base`).
pub(crate) fn three_way(base: &str, current: &str, updated: &str) -> MergeResult {
    let _ = (base, current, updated);
    MergeResult::Unavailable
}
