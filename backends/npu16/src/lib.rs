//! The npu16 backend: its capability table and grouping rules (asked by the
//! framework's partitioner, `backend::partition`), layout and conversion
//! (`convert-onnx-to-npu`), and tiling, memory planning and scheduling down to
//! instructions (`npu-schedule`).

pub mod asymmetric;
pub mod bands;
pub mod batch;
pub mod deconv;
pub mod dynamic;
pub mod fusion;
pub mod norm;
pub mod quant;
pub mod quant_lut;
pub mod schedule;
pub mod target;
pub mod to_npu;
pub mod tokens;
pub mod uint8;

use ir::pass::{PassInfo, PassRegistry};

/// Registers npu16 with the backend registry and its passes with `reg`.
pub fn register(reg: &mut PassRegistry) {
    target::register();
    reg.register(PassInfo {
        argument: "convert-onnx-to-npu",
        summary: "In NPU partitions, onnx ops to NHWC npu ops with transposes at their edges and fused activations; NHWC partition signatures",
        options: vec![],
        create: |_| Ok(Box::new(to_npu::OnnxToNpu)),
    });
    reg.register(PassInfo {
        argument: "npu-schedule",
        summary: "Tile, plan memory and schedule each NPU partition into an npu.program of instructions, launched by npu.launch",
        options: vec![],
        create: |_| Ok(Box::new(schedule::NpuSchedule)),
    });
}
