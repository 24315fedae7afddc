//! Canonicalization patterns that later lowerings rely on: inference-mode
//! Dropout removed, BatchNormalization and a constant per-channel Mul or Add
//! folded into the Conv or ConvTranspose before it (when both have constant parameters), a zero Pad of the spatial dims
//! folded into the Conv after it, Gemm's transpose of a constant B folded
//! into the constant, transposes composed or folded into constants, an If
//! on a constant condition replaced by its branch, and an old-opset Softmax's
//! Flatten/Reshape removed where its axis is the last.

use crate::ops;
use ir::attributes::{AttrData, Attribute, DenseData};
use ir::rewrite::{MatchFailure, PatternSet, Rewriter};
use ir::types::TypeData;
use ir::{Body, OpId, OperationState, Value};
use std::sync::Arc;

/// The f32 values of a constant operand.
fn const_f32(body: &Body, v: Value) -> Option<(Vec<f32>, Vec<i64>)> {
    let d = body.defining_op(v)?;
    if body.name(d).as_str() != ops::Constant::NAME {
        return None;
    }
    let a = body.op(d).properties.get("value")?;
    let (ty, bytes, splat) = crate::infer::stored_bytes(a)?;
    if ty.scalar().float_kind() != Some(ir::FloatKind::F32) {
        return None;
    }
    let n = ty.num_elements()? as usize;
    let at = |i: usize| f32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
    Some(((0..n).map(|i| at(if splat { 0 } else { i })).collect(), ty.shape()?.to_vec()))
}

fn f32_constant(rw: &mut Rewriter, vals: &[f32], shape: Vec<i64>, loc: ir::Location) -> Value {
    let ty = rw.ctx.intern_type(TypeData::RankedTensor { shape, elem: rw.ctx.f32(), encoding: None });
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let a = if bytes.len() >= 1024 {
        Attribute::new(AttrData::DenseResource { ty: ty.clone(), resource: ir::attributes::Resource::new(&format!("folded_{}", rw.body.op_capacity()), 16, Arc::new(bytes)) })
    } else {
        Attribute::new(AttrData::Dense { ty: ty.clone(), data: DenseData::canonical(bytes, 4, vals.len()) })
    };
    let st = OperationState::new(rw.ctx.op_name(ops::Constant::NAME), loc).property(rw.ctx.ident("value"), a).results(&[ty]);
    rw.create_value(st)
}

/// Dropout in inference (no training-mode input, or a constant false one) with an unused mask is its input.
fn dropout_is_identity(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let d = rw.body.op(op);
    if d.results().len() > 1 && rw.body.has_uses(d.result(1)) {
        return rw.match_failure("the mask is used");
    }
    if let Some(&t) = d.operands().get(2) {
        if rw.body.value_type(t).data() != &TypeData::None && crate::infer::const_ints(rw.body, t).unwrap_or(vec![1]) != vec![0] {
            // A bool constant reads as 0/1 through const_ints; anything else may be training.
            return rw.match_failure("training mode is not known to be off");
        }
    }
    let x = d.operand(0);
    let results = d.results().to_vec();
    for r in results {
        let users: Vec<_> = rw.body.uses(r).iter().map(|u| (u.op, u.index as usize)).collect();
        for (u, i) in users {
            rw.modify_in_place(u, |b| b.set_operand(u, i, x));
        }
    }
    rw.erase_op(op);
    Ok(())
}

/// Conv(X, W, B) → BatchNormalization(scale, bias, mean, var) with constant
/// parameters becomes one Conv with W' = W·s and B' = (B − mean)·s + bias,
/// s = scale / √(var + ε), per output channel.
fn fold_batch_norm_into_conv(bn: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let b = &*rw.body;
    let d = b.op(bn);
    if d.results().len() != 1 || d.properties.get("training_mode").and_then(|a| a.as_int()).unwrap_or(0) != 0 {
        return rw.match_failure("not inference-mode BatchNormalization");
    }
    let x = d.operand(0);
    let Some(conv) = b.defining_op(x).filter(|c| is_conv(b, *c)) else { return rw.match_failure("input is not a Conv") };
    if b.uses(x).len() != 1 {
        return rw.match_failure("the Conv has other users");
    }
    let eps = d.properties.get("epsilon").and_then(|a| a.as_float()).unwrap_or(1e-5) as f32;
    let params: Option<Vec<Vec<f32>>> = (1..5).map(|i| const_f32(b, d.operand(i)).map(|p| p.0)).collect();
    let Some(params) = params else { return rw.match_failure("parameters are not f32 constants") };
    let (w, wshape, bias0, channel) = match conv_params(b, conv) {
        Ok(p) => p,
        Err(why) => return rw.match_failure(why),
    };
    let f = bias0.len();
    if params.iter().any(|p| p.len() != f) {
        return rw.match_failure("parameter sizes do not match the output channels");
    }
    let (scale, shift, mean, var) = (&params[0], &params[1], &params[2], &params[3]);
    let s: Vec<f32> = (0..f).map(|i| scale[i] / (var[i] + eps).sqrt()).collect();
    let w2: Vec<f32> = w.iter().enumerate().map(|(i, v)| v * s[channel.of(i)]).collect();
    let b2: Vec<f32> = (0..f).map(|i| (bias0[i] - mean[i]) * s[i] + shift[i]).collect();
    replace_with_conv(rw, conv, bn, &w2, wshape, &b2);
    Ok(())
}

fn is_conv(b: &Body, op: OpId) -> bool {
    matches!(b.name(op).as_str(), ops::Conv::NAME | ops::ConvTranspose::NAME)
}

/// Which output channel each weight of a Conv or ConvTranspose feeds.
struct OutputChannel {
    /// Weights per (input, output) channel pair: the kernel's size.
    kernel: usize,
    /// The weights' second dim (Conv: input channels per group, ConvTranspose: output channels per group).
    dim1: usize,
    /// ConvTranspose: input channels per group (its output channel depends on the input's group).
    transposed: Option<usize>,
}

impl OutputChannel {
    fn of(&self, i: usize) -> usize {
        let pair = i / self.kernel;
        match self.transposed {
            None => pair / self.dim1,
            Some(cin_g) => pair / self.dim1 / cin_g * self.dim1 + pair % self.dim1,
        }
    }
}

/// A Conv's or ConvTranspose's f32 constant weights with their shape, its
/// bias (zeros when absent), one per output channel, and which output channel each weight feeds.
fn conv_params(b: &Body, conv: OpId) -> Result<(Vec<f32>, Vec<i64>, Vec<f32>, OutputChannel), &'static str> {
    let c = b.op(conv);
    let (w, wshape) = const_f32(b, c.operand(1)).ok_or("weights are not an f32 constant")?;
    if wshape.len() < 2 || wshape.iter().any(|d| *d <= 0) {
        return Err("the weights have no output channels");
    }
    let kernel = wshape[2..].iter().product::<i64>() as usize;
    let dim1 = wshape[1] as usize;
    let (f, transposed) = if b.name(conv).as_str() == ops::ConvTranspose::NAME {
        let g = c.attr("group").and_then(|a| a.as_int()).unwrap_or(1) as usize;
        if g == 0 || wshape[0] as usize % g != 0 {
            return Err("the weights do not divide into the groups");
        }
        (dim1 * g, Some(wshape[0] as usize / g))
    } else {
        (wshape[0] as usize, None)
    };
    let bias = match c.operands().get(2) {
        Some(&v) if b.value_type(v).data() != &TypeData::None => match const_f32(b, v) {
            Some((bv, _)) if bv.len() == f => bv,
            _ => return Err("the Conv bias is not a matching f32 constant"),
        },
        _ => vec![0.0; f],
    };
    Ok((w, wshape, bias, OutputChannel { kernel, dim1, transposed }))
}

/// Replaces `op`, the only user of `conv`, by one Conv with weights `w` and
/// bias `bias` (the location of both).
fn replace_with_conv(rw: &mut Rewriter, conv: OpId, op: OpId, w: &[f32], wshape: Vec<i64>, bias: &[f32]) {
    let c = rw.body.op(conv);
    let (cx, loc, props, rt) = (c.operand(0), c.loc.clone(), c.properties.clone(), rw.body.value_type(rw.body.op(op).result(0)).clone());
    let fused_loc = ir::Location::fused(&[loc, rw.body.op(op).loc.clone()]);
    rw.set_insertion_point(ir::InsertPoint::Before(op));
    let wv = f32_constant(rw, w, wshape, fused_loc.clone());
    let bv = f32_constant(rw, bias, vec![bias.len() as i64], fused_loc.clone());
    let mut st = OperationState::new(rw.ctx.op_name(rw.body.name(conv).as_str()), fused_loc).operands(&[cx, wv, bv]).results(&[rt]);
    st.properties = props;
    let new = rw.create(st);
    let nv = rw.body.op(new).result(0);
    rw.replace_op(op, &[nv]);
    rw.erase_op(conv);
}

/// Conv → Mul or Add by a constant that is one value per output channel (or
/// one value): the scale goes into the weights and bias (W' = W·s, B' = B·s),
/// the shift into the bias (B' = B + a). Exporters write a BatchNormalization
/// this way; after it the Conv's activation can fuse.
fn fold_channel_affine_into_conv(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let b = &*rw.body;
    let d = b.op(op);
    let mul = b.name(op).as_str() == ops::Mul::NAME;
    let conv_of = |v: Value| b.defining_op(v).filter(|c| is_conv(b, *c));
    let (conv, k) = match (conv_of(d.operand(0)), conv_of(d.operand(1))) {
        (Some(c), _) if const_f32(b, d.operand(1)).is_some() => (c, d.operand(1)),
        (_, Some(c)) if const_f32(b, d.operand(0)).is_some() => (c, d.operand(0)),
        _ => return rw.match_failure("not a Conv and an f32 constant"),
    };
    let y = b.op(conv).result(0);
    if b.uses(y).len() != 1 {
        return rw.match_failure("the Conv has other users");
    }
    // The result keeps the Conv's shape: the constant broadcasts into it.
    let (Some(out), Some(rt)) = (b.value_type(y).shape(), b.value_type(d.result(0)).shape()) else { return rw.match_failure("shapes are not known") };
    if out != rt || out.len() < 2 {
        return rw.match_failure("the constant changes the result's shape");
    }
    let Some((kv, kshape)) = const_f32(b, k) else { return rw.match_failure("not an f32 constant") };
    let (w, wshape, bias, channel) = match conv_params(b, conv) {
        Ok(p) => p,
        Err(why) => return rw.match_failure(why),
    };
    let f = bias.len();
    // Right-aligned to the output's rank, only the channel axis (1) may differ from 1.
    let lead = out.len() as i64 - kshape.len() as i64;
    let per_channel = lead >= 0 && kshape.iter().enumerate().all(|(i, dim)| *dim == 1 || (i as i64 + lead == 1 && *dim == f as i64));
    if !per_channel {
        return rw.match_failure("the constant is not one value per output channel");
    }
    let at = |c: usize| if kv.len() == 1 { kv[0] } else { kv[c] };
    let (w2, b2): (Vec<f32>, Vec<f32>) = if mul {
        (w.iter().enumerate().map(|(i, v)| v * at(channel.of(i))).collect(), (0..f).map(|c| bias[c] * at(c)).collect())
    } else {
        (w, (0..f).map(|c| bias[c] + at(c)).collect())
    };
    replace_with_conv(rw, conv, op, &w2, wshape, &b2);
    Ok(())
}

/// Conv(Pad(x)) with zeros on the spatial dims only: the Conv pads instead
/// (tf2onnx writes TensorFlow's SAME padding, PyTorch its ZeroPad2d, this way).
fn fold_pad_into_conv(conv: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let b = &*rw.body;
    let Some(c) = ops::Conv::of(b, conv) else { return rw.match_failure("not a Conv") };
    let Some(p) = b.defining_op(c.x(b)).and_then(|p| ops::Pad::of(b, p)) else { return rw.match_failure("input is not a Pad") };
    if p.mode(b) != "constant" {
        return rw.match_failure("not constant padding");
    }
    if let Some(v) = p.constant_value(b) {
        if !crate::infer::const_f64s_upto(b, v, 1).is_some_and(|v| v.iter().all(|x| *x == 0.0)) {
            return rw.match_failure("the padding value is not zero");
        }
    }
    if c.auto_pad(b) != "NOTSET" {
        return rw.match_failure("the Conv pads automatically");
    }
    let Some(rank) = b.value_type(p.data(b)).shape().map(|s| s.len()) else { return rw.match_failure("unranked input") };
    let Some(pads) = crate::infer::pad_amounts(b, p.op()).filter(|_| rank > 2) else { return rw.match_failure("pads (and axes) are not constants") };
    if pads.iter().any(|v| *v < 0) || pads[0] != 0 || pads[1] != 0 || pads[rank] != 0 || pads[rank + 1] != 0 {
        return rw.match_failure("pads that crop, or pad the batch or channels");
    }
    let s = rank - 2;
    let mut cp = c.pads(b).filter(|v| v.len() == 2 * s).unwrap_or(vec![0; 2 * s]);
    for i in 0..s {
        cp[i] += pads[2 + i];
        cp[s + i] += pads[rank + 2 + i];
    }
    let x = p.data(b);
    let attr = Attribute::new(AttrData::DenseArray { elem: rw.ctx.i64(), data: ir::attributes::ArrayData::Int(cp) });
    let name = rw.ctx.ident("pads");
    rw.modify_in_place(conv, |b| {
        b.set_operand(conv, 0, x);
        b.op_mut(conv).properties.set(name, attr);
    });
    Ok(())
}

/// Gemm with transB = 1 and a constant B: transpose the constant instead.
fn gemm_transpose_constant_b(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let Some(g) = ops::Gemm::of(rw.body, op) else { return rw.match_failure("not a Gemm") };
    if g.trans_b(rw.body) == 0 {
        return rw.match_failure("transB is not set");
    }
    let d = rw.body.op(op);
    let Some((bvals, bshape)) = const_f32(rw.body, g.b(rw.body)) else { return rw.match_failure("B is not an f32 constant") };
    if bshape.len() != 2 {
        return rw.match_failure("B is not 2-D");
    }
    let (n, k) = (bshape[0] as usize, bshape[1] as usize);
    let t: Vec<f32> = (0..k * n).map(|i| bvals[(i % n) * k + i / n]).collect();
    let loc = d.loc.clone();
    rw.set_insertion_point(ir::InsertPoint::Before(op));
    let nb = f32_constant(rw, &t, vec![k as i64, n as i64], loc);
    let name = rw.ctx.ident("transB");
    rw.modify_in_place(op, |b| {
        b.set_operand(op, 1, nb);
        b.op_mut(op).properties.remove(name.as_str());
    });
    Ok(())
}

/// Transpose(Transpose(x, p1), p2) → Transpose(x, p1∘p2), or x when that is the identity:
/// layout changes inserted around each NHWC op cancel along a chain.
fn transpose_of_transpose(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let inner = match rw.body.defining_op(rw.body.op(op).operand(0)) {
        Some(d) if rw.body.name(d).as_str() == ops::Transpose::NAME => d,
        _ => return rw.match_failure("input is not a Transpose"),
    };
    let (Some(p1), Some(p2)) = (crate::infer::transpose_perm(rw.body, inner), crate::infer::transpose_perm(rw.body, op)) else { return rw.match_failure("unknown permutation") };
    let q: Vec<usize> = p2.iter().map(|&i| p1[i]).collect();
    let x = rw.body.op(inner).operand(0);
    if q.iter().enumerate().all(|(i, v)| i == *v) {
        if rw.body.value_type(x) != rw.body.value_type(rw.body.op(op).result(0)) {
            return rw.match_failure("types differ");
        }
        rw.replace_op(op, &[x]);
        return Ok(());
    }
    let perm = Attribute::new(AttrData::DenseArray { elem: rw.ctx.i64(), data: ir::attributes::ArrayData::Int(q.iter().map(|v| *v as i64).collect()) });
    let perm_id = rw.ctx.ident("perm");
    rw.modify_in_place(op, |b| {
        b.set_operand(op, 0, x);
        b.op_mut(op).properties.set(perm_id, perm);
    });
    Ok(())
}

/// Transpose of a constant: the constant, transposed (weights reach the NPU in its layout).
fn transpose_of_constant(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let c = match rw.body.defining_op(rw.body.op(op).operand(0)) {
        Some(d) if rw.body.name(d).as_str() == ops::Constant::NAME => d,
        _ => return rw.match_failure("input is not a constant"),
    };
    let Some(perm) = crate::infer::transpose_perm(rw.body, op) else { return rw.match_failure("unknown permutation") };
    let rt = rw.body.value_type(rw.body.op(op).result(0)).clone();
    let Some(a) = rw.body.op(c).properties.get("value") else { return rw.match_failure("no value") };
    if rt.shape().is_none_or(|s| s.iter().any(|d| *d < 0)) {
        return rw.match_failure("result shape unknown");
    }
    let name = format!("transposed_{}", rw.body.op_capacity());
    let Some(attr) = ir::attributes::transposed(rw.ctx, a, &perm, &name) else {
        return rw.match_failure("not a static elements attribute with its data");
    };
    let nty = attr.typ().cloned().unwrap();
    // A declared type that contradicts the permutation (a Transpose whose
    // `perm` is misspelled, so all dims reverse) is the verifier's to report.
    if nty.shape() != rt.shape() {
        return rw.match_failure("the declared result shape is not the permuted one");
    }
    let loc = rw.body.op(op).loc.clone();
    rw.set_insertion_point(ir::InsertPoint::Before(op));
    let st = OperationState::new(rw.ctx.op_name(ops::Constant::NAME), loc).property(rw.ctx.ident("value"), attr).results(&[nty]);
    let v = rw.create_value(st);
    rw.replace_op(op, &[v]);
    Ok(())
}

/// An If whose condition is a constant is the branch it takes: the branch's ops
/// move before it and its results become what the branch yields (expanded
/// functions branch on ranks and attribute values that are known at import).
/// The branch an If on a constant condition takes: its block, terminator and
/// yielded values, when they fit the If's results (which may be typed more
/// precisely than the branch, from declared value info).
pub fn constant_if_branch(ctx: &ir::Context, body: &ir::Body, op: OpId) -> Result<(ir::Block, OpId, Vec<ir::Value>), &'static str> {
    let cond = crate::infer::const_ints(body, body.op(op).operand(0)).ok_or("the condition is not a constant")?;
    let &c = cond.first().ok_or("an empty condition")?;
    let &region = body.op(op).regions().get(if c != 0 { 0 } else { 1 }).ok_or("no such branch")?;
    let &block = body.region_blocks(region).first().ok_or("an empty branch")?;
    let term = body.last_op(block).ok_or("an empty branch")?;
    let yielded = body.op(term).operands().to_vec();
    let results = body.op(op).results();
    let fits = yielded.len() == results.len() && yielded.iter().zip(results).all(|(y, r)| crate::infer::compatible(ctx, body.value_type(*r), body.value_type(*y)));
    if !fits {
        return Err("the branch yields types less precise than the If's");
    }
    Ok((block, term, yielded))
}

fn if_of_constant(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let (block, term, yielded) = match constant_if_branch(rw.ctx, rw.body, op) {
        Ok(b) => b,
        Err(why) => return rw.match_failure(why),
    };
    rw.erase_op(term);
    rw.inline_block_before(block, op, &[]);
    rw.replace_op(op, &yielded);
    Ok(())
}

/// Reshape(Softmax(Flatten(x, axis = rank − 1)), shape of x) → Softmax(x,
/// axis = −1), as for LogSoftmax and Hardmax: the importer's form of such an
/// op before opset 13 whose axis, once shapes are known, is the last one.
fn row_op_through_flatten(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let b = &*rw.body;
    let y = b.op(op).operand(0);
    let Some(s) = b.defining_op(y).filter(|s| matches!(b.name(*s).as_str(), ops::Softmax::NAME | ops::LogSoftmax::NAME | ops::Hardmax::NAME)) else {
        return rw.match_failure("not a Softmax, LogSoftmax or Hardmax");
    };
    let Some(f) = b.defining_op(b.op(s).operand(0)).filter(|f| b.name(*f).as_str() == ops::Flatten::NAME) else {
        return rw.match_failure("its input is not a Flatten");
    };
    let x = b.op(f).operand(0);
    let (Some(xs), Some(ys)) = (b.value_type(x).shape(), b.value_type(b.op(op).result(0)).shape()) else { return rw.match_failure("unranked") };
    let r = xs.len() as i64;
    let int = |o: OpId, d: i64| b.op(o).int_attr("axis").unwrap_or(d);
    let flat_axis = int(f, 1);
    let last = flat_axis == r - 1 || (flat_axis == -1 && r >= 1);
    if !last || !matches!(int(s, -1), -1 | 1) || xs != ys || xs.iter().any(|d| *d < 0) || b.uses(y).len() != 1 || b.uses(b.op(f).result(0)).len() != 1 {
        return rw.match_failure("not over the last axis of the reshaped tensor");
    }
    let (name, loc, ty) = (b.name(s).clone(), b.op(s).loc.clone(), b.value_type(x).clone());
    let axis = Attribute::integer(-1, rw.ctx.i64());
    let st = OperationState::new(name, loc).operands(&[x]).results(&[ty]).property(rw.ctx.ident("axis"), axis);
    let v = rw.create_value(st);
    rw.replace_op(op, &[v]);
    Ok(())
}

/// The canonicalization patterns of an onnx op, if it has any.
pub fn patterns(name: &str) -> Option<fn(&mut PatternSet)> {
    Some(match name {
        "Dropout" => |p| p.add_fn("onnx-dropout-inference", ops::Dropout::NAME, dropout_is_identity),
        "BatchNormalization" => |p| p.add_fn("onnx-fold-batchnorm-into-conv", ops::BatchNormalization::NAME, fold_batch_norm_into_conv),
        "Gemm" => |p| p.add_fn("onnx-gemm-transpose-constant-b", ops::Gemm::NAME, gemm_transpose_constant_b),
        "Mul" => |p| p.add_fn("onnx-fold-channel-scale-into-conv", ops::Mul::NAME, fold_channel_affine_into_conv),
        "Add" => |p| p.add_fn("onnx-fold-channel-shift-into-conv", ops::Add::NAME, fold_channel_affine_into_conv),
        "Conv" => |p| p.add_fn("onnx-fold-pad-into-conv", ops::Conv::NAME, fold_pad_into_conv),
        "If" => |p| p.add_fn("onnx-if-of-constant", ops::If::NAME, if_of_constant),
        "Reshape" => |p| p.add_fn("onnx-row-op-through-flatten", ops::Reshape::NAME, row_op_through_flatten),
        "Transpose" => |p| {
            p.add_fn("onnx-transpose-of-transpose", ops::Transpose::NAME, transpose_of_transpose);
            p.add_fn("onnx-transpose-of-constant", ops::Transpose::NAME, transpose_of_constant);
        },
        _ => return None,
    })
}
