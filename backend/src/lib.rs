//! Backends as plug-ins. A vendor implements [`Backend`] for its NPU (the
//! capability query with typed reasons, the grouping of ops it runs as one)
//! and registers it ([`register`]); the framework owns partitioning over an
//! ordered list of backends ([`partition`]), with the CPU as the last
//! fallback, so a model never fails because an NPU could not take an op.

pub mod capability;
pub mod codec;
mod executable;
pub mod hw;
mod interface;
pub mod partition;
pub mod placement;
mod registry;

pub use executable::{Counters, Executable, LayerRow};
pub use interface::{Backend, Capability, CapabilityCase, Cpu, Reason, Unsupported, API_VERSION, CPU};
pub use registry::{register, register_once, registered, resolve};
