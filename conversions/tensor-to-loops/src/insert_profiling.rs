//! `insert-profiling`: brackets the code of each model node with calls to
//! `@npu_profile_enter(id)` / `@npu_profile_exit(id)` (external functions the
//! runtime provides), so a run can say where its time goes, per ONNX node
//! (per group of nodes where fusion made one loop nest of several).
//! Runs on loop-level functions: consecutive top-level ops with the same
//! location (the node's, kept by every lowering) form one region; the region
//! ids index the `npu.profile_regions` array attribute set on the function.

use ir::attributes::{AttrData, Attribute};
use ir::pass::{Pass, PassContext};
use ir::{InsertPoint, OpId, OperationState};

pub struct InsertProfiling;

pub const ENTER: &str = cpu_target::abi::PROFILE_ENTER;
pub const EXIT: &str = cpu_target::abi::PROFILE_EXIT;

impl Pass for InsertProfiling {
    fn argument(&self) -> &'static str {
        "insert-profiling"
    }
    fn display_name(&self) -> &'static str {
        "InsertProfiling"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let mblock = body.region_blocks(body.op(module).regions()[0])[0];
        // Public functions: the model's; its outlined loop nests (private) are
        // timed where it calls them.
        let funcs: Vec<OpId> = body.block_ops(mblock).filter(|o| body.name(*o).as_str() == func::ops::FUNC && crate::is_public(body, *o) && !body.op(*o).regions().is_empty() && !body.region_blocks(body.op(*o).regions()[0]).is_empty()).collect();
        let i32t = ctx.i32();
        for f in &funcs {
            let entry = body.region_blocks(body.op(*f).regions()[0])[0];
            let ops: Vec<OpId> = body.block_ops(entry).collect();
            // Regions: runs of ops with one node name (constants and terminators ignored).
            let mut regions: Vec<(String, OpId, OpId)> = Vec::new();
            for op in ops {
                let n = body.name(op).as_str();
                if n == arith::ops::CONSTANT || n == func::ops::RETURN {
                    continue;
                }
                // A fused op's region is named after all its nodes: `conv1+relu1`.
                let names = body.op(op).loc.node_names();
                if names.is_empty() {
                    continue;
                }
                let name = names.join("+");
                match regions.last_mut() {
                    Some((last, _, end)) if *last == name => *end = op,
                    _ => regions.push((name, op, op)),
                }
            }
            let mut names = Vec::new();
            for (id, (name, first, last)) in regions.into_iter().enumerate() {
                let loc = body.op(first).loc.clone();
                let c = OperationState::new(ctx.op_name(arith::ops::CONSTANT), loc.clone())
                    .results(&[i32t.clone()])
                    .property(ctx.ident("value"), Attribute::integer(id as i128, i32t.clone()));
                let c = body.build(c, InsertPoint::Before(first));
                let cv = body.op(c).result(0);
                for (callee, at) in [(ENTER, InsertPoint::Before(first)), (EXIT, InsertPoint::After(last))] {
                    let call = OperationState::new(ctx.op_name(func::ops::CALL), loc.clone()).operands(&[cv]).property(ctx.ident("callee"), Attribute::symbol(callee));
                    body.build(call, at);
                }
                names.push(Attribute::string(&name));
            }
            body.op_mut(*f).attributes.set(ctx.ident("npu.profile_regions"), Attribute::new(AttrData::Array(names)));
        }
        // The runtime's hooks, declared once.
        for callee in [ENTER, EXIT] {
            func::FunctionBuilder::declare_external(ctx, body, module, callee, std::slice::from_ref(&i32t));
        }
        Ok(())
    }
}
