//! QuantizeLinear and DequantizeLinear, per tensor or per axis (blocked
//! quantization is not supported yet): y = saturate(round_half_even(x / s) + zp)
//! and x = (q - zp) * s, computed in f32 (f64 for f64 scales).

use onnx::ops;
use super::{axis, dims_map, Kind, Lower, LowerFn, Sc};
use ir::affine::AffineMap;
use ir::Value;

/// The operands both ops read: x, the scale and the optional zero point, with
/// their maps, and the element kinds involved.
struct Operands {
    ins: Vec<Value>,
    maps: Vec<AffineMap>,
    shape: Vec<i64>,
    xsc: super::Sc,
    ssc: super::Sc,
    osc: super::Sc,
    zp: Option<Value>,
}

fn operands(l: &mut Lower) -> Result<Operands, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let r = xi.rank();
    let (x, scale) = (l.operand(0)?, l.operand(1)?);
    let ssc = l.in_info(1)?.sc;
    let mut ins = vec![x, scale];
    let mut maps = vec![AffineMap::identity(r as u32), param_map(l, scale, r)?];
    let zp = l.opt(2);
    if let Some(z) = zp {
        ins.push(z);
        maps.push(param_map(l, z, r)?);
    }
    Ok(Operands { ins, maps, shape: out.shape, xsc: xi.sc, ssc, osc: out.sc, zp })
}

pub const TABLE: &[(&str, LowerFn)] = &[
    (ops::QuantizeLinear::NAME, quantize),
    (ops::DequantizeLinear::NAME, dequantize),
    (ops::DynamicQuantizeLinear::NAME, dynamic_quantize),
    (ops::QLinearMatMul::NAME, qlinear_matmul),
    (ops::ms::QGemm::NAME, qgemm),
    (ops::ms::QLinearSoftmax::NAME, qlinear_softmax),
];

fn all_zeros(rank: usize, n: usize) -> AffineMap {
    AffineMap { num_dims: n as u32, num_syms: 0, results: vec![super::c(0); rank] }
}

/// The range [lo, hi] of an integer element kind.
pub(super) fn int_range(sc: &super::Sc) -> (f64, f64) {
    match (sc.kind, sc.width()) {
        (Kind::Unsigned, w) => (0.0, 2f64.powi(w as i32) - 1.0),
        (_, w) => (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0),
    }
}

/// DynamicQuantizeLinear: uint8 with scale (max(0, max x) − min(0, min x)) / 255
/// and zero point round(−min / scale), saturated; all three outputs.
fn dynamic_quantize(l: &mut Lower) -> Result<Vec<Value>, String> {
    let x = l.operand(0)?;
    let u8s = l.out_info(0)?.sc;
    let (y, scale, zp) = dynamic_quantize_values(l, x, &u8s)?;
    Ok(vec![y, scale, zp])
}

/// `x` (float) quantized to uint8 over all its elements: the quantized tensor,
/// its scale and its zero point (rank 0). As ONNX Runtime computes them: an
/// all-zero `x` gets scale 1 (not 0, which would divide by zero).
pub(super) fn dynamic_quantize_values(l: &mut Lower, x: Value, u8s: &Sc) -> Result<(Value, Value, Value), String> {
    use super::reduce::{reduce, Combine};
    let xi = l.info(x)?;
    let r = xi.rank();
    let all: Vec<usize> = (0..r).collect();
    let f = xi.sc.clone();
    let mx = reduce(l, x, &all, false, Combine::Max, &f, |_, v| v);
    let mn = reduce(l, x, &all, false, Combine::Min, &f, |_, v| v);
    let f1 = f.clone();
    let scale = l.map_op(&[], &f.ty.clone(), &[mx, mn], vec![AffineMap::identity(0), AffineMap::identity(0)], move |e, a| {
        let z = e.scalar(0.0, &f1);
        let hi = e.max(a[0], z, &f1);
        let lo = e.min(a[1], z, &f1);
        let d = e.sub(hi, lo, &f1);
        let k = e.scalar(255.0, &f1);
        let s = e.div(d, k, &f1);
        let one = e.scalar(1.0, &f1);
        let empty = e.cmp(super::Cmp::Eq, hi, lo, &f1);
        e.select(empty, one, s)
    });
    let (f2, u2) = (f.clone(), u8s.clone());
    let zp = l.map_op(&[], &u8s.ty.clone(), &[mn, scale], vec![AffineMap::identity(0), AffineMap::identity(0)], move |e, a| {
        let z = e.scalar(0.0, &f2);
        let lo = e.min(a[0], z, &f2);
        let q = e.sub(z, lo, &f2);
        let q = e.div(q, a[1], &f2);
        let q = e.op(math::ops::ROUNDEVEN, &[q], &f2.ty);
        let hi = e.scalar(255.0, &f2);
        let q = e.max(q, z, &f2);
        let q = e.min(q, hi, &f2);
        e.cast(q, &f2, &u2)
    });
    let (f3, u3) = (f.clone(), u8s.clone());
    let y = l.map_op(&xi.shape, &u8s.ty.clone(), &[x, scale, zp], vec![AffineMap::identity(r as u32), all_zeros(0, r), all_zeros(0, r)], move |e, a| {
        let q = e.div(a[0], a[1], &f3);
        let q = e.op(math::ops::ROUNDEVEN, &[q], &f3.ty);
        let z = e.cast(a[2], &u3, &f3);
        let q = e.add(q, z, &f3);
        let lo = e.scalar(0.0, &f3);
        let hi = e.scalar(255.0, &f3);
        let q = e.max(q, lo, &f3);
        let q = e.min(q, hi, &f3);
        e.cast(q, &f3, &u3)
    });
    Ok((y, scale, zp))
}

/// QLinearMatMul with per-tensor scales and zero points: the integer product
/// of (a − a_zp)(b − b_zp) in i32, requantized by a_scale · b_scale / y_scale.
fn qlinear_matmul(l: &mut Lower) -> Result<Vec<Value>, String> {
    let (a, sa, za, b, sb, zb, sy, zy) = (l.operand(0)?, l.operand(1)?, l.operand(2)?, l.operand(3)?, l.operand(4)?, l.operand(5)?, l.operand(6)?, l.operand(7)?);
    let q = super::int8::QParams { sx: sa, sw: sb, sy, zy: Some(zy) };
    if let Some(y) = super::int8::matmul(l, a, b, Some(za), Some(zb), None, false, super::int8::Tail::Requant(&q))? {
        return Ok(vec![y]);
    }
    for v in [sa, za, sb, zb, sy, zy] {
        if l.info(v)?.numel() != 1 {
            return Err("QLinearMatMul with per-row or per-column scales is not supported yet".into());
        }
    }
    let (ai, bi, out) = (l.in_info(0)?, l.in_info(3)?, l.out_info(0)?);
    let i32s = super::Sc { ty: l.ctx.i32(), kind: Kind::Signed };
    // The i32 product through the MatMulInteger path.
    let ro = out.rank();
    let (za0, zb0) = (super::shape::reshape(l, za, &[]), super::shape::reshape(l, zb, &[]));
    let k = ro;
    let n = ro + 1;
    let batch_out: Vec<i64> = out.shape[..ro - 2].to_vec();
    let bmap = |shape: &[i64], m: Vec<ir::affine::AffineExpr>| {
        let nb = shape.len() - 2;
        let mut res = super::broadcast_map(&shape[..nb], &batch_out).results;
        res.extend(m);
        AffineMap { num_dims: n as u32, num_syms: 0, results: res }
    };
    let a_map = bmap(&ai.shape, vec![super::d(ro - 2), super::d(k)]);
    let b_map = bmap(&bi.shape, vec![super::d(k), super::d(ro - 1)]);
    let mut iters = vec![tensor::Iterator::Parallel; ro];
    iters.push(tensor::Iterator::Reduction);
    let init = l.fill(&out.shape, &i32s, 0.0);
    let acc = super::linalg::contract(l, a, a_map, b, b_map, init, &iters, 1.0, (Some(za0), Some(zb0)));
    Ok(vec![super::int8::requantize(l, acc, AffineMap::identity(ro as u32), &q, ro - 1)?])
}

/// com.microsoft QGemm as `onnx-form-integer-products` writes it (A [M, K]
/// int8 or uint8, B constant symmetric int8, C int32, y quantized, alpha 1):
/// the VNNI kernel of `int8.rs`. ONNX Runtime's own QGemm nodes are expanded
/// into their QDQ group before this (`onnx-expand-qlinear-ops`).
fn qgemm(l: &mut Lower) -> Result<Vec<Value>, String> {
    let (a, sa, za, b, sb, zb) = (l.operand(0)?, l.operand(1)?, l.opt(2), l.operand(3)?, l.operand(4)?, l.opt(5));
    let (c, sy, zy) = (l.opt(6), l.opt(7), l.opt(8));
    let sy = sy.ok_or("com.microsoft QGemm with a float output runs as its QDQ group only")?;
    if l.int_attr("transA", 0) != 0 || l.float_attr("alpha", 1.0) != 1.0 {
        return Err("com.microsoft QGemm with transA or alpha != 1 runs as its QDQ group only".into());
    }
    let q = super::int8::QParams { sx: sa, sw: sb, sy, zy };
    let trans_b = l.int_attr("transB", 0) != 0;
    super::int8::matmul(l, a, b, za, zb, c, trans_b, super::int8::Tail::Requant(&q))?.map(|y| vec![y]).ok_or_else(|| "com.microsoft QGemm: the integer kernel does not take these operands (constant int8 or uint8 B, a per-tensor A zero point, K a multiple of 4)".into())
}

/// com.microsoft QLinearSoftmax as ONNX Runtime computes it: the exponentials
/// of its lookup table, `f32(exp((x − max + shift) · x_scale))` in f64 with
/// `shift = max(0, ln(FLT_MAX / n) − 5) / x_scale` for a row of n elements,
/// summed in f32 in row order, and `y = round_half_even(e · floor(1 / y_scale)
/// / sum) + y_zp`, saturated. The x zero point cancels. Opset 13 reduces over
/// `axis`, older opsets over every dim from `axis` (the `opset` attribute).
fn qlinear_softmax(l: &mut Lower) -> Result<Vec<Value>, String> {
    let (x, xs, ys) = (l.operand(0)?, l.operand(1)?, l.operand(3)?);
    let yz = l.opt(4);
    for v in [Some(xs), Some(ys), yz].into_iter().flatten() {
        if l.info(v)?.numel() != 1 {
            return Err("QLinearSoftmax's scales and zero points must be per tensor".into());
        }
    }
    let xi = l.in_info(0)?;
    let r = xi.rank();
    let opset = l.int_attr("opset", 13);
    let axis = l.int_attr("axis", if opset < 13 { 1 } else { -1 });
    let axis = super::axis(axis, r)?;
    let red: Vec<usize> = if opset < 13 { (axis..r).collect() } else { vec![axis] };
    let n: i64 = red.iter().map(|&k| xi.shape[k]).product();
    // ONNX Runtime's headroom: the row's sum of exponentials stays below FLT_MAX.
    let base = ((f32::MAX / n.max(1) as f32) as f64).ln();
    let base = (base - 5.0).max(0.0);
    let xsc = xi.sc.clone();
    let xmax = super::reduce::reduce(l, x, &red, true, super::reduce::Combine::Max, &xsc, |_, v| v);
    let f = Sc { ty: l.ctx.f32(), kind: Kind::Float };
    let f64s = Sc { ty: l.ctx.f64(), kind: Kind::Float };
    let ssc = l.info(xs)?.sc;
    let keep = super::reduce::out_map(r, &red, true);
    let id = AffineMap::identity(r as u32);
    let (xsc2, f2, d2, s2) = (xsc.clone(), f.clone(), f64s.clone(), ssc.clone());
    // The exponential depends on x − max alone (−255..0): with a constant
    // scale, a table of its 256 values made here by the same f64 formula, one
    // load per element instead of an f64 exp.
    if let Some(scale) = onnx::infer::const_f64s_upto(l.body, xs, 1).filter(|v| v.len() == 1).map(|v| v[0]) {
        let table: Vec<f32> = (-255i32..=0).map(|dv| ((dv as f64 + base / scale) * scale).exp() as f32).collect();
        let ty = l.tensor_type(&[256], &f.ty);
        let bytes = table.iter().flat_map(|v| v.to_le_bytes()).collect();
        let t = l.emit().constant(ir::Attribute::new(ir::attributes::AttrData::Dense { ty, data: ir::attributes::DenseData::canonical(bytes, 4, 256) }));
        let e = l.map_op(&xi.shape, &f.ty.clone(), &[x, xmax], vec![id.clone(), keep.clone()], move |e, a| {
            let i32s = Sc { ty: e.ctx.i32(), kind: Kind::Signed };
            let (v, m) = (e.cast(a[0], &xsc2, &i32s), e.cast(a[1], &xsc2, &i32s));
            let diff = e.sub(v, m, &i32s);
            let k = e.scalar(255.0, &i32s);
            let at = e.add(diff, k, &i32s);
            let it = e.ctx.index();
            let at = e.index_cast(at, &it, false);
            e.extract(t, &[at])
        });
        return qlinear_softmax_out(l, e, &red, &keep, ys, yz, r);
    }
    let e = l.map_op(&xi.shape, &f.ty.clone(), &[x, xmax, xs], vec![id.clone(), keep.clone(), all_zeros(l.info(xs)?.rank(), r)], move |e, a| {
        let i32s = Sc { ty: e.ctx.i32(), kind: Kind::Signed };
        let (v, m) = (e.cast(a[0], &xsc2, &i32s), e.cast(a[1], &xsc2, &i32s));
        let diff = e.sub(v, m, &i32s);
        let diff = e.cast(diff, &i32s, &d2);
        let scale = e.cast(a[2], &s2, &d2);
        let b = e.scalar(base, &d2);
        let shift = e.div(b, scale, &d2);
        let t = e.add(diff, shift, &d2);
        let t = e.mul(t, scale, &d2);
        let ex = e.op(math::ops::EXP, &[t], &d2.ty);
        e.cast(ex, &d2, &f2)
    });
    qlinear_softmax_out(l, e, &red, &keep, ys, yz, r)
}

/// QLinearSoftmax's second half: the row sums of the exponentials `e`, and
/// `y = round_half_even(e · floor(1 / y_scale) / sum) + y_zp`, saturated.
fn qlinear_softmax_out(l: &mut Lower, e: Value, red: &[usize], keep: &AffineMap, ys: Value, yz: Option<Value>, r: usize) -> Result<Vec<Value>, String> {
    let f = Sc { ty: l.ctx.f32(), kind: Kind::Float };
    let xi = l.info(e)?;
    let id = AffineMap::identity(r as u32);
    let keep = keep.clone();
    let f3 = f.clone();
    let sum = super::reduce::reduce(l, e, red, true, super::reduce::Combine::Add, &f, |_, v| v);
    let osc = l.out_info(0)?.sc;
    let (lo, hi) = int_range(&osc);
    let ysc = l.info(ys)?.sc;
    let mut ins = vec![e, sum, ys];
    let mut maps = vec![id, keep, all_zeros(l.info(ys)?.rank(), r)];
    if let Some(z) = yz {
        ins.push(z);
        maps.push(all_zeros(l.info(z)?.rank(), r));
    }
    let zsc = yz.map(|z| l.info(z).map(|i| i.sc)).transpose()?;
    let o2 = osc.clone();
    Ok(vec![l.map_op(&xi.shape, &osc.ty.clone(), &ins, maps, move |e, a| {
        let one = e.scalar(1.0, &f3);
        let s = e.cast(a[2], &ysc, &f3);
        let inv = e.div(one, s, &f3);
        let inv = e.op(math::ops::FLOOR, &[inv], &f3.ty);
        let p = e.mul(a[0], inv, &f3);
        let q = e.div(p, a[1], &f3);
        let mut q = e.op(math::ops::ROUNDEVEN, &[q], &f3.ty);
        if let Some(zs) = &zsc {
            let z = e.cast(a[3], zs, &f3);
            q = e.add(q, z, &f3);
        }
        let (l0, h0) = (e.scalar(lo, &f3), e.scalar(hi, &f3));
        let q = e.max(q, l0, &f3);
        let q = e.min(q, h0, &f3);
        e.cast(q, &f3, &o2)
    })])
}

/// The map reading a scale or zero point: scalar, or 1-D along `axis`.
fn param_map(l: &Lower, v: Value, rank: usize) -> Result<AffineMap, String> {
    let info = l.info(v)?;
    if info.numel() == 1 {
        return Ok(AffineMap { num_dims: rank as u32, num_syms: 0, results: vec![super::c(0); info.rank()] });
    }
    let ax = axis(l.int_attr("axis", 1), rank)?;
    let block = l.int_attr("block_size", 0);
    if block > 0 {
        // Blocked: the scale has the input's rank, one entry per `block` elements along the axis.
        if info.rank() != rank {
            return Err(format!("a blocked scale or zero point of rank {} for an input of rank {}", info.rank(), rank));
        }
        let res = (0..rank).map(|i| if i == ax { ir::affine::AffineExpr::FloorDiv(Box::new(super::d(i)), Box::new(super::c(block))) } else { super::d(i) }).collect();
        return Ok(super::expr_map(rank, res));
    }
    if info.rank() != 1 {
        return Err(format!("a scale or zero point of shape {:?} is neither per tensor nor per axis", info.shape));
    }
    Ok(dims_map(rank, &[ax]))
}

fn quantize(l: &mut Lower) -> Result<Vec<Value>, String> {
    let Operands { ins, maps, shape, xsc, ssc, osc, zp } = operands(l)?;
    if osc.is_float() {
        return Err(format!("quantizing to {} is not supported yet", osc.ty));
    }
    let saturate_bounds = int_range(&osc);
    let has_zp = zp.is_some();
    // An 8-/4-bit float output is x / s (+ zp) rounded by the cast itself, with
    // the op's `saturate` (ONNX: y = saturate(x / s + zp) without integer rounding).
    let mini = matches!(osc.kind, Kind::Mini(_));
    let saturate = l.int_attr("saturate", 1) != 0;
    Ok(vec![l.map_op(&shape, &osc.ty.clone(), &ins, maps, move |e, a| {
        let f = if ssc.ty == e.ctx.f64() { ssc.clone() } else { Sc { ty: e.ctx.f32(), kind: Kind::Float } };
        let xv = e.cast(a[0], &xsc, &f);
        let sv = e.cast(a[1], &ssc, &f);
        let q = e.div(xv, sv, &f);
        if mini {
            let q = if has_zp {
                let zv = e.cast(a[2], &osc, &f);
                e.add(q, zv, &f)
            } else {
                q
            };
            return e.cast_saturating(q, &f, &osc, saturate);
        }
        let q = e.op(math::ops::ROUNDEVEN, &[q], &f.ty);
        let q = if has_zp {
            let zv = e.cast(a[2], &osc, &f);
            e.add(q, zv, &f)
        } else {
            q
        };
        let lo = e.scalar(saturate_bounds.0, &f);
        let hi = e.scalar(saturate_bounds.1, &f);
        let q = e.max(q, lo, &f);
        let q = e.min(q, hi, &f);
        e.cast(q, &f, &osc)
    })])
}

fn dequantize(l: &mut Lower) -> Result<Vec<Value>, String> {
    let Operands { ins, maps, shape, xsc, ssc, osc, zp } = operands(l)?;
    if xsc.is_float() {
        return Err(format!("dequantizing {} is not supported yet", xsc.ty));
    }
    let has_zp = zp.is_some();
    Ok(vec![l.map_op(&shape, &osc.ty.clone(), &ins, maps, move |e, a| {
        let f = if osc.ty == e.ctx.f64() { osc.clone() } else { Sc { ty: e.ctx.f32(), kind: Kind::Float } };
        let mut q = e.cast(a[0], &xsc, &f);
        if has_zp {
            let zv = e.cast(a[2], &xsc, &f);
            q = e.sub(q, zv, &f);
        }
        let sv = e.cast(a[1], &ssc, &f);
        let y = e.mul(q, sv, &f);
        e.cast(y, &f, &osc)
    })])
}
