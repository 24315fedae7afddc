//! The run-time checks compiled code makes (`passes::onnx_to_tensor::checks`):
//! the hook it calls, and the error a failed check turns a run into. A check
//! records its failure on the calling thread (the compiled code runs on it);
//! [`guarded`] clears the record before a call and reports it after.

use std::cell::Cell;

thread_local! {
    static FAILED: Cell<Option<(i64, i64)>> = const { Cell::new(None) };
}

extern "C" fn failed(id: i64, value: i64) {
    if value != passes::onnx_to_tensor::checks::PASSED {
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
    s.push((passes::onnx_to_tensor::checks::HOOK, failed as *mut ()));
    s
}

/// The messages of a lowered module's checks, by id.
pub fn messages(body: &ir::Body, module: ir::OpId) -> Vec<String> {
    body.op(module)
        .attributes
        .get(passes::onnx_to_tensor::checks::MESSAGES)
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
            Some(m) => m.replace("{}", &value.to_string()),
            None => format!("run-time check {} failed (value {})", id, value),
        }),
    }
}

/// For code that runs without this runtime (`npu-translate --emit=obj|lib|llvm-ir`):
/// gives the hook a body that aborts the process when a check fails, as the
/// run cannot go on with an index ONNX Runtime refuses. Does nothing when the
/// module has no checks.
pub fn define_aborting_hook(ctx: &ir::Context, body: &mut ir::Body, module: ir::OpId) {
    use ir::attributes::Attribute;
    use ir::types::TypeData;
    use ir::{InsertPoint, Location, OperationState};
    let hook = passes::onnx_to_tensor::checks::HOOK;
    let Some(f) = ir::symbols::lookup_symbol_in(body, module, hook) else { return };
    let Some(&region) = body.op(f).regions().first() else { return };
    if body.entry_block(f).is_some() {
        return;
    }
    let loc = Location::unknown();
    let i64t = ctx.i64();
    let mblock = body.region_blocks(body.op(module).regions()[0])[0];
    if ir::symbols::lookup_symbol_in(body, module, "abort").is_none() {
        let fty = ctx.intern_type(TypeData::Function { inputs: vec![], results: vec![] });
        let region = body.new_region();
        let st = OperationState::new(ctx.op_name("func.func"), loc.clone())
            .property(ctx.ident("sym_name"), Attribute::string("abort"))
            .property(ctx.ident("function_type"), Attribute::type_attr(fty))
            .property(ctx.ident("sym_visibility"), Attribute::string("private"))
            .region(region);
        body.build(st, InsertPoint::AtStart(mblock));
    }
    // func.func @npu_check_failed(%id: i64, %value: i64) { scf.if (%value != PASSED) { abort() } }
    let entry = body.add_block(region, &[i64t.clone(), i64t.clone()]);
    let value = body.block_args(entry)[1];
    body.op_mut(f).properties.remove("sym_visibility");
    let passed = OperationState::new(ctx.op_name("arith.constant"), loc.clone())
        .results(&[i64t.clone()])
        .property(ctx.ident("value"), Attribute::integer(passes::onnx_to_tensor::checks::PASSED as i128, i64t));
    let passed = body.build(passed, InsertPoint::AtEnd(entry));
    let passed = body.op(passed).result(0);
    let ne = OperationState::new(ctx.op_name("arith.cmpi"), loc.clone())
        .operands(&[value, passed])
        .results(&[ctx.i1()])
        .property(ctx.ident("predicate"), Attribute::integer(1, ctx.i64()));
    let ne = body.build(ne, InsertPoint::AtEnd(entry));
    let ne = body.op(ne).result(0);
    let then = body.new_region();
    let tb = body.add_block(then, &[]);
    body.build(OperationState::new(ctx.op_name("func.call"), loc.clone()).property(ctx.ident("callee"), Attribute::symbol("abort")), InsertPoint::AtEnd(tb));
    body.build(OperationState::new(ctx.op_name("scf.yield"), loc.clone()), InsertPoint::AtEnd(tb));
    let els = body.new_region();
    body.build(OperationState::new(ctx.op_name("scf.if"), loc.clone()).operands(&[ne]).region(then).region(els), InsertPoint::AtEnd(entry));
    body.build(OperationState::new(ctx.op_name("func.return"), loc), InsertPoint::AtEnd(entry));
}
