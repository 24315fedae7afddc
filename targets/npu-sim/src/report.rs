//! Reports of a run: a summary, a per-`.layer` table with the roofline bound,
//! a Chrome/Perfetto trace with one track per unit, and all of it as JSON.
//! Every counter is documented in `docs/npu-sim.md`.

use crate::config::HwConfig;
use crate::isa::Queue;
use crate::program::Program;
use crate::sim::RunResult;
use serde::Serialize;

#[derive(Serialize, Debug, Clone)]
pub struct LayerRow {
    pub name: String,
    pub instructions: u64,
    /// The MACs the layer's ONNX nodes do (`.layer … macs N`), else the array's.
    pub macs: u64,
    /// What the array performed (k·n per input row: a depthwise filter's zeros included).
    pub array_macs: u64,
    /// `macs` weighted by their element type's cost (an f32 MAC is `array.f32_rate` slots).
    pub mac_slots: u64,
    pub dram_bytes: u64,
    /// From its first instruction's start to its last one's end.
    pub cycles: u64,
    /// max(MACs / peak MACs per cycle, DRAM bytes / bytes per cycle).
    pub roofline_cycles: u64,
    /// cycles / roofline_cycles (1.0 is the bound).
    pub ratio_to_roofline: f64,
    pub utilization: f64,
}

#[derive(Serialize, Debug)]
pub struct Report {
    pub target: String,
    pub cycles: u64,
    pub time_us: f64,
    pub counters: crate::sim::Counters,
    /// The layers' MACs (declared where the program gives them, else the array's).
    pub macs: u64,
    /// Those MACs weighted by their element type's cost (see `roofline`).
    pub mac_slots: u64,
    /// mac_slots / (cycles × rows × cols).
    pub utilization: f64,
    pub units: Vec<(String, crate::sim::UnitStats)>,
    pub fetch_stall_queue_full: u64,
    pub spad_peak_bytes: u64,
    pub acc_peak_bytes: u64,
    pub roofline_cycles: u64,
    pub layers: Vec<LayerRow>,
}

/// `slots` are MACs weighted by their element type's cost: an f32 MAC takes
/// `array.f32_rate` int8 MAC slots, since f32 rows pass at 1/f32_rate the rate.
fn roofline(cfg: &HwConfig, slots: u64, bytes: u64) -> u64 {
    slots.div_ceil(cfg.peak_macs()).max(bytes.div_ceil(cfg.dram.bytes_per_cycle as u64))
}

/// MAC slots of instruction `i` (its MACs, times f32_rate for f32).
fn mac_slots(cfg: &HwConfig, p: &Program, r: &RunResult, i: usize) -> u64 {
    let m = r.per_instr.get(i).map(|x| x.0).unwrap_or(0);
    match p.instrs.get(i).and_then(|x| x.dtype) {
        Some(crate::isa::Dtype::F32) => m * cfg.array.f32_rate as u64,
        _ => m,
    }
}

pub fn build(cfg: &HwConfig, p: &Program, r: &RunResult) -> Report {
    let peak = cfg.peak_macs() as f64;
    let util = |slots: u64, cycles: u64| if cycles == 0 { 0.0 } else { slots as f64 / (cycles as f64 * peak) };
    // Per layer (and, last, outside any): instructions, array MACs, their slots, DRAM bytes.
    let n = p.layers.len();
    let mut sums = vec![(0u64, 0u64, 0u64, 0u64); n + 1];
    for i in 0..p.instrs.len() {
        let (m, rd, wr) = r.per_instr[i];
        let s = &mut sums[p.layer_of(i).unwrap_or(n)];
        *s = (s.0 + 1, s.1 + m, s.2 + mac_slots(cfg, p, r, i), s.3 + rd + wr);
    }
    // Each layer's first start and last end, in one pass over what ran.
    let mut spans: Vec<Option<(u64, u64)>> = vec![None; n];
    for e in &r.executed {
        if let Some(li) = p.layer_of(e.instr) {
            let s = spans[li].get_or_insert((e.start, e.end));
            *s = (s.0.min(e.start), s.1.max(e.end));
        }
    }
    let (mut total_macs, mut total_slots) = (sums[n].1, sums[n].2);
    let mut layers = vec![];
    for (li, (name, _)) in p.layers.iter().enumerate() {
        let (instructions, array_macs, array_slots, bytes) = sums[li];
        // Declared MACs cost what the array's MACs of the layer cost each (f32 or int8).
        let (macs, slots) = match p.layer_macs.get(li).copied().flatten() {
            Some(d) if array_macs > 0 => (d, (d as u128 * array_slots as u128 / array_macs as u128).min(u64::MAX as u128) as u64),
            Some(d) => (d, d),
            None => (array_macs, array_slots),
        };
        total_macs = total_macs.saturating_add(macs);
        total_slots = total_slots.saturating_add(slots);
        let cycles = spans[li].map_or(0, |(a, b)| b - a);
        let bound = roofline(cfg, slots, bytes);
        layers.push(LayerRow {
            name: name.clone(),
            instructions,
            macs,
            array_macs,
            mac_slots: slots,
            dram_bytes: bytes,
            cycles,
            roofline_cycles: bound,
            ratio_to_roofline: if bound == 0 { 0.0 } else { cycles as f64 / bound as f64 },
            utilization: util(slots, cycles),
        });
    }
    let c = &r.counters;
    Report {
        target: cfg.name.clone(),
        cycles: r.cycles,
        time_us: r.cycles as f64 / cfg.clock_mhz,
        counters: c.clone(),
        macs: total_macs,
        mac_slots: total_slots,
        utilization: util(total_slots, r.cycles),
        units: Queue::UNITS.iter().zip(r.units.iter()).map(|(q, s)| (q.name().to_string(), s.clone())).collect(),
        fetch_stall_queue_full: r.fetch_stall_queue_full,
        spad_peak_bytes: c.spad_rows_used * cfg.array.cols as u64 * 4,
        acc_peak_bytes: c.acc_rows_used * cfg.array.cols as u64 * 4,
        roofline_cycles: roofline(cfg, total_slots, c.dram_bytes_read + c.dram_bytes_written),
        layers,
    }
}

/// The human-readable summary and layer table.
pub fn text(rep: &Report) -> String {
    let c = &rep.counters;
    let mut s = String::new();
    s.push_str(&format!("target {}: {} cycles ({:.3} us), {} instructions\n", rep.target, rep.cycles, rep.time_us, c.instructions));
    let array = if rep.macs == c.macs { String::new() } else { format!(" (the array and v.mac did {})", c.macs) };
    s.push_str(&format!(
        "MACs {}{}  utilization {:.1}%  roofline {} cycles ({:.2}x)\n",
        rep.macs,
        array,
        100.0 * rep.utilization,
        rep.roofline_cycles,
        if rep.roofline_cycles == 0 { 0.0 } else { rep.cycles as f64 / rep.roofline_cycles as f64 }
    ));
    s.push_str(&format!("DRAM read {} B, written {} B\n", c.dram_bytes_read, c.dram_bytes_written));
    s.push_str(&format!("scratchpad peak {} B ({} rows), accumulator peak {} B ({} rows)\n", rep.spad_peak_bytes, c.spad_rows_used, rep.acc_peak_bytes, c.acc_rows_used));
    s.push_str(&format!("{:<6} {:>8} {:>12} {:>14} {:>14}\n", "unit", "instrs", "busy", "stall:sem", "stall:starved"));
    for (n, u) in &rep.units {
        s.push_str(&format!("{:<6} {:>8} {:>12} {:>14} {:>14}\n", n, u.instructions, u.busy_cycles, u.stall_semaphore, u.stall_starved));
    }
    s.push_str(&format!("fetch stalled {} cycles on full queues\n", rep.fetch_stall_queue_full));
    if !rep.layers.is_empty() {
        s.push_str(&format!("{:<16} {:>7} {:>12} {:>12} {:>10} {:>10} {:>7} {:>6}\n", "layer", "instrs", "MACs", "DRAM B", "cycles", "roofline", "ratio", "util"));
        for l in &rep.layers {
            s.push_str(&format!(
                "{:<16} {:>7} {:>12} {:>12} {:>10} {:>10} {:>7.2} {:>5.1}%\n",
                l.name,
                l.instructions,
                l.macs,
                l.dram_bytes,
                l.cycles,
                l.roofline_cycles,
                l.ratio_to_roofline,
                100.0 * l.utilization
            ));
        }
    }
    s
}

/// A Chrome/Perfetto trace (`chrome://tracing`, ui.perfetto.dev): one track per unit.
pub fn trace(cfg: &HwConfig, p: &Program, r: &RunResult) -> String {
    #[derive(Serialize)]
    struct Ev<'a> {
        name: &'a str,
        cat: &'a str,
        ph: &'a str,
        ts: f64,
        dur: f64,
        pid: u32,
        tid: usize,
        args: serde_json::Value,
    }
    let us = |c: u64| c as f64 / cfg.clock_mhz;
    let mut evs: Vec<serde_json::Value> = Queue::UNITS
        .iter()
        .enumerate()
        .map(|(i, q)| serde_json::json!({"name": "thread_name", "ph": "M", "pid": 0, "tid": i, "args": {"name": q.name()}}))
        .collect();
    for e in &r.executed {
        let ins = &p.instrs[e.instr];
        let layer = p.layer_of(e.instr).map(|l| p.layers[l].0.as_str()).unwrap_or("");
        let ev = Ev {
            name: ins.def.mnemonic,
            cat: layer,
            ph: "X",
            ts: us(e.start),
            dur: us(e.end - e.start),
            pid: 0,
            tid: e.unit,
            args: serde_json::json!({"instr": e.instr, "line": p.lines.get(e.instr), "start_cycle": e.start, "end_cycle": e.end}),
        };
        evs.push(serde_json::to_value(ev).unwrap_or_default());
    }
    serde_json::json!({"traceEvents": evs, "displayTimeUnit": "ns"}).to_string()
}
