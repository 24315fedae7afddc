//! What the assembler, the binary reader and the simulator owe any input, as
//! checks the fuzz targets (`fuzz/`) and the mutation tests
//! (`tools/tests/sim_robustness.rs`) share: an assembly error is at a
//! line of the text; an assembled program writes a binary that reads back
//! the same; a program (assembled or read) disassembles to text that
//! assembles to the same program; and it runs, on zeroed inputs within a
//! small budget, to a result or an error. A violation is an `Err`; a panic
//! unwinds to the caller.

use crate::program::{ArgDir, Program};
use crate::sim::{self, Limits};
use crate::{asm, binary, disasm, HwConfig};

/// The budget a checked run gets: enough for every lit program, small enough
/// for a fuzzer's pace.
pub const LIMITS: Limits = Limits { max_cycles: 2_000_000 };

/// DRAM a checked run may use; larger argument tables are refused before
/// anything is allocated (what `--set dram.size_mib` does for a user).
pub const DRAM_MIB: u32 = 64;

/// Checks assembly text; `Ok(true)` when it assembled.
pub fn check_asm(src: &str) -> Result<bool, String> {
    let p = match asm::assemble(src) {
        Ok(p) => p,
        Err(e) => {
            let lines = src.lines().count().max(1);
            return if e.line > lines + 1 { Err(format!("the error is at line {}, past the text's {} lines: {}", e.line, lines, e.message)) } else { Ok(false) };
        }
    };
    let back = binary::read(&binary::write(&p)).map_err(|e| format!("the binary of an assembled program does not read back: {}", e))?;
    if !same_program(&back, &p) {
        return Err("the binary of an assembled program reads back as another program".into());
    }
    check_program(&p)?;
    Ok(true)
}

/// Checks a binary; `Ok(true)` when it read.
pub fn check_binary(bytes: &[u8]) -> Result<bool, String> {
    match binary::read(bytes) {
        Ok(p) => check_program(&p).map(|_| true),
        Err(_) => Ok(false),
    }
}

/// The same target, arguments, instructions, layers and labels (source lines may differ).
fn same_program(a: &Program, b: &Program) -> bool {
    a.target == b.target && a.args == b.args && a.instrs == b.instrs && a.layers == b.layers && a.layer_macs == b.layer_macs && a.labels == b.labels
}

/// Disassembly round trip, then a run on zeroed inputs.
fn check_program(p: &Program) -> Result<(), String> {
    let text = disasm::disassemble(p);
    let again = asm::assemble(&text).map_err(|e| format!("the disassembly does not assemble: {}\n{}", e, text))?;
    if !same_program(&again, p) {
        return Err(format!("the disassembly does not assemble to the same program:\n{}", text));
    }
    let Some(mut cfg) = HwConfig::builtin(&p.target) else { return Ok(()) };
    cfg.dram.size_mib = cfg.dram.size_mib.min(DRAM_MIB);
    if sim::dram_layout(&cfg, p).is_err() {
        return Ok(());
    }
    let inputs: Vec<(String, Vec<u8>)> = p.args.iter().filter(|a| a.dir != ArgDir::Out).map(|a| (a.name.clone(), vec![0u8; a.bytes() as usize])).collect();
    let _ = sim::run_limited(&cfg, p, &inputs, true, LIMITS);
    Ok(())
}
