//! ONNX: the `onnx` dialect (one op per operator of the default domain, from
//! a table generated out of ONNX's own schemas), its op families (each
//! family's type and shape rules, folders, canonicalizations and shape
//! operands in one file, found by op through `family::hooks`) and transforms. Models come in and go out
//! through `onnx_translate` (`npu-translate --import-onnx`).

pub mod builder;
pub mod dialect;
pub mod family;
pub mod fold;
pub mod infer;
#[rustfmt::skip]
pub mod op_table;
/// Typed accessors of every operator: `onnx::ops::Conv::of(body, op)?.group(body)`
/// (generated from the operator table by `build.rs`, as MLIR's ODS does).
#[rustfmt::skip]
#[allow(clippy::all)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/ops.rs"));
    pub use structural::{NoValue, Yield, NO_VALUE, YIELD};
    /// The two ops of the dialect that are no ONNX operator: an absent
    /// optional input and a subgraph's terminator.
    pub mod structural {
        ir::typed_ops! {
            NO_VALUE: NoValue = "onnx.NoValue" () -> (value),
            YIELD: Yield = "onnx.Yield" (; outputs) -> (),
        }
    }
}
pub mod shape_operands;
pub mod symbolic_dims;
pub mod table;
pub mod transforms;
pub mod types;
pub mod unroll_recurrent;
pub mod verify_types;

/// Registers the dialect in a context.
pub fn register(ctx: &ir::Context) {
    ctx.register_dialect(dialect::dialect());
}
