//! The fray binary's allocator: mimalloc, asked as `malloc` is asked.
//!
//! A battle allocates and frees thousands of small blocks (events, paths,
//! lists), and batch simulation, live odds and the look-ahead AI run
//! millions of battles (see the README's speed section). The `mimalloc`
//! crate's allocator asks for every block by its alignment
//! (`mi_malloc_aligned`), which looks for a free block that happens to be
//! aligned; nearly every Rust block asks for no more than mimalloc's plain
//! `mi_malloc` gives anyway, as the standard library's own `System`
//! allocator reasons about `malloc`.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment every `mi_malloc` block of at least this size has
/// (mimalloc's `MI_MAX_ALIGN_SIZE`, `sizeof(max_align_t)`: its size
/// classes are whole multiples of it from there on); a smaller block (its
/// one class below, a word) is aligned to a word, which is at least any
/// alignment no larger than its size.
const PLAIN_ALIGN: usize = 16;

/// Is a block of `size` bytes asked with `align` aligned as it must be when
/// `mi_malloc` gives it? (The standard library's test for `malloc`: an
/// alignment at most the guaranteed one, and at most the size, which a
/// block of that size is aligned to.)
#[inline(always)]
fn plain(size: usize, align: usize) -> bool {
    align <= PLAIN_ALIGN && align <= size
}

/// mimalloc, asked by its plain entry points where they give the block's
/// alignment, by its aligned ones otherwise.
pub struct Mimalloc;

// SAFETY: every block comes from mimalloc, aligned as asked (the plain
// entry points only where `plain` says they align it), and every block is
// freed or resized by mimalloc, whichever entry point made it (`mi_free`
// and `mi_realloc_aligned` take any block mimalloc gave).
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: mimalloc's allocation functions take any size.
        unsafe {
            if plain(layout.size(), layout.align()) {
                mi::mi_malloc(layout.size()).cast()
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        unsafe {
            if plain(layout.size(), layout.align()) {
                mi::mi_zalloc(layout.size()).cast()
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, so from mimalloc.
        unsafe { mi::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from mimalloc; a block moved by `mi_realloc`
        // is a plain block of the new size, aligned as `plain` says.
        unsafe {
            if plain(new_size, layout.align()) {
                mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block is aligned as asked and holds what was written to it,
    /// through resizes down and up (which may move it or not), for sizes
    /// and alignments on either side of the plain entry points' guarantee.
    #[test]
    fn blocks_are_aligned_as_asked_and_keep_their_bytes() {
        let a = Mimalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 3, 7, 8, 12, 15, 16, 17, 24, 40, 100, 1000, 70_000] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: non-zero sizes; every block is written within
                // its size and freed or resized by this allocator with the
                // layout it has.
                unsafe {
                    let z = a.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0, "zeroed {size}, align {align}");
                    assert!((0..size).all(|i| z.add(i).read() == 0));
                    a.dealloc(z, layout);
                    let mut p = a.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size}, align {align}");
                    for i in 0..size {
                        p.add(i).write(i as u8);
                    }
                    let mut now = size;
                    for new_size in [size / 2 + 1, size * 3 + 5, size] {
                        p = a.realloc(p, Layout::from_size_align(now, align).unwrap(), new_size);
                        assert_eq!(p as usize % align, 0, "{now} -> {new_size}, align {align}");
                        let kept = now.min(new_size);
                        assert!((0..kept).all(|i| p.add(i).read() == i as u8));
                        for i in kept..new_size {
                            p.add(i).write(i as u8);
                        }
                        now = new_size;
                    }
                    a.dealloc(p, layout);
                }
            }
        }
    }
}
