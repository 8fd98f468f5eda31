//! Recall's selection (docs/FORMAT.md §12): which items fit the budget,
//! in which order they are taken, and the recalled document they make.

use super::{Item, OmitReason, Section, Why};
use crate::fast::char_count;

/// What decides the order of selection besides the scores.
pub(super) struct Selection<'a> {
    /// Per item, whether it answers the query.
    pub relevant: &'a [bool],
    /// Per item, the later entry that supersedes it.
    pub superseded: &'a [Option<usize>],
}

/// Per item, `None` when taken, or why it was left out. Pinned sections'
/// items first; then the current items that answer the query (and the
/// entries that supersede one, even under the floor, at the mean score of
/// themselves and the items they supersede, or their own when higher), by
/// score; a superseded item after the current
/// ones of its group, and only once the entry that supersedes it (which is
/// current) was taken.
pub(super) fn select(
    sections: &[Section<'_>],
    items: &[Item],
    scored: &[(f64, Why)],
    how: &Selection<'_>,
    budget: usize,
) -> Vec<Option<OmitReason>> {
    let mut reasons: Vec<Option<OmitReason>> = vec![Some(OmitReason::NoMatch); items.len()];
    let mut keys: Vec<f64> = scored.iter().map(|(score, _)| *score).collect();
    let mut taken = vec![false; items.len()];
    // Per entry, the sum and the count of the scores of the items it
    // supersedes that answer the query, in document order.
    let mut replaced = vec![(0.0, 0.0); items.len()];
    for (i, item) in items.iter().enumerate() {
        taken[i] |= how.relevant[i] || sections[item.section].pinned;
        if let (true, Some(j)) = (how.relevant[i], how.superseded[i]) {
            taken[j] = true;
            replaced[j].0 += keys[i];
            replaced[j].1 += 1.0;
        }
    }
    // Statements of one thing at several dates are one fact: ranked at
    // the mean of their scores (the best of several near-equal scores
    // would rank a fact stated often above one stated once), or at the
    // current entry's own when higher.
    for (key, (sum, count)) in keys.iter_mut().zip(replaced) {
        if count > 0.0 {
            *key = key.max((*key + sum) / (count + 1.0));
        }
    }
    let order: Vec<usize> = (0..items.len()).filter(|&i| taken[i]).collect();
    let sorted: Vec<u64> = order.iter().map(|&i| descending(keys[i])).collect();
    // Pinned sections' current items, their superseded ones, then the
    // other current items and superseded ones; each by score, ties in
    // document order (the sort is stable). A superseded item comes after
    // the entry superseding it, which is in its section.
    let group = |i: usize| {
        2 * usize::from(!sections[items[i].section].pinned)
            + usize::from(how.superseded[i].is_some())
    };
    let by_score: Vec<usize> = crate::fast::sort_indices_by_key(&sorted)
        .into_iter()
        .map(|k| order[k])
        .collect();
    let mut ranked = Vec::with_capacity(by_score.len());
    for g in 0..4 {
        ranked.extend(by_score.iter().copied().filter(|&i| group(i) == g));
    }
    // Each line, and each heading once, rendered when needed, in one
    // buffer.
    let mut rendered = String::new();
    let mut headings: Vec<Option<usize>> = vec![None; sections.len()];
    let mut kept = vec![false; sections.len()];
    let mut any = false;
    let mut used = 0;
    for i in ranked {
        let item = &items[i];
        rendered.clear();
        item.write(&mut rendered);
        let line = char_count(&rendered) + 1;
        let heading = if let Some(chars) = headings[item.section] {
            chars
        } else {
            rendered.clear();
            sections[item.section].write_heading(&mut rendered);
            let chars = char_count(&rendered);
            headings[item.section] = Some(chars);
            chars
        };
        if heading + line > budget {
            reasons[i] = Some(OmitReason::TooLarge);
            continue;
        }
        let stale = how.superseded[i].is_some();
        reasons[i] = Some(if stale {
            OmitReason::Superseded
        } else {
            OmitReason::Budget
        });
        if stale && how.superseded[i].is_some_and(|j| reasons[j].is_some()) {
            continue;
        }
        let cost = if kept[item.section] {
            line
        } else {
            line + heading + if any { 2 } else { 0 }
        };
        if used + cost <= budget {
            used += cost;
            kept[item.section] = true;
            any = true;
            reasons[i] = None;
        }
    }
    reasons
}

/// A key that orders scores from the highest down, in `f64::total_cmp`'s
/// order reversed: a negative number's bits count down as it grows, a
/// positive one's up.
pub(super) fn descending(score: f64) -> u64 {
    let bits = score.to_bits();
    let ascending = if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    };
    !ascending
}

/// The selected items under their headings, in document order.
pub(super) fn render(
    sections: &[Section<'_>],
    items: &[Item],
    reasons: &[Option<OmitReason>],
) -> String {
    let mut out = String::new();
    let mut open: Option<usize> = None;
    for (item, reason) in items.iter().zip(reasons) {
        if reason.is_some() {
            continue;
        }
        if open != Some(item.section) {
            if open.is_some() {
                out.push_str("\n\n");
            }
            sections[item.section].write_heading(&mut out);
            open = Some(item.section);
        }
        out.push('\n');
        item.write(&mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::descending;

    #[test]
    fn descending_keys_order_scores_as_total_cmp_reversed() {
        let scores = [
            f64::NAN,
            f64::INFINITY,
            2.5,
            1.0,
            f64::MIN_POSITIVE,
            0.0,
            -0.0,
            -f64::MIN_POSITIVE,
            -1.0,
            f64::NEG_INFINITY,
            -f64::NAN,
        ];
        for a in scores {
            for b in scores {
                assert_eq!(
                    descending(a).cmp(&descending(b)),
                    b.total_cmp(&a),
                    "{a} against {b}"
                );
            }
        }
    }
}
