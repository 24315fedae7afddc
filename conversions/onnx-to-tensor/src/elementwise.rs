//! Elementwise ops: one parallel `tensor.generic` over the broadcast output
//! shape; each operand is read through its numpy broadcast map; the body is the
//! op's scalar formula below (one arm per op).

use onnx::ops;
use super::{Cmp, Emit, Kind, Lower, Sc};
use ir::Value;

/// Scalar attributes an elementwise formula may read, taken before building.
#[derive(Clone, Debug)]
struct Params {
    alpha: f64,
    beta: f64,
    gamma: f64,
    lambd: f64,
    bias: f64,
    fmod: i64,
    detect_neg: bool,
    detect_pos: bool,
    approximate: String,
    direction: String,
    saturate: bool,
    /// Pow's exponent is a constant 2 everywhere: x·x, exact and vectorized
    /// (ONNX Runtime's Pow does the same), not a call of powf per element.
    square: bool,
}

/// The ops lowered here; the value says how many operands a formula takes
/// (`0`: any number, for Sum/Mean/Max/Min).
pub const TABLE: &[(&str, usize)] = &[
    (ops::Add::NAME, 2), (ops::Sub::NAME, 2), (ops::Mul::NAME, 2), (ops::Div::NAME, 2), (ops::Pow::NAME, 2), (ops::Mod::NAME, 2),
    (ops::Sqrt::NAME, 1), (ops::Exp::NAME, 1), (ops::Log::NAME, 1), (ops::Abs::NAME, 1), (ops::Neg::NAME, 1), (ops::Reciprocal::NAME, 1),
    (ops::Relu::NAME, 1), (ops::LeakyRelu::NAME, 1), (ops::PRelu::NAME, 2), (ops::Sigmoid::NAME, 1), (ops::HardSigmoid::NAME, 1),
    (ops::HardSwish::NAME, 1), (ops::Tanh::NAME, 1), (ops::Erf::NAME, 1), (ops::Gelu::NAME, 1), (ops::Elu::NAME, 1), (ops::Selu::NAME, 1),
    (ops::Celu::NAME, 1), (ops::Softplus::NAME, 1), (ops::Softsign::NAME, 1), (ops::Mish::NAME, 1), (ops::Swish::NAME, 1), (ops::ThresholdedRelu::NAME, 1),
    (ops::Shrink::NAME, 1), (ops::Sin::NAME, 1), (ops::Cos::NAME, 1), (ops::Tan::NAME, 1), (ops::Asin::NAME, 1), (ops::Acos::NAME, 1),
    (ops::Atan::NAME, 1), (ops::Sinh::NAME, 1), (ops::Cosh::NAME, 1), (ops::Asinh::NAME, 1), (ops::Acosh::NAME, 1), (ops::Atanh::NAME, 1),
    (ops::Floor::NAME, 1), (ops::Ceil::NAME, 1), (ops::Round::NAME, 1), (ops::Sign::NAME, 1), (ops::IsNaN::NAME, 1), (ops::IsInf::NAME, 1),
    (ops::Not::NAME, 1), (ops::And::NAME, 2), (ops::Or::NAME, 2), (ops::Xor::NAME, 2), (ops::BitwiseNot::NAME, 1), (ops::BitwiseAnd::NAME, 2),
    (ops::BitwiseOr::NAME, 2), (ops::BitwiseXor::NAME, 2), (ops::BitShift::NAME, 2), (ops::Equal::NAME, 2), (ops::Less::NAME, 2),
    (ops::Greater::NAME, 2), (ops::LessOrEqual::NAME, 2), (ops::GreaterOrEqual::NAME, 2), (ops::Where::NAME, 3), (ops::Clip::NAME, 0),
    (ops::Sum::NAME, 0), (ops::Mean::NAME, 0), (ops::Max::NAME, 0), (ops::Min::NAME, 0), (ops::Cast::NAME, 1), (ops::CastLike::NAME, 2),
    (ops::Identity::NAME, 1), (ops::Dropout::NAME, 1), (ops::BitCast::NAME, 1),
];

pub fn lower(l: &mut Lower) -> Result<Vec<Value>, String> {
    let name = l.name();
    let out = l.out_info(0)?;
    let mut ins = Vec::new();
    let mut scs = Vec::new();
    let mut maps = Vec::new();
    let present: Vec<usize> = (0..l.num_operands()).filter(|&i| l.opt(i).is_some()).collect();
    // Dropout's ratio/training inputs and CastLike's target only carry types.
    let data_operands: Vec<usize> = match name {
        ops::Dropout::NAME | ops::CastLike::NAME => vec![0],
        _ => present.clone(),
    };
    if name == ops::Dropout::NAME {
        if let Some(t) = l.const_ints(2).ok().flatten() {
            // Training with a zero ratio drops nothing; otherwise the mask is random.
            let ratio = l.const_f64s(1).ok().flatten().and_then(|r| r.first().copied()).unwrap_or(0.5);
            if t.first().copied().unwrap_or(0) != 0 && ratio != 0.0 {
                return Err("Dropout in training mode (a random mask) is not supported".into());
            }
        }
    }
    for &i in &data_operands {
        let v = l.operand(i)?;
        let info = l.info(v)?;
        maps.push(super::broadcast_operand(i, &info.shape, &out.shape)?);
        scs.push(info.sc);
        ins.push(v);
    }
    // Clip: the operand positions matter (min, max optional).
    let clip_has = (l.opt(1).is_some(), l.opt(2).is_some());
    let p = Params {
        alpha: l.float_attr("alpha", default_alpha(name)),
        beta: l.float_attr("beta", if name == ops::HardSigmoid::NAME { 0.5 } else { 0.0 }),
        gamma: l.float_attr("gamma", 1.0507009873554805),
        lambd: l.float_attr("lambd", 0.5),
        bias: l.float_attr("bias", 0.0),
        fmod: l.int_attr("fmod", 0),
        detect_neg: l.int_attr("detect_negative", 1) != 0,
        detect_pos: l.int_attr("detect_positive", 1) != 0,
        approximate: l.str_attr("approximate").unwrap_or_else(|| "none".into()),
        direction: l.str_attr("direction").unwrap_or_default(),
        saturate: l.int_attr("saturate", 1) != 0,
        square: name == ops::Pow::NAME && l.const_f64s(1).ok().flatten().is_some_and(|v| !v.is_empty() && v.iter().all(|&y| y == 2.0)),
    };
    if name == ops::Mod::NAME && p.fmod == 0 && scs[0].is_float() {
        return Err("Mod with fmod=0 on floats is not defined by ONNX".into());
    }
    let osc = out.sc.clone();
    let shape = out.shape.clone();
    let mut results = vec![l.map_op(&shape, &osc.ty.clone(), &ins, maps, |e, a| formula(e, name, a, &scs, &osc, &p, clip_has))];
    if name == ops::Dropout::NAME && l.num_results() > 1 {
        // The mask of an inference Dropout is all true.
        let m = l.out_info(1)?;
        let bool_sc = m.sc.clone();
        results.push(l.fill(&m.shape, &bool_sc, 1.0));
    }
    Ok(results)
}

fn default_alpha(name: &str) -> f64 {
    match name {
        ops::LeakyRelu::NAME => 0.01,
        ops::HardSigmoid::NAME => 0.2,
        ops::Selu::NAME => 1.6732632423543772,
        ops::ThresholdedRelu::NAME => 1.0,
        _ => 1.0,
    }
}

fn unary(e: &mut Emit, name: &str, x: Value, s: &Sc) -> Value {
    e.op(name, &[x], &s.ty)
}

fn sigmoid(e: &mut Emit, x: Value, s: &Sc) -> Value {
    let one = e.float(1.0, &s.ty);
    let nx = e.op(arith::ops::NEGF, &[x], &s.ty);
    let ex = unary(e, math::ops::EXP, nx, s);
    let den = e.op(arith::ops::ADDF, &[one, ex], &s.ty);
    e.op(arith::ops::DIVF, &[one, den], &s.ty)
}

/// log(1 + e^x), computed as max(x, 0) + log1p(e^-|x|) so it neither
/// overflows for large x nor loses precision for very negative x.
fn softplus(e: &mut Emit, x: Value, s: &Sc) -> Value {
    let zero = e.float(0.0, &s.ty);
    let m = e.op(arith::ops::MAXIMUMF, &[x, zero], &s.ty);
    let ax = unary(e, math::ops::ABSF, x, s);
    let nax = e.op(arith::ops::NEGF, &[ax], &s.ty);
    let ex = unary(e, math::ops::EXP, nax, s);
    let l1 = unary(e, math::ops::LOG1P, ex, s);
    e.op(arith::ops::ADDF, &[m, l1], &s.ty)
}

fn fold_variadic(e: &mut Emit, name: &str, a: &[Value], scs: &[Sc], o: &Sc) -> Value {
    let mut acc = e.cast(a[0], &scs[0], o);
    for (v, s) in a[1..].iter().zip(&scs[1..]) {
        let v = e.cast(*v, s, o);
        acc = match name {
            ops::Sum::NAME | ops::Mean::NAME => e.add(acc, v, o),
            ops::Max::NAME => e.max(acc, v, o),
            _ => e.min(acc, v, o),
        };
    }
    if name == ops::Mean::NAME {
        let n = e.scalar(a.len() as f64, o);
        acc = e.div(acc, n, o);
    }
    acc
}

/// The scalar formula of each op: inputs `a` (kinds `scs`), output kind `o`.
fn formula(e: &mut Emit, name: &str, a: &[Value], scs: &[Sc], o: &Sc, p: &Params, clip_has: (bool, bool)) -> Value {
    let t = o.ty.clone();
    let s0 = &scs[0];
    let x = a[0];
    if let Some(v) = activation(e, name, a, scs, o, p) {
        return v;
    }
    match name {
        ops::Add::NAME => e.add(a[0], a[1], o),
        ops::Sub::NAME => e.sub(a[0], a[1], o),
        ops::Mul::NAME => e.mul(a[0], a[1], o),
        ops::Div::NAME => e.div(a[0], a[1], o),
        ops::Mod::NAME => {
            if p.fmod != 0 {
                e.by_kind((arith::ops::REMF, arith::ops::REMSI, arith::ops::REMUI), &[a[0], a[1]], o)
            } else if o.kind == Kind::Unsigned {
                e.op(arith::ops::REMUI, &[a[0], a[1]], &t)
            } else {
                // Python-style: the result takes the divisor's sign.
                let r = e.op(arith::ops::REMSI, &[a[0], a[1]], &t);
                let zero = e.int(0, &t);
                let rnz = e.cmp(Cmp::Ne, r, zero, o);
                let rneg = e.cmp(Cmp::Lt, r, zero, o);
                let bneg = e.cmp(Cmp::Lt, a[1], zero, o);
                let diff = e.op(arith::ops::XORI, &[rneg, bneg], &e.ctx.i1());
                let fix = e.op(arith::ops::ANDI, &[rnz, diff], &e.ctx.i1());
                let rb = e.op(arith::ops::ADDI, &[r, a[1]], &t);
                e.select(fix, rb, r)
            }
        }
        ops::Pow::NAME => {
            if o.is_float() && p.square {
                e.mul(x, x, o)
            } else if o.is_float() {
                let y = e.cast(a[1], &scs[1], o);
                e.op(math::ops::POWF, &[x, y], &t)
            } else {
                let y = e.cast(a[1], &scs[1], o);
                e.op(math::ops::IPOWI, &[x, y], &t)
            }
        }
        ops::Sqrt::NAME => unary(e, math::ops::SQRT, x, o),
        ops::Exp::NAME => unary(e, math::ops::EXP, x, o),
        ops::Log::NAME => unary(e, math::ops::LOG, x, o),
        ops::Abs::NAME => match o.kind {
            Kind::Float => unary(e, math::ops::ABSF, x, o),
            Kind::Signed => unary(e, math::ops::ABSI, x, o),
            _ => x,
        },
        ops::Neg::NAME => {
            if o.is_float() {
                e.op(arith::ops::NEGF, &[x], &t)
            } else {
                let z = e.int(0, &t);
                e.op(arith::ops::SUBI, &[z, x], &t)
            }
        }
        ops::Reciprocal::NAME => {
            let one = e.scalar(1.0, o);
            e.div(one, x, o)
        }
        ops::Sin::NAME | ops::Cos::NAME | ops::Tan::NAME | ops::Asin::NAME | ops::Acos::NAME | ops::Atan::NAME | ops::Sinh::NAME | ops::Cosh::NAME | ops::Asinh::NAME
        | ops::Acosh::NAME | ops::Atanh::NAME | ops::Floor::NAME | ops::Ceil::NAME => {
            let m = format!("math.{}", name.trim_start_matches("onnx.").to_lowercase());
            unary(e, &m, x, o)
        }
        ops::Round::NAME => unary(e, math::ops::ROUNDEVEN, x, o),
        ops::Sign::NAME => {
            let zero = e.scalar(0.0, o);
            let one = e.scalar(1.0, o);
            let m1 = e.scalar(-1.0, o);
            let gt = e.cmp(Cmp::Gt, x, zero, o);
            let lt = e.cmp(Cmp::Lt, x, zero, o);
            let r = e.select(lt, m1, zero);
            let r = e.select(gt, one, r);
            if o.is_float() {
                // NaN stays NaN.
                let nan = e.cmp(Cmp::Ne, x, x, o);
                e.select(nan, x, r)
            } else {
                r
            }
        }
        ops::IsNaN::NAME => e.cmp(Cmp::Ne, x, x, s0),
        ops::IsInf::NAME => {
            let inf = e.float(f64::INFINITY, &s0.ty);
            let ninf = e.float(f64::NEG_INFINITY, &s0.ty);
            let pi = e.cmp(Cmp::Eq, x, inf, s0);
            let ni = e.cmp(Cmp::Eq, x, ninf, s0);
            let i1 = e.ctx.i1();
            let f = e.int(0, &i1);
            let pi = if p.detect_pos { pi } else { f };
            let ni = if p.detect_neg { ni } else { f };
            e.op(arith::ops::ORI, &[pi, ni], &i1)
        }
        ops::Not::NAME | ops::BitwiseNot::NAME => {
            let ones = e.int(-1, &t);
            e.op(arith::ops::XORI, &[x, ones], &t)
        }
        ops::And::NAME | ops::BitwiseAnd::NAME => e.op(arith::ops::ANDI, &[a[0], a[1]], &t),
        ops::Or::NAME | ops::BitwiseOr::NAME => e.op(arith::ops::ORI, &[a[0], a[1]], &t),
        ops::Xor::NAME | ops::BitwiseXor::NAME => e.op(arith::ops::XORI, &[a[0], a[1]], &t),
        ops::BitShift::NAME => {
            // Shifting by the width or more gives 0 in ONNX (poison in arith).
            let w = e.int(o.width() as i128, &t);
            let zero = e.int(0, &t);
            let big = e.cmp(Cmp::Ge, a[1], w, o);
            let sh = e.op(if p.direction == "LEFT" { arith::ops::SHLI } else { arith::ops::SHRUI }, &[a[0], a[1]], &t);
            e.select(big, zero, sh)
        }
        ops::Equal::NAME => e.cmp(Cmp::Eq, a[0], a[1], s0),
        ops::Less::NAME => e.cmp(Cmp::Lt, a[0], a[1], s0),
        ops::Greater::NAME => e.cmp(Cmp::Gt, a[0], a[1], s0),
        ops::LessOrEqual::NAME => e.cmp(Cmp::Le, a[0], a[1], s0),
        ops::GreaterOrEqual::NAME => e.cmp(Cmp::Ge, a[0], a[1], s0),
        ops::Where::NAME => e.select(a[0], a[1], a[2]),
        ops::Clip::NAME => {
            let mut y = x;
            let mut k = 1;
            if clip_has.0 {
                let lo = a[k];
                k += 1;
                // max(x, lo) that keeps NaN inputs NaN.
                let lt = e.cmp(Cmp::Lt, y, lo, o);
                y = e.select(lt, lo, y);
            }
            if clip_has.1 {
                let hi = a[k];
                let gt = e.cmp(Cmp::Gt, y, hi, o);
                y = e.select(gt, hi, y);
            }
            y
        }
        ops::Sum::NAME | ops::Mean::NAME | ops::Max::NAME | ops::Min::NAME => fold_variadic(e, name, a, scs, o),
        ops::Cast::NAME | ops::CastLike::NAME => e.cast_saturating(x, s0, o, p.saturate),
        ops::Identity::NAME | ops::Dropout::NAME => x,
        // The same bits under another type (a bool is a byte, 0 or 1).
        ops::BitCast::NAME => {
            if s0.ty == o.ty {
                x
            } else if s0.kind == Kind::Bool {
                e.op(arith::ops::EXTUI, &[x], &t)
            } else {
                e.op(arith::ops::BITCAST, &[x], &t)
            }
        }
        _ => unreachable!("{} is in the elementwise table without a formula", name),
    }
}

/// The activation functions' formulas (Relu to Shrink) on `x` (PRelu's slope
/// `a[1]`), None for any other op.
fn activation(e: &mut Emit, name: &str, a: &[Value], scs: &[Sc], o: &Sc, p: &Params) -> Option<Value> {
    let t = o.ty.clone();
    let x = a[0];
    Some(match name {
        ops::Relu::NAME => {
            let z = e.scalar(0.0, o);
            e.max(x, z, o)
        }
        ops::LeakyRelu::NAME | ops::PRelu::NAME => {
            let slope = if name == ops::PRelu::NAME { e.cast(a[1], &scs[1], o) } else { e.scalar(p.alpha, o) };
            let z = e.scalar(0.0, o);
            let neg = e.cmp(Cmp::Lt, x, z, o);
            let sx = e.mul(x, slope, o);
            e.select(neg, sx, x)
        }
        ops::Sigmoid::NAME => sigmoid(e, x, o),
        ops::HardSigmoid::NAME | ops::HardSwish::NAME => {
            let (al, be) = if name == ops::HardSwish::NAME { (1.0 / 6.0, 0.5) } else { (p.alpha, p.beta) };
            let av = e.float(al, &t);
            let bv = e.float(be, &t);
            let ax = e.op(arith::ops::MULF, &[av, x], &t);
            let y = e.op(arith::ops::ADDF, &[ax, bv], &t);
            let zero = e.float(0.0, &t);
            let one = e.float(1.0, &t);
            let y = e.op(arith::ops::MAXIMUMF, &[y, zero], &t);
            let y = e.op(arith::ops::MINIMUMF, &[y, one], &t);
            if name == ops::HardSwish::NAME {
                e.op(arith::ops::MULF, &[x, y], &t)
            } else {
                y
            }
        }
        ops::Tanh::NAME => unary(e, math::ops::TANH, x, o),
        ops::Erf::NAME => unary(e, math::ops::ERF, x, o),
        ops::Gelu::NAME => {
            let half = e.float(0.5, &t);
            let one = e.float(1.0, &t);
            let inner = if p.approximate == "tanh" {
                // 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3)))
                let k = e.float((2.0 / std::f64::consts::PI).sqrt(), &t);
                let c = e.float(0.044715, &t);
                let x2 = e.op(arith::ops::MULF, &[x, x], &t);
                let x3 = e.op(arith::ops::MULF, &[x2, x], &t);
                let cx3 = e.op(arith::ops::MULF, &[c, x3], &t);
                let s = e.op(arith::ops::ADDF, &[x, cx3], &t);
                let ks = e.op(arith::ops::MULF, &[k, s], &t);
                unary(e, math::ops::TANH, ks, o)
            } else {
                let r = e.float(std::f64::consts::FRAC_1_SQRT_2, &t);
                let xr = e.op(arith::ops::MULF, &[x, r], &t);
                unary(e, math::ops::ERF, xr, o)
            };
            let s = e.op(arith::ops::ADDF, &[one, inner], &t);
            let hx = e.op(arith::ops::MULF, &[half, x], &t);
            e.op(arith::ops::MULF, &[hx, s], &t)
        }
        ops::Elu::NAME | ops::Selu::NAME | ops::Celu::NAME => {
            let zero = e.float(0.0, &t);
            let one = e.float(1.0, &t);
            let alpha = e.float(p.alpha, &t);
            let xin = if name == ops::Celu::NAME { e.op(arith::ops::DIVF, &[x, alpha], &t) } else { x };
            let ex = unary(e, math::ops::EXP, xin, o);
            let em1 = e.op(arith::ops::SUBF, &[ex, one], &t);
            let neg = e.op(arith::ops::MULF, &[alpha, em1], &t);
            let le = e.cmp(if name == ops::Selu::NAME { Cmp::Le } else { Cmp::Lt }, x, zero, o);
            let y = e.select(le, neg, x);
            if name == ops::Selu::NAME {
                let g = e.float(p.gamma, &t);
                e.op(arith::ops::MULF, &[g, y], &t)
            } else if name == ops::Celu::NAME {
                let pos = e.op(arith::ops::MAXIMUMF, &[x, zero], &t);
                let negp = e.op(arith::ops::MINIMUMF, &[neg, zero], &t);
                e.op(arith::ops::ADDF, &[pos, negp], &t)
            } else {
                y
            }
        }
        ops::Softplus::NAME => softplus(e, x, o),
        ops::Softsign::NAME => {
            let one = e.float(1.0, &t);
            let ax = unary(e, math::ops::ABSF, x, o);
            let den = e.op(arith::ops::ADDF, &[one, ax], &t);
            e.op(arith::ops::DIVF, &[x, den], &t)
        }
        ops::Swish::NAME => {
            let al = e.float(p.alpha, &t);
            let ax = e.op(arith::ops::MULF, &[al, x], &t);
            let s = sigmoid(e, ax, o);
            e.op(arith::ops::MULF, &[x, s], &t)
        }
        ops::Mish::NAME => {
            let sp = softplus(e, x, o);
            let th = unary(e, math::ops::TANH, sp, o);
            e.op(arith::ops::MULF, &[x, th], &t)
        }
        ops::ThresholdedRelu::NAME => {
            let al = e.float(p.alpha, &t);
            let zero = e.float(0.0, &t);
            let gt = e.cmp(Cmp::Gt, x, al, o);
            e.select(gt, x, zero)
        }
        ops::Shrink::NAME => {
            let l = e.scalar(p.lambd, o);
            let nl = e.scalar(-p.lambd, o);
            let b = e.scalar(p.bias, o);
            let zero = e.scalar(0.0, o);
            let lt = e.cmp(Cmp::Lt, x, nl, o);
            let gt = e.cmp(Cmp::Gt, x, l, o);
            let xpb = e.add(x, b, o);
            let xmb = e.sub(x, b, o);
            let r = e.select(gt, xmb, zero);
            e.select(lt, xpb, r)
        }
        _ => return None,
    })
}
