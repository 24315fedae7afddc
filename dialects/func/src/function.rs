//! `func.func`: a symbol with a function type and an optional body.
//! Custom form: `func.func [private] @name(%arg0: i32 {attrs}) -> (i32 {attrs}) attributes {...} { ... }`.

use crate::ops;
use ir::asm::{Argument, OpParser, OpPrinter};
use ir::attributes::{AttrData, AttrDict, Attribute};
use ir::dialect::{optional, required, AttrKind, Assembly, Count, OpDef, Trait};
use ir::lexer::Tok;
use ir::parser::PResult;
use ir::types::{Type, TypeData};
use ir::{Body, Context, InsertPoint, Location, OpId, OperationState};

pub const FUNC: OpDef = OpDef {
    name: ops::FUNC,
    summary: "A function: a symbol with a signature and a body region (none for a declaration).",
    regions: Count::Exactly(1),
    traits: &[Trait::IsolatedFromAbove, Trait::Symbol],
    properties: &[
        required("function_type", AttrKind::FunctionType),
        required("sym_name", AttrKind::String),
        optional("sym_visibility", AttrKind::String),
        optional("arg_attrs", AttrKind::Array),
        optional("res_attrs", AttrKind::Array),
    ],
    verify: Some(verify),
    assembly: Some(Assembly { print, parse }),
    default_dialect: Some("func"),
    ..OpDef::DEFAULT
};

/// The `function_type` of a `func.func`.
pub fn function_type(body: &Body, op: OpId) -> Option<(Vec<Type>, Vec<Type>)> {
    let t = body.op(op).properties.get("function_type")?.as_type()?.clone();
    let (i, r) = t.function_parts()?;
    Some((i.to_vec(), r.to_vec()))
}

fn verify(_ctx: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let Some((inputs, _)) = function_type(body, op) else { return Err("requires a function type".into()) };
    let r = body.op(op).regions()[0];
    if let Some(&entry) = body.region_blocks(r).first() {
        let args = body.block_args(entry);
        if args.len() != inputs.len() {
            return Err(format!("entry block must have {} arguments to match function signature", inputs.len()));
        }
        for (i, (a, t)) in args.iter().zip(&inputs).enumerate() {
            let at = body.value_type(*a);
            if at != t {
                return Err(format!(
                    "type of entry block argument #{}('{}') must match the type of the corresponding argument in function signature('{}')",
                    i, at, t
                ));
            }
        }
    } else if body.op(op).properties.get("sym_visibility").and_then(|a| a.as_str()) == Some("public")
        || body.op(op).properties.get("sym_visibility").is_none()
    {
        return Err("symbol declaration cannot have public visibility".into());
    }
    for key in ["arg_attrs", "res_attrs"] {
        if let Some(a) = body.op(op).properties.get(key).and_then(|a| a.as_array()) {
            let (ins, outs) = function_type(body, op).unwrap();
            let n = if key == "arg_attrs" { ins.len() } else { outs.len() };
            if a.len() != n || a.iter().any(|x| x.as_dict().is_none()) {
                return Err(format!("expects '{}' to be an array of {} dictionaries", key, n));
            }
        }
    }
    Ok(())
}

fn print(p: &mut OpPrinter, op: OpId) {
    let d = p.body.op(op);
    let props = d.properties.clone();
    let (inputs, results) = function_type(p.body, op).unwrap_or_default();
    p.w(" ");
    if let Some(v) = props.get("sym_visibility").and_then(|a| a.as_str()) {
        p.w(v);
        p.w(" ");
    }
    p.print_symbol_name(props.get("sym_name").and_then(|a| a.as_str()).unwrap_or(""));
    let region = d.regions()[0];
    let entry = p.body.region_blocks(region).first().copied();
    let arg_attrs = props.get("arg_attrs").and_then(|a| a.as_array()).map(|a| a.to_vec());
    let res_attrs = props.get("res_attrs").and_then(|a| a.as_array()).map(|a| a.to_vec());
    let attr_of = |v: &Option<Vec<Attribute>>, i: usize| v.as_ref().and_then(|a| a.get(i)).and_then(|x| x.as_dict()).cloned().unwrap_or_default();
    p.w("(");
    for (i, t) in inputs.iter().enumerate() {
        if i > 0 {
            p.w(", ");
        }
        match entry {
            Some(b) => {
                let a = p.body.block_args(b)[i];
                p.print_value(a);
                p.w(": ");
                p.print_type(t);
                p.print_attr_dict(&attr_of(&arg_attrs, i), &[]);
                let l = p.body.value_loc(a).cloned();
                p.print_optional_loc(l.as_ref());
            }
            None => {
                p.print_type(t);
                p.print_attr_dict(&attr_of(&arg_attrs, i), &[]);
            }
        }
    }
    p.w(")");
    if !results.is_empty() {
        p.w(" -> ");
        let any_attrs = (0..results.len()).any(|i| !attr_of(&res_attrs, i).is_empty());
        let wrap = results.len() > 1 || any_attrs || matches!(results[0].data(), TypeData::Function { .. });
        if wrap {
            p.w("(");
        }
        for (i, t) in results.iter().enumerate() {
            if i > 0 {
                p.w(", ");
            }
            p.print_type(t);
            p.print_attr_dict(&attr_of(&res_attrs, i), &[]);
        }
        if wrap {
            p.w(")");
        }
    }
    let d = p.body.op(op);
    let mut extra = d.attributes.clone();
    for (k, v) in d.properties.iter() {
        if !["function_type", "sym_name", "sym_visibility", "arg_attrs", "res_attrs"].contains(&k.as_str()) {
            extra.set(*k, v.clone());
        }
    }
    p.print_attr_dict_with_keyword(&extra, &[]);
    if entry.is_some() {
        p.w(" ");
        p.print_region(op, region, false, true);
    }
}

fn parse(p: &mut OpParser, mut st: OperationState) -> PResult<OperationState> {
    let ctx = p.ctx;
    if p.at(Tok::BareId) {
        let vloc = p.loc();
        let v = p.parse_keyword("visibility")?;
        if !["private", "public", "nested"].contains(&v) {
            return p.error_at(vloc, format!("invalid symbol visibility '{}'", v));
        }
        st.properties.set(ctx.ident("sym_visibility"), Attribute::string(v));
    }
    let Some(name) = p.parse_optional_symbol_name()? else { return p.error("expected valid '@'-identifier for symbol name") };
    st.properties.set(ctx.ident("sym_name"), Attribute::string(&name));
    // Arguments: named (a definition) or bare types (a declaration).
    p.expect(Tok::LParen, "'(' to start the argument list")?;
    let mut args: Vec<Argument> = vec![];
    let mut inputs: Vec<Type> = vec![];
    let mut arg_attrs: Vec<AttrDict> = vec![];
    let mut named = None;
    if !p.at(Tok::RParen) {
        loop {
            let is_named = p.at(Tok::PercentId);
            if *named.get_or_insert(is_named) != is_named {
                return p.error("expected SSA identifier");
            }
            if is_named {
                let a = p.parse_argument(true)?;
                inputs.push(a.ty.clone());
                arg_attrs.push(a.attrs.clone());
                args.push(a);
            } else {
                inputs.push(p.parse_type()?);
                arg_attrs.push(p.parse_optional_attr_dict()?);
                if p.at_keyword("loc") {
                    p.parse_loc()?;
                }
            }
            if !p.eat(Tok::Comma) {
                break;
            }
        }
    }
    p.expect(Tok::RParen, "')' to end the argument list")?;
    let mut results = vec![];
    let mut res_attrs: Vec<AttrDict> = vec![];
    if p.eat(Tok::Arrow) {
        if p.at(Tok::LParen) && !looks_like_function_type(p) {
            p.bump();
            if !p.at(Tok::RParen) {
                loop {
                    results.push(p.parse_type()?);
                    res_attrs.push(p.parse_optional_attr_dict()?);
                    if !p.eat(Tok::Comma) {
                        break;
                    }
                }
            }
            p.expect(Tok::RParen, "')' to end the result list")?;
        } else {
            results.push(p.parse_type()?);
            res_attrs.push(AttrDict::new());
        }
    }
    let fty = ctx.intern_type(TypeData::Function { inputs, results });
    st.properties.set(ctx.ident("function_type"), Attribute::type_attr(fty));
    if arg_attrs.iter().any(|d| !d.is_empty()) {
        let v = arg_attrs.into_iter().map(|d| Attribute::new(AttrData::Dict(d))).collect();
        st.properties.set(ctx.ident("arg_attrs"), Attribute::new(AttrData::Array(v)));
    }
    if res_attrs.iter().any(|d| !d.is_empty()) {
        let v = res_attrs.into_iter().map(|d| Attribute::new(AttrData::Dict(d))).collect();
        st.properties.set(ctx.ident("res_attrs"), Attribute::new(AttrData::Array(v)));
    }
    let attrs = p.parse_optional_attr_dict_with_keyword()?;
    for (k, v) in attrs.iter() {
        st.attributes.set(*k, v.clone());
    }
    let region = if p.at(Tok::LBrace) {
        if named == Some(false) {
            return p.error("expected named arguments (%name: type) for a function with a body");
        }
        p.parse_region_with_dialect(&args, true, Some("func"))?
    } else {
        p.body.new_region()
    };
    st.regions.push(region);
    Ok(st)
}

/// `-> (i32) -> i32` would be a function-typed result; we only see `(` here, so
/// look for the matching `)` followed by `->`.
fn looks_like_function_type(p: &OpParser) -> bool {
    let src = p.lex.src;
    let mut depth = 0i32;
    let mut i = p.tok.start as usize;
    while i < src.len() {
        match src[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    let rest = &src[i + 1..];
                    let t = rest.iter().position(|c| !c.is_ascii_whitespace()).map(|k| &rest[k..]).unwrap_or(&[]);
                    return t.starts_with(b"->");
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Builds a `func.func` with an entry block; for tests, passes and importers.
pub struct FunctionBuilder;

impl FunctionBuilder {
    /// Creates `func.func @name` with an entry block whose arguments match `inputs`; returns (op, entry block).
    pub fn create(ctx: &Context, body: &mut Body, name: &str, inputs: &[Type], results: &[Type], loc: Location) -> (OpId, ir::Block) {
        let r = body.new_region();
        let b = body.add_block(r, inputs);
        let fty = ctx.intern_type(TypeData::Function { inputs: inputs.to_vec(), results: results.to_vec() });
        let st = OperationState::new(ctx.op_name(ops::FUNC), loc)
            .property(ctx.ident("function_type"), Attribute::type_attr(fty))
            .property(ctx.ident("sym_name"), Attribute::string(name))
            .region(r);
        (body.create_op(st), b)
    }

    /// `func.func private @name(inputs)` with no results and no body (a function
    /// the runtime or a library provides), at the start of `module`'s block,
    /// unless the module already has a symbol of that name; returns it.
    pub fn declare_external(ctx: &Context, body: &mut Body, module: OpId, name: &str, inputs: &[Type]) -> OpId {
        if let Some(f) = ir::symbols::lookup_symbol_in(body, module, name) {
            return f;
        }
        let fty = ctx.intern_type(TypeData::Function { inputs: inputs.to_vec(), results: vec![] });
        let region = body.new_region();
        let st = OperationState::new(ctx.op_name(ops::FUNC), Location::unknown())
            .property(ctx.ident("sym_name"), Attribute::string(name))
            .property(ctx.ident("function_type"), Attribute::type_attr(fty))
            .property(ctx.ident("sym_visibility"), Attribute::string("private"))
            .region(region);
        let block = body.region_blocks(body.op(module).regions()[0])[0];
        body.build(st, InsertPoint::AtStart(block))
    }

    /// Appends `func.return` of `values` to `block`.
    pub fn ret(ctx: &Context, body: &mut Body, block: ir::Block, values: &[ir::Value], loc: Location) -> OpId {
        body.build(OperationState::new(ctx.op_name(ops::RETURN), loc).operands(values), InsertPoint::AtEnd(block))
    }
}
