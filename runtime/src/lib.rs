//! Compiles models into what `executor` runs: the CPU compile (ONNX → loops
//! → MLIR → JIT) and the heterogeneous compile (partitions over backends,
//! NPU programs, CPU partitions), through the compile cache; models cut at
//! ops whose output sizes depend on the data; the host reference of NPU
//! partitions. Host tensors and the runs themselves are `executor`'s
//! (re-exported here); what compiled CPU code calls at run time (threads,
//! checks, profiling) is `cpu-runtime`.

pub mod cache;
mod compile;
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
pub mod values;

pub use executor::{compare, tensor};
pub use compile::{compile, context, declared_inputs, lower_model, node_macs, CompileOptions, Compiled, Lowered, TensorSpec};
pub use executor::HostTensor;

/// The run-time library compiled CPU code calls (threads, profiling, the
/// intermediates' arena), as `runtime::parallel`, `runtime::profile` and `runtime::arena`.
pub use cpu_runtime::{arena, parallel, profile};
