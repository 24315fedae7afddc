//! Type and shape rules of transposes, reshapes, squeezes, concatenations, gathers, expansions and arg-reductions.

use super::*;

/// The operators whose rules live here.
pub(super) const NAMES: &[&str] = &["ArgMax", "ArgMin", "Concat", "ConstantOfShape", "Expand", "Flatten", "Gather", "Reshape", "Squeeze", "Tile", "Transpose", "Unsqueeze"];

#[allow(unused_variables)]
pub(super) fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
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
        _ => None,
    }
}
