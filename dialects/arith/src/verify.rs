//! Checks that the op table cannot express as data.

use crate::ops;
use ir::types::{Type, TypeData};
use ir::{Body, Context, OpId};

fn scalar_width(t: &Type) -> Option<u32> {
    let s = t.scalar();
    s.int_width().or_else(|| s.float_kind().map(|k| k.width()))
}

pub fn constant(_ctx: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let rt = body.value_type(d.results()[0]);
    let v = d.properties.get("value").unwrap();
    match v.typ() {
        Some(t) if t == rt => Ok(()),
        Some(t) => Err(format!("value type '{}' must match result type '{}'", t, rt)),
        None => Err("value must be an integer, float or elements attribute".into()),
    }
}

pub fn cast(_ctx: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let from = body.value_type(d.operands()[0]);
    let to = body.value_type(d.results()[0]);
    let (fw, tw) = (scalar_width(from).unwrap_or(0), scalar_width(to).unwrap_or(0));
    let name = d.name.as_str();
    let is_index = |t: &Type| t.scalar().is_index();
    match name {
        ops::EXTSI | ops::EXTUI | ops::TRUNCI if is_index(from) || is_index(to) => {
            Err("operand and result must not be index; use arith.index_cast".into())
        }
        ops::EXTSI | ops::EXTUI | ops::EXTF if tw <= fw => {
            Err(format!("result type '{}' must be wider than operand type '{}'", to, from))
        }
        ops::TRUNCI | ops::TRUNCF if tw >= fw => {
            Err(format!("result type '{}' must be shorter than operand type '{}'", to, from))
        }
        ops::INDEX_CAST | ops::INDEX_CASTUI if is_index(from) == is_index(to) => {
            Err(format!("exactly one of operand '{}' and result '{}' must be index", from, to))
        }
        ops::BITCAST if fw != tw => Err(format!("operand type '{}' and result type '{}' must have the same bit width", from, to)),
        _ => Ok(()),
    }
}

fn check_predicate(body: &Body, op: OpId, n: usize) -> Result<(), String> {
    let p = body.op(op).properties.get("predicate").and_then(|a| a.as_int()).unwrap_or(-1);
    if p < 0 || p as usize >= n {
        return Err(format!("predicate {} is out of range (0..{})", p, n - 1));
    }
    Ok(())
}

fn check_bool_result(body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let a = body.value_type(d.operands()[0]);
    let r = body.value_type(d.results()[0]);
    if a.shape() != r.shape() || matches!(a.data(), TypeData::UnrankedTensor { .. }) != matches!(r.data(), TypeData::UnrankedTensor { .. }) {
        return Err(format!("result type '{}' must be i1 with the shape of the operands ('{}')", r, a));
    }
    Ok(())
}

pub fn cmpi(_ctx: &Context, body: &Body, op: OpId) -> Result<(), String> {
    check_predicate(body, op, crate::CMPI_PREDICATES.len())?;
    check_bool_result(body, op)
}

pub fn cmpf(_ctx: &Context, body: &Body, op: OpId) -> Result<(), String> {
    check_predicate(body, op, crate::CMPF_PREDICATES.len())?;
    check_bool_result(body, op)
}

pub fn select(_ctx: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let (c, a, b) = (body.value_type(d.operands()[0]), body.value_type(d.operands()[1]), body.value_type(d.operands()[2]));
    let r = body.value_type(d.results()[0]);
    if a != b || a != r {
        return Err(format!("requires the true value, false value and result to have the same type ('{}', '{}', '{}')", a, b, r));
    }
    if c.is_shaped() && c.shape() != r.shape() {
        return Err("expected condition type to have the same shape as the result type".into());
    }
    Ok(())
}
