//! `fold-pad-into-producer`: a generic whose result is only copied into the
//! interior of a padded tensor (the insert a `tensor.pad` becomes in
//! `tensor-generalize`, before a Conv or a pool) writes that interior itself:
//! its output becomes the padded tensor, its output map offset by the padding,
//! and the copy goes. A depthwise or 3x3 conv's input is then written once,
//! not written and copied (a third of MobileNetV2's time was these copies).
//!
//! A producer that reads its own output (a reduction accumulating into a
//! filled bias) brings the generic that filled it along, offset the same way.
//! A producer seen through reshapes that only split its last dim (a 1x1 Conv
//! computed over [N, C, H·W], read as [N, C, H, W]) has that loop split in two
//! first, where rows of W fill the vector lanes well (W ≥ 14: at least 7 of 8
//! lanes) and, when they leave lanes empty, the product sums few terms (at
//! most 128: the copy costs less than a deep product's idle lanes). The producer moves down to the copy, after the padded tensor's
//! border fill.

use crate::ops;
use ir::affine::{AffineExpr, AffineMap};
use ir::attributes::{ArrayData, AttrData, Attribute};
use ir::pass::{Pass, PassContext};
use ir::{Body, Context, InsertPoint, OpId, Value};
use crate::{Generic, Iterator};

pub struct FoldPadIntoProducer;

/// A copy `dest[i + offs] = src[i]`: its source, destination and offsets.
pub(super) fn padded_copy(body: &Body, op: OpId) -> Option<(Value, Value, Vec<i64>)> {
    if body.name(op).as_str() != ops::GENERIC || body.op(op).results().len() != 1 {
        return None;
    }
    let g = Generic::new(body, op);
    let (ins, outs, maps) = (g.inputs(), g.outputs(), g.maps());
    if ins.len() != 1 || outs.len() != 1 || g.epilogue().is_some() || g.iterators().iter().any(|i| *i != Iterator::Parallel) {
        return None;
    }
    let args = body.block_args(g.block());
    let ops: Vec<OpId> = body.block_ops(g.block()).collect();
    if ops.len() != 1 || body.op(ops[0]).operands() != [args[0]] {
        return None;
    }
    let n = maps[0].results.len();
    if maps[0] != AffineMap::identity(n as u32) || maps[1].results.len() != n {
        return None;
    }
    let offs = maps[1].results.iter().enumerate().map(|(r, e)| e.dim_plus_const().filter(|&(d, c)| d as usize == r && c >= 0).map(|(_, c)| c)).collect::<Option<Vec<i64>>>()?;
    offs.iter().any(|&o| o > 0).then_some((ins[0], outs[0], offs))
}

/// `v` through a chain of single-use reshapes whose end only splits the
/// start's last dim into (H, W): the start value, W and the reshapes.
fn split_by_reshapes(body: &Body, v: Value) -> Option<(Value, i64, Vec<OpId>)> {
    let end = body.value_type(v).shape()?.to_vec();
    let (mut x, mut chain) = (v, vec![]);
    while let Some(d) = body.defining_op(x).filter(|d| matches!(body.name(*d).as_str(), ops::COLLAPSE_SHAPE | ops::EXPAND_SHAPE)) {
        if body.uses(x).len() != 1 {
            return None;
        }
        chain.push(d);
        x = body.op(d).operand(0);
    }
    let start = body.value_type(x).shape()?.to_vec();
    let n = start.len();
    if chain.is_empty() || n == 0 || end.len() != n + 1 || start[..n - 1] != end[..n - 1] || start[n - 1] != end[n - 1] * end[n] {
        return None;
    }
    let w = end[n];
    // At least 7 of every 8 lanes busy along a row of W.
    (w * 8 >= (w + 15) / 16 * 16 * 7).then_some((x, w, chain))
}

/// `e` with loop `l` replaced by `l·w + new`.
fn split_dim(e: &AffineExpr, l: u32, w: i64, new: u32) -> AffineExpr {
    use AffineExpr as E;
    let b = |x: &AffineExpr| Box::new(split_dim(x, l, w, new));
    match e {
        E::Dim(d) if *d == l => E::Add(Box::new(E::Mul(Box::new(E::Dim(l)), Box::new(E::Const(w)))), Box::new(E::Dim(new))),
        E::Add(x, y) => E::Add(b(x), b(y)),
        E::Mul(x, y) => E::Mul(b(x), b(y)),
        E::Mod(x, y) => E::Mod(b(x), b(y)),
        E::FloorDiv(x, y) => E::FloorDiv(b(x), b(y)),
        E::CeilDiv(x, y) => E::CeilDiv(b(x), b(y)),
        other => other.clone(),
    }
}

/// A generic with one output written through distinct plain loop dims, used
/// once; whether its body reads the output's old values.
fn retargetable(body: &Body, v: Value) -> Option<(OpId, bool)> {
    let p = body.defining_op(v)?;
    if body.name(p).as_str() != ops::GENERIC || body.op(p).results().len() != 1 || body.uses(v).len() != 1 {
        return None;
    }
    let g = Generic::new(body, p);
    let (n_in, maps) = (g.inputs().len(), g.maps());
    let mut seen = vec![false; g.iterators().len()];
    for e in &maps[n_in].results {
        let AffineExpr::Dim(d) = e else { return None };
        if std::mem::replace(&mut seen[*d as usize], true) {
            return None;
        }
    }
    if g.loop_sizes().iter().any(|s| s.is_none()) {
        return None;
    }
    let reads_out = body.has_uses(body.block_args(g.block())[n_in]);
    Some((p, reads_out))
}

fn loop_sizes(body: &Body, p: OpId) -> Vec<i64> {
    Generic::new(body, p).loop_sizes().into_iter().map(|s| s.unwrap_or(0)).collect()
}

/// `p` (of loops `sizes`) now writes `dest` at its old indices plus `offs`,
/// just before `at`; with `split`, the loop of its output's last dim first
/// becomes two, rows and the `split` elements of each row.
#[allow(clippy::too_many_arguments)]
fn retarget(ctx: &Context, body: &mut Body, p: OpId, mut sizes: Vec<i64>, dest: Value, offs: &[i64], at: OpId, split: Option<i64>) -> Value {
    let g = Generic::new(body, p);
    let (n_in, mut maps, mut iters) = (g.inputs().len(), g.maps(), g.iterators());
    if let Some(w) = split {
        let AffineExpr::Dim(l) = maps[n_in].results.last().cloned().unwrap_or(AffineExpr::Const(0)) else { unreachable!("checked by retargetable") };
        let new = sizes.len() as u32;
        for m in maps.iter_mut() {
            m.num_dims += 1;
            m.results = m.results.iter().map(|e| split_dim(e, l, w, new)).collect();
        }
        maps[n_in].results.pop();
        maps[n_in].results.extend([AffineExpr::Dim(l), AffineExpr::Dim(new)]);
        sizes[l as usize] /= w;
        sizes.push(w);
        iters.push(Iterator::Parallel);
    }
    maps[n_in].results = maps[n_in].results.iter().zip(offs).map(|(e, &o)| if o == 0 { e.clone() } else { AffineExpr::Add(Box::new(e.clone()), Box::new(AffineExpr::Const(o))) }).collect();
    body.set_operand(p, n_in, dest);
    let props = &mut body.op_mut(p).properties;
    props.set(ctx.ident("indexing_maps"), Attribute::new(AttrData::Array(maps.into_iter().map(|m| Attribute::new(AttrData::AffineMap(m))).collect())));
    if split.is_some() {
        props.set(ctx.ident("iterator_types"), crate::iterator_types_attr(&iters));
    }
    // The output no longer gives the loops' sizes: they are stated.
    props.set(ctx.ident("loop_ranges"), Attribute::new(AttrData::DenseArray { elem: ctx.i64(), data: ArrayData::Int(sizes) }));
    let r = body.op(p).result(0);
    let t = body.value_type(dest).clone();
    body.set_value_type(r, t);
    body.move_op(p, InsertPoint::Before(at));
    r
}

/// Most terms a product may sum per output with its columns split into rows
/// of a width that leaves lanes empty: each row then pays all its terms on
/// those lanes (and runs as narrow tiles), where the copy into the padded
/// tensor costs about one vector load and store per 16 elements. ResNet-18's
/// 14×14 layers (2,304 terms) ran 1.5× slower split; MobileNetV2's 1×1
/// expansions (24-96 terms) before its depthwise convs gain by it.
const SPLIT_MAX_TERMS: i64 = 128;

/// Whether splitting producer `p`'s columns into rows of `w` costs more than
/// the copy it saves.
fn split_costs_more(body: &Body, p: OpId, w: i64) -> bool {
    let g = Generic::new(body, p);
    let terms: i64 = g.iterators().iter().zip(g.loop_sizes()).filter(|(i, _)| **i == Iterator::Reduction).map(|(_, n)| n.unwrap_or(i64::MAX)).product();
    w % 16 != 0 && terms > SPLIT_MAX_TERMS
}

/// Whether a body reads loop indices (`tensor.index`): a split loop would change them.
fn reads_indices(body: &Body, p: OpId) -> bool {
    body.walk_preorder(p).into_iter().any(|o| body.name(o).as_str() == ops::INDEX)
}

fn fold(ctx: &Context, body: &mut Body, copy: OpId) -> bool {
    let Some((src, dest, offs)) = padded_copy(body, copy) else { return false };
    let (src, split, reshapes) = match split_by_reshapes(body, src) {
        Some((x, w, chain)) => (x, Some(w), chain),
        None => (src, None, vec![]),
    };
    let Some((p, reads_out)) = retargetable(body, src) else { return false };
    let block = body.op(copy).parent_block();
    if body.op(p).parent_block() != block || (split.is_some() && reads_indices(body, p)) || split.is_some_and(|w| split_costs_more(body, p, w)) {
        return false;
    }
    let init = Generic::new(body, p).outputs()[0];
    // The values the producer accumulates into must be in place first.
    let filler = if reads_out {
        match retargetable(body, init) {
            Some((q, false)) if body.op(q).parent_block() == block && !(split.is_some() && reads_indices(body, q)) => Some(q),
            _ => return false,
        }
    } else {
        None
    };
    // (P's loop sizes first: its output's type changes with the filler's.)
    let p_sizes = loop_sizes(body, p);
    let dest = match filler {
        Some(q) => retarget(ctx, body, q, loop_sizes(body, q), dest, &offs, copy, split),
        None => dest,
    };
    let r = retarget(ctx, body, p, p_sizes, dest, &offs, copy, split);
    let out = body.op(copy).result(0);
    body.replace_all_uses(out, r);
    body.erase(copy);
    for d in reshapes {
        body.erase(d);
    }
    if filler.is_none() && body.defining_op(init).is_some_and(|e| body.name(e).as_str() == ops::EMPTY) && !body.has_uses(init) {
        body.erase(body.defining_op(init).unwrap());
    }
    true
}

impl Pass for FoldPadIntoProducer {
    fn argument(&self) -> &'static str {
        "fold-pad-into-producer"
    }
    fn display_name(&self) -> &'static str {
        "FoldPadIntoProducer"
    }
    fn anchor(&self) -> Option<&'static str> {
        Some(func::ops::FUNC)
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let copies: Vec<OpId> = cx.body.walk_preorder(root).into_iter().filter(|o| cx.body.name(*o).as_str() == ops::GENERIC).collect();
        let mut n = 0;
        for op in copies {
            if !cx.body.is_erased(op) && fold(cx.ctx, cx.body, op) {
                n += 1;
            }
        }
        cx.stat("num-folded", "padded copies folded into their producers", n);
        Ok(())
    }
}
