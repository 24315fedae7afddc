//! Shared pieces of the command-line tools: the registry of every dialect we
//! ship, and the driver that `npu-opt` runs on each input buffer.

pub mod opt_driver;

use ir::Context;

/// A context with every dialect of the project registered.
pub fn default_context(allow_unregistered: bool) -> Context {
    let mut ctx = Context::new();
    ctx.allow_unregistered = allow_unregistered;
    func::register(&ctx);
    arith::register(&ctx);
    onnx::register(&ctx);
    ctx
}
