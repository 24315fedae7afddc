//! `npu-run --plot FILE`: a run's NPU layers on one roofline chart (SVG,
//! log-log). A layer is a dot at its arithmetic intensity (the array's MAC
//! slots per DRAM byte; an f32 MAC takes `array.f32_rate` slots, an int8 one
//! one) and at the slots a cycle it achieved, under the roof
//! `min(peak, DRAM bytes a cycle × intensity)`: a dot on the roof runs at its
//! bound, and how far below it sits is the ratio `npu-run -v` prints. Its
//! colour says how far. The diamond is the whole model, at the intensity of
//! its roofline: the bytes that must move once (inputs, outputs, weights). MACs are the
//! report's: ONNX's count, a padded conv's padding taps included, which the
//! kernels skip, so such a layer can sit above the roof (ResNet-18-like
//! int8's last 3×3 convs, on 7×7 maps, at 0.93× their roofline). Layers without MACs
//! (pools, adds, moves) or without DRAM bytes have no place on these axes:
//! the caption counts them and their share of the cycles. The HTML report
//! shows the same chart.

use crate::npu_report::Summary;
use crate::report_html::esc;
use runtime::npu_path::{NpuCompiled, NpuRun};
use std::fmt::Write;

const W: f64 = 720.0;
const H: f64 = 420.0;
const LEFT: f64 = 80.0;
const TOP: f64 = 48.0;

/// Log-scale axes: the decades `[x_lo, x_hi]` and `[y_lo, y_hi]` over the plot area.
#[derive(Debug, PartialEq)]
struct Axes {
    x_lo: i32,
    x_hi: i32,
    y_lo: i32,
    y_hi: i32,
}

impl Axes {
    /// The decades that hold every value, with a margin.
    fn around(xs: impl Iterator<Item = f64> + Clone, ys: impl Iterator<Item = f64> + Clone) -> Axes {
        let lo = |v: f64| (v / 2.0).log10().floor() as i32;
        let hi = |v: f64| (v * 2.0).log10().ceil() as i32;
        let (x_min, x_max) = xs.clone().fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        let (y_min, y_max) = ys.clone().fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        Axes { x_lo: lo(x_min), x_hi: hi(x_max).max(lo(x_min) + 1), y_lo: lo(y_min), y_hi: hi(y_max).max(lo(y_min) + 1) }
    }
    fn x(&self, v: f64) -> f64 {
        LEFT + (v.log10() - self.x_lo as f64) / (self.x_hi - self.x_lo) as f64 * W
    }
    fn y(&self, v: f64) -> f64 {
        TOP + H - (v.log10() - self.y_lo as f64) / (self.y_hi - self.y_lo) as f64 * H
    }
}

/// One layer on the chart.
struct Dot {
    program: String,
    name: String,
    intensity: f64,
    rate: f64,
    cycles: u64,
    ratio: f64,
}

/// The roof at `intensity`: what the array and the DRAM allow, slots a cycle.
fn roof(peak: f64, bandwidth: f64, intensity: f64) -> f64 {
    peak.min(bandwidth * intensity)
}

/// Green at the bound (within 15%, issue 18's floor), amber within 2×, red beyond.
fn colour(ratio: f64) -> &'static str {
    if ratio <= 1.15 {
        "#2e9d5b"
    } else if ratio <= 2.0 {
        "#e0a030"
    } else {
        "#d9534f"
    }
}

/// A decade's label: 0.01, 0.1, 1, 10, 100, 1000, then 1e4.
fn decade(k: i32) -> String {
    match k {
        -2..=3 => format!("{}", 10f64.powi(k)),
        _ => format!("1e{}", k),
    }
}

/// The chart as one standalone SVG document.
pub fn svg(model: &str, c: &NpuCompiled, r: &NpuRun, summary: &Summary) -> String {
    let peak = c.hw.peak_macs() as f64;
    let bandwidth = c.hw.dram.bytes_per_cycle as f64;
    let mut dots = vec![];
    let (mut off_cycles, mut off_layers, mut all_cycles) = (0u64, 0usize, 0u64);
    for (program, rep) in &r.reports {
        for l in &rep.layers {
            all_cycles += l.cycles;
            let s = l.mac_slots as f64;
            if l.mac_slots == 0 || l.dram_bytes == 0 || l.cycles == 0 {
                off_cycles += l.cycles;
                off_layers += 1;
                continue;
            }
            dots.push(Dot { program: program.clone(), name: l.name.clone(), intensity: s / l.dram_bytes as f64, rate: s / l.cycles as f64, cycles: l.cycles, ratio: l.ratio_to_roofline });
        }
    }
    // The whole model at the intensity of its roofline: every byte that must move (inputs, outputs, weights) once.
    let (slots, least, cycles) = (r.mac_slots as f64, summary.min_dram_bytes as f64, summary.cycles as f64);
    let model_dot = (slots > 0.0 && least > 0.0 && cycles > 0.0).then(|| (slots / least, slots / cycles));
    let ridge = peak / bandwidth;
    let ax = Axes::around(dots.iter().map(|d| d.intensity).chain(model_dot.map(|m| m.0)).chain([ridge]), dots.iter().map(|d| d.rate).chain(model_dot.map(|m| m.1)).chain([peak]));
    let (width, height) = (LEFT + W + 40.0, TOP + H + 110.0);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" font-family=\"system-ui,sans-serif\" font-size=\"12\" data-peak=\"{peak}\" data-bandwidth=\"{bandwidth}\" data-x-decades=\"{} {}\" data-y-decades=\"{} {}\" data-plot=\"{LEFT} {TOP} {W} {H}\">",
        ax.x_lo, ax.x_hi, ax.y_lo, ax.y_hi
    );
    let _ = writeln!(o, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(o, "<text x=\"{LEFT}\" y=\"22\" font-size=\"15\" font-weight=\"600\">{} on {}: each NPU layer against its roofline</text>", esc(model), esc(&c.hw.name));
    // Grid and decade labels.
    for k in ax.x_lo..=ax.x_hi {
        let x = ax.x(10f64.powi(k));
        let _ = writeln!(o, "<line x1=\"{x:.1}\" y1=\"{TOP}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#e3e7ec\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>", TOP + H, TOP + H + 16.0, decade(k));
    }
    for k in ax.y_lo..=ax.y_hi {
        let y = ax.y(10f64.powi(k));
        let _ = writeln!(o, "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#e3e7ec\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>", LEFT + W, LEFT - 6.0, y + 4.0, decade(k));
    }
    let _ = writeln!(o, "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">arithmetic intensity: array MAC slots per DRAM byte (an f32 MAC is {} slots)</text>", LEFT + W / 2.0, TOP + H + 36.0, c.hw.array.f32_rate);
    let _ = writeln!(o, "<text transform=\"translate(18 {:.1}) rotate(-90)\" text-anchor=\"middle\">MAC slots a cycle</text>", TOP + H / 2.0);
    // The roof: the DRAM's slope up to the ridge, then the array's peak.
    let (x_lo, x_hi) = (10f64.powi(ax.x_lo), 10f64.powi(ax.x_hi));
    let start = x_lo.max(10f64.powi(ax.y_lo) / bandwidth);
    let roof_points: Vec<(f64, f64)> = [start, ridge.clamp(start, x_hi), x_hi].iter().map(|&x| (ax.x(x), ax.y(roof(peak, bandwidth, x)))).collect();
    let _ = writeln!(o, "<polyline class=\"roof\" points=\"{}\" fill=\"none\" stroke=\"#1d2430\" stroke-width=\"2\"/>", roof_points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect::<Vec<_>>().join(" "));
    let _ = writeln!(o, "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">array peak {} slots a cycle; DRAM {} bytes a cycle</text>", LEFT + W - 4.0, ax.y(peak) - 6.0, peak, bandwidth);
    for d in &dots {
        let _ = writeln!(
            o,
            "<circle class=\"layer\" cx=\"{:.2}\" cy=\"{:.2}\" r=\"4\" fill=\"{}\" fill-opacity=\"0.8\" data-intensity=\"{}\" data-rate=\"{}\"><title>{} / {}: {} cycles, {:.2}x its roofline, {:.2} slots a byte</title></circle>",
            ax.x(d.intensity), ax.y(d.rate), colour(d.ratio), d.intensity, d.rate, esc(&d.program), esc(&d.name), d.cycles, d.ratio, d.intensity
        );
    }
    if let Some((mi, mr)) = model_dot {
        let (x, y) = (ax.x(mi), ax.y(mr));
        let ratio = summary.cycles as f64 / summary.roofline_cycles.max(1) as f64;
        let _ = writeln!(
            o,
            "<path class=\"model\" d=\"M{x:.2},{:.2} L{:.2},{y:.2} L{x:.2},{:.2} L{:.2},{y:.2} Z\" fill=\"#5b8def\" stroke=\"#1d2430\" data-intensity=\"{mi}\" data-rate=\"{mr}\"><title>the whole model at its minimum DRAM bytes: {:.2}x its roofline; it moved {:.2}x those bytes</title></path>",
            y - 8.0, x + 8.0, y + 8.0, x - 8.0, ratio, summary.dram_bytes as f64 / least
        );
    }
    let legend_y = TOP + H + 60.0;
    for (i, (c, what)) in [("#2e9d5b", "within 1.15x its roofline"), ("#e0a030", "within 2x"), ("#d9534f", "beyond 2x"), ("#5b8def", "the whole model")].iter().enumerate() {
        let x = LEFT + i as f64 * 180.0;
        let _ = writeln!(o, "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{c}\"/><text x=\"{:.1}\" y=\"{:.1}\">{what}</text>", x, legend_y - 4.0, x + 10.0, legend_y);
    }
    let share = if all_cycles == 0 { 0.0 } else { 100.0 * off_cycles as f64 / all_cycles as f64 };
    if r.reports.is_empty() {
        let _ = writeln!(o, "<text class=\"caption\" x=\"{LEFT}\" y=\"{:.1}\">No layer ran on the NPU.</text></svg>", legend_y + 24.0);
        return o;
    }
    let _ = writeln!(
        o,
        "<text class=\"caption\" x=\"{LEFT}\" y=\"{:.1}\">{} layers plotted; {} without MACs or DRAM bytes (pools, adds, moves, on chip) are not: {:.1}% of the cycles.</text>",
        legend_y + 24.0,
        dots.len(),
        off_layers,
        share
    );
    o.push_str("</svg>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layer at its bound is drawn on the roof: on the DRAM's slope below
    /// the ridge, on the peak above it; the axes hold every value.
    #[test]
    fn a_layer_at_its_bound_sits_on_the_roof() {
        let (peak, bw) = (256.0, 16.0);
        let ax = Axes::around([0.5, 16.0, 400.0].into_iter(), [8.0, 256.0].into_iter());
        assert_eq!(ax, Axes { x_lo: -1, x_hi: 3, y_lo: 0, y_hi: 3 });
        // Memory-bound: 2 slots a byte at 16 bytes a cycle is 32 slots a cycle, on the slope
        // from (x(1), y(16)) to the ridge (x(16), y(256)).
        let (x, y) = (ax.x(2.0), ax.y(roof(peak, bw, 2.0)));
        let (x0, y0, x1, y1) = (ax.x(1.0), ax.y(16.0), ax.x(16.0), ax.y(256.0));
        assert!((y - (y0 + (y1 - y0) * (x - x0) / (x1 - x0))).abs() < 1e-9);
        // Compute-bound: at the peak's height.
        assert_eq!(ax.y(roof(peak, bw, 100.0)), ax.y(peak));
        // Half the roof's rate is log10(2) of a decade lower.
        let drop = ax.y(roof(peak, bw, 100.0) / 2.0) - ax.y(peak);
        assert!((drop - 2f64.log10() / 3.0 * H).abs() < 1e-9);
    }
}
