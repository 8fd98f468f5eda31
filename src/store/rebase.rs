//! A save whose base revision is not the current one: another save was
//! stored since the caller read the memory. With [`OnConflict::Reject`] the
//! outcome is a conflict and nothing is written. With [`OnConflict::Merge`]
//! the edit is merged three ways ([`merge`](crate::merge)): what the store
//! holds now is "ours" and the caller's edit is "theirs" (so where both add
//! to one place, the additions that were saved first come first), and the
//! revision the caller edited is the base. Only a clean merge is saved; a
//! conflicting one is reported and nothing is written.

use std::sync::Arc;

use crate::Usage;

use super::host::{Host, Rewrite};
use super::record::HeadRecord;
use super::{
    MemoryRef, MemoryStore, OnConflict, SaveOutcome, StoreError, StoreSaveOptions, StoreStatus,
};

/// What a save whose base is not the current revision becomes.
pub(super) enum Rebase {
    /// A clean merge: save `content`; `note` tells the caller what was merged.
    Merged { content: String, note: String },
    /// Nothing is written: this is the outcome.
    Conflict(SaveOutcome),
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
        let note = match options.on_conflict {
            OnConflict::Reject => None,
            OnConflict::Merge => match self.merge_onto(r, head, options, updated).await? {
                Ok((content, note)) => return Ok(Rebase::Merged { content, note }),
                Err(note) => Some(note),
            },
        };
        Ok(Rebase::Conflict(self.conflict(
            head.map(|(h, _)| &**h),
            options,
            note,
        )))
    }

    /// The three-way merge of `updated` with `head`:
    /// `Ok((content, note))` to save, `Err(note)` to report a conflict.
    async fn merge_onto(
        &self,
        r: &MemoryRef,
        head: Option<&(Arc<HeadRecord>, String)>,
        options: &StoreSaveOptions,
        updated: &str,
    ) -> Result<Result<(String, String), String>, StoreError<H::Error>> {
        let base_revision = options.base_revision;
        let Some((head, _)) = head else {
            return Ok(Err(format!(
                "Cannot merge: base revision {base_revision} does not exist; the memory is empty."
            )));
        };
        let base = if base_revision == 0 {
            String::new()
        } else if base_revision > head.revision {
            return Ok(Err(format!(
                "Cannot merge: base revision {base_revision} does not exist; the current revision is {}.",
                head.revision
            )));
        } else {
            match self.content_of(r, head, base_revision).await? {
                Some(base) => base,
                None => {
                    return Ok(Err(format!(
                        "Cannot merge: base revision {base_revision} is older than the kept history (oldest {}).",
                        head.oldest_kept()
                    )))
                }
            }
        };
        Ok(three_way(&base, &head.content, updated))
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
        }
    }
}

/// Merge `updated` (edited from `base`) with `current` (what the store holds
/// now, also descended from `base`): `Ok((content, note))` when the merge is
/// clean, `Err(note)` saying where the edits overlap otherwise.
fn three_way(base: &str, current: &str, updated: &str) -> Result<(String, String), String> {
    let merged = crate::merge(base, current, updated);
    if merged.clean {
        let note = match merged.dropped.len() {
            0 => "Merged this edit with the changes saved since its base revision.".to_owned(),
            n => format!(
                "Merged this edit with the changes saved since its base revision; \
                 {n} line(s) before the first heading were not kept."
            ),
        };
        return Ok((merged.content, note));
    }
    let mut sections: Vec<&str> = merged
        .conflicts
        .iter()
        .map(|c| c.section.as_str())
        .collect();
    sections.dedup();
    Err(format!(
        "The edit and the changes saved since its base revision conflict in {} place(s) (sections: {}); nothing was merged.",
        merged.conflicts.len(),
        sections
            .iter()
            .map(|s| format!("`## {s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}
