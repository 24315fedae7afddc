//! The `npu` dialect, at two levels:
//! - **tensor level** (`npu.conv`, `npu.matmul`, `npu.pool`, `npu.eltwise`,
//!   `npu.requant`): NHWC computations the NPU runs well, with bias,
//!   activation and requantization fused in; what `convert-onnx-to-npu` makes;
//! - **schedule level** (`npu.dma.load`, `npu.mx.mul`, `npu.sem.wait`, …): one
//!   op per NPU instruction, in program order, inside a function marked
//!   `npu.program`; what `npu-schedule` makes and `npu-translate
//!   --emit=npu-asm` walks.
//!
//! The hardware both levels are checked against is the `npu.hw` dictionary
//! attribute ([`hw::HwDesc`]) on the module or function: the IR carries its
//! target, as upstream's GPU target attributes do.

pub mod attrs;
pub mod ops;
pub mod asm;
pub mod hw;
pub mod schedule;
pub mod tensor_ops;

use ir::dialect::DialectDef;
use ir::Context;

/// Registers the dialect (both levels: one table of ops built from the two).
pub fn register(ctx: &Context) {
    static DIALECT: std::sync::OnceLock<DialectDef> = std::sync::OnceLock::new();
    let d = DIALECT.get_or_init(|| {
        let mut v: Vec<ir::dialect::OpDef> = tensor_ops::ops();
        v.extend(schedule::ops());
        DialectDef { name: "npu", ops: Box::leak(v.into_boxed_slice()), materialize_constant: None }
    });
    ctx.register_dialect(d);
}
