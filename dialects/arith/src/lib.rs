//! The `arith` dialect, named, printed and verified as upstream MLIR's, so our
//! generic output is accepted by `mlir-opt`. The op list is one table: each row
//! names its form (which custom syntax and constraints it has) and its folder.

mod canonicalize;
mod fold;
mod predicates;
mod syntax;
mod verify;

use ir::dialect::{optional, required, AttrKind, Count, DialectDef, OpDef, Trait, TypeConstraint as TC};
use ir::{Attribute, Body, Context, Location, OpId, OperationState, Type};

pub use predicates::{CMPF_PREDICATES, CMPI_PREDICATES};
pub use syntax::bool_like;

use syntax::{CAST, CMP_F, CMP_I, CONSTANT, ELEMENTWISE, SELECT};

const PURE_BINARY: &[Trait] = &[Trait::Pure, Trait::SameOperandsAndResultType];
const PURE_COMM: &[Trait] = &[Trait::Pure, Trait::Commutative, Trait::SameOperandsAndResultType];
const OVERFLOW: &[ir::dialect::AttrSpec] = &[optional("overflowFlags", AttrKind::Any)];
const FASTMATH: &[ir::dialect::AttrSpec] = &[optional("fastmath", AttrKind::Any)];

/// An elementwise op whose operands and result share one type:
/// `%r = arith.addi %a, %b : i32`, `%r = arith.negf %a : f32`.
const fn elementwise(
    name: &'static str,
    summary: &'static str,
    arity: usize,
    ty: TC,
    traits: &'static [Trait],
    props: &'static [ir::dialect::AttrSpec],
    fold: ir::dialect::FoldFn,
) -> OpDef {
    OpDef {
        name,
        summary,
        operands: Count::Exactly(arity),
        results: Count::Exactly(1),
        traits,
        operand_types: tc_slice(ty),
        result_types: tc_slice(ty),
        properties: props,
        fold: Some(fold),
        assembly: Some(ELEMENTWISE),
        ..OpDef::DEFAULT
    }
}

const fn int_bin(name: &'static str, summary: &'static str, traits: &'static [Trait], props: &'static [ir::dialect::AttrSpec], fold: ir::dialect::FoldFn) -> OpDef {
    elementwise(name, summary, 2, TC::SignlessIntegerLike, traits, props, fold)
}

const fn float_bin(name: &'static str, summary: &'static str, traits: &'static [Trait], fold: ir::dialect::FoldFn) -> OpDef {
    elementwise(name, summary, 2, TC::FloatLike, traits, FASTMATH, fold)
}

/// Cast: `%r = arith.extsi %a : i32 to i64`.
const fn cast(name: &'static str, summary: &'static str, from: TC, to: TC, props: &'static [ir::dialect::AttrSpec], fold: ir::dialect::FoldFn) -> OpDef {
    OpDef {
        name,
        summary,
        operands: Count::Exactly(1),
        results: Count::Exactly(1),
        traits: &[Trait::Pure, Trait::SameOperandsAndResultShape],
        operand_types: tc_slice(from),
        result_types: tc_slice(to),
        properties: props,
        verify: Some(verify::cast),
        fold: Some(fold),
        assembly: Some(CAST),
        ..OpDef::DEFAULT
    }
}

const fn tc_slice(t: TC) -> &'static [TC] {
    match t {
        TC::SignlessIntegerLike => &[TC::SignlessIntegerLike],
        TC::FloatLike => &[TC::FloatLike],
        TC::IntOrFloatLike => &[TC::IntOrFloatLike],
        TC::BoolLike => &[TC::BoolLike],
        TC::Index => &[TC::Index],
        TC::Any => &[TC::Any],
    }
}

use fold as f;
use TC::{FloatLike as FL, IntOrFloatLike as IF, SignlessIntegerLike as IL};

pub const OPS: &[OpDef] = &[
    OpDef {
        name: "arith.constant",
        summary: "A constant integer, float or elements value.",
        results: Count::Exactly(1),
        traits: &[Trait::Pure, Trait::ConstantLike],
        properties: &[required("value", AttrKind::Typed)],
        verify: Some(verify::constant),
        fold: Some(f::constant),
        assembly: Some(CONSTANT),
        ..OpDef::DEFAULT
    },
    int_bin("arith.addi", "Integer addition (wrapping).", PURE_COMM, OVERFLOW, f::addi).with_canonicalize(canonicalize::addi),
    int_bin("arith.subi", "Integer subtraction (wrapping).", PURE_BINARY, OVERFLOW, f::subi).with_canonicalize(canonicalize::subi),
    int_bin("arith.muli", "Integer multiplication (wrapping).", PURE_COMM, OVERFLOW, f::muli),
    int_bin("arith.divsi", "Signed integer division, rounding toward zero.", PURE_BINARY, &[], f::divsi),
    int_bin("arith.divui", "Unsigned integer division.", PURE_BINARY, &[], f::divui),
    int_bin("arith.ceildivsi", "Signed integer division, rounding toward positive infinity.", PURE_BINARY, &[], f::ceildivsi),
    int_bin("arith.floordivsi", "Signed integer division, rounding toward negative infinity.", PURE_BINARY, &[], f::floordivsi),
    int_bin("arith.remsi", "Signed integer remainder (sign of the dividend).", PURE_BINARY, &[], f::remsi),
    int_bin("arith.remui", "Unsigned integer remainder.", PURE_BINARY, &[], f::remui),
    int_bin("arith.andi", "Bitwise and.", PURE_COMM, &[], f::andi),
    int_bin("arith.ori", "Bitwise or.", PURE_COMM, &[], f::ori),
    int_bin("arith.xori", "Bitwise exclusive or.", PURE_COMM, &[], f::xori).with_canonicalize(canonicalize::xori),
    int_bin("arith.shli", "Shift left; shifting by the width or more gives poison.", PURE_BINARY, OVERFLOW, f::shli),
    int_bin("arith.shrsi", "Arithmetic shift right.", PURE_BINARY, &[], f::shrsi),
    int_bin("arith.shrui", "Logical shift right.", PURE_BINARY, &[], f::shrui),
    int_bin("arith.maxsi", "Signed maximum.", PURE_COMM, &[], f::maxsi),
    int_bin("arith.maxui", "Unsigned maximum.", PURE_COMM, &[], f::maxui),
    int_bin("arith.minsi", "Signed minimum.", PURE_COMM, &[], f::minsi),
    int_bin("arith.minui", "Unsigned minimum.", PURE_COMM, &[], f::minui),
    float_bin("arith.addf", "Float addition.", PURE_COMM, f::addf),
    float_bin("arith.subf", "Float subtraction.", PURE_BINARY, f::subf),
    float_bin("arith.mulf", "Float multiplication.", PURE_COMM, f::mulf),
    float_bin("arith.divf", "Float division.", PURE_BINARY, f::divf),
    float_bin("arith.remf", "Float remainder (sign of the dividend).", PURE_BINARY, f::remf),
    float_bin("arith.maximumf", "Float maximum; NaN if either is NaN.", PURE_COMM, f::maximumf),
    float_bin("arith.minimumf", "Float minimum; NaN if either is NaN.", PURE_COMM, f::minimumf),
    float_bin("arith.maxnumf", "Float maximum; the other operand if one is NaN.", PURE_COMM, f::maxnumf),
    float_bin("arith.minnumf", "Float minimum; the other operand if one is NaN.", PURE_COMM, f::minnumf),
    elementwise("arith.negf", "Float negation.", 1, FL, &[Trait::Pure, Trait::SameOperandsAndResultType, Trait::Involution], FASTMATH, f::negf),
    OpDef {
        name: "arith.cmpi",
        summary: "Integer comparison: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge.",
        operands: Count::Exactly(2),
        results: Count::Exactly(1),
        traits: &[Trait::Pure, Trait::SameTypeOperands],
        operand_types: &[IL],
        result_types: &[TC::BoolLike],
        properties: &[required("predicate", AttrKind::Integer)],
        verify: Some(verify::cmpi),
        fold: Some(f::cmpi),
        assembly: Some(CMP_I),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "arith.cmpf",
        summary: "Float comparison, ordered (o*) or unordered (u*).",
        operands: Count::Exactly(2),
        results: Count::Exactly(1),
        traits: &[Trait::Pure, Trait::SameTypeOperands],
        operand_types: &[FL],
        result_types: &[TC::BoolLike],
        properties: &[required("predicate", AttrKind::Integer), optional("fastmath", AttrKind::Any)],
        verify: Some(verify::cmpf),
        fold: Some(f::cmpf),
        assembly: Some(CMP_F),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "arith.select",
        summary: "Chooses between two values by an i1 condition.",
        operands: Count::Exactly(3),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        operand_types: &[TC::BoolLike, TC::Any],
        verify: Some(verify::select),
        fold: Some(f::select),
        assembly: Some(SELECT),
        ..OpDef::DEFAULT
    },
    cast("arith.extsi", "Sign extension to a wider integer.", IL, IL, &[], f::extsi).with_canonicalize(canonicalize::extsi),
    cast("arith.extui", "Zero extension to a wider integer.", IL, IL, &[], f::extui).with_canonicalize(canonicalize::extui),
    cast("arith.trunci", "Truncation to a narrower integer.", IL, IL, OVERFLOW, f::trunci).with_canonicalize(canonicalize::trunci),
    cast("arith.sitofp", "Signed integer to float.", IL, FL, &[], f::sitofp),
    cast("arith.uitofp", "Unsigned integer to float.", IL, FL, &[], f::uitofp),
    cast("arith.fptosi", "Float to signed integer, rounding toward zero.", FL, IL, &[], f::fptosi),
    cast("arith.fptoui", "Float to unsigned integer, rounding toward zero.", FL, IL, &[], f::fptoui),
    cast("arith.extf", "Extension to a wider float.", FL, FL, FASTMATH, f::extf),
    cast("arith.truncf", "Truncation to a narrower float (round to nearest even).", FL, FL, FASTMATH, f::truncf),
    cast("arith.index_cast", "Signed cast between index and integer.", IL, IL, &[], f::index_cast),
    cast("arith.index_castui", "Unsigned cast between index and integer.", IL, IL, &[], f::index_castui),
    cast("arith.bitcast", "Reinterprets bits as a type of the same width.", IF, IF, &[], f::bitcast),
];

pub static DIALECT: DialectDef = DialectDef { name: "arith", ops: OPS, materialize_constant: Some(materialize_constant) };

pub fn register(ctx: &Context) {
    ctx.register_dialect(&DIALECT);
}

/// Creates a detached `arith.constant` holding `value` of type `ty`.
pub fn materialize_constant(ctx: &Context, body: &mut Body, value: &Attribute, ty: &Type, loc: Location) -> Option<OpId> {
    if value.typ() != Some(ty) {
        return None;
    }
    let st = OperationState::new(ctx.op_name("arith.constant"), loc).property(ctx.ident("value"), value.clone()).results(&[ty.clone()]);
    Some(body.create_op(st))
}
