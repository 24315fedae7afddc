//! Int8 convolutions and matrix products as integer kernels, the way ONNX
//! Runtime's MLAS runs them: unsigned × signed bytes multiplied in groups of
//! four and accumulated in int32 (AVX-512 VNNI's `vpdpbusd`, emitted by
//! `tensor_to_loops/contraction.rs` for the product built here), then one
//! tail: a requantization (QLinearConv, QLinearMatMul, QGemm) or the int32
//! result itself (ConvInteger, MatMulInteger).
//!
//! The operands are laid out for the instruction at compile time:
//! - the weights (constant int8 or uint8) as signed bytes `w' = w − wo`
//!   (`wo` 128 for uint8, else 0), packed so that 16 output channels × 4
//!   reduction elements are 64 consecutive bytes: `[kh, kw, C/4, M, 4]` for a
//!   Conv, `[K/4, N, 4]` for a matrix product;
//! - the activations made unsigned, `u = x + off` (`off` 128 for int8: one
//!   xor), a Conv's channels-last with its padding (the zero point) and its
//!   channels rounded up to a multiple of four, so that four channels of one
//!   pixel are one word.
//!
//! With `u0 = zx + off` and `cm = zw − wo` per output channel, the product
//! the op asks for is exact in int32:
//! `Σ (x − zx)(w − zw) = Σ (u − u0)(w' − cm) = Σ u·w' − u0·Σ(w − zw) − cm·Σ u`.
//! The second term is folded into the int32 bias when `zx` is a constant, or
//! taken off in the tail when it is computed at run time (DynamicQuantize-
//! Linear's); the third, for asymmetric weights only, reads `Σ u` from one
//! more output channel whose weights are all ones.
//!
//! Anything else (weights that are not constant, a per-axis activation zero
//! point, grouped convs, a host without VNNI) returns `None`, and the generic
//! integer lowering runs it.

use super::{add, c, d, dims_map, expr_map, mul, Kind, Lower, Sc};
use ir::affine::{AffineExpr, AffineMap};
use ir::attributes::{AttrData, Attribute, DenseData};
use ir::Value;
use tensor::Iterator;

/// The scales of a QLinear product and its output's zero point (the
/// operands' zero points go to the product itself).
pub(super) struct QParams {
    pub sx: Value,
    pub sw: Value,
    pub sy: Value,
    pub zy: Option<Value>,
}

/// How the product leaves the kernel: requantized into the output's type,
/// or as the int32 accumulator the *Integer ops return.
pub(super) enum Tail<'a> {
    Requant(&'a QParams),
    Int32,
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

/// The activations' zero point made unsigned, `u0 = zx + off`.
enum Origin {
    /// Known at compile time: folded into the bias.
    Const(i64),
    /// Computed at run time (a 0-d tensor of x's type, `zx` itself): taken
    /// off in the tail.
    Runtime(Value),
}

fn origin(l: &mut Lower, z: Option<Value>, off: i64) -> Option<Origin> {
    if let Some(k) = scalar_zero_point(l, z) {
        return Some(Origin::Const(k + off));
    }
    let z = z?;
    (l.info(z).ok()?.numel() == 1).then(|| Origin::Runtime(super::shape::reshape(l, z, &[])))
}

/// Constant int8 or uint8 weights as the kernel's signed bytes `w − wo`, and
/// per output channel `zw − wo` (all 0 for symmetric int8 weights): the
/// weights' zero point per tensor or per output channel.
pub(super) struct Weights {
    vals: Vec<i8>,
    corr: Vec<i64>,
}

impl Weights {
    fn of(l: &Lower, w: Value, zw: Option<Value>, channels: i64) -> Option<Weights> {
        let sc = l.info(w).ok()?.sc;
        let z = match zw {
            None => vec![0],
            Some(z) => onnx::infer::const_ints(l.body, z)?,
        };
        Weights::new(&onnx::infer::const_8bit(l.body, w)?, &sc, &z, channels)
    }
    /// From the weights' values (int8 or uint8 `sc`) and their zero points
    /// (one, or one per output channel).
    pub(super) fn new(vals: &[i16], sc: &Sc, z: &[i64], channels: i64) -> Option<Weights> {
        let wo = match (sc.kind, sc.width()) {
            (Kind::Signed, 8) => 0,
            (Kind::Unsigned, 8) => 128,
            _ => return None,
        };
        if z.len() != 1 && z.len() as i64 != channels {
            return None;
        }
        let vals = vals.iter().map(|&v| (v - wo as i16) as i8).collect();
        let corr = (0..channels as usize).map(|m| z[if z.len() == 1 { 0 } else { m }] - wo).collect();
        Some(Weights { vals, corr })
    }
    /// Whether `Σ u` is needed: one more output channel of ones.
    fn ones(&self) -> i64 {
        self.corr.iter().any(|&c| c != 0) as i64
    }
}

/// An optional int32 bias's values: Some(None) without one, None when it is
/// not a constant (the generic lowering then runs the op).
fn bias_values(l: &Lower, bias: Option<Value>) -> Option<Option<Vec<i64>>> {
    match bias {
        Some(v) => onnx::infer::const_ints(l.body, v).map(Some),
        None => Some(None),
    }
}

/// The int32 bias per output channel (the ones channel's 0 after them),
/// less `u0 · colsum` when `u0` is a constant (None past int32).
fn folded_bias(bias: Option<&[i64]>, colsum: &[i64], u0: &Origin, ones: i64) -> Option<Vec<i32>> {
    let zeros = vec![0; colsum.len()];
    let b = bias.unwrap_or(&zeros);
    if b.len() != colsum.len() {
        return None;
    }
    let u = if let Origin::Const(u) = u0 { *u } else { 0 };
    let mut out: Vec<i32> = b.iter().zip(colsum).map(|(b, s)| i32::try_from(b - u * s).ok()).collect::<Option<_>>()?;
    out.extend((0..ones).map(|_| 0));
    Some(out)
}

fn constant(l: &mut Lower, shape: &[i64], elem: ir::Type, width: usize, bytes: Vec<u8>) -> Value {
    let ty = l.tensor_type(shape, &elem);
    let n = shape.iter().product::<i64>() as usize;
    l.emit().constant(Attribute::new(AttrData::Dense { ty, data: DenseData::canonical(bytes, width, n) }))
}

fn i32_constant(l: &mut Lower, v: &[i64]) -> Value {
    let bytes = v.iter().flat_map(|&b| (b as i32).to_le_bytes()).collect();
    let i32t = l.ctx.i32();
    constant(l, &[v.len() as i64], i32t, 4, bytes)
}

/// The accumulator `shape` holding the folded bias along dim `chan`.
fn bias_init(l: &mut Lower, shape: &[i64], bias: &[i32], chan: usize) -> Value {
    let i32t = l.ctx.i32();
    let b = i32_constant(l, &bias.iter().map(|&b| b as i64).collect::<Vec<_>>());
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
        e.op(arith::ops::XORI, &[a[0], k], &t)
    })
}

/// The value a padded position must hold, `u0` as a byte.
fn pad_value(l: &mut Lower, u0: &Origin, off: i64) -> Value {
    let i8t = l.ctx.int_type(8);
    match u0 {
        Origin::Const(u) => l.emit().int(*u as u8 as i8 as i128, &i8t),
        Origin::Runtime(z) => {
            let mut e = l.emit();
            let z = e.extract(*z, &[]);
            if off == 0 {
                return z;
            }
            let k = e.int(-128, &i8t);
            e.op(arith::ops::XORI, &[z, k], &i8t)
        }
    }
}

/// The row length of packed weights of `n` columns: past a multiple of 1 KiB
/// (256 columns of 4 bytes) one 64-byte line more, so that the k rows a tile
/// walks do not all fall into the same few L1 sets (a 1024-wide product ran
/// at half the speed of a 1040-wide one).
fn row_stride(n: i64) -> i64 {
    if (n * 4) % 1024 == 0 { n + 16 } else { n }
}

/// `acc += extui(u) · extsi(s)` over loops `iters`: the product the
/// contraction kernel runs as `vpdpbusd`.
fn byte_product(l: &mut Lower, u: Value, s: Value, init: Value, maps: Vec<AffineMap>, iters: &[Iterator]) -> Value {
    l.generic(&[u, s], &[init], maps, iters, |e, a| {
        let i32t = e.ctx.i32();
        let x = e.op(arith::ops::EXTUI, &[a[0]], &i32t);
        let w = e.op(arith::ops::EXTSI, &[a[1]], &i32t);
        let p = e.op(arith::ops::MULI, &[x, w], &i32t);
        vec![e.op(arith::ops::ADDI, &[a[2], p], &i32t)]
    })[0]
}

/// Conv (one group, 2-D) on the integer kernel: Some(y) or None (see the
/// module doc). `window` is (strides, dilations, padding before, padding after).
#[allow(clippy::too_many_arguments)]
pub(super) fn conv(l: &mut Lower, x: Value, w: Value, zx: Option<Value>, zw: Option<Value>, bias: Option<Value>, tail: Tail, window: [&[i64]; 4]) -> Result<Option<Value>, String> {
    if !crate::host_has_vnni() {
        return Ok(None);
    }
    let (xi, wi, out) = (l.info(x)?, l.info(w)?, l.out_info(0)?);
    if xi.rank() != 4 || wi.rank() != 4 || l.int_attr("group", 1) != 1 || wi.shape[1] != xi.shape[1] {
        return Ok(None);
    }
    let m = wi.shape[0];
    let Some(off) = offset(&xi.sc) else { return Ok(None) };
    let (Some(u0), Some(wv)) = (origin(l, zx, off), Weights::of(l, w, zw, m)) else { return Ok(None) };
    let [strides, dilations, before, after] = window;
    let (n, cin, h, wd) = (xi.shape[0], xi.shape[1], xi.shape[2], xi.shape[3]);
    let (kh, kw) = (wi.shape[2], wi.shape[3]);
    let (oh, ow) = (out.shape[2], out.shape[3]);
    let c4 = (cin + 3) / 4 * 4;
    let ones = wv.ones();
    let mt = m + ones;
    let pointwise = kh == 1 && kw == 1 && strides.iter().all(|&s| s == 1) && before.iter().chain(after).all(|&p| p == 0);
    // The weights packed, the channels past C zero: [M, C/4, 4] for a 1x1
    // conv (positions along the lanes), else [kh, kw, C/4, M, 4]; the ones
    // channel last.
    let ms = if pointwise { mt } else { row_stride(mt) };
    let at = |mi: i64, ci: i64, a: i64, b: i64| if pointwise { mi * c4 + ci } else { (((a * kw + b) * (c4 / 4) + ci / 4) * ms + mi) * 4 + ci % 4 };
    let mut packed = vec![0u8; (kh * kw * c4 * ms) as usize];
    let mut colsum = vec![0i64; m as usize];
    for mi in 0..mt {
        for ci in 0..cin {
            for a in 0..kh {
                for b in 0..kw {
                    let v = if mi == m { 1 } else { wv.vals[(((mi * cin + ci) * kh + a) * kw + b) as usize] as i64 };
                    packed[at(mi, ci, a, b) as usize] = v as i8 as u8;
                    if mi < m {
                        colsum[mi as usize] += v - wv.corr[mi as usize];
                    }
                }
            }
        }
    }
    let Some(bias) = bias_values(l, bias) else { return Ok(None) };
    let out_sc = out.sc.clone();
    let Some(bias) = folded_bias(bias.as_deref(), &colsum, &u0, ones) else { return Ok(None) };
    let Some(fin) = Finish::of(l, tail, &u0, off, &colsum, &wv, &out_sc) else { return Ok(None) };
    let i8t = l.ctx.int_type(8);
    if pointwise {
        // A 1x1 conv keeps NCHW: the output positions along the vector lanes
        // (16 × 4 channels of x per load), the weights broadcast, and the
        // tail writes the output in order (a channels-last product of a
        // large map with few input channels spent its time transposing).
        let p = h * wd;
        let x3 = super::shape::reshape(l, x, &[n, cin, p]);
        let zero = l.emit().int(0, &i8t);
        let x3 = super::conv::pad_by(l, x3, &[0, 0, 0], &[0, c4 - cin, 0], zero);
        let xq = unsigned(l, x3, &[n, c4 / 4, p, 4], expr_map(4, vec![d(0), add(mul(d(1), 4), d(3)), d(2)]), off);
        let wp = constant(l, &[mt, c4 / 4, 4], i8t, 1, packed);
        let init = bias_init(l, &[n, mt, p], &bias, 1);
        // Loops: n, m, p | c/4, r.
        let maps = vec![expr_map(5, vec![d(0), d(3), d(2), d(4)]), expr_map(5, vec![d(1), d(3), d(4)]), expr_map(5, vec![d(0), d(1), d(2)])];
        let mut iters = vec![Iterator::Parallel; 3];
        iters.extend([Iterator::Reduction; 2]);
        let acc = byte_product(l, xq, wp, init, maps, &iters);
        let y = fin.emit(l, acc, &[n, m, p], AffineMap::identity(3), 1)?;
        return Ok(Some(super::shape::reshape(l, y, &out.shape)));
    }
    // Channels-last, unsigned, then padded with the zero point (made unsigned too).
    let xu = unsigned(l, x, &[n, h, wd, cin], expr_map(4, vec![d(0), d(3), d(1), d(2)]), off);
    let pad = pad_value(l, &u0, off);
    let xp = super::conv::pad_by(l, xu, &[0, before[0], before[1], 0], &[0, after[0], after[1], c4 - cin], pad);
    let p = oh * ow;
    let init = bias_init(l, &[n, p, mt], &bias, 2);
    let wp = constant(l, &[kh, kw, c4 / 4, ms, 4], i8t, 1, packed);
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
    // Into NCHW, walking the accumulator in order.
    let y = fin.emit(l, acc, &[n, m, p], expr_map(3, vec![d(0), d(2), d(1)]), 2)?;
    Ok(Some(super::shape::reshape(l, y, &out.shape)))
}

/// A matrix product `a · w` (`w` [K, N], or [N, K] when `trans_b`) plus an
/// int32 bias on the integer kernel: Some(y) or None (see the module doc).
/// `a` is [.., M, K] with the output's rank.
#[allow(clippy::too_many_arguments)]
pub(super) fn matmul(l: &mut Lower, a: Value, w: Value, za: Option<Value>, zw: Option<Value>, bias: Option<Value>, trans_b: bool, tail: Tail) -> Result<Option<Value>, String> {
    if !crate::host_has_vnni() {
        return Ok(None);
    }
    let (wi, out) = (l.info(w)?, l.out_info(0)?);
    if wi.rank() != 2 {
        return Ok(None);
    }
    let (k, nn) = if trans_b { (wi.shape[1], wi.shape[0]) } else { (wi.shape[0], wi.shape[1]) };
    let Some(mut wv) = Weights::of(l, w, zw, nn) else { return Ok(None) };
    if trans_b {
        wv.vals = (0..k * nn).map(|i| wv.vals[((i % nn) * k + i / nn) as usize]).collect();
    }
    let Some(bias) = bias_values(l, bias) else { return Ok(None) };
    matmul_of(l, a, &wv, k, za, bias.as_deref(), tail, &out.shape, &out.sc)
}

/// [`matmul`] of weights given by value, [K, N] row-major, into an output of
/// `out_shape` and element type `out_sc` (int32 for `Tail::Int32`).
#[allow(clippy::too_many_arguments)]
pub(super) fn matmul_of(l: &mut Lower, a: Value, wv: &Weights, k: i64, za: Option<Value>, bias: Option<&[i64]>, tail: Tail, out_shape: &[i64], out_sc: &Sc) -> Result<Option<Value>, String> {
    let ai = l.info(a)?;
    let r = out_shape.len();
    let nn = wv.corr.len() as i64;
    if !crate::host_has_vnni() || ai.rank() != r || r < 2 || k % 4 != 0 || ai.shape[r - 1] != k || out_shape[r - 1] != nn {
        return Ok(None);
    }
    let Some(off) = offset(&ai.sc) else { return Ok(None) };
    let Some(u0) = origin(l, za, off) else { return Ok(None) };
    let ones = wv.ones();
    let nt = nn + ones;
    let ns = row_stride(nt);
    // [K/4, N, 4], the ones column last.
    let mut packed = vec![0u8; (k * ns) as usize];
    let mut colsum = vec![0i64; nn as usize];
    for ki in 0..k {
        for ni in 0..nt {
            let v = if ni == nn { 1 } else { wv.vals[(ki * nn + ni) as usize] as i64 };
            packed[(((ki / 4) * ns + ni) * 4 + ki % 4) as usize] = v as i8 as u8;
            if ni < nn {
                colsum[ni as usize] += v - wv.corr[ni as usize];
            }
        }
    }
    let Some(bias) = folded_bias(bias, &colsum, &u0, ones) else { return Ok(None) };
    let Some(fin) = Finish::of(l, tail, &u0, off, &colsum, wv, out_sc) else { return Ok(None) };
    let au = unsigned(l, a, &ai.shape, AffineMap::identity(r as u32), off);
    let mut acc_shape = out_shape.to_vec();
    acc_shape[r - 1] = nt;
    let init = bias_init(l, &acc_shape, &bias, r - 1);
    let wp = constant(l, &[k / 4, ns, 4], l.ctx.int_type(8), 1, packed);
    // Loops: the output's dims | k/4, r.
    let (kq, kr) = (r, r + 1);
    let mut amap: Vec<_> = (0..r - 1).map(d).collect();
    amap.push(add(mul(d(kq), 4), d(kr)));
    let wmap = expr_map(r + 2, vec![d(kq), d(r - 1), d(kr)]);
    let omap = expr_map(r + 2, (0..r).map(d).collect());
    let mut iters = vec![Iterator::Parallel; r];
    iters.extend([Iterator::Reduction; 2]);
    let acc = byte_product(l, au, wp, init, vec![expr_map(r + 2, amap), wmap, omap], &iters);
    Ok(Some(fin.emit(l, acc, out_shape, AffineMap::identity(r as u32), r - 1)?))
}

/// The tail after the product: the run-time zero point's and the weights'
/// zero points' terms taken off (module doc), then the requantization or
/// nothing.
struct Finish {
    /// `u0` at run time (0-d, x's type), its offset and `Σ (w − zw)` per channel.
    runtime: Option<(Value, i64, Vec<i64>)>,
    /// `zw − wo` per channel, when the accumulator has a ones channel.
    corr: Option<Vec<i64>>,
    /// The requantization multipliers and output zero point, or none (int32 out).
    requant: Option<Requant>,
    /// The output's element type.
    out_sc: Sc,
}

impl Finish {
    fn of(l: &Lower, tail: Tail, u0: &Origin, off: i64, colsum: &[i64], w: &Weights, out_sc: &Sc) -> Option<Finish> {
        let requant = match tail {
            Tail::Requant(q) => Some(Requant::of(l, q, colsum.len() as i64)?),
            Tail::Int32 => None,
        };
        let runtime = match u0 {
            Origin::Runtime(z) => Some((*z, off, colsum.to_vec())),
            Origin::Const(_) => None,
        };
        Some(Finish { runtime, corr: (w.ones() == 1).then(|| w.corr.clone()), requant, out_sc: out_sc.clone() })
    }

    /// The output: the loops of `acc` but its channel dim `chan` cut to the
    /// real channels (acc read in order, so a transposing write walks it
    /// once); `out_map` places each element in the output of `out_shape`.
    fn emit(&self, l: &mut Lower, acc: Value, out_shape: &[i64], out_map: AffineMap, chan: usize) -> Result<Value, String> {
        let osc = self.out_sc.clone();
        let r = l.info(acc)?.rank();
        let i32s = Sc { ty: l.ctx.i32(), kind: Kind::Signed };
        let mut ins = vec![acc];
        let mut maps = vec![AffineMap::identity(r as u32)];
        let mut zsc = None;
        if let Some((z, off, colsum)) = &self.runtime {
            zsc = Some((l.info(*z)?.sc, *off));
            let cs = i32_constant(l, colsum);
            ins.extend([*z, cs]);
            maps.extend([expr_map(r, vec![]), dims_map(r, &[chan])]);
        }
        if let Some(corr) = &self.corr {
            // Σ u: the ones channel, just past the real ones.
            let mut sum_at: Vec<AffineExpr> = (0..r).map(d).collect();
            sum_at[chan] = c(corr.len() as i64);
            let cv = i32_constant(l, corr);
            ins.extend([acc, cv]);
            maps.extend([expr_map(r, sum_at), dims_map(r, &[chan])]);
        }
        if let Some(rq) = &self.requant {
            let bytes = rq.mult.iter().flat_map(|m| m.to_le_bytes()).collect();
            let mult = constant(l, &[rq.mult.len() as i64], l.ctx.f32(), 4, bytes);
            ins.push(mult);
            maps.push(dims_map(r, &[chan]));
        }
        let out = l.empty(out_shape, &osc.ty.clone());
        maps.push(out_map);
        let (corr, zy) = (self.corr.is_some(), self.requant.as_ref().map(|q| q.zy as f64));
        Ok(l.generic(&ins, &[out], maps, &vec![Iterator::Parallel; r], move |e, a| {
            let mut v = a[0];
            let mut next = 1;
            if let Some((zs, off)) = &zsc {
                let z = e.cast(a[next], zs, &i32s);
                let o = e.int(*off as i128, &i32s.ty);
                let u0 = e.add(z, o, &i32s);
                let t = e.mul(u0, a[next + 1], &i32s);
                v = e.sub(v, t, &i32s);
                next += 2;
            }
            if corr {
                let t = e.mul(a[next], a[next + 1], &i32s);
                v = e.sub(v, t, &i32s);
                next += 2;
            }
            match zy {
                None => vec![v],
                Some(zy) => {
                    let f = Sc { ty: e.ctx.f32(), kind: Kind::Float };
                    let y = e.cast(v, &i32s, &f);
                    let y = e.mul(y, a[next], &f);
                    let z = e.scalar(zy, &f);
                    vec![round_saturate(e, y, Some(z), &osc)]
                }
            }
        })[0])
    }
}

/// `round_half_even(y) + zy` (f32), saturated to `osc`'s range and converted
/// to it: the end of every requantization.
fn round_saturate(e: &mut super::Emit, y: Value, zy: Option<Value>, osc: &Sc) -> Value {
    let f = Sc { ty: e.ctx.f32(), kind: Kind::Float };
    let mut y = e.op(math::ops::ROUNDEVEN, &[y], &f.ty);
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
