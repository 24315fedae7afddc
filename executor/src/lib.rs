//! Runs what the compilers made, with nothing of the compilers: host tensors
//! in and out (`.npy`, ONNX `TensorProto`), a model's CPU code on the JIT
//! with its run-time checks ([`CpuCode`]), and a partitioned model's plan
//! ([`Plan`]: NPU programs on the simulator, CPU partitions on the JIT,
//! other backends' executables, the layout glue between them, over a table
//! of value slots). `runtime` compiles into these (and restores them from
//! the compile cache); what compiled CPU code calls back (threads, checks,
//! profiling) is `cpu-runtime`.

pub mod checks;
mod compare;
mod cpu;
pub mod plan;
mod spec;
pub mod tensor;

pub use compare::compare;
pub use cpu::CpuCode;
pub use plan::{NpuRun, Plan};
pub use spec::TensorSpec;
pub use tensor::HostTensor;
