//! The two halves of a custom assembly form, named as in MLIR: ops with a
//! custom syntax receive an [`OpParser`] to read it and an [`OpPrinter`] to write it.

pub use crate::parser::{Argument, Parser as OpParser, UnresolvedOperand};
pub use crate::printer::Printer as OpPrinter;

use crate::attributes::{AttrData, Attribute};
use crate::lexer::Tok;
use crate::parser::PResult;
use crate::types::{Type, TypeData};
use crate::{Context, OpId, OperationState};

/// Prints optional enum flags stored in property `prop` as the opaque
/// attribute `#dialect.kw<a, b>`: ` kw<a, b>`, nothing when they are `none`
/// or absent (arith's `overflow<nsw>`, the `fastmath<fast>` of arith and math).
pub fn print_flags_property(p: &mut OpPrinter, op: OpId, prop: &str, kw: &str) {
    let d = p.body.op(op);
    if let Some(AttrData::Opaque { body, .. }) = d.properties.get(prop).map(|a| a.data()) {
        if let Some(inner) = body.split_once('<').map(|x| x.1.trim_end_matches('>')) {
            if inner != "none" {
                p.w(&format!(" {}<{}>", kw, inner));
            }
        }
    }
}

/// Parses the optional ` kw<a, b>` of [`print_flags_property`] into property
/// `prop` as `#dialect.kw<a, b>`, `#dialect.kw<none>` when absent (the
/// default upstream's parsers set, so generic output matches `mlir-opt`'s).
pub fn parse_flags_property(p: &mut OpParser, st: &mut OperationState, prop: &str, dialect: &str, kw: &str) -> PResult<()> {
    let mut flags = vec!["none".to_string()];
    if p.at_keyword(kw) {
        p.bump();
        p.expect(Tok::Less, "'<'")?;
        flags.clear();
        loop {
            flags.push(p.parse_keyword("a flag")?.to_string());
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::Greater, "'>'")?;
    }
    // Upstream spells fast-math flags `nnan,ninf` and overflow flags `nsw, nuw`.
    let sep = if kw == "fastmath" { "," } else { ", " };
    let body = format!(".{}<{}>", kw, flags.join(sep));
    st.properties.set(p.ctx.ident(prop), flags_attribute(dialect, body));
    Ok(())
}

/// `#dialect<body>`; the `none` flags most ops carry are one shared value
/// per dialect and keyword (parsing a large module allocates them once, not
/// per op).
fn flags_attribute(dialect: &str, body: String) -> Attribute {
    static NONE: std::sync::Mutex<Vec<Attribute>> = std::sync::Mutex::new(Vec::new());
    if !body.ends_with("<none>") {
        return Attribute::new(AttrData::Opaque { dialect: dialect.into(), body });
    }
    let mut seen = NONE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(a) = seen.iter().find(|a| matches!(a.data(), AttrData::Opaque { dialect: d, body: b } if d == dialect && *b == body)) {
        return a.clone();
    }
    let a = Attribute::new(AttrData::Opaque { dialect: dialect.into(), body });
    seen.push(a.clone());
    a
}

/// `i1` with the shape of `t` (a comparison's or a predicate's result).
pub fn bool_like(ctx: &Context, t: &Type) -> Type {
    match t.data() {
        TypeData::RankedTensor { shape, .. } => ctx.intern_type(TypeData::RankedTensor { shape: shape.clone(), elem: ctx.i1(), encoding: None }),
        TypeData::UnrankedTensor { .. } => ctx.intern_type(TypeData::UnrankedTensor { elem: ctx.i1() }),
        TypeData::Vector { shape, scalable, .. } => ctx.intern_type(TypeData::Vector { shape: shape.clone(), scalable: scalable.clone(), elem: ctx.i1() }),
        _ => ctx.i1(),
    }
}
