//! ONNX: the `onnx` dialect (one op per operator of the default domain, from
//! a table generated out of ONNX's own schemas), the protobuf messages, and the
//! importer (`npu-translate --import-onnx`).

pub mod builder;
pub mod canonicalize;
pub mod dialect;
pub mod export;
pub mod fold;
pub mod functions;
pub mod import;
pub mod infer;
pub mod normalize;
#[rustfmt::skip]
pub mod op_table;
pub mod proto;
pub mod shape_operands;
pub mod sparse;
pub mod symbolic_dims;
pub mod table;
pub mod text;
pub mod transforms;
pub mod types;
pub mod unroll_recurrent;
pub mod verify_types;

/// Registers the dialect in a context.
pub fn register(ctx: &ir::Context) {
    ctx.register_dialect(dialect::dialect());
}
