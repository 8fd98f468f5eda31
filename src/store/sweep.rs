//! [`MemoryStore::sweep`]: expiry ([`expire`](crate::expire)) applied to a
//! stored memory. A sweep that removes something saves one new revision
//! whose audit entry lists every removed entry (as compaction's removals
//! are listed); a sweep that removes nothing writes nothing. The head is
//! replaced by compare-and-swap: a sweep that loses a race to a save or
//! another sweep reads the new head and sweeps that, so nothing anyone
//! stored is overwritten, and a repeated sweep is a no-op.

use serde::Serialize;

use crate::expire::{expire, ExpireOptions, ExpiryPolicy};

use super::error::StoreError;
use super::host::{Host, Rewrite};
use super::options::StoreSaveOptions;
use super::record::ArchivedEntry;
use super::write::NewRevision;
use super::{MemoryRef, MemoryStore};

/// How many times a sweep re-reads and retries after losing a race before
/// it reports [`SweepStatus::Conflict`].
pub const SWEEP_ATTEMPTS: u32 = 8;

/// Options of [`MemoryStore::sweep`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepOptions {
    /// `YYYY-MM-DD`: ages are counted to this day.
    pub today: String,
    /// How long each section's entries are kept.
    pub policies: Vec<ExpiryPolicy>,
    /// Who sweeps, recorded in the audit trail.
    pub actor: Option<String>,
}

impl SweepOptions {
    /// The expiry this sweep applies.
    fn expiry(&self) -> ExpireOptions {
        ExpireOptions {
            today: self.today.clone(),
            policies: self.policies.clone(),
        }
    }

    /// Check the options.
    ///
    /// # Errors
    /// `options/invalid-date`, `options/invalid-policy` (as for
    /// [`ExpireOptions::check`]); `store/invalid-actor`.
    pub fn check<E>(&self) -> Result<(), StoreError<E>> {
        self.expiry().check().map_err(StoreError::Options)?;
        StoreSaveOptions {
            actor: self.actor.clone(),
            ..StoreSaveOptions::default()
        }
        .check()
    }
}

/// What a sweep did; `"unchanged"` and `"conflict"` wrote nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SweepStatus {
    /// Entries expired; a new revision holds the rest.
    Swept,
    /// Nothing expired; nothing was written.
    Unchanged,
    /// Other writers replaced the head [`SWEEP_ATTEMPTS`] times in a row;
    /// nothing was written. Sweeping again later is safe.
    Conflict,
}

/// The result of a sweep.
///
/// What [`MemoryStore::sweep`] returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SweepOutcome {
    /// What the sweep did.
    pub status: SweepStatus,
    /// What the store holds now.
    pub content: String,
    /// The revision stored now.
    pub revision: u64,
    /// The entries this sweep removed (also in the new revision's audit
    /// entry); empty unless `status` is `swept`.
    pub archived: Vec<ArchivedEntry>,
}

impl<H: Host, R: Rewrite> MemoryStore<H, R> {
    /// Remove the entries older than `options.policies` allow, as one new
    /// revision whose audit entry archives them; when nothing expires,
    /// write nothing.
    ///
    /// ```
    /// use memdoc::store::{block_on, MemoryHost, MemoryRef, MemoryStore, StoreOptions, StoreSaveOptions, SweepOptions, SweepStatus};
    /// use memdoc::{ExpiryPolicy, Scope};
    ///
    /// let store = MemoryStore::new(MemoryHost::new(), StoreOptions::default())?;
    /// let team = MemoryRef::new(Scope::Team, "core")?;
    /// block_on(store.save(&team, "## Open Questions\n- 2025-01-01: Which CI?\n- 2025-05-30: Which CDN?", &StoreSaveOptions::default()))?;
    /// let options = SweepOptions {
    ///     today: "2025-06-01".into(),
    ///     policies: vec![ExpiryPolicy { section: "Open Questions".into(), max_age_days: 30 }],
    ///     actor: Some("sweeper".into()),
    /// };
    /// let swept = block_on(store.sweep(&team, &options))?;
    /// assert_eq!((swept.status, swept.revision), (SweepStatus::Swept, 2));
    /// assert_eq!(block_on(store.history(&team))?[0].archived[0].text, "Which CI?");
    /// let again = block_on(store.sweep(&team, &options))?;
    /// assert_eq!((again.status, again.revision), (SweepStatus::Unchanged, 2));
    /// # Ok::<(), memdoc::store::StoreError<memdoc::store::MemoryHostError>>(())
    /// ```
    ///
    /// # Errors
    /// `store/invalid-actor`, `options/invalid-date`,
    /// `options/invalid-policy`; `store/host-failed`
    /// for a failed host call (at worst an unused snapshot key remains);
    /// `store/corrupt-record`, `store/unsupported-format`.
    pub async fn sweep(
        &self,
        r: &MemoryRef,
        options: &SweepOptions,
    ) -> Result<SweepOutcome, StoreError<H::Error>> {
        options.check()?;
        let expiry = options.expiry();
        let mut current = (String::new(), 0);
        for _ in 0..SWEEP_ATTEMPTS {
            let Some((head, version)) = self.read_head(r).await? else {
                return Ok(unchanged(String::new(), 0));
            };
            let expired = expire(&head.content, &expiry);
            if expired.archived.is_empty() {
                return Ok(unchanged(head.content.clone(), head.revision));
            }
            current = (head.content.clone(), head.revision);
            let archived: Vec<ArchivedEntry> = expired
                .archived
                .into_iter()
                .map(|e| ArchivedEntry {
                    section: e.section,
                    date: e.date,
                    text: e.text,
                })
                .collect();
            let revision = NewRevision {
                content: expired.content,
                actor: options.actor.clone(),
                codes: Vec::new(),
                archived: archived.clone(),
            };
            // Old snapshots that could not be deleted stay unread; the
            // sweep has happened either way.
            if let Some(written) = self.write_next(r, Some((head, version)), revision).await? {
                return Ok(SweepOutcome {
                    status: SweepStatus::Swept,
                    content: written.content,
                    revision: written.revision,
                    archived,
                });
            }
        }
        Ok(SweepOutcome {
            status: SweepStatus::Conflict,
            content: current.0,
            revision: current.1,
            archived: Vec::new(),
        })
    }
}

fn unchanged(content: String, revision: u64) -> SweepOutcome {
    SweepOutcome {
        status: SweepStatus::Unchanged,
        content,
        revision,
        archived: Vec::new(),
    }
}
