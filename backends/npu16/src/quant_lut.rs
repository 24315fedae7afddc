//! Int8 functions of one value as tables (`npu.lut`, `v.lut`): a
//! `DequantizeLinear → f → QuantizeLinear` group, as ONNX Runtime's quantizer
//! writes it around Sigmoid, HardSwish, Gelu and the like (and the Swish
//! `x · Sigmoid(x)` of two such groups), becomes 256 int8 entries computed at
//! compile time the way the CPU path computes the float graph.

use crate::quant::{activation, as_q, clip_bounds, dq, quantized_output, Dq, Q};
use ir::{Body, OpId, Value};
use onnx::ops;

/// Functions of one value that run as an int8 table (`npu.lut`, `v.lut`)
/// between a DequantizeLinear and a QuantizeLinear, as ONNX Runtime's
/// quantizer writes them.
pub const LUT_FUNCTIONS: &[&str] = &[
    ops::Sigmoid::NAME, ops::HardSwish::NAME, ops::HardSigmoid::NAME, ops::Tanh::NAME, ops::LeakyRelu::NAME, ops::Elu::NAME, ops::Selu::NAME, ops::Softplus::NAME, ops::Softsign::NAME,
    ops::Mish::NAME, ops::Gelu::NAME, ops::Erf::NAME, ops::Exp::NAME, ops::Neg::NAME, ops::Abs::NAME, ops::Relu::NAME, ops::Clip::NAME,
];

/// `Q(f(DQ(x, sx, zx)), sy, zy)` as a table: entry `q + 128` is the int8
/// result for the int8 input `q`, computed as the CPU path computes the
/// float graph (the function in f64, each Q rounding half to even and
/// saturating). `members` are the ops it replaces, its last QuantizeLinear `q`.
#[derive(Clone, Debug)]
pub struct QLut {
    pub x: Dq,
    pub q: OpId,
    pub table: Vec<i64>,
    pub members: Vec<OpId>,
}

/// QuantizeLinear of an f32 (round half to even, saturate to int8).
fn quantize(y: f32, q: &Q) -> i64 {
    let t = (y / q.scale).round_ties_even();
    if t.is_nan() {
        return q.zp.clamp(-128, 127);
    }
    (t as f64 + q.zp as f64).clamp(-128.0, 127.0) as i64
}

/// DequantizeLinear of one int8 value (per tensor), in f32 as the op computes it.
fn dequantize(v: i64, d: &Dq) -> f32 {
    (v - d.zp()) as f32 * d.scales[0]
}

/// The ONNX function `op` computes, at `x` (f64; its attributes' defaults as ONNX's).
fn unary(body: &Body, op: OpId) -> Result<Box<dyn Fn(f64) -> f64>, String> {
    let a = |n: &str, d: f64| body.op(op).float_attr(n).unwrap_or(d);
    let softplus = |x: f64| if x > 30.0 { x } else { x.exp().ln_1p() };
    Ok(match body.name(op).as_str() {
        ops::Sigmoid::NAME => Box::new(|x: f64| 1.0 / (1.0 + (-x).exp())),
        // Piecewise-linear ones in f32, as ONNX Runtime and our CPU path compute them (alpha = 1/6 rounded to f32).
        ops::HardSwish::NAME => Box::new(|x: f64| {
            let x = x as f32;
            (x * (x * (1.0f32 / 6.0) + 0.5).clamp(0.0, 1.0)) as f64
        }),
        ops::HardSigmoid::NAME => {
            let (al, be) = (a("alpha", 0.2) as f32, a("beta", 0.5) as f32);
            Box::new(move |x: f64| (al * x as f32 + be).clamp(0.0, 1.0) as f64)
        }
        ops::Tanh::NAME => Box::new(f64::tanh),
        ops::LeakyRelu::NAME => {
            let al = a("alpha", 0.01);
            Box::new(move |x: f64| if x < 0.0 { al * x } else { x })
        }
        ops::Elu::NAME => {
            let al = a("alpha", 1.0);
            Box::new(move |x: f64| if x < 0.0 { al * x.exp_m1() } else { x })
        }
        ops::Selu::NAME => {
            let (al, ga) = (a("alpha", 1.673_263_192_176_818_8), a("gamma", 1.050_701_022_148_132_3));
            Box::new(move |x: f64| ga * if x <= 0.0 { al * x.exp_m1() } else { x })
        }
        ops::Softplus::NAME => Box::new(softplus),
        ops::Softsign::NAME => Box::new(|x: f64| x / (1.0 + x.abs())),
        ops::Mish::NAME => Box::new(move |x: f64| x * softplus(x).tanh()),
        ops::Gelu::NAME if body.op(op).str_attr("approximate").unwrap_or("none") == "tanh" => {
            Box::new(|x: f64| 0.5 * x * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x)).tanh()))
        }
        ops::Gelu::NAME => Box::new(|x: f64| 0.5 * x * (1.0 + libm::erf(x / std::f64::consts::SQRT_2))),
        ops::Erf::NAME => Box::new(libm::erf),
        ops::Exp::NAME => Box::new(f64::exp),
        ops::Neg::NAME => Box::new(|x: f64| -x),
        ops::Abs::NAME => Box::new(f64::abs),
        ops::Relu::NAME => Box::new(|x: f64| x.max(0.0)),
        ops::Clip::NAME => {
            let (lo, hi) = clip_bounds(body, op).ok_or("a Clip whose bounds are not constants")?;
            Box::new(move |x: f64| x.clamp(lo as f64, hi as f64))
        }
        n => return Err(format!("{} has no int8 table", n)),
    })
}

/// An int8 function of one value: `Q(f(DQ(x)))` with per-tensor int8
/// quantizations on both sides, on a target with `v.lut`.
pub fn qlut(body: &Body, op: OpId) -> Result<QLut, String> {
    if !LUT_FUNCTIONS.contains(&body.name(op).as_str()) {
        return Err("not a function of one value".into());
    }
    if body.op(op).operands().len() > 1 && body.name(op).as_str() != ops::Clip::NAME {
        return Err("more than one operand".into());
    }
    has_lut(body, op)?;
    let x = activation(body, body.op(op).operand(0))?;
    let q = quantized_output(body, body.op(op).result(0))?;
    if swish_of(body, op).is_some() {
        return Err("part of an x·f(x) the Mul's table takes".into());
    }
    let f = unary(body, op)?;
    let table = (-128i64..=127).map(|v| quantize(f(dequantize(v, &x) as f64) as f32, &q)).collect();
    Ok(QLut { members: vec![x.op, op, q.op], x, q: q.op, table })
}

fn has_lut(body: &Body, op: OpId) -> Result<(), String> {
    let hw = npu::hw::HwDesc::of(body, op).transpose()?.unwrap_or_else(npu::hw::HwDesc::npu16);
    if hw.vector_lut == 0 {
        return Err(format!("an int8 {} needs v.lut (vector.lut = false: npu16 revision 2)", body.name(op).as_str().trim_start_matches("onnx.")));
    }
    Ok(())
}

/// The Mul of `Q(DQ(t) · DQ(Q(f(DQ(t)))))` that the function `f` (an op of
/// `LUT_FUNCTIONS`) is part of: x·f(x) of one int8 tensor, as SiLU
/// (x·sigmoid(x)) and MobileNetV3's x·hardsigmoid(x) are exported.
pub fn swish_of(body: &Body, f: OpId) -> Option<OpId> {
    let only = |v: Value| match body.uses(v) {
        [u] => Some(*u),
        _ => None,
    };
    let fq = only(body.op(f).result(0)).filter(|u| body.name(u.op).as_str() == ops::QuantizeLinear::NAME)?.op;
    let ds = only(body.op(fq).result(0)).filter(|u| body.name(u.op).as_str() == ops::DequantizeLinear::NAME)?.op;
    let mul = only(body.op(ds).result(0)).filter(|u| body.name(u.op).as_str() == ops::Mul::NAME)?.op;
    qswish(body, mul).is_ok().then_some(mul)
}

/// x·f(x) of one int8 tensor as one table (`swish_of`).
pub fn qswish(body: &Body, mul: OpId) -> Result<QLut, String> {
    if body.name(mul).as_str() != ops::Mul::NAME {
        return Err("not a Mul".into());
    }
    let o = body.op(mul);
    let (d0, d1) = (dq(body, o.operand(0))?, dq(body, o.operand(1))?);
    // Which operand is f(x): the one whose int8 input a function of one value quantized.
    let inner = |d: &Dq| body.defining_op(d.input).filter(|q| body.name(*q).as_str() == ops::QuantizeLinear::NAME).and_then(|q| body.defining_op(body.op(q).operand(0)).map(|f| (q, f))).filter(|(_, f)| LUT_FUNCTIONS.contains(&body.name(*f).as_str()));
    let (xi, s, (fq, f)) = match (inner(&d0), inner(&d1)) {
        (_, Some(p)) => (0, d1, p),
        (Some(p), None) => (1, d0, p),
        _ => return Err("neither factor is a function of one value".into()),
    };
    if body.op(f).operands().len() > 1 && body.name(f).as_str() != ops::Clip::NAME {
        return Err("more than one operand".into());
    }
    let fx = activation(body, body.op(f).operand(0))?;
    let x = activation(body, o.operand(xi))?;
    if fx.input != x.input || body.uses(body.op(f).result(0)).len() != 1 || body.uses(body.op(fq).result(0)).len() != 1 {
        return Err("not x·f(x) of one tensor".into());
    }
    has_lut(body, mul)?;
    let fq = as_q(body, fq)?;
    if s.scales.len() != 1 {
        return Err("f(x) dequantized per axis".into());
    }
    let q = quantized_output(body, body.op(mul).result(0))?;
    let func = unary(body, f)?;
    let table = (-128i64..=127)
        .map(|v| {
            let fy = quantize(func(dequantize(v, &fx) as f64) as f32, &fq);
            quantize(dequantize(v, &x) * dequantize(fy, &s), &q)
        })
        .collect();
    Ok(QLut { members: vec![x.op, fx.op, f, fq.op, s.op, mul, q.op], x, q: q.op, table })
}
