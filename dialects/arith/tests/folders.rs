//! Folders, called through the op table on parsed IR: every folded constant is
//! compared with the value computed here independently.

use ir::dialect::{FoldInput, FoldResult};
use ir::{Attribute, Context};

fn ctx() -> Context {
    let c = Context::new();
    func::register(&c);
    arith::register(&c);
    c
}

/// Parses `func.func @f(args) { <ops>; return }`, folds the op producing `%r`
/// with the constants its operands are defined by, and returns the result.
fn fold(args: &str, body: &str) -> Option<FoldResult> {
    let c = ctx();
    let src = format!("func.func @f({}) {{\n{}\n  return\n}}", args, body);
    let m = ir::parser::parse_module(&c, &src, "t.mlir", 1).unwrap_or_else(|d| panic!("{}", d.message));
    ir::verifier::verify(&c, &m.body, m.module).unwrap_or_else(|e| panic!("{}", e[0].message));
    let b = &m.body;
    let f = b.entry_block(m.module).map(|blk| b.block_ops(blk).next().unwrap()).unwrap();
    let entry = b.entry_block(f).unwrap();
    let ops: Vec<_> = b.block_ops(entry).collect();
    let op = ops[ops.len() - 2];
    let constants: Vec<Option<Attribute>> = b
        .op(op)
        .operands()
        .iter()
        .map(|v| b.defining_op(*v).filter(|d| b.name(*d).as_str() == "arith.constant").and_then(|d| b.op(d).attr("value").cloned()))
        .collect();
    let def = b.name(op).def().unwrap();
    let r = (def.fold.unwrap())(&FoldInput { ctx: &c, body: b, op, constants: &constants })?;
    r.into_iter().next().map(|x| match x {
        // Report values by their position: argument index.
        FoldResult::Value(v) => FoldResult::Value(v),
        a => a,
    })
}

fn int(args: &str, body: &str) -> Option<i128> {
    match fold(args, body)? {
        FoldResult::Attr(a) => a.as_int(),
        FoldResult::Value(_) => None,
    }
}

fn float(body: &str) -> Option<f64> {
    match fold("", body)? {
        FoldResult::Attr(a) => a.as_float(),
        FoldResult::Value(_) => None,
    }
}

fn folds_to_value(args: &str, body: &str) -> bool {
    matches!(fold(args, body), Some(FoldResult::Value(_)))
}

#[test]
fn integer_arithmetic_wraps_at_the_type_width() {
    let c = "  %a = arith.constant 100 : i8\n  %b = arith.constant 100 : i8\n";
    assert_eq!(int("", &format!("{}  %r = arith.addi %a, %b : i8", c)), Some((200u8 as i8) as i128));
    assert_eq!(int("", &format!("{}  %r = arith.muli %a, %b : i8", c)), Some((10000u32 as u8 as i8) as i128));
    assert_eq!(int("", &format!("{}  %r = arith.subi %a, %b : i8", c)), Some(0));
}

#[test]
fn signed_and_unsigned_division_and_remainder() {
    let c = "  %a = arith.constant -7 : i32\n  %b = arith.constant 2 : i32\n";
    assert_eq!(int("", &format!("{}  %r = arith.divsi %a, %b : i32", c)), Some(-3));
    assert_eq!(int("", &format!("{}  %r = arith.ceildivsi %a, %b : i32", c)), Some(-3));
    assert_eq!(int("", &format!("{}  %r = arith.floordivsi %a, %b : i32", c)), Some(-4));
    assert_eq!(int("", &format!("{}  %r = arith.remsi %a, %b : i32", c)), Some(-1));
    assert_eq!(int("", &format!("{}  %r = arith.divui %a, %b : i32", c)), Some(((-7i32 as u32) / 2) as i32 as i128));
    assert_eq!(int("", &format!("{}  %r = arith.remui %a, %b : i32", c)), Some(((-7i32 as u32) % 2) as i128));
    // Division by zero and INT_MIN / -1 are undefined: not folded.
    let z = "  %a = arith.constant 5 : i32\n  %b = arith.constant 0 : i32\n";
    assert_eq!(fold("", &format!("{}  %r = arith.divsi %a, %b : i32", z)).is_none(), true);
    let m = "  %a = arith.constant -128 : i8\n  %b = arith.constant -1 : i8\n";
    assert!(fold("", &format!("{}  %r = arith.divsi %a, %b : i8", m)).is_none());
}

#[test]
fn bitwise_shifts_and_min_max() {
    let c = "  %a = arith.constant -16 : i8\n  %b = arith.constant 2 : i8\n";
    assert_eq!(int("", &format!("{}  %r = arith.shrsi %a, %b : i8", c)), Some(-4));
    assert_eq!(int("", &format!("{}  %r = arith.shrui %a, %b : i8", c)), Some(((-16i8 as u8) >> 2) as i128));
    assert_eq!(int("", &format!("{}  %r = arith.shli %a, %b : i8", c)), Some((((-16i8 as u8) << 2) as i8) as i128));
    assert_eq!(int("", &format!("{}  %r = arith.xori %a, %b : i8", c)), Some((-16i8 ^ 2) as i128));
    assert_eq!(int("", &format!("{}  %r = arith.maxsi %a, %b : i8", c)), Some(2));
    assert_eq!(int("", &format!("{}  %r = arith.maxui %a, %b : i8", c)), Some(-16));
    assert_eq!(int("", &format!("{}  %r = arith.minui %a, %b : i8", c)), Some(2));
    // Shifting by the width or more is poison: not folded.
    let s = "  %a = arith.constant 1 : i8\n  %b = arith.constant 8 : i8\n";
    assert!(fold("", &format!("{}  %r = arith.shli %a, %b : i8", s)).is_none());
}

#[test]
fn identities_return_an_operand() {
    assert!(folds_to_value("%x: i32", "  %z = arith.constant 0 : i32\n  %r = arith.addi %x, %z : i32"));
    assert!(folds_to_value("%x: i32", "  %o = arith.constant 1 : i32\n  %r = arith.muli %x, %o : i32"));
    assert!(folds_to_value("%x: i32", "  %r = arith.andi %x, %x : i32"));
    assert!(folds_to_value("%x: f32", "  %z = arith.constant -0.0 : f32\n  %r = arith.addf %x, %z : f32"));
    // x + 0.0 is not x when x is -0.0: not an identity.
    assert!(fold("%x: f32", "  %z = arith.constant 0.0 : f32\n  %r = arith.addf %x, %z : f32").is_none());
    assert_eq!(int("%x: i32", "  %r = arith.subi %x, %x : i32"), Some(0));
    assert_eq!(int("%x: i32", "  %r = arith.cmpi sle, %x, %x : i32"), Some(1));
    assert_eq!(int("%x: i32", "  %r = arith.cmpi ne, %x, %x : i32"), Some(0));
    assert!(folds_to_value("%x: i32, %y: i32", "  %c = arith.constant true\n  %r = arith.select %c, %x, %y : i32"));
}

#[test]
fn floats_compute_in_the_type_precision() {
    let r = float("  %a = arith.constant 0.1 : f32\n  %b = arith.constant 0.2 : f32\n  %r = arith.addf %a, %b : f32");
    assert_eq!(r, Some((0.1f32 + 0.2f32) as f64));
    let r = float("  %a = arith.constant 1.0 : f64\n  %b = arith.constant 3.0 : f64\n  %r = arith.divf %a, %b : f64");
    assert_eq!(r, Some(1.0 / 3.0));
    let r = float("  %a = arith.constant 2.5 : f32\n  %r = arith.negf %a : f32");
    assert_eq!(r, Some(-2.5));
    let nan = float("  %a = arith.constant 0x7FC00000 : f32\n  %b = arith.constant 1.0 : f32\n  %r = arith.maximumf %a, %b : f32");
    assert!(nan.unwrap().is_nan());
    let num = float("  %a = arith.constant 0x7FC00000 : f32\n  %b = arith.constant 1.0 : f32\n  %r = arith.maxnumf %a, %b : f32");
    assert_eq!(num, Some(1.0));
}

#[test]
fn float_comparisons_respect_nan_ordering() {
    let c = "  %a = arith.constant 0x7FC00000 : f32\n  %b = arith.constant 1.0 : f32\n";
    assert_eq!(int("", &format!("{}  %r = arith.cmpf olt, %a, %b : f32", c)), Some(0));
    assert_eq!(int("", &format!("{}  %r = arith.cmpf ult, %a, %b : f32", c)), Some(1));
    assert_eq!(int("", &format!("{}  %r = arith.cmpf uno, %a, %b : f32", c)), Some(1));
    assert_eq!(int("", &format!("{}  %r = arith.cmpf ord, %a, %b : f32", c)), Some(0));
}

#[test]
fn casts() {
    assert_eq!(int("", "  %a = arith.constant -1 : i8\n  %r = arith.extsi %a : i8 to i32"), Some(-1));
    assert_eq!(int("", "  %a = arith.constant -1 : i8\n  %r = arith.extui %a : i8 to i32"), Some(255));
    assert_eq!(int("", "  %a = arith.constant 300 : i32\n  %r = arith.trunci %a : i32 to i8"), Some(44));
    assert_eq!(int("", "  %a = arith.constant -2.7 : f32\n  %r = arith.fptosi %a : f32 to i32"), Some(-2));
    assert!(fold("", "  %a = arith.constant 1.0e10 : f32\n  %r = arith.fptosi %a : f32 to i8").is_none());
    assert_eq!(float("  %a = arith.constant -3 : i32\n  %r = arith.sitofp %a : i32 to f32"), Some(-3.0));
    assert_eq!(float("  %a = arith.constant -1 : i8\n  %r = arith.uitofp %a : i8 to f32"), Some(255.0));
    assert_eq!(int("", "  %a = arith.constant 1.0 : f32\n  %r = arith.bitcast %a : f32 to i32"), Some(1.0f32.to_bits() as i128));
    assert_eq!(float("  %a = arith.constant 0.1 : f64\n  %r = arith.truncf %a : f64 to f32"), Some(0.1f32 as f64));
}
