//! The size search: each step is a list of operations that only ever shrink
//! the document, so the smallest prefix that fits is found by applying them
//! one by one to a running count of code points, never rendering, in time
//! linear in the document.

use crate::document::{Document, Line};
use crate::fast::char_count;

/// The position of an entry: section index and line index.
pub(super) type EntryIndex = (usize, usize);

/// The code points each part of a document renders to, so that the size of
/// the document without some entries is counted without rendering it.
pub(super) struct Measure {
    /// The canonical size of the whole document (as `render` counts it:
    /// trailing blank lines of a section dropped, one blank line between
    /// sections).
    total: usize,
    sections: Vec<SectionSize>,
}

/// One section's lines, as far as its rendered size is concerned.
struct SectionSize {
    /// Per line: the code points it adds (its own and the newline before
    /// it), and whether it is blank. Blank lines are never removed.
    lines: Vec<(usize, bool)>,
    removed: Vec<bool>,
    /// The last kept line that is not blank: the lines after it are trailing
    /// blank lines, which do not render.
    last: Option<usize>,
}

impl SectionSize {
    /// Remove line `l` (an entry, so not blank); how much the section's
    /// rendered size shrinks.
    fn remove(&mut self, l: usize) -> usize {
        if self.removed.get(l).copied().unwrap_or(true) {
            return 0;
        }
        self.removed[l] = true;
        let Some(last) = self.last.filter(|&last| last == l) else {
            return self.lines[l].0;
        };
        // The last line goes, and with it the blank lines before it back to
        // the previous kept line that is not blank. The walk only ever moves
        // back, so all the removals of a section cost its length once.
        let mut shrink = self.lines[last].0;
        let mut at = last;
        self.last = loop {
            if at == 0 {
                break None;
            }
            at -= 1;
            let (len, blank) = self.lines[at];
            if self.removed[at] {
                continue;
            }
            if !blank {
                break Some(at);
            }
            shrink += len;
        };
        shrink
    }
}

impl Measure {
    pub(super) fn new(doc: &Document) -> Self {
        let mut total = (2 * doc.sections.len()).saturating_sub(2);
        let mut rendered = String::new();
        let mut width = |l: &Line| {
            rendered.clear();
            l.write(&mut rendered);
            char_count(&rendered) + 1
        };
        let sections = doc
            .sections
            .iter()
            .map(|s| {
                let lines: Vec<(usize, bool)> =
                    s.lines.iter().map(|l| (width(l), l.is_blank())).collect();
                let last = lines.iter().rposition(|&(_, blank)| !blank);
                total += char_count(&s.heading());
                total += last.map_or(0, |last| lines[..=last].iter().map(|&(len, _)| len).sum());
                SectionSize {
                    removed: vec![false; lines.len()],
                    lines,
                    last,
                }
            })
            .collect();
        Self { total, sections }
    }

    /// The length of the shortest prefix of `removals` (entries, in the order
    /// they are to be removed) without which the document fits `target`, or
    /// all of them when even that is not enough; and the document's size
    /// without them.
    pub(super) fn fitting_prefix(
        mut self,
        removals: &[EntryIndex],
        target: usize,
    ) -> (usize, usize) {
        if self.total <= target {
            return (0, self.total);
        }
        for (k, &(s, l)) in removals.iter().enumerate() {
            if let Some(section) = self.sections.get_mut(s) {
                self.total -= section.remove(l);
            }
            if self.total <= target {
                return (k + 1, self.total);
            }
        }
        (removals.len(), self.total)
    }
}
