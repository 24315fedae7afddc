//! Schedule-level ops: one per NPU instruction, in program order, inside a
//! function marked `npu.program`. Operands are attributes named as the
//! assembly's (`docs/npu-isa.md`), so translation is a walk; scratchpad and
//! accumulator operands are row numbers chosen by `npu-schedule`'s memory
//! plan, DRAM operands a program argument and a byte offset. The verifier
//! checks each against the `npu.hw` description: tiles within the array,
//! rows within the memories, lane counts, element types.

use crate::ops;
use crate::hw::HwDesc;
use ir::dialect::OpDef;

use ir::{Body, Context, OpId};

/// What one assembly operand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `spad[ROW]`.
    Spad,
    /// `acc[ROW]`.
    Acc,
    /// `%arg+OFFSET`: a string attribute (the argument) and `<name>_offset`.
    Dram,
    /// `name=N`, required.
    Int,
    /// `name=N`, default 0 (or the ISA's default) when absent.
    OptInt,
    /// `name=V`: an integer or (for f32 clamps) a float.
    Num,
    /// A bare word when present (unit attribute).
    Flag,
    /// `load` / `exec` / `store`.
    Queue,
    /// `sN`.
    Sem,
}

pub struct InstDef {
    /// The assembly mnemonic; the op is `npu.` + it.
    pub mnemonic: &'static str,
    /// Element types it takes (empty: none, as `sem.*`).
    pub dtypes: &'static [&'static str],
    pub operands: &'static [(&'static str, Slot)],
}

/// The instruction set as the compiler writes it: `npu_isa::isa::ISA` (the
/// one table the assembler and simulator read too) seen as assembly operand
/// slots. An integer operand with a default may be left out (`OptInt`); an
/// immediate without one is a number (`Num`), integer or float.
pub fn insts() -> &'static [InstDef] {
    static INSTS: std::sync::OnceLock<Vec<InstDef>> = std::sync::OnceLock::new();
    INSTS.get_or_init(|| {
        use npu_isa::isa::{Kind, MemKind};
        npu_isa::isa::ISA
            .iter()
            .map(|d| {
                let operands: Vec<(&'static str, Slot)> = d
                    .operands
                    .iter()
                    .map(|o| {
                        let slot = match (o.kind, o.default) {
                            (Kind::Row(MemKind::Spad), _) => Slot::Spad,
                            (Kind::Row(MemKind::Acc), _) => Slot::Acc,
                            (Kind::Row(MemKind::Dram), _) | (Kind::Dram { .. }, _) => Slot::Dram,
                            (Kind::Int, None) => Slot::Int,
                            (Kind::Int | Kind::Imm, Some(_)) => Slot::OptInt,
                            (Kind::Imm, None) => Slot::Num,
                            (Kind::Flag, _) => Slot::Flag,
                            (Kind::QueueName, _) => Slot::Queue,
                            (Kind::Sem, _) => Slot::Sem,
                        };
                        (o.name, slot)
                    })
                    .collect();
                let dtypes: Vec<&'static str> = d.dtypes.iter().map(|t| t.name()).collect();
                InstDef { mnemonic: d.mnemonic, dtypes: Box::leak(dtypes.into_boxed_slice()), operands: Box::leak(operands.into_boxed_slice()) }
            })
            .collect()
    })
}

use Slot::*;

/// The op name of an instruction (`npu.dma.load`).
pub fn op_name(def: &InstDef) -> String {
    format!("npu.{}", def.mnemonic)
}

pub fn lookup(op_name: &str) -> Option<&'static InstDef> {
    let m = op_name.strip_prefix("npu.")?;
    insts().iter().find(|d| d.mnemonic == m)
}

const LAYER_ATTRS: &[ir::dialect::AttrSpec] = &[ir::dialect::required("name", ir::dialect::AttrKind::String), ir::dialect::optional("macs", ir::dialect::AttrKind::Integer)];
const ALLOC_ATTRS: &[ir::dialect::AttrSpec] = &[ir::dialect::required("row", ir::dialect::AttrKind::Integer), ir::dialect::optional("name", ir::dialect::AttrKind::String)];

pub fn ops() -> Vec<OpDef> {
    let mut v: Vec<OpDef> = insts()
        .iter()
        .map(|d| OpDef {
            name: Box::leak(op_name(d).into_boxed_str()),
            summary: "One NPU instruction (see docs/npu-isa.md). Its scratchpad and accumulator operands are, in order, buffer operands (`npu.alloc`) with row offsets into them, or without operands absolute rows.",
            operands: ir::dialect::Count::Any,
            verify: Some(verify_inst),
            ..OpDef::DEFAULT
        })
        .collect();
    v.push(OpDef {
        name: ops::ALLOC,
        summary: "A buffer of `row`.. in the scratchpad (memory space 1) or the accumulator (2) for one layer; memory operands of instructions are a buffer and a row offset into it.",
        results: ir::dialect::Count::Exactly(1),
        properties: ALLOC_ATTRS,
        verify: Some(verify_alloc),
        ..OpDef::DEFAULT
    });
    v.push(OpDef {
        name: ops::LAYER,
        summary: "Starts a `.layer` of the program: the instructions after it, up to the next marker, belong to the named ONNX node(s); `macs`: the multiply-accumulates those nodes do, as the model defines them.",
        properties: LAYER_ATTRS,
        ..OpDef::DEFAULT
    });
    v
}

/// Rows a memory operand touches from its start row: `g` reads the
/// instruction's integer operands, `flag` whether a flag is set.
pub fn extent(mnemonic: &str, field: &str, g: &dyn Fn(&str) -> i64, flag: &dyn Fn(&str) -> bool) -> i64 {
    let passes = g("loop").max(1);
    let bcast = flag("bcast");
    match (mnemonic, field) {
        ("mx.preload", _) if flag("transpose") => g("n"),
        ("mx.preload", _) => g("k"),
        ("v.mac", "w") => 1,
        ("mx.mul" | "v.mac", f) => g("rows") + (passes - 1) * g(&format!("{}_stride", f)).max(0),
        ("v.poolmax" | "v.poolavg", "src") => (g("rows") - 1) * (if g("stride") == 0 { g("window") } else { g("stride") }) + g("window"),
        (m, "b") if m.starts_with("v.") && bcast => 1,
        (m, "dst") if m.starts_with("dma.") => g("rows") + g("pad_top") + g("pad_bottom"),
        _ => g("rows"),
    }
}

/// The memory space of a buffer type: 1 the scratchpad, 2 the accumulator.
pub const SPAD_SPACE: i64 = 1;
pub const ACC_SPACE: i64 = 2;

/// (rows, memory space) of a `memref<ROWSxLANESxT, SPACE>` buffer.
pub fn buffer_type(t: &ir::Type) -> Option<(i64, i64)> {
    match t.data() {
        ir::types::TypeData::MemRef { shape, memory_space: Some(ms), .. } if shape.len() == 2 => Some((shape[0], ms.as_int()? as i64)),
        _ => None,
    }
}

fn verify_alloc(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let (rows, space) = buffer_type(body.value_type(o.result(0))).ok_or("the buffer must be a memref<ROWSxLANESxT, 1|2> (1: scratchpad, 2: accumulator)")?;
    let row = int(body, op, "row").filter(|r| *r >= 0).ok_or("the buffer needs a non-negative start row")?;
    let mem = match space {
        SPAD_SPACE => "scratchpad",
        ACC_SPACE => "accumulator",
        s => return Err(format!("memory space {} is neither the scratchpad (1) nor the accumulator (2)", s)),
    };
    if let Some(hw) = HwDesc::of(body, op) {
        let hw = hw?;
        let cap = if space == SPAD_SPACE { hw.spad_rows } else { hw.acc_rows } as i64;
        if row + rows > cap {
            return Err(format!("rows {}..{} are outside the {} ({} rows)", row, row + rows, mem, cap));
        }
    }
    Ok(())
}

fn int(body: &Body, op: OpId, name: &str) -> Option<i64> {
    body.op(op).int_attr(name)
}

fn verify_inst(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let name = body.name(op);
    let def = lookup(name.as_str()).ok_or("not an instruction")?;
    let o = body.op(op);
    match (def.dtypes.is_empty(), o.str_attr("dtype")) {
        (true, None) => {}
        (true, Some(_)) => return Err(format!("'{}' takes no element type", def.mnemonic)),
        (false, Some(t)) if def.dtypes.contains(&t) => {}
        (false, t) => return Err(format!("'{}' needs dtype one of {}, got {}", def.mnemonic, def.dtypes.join(", "), t.unwrap_or("none"))),
    }
    for (field, slot) in def.operands {
        let a = o.attr(field);
        let ok = match slot {
            Spad | Acc | Int => a.and_then(|a| a.as_int()).is_some_and(|v| v >= 0 || *field == "src_stride" || *field == "dst_stride"),
            OptInt => a.is_none() || a.and_then(|a| a.as_int()).is_some(),
            Num => a.is_some_and(|a| a.as_int().is_some() || a.as_float().is_some()),
            Dram => a.and_then(|a| a.as_str()).is_some() && int(body, op, &format!("{}_offset", field)).is_some_and(|v| v >= 0),
            Flag => true,
            Queue => a.and_then(|a| a.as_str()).is_some_and(|q| ["load", "exec", "store"].contains(&q)),
            Sem => a.and_then(|a| a.as_int()).is_some_and(|s| (0..16).contains(&s)),
        };
        if !ok {
            return Err(format!("'{}' operand '{}' is missing or malformed", def.mnemonic, field));
        }
    }
    // A bias row is an accumulator row, or -1 for none (no other negative
    // means none: a typo must not drop a layer's bias silently).
    let bias = def.operands.iter().any(|(f, _)| *f == "bias").then(|| int(body, op, "bias")).flatten();
    if bias.is_some_and(|b| b < -1) {
        return Err(format!("'{}' bias={} must be an accumulator row or -1 (none)", def.mnemonic, bias.unwrap_or(0)));
    }
    verify_buffers(body, op, def)?;
    let Some(hw) = HwDesc::of(body, op) else { return Ok(()) };
    let hw = hw?;
    if let Some(b) = bias.filter(|&b| b >= 0) {
        if hw.vector_bias == 0 {
            return Err(format!("'{}' adds a bias row, which target '{}' has not (vector.bias = false: npu16 revision 3)", def.mnemonic, hw.name));
        }
        if b >= hw.acc_rows as i64 {
            return Err(format!("bias row {} is outside the accumulator ({} rows)", b, hw.acc_rows));
        }
    }
    let g = |f: &str| int(body, op, f).unwrap_or(0);
    let lanes = hw.array_cols as i64;
    if def.operands.iter().any(|(f, _)| *f == "cols") && !(1..=lanes).contains(&g("cols")) {
        return Err(format!("cols={} must be in 1..={} (the lanes of a row)", g("cols"), lanes));
    }
    if def.operands.iter().any(|(f, _)| *f == "k") {
        if !(1..=hw.array_rows as i64).contains(&g("k")) || !(1..=lanes).contains(&g("n")) {
            return Err(format!("a {}x{} weight tile does not fit the {}x{} array", g("k"), g("n"), hw.array_rows, hw.array_cols));
        }
        if o.attr("transpose").is_some() && g("k") > lanes {
            return Err(format!("a transposed tile's k={} is its lanes: at most {}", g("k"), lanes));
        }
    }
    // Rows touched by each memory operand stay within its memory.
    let flag = |f: &str| o.attr(f).is_some();
    for (field, slot) in def.operands {
        let (cap, mem) = match slot {
            Spad => (hw.spad_rows as i64, "scratchpad"),
            Acc => (hw.acc_rows as i64, "accumulator"),
            _ => continue,
        };
        let start = g(field);
        let rows = extent(def.mnemonic, field, &g, &flag);
        if o.operands().is_empty() && start + rows > cap {
            return Err(format!("{} rows {}..{} are outside the {} ({} rows)", field, start, start + rows, mem, cap));
        }
    }
    Ok(())
}

/// With buffer operands: one per memory slot, of that slot's memory, each access inside its buffer.
fn verify_buffers(body: &Body, op: OpId, def: &InstDef) -> Result<(), String> {
    let o = body.op(op);
    let slots: Vec<&(&str, Slot)> = def.operands.iter().filter(|(_, s)| matches!(s, Spad | Acc)).collect();
    if o.operands().is_empty() {
        return Ok(());
    }
    if o.operands().len() != slots.len() {
        return Err(format!("'{}' takes {} buffer operands (one per memory operand) or none, got {}", def.mnemonic, slots.len(), o.operands().len()));
    }
    let g = |f: &str| int(body, op, f).unwrap_or(0);
    let flag = |f: &str| o.attr(f).is_some();
    for ((field, slot), v) in slots.iter().zip(o.operands()) {
        let (rows, space) = buffer_type(body.value_type(*v)).ok_or_else(|| format!("'{}' operand '{}' is not a buffer", def.mnemonic, field))?;
        let want = if *slot == Spad { SPAD_SPACE } else { ACC_SPACE };
        if space != want {
            return Err(format!("'{}' operand '{}' must be {} buffer", def.mnemonic, field, if want == SPAD_SPACE { "a scratchpad" } else { "an accumulator" }));
        }
        let (start, n) = (g(field), extent(def.mnemonic, field, &g, &flag));
        if start + n > rows {
            return Err(format!("'{}' operand '{}' touches rows {}..{} of a {}-row buffer", def.mnemonic, field, start, start + n, rows));
        }
        // A replay loop that steps backwards reaches below its start row.
        let low = start + (g("loop").max(1) - 1) * g(&format!("{}_stride", field)).min(0);
        if matches!(def.mnemonic, "mx.mul" | "v.mac") && low < 0 {
            return Err(format!("'{}' operand '{}' steps back to row {}, below its buffer", def.mnemonic, field, low));
        }
    }
    Ok(())
}
