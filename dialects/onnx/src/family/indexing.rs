//! Gathers and scatters by index tensors, one-hot encoding and grid sampling.

use super::*;

pub(super) const FAMILY: Family = Family::rules(
    "indexing",
    &["GatherElements", "GatherND", "GridSample", "ScatterElements", "Scatter", "ScatterND", "TensorScatter", "OneHot"],
    infer,
)
.shape_operands(&[
    ("OneHot", &[1]),
]);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "GatherElements" => one(t(&in0()?.elem, ins.get(1)?.clone()?.shape)),
        "GatherND" => {
            let (ds, is) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            let b = int_attr(attr("batch_dims")).unwrap_or(0) as usize;
            let k = *is.last()?;
            if k == DYNAMIC || b + k as usize > ds.len() {
                return None;
            }
            let mut out = is[..is.len() - 1].to_vec();
            out.extend(&ds[b + k as usize..]);
            one(t(&in0()?.elem, Some(out)))
        }
        "GridSample" => {
            let (xs, gs) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            if xs.len() < 3 || gs.len() != xs.len() {
                return None;
            }
            let mut out = vec![xs[0], xs[1]];
            out.extend(&gs[1..gs.len() - 1]);
            one(t(&in0()?.elem, Some(out)))
        }
        "ScatterElements" | "Scatter" | "ScatterND" | "TensorScatter" => same_as_first(ctx, body, op),
        "OneHot" => {
            let idx = in0()?.shape?;
            // Depth may be of any numeric type.
            let depth = const_f64s(body, *ops.get(1)?)?.first().copied()? as i64;
            let vals = ins.get(2)?.clone()?;
            let axis = norm_axis(int_attr(attr("axis")).unwrap_or(-1), idx.len() + 1)?;
            let mut out = idx.clone();
            out.insert(axis, depth);
            one(t(&vals.elem, Some(out)))
        }
        _ => None,
    }
}
