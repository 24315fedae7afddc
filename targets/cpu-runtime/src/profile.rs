//! Per-node timing for `npu-run --profile`: the hooks the `insert-profiling`
//! pass calls around each node's code, and the totals they accumulate.
//! One compiled model profiles at a time (the totals are process-wide).

use std::sync::Mutex;
use std::time::Instant;

struct State {
    origin: Instant,
    started: Vec<u64>,
    total_ns: Vec<u64>,
    calls: Vec<u64>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

/// Clears the totals for a model with `regions` profiled nodes.
pub fn reset(regions: usize) {
    *STATE.lock().unwrap() = Some(State { origin: Instant::now(), started: vec![0; regions], total_ns: vec![0; regions], calls: vec![0; regions] });
}

pub(crate) extern "C" fn enter(id: i32) {
    if let Some(s) = STATE.lock().unwrap().as_mut() {
        let now = s.origin.elapsed().as_nanos() as u64;
        if let Some(t) = s.started.get_mut(id as usize) {
            *t = now;
        }
    }
}

pub(crate) extern "C" fn exit(id: i32) {
    if let Some(s) = STATE.lock().unwrap().as_mut() {
        let now = s.origin.elapsed().as_nanos() as u64;
        let i = id as usize;
        if i < s.started.len() {
            s.total_ns[i] += now.saturating_sub(s.started[i]);
            s.calls[i] += 1;
        }
    }
}

/// (total milliseconds, times entered) per region since the last reset.
pub fn totals() -> Vec<(f64, u64)> {
    match STATE.lock().unwrap().as_ref() {
        Some(s) => s.total_ns.iter().zip(&s.calls).map(|(t, c)| (*t as f64 / 1e6, *c)).collect(),
        None => vec![],
    }
}
