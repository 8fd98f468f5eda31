//! Which sections of the three inputs are the same section, and in which
//! order the merged document holds them.

use std::collections::{HashMap, HashSet};

use crate::document::{Document, Section};
use crate::heading::section_key;

use super::diff3::{diff3, Chunk};

/// A section's identity across the three inputs: its normalized title (as
/// the number [`Titles`] gave it) and its rank among the sections of the same
/// document with that title.
pub(super) type SectionKey = (usize, usize);

/// The normalized titles of the three inputs, each numbered once, so that
/// sections are matched, compared and hashed as numbers.
#[derive(Default)]
pub(super) struct Titles(HashMap<String, usize>);

/// The sections of a document by key, with the keys in document order.
pub(super) struct Keyed<'a, 'd> {
    order: Vec<SectionKey>,
    /// By title number, the sections with that title in document order.
    by_title: Vec<Vec<&'a Section<'d>>>,
}

impl<'a, 'd> Keyed<'a, 'd> {
    pub(super) fn get(&self, &(title, rank): &SectionKey) -> Option<&'a Section<'d>> {
        self.by_title.get(title)?.get(rank).copied()
    }
}

pub(super) fn keyed_sections<'a, 'd>(doc: &'a Document<'d>, titles: &mut Titles) -> Keyed<'a, 'd> {
    let mut keyed = Keyed {
        order: Vec::with_capacity(doc.sections.len()),
        by_title: Vec::new(),
    };
    for section in &doc.sections {
        let next = titles.0.len();
        let title = *titles.0.entry(section_key(&section.title)).or_insert(next);
        if keyed.by_title.len() <= title {
            keyed.by_title.resize_with(title + 1, Vec::new);
        }
        let same = &mut keyed.by_title[title];
        keyed.order.push((title, same.len()));
        same.push(section);
    }
    keyed
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
    let mut order: Vec<SectionKey> = Vec::new();
    let mut seen: HashSet<SectionKey> = HashSet::new();
    for chunk in diff3(&b.order, &o.order, &t.order) {
        let keys: Vec<&SectionKey> = match chunk {
            Chunk::Stable { ours } => vec![&o.order[ours]],
            Chunk::Changed { base, ours, theirs } => {
                let (cb, co, ct) = (&b.order[base], &o.order[ours], &t.order[theirs]);
                if co == cb {
                    ct.iter().collect()
                } else if ct == cb || co == ct {
                    co.iter().collect()
                } else {
                    cb.iter().chain(co).chain(ct).collect()
                }
            }
        };
        for key in keys {
            if seen.insert(*key) {
                order.push(*key);
            }
        }
    }
    for side in [b, o, t] {
        for (i, key) in side.order.iter().enumerate() {
            if seen.contains(key) {
                continue;
            }
            let at = side.order[..i]
                .iter()
                .rev()
                .find_map(|prev| order.iter().position(|k| k == prev))
                .map_or(0, |p| p + 1);
            order.insert(at, *key);
            seen.insert(*key);
        }
    }
    order
}
