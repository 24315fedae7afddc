//! Sequences, optionals and control flow (If, Loop, Scan, SequenceMap): their
//! rules and the If on a constant condition replaced by its branch.

use crate::ops;
use super::*;

pub(super) const FAMILY: Family = Family::rules(
    "control",
    &["If", "Loop", "Optional", "OptionalGetElement", "OptionalHasElement", "Scan", "SequenceAt", "SequenceConstruct", "SequenceEmpty", "SequenceErase", "SequenceInsert", "SequenceLength", "SequenceMap", "SplitToSequence"],
    infer,
)
.patterns(&[
    ("If", |p| p.add_fn("onnx-if-of-constant", ops::If::NAME, if_of_constant)),
])
.shape_operands(&[
    // The trip count and the first condition: how many rows the scan outputs get.
    ("Loop", &[0, 1]),
    // Which tensors a sequence holds, and so their shapes (`onnx-resolve-sequences`).
    ("SplitToSequence", &[1]),
    ("SequenceAt", &[1]),
    ("SequenceInsert", &[2]),
    ("SequenceErase", &[1]),
]);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "SequenceLength" => one(t(&ctx.i64(), Some(vec![]))),
        "OptionalHasElement" => one(t(&ctx.i1(), Some(vec![]))),
        "SequenceEmpty" => {
            let elem = match int_attr(attr("dtype")) {
                Some(dt) => crate::types::elem_type(ctx, dt as i32).ok()?,
                None => ctx.f32(),
            };
            one(wrap(ctx, "Seq", &t(&elem, None)))
        }
        "SequenceConstruct" => {
            let tys: Vec<Type> = ops.iter().map(|v| body.value_type(*v).clone()).collect();
            one(wrap(ctx, "Seq", &merge(ctx, &tys)?))
        }
        "SequenceInsert" => {
            let inner = unwrap(ctx, body.value_type(*ops.first()?), "Seq")?;
            one(wrap(ctx, "Seq", &merge(ctx, &[inner, body.value_type(*ops.get(1)?).clone()])?))
        }
        "SequenceErase" => one(wrap(ctx, "Seq", &unwrap(ctx, body.value_type(*ops.first()?), "Seq")?)),
        "SequenceAt" => one(unwrap(ctx, body.value_type(*ops.first()?), "Seq")?),
        "SplitToSequence" => one(wrap(ctx, "Seq", &t(&in0()?.elem, None))),
        "Optional" => {
            let inner = match ops.first() {
                Some(v) => body.value_type(*v).clone(),
                None => attr("type")?.as_type()?.clone(),
            };
            one(wrap(ctx, "Opt", &inner))
        }
        "OptionalGetElement" => {
            let ty = body.value_type(*ops.first()?);
            one(unwrap(ctx, ty, "Opt").unwrap_or_else(|| ty.clone()))
        }
        "If" => {
            // Each result is what both branches yield, merged.
            let a = yields(body, op, 0)?;
            let b = yields(body, op, 1)?;
            if a.len() != b.len() {
                return None;
            }
            a.iter().zip(&b).map(|(x, y)| merge_any(ctx, x, y)).collect()
        }
        "SequenceMap" => {
            // One sequence per body result, of what the body yields.
            let y = yields(body, op, 0)?;
            Some(y.iter().map(|t| wrap(ctx, "Seq", t)).collect())
        }
        "Loop" => {
            // Carried values: initial merged with what the body yields; scan outputs gain a leading
            // iteration dim (the trip count, when the loop is known to run exactly that many times).
            let y = yields(body, op, 0)?;
            let n = ops.len().checked_sub(2)?;
            if y.len() < n + 1 {
                return None;
            }
            // An optional carried value may come out as its element (a body that fills it in).
            // An empty sequence carried in takes the type the body gives it (its no elements have any).
            let carried = |i: usize| {
                let init = body.value_type(ops[2 + i]);
                if body.defining_op(ops[2 + i]).is_some_and(|d| body.name(d).as_str() == ops::SequenceEmpty::NAME) && unwrap(ctx, &y[1 + i], "Seq").is_some() {
                    return Some(y[1 + i].clone());
                }
                merge_any(ctx, init, &y[1 + i]).or_else(|| merge_any(ctx, &unwrap(ctx, init, "Opt")?, &y[1 + i]))
            };
            let mut v: Vec<Type> = (0..n).map(carried).collect::<Option<_>>()?;
            let trips = loop_trip_count(body, op).unwrap_or(DYNAMIC);
            for s in &y[1 + n..] {
                let i = info(s)?;
                v.push(t(&i.elem, i.shape.map(|sh| [vec![trips], sh].concat())));
            }
            Some(v)
        }
        "Scan" => {
            // Opset 9+: states then scan inputs; state results as the states, scan outputs stacked
            // along scan_output_axes with the length of the first scan input's scanned axis.
            let y = yields(body, op, 0)?;
            if opset_of(body, op)? < 9 {
                // Opset 8: (sequence_lens, states, scan inputs), all batched: states keep their
                // (batch, ...) shape; scan outputs are (batch, sequence, what the body yields).
                let m = int_attr(attr("num_scan_inputs"))? as usize;
                let n = ops.len().checked_sub(m + 1)?;
                let first = ins.get(1 + n)?.clone()?.shape?;
                if y.len() < n || first.len() < 2 {
                    return None;
                }
                let mut v: Vec<Type> = (0..n).map(|i| body.value_type(ops[1 + i]).clone()).collect();
                for s in &y[n..] {
                    let i = info(s)?;
                    v.push(t(&i.elem, Some([first[..2].to_vec(), i.shape?].concat())));
                }
                return Some(v);
            }
            let m = int_attr(attr("num_scan_inputs"))? as usize;
            let n = ops.len().checked_sub(m)?;
            if y.len() < n {
                return None;
            }
            let first = ins.get(n)?.clone()?.shape?;
            let in_axis = ints_attr(attr("scan_input_axes")).and_then(|a| a.first().copied()).unwrap_or(0);
            let len = *first.get(norm_axis(in_axis, first.len())?)?;
            let out_axes = ints_attr(attr("scan_output_axes")).unwrap_or_default();
            let mut v: Vec<Type> = (0..n).map(|i| merge_any(ctx, body.value_type(ops[i]), &y[i])).collect::<Option<_>>()?;
            for (k, s) in y[n..].iter().enumerate() {
                let i = info(s)?;
                let mut sh = i.shape?;
                let ax = norm_axis(out_axes.get(k).copied().unwrap_or(0), sh.len() + 1)?;
                sh.insert(ax, len);
                v.push(t(&i.elem, Some(sh)));
            }
            Some(v)
        }
        _ => None,
    }
}

/// The branch an If on a constant condition takes: its block, terminator and
/// yielded values, when they fit the If's results (which may be typed more
/// precisely than the branch, from declared value info).
pub fn constant_if_branch(ctx: &ir::Context, body: &ir::Body, op: OpId) -> Result<(ir::Block, OpId, Vec<ir::Value>), &'static str> {
    let cond = crate::infer::const_ints(body, body.op(op).operand(0)).ok_or("the condition is not a constant")?;
    let &c = cond.first().ok_or("an empty condition")?;
    let &region = body.op(op).regions().get(if c != 0 { 0 } else { 1 }).ok_or("no such branch")?;
    let &block = body.region_blocks(region).first().ok_or("an empty branch")?;
    let term = body.last_op(block).ok_or("an empty branch")?;
    let yielded = body.op(term).operands().to_vec();
    let results = body.op(op).results();
    let fits = yielded.len() == results.len() && yielded.iter().zip(results).all(|(y, r)| crate::infer::compatible(ctx, body.value_type(*r), body.value_type(*y)));
    if !fits {
        return Err("the branch yields types less precise than the If's");
    }
    Ok((block, term, yielded))
}

/// An If whose condition is a constant is the branch it takes: the branch's ops
/// move before it and its results become what the branch yields (expanded
/// functions branch on ranks and attribute values that are known at import).
fn if_of_constant(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let (block, term, yielded) = match constant_if_branch(rw.ctx, rw.body, op) {
        Ok(b) => b,
        Err(why) => return rw.match_failure(why),
    };
    rw.erase_op(term);
    rw.inline_block_before(block, op, &[]);
    rw.replace_op(op, &yielded);
    Ok(())
}
