//! Random matmul and conv shapes, through assembly from the kernel generators,
//! on the simulator, against plain Rust references: bit-exact for int8 (also
//! through requantization), within rounding for f32.

use npu_sim::kernels::{reference_conv, reference_matmul, Conv, Matmul};
use npu_sim::{asm, sim, HwConfig};

mod common;
use common::Rng;

fn run(cfg: &HwConfig, text: &str, inputs: Vec<(String, Vec<u8>)>) -> Vec<u8> {
    let p = asm::assemble(text).unwrap_or_else(|e| panic!("{}\n{}", e, text));
    let r = sim::run(cfg, &p, &inputs, false).unwrap_or_else(|e| panic!("{}\n{}", e, text));
    r.outputs.into_iter().next().unwrap().1
}

#[test]
fn random_int8_matmuls_are_bit_exact() {
    let cfg = HwConfig::npu16();
    let mut r = Rng(0x1234_5678_9ABC_DEF1);
    for case in 0..60 {
        let (m, k, n) = (1 + r.below(70), 1 + r.below(70), 1 + r.below(70));
        let requant = if case % 3 == 0 { Some(((1i64 << 30) + r.below(1 << 29) as i64, r.below(8) as i64, r.below(20) as i64 - 10)) } else { None };
        let mm = Matmul { m, k, n, f32: false, requant };
        let (a, b) = (r.bytes_i8(m * k), r.bytes_i8(k * n));
        let got = run(&cfg, &mm.program(&cfg).unwrap(), vec![("a".into(), a.clone()), ("b".into(), b.clone())]);
        assert_eq!(got, reference_matmul(&mm, &a, &b), "case {}: {:?}", case, mm);
    }
}

#[test]
fn random_f32_matmuls_match_within_rounding() {
    let cfg = HwConfig::npu16();
    let mut r = Rng(0xF00D);
    for case in 0..20 {
        let (m, k, n) = (1 + r.below(40), 1 + r.below(40), 1 + r.below(40));
        let mm = Matmul { m, k, n, f32: true, requant: None };
        let (a, b) = (r.bytes_f32(m * k), r.bytes_f32(k * n));
        let got = run(&cfg, &mm.program(&cfg).unwrap(), vec![("a".into(), a.clone()), ("b".into(), b.clone())]);
        let want = reference_matmul(&mm, &a, &b);
        for (i, (x, y)) in got.chunks(4).zip(want.chunks(4)).enumerate() {
            let (x, y) = (f32::from_le_bytes(x.try_into().unwrap()), f32::from_le_bytes(y.try_into().unwrap()));
            // Sums of k products in [-1, 1): tiles change the summation order only.
            assert!((x - y).abs() <= 1e-5 * k as f32, "case {} {:?} element {}: {} vs {}", case, mm, i, x, y);
        }
    }
}

#[test]
fn random_convolutions_are_bit_exact() {
    let cfg = HwConfig::npu16();
    let mut r = Rng(0xC0FFEE);
    for case in 0..40 {
        let kh = 1 + r.below(3);
        let kw = 1 + r.below(3);
        let cv = Conv { h: kh + r.below(8), w: kw + r.below(8), c: 1 + r.below(16), f: 1 + r.below(16), kh, kw, pad: r.below(kh.min(kw)) };
        let (x, k) = (r.bytes_i8(cv.h * cv.w * cv.c), r.bytes_i8(kh * kw * cv.c * cv.f));
        let got = run(&cfg, &cv.program(&cfg).unwrap(), vec![("x".into(), x.clone()), ("k".into(), k.clone())]);
        assert_eq!(got, reference_conv(&cv, &x, &k), "case {}: {:?}", case, cv);
    }
}

#[test]
fn double_buffered_matmul_is_within_ten_percent_of_the_bound_and_overlaps() {
    let cfg = HwConfig::npu16();
    let mm = Matmul { m: 512, k: 256, n: 256, f32: false, requant: None };
    let p = asm::assemble(&mm.program(&cfg).unwrap()).unwrap();
    let mut r = Rng(5);
    let inputs: Vec<(String, Vec<u8>)> = vec![("a".into(), r.bytes_i8(512 * 256)), ("b".into(), r.bytes_i8(256 * 256))];
    let res = sim::run(&cfg, &p, &inputs, true).unwrap();
    let bound = mm.bound(&cfg);
    let ratio = res.cycles as f64 / bound as f64;
    assert!((1.0..=1.10).contains(&ratio), "{} cycles vs bound {} ({:.3})", res.cycles, bound, ratio);
    // The trace shows DMA running while the array computes.
    let busy = |u: usize| res.executed.iter().filter(|e| e.unit == u && e.end - e.start > 1).map(|e| (e.start, e.end)).collect::<Vec<_>>();
    let (loads, execs) = (busy(0), busy(1));
    let overlapping = loads.iter().filter(|l| execs.iter().any(|e| l.0 < e.1 && e.0 < l.1)).count();
    assert!(overlapping * 2 > loads.len(), "only {} of {} loads overlap compute", overlapping, loads.len());
}
