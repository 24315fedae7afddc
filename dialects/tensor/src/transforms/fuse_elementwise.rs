//! `fuse-elementwise`: at the tensor level, an elementwise `tensor.generic`
//! that consumes the only use of another generic's result is merged into it,
//! so the intermediate tensor is never written:
//!
//! - parallel into parallel (Add → Relu): one loop nest, the consumer's body
//!   after the producer's;
//! - parallel into a reduction (Conv → Relu, MatMul → Add bias → Gelu): the
//!   consumer becomes the producer's epilogue, run on each output element once
//!   its reduction is complete (the contraction kernel applies it to the
//!   accumulators in registers, before the one store).
//!
//! Chains fuse repeatedly (to a fixed point). The consumer must read the
//! producer's result element for element (identity map), and write a result of
//! the same shape; epilogue fusion also needs the same element type. A consumer
//! that reads a reduction's result through reshapes (a 1x1 Conv's [N, C, H·W]
//! viewed as [N, C, H, W]) is first rebuilt on the product's shape
//! (`sink_reshape`). A fused op's location names both nodes.

use crate::ops;
use ir::affine::{AffineExpr, AffineMap};
use ir::attributes::{ArrayData, AttrData, Attribute};
use ir::pass::{Pass, PassContext};
use ir::types::TypeData;
use ir::{Block, Body, Context, InsertPoint, OpId, OperationState, Value};
use std::collections::HashMap;
use crate::{Generic, Iterator};

pub struct FuseElementwise;

struct G {
    ins: Vec<Value>,
    outs: Vec<Value>,
    maps: Vec<AffineMap>,
    iters: Vec<Iterator>,
    block: Block,
    epilogue: Option<Block>,
}

fn read(body: &Body, op: OpId) -> G {
    let g = Generic::new(body, op);
    G { ins: g.inputs().to_vec(), outs: g.outputs().to_vec(), maps: g.maps(), iters: g.iterators(), block: g.block(), epilogue: g.epilogue() }
}

fn is_tensor_generic(body: &Body, op: OpId) -> bool {
    body.name(op).as_str() == ops::GENERIC && body.op(op).results().len() == 1
}

/// Clones `block`'s ops at the end of `into` with `map` seeded; returns the yielded values.
pub(super) fn clone_block(body: &mut Body, block: Block, into: Block, map: &mut HashMap<Value, Value>) -> Vec<Value> {
    let ops: Vec<OpId> = body.block_ops(block).collect();
    let mut yields = vec![];
    for o in ops {
        if body.name(o).as_str() == ops::YIELD {
            yields = body.op(o).operands().iter().map(|v| *map.get(v).unwrap_or(v)).collect();
            continue;
        }
        let c = body.clone_op(o, map);
        body.insert(c, InsertPoint::AtEnd(into));
    }
    yields
}

fn yield_in(ctx: &Context, body: &mut Body, block: Block, vals: &[Value], loc: ir::Location) {
    body.build(OperationState::new(ctx.op_name(ops::YIELD), loc).operands(vals), InsertPoint::AtEnd(block));
}

fn elem(body: &Body, v: Value) -> ir::Type {
    body.value_type(v).element_type().cloned().unwrap_or_else(|| body.value_type(v).clone())
}

/// A new region whose block takes the elements of `ins` then `outs`, holding
/// a copy of the producer's body (its inputs are the first arguments, its
/// destination value the first output's); returns the producer's yields.
fn with_producer_body(body: &mut Body, pg: &G, ins: &[Value], outs: &[Value]) -> (ir::Region, Block, Vec<Value>, Vec<Value>) {
    let region = body.new_region();
    let types: Vec<ir::Type> = ins.iter().chain(outs).map(|v| elem(body, *v)).collect();
    let block = body.add_block(region, &types);
    let args = body.block_args(block).to_vec();
    let mut map = HashMap::new();
    let pargs = body.block_args(pg.block).to_vec();
    for (k, a) in pargs.iter().enumerate().take(pg.ins.len()) {
        map.insert(*a, args[k]);
    }
    map.insert(pargs[pg.ins.len()], args[ins.len()]);
    let ys = clone_block(body, pg.block, block, &mut map);
    (region, block, args, ys)
}

/// Builds a tensor generic from parts (regions already filled).
#[allow(clippy::too_many_arguments)]
fn build(ctx: &Context, body: &mut Body, at: OpId, ins: &[Value], outs: &[Value], maps: Vec<AffineMap>, iters: &[Iterator], ranges: Option<Attribute>, regions: Vec<ir::Region>) -> OpId {
    let mut operands = ins.to_vec();
    operands.extend_from_slice(outs);
    let results: Vec<ir::Type> = outs.iter().map(|v| body.value_type(*v).clone()).collect();
    let mut st = OperationState::new(ctx.op_name(ops::GENERIC), body.op(at).loc.clone())
        .operands(&operands)
        .results(&results)
        .property(ctx.ident("indexing_maps"), Attribute::new(AttrData::Array(maps.into_iter().map(|m| Attribute::new(AttrData::AffineMap(m))).collect())))
        .property(
            ctx.ident("iterator_types"),
            Attribute::new(AttrData::Array(iters.iter().map(|i| Attribute::string(if *i == Iterator::Reduction { crate::REDUCTION } else { crate::PARALLEL })).collect())),
        )
        .property(ctx.ident("operandSegmentSizes"), Attribute::new(AttrData::DenseArray { elem: ctx.i32(), data: ArrayData::Int(vec![ins.len() as i64, outs.len() as i64]) }));
    if let Some(r) = ranges {
        st = st.property(ctx.ident("loop_ranges"), r);
    }
    for r in regions {
        st = st.region(r);
    }
    body.build(st, InsertPoint::Before(at))
}

/// Producer P (all parallel) followed by consumer C reading P's result at `idx`.
fn fuse_parallel(ctx: &Context, body: &mut Body, p: OpId, c: OpId, idx: usize) -> OpId {
    let (pg, cg) = (read(body, p), read(body, c));
    let mut ins = pg.ins.clone();
    let mut maps: Vec<AffineMap> = pg.maps[..pg.ins.len()].to_vec();
    for (k, v) in cg.ins.iter().enumerate() {
        if k != idx {
            ins.push(*v);
            maps.push(cg.maps[k].clone());
        }
    }
    maps.push(cg.maps[cg.ins.len()].clone());
    let (region, block, args, pys) = with_producer_body(body, &pg, &ins, &cg.outs);
    let mut map = HashMap::new();
    let pv = pys[0];
    let cargs = body.block_args(cg.block).to_vec();
    let mut next = pg.ins.len();
    for (k, a) in cargs.iter().enumerate().take(cg.ins.len()) {
        if k == idx {
            map.insert(*a, pv);
        } else {
            map.insert(*a, args[next]);
            next += 1;
        }
    }
    map.insert(cargs[cg.ins.len()], args[args.len() - 1]);
    let ys = clone_block(body, cg.block, block, &mut map);
    yield_in(ctx, body, block, &ys, body.op(c).loc.clone());
    let ranges = body.op(c).properties.get("loop_ranges").cloned();
    build(ctx, body, c, &ins, &cg.outs, maps, &cg.iters, ranges, vec![region])
}

/// Producer P with reductions; consumer C becomes its epilogue.
fn fuse_epilogue(ctx: &Context, body: &mut Body, p: OpId, c: OpId, idx: usize, parallel: &[usize]) -> OpId {
    let (pg, cg) = (read(body, p), read(body, c));
    let n = pg.iters.len();
    // C's loop k is P's k-th parallel loop.
    let translate = |m: &AffineMap| -> AffineMap {
        fn tr(e: &AffineExpr, parallel: &[usize]) -> AffineExpr {
            match e {
                AffineExpr::Dim(k) => AffineExpr::Dim(parallel[*k as usize] as u32),
                AffineExpr::Add(a, b) => AffineExpr::Add(Box::new(tr(a, parallel)), Box::new(tr(b, parallel))),
                AffineExpr::Mul(a, b) => AffineExpr::Mul(Box::new(tr(a, parallel)), Box::new(tr(b, parallel))),
                AffineExpr::Mod(a, b) => AffineExpr::Mod(Box::new(tr(a, parallel)), Box::new(tr(b, parallel))),
                AffineExpr::FloorDiv(a, b) => AffineExpr::FloorDiv(Box::new(tr(a, parallel)), Box::new(tr(b, parallel))),
                AffineExpr::CeilDiv(a, b) => AffineExpr::CeilDiv(Box::new(tr(a, parallel)), Box::new(tr(b, parallel))),
                other => other.clone(),
            }
        }
        AffineMap { num_dims: n as u32, num_syms: 0, results: m.results.iter().map(|e| tr(e, parallel)).collect() }
    };
    let mut ins = pg.ins.clone();
    let mut maps: Vec<AffineMap> = pg.maps[..pg.ins.len()].to_vec();
    let mut extra = Vec::new();
    for (k, v) in cg.ins.iter().enumerate() {
        if k != idx {
            extra.push(ins.len());
            ins.push(*v);
            maps.push(translate(&cg.maps[k]));
        }
    }
    maps.push(pg.maps[pg.ins.len()].clone());
    // The main body: P's, ignoring the new inputs.
    let (region, block, _, ys) = with_producer_body(body, &pg, &ins, &pg.outs);
    yield_in(ctx, body, block, &ys, body.op(p).loc.clone());
    // The epilogue: (final output value, then every input's element) → C's body.
    let ep = body.new_region();
    let mut etypes = vec![elem(body, pg.outs[0])];
    etypes.extend(ins.iter().map(|v| elem(body, *v)));
    let eblock = body.add_block(ep, &etypes);
    let eargs = body.block_args(eblock).to_vec();
    let mut map = HashMap::new();
    let cargs = body.block_args(cg.block).to_vec();
    let mut e = 0;
    for (k, a) in cargs.iter().enumerate().take(cg.ins.len()) {
        if k == idx {
            map.insert(*a, eargs[0]);
        } else {
            map.insert(*a, eargs[1 + extra[e]]);
            e += 1;
        }
    }
    // A producer that already has an epilogue: run it first; C's body takes its result.
    let reduced = match pg.epilogue {
        Some(pe) => {
            let pargs = body.block_args(pe).to_vec();
            let mut pmap = HashMap::new();
            for (k, a) in pargs.iter().enumerate() {
                pmap.insert(*a, eargs[k]);
            }
            clone_block(body, pe, eblock, &mut pmap)[0]
        }
        None => eargs[0],
    };
    map.insert(cargs[idx], reduced);
    let ys = clone_block(body, cg.block, eblock, &mut map);
    yield_in(ctx, body, eblock, &ys, body.op(c).loc.clone());
    let ranges = body.op(p).properties.get("loop_ranges").cloned();
    build(ctx, body, c, &ins, &pg.outs, maps, &pg.iters, ranges, vec![region, ep])
}

fn is_reshape(body: &Body, op: OpId) -> bool {
    matches!(body.name(op).as_str(), ops::COLLAPSE_SHAPE | ops::EXPAND_SHAPE)
}

/// An elementwise consumer that reads a generic's result through reshapes (a
/// 1x1 Conv computes [N, C, H·W] and hands [N, C, H, W] on) is rebuilt on the
/// producer's shape: its other full-size operands reshaped alike, its scalars
/// as they are, its result reshaped back. Then it fuses like any consumer
/// (Conv → Clip as the contraction's epilogue instead of a second pass over
/// the map). Returns whether it rebuilt `c`.
fn sink_reshape(ctx: &Context, body: &mut Body, c: OpId) -> bool {
    let cg = read(body, c);
    let nl = cg.iters.len() as u32;
    let id = AffineMap::identity(nl);
    if cg.outs.len() != 1 || cg.iters.iter().any(|i| *i == Iterator::Reduction) || cg.epilogue.is_some() || body.op(c).properties.contains("loop_ranges") {
        return false;
    }
    // Only identity and scalar reads: those mean the same on any shape.
    if cg.maps[cg.ins.len()] != id || cg.maps[..cg.ins.len()].iter().any(|m| *m != id && !m.results.is_empty()) {
        return false;
    }
    if body.has_uses(body.block_args(cg.block)[cg.ins.len()]) || !simple(body, cg.block) {
        return false;
    }
    // An identity map over a larger operand is a slice of it, not the same elements.
    let out_shape = body.value_type(cg.outs[0]).shape().map(|s| s.to_vec());
    if cg.ins.iter().zip(&cg.maps).any(|(v, m)| *m == id && body.value_type(*v).shape().map(|s| s.to_vec()) != out_shape) {
        return false;
    }
    for (idx, x) in cg.ins.iter().enumerate() {
        if cg.maps[idx] != id || cg.ins.iter().filter(|v| *v == x).count() != 1 {
            continue;
        }
        let (mut v, mut chain) = (*x, vec![]);
        while let Some(d) = body.defining_op(v).filter(|d| is_reshape(body, *d) && body.uses(v).len() == 1) {
            chain.push(d);
            v = body.op(d).operand(0);
        }
        let Some(p) = body.defining_op(v) else { continue };
        if chain.is_empty() || !is_tensor_generic(body, p) || body.uses(v).len() != 1 || body.op(p).parent_block() != body.op(c).parent_block() {
            continue;
        }
        // Only toward a reduction that will take the consumer as its epilogue
        // (then it fuses at once and cannot be moved on toward another producer).
        let pg = read(body, p);
        let parallel: Vec<AffineExpr> = (0..pg.iters.len()).filter(|&l| pg.iters[l] == Iterator::Parallel).map(|l| AffineExpr::Dim(l as u32)).collect();
        if pg.outs.len() != 1 || parallel.len() == pg.iters.len() || pg.maps[pg.ins.len()].results != parallel || elem(body, pg.outs[0]) != elem(body, cg.outs[0]) {
            continue;
        }
        let shape = body.value_type(v).shape().unwrap().to_vec();
        if shape.iter().product::<i64>() != out_shape.iter().flatten().product::<i64>() {
            continue;
        }
        let loc = body.op(c).loc.clone();
        let at = InsertPoint::Before(c);
        let rank = shape.len() as u32;
        let mut ins = Vec::new();
        let mut maps = Vec::new();
        for (k, input) in cg.ins.iter().enumerate() {
            if cg.maps[k] == id {
                ins.push(if k == idx { v } else { crate::reshape(ctx, body, at, &loc, *input, &shape) });
                maps.push(AffineMap::identity(rank));
            } else {
                ins.push(*input);
                maps.push(AffineMap { num_dims: rank, num_syms: 0, results: vec![] });
            }
        }
        maps.push(AffineMap::identity(rank));
        let out_ty = ctx.intern_type(TypeData::RankedTensor { shape: shape.clone(), elem: elem(body, cg.outs[0]), encoding: None });
        let empty = body.build(OperationState::new(ctx.op_name(ops::EMPTY), loc.clone()).results(&[out_ty]), at);
        let outs = [body.op(empty).result(0)];
        let region = body.new_region();
        let types: Vec<ir::Type> = ins.iter().chain(&outs).map(|v| elem(body, *v)).collect();
        let block = body.add_block(region, &types);
        let mut map: HashMap<Value, Value> = body.block_args(cg.block).iter().copied().zip(body.block_args(block).to_vec()).collect();
        let ys = clone_block(body, cg.block, block, &mut map);
        yield_in(ctx, body, block, &ys, loc.clone());
        let new = build(ctx, body, c, &ins, &outs, maps, &vec![Iterator::Parallel; shape.len()], None, vec![region]);
        let old_shape = body.value_type(cg.outs[0]).shape().unwrap().to_vec();
        let back = crate::reshape(ctx, body, at, &loc, body.op(new).result(0), &old_shape);
        body.replace_all_uses(body.op(c).result(0), back);
        body.erase(c);
        for d in chain {
            body.erase(d);
        }
        if let Some(e) = body.defining_op(cg.outs[0]).filter(|e| body.name(*e).as_str() == ops::EMPTY && !body.has_uses(cg.outs[0])) {
            body.erase(e);
        }
        return true;
    }
    false
}

/// Ops a fused body may hold: no reads of other tensors, no loop indices.
fn simple(body: &Body, b: Block) -> bool {
    body.block_ops(b).all(|o| !matches!(body.name(o).as_str(), ops::EXTRACT | ops::INDEX))
}

/// Tries to fuse consumer `c` with one producer; returns whether it did.
fn try_fuse(ctx: &Context, body: &mut Body, c: OpId) -> bool {
    let cg = read(body, c);
    if cg.outs.len() != 1 || cg.iters.iter().any(|i| *i == Iterator::Reduction) || cg.epilogue.is_some() {
        return false;
    }
    let nl = cg.iters.len() as u32;
    if cg.maps[cg.ins.len()] != AffineMap::identity(nl) || body.op(c).properties.contains("loop_ranges") {
        return false;
    }
    // The consumer must not read its destination's old value.
    if body.has_uses(body.block_args(cg.block)[cg.ins.len()]) {
        return false;
    }
    if !simple(body, cg.block) {
        return false;
    }
    for (idx, x) in cg.ins.iter().enumerate() {
        let Some(p) = body.defining_op(*x) else { continue };
        // A producer outside the consumer's block (before a loop) stays there: fused, it would run every iteration.
        let same_block = body.op(p).parent_block() == body.op(c).parent_block();
        if !same_block || !is_tensor_generic(body, p) || body.uses(*x).len() != 1 || cg.maps[idx] != AffineMap::identity(nl) {
            continue;
        }
        if cg.ins.iter().filter(|v| *v == x).count() != 1 {
            continue;
        }
        let pg = read(body, p);
        if pg.outs.len() != 1 || body.value_type(pg.outs[0]).shape() != body.value_type(cg.outs[0]).shape() {
            continue;
        }
        let all_parallel = pg.iters.iter().all(|i| *i == Iterator::Parallel);
        if all_parallel && pg.epilogue.is_some() {
            continue;
        }
        if all_parallel {
            if pg.maps[pg.ins.len()] != AffineMap::identity(nl) || body.has_uses(body.block_args(pg.block)[pg.ins.len()]) || !simple(body, pg.block) {
                continue;
            }
            let new = fuse_parallel(ctx, body, p, c, idx);
            finish(body, p, c, new);
            return true;
        }
        // Reduction producer: its output must list its parallel loops in order.
        let parallel: Vec<usize> = (0..pg.iters.len()).filter(|&l| pg.iters[l] == Iterator::Parallel).collect();
        let want: Vec<AffineExpr> = parallel.iter().map(|&l| AffineExpr::Dim(l as u32)).collect();
        if pg.maps[pg.ins.len()].results != want || parallel.len() != nl as usize || elem(body, pg.outs[0]) != elem(body, cg.outs[0]) {
            continue;
        }
        if !matches!(body.value_type(pg.outs[0]).data(), TypeData::RankedTensor { .. }) {
            continue;
        }
        let new = fuse_epilogue(ctx, body, p, c, idx, &parallel);
        finish(body, p, c, new);
        return true;
    }
    false
}

fn finish(body: &mut Body, p: OpId, c: OpId, new: OpId) {
    // The fused op is both nodes' code: a profile names it after both.
    body.op_mut(new).loc = ir::Location::fused(&[body.op(p).loc.clone(), body.op(c).loc.clone()]);
    let (old, newr) = (body.op(c).result(0), body.op(new).result(0));
    body.replace_all_uses(old, newr);
    let dests: Vec<Value> = [p, c].iter().flat_map(|o| read(body, *o).outs).collect();
    body.erase(c);
    body.erase(p);
    // A destination left without users (the one the fused op does not write) goes too.
    for d in dests {
        if let Some(e) = body.defining_op(d) {
            if body.name(e).as_str() == ops::EMPTY && !body.has_uses(d) {
                body.erase(e);
            }
        }
    }
}

impl Pass for FuseElementwise {
    fn argument(&self) -> &'static str {
        "fuse-elementwise"
    }
    fn display_name(&self) -> &'static str {
        "FuseElementwise"
    }
    fn anchor(&self) -> Option<&'static str> {
        Some(func::ops::FUNC)
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let (mut fused, mut sunk) = (0, 0);
        loop {
            let gens: Vec<OpId> = cx.body.walk_preorder(root).into_iter().filter(|o| is_tensor_generic(cx.body, *o)).collect();
            let mut any = false;
            for c in gens {
                if cx.body.is_erased(c) {
                    continue;
                }
                if try_fuse(cx.ctx, cx.body, c) {
                    fused += 1;
                    any = true;
                } else if sink_reshape(cx.ctx, cx.body, c) {
                    sunk += 1;
                    any = true;
                }
            }
            if !any {
                break;
            }
        }
        cx.stat("num-fused", "Consumers fused into their producers", fused);
        cx.stat("num-reshapes-sunk", "Consumers moved before the reshapes they read", sunk);
        Ok(())
    }
}
