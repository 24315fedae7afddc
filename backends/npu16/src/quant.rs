//! Quantized patterns the NPU runs in int8, as ONNX Runtime's quantizer
//! writes them: a Conv, Gemm or MatMul whose activation, weights and bias are
//! DequantizeLinear'd int8/int8/int32 and whose only user is a QuantizeLinear
//! to int8, optionally followed by `DequantizeLinear → Relu|Clip →
//! QuantizeLinear`; the same with the QLinear ops of `com.microsoft`; an Add
//! and a MaxPool between DQs and a Q. Activations are per tensor with any
//! zero point; weights int8 and symmetric (zero points 0), per tensor or per
//! output channel. The zero points are exact integer terms: the activation's
//! times each output channel's weight sum is folded into the int32 bias at
//! compile time (and padding is the zero point, which means 0.0), the
//! output's is added after requantizing. The NPU computes the product in i32
//! and requantizes once, with the fixed-point multiplier and shift of
//! `v.requant` (`round_half_up(acc · mult / 2^(31+shift)) + zp`) for each
//! output channel's `s_x · s_w / s_y`; `runtime::npu_reference` defines the
//! same arithmetic on the host, the reference the NPU must match bit for bit.
//!
//! Every matcher says why a pattern is refused (`Err`): those words are the
//! fallback reason the report shows.

use onnx::ops;
use super::target::is_constant;
use ir::{Body, OpId, Value};

/// A DequantizeLinear: its integer input, scales and zero points (one each,
/// or one per slice along `axis`).
#[derive(Clone, Debug)]
pub struct Dq {
    pub op: OpId,
    pub input: Value,
    pub scales: Vec<f32>,
    pub zps: Vec<i64>,
    pub axis: i64,
}

impl Dq {
    /// The zero point of a per-tensor quantization.
    pub fn zp(&self) -> i64 {
        self.zps[0]
    }

    /// For each element of a constant input, the index of its scale and
    /// zero point (0 per tensor, else its slice along `axis`).
    fn slices(&self, body: &Body) -> Option<Vec<usize>> {
        let s = body.value_type(self.input).shape()?.to_vec();
        let total: i64 = s.iter().product();
        if self.scales.len() == 1 && self.zps.len() == 1 {
            return Some(vec![0; total as usize]);
        }
        let n = *s.get(self.axis as usize)?;
        let inner: i64 = s[self.axis as usize + 1..].iter().product();
        Some((0..total).map(|e| (e / inner % n) as usize).collect())
    }

    /// A constant's values less their zero points (`w - zw`, per slice along `axis`).
    pub fn centered(&self, body: &Body) -> Option<Vec<i64>> {
        let v = onnx::infer::const_ints(body, self.input)?;
        let at = self.slices(body)?;
        Some(v.iter().zip(at).map(|(x, i)| x - self.zps[i.min(self.zps.len() - 1)]).collect())
    }

    /// A constant's values dequantized, in f32 as DequantizeLinear computes them.
    pub fn dequantized(&self, body: &Body) -> Option<Vec<f32>> {
        let c = self.centered(body)?;
        let at = self.slices(body)?;
        Some(c.iter().zip(at).map(|(d, i)| *d as f32 * self.scales[i.min(self.scales.len() - 1)]).collect())
    }
}

/// A QuantizeLinear to int8 with one scale and zero point.
#[derive(Clone, Copy, Debug)]
pub struct Q {
    pub op: OpId,
    pub scale: f32,
    pub zp: i64,
}

/// A value's element type as text (`i8`, `ui8`, `f32`…).
pub(crate) fn elem(body: &Body, v: Value) -> String {
    body.value_type(v).element_type().map(|e| e.to_string()).unwrap_or_default()
}

/// The values of a constant operand as f32 (scales, clip bounds).
pub fn const_f32s(body: &Body, v: Value) -> Option<Vec<f32>> {
    Some(onnx::infer::const_f64s(body, v)?.into_iter().map(|x| x as f32).collect())
}

/// Whether an optional operand is missing (or ONNX's empty name).
pub(crate) fn absent(body: &Body, v: Option<Value>) -> bool {
    v.is_none_or(|v| matches!(body.value_type(v).data(), ir::types::TypeData::None))
}

fn node(body: &Body, op: OpId) -> String {
    body.op(op).loc.node_name().unwrap_or_else(|| body.name(op).as_str().to_string())
}

/// Scales must be positive finite numbers (a zero, negative or NaN scale has no int8 meaning).
fn check_scales(scales: &[f32], what: &str) -> Result<(), String> {
    match scales.iter().find(|s| !(s.is_finite() && **s > 0.0)) {
        Some(s) => Err(format!("{} scale {} is not a positive finite number", what, s)),
        None => Ok(()),
    }
}

/// The constant zero points of a (De)QuantizeLinear's operand 2, checked
/// against the quantized tensor's type `ty` (absent: 0).
fn zero_points(body: &Body, zp: Option<Value>, ty: &str, n: usize) -> Result<Vec<i64>, String> {
    if absent(body, zp) {
        return Ok(vec![0; n]);
    }
    let zp = zp.unwrap();
    let zt = elem(body, zp);
    if zt != ty {
        return Err(format!("zero point of type {} for a {} tensor (mixed types in one quantization)", zt, ty));
    }
    let z: Vec<i64> = onnx::infer::const_f64s(body, zp).ok_or("its zero point is not a constant")?.into_iter().map(|v| v as i64).collect();
    if z.len() != n {
        return Err(format!("{} zero points for {} scales", z.len(), n));
    }
    Ok(z)
}

/// `v` as a DequantizeLinear to f32 with constant scales and zero points.
pub fn dq(body: &Body, v: Value) -> Result<Dq, String> {
    let op = body.defining_op(v).filter(|d| body.name(*d).as_str() == ops::DequantizeLinear::NAME).ok_or("its input is not a DequantizeLinear (a float tensor)")?;
    let o = body.op(op);
    let input = o.operand(0);
    if elem(body, v) != "f32" {
        return Err(format!("a DequantizeLinear to {}, not f32", elem(body, v)));
    }
    if o.attr("block_size").and_then(|a| a.as_int()).unwrap_or(0) != 0 {
        return Err("blocked quantization (block_size)".into());
    }
    let scales = const_f32s(body, o.operand(1)).ok_or("its scale is not a constant")?;
    if scales.is_empty() {
        return Err("an empty scale".into());
    }
    check_scales(&scales, "a DequantizeLinear")?;
    let zps = zero_points(body, o.operands().get(2).copied(), &elem(body, input), scales.len())?;
    let shape = body.value_type(input).shape().map(|s| s.to_vec()).unwrap_or_default();
    let mut axis = o.attr("axis").and_then(|a| a.as_int()).unwrap_or(1) as i64;
    if axis < 0 {
        axis += shape.len() as i64;
    }
    if scales.len() > 1 && shape.get(axis as usize).is_none_or(|d| *d != scales.len() as i64) {
        return Err(format!("{} scales for axis {} of a {:?} tensor", scales.len(), axis, shape));
    }
    Ok(Dq { op, input, scales, zps, axis })
}

/// The element type as the array takes it: int8, or why not.
fn int8(ty: &str, what: &str) -> Result<(), String> {
    match ty {
        "i8" => Ok(()),
        "ui8" => Err(format!("uint8 {} (the array multiplies int8)", what)),
        t => Err(format!("{} of type {} (the NPU's quantized ops take int8)", what, t)),
    }
}

/// An int8 activation: one scale and zero point for the tensor.
pub fn activation(body: &Body, v: Value) -> Result<Dq, String> {
    let d = dq(body, v)?;
    int8(&elem(body, d.input), "activations")?;
    if d.scales.len() != 1 {
        return Err(format!("activations quantized per axis ({} scales; the NPU takes one per tensor)", d.scales.len()));
    }
    if is_constant(body, d.input) {
        return Err("a constant where an activation is expected".into());
    }
    Ok(d)
}

/// Constant int8 weights, symmetric, per tensor or per output channel
/// (`outputs` channels along `axis`).
pub fn weights(body: &Body, v: Value, outputs: i64, axis: i64) -> Result<Dq, String> {
    weights_of(body, v, outputs, axis, false)
}

/// `weights`, where `vector_rows` says the product is a depthwise conv on the
/// vector unit (`v.mac`), whose weight rows are i32 lanes: there uint8 or
/// int8 weights with any zero points are taken, as `w - zw`.
fn weights_of(body: &Body, v: Value, outputs: i64, axis: i64, vector_rows: bool) -> Result<Dq, String> {
    let d = dq(body, v)?;
    if !(vector_rows && elem(body, d.input) == "ui8") {
        int8(&elem(body, d.input), "weights")?;
    }
    if !is_constant(body, d.input) {
        return Err("weights are not constant".into());
    }
    if let Some(z) = d.zps.iter().find(|z| **z != 0).filter(|_| !vector_rows) {
        return Err(format!("asymmetric weights (zero point {}) in a grouped convolution (the array has no weight zero point: ungrouped products run such weights as symmetric parts, depthwise ones on the vector unit)", z));
    }
    if d.scales.len() != 1 && (d.scales.len() as i64 != outputs || d.axis != axis) {
        return Err(format!("weights quantized along axis {} (per channel, the output channels are axis {})", d.axis, axis));
    }
    Ok(d)
}

/// A constant int32 bias with zero points 0.
fn bias(body: &Body, v: Value) -> Result<Dq, String> {
    let d = dq(body, v)?;
    if elem(body, d.input) != "i32" {
        return Err(format!("a bias of type {} (int32 expected)", elem(body, d.input)));
    }
    if !is_constant(body, d.input) {
        return Err("bias is not constant".into());
    }
    if d.zps.iter().any(|z| *z != 0) {
        return Err("a bias with a nonzero zero point".into());
    }
    Ok(d)
}

/// A QuantizeLinear to int8 with one scale and zero point.
pub fn as_q(body: &Body, op: OpId) -> Result<Q, String> {
    if body.name(op).as_str() != ops::QuantizeLinear::NAME {
        return Err(format!("its result feeds {} ({}), not a QuantizeLinear", node(body, op), body.name(op).as_str()));
    }
    let o = body.op(op);
    let ty = elem(body, o.result(0));
    int8(&ty, "results")?;
    let s = const_f32s(body, o.operand(1)).ok_or("the output scale is not a constant")?;
    if s.len() != 1 {
        return Err(format!("results quantized per axis ({} scales; one per tensor)", s.len()));
    }
    check_scales(&s, "a QuantizeLinear")?;
    let zp = zero_points(body, o.operands().get(2).copied(), &ty, 1)?[0];
    Ok(Q { op, scale: s[0], zp })
}

/// The one QuantizeLinear that takes `v`.
pub(crate) fn quantized_output(body: &Body, v: Value) -> Result<Q, String> {
    match body.uses(v) {
        [u] => as_q(body, u.op),
        [] => Err("its result is unused".into()),
        us => Err(format!("its result feeds {} ops (the int8 result needs one QuantizeLinear as its only user)", us.len())),
    }
}

/// The int8 form of a Conv, Gemm or MatMul.
#[derive(Clone, Debug)]
pub struct QMac {
    pub op: OpId,
    pub x: Dq,
    pub w: Dq,
    pub b: Option<Dq>,
    /// The QuantizeLinear of the result (the op itself for a QLinear op).
    pub q: OpId,
    pub out_scale: f32,
    pub out_zp: i64,
    /// Per output channel: s_x · s_w.
    pub acc_scales: Vec<f64>,
}

impl QMac {
    /// The activation's zero point.
    pub fn x_zp(&self) -> i64 {
        self.x.zp()
    }
}

/// `m` as the fixed-point multiplier the vector unit requantizes with, or why not.
fn requantizable(m: f64) -> Result<(), String> {
    match requant_params(m) {
        Some(_) => Ok(()),
        None => Err(format!("requantization multiplier {:e} (input scale · weight scale / output scale) outside (0, 1)", m)),
    }
}

/// The quantized pattern rooted at a Conv/Gemm/MatMul, or why it is not one the NPU runs.
pub fn qmac(body: &Body, op: OpId) -> Result<QMac, String> {
    let name = body.name(op);
    if matches!(name.as_str(), ops::QLinearConv::NAME | ops::QLinearMatMul::NAME) {
        return qlinear(body, op);
    }
    let o = body.op(op);
    // Output channels and the weight axis that indexes them.
    let ws = body.value_type(o.operand(1)).shape().map(|s| s.to_vec()).unwrap_or_default();
    let (f, axis) = match name.as_str() {
        ops::Conv::NAME => (ws.first().copied().unwrap_or(0), 0),
        ops::Gemm::NAME if o.attr("transB").and_then(|a| a.as_int()).unwrap_or(0) != 0 => (ws.first().copied().unwrap_or(0), 0),
        _ => (ws.last().copied().unwrap_or(0), ws.len() as i64 - 1),
    };
    let x = activation(body, o.operand(0)).map_err(|e| format!("input: {}", e))?;
    let w = weights_of(body, o.operand(1), f, axis, depthwise_on_vector_unit(body, op)).map_err(|e| format!("weights: {}", e))?;
    let b = match (name.as_str(), o.operands().get(2)) {
        (ops::MatMul::NAME, _) | (_, None) => None,
        (_, Some(v)) if absent(body, Some(*v)) => None,
        (_, Some(v)) => Some(bias(body, *v).map_err(|e| format!("bias: {}", e))?),
    };
    let q = quantized_output(body, o.result(0))?;
    let sw = |c: usize| w.scales[if w.scales.len() == 1 { 0 } else { c }] as f64;
    let acc_scales: Vec<f64> = (0..f as usize).map(|c| x.scales[0] as f64 * sw(c)).collect();
    // The bias must be in the accumulator's scale, one value per output channel (or one).
    if let Some(b) = &b {
        let n = body.value_type(b.input).num_elements().unwrap_or(0);
        if (b.scales.len() != 1 && b.scales.len() as i64 != f) || (n != 1 && n as i64 != f) {
            return Err(format!("a bias of {} values with {} scales for {} output channels", n, b.scales.len(), f));
        }
        let sb = |c: usize| b.scales[if b.scales.len() == 1 { 0 } else { c }] as f64;
        if (0..f as usize).any(|c| ((sb(c) - acc_scales[c]) / acc_scales[c]).abs() > 1e-5) {
            return Err("bias scale is not input scale · weight scale".into());
        }
    }
    for s in &acc_scales {
        requantizable(s / q.scale as f64)?;
    }
    Ok(QMac { op, x, w, b, q: q.op, out_scale: q.scale, out_zp: q.zp, acc_scales })
}

/// The int8 form of an Add: both inputs dequantized int8 activations of one
/// shape, one QuantizeLinear after. Each input is rescaled to the larger
/// input scale in fixed point (`in_mult` = 2^20 · s_in / s_max, exact to
/// 2^-20) after its zero point is taken off, summed in i32 and requantized once.
#[derive(Clone, Debug)]
pub struct QAdd {
    pub op: OpId,
    pub a: Dq,
    pub b: Dq,
    pub q: OpId,
    pub out_scale: f32,
    pub out_zp: i64,
    pub in_mult: [i64; 2],
    /// The scale of the i32 sum: s_max / 2^20.
    pub acc_scale: f64,
}

pub const ADD_FRACTION_BITS: i32 = 20;

pub fn qadd(body: &Body, op: OpId) -> Result<QAdd, String> {
    if body.name(op).as_str() != ops::Add::NAME {
        return Err("not an Add".into());
    }
    let o = body.op(op);
    let a = activation(body, o.operand(0)).map_err(|e| format!("first input: {}", e))?;
    let b = activation(body, o.operand(1)).map_err(|e| format!("second input: {}", e))?;
    if body.value_type(a.input).shape() != body.value_type(b.input).shape() {
        return Err("an int8 Add with broadcasting (the NPU adds two tensors of one shape)".into());
    }
    let q = quantized_output(body, o.result(0))?;
    let smax = a.scales[0].max(b.scales[0]) as f64;
    let one = (1i64 << ADD_FRACTION_BITS) as f64;
    let in_mult = [(one * a.scales[0] as f64 / smax).round() as i64, (one * b.scales[0] as f64 / smax).round() as i64];
    let acc_scale = smax / one;
    requantizable(acc_scale / q.scale as f64)?;
    Ok(QAdd { op, a, b, q: q.op, out_scale: q.scale, out_zp: q.zp, in_mult, acc_scale })
}

/// Ops that move values without computing with them: between a DQ and a Q
/// of one scale and zero point they run on the int8 values.
pub const MOVES: &[&str] = &[ops::MaxPool::NAME, ops::Flatten::NAME, ops::Reshape::NAME, ops::Squeeze::NAME, ops::Unsqueeze::NAME, ops::Transpose::NAME, ops::Resize::NAME, ops::Slice::NAME];

/// `Q(op(DQ(x, s, z)), s, z)` for a MaxPool or a data movement op: with one
/// scale and zero point on both sides the op commutes with
/// (de)quantization, so it runs on the int8 values: (DQ, Q).
pub fn qmaxpool(body: &Body, op: OpId) -> Result<(Dq, OpId), String> {
    if !MOVES.contains(&body.name(op).as_str()) {
        return Err("not a MaxPool or a data movement".into());
    }
    if body.op(op).results().len() > 1 && body.has_uses(body.op(op).result(1)) {
        return Err("a MaxPool whose indices are used".into());
    }
    if body.name(op).as_str() == ops::Resize::NAME && body.op(op).str_attr("mode").is_some_and(|m| m != "nearest") {
        return Err("an interpolating Resize (int8 moves nearest neighbours only)".into());
    }
    let x = activation(body, body.op(op).operand(0))?;
    let q = quantized_output(body, body.op(op).result(0))?;
    if (q.scale - x.scales[0]).abs() > 1e-7 * q.scale.abs() || q.zp != x.zp() {
        return Err(format!("its QuantizeLinear (scale {}, zero point {}) differs from its DequantizeLinear (scale {}, zero point {})", q.scale, q.zp, x.scales[0], x.zp()));
    }
    Ok((x, q.op))
}

/// `Q(Concat(DQ(x1, s1, z1), DQ(x2, s2, z2), …), s, z)` in int8: an input of
/// the output's scale and zero point moves as it is; another (ONNX Runtime's
/// quantizer gives each input its own) is requantized to them first
/// ([`same_quantization`] says which).
pub fn qconcat(body: &Body, op: OpId) -> Result<(Vec<Dq>, OpId), String> {
    if body.name(op).as_str() != ops::Concat::NAME {
        return Err("not a Concat".into());
    }
    let q = quantized_output(body, body.op(op).result(0))?;
    let xs = body.op(op).operands().iter().map(|v| activation(body, *v)).collect::<Result<Vec<_>, _>>()?;
    for (i, x) in xs.iter().enumerate() {
        if !same_quantization(x, q.scale, q.zp) && requant_params(x.scales[0] as f64 / (q.scale as f64 * (1u64 << ADD_FRACTION_BITS) as f64)).is_none() {
            return Err(format!("input {} (scale {}) cannot be requantized to its QuantizeLinear's scale {}", i, x.scales[0], q.scale));
        }
    }
    Ok((xs, q.op))
}

/// Whether `x` is quantized with `scale` and `zp` already.
pub fn same_quantization(x: &Dq, scale: f32, zp: i64) -> bool {
    (scale - x.scales[0]).abs() <= 1e-7 * scale.abs() && zp == x.zp()
}

/// `Q(GlobalAveragePool(DQ(x, sx, zx)), sy, zy)` in int8: the vector unit
/// averages the inputs scaled by `2^avg_shift` (so the mean keeps that many
/// fraction bits), takes `zx·2^avg_shift` off and requantizes by
/// `sx / (sy·2^avg_shift)`, one rounding as ONNX Runtime's
/// QLinearGlobalAveragePool. An AveragePool over an unpadded window
/// (`window`: kernel and strides) sums the window exactly, takes `zx·K` off
/// and requantizes by `sx / (sy·K)`, one rounding too.
#[derive(Clone, Debug)]
pub struct QAvg {
    pub x: Dq,
    pub q: OpId,
    pub out_scale: f32,
    pub out_zp: i64,
    pub avg_shift: i64,
    pub window: Option<(Vec<i64>, Vec<i64>, Vec<i64>)>,
}

impl QAvg {
    /// The requantization multipliers and shifts of the average: one of the
    /// whole image; over a window, one per count of window rows h' (1..=kh)
    /// inside the image, each for sx / (sy·L·h') with L the premultiplier
    /// (`npu::tensor_ops::avg_premult`); a count the padding never makes
    /// repeats the full window's.
    pub fn requant(&self) -> Option<Vec<(i64, i64)>> {
        let r = self.x.scales[0] as f64 / self.out_scale as f64;
        let Some((k, _, p)) = &self.window else {
            return Some(vec![requant_params(r / (1i64 << self.avg_shift) as f64)?]);
        };
        let l = npu::tensor_ops::avg_premult(k[1], p[1], p[3]) as f64;
        let full = requant_params(r / (l * k[0] as f64))?;
        (1..=k[0]).map(|h| if p[0] == 0 && p[2] == 0 { Some(full) } else { requant_params(r / (l * h as f64)) }).collect()
    }
}

/// An AveragePool's window, when the int8 kernel takes it: (kernel, strides).
fn avg_window(body: &Body, op: OpId) -> Result<(Vec<i64>, Vec<i64>, Vec<i64>), String> {
    let o = body.op(op);
    let ints = |k: &str| body.op(op).ints_attr(k);
    let k = ints("kernel_shape").filter(|k| k.len() == 2).ok_or("an int8 average over other than a 2-D window")?;
    let s = ints("strides").unwrap_or(vec![1, 1]);
    let p = ints("pads").unwrap_or(vec![0; 4]);
    if o.str_attr("auto_pad").is_some_and(|a| a != "NOTSET" && a != "VALID") {
        return Err("an int8 average with auto_pad SAME (its padding is implicit)".into());
    }
    if p.len() != 4 || p[0] >= k[0] || p[2] >= k[0] || p[1] >= k[1] || p[3] >= k[1] {
        return Err("an int8 average padded by a window or more".into());
    }
    if p.iter().any(|v| *v != 0) && o.attr("count_include_pad").and_then(|a| a.as_int()).unwrap_or(0) != 0 {
        return Err("a padded int8 average that counts the padding (count_include_pad: the divisor and the zero point's share change along a row)".into());
    }
    if o.attr("ceil_mode").and_then(|a| a.as_int()).unwrap_or(0) != 0 || ints("dilations").is_some_and(|d| d.iter().any(|v| *v != 1)) {
        return Err("an int8 average with ceil_mode or dilations".into());
    }
    Ok((k, s, p))
}

pub fn qavgpool(body: &Body, op: OpId) -> Result<QAvg, String> {
    let window = match body.name(op).as_str() {
        ops::GlobalAveragePool::NAME => None,
        ops::AveragePool::NAME => Some(avg_window(body, op)?),
        _ => return Err("not an average pool".into()),
    };
    let x = activation(body, body.op(op).operand(0))?;
    let q = quantized_output(body, body.op(op).result(0))?;
    let s = body.value_type(x.input).shape().map(|s| s.to_vec()).unwrap_or_default();
    let n: i64 = match &window {
        Some((k, _, _)) => k.iter().product(),
        None => s.iter().skip(2).product(),
    };
    if s.len() != 4 || n < 1 {
        return Err("an int8 average over other than H×W of a 4-D tensor".into());
    }
    // Fraction bits: the window's sum of |x - zx| < 256 · 2^k must stay within i32.
    let bound = (i32::MAX as i64) / (256 * n);
    if bound < 1 {
        return Err(format!("an int8 average over {} values (the i32 sum would overflow)", n));
    }
    let avg_shift = if window.is_some() { 0 } else { (63 - bound.leading_zeros() as i64).min(16) };
    // Over a window the i32 sum is of x·L (at most 420·255·49): no overflow.
    let a = QAvg { x, q: q.op, out_scale: q.scale, out_zp: q.zp, avg_shift, window };
    if a.requant().is_none() {
        return Err(format!("requantization multiplier {:e} (input scale / output scale over the window) outside (0, 1)", a.x.scales[0] as f64 / q.scale as f64));
    }
    Ok(a)
}

/// A depthwise Conv (one input channel per group, as many groups as
/// channels) on a target with `v.mac`: its weights are i32 lanes there.
pub fn depthwise_on_vector_unit(body: &Body, op: OpId) -> bool {
    let o = body.op(op);
    let ws = body.value_type(o.operand(1)).shape().map(|s| s.to_vec()).unwrap_or_default();
    let xs = body.value_type(o.operand(0)).shape().map(|s| s.to_vec()).unwrap_or_default();
    let group = o.attr("group").and_then(|a| a.as_int()).unwrap_or(1) as i64;
    let hw = npu::hw::HwDesc::of(body, op).and_then(|h| h.ok()).unwrap_or_else(npu::hw::HwDesc::npu16);
    body.name(op).as_str() == ops::Conv::NAME && ws.len() == 4 && ws[1] == 1 && xs.len() == 4 && group > 1 && group == xs[1] && ws[0] == group && hw.vector_mac != 0
}

/// QLinearConv / QLinearMatMul: the same int8 product with its scales and
/// zero points as operands. The op is its own DQs and Q.
fn qlinear(body: &Body, op: OpId) -> Result<QMac, String> {
    let o = body.op(op);
    let conv = body.name(op).as_str() == ops::QLinearConv::NAME;
    let ops = o.operands();
    let (x, xs, xz, w, ws, wz, ys, yz) = (ops[0], ops[1], ops[2], ops[3], ops[4], ops[5], ops[6], ops[7]);
    int8(&elem(body, x), "activations")?;
    int8(&elem(body, w), "weights")?;
    int8(&elem(body, o.result(0)), "results")?;
    if !is_constant(body, w) {
        return Err("weights are not constant".into());
    }
    let sx = const_f32s(body, xs).filter(|v| v.len() == 1).ok_or("the input scale is not one constant")?;
    let sw = const_f32s(body, ws).ok_or("the weight scale is not a constant")?;
    let sy = const_f32s(body, ys).filter(|v| v.len() == 1).ok_or("the output scale is not one constant")?;
    check_scales(&sx, "the input")?;
    check_scales(&sw, "a weight")?;
    check_scales(&sy, "the output")?;
    let zx = zero_points(body, Some(xz), "i8", 1)?[0];
    let zy = zero_points(body, Some(yz), "i8", 1)?[0];
    let wshape = body.value_type(w).shape().map(|s| s.to_vec()).unwrap_or_default();
    let f = if conv { wshape.first().copied().unwrap_or(0) } else { wshape.last().copied().unwrap_or(0) };
    if sw.len() != 1 && sw.len() as i64 != f {
        return Err(format!("{} weight scales for {} output channels", sw.len(), f));
    }
    let zw = zero_points(body, Some(wz), "i8", sw.len().max(1)).or_else(|_| zero_points(body, Some(wz), "i8", 1))?;
    if let Some(z) = zw.iter().find(|z| **z != 0) {
        return Err(format!("weights: asymmetric weights (zero point {}) in a grouped convolution (the array has no weight zero point: ungrouped products run such weights as symmetric parts, depthwise ones on the vector unit)", z));
    }
    let acc_scales: Vec<f64> = (0..f as usize).map(|c| sx[0] as f64 * sw[if sw.len() == 1 { 0 } else { c }] as f64).collect();
    for s in &acc_scales {
        requantizable(s / sy[0] as f64)?;
    }
    let dq = |input: Value, scales: Vec<f32>, zps: Vec<i64>, axis: i64| Dq { op, input, scales, zps, axis };
    let b = if conv && ops.len() > 8 && !absent(body, Some(ops[8])) {
        if elem(body, ops[8]) != "i32" {
            return Err(format!("a bias of type {} (int32 expected)", elem(body, ops[8])));
        }
        if !is_constant(body, ops[8]) {
            return Err("bias is not constant".into());
        }
        Some(dq(ops[8], acc_scales.iter().map(|s| *s as f32).collect(), vec![0; acc_scales.len()], 0))
    } else {
        None
    };
    let nw = sw.len();
    Ok(QMac { op, x: dq(x, sx, vec![zx], 1), w: dq(w, sw, vec![0; nw], if conv { 0 } else { 1 }), b, q: op, out_scale: sy[0], out_zp: zy, acc_scales })
}

/// ConvInteger / MatMulInteger of int8 operands with zero points 0 (absent or
/// zero constants) and constant weights: the product's i32 accumulators.
pub fn qinteger(body: &Body, op: OpId) -> Result<(), String> {
    if !matches!(body.name(op).as_str(), ops::ConvInteger::NAME | ops::MatMulInteger::NAME) {
        return Err("not an integer product".into());
    }
    let o = body.op(op);
    int8(&elem(body, o.operand(0)), "activations")?;
    int8(&elem(body, o.operand(1)), "weights")?;
    if !is_constant(body, o.operand(1)) {
        return Err("weights are not constant".into());
    }
    for (i, z) in o.operands()[2..].iter().enumerate() {
        if !absent(body, Some(*z)) && !onnx::infer::const_f64s(body, *z).is_some_and(|v| v.iter().all(|x| *x == 0.0)) {
            return Err(format!("a nonzero or computed {} zero point (the i32 product runs with zero points 0)", if i == 0 { "input" } else { "weight" }));
        }
    }
    Ok(())
}

/// A `DQ2 → Relu|Clip → Q2` after a fused op's int8 output: it folds into
/// the op's requantization (target scale and zero point, and a clamp).
#[derive(Clone, Copy, Debug)]
pub struct Chain {
    pub dq: OpId,
    pub act: OpId,
    pub q: Q,
}

/// The chain after a fused product's output `v`, if there is one.
pub fn relu_chain(body: &Body, v: Value) -> Option<Chain> {
    let dq = match body.uses(v) {
        [u] if body.name(u.op).as_str() == ops::DequantizeLinear::NAME => u.op,
        _ => return None,
    };
    let d = activation(body, body.op(dq).result(0)).ok()?;
    let act = match body.uses(body.op(d.op).result(0)) {
        [u] if body.name(u.op).as_str() == ops::Relu::NAME || (body.name(u.op).as_str() == ops::Clip::NAME && clip_bounds(body, u.op).is_some()) => u.op,
        _ => return None,
    };
    let q = quantized_output(body, body.op(act).result(0)).ok()?;
    // Folding skips Q1 (the op's own QuantizeLinear): taken only when DQ2 undoes
    // Q1 and Q1's range holds Q2's, so Q1 does not saturate where Q2 would not.
    let q1 = body.defining_op(v).and_then(|o| match body.name(o).as_str() {
        ops::QLinearConv::NAME | ops::QLinearMatMul::NAME => qlinear(body, o).ok().map(|m| Q { op: o, scale: m.out_scale, zp: m.out_zp }),
        _ => as_q(body, o).ok(),
    })?;
    let range = |s: f32, z: i64| (s as f64 * (-128 - z) as f64, s as f64 * (127 - z) as f64);
    let ((lo1, hi1), (lo2, hi2)) = (range(q1.scale, q1.zp), range(q.scale, q.zp));
    let same = (d.scales[0] - q1.scale).abs() <= 1e-7 * q1.scale && d.zp() == q1.zp;
    let act_lo = if body.name(act).as_str() == ops::Clip::NAME { clip_bounds(body, act).map(|b| b.0 as f64).unwrap_or(f64::NEG_INFINITY) } else { 0.0 };
    // Within one Q1 step: calibrated ranges of a Relu's input and output end at the same value, their zero points rounded.
    let step = q1.scale as f64;
    (same && lo1 <= lo2.max(act_lo) + step && hi1 + step >= hi2.min(clip_bounds(body, act).map(|b| b.1 as f64).unwrap_or(f64::INFINITY))).then_some(Chain { dq, act, q })
}

/// The constant bounds of a Clip (absent: unbounded).
pub fn clip_bounds(body: &Body, op: OpId) -> Option<(f32, f32)> {
    let o = body.op(op);
    let b = |i: usize, d: f32| match o.operands().get(i) {
        None => Some(d),
        Some(v) if absent(body, Some(*v)) => Some(d),
        Some(v) => const_f32s(body, *v).filter(|x| x.len() == 1).map(|x| x[0]),
    };
    Some((b(1, f32::NEG_INFINITY)?, b(2, f32::INFINITY)?))
}

/// The int8 clamp of a fused `DQ → Relu|Clip → Q(scale, zp)`: the activation's bounds, quantized.
pub fn chain_clamp(body: &Body, c: &Chain) -> (i64, i64) {
    let (lo, hi) = if body.name(c.act).as_str() == ops::Clip::NAME { clip_bounds(body, c.act).unwrap_or((f32::NEG_INFINITY, f32::INFINITY)) } else { (0.0, f32::INFINITY) };
    let q = |x: f32| ((x / c.q.scale).round_ties_even() as f64 + c.q.zp as f64).clamp(-128.0, 127.0) as i64;
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

/// The int8 result of requantizing `acc` (what `v.requant` computes): the
/// output zero point `zp` is added before the clamp.
/// In i128, as the vector unit: with a shift up to 62 the rounding term is
/// 2^92 (in i64 it overflowed, and the reference saturated where the NPU,
/// right, did not: a depthwise layer of PaddleOCR's detector quantized by
/// ONNX Runtime has such a channel).
pub fn requantize(acc: i32, mult: i64, shift: i64, zp: i64, lo: i64, hi: i64) -> i8 {
    let p = acc as i128 * mult as i128;
    let s = 31 + shift;
    let r = ((p + (1i128 << (s - 1))) >> s) + zp as i128;
    r.clamp(lo as i128, hi as i128) as i8
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
        assert_eq!(requantize(3, mult, shift, 0, -128, 127), 2); // 1.5 -> 2
        assert_eq!(requantize(-3, mult, shift, 0, -128, 127), -1); // -1.5 -> -1
        assert_eq!(requantize(1000, mult, shift, 0, -128, 127), 127);
        assert_eq!(requantize(-5, mult, shift, 0, 0, 127), 0);
        // The zero point is added after rounding, before the clamp.
        assert_eq!(requantize(3, mult, shift, -128, -128, 127), -126);
        assert_eq!(requantize(1000, mult, shift, -128, -128, 127), 127);
        // A tiny multiplier (shift 40): the rounding term is past i64's range.
        let (mult, shift) = requant_params(1e-13).unwrap();
        assert!(shift > 32);
        assert_eq!(requantize(i32::MAX, mult, shift, 3, -128, 127), 3);
        assert_eq!(requantize(i32::MIN, mult, shift, 3, -128, 127), 3);
    }
}
