//! Weights with a zero point, as the array runs them. The array multiplies
//! int8 activations by int8 weights with no weight zero point; ONNX
//! Runtime's quantizer with `weight_type=QUInt8` (and older converters) write
//! uint8 weights with their own zero points. `w - zw` is a 9-bit value, so
//! before partitioning such a Conv (one group), MatMul or Gemm (in QDQ form)
//! or QLinearConv/QLinearMatMul becomes the same product over n = 2 (3 where
//! a difference is 255) times the reduction: the weights' differences split
//! into n symmetric int8 parts (`Σ_p ⌊(d + p) / n⌋ = d`, Hermite's
//! identity), the activation read n times (a Concat along the reduced axis,
//! an int8 move on the NPU). Every product is then exact in int8:
//! `Σ (x - zx)·d = Σ_p Σ (x - zx)·part_p`, and the zero-point folding,
//! padding and requantization stay as they are.

use onnx::ops;
use crate::quant::{self, elem};
use ir::attributes::Attribute;
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, OpId, Type, Value};
use onnx::builder::Builder;


/// What one product needs: where its activation (int8, scale, zero point)
/// and weights (values, scale, zero point) come from, where the reduction is
/// in each, and the weights' differences `w - zw`.
struct Plan {
    /// The activation: its int8 tensor, scale and zero point, and the operand it enters by.
    x: [Value; 3],
    x_operand: usize,
    /// The weights' DequantizeLinear (QDQ form), or the op's weight operands (QLinear form).
    w_dq: Option<OpId>,
    w: [Value; 3],
    w_operand: usize,
    w_axis: usize,
    x_axis: usize,
    shape: Vec<i64>,
    d: Vec<i64>,
    parts: usize,
}

fn plan(body: &Body, op: OpId) -> Option<Plan> {
    let o = body.op(op);
    let name = body.name(op);
    let int_attr = |k: &str, d: i64| o.int_attr(k).unwrap_or(d);
    let qlinear = matches!(name.as_str(), ops::QLinearConv::NAME | ops::QLinearMatMul::NAME);
    // The weights and their per-channel axis as a DequantizeLinear would give it.
    let (w_dq, w, w_operand, scales_axis) = if qlinear {
        let ops = o.operands();
        (None, [ops[3], ops[4], *ops.get(5)?], 3, None)
    } else {
        let d = quant::dq(body, *o.operands().get(1)?).ok()?;
        let ops = body.op(d.op).operands();
        (Some(d.op), [ops[0], ops[1], *ops.get(2)?], 1, Some(d.axis))
    };
    if !matches!(elem(body, w[0]).as_str(), "i8" | "ui8") || !super::target::is_constant(body, w[0]) {
        return None;
    }
    let zps = onnx::infer::const_ints(body, w[2])?;
    if zps.iter().all(|z| *z == 0) {
        return None;
    }
    let x = if qlinear {
        let ops = o.operands();
        (elem(body, ops[0]) == "i8").then_some([ops[0], ops[1], ops[2]])?
    } else {
        let d = quant::activation(body, o.operand(0)).ok()?;
        let ops = body.op(d.op).operands();
        [ops[0], ops[1], *ops.get(2)?]
    };
    let shape = body.value_type(w[0]).shape()?.to_vec();
    let x_rank = body.value_type(x[0]).shape()?.len();
    // (reduced axis of W, the axis of per-channel scales, reduced axis of the activation)
    let (w_axis, channel_axis, x_axis) = match name.as_str() {
        ops::Conv::NAME | ops::QLinearConv::NAME if int_attr("group", 1) == 1 && shape.len() == 4 => (1, 0, 1),
        ops::MatMul::NAME | ops::QLinearMatMul::NAME if shape.len() == 2 && x_rank >= 2 => (0, 1, x_rank - 1),
        ops::Gemm::NAME if int_attr("transA", 0) == 0 && shape.len() == 2 => {
            let t = int_attr("transB", 0) != 0;
            (t as usize, (!t) as usize, 1)
        }
        _ => return None,
    };
    if zps.len() != 1 && (zps.len() as i64 != shape[channel_axis] || scales_axis.is_some_and(|a| a != channel_axis as i64)) {
        return None;
    }
    let vals = onnx::infer::const_ints(body, w[0])?;
    let inner: i64 = shape[channel_axis + 1..].iter().product();
    let zp = |e: usize| if zps.len() == 1 { zps[0] } else { zps[(e as i64 / inner % shape[channel_axis]) as usize] };
    let d: Vec<i64> = vals.iter().enumerate().map(|(e, v)| v - zp(e)).collect();
    let parts = if d.iter().all(|v| (-256..=254).contains(v)) { 2 } else { 3 };
    Some(Plan { x, x_operand: 0, w_dq, w, w_operand, w_axis, x_axis, shape, d, parts })
}

fn tensor(ctx: &Context, shape: Vec<i64>, elem: Type) -> Type {
    ctx.intern_type(TypeData::RankedTensor { shape, elem, encoding: None })
}

/// The weights' differences as `parts` symmetric int8 parts, one after another along `axis`.
fn split(p: &Plan) -> Vec<u8> {
    let n = p.parts as i64;
    let outer: i64 = p.shape[..p.w_axis].iter().product();
    let (k, inner) = (p.shape[p.w_axis], p.shape[p.w_axis + 1..].iter().product::<i64>());
    let mut out = vec![0u8; p.d.len() * p.parts];
    for o in 0..outer {
        for q in 0..n {
            for kk in 0..k {
                for i in 0..inner {
                    let d = p.d[((o * k + kk) * inner + i) as usize];
                    out[((o * n * k + q * k + kk) * inner + i) as usize] = (d + q).div_euclid(n) as i8 as u8;
                }
            }
        }
    }
    out
}

/// Rewrites every product with weight zero points it can; returns how many.
pub fn rewrite(ctx: &Context, body: &mut Body, module: OpId) -> usize {
    const PRODUCTS: &[&str] = &[ops::Conv::NAME, ops::MatMul::NAME, ops::Gemm::NAME, ops::QLinearConv::NAME, ops::QLinearMatMul::NAME];
    let ops: Vec<OpId> = body.walk_preorder(module).into_iter().filter(|o| PRODUCTS.contains(&body.name(*o).as_str())).collect();
    let mut n = 0;
    for op in ops {
        let Some(p) = plan(body, op) else { continue };
        let (loc, parts) = (body.op(op).loc.clone(), p.parts);
        let mut wshape = p.shape.clone();
        wshape[p.w_axis] *= parts as i64;
        let mut xshape = body.value_type(p.x[0]).shape().unwrap().to_vec();
        xshape[p.x_axis] *= parts as i64;
        let zshape = body.value_type(p.w[2]).shape().map(|s| s.to_vec()).unwrap_or_default();
        let x_elem = body.value_type(p.x[0]).element_type().unwrap().clone();
        let one = tensor(ctx, body.value_type(p.x[0]).shape().unwrap().to_vec(), ctx.f32());
        let w_axis_attr: Vec<(&str, Attribute)> = p.w_dq.and_then(|d| body.op(d).attr("axis").cloned()).into_iter().map(|a| ("axis", a)).collect();
        let old_x = body.op(op).operand(p.x_operand);
        let (i8t, f32t) = (ctx.int_type(8), ctx.f32());
        let mut b = Builder::new(ctx, body, InsertPoint::Before(op), loc);
        let w8 = b.constant(i8t.clone(), wshape.clone(), split(&p));
        let zeros = b.constant(i8t.clone(), zshape.clone(), vec![0; zshape.iter().product::<i64>() as usize]);
        // The activation n times along its reduced axis, in QDQ form (an int8 move on the NPU).
        let dqs: Vec<Value> = (0..parts).map(|_| b.op(ops::DequantizeLinear::NAME, &p.x, &[one.clone()], &[])[0]).collect();
        let cat = b.op(ops::Concat::NAME, &dqs, &[tensor(ctx, xshape.clone(), f32t.clone())], &[("axis", Attribute::integer(p.x_axis as i128, ctx.i64()))])[0];
        let xq = b.op(ops::QuantizeLinear::NAME, &[cat, p.x[1], p.x[2]], &[tensor(ctx, xshape.clone(), x_elem)], &[])[0];
        if p.w_dq.is_some() {
            let wd = b.op(ops::DequantizeLinear::NAME, &[w8, p.w[1], zeros], &[tensor(ctx, wshape, f32t.clone())], &w_axis_attr)[0];
            let xd = b.op(ops::DequantizeLinear::NAME, &[xq, p.x[1], p.x[2]], &[tensor(ctx, xshape, f32t)], &[])[0];
            body.set_operand(op, p.x_operand, xd);
            body.set_operand(op, p.w_operand, wd);
        } else {
            body.set_operand(op, p.x_operand, xq);
            body.set_operand(op, p.w_operand, w8);
            body.set_operand(op, p.w_operand + 2, zeros);
        }
        body.op_mut(op).attributes.set(ctx.ident(backend::partition::REDUCTION_REPEATS_ATTR), Attribute::integer(parts as i128, ctx.i64()));
        for old in [body.defining_op(old_x), p.w_dq].into_iter().flatten() {
            if body.name(old).as_str() == ops::DequantizeLinear::NAME && !body.has_uses(body.op(old).result(0)) {
                body.erase(old);
            }
        }
        n += 1;
    }
    n
}
