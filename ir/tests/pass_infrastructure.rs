//! The pass and rewrite infrastructure through its Rust API: conversion
//! rollback, pattern benefit order, recorded match failures, pipeline text
//! round trips, analysis invalidation.

use ir::pass::{parse_pipeline, Analysis, Pass, PassContext, PassManager, PassManagerConfig, OpPassManager};
use ir::printer::{print_op, PrintOptions};
use ir::rewrite::{
    apply_full_conversion, apply_patterns_greedily, ConversionTarget, GreedyConfig, MatchFailure, PatternSet, RewritePattern, Rewriter,
};
use ir::{Body, Context, OpId, OperationState};
use std::sync::Arc;

fn ctx() -> Context {
    let mut c = Context::new();
    c.allow_unregistered = true;
    func::register(&c);
    arith::register(&c);
    c
}

fn parse(c: &Context, src: &str) -> (Body, OpId) {
    let m = ir::parser::parse_module(c, src, "t.mlir", 1).unwrap_or_else(|d| panic!("{}", d.message));
    (m.body, m.module)
}

fn text(c: &Context, b: &Body, m: OpId) -> String {
    print_op(c, b, m, PrintOptions { generic: true, debug_info: true })
}

/// Renames an op to `to` (a stand-in for a real lowering).
struct Rename {
    from: &'static str,
    to: &'static str,
    benefit: u16,
}
impl RewritePattern for Rename {
    fn name(&self) -> &'static str {
        self.to
    }
    fn root(&self) -> Option<&'static str> {
        Some(self.from)
    }
    fn benefit(&self) -> u16 {
        self.benefit
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
        let d = rw.body.op(op);
        let (ops, loc) = (d.operands().to_vec(), d.loc.clone());
        let types: Vec<_> = d.results().iter().map(|r| rw.body.value_type(*r).clone()).collect();
        let st = OperationState::new(rw.ctx.op_name(self.to), loc).operands(&ops).results(&types);
        rw.replace_op_with_new(op, st);
        Ok(())
    }
}

const SRC: &str = "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  %1 = arith.muli %0, %a : i32\n  %2 = arith.addi %1, %1 : i32\n  return %2 : i32\n}\n";

#[test]
fn failed_conversion_leaves_the_input_unchanged_and_names_each_op() {
    let c = ctx();
    let (mut b, m) = parse(&c, SRC);
    let before = text(&c, &b, m);
    let mut target = ConversionTarget::new();
    target.add_illegal_dialect("arith").add_legal_dialect("test").add_legal_dialect("func");
    let mut p = PatternSet::new();
    p.add(Arc::new(Rename { from: "arith.addi", to: "test.add", benefit: 1 }));
    let errs = apply_full_conversion(&c, &mut b, m, &target, &p, None).unwrap_err();
    assert_eq!(errs.len(), 1, "{:?}", errs.iter().map(|e| &e.message).collect::<Vec<_>>());
    assert_eq!(errs[0].message, "failed to legalize operation 'arith.muli'");
    assert_eq!(errs[0].loc.file_line_col().map(|x| x.1), Some(3));
    assert_eq!(text(&c, &b, m), before, "the input changed");
    assert!(ir::verifier::verify(&c, &b, m).is_ok());
    // With a pattern for muli too, it succeeds and nothing of arith is left.
    p.add(Arc::new(Rename { from: "arith.muli", to: "test.mul", benefit: 1 }));
    apply_full_conversion(&c, &mut b, m, &target, &p, None).unwrap();
    let after = text(&c, &b, m);
    assert!(!after.contains("arith.") && after.contains("test.mul"), "{}", after);
}

#[test]
fn dynamic_legality_decides_per_op() {
    let c = ctx();
    let (mut b, m) = parse(&c, SRC);
    let mut target = ConversionTarget::new();
    target.add_legal_dialect("arith").add_legal_dialect("func").add_legal_dialect("test");
    // addi is legal only when its operands differ.
    target.add_dynamically_legal_op("arith.addi", |_, b, op| b.op(op).operand(0) != b.op(op).operand(1));
    let mut p = PatternSet::new();
    p.add(Arc::new(Rename { from: "arith.addi", to: "test.add", benefit: 1 }));
    ir::rewrite::apply_partial_conversion(&c, &mut b, m, &target, &p, None).unwrap();
    let t = text(&c, &b, m);
    assert_eq!(t.matches("test.add").count(), 2, "{}", t);
}

#[test]
fn higher_benefit_patterns_win() {
    let c = ctx();
    let (mut b, m) = parse(&c, SRC);
    let mut p = PatternSet::new();
    p.add(Arc::new(Rename { from: "arith.muli", to: "test.low", benefit: 1 }));
    p.add(Arc::new(Rename { from: "arith.muli", to: "test.high", benefit: 5 }));
    let r = apply_patterns_greedily(&c, &mut b, m, &p, &GreedyConfig { fold: false, ..Default::default() });
    assert!(r.converged);
    let t = text(&c, &b, m);
    assert!(t.contains("test.high") && !t.contains("test.low"), "{}", t);
}

struct NeverMatches;
impl RewritePattern for NeverMatches {
    fn name(&self) -> &'static str {
        "never"
    }
    fn root(&self) -> Option<&'static str> {
        Some("arith.addi")
    }
    fn match_and_rewrite(&self, _op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
        rw.match_failure("operands are not what this pattern wants")
    }
}

#[test]
fn match_failures_are_recorded_with_reasons() {
    let c = ctx();
    let (mut b, m) = parse(&c, SRC);
    let mut p = PatternSet::new();
    p.add(Arc::new(NeverMatches));
    let r = apply_patterns_greedily(&c, &mut b, m, &p, &GreedyConfig { record_failures: true, ..Default::default() });
    assert!(r.converged);
    assert_eq!(r.match_failures.len(), 2);
    assert!(r.match_failures.iter().all(|(n, _, why)| *n == "never" && why.contains("not what this pattern wants")));
}

#[test]
fn pipelines_print_back_as_written() {
    let mut reg = ir::pass::PassRegistry::new();
    ir::transforms::register(&mut reg);
    for t in [
        "builtin.module(cse)",
        "builtin.module(func.func(cse,canonicalize{max-iterations=10}),symbol-dce)",
        "builtin.module(any(canonicalize{max-iterations=2 top-down=false}),inline{max-depth=3})",
        "builtin.module(func.func(canonicalize{disable-patterns=a,b}))",
    ] {
        assert_eq!(parse_pipeline(t, &reg).unwrap().to_text(), t);
    }
    let e = parse_pipeline("builtin.module(func.func(nope))", &reg).err().unwrap();
    assert_eq!(e.col, 26);
    // A pass anchored on func.func cannot sit directly in a module pipeline.
    struct FuncOnly;
    impl Pass for FuncOnly {
        fn argument(&self) -> &'static str {
            "func-only"
        }
        fn anchor(&self) -> Option<&'static str> {
            Some("func.func")
        }
        fn run(&mut self, _: &mut PassContext, _: OpId) -> Result<(), String> {
            Ok(())
        }
    }
    let mut pm = OpPassManager::new("builtin.module");
    pm.add_pass(Box::new(FuncOnly));
    pm.add_pass(Box::new(FuncOnly));
    assert_eq!(pm.to_text(), "builtin.module(func.func(func-only,func-only))", "implicit nesting shares one nested manager");
}

struct Count(usize);
impl Analysis for Count {
    fn compute(_: &Context, b: &Body, op: OpId) -> Self {
        Count(b.walk_preorder(op).len())
    }
}

struct Query {
    preserve: bool,
}
impl Pass for Query {
    fn argument(&self) -> &'static str {
        "query"
    }
    fn run(&mut self, cx: &mut PassContext, op: OpId) -> Result<(), String> {
        let _ = cx.analyses.get::<Count>(cx.ctx, cx.body, op).0;
        if self.preserve {
            cx.preserve::<Count>();
        }
        Ok(())
    }
}

#[test]
fn analyses_are_cached_until_a_pass_does_not_preserve_them() {
    let c = ctx();
    let (mut b, m) = parse(&c, SRC);
    let mut root = OpPassManager::new("builtin.module");
    root.add_pass(Box::new(Query { preserve: true }));
    root.add_pass(Box::new(Query { preserve: false }));
    root.add_pass(Box::new(Query { preserve: false }));
    let mut pm = PassManager::new(root, PassManagerConfig::default());
    pm.run(&c, &mut b, m).unwrap();
    // computed, reused (preserved), reused then dropped, computed again.
    assert_eq!(pm.analyses.computations, 2);
}
