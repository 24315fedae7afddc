//! The NPU as data, declared once: the instruction set (`isa::ISA`, with
//! each operand's kind, default and place in the encoding) and the hardware
//! description (`HwConfig`). The simulator's assembler, encoder,
//! disassembler and executor and the compiler's npu dialect (its instruction
//! ops and their verifier, `npu::schedule::insts`) all read these tables, so
//! the two sides cannot drift. Depends on nothing with IR.

pub mod config;
pub mod float;
pub mod isa;

pub use config::HwConfig;

/// The program argument that carries its constant image (weights, tables):
/// the scheduler lays the image out under this name, a runner passes it.
pub const CONST_ARG: &str = "weights";
pub use float::{erf, maximum, minimum};
