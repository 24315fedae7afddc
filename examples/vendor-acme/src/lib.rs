//! The ACME NPU as a backend of the framework, written outside its tree:
//! what ACME runs (`capability`), its `acme` dialect, the conversion of its
//! partitions to that dialect, and the executor that runs them on a model of
//! its 32x32 array. Registering it (`register`) is all `acme-opt` and
//! `acme-run` add to the framework's own drivers.

pub mod capability;
pub mod convert;
pub mod dialect;
pub mod executor;

use std::sync::Arc;

/// The backend's name in `--target acme,cpu` and on its partitions.
pub const NAME: &str = "acme";

/// The side of the ACME MAC array.
pub const ARRAY: u64 = 32;

/// The backend object the framework asks.
pub struct Acme;

impl backend::Backend for Acme {
    fn name(&self) -> &str {
        NAME
    }
    fn supports(&self, body: &ir::Body, op: ir::OpId) -> Result<(), backend::Unsupported> {
        capability::supports(body, op)
    }
    fn capabilities(&self) -> Vec<backend::Capability> {
        capability::capabilities()
    }
    fn compile(&self, ctx: &ir::Context, body: &ir::Body, _module: ir::OpId, func: ir::OpId) -> Result<Box<dyn backend::Executable>, String> {
        let mut body = body.clone();
        convert::convert_partition(ctx, &mut body, func)?;
        Ok(Box::new(executor::Program::build(&body, func)?))
    }
    fn load(&self, bytes: &[u8]) -> Result<Box<dyn backend::Executable>, String> {
        Ok(Box::new(executor::Program::load(bytes)?))
    }
}

/// Makes ACME known to the framework: its backend, once.
pub fn register() {
    backend::register_once(|| Arc::new(Acme)).expect("acme registers with a valid name and version");
}

/// A context with the framework's dialects and ACME's.
pub fn context(allow_unregistered: bool) -> ir::Context {
    let ctx = driver::default_context(allow_unregistered);
    dialect::register(&ctx);
    ctx
}

/// The framework's passes and ACME's.
pub fn passes() -> ir::pass::PassRegistry {
    let mut reg = passes::registry();
    convert::register_pass(&mut reg);
    reg
}
