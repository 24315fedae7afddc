//! uint8 activations as int8. The array multiplies int8; a uint8 tensor
//! between ops that quantize it and ops that dequantize it is the same
//! tensor less 128 with its zero points less 128: `Q_u8(x) - 128 =
//! clamp(round(x/s) + (z - 128), -128, 127)` and `(q - z)·s` is unchanged,
//! so the rewrite is exact for every backend. It runs before partitioning
//! (`Backend::prepare`), on tensors made by QuantizeLinear and read only by
//! DequantizeLinear, QLinearConv and QLinearMatMul (as their activation), as
//! ONNX Runtime's QOperator and uint8 QDQ models write them; model inputs and
//! outputs stay uint8.

use ir::attributes::{AttrData, Attribute, DenseData};
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, OpId, OperationState, Type, Value};

fn elem(body: &Body, v: Value) -> String {
    body.value_type(v).element_type().map(|e| e.to_string()).unwrap_or_default()
}

/// The zero-point operand of `op` that describes `v` when `op` reads it as an activation.
fn reader_zero_point(body: &Body, op: OpId, v: Value) -> Option<usize> {
    let o = body.op(op);
    match body.name(op).as_str() {
        "onnx.DequantizeLinear" if o.operand(0) == v => Some(2),
        "onnx.QLinearConv" | "onnx.QLinearMatMul" if o.operand(0) == v && o.operand(3) != v => Some(2),
        _ => None,
    }
}

/// A constant uint8 zero point (scalar or per axis), or `None`.
fn u8_zero_point(body: &Body, v: Option<Value>) -> Option<Vec<i64>> {
    let v = v?;
    (elem(body, v) == "ui8").then_some(())?;
    body.defining_op(v).filter(|d| body.name(*d).as_str() == "onnx.Constant")?;
    onnx::infer::const_ints(body, v)
}

/// An int8 constant of `shape` holding `z - 128` for each uint8 zero point `z`.
fn shifted(ctx: &Context, body: &mut Body, zp: Value, vals: &[i64], at: OpId) -> Value {
    let shape = body.value_type(zp).shape().map(|s| s.to_vec()).unwrap_or_default();
    let ty = ctx.intern_type(TypeData::RankedTensor { shape, elem: ctx.int_type(8), encoding: None });
    let bytes: Vec<u8> = vals.iter().map(|z| (*z - 128) as i8 as u8).collect();
    let value = Attribute::new(AttrData::Dense { ty: ty.clone(), data: DenseData::canonical(bytes, 1, vals.len()) });
    let loc = body.op(at).loc.clone();
    let c = body.build(OperationState::new(ctx.op_name("onnx.Constant"), loc).results(&[ty]).property(ctx.ident("value"), value), InsertPoint::Before(at));
    body.op(c).result(0)
}

fn as_i8(ctx: &Context, body: &Body, v: Value) -> Type {
    let shape = body.value_type(v).shape().map(|s| s.to_vec()).unwrap_or_default();
    ctx.intern_type(TypeData::RankedTensor { shape, elem: ctx.int_type(8), encoding: None })
}

/// Rewrites every uint8 activation it can into int8; returns how many.
pub fn rewrite(ctx: &Context, body: &mut Body, module: OpId) -> usize {
    let quantizes: Vec<OpId> = body.walk_preorder(module).into_iter().filter(|o| body.name(*o).as_str() == "onnx.QuantizeLinear").collect();
    let mut n = 0;
    for q in quantizes {
        let v = body.op(q).result(0);
        if elem(body, v) != "ui8" {
            continue;
        }
        let Some(zq) = u8_zero_point(body, body.op(q).operands().get(2).copied()) else { continue };
        let users: Vec<(OpId, usize)> = body.uses(v).iter().map(|u| (u.op, u.index as usize)).collect();
        let readers: Option<Vec<(OpId, usize, Vec<i64>)>> = users
            .iter()
            .map(|&(op, _)| {
                let i = reader_zero_point(body, op, v)?;
                let z = u8_zero_point(body, body.op(op).operands().get(i).copied())?;
                Some((op, i, z))
            })
            .collect();
        let Some(readers) = readers.filter(|r| !r.is_empty()) else { continue };
        let zv = body.op(q).operand(2);
        let nz = shifted(ctx, body, zv, &zq, q);
        body.set_operand(q, 2, nz);
        let ty = as_i8(ctx, body, v);
        body.set_value_type(v, ty);
        for (op, i, z) in readers {
            let old = body.op(op).operand(i);
            let nz = shifted(ctx, body, old, &z, op);
            body.set_operand(op, i, nz);
        }
        n += 1;
    }
    n
}
