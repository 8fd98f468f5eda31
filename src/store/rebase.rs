//! A save whose base revision is not the current one: another save was
//! stored since the caller read the memory. With [`OnConflict::Reject`] the
//! outcome is a conflict and nothing is written. With [`OnConflict::Merge`]
//! the edit is merged three ways ([`merge`](crate::merge)): what the store
//! holds now is "ours" and the caller's edit is "theirs" (so where both add
//! to one place, the additions that were saved first come first), and the
//! revision the caller edited is the base. Only a clean merge is saved; a
//! conflicting one is reported, with its conflicts and the merged text with
//! conflict markers ([`MergeConflicts`]), and nothing is written. This is
//! the one place a store save merges: its callers read the outcome and
//! never merge again to learn what it found.

use std::sync::Arc;

use crate::Usage;

use super::host::{Host, Rewrite};
use super::record::HeadRecord;
use super::{
    MemoryRef, MemoryStore, MergeConflicts, OnConflict, SaveOutcome, StoreError, StoreSaveOptions,
    StoreStatus,
};

/// What a save whose base is not the current revision becomes.
pub(super) enum Rebase {
    /// A clean merge: save `content`; `note` tells the caller what was merged.
    Merged { content: String, note: String },
    /// Nothing is written: this is the outcome.
    Conflict(Box<SaveOutcome>),
}

impl<H: Host, R: Rewrite> MemoryStore<H, R> {
    /// Rebase `updated`, edited from `options.base_revision`, onto `head`.
    pub(super) async fn rebase(
        &self,
        r: &MemoryRef,
        head: Option<&(Arc<HeadRecord>, String)>,
        options: &StoreSaveOptions,
        updated: &str,
    ) -> Result<Rebase, StoreError<H::Error>> {
        let (note, merge) = match options.on_conflict {
            OnConflict::Reject => (None, None),
            OnConflict::Merge => match self.merge_onto(r, head, options, updated).await? {
                Merge::Clean { content, note } => return Ok(Rebase::Merged { content, note }),
                Merge::Conflicts(merge) => (Some(conflict_note(&merge)), Some(merge)),
                Merge::Impossible(note) => (Some(note), None),
            },
        };
        let mut outcome = self.conflict(head.map(|(h, _)| &**h), options, note);
        outcome.merge = merge;
        Ok(Rebase::Conflict(Box::new(outcome)))
    }

    /// The three-way merge of `updated` with `head`.
    async fn merge_onto(
        &self,
        r: &MemoryRef,
        head: Option<&(Arc<HeadRecord>, String)>,
        options: &StoreSaveOptions,
        updated: &str,
    ) -> Result<Merge, StoreError<H::Error>> {
        let base_revision = options.base_revision;
        let Some((head, _)) = head else {
            return Ok(Merge::Impossible(format!(
                "Cannot merge: base revision {base_revision} does not exist; the memory is empty."
            )));
        };
        let base = if base_revision == 0 {
            String::new()
        } else if base_revision > head.revision {
            return Ok(Merge::Impossible(format!(
                "Cannot merge: base revision {base_revision} does not exist; the current revision is {}.",
                head.revision
            )));
        } else {
            match self.content_of(r, head, base_revision).await? {
                Some(base) => base,
                None => {
                    return Ok(Merge::Impossible(format!(
                        "Cannot merge: base revision {base_revision} is older than the kept history (oldest {}).",
                        head.oldest_kept()
                    )))
                }
            }
        };
        Ok(three_way(base, head, base_revision, updated))
    }

    /// The outcome of a save that wrote nothing because the memory is at
    /// another revision than its base: the current content and revision,
    /// and why (`note`, when there is more to say than the revisions).
    pub(super) fn conflict(
        &self,
        head: Option<&HeadRecord>,
        options: &StoreSaveOptions,
        note: Option<String>,
    ) -> SaveOutcome {
        let (content, revision) =
            head.map_or((String::new(), 0), |h| (h.content.clone(), h.revision));
        let mut notice = format!(
            "The memory is at revision {revision}, not at base revision {}: nothing was written. \
             Edit the current content and save it with baseRevision {revision}.",
            options.base_revision
        );
        if let Some(note) = note {
            notice = format!("{note} {notice}");
        }
        SaveOutcome {
            status: StoreStatus::Conflict,
            usage: Usage::of_canonical(&content, self.options.limits),
            content,
            changed: false,
            diagnostics: Vec::new(),
            dropped: Vec::new(),
            revision,
            notice: Some(notice),
            source: String::new(),
            merge: None,
        }
    }
}

/// What merging a stale edit gives.
enum Merge {
    /// Save `content`; `note` tells the caller what was merged.
    Clean { content: String, note: String },
    /// The edits overlap: nothing is written.
    Conflicts(MergeConflicts),
    /// The base revision cannot be read: `note` says why.
    Impossible(String),
}

/// Merge `updated` (edited from `base`, the content of `base_revision`)
/// with `head` (what the store holds now, also descended from `base`).
fn three_way(base: String, head: &HeadRecord, base_revision: u64, updated: &str) -> Merge {
    let labels = [
        format!("stored (revision {})", head.revision),
        format!("your edit (from revision {base_revision})"),
    ];
    let (merged, marked) =
        crate::merge_marked(&base, &head.content, updated, [&labels[0], &labels[1]]);
    match marked {
        None => {
            let note = match merged.dropped.len() {
                0 => "Merged this edit with the changes saved since its base revision.".to_owned(),
                n => format!(
                    "Merged this edit with the changes saved since its base revision; \
                     {n} line(s) before the first heading were not kept."
                ),
            };
            Merge::Clean {
                content: merged.content,
                note,
            }
        }
        Some(marked) => Merge::Conflicts(MergeConflicts {
            base,
            theirs: updated.to_owned(),
            conflicts: merged.conflicts,
            merged: marked,
        }),
    }
}

/// Where the edit and the stored changes overlap.
fn conflict_note(merge: &MergeConflicts) -> String {
    let mut sections: Vec<&str> = merge.conflicts.iter().map(|c| c.section.as_str()).collect();
    sections.dedup();
    format!(
        "The edit and the changes saved since its base revision conflict in {} place(s) (sections: {}); nothing was merged.",
        merge.conflicts.len(),
        sections
            .iter()
            .map(|s| format!("`## {s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}
