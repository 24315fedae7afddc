//! Elementwise ops: one parallel `tensor.generic` over the broadcast output
//! shape; each operand is read through its numpy broadcast map; the body is the
//! op's scalar formula below (one arm per op).

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
}

/// The ops lowered here; the value says how many operands a formula takes
/// (`0`: any number, for Sum/Mean/Max/Min).
pub const TABLE: &[(&str, usize)] = &[
    ("onnx.Add", 2), ("onnx.Sub", 2), ("onnx.Mul", 2), ("onnx.Div", 2), ("onnx.Pow", 2), ("onnx.Mod", 2),
    ("onnx.Sqrt", 1), ("onnx.Exp", 1), ("onnx.Log", 1), ("onnx.Abs", 1), ("onnx.Neg", 1), ("onnx.Reciprocal", 1),
    ("onnx.Relu", 1), ("onnx.LeakyRelu", 1), ("onnx.PRelu", 2), ("onnx.Sigmoid", 1), ("onnx.HardSigmoid", 1),
    ("onnx.HardSwish", 1), ("onnx.Tanh", 1), ("onnx.Erf", 1), ("onnx.Gelu", 1), ("onnx.Elu", 1), ("onnx.Selu", 1),
    ("onnx.Celu", 1), ("onnx.Softplus", 1), ("onnx.Softsign", 1), ("onnx.Mish", 1), ("onnx.Swish", 1), ("onnx.ThresholdedRelu", 1),
    ("onnx.Shrink", 1), ("onnx.Sin", 1), ("onnx.Cos", 1), ("onnx.Tan", 1), ("onnx.Asin", 1), ("onnx.Acos", 1),
    ("onnx.Atan", 1), ("onnx.Sinh", 1), ("onnx.Cosh", 1), ("onnx.Asinh", 1), ("onnx.Acosh", 1), ("onnx.Atanh", 1),
    ("onnx.Floor", 1), ("onnx.Ceil", 1), ("onnx.Round", 1), ("onnx.Sign", 1), ("onnx.IsNaN", 1), ("onnx.IsInf", 1),
    ("onnx.Not", 1), ("onnx.And", 2), ("onnx.Or", 2), ("onnx.Xor", 2), ("onnx.BitwiseNot", 1), ("onnx.BitwiseAnd", 2),
    ("onnx.BitwiseOr", 2), ("onnx.BitwiseXor", 2), ("onnx.BitShift", 2), ("onnx.Equal", 2), ("onnx.Less", 2),
    ("onnx.Greater", 2), ("onnx.LessOrEqual", 2), ("onnx.GreaterOrEqual", 2), ("onnx.Where", 3), ("onnx.Clip", 0),
    ("onnx.Sum", 0), ("onnx.Mean", 0), ("onnx.Max", 0), ("onnx.Min", 0), ("onnx.Cast", 1), ("onnx.CastLike", 2),
    ("onnx.Identity", 1), ("onnx.Dropout", 1), ("onnx.BitCast", 1),
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
        "onnx.Dropout" | "onnx.CastLike" => vec![0],
        _ => present.clone(),
    };
    if name == "onnx.Dropout" {
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
        beta: l.float_attr("beta", if name == "onnx.HardSigmoid" { 0.5 } else { 0.0 }),
        gamma: l.float_attr("gamma", 1.0507009873554805),
        lambd: l.float_attr("lambd", 0.5),
        bias: l.float_attr("bias", 0.0),
        fmod: l.int_attr("fmod", 0),
        detect_neg: l.int_attr("detect_negative", 1) != 0,
        detect_pos: l.int_attr("detect_positive", 1) != 0,
        approximate: l.str_attr("approximate").unwrap_or_else(|| "none".into()),
        direction: l.str_attr("direction").unwrap_or_default(),
        saturate: l.int_attr("saturate", 1) != 0,
    };
    if name == "onnx.Mod" && p.fmod == 0 && scs[0].is_float() {
        return Err("Mod with fmod=0 on floats is not defined by ONNX".into());
    }
    let osc = out.sc.clone();
    let shape = out.shape.clone();
    let mut results = vec![l.map_op(&shape, &osc.ty.clone(), &ins, maps, |e, a| formula(e, name, a, &scs, &osc, &p, clip_has))];
    if name == "onnx.Dropout" && l.num_results() > 1 {
        // The mask of an inference Dropout is all true.
        let m = l.out_info(1)?;
        let bool_sc = m.sc.clone();
        results.push(l.fill(&m.shape, &bool_sc, 1.0));
    }
    Ok(results)
}

fn default_alpha(name: &str) -> f64 {
    match name {
        "onnx.LeakyRelu" => 0.01,
        "onnx.HardSigmoid" => 0.2,
        "onnx.Selu" => 1.6732632423543772,
        "onnx.ThresholdedRelu" => 1.0,
        _ => 1.0,
    }
}

fn unary(e: &mut Emit, name: &str, x: Value, s: &Sc) -> Value {
    e.op(name, &[x], &s.ty)
}

fn sigmoid(e: &mut Emit, x: Value, s: &Sc) -> Value {
    let one = e.float(1.0, &s.ty);
    let nx = e.op("arith.negf", &[x], &s.ty);
    let ex = unary(e, "math.exp", nx, s);
    let den = e.op("arith.addf", &[one, ex], &s.ty);
    e.op("arith.divf", &[one, den], &s.ty)
}

/// log(1 + e^x), computed as max(x, 0) + log1p(e^-|x|) so it neither
/// overflows for large x nor loses precision for very negative x.
fn softplus(e: &mut Emit, x: Value, s: &Sc) -> Value {
    let zero = e.float(0.0, &s.ty);
    let m = e.op("arith.maximumf", &[x, zero], &s.ty);
    let ax = unary(e, "math.absf", x, s);
    let nax = e.op("arith.negf", &[ax], &s.ty);
    let ex = unary(e, "math.exp", nax, s);
    let l1 = unary(e, "math.log1p", ex, s);
    e.op("arith.addf", &[m, l1], &s.ty)
}

fn fold_variadic(e: &mut Emit, name: &str, a: &[Value], scs: &[Sc], o: &Sc) -> Value {
    let mut acc = e.cast(a[0], &scs[0], o);
    for (v, s) in a[1..].iter().zip(&scs[1..]) {
        let v = e.cast(*v, s, o);
        acc = match name {
            "onnx.Sum" | "onnx.Mean" => e.add(acc, v, o),
            "onnx.Max" => e.max(acc, v, o),
            _ => e.min(acc, v, o),
        };
    }
    if name == "onnx.Mean" {
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
        "onnx.Add" => e.add(a[0], a[1], o),
        "onnx.Sub" => e.sub(a[0], a[1], o),
        "onnx.Mul" => e.mul(a[0], a[1], o),
        "onnx.Div" => e.div(a[0], a[1], o),
        "onnx.Mod" => {
            if p.fmod != 0 {
                e.by_kind(("arith.remf", "arith.remsi", "arith.remui"), &[a[0], a[1]], o)
            } else if o.kind == Kind::Unsigned {
                e.op("arith.remui", &[a[0], a[1]], &t)
            } else {
                // Python-style: the result takes the divisor's sign.
                let r = e.op("arith.remsi", &[a[0], a[1]], &t);
                let zero = e.int(0, &t);
                let rnz = e.cmp(Cmp::Ne, r, zero, o);
                let rneg = e.cmp(Cmp::Lt, r, zero, o);
                let bneg = e.cmp(Cmp::Lt, a[1], zero, o);
                let diff = e.op("arith.xori", &[rneg, bneg], &e.ctx.i1());
                let fix = e.op("arith.andi", &[rnz, diff], &e.ctx.i1());
                let rb = e.op("arith.addi", &[r, a[1]], &t);
                e.select(fix, rb, r)
            }
        }
        "onnx.Pow" => {
            if o.is_float() {
                let y = e.cast(a[1], &scs[1], o);
                e.op("math.powf", &[x, y], &t)
            } else {
                let y = e.cast(a[1], &scs[1], o);
                e.op("math.ipowi", &[x, y], &t)
            }
        }
        "onnx.Sqrt" => unary(e, "math.sqrt", x, o),
        "onnx.Exp" => unary(e, "math.exp", x, o),
        "onnx.Log" => unary(e, "math.log", x, o),
        "onnx.Abs" => match o.kind {
            Kind::Float => unary(e, "math.absf", x, o),
            Kind::Signed => unary(e, "math.absi", x, o),
            _ => x,
        },
        "onnx.Neg" => {
            if o.is_float() {
                e.op("arith.negf", &[x], &t)
            } else {
                let z = e.int(0, &t);
                e.op("arith.subi", &[z, x], &t)
            }
        }
        "onnx.Reciprocal" => {
            let one = e.scalar(1.0, o);
            e.div(one, x, o)
        }
        "onnx.Sin" | "onnx.Cos" | "onnx.Tan" | "onnx.Asin" | "onnx.Acos" | "onnx.Atan" | "onnx.Sinh" | "onnx.Cosh" | "onnx.Asinh"
        | "onnx.Acosh" | "onnx.Atanh" | "onnx.Floor" | "onnx.Ceil" => {
            let m = format!("math.{}", name.trim_start_matches("onnx.").to_lowercase());
            unary(e, &m, x, o)
        }
        "onnx.Round" => unary(e, "math.roundeven", x, o),
        "onnx.Sign" => {
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
        "onnx.IsNaN" => e.cmp(Cmp::Ne, x, x, s0),
        "onnx.IsInf" => {
            let inf = e.float(f64::INFINITY, &s0.ty);
            let ninf = e.float(f64::NEG_INFINITY, &s0.ty);
            let pi = e.cmp(Cmp::Eq, x, inf, s0);
            let ni = e.cmp(Cmp::Eq, x, ninf, s0);
            let i1 = e.ctx.i1();
            let f = e.int(0, &i1);
            let pi = if p.detect_pos { pi } else { f };
            let ni = if p.detect_neg { ni } else { f };
            e.op("arith.ori", &[pi, ni], &i1)
        }
        "onnx.Not" | "onnx.BitwiseNot" => {
            let ones = e.int(-1, &t);
            e.op("arith.xori", &[x, ones], &t)
        }
        "onnx.And" | "onnx.BitwiseAnd" => e.op("arith.andi", &[a[0], a[1]], &t),
        "onnx.Or" | "onnx.BitwiseOr" => e.op("arith.ori", &[a[0], a[1]], &t),
        "onnx.Xor" | "onnx.BitwiseXor" => e.op("arith.xori", &[a[0], a[1]], &t),
        "onnx.BitShift" => {
            // Shifting by the width or more gives 0 in ONNX (poison in arith).
            let w = e.int(o.width() as i128, &t);
            let zero = e.int(0, &t);
            let big = e.cmp(Cmp::Ge, a[1], w, o);
            let sh = e.op(if p.direction == "LEFT" { "arith.shli" } else { "arith.shrui" }, &[a[0], a[1]], &t);
            e.select(big, zero, sh)
        }
        "onnx.Equal" => e.cmp(Cmp::Eq, a[0], a[1], s0),
        "onnx.Less" => e.cmp(Cmp::Lt, a[0], a[1], s0),
        "onnx.Greater" => e.cmp(Cmp::Gt, a[0], a[1], s0),
        "onnx.LessOrEqual" => e.cmp(Cmp::Le, a[0], a[1], s0),
        "onnx.GreaterOrEqual" => e.cmp(Cmp::Ge, a[0], a[1], s0),
        "onnx.Where" => e.select(a[0], a[1], a[2]),
        "onnx.Clip" => {
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
        "onnx.Sum" | "onnx.Mean" | "onnx.Max" | "onnx.Min" => fold_variadic(e, name, a, scs, o),
        "onnx.Cast" | "onnx.CastLike" => e.cast_saturating(x, s0, o, p.saturate),
        "onnx.Identity" | "onnx.Dropout" => x,
        // The same bits under another type (a bool is a byte, 0 or 1).
        "onnx.BitCast" => {
            if s0.ty == o.ty {
                x
            } else if s0.kind == Kind::Bool {
                e.op("arith.extui", &[x], &t)
            } else {
                e.op("arith.bitcast", &[x], &t)
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
        "onnx.Relu" => {
            let z = e.scalar(0.0, o);
            e.max(x, z, o)
        }
        "onnx.LeakyRelu" | "onnx.PRelu" => {
            let slope = if name == "onnx.PRelu" { e.cast(a[1], &scs[1], o) } else { e.scalar(p.alpha, o) };
            let z = e.scalar(0.0, o);
            let neg = e.cmp(Cmp::Lt, x, z, o);
            let sx = e.mul(x, slope, o);
            e.select(neg, sx, x)
        }
        "onnx.Sigmoid" => sigmoid(e, x, o),
        "onnx.HardSigmoid" | "onnx.HardSwish" => {
            let (al, be) = if name == "onnx.HardSwish" { (1.0 / 6.0, 0.5) } else { (p.alpha, p.beta) };
            let av = e.float(al, &t);
            let bv = e.float(be, &t);
            let ax = e.op("arith.mulf", &[av, x], &t);
            let y = e.op("arith.addf", &[ax, bv], &t);
            let zero = e.float(0.0, &t);
            let one = e.float(1.0, &t);
            let y = e.op("arith.maximumf", &[y, zero], &t);
            let y = e.op("arith.minimumf", &[y, one], &t);
            if name == "onnx.HardSwish" {
                e.op("arith.mulf", &[x, y], &t)
            } else {
                y
            }
        }
        "onnx.Tanh" => unary(e, "math.tanh", x, o),
        "onnx.Erf" => unary(e, "math.erf", x, o),
        "onnx.Gelu" => {
            let half = e.float(0.5, &t);
            let one = e.float(1.0, &t);
            let inner = if p.approximate == "tanh" {
                // 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3)))
                let k = e.float((2.0 / std::f64::consts::PI).sqrt(), &t);
                let c = e.float(0.044715, &t);
                let x2 = e.op("arith.mulf", &[x, x], &t);
                let x3 = e.op("arith.mulf", &[x2, x], &t);
                let cx3 = e.op("arith.mulf", &[c, x3], &t);
                let s = e.op("arith.addf", &[x, cx3], &t);
                let ks = e.op("arith.mulf", &[k, s], &t);
                unary(e, "math.tanh", ks, o)
            } else {
                let r = e.float(std::f64::consts::FRAC_1_SQRT_2, &t);
                let xr = e.op("arith.mulf", &[x, r], &t);
                unary(e, "math.erf", xr, o)
            };
            let s = e.op("arith.addf", &[one, inner], &t);
            let hx = e.op("arith.mulf", &[half, x], &t);
            e.op("arith.mulf", &[hx, s], &t)
        }
        "onnx.Elu" | "onnx.Selu" | "onnx.Celu" => {
            let zero = e.float(0.0, &t);
            let one = e.float(1.0, &t);
            let alpha = e.float(p.alpha, &t);
            let xin = if name == "onnx.Celu" { e.op("arith.divf", &[x, alpha], &t) } else { x };
            let ex = unary(e, "math.exp", xin, o);
            let em1 = e.op("arith.subf", &[ex, one], &t);
            let neg = e.op("arith.mulf", &[alpha, em1], &t);
            let le = e.cmp(if name == "onnx.Selu" { Cmp::Le } else { Cmp::Lt }, x, zero, o);
            let y = e.select(le, neg, x);
            if name == "onnx.Selu" {
                let g = e.float(p.gamma, &t);
                e.op("arith.mulf", &[g, y], &t)
            } else if name == "onnx.Celu" {
                let pos = e.op("arith.maximumf", &[x, zero], &t);
                let negp = e.op("arith.minimumf", &[neg, zero], &t);
                e.op("arith.addf", &[pos, negp], &t)
            } else {
                y
            }
        }
        "onnx.Softplus" => softplus(e, x, o),
        "onnx.Softsign" => {
            let one = e.float(1.0, &t);
            let ax = unary(e, "math.absf", x, o);
            let den = e.op("arith.addf", &[one, ax], &t);
            e.op("arith.divf", &[x, den], &t)
        }
        "onnx.Swish" => {
            let al = e.float(p.alpha, &t);
            let ax = e.op("arith.mulf", &[al, x], &t);
            let s = sigmoid(e, ax, o);
            e.op("arith.mulf", &[x, s], &t)
        }
        "onnx.Mish" => {
            let sp = softplus(e, x, o);
            let th = unary(e, "math.tanh", sp, o);
            e.op("arith.mulf", &[x, th], &t)
        }
        "onnx.ThresholdedRelu" => {
            let al = e.float(p.alpha, &t);
            let zero = e.float(0.0, &t);
            let gt = e.cmp(Cmp::Gt, x, al, o);
            e.select(gt, x, zero)
        }
        "onnx.Shrink" => {
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
