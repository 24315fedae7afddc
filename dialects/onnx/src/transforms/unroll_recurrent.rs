//! `onnx-unroll-recurrent`: LSTMs and GRUs written out as their time steps in `onnx`
//! ops (`crate::unroll_recurrent`), for backends without loops. npu16 does
//! this itself before partitioning (`Backend::prepare`); the pass shows the
//! rewrite on its own. One that stays whole is left as it is; with
//! `explain` each gets a remark saying why.

use ir::pass::{Pass, PassContext};

pub struct UnrollRecurrent {
    pub max_steps: i64,
    pub explain: bool,
}

impl Pass for UnrollRecurrent {
    fn argument(&self) -> &'static str {
        "onnx-unroll-recurrent"
    }
    fn display_name(&self) -> &'static str {
        "ONNXUnrollRecurrent"
    }
    fn run(&mut self, cx: &mut PassContext, root: ir::OpId) -> Result<(), String> {
        let (n, kept) = crate::unroll_recurrent::unroll_all(cx.ctx, cx.body, root, self.max_steps, |_, _| true);
        if self.explain {
            for (op, why) in kept {
                let (loc, name) = (cx.body.op(op).loc.clone(), cx.body.name(op).as_str().trim_start_matches("onnx.").to_string());
                cx.emit(ir::Diagnostic::remark(loc, format!("{} kept whole: {}", name, why)));
            }
        }
        cx.stat("unrolled", "LSTMs and GRUs written out as their steps", n as u64);
        Ok(())
    }
}
