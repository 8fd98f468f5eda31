//! Supersession (docs/FORMAT.md §12, "The current fact first"): which
//! entries a later entry of the same section replaces. A memory keeps dated
//! entries, and a later one often states the same thing about the same
//! subject with another value ("Services use `PostgreSQL` 16", later
//! "Services use `PostgreSQL` 17"); recall ranks the newer first and never
//! returns the older without it.
//!
//! Two entries of one section state the same thing when they open with the
//! same subject (their first content terms, stop words apart, are one
//! term: "Their phone is …", "The trial lasts …") and their content terms
//! overlap: twice the terms they share are at least a third of the terms
//! of the two together (the Dice coefficient at least 1/3), so that a
//! subject with another value is the same thing ("phone", "Pixel 7",
//! "iPhone 15": 2 of 6), and two entries that share little more than a
//! leading word are not ("Team plans cap file uploads at 100 MB", "Team
//! plans show usage charts to admins": 4 of 13). Only the entries that
//! answer the query are looked at, against every later entry of their
//! section. Words only, so the result is the same with or without vectors,
//! on every platform.

/// What supersession needs of an item.
pub(crate) struct Dated<'a> {
    /// The section's index.
    pub section: usize,
    /// The entry's date; none for a line that is not an entry.
    pub date: Option<&'a str>,
    /// The content terms, each once, in the text's order (terms are
    /// numbered, [`super::lexicon`]); the first is the subject.
    pub words: &'a [usize],
}

/// Per item `asked` marks, the newest later entry of its section that
/// states the same thing; none for the others. An item's answer does not
/// depend on what else is asked, so a table of every item's, gated by
/// another query's marks ([`gated`]), is that query's.
pub(crate) fn replacing(items: &[Dated<'_>], asked: &[bool], terms: usize) -> Vec<Option<usize>> {
    let mut out = vec![None; items.len()];
    // The asked item's terms.
    let mut marked = vec![false; terms];
    // The items of the section at hand: a section's items are one run, in
    // the memory's order, so an entry is compared with its section's alone.
    let mut run = 0..0;
    for (i, item) in items.iter().enumerate() {
        if i >= run.end {
            let length = items[i..]
                .iter()
                .take_while(|x| x.section == item.section)
                .count();
            run = i..i + length;
        }
        let (Some(date), Some(head)) = (item.date.filter(|_| asked[i]), item.words.first()) else {
            continue;
        };
        for &t in item.words {
            marked[t] = true;
        }
        let mut newest: Option<usize> = None;
        for (j, later) in items.iter().enumerate().take(run.end).skip(run.start) {
            let Some(when) = later.date else { continue };
            // Dates are `YYYY-MM-DD`: their order is their text's.
            if later.section != item.section
                || when <= date
                || newest.is_some_and(|n| items[n].date > later.date)
                || later.words.first() != Some(head)
                || !same(item.words.len(), later.words, &marked)
            {
                continue;
            }
            newest = Some(j);
        }
        for &t in item.words {
            marked[t] = false;
        }
        out[i] = newest;
    }
    out
}

/// Per item `asked` marks, the newest later entry of its section that
/// states the same thing, itself not superseded; none for the others. From
/// the [`replacing`] of those items or of more.
pub(crate) fn gated(table: &[Option<usize>], asked: &[bool]) -> Vec<Option<usize>> {
    newest_of_chains(
        table
            .iter()
            .zip(asked)
            .map(|(&by, &a)| by.filter(|_| a))
            .collect(),
    )
}

/// The newest of a chain: an entry superseded in turn passes on what
/// supersedes it (a later date each time, so the chain ends).
fn newest_of_chains(mut out: Vec<Option<usize>>) -> Vec<Option<usize>> {
    for i in 0..out.len() {
        while let Some(next) = out[i].and_then(|j| out[j]) {
            out[i] = Some(next);
        }
    }
    out
}

/// Whether an entry of `terms` terms and one of `other` state the same
/// thing, the first's terms `marked`.
fn same(terms: usize, other: &[usize], marked: &[bool]) -> bool {
    let shared = other.iter().filter(|&&t| marked[t]).count();
    6 * shared >= terms + other.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The terms of the entries below, numbered by their place here.
    const TERMS: [&str; 8] = [
        "services",
        "use",
        "postgresql",
        "16",
        "17",
        "18",
        "cache",
        "redis",
    ];

    fn superseded(items: &[Dated<'_>], asked: &[bool]) -> Vec<Option<usize>> {
        let every = replacing(items, &[true; 4], TERMS.len());
        let found = gated(&replacing(items, asked, TERMS.len()), asked);
        // The table of every item's, gated, is the same.
        assert_eq!(gated(&every, asked), found);
        found
    }

    fn terms(words: &[&str]) -> Vec<usize> {
        words
            .iter()
            .map(|w| TERMS.iter().position(|t| t == w).unwrap())
            .collect()
    }

    #[test]
    fn a_later_entry_with_one_changed_value_supersedes() {
        let entries = [
            (
                0,
                "2025-03-16",
                terms(&["services", "use", "postgresql", "16"]),
            ),
            (
                0,
                "2025-05-01",
                terms(&["cache", "redis", "services", "use"]),
            ),
            (
                0,
                "2025-09-02",
                terms(&["services", "use", "postgresql", "17"]),
            ),
            (
                1,
                "2025-10-01",
                terms(&["services", "use", "postgresql", "18"]),
            ),
        ];
        let items: Vec<Dated> = entries
            .iter()
            .map(|(section, date, words)| Dated {
                section: *section,
                date: Some(date),
                words,
            })
            .collect();
        let found = superseded(&items, &[true, true, true, true]);
        // Not by the entry sharing only its subject, nor across sections.
        assert_eq!(found, [Some(2), None, None, None]);
        assert_eq!(superseded(&items, &[false, true, true, true])[0], None);
    }
}
