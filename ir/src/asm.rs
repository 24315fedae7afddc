//! The two halves of a custom assembly form, named as in MLIR: ops with a
//! custom syntax receive an [`OpParser`] to read it and an [`OpPrinter`] to write it.

pub use crate::parser::{Argument, Parser as OpParser, UnresolvedOperand};
pub use crate::printer::Printer as OpPrinter;
