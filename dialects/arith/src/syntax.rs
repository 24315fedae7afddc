//! Custom forms of arith ops, matching upstream's printed syntax:
//! `%r = arith.addi %a, %b overflow<nsw> : i32`, `arith.cmpi slt, %a, %b : i32`,
//! `arith.extsi %a : i32 to i64`, `arith.constant 1 : i32`.
//! Parsing sets the same default properties upstream does (`overflowFlags`,
//! `fastmath`), so the generic output is identical to `mlir-opt`'s.

use crate::ops;
use crate::predicates::{CMPF_PREDICATES, CMPI_PREDICATES};
use ir::asm::{OpParser, OpPrinter};
use ir::attributes::{AttrData, Attribute};
use ir::dialect::Assembly;
use ir::lexer::Tok;
use ir::parser::PResult;
use ir::{OpId, OperationState};

/// Unary and binary ops whose operands and result share one type.
pub const ELEMENTWISE: Assembly = Assembly { print: print_elementwise, parse: parse_elementwise };
pub const CMP_I: Assembly = Assembly { print: print_cmp, parse: parse_cmp };
pub const CMP_F: Assembly = Assembly { print: print_cmp, parse: parse_cmp };
pub const SELECT: Assembly = Assembly { print: print_select, parse: parse_select };
pub const CAST: Assembly = Assembly { print: print_cast, parse: parse_cast };
pub const CONSTANT: Assembly = Assembly { print: print_constant, parse: parse_constant };

/// The flag properties (`overflowFlags`, `fastmath`) this op declares.
fn flag_props(st_name: &str) -> Option<(&'static str, &'static str, &'static str)> {
    let int_overflow = [ops::ADDI, ops::SUBI, ops::MULI, ops::SHLI, ops::TRUNCI];
    let fast = [
        ops::ADDF, ops::SUBF, ops::MULF, ops::DIVF, ops::REMF, ops::MAXIMUMF, ops::MINIMUMF, ops::MAXNUMF,
        ops::MINNUMF, ops::NEGF, ops::CMPF,
    ];
    if int_overflow.contains(&st_name) {
        Some(("overflowFlags", "overflow", "#arith.overflow<none>"))
    } else if fast.contains(&st_name) {
        Some(("fastmath", "fastmath", "#arith.fastmath<none>"))
    } else {
        None
    }
}

/// Prints ` overflow<nsw>` / ` fastmath<fast>` unless the flags are `none`.
fn print_flags(p: &mut OpPrinter, op: OpId) {
    if let Some((prop, kw, _)) = flag_props(p.body.op(op).name.as_str()) {
        ir::asm::print_flags_property(p, op, prop, kw);
    }
}

/// Parses optional `overflow<...>` / `fastmath<...>`, setting the property (default `none`).
fn parse_flags(p: &mut OpParser, st: &mut OperationState) -> PResult<()> {
    let Some((prop, kw, _)) = flag_props(st.name.as_str()) else { return Ok(()) };
    ir::asm::parse_flags_property(p, st, prop, "arith", kw)
}

/// `%a, %b [flags] {attrs} : type` (any number of operands of the result's type).
fn print_elementwise(p: &mut OpPrinter, op: OpId) {
    let d = p.body.op(op);
    let ops = d.operands().to_vec();
    let attrs = d.attributes.clone();
    let t = p.body.value_type(d.results()[0]).clone();
    p.w(" ");
    p.print_values(&ops);
    print_flags(p, op);
    p.print_attr_dict(&attrs, &[]);
    p.w(" : ");
    p.print_type(&t);
}

fn parse_elementwise(p: &mut OpParser, mut st: OperationState) -> PResult<OperationState> {
    let names = p.parse_comma_list(|p| p.parse_operand())?;
    parse_flags(p, &mut st)?;
    st.attributes = p.parse_optional_attr_dict()?;
    let t = p.parse_colon_type()?;
    for n in &names {
        let v = p.resolve_operand(n, &t)?;
        st.operands.push(v);
    }
    st.result_types = vec![t];
    Ok(st)
}

fn predicates_of(name: &str) -> &'static [&'static str] {
    if name == ops::CMPI {
        CMPI_PREDICATES
    } else {
        CMPF_PREDICATES
    }
}

fn print_cmp(p: &mut OpPrinter, op: OpId) {
    let d = p.body.op(op);
    let preds = predicates_of(d.name.as_str());
    let pred = d.properties.get("predicate").and_then(|a| a.as_int()).unwrap_or(-1);
    let ops = d.operands().to_vec();
    let attrs = d.attributes.clone();
    let t = p.body.value_type(ops[0]).clone();
    p.w(" ");
    match preds.get(pred as usize) {
        Some(s) if pred >= 0 => p.w(s),
        _ => p.w(&pred.to_string()),
    }
    p.w(", ");
    p.print_values(&ops);
    print_flags(p, op);
    p.print_attr_dict(&attrs, &[]);
    p.w(" : ");
    p.print_type(&t);
}

fn parse_cmp(p: &mut OpParser, mut st: OperationState) -> PResult<OperationState> {
    let preds = predicates_of(st.name.as_str());
    let loc = p.loc();
    let kw = p.parse_keyword("a comparison predicate")?;
    let Some(idx) = preds.iter().position(|x| *x == kw) else {
        return p.error_at(loc, format!("invalid predicate '{}', expected one of: {}", kw, preds.join(", ")));
    };
    st.properties.set(p.ctx.ident("predicate"), Attribute::integer(idx as i128, p.ctx.i64()));
    p.expect(Tok::Comma, "','")?;
    let a = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let b = p.parse_operand()?;
    parse_flags(p, &mut st)?;
    st.attributes = p.parse_optional_attr_dict()?;
    let t = p.parse_colon_type()?;
    st.operands = vec![p.resolve_operand(&a, &t)?, p.resolve_operand(&b, &t)?];
    st.result_types = vec![bool_like(p.ctx, &t)];
    Ok(st)
}

pub use ir::asm::bool_like;

fn print_select(p: &mut OpPrinter, op: OpId) {
    let d = p.body.op(op);
    let ops = d.operands().to_vec();
    let attrs = d.attributes.clone();
    let ct = p.body.value_type(ops[0]).clone();
    let t = p.body.value_type(d.results()[0]).clone();
    p.w(" ");
    p.print_values(&ops);
    p.print_attr_dict(&attrs, &[]);
    p.w(" : ");
    if ct.is_shaped() {
        p.print_type(&ct);
        p.w(", ");
    }
    p.print_type(&t);
}

fn parse_select(p: &mut OpParser, mut st: OperationState) -> PResult<OperationState> {
    let c = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let a = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let b = p.parse_operand()?;
    st.attributes = p.parse_optional_attr_dict()?;
    let t1 = p.parse_colon_type()?;
    let (ct, t) = if p.eat(Tok::Comma) { (t1, p.parse_type()?) } else { (p.ctx.i1(), t1) };
    st.operands = vec![p.resolve_operand(&c, &ct)?, p.resolve_operand(&a, &t)?, p.resolve_operand(&b, &t)?];
    st.result_types = vec![t];
    Ok(st)
}

fn print_cast(p: &mut OpPrinter, op: OpId) {
    let d = p.body.op(op);
    let v = d.operands()[0];
    let attrs = d.attributes.clone();
    let from = p.body.value_type(v).clone();
    let to = p.body.value_type(d.results()[0]).clone();
    p.w(" ");
    p.print_value(v);
    print_flags(p, op);
    p.print_attr_dict(&attrs, &[]);
    p.w(" : ");
    p.print_type(&from);
    p.w(" to ");
    p.print_type(&to);
}

fn parse_cast(p: &mut OpParser, mut st: OperationState) -> PResult<OperationState> {
    let a = p.parse_operand()?;
    parse_flags(p, &mut st)?;
    st.attributes = p.parse_optional_attr_dict()?;
    let from = p.parse_colon_type()?;
    p.expect_keyword("to")?;
    let to = p.parse_type()?;
    st.operands = vec![p.resolve_operand(&a, &from)?];
    st.result_types = vec![to];
    Ok(st)
}

fn print_constant(p: &mut OpPrinter, op: OpId) {
    let d = p.body.op(op);
    let attrs = d.attributes.clone();
    let v = d.properties.get("value").cloned();
    let t = p.body.value_type(d.results()[0]).clone();
    p.print_attr_dict(&attrs, &[]);
    p.w(" ");
    match v {
        // Typed values carry their type; anything else gets it spelled out.
        Some(a) if a.typ() == Some(&t) || matches!(a.data(), AttrData::Integer { ty, .. } if ty.int_width() == Some(1) && ty == &t) => {
            p.print_attr(&a)
        }
        Some(a) => {
            p.print_attr(&a);
            p.w(" : ");
            p.print_type(&t);
        }
        None => p.w("<<missing value>>"),
    }
}

fn parse_constant(p: &mut OpParser, mut st: OperationState) -> PResult<OperationState> {
    st.attributes = p.parse_optional_attr_dict()?;
    let loc = p.loc();
    let v = p.parse_attribute(None)?;
    let Some(t) = v.typ().cloned() else {
        return p.error_at(loc, "expected an integer, float or elements value for 'arith.constant'");
    };
    st.properties.set(p.ctx.ident("value"), v);
    st.result_types = vec![t];
    Ok(st)
}
