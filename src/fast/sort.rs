//! The crate's stable sorts, each compiled once. The standard library's
//! sorts are generic over the element and the comparison, so each of the
//! crate's sorts (findings, recall's order, compaction's order) was a copy
//! of its quicksort and merge sort in the WebAssembly module. Here only
//! indices are sorted: by a merge sort that calls its comparison through a
//! `dyn` ([`sort_by`], for findings), or, where the order is one number per
//! item, by that number in linear time ([`sort_indices_by_key`], for recall and
//! compaction, which order up to every line of a memory). Every order the
//! crate sorts by is a total order or ties in input order, so the result is
//! the one `sort_by` gives.

use std::cmp::Ordering;

/// The indices `0..n` in the order `compare` puts them, equal ones in their
/// own order, or `None` when that is `0..n` itself. A natural merge sort: it
/// merges the stretches that are already in order, so that sorted input (a
/// memory's entries are mostly in date order, a check's few findings) costs
/// one pass without allocating, and `r` such stretches cost `n log r`.
fn stable_order(n: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Option<Vec<usize>> {
    if (1..n).all(|i| compare(i, i - 1) != Ordering::Less) {
        return None;
    }
    let mut order: Vec<usize> = (0..n).collect();
    // Where each stretch in order starts, then `n`: a stretch ends where an
    // element is strictly less than the one before it.
    let mut bounds: Vec<usize> = std::iter::once(0)
        .chain((1..n).filter(|&i| compare(i, i - 1) == Ordering::Less))
        .chain(std::iter::once(n))
        .collect();
    let mut merged = vec![0; n];
    while bounds.len() > 2 {
        let mut next = Vec::with_capacity(bounds.len() / 2 + 2);
        next.push(0);
        for pair in bounds.windows(3).step_by(2) {
            merge(&order, &mut merged, pair[0], pair[1], pair[2], compare);
            next.push(pair[2]);
        }
        // An odd stretch at the end has no partner in this pass.
        if bounds.len() % 2 == 0 {
            let start = bounds[bounds.len() - 2];
            merged[start..n].copy_from_slice(&order[start..n]);
            next.push(n);
        }
        std::mem::swap(&mut order, &mut merged);
        bounds = next;
    }
    Some(order)
}

/// Merge `order[start..mid]` and `order[mid..end]`, both in order, into
/// `merged[start..end]`.
fn merge(
    order: &[usize],
    merged: &mut [usize],
    start: usize,
    mid: usize,
    end: usize,
    compare: &dyn Fn(usize, usize) -> Ordering,
) {
    let (mut i, mut j, mut k) = (start, mid, start);
    while i < mid && j < end {
        // The right stretch's element goes first only when it is strictly
        // less: that keeps the sort stable.
        if compare(order[j], order[i]) == Ordering::Less {
            merged[k] = order[j];
            j += 1;
        } else {
            merged[k] = order[i];
            i += 1;
        }
        k += 1;
    }
    merged[k..k + (mid - i)].copy_from_slice(&order[i..mid]);
    k += mid - i;
    merged[k..k + (end - j)].copy_from_slice(&order[j..end]);
}

/// The indices `0..keys.len()` in the order of their keys, equal keys in
/// their own order: a least-significant-digit radix sort, linear in the
/// number of keys. The compaction and recall orders have a key of this kind
/// (a date's day number, a score's bits) and sort up to every line of a
/// memory, where a comparison sort's `log n` and its scattered reads of
/// the items show.
pub(crate) fn sort_indices_by_key(keys: &[u64]) -> Vec<usize> {
    sort_pairs_by_key(keys.iter().copied().zip(0..).collect(), u64::BITS)
        .into_iter()
        .map(|(_, i)| i)
        .collect()
}

/// `pairs` of a key, of which only the low `bits` bits are set, and an item,
/// in the order of their keys, equal keys in their own order. The pairs
/// move, not indices to them: every pass reads one array in order and
/// writes to one place per bucket, so that a memory too large for the
/// processor's caches costs no more per key than a small one. Digits that
/// every key shares cost no pass.
///
/// Below 256 pairs, counting into the buckets costs more than comparing, so
/// a few are put in order by the merge sort.
pub(crate) fn sort_pairs_by_key(mut pairs: Vec<(u64, usize)>, bits: u32) -> Vec<(u64, usize)> {
    const FEW: usize = 256;
    const BITS: u32 = 11;
    const BUCKETS: usize = 1 << BITS;
    // Masked to BITS bits first, so nothing is cut off.
    #[allow(clippy::cast_possible_truncation)]
    let digit = |key: u64, shift: u32| ((key >> shift) & (BUCKETS as u64 - 1)) as usize;
    if pairs.len() < FEW {
        return match stable_order(pairs.len(), &|a, b| pairs[a].0.cmp(&pairs[b].0)) {
            Some(order) => order.into_iter().map(|i| pairs[i]).collect(),
            None => pairs,
        };
    }
    let mut next = vec![(0, 0); pairs.len()];
    let mut counts = vec![0_usize; BUCKETS];
    let mut shift = 0;
    while shift < bits {
        counts.fill(0);
        for &(key, _) in &pairs {
            counts[digit(key, shift)] += 1;
        }
        if counts.iter().all(|&c| c == 0 || c == pairs.len()) {
            shift += BITS;
            continue;
        }
        // Each bucket's first slot.
        let mut at = 0;
        for count in &mut counts {
            (*count, at) = (at, at + *count);
        }
        for &pair in &pairs {
            let slot = &mut counts[digit(pair.0, shift)];
            next[*slot] = pair;
            *slot += 1;
        }
        std::mem::swap(&mut pairs, &mut next);
        shift += BITS;
    }
    pairs
}

/// Sort `items` by `compare`, stably (as `slice::sort_by`).
pub(crate) fn sort_by<T>(items: &mut Vec<T>, compare: &dyn Fn(&T, &T) -> Ordering) {
    let Some(order) = stable_order(items.len(), &|a, b| compare(&items[a], &items[b])) else {
        return;
    };
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

#[cfg(test)]
mod tests {
    use super::{sort_by, sort_indices_by_key};

    #[test]
    fn sorts_as_the_standard_stable_sort() {
        // Pairs compared by their first half only: the second half shows
        // that equal elements keep their order.
        // Random keys of few or many values, and keys already in order,
        // reversed, or in stretches of order.
        let mut seed = 7_u64;
        let mut random = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 33
        };
        let shapes: [&dyn Fn(usize, u64) -> u64; 6] = [
            &|_, r| r % 5,
            &|_, r| r % 1000,
            &|i, _| i as u64,
            &|i, _| 1000 - i as u64,
            &|i, _| (i % 7) as u64,
            &|i, r| (i / 9) as u64 * 3 + r % 3,
        ];
        for (shape, key) in shapes.iter().enumerate() {
            for len in 0..90 {
                let items: Vec<(u64, usize)> = (0..len).map(|i| (key(i, random()), i)).collect();
                let mut ours = items.clone();
                sort_by(&mut ours, &|a, b| a.0.cmp(&b.0));
                let mut std = items;
                std.sort_by_key(|a| a.0);
                assert_eq!(ours, std, "shape {shape}, {len} items");
            }
        }
    }

    #[test]
    fn orders_by_key_as_the_standard_stable_sort() {
        let mut seed = 11_u64;
        let mut random = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed
        };
        // Few values, many values, every bit used, one digit only, high
        // digits only, sorted and reversed.
        let shapes: [&dyn Fn(usize, u64) -> u64; 7] = [
            &|_, r| r % 5,
            &|_, r| (r >> 20) % 100_000,
            &|_, r| r,
            &|_, r| r % 2048,
            &|_, r| (r % 3) << 60,
            &|i, _| i as u64,
            &|i, _| u64::MAX - i as u64,
        ];
        for (shape, key) in shapes.iter().enumerate() {
            for len in [0, 1, 2, 3, 10, 100, 3000] {
                let keys: Vec<u64> = (0..len).map(|i| key(i, random())).collect();
                let mut std: Vec<usize> = (0..len).collect();
                std.sort_by_key(|&i| keys[i]);
                assert_eq!(sort_indices_by_key(&keys), std, "shape {shape}, {len} keys");
            }
        }
    }
}
