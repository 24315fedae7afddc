//! `onnx-shape-inference`: refines the result types of onnx ops from their
//! operands (rules in `crate::infer`), in program order until nothing changes,
//! then gives each function the result types of what it returns. A type only
//! ever becomes more precise; a rule that contradicts a static type is ignored
//! (a partly unknown declared type gives way to a fully static inferred one).
//! Ops whose types are refined are folded on the spot (as ONNX's data
//! propagation does), so a `Shape → Gather → Concat → Reshape` chain resolves
//! in one run of the pass rather than one run per link. Named dims of the
//! arguments (`onnx.dims`) are carried to the results (`crate::symbolic_dims`).
//! An If whose condition folds to a constant is replaced by its branch on the
//! spot, so what the branch computes is inferred in the same run.

use crate::ops;
use ir::pass::{Pass, PassContext};
use ir::rewrite::OperationFolder;
use ir::types::{Type, TypeData};
use ir::{Body, OpId};
use crate::family::infer;
use crate::infer::{compatible, precision_in};

pub struct ShapeInference;

/// `new` is more precise than `old` and agrees with it where `old` is known;
/// or `new` is fully static where `old` is not, whatever `old` says: a
/// declared shape that is partly unknown is a hint (exporters declare outputs
/// wrongly; ONNX Runtime, too, runs what its inference computes).
fn improves(ctx: &ir::Context, old: &Type, new: &Type) -> bool {
    let fully_static = |t: &Type| t.shape().is_some_and(|s| !s.contains(&ir::types::DYNAMIC));
    let same_elem = old.element_type().is_none_or(|e| Some(e) == new.element_type());
    (precision_in(ctx, new) > precision_in(ctx, old) && compatible(ctx, old, new))
        || (fully_static(new) && !fully_static(old) && same_elem && !matches!(old.data(), TypeData::None))
}

/// Gives each value its new type where that is more precise and agrees with the old; how many changed.
fn refine_values(ctx: &ir::Context, body: &mut Body, values: &[ir::Value], types: Vec<Type>) -> u64 {
    let mut changed = 0;
    for (v, t) in values.iter().zip(types) {
        let old = body.value_type(*v).clone();
        if improves(ctx, &old, &t) {
            body.set_value_type(*v, t);
            changed += 1;
        }
    }
    changed
}

/// Refines the entry-block arguments of a Loop, Scan or SequenceMap body from the op's operands.
fn refine_body_args(body: &mut Body, op: OpId, ctx: &ir::Context) -> u64 {
    let Some(types) = crate::infer::body_arg_types(ctx, body, op) else { return 0 };
    let Some(region) = body.op(op).regions().first().copied() else { return 0 };
    let Some(entry) = body.region_blocks(region).first().copied() else { return 0 };
    let args = body.block_args(entry).to_vec();
    refine_values(ctx, body, &args, types)
}

fn refine(body: &mut Body, op: OpId, ctx: &ir::Context, conflicts: &mut Vec<(OpId, Type, Type)>) -> u64 {
    let Some(types) = infer(ctx, body, op) else { return 0 };
    let results = body.op(op).results().to_vec();
    // A static type the op cannot compute (a declared output shape that is
    // wrong) would have the lowering compute the wrong thing: an error.
    let fully_static = |t: &Type| t.shape().is_some_and(|s| !s.contains(&ir::types::DYNAMIC));
    for (r, t) in results.iter().zip(&types) {
        let old = body.value_type(*r);
        if fully_static(old) && fully_static(t) && old.shape() != t.shape() && old.element_type() == t.element_type() {
            conflicts.push((op, old.clone(), t.clone()));
        }
    }
    refine_values(ctx, body, &results, types)
}

/// Sets `onnx.dims` in the result attributes of `f` for results with named dims.
fn name_result_dims(ctx: &ir::Context, body: &mut Body, f: OpId) {
    let Some(entry) = body.entry_block(f) else { return };
    let Some(ret) = body.last_op(entry).filter(|r| body.name(*r).as_str() == func::ops::RETURN) else { return };
    let names = crate::symbolic_dims::propagate(ctx, body, f);
    let returned = body.op(ret).operands().to_vec();
    for (k, v) in returned.iter().enumerate() {
        let Some(dims) = names.get(v) else {
            // A declared name list of another rank (the declared shape was wrong) names nothing now.
            let rank = body.value_type(*v).shape().map(|s| s.len());
            let stale = ir::function_like::io_attr(body, f, ir::function_like::Io::Result, k, "onnx.dims").and_then(|a| a.as_array()).map(|a| a.len());
            if let (Some(r), Some(n)) = (rank, stale) {
                if r != n {
                    let list = vec![ir::Attribute::string(""); r];
                    ir::function_like::set_io_attr(ctx, body, f, ir::function_like::Io::Result, k, returned.len(), "onnx.dims", ir::Attribute::new(ir::attributes::AttrData::Array(list)));
                }
            }
            continue;
        };
        let list = dims.iter().map(|n| ir::Attribute::string(n.as_deref().unwrap_or(""))).collect();
        ir::function_like::set_io_attr(ctx, body, f, ir::function_like::Io::Result, k, returned.len(), "onnx.dims", ir::Attribute::new(ir::attributes::AttrData::Array(list)));
    }
}

impl Pass for ShapeInference {
    fn argument(&self) -> &'static str {
        "onnx-shape-inference"
    }
    fn display_name(&self) -> &'static str {
        "ONNXShapeInference"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let (mut total, mut folded) = (0, 0);
        let mut folder = OperationFolder::default();
        let mut conflicts = Vec::new();
        for _ in 0..16 {
            let ops: Vec<OpId> = cx.body.walk_preorder(root).into_iter().filter(|o| cx.body.name(*o).dialect() == "onnx").collect();
            let mut changed = 0;
            for o in ops {
                if cx.body.is_erased(o) {
                    continue;
                }
                // An If whose condition became constant is its branch: inlined here, so
                // the branch's ops are inferred and folded in this same run.
                if cx.body.name(o).as_str() == ops::If::NAME {
                    if let Ok((block, term, yielded)) = crate::family::constant_if_branch(ctx, cx.body, o) {
                        cx.body.erase(term);
                        cx.body.inline_block(block, ir::InsertPoint::Before(o), &[]);
                        for (r, y) in cx.body.op(o).results().to_vec().into_iter().zip(yielded) {
                            cx.body.replace_all_uses(r, y);
                        }
                        cx.body.erase(o);
                        changed += 1;
                        continue;
                    }
                }
                changed += refine(cx.body, o, ctx, &mut conflicts) + refine_body_args(cx.body, o, ctx);
                // Only fold ops whose result types are known, so a folded constant never loses a type.
                let typed = cx.body.op(o).results().iter().all(|r| crate::infer::info(cx.body.value_type(*r)).is_some());
                if typed && folder.try_fold(ctx, cx.body, o).is_some() {
                    changed += 1;
                    folded += 1;
                }
            }
            total += changed;
            if changed == 0 {
                break;
            }
        }
        conflicts.sort_by_key(|c| c.0);
        conflicts.dedup_by_key(|c| c.0);
        if !conflicts.is_empty() {
            for (op, declared, computed) in &conflicts {
                let loc = cx.body.op(*op).loc.clone();
                cx.emit(ir::diagnostics::Diagnostic::error(loc, format!("'{}' computes {}, but its result is declared {}", cx.body.name(*op).as_str(), computed, declared)));
            }
            return Err(format!("{} op(s) with a declared type they cannot compute", conflicts.len()));
        }
        // Function results follow what is returned, where that is more precise, and carry its named dims.
        let funcs: Vec<OpId> = cx.body.walk_preorder(root).into_iter().filter(|o| cx.body.name(*o).as_str() == func::ops::FUNC).collect();
        for f in funcs {
            name_result_dims(ctx, cx.body, f);
            let Some(entry) = cx.body.entry_block(f) else { continue };
            let Some(ret) = cx.body.last_op(entry) else { continue };
            if cx.body.name(ret).as_str() != func::ops::RETURN {
                continue;
            }
            let Some((ins, outs)) = func::function_type(cx.body, f) else { continue };
            let returned: Vec<Type> = cx.body.op(ret).operands().iter().map(|v| cx.body.value_type(*v).clone()).collect();
            if returned.len() != outs.len() {
                continue;
            }
            let new: Vec<Type> = outs.iter().zip(&returned).map(|(o, r)| if improves(ctx, o, r) { r.clone() } else { o.clone() }).collect();
            if new != outs {
                let fty = ctx.intern_type(TypeData::Function { inputs: ins, results: new });
                cx.body.op_mut(f).properties.set(ctx.ident("function_type"), ir::Attribute::type_attr(fty));
            }
        }
        cx.stat("num-refined", "Result types made more precise or ops folded", total);
        cx.stat("num-folded", "Ops folded to constants or operands", folded);
        Ok(())
    }
}
