//! The size search: each step is a list of operations that only ever shrink
//! the document, so the smallest prefix that fits is found by binary search,
//! and the size without some entries is counted without rendering.

use std::collections::HashSet;

use crate::document::{Document, Line};

use super::removal::EntryIndex;

/// The smallest `k` in `0..=n` whose `size_of(k)` fits `target`, or `n`
/// when none does. `size_of` must not grow as `k` grows.
pub(super) fn first_fitting(n: usize, target: usize, size_of: impl Fn(usize) -> usize) -> usize {
    if size_of(n) > target {
        return n;
    }
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if size_of(mid) <= target {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    hi
}

/// The code points each part of a document renders to, so that the size of
/// the document without some entries is counted without rendering it.
pub(super) struct Measure {
    /// Per section: its heading (`## ` and title), and per line its length
    /// and whether it is blank.
    sections: Vec<(usize, Vec<(usize, bool)>)>,
}

impl Measure {
    pub(super) fn new(doc: &Document) -> Self {
        let line = |l: &Line| (l.render().chars().count(), l.is_blank());
        Self {
            sections: doc
                .sections
                .iter()
                .map(|s| {
                    (
                        s.heading().chars().count(),
                        s.lines.iter().map(line).collect(),
                    )
                })
                .collect(),
        }
    }

    /// The canonical size without the lines at `removed` (as `render` counts
    /// it: trailing blank lines of a section dropped, one blank line between
    /// sections).
    pub(super) fn size_without(&self, removed: &[EntryIndex]) -> usize {
        let removed: HashSet<EntryIndex> = removed.iter().copied().collect();
        let mut total = (2 * self.sections.len()).saturating_sub(2);
        for (s, (heading, lines)) in self.sections.iter().enumerate() {
            total += heading;
            let mut pending = 0;
            for (l, &(len, blank)) in lines.iter().enumerate() {
                if removed.contains(&(s, l)) {
                    continue;
                }
                pending += len + 1;
                if !blank {
                    total += pending;
                    pending = 0;
                }
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::Measure;
    use crate::compact::removal::without;
    use crate::compact::size;
    use crate::parse::parse;

    #[test]
    fn measure_counts_what_render_renders() {
        let doc = parse(
            "## A
- 2025-01-01: é

raw


## B

- 2025-01-02: x

## C",
        );
        let measure = Measure::new(&doc);
        for removed in [
            vec![],
            vec![(0, 0)],
            vec![(0, 2)],
            vec![(1, 1)],
            vec![(0, 2), (1, 1)],
        ] {
            assert_eq!(
                measure.size_without(&removed),
                size(&without(&doc, &removed)),
                "{removed:?}"
            );
        }
    }
}
