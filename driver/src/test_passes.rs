//! Passes that test the pass infrastructure from lit (as MLIR's `test/lib`): a failing pass, a
//! crashing pass, an analysis that reports whether it was cached, and a
//! conversion (`arith.addi`/`arith.constant` → `test.*`) with optional type
//! conversion (i32 → i64).

use ir::diagnostics::Diagnostic;
use ir::pass::{Analysis, OptionKind, OptionSpec, Pass, PassContext, PassInfo, PassRegistry};
use ir::rewrite::{apply_full_conversion, apply_partial_conversion, ConversionTarget, MatchFailure, PatternSet, RewritePattern, Rewriter, TypeConverter};
use ir::{Body, Context, OpId, OperationState};
use std::sync::Arc;

pub fn register(reg: &mut PassRegistry) {
    reg.register(PassInfo { argument: "test-fail", summary: "Test: always fails", options: vec![], create: |_| Ok(Box::new(Fail)) });
    reg.register(PassInfo { argument: "test-crash", summary: "Test: panics, as a buggy pass would", options: vec![], create: |_| Ok(Box::new(Crash)) });
    reg.register(PassInfo {
        argument: "test-analysis",
        summary: "Test: queries a cached analysis and remarks whether it was computed",
        options: vec![OptionSpec { name: "preserve", kind: OptionKind::Bool, default: "false", description: "Mark all analyses preserved" }],
        create: |o| Ok(Box::new(AnalysisUser { preserve: o.bool("preserve") })),
    });
    reg.register(PassInfo {
        argument: "test-convert-to-test",
        summary: "Test: converts arith.addi and arith.constant to test ops (dialect conversion)",
        options: vec![
            OptionSpec { name: "full", kind: OptionKind::Bool, default: "true", description: "Full (every op legal) rather than partial conversion" },
            OptionSpec { name: "i32-to-i64", kind: OptionKind::Bool, default: "false", description: "Convert i32 values to i64" },
            OptionSpec { name: "signatures", kind: OptionKind::Bool, default: "false", description: "Also convert func signatures, returns and calls" },
        ],
        create: |o| Ok(Box::new(ConvertToTest { full: o.bool("full"), widen: o.bool("i32-to-i64"), signatures: o.bool("signatures") })),
    });
    reg.register(PassInfo {
        argument: "test-break-ir",
        summary: "Test: makes the IR invalid (a use before its definition) without failing",
        options: vec![],
        create: |_| Ok(Box::new(BreakIr)),
    });
}

struct Fail;
impl Pass for Fail {
    fn argument(&self) -> &'static str {
        "test-fail"
    }
    fn run(&mut self, _cx: &mut PassContext, _op: OpId) -> Result<(), String> {
        Err("test-fail: failing on purpose".into())
    }
}

struct Crash;
impl Pass for Crash {
    fn argument(&self) -> &'static str {
        "test-crash"
    }
    fn run(&mut self, _cx: &mut PassContext, _op: OpId) -> Result<(), String> {
        panic!("test-crash: crashing on purpose")
    }
}

struct BreakIr;
impl Pass for BreakIr {
    fn argument(&self) -> &'static str {
        "test-break-ir"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        // Move the last op that uses a value defined in the same block to the block's start.
        for op in cx.body.walk_postorder(root) {
            let Some(b) = cx.body.op(op).parent_block() else { continue };
            let uses_local = cx.body.op(op).operands().iter().any(|v| cx.body.defining_op(*v).is_some_and(|d| cx.body.op(d).parent_block() == Some(b)));
            if uses_local {
                cx.body.move_op(op, ir::InsertPoint::AtStart(b));
                return Ok(());
            }
        }
        Ok(())
    }
}

/// The number of ops under an op.
struct OpCount(usize);
impl Analysis for OpCount {
    fn compute(_ctx: &Context, body: &Body, op: OpId) -> Self {
        OpCount(body.walk_preorder(op).len())
    }
}

struct AnalysisUser {
    preserve: bool,
}
impl Pass for AnalysisUser {
    fn argument(&self) -> &'static str {
        "test-analysis"
    }
    fn run(&mut self, cx: &mut PassContext, op: OpId) -> Result<(), String> {
        let cached = cx.analyses.is_cached::<OpCount>(op);
        let n = cx.analyses.get::<OpCount>(cx.ctx, cx.body, op).0;
        let loc = cx.body.op(op).loc.clone();
        cx.emit(Diagnostic::remark(loc, format!("op count {} ({})", n, if cached { "cached" } else { "computed" })));
        if self.preserve {
            cx.preserve_all();
        }
        Ok(())
    }
}

struct AddiToTest;
impl RewritePattern for AddiToTest {
    fn name(&self) -> &'static str {
        "addi-to-test"
    }
    fn root(&self) -> Option<&'static str> {
        Some(arith::ops::ADDI)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
        let operands = rw.converted_operands(op);
        let rt = rw.body.value_type(rw.body.op(op).result(0)).clone();
        let Some(t) = rw.convert_type(&rt) else { return rw.match_failure("result type cannot be converted") };
        let loc = rw.body.op(op).loc.clone();
        let st = OperationState::new(rw.ctx.op_name("test.add"), loc).operands(&operands).results(&[t]);
        rw.replace_op_with_new(op, st);
        Ok(())
    }
}

struct ConstantToTest;
impl RewritePattern for ConstantToTest {
    fn name(&self) -> &'static str {
        "constant-to-test"
    }
    fn root(&self) -> Option<&'static str> {
        Some(arith::ops::CONSTANT)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
        let d = rw.body.op(op);
        let (v, rt, loc) = (d.properties.get("value").cloned(), rw.body.value_type(d.result(0)).clone(), d.loc.clone());
        let Some(v) = v else { return rw.match_failure("no value") };
        let Some(rt) = rw.convert_type(&rt) else { return rw.match_failure("result type cannot be converted") };
        let st = OperationState::new(rw.ctx.op_name("test.const"), loc).attribute(rw.ctx.ident("value"), v).results(&[rt]);
        rw.replace_op_with_new(op, st);
        Ok(())
    }
}

struct ConvertToTest {
    full: bool,
    widen: bool,
    signatures: bool,
}
impl Pass for ConvertToTest {
    fn argument(&self) -> &'static str {
        "test-convert-to-test"
    }
    fn run(&mut self, cx: &mut PassContext, op: OpId) -> Result<(), String> {
        let mut tc = TypeConverter::new();
        tc.add_conversion(|_, t| Some(t.clone()));
        if self.widen {
            tc.add_conversion(|ctx, t| if t.int_width() == Some(32) && t.is_signless_integer() { Some(ctx.i64()) } else { None });
        }
        let tc = Arc::new(tc);
        let mut target = ConversionTarget::new();
        target.add_legal_dialect("test").add_legal_dialect("func").add_legal_dialect("builtin").add_illegal_dialect("arith");
        let mut patterns = PatternSet::new();
        patterns.add(Arc::new(AddiToTest));
        patterns.add(Arc::new(ConstantToTest));
        if self.signatures {
            func::conversion::populate_type_conversion_patterns(&mut patterns);
            for op in [func::ops::FUNC, func::ops::RETURN, func::ops::CALL] {
                let tc = tc.clone();
                // Legal once every type it mentions is legal.
                target.add_dynamically_legal_op(op, move |ctx, body, o| func::conversion::is_legal_under(ctx, &tc, body, o));
            }
        }
        let r = if self.full {
            apply_full_conversion(cx.ctx, cx.body, op, &target, &patterns, Some(&*tc))
        } else {
            apply_partial_conversion(cx.ctx, cx.body, op, &target, &patterns, Some(&*tc))
        };
        if let Err(diags) = r {
            for d in diags {
                cx.emit(d);
            }
            return Err("conversion failed".into());
        }
        Ok(())
    }
}
