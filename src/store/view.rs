//! The JSON-compatible views of the store's results and the loosely typed
//! memory reference, as the JavaScript API (API.md) shapes them: camelCase
//! fields, string statuses, `null` for absent values, and diagnostic ranges
//! in UTF-16 positions of the text the diagnostics were found in.

use serde::{Deserialize, Serialize};

use crate::span::LineIndex;
use crate::view::{DiagnosticView, UsageView};

use super::error::StoreError;
use super::key::MemoryRef;
use super::record::AuditEntry;
use super::{Loaded, SaveOutcome};

/// [`Loaded`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct LoadedView {
    /// The content.
    pub content: String,
    /// The current revision (0 = nothing stored).
    pub revision: u64,
    /// When it was saved, or `null`.
    pub updated_at: Option<String>,
    /// Who saved it, or `null`.
    pub updated_by: Option<String>,
    /// Its size.
    pub usage: UsageView,
}

impl From<&Loaded> for LoadedView {
    fn from(l: &Loaded) -> Self {
        Self {
            content: l.content.clone(),
            revision: l.revision,
            updated_at: l.updated_at.clone(),
            updated_by: l.updated_by.clone(),
            usage: (&l.usage).into(),
        }
    }
}

/// [`SaveOutcome`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SaveOutcomeView {
    /// `"saved"`, `"no_op"`, `"rejected"` or `"conflict"`.
    pub status: &'static str,
    /// What the store holds now.
    pub content: String,
    /// Whether this save changed it.
    pub changed: bool,
    /// Size of the planned content.
    pub usage: UsageView,
    /// Findings, UTF-16 ranges in the text they were found in.
    pub diagnostics: Vec<DiagnosticView>,
    /// Preamble lines not kept.
    pub dropped: Vec<String>,
    /// The revision stored now.
    pub revision: u64,
    /// A notice, or `null`.
    pub notice: Option<String>,
}

impl From<&SaveOutcome> for SaveOutcomeView {
    fn from(o: &SaveOutcome) -> Self {
        let index = LineIndex::new(&o.source);
        Self {
            status: o.status.as_str(),
            content: o.content.clone(),
            changed: o.changed,
            usage: (&o.usage).into(),
            diagnostics: o
                .diagnostics
                .iter()
                .map(|d| DiagnosticView::new(d, &index))
                .collect(),
            dropped: o.dropped.clone(),
            revision: o.revision,
            notice: o.notice.clone(),
        }
    }
}

/// An [`AuditEntry`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntryView {
    /// The revision.
    pub revision: u64,
    /// When.
    pub at: String,
    /// Who, or `null`.
    pub actor: Option<String>,
    /// Size in code points.
    pub chars: usize,
    /// Size change.
    pub delta: i64,
    /// Diagnostic codes of the save.
    pub codes: Vec<String>,
    /// Entries compaction removed to make this revision fit (usually empty).
    pub archived: Vec<ArchivedEntryView>,
}

/// An [`ArchivedEntry`](super::ArchivedEntry) as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ArchivedEntryView {
    /// Section title.
    pub section: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Text.
    pub text: String,
}

impl From<&AuditEntry> for AuditEntryView {
    fn from(a: &AuditEntry) -> Self {
        Self {
            revision: a.revision,
            at: a.at.clone(),
            actor: a.actor.clone(),
            chars: a.chars,
            delta: a.delta,
            codes: a.codes.clone(),
            archived: a
                .archived
                .iter()
                .map(|e| ArchivedEntryView {
                    section: e.section.clone(),
                    date: e.date.clone(),
                    text: e.text.clone(),
                })
                .collect(),
        }
    }
}

/// A `MemoryRef` as it arrives from JavaScript: `{ scope, id }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryRefInput {
    /// `"user"` or `"team"`.
    pub scope: String,
    /// The id.
    pub id: String,
}

impl MemoryRefInput {
    /// The checked reference.
    ///
    /// # Errors
    /// `options/invalid-scope`, `store/invalid-id`.
    pub fn resolve<E>(&self) -> Result<MemoryRef, StoreError<E>> {
        MemoryRef::parse(&self.scope, &self.id)
    }
}
