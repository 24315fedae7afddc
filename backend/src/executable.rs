//! The executor side of a backend: a compiled partition that runs on the
//! backend's device (or its simulator), on the partition's arguments and
//! results as row-major bytes, and says what it cost.

/// One row of a backend's per-layer report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayerRow {
    pub name: String,
    pub cycles: u64,
    pub macs: u64,
    pub dram_bytes: u64,
}

/// What one run of a compiled partition cost on the device.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counters {
    pub cycles: u64,
    pub macs: u64,
    pub dram_bytes: u64,
    pub layers: Vec<LayerRow>,
}

/// A partition compiled by [`crate::Backend::compile`].
pub trait Executable: Send + Sync {
    /// Runs once. `inputs` and `outputs` are the partition function's
    /// arguments and results in order, each the row-major bytes of its static
    /// type (the caller allocates the outputs).
    fn run(&self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<Counters, String>;

    /// The bytes [`crate::Backend::load`] restores this executable from, for
    /// the compile cache (`--cache-dir`). Default: not saved, never cached.
    fn save(&self) -> Option<Vec<u8>> {
        None
    }
}
