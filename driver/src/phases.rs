//! The compile's phases as they happen: each timed (`npu-run --timing`), and
//! announced when it starts to an observer (`npu-run`'s progress line on a
//! terminal), as are the stages of a run.
//!
//! The clock is per thread (tests compile side by side); a compile starts it
//! with [`start`], marks each phase with [`begin`] and takes the times with
//! [`finish`]. A phase begun twice (a partitioning round repeated) adds up.
//! A phase may say where its time went ([`detail`]): those lines follow it.

use std::cell::RefCell;
use std::sync::OnceLock;
use std::time::Instant;

type Observer = Box<dyn Fn(&str) + Send + Sync>;

static OBSERVER: OnceLock<Observer> = OnceLock::new();

#[derive(Default)]
struct Clock {
    current: Option<(&'static str, Instant)>,
    details: Vec<(&'static str, f64)>,
    done: Vec<(&'static str, f64)>,
}

impl Clock {
    fn add(&mut self, name: &'static str, ms: f64) {
        match self.done.iter_mut().find(|d| d.0 == name) {
            Some(d) => d.1 += ms,
            None => self.done.push((name, ms)),
        }
    }

    fn close(&mut self) {
        if let Some((name, t)) = self.current.take() {
            self.add(name, t.elapsed().as_secs_f64() * 1e3);
        }
        for (name, ms) in std::mem::take(&mut self.details) {
            self.add(name, ms);
        }
    }
}

thread_local! {
    static CLOCK: RefCell<Clock> = RefCell::new(Clock::default());
}

/// Sets the one observer of the process (later calls are ignored): it gets
/// each phase's name as the phase starts, and each stage of a run.
pub fn observe(f: impl Fn(&str) + Send + Sync + 'static) {
    let _ = OBSERVER.set(Box::new(f));
}

/// Tells the observer, if any, what starts now.
pub fn notify(what: &str) {
    if let Some(f) = OBSERVER.get() {
        f(what);
    }
}

/// Starts this thread's clock afresh (a failed compile before may have left phases).
pub fn start() {
    CLOCK.with(|c| *c.borrow_mut() = Clock::default());
}

/// Ends the phase running (if any) and starts `name`.
pub fn begin(name: &'static str) {
    CLOCK.with(|c| {
        let mut c = c.borrow_mut();
        c.close();
        c.current = Some((name, Instant::now()));
    });
    notify(name);
}

/// A part of the phase running now and its milliseconds, listed after the
/// phase (by convention its name starts with spaces); the same detail given
/// twice adds up.
pub fn detail(name: &'static str, ms: f64) {
    CLOCK.with(|c| {
        let mut c = c.borrow_mut();
        match c.details.iter_mut().find(|d| d.0 == name) {
            Some(d) => d.1 += ms,
            None => c.details.push((name, ms)),
        }
    });
}

/// Ends the phase running and returns every phase's milliseconds, in the order they first began.
pub fn finish() -> Vec<(&'static str, f64)> {
    CLOCK.with(|c| {
        let mut c = c.borrow_mut();
        c.close();
        std::mem::take(&mut c.done)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn phases_add_up_in_order() {
        super::start();
        super::begin("a");
        super::begin("b");
        super::begin("a");
        let p = super::finish();
        assert_eq!(p.iter().map(|x| x.0).collect::<Vec<_>>(), ["a", "b"]);
        assert!(super::finish().is_empty(), "finish resets the clock");
    }

    #[test]
    fn details_follow_their_phase() {
        super::start();
        super::begin("a");
        super::detail("  a1", 5.0);
        super::detail("  a1", 2.0);
        super::begin("b");
        let p = super::finish();
        assert_eq!(p.iter().map(|x| x.0).collect::<Vec<_>>(), ["a", "  a1", "b"]);
        assert_eq!(p[1].1, 7.0);
    }
}
