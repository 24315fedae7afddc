//! Runs compiled models. Today: the CPU path (ONNX → loops → MLIR → JIT) and
//! host tensors in `.npy` and ONNX `TensorProto` form; the NPU simulator joins
//! when the NPU path exists.

pub mod cache;
mod compile;
mod compare;
pub mod cached_compile;
pub mod calibrate;
pub mod checks;
pub mod host;
pub mod host_ops;
mod model_words;
pub mod npu_path;
pub mod npu_reference;
pub mod parallel;
pub mod partition_graph;
pub mod profile;
pub mod qdq;
pub mod staged;
pub mod tensor;
mod thread_pool;
pub mod values;

pub use compare::compare;
pub use compile::{compile, context, declared_inputs, lower_model, node_macs, CompileOptions, Compiled, Lowered, TensorSpec};
pub use tensor::HostTensor;
