//! `convert-onnx-to-npu`: in NPU partitions (`backend.partition = "npu16"`), each
//! onnx op becomes its NHWC `npu` op with `onnx.Transpose`s around it;
//! weights are transposed to HWIO (folded into the constants by
//! canonicalization), activations after a conv/matmul/add fold into it, and
//! the 4-D arguments and results the NPU ops read and write in NHWC become
//! NHWC at the partition's edge, with the transposes moved into the caller.
//! Canonicalization then cancels every back-to-back pair, so a chain of NPU
//! ops carries no transpose inside it, and two NPU partitions in a row pass
//! NHWC tensors straight through.

use onnx::builder::Builder;
use onnx::ops;
use ir::attributes::{ArrayData, AttrData, Attribute};
use ir::pass::{Pass, PassContext};
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, Location, OpId, OperationState, Type, Value};

mod chains;
mod int8;
mod moves;
mod products;
use chains::{convert_bilinear, convert_deep_product, convert_lrn, convert_prelu};
use moves::convert_movement;
use products::{convert_conv, convert_conv_transpose, convert_product};
use int8::{convert_qadd, convert_qavgpool, convert_qlut, convert_qmac, requantize_input};

pub struct OnnxToNpu;

pub const TO_NHWC: [i64; 4] = [0, 2, 3, 1];
pub const TO_NCHW: [i64; 4] = [0, 3, 1, 2];

fn i64s(ctx: &Context, v: &[i64]) -> Attribute {
    Attribute::new(AttrData::DenseArray { elem: ctx.i64(), data: ArrayData::Int(v.to_vec()) })
}

fn tensor(ctx: &Context, shape: Vec<i64>, elem: &Type) -> Type {
    ctx.intern_type(TypeData::RankedTensor { shape, elem: elem.clone(), encoding: None })
}

fn shape(body: &Body, v: Value) -> Vec<i64> {
    body.value_type(v).shape().map(|s| s.to_vec()).unwrap_or_default()
}

fn permuted(s: &[i64], p: &[i64]) -> Vec<i64> {
    p.iter().map(|&i| s[i as usize]).collect()
}

/// `onnx.Transpose(x, perm)` at `at`.
pub fn transpose(ctx: &Context, body: &mut Body, x: Value, perm: &[i64], at: InsertPoint, loc: &Location) -> Value {
    let t = body.value_type(x).clone();
    let rt = tensor(ctx, permuted(&shape(body, x), perm), t.element_type().unwrap());
    let mut b = Builder::new(ctx, body, at, loc.clone());
    ops::Transpose::build(&mut b, x, &[rt], &ops::TransposeAttrs { perm: Some(perm.to_vec()) }).transposed(body)
}

/// A new f32 constant of `shape` at `at`.
fn f32_constant(ctx: &Context, body: &mut Body, vals: &[f32], shape: Vec<i64>, at: InsertPoint, loc: &Location) -> Value {
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    constant(ctx, body, bytes, &ctx.f32(), shape, at, loc)
}

/// A new i32 constant of `shape` at `at`.
fn i32_constant(ctx: &Context, body: &mut Body, vals: &[i32], shape: Vec<i64>, at: InsertPoint, loc: &Location) -> Value {
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    constant(ctx, body, bytes, &ctx.i32(), shape, at, loc)
}

fn i16_constant(ctx: &Context, body: &mut Body, vals: &[i16], shape: Vec<i64>, at: InsertPoint, loc: &Location) -> Value {
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    constant(ctx, body, bytes, &ctx.int_type(16), shape, at, loc)
}

/// A new `onnx.Constant` of `elem` and `shape` from its little-endian bytes, at `at`.
fn constant(ctx: &Context, body: &mut Body, bytes: Vec<u8>, elem: &Type, shape: Vec<i64>, at: InsertPoint, loc: &Location) -> Value {
    Builder::new(ctx, body, at, loc.clone()).constant(elem.clone(), shape, bytes)
}

/// `onnx.Reshape(x, to)` at `at`, its shape a new constant.
fn reshape(ctx: &Context, body: &mut Body, x: Value, to: &[i64], at: InsertPoint, loc: &Location) -> Value {
    let rt = tensor(ctx, to.to_vec(), body.value_type(x).element_type().unwrap());
    let mut b = Builder::new(ctx, body, at, loc.clone());
    let shape = b.i64s(to);
    ops::Reshape::build(&mut b, x, shape, &[rt], &Default::default()).reshaped(body)
}

/// Records on a product the MACs of the ONNX op it computes, as the model
/// defines them (`backend::partition::macs`), for the reports' useful MACs.
fn push_macs(ctx: &Context, body: &Body, old: OpId, props: &mut Vec<(&str, Attribute)>) {
    let macs = backend::partition::macs(body, old);
    if macs > 0 {
        props.push(("macs", Attribute::integer(macs as i128, ctx.i64())));
    }
}

/// `op` replaced by `value`, the last of a chain of onnx ops built in its
/// place, each of which is then converted (PRelu, LRN, bilinear Resize, a
/// deep product, a variadic Sum).
fn replace_by_chain(ctx: &Context, body: &mut Body, op: OpId, value: Value, chain: &[OpId]) -> Result<(), String> {
    body.replace_all_uses(body.op(op).result(0), value);
    body.erase(op);
    for c in chain {
        convert_op(ctx, body, *c)?;
    }
    Ok(())
}

/// Builds `name` at `at` with one result of type `ty` and the properties `props`.
fn build(ctx: &Context, body: &mut Body, name: &str, operands: &[Value], ty: Type, props: Vec<(&str, Attribute)>, at: InsertPoint, loc: &Location) -> OpId {
    let mut st = OperationState::new(ctx.op_name(name), loc.clone()).operands(operands).results(&[ty]);
    for (k, v) in props {
        st = st.property(ctx.ident(k), v);
    }
    body.build(st, at)
}

/// `build` in NHWC for a 4-D op (`four`): its operands transposed in, its result back to NCHW; returns that result.
#[allow(clippy::too_many_arguments)]
fn build_nhwc(ctx: &Context, body: &mut Body, name: &str, operands: &[Value], nchw_shape: &[i64], elem: &Type, props: Vec<(&str, Attribute)>, four: bool, at: InsertPoint, loc: &Location) -> Value {
    let operands: Vec<Value> = if four { operands.iter().map(|v| transpose(ctx, body, *v, &TO_NHWC, at, loc)).collect() } else { operands.to_vec() };
    let shape = if four { permuted(nchw_shape, &TO_NHWC) } else { nchw_shape.to_vec() };
    let new = build(ctx, body, name, &operands, tensor(ctx, shape, elem), props, at, loc);
    let r = body.op(new).result(0);
    if four {
        transpose(ctx, body, r, &TO_NCHW, InsertPoint::After(new), loc)
    } else {
        r
    }
}

/// The activation an op's only user applies, if it is one the NPU fuses: (op, act, min, max).
fn fused_activation(body: &Body, y: Value) -> Option<(OpId, &'static str, f64, f64)> {
    let uses = body.uses(y);
    if uses.len() != 1 {
        return None;
    }
    let u = uses[0].op;
    let scalar = |i: usize| -> Option<f64> {
        let v = *body.op(u).operands().get(i)?;
        let d = body.defining_op(v)?;
        let a = body.op(d).attr("value")?;
        match a.data() {
            AttrData::Dense { data, .. } if data.bytes.len() >= 4 => Some(f32::from_le_bytes(data.bytes[..4].try_into().ok()?) as f64),
            _ => None,
        }
    };
    match body.name(u).as_str() {
        ops::Relu::NAME => Some((u, "relu", 0.0, 0.0)),
        ops::Sigmoid::NAME => Some((u, "sigmoid", 0.0, 0.0)),
        ops::Tanh::NAME => Some((u, "tanh", 0.0, 0.0)),
        ops::Clip::NAME => {
            let lo = if body.op(u).operands().len() > 1 { scalar(1)? } else { f32::MIN as f64 };
            let hi = if body.op(u).operands().len() > 2 { scalar(2)? } else { f32::MAX as f64 };
            if lo == 0.0 && hi == 6.0 {
                Some((u, "relu6", lo, hi))
            } else {
                Some((u, "clip", lo, hi))
            }
        }
        _ => None,
    }
}

/// Builds `npu.<name>` with the activation of `y`'s user fused, replacing
/// `old`'s result (through a transpose back to NCHW when `nchw_out`).
#[allow(clippy::too_many_arguments)]
fn emit(ctx: &Context, body: &mut Body, old: OpId, name: &str, operands: &[Value], out_shape: Vec<i64>, props: Vec<(&str, Attribute)>, nchw_out: bool) {
    let back = |ctx: &Context, body: &mut Body, r: Value, loc: &Location| if nchw_out { transpose(ctx, body, r, &TO_NCHW, after(body, r), loc) } else { r };
    emit_then(ctx, body, old, name, operands, out_shape, props, &back);
}

/// Right after the op that defines `v`.
fn after(body: &Body, v: Value) -> InsertPoint {
    InsertPoint::After(body.defining_op(v).expect("a result"))
}

/// `emit`, with `then` turning the new op's result into the value that replaces `old`'s.
#[allow(clippy::too_many_arguments)]
fn emit_then(ctx: &Context, body: &mut Body, old: OpId, name: &str, operands: &[Value], out_shape: Vec<i64>, mut props: Vec<(&str, Attribute)>, then: &dyn Fn(&Context, &mut Body, Value, &Location) -> Value) {
    let loc = body.op(old).loc.clone();
    let y = body.op(old).result(0);
    let elem = body.value_type(y).element_type().unwrap().clone();
    // A pool carries no activation (the vector unit's pooling has none to fuse).
    let pool = name == npu::ops::POOL;
    let act = if pool { None } else { fused_activation(body, y) };
    let mut loc_all = loc.clone();
    if let Some((u, a, lo, hi)) = act {
        props.push(("act", Attribute::string(a)));
        if a == "clip" {
            props.push(("min", Attribute::float(lo, ctx.f32())));
            props.push(("max", Attribute::float(hi, ctx.f32())));
        }
        loc_all = Location::fused(&[loc.clone(), body.op(u).loc.clone()]);
    } else if !pool {
        props.push(("act", Attribute::string("none")));
    }
    push_macs(ctx, body, old, &mut props);
    let op = build(ctx, body, name, operands, tensor(ctx, out_shape, &elem), props, InsertPoint::Before(old), &loc_all);
    let r = then(ctx, body, body.op(op).result(0), &loc_all);
    let final_y = match act {
        Some((u, ..)) => {
            let uy = body.op(u).result(0);
            body.replace_all_uses(uy, r);
            body.erase(u);
            y
        }
        None => y,
    };
    body.replace_all_uses(final_y, r);
    body.erase(old);
}

/// `npu.layernorm` of `x` over its innermost dim in place of the ops
/// `members` (the last one's result is the normalized tensor); scale 1 and
/// bias 0 where absent.
fn convert_layer_norm(ctx: &Context, body: &mut Body, x: Value, epsilon: f64, scale: Option<Value>, bias: Option<Value>, members: &[OpId]) -> Result<(), String> {
    let last = *members.last().ok_or("an empty LayerNorm")?;
    let xs = shape(body, x);
    let c = *xs.last().ok_or("a scalar to normalize")?;
    let row = |v: Option<Value>, d: f32| -> Result<Vec<f32>, String> {
        match v.filter(|v| !matches!(body.value_type(*v).data(), TypeData::None)) {
            Some(v) => {
                let vals = onnx::infer::const_f64s(body, v).ok_or("LayerNorm scale or bias is not constant")?;
                if vals.len() != c as usize {
                    return Err(format!("LayerNorm scale or bias has {} values for rows of {}", vals.len(), c));
                }
                Ok(vals.iter().map(|v| *v as f32).collect())
            }
            None => Ok(vec![d; c as usize]),
        }
    };
    let (sv, bv) = (row(scale, 1.0)?, row(bias, 0.0)?);
    let locs: Vec<Location> = members.iter().map(|m| body.op(*m).loc.clone()).collect();
    let loc = if locs.len() == 1 { locs[0].clone() } else { Location::fused(&locs) };
    let at = InsertPoint::Before(last);
    let s = f32_constant(ctx, body, &sv, vec![c], at, &loc);
    let b = f32_constant(ctx, body, &bv, vec![c], at, &loc);
    let op = build(ctx, body, npu::ops::LAYERNORM, &[x, s, b], tensor(ctx, xs, &ctx.f32()), vec![("epsilon", Attribute::float(epsilon, ctx.f32()))], at, &loc);
    body.replace_all_uses(body.op(last).result(0), body.op(op).result(0));
    for m in members.iter().rev() {
        body.erase(*m);
    }
    Ok(())
}

/// A MatMul whose B is computed (attention's QKᵀ and AV) or a stack of
/// constant matrices: `npu.batch_matmul` between reshapes to 3-D, B read
/// where it lies; a Transpose of B's last two dims is folded in (`transpose_b`).
fn convert_batch_matmul(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let loc = body.op(op).loc.clone();
    let at = InsertPoint::Before(op);
    let (a, mut b) = (body.op(op).operand(0), body.op(op).operand(1));
    let (as_, bs) = (shape(body, a), shape(body, b));
    let ys = shape(body, body.op(op).result(0));
    let nb = crate::target::batches(&as_, &bs).map_err(|e| e.message)?;
    let (r, rb) = (as_.len(), bs.len());
    // B = Transpose(P)(z) with P's last two swapped keeping z's innermost dim
    // innermost: Bᵀ is z moved by whole rows (nothing to move when that swap is
    // the identity), and the product reads it transposed.
    let folded = body.defining_op(b).filter(|t| body.name(*t).as_str() == ops::Transpose::NAME).and_then(|t| crate::target::rows_of_transposed_b(&body.op(t).ints_attr("perm")?).map(|q| (t, q)));
    let tb = folded.is_some();
    if let Some((t, q)) = &folded {
        let z = body.op(*t).operand(0);
        let loc = body.op(*t).loc.clone();
        b = if q.iter().enumerate().all(|(i, p)| i as i64 == *p) { z } else { transpose(ctx, body, z, q, at, &loc) };
    }
    let folded = folded.map(|(t, _)| t);
    let (k, n) = (as_[r - 1], bs[rb - 1]);
    // One B matrix: A's batch dims are more rows.
    let m = if nb == 1 { as_[..r - 1].iter().product() } else { as_[r - 2] };
    let to3 = |ctx: &Context, body: &mut Body, v: Value, s: &[i64]| if shape(body, v) == s { v } else { reshape(ctx, body, v, s, at, &loc) };
    let a3 = to3(ctx, body, a, &[nb, m, k]);
    let b3 = to3(ctx, body, b, &if tb { [nb, n, k] } else { [nb, k, n] });
    let mut props = vec![];
    if tb {
        props.push(("transpose_b", Attribute::unit()));
    }
    let back = move |ctx: &Context, body: &mut Body, v: Value, loc: &Location| if shape(body, v) == ys { v } else { reshape(ctx, body, v, &ys, after(body, v), loc) };
    emit_then(ctx, body, op, npu::ops::BATCH_MATMUL, &[a3, b3], vec![nb, m, n], props, &back);
    if let Some(t) = folded.filter(|t| !body.has_uses(body.op(*t).result(0))) {
        body.erase(t);
    }
    Ok(())
}

/// An f32 product's only user, when it adds a constant row of N values (a
/// projection's bias as exporters write it: MatMul then Add), becomes the
/// product's bias: the Add goes (its uses take the product's result, its
/// location joins the product's) and the row, as an `[N]` constant, is returned.
fn bias_add(ctx: &Context, body: &mut Body, op: OpId, at: InsertPoint) -> Option<Value> {
    let o = body.op(op);
    let gemm_without_c = body.name(op).as_str() == ops::Gemm::NAME && o.operands().get(2).is_none_or(|c| matches!(body.value_type(*c).data(), TypeData::None));
    if body.name(op).as_str() != ops::MatMul::NAME && !gemm_without_c {
        return None;
    }
    let y = o.result(0);
    let ys = shape(body, y);
    let n = *ys.last()?;
    let f32 = |v: Value| body.value_type(v).element_type().is_some_and(|e| e.to_string() == "f32");
    let uses = body.uses(y);
    let add = (uses.len() == 1 && body.name(uses[0].op).as_str() == ops::Add::NAME).then_some(uses[0].op)?;
    let other = body.op(add).operand(1 - uses[0].index as usize);
    let os = shape(body, other);
    let row = onnx::infer::const_f64s(body, other)?;
    if !f32(y) || shape(body, body.op(add).result(0)) != ys || row.len() != n as usize || os.len() > ys.len() || os.last() != Some(&n) {
        return None;
    }
    let vals: Vec<f32> = row.iter().map(|v| *v as f32).collect();
    let loc = Location::fused(&[body.op(op).loc.clone(), body.op(add).loc.clone()]);
    let c = f32_constant(ctx, body, &vals, vec![n], at, &loc);
    body.replace_all_uses(body.op(add).result(0), y);
    body.erase(add);
    body.op_mut(op).loc = loc;
    Some(c)
}

/// A constant B of one matrix (`[K, N]`, or with leading 1s): the weight-stationary product's.
fn one_constant_matrix(body: &Body, b: Value) -> bool {
    let s = shape(body, b);
    crate::target::is_constant(body, b) && s.len() >= 2 && s[..s.len() - 2].iter().all(|d| *d == 1)
}

/// Whether a 4-D value holds attention heads ([N, heads, T, d]) as it is
/// rather than an NCHW image: it comes through reshapes from a tensor of
/// another rank (not a map made of tokens), or from an op that takes 4-D
/// tensors as they are (a row op, a head split's Transpose, an elementwise
/// op built so; a batched product's result is 3-D, reshaped). Elementwise ops on it stay in
/// that layout instead of going to NHWC and back.
fn heads(body: &Body, v: Value) -> bool {
    let Some(d) = body.defining_op(v) else { return false };
    match body.name(d).as_str() {
        ops::Reshape::NAME | ops::Squeeze::NAME | ops::Unsqueeze::NAME | ops::Flatten::NAME => {
            let x = body.op(d).operand(0);
            if shape(body, x).len() == 4 {
                heads(body, x)
            } else {
                crate::tokens::tokens_to_image(body, d).is_none()
            }
        }
        npu::ops::SOFTMAX | npu::ops::LAYERNORM | npu::ops::ELTWISE | npu::ops::ACT | npu::ops::LUT => shape(body, v).len() == 4,
        ops::Transpose::NAME => shape(body, v).len() == 4 && body.op(d).ints_attr("perm").as_deref() != Some(&TO_NCHW[..]),
        _ => false,
    }
}

fn convert_op(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let name = body.name(op);
    if let Some(ln) = crate::norm::decomposed_layer_norm(body, op) {
        return convert_layer_norm(ctx, body, ln.x, ln.epsilon, ln.scale, ln.bias, &ln.members);
    }
    if let Ok(a) = crate::quant::qadd(body, op) {
        return convert_qadd(ctx, body, a);
    }
    if let Ok(a) = crate::quant::qavgpool(body, op) {
        return convert_qavgpool(ctx, body, op, a);
    }
    if let Ok(t) = crate::quant_lut::qlut(body, op).or_else(|_| crate::quant_lut::qswish(body, op)) {
        return convert_qlut(ctx, body, op, t);
    }
    if crate::quant_lut::LUT_FUNCTIONS.contains(&name.as_str()) && crate::quant_lut::swish_of(body, op).is_some() {
        // Its x·f(x) Mul, later in the block, takes it into one table.
        return Ok(());
    }
    if let Ok((xs, q)) = crate::quant::qconcat(body, op) {
        let out = crate::quant::as_q(body, q)?;
        if let Some(i) = xs.iter().position(|x| !crate::quant::same_quantization(x, out.scale, out.zp)) {
            requantize_input(ctx, body, op, i, &xs[i], q)?;
            return convert_op(ctx, body, op);
        }
    }
    let moved = crate::quant::qmaxpool(body, op).map(|(x, q)| (vec![x], q)).or_else(|_| crate::quant::qconcat(body, op));
    if let Ok((xs, q)) = moved {
        // The int8 pool or move: the DQs and the Q go, the op takes and gives int8.
        let qr = body.op(q).result(0);
        body.replace_all_uses(qr, body.op(op).result(0));
        for (i, x) in xs.iter().enumerate() {
            body.set_operand(op, i, x.input);
        }
        let ty = body.value_type(qr).clone();
        body.set_value_type(body.op(op).result(0), ty);
        body.erase(q);
        // A DequantizeLinear may have other readers (one DQ per tensor, as npu-quantize writes).
        for x in &xs {
            if !body.is_erased(x.op) && !body.has_uses(body.op(x.op).result(0)) {
                body.erase(x.op);
            }
        }
        return convert_op(ctx, body, op);
    }
    if matches!(name.as_str(), ops::Conv::NAME | ops::Gemm::NAME | ops::MatMul::NAME | ops::QLinearConv::NAME | ops::QLinearMatMul::NAME) {
        if let Ok(m) = crate::quant::qmac(body, op) {
            return convert_qmac(ctx, body, m);
        }
    }
    if matches!(name.as_str(), ops::Gemm::NAME | ops::MatMul::NAME) && convert_deep_product(ctx, body, op)? {
        return Ok(());
    }
    let o = body.op(op);
    let loc = o.loc.clone();
    let at = InsertPoint::Before(op);
    match name.as_str() {
        ops::Conv::NAME | ops::ConvInteger::NAME => {
            return convert_conv(ctx, body, op);
        }
        ops::ConvTranspose::NAME => {
            return convert_conv_transpose(ctx, body, op);
        }
        ops::MatMul::NAME if !one_constant_matrix(body, o.operand(1)) => {
            return convert_batch_matmul(ctx, body, op);
        }
        ops::Gemm::NAME | ops::MatMul::NAME | ops::MatMulInteger::NAME => {
            return convert_product(ctx, body, op);
        }
        ops::Sum::NAME | ops::Mean::NAME | ops::Max::NAME | ops::Min::NAME if o.operands().len() != 2 || matches!(name.as_str(), ops::Sum::NAME | ops::Mean::NAME) => {
            // Variadic: a chain of binary ops (a Mean then scaled by 1/n).
            let binary = match name.as_str() {
                ops::Max::NAME => ops::Max::NAME,
                ops::Min::NAME => ops::Min::NAME,
                _ => ops::Add::NAME,
            };
            let ty = body.value_type(o.result(0)).clone();
            let operands = o.operands().to_vec();
            let mut chain = vec![];
            let mut acc = operands[0];
            for v in &operands[1..] {
                let b = build(ctx, body, binary, &[acc, *v], ty.clone(), vec![], at, &loc);
                acc = body.op(b).result(0);
                chain.push(b);
            }
            if name.as_str() == ops::Mean::NAME {
                let k = f32_constant(ctx, body, &[1.0 / operands.len() as f32], vec![1], at, &loc);
                let b = build(ctx, body, ops::Mul::NAME, &[acc, k], ty, vec![], at, &loc);
                acc = body.op(b).result(0);
                chain.push(b);
            }
            replace_by_chain(ctx, body, op, acc, &chain)?;
        }
        ops::Add::NAME | ops::Sub::NAME | ops::Mul::NAME | ops::Div::NAME | ops::Max::NAME | ops::Min::NAME => {
            return convert_binary(ctx, body, op);
        }
        ops::PRelu::NAME => {
            return convert_prelu(ctx, body, op);
        }
        ops::LRN::NAME => {
            return convert_lrn(ctx, body, op);
        }
        ops::Pow::NAME => {
            // x^−beta (LRN's divisor, above): v.rsqrt and v.recip.
            let beta = onnx::infer::const_f64s(body, o.operand(1)).and_then(|v| v.first().copied()).map(|e| -e);
            let Some(beta) = beta.filter(|b| npu::tensor_ops::RPOW_BETAS.contains(b)) else {
                return Err("Pow runs on the NPU only as x^-0.5, x^-0.75 or x^-1".into());
            };
            let x = o.operand(0);
            let ys = shape(body, o.result(0));
            let props = vec![("act", Attribute::string("rpow")), ("beta", Attribute::float(beta, ctx.f32()))];
            let r = build_nhwc(ctx, body, npu::ops::ACT, &[x], &ys, &ctx.f32(), props, ys.len() == 4 && !heads(body, x), at, &loc);
            body.replace_all_uses(body.op(op).result(0), r);
            body.erase(op);
        }
        ops::Relu::NAME | ops::Clip::NAME | ops::Sigmoid::NAME | ops::Tanh::NAME | ops::HardSigmoid::NAME | ops::HardSwish::NAME | ops::LeakyRelu::NAME | ops::Erf::NAME => {
            // Standalone (not fused into its producer): its own pass over the data.
            let x = o.operand(0);
            let ys = shape(body, o.result(0));
            let float = |n: &str, d: f64| o.float_attr(n).unwrap_or(d);
            let mut props = vec![];
            let act = match name.as_str() {
                ops::Relu::NAME => "relu",
                ops::Sigmoid::NAME => "sigmoid",
                ops::Tanh::NAME => "tanh",
                ops::HardSwish::NAME => "hardswish",
                ops::Erf::NAME => "erf",
                ops::Clip::NAME => {
                    let bound = |i: usize, d: f32| o.operands().get(i).and_then(|v| onnx::infer::const_f64s(body, *v)).and_then(|v| v.first().copied()).unwrap_or(d as f64);
                    let (lo, hi) = (bound(1, f32::MIN), bound(2, f32::MAX));
                    props.push(("min", Attribute::float(lo, ctx.f32())));
                    props.push(("max", Attribute::float(hi, ctx.f32())));
                    "clip"
                }
                ops::HardSigmoid::NAME => {
                    props.push(("alpha", Attribute::float(float("alpha", 0.2), ctx.f32())));
                    props.push(("beta", Attribute::float(float("beta", 0.5), ctx.f32())));
                    "hardsigmoid"
                }
                _ => {
                    props.push(("alpha", Attribute::float(float("alpha", 0.01), ctx.f32())));
                    "leakyrelu"
                }
            };
            props.push(("act", Attribute::string(act)));
            let r = build_nhwc(ctx, body, npu::ops::ACT, &[x], &ys, &ctx.f32(), props, ys.len() == 4 && !heads(body, x), at, &loc);
            body.replace_all_uses(body.op(op).result(0), r);
            body.erase(op);
        }
        ops::LayerNormalization::NAME => {
            let eps = o.float_attr("epsilon").unwrap_or(1e-5);
            let (x, scale, bias) = (o.operand(0), o.operands().get(1).copied(), o.operands().get(2).copied());
            return convert_layer_norm(ctx, body, x, eps, scale, bias, &[op]);
        }
        ops::Softmax::NAME => {
            // Over the innermost dim of the tensor as it is (a 4-D one stays NCHW).
            let x = o.operand(0);
            let ys = shape(body, o.result(0));
            let r = build(ctx, body, npu::ops::SOFTMAX, &[x], tensor(ctx, ys, &ctx.f32()), vec![], at, &loc);
            body.replace_all_uses(body.op(op).result(0), body.op(r).result(0));
            body.erase(op);
        }
        ops::Resize::NAME if o.str_attr("mode") == Some("linear") => {
            return convert_bilinear(ctx, body, op);
        }
        ops::Slice::NAME | ops::Split::NAME | ops::Concat::NAME | ops::Resize::NAME | ops::Pad::NAME => {
            return convert_movement(ctx, body, op);
        }
        ops::BatchNormalization::NAME => {
            // Inference: a constant scale and shift per channel, as a Mul and an Add on the vector unit.
            let x = o.operand(0);
            let xs = shape(body, x);
            let ty = body.value_type(o.result(0)).clone();
            let p = |i: usize| onnx::infer::const_f64s(body, o.operand(i)).ok_or("BatchNormalization parameters are not constant");
            let (g, b, mean, var) = (p(1)?, p(2)?, p(3)?, p(4)?);
            let eps = o.float_attr("epsilon").unwrap_or(1e-5);
            let scale: Vec<f32> = g.iter().zip(&var).map(|(g, v)| (g / (v + eps).sqrt()) as f32).collect();
            let shift: Vec<f32> = b.iter().zip(&mean).zip(&scale).map(|((b, m), s)| (b - m * *s as f64) as f32).collect();
            let mut cs = vec![1; xs.len()];
            cs[1] = xs[1];
            let sc = f32_constant(ctx, body, &scale, cs.clone(), at, &loc);
            let sh = f32_constant(ctx, body, &shift, cs, at, &loc);
            let mul = build(ctx, body, ops::Mul::NAME, &[x, sc], ty.clone(), vec![], at, &loc);
            let add = build(ctx, body, ops::Add::NAME, &[body.op(mul).result(0), sh], ty, vec![], at, &loc);
            body.replace_all_uses(body.op(op).result(0), body.op(add).result(0));
            body.erase(op);
            convert_op(ctx, body, mul)?;
            convert_op(ctx, body, add)?;
        }
        ops::MaxPool::NAME | ops::AveragePool::NAME | ops::GlobalAveragePool::NAME | ops::GlobalMaxPool::NAME | ops::ReduceMean::NAME => {
            let x = o.operand(0);
            let xs = shape(body, x);
            let ys = shape(body, o.result(0));
            // A mean over H and W (keeping them) is a global average pool.
            let global = matches!(name.as_str(), ops::GlobalAveragePool::NAME | ops::GlobalMaxPool::NAME | ops::ReduceMean::NAME);
            let kind = if matches!(name.as_str(), ops::MaxPool::NAME | ops::GlobalMaxPool::NAME) { "max" } else { "avg" };
            let kernel = if global { vec![xs[2], xs[3]] } else { body.op(op).ints_attr("kernel_shape").unwrap_or_default() };
            let strides = if global { vec![1, 1] } else { body.op(op).ints_attr("strides").unwrap_or(vec![1, 1]) };
            let pads = if global { vec![0; 4] } else { body.op(op).ints_attr("pads").unwrap_or(vec![0; 4]) };
            let cip = body.op(op).int_attr("count_include_pad").unwrap_or(0);
            // MaxPool's unused indices result goes with the op.
            if body.op(op).results().len() > 1 && body.has_uses(body.op(op).result(1)) {
                return Err("MaxPool indices are used".into());
            }
            let xt = transpose(ctx, body, x, &TO_NHWC, at, &loc);
            let props = vec![
                ("kind", Attribute::string(kind)),
                ("kernel", i64s(ctx, &kernel)),
                ("strides", i64s(ctx, &strides)),
                ("pads", i64s(ctx, &pads)),
                ("count_include_pad", Attribute::integer(cip as i128, ctx.i64())),
            ];
            emit(ctx, body, op, npu::ops::POOL, &[xt], permuted(&ys, &TO_NHWC), props, true);
        }
        _ => {}
    }
    Ok(())
}

/// Add, Sub, Mul, Div, Max and Min of two tensors as one `npu.eltwise`: the
/// broadcast or constant operand second, a division by a constant as a
/// product with its reciprocal, images in NHWC.
fn convert_binary(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let name = body.name(op);
    let o = body.op(op);
    let loc = o.loc.clone();
    let at = InsertPoint::Before(op);
    let mut kind = name.as_str()[5..].to_lowercase();
    let (mut a, mut b) = (o.operand(0), o.operand(1));
    let ys = shape(body, o.result(0));
    // The broadcast operand goes second (b − a for a subtraction), and so
    // does a constant (the kernel streams the first operand from DRAM).
    let constant = |v: Value| body.defining_op(v).is_some_and(|d| body.name(d).as_str() == ops::Constant::NAME);
    if shape(body, a) != ys || (constant(a) && !constant(b) && shape(body, b) == ys && kind != "div") {
        std::mem::swap(&mut a, &mut b);
        if kind == "sub" {
            kind = "rsub".into();
        }
    }
    let bs = shape(body, b);
    let n: i64 = bs.iter().product();
    // A one-per-channel operand is [1, .., 1, C] in the NPU's layout (channels innermost).
    let per_channel = bs != ys && n != 1;
    let b_shape = if per_channel { [vec![1; ys.len() - 1], vec![n]].concat() } else { bs.clone() };
    // A division by a constant is a product with its reciprocal (the vector unit has no divide).
    let b = match onnx::infer::const_f64s(body, b) {
        Some(v) => {
            let v: Vec<f32> = v.iter().map(|x| if kind == "div" { (1.0 / x) as f32 } else { *x as f32 }).collect();
            f32_constant(ctx, body, &v, b_shape, at, &loc)
        }
        None if per_channel => reshape(ctx, body, b, &b_shape, at, &loc),
        None => b,
    };
    // A 4-D image goes to NHWC, its full 4-D operand too (canonicalization
    // folds the transpose of a constant); attention heads stay as they are.
    // (A 4-D operand one per channel is [1, C, 1, 1]: NHWC, whatever the input.)
    let image = ys.len() == 4 && (!heads(body, a) || per_channel);
    let b2 = if image && bs == ys { transpose(ctx, body, b, &TO_NHWC, at, &loc) } else { b };
    if kind == "div" {
        kind = "mul".into();
    }
    let props = vec![("kind", Attribute::string(&kind))];
    if image {
        let at_ = transpose(ctx, body, a, &TO_NHWC, at, &loc);
        emit(ctx, body, op, npu::ops::ELTWISE, &[at_, b2], permuted(&ys, &TO_NHWC), props, true);
    } else {
        emit(ctx, body, op, npu::ops::ELTWISE, &[a, b2], ys, props, false);
    }
    Ok(())
}

/// NHWC at the partition's edge: 4-D arguments and results change type, and
/// the transposes move to the callers (where consecutive partitions cancel them).
fn nhwc_signature(ctx: &Context, body: &mut Body, module: OpId, f: OpId) -> Result<(), String> {
    let entry = body.entry_block(f).ok_or("no body")?;
    let fname = body.op(f).str_attr("sym_name").unwrap_or("").to_string();
    let loc = body.op(f).loc.clone();
    let mut arg_changed = vec![];
    // Only tensors the NPU ops read or write in NHWC (images) change layout at the
    // edge; other 4-D tensors (attention heads) keep theirs, so no transpose moves their innermost dim.
    let is_perm = |body: &Body, op: OpId, perm: &[i64]| body.name(op).as_str() == ops::Transpose::NAME && body.op(op).ints_attr("perm").as_deref() == Some(perm);
    for (i, a) in body.block_args(entry).to_vec().into_iter().enumerate() {
        let s = shape(body, a);
        if s.len() != 4 || body.uses(a).is_empty() || !body.uses(a).iter().all(|u| is_perm(body, u.op, &TO_NHWC)) {
            continue;
        }
        let elem = body.value_type(a).element_type().unwrap().clone();
        body.set_value_type(a, tensor(ctx, permuted(&s, &TO_NHWC), &elem));
        let first = body.first_op(entry).unwrap();
        // Uses see the NCHW tensor through a transpose (built from a placeholder first).
        let uses = body.uses(a).to_vec();
        let t = transpose(ctx, body, a, &TO_NCHW, InsertPoint::Before(first), &loc);
        let top = body.defining_op(t).unwrap();
        for u in uses {
            if u.op != top {
                body.set_operand(u.op, u.index as usize, t);
            }
        }
        arg_changed.push(i);
    }
    let ret = body.last_op(entry).unwrap();
    let mut res_changed = vec![];
    for (i, r) in body.op(ret).operands().to_vec().into_iter().enumerate() {
        if shape(body, r).len() != 4 || !body.defining_op(r).is_some_and(|d| is_perm(body, d, &TO_NCHW)) {
            continue;
        }
        let t = transpose(ctx, body, r, &TO_NHWC, InsertPoint::Before(ret), &loc);
        body.set_operand(ret, i, t);
        res_changed.push(i);
    }
    let ins: Vec<Type> = body.block_args(entry).iter().map(|a| body.value_type(*a).clone()).collect();
    let outs: Vec<Type> = body.op(ret).operands().iter().map(|v| body.value_type(*v).clone()).collect();
    let ft = ctx.intern_type(TypeData::Function { inputs: ins, results: outs.clone() });
    body.op_mut(f).properties.set(ctx.ident("function_type"), Attribute::type_attr(ft));
    // Callers.
    for call in body.walk_preorder(module) {
        if body.name(call).as_str() != func::ops::CALL || body.op(call).attr("callee").and_then(|a| a.as_symbol()).map(|s| s.join("::")) != Some(fname.clone()) {
            continue;
        }
        let cloc = body.op(call).loc.clone();
        for &i in &arg_changed {
            let v = body.op(call).operand(i);
            let t = transpose(ctx, body, v, &TO_NHWC, InsertPoint::Before(call), &cloc);
            body.set_operand(call, i, t);
        }
        for &i in &res_changed {
            let r = body.op(call).result(i);
            let uses = body.uses(r).to_vec();
            body.set_value_type(r, outs[i].clone());
            let t = transpose(ctx, body, r, &TO_NCHW, InsertPoint::After(call), &cloc);
            for u in uses {
                body.set_operand(u.op, u.index as usize, t);
            }
        }
    }
    Ok(())
}

/// An NHWC feature map turned into tokens, or tokens into one that an NPU op
/// reads in NHWC (`tokens.rs`), is a Reshape of the NHWC tensor: the
/// transposes to NCHW and back go.
fn tokens_as_reshapes(ctx: &Context, body: &mut Body, entry: ir::Block) {
    let ts: Vec<OpId> = body.block_ops(entry).filter(|o| body.name(*o).as_str() == ops::Transpose::NAME).collect();
    for t in ts {
        let nhwc = |v: Value| body.defining_op(v).filter(|d| body.name(*d).as_str() == ops::Transpose::NAME && body.op(*d).ints_attr("perm").as_deref() == Some(&TO_NCHW[..])).map(|d| body.op(d).operand(0));
        let src = match crate::tokens::image_to_tokens(body, t) {
            Some(img) => nhwc(crate::tokens::unaliased(body, img)),
            None if body.op(t).ints_attr("perm").as_deref() == Some(&TO_NHWC[..]) => body.defining_op(body.op(t).operand(0)).and_then(|r| crate::tokens::tokens_to_image(body, r)),
            None => None,
        };
        let Some(src) = src else { continue };
        let y = body.op(t).result(0);
        let loc = body.op(t).loc.clone();
        let r = reshape(ctx, body, src, &shape(body, y), InsertPoint::Before(t), &loc);
        body.replace_all_uses(y, r);
        body.erase(t);
    }
}

/// A DequantizeLinear of a constant that no int8 pattern takes (the weights
/// of a product that runs in f32) becomes the f32 constant it computes, as
/// the CPU path's `onnx-fold-dequantized-weights` does.
fn fold_float_weights(ctx: &Context, body: &mut Body, ops: &[OpId]) {
    for &op in ops {
        if body.name(op).as_str() != ops::DequantizeLinear::NAME || !crate::target::is_constant(body, body.op(op).operand(0)) {
            continue;
        }
        let r = body.op(op).result(0);
        if body.uses(r).iter().any(|u| crate::quant::qmac(body, u.op).is_ok()) {
            continue;
        }
        let Some((d, f)) = crate::quant::dq(body, r).ok().and_then(|d| d.dequantized(body).map(|f| (d, f))) else { continue };
        let loc = body.op(op).loc.clone();
        let c = f32_constant(ctx, body, &f, shape(body, d.input), InsertPoint::Before(op), &loc);
        body.replace_all_uses(r, c);
        body.erase(op);
    }
}

impl Pass for OnnxToNpu {
    fn argument(&self) -> &'static str {
        "convert-onnx-to-npu"
    }
    fn display_name(&self) -> &'static str {
        "OnnxToNpu"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let mb = body.region_blocks(body.op(module).regions()[0])[0];
        let funcs: Vec<OpId> = body.block_ops(mb).filter(|f| backend::partition::partition_backend(body, *f) == Some(crate::target::NAME)).collect();
        for f in funcs {
            let entry = body.entry_block(f).ok_or("no body")?;
            let ops: Vec<OpId> = body.block_ops(entry).collect();
            // A Transpose without `perm` reverses the dims (ONNX's default): written out, for every reader after.
            for &op in &ops {
                if body.name(op).as_str() == ops::Transpose::NAME && body.op(op).attr("perm").is_none() {
                    if let Some(perm) = onnx::infer::transpose_perm(body, op) {
                        let perm: Vec<i64> = perm.iter().map(|p| *p as i64).collect();
                        body.op_mut(op).properties.set(ctx.ident("perm"), i64s(ctx, &perm));
                    }
                }
            }
            fold_float_weights(ctx, body, &ops);
            for op in ops {
                if body.is_erased(op) {
                    continue;
                }
                convert_op(ctx, body, op).map_err(|e| format!("{}: {}", body.op(op).loc, e))?;
            }
            tokens_as_reshapes(ctx, body, entry);
            // Flatten of [1, C, 1, 1] is a reshape (the same bytes in either layout).
            let ops: Vec<OpId> = body.block_ops(entry).filter(|o| body.name(*o).as_str() == ops::Flatten::NAME).collect();
            for op in ops {
                let (x, y) = (body.op(op).operand(0), body.op(op).result(0));
                let loc = body.op(op).loc.clone();
                let r = reshape(ctx, body, x, &shape(body, y), InsertPoint::Before(op), &loc);
                body.replace_all_uses(y, r);
                body.erase(op);
            }
            nhwc_signature(ctx, body, module, f)?;
        }
        Ok(())
    }
}
