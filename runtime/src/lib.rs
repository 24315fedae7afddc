//! Compiles and runs models: the CPU compile (ONNX → loops → MLIR → JIT,
//! cached), the heterogeneous run of NPU and CPU partitions, models cut at
//! ops whose output sizes depend on the data, host tensors in `.npy` and
//! ONNX `TensorProto` form. What compiled CPU code calls at run time
//! (threads, checks, profiling) is `cpu-runtime`.

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
pub mod partition_graph;
pub mod qdq;
pub mod staged;
pub mod tensor;
pub mod values;

pub use compare::compare;
pub use compile::{compile, context, declared_inputs, lower_model, node_macs, CompileOptions, Compiled, Lowered, TensorSpec};
pub use tensor::HostTensor;

/// The run-time library compiled CPU code calls (threads, profiling), as `runtime::parallel` and `runtime::profile`.
pub use cpu_runtime::{parallel, profile};
