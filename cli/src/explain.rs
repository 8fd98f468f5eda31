//! `memdoc recall --explain`: after the recalled document, why each item
//! was taken or left out, one line each in document order (`+` taken, `-`
//! left out), with its score, its section, its text, the query's words it
//! holds and the parts of its score (each from 0 to 1), the line of the
//! entry that supersedes it, then the totals, and when nothing answers the
//! question, that it does not.

use std::fmt::Write as _;

use memdoc::thousands;
use memdoc::{Recall, Why};

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
    if t.relevant == 0 {
        out.push_str("# nothing in the memory answers the question\n");
    }
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
    let _ = write!(
        out,
        "{mark} {} [{}] {date}{text} ({terms}; relevance {}, lexical {}",
        thousandths(score),
        printable(section),
        thousandths(why.relevance),
        thousandths(why.lexical.normalized),
    );
    if let Some(semantic) = &why.semantic {
        let _ = write!(out, ", semantic {}", thousandths(semantic.normalized));
    }
    let _ = write!(
        out,
        ", recency {}, priority {}",
        thousandths(why.recency.normalized),
        thousandths(why.priority.normalized)
    );
    if let Some(line) = why.superseded_by {
        let _ = write!(out, "; superseded by line {line}");
    }
    match reason {
        Some("no-match") => out.push_str("; left out: no-match, under the floor of 0.500"),
        Some(reason) => {
            let _ = write!(out, "; left out: {reason}");
        }
        None => {}
    }
    out.push_str(")\n");
}

/// `x` (finite, ≥ 0, as scores and their parts are) with three decimals,
/// rounded: formatted as whole numbers, so that the WebAssembly module
/// carries no float formatting (BENCHMARKS.md, "Module size").
pub(super) fn thousandths(x: f64) -> String {
    // Scores are at most a few units: far within i64.
    #[allow(clippy::cast_possible_truncation)]
    let n = (x.max(0.0) * 1000.0).round() as i64;
    format!("{}.{:03}", n / 1000, n % 1000)
}

#[cfg(test)]
mod tests {
    use super::thousandths;

    #[test]
    fn three_decimals_rounded() {
        assert_eq!(thousandths(0.0), "0.000");
        assert_eq!(thousandths(0.12345), "0.123");
        assert_eq!(thousandths(0.9995), "1.000");
        assert_eq!(thousandths(2.5), "2.500");
    }
}
