//! Threads for the CPU path's parallel loop nests. The JIT's code calls
//! [`parallel_for`] (bound as `cpu_target::abi::PARALLEL_FOR`) with a nest's packed
//! wrapper and a pointer to each of its arguments, the last three being its
//! outer loop's lower bound, upper bound and step; the range is cut into a
//! few chunks per thread at multiples of the step, and the calling thread
//! and the pool's workers ([`crate::thread_pool`]) each run their own share
//! of them first, then what is left of the others'. `npu-run --threads N`
//! sets how many; by default every core this process may use.

use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::thread_pool::share;

/// 0: every core this process may use.
static THREADS: AtomicUsize = AtomicUsize::new(0);

/// Sets how many threads a parallel nest runs on (0: every core).
pub fn set_threads(n: usize) {
    THREADS.store(n, Ordering::Relaxed);
}

/// How many threads a parallel nest runs on.
pub fn threads() -> usize {
    match THREADS.load(Ordering::Relaxed) {
        // Read once: it looks at the process's CPU set and cgroup each time.
        0 => {
            static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
            *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        }
        n => n,
    }
}

/// The pool of `n` workers besides the caller, made on first use and again
/// when `n` changes.
fn pool(n: usize) -> Option<Arc<crate::thread_pool::Pool>> {
    static POOL: Mutex<Option<Arc<crate::thread_pool::Pool>>> = Mutex::new(None);
    let mut p = POOL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(pool) = &*p {
        if pool.workers() == n {
            return Some(pool.clone());
        }
    }
    let made = Arc::new(crate::thread_pool::Pool::new(n)?);
    *p = Some(made.clone());
    Some(made)
}

/// Chunks per thread: a few, so a thread slowed by another process does not
/// hold the others back.
const CHUNKS_PER_THREAD: i64 = 4;
/// The fewest ops (estimated) a chunk should run: a smaller one costs more
/// in hand-over (and in data moving between cores' caches) than it saves.
/// An LSTM's recurrent product per step (about 41,000 ops, 1 MB of weights
/// streamed from L2) runs in 2 chunks so: the benchmark's two-layer LSTM on
/// two threads 1.26 -> 0.85 ms (at 25,000 it ran in one).
const MIN_CHUNK_WORK: i64 = 10_000;

/// How many chunks a nest of `trips` iterations and `work` ops runs in on
/// `threads` threads: a few per thread, none below [`MIN_CHUNK_WORK`], and
/// a multiple of the threads when there are more chunks than threads, so
/// no thread is left with one more chunk than another (3 chunks on 2
/// threads ran at 2/3 of the even split's speed).
fn chunks(threads: i64, trips: i64, work: i64) -> i64 {
    let t = (threads * CHUNKS_PER_THREAD).min(trips).min(work / MIN_CHUNK_WORK);
    if t > threads {
        t - t % threads
    } else {
        t
    }
}

type Packed = unsafe extern "C" fn(*mut *mut c_void);

/// The argument pointers of one call, sent to the pool's threads: the caller
/// waits until every chunk has run, so what they point to outlives them.
#[derive(Clone, Copy)]
struct Args(*const *mut c_void, usize);
// SAFETY: read-only while the chunks run; each chunk writes only its own copy.
unsafe impl Send for Args {}
unsafe impl Sync for Args {}

/// Chunk `c` of `t` over `trips` iterations: its first and one-past-last
/// iteration, cut as the pool cuts chunks into threads' shares (a floor of
/// the proportional bound). A thread's share of chunks then holds its
/// proportional share of the iterations too, give or take one (20
/// iterations in 8 chunks on 2 threads are 10 and 10; with the longer chunks
/// first they were 12 and 8).
fn chunk(trips: i64, t: i64, c: i64) -> (i64, i64) {
    let r = share(trips, t, c);
    (r.start, r.end)
}

/// Runs `nest` over its outer loop's range on [`threads`] threads, in as
/// many chunks as its `work` (the ops the whole range runs) pays for.
///
/// # Safety
/// `args` holds `n >= 3` pointers to the arguments `nest` reads, the last
/// three to i64s (lower bound, upper bound, step), as the code generator
/// writes them; `nest` may run on any sub-range at once with another.
pub(crate) unsafe extern "C" fn parallel_for(nest: Packed, args: *mut *mut c_void, n: i64, work: i64) {
    let n = n.max(0) as usize;
    // SAFETY: the caller's contract.
    unsafe {
        if n < 3 {
            return nest(args);
        }
        let a = std::slice::from_raw_parts(args, n);
        let read = |i: usize| *(a[i] as *const i64);
        let (lb, ub, step) = (read(n - 3), read(n - 2), read(n - 1));
        let trips = if step > 0 && ub > lb { (ub - lb + step - 1) / step } else { 0 };
        let threads = threads();
        let t = chunks(threads as i64, trips, work);
        let Some(pool) = (threads > 1 && t > 1).then(|| pool(threads - 1)).flatten() else { return nest(args) };
        let shared = Args(args, n);
        pool.run(t, &move |c: i64| {
            let shared = shared;
            let mut mine = std::slice::from_raw_parts(shared.0, shared.1).to_vec();
            let (first, end) = chunk(trips, t, c);
            let mut lo = lb + first * step;
            let mut hi = (lb + end * step).min(ub);
            mine[shared.1 - 3] = &mut lo as *mut i64 as *mut c_void;
            mine[shared.1 - 2] = &mut hi as *mut i64 as *mut c_void;
            nest(mine.as_mut_ptr());
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More chunks than threads come in a multiple of the threads; fewer
    /// stay as they are; none is below the fewest ops a chunk should run.
    #[test]
    fn chunks_split_evenly_over_the_threads() {
        assert_eq!(chunks(2, 8, 39_441), 2, "an LSTM step's product: 3 chunks would leave one thread two");
        assert_eq!(chunks(2, 100, 1_000_000), 8);
        assert_eq!(chunks(2, 7, 1_000_000), 6);
        assert_eq!(chunks(4, 8, 30_000), 3, "fewer chunks than threads");
        assert_eq!(chunks(1, 8, 1_000_000), 4);
        assert_eq!(chunks(2, 8, 9_999), 0, "below one chunk's work it runs on the caller");
    }

    #[test]
    fn chunks_cover_the_range_once() {
        for trips in [1, 2, 3, 7, 20, 64, 101] {
            for t in 1..=8.min(trips) {
                let mut next = 0;
                for c in 0..t {
                    let (a, b) = chunk(trips, t, c);
                    assert_eq!(a, next, "chunks are contiguous");
                    assert!(b > a, "no chunk is empty");
                    next = b;
                }
                assert_eq!(next, trips);
            }
        }
    }

    /// Each thread's share of the chunks (as the pool cuts them) holds as
    /// many iterations as another's, give or take one.
    #[test]
    fn shares_differ_by_one_iteration_at_most() {
        for trips in [5, 20, 21, 64, 101] {
            for threads in [2, 3, 4] {
                let t = chunks(threads, trips, 1 << 40);
                let share = |p: i64| share(t, threads, p).map(|c| chunk(trips, t, c)).map(|(a, b)| b - a).sum::<i64>();
                let sizes: Vec<i64> = (0..threads).map(share).collect();
                assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1, "{trips} iterations in {t} chunks on {threads} threads: shares {sizes:?}");
            }
        }
    }

    /// A nest that adds 1 to each element of its range (step 3) of a buffer.
    unsafe extern "C" fn bump(args: *mut *mut c_void) {
        unsafe {
            let a = std::slice::from_raw_parts(args, 4);
            let buf = *(a[0] as *const *mut i64);
            let (lb, ub, st) = (*(a[1] as *const i64), *(a[2] as *const i64), *(a[3] as *const i64));
            let mut i = lb;
            while i < ub {
                *buf.add(i as usize) += 1;
                i += st;
            }
        }
    }

    #[test]
    fn every_iteration_runs_once_on_any_thread_count() {
        for threads in [1, 2, 3, 5] {
            set_threads(threads);
            let mut data = vec![0i64; 100];
            let mut buf = data.as_mut_ptr();
            let (mut lb, mut ub, mut st) = (1i64, 98i64, 3i64);
            let mut args: Vec<*mut c_void> = vec![&mut buf as *mut _ as *mut c_void, &mut lb as *mut _ as *mut c_void, &mut ub as *mut _ as *mut c_void, &mut st as *mut _ as *mut c_void];
            // Work for many chunks, for one (run where it is called) and none.
            for work in [1 << 40, MIN_CHUNK_WORK + MIN_CHUNK_WORK / 2, 0] {
                data.iter_mut().for_each(|d| *d = 0);
                unsafe { parallel_for(bump, args.as_mut_ptr(), 4, work) };
                let want: Vec<i64> = (0..100).map(|i| i64::from(i >= 1 && i < 98 && (i - 1) % 3 == 0)).collect();
                assert_eq!(data, want, "{threads} threads, work {work}");
            }
        }
        set_threads(0);
    }
}
