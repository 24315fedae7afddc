//! The rewriter: every IR change a pattern makes goes through it, so the
//! driver knows which ops to revisit.

use super::conversion::TypeConverter;
use super::pattern::MatchFailure;
use crate::body::{Block, Body, InsertPoint, OpId, OperationState, Value};
use crate::context::Context;
use crate::location::Location;

pub struct Rewriter<'a> {
    pub ctx: &'a Context,
    pub body: &'a mut Body,
    insertion: Option<InsertPoint>,
    pub(crate) created: Vec<OpId>,
    pub(crate) modified: Vec<OpId>,
    /// Ops whose operands changed because a value they used was replaced.
    pub(crate) touched_users: Vec<OpId>,
    /// Defining ops of operands of erased ops (they may have become dead).
    pub(crate) freed_operands: Vec<OpId>,
    pub(crate) erased: Vec<OpId>,
    pub(crate) converter: Option<&'a TypeConverter>,
}

impl<'a> Rewriter<'a> {
    pub fn new(ctx: &'a Context, body: &'a mut Body) -> Rewriter<'a> {
        Rewriter {
            ctx,
            body,
            insertion: None,
            created: vec![],
            modified: vec![],
            touched_users: vec![],
            freed_operands: vec![],
            erased: vec![],
            converter: None,
        }
    }

    pub fn set_insertion_point(&mut self, ip: InsertPoint) {
        self.insertion = Some(ip);
    }

    /// Creates an op at the insertion point (before the matched op by default).
    pub fn create(&mut self, st: OperationState) -> OpId {
        let ip = self.insertion.expect("Rewriter::create without an insertion point");
        let op = self.body.build(st, ip);
        self.insertion = Some(crate::builder::advance(ip, op));
        self.created.push(op);
        op
    }

    /// Shorthand for a single-result op at the insertion point.
    pub fn create_value(&mut self, st: OperationState) -> Value {
        let op = self.create(st);
        self.body.op(op).result(0)
    }

    fn note_users(&mut self, v: Value) {
        let users: Vec<OpId> = self.body.uses(v).iter().map(|u| u.op).collect();
        self.touched_users.extend(users);
    }

    /// Replaces every use of `op`'s results with `values` and erases `op`.
    pub fn replace_op(&mut self, op: OpId, values: &[Value]) {
        let results = self.body.op(op).results().to_vec();
        assert_eq!(results.len(), values.len(), "replace_op: {} results, {} replacements", results.len(), values.len());
        for (r, v) in results.iter().zip(values) {
            let (rt, vt) = (self.body.value_type(*r).clone(), self.body.value_type(*v).clone());
            self.note_users(*r);
            if rt != vt && self.converter.is_some() {
                // A converted value replacing an old one: users not yet converted get a cast back.
                let loc = self.body.op(op).loc.clone();
                let cast = self.materialize(*v, &rt, InsertPoint::Before(op), loc);
                self.body.replace_all_uses(*r, cast);
            } else {
                self.body.replace_all_uses(*r, *v);
            }
        }
        self.erase_op(op);
    }

    /// Creates `st` before `op` and replaces `op` with its results.
    pub fn replace_op_with_new(&mut self, op: OpId, st: OperationState) -> OpId {
        self.set_insertion_point(InsertPoint::Before(op));
        let new = self.create(st);
        let vals = self.body.op(new).results().to_vec();
        self.replace_op(op, &vals);
        new
    }

    /// Erases an op whose results are unused.
    pub fn erase_op(&mut self, op: OpId) {
        for v in self.body.op(op).operands().to_vec() {
            if let Some(d) = self.body.defining_op(v) {
                self.freed_operands.push(d);
            }
        }
        for o in self.body.walk_preorder(op) {
            self.erased.push(o);
        }
        self.body.erase(op);
    }

    /// Changes `op` in place (operands, attributes) through `f`.
    pub fn modify_in_place(&mut self, op: OpId, f: impl FnOnce(&mut Body)) {
        f(self.body);
        self.modified.push(op);
    }

    /// Moves the ops of `block` before `op`, its arguments replaced by `args`.
    pub fn inline_block_before(&mut self, block: Block, op: OpId, args: &[Value]) {
        let ops: Vec<OpId> = self.body.block_ops(block).collect();
        self.body.inline_block(block, InsertPoint::Before(op), args);
        self.modified.extend(ops);
    }

    /// Records why a pattern did not apply; use as `return rw.match_failure("...")`.
    pub fn match_failure<T>(&self, reason: impl Into<String>) -> Result<T, MatchFailure> {
        Err(MatchFailure(reason.into()))
    }

    /// The operands of `op`, cast to their converted types when a type converter is active.
    pub fn converted_operands(&mut self, op: OpId) -> Vec<Value> {
        let operands = self.body.op(op).operands().to_vec();
        let Some(tc) = self.converter else { return operands };
        let loc = self.body.op(op).loc.clone();
        operands
            .into_iter()
            .map(|v| {
                let t = self.body.value_type(v).clone();
                match tc.convert(self.ctx, &t) {
                    Some(nt) if nt != t => self.materialize(v, &nt, InsertPoint::Before(op), loc.clone()),
                    _ => v,
                }
            })
            .collect()
    }

    /// Gives the block arguments of `region` their converted types; their old
    /// users get a cast back to the old type (removed later if they cancel).
    /// Returns whether anything changed; `Err` if a type cannot be converted.
    pub fn convert_region_types(&mut self, region: crate::body::Region) -> Result<bool, MatchFailure> {
        let Some(tc) = self.converter else { return Ok(false) };
        let mut changed = false;
        for b in self.body.region_blocks(region).to_vec() {
            for arg in self.body.block_args(b).to_vec() {
                let old = self.body.value_type(arg).clone();
                let Some(new) = tc.convert(self.ctx, &old) else {
                    return self.match_failure(format!("block argument type '{}' cannot be converted", old));
                };
                if new == old {
                    continue;
                }
                let uses = self.body.uses(arg).to_vec();
                self.body.set_value_type(arg, new);
                if !uses.is_empty() {
                    let loc = self.body.value_loc(arg).cloned().unwrap_or_else(Location::unknown);
                    let cast = self.materialize(arg, &old, InsertPoint::AtStart(b), loc);
                    for u in uses {
                        self.body.set_operand(u.op, u.index as usize, cast);
                    }
                }
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Converts a type with the active type converter (identity without one).
    pub fn convert_type(&self, t: &crate::Type) -> Option<crate::Type> {
        match self.converter {
            Some(tc) => tc.convert(self.ctx, t),
            None => Some(t.clone()),
        }
    }

    fn materialize(&mut self, v: Value, to: &crate::Type, at: InsertPoint, loc: Location) -> Value {
        let tc = self.converter;
        let made = tc.and_then(|tc| tc.materialize(self.ctx, self.body, v, to, at, loc.clone()));
        let out = match made {
            Some(x) => x,
            None => {
                let st = OperationState::new(self.ctx.op_name("builtin.unrealized_conversion_cast"), loc).operands(&[v]).results(&[to.clone()]);
                let op = self.body.build(st, at);
                self.body.op(op).result(0)
            }
        };
        if let Some(d) = self.body.defining_op(out) {
            self.created.push(d);
        }
        out
    }
}
