//! The `onnx` dialect: one op per ONNX operator (`onnx.Conv`), defined from
//! the generated table's newest row (operand and result counts, graph
//! attributes as regions, attributes as optional properties of their kind),
//! plus `onnx.Constant`'s value, `onnx.NoValue` for an absent optional input
//! and `onnx.Yield` ending subgraph regions. Older opset forms are normalized
//! to the newest on import.

use crate::table::{self, AttrType, ParamKind};
use ir::dialect::{optional, AttrKind, AttrSpec, Count, DialectDef, OpDef, Trait};
use std::sync::OnceLock;

/// Operators whose results are not a function of their inputs.
const NOT_PURE: &[&str] = &["RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike", "Multinomial", "Bernoulli", "Dropout"];

fn attr_kind(t: AttrType) -> AttrKind {
    match t {
        AttrType::Float => AttrKind::Float,
        AttrType::Int => AttrKind::Integer,
        AttrType::String => AttrKind::String,
        AttrType::TypeProto => AttrKind::Type,
        // Lists are `array<i64: ...>`/`array<f32: ...>` or arrays; tensors are elements attributes.
        _ => AttrKind::Any,
    }
}

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn build() -> &'static [OpDef] {
    let mut defs = vec![];
    for op in table::latest() {
        // Older forms may take fewer inputs and outputs than the newest (they are normalized on import).
        let rows = crate::op_table::OPS.iter().filter(|r| r.name == op.name);
        let (min_in, min_out) = rows.fold((u32::MAX, u32::MAX), |(a, b), r| (a.min(r.min_inputs), b.min(r.min_outputs)));
        let variadic_in = op.inputs.iter().any(|p| p.kind == ParamKind::Variadic);
        let variadic_out = op.outputs.iter().any(|p| p.kind == ParamKind::Variadic);
        let count = |min: u32, max: u32, variadic: bool| {
            if min == max && !variadic {
                Count::Exactly(min as usize)
            } else {
                Count::AtLeast(min as usize)
            }
        };
        let graphs = op.attrs.iter().filter(|a| a.ty == AttrType::Graph).count();
        let props: Vec<AttrSpec> = op
            .attrs
            .iter()
            .filter(|a| a.ty != AttrType::Graph)
            .map(|a| optional(Box::leak(a.name.to_string().into_boxed_str()), attr_kind(a.ty)))
            .collect();
        let traits: &'static [Trait] = if NOT_PURE.contains(&op.name) {
            &[]
        } else if op.name == "Constant" {
            &[Trait::Pure, Trait::ConstantLike]
        } else {
            &[Trait::Pure]
        };
        defs.push(OpDef {
            name: Box::leak(format!("onnx.{}", op.name).into_boxed_str()),
            summary: "An ONNX operator (see the ONNX operator documentation).",
            operands: count(min_in, op.max_inputs, variadic_in),
            results: count(min_out, op.max_outputs, variadic_out),
            // Subgraph regions can be left out by older forms; the importer checks them.
            regions: if graphs == 0 { Count::Exactly(0) } else { Count::Any },
            traits: if graphs > 0 { &[] } else { traits },
            properties: leak(props),
            fold: crate::family::hooks(op.name).and_then(|h| h.fold),
            canonicalize: crate::family::hooks(op.name).and_then(|h| h.patterns),
            verify: Some(if op.name == "Constant" { verify_constant } else { crate::verify_types::verify }),
            ..OpDef::DEFAULT
        });
    }
    defs.push(OpDef {
        name: crate::ops::NO_VALUE,
        summary: "An absent optional input.",
        results: Count::Exactly(1),
        traits: &[Trait::Pure],
        ..OpDef::DEFAULT
    });
    defs.push(OpDef {
        name: crate::ops::YIELD,
        summary: "Ends a subgraph region (If, Loop, Scan); its operands are the subgraph's outputs.",
        operands: Count::Any,
        traits: &[Trait::IsTerminator, Trait::ReturnLike],
        ..OpDef::DEFAULT
    });
    leak(defs)
}

/// `onnx.Constant`'s value must have its result's type: folders and the
/// lowerings read the value's bytes as the result's elements.
fn verify_constant(ctx: &ir::Context, body: &ir::Body, op: ir::OpId) -> Result<(), String> {
    crate::verify_types::verify(ctx, body, op)?;
    let d = body.op(op);
    let value = d.properties.get("value").ok_or("needs a 'value' attribute holding the constant's elements")?;
    let Some(vty) = value.typ() else { return Ok(()) };
    let rty = body.value_type(d.result(0));
    if vty.scalar() != rty.scalar() {
        return Err(format!("value of type '{}' does not match the result's element type '{}'", vty, rty.scalar()));
    }
    if let (Some(vs), Some(rs)) = (vty.shape(), rty.shape()) {
        if vs.len() != rs.len() || vs.iter().zip(rs).any(|(v, r)| *r >= 0 && v != r) {
            return Err(format!("value of type '{}' does not match the result type '{}'", vty, rty));
        }
    }
    Ok(())
}

pub fn ops() -> &'static [OpDef] {
    static OPS: OnceLock<&'static [OpDef]> = OnceLock::new();
    OPS.get_or_init(build)
}

pub fn dialect() -> &'static DialectDef {
    static D: OnceLock<&'static DialectDef> = OnceLock::new();
    D.get_or_init(|| Box::leak(Box::new(DialectDef { name: "onnx", ops: ops(), materialize_constant: Some(crate::fold::materialize) })))
}

/// Operand `i` of `op` if the model gives it: an absent optional input is a
/// `none` value (`onnx.NoValue`).
pub fn present_operand(body: &ir::Body, op: ir::OpId, i: usize) -> Option<ir::Value> {
    let v = *body.op(op).operands().get(i)?;
    (body.value_type(v).data() != &ir::types::TypeData::None).then_some(v)
}

/// A new `onnx.NoValue` (an absent optional input) at `at`.
pub fn no_value(ctx: &ir::Context, body: &mut ir::Body, at: ir::InsertPoint, loc: ir::Location) -> ir::Value {
    crate::builder::Builder::new(ctx, body, at, loc).none()
}
