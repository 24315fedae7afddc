//! Passes over the IR. Core passes work on any dialect through traits and op
//! definitions (folders, canonicalization patterns, `Pure`); `test-*` passes
//! exist to test the pass infrastructure itself (failures, crashes, analyses,
//! conversions) from lit.

mod canonicalize;
mod cpu_target;
mod cse;
mod dce;
mod fold_constant_copies;
mod fold_pad_into_producer;
mod fuse_elementwise;
mod generalize;
mod inline;
pub mod insert_profiling;
mod onnx_expand_qlinear;
mod onnx_unroll_recurrent;
mod onnx_fold_dequantized_weights;
mod onnx_form_integer_products;
mod onnx_form_qlinear;
mod onnx_resolve_sequences;
mod onnx_shape_inference;
mod outline_loop_nests;
pub mod onnx_to_tensor;
mod bufferize;
mod tensor_to_loops;
mod sccp;
mod symbol_dce;
mod test_passes;

use ir::pass::{OptionKind, OptionSpec, PassInfo, PassRegistry};

pub use canonicalize::Canonicalize;

pub use cpu_target::{cpu_target, host_has_vnni, CpuTarget, Tile};

fn opt(name: &'static str, kind: OptionKind, default: &'static str, description: &'static str) -> OptionSpec {
    OptionSpec { name, kind, default, description }
}

/// Registers every pass of this crate.
pub fn register_all(reg: &mut PassRegistry) {
    reg.register(PassInfo {
        argument: "canonicalize",
        summary: "Fold, remove dead ops and apply every op's canonicalization patterns until a fixed point",
        options: vec![
            opt("max-iterations", OptionKind::Int, "10", "Sweeps over the IR before giving up on convergence"),
            opt("max-num-rewrites", OptionKind::Int, "-1", "Pattern applications allowed (-1: no limit)"),
            opt("top-down", OptionKind::Bool, "true", "Visit ops parents-first and in order"),
            opt("test-convergence", OptionKind::Bool, "false", "Fail if no fixed point is reached"),
            opt("disable-patterns", OptionKind::List, "", "Patterns not to apply, by name"),
        ],
        create: |o| Ok(Box::new(Canonicalize::from_options(o))),
    });
    reg.register(PassInfo {
        argument: "cse",
        summary: "Eliminate common sub-expressions of side-effect-free ops, scoped by dominance",
        options: vec![],
        create: |_| Ok(Box::new(cse::Cse)),
    });
    reg.register(PassInfo {
        argument: "dce",
        summary: "Remove side-effect-free ops whose results are unused, and unreachable blocks",
        options: vec![],
        create: |_| Ok(Box::new(dce::Dce)),
    });
    reg.register(PassInfo {
        argument: "symbol-dce",
        summary: "Remove private symbols (functions) that nothing public reaches",
        options: vec![],
        create: |_| Ok(Box::new(symbol_dce::SymbolDce)),
    });
    reg.register(PassInfo {
        argument: "inline",
        summary: "Inline func.call of single-block, non-recursive functions",
        options: vec![opt("max-depth", OptionKind::Int, "8", "Rounds of inlining (calls exposed by inlining)")],
        create: |o| Ok(Box::new(inline::Inline { max_depth: o.int("max-depth").max(1) as u32 })),
    });
    reg.register(PassInfo {
        argument: "fold-constant-copies",
        summary: "Replace tensor.generics that only copy a constant's elements (transposes, broadcasts, slices) by the constant they compute",
        options: vec![],
        create: |_| Ok(Box::new(fold_constant_copies::FoldConstantCopies)),
    });
    reg.register(PassInfo {
        argument: "sccp",
        summary: "Propagate constants through folders to a fixed point and replace values with constants",
        options: vec![],
        create: |_| Ok(Box::new(sccp::Sccp)),
    });
    reg.register(PassInfo {
        argument: "onnx-shape-inference",
        summary: "Infer the element types and shapes of onnx ops and refine function signatures",
        options: vec![],
        create: |_| Ok(Box::new(onnx_shape_inference::ShapeInference)),
    });
    reg.register(PassInfo {
        argument: "onnx-resolve-sequences",
        summary: "Resolve sequences and optional values at compile time into the tensors they hold (unrolling Loops over them, and Loops whose shapes change with the iteration), and flatten them out of function results",
        options: vec![opt("max-unrolled-ops", OptionKind::Int, "100000", "Ops a Loop or SequenceMap may unroll into")],
        create: |o| Ok(Box::new(onnx_resolve_sequences::ResolveSequences { max_unrolled_ops: o.int("max-unrolled-ops").max(0) as usize })),
    });
    reg.register(PassInfo {
        argument: "onnx-expand-qlinear-ops",
        summary: "Expand ONNX Runtime's com.microsoft QLinear operators (QLinearAdd, QLinearMul, QLinearConcat, QLinear(Global)AveragePool, QLinearSigmoid, QLinearLeakyRelu, QGemm) into the DequantizeLinear -> op -> QuantizeLinear groups they stand for",
        options: vec![],
        create: |_| Ok(Box::new(onnx_expand_qlinear::ExpandQLinearOps)),
    });
    reg.register(PassInfo {
        argument: "onnx-unroll-recurrent",
        summary: "Write LSTMs and GRUs out as their time steps in onnx ops (MatMul, Split, Sigmoid, Tanh, Mul, Add, Concat), for backends without loops; those that cannot be (clip, peepholes, sequence_lens, non-constant weights, other activations, too many steps) stay whole",
        options: vec![
            opt("max-steps", OptionKind::Int, "512", "Steps times directions an LSTM or GRU may be written out into"),
            opt("explain", OptionKind::Bool, "false", "A remark on each LSTM or GRU kept whole, saying why"),
        ],
        create: |o| Ok(Box::new(onnx_unroll_recurrent::UnrollRecurrent { max_steps: o.int("max-steps").max(0), explain: o.bool("explain") })),
    });
    reg.register(PassInfo {
        argument: "onnx-form-qlinear-ops",
        summary: "Form ONNX Runtime's com.microsoft QLinear operators from the QDQ groups its integer kernels compute differently from their float evaluation (DequantizeLinear, Softmax, QuantizeLinear)",
        options: vec![],
        create: |_| Ok(Box::new(onnx_form_qlinear::FormQLinearOps)),
    });
    reg.register(PassInfo {
        argument: "onnx-form-integer-products",
        summary: "CPU path: form QLinearConv, QLinearMatMul and com.microsoft QGemm from the QDQ groups of int8 products (constant int8 weights) that the CPU runs as integer kernels (VNNI); nothing on a host without VNNI",
        options: vec![],
        create: |_| Ok(Box::new(onnx_form_integer_products::FormIntegerProducts)),
    });
    reg.register(PassInfo {
        argument: "onnx-fold-dequantized-weights",
        summary: "Replace DequantizeLinear of constants (a QDQ model's weights and biases) by the f32 constants they compute, once at compile time",
        options: vec![],
        create: |_| Ok(Box::new(onnx_fold_dequantized_weights::FoldDequantizedWeights)),
    });
    reg.register(PassInfo {
        argument: "convert-onnx-to-tensor",
        summary: "Lower onnx ops to tensor.generic loop nests and tensor reshapes (static shapes)",
        options: vec![opt(
            "max-loop-iterations",
            OptionKind::Int,
            "2147483647",
            "Iterations a Loop or Scan may run before the run fails with an error naming the node (a model whose loop never ends)",
        )],
        create: |o| Ok(Box::new(onnx_to_tensor::OnnxToTensor { max_loop_iterations: o.int("max-loop-iterations").max(0) })),
    });
    reg.register(PassInfo {
        argument: "tensor-generalize",
        summary: "Turn named structured ops (tensor.matmul, tensor.conv_2d_nchw_fchw, tensor.fill, ...) into tensor.generic",
        options: vec![],
        create: |_| Ok(Box::new(generalize::Generalize)),
    });
    reg.register(PassInfo {
        argument: "fuse-elementwise",
        summary: "Fuse elementwise tensor.generic consumers into their producers (parallel bodies merged; after a reduction, as its epilogue)",
        options: vec![],
        create: |_| Ok(Box::new(fuse_elementwise::FuseElementwise)),
    });
    reg.register(PassInfo {
        argument: "fold-pad-into-producer",
        summary: "A generic whose result is only copied into a padded tensor writes the padded tensor's interior itself (output map offset by the padding)",
        options: vec![],
        create: |_| Ok(Box::new(fold_pad_into_producer::FoldPadIntoProducer)),
    });
    reg.register(PassInfo {
        argument: "bufferize",
        summary: "Tensors to memrefs: results become output arguments, constants globals, generics write in place",
        options: vec![],
        create: |_| Ok(Box::new(bufferize::Bufferize)),
    });
    reg.register(PassInfo {
        argument: "convert-tensor-to-loops",
        summary: "tensor.generic on memrefs to scf.for nests with memref loads and stores",
        options: vec![],
        create: |_| Ok(Box::new(tensor_to_loops::TensorToLoops)),
    });
    reg.register(PassInfo {
        argument: "outline-loop-nests",
        summary: "Move each top-level loop nest of a loop-level function into a private noinline function of its own, called where it stood",
        options: vec![],
        create: |_| Ok(Box::new(outline_loop_nests::OutlineLoopNests)),
    });
    reg.register(PassInfo {
        argument: "insert-profiling",
        summary: "Bracket each model node's loop-level code with calls to the runtime's profiling hooks",
        options: vec![],
        create: |_| Ok(Box::new(insert_profiling::InsertProfiling)),
    });
    reg.register(PassInfo {
        argument: "npu-partition",
        summary: "Ask each backend of a list which onnx ops it runs, place each op on the first that takes it (the CPU last), form convex subgraphs and outline each run of one backend into a function",
        options: vec![
            opt("targets", OptionKind::List, "", "Backends in order of preference, the CPU last (default: every registered backend)"),
            opt("report", OptionKind::String, "", "Write each op that fell back, with its reason code, and the split (\"-\": stderr)"),
            opt("dot", OptionKind::String, "", "Write the graph coloured by backend (Graphviz)"),
            opt("placement", OptionKind::String, "", "Force nodes onto backends: lines 'NODE BACKEND' or '/REGEX/ BACKEND', or a --report-json file"),
        ],
        create: |o| Ok(Box::new(backend::partition::Partition { targets: o.list("targets"), report: o.string("report"), dot: o.string("dot"), placement: o.string("placement") })),
    });
    test_passes::register(reg);
}

/// A registry with every pass of the project.
pub fn registry() -> PassRegistry {
    let mut r = PassRegistry::new();
    register_all(&mut r);
    r
}
