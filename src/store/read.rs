//! The read side of [`MemoryStore`]: the head record, the content of any
//! kept revision, and what `load`, `history` and `revision` return. A read
//! never writes, and a failed or malformed host answer is an error, never
//! "nothing stored".

use std::sync::Arc;

use crate::Usage;

use super::host::{Host, Rewrite};
use super::key::head_key;
use super::record::{AuditEntry, HeadRecord, SnapshotRecord};
use super::{Loaded, MemoryRef, MemoryStore, StoreError};

impl<H: Host, R: Rewrite> MemoryStore<H, R> {
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
                content: head.content.clone(),
                revision: head.revision,
                updated_at: Some(head.updated_at.clone()),
                updated_by: head.updated_by.clone(),
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
            .map(|(head, _)| head.audit.clone())
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

    pub(super) async fn read_head(
        &self,
        r: &MemoryRef,
    ) -> Result<Option<(Arc<HeadRecord>, String)>, StoreError<H::Error>> {
        let key = head_key(&self.options.key_prefix, r);
        match self.host.get(&key).await {
            Err(cause) => Err(StoreError::HostFailed { key, cause }),
            Ok(None) => Ok(None),
            Ok(Some(v)) => {
                let head = self.last.decoded(&key, v.value, |value| {
                    HeadRecord::decode(&key, &self.options.key_prefix, r, value)
                })?;
                Ok(Some((head, v.version)))
            }
        }
    }

    pub(super) async fn content_of(
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
}
