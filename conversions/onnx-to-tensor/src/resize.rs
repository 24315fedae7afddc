//! Resize (nearest, linear, cubic; every coordinate transformation mode;
//! antialiased downsampling) and
//! GridSample, each as one
//! gather-like `tensor.generic`: per resized dim, the output index is mapped
//! back to a fractional input coordinate (in f64), then read at the nearest
//! index or blended from the two neighbours, edges replicated as ONNX's
//! reference does.

use onnx::ops;
use super::{Cmp, Emit, Kind, Lower, LowerFn, Sc};
use ir::Value;

pub const TABLE: &[(&str, LowerFn)] = &[(ops::Resize::NAME, resize), (ops::GridSample::NAME, grid_sample), (ops::RoiAlign::NAME, roi_align)];

struct Dim {
    in_len: i64,
    out_len: i64,
    scale: f64,
    roi: (f64, f64),
}

/// The input coordinate of output index `x` along one dim.
fn source_coord(e: &mut Emit, x: Value, d: &Dim, mode: &str, f: &Sc) -> Value {
    let t = f.ty.clone();
    let i64t = e.ctx.i64();
    let xi = e.index_cast(x, &i64t, false);
    let xf = e.op(arith::ops::SITOFP, &[xi], &t);
    let c = |e: &mut Emit, v: f64| e.float(v, &t);
    let half = c(e, 0.5);
    let scale = c(e, d.scale);
    let hp = |e: &mut Emit| {
        let a = e.op(arith::ops::ADDF, &[xf, half], &t);
        let b = e.op(arith::ops::DIVF, &[a, scale], &t);
        e.op(arith::ops::SUBF, &[b, half], &t)
    };
    match mode {
        "asymmetric" => e.op(arith::ops::DIVF, &[xf, scale], &t),
        "align_corners" => {
            // ONNX divides by the fractional resized length (scale * in), not the integer one.
            let out_w = d.scale * d.in_len as f64;
            if out_w == 1.0 || d.out_len == 1 {
                c(e, 0.0)
            } else {
                let k = c(e, (d.in_len - 1) as f64 / (out_w - 1.0));
                e.op(arith::ops::MULF, &[xf, k], &t)
            }
        }
        "pytorch_half_pixel" => {
            if d.out_len > 1 {
                hp(e)
            } else {
                c(e, 0.0)
            }
        }
        "half_pixel_symmetric" => {
            let out_w = d.scale * d.in_len as f64;
            let adj = d.out_len as f64 / out_w;
            let offset = c(e, d.in_len as f64 / 2.0 * (1.0 - adj));
            let h = hp(e);
            e.op(arith::ops::ADDF, &[offset, h], &t)
        }
        "tf_crop_and_resize" => {
            let (s, en) = d.roi;
            let n = (d.in_len - 1) as f64;
            if d.out_len > 1 {
                let a = c(e, s * n);
                let k = c(e, (en - s) * n / (d.out_len - 1) as f64);
                let m = e.op(arith::ops::MULF, &[xf, k], &t);
                e.op(arith::ops::ADDF, &[a, m], &t)
            } else {
                c(e, 0.5 * (s + en) * n)
            }
        }
        _ => hp(e),
    }
}

fn clamp_index(e: &mut Emit, v: Value, n: i64) -> Value {
    let it = e.ctx.index();
    let i = e.op(arith::ops::FPTOSI, &[v], &e.ctx.i64());
    let i = e.index_cast(i, &it, false);
    let zero = e.index(0);
    let hi = e.index(n - 1);
    let i = e.op(arith::ops::MAXSI, &[i, zero], &it);
    e.op(arith::ops::MINSI, &[i, hi], &it)
}

fn resize(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let r = xi.rank();
    let mode = l.str_attr("mode").unwrap_or_else(|| "nearest".into());
    let antialias = l.int_attr("antialias", 0) != 0 && mode != "nearest";
    if !matches!(mode.as_str(), "nearest" | "linear" | "cubic") {
        return Err(format!("Resize mode '{}' is unknown", mode));
    }
    let cubic_a = l.float_attr("cubic_coeff_a", -0.75);
    let exclude_outside = l.int_attr("exclude_outside", 0) != 0;
    let ctm = l.str_attr("coordinate_transformation_mode").unwrap_or_else(|| "half_pixel".into());
    let nearest = l.str_attr("nearest_mode").unwrap_or_else(|| "round_prefer_floor".into());
    let extrap = l.float_attr("extrapolation_value", 0.0);
    let axes: Vec<usize> = match l.ints_attr("axes") {
        Some(a) => a.iter().map(|&v| super::axis(v, r)).collect::<Result<_, _>>()?,
        None => (0..r).collect(),
    };
    let roi = l.const_f64s(1)?.unwrap_or_default();
    let scales = l.const_f64s(2)?.filter(|s| !s.is_empty());
    let sizes = l.const_ints(3)?.filter(|s| !s.is_empty());
    let policy = l.str_attr("keep_aspect_ratio_policy").unwrap_or_else(|| "stretch".into());
    let mut dims: Vec<Dim> = (0..r).map(|i| Dim { in_len: xi.shape[i], out_len: out.shape[i], scale: 1.0, roi: (0.0, 1.0) }).collect();
    let common = sizes.as_ref().filter(|_| policy != "stretch").map(|s| {
        let ratios = axes.iter().enumerate().map(|(k, &a)| s[k] as f64 / xi.shape[a] as f64);
        if policy == "not_larger" {
            ratios.fold(f64::INFINITY, f64::min)
        } else {
            ratios.fold(0.0, f64::max)
        }
    });
    for (k, &a) in axes.iter().enumerate() {
        dims[a].scale = match (&scales, &sizes) {
            (Some(s), _) => s[k],
            (None, Some(s)) => common.unwrap_or(s[k] as f64 / xi.shape[a] as f64),
            _ => return Err("Resize needs scales or sizes".into()),
        };
        if roi.len() == 2 * axes.len() {
            dims[a].roi = (roi[k], roi[axes.len() + k]);
        }
    }
    let x = l.operand(0)?;
    let sc = out.sc.clone();
    let xsc = xi.sc.clone();
    let resized: Vec<usize> = (0..r).filter(|&i| dims[i].in_len != dims[i].out_len || dims[i].scale != 1.0 || ctm == "tf_crop_and_resize").collect();
    let o = l.map_op(&out.shape, &sc.ty.clone(), &[], vec![], move |e, _| {
        let f = Sc { ty: e.ctx.f64(), kind: Kind::Float };
        let i1 = e.ctx.i1();
        let mut base: Vec<Value> = (0..r).map(|i| e.loop_index(i)).collect();
        let mut outside: Option<Value> = None;
        // Per interpolated dim: (dim, [(index, weight)]) — 2 taps for linear, 4 for cubic.
        let mut lin: Vec<(usize, Vec<(Value, Value)>)> = Vec::new();
        for &i in &resized {
            let xo = base[i];
            let xc = source_coord(e, xo, &dims[i], &ctm, &f);
            if ctm == "tf_crop_and_resize" {
                let zero = e.float(0.0, &f.ty);
                let hi = e.float((dims[i].in_len - 1) as f64, &f.ty);
                let lt = e.cmp(Cmp::Lt, xc, zero, &f);
                let gt = e.cmp(Cmp::Gt, xc, hi, &f);
                let o = e.op(arith::ops::ORI, &[lt, gt], &i1);
                outside = Some(match outside {
                    None => o,
                    Some(p) => e.op(arith::ops::ORI, &[p, o], &i1),
                });
            }
            if mode == "nearest" {
                let half = e.float(0.5, &f.ty);
                let v = match nearest.as_str() {
                    "floor" => e.op(math::ops::FLOOR, &[xc], &f.ty),
                    "ceil" => e.op(math::ops::CEIL, &[xc], &f.ty),
                    "round_prefer_ceil" => {
                        let a = e.op(arith::ops::ADDF, &[xc, half], &f.ty);
                        e.op(math::ops::FLOOR, &[a], &f.ty)
                    }
                    _ => {
                        let a = e.op(arith::ops::SUBF, &[xc, half], &f.ty);
                        e.op(math::ops::CEIL, &[a], &f.ty)
                    }
                };
                base[i] = clamp_index(e, v, dims[i].in_len);
            } else if antialias && dims[i].scale < 1.0 {
                lin.push((i, antialias_taps(e, xc, dims[i].in_len, dims[i].scale, (mode == "cubic").then_some(cubic_a), exclude_outside, &f)));
            } else if mode == "linear" {
                let fl = e.op(math::ops::FLOOR, &[xc], &f.ty);
                let w = e.op(arith::ops::SUBF, &[xc, fl], &f.ty);
                let lo = clamp_index(e, fl, dims[i].in_len);
                let one = e.float(1.0, &f.ty);
                let f1 = e.op(arith::ops::ADDF, &[fl, one], &f.ty);
                let hi = clamp_index(e, f1, dims[i].in_len);
                let w0 = e.op(arith::ops::SUBF, &[one, w], &f.ty);
                lin.push((i, vec![(lo, w0), (hi, w)]));
            } else {
                lin.push((i, cubic_taps(e, xc, dims[i].in_len, cubic_a, exclude_outside, &f)));
            }
        }
        let read = |e: &mut Emit, at: &[Value]| -> Value {
            let mut ops = vec![x];
            ops.extend_from_slice(at);
            e.op(tensor::ops::EXTRACT, &ops, &xsc.ty)
        };
        let v = if lin.is_empty() {
            read(e, &base)
        } else {
            // Sum over every combination of taps of the weight products.
            let mut acc: Option<Value> = None;
            let combos: usize = lin.iter().map(|(_, t)| t.len()).product();
            for combo in 0..combos {
                let mut at = base.clone();
                let mut wprod: Option<Value> = None;
                let mut rest = combo;
                for (i, taps) in lin.iter() {
                    let (idx, wk) = taps[rest % taps.len()];
                    rest /= taps.len();
                    at[*i] = idx;
                    wprod = Some(match wprod {
                        None => wk,
                        Some(p) => e.op(arith::ops::MULF, &[p, wk], &f.ty),
                    });
                }
                let val = read(e, &at);
                let val = e.cast(val, &xsc, &f);
                let term = e.op(arith::ops::MULF, &[val, wprod.unwrap()], &f.ty);
                acc = Some(match acc {
                    None => term,
                    Some(p) => e.op(arith::ops::ADDF, &[p, term], &f.ty),
                });
            }
            let a = acc.unwrap();
            let a = if sc.is_float() {
                a
            } else {
                // Integers round to nearest, as ONNX Runtime does.
                e.op(math::ops::ROUNDEVEN, &[a], &f.ty)
            };
            let y = e.cast(a, &f, &xsc);
            return match outside {
                Some(o) => {
                    let ev = e.scalar(extrap, &xsc);
                    e.select(o, ev, y)
                }
                None => y,
            };
        };
        match outside {
            Some(o) => {
                let ev = e.scalar(extrap, &xsc);
                e.select(o, ev, v)
            }
            None => v,
        }
    });
    Ok(vec![o])
}

/// Keys' cubic convolution taps at floor(x)-1 .. floor(x)+2 (edges replicated);
/// with `exclude_outside`, taps outside the input get weight 0 and the rest
/// are renormalized.
fn cubic_taps(e: &mut Emit, xc: Value, n: i64, a: f64, exclude_outside: bool, f: &Sc) -> Vec<(Value, Value)> {
    let t = f.ty.clone();
    let fl = e.op(math::ops::FLOOR, &[xc], &t);
    let r = e.op(arith::ops::SUBF, &[xc, fl], &t);
    let k = |e: &mut Emit, v: f64| e.float(v, &t);
    let mut ws = cubic_weights(e, r, a, &t);
    let mut idx = Vec::new();
    let it = e.ctx.index();
    let i64t = e.ctx.i64();
    let base = e.op(arith::ops::FPTOSI, &[fl], &i64t);
    let base = e.index_cast(base, &it, false);
    let isc = Sc { ty: it.clone(), kind: Kind::Signed };
    for (j, off) in [-1i64, 0, 1, 2].into_iter().enumerate() {
        let o = e.index(off);
        let p = e.op(arith::ops::ADDI, &[base, o], &it);
        if exclude_outside {
            let zero = e.index(0);
            let nn = e.index(n);
            let ge = e.cmp(Cmp::Ge, p, zero, &isc);
            let lt = e.cmp(Cmp::Lt, p, nn, &isc);
            let inb = e.op(arith::ops::ANDI, &[ge, lt], &e.ctx.i1());
            let z = k(e, 0.0);
            ws[j] = e.select(inb, ws[j], z);
        }
        let zero = e.index(0);
        let hi = e.index(n - 1);
        let p = e.op(arith::ops::MAXSI, &[p, zero], &it);
        idx.push(e.op(arith::ops::MINSI, &[p, hi], &it));
    }
    if exclude_outside {
        let s01 = e.op(arith::ops::ADDF, &[ws[0], ws[1]], &t);
        let s23 = e.op(arith::ops::ADDF, &[ws[2], ws[3]], &t);
        let sum = e.op(arith::ops::ADDF, &[s01, s23], &t);
        for w in ws.iter_mut() {
            *w = e.op(arith::ops::DIVF, &[*w, sum], &t);
        }
    }
    idx.into_iter().zip(ws).collect()
}

/// Taps of a downsampling filter stretched by 1 / scale (antialias), as
/// ONNX's reference places them: with x_lo = ceil(x) − 1 and r = x − x_lo in
/// (0, 1], the taps x_lo + start + j (start = 1 − n/2, n = 2·⌈1/scale⌉ for
/// linear, 4·⌈1/scale⌉-ish for cubic) weigh k((start + j − r)·scale),
/// normalized to sum 1; read at the edge-clamped index (or dropped outside with
/// `exclude_outside`, the rest renormalized).
fn antialias_taps(e: &mut Emit, xc: Value, n: i64, scale: f64, cubic: Option<f64>, exclude_outside: bool, f: &Sc) -> Vec<(Value, Value)> {
    let t = f.ty.clone();
    let start = match cubic {
        Some(_) => (-2.0 / scale).floor() as i64 + 1,
        None => (-1.0 / scale).floor() as i64 + 1,
    };
    let taps = 2 - 2 * start;
    let k = |e: &mut Emit, v: f64| e.float(v, &t);
    let ce = e.op(math::ops::CEIL, &[xc], &t);
    let one = k(e, 1.0);
    let lo = e.op(arith::ops::SUBF, &[ce, one], &t);
    let r = e.op(arith::ops::SUBF, &[xc, lo], &t);
    let it = e.ctx.index();
    let i64t = e.ctx.i64();
    let base = e.op(arith::ops::FPTOSI, &[lo], &i64t);
    let base = e.index_cast(base, &it, false);
    let isc = Sc { ty: it.clone(), kind: Kind::Signed };
    let sv = k(e, scale);
    let mut ws = Vec::new();
    let mut idx = Vec::new();
    for j in 0..taps {
        let off = k(e, (start + j) as f64);
        let d = e.op(arith::ops::SUBF, &[off, r], &t);
        let d = e.op(arith::ops::MULF, &[d, sv], &t);
        let ad = e.op(math::ops::ABSF, &[d], &t);
        let w = match cubic {
            None => {
                let zero = k(e, 0.0);
                let v = e.op(arith::ops::SUBF, &[one, ad], &t);
                e.op(arith::ops::MAXIMUMF, &[v, zero], &t)
            }
            Some(a) => cubic_kernel(e, ad, a, &t),
        };
        let o = e.index(start + j);
        let p = e.op(arith::ops::ADDI, &[base, o], &it);
        ws.push((w, p));
    }
    let sum_of = |e: &mut Emit, ws: &[Value]| {
        let mut s = ws[0];
        for w in &ws[1..] {
            s = e.op(arith::ops::ADDF, &[s, *w], &t);
        }
        s
    };
    let mut weights: Vec<Value> = ws.iter().map(|(w, _)| *w).collect();
    let total = sum_of(e, &weights);
    for w in weights.iter_mut() {
        *w = e.op(arith::ops::DIVF, &[*w, total], &t);
    }
    if exclude_outside {
        for (j, (_, p)) in ws.iter().enumerate() {
            let zero = e.index(0);
            let nn = e.index(n);
            let ge = e.cmp(Cmp::Ge, *p, zero, &isc);
            let lt = e.cmp(Cmp::Lt, *p, nn, &isc);
            let inb = e.op(arith::ops::ANDI, &[ge, lt], &e.ctx.i1());
            let z = k(e, 0.0);
            weights[j] = e.select(inb, weights[j], z);
        }
        let total = sum_of(e, &weights);
        for w in weights.iter_mut() {
            *w = e.op(arith::ops::DIVF, &[*w, total], &t);
        }
    }
    for (_, p) in &ws {
        let zero = e.index(0);
        let hi = e.index(n - 1);
        let q = e.op(arith::ops::MAXSI, &[*p, zero], &it);
        idx.push(e.op(arith::ops::MINSI, &[q, hi], &it));
    }
    idx.into_iter().zip(weights).collect()
}

/// Keys' cubic kernel at distance `d` ≥ 0: (a+2)d³ − (a+3)d² + 1 within 1,
/// a·d³ − 5a·d² + 8a·d − 4a within 2, 0 beyond.
fn cubic_kernel(e: &mut Emit, d: Value, a: f64, t: &ir::Type) -> Value {
    let near = cubic_near(e, d, a, t);
    let far = cubic_far(e, d, a, t);
    let (one, two, zero) = (e.float(1.0, t), e.float(2.0, t), e.float(0.0, t));
    let f = Sc { ty: t.clone(), kind: Kind::Float };
    let in1 = e.cmp(Cmp::Le, d, one, &f);
    let in2 = e.cmp(Cmp::Lt, d, two, &f);
    let outer = e.select(in2, far, zero);
    e.select(in1, near, outer)
}

/// Keys' cubic convolution weights of the taps at floor(x) − 1 .. floor(x) + 2,
/// for `r` = x − floor(x): distances 1 + r, r, 1 − r, 2 − r.
pub fn cubic_weights(e: &mut Emit, r: Value, a: f64, t: &ir::Type) -> Vec<Value> {
    let k = |e: &mut Emit, v: f64| e.float(v, t);
    let one = k(e, 1.0);
    let two = k(e, 2.0);
    let d0 = e.op(arith::ops::ADDF, &[one, r], t);
    let d2 = e.op(arith::ops::SUBF, &[one, r], t);
    let d3 = e.op(arith::ops::SUBF, &[two, r], t);
    vec![cubic_far(e, d0, a, t), cubic_near(e, r, a, t), cubic_near(e, d2, a, t), cubic_far(e, d3, a, t)]
}

/// Keys' kernel within distance 1: (a+2)|d|³ − (a+3)|d|² + 1.
fn cubic_near(e: &mut Emit, d: Value, a: f64, t: &ir::Type) -> Value {
    let k = |e: &mut Emit, v: f64| e.float(v, t);
    let (a2, a3, one) = (k(e, a + 2.0), k(e, a + 3.0), k(e, 1.0));
    let x = e.op(arith::ops::MULF, &[a2, d], t);
    let x = e.op(arith::ops::SUBF, &[x, a3], t);
    let x = e.op(arith::ops::MULF, &[x, d], t);
    let x = e.op(arith::ops::MULF, &[x, d], t);
    e.op(arith::ops::ADDF, &[x, one], t)
}

/// Keys' kernel between distances 1 and 2: a|d|³ − 5a|d|² + 8a|d| − 4a.
fn cubic_far(e: &mut Emit, d: Value, a: f64, t: &ir::Type) -> Value {
    let k = |e: &mut Emit, v: f64| e.float(v, t);
    let (av, a5, a8, a4) = (k(e, a), k(e, 5.0 * a), k(e, 8.0 * a), k(e, 4.0 * a));
    let x = e.op(arith::ops::MULF, &[av, d], t);
    let x = e.op(arith::ops::SUBF, &[x, a5], t);
    let x = e.op(arith::ops::MULF, &[x, d], t);
    let x = e.op(arith::ops::ADDF, &[x, a8], t);
    let x = e.op(arith::ops::MULF, &[x, d], t);
    e.op(arith::ops::SUBF, &[x, a4], t)
}

/// Reflects `x` into [lo, hi] by the nearer border, as often as needed
/// (ONNX's GridSample reflection padding).
fn reflect(e: &mut Emit, x: Value, lo: f64, hi: f64, f: &Sc) -> Value {
    let t = f.ty.clone();
    let (lov, hiv) = (e.float(lo, &t), e.float(hi, &t));
    let rng = e.float(hi - lo, &t);
    let two = e.float(2.0, &t);
    // Distance past the border, whole periods, remainder, parity.
    let fold = |e: &mut Emit, dx: Value, near: Value, far: Value, toward_far: bool| {
        let q = e.op(arith::ops::DIVF, &[dx, rng], &t);
        let n = e.op(math::ops::TRUNC, &[q], &t);
        let nr = e.op(arith::ops::MULF, &[n, rng], &t);
        let r = e.op(arith::ops::SUBF, &[dx, nr], &t);
        let half = e.op(arith::ops::DIVF, &[n, two], &t);
        let hf = e.op(math::ops::FLOOR, &[half], &t);
        let even_chk = e.op(arith::ops::MULF, &[hf, two], &t);
        let even = e.cmp(Cmp::Eq, even_chk, n, f);
        let from_near = if toward_far { e.op(arith::ops::ADDF, &[near, r], &t) } else { e.op(arith::ops::SUBF, &[near, r], &t) };
        let from_far = if toward_far { e.op(arith::ops::SUBF, &[far, r], &t) } else { e.op(arith::ops::ADDF, &[far, r], &t) };
        e.select(even, from_near, from_far)
    };
    let below = e.cmp(Cmp::Lt, x, lov, f);
    let above = e.cmp(Cmp::Gt, x, hiv, f);
    let dlo = e.op(arith::ops::SUBF, &[lov, x], &t);
    let dhi = e.op(arith::ops::SUBF, &[x, hiv], &t);
    let from_lo = fold(e, dlo, lov, hiv, true);
    let from_hi = fold(e, dhi, hiv, lov, false);
    let y = e.select(above, from_hi, x);
    e.select(below, from_lo, y)
}

/// GridSample (any number of spatial dims): each output position reads the
/// input at the grid's coordinates (last grid dim in x, y, z order), with
/// nearest (ties to even), linear or cubic interpolation and zeros, border or
/// reflection padding, as ONNX's reference does.
fn grid_sample(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let gi = l.in_info(1)?;
    let out = l.out_info(0)?;
    let s = xi.rank() - 2;
    if gi.rank() != s + 2 || gi.shape[s + 1] != s as i64 {
        return Err("GridSample needs a grid [N, spatial..., spatial rank]".into());
    }
    let mode = l.str_attr("mode").unwrap_or_else(|| "linear".into());
    let mode = match mode.as_str() {
        "bilinear" => "linear".to_string(),
        "bicubic" => "cubic".to_string(),
        m => m.to_string(),
    };
    let padding = l.str_attr("padding_mode").unwrap_or_else(|| "zeros".into());
    let align = l.int_attr("align_corners", 0) != 0;
    let (x, grid) = (l.operand(0)?, l.operand(1)?);
    let (xsc, gsc, osc) = (xi.sc.clone(), gi.sc.clone(), out.sc.clone());
    let dims: Vec<i64> = xi.shape[2..].to_vec();
    Ok(vec![l.map_op(&out.shape, &osc.ty.clone(), &[], vec![], move |e, _| {
        let f = Sc { ty: if xsc.ty == e.ctx.f64() { e.ctx.f64() } else { e.ctx.f32() }, kind: Kind::Float };
        let t = f.ty.clone();
        let it = e.ctx.index();
        let i1 = e.ctx.i1();
        let isc = Sc { ty: it.clone(), kind: Kind::Signed };
        let n = e.loop_index(0);
        let c = e.loop_index(1);
        let outs: Vec<Value> = (0..s).map(|i| e.loop_index(2 + i)).collect();
        // Per spatial dim: taps (index as f, weight).
        let mut taps: Vec<Vec<(Value, Value)>> = Vec::new();
        for i in 0..s {
            let k = e.index((s - 1 - i) as i64);
            let mut at = vec![n];
            at.extend(&outs);
            at.push(k);
            let g = e.extract(grid, &at);
            let g = e.cast(g, &gsc, &f);
            let len = dims[i] as f64;
            let one = e.float(1.0, &t);
            let gp = e.op(arith::ops::ADDF, &[g, one], &t);
            let mut xc = if align {
                let kf = e.float((len - 1.0) / 2.0, &t);
                e.op(arith::ops::MULF, &[gp, kf], &t)
            } else {
                let lv = e.float(len, &t);
                let m = e.op(arith::ops::MULF, &[gp, lv], &t);
                let m = e.op(arith::ops::SUBF, &[m, one], &t);
                let half = e.float(0.5, &t);
                e.op(arith::ops::MULF, &[m, half], &t)
            };
            if mode == "nearest" {
                xc = e.op(math::ops::ROUNDEVEN, &[xc], &t);
            }
            let (lo, hi) = if align { (0.0, len - 1.0) } else { (-0.5, len - 0.5) };
            match padding.as_str() {
                "border" => {
                    let (z, m) = (e.float(0.0, &t), e.float(len - 1.0, &t));
                    let (lov, hiv) = (e.float(lo, &t), e.float(hi, &t));
                    let below = e.cmp(Cmp::Lt, xc, lov, &f);
                    let above = e.cmp(Cmp::Gt, xc, hiv, &f);
                    let outside = e.op(arith::ops::ORI, &[below, above], &i1);
                    let cl = e.op(arith::ops::MAXIMUMF, &[xc, z], &t);
                    let cl = e.op(arith::ops::MINIMUMF, &[cl, m], &t);
                    xc = e.select(outside, cl, xc);
                }
                "reflection" => xc = reflect(e, xc, lo, hi, &f),
                _ => {}
            }
            let tl: Vec<(Value, Value)> = match mode.as_str() {
                "nearest" => vec![(xc, e.float(1.0, &t))],
                "cubic" => {
                    let fl = e.op(math::ops::FLOOR, &[xc], &t);
                    let r = e.op(arith::ops::SUBF, &[xc, fl], &t);
                    let ws = cubic_weights(e, r, -0.75, &t);
                    (0..4).map(|j| {
                        let o = e.float(j as f64 - 1.0, &t);
                        (e.op(arith::ops::ADDF, &[fl, o], &t), ws[j])
                    }).collect()
                }
                _ => {
                    let fl = e.op(math::ops::FLOOR, &[xc], &t);
                    let r = e.op(arith::ops::SUBF, &[xc, fl], &t);
                    let one = e.float(1.0, &t);
                    let w0 = e.op(arith::ops::SUBF, &[one, r], &t);
                    let f1 = e.op(arith::ops::ADDF, &[fl, one], &t);
                    vec![(fl, w0), (f1, r)]
                }
            };
            taps.push(tl);
        }
        // Σ over tap combinations of Π weights · pixel (padding applied per index).
        let combos: usize = taps.iter().map(|t| t.len()).product();
        let mut acc: Option<Value> = None;
        for combo in 0..combos {
            let mut rest = combo;
            let mut at = vec![n, c];
            let mut w: Option<Value> = None;
            let mut inb: Option<Value> = None;
            for i in 0..s {
                let (pos, wt) = taps[i][rest % taps[i].len()];
                rest /= taps[i].len();
                let (lo, hi) = if align { (0.0, dims[i] as f64 - 1.0) } else { (-0.5, dims[i] as f64 - 0.5) };
                let pos = if padding == "reflection" { reflect(e, pos, lo, hi, &f) } else { pos };
                let i64t = e.ctx.i64();
                let pi = e.op(arith::ops::FPTOSI, &[pos], &i64t);
                let pi = e.index_cast(pi, &it, false);
                let zero = e.index(0);
                let dv = e.index(dims[i]);
                let ge = e.cmp(Cmp::Ge, pi, zero, &isc);
                let lt = e.cmp(Cmp::Lt, pi, dv, &isc);
                let ok = e.op(arith::ops::ANDI, &[ge, lt], &i1);
                inb = Some(match inb {
                    None => ok,
                    Some(p) => e.op(arith::ops::ANDI, &[p, ok], &i1),
                });
                at.push(e.clamp_index(pi, dims[i]));
                w = Some(match w {
                    None => wt,
                    Some(p) => e.op(arith::ops::MULF, &[p, wt], &t),
                });
            }
            let v = e.extract(x, &at);
            let v = e.cast(v, &xsc, &f);
            let v = if padding == "zeros" {
                let z = e.float(0.0, &t);
                e.select(inb.unwrap(), v, z)
            } else {
                v
            };
            let term = e.op(arith::ops::MULF, &[v, w.unwrap()], &t);
            acc = Some(match acc {
                None => term,
                Some(p) => e.op(arith::ops::ADDF, &[p, term], &t),
            });
        }
        e.cast(acc.unwrap(), &f, &osc)
    })])
}


/// RoiAlign: each region of interest cut into output_height × output_width
/// bins, each bin sampled on a sampling_ratio² grid by bilinear interpolation
/// and averaged (or maxed), exactly as ONNX's reference (and ONNX Runtime)
/// place and weigh the samples; one generic reducing over the grid, in f64.
fn roi_align(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let (&[_, _, h, w], &[nr, ch, ph, pw]) = (xi.shape.as_slice(), out.shape.as_slice()) else {
        return Err(format!("RoiAlign needs an input [N, C, H, W], got {:?}", xi.shape));
    };
    let ratio = l.int_attr("sampling_ratio", 0);
    if ratio <= 0 {
        return Err("RoiAlign with an adaptive sampling_ratio (0: a grid per region from its size) is not supported yet".into());
    }
    let half_pixel = l.str_attr("coordinate_transformation_mode").as_deref().unwrap_or("half_pixel") == "half_pixel";
    let max_mode = l.str_attr("mode").as_deref().unwrap_or("avg") == "max";
    let scale = l.float_attr("spatial_scale", 1.0);
    let (x, rois, batch) = (l.operand(0)?, l.operand(1)?, l.operand(2)?);
    let (rsc, bsc, xsc, nb) = (l.in_info(1)?.sc, l.in_info(2)?.sc, xi.sc.clone(), xi.shape[0]);
    super::checks::positions_in_range(l, 2, nb, &format!("the batch of {}", nb))?;
    let sc = out.sc.clone();
    let f = Sc { ty: l.ctx.f64(), kind: Kind::Float };
    let init = l.fill(&out.shape, &f, if max_mode { f64::NEG_INFINITY } else { 0.0 });
    let mut iters = vec![tensor::Iterator::Parallel; 4];
    iters.extend([tensor::Iterator::Reduction; 2]);
    let f1 = f.clone();
    let acc = l.generic_ranged(&[], &[init], vec![super::expr_map(6, (0..4).map(super::d).collect())], &iters, Some(vec![nr, ch, ph, pw, ratio, ratio]), move |e, a| {
        let f = f1;
        let it = e.ctx.index();
        let (r, c, py, px, iy, ix) = (e.loop_index(0), e.loop_index(1), e.loop_index(2), e.loop_index(3), e.loop_index(4), e.loop_index(5));
        let coord = |e: &mut Emit, k: i64| {
            let kv = e.index(k);
            let v = e.extract(rois, &[r, kv]);
            let v = e.cast(v, &rsc, &f);
            let s = e.scalar(scale, &f);
            let v = e.mul(v, s, &f);
            let o = e.scalar(if half_pixel { 0.5 } else { 0.0 }, &f);
            e.sub(v, o, &f)
        };
        let (x0, y0, x1, y1) = (coord(e, 0), coord(e, 1), coord(e, 2), coord(e, 3));
        // Sample (iy, ix) of bin (py, px): start + p·bin + (i + ½)·bin / ratio.
        let sample = |e: &mut Emit, start: Value, end: Value, p: Value, i: Value, bins: i64| {
            let mut len = e.sub(end, start, &f);
            if !half_pixel {
                let one = e.scalar(1.0, &f);
                len = e.max(len, one, &f);
            }
            let nb = e.scalar(bins as f64, &f);
            let bin = e.div(len, nb, &f);
            let pf = e.index_to_float(p, &f);
            let off = e.mul(pf, bin, &f);
            let half = e.scalar(0.5, &f);
            let i_f = e.index_to_float(i, &f);
            let ih = e.add(i_f, half, &f);
            let rv = e.scalar(ratio as f64, &f);
            let step = e.div(bin, rv, &f);
            let within = e.mul(ih, step, &f);
            let s = e.add(start, off, &f);
            e.add(s, within, &f)
        };
        let y = sample(e, y0, y1, py, iy, ph);
        let xx = sample(e, x0, x1, px, ix, pw);
        // Outside [-1, size]: the sample counts as zero.
        let outside = |e: &mut Emit, v: Value, size: i64| {
            let lo = e.scalar(-1.0, &f);
            let hi = e.scalar(size as f64, &f);
            let a = e.cmp(Cmp::Lt, v, lo, &f);
            let b = e.cmp(Cmp::Gt, v, hi, &f);
            e.op(arith::ops::ORI, &[a, b], &e.ctx.i1())
        };
        let (oy, ox) = (outside(e, y, h), outside(e, xx, w));
        let out_of_map = e.op(arith::ops::ORI, &[oy, ox], &e.ctx.i1());
        // Low and high neighbours, clamped to the last row or column as the reference does.
        let corners = |e: &mut Emit, v: Value, size: i64| {
            let zero = e.scalar(0.0, &f);
            let v = e.max(v, zero, &f);
            let fl = e.op(math::ops::FLOOR, &[v], &f.ty);
            let last = e.scalar((size - 1) as f64, &f);
            let at_end = e.cmp(Cmp::Ge, fl, last, &f);
            let low = e.select(at_end, last, fl);
            let v = e.select(at_end, last, v);
            let one = e.scalar(1.0, &f);
            let lp1 = e.add(low, one, &f);
            let high = e.select(at_end, last, lp1);
            let frac = e.sub(v, low, &f);
            let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
            let (li, hi) = (e.cast(low, &f, &i64s), e.cast(high, &f, &i64s));
            let it = e.ctx.index();
            (e.index_cast(li, &it, false), e.index_cast(hi, &it, false), frac)
        };
        let (yl, yh, ly) = corners(e, y, h);
        let (xl, xh, lx) = corners(e, xx, w);
        let bi = e.extract(batch, &[r]);
        let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
        let bi = e.cast(bi, &bsc, &i64s);
        let bi = e.index_cast(bi, &it, false);
        let n = e.clamp_index(bi, nb);
        let one = e.scalar(1.0, &f);
        let (hy, hx) = (e.sub(one, ly, &f), e.sub(one, lx, &f));
        let mut terms = Vec::new();
        for (yy, xw, wy, wx) in [(yl, xl, hy, hx), (yl, xh, hy, lx), (yh, xl, ly, hx), (yh, xh, ly, lx)] {
            let v = e.extract(x, &[n, c, yy, xw]);
            let v = e.cast(v, &xsc, &f);
            let wgt = e.mul(wy, wx, &f);
            terms.push(e.mul(wgt, v, &f));
        }
        let val = if max_mode {
            let m = e.max(terms[0], terms[1], &f);
            let m = e.max(m, terms[2], &f);
            e.max(m, terms[3], &f)
        } else {
            let s = e.add(terms[0], terms[1], &f);
            let s = e.add(s, terms[2], &f);
            e.add(s, terms[3], &f)
        };
        let zero = e.scalar(0.0, &f);
        let val = e.select(out_of_map, zero, val);
        vec![if max_mode { e.max(a[0], val, &f) } else { e.add(a[0], val, &f) }]
    })[0];
    let count = (ratio * ratio) as f64;
    Ok(vec![l.map_op(&out.shape, &sc.ty.clone(), &[acc], vec![ir::affine::AffineMap::identity(4)], move |e, a| {
        let v = if max_mode {
            a[0]
        } else {
            let n = e.scalar(count, &f);
            e.div(a[0], n, &f)
        };
        e.cast(v, &f, &sc)
    })])
}
