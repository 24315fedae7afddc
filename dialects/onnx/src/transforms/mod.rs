//! The `onnx` dialect's own transforms: shape inference, resolving sequences
//! and optionals, and the rewrites between ONNX Runtime's QLinear operators,
//! QDQ groups and constant weights. Each keeps the IR in the `onnx` dialect.

mod expand_qlinear;
mod fold_dequantized_weights;
mod form_qlinear;
mod resolve_sequences;
mod shape_inference;
mod unroll_recurrent;

use ir::pass::{OptionKind, OptionSpec as Opt, PassInfo, PassRegistry};

pub use form_qlinear::replace_group;
pub use shape_inference::ShapeInference;

/// Registers the `onnx-*` transforms.
pub fn register(reg: &mut PassRegistry) {
    reg.register(PassInfo {
        argument: "onnx-shape-inference",
        summary: "Infer the element types and shapes of onnx ops and refine function signatures",
        options: vec![],
        create: |_| Ok(Box::new(shape_inference::ShapeInference)),
    });
    reg.register(PassInfo {
        argument: "onnx-resolve-sequences",
        summary: "Resolve sequences and optional values at compile time into the tensors they hold (unrolling Loops over them, and Loops whose shapes change with the iteration), and flatten them out of function results",
        options: vec![Opt::new("max-unrolled-ops", OptionKind::Int, "100000", "Ops a Loop or SequenceMap may unroll into")],
        create: |o| Ok(Box::new(resolve_sequences::ResolveSequences { max_unrolled_ops: o.int("max-unrolled-ops").max(0) as usize })),
    });
    reg.register(PassInfo {
        argument: "onnx-expand-qlinear-ops",
        summary: "Expand ONNX Runtime's com.microsoft QLinear operators (QLinearAdd, QLinearMul, QLinearConcat, QLinear(Global)AveragePool, QLinearSigmoid, QLinearLeakyRelu, QGemm) into the DequantizeLinear -> op -> QuantizeLinear groups they stand for",
        options: vec![],
        create: |_| Ok(Box::new(expand_qlinear::ExpandQLinearOps)),
    });
    reg.register(PassInfo {
        argument: "onnx-unroll-recurrent",
        summary: "Write LSTMs and GRUs out as their time steps in onnx ops (MatMul, Split, Sigmoid, Tanh, Mul, Add, Concat), for backends without loops; those that cannot be (clip, peepholes, sequence_lens, non-constant weights, other activations, too many steps) stay whole",
        options: vec![
            Opt::new("max-steps", OptionKind::Int, "512", "Steps times directions an LSTM or GRU may be written out into"),
            Opt::new("explain", OptionKind::Bool, "false", "A remark on each LSTM or GRU kept whole, saying why"),
        ],
        create: |o| Ok(Box::new(unroll_recurrent::UnrollRecurrent { max_steps: o.int("max-steps").max(0), explain: o.bool("explain") })),
    });
    reg.register(PassInfo {
        argument: "onnx-form-qlinear-ops",
        summary: "Form ONNX Runtime's com.microsoft QLinear operators from the QDQ groups its integer kernels compute differently from their float evaluation (DequantizeLinear, Softmax, QuantizeLinear)",
        options: vec![],
        create: |_| Ok(Box::new(form_qlinear::FormQLinearOps)),
    });
    reg.register(PassInfo {
        argument: "onnx-fold-dequantized-weights",
        summary: "Replace DequantizeLinear of constants (a QDQ model's weights and biases) by the f32 constants they compute, once at compile time",
        options: vec![],
        create: |_| Ok(Box::new(fold_dequantized_weights::FoldDequantizedWeights)),
    });
}
