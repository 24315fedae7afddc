//! Ops npu16 runs as chains of other ops, converted by writing the chain
//! out: a product too deep for the scratchpad as partial products over K,
//! and a bilinear Resize as edge padding and a depthwise transposed conv.

use onnx::builder::Builder;
use onnx::ops;
use super::{build, constant, f32_constant, i64s, replace_by_chain, shape, tensor};
use ir::attributes::Attribute;
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, OpId, Type};

/// An f32 product with constant B too deep for the scratchpad (a classifier's
/// FC over 9,216 or 25,088 inputs): A split along K by the DMA engines into
/// parts that fit, one product per part (the bias with the first) and a
/// chain of adds. Returns false (nothing done) for a product that fits.
pub(super) fn convert_deep_product(ctx: &Context, body: &mut Body, op: OpId) -> Result<bool, String> {
    let o = body.op(op);
    let (a, b) = (o.operand(0), o.operand(1));
    let (as_, bs) = (shape(body, a), shape(body, b));
    let f32_ = body.value_type(a).element_type().is_some_and(|e| e.to_string() == "f32");
    if !f32_ || as_.len() != 2 || bs.len() != 2 {
        return Ok(false);
    }
    let gemm = body.name(op).as_str() == ops::Gemm::NAME;
    let trans_b = gemm && o.attr("transB").and_then(|a| a.as_int()).unwrap_or(0) != 0;
    let (m, k) = (as_[0], as_[1]);
    let n = if trans_b { bs[0] } else { bs[1] };
    let mut module = op;
    while let Some(p) = body.parent_op(module) {
        module = p;
    }
    let hw = crate::target::module_hw(body, module)?;
    if crate::schedule::conv::product_fits(&hw, m, k, n) {
        return Ok(false);
    }
    let depth = crate::schedule::conv::max_product_depth(&hw, m, n);
    // B of [k, n] (or [n, k] given transposed), and a cut into two parts at least.
    let b_fits = if trans_b { bs == [n, k] } else { bs == [k, n] };
    if depth <= 0 || depth >= k || !b_fits {
        return Ok(false);
    }
    let Some(bv) = onnx::infer::const_f32s(body, b) else { return Ok(false) };
    let c = o.operands().get(2).copied().filter(|v| gemm && !matches!(body.value_type(*v).data(), TypeData::None));
    let (loc, at) = (o.loc.clone(), InsertPoint::Before(op));
    let ty = body.value_type(o.result(0)).clone();
    let sizes: Vec<i64> = (0..k).step_by(depth as usize).map(|s| depth.min(k - s)).collect();
    let split_ty: Vec<Type> = sizes.iter().map(|s| tensor(ctx, vec![m, *s], &ctx.f32())).collect();
    let mut bl = Builder::new(ctx, body, at, loc.clone());
    let sv = bl.i64s(&sizes);
    let split = ops::Split::build(&mut bl, a, Some(sv), &split_ty, &ops::SplitAttrs { axis: Some(1), ..Default::default() }).op();
    let mut chain = vec![split];
    let (mut acc, mut k0) = (None, 0);
    for (i, s) in sizes.iter().enumerate() {
        let rows: Vec<f32> = (k0..k0 + s).flat_map(|kk| (0..n).map(move |j| (kk, j))).map(|(kk, j)| bv[(if trans_b { j * k + kk } else { kk * n + j }) as usize]).collect();
        let bi = f32_constant(ctx, body, &rows, vec![*s, n], at, &loc);
        let part = body.op(split).result(i);
        let p = match (i, c) {
            (0, Some(c)) => build(ctx, body, ops::Gemm::NAME, &[part, bi, c], ty.clone(), vec![], at, &loc),
            _ => build(ctx, body, ops::MatMul::NAME, &[part, bi], ty.clone(), vec![], at, &loc),
        };
        chain.push(p);
        let pv = body.op(p).result(0);
        acc = Some(match acc {
            None => pv,
            Some(prev) => {
                let s = build(ctx, body, ops::Add::NAME, &[prev, pv], ty.clone(), vec![], at, &loc);
                chain.push(s);
                body.op(s).result(0)
            }
        });
        k0 += s;
    }
    replace_by_chain(ctx, body, op, acc.expect("at least one part"), &chain)?;
    Ok(true)
}

/// The taps of linear interpolation by an integer `factor` along one dim:
/// source pixel m reaches output f·m + r with weight w(r) for r = first..;
/// `half` for half_pixel coordinates ((j + ½)/f − ½), else asymmetric (j/f).
pub fn linear_taps(factor: i64, half: bool) -> (i64, Vec<f32>) {
    let f = factor as f64;
    let w = |r: i64| 1.0 - if half { ((r as f64 + 0.5) / f - 0.5).abs() } else { (r as f64 / f).abs() };
    let rs: Vec<i64> = (-factor..=2 * factor).filter(|r| w(*r) > 1e-9).collect();
    (rs.first().copied().unwrap_or(0), rs.iter().map(|r| w(*r) as f32).collect())
}

/// Bilinear upsampling by integer factors: the input with its edge rows and
/// columns repeated (DMA slices and concats, as linear interpolation clamps
/// at the borders), then a depthwise transposed convolution whose kernel is
/// the interpolation's weights (phase convolutions on the array).
pub(super) fn convert_bilinear(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let (loc, at) = (body.op(op).loc.clone(), InsertPoint::Before(op));
    let x = body.op(op).operand(0);
    let (xs, ys) = (shape(body, x), shape(body, body.op(op).result(0)));
    if xs.len() != 4 || ys.len() != 4 || xs[2] <= 0 || xs[3] <= 0 || ys[2] % xs[2] != 0 || ys[3] % xs[3] != 0 || ys[2] < xs[2] || ys[3] < xs[3] {
        return Err(format!("{}: linear Resize from {:?} to {:?}: integer upsampling of H and W only", body.op(op).loc, xs, ys));
    }
    let coord = body.op(op).str_attr("coordinate_transformation_mode").unwrap_or("half_pixel");
    let half = coord != "asymmetric";
    let f32t = |s: &[i64]| tensor(ctx, s.to_vec(), &ctx.f32());
    let i64c = |body: &mut Body, v: i64| constant(ctx, body, v.to_le_bytes().to_vec(), &ctx.i64(), vec![1], at, &loc);
    let mut ops = vec![];
    let mut v = x;
    let mut s = xs.clone();
    for axis in [2usize, 3] {
        let n = s[axis];
        let mut edge = |body: &mut Body, from: i64| {
            let (st, en, ax) = (i64c(body, from), i64c(body, from + 1), i64c(body, axis as i64));
            let mut es = s.clone();
            es[axis] = 1;
            let o = build(ctx, body, ops::Slice::NAME, &[v, st, en, ax], f32t(&es), vec![], at, &loc);
            ops.push(o);
            body.op(o).result(0)
        };
        let (first, last) = (edge(body, 0), edge(body, n - 1));
        s[axis] += 2;
        let c = build(ctx, body, ops::Concat::NAME, &[first, v, last], f32t(&s), vec![("axis", Attribute::integer(axis as i128, ctx.i64()))], at, &loc);
        ops.push(c);
        v = body.op(c).result(0);
    }
    let (fh, fw) = (ys[2] / xs[2], ys[3] / xs[3]);
    let ((rh, kh), (rw, kw)) = (linear_taps(fh, half), linear_taps(fw, half));
    let c = xs[1];
    let mut w = vec![];
    for _ in 0..c {
        for a in &kh {
            w.extend(kw.iter().map(|b| a * b));
        }
    }
    let (lh, lw) = (kh.len() as i64, kw.len() as i64);
    let w = f32_constant(ctx, body, &w, vec![c, 1, lh, lw], at, &loc);
    // Source m (padded m + 1) reaches output f·m + r: pads f − first before, f + taps − that after.
    let (bh, bw) = (fh - rh, fw - rw);
    let props = vec![
        ("group", Attribute::integer(c as i128, ctx.i64())),
        ("kernel_shape", i64s(ctx, &[lh, lw])),
        ("strides", i64s(ctx, &[fh, fw])),
        ("pads", i64s(ctx, &[bh, bw, fh + lh - bh, fw + lw - bw])),
    ];
    let t = build(ctx, body, ops::ConvTranspose::NAME, &[v, w], f32t(&ys), props, at, &loc);
    ops.push(t);
    let tv = body.op(t).result(0);
    replace_by_chain(ctx, body, op, tv, &ops)
}

/// PRelu as x − (1 − slope)·Min(x, 0): the slope one value or one per channel.
pub(super) fn convert_prelu(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let loc = o.loc.clone();
    let at = InsertPoint::Before(op);
    // x − (1 − slope)·Min(x, 0): the slope one value or one per channel.
    let (x, s) = (o.operand(0), o.operand(1));
    let ys = shape(body, o.result(0));
    let ty = body.value_type(o.result(0)).clone();
    let vals: Vec<f32> = onnx::infer::const_f64s(body, s).ok_or("PRelu slope is not constant")?.into_iter().map(|v| (1.0 - v) as f32).collect();
    let slope_shape = match vals.len() {
        1 => vec![1],
        n if ys.len() == 4 => vec![1, n as i64, 1, 1],
        n => [vec![1; ys.len() - 1], vec![n as i64]].concat(),
    };
    let slope = f32_constant(ctx, body, &vals, slope_shape, at, &loc);
    let zero = f32_constant(ctx, body, &[0.0], vec![1], at, &loc);
    let m = build(ctx, body, ops::Min::NAME, &[x, zero], ty.clone(), vec![], at, &loc);
    let mv = body.op(m).result(0);
    let p = build(ctx, body, ops::Mul::NAME, &[mv, slope], ty.clone(), vec![], at, &loc);
    let pv = body.op(p).result(0);
    let y = build(ctx, body, ops::Sub::NAME, &[x, pv], ty, vec![], at, &loc);
    let yv = body.op(y).result(0);
    replace_by_chain(ctx, body, op, yv, &[m, p, y])?;
    Ok(())
}

/// LRN: the squares' window sum a 1×1 convolution with banded weights, x^−β on the vector unit.
pub(super) fn convert_lrn(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let loc = o.loc.clone();
    let at = InsertPoint::Before(op);
    // x · (bias + alpha/size · Σ x²)^−beta, the sum over each channel's
    // window a 1×1 convolution with banded weights on the array.
    let x = o.operand(0);
    let xs = shape(body, x);
    if xs.len() != 4 {
        return Err(format!("{}: LRN of a {}-D tensor (NCHW only)", loc, xs.len()));
    }
    let ty = body.value_type(o.result(0)).clone();
    let float = |n: &str, d: f64| o.float_attr(n).unwrap_or(d);
    let (alpha, beta, bias) = (float("alpha", 1e-4), float("beta", 0.75), float("bias", 1.0));
    let size = body.op(op).int_attr("size").unwrap_or(1);
    let c = xs[1];
    let (lo, hi) = ((size - 1) / 2, size / 2);
    let mut w = vec![0f32; (c * c) as usize];
    for co in 0..c {
        for ci in (co - lo).max(0)..=(co + hi).min(c - 1) {
            w[(co * c + ci) as usize] = (alpha / size as f64) as f32;
        }
    }
    let w = f32_constant(ctx, body, &w, vec![c, c, 1, 1], at, &loc);
    let b = f32_constant(ctx, body, &vec![bias as f32; c as usize], vec![c], at, &loc);
    let e = f32_constant(ctx, body, &[-beta as f32], vec![1], at, &loc);
    let sq = build(ctx, body, ops::Mul::NAME, &[x, x], ty.clone(), vec![], at, &loc);
    let sqv = body.op(sq).result(0);
    let props = vec![("kernel_shape", i64s(ctx, &[1, 1])), ("strides", i64s(ctx, &[1, 1])), ("pads", i64s(ctx, &[0, 0, 0, 0]))];
    let z = build(ctx, body, ops::Conv::NAME, &[sqv, w, b], ty.clone(), props, at, &loc);
    let zv = body.op(z).result(0);
    let d = build(ctx, body, ops::Pow::NAME, &[zv, e], ty.clone(), vec![], at, &loc);
    let dv = body.op(d).result(0);
    let y = build(ctx, body, ops::Mul::NAME, &[x, dv], ty, vec![], at, &loc);
    let yv = body.op(y).result(0);
    replace_by_chain(ctx, body, op, yv, &[sq, z, d, y])?;
    Ok(())
}
