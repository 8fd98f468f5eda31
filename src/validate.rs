//! Validation (docs/FORMAT.md §9): one small function per rule, each returning its
//! diagnostics. [`validate`] parses once, renders once, runs every rule and
//! sorts the findings. Ranges point into the text that was passed in; size is
//! measured on the canonical form, because that is what gets stored.

use std::borrow::Cow;

use crate::diagnostic::{sort, Code, Diagnostic};
use crate::document::{Document, Line, Section};
use crate::fast::char_count;
use crate::grouping::{first_equal, TextSet};
use crate::heading::{first_same_key, normalize_each, normalized, section_keys};
use crate::limits::{thousands, Level, Usage};
use crate::options::{Scope, ValidateOptions};
use crate::parse::{explicit_titles, impossible_date, parse};
use crate::span::Span;

/// The result of [`validate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// No finding is an error.
    pub ok: bool,
    /// The canonical form of the text.
    pub canonical: String,
    /// The size of the canonical form.
    pub usage: Usage,
    /// The findings, sorted by position (whole-document first), then code.
    pub diagnostics: Vec<Diagnostic>,
}

/// Validate `text` against the rules of docs/FORMAT.md §9.
///
/// ```
/// use memdoc::{validate, Scope, ValidateOptions};
/// let opts = ValidateOptions { scope: Scope::Team, ..ValidateOptions::default() };
/// let report = validate("## Preferences\n- 2025-01-01: dark mode", &opts);
/// assert!(!report.ok);
/// assert_eq!(report.diagnostics[0].code.as_str(), "scope/personal-heading");
/// ```
#[must_use]
pub fn validate(text: &str, options: &ValidateOptions) -> Report {
    validate_with(text, options, None)
}

/// [`validate`] with the headings of `options.previous` when the caller has
/// them already (`None`: found here).
#[must_use]
pub fn validate_with(
    text: &str,
    options: &ValidateOptions,
    previous: Option<&PreviousHeadings>,
) -> Report {
    let doc = parse(text);
    let canonical = doc.render_from(text);
    validate_parsed(text, &doc, canonical, options, previous)
}

/// [`validate`] for a text that is already parsed, with its canonical form,
/// and the headings of `options.previous` when the caller has them already
/// (`None`: found here).
pub(crate) fn validate_parsed(
    text: &str,
    doc: &Document,
    canonical: String,
    options: &ValidateOptions,
    previous: Option<&PreviousHeadings>,
) -> Report {
    let usage = Usage::of_canonical(&canonical, options.limits);
    let found;
    let previous = match (previous, options.previous.as_deref()) {
        (_, None) => None,
        (Some(given), Some(_)) => Some(given),
        (None, Some(stored)) => {
            found = PreviousHeadings::of(stored);
            Some(&found)
        }
    };
    // Every section's normalized title, once for all the rules below.
    let keys = section_keys(doc);
    let mut diagnostics = Vec::new();
    diagnostics.extend(size(&usage));
    diagnostics.extend(missing_heading(text, doc));
    if options.scope == Scope::Team {
        diagnostics.extend(personal_headings(
            doc,
            &keys,
            previous,
            &options.forbidden_team_headings,
        ));
    }
    if let (Some(previous), Some(stored)) = (previous, options.previous.as_deref()) {
        diagnostics.extend(removed_sections(&keys, previous, stored));
        diagnostics.extend(shrink(usage.chars, stored));
    }
    diagnostics.extend(nonstandard_entries(doc));
    diagnostics.extend(duplicate_headings(doc, &keys));
    diagnostics.extend(unclosed_fence(doc));
    diagnostics.extend(preamble_dropped(doc));
    sort(&mut diagnostics);
    Report {
        ok: !diagnostics.iter().any(Diagnostic::is_error),
        canonical,
        usage,
        diagnostics,
    }
}

fn size(usage: &Usage) -> Option<Diagnostic> {
    match usage.level {
        Level::Ok => None,
        Level::Soft => Some(
            Diagnostic::new(
                Code::SizeSoftLimit,
                format!(
                    "The memory uses {} characters, over the soft limit of {}.",
                    thousands(usage.chars),
                    thousands(usage.soft)
                ),
                None,
            )
            .with_help("Consolidate: merge duplicates, drop outdated entries, shorten long ones."),
        ),
        Level::Hard => Some(
            Diagnostic::new(
                Code::SizeHardLimit,
                format!(
                    "The memory uses {} characters, over the hard limit of {}.",
                    thousands(usage.chars),
                    thousands(usage.hard)
                ),
                None,
            )
            .with_help(format!(
                "Remove at least {} characters before saving.",
                thousands(usage.chars - usage.hard)
            )),
        ),
    }
}

/// Content without any heading or entry renders to nothing: saving it would
/// erase the memory (SurfSense let such text through when it was short).
fn missing_heading(text: &str, doc: &Document) -> Option<Diagnostic> {
    (doc.is_empty() && !text.trim().is_empty()).then(|| {
        Diagnostic::new(
            Code::MissingHeading,
            "The text has no `## ` heading and no dated entry, so nothing of it would be kept.",
            None,
        )
        .with_help("Put the memory under a heading such as `## Facts`, with entries like `- 2025-01-31: text`.")
    })
}

/// What the rules need of the stored document: the titles of its explicit
/// sections, each with its normalized key. Found by scanning the headings
/// only (the stored document's entries play no part), and normalized once
/// for every rule. It holds no borrow of the stored document (its titles
/// are spans of it), so the package keeps it with the stored document it
/// is checked against call after call
/// (bindings/wasm/src/wasm/text/kept.rs, `Kept::derived`) and passes to
/// [`validate_with`] and [`plan_save_with`](crate::plan_save_with).
#[derive(Debug)]
pub struct PreviousHeadings {
    /// Each title's span in the stored document, and its key.
    titles: Vec<(Span, String)>,
}

impl PreviousHeadings {
    /// The headings of `stored`, the document a save would replace.
    #[must_use]
    pub fn of(stored: &str) -> Self {
        let titles: Vec<&str> = explicit_titles(stored).collect();
        let keys = normalize_each(&titles);
        let at = |title: &str| {
            let start = title.as_ptr() as usize - stored.as_ptr() as usize;
            Span::new(start, start + title.len())
        };
        Self {
            titles: titles.into_iter().map(at).zip(keys).collect(),
        }
    }
}

/// `keys`: the normalized title of each section of `doc`.
fn personal_headings(
    doc: &Document<'_>,
    keys: &[String],
    previous: Option<&PreviousHeadings>,
    forbidden: &[String],
) -> Vec<Diagnostic> {
    let forbidden: Vec<Cow<'_, str>> = forbidden.iter().map(|h| normalized(h)).collect();
    let forbidden = TextSet::new(forbidden.iter().map(AsRef::as_ref).collect());
    let found: Vec<(&Section<'_>, &str)> = doc
        .sections
        .iter()
        .zip(keys)
        .filter(|(s, key)| s.explicit && forbidden.contains(key.as_str()))
        .map(|(s, key)| (s, key.as_str()))
        .collect();
    if found.is_empty() {
        return Vec::new();
    }
    let grandfathered = TextSet::new(
        previous
            .map(|p| p.titles.iter().map(|(_, key)| key.as_str()).collect())
            .unwrap_or_default(),
    );
    found
        .into_iter()
        .map(|(section, key)| {
            if grandfathered.contains(key) {
                Diagnostic::new(
                    Code::LegacyPersonalHeading,
                    format!("`## {}` is a personal heading in a team memory; it is kept because the saved memory already had it.", section.title),
                    Some(section.span),
                )
                .with_help("Move personal notes to the user's own memory.")
            } else {
                Diagnostic::new(
                    Code::PersonalHeading,
                    format!("`## {}` is a personal heading, which a team memory must not add.", section.title),
                    Some(section.span),
                )
                .with_help("Put it in the user's own memory, or give the section a team heading such as `## Team Conventions`.")
            }
        })
        .collect()
}

/// `keys`: the normalized title of each section of the document.
/// `stored`: the document `previous` was found in.
fn removed_sections(keys: &[String], previous: &PreviousHeadings, stored: &str) -> Vec<Diagnostic> {
    // Most saves keep every stored section where it was: the stored keys in
    // order among the document's, found in one walk without a set.
    let mut rest = keys.iter();
    if previous
        .titles
        .iter()
        .all(|(_, key)| rest.any(|now| now == key))
    {
        return Vec::new();
    }
    let now = TextSet::new(keys.iter().map(String::as_str).collect());
    let titles = &previous.titles;
    // Each missing key once, at its first title.
    let first = first_equal(titles.len(), &|i| titles[i].1.as_bytes());
    titles
        .iter()
        .zip(first)
        .enumerate()
        .filter(|&(i, ((_, key), first))| first == i && !now.contains(key))
        .map(|(_, ((title, _), _))| {
            let title = title.slice(stored);
            Diagnostic::new(
                Code::SectionRemoved,
                format!("The section `## {title}` of the saved memory is gone."),
                None,
            )
            .with_help("Keep the section if it still holds something worth remembering.")
        })
        .collect()
}

/// Below 40% of the previous size (exactly 40% is fine). The previous size
/// is that of the document as stored, code points as given, not of its
/// canonical form: a legacy memory of prose without headings renders to
/// almost nothing, yet replacing it with a tiny document is the very loss
/// this rule is there to catch.
fn shrink(chars: usize, previous_stored: &str) -> Option<Diagnostic> {
    // A text has at most as many code points as bytes: at 40% of the bytes
    // or more, it cannot have shrunk below 40%, and the count (a pass over
    // the whole stored memory at every save) is not needed.
    if chars * 5 >= previous_stored.len() * 2 {
        return None;
    }
    let before = char_count(previous_stored);
    (chars * 5 < before * 2).then(|| {
        Diagnostic::new(
            Code::Shrink,
            format!(
                "The memory shrinks from {} to {} characters, below 40% of its size.",
                thousands(before),
                thousands(chars)
            ),
            None,
        )
        .with_help("Check that nothing worth keeping was dropped by mistake.")
    })
}

fn nonstandard_line(text: &str) -> String {
    let t = text.trim();
    if char_count(t) > 80 {
        let cut: String = t.chars().take(80).collect();
        format!("{cut}...")
    } else {
        t.to_owned()
    }
}

/// `- ` lines that are not valid entries, outside code fences; preamble
/// lines included; a date the calendar does not have is named as such, on
/// the date. `* x`, `+ x`, `1. x`, `-x` and a bare `-` are ordinary Markdown
/// and are left alone.
fn nonstandard_entries(doc: &Document) -> Vec<Diagnostic> {
    let raw_lines = doc.preamble.iter().chain(doc.sections.iter().flat_map(|s| {
        s.lines.iter().filter_map(|l| match l {
            Line::Raw(raw) => Some(raw),
            Line::Entry(_) => None,
        })
    }));
    raw_lines
        .filter(|raw| !raw.fenced && raw.text.trim_start().starts_with("- "))
        .map(|raw| {
            let (code, message, help, span) = if let Some(date) = impossible_date(&raw.text) {
                let start = raw.span.start + (date.as_ptr() as usize - raw.text.as_ptr() as usize);
                (
                    Code::ImpossibleDate,
                    format!("{date} is not a date of the calendar, so the line is not an entry."),
                    "Fix the date; until then the line is kept as written, undated.",
                    Span::new(start, start + date.len()),
                )
            } else {
                let lead = raw.text.len() - raw.text.trim_start().len();
                (
                    Code::NonstandardEntry,
                    format!(
                        "\"{}\" is not an entry of the form `- YYYY-MM-DD: text`.",
                        nonstandard_line(&raw.text)
                    ),
                    "Write entries as `- 2025-01-31: text` with a real date, or drop the leading `- `.",
                    Span::new(raw.span.start + lead, raw.span.end),
                )
            };
            Diagnostic::new(code, message, Some(span)).with_help(help)
        })
        .collect()
}

/// Titles compared by their section keys; `keys`: the normalized title of
/// each section.
fn duplicate_headings(doc: &Document<'_>, keys: &[String]) -> Vec<Diagnostic> {
    let first = first_same_key(&doc.titles(), keys);
    doc.sections
        .iter()
        .zip(first)
        .enumerate()
        .filter_map(|(i, (s, first))| (first != i).then_some(s))
        .map(|s| {
            Diagnostic::new(
                Code::DuplicateHeading,
                format!("`## {}` repeats the title of an earlier section.", s.title),
                Some(s.span),
            )
            .with_help("Merge the two sections into one.")
        })
        .collect()
}

fn unclosed_fence(doc: &Document) -> Option<Diagnostic> {
    doc.unclosed_fence.map(|span| {
        Diagnostic::new(
            Code::UnclosedFence,
            "This code fence is never closed, so everything after it is code.",
            Some(span),
        )
        .with_help("Close the fence with a line of the same backticks or tildes.")
    })
}

fn preamble_dropped(doc: &Document) -> Vec<Diagnostic> {
    doc.preamble
        .iter()
        .map(|raw| {
            Diagnostic::new(
                Code::PreambleDropped,
                "Text before the first heading is not kept.",
                Some(raw.span),
            )
            .with_help("Move it under a heading, or remove it.")
        })
        .collect()
}
