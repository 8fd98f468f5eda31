//! Step 1 of compaction: sections whose titles normalize the same are joined
//! into the first of them.

use std::collections::HashMap;

use crate::document::{Document, Section};
use crate::heading::section_key;

use super::measure::first_fitting;
use super::{size, MergedSection};

/// Step 1: each later section with a title already seen, merged into the
/// first one (its trailing blank lines dropped so the lines join up), except
/// a section holding an unclosed code fence.
pub(super) fn merge_step(
    doc: &Document,
    target: usize,
    merged: &mut Vec<MergedSection>,
) -> Document {
    let mut first: HashMap<String, usize> = HashMap::new();
    let mut ops = Vec::new();
    for (i, section) in doc.sections.iter().enumerate() {
        // A section that ends inside a code fence never closed is the last
        // one; moved up, its fence would turn every later heading into code.
        if opens_unclosed_fence(doc, section) {
            continue;
        }
        match first.get(&section_key(&section.title)) {
            Some(&into) => ops.push((i, into)),
            None => {
                first.insert(section_key(&section.title), i);
            }
        }
    }
    let k = first_fitting(ops.len(), target, |k| size(&merge_sections(doc, &ops[..k])));
    let out = merge_sections(doc, &ops[..k]);
    merged.extend(ops[..k].iter().map(|&(from, into)| MergedSection {
        from: doc.sections[from].title.clone(),
        from_span: doc.sections[from].span,
        into: doc.sections[into].title.clone(),
        into_span: doc.sections[into].span,
    }));
    out
}

fn opens_unclosed_fence(doc: &Document, section: &Section) -> bool {
    doc.unclosed_fence
        .is_some_and(|fence| section.lines.iter().any(|l| l.span() == fence))
}

fn merge_sections(doc: &Document, ops: &[(usize, usize)]) -> Document {
    let into: HashMap<usize, usize> = ops.iter().copied().collect();
    let mut sections: Vec<Section> = doc.sections.clone();
    for (i, section) in doc.sections.iter().enumerate() {
        if let Some(&target) = into.get(&i) {
            let first = &mut sections[target];
            let kept = first.content_lines().len();
            first.lines.truncate(kept);
            first.lines.extend(section.lines.iter().cloned());
        }
    }
    Document {
        sections: sections
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !into.contains_key(i))
            .map(|(_, s)| s)
            .collect(),
        preamble: Vec::new(),
        unclosed_fence: None,
    }
}
