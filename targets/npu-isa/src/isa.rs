//! The instruction set as one table. Each row says which queue runs the
//! instruction, which element types it takes, and how each operand is written
//! in assembly and packed into the 256-bit encoding (four 64-bit words: word 0
//! holds the opcode, flags and slot 0; words 1–3 hold slots 1–6, two 32-bit
//! slots each). The assembler, disassembler, binary format and `docs/npu-isa.md`
//! are all driven by this table.

/// Which in-order queue executes an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Queue {
    Load,
    Exec,
    Store,
    /// Handled by the fetch unit (fence, halt).
    Ctrl,
}

impl Queue {
    pub const UNITS: [Queue; 3] = [Queue::Load, Queue::Exec, Queue::Store];
    pub fn name(self) -> &'static str {
        match self {
            Queue::Load => "load",
            Queue::Exec => "exec",
            Queue::Store => "store",
            Queue::Ctrl => "ctrl",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn from_name(s: &str) -> Option<Queue> {
        Queue::UNITS.into_iter().find(|q| q.name() == s)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dtype {
    I8,
    I32,
    F32,
}

impl Dtype {
    pub const ALL: [Dtype; 3] = [Dtype::I8, Dtype::I32, Dtype::F32];
    pub fn name(self) -> &'static str {
        match self {
            Dtype::I8 => "i8",
            Dtype::I32 => "i32",
            Dtype::F32 => "f32",
        }
    }
    pub fn bytes(self) -> u64 {
        match self {
            Dtype::I8 => 1,
            _ => 4,
        }
    }
    pub fn code(self) -> u8 {
        self as u8
    }
    pub fn from_code(c: u8) -> Option<Dtype> {
        Dtype::ALL.get(c as usize).copied()
    }
    pub fn from_name(s: &str) -> Option<Dtype> {
        Dtype::ALL.into_iter().find(|d| d.name() == s)
    }
}

/// Where a value lives in the encoding: bits `lo..lo+bits` of 32-bit slot `slot`.
#[derive(Clone, Copy, Debug)]
pub struct Loc {
    pub slot: u8,
    pub lo: u8,
    pub bits: u8,
    pub signed: bool,
}

const fn u(slot: u8, lo: u8, bits: u8) -> Loc {
    Loc { slot, lo, bits, signed: false }
}
const fn s(slot: u8, lo: u8, bits: u8) -> Loc {
    Loc { slot, lo, bits, signed: true }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemKind {
    Spad,
    Acc,
    Dram,
}

/// How an operand is written.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Positional `spad[ROW]` or `acc[ROW]`.
    Row(MemKind),
    /// Positional `%arg` or `%arg+BYTES`: the argument index at `loc`, the byte offset at `extra`.
    Dram { extra: Loc },
    /// Positional `load`, `exec` or `store`.
    QueueName,
    /// Positional `sN`.
    Sem,
    /// `name=INT`.
    Int,
    /// `name=VALUE`: an integer, or an f32 (stored as its bits) for f32 instructions.
    Imm,
    /// A bare word that sets a flag bit (`loc.lo` is the bit in the flags byte).
    Flag,
}

#[derive(Clone, Copy, Debug)]
pub struct Operand {
    pub name: &'static str,
    pub kind: Kind,
    pub loc: Loc,
    /// `None`: the operand must be written.
    pub default: Option<i64>,
    pub doc: &'static str,
}

const fn row(name: &'static str, m: MemKind, loc: Loc, doc: &'static str) -> Operand {
    Operand { name, kind: Kind::Row(m), loc, default: None, doc }
}
const fn dram(name: &'static str, doc: &'static str) -> Operand {
    Operand { name, kind: Kind::Dram { extra: u(2, 0, 32) }, loc: u(1, 0, 8), default: None, doc }
}
const fn int(name: &'static str, loc: Loc, default: Option<i64>, doc: &'static str) -> Operand {
    Operand { name, kind: Kind::Int, loc, default, doc }
}
const fn imm(name: &'static str, loc: Loc, default: Option<i64>, doc: &'static str) -> Operand {
    Operand { name, kind: Kind::Imm, loc, default, doc }
}
const fn flag(name: &'static str, bit: u8, doc: &'static str) -> Operand {
    Operand { name, kind: Kind::Flag, loc: u(0, bit, 1), default: Some(0), doc }
}

#[derive(Debug)]
pub struct InstrDef {
    pub mnemonic: &'static str,
    pub opcode: u8,
    pub queue: Queue,
    /// Element types it takes (written as a `.i8`-style suffix); empty: none.
    pub dtypes: &'static [Dtype],
    pub operands: &'static [Operand],
    pub doc: &'static str,
}

impl PartialEq for InstrDef {
    fn eq(&self, o: &Self) -> bool {
        self.opcode == o.opcode
    }
}

impl InstrDef {
    pub fn operand(&self, name: &str) -> Option<&Operand> {
        self.operands.iter().find(|o| o.name == name)
    }
}

use Dtype::*;
use MemKind::*;

const DMA_SHAPE: [Operand; 7] = [
    int("rows", u(3, 0, 16), None, "rows to transfer"),
    int("cols", u(3, 16, 16), None, "elements per row (at most array.cols, minus the lane padding)"),
    int("stride", u(4, 0, 32), Some(0), "bytes between rows in DRAM (0: rows are contiguous)"),
    int("pad_top", u(5, 0, 8), Some(0), "zero rows written before the data"),
    int("pad_bottom", u(5, 8, 8), Some(0), "zero rows written after the data"),
    int("pad_left", u(5, 16, 8), Some(0), "zero lanes before each row's data"),
    int("pad_right", u(5, 24, 8), Some(0), "zero lanes after each row's data"),
];

/// An affine replay loop over scratchpad input rows into accumulator rows (`mx.mul`, `v.mac`).
const REPLAY: [Operand; 4] = [
    int("loop", u(4, 0, 32), Some(1), "passes (an affine replay loop)"),
    int("src_stride", s(5, 0, 32), Some(0), "scratchpad rows added to src per pass"),
    int("dst_stride", s(6, 0, 32), Some(0), "accumulator rows added to dst per pass"),
    flag("accumulate", 0, "add to the accumulator instead of overwriting it"),
];

static VEC_BIN: [Operand; 5] = [
    row("dst", Acc, u(0, 0, 32), "destination accumulator row"),
    row("a", Acc, u(1, 0, 32), "first source row"),
    row("b", Acc, u(2, 0, 32), "second source row"),
    int("rows", u(3, 0, 32), None, "rows to process"),
    flag("bcast", 0, "b is one row, broadcast to every row (bias, per-channel scale)"),
];

/// A per-lane row added before a function or a requantization: a layer's
/// bias in the same pass as its activation (npu16 revision 4, `vector.bias`).
const BIAS: Operand = int("bias", s(2, 0, 32), Some(-1), "accumulator row of per-lane values added to x first, as `v.add … bcast` would (i32 wraps); −1: none. Needs `vector.bias` (npu16 revision 4)");

static VEC_UN: [Operand; 4] = [
    row("dst", Acc, u(0, 0, 32), "destination accumulator row"),
    row("src", Acc, u(1, 0, 32), "source row"),
    int("rows", u(3, 0, 32), None, "rows to process"),
    BIAS,
];

static LANE_REDUCE: [Operand; 4] = [
    row("dst", Acc, u(0, 0, 32), "first destination row"),
    row("src", Acc, u(1, 0, 32), "first source row"),
    int("rows", u(3, 0, 32), None, "rows to process"),
    int("lanes", u(4, 0, 16), Some(0), "leading lanes reduced (0: all; the rest of a partial row is ignored)"),
];

/// A reduction across the lanes of each row, its result in every lane of it.
const fn lane_reduce(mnemonic: &'static str, opcode: u8, doc: &'static str) -> InstrDef {
    InstrDef { mnemonic, opcode, queue: Queue::Exec, dtypes: &[F32], operands: &LANE_REDUCE, doc }
}

const fn vec_bin(mnemonic: &'static str, opcode: u8, doc: &'static str) -> InstrDef {
    InstrDef { mnemonic, opcode, queue: Queue::Exec, dtypes: &[I32, F32], operands: &VEC_BIN, doc }
}

const fn vec_un(mnemonic: &'static str, opcode: u8, dtypes: &'static [Dtype], doc: &'static str) -> InstrDef {
    InstrDef { mnemonic, opcode, queue: Queue::Exec, dtypes, operands: &VEC_UN, doc }
}

pub static ISA: &[InstrDef] = &[
    InstrDef {
        mnemonic: "dma.load",
        opcode: 0x01,
        queue: Queue::Load,
        dtypes: &[I8, F32],
        operands: &[
            row("dst", Spad, u(0, 0, 32), "first scratchpad row written"),
            dram("src", "DRAM source: an argument and a byte offset"),
            DMA_SHAPE[0], DMA_SHAPE[1], DMA_SHAPE[2], DMA_SHAPE[3], DMA_SHAPE[4], DMA_SHAPE[5], DMA_SHAPE[6],
            int("pad_value", s(6, 0, 8), Some(0), "what the padding rows and lanes hold (int8: the input's zero point, which means 0.0; f32: 0 only)"),
        ],
        doc: "2-D strided copy DRAM → scratchpad with padding (zeros, or `pad_value`) on the way in.",
    },
    InstrDef {
        mnemonic: "dma.loadacc",
        opcode: 0x02,
        queue: Queue::Load,
        dtypes: &[I32, F32],
        operands: &[
            row("dst", Acc, u(0, 0, 32), "first accumulator row written"),
            dram("src", "DRAM source"),
            DMA_SHAPE[0], DMA_SHAPE[1], DMA_SHAPE[2], DMA_SHAPE[3], DMA_SHAPE[4], DMA_SHAPE[5], DMA_SHAPE[6],
        ],
        doc: "2-D strided copy DRAM → accumulator (biases, residuals).",
    },
    InstrDef {
        mnemonic: "dma.store",
        opcode: 0x03,
        queue: Queue::Store,
        dtypes: &[I8, F32],
        operands: &[
            dram("dst", "DRAM destination"),
            row("src", Spad, u(0, 0, 32), "first scratchpad row read"),
            DMA_SHAPE[0], DMA_SHAPE[1], DMA_SHAPE[2],
        ],
        doc: "2-D strided copy scratchpad → DRAM.",
    },
    InstrDef {
        mnemonic: "dma.storeacc",
        opcode: 0x04,
        queue: Queue::Store,
        dtypes: &[I32, F32],
        operands: &[
            dram("dst", "DRAM destination"),
            row("src", Acc, u(0, 0, 32), "first accumulator row read"),
            DMA_SHAPE[0], DMA_SHAPE[1], DMA_SHAPE[2],
        ],
        doc: "2-D strided copy accumulator → DRAM.",
    },
    InstrDef {
        mnemonic: "mx.preload",
        opcode: 0x10,
        queue: Queue::Exec,
        dtypes: &[I8, F32],
        operands: &[
            row("src", Spad, u(0, 0, 32), "first scratchpad row of the weight tile (k rows, or n with transpose)"),
            int("k", u(3, 0, 16), None, "weight rows (reduction size), at most array.rows"),
            int("n", u(3, 16, 16), None, "weight columns (outputs), at most array.cols"),
            flag("transpose", 0, "the tile is stored transposed: n rows of k lanes (a computed Bᵀ, as attention's K)"),
        ],
        doc: "Loads a k×n weight tile into the array (weight-stationary): k scratchpad rows of n lanes, or with `transpose` n rows of k lanes (the array's loader swaps them, one row per cycle either way).",
    },
    InstrDef {
        mnemonic: "mx.mul",
        opcode: 0x11,
        queue: Queue::Exec,
        dtypes: &[I8, F32],
        operands: &[
            row("dst", Acc, u(0, 0, 32), "first accumulator row written"),
            row("src", Spad, u(1, 0, 32), "first scratchpad input row (k lanes used)"),
            int("rows", u(2, 0, 32), None, "input rows per pass"),
            int("k", u(3, 0, 16), None, "reduction size; must match the preloaded tile"),
            int("n", u(3, 16, 16), None, "outputs; must match the preloaded tile"),
            REPLAY[0], REPLAY[1], REPLAY[2], REPLAY[3],
        ],
        doc: "dst[i][0..n] (+)= Σk src[i][k]·W[k][n] for each row i; int8×int8→i32 (wrapping) or f32.",
    },
    vec_bin("v.add", 0x20, "Elementwise a + b (i32 wraps)."),
    vec_bin("v.sub", 0x21, "Elementwise a − b (i32 wraps)."),
    vec_bin("v.mul", 0x22, "Elementwise a · b (i32 wraps)."),
    vec_bin("v.max", 0x23, "Elementwise max(a, b); f32 NaN if either is NaN (IEEE 754-2019 maximum, as ONNX Max)."),
    vec_bin("v.min", 0x24, "Elementwise min(a, b); f32 NaN if either is NaN (IEEE 754-2019 minimum, as ONNX Min)."),
    vec_un("v.relu", 0x28, &[I32, F32], "max(x, 0); f32 NaN stays NaN (as ONNX Relu)."),
    vec_un("v.relu6", 0x29, &[F32], "min(max(x, 0), 6)."),
    vec_un("v.sigmoid", 0x2A, &[F32], "1 / (1 + e^−x), computed in f32."),
    vec_un("v.tanh", 0x2B, &[F32], "tanh(x), computed in f32."),
    vec_un("v.exp", 0x25, &[F32], "e^x, computed in f32 (Softmax)."),
    vec_un("v.rsqrt", 0x26, &[F32], "1 / √x, computed in f32 (LayerNorm); NaN below zero, +inf at zero."),
    vec_un("v.recip", 0x27, &[F32], "1 / x, computed in f32 (a divisor, Softmax's sum)."),
    vec_un("v.erf", 0x2F, &[F32], "erf(x), within 1 ulp of f32 (GELU)."),
    InstrDef {
        mnemonic: "v.shl",
        opcode: 0x2C,
        queue: Queue::Exec,
        dtypes: &[I32],
        operands: &[
            row("dst", Acc, u(0, 0, 32), "destination row"),
            row("src", Acc, u(1, 0, 32), "source row"),
            int("rows", u(3, 0, 32), None, "rows"),
            int("amount", u(4, 0, 8), None, "bits, 0..31"),
        ],
        doc: "x << amount (wrapping).",
    },
    InstrDef {
        mnemonic: "v.shr",
        opcode: 0x2D,
        queue: Queue::Exec,
        dtypes: &[I32],
        operands: &[
            row("dst", Acc, u(0, 0, 32), "destination row"),
            row("src", Acc, u(1, 0, 32), "source row"),
            int("rows", u(3, 0, 32), None, "rows"),
            int("amount", u(4, 0, 8), None, "bits, 0..31"),
            flag("round", 0, "round to nearest (ties up): (x + 2^(amount−1)) >> amount"),
        ],
        doc: "Arithmetic x >> amount.",
    },
    InstrDef {
        mnemonic: "v.clamp",
        opcode: 0x2E,
        queue: Queue::Exec,
        dtypes: &[I32, F32],
        operands: &[
            row("dst", Acc, u(0, 0, 32), "destination row"),
            row("src", Acc, u(1, 0, 32), "source row"),
            int("rows", u(3, 0, 32), None, "rows"),
            imm("min", s(4, 0, 32), None, "lower bound"),
            imm("max", s(5, 0, 32), None, "upper bound"),
            BIAS,
        ],
        doc: "min(max(x, min), max).",
    },
    InstrDef {
        mnemonic: "v.poolmax",
        opcode: 0x30,
        queue: Queue::Exec,
        dtypes: &[I32, F32],
        operands: &[
            row("dst", Acc, u(0, 0, 32), "first output row"),
            row("src", Acc, u(1, 0, 32), "first input row"),
            int("rows", u(3, 0, 32), None, "output rows"),
            int("window", u(4, 0, 16), None, "input rows per output row"),
            int("stride", u(4, 16, 16), Some(0), "input rows between windows (0: the window size)"),
        ],
        doc: "dst[i] = max over j < window of src[i·stride + j], elementwise; f32 NaN if any is NaN.",
    },
    InstrDef {
        mnemonic: "v.poolavg",
        opcode: 0x31,
        queue: Queue::Exec,
        dtypes: &[I32, F32],
        operands: &[
            row("dst", Acc, u(0, 0, 32), "first output row"),
            row("src", Acc, u(1, 0, 32), "first input row"),
            int("rows", u(3, 0, 32), None, "output rows"),
            int("window", u(4, 0, 16), None, "input rows per output row"),
            int("stride", u(4, 16, 16), Some(0), "input rows between windows (0: the window size)"),
        ],
        doc: "Mean over the window; i32 rounds to nearest, ties away from zero.",
    },
    lane_reduce("v.hsum", 0x32, "Σ of the row's first `lanes` lanes, written to every lane of the row (one sum per row: a dot product's, a mean's)."),
    lane_reduce("v.hmax", 0x33, "max of the row's first `lanes` lanes, written to every lane of the row; NaN if any is NaN (Softmax's shift)."),
    InstrDef {
        mnemonic: "v.requant",
        opcode: 0x38,
        queue: Queue::Exec,
        dtypes: &[I8],
        operands: &[
            row("dst", Spad, u(0, 0, 32), "first scratchpad row written (int8)"),
            row("src", Acc, u(1, 0, 32), "first accumulator row read (i32)"),
            int("rows", u(3, 0, 32), None, "rows"),
            int("mult", u(4, 0, 32), None, "Q31 multiplier, or with per_channel the accumulator row holding one per lane"),
            int("shift", u(5, 0, 16), None, "right shift 0..62, or with per_channel the accumulator row holding one per lane"),
            int("zp", s(5, 16, 16), Some(0), "output zero point"),
            int("min", s(6, 0, 16), Some(-128), "lower clamp (after the zero point)"),
            int("max", s(6, 16, 16), Some(127), "upper clamp"),
            flag("per_channel", 0, "mult and shift name accumulator rows of per-lane values"),
            BIAS,
        ],
        doc: "int8 = clamp(round((acc·mult) >> (31 + shift)) + zp): i64 product, round half up (acc + bias where a bias row is given).",
    },
    InstrDef {
        mnemonic: "v.move",
        opcode: 0x39,
        queue: Queue::Exec,
        dtypes: &[I32, F32],
        operands: &[
            row("dst", Spad, u(0, 0, 32), "first scratchpad row written"),
            row("src", Acc, u(1, 0, 32), "first accumulator row read"),
            int("rows", u(3, 0, 32), None, "rows"),
        ],
        doc: "Copies accumulator rows to the scratchpad unchanged (f32 chains).",
    },
    InstrDef {
        mnemonic: "v.mac",
        opcode: 0x3A,
        queue: Queue::Exec,
        dtypes: &[I8, F32],
        operands: &[
            row("dst", Acc, u(0, 0, 32), "first accumulator row written"),
            row("src", Spad, u(1, 0, 32), "first scratchpad input row"),
            row("w", Acc, u(2, 0, 32), "the accumulator row of per-lane weights (int8: i32 lanes)"),
            int("rows", u(3, 0, 32), None, "rows per pass"),
            REPLAY[0], REPLAY[1], REPLAY[2], REPLAY[3],
        ],
        doc: "dst[i][l] (+)= src[i][l]·w[l] for each row i and lane l: one tap of a depthwise convolution, one row a cycle in either type; int8 (sign-extended) × i32 → i32 (wrapping), or f32. Needs `vector.mac` (npu16 revision 3).",
    },
    InstrDef {
        mnemonic: "v.lut",
        opcode: 0x3B,
        queue: Queue::Exec,
        dtypes: &[I8],
        operands: &[
            row("dst", Spad, u(0, 0, 32), "first scratchpad row written (int8)"),
            row("src", Spad, u(1, 0, 32), "first scratchpad row read (int8)"),
            row("table", Acc, u(2, 0, 32), "first of the accumulator rows holding the 256 entries (entry e at row e / lanes, lane e % lanes)"),
            int("rows", u(3, 0, 32), None, "rows"),
        ],
        doc: "dst[i][l] = table[src[i][l] + 128]: any int8 function of one int8 value (a Sigmoid, HardSwish or Tanh between a DequantizeLinear and a QuantizeLinear) in one instruction, a row a cycle; entries must lie in -128..127. Needs `vector.lut` (npu16 revision 3).",
    },
    InstrDef {
        mnemonic: "sem.signal",
        opcode: 0x40,
        queue: Queue::Ctrl,
        dtypes: &[],
        operands: &[
            Operand { name: "queue", kind: Kind::QueueName, loc: u(0, 0, 8), default: None, doc: "the queue that executes the signal" },
            Operand { name: "sem", kind: Kind::Sem, loc: u(1, 0, 8), default: None, doc: "semaphore s0..s15" },
        ],
        doc: "Increments the semaphore when every earlier instruction of the queue has finished.",
    },
    InstrDef {
        mnemonic: "sem.wait",
        opcode: 0x41,
        queue: Queue::Ctrl,
        dtypes: &[],
        operands: &[
            Operand { name: "queue", kind: Kind::QueueName, loc: u(0, 0, 8), default: None, doc: "the queue that waits" },
            Operand { name: "sem", kind: Kind::Sem, loc: u(1, 0, 8), default: None, doc: "semaphore s0..s15" },
        ],
        doc: "Blocks the queue until the semaphore is positive, then decrements it.",
    },
    InstrDef { mnemonic: "fence", opcode: 0x50, queue: Queue::Ctrl, dtypes: &[], operands: &[], doc: "Fetch waits until every queue is empty and idle." },
    InstrDef { mnemonic: "halt", opcode: 0x51, queue: Queue::Ctrl, dtypes: &[], operands: &[], doc: "Ends the program once every queue has drained." },
];

/// Semaphores s0..s15.
pub const NUM_SEMS: u8 = 16;

/// The DMA address `%spad+OFFSET` (argument number 255, a name no argument may
/// take): the scratchpad itself as a flat array of lanes, row after row, so a
/// tensor kept on chip between layers is read and written as a DRAM one is.
/// The offset and stride count bytes of the instruction's element type, as in
/// DRAM (lane = byte offset / element size). Needs `scratchpad.dma`.
pub const SPAD_ARG: u8 = 255;
pub const SPAD_ARG_NAME: &str = "spad";

pub fn by_mnemonic(m: &str) -> Option<&'static InstrDef> {
    ISA.iter().find(|d| d.mnemonic == m)
}

pub fn by_opcode(op: u8) -> Option<&'static InstrDef> {
    // Indexed once: decoding a program looks up every instruction's opcode.
    static BY_OPCODE: std::sync::OnceLock<[Option<&'static InstrDef>; 256]> = std::sync::OnceLock::new();
    BY_OPCODE.get_or_init(|| {
        let mut t = [None; 256];
        for d in ISA.iter() {
            t[d.opcode as usize].get_or_insert(d);
        }
        t
    })[op as usize]
}

/// One instruction: its definition, element type and operand values (in
/// operand order; a DRAM operand has its offset in `extra`).
#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    pub def: &'static InstrDef,
    pub dtype: Option<Dtype>,
    pub values: Vec<i64>,
    pub extra: Vec<i64>,
}

impl Instr {
    /// The value of operand `name` (the argument index for a DRAM operand).
    pub fn get(&self, name: &str) -> i64 {
        self.def.operands.iter().position(|o| o.name == name).map(|i| self.values[i]).unwrap_or(0)
    }
    /// The byte offset of DRAM operand `name`.
    pub fn offset(&self, name: &str) -> i64 {
        self.def.operands.iter().position(|o| o.name == name).map(|i| self.extra[i]).unwrap_or(0)
    }
    /// The queue that runs it (semaphore instructions name theirs).
    pub fn queue(&self) -> Queue {
        if self.def.queue == Queue::Ctrl && self.def.mnemonic.starts_with("sem.") {
            return Queue::UNITS[self.get("queue").clamp(0, 2) as usize];
        }
        self.def.queue
    }
}

fn fits(v: i64, l: &Loc) -> bool {
    if l.bits >= 64 {
        return true;
    }
    if l.signed {
        let half = 1i64 << (l.bits - 1);
        v >= -half && v < half
    } else {
        v >= 0 && v < (1i64 << l.bits)
    }
}

/// An instruction from its operand values in table order (`None`: not given,
/// the operand's default applies), checked as the assembler checks it: every
/// required operand given, every value in its field, memory rows non-negative.
/// The assembler and the compiler's direct encoder both end here.
pub fn instr(def: &'static InstrDef, dtype: Option<Dtype>, values: &[Option<i64>], extra: Vec<i64>) -> Result<Instr, String> {
    let mut out = Vec::with_capacity(def.operands.len());
    for (k, spec) in def.operands.iter().enumerate() {
        match values.get(k).copied().flatten().or(spec.default) {
            Some(v) => out.push(v),
            None => return Err(format!("'{}' needs operand '{}' ({})", def.mnemonic, spec.name, spec.doc)),
        }
    }
    let i = Instr { def, dtype, values: out, extra };
    check_ranges(&i).map_err(|m| format!("{}: {}", def.mnemonic, m))?;
    if i.values.iter().zip(def.operands).any(|(v, o)| matches!(o.kind, Kind::Row(_)) && *v < 0) {
        return Err("memory rows are non-negative".into());
    }
    Ok(i)
}

/// Whether `dtype` is what `def` takes: a type when its table lists some, one of them, none otherwise.
pub fn check_dtype(def: &InstrDef, dtype: Option<Dtype>) -> Result<(), String> {
    match (def.dtypes.is_empty(), dtype) {
        (false, None) => {
            let names: Vec<_> = def.dtypes.iter().map(|d| format!("{}.{}", def.mnemonic, d.name())).collect();
            Err(format!("'{}' needs an element type: {}", def.mnemonic, names.join(", ")))
        }
        (true, Some(_)) => Err(format!("'{}' takes no element type", def.mnemonic)),
        (false, Some(t)) if !def.dtypes.contains(&t) => {
            let names: Vec<_> = def.dtypes.iter().map(|d| d.name()).collect();
            Err(format!("'{}' does not take {} (it takes {})", def.mnemonic, t.name(), names.join(", ")))
        }
        _ => Ok(()),
    }
}

/// An f32 immediate's slot value: its bits, sign-extended into the signed slot.
pub fn f32_imm(x: f32) -> i64 {
    x.to_bits() as i32 as i64
}

/// Checks that every value fits its field; the message names the operand.
pub fn check_ranges(i: &Instr) -> Result<(), String> {
    for (k, o) in i.def.operands.iter().enumerate() {
        let v = i.values[k];
        if !fits(v, &o.loc) {
            return Err(format!("operand '{}' = {} does not fit in {} {} bits", o.name, v, if o.loc.signed { "signed" } else { "unsigned" }, o.loc.bits));
        }
        if let Kind::Dram { extra } = o.kind {
            if !fits(i.extra[k], &extra) {
                return Err(format!("offset of '{}' = {} does not fit in {} bits", o.name, i.extra[k], extra.bits));
            }
        }
    }
    Ok(())
}

fn put(words: &mut [u64; 4], flags: &mut u8, l: &Loc, v: i64, is_flag: bool) {
    if is_flag {
        *flags |= ((v & 1) as u8) << l.lo;
        return;
    }
    let mask: u64 = if l.bits >= 32 { 0xFFFF_FFFF } else { (1u64 << l.bits) - 1 };
    let bits = (v as u64) & mask;
    let (w, half) = if l.slot == 0 { (0usize, 1u32) } else { (((l.slot - 1) / 2 + 1) as usize, ((l.slot - 1) % 2) as u32) };
    let shift = half * 32 + l.lo as u32;
    words[w] |= bits << shift;
}

fn take(words: &[u64; 4], flags: u8, l: &Loc, is_flag: bool) -> i64 {
    if is_flag {
        return ((flags >> l.lo) & 1) as i64;
    }
    let (w, half) = if l.slot == 0 { (0usize, 1u32) } else { (((l.slot - 1) / 2 + 1) as usize, ((l.slot - 1) % 2) as u32) };
    let shift = half * 32 + l.lo as u32;
    let mask: u64 = if l.bits >= 32 { 0xFFFF_FFFF } else { (1u64 << l.bits) - 1 };
    let raw = (words[w] >> shift) & mask;
    if l.signed && l.bits < 64 && raw >> (l.bits - 1) & 1 == 1 {
        (raw as i64) - (1i64 << l.bits)
    } else {
        raw as i64
    }
}

/// Packs an instruction into its four words.
pub fn encode(i: &Instr) -> [u64; 4] {
    let mut w = [0u64; 4];
    let mut flags: u8 = i.dtype.map(|d| d.code() << 6).unwrap_or(0);
    for (k, o) in i.def.operands.iter().enumerate() {
        put(&mut w, &mut flags, &o.loc, i.values[k], matches!(o.kind, Kind::Flag));
        if let Kind::Dram { extra } = o.kind {
            put(&mut w, &mut flags, &extra, i.extra[k], false);
        }
    }
    w[0] |= i.def.opcode as u64 | (flags as u64) << 8;
    w
}

/// Unpacks four words; `Err` names what is wrong.
pub fn decode(w: &[u64; 4]) -> Result<Instr, String> {
    let opcode = (w[0] & 0xFF) as u8;
    let def = by_opcode(opcode).ok_or_else(|| format!("unknown opcode 0x{:02X}", opcode))?;
    let flags = ((w[0] >> 8) & 0xFF) as u8;
    let dtype = if def.dtypes.is_empty() {
        None
    } else {
        let d = Dtype::from_code(flags >> 6).ok_or_else(|| format!("{}: bad element type code {}", def.mnemonic, flags >> 6))?;
        if !def.dtypes.contains(&d) {
            return Err(format!("{}: element type {} is not allowed", def.mnemonic, d.name()));
        }
        Some(d)
    };
    let mut values = Vec::with_capacity(def.operands.len());
    let mut extra = Vec::with_capacity(def.operands.len());
    for o in def.operands {
        values.push(take(w, flags, &o.loc, matches!(o.kind, Kind::Flag)));
        extra.push(match o.kind {
            Kind::Dram { extra } => take(w, flags, &extra, false),
            _ => 0,
        });
    }
    let i = Instr { def, dtype, values, extra };
    if matches!(def.mnemonic, "sem.signal" | "sem.wait") && (i.get("queue") > 2 || i.get("sem") >= NUM_SEMS as i64) {
        return Err(format!("{}: queue or semaphore out of range", def.mnemonic));
    }
    Ok(i)
}

/// The ISA reference (docs/npu-isa.md), generated from the table.
pub fn markdown() -> String {
    use std::fmt::Write;
    let mut s = String::from(
        "# NPU instruction set\n\nGenerated from `targets/npu-isa/src/isa.rs` by `npu-sim doc`; a test fails when this file is stale.\n\n\
         Every instruction is four little-endian 64-bit words: word 0 holds the opcode (bits 0–7), the flags byte (bits 8–15: \
         flag operands in bits 0–5, the element type in bits 6–7: 0 i8, 1 i32, 2 f32) and slot 0 (bits 32–63); words 1–3 hold \
         slots 1–6, two 32-bit slots each. An operand lives in bits `lo..lo+bits` of a slot.\n\n\
         Memories: the scratchpad and the accumulator are arrays of rows of `array.cols` 32-bit lanes (int8 values are \
         sign-extended in their lane); DRAM holds the program's arguments, addressed as `%arg+byte_offset`. Where the \
         target has `scratchpad.dma` (npu16 revision 3), a DMA's DRAM side may be `%spad+byte_offset` instead: the \
         scratchpad itself as one flat array of lanes, row after row, lane = byte offset / element size (a tensor kept \
         on chip between layers, addressed as in DRAM).\n\n",
    );
    for d in ISA {
        let types: Vec<_> = d.dtypes.iter().map(|t| t.name()).collect();
        let _ = writeln!(s, "## `{}`{}\n", d.mnemonic, if types.is_empty() { String::new() } else { format!(".{{{}}}", types.join(",")) });
        let _ = writeln!(s, "{}\n\nQueue: {}. Opcode: 0x{:02X}.\n", d.doc, d.queue.name(), d.opcode);
        if d.operands.is_empty() {
            continue;
        }
        let _ = writeln!(s, "| operand | written | slot.bits | default | meaning |\n|---|---|---|---|---|");
        for o in d.operands {
            let written = match o.kind {
                Kind::Row(MemKind::Spad) => "`spad[ROW]`".to_string(),
                Kind::Row(_) => "`acc[ROW]`".to_string(),
                Kind::Dram { .. } => "`%arg+OFFSET`".to_string(),
                Kind::QueueName => "`load`/`exec`/`store`".to_string(),
                Kind::Sem => "`s0`..`s15`".to_string(),
                Kind::Int | Kind::Imm => format!("`{}=N`", o.name),
                Kind::Flag => format!("`{}` (flag)", o.name),
            };
            let bits = match o.kind {
                Kind::Flag => format!("flags.{}", o.loc.lo),
                Kind::Dram { extra } => format!("{}.{}+{} / {}.{}+{}", o.loc.slot, o.loc.lo, o.loc.bits, extra.slot, extra.lo, extra.bits),
                _ => format!("{}.{}+{}{}", o.loc.slot, o.loc.lo, o.loc.bits, if o.loc.signed { " signed" } else { "" }),
            };
            let def = o.default.map(|v| v.to_string()).unwrap_or_else(|| "required".into());
            let _ = writeln!(s, "| {} | {} | {} | {} | {} |", o.name, written, bits, def, o.doc);
        }
        s.push('\n');
    }
    s
}
