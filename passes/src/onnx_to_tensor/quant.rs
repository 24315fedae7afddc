//! QuantizeLinear and DequantizeLinear, per tensor or per axis (blocked
//! quantization is not supported yet): y = saturate(round_half_even(x / s) + zp)
//! and x = (q - zp) * s, computed in f32 (f64 for f64 scales).

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
    ("onnx.QuantizeLinear", quantize),
    ("onnx.DequantizeLinear", dequantize),
    ("onnx.DynamicQuantizeLinear", dynamic_quantize),
    ("onnx.QLinearMatMul", qlinear_matmul),
];

fn all_zeros(rank: usize, n: usize) -> AffineMap {
    AffineMap { num_dims: n as u32, num_syms: 0, results: vec![super::c(0); rank] }
}

/// The range [lo, hi] of an integer element kind.
fn int_range(sc: &super::Sc) -> (f64, f64) {
    match (sc.kind, sc.width()) {
        (Kind::Unsigned, w) => (0.0, 2f64.powi(w as i32) - 1.0),
        (_, w) => (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0),
    }
}

/// DynamicQuantizeLinear: uint8 with scale (max(0, max x) − min(0, min x)) / 255
/// and zero point round(−min / scale), saturated; all three outputs.
fn dynamic_quantize(l: &mut Lower) -> Result<Vec<Value>, String> {
    use super::reduce::{reduce, Combine};
    let xi = l.in_info(0)?;
    let x = l.operand(0)?;
    let r = xi.rank();
    let all: Vec<usize> = (0..r).collect();
    let f = xi.sc.clone();
    let mx = reduce(l, x, &all, false, Combine::Max, &f, |_, v| v);
    let mn = reduce(l, x, &all, false, Combine::Min, &f, |_, v| v);
    let u8s = l.out_info(0)?.sc;
    let f1 = f.clone();
    let scale = l.map_op(&[], &f.ty.clone(), &[mx, mn], vec![AffineMap::identity(0), AffineMap::identity(0)], move |e, a| {
        let z = e.scalar(0.0, &f1);
        let hi = e.max(a[0], z, &f1);
        let lo = e.min(a[1], z, &f1);
        let d = e.sub(hi, lo, &f1);
        let k = e.scalar(255.0, &f1);
        e.div(d, k, &f1)
    });
    let (f2, u2) = (f.clone(), u8s.clone());
    let zp = l.map_op(&[], &u8s.ty.clone(), &[mn, scale], vec![AffineMap::identity(0), AffineMap::identity(0)], move |e, a| {
        let z = e.scalar(0.0, &f2);
        let lo = e.min(a[0], z, &f2);
        let q = e.sub(z, lo, &f2);
        let q = e.div(q, a[1], &f2);
        let q = e.op("math.roundeven", &[q], &f2.ty);
        let hi = e.scalar(255.0, &f2);
        let q = e.max(q, z, &f2);
        let q = e.min(q, hi, &f2);
        e.cast(q, &f2, &u2)
    });
    let (f3, u3) = (f.clone(), u8s.clone());
    let y = l.map_op(&xi.shape, &u8s.ty.clone(), &[x, scale, zp], vec![AffineMap::identity(r as u32), all_zeros(0, r), all_zeros(0, r)], move |e, a| {
        let q = e.div(a[0], a[1], &f3);
        let q = e.op("math.roundeven", &[q], &f3.ty);
        let z = e.cast(a[2], &u3, &f3);
        let q = e.add(q, z, &f3);
        let lo = e.scalar(0.0, &f3);
        let hi = e.scalar(255.0, &f3);
        let q = e.max(q, lo, &f3);
        let q = e.min(q, hi, &f3);
        e.cast(q, &f3, &u3)
    });
    Ok(vec![y, scale, zp])
}

/// QLinearMatMul with per-tensor scales and zero points: the integer product
/// of (a − a_zp)(b − b_zp) in i32, requantized by a_scale · b_scale / y_scale.
fn qlinear_matmul(l: &mut Lower) -> Result<Vec<Value>, String> {
    let (a, sa, za, b, sb, zb, sy, zy) = (l.operand(0)?, l.operand(1)?, l.operand(2)?, l.operand(3)?, l.operand(4)?, l.operand(5)?, l.operand(6)?, l.operand(7)?);
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
    let (ssc, ysc, osc) = (l.in_info(1)?.sc, l.in_info(6)?.sc, out.sc.clone());
    let (ssb, zsc) = (l.in_info(4)?.sc, l.in_info(7)?.sc);
    let range = int_range(&osc);
    let zeros = |rank: usize| all_zeros(rank, ro);
    let maps = vec![AffineMap::identity(ro as u32), zeros(l.info(sa)?.rank()), zeros(l.info(sb)?.rank()), zeros(l.info(sy)?.rank()), zeros(l.info(zy)?.rank())];
    Ok(vec![l.map_op(&out.shape, &osc.ty.clone(), &[acc, sa, sb, sy, zy], maps, move |e, x| {
        let f = super::Sc { ty: e.ctx.f32(), kind: Kind::Float };
        let v = e.cast(x[0], &i32s, &f);
        let (p, q, r) = (e.cast(x[1], &ssc, &f), e.cast(x[2], &ssb, &f), e.cast(x[3], &ysc, &f));
        let m = e.mul(p, q, &f);
        let m = e.div(m, r, &f);
        let y = e.mul(v, m, &f);
        let y = e.op("math.roundeven", &[y], &f.ty);
        let z = e.cast(x[4], &zsc, &f);
        let y = e.add(y, z, &f);
        let lo = e.scalar(range.0, &f);
        let hi = e.scalar(range.1, &f);
        let y = e.max(y, lo, &f);
        let y = e.min(y, hi, &f);
        e.cast(y, &f, &osc)
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
        let q = e.op("math.roundeven", &[q], &f.ty);
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
