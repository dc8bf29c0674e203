//! Stable sorting and sorted maps with one compiled copy of the standard library's sort.
//!
//! `slice::sort_by` is generic over the element type and the comparison, so every call site
//! gets its own copy of the whole sort (about 3 KB of wasm each, and the web app had over fifty).
//! These functions sort the positions `0..len` instead, with the comparison behind a `&dyn`,
//! through the one non-generic [`sorted_order`], then move the elements into that order: the
//! code left per call site is a small closure and a loop of swaps. The result is the same as
//! the standard library's stable sort (a stable sort's output is fully determined by the
//! comparison), and so is the order in which ties stay.
//!
//! [`btree_map`] builds a `BTreeMap` by inserting, because `collect()` into one sorts the
//! entries first, with a sort instantiated for each iterator type.

use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The positions `0..len` in the stable order `compare` gives to the elements at them.
#[inline(never)]
fn sorted_order(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// The swaps that move each element to its place, given that position `k` receives the element
/// now at `order[k]`.
#[inline(never)]
fn swaps(mut order: Vec<usize>) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for start in 0..order.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            out.push((at, from));
            at = from;
        }
    }
    out
}

/// `v.sort_by(compare)`: a stable sort, equal elements keep their order.
pub fn sort_by<T>(v: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = sorted_order(v.len(), &mut |a, b| compare(&v[a], &v[b]));
    for (a, b) in swaps(order) {
        v.swap(a, b);
    }
}

/// `v.sort_by_key(key)`: a stable sort by a key computed for each comparison.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// `v.sort()`: a stable sort by `Ord`.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// `iter.collect::<BTreeMap<K, V>>()`: for equal keys the last value wins, as with `collect`.
pub fn btree_map<K: Ord, V>(iter: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    for (k, v) in iter {
        map.insert(k, v);
    }
    map
}

/// `.collect_map()` for `.collect::<BTreeMap<_, _>>()`, see [`btree_map`].
pub trait CollectMap<K: Ord, V>: Iterator<Item = (K, V)> + Sized {
    fn collect_map(self) -> BTreeMap<K, V> {
        btree_map(self)
    }
}

impl<K: Ord, V, I: Iterator<Item = (K, V)>> CollectMap<K, V> for I {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every permutation of a few elements with ties sorts exactly as `slice::sort_by`.
    #[test]
    fn same_order_as_the_standard_sort() {
        let items = [(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e'), (0, 'f')];
        let mut perm: Vec<usize> = (0..items.len()).collect();
        // Heap's algorithm over the positions.
        let mut c = vec![0; perm.len()];
        let check = |perm: &[usize]| {
            let v: Vec<(i32, char)> = perm.iter().map(|&i| items[i]).collect();
            let mut ours = v.clone();
            let mut std = v.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std, "input {v:?}");
            let mut ours = v.clone();
            let mut std = v;
            sort_by_key(&mut ours, |x| std::cmp::Reverse(x.0));
            std.sort_by_key(|x| std::cmp::Reverse(x.0));
            assert_eq!(ours, std);
        };
        check(&perm);
        let mut i = 0;
        while i < perm.len() {
            if c[i] < i {
                if i % 2 == 0 {
                    perm.swap(0, i);
                } else {
                    perm.swap(c[i], i);
                }
                check(&perm);
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
    }

    #[test]
    fn long_inputs_and_maps() {
        let mut rng = crate::rng::Rng::new(7);
        let mut v: Vec<(u64, usize)> = (0..500).map(|i| (rng.next_u64() % 20, i)).collect();
        let mut std = v.clone();
        sort_by_key(&mut v, |x| x.0);
        std.sort_by_key(|x| x.0);
        assert_eq!(v, std);
        let mut words = vec!["b", "a", "c", "a"];
        sort(&mut words);
        assert_eq!(words, ["a", "a", "b", "c"]);
        let pairs = vec![("x", 1), ("y", 2), ("x", 3)];
        assert_eq!(btree_map(pairs.clone()), pairs.into_iter().collect::<BTreeMap<_, _>>());
    }
}
