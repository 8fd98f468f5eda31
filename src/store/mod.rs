//! Persistence through the host (API.md, "Persistence through the host"):
//! [`MemoryStore`] keeps revisions, an audit trail and immutable snapshots
//! of each memory on top of any key-value [`Host`] with a conditional put.
//! Everything here is pure logic over two async calls; the store never does
//! I/O of its own, never spawns and never sleeps, so the same code runs
//! natively and behind the wasm binding.
//!
//! A save reads the head record, checks the caller's base revision, plans
//! the save ([`plan_save`](crate::plan_save)), writes the new revision's
//! snapshot under a key derived from its bytes (only where no key exists),
//! and then replaces the head only if its version is still the one it read.
//! A crash between the two writes leaves an orphan snapshot and an intact
//! head; a writer that loses a race gets `conflict`, never an overwrite.
//! Once the head write has succeeded, the snapshots that fell out of the
//! kept history are deleted (when the host can delete).
//!
//! ```
//! use memdoc::store::{block_on, MemoryHost, MemoryRef, MemoryStore, StoreOptions, StoreSaveOptions, StoreStatus};
//! use memdoc::Scope;
//!
//! let store = MemoryStore::new(MemoryHost::new(), StoreOptions::default())?;
//! let alice = MemoryRef::new(Scope::User, "alice")?;
//! let saved = block_on(store.save(&alice, "## Facts\n- 2025-03-15: Lives in Seattle", &StoreSaveOptions::default()))?;
//! assert_eq!((saved.status, saved.revision), (StoreStatus::Saved, 1));
//!
//! // A writer that edited revision 0 is too late now: nothing is overwritten.
//! let late = block_on(store.save(&alice, "## Facts\n- 2025-03-16: Lives in Oslo", &StoreSaveOptions::default()))?;
//! assert_eq!((late.status, late.revision), (StoreStatus::Conflict, 1));
//! assert_eq!(block_on(store.load(&alice))?.content, "## Facts\n- 2025-03-15: Lives in Seattle");
//! # Ok::<(), memdoc::store::StoreError<memdoc::store::MemoryHostError>>(())
//! ```

mod clock;
mod error;
mod exec;
mod host;
mod key;
mod memory_host;
mod merge_hook;
mod options;
mod record;
mod rewrite;
mod view;

use crate::compact::{compact, CompactOptions};
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::limits::Usage;
use crate::options::{SaveOptions, ValidateOptions};
use crate::parse::is_valid_date;
use crate::render::render;
use crate::save::{plan_save, unwrap_fenced_reply, SavePlan, SaveStatus};

pub use error::{HostFailure, StoreError, STORE_ERROR_CODES};
pub use exec::block_on;
pub use host::{DeleteOutcome, Host, NoRewrite, PutOutcome, Rewrite, RewriteRequest, Versioned};
pub use key::{
    is_valid_id, is_valid_key_prefix, MemoryRef, DEFAULT_KEY_PREFIX, MAX_ID_LEN, MAX_KEY_PREFIX_LEN,
};
pub use memory_host::{Fault, MemoryHost, MemoryHostError};
pub use options::{
    revision_number, Clock, OnConflict, StoreOptions, StoreOptionsInput, StoreSaveOptions,
    StoreSaveOptionsInput, DEFAULT_HISTORY_DEPTH, MAX_ACTOR_CHARS, MAX_HISTORY_DEPTH,
    MAX_TIMEOUT_MS,
};
pub use record::{ArchivedEntry, AuditEntry, MAX_REVISION, RECORD_FORMAT};
pub use rewrite::{rewrite_prompt, rewrite_target};
pub use view::{ArchivedEntryView, AuditEntryView, LoadedView, MemoryRefInput, SaveOutcomeView};

use key::{content_tag, head_key, snapshot_key};
use merge_hook::MergeResult;
use record::{HeadRecord, SnapshotRecord};

/// How many differently salted keys a snapshot may try before giving up.
/// Only a hash collision with different data moves past the first.
const SNAPSHOT_KEY_ATTEMPTS: u32 = 4;

/// What a store save did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreStatus {
    /// A new revision was stored (or the content was already exactly this).
    Saved,
    /// A no-op sentinel: nothing was written.
    NoOp,
    /// An error in the document: nothing was written.
    Rejected,
    /// The memory changed since the caller's base revision: nothing was
    /// written; the outcome holds the current content and revision.
    Conflict,
}

impl StoreStatus {
    /// `"saved"`, `"no_op"`, `"rejected"` or `"conflict"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Saved => "saved",
            Self::NoOp => "no_op",
            Self::Rejected => "rejected",
            Self::Conflict => "conflict",
        }
    }
}

impl From<SaveStatus> for StoreStatus {
    fn from(s: SaveStatus) -> Self {
        match s {
            SaveStatus::Saved => Self::Saved,
            SaveStatus::NoOp => Self::NoOp,
            SaveStatus::Rejected => Self::Rejected,
        }
    }
}

/// A memory as it is stored now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The canonical content (`""` when nothing is stored yet).
    pub content: String,
    /// The current revision (0 when nothing is stored yet).
    pub revision: u64,
    /// When the current revision was saved.
    pub updated_at: Option<String>,
    /// Who saved it, when known.
    pub updated_by: Option<String>,
    /// The size of the content.
    pub usage: Usage,
}

/// The result of [`MemoryStore::save`]: the [`SavePlan`] fields, plus the
/// revision now stored and a notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveOutcome {
    /// What the save did.
    pub status: StoreStatus,
    /// What the store holds now.
    pub content: String,
    /// Whether this save changed the stored content.
    pub changed: bool,
    /// The size of the planned content (of the stored one for a conflict).
    pub usage: Usage,
    /// The findings; their spans point into [`SaveOutcome::source`].
    pub diagnostics: Vec<Diagnostic>,
    /// Preamble lines that were not kept.
    pub dropped: Vec<String>,
    /// The revision stored now.
    pub revision: u64,
    /// What the caller should know beyond the status: a rewrite, a merge,
    /// why a conflict happened.
    pub notice: Option<String>,
    /// The text the diagnostics were found in: the caller's `updated`, the
    /// rewrite's reply, or the merge result.
    pub source: String,
}

/// Revisions, history and conflicts for memory documents kept in a [`Host`].
///
/// `R` is the optional rewrite callback for documents over the hard limit
/// (see [`MemoryStore::with_rewrite`]).
pub struct MemoryStore<H, R = NoRewrite> {
    host: H,
    rewrite: Option<R>,
    options: StoreOptions,
}

impl<H: Host> MemoryStore<H, NoRewrite> {
    /// A store over `host`.
    ///
    /// # Errors
    /// Bad options (`options/invalid-key-prefix`,
    /// `options/invalid-history-depth`, `options/invalid-limits`); on
    /// wasm32, `options/invalid` when no clock is given.
    pub fn new(host: H, options: StoreOptions) -> Result<Self, StoreError<H::Error>> {
        options.check()?;
        clock::check(&options)?;
        Ok(Self {
            host,
            rewrite: None,
            options,
        })
    }
}

impl<H: Host, R: Rewrite> MemoryStore<H, R> {
    /// The same store with a rewrite callback: a save over the hard limit
    /// asks it for a shorter document instead of rejecting at once.
    #[must_use]
    pub fn with_rewrite<R2: Rewrite>(self, rewrite: R2) -> MemoryStore<H, R2> {
        MemoryStore {
            host: self.host,
            rewrite: Some(rewrite),
            options: self.options,
        }
    }

    /// The same store with a rewrite callback when `rewrite` is `Some`, and
    /// without one otherwise; for bindings whose callback is optional at run
    /// time but whose store type is fixed.
    #[must_use]
    pub fn with_optional_rewrite<R2: Rewrite>(self, rewrite: Option<R2>) -> MemoryStore<H, R2> {
        MemoryStore {
            host: self.host,
            rewrite,
            options: self.options,
        }
    }

    /// The host.
    pub const fn host(&self) -> &H {
        &self.host
    }

    /// The options.
    pub const fn options(&self) -> &StoreOptions {
        &self.options
    }

    /// The memory as stored now; revision 0 and `""` when nothing is stored.
    ///
    /// # Errors
    /// `store/host-failed` when the read fails (never read as "empty"),
    /// `store/corrupt-record`, `store/unsupported-format`.
    pub async fn load(&self, r: &MemoryRef) -> Result<Loaded, StoreError<H::Error>> {
        let head = self.read_head(r).await?;
        let limits = self.options.limits;
        Ok(match head {
            None => Loaded {
                content: String::new(),
                revision: 0,
                updated_at: None,
                updated_by: None,
                usage: Usage::of_canonical("", limits),
            },
            Some((head, _)) => Loaded {
                usage: Usage::of_canonical(&head.content, limits),
                content: head.content,
                revision: head.revision,
                updated_at: Some(head.updated_at),
                updated_by: head.updated_by,
            },
        })
    }

    /// The audit trail, newest first (at most `history_depth` entries).
    ///
    /// # Errors
    /// As for [`MemoryStore::load`].
    pub async fn history(&self, r: &MemoryRef) -> Result<Vec<AuditEntry>, StoreError<H::Error>> {
        Ok(self
            .read_head(r)
            .await?
            .map(|(head, _)| head.audit)
            .unwrap_or_default())
    }

    /// The content of `revision`, or `None` when the memory never had it or
    /// it is older than the kept history.
    ///
    /// # Errors
    /// As for [`MemoryStore::load`]; `store/corrupt-record` when the head
    /// names a snapshot that is missing or does not match.
    pub async fn revision(
        &self,
        r: &MemoryRef,
        revision: u64,
    ) -> Result<Option<String>, StoreError<H::Error>> {
        let Some((head, _)) = self.read_head(r).await? else {
            return Ok(None);
        };
        self.content_of(r, &head, revision).await
    }

    /// Save `updated` over the stored memory.
    ///
    /// The save is planned against the current content. When
    /// `options.base_revision` is not the current revision the outcome is
    /// `conflict` and nothing is written (with [`OnConflict::Merge`], a clean
    /// three-way merge is saved instead, once the merge is available). A
    /// document over the hard limit goes to the rewrite callback, when there
    /// is one. If another writer replaced the head between this save's read
    /// and write, the outcome is `conflict` with what that writer stored.
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

    async fn read_head(
        &self,
        r: &MemoryRef,
    ) -> Result<Option<(HeadRecord, String)>, StoreError<H::Error>> {
        let key = head_key(&self.options.key_prefix, r);
        match self.host.get(&key).await {
            Err(cause) => Err(StoreError::HostFailed { key, cause }),
            Ok(None) => Ok(None),
            Ok(Some(v)) => {
                let head = HeadRecord::decode(&key, &self.options.key_prefix, r, &v.value)?;
                Ok(Some((head, v.version)))
            }
        }
    }

    async fn content_of(
        &self,
        r: &MemoryRef,
        head: &HeadRecord,
        revision: u64,
    ) -> Result<Option<String>, StoreError<H::Error>> {
        if revision == head.revision {
            return Ok(Some(head.content.clone()));
        }
        let Some(key) = head.snapshot_key(revision) else {
            return Ok(None);
        };
        match self.host.get(key).await {
            Err(cause) => Err(StoreError::HostFailed {
                key: key.to_owned(),
                cause,
            }),
            Ok(None) => {
                // A save may have replaced the head and pruned this snapshot
                // between the two reads: then the revision has just left the
                // kept history. Only a head that still names it is corrupt.
                let still_named = self
                    .read_head(r)
                    .await?
                    .is_some_and(|(now, _)| now.snapshot_key(revision) == Some(key));
                if still_named {
                    Err(StoreError::CorruptRecord {
                        key: key.to_owned(),
                        reason: format!("the snapshot of revision {revision} is missing"),
                    })
                } else {
                    Ok(None)
                }
            }
            Ok(Some(v)) => Ok(Some(
                SnapshotRecord::decode(key, r, revision, &v.value)?.content,
            )),
        }
    }

    async fn save_over(
        &self,
        r: &MemoryRef,
        updated: &str,
        options: &StoreSaveOptions,
        head: Option<(HeadRecord, String)>,
    ) -> Result<SaveOutcome, StoreError<H::Error>> {
        let current_revision = head.as_ref().map_or(0, |(h, _)| h.revision);
        let mut merged: Option<(String, String)> = None;
        if options.base_revision != current_revision {
            let note = match options.on_conflict {
                OnConflict::Reject => None,
                OnConflict::Merge => match self.merge(r, head.as_ref(), options, updated).await? {
                    Ok(clean) => {
                        merged = Some(clean);
                        None
                    }
                    Err(note) => Some(note),
                },
            };
            if merged.is_none() {
                return Ok(self.conflict(head.as_ref().map(|(h, _)| h), options, note));
            }
        }
        let (updated, merge_note) = match &merged {
            Some((content, note)) => (content.as_str(), Some(note.clone())),
            None => (updated, None),
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
        let at = clock::now(&self.options);
        let revision = current_revision + 1;
        let snapshot = SnapshotRecord {
            format: RECORD_FORMAT.to_owned(),
            kind: "snapshot".to_owned(),
            scope: r.scope().as_str().to_owned(),
            id: r.id().to_owned(),
            revision,
            content: plan.content.clone(),
            at: at.clone(),
            actor: options.actor.clone(),
        };
        let snapshot_key = self.put_snapshot(r, &snapshot).await?;
        let old_keys: Vec<String> = head
            .as_ref()
            .map(|(h, _)| h.snapshots.iter().map(|s| s.key.clone()).collect())
            .unwrap_or_default();
        let (previous, version) = head.map_or((None, None), |(h, v)| (Some(h), Some(v)));
        let new_head = HeadRecord::next(
            previous,
            &snapshot,
            snapshot_key,
            codes,
            planned.archived,
            self.options.history_depth,
        );
        let key = head_key(&self.options.key_prefix, r);
        match self
            .host
            .put(&key, &new_head.encode(), version.as_deref())
            .await
        {
            Err(cause) => Err(StoreError::HostFailed { key, cause }),
            Ok(PutOutcome::Written { .. }) => {
                let dropped = old_keys
                    .into_iter()
                    .filter(|k| new_head.snapshots.iter().all(|s| &s.key != k));
                let failed = self.prune(dropped).await;
                let notice = join_notices(notice, prune_notice(failed));
                Ok(outcome(plan, revision, notice, planned.source))
            }
            Ok(PutOutcome::VersionMismatch) => {
                // Someone else saved between our read and our write: report
                // what they stored, never overwrite it.
                let now = self.read_head(r).await?;
                Ok(self.conflict(
                    now.as_ref().map(|(h, _)| h),
                    options,
                    Some("Another save was stored while this one was being written.".to_owned()),
                ))
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
    async fn prune(&self, keys: impl Iterator<Item = String>) -> usize {
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

    /// The three-way merge of a save whose base is not the current revision:
    /// `Ok((content, note))` to save, `Err(note)` to report a conflict.
    async fn merge(
        &self,
        r: &MemoryRef,
        head: Option<&(HeadRecord, String)>,
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
        Ok(match merge_hook::three_way(&base, &head.content, updated) {
            MergeResult::Clean { content, note } => Ok((content, note)),
            MergeResult::Conflicted { note } => Err(note),
        })
    }

    fn conflict(
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

    /// Plan the save, and over the hard limit try the rewrite callback.
    async fn plan(
        &self,
        r: &MemoryRef,
        updated: &str,
        current: &str,
        allow_erase: bool,
    ) -> Planned {
        let options = SaveOptions {
            validate: ValidateOptions {
                scope: r.scope(),
                previous: Some(current.to_owned()),
                limits: self.options.limits,
                forbidden_team_headings: self.options.forbidden_team_headings.clone(),
            },
            allow_erase,
        };
        let plan = plan_save(updated, &options);
        let first = Planned {
            plan,
            source: updated.to_owned(),
            notice: None,
            extra_codes: Vec::new(),
            archived: Vec::new(),
        };
        if only_over_the_hard_limit(&first.plan) {
            self.fit(r, updated, &options, first).await
        } else {
            first
        }
    }

    /// A document over the hard limit: ask the rewrite callback for a
    /// shorter one and plan its reply; failing that, and only when the
    /// `compact_over_limit` option asks for it, compact it deterministically.
    /// `first` (the rejection) stands when neither produces a document that
    /// saves.
    async fn fit(
        &self,
        r: &MemoryRef,
        updated: &str,
        options: &SaveOptions,
        first: Planned,
    ) -> Planned {
        let body = unwrap_fenced_reply(updated).map_or(updated, |(_, body)| body);
        let content = render(body);
        let limits = self.options.limits;
        let chars = first.plan.usage.chars;
        let target = rewrite_target(limits);
        let over = format!(
            "The update is {chars} characters, over the hard limit of {}",
            limits.hard
        );
        let rewrite_note = match &self.rewrite {
            None => None,
            Some(rewrite) => {
                let request = RewriteRequest {
                    prompt: rewrite_prompt(&content, chars, target, limits, r.scope()),
                    content: content.clone(),
                    target,
                };
                match rewrite.rewrite(request).await {
                    Err(_) => Some("the rewrite failed".to_owned()),
                    Ok(reply) => {
                        let second = plan_save(&reply, options);
                        match rewrite::refusal(&reply, &second, chars) {
                            Some(why) => Some(format!("the rewrite was refused because {why}")),
                            None => {
                                return Planned {
                                    notice: Some(format!(
                                        "{over}; it was rewritten to {} characters to fit.",
                                        second.usage.chars
                                    )),
                                    plan: second,
                                    source: reply,
                                    extra_codes: vec![Code::SizeHardLimit.as_str().to_owned()],
                                    archived: Vec::new(),
                                };
                            }
                        }
                    }
                }
            }
        };
        if self.options.compact_over_limit {
            if let Some(compacted) = self.compact_to_fit(r, &content, options, target, &over) {
                return compacted;
            }
        }
        let notice = match rewrite_note {
            Some(note) => format!("{over}; {note}, so nothing was saved."),
            None if self.options.compact_over_limit => {
                format!(
                    "{over}; compaction could not bring it under the limit, so nothing was saved."
                )
            }
            None => return first,
        };
        Planned {
            notice: Some(notice),
            ..first
        }
    }

    /// Deterministic compaction of an over-limit document to `target`: the
    /// result is planned like any save, and every entry it removed goes into
    /// the audit trail of the revision it creates.
    fn compact_to_fit(
        &self,
        r: &MemoryRef,
        content: &str,
        options: &SaveOptions,
        target: usize,
        over: &str,
    ) -> Option<Planned> {
        let now = clock::now(&self.options);
        let today = now
            .get(..10)
            .filter(|d| is_valid_date(d))
            .map(str::to_owned);
        let compaction = compact(
            content,
            &CompactOptions {
                scope: r.scope(),
                target,
                today,
            },
        );
        if !compaction.fits {
            return None;
        }
        let plan = plan_save(&compaction.content, options);
        if plan.status != SaveStatus::Saved {
            return None;
        }
        let archived: Vec<ArchivedEntry> = compaction
            .removed
            .iter()
            .map(|e| ArchivedEntry {
                section: e.section.clone(),
                date: e.date.clone(),
                text: e.text.clone(),
            })
            .collect();
        Some(Planned {
            notice: Some(format!(
                "{over}; it was compacted to {} characters by merging {} repeated section(s) and removing {} entries, which are archived in this revision's history.",
                plan.usage.chars,
                compaction.merged.len(),
                archived.len()
            )),
            plan,
            source: compaction.content,
            extra_codes: vec![Code::SizeHardLimit.as_str().to_owned()],
            archived,
        })
    }

    /// Write a snapshot where no key exists yet and return its key. A key
    /// that exists with exactly these bytes is the same snapshot (a retry,
    /// or a twin writer) and is used as is.
    async fn put_snapshot(
        &self,
        r: &MemoryRef,
        snapshot: &SnapshotRecord,
    ) -> Result<String, StoreError<H::Error>> {
        let value = snapshot.encode();
        let mut key = String::new();
        for salt in 0..SNAPSHOT_KEY_ATTEMPTS {
            key = snapshot_key(
                &self.options.key_prefix,
                r,
                snapshot.revision,
                &content_tag(value.as_bytes(), salt),
            );
            match self.host.put(&key, &value, None).await {
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

struct Planned {
    plan: SavePlan,
    source: String,
    notice: Option<String>,
    extra_codes: Vec<String>,
    /// Entries compaction removed, for the audit trail.
    archived: Vec<ArchivedEntry>,
}

fn only_over_the_hard_limit(plan: &SavePlan) -> bool {
    let mut errors = plan
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error);
    plan.status == SaveStatus::Rejected
        && errors.all(|d| d.code == Code::SizeHardLimit)
        && plan
            .diagnostics
            .iter()
            .any(|d| d.code == Code::SizeHardLimit)
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
