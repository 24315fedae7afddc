//! Type and shape rules of gathers by index tensors and grid sampling.

use super::*;

/// The operators whose rules live here.
pub(super) const NAMES: &[&str] = &["GatherElements", "GatherND", "GridSample"];

#[allow(unused_variables)]
pub(super) fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
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
        _ => None,
    }
}
