//! The pipelines our tools and the runtime run, as text (`npu-opt
//! --pass-pipeline` takes the same), and running one on a module with every
//! pass of the project: the CPU path's two halves, what both paths run first,
//! and the loop limit every compile of this process applies.

use ir::pass::{parse_pipeline, PassManager, PassManagerConfig};
use ir::{Body, Context, OpId};

/// The passes of the CPU pipeline's first half: onnx to tensor ops, constant copies folded.
macro_rules! tensor_passes {
    () => {
        "onnx-shape-inference, canonicalize, onnx-form-integer-products, onnx-fold-dequantized-weights, func.func(convert-onnx-to-tensor), tensor-generalize, fold-constant-copies"
    };
}
/// The passes of its second half: tensor ops to loops.
macro_rules! loops_passes {
    () => {
        "func.func(fuse-elementwise), func.func(pool-on-channel-tiles), func.func(fold-pad-into-producer), func.func(bufferize), convert-tensor-to-loops, cse, canonicalize, fuse-fill-nests, hoist-loop-allocs, outline-loop-nests, pack-weight-arguments, plan-arena"
    };
}

/// Our half of the CPU pipeline; MLIR's half is `llvm_cpu::LOWERING_PIPELINE`.
/// It is [`CPU_TENSOR_PIPELINE`] then [`CPU_LOOPS_PIPELINE`]: between the two
/// the JIT path turns the weights, in the layout the kernels read, into arguments.
pub const CPU_PIPELINE: &str = concat!("builtin.module(", tensor_passes!(), ", ", loops_passes!(), ")");
/// The first half of [`CPU_PIPELINE`].
pub const CPU_TENSOR_PIPELINE: &str = concat!("builtin.module(", tensor_passes!(), ")");
/// The second half of [`CPU_PIPELINE`].
pub const CPU_LOOPS_PIPELINE: &str = concat!("builtin.module(", loops_passes!(), ")");

/// What both paths run first: types inferred, sequences and optionals resolved
/// into tensors (the function's results flattened by `runtime::values`' names),
/// com.microsoft QLinear operators expanded into their QDQ groups, and the QDQ
/// groups ONNX Runtime computes with its own integer kernels formed into those
/// kernels' operators.
pub const RESOLVE_PIPELINE: &str = "builtin.module(onnx-shape-inference, onnx-resolve-sequences, onnx-expand-qlinear-ops, onnx-shape-inference, onnx-form-qlinear-ops)";

/// Iterations a Loop or Scan may run (`npu-run --max-loop-iterations`),
/// for every compile of this process, like the tensor limit.
static MAX_LOOP_ITERATIONS: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(i32::MAX as i64);

pub fn set_max_loop_iterations(n: i64) {
    MAX_LOOP_ITERATIONS.store(n.max(0), std::sync::atomic::Ordering::Relaxed);
}

pub fn max_loop_iterations() -> i64 {
    MAX_LOOP_ITERATIONS.load(std::sync::atomic::Ordering::Relaxed)
}

/// [`CPU_TENSOR_PIPELINE`] with this process's loop limit.
pub fn cpu_tensor_pipeline() -> String {
    with_loop_limit(CPU_TENSOR_PIPELINE)
}

fn with_loop_limit(pipeline: &str) -> String {
    pipeline.replace("convert-onnx-to-tensor", &format!("convert-onnx-to-tensor{{max-loop-iterations={}}}", max_loop_iterations()))
}

/// Runs `pipeline` (textual, as `--pass-pipeline`) on `module` with every
/// pass of [`crate::registry`]; errors are rendered `loc: error: message`.
pub fn run(ctx: &Context, body: &mut Body, module: OpId, pipeline: &str) -> Result<(), String> {
    let reg = crate::registry();
    let pm = parse_pipeline(pipeline, &reg).map_err(|e| e.render(pipeline))?;
    let mut pm = PassManager::new(pm, PassManagerConfig::default());
    pm.run(ctx, body, module).map_err(|e| render_errors(&e.diagnostics))
}

/// Diagnostics as `loc: error: message` lines, as the tools print them.
pub fn render_errors(diags: &[ir::diagnostics::Diagnostic]) -> String {
    diags.iter().map(|d| format!("{}: error: {}", d.loc, d.message)).collect::<Vec<_>>().join("\n")
}
