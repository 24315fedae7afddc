//! The `math` dialect, named and printed as upstream MLIR's: transcendental
//! and other functions of scalars and vectors. One table row per op.

use ir::dialect::{optional, AttrKind, AttrSpec, Count, DialectDef, OpDef, Trait, TypeConstraint as TC};
use ir::Context;

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
    same("math.absf", "|x|.", 1, F),
    same("math.absi", "|x| of a signed integer.", 1, I),
    same("math.sqrt", "Square root.", 1, F),
    same("math.rsqrt", "1 / sqrt(x).", 1, F),
    same("math.cbrt", "Cube root.", 1, F),
    same("math.exp", "e^x.", 1, F),
    same("math.exp2", "2^x.", 1, F),
    same("math.expm1", "e^x - 1.", 1, F),
    same("math.log", "Natural logarithm.", 1, F),
    same("math.log2", "Base-2 logarithm.", 1, F),
    same("math.log10", "Base-10 logarithm.", 1, F),
    same("math.log1p", "log(1 + x).", 1, F),
    same("math.tanh", "Hyperbolic tangent.", 1, F),
    same("math.sinh", "Hyperbolic sine.", 1, F),
    same("math.cosh", "Hyperbolic cosine.", 1, F),
    same("math.asinh", "Inverse hyperbolic sine.", 1, F),
    same("math.acosh", "Inverse hyperbolic cosine.", 1, F),
    same("math.atanh", "Inverse hyperbolic tangent.", 1, F),
    same("math.sin", "Sine.", 1, F),
    same("math.cos", "Cosine.", 1, F),
    same("math.tan", "Tangent.", 1, F),
    same("math.asin", "Arcsine.", 1, F),
    same("math.acos", "Arccosine.", 1, F),
    same("math.atan", "Arctangent.", 1, F),
    same("math.atan2", "Arctangent of y/x in the right quadrant.", 2, F),
    same("math.erf", "The error function.", 1, F),
    same("math.erfc", "1 - erf(x).", 1, F),
    same("math.floor", "Round toward negative infinity.", 1, F),
    same("math.ceil", "Round toward positive infinity.", 1, F),
    same("math.round", "Round half away from zero.", 1, F),
    same("math.roundeven", "Round half to even.", 1, F),
    same("math.trunc", "Round toward zero.", 1, F),
    same("math.powf", "x^y.", 2, F),
    same("math.ipowi", "x^y of signed integers.", 2, I),
    same("math.copysign", "|x| with the sign of y.", 2, F),
    same("math.fma", "a * b + c, rounded once.", 3, F),
    same("math.ctlz", "Count leading zeros.", 1, I),
    same("math.cttz", "Count trailing zeros.", 1, I),
    same("math.ctpop", "Count set bits.", 1, I),
    OpDef {
        name: "math.fpowi",
        summary: "x^n for a float x and an integer n.",
        operands: Count::Exactly(2),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        properties: FASTMATH,
        assembly: Some(MATH),
        ..OpDef::DEFAULT
    },
    test("math.isnan", "Whether x is NaN."),
    test("math.isinf", "Whether x is infinite."),
];

pub static DIALECT: DialectDef = DialectDef { name: "math", ops: OPS, materialize_constant: None };

pub fn register(ctx: &Context) {
    ctx.register_dialect(&DIALECT);
}
