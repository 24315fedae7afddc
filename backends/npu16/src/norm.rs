//! Normalizations over the innermost dim, on the vector unit (`npu.layernorm`,
//! `npu.softmax`): ONNX's LayerNormalization and Softmax, and LayerNorm as
//! exporters older than opset 17 write it out (Paddle, PyTorch's
//! `F.layer_norm` at low opsets):
//!
//! ```text
//! m = ReduceMean(x, axes=[-1])  d = Sub(x, m)  p = Pow(d, 2) | Mul(d, d)
//! v = ReduceMean(p, axes=[-1])  s = Sqrt(Add(v, eps))  y = Div(d, s)
//! [y = Mul(y, scale)] [y = Add(y, bias)]        (scale, bias: constants of C)
//! ```
//!
//! The chain is one group for the partitioner and one `npu.layernorm` after
//! conversion; left to the CPU path, it stays the ops it is.

use onnx::ops;
use backend::{Reason, Unsupported};
use ir::{Body, OpId, Value};

/// Longest row (elements of the innermost dim) the kernels take: a row is
/// `C/16` accumulator rows, held twice (double buffering) beside the scale
/// and bias rows, so npu16's 4,096-row accumulator takes up to ~10,000.
pub const MAX_ROW: i64 = 8192;

/// A LayerNorm found in its decomposed form.
pub struct DecomposedLayerNorm {
    pub x: Value,
    pub epsilon: f64,
    pub scale: Option<Value>,
    pub bias: Option<Value>,
    /// Every op of the chain, the first (the mean) first, the last last.
    pub members: Vec<OpId>,
}

impl DecomposedLayerNorm {
    pub fn last(&self) -> OpId {
        *self.members.last().unwrap()
    }
}

fn name(body: &Body, op: OpId) -> &str {
    body.name(op).as_str()
}

fn rank(body: &Body, v: Value) -> Option<i64> {
    body.value_type(v).shape().map(|s| s.len() as i64)
}

/// The only user of `v`, if it has exactly one use.
fn only_user(body: &Body, v: Value) -> Option<OpId> {
    match body.uses(v) {
        [u] => Some(u.op),
        _ => None,
    }
}

/// A ReduceMean over the innermost dim alone, keeping it.
fn mean_of_last(body: &Body, op: OpId) -> Option<Value> {
    if name(body, op) != ops::ReduceMean::NAME {
        return None;
    }
    let o = body.op(op);
    let x = o.operand(0);
    let r = rank(body, x)? as usize;
    let axes = onnx::infer::reduce_axes(body, op, r)??;
    let keep = o.attr("keepdims").and_then(|a| a.as_int()).unwrap_or(1) != 0;
    (keep && r >= 1 && axes == [r - 1]).then_some(x)
}

/// The single constant value of `v`.
fn scalar(body: &Body, v: Value) -> Option<f64> {
    match onnx::infer::const_f64s(body, v)?.as_slice() {
        [x] => Some(*x),
        _ => None,
    }
}

/// The other operand of binary `op` when one of them is `v`.
fn other(body: &Body, op: OpId, v: Value) -> Option<Value> {
    match body.op(op).operands() {
        [a, b] if *a == v => Some(*b),
        [a, b] if *b == v => Some(*a),
        _ => None,
    }
}

/// A constant of one value per element of the innermost dim (`[C]`, `[1, .., C]`).
fn per_element(body: &Body, v: Value, c: i64, rank: usize) -> bool {
    let Some(s) = body.value_type(v).shape() else { return false };
    super::target::is_constant(body, v) && s.len() <= rank && s.last() == Some(&c) && s[..s.len() - 1].iter().all(|d| *d == 1) && body.value_type(v).element_type().is_some_and(|e| e.to_string() == "f32")
}

/// The decomposed LayerNorm whose first op (the mean) is `op`.
pub fn decomposed_layer_norm(body: &Body, op: OpId) -> Option<DecomposedLayerNorm> {
    let x = mean_of_last(body, op)?;
    let m = body.op(op).result(0);
    let sub = only_user(body, m).filter(|s| name(body, *s) == ops::Sub::NAME && body.op(*s).operands() == [x, m])?;
    let d = body.op(sub).result(0);
    // d feeds the square and the division, nothing else.
    let users: Vec<OpId> = body.uses(d).iter().map(|u| u.op).collect();
    let div = *users.iter().find(|u| name(body, **u) == ops::Div::NAME && body.op(**u).operand(0) == d)?;
    let square = *users.iter().find(|u| **u != div)?;
    let squares = match name(body, square) {
        ops::Pow::NAME => body.op(square).operand(0) == d && scalar(body, body.op(square).operand(1)) == Some(2.0),
        ops::Mul::NAME => body.op(square).operands() == [d, d],
        _ => false,
    };
    if !squares || users.iter().any(|u| *u != div && *u != square) {
        return None;
    }
    let var = only_user(body, body.op(square).result(0))?;
    if mean_of_last(body, var) != Some(body.op(square).result(0)) {
        return None;
    }
    let v = body.op(var).result(0);
    let add = only_user(body, v).filter(|a| name(body, *a) == ops::Add::NAME)?;
    let epsilon = scalar(body, other(body, add, v)?)?;
    let sqrt = only_user(body, body.op(add).result(0)).filter(|s| name(body, *s) == ops::Sqrt::NAME)?;
    let s = body.op(sqrt).result(0);
    if only_user(body, s) != Some(div) || body.op(div).operand(1) != s || !(epsilon.is_finite() && epsilon >= 0.0) {
        return None;
    }
    let xs = body.value_type(x).shape()?;
    let (c, r) = (*xs.last()?, xs.len());
    let mut members = vec![op, sub, square, var, add, sqrt, div];
    let (mut scale, mut bias) = (None, None);
    let mut y = body.op(div).result(0);
    if let Some(mul) = only_user(body, y).filter(|u| name(body, *u) == ops::Mul::NAME) {
        if let Some(g) = other(body, mul, y).filter(|g| per_element(body, *g, c, r)) {
            scale = Some(g);
            members.push(mul);
            y = body.op(mul).result(0);
        }
    }
    if let Some(a) = only_user(body, y).filter(|u| name(body, *u) == ops::Add::NAME) {
        if let Some(b) = other(body, a, y).filter(|b| per_element(body, *b, c, r)) {
            bias = Some(b);
            members.push(a);
        }
    }
    Some(DecomposedLayerNorm { x, epsilon, scale, bias, members })
}

/// Whether npu16 runs a normalization of `x` over its innermost dim.
pub fn row_fits(body: &Body, x: Value) -> Result<(), Unsupported> {
    let s = super::target::static_f32(body, x)?;
    if s.contains(&0) {
        return Err(Unsupported::new(Reason::Shape, "an empty tensor to normalize"));
    }
    match s.last() {
        Some(c) if *c <= MAX_ROW => Ok(()),
        Some(c) => Err(Unsupported::new(Reason::Shape, format!("a row of {} values to normalize (the accumulator holds rows of up to {})", c, MAX_ROW))),
        None => Err(Unsupported::new(Reason::Shape, "a scalar to normalize")),
    }
}

/// `axis` of `op` (default `default`) names the innermost dim of its input.
pub fn over_last_axis(body: &Body, op: OpId, default: i64) -> Result<(), Unsupported> {
    let x = body.op(op).operand(0);
    let r = rank(body, x).unwrap_or(0);
    let a = body.op(op).int_attr("axis").unwrap_or(default);
    if a == -1 || a == r - 1 {
        Ok(())
    } else {
        Err(Unsupported::new(Reason::Attribute, format!("axis {} of a rank-{} input (over the innermost dim only)", a, r)))
    }
}
