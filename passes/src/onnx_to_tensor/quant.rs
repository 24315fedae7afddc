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

pub const TABLE: &[(&str, LowerFn)] = &[("onnx.QuantizeLinear", quantize), ("onnx.DequantizeLinear", dequantize)];

/// The map reading a scale or zero point: scalar, or 1-D along `axis`.
fn param_map(l: &Lower, v: Value, rank: usize) -> Result<AffineMap, String> {
    let info = l.info(v)?;
    if info.numel() == 1 {
        return Ok(AffineMap { num_dims: rank as u32, num_syms: 0, results: vec![super::c(0); info.rank()] });
    }
    if info.rank() != 1 || l.int_attr("block_size", 0) != 0 {
        return Err("blocked quantization is not supported yet".into());
    }
    let ax = axis(l.int_attr("axis", 1), rank)?;
    Ok(dims_map(rank, &[ax]))
}

fn quantize(l: &mut Lower) -> Result<Vec<Value>, String> {
    let Operands { ins, maps, shape, xsc, ssc, osc, zp } = operands(l)?;
    if osc.is_float() {
        return Err(format!("quantizing to {} is not supported yet", osc.ty));
    }
    let saturate_bounds = match (osc.kind, osc.width()) {
        (Kind::Unsigned, w) => (0.0, 2f64.powi(w as i32) - 1.0),
        (_, w) => (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0),
    };
    let has_zp = zp.is_some();
    Ok(vec![l.map_op(&shape, &osc.ty.clone(), &ins, maps, move |e, a| {
        let f = if ssc.ty == e.ctx.f64() { ssc.clone() } else { Sc { ty: e.ctx.f32(), kind: Kind::Float } };
        let xv = e.cast(a[0], &xsc, &f);
        let sv = e.cast(a[1], &ssc, &f);
        let q = e.div(xv, sv, &f);
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
