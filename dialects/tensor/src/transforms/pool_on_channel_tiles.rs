//! `pool-on-channel-tiles`: a 2-D max pool of a product computed with its
//! channels along the lanes (`[N, C/t, H, W, t]`, copied back to NCHW with
//! the ops after it, a Relu or a Clip, in the copy) pools the tiles
//! themselves and copies back its own output: a stride-2 pool's is a quarter
//! of the product. The product's copy back, the NCHW padded buffer it filled
//! and the pool's stride-2 shuffles go; each tap of a window is whole vectors
//! of channels, as in ONNX Runtime's channel-blocked pools. (A ResNet stem:
//! a 7×7 stride-2 conv, a Relu, a 3×3 stride-2 max pool.)
//!
//! The ops of the copy move after the pool, so they must keep order:
//! max(f(a), f(b)) = f(max(a, b)) for a non-decreasing f (a max or a min with
//! a constant, adding or subtracting a constant, a positive scale). The
//! tiles are padded with the pool's own padding value (−inf) at its borders,
//! and `fold-pad-into-producer`, after this pass, has the product write their
//! interior.

use crate::ops;
use ir::affine::{AffineExpr, AffineMap};
use ir::pass::{Pass, PassContext};
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, OpId, OperationState, Value};
use std::collections::HashMap;
use crate::{Generic, GenericBuilder, Iterator};

pub struct PoolOnChannelTiles;

/// A max pool over the last two dims of a 4-D input, one window per output.
struct Window {
    input: Value,
    init: Value,
    strides: [i64; 2],
    dilations: [i64; 2],
    kernel: [i64; 2],
}

/// Generic `p` as `out[n, c, oh, ow] = max over (kh, kw) of x[n, c, oh·s + kh·d, ow·s + kw·d]`.
fn max_pool(body: &Body, p: OpId) -> Option<Window> {
    use Iterator::{Parallel as P, Reduction as R};
    if body.name(p).as_str() != ops::GENERIC || body.op(p).results().len() != 1 {
        return None;
    }
    let g = Generic::new(body, p);
    let (maps, sizes) = (g.maps(), g.loop_sizes());
    if g.inputs().len() != 1 || g.outputs().len() != 1 || g.epilogue().is_some() || g.iterators() != [P, P, P, P, R, R] {
        return None;
    }
    let dims = |m: &AffineMap, n: u32| m.results == (0..n).map(AffineExpr::Dim).collect::<Vec<_>>();
    if !dims(&maps[1], 4) || maps[0].results.len() != 4 || maps[0].results[..2] != [AffineExpr::Dim(0), AffineExpr::Dim(1)] {
        return None;
    }
    let (Some(kh), Some(kw)) = (sizes[4], sizes[5]) else { return None };
    // Each window index `o·s + k·d`, checked at enough points to rule out other forms.
    let mut strides = [0; 2];
    let mut dilations = [0; 2];
    for i in 0..2 {
        let e = &maps[0].results[2 + i];
        let at = |o: i64, k: i64| {
            let mut d = [3i64; 6];
            (d[2 + i], d[4 + i]) = (o, k);
            e.eval(&d, &[])
        };
        let (s, dl) = (at(1, 0)? - at(0, 0)?, at(0, 1)? - at(0, 0)?);
        let linear = [(0, 0), (2, 0), (0, 2), (5, 3), (7, 1)].iter().all(|&(o, k)| at(o, k) == Some(o * s + k * dl));
        if !linear || s < 1 || dl < 1 {
            return None;
        }
        (strides[i], dilations[i]) = (s, dl);
    }
    // The body: the max of the element and the accumulator.
    let args = body.block_args(g.block()).to_vec();
    let ops: Vec<OpId> = body.block_ops(g.block()).collect();
    let [m, y] = ops[..] else { return None };
    let operands = body.op(m).operands();
    let max = body.name(m).as_str() == arith::ops::MAXIMUMF && (operands == [args[0], args[1]] || operands == [args[1], args[0]]);
    (max && body.op(y).operands() == [body.op(m).result(0)]).then_some(Window { input: g.inputs()[0], init: g.outputs()[0], strides, dilations, kernel: [kh, kw] })
}

/// The constant float `v` holds.
fn float_constant(body: &Body, v: Value) -> Option<f64> {
    ir::rewrite::constant_value(body, body.defining_op(v)?)?.as_float()
}

/// Whether a generic's body computes a non-decreasing function of its first
/// argument alone: a chain of maxes and mins with constants, constants added
/// or subtracted, positive scales.
fn non_decreasing(body: &Body, g: &Generic) -> bool {
    let args = body.block_args(g.block());
    let mut cur = args[0];
    if args[1..].iter().any(|a| body.has_uses(*a)) {
        return false;
    }
    for o in body.block_ops(g.block()) {
        let (name, operands) = (body.name(o), body.op(o).operands());
        match name.as_str() {
            arith::ops::CONSTANT => continue,
            ops::YIELD => return operands == [cur],
            _ => {}
        }
        let [a, b] = operands[..] else { return false };
        let (other, first) = if a == cur { (b, true) } else if b == cur { (a, false) } else { return false };
        let Some(c) = float_constant(body, other) else { return false };
        let keeps_order = match name.as_str() {
            arith::ops::MAXIMUMF | arith::ops::MINIMUMF | arith::ops::MAXNUMF | arith::ops::MINNUMF | arith::ops::ADDF => true,
            arith::ops::SUBF => first,
            arith::ops::MULF => c > 0.0,
            _ => false,
        };
        if !keeps_order {
            return false;
        }
        cur = body.op(o).result(0);
    }
    false
}

/// `v` copied back from channel tiles: the copy (`y[n, c, h, w] =
/// f(tiles[n, c / t, h, w, c % t])`, f non-decreasing), the tiles and t.
fn from_tiles(body: &Body, v: Value) -> Option<(OpId, Value, i64)> {
    let y = body.defining_op(v)?;
    if body.name(y).as_str() != ops::GENERIC || body.op(y).results().len() != 1 || body.uses(v).len() != 1 {
        return None;
    }
    let g = Generic::new(body, y);
    if g.inputs().len() != 1 || g.epilogue().is_some() || g.iterators().iter().any(|i| *i != Iterator::Parallel) || !non_decreasing(body, &g) {
        return None;
    }
    let tiles = g.inputs()[0];
    let ts = body.value_type(tiles).shape()?.to_vec();
    let t = *ts.last()?;
    use AffineExpr as E;
    let (tile, lane) = (E::FloorDiv(Box::new(E::Dim(1)), Box::new(E::Const(t))), E::Mod(Box::new(E::Dim(1)), Box::new(E::Const(t))));
    let maps = g.maps();
    let read = maps[0].results == [E::Dim(0), tile, E::Dim(2), E::Dim(3), lane];
    (read && maps[1].is_identity() && ts.len() == 5 && body.uses(tiles).len() == 1).then_some((y, tiles, t))
}

/// The fills before `dest` (generics of no input that store one constant,
/// down to a `tensor.empty`): their constant when it is −inf in every one.
fn minus_infinity_fills(body: &Body, mut dest: Value) -> Option<Value> {
    let mut value = None;
    loop {
        let d = body.defining_op(dest)?;
        if body.name(d).as_str() == ops::EMPTY {
            return value;
        }
        if body.name(d).as_str() != ops::GENERIC || body.op(d).results().len() != 1 {
            return None;
        }
        let g = Generic::new(body, d);
        let ops: Vec<OpId> = body.block_ops(g.block()).collect();
        if !g.inputs().is_empty() || g.epilogue().is_some() || ops.len() != 1 {
            return None;
        }
        let v = *body.op(ops[0]).operands().first()?;
        if float_constant(body, v) != Some(f64::NEG_INFINITY) {
            return None;
        }
        value = Some(v);
        dest = g.outputs()[0];
    }
}

/// What the rewrite needs: the pool, the padded copy it reads (none where
/// it pools no padding), the copy back it copies from, the tiles, their width, the padding before each
/// spatial dim, the padded sizes and the −inf the borders hold.
struct Match {
    pool: OpId,
    window: Window,
    padded_copy: Option<OpId>,
    copy_back: OpId,
    tiles: Value,
    t: i64,
    before: [i64; 2],
    padded: [i64; 2],
    minus_inf: Value,
}

fn find(body: &Body, p: OpId) -> Option<Match> {
    let window = max_pool(body, p)?;
    let minus_inf = minus_infinity_fills(body, window.init)?;
    // The pool's input padded (a copy into −inf borders), or not.
    let c = body.defining_op(window.input)?;
    let (padded_copy, src, before) = match super::fold_pad_into_producer::padded_copy(body, c) {
        Some((src, dest, offs)) if offs[..2] == [0, 0] && body.uses(window.input).len() == 1 => {
            minus_infinity_fills(body, dest)?;
            (Some(c), src, [offs[2], offs[3]])
        }
        Some(_) => return None,
        None => (None, window.input, [0, 0]),
    };
    let (copy_back, tiles, t) = from_tiles(body, src)?;
    let ps = body.value_type(window.input).shape()?.to_vec();
    let block = body.op(p).parent_block();
    let same_block = padded_copy.iter().chain([&copy_back]).all(|o| body.op(*o).parent_block() == block);
    same_block.then_some(Match { pool: p, window, padded_copy, copy_back, tiles, t, before, padded: [ps[2], ps[3]], minus_inf })
}

fn tensor(ctx: &Context, shape: &[i64], elem: &ir::Type) -> ir::Type {
    ctx.intern_type(TypeData::RankedTensor { shape: shape.to_vec(), elem: elem.clone(), encoding: None })
}

fn empty(ctx: &Context, body: &mut Body, at: OpId, shape: &[i64], elem: &ir::Type) -> Value {
    let st = OperationState::new(ctx.op_name(ops::EMPTY), body.op(at).loc.clone()).results(&[tensor(ctx, shape, elem)]);
    let op = body.build(st, InsertPoint::Before(at));
    body.op(op).result(0)
}

fn map(n: u32, results: Vec<AffineExpr>) -> AffineMap {
    AffineMap { num_dims: n, num_syms: 0, results }
}

fn plus(e: AffineExpr, c: i64) -> AffineExpr {
    if c == 0 { e } else { AffineExpr::Add(Box::new(e), Box::new(AffineExpr::Const(c))) }
}

fn times(d: u32, c: i64) -> AffineExpr {
    if c == 1 { AffineExpr::Dim(d) } else { AffineExpr::Mul(Box::new(AffineExpr::Dim(d)), Box::new(AffineExpr::Const(c))) }
}

/// `dest` with `value` stored over `ranges` (5 loops) from `offs`.
fn fill(gb: &GenericBuilder, body: &mut Body, at: OpId, dest: Value, ranges: [i64; 5], offs: [i64; 5], value: Value) -> Value {
    let m = map(5, (0..5).map(|d| plus(AffineExpr::Dim(d), offs[d as usize])).collect());
    let op = gb.build(body, InsertPoint::Before(at), &[], &[dest], vec![m], &[Iterator::Parallel; 5], Some(ranges.to_vec()), |_, _, _| vec![value]);
    body.op(op).result(0)
}

/// Erases the op defining `v` and, down its chain of destinations, each that
/// is left without uses (fills and their `tensor.empty`).
fn erase_unused(body: &mut Body, mut v: Value) {
    while let Some(d) = body.defining_op(v).filter(|d| !body.has_uses(v) && matches!(body.name(*d).as_str(), ops::GENERIC | ops::EMPTY)) {
        let next = (body.name(d).as_str() == ops::GENERIC).then(|| Generic::new(body, d).outputs().to_vec());
        body.erase(d);
        match next.as_deref() {
            Some([o]) => v = *o,
            _ => return,
        }
    }
}

fn rewrite(ctx: &Context, body: &mut Body, m: Match) {
    let ts = body.value_type(m.tiles).shape().unwrap().to_vec();
    let elem = body.value_type(m.tiles).element_type().unwrap().clone();
    let (n, mt, h, w, t) = (ts[0], ts[1], ts[2], ts[3], m.t);
    let out_shape = body.value_type(body.op(m.pool).result(0)).shape().unwrap().to_vec();
    let (oh, ow) = (out_shape[2], out_shape[3]);
    let [hp, wp] = m.padded;
    let [pb, qb] = m.before;
    let (pa, qa) = (hp - pb - h, wp - qb - w);
    let at = m.pool;
    // The tiles padded: −inf at the borders, the tiles copied in.
    let tp = match m.padded_copy {
        None => m.tiles,
        Some(c) => {
            let pad_gb = GenericBuilder { ctx, loc: body.op(c).loc.clone() };
            let mut tp = empty(ctx, body, at, &[n, mt, hp, wp, t], &elem);
            for (ranges, offs) in [([n, mt, pb, wp, t], [0; 5]), ([n, mt, pa, wp, t], [0, 0, pb + h, 0, 0]), ([n, mt, hp, qb, t], [0; 5]), ([n, mt, hp, qa, t], [0, 0, 0, qb + w, 0])] {
                if ranges[2] > 0 && ranges[3] > 0 {
                    tp = fill(&pad_gb, body, at, tp, ranges, offs, m.minus_inf);
                }
            }
            let copy_in = map(5, vec![AffineExpr::Dim(0), AffineExpr::Dim(1), plus(AffineExpr::Dim(2), pb), plus(AffineExpr::Dim(3), qb), AffineExpr::Dim(4)]);
            let op = pad_gb.build(body, InsertPoint::Before(at), &[m.tiles], &[tp], vec![AffineMap::identity(5), copy_in], &[Iterator::Parallel; 5], None, |_, _, a| vec![a[0]]);
            body.op(op).result(0)
        }
    };
    // The pool over the tiles: loops n, tile, oh, ow, lane | kh, kw.
    let pool_gb = GenericBuilder { ctx, loc: body.op(m.pool).loc.clone() };
    let q0 = empty(ctx, body, at, &[n, mt, oh, ow, t], &elem);
    let q0 = fill(&pool_gb, body, at, q0, [n, mt, oh, ow, t], [0; 5], m.minus_inf);
    let (s, d) = (m.window.strides, m.window.dilations);
    let read = map(7, vec![AffineExpr::Dim(0), AffineExpr::Dim(1), AffineExpr::Add(Box::new(times(2, s[0])), Box::new(times(5, d[0]))), AffineExpr::Add(Box::new(times(3, s[1])), Box::new(times(6, d[1]))), AffineExpr::Dim(4)]);
    let write = map(7, (0..5).map(AffineExpr::Dim).collect());
    let mut iters = vec![Iterator::Parallel; 5];
    iters.extend([Iterator::Reduction; 2]);
    let ranges = vec![n, mt, oh, ow, t, m.window.kernel[0], m.window.kernel[1]];
    let pool_block = Generic::new(body, m.pool).block();
    let op = pool_gb.build(body, InsertPoint::Before(at), &[tp], &[q0], vec![read, write], &iters, Some(ranges), |body, block, a| {
        let mut vals: HashMap<Value, Value> = body.block_args(pool_block).iter().copied().zip(a.iter().copied()).collect();
        super::fuse_elementwise::clone_block(body, pool_block, block, &mut vals)
    });
    let q = body.op(op).result(0);
    // Copied back to NCHW with the ops that were in the product's copy.
    let back = Generic::new(body, m.copy_back);
    let (back_maps, back_block) = (back.maps(), back.block());
    let back_gb = GenericBuilder { ctx, loc: body.op(m.copy_back).loc.clone() };
    let e = empty(ctx, body, at, &out_shape, &elem);
    let op = back_gb.build(body, InsertPoint::Before(at), &[q], &[e], back_maps, &[Iterator::Parallel; 4], None, |body, block, a| {
        let mut vals: HashMap<Value, Value> = body.block_args(back_block).iter().copied().zip(a.iter().copied()).collect();
        super::fuse_elementwise::clone_block(body, back_block, block, &mut vals)
    });
    let y = body.op(op).result(0);
    let old = body.op(m.pool).result(0);
    body.replace_all_uses(old, y);
    let copies = m.padded_copy.iter().chain([&m.copy_back]).map(|c| body.op(*c).result(0)).collect::<Vec<_>>();
    for v in std::iter::once(old).chain(copies) {
        erase_unused(body, v);
    }
}

impl Pass for PoolOnChannelTiles {
    fn argument(&self) -> &'static str {
        "pool-on-channel-tiles"
    }
    fn display_name(&self) -> &'static str {
        "PoolOnChannelTiles"
    }
    fn anchor(&self) -> Option<&'static str> {
        Some(func::ops::FUNC)
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let pools: Vec<OpId> = cx.body.walk_preorder(root).into_iter().filter(|o| cx.body.name(*o).as_str() == ops::GENERIC).collect();
        let mut n = 0;
        for p in pools {
            if cx.body.is_erased(p) {
                continue;
            }
            if let Some(m) = find(cx.body, p) {
                rewrite(cx.ctx, cx.body, m);
                n += 1;
            }
        }
        cx.stat("num-pooled", "max pools moved onto their producer's channel tiles", n);
        Ok(())
    }
}
