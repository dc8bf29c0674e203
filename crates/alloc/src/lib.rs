//! The global allocator of podlab's wasm32 builds (the lab page and the benchmark module).
//!
//! A run of the engine makes tens of thousands of small allocations (strings, vectors,
//! map nodes) and frees almost all of them before the next run. Natively mimalloc serves
//! those from per-size free lists in a few instructions; Rust's default wasm32 allocator
//! (dlmalloc) searches and coalesces on every call, and a profile under Node.js put about a
//! quarter of a lifecycle's time in it. [`SizeClasses`] puts per-size free lists in front
//! of any allocator: a request of at most [`MAX_SMALL`] bytes with an alignment of at most
//! [`GRAIN`] is rounded up to a multiple of `GRAIN`, taken from that size's list when the
//! list has a block, and otherwise from the inner allocator; a freed small block goes back
//! on its list. Small blocks are reused for small requests of the same size class and never
//! returned to the inner allocator, so memory held in the lists is bounded by the largest
//! number of small blocks live at once. Larger or more aligned requests go straight through.
//!
//! The lists are plain cells without a lock, so the type is only `Sync` (and so only
//! usable as `#[global_allocator]`) on wasm32 without the `atomics` feature, where there is
//! one thread. Elsewhere it can be used through its methods by one thread at a time, which
//! is how the tests use it.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;
use std::ptr;

/// The size-class step and the largest alignment served from the lists, in bytes.
pub const GRAIN: usize = 16;
/// The largest request, in bytes, served from the lists.
pub const MAX_SMALL: usize = 512;
const CLASSES: usize = MAX_SMALL / GRAIN;

/// Per-size free lists of small blocks in front of the allocator `A` (see the crate docs).
pub struct SizeClasses<A> {
    inner: A,
    /// The first free block of each size class; each free block holds the next one's
    /// address in its first word.
    heads: UnsafeCell<[*mut u8; CLASSES]>,
}

// SAFETY: on wasm32 without the atomics feature there is only one thread, so the lists are
// never touched concurrently.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl<A: Sync> Sync for SizeClasses<A> {}

/// The size class of a small layout, or `None` when the layout goes to the inner allocator.
fn class_of(layout: Layout) -> Option<usize> {
    (layout.size() <= MAX_SMALL && layout.align() <= GRAIN).then(|| layout.size().saturating_sub(1) / GRAIN)
}

/// The layout in which blocks of size class `class` are taken from the inner allocator.
fn class_layout(class: usize) -> Layout {
    // SAFETY: the size is a non-zero multiple of GRAIN, a power of two, at most MAX_SMALL.
    unsafe { Layout::from_size_align_unchecked((class + 1) * GRAIN, GRAIN) }
}

impl<A> SizeClasses<A> {
    /// Free lists, all empty, in front of `inner`.
    pub const fn new(inner: A) -> Self {
        SizeClasses { inner, heads: UnsafeCell::new([ptr::null_mut(); CLASSES]) }
    }

    /// The number of free blocks held in the list of the size class serving `size` bytes
    /// (0 for sizes above [`MAX_SMALL`]); walks the list.
    pub fn free_blocks(&self, size: usize) -> usize {
        let Some(class) = class_of(Layout::from_size_align(size, 1).expect("valid size")) else {
            return 0;
        };
        // SAFETY: single-threaded use (see the type's docs); every listed block holds the
        // next block's address or null in its first word.
        unsafe {
            let mut block = (*self.heads.get())[class];
            let mut count = 0;
            while !block.is_null() {
                count += 1;
                block = *(block as *mut *mut u8);
            }
            count
        }
    }
}

unsafe impl<A: GlobalAlloc> GlobalAlloc for SizeClasses<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match class_of(layout) {
            Some(class) => {
                let head = &mut (*self.heads.get())[class];
                let block = *head;
                if block.is_null() {
                    self.inner.alloc(class_layout(class))
                } else {
                    *head = *(block as *mut *mut u8);
                    block
                }
            }
            None => self.inner.alloc(layout),
        }
    }

    #[inline]
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        match class_of(layout) {
            Some(class) => {
                let head = &mut (*self.heads.get())[class];
                *(block as *mut *mut u8) = *head;
                *head = block;
            }
            None => self.inner.dealloc(block, layout),
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match class_of(layout) {
            Some(_) => {
                let block = self.alloc(layout);
                if !block.is_null() {
                    ptr::write_bytes(block, 0, layout.size());
                }
                block
            }
            None => self.inner.alloc_zeroed(layout),
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        match (class_of(layout), class_of(new_layout)) {
            // Still the same block size: nothing moves.
            (Some(old), Some(new)) if old == new => block,
            (None, None) => self.inner.realloc(block, layout, new_size),
            _ => {
                let moved = self.alloc(new_layout);
                if !moved.is_null() {
                    ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                    self.dealloc(block, layout);
                }
                moved
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn a_freed_small_block_is_reused_for_the_same_size_class() {
        let a = SizeClasses::new(System);
        unsafe {
            let first = a.alloc(layout(24, 8));
            assert!(!first.is_null());
            assert_eq!(first as usize % GRAIN, 0);
            a.dealloc(first, layout(24, 8));
            assert_eq!(a.free_blocks(24), 1);
            // 17..=32 bytes share a class; the block comes back whatever the size in it.
            let again = a.alloc(layout(32, 4));
            assert_eq!(again, first);
            assert_eq!(a.free_blocks(24), 0);
            // Another class does not take it.
            a.dealloc(again, layout(32, 4));
            let other = a.alloc(layout(48, 8));
            assert_ne!(other, first);
            assert_eq!(a.free_blocks(17), 1);
            a.dealloc(other, layout(48, 8));
            assert_eq!(a.free_blocks(48), 1);
        }
    }

    #[test]
    fn large_and_overaligned_requests_bypass_the_lists() {
        let a = SizeClasses::new(System);
        unsafe {
            for l in [layout(MAX_SMALL + 1, 8), layout(64, 64), layout(4096, 16)] {
                let block = a.alloc(l);
                assert!(!block.is_null());
                assert_eq!(block as usize % l.align(), 0);
                a.dealloc(block, l);
            }
            assert_eq!(a.free_blocks(MAX_SMALL + 1), 0);
            assert_eq!(a.free_blocks(64), 0);
        }
    }

    #[test]
    fn blocks_in_use_never_overlap_and_keep_their_contents() {
        let a = SizeClasses::new(System);
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        let mut seed = 0x9e37_79b9_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        unsafe {
            for round in 0..20_000u32 {
                let r = next();
                if r % 3 == 0 && !live.is_empty() {
                    let (block, l, fill) = live.swap_remove(r as usize % live.len());
                    assert!((0..l.size()).all(|i| *block.add(i) == fill), "contents kept");
                    a.dealloc(block, l);
                } else if r % 3 == 1 && !live.is_empty() {
                    // Grow or shrink a live block across and within size classes and past
                    // MAX_SMALL; the common prefix survives.
                    let i = r as usize % live.len();
                    let (block, l, fill) = live[i];
                    let new_size = 1 + next() as usize % (MAX_SMALL * 2);
                    let moved = a.realloc(block, l, new_size);
                    assert!(!moved.is_null());
                    let kept = l.size().min(new_size);
                    assert!((0..kept).all(|j| *moved.add(j) == fill), "realloc keeps the prefix");
                    ptr::write_bytes(moved, fill, new_size);
                    live[i] = (moved, layout(new_size, l.align()), fill);
                } else {
                    let size = 1 + next() as usize % (MAX_SMALL + 64);
                    let l = layout(size, [1, 2, 4, 8, 16][next() as usize % 5]);
                    let block = if round % 7 == 0 { a.alloc_zeroed(l) } else { a.alloc(l) };
                    assert!(!block.is_null());
                    assert_eq!(block as usize % l.align(), 0);
                    if round % 7 == 0 {
                        assert!((0..size).all(|j| *block.add(j) == 0), "zeroed");
                    }
                    let fill = (round % 251) as u8;
                    ptr::write_bytes(block, fill, size);
                    live.push((block, l, fill));
                }
                // No two live blocks overlap.
                if round % 1000 == 0 {
                    let mut spans: Vec<(usize, usize)> =
                        live.iter().map(|(b, l, _)| (*b as usize, *b as usize + l.size())).collect();
                    spans.sort_unstable();
                    assert!(spans.windows(2).all(|w| w[0].1 <= w[1].0), "blocks overlap");
                }
            }
            for (block, l, fill) in live {
                assert!((0..l.size()).all(|i| *block.add(i) == fill));
                a.dealloc(block, l);
            }
        }
    }
}
