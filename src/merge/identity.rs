//! Which entry of a side is which entry of the base, and what becomes of
//! each base entry: kept, edited by one side, removed, or a conflict. An
//! entry is one fact; two sides that changed one fact differently (or one
//! changed it and the other removed it) disagree about what is true, and
//! the merge reports it instead of writing both versions.
//!
//! Matching, within one section, is deterministic: first the lines both
//! hold unchanged, in order (the longest common subsequence the merge's
//! diff3 uses); then, among the entries left on both sides, the pairs whose
//! texts are similar — the Dice coefficient of their sets of byte bigrams
//! (ASCII letters folded; each bigram hashed to one of 512 bits) at least
//! one half — the most similar pair first, ties by base order then side
//! order. An entry moved within the section has similarity 1; a date
//! changed with the same text is an edit.

use crate::document::Line;
use crate::fast::sort_indices_by_key;

use super::diff3::matches;
use super::lines::keys;
use super::Side;

/// Above this many candidate pairs in one section the similarity pass is
/// skipped (only the unchanged lines match): a side that rewrote hundreds
/// of entries at once is not a set of edits, and the pass is quadratic.
const MAX_PAIRS: usize = 4096;

/// Above this many comparisons, copies of one entry are matched as the
/// common subsequence matched them.
const MAX_COPIES: usize = 1 << 20;

/// What a side did with one base entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fate {
    /// Kept as it was, at this index of the side's lines.
    Same(usize),
    /// Rewritten (text or date) as the entry at this index.
    Edited(usize),
    /// Removed.
    Gone,
}

/// For each line of `base`, what `side` did with it (`Gone` for raw lines).
pub(super) fn fates(base: &[Line<'_>], side: &[Line<'_>]) -> Vec<Fate> {
    let is_entry = |line: &Line<'_>| line.as_entry().is_some();
    let mut taken = vec![false; side.len()];
    let (kb, ks) = (keys(base), keys(side));
    let mut out: Vec<Fate> = matches(&kb, &ks)
        .into_iter()
        .zip(base)
        .map(|(to, line)| match to {
            Some(j) if is_entry(line) => {
                taken[j] = true;
                Fate::Same(j)
            }
            _ => Fate::Gone,
        })
        .collect();
    let mut left_b: Vec<usize> = (0..base.len())
        .filter(|&i| is_entry(&base[i]) && out[i] == Fate::Gone)
        .collect();
    // Copies of one entry: the side's copies are the base's first ones, so
    // that two sides that each removed a different copy keep one.
    if left_b.len() * base.len() <= MAX_COPIES {
        for i in 0..base.len() {
            let Fate::Same(j) = out[i] else { continue };
            if let Some(at) = left_b.iter().position(|&g| g < i && kb[g] == kb[i]) {
                out[left_b[at]] = Fate::Same(j);
                out[i] = Fate::Gone;
                left_b.remove(at);
                let keep_order = left_b.partition_point(|&g| g < i);
                left_b.insert(keep_order, i);
            }
        }
    }
    let left_s: Vec<usize> = (0..side.len())
        .filter(|&j| is_entry(&side[j]) && !taken[j])
        .collect();
    if left_b.is_empty() || left_s.is_empty() || left_b.len() * left_s.len() > MAX_PAIRS {
        return out;
    }
    let grams_b: Vec<Bigrams> = left_b.iter().map(|&i| bigrams(&base[i])).collect();
    let grams_s: Vec<Bigrams> = left_s.iter().map(|&j| bigrams(&side[j])).collect();
    // Each candidate pair as one key: the Dice coefficient in thousandths,
    // from the highest, then the base's rank, then the side's (both below
    // 2^12, as MAX_PAIRS bounds them). Integers: both targets agree.
    let mut pairs = Vec::new();
    for (x, gb) in grams_b.iter().enumerate() {
        for (y, gs) in grams_s.iter().enumerate() {
            let total = gb.len() + gs.len();
            let score = (2000 * gb.common(gs)).checked_div(total).unwrap_or(1000);
            if score >= 500 {
                pairs.push(((1000 - score as u64) << 24) | (x as u64) << 12 | y as u64);
            }
        }
    }
    let mut used_s = vec![false; left_s.len()];
    for at in sort_indices_by_key(&pairs) {
        let (x, y) = (
            (pairs[at] >> 12 & 0xfff) as usize,
            (pairs[at] & 0xfff) as usize,
        );
        let (i, j) = (left_b[x], left_s[y]);
        if out[i] == Fate::Gone && !used_s[y] {
            // Moved with its text as it was, or rewritten.
            out[i] = if kb[i] == ks[j] {
                Fate::Same(j)
            } else {
                Fate::Edited(j)
            };
            used_s[y] = true;
        }
    }
    out
}

/// The set of an entry's text's byte bigrams, ASCII letters folded, each
/// hashed to one of 512 bits.
struct Bigrams([u64; 8]);

impl Bigrams {
    fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    fn common(&self, other: &Self) -> usize {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| (a & b).count_ones() as usize)
            .sum()
    }
}

fn bigrams(line: &Line<'_>) -> Bigrams {
    let mut set = [0_u64; 8];
    if let Some(entry) = line.as_entry() {
        for w in entry.text.as_bytes().windows(2) {
            let gram =
                u32::from(w[0].to_ascii_lowercase()) << 8 | u32::from(w[1].to_ascii_lowercase());
            let bit = (gram.wrapping_mul(0x9e37_79b1) >> 23) as usize;
            set[bit >> 6] |= 1 << (bit & 63);
        }
    }
    Bigrams(set)
}

/// What the merge does with one base entry, given what each side did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Keep it as that side's line at this index.
    Keep(Side, usize),
    /// Both sides' versions are gone or one removed it untouched.
    Drop,
    /// Changed differently, or changed and removed.
    Conflict,
}

/// The outcome of a base entry from its fates on ours and theirs, `same`
/// telling whether ours' line `j` and theirs' line `k` are the same entry.
pub(super) fn outcome(o: Fate, t: Fate, same: impl Fn(usize, usize) -> bool) -> Outcome {
    match (o, t) {
        (Fate::Same(j) | Fate::Edited(j), Fate::Same(_)) => Outcome::Keep(Side::Ours, j),
        (Fate::Same(_), Fate::Edited(k)) => Outcome::Keep(Side::Theirs, k),
        (Fate::Edited(j), Fate::Edited(k)) if same(j, k) => Outcome::Keep(Side::Ours, j),
        (Fate::Gone, Fate::Same(_) | Fate::Gone) | (Fate::Same(_), Fate::Gone) => Outcome::Drop,
        (Fate::Edited(_), Fate::Edited(_) | Fate::Gone) | (Fate::Gone, Fate::Edited(_)) => {
            Outcome::Conflict
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn lines(text: &str) -> Vec<Line<'_>> {
        parse(text).sections.into_iter().next().unwrap().lines
    }

    #[test]
    fn same_text_first_then_the_most_similar() {
        let base = lines("## A\n- 2025-03-01: Use Postgres 16\n- 2025-03-02: Deploy on Tuesdays");
        let side = lines("## A\n- 2025-03-02: Deploy on Wednesdays\n- 2025-03-01: Use Postgres 16\n- 2025-03-05: Unrelated note");
        let f = fates(&base, &side);
        assert_eq!(f[0], Fate::Same(1));
        assert_eq!(f[1], Fate::Edited(0), "the rest by similarity");
    }

    #[test]
    fn a_rewrite_with_nothing_in_common_is_a_removal() {
        let base = lines("## A\n- 2025-03-01: Use Postgres");
        let side = lines("## A\n- 2025-03-01: Office in Oslo");
        assert_eq!(fates(&base, &side), [Fate::Gone]);
    }
}
