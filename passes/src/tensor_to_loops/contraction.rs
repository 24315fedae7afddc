//! The fast path for contractions (`C[.., i, j] += A[.., i, k] * B[.., k, j]`
//! in any affine form: matmul, batched matmul, Gemm, convolution after
//! im2col): a register-tiled, vectorized loop nest.
//!
//! `j` must be the output's last dim and B's last dim at unit stride (so a row
//! of B and of C are contiguous vectors); `i` indexes A and C but not B; one
//! reduction loop `k`. For each tile of MR rows × NV vectors of 16 lanes (up
//! to 8 vectors when C has fewer than MR rows: a GEMV) the
//! accumulators live in registers (`scf.for` iter_args) across the whole k
//! loop: per k, NV vector loads of B, MR scalar loads of A broadcast, MR×NV
//! fused multiply-adds. The j tail is masked (`vector.maskedload/store`); the
//! i tail runs as one shorter tile. Tiles iterate j-outer so a
//! K×(16·NV) panel of B stays in cache while every row block of A passes.

use super::vectorize::{clone_vectorized, coefficient, lane_elem, uses_dim, vec_type, vectorizable, zeros, Stride2, LANES};
use super::fill::Fill;
use super::B;
use ir::affine::AffineExpr;
use ir::attributes::{AttrData, Attribute};
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, OpId, Value};
use tensor::{Generic, Iterator};

/// The tile: MR rows × NV vectors, 24 accumulators of the 32 vector
/// registers; per k, NV loads of B and MR broadcasts of A feed 24 FMAs (an
/// 8×2 tile fed 16 FMAs with 10 loads: the MLP's GEMMs ran 10-15% slower).
const NV: usize = 4;
const MR: usize = 6;
/// Vectors per row of a tile when the product has few rows (a GEMV, an
/// LSTM's recurrent step): a tile of one row is 8 vectors wide, so that 8
/// dependence chains keep the FMA units busy.
const NV_WIDE: usize = 8;

/// Vectors per tile row for `rows` rows of C: about 24 accumulators in all
/// (of 32 vector registers), no wider than half the `nj` columns when the
/// column loop is the outermost (`split_columns`).
fn vectors_per_row(rows: i64, nj: i64, split_columns: bool) -> usize {
    let by_rows = (24 / rows.clamp(1, MR as i64) as usize).clamp(NV, NV_WIDE);
    let vectors = (nj.max(1) as usize).div_ceil(LANES as usize);
    // At least two column tiles where N has two vectors and the column loop
    // is the one threads split (a 7x7 map's 49 columns in one tile left the
    // second core idle on ResNet-50's last layers); a direct conv's threads
    // split its output rows instead, and its 56-wide rows run as one tile of
    // 4 vectors, not two of 2 (half the loads per multiply-add).
    let at_most = if split_columns { vectors.div_ceil(2) } else { vectors };
    by_rows.min(at_most).max(1)
}
/// From this many rows on, each K×16·NV panel of B is first copied into a
/// contiguous, zero-padded buffer that every row tile then streams: B's rows
/// are far apart (4 KiB apart in a 1024-wide weight, so they all fall into one
/// L1 set), a copy costs one pass over the panel, and the tiles need no masks
/// on B. A GEMV (one row) reads each element of B once, so it keeps reading B
/// where it is.
const PACK_MIN_ROWS: i64 = 16;
/// A packed panel holds at most this many k: 128 × 64 floats are 32 KiB, so
/// the panel stays in L1 (48 KiB here) while every row tile streams it; a
/// deeper product runs block by block, C's tiles reloaded per block (a
/// 64×1024×1024 GEMM: 139 GFLOP/s over whole K, 175 for K = 128).
const PANEL_K: i64 = 128;
const PREFETCH_K: i64 = 8;
const A_L2_BYTES: i64 = 1 << 20;

pub struct Plan {
    a: usize,
    b: usize,
    i: Option<usize>,
    j: usize,
    /// The reduction loops, outermost first: one for a matrix product, the
    /// input channel and the kernel window for a direct convolution.
    ks: Vec<usize>,
    batch: Vec<usize>,
    /// The body is `acc + x * y` in f32 (one `vector.fma`); otherwise it is
    /// cloned on vectors (integer products, zero points subtracted inside).
    fma: bool,
    /// A product of bytes in groups of four (VNNI's `vpdpbusd`): see [`Dot4`].
    dot4: Option<Dot4>,
    /// B's last index moves 1 or 2 per j (a convolution of stride 2 read
    /// directly: 32 elements from lane 0's, their even lanes shuffled out).
    b_stride: i64,
}

/// `C[.., i, j] += ext(A[.., i, .., 4·k + r]) * ext(B[.., j, r])` over a
/// reduction loop `r` of 4, one operand zero-extended (unsigned bytes) and the
/// other sign-extended, in i32: on a host with AVX-512 VNNI each k is one
/// `vpdpbusd` per 16 columns (64 multiply-adds), A's four bytes broadcast as
/// one 32-bit word, B's 16 × 4 bytes one 64-byte load. The int8 lowerings
/// (`onnx_to_tensor/int8.rs`) pack their operands so.
#[derive(Clone, Copy)]
struct Dot4 {
    r: usize,
    /// B holds the unsigned bytes (vpdpbusd's first source), else A does.
    b_unsigned: bool,
}

/// Whether the body is exactly `yield acc + ext(x) * ext(y)` in i32 over the
/// first two inputs (i8), one `extui` and one `extsi`: Some(input 0 is the
/// unsigned one).
fn byte_product(body: &Body, block: ir::Block, n_in: usize) -> Option<bool> {
    let all = body.block_args(block).to_vec();
    let ops: Vec<OpId> = body.block_ops(block).collect();
    if ops.len() != 5 || all.len() != n_in + 1 || all[2..n_in].iter().any(|a| body.has_uses(*a)) {
        return None;
    }
    let names: Vec<&str> = ops.iter().map(|o| body.name(*o).as_str()).collect();
    if names[2..] != ["arith.muli", "arith.addi", "tensor.yield"] {
        return None;
    }
    let mut unsigned_of = [None, None];
    for &e in &ops[..2] {
        let kind = match body.name(e).as_str() {
            "arith.extui" => true,
            "arith.extsi" => false,
            _ => return None,
        };
        let k = all[..2].iter().position(|a| body.op(e).operands() == [*a])?;
        unsigned_of[k] = Some(kind);
    }
    let (u0, u1) = (unsigned_of[0]?, unsigned_of[1]?);
    let mo = body.op(ops[2]).operands();
    let exts = [body.op(ops[0]).result(0), body.op(ops[1]).result(0)];
    let ao = body.op(ops[3]).operands();
    let p = body.op(ops[2]).result(0);
    let ok = (u0 != u1) && (mo == exts || mo == [exts[1], exts[0]]) && (ao == [all[n_in], p] || ao == [p, all[n_in]]) && body.op(ops[4]).operands() == [body.op(ops[3]).result(0)];
    ok.then_some(u0)
}

/// The column loop `j`: C's last index, when every index of C is a loop.
fn column_loop(cm: &ir::affine::AffineMap) -> Option<usize> {
    let j = out_dim(cm.results.last()?)?;
    cm.results.iter().all(|e| out_dim(e).is_some()).then_some(j)
}

/// The loop of an output index `d` or `d + c` (a product written into the
/// interior of a padded buffer, `fold-pad-into-producer`).
fn out_dim(e: &AffineExpr) -> Option<usize> {
    e.dim_plus_const().map(|(d, _)| d as usize)
}

/// The row loop `i` (the innermost other index of C that operand `b` does not
/// use: a matrix product's row, a convolution's output channel or position)
/// and the batch loops (the other parallel ones), when any epilogue runs on
/// vectors along `j`.
fn rows_and_batch(body: &Body, g: &Generic, maps: &[ir::affine::AffineMap], b: usize, j: usize, reds: &[usize]) -> Option<(Option<usize>, Vec<usize>)> {
    let (cm, bm) = (&maps[g.inputs().len()], &maps[b]);
    let i = cm.results[..cm.results.len() - 1].iter().rev().find_map(|e| out_dim(e).filter(|&i| !bm.results.iter().any(|x| uses_dim(x, i))));
    let batch = (0..g.iterators().len()).filter(|&l| l != j && !reds.contains(&l) && Some(l) != i).collect();
    if let Some(ep) = g.epilogue() {
        if !epilogue_vectorizes(body, ep, g.inputs(), maps, j) {
            return None;
        }
    }
    Some((i, batch))
}

/// The [`Dot4`] plan of a generic, if it is one and the host has VNNI.
fn plan_dot4(ctx: &Context, body: &Body, g: &Generic) -> Option<Plan> {
    let (ins, outs) = (g.inputs(), g.outputs());
    if ins.len() < 2 || outs.len() != 1 || lane_elem(body.value_type(outs[0]))? != ctx.i32() || !ins[..2].iter().all(|v| lane_elem(body.value_type(*v)) == Some(ctx.int_type(8))) {
        return None;
    }
    let a0_unsigned = byte_product(body, g.block(), ins.len())?;
    if !crate::host_has_vnni() {
        return None;
    }
    let (maps, iters, sizes) = (g.maps(), g.iterators(), g.loop_sizes());
    let reds: Vec<usize> = (0..iters.len()).filter(|&l| iters[l] == Iterator::Reduction).collect();
    let r = *reds.last()?;
    if sizes[r] != Some(4) {
        return None;
    }
    let j = column_loop(&maps[ins.len()])?;
    for b in 0..2 {
        let (bm, am) = (&maps[b], &maps[1 - b]);
        let n = bm.results.len();
        // B[.., j, r]: 16 consecutive j of 4 bytes each, one 64-byte row.
        let b_ok = n >= 2
            && bm.results[n - 1] == AffineExpr::Dim(r as u32)
            && coefficient(&bm.results[n - 2], j) == Some(1)
            && !bm.results[..n - 2].iter().any(|e| uses_dim(e, j) || uses_dim(e, r))
            && !uses_dim(&bm.results[n - 2], r)
            && body.value_type(ins[b]).shape().and_then(|s| s.last().copied()) == Some(4);
        // A[.., 4·k + r]: four consecutive bytes, one 32-bit word.
        let a_ok = am.results.split_last().is_some_and(|(last, rest)| coefficient(last, r) == Some(1) && !rest.iter().any(|e| uses_dim(e, r))) && !am.results.iter().any(|e| uses_dim(e, j));
        if !(b_ok && a_ok) {
            continue;
        }
        let (i, batch) = rows_and_batch(body, g, &maps, b, j, &reds)?;
        let b_unsigned = if b == 0 { a0_unsigned } else { !a0_unsigned };
        let ks = reds.iter().copied().filter(|&l| l != r).collect();
        return Some(Plan { a: 1 - b, b, i, j, ks, batch, fma: false, dot4: Some(Dot4 { r, b_unsigned }), b_stride: 1 });
    }
    None
}

/// Whether the body is exactly `yield acc + x * y` in f32 over the first two
/// inputs (other inputs, read only by an epilogue, unused).
fn is_mul_add(body: &Body, block: ir::Block, n_in: usize) -> bool {
    let all = body.block_args(block).to_vec();
    let ops: Vec<OpId> = body.block_ops(block).collect();
    if ops.len() != 3 || all.len() != n_in + 1 || all[2..n_in].iter().any(|a| body.has_uses(*a)) {
        return false;
    }
    let args = [all[0], all[1], all[n_in]];
    let (m, a, y) = (ops[0], ops[1], ops[2]);
    if body.name(m).as_str() != "arith.mulf" || body.name(a).as_str() != "arith.addf" || body.name(y).as_str() != "tensor.yield" {
        return false;
    }
    let mo = body.op(m).operands();
    let ins_ok = (mo[0] == args[0] && mo[1] == args[1]) || (mo[0] == args[1] && mo[1] == args[0]);
    let p = body.op(m).result(0);
    let ao = body.op(a).operands();
    let add_ok = (ao[0] == args[2] && ao[1] == p) || (ao[1] == args[2] && ao[0] == p);
    ins_ok && add_ok && body.op(y).operands() == [body.op(a).result(0)]
}

/// Whether the body is `yield acc + p` (addf or addi), `p` computed by
/// vectorizable ops from the first two inputs, constants, and inputs read at
/// one fixed element (a zero point): an integer product such as
/// `(extui(x) - extui(zp)) * extsi(w)`.
fn is_acc_plus(body: &Body, block: ir::Block, ins: &[Value], maps: &[ir::affine::AffineMap]) -> bool {
    let all = body.block_args(block).to_vec();
    let ops: Vec<OpId> = body.block_ops(block).collect();
    let n_in = ins.len();
    if ops.len() < 3 || all.len() != n_in + 1 || !ops.iter().all(|o| vectorizable(body.name(*o).as_str())) {
        return false;
    }
    if (2..n_in).any(|k| body.has_uses(all[k]) && !maps[k].results.iter().all(|e| matches!(e, AffineExpr::Const(_)))) {
        return false;
    }
    let (add, y) = (ops[ops.len() - 2], ops[ops.len() - 1]);
    if !matches!(body.name(add).as_str(), "arith.addf" | "arith.addi") || body.op(y).operands() != [body.op(add).result(0)] {
        return false;
    }
    let acc = all[n_in];
    let ao = body.op(add).operands();
    // The accumulator feeds the final add and nothing else.
    (ao[0] == acc) != (ao[1] == acc) && body.uses(acc).len() == 1
}

pub fn plan(ctx: &Context, body: &Body, op: OpId) -> Option<Plan> {
    let g = Generic::new(body, op);
    let (ins, outs) = (g.inputs(), g.outputs());
    if ins.len() < 2 || outs.len() != 1 || !ins.iter().chain(outs).all(|v| lane_elem(body.value_type(*v)).is_some()) {
        return None;
    }
    if let Some(p) = plan_dot4(ctx, body, &g) {
        return Some(p);
    }
    let out_elem = lane_elem(body.value_type(outs[0]))?;
    let maps = g.maps();
    let fma = out_elem == ctx.f32() && ins[..2].iter().all(|v| lane_elem(body.value_type(*v)) == Some(ctx.f32())) && is_mul_add(body, g.block(), ins.len());
    if !fma && !(matches!(out_elem.int_width(), Some(32)) && is_acc_plus(body, g.block(), ins, &maps)) {
        return None;
    }
    let iters = g.iterators();
    let reds: Vec<usize> = (0..iters.len()).filter(|&l| iters[l] == Iterator::Reduction).collect();
    if reds.is_empty() {
        return None;
    }
    let j = column_loop(&maps[ins.len()])?;
    for b in 0..2 {
        let bm = &maps[b];
        let am = &maps[1 - b];
        // B's last index is j plus terms without j (a direct convolution
        // reads its input row at ow + kw): 16 consecutive j, one vector.
        let b_last = bm.results.last().and_then(|e| coefficient(e, j));
        if !matches!(b_last, Some(1 | 2)) || bm.results[..bm.results.len() - 1].iter().any(|e| uses_dim(e, j)) || am.results.iter().any(|e| uses_dim(e, j)) {
            continue;
        }
        let (i, batch) = rows_and_batch(body, &g, &maps, b, j, &reds)?;
        // No row shares B's vectors (a depthwise conv: every output loop
        // moves its input) and a row has few of them: one accumulator chain
        // here; the vectorized loops keep four rows' chains apart.
        let sizes = g.loop_sizes();
        let narrow = sizes[j].is_some_and(|n| n < LANES * NV as i64);
        if i.is_none() && narrow && batch.iter().any(|&l| sizes[l].is_some_and(|n| n >= 4)) {
            return None;
        }
        return Some(Plan { a: 1 - b, b, i, j, ks: reds.clone(), batch, fma, dot4: None, b_stride: b_last.unwrap_or(1) });
    }
    None
}

/// The epilogue runs on vectors of the j dimension: its ops are elementwise,
/// and each input it reads is either contiguous along j (last index j, at
/// unit stride) or independent of j (broadcast).
fn epilogue_vectorizes(body: &Body, ep: ir::Block, ins: &[Value], maps: &[ir::affine::AffineMap], j: usize) -> bool {
    if !body.block_ops(ep).all(|o| vectorizable(body.name(o).as_str())) {
        return false;
    }
    let args = body.block_args(ep);
    ins.iter().enumerate().all(|(k, v)| {
        if !body.has_uses(args[1 + k]) {
            return true;
        }
        let m = &maps[k];
        let uses_j = m.results.iter().any(|e| uses_dim(e, j));
        let contiguous = m.results.last() == Some(&AffineExpr::Dim(j as u32)) && !m.results[..m.results.len() - 1].iter().any(|e| uses_dim(e, j));
        lane_elem(body.value_type(*v)).is_some() && (!uses_j || contiguous)
    })
}

/// Four bytes of `m` from `idx` as a 64-byte vector holding them 16 times.
fn dot4_broadcast(b: &B, body: &mut Body, at: &mut InsertPoint, m: Value, idx: &[Value], bytes_t: &ir::Type) -> Value {
    let ctx = b.ctx;
    let vt = |shape: i64, elem: ir::Type| ctx.intern_type(TypeData::Vector { shape: vec![shape], scalable: vec![false], elem });
    let mut ops = vec![m];
    ops.extend_from_slice(idx);
    let o = b.op(body, at, "vector.load", &ops, &[vt(4, ctx.int_type(8))], &[]);
    let w = b.op(body, at, "vector.bitcast", &[body.op(o).result(0)], &[vt(1, ctx.i32())], &[]);
    let s = b.op(body, at, "vector.broadcast", &[body.op(w).result(0)], &[vt(LANES, ctx.i32())], &[]);
    let x = b.op(body, at, "vector.bitcast", &[body.op(s).result(0)], &[bytes_t.clone()], &[]);
    body.op(x).result(0)
}

/// `acc + Σ_{4 bytes} u·s` per 32-bit lane (u unsigned, s signed bytes).
fn vpdpbusd(b: &B, body: &mut Body, at: &mut InsertPoint, acc: Value, u: Value, s: Value) -> Value {
    let ctx = b.ctx;
    let i32s = |v: Vec<i64>| Attribute::new(AttrData::DenseArray { elem: ctx.i32(), data: ir::attributes::ArrayData::Int(v) });
    let t = body.value_type(acc).clone();
    let props = [("intrin", Attribute::string("llvm.x86.avx512.vpdpbusd.512")), ("operandSegmentSizes", i32s(vec![3, 0])), ("op_bundle_sizes", i32s(vec![]))];
    let o = b.op(body, at, "llvm.call_intrinsic", &[acc, u, s], &[t], &props);
    body.op(o).result(0)
}

/// Whether a block of k is the first (or the last): always (one block), or
/// when a condition computed in the loop over blocks holds.
#[derive(Clone, Copy, PartialEq)]
enum When {
    Always,
    If(Value),
}

pub fn lower(b: &B, body: &mut Body, op: OpId, p: &Plan, sizes: &[i64], fill: Option<Fill>) {
    let ctx = b.ctx;
    let g = Generic::new(body, op);
    let (ins, out) = (g.inputs().to_vec(), g.outputs()[0]);
    let maps = g.maps();
    let (ep, block) = (g.epilogue(), g.block());
    let (am, bm, cm) = (maps[p.a].clone(), maps[p.b].clone(), maps[ins.len()].clone());
    let (av, bv) = (ins[p.a], ins[p.b]);
    let elems: Vec<ir::Type> = ins.iter().chain([&out]).map(|v| lane_elem(body.value_type(*v)).expect("planned")).collect();
    let vts: Vec<ir::Type> = elems.iter().map(|e| vec_type(ctx, e)).collect();
    let (vta, vtb, vt) = (vts[p.a].clone(), vts[p.b].clone(), vts[ins.len()].clone());
    let mt = vec_type(ctx, &ctx.i1());
    let n = sizes.len();
    let mut at = InsertPoint::Before(op);
    // Zeros of each operand's type, the masked lanes' value.
    let zeros: Vec<Value> = elems.iter().map(|e| zeros(b, body, &mut at, e)).collect();
    let (zb, zero) = (zeros[p.b], zeros[ins.len()]);
    // Inputs the body reads at one fixed element (zero points), broadcast once.
    let bargs = body.block_args(block).to_vec();
    let mut extras = Vec::new();
    for k in 2..ins.len() {
        extras.push(if !p.fma && body.has_uses(bargs[k]) {
            let idx: Vec<Value> = maps[k].results.iter().map(|e| b.expr(body, &mut at, e, &[])).collect();
            let s = b.load(body, &mut at, ins[k], &idx);
            let o = b.op(body, &mut at, "vector.broadcast", &[s], &[vts[k].clone()], &[]);
            body.op(o).result(0)
        } else {
            zeros[k]
        });
    }
    // A dot4 product reads B as 64 bytes (16 columns × 4) and its r index is 0.
    let bytes_t = ctx.intern_type(TypeData::Vector { shape: vec![4 * LANES], scalable: vec![false], elem: ctx.int_type(8) });
    let (vtb, zb) = match p.dot4 {
        Some(_) => {
            let z = Attribute::new(AttrData::Dense { ty: bytes_t.clone(), data: ir::attributes::DenseData::canonical(vec![0], 1, 1) });
            let o = b.op(body, &mut at, "arith.constant", &[], &[bytes_t.clone()], &[("value", z)]);
            (bytes_t.clone(), body.op(o).result(0))
        }
        None => (vtb, zb),
    };
    let mut ivs: Vec<Option<Value>> = vec![None; n];
    if let Some(d) = p.dot4 {
        ivs[d.r] = Some(b.index(body, &mut at, 0));
    }
    let m_total = p.i.map(|i| sizes[i]).unwrap_or(1);
    // The column loop is the outermost unless a batch loop of more than one iteration is.
    let split_columns = !p.batch.iter().any(|&l| sizes[l] > 1);
    let nv = vectors_per_row(m_total, sizes[p.j], split_columns);
    // A panel for one reduction loop (a matrix product's k).
    let kk = if p.ks.len() == 1 { sizes[p.ks[0]] } else { 0 };
    // Blocks of k only pay where A, re-read in short runs per block, stays
    // in L2 (ResNet-18's 7×7 layers, 9 MB of weights as A, ran at half speed).
    let block_k = if m_total * kk * 4 > A_L2_BYTES { kk.max(1) } else { PANEL_K };
    let panel_type = (m_total >= PACK_MIN_ROWS && kk > 0 && p.dot4.is_none() && p.b_stride == 1).then(|| ctx.intern_type(TypeData::MemRef { shape: vec![kk.min(block_k), LANES * nv as i64], elem: elems[p.b].clone(), layout: None, memory_space: None }));
    // The outermost loop and its body: its iterations write disjoint tiles of
    // C, so it may run in parallel (the panel is then per iteration).
    let mut top: Option<(OpId, ir::Block, usize)> = None;
    // Batch loops.
    for &l in &p.batch {
        // A loop of one iteration is its index, 0.
        if sizes[l] == 1 {
            ivs[l] = Some(b.index(body, &mut at, 0));
            continue;
        }
        let (fop, block, iv, _) = b.for_loop(body, &mut at, sizes[l], &[]);
        top.get_or_insert((fop, block, l));
        b.yield_(body, block, &[]);
        ivs[l] = Some(iv);
        at = InsertPoint::Before(body.last_op(block).unwrap());
    }
    // j0 loop, step 16·nv.
    let nj = sizes[p.j];
    let step = LANES * nv as i64;
    let (jblock, j0) = {
        let lb = b.index(body, &mut at, 0);
        let ub = b.index(body, &mut at, nj);
        let st = b.index(body, &mut at, step);
        let (fop, block, iv) = b.for_range(body, &mut at, lb, ub, st);
        top.get_or_insert((fop, block, p.j));
        (block, iv)
    };
    b.yield_(body, jblock, &[]);
    let mut at_j = InsertPoint::Before(body.last_op(jblock).unwrap());
    let (top_op, top_block, top_dim) = top.expect("the j0 loop at least");
    // The panel, allocated and freed in each iteration of the outermost loop.
    let panel = panel_type.map(|pt| {
        let segs = Attribute::new(AttrData::DenseArray { elem: ctx.i32(), data: ir::attributes::ArrayData::Int(vec![0, 0]) });
        let o = b.op(body, &mut InsertPoint::AtStart(top_block), "memref.alloc", &[], &[pt], &[("operandSegmentSizes", segs), ("alignment", Attribute::integer(64, ctx.i64()))]);
        body.op(o).result(0)
    });
    let g = Generic::new(body, op);
    let (outs, iters) = (g.outputs().to_vec(), g.iterators());
    if super::parallel_safe(body, op, &ins, &outs, &maps, &iters, top_dim) {
        super::mark_parallel(ctx, body, top_op);
    }
    // Lane offsets and masks of this column tile.
    let mut jvs = Vec::new();
    let mut masks = Vec::new();
    let mut byte_masks = Vec::new();
    let mut stride2_masks = Vec::new();
    let byte_mask_t = ctx.intern_type(TypeData::Vector { shape: vec![4 * LANES], scalable: vec![false], elem: ctx.i1() });
    let nj_v = b.index(body, &mut at_j, nj);
    for v in 0..nv {
        let off = b.index(body, &mut at_j, LANES * v as i64);
        let jv = b.bin(body, &mut at_j, "arith.addi", j0, off);
        let rem = b.bin(body, &mut at_j, "arith.subi", nj_v, jv);
        let m = b.op(body, &mut at_j, "vector.create_mask", &[rem], &[mt.clone()], &[]);
        jvs.push(jv);
        masks.push(body.op(m).result(0));
        if p.b_stride == 2 {
            stride2_masks.push(Stride2::new(b, body, &mut at_j, rem));
        }
        if p.dot4.is_some() {
            let four = b.index(body, &mut at_j, 4);
            let rem4 = b.bin(body, &mut at_j, "arith.muli", rem, four);
            let m4 = b.op(body, &mut at_j, "vector.create_mask", &[rem4], &[byte_mask_t.clone()], &[]);
            byte_masks.push(body.op(m4).result(0));
        }
    }
    let full = m_total - m_total % MR as i64;
    // The affine indices of `map` at row `row`, column vector `v` (j0 without
    // one) and reduction index `k` (dims a map does not use get j0).
    let index_list = |row: Option<Value>, v: Option<usize>, k: Option<&[Value]>| -> Vec<Value> {
        (0..n)
            .map(|l| {
                if l == p.j {
                    v.map(|v| jvs[v]).unwrap_or(j0)
                } else if Some(l) == p.i {
                    row.unwrap_or(j0)
                } else if let Some(pos) = p.ks.iter().position(|&x| x == l) {
                    k.map_or(j0, |k| k[pos])
                } else {
                    ivs[l].unwrap_or(j0)
                }
            })
            .collect()
    };
    // Copies rows [k_lo, k_hi) of this column tile's K×16·nv panel of B into
    // the panel's rows from 0, zeros past N.
    let pack = |body: &mut Body, at: &mut InsertPoint, panel: Value, k_lo: Value, k_hi: Value| {
        let (_, kblock, kiv, _) = b.for_between(body, at, k_lo, k_hi, &[]);
        b.yield_(body, kblock, &[]);
        let mut atk = InsertPoint::Before(body.last_op(kblock).unwrap());
        let row = b.bin(body, &mut atk, "arith.subi", kiv, k_lo);
        for v in 0..nv {
            let iv = index_list(None, Some(v), Some(&[kiv]));
            let mut ops = vec![bv];
            ops.extend(bm.results.iter().map(|e| b.expr(body, &mut atk, e, &iv)).collect::<Vec<_>>());
            ops.extend([masks[v], zb]);
            let o = b.op(body, &mut atk, "vector.maskedload", &ops, &[vtb.clone()], &[]);
            let x = body.op(o).result(0);
            {
                let ahead = b.index(body, &mut atk, PREFETCH_K);
                let kf = b.bin(body, &mut atk, "arith.addi", kiv, ahead);
                let iv = index_list(None, Some(v), Some(&[kf]));
                let mut pops = vec![bv];
                pops.extend(bm.results.iter().map(|e| b.expr(body, &mut atk, e, &iv)).collect::<Vec<_>>());
                let f = Attribute::integer(0, ctx.i1());
                let t = Attribute::integer(1, ctx.i1());
                b.op(body, &mut atk, "memref.prefetch", &pops, &[], &[("isWrite", f), ("localityHint", Attribute::integer(3, ctx.i32())), ("isDataCache", t)]);
            }
            let col = b.index(body, &mut atk, LANES * v as i64);
            b.op(body, &mut atk, "vector.store", &[x, panel, row, col], &[], &[]);
        }
    };
    // Row tiles of MR, then the remaining rows as one shorter tile. With a
    // panel, `krange` is the block of k it holds (the one reduction loop runs
    // over it); the accumulators start from the fill in the `first` block,
    // and the epilogue runs in the `last`.
    let emit_rows = |body: &mut Body, at: &mut InsertPoint, lo: i64, hi: i64, mr: usize, krange: Option<(Value, Value)>, first: When, last: When| {
        if lo >= hi {
            return;
        }
        let lbv = b.index(body, at, lo);
        let ubv = b.index(body, at, hi);
        let stv = b.index(body, at, mr as i64);
        let (_, iblock, i0) = b.for_range(body, at, lbv, ubv, stv);
        b.yield_(body, iblock, &[]);
        let mut ati = InsertPoint::Before(body.last_op(iblock).unwrap());
        let mut rows = Vec::new();
        for r in 0..mr {
            let rv = b.index(body, &mut ati, r as i64);
            rows.push(b.bin(body, &mut ati, "arith.addi", i0, rv));
        }
        // Index lists for C at (row r, vector v), with k unused.
        let idx_at = |body: &mut Body, at: &mut InsertPoint, map: &ir::affine::AffineMap, r: usize, v: Option<usize>, k: Option<&[Value]>| -> Vec<Value> {
            let iv = index_list(Some(rows[r]), v, k);
            map.results.iter().map(|e| b.expr(body, at, e, &iv)).collect()
        };
        // The accumulators: the fill's values or C's.
        let init = |body: &mut Body, at: &mut InsertPoint, from_fill: bool| -> Vec<Value> {
            let mut accs = Vec::new();
            for r in 0..mr {
                for v in 0..nv {
                    if let Some(f) = fill.as_ref().filter(|_| from_fill) {
                        let ivs = index_list(Some(rows[r]), Some(v), None);
                        accs.push(f.init(b, body, at, &ivs, p.j, masks[v], zero, &vt));
                        continue;
                    }
                    let mut ops = vec![out];
                    ops.extend(idx_at(body, at, &cm, r, Some(v), None));
                    ops.extend([masks[v], zero]);
                    let o = b.op(body, at, "vector.maskedload", &ops, &[vt.clone()], &[]);
                    accs.push(body.op(o).result(0));
                }
            }
            accs
        };
        let accs = match (first, fill.is_some()) {
            (When::If(c), true) => {
                let types = vec![vt.clone(); mr * nv];
                let (iop, tb, eb) = b.if_else(body, &mut ati, c, &types);
                let t = init(body, &mut InsertPoint::AtEnd(tb), true);
                b.yield_(body, tb, &t);
                let e = init(body, &mut InsertPoint::AtEnd(eb), false);
                b.yield_(body, eb, &e);
                body.op(iop).results().to_vec()
            }
            (first, _) => init(body, &mut ati, first == When::Always),
        };
        // The reduction loops, the accumulators carried through all of them.
        let (mut loops, mut kivs, mut kargs) = (Vec::new(), Vec::new(), accs);
        let mut atk = ati;
        for &kd in &p.ks {
            let (kop, kblock, kiv, args) = match krange {
                Some((k_lo, k_hi)) => b.for_between(body, &mut atk, k_lo, k_hi, &kargs),
                None => b.for_loop(body, &mut atk, sizes[kd], &kargs),
            };
            loops.push((kop, kblock));
            kivs.push(kiv);
            kargs = args;
            atk = InsertPoint::AtEnd(kblock);
        }
        let mut bvecs = Vec::new();
        for v in 0..nv {
            let o = if let (Some(panel), Some((k_lo, _))) = (panel, krange) {
                let row = b.bin(body, &mut atk, "arith.subi", kivs[0], k_lo);
                let col = b.index(body, &mut atk, LANES * v as i64);
                b.op(body, &mut atk, "vector.load", &[panel, row, col], &[vtb.clone()], &[])
            } else if p.b_stride == 2 {
                // Two vectors from lane 0's element, their even lanes.
                let mut ops = vec![bv];
                ops.extend(idx_at(body, &mut atk, &bm, 0, Some(v), Some(&kivs)));
                bvecs.push(stride2_masks[v].load(b, body, &mut atk, &ops, zb, &vtb));
                continue;
            } else {
                let idx = idx_at(body, &mut atk, &bm, 0, Some(v), Some(&kivs));
                let mut ops = vec![bv];
                ops.extend(idx);
                ops.push(if p.dot4.is_some() { byte_masks[v] } else { masks[v] });
                ops.push(zb);
                b.op(body, &mut atk, "vector.maskedload", &ops, &[vtb.clone()], &[])
            };
            bvecs.push(body.op(o).result(0));
        }
        let mut new_accs = Vec::new();
        for r in 0..mr {
            let idx = idx_at(body, &mut atk, &am, r, None, Some(&kivs));
            if let Some(d) = p.dot4 {
                // A's four bytes as one word, broadcast to 16 lanes, then one vpdpbusd per vector.
                let a = dot4_broadcast(b, body, &mut atk, av, &idx, &bytes_t);
                for v in 0..nv {
                    let (u, s) = if d.b_unsigned { (bvecs[v], a) } else { (a, bvecs[v]) };
                    let acc = kargs[r * nv + v];
                    new_accs.push(vpdpbusd(b, body, &mut atk, acc, u, s));
                }
                continue;
            }
            let a = b.load(body, &mut atk, av, &idx);
            let ab = b.op(body, &mut atk, "vector.broadcast", &[a], &[vta.clone()], &[]);
            let ab = body.op(ab).result(0);
            for v in 0..nv {
                let acc = kargs[r * nv + v];
                if p.fma {
                    let o = b.op(body, &mut atk, "vector.fma", &[ab, bvecs[v], acc], &[vt.clone()], &[]);
                    new_accs.push(body.op(o).result(0));
                } else {
                    let mut args = vec![ab, bvecs[v]];
                    if p.a == 1 {
                        args.swap(0, 1);
                    }
                    args.extend(extras.iter().copied());
                    args.push(acc);
                    new_accs.push(clone_vectorized(b, body, &mut atk, block, &args)[0]);
                }
            }
        }
        let mut results = new_accs;
        for (kop, kblock) in loops.iter().rev() {
            b.yield_(body, *kblock, &results);
            results = body.op(*kop).results().to_vec();
        }
        // The stores, through the epilogue or not.
        let store = |body: &mut Body, ati: &mut InsertPoint, with_epilogue: bool| {
        for r in 0..mr {
            for v in 0..nv {
                let mut value = results[r * nv + v];
                if let Some(ep) = ep.filter(|_| with_epilogue) {
                    // The fused epilogue on the accumulator vector: inputs along j
                    // as vectors, the others broadcast, each op on vectors.
                    let eargs = body.block_args(ep).to_vec();
                    let mut args = vec![value];
                    for (k, input) in ins.iter().enumerate() {
                        if !body.has_uses(eargs[1 + k]) {
                            args.push(value);
                            continue;
                        }
                        let idx = idx_at(body, ati, &maps[k], r, Some(v), None);
                        let along_j = maps[k].results.iter().any(|e| uses_dim(e, p.j));
                        let x = if along_j {
                            let mut ops = vec![*input];
                            ops.extend(idx);
                            ops.push(masks[v]);
                            ops.push(zeros[k]);
                            let o = b.op(body, ati, "vector.maskedload", &ops, &[vts[k].clone()], &[]);
                            body.op(o).result(0)
                        } else {
                            let s = b.load(body, ati, *input, &idx);
                            let o = b.op(body, ati, "vector.broadcast", &[s], &[vts[k].clone()], &[]);
                            body.op(o).result(0)
                        };
                        args.push(x);
                    }
                    value = clone_vectorized(b, body, ati, ep, &args)[0];
                }
                let idx = idx_at(body, ati, &cm, r, Some(v), None);
                let mut ops = vec![out];
                ops.extend(idx);
                ops.push(masks[v]);
                ops.push(value);
                b.op(body, ati, "vector.maskedstore", &ops, &[], &[]);
            }
        }
        };
        match last {
            When::If(c) if ep.is_some() => {
                let (_, tb, eb) = b.if_else(body, &mut ati, c, &[]);
                b.yield_(body, tb, &[]);
                b.yield_(body, eb, &[]);
                store(body, &mut InsertPoint::Before(body.last_op(tb).unwrap()), true);
                store(body, &mut InsertPoint::Before(body.last_op(eb).unwrap()), false);
            }
            last => store(body, &mut ati, last == When::Always),
        }
    };
    let all_rows = |body: &mut Body, at: &mut InsertPoint, krange: Option<(Value, Value)>, first: When, last: When| {
        if p.i.is_some() {
            emit_rows(body, at, 0, full, MR, krange, first, last);
            // The rows left over as one tile of their own height.
            emit_rows(body, at, full, m_total, (m_total - full) as usize, krange, first, last);
        } else {
            emit_rows(body, at, 0, 1, 1, krange, first, last);
        }
    };
    match panel {
        Some(panel) if kk > block_k => {
            // Blocks of block_k k (the last 1..=block_k), each packed, then
            // every row tile over it: one copy of the kernel, the first
            // block and the last chosen at run time.
            let last_lo = (kk - 1) / block_k * block_k;
            let (lb, ub, st) = (b.index(body, &mut at_j, 0), b.index(body, &mut at_j, kk), b.index(body, &mut at_j, block_k));
            let (_, kbblock, kb) = b.for_range(body, &mut at_j, lb, ub, st);
            b.yield_(body, kbblock, &[]);
            let mut atb = InsertPoint::Before(body.last_op(kbblock).unwrap());
            let hi = b.bin(body, &mut atb, "arith.addi", kb, st);
            let hi = b.bin(body, &mut atb, "arith.minsi", hi, ub);
            pack(body, &mut atb, panel, kb, hi);
            let is_first = b.cmp(body, &mut atb, kb, lb);
            let last_v = b.index(body, &mut atb, last_lo);
            let is_last = b.cmp(body, &mut atb, kb, last_v);
            all_rows(body, &mut atb, Some((kb, hi)), When::If(is_first), When::If(is_last));
        }
        Some(panel) => {
            let (lo, hi) = (b.index(body, &mut at_j, 0), b.index(body, &mut at_j, kk));
            pack(body, &mut at_j, panel, lo, hi);
            all_rows(body, &mut at_j, Some((lo, hi)), When::Always, When::Always);
        }
        None => all_rows(body, &mut at_j, None, When::Always, When::Always),
    }
    if let Some(f) = fill {
        body.erase(f.op);
    }
    if let Some(panel) = panel {
        // Last in the outermost loop's body, after every use.
        b.op(body, &mut InsertPoint::Before(body.last_op(top_block).unwrap()), "memref.dealloc", &[panel], &[], &[]);
    }
    body.erase(op);
}
