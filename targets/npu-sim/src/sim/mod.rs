//! The simulator: one interpreter, two outputs. Functionally it is bit-exact
//! (int8×int8→i32 wrapping, f32 in program order); in time, each unit (load,
//! exec, store) has its own timeline: an instruction starts when its unit is
//! free, it has been fetched (fetch dispatches one instruction per cycle in
//! program order and stalls while the target queue is full), and, for a wait,
//! its semaphore has a token. State changes happen at an instruction's start,
//! in start-time order, so the functional result is that of a legal hardware
//! interleaving; the hazard checker proves the program does not depend on it.

mod array;
mod exec;
pub mod hazard;

use crate::config::HwConfig;
use crate::isa::{Dtype, Queue};
use crate::program::{ArgDir, Program};
use hazard::{Clock, HazardChecker};
use std::collections::VecDeque;

/// Why a run stopped early. Every trap is an error, never a panic.
#[derive(Debug, Clone)]
pub struct SimError(pub String);

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "error: {}", self.0)
    }
}

/// One instruction as it ran, for traces and per-layer reports.
#[derive(Clone, Debug)]
pub struct Executed {
    pub instr: usize,
    pub unit: usize,
    pub start: u64,
    pub end: u64,
}

/// Counters of a run; every one is documented in `docs/npu-sim.md`.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Counters {
    pub instructions: u64,
    /// Multiply-accumulates the array (k·n per input row of an `mx.mul`) and the vector unit (a row's lanes per `v.mac` row) performed.
    pub macs: u64,
    pub dram_bytes_read: u64,
    pub dram_bytes_written: u64,
    /// Highest scratchpad / accumulator row touched + 1.
    pub spad_rows_used: u64,
    pub acc_rows_used: u64,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct UnitStats {
    pub instructions: u64,
    pub busy_cycles: u64,
    /// Waiting for a semaphore token.
    pub stall_semaphore: u64,
    /// Idle with an empty queue (fetch had not delivered the next instruction).
    pub stall_starved: u64,
}

#[derive(Debug)]
pub struct RunResult {
    pub cycles: u64,
    pub counters: Counters,
    pub units: [UnitStats; 3],
    /// Cycles fetch could not dispatch because the target queue was full.
    pub fetch_stall_queue_full: u64,
    /// Per instruction, in start order (empty unless `record` was asked).
    pub executed: Vec<Executed>,
    /// Per instruction: MACs and DRAM bytes it moved (for per-layer reports).
    pub per_instr: Vec<(u64, u64, u64)>,
    /// Output arguments: (name, bytes).
    pub outputs: Vec<(String, Vec<u8>)>,
}

/// The memories and the array's stationary weights.
pub(crate) struct State {
    pub dram: Vec<u8>,
    pub arg_base: Vec<u64>,
    pub spad: Vec<u32>,
    pub acc: Vec<u32>,
    pub weights: Vec<u32>,
    pub w_shape: Option<(usize, usize, Dtype)>,
    pub cols: usize,
    /// Unit cycles the run may still spend (`Limits::max_cycles`).
    pub budget: u64,
}

/// What a run may spend, so that no program runs without end: a budget on
/// the cycles the three units are busy, added up, checked before an
/// instruction's work is done (a replay loop of four billion passes is
/// refused, not started).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_cycles: u64,
}

impl Default for Limits {
    /// A billion unit cycles: about 15 times what an f32 ResNet-50 keeps
    /// npu16's array busy (4.1 GMAC at 64 MACs a cycle).
    fn default() -> Limits {
        Limits { max_cycles: 1_000_000_000 }
    }
}

struct Token {
    avail: u64,
    vc: Clock,
}

/// Each argument's place in DRAM (64-byte aligned) and the bytes they need,
/// refused when the target's DRAM (`dram.size_mib`) cannot hold them: check
/// it before allocating anything for a program's arguments.
pub fn dram_layout(cfg: &HwConfig, p: &Program) -> Result<(Vec<u64>, u64), SimError> {
    let mut base = vec![];
    let mut size = 0u64;
    for a in &p.args {
        base.push(size);
        size = size.saturating_add(a.bytes()).div_ceil(64).saturating_mul(64);
    }
    if size > cfg.dram.size_mib as u64 * 1024 * 1024 {
        return Err(SimError(format!("arguments need {} bytes of DRAM; the target has {} MiB (--set dram.size_mib=N)", size, cfg.dram.size_mib)));
    }
    Ok((base, size))
}

/// Lays the arguments out in DRAM and fills the inputs.
fn layout<S: AsRef<str>, B: AsRef<[u8]>>(cfg: &HwConfig, p: &Program, inputs: &[(S, B)]) -> Result<(Vec<u8>, Vec<u64>), SimError> {
    let (base, size) = dram_layout(cfg, p)?;
    let mut dram = vec![0u8; size as usize];
    for (name, bytes) in inputs {
        let (name, bytes) = (name.as_ref(), bytes.as_ref());
        let k = p.args.iter().position(|a| a.name == name).ok_or_else(|| SimError(format!("the program has no argument '%{}'", name)))?;
        let a = &p.args[k];
        if a.dir == ArgDir::Out {
            return Err(SimError(format!("argument '%{}' is an output; it takes no input", name)));
        }
        if bytes.len() as u64 != a.bytes() {
            return Err(SimError(format!("argument '%{}' is {} {} [{:?}] = {} bytes, but {} bytes were given", name, a.elements(), a.dtype.name(), a.shape, a.bytes(), bytes.len())));
        }
        let b = base[k] as usize;
        dram[b..b + bytes.len()].copy_from_slice(bytes);
    }
    for a in &p.args {
        if a.dir != ArgDir::Out && !inputs.iter().any(|(n, _)| n.as_ref() == a.name) {
            return Err(SimError(format!("input argument '%{}' was not given", a.name)));
        }
    }
    Ok((dram, base))
}

/// Runs `p` on the hardware `cfg` with input argument images (raw little-endian
/// bytes, owned or borrowed), each copied into the simulated DRAM once.
pub fn run<S: AsRef<str>, B: AsRef<[u8]>>(cfg: &HwConfig, p: &Program, inputs: &[(S, B)], record: bool) -> Result<RunResult, SimError> {
    run_limited(cfg, p, inputs, record, Limits::default())
}

/// [`run`] within `limits`.
pub fn run_limited<S: AsRef<str>, B: AsRef<[u8]>>(cfg: &HwConfig, p: &Program, inputs: &[(S, B)], record: bool, limits: Limits) -> Result<RunResult, SimError> {
    if p.target != cfg.name {
        return Err(SimError(format!("the program was built for target '{}' but the hardware is '{}'", p.target, cfg.name)));
    }
    let (dram, arg_base) = layout(cfg, p, inputs)?;
    let cols = cfg.array.cols as usize;
    let mut st = State {
        dram,
        arg_base,
        spad: vec![0; cfg.scratchpad.rows as usize * cols],
        acc: vec![0; cfg.accumulator.rows as usize * cols],
        weights: vec![0; cfg.array.rows as usize * cols],
        w_shape: None,
        cols,
        budget: limits.max_cycles,
    };
    let caps = [cfg.queues.load as usize, cfg.queues.exec as usize, cfg.queues.store as usize];
    let mut queues: [VecDeque<(usize, u64)>; 3] = Default::default();
    let mut unit_free = [0u64; 3];
    // Per unit: when its last DMA's data has all moved (`dram.pipelined`:
    // the unit issues the next DMA before that).
    let mut drained = [0u64; 3];
    let mut array = array::ArrayTiming::new(cfg);
    let exec_unit = Queue::Exec.index();
    let mut seq = [0u64; 3];
    let mut vc: [Clock; 3] = [[0; 3]; 3];
    let mut sems: Vec<VecDeque<Token>> = (0..crate::isa::NUM_SEMS).map(|_| VecDeque::new()).collect();
    let mut hz = HazardChecker::default();
    let mut res = RunResult {
        cycles: 0,
        counters: Counters::default(),
        units: Default::default(),
        fetch_stall_queue_full: 0,
        executed: vec![],
        per_instr: vec![(0, 0, 0); p.instrs.len()],
        outputs: vec![],
    };
    let mut pc = 0usize;
    let mut fetch_time = 0u64;
    let mut fetch_blocked_since: Option<u64> = None;
    let mut halted = false;
    loop {
        // The earliest unit that can start its head instruction.
        let mut best: Option<(u64, usize)> = None;
        for u in 0..3 {
            let Some(&(i, dt)) = queues[u].front() else { continue };
            let ins = &p.instrs[i];
            let mut t = unit_free[u].max(dt);
            if u == exec_unit {
                t = t.max(array.ready(ins.def.mnemonic));
            }
            if ins.def.mnemonic == "sem.signal" {
                // Says the unit's earlier work is done: its data has moved.
                t = t.max(drained[u]);
            }
            if ins.def.mnemonic == "sem.wait" {
                match sems[ins.get("sem") as usize].front() {
                    Some(tok) => t = t.max(tok.avail),
                    None => continue,
                }
            }
            if best.is_none_or(|(bt, _)| t < bt) {
                best = Some((t, u));
            }
        }
        // When fetch could dispatch the next instruction.
        let mut fetch_at: Option<u64> = None;
        if !halted && pc < p.instrs.len() {
            let ins = &p.instrs[pc];
            if ins.def.queue == Queue::Ctrl && !ins.def.mnemonic.starts_with("sem.") {
                if queues.iter().all(|q| q.is_empty()) {
                    fetch_at = Some(fetch_time.max(*unit_free.iter().max().unwrap()).max(*drained.iter().max().unwrap()).max(array.idle()));
                }
            } else if queues[ins.queue().index()].len() < caps[ins.queue().index()] {
                fetch_at = Some(fetch_time);
            }
        }
        let unit_first = match (best, fetch_at) {
            (Some((t, _)), Some(ft)) => t <= ft,
            (Some(_), None) => true,
            _ => false,
        };
        match (best, fetch_at) {
            (Some((t, u)), _) if unit_first => {
                let (i, dt) = queues[u].pop_front().unwrap();
                if let Some(since) = fetch_blocked_since.take() {
                    res.fetch_stall_queue_full += t.saturating_sub(since);
                }
                // Stall accounting: idle until dispatched, then waiting on a semaphore.
                let ready = unit_free[u].max(dt);
                res.units[u].stall_starved += ready - unit_free[u];
                res.units[u].stall_semaphore += t.saturating_sub(ready.max(if u == exec_unit { array.ready(p.instrs[i].def.mnemonic) } else { 0 }));
                seq[u] += 1;
                let ins = &p.instrs[i];
                let mut latency = 0;
                let cost = match ins.def.mnemonic {
                    "sem.wait" => {
                        let tok = sems[ins.get("sem") as usize].pop_front().unwrap();
                        for q in 0..3 {
                            vc[u][q] = vc[u][q].max(tok.vc[q]);
                        }
                        1
                    }
                    "sem.signal" => 1,
                    _ => {
                        vc[u][u] = seq[u] - 1;
                        let out = exec::execute(cfg, p, &mut st, i, u, seq[u], &vc[u], &mut hz, &mut res.counters)?;
                        res.per_instr[i] = (out.macs, out.read, out.written);
                        hz.prune(&vc);
                        latency = out.latency;
                        out.cycles
                    }
                };
                st.budget = st.budget.checked_sub(cost.max(1)).ok_or_else(|| SimError(format!("the run needs more than its budget of {} cycles at {} (see --max-cycles)", limits.max_cycles, p.describe(i))))?;
                vc[u][u] = seq[u];
                let occ = if u == exec_unit {
                    array.start(ins.def.mnemonic, t, cost.max(1))
                } else if cfg.dram.pipelined && latency > 0 {
                    // The request is in flight; the unit moves on once its bytes have gone.
                    let issue = (cost - latency).max(1);
                    drained[u] = drained[u].max(t + cost);
                    array::Occupancy { unit_free: t + issue, end: t + cost, busy: issue }
                } else {
                    array::Occupancy { unit_free: t + cost.max(1), end: t + cost.max(1), busy: cost.max(1) }
                };
                let end = occ.end;
                if ins.def.mnemonic == "sem.signal" {
                    sems[ins.get("sem") as usize].push_back(Token { avail: end, vc: vc[u] });
                }
                unit_free[u] = occ.unit_free;
                res.units[u].instructions += 1;
                res.units[u].busy_cycles += occ.busy;
                res.counters.instructions += 1;
                if record {
                    res.executed.push(Executed { instr: i, unit: u, start: t, end });
                }
            }
            (_, Some(ft)) => {
                let ins = &p.instrs[pc];
                match ins.def.mnemonic {
                    "halt" => {
                        halted = true;
                        res.counters.instructions += 1;
                    }
                    "fence" => {
                        // Every queue is drained: from here on each one follows all earlier instructions.
                        for q in 0..3 {
                            vc[q] = seq;
                        }
                        res.counters.instructions += 1;
                    }
                    _ => queues[ins.queue().index()].push_back((pc, ft)),
                }
                pc += 1;
                fetch_time = ft + 1;
            }
            _ => {
                if (halted || pc >= p.instrs.len()) && queues.iter().all(|q| q.is_empty()) {
                    break;
                }
                // Nothing can ever run again: name every wait that starves.
                let mut why = vec![];
                for u in 0..3 {
                    if let Some(&(i, _)) = queues[u].front() {
                        let ins = &p.instrs[i];
                        why.push(format!("{} queue waits on s{} at {}", Queue::UNITS[u].name(), ins.get("sem"), p.describe(i)));
                    }
                }
                if !halted && pc < p.instrs.len() {
                    let q = p.instrs[pc].queue();
                    if q != Queue::Ctrl {
                        why.push(format!("fetch is stalled on the full {} queue at {}", q.name(), p.describe(pc)));
                    }
                }
                return Err(SimError(format!("deadlock: {}; no instruction left can signal them", why.join("; "))));
            }
        }
        // Fetch stalls on a full queue (not on a fence, which waits by design).
        let blocked_on_full = fetch_at.is_none() && !halted && pc < p.instrs.len() && p.instrs[pc].queue() != Queue::Ctrl;
        if blocked_on_full && fetch_blocked_since.is_none() {
            fetch_blocked_since = Some(fetch_time);
        }
    }
    res.cycles = (*unit_free.iter().max().unwrap()).max(*drained.iter().max().unwrap()).max(array.idle());
    for (k, a) in p.args.iter().enumerate() {
        if a.dir != ArgDir::In {
            let b = st.arg_base[k] as usize;
            res.outputs.push((a.name.clone(), st.dram[b..b + a.bytes() as usize].to_vec()));
        }
    }
    Ok(res)
}
