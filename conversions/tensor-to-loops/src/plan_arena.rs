//! `plan-arena`: the intermediate buffers of a model's function, planned at
//! compile time. Each `memref.alloc` of a static shape in the function's top
//! block, freed by a `memref.dealloc` in that block, lives from the one to the
//! other; the buffers are placed in one byte arena so that two whose lives
//! overlap never share a byte (largest first, each at the lowest offset that
//! fits, as TensorFlow Lite's arena planner does), and become `memref.view`s
//! of it. The function takes the arena from the runtime on entry
//! (`cpu_target::abi::ARENA_PUSH`, a block kept warm across runs) and gives it
//! back before it returns: no malloc per intermediate, and the arena's size is
//! the intermediates' peak memory. Buffers of a dynamic shape, and those
//! inside loops or branches, keep their allocations.

use cpu_target::abi::{ARENA_ALIGN, ARENA_POP, ARENA_PUSH};
use ir::attributes::Attribute;
use ir::pass::{Pass, PassContext};
use ir::types::TypeData;
use ir::{Body, InsertPoint, OpBuilder, OpId, OperationState};

pub struct PlanArena;

/// Buffers start at multiples of this (the runtime's block is aligned so).
const ALIGN: u64 = ARENA_ALIGN as u64;

impl Pass for PlanArena {
    fn argument(&self) -> &'static str {
        "plan-arena"
    }
    fn display_name(&self) -> &'static str {
        "PlanArena"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let mblock = body.region_blocks(body.op(module).regions()[0])[0];
        // The model's functions (public); outlined nests and subgraphs are private.
        let funcs: Vec<OpId> = body.block_ops(mblock).filter(|o| body.name(*o).as_str() == func::ops::FUNC && crate::is_public(body, *o) && body.entry_block(*o).is_some()).collect();
        let mut used = false;
        for f in funcs {
            used |= plan(ctx, body, f);
        }
        if used {
            let i64t = ctx.int_type(64);
            let bytes = arena_type(ctx);
            let push = func::FunctionBuilder::declare_external(ctx, body, module, ARENA_PUSH, std::slice::from_ref(&i64t));
            let ft = ctx.intern_type(TypeData::Function { inputs: vec![i64t], results: vec![bytes] });
            body.op_mut(push).properties.set(ctx.ident("function_type"), Attribute::type_attr(ft));
            // The memref result comes back through a pointer (MLIR's C interface).
            body.op_mut(push).attributes.set(ctx.ident("llvm.emit_c_interface"), Attribute::unit());
            func::FunctionBuilder::declare_external(ctx, body, module, ARENA_POP, &[]);
        }
        Ok(())
    }
}

/// The arena as the runtime hands it out: `memref<?xi8>`.
fn arena_type(ctx: &ir::Context) -> ir::Type {
    ctx.intern_type(TypeData::MemRef { shape: vec![ir::types::DYNAMIC], elem: ctx.int_type(8), layout: None, memory_space: None })
}

/// One buffer to place: its alloc and dealloc, bytes, and life in the top
/// block's op order.
struct Buffer {
    alloc: OpId,
    dealloc: OpId,
    bytes: u64,
    first: usize,
    last: usize,
}

/// The buffers of `f`'s top block that can go in an arena: none in a
/// function of several blocks (a return elsewhere would not give it back).
fn buffers(body: &Body, f: OpId) -> Vec<Buffer> {
    let entry = body.entry_block(f).unwrap();
    if body.region_blocks(body.op(f).regions()[0]).len() != 1 {
        return vec![];
    }
    let order: std::collections::HashMap<OpId, usize> = body.block_ops(entry).enumerate().map(|(i, o)| (o, i)).collect();
    let mut out = Vec::new();
    for (&op, &first) in &order {
        // Static, and aligned no further than the arena's offsets are.
        let aligned = body.op(op).int_attr("alignment").is_none_or(|a| a > 0 && ALIGN % a as u64 == 0);
        if body.name(op).as_str() != memref::ops::ALLOC || !body.op(op).operands().is_empty() || !aligned {
            continue;
        }
        let r = body.op(op).result(0);
        let bytes = match body.value_type(r).data() {
            TypeData::MemRef { shape, elem, layout: None, memory_space: None } if shape.iter().all(|d| *d >= 0) => crate::element_bytes(elem).map(|b| b * shape.iter().product::<i64>() as u64),
            _ => None,
        };
        // Freed once, in this block (one freed elsewhere, or never, keeps its allocation).
        let (Some(bytes), Some(dealloc)) = (bytes, crate::single_dealloc(body, r)) else { continue };
        let Some(&last) = order.get(&dealloc) else { continue };
        out.push(Buffer { alloc: op, dealloc, bytes, first, last });
    }
    out.sort_by_key(|b| b.first);
    out
}

/// A buffer's bytes in the arena: whole multiples of [`ALIGN`].
fn slot(bytes: u64) -> u64 {
    bytes.div_ceil(ALIGN).max(1) * ALIGN
}

/// Each buffer's offset: largest first, each at the lowest multiple of
/// [`ALIGN`] where it overlaps no placed buffer that is alive with it.
/// Returns the offsets (in `bufs`' order) and the arena's bytes.
fn place(bufs: &[Buffer]) -> (Vec<u64>, u64) {
    let mut order: Vec<usize> = (0..bufs.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(bufs[i].bytes), bufs[i].first));
    let mut offsets = vec![0u64; bufs.len()];
    let mut placed: Vec<usize> = Vec::new();
    let mut total = 0u64;
    for i in order {
        let size = slot(bufs[i].bytes);
        // The ranges taken by buffers alive at the same time, by start.
        let mut taken: Vec<(u64, u64)> = placed.iter().filter(|&&j| bufs[j].first <= bufs[i].last && bufs[i].first <= bufs[j].last).map(|&j| (offsets[j], offsets[j] + slot(bufs[j].bytes))).collect();
        taken.sort_unstable();
        let mut at = 0u64;
        for (start, end) in taken {
            if at + size <= start {
                break;
            }
            at = at.max(end);
        }
        offsets[i] = at;
        total = total.max(at + size);
        placed.push(i);
    }
    (offsets, total)
}

/// Puts `f`'s plannable buffers in an arena; whether it made one.
fn plan(ctx: &ir::Context, body: &mut Body, f: OpId) -> bool {
    let bufs = buffers(body, f);
    if bufs.is_empty() {
        return false;
    }
    let (offsets, total) = place(&bufs);
    let entry = body.entry_block(f).unwrap();
    let loc = body.op(f).loc.clone();
    let index = ctx.index();
    let i64t = ctx.int_type(64);
    let bytes_type = arena_type(ctx);
    let mut b = OpBuilder::new(ctx, body, InsertPoint::AtStart(entry), loc.clone());
    let n = arith::ops::Constant::build(&mut b, &[i64t.clone()], &[("value", Attribute::integer(total as i128, i64t))]).result(b.body);
    let call = b.build(OperationState::new(ctx.op_name(func::ops::CALL), loc.clone()).operands(&[n]).results(&[bytes_type]).property(ctx.ident("callee"), Attribute::symbol(ARENA_PUSH)));
    let arena = b.body.op(call).result(0);
    for (buf, off) in bufs.iter().zip(offsets) {
        let mut b = OpBuilder::new(ctx, body, InsertPoint::Before(buf.alloc), body.op(buf.alloc).loc.clone());
        let shift = arith::ops::Constant::build(&mut b, &[index.clone()], &[("value", Attribute::integer(off as i128, index.clone()))]).result(b.body);
        let old = b.body.op(buf.alloc).result(0);
        let t = b.body.value_type(old).clone();
        let view = memref::ops::View::build(&mut b, arena, shift, &[], &[t], &[]).result(b.body);
        body.replace_all_uses(old, view);
        body.erase(buf.dealloc);
        body.erase(buf.alloc);
    }
    // Given back before every return of the top block.
    let returns: Vec<OpId> = body.block_ops(entry).filter(|o| body.name(*o).as_str() == func::ops::RETURN).collect();
    for r in returns {
        let pop = OperationState::new(ctx.op_name(func::ops::CALL), loc.clone()).property(ctx.ident("callee"), Attribute::symbol(ARENA_POP));
        body.build(pop, InsertPoint::Before(r));
    }
    true
}

/// For code that runs without this runtime (`npu-translate --emit=llvm-dialect|llvm-ir|obj|lib`):
/// each function's arena becomes one `memref.alloc` on entry and its
/// `memref.dealloc` where the block was given back, so the code calls nothing
/// of ours (one malloc per call rather than one per intermediate).
pub fn allocate_arenas_without_runtime(ctx: &ir::Context, body: &mut Body, module: OpId) {
    let callee = |body: &Body, o: OpId| body.op(o).attr("callee").and_then(|a| a.as_symbol()).map(|s| s.join("::"));
    let calls: Vec<OpId> = body.walk_preorder(module).into_iter().filter(|o| body.name(*o).as_str() == func::ops::CALL && callee(body, *o).is_some_and(|c| c == ARENA_PUSH || c == ARENA_POP)).collect();
    let mut arena = None;
    // In op order: each pop frees the arena of the push before it, in its function.
    for call in calls {
        let loc = body.op(call).loc.clone();
        if callee(body, call).as_deref() == Some(ARENA_PUSH) {
            let bytes = body.op(call).operand(0);
            let old = body.op(call).result(0);
            let t = body.value_type(old).clone();
            let mut b = OpBuilder::new(ctx, body, InsertPoint::Before(call), loc);
            let n = arith::ops::IndexCast::build(&mut b, bytes, &[ctx.index()], &[]).out(b.body);
            let segments = Attribute::new(ir::attributes::AttrData::DenseArray { elem: ctx.i32(), data: ir::attributes::ArrayData::Int(vec![1, 0]) });
            let alloc = memref::ops::Alloc::build(&mut b, &[n], &[t], &[("operandSegmentSizes", segments), ("alignment", Attribute::integer(ALIGN as i128, ctx.int_type(64)))]).memref(b.body);
            body.replace_all_uses(old, alloc);
            body.erase(call);
            arena = Some(alloc);
        } else if let Some(a) = arena {
            let mut b = OpBuilder::new(ctx, body, InsertPoint::Before(call), loc);
            memref::ops::Dealloc::build(&mut b, a, &[], &[]);
            body.erase(call);
        }
    }
    for name in [ARENA_PUSH, ARENA_POP] {
        if let Some(d) = ir::symbols::lookup_symbol_in(body, module, name) {
            body.erase(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buf(bytes: u64, first: usize, last: usize) -> Buffer {
        Buffer { alloc: OpId(0), dealloc: OpId(0), bytes, first, last }
    }

    /// Buffers alive together never share a byte; one that starts after
    /// another's end takes its place.
    #[test]
    fn buffers_alive_together_do_not_overlap() {
        let bufs = vec![buf(1000, 0, 3), buf(100, 1, 2), buf(1000, 4, 6), buf(64, 2, 5), buf(10, 6, 7)];
        let (off, total) = place(&bufs);
        let end = |i: usize| off[i] + bufs[i].bytes;
        for i in 0..bufs.len() {
            assert_eq!(off[i] % ALIGN, 0);
            for j in 0..i {
                let alive = bufs[j].first <= bufs[i].last && bufs[i].first <= bufs[j].last;
                if alive {
                    assert!(end(i) <= off[j] || end(j) <= off[i], "buffers {} and {} overlap: {:?}", i, j, off);
                }
            }
        }
        assert_eq!(off[2], off[0], "the second large buffer reuses the first's bytes");
        assert!(total <= 1024 + 128 + 64, "arena of {} bytes", total);
    }
}
