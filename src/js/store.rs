//! The store's results as JavaScript sees them (API.md) where they differ
//! from the core types: diagnostic ranges in UTF-16 positions of the text
//! they were found in, and an audit entry's `archived` list always present.
//! `Loaded` and `ArchivedEntry` serialize as they are.

use serde::Serialize;

use crate::limits::Usage;
use crate::span::LineIndex;
use crate::store::{ArchivedEntry, AuditEntry, SaveOutcome};

use super::view::DiagnosticView;

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
    pub usage: Usage,
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
            usage: o.usage,
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
    /// Entries compaction removed to make this revision fit, or a sweep
    /// expired (usually empty).
    pub archived: Vec<ArchivedEntry>,
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
            archived: a.archived.clone(),
        }
    }
}
