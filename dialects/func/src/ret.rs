//! `func.return`: `return %a, %b : i32, f32`.

use crate::ops;
use ir::asm::{OpParser, OpPrinter};
use ir::dialect::{Assembly, Count, OpDef, Trait};
use ir::lexer::Tok;
use ir::parser::PResult;
use ir::{Body, Context, OpId, OperationState};

pub const RETURN: OpDef = OpDef {
    name: ops::RETURN,
    summary: "Returns from a func.func; operand types match the function's results.",
    operands: Count::Any,
    traits: &[Trait::Pure, Trait::IsTerminator, Trait::ReturnLike, Trait::HasParent(ops::FUNC)],
    verify: Some(verify),
    assembly: Some(Assembly { print, parse }),
    ..OpDef::DEFAULT
};

fn verify(_ctx: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let Some(f) = body.parent_op(op) else { return Ok(()) };
    let Some((_, results)) = crate::function_type(body, f) else { return Ok(()) };
    let name = body.op(f).properties.get("sym_name").and_then(|a| a.as_str()).unwrap_or("");
    let ops = body.op(op).operands();
    if ops.len() != results.len() {
        return Err(format!("has {} operands, but enclosing function (@{}) returns {}", ops.len(), name, results.len()));
    }
    for (i, (v, t)) in ops.iter().zip(&results).enumerate() {
        let vt = body.value_type(*v);
        if vt != t {
            return Err(format!("type of return operand {} ('{}') doesn't match function result type ('{}') in function @{}", i, vt, t, name));
        }
    }
    Ok(())
}

fn print(p: &mut OpPrinter, op: OpId) {
    let d = p.body.op(op);
    let ops = d.operands().to_vec();
    let attrs = d.attributes.clone();
    p.print_attr_dict(&attrs, &[]);
    if !ops.is_empty() {
        p.w(" ");
        p.print_values(&ops);
        p.w(" : ");
        p.print_value_types(&ops);
    }
}

fn parse(p: &mut OpParser, mut st: OperationState) -> PResult<OperationState> {
    st.attributes = p.parse_optional_attr_dict()?;
    let mut names = vec![];
    if p.at(Tok::PercentId) {
        names = p.parse_comma_list(|p| p.parse_operand())?;
        let tloc = p.loc();
        p.expect(Tok::Colon, "':' and the returned types")?;
        let types = p.parse_type_list()?;
        if types.len() != names.len() {
            return p.error_at(tloc, format!("{} operands present, but expected {}", names.len(), types.len()));
        }
        for (n, t) in names.iter().zip(&types) {
            let v = p.resolve_operand(n, t)?;
            st.operands.push(v);
        }
    }
    let _ = names;
    Ok(st)
}
