//! `func.call`: `%r = call @f(%a) : (i32) -> i32`; the callee must exist and match.

use crate::ops;
use ir::asm::{OpParser, OpPrinter};
use ir::attributes::Attribute;
use ir::dialect::{required, AttrKind, Assembly, Count, OpDef};
use ir::lexer::Tok;
use ir::parser::PResult;
use ir::{Body, Context, OpId, OperationState};

pub const CALL: OpDef = OpDef {
    name: ops::CALL,
    summary: "Calls a func.func by symbol.",
    operands: Count::Any,
    results: Count::Any,
    properties: &[required("callee", AttrKind::SymbolRef)],
    verify: Some(verify),
    assembly: Some(Assembly { print, parse }),
    ..OpDef::DEFAULT
};

fn verify(_ctx: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let callee = d.properties.get("callee").and_then(|a| a.as_symbol()).map(|s| s.join("::")).unwrap_or_default();
    let Some(f) = ir::symbols::lookup_symbol(body, op, &callee) else {
        return Err(format!("'{}' does not reference a valid function", callee));
    };
    let Some((ins, outs)) = crate::function_type(body, f) else {
        return Err(format!("'{}' does not reference a valid function", callee));
    };
    if ins.len() != d.operands().len() {
        return Err("incorrect number of operands for callee".into());
    }
    for (i, (v, t)) in d.operands().iter().zip(&ins).enumerate() {
        let vt = body.value_type(*v);
        if vt != t {
            return Err(format!("operand type mismatch: expected operand type '{}', but provided '{}' for operand number {}", t, vt, i));
        }
    }
    if outs.len() != d.results().len() {
        return Err("incorrect number of results for callee".into());
    }
    for (i, (v, t)) in d.results().iter().zip(&outs).enumerate() {
        let vt = body.value_type(*v);
        if vt != t {
            return Err(format!("result type mismatch at index {}", i));
        }
    }
    Ok(())
}

fn print(p: &mut OpPrinter, op: OpId) {
    let d = p.body.op(op);
    let callee = d.properties.get("callee").cloned();
    let ops = d.operands().to_vec();
    let res: Vec<_> = d.results().iter().map(|r| p.body.value_type(*r).clone()).collect();
    let attrs = d.attributes.clone();
    p.w(" ");
    if let Some(c) = callee {
        p.print_attr(&c);
    }
    p.w("(");
    p.print_values(&ops);
    p.w(")");
    p.print_attr_dict(&attrs, &[]);
    p.w(" : (");
    p.print_value_types(&ops);
    p.w(") -> ");
    if res.len() == 1 {
        p.print_type(&res[0]);
    } else {
        p.w("(");
        p.print_types(&res);
        p.w(")");
    }
}

fn parse(p: &mut OpParser, mut st: OperationState) -> PResult<OperationState> {
    let loc = p.loc();
    let callee = p.parse_attribute(None)?;
    if callee.as_symbol().is_none() {
        return p.error_at(loc, "expected a symbol reference to the callee");
    }
    st.properties.set(p.ctx.ident("callee"), callee);
    let args = p.parse_paren_list("call arguments", |p| p.parse_operand())?;
    st.attributes = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':' and the callee type")?;
    let tloc = p.loc();
    let t = p.parse_type()?;
    let Some((ins, outs)) = t.function_parts() else { return p.error_at(tloc, "expected function type") };
    if ins.len() != args.len() {
        return p.error_at(tloc, format!("{} operands present, but expected {}", args.len(), ins.len()));
    }
    for (a, t) in args.iter().zip(ins) {
        let v = p.resolve_operand(a, t)?;
        st.operands.push(v);
    }
    st.result_types = outs.to_vec();
    let _ = Attribute::unit;
    Ok(st)
}
