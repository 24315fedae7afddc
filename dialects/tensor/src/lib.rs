//! The `tensor` dialect: structured computation on tensors in
//! destination-passing style, as upstream's linalg does it. The one workhorse
//! is `tensor.generic` (affine indexing maps, iterator types, a scalar body);
//! the manipulation ops keep upstream's `tensor` names (`empty`, `extract`,
//! `collapse_shape`, `expand_shape`) so their meaning is the familiar one.
//! After bufferization the same `tensor.generic` runs on memrefs, as
//! `linalg.generic` does, and `tensor-to-loops` turns it into `scf.for` nests.

pub mod ops;
mod generic;
pub mod named;
mod reshape;
pub mod transforms;

pub use generic::{iterator_types_attr, Generic, GenericBuilder, Iterator, PARALLEL, REDUCTION};
pub use reshape::{reassociation, reassociation_attr, reshape};

use ir::dialect::{required, AttrKind, Count, DialectDef, OpDef, Trait, TypeConstraint as TC};
use ir::{Body, Context, OpId};

/// An `array<i64: ...>` attribute (sizes, offsets, permutations of the
/// structured ops and of their lowerings).
pub fn i64_array(ctx: &Context, v: &[i64]) -> ir::Attribute {
    ir::Attribute::new(ir::AttrData::DenseArray { elem: ctx.i64(), data: ir::attributes::ArrayData::Int(v.to_vec()) })
}

fn verify_extract(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let t = body.value_type(d.operand(0));
    let shape = t.shape().ok_or("expects a ranked tensor or memref operand")?;
    if d.operands().len() != 1 + shape.len() {
        return Err(format!("expects {} indices, got {}", shape.len(), d.operands().len() - 1));
    }
    if d.operands()[1..].iter().any(|&i| !body.value_type(i).is_index()) {
        return Err("expects indices of index type".into());
    }
    if Some(body.value_type(d.result(0))) != t.element_type() {
        return Err("expects the result to have the element type".into());
    }
    Ok(())
}

fn verify_index(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let dim = body.op(op).attr("dim").and_then(|a| a.as_int()).unwrap_or(-1);
    let mut p = body.parent_op(op);
    while let Some(g) = p {
        if body.name(g).as_str() == ops::GENERIC {
            let n = Generic::new(body, g).iterators().len() as i128;
            return if (0..n).contains(&dim) { Ok(()) } else { Err(format!("dim {} is out of range for a generic with {} loops", dim, n)) };
        }
        p = body.parent_op(g);
    }
    Err("expects to be inside a tensor.generic".into())
}

fn verify_empty(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let shape = body.value_type(d.result(0)).shape().ok_or("expects a ranked tensor result")?;
    let dynamic = shape.iter().filter(|&&s| s == ir::types::DYNAMIC).count();
    if d.operands().len() != dynamic {
        return Err(format!("expects {} size operands for the dynamic dimensions, got {}", dynamic, d.operands().len()));
    }
    Ok(())
}

/// `insert_row %src into %dest[%offset] along dim`: the source has the
/// destination's shape without `dim`; the result has the destination's type.
fn verify_insert_row(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let dest = body.value_type(d.operand(1));
    let shape = dest.shape().ok_or("expects a ranked destination")?;
    let dim = d.attr("dim").and_then(|a| a.as_int()).unwrap_or(-1);
    if !(0..shape.len() as i128).contains(&dim) {
        return Err(format!("dim {} is out of range for a rank-{} destination", dim, shape.len()));
    }
    let mut row = shape.to_vec();
    row.remove(dim as usize);
    let src = body.value_type(d.operand(0));
    if src.shape() != Some(&row[..]) || src.element_type() != dest.element_type() {
        return Err(format!("expects a source of the destination's shape without dim {} and its element type, got {}", dim, src));
    }
    if !body.value_type(d.operand(2)).is_index() {
        return Err("expects an offset of index type".into());
    }
    if body.value_type(d.result(0)) != dest {
        return Err("expects the result to have the destination's type".into());
    }
    Ok(())
}

pub const OPS: &[OpDef] = &[
    generic::GENERIC,
    OpDef {
        name: ops::YIELD,
        summary: "Ends a tensor.generic body with one value per output.",
        operands: Count::Any,
        traits: &[Trait::Pure, Trait::IsTerminator, Trait::ReturnLike, Trait::HasParent(ops::GENERIC)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::INDEX,
        summary: "The current iteration's index along one loop of the enclosing tensor.generic.",
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        result_types: &[TC::Index],
        properties: &[required("dim", AttrKind::Integer)],
        verify: Some(verify_index),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::EMPTY,
        summary: "A tensor of a shape whose contents are unspecified: a destination to be written.",
        operands: Count::Any,
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        verify: Some(verify_empty),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::EXTRACT,
        summary: "Reads one element at computed indices (gathers, resizes, pads).",
        operands: Count::AtLeast(1),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        verify: Some(verify_extract),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::COLLAPSE_SHAPE,
        summary: "Merges groups of adjacent dimensions (row-major order kept).",
        operands: Count::Exactly(1),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        properties: &[required("reassociation", AttrKind::Array)],
        verify: Some(reshape::verify_collapse),
        fold: Some(reshape::fold_inverse),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::EXPAND_SHAPE,
        summary: "Splits dimensions into groups of adjacent ones (row-major order kept).",
        operands: Count::AtLeast(1),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        properties: &[required("reassociation", AttrKind::Array), required("static_output_shape", AttrKind::Any)],
        verify: Some(reshape::verify_expand),
        fold: Some(reshape::fold_inverse),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::INSERT_ROW,
        summary: "The destination with its row at a run-time offset along `dim` replaced by the source (a loop's scan outputs).",
        operands: Count::Exactly(3),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        properties: &[required("dim", AttrKind::Integer)],
        verify: Some(verify_insert_row),
        ..OpDef::DEFAULT
    },
    // Named structured ops (named.rs): each generalizes to a tensor.generic.
    named::FILL,
    named::TRANSPOSE,
    named::BROADCAST,
    named::MATMUL,
    named::BATCH_MATMUL,
    named::CONV_2D_NCHW_FCHW,
    named::CONV_2D_NHWC_HWCF,
    named::DEPTHWISE_CONV_2D_NCHW_CHW,
    named::POOLING_NCHW_MAX,
    named::POOLING_NCHW_SUM,
    named::REDUCE,
    named::EXTRACT_SLICE,
    named::PAD,
    named::CONCAT,
    named::INSERT_SLICE,
];

pub static DIALECT: DialectDef = DialectDef { name: "tensor", ops: OPS, materialize_constant: None };

pub fn register(ctx: &Context) {
    ctx.register_dialect(&DIALECT);
}
