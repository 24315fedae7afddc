//! What this machine's CPU can do, for figures that compare against it: the
//! nominal f32 peak of one core, from the clock and vector width Linux
//! reports (`/proc/cpuinfo`), assuming two FMA units per core as on current
//! x86 server cores. A nominal figure, not a measured one: it tells how far a
//! kernel is from the hardware, not a bound it cannot pass under turbo.

/// One core's nominal peak and how it was reckoned.
pub struct Peak {
    pub gflops: f64,
    pub how: String,
}

/// None where `/proc/cpuinfo` gives no clock (not Linux, not x86).
pub fn nominal_peak_gflops() -> Option<Peak> {
    peak_from(&std::fs::read_to_string("/proc/cpuinfo").ok()?)
}

fn peak_from(cpuinfo: &str) -> Option<Peak> {
    let field = |name: &str| cpuinfo.lines().find(|l| l.split(':').next().is_some_and(|k| k.trim() == name)).and_then(|l| l.split_once(':')).map(|(_, v)| v.trim().to_string());
    let mhz: f64 = field("cpu MHz")?.parse().ok().filter(|m: &f64| *m > 0.0)?;
    let flags = field("flags").unwrap_or_default();
    let has = |f: &str| flags.split_whitespace().any(|x| x == f);
    let (lanes, isa) = if has("avx512f") {
        (16, "AVX-512")
    } else if has("avx2") && has("fma") {
        (8, "AVX2")
    } else {
        (4, "SSE")
    };
    let ghz = mhz / 1000.0;
    Some(Peak { gflops: 2.0 * 2.0 * lanes as f64 * ghz, how: format!("{} lanes of {} x 2 FMA units x 2 flops x {:.2} GHz", lanes, isa, ghz) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_follows_clock_and_width() {
        let p = peak_from("processor\t: 0\ncpu MHz\t\t: 2600.000\nflags\t\t: fpu sse avx2 fma avx512f\n").unwrap();
        assert!((p.gflops - 166.4).abs() < 1e-9, "{}", p.gflops);
        let p = peak_from("cpu MHz : 3000\nflags : sse2 avx2 fma\n").unwrap();
        assert!((p.gflops - 96.0).abs() < 1e-9, "{}", p.gflops);
        assert!(peak_from("flags : avx512f\n").is_none());
        assert!(peak_from("cpu MHz : 0\n").is_none());
    }
}
