//! The `vector` dialect, named as upstream MLIR's: what vectorized inner loops
//! need (contiguous loads and stores, gathers, shuffles, broadcasts, fused
//! multiply-add, reductions).

use ir::dialect::{optional, required, AttrKind, Count, DialectDef, OpDef, Trait};
use ir::Context;

pub const OPS: &[OpDef] = &[
    OpDef {
        name: "vector.load",
        summary: "Reads a vector from consecutive elements of a memref.",
        operands: Count::AtLeast(1),
        results: Count::Exactly(1),
        properties: &[optional("nontemporal", AttrKind::Any), optional("alignment", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "vector.store",
        summary: "Writes a vector to consecutive elements of a memref.",
        operands: Count::AtLeast(2),
        properties: &[optional("nontemporal", AttrKind::Any), optional("alignment", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef { name: "vector.broadcast", summary: "Splats a scalar (or smaller vector) into a vector.", operands: Count::Exactly(1), results: Count::Exactly(1), traits: &[Trait::Pure], ..OpDef::DEFAULT },
    OpDef {
        name: "vector.fma",
        summary: "Elementwise a * b + c.",
        operands: Count::Exactly(3),
        results: Count::Exactly(1),
        traits: &[Trait::Pure, Trait::SameOperandsAndResultType],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "vector.reduction",
        summary: "Combines a vector's elements into a scalar (add, mul, maximumf, ...).",
        operands: Count::AtLeast(1),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        properties: &[required("kind", AttrKind::Any), optional("fastmath", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "vector.create_mask",
        summary: "A mask whose first n lanes are set (n clamped to the vector's length).",
        operands: Count::AtLeast(1),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "vector.maskedload",
        summary: "Reads the lanes a mask sets from consecutive memref elements; the others come from a pass-through vector.",
        operands: Count::AtLeast(3),
        results: Count::Exactly(1),
        properties: &[optional("alignment", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "vector.gather",
        summary: "Reads the lanes a mask sets from the base position plus each lane's offset in an index vector (along the innermost dim); the others come from a pass-through vector.",
        operands: Count::AtLeast(4),
        results: Count::Exactly(1),
        properties: &[optional("alignment", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "vector.shuffle",
        summary: "Picks the lanes `mask` lists from the concatenation of two vectors.",
        operands: Count::Exactly(2),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        properties: &[required("mask", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "vector.maskedstore",
        summary: "Writes the lanes a mask sets to consecutive memref elements.",
        operands: Count::AtLeast(3),
        properties: &[optional("alignment", AttrKind::Any)],
        ..OpDef::DEFAULT
    },
];

pub static DIALECT: DialectDef = DialectDef { name: "vector", ops: OPS, materialize_constant: None };

pub fn register(ctx: &Context) {
    ctx.register_dialect(&DIALECT);
}
