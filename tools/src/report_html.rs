//! `npu-run --report-html FILE`: one self-contained page (inline CSS and SVG,
//! no network) for a run on the NPU path: the whole-model figures, the
//! partition graph coloured by target, each layer's cycles against its
//! roofline and its DRAM traffic, the layers on a roofline chart
//! (`roofline_plot`), the array's utilization over time, the ops
//! left to the CPU with their reasons and the hardware description.

use crate::npu_report::{op_kinds, trunc as short, Summary};
use runtime::npu_path::{NpuCompiled, NpuRun};
use runtime::partition_graph::{GraphNode, NodeKind, PartitionGraph};
use std::fmt::Write;

/// The colour of a target in the graph and the legend (inputs and outputs grey).
fn colour(kind: &NodeKind, npu: &str) -> &'static str {
    match kind {
        NodeKind::Input | NodeKind::Output => "#b8bec6",
        NodeKind::Partition(t) if t == backend::CPU => "#f2a65a",
        NodeKind::Partition(t) if t == npu => "#5b8def",
        NodeKind::Partition(_) => "#62b66b",
    }
}

/// Text escaped for HTML and SVG.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Bytes with a binary unit.
pub(crate) fn size(b: u64) -> String {
    match b {
        b if b >= 1 << 20 => format!("{:.2} MiB", b as f64 / (1u64 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{} B", b),
    }
}

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1200px;color:#1d2430;padding:0 16px}\
h1{font-size:22px;margin:0}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #dde2e8;padding-bottom:4px}\
.sub{color:#5c6878;margin:2px 0 12px}table{border-collapse:collapse}td,th{padding:3px 10px;text-align:left;vertical-align:top}\
th{background:#f1f4f7}tr:nth-child(even) td{background:#fafbfc}.num{text-align:right;font-variant-numeric:tabular-nums}\
.legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 14px;vertical-align:-1px;border-radius:2px}\
.scroll{overflow:auto;max-height:720px;border:1px solid #e3e7ec}svg text{font:11px system-ui,sans-serif;fill:#1d2430}\
#filter{margin:4px 0 8px;padding:4px 8px;width:320px}.note{color:#5c6878}";

/// The page.
pub fn html(model: &str, c: &NpuCompiled, r: &NpuRun, s: &Summary) -> String {
    let g = &s.graph;
    let mut o = String::new();
    let title = format!("{} on {}", model, c.targets.join(","));
    let _ = write!(o, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>npu-run: {}</title><style>{}</style></head><body>\n", esc(&title), STYLE);
    let _ = writeln!(o, "<h1>{}</h1><p class=\"sub\">npu-run --report-html · hardware {} · {}</p>", esc(&title), esc(&c.hw.name), esc(&backend::partition::split_line(&c.placements, &c.targets).trim_end().replace('\n', "; ")));
    o.push_str(&summary(c, s));
    o.push_str(&graph_svg(c, r, g));
    o.push_str(&layer_charts(r));
    let _ = write!(o, "<section id=\"roofline\"><h2>The layers on the roofline</h2><div class=\"scroll\">{}</div></section>\n", crate::roofline_plot::svg(model, c, r, s));
    o.push_str(&utilization(c, r));
    o.push_str(&cpu_ops(c));
    o.push_str(&hardware(c));
    o.push_str(FILTER_SCRIPT);
    o.push_str("</body></html>\n");
    o
}

fn summary(c: &NpuCompiled, s: &Summary) -> String {
    let ratio = if s.roofline_cycles == 0 { 0.0 } else { s.cycles as f64 / s.roofline_cycles as f64 };
    let rows = [
        ("NPU cycles", format!("{} ({:.3} ms at {} MHz)", s.cycles, s.cycles as f64 / c.hw.clock_mhz / 1e3, c.hw.clock_mhz)),
        ("roofline", format!("{} cycles (ratio {:.2})", s.roofline_cycles, ratio)),
        ("utilization", format!("{:.1}% of the array's peak for the element type", 100.0 * s.utilization)),
        ("DRAM traffic", format!("{} ({:.2}x the minimum {})", size(s.dram_bytes), s.dram_bytes as f64 / s.min_dram_bytes.max(1) as f64, size(s.min_dram_bytes))),
        ("MACs", s.macs.to_string()),
        ("ops", format!("{} on the NPU, {} on the CPU", s.npu_ops, s.cpu_ops)),
        ("transitions", format!("{} between targets in run order; {} values cross between targets ({})", s.transitions, s.crossing_values, size(s.crossing_bytes))),
        ("end to end", format!("{:.3} ms estimated (NPU cycles at the clock + measured host time)", s.end_to_end_ms)),
        ("compile", format!("{:.1} ms", s.compile_ms)),
        ("run on the host", format!("{:.1} ms ({:.1} ms in CPU partitions)", s.run_ms, s.cpu_ms)),
    ];
    let mut o = String::from("<section id=\"summary\"><h2>Whole model</h2><table class=\"kv\">\n");
    for (k, v) in rows {
        let _ = writeln!(o, "<tr><th>{}</th><td>{}</td></tr>", k, esc(&v));
    }
    o.push_str("</table></section>\n");
    o
}

/// The partition graph, top to bottom: a node's row is the longest path to
/// it from an input (nodes come in run order, so every edge points forward).
fn graph_svg(c: &NpuCompiled, r: &NpuRun, g: &PartitionGraph) -> String {
    const W: f64 = 190.0;
    const H: f64 = 42.0;
    const GAP_X: f64 = 24.0;
    const GAP_Y: f64 = 46.0;
    let mut rank = vec![0usize; g.nodes.len()];
    for e in &g.edges {
        rank[e.to] = rank[e.to].max(rank[e.from] + 1);
    }
    let rows = rank.iter().max().map_or(0, |m| m + 1);
    let mut col = vec![0usize; g.nodes.len()];
    let mut width = vec![0usize; rows];
    for (i, r) in rank.iter().enumerate() {
        col[i] = width[*r];
        width[*r] += 1;
    }
    let widest = width.iter().copied().max().unwrap_or(1).max(1);
    // Room on the right for the edges that skip rows.
    let svg_w = widest as f64 * (W + GAP_X) + GAP_X + 90.0;
    let svg_h = rows as f64 * (H + GAP_Y) + GAP_Y;
    // Each row centred.
    let pos = |i: usize| -> (f64, f64) {
        let offset = (svg_w - 90.0 - (width[rank[i]] as f64 * (W + GAP_X) - GAP_X)) / 2.0;
        (offset + col[i] as f64 * (W + GAP_X), GAP_Y / 2.0 + rank[i] as f64 * (H + GAP_Y))
    };
    let mut o = String::from("<section id=\"graph\"><h2>Partition graph</h2><p class=\"legend\">");
    let npu = c.hw.name.as_str();
    let mut seen: Vec<String> = vec![];
    for n in &g.nodes {
        let label = match &n.kind {
            NodeKind::Input | NodeKind::Output => "input / output".to_string(),
            NodeKind::Partition(t) => t.clone(),
        };
        if !seen.contains(&label) {
            let _ = write!(o, "<span style=\"background:{}\"></span>{}", colour(&n.kind, npu), esc(&label));
            seen.push(label);
        }
    }
    let _ = write!(o, "</p><p class=\"note\">Each box is a partition in the order it runs (hover for its ops and cycles); each arrow a value between them (hover for its bytes).</p><div class=\"scroll\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\">", svg_w, svg_h);
    o.push_str("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"#8a94a3\"/></marker></defs>\n");
    for e in &g.edges {
        let ((x1, y1), (x2, y2)) = (pos(e.from), pos(e.to));
        // Down from box to box; an edge that skips rows leaves and enters on
        // the right, bowed out, so that it does not pass behind the boxes between.
        let d = if rank[e.to] > rank[e.from] + 1 {
            let (xa, ya, xb, yb) = (x1 + W, y1 + H / 2.0, x2 + W, y2 + H / 2.0);
            let bow = 50.0 + 10.0 * (rank[e.to] - rank[e.from]).min(4) as f64;
            format!("M{:.1},{:.1}C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}", xa, ya, xa + bow, ya, xb + bow, yb, xb, yb)
        } else {
            let (xa, ya, xb, yb) = (x1 + W / 2.0, y1 + H, x2 + W / 2.0, y2);
            format!("M{:.1},{:.1}C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}", xa, ya, xa, ya + GAP_Y / 2.0, xb, yb - GAP_Y / 2.0, xb, yb)
        };
        let stroke = 1.0 + (e.bytes.max(1) as f64).log10() / 2.0;
        let _ = writeln!(
            o,
            "<path class=\"edge\" d=\"{}\" fill=\"none\" stroke=\"#8a94a3\" stroke-width=\"{:.2}\" marker-end=\"url(#arrow)\"><title>{} → {}: {}</title></path>",
            d, stroke, esc(&g.nodes[e.from].name), esc(&g.nodes[e.to].name), size(e.bytes)
        );
    }
    for (i, n) in g.nodes.iter().enumerate() {
        let (x, y) = pos(i);
        let (line2, tip) = node_text(c, r, n);
        let _ = writeln!(
            o,
            "<g class=\"part\" data-target=\"{}\"><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{}\" height=\"{}\" rx=\"5\" fill=\"{}\" stroke=\"#4a5563\" stroke-width=\"0.6\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text><text x=\"{:.1}\" y=\"{:.1}\">{}</text><title>{}</title></g>",
            esc(&match &n.kind { NodeKind::Partition(t) => t.clone(), NodeKind::Input => "input".into(), NodeKind::Output => "output".into() }),
            x, y, W, H, colour(&n.kind, npu), x + 8.0, y + 16.0, esc(&short(&n.name, 30)), x + 8.0, y + 32.0, esc(&short(&line2, 32)), esc(&tip)
        );
    }
    o.push_str("</svg></div></section>\n");
    o
}

/// A node's second line and its tooltip: the ops of a partition by type, and an NPU program's cycles.
fn node_text(c: &NpuCompiled, r: &NpuRun, n: &GraphNode) -> (String, String) {
    let (name, kind) = (n.name.as_str(), &n.kind);
    let NodeKind::Partition(target) = kind else {
        let what = if *kind == NodeKind::Input { "model input" } else { "model output" };
        let spec = c.inputs.iter().chain(&c.outputs).find(|s| s.name == name).map(|s| s.to_string()).unwrap_or_else(|| name.to_string());
        let ty = spec.split_once(": ").map_or(spec.as_str(), |(_, t)| t).to_string();
        return (format!("{} · {}", if *kind == NodeKind::Input { "input" } else { "output" }, ty), format!("{}: {}", what, spec));
    };
    let ops: Vec<&backend::partition::Placement> = c.placements.iter().filter(|p| p.partition == name).collect();
    let program = n.program.and_then(|k| c.programs.get(k)).map(|p| p.name.as_str());
    let cycles = r.reports.iter().find(|(p, _)| Some(p.as_str()) == program).map(|(_, rep)| rep.cycles);
    let line2 = match cycles {
        Some(cy) => format!("{} · {} ops · {} cycles", target, ops.len(), cy),
        None => format!("{} · {} ops", target, ops.len()),
    };
    let nodes: Vec<String> = ops.iter().take(40).map(|p| if p.node.is_empty() { p.op.clone() } else { format!("{} ({})", p.node, p.op.trim_start_matches("onnx.")) }).collect();
    let more = if ops.len() > 40 { format!("\n… and {} more", ops.len() - 40) } else { String::new() };
    (line2, format!("{} on {}: {}\n{}{}", name, target, op_kinds(ops.iter().map(|p| p.op.as_str())), nodes.join("\n"), more))
}

/// Two bar charts over every NPU layer in run order: cycles against the
/// roofline, and DRAM bytes.
fn layer_charts(r: &NpuRun) -> String {
    let layers: Vec<(&str, &npu_sim::report::LayerRow)> = r.reports.iter().flat_map(|(p, rep)| rep.layers.iter().map(move |l| (p.as_str(), l))).collect();
    if layers.is_empty() {
        return "<section id=\"layers\"><h2>Cycles per layer</h2><p>No layer ran on the NPU.</p></section>\n".into();
    }
    const LABEL: f64 = 300.0;
    const BAR: f64 = 560.0;
    const ROW: f64 = 18.0;
    let h = layers.len() as f64 * ROW + 24.0;
    let max_cycles = layers.iter().map(|(_, l)| l.cycles.max(l.roofline_cycles)).max().unwrap_or(1).max(1) as f64;
    let max_dram = layers.iter().map(|(_, l)| l.dram_bytes).max().unwrap_or(1).max(1) as f64;
    let mut o = String::from("<section id=\"layers\"><h2>Cycles per layer against the roofline</h2><p class=\"legend\"><span style=\"background:#5b8def\"></span>cycles<span style=\"background:#1d2430\"></span>roofline (the bound: MACs at peak or bytes at full bandwidth)</p><div class=\"scroll\">");
    let _ = write!(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{:.0}\">", LABEL + BAR + 120.0, h);
    for (i, (p, l)) in layers.iter().enumerate() {
        let y = 8.0 + i as f64 * ROW;
        let w = BAR * l.cycles as f64 / max_cycles;
        let roof = BAR * l.roofline_cycles as f64 / max_cycles;
        let _ = writeln!(
            o,
            "<g class=\"layer\"><text x=\"4\" y=\"{:.1}\">{}</text><rect x=\"{}\" y=\"{:.1}\" width=\"{:.1}\" height=\"12\" fill=\"#5b8def\"/><rect x=\"{:.1}\" y=\"{:.1}\" width=\"2\" height=\"16\" fill=\"#1d2430\"/><text x=\"{:.1}\" y=\"{:.1}\">{:.2}×</text><title>{} / {}: {} cycles, roofline {}, ratio {:.2}, {:.1}% of the array, {} MACs</title></g>",
            y + 10.0, esc(&short(&l.name, 46)), LABEL, y, w.max(0.5), LABEL + roof - 1.0, y - 2.0, LABEL + w.max(roof) + 6.0, y + 10.0, l.ratio_to_roofline,
            esc(p), esc(&l.name), l.cycles, l.roofline_cycles, l.ratio_to_roofline, 100.0 * l.utilization, l.macs
        );
    }
    o.push_str("</svg></div></section>\n<section id=\"dram\"><h2>DRAM traffic per layer</h2><div class=\"scroll\">");
    let _ = write!(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{:.0}\">", LABEL + BAR + 120.0, h);
    for (i, (p, l)) in layers.iter().enumerate() {
        let y = 8.0 + i as f64 * ROW;
        let w = BAR * l.dram_bytes as f64 / max_dram;
        let _ = writeln!(
            o,
            "<g class=\"dram\"><text x=\"4\" y=\"{:.1}\">{}</text><rect x=\"{}\" y=\"{:.1}\" width=\"{:.1}\" height=\"12\" fill=\"#8e6bd8\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text><title>{} / {}: {} DRAM bytes</title></g>",
            y + 10.0, esc(&short(&l.name, 46)), LABEL, y, w.max(0.5), LABEL + w + 6.0, y + 10.0, size(l.dram_bytes), esc(p), esc(&l.name), l.dram_bytes
        );
    }
    o.push_str("</svg></div></section>\n");
    o
}

/// The array's utilization over the NPU programs' simulated time (back to
/// back, in run order): each instruction's MAC slots spread over the cycles it
/// ran, summed in bins, over the peak; a line marks where a program starts.
fn utilization(c: &NpuCompiled, r: &NpuRun) -> String {
    const BINS: usize = 240;
    const PLOT_W: f64 = 960.0;
    const PLOT_H: f64 = 160.0;
    let total: u64 = r.runs.iter().map(|(_, res)| res.cycles).sum();
    let mut o = String::from("<section id=\"timeline\"><h2>Array utilization over time</h2>");
    if total == 0 {
        o.push_str("<p>No NPU program ran.</p></section>\n");
        return o;
    }
    let peak = (c.hw.array.rows * c.hw.array.cols) as f64;
    let bin = total as f64 / BINS as f64;
    let mut slots = vec![0f64; BINS];
    let mut starts = vec![];
    let mut offset = 0u64;
    for (k, res) in &r.runs {
        starts.push((offset, c.programs[*k].name.clone()));
        let prog = &c.programs[*k].program;
        for e in &res.executed {
            let macs = res.per_instr.get(e.instr).map_or(0, |m| m.0);
            if macs == 0 || e.end <= e.start {
                continue;
            }
            let f32 = prog.instrs.get(e.instr).and_then(|x| x.dtype) == Some(npu_sim::isa::Dtype::F32);
            let weight = macs as f64 * if f32 { c.hw.array.f32_rate as f64 } else { 1.0 };
            let (a, b) = ((offset + e.start) as f64, (offset + e.end) as f64);
            let per_cycle = weight / (b - a);
            let (first, last) = ((a / bin) as usize, (((b / bin).ceil() as usize).max(1) - 1).min(BINS - 1));
            for (i, s) in slots.iter_mut().enumerate().take(last + 1).skip(first.min(BINS - 1)) {
                let lo = a.max(i as f64 * bin);
                let hi = b.min((i + 1) as f64 * bin);
                if hi > lo {
                    *s += per_cycle * (hi - lo);
                }
            }
        }
        offset += res.cycles;
    }
    let util: Vec<f64> = slots.iter().map(|s| (s / (bin * peak)).clamp(0.0, 1.0)).collect();
    let mean = slots.iter().sum::<f64>() / (total as f64 * peak);
    let _ = write!(o, "<p class=\"note\">{} NPU cycles in {} programs; mean {:.1}% of the array's peak. Host time in CPU partitions between programs is not on this axis.</p>", total, r.runs.len(), 100.0 * mean);
    let (x0, y0) = (44.0, 10.0);
    let _ = write!(o, "<svg id=\"util\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">", PLOT_W + x0 + 20.0, PLOT_H + y0 + 34.0);
    for pct in [0, 50, 100] {
        let y = y0 + PLOT_H * (1.0 - pct as f64 / 100.0);
        let _ = write!(o, "<line x1=\"{x0}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#dde2e8\"/><text x=\"4\" y=\"{:.1}\">{}%</text>", x0 + PLOT_W, y + 4.0, pct);
    }
    for (at, name) in &starts {
        let x = x0 + PLOT_W * *at as f64 / total as f64;
        let _ = write!(o, "<line class=\"program-start\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{y0}\" y2=\"{:.1}\" stroke=\"#f2a65a\" stroke-dasharray=\"2,2\"><title>{} starts at cycle {}</title></line>", y0 + PLOT_H, esc(name), at);
    }
    let mut d = format!("M{:.1},{:.1}", x0, y0 + PLOT_H);
    for (i, u) in util.iter().enumerate() {
        let (xa, xb) = (x0 + PLOT_W * i as f64 / BINS as f64, x0 + PLOT_W * (i + 1) as f64 / BINS as f64);
        let y = y0 + PLOT_H * (1.0 - u);
        let _ = write!(d, "L{:.1},{:.1}L{:.1},{:.1}", xa, y, xb, y);
    }
    let _ = write!(d, "L{:.1},{:.1}Z", x0 + PLOT_W, y0 + PLOT_H);
    let _ = write!(o, "<path d=\"{}\" fill=\"#5b8def\" fill-opacity=\"0.55\" stroke=\"#3a6fd8\" stroke-width=\"0.8\"/>", d);
    let _ = write!(o, "<text x=\"{x0}\" y=\"{:.1}\">cycle 0</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">cycle {}</text></svg></section>\n", y0 + PLOT_H + 16.0, x0 + PLOT_W, y0 + PLOT_H + 16.0, total);
    o
}

/// Every op that did not run on its first-choice backend, with the reason.
fn cpu_ops(c: &NpuCompiled) -> String {
    let rows: Vec<&backend::partition::Placement> = c.placements.iter().filter(|p| p.backend == backend::CPU || p.reason.is_some()).collect();
    let mut o = format!("<section id=\"cpu-ops\"><h2>Ops past the first backend, and why ({} of {})</h2>", rows.len(), c.placements.len());
    if rows.is_empty() {
        o.push_str("<p>Every op ran on the first backend of the list.</p></section>\n");
        return o;
    }
    o.push_str("<input id=\"filter\" type=\"search\" placeholder=\"filter: op, node, reason…\" aria-label=\"filter the ops\"><div class=\"scroll\"><table id=\"cpu-table\"><thead><tr><th>node</th><th>op</th><th>ran on</th><th>reason</th><th>why</th></tr></thead><tbody>\n");
    for p in rows {
        let (code, msg) = p.reason.as_ref().map(|r| (r.reason.code().to_string(), r.message.clone())).unwrap_or_default();
        let _ = writeln!(o, "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", esc(&p.node), esc(p.op.trim_start_matches("onnx.")), esc(&p.backend), esc(&code), esc(&msg));
    }
    o.push_str("</tbody></table></div></section>\n");
    o
}

/// The hardware description, one row per key.
fn hardware(c: &NpuCompiled) -> String {
    let mut o = format!("<section id=\"hw\"><h2>Hardware: {}</h2><table class=\"kv\">\n", esc(&c.hw.name));
    let mut rows = vec![];
    flatten("", &serde_json::to_value(&c.hw).unwrap_or_default(), &mut rows);
    for (k, v) in rows {
        let _ = writeln!(o, "<tr><th>{}</th><td>{}</td></tr>", esc(&k), esc(&v));
    }
    o.push_str("</table></section>\n");
    o
}

fn flatten(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                flatten(&if prefix.is_empty() { k.clone() } else { format!("{}.{}", prefix, k) }, x, out);
            }
        }
        serde_json::Value::String(s) => out.push((prefix.to_string(), s.clone())),
        x => out.push((prefix.to_string(), x.to_string())),
    }
}

/// Filters the table of ops as the user types.
const FILTER_SCRIPT: &str = "<script>\n(function () {\n  var f = document.getElementById('filter');\n  if (!f) return;\n  f.addEventListener('input', function () {\n    var q = f.value.toLowerCase();\n    document.querySelectorAll('#cpu-table tbody tr').forEach(function (r) {\n      r.style.display = r.textContent.toLowerCase().indexOf(q) < 0 ? 'none' : '';\n    });\n  });\n})();\n</script>\n";
