//! Folders of onnx ops: identities, and constant folding of the integer
//! shape computations exporters emit (`Shape → Gather → Unsqueeze → Concat →
//! Reshape`), so that models whose inputs are static end up fully static.
//! Only small integer tensors are folded here; float math folds belong to a
//! later pass with an evaluator.

use crate::infer::{const_ints, info};
use ir::attributes::{AttrData, Attribute, DenseData};
use ir::dialect::{FoldInput, FoldResult};
use ir::types::{Type, TypeData, DYNAMIC};

/// Integer constants at most this long are folded.
const MAX_FOLD: usize = 1 << 16;

fn i64_tensor(x: &FoldInput, vals: &[i64], shape: Vec<i64>) -> Option<Vec<FoldResult>> {
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem: x.ctx.i64(), encoding: None });
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    Some(vec![FoldResult::Attr(Attribute::new(AttrData::Dense { ty, data: DenseData::canonical(bytes, 8, vals.len()) }))])
}

fn result_type(x: &FoldInput) -> Type {
    x.body.value_type(x.body.op(x.op).result(0)).clone()
}

fn operand_ints(x: &FoldInput, i: usize) -> Option<Vec<i64>> {
    let v = *x.body.op(x.op).operands().get(i)?;
    let t = x.body.value_type(v);
    if t.scalar() != &x.ctx.i64() {
        return None;
    }
    const_ints(x.body, v).filter(|v| v.len() <= MAX_FOLD)
}

fn operand_shape(x: &FoldInput, i: usize) -> Option<Vec<i64>> {
    info(x.body.value_type(*x.body.op(x.op).operands().get(i)?))?.shape
}

pub fn identity(x: &FoldInput) -> Option<Vec<FoldResult>> {
    Some(vec![FoldResult::Value(x.body.op(x.op).operand(0))])
}

pub fn shape(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let s = operand_shape(x, 0)?;
    if s.contains(&DYNAMIC) {
        return None;
    }
    let r = s.len() as i64;
    let clamp = |v: i64| if v < 0 { (v + r).max(0) } else { v.min(r) };
    let d = x.body.op(x.op);
    let start = clamp(d.properties.get("start").and_then(|a| a.as_int()).unwrap_or(0) as i64) as usize;
    let end = clamp(d.properties.get("end").and_then(|a| a.as_int()).map(|v| v as i64).unwrap_or(r)) as usize;
    let vals = s[start..end.max(start)].to_vec();
    let n = vals.len() as i64;
    i64_tensor(x, &vals, vec![n])
}

pub fn gather(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let data = operand_ints(x, 0)?;
    let idx = operand_ints(x, 1)?;
    let (ds, is) = (operand_shape(x, 0)?, operand_shape(x, 1)?);
    if ds.len() != 1 {
        return None;
    }
    let n = data.len() as i64;
    let vals: Vec<i64> = idx.iter().map(|i| data.get((if *i < 0 { i + n } else { *i }) as usize).copied()).collect::<Option<_>>()?;
    i64_tensor(x, &vals, is)
}

/// Unsqueeze, Squeeze, Reshape, Flatten of an integer constant: same values, new (static) shape.
pub fn reshape_like(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let vals = operand_ints(x, 0)?;
    let shape = result_type(x).shape()?.to_vec();
    if shape.contains(&DYNAMIC) || shape.iter().product::<i64>() != vals.len() as i64 {
        return None;
    }
    i64_tensor(x, &vals, shape)
}

pub fn concat(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let d = x.body.op(x.op);
    let mut vals = vec![];
    for i in 0..d.operands().len() {
        if operand_shape(x, i)?.len() != 1 {
            return None;
        }
        vals.extend(operand_ints(x, i)?);
    }
    let n = vals.len() as i64;
    i64_tensor(x, &vals, vec![n])
}

/// Cast of an integer constant to int64 (shape math in int32 is common).
pub fn cast(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let t = result_type(x);
    if t.scalar() != &x.ctx.i64() {
        return None;
    }
    let v = *x.body.op(x.op).operands().first()?;
    if !x.body.value_type(v).scalar().is_integer() {
        return None;
    }
    let vals = const_ints(x.body, v).filter(|v| v.len() <= MAX_FOLD)?;
    i64_tensor(x, &vals, operand_shape(x, 0)?)
}

/// Integer Add/Sub/Mul/Div on constants (with scalar broadcast), as shape arithmetic needs.
pub fn arith(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let (a, b) = (operand_ints(x, 0)?, operand_ints(x, 1)?);
    let (sa, sb) = (operand_shape(x, 0)?, operand_shape(x, 1)?);
    let (shape, n) = if a.len() >= b.len() { (sa, a.len()) } else { (sb, b.len()) };
    if (a.len() != n && a.len() != 1) || (b.len() != n && b.len() != 1) {
        return None;
    }
    let at = |v: &Vec<i64>, i: usize| if v.len() == 1 { v[0] } else { v[i] };
    let op = x.body.name(x.op).as_str();
    let vals: Vec<i64> = (0..n)
        .map(|i| {
            let (p, q) = (at(&a, i), at(&b, i));
            match op {
                "onnx.Add" => p.checked_add(q),
                "onnx.Sub" => p.checked_sub(q),
                "onnx.Mul" => p.checked_mul(q),
                // Integer division truncates toward zero, as ONNX Runtime computes it.
                _ => (q != 0).then(|| p.wrapping_div(q)),
            }
        })
        .collect::<Option<_>>()?;
    i64_tensor(x, &vals, shape)
}

/// The folder of an onnx op, if it has one.
pub fn folder(name: &str) -> Option<ir::dialect::FoldFn> {
    Some(match name {
        "Identity" => identity,
        "Shape" => shape,
        "Gather" => gather,
        "Unsqueeze" | "Squeeze" | "Reshape" | "Flatten" => reshape_like,
        "Concat" => concat,
        "Cast" => cast,
        "Add" | "Sub" | "Mul" | "Div" => arith,
        _ => return None,
    })
}

/// `onnx.Constant` holding `value`: the dialect's constant materializer.
pub fn materialize(ctx: &ir::Context, body: &mut ir::Body, value: &Attribute, ty: &Type, loc: ir::Location) -> Option<ir::OpId> {
    if value.typ() != Some(ty) {
        return None;
    }
    let st = ir::OperationState::new(ctx.op_name("onnx.Constant"), loc).property(ctx.ident("value"), value.clone()).results(&[ty.clone()]);
    Some(body.create_op(st))
}
