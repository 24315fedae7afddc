//! The disassembler: [`Program`] → canonical assembly (operands in table
//! order, defaults omitted). Assembling its output gives the same program.

use crate::isa::{Dtype, Instr, Kind, MemKind, Queue};
use crate::program::Program;
use std::fmt::Write;

pub fn instruction(p: &Program, i: &Instr) -> String {
    let mut s = String::from(i.def.mnemonic);
    if let Some(d) = i.dtype {
        s.push('.');
        s.push_str(d.name());
    }
    let mut parts: Vec<String> = vec![];
    for (k, o) in i.def.operands.iter().enumerate() {
        let v = i.values[k];
        match o.kind {
            Kind::Row(m) => parts.push(format!("{}[{}]", if m == MemKind::Spad { "spad" } else { "acc" }, v)),
            Kind::Dram { .. } => {
                let name = if v == crate::isa::SPAD_ARG as i64 { crate::isa::SPAD_ARG_NAME } else { p.args.get(v as usize).map(|a| a.name.as_str()).unwrap_or("?") };
                let off = i.extra[k];
                parts.push(if off == 0 { format!("%{}", name) } else { format!("%{}+{}", name, off) });
            }
            Kind::QueueName => parts.push(Queue::UNITS.get(v as usize).map(|q| q.name()).unwrap_or("?").to_string()),
            Kind::Sem => parts.push(format!("s{}", v)),
            Kind::Flag => {
                if v != 0 {
                    parts.push(o.name.to_string())
                }
            }
            Kind::Int | Kind::Imm => {
                if o.default == Some(v) {
                    continue;
                }
                if matches!(o.kind, Kind::Imm) && i.dtype == Some(Dtype::F32) {
                    let x = f32::from_bits(v as u32);
                    // Finite values print as numbers; NaN and infinities as their bits.
                    parts.push(if x.is_finite() { format!("{}={:?}", o.name, x) } else { format!("{}=0x{:08X}", o.name, v as u32) });
                } else {
                    parts.push(format!("{}={}", o.name, v));
                }
            }
        }
    }
    if !parts.is_empty() {
        s.push(' ');
        s.push_str(&parts.join(", "));
    }
    s
}

/// The line each instruction lands on in [`disassemble`]'s text (1-based),
/// for a program built without text: errors then point into that text.
pub fn lines(p: &Program) -> Vec<u32> {
    let mut line = 1 + p.args.len() as u32;
    let mut layer = 0;
    let mut out = Vec::with_capacity(p.instrs.len());
    for k in 0..p.instrs.len() {
        // Layers start in program order (`Program::check_declarations`); labels are few.
        while layer < p.layers.len() && p.layers[layer].1 as usize <= k {
            line += 1;
            layer += 1;
        }
        line += p.labels.iter().filter(|(_, at)| *at as usize == k).count() as u32 + 1;
        out.push(line);
    }
    out
}

pub fn disassemble(p: &Program) -> String {
    let mut out = String::new();
    let quoted = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, ".target \"{}\"", quoted(&p.target));
    for a in &p.args {
        let dims: Vec<String> = a.shape.iter().map(|d| d.to_string()).collect();
        let _ = writeln!(out, ".arg %{} {} {} [{}]", a.name, a.dir.name(), a.dtype.name(), dims.join(", "));
    }
    for k in 0..=p.instrs.len() {
        for (li, (name, _)) in p.layers.iter().enumerate().filter(|(_, (_, at))| *at as usize == k) {
            match p.layer_macs.get(li).copied().flatten() {
                Some(m) => writeln!(out, ".layer \"{}\" macs {}", quoted(name), m),
                None => writeln!(out, ".layer \"{}\"", quoted(name)),
            }
            .ok();
        }
        for (name, _) in p.labels.iter().filter(|(_, at)| *at as usize == k) {
            let _ = writeln!(out, "{}:", name);
        }
        if let Some(i) = p.instrs.get(k) {
            let _ = writeln!(out, "  {}", instruction(p, i));
        }
    }
    out
}
