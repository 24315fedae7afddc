//! `hoist-loop-allocs`: a buffer allocated and freed in each iteration of a
//! sequential loop (`scf.for`, or `scf.while`: an RNN's steps, a Loop's body) is allocated
//! once before the loop and freed after it: each iteration takes it as fresh,
//! whatever the one before left there, as it takes a new allocation. Repeated
//! outwards while the enclosing op is a sequential loop, so a buffer of the
//! function's top block then goes in its arena (`plan-arena`). A loop marked
//! `npu.parallel` keeps its buffers: its iterations run at once on threads.
//! Only static shapes (a dynamic size may change per iteration) and buffers
//! freed once, in the block that allocates them.

use ir::pass::{Pass, PassContext};
use ir::{Body, InsertPoint, OpId};

pub struct HoistLoopAllocs;

impl Pass for HoistLoopAllocs {
    fn argument(&self) -> &'static str {
        "hoist-loop-allocs"
    }
    fn display_name(&self) -> &'static str {
        "HoistLoopAllocs"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let body = &mut *cx.body;
        let allocs: Vec<OpId> = body.walk_preorder(module).into_iter().filter(|o| body.name(*o).as_str() == memref::ops::ALLOC).collect();
        for alloc in allocs {
            while hoist_once(body, alloc) {}
        }
        Ok(())
    }
}

/// Moves `alloc` and its one dealloc out of the sequential loop whose body
/// holds them both; whether it moved.
fn hoist_once(body: &mut Body, alloc: OpId) -> bool {
    if !body.op(alloc).operands().is_empty() {
        return false;
    }
    let Some(block) = body.op(alloc).parent_block() else { return false };
    let Some(lp) = body.block_parent_op(block) else { return false };
    let sequential = match body.name(lp).as_str() {
        scf::ops::FOR => body.op(lp).attributes.get(crate::PARALLEL).is_none(),
        scf::ops::WHILE => true,
        _ => false,
    };
    if !sequential {
        return false;
    }
    let r = body.op(alloc).result(0);
    let Some(dealloc) = crate::single_dealloc(body, r).filter(|d| body.op(*d).parent_block() == Some(block)) else { return false };
    body.move_op(alloc, InsertPoint::Before(lp));
    body.move_op(dealloc, InsertPoint::After(lp));
    true
}
