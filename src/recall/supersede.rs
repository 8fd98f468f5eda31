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

use super::terms::Term;

/// What supersession needs of an item.
pub(crate) struct Dated<'a> {
    /// The section's index.
    pub section: usize,
    /// The entry's date; none for a line that is not an entry.
    pub date: Option<&'a str>,
    /// The first content term, in the text's order.
    pub head: Option<Term<'a>>,
    /// The content terms, sorted, each once.
    pub words: Vec<Term<'a>>,
}

/// Per item, the newest later entry of its section that states the same
/// thing, for the items `asked` marks, itself not superseded; none for the
/// others.
pub(crate) fn superseded(items: &[Dated<'_>], asked: &[bool]) -> Vec<Option<usize>> {
    let mut out = vec![None; items.len()];
    for (i, item) in items.iter().enumerate() {
        let Some(date) = item.date.filter(|_| asked[i]) else {
            continue;
        };
        let mut newest: Option<usize> = None;
        for (j, later) in items.iter().enumerate() {
            let Some(when) = later.date else { continue };
            // Dates are `YYYY-MM-DD`: their order is their text's.
            if later.section != item.section
                || when <= date
                || newest.is_some_and(|n| items[n].date > later.date)
                || item.head.is_none()
                || later.head != item.head
                || !same(&item.words, &later.words)
            {
                continue;
            }
            newest = Some(j);
        }
        out[i] = newest;
    }
    // The newest of a chain: an entry superseded in turn passes on what
    // supersedes it (a later date each time, so the chain ends).
    for i in 0..out.len() {
        while let Some(next) = out[i].and_then(|j| out[j]) {
            out[i] = Some(next);
        }
    }
    out
}

/// Whether two sorted lists of distinct words state the same thing.
fn same(a: &[Term<'_>], b: &[Term<'_>]) -> bool {
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        match x.cmp(y) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    6 * shared >= a.len() + b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dated<'a>(section: usize, date: &'a str, words: &'a [&'a str]) -> Dated<'a> {
        let head = words.first().map(|w| Term::from(*w));
        let mut words: Vec<Term<'a>> = words.iter().map(|w| Term::from(*w)).collect();
        words.sort_unstable();
        Dated {
            section,
            date: Some(date),
            head,
            words,
        }
    }

    #[test]
    fn a_later_entry_with_one_changed_value_supersedes() {
        let items = [
            dated(0, "2025-03-16", &["services", "use", "postgresql", "16"]),
            dated(0, "2025-05-01", &["cache", "redis", "services", "use"]),
            dated(0, "2025-09-02", &["services", "use", "postgresql", "17"]),
            dated(1, "2025-10-01", &["services", "use", "postgresql", "18"]),
        ];
        let found = superseded(&items, &[true, true, true, true]);
        // Not by the entry sharing only its subject, nor across sections.
        assert_eq!(found, [Some(2), None, None, None]);
        assert_eq!(superseded(&items, &[false, true, true, true])[0], None);
    }
}
