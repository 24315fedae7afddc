//! `onnx-expand-qlinear-ops`: ONNX Runtime's `com.microsoft` QLinear
//! operators, as its QOperator quantizer writes them, become the QDQ groups
//! they stand for: DequantizeLinear of each int8/uint8 input, the float op,
//! QuantizeLinear of its result. The CPU path then lowers them as it lowers
//! QDQ models, and an NPU backend matches them as the QDQ patterns it runs
//! in int8 (npu16 takes the QLinearAdd of a residual block as an int8 add).
//! ONNX Runtime's kernels compute these groups in float too (QLinearConcat's
//! requantization and QLinearSigmoid's lookup table are exactly DQ → op →
//! Q); results agree within an output step where its rounding order differs.
//!
//! One row per operator: where its quantized inputs are (each followed by
//! its scale and zero point), where its output scale and zero point are, the
//! float op and the attributes that carry over. QLinearConcat (inputs
//! after the output's pair) and QGemm (an int32 bias in the product's scale,
//! a float result without an output scale) are written out. Those that stay:
//! channels-last pools, QLinearSoftmax (lowered as it is), and ops without a row.

use crate::builder::Builder;
use crate::ops;
use ir::attributes::Attribute;
use ir::pass::{Pass, PassContext};
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, Location, OpId, OperationState, Type, Value};

pub struct ExpandQLinearOps;

/// A QLinear operator as DQ(inputs) → `float_op` → Q.
struct Row {
    op: &'static str,
    float_op: &'static str,
    /// Operand index of each quantized input (its scale and zero point follow it).
    inputs: &'static [usize],
    /// Operand index of the output scale (its zero point follows).
    out: usize,
    /// Attributes copied to the float op.
    attrs: &'static [&'static str],
}

const TABLE: &[Row] = &[
    Row { op: ops::ms::QLinearAdd::NAME, float_op: ops::Add::NAME, inputs: &[0, 3], out: 6, attrs: &[] },
    Row { op: ops::ms::QLinearMul::NAME, float_op: ops::Mul::NAME, inputs: &[0, 3], out: 6, attrs: &[] },
    Row { op: ops::ms::QLinearGlobalAveragePool::NAME, float_op: ops::GlobalAveragePool::NAME, inputs: &[0], out: 3, attrs: &[] },
    Row { op: ops::ms::QLinearAveragePool::NAME, float_op: ops::AveragePool::NAME, inputs: &[0], out: 3, attrs: &["auto_pad", "ceil_mode", "count_include_pad", "kernel_shape", "pads", "strides"] },
    Row { op: ops::ms::QLinearSigmoid::NAME, float_op: ops::Sigmoid::NAME, inputs: &[0], out: 3, attrs: &[] },
    Row { op: ops::ms::QLinearLeakyRelu::NAME, float_op: ops::LeakyRelu::NAME, inputs: &[0], out: 3, attrs: &["alpha"] },
];

impl Pass for ExpandQLinearOps {
    fn argument(&self) -> &'static str {
        "onnx-expand-qlinear-ops"
    }
    fn display_name(&self) -> &'static str {
        "ONNXExpandQLinearOps"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let mut expanded = 0;
        for op in body.walk_preorder(root) {
            if body.is_erased(op) {
                continue;
            }
            let name = body.name(op);
            let done = match name.as_str() {
                ops::ms::QLinearConcat::NAME => concat(ctx, body, op),
                ops::ms::QGemm::NAME => qgemm(ctx, body, op),
                n => match TABLE.iter().find(|r| r.op == n) {
                    Some(r) => by_row(ctx, body, op, r),
                    None => continue,
                },
            };
            if done.is_some() {
                expanded += 1;
            }
        }
        cx.stat("num-expanded", "com.microsoft QLinear operators expanded into QDQ groups", expanded);
        Ok(())
    }
}

/// An f32 tensor of `v`'s shape, unranked while shape inference has not
/// reached it (the com.microsoft ops have no inference of their own: the
/// pipeline infers again after this pass).
fn f32_like(ctx: &Context, body: &Body, v: Value) -> Option<Type> {
    Some(match body.value_type(v).shape() {
        Some(s) => ctx.intern_type(TypeData::RankedTensor { shape: s.to_vec(), elem: ctx.f32(), encoding: None }),
        None => ctx.intern_type(TypeData::UnrankedTensor { elem: ctx.f32() }),
    })
}

/// The location of a part of the expanded node: `node/part` (the float op keeps the node's name).
fn part(loc: &Location, name: &str) -> Location {
    match loc.node_name() {
        Some(n) => Location::name(&format!("{}/{}", n, name)),
        None => loc.clone(),
    }
}

/// `DequantizeLinear(x, scale[, zp])` before `at`.
fn dequantize(ctx: &Context, body: &mut Body, x: Value, scale: Value, zp: Option<Value>, at: OpId, loc: &Location) -> Option<Value> {
    let ty = f32_like(ctx, body, x)?;
    let n = body.op(at).operands().iter().position(|v| *v == x).unwrap_or(0);
    let mut b = Builder::new(ctx, body, InsertPoint::Before(at), part(loc, &format!("dequantize{}", n)));
    Some(ops::DequantizeLinear::build(&mut b, x, scale, zp, &[ty], &Default::default()).y(body))
}

/// Replaces `op`'s result by `QuantizeLinear(y, scale[, zp])` and erases `op`.
fn quantize_into(ctx: &Context, body: &mut Body, op: OpId, y: Value, scale: Value, zp: Option<Value>, loc: &Location) {
    let r = body.op(op).result(0);
    let ty = body.value_type(r).clone();
    let mut b = Builder::new(ctx, body, InsertPoint::Before(op), part(loc, "quantize"));
    let qr = ops::QuantizeLinear::build(&mut b, y, scale, zp, &[ty], &Default::default()).y(body);
    body.replace_all_uses(r, qr);
    body.erase(op);
}

/// The float op `name` of `ins` with `op`'s attributes `attrs`, its result shaped as `op`'s.
fn float_op(ctx: &Context, body: &mut Body, op: OpId, name: &str, ins: &[Value], attrs: &[&str], loc: &Location) -> Option<Value> {
    let ty = f32_like(ctx, body, body.op(op).result(0))?;
    let mut st = OperationState::new(ctx.op_name(name), loc.clone()).operands(ins).results(&[ty]);
    for a in attrs {
        if let Some(v) = body.op(op).properties.get(a).cloned() {
            st.properties.set(ctx.ident(a), v);
        }
    }
    let f = body.build(st, InsertPoint::Before(op));
    Some(body.op(f).result(0))
}

/// Operand `i` when it is given: present and not an absent optional input.
/// (Its type may still be unknown: the com.microsoft ops have no shape
/// inference, so what follows one is typed only after this pass.)
fn given(body: &Body, op: OpId, i: usize) -> Option<Value> {
    let v = *body.op(op).operands().get(i)?;
    match body.defining_op(v) {
        Some(d) if body.name(d).as_str() == ops::NO_VALUE => None,
        _ => Some(v),
    }
}

/// The quantized inputs and their scales are given, and the layout is not channels-last.
fn plain(body: &Body, op: OpId, inputs: &[usize]) -> bool {
    let channels_last = body.op(op).properties.get("channels_last").and_then(|a| a.as_int()).unwrap_or(0) != 0;
    !channels_last && inputs.iter().all(|&i| given(body, op, i).is_some() && given(body, op, i + 1).is_some())
}

fn by_row(ctx: &Context, body: &mut Body, op: OpId, r: &Row) -> Option<()> {
    if !plain(body, op, r.inputs) || given(body, op, r.out).is_none() {
        return None;
    }
    let loc = body.op(op).loc.clone();
    let mut ins = vec![];
    for &i in r.inputs {
        let (x, s, z) = (body.op(op).operand(i), body.op(op).operand(i + 1), given(body, op, i + 2));
        ins.push(dequantize(ctx, body, x, s, z, op, &loc)?);
    }
    let y = float_op(ctx, body, op, r.float_op, &ins, r.attrs, &loc)?;
    let (s, z) = (body.op(op).operand(r.out), given(body, op, r.out + 1));
    quantize_into(ctx, body, op, y, s, z, &loc);
    Some(())
}

/// QLinearConcat(Y_scale, Y_zp, (X, X_scale, X_zp)...).
fn concat(ctx: &Context, body: &mut Body, op: OpId) -> Option<()> {
    let n = body.op(op).operands().len();
    if n < 5 || (n - 2) % 3 != 0 {
        return None;
    }
    let inputs: Vec<usize> = (2..n).step_by(3).collect();
    if !plain(body, op, &inputs) {
        return None;
    }
    let loc = body.op(op).loc.clone();
    let mut ins = vec![];
    for &i in &inputs {
        let (x, s, z) = (body.op(op).operand(i), body.op(op).operand(i + 1), given(body, op, i + 2));
        ins.push(dequantize(ctx, body, x, s, z, op, &loc)?);
    }
    let y = float_op(ctx, body, op, ops::Concat::NAME, &ins, &["axis"], &loc)?;
    let (s, z) = (body.op(op).operand(0), given(body, op, 1));
    quantize_into(ctx, body, op, y, s, z, &loc);
    Some(())
}

/// QGemm(A, A_scale, A_zp, B, B_scale, B_zp, C, Y_scale, Y_zp): C is an
/// int32 bias in the scale A_scale·B_scale (per B's columns when B_scale is),
/// the result float when Y_scale is absent.
fn qgemm(ctx: &Context, body: &mut Body, op: OpId) -> Option<()> {
    if !plain(body, op, &[0, 3]) {
        return None;
    }
    let loc = body.op(op).loc.clone();
    let a = dequantize(ctx, body, body.op(op).operand(0), body.op(op).operand(1), given(body, op, 2), op, &loc)?;
    let b = dequantize(ctx, body, body.op(op).operand(3), body.op(op).operand(4), given(body, op, 5), op, &loc)?;
    // Per-channel B scales are per output column: axis 0 of a transposed B, 1 of a plain one.
    if body.value_type(body.op(op).operand(4)).num_elements().is_some_and(|n| n > 1) {
        let trans_b = body.op(op).properties.get("transB").and_then(|a| a.as_int()).unwrap_or(0) != 0;
        let d = body.defining_op(b)?;
        body.op_mut(d).properties.set(ctx.ident("axis"), Attribute::integer(if trans_b { 0 } else { 1 }, ctx.i64()));
    }
    let mut ins = vec![a, b];
    if let Some(c) = given(body, op, 6) {
        // The bias scale: the product of the two constant scales.
        let sa = crate::infer::const_f64s(body, body.op(op).operand(1))?;
        let sb = crate::infer::const_f64s(body, body.op(op).operand(4))?;
        if sa.len() != 1 {
            return None;
        }
        // ONNX Runtime adds C to the int32 product and scales the sum by alpha·sa·sb: C's scale has alpha in it.
        let alpha = body.op(op).properties.get("alpha").and_then(|a| a.as_float()).unwrap_or(1.0) as f32;
        let prod: Vec<f32> = sb.iter().map(|s| alpha * (sa[0] as f32) * (*s as f32)).collect();
        let n = prod.len();
        let cty = f32_like(ctx, body, c)?;
        let mut b = Builder::new(ctx, body, InsertPoint::Before(op), loc.clone());
        let shape: Vec<i64> = if n == 1 { vec![] } else { vec![n as i64] };
        let scale = b.f32s(&shape, &prod);
        let axis = (n > 1).then_some(-1);
        ins.push(ops::DequantizeLinear::build(&mut b, c, scale, None, &[cty], &ops::DequantizeLinearAttrs { axis, ..Default::default() }).y(body));
    }
    let y = float_op(ctx, body, op, ops::Gemm::NAME, &ins, &["alpha", "transA", "transB"], &loc)?;
    match given(body, op, 7) {
        Some(s) => {
            let z = given(body, op, 8);
            quantize_into(ctx, body, op, y, s, z, &loc);
        }
        None => {
            let r = body.op(op).result(0);
            body.replace_all_uses(r, y);
            body.erase(op);
        }
    }
    Some(())
}
