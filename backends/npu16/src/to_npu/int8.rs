//! The int8 forms: a quantized product, average pool, add or Concat input
//! becomes one int8 `npu` op that requantizes to its QuantizeLinear (or the
//! Q of a fused `DQ → Relu|Clip → Q` chain after it), its DQs and Qs gone.

use onnx::ops;
use super::{build, i16_constant, i32_constant, i64s, permuted, push_macs, reshape, shape, tensor, transpose, TO_NCHW, TO_NHWC};
use ir::attributes::Attribute;
use ir::{Body, Context, InsertPoint, Location, OpId, Value};

type Chain = Option<crate::quant::Chain>;

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
        Some(c) => Target { scale: c.q.scale, zp: c.q.zp, act: if body.name(c.act).as_str() == ops::Clip::NAME { "clip" } else { "relu" }, last_q: c.q.op, clamp: crate::quant::chain_clamp(body, c) },
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
fn folded_bias(body: &Body, m: &crate::quant::QMac, outputs: i64) -> Result<Option<Vec<i32>>, String> {
    let zx = m.x_zp();
    let bias: Option<Vec<f64>> = m.b.as_ref().map(|b| onnx::infer::const_f64s(body, b.input).ok_or("the bias is not constant")).transpose()?;
    if bias.as_ref().is_some_and(|b| b.len() != 1 && b.len() as i64 != outputs) {
        return Err(format!("a bias of {} values for {} output channels", bias.map(|b| b.len()).unwrap_or(0), outputs));
    }
    if zx == 0 {
        return Ok(None);
    }
    let w = m.w.centered(body).ok_or("the weights are not constant integers")?;
    let f = outputs as usize;
    let per = w.len() / f.max(1);
    // Output channels lead the weights' layout (Conv [F, C, KH, KW], Gemm with transB) or close it ([K, N]).
    let leading = match body.name(m.op).as_str() {
        ops::Conv::NAME | ops::QLinearConv::NAME => true,
        ops::Gemm::NAME => body.op(m.op).attr("transB").and_then(|a| a.as_int()).unwrap_or(0) != 0,
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
pub(super) fn convert_qmac(ctx: &Context, body: &mut Body, m: crate::quant::QMac) -> Result<(), String> {
    let op = m.op;
    let name = body.name(op);
    let loc = body.op(op).loc.clone();
    let at = InsertPoint::Before(op);
    let q_out = body.op(m.q).result(0);
    let chain = crate::quant::relu_chain(body, q_out);
    let t = chain_target(body, &chain, m.q, m.out_scale, m.out_zp);
    let mut mult = vec![];
    let mut shift = vec![];
    for s in &m.acc_scales {
        let (a, b) = crate::quant::requant_params(s / t.scale as f64).ok_or("requantization multiplier out of range")?;
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
    let (npu_name, operands, out_shape, nchw) = if matches!(name.as_str(), ops::Conv::NAME | ops::QLinearConv::NAME) {
        let g = body.op(op).attr("group").and_then(|a| a.as_int()).unwrap_or(1) as i64;
        props.push(("strides", i64s(ctx, &body.op(op).ints_attr("strides").unwrap_or(vec![1, 1]))));
        props.push(("pads", i64s(ctx, &body.op(op).ints_attr("pads").unwrap_or(vec![0; 4]))));
        props.push(("group", Attribute::integer(g as i128, ctx.i64())));
        if m.x_zp() != 0 {
            // Padding is the input's zero point: 0.0 in its quantization.
            props.push(("pad_value", Attribute::integer(m.x_zp() as i128, ctx.i64())));
        }
        let xt = transpose(ctx, body, m.x.input, &TO_NHWC, at, &loc);
        let wt = if m.w.zps.iter().any(|z| *z != 0) || body.value_type(m.w.input).element_type().is_some_and(|e| e.to_string() == "ui8") {
            // A depthwise conv on the vector unit with weight zero points: its
            // filter holds w - zw (9 bits, i16), HWIO [kh, kw, 1, C] from [C, 1, kh, kw].
            let d = m.w.centered(body).ok_or("the weights are not constant integers")?;
            let s = shape(body, m.w.input);
            let (c, k) = (s[0], s[2] * s[3]);
            let hwio: Vec<i16> = (0..k * c).map(|e| d[((e % c) * k + e / c) as usize] as i16).collect();
            i16_constant(ctx, body, &hwio, vec![s[2], s[3], 1, c], at, &loc)
        } else {
            transpose(ctx, body, m.w.input, &[2, 3, 1, 0], at, &loc)
        };
        let mut v = vec![xt, wt];
        v.extend(bias);
        (npu::ops::CONV, v, permuted(&y_shape, &TO_NHWC), true)
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
        (npu::ops::MATMUL, v, vec![mm, n], false)
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
/// that requantizes, an AveragePool as one of its window (`quant::QAvg`).
pub(super) fn convert_qavgpool(ctx: &Context, body: &mut Body, op: OpId, a: crate::quant::QAvg) -> Result<(), String> {
    let (mult, shift): (Vec<i64>, Vec<i64>) = a.requant().ok_or("requantization multiplier out of range")?.into_iter().unzip();
    let loc = Location::fused(&[body.op(op).loc.clone(), body.op(a.q).loc.clone()]);
    let xs = shape(body, a.x.input);
    let ys = shape(body, body.op(op).result(0));
    let at = InsertPoint::Before(op);
    let xt = transpose(ctx, body, a.x.input, &TO_NHWC, at, &loc);
    let i8t = body.value_type(a.x.input).element_type().unwrap().clone();
    let t = Target { scale: a.out_scale, zp: a.out_zp, act: "none", last_q: a.q, clamp: (-128, 127) };
    let mut props = requant_props(ctx, &t, &mult, &shift);
    props.retain(|(k, _)| *k != "act");
    let (kernel, strides, pads) = a.window.clone().unwrap_or((vec![xs[2], xs[3]], vec![1, 1], vec![0; 4]));
    props.extend([
        ("kind", Attribute::string("avg")),
        ("kernel", i64s(ctx, &kernel)),
        ("strides", i64s(ctx, &strides)),
        ("pads", i64s(ctx, &pads)),
        ("count_include_pad", Attribute::integer(0, ctx.i64())),
        ("in_zp", Attribute::integer(a.x.zp() as i128, ctx.i64())),
    ]);
    if a.window.is_none() {
        props.push(("avg_shift", Attribute::integer(a.avg_shift as i128, ctx.i64())));
    }
    let new = build(ctx, body, npu::ops::POOL, &[xt], tensor(ctx, permuted(&ys, &TO_NHWC), &i8t), props, at, &loc);
    let r = transpose(ctx, body, body.op(new).result(0), &TO_NCHW, InsertPoint::After(new), &loc);
    finish_pattern(body, r, a.q, None, vec![a.q, op, a.x.op]);
    Ok(())
}

/// The `npu.lut` whose result `v` is (through a layout transpose), when nothing else reads it.
fn lut_of(body: &Body, v: Value) -> Option<OpId> {
    let one_use = |v: Value| body.uses(v).len() == 1;
    let mut d = body.defining_op(v)?;
    if body.name(d).as_str() == ops::Transpose::NAME && one_use(v) {
        let inner = body.op(d).operand(0);
        (one_use(inner)).then_some(())?;
        d = body.defining_op(inner)?;
        return (body.name(d).as_str() == npu::ops::LUT).then_some(d);
    }
    (body.name(d).as_str() == npu::ops::LUT && one_use(v)).then_some(d)
}

/// `Q(f(DQ(x)))` as an `npu.lut` of the int8 `x` (any shape: it maps values, not positions).
pub(super) fn convert_qlut(ctx: &Context, body: &mut Body, op: OpId, t: crate::quant_lut::QLut) -> Result<(), String> {
    let loc = Location::fused(&[body.op(op).loc.clone(), body.op(t.q).loc.clone()]);
    let at = InsertPoint::Before(op);
    let xs = shape(body, t.x.input);
    let i8t = body.value_type(t.x.input).element_type().unwrap().clone();
    // In NHWC beside NHWC producers and consumers (the transposes cancel), heads as they are.
    let four = xs.len() == 4 && !super::heads(body, t.x.input);
    let r = super::build_nhwc(ctx, body, npu::ops::LUT, &[t.x.input], &xs, &i8t, vec![("table", i64s(ctx, &t.table))], four, at, &loc);
    let mut members = t.members.clone();
    members.reverse();
    finish_pattern(body, r, t.q, None, members);
    Ok(())
}

/// A quantized Add (and a following DQ → Relu → Q) as one int8 npu.eltwise.
/// Input `i` of a quantized Concat (`x`, quantized otherwise than the Concat's
/// QuantizeLinear `q`) requantized to `q`'s scale and zero point: an int8 add
/// of `x` to itself, each half weighted 2^19 (their sum, 2^20, is the add's
/// fixed-point one, exactly), then one requantization; the Concat reads it
/// through a DequantizeLinear of `q`'s parameters, so it is a move.
pub(super) fn requantize_input(ctx: &Context, body: &mut Body, op: OpId, i: usize, x: &crate::quant::Dq, q: OpId) -> Result<(), String> {
    let crate::quant::Q { scale, zp, .. } = crate::quant::as_q(body, q)?;
    if let Some(l) = lut_of(body, x.input) {
        // A table's result read only here: the table gives the Concat's quantization
        // directly (dequantized and quantized again as the CPU path does, in f32).
        let t = body.op(l).ints_attr("table").ok_or("npu.lut without its table")?;
        let requantized: Vec<i64> = t.iter().map(|v| (((*v - x.zp()) as f32 * x.scales[0] / scale).round_ties_even() as f64 + zp as f64).clamp(-128.0, 127.0) as i64).collect();
        body.op_mut(l).properties.set(ctx.ident("table"), i64s(ctx, &requantized));
        let loc = body.op(x.op).loc.clone();
        let params: Vec<Value> = body.op(q).operands()[1..].to_vec();
        let f32t = body.value_type(body.op(op).operand(i)).clone();
        let dq = build(ctx, body, ops::DequantizeLinear::NAME, &[vec![x.input], params].concat(), f32t, vec![], InsertPoint::Before(op), &loc);
        let dv = body.op(dq).result(0);
        body.set_operand(op, i, dv);
        if !body.has_uses(body.op(x.op).result(0)) {
            body.erase(x.op);
        }
        return Ok(());
    }
    let half = 1i64 << (crate::quant::ADD_FRACTION_BITS - 1);
    let acc_scale = x.scales[0] as f64 / (1u64 << crate::quant::ADD_FRACTION_BITS) as f64;
    let (mult, shift) = crate::quant::requant_params(acc_scale / scale as f64).ok_or("requantization multiplier out of range")?;
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
    let new = build(ctx, body, npu::ops::ELTWISE, &[a, a], tensor(ctx, out_shape, &i8t), props, at, &loc);
    let mut r = body.op(new).result(0);
    if four {
        r = transpose(ctx, body, r, &TO_NCHW, at, &loc);
    }
    // The Concat's input: r dequantized with the Concat's own parameters.
    let params: Vec<Value> = body.op(q).operands()[1..].to_vec();
    let f32t = body.value_type(body.op(op).operand(i)).clone();
    let dq = build(ctx, body, ops::DequantizeLinear::NAME, &[vec![r], params].concat(), f32t, vec![], at, &loc);
    let dv = body.op(dq).result(0);
    body.set_operand(op, i, dv);
    if !body.has_uses(body.op(x.op).result(0)) {
        body.erase(x.op);
    }
    Ok(())
}

pub(super) fn convert_qadd(ctx: &Context, body: &mut Body, m: crate::quant::QAdd) -> Result<(), String> {
    let op = m.op;
    let loc = body.op(op).loc.clone();
    let at = InsertPoint::Before(op);
    let chain = crate::quant::relu_chain(body, body.op(m.q).result(0));
    let t = chain_target(body, &chain, m.q, m.out_scale, m.out_zp);
    let (mult, shift) = crate::quant::requant_params(m.acc_scale / t.scale as f64).ok_or("requantization multiplier out of range")?;
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
    let new = build(ctx, body, npu::ops::ELTWISE, &[a, b], tensor(ctx, out_shape, &i8t), props, at, &fused);
    let mut r = body.op(new).result(0);
    if four {
        r = transpose(ctx, body, r, &TO_NCHW, InsertPoint::After(new), &fused);
    }
    finish_pattern(body, r, t.last_q, chain, vec![m.q, op, m.a.op, m.b.op]);
    Ok(())
}
