//! Kernels of the vector unit: elementwise ops on two streamed tensors, and
//! pooling. Data comes into the accumulator by DMA, is combined row by row
//! (a row is the array's lanes, 16 on npu16), and goes back out.

use super::conv::{act_insts, lanes_of};
use super::pipeline::{self, Release, Step};
use super::{shape, Dram, Layer};
use ir::{Body, OpId, Value};
use npu::asm::{Inst, Operand};

/// Rows of an f32 tensor in DRAM as the vector unit streams them: `rows`
/// rows of `cols` elements, `stride` elements apart from element `base`, the
/// last row `last_cols` wide. A flat tensor is one run of 16-element rows; a
/// tensor combined with one value per channel is one run per block of 16
/// channels (a row per position), so that block's row of values broadcasts.
struct Run {
    base: i64,
    rows: i64,
    stride: i64,
    cols: i64,
    last_cols: i64,
    /// The channel block (the broadcast row this run uses).
    block: i64,
}

impl Run {
    /// DMA moves of rows `[r0, r0+cnt)` between `d` and memory row `row`: f32
    /// through the accumulator (`dma.loadacc`/`dma.storeacc`), int8 through the
    /// scratchpad (`dma.load`/`dma.store`).
    fn dmas(&self, m: &'static str, row: i64, d: &Dram, r0: i64, cnt: i64) -> Vec<Inst> {
        let load = m.starts_with("dma.load");
        let (dtype, eb) = if m.ends_with("acc") { ("f32", 4) } else { ("i8", 1) };
        let full = if r0 + cnt == self.rows && self.last_cols < self.cols { cnt - 1 } else { cnt };
        let mk = |mem_row: i64, r: i64, nrows: i64, cols: i64| {
            let at = d.at((self.base + r * self.stride) * eb);
            let i = Inst::new(m, Some(dtype));
            let i = if load { i.i("dst", mem_row).with("src", at) } else { i.with("dst", at).i("src", mem_row) };
            let i = i.i("rows", nrows).i("cols", cols);
            if self.stride != cols && nrows > 1 { i.i("stride", self.stride * eb) } else { i }
        };
        let mut v = vec![];
        if full > 0 {
            v.push(mk(row, r0, full, self.cols));
        }
        if full < cnt {
            v.push(mk(row + full, r0 + full, 1, self.last_cols));
        }
        v
    }
}

/// The runs of an `n`-element tensor: flat (`channels` None) or by channel block.
fn runs(n: i64, channels: Option<i64>, lanes: i64) -> Vec<Run> {
    match channels {
        None => {
            let rows = (n + lanes - 1) / lanes;
            vec![Run { base: 0, rows, stride: lanes, cols: lanes, last_cols: n - (rows - 1) * lanes, block: 0 }]
        }
        Some(c) => (0..(c + lanes - 1) / lanes)
            .map(|cb| {
                let kc = (c - cb * lanes).min(lanes);
                Run { base: cb * lanes, rows: n / c, stride: c, cols: kc, last_cols: kc, block: cb }
            })
            .collect(),
    }
}

/// The one-value rows (the value in every lane) a layer's vector program
/// reads: an activation's constants, −1 for `rsub`.
fn splats(body: &Body, op: OpId) -> Vec<f32> {
    let f = |k: &str| body.op(op).float_attr(k).unwrap_or(0.0) as f32;
    let mut v = match body.op(op).str_attr("act").unwrap_or("none") {
        "hardsigmoid" => vec![f("alpha"), f("beta")],
        "hardswish" => vec![1.0 / 6.0, 0.5],
        "leakyrelu" => vec![f("alpha")],
        _ => vec![],
    };
    if body.op(op).str_attr("kind") == Some("rsub") {
        v.push(-1.0);
    }
    v
}

/// Constant rows of `lanes` values each (`vals` row by row) loaded once into
/// accumulator rows from `dst` by the layer's prologue, as buffer `name`.
fn const_rows(l: &mut Layer, prologue: &mut Vec<Inst>, dst: i64, vals: &[f32], lanes: i64, name: &str) {
    let rows = vals.len() as i64 / lanes;
    let d = l.consts.push(vals);
    prologue.push(Inst::new("dma.loadacc", Some("f32")).i("dst", dst).with("src", d.at(0)).i("rows", rows).i("cols", lanes));
    l.buffers.push(npu::asm::Buffer::acc(name, dst, rows, "f32"));
}

/// One row per value, the value in every lane.
fn splat_rows(vals: &[f32], lanes: i64) -> Vec<f32> {
    vals.iter().flat_map(|x| std::iter::repeat_n(*x, lanes as usize)).collect()
}

/// The activation of `op` on rows `dst..dst+rows`: one instruction in place,
/// or (hardsigmoid, hardswish, leakyrelu) a few using `tmp` rows and the
/// splat rows from `splat0` (in the order [`splats`] gives).
fn activation(out: &mut Vec<Inst>, body: &Body, op: OpId, dst: i64, rows: i64, tmp: i64, splat0: i64) {
    let v = |m: &'static str, d: i64, a: i64, b: i64| Inst::new(m, Some("f32")).i("dst", d).i("a", a).i("b", b).i("rows", rows);
    let bc = |i: Inst| i.with("bcast", Operand::Flag);
    let clamp01 = |d: i64| Inst::new("v.clamp", Some("f32")).i("dst", d).i("src", d).i("rows", rows).with("min", Operand::Float(0.0)).with("max", Operand::Float(1.0));
    match body.op(op).str_attr("act").unwrap_or("none") {
        "hardsigmoid" => out.extend([bc(v("v.mul", dst, dst, splat0)), bc(v("v.add", dst, dst, splat0 + 1)), clamp01(dst)]),
        "hardswish" => out.extend([bc(v("v.mul", tmp, dst, splat0)), bc(v("v.add", tmp, tmp, splat0 + 1)), clamp01(tmp), v("v.mul", dst, dst, tmp)]),
        "rpow" => {
            let un = |m: &'static str, d: i64, s: i64| Inst::new(m, Some("f32")).i("dst", d).i("src", s).i("rows", rows);
            match body.op(op).float_attr("beta").unwrap_or(1.0) {
                b if b == 0.5 => out.push(un("v.rsqrt", dst, dst)),
                // x^-0.75 = r·r·rsqrt(r) with r = x^-0.5 (r·rsqrt(r) = x^-0.25).
                b if b == 0.75 => out.extend([un("v.rsqrt", tmp, dst), un("v.rsqrt", dst, tmp), v("v.mul", dst, dst, tmp), v("v.mul", dst, dst, tmp)]),
                _ => out.push(un("v.recip", dst, dst)),
            }
        }
        "leakyrelu" => {
            let alpha = body.op(op).float_attr("alpha").unwrap_or(0.01);
            // alpha·x is the larger below zero when alpha <= 1, the smaller when alpha > 1.
            out.extend([bc(v("v.mul", tmp, dst, splat0)), v(if alpha <= 1.0 { "v.max" } else { "v.min" }, dst, dst, tmp)]);
        }
        _ => act_insts(out, body, op, dst, rows, None),
    }
}

/// `npu.eltwise` (f32) and `npu.act`: the first operand streamed through the
/// accumulator in chunks; the second streamed beside it, or (one value, one
/// per channel; a constant or a tensor in DRAM) loaded once as broadcast rows.
pub fn eltwise(l: &mut Layer, body: &Body, op: OpId, ins: &[Dram], out: &Dram) -> Result<(), String> {
    let o = body.op(op);
    if body.value_type(o.operand(0)).element_type().is_some_and(|e| e.to_string() == "i8") {
        return eltwise_int8(l, body, op, ins, out);
    }
    let lanes = lanes_of(l.hw);
    let unary = body.name(op).as_str() == npu::ops::ACT;
    let a_shape = shape(body, o.operand(0));
    let n: i64 = a_shape.iter().product();
    let mnemonic = if unary {
        None
    } else {
        Some(match body.op(op).str_attr("kind").unwrap_or("add") {
            "add" => "v.add",
            "sub" | "rsub" => "v.sub",
            "mul" => "v.mul",
            "max" => "v.max",
            "min" => "v.min",
            k => return Err(format!("unknown elementwise kind '{}'", k)),
        })
    };
    // The second operand: streamed (same shape), or broadcast rows (one value or one per channel).
    let b = (!unary).then(|| o.operand(1));
    let b_const = b.filter(|v| super::const_values(body, *v).is_ok());
    let bcast = b.and_then(|b| {
        let bs = shape(body, b);
        (bs != a_shape).then(|| npu::tensor_ops::broadcast_of(&a_shape, &bs)).flatten()
    });
    let mut dram = ins.iter();
    let a_d = dram.next().ok_or("first operand not in DRAM")?.clone();
    let b_d = match (b_const, bcast) {
        // A constant of the full shape streams from the constant image.
        (Some(v), None) => Some(super::push_constant(l.consts, body, v)?),
        (None, _) if b.is_some() => Some(dram.next().ok_or("second operand not in DRAM")?.clone()),
        _ => None,
    };
    let channels = bcast.filter(|c| *c > 1);
    let runs = runs(n, channels, lanes);
    // Accumulator: splat rows, broadcast rows, then two slots of (operand, second operand or temporary).
    let sp = splats(body, op);
    let nb = match bcast {
        Some(1) => 1,
        Some(c) => (c + lanes - 1) / lanes,
        None => 0,
    };
    let (splat0, brow0) = (0, sp.len() as i64);
    let fixed = brow0 + nb;
    let longest = runs.iter().map(|r| r.rows).max().unwrap_or(1);
    let chunk = ((l.hw.acc_rows as i64 - fixed) / 4).min(longest).max(1);
    if fixed + 4 * chunk > l.hw.acc_rows as i64 {
        return Err(format!("needs {} accumulator rows; the target has {}", fixed + 4, l.hw.acc_rows));
    }
    let mut prologue = vec![];
    if !sp.is_empty() {
        const_rows(l, &mut prologue, splat0, &splat_rows(&sp, lanes), lanes, "splats");
    }
    if let Some(c) = bcast {
        // One row per channel block (a single value fills every lane).
        let src = match b_const {
            Some(v) => {
                let vals = super::const_values(body, v)?;
                let row: Vec<f32> = if c == 1 { vec![vals[0] as f32; lanes as usize] } else { (0..nb * lanes).map(|k| vals.get(k as usize).copied().unwrap_or(0.0) as f32).collect() };
                l.consts.push(&row)
            }
            None if c == 1 => return Err("a computed single value to broadcast (the DMA cannot fill the lanes with it)".into()),
            None => b_d.clone().unwrap(),
        };
        let cols = if b_const.is_some() { nb * lanes } else { c };
        prologue.extend(runs_of_rows(cols, lanes).dmas("dma.loadacc", brow0, &src, 0, nb));
        l.buffers.push(npu::asm::Buffer::acc("broadcast", brow0, nb, "f32"));
    }
    for k in 0..2 {
        l.buffers.push(npu::asm::Buffer::acc(&format!("operands.{}", k), fixed + k * 2 * chunk, 2 * chunk, "f32"));
    }
    let mut steps = vec![];
    let mut t = 0;
    for run in &runs {
        let mut r0 = 0;
        while r0 < run.rows {
            let cnt = chunk.min(run.rows - r0);
            let a = fixed + (t % 2) * 2 * chunk;
            let second = a + chunk;
            let mut s = Step::default();
            let mut dmas = run.dmas("dma.loadacc", a, &a_d, r0, cnt);
            if let (Some(d), None) = (&b_d, bcast) {
                dmas.extend(run.dmas("dma.loadacc", second, d, r0, cnt));
            }
            s.loads.push((0, dmas));
            if let Some(m) = mnemonic {
                let mut i = Inst::new(m, Some("f32")).i("dst", a).i("a", a).i("rows", cnt);
                i = match bcast {
                    Some(_) => i.i("b", brow0 + run.block).with("bcast", Operand::Flag),
                    None => i.i("b", second),
                };
                s.compute.push(i);
                if body.op(op).str_attr("kind") == Some("rsub") {
                    s.compute.push(Inst::new("v.mul", Some("f32")).i("dst", a).i("a", a).i("b", splat0 + sp.len() as i64 - 1).i("rows", cnt).with("bcast", Operand::Flag));
                }
            }
            activation(&mut s.compute, body, op, a, cnt, second, splat0);
            s.stores = run.dmas("dma.storeacc", a, out, r0, cnt);
            steps.push(s);
            r0 += cnt;
            t += 1;
        }
    }
    pipeline::emit(l.out, prologue, steps, &[Release::Store], false);
    Ok(())
}

/// `n` contiguous values as rows of `lanes` (the last partial).
fn runs_of_rows(n: i64, lanes: i64) -> Run {
    runs(n, None, lanes).remove(0)
}

/// An int8 add: each input, scaled by its fixed-point `in_mult`, is summed
/// into i32 accumulator rows, and `v.requant` writes the int8 result (ReLU
/// as the clamp at zero) for the store. Where the vector unit has `v.mac`
/// (revision 3) that is one multiply-accumulate of each input's int8 rows by
/// its multiplier's row; else each input moves in through an identity tile
/// on the array (i8 → i32) and is scaled (`v.mul`) and added (`v.add`), the
/// same wrapping i32 arithmetic in twice the passes.
fn eltwise_int8(l: &mut Layer, body: &Body, op: OpId, ins: &[Dram], out: &Dram) -> Result<(), String> {
    let lanes = lanes_of(l.hw);
    let n: i64 = shape(body, body.op(op).result(0)).iter().product();
    let flat = runs_of_rows(n, lanes);
    let rows = flat.rows;
    let im = body.op(op).ints_attr("in_mult").ok_or("int8 add without in_mult")?;
    let mult = body.op(op).ints_attr("mult").and_then(|m| m.first().copied()).ok_or("int8 add without mult")?;
    let shift = body.op(op).ints_attr("shift").and_then(|m| m.first().copied()).ok_or("int8 add without shift")?;
    let (lo, hi) = npu::tensor_ops::int8_clamp(body, op);
    let zp = npu::tensor_ops::int8_zp(body, op);
    // The inputs' zero points: one constant term, -(za·ma + zb·mb), added to the sum.
    let iz = body.op(op).ints_attr("in_zp").unwrap_or(vec![0, 0]);
    let offset = -(iz[0] * im[0] + iz[1] * im[1]);
    // An input added to itself (a requantization, `to_npu`'s for a Concat) is read and scaled once, by both multipliers.
    let once = body.op(op).operand(0) == body.op(op).operand(1);
    let mults: Vec<i64> = if once { vec![im[0] + im[1]] } else { vec![im[0], im[1]] };
    let mac = l.hw.vector_mac != 0;
    // Constants: one row per input of its multiplier (and one of the offset), and without `v.mac` the identity tile.
    let offset_row = mults.len() as i64;
    let fixed = offset_row + (offset != 0) as i64;
    let mrows: Vec<i32> = mults.iter().chain([offset].iter()).take(fixed as usize).flat_map(|m| std::iter::repeat_n(*m as i32, lanes as usize)).collect();
    let m_d = l.consts.push_i32(&mrows);
    // Per chunk of rows, two slots: the inputs and the result in the
    // scratchpad (after the identity tile), the sum (and without `v.mac` the
    // second input's scaled rows) in the accumulator (after the constants).
    let (eye_rows, acc_per_row) = if mac { (0, 1) } else { (lanes, 2) };
    // At most a quarter of the accumulator a chunk either way: longer chunks
    // overlap less of the loads and stores with the passes (with `v.mac` at
    // half: ResNet-18-like int8 7K cycles more).
    let chunk = rows.min((l.hw.acc_rows as i64 - fixed) / 4).min((l.hw.spad_rows as i64 - eye_rows) / 6).max(1);
    if 2 * acc_per_row * chunk + fixed > l.hw.acc_rows as i64 || 6 * chunk + eye_rows > l.hw.spad_rows as i64 {
        return Err(format!("one row of an int8 add needs {} scratchpad and {} accumulator rows; the target has {} and {}", 6 + eye_rows, 2 * acc_per_row + fixed, l.hw.spad_rows, l.hw.acc_rows));
    }
    {
        use npu::asm::Buffer;
        let b = &mut l.buffers;
        if !mac {
            b.push(Buffer::spad("identity", 0, lanes, "i8"));
        }
        b.push(Buffer::acc("multipliers", 0, fixed, "i32"));
        for k in 0..2 {
            b.push(Buffer::spad(&format!("inputs.{}", k), eye_rows + k * 3 * chunk, 3 * chunk, "i8"));
            b.push(Buffer::acc(&format!("acc.{}", k), fixed + k * acc_per_row * chunk, acc_per_row * chunk, "i32"));
        }
    }
    let mut prologue = vec![Inst::new("dma.loadacc", Some("i32")).i("dst", 0).with("src", m_d.at(0)).i("rows", fixed).i("cols", lanes)];
    if !mac {
        let eye_d = l.consts.push_i8(&(0..lanes * lanes).map(|k| (k / lanes == k % lanes) as i8).collect::<Vec<_>>());
        prologue.push(Inst::new("dma.load", Some("i8")).i("dst", 0).with("src", eye_d.at(0)).i("rows", lanes).i("cols", lanes));
    }
    let mut steps = vec![];
    let (mut r0, mut t) = (0, 0);
    while r0 < rows {
        let cnt = chunk.min(rows - r0);
        let sa = eye_rows + (t % 2) * 3 * chunk;
        let (sb, so) = (sa + chunk, sa + 2 * chunk);
        let aa = fixed + (t % 2) * acc_per_row * chunk;
        let ab = aa + chunk;
        let mut s = Step::default();
        let mut dmas = flat.dmas("dma.load", sa, &ins[0], r0, cnt);
        if !once {
            dmas.extend(flat.dmas("dma.load", sb, &ins[1], r0, cnt));
        }
        s.loads.push((0, dmas));
        if mac {
            let scaled = |src: i64, row: i64| Inst::new("v.mac", Some("i8")).i("dst", aa).i("src", src).i("w", row).i("rows", cnt);
            s.compute = vec![scaled(sa, 0)];
            if !once {
                s.compute.push(scaled(sb, 1).with("accumulate", Operand::Flag));
            }
        } else {
            let mm = |dst: i64, src: i64| Inst::new("mx.mul", Some("i8")).i("dst", dst).i("src", src).i("rows", cnt).i("k", lanes).i("n", lanes);
            let scale = |dst: i64, row: i64| Inst::new("v.mul", Some("i32")).i("dst", dst).i("a", dst).i("b", row).i("rows", cnt).with("bcast", Operand::Flag);
            s.compute = vec![Inst::new("mx.preload", Some("i8")).i("src", 0).i("k", lanes).i("n", lanes), mm(aa, sa), scale(aa, 0)];
            if !once {
                s.compute.extend([mm(ab, sb), scale(ab, 1), Inst::new("v.add", Some("i32")).i("dst", aa).i("a", aa).i("b", ab).i("rows", cnt)]);
            }
        }
        // The zero points' term: in the requantization's pass where the target adds a row there (revision 4).
        let fused = offset != 0 && l.hw.vector_bias != 0;
        if offset != 0 && !fused {
            s.compute.push(Inst::new("v.add", Some("i32")).i("dst", aa).i("a", aa).i("b", offset_row).i("rows", cnt).with("bcast", Operand::Flag));
        }
        let mut rq = Inst::new("v.requant", Some("i8")).i("dst", so).i("src", aa).i("rows", cnt).i("mult", mult).i("shift", shift).i("min", lo).i("max", hi);
        if zp != 0 {
            rq = rq.i("zp", zp);
        }
        if fused {
            rq = rq.i("bias", offset_row);
        }
        s.compute.push(rq);
        s.stores = flat.dmas("dma.store", so, out, r0, cnt);
        steps.push(s);
        r0 += cnt;
        t += 1;
    }
    pipeline::emit(l.out, prologue, steps, &[Release::Exec], true);
    Ok(())
}

/// `npu.pool`: a horizontal pass (`v.poolmax`/`v.poolavg` along each image
/// row, windows clipped at the edges) then a vertical one (`v.max`/`v.add`
/// of image rows, averages scaled by a reciprocal row); a window covering the
/// whole image is one `v.poolavg`/`v.poolmax`.
/// Whether `op`'s window is its whole input image, unpadded.
fn k_is_whole(body: &Body, op: OpId) -> bool {
    let x = shape(body, body.op(op).operand(0));
    let k = body.op(op).ints_attr("kernel").unwrap_or_default();
    let p = body.op(op).ints_attr("pads").unwrap_or_default();
    x.len() == 4 && k == [x[1], x[2]] && p.iter().all(|v| *v == 0)
}

pub fn pool(l: &mut Layer, body: &Body, op: OpId, ins: &[Dram], out: &Dram) -> Result<(), String> {
    let lanes = lanes_of(l.hw);
    let x = shape(body, body.op(op).operand(0));
    let y = shape(body, body.op(op).result(0));
    let (h, w, c, oh, ow) = (x[1], x[2], x[3], y[1], y[2]);
    let k = body.op(op).ints_attr("kernel").ok_or("no kernel")?;
    let s = body.op(op).ints_attr("strides").ok_or("no strides")?;
    let p = body.op(op).ints_attr("pads").ok_or("no pads")?;
    let max = body.op(op).str_attr("kind") == Some("max");
    // int8: the input passes the array through an identity tile into i32
    // accumulator rows; a max comes back by an exact identity
    // requantization, an average of the whole image (`quant::QAvg`) is taken
    // of the inputs shifted left by `avg_shift`, less the zero point's row,
    // and requantized by the op's multiplier. Over a window, the inputs are
    // multiplied by kw first, so the horizontal `v.poolavg` gives the exact
    // sum; the vertical pass adds rows, the zero point's row (-zx·K) is
    // added, and the sum is requantized.
    let int8 = body.value_type(body.op(op).operand(0)).element_type().is_some_and(|e| e.to_string() == "i8");
    let avg_shift = body.op(op).attr("avg_shift").and_then(|a| a.as_int()).unwrap_or(0) as i64;
    let in_zp = body.op(op).attr("in_zp").and_then(|a| a.as_int()).unwrap_or(0) as i64;
    if int8 && !max && !k_is_whole(body, op) && body.op(op).attr("avg_shift").is_some() {
        return Err("an int8 average over a window with avg_shift".into());
    }
    let (vt, eb) = if int8 { ("i32", 1) } else { ("f32", 4) };
    if !max && p.iter().any(|v| *v != 0) && body.op(op).attr("count_include_pad").and_then(|a| a.as_int()).unwrap_or(0) != 0 {
        return Err("padded average counting the padding".into());
    }
    let (kh, kw, sh, sw, pt, pl) = (k[0], k[1], s[0], s[1], p[0], p[1]);
    let whole = k_is_whole(body, op);
    let ncb = (c + lanes - 1) / lanes;
    // Reciprocal rows 1/1 .. 1/kh for the vertical average.
    let recip = if !max && !whole && !int8 {
        let v = splat_rows(&(1..=kh).map(|n| 1.0 / n as f32).collect::<Vec<_>>(), lanes);
        Some(l.consts.push(&v))
    } else {
        None
    };
    // Accumulator rows held for the layer: the reciprocals, or an int8 average's zero-point row.
    // (int8 over a window: a row of the premultiplier L, then the zero point's row for each count of window rows 1..=kh.)
    let premult = npu::tensor_ops::avg_premult(kw, pl, p[3]);
    let base = if recip.is_some() { kh } else if int8 && !max { if whole { 1 } else { 1 + kh } } else { 0 };
    // Rows per output block: input rows × w, horizontal results × ow, and outputs (two slots each).
    let need = |r: i64| {
        let nr = ((r - 1) * sh + kh).min(h);
        nr * w + nr * ow
    };
    let budget = l.hw.acc_rows as i64 - base;
    let mut rows = oh;
    while rows > 1 && 2 * (need(rows) + rows * ow) > budget {
        rows -= 1;
    }
    if 2 * (need(rows) + rows * ow) > budget {
        return Err(format!("one output row needs {} accumulator rows; the accumulator has {}", 2 * (need(1) + ow), l.hw.acc_rows));
    }
    let in_slot = need(rows);
    let out_base = base + 2 * in_slot;
    {
        use npu::asm::Buffer;
        let b = &mut l.buffers;
        if recip.is_some() {
            b.push(Buffer::acc("reciprocals", 0, base, "f32"));
        }
        for k in 0..2 {
            b.push(Buffer::acc(&format!("input.{}", k), base + k * in_slot, in_slot, vt));
            b.push(Buffer::acc(&format!("output.{}", k), out_base + k * rows * ow, rows * ow, vt));
        }
    }
    // int8: the identity tile, and scratchpad slots for the input and the result.
    let (eye, sp_in, sp_out) = (0, lanes, lanes + 2 * need(rows));
    let mut prologue = vec![];
    if int8 {
        let eye_d = l.consts.push_i8(&(0..lanes * lanes).map(|k| (k / lanes == k % lanes) as i8).collect::<Vec<_>>());
        prologue.push(Inst::new("dma.load", Some("i8")).i("dst", eye).with("src", eye_d.at(0)).i("rows", lanes).i("cols", lanes));
        let b = &mut l.buffers;
        b.push(npu::asm::Buffer::spad("identity", eye, lanes, "i8"));
        for k in 0..2 {
            b.push(npu::asm::Buffer::spad(&format!("input.{}", k), sp_in + k * need(rows), need(rows), "i8"));
            b.push(npu::asm::Buffer::spad(&format!("result.{}", k), sp_out + k * rows * ow, rows * ow, "i8"));
        }
        if sp_out + 2 * rows * ow > l.hw.spad_rows as i64 {
            return Err(format!("an int8 pool tile needs {} scratchpad rows; the scratchpad has {}", sp_out + 2 * rows * ow, l.hw.spad_rows));
        }
    }
    if let Some(r) = &recip {
        prologue.push(Inst::new("dma.loadacc", Some("f32")).i("dst", 0).with("src", r.at(0)).i("rows", kh).i("cols", lanes));
    }
    if int8 && !max {
        let rows: Vec<i32> = if whole {
            vec![-(in_zp << avg_shift) as i32; lanes as usize]
        } else {
            std::iter::once(premult).chain((1..=kh).map(|h| -in_zp * premult * h)).flat_map(|v| std::iter::repeat_n(v as i32, lanes as usize)).collect()
        };
        let zrow = l.consts.push_i32(&rows);
        prologue.push(Inst::new("dma.loadacc", Some("i32")).i("dst", 0).with("src", zrow.at(0)).i("rows", base).i("cols", lanes));
        l.buffers.push(npu::asm::Buffer::acc("zero_point", 0, base, "i32"));
    }
    let hmn = if max { "v.poolmax" } else { "v.poolavg" };
    let vmn = if max { "v.max" } else { "v.add" };
    let nrb = (oh + rows - 1) / rows;
    let mut steps = vec![];
    let mut t = 0i64;
    for cb in 0..ncb {
        let kc = (c - cb * lanes).min(lanes);
        for rb in 0..nrb {
            let oh0 = rb * rows;
            let oh1 = (oh0 + rows).min(oh);
            let ih_a = (oh0 * sh - pt).max(0);
            let ih_b = ((oh1 - 1) * sh - pt + kh - 1).min(h - 1);
            let nr = ih_b - ih_a + 1;
            let ib = base + (t % 2) * in_slot;
            let hb = ib + nr * w;
            let ob = out_base + (t % 2) * rows * ow;
            let mut st = Step::default();
            let src = ins[0].at((ih_a * w * c + cb * lanes) * eb);
            let si = sp_in + (t % 2) * need(rows);
            if int8 {
                st.loads.push((0, vec![Inst::new("dma.load", Some("i8")).i("dst", si).with("src", src).i("rows", nr * w).i("cols", kc).i("stride", c)]));
            } else {
                st.loads.push((0, vec![Inst::new("dma.loadacc", Some("f32")).i("dst", ib).with("src", src).i("rows", nr * w).i("cols", kc).i("stride", c * 4)]));
            }
            let cmp = &mut st.compute;
            if int8 {
                cmp.push(Inst::new("mx.preload", Some("i8")).i("src", eye).i("k", lanes).i("n", lanes));
                cmp.push(Inst::new("mx.mul", Some("i8")).i("dst", ib).i("src", si).i("rows", nr * w).i("k", lanes).i("n", lanes));
                if !max && avg_shift > 0 {
                    cmp.push(Inst::new("v.shl", Some("i32")).i("dst", ib).i("src", ib).i("rows", nr * w).i("amount", avg_shift));
                }
                if !max && !whole && premult > 1 {
                    // x·L, so the horizontal average of w' values (w' dividing L) is L/w' times their exact sum.
                    cmp.push(Inst::new("v.mul", Some("i32")).i("dst", ib).i("a", ib).i("b", 0).i("rows", nr * w).with("bcast", Operand::Flag));
                }
            }
            if whole {
                cmp.push(Inst::new(hmn, Some(vt)).i("dst", ob).i("src", ib).i("rows", 1).i("window", h * w));
                if int8 && !max {
                    cmp.push(Inst::new("v.add", Some("i32")).i("dst", ob).i("a", ob).i("b", 0).i("rows", 1).with("bcast", Operand::Flag));
                }
            } else {
                // Horizontal: per loaded row, runs of output columns with the same clipped window.
                for r in 0..nr {
                    let mut o = 0;
                    while o < ow {
                        let lo = o * sw - pl;
                        let (a, b) = (lo.max(0), (lo + kw).min(w));
                        let interior = lo >= 0 && lo + kw <= w;
                        let mut end = o;
                        while interior && end + 1 < ow && (end + 1) * sw - pl + kw <= w {
                            end += 1;
                        }
                        let mut i = Inst::new(hmn, Some(vt)).i("dst", hb + r * ow + o).i("src", ib + r * w + a).i("rows", end - o + 1).i("window", b - a);
                        if sw != b - a {
                            i = i.i("stride", sw);
                        }
                        cmp.push(i);
                        o = end + 1;
                    }
                }
                // Vertical: combine the clipped window's rows.
                for o in oh0..oh1 {
                    let lo = o * sh - pt;
                    let (a, b) = (lo.max(0), (lo + kh).min(h));
                    let row = |ih: i64| hb + (ih - ih_a) * ow;
                    let dst = ob + (o - oh0) * ow;
                    if b - a == 1 {
                        cmp.push(Inst::new("v.max", Some(vt)).i("dst", dst).i("a", row(a)).i("b", row(a)).i("rows", ow));
                    } else {
                        cmp.push(Inst::new(vmn, Some(vt)).i("dst", dst).i("a", row(a)).i("b", row(a + 1)).i("rows", ow));
                        for ih in a + 2..b {
                            cmp.push(Inst::new(vmn, Some(vt)).i("dst", dst).i("a", dst).i("b", row(ih)).i("rows", ow));
                        }
                        if !max && !int8 {
                            cmp.push(Inst::new("v.mul", Some("f32")).i("dst", dst).i("a", dst).i("b", b - a - 1).i("rows", ow).with("bcast", Operand::Flag));
                        }
                    }
                    if int8 && !max {
                        // Less zx·L·h' (h' = b - a window rows inside the image).
                        cmp.push(Inst::new("v.add", Some("i32")).i("dst", dst).i("a", dst).i("b", b - a).i("rows", ow).with("bcast", Operand::Flag));
                    }
                }
            }
            let dst = out.at((oh0 * ow * c + cb * lanes) * eb);
            let n = (oh1 - oh0) * ow;
            if int8 {
                // mult = 2^31 - 1, shift 0: (x·(2^31-1) + 2^30) >> 31 = x for every int8 x.
                let so = sp_out + (t % 2) * rows * ow;
                if max {
                    st.compute.push(Inst::new("v.requant", Some("i8")).i("dst", so).i("src", ob).i("rows", n).i("mult", (1 << 31) - 1).i("shift", 0).i("min", -128).i("max", 127));
                } else {
                    let ms = body.op(op).ints_attr("mult").ok_or("int8 average without mult")?;
                    let shs = body.op(op).ints_attr("shift").ok_or("int8 average without shift")?;
                    let (lo, hi) = npu::tensor_ops::int8_clamp(body, op);
                    let zp = npu::tensor_ops::int8_zp(body, op);
                    // Of the whole image one requantization; over a window one per output row, by its count of window rows.
                    let parts: Vec<(i64, i64, usize)> = if whole { vec![(0, n, 0)] } else { (oh0..oh1).map(|o| ((o - oh0) * ow, ow, ((o * sh - pt + kh).min(h) - (o * sh - pt).max(0) - 1) as usize)).collect() };
                    for (at, cnt, i) in parts {
                        let (m, s2) = (*ms.get(i).ok_or("too few mult")?, *shs.get(i).ok_or("too few shift")?);
                        st.compute.push(Inst::new("v.requant", Some("i8")).i("dst", so + at).i("src", ob + at).i("rows", cnt).i("mult", m).i("shift", s2).i("zp", zp).i("min", lo).i("max", hi));
                    }
                }
                st.stores.push(Inst::new("dma.store", Some("i8")).with("dst", dst).i("src", so).i("rows", n).i("cols", kc).i("stride", c));
            } else {
                st.stores.push(Inst::new("dma.storeacc", Some("f32")).with("dst", dst).i("src", ob).i("rows", n).i("cols", kc).i("stride", c * 4));
            }
            steps.push(st);
            t += 1;
        }
    }
    pipeline::emit(l.out, prologue, steps, &[Release::Exec], true);
    Ok(())
}

/// `npu.layernorm` and `npu.softmax`: rows of the innermost dim (`c` values,
/// `nb` accumulator rows each, one per block of lanes) stream through the
/// accumulator a chunk of rows at a time, block by block. The lane
/// reductions (`v.hsum`, `v.hmax`, over the block's valid lanes only) leave
/// each row's statistic in every lane, so the shift and scale of a row are
/// plain elementwise ops between a block's rows and the statistic's rows.
pub fn row_norm(l: &mut Layer, body: &Body, op: OpId, ins: &[Dram], out: &Dram) -> Result<(), String> {
    let lanes = lanes_of(l.hw);
    // The reductions name their lanes whenever a block is narrower than a row.
    let row_width = l.hw.array_cols as i64;
    let o = body.op(op);
    let xs = shape(body, o.operand(0));
    let c = *xs.last().ok_or("a scalar to normalize")?;
    if xs.contains(&0) {
        return Err("an empty tensor to normalize".into());
    }
    let n = xs.iter().product::<i64>() / c.max(1);
    let nb = (c + lanes - 1) / lanes;
    let ln = body.name(op).as_str() == npu::ops::LAYERNORM;
    let x_d = ins.first().ok_or("input not in DRAM")?.clone();
    // Constant rows: 1/c and epsilon (LayerNorm), then the scale and bias rows unless they are 1 and 0.
    let mut prologue = vec![];
    let mut fixed = 0;
    let mut per_channel = |l: &mut Layer, v: Option<Value>, trivial: f64, what: &str| -> Result<Option<i64>, String> {
        let Some(v) = v else { return Ok(None) };
        let vals = super::const_values(body, v)?;
        if vals.iter().all(|x| *x == trivial) {
            return Ok(None);
        }
        let row: Vec<f32> = (0..nb * lanes).map(|k| vals.get(k as usize).copied().unwrap_or(0.0) as f32).collect();
        const_rows(l, &mut prologue, fixed, &row, lanes, what);
        fixed += nb;
        Ok(Some(fixed - nb))
    };
    let (scale, bias) = if ln { (per_channel(l, o.operands().get(1).copied(), 1.0, "scale")?, per_channel(l, o.operands().get(2).copied(), 0.0, "bias")?) } else { (None, None) };
    let splat0 = fixed;
    if ln {
        let eps = body.op(op).float_attr("epsilon").unwrap_or(1e-5) as f32;
        const_rows(l, &mut prologue, splat0, &splat_rows(&[1.0 / c as f32, eps], lanes), lanes, "splats");
        fixed += 2;
    }
    // Two slots of a chunk of `t` rows: the blocks, the statistic, a temporary.
    let per_row = 2 * (nb + 2);
    let t = ((l.hw.acc_rows as i64 - fixed) / per_row).min(n).max(1);
    if fixed + per_row * t > l.hw.acc_rows as i64 {
        return Err(format!("a row of {} values needs {} accumulator rows; the target has {}", c, fixed + per_row, l.hw.acc_rows));
    }
    let slot = (nb + 2) * t;
    for k in 0..2 {
        l.buffers.push(npu::asm::Buffer::acc(&format!("rows.{}", k), fixed + k * slot, slot, "f32"));
    }
    let f32i = |m: &'static str| Inst::new(m, Some("f32"));
    let mut steps = vec![];
    let (mut r0, mut k) = (0, 0);
    while r0 < n {
        let cnt = t.min(n - r0);
        let base = fixed + (k % 2) * slot;
        let block = |cb: i64| base + cb * t;
        let (stat, tmp) = (base + nb * t, base + (nb + 1) * t);
        let kc = |cb: i64| (c - cb * lanes).min(lanes);
        let dma = |m: &'static str, cb: i64| {
            let at = x_d.at(((r0 * c) + cb * lanes) * 4);
            let at_out = out.at(((r0 * c) + cb * lanes) * 4);
            let i = if m == "dma.loadacc" { f32i(m).i("dst", block(cb)).with("src", at) } else { f32i(m).with("dst", at_out).i("src", block(cb)) };
            let i = i.i("rows", cnt).i("cols", kc(cb));
            if cnt > 1 && c != kc(cb) { i.i("stride", c * 4) } else { i }
        };
        let bin = |m: &'static str, d: i64, a: i64, b: i64| f32i(m).i("dst", d).i("a", a).i("b", b).i("rows", cnt);
        let bcast = |m: &'static str, d: i64, b: i64| bin(m, d, d, b).with("bcast", Operand::Flag);
        let un = |m: &'static str, d: i64, s: i64| f32i(m).i("dst", d).i("src", s).i("rows", cnt);
        let reduce = |m: &'static str, d: i64, s: i64, cb: i64| {
            let i = un(m, d, s);
            if kc(cb) < row_width { i.i("lanes", kc(cb)) } else { i }
        };
        // The statistic of every row into `stat`: the reduction of block 0,
        // then each further block's reduced in `tmp` and combined; with
        // `square`, each block's squares (in `tmp`) are what is reduced.
        let statistic = |v: &mut Vec<Inst>, m: &'static str, combine: &'static str, square: bool| {
            for cb in 0..nb {
                let src = if square {
                    v.push(bin("v.mul", tmp, block(cb), block(cb)));
                    tmp
                } else {
                    block(cb)
                };
                if cb == 0 {
                    v.push(reduce(m, stat, src, cb));
                } else {
                    v.push(reduce(m, tmp, src, cb));
                    v.push(bin(combine, stat, stat, tmp));
                }
            }
        };
        let mut s = Step::default();
        s.loads.push((0, (0..nb).map(|cb| dma("dma.loadacc", cb)).collect()));
        let v = &mut s.compute;
        if ln {
            statistic(v, "v.hsum", "v.add", false);
            v.push(bcast("v.mul", stat, splat0));
            v.extend((0..nb).map(|cb| bin("v.sub", block(cb), block(cb), stat)));
            statistic(v, "v.hsum", "v.add", true);
            v.push(bcast("v.mul", stat, splat0));
            v.push(bcast("v.add", stat, splat0 + 1));
            v.push(un("v.rsqrt", stat, stat));
            for cb in 0..nb {
                v.push(bin("v.mul", block(cb), block(cb), stat));
                v.extend(scale.map(|r| bcast("v.mul", block(cb), r + cb)));
                v.extend(bias.map(|r| bcast("v.add", block(cb), r + cb)));
            }
        } else {
            statistic(v, "v.hmax", "v.max", false);
            for cb in 0..nb {
                v.push(bin("v.sub", block(cb), block(cb), stat));
                v.push(un("v.exp", block(cb), block(cb)));
            }
            statistic(v, "v.hsum", "v.add", false);
            v.push(un("v.recip", stat, stat));
            v.extend((0..nb).map(|cb| bin("v.mul", block(cb), block(cb), stat)));
        }
        s.stores = (0..nb).map(|cb| dma("dma.storeacc", cb)).collect();
        steps.push(s);
        r0 += cnt;
        k += 1;
    }
    pipeline::emit(l.out, prologue, steps, &[Release::Store], false);
    Ok(())
}

/// `npu.lut`: int8 rows streamed through the scratchpad, each mapped in place
/// by one `v.lut` through the 256-entry table loaded once into the
/// accumulator (`⌈256 / lanes⌉` rows), and stored from the same slot.
pub fn lut(l: &mut Layer, body: &Body, op: OpId, ins: &[Dram], out: &Dram) -> Result<(), String> {
    if l.hw.vector_lut == 0 {
        return Err(format!("target '{}' has no v.lut (vector.lut = false: npu16 revision 2)", l.hw.name));
    }
    let lanes = lanes_of(l.hw);
    let table = body.op(op).ints_attr("table").filter(|t| t.len() == 256).ok_or("npu.lut without its 256-entry table")?;
    let n: i64 = shape(body, body.op(op).result(0)).iter().product();
    let flat = runs_of_rows(n, lanes);
    let trows = 256 / lanes + (256 % lanes != 0) as i64;
    if trows > l.hw.acc_rows as i64 {
        return Err(format!("the table needs {} accumulator rows; the target has {}", trows, l.hw.acc_rows));
    }
    let mut entries: Vec<i32> = table.iter().map(|v| *v as i32).collect();
    entries.resize((trows * lanes) as usize, 0);
    let t_d = l.consts.push_i32(&entries);
    // Chunks of at most 512 rows, so loads, lookups and stores overlap.
    let chunk = flat.rows.min(512).min(l.hw.spad_rows as i64 / 2).max(1);
    l.buffers.push(npu::asm::Buffer::acc("table", 0, trows, "i32"));
    for k in 0..2 {
        l.buffers.push(npu::asm::Buffer::spad(&format!("rows.{}", k), k * chunk, chunk, "i8"));
    }
    let prologue = vec![Inst::new("dma.loadacc", Some("i32")).i("dst", 0).with("src", t_d.at(0)).i("rows", trows).i("cols", lanes)];
    let mut steps = vec![];
    let (mut r0, mut t) = (0, 0);
    while r0 < flat.rows {
        let cnt = chunk.min(flat.rows - r0);
        let slot = (t % 2) * chunk;
        let mut s = Step::default();
        s.loads.push((0, flat.dmas("dma.load", slot, &ins[0], r0, cnt)));
        s.compute.push(Inst::new("v.lut", Some("i8")).i("dst", slot).i("src", slot).i("table", 0).i("rows", cnt));
        s.stores = flat.dmas("dma.store", slot, out, r0, cnt);
        steps.push(s);
        r0 += cnt;
        t += 1;
    }
    pipeline::emit(l.out, prologue, steps, &[Release::Store], false);
    Ok(())
}
