//! The CPU back end: loop-level IR (func, arith, math, scf, memref, vector,
//! all under upstream MLIR's names) is printed in generic form, parsed by MLIR
//! 22 through melior, lowered by MLIR's standard conversions to the LLVM
//! dialect, and then JIT-compiled or written out as LLVM IR or object code.
//! This is the only crate that touches melior.

mod builtins;
mod codegen;
mod mlir;
mod jit;
mod object_jit;

pub use jit::{Jit, MemRefArg};
pub use object_jit::host_cpu;
pub use mlir::{emit_llvm_ir, emit_object, lower_to_llvm_dialect, LOWERING_PIPELINE};

/// The host function the JIT's code calls to run a parallel loop nest on
/// threads (`cpu_target::abi::PARALLEL_FOR`, which `cpu-runtime` binds).
pub const PARALLEL_FOR: &str = cpu_target::abi::PARALLEL_FOR;

/// Where the code generator's time went, each step summed over the parts
/// (so over the threads: the sum may exceed the wall time).
#[derive(Clone, Copy, Debug, Default)]
pub struct CodegenTimes {
    /// Parsing our text and MLIR's lowering to the LLVM dialect.
    pub mlir_ms: f64,
    /// The LLVM dialect translated to LLVM IR.
    pub translate_ms: f64,
    /// LLVM's optimization pipeline (`default<On>`).
    pub optimize_ms: f64,
    /// LLVM's instruction selection and object file emission.
    pub emit_ms: f64,
    /// Linking the objects into the process (ORC), wall time.
    pub link_ms: f64,
    /// The parts compiled, and on how many threads.
    pub parts: usize,
    pub threads: usize,
}

impl CodegenTimes {
    fn add(&mut self, o: &CodegenTimes) {
        self.mlir_ms += o.mlir_ms;
        self.translate_ms += o.translate_ms;
        self.optimize_ms += o.optimize_ms;
        self.emit_ms += o.emit_ms;
    }
}

/// The LLVM function attribute of a parallel nest (`outline-loop-nests`).
const PARALLEL_MARKER: &str = "npu-parallel";

/// Functions of at least this many ops in all make a second part worth its
/// thread (a part costs one MLIR context and one LLVM context more).
const MIN_OPS_PER_PART: usize = 1000;

/// An op of the glue that `outline-loop-nests` leaves in a model's function
/// (allocations and calls, compiled `optnone`) costs about four of a loop
/// nest's to compile: each memref it passes is taken apart field by field in
/// MLIR and LLVM. Counted as one, a detector's glue and its share of nests
/// made one part twice as slow as the others.
const GLUE_COST_PER_OP: usize = 4;

/// What compiling function `f` costs, in loop-nest ops.
fn cost(body: &ir::Body, f: ir::OpId) -> usize {
    let glue = body.op(f).attributes.get("passthrough").and_then(|a| a.as_array()).is_some_and(|a| a.iter().any(|e| e.as_str() == Some("optnone")));
    body.walk_preorder(f).len() * if glue { GLUE_COST_PER_OP } else { 1 }
}

/// The module printed as up to `parts` modules that compile in parallel
/// ([`Jit::compile_parts`]): each defines a share of the functions, balanced
/// by their [`cost`], and declares the rest (the linker joins them); every part keeps
/// the module's globals (private copies, one per object). One text when the
/// module is too small to split.
pub fn to_mlir_parts(ctx: &ir::Context, body: &ir::Body, module: ir::OpId, parts: usize) -> Vec<String> {
    let mblock = body.region_blocks(body.op(module).regions()[0])[0];
    let funcs: Vec<(ir::OpId, usize)> = body.block_ops(mblock).filter(|o| body.name(*o).as_str() == func::ops::FUNC && body.entry_block(*o).is_some()).map(|f| (f, cost(body, f))).collect();
    let total: usize = funcs.iter().map(|f| f.1).sum();
    let n = parts.min(total / MIN_OPS_PER_PART).min(funcs.len());
    if n <= 1 {
        return vec![to_mlir_text(ctx, body, module)];
    }
    // Largest first, each to the lightest part.
    let mut order = funcs.clone();
    order.sort_by(|a, b| b.1.cmp(&a.1));
    let mut load = vec![0usize; n];
    let mut part_of = std::collections::HashMap::new();
    for (f, w) in order {
        let p = (0..n).min_by_key(|&p| load[p]).unwrap_or(0);
        load[p] += w;
        part_of.insert(f, p);
    }
    (0..n)
        .map(|p| {
            let mut b = body.clone();
            for (f, _) in &funcs {
                if part_of[f] != p {
                    let r = b.op(*f).regions()[0];
                    b.erase_region_contents(r);
                    let op = b.op_mut(*f);
                    op.properties.set(ctx.ident("sym_visibility"), ir::attributes::Attribute::string("private"));
                    // A declaration keeps only the parallel marker (with the
                    // nest's work): its calls here go through the runtime too.
                    let parallel = op.attributes.get("passthrough").and_then(|a| a.as_array()).and_then(|a| a.iter().find(|e| e.as_array().and_then(|kv| kv.first()).and_then(|k| k.as_str()) == Some(PARALLEL_MARKER)).cloned());
                    for a in ["llvm.emit_c_interface", "passthrough", "npu.profile_regions"] {
                        op.attributes.remove(a);
                    }
                    if let Some(marker) = parallel {
                        op.attributes.set(ctx.ident("passthrough"), ir::attributes::Attribute::new(ir::attributes::AttrData::Array(vec![marker])));
                    }
                }
            }
            to_mlir_text(ctx, &b, module)
        })
        .collect()
}

/// Prints a module of ours in the generic form MLIR parses.
pub fn to_mlir_text(ctx: &ir::Context, body: &ir::Body, module: ir::OpId) -> String {
    ir::printer::print_op(ctx, body, module, ir::printer::PrintOptions { generic: true, debug_info: false })
}
