//! Step 1 of compaction: sections whose titles normalize the same are joined
//! into the first of them.

use crate::document::{Document, Section};
use crate::fast::char_count;
use crate::heading::first_same_title;

use super::MergedSection;

/// Step 1: each later section with a title already seen, merged into the
/// first one (its trailing blank lines dropped so the lines join up), except
/// a section holding an unclosed code fence. `size` is the size of `doc`;
/// the result is the joined document and its size, or `None` when no join
/// is needed.
pub(super) fn merge_step<'a>(
    doc: &Document<'a>,
    size: usize,
    target: usize,
    merged: &mut Vec<MergedSection>,
) -> Option<(Document<'a>, usize)> {
    // A section that ends inside a code fence never closed is the last
    // one; moved up, its fence would turn every later heading into code.
    let joinable: Vec<usize> = (0..doc.sections.len())
        .filter(|&i| !opens_unclosed_fence(doc, &doc.sections[i]))
        .collect();
    let titles: Vec<&str> = joinable.iter().map(|&i| &*doc.sections[i].title).collect();
    let ops: Vec<(usize, usize)> = first_same_title(&titles)
        .into_iter()
        .enumerate()
        .filter(|&(k, first)| first != k)
        .map(|(k, first)| (joinable[k], joinable[first]))
        .collect();
    // Joining a section into an earlier one keeps every line that renders
    // (the first one's trailing blank lines never did) and removes the
    // later one's heading and the blank line before it: each join shrinks
    // the canonical form by exactly that much.
    let mut now = size;
    let k = ops
        .iter()
        .position(|&(from, _)| {
            if now <= target {
                return true;
            }
            now -= char_count(&doc.sections[from].heading()) + 2;
            false
        })
        .unwrap_or(ops.len());
    if k == 0 {
        return None;
    }
    let out = merge_sections(doc, &ops[..k]);
    merged.extend(ops[..k].iter().map(|&(from, into)| MergedSection {
        from: doc.sections[from].title.to_string(),
        from_span: doc.sections[from].span,
        into: doc.sections[into].title.to_string(),
        into_span: doc.sections[into].span,
    }));
    Some((out, now))
}

fn opens_unclosed_fence(doc: &Document, section: &Section) -> bool {
    doc.unclosed_fence
        .is_some_and(|fence| section.lines.iter().any(|l| l.span() == fence))
}

/// `doc` with each section of `ops` (`(from, into)`, in document order)
/// joined into its first one: every line is copied once.
fn merge_sections<'a>(doc: &Document<'a>, ops: &[(usize, usize)]) -> Document<'a> {
    let mut joins: Vec<Vec<usize>> = vec![Vec::new(); doc.sections.len()];
    let mut gone = vec![false; doc.sections.len()];
    for &(from, into) in ops {
        joins[into].push(from);
        gone[from] = true;
    }
    let sections = doc
        .sections
        .iter()
        .zip(&joins)
        .zip(&gone)
        .filter(|&(_, &gone)| !gone)
        .map(|((section, joins), _)| {
            let Some((&last, before)) = joins.split_last() else {
                return section.clone();
            };
            // As if joined one at a time: each join drops the trailing blank
            // lines of what it joins onto.
            let mut lines = section.content_lines().to_vec();
            for &from in before {
                lines.extend_from_slice(doc.sections[from].content_lines());
            }
            lines.extend_from_slice(&doc.sections[last].lines);
            Section {
                title: section.title.clone(),
                explicit: section.explicit,
                span: section.span,
                lines,
            }
        })
        .collect();
    Document {
        sections,
        preamble: Vec::new(),
        unclosed_fence: None,
    }
}

#[cfg(test)]
mod tests {
    use super::merge_step;
    use crate::compact::size;
    use crate::parse::parse;

    #[test]
    fn joins_stop_at_the_first_that_fits() {
        let doc = parse(
            "## A\n- 2025-01-01: a\n\n\n## B\n\n## a\n\nraw\n\n## b\n- 2025-01-02: b\n\n## A\n",
        );
        let before = size(&doc);
        let all = merge_step(&doc, before, 0, &mut Vec::new()).map_or(0, |(out, _)| size(&out));
        let mut results = Vec::new();
        for target in (all..=before).rev() {
            let mut merged = Vec::new();
            let out = match merge_step(&doc, before, target, &mut merged) {
                Some((out, counted)) => {
                    assert_eq!(counted, size(&out), "{target}");
                    counted
                }
                None => before,
            };
            assert!(out <= target, "{target}");
            results.push((target, merged.len(), out));
        }
        // The size after each number of joins: three joins, each shrinking
        // the document by exactly its heading and the blank line before it.
        let mut after = vec![size(&doc)];
        for &(_, joins, size) in &results {
            if joins == after.len() {
                after.push(size);
            }
        }
        assert_eq!(after.len(), 4, "{results:?}");
        assert_eq!(
            after[0] - after[3],
            ("## a".len() + 2) + ("## b".len() + 2) + ("## A".len() + 2)
        );
        // No join is made that the target does not need.
        for &(target, joins, _) in &results {
            assert!(joins == 0 || after[joins - 1] > target, "{target}");
        }
    }
}
