//! What `npu-run --perf` prints after its timed runs: compile time, the
//! first run, the latency percentiles, memory, and on more than one thread
//! whether the host's cores share an L3 (two-thread figures depend on it),
//! as lines or as one JSON object.

/// A `--perf` run's figures.
pub(crate) struct Figures {
    pub compile_ms: f64,
    pub cached: bool,
    pub cache_label: &'static str,
    pub first_ms: f64,
    /// Each timed run's milliseconds.
    pub times: Vec<f64>,
    pub memory: Memory,
    /// `runtime::host::cross_core_read_ratio` before and after the runs.
    pub cross_core_read: Option<(f64, f64)>,
}

/// P50, P90 and P99 of `times` (NaN when there are none).
pub(crate) fn percentiles(times: &[f64]) -> (f64, f64, f64) {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = |p: f64| {
        if sorted.is_empty() {
            return f64::NAN;
        }
        let i = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
        sorted[i.min(sorted.len() - 1)]
    };
    (at(50.0), at(90.0), at(99.0))
}

pub(crate) fn print(f: &Figures, json: bool) {
    let (p50, p90, p99) = percentiles(&f.times);
    let m = &f.memory;
    if json {
        println!(
            "{}",
            serde_json::json!({"compile_ms": f.compile_ms, "compile_cache": f.cache_label, "first_run_ms": f.first_ms, "p50_ms": p50, "p90_ms": p90, "p99_ms": p99, "runs": f.times.len(),
                "arena_bytes": m.arena, "weights_bytes": m.weights, "peak_rss_bytes": m.peak_rss,
                "cross_core_read": f.cross_core_read.map(|(b, a)| [b, a])})
        );
        return;
    }
    let cached = if f.cached { " (from the compile cache)" } else { "" };
    println!("compile time:   {:.1} ms{}", f.compile_ms, cached);
    println!("first run:      {:.3} ms", f.first_ms);
    println!("latency over {} runs: P50 {:.3} ms, P90 {:.3} ms, P99 {:.3} ms", f.times.len(), p50, p90, p99);
    println!("{}", m.line());
    if let Some((before, after)) = f.cross_core_read {
        println!("host:           2 MB another core wrote read {before:.1}x (before the runs) and {after:.1}x (after) as slowly as the reader's own; above 1.5 the cores are on different L3 caches and threads that hand data to each other slow down");
    }
}

/// `--perf`'s memory figures: the intermediates' arena at its peak over the
/// runs (as the runtime handed it out: `plan-arena` sized it at compile
/// time), the weights the code is passed, and the process's peak resident
/// memory (compile included: LLVM's peak is usually the larger).
pub(crate) struct Memory {
    arena: usize,
    weights: usize,
    peak_rss: Option<usize>,
}

impl Memory {
    pub(crate) fn after_runs(c: &runtime::Compiled) -> Memory {
        // VmHWM: the resident set's high-water mark, in kB.
        let peak_rss = std::fs::read_to_string("/proc/self/status").ok().and_then(|s| s.lines().find_map(|l| l.strip_prefix("VmHWM:").and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok()))).map(|kb| kb * 1024);
        Memory { arena: runtime::arena::peak_bytes(), weights: c.weights.iter().map(|w| w.data.as_ref().len()).sum(), peak_rss }
    }

    fn line(&self) -> String {
        let size = |b: usize| crate::report_html::size(b as u64);
        let rss = self.peak_rss.map_or(String::new(), |r| format!(", process peak resident {} (compile included)", size(r)));
        format!("memory:         intermediates {} at peak (one arena, planned at compile time), weights {}{}", size(self.arena), size(self.weights), rss)
    }
}
