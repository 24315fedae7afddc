//! Custom forms of math ops, matching upstream's printed syntax:
//! `%r = math.exp %x fastmath<fast> : f32`, `math.powf %a, %b : f32`,
//! `math.fpowi %a, %n : f32, i32`, `math.isnan %x : f32` (an `i1` like `x`).
//! Flags not written are not set: an absent `fastmath` means `none`, as the
//! ops our passes build carry none, so custom and generic forms of one op
//! read back the same (upstream's generic printer shows the default).

use crate::ops;
use ir::asm::{OpParser, OpPrinter};
use ir::dialect::Assembly;
use ir::parser::PResult;
use ir::{OpId, OperationState};

/// Every math op: operands, flags, attributes, then the types.
pub const MATH: Assembly = Assembly { print, parse };

/// The integer ops, which carry no fast-math flags.
const INTEGER: &[&str] = &[ops::ABSI, ops::CTLZ, ops::CTTZ, ops::CTPOP, ops::IPOWI];

/// How the types are written after the colon.
enum Types {
    /// `: t`, operands and result alike.
    Result,
    /// `: t` of the operand, the result an `i1` of its shape (a predicate).
    Operand,
    /// `: f, i` (fpowi).
    Each,
}

fn types_of(name: &str) -> Types {
    match name {
        ops::ISNAN | ops::ISINF => Types::Operand,
        ops::FPOWI => Types::Each,
        _ => Types::Result,
    }
}

fn print(p: &mut OpPrinter, op: OpId) {
    let d = p.body.op(op);
    let (name, ops, attrs) = (d.name.as_str().to_string(), d.operands().to_vec(), d.attributes.clone());
    let result = p.body.value_type(d.results()[0]).clone();
    p.w(" ");
    p.print_values(&ops);
    if !INTEGER.contains(&name.as_str()) {
        ir::asm::print_flags_property(p, op, "fastmath", "fastmath");
    }
    p.print_attr_dict(&attrs, &[]);
    p.w(" : ");
    match types_of(&name) {
        Types::Result => p.print_type(&result),
        Types::Operand | Types::Each => {
            for (i, v) in ops.iter().enumerate() {
                if i > 0 {
                    p.w(", ");
                }
                let t = p.body.value_type(*v).clone();
                p.print_type(&t);
                if matches!(types_of(&name), Types::Operand) {
                    break;
                }
            }
        }
    }
}

fn parse(p: &mut OpParser, mut st: OperationState) -> PResult<OperationState> {
    let names = p.parse_comma_list(|p| p.parse_operand())?;
    let name = st.name.as_str().to_string();
    if !INTEGER.contains(&name.as_str()) && p.at_keyword("fastmath") {
        ir::asm::parse_flags_property(p, &mut st, "fastmath", "arith", "fastmath")?;
    }
    st.attributes = p.parse_optional_attr_dict()?;
    let t = p.parse_colon_type()?;
    match types_of(&name) {
        Types::Result => {
            for n in &names {
                st.operands.push(p.resolve_operand(n, &t)?);
            }
            st.result_types = vec![t];
        }
        Types::Operand => {
            for n in &names {
                st.operands.push(p.resolve_operand(n, &t)?);
            }
            st.result_types = vec![ir::asm::bool_like(p.ctx, &t)];
        }
        Types::Each => {
            let mut ts = vec![t];
            while ts.len() < names.len() {
                p.expect(ir::lexer::Tok::Comma, "','")?;
                ts.push(p.parse_type()?);
            }
            for (n, t) in names.iter().zip(&ts) {
                st.operands.push(p.resolve_operand(n, t)?);
            }
            st.result_types = vec![ts[0].clone()];
        }
    }
    Ok(st)
}
