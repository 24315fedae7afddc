//! Int8 convolutions and matrix products as integer kernels, the way ONNX
//! Runtime's MLAS runs them: unsigned × signed bytes multiplied in groups of
//! four and accumulated in int32 (AVX-512 VNNI's `vpdpbusd`, emitted by
//! `tensor_to_loops/contraction.rs` for the product built here), one
//! requantization at the end.
//!
//! The operands are laid out for the instruction at compile time:
//! - the weights (constant, int8, zero point 0) packed so that 16 output
//!   channels × 4 reduction elements are 64 consecutive bytes: `[kh, kw, C/4,
//!   M, 4]` for a Conv, `[K/4, N, 4]` for a matrix product;
//! - the activations made unsigned (`x + 128` for int8: one xor), a Conv's
//!   channels-last with its padding and its channels rounded up to a
//!   multiple of four, so that four channels of one pixel are one word;
//! - the zero point and the 128 taken off exactly, `Σ (x − zx)·w = Σ u·w −
//!   (zx + 128)·Σ w`, the second term folded into the int32 bias per output
//!   channel.
//!
//! Anything else (uint8 or asymmetric weights, weights that are not constant,
//! a per-axis activation zero point, grouped convs, a host without VNNI)
//! returns `None`, and the generic integer lowering runs it.

use super::{add, c, d, dims_map, expr_map, mul, Kind, Lower, Sc};
use ir::affine::{AffineExpr, AffineMap};
use ir::attributes::{AttrData, Attribute, DenseData};
use ir::Value;
use tensor::Iterator;

/// The scales and zero points of a QLinear product.
pub(super) struct QParams {
    pub sx: Value,
    pub zx: Option<Value>,
    pub sw: Value,
    pub zw: Option<Value>,
    pub sy: Value,
    pub zy: Option<Value>,
}

/// What makes an activation unsigned: +128 for int8, 0 for uint8.
fn offset(sc: &Sc) -> Option<i64> {
    match (sc.kind, sc.width()) {
        (Kind::Signed, 8) => Some(128),
        (Kind::Unsigned, 8) => Some(0),
        _ => None,
    }
}

/// The value of a per-tensor constant zero point (absent: 0).
fn scalar_zero_point(l: &Lower, z: Option<Value>) -> Option<i64> {
    match z {
        None => Some(0),
        Some(v) => onnx::infer::const_ints_upto(l.body, v, 1).filter(|x| x.len() == 1).map(|x| x[0]),
    }
}

/// The values of constant int8 weights whose zero points are all 0.
fn symmetric_weights(l: &Lower, w: Value, zw: Option<Value>) -> Option<Vec<i64>> {
    let wi = l.info(w).ok()?;
    if (wi.sc.kind, wi.sc.width()) != (Kind::Signed, 8) {
        return None;
    }
    if let Some(z) = zw {
        if onnx::infer::const_ints(l.body, z)?.iter().any(|&v| v != 0) {
            return None;
        }
    }
    onnx::infer::const_ints(l.body, w)
}

/// The int32 bias less `u0 · Σ w` per output channel (None past int32).
fn folded_bias(l: &Lower, bias: Option<Value>, sums: &[i64], u0: i64) -> Option<Vec<i32>> {
    let b = match bias {
        Some(v) => onnx::infer::const_ints(l.body, v).filter(|b| b.len() == sums.len())?,
        None => vec![0; sums.len()],
    };
    b.iter().zip(sums).map(|(b, s)| i32::try_from(b - u0 * s).ok()).collect()
}

fn constant(l: &mut Lower, shape: &[i64], elem: ir::Type, width: usize, bytes: Vec<u8>) -> Value {
    let ty = l.tensor_type(shape, &elem);
    let n = shape.iter().product::<i64>() as usize;
    l.emit().constant(Attribute::new(AttrData::Dense { ty, data: DenseData::canonical(bytes, width, n) }))
}

/// The accumulator `shape` holding the folded bias along dim `chan`.
fn bias_init(l: &mut Lower, shape: &[i64], bias: &[i32], chan: usize) -> Value {
    let i32t = l.ctx.i32();
    let bytes = bias.iter().flat_map(|b| b.to_le_bytes()).collect();
    let b = constant(l, &[bias.len() as i64], i32t.clone(), 4, bytes);
    let r = shape.len();
    l.map_op(shape, &i32t, &[b], vec![dims_map(r, &[chan])], |_, a| a[0])
}

/// `x`, made unsigned (xor 0x80 when `off` is 128), read through `map`.
fn unsigned(l: &mut Lower, x: Value, shape: &[i64], map: AffineMap, off: i64) -> Value {
    let i8t = l.ctx.int_type(8);
    let t = i8t.clone();
    l.map_op(shape, &i8t, &[x], vec![map], move |e, a| {
        if off == 0 {
            return a[0];
        }
        let k = e.int(-128, &t);
        e.op("arith.xori", &[a[0], k], &t)
    })
}

/// `acc += extui(u) · extsi(s)` over loops `iters`: the product the
/// contraction kernel runs as `vpdpbusd`.
fn byte_product(l: &mut Lower, u: Value, s: Value, init: Value, maps: Vec<AffineMap>, iters: &[Iterator]) -> Value {
    l.generic(&[u, s], &[init], maps, iters, |e, a| {
        let i32t = e.ctx.i32();
        let x = e.op("arith.extui", &[a[0]], &i32t);
        let w = e.op("arith.extsi", &[a[1]], &i32t);
        let p = e.op("arith.muli", &[x, w], &i32t);
        vec![e.op("arith.addi", &[a[2], p], &i32t)]
    })[0]
}

/// QLinearConv on the integer kernel: Some(y) or None (see the module doc).
/// `window` is (strides, dilations, padding before, padding after).
pub(super) fn conv(l: &mut Lower, x: Value, w: Value, bias: Option<Value>, q: &QParams, window: [&[i64]; 4]) -> Result<Option<Value>, String> {
    if !crate::host_has_vnni() {
        return Ok(None);
    }
    let (xi, wi, out) = (l.info(x)?, l.info(w)?, l.out_info(0)?);
    if xi.rank() != 4 || wi.rank() != 4 || l.int_attr("group", 1) != 1 || wi.shape[1] != xi.shape[1] {
        return Ok(None);
    }
    let (Some(off), Some(zx), Some(wv)) = (offset(&xi.sc), scalar_zero_point(l, q.zx), symmetric_weights(l, w, q.zw)) else { return Ok(None) };
    let [strides, dilations, before, after] = window;
    let (n, cin, h, wd) = (xi.shape[0], xi.shape[1], xi.shape[2], xi.shape[3]);
    let (m, kh, kw) = (wi.shape[0], wi.shape[2], wi.shape[3]);
    let (oh, ow) = (out.shape[2], out.shape[3]);
    let c4 = (cin + 3) / 4 * 4;
    let pointwise = kh == 1 && kw == 1 && strides.iter().all(|&s| s == 1) && before.iter().chain(after).all(|&p| p == 0);
    // The weights packed, the channels past C zero: [M, C/4, 4] for a 1x1
    // conv (positions along the lanes), else [kh, kw, C/4, M, 4].
    let mut packed = vec![0u8; (kh * kw * c4 * m) as usize];
    let mut sums = vec![0i64; m as usize];
    for mi in 0..m {
        for ci in 0..cin {
            for a in 0..kh {
                for b in 0..kw {
                    let v = wv[(((mi * cin + ci) * kh + a) * kw + b) as usize];
                    let at = if pointwise { mi * c4 + ci } else { (((a * kw + b) * (c4 / 4) + ci / 4) * m + mi) * 4 + ci % 4 };
                    packed[at as usize] = v as i8 as u8;
                    sums[mi as usize] += v;
                }
            }
        }
    }
    let u0 = zx + off;
    let (Some(bias), Some(rq)) = (folded_bias(l, bias, &sums, u0), Requant::of(l, q, m)) else { return Ok(None) };
    let i8t = l.ctx.int_type(8);
    if pointwise {
        // A 1x1 conv keeps NCHW: the output positions along the vector lanes
        // (16 × 4 channels of x per load), the weights broadcast, and the
        // requantization writes the output in order (a channels-last product
        // of a large map with few input channels spent its time transposing).
        let p = h * wd;
        let x3 = super::shape::reshape(l, x, &[n, cin, p]);
        let zxv = l.emit().int(zx as i128, &i8t);
        let x3 = super::nn::pad_by(l, x3, &[0, 0, 0], &[0, c4 - cin, 0], zxv);
        let xq = unsigned(l, x3, &[n, c4 / 4, p, 4], expr_map(4, vec![d(0), add(mul(d(1), 4), d(3)), d(2)]), off);
        let wp = constant(l, &[m, c4 / 4, 4], i8t, 1, packed);
        let init = bias_init(l, &[n, m, p], &bias, 1);
        // Loops: n, m, p | c/4, r.
        let maps = vec![expr_map(5, vec![d(0), d(3), d(2), d(4)]), expr_map(5, vec![d(1), d(3), d(4)]), expr_map(5, vec![d(0), d(1), d(2)])];
        let mut iters = vec![Iterator::Parallel; 3];
        iters.extend([Iterator::Reduction; 2]);
        let acc = byte_product(l, xq, wp, init, maps, &iters);
        let y = requantize_const(l, acc, &rq, &[n, m, p], AffineMap::identity(3), 1)?;
        return Ok(Some(super::shape::reshape(l, y, &out.shape)));
    }
    // Channels-last, unsigned, then padded with the zero point (made unsigned too).
    let xu = unsigned(l, x, &[n, h, wd, cin], expr_map(4, vec![d(0), d(3), d(1), d(2)]), off);
    let pad = l.emit().int(u0 as u8 as i8 as i128, &i8t);
    let xp = super::nn::pad_by(l, xu, &[0, before[0], before[1], 0], &[0, after[0], after[1], c4 - cin], pad);
    let p = oh * ow;
    let init = bias_init(l, &[n, p, m], &bias, 2);
    let wp = constant(l, &[kh, kw, c4 / 4, m, 4], i8t, 1, packed);
    // Loops: n, p = oh·OW + ow, m | kh, kw, c/4, r. The output positions are
    // the kernel's rows, flattened so that a 7×7 map makes 8 tiles of 6 rows
    // per panel of weights, not 7 tiles of 7 columns each re-reading them.
    let (row, col) = (AffineExpr::FloorDiv(Box::new(d(1)), Box::new(c(ow))), AffineExpr::Mod(Box::new(d(1)), Box::new(c(ow))));
    let xmap = expr_map(7, vec![d(0), add(mul(row, strides[0]), mul(d(3), dilations[0])), add(mul(col, strides[1]), mul(d(4), dilations[1])), add(mul(d(5), 4), d(6))]);
    let wmap = expr_map(7, vec![d(3), d(4), d(5), d(2), d(6)]);
    let omap = expr_map(7, vec![d(0), d(1), d(2)]);
    let mut iters = vec![Iterator::Parallel; 3];
    iters.extend([Iterator::Reduction; 4]);
    let acc = byte_product(l, xp, wp, init, vec![xmap, wmap, omap], &iters);
    // Requantized into NCHW, walking the accumulator in order.
    let y = requantize_const(l, acc, &rq, &[n, m, p], expr_map(3, vec![d(0), d(2), d(1)]), 2)?;
    Ok(Some(super::shape::reshape(l, y, &out.shape)))
}

/// A matrix product `a · w` (`w` [K, N], or [N, K] when `trans_b`) plus an
/// int32 bias on the integer kernel: Some(y) or None (see the module doc).
/// `a` is [.., M, K] with the output's rank.
pub(super) fn matmul(l: &mut Lower, a: Value, w: Value, bias: Option<Value>, trans_b: bool, q: &QParams) -> Result<Option<Value>, String> {
    if !crate::host_has_vnni() {
        return Ok(None);
    }
    let (ai, wi, out) = (l.info(a)?, l.info(w)?, l.out_info(0)?);
    let r = out.rank();
    if ai.rank() != r || r < 2 || wi.rank() != 2 {
        return Ok(None);
    }
    let (k, nn) = if trans_b { (wi.shape[1], wi.shape[0]) } else { (wi.shape[0], wi.shape[1]) };
    if k % 4 != 0 || ai.shape[r - 1] != k || out.shape[r - 1] != nn {
        return Ok(None);
    }
    let (Some(off), Some(za), Some(wv)) = (offset(&ai.sc), scalar_zero_point(l, q.zx), symmetric_weights(l, w, q.zw)) else { return Ok(None) };
    // [K/4, N, 4].
    let mut packed = vec![0u8; (k * nn) as usize];
    let mut sums = vec![0i64; nn as usize];
    for ki in 0..k {
        for ni in 0..nn {
            let v = wv[if trans_b { ni * k + ki } else { ki * nn + ni } as usize];
            packed[(((ki / 4) * nn + ni) * 4 + ki % 4) as usize] = v as i8 as u8;
            sums[ni as usize] += v;
        }
    }
    let (Some(bias), Some(rq)) = (folded_bias(l, bias, &sums, za + off), Requant::of(l, q, nn)) else { return Ok(None) };
    let au = unsigned(l, a, &ai.shape, AffineMap::identity(r as u32), off);
    let init = bias_init(l, &out.shape, &bias, r - 1);
    let wp = constant(l, &[k / 4, nn, 4], l.ctx.int_type(8), 1, packed);
    // Loops: the output's dims | k/4, r.
    let (kq, kr) = (r, r + 1);
    let mut amap: Vec<_> = (0..r - 1).map(d).collect();
    amap.push(add(mul(d(kq), 4), d(kr)));
    let wmap = expr_map(r + 2, vec![d(kq), d(r - 1), d(kr)]);
    let omap = expr_map(r + 2, (0..r).map(d).collect());
    let mut iters = vec![Iterator::Parallel; r];
    iters.extend([Iterator::Reduction; 2]);
    let acc = byte_product(l, au, wp, init, vec![expr_map(r + 2, amap), wmap, omap], &iters);
    Ok(Some(requantize_const(l, acc, &rq, &out.shape, AffineMap::identity(r as u32), r - 1)?))
}

/// `round_half_even(y) + zy` (f32), saturated to `osc`'s range and converted
/// to it: the end of every requantization.
fn round_saturate(e: &mut super::Emit, y: Value, zy: Option<Value>, osc: &Sc) -> Value {
    let f = Sc { ty: e.ctx.f32(), kind: Kind::Float };
    let mut y = e.op("math.roundeven", &[y], &f.ty);
    if let Some(z) = zy {
        y = e.add(y, z, &f);
    }
    let (lo, hi) = super::quant::int_range(osc);
    let (lv, hv) = (e.scalar(lo, &f), e.scalar(hi, &f));
    let y = e.max(y, lv, &f);
    let y = e.min(y, hv, &f);
    e.cast(y, &f, osc)
}

/// Constant requantization parameters: the multiplier `sx·sw / sy` per output
/// channel, computed in f32 in that order as the float formula below does,
/// and the output's zero point.
struct Requant {
    mult: Vec<f32>,
    zy: i64,
}

impl Requant {
    fn of(l: &Lower, q: &QParams, channels: i64) -> Option<Requant> {
        let one = |v: Value| onnx::infer::const_f64s_upto(l.body, v, 1).filter(|x| x.len() == 1).map(|x| x[0] as f32);
        let (sx, sy) = (one(q.sx)?, one(q.sy)?);
        let sw = onnx::infer::const_f64s(l.body, q.sw)?;
        if sw.len() != 1 && sw.len() as i64 != channels {
            return None;
        }
        let mult = (0..channels as usize).map(|i| sx * sw[if sw.len() == 1 { 0 } else { i }] as f32 / sy).collect();
        Some(Requant { mult, zy: scalar_zero_point(l, q.zy)? })
    }
}

/// `y = saturate(round_half_even(acc · mult[c]) + zy)` over the loops of
/// `acc` (read in order, so a transposing write walks it once): `out_map`
/// places each element in the output of `out_shape`, `chan` is acc's dim of
/// the output channel.
fn requantize_const(l: &mut Lower, acc: Value, rq: &Requant, out_shape: &[i64], out_map: AffineMap, chan: usize) -> Result<Value, String> {
    let osc = l.out_info(0)?.sc;
    let r = l.info(acc)?.rank();
    let f32t = l.ctx.f32();
    let bytes = rq.mult.iter().flat_map(|m| m.to_le_bytes()).collect();
    let mult = constant(l, &[rq.mult.len() as i64], f32t, 4, bytes);
    let out = l.empty(out_shape, &osc.ty.clone());
    let (zy, i32s) = (rq.zy as f64, Sc { ty: l.ctx.i32(), kind: Kind::Signed });
    let maps = vec![AffineMap::identity(r as u32), dims_map(r, &[chan]), out_map];
    Ok(l.generic(&[acc, mult], &[out], maps, &vec![Iterator::Parallel; r], move |e, a| {
        let f = Sc { ty: e.ctx.f32(), kind: Kind::Float };
        let v = e.cast(a[0], &i32s, &f);
        let y = e.mul(v, a[1], &f);
        let z = e.scalar(zy, &f);
        vec![round_saturate(e, y, Some(z), &osc)]
    })[0])
}

/// `y = saturate(round_half_even(acc · sx·sw / sy) + zy)` in the output's
/// type, as ONNX Runtime's QLinearConv and QLinearMatMul compute it: `acc`
/// read at the output's indices through `acc_map`, `sw` and `zy` per tensor
/// or per slice of the output's dim `chan`.
pub(super) fn requantize(l: &mut Lower, acc: Value, acc_map: AffineMap, q: &QParams, chan: usize) -> Result<Value, String> {
    let out = l.out_info(0)?;
    let r = out.rank();
    let per = |l: &Lower, v: Value| -> Result<AffineMap, String> {
        let i = l.info(v)?;
        if i.numel() == 1 {
            Ok(expr_map(r, vec![c(0); i.rank()]))
        } else if i.rank() == 1 && i.shape[0] == out.shape[chan] {
            Ok(dims_map(r, &[chan]))
        } else {
            Err(format!("{}'s scale or zero point of shape {:?} is neither per tensor nor per output channel", l.name().trim_start_matches("onnx."), i.shape))
        }
    };
    let mut ins = vec![acc, q.sx, q.sw, q.sy];
    let mut maps = vec![acc_map, per(l, q.sx)?, per(l, q.sw)?, per(l, q.sy)?];
    let mut scs = vec![l.info(q.sx)?.sc, l.info(q.sw)?.sc, l.info(q.sy)?.sc];
    if let Some(z) = q.zy {
        ins.push(z);
        maps.push(per(l, z)?);
        scs.push(l.info(z)?.sc);
    }
    let osc = out.sc.clone();
    let i32s = Sc { ty: l.ctx.i32(), kind: Kind::Signed };
    Ok(l.map_op(&out.shape, &osc.ty.clone(), &ins, maps, move |e, a| {
        let f = Sc { ty: e.ctx.f32(), kind: Kind::Float };
        let v = e.cast(a[0], &i32s, &f);
        let (p, q, s) = (e.cast(a[1], &scs[0], &f), e.cast(a[2], &scs[1], &f), e.cast(a[3], &scs[2], &f));
        let m = e.mul(p, q, &f);
        let m = e.div(m, s, &f);
        let y = e.mul(v, m, &f);
        let z = (a.len() > 4).then(|| e.cast(a[4], &scs[3], &f));
        round_saturate(e, y, z, &osc)
    }))
}
