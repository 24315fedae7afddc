//! uint8 activations as int8. The array multiplies int8; a uint8 tensor
//! between ops that quantize it and ops that dequantize it is the same
//! tensor less 128 with its zero points less 128: `Q_u8(x) - 128 =
//! clamp(round(x/s) + (z - 128), -128, 127)` and `(q - z)·s` is unchanged,
//! so the rewrite is exact for every backend. It runs before partitioning
//! (`Backend::prepare`), on tensors made by QuantizeLinear, QLinearConv or
//! QLinearMatMul (or QLinearSoftmax) and read only by DequantizeLinear,
//! QLinearConv, QLinearMatMul (either operand of a computed product) and
//! QLinearSoftmax, also through ops that only move
//! values (MaxPool, Reshape, Flatten, Transpose, Squeeze, Unsqueeze), as
//! ONNX Runtime's QOperator and uint8 QDQ models write them; model inputs and
//! outputs stay uint8.

use onnx::ops;
use crate::quant::elem;
use ir::attributes::{AttrData, Attribute, DenseData};
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, OpId, OperationState, Type, Value};


/// The zero-point operand of `op` that describes `v` when `op` reads it as an activation.
fn reader_zero_point(body: &Body, op: OpId, v: Value) -> Option<usize> {
    let o = body.op(op);
    match body.name(op).as_str() {
        ops::DequantizeLinear::NAME if o.operand(0) == v => Some(2),
        ops::QLinearConv::NAME | ops::QLinearMatMul::NAME | ops::ms::QLinearSoftmax::NAME if o.operand(0) == v && o.operands().get(3) != Some(&v) => Some(2),
        // A computed B (attention's Kᵀ and V).
        ops::QLinearMatMul::NAME if o.operand(3) == v && o.operand(0) != v => Some(5),
        _ => None,
    }
}

/// A constant uint8 zero point (scalar or per axis), or `None`.
fn u8_zero_point(body: &Body, v: Option<Value>) -> Option<Vec<i64>> {
    let v = v?;
    (elem(body, v) == "ui8").then_some(())?;
    body.defining_op(v).filter(|d| body.name(*d).as_str() == ops::Constant::NAME)?;
    onnx::infer::const_ints(body, v)
}

/// An int8 constant of `shape` holding `z - 128` for each uint8 zero point `z`.
fn shifted(ctx: &Context, body: &mut Body, zp: Value, vals: &[i64], at: OpId) -> Value {
    let shape = body.value_type(zp).shape().map(|s| s.to_vec()).unwrap_or_default();
    let ty = ctx.intern_type(TypeData::RankedTensor { shape, elem: ctx.int_type(8), encoding: None });
    let bytes: Vec<u8> = vals.iter().map(|z| (*z - 128) as i8 as u8).collect();
    let value = Attribute::new(AttrData::Dense { ty: ty.clone(), data: DenseData::canonical(bytes, 1, vals.len()) });
    let loc = body.op(at).loc.clone();
    let c = body.build(OperationState::new(ctx.op_name(ops::Constant::NAME), loc).results(&[ty]).property(ctx.ident("value"), value), InsertPoint::Before(at));
    body.op(c).result(0)
}

fn as_i8(ctx: &Context, body: &Body, v: Value) -> Type {
    let shape = body.value_type(v).shape().map(|s| s.to_vec()).unwrap_or_default();
    ctx.intern_type(TypeData::RankedTensor { shape, elem: ctx.int_type(8), encoding: None })
}

/// Ops that move uint8 values without looking at them as numbers: on values
/// less 128 they give their result less 128.
const PASS_THROUGH: &[&str] = &[ops::MaxPool::NAME, ops::Reshape::NAME, ops::Flatten::NAME, ops::Transpose::NAME, ops::Squeeze::NAME, ops::Unsqueeze::NAME];

/// The zero-point operand of `op` when it makes a quantized tensor (its result 0).
fn writer_zero_point(body: &Body, op: OpId) -> Option<usize> {
    match body.name(op).as_str() {
        ops::QuantizeLinear::NAME => Some(2),
        ops::QLinearConv::NAME | ops::QLinearMatMul::NAME => Some(7),
        ops::ms::QLinearSoftmax::NAME => Some(4),
        _ => None,
    }
}

/// The uint8 tensors `v` flows into through pass-through ops (`v` first), and
/// the zero-point operands of the ops that read them as numbers; `None` when
/// one of them is read otherwise (or is a model output).
fn readers_of(body: &Body, v: Value) -> Option<(Vec<Value>, Vec<(OpId, usize, Vec<i64>)>)> {
    let (mut values, mut readers) = (vec![v], vec![]);
    let mut i = 0;
    while i < values.len() {
        let v = values[i];
        i += 1;
        for u in body.uses(v) {
            let op = u.op;
            if PASS_THROUGH.contains(&body.name(op).as_str()) && u.index == 0 {
                let r = body.op(op).result(0);
                (elem(body, r) == "ui8").then_some(())?;
                if body.op(op).results().len() > 1 && body.has_uses(body.op(op).result(1)) {
                    return None;
                }
                values.push(r);
                continue;
            }
            let zi = reader_zero_point(body, op, v)?;
            let z = u8_zero_point(body, body.op(op).operands().get(zi).copied())?;
            // QLinearSoftmax has one type for X and Y: its output must change too.
            if body.name(op).as_str() == ops::ms::QLinearSoftmax::NAME {
                u8_zero_point(body, body.op(op).operands().get(4).copied())?;
                readers_of(body, body.op(op).result(0))?;
            }
            readers.push((op, zi, z));
        }
    }
    (!readers.is_empty()).then_some((values, readers))
}

/// Rewrites every uint8 activation it can into int8; returns how many.
pub fn rewrite(ctx: &Context, body: &mut Body, module: OpId) -> usize {
    let writers: Vec<OpId> = body.walk_preorder(module).into_iter().filter(|o| writer_zero_point(body, *o).is_some()).collect();
    let mut n = 0;
    for w in writers {
        let v = body.op(w).result(0);
        let wz = writer_zero_point(body, w).unwrap();
        if elem(body, v) != "ui8" {
            continue;
        }
        // A QLinearSoftmax's output changes only with its input (one type T).
        if body.name(w).as_str() == ops::ms::QLinearSoftmax::NAME && elem(body, body.op(w).operand(0)) != "i8" {
            continue;
        }
        let Some(zw) = u8_zero_point(body, body.op(w).operands().get(wz).copied()) else { continue };
        let Some((values, readers)) = readers_of(body, v) else { continue };
        let old = body.op(w).operand(wz);
        let nz = shifted(ctx, body, old, &zw, w);
        body.set_operand(w, wz, nz);
        for v in values {
            let ty = as_i8(ctx, body, v);
            body.set_value_type(v, ty);
        }
        for (op, i, z) in readers {
            let old = body.op(op).operand(i);
            let nz = shifted(ctx, body, old, &z, op);
            body.set_operand(op, i, nz);
        }
        n += 1;
    }
    n
}
