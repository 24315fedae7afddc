//! What ACME runs, one row per op: static f32 tensors; 2-D matrix products;
//! Add of equal shapes (no broadcasting); Relu. Each refusal has its code.

use backend::{Capability, CapabilityCase, Reason, Unsupported};
use ir::{Body, OpId, Value};

type Check = fn(&Body, OpId) -> Result<(), Unsupported>;

/// Each op ACME runs: its check, and its constraints in words (its docs page and test kit read them).
const ROWS: &[(&str, Check, &str)] = &[
    ("onnx.MatMul", matmul, "static f32 matrices (2-D by 2-D)"),
    ("onnx.Add", same_shapes, "static f32 tensors of the same shape (no broadcasting)"),
    ("onnx.Relu", any, "static f32 tensors"),
];

/// The corners of the table's constraints: models whose op runs on ACME or
/// falls back with the code given (the framework's test kit runs them).
pub const CASES: &[CapabilityCase] = &[
    CapabilityCase { name: "matmul_2d", model: "g (float[4,8] x, float[8,2] w) => (float[4,2] y) { y = MatMul (x, w) }", op: "onnx.MatMul", refused: None },
    CapabilityCase { name: "matmul_3d", model: "g (float[2,4,8] x, float[8,2] w) => (float[2,4,2] y) { y = MatMul (x, w) }", op: "onnx.MatMul", refused: Some(Reason::Shape) },
    CapabilityCase { name: "add_same_shapes", model: "g (float[4,8] x) => (float[4,8] y) { y = Add (x, x) }", op: "onnx.Add", refused: None },
    CapabilityCase { name: "add_broadcast", model: "g (float[4,8] x, float[8] b) => (float[4,8] y) { y = Add (x, b) }", op: "onnx.Add", refused: Some(Reason::Shape) },
    CapabilityCase { name: "relu", model: "g (float[4,8] x) => (float[4,8] y) { y = Relu (x) }", op: "onnx.Relu", refused: None },
    CapabilityCase { name: "relu_int32", model: "g (int32[4,8] x) => (int32[4,8] y) { y = Relu (x) }", op: "onnx.Relu", refused: Some(Reason::ElementType) },
];

/// The table as the framework lists it (`Backend::capabilities`).
pub fn capabilities() -> Vec<Capability> {
    ROWS.iter().map(|(op, _, constraints)| Capability { op, constraints }).collect()
}

pub fn supports(body: &Body, op: OpId) -> Result<(), Unsupported> {
    let name = body.name(op);
    let (_, check, _) = ROWS.iter().find(|(n, _, _)| *n == name.as_str()).ok_or_else(|| Unsupported::new(Reason::NoLowering, format!("ACME has no {}", name.as_str())))?;
    for &v in body.op(op).operands().iter().chain(body.op(op).results()) {
        f32_shape(body, v)?;
    }
    check(body, op)
}

/// The static shape of an f32 tensor, or the reason ACME cannot take it.
pub fn f32_shape(body: &Body, v: Value) -> Result<Vec<i64>, Unsupported> {
    let t = body.value_type(v);
    let shape = t.shape().filter(|s| s.iter().all(|d| *d >= 0)).ok_or_else(|| Unsupported::new(Reason::DynamicShape, format!("{} is not static", t)))?;
    if t.element_type().map(|e| e.to_string()).as_deref() != Some("f32") {
        return Err(Unsupported::new(Reason::ElementType, format!("{} (ACME computes in f32)", t)));
    }
    Ok(shape.to_vec())
}

fn matmul(body: &Body, op: OpId) -> Result<(), Unsupported> {
    let o = body.op(op);
    let (a, b) = (f32_shape(body, o.operand(0))?, f32_shape(body, o.operand(1))?);
    if a.len() != 2 || b.len() != 2 {
        return Err(Unsupported::new(Reason::Shape, format!("a {}-D by {}-D product (ACME multiplies matrices)", a.len(), b.len())));
    }
    Ok(())
}

fn same_shapes(body: &Body, op: OpId) -> Result<(), Unsupported> {
    let o = body.op(op);
    let (a, b) = (f32_shape(body, o.operand(0))?, f32_shape(body, o.operand(1))?);
    if a != b {
        return Err(Unsupported::new(Reason::Shape, format!("broadcasting {:?} with {:?}", a, b)));
    }
    Ok(())
}

fn any(_: &Body, _: OpId) -> Result<(), Unsupported> {
    Ok(())
}
