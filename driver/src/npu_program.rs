//! A scheduled npu16 program function as the simulator's program.

use ir::{Body, OpId};

/// A program function (`npu.program`, schedule-level ops) as an
/// instruction-set program, encoded straight from its ops
/// (`npu::asm::encode_program`) with the checks the assembler and the binary
/// reader make; its text is its disassembly.
pub fn encode_program(body: &Body, f: OpId) -> Result<npu_sim::Program, String> {
    use npu_sim::program::{ArgDecl, ArgDir};
    let e = npu::asm::encode_program(body, f)?;
    let args = e
        .args
        .iter()
        .map(|a| {
            let dir = ArgDir::from_name(&a.dir).ok_or_else(|| format!("argument '%{}': '{}' is not in, out or inout", a.name, a.dir))?;
            let dtype = npu_sim::isa::Dtype::from_name(&a.dtype).ok_or_else(|| format!("argument '%{}': '{}' is not i8, i32 or f32", a.name, a.dtype))?;
            let shape = a.shape.iter().map(|d| u64::try_from(*d).map_err(|_| format!("argument '%{}' has a negative dimension", a.name))).collect::<Result<_, _>>()?;
            Ok(ArgDecl { name: a.name.clone(), dir, dtype, shape })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut p = npu_sim::Program {
        target: e.target,
        args,
        lines: vec![],
        layers: e.layers.iter().map(|(n, at, _)| (n.clone(), *at)).collect(),
        layer_macs: e.layers.iter().map(|l| l.2).collect(),
        labels: vec![],
        instrs: e.instrs,
    };
    p.lines = npu_sim::disasm::lines(&p);
    p.check_declarations()?;
    Ok(p)
}

