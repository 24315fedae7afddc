//! The NPU's instruction set is declared once (`npu_isa::isa::ISA`); the
//! compiler reads it through `npu::schedule::insts()` (the npu dialect's
//! instruction ops, their verifier and the assembly printer the scheduler's
//! output goes through), the machine directly (the assembler, encoder,
//! disassembler and simulator). This proves the compiler's view agrees: the
//! same mnemonics, element types, and operands in the same order with
//! matching kinds and defaults; and every instruction written as the
//! compiler's view says assembles, disassembles to the same text and encodes
//! round trip.

use npu::schedule::{insts, Slot};
use npu_sim::isa::{Kind, MemKind, ISA};

fn kind_matches(slot: Slot, kind: Kind, default: Option<i64>) -> bool {
    match (slot, kind) {
        (Slot::Spad, Kind::Row(MemKind::Spad)) | (Slot::Acc, Kind::Row(MemKind::Acc)) => default.is_none(),
        (Slot::Dram, Kind::Dram { .. }) => default.is_none(),
        (Slot::Int, Kind::Int) => default.is_none(),
        (Slot::OptInt, Kind::Int | Kind::Imm) => default.is_some(),
        (Slot::Num, Kind::Imm) => true,
        (Slot::Flag, Kind::Flag) | (Slot::Queue, Kind::QueueName) | (Slot::Sem, Kind::Sem) => true,
        _ => false,
    }
}

#[test]
fn the_compilers_and_the_simulators_isa_tables_agree() {
    let mut problems = vec![];
    for c in insts() {
        let Some(m) = ISA.iter().find(|d| d.mnemonic == c.mnemonic) else {
            problems.push(format!("{}: the compiler emits it, the simulator has no such instruction", c.mnemonic));
            continue;
        };
        let sim_dtypes: Vec<&str> = m.dtypes.iter().map(|d| d.name()).collect();
        if sim_dtypes != c.dtypes {
            problems.push(format!("{}: element types {:?} (compiler) vs {:?} (simulator)", c.mnemonic, c.dtypes, sim_dtypes));
        }
        let names_c: Vec<&str> = c.operands.iter().map(|(n, _)| *n).collect();
        let names_m: Vec<&str> = m.operands.iter().map(|o| o.name).collect();
        if names_c != names_m {
            problems.push(format!("{}: operands {:?} (compiler) vs {:?} (simulator)", c.mnemonic, names_c, names_m));
            continue;
        }
        for ((name, slot), o) in c.operands.iter().zip(m.operands) {
            if !kind_matches(*slot, o.kind, o.default) {
                problems.push(format!("{}: operand {} is {:?} for the compiler, {:?} (default {:?}) for the simulator", c.mnemonic, name, slot, o.kind, o.default));
            }
        }
    }
    for m in ISA {
        if !insts().iter().any(|c| c.mnemonic == m.mnemonic) {
            problems.push(format!("{}: the simulator runs it, the compiler's table lacks it", m.mnemonic));
        }
    }
    assert!(problems.is_empty(), "the two ISA tables disagree:\n{}", problems.join("\n"));
}

/// One line of assembly for `c` with every operand written, as the compiler's table describes it.
fn line(c: &npu::schedule::InstDef) -> String {
    let mut s = String::from(c.mnemonic);
    if let Some(d) = c.dtypes.first() {
        s.push('.');
        s.push_str(d);
    }
    let mut parts = vec![];
    for (name, slot) in c.operands {
        parts.push(match slot {
            Slot::Spad => "spad[3]".to_string(),
            Slot::Acc => "acc[5]".to_string(),
            Slot::Dram => "%in+64".to_string(),
            Slot::Int | Slot::OptInt | Slot::Num => format!("{}=2", name),
            Slot::Flag => name.to_string(),
            Slot::Queue => "exec".to_string(),
            Slot::Sem => "s1".to_string(),
        });
    }
    if !parts.is_empty() {
        s.push(' ');
        s.push_str(&parts.join(", "));
    }
    s
}

#[test]
fn every_instruction_the_compiler_can_write_assembles_and_round_trips() {
    for c in insts() {
        let src = format!(".target \"npu16\"\n.arg %in in i8 [1, 256]\n{}\nhalt\n", line(c));
        let p = npu_sim::asm::assemble(&src).unwrap_or_else(|e| panic!("{}: does not assemble: {}\n{}", c.mnemonic, e, src));
        let i = &p.instrs[0];
        assert_eq!(i.def.mnemonic, c.mnemonic);
        let back = npu_sim::isa::decode(&npu_sim::isa::encode(i)).unwrap_or_else(|e| panic!("{}: {}", c.mnemonic, e));
        assert_eq!(back.values, i.values, "{}: the encoding loses operands", c.mnemonic);
        let text = npu_sim::disasm::disassemble(&p);
        let again = npu_sim::asm::assemble(&text).unwrap_or_else(|e| panic!("{}: the disassembly does not assemble: {}\n{}", c.mnemonic, e, text));
        assert_eq!(again.instrs[0].values, i.values, "{}: disassembly round trip", c.mnemonic);
    }
}

/// The hardware description is declared twice: the compiler's default
/// (`npu::hw::HwDesc::npu16`, what `npu-opt` schedules for when a module has no
/// `npu.hw`) and the simulator's built-in `npu16` (what `npu-run` runs and
/// hands the compiler). They must describe the same machine.
#[test]
fn the_compilers_default_machine_is_the_simulators_npu16() {
    let sim = npu_sim::HwConfig::builtin("npu16").expect("a built-in npu16");
    assert_eq!(runtime::npu_path::hw_desc(&sim), npu::hw::HwDesc::npu16());
}
