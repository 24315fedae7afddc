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
use super::{const_values, Dram, Layer};
use ir::{Body, OpId};
use npu::asm::{Inst, Operand};

pub use super::tiling::{geometry, lanes_of, max_product_depth, plan, plans_as_well_in, product_fits, Geom, Plan};
use super::tiling::vector_weight_rows;

/// Weights in tile order: per output block, per (kh, input block, kw), a k×n tile.
fn pack_weights<T: Copy + Default>(g: &Geom, w: &[T]) -> Vec<T> {
    // w is HWIO: [kh][kw][c/group][f].
    let cin = if g.depthwise { 1 } else { g.c };
    let at = |kh: i64, kw: i64, ci: i64, co: i64| w[(((kh * g.kw + kw) * cin + ci) * g.f + co) as usize];
    // At least every weight once (ResNet-18's 11.7M grew the vector step by step).
    let mut out = Vec::with_capacity(w.len());
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

/// Whether `op` has a fused activation (a function of one value after it):
/// whether `act_insts` emits one, so the two never disagree.
pub fn has_act(body: &Body, op: OpId) -> bool {
    let mut insts = Vec::new();
    act_insts(&mut insts, body, op, 0, 1, None);
    !insts.is_empty()
}

/// The fused activation of `op` on accumulator rows `dst..dst+rows` (f32),
/// adding the accumulator row `bias` first where one is given (revision 4).
pub fn act_insts(out: &mut Vec<Inst>, body: &Body, op: OpId, dst: i64, rows: i64, bias: Option<i64>) {
    let act = body.op(op).str_attr("act").unwrap_or("none");
    let u = |m: &'static str| {
        let i = Inst::new(m, Some("f32")).i("dst", dst).i("src", dst).i("rows", rows);
        match bias {
            Some(b) => i.i("bias", b),
            None => i,
        }
    };
    match act {
        "relu" => out.push(u("v.relu")),
        "relu6" => out.push(u("v.relu6")),
        "sigmoid" => out.push(u("v.sigmoid")),
        "tanh" => out.push(u("v.tanh")),
        "erf" => out.push(u("v.erf")),
        "clip" => {
            let lo = body.op(op).float_attr("min").unwrap_or(f64::MIN) as f32;
            let hi = body.op(op).float_attr("max").unwrap_or(f64::MAX) as f32;
            out.push(u("v.clamp").with("min", Operand::Float(lo)).with("max", Operand::Float(hi)));
        }
        _ => {}
    }
}

/// A conv's weights in the constant image, packed for its plan (once per
/// constant and geometry: an LSTM written out as steps reads one R at every step).
fn packed_weights(l: &mut Layer, body: &Body, op: OpId, g: &Geom, p: &Plan, wide: bool) -> Result<Dram, String> {
    let o = body.op(op);
    let key = (o.operand(1), format!("{:?}{}", g, if p.vector { " vector" } else { "" }));
    if let Some(d) = l.consts.packed.get(&key).cloned() {
        return Ok(d);
    }
    let d = if g.int8 {
        // int8 weights straight from their bytes (ResNet-18's 11M would take 0.1 s through f64).
        if wide {
            let wv: Vec<i32> = onnx::infer::const_ints(body, o.operand(1)).ok_or("int8 weights are not a constant")?.iter().map(|v| *v as i32).collect();
            l.consts.push_i32(&pack_vector_weights(g, &wv))
        } else {
            let wv = onnx::infer::const_i8s(body, o.operand(1)).ok_or("int8 weights are not a constant")?;
            if p.vector {
                // Accumulator lanes: i32.
                l.consts.push_i32(&pack_vector_weights(g, &wv).iter().map(|v| *v as i32).collect::<Vec<_>>())
            } else {
                l.consts.push_i8(&pack_weights(g, &wv))
            }
        }
    } else {
        // f32 weights straight from their bytes too (VGG-19's 140M through f64 took seconds).
        let wv = match onnx::infer::const_f32s(body, o.operand(1)) {
            Some(w) => w,
            None => const_values(body, o.operand(1))?.into_iter().map(|v| v as f32).collect(),
        };
        l.consts.push(&if p.vector { pack_vector_weights(g, &wv) } else { pack_weights(g, &wv) })
    };
    l.consts.packed.insert(key, d.clone());
    Ok(d)
}

pub fn emit(l: &mut Layer, body: &Body, op: OpId, ins: &[Dram], out: &Dram) -> Result<(), String> {
    let g = geometry(body, op, lanes_of(l.hw));
    if g.depthwise && g.c != g.f {
        return Err("grouped convolution other than depthwise".into());
    }
    let hw = l.hw;
    let o = body.op(op);
    let (dt, adt, eb) = if g.int8 { ("i8", "i32", 1) } else { ("f32", "f32", 4) };
    // A depthwise filter less its zero points (i16) is held by the vector unit's i32 rows only.
    let wide = body.value_type(o.operand(1)).element_type().is_some_and(|e| e.to_string() == "i16");
    let p = super::tiling::plan_with(&g, hw, wide)?;
    // Weights: packed in tile order into the constant image, or (a batched
    // product) B's row-major matrices where they are, read tile by tile.
    let matrix = body.name(op).as_str() == npu::ops::BATCH_MATMUL;
    let wdram = if matrix { ins.get(1).cloned().ok_or("B is not in DRAM")? } else { packed_weights(l, body, op, &g, &p, wide)? };
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
    // The bias in the requantization's or the activation's pass where the
    // target adds a row there (revision 4), else a `v.add` of its own.
    let fused_bias = bias.is_some() && hw.vector_bias != 0 && !wide && (g.int8 || has_act(body, op));
    // int8: per-channel requantization multipliers and shifts, as accumulator rows.
    let requant = if g.int8 && !wide {
        let m: Vec<f64> = body.op(op).ints_attr("mult").ok_or("int8 without mult")?.iter().map(|v| *v as f64).collect();
        let s: Vec<f64> = body.op(op).ints_attr("shift").ok_or("int8 without shift")?.iter().map(|v| *v as f64).collect();
        Some((push_rows(l.consts, &m), push_rows(l.consts, &s)))
    } else {
        None
    };
    // int8 padding with a value (the input's zero point): padding rows are
    // loaded as rows of it and every tap runs, where zero padding skips them.
    let pad_value = if g.int8 { o.attr("pad_value").and_then(|a| a.as_int()).unwrap_or(0) as i64 } else { 0 };
    let out_zp = npu::tensor_ops::int8_zp(body, op);
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
            let dmas = input_dmas(&g, x, base, &cbs, ih_lo, nr, g.input_rows(p.rows), dt, eb, pad_value);
            step.loads.push((0, dmas));
        }
        let w_base = if p.vector {
            acc_w + co * g.kh * g.kw
        } else if p.stationary {
            // Each block's weights are loaded by the first step that uses them,
            // so the first block computes while the others arrive.
            if z == 0 && rb == 0 {
                step.loads.insert(0, (1, w_dma(0, co, spad_w + w_offs[co as usize])));
            }
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
        let at = StepAt { oh0, oh1, ih_lo, in_base, w_base, acc, n };
        let c = &mut step.compute;
        c.extend(tap_products(&g, &p, &cbs, &at, pad_value, dt));
        let rows = (oh1 - oh0) * g.ow;
        if bias.is_some() && !fused_bias {
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
            if fused_bias {
                rq = rq.i("bias", co);
            }
            c.push(rq);
            step.stores.push(Inst::new("dma.store", Some("i8")).with("dst", dst).i("src", so).i("rows", rows).i("cols", n).i("stride", g.f));
        } else {
            act_insts(c, body, op, acc, rows, fused_bias.then_some(co));
            step.stores.push(Inst::new("dma.storeacc", Some("f32")).with("dst", dst).i("src", acc).i("rows", rows).i("cols", n).i("stride", g.f * 4));
        }
        let _ = t;
        steps.push(step);
    }
    let releases: Vec<Release> = if p.vector {
        vec![Release::Exec]
    } else if p.stationary {
        vec![Release::Exec, Release::Never]
    } else {
        vec![Release::Exec, Release::Exec]
    };
    pipeline::emit(l.out, prologue, steps, &releases, true);
    Ok(())
}

/// Where one step's products read and write.
#[derive(Clone, Copy)]
struct StepAt {
    /// Output rows `oh0..oh1`, whose input rows start at image row `ih_lo`.
    oh0: i64,
    oh1: i64,
    ih_lo: i64,
    /// The input tile's, the weights' and the output slot's first rows.
    in_base: i64,
    w_base: i64,
    acc: i64,
    /// Output channels of the block.
    n: i64,
}

/// One step's products: per tap (kh, input block, tap group) a weight preload
/// and the `mx.mul`s (on the vector unit: `v.mac`s) of the output rows whose
/// input row under the tap lies in the image, the first tap of a row
/// overwriting it and the rest accumulating.
fn tap_products(g: &Geom, p: &Plan, cbs: &[i64], at: &StepAt, pad_value: i64, dt: &'static str) -> Vec<Inst> {
    let StepAt { oh0, oh1, ih_lo, in_base, w_base, acc, n } = *at;
    let row_len = g.row_rows();
    let (_, phase_off) = g.row_layout();
    let mut tile_row = 0;
    let mut c = vec![];
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
    c
}

/// The DMAs filling an input tile at scratchpad row `base` with the input rows
/// `ih_lo..ih_lo + nr` of `x` (one tile of `tile_rows` stored rows per input
/// block in `cbs`): each row as its stride phases (or, packed, its tap groups),
/// the horizontal padding as zero lanes or rows, the rows outside the image as
/// rows of `pad_value` where it is not zero (else never loaded).
#[allow(clippy::too_many_arguments)]
fn input_dmas(g: &Geom, x: &Dram, base: i64, cbs: &[i64], ih_lo: i64, nr: i64, tile_rows: i64, dt: &'static str, eb: i64, pad_value: i64) -> Vec<Inst> {
    let row_len = g.row_rows();
    let (_, phase_off) = g.row_layout();
    let fill = |d: Inst| if pad_value != 0 { d.i("pad_value", pad_value) } else { d };
    let mut dmas = vec![];
    let v_lo = ih_lo.max(0);
    let v_hi = (ih_lo + nr - 1).min(g.h - 1);
    for (cbi, &cb) in cbs.iter().enumerate() {
        let k = g.bsize(g.c, cb);
        let tile = base + cbi as i64 * tile_rows * row_len;
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
    dmas
}

/// Float offset of an output block's weights in the packed image.
fn weight_offset(g: &Geom, co: i64) -> i64 {
    (0..co).map(|b| g.w_rows(b) * g.bsize(g.f, b)).sum()
}
