//! Which sections of the three inputs are the same section, and in which
//! order the merged document holds them.

use std::collections::{HashMap, HashSet};

use crate::document::{Document, Section};
use crate::heading::section_key;

use super::diff3::{diff3, Chunk};

/// A section's identity across the three inputs: its normalized title and
/// its rank among the sections of the same document with that title.
pub(super) type SectionKey = (String, usize);

/// The sections of a document by key, with the keys in document order.
pub(super) struct Keyed<'a> {
    order: Vec<SectionKey>,
    sections: HashMap<SectionKey, &'a Section>,
}

impl<'a> Keyed<'a> {
    pub(super) fn get(&self, key: &SectionKey) -> Option<&&'a Section> {
        self.sections.get(key)
    }
}

pub(super) fn keyed_sections(doc: &Document) -> Keyed<'_> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut keyed = Keyed {
        order: Vec::new(),
        sections: HashMap::new(),
    };
    for section in &doc.sections {
        let title = section_key(&section.title);
        let rank = seen.entry(title.clone()).or_insert(0);
        let key = (title, *rank);
        *rank += 1;
        keyed.order.push(key.clone());
        keyed.sections.insert(key, section);
    }
    keyed
}

/// The order of the merged sections: the title sequences are merged like
/// lines (diff3), so a reordering or an insertion made by one side is kept;
/// where both sides changed the same stretch, base order comes first, then
/// sections new in ours, then sections new in theirs. A section that one side
/// dropped from the sequence but that survives (a conflict) keeps its place
/// after its predecessor.
pub(super) fn section_order(b: &Keyed<'_>, o: &Keyed<'_>, t: &Keyed<'_>) -> Vec<SectionKey> {
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
            if seen.insert(key.clone()) {
                order.push(key.clone());
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
            order.insert(at, key.clone());
            seen.insert(key.clone());
        }
    }
    order
}
