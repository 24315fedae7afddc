//! Convolutions and matrix products on the array (a matmul is a 1×1 conv
//! over an M×1 image). Input pixels are scratchpad rows (16 channels in the
//! lanes); for stride s each input row is stored as s phases (every s-th
//! pixel together), so the pixels under one tap for a whole output row are
//! consecutive rows and one `mx.mul` with `loop` covers a block of output
//! rows. Horizontal padding is written as zero rows by the DMA; vertical
//! padding is never loaded: a tap simply skips the output rows it would
//! read padding for (the first tap of each row overwrites, the rest
//! accumulate). Weights are laid out in tile order in the constant image;
//! a batched product (`npu.batch_matmul`) reads each batch's B tile by tile
//! from its row-major matrix in DRAM instead (transposed tiles for a Bᵀ).

use super::pipeline::{self, Release, Step};
use super::{const_values, shape, Dram, Layer};
use ir::{Body, OpId};
use npu::asm::{Inst, Operand};
use npu::hw::HwDesc;

/// The shape of the problem.
#[derive(Clone, Debug)]
pub struct Geom {
    pub h: i64,
    pub w: i64,
    pub c: i64,
    pub kh: i64,
    pub kw: i64,
    pub f: i64,
    pub sh: i64,
    pub sw: i64,
    pub pt: i64,
    pub pl: i64,
    pub oh: i64,
    pub ow: i64,
    pub depthwise: bool,
    /// int8 data (i32 accumulation, requantized to int8) instead of f32.
    pub int8: bool,
    /// Lanes per block: the array's side ([`lanes_of`]).
    pub l: i64,
    /// Independent products one after another (`npu.batch_matmul`), 1 otherwise.
    pub batch: i64,
    /// B is given transposed (`transpose_b`): each input block's tile is n rows of k lanes (`mx.preload ... transpose`).
    pub bt: bool,
}

impl Geom {
    /// Few input channels (the first layer's 3): several horizontal taps share
    /// one memory row, loaded by the DMA as one contiguous run of the NHWC row
    /// (an im2col along the width for free), so the array's lanes are not idle.
    pub fn packed(&self) -> bool {
        !self.depthwise && self.c * 2 <= self.l && self.kw > 1
    }
    /// Horizontal taps per memory row (1 unless packed).
    pub fn taps(&self) -> i64 {
        if self.packed() { (self.l / self.c).min(self.kw) } else { 1 }
    }
    /// Tap groups along the width: `kw` unless packed.
    pub fn groups(&self) -> i64 {
        (self.kw + self.taps() - 1) / self.taps()
    }
    fn group_taps(&self, j: i64) -> i64 {
        (self.kw - j * self.taps()).min(self.taps())
    }
    /// Rows of one stored input row: all phases, or (packed) one row per output column and tap group.
    fn row_rows(&self) -> i64 {
        if self.packed() { self.groups() * self.ow } else { self.row_layout().0 }
    }
}

/// Lanes per block on `hw`: the side of its array (the smaller of rows and
/// columns, so a block fits both the array's inputs and its outputs).
pub fn lanes_of(hw: &HwDesc) -> i64 {
    hw.array_rows.min(hw.array_cols) as i64
}

impl Geom {
    fn blocks(&self, n: i64) -> i64 {
        (n + self.l - 1) / self.l
    }
    fn bsize(&self, n: i64, b: i64) -> i64 {
        (n - b * self.l).min(self.l)
    }
}

impl Geom {
    /// Positions of a stored input row (all phases) and where each phase starts.
    fn row_layout(&self) -> (i64, Vec<i64>) {
        let wn = (self.ow - 1) * self.sw + self.kw;
        let mut offs = vec![];
        let mut total = 0;
        for ph in 0..self.sw {
            offs.push(total);
            total += if ph < wn { (wn - 1 - ph) / self.sw + 1 } else { 0 };
        }
        (total, offs)
    }
    fn in_blocks_per_tile(&self) -> i64 {
        if self.depthwise { 1 } else { self.blocks(self.c) }
    }
    /// Weight rows of one output-channel block.
    fn w_rows(&self, co: i64) -> i64 {
        if self.bt {
            self.blocks(self.c) * self.bsize(self.f, co)
        } else if self.depthwise {
            self.kh * self.kw * self.bsize(self.f, co)
        } else {
            self.kh * self.kw * self.c
        }
    }
    fn input_rows(&self, r: i64) -> i64 {
        (r - 1) * self.sh + self.kh
    }
    /// Bytes per element in DRAM.
    fn eb(&self) -> i64 {
        if self.int8 { 1 } else { 4 }
    }
    /// Accumulator rows held for the whole layer: bias rows, and for int8 the multiplier and shift rows.
    fn acc_fixed(&self) -> i64 {
        self.blocks(self.f) * if self.int8 { 3 } else { 1 }
    }
}

/// A tiling: output rows per block, whether all weights stay resident, and
/// whether a depthwise conv runs on the vector unit (`v.mac`, its weights as
/// accumulator rows: one per tap and channel block) instead of the array.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub rows: i64,
    pub stationary: bool,
    pub vector: bool,
    pub cycles: u64,
    pub dram_bytes: u64,
}

/// Accumulator rows of a depthwise conv's weights on the vector unit: one per tap and channel block.
fn vector_weight_rows(g: &Geom) -> i64 {
    g.blocks(g.f) * g.kh * g.kw
}

/// Scratchpad and accumulator rows a plan needs: (spad, acc).
fn footprint(g: &Geom, rows: i64, stationary: bool, vector: bool) -> (i64, i64) {
    let input = g.in_blocks_per_tile() * g.input_rows(rows) * g.row_rows();
    let nco = g.blocks(g.f);
    let weights = if vector {
        0
    } else if stationary {
        (0..nco).map(|co| g.w_rows(co)).sum::<i64>()
    } else {
        2 * (0..nco).map(|co| g.w_rows(co)).max().unwrap_or(0)
    };
    // int8 results are requantized into the scratchpad before they are stored.
    let out = if g.int8 { 2 * rows * g.ow } else { 0 };
    let acc_weights = if vector { vector_weight_rows(g) } else { 0 };
    (2 * input + weights + out, g.acc_fixed() + acc_weights + 2 * rows * g.ow)
}

/// Modelled cycles and DRAM bytes of a plan (the cost model `plan` minimizes).
fn cost(g: &Geom, hw: &HwDesc, rows: i64, stationary: bool, vector: bool) -> (u64, u64) {
    let rate = if g.int8 { 1 } else { hw.f32_rate as i64 };
    let eb = g.eb();
    let nrb = (g.oh + rows - 1) / rows;
    let nco = g.blocks(g.f);
    let ncb = g.in_blocks_per_tile();
    let row_len = g.row_rows();
    // An input row's pixels follow one another in DRAM when the block is all the channels
    // and the stride is 1: their rows then move as one run of bursts where the target coalesces.
    let in_contiguous = hw.dram_coalesce != 0 && !g.packed() && g.c <= g.l && g.sw == 1;
    let row_bytes = |cols: i64| if in_contiguous { (cols * eb) as u64 } else { ((cols * eb + hw.dram_burst_bytes as i64 - 1) / hw.dram_burst_bytes as i64 * hw.dram_burst_bytes as i64) as u64 };
    // Packed weights are one run per block; a batched product's B is read row by row from its matrix.
    let matrix = g.batch > 1 || g.bt;
    let w_dma = |nrows: i64, cols: i64| if matrix { hw.dma_cycles(nrows as u64, (cols * eb) as u64) } else { hw.dma_cycles_contiguous(nrows as u64, (cols * eb) as u64) };
    let mut compute = 0u64;
    let mut load = 0u64;
    let mut bytes = 0u64;
    let steps = nrb * nco;
    let combos = g.kh * g.groups() * ncb;
    // Per step: each combo preloads k rows and multiplies rows·ow rows; with
    // double-buffered weights only the step's first preload and its last fill
    // (before the epilogue reads the sums) are not hidden under a multiply.
    let fill = hw.fill_latency as i64;
    let m = rows * g.ow * rate;
    if vector {
        // One `v.mac` a tap (two where a tap overwrites some rows and adds to others), a row a cycle in either type.
        compute += (steps * combos * (rows * g.ow + hw.vector_latency as i64)) as u64;
    } else if hw.weight_buffers >= 2 {
        // A combo still waits for its preload (one port, k rows) and for the buffer
        // two preloads back to drain: at least max(m, k, (m + k + fill) / 2).
        let per_combo = m.max(g.l).max((m + g.l + fill + 1) / 2);
        compute += (steps * (g.l + fill) + steps * combos * per_combo) as u64;
    } else {
        compute += (steps * combos * (g.l + fill + m)) as u64;
    }
    compute += (steps * 2 * (rows * g.ow + hw.vector_latency as i64)) as u64;
    let in_fills = if g.depthwise { steps } else { nrb };
    let in_dmas = if g.packed() { g.input_rows(rows) * g.groups() * 5 } else if g.sw == 1 && row_len == g.w { ncb } else { ncb * g.input_rows(rows) * g.sw };
    let lanes = if g.packed() { g.taps() * g.c } else { g.l.min(g.c) };
    load += in_fills as u64 * (in_dmas as u64 * hw.dram_latency + (g.input_rows(rows) * row_len) as u64 * ncb as u64 * row_bytes(lanes) / hw.dram_bytes_per_cycle);
    bytes += (in_fills * g.input_rows(rows).min(g.h) * g.w * g.l.min(g.c) * ncb * eb) as u64;
    if vector {
        // Loaded once, a row of `l` 32-bit lanes per tap and block.
        load += hw.dma_cycles_contiguous(vector_weight_rows(g) as u64, (g.l * 4) as u64);
        bytes += (vector_weight_rows(g) * g.l * 4) as u64;
    } else {
        let all_w: i64 = (0..nco).map(|co| g.w_rows(co) * g.bsize(g.f, co)).sum();
        let w_fetches = if stationary { 1 } else { nrb };
        load += w_fetches as u64 * (0..nco).map(|co| w_dma(g.w_rows(co), g.bsize(g.f, co))).sum::<u64>();
        bytes += (w_fetches * all_w * eb) as u64;
    }
    // Output rows follow one another in DRAM when one block holds every channel.
    let (out_rows, out_bytes) = ((rows * g.ow) as u64, (g.l.min(g.f) * eb) as u64);
    let store = steps as u64 * if g.f <= g.l { hw.dma_cycles_contiguous(out_rows, out_bytes) } else { hw.dma_cycles(out_rows, out_bytes) };
    bytes += (g.oh * g.ow * g.f * eb) as u64;
    // Per batch; a batched product runs them one after another.
    ((compute.max(load).max(store) + hw.dram_latency * 2) * g.batch as u64, bytes * g.batch as u64)
}

/// The tiling with the fewest modelled cycles (then the fewest DRAM bytes) that fits.
pub fn plan(g: &Geom, hw: &HwDesc) -> Result<Plan, String> {
    let mut best: Option<Plan> = None;
    // Each batch has its own weights: they stream, one tile per step.
    let mut modes: Vec<(bool, bool)> = if g.batch > 1 { vec![(false, false)] } else { vec![(true, false), (false, false)] };
    // A depthwise conv on the vector unit, where the target has `v.mac`.
    if g.depthwise && g.batch == 1 && hw.vector_mac != 0 {
        modes.push((true, true));
    }
    for &(stationary, vector) in &modes {
        for rows in 1..=g.oh {
            let (spad, acc) = footprint(g, rows, stationary, vector);
            if spad > hw.spad_rows as i64 || acc > hw.acc_rows as i64 {
                continue;
            }
            let (cycles, dram_bytes) = cost(g, hw, rows, stationary, vector);
            let p = Plan { rows, stationary, vector, cycles, dram_bytes };
            if best.as_ref().is_none_or(|b| (p.cycles, p.dram_bytes) < (b.cycles, b.dram_bytes)) {
                best = Some(p);
            }
        }
    }
    best.ok_or_else(|| {
        let (spad, acc) = footprint(g, 1, false, false);
        if spad > hw.spad_rows as i64 {
            format!("the smallest tile needs {} scratchpad rows; the scratchpad has {}", spad, hw.spad_rows)
        } else {
            format!("the smallest tile needs {} accumulator rows; the accumulator has {}", acc, hw.acc_rows)
        }
    })
}

/// The deepest K (a multiple of the array's side) an f32 [m, K] × [K, n]
/// product can be planned with on `hw`, 0 if none: a deeper one (a classifier's
/// 9,216- or 25,088-wide FC) is cut into partial products (`to_npu`).
pub fn max_product_depth(hw: &HwDesc, m: i64, n: i64) -> i64 {
    let l = lanes_of(hw);
    let fits = |blocks: i64| product_fits(hw, m, blocks * l, n);
    if !fits(1) {
        return 0;
    }
    // The footprint grows with K: the largest block count that fits.
    let (mut lo, mut hi) = (1i64, 2i64);
    while fits(hi) && hi < 1 << 20 {
        lo = hi;
        hi *= 2;
    }
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo * l
}

/// Whether an f32 [m, k] × [k, n] product can be planned on `hw` as it is.
pub fn product_fits(hw: &HwDesc, m: i64, k: i64, n: i64) -> bool {
    let l = lanes_of(hw);
    plan(&Geom { h: m, w: 1, c: k, kh: 1, kw: 1, f: n, sh: 1, sw: 1, pt: 0, pl: 0, oh: m, ow: 1, depthwise: false, int8: false, l, batch: 1, bt: false }, hw).is_ok()
}

/// Whether `op` (a conv or product) plans as well in `work`'s share of the
/// scratchpad as in all of it: no more cycles (2% slack) and no more DRAM
/// bytes (a layer that must fetch its weights again for want of rows would
/// cost more DRAM than keeping a tensor on chip saves).
pub fn plans_as_well_in(body: &Body, op: OpId, hw: &HwDesc, work: &HwDesc) -> bool {
    let g = geometry(body, op, lanes_of(hw));
    match (plan(&g, hw), plan(&g, work)) {
        (Ok(full), Ok(part)) => part.dram_bytes <= full.dram_bytes && part.cycles as f64 <= full.cycles as f64 * 1.02,
        (Err(_), Ok(_)) => true,
        _ => false,
    }
}

/// Weights in tile order: per output block, per (kh, input block, kw), a k×n tile.
fn pack_weights<T: Copy + Default>(g: &Geom, w: &[T]) -> Vec<T> {
    // w is HWIO: [kh][kw][c/group][f].
    let cin = if g.depthwise { 1 } else { g.c };
    let at = |kh: i64, kw: i64, ci: i64, co: i64| w[(((kh * g.kw + kw) * cin + ci) * g.f + co) as usize];
    let mut out = vec![];
    if g.packed() {
        // Per output block, per (kh, tap group): rows (tap, channel) of the group.
        for co in 0..g.blocks(g.f) {
            let n = g.bsize(g.f, co);
            for kh in 0..g.kh {
                for j in 0..g.groups() {
                    for t in 0..g.group_taps(j) {
                        for ci in 0..g.c {
                            for jn in 0..n {
                                out.push(at(kh, j * g.taps() + t, ci, co * g.l + jn));
                            }
                        }
                    }
                }
            }
        }
        return out;
    }
    for co in 0..g.blocks(g.f) {
        let n = g.bsize(g.f, co);
        for kh in 0..g.kh {
            let cbs: Vec<i64> = if g.depthwise { vec![co] } else { (0..g.blocks(g.c)).collect() };
            for cb in cbs {
                let k = if g.depthwise { n } else { g.bsize(g.c, cb) };
                for kw in 0..g.kw {
                    for i in 0..k {
                        for j in 0..n {
                            let v = if g.depthwise {
                                if i == j { at(kh, kw, 0, co * g.l + j) } else { T::default() }
                            } else {
                                at(kh, kw, cb * g.l + i, co * g.l + j)
                            };
                            out.push(v);
                        }
                    }
                }
            }
        }
    }
    out
}

/// A depthwise conv's weights for `v.mac`: per output block, per tap (kh, kw), one row of `l` lanes.
fn pack_vector_weights<T: Copy + Default>(g: &Geom, w: &[T]) -> Vec<T> {
    // w is HWIO with one input channel per group: [kh][kw][1][f].
    let mut out = vec![];
    for co in 0..g.blocks(g.f) {
        let n = g.bsize(g.f, co);
        for t in 0..g.kh * g.kw {
            out.extend((0..g.l).map(|j| if j < n { w[(t * g.f + co * g.l + j) as usize] } else { T::default() }));
        }
    }
    out
}

/// The fused activation of `op` on accumulator rows `dst..dst+rows` (f32).
pub fn act_insts(out: &mut Vec<Inst>, body: &Body, op: OpId, dst: i64, rows: i64) {
    let act = npu::tensor_ops::str_attr(body, op, "act").unwrap_or("none");
    let u = |m: &'static str| Inst::new(m, Some("f32")).i("dst", dst).i("src", dst).i("rows", rows);
    match act {
        "relu" => out.push(u("v.relu")),
        "relu6" => out.push(u("v.relu6")),
        "sigmoid" => out.push(u("v.sigmoid")),
        "tanh" => out.push(u("v.tanh")),
        "erf" => out.push(u("v.erf")),
        "clip" => {
            let lo = npu::tensor_ops::float_attr(body, op, "min").unwrap_or(f64::MIN) as f32;
            let hi = npu::tensor_ops::float_attr(body, op, "max").unwrap_or(f64::MAX) as f32;
            out.push(u("v.clamp").with("min", Operand::Float(lo)).with("max", Operand::Float(hi)));
        }
        _ => {}
    }
}

/// The geometry of `npu.conv`, `npu.matmul` or `npu.batch_matmul` (per batch).
fn geometry(body: &Body, op: OpId, l: i64) -> Geom {
    let o = body.op(op);
    let int8 = body.value_type(o.operand(0)).element_type().is_some_and(|e| e.to_string() == "i8");
    if body.name(op).as_str() == "npu.matmul" {
        let a = shape(body, o.operand(0));
        let b = shape(body, o.operand(1));
        return Geom { h: a[0], w: 1, c: a[1], kh: 1, kw: 1, f: b[1], sh: 1, sw: 1, pt: 0, pl: 0, oh: a[0], ow: 1, depthwise: false, int8, l, batch: 1, bt: false };
    }
    if body.name(op).as_str() == "npu.batch_matmul" {
        let (a, y) = (shape(body, o.operand(0)), shape(body, o.result(0)));
        let bt = npu::tensor_ops::transpose_b(body, op);
        return Geom { h: a[1], w: 1, c: a[2], kh: 1, kw: 1, f: y[2], sh: 1, sw: 1, pt: 0, pl: 0, oh: a[1], ow: 1, depthwise: false, int8: false, l, batch: a[0], bt };
    }
    let x = shape(body, o.operand(0));
    let w = shape(body, o.operand(1));
    let y = shape(body, o.result(0));
    let s = npu::tensor_ops::ints(body, op, "strides").unwrap_or(vec![1, 1]);
    let p = npu::tensor_ops::ints(body, op, "pads").unwrap_or(vec![0; 4]);
    let g = o.attr("group").and_then(|a| a.as_int()).unwrap_or(1) as i64;
    if w[0] == 1 && w[1] == 1 && s == [1, 1] && p.iter().all(|v| *v == 0) {
        // A pointwise conv reads each position alone: the image as one column of
        // positions (the same NHWC bytes), so a tile is any number of them, not whole rows.
        return Geom { h: x[1] * x[2], w: 1, c: x[3], kh: 1, kw: 1, f: w[3], sh: 1, sw: 1, pt: 0, pl: 0, oh: y[1] * y[2], ow: 1, depthwise: g > 1, int8, l, batch: 1, bt: false };
    }
    Geom { h: x[1], w: x[2], c: x[3], kh: w[0], kw: w[1], f: w[3], sh: s[0], sw: s[1], pt: p[0], pl: p[1], oh: y[1], ow: y[2], depthwise: g > 1, int8, l, batch: 1, bt: false }
}

pub fn emit(l: &mut Layer, body: &Body, op: OpId, ins: &[Dram], out: &Dram) -> Result<(), String> {
    let g = geometry(body, op, lanes_of(l.hw));
    if g.depthwise && g.c != g.f {
        return Err("grouped convolution other than depthwise".into());
    }
    let hw = l.hw;
    let o = body.op(op);
    let (dt, adt, eb) = if g.int8 { ("i8", "i32", 1) } else { ("f32", "f32", 4) };
    let p = plan(&g, hw)?;
    let key = (o.operand(1), format!("{:?}{}", g, if p.vector { " vector" } else { "" }));
    // Weights: packed in tile order into the constant image, or (a batched
    // product) B's row-major matrices where they are, read tile by tile.
    let matrix = body.name(op).as_str() == "npu.batch_matmul";
    let wdram = if matrix {
        ins.get(1).cloned().ok_or("B is not in DRAM")?
    } else if let Some(d) = l.consts.packed.get(&key).cloned() {
        d
    } else {
        let d = if g.int8 {
            // int8 weights straight from their bytes (ResNet-18's 11M would take 0.1 s through f64).
            let wv = onnx::infer::const_i8s(body, o.operand(1)).ok_or("int8 weights are not a constant")?;
            if p.vector {
                // Accumulator lanes: i32.
                l.consts.push_i32(&pack_vector_weights(&g, &wv).iter().map(|v| *v as i32).collect::<Vec<_>>())
            } else {
                l.consts.push_i8(&pack_weights(&g, &wv))
            }
        } else if p.vector {
            let wv = match onnx::infer::const_f32s(body, o.operand(1)) {
                Some(w) => w,
                None => const_values(body, o.operand(1))?.into_iter().map(|v| v as f32).collect(),
            };
            l.consts.push(&pack_vector_weights(&g, &wv))
        } else {
            // f32 weights straight from their bytes too (VGG-19's 140M through f64 took seconds).
            let wv = match onnx::infer::const_f32s(body, o.operand(1)) {
                Some(w) => w,
                None => const_values(body, o.operand(1))?.into_iter().map(|v| v as f32).collect(),
            };
            l.consts.push(&pack_weights(&g, &wv))
        };
        l.consts.packed.insert(key, d.clone());
        d
    };
    let nco = g.blocks(g.f);
    // One accumulator row of 16 lanes per output block, from per-channel values.
    let rows_of = |v: &[f64]| -> Vec<f64> {
        let mut r = vec![0.0; (nco * g.l) as usize];
        r[..v.len()].copy_from_slice(v);
        r
    };
    let push_rows = |consts: &mut super::ConstImage, v: &[f64]| if g.int8 { consts.push_i32(&rows_of(v).iter().map(|x| *x as i32).collect::<Vec<_>>()) } else { consts.push(&rows_of(v).iter().map(|x| *x as f32).collect::<Vec<_>>()) };
    let bias = match o.operands().get(2) {
        Some(b) => Some(push_rows(l.consts, &const_values(body, *b)?)),
        None => None,
    };
    // An integer product (ConvInteger, MatMulInteger) keeps its i32 accumulators.
    let wide = body.value_type(o.result(0)).element_type().is_some_and(|e| e.to_string() == "i32");
    // int8: per-channel requantization multipliers and shifts, as accumulator rows.
    let requant = if g.int8 && !wide {
        let m: Vec<f64> = npu::tensor_ops::ints(body, op, "mult").ok_or("int8 without mult")?.iter().map(|v| *v as f64).collect();
        let s: Vec<f64> = npu::tensor_ops::ints(body, op, "shift").ok_or("int8 without shift")?.iter().map(|v| *v as f64).collect();
        Some((push_rows(l.consts, &m), push_rows(l.consts, &s)))
    } else {
        None
    };
    // int8 padding with a value (the input's zero point): padding rows are
    // loaded as rows of it and every tap runs, where zero padding skips them.
    let pad_value = if g.int8 { o.attr("pad_value").and_then(|a| a.as_int()).unwrap_or(0) as i64 } else { 0 };
    let fill = |d: Inst| if pad_value != 0 { d.i("pad_value", pad_value) } else { d };
    let out_zp = npu::tensor_ops::int8_zp(body, op);
    let (_, phase_off) = g.row_layout();
    let row_len = g.row_rows();
    let ncb_tile = g.in_blocks_per_tile();
    let in_slot = ncb_tile * g.input_rows(p.rows) * row_len;
    let w_offs: Vec<i64> = (0..nco).scan(0, |s, co| {
        let o = *s;
        *s += g.w_rows(co);
        Some(o)
    }).collect();
    let w_slot = (0..nco).map(|co| g.w_rows(co)).max().unwrap_or(0);
    // Scratchpad: two input slots, then weights (all, or two slots). Accumulator: bias rows, two output slots.
    let spad_w = 2 * in_slot;
    // Accumulator: bias (and int8 requantization) rows, the vector unit's weights, two output slots.
    let acc_w = g.acc_fixed();
    let acc_out = acc_w + if p.vector { vector_weight_rows(&g) } else { 0 };
    let out_slot = p.rows * g.ow;
    let w_region = if p.vector {
        0
    } else if p.stationary {
        (0..nco).map(|co| g.w_rows(co)).sum::<i64>()
    } else {
        2 * w_slot
    };
    let spad_out = spad_w + w_region;
    // The layer's buffers.
    {
        use npu::asm::Buffer;
        let b = &mut l.buffers;
        for k in 0..2 {
            b.push(Buffer::spad(&format!("input.{}", k), k * in_slot, in_slot, dt));
        }
        if p.vector {
            b.push(Buffer::acc("weights", acc_w, vector_weight_rows(&g), adt));
        } else if p.stationary {
            b.push(Buffer::spad("weights", spad_w, w_region, dt));
        } else {
            for k in 0..2 {
                b.push(Buffer::spad(&format!("weights.{}", k), spad_w + k * w_slot, w_slot, dt));
            }
        }
        if g.int8 {
            for k in 0..2 {
                b.push(Buffer::spad(&format!("output.{}", k), spad_out + k * out_slot, out_slot, "i8"));
            }
            b.push(Buffer::acc("requant", nco, 2 * nco, "i32"));
        }
        if bias.is_some() {
            b.push(Buffer::acc("bias", 0, nco, adt));
        }
        for k in 0..2 {
            b.push(Buffer::acc(&format!("acc.{}", k), acc_out + k * out_slot, out_slot, adt));
        }
    }
    let mut prologue = vec![];
    if let Some(b) = &bias {
        prologue.push(Inst::new("dma.loadacc", Some(adt)).i("dst", 0).with("src", b.at(0)).i("rows", nco).i("cols", g.l));
    }
    if let Some((m, s)) = &requant {
        prologue.push(Inst::new("dma.loadacc", Some("i32")).i("dst", nco).with("src", m.at(0)).i("rows", nco).i("cols", g.l));
        prologue.push(Inst::new("dma.loadacc", Some("i32")).i("dst", 2 * nco).with("src", s.at(0)).i("rows", nco).i("cols", g.l));
    }
    // The DMAs filling scratchpad rows `dst..` with batch z's tile of output block co.
    let w_dma = |z: i64, co: i64, dst: i64| -> Vec<Inst> {
        let n = g.bsize(g.f, co);
        let load = |dst: i64, at: i64, rows: i64, cols: i64, stride: i64| Inst::new("dma.load", Some(dt)).i("dst", dst).with("src", wdram.at(at * eb)).i("rows", rows).i("cols", cols).i("stride", stride * eb);
        if !matrix {
            return vec![Inst::new("dma.load", Some(dt)).i("dst", dst).with("src", wdram.at(weight_offset(&g, co) * eb)).i("rows", g.w_rows(co)).i("cols", n)];
        }
        let b0 = z * g.c * g.f;
        if !g.bt {
            // B[z] is [K, N]: the block's n columns of every row.
            return vec![load(dst, b0 + co * g.l, g.c, n, g.f)];
        }
        // B[z] is given as [N, K]: per input block, the block's n rows, k lanes each.
        (0..g.blocks(g.c)).map(|cb| load(dst + cb * n, b0 + co * g.l * g.c + cb * g.l, n, g.bsize(g.c, cb), g.c)).collect()
    };
    if p.vector {
        prologue.push(Inst::new("dma.loadacc", Some(adt)).i("dst", acc_w).with("src", wdram.at(0)).i("rows", vector_weight_rows(&g)).i("cols", g.l));
    } else if p.stationary {
        for co in 0..nco {
            prologue.extend(w_dma(0, co, spad_w + w_offs[co as usize]));
        }
    }
    let nrb = (g.oh + p.rows - 1) / p.rows;
    // Step order: dense convs reuse an input tile across output blocks; depthwise ones need one block each.
    let mut order = vec![];
    for z in 0..g.batch {
        if g.depthwise {
            for co in 0..nco {
                for rb in 0..nrb {
                    order.push((z, rb, co));
                }
            }
        } else {
            for rb in 0..nrb {
                for co in 0..nco {
                    order.push((z, rb, co));
                }
            }
        }
    }
    let (mut in_fill, mut w_fill) = (0i64, 0i64);
    let mut steps = vec![];
    let mut cur_in = (-1, -1, -1);
    for (t, &(z, rb, co)) in order.iter().enumerate() {
        let oh0 = rb * p.rows;
        let oh1 = ((rb + 1) * p.rows).min(g.oh);
        let ih_lo = oh0 * g.sh - g.pt;
        let nr = g.input_rows(oh1 - oh0);
        let mut step = Step::default();
        let cbs: Vec<i64> = if g.depthwise { vec![co] } else { (0..g.blocks(g.c)).collect() };
        let key = if g.depthwise { (z, rb, co) } else { (z, rb, 0) };
        if key != cur_in {
            cur_in = key;
            // Batch z's input.
            let x = &Dram { arg: ins[0].arg.clone(), offset: ins[0].offset + z * g.h * g.w * g.c * eb };
            let base = (in_fill % 2) * in_slot;
            in_fill += 1;
            let mut dmas = vec![];
            let v_lo = ih_lo.max(0);
            let v_hi = (ih_lo + nr - 1).min(g.h - 1);
            for (cbi, &cb) in cbs.iter().enumerate() {
                let k = g.bsize(g.c, cb);
                let tile = base + cbi as i64 * g.input_rows(p.rows) * row_len;
                if pad_value != 0 {
                    // The tile's rows above and below the image: rows of the padding value.
                    let (per_row, cols) = if g.packed() { (g.groups() * g.ow, g.taps() * g.c) } else { (row_len, k) };
                    for ih in (ih_lo..ih_lo + nr).filter(|ih| *ih < 0 || *ih >= g.h) {
                        let mut r = 0;
                        while r < per_row {
                            let cnt = (per_row - r).min(255);
                            dmas.push(fill(Inst::new("dma.load", Some(dt)).i("dst", tile + (ih - ih_lo) * per_row + r).with("src", x.at(0)).i("rows", 0).i("cols", cols).i("pad_top", cnt)));
                            r += cnt;
                        }
                    }
                }
                if v_lo > v_hi {
                    continue;
                }
                if g.packed() {
                    // Per input row and tap group: one DMA for the columns whose taps all lie
                    // inside the image, one per edge column (zero lanes for the padding).
                    for ih in v_lo..=v_hi {
                        for j in 0..g.groups() {
                            let nt = g.group_taps(j);
                            let row0 = tile + ((ih - ih_lo) * g.groups() + j) * g.ow;
                            let first_p = |ow: i64| ow * g.sw + j * g.taps() - g.pl;
                            let inside = |ow: i64| first_p(ow) >= 0 && first_p(ow) + nt <= g.w;
                            let mut ow = 0;
                            while ow < g.ow {
                                if inside(ow) {
                                    let mut end = ow;
                                    while end + 1 < g.ow && inside(end + 1) {
                                        end += 1;
                                    }
                                    let src = x.at(((ih * g.w + first_p(ow)) * g.c) * eb);
                                    dmas.push(Inst::new("dma.load", Some(dt)).i("dst", row0 + ow).with("src", src).i("rows", end - ow + 1).i("cols", nt * g.c).i("stride", g.sw * g.c * eb));
                                    ow = end + 1;
                                    continue;
                                }
                                let p0 = first_p(ow);
                                let (t_lo, t_hi) = ((-p0).max(0), (nt - 1).min(g.w - 1 - p0));
                                let d = if t_lo > t_hi {
                                    // Only padding under this column: a zero row.
                                    fill(Inst::new("dma.load", Some(dt)).i("dst", row0 + ow).with("src", x.at(0)).i("rows", 0).i("cols", nt * g.c).i("pad_top", 1))
                                } else {
                                    let src = x.at(((ih * g.w + p0 + t_lo) * g.c) * eb);
                                    let mut d = Inst::new("dma.load", Some(dt)).i("dst", row0 + ow).with("src", src).i("rows", 1).i("cols", (t_hi - t_lo + 1) * g.c);
                                    if t_lo > 0 {
                                        d = d.i("pad_left", t_lo * g.c);
                                    }
                                    if t_hi < nt - 1 {
                                        d = d.i("pad_right", (nt - 1 - t_hi) * g.c);
                                    }
                                    fill(d)
                                };
                                dmas.push(d);
                                ow += 1;
                            }
                        }
                    }
                    continue;
                }
                if g.sw == 1 && g.pl == 0 && row_len == g.w {
                    let src = x.at(((v_lo * g.w) * g.c + cb * g.l) * eb);
                    dmas.push(Inst::new("dma.load", Some(dt)).i("dst", tile + (v_lo - ih_lo) * row_len).with("src", src).i("rows", (v_hi - v_lo + 1) * g.w).i("cols", k).i("stride", g.c * eb));
                    continue;
                }
                let wn = (g.ow - 1) * g.sw + g.kw;
                for ih in v_lo..=v_hi {
                    for ph in 0..g.sw {
                        let n_ph = if ph < wn { (wn - 1 - ph) / g.sw + 1 } else { 0 };
                        if n_ph == 0 {
                            continue;
                        }
                        let p0 = g.pl + (ph - g.pl).rem_euclid(g.sw);
                        let p_end = (wn - 1).min(g.pl + g.w - 1);
                        let cnt = if p0 <= p_end { (p_end - p0) / g.sw + 1 } else { 0 };
                        let before = ((p0 - ph) / g.sw).min(n_ph);
                        let after = n_ph - before - cnt;
                        let dst = tile + (ih - ih_lo) * row_len + phase_off[ph as usize];
                        let src = x.at(((ih * g.w + (p0 - g.pl).max(0)) * g.c + cb * g.l) * eb);
                        let mut d = Inst::new("dma.load", Some(dt)).i("dst", dst).with("src", src).i("rows", cnt).i("cols", k).i("stride", g.sw * g.c * eb);
                        if before > 0 {
                            d = d.i("pad_top", before);
                        }
                        if after > 0 {
                            d = d.i("pad_bottom", after);
                        }
                        dmas.push(if before > 0 || after > 0 { fill(d) } else { d });
                    }
                }
            }
            step.loads.push((0, dmas));
        }
        let w_base = if p.vector {
            acc_w + co * g.kh * g.kw
        } else if p.stationary {
            spad_w + w_offs[co as usize]
        } else {
            let b = spad_w + (w_fill % 2) * w_slot;
            w_fill += 1;
            step.loads.push((1, w_dma(z, co, b)));
            b
        };
        let in_base = ((in_fill - 1) % 2) * in_slot;
        let acc = acc_out + (t as i64 % 2) * out_slot;
        let n = g.bsize(g.f, co);
        let mut tile_row = 0;
        let c = &mut step.compute;
        for kh in 0..g.kh {
            // Output rows whose input row under this tap is inside the image (all of them over value padding).
            let (a, b) = if pad_value != 0 {
                (oh0, oh1 - 1)
            } else {
                (((g.pt - kh + g.sh - 1).div_euclid(g.sh)).max(oh0), ((g.h - 1 + g.pt - kh).div_euclid(g.sh)).min(oh1 - 1))
            };
            for (cbi, &cb) in cbs.iter().enumerate() {
                for kw in 0..g.groups() {
                    // A tap group (packed: several taps, their channels in the lanes), or one tap.
                    let k = if g.packed() { g.group_taps(kw) * g.c } else if g.depthwise { n } else { g.bsize(g.c, cb) };
                    let here = tile_row;
                    tile_row += if g.bt { n } else { k };
                    if a > b {
                        continue;
                    }
                    if !p.vector {
                        let mut pre = Inst::new("mx.preload", Some(dt)).i("src", w_base + here).i("k", k).i("n", n);
                        if g.bt {
                            pre = pre.with("transpose", Operand::Flag);
                        }
                        c.push(pre);
                    }
                    // Pieces: rows this combo writes first (overwrite) or adds to.
                    let first = |oh: i64| cbi == 0 && kw == 0 && if pad_value != 0 { kh == 0 } else { (g.pt - oh * g.sh).max(0) == kh };
                    let mut oh = a;
                    while oh <= b {
                        let f0 = first(oh);
                        let mut end = oh;
                        while end < b && first(end + 1) == f0 {
                            end += 1;
                        }
                        let row = in_base + cbi as i64 * g.input_rows(p.rows) * row_len + (oh * g.sh - g.pt + kh - ih_lo) * row_len;
                        let src = if g.packed() { row + kw * g.ow } else { row + phase_off[(kw % g.sw) as usize] + kw / g.sw };
                        let mut m = if p.vector {
                            Inst::new("v.mac", Some(dt)).i("dst", acc + (oh - oh0) * g.ow).i("src", src).i("w", w_base + kh * g.kw + kw).i("rows", g.ow)
                        } else {
                            Inst::new("mx.mul", Some(dt)).i("dst", acc + (oh - oh0) * g.ow).i("src", src).i("rows", g.ow).i("k", k).i("n", n)
                        };
                        if end > oh {
                            m = m.i("loop", end - oh + 1).i("src_stride", g.sh * row_len).i("dst_stride", g.ow);
                        }
                        if !f0 {
                            m = m.with("accumulate", Operand::Flag);
                        }
                        c.push(m);
                        oh = end + 1;
                    }
                }
            }
        }
        let rows = (oh1 - oh0) * g.ow;
        if bias.is_some() {
            c.push(Inst::new("v.add", Some(adt)).i("dst", acc).i("a", acc).i("b", co).i("rows", rows).with("bcast", Operand::Flag));
        }
        let out_eb = if wide { 4 } else { eb };
        let dst = out.at(((z * g.oh + oh0) * g.ow * g.f + co * g.l) * out_eb);
        if wide {
            step.stores.push(Inst::new("dma.storeacc", Some("i32")).with("dst", dst).i("src", acc).i("rows", rows).i("cols", n).i("stride", g.f * 4));
        } else if g.int8 {
            // Requantized into the scratchpad (ReLU is the clamp at zero), then stored.
            let so = spad_out + (t as i64 % 2) * out_slot;
            let (lo, hi) = npu::tensor_ops::int8_clamp(body, op);
            let mut rq = Inst::new("v.requant", Some("i8")).i("dst", so).i("src", acc).i("rows", rows).i("mult", nco + co).i("shift", 2 * nco + co).i("min", lo).i("max", hi).with("per_channel", Operand::Flag);
            if out_zp != 0 {
                rq = rq.i("zp", out_zp);
            }
            c.push(rq);
            step.stores.push(Inst::new("dma.store", Some("i8")).with("dst", dst).i("src", so).i("rows", rows).i("cols", n).i("stride", g.f));
        } else {
            act_insts(c, body, op, acc, rows);
            step.stores.push(Inst::new("dma.storeacc", Some("f32")).with("dst", dst).i("src", acc).i("rows", rows).i("cols", n).i("stride", g.f * 4));
        }
        let _ = t;
        steps.push(step);
    }
    let releases: Vec<Release> = if p.stationary || p.vector { vec![Release::Exec] } else { vec![Release::Exec, Release::Exec] };
    pipeline::emit(l.out, prologue, steps, &releases, true);
    Ok(())
}

/// Float offset of an output block's weights in the packed image.
fn weight_offset(g: &Geom, co: i64) -> i64 {
    (0..co).map(|b| g.w_rows(b) * g.bsize(g.f, b)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(h: i64, c: i64, k: i64, f: i64, s: i64, p: i64) -> Geom {
        let o = (h + 2 * p - k) / s + 1;
        Geom { h, w: h, c, kh: k, kw: k, f, sh: s, sw: s, pt: p, pl: p, oh: o, ow: o, depthwise: false, int8: false, l: 16, batch: 1, bt: false }
    }

    #[test]
    fn plans_fit_the_memories_and_prefer_fewer_cycles() {
        let hw = HwDesc::npu16();
        for geom in [g(56, 64, 3, 64, 1, 1), g(224, 3, 7, 64, 2, 3), g(7, 512, 3, 512, 1, 1), g(14, 256, 1, 512, 2, 0)] {
            let p = plan(&geom, &hw).unwrap();
            let (spad, acc) = footprint(&geom, p.rows, p.stationary, p.vector);
            assert!(spad <= hw.spad_rows as i64 && acc <= hw.acc_rows as i64, "{:?} {:?}", geom, p);
            // No fitting candidate is modelled faster.
            for rows in 1..=geom.oh {
                for st in [true, false] {
                    let (s, a) = footprint(&geom, rows, st, false);
                    if s <= hw.spad_rows as i64 && a <= hw.acc_rows as i64 {
                        assert!(cost(&geom, &hw, rows, st, false).0 >= p.cycles);
                    }
                }
            }
        }
    }

    #[test]
    fn depthwise_convs_go_to_the_vector_unit_where_it_has_mac() {
        let dw = Geom { depthwise: true, ..g(56, 144, 3, 144, 1, 1) };
        let r3 = plan(&dw, &HwDesc::npu16()).unwrap();
        let r2 = plan(&dw, &HwDesc { vector_mac: 0, ..HwDesc::npu16() }).unwrap();
        assert!(r3.vector && !r2.vector, "{:?} {:?}", r3, r2);
        // f32 through diagonal tiles: a quarter rate and a preload per tap.
        assert!(r3.cycles * 3 < r2.cycles, "{:?} {:?}", r3, r2);
        // A dense conv never does.
        assert!(!plan(&g(56, 144, 3, 144, 1, 1), &HwDesc::npu16()).unwrap().vector);
    }

    #[test]
    fn a_memory_too_small_is_named() {
        let hw = HwDesc { spad_rows: 64, ..HwDesc::npu16() };
        let e = plan(&g(56, 64, 3, 64, 1, 1), &hw).unwrap_err();
        assert!(e.contains("scratchpad rows; the scratchpad has 64"), "{}", e);
        let hw = HwDesc { acc_rows: 8, ..HwDesc::npu16() };
        let e = plan(&g(56, 64, 3, 64, 1, 1), &hw).unwrap_err();
        assert!(e.contains("accumulator rows; the accumulator has 8"), "{}", e);
    }

    #[test]
    fn row_layout_puts_each_phase_together() {
        // Stride 2, 7-wide output of a 3-wide kernel: 15 positions, 8 even then 7 odd.
        let geom = Geom { h: 14, w: 14, c: 16, kh: 3, kw: 3, f: 16, sh: 2, sw: 2, pt: 1, pl: 1, oh: 7, ow: 7, depthwise: false, int8: false, l: 16, batch: 1, bt: false };
        assert_eq!(geom.row_layout(), (15, vec![0, 8]));
    }
}
