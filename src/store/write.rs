//! The write side of [`MemoryStore`]: `save` and `revert`. A save reads the
//! head, rebases a stale edit (or reports the conflict), plans the document
//! (over the hard limit, see `over_limit`), writes the new revision's
//! snapshot under a key derived from its bytes, replaces the head only if
//! its version is still the one it read, and only then deletes the
//! snapshots that fell out of the kept history.

use std::sync::Arc;

use super::clock;
use super::host::{DeleteOutcome, Host, PutOutcome, Rewrite};
use super::key::{content_tag, head_key, snapshot_key};
use super::rebase::Rebase;
use super::record::{ArchivedEntry, HeadRecord, SnapshotRecord, RECORD_FORMAT};
use super::{MemoryRef, MemoryStore, OnConflict, SaveOutcome, StoreError, StoreSaveOptions};
use crate::{SavePlan, SaveStatus};

/// How many times a `merge` save tries to write: a clean merge whose write
/// loses the race to another save is merged again onto that save, up to
/// this many attempts in all, before the outcome is `conflict`.
pub const MERGE_ATTEMPTS: u32 = 6;

/// A revision to write: its content and what its audit entry records.
pub(super) struct NewRevision {
    /// The canonical content.
    pub content: String,
    /// Who wrote it.
    pub actor: Option<String>,
    /// The diagnostic codes of the save.
    pub codes: Vec<String>,
    /// Entries removed on the way (compaction, expiry).
    pub archived: Vec<ArchivedEntry>,
}

/// A revision [`MemoryStore::write_next`] wrote.
pub(super) struct Written {
    /// Its number.
    pub revision: u64,
    /// Its content.
    pub content: String,
    /// Old snapshots that could not be deleted (they stay unread).
    pub failed_deletes: usize,
}

/// How many differently salted keys a snapshot may try before giving up.
/// Only a hash collision with different data moves past the first.
const SNAPSHOT_KEY_ATTEMPTS: u32 = 4;

impl<H: Host, R: Rewrite> MemoryStore<H, R> {
    /// Save `updated` over the stored memory.
    ///
    /// The save is planned against the current content. When
    /// `options.base_revision` is not the current revision the outcome is
    /// `conflict` and nothing is written (with
    /// [`OnConflict::Merge`](super::OnConflict::Merge), a clean three-way
    /// merge is saved instead; a conflicting one is reported with its
    /// conflicts and the merged text with markers, in
    /// [`SaveOutcome::merge`]). A document over the hard limit goes to the
    /// rewrite callback, when there is one. If another writer replaced the
    /// head between this save's read and write, the outcome is `conflict`
    /// with what that writer stored; with `OnConflict::Merge` the edit is
    /// first merged again onto that writer's revision (up to
    /// [`MERGE_ATTEMPTS`] writes in all).
    ///
    /// # Errors
    /// `store/invalid-actor`; `store/host-failed` for any failed host call
    /// (the memory stays consistent: at worst an unused snapshot key
    /// remains); `store/corrupt-record`, `store/unsupported-format`.
    pub async fn save(
        &self,
        r: &MemoryRef,
        updated: &str,
        options: &StoreSaveOptions,
    ) -> Result<SaveOutcome, StoreError<H::Error>> {
        options.check()?;
        let head = self.read_head(r).await?;
        self.save_over(r, updated, options, head).await
    }

    /// Save the content of an old `revision` as a new revision (itself
    /// revertible), with the same checks as any save.
    ///
    /// # Errors
    /// `store/invalid-revision` for 0 or a revision the memory never had;
    /// `store/revision-unavailable` for one older than the kept history;
    /// otherwise as for [`MemoryStore::save`].
    pub async fn revert(
        &self,
        r: &MemoryRef,
        revision: u64,
        options: &StoreSaveOptions,
    ) -> Result<SaveOutcome, StoreError<H::Error>> {
        options.check()?;
        let head = self.read_head(r).await?;
        let current = head.as_ref().map_or(0, |(h, _)| h.revision);
        if revision == 0 || revision > current {
            return Err(StoreError::InvalidRevision(format!(
                "revision {revision} does not exist; the current revision is {current}"
            )));
        }
        let Some((h, _)) = &head else {
            return Err(StoreError::InvalidRevision(
                "the memory has no revisions".to_owned(),
            ));
        };
        let content =
            self.content_of(r, h, revision)
                .await?
                .ok_or(StoreError::RevisionUnavailable {
                    revision,
                    oldest: h.oldest_kept(),
                })?;
        self.save_over(r, &content, options, head).await
    }

    /// Save `updated` over `head`; with `OnConflict::Merge`, a write that
    /// loses the race is merged again onto the revision that won it.
    async fn save_over(
        &self,
        r: &MemoryRef,
        updated: &str,
        options: &StoreSaveOptions,
        mut head: Option<(Arc<HeadRecord>, String)>,
    ) -> Result<SaveOutcome, StoreError<H::Error>> {
        let attempts = match options.on_conflict {
            OnConflict::Merge => MERGE_ATTEMPTS,
            OnConflict::Reject => 1,
        };
        let mut attempt = 1;
        loop {
            let current_revision = head.as_ref().map_or(0, |(h, _)| h.revision);
            let rebased;
            let (updated, merge_note) = if options.base_revision == current_revision {
                (updated, None)
            } else {
                match self.rebase(r, head.as_ref(), options, updated).await? {
                    Rebase::Conflict(outcome) => return Ok(*outcome),
                    Rebase::Merged { content, note } => {
                        rebased = content;
                        (rebased.as_str(), Some(note))
                    }
                }
            };
            let current = head.as_ref().map_or("", |(h, _)| h.content.as_str());
            let planned = self.plan(r, updated, current, options.allow_erase).await;
            let notice = join_notices(merge_note, planned.notice);
            let plan = planned.plan;
            if plan.status != SaveStatus::Saved || !plan.changed {
                return Ok(outcome(plan, current_revision, notice, planned.source));
            }
            let mut codes = planned.extra_codes;
            for d in &plan.diagnostics {
                let code = d.code.as_str().to_owned();
                if !codes.contains(&code) {
                    codes.push(code);
                }
            }
            let revision = NewRevision {
                content: plan.content.clone(),
                actor: options.actor.clone(),
                codes,
                archived: planned.archived,
            };
            let Some(written) = self.write_next(r, head, revision).await? else {
                // Someone else saved between our read and our write: merge
                // onto what they stored, or report it; never overwrite it.
                head = self.read_head(r).await?;
                if attempt == attempts {
                    return Ok(self.conflict(
                        head.as_ref().map(|(h, _)| &**h),
                        options,
                        Some(
                            "Another save was stored while this one was being written.".to_owned(),
                        ),
                    ));
                }
                attempt += 1;
                continue;
            };
            let notice = join_notices(notice, prune_notice(written.failed_deletes));
            return Ok(outcome(plan, written.revision, notice, planned.source));
        }
    }

    /// Write `revision` as the revision after `head` (the head record and
    /// the version it was read at; none for a new memory): store its
    /// snapshot, replace the head by compare-and-swap, then prune the
    /// snapshots that fell out of the kept history. `Some` when written,
    /// `None` when another writer replaced the head first (nothing is
    /// overwritten). The one write path of saves, reverts and sweeps.
    pub(super) async fn write_next(
        &self,
        r: &MemoryRef,
        head: Option<(Arc<HeadRecord>, String)>,
        revision: NewRevision,
    ) -> Result<Option<Written>, StoreError<H::Error>> {
        let (previous, version) = head.map_or((None, None), |(h, v)| (Some(h), Some(v)));
        let snapshot = SnapshotRecord {
            format: RECORD_FORMAT.to_owned(),
            kind: "snapshot".to_owned(),
            scope: r.scope().as_str().to_owned(),
            id: r.id().to_owned(),
            revision: previous.as_ref().map_or(0, |h| h.revision) + 1,
            content: revision.content,
            at: clock::now(&self.options),
            actor: revision.actor,
        };
        let (value, content) = snapshot.encode_marked();
        let snapshot_key = self.put_snapshot(r, snapshot.revision, &value).await?;
        let old_keys: Vec<String> = previous
            .as_ref()
            .map(|h| h.snapshots.iter().map(|s| s.key.clone()).collect())
            .unwrap_or_default();
        let new_head = HeadRecord::next(
            previous.as_deref(),
            &snapshot,
            snapshot_key,
            revision.codes,
            revision.archived,
            self.options.history_depth,
        );
        let key = head_key(&self.options.key_prefix, r);
        // The content as the snapshot has it, escaped once for both.
        let value = new_head.encode_with(Some(&value[content]));
        match self.host.put(&key, &value, version.as_deref()).await {
            Err(cause) => Err(StoreError::HostFailed { key, cause }),
            Ok(PutOutcome::VersionMismatch) => Ok(None),
            Ok(PutOutcome::Written { .. }) => {
                let dropped: Vec<String> = old_keys
                    .into_iter()
                    .filter(|k| new_head.snapshots.iter().all(|s| &s.key != k))
                    .collect();
                self.last.keep(&key, value, Arc::new(new_head));
                Ok(Some(Written {
                    revision: snapshot.revision,
                    content: snapshot.content,
                    failed_deletes: self.prune(dropped.into_iter()).await,
                }))
            }
        }
    }

    /// Delete the snapshot keys that fell out of the history window of a
    /// head this store has just written, and count the deletes that failed.
    ///
    /// Only this moment is safe: the head that named these keys has been
    /// replaced by compare-and-swap, so no later head can name them (a head
    /// is built from the one it replaces), while a snapshot written for a
    /// save that lost its race may be shared with the twin that won and is
    /// never touched. A failed delete leaves an unread key behind and does
    /// not undo the save, which has already happened.
    pub(super) async fn prune(&self, keys: impl Iterator<Item = String>) -> usize {
        let mut failed = 0;
        for key in keys {
            match self.host.delete(&key).await {
                Ok(DeleteOutcome::Deleted) => {}
                // A host without delete keeps old snapshots, as before.
                Ok(DeleteOutcome::Unsupported) => break,
                Err(_) => failed += 1,
            }
        }
        failed
    }

    /// Write a snapshot where no key exists yet and return its key. A key
    /// that exists with exactly these bytes is the same snapshot (a retry,
    /// or a twin writer) and is used as is.
    pub(super) async fn put_snapshot(
        &self,
        r: &MemoryRef,
        revision: u64,
        value: &str,
    ) -> Result<String, StoreError<H::Error>> {
        let mut key = String::new();
        for salt in 0..SNAPSHOT_KEY_ATTEMPTS {
            key = snapshot_key(
                &self.options.key_prefix,
                r,
                revision,
                &content_tag(value.as_bytes(), salt),
            );
            match self.host.put(&key, value, None).await {
                Err(cause) => return Err(StoreError::HostFailed { key, cause }),
                Ok(PutOutcome::Written { .. }) => return Ok(key),
                Ok(PutOutcome::VersionMismatch) => match self.host.get(&key).await {
                    Err(cause) => return Err(StoreError::HostFailed { key, cause }),
                    Ok(Some(existing)) if existing.value == value => return Ok(key),
                    Ok(_) => {}
                },
            }
        }
        Err(StoreError::SnapshotCollision(key))
    }
}

fn outcome(plan: SavePlan, revision: u64, notice: Option<String>, source: String) -> SaveOutcome {
    SaveOutcome {
        status: plan.status.into(),
        content: plan.content,
        changed: plan.changed,
        usage: plan.usage,
        diagnostics: plan.diagnostics,
        dropped: plan.dropped,
        revision,
        notice,
        source,
        merge: None,
    }
}

/// What the caller is told about old snapshots a save could not remove.
fn prune_notice(failed: usize) -> Option<String> {
    match failed {
        0 => None,
        1 => Some("1 old snapshot could not be removed.".to_owned()),
        n => Some(format!("{n} old snapshots could not be removed.")),
    }
}

fn join_notices(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("{a} {b}")),
        (a, b) => a.or(b),
    }
}
