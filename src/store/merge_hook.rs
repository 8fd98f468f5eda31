//! The one place where a save with `onConflict: "merge"` meets the three-way
//! merge of `src/merge.rs`: what the store holds now is "ours" and the
//! caller's edit is "theirs" (so where both add to one place, the additions
//! that were saved first come first), and the revision the caller edited is
//! the base. Only a
//! clean merge is saved; a conflicting one is reported and nothing is written.

/// What the merge made of a conflicting save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MergeResult {
    /// A clean merge: store `content`; `note` tells the caller what was merged.
    Clean { content: String, note: String },
    /// The edits overlap; `note` says where.
    Conflicted { note: String },
}

/// Merge `updated` (edited from `base`) with `current` (what the store holds
/// now, also descended from `base`).
pub(crate) fn three_way(base: &str, current: &str, updated: &str) -> MergeResult {
    let merged = crate::merge(base, current, updated);
    if merged.clean {
        let note = match merged.dropped.len() {
            0 => "Merged this edit with the changes saved since its base revision.".to_owned(),
            n => format!(
                "Merged this edit with the changes saved since its base revision; \
                 {n} line(s) before the first heading were not kept."
            ),
        };
        return MergeResult::Clean {
            content: merged.content,
            note,
        };
    }
    let mut sections: Vec<&str> = merged
        .conflicts
        .iter()
        .map(|c| c.section.as_str())
        .collect();
    sections.dedup();
    MergeResult::Conflicted {
        note: format!(
            "The edit and the changes saved since its base revision conflict in {} place(s) (sections: {}); nothing was merged.",
            merged.conflicts.len(),
            sections
                .iter()
                .map(|s| format!("`## {s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
