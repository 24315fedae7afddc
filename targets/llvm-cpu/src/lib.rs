//! The CPU back end: loop-level IR (func, arith, math, scf, memref, vector,
//! all under upstream MLIR's names) is printed in generic form, parsed by MLIR
//! 22 through melior, lowered by MLIR's standard conversions to the LLVM
//! dialect, and then JIT-compiled or written out as LLVM IR or object code.
//! This is the only crate that touches melior.

mod mlir;
mod jit;
mod object_jit;

pub use jit::{Jit, MemRefArg};
pub use object_jit::host_cpu;
pub use mlir::{emit_llvm_ir, emit_object, lower_to_llvm_dialect, LOWERING_PIPELINE};

/// Prints a module of ours in the generic form MLIR parses.
pub fn to_mlir_text(ctx: &ir::Context, body: &ir::Body, module: ir::OpId) -> String {
    ir::printer::print_op(ctx, body, module, ir::printer::PrintOptions { generic: true, debug_info: false })
}
