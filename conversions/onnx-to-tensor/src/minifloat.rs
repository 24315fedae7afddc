//! 8- and 4-bit floats (f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ, f8E8M0FNU,
//! f4E2M1FN). LLVM has no such types and MLIR 22 cannot lower `arith.extf` /
//! `truncf` with them, so casts go through their bits: decoding builds the f32
//! from sign, exponent and mantissa fields; encoding rounds to nearest even on
//! the format's grid, then applies ONNX's saturation rules. Storage stays the
//! narrow type (a byte per element in memory).

use super::emit::{Cmp, Emit, Kind, Sc};
use ir::float::{MiniFormat, MiniNan};
use ir::types::FloatKind;
use ir::{Type, Value};

/// A narrow float format's fields, from its row in `ir::float::MINI_FORMATS`
/// (the host decoder reads the same row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mini {
    pub kind: FloatKind,
    e: u32,
    m: u32,
    bias: i32,
}

impl Mini {
    pub fn of(kind: FloatKind) -> Option<Mini> {
        let f = MiniFormat::of(kind)?;
        Some(Mini { kind, e: f.exp_bits, m: f.man_bits, bias: f.bias })
    }
    fn format(&self) -> MiniFormat {
        MiniFormat::of(self.kind).expect("a Mini is built from a MINI_FORMATS row")
    }
    fn width(&self) -> u32 {
        self.format().width()
    }
    fn fnuz(&self) -> bool {
        self.format().fnuz()
    }
    /// The largest finite magnitude's code (without sign).
    fn max_code(&self) -> i64 {
        self.format().max_code as i64
    }
    fn max_value(&self) -> f64 {
        self.format().max_value
    }
}

fn i32c(e: &mut Emit, v: i64) -> Value {
    let t = e.ctx.i32();
    e.int(v as i128, &t)
}

/// 2^k as an f32, for an i32 `k` in the normal range.
fn pow2(e: &mut Emit, k: Value) -> Value {
    let (i32t, f32t) = (e.ctx.i32(), e.ctx.f32());
    let b = i32c(e, 127);
    let s = i32c(e, 23);
    let biased = e.op(arith::ops::ADDI, &[k, b], &i32t);
    let bits = e.op(arith::ops::SHLI, &[biased, s], &i32t);
    e.op(arith::ops::BITCAST, &[bits], &f32t)
}

/// The f32 value of a narrow float.
pub fn decode(e: &mut Emit, v: Value, f: Mini) -> Value {
    let (i32t, f32t) = (e.ctx.i32(), e.ctx.f32());
    let isc = Sc { ty: i32t.clone(), kind: Kind::Signed };
    let narrow = e.ctx.int_type(f.width());
    let bits = e.op(arith::ops::BITCAST, &[v], &narrow);
    let b = if f.width() < 32 { e.op(arith::ops::EXTUI, &[bits], &i32t) } else { bits };
    let nan = e.float(f64::NAN, &f32t);
    if f.kind == FloatKind::F8E8M0FNU {
        // 2^(b - 127); 0xFF is NaN; b = 0 is the f32 subnormal 2^-127.
        let s = i32c(e, 23);
        let normal = e.op(arith::ops::SHLI, &[b, s], &i32t);
        let zero = i32c(e, 0);
        let sub = i32c(e, 0x0040_0000);
        let is0 = e.cmp(Cmp::Eq, b, zero, &isc);
        let r = e.select(is0, sub, normal);
        let r = e.op(arith::ops::BITCAST, &[r], &f32t);
        let ff = i32c(e, 0xFF);
        let isnan = e.cmp(Cmp::Eq, b, ff, &isc);
        return e.select(isnan, nan, r);
    }
    let (m, mmask, emask) = (f.m as i64, (1i64 << f.m) - 1, (1i64 << f.e) - 1);
    let (sm, sem) = (i32c(e, m), i32c(e, (f.e + f.m) as i64));
    let sign = e.op(arith::ops::SHRUI, &[b, sem], &i32t);
    let exs = e.op(arith::ops::SHRUI, &[b, sm], &i32t);
    let em = i32c(e, emask);
    let ex = e.op(arith::ops::ANDI, &[exs, em], &i32t);
    let mm = i32c(e, mmask);
    let mn = e.op(arith::ops::ANDI, &[b, mm], &i32t);
    let zero = i32c(e, 0);
    let is_sub = e.cmp(Cmp::Eq, ex, zero, &isc);
    let implicit = i32c(e, 1 << m);
    let full = e.op(arith::ops::ADDI, &[mn, implicit], &i32t);
    let mant = e.select(is_sub, mn, full);
    let one = i32c(e, 1);
    let exn = e.select(is_sub, one, ex);
    let off = i32c(e, f.bias as i64 + m);
    let k = e.op(arith::ops::SUBI, &[exn, off], &i32t);
    let p = pow2(e, k);
    let mf = e.op(arith::ops::SITOFP, &[mant], &f32t);
    let mag = e.op(arith::ops::MULF, &[mf, p], &f32t);
    let neg = e.op(arith::ops::NEGF, &[mag], &f32t);
    let one1 = i32c(e, 1);
    let signed = e.cmp(Cmp::Eq, sign, one1, &isc);
    let val = e.select(signed, neg, mag);
    // Special codes.
    let special = match f.format().nan {
        MiniNan::AllOnes => {
            let s7 = i32c(e, 0x7F);
            let low = e.op(arith::ops::ANDI, &[b, s7], &i32t);
            Some((e.cmp(Cmp::Eq, low, s7, &isc), nan))
        }
        MiniNan::NegativeZero => {
            let c80 = i32c(e, 0x80);
            Some((e.cmp(Cmp::Eq, b, c80, &isc), nan))
        }
        _ => None,
    };
    let val = match special {
        Some((c, n)) => e.select(c, n, val),
        None => val,
    };
    if f.format().nan == MiniNan::Ieee {
        // Exponent all ones: infinity (mantissa 0) or NaN.
        let all = i32c(e, emask);
        let top = e.cmp(Cmp::Eq, ex, all, &isc);
        let inf = e.float(f64::INFINITY, &f32t);
        let ninf = e.float(f64::NEG_INFINITY, &f32t);
        let sinf = e.select(signed, ninf, inf);
        let mz = e.cmp(Cmp::Eq, mn, zero, &isc);
        let special = e.select(mz, sinf, nan);
        return e.select(top, special, val);
    }
    val
}

/// The narrow float nearest to the f32 `x` (ties to even), with ONNX's
/// saturation: out of range (and ±inf for the formats that have no inf) is
/// the largest finite value when `saturate`, else inf or NaN; NaN stays NaN
/// (E2M1 has none: a NaN becomes a zero of the opposite sign, as ONNX's tests expect).
pub fn encode(e: &mut Emit, x: Value, f: Mini, saturate: bool, ty: &Type) -> Value {
    let (i32t, f32t) = (e.ctx.i32(), e.ctx.f32());
    let isc = Sc { ty: i32t.clone(), kind: Kind::Signed };
    let fsc = Sc { ty: f32t.clone(), kind: Kind::Float };
    let xb = e.op(arith::ops::BITCAST, &[x], &i32t);
    let s31 = i32c(e, 31);
    let sign = e.op(arith::ops::SHRUI, &[xb, s31], &i32t);
    let a = e.op(math::ops::ABSF, &[x], &f32t);
    let ab = e.op(arith::ops::BITCAST, &[a], &i32t);
    let s23 = i32c(e, 23);
    let ex32 = e.op(arith::ops::SHRUI, &[ab, s23], &i32t);
    let b127 = i32c(e, 127);
    let kf = e.op(arith::ops::SUBI, &[ex32, b127], &i32t);
    let isnan = e.cmp(Cmp::Ne, x, x, &fsc);
    let (code, over) = if f.kind == FloatKind::F8E8M0FNU {
        // Power of two rounded up (ONNX's default round_mode): exponent + 1 if any mantissa bit is set.
        let mmask = i32c(e, 0x7F_FFFF);
        let man = e.op(arith::ops::ANDI, &[ab, mmask], &i32t);
        let zero = i32c(e, 0);
        let has = e.cmp(Cmp::Ne, man, zero, &isc);
        let one = i32c(e, 1);
        let up = e.op(arith::ops::ADDI, &[ex32, one], &i32t);
        let c = e.select(has, up, ex32);
        let top = i32c(e, 254);
        let over = e.cmp(Cmp::Gt, c, top, &isc);
        (c, over)
    } else {
        let m = f.m as i64;
        let kmin = i32c(e, 1 - f.bias as i64);
        let kk = e.op(arith::ops::MAXSI, &[kf, kmin], &i32t);
        let mc = i32c(e, m);
        let t = e.op(arith::ops::SUBI, &[kk, mc], &i32t);
        let zero = i32c(e, 0);
        let nt = e.op(arith::ops::SUBI, &[zero, t], &i32t);
        let scale = pow2(e, nt);
        let scaled = e.op(arith::ops::MULF, &[a, scale], &f32t);
        let q = e.op(math::ops::ROUNDEVEN, &[scaled], &f32t);
        let qi = e.op(arith::ops::FPTOSI, &[q], &i32t);
        // q = 2^(m+1) carries into the next exponent.
        let two_m1 = i32c(e, 2 << m);
        let carry = e.cmp(Cmp::Eq, qi, two_m1, &isc);
        let one = i32c(e, 1);
        let kk1 = e.op(arith::ops::ADDI, &[kk, one], &i32t);
        let kk = e.select(carry, kk1, kk);
        let two_m = i32c(e, 1 << m);
        let qi = e.select(carry, two_m, qi);
        // Subnormal (below 2^m at the minimum exponent) or normal.
        let is_sub = e.cmp(Cmp::Lt, qi, two_m, &isc);
        let biasv = i32c(e, f.bias as i64);
        let exn = e.op(arith::ops::ADDI, &[kk, biasv], &i32t);
        let ex = e.select(is_sub, zero, exn);
        let mn_n = e.op(arith::ops::SUBI, &[qi, two_m], &i32t);
        let mn = e.select(is_sub, qi, mn_n);
        let exs = e.op(arith::ops::SHLI, &[ex, mc], &i32t);
        let mag = e.op(arith::ops::ORI, &[exs, mn], &i32t);
        let maxc = i32c(e, f.max_code());
        let over = e.cmp(Cmp::Gt, mag, maxc, &isc);
        (mag, over)
    };
    let maxv = e.float(f.max_value(), &f32t);
    let inf = e.cmp(Cmp::Gt, a, maxv, &fsc);
    let over = e.op(arith::ops::ORI, &[over, inf], &e.ctx.i1());
    // The code for an overflow, without sign.
    let (sat, nosat) = (f.format().max_code as i64, f.format().overflow_code as i64);
    let satc = i32c(e, if saturate { sat } else { nosat });
    let mut code = e.select(over, satc, code);
    // Sign (none for E8M0; FNUZ's NaN and zero carry none).
    if f.kind != FloatKind::F8E8M0FNU {
        let w = f.e + f.m;
        let sw = i32c(e, w as i64);
        let sbit = e.op(arith::ops::SHLI, &[sign, sw], &i32t);
        let with_sign = e.op(arith::ops::ORI, &[code, sbit], &i32t);
        let zero = i32c(e, 0);
        let c80 = i32c(e, 0x80);
        let no_sign = if f.fnuz() {
            let z = e.cmp(Cmp::Eq, code, zero, &isc);
            let n = e.cmp(Cmp::Eq, code, c80, &isc);
            e.op(arith::ops::ORI, &[z, n], &e.ctx.i1())
        } else {
            let t = e.ctx.i1();
            e.int(0, &t)
        };
        code = e.select(no_sign, code, with_sign);
    }
    let nan_code = f.format().nan_code as i64;
    let nanc = i32c(e, nan_code);
    // A format without NaN writes a zero of the opposite sign (ONNX's reference, through ml_dtypes).
    let nanc = if f.format().nan == MiniNan::None {
        let sw = i32c(e, (f.e + f.m) as i64);
        let sbit = e.op(arith::ops::SHLI, &[sign, sw], &i32t);
        e.op(arith::ops::XORI, &[nanc, sbit], &i32t)
    } else {
        nanc
    };
    let code = e.select(isnan, nanc, code);
    let narrow = e.ctx.int_type(f.width());
    let c = e.op(arith::ops::TRUNCI, &[code], &narrow);
    e.op(arith::ops::BITCAST, &[c], ty)
}
