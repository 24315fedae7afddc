//! Canonicalization patterns of arith (beyond folders): reassociating constants,
//! cancelling add/sub pairs, collapsing cast chains, inverting compares.

use crate::ops;
use ir::attributes::{normalize_int, Attribute};
use ir::rewrite::{MatchFailure, PatternSet, Rewriter};
use ir::{Body, OpId, OperationState, Value};

fn const_int(body: &Body, v: Value) -> Option<i128> {
    let d = body.defining_op(v)?;
    if body.name(d).as_str() != ops::CONSTANT {
        return None;
    }
    body.op(d).properties.get("value")?.as_int()
}

fn def_named(body: &Body, v: Value, name: &str) -> Option<OpId> {
    body.defining_op(v).filter(|d| body.name(*d).as_str() == name)
}

fn constant(rw: &mut Rewriter, value: i128, like: Value) -> Value {
    let ty = rw.body.value_type(like).clone();
    let loc = rw.body.defining_op(like).map(|d| rw.body.op(d).loc.clone()).unwrap_or_else(ir::Location::unknown);
    let st = OperationState::new(rw.ctx.op_name(ops::CONSTANT), loc)
        .property(rw.ctx.ident("value"), Attribute::integer(normalize_int(value, &ty), ty.clone()))
        .results(&[ty]);
    rw.create_value(st)
}

/// `(x + c1) + c2` → `x + (c1 + c2)` for scalar integers.
fn add_add_constant(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let b = &*rw.body;
    let (lhs, rhs) = (b.op(op).operand(0), b.op(op).operand(1));
    let Some(c2) = const_int(b, rhs) else { return rw.match_failure("rhs is not a constant") };
    let Some(inner) = def_named(b, lhs, ops::ADDI) else { return rw.match_failure("lhs is not an addi") };
    let (x, c1v) = (b.op(inner).operand(0), b.op(inner).operand(1));
    let Some(c1) = const_int(b, c1v) else { return rw.match_failure("inner rhs is not a constant") };
    if b.value_type(x).is_shaped() {
        return rw.match_failure("shaped operands");
    }
    let c = constant(rw, c1.wrapping_add(c2), rhs);
    rw.modify_in_place(op, |body| body.set_operands(op, &[x, c]));
    Ok(())
}

/// `(x + y) - y` → `x` and `(x + y) - x` → `y`.
fn sub_of_add(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let b = &*rw.body;
    let (lhs, rhs) = (b.op(op).operand(0), b.op(op).operand(1));
    let Some(add) = def_named(b, lhs, ops::ADDI) else { return rw.match_failure("lhs is not an addi") };
    let (x, y) = (b.op(add).operand(0), b.op(add).operand(1));
    let keep = if y == rhs {
        x
    } else if x == rhs {
        y
    } else {
        return rw.match_failure("no operand cancels");
    };
    rw.replace_op(op, &[keep]);
    Ok(())
}

/// `extsi(extsi x)` → `extsi x`; `extui(extui x)` → `extui x` (the root names which).
fn ext_of_ext(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let name = rw.body.name(op);
    let Some(inner) = def_named(rw.body, rw.body.op(op).operand(0), name.as_str()) else {
        return rw.match_failure("operand is not the same extension");
    };
    let x = rw.body.op(inner).operand(0);
    rw.modify_in_place(op, |body| body.set_operand(op, 0, x));
    Ok(())
}

/// `trunci(extsi x)` / `trunci(extui x)` back to x's type → `x`.
fn trunc_of_ext(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let b = &*rw.body;
    let src = b.op(op).operand(0);
    let Some(ext) = def_named(b, src, ops::EXTSI).or_else(|| def_named(b, src, ops::EXTUI)) else {
        return rw.match_failure("operand is not an extension");
    };
    let x = b.op(ext).operand(0);
    if b.value_type(x) != b.value_type(b.op(op).result(0)) {
        return rw.match_failure("truncation does not return to the original type");
    }
    rw.replace_op(op, &[x]);
    Ok(())
}

/// `xori(cmpi p a b, true)` → `cmpi !p a b`.
fn not_of_cmp(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let b = &*rw.body;
    let (lhs, rhs) = (b.op(op).operand(0), b.op(op).operand(1));
    if b.value_type(rhs).int_width() != Some(1) || const_int(b, rhs) != Some(-1) && const_int(b, rhs) != Some(1) {
        return rw.match_failure("not a negation");
    }
    let Some(cmp) = def_named(b, lhs, ops::CMPI) else { return rw.match_failure("lhs is not a cmpi") };
    if b.uses(lhs).len() != 1 {
        return rw.match_failure("the comparison has other users");
    }
    let pred = b.op(cmp).properties.get("predicate").and_then(|a| a.as_int()).unwrap_or(-1);
    // eq<->ne, slt<->sge, sle<->sgt, ult<->uge, ule<->ugt
    let inv = [1, 0, 5, 4, 3, 2, 9, 8, 7, 6];
    let Some(&np) = inv.get(pred as usize) else { return rw.match_failure("unknown predicate") };
    let (a, bb, loc) = (b.op(cmp).operand(0), b.op(cmp).operand(1), b.op(cmp).loc.clone());
    let rt = b.value_type(b.op(op).result(0)).clone();
    let st = OperationState::new(rw.ctx.op_name(ops::CMPI), loc)
        .operands(&[a, bb])
        .property(rw.ctx.ident("predicate"), Attribute::integer(np, rw.ctx.i64()))
        .results(&[rt]);
    rw.replace_op_with_new(op, st);
    Ok(())
}

pub fn addi(p: &mut PatternSet) {
    p.add_fn("arith-addi-addi-constant", ops::ADDI, add_add_constant);
}
pub fn subi(p: &mut PatternSet) {
    p.add_fn("arith-subi-addi", ops::SUBI, sub_of_add);
}
pub fn extsi(p: &mut PatternSet) {
    p.add_fn("arith-ext-ext", ops::EXTSI, ext_of_ext);
}
pub fn extui(p: &mut PatternSet) {
    p.add_fn("arith-ext-ext", ops::EXTUI, ext_of_ext);
}
pub fn trunci(p: &mut PatternSet) {
    p.add_fn("arith-trunci-ext", ops::TRUNCI, trunc_of_ext);
}
pub fn xori(p: &mut PatternSet) {
    p.add_fn("arith-xori-cmpi", ops::XORI, not_of_cmp);
}
