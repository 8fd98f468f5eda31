//! A memory's records carried whole, as the store wrote them
//! (docs/record-format.md, "Export, import and purge"): read out for a
//! backup ([`MemoryStore::export_records`]), checked and written back
//! ([`MemoryStore::import_records`]), deleted ([`MemoryStore::purge`]), and
//! the revision of a head the store may refuse to read
//! ([`MemoryStore::stored_revision`]). The records cross as opaque strings
//! with their keys, so that a caller never reads the record format nor
//! builds a key.
//!
//! An import writes the snapshots before the head that names them, so a
//! crash at any step leaves either the memory's earlier head or the whole
//! new one, never a head naming a missing snapshot; what an abandoned
//! import left is replaced by the next. A purge deletes the head first for
//! the same reason, and only keys under the head's own snapshot prefix.
//!
//! ```
//! use memdoc::store::{block_on, MemoryHost, MemoryRef, MemoryStore, StoreOptions, StoreSaveOptions};
//! use memdoc::Scope;
//!
//! let alice = MemoryRef::new(Scope::User, "alice")?;
//! let text = "## Facts\n- 2025-03-15: Lives in Seattle";
//! let from = MemoryStore::new(MemoryHost::new(), StoreOptions::default())?;
//! block_on(from.save(&alice, text, &StoreSaveOptions::default()))?;
//! let records = block_on(from.export_records(&alice))?.expect("a memory was saved");
//!
//! let to = MemoryStore::new(MemoryHost::new(), StoreOptions::default())?;
//! assert_eq!(block_on(to.import_records(&alice, &records))?, 1);
//! assert_eq!(block_on(to.load(&alice))?.content, text);
//! assert!(block_on(to.purge(&alice))?);
//! assert_eq!(block_on(to.load(&alice))?.revision, 0);
//! # Ok::<(), memdoc::store::StoreError<memdoc::store::MemoryHostError>>(())
//! ```

use super::host::{DeleteOutcome, Host, PutOutcome, Rewrite};
use super::json::{from_json, Value};
use super::key::{head_key, snapshot_key_prefix};
use super::record::{HeadRecord, SnapshotRecord, MAX_REVISION};
use super::{MemoryRef, MemoryStore, StoreError};

/// A memory's records as stored: its head record and the kept snapshots
/// it names, each the very string the store wrote.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct StoredRecords {
    /// The head record.
    pub head: String,
    /// The kept snapshots the head names, newest first.
    pub snapshots: Vec<StoredSnapshot>,
}

/// One kept snapshot as stored.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct StoredSnapshot {
    /// The revision it holds.
    pub revision: u64,
    /// Its key, as the head names it.
    pub key: String,
    /// The snapshot record.
    pub value: String,
}

/// How many times an import reads a record again after another writer
/// changed it between the import's read and its write.
const IMPORT_ATTEMPTS: u32 = 3;

impl<H: Host, R: Rewrite> MemoryStore<H, R> {
    /// The records of `r` as stored, `None` when nothing is stored: its
    /// head and each snapshot the head names that is there (a missing one
    /// is left out, and an import of the records then refuses them).
    ///
    /// # Errors
    /// `store/host-failed`; `store/corrupt-record` and
    /// `store/unsupported-format` for a head the store does not read.
    pub async fn export_records(
        &self,
        r: &MemoryRef,
    ) -> Result<Option<StoredRecords>, StoreError<H::Error>> {
        let key = head_key(&self.options.key_prefix, r);
        let Some(head) = self.get(&key).await? else {
            return Ok(None);
        };
        let decoded = HeadRecord::decode(&key, &self.options.key_prefix, r, &head)?;
        let mut snapshots = Vec::with_capacity(decoded.snapshots.len());
        for s in decoded.snapshots {
            if let Some(value) = self.get(&s.key).await? {
                snapshots.push(StoredSnapshot {
                    revision: s.revision,
                    key: s.key,
                    value,
                });
            }
        }
        Ok(Some(StoredRecords { head, snapshots }))
    }

    /// Write `records`, a memory's records as [`MemoryStore::export_records`]
    /// gave them, as the records of `r`, and answer the head's revision.
    /// They are checked first: the head must be a head of `r` the store
    /// reads, and the snapshots exactly those it names, each once, each a
    /// snapshot of `r` at the revision the head names it for. Then the
    /// snapshots are written, the head last, each replacing what is stored
    /// under its key (records an abandoned import left, or the memory's
    /// earlier head).
    ///
    /// # Errors
    /// `store/corrupt-record` (its key the record's) and
    /// `store/unsupported-format` for records that do not pass, before
    /// anything is written; `store/host-failed`; `store/import-conflict`
    /// when another writer keeps changing a record being written.
    pub async fn import_records(
        &self,
        r: &MemoryRef,
        records: &StoredRecords,
    ) -> Result<u64, StoreError<H::Error>> {
        let prefix = &self.options.key_prefix;
        let key = head_key(prefix, r);
        let head = HeadRecord::decode(&key, prefix, r, &records.head)?;
        let corrupt = |key: &str, reason: String| StoreError::CorruptRecord {
            key: key.to_owned(),
            reason,
        };
        // Which of the head's snapshots were given, by their place in it.
        let mut given = vec![false; head.snapshots.len()];
        for s in &records.snapshots {
            let Some(at) = head
                .snapshots
                .iter()
                .position(|named| named.revision == s.revision && named.key == s.key)
            else {
                return Err(corrupt(
                    &s.key,
                    format!("the head does not name it for revision {}", s.revision),
                ));
            };
            if std::mem::replace(&mut given[at], true) {
                return Err(corrupt(&s.key, "given twice".to_owned()));
            }
            SnapshotRecord::decode(&s.key, r, s.revision, &s.value)?;
        }
        if let Some((missing, _)) = head.snapshots.iter().zip(&given).find(|(_, &g)| !g) {
            return Err(corrupt(
                &missing.key,
                format!("the snapshot of revision {} is missing", missing.revision),
            ));
        }
        for s in &records.snapshots {
            self.replace(&s.key, &s.value).await?;
        }
        self.replace(&key, &records.head).await?;
        Ok(head.revision)
    }

    /// Delete the records of `r`: the head first, then the snapshots it
    /// names under its own key, and answer whether there was a head. The
    /// head is read without the store's checks, so a head it refuses is
    /// deleted too. A host without `delete` keeps every record.
    ///
    /// # Errors
    /// `store/host-failed`.
    pub async fn purge(&self, r: &MemoryRef) -> Result<bool, StoreError<H::Error>> {
        let key = head_key(&self.options.key_prefix, r);
        let Some(head) = self.get(&key).await? else {
            return Ok(false);
        };
        if !self.delete(&key).await? {
            return Ok(true);
        }
        let own = snapshot_key_prefix(&self.options.key_prefix, r);
        let value = from_json(&head).unwrap_or(Value::Null);
        let named = field(&value, "snapshots").map_or(&[][..], |v| match v {
            Value::Array(items) => items,
            _ => &[],
        });
        for s in named {
            if let Some(Value::Str(snapshot)) = field(s, "key") {
                if snapshot.starts_with(&own) && !self.delete(snapshot).await? {
                    break;
                }
            }
        }
        Ok(true)
    }

    /// The revision of the head of `r` as stored, read without the store's
    /// checks: 0 when there is none or it names no revision (for a caller
    /// that purges a memory the store refuses to load).
    ///
    /// # Errors
    /// `store/host-failed`.
    pub async fn stored_revision(&self, r: &MemoryRef) -> Result<u64, StoreError<H::Error>> {
        let key = head_key(&self.options.key_prefix, r);
        let head = self.get(&key).await?;
        let value = head
            .as_deref()
            .map_or(Value::Null, |h| from_json(h).unwrap_or(Value::Null));
        Ok(match field(&value, "revision") {
            Some(&Value::Whole(n)) if n <= MAX_REVISION => n,
            _ => 0,
        })
    }

    /// The key of the head record of `r`, for a caller that watches the
    /// host for changes of the memory.
    #[must_use]
    pub fn head_key(&self, r: &MemoryRef) -> String {
        head_key(&self.options.key_prefix, r)
    }

    /// The value at `key`.
    async fn get(&self, key: &str) -> Result<Option<String>, StoreError<H::Error>> {
        match self.host.get(key).await {
            Ok(found) => Ok(found.map(|v| v.value)),
            Err(cause) => Err(StoreError::HostFailed {
                key: key.to_owned(),
                cause,
            }),
        }
    }

    /// Delete `key`; `false` when the host cannot delete.
    async fn delete(&self, key: &str) -> Result<bool, StoreError<H::Error>> {
        match self.host.delete(key).await {
            Ok(outcome) => Ok(outcome == DeleteOutcome::Deleted),
            Err(cause) => Err(StoreError::HostFailed {
                key: key.to_owned(),
                cause,
            }),
        }
    }

    /// Make `value` what `key` holds: written where the key is absent,
    /// left as it is where it already holds `value`, otherwise replaced by
    /// compare-and-swap on the version read.
    async fn replace(&self, key: &str, value: &str) -> Result<(), StoreError<H::Error>> {
        let failed = |cause| StoreError::HostFailed {
            key: key.to_owned(),
            cause,
        };
        for _ in 0..IMPORT_ATTEMPTS {
            let version = match self.host.get(key).await.map_err(failed)? {
                Some(stored) if stored.value == value => return Ok(()),
                Some(stored) => Some(stored.version),
                None => None,
            };
            match self.host.put(key, value, version.as_deref()).await {
                Ok(PutOutcome::Written { .. }) => return Ok(()),
                Ok(PutOutcome::VersionMismatch) => {}
                Err(cause) => return Err(failed(cause)),
            }
        }
        Err(StoreError::ImportConflict(key.to_owned()))
    }
}

/// The field `name` of `value` when it is an object that has one.
fn field<'v, 't>(value: &'v Value<'t>, name: &str) -> Option<&'v Value<'t>> {
    match value {
        Value::Object(entries) => entries.iter().find(|(n, _)| n == name).map(|(_, v)| v),
        _ => None,
    }
}
