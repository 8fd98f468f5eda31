//! Which keys of a list are equal, for the rules that pair up sections or
//! entries by a normalized text: duplicate headings (validate), sections
//! joined and duplicate entries (compaction), sections matched across the
//! three inputs of a merge; and whether a key is in a set of them.
//!
//! A hash map from key to first index does this in one pass, but its reads
//! land anywhere in a table as large as the list: once a memory's keys no
//! longer fit in the processor's caches, nearly every key costs a miss, and
//! the time grows faster than the list (BENCHMARKS.md). Here the keys are
//! hashed in order, the hashes are put in order by a radix sort whose every
//! pass reads and writes in order, and only keys with the same hash are
//! compared. Equal hashes of different keys (a collision, or keys made to
//! collide) are told apart by a sort of their texts, so no input costs
//! more than `n log n` comparisons.

use crate::fast::{sort_by, sort_pairs_by_key};

/// For each of `count` keys (`key(i)`), the index of the first key equal to
/// it: its own index when no earlier key is equal.
pub(crate) fn first_equal<'k>(count: usize, key: &dyn Fn(usize) -> &'k [u8]) -> Vec<usize> {
    let mut first: Vec<usize> = (0..count).collect();
    if count < 2 {
        return first;
    }
    let hashes: Vec<(u64, usize)> = (0..count).map(|i| (hash(key(i)) >> 32, i)).collect();
    let sorted = sort_pairs_by_key(hashes, 32);
    let mut rest = &sorted[..];
    while let Some(&(hash, _)) = rest.first() {
        let len = rest
            .iter()
            .position(|&(h, _)| h != hash)
            .unwrap_or(rest.len());
        let (run, after) = rest.split_at(len);
        rest = after;
        // The run is in index order (the sort is stable): its first key is
        // the first of those equal to it.
        let (_, head) = run[0];
        if run[1..].iter().all(|&(_, i)| key(i) == key(head)) {
            for &(_, i) in &run[1..] {
                first[i] = head;
            }
            continue;
        }
        // Stably by text: each text's first index leads its equals.
        let mut order: Vec<usize> = run.iter().map(|&(_, i)| i).collect();
        sort_by(&mut order, &|&a, &b| key(a).cmp(key(b)));
        let mut lead = order[0];
        for &i in &order {
            if key(i) != key(lead) {
                lead = i;
            }
            first[i] = lead;
        }
    }
    first
}

/// A set of texts, for the rules that ask whether a key is among others
/// (forbidden headings, the stored document's, recall's query words):
/// sorted once, each text once, then searched.
pub(crate) struct TextSet<'a>(Vec<&'a str>);

impl<'a> TextSet<'a> {
    pub(crate) fn new(mut texts: Vec<&'a str>) -> Self {
        sort_by(&mut texts, &|a, b| a.cmp(b));
        texts.dedup();
        Self(texts)
    }

    pub(crate) fn contains(&self, text: &str) -> bool {
        self.0.binary_search(&text).is_ok()
    }
}

/// A 64-bit hash of `bytes`, eight at a time, its bits mixed at the end so
/// that the high ones depend on every byte.
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let step = |h: u64, word: u64| (h.rotate_left(5) ^ word).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    let mut h = bytes.len() as u64;
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        h = step(h, u64::from_le_bytes(word));
    }
    let rest = chunks.remainder();
    let mut word = [0; 8];
    word[..rest.len()].copy_from_slice(rest);
    h = step(h, u64::from_le_bytes(word));
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::{first_equal, hash, TextSet};

    /// What a hash map from key to first index gives.
    fn by_map(keys: &[Vec<u8>]) -> Vec<usize> {
        let mut seen = HashMap::new();
        keys.iter()
            .enumerate()
            .map(|(i, k)| *seen.entry(k).or_insert(i))
            .collect()
    }

    #[test]
    fn finds_the_first_equal_key_as_a_map_does() {
        let mut seed = 5_u64;
        let mut random = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 33
        };
        // Few values, many values, all equal, all different, long keys
        // differing only at the end, and the empty key.
        let shapes: [&dyn Fn(usize, u64) -> Vec<u8>; 6] = [
            &|_, r| format!("k{}", r % 5).into_bytes(),
            &|_, r| format!("key {}", r % 2000).into_bytes(),
            &|_, _| b"same".to_vec(),
            &|i, _| format!("h{i}").into_bytes(),
            &|_, r| format!("{}{}", "x".repeat(40), r % 30).into_bytes(),
            &|i, r| {
                if i % 3 == 0 {
                    Vec::new()
                } else {
                    vec![b'a'; (r % 20) as usize]
                }
            },
        ];
        for (shape, key) in shapes.iter().enumerate() {
            for len in [0, 1, 2, 3, 10, 255, 256, 3000] {
                let keys: Vec<Vec<u8>> = (0..len).map(|i| key(i, random())).collect();
                let ours = first_equal(keys.len(), &|i| &keys[i]);
                assert_eq!(ours, by_map(&keys), "shape {shape}, {len} keys");
            }
        }
    }

    #[test]
    fn a_text_set_holds_exactly_its_texts() {
        let set = TextSet::new(vec!["team goals", "", "decisions", "team goals", "a"]);
        for text in ["team goals", "", "decisions", "a"] {
            assert!(set.contains(text), "{text:?}");
        }
        for text in ["team", "decisions ", "b", "team goalsx"] {
            assert!(!set.contains(text), "{text:?}");
        }
        assert!(!TextSet::new(Vec::new()).contains(""));
    }

    #[test]
    fn tells_apart_keys_whose_hashes_are_equal() {
        // Two keys whose hashes' high halves are equal, found by search
        // (among 300,000 keys, about ten such pairs are expected).
        let mut by_hash = HashMap::new();
        let (a, b) = (0..300_000_u32)
            .map(|i| format!("c{i}").into_bytes())
            .find_map(|k| {
                by_hash
                    .insert(hash(&k) >> 32, k.clone())
                    .map(|earlier| (earlier, k))
            })
            .expect("a collision among 300,000 keys");
        assert_ne!(a, b);
        // Few keys (the merge sort) and many (the radix sort), with other
        // keys around them.
        for len in [6, 1000] {
            let keys: Vec<Vec<u8>> = (0..len)
                .map(|i| match i % 5 {
                    0 | 3 => b.clone(),
                    2 => format!("other {}", i % 7).into_bytes(),
                    _ => a.clone(),
                })
                .collect();
            assert_eq!(
                first_equal(keys.len(), &|i| &keys[i]),
                by_map(&keys),
                "{len} keys"
            );
        }
    }
}
