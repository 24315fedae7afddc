//! The `arith` dialect, named, printed and verified as upstream MLIR's, so our
//! generic output is accepted by `mlir-opt`. The op list is one table: each row
//! names its form (which custom syntax and constraints it has) and its folder.

pub mod ops;
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
        name: ops::CONSTANT,
        summary: "A constant integer, float or elements value.",
        results: Count::Exactly(1),
        traits: &[Trait::Pure, Trait::ConstantLike],
        properties: &[required("value", AttrKind::Typed)],
        verify: Some(verify::constant),
        fold: Some(f::constant),
        assembly: Some(CONSTANT),
        ..OpDef::DEFAULT
    },
    int_bin(ops::ADDI, "Integer addition (wrapping).", PURE_COMM, OVERFLOW, f::addi).with_canonicalize(canonicalize::addi),
    int_bin(ops::SUBI, "Integer subtraction (wrapping).", PURE_BINARY, OVERFLOW, f::subi).with_canonicalize(canonicalize::subi),
    int_bin(ops::MULI, "Integer multiplication (wrapping).", PURE_COMM, OVERFLOW, f::muli),
    int_bin(ops::DIVSI, "Signed integer division, rounding toward zero.", PURE_BINARY, &[], f::divsi),
    int_bin(ops::DIVUI, "Unsigned integer division.", PURE_BINARY, &[], f::divui),
    int_bin(ops::CEILDIVSI, "Signed integer division, rounding toward positive infinity.", PURE_BINARY, &[], f::ceildivsi),
    int_bin(ops::FLOORDIVSI, "Signed integer division, rounding toward negative infinity.", PURE_BINARY, &[], f::floordivsi),
    int_bin(ops::REMSI, "Signed integer remainder (sign of the dividend).", PURE_BINARY, &[], f::remsi),
    int_bin(ops::REMUI, "Unsigned integer remainder.", PURE_BINARY, &[], f::remui),
    int_bin(ops::ANDI, "Bitwise and.", PURE_COMM, &[], f::andi),
    int_bin(ops::ORI, "Bitwise or.", PURE_COMM, &[], f::ori),
    int_bin(ops::XORI, "Bitwise exclusive or.", PURE_COMM, &[], f::xori).with_canonicalize(canonicalize::xori),
    int_bin(ops::SHLI, "Shift left; shifting by the width or more gives poison.", PURE_BINARY, OVERFLOW, f::shli),
    int_bin(ops::SHRSI, "Arithmetic shift right.", PURE_BINARY, &[], f::shrsi),
    int_bin(ops::SHRUI, "Logical shift right.", PURE_BINARY, &[], f::shrui),
    int_bin(ops::MAXSI, "Signed maximum.", PURE_COMM, &[], f::maxsi),
    int_bin(ops::MAXUI, "Unsigned maximum.", PURE_COMM, &[], f::maxui),
    int_bin(ops::MINSI, "Signed minimum.", PURE_COMM, &[], f::minsi),
    int_bin(ops::MINUI, "Unsigned minimum.", PURE_COMM, &[], f::minui),
    float_bin(ops::ADDF, "Float addition.", PURE_COMM, f::addf),
    float_bin(ops::SUBF, "Float subtraction.", PURE_BINARY, f::subf),
    float_bin(ops::MULF, "Float multiplication.", PURE_COMM, f::mulf),
    float_bin(ops::DIVF, "Float division.", PURE_BINARY, f::divf),
    float_bin(ops::REMF, "Float remainder (sign of the dividend).", PURE_BINARY, f::remf),
    float_bin(ops::MAXIMUMF, "Float maximum; NaN if either is NaN.", PURE_COMM, f::maximumf),
    float_bin(ops::MINIMUMF, "Float minimum; NaN if either is NaN.", PURE_COMM, f::minimumf),
    float_bin(ops::MAXNUMF, "Float maximum; the other operand if one is NaN.", PURE_COMM, f::maxnumf),
    float_bin(ops::MINNUMF, "Float minimum; the other operand if one is NaN.", PURE_COMM, f::minnumf),
    elementwise(ops::NEGF, "Float negation.", 1, FL, &[Trait::Pure, Trait::SameOperandsAndResultType, Trait::Involution], FASTMATH, f::negf),
    OpDef {
        name: ops::CMPI,
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
        name: ops::CMPF,
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
        name: ops::SELECT,
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
    cast(ops::EXTSI, "Sign extension to a wider integer.", IL, IL, &[], f::extsi).with_canonicalize(canonicalize::extsi),
    cast(ops::EXTUI, "Zero extension to a wider integer.", IL, IL, &[], f::extui).with_canonicalize(canonicalize::extui),
    cast(ops::TRUNCI, "Truncation to a narrower integer.", IL, IL, OVERFLOW, f::trunci).with_canonicalize(canonicalize::trunci),
    cast(ops::SITOFP, "Signed integer to float.", IL, FL, &[], f::sitofp),
    cast(ops::UITOFP, "Unsigned integer to float.", IL, FL, &[], f::uitofp),
    cast(ops::FPTOSI, "Float to signed integer, rounding toward zero.", FL, IL, &[], f::fptosi),
    cast(ops::FPTOUI, "Float to unsigned integer, rounding toward zero.", FL, IL, &[], f::fptoui),
    cast(ops::EXTF, "Extension to a wider float.", FL, FL, FASTMATH, f::extf),
    cast(ops::TRUNCF, "Truncation to a narrower float (round to nearest even).", FL, FL, FASTMATH, f::truncf),
    cast(ops::INDEX_CAST, "Signed cast between index and integer.", IL, IL, &[], f::index_cast),
    cast(ops::INDEX_CASTUI, "Unsigned cast between index and integer.", IL, IL, &[], f::index_castui),
    cast(ops::BITCAST, "Reinterprets bits as a type of the same width.", IF, IF, &[], f::bitcast),
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
    let st = OperationState::new(ctx.op_name(ops::CONSTANT), loc).property(ctx.ident("value"), value.clone()).results(&[ty.clone()]);
    Some(body.create_op(st))
}
