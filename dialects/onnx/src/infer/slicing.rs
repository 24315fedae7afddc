//! Type and shape rules of slices, pads, splits, depth/space moves, ranges and resizes.

use super::*;

/// The operators whose rules live here.
pub(super) const NAMES: &[&str] = &["DepthToSpace", "Pad", "Range", "Resize", "Slice", "SpaceToDepth", "Split", "Upsample"];

#[allow(unused_variables)]
pub(super) fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "Slice" => {
            let x = in0()?;
            let xs = x.shape?;
            let axes = match given(3) {
                Some(v) => const_ints(body, v)?,
                None => (0..body.value_type(*ops.get(1)?).shape()?.first().copied().filter(|n| *n != DYNAMIC)?).collect(),
            };
            let (Some(starts), Some(ends)) = (const_ints(body, *ops.get(1)?), const_ints(body, *ops.get(2)?)) else {
                // Runtime bounds: the sliced axes become unknown, the rank stays.
                let mut out = xs.clone();
                for a in &axes {
                    out[norm_axis(*a, xs.len())?] = DYNAMIC;
                }
                return one(t(&x.elem, Some(out)));
            };
            let steps = match given(4) {
                Some(v) => const_ints(body, v)?,
                None => vec![1; starts.len()],
            };
            let mut out = xs.clone();
            for i in 0..starts.len() {
                let a = norm_axis(*axes.get(i)?, xs.len())?;
                let dim = xs[a];
                if dim == DYNAMIC {
                    out[a] = DYNAMIC;
                    continue;
                }
                let step = *steps.get(i)?;
                if step == 0 {
                    return None;
                }
                let clampi = |v: i64, lo: i64, hi: i64| v.max(lo).min(hi);
                let (mut s, mut e) = (starts[i], *ends.get(i)?);
                if s < 0 {
                    s += dim;
                }
                if e < 0 {
                    e += dim;
                }
                let len = if step > 0 {
                    let (s, e) = (clampi(s, 0, dim), clampi(e, 0, dim));
                    if e > s { (e - s + step - 1) / step } else { 0 }
                } else {
                    let (s, e) = (clampi(s, -1, dim - 1), clampi(e, -1, dim - 1));
                    if s > e { (s - e + (-step) - 1) / (-step) } else { 0 }
                };
                out[a] = len;
            }
            one(t(&x.elem, Some(out)))
        }
        "Pad" => {
            let x = in0()?;
            let xs = x.shape?;
            let pads = ints_operand(1, "pads")??;
            let axes: Vec<usize> = match given(3) {
                Some(v) => const_ints(body, v)?.iter().map(|a| norm_axis(*a, xs.len())).collect::<Option<_>>()?,
                _ => (0..xs.len()).collect(),
            };
            let n = axes.len();
            if pads.len() != 2 * n {
                return None;
            }
            let mut out = xs.clone();
            for (k, a) in axes.iter().enumerate() {
                if out[*a] != DYNAMIC {
                    out[*a] += pads[k] + pads[k + n];
                }
            }
            one(t(&x.elem, Some(out)))
        }
        "Split" => {
            let x = in0()?;
            let xs = x.shape?;
            let axis = norm_axis(int_attr(attr("axis")).unwrap_or(0), xs.len())?;
            let n = d.results().len();
            let sizes: Vec<i64> = match ints_operand(1, "split")? {
                Some(s) => s,
                None => {
                    let dim = xs[axis];
                    if dim == DYNAMIC {
                        vec![DYNAMIC; n]
                    } else {
                        let chunk = (dim + n as i64 - 1) / n as i64;
                        (0..n as i64).map(|i| (dim - i * chunk).clamp(0, chunk)).collect()
                    }
                }
            };
            Some(sizes.iter().map(|s| {
                let mut o = xs.clone();
                o[axis] = *s;
                t(&x.elem, Some(o))
            }).collect())
        }
        "DepthToSpace" | "SpaceToDepth" => {
            let xs = in0()?.shape?;
            let b = int_attr(attr("blocksize"))?;
            if xs.len() != 4 || xs.contains(&DYNAMIC) {
                return None;
            }
            let out = if name == "DepthToSpace" { vec![xs[0], xs[1] / (b * b), xs[2] * b, xs[3] * b] } else { vec![xs[0], xs[1] * b * b, xs[2] / b, xs[3] / b] };
            one(t(&in0()?.elem, Some(out)))
        }
        "Range" => {
            let vals: Vec<f64> = ops.iter().map(|v| const_f64s(body, *v).and_then(|x| x.first().copied())).collect::<Option<_>>()?;
            let (s, l, dlt) = (vals[0], vals[1], vals[2]);
            if dlt == 0.0 || !((l - s) / dlt).is_finite() {
                return None;
            }
            one(t(&in0()?.elem, Some(vec![(((l - s) / dlt).ceil() as i64).max(0)])))
        }
        "Resize" | "Upsample" => {
            // sizes if given (per keep_aspect_ratio_policy), else floor(dim × scale), over `axes` or all.
            let x = in0()?;
            let xs = x.shape?;
            // An empty scales or sizes tensor means "not given" as well.
            let nonempty = |i: usize| given(i).filter(|v| body.value_type(*v).num_elements() != Some(0));
            let axes: Vec<usize> = match ints_attr(attr("axes")) {
                Some(a) => a.iter().map(|a| norm_axis(*a, xs.len())).collect::<Option<_>>()?,
                None => (0..xs.len()).collect(),
            };
            let mut out = xs.clone();
            let (scales_at, sizes_at) = if name == "Upsample" { (1, usize::MAX) } else { (2, 3) };
            if let Some(v) = nonempty(sizes_at) {
                let sizes = const_ints(body, v)?;
                if sizes.len() != axes.len() {
                    return None;
                }
                let policy = attr("keep_aspect_ratio_policy").and_then(|a| a.as_str()).unwrap_or("stretch");
                if policy == "stretch" {
                    for (a, n) in axes.iter().zip(&sizes) {
                        out[*a] = *n;
                    }
                } else {
                    if axes.iter().any(|a| xs[*a] == DYNAMIC) {
                        return None;
                    }
                    let ratios = axes.iter().zip(&sizes).map(|(a, n)| *n as f64 / xs[*a] as f64);
                    let r = if policy == "not_larger" { ratios.fold(f64::INFINITY, f64::min) } else { ratios.fold(0.0, f64::max) };
                    for a in &axes {
                        out[*a] = (r * xs[*a] as f64).round() as i64;
                    }
                }
            } else {
                let scales = match nonempty(scales_at) {
                    Some(v) => const_f64s(body, v)?,
                    None => return None,
                };
                if scales.len() != axes.len() {
                    return None;
                }
                for (a, sc) in axes.iter().zip(&scales) {
                    out[*a] = if xs[*a] == DYNAMIC { DYNAMIC } else { (xs[*a] as f64 * sc).floor() as i64 };
                }
            }
            one(t(&x.elem, Some(out)))
        }
        _ => None,
    }
}
