//! The stored record format, `memdoc/1` (docs/record-format.md): a head
//! record per memory and one immutable snapshot record per revision, both
//! JSON. Decoding is strict: an unknown format is refused rather than
//! guessed at, unknown fields are refused rather than dropped on the next
//! write, and a record that does not belong to the key it was read from is
//! corrupt. Nothing here does I/O.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::fast::char_count;

use super::json::{from_json, object, string, Fields, Object, Value};

use super::error::StoreError;
use super::key::{snapshot_key_prefix, MemoryRef};
use crate::quoted::Quoted;

/// The format tag of every record this version writes and reads.
pub const RECORD_FORMAT: &str = "memdoc/1";

/// The largest revision a record may hold: JavaScript numbers are exact up
/// to 2^53, and a save must always be able to count one further.
pub const MAX_REVISION: u64 = 9_007_199_254_740_991;

/// One line of the audit trail: a saved revision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuditEntry {
    /// The revision this save created.
    pub revision: u64,
    /// When it was saved (the store's `now`).
    pub at: String,
    /// Who saved it, when known.
    pub actor: Option<String>,
    /// Its size in code points.
    pub chars: usize,
    /// The size change against the revision before, in code points.
    pub delta: i64,
    /// The diagnostic codes of the save (warnings, and `size/hard-limit`
    /// when the content was rewritten to fit).
    pub codes: Vec<String>,
    /// Entries that deterministic compaction removed to make this revision
    /// fit (the store's `compactOverLimit` option), or that a sweep expired
    /// ([`MemoryStore::sweep`](super::MemoryStore::sweep)), kept here so
    /// that nothing is lost without a trace. Absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub archived: Vec<ArchivedEntry>,
}

/// An entry that compaction removed from a save, or that a sweep expired,
/// as the audit trail keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArchivedEntry {
    /// The title of the section it was in.
    pub section: String,
    /// Its date, `YYYY-MM-DD`.
    pub date: String,
    /// Its text.
    pub text: String,
}

/// Where the snapshot of one revision is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(test, derive(Serialize, Deserialize))]
#[cfg_attr(test, serde(rename_all = "camelCase", deny_unknown_fields))]
pub(crate) struct SnapshotRef {
    pub revision: u64,
    pub key: String,
}

/// The record at a memory's head key.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(test, derive(Serialize, Deserialize))]
#[cfg_attr(test, serde(rename_all = "camelCase", deny_unknown_fields))]
pub(crate) struct HeadRecord {
    /// First, as in [`SnapshotRecord`]: see [`HeadRecord::encode_with`].
    pub content: String,
    pub format: String,
    pub kind: String,
    pub scope: String,
    pub id: String,
    pub revision: u64,
    pub updated_at: String,
    pub updated_by: Option<String>,
    /// Newest first; the first is the current revision.
    pub snapshots: Vec<SnapshotRef>,
    /// Newest first.
    pub audit: Vec<AuditEntry>,
}

/// The record at a snapshot key: one revision's content, never rewritten.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(test, derive(Serialize, Deserialize))]
#[cfg_attr(test, serde(rename_all = "camelCase", deny_unknown_fields))]
pub(crate) struct SnapshotRecord {
    /// First: see [`HeadRecord::encode_with`].
    pub content: String,
    pub format: String,
    pub kind: String,
    pub scope: String,
    pub id: String,
    pub revision: u64,
    pub at: String,
    pub actor: Option<String>,
}

impl HeadRecord {
    /// The record as compact JSON, its fields in the order
    /// [`HeadRecord::read`] names them, the content as `content_json` when
    /// given: the content already written as a JSON string (the snapshot's,
    /// [`SnapshotRecord::encode_marked`]), so that a save escapes it once.
    ///
    /// The content comes first, here and in the snapshot record, so that a
    /// record starts with the content and then the fields that change at
    /// every save: a host that keeps strings (the package's) then makes the
    /// snapshot's string with what the content shares with the head read
    /// before it, and the head's with all of the snapshot's content, as
    /// slices of those strings, not conversions of the whole memory
    /// (docs/record-format.md).
    pub(crate) fn encode_with(&self, content_json: Option<&str>) -> String {
        object(self.content.len() + 256 * (1 + self.audit.len()), |o| {
            match content_json {
                Some(json) => o.json("content", json),
                None => o.string("content", &self.content),
            };
            o.string("format", &self.format)
                .string("kind", &self.kind)
                .string("scope", &self.scope)
                .string("id", &self.id)
                .number("revision", self.revision)
                .string("updatedAt", &self.updated_at)
                .optional_string("updatedBy", self.updated_by.as_deref())
                .objects("snapshots", &self.snapshots, SnapshotRef::write)
                .objects("audit", &self.audit, AuditEntry::write);
        })
    }

    /// The head record `value` holds, its fields as [`HeadRecord::encode`]
    /// names them.
    pub(super) fn read(value: Value<'_>) -> Result<Self, String> {
        let mut f = Fields::of(
            value,
            "struct HeadRecord",
            &[
                "content",
                "format",
                "kind",
                "scope",
                "id",
                "revision",
                "updatedAt",
                "updatedBy",
                "snapshots",
                "audit",
            ],
        )?;
        Ok(Self {
            format: f.string("format")?,
            kind: f.string("kind")?,
            scope: f.string("scope")?,
            id: f.string("id")?,
            revision: f.whole("revision", u64::MAX, "u64")?,
            content: f.string("content")?,
            updated_at: f.string("updatedAt")?,
            updated_by: f.optional_string("updatedBy")?,
            snapshots: f.list("snapshots", false, SnapshotRef::read)?,
            audit: f.list("audit", false, AuditEntry::read)?,
        })
    }

    /// Decode and check the head record read from `key` for `r`. Never
    /// inlined: its callers (a read, an export, an import) share one copy
    /// (the module's size), and a call is nothing beside the decoding.
    #[inline(never)]
    pub(crate) fn decode<E>(
        key: &str,
        prefix: &str,
        r: &MemoryRef,
        value: &str,
    ) -> Result<Self, StoreError<E>> {
        let head = decode(key, value, Self::read)?;
        let corrupt = |reason: String| StoreError::CorruptRecord {
            key: key.to_owned(),
            reason,
        };
        check_kind_and_owner(key, &head.kind, "head", &head.scope, &head.id, r)?;
        if head.revision == 0 || head.revision > MAX_REVISION {
            return Err(corrupt(format!(
                "revision {} is outside 1..={MAX_REVISION}",
                head.revision
            )));
        }
        if head.snapshots.first().map(|s| s.revision) != Some(head.revision) {
            return Err(corrupt(
                "the first snapshot is not the current revision".to_owned(),
            ));
        }
        let own = snapshot_key_prefix(prefix, r);
        let mut last = u64::MAX;
        for s in &head.snapshots {
            if s.revision >= last || s.revision == 0 {
                return Err(corrupt("snapshots are not newest first".to_owned()));
            }
            if !s.key.starts_with(&own) {
                return Err(corrupt(format!(
                    "snapshot key {} belongs to another memory",
                    Quoted(&s.key)
                )));
            }
            last = s.revision;
        }
        let mut last = u64::MAX;
        for a in &head.audit {
            if a.revision >= last || a.revision > head.revision {
                return Err(corrupt("audit entries are not newest first".to_owned()));
            }
            last = a.revision;
        }
        Ok(head)
    }

    /// The head that follows `previous` (`None` for a new memory) once
    /// `snapshot` is stored at `snapshot_key`: the snapshot list and the
    /// audit trail gain the new revision and keep at most `depth` entries.
    pub(crate) fn next(
        previous: Option<&Self>,
        snapshot: &SnapshotRecord,
        snapshot_key: String,
        codes: Vec<String>,
        archived: Vec<ArchivedEntry>,
        depth: usize,
    ) -> Self {
        let (previous_chars, old_snapshots, old_audit) = match previous {
            Some(h) => (char_count(&h.content), h.snapshots.clone(), h.audit.clone()),
            None => (0, Vec::new(), Vec::new()),
        };
        let chars = char_count(&snapshot.content);
        let entry = AuditEntry {
            revision: snapshot.revision,
            at: snapshot.at.clone(),
            actor: snapshot.actor.clone(),
            chars,
            delta: signed(chars).saturating_sub(signed(previous_chars)),
            codes,
            archived,
        };
        let current = SnapshotRef {
            revision: snapshot.revision,
            key: snapshot_key,
        };
        Self {
            format: RECORD_FORMAT.to_owned(),
            kind: "head".to_owned(),
            scope: snapshot.scope.clone(),
            id: snapshot.id.clone(),
            revision: snapshot.revision,
            content: snapshot.content.clone(),
            updated_at: snapshot.at.clone(),
            updated_by: snapshot.actor.clone(),
            snapshots: std::iter::once(current)
                .chain(old_snapshots)
                .take(depth)
                .collect(),
            audit: std::iter::once(entry)
                .chain(old_audit)
                .take(depth)
                .collect(),
        }
    }

    /// The key of `revision`'s snapshot, when it is still kept.
    pub(crate) fn snapshot_key(&self, revision: u64) -> Option<&str> {
        self.snapshots
            .iter()
            .find(|s| s.revision == revision)
            .map(|s| s.key.as_str())
    }

    /// The oldest revision still readable.
    pub(crate) fn oldest_kept(&self) -> u64 {
        self.snapshots.last().map_or(self.revision, |s| s.revision)
    }
}

impl SnapshotRecord {
    /// The record as compact JSON, its fields in the order
    /// [`SnapshotRecord::read`] names them (the content first, see
    /// [`HeadRecord::encode_with`]), and where in it the content's JSON
    /// string is.
    pub(crate) fn encode_marked(&self) -> (String, Range<usize>) {
        let mut content = 0..0;
        let text = object(self.content.len() + 256, |o| {
            content = o.string_at("content", &self.content);
            o.string("format", &self.format)
                .string("kind", &self.kind)
                .string("scope", &self.scope)
                .string("id", &self.id)
                .number("revision", self.revision)
                .string("at", &self.at)
                .optional_string("actor", self.actor.as_deref());
        });
        (text, content)
    }

    /// The snapshot record `value` holds.
    pub(super) fn read(value: Value<'_>) -> Result<Self, String> {
        let mut f = Fields::of(
            value,
            "struct SnapshotRecord",
            &[
                "content", "format", "kind", "scope", "id", "revision", "at", "actor",
            ],
        )?;
        Ok(Self {
            format: f.string("format")?,
            kind: f.string("kind")?,
            scope: f.string("scope")?,
            id: f.string("id")?,
            revision: f.whole("revision", u64::MAX, "u64")?,
            content: f.string("content")?,
            at: f.string("at")?,
            actor: f.optional_string("actor")?,
        })
    }

    /// Decode and check the snapshot of `revision` of `r` read from `key`
    /// (never inlined, as [`HeadRecord::decode`]).
    #[inline(never)]
    pub(crate) fn decode<E>(
        key: &str,
        r: &MemoryRef,
        revision: u64,
        value: &str,
    ) -> Result<Self, StoreError<E>> {
        let snap = decode(key, value, Self::read)?;
        check_kind_and_owner(key, &snap.kind, "snapshot", &snap.scope, &snap.id, r)?;
        if snap.revision != revision {
            return Err(StoreError::CorruptRecord {
                key: key.to_owned(),
                reason: format!(
                    "holds revision {}, the head names it for revision {revision}",
                    snap.revision
                ),
            });
        }
        Ok(snap)
    }
}

impl SnapshotRef {
    fn write(&self, o: &mut Object<'_>) {
        o.number("revision", self.revision).string("key", &self.key);
    }

    pub(super) fn read(value: Value<'_>) -> Result<Self, String> {
        let mut f = Fields::of(value, "struct SnapshotRef", &["revision", "key"])?;
        Ok(Self {
            revision: f.whole("revision", u64::MAX, "u64")?,
            key: f.string("key")?,
        })
    }
}

impl AuditEntry {
    /// Without `archived` when there is nothing in it.
    fn write(&self, o: &mut Object<'_>) {
        o.number("revision", self.revision)
            .string("at", &self.at)
            .optional_string("actor", self.actor.as_deref())
            .number("chars", self.chars)
            .number("delta", self.delta)
            .strings("codes", &self.codes);
        if !self.archived.is_empty() {
            o.objects("archived", &self.archived, ArchivedEntry::write);
        }
    }

    pub(super) fn read(value: Value<'_>) -> Result<Self, String> {
        let mut f = Fields::of(
            value,
            "struct AuditEntry",
            &[
                "revision", "at", "actor", "chars", "delta", "codes", "archived",
            ],
        )?;
        let max_chars = u64::try_from(usize::MAX).unwrap_or(u64::MAX);
        Ok(Self {
            revision: f.whole("revision", u64::MAX, "u64")?,
            at: f.string("at")?,
            actor: f.optional_string("actor")?,
            // At most `usize::MAX`, checked above.
            chars: usize::try_from(f.whole("chars", max_chars, "usize")?).unwrap_or(usize::MAX),
            delta: f.signed("delta")?,
            codes: f.list("codes", false, string)?,
            archived: f.list("archived", true, ArchivedEntry::read)?,
        })
    }
}

impl ArchivedEntry {
    fn write(&self, o: &mut Object<'_>) {
        o.string("section", &self.section)
            .string("date", &self.date)
            .string("text", &self.text);
    }

    pub(super) fn read(value: Value<'_>) -> Result<Self, String> {
        let mut f = Fields::of(value, "struct ArchivedEntry", &["section", "date", "text"])?;
        Ok(Self {
            section: f.string("section")?,
            date: f.string("date")?,
            text: f.string("text")?,
        })
    }
}

fn signed(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The record in `value`, read by `read`. The format tag is checked first:
/// a record of another format is reported as such, whatever its fields,
/// rather than as a mismatch of fields.
fn decode<T, E>(
    key: &str,
    value: &str,
    read: fn(Value<'_>) -> Result<T, String>,
) -> Result<T, StoreError<E>> {
    let corrupt = |reason: String| StoreError::CorruptRecord {
        key: key.to_owned(),
        reason,
    };
    let value = from_json(value).map_err(|e| corrupt(format!("not a memdoc record: {e}")))?;
    if let Value::Object(entries) = &value {
        match entries.iter().find(|(name, _)| name == "format") {
            None => return Err(corrupt("no \"format\" field".to_owned())),
            Some((_, Value::Str(format))) if format != RECORD_FORMAT => {
                return Err(StoreError::UnsupportedFormat {
                    key: key.to_owned(),
                    format: format.to_string(),
                })
            }
            // `read` says what else is wrong, a tag that is not a string too.
            Some(_) => {}
        }
    }
    read(value).map_err(corrupt)
}

fn check_kind_and_owner<E>(
    key: &str,
    kind: &str,
    want: &str,
    scope: &str,
    id: &str,
    r: &MemoryRef,
) -> Result<(), StoreError<E>> {
    let reason = if kind != want {
        format!(
            "a {} record where a {} record belongs",
            Quoted(kind),
            Quoted(want)
        )
    } else if scope != r.scope().as_str() || id != r.id() {
        format!(
            "a record of {scope}/{id} where {}/{} belongs",
            r.scope().as_str(),
            r.id()
        )
    } else {
        return Ok(());
    };
    Err(StoreError::CorruptRecord {
        key: key.to_owned(),
        reason,
    })
}
