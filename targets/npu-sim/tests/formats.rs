//! The binary format and the hardware description: random instructions
//! round-trip through encode/decode and asm → bin → asm; corrupted binaries
//! are refused without panicking; npu16.toml is the built-in description;
//! docs/npu-isa.md is what the table generates.

use npu_sim::isa::{self, Instr, Kind, ISA};
use npu_sim::program::{ArgDecl, ArgDir, Program};
use npu_sim::{asm, binary, disasm, HwConfig};

mod common;
use common::Rng;

fn random_instr(r: &mut Rng, nargs: usize) -> Instr {
    let def = &ISA[r.below(ISA.len())];
    let dtype = (!def.dtypes.is_empty()).then(|| def.dtypes[r.below(def.dtypes.len())]);
    let mut values = vec![];
    let mut extra = vec![];
    for o in def.operands {
        let bits = o.loc.bits.min(20) as u32;
        let v = match o.kind {
            Kind::Dram { .. } => r.below(nargs) as i64,
            Kind::QueueName => r.below(3) as i64,
            Kind::Sem => r.below(isa::NUM_SEMS as usize) as i64,
            Kind::Flag => r.below(2) as i64,
            _ if o.loc.signed => r.below(1 << bits) as i64 - (1 << (bits - 1)),
            _ => r.below(1 << bits) as i64,
        };
        values.push(v);
        extra.push(if matches!(o.kind, Kind::Dram { .. }) { r.below(1 << 20) as i64 } else { 0 });
    }
    Instr { def, dtype, values, extra }
}

fn random_program(r: &mut Rng) -> Program {
    let args: Vec<ArgDecl> = (0..1 + r.below(4))
        .map(|i| ArgDecl { name: format!("a{}", i), dir: ArgDir::In, dtype: isa::Dtype::I8, shape: vec![1 + r.below(64) as u64, 1 + r.below(64) as u64] })
        .collect();
    let n = 1 + r.below(40);
    let instrs: Vec<Instr> = (0..n).map(|_| random_instr(r, args.len())).collect();
    Program {
        target: "npu16".into(),
        args,
        lines: vec![0; n],
        layers: vec![("l0".into(), 0), ("l1".into(), r.below(n) as u32)],
        layer_macs: vec![None, Some(r.below(1 << 20) as u64)],
        labels: vec![("start".into(), 0), ("mid".into(), r.below(n) as u32)],
        instrs,
    }
}

#[test]
fn random_instructions_round_trip_through_every_form() {
    let mut r = Rng(0xABCDEF);
    for _ in 0..300 {
        let p = random_program(&mut r);
        for i in &p.instrs {
            assert_eq!(&isa::decode(&isa::encode(i)).unwrap(), i, "encode/decode of {:?}", i);
        }
        let bin = binary::write(&p);
        let back = binary::read(&bin).unwrap();
        assert_eq!(back, p);
        let text = disasm::disassemble(&p);
        let again = asm::assemble(&text).unwrap_or_else(|e| panic!("{}\n{}", e, text));
        assert_eq!(disasm::disassemble(&again), text, "asm -> bin -> asm is not the identity");
        assert_eq!(again.instrs, p.instrs);
        // A program built without text numbers its lines as its disassembly would.
        assert_eq!(disasm::lines(&p), again.lines, "{}", text);
    }
}

#[test]
fn corrupted_binaries_are_refused_without_panicking() {
    let mut r = Rng(77);
    let mut refused = 0;
    for case in 0..3000 {
        let p = random_program(&mut r);
        let mut b = binary::write(&p);
        match case % 3 {
            0 => b.truncate(r.below(b.len())),
            1 => {
                for _ in 0..1 + r.below(8) {
                    let i = r.below(b.len());
                    b[i] = r.next() as u8;
                }
            }
            _ => b.extend((0..r.below(40)).map(|_| r.next() as u8)),
        }
        let res = std::panic::catch_unwind(|| binary::read(&b));
        match res {
            Err(_) => panic!("case {} panicked", case),
            Ok(Err(_)) => refused += 1,
            Ok(Ok(_)) => {}
        }
    }
    assert!(refused > 1500, "only {} of 3000 corruptions were detected", refused);
}

#[test]
fn npu16_toml_is_the_builtin_description_and_overrides_apply() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/npu16.toml")).unwrap();
    assert_eq!(HwConfig::from_toml(&text).unwrap(), HwConfig::npu16());
    let mut c = HwConfig::npu16();
    c.set("dram.bytes_per_cycle=32").unwrap();
    assert_eq!(c.dram.bytes_per_cycle, 32);
    c.set("clock_mhz=800").unwrap();
    assert_eq!(c.clock_mhz, 800.0);
    assert!(c.set("dram.speed=3").unwrap_err().contains("unknown key 'speed'"));
    assert!(c.set("array.rows=0").unwrap_err().contains("must be positive"));
    assert!(c.set("array.rows=\"x\"").is_err());
    assert!(HwConfig::from_toml("name = 3").is_err());
}

#[test]
fn isa_reference_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/npu-isa.md");
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(on_disk == isa::markdown(), "docs/npu-isa.md is stale: run `npu-sim doc > docs/npu-isa.md`");
}

/// A version 1 binary (before layers carried their MACs) still reads, its
/// layers without MACs; a version 2 one with a count past 2^63 - 1 does not.
#[test]
fn version_1_binaries_still_read() {
    let mut r = Rng(0x5eed_0001);
    let mut p = random_program(&mut r);
    p.layer_macs = vec![None, None];
    // Nor a bias operand (version 3): its slot reads as none.
    for i in &mut p.instrs {
        if let Some(b) = i.def.operands.iter().position(|o| o.name == "bias") {
            i.values[b] = -1;
        }
    }
    let v2 = binary::write(&p);
    // The MAC list (a u32 count and a u64 per layer) sits right before the instruction count.
    let n = p.instrs.len();
    let list_end = v2.len() - (4 + n * 32 + n * 4);
    let list_start = list_end - (4 + 8 * p.layers.len());
    let mut v1 = [&v2[..list_start], &v2[list_end..]].concat();
    v1[4..6].copy_from_slice(&1u16.to_le_bytes());
    assert_eq!(binary::read(&v1).unwrap(), p);
    let mut big = v2.clone();
    big[list_start + 4..list_start + 12].copy_from_slice(&(1u64 << 63).to_le_bytes());
    assert!(binary::read(&big).unwrap_err().contains("MACs exceed"));
}

/// A version 2 binary (before the `bias` operand) left its slot 0, which reads
/// as no bias, not as accumulator row 0; a version 3 one keeps a bias of 0.
#[test]
fn version_2_binaries_have_no_bias() {
    let p = asm::assemble(".target \"npu16\"\n  v.relu.f32 acc[4], acc[4], rows=1\n  v.relu.f32 acc[4], acc[4], rows=1, bias=0\n  halt\n").unwrap();
    let v3 = binary::write(&p);
    assert_eq!(binary::read(&v3).unwrap(), p);
    let n = p.instrs.len();
    let first = v3.len() - (n * 32 + n * 4);
    // Slot 2 is the high half of word 1.
    let slot2 = |k: usize| first + k * 32 + 12..first + k * 32 + 16;
    assert_eq!(&v3[slot2(0)], &(-1i32).to_le_bytes(), "no bias is written as -1");
    let mut v2 = v3.clone();
    v2[4..6].copy_from_slice(&2u16.to_le_bytes());
    v2[slot2(0)].copy_from_slice(&0u32.to_le_bytes());
    let back = binary::read(&v2).unwrap();
    assert_eq!(back.instrs[0].get("bias"), -1, "a version 2 slot of 0 is no bias");
    assert_eq!(back.instrs[0], p.instrs[0]);
    assert_eq!(binary::read(&v3).unwrap().instrs[1].get("bias"), 0);
}
