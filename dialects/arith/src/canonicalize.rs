//! Canonicalization patterns of arith (beyond folders): reassociating constants,
//! cancelling add/sub pairs, collapsing cast chains, inverting compares.

use crate::ops;
use ir::attributes::{normalize_int, Attribute};
use ir::rewrite::{MatchFailure, PatternSet, Rewriter};
use ir::{Body, OpId, OperationState, Value};

fn const_int(body: &Body, v: Value) -> Option<i128> {
    ops::Constant::of(body, body.defining_op(v)?)?.value(body)?.as_int()
}

/// The op defining `v`, as the typed op `of` makes it, if it is one.
fn def_as<T>(body: &Body, v: Value, of: fn(&Body, OpId) -> Option<T>) -> Option<T> {
    of(body, body.defining_op(v)?)
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
    let add = ops::AddI(op);
    let (lhs, rhs) = (add.lhs(b), add.rhs(b));
    let Some(c2) = const_int(b, rhs) else { return rw.match_failure("rhs is not a constant") };
    let Some(inner) = def_as(b, lhs, ops::AddI::of) else { return rw.match_failure("lhs is not an addi") };
    let (x, c1v) = (inner.lhs(b), inner.rhs(b));
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
    let sub = ops::SubI(op);
    let (lhs, rhs) = (sub.lhs(b), sub.rhs(b));
    let Some(add) = def_as(b, lhs, ops::AddI::of) else { return rw.match_failure("lhs is not an addi") };
    let (x, y) = (add.lhs(b), add.rhs(b));
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
    let trunc = ops::TruncI(op);
    let src = trunc.input(b);
    let x = if let Some(e) = def_as(b, src, ops::ExtSI::of) {
        e.input(b)
    } else if let Some(e) = def_as(b, src, ops::ExtUI::of) {
        e.input(b)
    } else {
        return rw.match_failure("operand is not an extension");
    };
    if b.value_type(x) != b.value_type(trunc.out(b)) {
        return rw.match_failure("truncation does not return to the original type");
    }
    rw.replace_op(op, &[x]);
    Ok(())
}

/// `xori(cmpi p a b, true)` → `cmpi !p a b`.
fn not_of_cmp(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let b = &*rw.body;
    let xor = ops::XOrI(op);
    let (lhs, rhs) = (xor.lhs(b), xor.rhs(b));
    if b.value_type(rhs).int_width() != Some(1) || const_int(b, rhs) != Some(-1) && const_int(b, rhs) != Some(1) {
        return rw.match_failure("not a negation");
    }
    let Some(cmp) = def_as(b, lhs, ops::CmpI::of) else { return rw.match_failure("lhs is not a cmpi") };
    if b.uses(lhs).len() != 1 {
        return rw.match_failure("the comparison has other users");
    }
    let pred = cmp.predicate(b).unwrap_or(-1);
    // eq<->ne, slt<->sge, sle<->sgt, ult<->uge, ule<->ugt
    let inv = [1, 0, 5, 4, 3, 2, 9, 8, 7, 6];
    let Some(&np) = inv.get(pred as usize) else { return rw.match_failure("unknown predicate") };
    let (a, bb, loc) = (cmp.lhs(b), cmp.rhs(b), b.op(cmp.op()).loc.clone());
    let rt = b.value_type(xor.result(b)).clone();
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
