//! Reference kernels written as assembly: a tiled, double-buffered matmul and
//! a direct convolution. Tests run them against plain Rust references, the
//! benchmark times them, and they show how a compiler should drive the NPU.

use crate::config::HwConfig;
use std::fmt::Write;

/// `C[M×N] = A[M×K] · B[K×N]`: int8 (C int32, or int8 through `requant`) or f32.
#[derive(Clone, Debug)]
pub struct Matmul {
    pub m: usize,
    pub k: usize,
    pub n: usize,
    pub f32: bool,
    /// (Q31 multiplier, shift, zero point): C becomes int8.
    pub requant: Option<(i64, i64, i64)>,
}

fn tiles(total: usize, t: usize) -> Vec<(usize, usize)> {
    (0..total.div_ceil(t)).map(|i| (i * t, t.min(total - i * t))).collect()
}

impl Matmul {
    /// The program. A is loaded once (kept resident, one column block of
    /// ≤`rows` lanes per k-tile); weight tiles stream through two scratchpad
    /// buffers and results through two accumulator regions, so DMA overlaps
    /// the array: s0 weight tile ready, s1 weight buffer free, s2 results
    /// ready, s3 accumulator region free, s4 A resident.
    pub fn program(&self, cfg: &HwConfig) -> Result<String, String> {
        let (m, k, n) = (self.m, self.k, self.n);
        let (ar, ac) = (cfg.array.rows as usize, cfg.array.cols as usize);
        let kt = tiles(k, ar);
        let nt = tiles(n, ac);
        let a_rows = m * kt.len();
        let wbuf = a_rows;
        let out_rows = if self.requant.is_some() { 2 * m } else { 0 };
        if a_rows + 2 * ar + out_rows > cfg.scratchpad.rows as usize || 2 * m > cfg.accumulator.rows as usize {
            return Err(format!("matmul {}×{}×{} does not fit the scratchpad/accumulator of {}", m, k, n, cfg.name));
        }
        let t = if self.f32 { "f32" } else { "i8" };
        let eb = if self.f32 { 4 } else { 1 };
        let (ct, ceb) = match (self.f32, self.requant.is_some()) {
            (true, _) => ("f32", 4),
            (false, true) => ("i8", 1),
            (false, false) => ("i32", 4),
        };
        let mut s = String::new();
        let _ = writeln!(s, "; matmul {}x{}x{} {} (generated)", m, k, n, t);
        let _ = writeln!(s, ".target \"{}\"", cfg.name);
        let _ = writeln!(s, ".arg %a in {} [{}, {}]", t, m, k);
        let _ = writeln!(s, ".arg %b in {} [{}, {}]", t, k, n);
        let _ = writeln!(s, ".arg %c out {} [{}, {}]", ct, m, n);
        let _ = writeln!(s, ".layer \"matmul\"");
        // A: one block of m rows per k-tile.
        for (i, (k0, kl)) in kt.iter().enumerate() {
            let _ = writeln!(s, "  dma.load.{} spad[{}], %a+{}, rows={}, cols={}, stride={}", t, i * m, k0 * eb, m, kl, k * eb);
        }
        let _ = writeln!(s, "  sem.signal load, s4");
        let _ = writeln!(s, "  sem.wait exec, s4");
        // One stage per (n-tile, k-tile), n-major: a weight tile and its products.
        let stages: Vec<(usize, usize, usize, usize)> =
            nt.iter().enumerate().flat_map(|(j, &(n0, nl))| (0..kt.len()).map(move |i| (j, n0, nl, i))).collect();
        for (idx, &(j, n0, nl, i)) in stages.iter().enumerate() {
            let (k0, kl) = kt[i];
            let buf = wbuf + (idx % 2) * ar;
            // Load: the weight tile, into a buffer exec has released.
            if idx >= 2 {
                let _ = writeln!(s, "  sem.wait load, s1");
            }
            let _ = writeln!(s, "  dma.load.{} spad[{}], %b+{}, rows={}, cols={}, stride={}", t, buf, (k0 * n + n0) * eb, kl, nl, n * eb);
            let _ = writeln!(s, "  sem.signal load, s0");
            // Exec: a new n-tile reuses an accumulator region once the store released it.
            let region = (j % 2) * m;
            if i == 0 && j >= 2 {
                let _ = writeln!(s, "  sem.wait exec, s3");
            }
            let _ = writeln!(s, "  sem.wait exec, s0");
            let _ = writeln!(s, "  mx.preload.{} spad[{}], k={}, n={}", t, buf, kl, nl);
            let _ = writeln!(s, "  sem.signal exec, s1");
            let acc = if i > 0 { ", accumulate" } else { "" };
            let _ = writeln!(s, "  mx.mul.{} acc[{}], spad[{}], rows={}, k={}, n={}{}", t, region, i * m, m, kl, nl, acc);
            if i + 1 == kt.len() {
                if let Some((mult, shift, zp)) = self.requant {
                    let o = a_rows + 2 * ar + (j % 2) * m;
                    let _ = writeln!(s, "  v.requant.i8 spad[{}], acc[{}], rows={}, mult={}, shift={}, zp={}", o, region, m, mult, shift, zp);
                }
                let _ = writeln!(s, "  sem.signal exec, s2");
                // Store: the finished n-tile, then release its accumulator region.
                let _ = writeln!(s, "  sem.wait store, s2");
                if self.requant.is_some() {
                    let o = a_rows + 2 * ar + (j % 2) * m;
                    let _ = writeln!(s, "  dma.store.i8 %c+{}, spad[{}], rows={}, cols={}, stride={}", n0 * ceb, o, m, nl, n * ceb);
                } else {
                    let _ = writeln!(s, "  dma.storeacc.{} %c+{}, acc[{}], rows={}, cols={}, stride={}", ct, n0 * ceb, region, m, nl, n * ceb);
                }
                let _ = writeln!(s, "  sem.signal store, s3");
            }
        }
        let _ = writeln!(s, "  halt");
        Ok(s)
    }

    /// Analytic lower bound in cycles: the busier of the array and DMA, plus
    /// the first tile's latency that nothing can hide.
    pub fn bound(&self, cfg: &HwConfig) -> u64 {
        let (ar, ac) = (cfg.array.rows as usize, cfg.array.cols as usize);
        let kt = tiles(self.k, ar);
        let nt = tiles(self.n, ac);
        let rate = if self.f32 { cfg.array.f32_rate as u64 } else { 1 };
        let fill = cfg.array.fill_latency as u64;
        let mut compute = 0u64;
        for _ in &nt {
            for &(_, kl) in &kt {
                // Double-buffered weights preload under the previous multiply and muls pipeline.
                compute += if cfg.array.weight_buffers >= 2 { self.m as u64 * rate } else { kl as u64 + self.m as u64 * rate + fill };
            }
        }
        if cfg.array.weight_buffers >= 2 {
            compute += kt.first().map_or(0, |&(_, kl)| kl as u64) + fill;
        }
        compute + self.first_load(cfg)
    }

    fn first_load(&self, cfg: &HwConfig) -> u64 {
        let eb = if self.f32 { 4u64 } else { 1 };
        let burst = cfg.dram.burst_bytes as u64;
        let row = |cols: u64| (cols * eb).div_ceil(burst) * burst;
        let kt = tiles(self.k, cfg.array.rows as usize);
        // A's rows follow one another when one tile spans all of K.
        let moved = |kl: u64| if cfg.dram.coalesce && kl as usize == self.k { (self.m as u64 * kl * eb).div_ceil(burst) * burst } else { self.m as u64 * row(kl) };
        let a: u64 = kt.iter().map(|&(_, kl)| cfg.dram.latency as u64 + moved(kl as u64).div_ceil(cfg.dram.bytes_per_cycle as u64)).sum();
        a
    }
}

/// Plain Rust matmul on raw little-endian bytes; returns C's bytes.
pub fn reference_matmul(mm: &Matmul, a: &[u8], b: &[u8]) -> Vec<u8> {
    let (m, k, n) = (mm.m, mm.k, mm.n);
    let mut out = vec![];
    if mm.f32 {
        let fa: Vec<f32> = a.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
        let fb: Vec<f32> = b.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
        for i in 0..m {
            for j in 0..n {
                let mut s = 0f32;
                for kk in 0..k {
                    s += fa[i * k + kk] * fb[kk * n + j];
                }
                out.extend_from_slice(&s.to_le_bytes());
            }
        }
        return out;
    }
    for i in 0..m {
        for j in 0..n {
            let mut s = 0i32;
            for kk in 0..k {
                s = s.wrapping_add((a[i * k + kk] as i8 as i32).wrapping_mul(b[kk * n + j] as i8 as i32));
            }
            match mm.requant {
                Some((mult, shift, zp)) => out.push(requantize(s, mult, shift, zp) as u8),
                None => out.extend_from_slice(&s.to_le_bytes()),
            }
        }
    }
    out
}

/// The ISA's requantization: clamp(round((x·mult) >> (31 + shift)) + zp), round half up.
pub fn requantize(x: i32, mult: i64, shift: i64, zp: i64) -> i8 {
    let total = 31 + shift as u32;
    let prod = x as i128 * mult as i128;
    let r = (prod + (1i128 << (total - 1))) >> total;
    (r + zp as i128).clamp(-128, 127) as i8
}

/// NHWC convolution, stride 1: X[H,W,C] * K[KH,KW,C,F] → Y[OH,OW,F] (int8 → int32), zero padding `pad`.
#[derive(Clone, Debug)]
pub struct Conv {
    pub h: usize,
    pub w: usize,
    pub c: usize,
    pub f: usize,
    pub kh: usize,
    pub kw: usize,
    pub pad: usize,
}

impl Conv {
    pub fn out_hw(&self) -> (usize, usize) {
        (self.h + 2 * self.pad - self.kh + 1, self.w + 2 * self.pad - self.kw + 1)
    }

    /// Direct convolution by accumulation over kernel taps: for each tap the
    /// shifted input pixels are DMA'd (zero rows stand for padding) and
    /// multiplied by that tap's C×F weights. Phases are separated by fences.
    pub fn program(&self, cfg: &HwConfig) -> Result<String, String> {
        let (oh, ow) = self.out_hw();
        let (ar, ac) = (cfg.array.rows as usize, cfg.array.cols as usize);
        if self.c > ar || self.f > ac {
            return Err(format!("conv with C={} F={} needs a single {}×{} tile", self.c, self.f, ar, ac));
        }
        let taps = self.kh * self.kw;
        let wrows = taps * self.c;
        let staged = taps * oh * ow;
        if wrows + staged > cfg.scratchpad.rows as usize || oh * ow > cfg.accumulator.rows as usize {
            return Err("conv does not fit the scratchpad".into());
        }
        let mut s = String::new();
        let _ = writeln!(s, ".target \"{}\"", cfg.name);
        let _ = writeln!(s, ".arg %x in i8 [{}, {}, {}]", self.h, self.w, self.c);
        let _ = writeln!(s, ".arg %k in i8 [{}, {}, {}, {}]", self.kh, self.kw, self.c, self.f);
        let _ = writeln!(s, ".arg %y out i32 [{}, {}, {}]", oh, ow, self.f);
        let _ = writeln!(s, ".layer \"conv\"");
        // Weights: tap t occupies rows t·C.. (C rows of F lanes).
        let _ = writeln!(s, "  dma.load.i8 spad[0], %k, rows={}, cols={}", wrows, self.f);
        let mut first = vec![true; oh];
        let mut muls = vec![];
        for t in 0..taps {
            let (dy, dx) = (t / self.kw, t % self.kw);
            for y in 0..oh {
                let iy = y as i64 + dy as i64 - self.pad as i64;
                if iy < 0 || iy >= self.h as i64 {
                    continue;
                }
                let base = wrows + (t * oh + y) * ow;
                // Output pixel x reads input column x + dx − pad: zero rows outside.
                let lo = (self.pad as i64 - dx as i64).max(0) as usize;
                let hi = ((self.w + self.pad) as i64 - dx as i64).min(ow as i64).max(lo as i64) as usize;
                if hi <= lo {
                    continue;
                }
                let ix0 = lo as i64 + dx as i64 - self.pad as i64;
                let _ = writeln!(
                    s,
                    "  dma.load.i8 spad[{}], %x+{}, rows={}, cols={}, stride={}, pad_top={}, pad_bottom={}",
                    base,
                    (iy as usize * self.w + ix0 as usize) * self.c,
                    hi - lo,
                    self.c,
                    self.c,
                    lo,
                    ow - hi
                );
                muls.push((t, y, base, std::mem::replace(&mut first[y], false)));
            }
        }
        let _ = writeln!(s, "  fence");
        let mut loaded = usize::MAX;
        for (t, y, base, fresh) in muls {
            if loaded != t {
                let _ = writeln!(s, "  mx.preload.i8 spad[{}], k={}, n={}", t * self.c, self.c, self.f);
                loaded = t;
            }
            let acc = if fresh { "" } else { ", accumulate" };
            let _ = writeln!(s, "  mx.mul.i8 acc[{}], spad[{}], rows={}, k={}, n={}{}", y * ow, base, ow, self.c, self.f, acc);
        }
        let _ = writeln!(s, "  fence");
        let _ = writeln!(s, "  dma.storeacc.i32 %y, acc[0], rows={}, cols={}", oh * ow, self.f);
        let _ = writeln!(s, "  halt");
        Ok(s)
    }
}

pub fn reference_conv(cv: &Conv, x: &[u8], k: &[u8]) -> Vec<u8> {
    let (oh, ow) = cv.out_hw();
    let mut out = vec![];
    for y in 0..oh {
        for xx in 0..ow {
            for f in 0..cv.f {
                let mut s = 0i32;
                for dy in 0..cv.kh {
                    for dx in 0..cv.kw {
                        let (iy, ix) = (y as i64 + dy as i64 - cv.pad as i64, xx as i64 + dx as i64 - cv.pad as i64);
                        if iy < 0 || ix < 0 || iy >= cv.h as i64 || ix >= cv.w as i64 {
                            continue;
                        }
                        for c in 0..cv.c {
                            let xv = x[(iy as usize * cv.w + ix as usize) * cv.c + c] as i8 as i32;
                            let kv = k[((dy * cv.kw + dx) * cv.c + c) * cv.f + f] as i8 as i32;
                            s = s.wrapping_add(xv * kv);
                        }
                    }
                }
                out.extend_from_slice(&s.to_le_bytes());
            }
        }
    }
    out
}
