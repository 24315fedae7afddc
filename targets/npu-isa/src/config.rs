//! The hardware description: one TOML file read by the simulator and (later)
//! by the compiler's cost model. `npu16` is the built-in default; any key can be
//! overridden from the command line as `section.key=value`.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HwConfig {
    /// Target name; a binary built for another target is refused.
    pub name: String,
    /// Clock in MHz (for traces in microseconds).
    pub clock_mhz: f64,
    pub array: ArrayConfig,
    pub scratchpad: SpadConfig,
    pub accumulator: MemConfig,
    pub vector: VectorConfig,
    pub dram: DramConfig,
    pub queues: QueueConfig,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ArrayConfig {
    /// Rows of the MAC array: the reduction (K) dimension of a weight tile.
    pub rows: u32,
    /// Columns: the output (N) dimension, and the lane count of every memory row.
    pub cols: u32,
    /// Only `weight-stationary` is modelled.
    pub dataflow: String,
    /// Cycles from the first input row entering to the first result leaving.
    pub fill_latency: u32,
    /// f32 runs at 1/f32_rate of the int8 rate (each f32 row takes this many cycles).
    pub f32_rate: u32,
    /// Stationary-weight buffers: 2 (npu16 r2, the default) preloads the next
    /// tile while the array multiplies and pipelines back-to-back `mx.mul`s;
    /// 1 (npu16 r1, and a description that does not say) preloads only into
    /// an idle array. See `docs/npu-sim.md`.
    #[serde(default = "one")]
    pub weight_buffers: u32,
}

fn one() -> u32 {
    1
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MemConfig {
    /// Rows of `array.cols` 32-bit lanes.
    pub rows: u32,
    /// Banks (rows interleave across them). Recorded for the compiler's cost
    /// model; the simulator does not model bank conflicts.
    pub banks: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SpadConfig {
    /// Rows of `array.cols` 32-bit lanes.
    pub rows: u32,
    /// Banks (rows interleave across them). Recorded for the compiler's cost
    /// model; the simulator does not model bank conflicts.
    pub banks: u32,
    /// The DMA engines address the scratchpad itself (`%spad+OFFSET`, npu16
    /// revision 3, the default), so a tensor can stay on chip between layers;
    /// a description that does not say has no such path (revision 2).
    #[serde(default)]
    pub dma: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct VectorConfig {
    /// Lanes processed per cycle (one accumulator row when equal to `array.cols`).
    pub lanes: u32,
    /// Cycles between two rows entering the vector pipeline.
    pub initiation_interval: u32,
    /// Pipeline depth added once per instruction.
    pub latency: u32,
    /// `v.mac` (npu16 revision 3, the default): a multiply-accumulate of
    /// scratchpad rows by one accumulator row of per-lane weights, one row a
    /// cycle in any element type, so a depthwise convolution runs here at 16
    /// useful MACs a cycle instead of through the array's diagonal tiles.
    /// A description that does not say has none (revision 2).
    #[serde(default)]
    pub mac: bool,
    /// `v.lut` (npu16 revision 3, the default): a 256-entry table lookup of
    /// int8 rows, so an int8 Sigmoid, HardSwish or Tanh is one instruction.
    /// A description that does not say has none (revision 2).
    #[serde(default)]
    pub lut: bool,
    /// A `bias` row in `v.requant` and the functions of one value (npu16
    /// revision 4, the default): a layer's bias is added in the same pass as
    /// its activation or requantization, not in a `v.add` of its own.
    /// A description that does not say has none (revision 3).
    #[serde(default)]
    pub bias: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DramConfig {
    pub bytes_per_cycle: u32,
    /// Cycles before the first byte of a transfer.
    pub latency: u32,
    /// Transfers are rounded up to whole bursts of this many bytes, per row
    /// (per transfer where rows coalesce).
    pub burst_bytes: u32,
    /// Rows that follow one another in DRAM (a stride of one row's bytes)
    /// move as one run of whole bursts, not a burst per row (npu16 revision 3,
    /// the default); a description that does not say rounds every row
    /// (revision 2). A 16-byte int8 row otherwise costs a 64-byte burst.
    #[serde(default)]
    pub coalesce: bool,
    /// A DMA engine keeps several requests in flight (npu16 revision 4, the
    /// default): a DMA's latency overlaps the transfers of the DMAs before it
    /// on its queue, so the queue is busy for the bytes alone and only what
    /// waits for the data (a semaphore signal, a fence) waits for the
    /// latency. A description that does not say waits out each DMA's latency
    /// before the next starts (revision 3).
    #[serde(default)]
    pub pipelined: bool,
    /// DRAM capacity in MiB; argument images must fit.
    pub size_mib: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct QueueConfig {
    /// Instructions each queue holds between fetch and its unit.
    pub load: u32,
    pub exec: u32,
    pub store: u32,
}

impl HwConfig {
    /// The built-in `npu16` (revision 4: double-buffered weights, `v.mac`, `v.lut`, coalescing DMA, the scratchpad as a DMA
    /// address, DMA requests in flight, a bias row in the vector unit's epilogues): a 16×16 int8 array at 1 GHz, 16,384 scratchpad rows and 4,096 accumulator rows of 16 32-bit lanes,
    /// 16 B/cycle DRAM.
    pub fn npu16() -> HwConfig {
        HwConfig {
            name: "npu16".into(),
            clock_mhz: 1000.0,
            array: ArrayConfig { rows: 16, cols: 16, dataflow: "weight-stationary".into(), fill_latency: 16, f32_rate: 4, weight_buffers: 2 },
            scratchpad: SpadConfig { rows: 16384, banks: 4, dma: true },
            accumulator: MemConfig { rows: 4096, banks: 2 },
            vector: VectorConfig { lanes: 16, initiation_interval: 1, latency: 4, mac: true, lut: true, bias: true },
            dram: DramConfig { bytes_per_cycle: 16, latency: 100, burst_bytes: 64, coalesce: true, pipelined: true, size_mib: 1024 },
            queues: QueueConfig { load: 8, exec: 8, store: 8 },
        }
    }

    /// A built-in target by name.
    pub fn builtin(name: &str) -> Option<HwConfig> {
        match name {
            "npu16" => Some(Self::npu16()),
            _ => None,
        }
    }

    pub fn from_toml(text: &str) -> Result<HwConfig, String> {
        let c: HwConfig = toml::from_str(text).map_err(|e| format!("hardware description: {}", e))?;
        c.validate()?;
        Ok(c)
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// Applies `section.key=value` (value as TOML: `32`, `"name"`, `1.5`).
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let (path, value) = assignment.split_once('=').ok_or_else(|| format!("--set expects key=value, got '{}'", assignment))?;
        let mut doc: toml::Value = toml::Value::try_from(&*self).map_err(|e| e.to_string())?;
        let parts: Vec<&str> = path.trim().split('.').collect();
        let mut cur = &mut doc;
        for (i, p) in parts.iter().enumerate() {
            let table = cur.as_table_mut().ok_or_else(|| format!("--set {}: '{}' is not a section", path, parts[..i].join(".")))?;
            if !table.contains_key(*p) {
                return Err(format!("--set {}: unknown key '{}'", path, p));
            }
            cur = table.get_mut(*p).unwrap();
        }
        let v = value.trim();
        let parsed: toml::Value = toml::from_str::<toml::Table>(&format!("v = {}", v))
            .ok()
            .and_then(|t| t.get("v").cloned())
            .unwrap_or_else(|| toml::Value::String(v.to_string()));
        if std::mem::discriminant(cur) != std::mem::discriminant(&parsed)
            && !(cur.is_float() && parsed.is_integer())
        {
            return Err(format!("--set {}: expected a value like {}, got {}", path, cur, v));
        }
        *cur = if cur.is_float() { toml::Value::Float(parsed.as_float().or(parsed.as_integer().map(|i| i as f64)).unwrap_or(0.0)) } else { parsed };
        let c: HwConfig = doc.try_into().map_err(|e: toml::de::Error| e.to_string())?;
        c.validate()?;
        *self = c;
        Ok(())
    }

    pub fn validate(&self) -> Result<(), String> {
        let pos = [
            ("array.rows", self.array.rows),
            ("array.cols", self.array.cols),
            ("array.f32_rate", self.array.f32_rate),
            ("scratchpad.rows", self.scratchpad.rows),
            ("scratchpad.banks", self.scratchpad.banks),
            ("accumulator.rows", self.accumulator.rows),
            ("accumulator.banks", self.accumulator.banks),
            ("vector.lanes", self.vector.lanes),
            ("vector.initiation_interval", self.vector.initiation_interval),
            ("dram.bytes_per_cycle", self.dram.bytes_per_cycle),
            ("dram.burst_bytes", self.dram.burst_bytes),
            ("queues.load", self.queues.load),
            ("queues.exec", self.queues.exec),
            ("queues.store", self.queues.store),
        ];
        for (k, v) in pos {
            if v == 0 {
                return Err(format!("hardware description: {} must be positive", k));
            }
        }
        if !(1..=2).contains(&self.array.weight_buffers) {
            return Err(format!("hardware description: array.weight_buffers must be 1 or 2, got {}", self.array.weight_buffers));
        }
        if self.array.dataflow != "weight-stationary" {
            return Err(format!("hardware description: dataflow '{}' is not modelled (only weight-stationary)", self.array.dataflow));
        }
        if self.array.rows > 256 || self.array.cols > 256 {
            return Err("hardware description: the array is at most 256×256".into());
        }
        if self.clock_mhz <= 0.0 {
            return Err("hardware description: clock_mhz must be positive".into());
        }
        Ok(())
    }

    /// Peak MACs per cycle.
    pub fn peak_macs(&self) -> u64 {
        self.array.rows as u64 * self.array.cols as u64
    }
}
