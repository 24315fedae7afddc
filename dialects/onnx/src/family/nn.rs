//! Products, convolutions and pools: their rules, and the patterns that fold
//! into a Conv what follows or precedes it (BatchNormalization, a per-channel
//! Mul or Add, a zero Pad) and Gemm's transpose of a constant B.

use super::*;

pub(super) const FAMILY: Family = Family::rules(
    "nn",
    &["AveragePool", "Conv", "ConvInteger", "ConvTranspose", "DeformConv", "Gemm", "GlobalAveragePool", "GlobalLpPool", "GlobalMaxPool", "LpPool", "MatMul", "MatMulInteger", "MaxPool"],
    infer,
)
.patterns(&[
    ("Conv", |p| p.add_fn("onnx-fold-pad-into-conv", ops::Conv::NAME, fold_pad_into_conv)),
    ("Gemm", |p| p.add_fn("onnx-gemm-transpose-constant-b", ops::Gemm::NAME, gemm_transpose_constant_b)),
]);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "MatMul" | "MatMulInteger" => {
            let (a, b) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            let elem = if name == "MatMulInteger" { ctx.i32() } else { in0()?.elem };
            if a.is_empty() || b.is_empty() {
                return None;
            }
            let (a2, b2) = (if a.len() == 1 { vec![1, a[0]] } else { a.clone() }, if b.len() == 1 { vec![b[0], 1] } else { b.clone() });
            let batch = broadcast(&[Some(a2[..a2.len() - 2].to_vec()), Some(b2[..b2.len() - 2].to_vec())])?;
            let mut out = batch;
            if a.len() > 1 {
                out.push(a2[a2.len() - 2]);
            }
            if b.len() > 1 {
                out.push(b2[b2.len() - 1]);
            }
            one(t(&elem, Some(out)))
        }
        "Gemm" => {
            let (a, b) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            if a.len() != 2 || b.len() != 2 {
                return None;
            }
            let m = if int_attr(attr("transA")).unwrap_or(0) != 0 { a[1] } else { a[0] };
            let n = if int_attr(attr("transB")).unwrap_or(0) != 0 { b[0] } else { b[1] };
            one(t(&in0()?.elem, Some(vec![m, n])))
        }
        "Conv" | "ConvInteger" | "MaxPool" | "AveragePool" | "LpPool" | "ConvTranspose" | "DeformConv" => {
            let x = in0()?.shape?;
            if x.len() < 3 {
                return None;
            }
            let sp = x.len() - 2;
            let kernel: Vec<i64> = match ints_attr(attr("kernel_shape")) {
                Some(k) => k,
                None if name.contains("Conv") => ins.get(1)?.clone()?.shape?[2..].to_vec(),
                None => return None,
            };
            if kernel.len() != sp {
                return None;
            }
            let strides = ints_attr(attr("strides")).unwrap_or(vec![1; sp]);
            let dil = ints_attr(attr("dilations")).unwrap_or(vec![1; sp]);
            let pads = ints_attr(attr("pads")).unwrap_or(vec![0; 2 * sp]);
            let auto = attr("auto_pad").and_then(|a| a.as_str()).unwrap_or("NOTSET");
            let ceil = int_attr(attr("ceil_mode")).unwrap_or(0) != 0;
            // Attributes of the wrong length say nothing (the verifier names them).
            if strides.len() != sp || dil.len() != sp || pads.len() != 2 * sp || ints_attr(attr("output_padding")).is_some_and(|p| p.len() != sp) {
                return None;
            }
            let channels = if name.contains("Conv") {
                let w = ins.get(1)?.clone()?.shape?;
                if name == "ConvTranspose" { w.get(1).copied()? * int_attr(attr("group")).unwrap_or(1) } else { w[0] }
            } else {
                x[1]
            };
            let mut out = vec![x[0], channels];
            for i in 0..sp {
                let v = if name == "ConvTranspose" {
                    if let Some(os) = ints_attr(attr("output_shape")) {
                        *os.get(i)?
                    } else if x[2 + i] == DYNAMIC {
                        DYNAMIC
                    } else {
                        let op_pad = ints_attr(attr("output_padding")).map(|p| p[i]).unwrap_or(0);
                        let total_pad = if auto == "NOTSET" { pads[i] + pads[i + sp] } else { 0 };
                        let full = strides[i] * (x[2 + i] - 1) + op_pad + (kernel[i] - 1) * dil[i] + 1;
                        if auto == "SAME_UPPER" || auto == "SAME_LOWER" { x[2 + i] * strides[i] } else { full - total_pad }
                    }
                } else {
                    match auto {
                        "SAME_UPPER" | "SAME_LOWER" => {
                            if x[2 + i] == DYNAMIC { DYNAMIC } else { (x[2 + i] + strides[i] - 1) / strides[i] }
                        }
                        "VALID" => window(x[2 + i], kernel[i], 0, strides[i], dil[i], ceil),
                        _ => window(x[2 + i], kernel[i], pads[i] + pads[i + sp], strides[i], dil[i], ceil),
                    }
                };
                out.push(v);
            }
            let elem = if name == "ConvInteger" { ctx.i32() } else { in0()?.elem };
            let mut v = vec![t(&elem, Some(out.clone()))];
            if name == "MaxPool" && d.results().len() == 2 {
                v.push(t(&ctx.i64(), Some(out)));
            }
            Some(v)
        }
        "GlobalAveragePool" | "GlobalMaxPool" | "GlobalLpPool" => {
            let x = in0()?.shape?;
            let mut out = x[..2.min(x.len())].to_vec();
            out.extend(std::iter::repeat_n(1, x.len().saturating_sub(2)));
            one(t(&in0()?.elem, Some(out)))
        }
        _ => None,
    }
}

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

/// Conv(X, W, B) → BatchNormalization(scale, bias, mean, var) with constant
/// parameters becomes one Conv with W' = W·s and B' = (B − mean)·s + bias,
/// s = scale / √(var + ε), per output channel.
pub(super) fn fold_batch_norm_into_conv(bn: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
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
pub(super) fn fold_channel_affine_into_conv(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
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
