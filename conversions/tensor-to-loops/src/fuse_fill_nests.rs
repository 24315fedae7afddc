//! `fuse-fill-nests`: consecutive loop nests that only store one constant
//! (a padded buffer's border fills: the rows above and below, the columns
//! left and right) become one nest over their common outer loop. Each fill
//! was a pass over the whole buffer of its own, and a column's fill touches
//! every row's cache line: MobileNetV2's four fills per depthwise conv wrote
//! each line twice and ran on one thread, below the work that pays for
//! threads. One nest writes a channel's borders together, its columns row
//! by row (a row's right border and the next row's left one share a line),
//! and with their work summed it is more often worth splitting over the
//! threads.
//!
//! Legal because such nests read nothing and write the same value: whatever
//! order their stores run in, memory ends the same. Two parallel nests fuse
//! only where every store of both writes one buffer at the outer loop's
//! index in one place (a channel's borders, at that channel), so that the
//! fused loop's iterations still write disjoint elements.

use ir::attributes::Attribute;
use ir::pass::{Pass, PassContext};
use ir::{Body, InsertPoint, OpId, Value};

pub struct FuseFillNests;

impl Pass for FuseFillNests {
    fn argument(&self) -> &'static str {
        "fuse-fill-nests"
    }
    fn display_name(&self) -> &'static str {
        "FuseFillNests"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let body = &mut *cx.body;
        let mut blocks: Vec<ir::Block> = body.walk_preorder(root).into_iter().filter(|o| body.name(*o).as_str() == func::ops::FUNC).filter_map(|f| body.entry_block(f)).collect();
        while let Some(block) = blocks.pop() {
            let ops: Vec<OpId> = body.block_ops(block).collect();
            let mut into: Option<(OpId, Attribute)> = None;
            let mut fills = vec![];
            for op in ops {
                match (into.clone(), fill_value(body, op)) {
                    (Some((first, v)), Some(w)) if v == w && same_bounds(body, first, op) && iterations_stay_apart(body, first, op) => merge(body, first, op),
                    (_, value) => {
                        into = value.map(|v| (op, v));
                        fills.extend(into.as_ref().map(|(o, _)| *o));
                    }
                }
            }
            // Inside a fused fill, loops of the same range go on together (a
            // channel's left and right columns: row by row, both sides).
            blocks.extend(fills.into_iter().map(|l| loop_body(body, l)));
        }
        Ok(())
    }
}

/// The constant `nest` stores everywhere it stores, when it is an `scf.for`
/// without results whose body only computes indices and masks and stores
/// that one constant (scalar, or a vector of it).
pub(crate) fn fill_value(body: &Body, nest: OpId) -> Option<Attribute> {
    if body.name(nest).as_str() != scf::ops::FOR || !body.op(nest).results().is_empty() {
        return None;
    }
    let mut value: Option<Attribute> = None;
    let mut same = |v: Value| -> bool {
        let Some(c) = constant(body, v) else { return false };
        value.get_or_insert_with(|| c.clone()) == &c
    };
    for o in body.walk_preorder(nest).into_iter().skip(1) {
        let ok = match body.name(o).as_str() {
            scf::ops::FOR => body.op(o).results().is_empty(),
            scf::ops::YIELD | vector::ops::CREATE_MASK | arith::ops::CONSTANT => true,
            n if n.starts_with("arith.") => body.op(o).results().iter().all(|r| body.value_type(*r).is_index()),
            vector::ops::BROADCAST => same(body.op(o).operand(0)),
            memref::ops::STORE | vector::ops::STORE => stored(body, body.op(o).operand(0)).is_some_and(&mut same),
            vector::ops::MASKEDSTORE => body.op(o).operands().last().and_then(|v| stored(body, *v)).is_some_and(&mut same),
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    value
}

/// The scalar a store writes: itself, or what a `vector.broadcast` splats.
fn stored(body: &Body, v: Value) -> Option<Value> {
    if !matches!(body.value_type(v).data(), ir::types::TypeData::Vector { .. }) {
        return Some(v);
    }
    let d = body.defining_op(v)?;
    (body.name(d).as_str() == vector::ops::BROADCAST).then(|| body.op(d).operand(0))
}

/// The value of a constant.
fn constant(body: &Body, v: Value) -> Option<Attribute> {
    ir::rewrite::constant_value(body, body.defining_op(v)?)
}

/// Whether two loops run over the same range and step (the same values,
/// or equal constants).
fn same_bounds(body: &Body, a: OpId, b: OpId) -> bool {
    let (oa, ob) = (body.op(a).operands(), body.op(b).operands());
    oa.len() == 3 && ob.len() == 3 && (0..3).all(|i| oa[i] == ob[i] || constant(body, oa[i]).is_some_and(|c| Some(c) == constant(body, ob[i])))
}

/// Moves `second`'s body to the end of `first`'s (its induction variable
/// becoming `first`'s) and erases `second`; `first` stays parallel only if
/// both were.
fn merge(body: &mut Body, first: OpId, second: OpId) {
    let (into, from) = (loop_body(body, first), loop_body(body, second));
    let iv = body.block_args(into)[0];
    let yield_op = body.block_ops(into).last().unwrap();
    let from_yield = body.block_ops(from).last().unwrap();
    body.erase(from_yield);
    body.inline_block(from, InsertPoint::Before(yield_op), &[iv]);
    if body.op(second).attributes.get(crate::PARALLEL).is_none() {
        body.op_mut(first).attributes.remove(crate::PARALLEL);
    }
    body.erase(second);
}

/// An `scf.for`'s body block.
fn loop_body(body: &Body, l: OpId) -> ir::Block {
    body.region_blocks(body.op(l).regions()[0])[0]
}

/// Whether fusing loops `a` and `b` keeps the iterations of a parallel one
/// apart: where either is sequential, always; where both are parallel, when
/// every store of both writes one buffer with the loop's own index at one
/// position of its indices (iteration i then writes only elements whose
/// index there is i).
fn iterations_stay_apart(body: &Body, a: OpId, b: OpId) -> bool {
    let parallel = |l: OpId| body.op(l).attributes.get(crate::PARALLEL).is_some();
    if !(parallel(a) && parallel(b)) {
        return true;
    }
    let mut seen: Option<(Value, usize)> = None;
    [a, b].into_iter().all(|l| {
        let iv = body.block_args(loop_body(body, l))[0];
        body.walk_preorder(l).into_iter().filter_map(|o| store_target(body, o)).all(|(buf, idx)| {
            let Some(pos) = idx.iter().position(|v| *v == iv) else { return false };
            *seen.get_or_insert((buf, pos)) == (buf, pos)
        })
    })
}

/// A store's buffer and indices (memref.store, vector.store, vector.maskedstore).
fn store_target(body: &Body, o: OpId) -> Option<(Value, Vec<Value>)> {
    let ops = body.op(o).operands();
    match body.name(o).as_str() {
        memref::ops::STORE | vector::ops::STORE => Some((ops[1], ops[2..].to_vec())),
        vector::ops::MASKEDSTORE => Some((ops[0], ops[1..ops.len() - 2].to_vec())),
        _ => None,
    }
}
