//! The `func` dialect, named and printed as upstream MLIR's: `func.func`,
//! `func.return` and `func.call`, with their custom forms.

pub mod ops;
mod call;
pub mod conversion;
mod function;
mod ret;

use ir::dialect::{DialectDef, OpDef};

pub const OPS: &[OpDef] = &[function::FUNC, ret::RETURN, call::CALL];

pub static DIALECT: DialectDef = DialectDef { name: "func", ops: OPS, materialize_constant: None };

/// Registers the dialect in a context.
pub fn register(ctx: &ir::Context) {
    ctx.register_dialect(&DIALECT);
}

pub use function::{function_type, FunctionBuilder};
