//! Property tests of the text format over generated and mutated inputs:
//! - generated modules: print(parse(x)) is a fixed point in both the custom and
//!   the generic form, and custom and generic forms parse to the same module;
//! - mutated inputs (bytes and tokens deleted, duplicated, swapped, replaced):
//!   the parser and verifier return a diagnostic or a module, never panic.

use std::panic::{catch_unwind, AssertUnwindSafe};

mod common;
use common::Rng;

const SCALARS: &[&str] = &["i1", "i8", "i32", "i64", "si16", "ui8", "index", "f16", "bf16", "f32", "f64"];

fn gen_type(r: &mut Rng, depth: u32) -> String {
    let s = r.pick(SCALARS).to_string();
    match if depth > 1 { 0 } else { r.below(9) } {
        0..=3 => s,
        4 => format!("tensor<{}x?x{}>", 1 + r.below(8), if s == "index" { "f32".into() } else { s }),
        5 => format!("memref<{}x4x{}>", 1 + r.below(4), if s == "index" { "i8".into() } else { s }),
        6 => format!("vector<{}x{}>", 1 + r.below(8), if s == "index" { "i32".into() } else { s }),
        7 => format!("tuple<{}, {}>", gen_type(r, depth + 1), gen_type(r, depth + 1)),
        _ => "!test.opaque<\"x\", [1, 2]>".to_string(),
    }
}

fn gen_attr(r: &mut Rng, depth: u32) -> String {
    match if depth > 1 { r.below(6) } else { r.below(12) } {
        0 => format!("{} : i{}", r.below(100) as i64 - 50, [8, 16, 32, 64][r.below(4)]),
        1 => format!("{}.{}e{} : f{}", r.below(10), r.below(1000), r.below(20) as i64 - 10, [32, 64][r.below(2)]),
        2 => format!("\"s{}\\n\\\"q\"", r.below(50)),
        3 => ["true", "false", "unit"][r.below(3)].to_string(),
        4 => format!("@sym{}::@n", r.below(9)),
        5 => gen_type(r, depth + 1),
        6 => format!("[{}, {}]", gen_attr(r, depth + 1), gen_attr(r, depth + 1)),
        7 => format!("{{k{} = {}, u}}", r.below(5), gen_attr(r, depth + 1)),
        8 => format!("dense<[{}, {}]> : tensor<2xi32>", r.below(9), r.below(9)),
        9 => format!("array<i64: {}, {}>", r.below(9), r.below(9)),
        10 => "affine_map<(d0, d1)[s0] -> (d1 + s0, d0 floordiv 2)>".to_string(),
        _ => "0x7FC00000 : f32".to_string(),
    }
}

/// A module of unregistered ops with regions, blocks, multi-results and attributes.
fn gen_module(r: &mut Rng) -> String {
    let mut out = String::new();
    let mut vals: Vec<(String, String)> = vec![];
    let n = 1 + r.below(12);
    for i in 0..n {
        let nres = r.below(3);
        let types: Vec<String> = (0..nres).map(|_| gen_type(r, 0)).collect();
        let operands: Vec<(String, String)> = (0..r.below(3).min(vals.len())).map(|_| vals[r.below(vals.len())].clone()).collect();
        let name = format!("%r{}", i);
        if nres == 1 {
            out.push_str(&format!("{} = ", name));
        } else if nres > 1 {
            out.push_str(&format!("{}:{} = ", name, nres));
        }
        let attrs = if r.below(2) == 0 { format!(" {{a = {}, b = {}}}", gen_attr(r, 0), gen_attr(r, 0)) } else { String::new() };
        let props = if r.below(3) == 0 { format!(" <{{p = {}}}>", gen_attr(r, 0)) } else { String::new() };
        let region = if r.below(4) == 0 { " ({\n^bb0(%x: i32):\n  \"test.yield\"(%x) : (i32) -> ()\n})".to_string() } else { String::new() };
        out.push_str(&format!(
            "\"test.op{}\"({}){}{}{} : ({}) -> ({})\n",
            r.below(4),
            operands.iter().map(|o| o.0.clone()).collect::<Vec<_>>().join(", "),
            props,
            region,
            attrs,
            operands.iter().map(|o| o.1.clone()).collect::<Vec<_>>().join(", "),
            types.join(", ")
        ));
        for (k, t) in types.iter().enumerate() {
            vals.push((if nres == 1 { name.clone() } else { format!("{}#{}", name, k) }, t.clone()));
        }
    }
    out
}

fn print(src: &str, generic: bool) -> Result<String, String> {
    let ctx = driver::default_context(true);
    let m = ir::parser::parse_module(&ctx, src, "gen.mlir", 1).map_err(|d| format!("{}: {}", d.loc, d.message))?;
    ir::verifier::verify(&ctx, &m.body, m.module).map_err(|e| e[0].message.clone())?;
    Ok(ir::printer::print_op(&ctx, &m.body, m.module, ir::printer::PrintOptions { generic, debug_info: false }))
}

/// parse(print(parse(src))) is structurally parse(src), locations included
/// (printed with debug info) or not (without).
fn assert_round_trip(src: &str, generic: bool, debug_info: bool) -> Result<(), String> {
    let ctx = driver::default_context(true);
    let a = ir::parser::parse_module(&ctx, src, "gen.mlir", 1).map_err(|d| d.message.clone())?;
    let text = ir::printer::print_op(&ctx, &a.body, a.module, ir::printer::PrintOptions { generic, debug_info });
    let b = ir::parser::parse_module(&ctx, &text, "gen.mlir", 1).map_err(|d| format!("reparse: {}\n{}", d.message, text))?;
    ir::equivalence::check_equivalent(&a.body, a.module, &b.body, b.module, debug_info).map_err(|e| format!("{}\n{}", e, text))
}

#[test]
fn parse_of_print_is_the_same_module() {
    let mut r = Rng(0x9E3779B97F4A7C15);
    for case in 0..500 {
        let src = gen_module(&mut r);
        for (generic, dbg) in [(false, false), (true, false), (true, true), (false, true)] {
            if let Err(e) = assert_round_trip(&src, generic, dbg) {
                panic!("case {} (generic={}, debuginfo={}): {}\ninput:\n{}", case, generic, dbg, e, src);
            }
        }
    }
    for (i, seed) in seeds().iter().enumerate() {
        let ctx = driver::default_context(true);
        let valid = ir::parser::parse_module(&ctx, seed, "seed.mlir", 1).is_ok_and(|m| ir::verifier::verify(&ctx, &m.body, m.module).is_ok());
        if valid {
            for generic in [false, true] {
                assert_round_trip(seed, generic, true).unwrap_or_else(|e| panic!("seed {}: {}\n{}", i, e, seed));
            }
        }
    }
}

#[test]
fn print_parse_is_a_fixed_point_on_generated_modules() {
    let mut r = Rng(0x9E3779B97F4A7C15);
    for case in 0..500 {
        let src = gen_module(&mut r);
        let custom = print(&src, false).unwrap_or_else(|e| panic!("case {}: generated input rejected: {}\n{}", case, e, src));
        let generic = print(&src, true).unwrap();
        similar_asserts::assert_eq!(print(&custom, false).unwrap(), custom, "custom form is not a fixed point (case {})", case);
        similar_asserts::assert_eq!(print(&generic, true).unwrap(), generic, "generic form is not a fixed point (case {})", case);
        similar_asserts::assert_eq!(print(&generic, false).unwrap(), custom, "generic and custom forms differ (case {})", case);
    }
}

/// Valid seeds: every lit test input plus generated modules.
fn seeds() -> Vec<String> {
    let mut v = common::lit_inputs();
    let mut r = Rng(7);
    v.extend((0..50).map(|_| gen_module(&mut r)));
    v
}

const TOKENS: &[&str] = &[
    "(", ")", "{", "}", "[", "]", "<", ">", ",", ":", "=", "->", "%0", "%0#7", "^bb0", "@f", "#map", "!t", "\"", "\"x\"", "0x", "-", "?", "*",
    "x", "i32", "tensor<", "memref<?x", "vector<[4]x", "dense<", "dense_resource<", "affine_map<(d0) -> (", "loc(", "{-#", "#-}", "//",
    "\n", "func.func", "arith.addi", "return", "9999999999999999999999999", "1.5e", "\\", "é",
];

fn mutate(r: &mut Rng, s: &str) -> String {
    let mut b = s.as_bytes().to_vec();
    for _ in 0..1 + r.below(4) {
        let len = b.len().max(1);
        let i = r.below(len).min(b.len());
        match r.below(5) {
            0 if !b.is_empty() => {
                let j = (i + 1 + r.below(16)).min(b.len());
                b.drain(i..j);
            }
            1 => {
                let t = r.pick(TOKENS).as_bytes().to_vec();
                b.splice(i..i, t);
            }
            2 if !b.is_empty() => {
                let j = (i + 1 + r.below(32)).min(b.len());
                let chunk = b[i..j].to_vec();
                let k = r.below(b.len());
                b.splice(k..k, chunk);
            }
            3 if !b.is_empty() => {
                let (j, k) = (r.below(b.len()), i.min(b.len() - 1));
                b.swap(k, j);
            }
            _ if !b.is_empty() => {
                let k = i.min(b.len() - 1);
                b[k] = b" %^@#!\"<>{}()[]:,=0123456789xi-?*"[r.below(32)];
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn mutated_inputs_never_panic() {
    let seeds = seeds();
    let mut r = Rng(0xDEADBEEF);
    let ctx_strict = driver::default_context(false);
    let ctx_loose = driver::default_context(true);
    let mut parsed_ok = 0;
    let total = 6000;
    for case in 0..total {
        let seed = &seeds[r.below(seeds.len())];
        let src = mutate(&mut r, seed);
        let ctx = if case % 2 == 0 { &ctx_strict } else { &ctx_loose };
        let res = catch_unwind(AssertUnwindSafe(|| {
            if let Ok(m) = ir::parser::parse_module(ctx, &src, "mut.mlir", 1) {
                if ir::verifier::verify(ctx, &m.body, m.module).is_ok() {
                    let out = ir::printer::print_op(ctx, &m.body, m.module, Default::default());
                    // What we print must parse again.
                    ir::parser::parse_module(ctx, &out, "reprint.mlir", 1).map_err(|d| d.message).unwrap();
                    return true;
                }
            }
            false
        }));
        match res {
            Ok(ok) => parsed_ok += ok as usize,
            Err(_) => panic!("case {} panicked on input:\n{}", case, src),
        }
    }
    eprintln!("{} of {} mutated inputs parsed and verified", parsed_ok, total);
    // The mutations must leave a fair share valid, or the test is only exercising the lexer.
    assert!(parsed_ok > total / 20, "only {} of {} mutated inputs were valid", parsed_ok, total);
}
