//! The store's results as JavaScript sees them (API.md) where they differ
//! from the core types: diagnostic ranges in UTF-16 positions of the text
//! they were found in, and an audit entry's `archived` list always present.
//! `Loaded` and `ArchivedEntry` serialize as they are. And what the store
//! passes to the caller's `rewrite` callback.

use crate::js::name::Name;
use serde::Serialize;

use memdoc::store::{ArchivedEntry, AuditEntry, RewriteRequest, SaveOutcome};
use memdoc::LineIndex;
use memdoc::Usage;

use super::merge::ConflictView;
use super::view::DiagnosticView;

/// The result of `save` and `revert`: the `SavePlan` fields and more.
///
/// A [`SaveOutcome`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "SaveOutcome"))]
#[serde(rename_all = "camelCase")]
pub struct SaveOutcomeView {
    /// What the save did.
    #[cfg_attr(test, ts(as = "memdoc::store::StoreStatus"))]
    pub status: Name,
    /// What the store holds now.
    pub content: String,
    /// Whether this save changed the stored content.
    pub changed: bool,
    /// The size of the planned content (of the stored one for a conflict).
    pub usage: Usage,
    /// Ranges point into the text that was planned (the update, the
    /// rewrite's reply or the merge).
    pub diagnostics: Vec<DiagnosticView>,
    /// Preamble lines that were not kept.
    pub dropped: Vec<String>,
    /// The revision stored now.
    pub revision: u64,
    /// E.g. that the content was rewritten, compacted or merged, or why a
    /// conflict happened; otherwise `null`.
    pub notice: Option<String>,
    /// A `merge` save that conflicts: every conflict, as
    /// `merge(base, ours, theirs)` gives it with base = the base revision,
    /// ours = what is stored now (`content`) and theirs = the caller's edit;
    /// each side's range is in that side's text. Otherwise empty.
    pub conflicts: Vec<ConflictView>,
    /// A `merge` save that conflicts: the merged text with conflict markers
    /// (`<<<<<<< stored (revision N)`, what is stored, `=======`, the edit,
    /// `>>>>>>> your edit (from revision B)`) around each conflicting part,
    /// to edit and save with `baseRevision` N. Otherwise `null`.
    pub merged: Option<String>,
}

impl From<&SaveOutcome> for SaveOutcomeView {
    fn from(o: &SaveOutcome) -> Self {
        let index = LineIndex::new(&o.source);
        Self {
            status: Name(o.status.as_str()),
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
            conflicts: o.merge.as_ref().map_or_else(Vec::new, |m| {
                let indexes = [
                    LineIndex::new(&m.base),
                    LineIndex::new(&o.content),
                    LineIndex::new(&m.theirs),
                ];
                m.conflicts
                    .iter()
                    .map(|c| ConflictView::new(c, &indexes))
                    .collect()
            }),
            merged: o.merge.as_ref().map(|m| m.merged.clone()),
        }
    }
}

/// One revision in the audit trail.
///
/// An [`AuditEntry`] as JavaScript sees it (`archived` always present).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "AuditEntry"))]
#[serde(rename_all = "camelCase")]
pub struct AuditEntryView {
    /// The revision this save created.
    pub revision: u64,
    /// ISO timestamp.
    pub at: String,
    /// Who saved it, or `null`.
    pub actor: Option<String>,
    /// Code points of the content.
    pub chars: usize,
    /// Change in code points.
    pub delta: i64,
    /// Diagnostic codes of the save.
    pub codes: Vec<String>,
    /// Entries removed by `compactOverLimit` or by `sweep` (usually empty).
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

/// What the `rewrite` callback is asked to do.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "RewriteRequest"))]
#[serde(rename_all = "camelCase")]
pub struct RewriteRequestView<'a> {
    /// Instructions for a model, ending with the document.
    pub prompt: &'a str,
    /// The canonical document that is over the hard limit.
    pub content: &'a str,
    /// The size to reach, in code points.
    pub target: usize,
}

impl<'a> From<&'a RewriteRequest> for RewriteRequestView<'a> {
    fn from(r: &'a RewriteRequest) -> Self {
        Self {
            prompt: &r.prompt,
            content: &r.content,
            target: r.target,
        }
    }
}
