//! `onnx-form-integer-products` (CPU path): a QDQ group
//! `DequantizeLinear(x) → Conv / MatMul / Gemm → QuantizeLinear`, its weights
//! a DequantizeLinear of a constant, becomes the integer operator ONNX
//! Runtime fuses it into (QLinearConv, QLinearMatMul, com.microsoft QGemm),
//! which the CPU lowers as int8 products with int32 accumulation on VNNI
//! (`onnx_to_tensor/int8.rs`) instead of dequantizing every activation and
//! weight to f32.
//!
//! Formed only where that kernel takes it, as ONNX Runtime's QDQ selectors
//! check: x int8 or uint8 with a per-tensor constant scale and zero point;
//! weights constant int8 with zero points 0, their scale per tensor or per
//! output channel; a Conv 2-D and of one group; a bias, if any, constant int32 with zero point 0 and scale
//! `x_scale · w_scale` (within 1e-6 relative); Gemm with transA 0, alpha and
//! beta 1 and a bias of one value per column; MatMul with 2-D weights and K a
//! multiple of 4; the product read by the QuantizeLinear alone, whose scale
//! and zero point are per-tensor constants. Nothing is formed on a host
//! without VNNI (there the float kernels are the faster ones).

use onnx::ops;
use ir::attributes::Attribute;
use ir::pass::{Pass, PassContext};
use ir::{Body, OpId, Value};
use onnx::dialect::present_operand;
use onnx::infer::{const_f64s, const_ints, const_ints_upto};

pub struct FormIntegerProducts;

fn defined_by(body: &Body, v: Value, name: &str) -> Option<OpId> {
    body.defining_op(v).filter(|d| body.name(*d).as_str() == name)
}

fn int8_kind(body: &Body, v: Value) -> Option<bool> {
    match body.value_type(v).element_type()?.data() {
        ir::types::TypeData::Integer { width: 8, signedness } => Some(*signedness != ir::types::Signedness::Unsigned),
        _ => None,
    }
}

/// A per-tensor constant scale (and zero point, when given) of DQ/Q `op`.
fn per_tensor(body: &Body, op: OpId) -> Option<f64> {
    let s = const_f64s(body, present_operand(body, op, 1)?).filter(|s| s.len() == 1)?[0];
    match present_operand(body, op, 2) {
        Some(z) => const_ints_upto(body, z, 1).filter(|z| z.len() == 1).map(|_| s),
        None => Some(s),
    }
}

/// The scales of a DequantizeLinear of a constant int8 weight whose zero points
/// are 0: one, or one per slice of the weight's `channel_axis`.
fn weight_scales(body: &Body, dq: OpId, channel_axis: usize) -> Option<Vec<f64>> {
    let w = body.op(dq).operands()[0];
    let shape = body.value_type(w).shape()?.to_vec();
    if int8_kind(body, w) != Some(true) || defined_by(body, w, ops::Constant::NAME).is_none() {
        return None;
    }
    if let Some(z) = present_operand(body, dq, 2) {
        if const_ints(body, z)?.iter().any(|&v| v != 0) {
            return None;
        }
    }
    let s = const_f64s(body, present_operand(body, dq, 1)?)?;
    if s.len() == 1 {
        return Some(s);
    }
    let axis = body.op(dq).properties.get("axis").and_then(|a| a.as_int()).map_or(1, |v| v as i64);
    let axis = if axis < 0 { axis + shape.len() as i64 } else { axis };
    (axis == channel_axis as i64 && s.len() as i64 == shape[channel_axis]).then_some(s)
}

/// A bias: a DequantizeLinear of a constant int32 with zero point 0 and scale
/// `sx · sw` (per channel); its int32 constant.
fn int32_bias(body: &Body, v: Value, sx: f64, sw: &[f64], n: i64) -> Option<Value> {
    let dq = defined_by(body, v, ops::DequantizeLinear::NAME)?;
    let b = body.op(dq).operands()[0];
    let is_i32 = body.value_type(b).element_type().and_then(|e| e.int_width()) == Some(32);
    if !is_i32 || defined_by(body, b, ops::Constant::NAME).is_none() || body.value_type(b).shape()? != [n] {
        return None;
    }
    if let Some(z) = present_operand(body, dq, 2) {
        if const_ints(body, z)?.iter().any(|&v| v != 0) {
            return None;
        }
    }
    let s = const_f64s(body, present_operand(body, dq, 1)?)?;
    let ok = (0..n as usize).all(|i| {
        let (want, got) = (sx * sw[if sw.len() == 1 { 0 } else { i }], s[if s.len() == 1 { 0 } else { i }]);
        (want - got).abs() <= 1e-6 * want.abs()
    });
    ok.then_some(b)
}

/// The integer operator for the group ending in QuantizeLinear `q`: (name,
/// operands, the product op to copy attributes from), if it is one.
fn group(body: &Body, q: OpId) -> Option<(&'static str, Vec<Option<Value>>, OpId)> {
    let y = body.op(q).operands()[0];
    let op = body.defining_op(y)?;
    let name = body.name(op).as_str();
    if !matches!(name, ops::Conv::NAME | ops::MatMul::NAME | ops::Gemm::NAME) || body.uses(y).len() != 1 {
        return None;
    }
    per_tensor(body, q)?;
    int8_kind(body, body.op(q).result(0))?;
    let ops = body.op(op).operands().to_vec();
    let dqx = defined_by(body, ops[0], ops::DequantizeLinear::NAME)?;
    let dqw = defined_by(body, *ops.get(1)?, ops::DequantizeLinear::NAME)?;
    let x = body.op(dqx).operands()[0];
    int8_kind(body, x)?;
    let sx = per_tensor(body, dqx)?;
    let w = body.op(dqw).operands()[0];
    let wshape = body.value_type(w).shape()?.to_vec();
    let int = |n: &str, d: i64| body.op(op).properties.get(n).and_then(|a| a.as_int()).map_or(d, |v| v as i64);
    let flt = |n: &str| body.op(op).properties.get(n).and_then(|a| a.as_float()).unwrap_or(1.0);
    let (kind, channel_axis, n) = match name {
        // Grouped convs (depthwise) have no integer kernel of their own yet: their float one is faster.
        ops::Conv::NAME if int("group", 1) == 1 && wshape.len() == 4 => (ops::QLinearConv::NAME, 0, wshape[0]),
        ops::MatMul::NAME if wshape.len() == 2 && wshape[0] % 4 == 0 => (ops::QLinearMatMul::NAME, 1, wshape[1]),
        ops::Gemm::NAME if int("transA", 0) == 0 && flt("alpha") == 1.0 && flt("beta") == 1.0 && wshape.len() == 2 => {
            let tb = int("transB", 0) != 0;
            let (k, n) = if tb { (wshape[1], wshape[0]) } else { (wshape[0], wshape[1]) };
            if k % 4 != 0 {
                return None;
            }
            (ops::ms::QGemm::NAME, if tb { 0 } else { 1 }, n)
        }
        _ => return None,
    };
    let sw = weight_scales(body, dqw, channel_axis)?;
    let bias = match present_operand(body, op, 2) {
        Some(b) if kind != ops::QLinearMatMul::NAME => Some(int32_bias(body, b, sx, &sw, n)?),
        Some(_) => return None,
        None => None,
    };
    let dq = |o: OpId, i: usize| present_operand(body, o, i);
    let qp = dq;
    let operands = match kind {
        ops::QLinearConv::NAME => vec![Some(x), dq(dqx, 1), dq(dqx, 2), Some(w), dq(dqw, 1), dq(dqw, 2), qp(q, 1), qp(q, 2), bias],
        ops::QLinearMatMul::NAME => {
            // Its zero points are required inputs.
            let zs = [dq(dqx, 2), dq(dqw, 2), qp(q, 2)];
            if zs.iter().any(|z| z.is_none()) {
                return None;
            }
            vec![Some(x), dq(dqx, 1), zs[0], Some(w), dq(dqw, 1), zs[1], qp(q, 1), zs[2]]
        }
        _ => vec![Some(x), dq(dqx, 1), dq(dqx, 2), Some(w), dq(dqw, 1), dq(dqw, 2), bias, qp(q, 1), qp(q, 2)],
    };
    Some((kind, operands, op))
}

impl Pass for FormIntegerProducts {
    fn argument(&self) -> &'static str {
        "onnx-form-integer-products"
    }
    fn display_name(&self) -> &'static str {
        "ONNXFormIntegerProducts"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        if !crate::host_has_vnni() {
            cx.stat("num-formed", "QDQ products formed into integer operators", 0);
            return Ok(());
        }
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let mut formed = 0;
        for q in body.walk_preorder(root) {
            if body.is_erased(q) || body.name(q).as_str() != ops::QuantizeLinear::NAME {
                continue;
            }
            let Some((kind, operands, op)) = group(body, q) else { continue };
            let keep: &[&str] = match kind {
                ops::QLinearConv::NAME => &["auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"],
                ops::ms::QGemm::NAME => &["transB"],
                _ => &[],
            };
            let mut props: Vec<_> = body.op(op).properties.iter().filter(|(k, _)| keep.contains(&k.as_str())).cloned().collect();
            if kind == ops::ms::QGemm::NAME {
                props.push((ctx.ident("alpha"), Attribute::float(1.0, ctx.f32())));
            }
            onnx::transforms::replace_group(ctx, body, q, op, kind, &operands, props);
            formed += 1;
        }
        cx.stat("num-formed", "QDQ products formed into integer operators", formed);
        Ok(())
    }
}
