//! `tensor.collapse_shape` / `tensor.expand_shape`: reshapes that keep the
//! row-major order, so bufferization can give them the source's buffer.
//! `reassociation = [[0, 1], [2]]` lists which dims of the larger shape form
//! each dim of the smaller one.

use crate::ops;
use ir::attributes::{AttrData, Attribute};
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, Location, OpId, OperationState, Type, Value};

pub fn reassociation(a: &Attribute) -> Option<Vec<Vec<usize>>> {
    a.as_array()?.iter().map(|g| g.as_array()?.iter().map(|i| i.as_int().map(|v| v as usize)).collect()).collect()
}

pub fn reassociation_attr(ctx: &Context, groups: &[Vec<usize>]) -> Attribute {
    Attribute::new(AttrData::Array(
        groups.iter().map(|g| Attribute::new(AttrData::Array(g.iter().map(|&i| Attribute::integer(i as i128, ctx.i64())).collect()))).collect(),
    ))
}

/// Builds `v` reshaped to `shape` in row-major order at `at`: a collapse to
/// one dim, then an expand (each a view of the same buffer once bufferized).
/// Returns `v` itself when the shapes already agree.
pub fn reshape(ctx: &Context, body: &mut Body, at: InsertPoint, loc: &Location, v: Value, shape: &[i64]) -> Value {
    let t = body.value_type(v).clone();
    let (src, elem) = (t.shape().unwrap().to_vec(), t.element_type().unwrap().clone());
    if src == shape {
        return v;
    }
    let ty = |s: &[i64]| ctx.intern_type(TypeData::RankedTensor { shape: s.to_vec(), elem: elem.clone(), encoding: None });
    let n: i64 = src.iter().product();
    let mut cur = v;
    if src.len() > 1 {
        let st = OperationState::new(ctx.op_name(ops::COLLAPSE_SHAPE), loc.clone())
            .operands(&[cur])
            .results(&[ty(&[n])])
            .property(ctx.ident("reassociation"), reassociation_attr(ctx, &[(0..src.len()).collect()]));
        let op = body.build(st, at);
        cur = body.op(op).result(0);
    }
    let cur_shape = body.value_type(cur).shape().unwrap().to_vec();
    if cur_shape != shape {
        let groups: Vec<Vec<usize>> = if cur_shape.is_empty() { vec![] } else { vec![(0..shape.len()).collect()] };
        let st = OperationState::new(ctx.op_name(ops::EXPAND_SHAPE), loc.clone())
            .operands(&[cur])
            .results(&[ty(shape)])
            .property(ctx.ident("reassociation"), reassociation_attr(ctx, &groups))
            .property(ctx.ident("static_output_shape"), Attribute::new(AttrData::DenseArray { elem: ctx.i64(), data: ir::attributes::ArrayData::Int(shape.to_vec()) }));
        let op = body.build(st, at);
        cur = body.op(op).result(0);
    }
    cur
}

/// Checks that `small` is `large` with each group of dims multiplied together.
fn check(body: &Body, op: OpId, large: &Type, small: &Type) -> Result<(), String> {
    let groups = body.op(op).attr("reassociation").and_then(reassociation).ok_or("expects reassociation to be a list of lists of dims")?;
    let (l, s) = (large.shape().ok_or("expects ranked types")?, small.shape().ok_or("expects ranked types")?);
    if large.element_type() != small.element_type() {
        return Err("expects source and result of one element type".into());
    }
    if groups.len() != s.len() {
        return Err(format!("expects {} reassociation groups, got {}", s.len(), groups.len()));
    }
    let mut next = 0;
    for (g, &sd) in groups.iter().zip(s) {
        if g.is_empty() && !l.is_empty() {
            return Err("expects non-empty reassociation groups".into());
        }
        let mut prod = 1i64;
        for &d in g {
            if d != next || d >= l.len() {
                return Err("expects reassociation groups to list consecutive dims in order".into());
            }
            next += 1;
            prod = prod.saturating_mul(l[d]);
        }
        if prod != sd {
            return Err(format!("expects dims {:?} (product {}) to form a dim of size {}", g, prod, sd));
        }
    }
    // A rank-0 side has no groups: the other side's dims are all 1 (MLIR's rule).
    if s.is_empty() && l.iter().all(|&d| d == 1) {
        return Ok(());
    }
    if next != l.len() {
        return Err("expects reassociation groups to cover every dim".into());
    }
    Ok(())
}

pub fn verify_collapse(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    check(body, op, body.value_type(d.operand(0)), body.value_type(d.result(0)))
}

pub fn verify_expand(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    check(body, op, body.value_type(d.result(0)), body.value_type(d.operand(0)))
}

/// `collapse(expand(x))` and `expand(collapse(x))` back to `x`'s type are `x`.
pub fn fold_inverse(input: &ir::dialect::FoldInput) -> Option<Vec<ir::dialect::FoldResult>> {
    let (body, op) = (input.body, input.op);
    let src = body.op(op).operand(0);
    let def = body.defining_op(src)?;
    let inverse = match body.name(op).as_str() {
        ops::COLLAPSE_SHAPE => ops::EXPAND_SHAPE,
        _ => ops::COLLAPSE_SHAPE,
    };
    if body.name(def).as_str() != inverse {
        return None;
    }
    let orig = body.op(def).operand(0);
    (body.value_type(orig) == body.value_type(body.op(op).result(0))).then(|| vec![ir::dialect::FoldResult::Value(orig)])
}
