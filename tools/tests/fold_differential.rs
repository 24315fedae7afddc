//! Differential test of the arith folders against upstream MLIR: random
//! constant expressions are canonicalized by npu-opt and by mlir-opt, and the
//! constants each function returns are compared number for number.

use std::process::Command;

mod common;
use common::Rng;

/// One function returning a value computed from constants only.
fn gen_function(r: &mut Rng, i: usize) -> String {
    let ty = ["i8", "i16", "i32", "i64"][r.below(4)];
    let w: u32 = ty[1..].parse().unwrap();
    let mut s = format!("func.func @f{}() -> ({}, f32, i1) {{\n", i, ty);
    let mut ints = vec![];
    for k in 0..4 {
        let v = r.below(1 << 20) as i64 - (1 << 19);
        s.push_str(&format!("  %k{} = arith.constant {} : {}\n", k, v % (1i64 << (w - 1).min(62)), ty));
        ints.push(format!("%k{}", k));
    }
    // Shift amounts and divisors that are defined behaviour (no poison, no UB).
    s.push_str(&format!("  %sh = arith.constant {} : {}\n", r.below(w as usize), ty));
    s.push_str(&format!("  %dv = arith.constant {} : {}\n", 1 + r.below(100), ty));
    let ops = ["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui", "minui"];
    for k in 0..12 {
        let a = ints[r.below(ints.len())].clone();
        let b = ints[r.below(ints.len())].clone();
        let name = format!("%i{}", k);
        let line = match r.below(10) {
            0 => format!("  {} = arith.shli {}, %sh : {}\n", name, a, ty),
            1 => format!("  {} = arith.shrsi {}, %sh : {}\n", name, a, ty),
            2 => format!("  {} = arith.shrui {}, %sh : {}\n", name, a, ty),
            3 => format!("  {} = arith.{} {}, %dv : {}\n", name, ["divsi", "divui", "remsi", "remui", "ceildivsi", "floordivsi"][r.below(6)], a, ty),
            _ => format!("  {} = arith.{} {}, {} : {}\n", name, ops[r.below(ops.len())], a, b, ty),
        };
        s.push_str(&line);
        ints.push(name);
    }
    let last = ints.last().unwrap().clone();
    // Floats: exact f32 arithmetic on small values, a compare, and casts.
    s.push_str(&format!("  %x = arith.constant {}.{} : f32\n", r.below(200) as i64 - 100, r.below(1000)));
    s.push_str(&format!("  %y = arith.constant {}.{} : f32\n", r.below(200) as i64 - 100, r.below(1000)));
    s.push_str("  %f0 = arith.mulf %x, %y : f32\n  %f1 = arith.addf %f0, %x : f32\n  %f2 = arith.divf %f1, %y : f32\n  %f3 = arith.subf %f2, %x : f32\n");
    s.push_str(&format!("  %f4 = arith.sitofp {} : {} to f32\n  %f5 = arith.maximumf %f3, %f4 : f32\n  %f6 = arith.negf %f5 : f32\n", last, ty));
    let pred = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"][r.below(10)];
    s.push_str(&format!("  %c = arith.cmpi {}, {}, %k0 : {}\n", pred, last, ty));
    s.push_str(&format!("  return {}, %f6, %c : {}, f32, i1\n}}\n", last, ty));
    s
}

/// The returned constants of every function, as printed attribute text.
fn returned_constants(text: &str) -> Vec<(String, Vec<String>)> {
    let ctx = driver::default_context(false);
    let m = ir::parser::parse_module(&ctx, text, "out.mlir", 1).unwrap_or_else(|d| panic!("{}\n{}", d.message, text));
    let b = &m.body;
    let top = b.entry_block(m.module).unwrap();
    b.block_ops(top)
        .map(|f| {
            let name = b.op(f).properties.get("sym_name").and_then(|a| a.as_str()).unwrap().to_string();
            let ret = b.last_op(b.entry_block(f).unwrap()).unwrap();
            let vals = b
                .op(ret)
                .operands()
                .iter()
                .map(|v| match b.defining_op(*v).and_then(|d| b.op(d).properties.get("value").cloned()) {
                    Some(a) => a.to_string(),
                    None => "<not folded>".to_string(),
                })
                .collect();
            (name, vals)
        })
        .collect()
}

#[test]
fn canonicalize_folds_to_the_same_numbers_as_mlir_opt() {
    let llvm = std::env::var("LLVM_TOOLS_DIR").unwrap_or_else(|_| "/usr/lib/llvm-22/bin".into());
    let mut r = Rng(0x5EED_1234_ABCD_0001);
    let src: String = (0..300).map(|i| gen_function(&mut r, i)).collect();
    let dir = std::env::temp_dir().join(format!("fold-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.mlir");
    std::fs::write(&input, &src).unwrap();
    let run = |tool: &str| {
        let out = Command::new(tool).arg(&input).arg("--canonicalize").output().unwrap_or_else(|e| panic!("{}: {}", tool, e));
        assert!(out.status.success(), "{} failed: {}", tool, String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let ours = returned_constants(&run(env!("CARGO_BIN_EXE_npu-opt")));
    let theirs = returned_constants(&run(&format!("{}/mlir-opt", llvm)));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(ours.len(), 300);
    let mut compared = 0;
    for ((f, a), (g, b)) in ours.iter().zip(&theirs) {
        assert_eq!(f, g);
        for (x, y) in a.iter().zip(b) {
            assert_ne!(x, "<not folded>", "{}: we did not fold what mlir-opt folded to {}", f, y);
            assert_eq!(x, y, "{}: npu-opt folded to {}, mlir-opt to {}", f, x, y);
            compared += 1;
        }
    }
    assert_eq!(compared, 900);
}
