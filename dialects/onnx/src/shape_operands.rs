//! Which graph inputs reach an operand whose value decides a result's shape
//! (`Reshape`'s `shape`, `Slice`'s `starts`, a window's `size`, …: each op
//! family lists its own, `crate::family::is_shape_operand`). A model whose shapes hang on such inputs is static
//! only once their values are known; the compilers specialize on them (as
//! ONNX Runtime knows them when it runs), and the conformance figures count
//! inference with them bound and every other input unknown.

use crate::ops;
use ir::function_like::{io_attr, Io};
use ir::{Body, OpId, Value};

/// A rank-0 or one-element tensor (a flag, a rate, a length).
fn is_scalar(body: &Body, v: Value) -> bool {
    body.value_type(v).shape().is_some_and(|s| s.iter().all(|&d| d == 1))
}

/// Whether operand `index` of an op named `op` is listed in `table`.
pub fn is_listed(table: &[(&str, &[usize])], op: &str, index: usize) -> bool {
    table.iter().any(|(n, pos)| *n == op && pos.contains(&index))
}

/// Ops whose results depend on an operand's shape only, never its values:
/// a value's influence stops there.
const SHAPE_READERS: &[&str] = &[ops::Shape::NAME, ops::Size::NAME];

/// Whether `v`'s value flows, through the results of the ops that read it (and
/// out of the regions that yield it), into an operand that decides a shape.
pub fn decides_shapes(body: &Body, v: Value) -> bool {
    reaches(body, v, &|b: &Body, op: OpId, index: usize| crate::family::is_shape_operand(b.name(op).as_str(), index))
}

/// Whether `v`'s value flows into the condition of an If whose branches give
/// different or unknown types: the branch taken decides the results' shapes.
pub fn decides_branch_shapes(body: &Body, v: Value) -> bool {
    reaches(body, v, &|b: &Body, op: OpId, index: usize| b.name(op).as_str() == ops::If::NAME && index == 0 && branches_differ(b, op))
}

/// Whether the branches of an If may give different shapes: their types
/// differ or are not static, or they give sequences or optionals (whose
/// contents the types do not say).
fn branches_differ(body: &Body, op: OpId) -> bool {
    let seq_or_opt = |t: &ir::Type| matches!(t.data(), ir::types::TypeData::Opaque { dialect, body } if dialect == "onnx" && (body.starts_with(".Seq<") || body.starts_with(".Opt<")));
    if body.op(op).results().iter().any(|r| seq_or_opt(body.value_type(*r))) {
        return true;
    }
    let (a, b) = (crate::infer::yields(body, op, 0), crate::infer::yields(body, op, 1));
    let static_ = |t: &ir::Type| t.shape().is_some_and(|s| !s.contains(&ir::types::DYNAMIC));
    a != b || a.is_none_or(|ts| !ts.iter().all(static_))
}

/// Whether `v`'s value flows into an operand `hit` accepts (op, operand index).
fn reaches(body: &Body, v: Value, hit: &dyn Fn(&Body, OpId, usize) -> bool) -> bool {
    let mut seen = std::collections::HashSet::from([v]);
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        for u in body.uses(v) {
            let op = body.name(u.op);
            if hit(body, u.op, u.index as usize) {
                return true;
            }
            if SHAPE_READERS.contains(&op.as_str()) {
                continue;
            }
            // A Loop's carried value or a SequenceMap's operand flows into its body's argument.
            let arg = match op.as_str() {
                ops::Loop::NAME if u.index >= 2 => Some(u.index as usize),
                ops::SequenceMap::NAME => Some(u.index as usize),
                _ => None,
            };
            if let Some(a) = arg.and_then(|k| body.entry_block(u.op).and_then(|b| body.block_args(b).get(k).copied())) {
                if seen.insert(a) {
                    work.push(a);
                }
            }
            // What a region yields flows out of the op that holds it (an If's results).
            let flows_to = if op.as_str() == ops::YIELD { body.parent_op(u.op) } else { Some(u.op) };
            for &r in flows_to.map(|o| body.op(o).results()).unwrap_or(&[]) {
                if seen.insert(r) {
                    work.push(r);
                }
            }
        }
    }
    false
}

/// The arguments of `func` (an imported graph) whose values decide shapes: by
/// the op families' shape operands through any chain of ops, or by feeding an operand listed in
/// `direct` themselves (a caller's operands that must be constant for other
/// reasons), or, for scalar inputs, by choosing the branch of an If whose
/// branches give different shapes (a model's sample-rate switch; a condition
/// computed from a data tensor stays a run-time choice). Each is
/// `(argument index, ONNX input name)`.
pub fn deciding_inputs(body: &Body, func: OpId, direct: &[(&str, &[usize])]) -> Vec<(usize, String)> {
    let Some(entry) = body.entry_block(func) else { return vec![] };
    let name = |k: usize| io_attr(body, func, Io::Arg, k, "onnx.name").and_then(|n| n.as_str()).unwrap_or("").to_string();
    body.block_args(entry)
        .iter()
        .enumerate()
        .filter(|(_, a)| {
            decides_shapes(body, **a)
                || body.uses(**a).iter().any(|u| is_listed(direct, body.name(u.op).as_str(), u.index as usize))
                || (is_scalar(body, **a) && decides_branch_shapes(body, **a))
        })
        .map(|(k, _)| (k, name(k)))
        .collect()
}
