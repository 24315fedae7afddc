//! Schedule-level IR ⇄ instructions: [`Inst`] is what the scheduler emits,
//! [`build`] materializes instructions as ops, and [`print_program`] walks a
//! program function to NPU assembly (`npu-translate --emit=npu-asm`).

use crate::schedule::{lookup, InstDef, Slot, INSTS};
use ir::attributes::{AttrData, Attribute};
use ir::{Body, Context, InsertPoint, Location, OpId, OperationState};
use std::fmt::Write;

/// An operand value of an instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Int(i64),
    Float(f32),
    /// A program argument and a byte offset.
    Dram(String, i64),
    Flag,
    Queue(&'static str),
}

/// One instruction, or a `.layer` marker (`mnemonic` "layer", `layer` set).
#[derive(Clone, Debug)]
pub struct Inst {
    pub mnemonic: &'static str,
    pub dtype: Option<&'static str>,
    pub operands: Vec<(&'static str, Operand)>,
    pub layer: Option<String>,
}

impl Inst {
    pub fn new(mnemonic: &'static str, dtype: Option<&'static str>) -> Inst {
        Inst { mnemonic, dtype, operands: vec![], layer: None }
    }
    pub fn layer(name: &str) -> Inst {
        Inst { mnemonic: "layer", dtype: None, operands: vec![], layer: Some(name.to_string()) }
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

/// Appends the instructions as schedule-level ops at `at`.
pub fn build(ctx: &Context, body: &mut Body, at: InsertPoint, insts: &[Inst], loc: &Location) -> Result<(), String> {
    let i64t = ctx.i64();
    let mut at = at;
    for inst in insts {
        let name = if inst.mnemonic == "layer" { "npu.layer".to_string() } else { format!("npu.{}", inst.mnemonic) };
        let mut st = OperationState::new(ctx.op_name(&name), loc.clone());
        if let Some(l) = &inst.layer {
            st = st.property(ctx.ident("name"), Attribute::string(l));
        }
        if let Some(t) = inst.dtype {
            st = st.property(ctx.ident("dtype"), Attribute::string(t));
        }
        for (n, v) in &inst.operands {
            match v {
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

fn operand_text(def: &InstDef, body: &Body, op: OpId, field: &str, slot: Slot) -> Option<String> {
    let a = body.op(op).attr(field);
    let int = |a: Option<&Attribute>| a.and_then(|a| a.as_int());
    Some(match slot {
        Slot::Spad => format!("spad[{}]", int(a)?),
        Slot::Acc => format!("acc[{}]", int(a)?),
        Slot::Dram => format!("%{}+{}", a?.as_str()?, int(body.op(op).attr(&format!("{}_offset", field)))?),
        Slot::Int | Slot::OptInt => {
            let v = int(a)?;
            if slot == Slot::OptInt && v == 0 && !(def.mnemonic == "v.requant" && (field == "min" || field == "max")) {
                return None;
            }
            format!("{}={}", field, v)
        }
        Slot::Num => match a?.data() {
            AttrData::Float { .. } => format!("{}=0x{:08X}", field, (a?.as_float()? as f32).to_bits()),
            _ => format!("{}={}", field, int(a)?),
        },
        Slot::Flag => {
            a?;
            field.to_string()
        }
        Slot::Queue => a?.as_str()?.to_string(),
        Slot::Sem => format!("s{}", int(a)?),
    })
}

/// NPU assembly of a program function (`npu.program`, schedule-level ops).
pub fn print_program(body: &Body, func: OpId) -> Result<String, String> {
    let o = body.op(func);
    let hw = crate::hw::HwDesc::of(body, func).transpose()?.unwrap_or_else(crate::hw::HwDesc::npu16);
    let args = args_from_attr(o.attr("npu.args").ok_or("the program has no npu.args")?)?;
    let mut s = String::new();
    let name = o.attr("sym_name").and_then(|a| a.as_str()).unwrap_or("program");
    let _ = writeln!(s, "; {}", name);
    let _ = writeln!(s, ".target \"{}\"", hw.name);
    for a in &args {
        let dims: Vec<String> = a.shape.iter().map(|d| d.to_string()).collect();
        let _ = writeln!(s, ".arg %{} {} {} [{}]", a.name, a.dir, a.dtype, dims.join(", "));
    }
    let entry = body.region_blocks(o.regions().first().copied().ok_or("the program has no body")?).first().copied().ok_or("the program has no body")?;
    for op in body.block_ops(entry) {
        let n = body.name(op);
        let n = n.as_str();
        if n == "npu.layer" {
            let l = body.op(op).attr("name").and_then(|a| a.as_str()).unwrap_or("");
            let _ = writeln!(s, ".layer \"{}\"", l.replace('"', "'"));
            continue;
        }
        if n == "func.return" {
            continue;
        }
        let def = lookup(n).ok_or_else(|| format!("'{}' is not a schedule-level npu op", n))?;
        let mut line = format!("  {}", def.mnemonic);
        if let Some(t) = body.op(op).attr("dtype").and_then(|a| a.as_str()) {
            line.push('.');
            line.push_str(t);
        }
        let parts: Vec<String> = def.operands.iter().filter_map(|(f, slot)| operand_text(def, body, op, f, *slot)).collect();
        if !parts.is_empty() {
            line.push(' ');
            line.push_str(&parts.join(", "));
        }
        let _ = writeln!(s, "{}", line);
    }
    Ok(s)
}

/// Every mnemonic the compiler can emit (for docs and tests).
pub fn mnemonics() -> impl Iterator<Item = &'static str> {
    INSTS.iter().map(|d| d.mnemonic)
}
