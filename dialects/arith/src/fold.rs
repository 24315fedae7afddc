//! Folders: constant operands are evaluated; identities (`x + 0`, `x * 1`,
//! `x - x`, `select %true`) return an existing value. Scalars only: elements
//! folding belongs to the tensor-level passes.

use ir::attributes::{normalize_int, AttrData, Attribute};
use ir::dialect::{FoldInput, FoldResult};
use ir::types::{FloatKind, Type};

type Res = Option<Vec<FoldResult>>;

fn attr(a: Attribute) -> Res {
    Some(vec![FoldResult::Attr(a)])
}
fn value(v: ir::Value) -> Res {
    Some(vec![FoldResult::Value(v)])
}
fn result_type(x: &FoldInput) -> Type {
    x.body.value_type(x.body.op(x.op).results()[0]).clone()
}
fn int_of(a: &Option<Attribute>) -> Option<i128> {
    a.as_ref().and_then(|a| a.as_int())
}
fn float_of(a: &Option<Attribute>) -> Option<f64> {
    a.as_ref().and_then(|a| a.as_float())
}
fn width(t: &Type) -> u32 {
    t.int_width().unwrap_or(64)
}
/// The unsigned reading of a normalized value of width `w`.
fn unsigned(v: i128, w: u32) -> u128 {
    if w >= 128 {
        v as u128
    } else {
        (v as u128) & ((1u128 << w) - 1)
    }
}
fn is_int_const(a: &Option<Attribute>, v: i128) -> bool {
    int_of(a) == Some(v)
}
fn operand(x: &FoldInput, i: usize) -> ir::Value {
    x.body.op(x.op).operands()[i]
}

pub fn constant(x: &FoldInput) -> Res {
    attr(x.body.op(x.op).properties.get("value")?.clone())
}

/// Folds an integer binary op with two constant scalar operands.
fn int_binary(x: &FoldInput, f: impl Fn(i128, i128, u32) -> Option<i128>) -> Res {
    let t = result_type(x);
    if t.is_shaped() {
        return None;
    }
    let (a, b) = (int_of(&x.constants[0])?, int_of(&x.constants[1])?);
    let r = f(a, b, width(&t))?;
    attr(Attribute::integer(normalize_int(r, &t), t))
}

pub fn addi(x: &FoldInput) -> Res {
    if is_int_const(&x.constants[1], 0) {
        return value(operand(x, 0));
    }
    int_binary(x, |a, b, _| a.checked_add(b))
}
pub fn subi(x: &FoldInput) -> Res {
    if operand(x, 0) == operand(x, 1) && !result_type(x).is_shaped() {
        let t = result_type(x);
        return attr(Attribute::integer(0, t));
    }
    if is_int_const(&x.constants[1], 0) {
        return value(operand(x, 0));
    }
    int_binary(x, |a, b, _| a.checked_sub(b))
}
pub fn muli(x: &FoldInput) -> Res {
    if is_int_const(&x.constants[1], 1) {
        return value(operand(x, 0));
    }
    if is_int_const(&x.constants[1], 0) && !result_type(x).is_shaped() {
        return attr(Attribute::integer(0, result_type(x)));
    }
    int_binary(x, |a, b, _| a.checked_mul(b))
}
pub fn divsi(x: &FoldInput) -> Res {
    if is_int_const(&x.constants[1], 1) {
        return value(operand(x, 0));
    }
    int_binary(x, |a, b, w| if b == 0 || (b == -1 && a == -(1i128 << (w - 1))) { None } else { Some(a / b) })
}
pub fn divui(x: &FoldInput) -> Res {
    if is_int_const(&x.constants[1], 1) {
        return value(operand(x, 0));
    }
    int_binary(x, |a, b, w| {
        let (a, b) = (unsigned(a, w), unsigned(b, w));
        if b == 0 { None } else { Some((a / b) as i128) }
    })
}
pub fn ceildivsi(x: &FoldInput) -> Res {
    int_binary(x, |a, b, w| {
        if b == 0 || (b == -1 && a == -(1i128 << (w - 1))) {
            return None;
        }
        let q = a / b;
        Some(if (a % b != 0) && ((a < 0) == (b < 0)) { q + 1 } else { q })
    })
}
pub fn floordivsi(x: &FoldInput) -> Res {
    int_binary(x, |a, b, w| {
        if b == 0 || (b == -1 && a == -(1i128 << (w - 1))) {
            return None;
        }
        let q = a / b;
        Some(if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q })
    })
}
pub fn remsi(x: &FoldInput) -> Res {
    int_binary(x, |a, b, _| if b == 0 { None } else { Some(a % b) })
}
pub fn remui(x: &FoldInput) -> Res {
    int_binary(x, |a, b, w| {
        let (a, b) = (unsigned(a, w), unsigned(b, w));
        if b == 0 { None } else { Some((a % b) as i128) }
    })
}
pub fn andi(x: &FoldInput) -> Res {
    if operand(x, 0) == operand(x, 1) || is_int_const(&x.constants[1], -1) {
        return value(operand(x, 0));
    }
    if is_int_const(&x.constants[1], 0) && !result_type(x).is_shaped() {
        return attr(Attribute::integer(0, result_type(x)));
    }
    int_binary(x, |a, b, _| Some(a & b))
}
pub fn ori(x: &FoldInput) -> Res {
    if operand(x, 0) == operand(x, 1) || is_int_const(&x.constants[1], 0) {
        return value(operand(x, 0));
    }
    int_binary(x, |a, b, _| Some(a | b))
}
pub fn xori(x: &FoldInput) -> Res {
    if is_int_const(&x.constants[1], 0) {
        return value(operand(x, 0));
    }
    if operand(x, 0) == operand(x, 1) && !result_type(x).is_shaped() {
        return attr(Attribute::integer(0, result_type(x)));
    }
    int_binary(x, |a, b, _| Some(a ^ b))
}
pub fn shli(x: &FoldInput) -> Res {
    if is_int_const(&x.constants[1], 0) {
        return value(operand(x, 0));
    }
    int_binary(x, |a, b, w| if b < 0 || b >= w as i128 { None } else { Some(((unsigned(a, w)) << b) as i128) })
}
pub fn shrsi(x: &FoldInput) -> Res {
    if is_int_const(&x.constants[1], 0) {
        return value(operand(x, 0));
    }
    int_binary(x, |a, b, w| if b < 0 || b >= w as i128 { None } else { Some(a >> b) })
}
pub fn shrui(x: &FoldInput) -> Res {
    if is_int_const(&x.constants[1], 0) {
        return value(operand(x, 0));
    }
    int_binary(x, |a, b, w| if b < 0 || b >= w as i128 { None } else { Some((unsigned(a, w) >> b) as i128) })
}
fn same_operand(x: &FoldInput) -> Res {
    if operand(x, 0) == operand(x, 1) {
        return value(operand(x, 0));
    }
    None
}
pub fn maxsi(x: &FoldInput) -> Res {
    same_operand(x).or_else(|| int_binary(x, |a, b, _| Some(a.max(b))))
}
pub fn minsi(x: &FoldInput) -> Res {
    same_operand(x).or_else(|| int_binary(x, |a, b, _| Some(a.min(b))))
}
pub fn maxui(x: &FoldInput) -> Res {
    same_operand(x).or_else(|| int_binary(x, |a, b, w| Some(if unsigned(a, w) >= unsigned(b, w) { a } else { b })))
}
pub fn minui(x: &FoldInput) -> Res {
    same_operand(x).or_else(|| int_binary(x, |a, b, w| Some(if unsigned(a, w) <= unsigned(b, w) { a } else { b })))
}

/// Rounds an f64 result to the result's float type, as the op would compute it.
fn float_attr(v: f64, t: Type) -> Res {
    attr(Attribute::float(v, t))
}

/// Folds a float binary op with two constant scalars, computing in the type's precision.
fn float_binary(x: &FoldInput, f: impl Fn(f64, f64) -> f64) -> Res {
    let t = result_type(x);
    let k = t.float_kind()?;
    let (a, b) = (float_of(&x.constants[0])?, float_of(&x.constants[1])?);
    let r = match k {
        FloatKind::F32 => f(a as f32 as f64, b as f32 as f64) as f32 as f64,
        FloatKind::F64 => f(a, b),
        // f16/bf16 results are rounded once from the exact f64 result of two narrow operands.
        FloatKind::F16 | FloatKind::BF16 => f(a, b),
        _ => return None,
    };
    float_attr(r, t)
}

fn is_float_const(a: &Option<Attribute>, v: f64) -> bool {
    float_of(a).is_some_and(|x| x == v && x.is_sign_negative() == v.is_sign_negative())
}

pub fn addf(x: &FoldInput) -> Res {
    if is_float_const(&x.constants[1], -0.0) {
        return value(operand(x, 0));
    }
    float_binary(x, |a, b| a + b)
}
pub fn subf(x: &FoldInput) -> Res {
    if is_float_const(&x.constants[1], 0.0) {
        return value(operand(x, 0));
    }
    float_binary(x, |a, b| a - b)
}
pub fn mulf(x: &FoldInput) -> Res {
    if is_float_const(&x.constants[1], 1.0) {
        return value(operand(x, 0));
    }
    float_binary(x, |a, b| a * b)
}
pub fn divf(x: &FoldInput) -> Res {
    if is_float_const(&x.constants[1], 1.0) {
        return value(operand(x, 0));
    }
    float_binary(x, |a, b| a / b)
}
pub fn remf(x: &FoldInput) -> Res {
    float_binary(x, |a, b| a % b)
}
pub fn maximumf(x: &FoldInput) -> Res {
    same_operand(x).or_else(|| float_binary(x, |a, b| if a.is_nan() || b.is_nan() { f64::NAN } else { a.max(b) }))
}
pub fn minimumf(x: &FoldInput) -> Res {
    same_operand(x).or_else(|| float_binary(x, |a, b| if a.is_nan() || b.is_nan() { f64::NAN } else { a.min(b) }))
}
pub fn maxnumf(x: &FoldInput) -> Res {
    same_operand(x).or_else(|| float_binary(x, f64::max))
}
pub fn minnumf(x: &FoldInput) -> Res {
    same_operand(x).or_else(|| float_binary(x, f64::min))
}
pub fn negf(x: &FoldInput) -> Res {
    let t = result_type(x);
    t.float_kind()?;
    float_attr(-float_of(&x.constants[0])?, t)
}

pub fn cmpi(x: &FoldInput) -> Res {
    let d = x.body.op(x.op);
    let pred = d.properties.get("predicate")?.as_int()?;
    let t = x.body.value_type(d.operands()[0]);
    if t.is_shaped() {
        return None;
    }
    let w = width(t);
    let res = if operand(x, 0) == operand(x, 1) {
        // eq, sle, sge, ule, uge hold for equal operands.
        matches!(pred, 0 | 3 | 5 | 7 | 9)
    } else {
        let (a, b) = (int_of(&x.constants[0])?, int_of(&x.constants[1])?);
        let (ua, ub) = (unsigned(a, w), unsigned(b, w));
        match pred {
            0 => a == b,
            1 => a != b,
            2 => a < b,
            3 => a <= b,
            4 => a > b,
            5 => a >= b,
            6 => ua < ub,
            7 => ua <= ub,
            8 => ua > ub,
            9 => ua >= ub,
            _ => return None,
        }
    };
    attr(Attribute::integer(res as i128, x.ctx.i1()))
}

pub fn cmpf(x: &FoldInput) -> Res {
    let d = x.body.op(x.op);
    let pred = d.properties.get("predicate")?.as_int()?;
    if pred == 0 || pred == 15 {
        if x.body.value_type(d.operands()[0]).is_shaped() {
            return None;
        }
        return attr(Attribute::integer((pred == 15) as i128, x.ctx.i1()));
    }
    let (a, b) = (float_of(&x.constants[0])?, float_of(&x.constants[1])?);
    let unordered = a.is_nan() || b.is_nan();
    let ord = |c: bool| !unordered && c;
    let uno = |c: bool| unordered || c;
    let res = match pred {
        1 => ord(a == b),
        2 => ord(a > b),
        3 => ord(a >= b),
        4 => ord(a < b),
        5 => ord(a <= b),
        6 => ord(a != b),
        7 => !unordered,
        8 => uno(a == b),
        9 => uno(a > b),
        10 => uno(a >= b),
        11 => uno(a < b),
        12 => uno(a <= b),
        13 => uno(a != b),
        14 => unordered,
        _ => return None,
    };
    attr(Attribute::integer(res as i128, x.ctx.i1()))
}

pub fn select(x: &FoldInput) -> Res {
    if operand(x, 1) == operand(x, 2) {
        return value(operand(x, 1));
    }
    match int_of(&x.constants[0]) {
        Some(0) => value(operand(x, 2)),
        Some(_) => value(operand(x, 1)),
        None => None,
    }
}

fn int_cast(x: &FoldInput, f: impl Fn(i128, u32) -> i128) -> Res {
    let t = result_type(x);
    if t.is_shaped() {
        return None;
    }
    let src = x.body.value_type(operand(x, 0));
    let v = int_of(&x.constants[0])?;
    attr(Attribute::integer(normalize_int(f(v, width(src)), &t), t))
}

pub fn extsi(x: &FoldInput) -> Res {
    int_cast(x, |v, _| v)
}
pub fn extui(x: &FoldInput) -> Res {
    int_cast(x, |v, w| unsigned(v, w) as i128)
}
pub fn trunci(x: &FoldInput) -> Res {
    int_cast(x, |v, _| v)
}
pub fn index_cast(x: &FoldInput) -> Res {
    int_cast(x, |v, _| v)
}
pub fn index_castui(x: &FoldInput) -> Res {
    int_cast(x, |v, w| unsigned(v, w) as i128)
}
pub fn sitofp(x: &FoldInput) -> Res {
    let t = result_type(x);
    t.float_kind()?;
    float_attr(int_of(&x.constants[0])? as f64, t)
}
pub fn uitofp(x: &FoldInput) -> Res {
    let t = result_type(x);
    t.float_kind()?;
    let w = width(x.body.value_type(operand(x, 0)));
    float_attr(unsigned(int_of(&x.constants[0])?, w) as f64, t)
}
fn fp_to_int(x: &FoldInput, signed: bool) -> Res {
    let t = result_type(x);
    if t.is_shaped() {
        return None;
    }
    let v = float_of(&x.constants[0])?.trunc();
    let w = width(&t) as i32;
    let (lo, hi) = if signed { (-(2f64.powi(w - 1)), 2f64.powi(w - 1) - 1.0) } else { (0.0, 2f64.powi(w) - 1.0) };
    if !(v >= lo && v <= hi) {
        return None; // out of range (or NaN) is poison upstream; leave it alone
    }
    attr(Attribute::integer(normalize_int(v as i128, &t), t))
}
pub fn fptosi(x: &FoldInput) -> Res {
    fp_to_int(x, true)
}
pub fn fptoui(x: &FoldInput) -> Res {
    fp_to_int(x, false)
}
pub fn extf(x: &FoldInput) -> Res {
    let t = result_type(x);
    t.float_kind()?;
    float_attr(float_of(&x.constants[0])?, t)
}
pub fn truncf(x: &FoldInput) -> Res {
    extf(x)
}
pub fn bitcast(x: &FoldInput) -> Res {
    let t = result_type(x);
    if t.is_shaped() {
        return None;
    }
    let bits: u64 = match x.constants[0].as_ref()?.data() {
        AttrData::Integer { value, ty } => unsigned(*value, width(ty)) as u64,
        AttrData::Float { bits, .. } => *bits,
        _ => return None,
    };
    if t.is_float() {
        attr(Attribute::new(AttrData::Float { bits, ty: t }))
    } else {
        attr(Attribute::integer(normalize_int(bits as i128, &t), t))
    }
}
