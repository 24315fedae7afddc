//! The names of the discardable attributes the NPU path puts on functions and
//! modules, read by the assembler, the runner and the translator.

/// The hardware description a module or program is compiled for (`#npu.hw<...>` as a dictionary).
pub const HW: &str = "npu.hw";
/// Marks a function as an NPU program (its body is schedule-level `npu` ops).
pub const PROGRAM: &str = "npu.program";
/// A program's arguments: where each one sits in DRAM.
pub const ARGS: &str = "npu.args";
/// A program's constant image: the weights it reads, laid out as in DRAM.
pub const CONST_IMAGE: &str = "npu.const_image";
