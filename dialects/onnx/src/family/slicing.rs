//! Slices, pads, splits, depth/space moves, ranges and resizes: their rules
//! and the folders of constant slices, splits and ranges.

use super::*;

pub(super) const FAMILY: Family = Family::rules(
    "slicing",
    &["DepthToSpace", "Pad", "Range", "Resize", "Slice", "SpaceToDepth", "Split", "Upsample"],
    infer,
)
.folds(&[
    ("Split", fold_split),
    ("Slice", fold_slice),
    ("Range", fold_range),
])
.shape_operands(&[
    ("Slice", &[1, 2, 3, 4]),
    ("Pad", &[1, 3]),
    ("Range", &[0, 1, 2]),
    ("Split", &[1]),
    ("Resize", &[2, 3]),
    ("Upsample", &[1]),
]);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
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

/// Slice of a constant along any axes with any steps (shape vectors, the pads
/// tables PyTorch exports reverse with a step of -1, float tables).
fn fold_slice(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let data = operand_raw(x, 0)?;
    let shape = data.shape.clone();
    let rank = shape.len();
    let d = x.body.op(x.op);
    let ints = |i: usize| operand_any_ints(x, i).map(|(v, _)| v);
    let (starts, ends) = (ints(1)?, ints(2)?);
    let given = |i: usize| d.operands().get(i).is_some_and(|v| !matches!(x.body.value_type(*v).data(), TypeData::None));
    let axes = if given(3) { ints(3)? } else { (0..starts.len() as i64).collect() };
    let steps = if given(4) { ints(4)? } else { vec![1; starts.len()] };
    if rank == 0 || ends.len() != starts.len() || axes.len() != starts.len() || steps.len() != starts.len() {
        return None;
    }
    // Per dim: the indices it keeps, in order (ONNX's clamping rules).
    let mut keep: Vec<Vec<i64>> = shape.iter().map(|&n| (0..n).collect()).collect();
    for k in 0..starts.len() {
        let a = if axes[k] < 0 { axes[k] + rank as i64 } else { axes[k] };
        if !(0..rank as i64).contains(&a) || steps[k] == 0 {
            return None;
        }
        let n = shape[a as usize];
        let (mut s, mut e, step) = (starts[k], ends[k], steps[k]);
        if s < 0 {
            s = s.saturating_add(n);
        }
        if e < 0 {
            e = e.saturating_add(n);
        }
        let mut idx = vec![];
        if step > 0 {
            let (mut i, e) = (s.clamp(0, n), e.clamp(0, n));
            while i < e {
                idx.push(i);
                i = i.saturating_add(step);
            }
        } else {
            let (mut i, e) = (s.clamp(-1, n - 1), e.clamp(-1, n - 1));
            while i > e {
                idx.push(i);
                i = i.saturating_add(step);
            }
        }
        keep[a as usize] = idx;
    }
    let out_shape: Vec<i64> = keep.iter().map(|k| k.len() as i64).collect();
    let idx = source_indices(&shape, &out_shape, |i, c| Some((i, keep[i][c as usize])))?;
    raw_tensor(x, data.pick(&idx), data.width, out_shape, data.elem.clone())
}

/// Split of a 1-D integer constant into results of known lengths (expanded
/// functions take a shape vector apart this way).
fn fold_split(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let data = operand_ints(x, 0)?;
    let d = x.body.op(x.op);
    let lens: Vec<usize> = d.results().iter().map(|r| match x.body.value_type(*r).shape()? {
        [n] if *n >= 0 => Some(*n as usize),
        _ => None,
    }).collect::<Option<_>>()?;
    if operand_shape(x, 0)?.len() != 1 || lens.iter().sum::<usize>() != data.len() {
        return None;
    }
    let mut at = 0;
    lens.iter()
        .map(|&n| {
            let part = &data[at..at + n];
            at += n;
            i64_tensor(x, part, vec![n as i64]).map(|mut v| v.remove(0))
        })
        .collect()
}

/// Range with constant bounds: integers exactly; floats as the CPU lowering
/// computes them (start + i·delta, each operation rounded to the type), to a
/// static result length.
fn fold_range(x: &FoldInput) -> Option<Vec<FoldResult>> {
    if result_type(x).scalar().float_kind().is_some() {
        let n = result_type(x).shape().filter(|s| s.len() == 1 && s[0] >= 0)?[0] as usize;
        let (s, d) = (*operand_f64s(x, 0)?.first()?, *operand_f64s(x, 2)?.first()?);
        if n > MAX_FOLD {
            return None;
        }
        let vals: Vec<f64> = if result_type(x).scalar() == &x.ctx.f32() {
            (0..n).map(|i| (s as f32 + i as f32 * d as f32) as f64).collect()
        } else if result_type(x).scalar() == &x.ctx.f64() {
            (0..n).map(|i| s + i as f64 * d).collect()
        } else {
            return None;
        };
        return typed_tensor(x, &vals, vec![n as i64]);
    }
    let (s, l, d) = (*operand_ints(x, 0)?.first()?, *operand_ints(x, 1)?.first()?, *operand_ints(x, 2)?.first()?);
    if d == 0 {
        return None;
    }
    let n = ((l - s) as f64 / d as f64).ceil().max(0.0) as usize;
    if n > MAX_FOLD {
        return None;
    }
    let vals: Vec<i64> = (0..n as i64).map(|i| s + i * d).collect();
    i64_tensor(x, &vals, vec![n as i64])
}
