//! The memory of a model's intermediate buffers: `plan-arena` places each
//! static intermediate of a function at an offset of one arena, sized at
//! compile time by the buffers' lifetimes, and the function takes the arena
//! from here on entry ([`push`]) and gives it back on return ([`pop`]).
//!
//! Each thread keeps a stack of blocks that outlive the run: the next run on
//! the thread finds its arena allocated and warm (no malloc, no fresh pages),
//! as ONNX Runtime's arena keeps its chunks. A stack, so a function that calls
//! another with an arena of its own (a subgraph's) gets the block above.
//! The blocks are freed when their thread ends: a server that runs models on
//! many threads holds one peak per thread.

use std::alloc::{alloc, dealloc, Layout};
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

use cpu_target::abi::ARENA_ALIGN as ALIGN;

/// A `memref<?xi8>` as MLIR's C interface returns it (`_mlir_ciface_` with
/// the result through the first argument).
#[repr(C)]
pub struct Descriptor {
    allocated: *mut u8,
    aligned: *mut u8,
    offset: i64,
    size: i64,
    stride: i64,
}

struct Block {
    ptr: *mut u8,
    capacity: usize,
    /// The bytes the function on this level asked for.
    used: usize,
}

#[derive(Default)]
struct Stack {
    blocks: Vec<Block>,
    depth: usize,
}

impl Drop for Stack {
    fn drop(&mut self) {
        for b in &self.blocks {
            if b.capacity > 0 {
                // SAFETY: allocated below with this layout.
                unsafe { dealloc(b.ptr, Layout::from_size_align_unchecked(b.capacity, ALIGN)) };
            }
        }
    }
}

thread_local! {
    static STACK: RefCell<Stack> = RefCell::new(Stack::default());
}

/// The most bytes the functions running on one thread asked of their arenas
/// at once (not the blocks' capacity), over every thread since [`reset_peak`].
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The peak of the arenas' bytes in use on any one thread since [`reset_peak`].
pub fn peak_bytes() -> usize {
    PEAK.load(Ordering::Relaxed)
}

pub fn reset_peak() {
    PEAK.store(0, Ordering::Relaxed);
}

/// Hands out the next level's block, at least `bytes` long
/// (`cpu_target::abi::ARENA_PUSH`, through MLIR's C interface).
///
/// # Safety
/// `out` points to a descriptor the caller owns.
pub(crate) unsafe extern "C" fn push(out: *mut Descriptor, bytes: i64) {
    let bytes = bytes.max(0) as usize;
    let ptr = STACK.with(|s| {
        let mut s = s.borrow_mut();
        let d = s.depth;
        if s.blocks.len() == d {
            s.blocks.push(Block { ptr: std::ptr::null_mut(), capacity: 0, used: 0 });
        }
        let b = &mut s.blocks[d];
        if b.capacity < bytes {
            if b.capacity > 0 {
                // SAFETY: allocated below with this layout.
                unsafe { dealloc(b.ptr, Layout::from_size_align_unchecked(b.capacity, ALIGN)) };
            }
            let layout = Layout::from_size_align(bytes, ALIGN).unwrap_or_else(|_| std::alloc::handle_alloc_error(Layout::new::<u8>()));
            // SAFETY: `bytes` > 0 here.
            let p = unsafe { alloc(layout) };
            if p.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            *b = Block { ptr: p, capacity: bytes, used: 0 };
        }
        b.used = bytes;
        s.depth += 1;
        let in_use: usize = s.blocks[..s.depth].iter().map(|b| b.used).sum();
        PEAK.fetch_max(in_use, Ordering::Relaxed);
        // An empty arena still needs an aligned, non-null address.
        if bytes == 0 {
            ALIGN as *mut u8
        } else {
            s.blocks[d].ptr
        }
    });
    // SAFETY: the caller's contract.
    unsafe { out.write(Descriptor { allocated: ptr, aligned: ptr, offset: 0, size: bytes as i64, stride: 1 }) };
}

/// Gives back the block of the last [`push`] on this thread
/// (`cpu_target::abi::ARENA_POP`); it stays allocated for the next run.
pub(crate) extern "C" fn pop() {
    STACK.with(|s| {
        let mut s = s.borrow_mut();
        s.depth = s.depth.saturating_sub(1);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(bytes: i64) -> Descriptor {
        let mut d = Descriptor { allocated: std::ptr::null_mut(), aligned: std::ptr::null_mut(), offset: -1, size: -1, stride: -1 };
        unsafe { push(&mut d, bytes) };
        d
    }

    /// A level's block is kept for the next run; a nested push gets a block
    /// of its own; the peak counts both levels at once.
    #[test]
    fn levels_keep_their_blocks_and_the_peak_counts_them_together() {
        std::thread::spawn(|| {
            let a = take(1000);
            assert!(!a.aligned.is_null() && a.aligned as usize % ALIGN == 0);
            assert_eq!((a.offset, a.size, a.stride), (0, 1000, 1));
            unsafe { std::ptr::write_bytes(a.aligned, 7, 1000) };
            let b = take(300);
            assert!(b.aligned as usize >= a.aligned as usize + 1000 || b.aligned as usize + 300 <= a.aligned as usize, "the nested block overlaps the outer one");
            assert!(peak_bytes() >= 1300);
            pop();
            pop();
            let again = take(800);
            assert_eq!(again.aligned, a.aligned, "the block is kept, not allocated anew");
            pop();
            let grown = take(5000);
            unsafe { std::ptr::write_bytes(grown.aligned, 1, 5000) };
            pop();
            let empty = take(0);
            assert!(!empty.aligned.is_null());
            pop();
        })
        .join()
        .unwrap();
    }
}
