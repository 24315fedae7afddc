//! Resize (nearest and linear; every coordinate transformation mode) as one
//! gather-like `tensor.generic`: per resized dim, the output index is mapped
//! back to a fractional input coordinate (in f64), then read at the nearest
//! index or blended from the two neighbours, edges replicated as ONNX's
//! reference does.

use super::{Cmp, Emit, Kind, Lower, LowerFn, Sc};
use ir::Value;

pub const TABLE: &[(&str, LowerFn)] = &[("onnx.Resize", resize)];

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
    let xf = e.op("arith.sitofp", &[xi], &t);
    let c = |e: &mut Emit, v: f64| e.float(v, &t);
    let half = c(e, 0.5);
    let scale = c(e, d.scale);
    let hp = |e: &mut Emit| {
        let a = e.op("arith.addf", &[xf, half], &t);
        let b = e.op("arith.divf", &[a, scale], &t);
        e.op("arith.subf", &[b, half], &t)
    };
    match mode {
        "asymmetric" => e.op("arith.divf", &[xf, scale], &t),
        "align_corners" => {
            // ONNX divides by the fractional resized length (scale * in), not the integer one.
            let out_w = d.scale * d.in_len as f64;
            if out_w == 1.0 || d.out_len == 1 {
                c(e, 0.0)
            } else {
                let k = c(e, (d.in_len - 1) as f64 / (out_w - 1.0));
                e.op("arith.mulf", &[xf, k], &t)
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
            e.op("arith.addf", &[offset, h], &t)
        }
        "tf_crop_and_resize" => {
            let (s, en) = d.roi;
            let n = (d.in_len - 1) as f64;
            if d.out_len > 1 {
                let a = c(e, s * n);
                let k = c(e, (en - s) * n / (d.out_len - 1) as f64);
                let m = e.op("arith.mulf", &[xf, k], &t);
                e.op("arith.addf", &[a, m], &t)
            } else {
                c(e, 0.5 * (s + en) * n)
            }
        }
        _ => hp(e),
    }
}

fn clamp_index(e: &mut Emit, v: Value, n: i64) -> Value {
    let it = e.ctx.index();
    let i = e.op("arith.fptosi", &[v], &e.ctx.i64());
    let i = e.index_cast(i, &it, false);
    let zero = e.index(0);
    let hi = e.index(n - 1);
    let i = e.op("arith.maxsi", &[i, zero], &it);
    e.op("arith.minsi", &[i, hi], &it)
}

fn resize(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let r = xi.rank();
    if l.int_attr("antialias", 0) != 0 {
        return Err("Resize with antialias is not supported yet".into());
    }
    let mode = l.str_attr("mode").unwrap_or_else(|| "nearest".into());
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
        let it = e.ctx.index();
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
                let o = e.op("arith.ori", &[lt, gt], &i1);
                outside = Some(match outside {
                    None => o,
                    Some(p) => e.op("arith.ori", &[p, o], &i1),
                });
            }
            if mode == "nearest" {
                let half = e.float(0.5, &f.ty);
                let v = match nearest.as_str() {
                    "floor" => e.op("math.floor", &[xc], &f.ty),
                    "ceil" => e.op("math.ceil", &[xc], &f.ty),
                    "round_prefer_ceil" => {
                        let a = e.op("arith.addf", &[xc, half], &f.ty);
                        e.op("math.floor", &[a], &f.ty)
                    }
                    _ => {
                        let a = e.op("arith.subf", &[xc, half], &f.ty);
                        e.op("math.ceil", &[a], &f.ty)
                    }
                };
                base[i] = clamp_index(e, v, dims[i].in_len);
            } else if mode == "linear" {
                let fl = e.op("math.floor", &[xc], &f.ty);
                let w = e.op("arith.subf", &[xc, fl], &f.ty);
                let lo = clamp_index(e, fl, dims[i].in_len);
                let one = e.float(1.0, &f.ty);
                let f1 = e.op("arith.addf", &[fl, one], &f.ty);
                let hi = clamp_index(e, f1, dims[i].in_len);
                let w0 = e.op("arith.subf", &[one, w], &f.ty);
                lin.push((i, vec![(lo, w0), (hi, w)]));
            } else {
                lin.push((i, cubic_taps(e, xc, dims[i].in_len, cubic_a, exclude_outside, &f)));
            }
        }
        let _ = it;
        let read = |e: &mut Emit, at: &[Value]| -> Value {
            let mut ops = vec![x];
            ops.extend_from_slice(at);
            e.op("tensor.extract", &ops, &xsc.ty)
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
                        Some(p) => e.op("arith.mulf", &[p, wk], &f.ty),
                    });
                }
                let val = read(e, &at);
                let val = e.cast(val, &xsc, &f);
                let term = e.op("arith.mulf", &[val, wprod.unwrap()], &f.ty);
                acc = Some(match acc {
                    None => term,
                    Some(p) => e.op("arith.addf", &[p, term], &f.ty),
                });
            }
            let a = acc.unwrap();
            let a = if sc.is_float() {
                a
            } else {
                // Integers round to nearest, as ONNX Runtime does.
                e.op("math.roundeven", &[a], &f.ty)
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
    let fl = e.op("math.floor", &[xc], &t);
    let r = e.op("arith.subf", &[xc, fl], &t);
    let k = |e: &mut Emit, v: f64| e.float(v, &t);
    // Distances from x to each tap: 1 + r, r, 1 - r, 2 - r.
    let one = k(e, 1.0);
    let two = k(e, 2.0);
    let d0 = e.op("arith.addf", &[one, r], &t);
    let d2 = e.op("arith.subf", &[one, r], &t);
    let d3 = e.op("arith.subf", &[two, r], &t);
    let near = |e: &mut Emit, d: Value| {
        // (a+2)|d|^3 - (a+3)|d|^2 + 1
        let a2 = k(e, a + 2.0);
        let a3 = k(e, a + 3.0);
        let one = k(e, 1.0);
        let x = e.op("arith.mulf", &[a2, d], &t);
        let x = e.op("arith.subf", &[x, a3], &t);
        let x = e.op("arith.mulf", &[x, d], &t);
        let x = e.op("arith.mulf", &[x, d], &t);
        e.op("arith.addf", &[x, one], &t)
    };
    let far = |e: &mut Emit, d: Value| {
        // a|d|^3 - 5a|d|^2 + 8a|d| - 4a
        let av = k(e, a);
        let a5 = k(e, 5.0 * a);
        let a8 = k(e, 8.0 * a);
        let a4 = k(e, 4.0 * a);
        let x = e.op("arith.mulf", &[av, d], &t);
        let x = e.op("arith.subf", &[x, a5], &t);
        let x = e.op("arith.mulf", &[x, d], &t);
        let x = e.op("arith.addf", &[x, a8], &t);
        let x = e.op("arith.mulf", &[x, d], &t);
        e.op("arith.subf", &[x, a4], &t)
    };
    let mut ws = vec![far(e, d0), near(e, r), near(e, d2), far(e, d3)];
    let mut idx = Vec::new();
    let it = e.ctx.index();
    let i64t = e.ctx.i64();
    let base = e.op("arith.fptosi", &[fl], &i64t);
    let base = e.index_cast(base, &it, false);
    let isc = Sc { ty: it.clone(), kind: Kind::Signed };
    for (j, off) in [-1i64, 0, 1, 2].into_iter().enumerate() {
        let o = e.index(off);
        let p = e.op("arith.addi", &[base, o], &it);
        if exclude_outside {
            let zero = e.index(0);
            let nn = e.index(n);
            let ge = e.cmp(Cmp::Ge, p, zero, &isc);
            let lt = e.cmp(Cmp::Lt, p, nn, &isc);
            let inb = e.op("arith.andi", &[ge, lt], &e.ctx.i1());
            let z = k(e, 0.0);
            ws[j] = e.select(inb, ws[j], z);
        }
        let zero = e.index(0);
        let hi = e.index(n - 1);
        let p = e.op("arith.maxsi", &[p, zero], &it);
        idx.push(e.op("arith.minsi", &[p, hi], &it));
    }
    if exclude_outside {
        let s01 = e.op("arith.addf", &[ws[0], ws[1]], &t);
        let s23 = e.op("arith.addf", &[ws[2], ws[3]], &t);
        let sum = e.op("arith.addf", &[s01, s23], &t);
        for w in ws.iter_mut() {
            *w = e.op("arith.divf", &[*w, sum], &t);
        }
    }
    idx.into_iter().zip(ws).collect()
}
