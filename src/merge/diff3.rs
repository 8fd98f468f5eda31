//! The line-level three-way diff behind [`merge`](crate::merge): a longest
//! common subsequence of base against each side, and the classic diff3 walk
//! that cuts the three sequences into stable lines and changed chunks. It
//! only computes index ranges; deciding what a changed chunk becomes is the
//! merge's job.

use std::ops::Range;

/// Above this many cells the quadratic table is not built and the unmatched
/// middle of two sequences is treated as one change. The merge stays correct
/// (a coarser chunk can only add conflicts, never lose a line) and memory
/// stays bounded on pathological input.
const MAX_TABLE_CELLS: usize = 4_000_000;

/// One piece of the three-way walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Chunk {
    /// A line present, unchanged, in all three (its index in ours).
    Stable { ours: usize },
    /// Lines that differ in at least one side.
    Changed {
        base: Range<usize>,
        ours: Range<usize>,
        theirs: Range<usize>,
    },
}

/// Cut `base`, `ours` and `theirs` into stable lines and changed chunks, in
/// order. Every index of every sequence is covered exactly once.
pub(crate) fn diff3<T: Eq>(base: &[T], ours: &[T], theirs: &[T]) -> Vec<Chunk> {
    let to_ours = matches(base, ours);
    let to_theirs = matches(base, theirs);
    let mut chunks = Vec::new();
    let (mut pb, mut po, mut pt) = (0, 0, 0);
    for (i, (o, t)) in to_ours.iter().zip(&to_theirs).enumerate() {
        let (Some(o), Some(t)) = (*o, *t) else {
            continue;
        };
        if pb < i || po < o || pt < t {
            chunks.push(Chunk::Changed {
                base: pb..i,
                ours: po..o,
                theirs: pt..t,
            });
        }
        chunks.push(Chunk::Stable { ours: o });
        (pb, po, pt) = (i + 1, o + 1, t + 1);
    }
    if pb < base.len() || po < ours.len() || pt < theirs.len() {
        chunks.push(Chunk::Changed {
            base: pb..base.len(),
            ours: po..ours.len(),
            theirs: pt..theirs.len(),
        });
    }
    chunks
}

/// For each index of `a`, the index of `b` it is matched to by a longest
/// common subsequence (matches are strictly increasing in both): how the
/// merge lines up two versions, and the `memdoc` command's diff with it
/// (`memdoc::lcs_matches`).
pub fn matches<T: Eq>(a: &[T], b: &[T]) -> Vec<Option<usize>> {
    let mut out = vec![None; a.len()];
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    for (i, slot) in out.iter_mut().enumerate().take(prefix) {
        *slot = Some(i);
    }
    for k in 0..suffix {
        out[a.len() - 1 - k] = Some(b.len() - 1 - k);
    }
    let (a_mid, b_mid) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    for (i, j) in lcs(a_mid, b_mid) {
        out[prefix + i] = Some(prefix + j);
    }
    out
}

/// Index pairs of a longest common subsequence, by dynamic programming.
// Short names follow the textbook recurrence.
#[allow(clippy::many_single_char_names)]
fn lcs<T: Eq>(a: &[T], b: &[T]) -> Vec<(usize, usize)> {
    let (n, m) = (a.len(), b.len());
    if n == 0 || m == 0 || (n + 1).saturating_mul(m + 1) > MAX_TABLE_CELLS {
        return Vec::new();
    }
    let width = m + 1;
    // table[i * width + j]: length of an LCS of a[i..] and b[j..].
    let mut table = vec![0u32; (n + 1) * width];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i * width + j] = if a[i] == b[j] {
                table[(i + 1) * width + j + 1] + 1
            } else {
                table[(i + 1) * width + j].max(table[i * width + j + 1])
            };
        }
    }
    let mut pairs = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if a[i] == b[j] {
            pairs.push((i, j));
            i += 1;
            j += 1;
        } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_lines_and_one_changed_chunk() {
        let chunks = diff3(&[1, 2, 3], &[1, 2, 3, 4], &[1, 2, 3, 5]);
        assert_eq!(
            chunks.last(),
            Some(&Chunk::Changed {
                base: 3..3,
                ours: 3..4,
                theirs: 3..4
            })
        );
        assert_eq!(chunks.len(), 4, "three stable lines and one chunk");
    }

    #[test]
    fn lcs_finds_the_middle_match() {
        assert_eq!(lcs(&[1, 9, 2], &[8, 9, 7]), vec![(1, 1)]);
    }
}
