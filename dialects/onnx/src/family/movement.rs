//! Transposes, reshapes, squeezes, concatenations, gathers, expansions,
//! tiles, arg-reductions and shape queries: their rules, the folders of the
//! shape chains exporters emit, and the transpose and Flatten patterns.

use super::*;

pub(super) const FAMILY: Family = Family::rules(
    "movement",
    &["ArgMax", "ArgMin", "Concat", "ConstantOfShape", "Expand", "Flatten", "Gather", "Reshape", "Squeeze", "Tile", "Transpose", "Unsqueeze", "Shape", "Size", "ReverseSequence"],
    infer,
)
.folds(&[
    ("Shape", fold_shape),
    ("Size", fold_size),
    ("Gather", fold_gather),
    ("Unsqueeze", fold_reshape_like),
    ("Squeeze", fold_reshape_like),
    ("Reshape", fold_reshape_like),
    ("Flatten", fold_reshape_like),
    ("Concat", fold_concat),
    ("Transpose", fold_transpose),
    ("ConstantOfShape", fold_constant_of_shape),
    ("Expand", fold_expand),
])
.patterns(&[
    ("Transpose", |p| {
        p.add_fn("onnx-transpose-of-transpose", ops::Transpose::NAME, transpose_of_transpose);
        p.add_fn("onnx-transpose-of-constant", ops::Transpose::NAME, transpose_of_constant);
    }),
    ("Reshape", |p| p.add_fn("onnx-row-op-through-flatten", ops::Reshape::NAME, row_op_through_flatten)),
])
.shape_operands(&[
    ("Reshape", &[1]),
    ("Expand", &[1]),
    ("Tile", &[1]),
    ("Squeeze", &[1]),
    ("Unsqueeze", &[1]),
    ("ConstantOfShape", &[0]),
]);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "Transpose" => {
            let x = in0()?.shape?;
            let perm = ints_attr(attr("perm")).unwrap_or_else(|| (0..x.len() as i64).rev().collect());
            one(t(&in0()?.elem, Some(perm.iter().map(|p| x.get(*p as usize).copied()).collect::<Option<_>>()?)))
        }
        "Flatten" => {
            let x = in0()?.shape?;
            // The axis may be rank itself (everything in the first factor); negative counts from rank.
            let a = int_attr(attr("axis")).unwrap_or(1);
            let axis = usize::try_from(if a < 0 { a + x.len() as i64 } else { a }).ok().filter(|a| *a <= x.len())?;
            let prod = |s: &[i64]| if s.contains(&DYNAMIC) { DYNAMIC } else { s.iter().product() };
            one(t(&in0()?.elem, Some(vec![prod(&x[..axis]), prod(&x[axis..])])))
        }
        "Reshape" => {
            let x = in0()?;
            let target = const_ints(body, *ops.get(1)?)?;
            let allowzero = int_attr(attr("allowzero")).unwrap_or(0) != 0;
            // A shape ONNX refuses (a dim below -1, two -1s) infers nothing; the lowering says why.
            if target.iter().any(|s| *s < -1) || target.iter().filter(|s| **s == -1).count() > 1 {
                return None;
            }
            let mut out: Vec<i64> = vec![];
            for (i, &s) in target.iter().enumerate() {
                out.push(if s == 0 && !allowzero { *x.shape.as_ref()?.get(i)? } else { s });
            }
            if let Some(k) = out.iter().position(|s| *s == -1) {
                let known: Vec<i64> = out.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, s)| *s).collect();
                let total = x.shape.as_ref().filter(|s| !s.contains(&DYNAMIC)).map(|s| s.iter().product::<i64>());
                out[k] = match total {
                    Some(tot) if !known.contains(&DYNAMIC) && known.iter().product::<i64>() != 0 => {
                        let rest = known.iter().product::<i64>();
                        if tot % rest != 0 {
                            return None;
                        }
                        tot / rest
                    }
                    _ => DYNAMIC,
                };
            }
            one(t(&x.elem, Some(out)))
        }
        "Squeeze" | "Unsqueeze" => {
            let x = in0()?;
            let shape = x.shape?;
            let axes = ints_operand(1, "axes")?;
            if name == "Squeeze" {
                let out: Vec<i64> = match axes {
                    Some(a) => {
                        let a: Vec<usize> = a.iter().map(|x| norm_axis(*x, shape.len())).collect::<Option<_>>()?;
                        shape.iter().enumerate().filter(|(i, _)| !a.contains(i)).map(|(_, d)| *d).collect()
                    }
                    None => {
                        if shape.contains(&DYNAMIC) {
                            return None;
                        }
                        shape.iter().copied().filter(|d| *d != 1).collect()
                    }
                };
                one(t(&x.elem, Some(out)))
            } else {
                let axes = axes?;
                let rank = shape.len() + axes.len();
                let mut a: Vec<usize> = axes.iter().map(|x| norm_axis(*x, rank)).collect::<Option<_>>()?;
                a.sort();
                let mut out = shape.clone();
                for ax in a {
                    out.insert(ax.min(out.len()), 1);
                }
                one(t(&x.elem, Some(out)))
            }
        }
        "Concat" => {
            let infos: Vec<Info> = ins.iter().cloned().collect::<Option<_>>()?;
            let shapes: Vec<Vec<i64>> = infos.iter().map(|i| i.shape.clone()).collect::<Option<_>>()?;
            let rank = shapes.first()?.len();
            let axis = norm_axis(int_attr(attr("axis"))?, rank)?;
            let mut out = shapes[0].clone();
            out[axis] = shapes.iter().map(|s| s.get(axis).copied().unwrap_or(DYNAMIC)).try_fold(0i64, |a, d| if d == DYNAMIC { None } else { Some(a + d) }).unwrap_or(DYNAMIC);
            one(t(&infos[0].elem, Some(out)))
        }
        "Gather" => {
            let (x, idx) = (in0()?, ins.get(1)?.clone()?);
            let (xs, is) = (x.shape?, idx.shape?);
            let axis = norm_axis(int_attr(attr("axis")).unwrap_or(0), xs.len())?;
            let mut out = xs[..axis].to_vec();
            out.extend(is);
            out.extend(&xs[axis + 1..]);
            one(t(&x.elem, Some(out)))
        }
        "Expand" => {
            let x = in0()?;
            let target = const_ints(body, *ops.get(1)?)?;
            one(t(&x.elem, broadcast(&[x.shape, Some(target)])))
        }
        "Tile" => {
            let x = in0()?;
            let reps = const_ints(body, *ops.get(1)?)?;
            let xs = x.shape?;
            one(t(&x.elem, Some(xs.iter().zip(&reps).map(|(a, r)| if *a == DYNAMIC { DYNAMIC } else { a * r }).collect())))
        }
        "ConstantOfShape" => {
            let shape = const_ints(body, *ops.first()?)?;
            let elem = attr("value").and_then(|a| a.typ()).map(|t| t.scalar().clone()).unwrap_or_else(|| ctx.f32());
            one(t(&elem, Some(shape)))
        }
        "ArgMax" | "ArgMin" => {
            let xs = in0()?.shape?;
            let axis = norm_axis(int_attr(attr("axis")).unwrap_or(0), xs.len())?;
            let keep = int_attr(attr("keepdims")).unwrap_or(1) != 0;
            let mut out = xs.clone();
            if keep { out[axis] = 1 } else { out.remove(axis); }
            one(t(&ctx.i64(), Some(out)))
        }
        "Shape" => {
            let r = in0()?.shape?.len() as i64;
            let clamp = |x: i64| if x < 0 { (x + r).max(0) } else { x.min(r) };
            let start = clamp(int_attr(attr("start")).unwrap_or(0));
            let end = clamp(int_attr(attr("end")).unwrap_or(r));
            one(t(&ctx.i64(), Some(vec![(end - start).max(0)])))
        }
        "Size" => one(t(&ctx.i64(), Some(vec![]))),
        "ReverseSequence" => same_as_first(ctx, body, op),
        _ => None,
    }
}

fn fold_shape(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let s = operand_shape(x, 0)?;
    if s.contains(&DYNAMIC) {
        return None;
    }
    let r = s.len() as i64;
    let clamp = |v: i64| if v < 0 { (v + r).max(0) } else { v.min(r) };
    let d = x.body.op(x.op);
    let start = clamp(d.properties.get("start").and_then(|a| a.as_int()).unwrap_or(0) as i64) as usize;
    let end = clamp(d.properties.get("end").and_then(|a| a.as_int()).map(|v| v as i64).unwrap_or(r)) as usize;
    let vals = s[start..end.max(start)].to_vec();
    let n = vals.len() as i64;
    i64_tensor(x, &vals, vec![n])
}

/// Size of a statically shaped tensor.
fn fold_size(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let s = operand_shape(x, 0)?;
    if s.contains(&DYNAMIC) || result_type(x).shape() != Some(&[][..]) {
        return None;
    }
    i64_tensor(x, &[s.iter().product()], vec![])
}

fn fold_gather(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let (data, elem) = operand_any_ints(x, 0)?;
    let (idx, _) = operand_any_ints(x, 1)?;
    let (ds, is) = (operand_shape(x, 0)?, operand_shape(x, 1)?);
    if ds.len() != 1 {
        return None;
    }
    let n = data.len() as i64;
    let vals: Vec<i64> = idx.iter().map(|i| data.get((if *i < 0 { i + n } else { *i }) as usize).copied()).collect::<Option<_>>()?;
    int_tensor(x, &vals, is, &elem)
}

/// Unsqueeze, Squeeze, Reshape, Flatten of a constant: the same stored bytes
/// (shared, not copied) under the new static type, whatever the element type.
fn fold_reshape_like(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let rt = result_type(x);
    let shape = rt.shape()?.to_vec();
    if shape.contains(&DYNAMIC) {
        return None;
    }
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem: rt.scalar().clone(), encoding: None });
    let same_count = |t: &Type| t.num_elements() == ty.num_elements();
    let a = match x.constants.first()?.as_ref()?.data() {
        AttrData::Dense { ty: t, data } if same_count(t) => AttrData::Dense { ty, data: data.clone() },
        AttrData::DenseResource { ty: t, resource } if same_count(t) => AttrData::DenseResource { ty, resource: resource.clone() },
        _ => return None,
    };
    Some(vec![FoldResult::Attr(Attribute::new(a))])
}

/// Concat of constants of one element type along any axis (shape vectors,
/// which tf2onnx builds in int32; an anchor grid's coordinates).
fn fold_concat(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let d = x.body.op(x.op);
    let parts: Vec<Raw> = (0..d.operands().len()).map(|i| operand_raw(x, i)).collect::<Option<_>>()?;
    let first = parts.first()?;
    let rank = first.shape.len() as i64;
    let axis = d.attr("axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
    let axis = if axis < 0 { axis + rank } else { axis };
    let axis_u = axis as usize;
    let same_but_axis = |p: &Raw| p.shape.len() == first.shape.len() && (0..first.shape.len()).all(|d| d == axis_u || p.shape[d] == first.shape[d]);
    if !(0..rank).contains(&axis) || parts.iter().any(|p| p.elem != first.elem || !same_but_axis(p)) {
        return None;
    }
    let axis = axis_u;
    let mut shape = first.shape.clone();
    shape[axis] = parts.iter().map(|p| p.shape[axis]).sum();
    if shape.iter().product::<i64>() as usize > MAX_FOLD {
        return None;
    }
    // Each part contributes one run of its inner block per outer index.
    let outer: i64 = first.shape[..axis].iter().product();
    let mut bytes = Vec::with_capacity(shape.iter().product::<i64>() as usize * first.width);
    for o in 0..outer as usize {
        for p in &parts {
            let run = p.shape[axis..].iter().product::<i64>() as usize * p.width;
            bytes.extend_from_slice(&p.bytes[o * run..(o + 1) * run]);
        }
    }
    raw_tensor(x, bytes, first.width, shape, first.elem.clone())
}

/// Expand of a constant to a static result shape (numpy broadcasting).
fn fold_expand(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let data = operand_raw(x, 0)?;
    let out = result_type(x).shape().filter(|s| !s.contains(&DYNAMIC))?.to_vec();
    if out.iter().product::<i64>() as usize > MAX_FOLD {
        return None;
    }
    let idx = broadcast_indices(&data.shape, &out)?;
    raw_tensor(x, data.pick(&idx), data.width, out, data.elem.clone())
}

/// Transpose of a constant (pads tables, shape tables, float tables).
fn fold_transpose(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let data = operand_raw(x, 0)?;
    let shape = data.shape.clone();
    let rank = shape.len();
    let perm: Vec<usize> = match x.body.op(x.op).attr("perm") {
        Some(a) => crate::infer::ints_attr(Some(a))?.iter().map(|&p| p as usize).collect(),
        None => (0..rank).rev().collect(),
    };
    if perm.len() != rank || (0..rank).any(|i| !perm.contains(&i)) {
        return None;
    }
    let out_shape: Vec<i64> = perm.iter().map(|&p| shape[p]).collect();
    let idx = source_indices(&shape, &out_shape, |i, c| Some((perm[i], c)))?;
    raw_tensor(x, data.pick(&idx), data.width, out_shape, data.elem.clone())
}

/// ConstantOfShape with a constant shape: a splat of its value (splats are stored once).
fn fold_constant_of_shape(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let ty = result_type(x);
    if ty.shape().is_none_or(|s| s.contains(&DYNAMIC)) {
        return None;
    }
    let n = ty.num_elements()?;
    let d = x.body.op(x.op);
    // The value is a one-element tensor, so its bytes are exactly one element.
    let one: std::sync::Arc<[u8]> = match d.properties.get("value").map(|a| a.data()) {
        Some(AttrData::Dense { data, ty: vty }) if vty.scalar() == ty.scalar() && vty.num_elements() == Some(1) => data.bytes.clone(),
        None if ty.scalar() == &x.ctx.f32() => std::sync::Arc::from(&0f32.to_le_bytes()[..]),
        _ => return None,
    };
    let data = if n == 0 { DenseData { bytes: std::sync::Arc::from(&[][..]), splat: false } } else { DenseData { bytes: one, splat: true } };
    Some(vec![FoldResult::Attr(Attribute::new(AttrData::Dense { ty, data }))])
}

/// Transpose(Transpose(x, p1), p2) → Transpose(x, p1∘p2), or x when that is the identity:
/// layout changes inserted around each NHWC op cancel along a chain.
fn transpose_of_transpose(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let inner = match rw.body.defining_op(rw.body.op(op).operand(0)) {
        Some(d) if rw.body.name(d).as_str() == ops::Transpose::NAME => d,
        _ => return rw.match_failure("input is not a Transpose"),
    };
    let (Some(p1), Some(p2)) = (crate::infer::transpose_perm(rw.body, inner), crate::infer::transpose_perm(rw.body, op)) else { return rw.match_failure("unknown permutation") };
    let q: Vec<usize> = p2.iter().map(|&i| p1[i]).collect();
    let x = rw.body.op(inner).operand(0);
    if q.iter().enumerate().all(|(i, v)| i == *v) {
        if rw.body.value_type(x) != rw.body.value_type(rw.body.op(op).result(0)) {
            return rw.match_failure("types differ");
        }
        rw.replace_op(op, &[x]);
        return Ok(());
    }
    let perm = Attribute::new(AttrData::DenseArray { elem: rw.ctx.i64(), data: ir::attributes::ArrayData::Int(q.iter().map(|v| *v as i64).collect()) });
    let perm_id = rw.ctx.ident("perm");
    rw.modify_in_place(op, |b| {
        b.set_operand(op, 0, x);
        b.op_mut(op).properties.set(perm_id, perm);
    });
    Ok(())
}

/// Transpose of a constant: the constant, transposed (weights reach the NPU in its layout).
fn transpose_of_constant(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let c = match rw.body.defining_op(rw.body.op(op).operand(0)) {
        Some(d) if rw.body.name(d).as_str() == ops::Constant::NAME => d,
        _ => return rw.match_failure("input is not a constant"),
    };
    let Some(perm) = crate::infer::transpose_perm(rw.body, op) else { return rw.match_failure("unknown permutation") };
    let rt = rw.body.value_type(rw.body.op(op).result(0)).clone();
    let Some(a) = rw.body.op(c).properties.get("value") else { return rw.match_failure("no value") };
    if rt.shape().is_none_or(|s| s.iter().any(|d| *d < 0)) {
        return rw.match_failure("result shape unknown");
    }
    let name = format!("transposed_{}", rw.body.op_capacity());
    let Some(attr) = ir::attributes::transposed(rw.ctx, a, &perm, &name) else {
        return rw.match_failure("not a static elements attribute with its data");
    };
    let nty = attr.typ().cloned().unwrap();
    // A declared type that contradicts the permutation (a Transpose whose
    // `perm` is misspelled, so all dims reverse) is the verifier's to report.
    if nty.shape() != rt.shape() {
        return rw.match_failure("the declared result shape is not the permuted one");
    }
    let loc = rw.body.op(op).loc.clone();
    rw.set_insertion_point(ir::InsertPoint::Before(op));
    let st = OperationState::new(rw.ctx.op_name(ops::Constant::NAME), loc).property(rw.ctx.ident("value"), attr).results(&[nty]);
    let v = rw.create_value(st);
    rw.replace_op(op, &[v]);
    Ok(())
}

/// Reshape(Softmax(Flatten(x, axis = rank − 1)), shape of x) → Softmax(x,
/// axis = −1), as for LogSoftmax and Hardmax: the importer's form of such an
/// op before opset 13 whose axis, once shapes are known, is the last one.
fn row_op_through_flatten(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let b = &*rw.body;
    let y = b.op(op).operand(0);
    let Some(s) = b.defining_op(y).filter(|s| matches!(b.name(*s).as_str(), ops::Softmax::NAME | ops::LogSoftmax::NAME | ops::Hardmax::NAME)) else {
        return rw.match_failure("not a Softmax, LogSoftmax or Hardmax");
    };
    let Some(f) = b.defining_op(b.op(s).operand(0)).filter(|f| b.name(*f).as_str() == ops::Flatten::NAME) else {
        return rw.match_failure("its input is not a Flatten");
    };
    let x = b.op(f).operand(0);
    let (Some(xs), Some(ys)) = (b.value_type(x).shape(), b.value_type(b.op(op).result(0)).shape()) else { return rw.match_failure("unranked") };
    let r = xs.len() as i64;
    let int = |o: OpId, d: i64| b.op(o).int_attr("axis").unwrap_or(d);
    let flat_axis = int(f, 1);
    let last = flat_axis == r - 1 || (flat_axis == -1 && r >= 1);
    if !last || !matches!(int(s, -1), -1 | 1) || xs != ys || xs.iter().any(|d| *d < 0) || b.uses(y).len() != 1 || b.uses(b.op(f).result(0)).len() != 1 {
        return rw.match_failure("not over the last axis of the reshaped tensor");
    }
    let (name, loc, ty) = (b.name(s).clone(), b.op(s).loc.clone(), b.value_type(x).clone());
    let axis = Attribute::integer(-1, rw.ctx.i64());
    let st = OperationState::new(name, loc).operands(&[x]).results(&[ty]).property(rw.ctx.ident("axis"), axis);
    let v = rw.create_value(st);
    rw.replace_op(op, &[v]);
    Ok(())
}
