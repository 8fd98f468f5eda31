//! Which sections of the three inputs are the same section (by title, or
//! across a rename by their lines), and in which order the merged document
//! holds them.

use crate::document::{Document, Section};
use crate::fast::sort_indices_by_key;
use crate::heading::first_same_title;

use super::diff3::{diff3, Chunk};
use super::lines::keys;

/// A section's identity across the three inputs: its normalized title (as
/// the number [`title_numbers`] gave it) and its rank among the sections of the same
/// document with that title.
pub(super) type SectionKey = (usize, usize);

/// The normalized titles of the three inputs, each numbered once, so that
/// sections are matched, compared and hashed as numbers: the number of each
/// section's title, the inputs' sections one after another, and how many
/// titles there are.
fn title_numbers(docs: &[Document<'_>; 3]) -> (Vec<usize>, usize) {
    let titles: Vec<&str> = docs
        .iter()
        .flat_map(|doc| &doc.sections)
        .map(|s| &*s.title)
        .collect();
    // Numbered in order of first appearance: a title's first section comes
    // before every other of that title, so its number is known by then.
    let mut numbers = Vec::with_capacity(titles.len());
    let mut count = 0;
    for (i, first) in first_same_title(&titles).into_iter().enumerate() {
        let number = if first == i {
            count += 1;
            count - 1
        } else {
            numbers[first]
        };
        numbers.push(number);
    }
    (numbers, count)
}

/// Above this many candidate pairs of sections on one side, renames are not
/// looked for: a side that retitled hundreds of sections at once is a
/// rewrite, and comparing every pair is quadratic.
const MAX_RENAMES: usize = 4096;

/// A section renamed on one side is the base's section: a section of the
/// side whose title the base does not have takes the number of a base
/// section whose title the side does not have (each title once on its
/// side) when more than half of the base section's lines are in it, the
/// pair sharing the most lines first, ties in base order.
fn match_renames(docs: &[Document<'_>; 3], numbers: &mut [usize], titles: usize) {
    let (nb, no) = (docs[0].sections.len(), docs[1].sections.len());
    // How many sections of each title a stretch of `numbers` has.
    let counts = |of: &[usize]| {
        let mut counts = vec![0_u32; titles];
        for &n in of {
            counts[n] += 1;
        }
        counts
    };
    let in_base = counts(&numbers[..nb]);
    for (side, start) in [(1, nb), (2, nb + no)] {
        let len = docs[side].sections.len();
        let in_side = counts(&numbers[start..start + len]);
        let lost: Vec<usize> = (0..nb)
            .filter(|&i| in_side[numbers[i]] == 0 && in_base[numbers[i]] == 1)
            .collect();
        let new: Vec<usize> = (0..len)
            .filter(|&j| {
                let n = numbers[start + j];
                in_base[n] == 0 && in_side[n] == 1
            })
            .collect();
        if lost.len() * new.len() > MAX_RENAMES {
            continue;
        }
        // Each candidate pair as one key: the shared lines from the most,
        // then the base's order, then the side's.
        let mut pairs = Vec::new();
        for &i in &lost {
            let base = keys(docs[0].sections[i].content_lines());
            for &j in &new {
                let theirs = keys(docs[side].sections[j].content_lines());
                let shared = base.iter().filter(|k| theirs.contains(k)).count();
                if 2 * shared > base.len() {
                    pairs.push((!(shared as u64) << 40) | (i as u64) << 20 | j as u64);
                }
            }
        }
        let (mut used_b, mut used_s) = (vec![false; nb], vec![false; len]);
        for at in sort_indices_by_key(&pairs) {
            let (i, j) = (
                (pairs[at] >> 20 & 0xf_ffff) as usize,
                (pairs[at] & 0xf_ffff) as usize,
            );
            if !used_b[i] && !used_s[j] {
                (used_b[i], used_s[j]) = (true, true);
                numbers[start + j] = numbers[i];
            }
        }
    }
}

/// The sections of the three inputs by key.
pub(super) fn keyed<'a, 'd>(docs: &'a [Document<'d>; 3]) -> [Keyed<'a, 'd>; 3] {
    let (mut numbers, titles) = title_numbers(docs);
    match_renames(docs, &mut numbers, titles);
    let (b, rest) = numbers.split_at(docs[0].sections.len());
    let (o, t) = rest.split_at(docs[1].sections.len());
    [
        keyed_sections(&docs[0], b, titles),
        keyed_sections(&docs[1], o, titles),
        keyed_sections(&docs[2], t, titles),
    ]
}

/// The sections of a document by key, with the keys in document order.
pub(super) struct Keyed<'a, 'd> {
    order: Vec<SectionKey>,
    doc: &'a Document<'d>,
    /// The indices of the sections, grouped by title number and in document
    /// order within a title: those of title `t` are
    /// `by_title[starts[t]..starts[t + 1]]`.
    by_title: Vec<usize>,
    starts: Vec<usize>,
}

impl<'a, 'd> Keyed<'a, 'd> {
    /// How many sections have title `title`.
    fn count(&self, title: usize) -> usize {
        match (self.starts.get(title), self.starts.get(title + 1)) {
            (Some(start), Some(end)) => end - start,
            _ => 0,
        }
    }

    pub(super) fn get(&self, &(title, rank): &SectionKey) -> Option<&'a Section<'d>> {
        let (start, end) = (*self.starts.get(title)?, *self.starts.get(title + 1)?);
        let at = *self
            .by_title
            .get(start + rank)
            .filter(|_| start + rank < end)?;
        self.doc.sections.get(at)
    }
}

/// `doc`'s sections by key, given the number of each one's title and how
/// many titles the three inputs have.
fn keyed_sections<'a, 'd>(
    doc: &'a Document<'d>,
    numbers: &[usize],
    titles: usize,
) -> Keyed<'a, 'd> {
    // A counting sort of the sections by title number: no list per title.
    let mut starts = vec![0; titles + 1];
    for &title in numbers {
        starts[title + 1] += 1;
    }
    for t in 1..starts.len() {
        starts[t] += starts[t - 1];
    }
    let mut next = starts.clone();
    let mut by_title = vec![0; numbers.len()];
    let mut order = Vec::with_capacity(numbers.len());
    for (i, &title) in numbers.iter().enumerate() {
        by_title[next[title]] = i;
        order.push((title, next[title] - starts[title]));
        next[title] += 1;
    }
    Keyed {
        order,
        doc,
        by_title,
        starts,
    }
}

/// The order of the merged sections: the title sequences are merged like
/// lines (diff3), so a reordering or an insertion made by one side is kept;
/// where both sides changed the same stretch, base order comes first, then
/// sections new in ours, then sections new in theirs. A section that one side
/// dropped from the sequence but that survives (a conflict) keeps its place
/// after its predecessor.
pub(super) fn section_order(
    b: &Keyed<'_, '_>,
    o: &Keyed<'_, '_>,
    t: &Keyed<'_, '_>,
) -> Vec<SectionKey> {
    let mut order: Vec<SectionKey> = Vec::with_capacity(o.order.len());
    let mut seen = Seen::new([b, o, t]);
    for chunk in diff3(&b.order, &o.order, &t.order) {
        let keys: &[&[SectionKey]] = match chunk {
            Chunk::Stable { ours } => &[&o.order[ours..=ours]],
            Chunk::Changed { base, ours, theirs } => {
                let (cb, co, ct) = (&b.order[base], &o.order[ours], &t.order[theirs]);
                if co == cb {
                    &[ct]
                } else if ct == cb || co == ct {
                    &[co]
                } else {
                    &[cb, co, ct]
                }
            }
        };
        for &key in keys.iter().copied().flatten() {
            if seen.insert(key) {
                order.push(key);
            }
        }
    }
    for side in [b, o, t] {
        for (i, key) in side.order.iter().enumerate() {
            if !seen.insert(*key) {
                continue;
            }
            let at = side.order[..i]
                .iter()
                .rev()
                .find_map(|prev| order.iter().position(|k| k == prev))
                .map_or(0, |p| p + 1);
            order.insert(at, *key);
        }
    }
    order
}

/// The keys of the three inputs met so far: one flag per key any of them
/// has, the keys of each title numbered from that title's offset.
struct Seen {
    offsets: Vec<usize>,
    flags: Vec<bool>,
}

impl Seen {
    fn new(sides: [&Keyed<'_, '_>; 3]) -> Self {
        let titles = sides.iter().map(|s| s.starts.len() - 1).max().unwrap_or(0);
        let mut offsets = Vec::with_capacity(titles + 1);
        offsets.push(0);
        for title in 0..titles {
            let most = sides.iter().map(|s| s.count(title)).max().unwrap_or(0);
            offsets.push(offsets[title] + most);
        }
        let flags = vec![false; offsets[titles]];
        Self { offsets, flags }
    }

    /// Whether `key` was not met before.
    fn insert(&mut self, (title, rank): SectionKey) -> bool {
        let flag = self
            .offsets
            .get(title)
            .and_then(|&o| self.flags.get_mut(o + rank));
        flag.is_some_and(|flag| !std::mem::replace(flag, true))
    }
}
