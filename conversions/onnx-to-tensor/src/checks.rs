//! Run-time checks where ONNX Runtime refuses an input a lowering could only
//! clamp: indices out of range. A clamp keeps every read inside its tensor,
//! and the check makes the run fail instead of answering with clamped data.
//!
//! A check reduces its indices to how many are out of range and the largest
//! of those, and passes both to `@__npu_check_failed(id, count, value)`, an
//! external function the runtime provides; `id` indexes the module's
//! `npu.runtime_checks` array, whose message (naming the node) the runtime
//! shows with its last `{}` replaced by the value ([`fill`]). Constant
//! indices are checked here, at compile time.

use super::{dims_map, Cmp, Kind, Lower, Sc};
use ir::affine::AffineMap;
use ir::attributes::{AttrData, Attribute};
use ir::{InsertPoint, OpId, OperationState};
use tensor::Iterator;

/// The runtime's hook: `void __npu_check_failed(i64 id, i64 count, i64 value)`,
/// called once per check; `count` is 0 when the check passed. The reserved
/// prefix keeps it apart from graph names.
pub const HOOK: &str = cpu_target::abi::CHECK_FAILED;
/// The module attribute holding each check's message.
pub const MESSAGES: &str = "npu.runtime_checks";
/// The most constant indices read at compile time; more are checked at run time.
const MAX_CONSTANT_INDICES: usize = 1 << 20;

/// Operand `operand` of the op being lowered holds indices into an axis of
/// `n` elements, negative ones counted from the end: each must be in
/// [-n, n-1]. `what` names the axis in the message ("axis 0 of size 3").
pub fn indices_in_range(l: &mut Lower, operand: usize, n: i64, what: &str) -> Result<(), String> {
    let message = format!("{}: index {{}} is out of range for {}; indices must be in [{}, {}]", node(l), what, -n, n - 1);
    check(l, operand, &[n], true, message)
}

/// [`indices_in_range`] for indices that may not count from the end (RoiAlign's
/// batch indices): each must be in [0, n-1].
pub fn positions_in_range(l: &mut Lower, operand: usize, n: i64, what: &str) -> Result<(), String> {
    let message = format!("{}: index {{}} is out of range for {}; indices must be in [0, {}]", node(l), what, n - 1);
    check(l, operand, &[n], false, message)
}

/// Index tuples along the last axis of operand `operand` (GatherND, ScatterND):
/// component j indexes a dim of `dims[j]` elements, in [-dims[j], dims[j]-1].
pub fn index_tuples_in_range(l: &mut Lower, operand: usize, dims: &[i64]) -> Result<(), String> {
    let message = format!("{}: index {{}} is out of range for data dims {:?} (component j must be in [-dims[j], dims[j]-1])", node(l), dims);
    check(l, operand, dims, true, message)
}

/// The op and its node's name, as messages start.
fn node(l: &Lower) -> String {
    let name = l.loc.node_name().map(|s| format!(" '{}'", s)).unwrap_or_default();
    format!("{}{}", &l.name()["onnx.".len()..], name)
}

/// Emits the check of `bounds`: one for every index, or one per position
/// along the indices' last axis.
fn check(l: &mut Lower, operand: usize, bounds: &[i64], negative: bool, message: String) -> Result<(), String> {
    let indices = l.operand(operand)?;
    let bound = |k: usize| bounds[k % bounds.len()];
    if let Some(values) = onnx::infer::const_ints_upto(l.body, indices, MAX_CONSTANT_INDICES) {
        let low = |k: usize| if negative { -bound(k) } else { 0 };
        return match values.iter().enumerate().find(|(k, v)| **v < low(*k) || **v >= bound(*k)) {
            Some((_, v)) => Err(cpu_target::abi::fill(&message, *v)),
            None => Ok(()),
        };
    }
    let info = l.info(indices)?;
    let s64 = Sc { ty: l.ctx.i64(), kind: Kind::Signed };
    // Two reductions in one loop nest: how many are out of range, and the largest of those.
    let count0 = l.fill(&[], &s64, 0.0);
    let worst0 = l.fill(&[], &s64, i64::MIN as f64);
    let r = info.rank();
    let from = info.sc.clone();
    let bounds = bounds.to_vec();
    let found = l.generic(&[indices], &[count0, worst0], vec![AffineMap::identity(r as u32), dims_map(r, &[]), dims_map(r, &[])], &vec![Iterator::Reduction; r], |e, a| {
        let v = e.cast(a[0], &from, &s64);
        // This element's bound: chosen by its position along the last axis when there are several.
        let mut n = e.scalar(bounds[0] as f64, &s64);
        if bounds.len() > 1 {
            let isc = Sc { ty: e.ctx.index(), kind: Kind::Signed };
            let j = e.loop_index(r - 1);
            for (k, b) in bounds.iter().enumerate().skip(1) {
                let kv = e.index(k as i64);
                let here = e.cmp(Cmp::Eq, j, kv, &isc);
                let bv = e.scalar(*b as f64, &s64);
                n = e.select(here, bv, n);
            }
        }
        let zero = e.scalar(0.0, &s64);
        let lo = if negative { e.sub(zero, n, &s64) } else { zero };
        let (none, one, zero) = (e.scalar(i64::MIN as f64, &s64), e.scalar(1.0, &s64), e.scalar(0.0, &s64));
        let below = e.cmp(Cmp::Lt, v, lo, &s64);
        let above = e.cmp(Cmp::Ge, v, n, &s64);
        let out = e.op(arith::ops::ORI, &[below, above], &e.ctx.i1());
        let counted = e.select(out, one, zero);
        let bad = e.select(out, v, none);
        vec![e.add(a[1], counted, &s64), e.max(a[2], bad, &s64)]
    });
    let mut e = l.emit();
    let count = e.extract(found[0], &[]);
    let value = e.extract(found[1], &[]);
    report(l, message, count, value);
    Ok(())
}

/// Calls the hook before the op being lowered with `count` (i64: how many
/// failed, 0 when the check passed) and `value` (i64, shown in `message`).
pub fn report(l: &mut Lower, message: String, count: ir::Value, value: ir::Value) {
    let id = register(l, message);
    let i64t = l.ctx.i64();
    let id = l.emit().int(id as i128, &i64t);
    let call = OperationState::new(l.ctx.op_name(func::ops::CALL), l.loc.clone()).operands(&[id, count, value]).property(l.ctx.ident("callee"), Attribute::symbol(HOOK));
    l.body.build(call, InsertPoint::Before(l.op));
}

/// A Loop or Scan stopped at `max` iterations (`--max-loop-iterations`)
/// with more to run: `over` (i1) says so after the loop.
pub fn loop_iterations(l: &mut Lower, over: ir::Value, max: i64) {
    let message = format!("{}: ran {{}} iterations and would run more (a loop that does not end?); raise the limit with convert-onnx-to-tensor{{max-loop-iterations=N}}", node(l));
    let i64t = l.ctx.i64();
    let mut e = l.emit();
    let count = e.op(arith::ops::EXTUI, &[over], &i64t);
    let value = e.int(max as i128, &i64t);
    report(l, message, count, value);
}

/// Adds `message` to the module's table (declaring the hook the first time);
/// returns its id.
fn register(l: &mut Lower, message: String) -> usize {
    let ctx = l.ctx;
    let module = outermost(l.body, l.op);
    let mut table: Vec<Attribute> = l.body.op(module).attributes.get(MESSAGES).and_then(|a| a.as_array()).map(|a| a.to_vec()).unwrap_or_default();
    table.push(Attribute::string(&message));
    let id = table.len() - 1;
    l.body.op_mut(module).attributes.set(ctx.ident(MESSAGES), Attribute::new(AttrData::Array(table)));
    let i64t = ctx.i64();
    func::FunctionBuilder::declare_external(ctx, l.body, module, HOOK, &[i64t.clone(), i64t.clone(), i64t]);
    id
}

/// The op with no parent: the module the lowering runs in.
fn outermost(body: &ir::Body, op: OpId) -> OpId {
    let mut at = op;
    while let Some(p) = body.parent_op(at) {
        at = p;
    }
    at
}

/// For code that runs without this runtime (`npu-translate --emit=obj|lib|llvm-ir`):
/// each call of the hook becomes `if (count != 0) abort()` in place, as the
/// run cannot go on with an index ONNX Runtime refuses. Nothing is defined,
/// so several compiled models link together. Refuses a model whose own
/// `abort` is something else.
pub fn call_abort_on_failed_checks(ctx: &ir::Context, body: &mut ir::Body, module: ir::OpId) -> Result<(), String> {
    use ir::attributes::Attribute;
    use ir::{InsertPoint, OperationState};
    let hook = HOOK;
    let Some(decl) = ir::symbols::lookup_symbol_in(body, module, hook) else { return Ok(()) };
    let calls: Vec<ir::OpId> = body
        .walk_preorder(module)
        .into_iter()
        .filter(|o| body.name(*o).as_str() == func::ops::CALL && body.op(*o).attr("callee").and_then(|a| a.as_symbol()).is_some_and(|s| s.join("::") == hook))
        .collect();
    let abort = func::FunctionBuilder::declare_external(ctx, body, module, "abort", &[]);
    if body.entry_block(abort).is_some() || func::function_type(body, abort).is_none_or(|(i, r)| !i.is_empty() || !r.is_empty()) {
        return Err("the model defines a function named 'abort', which the index checks of code built for use outside npu-run call".into());
    }
    for call in calls {
        let loc = body.op(call).loc.clone();
        let count = body.op(call).operand(1);
        let i64t = ctx.i64();
        let zero = OperationState::new(ctx.op_name(arith::ops::CONSTANT), loc.clone()).results(&[i64t.clone()]).property(ctx.ident("value"), Attribute::integer(0, i64t));
        let zero = body.build(zero, InsertPoint::Before(call));
        let zero = body.op(zero).result(0);
        let ne = OperationState::new(ctx.op_name(arith::ops::CMPI), loc.clone())
            .operands(&[count, zero])
            .results(&[ctx.i1()])
            .property(ctx.ident("predicate"), Attribute::integer(1, ctx.i64()));
        let ne = body.build(ne, InsertPoint::Before(call));
        let ne = body.op(ne).result(0);
        let then = body.new_region();
        let tb = body.add_block(then, &[]);
        body.build(OperationState::new(ctx.op_name(func::ops::CALL), loc.clone()).property(ctx.ident("callee"), Attribute::symbol("abort")), InsertPoint::AtEnd(tb));
        body.build(OperationState::new(ctx.op_name(scf::ops::YIELD), loc.clone()), InsertPoint::AtEnd(tb));
        let els = body.new_region();
        body.build(OperationState::new(ctx.op_name(scf::ops::IF), loc).operands(&[ne]).region(then).region(els), InsertPoint::Before(call));
        body.erase(call);
    }
    body.erase(decl);
    Ok(())
}
