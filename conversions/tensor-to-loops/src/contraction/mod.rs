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

use super::vectorize::{coefficient, lane_elem, uses_dim, vectorizable, LANES};
use ir::affine::AffineExpr;
use ir::{Body, Context, OpId, Value};
use tensor::{Generic, Iterator};

mod emit;
pub use emit::lower;

/// The register tile comes from the host (`crate::cpu_target`). On AVX-512:
/// MR = 6 rows × NV = 4 vectors, 24 accumulators of the 32 vector registers;
/// per k, NV loads of B and MR broadcasts of A feed 24 FMAs (an 8×2 tile fed
/// 16 FMAs with 10 loads: the MLP's GEMMs ran 10-15% slower). A tile two
/// vectors wide (a direct conv over 28-wide rows, a product of 17-32 columns)
/// is 12 rows high: 24 FMAs for 2 loads of B and 12 broadcasts (6 × 2 fed 12
/// with 8 loads: ResNet-18's 28×28 convs 1.68 → 1.33 ms). A tile of one row (a
/// GEMV, an LSTM's recurrent step) is 8 vectors wide, so that 8 dependence
/// chains keep the FMA units busy. On AVX2 (16 registers of 8 lanes) the
/// same shapes with a quarter of the accumulators: 6 × 1, 3 × 2, 1 × 4.
fn tile() -> crate::Tile {
    crate::cpu_target().tile()
}

/// Vectors per tile row for `rows` rows of C: the tile's accumulators in all,
/// no wider than half the `nj` columns when the column loop is the outermost
/// (`split_columns`).
fn vectors_per_row(t: &crate::Tile, rows: i64, nj: i64, split_columns: bool) -> usize {
    let by_rows = (t.accumulators / rows.clamp(1, t.rows as i64) as usize).clamp(t.vectors, t.vectors_one_row);
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
/// where it is, and so does a B already in panels (weights packed at compile
/// time as `[tiles, K, 16·NV]`: `onnx_to_tensor`'s `column_panels` and its
/// channels-along-lanes convs), read in the same
/// blocks of k.
const PACK_MIN_ROWS: i64 = 16;
/// ... and from this many terms (k) on: a shorter panel's few rows of B are
/// few streams for the prefetchers, and its copy costs about as much as the
/// tiles' reads of it (MobileNetV2's 1×1 convs over 112×112 maps, k = 16 and
/// 32: 0.81 → 0.56-0.71 ms and 0.24 → 0.16-0.21 ms read in place; the model
/// 9.6 → 9.0 ms, medians of alternating runs).
const PACK_MIN_TERMS: i64 = 65;
/// Columns below which a product without rows shared by B (a depthwise conv)
/// is narrow: the vectorized loops run it, four rows' chains apart.
const NARROW_COLUMNS: i64 = 64;
/// A packed panel holds at most this many k: 128 × 64 floats are 32 KiB, so
/// the panel stays in L1 (48 KiB here) while every row tile streams it; a
/// deeper product runs block by block, C's tiles reloaded per block (a
/// 64×1024×1024 GEMM: 139 GFLOP/s over whole K, 175 for K = 128).
const PANEL_K: i64 = 128;
/// B's rows are prefetched this many ahead while a panel is copied.
const PREFETCH_K: i64 = 8;

/// Rows of a panel packed at compile time prefetched ahead of the multiply-adds
/// (64 rows of 64 columns: 16 KB). MobileNetV2-like's 7×7 1×1 convs 0.195 →
/// 0.132-0.138 ms (16 rows: 0.16, 32: 0.14).
const PANEL_PREFETCH_K: i64 = 64;
/// Blocks of k only where A (rows × K, re-read per block) fits in this much of L2.
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
    if names[2..] != [arith::ops::MULI, arith::ops::ADDI, tensor::ops::YIELD] {
        return None;
    }
    let mut unsigned_of = [None, None];
    for &e in &ops[..2] {
        let kind = match body.name(e).as_str() {
            arith::ops::EXTUI => true,
            arith::ops::EXTSI => false,
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
    if body.name(m).as_str() != arith::ops::MULF || body.name(a).as_str() != arith::ops::ADDF || body.name(y).as_str() != tensor::ops::YIELD {
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
    if !matches!(body.name(add).as_str(), arith::ops::ADDF | arith::ops::ADDI) || body.op(y).operands() != [body.op(add).result(0)] {
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
        let narrow = sizes[j].is_some_and(|n| n < NARROW_COLUMNS);
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
