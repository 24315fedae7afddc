//! `convert-onnx-to-acme`: the onnx ops of ACME's partitions
//! (`backend.partition = "acme"`) become acme ops, operand for operand.

use ir::pass::{OptionSpec, Pass, PassContext, PassInfo, PassRegistry};
use ir::{Body, Context, InsertPoint, OpId, OperationState};

const RENAMES: &[(&str, &str)] = &[("onnx.MatMul", "acme.matmul"), ("onnx.Add", "acme.add"), ("onnx.Relu", "acme.relu")];

/// Converts the ops of one partition function.
pub fn convert_partition(ctx: &Context, body: &mut Body, f: OpId) -> Result<(), String> {
    let entry = body.entry_block(f).ok_or("a partition without a body")?;
    let ops: Vec<OpId> = body.block_ops(entry).collect();
    for op in ops {
        let name = body.name(op);
        let Some((_, to)) = RENAMES.iter().find(|(from, _)| *from == name.as_str()) else { continue };
        let o = body.op(op);
        let types: Vec<ir::Type> = o.results().iter().map(|r| body.value_type(*r).clone()).collect();
        let st = OperationState::new(ctx.op_name(to), o.loc.clone()).operands(&o.operands().to_vec()).results(&types);
        let new = body.build(st, InsertPoint::Before(op));
        for (old, new) in body.op(op).results().to_vec().into_iter().zip(body.op(new).results().to_vec()) {
            body.replace_all_uses(old, new);
        }
        body.erase(op);
    }
    Ok(())
}

struct ConvertToAcme;

impl Pass for ConvertToAcme {
    fn argument(&self) -> &'static str {
        "convert-onnx-to-acme"
    }
    fn display_name(&self) -> &'static str {
        "ConvertOnnxToAcme"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let body = &mut *cx.body;
        for f in backend::partition::partitions_of(body, module, crate::NAME) {
            convert_partition(cx.ctx, body, f)?;
        }
        Ok(())
    }
}

pub fn register_pass(reg: &mut PassRegistry) {
    let options: Vec<OptionSpec> = vec![];
    reg.register(PassInfo { argument: "convert-onnx-to-acme", summary: "In ACME's partitions, onnx ops to acme ops", options, create: |_| Ok(Box::new(ConvertToAcme)) });
}
