//! The `vector` dialect, named as upstream MLIR's: what vectorized inner loops
//! need (contiguous loads and stores, gathers, shuffles, broadcasts, fused
//! multiply-add, reductions).

pub mod ops;

use ir::dialect::{optional, required, AttrKind, Count, DialectDef, OpDef, Trait};
use ir::types::TypeData;
use ir::{Body, Context, OpId};

pub const OPS: &[OpDef] = &[
    OpDef {
        name: ops::LOAD,
        summary: "Reads a vector from consecutive elements of a memref.",
        operands: Count::AtLeast(1),
        results: Count::Exactly(1),
        properties: &[optional("nontemporal", AttrKind::Any), optional("alignment", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::STORE,
        summary: "Writes a vector to consecutive elements of a memref.",
        operands: Count::AtLeast(2),
        properties: &[optional("nontemporal", AttrKind::Any), optional("alignment", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::BITCAST,
        summary: "Reinterprets a vector's bits as a vector of another element type (same total width: 64 x i8 as 16 x i32).",
        operands: Count::Exactly(1),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        verify: Some(verify_bitcast),
        ..OpDef::DEFAULT
    },
    OpDef { name: ops::BROADCAST, summary: "Splats a scalar (or smaller vector) into a vector.", operands: Count::Exactly(1), results: Count::Exactly(1), traits: &[Trait::Pure], ..OpDef::DEFAULT },
    OpDef {
        name: ops::FMA,
        summary: "Elementwise a * b + c.",
        operands: Count::Exactly(3),
        results: Count::Exactly(1),
        traits: &[Trait::Pure, Trait::SameOperandsAndResultType],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::REDUCTION,
        summary: "Combines a vector's elements into a scalar (add, mul, maximumf, ...).",
        operands: Count::AtLeast(1),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        properties: &[required("kind", AttrKind::Any), optional("fastmath", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::CREATE_MASK,
        summary: "A mask whose first n lanes are set (n clamped to the vector's length).",
        operands: Count::AtLeast(1),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::MASKEDLOAD,
        summary: "Reads the lanes a mask sets from consecutive memref elements; the others come from a pass-through vector.",
        operands: Count::AtLeast(3),
        results: Count::Exactly(1),
        properties: &[optional("alignment", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::GATHER,
        summary: "Reads the lanes a mask sets from the base position plus each lane's offset in an index vector (along the innermost dim); the others come from a pass-through vector.",
        operands: Count::AtLeast(4),
        results: Count::Exactly(1),
        properties: &[optional("alignment", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::SHUFFLE,
        summary: "Picks the lanes `mask` lists from the concatenation of two vectors.",
        operands: Count::Exactly(2),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        properties: &[required("mask", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::MASKEDSTORE,
        summary: "Writes the lanes a mask sets to consecutive memref elements.",
        operands: Count::AtLeast(3),
        properties: &[optional("alignment", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
];

/// The bits of a vector type: lanes times the element's width.
fn vector_bits(t: &ir::Type) -> Option<u64> {
    match t.data() {
        TypeData::Vector { shape, elem, .. } => {
            let w = elem.int_width().or_else(|| elem.float_kind().map(|k| k.width()))? as u64;
            Some(shape.iter().product::<i64>() as u64 * w)
        }
        _ => None,
    }
}

fn verify_bitcast(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let (from, to) = (body.value_type(d.operand(0)), body.value_type(d.result(0)));
    match (vector_bits(from), vector_bits(to)) {
        (Some(a), Some(b)) if a == b => Ok(()),
        (Some(a), Some(b)) => Err(format!("expects source and result of the same bit width, got {} and {} bits", a, b)),
        _ => Err("expects vector source and result types".into()),
    }
}

pub static DIALECT: DialectDef = DialectDef { name: "vector", ops: OPS, materialize_constant: None };

pub fn register(ctx: &Context) {
    ctx.register_dialect(&DIALECT);
}
