//! What `npu-run --target npu` prints: the CPU/NPU split with each CPU op's
//! reason, every NPU layer's cycles against its roofline, and the whole
//! model's figures (also as JSON, and as one Perfetto trace).

use runtime::npu_path::{NpuCompiled, NpuRun};
use std::fmt::Write;

/// The whole-model figures.
pub struct Summary {
    pub cycles: u64,
    pub roofline_cycles: u64,
    pub utilization: f64,
    pub dram_bytes: u64,
    pub min_dram_bytes: u64,
    pub macs: u64,
    pub npu_ops: usize,
    pub cpu_ops: usize,
    pub compile_ms: f64,
    pub run_ms: f64,
    pub cpu_ms: f64,
    /// The heterogeneous run: switches between targets in run order (each
    /// drains the NPU), the values that pass between partitions of different
    /// targets and their bytes.
    pub transitions: usize,
    pub crossing_values: usize,
    pub crossing_bytes: u64,
    /// Host time outside the CPU partitions: layout changes between partitions.
    pub glue_ms: f64,
    /// NPU cycles at the hardware clock plus the measured host time of the CPU partitions and the glue.
    pub end_to_end_ms: f64,
    /// Where the run leaves one target for another, and why.
    pub cuts: Vec<Cut>,
    /// The partitions and the values between them (`NpuCompiled::partition_graph`), for the HTML report.
    pub graph: runtime::partition_graph::PartitionGraph,
}

/// A switch from one target to another in run order: the partition before,
/// the one after, and (into a partition of a later backend of the list) the
/// reasons its ops did not run on the earlier one.
pub struct Cut {
    pub from: String,
    pub to: String,
    pub to_target: String,
    pub causes: Vec<String>,
}

/// The switches between targets in run order, the values crossing between
/// targets and their bytes (`runtime::partition_graph`).
fn heterogeneous(c: &NpuCompiled, g: &runtime::partition_graph::PartitionGraph) -> (Vec<Cut>, usize, u64) {
    use runtime::partition_graph::NodeKind;
    let target = |i: usize| match &g.nodes[i].kind {
        NodeKind::Partition(t) => Some(t.as_str()),
        _ => None,
    };
    let crossing: Vec<_> = g.edges.iter().filter(|e| matches!((target(e.from), target(e.to)), (Some(a), Some(b)) if a != b)).collect();
    let parts: Vec<usize> = (0..g.nodes.len()).filter(|i| target(*i).is_some()).collect();
    let mut cuts = vec![];
    for w in parts.windows(2) {
        let (a, b) = (w[0], w[1]);
        if target(a) == target(b) {
            continue;
        }
        let mut causes: Vec<String> = vec![];
        for p in c.placements.iter().filter(|p| p.partition == g.nodes[b].name) {
            if let Some(r) = &p.reason {
                let why = format!("{} '{}' [{}]", p.op.trim_start_matches("onnx."), p.node, r.reason.code());
                if !causes.contains(&why) {
                    causes.push(why);
                }
            }
        }
        cuts.push(Cut { from: g.nodes[a].name.clone(), to: g.nodes[b].name.clone(), to_target: target(b).unwrap_or_default().to_string(), causes });
    }
    (cuts, crossing.len(), crossing.iter().map(|e| e.bytes).sum())
}

pub fn summarize(c: &NpuCompiled, r: &NpuRun, run_ms: f64) -> Summary {
    let cycles: u64 = r.reports.iter().map(|(_, p)| p.cycles).sum();
    let dram: u64 = r.reports.iter().map(|(_, p)| p.counters.dram_bytes_read + p.counters.dram_bytes_written).sum();
    let macs: u64 = r.reports.iter().map(|(_, p)| p.macs).sum();
    let peak = (c.hw.array.rows * c.hw.array.cols) as u64;
    // The bound: every MAC at the array's peak for its type, or every byte that must move once at full bandwidth.
    let roofline = r.mac_slots.div_ceil(peak).max(r.min_dram_bytes.div_ceil(c.hw.dram.bytes_per_cycle as u64));
    let npu_ops = c.placements.iter().filter(|p| p.backend == npu16::target::NAME).count();
    let graph = c.partition_graph();
    let (cuts, crossing_values, crossing_bytes) = heterogeneous(c, &graph);
    Summary {
        graph,
        transitions: cuts.len(),
        crossing_values,
        crossing_bytes,
        glue_ms: r.glue_ms,
        end_to_end_ms: cycles as f64 / c.hw.clock_mhz / 1e3 + r.cpu_ms + r.glue_ms,
        cuts,
        cycles,
        roofline_cycles: roofline,
        utilization: if cycles == 0 { 0.0 } else { r.mac_slots as f64 / (cycles as f64 * peak as f64) },
        dram_bytes: dram,
        min_dram_bytes: r.min_dram_bytes,
        macs,
        npu_ops,
        cpu_ops: c.placements.iter().filter(|p| p.backend == backend::CPU).count(),
        compile_ms: c.compile_ms,
        run_ms,
        cpu_ms: r.cpu_ms,
    }
}

pub fn text(c: &NpuCompiled, r: &NpuRun, s: &Summary) -> String {
    let mut o = String::new();
    o.push_str(&backend::partition::report(&c.placements, &c.targets));
    for (name, rep) in &r.reports {
        let _ = writeln!(o, "\nNPU program {} ({} cycles, roofline {}, {:.1}% of the array):", name, rep.cycles, rep.roofline_cycles, 100.0 * rep.utilization);
        let _ = writeln!(o, "  {:<36} {:>10} {:>10} {:>6} {:>6} {:>12} {:>12}", "layer", "cycles", "roofline", "ratio", "util", "MACs", "DRAM bytes");
        for l in &rep.layers {
            let _ = writeln!(o, "  {:<36} {:>10} {:>10} {:>6.2} {:>5.1}% {:>12} {:>12}", trunc(&l.name, 36), l.cycles, l.roofline_cycles, l.ratio_to_roofline, 100.0 * l.utilization, l.macs, l.dram_bytes);
        }
    }
    for (b, p, k) in &r.backend_counters {
        let _ = writeln!(o, "\n{} partition {} ({} cycles, {} MACs, {} DRAM bytes):", b, p, k.cycles, k.macs, k.dram_bytes);
        for l in &k.layers {
            let _ = writeln!(o, "  {:<36} {:>10} {:>12} {:>12}", trunc(&l.name, 36), l.cycles, l.macs, l.dram_bytes);
        }
    }
    if !s.cuts.is_empty() {
        let _ = writeln!(o, "\ncuts between targets ({}):", s.cuts.len());
        for k in &s.cuts {
            let why = if k.causes.is_empty() { String::new() } else { format!(": {}", k.causes.join(", ")) };
            let _ = writeln!(o, "  {} → {} ({}){}", k.from, k.to, k.to_target, why);
        }
    }
    o.push('\n');
    o.push_str(&whole_model(c, s));
    o
}

/// One screen: the split between backends, the fallbacks grouped by reason, the
/// five layers that take the most cycles and the whole-model figures (`text`
/// has every op and every layer: `npu-run -v`).
pub fn brief(c: &NpuCompiled, r: &NpuRun, s: &Summary) -> String {
    let mut o = backend::partition::split_line(&c.placements, &c.targets);
    // Ops that went past a backend, by where they ran and why: how many, of
    // which op types, one message as the example.
    let mut groups: Vec<(String, Vec<&str>, String)> = vec![];
    for p in c.placements.iter().filter(|p| p.backend == backend::CPU || p.reason.is_some()) {
        let (code, msg) = p.reason.as_ref().map(|r| (r.reason.code().to_string(), r.message.clone())).unwrap_or_default();
        let key = format!("{} [{}]", p.backend, code);
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.1.push(&p.op),
            None => groups.push((key, vec![&p.op], msg)),
        }
    }
    groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()));
    if !groups.is_empty() {
        let _ = writeln!(o, "fallbacks by where they ran and why (npu-run -v lists each op):");
        for (code, ops, example) in &groups {
            let _ = writeln!(o, "  {:<18} {:>4}  {}  (e.g. {})", code, ops.len(), trunc(&op_kinds(ops.iter().copied()), 48), trunc(example, 60));
        }
    }
    let mut layers: Vec<(&str, &npu_sim::report::LayerRow)> = r.reports.iter().flat_map(|(p, rep)| rep.layers.iter().map(move |l| (p.as_str(), l))).collect();
    if !layers.is_empty() {
        layers.sort_by(|a, b| b.1.cycles.cmp(&a.1.cycles));
        let total = layers.len();
        let _ = writeln!(o, "top layers by cycles ({} of {}; npu-run -v lists every program):", total.min(5), total);
        let _ = writeln!(o, "  {:<36} {:>10} {:>10} {:>6} {:>6} {:>12}", "layer", "cycles", "roofline", "ratio", "util", "DRAM bytes");
        for (_, l) in layers.iter().take(5) {
            let _ = writeln!(o, "  {:<36} {:>10} {:>10} {:>6.2} {:>5.1}% {:>12}", trunc(&l.name, 36), l.cycles, l.roofline_cycles, l.ratio_to_roofline, 100.0 * l.utilization, l.dram_bytes);
        }
    }
    o.push_str(&whole_model(c, s));
    o
}

/// The whole-model figures.
fn whole_model(c: &NpuCompiled, s: &Summary) -> String {
    let mut o = String::new();
    let ratio = if s.roofline_cycles == 0 { 0.0 } else { s.cycles as f64 / s.roofline_cycles as f64 };
    let _ = writeln!(o, "whole model on {}:", c.hw.name);
    let _ = writeln!(o, "  NPU cycles       {} ({:.3} ms at {} MHz)", s.cycles, s.cycles as f64 / c.hw.clock_mhz / 1e3, c.hw.clock_mhz);
    let _ = writeln!(o, "  roofline         {} cycles (ratio {:.2})", s.roofline_cycles, ratio);
    let _ = writeln!(o, "  utilization      {:.1}% of the array's peak for the element type", 100.0 * s.utilization);
    let _ = writeln!(o, "  DRAM traffic     {} bytes ({:.2}x the minimum {})", s.dram_bytes, s.dram_bytes as f64 / s.min_dram_bytes.max(1) as f64, s.min_dram_bytes);
    let _ = writeln!(o, "  ops              {} on the NPU, {} on the CPU ({:.1}%)", s.npu_ops, s.cpu_ops, 100.0 * s.cpu_ops as f64 / (s.npu_ops + s.cpu_ops).max(1) as f64);
    let _ = writeln!(o, "  transitions      {} between targets in run order; {} values cross between targets ({} bytes)", s.transitions, s.crossing_values, s.crossing_bytes);
    let _ = writeln!(
        o,
        "  end to end       {:.3} ms estimated: {:.3} ms on the NPU at {} MHz + {:.3} ms measured on the host ({:.3} in CPU partitions, {:.3} in layout glue)",
        s.end_to_end_ms,
        s.cycles as f64 / c.hw.clock_mhz / 1e3,
        c.hw.clock_mhz,
        s.cpu_ms + s.glue_ms,
        s.cpu_ms,
        s.glue_ms
    );
    let cached = if c.cache == runtime::cached_compile::CacheUse::Hit { " (from the compile cache)" } else { "" };
    let _ = writeln!(o, "  compile          {:.1} ms{}; run {:.1} ms on the host, simulation included ({:.3} ms in CPU partitions)", s.compile_ms, cached, s.run_ms, s.cpu_ms);
    o
}

/// Op names counted by type, the most frequent first: `Div ×18, HardSigmoid ×9, Softmax`.
pub(crate) fn op_kinds<'a>(ops: impl Iterator<Item = &'a str>) -> String {
    let mut kinds: Vec<(&str, usize)> = vec![];
    for op in ops {
        let op = op.trim_start_matches("onnx.");
        match kinds.iter_mut().find(|k| k.0 == op) {
            Some(k) => k.1 += 1,
            None => kinds.push((op, 1)),
        }
    }
    kinds.sort_by(|a, b| b.1.cmp(&a.1));
    kinds.iter().map(|(k, n)| if *n > 1 { format!("{} ×{}", k, n) } else { k.to_string() }).collect::<Vec<_>>().join(", ")
}

pub(crate) fn trunc(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let t: String = s.chars().take(n - 1).collect();
        format!("{}…", t)
    }
}

pub fn json(c: &NpuCompiled, r: &NpuRun, s: &Summary) -> String {
    let layers: Vec<serde_json::Value> = r
        .reports
        .iter()
        .flat_map(|(p, rep)| {
            rep.layers.iter().map(move |l| serde_json::json!({"program": p, "layer": l.name, "cycles": l.cycles, "roofline_cycles": l.roofline_cycles, "utilization": l.utilization, "macs": l.macs, "array_macs": l.array_macs, "dram_bytes": l.dram_bytes}))
        })
        .collect();
    let cpu: Vec<serde_json::Value> = c
        .placements
        .iter()
        .filter(|p| p.backend == backend::CPU)
        .map(|p| serde_json::json!({"node": p.node, "op": p.op, "reason": p.reason.as_ref().map(|r| r.message.clone()), "reason_code": p.reason.as_ref().map(|r| r.reason.code())}))
        .collect();
    let placements: Vec<serde_json::Value> = c.placements.iter().map(|p| serde_json::json!({"node": p.node, "op": p.op, "backend": p.backend, "partition": p.partition, "reason_code": p.reason.as_ref().map(|r| r.reason.code()), "macs": p.macs})).collect();
    let v = serde_json::json!({
        "target": c.hw.name,
        "cycles": s.cycles,
        "roofline_cycles": s.roofline_cycles,
        "ratio_to_roofline": if s.roofline_cycles == 0 { 0.0 } else { s.cycles as f64 / s.roofline_cycles as f64 },
        "utilization": s.utilization,
        "dram_bytes": s.dram_bytes,
        "min_dram_bytes": s.min_dram_bytes,
        "macs": s.macs,
        "npu_ops": s.npu_ops,
        "cpu_ops": s.cpu_ops,
        "compile_ms": s.compile_ms,
        "compile_cache": c.cache.label(),
        "cpu_ms": s.cpu_ms,
        "glue_ms": s.glue_ms,
        "end_to_end_ms": s.end_to_end_ms,
        "transitions": s.transitions,
        "crossing_values": s.crossing_values,
        "crossing_bytes": s.crossing_bytes,
        "cuts": s.cuts.iter().map(|k| serde_json::json!({"from": k.from, "to": k.to, "to_target": k.to_target, "causes": k.causes})).collect::<Vec<_>>(),
        "programs": r.reports.len(),
        "layers": layers,
        "cpu_operations": cpu,
        "targets": c.targets,
        "backend_partitions": r.backend_counters.iter().map(|(b, p, k)| serde_json::json!({"backend": b, "partition": p, "cycles": k.cycles, "macs": k.macs, "dram_bytes": k.dram_bytes})).collect::<Vec<_>>(),
        "placements": placements,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

/// One trace of the whole run: its stages in order on a `stages` track (NPU
/// programs in simulated time, CPU partitions and host transposes in host
/// time), and each program's instructions on the load/exec/store tracks.
pub fn trace(c: &NpuCompiled, r: &NpuRun) -> String {
    let units = ["load", "exec", "store"];
    let mut evs: Vec<serde_json::Value> = units.iter().enumerate().map(|(i, q)| serde_json::json!({"name": "thread_name", "ph": "M", "pid": 0, "tid": i, "args": {"name": q}})).collect();
    evs.push(serde_json::json!({"name": "thread_name", "ph": "M", "pid": 0, "tid": 3, "args": {"name": "stages"}}));
    let us = |cy: u64| cy as f64 / c.hw.clock_mhz;
    let mut t = 0.0;
    let mut runs = r.runs.iter();
    for (name, npu, dur) in &r.stages {
        let cat = if *npu { "npu" } else { "cpu" };
        evs.push(serde_json::json!({"name": name, "cat": cat, "ph": "X", "ts": t, "dur": dur, "pid": 0, "tid": 3, "args": {"target": cat, "time": if *npu { "simulated" } else { "host" }}}));
        if *npu {
            if let Some((k, res)) = runs.next() {
                let p = &c.programs[*k];
                for e in &res.executed {
                    let ins = &p.program.instrs[e.instr];
                    let layer = p.program.layer_of(e.instr).map(|l| p.program.layers[l].0.as_str()).unwrap_or("");
                    evs.push(serde_json::json!({"name": ins.def.mnemonic, "cat": layer, "ph": "X", "ts": t + us(e.start), "dur": us(e.end - e.start), "pid": 0, "tid": e.unit, "args": {"instr": e.instr, "layer": layer, "program": p.name}}));
                }
            }
        }
        t += dur;
    }
    serde_json::json!({"traceEvents": evs, "displayTimeUnit": "ns"}).to_string()
}
