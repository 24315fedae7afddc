//! The ACME NPU as a backend of the framework, written outside its tree:
//! what ACME runs (`capability`), its `acme` dialect, the conversion of its
//! partitions to that dialect, and the executor that runs them on a model of
//! its 32x32 array. Registering it (`register`) is all `acme-opt` and
//! `acme-run` add to the framework's own drivers.

pub mod capability;
pub mod convert;
pub mod dialect;
pub mod executor;
pub mod listing;

use std::sync::Arc;

/// The backend's name in `--target acme,cpu` and on its partitions.
pub const NAME: &str = "acme";

/// ACME's hardware description (`--set acme.array=64`): the MAC array's side
/// and the vector unit's lanes, which the executor's cycle counts read.
pub fn hw_keys() -> Vec<backend::hw::HwKey> {
    use backend::hw::{HwKey, HwValue};
    vec![
        HwKey { name: "array", default: HwValue::Int(32), range: Some((1.0, 1024.0)), doc: "the MAC array's side (rows = columns)" },
        HwKey { name: "lanes", default: HwValue::Int(32), range: Some((1.0, 4096.0)), doc: "the vector unit's lanes (elements a cycle)" },
        HwKey { name: "weight_kib", default: HwValue::Int(256), range: Some((1.0, 1048576.0)), doc: "the weight buffer in KiB: a product whose weights do not fit fails to compile" },
    ]
}

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
    fn capability_cases(&self) -> Vec<backend::CapabilityCase> {
        capability::CASES.to_vec()
    }
    fn hw_keys(&self) -> Vec<backend::hw::HwKey> {
        hw_keys()
    }
    fn compile(&self, ctx: &ir::Context, body: &ir::Body, module: ir::OpId, func: ir::OpId) -> Result<Box<dyn backend::Executable>, String> {
        let hw = backend::hw::HwDesc::of_module(body, module, NAME, &hw_keys())?;
        let mut body = body.clone();
        convert::convert_partition(ctx, &mut body, func)?;
        let machine = executor::Machine { array: hw.int("array")? as u64, lanes: hw.int("lanes")? as u64, weight_bytes: hw.int("weight_kib")? as u64 * 1024 };
        Ok(Box::new(executor::Program::build(&body, func, machine)?))
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
    let mut reg = driver::registry();
    convert::register_pass(&mut reg);
    reg
}
