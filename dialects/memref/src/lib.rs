//! The `memref` dialect, named as upstream MLIR's: buffers (allocation,
//! globals, views) and the loads and stores that the loop level is made of.

pub mod ops;

use ir::dialect::{optional, required, AttrKind, Count, DialectDef, OpDef, Trait, TypeConstraint as TC};
use ir::types::{TypeData, DYNAMIC};
use ir::{Body, Context, OpId, Type};

fn memref_parts(t: &Type) -> Option<(&[i64], &Type)> {
    match t.data() {
        TypeData::MemRef { shape, elem, .. } => Some((shape, elem)),
        _ => None,
    }
}

/// `load %m[%i, ...]` / `store %v, %m[%i, ...]`: one index per dimension, and
/// the value has the element type.
fn check_access(body: &Body, op: OpId, mem_pos: usize, value: Option<&Type>) -> Result<(), String> {
    let d = body.op(op);
    let (shape, elem) = memref_parts(body.value_type(d.operand(mem_pos))).ok_or("expects a ranked memref operand")?;
    let indices = &d.operands()[mem_pos + 1..];
    if indices.len() != shape.len() {
        return Err(format!("expects {} indices for a rank-{} memref, got {}", shape.len(), shape.len(), indices.len()));
    }
    if indices.iter().any(|&i| !body.value_type(i).is_index()) {
        return Err("expects indices of index type".into());
    }
    if let Some(v) = value {
        if v != elem {
            return Err("expects the value to have the memref's element type".into());
        }
    }
    Ok(())
}

fn verify_load(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    check_access(body, op, 0, Some(&body.value_type(body.op(op).result(0)).clone()))
}

fn verify_store(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    check_access(body, op, 1, Some(&body.value_type(body.op(op).operand(0)).clone()))
}

fn verify_prefetch(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    check_access(body, op, 0, None)?;
    match body.op(op).attr("localityHint").and_then(|a| a.as_int()) {
        Some(0..=3) => Ok(()),
        _ => Err("expects a localityHint from 0 to 3".into()),
    }
}

/// One size operand per dynamic dimension of the result.
fn verify_alloc(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let (shape, _) = memref_parts(body.value_type(d.result(0))).ok_or("expects a ranked memref result")?;
    let dynamic = shape.iter().filter(|&&s| s == DYNAMIC).count();
    let sizes = match d.attr("operandSegmentSizes").map(|a| a.data().clone()) {
        Some(ir::attributes::AttrData::DenseArray { data: ir::attributes::ArrayData::Int(v), .. }) => v.first().copied().unwrap_or(0) as usize,
        _ => d.operands().len(),
    };
    if sizes != dynamic {
        return Err(format!("expects {} dynamic size operands for the result's dynamic dimensions, got {}", dynamic, sizes));
    }
    Ok(())
}

fn verify_copy(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let a = memref_parts(body.value_type(d.operand(0))).ok_or("expects memref operands")?;
    let b = memref_parts(body.value_type(d.operand(1))).ok_or("expects memref operands")?;
    if a.1 != b.1 || a.0 != b.0 {
        return Err("expects source and target of the same shape and element type".into());
    }
    Ok(())
}

/// `view %bytes[%shift][%sizes]`: a typed buffer inside a 1-D `i8` buffer
/// (how the JIT passes a model's weights in one argument); both without a
/// layout, one size per dynamic dimension of the result.
fn verify_view(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let bytes = match body.value_type(d.operand(0)).data() {
        TypeData::MemRef { shape, elem, layout: None, .. } if shape.len() == 1 && elem.is_signless_integer() && elem.int_width() == Some(8) => true,
        _ => false,
    };
    if !bytes {
        return Err("expects a 1-D memref of i8 without a layout as its source".into());
    }
    if !body.value_type(d.operand(1)).is_index() || d.operands()[2..].iter().any(|&v| !body.value_type(v).is_index()) {
        return Err("expects the byte shift and sizes of index type".into());
    }
    let shape = match body.value_type(d.result(0)).data() {
        TypeData::MemRef { shape, layout: None, .. } => shape.clone(),
        _ => return Err("expects a memref result without a layout".into()),
    };
    let dynamic = shape.iter().filter(|&&s| s == DYNAMIC).count();
    if d.operands().len() - 2 != dynamic {
        return Err(format!("expects {} size operands for the result's dynamic dimensions, got {}", dynamic, d.operands().len() - 2));
    }
    Ok(())
}

const MEM: &[TC] = &[TC::Any];

/// An allocation: one size operand per dynamic dimension.
const fn alloc(name: &'static str, summary: &'static str) -> OpDef {
    OpDef {
        name,
        summary,
        operands: Count::Any,
        results: Count::Exactly(1),
        properties: ALLOC_PROPS,
        verify: Some(verify_alloc),
        ..OpDef::DEFAULT
    }
}

const ALLOC_PROPS: &[ir::dialect::AttrSpec] = &[optional("operandSegmentSizes", AttrKind::Any), optional("alignment", AttrKind::Integer)];
const VIEW_PROPS: &[ir::dialect::AttrSpec] = &[
    required("operandSegmentSizes", AttrKind::Any),
    required("static_offsets", AttrKind::Any),
    required("static_sizes", AttrKind::Any),
    required("static_strides", AttrKind::Any),
];

/// A view of a buffer with static offsets, sizes and strides.
const fn view(name: &'static str, summary: &'static str) -> OpDef {
    OpDef {
        name,
        summary,
        operands: Count::AtLeast(1),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        properties: VIEW_PROPS,
        ..OpDef::DEFAULT
    }
}

pub const OPS: &[OpDef] = &[
    alloc(ops::ALLOC, "Allocates a buffer on the heap."),
    alloc(ops::ALLOCA, "Allocates a buffer on the stack, freed when the enclosing function returns."),
    OpDef { name: ops::DEALLOC, summary: "Frees a heap buffer.", operands: Count::Exactly(1), operand_types: MEM, ..OpDef::DEFAULT },
    OpDef {
        name: ops::LOAD,
        summary: "Reads one element.",
        operands: Count::AtLeast(1),
        results: Count::Exactly(1),
        properties: &[optional("nontemporal", AttrKind::Any)],
        verify: Some(verify_load),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::STORE,
        summary: "Writes one element.",
        operands: Count::AtLeast(2),
        properties: &[optional("nontemporal", AttrKind::Any)],
        verify: Some(verify_store),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::PREFETCH,
        summary: "A hint that one element's cache line will be read (or written) soon; no effect on values, any index allowed.",
        operands: Count::AtLeast(1),
        properties: &[required("isWrite", AttrKind::Any), required("localityHint", AttrKind::Integer), required("isDataCache", AttrKind::Any)],
        verify: Some(verify_prefetch),
        ..OpDef::DEFAULT
    },
    OpDef { name: ops::COPY, summary: "Copies a whole buffer into another of the same shape.", operands: Count::Exactly(2), verify: Some(verify_copy), ..OpDef::DEFAULT },
    OpDef {
        name: ops::GLOBAL,
        summary: "A named global buffer, optionally constant with an initial value.",
        traits: &[Trait::Symbol],
        properties: &[
            required("sym_name", AttrKind::String),
            required("type", AttrKind::Type),
            optional("initial_value", AttrKind::Any),
            optional("constant", AttrKind::Unit),
            optional("sym_visibility", AttrKind::String),
            optional("alignment", AttrKind::Integer),
        ],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::GET_GLOBAL,
        summary: "The buffer of a memref.global.",
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        properties: &[required("name", AttrKind::SymbolRef)],
        ..OpDef::DEFAULT
    },
    view(ops::REINTERPRET_CAST, "Views a buffer with another shape, offset and strides."),
    view(ops::SUBVIEW, "A strided window of a buffer."),
    OpDef {
        name: ops::VIEW,
        summary: "A typed buffer at a byte offset inside a 1-D i8 buffer.",
        operands: Count::AtLeast(2),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        verify: Some(verify_view),
        ..OpDef::DEFAULT
    },
    OpDef { name: ops::CAST, summary: "Changes static/dynamic shape information.", operands: Count::Exactly(1), results: Count::Exactly(1), traits: &[Trait::Pure], ..OpDef::DEFAULT },
    OpDef {
        name: ops::DIM,
        summary: "The size of one dimension.",
        operands: Count::Exactly(2),
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        result_types: &[TC::Index],
        ..OpDef::DEFAULT
    },
];

pub static DIALECT: DialectDef = DialectDef { name: "memref", ops: OPS, materialize_constant: None };

pub fn register(ctx: &Context) {
    ctx.register_dialect(&DIALECT);
}
