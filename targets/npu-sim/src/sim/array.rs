//! When the exec unit's array instructions may start and how long they hold
//! the unit, for an array with one or two stationary-weight buffers.
//!
//! One buffer (`array.weight_buffers = 1`, npu16 r1): an `mx.preload`
//! overwrites the weights in use, so it waits for the array to drain, and it
//! holds the exec unit for its k rows; an `mx.mul` holds the unit for its rows
//! and the fill latency.
//!
//! Two buffers (npu16 r2, as Gemmini's and OpenGeMM's double-buffered weight
//! registers): a preload writes the shadow buffer through its own port while
//! the array multiplies with the other one, and the array is a pipeline: an
//! `mx.mul` issued behind another streams its rows right after the previous
//! one's, and the fill latency is paid once, when the results drain. Array
//! instructions hold the exec unit one issue cycle; any other instruction
//! there (vector work, a `sem.signal` saying earlier work is done) waits for
//! the array to drain and the preload port to finish.

use crate::config::HwConfig;

pub(crate) struct ArrayTiming {
    buffers: u32,
    fill: u64,
    /// The array's input takes the next row (the previous mul's rows have all entered).
    stream_free: u64,
    /// The last mul's results are all in the accumulator.
    drained: u64,
    /// The preload port is free (the last preload has finished).
    port_free: u64,
    /// The weights of the last preload are in place.
    weights_ready: u64,
    /// Per buffer: when the last mul reading it has drained.
    buffer_free: [u64; 2],
    /// The buffer the next preload writes; the other one is in use.
    next: usize,
}

/// How an instruction occupies the exec unit: until when the unit cannot issue
/// (`unit_free`), the span it shows in traces (`end`) and the cycles it counts
/// as the unit's busy time (a preload on its own port counts none).
pub(crate) struct Occupancy {
    pub unit_free: u64,
    pub end: u64,
    pub busy: u64,
}

impl ArrayTiming {
    pub fn new(cfg: &HwConfig) -> ArrayTiming {
        ArrayTiming { buffers: cfg.array.weight_buffers, fill: cfg.array.fill_latency as u64, stream_free: 0, drained: 0, port_free: 0, weights_ready: 0, buffer_free: [0; 2], next: 0 }
    }

    fn double(&self) -> bool {
        self.buffers >= 2
    }

    /// The earliest start of an exec-unit instruction beyond its unit being free.
    pub fn ready(&self, mnemonic: &str) -> u64 {
        if !self.double() {
            return 0;
        }
        match mnemonic {
            "mx.preload" => self.port_free.max(self.buffer_free[self.next]),
            "mx.mul" => self.weights_ready.max(self.stream_free),
            "sem.wait" => 0,
            _ => self.drained.max(self.port_free),
        }
    }

    /// Records an instruction started at `t` whose work takes `cycles` (as the
    /// functional model counts them: a mul's rows and its fill latency).
    pub fn start(&mut self, mnemonic: &str, t: u64, cycles: u64) -> Occupancy {
        let end = t + cycles;
        if !self.double() {
            return Occupancy { unit_free: end, end, busy: cycles };
        }
        match mnemonic {
            "mx.preload" => {
                self.port_free = end;
                self.weights_ready = end;
                self.next ^= 1;
                Occupancy { unit_free: t + 1, end, busy: 0 }
            }
            "mx.mul" => {
                let stream = cycles.saturating_sub(self.fill).max(1);
                self.stream_free = t + stream;
                self.drained = self.drained.max(end);
                // The buffer in use is the one the last preload wrote.
                self.buffer_free[self.next ^ 1] = self.drained;
                Occupancy { unit_free: t + 1, end: t + stream, busy: stream }
            }
            _ => Occupancy { unit_free: end, end, busy: cycles },
        }
    }

    /// When everything the array was given has finished.
    pub fn idle(&self) -> u64 {
        self.drained.max(self.port_free)
    }
}
