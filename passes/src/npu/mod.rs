//! The NPU path's passes: capability and partitioning (`npu-partition`),
//! layout and conversion (`convert-onnx-to-npu`), and tiling, memory
//! planning and scheduling down to instructions (`npu-schedule`).

pub mod partition;
pub mod quant;
pub mod schedule;
pub mod target;
pub mod to_npu;
