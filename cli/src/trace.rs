//! `memdoc recall --trace`: why an entry was not recalled. After the
//! recalled document, the items below the cut, best score first, each with
//! the reason the engine gave (`budget`, `no-match` under the relevance
//! floor, `too-large`, and any other the engine reports), after a line with
//! how many were left out for each reason.

use std::fmt::Write as _;

use memdoc::Recall;

use super::explain::thousandths;
use super::printable;

/// The trace of `recall`, to print after its content.
#[must_use]
pub fn trace(recall: &Recall) -> String {
    let mut out = String::new();
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for item in &recall.omitted {
        let reason = item.reason.as_str();
        match counts.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, n)) => *n += 1,
            None => counts.push((reason, 1)),
        }
    }
    let by_reason = counts
        .iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let _ = writeln!(
        out,
        "# not recalled: {} of {} items{}",
        recall.omitted.len(),
        recall.totals.items,
        if by_reason.is_empty() {
            String::new()
        } else {
            format!(" ({by_reason})")
        }
    );
    let mut omitted: Vec<_> = recall.omitted.iter().collect();
    omitted.sort_by(|a, b| b.score.total_cmp(&a.score));
    for item in omitted {
        let date = item
            .date
            .as_deref()
            .map(|d| format!("{d}: "))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{}\t{}\t[{}] {date}{}",
            item.reason.as_str(),
            thousandths(item.score),
            printable(&item.section),
            printable(item.text.lines().next().unwrap_or(""))
        );
    }
    out
}
