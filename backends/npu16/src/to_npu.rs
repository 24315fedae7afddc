//! `convert-onnx-to-npu`: in NPU partitions (`backend.partition = "npu16"`), each
//! onnx op becomes its NHWC `npu` op with `onnx.Transpose`s around it;
//! weights are transposed to HWIO (folded into the constants by
//! canonicalization), activations after a conv/matmul/add fold into it, and
//! the 4-D arguments and results the NPU ops read and write in NHWC become
//! NHWC at the partition's edge, with the transposes moved into the caller.
//! Canonicalization then cancels every back-to-back pair, so a chain of NPU
//! ops carries no transpose inside it, and two NPU partitions in a row pass
//! NHWC tensors straight through.

use ir::attributes::{ArrayData, AttrData, Attribute};
use ir::pass::{Pass, PassContext};
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, Location, OpId, OperationState, Type, Value};
use npu::tensor_ops::ints;

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
    let st = OperationState::new(ctx.op_name("onnx.Transpose"), loc.clone()).operands(&[x]).results(&[rt]).property(ctx.ident("perm"), i64s(ctx, perm));
    let op = body.build(st, at);
    body.op(op).result(0)
}

/// A new f32 constant of `shape` at `at`.
fn f32_constant(ctx: &Context, body: &mut Body, vals: &[f32], shape: Vec<i64>, at: InsertPoint, loc: &Location) -> Value {
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    constant(ctx, body, bytes, &ctx.f32(), vals.len(), shape, at, loc)
}

/// A new i32 constant of `shape` at `at`.
fn i32_constant(ctx: &Context, body: &mut Body, vals: &[i32], shape: Vec<i64>, at: InsertPoint, loc: &Location) -> Value {
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    constant(ctx, body, bytes, &ctx.i32(), vals.len(), shape, at, loc)
}

#[allow(clippy::too_many_arguments)]
fn constant(ctx: &Context, body: &mut Body, bytes: Vec<u8>, elem: &Type, n: usize, shape: Vec<i64>, at: InsertPoint, loc: &Location) -> Value {
    let ty = tensor(ctx, shape, elem);
    let val = Attribute::new(AttrData::Dense { ty: ty.clone(), data: ir::attributes::DenseData::canonical(bytes, 4, n) });
    let c = body.build(OperationState::new(ctx.op_name("onnx.Constant"), loc.clone()).results(&[ty]).property(ctx.ident("value"), val), at);
    body.op(c).result(0)
}

fn reshape(ctx: &Context, body: &mut Body, x: Value, to: &[i64], at: InsertPoint, loc: &Location) -> Value {
    let i64t = tensor(ctx, vec![to.len() as i64], &ctx.i64());
    let bytes: Vec<u8> = to.iter().flat_map(|v| v.to_le_bytes()).collect();
    let val = Attribute::new(AttrData::Dense { ty: i64t.clone(), data: ir::attributes::DenseData::canonical(bytes, 8, to.len()) });
    let c = body.build(OperationState::new(ctx.op_name("onnx.Constant"), loc.clone()).results(&[i64t]).property(ctx.ident("value"), val), at);
    let cv = body.op(c).result(0);
    let rt = tensor(ctx, to.to_vec(), body.value_type(x).element_type().unwrap());
    let op = body.build(OperationState::new(ctx.op_name("onnx.Reshape"), loc.clone()).operands(&[x, cv]).results(&[rt]), InsertPoint::After(c));
    body.op(op).result(0)
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

/// An f32 product with constant B too deep for the scratchpad (a classifier's
/// FC over 9,216 or 25,088 inputs): A split along K by the DMA engines into
/// parts that fit, one product per part (the bias with the first) and a
/// chain of adds. Returns false (nothing done) for a product that fits.
fn convert_deep_product(ctx: &Context, body: &mut Body, op: OpId) -> Result<bool, String> {
    let o = body.op(op);
    let (a, b) = (o.operand(0), o.operand(1));
    let (as_, bs) = (shape(body, a), shape(body, b));
    let f32_ = body.value_type(a).element_type().is_some_and(|e| e.to_string() == "f32");
    if !f32_ || as_.len() != 2 || bs.len() != 2 {
        return Ok(false);
    }
    let gemm = body.name(op).as_str() == "onnx.Gemm";
    let trans_b = gemm && o.attr("transB").and_then(|a| a.as_int()).unwrap_or(0) != 0;
    let (m, k) = (as_[0], as_[1]);
    let n = if trans_b { bs[0] } else { bs[1] };
    let mut module = op;
    while let Some(p) = body.parent_op(module) {
        module = p;
    }
    let hw = super::target::module_hw(body, module)?;
    if super::schedule::conv::product_fits(&hw, m, k, n) {
        return Ok(false);
    }
    let depth = super::schedule::conv::max_product_depth(&hw, m, n);
    // B of [k, n] (or [n, k] given transposed), and a cut into two parts at least.
    let b_fits = if trans_b { bs == [n, k] } else { bs == [k, n] };
    if depth <= 0 || depth >= k || !b_fits {
        return Ok(false);
    }
    let Some(bv) = onnx::infer::const_f32s(body, b) else { return Ok(false) };
    let c = o.operands().get(2).copied().filter(|v| gemm && !matches!(body.value_type(*v).data(), TypeData::None));
    let (loc, at) = (o.loc.clone(), InsertPoint::Before(op));
    let ty = body.value_type(o.result(0)).clone();
    let sizes: Vec<i64> = (0..k).step_by(depth as usize).map(|s| depth.min(k - s)).collect();
    let split_ty: Vec<Type> = sizes.iter().map(|s| tensor(ctx, vec![m, *s], &ctx.f32())).collect();
    let sv = constant(ctx, body, sizes.iter().flat_map(|s| s.to_le_bytes()).collect(), &ctx.i64(), sizes.len(), vec![sizes.len() as i64], at, &loc);
    let mut st = OperationState::new(ctx.op_name("onnx.Split"), loc.clone()).operands(&[a, sv]).results(&split_ty);
    st = st.property(ctx.ident("axis"), Attribute::integer(1, ctx.i64()));
    let split = body.build(st, at);
    let mut chain = vec![split];
    let (mut acc, mut k0) = (None, 0);
    for (i, s) in sizes.iter().enumerate() {
        let rows: Vec<f32> = (k0..k0 + s).flat_map(|kk| (0..n).map(move |j| (kk, j))).map(|(kk, j)| bv[(if trans_b { j * k + kk } else { kk * n + j }) as usize]).collect();
        let bi = f32_constant(ctx, body, &rows, vec![*s, n], at, &loc);
        let part = body.op(split).result(i);
        let p = match (i, c) {
            (0, Some(c)) => build(ctx, body, "onnx.Gemm", &[part, bi, c], ty.clone(), vec![], at, &loc),
            _ => build(ctx, body, "onnx.MatMul", &[part, bi], ty.clone(), vec![], at, &loc),
        };
        chain.push(p);
        let pv = body.op(p).result(0);
        acc = Some(match acc {
            None => pv,
            Some(prev) => {
                let s = build(ctx, body, "onnx.Add", &[prev, pv], ty.clone(), vec![], at, &loc);
                chain.push(s);
                body.op(s).result(0)
            }
        });
        k0 += s;
    }
    replace_by_chain(ctx, body, op, acc.expect("at least one part"), &chain)?;
    Ok(true)
}

/// The taps of linear interpolation by an integer `factor` along one dim:
/// source pixel m reaches output f·m + r with weight w(r) for r = first..;
/// `half` for half_pixel coordinates ((j + ½)/f − ½), else asymmetric (j/f).
pub fn linear_taps(factor: i64, half: bool) -> (i64, Vec<f32>) {
    let f = factor as f64;
    let w = |r: i64| 1.0 - if half { ((r as f64 + 0.5) / f - 0.5).abs() } else { (r as f64 / f).abs() };
    let rs: Vec<i64> = (-factor..=2 * factor).filter(|r| w(*r) > 1e-9).collect();
    (rs.first().copied().unwrap_or(0), rs.iter().map(|r| w(*r) as f32).collect())
}

/// Bilinear upsampling by integer factors: the input with its edge rows and
/// columns repeated (DMA slices and concats, as linear interpolation clamps
/// at the borders), then a depthwise transposed convolution whose kernel is
/// the interpolation's weights (phase convolutions on the array).
fn convert_bilinear(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let (loc, at) = (body.op(op).loc.clone(), InsertPoint::Before(op));
    let x = body.op(op).operand(0);
    let (xs, ys) = (shape(body, x), shape(body, body.op(op).result(0)));
    if xs.len() != 4 || ys.len() != 4 || xs[2] <= 0 || xs[3] <= 0 || ys[2] % xs[2] != 0 || ys[3] % xs[3] != 0 || ys[2] < xs[2] || ys[3] < xs[3] {
        return Err(format!("{}: linear Resize from {:?} to {:?}: integer upsampling of H and W only", body.op(op).loc, xs, ys));
    }
    let coord = body.op(op).attr("coordinate_transformation_mode").and_then(|a| a.as_str()).unwrap_or("half_pixel");
    let half = coord != "asymmetric";
    let f32t = |s: &[i64]| tensor(ctx, s.to_vec(), &ctx.f32());
    let i64c = |body: &mut Body, v: i64| constant(ctx, body, v.to_le_bytes().to_vec(), &ctx.i64(), 1, vec![1], at, &loc);
    let mut ops = vec![];
    let mut v = x;
    let mut s = xs.clone();
    for axis in [2usize, 3] {
        let n = s[axis];
        let mut edge = |body: &mut Body, from: i64| {
            let (st, en, ax) = (i64c(body, from), i64c(body, from + 1), i64c(body, axis as i64));
            let mut es = s.clone();
            es[axis] = 1;
            let o = build(ctx, body, "onnx.Slice", &[v, st, en, ax], f32t(&es), vec![], at, &loc);
            ops.push(o);
            body.op(o).result(0)
        };
        let (first, last) = (edge(body, 0), edge(body, n - 1));
        s[axis] += 2;
        let c = build(ctx, body, "onnx.Concat", &[first, v, last], f32t(&s), vec![("axis", Attribute::integer(axis as i128, ctx.i64()))], at, &loc);
        ops.push(c);
        v = body.op(c).result(0);
    }
    let (fh, fw) = (ys[2] / xs[2], ys[3] / xs[3]);
    let ((rh, kh), (rw, kw)) = (linear_taps(fh, half), linear_taps(fw, half));
    let c = xs[1];
    let mut w = vec![];
    for _ in 0..c {
        for a in &kh {
            w.extend(kw.iter().map(|b| a * b));
        }
    }
    let (lh, lw) = (kh.len() as i64, kw.len() as i64);
    let w = f32_constant(ctx, body, &w, vec![c, 1, lh, lw], at, &loc);
    // Source m (padded m + 1) reaches output f·m + r: pads f − first before, f + taps − that after.
    let (bh, bw) = (fh - rh, fw - rw);
    let props = vec![
        ("group", Attribute::integer(c as i128, ctx.i64())),
        ("kernel_shape", i64s(ctx, &[lh, lw])),
        ("strides", i64s(ctx, &[fh, fw])),
        ("pads", i64s(ctx, &[bh, bw, fh + lh - bh, fw + lw - bw])),
    ];
    let t = build(ctx, body, "onnx.ConvTranspose", &[v, w], f32t(&ys), props, at, &loc);
    ops.push(t);
    let tv = body.op(t).result(0);
    replace_by_chain(ctx, body, op, tv, &ops)
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
        "onnx.Relu" => Some((u, "relu", 0.0, 0.0)),
        "onnx.Sigmoid" => Some((u, "sigmoid", 0.0, 0.0)),
        "onnx.Tanh" => Some((u, "tanh", 0.0, 0.0)),
        "onnx.Clip" => {
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
    let pool = name == "npu.pool";
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

type Chain = Option<super::quant::Chain>;

/// Where a fused int8 op requantizes to.
struct Target {
    scale: f32,
    zp: i64,
    act: &'static str,
    last_q: OpId,
    clamp: (i64, i64),
}

/// The requantization target of a fused int8 op: after a `DQ → Relu|Clip → Q`
/// chain, that chain's scale, zero point, activation and clamp; otherwise the op's own Q's.
fn chain_target(body: &Body, chain: &Chain, q: OpId, scale: f32, zp: i64) -> Target {
    match chain {
        Some(c) => Target { scale: c.q.scale, zp: c.q.zp, act: if body.name(c.act).as_str() == "onnx.Clip" { "clip" } else { "relu" }, last_q: c.q.op, clamp: super::quant::chain_clamp(body, c) },
        None => Target { scale, zp, act: "none", last_q: q, clamp: (-128, 127) },
    }
}

/// The requantization properties of a fused int8 op.
fn requant_props(ctx: &Context, t: &Target, mult: &[i64], shift: &[i64]) -> Vec<(&'static str, Attribute)> {
    let mut props = vec![
        ("act", Attribute::string(t.act)),
        ("mult", i64s(ctx, mult)),
        ("shift", i64s(ctx, shift)),
        ("qmin", Attribute::integer(t.clamp.0 as i128, ctx.i64())),
        ("qmax", Attribute::integer(t.clamp.1 as i128, ctx.i64())),
    ];
    if t.zp != 0 {
        props.push(("zp", Attribute::integer(t.zp as i128, ctx.i64())));
    }
    props
}

/// The int32 bias of a product with the activation's zero point folded in:
/// `b[f] - zx · Σk w[k, f]`, so the array's `Σ x·w` plus it is `Σ (x - zx)·w + b`.
fn folded_bias(body: &Body, m: &super::quant::QMac, outputs: i64) -> Result<Option<Vec<i32>>, String> {
    let zx = m.x_zp();
    let bias: Option<Vec<f64>> = m.b.as_ref().map(|b| onnx::infer::const_f64s(body, b.input).ok_or("the bias is not constant")).transpose()?;
    if bias.as_ref().is_some_and(|b| b.len() != 1 && b.len() as i64 != outputs) {
        return Err(format!("a bias of {} values for {} output channels", bias.map(|b| b.len()).unwrap_or(0), outputs));
    }
    if zx == 0 {
        return Ok(None);
    }
    let w = onnx::infer::const_i8s(body, m.w.input).ok_or("the weights are not constant int8")?;
    let f = outputs as usize;
    let per = w.len() / f.max(1);
    // Output channels lead the weights' layout (Conv [F, C, KH, KW], Gemm with transB) or close it ([K, N]).
    let leading = match body.name(m.op).as_str() {
        "onnx.Conv" | "onnx.QLinearConv" => true,
        "onnx.Gemm" => body.op(m.op).attr("transB").and_then(|a| a.as_int()).unwrap_or(0) != 0,
        _ => false,
    };
    let mut out = Vec::with_capacity(f);
    for c in 0..f {
        let sum: i64 = if leading { w[c * per..(c + 1) * per].iter().map(|v| *v as i64).sum() } else { (0..per).map(|k| w[k * f + c] as i64).sum() };
        let b = bias.as_ref().map(|b| b[if b.len() == 1 { 0 } else { c }] as i64).unwrap_or(0) - zx * sum;
        out.push(i32::try_from(b).map_err(|_| format!("the bias with the input zero point folded in ({}) overflows int32", b))?);
    }
    Ok(Some(out))
}

/// Replaces the pattern's last QuantizeLinear by `r` and erases the pattern's ops (last first).
fn finish_pattern(body: &mut Body, r: Value, last_q: OpId, chain: Chain, mut ops: Vec<OpId>) {
    let last = body.op(last_q).result(0);
    body.replace_all_uses(last, r);
    let mut dead = vec![];
    if let Some(c) = chain {
        dead.extend([c.q.op, c.act, c.dq]);
    }
    dead.append(&mut ops);
    let mut seen = std::collections::HashSet::new();
    dead.retain(|d| seen.insert(*d));
    for d in dead {
        if body.op(d).results().iter().all(|v| !body.has_uses(*v)) {
            body.erase(d);
        }
    }
}

/// A quantized Conv/Gemm/MatMul (with its DequantizeLinears, QuantizeLinear
/// and a following DQ → Relu → Q) as one int8 npu op.
fn convert_qmac(ctx: &Context, body: &mut Body, m: super::quant::QMac) -> Result<(), String> {
    let op = m.op;
    let name = body.name(op);
    let loc = body.op(op).loc.clone();
    let at = InsertPoint::Before(op);
    let q_out = body.op(m.q).result(0);
    let chain = super::quant::relu_chain(body, q_out);
    let t = chain_target(body, &chain, m.q, m.out_scale, m.out_zp);
    let mut mult = vec![];
    let mut shift = vec![];
    for s in &m.acc_scales {
        let (a, b) = super::quant::requant_params(s / t.scale as f64).ok_or("requantization multiplier out of range")?;
        mult.push(a);
        shift.push(b);
    }
    let folded = folded_bias(body, &m, m.acc_scales.len() as i64)?;
    let bias = match folded {
        Some(b) => Some(i32_constant(ctx, body, &b, vec![b.len() as i64], at, &loc)),
        None => m.b.as_ref().map(|b| b.input),
    };
    let i8t = body.value_type(m.x.input).element_type().unwrap().clone();
    let mut props = requant_props(ctx, &t, &mult, &shift);
    let y_shape = shape(body, body.op(op).result(0));
    let (npu_name, operands, out_shape, nchw) = if matches!(name.as_str(), "onnx.Conv" | "onnx.QLinearConv") {
        let g = body.op(op).attr("group").and_then(|a| a.as_int()).unwrap_or(1) as i64;
        props.push(("strides", i64s(ctx, &ints(body, op, "strides").unwrap_or(vec![1, 1]))));
        props.push(("pads", i64s(ctx, &ints(body, op, "pads").unwrap_or(vec![0; 4]))));
        props.push(("group", Attribute::integer(g as i128, ctx.i64())));
        if m.x_zp() != 0 {
            // Padding is the input's zero point: 0.0 in its quantization.
            props.push(("pad_value", Attribute::integer(m.x_zp() as i128, ctx.i64())));
        }
        let xt = transpose(ctx, body, m.x.input, &TO_NHWC, at, &loc);
        let wt = transpose(ctx, body, m.w.input, &[2, 3, 1, 0], at, &loc);
        let mut v = vec![xt, wt];
        v.extend(bias);
        ("npu.conv", v, permuted(&y_shape, &TO_NHWC), true)
    } else {
        let as_ = shape(body, m.x.input);
        let trans_b = body.op(op).attr("transB").and_then(|a| a.as_int()).unwrap_or(0) != 0;
        let b = if trans_b { transpose(ctx, body, m.w.input, &[1, 0], at, &loc) } else { m.w.input };
        let n = shape(body, b)[1];
        let mm: i64 = as_[..as_.len() - 1].iter().product();
        let a2 = if as_.len() == 2 { m.x.input } else { reshape(ctx, body, m.x.input, &[mm, as_[as_.len() - 1]], at, &loc) };
        let mut v = vec![a2, b];
        if let Some(bias) = bias {
            v.push(if shape(body, bias).len() == 1 { bias } else { reshape(ctx, body, bias, &[n], at, &loc) });
        }
        ("npu.matmul", v, vec![mm, n], false)
    };
    let mut locs = vec![loc.clone(), body.op(m.q).loc.clone()];
    if let Some(c) = &chain {
        locs.extend([body.op(c.dq).loc.clone(), body.op(c.act).loc.clone(), body.op(c.q.op).loc.clone()]);
    }
    let fused = Location::fused(&locs);
    push_macs(ctx, body, op, &mut props);
    let new = build(ctx, body, npu_name, &operands, tensor(ctx, out_shape, &i8t), props, at, &fused);
    let mut r = body.op(new).result(0);
    if nchw {
        r = transpose(ctx, body, r, &TO_NCHW, InsertPoint::After(new), &fused);
    } else if y_shape.len() != 2 {
        r = reshape(ctx, body, r, &y_shape, InsertPoint::After(new), &fused);
    }
    let mut ops = vec![m.q, op, m.x.op, m.w.op];
    ops.extend(m.b.as_ref().map(|b| b.op));
    finish_pattern(body, r, t.last_q, chain, ops);
    Ok(())
}

/// A quantized GlobalAveragePool as an int8 `npu.pool` of the whole image
/// that requantizes (`quant::QAvg`).
fn convert_qavgpool(ctx: &Context, body: &mut Body, op: OpId, a: super::quant::QAvg) -> Result<(), String> {
    let (mult, shift) = super::quant::requant_params(a.x.scales[0] as f64 / (a.out_scale as f64 * (1i64 << a.avg_shift) as f64)).ok_or("requantization multiplier out of range")?;
    let loc = Location::fused(&[body.op(op).loc.clone(), body.op(a.q).loc.clone()]);
    let xs = shape(body, a.x.input);
    let ys = shape(body, body.op(op).result(0));
    let at = InsertPoint::Before(op);
    let xt = transpose(ctx, body, a.x.input, &TO_NHWC, at, &loc);
    let i8t = body.value_type(a.x.input).element_type().unwrap().clone();
    let t = Target { scale: a.out_scale, zp: a.out_zp, act: "none", last_q: a.q, clamp: (-128, 127) };
    let mut props = requant_props(ctx, &t, &[mult], &[shift]);
    props.retain(|(k, _)| *k != "act");
    props.extend([
        ("kind", Attribute::string("avg")),
        ("kernel", i64s(ctx, &[xs[2], xs[3]])),
        ("strides", i64s(ctx, &[1, 1])),
        ("pads", i64s(ctx, &[0; 4])),
        ("count_include_pad", Attribute::integer(0, ctx.i64())),
        ("in_zp", Attribute::integer(a.x.zp() as i128, ctx.i64())),
        ("avg_shift", Attribute::integer(a.avg_shift as i128, ctx.i64())),
    ]);
    let new = build(ctx, body, "npu.pool", &[xt], tensor(ctx, permuted(&ys, &TO_NHWC), &i8t), props, at, &loc);
    let r = transpose(ctx, body, body.op(new).result(0), &TO_NCHW, InsertPoint::After(new), &loc);
    finish_pattern(body, r, a.q, None, vec![a.q, op, a.x.op]);
    Ok(())
}

/// A quantized Add (and a following DQ → Relu → Q) as one int8 npu.eltwise.
/// Input `i` of a quantized Concat (`x`, quantized otherwise than the Concat's
/// QuantizeLinear `q`) requantized to `q`'s scale and zero point: an int8 add
/// of `x` to itself, each half weighted 2^19 (their sum, 2^20, is the add's
/// fixed-point one, exactly), then one requantization; the Concat reads it
/// through a DequantizeLinear of `q`'s parameters, so it is a move.
fn requantize_input(ctx: &Context, body: &mut Body, op: OpId, i: usize, x: &super::quant::Dq, q: OpId) -> Result<(), String> {
    let super::quant::Q { scale, zp, .. } = super::quant::as_q(body, q)?;
    let half = 1i64 << (super::quant::ADD_FRACTION_BITS - 1);
    let acc_scale = x.scales[0] as f64 / (1u64 << super::quant::ADD_FRACTION_BITS) as f64;
    let (mult, shift) = super::quant::requant_params(acc_scale / scale as f64).ok_or("requantization multiplier out of range")?;
    let loc = body.op(x.op).loc.clone();
    let at = InsertPoint::Before(op);
    let xs = shape(body, x.input);
    let i8t = body.value_type(x.input).element_type().unwrap().clone();
    let four = xs.len() == 4;
    let a = if four { transpose(ctx, body, x.input, &TO_NHWC, at, &loc) } else { x.input };
    let t = Target { scale, zp, act: "none", last_q: q, clamp: (-128, 127) };
    let mut props = requant_props(ctx, &t, &[mult], &[shift]);
    props.push(("kind", Attribute::string("add")));
    props.push(("in_mult", i64s(ctx, &[half, half])));
    if x.zp() != 0 {
        props.push(("in_zp", i64s(ctx, &[x.zp(), x.zp()])));
    }
    let out_shape = if four { permuted(&xs, &TO_NHWC) } else { xs.clone() };
    let new = build(ctx, body, "npu.eltwise", &[a, a], tensor(ctx, out_shape, &i8t), props, at, &loc);
    let mut r = body.op(new).result(0);
    if four {
        r = transpose(ctx, body, r, &TO_NCHW, at, &loc);
    }
    // The Concat's input: r dequantized with the Concat's own parameters.
    let params: Vec<Value> = body.op(q).operands()[1..].to_vec();
    let f32t = body.value_type(body.op(op).operand(i)).clone();
    let dq = build(ctx, body, "onnx.DequantizeLinear", &[vec![r], params].concat(), f32t, vec![], at, &loc);
    let dv = body.op(dq).result(0);
    body.set_operand(op, i, dv);
    if !body.has_uses(body.op(x.op).result(0)) {
        body.erase(x.op);
    }
    Ok(())
}

fn convert_qadd(ctx: &Context, body: &mut Body, m: super::quant::QAdd) -> Result<(), String> {
    let op = m.op;
    let loc = body.op(op).loc.clone();
    let at = InsertPoint::Before(op);
    let chain = super::quant::relu_chain(body, body.op(m.q).result(0));
    let t = chain_target(body, &chain, m.q, m.out_scale, m.out_zp);
    let (mult, shift) = super::quant::requant_params(m.acc_scale / t.scale as f64).ok_or("requantization multiplier out of range")?;
    let ys = shape(body, m.a.input);
    let i8t = body.value_type(m.a.input).element_type().unwrap().clone();
    let four = ys.len() == 4;
    let (a, b) = if four { (transpose(ctx, body, m.a.input, &TO_NHWC, at, &loc), transpose(ctx, body, m.b.input, &TO_NHWC, at, &loc)) } else { (m.a.input, m.b.input) };
    let out_shape = if four { permuted(&ys, &TO_NHWC) } else { ys.clone() };
    let mut locs = vec![loc.clone(), body.op(m.q).loc.clone()];
    if let Some(c) = &chain {
        locs.extend([body.op(c.dq).loc.clone(), body.op(c.act).loc.clone(), body.op(c.q.op).loc.clone()]);
    }
    let fused = Location::fused(&locs);
    let mut props = requant_props(ctx, &t, &[mult], &[shift]);
    props.push(("kind", Attribute::string("add")));
    props.push(("in_mult", i64s(ctx, &m.in_mult)));
    if m.a.zp() != 0 || m.b.zp() != 0 {
        props.push(("in_zp", i64s(ctx, &[m.a.zp(), m.b.zp()])));
    }
    let new = build(ctx, body, "npu.eltwise", &[a, b], tensor(ctx, out_shape, &i8t), props, at, &fused);
    let mut r = body.op(new).result(0);
    if four {
        r = transpose(ctx, body, r, &TO_NCHW, InsertPoint::After(new), &fused);
    }
    finish_pattern(body, r, t.last_q, chain, vec![m.q, op, m.a.op, m.b.op]);
    Ok(())
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
    let op = build(ctx, body, "npu.layernorm", &[x, s, b], tensor(ctx, xs, &ctx.f32()), vec![("epsilon", Attribute::float(epsilon, ctx.f32()))], at, &loc);
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
    let nb = super::target::batches(&as_, &bs).map_err(|e| e.message)?;
    let (r, rb) = (as_.len(), bs.len());
    // B = Transpose(P)(z) with P's last two swapped keeping z's innermost dim
    // innermost: Bᵀ is z moved by whole rows (nothing to move when that swap is
    // the identity), and the product reads it transposed.
    let folded = body.defining_op(b).filter(|t| body.name(*t).as_str() == "onnx.Transpose").and_then(|t| super::target::rows_of_transposed_b(&ints(body, t, "perm")?).map(|q| (t, q)));
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
    emit_then(ctx, body, op, "npu.batch_matmul", &[a3, b3], vec![nb, m, n], props, &back);
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
    let gemm_without_c = body.name(op).as_str() == "onnx.Gemm" && o.operands().get(2).is_none_or(|c| matches!(body.value_type(*c).data(), TypeData::None));
    if body.name(op).as_str() != "onnx.MatMul" && !gemm_without_c {
        return None;
    }
    let y = o.result(0);
    let ys = shape(body, y);
    let n = *ys.last()?;
    let f32 = |v: Value| body.value_type(v).element_type().is_some_and(|e| e.to_string() == "f32");
    let uses = body.uses(y);
    let add = (uses.len() == 1 && body.name(uses[0].op).as_str() == "onnx.Add").then_some(uses[0].op)?;
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
    super::target::is_constant(body, b) && s.len() >= 2 && s[..s.len() - 2].iter().all(|d| *d == 1)
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
        "onnx.Reshape" | "onnx.Squeeze" | "onnx.Unsqueeze" | "onnx.Flatten" => {
            let x = body.op(d).operand(0);
            if shape(body, x).len() == 4 {
                heads(body, x)
            } else {
                super::tokens::tokens_to_image(body, d).is_none()
            }
        }
        "npu.softmax" | "npu.layernorm" | "npu.eltwise" | "npu.act" => shape(body, v).len() == 4,
        "onnx.Transpose" => shape(body, v).len() == 4 && ints(body, d, "perm").as_deref() != Some(&TO_NCHW[..]),
        _ => false,
    }
}

fn convert_op(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let name = body.name(op);
    if let Some(ln) = super::norm::decomposed_layer_norm(body, op) {
        return convert_layer_norm(ctx, body, ln.x, ln.epsilon, ln.scale, ln.bias, &ln.members);
    }
    if let Ok(a) = super::quant::qadd(body, op) {
        return convert_qadd(ctx, body, a);
    }
    if let Ok(a) = super::quant::qavgpool(body, op) {
        return convert_qavgpool(ctx, body, op, a);
    }
    if let Ok((xs, q)) = super::quant::qconcat(body, op) {
        let out = super::quant::as_q(body, q)?;
        if let Some(i) = xs.iter().position(|x| !super::quant::same_quantization(x, out.scale, out.zp)) {
            requantize_input(ctx, body, op, i, &xs[i], q)?;
            return convert_op(ctx, body, op);
        }
    }
    let moved = super::quant::qmaxpool(body, op).map(|(x, q)| (vec![x], q)).or_else(|_| super::quant::qconcat(body, op));
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
    if matches!(name.as_str(), "onnx.Conv" | "onnx.Gemm" | "onnx.MatMul" | "onnx.QLinearConv" | "onnx.QLinearMatMul") {
        if let Ok(m) = super::quant::qmac(body, op) {
            return convert_qmac(ctx, body, m);
        }
    }
    if matches!(name.as_str(), "onnx.Gemm" | "onnx.MatMul") && convert_deep_product(ctx, body, op)? {
        return Ok(());
    }
    let o = body.op(op);
    let loc = o.loc.clone();
    let at = InsertPoint::Before(op);
    let int = |n: &str, d: i64| o.attr(n).and_then(|a| a.as_int()).map(|v| v as i64).unwrap_or(d);
    match name.as_str() {
        "onnx.Conv" | "onnx.ConvInteger" => {
            // ConvInteger's third operand is a zero point (0), not a bias.
            let b = if name.as_str() == "onnx.Conv" { o.operands().get(2).copied() } else { None };
            let (x, mut w) = (o.operand(0), o.operand(1));
            let ys = shape(body, o.result(0));
            let mut g = int("group", 1);
            let ws = shape(body, w);
            if g > 1 && !(ws[1] == 1 && ws[0] == g) {
                // Grouped: a dense convolution whose weights are zero outside each group's block.
                let vals = onnx::infer::const_f64s(body, w).ok_or("grouped convolution weights are not constant")?;
                let (f, cg, k) = (ws[0] as usize, ws[1] as usize, (ws[2] * ws[3]) as usize);
                let c = cg * g as usize;
                let mut dense = vec![0f32; f * c * k];
                for o_ in 0..f {
                    let grp = o_ / (f / g as usize);
                    for i in 0..cg {
                        for t in 0..k {
                            dense[(o_ * c + grp * cg + i) * k + t] = vals[(o_ * cg + i) * k + t] as f32;
                        }
                    }
                }
                w = f32_constant(ctx, body, &dense, vec![ws[0], c as i64, ws[2], ws[3]], at, &loc);
                g = 1;
            }
            let strides = ints(body, op, "strides").unwrap_or(vec![1, 1]);
            let pads = ints(body, op, "pads").unwrap_or(vec![0; 4]);
            let xt = transpose(ctx, body, x, &TO_NHWC, at, &loc);
            // OIHW → HWIO.
            let wt = transpose(ctx, body, w, &[2, 3, 1, 0], at, &loc);
            let mut operands = vec![xt, wt];
            operands.extend(b);
            let props = vec![("strides", i64s(ctx, &strides)), ("pads", i64s(ctx, &pads)), ("group", Attribute::integer(g as i128, ctx.i64()))];
            emit(ctx, body, op, "npu.conv", &operands, permuted(&ys, &TO_NHWC), props, true);
        }
        "onnx.ConvTranspose" => {
            // The phase convolution, then depth to space and the crop (`deconv.rs`).
            let p = super::deconv::plan(body, op).map_err(|e| e.message)?;
            let w = onnx::infer::const_f64s(body, o.operand(1)).ok_or("ConvTranspose weights are not constant")?;
            let b = match o.operands().get(2) {
                Some(v) if !matches!(body.value_type(*v).data(), TypeData::None) => onnx::infer::const_f64s(body, *v).ok_or("ConvTranspose bias is not constant")?,
                _ => vec![0.0; p.cout as usize],
            };
            if b.len() != p.cout as usize {
                return Err(format!("ConvTranspose bias has {} values for {} output channels", b.len(), p.cout));
            }
            let x = o.operand(0);
            let xt = transpose(ctx, body, x, &TO_NHWC, at, &loc);
            let n = p.phases() * p.cout;
            let wt = f32_constant(ctx, body, &p.weights(&w), vec![p.h.taps, p.w.taps, p.cin, n], at, &loc);
            let bt = f32_constant(ctx, body, &p.bias(&b), vec![n], at, &loc);
            let props = vec![("strides", i64s(ctx, &[1, 1])), ("pads", i64s(ctx, &p.conv_pads())), ("group", Attribute::integer(1, ctx.i64()))];
            let phases = p.phase_shape();
            let to_space = move |ctx: &Context, body: &mut Body, r: Value, loc: &Location| {
                let (h, w, c) = (p.h, p.w, p.cout);
                let mut r = r;
                if p.phases() > 1 {
                    r = reshape(ctx, body, r, &[1, h.positions, w.positions, h.stride, w.stride, c], after(body, r), loc);
                    r = transpose(ctx, body, r, &[0, 1, 3, 2, 4, 5], after(body, r), loc);
                    r = reshape(ctx, body, r, &[1, h.full(), w.full(), c], after(body, r), loc);
                }
                if !p.uncropped() {
                    let props = vec![("offsets", i64s(ctx, &[0, h.crop, w.crop, 0])), ("steps", i64s(ctx, &[1; 4]))];
                    let ty = tensor(ctx, vec![1, h.out, w.out, c], &ctx.f32());
                    let s = build(ctx, body, "npu.slice", &[r], ty, props, after(body, r), loc);
                    r = body.op(s).result(0);
                }
                transpose(ctx, body, r, &TO_NCHW, after(body, r), loc)
            };
            emit_then(ctx, body, op, "npu.conv", &[xt, wt, bt], phases, props, &to_space);
        }
        "onnx.MatMul" if !one_constant_matrix(body, o.operand(1)) => {
            return convert_batch_matmul(ctx, body, op);
        }
        "onnx.Gemm" | "onnx.MatMul" | "onnx.MatMulInteger" => {
            let (a, mut b) = (o.operand(0), o.operand(1));
            let mut c = if name.as_str() == "onnx.Gemm" { o.operands().get(2).copied() } else { None };
            let trans_b = int("transB", 0) != 0;
            if let Some(row) = bias_add(ctx, body, op, at) {
                c = Some(row);
            }
            let o = body.op(op);
            let ys = shape(body, o.result(0));
            let as_ = shape(body, a);
            if trans_b {
                b = transpose(ctx, body, b, &[1, 0], at, &loc);
            }
            // A constant [1, .., K, N] is one matrix.
            let bs = shape(body, b);
            if bs.len() > 2 {
                b = reshape(ctx, body, b, &bs[bs.len() - 2..], at, &loc);
            }
            let n = shape(body, b)[1];
            let m: i64 = as_[..as_.len() - 1].iter().product();
            let a2 = if as_.len() == 2 { a } else { reshape(ctx, body, a, &[m, as_[as_.len() - 1]], at, &loc) };
            let mut operands = vec![a2, b];
            if let Some(c) = c {
                operands.push(if shape(body, c).len() == 1 { c } else { reshape(ctx, body, c, &[n], at, &loc) });
            }
            if ys.len() == 2 {
                emit(ctx, body, op, "npu.matmul", &operands, vec![m, n], vec![], false);
            } else {
                // [.., M, K] × [K, N]: a 2-D product between reshapes.
                let y = body.op(op).result(0);
                let tmp = reshape(ctx, body, y, &ys, InsertPoint::After(op), &loc);
                let tmp_op = body.defining_op(tmp).unwrap();
                for u in body.uses(y).to_vec() {
                    if u.op != tmp_op {
                        body.set_operand(u.op, u.index as usize, tmp);
                    }
                }
                // Retype the old op's result to 2-D so `emit` builds the 2-D matmul feeding the reshape.
                body.set_value_type(y, tensor(ctx, vec![m, n], body.value_type(y).element_type().unwrap()));
                emit(ctx, body, op, "npu.matmul", &operands, vec![m, n], vec![], false);
            }
        }
        "onnx.Sum" | "onnx.Mean" | "onnx.Max" | "onnx.Min" if o.operands().len() != 2 || matches!(name.as_str(), "onnx.Sum" | "onnx.Mean") => {
            // Variadic: a chain of binary ops (a Mean then scaled by 1/n).
            let binary = match name.as_str() {
                "onnx.Max" => "onnx.Max",
                "onnx.Min" => "onnx.Min",
                _ => "onnx.Add",
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
            if name.as_str() == "onnx.Mean" {
                let k = f32_constant(ctx, body, &[1.0 / operands.len() as f32], vec![1], at, &loc);
                let b = build(ctx, body, "onnx.Mul", &[acc, k], ty, vec![], at, &loc);
                acc = body.op(b).result(0);
                chain.push(b);
            }
            replace_by_chain(ctx, body, op, acc, &chain)?;
        }
        "onnx.Add" | "onnx.Sub" | "onnx.Mul" | "onnx.Div" | "onnx.Max" | "onnx.Min" => {
            let mut kind = name.as_str()[5..].to_lowercase();
            let (mut a, mut b) = (o.operand(0), o.operand(1));
            let ys = shape(body, o.result(0));
            // The broadcast operand goes second (b − a for a subtraction), and so
            // does a constant (the kernel streams the first operand from DRAM).
            let constant = |v: Value| body.defining_op(v).is_some_and(|d| body.name(d).as_str() == "onnx.Constant");
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
                emit(ctx, body, op, "npu.eltwise", &[at_, b2], permuted(&ys, &TO_NHWC), props, true);
            } else {
                emit(ctx, body, op, "npu.eltwise", &[a, b2], ys, props, false);
            }
        }
        "onnx.PRelu" => {
            // x − (1 − slope)·Min(x, 0): the slope one value or one per channel.
            let (x, s) = (o.operand(0), o.operand(1));
            let ys = shape(body, o.result(0));
            let ty = body.value_type(o.result(0)).clone();
            let vals: Vec<f32> = onnx::infer::const_f64s(body, s).ok_or("PRelu slope is not constant")?.into_iter().map(|v| (1.0 - v) as f32).collect();
            let slope_shape = match vals.len() {
                1 => vec![1],
                n if ys.len() == 4 => vec![1, n as i64, 1, 1],
                n => [vec![1; ys.len() - 1], vec![n as i64]].concat(),
            };
            let slope = f32_constant(ctx, body, &vals, slope_shape, at, &loc);
            let zero = f32_constant(ctx, body, &[0.0], vec![1], at, &loc);
            let m = build(ctx, body, "onnx.Min", &[x, zero], ty.clone(), vec![], at, &loc);
            let mv = body.op(m).result(0);
            let p = build(ctx, body, "onnx.Mul", &[mv, slope], ty.clone(), vec![], at, &loc);
            let pv = body.op(p).result(0);
            let y = build(ctx, body, "onnx.Sub", &[x, pv], ty, vec![], at, &loc);
            let yv = body.op(y).result(0);
            replace_by_chain(ctx, body, op, yv, &[m, p, y])?;
        }
        "onnx.LRN" => {
            // x · (bias + alpha/size · Σ x²)^−beta, the sum over each channel's
            // window a 1×1 convolution with banded weights on the array.
            let x = o.operand(0);
            let xs = shape(body, x);
            if xs.len() != 4 {
                return Err(format!("{}: LRN of a {}-D tensor (NCHW only)", loc, xs.len()));
            }
            let ty = body.value_type(o.result(0)).clone();
            let float = |n: &str, d: f64| o.attr(n).and_then(|a| a.as_float()).unwrap_or(d);
            let (alpha, beta, bias) = (float("alpha", 1e-4), float("beta", 0.75), float("bias", 1.0));
            let size = int("size", 1);
            let c = xs[1];
            let (lo, hi) = ((size - 1) / 2, size / 2);
            let mut w = vec![0f32; (c * c) as usize];
            for co in 0..c {
                for ci in (co - lo).max(0)..=(co + hi).min(c - 1) {
                    w[(co * c + ci) as usize] = (alpha / size as f64) as f32;
                }
            }
            let w = f32_constant(ctx, body, &w, vec![c, c, 1, 1], at, &loc);
            let b = f32_constant(ctx, body, &vec![bias as f32; c as usize], vec![c], at, &loc);
            let e = f32_constant(ctx, body, &[-beta as f32], vec![1], at, &loc);
            let sq = build(ctx, body, "onnx.Mul", &[x, x], ty.clone(), vec![], at, &loc);
            let sqv = body.op(sq).result(0);
            let props = vec![("kernel_shape", i64s(ctx, &[1, 1])), ("strides", i64s(ctx, &[1, 1])), ("pads", i64s(ctx, &[0, 0, 0, 0]))];
            let z = build(ctx, body, "onnx.Conv", &[sqv, w, b], ty.clone(), props, at, &loc);
            let zv = body.op(z).result(0);
            let d = build(ctx, body, "onnx.Pow", &[zv, e], ty.clone(), vec![], at, &loc);
            let dv = body.op(d).result(0);
            let y = build(ctx, body, "onnx.Mul", &[x, dv], ty, vec![], at, &loc);
            let yv = body.op(y).result(0);
            replace_by_chain(ctx, body, op, yv, &[sq, z, d, y])?;
        }
        "onnx.Pow" => {
            // x^−beta (LRN's divisor, above): v.rsqrt and v.recip.
            let beta = onnx::infer::const_f64s(body, o.operand(1)).and_then(|v| v.first().copied()).map(|e| -e);
            let Some(beta) = beta.filter(|b| npu::tensor_ops::RPOW_BETAS.contains(b)) else {
                return Err("Pow runs on the NPU only as x^-0.5, x^-0.75 or x^-1".into());
            };
            let x = o.operand(0);
            let ys = shape(body, o.result(0));
            let props = vec![("act", Attribute::string("rpow")), ("beta", Attribute::float(beta, ctx.f32()))];
            let r = build_nhwc(ctx, body, "npu.act", &[x], &ys, &ctx.f32(), props, ys.len() == 4 && !heads(body, x), at, &loc);
            body.replace_all_uses(body.op(op).result(0), r);
            body.erase(op);
        }
        "onnx.Relu" | "onnx.Clip" | "onnx.Sigmoid" | "onnx.Tanh" | "onnx.HardSigmoid" | "onnx.HardSwish" | "onnx.LeakyRelu" | "onnx.Erf" => {
            // Standalone (not fused into its producer): its own pass over the data.
            let x = o.operand(0);
            let ys = shape(body, o.result(0));
            let float = |n: &str, d: f64| o.attr(n).and_then(|a| a.as_float()).unwrap_or(d);
            let mut props = vec![];
            let act = match name.as_str() {
                "onnx.Relu" => "relu",
                "onnx.Sigmoid" => "sigmoid",
                "onnx.Tanh" => "tanh",
                "onnx.HardSwish" => "hardswish",
                "onnx.Erf" => "erf",
                "onnx.Clip" => {
                    let bound = |i: usize, d: f32| o.operands().get(i).and_then(|v| onnx::infer::const_f64s(body, *v)).and_then(|v| v.first().copied()).unwrap_or(d as f64);
                    let (lo, hi) = (bound(1, f32::MIN), bound(2, f32::MAX));
                    props.push(("min", Attribute::float(lo, ctx.f32())));
                    props.push(("max", Attribute::float(hi, ctx.f32())));
                    "clip"
                }
                "onnx.HardSigmoid" => {
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
            let r = build_nhwc(ctx, body, "npu.act", &[x], &ys, &ctx.f32(), props, ys.len() == 4 && !heads(body, x), at, &loc);
            body.replace_all_uses(body.op(op).result(0), r);
            body.erase(op);
        }
        "onnx.LayerNormalization" => {
            let eps = o.attr("epsilon").and_then(|a| a.as_float()).unwrap_or(1e-5);
            let (x, scale, bias) = (o.operand(0), o.operands().get(1).copied(), o.operands().get(2).copied());
            return convert_layer_norm(ctx, body, x, eps, scale, bias, &[op]);
        }
        "onnx.Softmax" => {
            // Over the innermost dim of the tensor as it is (a 4-D one stays NCHW).
            let x = o.operand(0);
            let ys = shape(body, o.result(0));
            let r = build(ctx, body, "npu.softmax", &[x], tensor(ctx, ys, &ctx.f32()), vec![], at, &loc);
            body.replace_all_uses(body.op(op).result(0), body.op(r).result(0));
            body.erase(op);
        }
        "onnx.Resize" if o.attr("mode").and_then(|a| a.as_str()) == Some("linear") => {
            return convert_bilinear(ctx, body, op);
        }
        "onnx.Slice" | "onnx.Split" | "onnx.Concat" | "onnx.Resize" | "onnx.Pad" => {
            // Data movement: 4-D tensors move in NHWC (per-dim attributes permuted, axes mapped).
            let ys = shape(body, o.result(0));
            let four = ys.len() == 4;
            let rank = ys.len() as i64;
            let nhwc = |v: &[i64]| if four { permuted(v, &TO_NHWC) } else { v.to_vec() };
            let axis_of = |a: i64| {
                let a = if a < 0 { a + rank } else { a };
                if four { TO_NCHW[a as usize] } else { a }
            };
            let const_ints = |i: usize| o.operands().get(i).filter(|v| !matches!(body.value_type(**v).data(), TypeData::None)).and_then(|v| onnx::infer::const_f64s(body, *v)).map(|v| v.iter().map(|x| *x as i64).collect::<Vec<i64>>());
            let x = o.operand(0);
            let xs = shape(body, x);
            // (result index, npu op, operands, properties)
            let mut outs: Vec<(usize, &str, Vec<Value>, Vec<(&str, Attribute)>)> = vec![];
            match name.as_str() {
                "onnx.Slice" => {
                    let starts = const_ints(1).ok_or("Slice starts are not constant")?;
                    let axes = const_ints(3).unwrap_or_else(|| (0..starts.len() as i64).collect());
                    let steps = const_ints(4).unwrap_or_else(|| vec![1; starts.len()]);
                    let (mut off, mut st) = (vec![0; xs.len()], vec![1; xs.len()]);
                    for k in 0..starts.len() {
                        let a = if axes[k] < 0 { axes[k] + rank } else { axes[k] } as usize;
                        let s = if starts[k] < 0 { starts[k] + xs[a] } else { starts[k] };
                        off[a] = s.clamp(0, xs[a]);
                        st[a] = steps[k];
                    }
                    outs.push((0, "npu.slice", vec![x], vec![("offsets", i64s(ctx, &nhwc(&off))), ("steps", i64s(ctx, &nhwc(&st)))]));
                }
                "onnx.Split" => {
                    let a = o.attr("axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
                    let a = if a < 0 { a + rank } else { a } as usize;
                    let mut at = 0;
                    for i in 0..o.results().len() {
                        let mut off = vec![0; xs.len()];
                        off[a] = at;
                        at += shape(body, o.result(i))[a];
                        outs.push((i, "npu.slice", vec![x], vec![("offsets", i64s(ctx, &nhwc(&off))), ("steps", i64s(ctx, &vec![1; xs.len()]))]));
                    }
                }
                "onnx.Concat" => {
                    let a = o.attr("axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
                    outs.push((0, "npu.concat", o.operands().to_vec(), vec![("axis", Attribute::integer(axis_of(a) as i128, ctx.i64()))]));
                }
                "onnx.Pad" => {
                    let (p, value) = super::target::pad_geometry(body, op).map_err(|e| e.message)?;
                    let r = xs.len();
                    let pads = [nhwc(&p[..r]), nhwc(&p[r..])].concat();
                    outs.push((0, "npu.pad", vec![x], vec![("pads", i64s(ctx, &pads)), ("value", Attribute::float(value, ctx.f32()))]));
                }
                _ => {
                    let f = [ys[2] / xs[2], ys[3] / xs[3]];
                    outs.push((0, "npu.upsample", vec![x], vec![("factors", i64s(ctx, &f))]));
                }
            }
            let results = o.results().to_vec();
            for (i, npu_name, operands, props) in outs {
                let y = results[i];
                let elem = body.value_type(y).element_type().unwrap().clone();
                let r = build_nhwc(ctx, body, npu_name, &operands, &shape(body, y), &elem, props, four, at, &loc);
                body.replace_all_uses(y, r);
            }
            body.erase(op);
        }
        "onnx.BatchNormalization" => {
            // Inference: a constant scale and shift per channel, as a Mul and an Add on the vector unit.
            let x = o.operand(0);
            let xs = shape(body, x);
            let ty = body.value_type(o.result(0)).clone();
            let p = |i: usize| onnx::infer::const_f64s(body, o.operand(i)).ok_or("BatchNormalization parameters are not constant");
            let (g, b, mean, var) = (p(1)?, p(2)?, p(3)?, p(4)?);
            let eps = o.attr("epsilon").and_then(|a| a.as_float()).unwrap_or(1e-5);
            let scale: Vec<f32> = g.iter().zip(&var).map(|(g, v)| (g / (v + eps).sqrt()) as f32).collect();
            let shift: Vec<f32> = b.iter().zip(&mean).zip(&scale).map(|((b, m), s)| (b - m * *s as f64) as f32).collect();
            let mut cs = vec![1; xs.len()];
            cs[1] = xs[1];
            let sc = f32_constant(ctx, body, &scale, cs.clone(), at, &loc);
            let sh = f32_constant(ctx, body, &shift, cs, at, &loc);
            let mul = build(ctx, body, "onnx.Mul", &[x, sc], ty.clone(), vec![], at, &loc);
            let add = build(ctx, body, "onnx.Add", &[body.op(mul).result(0), sh], ty, vec![], at, &loc);
            body.replace_all_uses(body.op(op).result(0), body.op(add).result(0));
            body.erase(op);
            convert_op(ctx, body, mul)?;
            convert_op(ctx, body, add)?;
        }
        "onnx.MaxPool" | "onnx.AveragePool" | "onnx.GlobalAveragePool" | "onnx.GlobalMaxPool" | "onnx.ReduceMean" => {
            let x = o.operand(0);
            let xs = shape(body, x);
            let ys = shape(body, o.result(0));
            // A mean over H and W (keeping them) is a global average pool.
            let global = matches!(name.as_str(), "onnx.GlobalAveragePool" | "onnx.GlobalMaxPool" | "onnx.ReduceMean");
            let kind = if matches!(name.as_str(), "onnx.MaxPool" | "onnx.GlobalMaxPool") { "max" } else { "avg" };
            let kernel = if global { vec![xs[2], xs[3]] } else { ints(body, op, "kernel_shape").unwrap_or_default() };
            let strides = if global { vec![1, 1] } else { ints(body, op, "strides").unwrap_or(vec![1, 1]) };
            let pads = if global { vec![0; 4] } else { ints(body, op, "pads").unwrap_or(vec![0; 4]) };
            let cip = int("count_include_pad", 0);
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
            emit(ctx, body, op, "npu.pool", &[xt], permuted(&ys, &TO_NHWC), props, true);
        }
        _ => {}
    }
    Ok(())
}

/// NHWC at the partition's edge: 4-D arguments and results change type, and
/// the transposes move to the callers (where consecutive partitions cancel them).
fn nhwc_signature(ctx: &Context, body: &mut Body, module: OpId, f: OpId) -> Result<(), String> {
    let entry = body.entry_block(f).ok_or("no body")?;
    let fname = body.op(f).attr("sym_name").and_then(|a| a.as_str()).unwrap_or("").to_string();
    let loc = body.op(f).loc.clone();
    let mut arg_changed = vec![];
    // Only tensors the NPU ops read or write in NHWC (images) change layout at the
    // edge; other 4-D tensors (attention heads) keep theirs, so no transpose moves their innermost dim.
    let is_perm = |body: &Body, op: OpId, perm: &[i64]| body.name(op).as_str() == "onnx.Transpose" && ints(body, op, "perm").as_deref() == Some(perm);
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
        if body.name(call).as_str() != "func.call" || body.op(call).attr("callee").and_then(|a| a.as_symbol()).map(|s| s.join("::")) != Some(fname.clone()) {
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
    let ts: Vec<OpId> = body.block_ops(entry).filter(|o| body.name(*o).as_str() == "onnx.Transpose").collect();
    for t in ts {
        let nhwc = |v: Value| body.defining_op(v).filter(|d| body.name(*d).as_str() == "onnx.Transpose" && ints(body, *d, "perm").as_deref() == Some(&TO_NCHW[..])).map(|d| body.op(d).operand(0));
        let src = match super::tokens::image_to_tokens(body, t) {
            Some(img) => nhwc(super::tokens::unaliased(body, img)),
            None if ints(body, t, "perm").as_deref() == Some(&TO_NHWC[..]) => body.defining_op(body.op(t).operand(0)).and_then(|r| super::tokens::tokens_to_image(body, r)),
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
        let funcs: Vec<OpId> = body.block_ops(mb).filter(|f| backend::partition::partition_backend(body, *f) == Some(super::target::NAME)).collect();
        for f in funcs {
            let entry = body.entry_block(f).ok_or("no body")?;
            let ops: Vec<OpId> = body.block_ops(entry).collect();
            // A Transpose without `perm` reverses the dims (ONNX's default): written out, for every reader after.
            for &op in &ops {
                if body.name(op).as_str() == "onnx.Transpose" && body.op(op).attr("perm").is_none() {
                    if let Some(perm) = onnx::infer::transpose_perm(body, op) {
                        let perm: Vec<i64> = perm.iter().map(|p| *p as i64).collect();
                        body.op_mut(op).properties.set(ctx.ident("perm"), i64s(ctx, &perm));
                    }
                }
            }
            for op in ops {
                if body.is_erased(op) {
                    continue;
                }
                convert_op(ctx, body, op).map_err(|e| format!("{}: {}", body.op(op).loc, e))?;
            }
            tokens_as_reshapes(ctx, body, entry);
            // Flatten of [1, C, 1, 1] is a reshape (the same bytes in either layout).
            let ops: Vec<OpId> = body.block_ops(entry).filter(|o| body.name(*o).as_str() == "onnx.Flatten").collect();
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
