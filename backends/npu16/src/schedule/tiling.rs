//! The tiling of a convolution or matrix product on the array: its
//! geometry (`Geom`), the scratchpad and accumulator rows a tiling needs, and
//! the cost model that picks one (`plan`): output rows per block, weights
//! resident or streamed, a depthwise conv on the vector unit or the array.

use super::shape;
use ir::{Body, OpId};
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
    pub(crate) fn group_taps(&self, j: i64) -> i64 {
        (self.kw - j * self.taps()).min(self.taps())
    }
    /// Rows of one stored input row: all phases, or (packed) one row per output column and tap group.
    pub(crate) fn row_rows(&self) -> i64 {
        if self.packed() { self.groups() * self.ow } else { self.row_layout().0 }
    }
}

/// Lanes per block on `hw`: the side of its array (the smaller of rows and
/// columns, so a block fits both the array's inputs and its outputs).
pub fn lanes_of(hw: &HwDesc) -> i64 {
    hw.array_rows.min(hw.array_cols) as i64
}

impl Geom {
    pub(crate) fn blocks(&self, n: i64) -> i64 {
        (n + self.l - 1) / self.l
    }
    pub(crate) fn bsize(&self, n: i64, b: i64) -> i64 {
        (n - b * self.l).min(self.l)
    }
}

impl Geom {
    /// Positions of a stored input row (all phases) and where each phase starts.
    pub(crate) fn row_layout(&self) -> (i64, Vec<i64>) {
        let wn = (self.ow - 1) * self.sw + self.kw;
        let mut offs = vec![];
        let mut total = 0;
        for ph in 0..self.sw {
            offs.push(total);
            total += if ph < wn { (wn - 1 - ph) / self.sw + 1 } else { 0 };
        }
        (total, offs)
    }
    pub(crate) fn in_blocks_per_tile(&self) -> i64 {
        if self.depthwise { 1 } else { self.blocks(self.c) }
    }
    /// Weight rows of one output-channel block.
    pub(crate) fn w_rows(&self, co: i64) -> i64 {
        if self.bt {
            self.blocks(self.c) * self.bsize(self.f, co)
        } else if self.depthwise {
            self.kh * self.kw * self.bsize(self.f, co)
        } else {
            self.kh * self.kw * self.c
        }
    }
    pub(crate) fn input_rows(&self, r: i64) -> i64 {
        (r - 1) * self.sh + self.kh
    }
    /// Bytes per element in DRAM.
    pub(crate) fn eb(&self) -> i64 {
        if self.int8 { 1 } else { 4 }
    }
    /// Accumulator rows held for the whole layer: bias rows, and for int8 the multiplier and shift rows.
    pub(crate) fn acc_fixed(&self) -> i64 {
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
pub(crate) fn vector_weight_rows(g: &Geom) -> i64 {
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
    // A fill's DMAs wait out their latency one by one, or once where requests are in flight (revision 4).
    let fill_latency = if hw.dram_pipelined != 0 { hw.dram_latency } else { in_dmas as u64 * hw.dram_latency };
    let in_fill = fill_latency + (g.input_rows(rows) * row_len) as u64 * ncb as u64 * row_bytes(lanes) / hw.dram_bytes_per_cycle;
    load += in_fills as u64 * in_fill;
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
    // The first input tile is loaded before anything computes and the last
    // step's outputs stored after: a tall tile is a long wait at each end.
    let ends = in_fill + store / steps as u64;
    // Per batch; a batched product runs them one after another.
    ((compute.max(load).max(store) + ends) * g.batch as u64, bytes * g.batch as u64)
}

/// A plan may move up to 1/DRAM_SLACK more DRAM bytes than the plan that moves fewest.
const DRAM_SLACK: u64 = 25;
/// A plan within 1/CYCLE_SLACK of the fewest modelled cycles is as good as the fastest.
const CYCLE_SLACK: u64 = 50;

/// The tiling that fits with the tallest tiles among those within 1/CYCLE_SLACK
/// of the fewest modelled cycles, of the plans within 1/DRAM_SLACK of the fewest DRAM bytes.
pub fn plan(g: &Geom, hw: &HwDesc) -> Result<Plan, String> {
    plan_with(g, hw, false)
}

/// `plan`, on the vector unit only where `vector_only` (a depthwise filter
/// wider than int8, whose weights only the vector unit's i32 rows hold).
pub fn plan_with(g: &Geom, hw: &HwDesc, vector_only: bool) -> Result<Plan, String> {
    let mut best: Option<Plan> = None;
    // Each batch has its own weights: they stream, one tile per step.
    let mut modes: Vec<(bool, bool)> = if g.batch > 1 || vector_only { vec![] } else { vec![(true, false), (false, false)] };
    if g.batch > 1 {
        modes.push((false, false));
    }
    // A depthwise conv on the vector unit, where the target has `v.mac`.
    if g.depthwise && g.batch == 1 && hw.vector_mac != 0 {
        modes.push((true, true));
    }
    if modes.is_empty() {
        return Err("a depthwise conv whose weights have zero points (an i16 filter) runs on the vector unit only (vector.mac)".into());
    }
    let mut fits = vec![];
    for &(stationary, vector) in &modes {
        for rows in 1..=g.oh {
            let (spad, acc) = footprint(g, rows, stationary, vector);
            if spad > hw.spad_rows as i64 || acc > hw.acc_rows as i64 {
                continue;
            }
            let (cycles, dram_bytes) = cost(g, hw, rows, stationary, vector);
            fits.push(Plan { rows, stationary, vector, cycles, dram_bytes });
        }
    }
    // Cycles bought with DRAM traffic (weights read again for each of many
    // short tiles) are not worth it: the plans within 1/DRAM_SLACK of the fewest bytes compete.
    let least = fits.iter().map(|p| p.dram_bytes).min().unwrap_or(0);
    fits.retain(|p| p.dram_bytes <= least + least / DRAM_SLACK);
    // Of the plans within 1/CYCLE_SLACK of the fewest cycles, the tallest
    // tiles: fewer steps are fewer instructions to assemble and simulate.
    let fewest = fits.iter().map(|p| p.cycles).min().unwrap_or(0);
    for p in fits.into_iter().filter(|p| p.cycles <= fewest + fewest / CYCLE_SLACK) {
        if best.as_ref().is_none_or(|b| (std::cmp::Reverse(p.rows), p.cycles, p.dram_bytes) < (std::cmp::Reverse(b.rows), b.cycles, b.dram_bytes)) {
            best = Some(p);
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

/// The geometry of `npu.conv`, `npu.matmul` or `npu.batch_matmul` (per batch).
pub fn geometry(body: &Body, op: OpId, l: i64) -> Geom {
    let o = body.op(op);
    let int8 = body.value_type(o.operand(0)).element_type().is_some_and(|e| e.to_string() == "i8");
    if body.name(op).as_str() == npu::ops::MATMUL {
        let a = shape(body, o.operand(0));
        let b = shape(body, o.operand(1));
        return Geom { h: a[0], w: 1, c: a[1], kh: 1, kw: 1, f: b[1], sh: 1, sw: 1, pt: 0, pl: 0, oh: a[0], ow: 1, depthwise: false, int8, l, batch: 1, bt: false };
    }
    if body.name(op).as_str() == npu::ops::BATCH_MATMUL {
        let (a, y) = (shape(body, o.operand(0)), shape(body, o.result(0)));
        let bt = npu::tensor_ops::transpose_b(body, op);
        return Geom { h: a[1], w: 1, c: a[2], kh: 1, kw: 1, f: y[2], sh: 1, sw: 1, pt: 0, pl: 0, oh: a[1], ow: 1, depthwise: false, int8: false, l, batch: a[0], bt };
    }
    let x = shape(body, o.operand(0));
    let w = shape(body, o.operand(1));
    let y = shape(body, o.result(0));
    let s = body.op(op).ints_attr("strides").unwrap_or(vec![1, 1]);
    let p = body.op(op).ints_attr("pads").unwrap_or(vec![0; 4]);
    let g = o.attr("group").and_then(|a| a.as_int()).unwrap_or(1) as i64;
    if w[0] == 1 && w[1] == 1 && s == [1, 1] && p.iter().all(|v| *v == 0) {
        // A pointwise conv reads each position alone: the image as one column of
        // positions (the same NHWC bytes), so a tile is any number of them, not whole rows.
        return Geom { h: x[1] * x[2], w: 1, c: x[3], kh: 1, kw: 1, f: w[3], sh: 1, sw: 1, pt: 0, pl: 0, oh: y[1] * y[2], ow: 1, depthwise: g > 1, int8, l, batch: 1, bt: false };
    }
    Geom { h: x[1], w: x[2], c: x[3], kh: w[0], kw: w[1], f: w[3], sh: s[0], sw: s[1], pt: p[0], pl: p[1], oh: y[1], ow: y[2], depthwise: g > 1, int8, l, batch: 1, bt: false }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(h: i64, c: i64, k: i64, f: i64, s: i64, p: i64) -> Geom {
        let o = (h + 2 * p - k) / s + 1;
        Geom { h, w: h, c, kh: k, kw: k, f, sh: s, sw: s, pt: p, pl: p, oh: o, ow: o, depthwise: false, int8: false, l: 16, batch: 1, bt: false }
    }

    #[test]
    fn plans_fit_the_memories_and_prefer_fewer_cycles_at_few_bytes() {
        let hw = HwDesc::npu16();
        for geom in [g(56, 64, 3, 64, 1, 1), g(224, 3, 7, 64, 2, 3), g(7, 512, 3, 512, 1, 1), g(14, 256, 1, 512, 2, 0)] {
            let p = plan(&geom, &hw).unwrap();
            let (spad, acc) = footprint(&geom, p.rows, p.stationary, p.vector);
            assert!(spad <= hw.spad_rows as i64 && acc <= hw.acc_rows as i64, "{:?} {:?}", geom, p);
            // No fitting candidate within the DRAM slack is modelled faster by more
            // than the cycle slack, and the plan is within the slack of the fewest bytes.
            let mut fitting = vec![];
            for rows in 1..=geom.oh {
                for st in [true, false] {
                    let (s, a) = footprint(&geom, rows, st, false);
                    if s <= hw.spad_rows as i64 && a <= hw.acc_rows as i64 {
                        fitting.push(cost(&geom, &hw, rows, st, false));
                    }
                }
            }
            let least = fitting.iter().map(|c| c.1).min().unwrap();
            assert!(p.dram_bytes <= least + least / DRAM_SLACK, "{:?} {:?}", geom, p);
            for (cycles, bytes) in fitting.into_iter().filter(|c| c.1 <= least + least / DRAM_SLACK) {
                assert!(cycles + cycles / CYCLE_SLACK >= p.cycles, "{:?} {:?}: {} cycles in {} bytes", geom, p, cycles, bytes);
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
