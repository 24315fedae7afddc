//! Quantized (QDQ) patterns the NPU runs in int8: a Conv, Gemm or MatMul
//! whose activation, weights and bias are DequantizeLinear'd int8/int32
//! (zero points 0: symmetric, as the array has no zero-point correction) and
//! whose only user is a QuantizeLinear to int8, optionally followed by
//! `DequantizeLinear → Relu → QuantizeLinear`. The NPU computes the product in
//! i32 and requantizes once, with the fixed-point multiplier and shift of
//! `v.requant` (`round_half_up(acc · mult / 2^(31+shift))`) for each output
//! channel's `s_x · s_w / s_y`; `runtime::npu_reference` defines the same
//! arithmetic on the host, the reference the NPU must match bit for bit.

use super::target::is_constant;
use ir::{Body, OpId, Value};

/// A DequantizeLinear: its int8/int32 input, scales (one, or one per slice along `axis`).
#[derive(Clone, Debug)]
pub struct Dq {
    pub op: OpId,
    pub input: Value,
    pub scales: Vec<f32>,
    pub axis: i64,
}

fn elem(body: &Body, v: Value) -> String {
    body.value_type(v).element_type().map(|e| e.to_string()).unwrap_or_default()
}

/// The values of a constant operand as f32 (scales, clip bounds).
pub fn const_f32s(body: &Body, v: Value) -> Option<Vec<f32>> {
    Some(onnx::infer::const_f64s(body, v)?.into_iter().map(|x| x as f32).collect())
}

/// Whether `v` is a constant of zeros (or absent: ONNX's default zero point).
fn zero(body: &Body, v: Option<Value>) -> bool {
    v.is_none_or(|v| onnx::infer::const_f64s(body, v).is_some_and(|x| x.iter().all(|x| *x == 0.0)))
}

/// `v` as a DequantizeLinear of an int8 (or, for biases, int32) tensor with zero points 0.
pub fn as_dq(body: &Body, v: Value, input_elem: &str) -> Option<Dq> {
    let op = body.defining_op(v).filter(|d| body.name(*d).as_str() == "onnx.DequantizeLinear")?;
    let o = body.op(op);
    let input = o.operand(0);
    if elem(body, input) != input_elem || elem(body, v) != "f32" {
        return None;
    }
    let scales = const_f32s(body, o.operand(1))?;
    if !zero(body, o.operands().get(2).copied()) {
        return None;
    }
    let axis = o.attr("axis").and_then(|a| a.as_int()).unwrap_or(1) as i64;
    Some(Dq { op, input, scales, axis })
}

/// A QuantizeLinear to int8 with one scale and zero point 0: (op, its input, scale).
pub fn as_q(body: &Body, op: OpId) -> Option<(OpId, Value, f32)> {
    if body.name(op).as_str() != "onnx.QuantizeLinear" {
        return None;
    }
    let o = body.op(op);
    let zp = o.operands().get(2).copied()?;
    if elem(body, o.result(0)) != "i8" || elem(body, zp) != "i8" || !zero(body, Some(zp)) {
        return None;
    }
    let s = const_f32s(body, o.operand(1))?;
    if s.len() != 1 {
        return None;
    }
    Some((op, o.operand(0), s[0]))
}

/// The int8 form of a Conv, Gemm or MatMul.
#[derive(Clone, Debug)]
pub struct QMac {
    pub op: OpId,
    pub x: Dq,
    pub w: Dq,
    pub b: Option<Dq>,
    /// The QuantizeLinear of the result, and its scale.
    pub q: OpId,
    pub out_scale: f32,
    /// Per output channel: s_x · s_w.
    pub acc_scales: Vec<f64>,
}

fn single_user(body: &Body, v: Value) -> Option<OpId> {
    match body.uses(v) {
        [u] => Some(u.op),
        _ => None,
    }
}

/// The quantized pattern rooted at a Conv/Gemm/MatMul, if it is one the NPU runs.
pub fn qmac(body: &Body, op: OpId) -> Option<QMac> {
    let name = body.name(op);
    if matches!(name.as_str(), "onnx.QLinearConv" | "onnx.QLinearMatMul") {
        return qlinear(body, op);
    }
    let o = body.op(op);
    let x = as_dq(body, o.operand(0), "i8")?;
    let w = as_dq(body, o.operand(1), "i8")?;
    is_constant(body, w.input).then_some(())?;
    let b = match (name.as_str(), o.operands().get(2)) {
        ("onnx.MatMul", _) | (_, None) => None,
        (_, Some(b)) => {
            let d = as_dq(body, *b, "i32")?;
            is_constant(body, d.input).then_some(())?;
            Some(d)
        }
    };
    if x.scales.len() != 1 {
        return None;
    }
    let (q, _, out_scale) = as_q(body, single_user(body, o.result(0)).filter(|u| body.name(*u).as_str() == "onnx.QuantizeLinear")?)?;
    // Output channels and the weight axis that indexes them.
    let ws = body.value_type(w.input).shape()?.to_vec();
    let (f, axis) = match name.as_str() {
        "onnx.Conv" => (ws[0], 0),
        "onnx.Gemm" if o.attr("transB").and_then(|a| a.as_int()).unwrap_or(0) != 0 => (ws[0], 0),
        _ => (*ws.last()?, ws.len() as i64 - 1),
    };
    if w.scales.len() != 1 && (w.scales.len() as i64 != f || w.axis != axis) {
        return None;
    }
    let sw = |c: usize| w.scales[if w.scales.len() == 1 { 0 } else { c }] as f64;
    let acc_scales: Vec<f64> = (0..f as usize).map(|c| x.scales[0] as f64 * sw(c)).collect();
    // The bias must be in the accumulator's scale.
    if let Some(b) = &b {
        let sb = |c: usize| b.scales[if b.scales.len() == 1 { 0 } else { c }] as f64;
        if (0..f as usize).any(|c| ((sb(c) - acc_scales[c]) / acc_scales[c]).abs() > 1e-5) {
            return None;
        }
    }
    if acc_scales.iter().any(|s| requant_params(s / out_scale as f64).is_none()) {
        return None;
    }
    Some(QMac { op, x, w, b, q, out_scale, acc_scales })
}

/// The int8 form of an Add: both inputs dequantized int8 activations of one
/// shape, one QuantizeLinear after. Each input is rescaled to the larger
/// input scale in fixed point (`in_mult` = 2^20 · s_in / s_max, exact to
/// 2^-20), summed in i32 and requantized once.
#[derive(Clone, Debug)]
pub struct QAdd {
    pub op: OpId,
    pub a: Dq,
    pub b: Dq,
    pub q: OpId,
    pub out_scale: f32,
    pub in_mult: [i64; 2],
    /// The scale of the i32 sum: s_max / 2^20.
    pub acc_scale: f64,
}

pub const ADD_FRACTION_BITS: i32 = 20;

pub fn qadd(body: &Body, op: OpId) -> Option<QAdd> {
    if body.name(op).as_str() != "onnx.Add" {
        return None;
    }
    let o = body.op(op);
    let a = as_dq(body, o.operand(0), "i8")?;
    let b = as_dq(body, o.operand(1), "i8")?;
    if a.scales.len() != 1 || b.scales.len() != 1 || body.value_type(a.input).shape() != body.value_type(b.input).shape() {
        return None;
    }
    if is_constant(body, a.input) || is_constant(body, b.input) {
        return None;
    }
    let (q, _, out_scale) = as_q(body, single_user(body, o.result(0)).filter(|u| body.name(*u).as_str() == "onnx.QuantizeLinear")?)?;
    let smax = a.scales[0].max(b.scales[0]) as f64;
    let one = (1i64 << ADD_FRACTION_BITS) as f64;
    let in_mult = [(one * a.scales[0] as f64 / smax).round() as i64, (one * b.scales[0] as f64 / smax).round() as i64];
    let acc_scale = smax / one;
    requant_params(acc_scale / out_scale as f64)?;
    Some(QAdd { op, a, b, q, out_scale, in_mult, acc_scale })
}

/// `Q(MaxPool(DQ(x, s)), s)`: with one scale on both sides the max commutes
/// with (de)quantization, so the pool runs on the int8 values: (DQ, Q).
pub fn qmaxpool(body: &Body, op: OpId) -> Option<(Dq, OpId)> {
    if body.name(op).as_str() != "onnx.MaxPool" || body.op(op).results().len() > 1 && body.has_uses(body.op(op).result(1)) {
        return None;
    }
    let x = as_dq(body, body.op(op).operand(0), "i8").filter(|d| d.scales.len() == 1)?;
    let (q, _, s) = as_q(body, single_user(body, body.op(op).result(0)).filter(|u| body.name(*u).as_str() == "onnx.QuantizeLinear")?)?;
    ((s - x.scales[0]).abs() <= 1e-7 * s.abs()).then_some((x, q))
}

/// QLinearConv / QLinearMatMul: the same int8 product with its scales and
/// zero points as operands (zero points 0). The op is its own DQs and Q.
fn qlinear(body: &Body, op: OpId) -> Option<QMac> {
    let o = body.op(op);
    let conv = body.name(op).as_str() == "onnx.QLinearConv";
    let ops = o.operands();
    let (x, xs, xz, w, ws, wz, ys, yz) = (ops[0], ops[1], ops[2], ops[3], ops[4], ops[5], ops[6], ops[7]);
    if elem(body, x) != "i8" || elem(body, w) != "i8" || elem(body, o.result(0)) != "i8" || ![xz, wz, yz].iter().all(|z| zero(body, Some(*z))) {
        return None;
    }
    is_constant(body, w).then_some(())?;
    let sx = const_f32s(body, xs).filter(|v| v.len() == 1)?;
    let sw = const_f32s(body, ws)?;
    let sy = const_f32s(body, ys).filter(|v| v.len() == 1)?[0];
    let wshape = body.value_type(w).shape()?.to_vec();
    let f = if conv { wshape[0] } else { *wshape.last()? };
    if sw.len() != 1 && sw.len() as i64 != f {
        return None;
    }
    let acc_scales: Vec<f64> = (0..f as usize).map(|c| sx[0] as f64 * sw[if sw.len() == 1 { 0 } else { c }] as f64).collect();
    if acc_scales.iter().any(|s| requant_params(s / sy as f64).is_none()) {
        return None;
    }
    let dq = |input: Value, scales: Vec<f32>, axis: i64| Dq { op, input, scales, axis };
    let b = if conv && ops.len() > 8 {
        if elem(body, ops[8]) != "i32" {
            return None;
        }
        is_constant(body, ops[8]).then_some(())?;
        Some(dq(ops[8], acc_scales.iter().map(|s| *s as f32).collect(), 0))
    } else {
        None
    };
    Some(QMac { op, x: dq(x, sx, 1), w: dq(w, sw, if conv { 0 } else { 1 }), b, q: op, out_scale: sy, acc_scales })
}

/// ConvInteger / MatMulInteger of int8 operands with zero points 0 (absent or
/// zero constants) and constant weights: the product's i32 accumulators.
pub fn qinteger(body: &Body, op: OpId) -> bool {
    if !matches!(body.name(op).as_str(), "onnx.ConvInteger" | "onnx.MatMulInteger") {
        return false;
    }
    let o = body.op(op);
    elem(body, o.operand(0)) == "i8"
        && elem(body, o.operand(1)) == "i8"
        && elem(body, o.result(0)) == "i32"
        && is_constant(body, o.operand(1))
        && o.operands()[2..].iter().all(|z| zero(body, Some(*z)))
}

/// `Q2(Relu|Clip(DQ2(v)))` after a fused product's output `v`: (DQ2, the activation, Q2, new scale).
pub fn relu_chain(body: &Body, v: Value) -> Option<(OpId, OpId, OpId, f32)> {
    let dq = single_user(body, v).filter(|u| body.name(*u).as_str() == "onnx.DequantizeLinear")?;
    let d = as_dq(body, body.op(dq).result(0), "i8").filter(|d| d.op == dq && d.scales.len() == 1)?;
    let relu = single_user(body, body.op(d.op).result(0)).filter(|r| body.name(*r).as_str() == "onnx.Relu" || (body.name(*r).as_str() == "onnx.Clip" && clip_bounds(body, *r).is_some()))?;
    let (q2, _, s2) = as_q(body, single_user(body, body.op(relu).result(0))?)?;
    Some((dq, relu, q2, s2))
}

/// The constant bounds of a Clip (absent: unbounded).
pub fn clip_bounds(body: &Body, op: OpId) -> Option<(f32, f32)> {
    let o = body.op(op);
    let b = |i: usize, d: f32| match o.operands().get(i) {
        None => Some(d),
        Some(v) => const_f32s(body, *v).filter(|x| x.len() == 1).map(|x| x[0]),
    };
    Some((b(1, f32::NEG_INFINITY)?, b(2, f32::INFINITY)?))
}

/// The int8 clamp of a fused `DQ → Relu|Clip → Q(scale)`: the activation's bounds, quantized.
pub fn chain_clamp(body: &Body, act: OpId, scale: f32) -> (i64, i64) {
    let (lo, hi) = if body.name(act).as_str() == "onnx.Clip" { clip_bounds(body, act).unwrap_or((f32::NEG_INFINITY, f32::INFINITY)) } else { (0.0, f32::INFINITY) };
    let q = |x: f32| ((x / scale).round_ties_even() as f64).clamp(-128.0, 127.0) as i64;
    (q(lo), q(hi))
}

/// `m = mult · 2^-(31+shift)` with `mult` in [2^30, 2^31): the fixed-point form of a
/// requantization multiplier below 1 (`None` when it is not representable).
pub fn requant_params(m: f64) -> Option<(i64, i64)> {
    if !(m > 0.0 && m < 1.0 && m.is_finite()) {
        return None;
    }
    let mut shift = 0i64;
    let mut x = m;
    while x < 0.5 {
        x *= 2.0;
        shift += 1;
    }
    if shift > 62 {
        return None;
    }
    let mut mult = (x * (1u64 << 31) as f64).round() as i64;
    if mult == 1 << 31 {
        mult /= 2;
        shift -= 1;
        if shift < 0 {
            return None;
        }
    }
    Some((mult, shift))
}

/// The int8 result of requantizing `acc` (what `v.requant` computes).
pub fn requantize(acc: i32, mult: i64, shift: i64, lo: i64, hi: i64) -> i8 {
    let p = acc as i64 * mult;
    let s = 31 + shift;
    let r = (p + (1i64 << (s - 1))) >> s;
    r.clamp(lo, hi) as i8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_point_multipliers_match_the_real_ones() {
        for m in [0.9999, 0.5, 0.25, 0.1234, 3.0e-5, 0.75] {
            let (mult, shift) = requant_params(m).unwrap();
            assert!((1 << 30..1 << 31).contains(&mult), "{} -> {}", m, mult);
            let back = mult as f64 / 2f64.powi(31 + shift as i32);
            assert!(((back - m) / m).abs() < 1e-9, "{} -> {}", m, back);
        }
        assert!(requant_params(1.0).is_none() && requant_params(0.0).is_none());
    }

    #[test]
    fn requantize_rounds_half_up_and_clamps() {
        let (mult, shift) = requant_params(0.5).unwrap();
        assert_eq!(requantize(3, mult, shift, -128, 127), 2); // 1.5 -> 2
        assert_eq!(requantize(-3, mult, shift, -128, 127), -1); // -1.5 -> -1
        assert_eq!(requantize(1000, mult, shift, -128, 127), 127);
        assert_eq!(requantize(-5, mult, shift, 0, 127), 0);
    }
}
