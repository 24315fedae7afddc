//! Simulator speed and timing sanity, printed as tables:
//! 1. a large int8 matmul in functional + timed mode: simulated MACs per second
//!    (median of runs), beside the same matmul in plain Rust on this machine;
//! 2. double-buffered matmuls: simulated cycles against the analytic bound.
//!
//! Run: `cargo run --release -p npu-sim --example bench`

use npu_sim::kernels::{reference_matmul, Matmul};
use npu_sim::{asm, sim, HwConfig};
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// The same matmul as ordinary optimized Rust: i-k-j order so the inner loop
/// vectorizes over a row of B, i32 accumulators.
fn native_matmul(m: usize, k: usize, n: usize, a: &[u8], b: &[u8]) -> Vec<i32> {
    let mut c = vec![0i32; m * n];
    let bi: Vec<i32> = b.iter().map(|&x| x as i8 as i32).collect();
    for i in 0..m {
        let row = &mut c[i * n..(i + 1) * n];
        for kk in 0..k {
            let av = a[i * k + kk] as i8 as i32;
            let br = &bi[kk * n..(kk + 1) * n];
            for (o, &bv) in row.iter_mut().zip(br) {
                *o = o.wrapping_add(av.wrapping_mul(bv));
            }
        }
    }
    c
}

fn bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 56) as u8
        })
        .collect()
}

fn main() {
    let runs = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(5usize);
    let cfg = HwConfig::npu16();
    // 512×448×4608 ≈ 1.06 G MACs; A stays resident in the scratchpad.
    let mm = Matmul { m: 512, k: 448, n: 4608, f32: false, requant: None };
    let macs = (mm.m * mm.k * mm.n) as f64;
    let text = mm.program(&cfg).unwrap();
    let p = asm::assemble(&text).unwrap();
    let (a, b) = (bytes(mm.m * mm.k, 1), bytes(mm.k * mm.n, 2));
    let inputs = vec![("a".to_string(), a.clone()), ("b".to_string(), b.clone())];
    let mut sim_t = vec![];
    let mut native_t = vec![];
    let mut naive_t = vec![];
    for run in 0..runs {
        let t = Instant::now();
        let r = sim::run(&cfg, &p, &inputs, false).unwrap();
        sim_t.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let c = native_matmul(mm.m, mm.k, mm.n, &a, &b);
        native_t.push(t.elapsed().as_secs_f64());
        let c_bytes: Vec<u8> = c.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(c_bytes, r.outputs[0].1, "simulator and native matmul disagree");
        if run == 0 {
            let t = Instant::now();
            assert_eq!(reference_matmul(&mm, &a, &b), c_bytes);
            naive_t.push(t.elapsed().as_secs_f64());
        }
    }
    let (s, n) = (median(sim_t), median(native_t));
    println!("simulator speed: int8 matmul {}x{}x{} = {:.3} G MACs, {} instructions, median of {} runs", mm.m, mm.k, mm.n, macs / 1e9, p.instrs.len(), runs);
    println!("{:<34} {:>10} {:>14}", "", "seconds", "G MAC/s");
    println!("{:<34} {:>10.3} {:>14.2}", "npu-sim (functional + timed)", s, macs / s / 1e9);
    println!("{:<34} {:>10.3} {:>14.2}", "native Rust i8 matmul (i-k-j)", n, macs / n / 1e9);
    println!("{:<34} {:>10.3} {:>14.2}", "naive Rust triple loop (1 run)", naive_t[0], macs / naive_t[0] / 1e9);
    println!("{:<34} {:>10} {:>14.2}", "simulator speed / native speed", "", n / s);
    println!();
    println!("timing sanity: double-buffered matmuls, simulated cycles vs analytic bound");
    println!("{:<22} {:>12} {:>12} {:>8} {:>8} {:>16}", "shape (m k n)", "cycles", "bound", "ratio", "util", "load under exec");
    for (m, k, n) in [(512, 256, 256), (256, 512, 512), (1024, 128, 512), (128, 64, 1024)] {
        let mm = Matmul { m, k, n, f32: false, requant: None };
        let p = asm::assemble(&mm.program(&cfg).unwrap()).unwrap();
        let inputs = vec![("a".to_string(), bytes(m * k, 3)), ("b".to_string(), bytes(k * n, 4))];
        let r = sim::run(&cfg, &p, &inputs, true).unwrap();
        let bound = mm.bound(&cfg);
        // Share of the load unit's busy cycles during which the exec unit was also busy (from the trace).
        let spans = |u: usize| r.executed.iter().filter(|e| e.unit == u).map(|e| (e.start, e.end)).collect::<Vec<_>>();
        let (loads, execs) = (spans(0), spans(1));
        let load_busy: u64 = loads.iter().map(|(a, b)| b - a).sum();
        let overlapped: u64 = loads.iter().map(|&(a, b)| execs.iter().map(|&(c, d)| b.min(d).saturating_sub(a.max(c))).sum::<u64>()).sum();
        println!(
            "{:<22} {:>12} {:>12} {:>8.3} {:>7.1}% {:>15.1}%",
            format!("{} {} {}", m, k, n),
            r.cycles,
            bound,
            r.cycles as f64 / bound as f64,
            100.0 * r.counters.macs as f64 / (r.cycles as f64 * cfg.peak_macs() as f64),
            100.0 * overlapped as f64 / load_busy.max(1) as f64
        );
    }
}
