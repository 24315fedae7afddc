//! The `acme` dialect: one op per thing the array does, from a table.

use ir::dialect::{Count, DialectDef, OpDef, Trait, TypeConstraint as T};
use ir::{Body, Context, OpId};

const F: &[T] = &[T::FloatLike, T::FloatLike];

pub const OPS: &[OpDef] = &[
    OpDef { name: "acme.matmul", summary: "A matrix product on the 32x32 array", operands: Count::Exactly(2), results: Count::Exactly(1), traits: &[Trait::Pure], operand_types: F, result_types: &[T::FloatLike], verify: Some(verify_matmul), ..OpDef::DEFAULT },
    OpDef { name: "acme.add", summary: "Elementwise sum on the vector unit", operands: Count::Exactly(2), results: Count::Exactly(1), traits: &[Trait::Pure, Trait::SameOperandsAndResultType], ..OpDef::DEFAULT },
    OpDef { name: "acme.relu", summary: "max(x, 0) on the vector unit", operands: Count::Exactly(1), results: Count::Exactly(1), traits: &[Trait::Pure, Trait::SameOperandsAndResultType], ..OpDef::DEFAULT },
];

pub static DIALECT: DialectDef = DialectDef { name: "acme", ops: OPS, materialize_constant: None };

pub fn register(ctx: &Context) {
    ctx.register_dialect(&DIALECT);
}

/// `[M, K] x [K, N] -> [M, N]`.
fn verify_matmul(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let dims = |v| body.value_type(v).shape().map(|s| s.to_vec()).unwrap_or_default();
    let (a, b, c) = (dims(o.operand(0)), dims(o.operand(1)), dims(o.result(0)));
    if a.len() != 2 || b.len() != 2 || c.len() != 2 {
        return Err("operands and result must be matrices".into());
    }
    if a[1] != b[0] || c != [a[0], b[1]] {
        return Err(format!("{:?} x {:?} cannot give {:?}", a, b, c));
    }
    Ok(())
}
