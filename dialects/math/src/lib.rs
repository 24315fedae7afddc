//! The `math` dialect, named and printed as upstream MLIR's: transcendental
//! and other functions of scalars and vectors. One table row per op.

use ir::dialect::{optional, AttrKind, AttrSpec, Count, DialectDef, OpDef, Trait, TypeConstraint as TC};
use ir::Context;

pub mod ops;
mod syntax;
use syntax::MATH;

const FASTMATH: &[AttrSpec] = &[optional("fastmath", AttrKind::Any)];

/// A pure op whose operands and result share one type; the float ones carry
/// fast-math flags, the integer ones none (as upstream's).
const fn same(name: &'static str, summary: &'static str, arity: usize, ty: &'static [TC]) -> OpDef {
    OpDef {
        name,
        summary,
        operands: Count::Exactly(arity),
        results: Count::Exactly(1),
        traits: &[Trait::Pure, Trait::SameOperandsAndResultType],
        operand_types: ty,
        result_types: ty,
        properties: if matches!(ty, [TC::FloatLike]) { FASTMATH } else { &[] },
        assembly: Some(MATH),
        ..OpDef::DEFAULT
    }
}
const F: &[TC] = &[TC::FloatLike];

/// A float predicate: `i1` (or a vector of them) from a float.
const fn test(name: &'static str, summary: &'static str) -> OpDef {
    OpDef {
        name,
        summary,
        operands: Count::Exactly(1),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        operand_types: F,
        result_types: &[TC::BoolLike],
        properties: FASTMATH,
        assembly: Some(MATH),
        ..OpDef::DEFAULT
    }
}
const I: &[TC] = &[TC::SignlessIntegerLike];

pub const OPS: &[OpDef] = &[
    same(ops::ABSF, "|x|.", 1, F),
    same(ops::ABSI, "|x| of a signed integer.", 1, I),
    same(ops::SQRT, "Square root.", 1, F),
    same(ops::RSQRT, "1 / sqrt(x).", 1, F),
    same(ops::CBRT, "Cube root.", 1, F),
    same(ops::EXP, "e^x.", 1, F),
    same(ops::EXP2, "2^x.", 1, F),
    same(ops::EXPM1, "e^x - 1.", 1, F),
    same(ops::LOG, "Natural logarithm.", 1, F),
    same(ops::LOG2, "Base-2 logarithm.", 1, F),
    same(ops::LOG10, "Base-10 logarithm.", 1, F),
    same(ops::LOG1P, "log(1 + x).", 1, F),
    same(ops::TANH, "Hyperbolic tangent.", 1, F),
    same(ops::SINH, "Hyperbolic sine.", 1, F),
    same(ops::COSH, "Hyperbolic cosine.", 1, F),
    same(ops::ASINH, "Inverse hyperbolic sine.", 1, F),
    same(ops::ACOSH, "Inverse hyperbolic cosine.", 1, F),
    same(ops::ATANH, "Inverse hyperbolic tangent.", 1, F),
    same(ops::SIN, "Sine.", 1, F),
    same(ops::COS, "Cosine.", 1, F),
    same(ops::TAN, "Tangent.", 1, F),
    same(ops::ASIN, "Arcsine.", 1, F),
    same(ops::ACOS, "Arccosine.", 1, F),
    same(ops::ATAN, "Arctangent.", 1, F),
    same(ops::ATAN2, "Arctangent of y/x in the right quadrant.", 2, F),
    same(ops::ERF, "The error function.", 1, F),
    same(ops::ERFC, "1 - erf(x).", 1, F),
    same(ops::FLOOR, "Round toward negative infinity.", 1, F),
    same(ops::CEIL, "Round toward positive infinity.", 1, F),
    same(ops::ROUND, "Round half away from zero.", 1, F),
    same(ops::ROUNDEVEN, "Round half to even.", 1, F),
    same(ops::TRUNC, "Round toward zero.", 1, F),
    same(ops::POWF, "x^y.", 2, F),
    same(ops::IPOWI, "x^y of signed integers.", 2, I),
    same(ops::COPYSIGN, "|x| with the sign of y.", 2, F),
    same(ops::FMA, "a * b + c, rounded once.", 3, F),
    same(ops::CTLZ, "Count leading zeros.", 1, I),
    same(ops::CTTZ, "Count trailing zeros.", 1, I),
    same(ops::CTPOP, "Count set bits.", 1, I),
    OpDef {
        name: ops::FPOWI,
        summary: "x^n for a float x and an integer n.",
        operands: Count::Exactly(2),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        properties: FASTMATH,
        assembly: Some(MATH),
        ..OpDef::DEFAULT
    },
    test(ops::ISNAN, "Whether x is NaN."),
    test(ops::ISINF, "Whether x is infinite."),
];

pub static DIALECT: DialectDef = DialectDef { name: "math", ops: OPS, materialize_constant: None };

pub fn register(ctx: &Context) {
    ctx.register_dialect(&DIALECT);
}
