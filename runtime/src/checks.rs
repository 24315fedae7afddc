//! The run-time checks compiled code makes (`onnx_to_tensor::checks`):
//! the hook it calls, and the error a failed check turns a run into. A check
//! records its failure on the calling thread (the compiled code runs on it);
//! [`guarded`] clears the record before a call and reports it after.

use std::cell::Cell;

thread_local! {
    static FAILED: Cell<Option<(i64, i64)>> = const { Cell::new(None) };
}

extern "C" fn failed(id: i64, count: i64, value: i64) {
    if count != 0 {
        FAILED.with(|f| {
            if f.get().is_none() {
                f.set(Some((id, value)));
            }
        });
    }
}

/// Every hook compiled code may call, by name: the checks' and profiling's.
pub fn jit_symbols() -> Vec<(&'static str, *mut ())> {
    let mut s = crate::profile::symbols();
    s.push((onnx_to_tensor::checks::HOOK, failed as *mut ()));
    s.push((llvm_cpu::PARALLEL_FOR, crate::parallel::parallel_for as *mut ()));
    s
}

/// The messages of a lowered module's checks, by id.
pub fn messages(body: &ir::Body, module: ir::OpId) -> Vec<String> {
    body.op(module)
        .attributes
        .get(onnx_to_tensor::checks::MESSAGES)
        .and_then(|a| a.as_array())
        .map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

/// Runs `call`; a check that failed during it makes the result that check's error.
pub fn guarded<T>(messages: &[String], call: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    FAILED.with(|f| f.set(None));
    let r = call()?;
    match FAILED.with(|f| f.take()) {
        None => Ok(r),
        Some((id, value)) => Err(match messages.get(id as usize) {
            Some(m) => onnx_to_tensor::checks::fill(m, value),
            None => format!("run-time check {} failed (value {})", id, value),
        }),
    }
}

/// For code that runs without this runtime (`npu-translate --emit=obj|lib|llvm-ir`):
/// each call of the hook becomes `if (count != 0) abort()` in place, as the
/// run cannot go on with an index ONNX Runtime refuses. Nothing is defined,
/// so several compiled models link together. Refuses a model whose own
/// `abort` is something else.
pub fn call_abort_on_failed_checks(ctx: &ir::Context, body: &mut ir::Body, module: ir::OpId) -> Result<(), String> {
    use ir::attributes::Attribute;
    use ir::{InsertPoint, OperationState};
    let hook = onnx_to_tensor::checks::HOOK;
    let Some(decl) = ir::symbols::lookup_symbol_in(body, module, hook) else { return Ok(()) };
    let calls: Vec<ir::OpId> = body
        .walk_preorder(module)
        .into_iter()
        .filter(|o| body.name(*o).as_str() == "func.call" && body.op(*o).attr("callee").and_then(|a| a.as_symbol()).is_some_and(|s| s.join("::") == hook))
        .collect();
    let abort = func::FunctionBuilder::declare_external(ctx, body, module, "abort", &[]);
    if body.entry_block(abort).is_some() || func::function_type(body, abort).is_none_or(|(i, r)| !i.is_empty() || !r.is_empty()) {
        return Err("the model defines a function named 'abort', which the index checks of code built for use outside npu-run call".into());
    }
    for call in calls {
        let loc = body.op(call).loc.clone();
        let count = body.op(call).operand(1);
        let i64t = ctx.i64();
        let zero = OperationState::new(ctx.op_name("arith.constant"), loc.clone()).results(&[i64t.clone()]).property(ctx.ident("value"), Attribute::integer(0, i64t));
        let zero = body.build(zero, InsertPoint::Before(call));
        let zero = body.op(zero).result(0);
        let ne = OperationState::new(ctx.op_name("arith.cmpi"), loc.clone())
            .operands(&[count, zero])
            .results(&[ctx.i1()])
            .property(ctx.ident("predicate"), Attribute::integer(1, ctx.i64()));
        let ne = body.build(ne, InsertPoint::Before(call));
        let ne = body.op(ne).result(0);
        let then = body.new_region();
        let tb = body.add_block(then, &[]);
        body.build(OperationState::new(ctx.op_name("func.call"), loc.clone()).property(ctx.ident("callee"), Attribute::symbol("abort")), InsertPoint::AtEnd(tb));
        body.build(OperationState::new(ctx.op_name("scf.yield"), loc.clone()), InsertPoint::AtEnd(tb));
        let els = body.new_region();
        body.build(OperationState::new(ctx.op_name("scf.if"), loc).operands(&[ne]).region(then).region(els), InsertPoint::Before(call));
        body.erase(call);
    }
    body.erase(decl);
    Ok(())
}
