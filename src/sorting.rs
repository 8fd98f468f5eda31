//! One stable sort for the crate, compiled once. The standard library's
//! sorts are generic over the element and the comparison, so each of the
//! crate's sorts (findings, recall's order, compaction's order) was a copy
//! of its quicksort and merge sort in the WebAssembly module. Here only the
//! indices are sorted, by a merge sort that calls its comparison through a
//! `dyn`; the elements are moved into that order afterwards. Every
//! comparison the crate sorts by is a total order or ties in input order,
//! so the result is the one `sort_by` gives.

use std::cmp::Ordering;

/// The indices `0..n` in the order `compare` puts them, equal ones in their
/// own order.
fn stable_order(n: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut merged = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                // The right run's element goes first only when it is
                // strictly less: that keeps the sort stable.
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
            start = end;
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// Sort `items` by `compare`, stably (as `slice::sort_by`).
pub(crate) fn sort_by<T>(items: &mut Vec<T>, compare: &dyn Fn(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &|a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

#[cfg(test)]
mod tests {
    use super::sort_by;

    #[test]
    fn sorts_as_the_standard_stable_sort() {
        // Pairs compared by their first half only: the second half shows
        // that equal elements keep their order.
        let mut seed = 7_u64;
        for len in 0..70 {
            let items: Vec<(u64, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    ((seed >> 33) % 5, i)
                })
                .collect();
            let mut ours = items.clone();
            sort_by(&mut ours, &|a, b| a.0.cmp(&b.0));
            let mut std = items;
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std, "{len} items");
        }
    }
}
