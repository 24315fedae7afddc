//! The NPU: its instruction set ([`isa`]), hardware description ([`config`]),
//! assembler ([`asm`]), binary format ([`binary`]), disassembler ([`disasm`]) and
//! a functional + timed simulator ([`sim`]) with reports ([`report`]). It
//! depends on nothing else in the project.

pub mod asm;
pub mod binary;
pub mod disasm;
pub mod kernels;
pub mod npy;
pub mod program;
pub mod report;
pub mod robustness;
pub mod sim;

pub use npu_isa::{config, isa, HwConfig};
pub use program::Program;
