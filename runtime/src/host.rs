//! What this machine's CPU can do, for figures that compare against it: one
//! core's f32 peak measured (`measured_peak_gflops`, a multiply-add loop at
//! the clock the core runs at now) and nominal (`nominal_peak_gflops`: the
//! base clock and vector width Linux reports, `cpufreq/base_frequency`, else
//! the `@ 2.60GHz` of the model name, else the current `cpu MHz`, and the
//! flags of `/proc/cpuinfo`, assuming two FMA units per core as on current x86
//! server cores, 256 bits wide on Zen 4). Kernels under turbo pass the
//! nominal figure; the measured one is the bound.

/// One core's peak and how it was reckoned.
pub struct Peak {
    pub gflops: f64,
    pub how: String,
}

/// None where Linux gives no clock (not Linux, not x86).
pub fn nominal_peak_gflops() -> Option<Peak> {
    let base_khz = std::fs::read_to_string("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency").ok().and_then(|s| s.trim().parse::<f64>().ok());
    peak_from(&std::fs::read_to_string("/proc/cpuinfo").ok()?, base_khz, cpu_target::avx512_on_256_bit_units())
}

/// One core's f32 peak as it runs now, turbo and all: twelve independent
/// chains of multiply-adds of the vector width the kernels use (`cpu_target`),
/// timed over `ms` batches of one to two milliseconds each (at least one),
/// after as many to let the clock rise.
/// What a kernel's GFLOP/s is compared with; the nominal figure, from the
/// base clock, is passed by kernels under turbo (a Zen 4 core: 83 nominal,
/// 117 measured). None off x86-64 or without AVX2 and FMA.
pub fn measured_peak_gflops(ms: u64) -> Option<Peak> {
    let ms = ms.max(1);
    #[cfg(target_arch = "x86_64")]
    {
        let wide = cpu_target::cpu_target() != cpu_target::CpuTarget::Avx2;
        let avx512 = wide && std::arch::is_x86_feature_detected!("avx512f");
        if !avx512 && !(std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")) {
            return None;
        }
        let (lanes, isa) = if avx512 { (16u64, "16-lane AVX-512") } else { (8, "8-lane AVX2") };
        // SAFETY: each runs only where its features were detected above.
        let run = |iters: u64| unsafe { if avx512 { fma_chains_512(iters) } else { fma_chains_256(iters) } };
        // Calibrate a batch of about a millisecond, warm up, then time.
        let mut iters = 1u64 << 14;
        while {
            let t = std::time::Instant::now();
            std::hint::black_box(run(iters));
            t.elapsed().as_secs_f64() < 1e-3
        } {
            iters *= 2;
        }
        let timed = |batches: u64| {
            let t = std::time::Instant::now();
            for _ in 0..batches {
                std::hint::black_box(run(std::hint::black_box(iters)));
            }
            t.elapsed().as_secs_f64()
        };
        timed(ms);
        let secs = timed(ms);
        let flops = (ms * iters * CHAINS as u64 * lanes * 2) as f64;
        Some(Peak { gflops: flops / secs / 1e9, how: format!("{} chains of {} multiply-adds for {} ms", CHAINS, isa, ms) })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = ms;
        None
    }
}

/// Independent multiply-add chains: more than the FMA units' latency times
/// their count (4 cycles x 2 units), so they never wait on each other.
const CHAINS: usize = 12;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn fma_chains_512(iters: u64) -> f32 {
    use std::arch::x86_64::*;
    let (b, c) = (_mm512_set1_ps(1.000_000_1), _mm512_set1_ps(1e-7));
    let mut a = [_mm512_setzero_ps(); CHAINS];
    for _ in 0..iters {
        for x in a.iter_mut() {
            *x = _mm512_fmadd_ps(*x, b, c);
        }
    }
    a.iter().map(|v| _mm512_reduce_add_ps(*v)).sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn fma_chains_256(iters: u64) -> f32 {
    use std::arch::x86_64::*;
    let (b, c) = (_mm256_set1_ps(1.000_000_1), _mm256_set1_ps(1e-7));
    let mut a = [_mm256_setzero_ps(); CHAINS];
    for _ in 0..iters {
        for x in a.iter_mut() {
            *x = _mm256_fmadd_ps(*x, b, c);
        }
    }
    let mut lanes = [0f32; 8];
    a.iter()
        .map(|v| {
            // SAFETY: 8 floats written into an array of 8.
            unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), *v) };
            lanes.iter().sum::<f32>()
        })
        .sum()
}

/// How many times as long this process takes to read 2 MB (past a core's
/// L2) that another of its threads has just written as 2 MB it wrote itself:
/// the median over nine rounds, each thread spinning (not sleeping) so they
/// sit on two cores. About 1 where the cores share an L3; 2.5-4 on a KVM
/// host whose two vCPUs sit on different L3s (this project's, at times),
/// where threads that hand data to each other slow down: what a two-thread
/// benchmark figure needs beside it. None with fewer than two cores.
pub fn cross_core_read_ratio() -> Option<f64> {
    use std::sync::atomic::{AtomicUsize, Ordering::*};
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        return None;
    }
    const FLOATS: usize = 1 << 19;
    const ROUNDS: usize = 9;
    let write = |buf: &mut [f32], v: f32| buf.iter_mut().enumerate().for_each(|(i, x)| *x = v + i as f32);
    // One load per 64-byte line, timed.
    let read = |buf: &[f32]| {
        let t = std::time::Instant::now();
        std::hint::black_box(buf.iter().step_by(16).sum::<f32>());
        t.elapsed().as_secs_f64()
    };
    let mut theirs = vec![0f32; FLOATS];
    let mut mine = vec![0f32; FLOATS];
    // Even: the helper's turn to write round `turn / 2`; odd: the caller's to read.
    let turn = AtomicUsize::new(0);
    let (mut other, mut own) = (Vec::new(), Vec::new());
    let shared = std::sync::Mutex::new(&mut theirs);
    std::thread::scope(|s| {
        s.spawn(|| {
            for r in 0..ROUNDS {
                while turn.load(Acquire) != 2 * r {
                    std::hint::spin_loop();
                }
                write(&mut shared.lock().unwrap_or_else(|e| e.into_inner()), r as f32);
                turn.store(2 * r + 1, Release);
            }
        });
        for r in 0..ROUNDS {
            while turn.load(Acquire) != 2 * r + 1 {
                std::hint::spin_loop();
            }
            other.push(read(&shared.lock().unwrap_or_else(|e| e.into_inner())));
            write(&mut mine, r as f32);
            own.push(read(&mine));
            turn.store(2 * r + 2, Release);
        }
    });
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (o, m) = (median(other), median(own));
    (m > 0.0).then(|| o / m)
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
    fn cross_core_reads_are_a_ratio() {
        // A positive finite ratio where there are two cores; an L3 shared or
        // not, another core's lines are not read 20 times slower.
        if let Some(r) = cross_core_read_ratio() {
            assert!(r.is_finite() && r > 0.0 && r < 20.0, "{r}");
        }
    }

    #[test]
    fn measured_peak_is_a_rate() {
        // Where the machine has the units: a rate, of at least one GFLOP/s.
        if let Some(p) = measured_peak_gflops(5) {
            assert!(p.gflops.is_finite() && p.gflops > 1.0, "{} GFLOP/s", p.gflops);
            assert!(p.how.contains("multiply-adds for 5 ms"), "{}", p.how);
        }
    }

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
