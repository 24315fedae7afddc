//! What this machine's CPU can do, for figures that compare against it: the
//! nominal f32 peak of one core, from the base clock and vector width Linux
//! reports (`cpufreq/base_frequency`, else the `@ 2.60GHz` of the model name,
//! else the current `cpu MHz`; the flags of `/proc/cpuinfo`), assuming two FMA
//! units per core as on current x86 server cores, 256 bits wide on Zen 4. A nominal figure, not a measured one: it tells how far a
//! kernel is from the hardware, not a bound it cannot pass under turbo.

/// One core's nominal peak and how it was reckoned.
pub struct Peak {
    pub gflops: f64,
    pub how: String,
}

/// None where Linux gives no clock (not Linux, not x86).
pub fn nominal_peak_gflops() -> Option<Peak> {
    let base_khz = std::fs::read_to_string("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency").ok().and_then(|s| s.trim().parse::<f64>().ok());
    peak_from(&std::fs::read_to_string("/proc/cpuinfo").ok()?, base_khz, cpu_target::avx512_on_256_bit_units())
}

/// `narrow_units`: AVX-512 runs on 256-bit units here (`cpu_target`'s CPUID check).
fn peak_from(cpuinfo: &str, base_khz: Option<f64>, narrow_units: bool) -> Option<Peak> {
    let field = |name: &str| cpuinfo.lines().find(|l| l.split(':').next().is_some_and(|k| k.trim() == name)).and_then(|l| l.split_once(':')).map(|(_, v)| v.trim().to_string());
    let named = field("model name").and_then(|m| m.rsplit_once('@').and_then(|(_, f)| f.trim().strip_suffix("GHz").and_then(|g| g.trim().parse::<f64>().ok())).map(|ghz| ghz * 1000.0));
    let mhz: f64 = base_khz.map(|k| k / 1000.0).or(named).or_else(|| field("cpu MHz")?.parse().ok()).filter(|m: &f64| *m > 0.0)?;
    let flags = field("flags").unwrap_or_default();
    let has = |f: &str| flags.split_whitespace().any(|x| x == f);
    // Zen 4 runs AVX-512 on its two 256-bit FMA pipes, two passes an
    // instruction: 8 lanes a unit, as its AVX2.
    let (lanes, isa) = if has("avx512f") && narrow_units {
        (8, "AVX-512 on 256-bit units (Zen 4)")
    } else if has("avx512f") {
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
        let p = peak_from("processor\t: 0\ncpu MHz\t\t: 2600.000\nflags\t\t: fpu sse avx2 fma avx512f\n", None, false).unwrap();
        assert!((p.gflops - 166.4).abs() < 1e-9, "{}", p.gflops);
        let p = peak_from("cpu MHz : 3000\nflags : sse2 avx2 fma\n", None, false).unwrap();
        assert!((p.gflops - 96.0).abs() < 1e-9, "{}", p.gflops);
        // The base clock before the current one: an idle core's 800 MHz is no peak.
        let p = peak_from("model name : Xeon(R) Gold 6148 CPU @ 2.40GHz\ncpu MHz : 800\nflags : avx512f\n", None, false).unwrap();
        assert!((p.gflops - 153.6).abs() < 1e-9, "{}", p.gflops);
        let p = peak_from("cpu MHz : 800\nflags : avx512f\n", Some(2_000_000.0), false).unwrap();
        assert!((p.gflops - 128.0).abs() < 1e-9, "{}", p.gflops);
        // Zen 4 has AVX-512 but two 256-bit FMA pipes (the CPUID check says so).
        let p = peak_from("model name : AMD EPYC\ncpu MHz : 2600\nflags : avx2 fma avx512f\n", None, true).unwrap();
        assert!((p.gflops - 83.2).abs() < 1e-9 && p.how.contains("Zen 4"), "{} {}", p.gflops, p.how);
        let p = peak_from("cpu MHz : 2600\nflags : avx2 fma avx512f\n", None, false).unwrap();
        assert!((p.gflops - 166.4).abs() < 1e-9, "512-bit units: {}", p.gflops);
        assert!(peak_from("flags : avx512f\n", None, false).is_none());
        assert!(peak_from("cpu MHz : 0\n", None, false).is_none());
    }
}
