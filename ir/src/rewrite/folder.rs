//! Folding through op folders, with constants materialized by the op's dialect,
//! uniqued per isolated region and hoisted to the start of its entry block (as
//! MLIR's `OperationFolder`).

use crate::attributes::Attribute;
use crate::body::{Body, InsertPoint, OpId, Region, Value};
use crate::context::Context;
use crate::dialect::{FoldInput, FoldResult, Trait};
use crate::types::Type;
use std::collections::HashMap;

#[derive(Default)]
pub struct OperationFolder {
    constants: HashMap<(Region, Attribute, Type), OpId>,
}

/// The value a constant-like op holds (its `value` property).
pub fn constant_value(body: &Body, op: OpId) -> Option<Attribute> {
    let d = body.op(op);
    if !d.name.def().is_some_and(|x| x.has_trait(Trait::ConstantLike)) {
        return None;
    }
    d.properties.get("value").cloned()
}

/// The region constants used by `op` are hoisted into: the nearest enclosing
/// region owned by an isolated-from-above op.
fn constant_scope(body: &Body, op: OpId) -> Option<Region> {
    let mut cur = op;
    loop {
        let block = body.op(cur).parent_block()?;
        let region = body.block_parent(block)?;
        let parent = body.region_parent(region)?;
        if body.name(parent).def().is_some_and(|d| d.has_trait(Trait::IsolatedFromAbove)) {
            return Some(region);
        }
        cur = parent;
    }
}

impl OperationFolder {
    /// What the result of folding changed.
    /// Returns the ops created (constants) and the users of replaced values, or `None` if nothing folded.
    pub fn try_fold(&mut self, ctx: &Context, body: &mut Body, op: OpId) -> Option<(Vec<OpId>, Vec<OpId>)> {
        let def = body.name(op).def()?;
        let fold = def.fold?;
        if def.has_trait(Trait::ConstantLike) {
            return None;
        }
        let constants: Vec<Option<Attribute>> = body
            .op(op)
            .operands()
            .iter()
            .map(|v| body.defining_op(*v).and_then(|d| constant_value(body, d)))
            .collect();
        let results = fold(&FoldInput { ctx, body, op, constants: &constants })?;
        let old = body.op(op).results().to_vec();
        if results.len() != old.len() {
            return None;
        }
        // Materialize constants first; give up (changing nothing) if one cannot be.
        let mut created = vec![];
        let mut repl: Vec<Value> = vec![];
        for (r, f) in old.iter().zip(&results) {
            match f {
                FoldResult::Value(v) => {
                    // A replacement must be the same value type (as MLIR's folder asserts).
                    if v == r || body.value_type(*v) != body.value_type(*r) {
                        return None;
                    }
                    repl.push(*v)
                }
                FoldResult::Attr(a) => {
                    let ty = body.value_type(*r).clone();
                    let dialect = body.name(op).dialect();
                    match self.get_or_create_constant(ctx, body, op, dialect, a, &ty) {
                        Some((v, new)) => {
                            if let Some(n) = new {
                                created.push(n);
                            }
                            repl.push(v)
                        }
                        None => {
                            for c in created {
                                body.erase(c);
                            }
                            return None;
                        }
                    }
                }
            }
        }
        let mut users = vec![];
        for (r, v) in old.iter().zip(&repl) {
            users.extend(body.uses(*r).iter().map(|u| u.op));
            body.replace_all_uses(*r, *v);
        }
        body.erase(op);
        Some((created, users))
    }

    fn get_or_create_constant(
        &mut self,
        ctx: &Context,
        body: &mut Body,
        at: OpId,
        dialect: &str,
        value: &Attribute,
        ty: &Type,
    ) -> Option<(Value, Option<OpId>)> {
        let scope = constant_scope(body, at)?;
        let key = (scope, value.clone(), ty.clone());
        if let Some(&c) = self.constants.get(&key) {
            if !body.is_erased(c) {
                return Some((body.op(c).result(0), None));
            }
        }
        let materialize = ctx.dialect(dialect).and_then(|d| d.materialize_constant)?;
        let loc = body.op(at).loc.clone();
        let c = materialize(ctx, body, value, ty, loc)?;
        let entry = *body.region_blocks(scope).first()?;
        body.insert(c, InsertPoint::AtStart(entry));
        self.constants.insert(key, c);
        Some((body.op(c).result(0), Some(c)))
    }

    /// Visits a constant: an equal one already known in its scope replaces it;
    /// otherwise it is hoisted to the start of the scope and becomes the known one.
    /// Returns the users touched (when it was replaced) and whether anything changed.
    pub fn visit_constant(&mut self, body: &mut Body, op: OpId) -> Option<Vec<OpId>> {
        let value = constant_value(body, op)?;
        let scope = constant_scope(body, op)?;
        let ty = body.value_type(body.op(op).result(0)).clone();
        let key = (scope, value, ty);
        let entry = *body.region_blocks(scope).first()?;
        match self.constants.get(&key) {
            Some(&c) if c != op && !body.is_erased(c) => {
                let r = body.op(op).result(0);
                let users: Vec<OpId> = body.uses(r).iter().map(|u| u.op).collect();
                body.replace_all_uses(r, body.op(c).result(0));
                body.erase(op);
                Some(users)
            }
            Some(&c) if c == op => None,
            _ => {
                self.constants.insert(key, op);
                if body.op(op).parent_block() != Some(entry) || !self.is_in_constant_prefix(body, op, entry) {
                    body.move_op(op, InsertPoint::AtStart(entry));
                    return Some(vec![]);
                }
                None
            }
        }
    }

    /// True when every op before `op` in `entry` is a constant (it is already hoisted).
    fn is_in_constant_prefix(&self, body: &Body, op: OpId, entry: crate::body::Block) -> bool {
        for o in body.block_ops(entry) {
            if o == op {
                return true;
            }
            if constant_value(body, o).is_none() {
                return false;
            }
        }
        false
    }
}
