//! `memdoc recall --explain`: after the recalled document, why each item
//! was taken or left out, one line each in document order (`+` taken, `-`
//! left out), with its score, its section, its text, the query's words it
//! holds and the parts of its score, then the totals.

use std::fmt::Write as _;

use crate::limits::thousands;
use crate::recall::{Recall, Why};

use super::printable;

/// The explanation of `recall`, to print after its content.
#[must_use]
pub fn explain(recall: &Recall) -> String {
    let mut out = String::new();
    for item in &recall.selected {
        line(
            &mut out,
            '+',
            item.score,
            &item.section,
            item.date.as_deref(),
            &item.text,
            &item.why,
            None,
        );
    }
    for item in &recall.omitted {
        line(
            &mut out,
            '-',
            item.score,
            &item.section,
            item.date.as_deref(),
            &item.text,
            &item.why,
            Some(item.reason.as_str()),
        );
    }
    let t = &recall.totals;
    let _ = writeln!(
        out,
        "# {} of {} items, {} of {} characters ({} of the whole memory)",
        t.selected,
        t.items,
        thousands(recall.chars),
        thousands(t.budget),
        thousands(t.memory_chars),
    );
    out
}

#[allow(clippy::too_many_arguments)]
fn line(
    out: &mut String,
    mark: char,
    score: f64,
    section: &str,
    date: Option<&str>,
    text: &str,
    why: &Why,
    reason: Option<&str>,
) {
    let text = printable(text.lines().next().unwrap_or(""));
    let date = date.map(|d| format!("{d}: ")).unwrap_or_default();
    let terms = if why.terms.is_empty() {
        "no query words".to_owned()
    } else {
        why.terms.join(", ")
    };
    let p = &why.parts;
    let _ = write!(
        out,
        "{mark} {score:.3} [{}] {date}{text} ({terms}; relevance {:.3}, recency {:.3}, priority {:.3}",
        printable(section),
        p.relevance,
        p.recency,
        p.priority
    );
    if let Some(reason) = reason {
        let _ = write!(out, "; left out: {reason}");
    }
    out.push_str(")\n");
}
