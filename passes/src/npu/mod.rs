//! The npu16 backend: its capability table and grouping rules (asked by the
//! framework's partitioner, `backend::partition`), layout and conversion
//! (`convert-onnx-to-npu`), and tiling, memory planning and scheduling down to
//! instructions (`npu-schedule`).

pub mod fusion;
pub mod quant;
pub mod schedule;
pub mod target;
pub mod to_npu;
