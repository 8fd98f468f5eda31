//! The save plan (docs/FORMAT.md §10): what a store should hold after an agent or
//! a person hands in an updated document. No-op sentinels keep the memory;
//! a reply wrapped in one code fence is unwrapped; the canonical form is
//! validated against the previous document; an error, or an erase that was
//! not allowed, leaves the previous document untouched.

use crate::diagnostic::{sort, Code, Diagnostic, Severity};
use crate::fast;
use crate::limits::Usage;
use crate::lines::lines;
use crate::options::SaveOptions;
use crate::parse::{parse, Fence};
use crate::validate::{validate_parsed, PreviousHeadings};

/// The replies that mean "nothing to change" (compared trimmed, upper-cased).
pub const NO_OP_SENTINELS: [&str; 4] = ["NO_UPDATE", "NO UPDATE", "NO_CHANGE", "NO CHANGE"];

/// What a save does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "snake_case")
)]
pub enum SaveStatus {
    /// The canonical form is to be stored.
    Saved,
    /// A sentinel: keep the previous document.
    NoOp,
    /// An error: keep the previous document.
    Rejected,
}

impl SaveStatus {
    /// `"saved"`, `"no_op"` or `"rejected"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Saved => "saved",
            Self::NoOp => "no_op",
            Self::Rejected => "rejected",
        }
    }
}

/// The result of [`plan_save`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavePlan {
    /// What the save does.
    pub status: SaveStatus,
    /// What the store should hold afterwards: the canonical form when saved,
    /// otherwise the previous document exactly as it was.
    pub content: String,
    /// Whether `content` differs from the previous document.
    pub changed: bool,
    /// The proposed canonical form: what `updated` (the inside of its code
    /// fence, when it is one fenced block) renders to, whatever the status;
    /// `content` for a no-op. A caller that wants to retry a rejected save
    /// (shorter, or rewritten) starts from it instead of parsing again.
    pub proposed: String,
    /// The size of [`SavePlan::proposed`].
    pub usage: Usage,
    /// Every finding, errors and warnings; ranges are in `updated`.
    pub diagnostics: Vec<Diagnostic>,
    /// The preamble lines that were not kept.
    pub dropped: Vec<String>,
}

/// Whether `text` is one of the no-op sentinels.
#[must_use]
pub fn is_sentinel(text: &str) -> bool {
    let t = text.trim();
    // The sentinels are ASCII, and no other character upper-cases to
    // letters, spaces or underscores only (`ß` is `SS`, `ſ` is `S`, `ﬁ` is
    // `FI`: none of them in a sentinel; a test checks every character). So
    // upper-casing as Unicode and as ASCII agree on every text that can be
    // a sentinel, and the module carries no upper-case table for this.
    t.len() <= NO_OP_SENTINELS.iter().map(|s| s.len()).max().unwrap_or(0)
        && t.is_ascii()
        && NO_OP_SENTINELS.iter().any(|s| s.eq_ignore_ascii_case(t))
}

/// Plan the save of `updated` over `options.validate.previous`.
///
/// ```
/// use memdoc::{plan_save, SaveOptions, SaveStatus, ValidateOptions};
/// let opts = SaveOptions {
///     validate: ValidateOptions { previous: Some("## Facts\n- 2025-01-01: old".into()), ..Default::default() },
///     ..Default::default()
/// };
/// let plan = plan_save("Nothing new to remember.", &opts);
/// assert_eq!(plan.status, SaveStatus::Rejected);
/// assert_eq!(plan.content, "## Facts\n- 2025-01-01: old");
/// ```
#[must_use]
pub fn plan_save(updated: &str, options: &SaveOptions) -> SavePlan {
    plan_save_with(updated, options, None)
}

/// [`plan_save`] with the headings of `options.validate.previous` when the
/// caller has them already (`None`: found when needed).
#[must_use]
pub fn plan_save_with(
    updated: &str,
    options: &SaveOptions,
    headings: Option<&PreviousHeadings>,
) -> SavePlan {
    let previous = options.validate.previous.as_deref().unwrap_or_default();
    if is_sentinel(updated) {
        return SavePlan {
            status: SaveStatus::NoOp,
            usage: Usage::of_canonical(previous, options.validate.limits),
            proposed: previous.to_owned(),
            content: previous.to_owned(),
            changed: false,
            diagnostics: Vec::new(),
            dropped: Vec::new(),
        };
    }
    let (offset, body) = unwrap_fenced_reply(updated).unwrap_or((0, updated));
    let doc = parse(body);
    let canonical = doc.render_from(body);
    let mut report = validate_parsed(body, &doc, canonical, &options.validate, headings);
    for d in &mut report.diagnostics {
        d.span = d.span.map(|s| s.shifted(offset));
    }
    // A stored memory counts as non-empty when it holds any text, even text
    // that renders to nothing (a heading-less note SurfSense let through):
    // replacing it with nothing would lose it without a word.
    if report.canonical.is_empty() && !previous.trim().is_empty() && !options.allow_erase {
        report.diagnostics.push(
            Diagnostic::new(
                Code::WouldErase,
                "This save would replace the stored memory with an empty one.",
                None,
            )
            .with_help("Send a no-op reply such as NO_UPDATE to keep the memory, or allow the erase explicitly."),
        );
        sort(&mut report.diagnostics);
    }
    let rejected = report
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    let dropped = doc
        .preamble
        .iter()
        .map(|raw| raw.text.to_string())
        .collect();
    let content = if rejected {
        previous.to_owned()
    } else {
        report.canonical.clone()
    };
    SavePlan {
        status: if rejected {
            SaveStatus::Rejected
        } else {
            SaveStatus::Saved
        },
        // A rejected plan keeps the previous content: not compared.
        changed: !rejected && !fast::eq(&content, previous),
        content,
        proposed: report.canonical,
        usage: report.usage,
        diagnostics: report.diagnostics,
        dropped,
    }
}

/// When the whole trimmed reply is one fenced block, its inner text and the
/// byte offset of that text in `reply`. SurfSense dropped the opening fence
/// and stored the closing one.
fn unwrap_fenced_reply(reply: &str) -> Option<(usize, &str)> {
    let lead = reply.len() - reply.trim_start().len();
    let trimmed = reply.trim();
    // Most replies do not start with a fence: decide that before splitting
    // the whole reply into lines.
    Fence::open(lines(trimmed).next()?.1)?;
    let all: Vec<(usize, &str)> = lines(trimmed).collect();
    let (&(_, first), rest) = all.split_first()?;
    let (&(last_start, last), inner) = rest.split_last()?;
    let fence = Fence::open(first)?;
    if !fence.is_closed_by(last) || inner.iter().any(|&(_, l)| fence.is_closed_by(l)) {
        return None;
    }
    let Some(&(start, _)) = inner.first() else {
        return Some((lead, ""));
    };
    // The inner text ends before the line break that precedes the closing line.
    let mut end = last_start;
    let bytes = trimmed.as_bytes();
    if end > start && bytes[end - 1] == b'\n' {
        end -= 1;
    }
    if end > start && bytes[end - 1] == b'\r' {
        end -= 1;
    }
    Some((lead + start, &trimmed[start..end.max(start)]))
}
