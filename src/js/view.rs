//! The engine's results as JavaScript sees them (docs/API.md): camelCase
//! fields, string enums, and every byte span turned into a UTF-16 range with
//! a [`LineIndex`] over the text that was passed in. A result that only
//! copies fields (`Usage`) serializes as the core type instead.

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::document::{Document, Line};
use crate::limits::Usage;
use crate::save::SavePlan;
use crate::span::{LineIndex, Range};
use crate::validate::Report;

/// A [`Diagnostic`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DiagnosticView {
    /// The stable code.
    pub code: &'static str,
    /// `"error"`, `"warning"` or `"info"`.
    pub severity: &'static str,
    /// One sentence.
    pub message: String,
    /// Help, or `null`.
    pub help: Option<String>,
    /// UTF-16 range, or `null` for the whole document.
    pub range: Option<Range>,
}

impl DiagnosticView {
    /// Convert a diagnostic whose span is in the text `index` was built on.
    #[must_use]
    pub fn new(d: &Diagnostic, index: &LineIndex<'_>) -> Self {
        Self {
            code: d.code.as_str(),
            severity: d.severity.as_str(),
            message: d.message.clone(),
            help: d.help.clone(),
            range: d.span.map(|s| index.range(s)),
        }
    }
}

fn diagnostics(ds: &[Diagnostic], text: &str) -> Vec<DiagnosticView> {
    // Indexing the lines is a pass over the whole text: only when a range
    // needs it (most saves have no ranged finding).
    if ds.iter().all(|d| d.span.is_none()) {
        let empty = LineIndex::new("");
        return ds.iter().map(|d| DiagnosticView::new(d, &empty)).collect();
    }
    let index = LineIndex::new(text);
    ds.iter().map(|d| DiagnosticView::new(d, &index)).collect()
}

/// A [`Report`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ReportView {
    /// No error.
    pub ok: bool,
    /// Canonical form.
    pub canonical: String,
    /// Size of the canonical form.
    pub usage: Usage,
    /// Findings.
    pub diagnostics: Vec<DiagnosticView>,
}

impl ReportView {
    /// Convert the report of validating `text`.
    #[must_use]
    pub fn new(report: &Report, text: &str) -> Self {
        Self {
            ok: report.ok,
            canonical: report.canonical.clone(),
            usage: report.usage,
            diagnostics: diagnostics(&report.diagnostics, text),
        }
    }
}

/// A [`SavePlan`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SavePlanView {
    /// `"saved"`, `"no_op"` or `"rejected"`.
    pub status: &'static str,
    /// What the store should hold.
    pub content: String,
    /// Whether it differs from the previous document.
    pub changed: bool,
    /// Size of the proposed canonical form.
    pub usage: Usage,
    /// Findings, ranges in `updated`.
    pub diagnostics: Vec<DiagnosticView>,
    /// Preamble lines not kept.
    pub dropped: Vec<String>,
}

impl SavePlanView {
    /// Convert the plan of saving `updated`.
    #[must_use]
    pub fn new(plan: &SavePlan, updated: &str) -> Self {
        Self {
            status: plan.status.as_str(),
            content: plan.content.clone(),
            changed: plan.changed,
            usage: plan.usage,
            diagnostics: diagnostics(&plan.diagnostics, updated),
            dropped: plan.dropped.clone(),
        }
    }
}

/// A [`Document`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DocumentView {
    /// Sections.
    pub sections: Vec<SectionView>,
    /// Dropped preamble lines.
    pub preamble: Vec<LineView>,
}

/// A section as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SectionView {
    /// Title.
    pub title: String,
    /// `false` for the implicit `Memory` section.
    pub explicit: bool,
    /// The heading line (first entry when implicit).
    pub range: Range,
    /// Lines.
    pub lines: Vec<LineView>,
}

/// An entry or raw line as JavaScript sees it (`kind` tells which).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum LineView {
    /// A dated entry.
    #[serde(rename_all = "camelCase")]
    Entry {
        /// `YYYY-MM-DD`.
        date: String,
        /// Text.
        text: String,
        /// `"fact"`, `"pref"`, `"instr"` or `null`.
        legacy_marker: Option<&'static str>,
        /// Range.
        range: Range,
    },
    /// A raw line.
    Raw {
        /// Text without trailing white space.
        text: String,
        /// Range.
        range: Range,
    },
}

impl DocumentView {
    /// Convert the document parsed from `text`.
    #[must_use]
    pub fn new(doc: &Document, text: &str) -> Self {
        let index = LineIndex::new(text);
        let line = |l: &Line| match l {
            Line::Entry(e) => LineView::Entry {
                date: e.date.clone(),
                text: e.text.clone(),
                legacy_marker: e.legacy_marker.map(crate::document::LegacyMarker::as_str),
                range: index.range(e.span),
            },
            Line::Raw(r) => LineView::Raw {
                text: r.text.clone(),
                range: index.range(r.span),
            },
        };
        Self {
            sections: doc
                .sections
                .iter()
                .map(|s| SectionView {
                    title: s.title.clone(),
                    explicit: s.explicit,
                    range: index.range(s.span),
                    lines: s.lines.iter().map(line).collect(),
                })
                .collect(),
            preamble: doc
                .preamble
                .iter()
                .map(|r| line(&Line::Raw(r.clone())))
                .collect(),
        }
    }
}
