//! `convert-tensor-to-loops`: each `tensor.generic` on memrefs becomes an
//! `scf.for` nest. Parallel loops are outermost; when the innermost loops are
//! reductions, the outputs are loaded once before them, carried through
//! `iter_args`, and stored once after (so the accumulator lives in a register,
//! which LLVM cannot prove safe on its own when buffers may alias). Operands are
//! read with `memref.load` at their affine index expressions; `tensor.index`
//! becomes the induction variable and `tensor.extract` a `memref.load`.
//!
//! Three vector paths come first: matmul-like contractions become register-tiled
//! kernels (`contraction.rs`), other generics run 16 lanes at a time along
//! the output's last dim (`vectorize.rs`), and f32 reductions along the
//! inputs' last dim 16 lanes at a time along it (`row_reduction.rs`); the
//! scalar nest is the rest.

use ir::affine::AffineExpr;
use ir::attributes::Attribute;
use ir::pass::{Pass, PassContext};
use ir::{Body, Context, InsertPoint, Location, OpId, Type, Value};
use std::collections::HashMap;
use tensor::{Generic, Iterator};

mod contraction;
mod fill;
mod fuse_fill_nests;
mod hoist_loop_allocs;
pub mod insert_profiling;
mod outline_loop_nests;
mod pack_weight_arguments;
pub mod plan_arena;
mod row_reduction;
mod vectorize;
mod vmath;

use cpu_target::{cpu_target, host_has_vnni, Tile};
use ir::pass::{PassInfo, PassRegistry};

/// Registers `convert-tensor-to-loops` and the loop-level passes that follow it.
pub fn register(reg: &mut PassRegistry) {
    reg.register(PassInfo {
        argument: "convert-tensor-to-loops",
        summary: "tensor.generic on memrefs to scf.for nests with memref loads and stores",
        options: vec![],
        create: |_| Ok(Box::new(TensorToLoops)),
    });
    reg.register(PassInfo {
        argument: "outline-loop-nests",
        summary: "Move each top-level loop nest of a loop-level function into a private noinline function of its own, called where it stood",
        options: vec![],
        create: |_| Ok(Box::new(outline_loop_nests::OutlineLoopNests)),
    });
    reg.register(PassInfo {
        argument: "pack-weight-arguments",
        summary: "Pass a function's arguments marked npu.weight in one byte buffer, each weight a memref.view of it",
        options: vec![],
        create: |_| Ok(Box::new(pack_weight_arguments::PackWeightArguments)),
    });
    reg.register(PassInfo {
        argument: "hoist-loop-allocs",
        summary: "Allocate a buffer freed in each iteration of a sequential scf.for once, before the loop, and free it after",
        options: vec![],
        create: |_| Ok(Box::new(hoist_loop_allocs::HoistLoopAllocs)),
    });
    reg.register(PassInfo {
        argument: "fuse-fill-nests",
        summary: "Make consecutive loop nests that only store one constant over the same outer range (a padded buffer's border fills) one nest",
        options: vec![],
        create: |_| Ok(Box::new(fuse_fill_nests::FuseFillNests)),
    });
    reg.register(PassInfo {
        argument: "plan-arena",
        summary: "Place a model function's static intermediate buffers in one arena by their lifetimes, as views of a block the runtime keeps across runs",
        options: vec![],
        create: |_| Ok(Box::new(plan_arena::PlanArena)),
    });
    reg.register(PassInfo {
        argument: "insert-profiling",
        summary: "Bracket each model node's loop-level code with calls to the runtime's profiling hooks",
        options: vec![],
        create: |_| Ok(Box::new(insert_profiling::InsertProfiling)),
    });
}

pub struct TensorToLoops;

/// Builds the loop-level ops of one lowering at a point the caller keeps
/// (`ir::OpBuilder`'s rules: ops built after an op stay in order), so the
/// body can be read and changed between ops.
pub(crate) struct B<'a> {
    ctx: &'a Context,
    loc: Location,
}

impl B<'_> {
    /// Runs `f` with an `OpBuilder` at `at`, which then moves past what it built.
    fn with<R>(&self, body: &mut Body, at: &mut InsertPoint, f: impl FnOnce(&mut ir::OpBuilder) -> R) -> R {
        let mut b = ir::OpBuilder::new(self.ctx, body, *at, self.loc.clone());
        let r = f(&mut b);
        *at = b.at;
        r
    }
    fn op(&self, body: &mut Body, at: &mut InsertPoint, name: &str, operands: &[Value], results: &[Type], props: &[(&str, Attribute)]) -> OpId {
        self.with(body, at, |b| b.create(name, operands, results, props))
    }
    fn index(&self, body: &mut Body, at: &mut InsertPoint, v: i64) -> Value {
        let it = self.ctx.index();
        let c = self.with(body, at, |b| arith::ops::Constant::build(b, &[it.clone()], &[("value", Attribute::integer(v as i128, it.clone()))]));
        c.result(body)
    }
    fn bin(&self, body: &mut Body, at: &mut InsertPoint, name: &str, a: Value, b: Value) -> Value {
        let it = self.ctx.index();
        let op = self.op(body, at, name, &[a, b], &[it], &[]);
        body.op(op).result(0)
    }
    /// Index arithmetic for one affine result.
    fn expr(&self, body: &mut Body, at: &mut InsertPoint, e: &AffineExpr, ivs: &[Value]) -> Value {
        match e {
            AffineExpr::Dim(i) => ivs[*i as usize],
            AffineExpr::Sym(_) => self.index(body, at, 0),
            AffineExpr::Const(c) => self.index(body, at, *c),
            AffineExpr::Add(a, b) => {
                let (x, y) = (self.expr(body, at, a, ivs), self.expr(body, at, b, ivs));
                self.bin(body, at, arith::ops::ADDI, x, y)
            }
            AffineExpr::Mul(a, b) => {
                let (x, y) = (self.expr(body, at, a, ivs), self.expr(body, at, b, ivs));
                self.bin(body, at, arith::ops::MULI, x, y)
            }
            AffineExpr::Mod(a, b) => {
                let (x, y) = (self.expr(body, at, a, ivs), self.expr(body, at, b, ivs));
                self.bin(body, at, arith::ops::REMSI, x, y)
            }
            AffineExpr::FloorDiv(a, b) => {
                let (x, y) = (self.expr(body, at, a, ivs), self.expr(body, at, b, ivs));
                self.bin(body, at, arith::ops::FLOORDIVSI, x, y)
            }
            AffineExpr::CeilDiv(a, b) => {
                let (x, y) = (self.expr(body, at, a, ivs), self.expr(body, at, b, ivs));
                self.bin(body, at, arith::ops::CEILDIVSI, x, y)
            }
        }
    }
    fn load(&self, body: &mut Body, at: &mut InsertPoint, m: Value, idx: &[Value]) -> Value {
        let elem = body.value_type(m).element_type().unwrap().clone();
        let load = self.with(body, at, |b| memref::ops::Load::build(b, m, idx, &[elem], &[]));
        load.result(body)
    }
    fn store(&self, body: &mut Body, at: &mut InsertPoint, v: Value, m: Value, idx: &[Value]) {
        self.with(body, at, |b| memref::ops::Store::build(b, v, m, idx, &[], &[]));
    }
    /// `scf.for %iv = lb to ub step st` without carried values: (op, body block, iv).
    fn for_range(&self, body: &mut Body, at: &mut InsertPoint, lb: Value, ub: Value, step: Value) -> (OpId, ir::Block, Value) {
        let region = body.new_region();
        let block = body.add_block(region, &[self.ctx.index()]);
        let op = self.with(body, at, |b| scf::ops::For::build(b, lb, ub, step, &[], region, &[], &[])).op();
        let iv = body.block_args(block)[0];
        (op, block, iv)
    }
    /// `scf.for %iv = 0 to n step 1 iter_args(carried)`: returns (op, body block, iv, carried args).
    fn for_loop(&self, body: &mut Body, at: &mut InsertPoint, n: i64, carried: &[Value]) -> (OpId, ir::Block, Value, Vec<Value>) {
        let lb = self.index(body, at, 0);
        let ub = self.index(body, at, n);
        self.for_between(body, at, lb, ub, carried)
    }
    /// `scf.for %iv = lb to ub step 1 iter_args(carried)`, as [`B::for_loop`].
    fn for_between(&self, body: &mut Body, at: &mut InsertPoint, lb: Value, ub: Value, carried: &[Value]) -> (OpId, ir::Block, Value, Vec<Value>) {
        let step = self.index(body, at, 1);
        self.for_step(body, at, lb, ub, step, carried)
    }
    /// `scf.for %iv = lb to ub step st iter_args(carried)`: (op, body block, iv, carried args).
    fn for_step(&self, body: &mut Body, at: &mut InsertPoint, lb: Value, ub: Value, step: Value, carried: &[Value]) -> (OpId, ir::Block, Value, Vec<Value>) {
        let region = body.new_region();
        let mut arg_types = vec![self.ctx.index()];
        arg_types.extend(carried.iter().map(|v| body.value_type(*v).clone()));
        let block = body.add_block(region, &arg_types);
        let results: Vec<Type> = carried.iter().map(|v| body.value_type(*v).clone()).collect();
        let op = self.with(body, at, |b| scf::ops::For::build(b, lb, ub, step, carried, region, &results, &[])).op();
        let args = body.block_args(block).to_vec();
        (op, block, args[0], args[1..].to_vec())
    }
    /// `a == b` on indices (`arith.cmpi eq`).
    fn cmp(&self, body: &mut Body, at: &mut InsertPoint, a: Value, b: Value) -> Value {
        let eq = Attribute::integer(0, self.ctx.i64());
        let c = self.with(body, at, |bl| arith::ops::CmpI::build(bl, a, b, &[self.ctx.i1()], &[("predicate", eq)]));
        c.result(body)
    }
    /// `scf.if %cond -> (results)` with both regions: (op, then block, else block), neither terminated.
    fn if_else(&self, body: &mut Body, at: &mut InsertPoint, cond: Value, results: &[Type]) -> (OpId, ir::Block, ir::Block) {
        let (rt, re) = (body.new_region(), body.new_region());
        let (bt, be) = (body.add_block(rt, &[]), body.add_block(re, &[]));
        let op = self.with(body, at, |b| scf::ops::If::build(b, cond, rt, re, results, &[])).op();
        (op, bt, be)
    }
    fn yield_(&self, body: &mut Body, block: ir::Block, vals: &[Value]) {
        self.with(body, &mut InsertPoint::AtEnd(block), |b| scf::ops::Yield::build(b, vals, &[], &[]));
    }
}

/// Clones the generic's body at `at`, mapping block args to `args` and loop
/// indices to `ivs`; returns the yielded values.
fn inline_body(b: &B, body: &mut Body, at: &mut InsertPoint, g_block: ir::Block, args: &[Value], ivs: &[Value]) -> Vec<Value> {
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (a, v) in body.block_args(g_block).to_vec().iter().zip(args) {
        map.insert(*a, *v);
    }
    let ops: Vec<OpId> = body.block_ops(g_block).collect();
    let mut yields = vec![];
    for op in ops {
        let name = body.name(op).as_str();
        let operands: Vec<Value> = body.op(op).operands().iter().map(|v| *map.get(v).unwrap_or(v)).collect();
        match name {
            tensor::ops::YIELD => yields = operands,
            tensor::ops::INDEX => {
                let dim = body.op(op).attr("dim").and_then(|a| a.as_int()).unwrap_or(0) as usize;
                map.insert(body.op(op).result(0), ivs[dim]);
            }
            tensor::ops::EXTRACT => {
                let v = b.load(body, at, operands[0], &operands[1..]);
                map.insert(body.op(op).result(0), v);
            }
            _ => {
                let new = body.clone_op(op, &mut map);
                body.set_operands(new, &operands);
                body.insert(new, *at);
                *at = ir::builder::advance(*at, new);
                for (r, n) in body.op(op).results().to_vec().iter().zip(body.op(new).results().to_vec()) {
                    map.insert(*r, n);
                }
            }
        }
    }
    yields
}

/// The values to store: `finals` passed through the epilogue if the op has
/// one (its input elements loaded at `ivs`, which must cover their maps).
#[allow(clippy::too_many_arguments)]
fn apply_epilogue(b: &B, body: &mut Body, at: &mut InsertPoint, ep: Option<ir::Block>, finals: Vec<Value>, ins: &[Value], maps: &[ir::affine::AffineMap], ivs: &[Value]) -> Vec<Value> {
    let Some(ep) = ep else { return finals };
    let args = body.block_args(ep).to_vec();
    let mut vals = finals.clone();
    for (k, v) in ins.iter().enumerate() {
        let a = args[finals.len() + k];
        if body.has_uses(a) {
            let idx: Vec<Value> = maps[k].results.iter().map(|e| b.expr(body, at, e, ivs)).collect();
            vals.push(b.load(body, at, *v, &idx));
        } else {
            vals.push(a);
        }
    }
    inline_body(b, body, at, ep, &vals, ivs)
}

/// The attribute on an `scf.for` whose iterations are independent (each
/// writes its own elements, reads nothing another writes): `outline-loop-nests`
/// may run it on several threads.
pub const PARALLEL: &str = "npu.parallel";
/// On an `scf.for` whose bounds are not constants (a block of k between
/// values computed at run time): how many iterations it makes, about, for the
/// work estimate that decides whether a nest is worth threads
/// (`outline-loop-nests`, which drops the attribute).
pub const TRIPS: &str = "npu.trips";

pub(crate) fn mark_parallel(ctx: &Context, body: &mut Body, fop: OpId) {
    body.op_mut(fop).attributes.set(ctx.ident(PARALLEL), Attribute::unit());
}

/// The one `memref.dealloc` of buffer `r`, if it is freed exactly once.
pub(crate) fn single_dealloc(body: &Body, r: Value) -> Option<OpId> {
    let mut deallocs = body.uses(r).iter().map(|u| u.op).filter(|o| body.name(*o).as_str() == memref::ops::DEALLOC);
    let first = deallocs.next()?;
    deallocs.next().is_none().then_some(first)
}

/// Whether function `f` is one of the model's (public), not an outlined
/// nest or a subgraph (private): the ones the runtime calls.
pub(crate) fn is_public(body: &Body, f: OpId) -> bool {
    body.op(f).properties.get("sym_visibility").and_then(|a| a.as_str()) != Some("private")
}

/// The bytes one element of `t` takes in memory, as LLVM stores it: a 4-bit
/// float or a bool takes a byte (as the runtime holds them, `dtype_size`);
/// `None` for a width LLVM pads (an i24) or a type that is not a number.
pub(crate) fn element_bytes(t: &Type) -> Option<u64> {
    let bits = match (t.float_kind(), t.int_width()) {
        (Some(k), _) => k.width(),
        (None, Some(w)) => w,
        _ if matches!(t.data(), ir::types::TypeData::Index) => 64,
        _ => return None,
    };
    let bytes = (bits as u64).div_ceil(8);
    bytes.is_power_of_two().then_some(bytes)
}

/// The buffer a memref views: through casts, reshapes and subviews to an
/// allocation, a global or a function argument.
pub fn root_buffer(body: &Body, mut v: Value) -> Value {
    while let Some(d) = body.defining_op(v) {
        match body.name(d).as_str() {
            memref::ops::REINTERPRET_CAST | memref::ops::SUBVIEW | memref::ops::CAST => v = body.op(d).operand(0),
            _ => break,
        }
    }
    v
}

/// Whether the loop `l` of `generic` may run its iterations in any order and
/// at once: a parallel loop that indexes every output directly (so iterations
/// write disjoint elements), outputs on distinct buffers, nothing in the body
/// or epilogue reading an output's buffer, and no input reading one other than
/// at the element its iteration writes (in place, same map).
pub(crate) fn parallel_safe(body: &Body, generic: OpId, ins: &[Value], outs: &[Value], maps: &[ir::affine::AffineMap], iters: &[Iterator], l: usize) -> bool {
    if iters.get(l) != Some(&Iterator::Parallel) {
        return false;
    }
    let out_maps = &maps[ins.len()..];
    // Each output indexed by l itself (maybe offset: a padded buffer's interior).
    let by_l = |e: &AffineExpr| e.dim_plus_const().is_some_and(|(d, _)| d as usize == l);
    if !out_maps.iter().all(|m| m.results.iter().any(by_l)) {
        return false;
    }
    let out_roots: Vec<Value> = outs.iter().map(|o| root_buffer(body, *o)).collect();
    if out_roots.iter().enumerate().any(|(i, r)| out_roots[..i].contains(r)) {
        return false;
    }
    let reads_an_output = body.walk_preorder(generic).into_iter().any(|o| {
        matches!(body.name(o).as_str(), tensor::ops::EXTRACT | memref::ops::LOAD | vector::ops::LOAD | vector::ops::MASKEDLOAD | vector::ops::GATHER) && body.op(o).operands().first().is_some_and(|v| out_roots.contains(&root_buffer(body, *v)))
    });
    if reads_an_output {
        return false;
    }
    ins.iter().zip(maps).all(|(v, m)| {
        let r = root_buffer(body, *v);
        out_roots.iter().zip(outs).zip(out_maps).all(|((or, o), om)| r != *or || (v == o && m == om))
    })
}

fn lower_generic(ctx: &Context, body: &mut Body, op: OpId, fills: &mut HashMap<OpId, fill::Fill>) -> Result<(), String> {
    let (ins, outs, maps, iters, sizes, g_block, g_ep) = {
        let g = Generic::new(body, op);
        (g.inputs().to_vec(), g.outputs().to_vec(), g.maps(), g.iterators(), g.loop_sizes(), g.block(), g.epilogue())
    };
    if outs.iter().any(|o| !matches!(body.value_type(*o).data(), ir::types::TypeData::MemRef { .. })) {
        return Err("tensor.generic must be bufferized before lowering to loops".into());
    }
    let sizes: Vec<i64> = sizes.into_iter().map(|s| s.ok_or("a loop without a known size")).collect::<Result<_, _>>()?;
    let b = B { ctx, loc: body.op(op).loc.clone() };
    if let Some(p) = contraction::plan(ctx, body, op) {
        contraction::lower(&b, body, op, &p, &sizes, fills.remove(&op));
        return Ok(());
    }
    if let Some(p) = vectorize::plan(ctx, body, op) {
        vectorize::lower(&b, body, op, &p, &sizes, fills.remove(&op));
        return Ok(());
    }
    if let Some(p) = row_reduction::plan(ctx, body, op) {
        row_reduction::lower(&b, body, op, &p, &sizes);
        return Ok(());
    }
    let n = iters.len();
    // Parallel loops first, then reductions (the order the lowering built them in is kept within each kind).
    let order: Vec<usize> = (0..n).filter(|&i| iters[i] == Iterator::Parallel).chain((0..n).filter(|&i| iters[i] == Iterator::Reduction)).collect();
    let first_red = order.iter().position(|&i| iters[i] == Iterator::Reduction).unwrap_or(n);
    let mut at = InsertPoint::Before(op);
    let mut ivs = vec![None; n];
    let mut outermost = true;
    for &l in &order[..first_red] {
        // A loop of one iteration is its index, 0 (so the outermost loop is one
        // that can be split).
        if sizes[l] == 1 {
            ivs[l] = Some(b.index(body, &mut at, 0));
            continue;
        }
        let (fop, block, iv, _) = b.for_loop(body, &mut at, sizes[l], &[]);
        if std::mem::take(&mut outermost) && parallel_safe(body, op, &ins, &outs, &maps, &iters, l) {
            mark_parallel(ctx, body, fop);
        }
        b.yield_(body, block, &[]);
        ivs[l] = Some(iv);
        let term = body.last_op(block).unwrap();
        at = InsertPoint::Before(term);
    }
    let n_in = ins.len();
    let out_maps = maps[n_in..].to_vec();
    if first_red == n {
        let ivs: Vec<Value> = ivs.into_iter().map(|v| v.unwrap()).collect();
        let mut args = Vec::new();
        let block_args = body.block_args(g_block).to_vec();
        for (k, (v, m)) in ins.iter().chain(&outs).zip(&maps).enumerate() {
            if !body.has_uses(block_args[k]) {
                // An element the body never reads (usually the destination's old value): no load.
                args.push(block_args[k]);
                continue;
            }
            let idx: Vec<Value> = m.results.iter().map(|e| b.expr(body, &mut at, e, &ivs)).collect();
            args.push(b.load(body, &mut at, *v, &idx));
        }
        let ys = inline_body(&b, body, &mut at, g_block, &args, &ivs);
        let ys = apply_epilogue(&b, body, &mut at, g_ep, ys, &ins, &maps, &ivs);
        for ((y, o), m) in ys.iter().zip(&outs).zip(&out_maps) {
            let idx: Vec<Value> = m.results.iter().map(|e| b.expr(body, &mut at, e, &ivs)).collect();
            b.store(body, &mut at, *y, *o, &idx);
        }
    } else {
        // Outputs depend on parallel loops only: load them here, carry them through the reductions.
        let pivs: Vec<Value> = ivs.iter().map(|v| v.unwrap_or_else(|| body.block_args(g_block)[0])).collect();
        let mut out_idx = Vec::new();
        let mut accs = Vec::new();
        for (o, m) in outs.iter().zip(&out_maps) {
            let idx: Vec<Value> = m.results.iter().map(|e| b.expr(body, &mut at, e, &pivs)).collect();
            accs.push(b.load(body, &mut at, *o, &idx));
            out_idx.push(idx);
        }
        let outer_at = at;
        let mut loops = Vec::new();
        let mut carried = accs.clone();
        for &l in &order[first_red..] {
            let (fop, block, iv, args) = b.for_loop(body, &mut at, sizes[l], &carried);
            ivs[l] = Some(iv);
            loops.push((fop, block));
            carried = args;
            at = InsertPoint::AtEnd(block);
        }
        let ivs: Vec<Value> = ivs.into_iter().map(|v| v.unwrap()).collect();
        let mut args = Vec::new();
        for (v, m) in ins.iter().zip(&maps) {
            let idx: Vec<Value> = m.results.iter().map(|e| b.expr(body, &mut at, e, &ivs)).collect();
            args.push(b.load(body, &mut at, *v, &idx));
        }
        args.extend(&carried);
        let ys = inline_body(&b, body, &mut at, g_block, &args, &ivs);
        // Yield up through the reduction loops.
        let mut vals = ys;
        for (fop, block) in loops.iter().rev() {
            b.yield_(body, *block, &vals);
            vals = body.op(*fop).results().to_vec();
        }
        let mut at = outer_at;
        let vals = apply_epilogue(&b, body, &mut at, g_ep, vals, &ins, &maps, &pivs);
        for ((v, o), idx) in vals.iter().zip(&outs).zip(&out_idx) {
            b.store(body, &mut at, *v, *o, idx);
        }
    }
    body.erase(op);
    Ok(())
}

impl Pass for TensorToLoops {
    fn argument(&self) -> &'static str {
        "convert-tensor-to-loops"
    }
    fn display_name(&self) -> &'static str {
        "ConvertTensorToLoops"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let generics: Vec<OpId> = cx.body.walk_preorder(root).into_iter().filter(|o| cx.body.name(*o).as_str() == tensor::ops::GENERIC).collect();
        // Fills that a reduction's accumulators take over (`fill.rs`):
        // lowered (and erased) with it, not on their own.
        let mut fills = HashMap::new();
        for &g in &generics {
            let reduces = Generic::new(cx.body, g).iterators().contains(&Iterator::Reduction);
            if reduces && (contraction::plan(cx.ctx, cx.body, g).is_some() || vectorize::plan(cx.ctx, cx.body, g).is_some()) {
                if let Some(f) = fill::fusable_fill(cx.body, g) {
                    fills.insert(g, f);
                }
            }
        }
        let fused: std::collections::HashSet<OpId> = fills.values().map(|f| f.op).collect();
        for g in generics {
            if !fused.contains(&g) {
                lower_generic(cx.ctx, cx.body, g, &mut fills)?;
            }
        }
        Ok(())
    }
}
