//! Schedule-level IR ⇄ instructions: [`Inst`] is what the scheduler emits,
//! [`build`] materializes instructions as ops, and [`encode_program`] walks a
//! program function to the instruction set's encoding (its text is the
//! simulator's disassembly: `npu-translate --emit=npu-asm`).

use crate::ops;
use crate::schedule::{insts, lookup, InstDef, Slot};
use ir::attributes::{AttrData, Attribute};
use ir::{Body, Context, InsertPoint, Location, OpId, OperationState};

/// An operand value of an instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Int(i64),
    Float(f32),
    /// A program argument (or [`SPAD_ARG`]) and a byte offset.
    Dram(String, i64),
    Flag,
    Queue(&'static str),
}

/// The DMA address of the scratchpad itself (`%spad+OFFSET`), where a target has it.
pub const SPAD_ARG: &str = npu_isa::isa::SPAD_ARG_NAME;

/// One instruction, or a `.layer` marker (`mnemonic` "layer", `layer` set,
/// with the buffers the layer's instructions address).
#[derive(Clone, Debug)]
pub struct Inst {
    pub mnemonic: &'static str,
    pub dtype: Option<&'static str>,
    pub operands: Vec<(&'static str, Operand)>,
    pub layer: Option<String>,
    pub buffers: Vec<Buffer>,
}

/// A buffer of a layer: rows `base..base+rows` of the scratchpad or the accumulator.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    pub name: String,
    /// `SPAD_SPACE` or `ACC_SPACE`.
    pub space: i64,
    pub base: i64,
    pub rows: i64,
    /// Element type of what it holds (`f32`, `i8`, `i32`).
    pub elem: &'static str,
}

impl Buffer {
    pub fn spad(name: &str, base: i64, rows: i64, elem: &'static str) -> Buffer {
        Buffer { name: name.into(), space: crate::schedule::SPAD_SPACE, base, rows, elem }
    }
    pub fn acc(name: &str, base: i64, rows: i64, elem: &'static str) -> Buffer {
        Buffer { name: name.into(), space: crate::schedule::ACC_SPACE, base, rows, elem }
    }
}

impl Inst {
    pub fn new(mnemonic: &'static str, dtype: Option<&'static str>) -> Inst {
        Inst { mnemonic, dtype, operands: vec![], layer: None, buffers: vec![] }
    }
    pub fn layer(name: &str) -> Inst {
        Inst { mnemonic: "layer", dtype: None, operands: vec![], layer: Some(name.to_string()), buffers: vec![] }
    }
    pub fn with(mut self, name: &'static str, v: Operand) -> Inst {
        self.operands.push((name, v));
        self
    }
    pub fn i(self, name: &'static str, v: i64) -> Inst {
        self.with(name, Operand::Int(v))
    }
    pub fn get(&self, name: &str) -> Option<&Operand> {
        self.operands.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            Some(Operand::Int(v)) => *v,
            _ => 0,
        }
    }
}

/// The buffer type `memref<ROWSxLANESxT, SPACE>`.
fn buffer_type(ctx: &Context, b: &Buffer, lanes: i64) -> ir::Type {
    let elem = match b.elem {
        "f32" => ctx.f32(),
        "i32" => ctx.int_type(32),
        _ => ctx.int_type(8),
    };
    ctx.intern_type(ir::types::TypeData::MemRef { shape: vec![b.rows, lanes], elem, layout: None, memory_space: Some(Attribute::integer(b.space as i128, ctx.i64())) })
}

/// Each memory operand of `inst` as (buffer, offset into it), if every one lies in a buffer of the layer.
fn in_buffers(inst: &Inst, bufs: &[(Buffer, ir::Value)]) -> Option<Vec<(&'static str, ir::Value, i64)>> {
    let def = insts().iter().find(|d| d.mnemonic == inst.mnemonic)?;
    let g = |f: &str| inst.int(f);
    let flag = |f: &str| inst.get(f).is_some();
    let mut out = vec![];
    for (field, slot) in def.operands {
        let space = match slot {
            Slot::Spad => crate::schedule::SPAD_SPACE,
            Slot::Acc => crate::schedule::ACC_SPACE,
            _ => continue,
        };
        let (row, n) = (inst.int(field), crate::schedule::extent(def.mnemonic, field, &g, &flag));
        let (b, v) = bufs.iter().find(|(b, _)| b.space == space && row >= b.base && row + n <= b.base + b.rows)?;
        out.push((*field, *v, row - b.base));
    }
    Some(out)
}

/// Appends the instructions as schedule-level ops at `at`: each layer's
/// buffers as `npu.alloc`s after its marker, and each instruction's memory
/// operands as (buffer, offset) when they lie in the layer's buffers.
pub fn build(ctx: &Context, body: &mut Body, at: InsertPoint, insts: &[Inst], loc: &Location, lanes: i64) -> Result<(), String> {
    let i64t = ctx.i64();
    let mut at = at;
    let mut bufs: Vec<(Buffer, ir::Value)> = vec![];
    for inst in insts {
        let name = if inst.mnemonic == "layer" { ops::LAYER.to_string() } else { format!("npu.{}", inst.mnemonic) };
        let mut st = OperationState::new(ctx.op_name(&name), loc.clone());
        let placed = if inst.mnemonic == "layer" { None } else { in_buffers(inst, &bufs) };
        if let Some(p) = &placed {
            st = st.operands(&p.iter().map(|(_, v, _)| *v).collect::<Vec<_>>());
        }
        let offset = |f: &str| placed.as_ref().and_then(|p| p.iter().find(|(n, _, _)| *n == f).map(|(_, _, o)| *o));
        if let Some(l) = &inst.layer {
            st = st.property(ctx.ident("name"), Attribute::string(l));
        }
        if let Some(t) = inst.dtype {
            st = st.property(ctx.ident("dtype"), Attribute::string(t));
        }
        for (n, v) in &inst.operands {
            let relative = offset(n).map(Operand::Int);
            match relative.as_ref().unwrap_or(v) {
                Operand::Int(x) => st = st.property(ctx.ident(n), Attribute::integer(*x as i128, i64t.clone())),
                Operand::Float(x) => st = st.property(ctx.ident(n), Attribute::float(*x as f64, ctx.f32())),
                Operand::Dram(a, off) => {
                    st = st.property(ctx.ident(n), Attribute::string(a));
                    st = st.property(ctx.ident(&format!("{}_offset", n)), Attribute::integer(*off as i128, i64t.clone()));
                }
                Operand::Flag => st = st.property(ctx.ident(n), Attribute::unit()),
                Operand::Queue(q) => st = st.property(ctx.ident(n), Attribute::string(q)),
            }
        }
        let op = body.build(st, at);
        at = InsertPoint::After(op);
        if inst.mnemonic == "layer" {
            bufs.clear();
            for b in &inst.buffers {
                let st = OperationState::new(ctx.op_name(ops::ALLOC), loc.clone())
                    .results(&[buffer_type(ctx, b, lanes)])
                    .property(ctx.ident("row"), Attribute::integer(b.base as i128, i64t.clone()))
                    .property(ctx.ident("name"), Attribute::string(&b.name));
                let a = body.build(st, at);
                at = InsertPoint::After(a);
                bufs.push((b.clone(), body.op(a).result(0)));
            }
        }
    }
    Ok(())
}


/// A DRAM argument of a program: `.arg %name dir dtype [dims]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramArg {
    pub name: String,
    /// `in`, `out` or `inout`.
    pub dir: String,
    pub dtype: String,
    pub shape: Vec<i64>,
}

pub fn args_to_attr(ctx: &Context, args: &[ProgramArg]) -> Attribute {
    let mut v = vec![];
    for a in args {
        let mut d = ir::attributes::AttrDict::new();
        d.set(ctx.ident("name"), Attribute::string(&a.name));
        d.set(ctx.ident("dir"), Attribute::string(&a.dir));
        d.set(ctx.ident("dtype"), Attribute::string(&a.dtype));
        d.set(ctx.ident("shape"), Attribute::new(AttrData::Array(a.shape.iter().map(|s| Attribute::integer(*s as i128, ctx.i64())).collect())));
        v.push(Attribute::new(AttrData::Dict(d)));
    }
    Attribute::new(AttrData::Array(v))
}

pub fn args_from_attr(a: &Attribute) -> Result<Vec<ProgramArg>, String> {
    let arr = a.as_array().ok_or("npu.args must be an array")?;
    arr.iter()
        .map(|e| {
            let d = e.as_dict().ok_or("npu.args entries must be dictionaries")?;
            let s = |k: &str| d.get(k).and_then(|v| v.as_str()).map(String::from).ok_or(format!("npu.args entry lacks '{}'", k));
            let shape = d.get("shape").and_then(|v| v.as_array()).ok_or("npu.args entry lacks 'shape'")?.iter().map(|x| x.as_int().map(|v| v as i64).ok_or("shape must be integers")).collect::<Result<_, _>>()?;
            Ok(ProgramArg { name: s("name")?, dir: s("dir")?, dtype: s("dtype")?, shape })
        })
        .collect()
}

/// An operand as the program function holds it, before it is encoded.
enum OperandValue<'a> {
    /// A number: a row (its buffer's start plus the offset), a semaphore, an integer field.
    Int(i128),
    Dram(&'a str, i128),
    Float(f32),
    Flag,
    Queue(&'a str),
}

/// Operand `field` of `op`, or `None` when absent (the ISA's default applies,
/// or the instruction lacks a required operand).
fn operand_value<'a>(def: &InstDef, body: &'a Body, op: OpId, field: &str, slot: Slot) -> Option<OperandValue<'a>> {
    let a = body.op(op).attr(field);
    let int = |a: Option<&Attribute>| a.and_then(|a| a.as_int());
    // With buffer operands, a memory operand is its buffer's start row plus the offset.
    let base = || -> Option<i128> {
        let o = body.op(op);
        if o.operands().is_empty() {
            return Some(0);
        }
        let k = def.operands.iter().filter(|(_, s)| matches!(s, Slot::Spad | Slot::Acc)).position(|(f, _)| *f == field)?;
        let alloc = body.defining_op(*o.operands().get(k)?)?;
        body.op(alloc).attr("row")?.as_int()
    };
    Some(match slot {
        Slot::Spad | Slot::Acc => OperandValue::Int(base()? + int(a)?),
        Slot::Dram => OperandValue::Dram(a?.as_str()?, int(body.op(op).attr(&format!("{}_offset", field)))?),
        Slot::Int | Slot::OptInt | Slot::Sem => OperandValue::Int(int(a)?),
        Slot::Num => match a?.data() {
            AttrData::Float { .. } => OperandValue::Float(a?.as_float()? as f32),
            _ => OperandValue::Int(int(a)?),
        },
        Slot::Flag => {
            a?;
            OperandValue::Flag
        }
        Slot::Queue => OperandValue::Queue(a?.as_str()?),
    })
}

/// A layer's name as one line of text the assembler reads back, whatever the node was named.
fn layer_name(l: &str) -> String {
    l.chars().map(|c| match c { '"' => '\'', '\\' => '/', c if c.is_control() => ' ', c => c }).collect()
}

/// A program function encoded straight to instructions, as the assembler
/// would read them (a ResNet-18 program is 113k instructions: printing them
/// and parsing the text back took half a second of a 1.5 s compile).
pub struct EncodedProgram {
    pub target: String,
    pub args: Vec<ProgramArg>,
    pub instrs: Vec<npu_isa::isa::Instr>,
    /// `.layer` markers: the name (made one line of text), the first instruction, the MACs.
    pub layers: Vec<(String, u32, Option<u64>)>,
}

/// See [`EncodedProgram`]; errors are what the assembler would have said of the text.
pub fn encode_program(body: &Body, func: OpId) -> Result<EncodedProgram, String> {
    use npu_isa::isa::{self, Dtype, Kind, Queue};
    let o = body.op(func);
    let hw = crate::hw::HwDesc::of(body, func).transpose()?.unwrap_or_else(crate::hw::HwDesc::npu16);
    let args = args_from_attr(o.attr(crate::attrs::ARGS).ok_or("the program has no npu.args")?)?;
    let entry = body.region_blocks(o.regions().first().copied().ok_or("the program has no body")?).first().copied().ok_or("the program has no body")?;
    let mut p = EncodedProgram { target: hw.name.to_string(), args, instrs: vec![], layers: vec![] };
    for op in body.block_ops(entry) {
        let n = body.name(op);
        let n = n.as_str();
        if n == ops::LAYER {
            let l = body.op(op).str_attr("name").unwrap_or("");
            let macs = body.op(op).attr("macs").and_then(|a| a.as_int()).map(|m| u64::try_from(m).map_err(|_| format!("{}: layer '{}' has {} MACs", body.op(op).loc, l, m))).transpose()?;
            p.layers.push((layer_name(l), p.instrs.len() as u32, macs));
            continue;
        }
        if n == func::ops::RETURN || n == ops::ALLOC {
            continue;
        }
        // `file:line:col: op: message`, as the verifier words its errors.
        let at = |m: String| match body.op(op).loc.file_line_col() {
            Some((f, l, c)) => format!("{}:{}:{}: {}: {}", f, l, c, n, m),
            None => format!("{}: {}: {}", body.op(op).loc, n, m),
        };
        let def = lookup(n).ok_or_else(|| at("not a schedule-level npu op (one per instruction)".into()))?;
        let idef = isa::by_mnemonic(def.mnemonic).ok_or_else(|| at(format!("'{}' is not in the instruction set", def.mnemonic)))?;
        let dtype = match body.op(op).str_attr("dtype") {
            Some(t) => Some(Dtype::from_name(t).ok_or_else(|| at(format!("unknown element type '{}'", t)))?),
            None => None,
        };
        isa::check_dtype(idef, dtype).map_err(at)?;
        let mut values = vec![None; idef.operands.len()];
        let mut extra = vec![0i64; idef.operands.len()];
        let small = |v: i128| i64::try_from(v).map_err(|_| at(format!("{} does not fit in 64 bits", v)));
        for (field, slot) in def.operands {
            let Some(v) = operand_value(def, body, op, field, *slot) else { continue };
            let k = idef.operands.iter().position(|x| x.name == *field).ok_or_else(|| at(format!("the instruction set has no operand '{}'", field)))?;
            let imm_f32 = matches!(idef.operands[k].kind, Kind::Imm) && dtype == Some(Dtype::F32);
            values[k] = Some(match v {
                OperandValue::Int(r) if !imm_f32 => small(r)?,
                // `name=5` on an f32 instruction is the number 5.0, as the assembler reads it.
                OperandValue::Int(r) => isa::f32_imm(small(r)? as f32),
                OperandValue::Float(x) if imm_f32 => isa::f32_imm(x),
                OperandValue::Float(x) => x.to_bits() as i64,
                OperandValue::Dram(arg, off) => {
                    extra[k] = small(off)?;
                    if arg == SPAD_ARG {
                        isa::SPAD_ARG as i64
                    } else {
                        p.args.iter().position(|a| a.name == arg).ok_or_else(|| at(format!("undeclared argument '%{}'", arg)))? as i64
                    }
                }
                OperandValue::Flag => 1,
                OperandValue::Queue(q) => Queue::from_name(q).ok_or_else(|| at(format!("'{}' is not a queue (load, exec or store)", q)))?.index() as i64,
            });
        }
        p.instrs.push(isa::instr(idef, dtype, &values, extra).map_err(at)?);
    }
    Ok(p)
}
