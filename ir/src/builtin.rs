//! The `builtin` dialect: `builtin.module`, with its custom form
//! `module @name attributes {...} { ... }`.

use crate::asm::{OpParser, OpPrinter};
use crate::body::{OpId, OperationState};
use crate::dialect::{optional, AttrKind, Assembly, Count, DialectDef, OpDef, Trait};
use crate::parser::PResult;

pub const OPS: &[OpDef] = &[
    OpDef {
        name: "builtin.unrealized_conversion_cast",
        summary: "A cast between types during a conversion; none may remain after a successful one.",
        operands: Count::Any,
        results: Count::Any,
        traits: &[Trait::Pure],
        ..OpDef::DEFAULT
    },
    OpDef {
    name: "builtin.module",
    summary: "A top-level container of operations, a symbol table.",
    regions: Count::Exactly(1),
    traits: &[Trait::IsolatedFromAbove, Trait::SymbolTable, Trait::NoTerminator, Trait::SingleBlock, Trait::GraphRegions],
    properties: &[optional("sym_name", AttrKind::String), optional("sym_visibility", AttrKind::String)],
    assembly: Some(Assembly { print: print_module, parse: parse_module }),
    ..OpDef::DEFAULT
    },
];

pub static DIALECT: DialectDef = DialectDef { name: "builtin", ops: OPS, materialize_constant: None };

fn print_module(p: &mut OpPrinter, op: OpId) {
    let d = p.body.op(op);
    if let Some(n) = d.properties.get("sym_name").and_then(|a| a.as_str()) {
        p.w(" ");
        p.print_symbol_name(n);
    }
    let mut all = d.properties.clone();
    all.remove("sym_name");
    for (k, v) in d.attributes.iter() {
        all.set(*k, v.clone());
    }
    p.print_attr_dict_with_keyword(&all, &[]);
    p.w(" ");
    let r = d.regions()[0];
    p.print_region(op, r, false, false);
}

fn parse_module(p: &mut OpParser, mut st: OperationState) -> PResult<OperationState> {
    if let Some(n) = p.parse_optional_symbol_name()? {
        st.properties.set(p.ctx.ident("sym_name"), crate::Attribute::string(&n));
    }
    let attrs = p.parse_optional_attr_dict_with_keyword()?;
    for (k, v) in attrs.iter() {
        if k.as_str() == "sym_visibility" {
            st.properties.set(*k, v.clone());
        } else {
            st.attributes.set(*k, v.clone());
        }
    }
    let r = p.parse_region(&[], true)?;
    // A module always has its body block, even when written `module {}`.
    if p.body.region_blocks(r).is_empty() {
        p.body.add_block(r, &[]);
    }
    st.regions.push(r);
    Ok(st)
}
