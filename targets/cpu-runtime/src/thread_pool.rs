//! The worker threads of [`crate::parallel`]: a loop nest takes tens of
//! microseconds, so a worker waits for the next one by spinning a short while
//! (as OpenMP runtimes do) before it sleeps; rayon's pool, which sleeps at
//! once, spent longer waking its workers than MobileNetV2's nests ran.
//!
//! One job at a time: a job is `total` chunks cut into one contiguous share
//! per thread (the caller's first). Each thread runs its own share, then
//! takes what is left of the others', so a thread slowed by another process
//! does not hold the job back. The shares are the same from job to job, so
//! where one nest's outer loop and the next's cut the data alike, a thread
//! reads what it wrote itself: on a host whose two cores sit on different
//! L3 caches (this project's KVM host, at times), a line written by the
//! other core took three times as long to read. A caller that finds the pool
//! busy (another model running on another thread) runs its chunks itself.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicPtr, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long an idle worker spins before it sleeps.
const SPIN: Duration = Duration::from_micros(300);

/// The job being run: lives on the caller's stack until every worker that
/// may have seen it has left (`Shared::active`).
struct Job {
    run: *const (dyn Fn(i64) + Sync),
    /// Each thread's share: the next chunk to take of it.
    next: Vec<AtomicI64>,
    done: AtomicI64,
    total: i64,
}

/// Thread `p`'s share of a job of `total` chunks on `threads` threads (the
/// caller is thread 0): the chunks it runs before it takes others'.
pub(crate) fn share(total: i64, threads: i64, p: i64) -> std::ops::Range<i64> {
    total * p / threads..total * (p + 1) / threads
}

#[derive(Default)]
struct Shared {
    /// Bumped for each job published.
    generation: AtomicU64,
    job: AtomicPtr<Job>,
    /// Workers between looking at `job` and being done with it.
    active: AtomicUsize,
    parked: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
    stop: AtomicBool,
}

pub(crate) struct Pool {
    shared: Arc<Shared>,
    busy: Mutex<()>,
    workers: usize,
}

impl Pool {
    /// A pool of `workers` threads besides the callers'.
    pub(crate) fn new(workers: usize) -> Option<Pool> {
        let pool = Pool { shared: Arc::new(Shared::default()), busy: Mutex::new(()), workers };
        for i in 0..workers {
            let s = pool.shared.clone();
            // The JIT's code may keep large frames: the main thread's stack size.
            // On failure the pool is dropped, which stops the workers started.
            std::thread::Builder::new().name(format!("npu-cpu-{i}")).stack_size(8 << 20).spawn(move || work(&s, i + 1)).ok()?;
        }
        Some(pool)
    }

    pub(crate) fn workers(&self) -> usize {
        self.workers
    }

    /// Runs `run(0..total)`, each chunk once, on the calling thread and the workers.
    pub(crate) fn run(&self, total: i64, run: &(dyn Fn(i64) + Sync)) {
        let Ok(_one) = self.busy.try_lock() else {
            (0..total).for_each(run);
            return;
        };
        let s = &*self.shared;
        // SAFETY: the pointer is withdrawn below, and every worker that may
        // hold it has left, before `run` goes out of scope.
        let run: *const (dyn Fn(i64) + Sync) = unsafe { std::mem::transmute::<&(dyn Fn(i64) + Sync), &'static (dyn Fn(i64) + Sync)>(run) };
        let threads = self.workers + 1;
        let next = (0..threads).map(|p| AtomicI64::new(share(total, threads as i64, p as i64).start)).collect();
        let job = Job { run, next, done: AtomicI64::new(0), total };
        s.job.store(&job as *const Job as *mut Job, SeqCst);
        s.generation.fetch_add(1, SeqCst);
        if s.parked.load(SeqCst) > 0 {
            let _l = s.lock.lock().unwrap_or_else(|e| e.into_inner());
            s.wake.notify_all();
        }
        take_chunks(&job, 0);
        while job.done.load(Acquire) < total {
            std::hint::spin_loop();
        }
        s.job.store(std::ptr::null_mut(), SeqCst);
        while s.active.load(SeqCst) > 0 {
            std::hint::spin_loop();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let s = &*self.shared;
        s.stop.store(true, SeqCst);
        let _l = s.lock.lock().unwrap_or_else(|e| e.into_inner());
        s.wake.notify_all();
    }
}

/// Thread `me`'s chunks: its own share first, then the others' leftovers.
fn take_chunks(job: &Job, me: usize) {
    let threads = job.next.len();
    for p in (me..threads).chain(0..me) {
        let end = share(job.total, threads as i64, p as i64).end;
        loop {
            let c = job.next[p].fetch_add(1, AcqRel);
            if c >= end {
                break;
            }
            // SAFETY: the job (and its closure) outlive every chunk: its caller waits for `done`.
            unsafe { (*job.run)(c) };
            job.done.fetch_add(1, Release);
        }
    }
}

/// Worker `me` (the caller is 0): waits for a new generation (spinning,
/// then asleep), then takes chunks of whatever job is published.
fn work(s: &Shared, me: usize) {
    // The generation the pool was made with, not the one this thread first
    // reads: a job published before it started is still its to help with.
    let mut seen = 0;
    loop {
        let start = Instant::now();
        let mut spins = 0u32;
        loop {
            if s.stop.load(Relaxed) {
                return;
            }
            if s.generation.load(SeqCst) != seen {
                break;
            }
            std::hint::spin_loop();
            spins = spins.wrapping_add(1);
            if spins % 256 == 0 && start.elapsed() > SPIN {
                let mut l = s.lock.lock().unwrap_or_else(|e| e.into_inner());
                s.parked.fetch_add(1, SeqCst);
                while s.generation.load(SeqCst) == seen && !s.stop.load(SeqCst) {
                    l = s.wake.wait(l).unwrap_or_else(|e| e.into_inner());
                }
                s.parked.fetch_sub(1, SeqCst);
                break;
            }
        }
        seen = s.generation.load(SeqCst);
        s.active.fetch_add(1, SeqCst);
        let p = s.job.load(SeqCst);
        if !p.is_null() {
            // SAFETY: `active` keeps the job alive until this worker leaves it.
            take_chunks(unsafe { &*p }, me);
        }
        s.active.fetch_sub(1, SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::Pool;
    use std::sync::atomic::{AtomicI64, Ordering};

    #[test]
    fn every_chunk_runs_once_many_times_over() {
        let pool = Pool::new(3).unwrap();
        for round in 0..2000 {
            let total = 1 + round % 17;
            let hits: Vec<AtomicI64> = (0..total).map(|_| AtomicI64::new(0)).collect();
            pool.run(total, &|c| {
                hits[c as usize].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "round {round}");
            if round % 500 == 0 {
                // Long enough for the workers to fall asleep.
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
    }

    /// Each thread starts on its own share: the caller on the first
    /// chunks, the worker on the second half. (Every chunk waits until both
    /// threads have started one, so neither can take all of them first.)
    #[test]
    fn each_thread_starts_on_its_own_share() {
        use std::sync::Mutex;
        use std::time::{Duration, Instant};
        let pool = Pool::new(1).unwrap();
        let caller = std::thread::current().id();
        for total in [2, 4, 7] {
            let first: Mutex<Vec<(bool, i64)>> = Mutex::new(vec![]);
            let started = AtomicI64::new(0);
            pool.run(total, &|c| {
                let on_caller = std::thread::current().id() == caller;
                {
                    let mut f = first.lock().unwrap();
                    if !f.iter().any(|(t, _)| *t == on_caller) {
                        f.push((on_caller, c));
                        started.fetch_add(1, Ordering::SeqCst);
                    }
                }
                let t0 = Instant::now();
                while started.load(Ordering::SeqCst) < 2 && t0.elapsed() < Duration::from_secs(10) {
                    std::hint::spin_loop();
                }
            });
            let mut f = first.into_inner().unwrap();
            f.sort();
            assert_eq!(f, vec![(false, total / 2), (true, 0)], "{total} chunks: the worker's share begins at chunk {}", total / 2);
        }
    }

    #[test]
    fn callers_on_several_threads_share_one_pool() {
        let pool = Pool::new(2).unwrap();
        let sum = AtomicI64::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..200 {
                        pool.run(8, &|c| {
                            sum.fetch_add(c, Ordering::Relaxed);
                        });
                    }
                });
            }
        });
        assert_eq!(sum.load(Ordering::Relaxed), 4 * 200 * 28);
    }
}
