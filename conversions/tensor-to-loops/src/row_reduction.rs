//! Reductions along the inputs' last dim (a Softmax's max and sum of exps, a
//! LayerNorm's moments, ReduceMax over the last axis): the vector path runs
//! along the output's last dim, which such a reduction has not (it is the
//! reduced one), so its rows ran as scalar chains, an exp a libm call per
//! element (a transformer block's Softmax over [4, 128, 128]: 0.40 ms, ONNX
//! Runtime's 0.03). Here each output element's reduction loop `k` runs 16
//! lanes at a time: the body on vectors, its result combined into a vector of
//! 16 partial results (lanes past the row keep theirs), then those 16 reduced
//! to one and combined with the output's value. Only f32, one reduction loop
//! that the reading inputs walk at unit stride along their last dim, and a
//! body that ends in `acc ⊕ v` with ⊕ an add, a multiply, a maximum or a
//! minimum (so the partial results may be combined in any order).

use super::vectorize::{clone_vectorized, coefficient, lane_elem, splat, uses_dim, vec_type, vectorizable, zeros, LANES};
use super::B;
use ir::attributes::{AttrData, Attribute};
use ir::{Body, Context, InsertPoint, OpId};
use tensor::{Generic, Iterator};

pub struct Plan {
    k: usize,
    /// The body's combining op (`acc ⊕ v`, its result yielded).
    combine: OpId,
}

/// The combining op's vector reduction kind and its identity.
fn kind_of(name: &str) -> Option<(&'static str, f32)> {
    match name {
        arith::ops::ADDF => Some(("add", -0.0)),
        arith::ops::MULF => Some(("mul", 1.0)),
        arith::ops::MAXIMUMF => Some(("maximumf", f32::NEG_INFINITY)),
        arith::ops::MINIMUMF => Some(("minimumf", f32::INFINITY)),
        _ => None,
    }
}

/// Rows shorter than this stay scalar: fewer than one vector.
const MIN_ROW: i64 = LANES;

pub fn plan(ctx: &Context, body: &Body, op: OpId) -> Option<Plan> {
    let g = Generic::new(body, op);
    let (ins, outs) = (g.inputs(), g.outputs());
    if outs.len() != 1 || g.epilogue().is_some() || !ins.iter().chain(outs).all(|v| lane_elem(body.value_type(*v)) == Some(ctx.f32())) {
        return None;
    }
    let (maps, iters, sizes) = (g.maps(), g.iterators(), g.loop_sizes());
    let reds: Vec<usize> = (0..iters.len()).filter(|&l| iters[l] == Iterator::Reduction).collect();
    let [k] = reds[..] else { return None };
    if sizes[k]? < MIN_ROW || maps[ins.len()].results.iter().any(|e| uses_dim(e, k)) {
        return None;
    }
    // Inputs that read along k do so at unit stride along their last dim, and
    // at least one does.
    let mut along = false;
    for m in &maps[..ins.len()] {
        let (last, rest) = m.results.split_last()?;
        if rest.iter().any(|e| uses_dim(e, k)) {
            return None;
        }
        match coefficient(last, k)? {
            0 => {}
            1 => along = true,
            _ => return None,
        }
    }
    let block = g.block();
    if !along || !body.block_ops(block).all(|o| vectorizable(body.name(o).as_str())) {
        return None;
    }
    // `yield (acc ⊕ v)`, the accumulator used there only.
    let acc = *body.block_args(block).last()?;
    let y = body.block_ops(block).last()?;
    let combine = body.defining_op(*body.op(y).operands().first()?)?;
    let operands = body.op(combine).operands();
    if kind_of(body.name(combine).as_str()).is_none() || operands.len() != 2 || operands.iter().filter(|v| **v == acc).count() != 1 || body.uses(acc).len() != 1 || body.op(combine).parent_block() != Some(block) {
        return None;
    }
    Some(Plan { k, combine })
}

pub fn lower(b: &B, body: &mut Body, op: OpId, p: &Plan, sizes: &[i64]) {
    let ctx = b.ctx;
    let g = Generic::new(body, op);
    let (ins, out) = (g.inputs().to_vec(), g.outputs()[0]);
    let (maps, iters, block) = (g.maps(), g.iterators(), g.block());
    let n = sizes.len();
    let (kind, identity) = kind_of(body.name(p.combine).as_str()).expect("planned");
    let combine_name = body.name(p.combine).as_str().to_string();
    let f32t = ctx.f32();
    let vt = vec_type(ctx, &f32t);
    let mt = vec_type(ctx, &ctx.i1());
    let mut at = InsertPoint::Before(op);
    let zero = zeros(b, body, &mut at, &f32t);
    let start = splat(b, body, &mut at, &f32t, &identity.to_le_bytes());
    // The other loops (all parallel), outermost first; the outermost may run in parallel.
    let mut ivs = vec![None; n];
    let mut top = None;
    for l in (0..n).filter(|&l| l != p.k) {
        if sizes[l] == 1 {
            ivs[l] = Some(b.index(body, &mut at, 0));
            continue;
        }
        let (fop, blk, iv, _) = b.for_loop(body, &mut at, sizes[l], &[]);
        top.get_or_insert((fop, l));
        b.yield_(body, blk, &[]);
        ivs[l] = Some(iv);
        at = InsertPoint::Before(body.last_op(blk).unwrap());
    }
    if let Some((fop, l)) = top {
        if super::parallel_safe(body, op, &ins, &[out], &maps, &iters, l) {
            super::mark_parallel(ctx, body, fop);
        }
    }
    // The row, 16 lanes a step, the partial results carried.
    let (lb, ub, st) = (b.index(body, &mut at, 0), b.index(body, &mut at, sizes[p.k]), b.index(body, &mut at, LANES));
    let (kop, kblock, k0, carried) = b.for_step(body, &mut at, lb, ub, st, &[start]);
    let mut atk = InsertPoint::AtEnd(kblock);
    let rem = b.bin(body, &mut atk, arith::ops::SUBI, ub, k0);
    let mask = b.op(body, &mut atk, vector::ops::CREATE_MASK, &[rem], &[mt], &[]);
    let mask = body.op(mask).result(0);
    // (k is the one loop without an index yet.)
    let kivs: Vec<_> = ivs.iter().map(|v| v.unwrap_or(k0)).collect();
    let mut args = Vec::new();
    for (v, m) in ins.iter().zip(&maps) {
        let mut ops = vec![*v];
        ops.extend(m.results.iter().map(|e| b.expr(body, &mut atk, e, &kivs)).collect::<Vec<_>>());
        let x = if m.results.last().is_some_and(|e| uses_dim(e, p.k)) {
            ops.extend([mask, zero]);
            let o = b.op(body, &mut atk, vector::ops::MASKEDLOAD, &ops, &[vt.clone()], &[]);
            body.op(o).result(0)
        } else {
            let s = b.load(body, &mut atk, ops[0], &ops[1..]);
            let o = b.op(body, &mut atk, vector::ops::BROADCAST, &[s], &[vt.clone()], &[]);
            body.op(o).result(0)
        };
        args.push(x);
    }
    args.push(carried[0]);
    let r = clone_vectorized(b, body, &mut atk, block, &args, true)[0];
    // Lanes past the row's end keep their partial result.
    let kept = b.op(body, &mut atk, arith::ops::SELECT, &[mask, r, carried[0]], &[vt], &[]);
    let kept = body.op(kept).result(0);
    b.yield_(body, kblock, &[kept]);
    let partials = body.op(kop).result(0);
    let kind_attr = Attribute::new(AttrData::Opaque { dialect: "vector".into(), body: format!(".kind<{kind}>") });
    let s = b.op(body, &mut at, vector::ops::REDUCTION, &[partials], &[f32t.clone()], &[("kind", kind_attr)]);
    let s = body.op(s).result(0);
    let oivs: Vec<_> = ivs.iter().map(|v| v.unwrap_or(lb)).collect();
    let idx: Vec<_> = maps[ins.len()].results.iter().map(|e| b.expr(body, &mut at, e, &oivs)).collect();
    let old = b.load(body, &mut at, out, &idx);
    let total = b.op(body, &mut at, &combine_name, &[old, s], &[f32t], &[]);
    let total = body.op(total).result(0);
    b.store(body, &mut at, total, out, &idx);
    body.erase(op);
}
