//! Integer products with zero points, as the array runs them. The array
//! multiplies int8 by int8 with no zero points; ONNX Runtime's
//! `quantize_dynamic` writes `DynamicQuantizeLinear(x) → (a: uint8, s, za)`
//! and `MatMulInteger(a, B, za)` with a run-time `za` and a constant B
//! (int8, or uint8 with its own zero point). Before partitioning, each such
//! MatMulInteger becomes a product of zero points 0 on int8 operands (which
//! the NPU takes) and exact integer corrections (which stay on the CPU):
//!
//! `Σ_k (a - za)(b - zb) = Σ_k a'·b' - za'·Σ_k b' - zb'·(Σ_k a' - K·za')`
//!
//! with `a' = a - 128`, `za' = za - 128` for uint8 A (else `a' = a`) and
//! `b' = b - 128`, `zb' = zb - 128` for uint8 B (done at compile time). The
//! column sums `Σ_k b'` are constants; the row sums of `a'` are computed only
//! where a weight zero point is nonzero. Every term is i32 with wrapping,
//! like ONNX's, so the result is the same integer. An unpadded ConvInteger
//! (one group) is the same with k a window: its `Σ_k a'` per output position
//! is a ConvInteger of `a'` with a filter of ones (on the array too); a
//! padded one stays on the CPU (its padding is the run-time zero point).

use onnx::ops;
use crate::quant::{self, absent, elem};
use ir::attributes::Attribute;
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, OpId, Type, Value};
use onnx::builder::Builder;
use std::collections::HashMap;



fn tensor(ctx: &Context, shape: Vec<i64>, bits: u32) -> Type {
    ctx.intern_type(TypeData::RankedTensor { shape, elem: ctx.int_type(bits), encoding: None })
}

/// A MatMulInteger's constant B as int8 values less their zero points'
/// shift: `(b', zb')` per element and per column (one zb' when per tensor).
struct Weights {
    /// The reduction's length and the outputs (a conv's C·kh·kw and O).
    k: usize,
    n: usize,
    b: Vec<i64>,
    zb: Vec<i64>,
    /// B's shape: [K, N], or a conv's [O, C, kh, kw].
    shape: Vec<i64>,
}

impl Weights {
    /// A ConvInteger's filter (four dims), not a MatMulInteger's matrix.
    fn conv(&self) -> bool {
        self.shape.len() == 4
    }
    /// Σ_k b' for each output.
    fn sums(&self) -> Vec<i64> {
        if self.conv() {
            (0..self.n).map(|j| self.b[j * self.k..(j + 1) * self.k].iter().sum()).collect()
        } else {
            (0..self.n).map(|j| (0..self.k).map(|i| self.b[i * self.n + j]).sum()).collect()
        }
    }
    /// The shape that broadcasts one value per output over the product's result.
    fn per_output(&self) -> Vec<i64> {
        if self.conv() { vec![1, self.n as i64, 1, 1] } else { vec![self.n as i64] }
    }
}

fn weights(body: &Body, op: OpId) -> Option<Weights> {
    let o = body.op(op);
    let b = o.operand(1);
    if !super::target::is_constant(body, b) {
        return None;
    }
    let shape = body.value_type(b).shape()?.to_vec();
    let conv = body.name(op).as_str() == ops::ConvInteger::NAME;
    let (k, n) = match (conv, &shape[..]) {
        (false, [k, n]) => (*k, *n),
        (true, [o, c, kh, kw]) => (c * kh * kw, *o),
        _ => return None,
    };
    let shift = match elem(body, b).as_str() {
        "i8" => 0,
        "ui8" => 128,
        _ => return None,
    };
    let vals = onnx::infer::const_ints(body, b)?;
    let zb = match o.operands().get(3).copied() {
        z if absent(body, z) => vec![0],
        Some(z) => {
            (elem(body, z) == elem(body, b) && super::target::is_constant(body, z)).then_some(())?;
            let zs = onnx::infer::const_ints(body, z)?;
            (zs.len() == 1 || zs.len() as i64 == n).then_some(zs)?
        }
        None => unreachable!(),
    };
    Some(Weights { k: k as usize, n: n as usize, b: vals.iter().map(|x| x - shift).collect(), zb: zb.iter().map(|z| z - shift).collect(), shape })
}

/// Whether `op` is a MatMulInteger this rewrite turns into one the NPU takes.
fn candidate(body: &Body, op: OpId) -> Option<Weights> {
    if !matches!(body.name(op).as_str(), ops::MatMulInteger::NAME | ops::ConvInteger::NAME) || quant::qinteger(body, op).is_ok() {
        return None;
    }
    let o = body.op(op);
    if body.name(op).as_str() == ops::ConvInteger::NAME {
        // Padding would be the run-time zero point (the DMA writes an immediate); one group.
        let ints = |k: &str| body.op(op).ints_attr(k);
        let padded = ints("pads").is_some_and(|p| p.iter().any(|v| *v != 0)) || o.str_attr("auto_pad").is_some_and(|a| a != "NOTSET" && a != "VALID");
        if padded || o.attr("group").and_then(|a| a.as_int()).unwrap_or(1) != 1 || body.value_type(o.operand(0)).shape().is_none_or(|s| s.len() != 4) {
            return None;
        }
    }
    let a = o.operand(0);
    if !matches!(elem(body, a).as_str(), "i8" | "ui8") || body.value_type(a).shape().is_none_or(|s| s.len() < 2) {
        return None;
    }
    // One activation zero point (per-row ones stay on the CPU).
    if let Some(z) = o.operands().get(2).copied().filter(|z| !absent(body, Some(*z))) {
        if elem(body, z) != elem(body, a) || body.value_type(z).num_elements() != Some(1) {
            return None;
        }
    }
    weights(body, op)
}

/// Rewrites every MatMulInteger it can; returns how many.
pub fn rewrite(ctx: &Context, body: &mut Body, module: OpId) -> usize {
    let ops: Vec<OpId> = body.walk_preorder(module).into_iter().filter(|o| matches!(body.name(*o).as_str(), ops::MatMulInteger::NAME | ops::ConvInteger::NAME)).collect();
    // One a' per activation (Q, K and V share theirs).
    let mut shifted: HashMap<Value, Value> = HashMap::new();
    let mut n = 0;
    for op in ops {
        let Some(w) = candidate(body, op) else { continue };
        let o = body.op(op);
        let (a, za) = (o.operand(0), o.operands().get(2).copied().filter(|z| !absent(body, Some(*z))));
        let (res, loc) = (o.result(0), o.loc.clone());
        let out_shape = body.value_type(res).shape().map(|s| s.to_vec());
        let a_shape = body.value_type(a).shape().unwrap().to_vec();
        let unsigned = elem(body, a) == "ui8";
        let res_ty = body.value_type(res).clone();
        // A conv's geometry, for the product and the window sums.
        let geometry: Vec<(&str, Attribute)> = ["strides", "dilations", "kernel_shape"].into_iter().filter_map(|k| o.attr(k).cloned().map(|a| (k, a))).collect();
        let i32t = |shape: Vec<i64>| tensor(ctx, shape, 32);
        let cast = |to: i64| [("to", Attribute::integer(to as i128, ctx.i64()))];
        let mut b = Builder::new(ctx, body, InsertPoint::Before(op), loc);
        // a' = a - 128 for uint8 activations, once per tensor.
        let a8 = match (unsigned, shifted.get(&a)) {
            (false, _) => a,
            (true, Some(v)) => *v,
            (true, None) => {
                let wide = b.op(ops::Cast::NAME, &[a], &[i32t(a_shape.clone())], &cast(6))[0];
                let c128 = b.scalar(&ctx.int_type(32), 128.0);
                let d = b.op(ops::Sub::NAME, &[wide, c128], &[i32t(a_shape.clone())], &[])[0];
                let v = b.op(ops::Cast::NAME, &[d], &[tensor(ctx, a_shape.clone(), 8)], &cast(3))[0];
                shifted.insert(a, v);
                v
            }
        };
        let b8 = b.constant(ctx.int_type(8), w.shape.clone(), w.b.iter().map(|x| *x as i8 as u8).collect());
        let name = if w.conv() { ops::ConvInteger::NAME } else { ops::MatMulInteger::NAME };
        let product = b.op(name, &[a8, b8], &[res_ty], if w.conv() { &geometry } else { &[] })[0];
        let full = out_shape.clone().unwrap_or_default();
        let mut y = product;
        // za' as an i32 scalar (za - 128 for uint8), when there is one.
        let za8 = za.map(|z| {
            let zshape = b.body.value_type(z).shape().map(|s| s.to_vec()).unwrap_or_default();
            let wide = b.op(ops::Cast::NAME, &[z], &[i32t(zshape.clone())], &cast(6))[0];
            if unsigned {
                let c128 = b.scalar(&ctx.int_type(32), 128.0);
                b.op(ops::Sub::NAME, &[wide, c128], &[i32t(zshape)], &[])[0]
            } else {
                wide
            }
        });
        // - za'·Σ_k b'
        if let Some(za8) = za8 {
            let c = b.constant(ctx.int_type(32), w.per_output(), w.sums().iter().flat_map(|x| (*x as i32).to_le_bytes()).collect());
            let t = b.op(ops::Mul::NAME, &[za8, c], &[i32t(w.per_output())], &[])[0];
            y = b.op(ops::Sub::NAME, &[y, t], &[i32t(full.clone())], &[])[0];
        }
        // - zb'·(Σ_k a' - K·za')
        if w.zb.iter().any(|z| *z != 0) {
            // Σ_k a' of each output position: a row sum, or a conv's window sum (a ConvInteger with a filter of ones, on the array too).
            let (row_shape, mut rows) = if w.conv() {
                let mut s = full.clone();
                s[1] = 1;
                let mut ones_shape = w.shape.clone();
                ones_shape[0] = 1;
                let ones = b.constant(ctx.int_type(8), ones_shape, vec![1; w.k]);
                (s.clone(), b.op(ops::ConvInteger::NAME, &[a8, ones], &[i32t(s)], &geometry)[0])
            } else {
                let mut s = a_shape.clone();
                *s.last_mut().unwrap() = 1;
                let wide = b.op(ops::Cast::NAME, &[a8], &[i32t(a_shape.clone())], &cast(6))[0];
                let axes = b.i64s(&[-1]);
                (s.clone(), b.op(ops::ReduceSum::NAME, &[wide, axes], &[i32t(s)], &[("keepdims", Attribute::integer(1, ctx.i64()))])[0])
            };
            if let Some(za8) = za8 {
                let kc = b.scalar(&ctx.int_type(32), w.k as f64);
                let zt = b.body.value_type(za8).clone();
                let kz = b.op(ops::Mul::NAME, &[za8, kc], &[zt], &[])[0];
                rows = b.op(ops::Sub::NAME, &[rows, kz], &[i32t(row_shape.clone())], &[])[0];
            }
            let zshape = if w.zb.len() == 1 { vec![] } else { w.per_output() };
            let zc = b.constant(ctx.int_type(32), zshape, w.zb.iter().flat_map(|x| (*x as i32).to_le_bytes()).collect());
            let t = b.op(ops::Mul::NAME, &[rows, zc], &[i32t(if w.zb.len() == 1 { row_shape } else { full.clone() })], &[])[0];
            y = b.op(ops::Sub::NAME, &[y, t], &[i32t(full.clone())], &[])[0];
        }
        body.replace_op(op, &[y]);
        n += 1;
    }
    n
}
