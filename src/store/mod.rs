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
//! The files split the store by what it does: `read` (the head, kept
//! revisions), `write` (save, revert, snapshots, pruning), `rebase` (a save
//! whose base revision is stale: merge or conflict), `over_limit` (rewrite
//! and compaction of a document over the hard limit), `sweep` (expiry as a
//! revision), `last_head` (the head it last wrote or read, kept with its
//! value), `carry` (a memory's records exported, imported and purged
//! whole). The store is a client of the crate's public API; the
//! JavaScript-shaped options belong to the boundary.
//!
//! The example uses `block_on`, which comes with the `test-util` feature
//! (as does [`MemoryHost`]'s fault injection); real hosts run under their
//! own runtime:
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

mod carry;
mod clock;
mod error;
mod host;
pub mod json;
mod key;
mod last_head;
mod memory_host;
mod options;
mod over_limit;
mod read;
mod rebase;
mod record;
mod rewrite;
mod sweep;
mod write;

use crate::{Conflict, Diagnostic, SaveStatus, Usage};

pub use carry::{StoredRecords, StoredSnapshot};
pub use error::{HostFailure, StoreError, STORE_ERROR_CODES};
pub use host::{DeleteOutcome, Host, NoRewrite, PutOutcome, Rewrite, RewriteRequest, Versioned};
pub use key::{
    is_valid_id, is_valid_key_prefix, MemoryRef, DEFAULT_KEY_PREFIX, MAX_ID_LEN, MAX_KEY_PREFIX_LEN,
};
#[cfg(feature = "test-util")]
pub use memory_host::Fault;
pub use memory_host::{MemoryHost, MemoryHostError};
pub use options::{
    Clock, OnConflict, StoreOptions, StoreSaveOptions, DEFAULT_HISTORY_DEPTH, MAX_ACTOR_CHARS,
    MAX_HISTORY_DEPTH, MAX_TIMEOUT_MS,
};
/// Run a future to completion on this thread (feature `test-util`):
/// enough for hosts that complete on their own, like [`MemoryHost`]; real
/// hosts run under their own runtime (the JavaScript event loop, tokio, …).
///
/// ```
/// assert_eq!(memdoc::store::block_on(async { 1 + 1 }), 2);
/// ```
#[cfg(feature = "test-util")]
pub use pollster::block_on;
pub use record::{ArchivedEntry, AuditEntry, MAX_REVISION, RECORD_FORMAT};
pub use rewrite::{rewrite_prompt, rewrite_target, writing_rules};
pub use sweep::{SweepOptions, SweepOutcome, SweepStatus, SWEEP_ATTEMPTS};
pub use write::MERGE_ATTEMPTS;

/// What a store save did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "snake_case")
)]
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
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Loaded {
    /// The canonical content; `""` when nothing is stored yet.
    pub content: String,
    /// The current revision; `0` when nothing is stored yet.
    pub revision: u64,
    /// When the current revision was saved.
    pub updated_at: Option<String>,
    /// Who saved it, when known.
    pub updated_by: Option<String>,
    /// The size of the content.
    pub usage: Usage,
}

/// The result of [`MemoryStore::save`]: the [`SavePlan`](crate::SavePlan)
/// fields, plus the revision now stored and a notice.
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
    /// A [`OnConflict::Merge`] save whose edit conflicts with what was saved
    /// since its base revision: the conflicts and the merged text with
    /// markers. `None` for every other outcome.
    pub merge: Option<MergeConflicts>,
}

/// What a [`OnConflict::Merge`] save that stopped at conflicts found, computed
/// once by the store so that no caller merges again. The merge's sides
/// (docs/API.md): base is the base revision, **ours is what the store holds
/// now** ([`SaveOutcome::content`], at [`SaveOutcome::revision`]) and
/// theirs is the caller's edit; `conflicts` and `merged` are what
/// [`merge`](crate::merge)`(base, ours, theirs)` gives for them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeConflicts {
    /// The content of the base revision.
    pub base: String,
    /// The caller's edit.
    pub theirs: String,
    /// Every conflict (at least one), with each side's lines and their
    /// spans in that side's text.
    pub conflicts: Vec<Conflict>,
    /// The merged document with conflict markers around each conflicting
    /// part (`<<<<<<< stored (revision N)`, ours' lines, `=======`, theirs'
    /// lines, `>>>>>>> your edit (from revision B)`): the text to edit and
    /// save with `baseRevision` N to finish the merge.
    pub merged: String,
}

/// Revisions, history and conflicts for memory documents kept in a [`Host`].
///
/// `R` is the optional rewrite callback for documents over the hard limit
/// (see [`MemoryStore::with_rewrite`]).
pub struct MemoryStore<H, R = NoRewrite> {
    host: H,
    rewrite: Option<R>,
    options: StoreOptions,
    /// The head this store last wrote or read.
    last: last_head::LastHead,
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
            last: last_head::LastHead::default(),
        })
    }
}

impl<H: Host, R: Rewrite> MemoryStore<H, R> {
    /// The same store with a rewrite callback: a save over the hard limit
    /// asks it for a shorter document instead of rejecting at once.
    #[must_use]
    pub fn with_rewrite<R2: Rewrite>(self, rewrite: R2) -> MemoryStore<H, R2> {
        self.with_optional_rewrite(Some(rewrite))
    }

    /// The same store with a rewrite callback or none, chosen at run time:
    /// one store type either way, so its code is compiled once (the wasm
    /// binding's callback is optional).
    #[must_use]
    pub fn with_optional_rewrite<R2: Rewrite>(self, rewrite: Option<R2>) -> MemoryStore<H, R2> {
        MemoryStore {
            host: self.host,
            rewrite,
            options: self.options,
            last: self.last,
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
}
