//! Building ops at an insertion point (MLIR's `OpBuilder`): the one place
//! that keeps ops built one after another in the order they were built. The
//! dialects' and conversions' builders (`onnx::builder::Builder`, the CPU
//! lowering's `Emit`) are this with their own helpers on top.

use crate::attributes::Attribute;
use crate::body::{Body, InsertPoint, OpId, OperationState, Region, Value};
use crate::context::Context;
use crate::location::Location;
use crate::types::Type;

/// Where the next op goes once `op` was built at `at`: past it when the
/// point was after an op or at a block's start (else ops built one after
/// another would land in reverse); before an op or at a block's end, the
/// same point.
pub fn advance(at: InsertPoint, op: OpId) -> InsertPoint {
    match at {
        InsertPoint::After(_) | InsertPoint::AtStart(_) => InsertPoint::After(op),
        _ => at,
    }
}

/// Builds `st` at `*at` and moves `*at` past it ([`advance`]).
pub fn build_at(body: &mut Body, at: &mut InsertPoint, st: OperationState) -> OpId {
    let op = body.build(st, *at);
    *at = advance(*at, op);
    op
}

/// A body, a point in it and the location new ops get.
pub struct OpBuilder<'a> {
    pub ctx: &'a Context,
    pub body: &'a mut Body,
    pub at: InsertPoint,
    pub loc: Location,
}

impl<'a> OpBuilder<'a> {
    pub fn new(ctx: &'a Context, body: &'a mut Body, at: InsertPoint, loc: Location) -> OpBuilder<'a> {
        OpBuilder { ctx, body, at, loc }
    }
    /// Builds `st` at the point, which then moves past it ([`advance`]).
    pub fn build(&mut self, st: OperationState) -> OpId {
        build_at(self.body, &mut self.at, st)
    }
    /// The op `name` with `operands`, results of `results` and properties `props`, at the builder's location.
    pub fn create(&mut self, name: &str, operands: &[Value], results: &[Type], props: &[(&str, Attribute)]) -> OpId {
        self.create_with_regions(name, operands, results, props, Vec::new())
    }
    /// [`OpBuilder::create`] of an op that owns `regions` (made with `Body::new_region`).
    pub fn create_with_regions(&mut self, name: &str, operands: &[Value], results: &[Type], props: &[(&str, Attribute)], regions: Vec<Region>) -> OpId {
        let mut st = OperationState::new(self.ctx.op_name(name), self.loc.clone()).operands(operands).results(results);
        for (k, v) in props {
            st = st.property(self.ctx.ident(k), v.clone());
        }
        for r in regions {
            st = st.region(r);
        }
        self.build(st)
    }
    /// [`OpBuilder::create`] of an op with one result: that result.
    pub fn create_value(&mut self, name: &str, operands: &[Value], result: &Type, props: &[(&str, Attribute)]) -> Value {
        let op = self.create(name, operands, std::slice::from_ref(result), props);
        self.body.op(op).result(0)
    }
}

/// Makes a builder that wraps an `OpBuilder` (`struct Emit<'a>(pub OpBuilder<'a>)`)
/// read as one: `b.ctx`, `b.body`, `b.at`, `b.build(..)`, `b.create(..)`.
#[macro_export]
macro_rules! extends_op_builder {
    ($t:ident) => {
        impl<'a> std::ops::Deref for $t<'a> {
            type Target = $crate::OpBuilder<'a>;
            fn deref(&self) -> &$crate::OpBuilder<'a> {
                &self.0
            }
        }
        impl<'a> std::ops::DerefMut for $t<'a> {
            fn deref_mut(&mut self) -> &mut $crate::OpBuilder<'a> {
                &mut self.0
            }
        }
    };
}
