//! `sccp`: sparse constant propagation. Every value gets a lattice state
//! (constant or overdefined) computed with the op folders from the states of
//! its operands, to a fixed point over the use lists; values proven constant
//! are then replaced by materialized constants and dead ops removed.
//!
//! Block arguments are overdefined: with no branch ops registered yet (no `cf`
//! dialect) there are no conditional edges to reason about. When `cf` lands,
//! the executable-edge half of SCCP belongs here.

use crate::attributes::Attribute;
use crate::dialect::{FoldInput, FoldResult, Trait};
use crate::pass::{Pass, PassContext};
use crate::rewrite::is_trivially_dead_op;
use crate::{Body, Context, InsertPoint, OpId, Value};
use std::collections::HashMap;

pub struct Sccp;

fn constant_of(body: &Body, op: OpId) -> Option<Attribute> {
    let d = body.op(op);
    d.name.def().filter(|x| x.has_trait(Trait::ConstantLike))?;
    d.properties.get("value").cloned()
}

/// Evaluates `op` on the known constants; the constants of its results, if all known.
fn evaluate(ctx: &Context, body: &Body, op: OpId, lattice: &HashMap<Value, Attribute>) -> Option<Vec<Attribute>> {
    if let Some(c) = constant_of(body, op) {
        return Some(vec![c]);
    }
    let def = body.name(op).def()?;
    let fold = def.fold?;
    let constants: Vec<Option<Attribute>> = body.op(op).operands().iter().map(|v| lattice.get(v).cloned()).collect();
    let out = fold(&FoldInput { ctx, body, op, constants: &constants })?;
    out.into_iter()
        .map(|r| match r {
            FoldResult::Attr(a) => Some(a),
            FoldResult::Value(v) => lattice.get(&v).cloned(),
        })
        .collect()
}

impl Pass for Sccp {
    fn argument(&self) -> &'static str {
        "sccp"
    }
    fn display_name(&self) -> &'static str {
        "SCCP"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let mut lattice: HashMap<Value, Attribute> = HashMap::new();
        let mut wl: Vec<OpId> = body.walk_preorder(root);
        wl.reverse();
        while let Some(op) = wl.pop() {
            if op == root || body.is_erased(op) {
                continue;
            }
            let Some(vals) = evaluate(ctx, body, op, &lattice) else { continue };
            let results = body.op(op).results().to_vec();
            if vals.len() != results.len() {
                continue;
            }
            for (r, a) in results.iter().zip(vals) {
                if a.typ() != Some(body.value_type(*r)) || lattice.contains_key(r) {
                    continue;
                }
                lattice.insert(*r, a);
                wl.extend(body.uses(*r).iter().map(|u| u.op));
            }
        }
        // Replace every non-constant value proven constant.
        let mut replaced = 0;
        let mut made: HashMap<(Attribute, crate::Block), Value> = HashMap::new();
        for op in body.walk_preorder(root) {
            if body.is_erased(op) || op == root || constant_of(body, op).is_some() {
                continue;
            }
            for r in body.op(op).results().to_vec() {
                let Some(a) = lattice.get(&r).cloned() else { continue };
                if !body.has_uses(r) {
                    continue;
                }
                let dialect = body.name(op).dialect();
                let Some(mat) = ctx.dialect(dialect).and_then(|d| d.materialize_constant) else { continue };
                // One constant per value and block (placed before its first user there).
                let Some(parent) = body.op(op).parent_block() else { continue };
                let v = match made.get(&(a.clone(), parent)) {
                    Some(v) => *v,
                    None => {
                        let ty = body.value_type(r).clone();
                        let loc = body.op(op).loc.clone();
                        let Some(c) = mat(ctx, body, &a, &ty, loc) else { continue };
                        body.insert(c, InsertPoint::Before(op));
                        let v = body.op(c).result(0);
                        made.insert((a, parent), v);
                        v
                    }
                };
                body.replace_all_uses(r, v);
                replaced += 1;
            }
        }
        // Users before definitions, so chains of dead ops go in one sweep.
        let mut erased = 0;
        for op in body.walk_preorder(root).into_iter().rev() {
            if op != root && !body.is_erased(op) && is_trivially_dead_op(body, op) {
                body.erase(op);
                erased += 1;
            }
        }
        cx.stat("num-constants", "Values replaced by constants", replaced);
        cx.stat("num-erased", "Dead ops erased", erased);
        Ok(())
    }
}
