//! `onnx-form-qlinear-ops`: the QDQ groups whose integer kernel in ONNX
//! Runtime computes differently from their float evaluation become that
//! kernel's `com.microsoft` operator, so a quantized model gives what ONNX
//! Runtime gives with its default graph optimizations (with them off, ONNX
//! Runtime evaluates the QDQ graph in float, as we would without this pass).
//!
//! One group so far: DequantizeLinear → Softmax → QuantizeLinear, per-tensor
//! constant scales and zero points, int8 or uint8 in and out, the Softmax read
//! by the QuantizeLinear alone, becomes `onnx.ms.QLinearSoftmax` (a lookup
//! table of exponentials and `floor(1 / y_scale)`: up to three output steps
//! from the float evaluation on a transformer block's attention). Groups that
//! ONNX Runtime fuses with the float evaluation's numerics (QGemm,
//! QLinearMatMul) are left alone.

use crate::ops;
use ir::attributes::Attribute;
use ir::pass::{Pass, PassContext};
use ir::{Body, InsertPoint, OpId, OperationState, Value};
use crate::dialect::{no_value, present_operand};

pub struct FormQLinearOps;

/// `v` is an `onnx.Constant` of one element.
fn scalar_constant(body: &Body, v: Value) -> bool {
    body.defining_op(v).is_some_and(|o| body.name(o).as_str() == ops::Constant::NAME) && body.value_type(v).shape().is_some_and(|s| s.iter().product::<i64>() == 1)
}

fn is_8bit(body: &Body, v: Value) -> bool {
    body.value_type(v).element_type().is_some_and(|e| e.int_width() == Some(8))
}

/// The group ending in QuantizeLinear `q`, as (DequantizeLinear, Softmax), if it is one.
fn softmax_group(body: &Body, q: OpId) -> Option<(OpId, OpId)> {
    let sm = body.defining_op(*body.op(q).operands().first()?)?;
    if body.name(sm).as_str() != ops::Softmax::NAME || body.uses(body.op(sm).result(0)).len() != 1 {
        return None;
    }
    let dq = body.defining_op(*body.op(sm).operands().first()?)?;
    if body.name(dq).as_str() != ops::DequantizeLinear::NAME {
        return None;
    }
    let x = body.op(dq).operands()[0];
    let y = body.op(q).result(0);
    let same = body.value_type(x).element_type() == body.value_type(y).element_type();
    let params = [present_operand(body, dq, 1), present_operand(body, dq, 2), present_operand(body, q, 1), present_operand(body, q, 2)];
    let per_tensor = params.iter().flatten().all(|v| scalar_constant(body, *v)) && params[0].is_some() && params[2].is_some();
    (same && is_8bit(body, x) && per_tensor).then_some((dq, sm))
}

/// Replaces the QDQ group ending in QuantizeLinear `q` around `op` by one
/// `name` op of `operands` (absent ones as `onnx.NoValue`) and `props`, at
/// `op`'s location: `q` and `op` go, and so do the DequantizeLinears that fed
/// `op` and nothing else.
pub fn replace_group(ctx: &ir::Context, body: &mut Body, q: OpId, op: OpId, name: &str, operands: &[Option<Value>], props: Vec<(ir::Ident, Attribute)>) {
    let operands: Vec<Value> = operands.iter().map(|v| v.unwrap_or_else(|| no_value(ctx, body, InsertPoint::Before(q), ir::Location::unknown()))).collect();
    let dqs: Vec<OpId> = body.op(op).operands().iter().filter_map(|v| body.defining_op(*v)).filter(|d| body.name(*d).as_str() == ops::DequantizeLinear::NAME).collect();
    let y = body.op(q).result(0);
    let ty = body.value_type(y).clone();
    let mut st = OperationState::new(ctx.op_name(name), body.op(op).loc.clone()).operands(&operands).results(&[ty]);
    for (k, v) in props {
        st.properties.set(k, v);
    }
    let fused = body.build(st, InsertPoint::Before(q));
    let r = body.op(fused).result(0);
    body.replace_all_uses(y, r);
    body.erase(q);
    body.erase(op);
    for d in dqs {
        if !body.is_erased(d) && !body.has_uses(body.op(d).result(0)) {
            body.erase(d);
        }
    }
}

impl Pass for FormQLinearOps {
    fn argument(&self) -> &'static str {
        "onnx-form-qlinear-ops"
    }
    fn display_name(&self) -> &'static str {
        "ONNXFormQLinearOps"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let mut formed = 0;
        for q in body.walk_preorder(root) {
            if body.is_erased(q) || body.name(q).as_str() != ops::QuantizeLinear::NAME {
                continue;
            }
            let Some((dq, sm)) = softmax_group(body, q) else { continue };
            let d = |i: usize| present_operand(body, dq, i);
            let operands = [d(0), d(1), d(2), present_operand(body, q, 1), present_operand(body, q, 2)];
            let axis = body.op(sm).properties.get("axis").and_then(|a| a.as_int()).unwrap_or(-1);
            // The Softmax is in its opset-13 form (older forms are normalized on import).
            let props = vec![(ctx.ident("axis"), Attribute::integer(axis as i128, ctx.i64())), (ctx.ident("opset"), Attribute::integer(13, ctx.i64()))];
            replace_group(ctx, body, q, sm, ops::ms::QLinearSoftmax::NAME, &operands, props);
            formed += 1;
        }
        cx.stat("num-formed", "QDQ groups formed into com.microsoft QLinear operators", formed);
        Ok(())
    }
}
