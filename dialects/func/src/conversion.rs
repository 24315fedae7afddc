//! Conversion patterns for func ops under a type converter: function
//! signatures (and their entry block arguments), returns and calls. Add them to
//! any conversion whose types change across function boundaries, and mark the
//! ops legal with [`is_legal_under`].

use crate::ops;
use ir::attributes::Attribute;
use ir::rewrite::{MatchFailure, PatternSet, RewritePattern, Rewriter, TypeConverter};
use ir::types::TypeData;
use ir::{Body, Context, OpId, OperationState};
use std::sync::Arc;

/// True when every type `op` mentions (operands, results, and a function's signature) is legal.
pub fn is_legal_under(ctx: &Context, tc: &TypeConverter, body: &Body, op: OpId) -> bool {
    let d = body.op(op);
    let vals = d.operands().iter().chain(d.results());
    let sig_ok = match crate::function_type(body, op) {
        Some((i, r)) if d.name.as_str() == ops::FUNC => i.iter().chain(&r).all(|t| tc.is_legal(ctx, t)),
        _ => true,
    };
    sig_ok && vals.into_iter().all(|v| tc.is_legal(ctx, body.value_type(*v)))
}

struct Signature;
impl RewritePattern for Signature {
    fn name(&self) -> &'static str {
        "func-signature-conversion"
    }
    fn root(&self) -> Option<&'static str> {
        Some(ops::FUNC)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
        let Some((ins, outs)) = crate::function_type(rw.body, op) else { return rw.match_failure("no function type") };
        let conv = |rw: &Rewriter, ts: &[ir::Type]| ts.iter().map(|t| rw.convert_type(t)).collect::<Option<Vec<_>>>();
        let (Some(ni), Some(no)) = (conv(rw, &ins), conv(rw, &outs)) else {
            return rw.match_failure("a signature type cannot be converted");
        };
        let region = rw.body.op(op).regions()[0];
        rw.convert_region_types(region)?;
        let fty = rw.ctx.intern_type(TypeData::Function { inputs: ni, results: no });
        let name = rw.ctx.ident("function_type");
        rw.modify_in_place(op, |b| {
            b.op_mut(op).properties.set(name, Attribute::type_attr(fty));
        });
        Ok(())
    }
}

/// Rebuilds `op` with converted operands and result types.
fn rebuild(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let operands = rw.converted_operands(op);
    let d = rw.body.op(op);
    let (name, loc, props, attrs) = (d.name, d.loc.clone(), d.properties.clone(), d.attributes.clone());
    let results: Vec<ir::Type> = d.results().iter().map(|r| rw.body.value_type(*r).clone()).collect();
    let Some(results) = results.iter().map(|t| rw.convert_type(t)).collect::<Option<Vec<_>>>() else {
        return rw.match_failure("a result type cannot be converted");
    };
    let mut st = OperationState::new(name, loc).operands(&operands).results(&results);
    st.properties = props;
    st.attributes = attrs;
    rw.replace_op_with_new(op, st);
    Ok(())
}

struct Return;
impl RewritePattern for Return {
    fn name(&self) -> &'static str {
        "func-return-conversion"
    }
    fn root(&self) -> Option<&'static str> {
        Some(ops::RETURN)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
        rebuild(op, rw)
    }
}

struct Call;
impl RewritePattern for Call {
    fn name(&self) -> &'static str {
        "func-call-conversion"
    }
    fn root(&self) -> Option<&'static str> {
        Some(ops::CALL)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
        rebuild(op, rw)
    }
}

/// Adds the func signature, return and call conversion patterns.
pub fn populate_type_conversion_patterns(p: &mut PatternSet) {
    p.add(Arc::new(Signature));
    p.add(Arc::new(Return));
    p.add(Arc::new(Call));
}
