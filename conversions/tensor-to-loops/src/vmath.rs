//! `math.exp`, `math.tanh` and `math.erf` on vectors of f32 as polynomials of arith ops, so
//! that a Softmax, a GELU or an LSTM cell runs 16 lanes at a time: LLVM has no
//! vector form of these and would call the scalar libm function once per lane.
//!
//! - exp: Cephes' `expf` (x = n·ln2 + r, a degree-6 polynomial in r, 2^n built in
//!   the exponent bits), within 2 ulp; +inf above 88.72, 0 below -87 (where
//!   the true value is under 1.7e-38), NaN kept.
//! - tanh: for |x| < 0.625 Cephes' `tanhf` polynomial, else 1 - 2/(exp(2|x|) + 1)
//!   through the exp above, the sign copied from x; ±1 at ±inf, NaN kept.
//! - erf: for |x| < 0.5 its Taylor series to x^11 (relative error under 1e-6),
//!   else Abramowitz and Stegun 7.1.26 (absolute error under 1.5e-7, through the
//!   exp above), the sign copied from x; ±1 at ±inf, NaN kept.

use super::vectorize::{splat, vec_type};
use super::B;
use ir::attributes::Attribute;
use ir::{Body, InsertPoint, Value};

struct V<'a, 'b> {
    b: &'a B<'b>,
    at: InsertPoint,
}

impl V<'_, '_> {
    fn splat_f32(&mut self, body: &mut Body, v: f32) -> Value {
        splat(self.b, body, &mut self.at, &self.b.ctx.f32(), &v.to_le_bytes())
    }
    fn splat_i32(&mut self, body: &mut Body, v: i32) -> Value {
        splat(self.b, body, &mut self.at, &self.b.ctx.i32(), &v.to_le_bytes())
    }
    fn un(&mut self, body: &mut Body, name: &str, x: Value, ty: &ir::Type) -> Value {
        let o = self.b.op(body, &mut self.at, name, &[x], &[ty.clone()], &[]);
        body.op(o).result(0)
    }
    fn bin(&mut self, body: &mut Body, name: &str, x: Value, y: Value) -> Value {
        let t = body.value_type(x).clone();
        let o = self.b.op(body, &mut self.at, name, &[x, y], &[t], &[]);
        body.op(o).result(0)
    }
    fn cmp(&mut self, body: &mut Body, pred: i64, x: Value, y: Value) -> Value {
        let mt = vec_type(self.b.ctx, &self.b.ctx.i1());
        let o = self.b.op(body, &mut self.at, arith::ops::CMPF, &[x, y], &[mt], &[("predicate", Attribute::integer(pred as i128, self.b.ctx.i64()))]);
        body.op(o).result(0)
    }
    fn select(&mut self, body: &mut Body, c: Value, x: Value, y: Value) -> Value {
        let t = body.value_type(x).clone();
        let o = self.b.op(body, &mut self.at, arith::ops::SELECT, &[c, x, y], &[t], &[]);
        body.op(o).result(0)
    }
    /// c0 + x·(c1 + x·(c2 + …)), coefficients lowest first.
    fn poly(&mut self, body: &mut Body, x: Value, coeffs: &[f32]) -> Value {
        let mut acc = self.splat_f32(body, *coeffs.last().unwrap());
        for &c in coeffs[..coeffs.len() - 1].iter().rev() {
            let cv = self.splat_f32(body, c);
            let o = self.b.op(body, &mut self.at, math::ops::FMA, &[acc, x, cv], &[body.value_type(x).clone()], &[]);
            acc = body.op(o).result(0);
        }
        acc
    }

    fn exp(&mut self, body: &mut Body, x: Value) -> Value {
        let ctx = self.b.ctx;
        let (vf, vi) = (vec_type(ctx, &ctx.f32()), vec_type(ctx, &ctx.i32()));
        let (hi, lo) = (self.splat_f32(body, 88.722_84), self.splat_f32(body, -87.0));
        let xc = self.bin(body, arith::ops::MINIMUMF, x, hi);
        let xc = self.bin(body, arith::ops::MAXIMUMF, xc, lo);
        let log2e = self.splat_f32(body, std::f32::consts::LOG2_E);
        let half = self.splat_f32(body, 0.5);
        let t = self.b.op(body, &mut self.at, math::ops::FMA, &[xc, log2e, half], &[vf.clone()], &[]);
        let fx = self.un(body, math::ops::FLOOR, body.op(t).result(0), &vf);
        // r = x - n·ln2, ln2 in two parts so that n·C1 is exact.
        let (c1, c2) = (self.splat_f32(body, -0.693_359_4), self.splat_f32(body, 2.121_944_4e-4));
        let r = self.b.op(body, &mut self.at, math::ops::FMA, &[fx, c1, xc], &[vf.clone()], &[]);
        let r = self.b.op(body, &mut self.at, math::ops::FMA, &[fx, c2, body.op(r).result(0)], &[vf.clone()], &[]);
        let r = body.op(r).result(0);
        let p = self.poly(body, r, &[5.000_000_1e-1, 1.666_666_5e-1, 4.166_579_6e-2, 8.333_452e-3, 1.399_82e-3, 1.987_569_1e-4]);
        let r2 = self.bin(body, arith::ops::MULF, r, r);
        let y = self.b.op(body, &mut self.at, math::ops::FMA, &[p, r2, r], &[vf.clone()], &[]);
        let one = self.splat_f32(body, 1.0);
        let y = self.bin(body, arith::ops::ADDF, body.op(y).result(0), one);
        // 2^(n-1) in the exponent bits, then ·2: n reaches 128 below 88.72.
        let n = self.un(body, arith::ops::FPTOSI, fx, &vi);
        let bias = self.splat_i32(body, 126);
        let e = self.bin(body, arith::ops::ADDI, n, bias);
        let sh = self.splat_i32(body, 23);
        let e = self.bin(body, arith::ops::SHLI, e, sh);
        let pow = self.un(body, arith::ops::BITCAST, e, &vf);
        let y = self.bin(body, arith::ops::MULF, y, pow);
        let two = self.splat_f32(body, 2.0);
        let y = self.bin(body, arith::ops::MULF, y, two);
        // Beyond the range: +inf and 0; NaN stays NaN (its fptosi is poison, never selected).
        let (inf, zero) = (self.splat_f32(body, f32::INFINITY), self.splat_f32(body, 0.0));
        let over = self.cmp(body, 2, x, hi); // ogt
        let y = self.select(body, over, inf, y);
        let under = self.cmp(body, 4, x, lo); // olt
        let y = self.select(body, under, zero, y);
        let nan = self.cmp(body, 14, x, x); // uno
        self.select(body, nan, x, y)
    }

    fn erf(&mut self, body: &mut Body, x: Value) -> Value {
        let vf = vec_type(self.b.ctx, &self.b.ctx.f32());
        let ax = self.un(body, math::ops::ABSF, x, &vf);
        // Near 0: x·(2/√π)(1 - x²/3 + x⁴/10 - x⁶/42 + x⁸/216 - x¹⁰/1320).
        let x2 = self.bin(body, arith::ops::MULF, x, x);
        let k = std::f32::consts::FRAC_2_SQRT_PI;
        let s = self.poly(body, x2, &[k, -k / 3.0, k / 10.0, -k / 42.0, k / 216.0, -k / 1320.0]);
        let small = self.bin(body, arith::ops::MULF, x, s);
        // Elsewhere: 1 - t·P(t)·exp(-x²), t = 1 / (1 + p|x|).
        let (p, one) = (self.splat_f32(body, 0.327_591_1), self.splat_f32(body, 1.0));
        let d = self.b.op(body, &mut self.at, math::ops::FMA, &[p, ax, one], &[vf.clone()], &[]);
        let t = self.bin(body, arith::ops::DIVF, one, body.op(d).result(0));
        let q = self.poly(body, t, &[0.254_829_6, -0.284_496_74, 1.421_413_8, -1.453_152, 1.061_405_4]);
        let q = self.bin(body, arith::ops::MULF, q, t);
        let nx2 = self.un(body, arith::ops::NEGF, x2, &vf);
        let e = self.exp(body, nx2);
        let qe = self.bin(body, arith::ops::MULF, q, e);
        let big = self.bin(body, arith::ops::SUBF, one, qe);
        let big = self.bin(body, math::ops::COPYSIGN, big, x);
        let half = self.splat_f32(body, 0.5);
        let near = self.cmp(body, 4, ax, half); // olt
        self.select(body, near, small, big)
    }

    fn tanh(&mut self, body: &mut Body, x: Value) -> Value {
        let vf = vec_type(self.b.ctx, &self.b.ctx.f32());
        let ax = self.un(body, math::ops::ABSF, x, &vf);
        // Near 0: Cephes' odd polynomial x + x·s·P(s), s = x².
        let s = self.bin(body, arith::ops::MULF, x, x);
        let p = self.poly(body, s, &[-3.333_328_2e-1, 1.333_144_2e-1, -5.373_971_6e-2, 2.063_908_9e-2, -5.704_988_7e-3]);
        let ps = self.bin(body, arith::ops::MULF, p, s);
        let small = self.b.op(body, &mut self.at, math::ops::FMA, &[ps, x, x], &[vf.clone()], &[]);
        let small = body.op(small).result(0);
        // Elsewhere: 1 - 2/(exp(2|x|) + 1), the sign copied from x (±1 at ±inf; NaN through exp).
        let (one, two) = (self.splat_f32(body, 1.0), self.splat_f32(body, 2.0));
        let ax2 = self.bin(body, arith::ops::MULF, ax, two);
        let e = self.exp(body, ax2);
        let d = self.bin(body, arith::ops::ADDF, e, one);
        let q = self.bin(body, arith::ops::DIVF, two, d);
        let big = self.bin(body, arith::ops::SUBF, one, q);
        let big = self.bin(body, math::ops::COPYSIGN, big, x);
        let limit = self.splat_f32(body, 0.625);
        let near = self.cmp(body, 4, ax, limit); // olt
        self.select(body, near, small, big)
    }
}

/// The polynomial form of `name` (`math.exp`, `math.tanh`, `math.erf`) of the f32 vector
/// `x` at `at`, or None for other ops.
pub(super) fn expand(b: &B, body: &mut Body, at: &mut InsertPoint, name: &str, x: Value) -> Option<Value> {
    if body.value_type(x).element_type() != Some(&b.ctx.f32()) {
        return None;
    }
    let mut v = V { b, at: *at };
    let r = match name {
        math::ops::EXP => v.exp(body, x),
        math::ops::ERF => v.erf(body, x),
        math::ops::TANH => v.tanh(body, x),
        _ => return None,
    };
    *at = v.at;
    Some(r)
}
