//! Reductions over axes (ReduceSum … ReduceSumSquare) and TopK.

use super::*;

pub(super) const FAMILY: Family = Family::rules(
    "reduce",
    &[
        "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare",
        "TopK",
    ],
    infer,
)
// The axes, and TopK's k.
.shape_operands(&[
    ("ReduceSum", &[1]),
    ("ReduceMean", &[1]),
    ("ReduceMax", &[1]),
    ("ReduceMin", &[1]),
    ("ReduceProd", &[1]),
    ("ReduceL1", &[1]),
    ("ReduceL2", &[1]),
    ("ReduceLogSum", &[1]),
    ("ReduceLogSumExp", &[1]),
    ("ReduceSumSquare", &[1]),
    ("TopK", &[1]),
]);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "TopK" => {
            let x = in0()?;
            let mut xs = x.shape?;
            let k = const_ints(body, *ops.get(1)?)?.first().copied()?;
            let axis = norm_axis(int_attr(attr("axis")).unwrap_or(-1), xs.len())?;
            xs[axis] = k;
            Some(vec![t(&x.elem, Some(xs.clone())), t(&ctx.i64(), Some(xs))])
        }
        _ => {
            let x = in0()?;
            let xs = x.shape?;
            let keep = int_attr(attr("keepdims")).unwrap_or(1) != 0;
            let Some(axes) = reduce_axes(body, op, xs.len())? else { return one(t(&x.elem, Some(xs))) };
            let mut out = vec![];
            for (i, d) in xs.iter().enumerate() {
                if axes.contains(&i) {
                    if keep {
                        out.push(1);
                    }
                } else {
                    out.push(*d);
                }
            }
            one(t(&x.elem, Some(out)))
        }
    }
}
