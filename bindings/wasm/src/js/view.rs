//! The engine's results as JavaScript sees them (docs/API.md): camelCase
//! fields, string enums, and every byte span turned into a UTF-16 range with
//! a [`LineIndex`] over the text that was passed in. A result that only
//! copies fields (`Usage`) serializes as the core type instead.

use crate::js::name::Name;
use serde::Serialize;

use memdoc::Diagnostic;
use memdoc::Report;
use memdoc::SavePlan;
use memdoc::Usage;
use memdoc::{Document, Line};
use memdoc::{LineIndex, Range};

/// A finding about a document.
///
/// A [`Diagnostic`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Diagnostic"))]
#[serde(rename_all = "camelCase")]
pub struct DiagnosticView {
    /// The stable code.
    #[cfg_attr(test, ts(type = "DiagnosticCode"))]
    pub code: Name,
    /// An error blocks a save; a warning does not.
    #[cfg_attr(test, ts(as = "memdoc::Severity"))]
    pub severity: Name,
    /// One human sentence.
    pub message: String,
    /// How to fix it, or `null`.
    pub help: Option<String>,
    /// In the text that was passed in; `null` for the whole document.
    pub range: Option<Range>,
}

impl DiagnosticView {
    /// Convert a diagnostic whose span is in the text `index` was built on.
    #[must_use]
    pub fn new(d: &Diagnostic, index: &LineIndex<'_>) -> Self {
        Self {
            code: Name(d.code.as_str()),
            severity: Name(d.severity.as_str()),
            message: d.message.clone(),
            help: d.help.clone(),
            range: d.span.map(|s| index.range(s)),
        }
    }
}

fn diagnostics(ds: &[Diagnostic], text: &str) -> Vec<DiagnosticView> {
    let index = LineIndex::new(text);
    ds.iter().map(|d| DiagnosticView::new(d, &index)).collect()
}

/// The result of `validate`.
///
/// A [`Report`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Report"))]
#[serde(rename_all = "camelCase")]
pub struct ReportView {
    /// No finding is an error.
    pub ok: bool,
    /// The canonical form.
    pub canonical: String,
    /// The size of the canonical form.
    pub usage: Usage,
    /// The findings.
    pub diagnostics: Vec<DiagnosticView>,
}

impl ReportView {
    /// Convert the report of validating `text` (its canonical form is
    /// taken over, not copied).
    #[must_use]
    pub fn new(report: Report, text: &str) -> Self {
        Self {
            ok: report.ok,
            usage: report.usage,
            diagnostics: diagnostics(&report.diagnostics, text),
            canonical: report.canonical,
        }
    }
}

/// The result of `planSave`.
///
/// A [`SavePlan`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "SavePlan"))]
#[serde(rename_all = "camelCase")]
pub struct SavePlanView {
    /// What the save does.
    #[cfg_attr(test, ts(as = "memdoc::SaveStatus"))]
    pub status: Name,
    /// What the store should hold afterwards.
    pub content: String,
    /// Whether `content` differs from the previous document.
    pub changed: bool,
    /// The size of the proposed canonical form.
    pub usage: Usage,
    /// The findings; ranges in the updated text.
    pub diagnostics: Vec<DiagnosticView>,
    /// Preamble lines that were not kept.
    pub dropped: Vec<String>,
}

impl SavePlanView {
    /// Convert the plan of saving `updated` (its content and dropped lines
    /// are taken over, not copied).
    #[must_use]
    pub fn new(plan: SavePlan, updated: &str) -> Self {
        Self {
            status: Name(plan.status.as_str()),
            changed: plan.changed,
            usage: plan.usage,
            diagnostics: diagnostics(&plan.diagnostics, updated),
            content: plan.content,
            dropped: plan.dropped,
        }
    }
}

/// The result of `parse`: the sections and the preamble.
///
/// A [`Document`] as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "MemoryDocument"))]
#[serde(rename_all = "camelCase")]
pub struct DocumentView<'a> {
    /// The sections, in order.
    pub sections: Vec<SectionView<'a>>,
    /// Lines before the first heading, which are not kept.
    // Always raw lines: a `LineView` rather than a `RawLineView` only so that
    // the .wasm serializes one kind of line list.
    #[cfg_attr(test, ts(as = "Vec<RawLineView<'a>>"))]
    pub preamble: Vec<LineView<'a>>,
}

/// A section: its heading and lines.
///
/// A [`Section`](memdoc::Section) as JavaScript sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Section"))]
#[serde(rename_all = "camelCase")]
pub struct SectionView<'a> {
    /// The title, as written.
    pub title: &'a str,
    /// `false` for the implicit "Memory" section.
    pub explicit: bool,
    /// The heading line (the first entry when implicit).
    pub range: Range,
    /// The lines, in order.
    pub lines: Vec<LineView<'a>>,
}

/// A line of a section: an entry or any other line (`kind` tells which).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Line"))]
#[serde(untagged)]
pub enum LineView<'a> {
    /// A dated entry.
    Entry(EntryView<'a>),
    /// Any other line.
    Raw(RawLineView<'a>),
}

/// A dated entry `- YYYY-MM-DD: text`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Entry"))]
#[serde(rename_all = "camelCase")]
pub struct EntryView<'a> {
    /// Always `"entry"`.
    // `Self::KIND`: private, so that only `new` builds one.
    #[cfg_attr(test, ts(type = "\"entry\""))]
    kind: Name,
    /// `YYYY-MM-DD`.
    pub date: &'a str,
    /// The text after the date.
    pub text: &'a str,
    /// The marker of a legacy `- (YYYY-MM-DD) [marker] text` entry, or
    /// `null`.
    #[cfg_attr(test, ts(as = "Option<memdoc::LegacyMarker>", inline))]
    pub legacy_marker: Option<Name>,
    /// The entry's line.
    pub range: Range,
}

/// Any other line, trailing white space removed.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "RawLine"))]
#[serde(rename_all = "camelCase")]
pub struct RawLineView<'a> {
    /// Always `"raw"`.
    // `Self::KIND`: private, so that only `new` builds one.
    #[cfg_attr(test, ts(type = "\"raw\""))]
    kind: Name,
    /// The line without trailing white space.
    pub text: &'a str,
    /// The line.
    pub range: Range,
}

impl<'a> EntryView<'a> {
    /// Its `kind`.
    pub const KIND: Name = Name("entry");

    /// Convert an entry found in the text `index` was built on.
    #[must_use]
    pub fn new(e: &'a memdoc::Entry<'_>, index: &LineIndex<'_>) -> Self {
        Self {
            kind: EntryView::KIND,
            date: &e.date,
            text: &e.text,
            legacy_marker: e.legacy_marker.map(|m| Name(m.as_str())),
            range: index.range(e.span),
        }
    }
}

impl<'a> RawLineView<'a> {
    /// Its `kind`.
    pub const KIND: Name = Name("raw");

    /// Convert a raw line found in the text `index` was built on.
    #[must_use]
    pub fn new(r: &'a memdoc::RawLine<'_>, index: &LineIndex<'_>) -> Self {
        Self {
            kind: RawLineView::KIND,
            text: &r.text,
            range: index.range(r.span),
        }
    }
}

impl<'a> DocumentView<'a> {
    /// Convert the document parsed from `text`.
    #[must_use]
    pub fn new(doc: &'a Document<'_>, text: &str) -> Self {
        let index = LineIndex::new(text);
        let line = |l: &'a Line<'_>| match l {
            Line::Entry(e) => LineView::Entry(EntryView::new(e, &index)),
            Line::Raw(r) => LineView::Raw(RawLineView::new(r, &index)),
        };
        Self {
            sections: doc
                .sections
                .iter()
                .map(|s| SectionView {
                    title: &s.title,
                    explicit: s.explicit,
                    range: index.range(s.span),
                    lines: s.lines.iter().map(line).collect(),
                })
                .collect(),
            preamble: doc
                .preamble
                .iter()
                .map(|r| LineView::Raw(RawLineView::new(r, &index)))
                .collect(),
        }
    }
}
